//! The GPU world: a scene description ([`xpbd_scene::SceneDesc`]) stepped on the GPU.
//!
//! A [`GpuWorld`] is built from the scene's one build ([`xpbd_scene::BuiltScene`], the
//! assembler every backend shares: the same particles, constraint blocks, colliders and
//! settings, in the same order). It uploads that state, steps it on the device and keeps the
//! `BuiltScene` synchronised with the device, so that frames, the run manifest and
//! checkpoints are written by the CPU's own code ([`xpbd_scene::runner::FrameStepper`]): a
//! checkpoint saved from a GPU run restores on the CPU, and a CPU checkpoint restores into a
//! GPU world ([`GpuWorld::new`] on `Checkpoint::restore`'s scene), within f32 of each other.
//!
//! # One step for every body
//! The particles live in two sets of device buffers: the **XPBD bodies'** (cloth, ropes, soft
//! bodies: distance constraints, dihedral or isometric bending, stable neo-Hookean tetrahedra,
//! [`crate::GpuSimulation`], against up to eight colliders) and **each XPBI continuum's** (up
//! to three continua, each of up to eight materials, [`crate::GpuXpbi`], against up to eight
//! colliders), whose solve works on the step's displacement rather than on positions to keep
//! f32 accuracy; a continuum keeps its own neighbour grid, cell colours and frozen data, as on
//! the CPU. Bodies touch through the core's body and point–triangle contacts with their
//! friction ([`crate::bodies`]), whose kernels read and correct every set. A substep is one
//! submission in the CPU loop's order:
//!
//! ```text
//! XPBD predict, λ ← 0 │ each continuum's predict (after its frozen data on xⁿ) │ contacts
//!     λ, τ ← 0
//! iterations ×  XPBD blocks' colours, colliders │ each continuum's colliders, position
//!               correction, XPBI colours │ body contacts, in the CPU's colours
//! XPBD velocities, restitution, faults │ each continuum's velocities, restitution, XSPH,
//!     F update
//! ```
//!
//! The sets are disjoint, so the XPBD blocks and the continua's commute within an iteration,
//! and the body contacts come after both, as the CPU projects them after the material and XPBI
//! blocks ("contacts have the last word"). Body-contact candidates are generated on the host
//! by the CPU's own code at the start of every step (`ContactGeneration::PerStep`) on the
//! state read back after the last one, and coloured by the CPU's greedy colouring, so both
//! backends project the same contacts in the same order. A scene of XPBD bodies alone that do
//! not touch runs all substeps of a step in one submission and is read back at frame ends.
//!
//! Both step kinds take the core's contact model ([`crate::KinematicCollider`]): colliders
//! static or translating with their velocity, position-level Coulomb friction with static and
//! kinetic coefficients relative to the collider, velocity-level restitution; the scene's
//! colliders advance with every good step.
//!
//! A continuum's grips and nozzles are driven on the host before every step, as on the CPU
//! (`BuiltScene::prepare_step`): the device moves every particle with a kinematic target
//! towards it, and a particle a nozzle releases gets its mass and velocity uploaded.
//!
//! Everything else a description can hold is refused by name when the world is built
//! ([`GpuError::Unsupported`], see [`refusal`]): grips on XPBD bodies, nozzles feeding fluids,
//! fluids under the Jacobi solver or with warm-started multipliers, more than three continua,
//! body contacts under the Jacobi solver or generated every substep, colliders animated to
//! target poses.
//!
//! Time stepping is the CPU's: fixed steps of `[time] dt`, or adaptive steps chosen by
//! `Simulation::next_step_size` on the synchronised state (the XPBI CFL bound
//! `cfl·Δx/max|v|` and `dt_max`), a failed step retried at half its size. A step with a
//! continuum or body contacts is read back after it (for that, for the next step's contact
//! candidates and to keep the last good state on the host); a failed one is uploaded back from
//! the host and reports the offending particle in the scene's numbering.

use std::sync::Arc;

use nalgebra::{Matrix3, Vector3};
use xpbd_core::constraint::SubstepContext;
use xpbd_core::contact::{
    ColliderContacts, ColliderId, ContactGeneration, ContactOptions, ContactProjection, Pose,
};
use xpbd_core::error::ConstraintRef;
use xpbd_core::simulation::BlockHandle;
use xpbd_core::{AdvanceReport, SolverKind, StepError};
use xpbd_scene::runner::FrameStepper;
use xpbd_scene::{BlockKind, BuiltScene, FrameError};
use xpbi_continuum::continuum::XpbiContinuum;

