//! The GPU world: a scene description ([`xpbd_scene::SceneDesc`]) stepped on the GPU.
//!
//! A [`GpuWorld`] is built from the scene's one build ([`xpbd_scene::BuiltScene`], the
//! assembler every backend shares: the same particles, constraint blocks, colliders and
//! settings, in the same order). It uploads that state, steps it on the device and keeps the
//! `BuiltScene` synchronised with the device after every completed frame, so that frames,
//! the run manifest and checkpoints are written by the CPU's own code
//! ([`xpbd_scene::runner::FrameStepper`]): a checkpoint saved from a GPU run restores on the
//! CPU, and a CPU checkpoint restores into a GPU world ([`GpuWorld::new`] on
//! `Checkpoint::restore`'s scene), within f32 of each other.
//!
//! Two device steps are behind it, chosen from what the scene holds:
//! * **XPBD bodies** (cloth, rope, soft bodies: distance constraints, dihedral or isometric
//!   bending, stable neo-Hookean tetrahedra) run on [`crate::GpuSimulation`] against up to four
//!   planes, spheres, boxes and capsules;
//! * **one XPBI continuum** of up to eight materials (a layered body) runs on
//!   [`crate::GpuXpbi`] against up to eight.
//!
//! Both take the core's contact model ([`crate::KinematicCollider`]): colliders static or
//! translating with their velocity, position-level Coulomb friction with static and kinetic
//! coefficients relative to the collider, velocity-level restitution; the scene's colliders
//! advance with every good step.
//!
//! A continuum's grips and nozzles are driven on the host before every step, as on the CPU
//! (`BuiltScene::prepare_step`): the device moves every particle with a kinematic target
//! towards it, and a particle a nozzle releases gets its mass and velocity uploaded.
//!
//! Everything else a description can hold is refused by name when the world is built
//! ([`GpuError::Unsupported`], see [`GpuWorld::new`]): grips on XPBD bodies, nozzles
//! feeding fluids, fluids, contacts between bodies, cloth self-collision, several
//! continua, XPBD bodies and a continuum together, colliders animated to target poses,
//! signed-distance grids.
//!
//! Time stepping is the CPU's: fixed steps of `[time] dt`, or adaptive steps chosen by
//! `Simulation::next_step_size` on the synchronised state (the XPBI CFL bound
//! `cfl·Δx/max|v|` and `dt_max`), a failed step rolled back and retried at half its size.
//! On the XPBI path the state is read back after every step for that (and to keep the last good
//! state on the host); a failed step is uploaded back from it.

use std::sync::Arc;

use nalgebra::Matrix3;
use xpbd_core::contact::{ColliderContacts, ColliderId, ContactOptions, ContactProjection};
use xpbd_core::error::ConstraintRef;
use xpbd_core::simulation::BlockHandle;
use xpbd_core::{AdvanceReport, StepError};
use xpbd_scene::runner::FrameStepper;
use xpbd_scene::{BlockKind, BuiltScene, FrameError};
use xpbi_continuum::continuum::XpbiContinuum;

use crate::{
    GpuContext, GpuError, GpuSimulation, GpuXpbi, KinematicCollider, Scene, SceneBlock,
    XpbiGpuScene, kinematic_colliders,
};

/// The device step behind a world.
enum WorldStep {
    Xpbd(Box<GpuSimulation>),
    Xpbi {
        gpu: Box<GpuXpbi>,
        block: BlockHandle<XpbiContinuum<3>>,
    },
}

/// A scene description stepped on the GPU (module docs).
pub struct GpuWorld {
    scene: BuiltScene,
    step: WorldStep,
}

impl std::fmt::Debug for GpuWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuWorld")
            .field("scene", &self.scene.scene.name)
            .field("step", &self.step_name())
            .finish()
    }
}

fn unsupported(what: impl Into<String>, reason: &'static str) -> GpuError {
    GpuError::Unsupported {
        what: what.into(),
        reason,
    }
}

