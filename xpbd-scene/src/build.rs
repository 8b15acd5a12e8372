//! A built scene: the CPU [`Simulation`] of an [`crate::assembly::Assembly`], the
//! [`Topology`] written with every frame, and its stepping (fixed or adaptive steps, grips and
//! nozzles driven before each).

use std::path::Path;

#[cfg(feature = "files")]
use xpbd_core::constraint::ConstraintSet;
use xpbd_core::constraint::{
    DihedralBendingConstraints, DistanceConstraints, IsometricBendingConstraints,
    NeoHookeanTetConstraints,
};
use xpbd_core::contact::{
    BodyContacts, ColliderContacts, ColliderTriangleContacts, PointTriangleContacts,
};
use xpbd_core::simulation::BlockHandle;
use xpbd_core::{AdvanceReport, Simulation, Vector};
use xpbi_continuum::contact::SpacingConstraints;
use xpbi_continuum::continuum::XpbiContinuum;

use crate::error::SceneError;
use crate::export::Topology;
use crate::interaction::Body;
use crate::scene::SceneDesc;

/// A built scene: the simulation, what its particles form, and the time stepping.
#[derive(Debug)]
pub struct BuiltScene {
    /// The simulation (3D).
    pub sim: Simulation<3>,
    /// Cells and materials for export.
    pub topology: Topology,
    /// The parsed scene.
    pub scene: SceneDesc,
    /// Frames completed so far.
    pub frame: usize,
    /// The XPBI blocks, one per `[[continuum]]` in file order.
    pub continua: Vec<ContinuumBlock>,
    /// The fluid blocks, one per `[[fluid]]` in file order.
    pub fluids: Vec<BlockHandle<xpbi_continuum::fluid::PbfFluid<3>>>,
    /// Gripped (kinematic) particles and their velocities (m/s), moved by [`BuiltScene::step`].
    pub grips: Vec<(usize, Vector<3>)>,
    /// Extrusion nozzles (`region = { nozzle = .. }`), driven by [`BuiltScene::step`].
    pub emitters: Vec<crate::emitter::Emitter>,
    /// A typed handle for every block, in `sim.blocks()` order (checkpoint restore).
    pub(crate) handles: Vec<AnyBlock>,
    /// The steps taken so far (sizes, halvings) by [`BuiltScene::step`].
    pub steps: AdvanceReport,
    /// Every body (name, kind, particles) in build order; see [`crate::interaction`].
    pub bodies: Vec<Body>,
}

/// A `[[continuum]]`'s XPBI block.
#[derive(Debug, Clone, Copy)]
pub struct ContinuumBlock {
    /// The block (`sim.block(handle).kind` is the [`XpbiContinuum`]).
    pub handle: BlockHandle<XpbiContinuum<3>>,
    /// Material id (index into `topology.material_names`); for a body of layers, the first
    /// layer's (each particle's own is `topology.particle_material`).
    pub material: u32,
    /// Its position correction's radius in spacings (the block right before it; `None`:
    /// none).
    pub correction_radius: Option<f64>,
}

/// A typed handle to any block a scene builds, for mutable access through [`ConstraintSet`]
/// (the simulation hands out mutable blocks by typed handle only).
#[derive(Debug, Clone, Copy)]
pub(crate) enum AnyBlock {
    Distance(BlockHandle<DistanceConstraints>),
    Dihedral(BlockHandle<DihedralBendingConstraints>),
    Isometric(BlockHandle<IsometricBendingConstraints>),
    Tets(BlockHandle<NeoHookeanTetConstraints<3>>),
    Contacts(BlockHandle<ColliderContacts<3>>),
    ColliderTriangles(BlockHandle<ColliderTriangleContacts>),
    Spacing(BlockHandle<SpacingConstraints<3>>),
    Xpbi(BlockHandle<XpbiContinuum<3>>),
    Bodies(BlockHandle<BodyContacts<3>>),
    Triangles(BlockHandle<PointTriangleContacts>),
    Fluid(BlockHandle<xpbi_continuum::fluid::PbfFluid<3>>),
    /// The rigid bodies: their index among the simulation's blocks.
    Rigid(usize),
}

