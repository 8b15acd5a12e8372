//! Surface frames: ASCII PLY with f64 coordinates (ply-rs; Blender, MeshLab) and OBJ text
//! (Blender), of the surface triangles ([`Topology::surface_triangles`]).

use std::path::Path;

use xpbd_core::Particles;

use super::{ParticleFields, Topology, io_err, write_atomic};
use crate::error::ExportError;

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