/// The first feature of `scene` the GPU world does not model, by name (`None`: it runs).
pub fn refusal(scene: &BuiltScene) -> Option<GpuError> {
    if !scene.grips.is_empty() && scene.continua.is_empty() {
        return Some(unsupported(
            "grips on XPBD bodies",
            "the GPU's XPBD step does not move kinematic particles",
        ));
    }
    if !scene.emitters.is_empty() && scene.continua.is_empty() {
        return Some(unsupported(
            "nozzles feeding fluids",
            "the GPU world releases particles into an XPBI continuum only",
        ));
    }
    let kinds = scene.block_kinds();
    let continua = kinds
        .iter()
        .filter(|k| matches!(k, BlockKind::Xpbi(_)))
        .count();
    let xpbd = kinds.iter().any(|k| xpbd_block(k).is_some());
    for k in &kinds {
        match k {
            BlockKind::Contacts(_) | BlockKind::Spacing(_) | BlockKind::Xpbi(_) => {}
            k if xpbd_block(k).is_some() => {}
            other => {
                return Some(unsupported(other.describe(), "not ported to the GPU world"));
            }
        }
    }
    if continua > 1 {
        return Some(unsupported(
            format!("{continua} continua"),
            "the GPU world steps one XPBI continuum",
        ));
    }
    if continua == 1 && xpbd {
        return Some(unsupported(
            "XPBD bodies and an XPBI continuum in one step",
            "the GPU world steps either XPBD bodies or one continuum",
        ));
    }
    None
}

/// The GPU block of an XPBD constraint block (`None`: not an XPBD material block). The one
/// list of the XPBD kinds the GPU world steps: [`refusal`] and the builder both read it, so a
/// block is either stepped or refused, never skipped.
fn xpbd_block(kind: &BlockKind<'_>) -> Option<SceneBlock> {
    Some(match kind {
        BlockKind::Distance(d) => SceneBlock::Distance((*d).clone()),
        BlockKind::Dihedral(d) => SceneBlock::DihedralBending((*d).clone()),
        BlockKind::Isometric(d) => SceneBlock::IsometricBending((*d).clone()),
        BlockKind::Tets(t) => SceneBlock::NeoHookean((*t).clone()),
        _ => return None,
    })
}

/// The colliders of the XPBD path (planes, spheres, boxes, capsules at their poses, static or
/// translating, with μ_s, μ_k and restitution); the contact radius is the scene's
/// (`Scene::contact_radius`).
fn xpbd_colliders(contacts: &ColliderContacts<3>) -> Result<Vec<KinematicCollider>, GpuError> {
    let r = contacts.radius();
    if contacts.radii().iter().any(|&q| q != r) || contacts.members().is_some() {
        return Err(unsupported(
            "contacts with per-particle radii or members",
            "the GPU's XPBD contacts have one radius for all particles",
        ));
    }
    if contacts.options().projection != ContactProjection::EveryIteration {
        return Err(unsupported(
            format!("contact projection {:?}", contacts.options().projection),
            "the GPU projects contacts after every iteration",
        ));
    }
    kinematic_colliders(contacts)
}

impl GpuWorld {
    /// The world of a built scene (from a file with `xpbd_scene::build_scene`, from Rust with
    /// `BuiltScene::from_desc`, or a restored checkpoint), its state uploaded as it is. Refuses
    /// by name what it does not model ([`refusal`], then the device steps' own checks).
    pub fn new(ctx: Arc<GpuContext>, scene: BuiltScene) -> Result<Self, GpuError> {
        if let Some(e) = refusal(&scene) {
            return Err(e);
        }
        let kinds = scene.block_kinds();
        let contacts = kinds.iter().find_map(|k| match k {
            BlockKind::Contacts(c) => Some(*c),
            _ => None,
        });
        let step = if let Some(c) = scene.continua.first() {
            let continuum = &scene.sim.block(c.handle).kind;
            let correction = kinds.iter().find_map(|k| match k {
                BlockKind::Spacing(s) => {
                    Some(s.min_distance() / (0.75 * continuum.settings().spacing))
                }
                _ => None,
            });
            let fallback;
            let contacts = match contacts {
                Some(c) => c,
                None => {
                    fallback = ColliderContacts::new(
                        0.5 * continuum.settings().spacing,
                        ContactOptions::default(),
                    )
                    .map_err(|e| unsupported(e.to_string(), "no contact radius"))?;
                    &fallback
                }
            };
            let desc = XpbiGpuScene::from_blocks(&scene.sim, continuum, contacts, correction)?;
            WorldStep::Xpbi {
                gpu: Box::new(GpuXpbi::new(ctx, &desc)?),
                block: c.handle,
            }
        } else {
            let mut gpu_scene =
                Scene::new(scene.sim.particles().clone(), scene.sim.settings().clone());
            let mut colliders = None;
            for k in &kinds {
                match (k, xpbd_block(k)) {
                    (_, Some(block)) => gpu_scene = gpu_scene.with_block(block),
                    (BlockKind::Contacts(c), None) => {
                        colliders = Some((xpbd_colliders(c)?, c.options().acceleration));
                        gpu_scene.contact_radius = c.radius();
                    }
                    (other, None) => {
                        return Err(unsupported(
                            other.describe(),
                            "not ported to the GPU's XPBD step",
                        ));
                    }
                }
            }
            let mut gpu = GpuSimulation::new(ctx, &gpu_scene)?;
            if let Some((colliders, acceleration)) = colliders {
                gpu.set_colliders(&colliders, acceleration)?;
            }
            WorldStep::Xpbd(Box::new(gpu))
        };
        Ok(Self { scene, step })
    }

