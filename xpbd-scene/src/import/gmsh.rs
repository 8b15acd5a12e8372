//! Gmsh `.msh`: MSH 4.1 (ASCII or binary) through mshio, MSH 2.2 ASCII by the reader here
//! (mshio reads 4.1 only; many tools still export 2.2).
//!
//! 3-node triangles (element type 2) and 4-node tetrahedra (type 4) are kept; points (15)
//! and lines (1, 8, 26–28) are skipped. Any other element type (quadrangles, hexahedra,
//! prisms, second-order elements, …) is refused: dropping it would silently lose part of the
//! model. Node tags are mapped to 0-based indices in file order.

use std::collections::HashMap;

use xpbd_core::Vector;

use super::error::{ElementKind, ElementRef};
use super::guard::guarded;
use super::{ImportError, ImportedMesh};

/// What to do with a Gmsh element type: `Some(arity)` to keep, `None` to skip, `Err` to refuse.
fn keep(element_type: i64) -> Result<Option<usize>, String> {
    match element_type {
        2 => Ok(Some(3)),
        4 => Ok(Some(4)),
        1 | 8 | 15 | 26..=28 => Ok(None),
        t => Err(format!(
            "element type {t} is not supported (only 3-node triangles, type 2, and 4-node \
             tetrahedra, type 4; points and lines are skipped)"
        )),
    }
}

/// Reads Gmsh MSH 4.1 (ASCII or binary, through mshio) or MSH 2.2 (ASCII), then checks the
/// mesh ([`ImportedMesh::check_model`]). MSH 2.2 errors name the line.
///
/// ```
/// let msh = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n\
///            4 0 0 1\n$EndNodes\n$Elements\n1\n1 4 2 0 1 1 2 3 4\n$EndElements\n";
/// let m = xpbd_scene::import::parse_gmsh(msh.as_bytes(), "t.msh").unwrap();
/// assert_eq!((m.tets, m.tet_lines), (vec![[0, 1, 2, 3]], vec![13]));
/// ```
pub fn parse_gmsh(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    match version(bytes) {
        Some(v) if v.starts_with("2.") => parse_msh2(bytes, file),
        _ => guarded("gmsh", file, || parse_msh4(bytes, file)),
    }
}

/// The version field of the `$MeshFormat` section, if the file starts with one.
fn version(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(256)];
    let text = String::from_utf8_lossy(head);
    let mut lines = text.lines().map(str::trim).skip_while(|l| l.is_empty());
    (lines.next()? == "$MeshFormat").then_some(())?;
    Some(lines.next()?.split_whitespace().next()?.to_string())
}

fn parse_msh4(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    let malformed = |message: String| ImportError::Malformed {
        file: file.into(),
        format: "gmsh",
        message,
    };
    let msh = mshio::parse_msh_bytes(bytes)
        .map_err(|e| malformed(e.to_string().chars().take(400).collect()))?;
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
    if let Some(elements) = &msh.data.elements {
        for block in &elements.element_blocks {
            let Some(arity) = keep(block.element_type as i64).map_err(malformed)? else {
                continue;
            };
            for el in &block.elements {
                let element = if arity == 3 {
                    ElementRef::new(ElementKind::Triangle, mesh.triangles.len())
                } else {
                    ElementRef::new(ElementKind::Tet, mesh.tets.len())
                };
                let idx = corners(&el.nodes, arity, element, &index_of_tag, &mesh, file)?;
                push(&mut mesh, idx, arity, 0);
            }
        }
    }
    mesh.check_model(file)?;
    Ok(mesh)
}

/// Maps an element's node tags to vertex indices.
fn corners(
    tags: &[u64],
    arity: usize,
    element: ElementRef,
    index_of_tag: &HashMap<u64, usize>,
    mesh: &ImportedMesh,
    file: &str,
) -> Result<[usize; 4], ImportError> {
    if tags.len() != arity {
        return Err(ImportError::WrongArity {
            file: file.into(),
            element,
            count: tags.len(),
            expected: arity,
        });
    }
    let mut idx = [0usize; 4];
    for (k, tag) in tags.iter().enumerate() {
        idx[k] = *index_of_tag
            .get(tag)
            .ok_or_else(|| ImportError::IndexOutOfRange {
                file: file.into(),
                element,
                index: i64::try_from(*tag).unwrap_or(i64::MAX),
                count: mesh.vertices.len(),
            })?;
    }
    Ok(idx)
}

fn push(mesh: &mut ImportedMesh, idx: [usize; 4], arity: usize, line: usize) {
    if arity == 3 {
        mesh.triangles.push([idx[0], idx[1], idx[2]]);
        mesh.triangle_lines.push(line);
    } else {
        mesh.tets.push(idx);
        mesh.tet_lines.push(line);
    }
}

