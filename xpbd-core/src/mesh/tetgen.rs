//! TetGen `.node` / `.ele` import (format: <https://wias-berlin.de/software/tetgen/fformats.html>).
//!
//! `.node`: header `<#points> <dim = 3> <#attributes> <boundary marker 0|1>`, then one line per
//! point `<index> <x> <y> <z> [attributes…] [marker]`. `.ele`: header
//! `<#tets> <nodes per tet = 4|10> <region attribute 0|1>`, then `<index> <n₀> … [attribute]`.
//! `#` starts a comment. Indices may start at 0 or 1 (taken from the first point). For 10-node
//! tets only the 4 corners (listed first by TetGen) are kept.

use super::{MeshError, TetMesh};
use nalgebra::Vector3;
use std::path::Path;

/// Non-empty, comment-stripped lines with their 1-based line numbers.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let content = line.split('#').next().unwrap_or("");
        let fields: Vec<&str> = content.split_whitespace().collect();
        (!fields.is_empty()).then_some((i + 1, fields))
    })
}

fn parse_err(file: &str, line: usize, message: impl Into<String>) -> MeshError {
    MeshError::Parse {
        file: file.to_string(),
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
) -> Result<T, MeshError> {
    let text = fields
        .get(at)
        .ok_or_else(|| parse_err(file, line, format!("missing {what} (field {})", at + 1)))?;
    text.parse()
        .map_err(|_| parse_err(file, line, format!("cannot parse {what} from {text:?}")))
}

impl TetMesh {
    /// Parses TetGen `.node` and `.ele` texts. Index range and cell validity are checked
    /// ([`TetMesh::validate`]) after negatively oriented tets are flipped.
    ///
    /// ```
    /// use xpbd_core::mesh::TetMesh;
    /// let node = "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n";
    /// let ele = "1 4 0\n1 1 2 3 4\n";
    /// let m = TetMesh::from_tetgen(node, ele).unwrap();
    /// assert_eq!(m.cells, vec![[0, 1, 2, 3]]);
    /// assert!(TetMesh::from_tetgen(node, "1 4 0\n1 1 2 3 9\n").is_err());
    /// ```
    pub fn from_tetgen(node_text: &str, ele_text: &str) -> Result<Self, MeshError> {
        let mut lines = data_lines(node_text);
        let (line, header) = lines
            .next()
            .ok_or_else(|| parse_err("node", 1, "empty file"))?;
        let count: usize = field("node", line, &header, 0, "point count")?;
        let dim: usize = field("node", line, &header, 1, "dimension")?;
        if dim != 3 {
            return Err(parse_err(
                "node",
                line,
                format!("dimension {dim}, expected 3"),
            ));
        }
        // The header's count is untrusted input (fuzzing found a 200 GB reservation): never
        // reserve more than the text can hold, one point per line.
        let mut vertices = Vec::with_capacity(count.min(node_text.lines().count()));
        let mut base = 0usize;
        for (k, (line, fields)) in lines.by_ref().take(count).enumerate() {
            let index: usize = field("node", line, &fields, 0, "point index")?;
            if k == 0 {
                base = index;
            }
            if index != base + k {
                return Err(parse_err(
                    "node",
                    line,
                    format!("point index {index}, expected {}", base + k),
                ));
            }
            let x: f64 = field("node", line, &fields, 1, "x")?;
            let y: f64 = field("node", line, &fields, 2, "y")?;
            let z: f64 = field("node", line, &fields, 3, "z")?;
            vertices.push(Vector3::new(x, y, z));
        }
        if vertices.len() != count {
            return Err(parse_err(
                "node",
                node_text.lines().count(),
                format!("header announces {count} points, found {}", vertices.len()),
            ));
        }
        if base > 1 {
            return Err(parse_err(
                "node",
                2,
                format!("first point index {base}, expected 0 or 1"),
            ));
        }

        let mut lines = data_lines(ele_text);
        let (line, header) = lines
            .next()
            .ok_or_else(|| parse_err("ele", 1, "empty file"))?;
        let tets: usize = field("ele", line, &header, 0, "tetrahedron count")?;
        let per: usize = field("ele", line, &header, 1, "nodes per tetrahedron")?;
        if per != 4 && per != 10 {
            return Err(parse_err(
                "ele",
                line,
                format!("{per} nodes per tetrahedron, expected 4 or 10"),
            ));
        }
        let mut cells = Vec::with_capacity(tets.min(ele_text.lines().count()));
        for (line, fields) in lines.take(tets) {
            let mut cell = [0u32; 4];
            for (c, slot) in cell.iter_mut().enumerate() {
                let raw: usize = field("ele", line, &fields, c + 1, "node index")?;
                if raw < base || raw - base >= count {
                    return Err(parse_err(
                        "ele",
                        line,
                        format!("node index {raw} outside {base}..{}", base + count),
                    ));
                }
                *slot = (raw - base) as u32;
            }
            cells.push(cell);
        }
        if cells.len() != tets {
            return Err(parse_err(
                "ele",
                ele_text.lines().count(),
                format!("header announces {tets} tetrahedra, found {}", cells.len()),
            ));
        }
        let mut mesh = TetMesh { vertices, cells };
        mesh.orient_positively();
        mesh.validate()?;
        Ok(mesh)
    }

    /// Reads and parses `<stem>.node` and `<stem>.ele` files (see [`TetMesh::from_tetgen`]).
    pub fn from_tetgen_files(node_path: &Path, ele_path: &Path) -> Result<Self, MeshError> {
        let read = |p: &Path| {
            std::fs::read_to_string(p).map_err(|e| MeshError::Io {
                path: p.display().to_string(),
                message: e.to_string(),
            })
        };
        Self::from_tetgen(&read(node_path)?, &read(ele_path)?)
    }
}