    /// The scene as of the last completed step (XPBI) or frame (XPBD).
    pub fn scene(&self) -> &BuiltScene {
        &self.scene
    }

    /// The scene, synchronised as of the last completed frame.
    pub fn into_scene(self) -> BuiltScene {
        self.scene
    }

    /// Which device step runs the world: `"xpbd"` or `"xpbi"`.
    pub fn step_name(&self) -> &'static str {
        match self.step {
            WorldStep::Xpbd(_) => "xpbd",
            WorldStep::Xpbi { .. } => "xpbi",
        }
    }

    /// The device's context (adapter name and backend).
    pub fn context(&self) -> &Arc<GpuContext> {
        match &self.step {
            WorldStep::Xpbd(g) => g.context(),
            WorldStep::Xpbi { gpu, .. } => gpu.context(),
        }
    }

    /// One step of `[time] dt`, fixed or adaptive as the scene says (module docs); on an error
    /// the device and the scene keep the state of the last good step.
    pub fn step(&mut self) -> Result<(), GpuError> {
        let dt = self.scene.scene.time.dt;
        let substeps = self.scene.sim.settings().substeps as f64;
        let adaptive = self.scene.is_adaptive();
        let stepping = self.scene.scene.time.stepping();
        let mut report = AdvanceReport::default();
        if !adaptive {
            self.scene.sim.check_substep_bounds(dt / substeps)?;
            self.attempt(dt)?;
            report.record(dt);
        } else {
            let (mut remaining, mut cap) = (dt, stepping.dt_max);
            while remaining > 0.0 {
                let mut h = self.scene.sim.next_step_size(remaining, cap)?;
                let mut halvings = 0;
                loop {
                    match self.attempt(h) {
                        Ok(()) => break,
                        Err(GpuError::Step(
                            e @ (StepError::Diverged { .. } | StepError::NonFinite { .. }),
                        )) => {
                            if halvings >= stepping.max_halvings {
                                return Err(StepError::StepSizeExhausted {
                                    time: self.scene.sim.time(),
                                    dt: h,
                                    halvings,
                                    last: Box::new(e),
                                }
                                .into());
                            }
                            halvings += 1;
                            report.halvings += 1;
                            h *= 0.5;
                            cap = cap.min(h);
                        }
                        Err(e) => return Err(e),
                    }
                }
                report.record(h);
                remaining = if h == remaining { 0.0 } else { remaining - h };
            }
        }
        self.scene.steps.merge(&report);
        Ok(())
    }

    /// One device step of `h`; the XPBI path reads the state back into the scene, or on a
    /// non-finite particle uploads the scene's (last good) state back and names the particle.
    fn attempt(&mut self, h: f64) -> Result<(), GpuError> {
        match &mut self.step {
            WorldStep::Xpbd(gpu) => {
                gpu.step(h)?;
                advance_colliders(&mut self.scene, h)
            }
            WorldStep::Xpbi { gpu, block } => {
                // An XPBI substep is an XPBI step of its length (kernels, neighbours and F per
                // substep, xpbi_continuum::continuum): S substeps are S device steps of h/S.
                let substeps = self.scene.sim.settings().substeps;
                let h_sub = h / substeps as f64;
                // Grips and nozzles, as before every CPU attempt (BuiltScene::prepare_step): a
                // particle a nozzle releases gets its mass and velocity on the device, and every
                // particle with a kinematic target moves 1/S of the way to it per substep (the
                // CPU's linear path to the target).
                if !self.scene.grips.is_empty() || !self.scene.emitters.is_empty() {
                    let released =
                        |s: &BuiltScene| -> usize { s.emitters.iter().map(|e| e.released()).sum() };
                    let before = released(&self.scene);
                    self.scene.prepare_step(h);
                    let p = self.scene.sim.particles();
                    if released(&self.scene) != before {
                        let c = &self.scene.sim.block(*block).kind;
                        gpu.set_inverse_masses(&p.inv_mass)?;
                        gpu.upload_state(&p.x, &p.v, c.deformation_gradients(), &host_states(c))?;
                    }
                    let moves: Vec<_> = (p.kinematic_target.iter().enumerate())
                        .filter_map(|(i, t)| t.map(|t| (i, (t - p.x[i]) / substeps as f64)))
                        .collect();
                    gpu.set_kinematic_displacements(&moves)?;
                }
                // Kinematic colliders start every attempt where the scene holds them (a failed
                // attempt moved the device's copy) and the scene's advance with a good one.
                let moving = gpu.colliders().iter().any(KinematicCollider::is_moving);
                if moving && let Some(contacts) = self.scene.collider_contacts_mut() {
                    gpu.set_colliders(&kinematic_colliders(contacts)?)?;
                }
                let result = (0..substeps).try_for_each(|_| gpu.step(h_sub));
                let x = gpu.positions()?;
                let v = gpu.velocities()?;
                let f = gpu.deformation_gradients()?;
                let s = gpu.plastic_states()?;
                let bad = (0..x.len()).find(|&i| {
                    !(x[i].iter().chain(v[i].iter()).all(|c| c.is_finite())
                        && f[i].iter().all(|c| c.is_finite()))
                });
                if result.is_err() || bad.is_some() {
                    let p = self.scene.sim.particles();
                    let c = &self.scene.sim.block(*block).kind;
                    gpu.upload_state(&p.x, &p.v, c.deformation_gradients(), &host_states(c))?;
                    result?;
                    return Err(StepError::NonFinite {
                        particle: bad.unwrap_or(0),
                        substep: 0,
                        constraint: ConstraintRef::default(),
                    }
                    .into());
                }
                let time = self.scene.sim.time() + h;
                let p = self.scene.sim.particles_mut();
                p.x = x;
                p.v = v;
                let state = xpbi_state(&f, &s);
                self.scene
                    .sim
                    .block_mut(*block)
                    .kind
                    .set_state_vector(&state)?;
                self.scene.sim.set_time(time)?;
                advance_colliders(&mut self.scene, h)
            }
        }
    }

    /// `steps_per_frame` steps, then the scene is synchronised with the device.
    pub fn advance_frame(&mut self) -> Result<(), GpuError> {
        let mut result = Ok(());
        for _ in 0..self.scene.scene.time.steps_per_frame {
            result = self.step();
            if result.is_err() {
                break;
            }
        }
        self.sync_from_device()?;
        result?;
        self.scene.frame += 1;
        Ok(())
    }

    /// Reads the XPBD path's state back into the scene (the XPBI path is read back every
    /// step); [`GpuWorld::advance_frame`] does this at the end of every frame.
    pub fn sync_from_device(&mut self) -> Result<(), GpuError> {
        if let WorldStep::Xpbd(gpu) = &self.step {
            let x = gpu.positions()?;
            let v = gpu.velocities()?;
            let time = gpu.time();
            let p = self.scene.sim.particles_mut();
            p.x = x;
            p.v = v;
            self.scene.sim.set_time(time)?;
        }
        Ok(())
    }
}

