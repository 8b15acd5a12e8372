//! VTK legacy binary frames: [`write_vtk`] (vtkio; ParaView) and the readers used by the viewer
//! and the round-trip tests ([`read_vtk`], [`read_vtk_data`]).

use std::collections::BTreeMap;
use std::path::Path;

use vtkio::model::{
    Attribute, Attributes, ByteOrder, CellType, Cells, DataSet, UnstructuredGridPiece, Version,
    VertexNumbers, Vtk,
};
use xpbd_core::{Particles, Vector};

use super::{ParticleFields, Topology, io_err, write_atomic};
use crate::error::ExportError;
use crate::import::ImportError;
use crate::import::ImportedMesh;

/// The continuum fields of `n` particles as VTK point data arrays ([`ParticleFields::named`]).
fn attributes(fields: &ParticleFields, n: usize) -> Vec<Attribute> {
    fields
        .named(n)
        .into_iter()
        .map(|(name, v)| Attribute::scalars(name, 1).with_data(v.to_vec()))
        .collect()
}

/// Writes a VTK legacy binary unstructured grid: every particle as a point (particles in no
/// cell get a VTK_VERTEX cell), segments, triangles and tets as cells. Point data: `velocity`
/// (m/s), `inv_mass` (1/kg), `material_id`; cell data: `material_id` and `stretch_ratio`
/// (l/l₀, A/A₀, det F = V/V₀), plus the continuum fields of `fields` as point data
/// ([`ParticleFields`]). f64 throughout, so a re-read is bit-exact ([`read_vtk_data`]).
pub fn write_vtk(
    path: &Path,
    title: &str,
    topology: &Topology,
    particles: &Particles<3>,
    fields: &ParticleFields,
) -> Result<(), ExportError> {
    let n = particles.len();
    let points: Vec<f64> = particles.x.iter().flat_map(|x| [x.x, x.y, x.z]).collect();
    let mut covered = vec![false; n];
    let mut vertices: Vec<u32> = Vec::new();
    let mut types = Vec::new();
    let mut cell_material: Vec<i32> = Vec::new();
    let mut ratio: Vec<f64> = Vec::new();
    let ratios = topology.stretch_ratios(&particles.x);
    let cells = topology
        .segments
        .iter()
        .map(|c| (&c[..], CellType::Line))
        .chain(
            topology
                .triangles
                .iter()
                .map(|c| (&c[..], CellType::Triangle)),
        )
        .chain(topology.tets.iter().map(|c| (&c[..], CellType::Tetra)));
    for (k, (c, ty)) in cells.enumerate() {
        vertices.push(c.len() as u32);
        vertices.extend(c.iter().map(|&i| i as u32));
        c.iter().for_each(|&i| covered[i] = true);
        types.push(ty);
        cell_material.push(topology.cell_material.get(k).copied().unwrap_or(0) as i32);
        ratio.push(ratios[k]);
    }
    for (i, _) in covered.iter().enumerate().filter(|(_, c)| !**c) {
        vertices.extend([1, i as u32]);
        types.push(CellType::Vertex);
        cell_material.push(topology.particle_material.get(i).copied().unwrap_or(0) as i32);
        ratio.push(1.0);
    }
    let velocity: Vec<f64> = particles.v.iter().flat_map(|v| [v.x, v.y, v.z]).collect();
    let material: Vec<i32> = (0..n)
        .map(|i| topology.particle_material.get(i).copied().unwrap_or(0) as i32)
        .collect();
    let data = Attributes {
        point: [
            Attribute::vectors("velocity").with_data(velocity),
            Attribute::scalars("inv_mass", 1).with_data(particles.inv_mass.clone()),
            Attribute::scalars("material_id", 1).with_data(material),
        ]
        .into_iter()
        .chain(attributes(fields, n))
        .collect(),
        cell: vec![
            Attribute::scalars("material_id", 1).with_data(cell_material),
            Attribute::scalars("stretch_ratio", 1).with_data(ratio),
        ],
    };
    let title = declared_title(title, data.point.len(), data.cell.len());
    let vtk = Vtk {
        version: Version::new((4, 2)),
        title,
        byte_order: ByteOrder::BigEndian,
        file_path: None,
        data: DataSet::inline(UnstructuredGridPiece {
            points: points.into(),
            cells: Cells {
                cell_verts: VertexNumbers::Legacy {
                    num_cells: types.len() as u32,
                    vertices,
                },
                types,
            },
            data,
        }),
    };
    let mut bytes = Vec::new();
    vtk.write_legacy(&mut bytes)
        .map_err(|e| ExportError::Writer {
            file: path.to_path_buf(),
            format: "vtk",
            message: e.to_string(),
        })?;
    write_atomic(path, &bytes).map_err(|e| io_err(path, e))
}

