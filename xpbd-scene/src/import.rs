//! Mesh import: OBJ (tobj), PLY (ply-rs), TetGen `.node`/`.ele` (xpbd-core's reader) and
//! Gmsh `.msh` 2.2/4.1 (mshio). Every importer returns an [`ImportedMesh`] that has been checked
//! for finite coordinates and in-range indices, or a typed [`ImportError`]; none panics on
//! malformed bytes (fuzzed by the `fuzz/` targets and `tests/fuzz_regressions.rs`).

use std::collections::HashMap;
use std::path::Path;

use xpbd_core::Vector;
use xpbd_core::mesh::{MeshError, TetMesh};

use crate::error::ImportError;

/// Runs a third-party parser, turning a panic inside it into [`ImportError::Malformed`].
///
/// Fuzzing (`cargo xtask fuzz`) found inputs that make ply-rs 0.1.3 (`uint` overflow in its
/// header grammar), tobj 4.0.5 (index arithmetic overflow) and mshio 0.4.2 (`num_nodes - 1`
/// underflow for an empty node block) panic; the crash inputs are replayed by
/// `tests/fuzz_regressions.rs`. Until those crates are fixed the panic is contained here
/// (the default panic hook still prints it to stderr; needs `panic = "unwind"`, the default).
fn guarded<T>(
    format: &'static str,
    file: &str,
    parse: impl FnOnce() -> Result<T, ImportError>,
) -> Result<T, ImportError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(parse)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(ImportError::Malformed {
            file: file.into(),
            format,
            message: format!("the {format} parser panicked: {message}"),
        })
    })
}

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
}

impl ImportedMesh {
    /// Checks finite coordinates and in-range indices (the importers call this last).
    ///
    /// ```
    /// use xpbd_scene::import::ImportedMesh;
    /// let mut m = ImportedMesh::default();
    /// m.vertices.push(xpbd_core::Vector::<3>::zeros());
    /// m.triangles.push([0, 0, 3]);
    /// assert!(m.validate("demo").is_err());
    /// ```
    pub fn validate(&self, file: &str) -> Result<(), ImportError> {
        for (i, x) in self
            .vertices
            .iter()
            .chain(self.velocities.iter())
            .enumerate()
        {
            if let Some(&value) = x.iter().find(|c| !c.is_finite()) {
                return Err(ImportError::NonFinite {
                    file: file.into(),
                    vertex: i % self.vertices.len().max(1),
                    value,
                });
            }
        }
        let n = self.vertices.len();
        let segs = self.segments.iter().map(|t| &t[..]);
        let tris = self.triangles.iter().map(|t| &t[..]);
        let tets = self.tets.iter().map(|t| &t[..]);
        for (e, cell) in segs.chain(tris).chain(tets).enumerate() {
            if let Some(&i) = cell.iter().find(|&&i| i >= n) {
                return Err(ImportError::IndexOutOfRange {
                    file: file.into(),
                    element: e,
                    index: i as i64,
                    count: n,
                });
            }
        }
        Ok(())
    }
}

/// Imports a mesh, choosing the format by extension: `.obj`, `.ply`, `.node` (with the `.ele`
/// beside it) or `.msh`.
pub fn import_mesh(path: &Path) -> Result<ImportedMesh, ImportError> {
    let file = path.display().to_string();
    let read = |p: &Path| {
        std::fs::read(p).map_err(|e| ImportError::Io {
            file: p.display().to_string(),
            message: e.to_string(),
        })
    };
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "obj" => parse_obj(&read(path)?, &file),
        "ply" => parse_ply(&read(path)?, &file),
        "msh" => parse_gmsh(&read(path)?, &file),
        "node" => {
            let ele = path.with_extension("ele");
            let node_text = String::from_utf8_lossy(&read(path)?).into_owned();
            let ele_text = String::from_utf8_lossy(&read(&ele)?).into_owned();
            parse_tetgen(&node_text, &ele_text, &file)
        }
        _ => Err(ImportError::UnsupportedFormat { file }),
    }
}

/// Parses Wavefront OBJ bytes (polygons are triangulated; no material libraries).
/// tobj stores positions as `f32`, so coordinates round-trip to f32 precision.
///
/// ```
/// let m = xpbd_scene::import::parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "t.obj").unwrap();
/// assert_eq!(m.triangles, vec![[0, 1, 2]]);
/// ```
pub fn parse_obj(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    guarded("obj", file, || parse_obj_unguarded(bytes, file))
}