use crate::audit;
use crate::bodies::{GpuBodyContacts, MAX_CONTINUA, PackedContacts, ParticleSlots};
use crate::fluid::{GpuFluid, ParticleBuffers};
use crate::{
    GpuContext, GpuError, GpuSimulation, GpuXpbi, KinematicCollider, Scene, SceneBlock,
    XpbiGpuScene, kinematic_colliders,
};

/// A phase of a substep, as the GPU world interleaves the device steps of its particle sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Prediction and multiplier resets.
    Start,
    /// One iteration of the constraint sweeps.
    Iteration,
    /// Velocities, restitution, and the continuum's XSPH and F update.
    End,
}

/// The continuum of a world on the device.
struct Continuum {
    gpu: Box<GpuXpbi>,
    block: BlockHandle<XpbiContinuum<3>>,
    /// Its particles (scene indices) in device order.
    members: Vec<usize>,
}

/// The XPBD bodies of a world on the device.
struct Bodies {
    gpu: Box<GpuSimulation>,
    /// Its particles (scene indices) in device order; `None`: all of the scene's.
    members: Option<Vec<usize>>,
}

/// A fluid of a world on the device: its block (index into `sim.blocks()`) and kernels.
struct Fluid {
    gpu: GpuFluid,
    block: usize,
}

/// The body contacts of a world: the blocks (indices into `sim.blocks()`) and their kernels.
struct Touching {
    blocks: Vec<usize>,
    gpu: GpuBodyContacts,
}