/// The title line of a frame: the caller's title (one line, at most 200 characters) and the
/// number of point and cell data arrays that follow, so that a reader can tell a file cut
/// exactly between two sections (which is still a valid VTK file) from a whole one.
fn declared_title(title: &str, point: usize, cell: usize) -> String {
    let line: String = title
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect();
    format!("{line} {ARRAYS_TAG}{point} point, {cell} cell]")
}

/// Marks the declared array counts in a frame's title line.
const ARRAYS_TAG: &str = "[arrays: ";

/// The array counts a title declares ([`declared_title`]), if it declares them.
fn declared_arrays(title: &str) -> Option<(usize, usize)> {
    let rest = &title[title.rfind(ARRAYS_TAG)? + ARRAYS_TAG.len()..];
    let (point, rest) = rest.split_once(" point, ")?;
    let cell = rest.strip_suffix(" cell]")?;
    Some((point.parse().ok()?, cell.parse().ok()?))
}

/// Point and cell data arrays of a VTK file, by name, as f64 (vectors flattened xyz).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VtkData {
    /// Point data (`velocity`, `inv_mass`, `material_id`, `det_F`, `hardening`, ...).
    pub point: BTreeMap<String, Vec<f64>>,
    /// Cell data (`material_id`, `stretch_ratio`).
    pub cell: BTreeMap<String, Vec<f64>>,
}

/// Parses a legacy big-endian VTK file, refusing any bytes after the part vtkio reads:
/// vtkio's `Vtk::parse_legacy_be` drops them without a word, and its point and cell data
/// sections are optional, so a file cut short inside its POINT_DATA used to read as a grid
/// without point data.
fn parse_vtk(bytes: &[u8], file: &str) -> Result<Vtk, ImportError> {
    let malformed = |message: String| ImportError::Malformed {
        file: file.into(),
        format: "vtk",
        message,
    };
    let parsed = vtkio::parser::parse_be(bytes);
    if !parsed.is_done() {
        // vtkio's own message for the error.
        return Err(match Vtk::parse_legacy_be(bytes) {
            Err(e) => malformed(e.to_string()),
            Ok(_) => malformed("unreadable".into()),
        });
    }
    let (rest, vtk) = parsed.unwrap();
    let rest = rest.trim_ascii();
    if !rest.is_empty() {
        let at = rest.as_ptr() as usize - bytes.as_ptr() as usize;
        let start: String = String::from_utf8_lossy(&rest[..rest.len().min(40)])
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_control())
            .collect();
        return Err(malformed(format!(
            "the file is cut short or corrupt: {} of its {} bytes, from byte {at} on \
             (`{start}`), cannot be read",
            rest.len(),
            bytes.len()
        )));
    }
    if let Some((point, cell)) = declared_arrays(&vtk.title)
        && let DataSet::UnstructuredGrid { pieces, .. } = &vtk.data
        && let Some(vtkio::model::Piece::Inline(piece)) = pieces.first()
        && (piece.data.point.len(), piece.data.cell.len()) != (point, cell)
    {
        return Err(malformed(format!(
            "the file is cut short: its header declares {point} point and {cell} cell data \
             arrays, it holds {} and {}",
            piece.data.point.len(),
            piece.data.cell.len()
        )));
    }
    Ok(vtk)
}

