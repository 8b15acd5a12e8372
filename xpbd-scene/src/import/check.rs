//! The checks every importer's output goes through ([`ImportedMesh::check_model`]) and the
//! ones a scene's mesh body adds ([`ImportedMesh::check_body`]); see the module docs of
//! [`crate::import`] for the rules.

use xpbd_core::Vector;

use super::ImportedMesh;
use super::error::{ElementKind, ElementRef, ImportError, non_finite};

/// Relative tolerance of the degeneracy tests (see the module docs).
const DEGENERATE: f64 = 1e-12;

impl ImportedMesh {
    /// The element `index` of `kind`, with its source line when known.
    pub fn element(&self, kind: ElementKind, index: usize) -> ElementRef {
        let lines = match kind {
            ElementKind::Segment => &[][..],
            ElementKind::Triangle => &self.triangle_lines[..],
            ElementKind::Tet => &self.tet_lines[..],
        };
        ElementRef::new(kind, index).at_line(lines.get(index).copied().unwrap_or(0))
    }

    /// Checks finite coordinates and in-range indices: what any reader of mesh data needs,
    /// including the VTK frame reader, whose deformed frames may hold flat or inverted cells.
    ///
    /// ```
    /// use xpbd_scene::import::ImportedMesh;
    /// let mut m = ImportedMesh::default();
    /// m.vertices.push(xpbd_core::Vector::<3>::zeros());
    /// m.triangles.push([0, 0, 3]);
    /// assert!(m.validate("demo").is_err());
    /// ```
    pub fn validate(&self, file: &str) -> Result<(), ImportError> {
        let n = self.vertices.len();
        for set in [&self.vertices, &self.velocities] {
            for (i, x) in set.iter().enumerate() {
                if let Some(&value) = x.iter().find(|c| !c.is_finite()) {
                    let line = self.vertex_lines.get(i).copied().unwrap_or(0);
                    return Err(non_finite(file, i, line, value));
                }
            }
        }
        let cells = self
            .segments
            .iter()
            .enumerate()
            .map(|(e, c)| (ElementKind::Segment, e, &c[..]))
            .chain(
                self.triangles
                    .iter()
                    .enumerate()
                    .map(|(e, c)| (ElementKind::Triangle, e, &c[..])),
            )
            .chain(
                self.tets
                    .iter()
                    .enumerate()
                    .map(|(e, c)| (ElementKind::Tet, e, &c[..])),
            );
        for (kind, e, cell) in cells {
            if let Some(&i) = cell.iter().find(|&&i| i >= n) {
                return Err(ImportError::IndexOutOfRange {
                    file: file.into(),
                    element: self.element(kind, e),
                    index: i as i64,
                    count: n,
                });
            }
        }
        Ok(())
    }

    /// [`Self::validate`], then the model rules every importer applies: vertices and
    /// elements present, no repeated vertex in an element, no degenerate element, no
    /// inverted tetrahedron (see the module docs).
    ///
    /// ```
    /// use xpbd_core::Vector;
    /// use xpbd_scene::import::{ImportError, ImportedMesh};
    /// let mut m = ImportedMesh::default();
    /// m.vertices = vec![Vector::<3>::zeros(), Vector::<3>::x(), Vector::<3>::x() * 2.0];
    /// m.triangles.push([0, 1, 2]); // collinear: zero area
    /// assert!(matches!(m.check_model("flat.obj"), Err(ImportError::Degenerate { .. })));
    /// ```
    pub fn check_model(&self, file: &str) -> Result<(), ImportError> {
        self.check_model_in(file, file)
    }

