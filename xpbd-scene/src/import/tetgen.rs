//! TetGen `.node` / `.ele` (format: <https://wias-berlin.de/software/tetgen/fformats.html>).
//!
//! `.node`: header `<#points> <dim = 3> <#attributes> <boundary marker 0|1>`, then one line per
//! point `<index> <x> <y> <z> [attributes…] [marker]`. `.ele`: header
//! `<#tets> <nodes per tet = 4|10> <region attribute 0|1>`, then `<index> <n₀> … [attribute]`.
//! `#` starts a comment. Indices may start at 0 or 1 (taken from the first point). For 10-node
//! tets only the 4 corners (listed first by TetGen) are kept. Each error names the file it is
//! about (the `.node` or the `.ele`) and its line; inverted tets are refused like every tet
//! source's (see [`crate::import`]).

use xpbd_core::Vector;

use super::{ImportError, ImportedMesh};

/// Non-empty, comment-stripped lines with their 1-based line numbers.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let content = line.split('#').next().unwrap_or("");
        let fields: Vec<&str> = content.split_whitespace().collect();
        (!fields.is_empty()).then_some((i + 1, fields))
    })
}

fn syntax(file: &str, line: usize, message: impl Into<String>) -> ImportError {
    ImportError::Syntax {
        file: file.into(),
        line,
        message: message.into(),
    }
}

fn field<T: std::str::FromStr>(
    file: &str,
    line: usize,
    fields: &[&str],
    at: usize,
    what: &str,
) -> Result<T, ImportError> {
    let text = fields
        .get(at)
        .ok_or_else(|| syntax(file, line, format!("missing {what} (field {})", at + 1)))?;
    text.parse()
        .map_err(|_| syntax(file, line, format!("cannot parse {what} from {text:?}")))
}

/// Reads a TetGen `.node` / `.ele` pair given as texts; `file` names the `.node` file, the
/// `.ele` is named as beside it (`file` with the extension `.ele`). See [`parse_tetgen_pair`].
///
/// ```
/// let node = "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n";
/// let m = xpbd_scene::import::parse_tetgen(node, "1 4 0\n1 1 2 3 4\n", "t.node").unwrap();
/// assert_eq!(m.tets, vec![[0, 1, 2, 3]]);
/// let e = xpbd_scene::import::parse_tetgen(node, "1 4 0\n1 1 2 3 9\n", "t.node").unwrap_err();
/// assert!(e.to_string().starts_with("t.ele: tetrahedron 0 (line 2)"), "{e}");
/// ```
pub fn parse_tetgen(
    node_text: &str,
    ele_text: &str,
    file: &str,
) -> Result<ImportedMesh, ImportError> {
    let ele = std::path::Path::new(file).with_extension("ele");
    parse_tetgen_pair(node_text, file, ele_text, &ele.display().to_string())
}

/// Reads a TetGen `.node` text (from `node_file`) and `.ele` text (from `ele_file`), then
/// checks the mesh ([`ImportedMesh::check_model`]; element errors name `ele_file`).
pub fn parse_tetgen_pair(
    node_text: &str,
    node_file: &str,
    ele_text: &str,
    ele_file: &str,
) -> Result<ImportedMesh, ImportError> {
    let nf = node_file;
    let mut lines = data_lines(node_text);
    let (line, header) = lines
        .next()
        .ok_or_else(|| syntax(nf, 1, "empty file: no header"))?;
    let count: usize = field(nf, line, &header, 0, "point count")?;
    let dim: usize = field(nf, line, &header, 1, "dimension")?;
    if dim != 3 {
        return Err(syntax(nf, line, format!("dimension {dim}, expected 3")));
    }
    let mut mesh = ImportedMesh::default();
    // The header's count is untrusted input (fuzzing found a 200 GB reservation): never
    // reserve more than the text can hold, one point per line.
    let cap = count.min(node_text.lines().count());
    mesh.vertices.reserve(cap);
    mesh.vertex_lines.reserve(cap);
    let mut base = 0usize;
    for (k, (line, fields)) in lines.by_ref().take(count).enumerate() {
        let index: usize = field(nf, line, &fields, 0, "point index")?;
        if k == 0 {
            if index > 1 {
                return Err(syntax(
                    nf,
                    line,
                    format!("first point index {index}, expected 0 or 1"),
                ));
            }
            base = index;
        }
        if index != base + k {
            return Err(syntax(
                nf,
                line,
                format!("point index {index}, expected {}", base + k),
            ));
        }
        let x: f64 = field(nf, line, &fields, 1, "x")?;
        let y: f64 = field(nf, line, &fields, 2, "y")?;
        let z: f64 = field(nf, line, &fields, 3, "z")?;
        mesh.vertices.push(Vector::<3>::new(x, y, z));
        mesh.vertex_lines.push(line);
    }
    if mesh.vertices.len() != count {
        return Err(syntax(
            nf,
            node_text.lines().count(),
            format!(
                "header announces {count} points, found {}",
                mesh.vertices.len()
            ),
        ));
    }

    let ef = ele_file;
    let mut lines = data_lines(ele_text);
    let (line, header) = lines
        .next()
        .ok_or_else(|| syntax(ef, 1, "empty file: no header"))?;
    let tets: usize = field(ef, line, &header, 0, "tetrahedron count")?;
    let per: usize = field(ef, line, &header, 1, "nodes per tetrahedron")?;
    if per != 4 && per != 10 {
        return Err(syntax(
            ef,
            line,
            format!("{per} nodes per tetrahedron, expected 4 or 10"),
        ));
    }
    let cap = tets.min(ele_text.lines().count());
    mesh.tets.reserve(cap);
    mesh.tet_lines.reserve(cap);
    for (line, fields) in lines.take(tets) {
        let mut cell = [0usize; 4];
        for (c, slot) in cell.iter_mut().enumerate() {
            let raw: usize = field(ef, line, &fields, c + 1, "node index")?;
            if raw < base || raw - base >= count {
                return Err(ImportError::IndexOutOfRange {
                    file: ef.into(),
                    element: super::ElementRef::new(super::ElementKind::Tet, mesh.tets.len())
                        .at_line(line),
                    index: raw as i64,
                    count,
                });
            }
            *slot = raw - base;
        }
        mesh.tets.push(cell);
        mesh.tet_lines.push(line);
    }
    if mesh.tets.len() != tets {
        return Err(syntax(
            ef,
            ele_text.lines().count(),
            format!(
                "header announces {tets} tetrahedra, found {}",
                mesh.tets.len()
            ),
        ));
    }
    mesh.check_model_in(nf, ef)?;
    Ok(mesh)
}
