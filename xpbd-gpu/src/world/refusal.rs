//! What the GPU world does not model, refused by name before anything is built ([`refusal`]),
//! and the XPBD bodies' device step built from the scene's blocks.

use std::sync::Arc;

use xpbd_core::SolverKind;
use xpbd_core::contact::{ColliderContacts, ContactGeneration, ContactOptions, ContactProjection};
use xpbd_scene::{BlockKind, BuiltScene};

use super::Bodies;
use crate::bodies::MAX_CONTINUA;
use crate::{
    GpuContext, GpuError, GpuSimulation, KinematicCollider, Scene, SceneBlock, kinematic_colliders,
};

pub(super) fn unsupported(what: impl Into<String>, reason: &'static str) -> GpuError {
    GpuError::Unsupported {
        what: what.into(),
        reason,
    }
}

/// The first feature of `scene` the GPU world does not model, by name (`None`: it runs).
pub fn refusal(scene: &BuiltScene) -> Option<GpuError> {
    let kinds = scene.block_kinds();
    let continua = kinds
        .iter()
        .filter(|k| matches!(k, BlockKind::Xpbi(_)))
        .count();
    if !scene.grips.is_empty() {
        // Grips move continuum particles only on the device.
        let in_continuum = |i: usize| {
            kinds.iter().any(|k| match k {
                BlockKind::Xpbi(c) => c.members().contains(&(i as u32)),
                _ => false,
            })
        };
        if let Some(&(i, _)) = scene.grips.iter().find(|(i, _)| !in_continuum(*i)) {
            return Some(unsupported(
                format!("grip on particle {i} of an XPBD body"),
                "the GPU's XPBD step does not move kinematic particles",
            ));
        }
    }
    if !scene.emitters.is_empty() && !scene.fluids.is_empty() {
        return Some(unsupported(
            "nozzles feeding fluids",
            "the GPU world releases particles into an XPBI continuum only",
        ));
    }
    if !scene.fluids.is_empty() {
        let settings = scene.sim.settings();
        if let SolverKind::Jacobi { .. } = settings.solver {
            return Some(unsupported(
                "a fluid under the Jacobi solver",
                "the GPU projects a fluid's density constraints in the CPU's cell colours",
            ));
        }
        if let Some(d) = settings.multiplier_warm_start {
            return Some(unsupported(
                format!("multiplier_warm_start = {d} with a fluid"),
                "the GPU resets a fluid's multipliers every substep (XPBD)",
            ));
        }
    }
    for k in &kinds {
        match k {
            BlockKind::Contacts(_)
            | BlockKind::Spacing(_)
            | BlockKind::Xpbi(_)
            | BlockKind::Fluid(_) => {}
            BlockKind::Bodies(b) => {
                if let Some(e) = touching_refusal("body contacts", b.options()) {
                    return Some(e);
                }
            }
            BlockKind::Triangles(t) => {
                if let Some(e) = touching_refusal("point-triangle contacts", t.options()) {
                    return Some(e);
                }
            }
            BlockKind::ColliderTriangles(t) => {
                let contacts = kinds.iter().find_map(|k| match k {
                    BlockKind::Contacts(c) => Some(*c),
                    _ => None,
                });
                let x = &scene.sim.particles().x;
                if let Some(c) = contacts
                    && let Some(e) = crate::kinematic::collider_triangle_refusal(c, t, x)
                {
                    return Some(e);
                }
            }
            k if xpbd_block(k).is_some() => {}
            other => {
                return Some(unsupported(other.describe(), "not ported to the GPU world"));
            }
        }
    }
    if continua > MAX_CONTINUA {
        return Some(unsupported(
            format!("{continua} continua"),
            "the GPU world steps at most 3 XPBI continua",
        ));
    }
    let touching = kinds
        .iter()
        .any(|k| matches!(k, BlockKind::Bodies(_) | BlockKind::Triangles(_)));
    if touching && let SolverKind::Jacobi { .. } = scene.sim.settings().solver {
        return Some(unsupported(
            "contacts between bodies under the Jacobi solver",
            "the GPU projects body contacts in the CPU's colours (coloured or sequential \
             Gauss-Seidel)",
        ));
    }
    None
}

