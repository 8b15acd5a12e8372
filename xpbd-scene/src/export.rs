//! Per-frame export: VTK legacy binary (vtkio; ParaView), PLY ASCII with f64
//! coordinates (ply-rs; Blender, MeshLab) and OBJ (text; Blender). Plus [`read_vtk`], used by
//! the viewer and the round-trip tests. (PLY is written as ASCII: ply-rs 0.1.3 fails to read
//! back its own binary lists; Rust prints f64 as the shortest text that parses back to the
//! same bits, so the ASCII round trip is still exact.)

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use vtkio::model::{
    Attribute, Attributes, ByteOrder, CellType, Cells, DataSet, UnstructuredGridPiece, Version,
    VertexNumbers, Vtk,
};
use xpbd_core::{Particles, Vector};

use crate::error::ExportError;
use crate::import::ImportError;
use crate::import::ImportedMesh;

/// What the particles form: the cells written with every frame, and their rest measures for
/// the per-element stretch ratio (det F for linear tets).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Topology {
    /// Rope / chain segments.
    pub segments: Vec<[usize; 2]>,
    /// Cloth and surface triangles.
    pub triangles: Vec<[usize; 3]>,
    /// Tetrahedra (positively oriented).
    pub tets: Vec<[usize; 4]>,
    /// Rest length / area / volume of each segment, triangle, tet (same order).
    pub rest_segment: Vec<f64>,
    /// Rest area of each triangle.
    pub rest_triangle: Vec<f64>,
    /// Rest volume of each tet.
    pub rest_tet: Vec<f64>,
    /// Material index of each particle (index into `material_names`).
    pub particle_material: Vec<u32>,
    /// Material index of each segment, triangle and tet (in that order).
    pub cell_material: Vec<u32>,
    /// Material names (sorted, as in the scene's `[materials]` table).
    pub material_names: Vec<String>,
}

/// Per-particle continuum fields written as VTK point data next to `velocity`, `inv_mass` and
/// `material_id` (empty vectors: not written). Particles outside every XPBI continuum get
/// det F = 1 and 0 for the rest.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParticleFields {
    /// `det_F`: det Fⁿ of the elastic deformation gradient (XPBI, `Vⁿ = V⁰ det Fⁿ`).
    pub det_f: Vec<f64>,
    /// `hardening`: the plastic hardening state q (accumulated plastic strain for von Mises
    /// and Drucker–Prager, α = ln J_p for NACC; xpbi_continuum's `PlasticState::hardening`).
    pub hardening: Vec<f64>,
    /// `volume_correction`: Drucker–Prager's plastic volume correction v_c.
    pub volume_correction: Vec<f64>,
    /// `lambda`: the multiplier λ_p of the particle's XPBI constraint, accumulated over the
    /// last substep (C_p = √(2Ψ), so λ_p/Δt² is a force-like magnitude).
    pub lambda: Vec<f64>,
    /// `density`: a fluid particle's SPH density ρ (kg/m³; solid neighbours counted), 0 for
    /// particles of other bodies (`xpbi_continuum::fluid::PbfFluid::density_ratios`).
    pub density: Vec<f64>,
    /// `pressure`: a fluid particle's pressure p (Pa) from its multiplier of the last substep
    /// (`PbfFluid::pressures`), 0 for particles of other bodies.
    pub pressure: Vec<f64>,
}

impl ParticleFields {
    /// The fields of `n` particles, by their exported name (fields of another length, i.e.
    /// absent ones, are left out).
    pub fn named(&self, n: usize) -> Vec<(&'static str, &[f64])> {
        [
            ("det_F", &self.det_f),
            ("hardening", &self.hardening),
            ("volume_correction", &self.volume_correction),
            ("lambda", &self.lambda),
            ("density", &self.density),
            ("pressure", &self.pressure),
        ]
        .into_iter()
        .filter(|(_, v)| v.len() == n && n > 0)
        .map(|(name, v)| (name, v.as_slice()))
        .collect()
    }

    fn attributes(&self, n: usize) -> Vec<Attribute> {
        self.named(n)
            .into_iter()
            .map(|(name, v)| Attribute::scalars(name, 1).with_data(v.to_vec()))
            .collect()
    }
}

/// The three measures used for the stretch ratio of a cell.
pub fn segment_length(x: &[Vector<3>], s: [usize; 2]) -> f64 {
    (x[s[1]] - x[s[0]]).norm()
}

