//! The GPU world: a scene description ([`xpbd_scene::SceneDesc`]) stepped on the GPU.
//!
//! A [`GpuWorld`] is built from the scene's one build ([`xpbd_scene::BuiltScene`], the
//! assembler every backend shares: the same particles, constraint blocks, colliders and
//! settings, in the same order). It uploads that state, steps it on the device and keeps the
//! `BuiltScene` synchronised with the device, so that frames, the run manifest and
//! checkpoints are written by the CPU's own code ([`xpbd_scene::FrameStepper`]): a
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

use xpbd_core::constraint::SubstepContext;
use xpbd_core::contact::{ColliderContacts, ContactOptions, Pose};
use xpbd_core::simulation::{BlockHandle, StepAttempt, advance_adaptive, is_retryable};
use xpbd_core::{AdvanceReport, SolverKind, StepError};
use xpbd_scene::{Assembly, BlockKind, BuiltScene, FrameError, FrameStepper};
use xpbi_continuum::continuum::XpbiContinuum;

mod refusal;
mod sync;

pub use refusal::refusal;
use refusal::{unsupported, xpbd_bodies};
use sync::{advance_colliders, collider_poses, host_states, pick_state};

use crate::bodies::{GpuBodyContacts, PackedContacts, ParticleSlots};
use crate::fluid::{GpuFluid, ParticleBuffers};
use crate::{GpuContext, GpuError, GpuSimulation, GpuXpbi, XpbiGpuScene, kinematic_colliders};

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
            let correction = c.correction_radius;
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
            Some(xpbd_bodies(&ctx, &scene, &kinds, &xpbd_members)?)
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

    /// The world of an assembled scene ([`xpbd_scene::assemble`], or a description written in
    /// Rust with `SceneDesc::builder`), built on the device from the assembly's particles and
    /// block plans. Refuses by name what it does not model, as [`GpuWorld::new`].
    pub fn from_assembly(ctx: Arc<GpuContext>, assembly: Assembly) -> Result<Self, GpuError> {
        Self::new(ctx, assembly.into_scene()?)
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
        // The one adaptive loop of every backend (`advance_adaptive`), as on the CPU.
        let report = if adaptive {
            advance_adaptive(&mut DeviceAttempt(self), dt, &stepping)?
        } else {
            self.scene.sim.check_substep_bounds(dt / substeps)?;
            self.attempt(dt)?;
            let mut report = AdvanceReport::default();
            report.record(dt);
            report
        };
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
}

/// The world as one backend of the adaptive loop ([`advance_adaptive`]).
struct DeviceAttempt<'a>(&'a mut GpuWorld);

impl StepAttempt for DeviceAttempt<'_> {
    type Error = GpuError;

    fn next_step_size(&mut self, remaining: f64, cap: f64) -> Result<f64, StepError> {
        self.0.scene.sim.next_step_size(remaining, cap)
    }

    fn attempt(&mut self, dt: f64) -> Result<Option<f64>, GpuError> {
        self.0.attempt(dt).map(|()| None)
    }

    fn retryable(error: &GpuError) -> Option<&StepError> {
        match error {
            GpuError::Step(e) if is_retryable(e) => Some(e),
            _ => None,
        }
    }

    fn time(&self) -> f64 {
        self.0.scene.sim.time()
    }
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
