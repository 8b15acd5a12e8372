//! Mesh import: OBJ (a small reader of `v`/`f` statements), PLY (ply-rs), TetGen
//! `.node`/`.ele` and Gmsh `.msh` (MSH 4.1 through mshio, MSH 2.2 ASCII by a reader here).
//!
//! Every importer ends in [`ImportedMesh::check_model`], the one place that decides whether a
//! mesh can become a body; it refuses, with a typed [`ImportError`] naming the file and the
//! element (its index and, for text formats, its line):
//!
//! * a mesh with no vertices, or with neither triangles nor tetrahedra;
//! * non-finite coordinates and indices out of range;
//! * an element that repeats a vertex;
//! * a degenerate element: area (triangle) or volume (tetrahedron) at most
//!   `1e-12 · ℓᵏ` (ℓ its longest edge, k = 2 or 3: a flat or collapsed element) or at most
//!   `1e-12 ×` the mean area/volume of the mesh's elements of that kind (an element too small
//!   for the mesh to carry mass). Lumped masses come from these measures, so such an element
//!   would give its corners no mass: inverse mass 0, a silently pinned particle;
//! * an inverted tetrahedron, `det[v₁ − v₀, v₂ − v₀, v₃ − v₀] < 0`.
//!
//! **Orientation rule: inverted tetrahedra are refused, never flipped**, for every tet source
//! (TetGen and Gmsh 2.2/4.1 alike). Both formats define positively oriented elements (Gmsh's
//! reference tetrahedron is (0,0,0), (1,0,0), (0,1,0), (0,0,1); TetGen lists the fourth
//! corner above the first three), so a negative tet means a broken export: a mirroring
//! transform, a converter with the wrong node order, or a tangled mesh. Flipping it would hide
//! that and, for a tangled mesh, build overlapping elements. The error names the element (and
//! its line in text formats), so the export can be fixed.
//!
//! A third-party parser that panics on malformed bytes is contained by `guarded` (quietly:
//! nothing reaches stderr), so no importer panics (fuzzed by the `fuzz/` targets and
//! `xtask/tests/fuzz.rs`). A mesh body of a scene also needs every vertex to belong to
//! an element of the kind it uses ([`ImportedMesh::check_body`]).

mod check;
mod error;
#[cfg(feature = "files")]
mod gmsh;
#[cfg(feature = "files")]
mod guard;
mod obj;
#[cfg(feature = "files")]
mod ply;
mod tetgen;

use std::path::Path;

use xpbd_core::Vector;

pub use error::{ElementKind, ElementRef, ImportError};
#[cfg(feature = "files")]
pub use gmsh::parse_gmsh;
pub use obj::{load_obj, parse_obj};
#[cfg(feature = "files")]
pub use ply::{parse_ply, read_ply};
pub use tetgen::{parse_tetgen, parse_tetgen_pair};

/// Vertices plus the triangles and/or tetrahedra that use them (0-based indices).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ImportedMesh {
    /// Vertex positions (m).
    pub vertices: Vec<Vector<3>>,
    /// Per-vertex velocities when the file carries them (PLY `vx vy vz`), else empty.
    pub velocities: Vec<Vector<3>>,
    /// Line segments (VTK line cells; other formats have none).
    pub segments: Vec<[usize; 2]>,
    /// Triangles.
    pub triangles: Vec<[usize; 3]>,
    /// Tetrahedra.
    pub tets: Vec<[usize; 4]>,
    /// 1-based source line of each vertex (text formats; empty when unknown).
    pub vertex_lines: Vec<usize>,
    /// 1-based source line of each triangle (text formats; empty when unknown).
    pub triangle_lines: Vec<usize>,
    /// 1-based source line of each tetrahedron (text formats; empty when unknown).
    pub tet_lines: Vec<usize>,
}

/// Imports a mesh, choosing the format by extension: `.obj`, `.ply`, `.node` (with the `.ele`
/// beside it) or `.msh` (PLY and Gmsh with the `files` feature, else refused as unsupported).
pub fn import_mesh(path: &Path) -> Result<ImportedMesh, ImportError> {
    let file = path.display().to_string();
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "obj" => parse_obj(&read(path)?, &file),
        #[cfg(feature = "files")]
        "ply" => parse_ply(&read(path)?, &file),
        #[cfg(feature = "files")]
        "msh" => parse_gmsh(&read(path)?, &file),
        "node" => {
            let ele = path.with_extension("ele");
            let node_text = String::from_utf8_lossy(&read(path)?).into_owned();
            let ele_text = String::from_utf8_lossy(&read(&ele)?).into_owned();
            parse_tetgen_pair(&node_text, &file, &ele_text, &ele.display().to_string())
        }
        _ => Err(ImportError::UnsupportedFormat { file }),
    }
}

/// Reads a file's bytes, naming it in the error.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, ImportError> {
    std::fs::read(path).map_err(|e| ImportError::Io {
        file: path.display().to_string(),
        message: e.to_string(),
    })
}
