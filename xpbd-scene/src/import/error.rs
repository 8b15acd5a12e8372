//! [`ImportError`]: why a mesh file cannot be imported, naming the file and, where there is
//! one, the element (kind, index in the imported mesh, and source line for text formats).

use std::fmt;
use std::num::NonZeroU32;

/// The kind of a mesh element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementKind {
    /// A line segment (VTK line cell).
    Segment,
    /// A triangle (OBJ/PLY face, Gmsh element type 2).
    Triangle,
    /// A tetrahedron (TetGen `.ele` entry, Gmsh element type 4).
    Tet,
}

/// One element of an imported mesh: its kind, its 0-based index among the elements of that
/// kind (the index in [`crate::import::ImportedMesh::triangles`] or `tets`), and the 1-based
/// line of the file it was read from, for text formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElementRef {
    /// Triangle, tetrahedron or segment.
    pub kind: ElementKind,
    /// 0-based index among the elements of this kind.
    pub index: usize,
    /// 1-based source line (text formats; kept small so errors stay small).
    line: Option<NonZeroU32>,
}

impl ElementRef {
    /// An element without a known source line.
    pub fn new(kind: ElementKind, index: usize) -> Self {
        Self {
            kind,
            index,
            line: None,
        }
    }

    /// The same element, read from `line` (1-based; 0, or a line past `u32::MAX`, = unknown).
    pub fn at_line(self, line: usize) -> Self {
        Self {
            line: u32::try_from(line).ok().and_then(NonZeroU32::new),
            ..self
        }
    }

    /// The 1-based source line, for text formats.
    pub fn line(&self) -> Option<usize> {
        self.line.map(|l| l.get() as usize)
    }
}

impl fmt::Display for ElementRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            ElementKind::Segment => "segment",
            ElementKind::Triangle => "triangle",
            ElementKind::Tet => "tetrahedron",
        };
        write!(f, "{kind} {}", self.index)?;
        if let Some(line) = self.line {
            write!(f, " (line {line})")?;
        }
        Ok(())
    }
}

fn at(line: &Option<usize>) -> String {
    line.map(|l| format!(":{l}")).unwrap_or_default()
}

/// A mesh file that cannot be imported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    /// The file could not be read.
    #[error("{file}: cannot read: {message}")]
    Io {
        /// The path.
        file: String,
        /// The OS error.
        message: String,
    },
    /// The extension names no supported format.
    #[error("{file}: unsupported mesh format (expected .obj, .ply, .node, .msh)")]
    UnsupportedFormat {
        /// The path.
        file: String,
    },
    /// The format library rejected the bytes (truncated file, bad header, wrong counts).
    #[error("{file}: malformed {format} file: {message}")]
    Malformed {
        /// The path (or `<bytes>`).
        file: String,
        /// `obj`, `ply`, `tetgen`, `gmsh`, `vtk`.
        format: &'static str,
        /// What the parser said.
        message: String,
    },
    /// A line of a text format that cannot be read (a field that is not a number, a missing
    /// field, a count that disagrees with the header).
    #[error("{file}:{line}: {message}")]
    Syntax {
        /// The path of the file the line is in (e.g. the `.ele` file of a TetGen pair).
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong, naming the field and the text found.
        message: String,
    },
    /// A required property or element is absent (e.g. a PLY file without `vertex.z`).
    #[error("{file}: missing {what}")]
    Missing {
        /// The path.
        file: String,
        /// What is missing.
        what: String,
    },
    /// The mesh has no vertices, or none of the elements a body needs: it would build a body
    /// of no particles, or of particles without mass.
    #[error("{file}: the mesh has no {what}")]
    Empty {
        /// The path.
        file: String,
        /// `vertices`, `triangles or tetrahedra`, `triangles` (cloth), `tetrahedra` (soft).
        what: &'static str,
    },
    /// A coordinate is NaN or infinite.
    #[error("{file}{}: vertex {vertex} has a non-finite coordinate {value}", at(.line))]
    NonFinite {
        /// The path.
        file: String,
        /// Vertex index (0-based, after import).
        vertex: usize,
        /// 1-based source line, for text formats.
        line: Option<usize>,
        /// The bad coordinate.
        value: f64,
    },
    /// An element refers to a vertex that does not exist.
    #[error("{file}: {element} refers to vertex {index}, but there are {count} vertices")]
    IndexOutOfRange {
        /// The path.
        file: String,
        /// The element.
        element: ElementRef,
        /// The bad vertex index (0-based; as written for 1-based formats) or Gmsh node tag.
        index: i64,
        /// Number of vertices.
        count: usize,
    },
    /// An element has an unsupported number of vertices (faces must be triangles).
    #[error("{file}: {element} has {count} vertices, expected {expected}")]
    WrongArity {
        /// The path.
        file: String,
        /// The element.
        element: ElementRef,
        /// Vertices found.
        count: usize,
        /// Vertices expected.
        expected: usize,
    },
    /// An element lists the same vertex twice (a collapsed element: zero area or volume).
    #[error("{file}: {element} repeats vertex {vertex}")]
    RepeatedVertex {
        /// The path.
        file: String,
        /// The element.
        element: ElementRef,
        /// The repeated vertex index (0-based).
        vertex: usize,
    },
    /// An element of zero or near-zero area/volume: its corners would get (almost) no lumped
    /// mass, i.e. silently pinned or wildly light particles.
    #[error(
        "{file}: {element} is degenerate: {} {measure:e} is at most the tolerance {tolerance:e}",
        if .element.kind == ElementKind::Tet { "volume" } else { "area" }
    )]
    Degenerate {
        /// The path.
        file: String,
        /// The element.
        element: ElementRef,
        /// Its area (triangle) or unsigned volume (tetrahedron), in file units.
        measure: f64,
        /// The threshold (see the `import` module docs).
        tolerance: f64,
    },
    /// A tetrahedron whose vertices are listed in negative orientation
    /// (`det[v₁ − v₀, v₂ − v₀, v₃ − v₀] < 0`): refused, never flipped.
    #[error(
        "{file}: {element} is inverted: signed volume {volume:e} < 0 (its vertices are listed \
         in negative orientation; fix the exporter or swap two of them)"
    )]
    Inverted {
        /// The path.
        file: String,
        /// The element.
        element: ElementRef,
        /// Signed volume `det[v₁ − v₀, v₂ − v₀, v₃ − v₀] / 6` (negative).
        volume: f64,
    },
    /// A vertex that no element of the kind a body uses refers to: it would be a particle
    /// without mass (a silently pinned particle).
    #[error("{file}: vertex {vertex} belongs to no {what}, so it would have no mass")]
    UnusedVertex {
        /// The path.
        file: String,
        /// Vertex index (0-based, after import).
        vertex: usize,
        /// `triangle` (cloth) or `tetrahedron` (soft body).
        what: &'static str,
    },
}

/// A non-finite coordinate error helper (kept here so all variants are built alike).
pub(crate) fn non_finite(file: &str, vertex: usize, line: usize, value: f64) -> ImportError {
    ImportError::NonFinite {
        file: file.into(),
        vertex,
        line: (line > 0).then_some(line),
        value,
    }
}