/// Triangle area.
pub fn triangle_area(x: &[Vector<3>], t: [usize; 3]) -> f64 {
    0.5 * (x[t[1]] - x[t[0]]).cross(&(x[t[2]] - x[t[0]])).norm()
}

/// Signed tet volume `(x₁−x₀)·((x₂−x₀)×(x₃−x₀))/6`.
pub fn tet_volume(x: &[Vector<3>], t: [usize; 4]) -> f64 {
    (x[t[1]] - x[t[0]]).dot(&(x[t[2]] - x[t[0]]).cross(&(x[t[3]] - x[t[0]]))) / 6.0
}

impl Topology {
    /// Current/rest measure of every cell (segments, triangles, tets in that order):
    /// `l/l₀`, `A/A₀` and `V/V₀ = det F` (F is constant on a linear tet).
    pub fn stretch_ratios(&self, x: &[Vector<3>]) -> Vec<f64> {
        let s = self
            .segments
            .iter()
            .zip(&self.rest_segment)
            .map(|(&c, r)| segment_length(x, c) / r);
        let t = self
            .triangles
            .iter()
            .zip(&self.rest_triangle)
            .map(|(&c, r)| triangle_area(x, c) / r);
        let v = self
            .tets
            .iter()
            .zip(&self.rest_tet)
            .map(|(&c, r)| tet_volume(x, c) / r);
        s.chain(t).chain(v).collect()
    }

    /// Triangles to draw: the cloth/surface triangles plus the boundary faces of the tets
    /// (faces used by exactly one tet, oriented outwards).
    pub fn surface_triangles(&self) -> Vec<[usize; 3]> {
        let mut faces: Vec<([usize; 3], [usize; 3])> = Vec::new();
        for t in &self.tets {
            let [a, b, c, d] = *t;
            for f in [[b, c, d], [a, d, c], [a, b, d], [a, c, b]] {
                let mut key = f;
                key.sort_unstable();
                faces.push((key, f));
            }
        }
        faces.sort_unstable();
        let mut out = self.triangles.clone();
        let mut i = 0;
        while i < faces.len() {
            let mut j = i + 1;
            while j < faces.len() && faces[j].0 == faces[i].0 {
                j += 1;
            }
            if j - i == 1 {
                out.push(faces[i].1);
            }
            i = j;
        }
        out
    }
}

/// Whether `name` is a temporary file of [`write_atomic`] (`.NAME.tmp-PID-N`).
///
/// ```
/// use xpbd_scene::export::is_atomic_temporary;
/// assert!(is_atomic_temporary(".frame_00003.vtk.tmp-4242-7"));
/// assert!(!is_atomic_temporary("frame_00003.vtk"));
/// assert!(!is_atomic_temporary(".frame.tmp-x-1"));
/// ```
pub fn is_atomic_temporary(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.') else {
        return false;
    };
    let Some((_, tail)) = rest.rsplit_once(".tmp-") else {
        return false;
    };
    let mut parts = tail.split('-');
    let digits =
        |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    digits(parts.next()) && digits(parts.next()) && parts.next().is_none()
}

