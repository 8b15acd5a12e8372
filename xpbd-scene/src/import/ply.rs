//! PLY (ASCII or binary) through ply-rs, whose panics on some malformed headers are
//! contained quietly ([`super::guard::guarded`]).

use ply_rs::ply::{DefaultElement, Encoding, Property};
use xpbd_core::Vector;

use super::error::ElementKind;
use super::guard::guarded;
use super::{ImportError, ImportedMesh};

/// Reads PLY (ASCII or binary): element `vertex` with `x y z` (any scalar type) and optional
/// `vx vy vz`, element `face` with a list `vertex_indices` (or `vertex_index`) of triangles.
/// For ASCII files, errors name the line of the vertex or face (one element per line).
///
/// ```
/// let text = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n\
///             property float z\nelement face 1\nproperty list uchar int vertex_indices\n\
///             end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
/// let m = xpbd_scene::import::parse_ply(text.as_bytes(), "t.ply").unwrap();
/// assert_eq!((m.vertices.len(), m.triangles.len()), (3, 1));
/// assert_eq!(m.triangle_lines, vec![13]);
/// ```
pub fn parse_ply(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    let mesh = read_ply(bytes, file)?;
    mesh.check_model(file)?;
    Ok(mesh)
}

/// Reads PLY as [`parse_ply`] does, checking only finite coordinates and index ranges
/// ([`ImportedMesh::validate`]), not the model rules: for frames written by
/// [`crate::export::write_ply`], which may be particles only or hold flattened triangles.
pub fn read_ply(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    guarded("ply", file, || read_ply_unguarded(bytes, file))
}

/// Refuses a header whose elements cannot fit in the bytes after it, before ply-rs allocates
/// for them: an element with entries but no property (ply-rs would read each entry from
/// nothing, 4·10⁹ of them for `element vertex 4294967295`), or more entries than the payload
/// could hold (at least 1 byte per ASCII entry, the sum of the fixed sizes per binary one).
fn check_header_sizes(bytes: &[u8], file: &str) -> Result<(), ImportError> {
    let malformed = |message: String| ImportError::Malformed {
        file: file.into(),
        format: "ply",
        message,
    };
    let size = |t: &str| match t {
        "char" | "uchar" | "int8" | "uint8" => Some(1u64),
        "short" | "ushort" | "int16" | "uint16" => Some(2),
        "int" | "uint" | "float" | "int32" | "uint32" | "float32" => Some(4),
        "double" | "float64" => Some(8),
        _ => None,
    };
    let mut ascii = true;
    let mut elements: Vec<(String, u64, u64, usize)> = Vec::new(); // name, count, bytes, properties
    let mut offset = 0;
    for line in bytes.split(|&b| b == b'\n') {
        offset += line.len() + 1;
        let words: Vec<&str> = std::str::from_utf8(line)
            .unwrap_or("")
            .split_ascii_whitespace()
            .collect();
        match words.as_slice() {
            ["format", f, ..] => ascii = *f == "ascii",
            ["element", name, count] => {
                let count = count.parse::<u64>().unwrap_or(0);
                elements.push((name.to_string(), count, 0, 0));
            }
            ["property", "list", count_type, ..] => {
                if let Some(e) = elements.last_mut() {
                    e.2 += size(count_type).unwrap_or(1);
                    e.3 += 1;
                }
            }
            ["property", t, ..] => {
                if let Some(e) = elements.last_mut() {
                    e.2 += size(t).unwrap_or(1);
                    e.3 += 1;
                }
            }
            ["end_header"] => break,
            _ => {}
        }
    }
    let payload = bytes.len().saturating_sub(offset) as u64;
    let mut needed = 0u64;
    for (name, count, entry_bytes, properties) in &elements {
        if *count > 0 && *properties == 0 {
            return Err(malformed(format!(
                "element `{name}` declares {count} entries but no property"
            )));
        }
        let per_entry = if ascii { 1 } else { *entry_bytes };
        needed = needed.saturating_add(count.saturating_mul(per_entry));
        if needed > payload {
            return Err(malformed(format!(
                "element `{name}` declares {count} entries, more than the {payload} bytes after the header can hold"
            )));
        }
    }
    Ok(())
}

fn read_ply_unguarded(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    check_header_sizes(bytes, file)?;
    let parser = ply_rs::parser::Parser::<DefaultElement>::new();
    let mut reader = bytes;
    let ply = parser
        .read_ply(&mut reader)
        .map_err(|e| ImportError::Malformed {
            file: file.into(),
            format: "ply",
            message: e.to_string(),
        })?;
    // ASCII: one element per line after the header, elements in header order.
    let first_line = |name: &str| -> Option<usize> {
        if ply.header.encoding != Encoding::Ascii {
            return None;
        }
        let header = bytes
            .split(|&b| b == b'\n')
            .position(|l| l.trim_ascii() == b"end_header")?
            + 1;
        let mut line = header + 1;
        for (n, def) in &ply.header.elements {
            if n == name {
                return Some(line);
            }
            line += def.count;
        }
        None
    };
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
    if let Some(l) = first_line("vertex") {
        mesh.vertex_lines = (l..l + mesh.vertices.len()).collect();
    }
    let faces = ply.payload.get("face").map_or(&[][..], |f| &f[..]);
    if let Some(l) = first_line("face") {
        mesh.triangle_lines = (l..l + faces.len()).collect();
    }
    for (e, f) in faces.iter().enumerate() {
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
        let element = mesh.element(ElementKind::Triangle, e);
        if idx.len() != 3 {
            return Err(ImportError::WrongArity {
                file: file.into(),
                element,
                count: idx.len(),
                expected: 3,
            });
        }
        let n = mesh.vertices.len();
        if let Some(&i) = idx.iter().find(|&&i| i < 0 || i as u64 >= n as u64) {
            return Err(ImportError::IndexOutOfRange {
                file: file.into(),
                element,
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