fn parse_obj_unguarded(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    let opts = tobj::LoadOptions {
        triangulate: true,
        single_index: true,
        ..Default::default()
    };
    let mut reader = std::io::BufReader::new(bytes);
    let (models, _) =
        tobj::load_obj_buf(&mut reader, &opts, |_| Err(tobj::LoadError::OpenFileFailed)).map_err(
            |e| ImportError::Malformed {
                file: file.into(),
                format: "obj",
                message: e.to_string(),
            },
        )?;
    let mut mesh = ImportedMesh::default();
    for m in &models {
        let base = mesh.vertices.len();
        let p = &m.mesh.positions;
        mesh.vertices.extend(
            p.chunks_exact(3)
                .map(|v| Vector::<3>::new(v[0] as f64, v[1] as f64, v[2] as f64)),
        );
        let local = p.len() / 3;
        for (k, t) in m.mesh.indices.chunks(3).enumerate() {
            if t.len() != 3 {
                return Err(ImportError::WrongArity {
                    file: file.into(),
                    element: mesh.triangles.len() + k,
                    count: t.len(),
                    expected: 3,
                });
            }
            if let Some(&i) = t.iter().find(|&&i| i as usize >= local) {
                return Err(ImportError::IndexOutOfRange {
                    file: file.into(),
                    element: mesh.triangles.len(),
                    index: i as i64,
                    count: local,
                });
            }
            mesh.triangles.push([0, 1, 2].map(|k| base + t[k] as usize));
        }
    }
    mesh.validate(file)?;
    Ok(mesh)
}

/// Reads PLY (ASCII or binary): element `vertex` with `x y z` (any scalar type) and optional
/// `vx vy vz`, element `face` with a list `vertex_indices` (or `vertex_index`) of triangles.
///
/// ```
/// let text = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n\
///             property float z\nelement face 1\nproperty list uchar int vertex_indices\n\
///             end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
/// let m = xpbd_scene::import::parse_ply(text.as_bytes(), "t.ply").unwrap();
/// assert_eq!((m.vertices.len(), m.triangles.len()), (3, 1));
/// ```
pub fn parse_ply(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    guarded("ply", file, || parse_ply_unguarded(bytes, file))
}

fn parse_ply_unguarded(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    use ply_rs::ply::{DefaultElement, Property};
    let parser = ply_rs::parser::Parser::<DefaultElement>::new();
    let mut reader = bytes;
    let ply = parser
        .read_ply(&mut reader)
        .map_err(|e| ImportError::Malformed {
            file: file.into(),
            format: "ply",
            message: e.to_string(),
        })?;
    let scalar = |p: Option<&Property>| -> Option<f64> {
        Some(match p? {
            Property::Char(v) => *v as f64,
            Property::UChar(v) => *v as f64,
            Property::Short(v) => *v as f64,
            Property::UShort(v) => *v as f64,
            Property::Int(v) => *v as f64,
            Property::UInt(v) => *v as f64,
            Property::Float(v) => *v as f64,
            Property::Double(v) => *v,
            _ => return None,
        })
    };
    let missing = |what: &str| ImportError::Missing {
        file: file.into(),
        what: what.into(),
    };
    let mut mesh = ImportedMesh::default();
    let vertices = ply
        .payload
        .get("vertex")
        .ok_or_else(|| missing("element `vertex`"))?;
    let has_velocity = vertices.first().is_some_and(|v| v.contains_key("vx"));
    for v in vertices {
        let get = |name: &str| {
            scalar(v.get(name)).ok_or_else(|| missing(&format!("scalar property `vertex.{name}`")))
        };
        mesh.vertices
            .push(Vector::<3>::new(get("x")?, get("y")?, get("z")?));
        if has_velocity {
            mesh.velocities
                .push(Vector::<3>::new(get("vx")?, get("vy")?, get("vz")?));
        }
    }
    for (e, f) in ply.payload.get("face").into_iter().flatten().enumerate() {
        let list = f
            .get("vertex_indices")
            .or_else(|| f.get("vertex_index"))
            .ok_or_else(|| missing("list property `face.vertex_indices`"))?;
        let idx: Vec<i64> = match list {
            Property::ListChar(l) => l.iter().map(|&i| i as i64).collect(),
            Property::ListUChar(l) => l.iter().map(|&i| i as i64).collect(),
            Property::ListShort(l) => l.iter().map(|&i| i as i64).collect(),
            Property::ListUShort(l) => l.iter().map(|&i| i as i64).collect(),
            Property::ListInt(l) => l.iter().map(|&i| i as i64).collect(),
            Property::ListUInt(l) => l.iter().map(|&i| i as i64).collect(),
            _ => return Err(missing("integer list `face.vertex_indices`")),
        };
        if idx.len() != 3 {
            return Err(ImportError::WrongArity {
                file: file.into(),
                element: e,
                count: idx.len(),
                expected: 3,
            });
        }
        let n = mesh.vertices.len();
        if let Some(&i) = idx.iter().find(|&&i| i < 0 || i as usize >= n) {
            return Err(ImportError::IndexOutOfRange {
                file: file.into(),
                element: e,
                index: i,
                count: n,
            });
        }
        mesh.triangles
            .push([idx[0] as usize, idx[1] as usize, idx[2] as usize]);
    }
    mesh.validate(file)?;
    Ok(mesh)
}