impl AnyBlock {
    /// The block, mutably.
    #[cfg(feature = "files")]
    pub(crate) fn get_mut<'a>(&self, sim: &'a mut Simulation<3>) -> &'a mut dyn ConstraintSet<3> {
        match *self {
            Self::Distance(h) => sim.block_mut(h),
            Self::Dihedral(h) => sim.block_mut(h),
            Self::Isometric(h) => sim.block_mut(h),
            Self::Tets(h) => sim.block_mut(h),
            Self::Contacts(h) => sim.block_mut(h),
            Self::ColliderTriangles(h) => sim.block_mut(h),
            Self::Spacing(h) => sim.block_mut(h),
            Self::Xpbi(h) => sim.block_mut(h),
            Self::Bodies(h) => sim.block_mut(h),
            Self::Triangles(h) => sim.block_mut(h),
            Self::Fluid(h) => sim.block_mut(h),
            Self::Rigid(i) => sim
                .set_mut::<xpbd_core::rigid::RigidBodies>(i)
                .expect("the handle names the rigid bodies' block"),
        }
    }
}

/// A scene's constraint block, borrowed with its kind: what another backend reads to build its
/// own step from the one description (`BuiltScene::block_kinds`, in `sim.blocks()` order).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum BlockKind<'a> {
    /// Stretch and shear springs of a cloth, links of a rope, edges of a mesh.
    Distance(&'a DistanceConstraints),
    /// Dihedral-angle bending of a cloth.
    Dihedral(&'a DihedralBendingConstraints),
    /// Isometric (quadratic) bending of a cloth.
    Isometric(&'a IsometricBendingConstraints),
    /// Stable neo-Hookean tetrahedra of a soft body.
    Tets(&'a NeoHookeanTetConstraints<3>),
    /// Particles against the colliders.
    Contacts(&'a ColliderContacts<3>),
    /// Cloth triangles against the convex colliders of the [`BlockKind::Contacts`] block
    /// before it (a collider smaller than the cloth's edges would slip between the vertices).
    ColliderTriangles(&'a ColliderTriangleContacts),
    /// XPBI's position correction of a continuum.
    Spacing(&'a SpacingConstraints<3>),
    /// An XPBI continuum.
    Xpbi(&'a XpbiContinuum<3>),
    /// Contacts between the particles of different bodies.
    Bodies(&'a BodyContacts<3>),
    /// Particles of one body against the triangles of another (a cloth, a soft body's faces).
    Triangles(&'a PointTriangleContacts),
    /// Position-based fluid.
    Fluid(&'a xpbi_continuum::fluid::PbfFluid<3>),
    /// Dynamic rigid bodies with their contacts and joints.
    Rigid(&'a xpbd_core::rigid::RigidBodies),
}

impl BlockKind<'_> {
    /// What the block is, in words (for a backend that refuses it by name).
    pub fn describe(&self) -> &'static str {
        match self {
            Self::Distance(_) => "distance constraints",
            Self::Dihedral(_) => "dihedral bending",
            Self::Isometric(_) => "isometric bending",
            Self::Tets(_) => "neo-Hookean tetrahedra",
            Self::Contacts(_) => "collider contacts",
            Self::ColliderTriangles(_) => "collider contacts against cloth triangles",
            Self::Spacing(_) => "XPBI position correction",
            Self::Xpbi(_) => "XPBI continuum",
            Self::Bodies(_) => "contacts between bodies",
            Self::Triangles(_) => "point-triangle contacts between bodies",
            Self::Fluid(_) => "position-based fluid",
            Self::Rigid(_) => "rigid bodies",
        }
    }
}

/// Builds the scene a description loaded from `file` gives (mesh paths are relative to its
/// folder), after validating it ([`SceneDesc::validate`]). An error that names a field also
/// names its line when `file` can be read. A description written in Rust is built with
/// [`BuiltScene::from_desc`].
pub fn build_scene(scene: SceneDesc, file: &Path) -> Result<BuiltScene, SceneError> {
    build(scene, file).map_err(|e| match std::fs::read_to_string(file) {
        Ok(text) => e.locate(&text),
        Err(_) => e,
    })
}

/// Validates `scene` and builds it; `file` names it in errors and holds its meshes.
pub(crate) fn build(scene: SceneDesc, file: &Path) -> Result<BuiltScene, SceneError> {
    crate::assembly::assemble(scene, file)?.into_scene()
}

impl BuiltScene {
    /// Loads, validates and builds a scene file.
    ///
    /// ```
    /// let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes/hanging_chain.toml");
    /// let mut s = xpbd_scene::BuiltScene::load(&path).unwrap();
    /// s.advance_frame().unwrap();
    /// assert_eq!(s.frame, 1);
    /// ```
    #[cfg(feature = "files")]
    pub fn load(path: &Path) -> Result<Self, SceneError> {
        build_scene(SceneDesc::load(path)?, path)
    }

    /// Runs one frame (`steps_per_frame` calls of [`BuiltScene::step`]).
    pub fn advance_frame(&mut self) -> Result<(), crate::error::FrameError> {
        for _ in 0..self.scene.time.steps_per_frame {
            self.step()?;
        }
        self.frame += 1;
        Ok(())
    }

    /// One step of Δt. Adaptive ([`crate::scene::TimeSection::is_adaptive`]): Δt is advanced
    /// in steps of at most `dt_max` below every block's substep bound (XPBI's CFL bound), a
    /// failing step retried at half its size ([`Simulation::advance`]); fixed: one step of Δt,
    /// after the step's own check of every block's bound for the substep Δt/substeps
    /// ([`Simulation::check_substep_bounds`]; nothing changes on failure). Before every step of δt, every gripped particle gets the kinematic target
    /// `x + δt v_grip` and the nozzles release and drive their particles
    /// ([`crate::emitter::Emitter::before_step`]). A failed step is rolled back.
    pub fn step(&mut self) -> Result<(), crate::error::FrameError> {
        let dt = self.scene.time.dt;
        let adaptive = self.is_adaptive();
        let (grips, emitters) = (&self.grips, &mut self.emitters);
        let before = |p: &mut xpbd_core::Particles<3>, dt: f64| drive(grips, emitters, p, dt);
        if adaptive {
            let report = self.sim.advance(dt, &self.scene.time.stepping(), before)?;
            self.steps.merge(&report);
            return Ok(());
        }
        // The step's own bound check (every block's `max_substep`, XPBI's CFL bound among
        // them), made before the grips and nozzles move anything.
        self.sim
            .check_substep_bounds(dt / self.sim.settings().substeps as f64)?;
        let mut before = before;
        before(self.sim.particles_mut(), dt);
        let gain = self.sim.step(dt)?.energy_gain;
        self.steps.merge(&AdvanceReport {
            steps: 1,
            dt_min: dt,
            dt_max: dt,
            halvings: 0,
            max_energy_gain: gain,
        });
        Ok(())
    }

    /// What happens before every step of `dt` ([`BuiltScene::step`] does it, and a backend
    /// that steps the scene itself calls it): each gripped particle gets the kinematic target
    /// `x + dt v_grip`, and the nozzles release the particles that crossed their exit plane and
    /// move the others' targets down by `v dt` ([`crate::emitter::Emitter::before_step`]).
    /// The particles with a kinematic target afterwards are the ones the step moves
    /// kinematically, each linearly to its target over the step.
    pub fn prepare_step(&mut self, dt: f64) {
        drive(
            &self.grips,
            &mut self.emitters,
            self.sim.particles_mut(),
            dt,
        );
    }

    /// The continuum and fluid fields of every particle for export (det F, hardening, volume
    /// correction, λ of the XPBI constraint; a fluid's density and pressure; see
    /// [`crate::export::ParticleFields`]); empty without continua and fluids.
    pub fn particle_fields(&self) -> crate::export::ParticleFields {
        let n = self.sim.particles().len();
        let mut f = crate::export::ParticleFields::default();
        if !self.fluids.is_empty() {
            f.density = vec![0.0; n];
            f.pressure = vec![0.0; n];
            for &handle in &self.fluids {
                let block = self.sim.block(handle);
                let kind = &block.kind;
                let lambda = xpbd_core::constraint::ConstraintSet::multipliers(block);
                let ratios = kind.density_ratios(&self.sim.particles().x);
                let rho0 = kind.settings().rest_density;
                // The multipliers are those of the substep that last began.
                let p = match kind.last_substep() {
                    Some(h) if h > 0.0 => kind.pressures(lambda, h),
                    _ => vec![0.0; ratios.len()],
                };
                for (k, &m) in kind.row_particles().iter().enumerate() {
                    f.density[m as usize] = rho0 * ratios[k];
                    f.pressure[m as usize] = p.get(k).copied().unwrap_or(0.0);
                }
            }
        }
        if self.continua.is_empty() {
            return f;
        }
        f.det_f = vec![1.0; n];
        f.hardening = vec![0.0; n];
        f.volume_correction = vec![0.0; n];
        f.lambda = vec![0.0; n];
        for c in &self.continua {
            let block = self.sim.block(c.handle);
            let kind = &block.kind;
            let lambda = xpbd_core::constraint::ConstraintSet::multipliers(block);
            for (k, &p) in kind.members().iter().enumerate() {
                let p = p as usize;
                f.det_f[p] = kind.deformation_gradients()[k].determinant();
                f.hardening[p] = kind.plastic_states()[k].hardening;
                f.volume_correction[p] = kind.plastic_states()[k].volume_correction;
                f.lambda[p] = lambda.get(k).copied().unwrap_or(0.0);
            }
        }
        f
    }

    /// The scene's collider contacts (ground, walls, obstacles), mutably: for a backend that
    /// steps them itself and hands the colliders' poses back (`ColliderContacts::set_pose`).
    pub fn collider_contacts_mut(&mut self) -> Option<&mut ColliderContacts<3>> {
        let h = self.handles.iter().find_map(|h| match *h {
            AnyBlock::Contacts(h) => Some(h),
            _ => None,
        })?;
        Some(&mut self.sim.block_mut(h).kind)
    }

    /// Every constraint block with its kind, in `sim.blocks()` order.
    pub fn block_kinds(&self) -> Vec<BlockKind<'_>> {
        let sim = &self.sim;
        self.handles
            .iter()
            .map(|h| match *h {
                AnyBlock::Distance(h) => BlockKind::Distance(&sim.block(h).kind),
                AnyBlock::Dihedral(h) => BlockKind::Dihedral(&sim.block(h).kind),
                AnyBlock::Isometric(h) => BlockKind::Isometric(&sim.block(h).kind),
                AnyBlock::Tets(h) => BlockKind::Tets(&sim.block(h).kind),
                AnyBlock::Contacts(h) => BlockKind::Contacts(&sim.block(h).kind),
                AnyBlock::ColliderTriangles(h) => BlockKind::ColliderTriangles(&sim.block(h).kind),
                AnyBlock::Spacing(h) => BlockKind::Spacing(&sim.block(h).kind),
                AnyBlock::Xpbi(h) => BlockKind::Xpbi(&sim.block(h).kind),
                AnyBlock::Bodies(h) => BlockKind::Bodies(&sim.block(h).kind),
                AnyBlock::Triangles(h) => BlockKind::Triangles(&sim.block(h).kind),
                AnyBlock::Fluid(h) => BlockKind::Fluid(&sim.block(h).kind),
                AnyBlock::Rigid(i) => BlockKind::Rigid(
                    sim.set::<xpbd_core::rigid::RigidBodies>(i)
                        .expect("the handle names the rigid bodies' block"),
                ),
            })
            .collect()
    }

    /// The rigid bodies (`None` without `[[rigid]]`).
    pub fn rigid(&self) -> Option<&xpbd_core::rigid::RigidBodies> {
        self.handles.iter().find_map(|h| match *h {
            AnyBlock::Rigid(i) => self.sim.set(i),
            _ => None,
        })
    }

    /// The rigid bodies, mutably (to set a body's state between steps).
    pub fn rigid_mut(&mut self) -> Option<&mut xpbd_core::rigid::RigidBodies> {
        let i = self.handles.iter().find_map(|h| match *h {
            AnyBlock::Rigid(i) => Some(i),
            _ => None,
        })?;
        self.sim.set_mut(i)
    }

    /// Whether [`BuiltScene::step`] is adaptive: `[time] adaptive`, or by default whether the
    /// scene has a continuum or a fluid (whose blocks declare CFL bounds).
    pub fn is_adaptive(&self) -> bool {
        self.scene.is_adaptive()
    }

    /// Simulated time at the current frame (s), `frame · steps_per_frame · Δt`.
    pub fn time(&self) -> f64 {
        self.frame as f64 * self.scene.time.steps_per_frame as f64 * self.scene.time.dt
    }
}

/// [`BuiltScene::prepare_step`] on borrowed parts (the adaptive step calls it per attempt).
fn drive(
    grips: &[(usize, Vector<3>)],
    emitters: &mut [crate::emitter::Emitter],
    p: &mut xpbd_core::Particles<3>,
    dt: f64,
) {
    for &(i, v) in grips {
        p.kinematic_target[i] = Some(p.x[i] + v * dt);
    }
    for e in emitters {
        e.before_step(p, dt);
    }
}

/// What a run steps and writes: a [`BuiltScene`] itself, or another backend (a GPU world)
/// that keeps a `BuiltScene` synchronised with its state after every frame, so that frames,
/// the manifest and checkpoints are written by the same code whatever ran the steps.
pub trait FrameStepper {
    /// The scene whose state is written, as of the last completed frame.
    fn built(&self) -> &BuiltScene;
    /// Advances one frame; on an error the state of the last good step is kept.
    fn advance_frame(&mut self) -> Result<(), crate::error::FrameError>;
}

impl FrameStepper for BuiltScene {
    fn built(&self) -> &BuiltScene {
        self
    }

    fn advance_frame(&mut self) -> Result<(), crate::error::FrameError> {
        BuiltScene::advance_frame(self)
    }
}
