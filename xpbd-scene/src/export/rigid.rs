//! Rigid bodies in a run's output: every written frame gets `rigid_NNNNN.EXT`, the bodies'
//! surfaces (world coordinates, one triangle mesh per body; material id = the body's index)
//! in each of the scene's formats, and `rigid_NNNNN.csv`, the pose table (one row per body:
//! name, centre of mass, orientation quaternion, velocity, angular velocity).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use xpbd_core::Particles;

use super::{ParticleFields, Topology, triangle_area, write_atomic};
use crate::build::BuiltScene;
use crate::error::ExportError;
use crate::scene::Format;

/// The header of the pose table.
pub const POSE_HEADER: &str = "name,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";

/// The bodies' surfaces as one particle store (the vertices, pinned) and its triangles.
pub fn rigid_surfaces(scene: &BuiltScene) -> Option<(Particles<3>, Topology)> {
    let rigid = scene.rigid()?;
    let mut p = Particles::<3>::new();
    let mut t = Topology {
        material_names: (0..rigid.bodies().len())
            .map(|k| crate::validate::rigid::rigid_name(&scene.scene, k))
            .collect(),
        ..Topology::default()
    };
    for k in 0..rigid.bodies().len() {
        let s = rigid.surface(k);
        let base = p.len();
        for v in &s.vertices {
            p.push(*v, 0.0);
            t.particle_material.push(k as u32);
        }
        for tri in s.triangles {
            t.triangles.push(tri.map(|i| i + base));
            t.cell_material.push(k as u32);
        }
    }
    t.rest_triangle = t
        .triangles
        .iter()
        .map(|&tri| triangle_area(&p.x, tri))
        .collect();
    Some((p, t))
}

/// The pose table's text ([`POSE_HEADER`], one row per body).
pub fn pose_table(scene: &BuiltScene) -> Option<String> {
    let rigid = scene.rigid()?;
    let mut s = format!("{POSE_HEADER}\n");
    for (k, b) in rigid.bodies().iter().enumerate() {
        let name = crate::validate::rigid::rigid_name(&scene.scene, k).replace(',', ";");
        let (x, q, v, w) = (b.x, b.q, b.v, b.omega);
        let _ = writeln!(
            s,
            "{name},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            x.x, x.y, x.z, q.w, q.i, q.j, q.k, v.x, v.y, v.z, w.x, w.y, w.z
        );
    }
    Some(s)
}

/// Writes the rigid bodies of the current frame into `dir` (nothing without rigid bodies).
pub fn write_rigid_frame(scene: &BuiltScene, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
    let (Some((p, topology)), Some(table)) = (rigid_surfaces(scene), pose_table(scene)) else {
        return Ok(Vec::new());
    };
    let path = |ext: &str| dir.join(format!("rigid_{:05}.{ext}", scene.frame));
    let mut written = Vec::new();
    let fields = ParticleFields::default();
    for f in &scene.scene.output.formats {
        let file = match f {
            Format::Vtk => {
                let file = path("vtk");
                let title = format!("{} rigid bodies t={}", scene.scene.name, scene.time());
                super::write_vtk(&file, &title, &topology, &p, &fields)?;
                file
            }
            Format::Ply => {
                let file = path("ply");
                super::write_ply_with_fields(&file, &topology, &p, &fields)?;
                file
            }
            Format::Obj => {
                let file = path("obj");
                super::write_obj(&file, &topology, &p)?;
                file
            }
        };
        written.push(file);
    }
    let csv = path("csv");
    write_atomic(&csv, table.as_bytes()).map_err(|e| super::io_err(&csv, e))?;
    written.push(csv);
    Ok(written)
}
