//! The CPU [`Simulation`] of an [`Assembly`]: every planned block built and added in plan
//! order.

use xpbd_core::contact::ColliderTriangleContacts;
use xpbd_core::{AdvanceReport, Simulation};
use xpbi_continuum::contact::SpacingConstraints;
use xpbi_continuum::continuum::XpbiContinuum;

use super::{Assembly, BlockPlan, ContinuumPlan};
use crate::build::{AnyBlock, BuiltScene, ContinuumBlock};
use crate::error::SceneError;

impl Assembly {
    /// The CPU simulation of the assembly, with what a run needs beside it (topology, grips,
    /// nozzles, the blocks by kind): every plan built in order. A continuum whose fixed
    /// substep exceeds its CFL bound at the start is refused by its `velocity`.
    pub fn into_scene(self) -> Result<BuiltScene, SceneError> {
        let Assembly {
            scene,
            file,
            particles,
            settings,
            topology,
            bodies,
            plans,
            grips,
            emitters,
        } = self;
        let file = file.as_path();
        let mut sim = Simulation::new(particles, settings)
            .map_err(SceneError::build_at(file, "solver".into()))?;
        let mut handles = Vec::new();
        let mut continua = Vec::new();
        let mut fluid_blocks = Vec::new();
        let at = |f: &str| SceneError::build_at(file, f.to_string());
        for plan in plans {
            match plan {
                BlockPlan::Distance { field, block } => handles.push(AnyBlock::Distance(
                    sim.add_constraints(block).map_err(at(&field))?,
                )),
                BlockPlan::Dihedral { field, block } => handles.push(AnyBlock::Dihedral(
                    sim.add_constraints(block).map_err(at(&field))?,
                )),
                BlockPlan::Isometric { field, block } => handles.push(AnyBlock::Isometric(
                    sim.add_constraints(block).map_err(at(&field))?,
                )),
                BlockPlan::Tets { field, block } => handles.push(AnyBlock::Tets(
                    sim.add_constraints(block).map_err(at(&field))?,
                )),
                BlockPlan::Colliders {
                    mut contacts,
                    cloth_triangles,
                } => {
                    // A second block that reads the colliders' motion from the first, added
                    // right after it.
                    let triangles = (!cloth_triangles.is_empty())
                        .then(|| ColliderTriangleContacts::new(&mut contacts, &cloth_triangles));
                    handles.push(AnyBlock::Contacts(
                        sim.add_constraints(contacts).map_err(at("contacts"))?,
                    ));
                    if let Some(triangles) = triangles {
                        handles.push(AnyBlock::ColliderTriangles(
                            sim.add_constraints(triangles).map_err(at("contacts"))?,
                        ));
                    }
                }
                BlockPlan::Continuum(p) => {
                    continua.push(add_continuum(&mut sim, &mut handles, p, &scene, file)?);
                }
                BlockPlan::Fluids(fluids) => {
                    let fixed_substep = (!scene.time.is_adaptive(true))
                        .then(|| scene.time.dt / scene.solver.substeps as f64);
                    fluid_blocks = crate::fluid::add_blocks(
                        &mut sim,
                        fluids,
                        &scene.fluid,
                        &bodies,
                        fixed_substep,
                        file,
                    )?;
                    handles.extend(fluid_blocks.iter().copied().map(AnyBlock::Fluid));
                }
                BlockPlan::Touching { margin } => {
                    let touching = crate::interaction::add_body_contacts(
                        &mut sim,
                        &bodies,
                        &scene.interaction,
                        margin,
                        file,
                    )?;
                    handles.extend(touching.bodies.map(AnyBlock::Bodies));
                    handles.extend(touching.triangles.into_iter().map(AnyBlock::Triangles));
                }
                BlockPlan::Rigid(r) => {
                    let index = sim.add_set(r).map_err(at("rigid"))?;
                    handles.push(AnyBlock::Rigid(index));
                }
            }
        }
        debug_assert_eq!(handles.len(), sim.blocks().len());
        Ok(BuiltScene {
            bodies,
            sim,
            topology,
            scene,
            frame: 0,
            continua,
            fluids: fluid_blocks,
            grips,
            emitters,
            handles,
            steps: AdvanceReport::default(),
        })
    }

    /// The CPU simulation of the assembly alone ([`Assembly::into_scene`]).
    pub fn into_simulation(self) -> Result<Simulation<3>, SceneError> {
        self.into_scene().map(|s| s.sim)
    }
}

/// A continuum's position correction (when planned) and XPBI block, as
/// `xpbi_continuum::scene` adds them.
fn add_continuum(
    sim: &mut Simulation<3>,
    handles: &mut Vec<AnyBlock>,
    p: ContinuumPlan,
    scene: &crate::scene::SceneDesc,
    file: &std::path::Path,
) -> Result<ContinuumBlock, SceneError> {
    let members: Vec<u32> = p.members.clone().map(|i| i as u32).collect();
    let mut correction = None;
    if let Some(r) = p.correction_radius {
        let spacing = p.settings.spacing;
        let sc =
            SpacingConstraints::with_radius(sim.particles(), members.clone(), spacing, r * spacing);
        let handle = sim
            .add_constraints(sc)
            .map_err(SceneError::build_at(file, p.field.clone()))?;
        handles.push(AnyBlock::Spacing(handle));
        correction = Some(r);
    }
    let volume = vec![p.settings.spacing.powi(3); members.len()];
    let built = match (p.ids.is_empty(), &p.materials[..]) {
        (true, &[material]) => {
            XpbiContinuum::new(sim.particles(), members, volume, material, p.settings)
        }
        _ => XpbiContinuum::with_materials(
            sim.particles(),
            members,
            volume,
            p.materials,
            p.ids,
            p.settings,
        ),
    };
    let xpbi = built.map_err(|source| SceneError::Continuum {
        file: file.to_path_buf(),
        // A neighbour grid refused: the `[continuum.xpbi]` setting that sets its cells.
        field: match &source {
            xpbi_continuum::XpbiError::Grid { setting, .. } => {
                format!("{}.xpbi.{setting}", p.field)
            }
            _ => p.field.clone(),
        },
        source: Box::new(source),
    })?;
    // Fixed steps: the block's own CFL bound at the start (`XpbiContinuum::cfl_bound`, the
    // bound every step checks), refused here by field. Adaptive steps stay below it.
    let h = scene.time.dt / scene.solver.substeps as f64;
    if !scene.time.is_adaptive(true) && h > xpbi.cfl_bound(sim.particles()).0 {
        return Err(SceneError::InvalidValue {
            file: file.to_path_buf(),
            line: 0,
            field: format!("{}.velocity", p.field),
            value: p.velocity,
            reason: "the substep dt/substeps exceeds the CFL bound cfl * spacing / |velocity|",
        });
    }
    let handle = sim
        .add_constraints(xpbi)
        .map_err(SceneError::build_at(file, p.field.clone()))?;
    handles.push(AnyBlock::Xpbi(handle));
    Ok(ContinuumBlock {
        handle,
        material: p.material_id,
        correction_radius: correction,
    })
}
