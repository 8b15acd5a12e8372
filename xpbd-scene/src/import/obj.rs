//! Wavefront OBJ: the `v` and `f` statements, read here (no third-party parser, so nothing
//! to panic, positions kept in f64, and every error names its line).
//!
//! `v x y z [w]` adds a vertex (`w` ignored). `f a b c …` adds a polygon, split into the fan
//! `(a, b, c), (a, c, d), …`; each corner is `i`, `i/t`, `i//n` or `i/t/n`, only `i` is used:
//! 1-based, or negative = relative to the vertices read so far (`-1` the last). `#` starts a
//! comment, a `\` at the end of a line continues it. Other statements (`vt`, `vn`, `o`, `g`,
//! `s`, `usemtl`, `mtllib`, `l`, `p`, …) are ignored. Vertices keep their file order (unused
//! ones too), so indices in errors are the file's (0-based in the mesh: the file's minus 1).

use xpbd_core::Vector;
use xpbd_core::builders::TriangleSurface;

use super::error::{ElementKind, ElementRef};
use super::{ImportError, ImportedMesh};

/// Parses Wavefront OBJ bytes (see the module docs) and checks the mesh
/// ([`ImportedMesh::check_model`]).
///
/// ```
/// let m = xpbd_scene::import::parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "t.obj").unwrap();
/// assert_eq!(m.triangles, vec![[0, 1, 2]]);
/// assert_eq!(m.triangle_lines, vec![4]);
/// ```
pub fn parse_obj(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    let text = String::from_utf8_lossy(bytes);
    let mut mesh = ImportedMesh::default();
    // Faces are resolved at the end, so a positive index may name a later vertex.
    let mut faces: Vec<Face> = Vec::new();
    let mut pending = String::new();
    let mut start = 0;
    for (k, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("");
        if pending.is_empty() {
            start = k + 1;
        }
        if let Some(head) = content.trim_end().strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        pending.push_str(content);
        let line = std::mem::take(&mut pending);
        statement(&line, start, file, &mut mesh, &mut faces)?;
    }
    if !pending.is_empty() {
        statement(&pending, start, file, &mut mesh, &mut faces)?;
    }
    let n = mesh.vertices.len();
    for Face { line, corners, .. } in faces {
        let first = mesh.triangles.len();
        let element = ElementRef::new(ElementKind::Triangle, first).at_line(line);
        let mut ids = Vec::with_capacity(corners.len());
        for raw in corners {
            // Negative indices were resolved when read; here every one is 1-based.
            if raw < 1 || raw as u64 > n as u64 {
                return Err(ImportError::IndexOutOfRange {
                    file: file.into(),
                    element,
                    index: raw,
                    count: n,
                });
            }
            ids.push(raw as usize - 1);
        }
        for k in 1..ids.len() - 1 {
            mesh.triangles.push([ids[0], ids[k], ids[k + 1]]);
            mesh.triangle_lines.push(line);
        }
    }
    mesh.check_model(file)?;
    Ok(mesh)
}

/// An `f` statement: its line, its 1-based corners, and the number of triangles up to and
/// including its fan.
struct Face {
    line: usize,
    corners: Vec<i64>,
    end: usize,
}

/// One statement (a line with its continuations), starting at 1-based `line`.
fn statement(
    text: &str,
    line: usize,
    file: &str,
    mesh: &mut ImportedMesh,
    faces: &mut Vec<Face>,
) -> Result<(), ImportError> {
    let mut fields = text.split_whitespace();
    let syntax = |message: String| ImportError::Syntax {
        file: file.into(),
        line,
        message,
    };
    match fields.next() {
        Some("v") => {
            let mut c = [0.0; 3];
            for (k, name) in ["x", "y", "z"].iter().enumerate() {
                let t = fields
                    .next()
                    .ok_or_else(|| syntax(format!("vertex without {name} coordinate")))?;
                c[k] = t.parse().map_err(|_| {
                    syntax(format!("vertex {name} coordinate `{t}` is not a number"))
                })?;
            }
            mesh.vertices.push(Vector::<3>::new(c[0], c[1], c[2]));
            mesh.vertex_lines.push(line);
        }
        Some("f") => {
            let first = faces.last().map_or(0, |f| f.end);
            let element = ElementRef::new(ElementKind::Triangle, first).at_line(line);
            let n = mesh.vertices.len() as i64;
            let mut corners = Vec::new();
            for t in fields {
                let v = t.split('/').next().unwrap_or("");
                let i: i64 = v
                    .parse()
                    .map_err(|_| syntax(format!("face corner `{t}` is not a vertex index")))?;
                // Relative (negative) indices count back from the vertices read so far.
                let resolved = if i < 0 {
                    n.saturating_add(i).saturating_add(1)
                } else {
                    i
                };
                if i == 0 || resolved < 1 {
                    return Err(ImportError::IndexOutOfRange {
                        file: file.into(),
                        element,
                        index: i,
                        count: n as usize,
                    });
                }
                corners.push(resolved);
            }
            if corners.len() < 3 {
                return Err(ImportError::WrongArity {
                    file: file.into(),
                    element,
                    count: corners.len(),
                    expected: 3,
                });
            }
            faces.push(Face {
                line,
                end: first + corners.len() - 2,
                corners,
            });
        }
        _ => {}
    }
    Ok(())
}

/// Reads an OBJ file into a [`TriangleSurface`] (e.g. a collider mesh for
/// [`xpbd_core::contact::SdfGrid::from_mesh`]), with the checks of [`parse_obj`].
pub fn load_obj(path: impl AsRef<std::path::Path>) -> Result<TriangleSurface, ImportError> {
    let path = path.as_ref();
    let mesh = parse_obj(&super::read(path)?, &path.display().to_string())?;
    Ok(TriangleSurface {
        vertices: mesh.vertices,
        triangles: mesh.triangles,
    })
}