/// A scene description stepped on the GPU (module docs).
pub struct GpuWorld {
    scene: BuiltScene,
    xpbd: Option<Bodies>,
    continua: Vec<Continuum>,
    fluids: Vec<Fluid>,
    touching: Option<Touching>,
    slots: ParticleSlots,
    /// The substep length of the last good step (the h of the multipliers the scene holds).
    last_substep: Option<f64>,
    /// The kinematic colliders' poses when the scene last took the device's state (XPBD
    /// bodies alone are read back per frame: a frame the energy audit refuses starts again
    /// from here).
    synced_poses: Vec<Pose<3>>,
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
fn touching_refusal(what: &str, options: &ContactOptions) -> Option<GpuError> {
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
fn xpbd_block(kind: &BlockKind<'_>) -> Option<SceneBlock> {
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
fn xpbd_colliders(
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

impl GpuWorld {
    /// The world of a built scene (from a file with `xpbd_scene::build_scene`, from Rust with
    /// `BuiltScene::from_desc`, or a restored checkpoint), its state uploaded as it is. Refuses
    /// by name what it does not model ([`refusal`], then the device steps' own checks).
    pub fn new(ctx: Arc<GpuContext>, scene: BuiltScene) -> Result<Self, GpuError> {
        if let Some(e) = refusal(&scene) {
            return Err(e);
        }
        let kinds = scene.block_kinds();
        let n = scene.sim.particles().len();
        let contacts = kinds.iter().find_map(|k| match k {
            BlockKind::Contacts(c) => Some(*c),
            _ => None,
        });
        let mut continua = Vec::new();
        for c in &scene.continua {
            let kind = &scene.sim.block(c.handle).kind;
            // Its position correction is the block right before it (the builder's order).
            let index = c.handle.index();
            let correction = (index > 0)
                .then(|| &kinds[index - 1])
                .and_then(|k| match k {
                    BlockKind::Spacing(s) => {
                        Some(s.min_distance() / (0.75 * kind.settings().spacing))
                    }
                    _ => None,
                });
            let fallback;
            let contacts = match contacts {
                Some(c) => c,
                None => {
                    fallback = ColliderContacts::new(
                        0.5 * kind.settings().spacing,
                        ContactOptions::default(),
                    )
                    .map_err(|e| unsupported(e.to_string(), "no contact radius"))?;
                    &fallback
                }
            };
            let desc = XpbiGpuScene::from_blocks(&scene.sim, kind, contacts, correction)?;
            continua.push(Continuum {
                gpu: Box::new(GpuXpbi::new(ctx.clone(), &desc)?),
                block: c.handle,
                members: kind.members().iter().map(|&m| m as usize).collect(),
            });
        }
        let mut in_continuum = vec![false; n];
        for &i in continua.iter().flat_map(|c| &c.members) {
            in_continuum[i] = true;
        }
        let xpbd_members: Vec<usize> = (0..n).filter(|&i| !in_continuum[i]).collect();
        let xpbd = if xpbd_members.is_empty() && !continua.is_empty() {
            None
        } else {
            let mut gpu_scene =
                Scene::new(scene.sim.particles().clone(), scene.sim.settings().clone());
            let mut colliders = None;
            for k in &kinds {
                match (k, xpbd_block(k)) {
                    (_, Some(block)) => gpu_scene = gpu_scene.with_block(block),
                    (BlockKind::Contacts(c), None) => {
                        let (list, radii) = xpbd_colliders(c, &xpbd_members)?;
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
            Some(Bodies {
                gpu: Box::new(gpu),
                members: (!all).then_some(xpbd_members.clone()),
            })
        };
        let as_u32 = |v: &[usize]| v.iter().map(|&i| i as u32).collect::<Vec<u32>>();
        let continuum_members: Vec<Vec<u32>> =
            continua.iter().map(|c| as_u32(&c.members)).collect();
        let sets: Vec<&[u32]> = continuum_members.iter().map(|m| &m[..]).collect();
        let slots = ParticleSlots::new(n, &as_u32(&xpbd_members), &sets)?;
        let mut fluids = Vec::new();
        for (b, k) in kinds.iter().enumerate() {
            let BlockKind::Fluid(kind) = k else {
                continue;
            };
            let Some(xpbd) = &xpbd else {
                return Err(unsupported(
                    "a fluid",
                    "a fluid lives in the XPBD bodies' buffers",
                ));
            };
            let (x, x_prev) = xpbd.gpu.position_buffers();
            let buffers = ParticleBuffers {
                xpbd: [x, x_prev, xpbd.gpu.velocity_buffer()],
                continua: continua
                    .iter()
                    .map(|c| {
                        let (a, b, c) = c.gpu.contact_buffers();
                        [a, b, c]
                    })
                    .collect(),
            };
            fluids.push(Fluid {
                gpu: GpuFluid::new(&ctx, kind, &slots, &buffers)?,
                block: b,
            });
        }
        let blocks: Vec<usize> = (kinds.iter().enumerate())
            .filter(|(_, k)| matches!(k, BlockKind::Bodies(_) | BlockKind::Triangles(_)))
            .map(|(b, _)| b)
            .collect();
        let touching = if blocks.is_empty() {
            None
        } else {
            let sequential = scene.sim.settings().solver == SolverKind::GaussSeidel;
            let gpu = GpuBodyContacts::new(
                &ctx,
                xpbd.as_ref().map(|b| b.gpu.position_buffers()),
                &continua
                    .iter()
                    .map(|c| c.gpu.contact_buffers())
                    .collect::<Vec<_>>(),
                sequential,
            )?;
            Some(Touching { blocks, gpu })
        };
        let mut scene = scene;
        let synced_poses = collider_poses(&mut scene);
        Ok(Self {
            scene,
            xpbd,
            continua,
            fluids,
            touching,
            slots,
            last_substep: None,
            synced_poses,
        })
    }

    /// The scene as of the last completed step (a continuum or body contacts) or frame (XPBD
    /// bodies alone).
    pub fn scene(&self) -> &BuiltScene {
        &self.scene
    }

    /// The scene, synchronised as of the last completed frame.
    pub fn into_scene(self) -> BuiltScene {
        self.scene
    }

    /// Which device steps run the world: `"xpbd"` (XPBD bodies that do not touch), `"xpbi"`
    /// (one continuum) or `"coupled"` (bodies that touch, or several particle sets).
    pub fn step_name(&self) -> &'static str {
        match (
            &self.xpbd,
            &self.continua[..],
            &self.fluids[..],
            &self.touching,
        ) {
            (Some(_), [], [], None) => "xpbd",
            (None, [_], [], None) => "xpbi",
            _ => "coupled",
        }
    }

    /// The device's context (adapter name and backend).
    pub fn context(&self) -> &Arc<GpuContext> {
        match (&self.xpbd, self.continua.first()) {
            (Some(b), _) => b.gpu.context(),
            (None, Some(c)) => c.gpu.context(),
            (None, None) => unreachable!("a world has XPBD bodies or a continuum"),
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
                            e @ (StepError::Diverged { .. }
                            | StepError::NonFinite { .. }
                            | StepError::EnergyGrowth { .. }),
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

    /// One step of `h`: XPBD bodies that do not touch in one submission (read back at frame
    /// ends), anything else substep by substep and read back.
    fn attempt(&mut self, h: f64) -> Result<(), GpuError> {
        if let (Some(b), [], [], None) = (
            &mut self.xpbd,
            &self.continua[..],
            &self.fluids[..],
            &self.touching,
        ) {
            b.gpu.step(h)?;
            return advance_colliders(&mut self.scene, h);
        }
        let result = self.attempt_substeps(h);
        let result = result.and_then(|()| self.read_back(h));
        if let Err(e) = result {
            // The device may hold a partial step: the scene holds the last good state.
            self.upload_scene_state()?;
            return Err(e);
        }
        Ok(())
    }

    /// A step of `h` as S substeps, each one submission interleaving every particle set's
    /// phases with the body contacts (module docs).
    fn attempt_substeps(&mut self, h: f64) -> Result<(), GpuError> {
        let substeps = self.scene.sim.settings().substeps;
        let iterations = self.scene.sim.settings().iterations;
        let h_sub = h / substeps as f64;
        self.drive_continuum(h)?;
        // Kinematic colliders start every attempt where the scene holds them (a failed
        // attempt moved the devices' copies) and the scene's advance with a good one.
        let moving = (self.scene.collider_contacts_mut())
            .is_some_and(|c| c.colliders().iter().any(|c| c.velocity.norm() != 0.0));
        if moving && let Some(contacts) = self.scene.collider_contacts_mut() {
            let all = kinematic_colliders(contacts)?;
            let acceleration = contacts.options().acceleration;
            for c in &mut self.continua {
                c.gpu.set_colliders(&all)?;
            }
            if let Some(b) = &mut self.xpbd {
                b.gpu.set_colliders(&all, acceleration)?;
            }
        }
        // Body contacts: the CPU's candidates of the step, on the state at its start.
        let ctx = self.context().clone();
        if let Some(t) = &mut self.touching {
            let sub = SubstepContext {
                h: h_sub,
                substep: 0,
                substeps,
                time: self.scene.sim.time(),
                dedicated_pool: false,
            };
            for &b in &t.blocks {
                self.scene.sim.begin_block_substep(b, &sub);
            }
            let coloured = self.scene.sim.settings().solver != SolverKind::GaussSeidel;
            let n = self.scene.sim.particles().len();
            let kinds = self.scene.block_kinds();
            let mut packed = PackedContacts::default();
            for &b in &t.blocks {
                match kinds[b] {
                    BlockKind::Bodies(k) => packed.push_pairs(k, n, &self.slots, coloured),
                    BlockKind::Triangles(k) => {
                        packed.push_triangles(k, n, &self.slots, coloured);
                    }
                    _ => {}
                }
            }
            t.gpu.upload(&ctx, &packed)?;
        }
        if let Some(b) = &mut self.xpbd {
            b.gpu.begin_step(h)?;
        }
        for s in 0..substeps {
            for c in &mut self.continua {
                c.gpu.prepare_step(h_sub)?;
            }
            for f in &mut self.fluids {
                f.gpu.prepare(&ctx, h_sub)?;
            }
            let mut enc = ctx.device().create_command_encoder(&Default::default());
            let xpbd = self.xpbd.as_ref().map(|b| &b.gpu);

            let touching = self.touching.as_ref().map(|t| &t.gpu);
            for (phase, count) in [
                (Phase::Start, 1),
                (Phase::Iteration, iterations),
                (Phase::End, 1),
            ] {
                for _ in 0..count {
                    if let Some(g) = xpbd {
                        g.encode_phase(&mut enc, phase, s);
                    }
                    for c in &self.continua {
                        c.gpu.encode_phase(&mut enc, phase)?;
                    }
                    for f in &self.fluids {
                        f.gpu.encode_phase(&mut enc, phase);
                    }
                    if let Some(g) = touching {
                        match phase {
                            Phase::Start => g.encode_reset(&mut enc),
                            Phase::Iteration => g.encode_iteration(&mut enc),
                            Phase::End => {}
                        }
                    }
                }
            }
            ctx.scoped(|| ctx.queue().submit([enc.finish()]))?;
            for c in &mut self.continua {
                c.gpu.commit_step(h_sub);
            }
        }
        if let Some(b) = &mut self.xpbd {
            // The XPBD step names its own particle: in the scene's numbering here.
            let map = |p: usize| b.members.as_ref().map_or(p, |m| m[p]);
            b.gpu.finish_step(h).map_err(|e| match e {
                GpuError::Step(StepError::Diverged {
                    particle,
                    speed,
                    substep,
                    constraint,
                }) => GpuError::Step(StepError::Diverged {
                    particle: map(particle),
                    speed,
                    substep,
                    constraint,
                }),
                GpuError::Step(StepError::NonFinite {
                    particle,
                    substep,
                    constraint,
                }) => GpuError::Step(StepError::NonFinite {
                    particle: map(particle),
                    substep,
                    constraint,
                }),
                other => other,
            })?;
        }
        Ok(())
    }

    /// The continua's grips and nozzles before an attempt of `h`, as before every CPU attempt
    /// (`BuiltScene::prepare_step`): a particle a nozzle releases gets its mass and velocity on
    /// the device, and every particle with a kinematic target moves 1/S of the way to it per
    /// substep (the CPU's linear path to the target).
    fn drive_continuum(&mut self, h: f64) -> Result<(), GpuError> {
        if self.continua.is_empty()
            || (self.scene.grips.is_empty() && self.scene.emitters.is_empty())
        {
            return Ok(());
        }
        let substeps = self.scene.sim.settings().substeps;
        let released = |s: &BuiltScene| -> usize { s.emitters.iter().map(|e| e.released()).sum() };
        let before = released(&self.scene);
        self.scene.prepare_step(h);
        let p = self.scene.sim.particles();
        let any_released = released(&self.scene) != before;
        for c in &mut self.continua {
            if any_released {
                let kind = &self.scene.sim.block(c.block).kind;
                let w: Vec<f64> = c.members.iter().map(|&i| p.inv_mass[i]).collect();
                c.gpu.set_inverse_masses(&w)?;
                let (x, v) = pick_state(p, &c.members);
                c.gpu
                    .upload_state(&x, &v, kind.deformation_gradients(), &host_states(kind))?;
            }
            let moves: Vec<_> = (c.members.iter().enumerate())
                .filter_map(|(k, &i)| {
                    p.kinematic_target[i].map(|t| (k, (t - p.x[i]) / substeps as f64))
                })
                .collect();
            c.gpu.set_kinematic_displacements(&moves)?;
        }
        Ok(())
    }

    /// After a good step of `h`: the devices' state into the scene (a non-finite continuum
    /// particle fails the step), time, colliders.
    fn read_back(&mut self, h: f64) -> Result<(), GpuError> {
        let mut continua = Vec::with_capacity(self.continua.len());
        for c in &self.continua {
            let x = c.gpu.positions()?;
            let v = c.gpu.velocities()?;
            let f = c.gpu.deformation_gradients()?;
            let s = c.gpu.plastic_states()?;
            let bad = (0..x.len()).find(|&k| {
                !(x[k].iter().chain(v[k].iter()).all(|c| c.is_finite())
                    && f[k].iter().all(|c| c.is_finite()))
            });
            if let Some(k) = bad {
                return Err(StepError::NonFinite {
                    particle: c.members[k],
                    substep: 0,
                    constraint: ConstraintRef::default(),
                }
                .into());
            }
            continua.push((x, v, f, s));
        }
        let xpbd = match &self.xpbd {
            Some(b) => Some((b.gpu.positions()?, b.gpu.velocities()?)),
            None => None,
        };
        self.audit_read_back(&continua, xpbd.as_ref(), h)?;
        for (c, (x, v, f, s)) in self.continua.iter().zip(&continua) {
            let p = self.scene.sim.particles_mut();
            for (k, &i) in c.members.iter().enumerate() {
                p.x[i] = x[k];
                p.v[i] = v[k];
            }
            let state = xpbi_state(f, s);
            self.scene
                .sim
                .block_mut(c.block)
                .kind
                .set_state_vector(&state)?;
        }
        if let (Some(b), Some((x, v))) = (&self.xpbd, xpbd) {
            write_members(self.scene.sim.particles_mut(), b.members.as_deref(), x, v);
        }
        let time = self.scene.sim.time() + h;
        self.scene.sim.set_time(time)?;
        self.last_substep = Some(h / self.scene.sim.settings().substeps as f64);
        advance_colliders(&mut self.scene, h)
    }

    /// The energy audit of a step of `dt` (module `audit`) over the device's state against the
    /// scene's, before the scene takes it.
    fn audit_read_back(
        &mut self,
        continua: &[ContinuumReadBack],
        xpbd: Option<&StateReadBack>,
        dt: f64,
    ) -> Result<(), GpuError> {
        let settings = self.scene.sim.settings();
        let (eps, gravity) = (settings.diagnostics.max_energy_gain, settings.gravity);
        let h = dt / settings.substeps as f64;
        if eps == f64::INFINITY {
            return Ok(());
        }
        let driven = audit::driven_speed(&mut self.scene, dt);
        let mut audit = audit::EnergyAudit::new(self.scene.sim.particles(), gravity);
        for (c, (x, v, _, _)) in self.continua.iter().zip(continua) {
            for (k, &i) in c.members.iter().enumerate() {
                audit.add(i, &x[k], &v[k]);
            }
        }
        if let (Some(b), Some((x, v))) = (&self.xpbd, xpbd) {
            for k in 0..x.len() {
                let i = b.members.as_ref().map_or(k, |m| m[k]);
                audit.add(i, &x[k], &v[k]);
            }
        }
        Ok(audit.check(dt, h, eps, driven)?)
    }

    /// The multipliers of the last good step into the scene's blocks, which the frames export:
    /// each continuum's XPBI constraints (λ) and each fluid's density constraints (the
    /// pressure), the fluid's rows laid out again by the CPU's own code on the current
    /// positions (the CPU exports them with the rows of the last substep's start).
    fn sync_multipliers(&mut self) -> Result<(), GpuError> {
        use xpbd_core::constraint::ConstraintSet;
        for c in &self.continua {
            let lambda = c.gpu.multipliers()?;
            self.scene.sim.block_mut(c.block).set_multipliers(&lambda)?;
        }
        let Some(h) = self.last_substep else {
            return Ok(());
        };
        let ctx = self.context().clone();
        let n = self.scene.sim.particles().len();
        for f in &self.fluids {
            let sub = SubstepContext {
                h,
                substep: 0,
                substeps: 1,
                time: self.scene.sim.time(),
                dedicated_pool: false,
            };
            self.scene.sim.begin_block_substep(f.block, &sub);
            let by_member = f.gpu.multipliers(&ctx)?;
            let mut member = vec![usize::MAX; n];
            for (k, &i) in f.gpu.members().iter().enumerate() {
                member[i] = k;
            }
            let Some(&handle) = self.scene.fluids.iter().find(|h| h.index() == f.block) else {
                continue;
            };
            let block = self.scene.sim.block_mut(handle);
            let lambda: Vec<f64> = (block.kind.row_particles().iter())
                .map(|&p| by_member.get(member[p as usize]).copied().unwrap_or(0.0))
                .collect();
            block.set_multipliers(&lambda)?;
        }
        Ok(())
    }

    /// Uploads the scene's (last good) state to every device set.
    fn upload_scene_state(&mut self) -> Result<(), GpuError> {
        let p = self.scene.sim.particles();
        for c in &mut self.continua {
            let kind = &self.scene.sim.block(c.block).kind;
            let (x, v) = pick_state(p, &c.members);
            c.gpu
                .upload_state(&x, &v, kind.deformation_gradients(), &host_states(kind))?;
        }
        if let Some(b) = &mut self.xpbd {
            match &b.members {
                None => b.gpu.upload_state(&p.x, &p.v)?,
                Some(m) => {
                    let (x, v) = pick_state(p, m);
                    b.gpu.upload_state(&x, &v)?;
                }
            }
        }
        Ok(())
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
        if self.step_name() != "xpbd" {
            self.sync_multipliers()?;
        }
        self.scene.frame += 1;
        Ok(())
    }

    /// Reads the XPBD bodies' state back into the scene when they run alone (anything else is
    /// read back every step); [`GpuWorld::advance_frame`] does this at the end of every frame.
    pub fn sync_from_device(&mut self) -> Result<(), GpuError> {
        if self.step_name() == "xpbd"
            && let Some(b) = &self.xpbd
        {
            let time = b.gpu.time();
            let x = b.gpu.positions()?;
            let v = b.gpu.velocities()?;
            let span = time - self.scene.sim.time();
            if span > 0.0
                && let Err(e) = self.audit_span(&x, &v, span)
            {
                self.restore_last_sync()?;
                return Err(e);
            }
            let members = self.xpbd.as_ref().and_then(|b| b.members.as_deref());
            write_members(self.scene.sim.particles_mut(), members, x, v);
            self.scene.sim.set_time(time)?;
            self.synced_poses = collider_poses(&mut self.scene);
        }
        Ok(())
    }

    /// The energy audit over a span of XPBD steps read back at once.
    fn audit_span(
        &mut self,
        x: &[Vector3<f64>],
        v: &[Vector3<f64>],
        span: f64,
    ) -> Result<(), GpuError> {
        let settings = self.scene.sim.settings();
        let (eps, gravity) = (settings.diagnostics.max_energy_gain, settings.gravity);
        let h = self.scene.scene.time.dt / settings.substeps as f64;
        let driven = audit::driven_speed(&mut self.scene, span);
        let mut audit = audit::EnergyAudit::new(self.scene.sim.particles(), gravity);
        let members = self.xpbd.as_ref().and_then(|b| b.members.as_deref());
        for k in 0..x.len() {
            audit.add(members.map_or(k, |m| m[k]), &x[k], &v[k]);
        }
        Ok(audit.check(span, h.min(span), eps, driven)?)
    }

    /// Puts the device back to the state the scene holds (XPBD bodies alone): particles, time
    /// and the kinematic colliders' poses of the last read-back.
    fn restore_last_sync(&mut self) -> Result<(), GpuError> {
        let time = self.scene.sim.time();
        if let Some(contacts) = self.scene.collider_contacts_mut() {
            for (k, pose) in self.synced_poses.iter().enumerate() {
                contacts.set_pose(ColliderId(k), *pose)?;
            }
            let all = kinematic_colliders(contacts)?;
            let acceleration = contacts.options().acceleration;
            if let Some(b) = &mut self.xpbd {
                b.gpu.set_colliders(&all, acceleration)?;
            }
        }
        if let Some(b) = &mut self.xpbd {
            b.gpu.set_time(time);
        }
        self.upload_scene_state()
    }
}

/// The poses of the scene's kinematic colliders.
fn collider_poses(scene: &mut BuiltScene) -> Vec<Pose<3>> {
    scene
        .collider_contacts_mut()
        .map_or_else(Vec::new, |c| c.colliders().iter().map(|c| c.pose).collect())
}

/// A particle set's read-back: positions and velocities.
type StateReadBack = (Vec<Vector3<f64>>, Vec<Vector3<f64>>);

/// A continuum's read-back: positions, velocities, deformation gradients, plastic states.
type ContinuumReadBack = (
    Vec<Vector3<f64>>,
    Vec<Vector3<f64>>,
    Vec<Matrix3<f64>>,
    Vec<[f64; 2]>,
);

/// Device positions and velocities of a particle set into the store (all particles when
/// `members` is `None`, else `members[k]` takes entry `k`).
fn write_members(
    p: &mut xpbd_core::Particles<3>,
    members: Option<&[usize]>,
    x: Vec<Vector3<f64>>,
    v: Vec<Vector3<f64>>,
) {
    match members {
        None => {
            p.x = x;
            p.v = v;
        }
        Some(m) => {
            for (k, &i) in m.iter().enumerate() {
                p.x[i] = x[k];
                p.v[i] = v[k];
            }
        }
    }
}

/// Positions and velocities of the particles `members`, in that order.
fn pick_state(
    p: &xpbd_core::Particles<3>,
    members: &[usize],
) -> (Vec<Vector3<f64>>, Vec<Vector3<f64>>) {
    (
        members.iter().map(|&i| p.x[i]).collect(),
        members.iter().map(|&i| p.v[i]).collect(),
    )
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