/// Why a block of contacts between bodies cannot run on the GPU (`None`: it can).
pub(super) fn touching_refusal(what: &str, options: &ContactOptions) -> Option<GpuError> {
    if options.generation != ContactGeneration::PerStep {
        return Some(unsupported(
            format!("{what} generated every substep"),
            "the GPU world generates body contacts on the host once per step",
        ));
    }
    if options.projection != ContactProjection::EveryIteration {
        return Some(unsupported(
            format!("{what} projected once per substep"),
            "the GPU projects body contacts in every iteration",
        ));
    }
    None
}

/// The GPU block of an XPBD constraint block (`None`: not an XPBD material block). The one
/// list of the XPBD kinds the GPU world steps: [`refusal`] and the builder both read it, so a
/// block is either stepped or refused, never skipped.
pub(super) fn xpbd_block(kind: &BlockKind<'_>) -> Option<SceneBlock> {
    Some(match kind {
        BlockKind::Distance(d) => SceneBlock::Distance((*d).clone()),
        BlockKind::Dihedral(d) => SceneBlock::DihedralBending((*d).clone()),
        BlockKind::Isometric(d) => SceneBlock::IsometricBending((*d).clone()),
        BlockKind::Tets(t) => SceneBlock::NeoHookean((*t).clone()),
        _ => return None,
    })
}

/// The colliders of the XPBD step for its particles `members` (planes, spheres, boxes,
/// capsules, signed-distance grids at their poses, static or translating, with μ_s, μ_k and restitution) and each
/// member's contact radius.
pub(super) fn xpbd_colliders(
    contacts: &ColliderContacts<3>,
    members: &[usize],
) -> Result<(Vec<KinematicCollider>, Vec<f64>), GpuError> {
    if contacts.members().is_some() {
        return Err(unsupported(
            "contacts with members",
            "the GPU's XPBD contacts act on every particle of its buffers",
        ));
    }
    if contacts.options().projection != ContactProjection::EveryIteration {
        return Err(unsupported(
            format!("contact projection {:?}", contacts.options().projection),
            "the GPU projects contacts after every iteration",
        ));
    }
    let radii = members
        .iter()
        .map(|&i| contacts.radius_of_particle(i))
        .collect();
    Ok((kinematic_colliders(contacts)?, radii))
}

/// The XPBD bodies' device step: every XPBD material block of the scene and the colliders,
/// acting on the particles `xpbd_members` (the scene's particles outside every continuum).
pub(super) fn xpbd_bodies(
    ctx: &Arc<GpuContext>,
    scene: &BuiltScene,
    kinds: &[BlockKind<'_>],
    xpbd_members: &[usize],
) -> Result<Bodies, GpuError> {
    let n = scene.sim.particles().len();
    let mut gpu_scene = Scene::new(scene.sim.particles().clone(), scene.sim.settings().clone());
    let mut colliders = None;
    for k in kinds {
        match (k, xpbd_block(k)) {
            (_, Some(block)) => gpu_scene = gpu_scene.with_block(block),
            (BlockKind::Contacts(c), None) => {
                let (list, radii) = xpbd_colliders(c, xpbd_members)?;
                colliders = Some((list, c.options().acceleration));
                gpu_scene.contact_radius = c.radius();
                if radii.iter().any(|&r| r != c.radius()) {
                    let mut all = vec![c.radius(); n];
                    for (&i, &r) in xpbd_members.iter().zip(&radii) {
                        all[i] = r;
                    }
                    gpu_scene.contact_radii = all;
                }
            }
            (
                BlockKind::Xpbi(_)
                | BlockKind::ColliderTriangles(_)
                | BlockKind::Spacing(_)
                | BlockKind::Fluid(_)
                | BlockKind::Bodies(_)
                | BlockKind::Triangles(_),
                None,
            ) => {}
            (other, None) => {
                return Err(unsupported(
                    other.describe(),
                    "not ported to the GPU's XPBD step",
                ));
            }
        }
    }
    let all = xpbd_members.len() == n;
    let members32: Vec<u32> = xpbd_members.iter().map(|&i| i as u32).collect();
    let subset = (!all).then_some(&members32[..]);
    let mut gpu = GpuSimulation::with_members(ctx.clone(), &gpu_scene, subset)?;
    if let Some((colliders, acceleration)) = colliders {
        gpu.set_colliders(&colliders, acceleration)?;
    }
    Ok(Bodies {
        gpu: Box::new(gpu),
        members: (!all).then(|| xpbd_members.to_vec()),
    })
}