/// Reads a TetGen `.node` / `.ele` pair through [`TetMesh::from_tetgen`] (which also rejects
/// inverted and degenerate tets). The header counts are checked against the number of lines
/// first: the core reader reserves memory for the declared count, so a corrupt header
/// (fuzz regression `import_tetgen/crash-c379…`) would otherwise abort on allocation.
pub fn parse_tetgen(
    node_text: &str,
    ele_text: &str,
    file: &str,
) -> Result<ImportedMesh, ImportError> {
    for (what, text) in [("node", node_text), ("ele", ele_text)] {
        let header = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .find(|l| !l.is_empty());
        let declared = header
            .and_then(|h| h.split_whitespace().next())
            .and_then(|t| t.parse::<u64>().ok());
        let lines = text.lines().count() as u64;
        if let Some(n) = declared
            && n > lines
        {
            return Err(ImportError::Malformed {
                file: file.into(),
                format: "tetgen",
                message: format!(
                    ".{what} header declares {n} entries but the text has only {lines} lines"
                ),
            });
        }
    }
    let tet = TetMesh::from_tetgen(node_text, ele_text).map_err(|e| mesh_error(e, file))?;
    let mesh = ImportedMesh {
        vertices: tet.vertices.clone(),
        velocities: Vec::new(),
        segments: Vec::new(),
        triangles: Vec::new(),
        tets: tet.cells.iter().map(|c| c.map(|i| i as usize)).collect(),
    };
    mesh.validate(file)?;
    Ok(mesh)
}

fn mesh_error(e: MeshError, file: &str) -> ImportError {
    match e {
        MeshError::NonFiniteVertex { vertex } => ImportError::NonFinite {
            file: file.into(),
            vertex,
            value: f64::NAN,
        },
        MeshError::IndexOutOfRange {
            cell,
            index,
            vertex_count,
            ..
        } => ImportError::IndexOutOfRange {
            file: file.into(),
            element: cell,
            index: index as i64,
            count: vertex_count,
        },
        other => ImportError::Malformed {
            file: file.into(),
            format: "tetgen",
            message: other.to_string(),
        },
    }
}

/// Reads Gmsh MSH 4.1 (ASCII or binary) through mshio: 3-node triangles and 4-node tetrahedra
/// are kept, other element types (points, lines) are skipped. Node tags are mapped to 0-based
/// indices in file order.
pub fn parse_gmsh(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    guarded("gmsh", file, || parse_gmsh_unguarded(bytes, file))
}

fn parse_gmsh_unguarded(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    let msh = mshio::parse_msh_bytes(bytes).map_err(|e| ImportError::Malformed {
        file: file.into(),
        format: "gmsh",
        message: e.to_string().chars().take(400).collect(),
    })?;
    let mut mesh = ImportedMesh::default();
    let mut index_of_tag: HashMap<u64, usize> = HashMap::new();
    if let Some(nodes) = &msh.data.nodes {
        let mut next_dense_tag = nodes.min_node_tag;
        for block in &nodes.node_blocks {
            let base = mesh.vertices.len();
            match &block.node_tags {
                Some(tags) => {
                    for (&tag, &k) in tags {
                        index_of_tag.insert(tag, base + k);
                    }
                }
                None => {
                    for k in 0..block.nodes.len() {
                        index_of_tag.insert(next_dense_tag.saturating_add(k as u64), base + k);
                    }
                    next_dense_tag = next_dense_tag.saturating_add(block.nodes.len() as u64);
                }
            }
            mesh.vertices
                .extend(block.nodes.iter().map(|n| Vector::<3>::new(n.x, n.y, n.z)));
        }
    }
    let mut element = 0usize;
    if let Some(elements) = &msh.data.elements {
        for block in &elements.element_blocks {
            let arity = match block.element_type {
                mshio::ElementType::Tri3 => 3,
                mshio::ElementType::Tet4 => 4,
                _ => {
                    element += block.elements.len();
                    continue;
                }
            };
            for el in &block.elements {
                if el.nodes.len() != arity {
                    return Err(ImportError::WrongArity {
                        file: file.into(),
                        element,
                        count: el.nodes.len(),
                        expected: arity,
                    });
                }
                let mut idx = [0usize; 4];
                for (k, tag) in el.nodes.iter().enumerate() {
                    idx[k] = *index_of_tag.get(tag).ok_or(ImportError::IndexOutOfRange {
                        file: file.into(),
                        element,
                        index: *tag as i64,
                        count: mesh.vertices.len(),
                    })?;
                }
                if arity == 3 {
                    mesh.triangles.push([idx[0], idx[1], idx[2]]);
                } else {
                    mesh.tets.push(idx);
                }
                element += 1;
            }
        }
    }
    mesh.validate(file)?;
    Ok(mesh)
}