    /// [`Self::check_model`] with element errors naming `element_file` (TetGen's `.ele`).
    pub(crate) fn check_model_in(&self, file: &str, element_file: &str) -> Result<(), ImportError> {
        if self.vertices.is_empty() {
            return Err(ImportError::Empty {
                file: file.into(),
                what: "vertices",
            });
        }
        if self.triangles.is_empty() && self.tets.is_empty() {
            return Err(ImportError::Empty {
                file: element_file.into(),
                what: "triangles or tetrahedra",
            });
        }
        self.validate(file)?;
        let x = &self.vertices;
        let tri: Vec<(f64, f64)> = self
            .triangles
            .iter()
            .map(|t| {
                let p = t.map(|i| x[i]);
                let area = 0.5 * (p[1] - p[0]).cross(&(p[2] - p[0])).norm();
                (area, longest_edge(&p).powi(2))
            })
            .collect();
        self.check_kind(element_file, ElementKind::Triangle, &self.triangles, &tri)?;
        let tet: Vec<(f64, f64)> = self
            .tets
            .iter()
            .map(|t| {
                let p = t.map(|i| x[i]);
                (signed_volume(&p), longest_edge(&p).powi(3))
            })
            .collect();
        self.check_kind(element_file, ElementKind::Tet, &self.tets, &tet)
    }

    /// Repeated vertices, degeneracy and (tetrahedra) orientation of one element kind, given
    /// each element's signed measure and `ℓᵏ`.
    fn check_kind<const K: usize>(
        &self,
        file: &str,
        kind: ElementKind,
        cells: &[[usize; K]],
        measures: &[(f64, f64)],
    ) -> Result<(), ImportError> {
        let mean = measures.iter().map(|m| m.0.abs()).sum::<f64>() / measures.len().max(1) as f64;
        for (e, (cell, &(measure, scale))) in cells.iter().zip(measures).enumerate() {
            let element = self.element(kind, e);
            if let Some(k) = (1..K).find(|&k| cell[..k].contains(&cell[k])) {
                return Err(ImportError::RepeatedVertex {
                    file: file.into(),
                    element,
                    vertex: cell[k],
                });
            }
            let tolerance = DEGENERATE * scale.max(mean);
            if measure.abs() <= tolerance || measure.is_nan() {
                return Err(ImportError::Degenerate {
                    file: file.into(),
                    element,
                    measure: measure.abs(),
                    tolerance,
                });
            }
            if measure < 0.0 {
                return Err(ImportError::Inverted {
                    file: file.into(),
                    element,
                    volume: measure,
                });
            }
        }
        Ok(())
    }

    /// What a scene's mesh body adds to [`Self::check_model`]: the elements it is built from
    /// (`tets = true`: tetrahedra, soft body; else triangles, cloth) exist, and every vertex
    /// belongs to one of them (else its lumped mass would be 0, a silently pinned particle).
    pub fn check_body(&self, file: &str, tets: bool) -> Result<(), ImportError> {
        let (cells, what, plural): (Vec<&[usize]>, _, _) = if tets {
            let c = self.tets.iter().map(|t| &t[..]).collect();
            (c, "tetrahedron", "tetrahedra")
        } else {
            let c = self.triangles.iter().map(|t| &t[..]).collect();
            (c, "triangle", "triangles")
        };
        if cells.is_empty() {
            return Err(ImportError::Empty {
                file: file.into(),
                what: plural,
            });
        }
        let mut used = vec![false; self.vertices.len()];
        for &i in cells.iter().flat_map(|c| c.iter()) {
            if let Some(u) = used.get_mut(i) {
                *u = true;
            }
        }
        match used.iter().position(|u| !u) {
            Some(vertex) => Err(ImportError::UnusedVertex {
                file: file.into(),
                vertex,
                what,
            }),
            None => Ok(()),
        }
    }
}

/// Longest edge of a simplex.
fn longest_edge<const K: usize>(p: &[Vector<3>; K]) -> f64 {
    let mut longest = 0.0f64;
    for a in 0..K {
        for b in a + 1..K {
            longest = longest.max((p[a] - p[b]).norm());
        }
    }
    longest
}

/// `det[v₁ − v₀, v₂ − v₀, v₃ − v₀] / 6`.
fn signed_volume(p: &[Vector<3>; 4]) -> f64 {
    (p[1] - p[0]).dot(&(p[2] - p[0]).cross(&(p[3] - p[0]))) / 6.0
}