/// Reads every point and cell data array of a VTK legacy file written by [`write_vtk`].
pub fn read_vtk_data(bytes: &[u8], file: &str) -> Result<VtkData, ImportError> {
    let malformed = |message: String| ImportError::Malformed {
        file: file.into(),
        format: "vtk",
        message,
    };
    let vtk = parse_vtk(bytes, file)?;
    let DataSet::UnstructuredGrid { pieces, .. } = vtk.data else {
        return Err(malformed("not an unstructured grid".into()));
    };
    let Some(vtkio::model::Piece::Inline(piece)) = pieces.into_iter().next() else {
        return Err(malformed("no inline piece".into()));
    };
    let collect = |attrs: Vec<Attribute>| -> Result<BTreeMap<String, Vec<f64>>, ImportError> {
        let mut out = BTreeMap::new();
        for a in attrs {
            if let Attribute::DataArray(d) = a {
                let v: Vec<f64> = d
                    .data
                    .cast_into()
                    .ok_or_else(|| malformed(format!("{} is not numeric", d.name)))?;
                out.insert(d.name, v);
            }
        }
        Ok(out)
    };
    Ok(VtkData {
        point: collect(piece.data.point)?,
        cell: collect(piece.data.cell)?,
    })
}

/// Reads a VTK legacy unstructured grid as written by [`write_vtk`]: points, the `velocity`
/// point attribute, line segments, triangles and tets.
pub fn read_vtk(bytes: &[u8], file: &str) -> Result<ImportedMesh, ImportError> {
    let malformed = |message: String| ImportError::Malformed {
        file: file.into(),
        format: "vtk",
        message,
    };
    let vtk = parse_vtk(bytes, file)?;
    let DataSet::UnstructuredGrid { pieces, .. } = vtk.data else {
        return Err(malformed("not an unstructured grid".into()));
    };
    let Some(vtkio::model::Piece::Inline(piece)) = pieces.into_iter().next() else {
        return Err(malformed("no inline piece".into()));
    };
    let pts: Vec<f64> = piece
        .points
        .cast_into()
        .ok_or_else(|| malformed("points are not numeric".into()))?;
    let mut mesh = ImportedMesh {
        vertices: pts
            .chunks_exact(3)
            .map(|p| Vector::<3>::new(p[0], p[1], p[2]))
            .collect(),
        ..Default::default()
    };
    for a in piece.data.point {
        if let Attribute::DataArray(d) = a
            && d.name == "velocity"
        {
            let v: Vec<f64> = d
                .data
                .cast_into()
                .ok_or_else(|| malformed("velocity is not numeric".into()))?;
            mesh.velocities = v
                .chunks_exact(3)
                .map(|p| Vector::<3>::new(p[0], p[1], p[2]))
                .collect();
        }
    }
    let (offsets, conn) = match piece.cells.cell_verts {
        VertexNumbers::Legacy { vertices, .. } => {
            let (mut off, mut conn, mut k) = (vec![0usize], Vec::new(), 0usize);
            while k < vertices.len() {
                let m = vertices[k] as usize;
                let cell = vertices
                    .get(k + 1..k + 1 + m)
                    .ok_or_else(|| malformed("truncated cell list".into()))?;
                conn.extend(cell.iter().map(|&i| i as usize));
                off.push(conn.len());
                k += 1 + m;
            }
            (off, conn)
        }
        VertexNumbers::XML {
            connectivity,
            offsets,
        } => (
            std::iter::once(0)
                .chain(offsets.iter().map(|&o| o as usize))
                .collect(),
            connectivity.iter().map(|&i| i as usize).collect(),
        ),
    };
    for (k, ty) in piece.cells.types.iter().enumerate() {
        let (Some(&a), Some(&b)) = (offsets.get(k), offsets.get(k + 1)) else {
            return Err(malformed(format!("cell {k} has no vertex list")));
        };
        let c = conn
            .get(a..b)
            .ok_or_else(|| malformed(format!("cell {k} out of range")))?;
        match (ty, c.len()) {
            (CellType::Line, 2) => mesh.segments.push([c[0], c[1]]),
            (CellType::Triangle, 3) => mesh.triangles.push([c[0], c[1], c[2]]),
            (CellType::Tetra, 4) => mesh.tets.push([c[0], c[1], c[2], c[3]]),
            _ => {}
        }
    }
    mesh.validate(file)?;
    Ok(mesh)
}
