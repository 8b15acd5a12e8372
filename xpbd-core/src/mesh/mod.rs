//! Linear simplex meshes shared by the FEM oracle, the XPBD tet/triangle constraints and the
//! XPBI particle samplers.
//!
//! A [`SimplexMesh<D, K>`] is a list of vertices in `D` dimensions and cells of `K` vertex
//! indices. The aliases cover the cases the workspace uses: [`TetMesh`] (`D = 3, K = 4`),
//! [`TriMesh2`] (`D = 2, K = 3`) and [`SurfaceMesh`] (`D = 3, K = 3`).
//!
//! Full-dimensional cells (`K = D + 1`) are *positively oriented* when
//! `det[v₁ − v₀, …, v_D − v₀] > 0`; [`SimplexMesh::validate`] checks indices, orientation and
//! degeneracy and returns a typed [`MeshError`].
//!
//! ```
//! use xpbd_core::mesh::TetMesh;
//! let beam = TetMesh::box_beam([1.0, 0.1, 0.1], [10, 1, 1]).unwrap();
//! assert_eq!(beam.cells.len(), 6 * 10);
//! beam.validate().unwrap();
//! assert!((beam.total_measure() - 0.01).abs() < 1e-12);
//! ```

mod generators;

use crate::energy::determinant;
use nalgebra::{SMatrix, SVector};

/// A mesh of `K`-vertex simplices in `D` dimensions.
#[derive(Debug, Clone, PartialEq)]
pub struct SimplexMesh<const D: usize, const K: usize> {
    /// Vertex positions.
    pub vertices: Vec<SVector<f64, D>>,
    /// Cells as vertex indices.
    pub cells: Vec<[u32; K]>,
}

/// Tetrahedral volume mesh.
pub type TetMesh = SimplexMesh<3, 4>;
/// Triangle mesh in the plane (plane-strain FEM, 2-D XPBD).
pub type TriMesh2 = SimplexMesh<2, 3>;
/// Triangle surface mesh in space (cloth, boundaries).
pub type SurfaceMesh = SimplexMesh<3, 3>;

/// Why a mesh is unusable. Every variant names the offending cell or vertex.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {vertex} has a non-finite coordinate")]
    NonFiniteVertex {
        /// Vertex index.
        vertex: usize,
    },
    /// A cell refers to a vertex that does not exist.
    #[error(
        "cell {cell} (local vertex {local}) refers to vertex {index}, but there are only {vertex_count} vertices"
    )]
    IndexOutOfRange {
        /// Cell index.
        cell: usize,
        /// Position inside the cell.
        local: usize,
        /// The bad vertex index.
        index: u32,
        /// Number of vertices in the mesh.
        vertex_count: usize,
    },
    /// A cell lists the same vertex twice.
    #[error("cell {cell} repeats vertex {index}")]
    RepeatedVertex {
        /// Cell index.
        cell: usize,
        /// The repeated vertex index.
        index: u32,
    },
    /// A cell has (numerically) zero measure.
    #[error("cell {cell} is degenerate: measure {measure:e} (tolerance {tolerance:e})")]
    DegenerateCell {
        /// Cell index.
        cell: usize,
        /// Signed measure (volume/area).
        measure: f64,
        /// Threshold `1e-12 · (longest edge)^D` below which a cell is degenerate.
        tolerance: f64,
    },
    /// A full-dimensional cell is negatively oriented.
    #[error("cell {cell} is inverted: signed measure {measure:e}")]
    InvertedCell {
        /// Cell index.
        cell: usize,
        /// Signed measure (negative).
        measure: f64,
    },
    /// A generator was asked for a non-positive size or zero cells.
    #[error("invalid generator input: {field} = {value}")]
    InvalidGeneratorInput {
        /// Which argument.
        field: &'static str,
        /// Its value (as text).
        value: String,
    },
}