/// Moves the scene's kinematic colliders by their velocity times `h`, after a good device step
/// of `h` (the device's own copies moved in it): where the core's contacts put them after a
/// step.
fn advance_colliders(scene: &mut BuiltScene, h: f64) -> Result<(), GpuError> {
    if let Some(contacts) = scene.collider_contacts_mut() {
        for k in 0..contacts.colliders().len() {
            let c = &contacts.colliders()[k];
            if c.velocity.norm() != 0.0 {
                let mut pose = c.pose;
                pose.translation += c.velocity * h;
                contacts.set_pose(ColliderId(k), pose)?;
            }
        }
    }
    Ok(())
}

/// The plastic states `[hardening, volume correction]` of a continuum, as the device holds them.
fn host_states(c: &XpbiContinuum<3>) -> Vec<[f64; 2]> {
    (c.plastic_states().iter())
        .map(|s| [s.hardening, s.volume_correction])
        .collect()
}

/// An XPBI block's state vector ([`XpbiContinuum::state_vector`]: F column by column, then
/// hardening and volume correction, per member) from the device's read-backs.
fn xpbi_state(f: &[Matrix3<f64>], s: &[[f64; 2]]) -> Vec<f64> {
    let mut out = Vec::with_capacity(11 * f.len());
    for (f, s) in f.iter().zip(s) {
        out.extend(f.iter());
        out.extend(s);
    }
    out
}

impl FrameStepper for GpuWorld {
    fn built(&self) -> &BuiltScene {
        &self.scene
    }

    fn advance_frame(&mut self) -> Result<(), FrameError> {
        GpuWorld::advance_frame(self).map_err(|e| match e {
            GpuError::Step(s) => FrameError::Step(s),
            other => FrameError::Backend {
                backend: "gpu",
                source: Box::new(other),
            },
        })
    }
}
