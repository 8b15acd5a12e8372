//! Triangle meshes from Wavefront OBJ files (through the `tobj` crate).

use crate::{BuildError, Vector};

/// Vertices and triangles of a surface.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TriangleSurface {
    /// Vertex positions.
    pub vertices: Vec<Vector<3>>,
    /// Triangles (vertex indices).
    pub triangles: Vec<[usize; 3]>,
}

/// Loads every model of an OBJ file into one surface (polygons are triangulated).
pub fn load_obj(path: impl AsRef<std::path::Path>) -> Result<TriangleSurface, BuildError> {
    let path = path.as_ref();
    let opts = tobj::LoadOptions {
        triangulate: true,
        single_index: true,
        ..Default::default()
    };
    let (models, _) = tobj::load_obj(path, &opts).map_err(|e| BuildError::Import {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    surface_from_models(&models, &path.display().to_string())
}

/// Parses OBJ text (no material libraries).
///
/// ```
/// let s = xpbd_core::builders::obj::parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
/// assert_eq!(s.triangles, vec![[0, 1, 2]]);
/// ```
pub fn parse_obj(text: &str) -> Result<TriangleSurface, BuildError> {
    let opts = tobj::LoadOptions {
        triangulate: true,
        single_index: true,
        ..Default::default()
    };
    let mut reader = std::io::BufReader::new(text.as_bytes());
    let (models, _) =
        tobj::load_obj_buf(&mut reader, &opts, |_| Err(tobj::LoadError::OpenFileFailed)).map_err(
            |e| BuildError::Import {
                path: "<string>".into(),
                message: e.to_string(),
            },
        )?;
    surface_from_models(&models, "<string>")
}

fn surface_from_models(models: &[tobj::Model], path: &str) -> Result<TriangleSurface, BuildError> {
    let mut s = TriangleSurface::default();
    for m in models {
        let base = s.vertices.len();
        let p = &m.mesh.positions;
        for v in p.chunks_exact(3) {
            let x = Vector::<3>::new(v[0] as f64, v[1] as f64, v[2] as f64);
            if !x.iter().all(|c| c.is_finite()) {
                return Err(BuildError::Import {
                    path: path.into(),
                    message: format!("vertex {} is not finite", s.vertices.len()),
                });
            }
            s.vertices.push(x);
        }
        for t in m.mesh.indices.chunks_exact(3) {
            let tri = [
                t[0] as usize + base,
                t[1] as usize + base,
                t[2] as usize + base,
            ];
            if tri.iter().any(|&i| i >= s.vertices.len()) {
                return Err(BuildError::Import {
                    path: path.into(),
                    message: format!("face index out of range in model {}", m.name),
                });
            }
            s.triangles.push(tri);
        }
    }
    if s.triangles.is_empty() {
        return Err(BuildError::Import {
            path: path.into(),
            message: "no faces".into(),
        });
    }
    Ok(s)
}