impl<const D: usize, const K: usize> SimplexMesh<D, K> {
    /// A mesh from raw parts (not validated; call [`Self::validate`]).
    pub fn new(vertices: Vec<SVector<f64, D>>, cells: Vec<[u32; K]>) -> Self {
        Self { vertices, cells }
    }

    /// Vertex positions of a cell.
    pub fn cell_vertices(&self, cell: usize) -> [SVector<f64, D>; K] {
        self.cells[cell].map(|i| self.vertices[i as usize])
    }

    /// Signed measure (length/area/volume) of a full-dimensional cell (`K = D + 1`):
    /// `det[v₁ − v₀, …, v_D − v₀] / D!`. For other `K` the unsigned measure from the Gram
    /// determinant `sqrt(det(EᵀE)) / (K − 1)!` (e.g. triangle area in 3-D).
    pub fn signed_measure(&self, cell: usize) -> f64 {
        let v = self.cell_vertices(cell);
        let factorial: f64 = (1..K).map(|k| k as f64).product();
        if K == D + 1 {
            let edges = SMatrix::<f64, D, D>::from_fn(|i, j| v[j + 1][i] - v[0][i]);
            determinant(&edges) / factorial
        } else {
            let m = K - 1;
            let gram =
                nalgebra::DMatrix::from_fn(m, m, |i, j| (v[i + 1] - v[0]).dot(&(v[j + 1] - v[0])));
            gram.determinant().max(0.0).sqrt() / factorial
        }
    }

    /// Sum of the (signed) cell measures.
    pub fn total_measure(&self) -> f64 {
        (0..self.cells.len()).map(|c| self.signed_measure(c)).sum()
    }

    /// Checks finiteness, index range, repeated vertices, degeneracy (`|measure| ≤ 1e-12 ·
    /// (longest edge)^(K−1)`) and, for full-dimensional cells, positive orientation.
    pub fn validate(&self) -> Result<(), MeshError> {
        if let Some(vertex) = self
            .vertices
            .iter()
            .position(|v| !v.iter().all(|x| x.is_finite()))
        {
            return Err(MeshError::NonFiniteVertex { vertex });
        }
        let n = self.vertices.len();
        for (cell, ids) in self.cells.iter().enumerate() {
            for (local, &index) in ids.iter().enumerate() {
                if index as usize >= n {
                    return Err(MeshError::IndexOutOfRange {
                        cell,
                        local,
                        index,
                        vertex_count: n,
                    });
                }
                if ids[..local].contains(&index) {
                    return Err(MeshError::RepeatedVertex { cell, index });
                }
            }
            let v = self.cell_vertices(cell);
            let mut longest = 0.0f64;
            for a in 0..K {
                for b in (a + 1)..K {
                    longest = longest.max((v[a] - v[b]).norm());
                }
            }
            let measure = self.signed_measure(cell);
            let tolerance = 1e-12 * longest.powi(K as i32 - 1);
            if measure.abs() <= tolerance {
                return Err(MeshError::DegenerateCell {
                    cell,
                    measure,
                    tolerance,
                });
            }
            if K == D + 1 && measure < 0.0 {
                return Err(MeshError::InvertedCell { cell, measure });
            }
        }
        Ok(())
    }

    /// Swaps the last two vertices of every negatively oriented full-dimensional cell.
    pub fn orient_positively(&mut self) {
        if K != D + 1 || K < 2 {
            return;
        }
        for c in 0..self.cells.len() {
            if self.signed_measure(c) < 0.0 {
                self.cells[c].swap(K - 2, K - 1);
            }
        }
    }

    /// All distinct edges `[a, b]` (`a < b`), sorted.
    pub fn unique_edges(&self) -> Vec<[u32; 2]> {
        let mut edges: Vec<[u32; 2]> = self
            .cells
            .iter()
            .flat_map(|c| {
                (0..K)
                    .flat_map(move |a| ((a + 1)..K).map(move |b| [c[a].min(c[b]), c[a].max(c[b])]))
            })
            .collect();
        edges.sort_unstable();
        edges.dedup();
        edges
    }
}

#[cfg(test)]
mod tests;