/// Writes `bytes` to `path` atomically: into a temporary file beside it (same folder, so the
/// rename stays on one file system), flushed to disk, then renamed over `path`. A failed write
/// (disk full, file size limit, I/O error) removes the temporary file and leaves `path` as it
/// was, so a reader never sees a truncated file. Frames and checkpoints are written this way.
/// A run killed between the write and the rename leaves the temporary file; the next run
/// into the folder removes it ([`crate::runner::OutputLock::acquire`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "the path has no file name",
        )
    })?;
    let tmp = path.with_file_name(format!(
        ".{}.tmp-{}-{}",
        name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn io_err(file: &Path, e: impl std::fmt::Display) -> ExportError {
    ExportError::Io {
        file: file.to_path_buf(),
        message: e.to_string(),
    }
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
        .chain(fields.attributes(n))
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

/// Writes ASCII PLY: `vertex` with f64 `x y z vx vy vz`, `face` with
/// `vertex_indices` (the surface triangles, see [`Topology::surface_triangles`]).
pub fn write_ply(
    path: &Path,
    topology: &Topology,
    particles: &Particles<3>,
) -> Result<(), ExportError> {
    write_ply_with_fields(path, topology, particles, &ParticleFields::default())
}

/// [`write_ply`] with the per-particle fields as further f64 `vertex` properties
/// (`det_F`, `hardening`, …, a fluid's `density` and `pressure`; see [`ParticleFields`]).
pub fn write_ply_with_fields(
    path: &Path,
    topology: &Topology,
    particles: &Particles<3>,
    fields: &ParticleFields,
) -> Result<(), ExportError> {
    let triangles = topology.surface_triangles();
    let bytes = ply_bytes_with_fields(&triangles, particles, fields).map_err(|message| {
        ExportError::Writer {
            file: path.to_path_buf(),
            format: "ply",
            message,
        }
    })?;
    write_atomic(path, &bytes).map_err(|e| io_err(path, e))
}

/// The PLY file of [`write_ply`] in memory.
pub fn ply_bytes(triangles: &[[usize; 3]], particles: &Particles<3>) -> Result<Vec<u8>, String> {
    ply_bytes_with_fields(triangles, particles, &ParticleFields::default())
}

/// The PLY file of [`write_ply_with_fields`] in memory.
pub fn ply_bytes_with_fields(
    triangles: &[[usize; 3]],
    particles: &Particles<3>,
    fields: &ParticleFields,
) -> Result<Vec<u8>, String> {
    use ply_rs::ply::{
        Addable, DefaultElement, ElementDef, Encoding, Ply, Property, PropertyDef, PropertyType,
        ScalarType,
    };
    let mut ply = Ply::<DefaultElement>::new();
    ply.header.encoding = Encoding::Ascii;
    ply.header.comments.push("xpbd-scene frame".into());
    let mut vertex = ElementDef::new("vertex".into());
    let named = fields.named(particles.len());
    for name in ["x", "y", "z", "vx", "vy", "vz"]
        .into_iter()
        .chain(named.iter().map(|(n, _)| *n))
    {
        vertex.properties.add(PropertyDef::new(
            name.into(),
            PropertyType::Scalar(ScalarType::Double),
        ));
    }
    ply.header.elements.add(vertex);
    let mut face = ElementDef::new("face".into());
    face.properties.add(PropertyDef::new(
        "vertex_indices".into(),
        PropertyType::List(ScalarType::UChar, ScalarType::UInt),
    ));
    ply.header.elements.add(face);
    let verts = (0..particles.len())
        .map(|i| {
            let mut e = DefaultElement::new();
            let (x, v) = (particles.x[i], particles.v[i]);
            for (name, value) in ["x", "y", "z", "vx", "vy", "vz"]
                .into_iter()
                .zip([x.x, x.y, x.z, v.x, v.y, v.z])
            {
                e.insert(name.into(), Property::Double(value));
            }
            for (name, values) in &named {
                e.insert((*name).into(), Property::Double(values[i]));
            }
            e
        })
        .collect();
    let faces = triangles
        .iter()
        .map(|t| {
            let mut e = DefaultElement::new();
            e.insert(
                "vertex_indices".into(),
                Property::ListUInt(t.iter().map(|&i| i as u32).collect()),
            );
            e
        })
        .collect();
    ply.payload.insert("vertex".into(), verts);
    ply.payload.insert("face".into(), faces);
    ply.make_consistent().map_err(|e| format!("{e:?}"))?;
    let mut out = Vec::new();
    ply_rs::writer::Writer::new()
        .write_ply(&mut out, &mut ply)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// Writes OBJ text: `v x y z` per particle (shortest round-trip f64 text) and `f` per surface
/// triangle (1-based).
pub fn write_obj(
    path: &Path,
    topology: &Topology,
    particles: &Particles<3>,
) -> Result<(), ExportError> {
    let text = obj_text(&topology.surface_triangles(), particles);
    write_atomic(path, text.as_bytes()).map_err(|e| io_err(path, e))
}

/// The OBJ text of [`write_obj`].
pub fn obj_text(triangles: &[[usize; 3]], particles: &Particles<3>) -> String {
    use std::fmt::Write as _;
    let mut s = String::from("# xpbd-scene frame\n");
    for x in &particles.x {
        let _ = writeln!(s, "v {} {} {}", x.x, x.y, x.z);
    }
    for t in triangles {
        let _ = writeln!(s, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    s
}