/// MSH 2.2 ASCII: `$MeshFormat` (`2.2 0 8`), `$Nodes` (`count`, then `tag x y z`),
/// `$Elements` (`count`, then `tag type ntags tag… node…`); other sections are skipped.
fn parse_msh2(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    let text = String::from_utf8_lossy(bytes);
    let syntax = |line: usize, message: String| ImportError::Syntax {
        file: file.into(),
        line,
        message,
    };
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let mut mesh = ImportedMesh::default();
    let mut index_of_tag: HashMap<u64, usize> = HashMap::new();
    let mut last;
    while let Some((line, head)) = lines.next() {
        last = line;
        let Some(section) = head.strip_prefix('$') else {
            return Err(syntax(
                line,
                format!("expected a `$Section`, found `{head}`"),
            ));
        };
        let mut next = |what: &str| {
            lines
                .next()
                .ok_or_else(|| syntax(line, format!("`${section}` ends before {what}")))
        };
        let number = |line: usize, t: Option<&str>, what: &str| -> Result<u64, ImportError> {
            let t = t.ok_or_else(|| syntax(line, format!("missing {what}")))?;
            t.parse()
                .map_err(|_| syntax(line, format!("{what} `{t}` is not a non-negative integer")))
        };
        match section {
            "MeshFormat" => {
                let (l, f) = next("the version line")?;
                let fields: Vec<&str> = f.split_whitespace().collect();
                if fields.get(1) != Some(&"0") {
                    return Err(syntax(
                        l,
                        format!(
                            "MSH 2.2 file type `{}`: only ASCII (0) is read; export MSH 4.1 \
                             or ASCII 2.2",
                            fields.get(1).unwrap_or(&"")
                        ),
                    ));
                }
            }
            "Nodes" => {
                let (l, c) = next("the node count")?;
                let count = number(l, Some(c), "node count")?;
                for _ in 0..count {
                    let (l, f) = next("all nodes are listed")?;
                    let mut fields = f.split_whitespace();
                    let tag = number(l, fields.next(), "node tag")?;
                    let mut x = [0.0; 3];
                    for (k, name) in ["x", "y", "z"].iter().enumerate() {
                        let t = fields
                            .next()
                            .ok_or_else(|| syntax(l, format!("node {tag} has no {name}")))?;
                        x[k] = t.parse().map_err(|_| {
                            syntax(l, format!("node {tag} {name} `{t}` is not a number"))
                        })?;
                    }
                    if index_of_tag.insert(tag, mesh.vertices.len()).is_some() {
                        return Err(syntax(l, format!("node tag {tag} is listed twice")));
                    }
                    mesh.vertices.push(Vector::<3>::new(x[0], x[1], x[2]));
                    mesh.vertex_lines.push(l);
                }
            }
            "Elements" => {
                let (l, c) = next("the element count")?;
                let count = number(l, Some(c), "element count")?;
                for _ in 0..count {
                    let (l, f) = next("all elements are listed")?;
                    let fields: Vec<&str> = f.split_whitespace().collect();
                    let ty = number(l, fields.get(1).copied(), "element type")?;
                    let ntags = number(l, fields.get(2).copied(), "number of tags")?;
                    let Some(arity) = keep(ty as i64).map_err(|m| syntax(l, m))? else {
                        continue;
                    };
                    let element = if arity == 3 {
                        ElementRef::new(ElementKind::Triangle, mesh.triangles.len())
                    } else {
                        ElementRef::new(ElementKind::Tet, mesh.tets.len())
                    }
                    .at_line(l);
                    let first = 3usize.saturating_add(ntags as usize);
                    let tags = fields
                        .get(first..)
                        .unwrap_or(&[])
                        .iter()
                        .map(|t| number(l, Some(t), "node tag"))
                        .collect::<Result<Vec<u64>, _>>()?;
                    let idx = corners(&tags, arity, element, &index_of_tag, &mesh, file)?;
                    push(&mut mesh, idx, arity, l);
                }
            }
            _ => {}
        }
        // Skip to the section's end marker.
        let end = format!("$End{section}");
        loop {
            let (l, t) = lines
                .next()
                .ok_or_else(|| syntax(last, format!("`${section}` has no `{end}`")))?;
            last = l;
            if t == end {
                break;
            }
            if matches!(section, "MeshFormat" | "Nodes" | "Elements") {
                return Err(syntax(l, format!("expected `{end}`, found `{t}`")));
            }
        }
    }
    mesh.check_model(file)?;
    Ok(mesh)
}
