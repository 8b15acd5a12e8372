//! The description of an XPBI continuum for the GPU ([`crate::xpbi::GpuXpbi`]): particles,
//! material, XPBI settings, solver and colliders, in f64, taken from a CPU
//! `xpbi_continuum::scene::ContinuumScene<3>` by [`XpbiGpuScene::from_cpu`] so that both paths
//! start from the same state.

use nalgebra::{Matrix3, Vector3};
use xpbd_core::SolverKind;
use xpbi_continuum::continuum::{ConstraintForm, KernelFrame, XpbiSettings};
use xpbi_continuum::material::Material;
use xpbi_continuum::scene::ContinuumScene;

use crate::{GpuError, KinematicCollider};

/// Largest f32 as f64.
const F32_MAX: f64 = f32::MAX as f64;

/// Entries of a body's material table on the GPU (a uniform array of packed models).
pub const MAX_GPU_MATERIALS: usize = 8;

/// An XPBI continuum ready for upload (f64; converted to f32 by [`crate::xpbi::GpuXpbi::new`]).
#[derive(Debug, Clone)]
pub struct XpbiGpuScene {
    /// Positions (m).
    pub positions: Vec<Vector3<f64>>,
    /// Velocities (m/s).
    pub velocities: Vec<Vector3<f64>>,
    /// Inverse masses (0 = pinned).
    pub inv_mass: Vec<f64>,
    /// Rest volumes V⁰ (m³).
    pub rest_volume: Vec<f64>,
    /// Elastic deformation gradients Fⁿ.
    pub deformation_gradients: Vec<Matrix3<f64>>,
    /// Plastic states `[hardening, volume correction]`.
    pub plastic_states: Vec<[f64; 2]>,
    /// The body's material table (1 to [`MAX_GPU_MATERIALS`] entries; all five plasticity
    /// models are supported).
    pub materials: Vec<Material>,
    /// Per particle, its entry of `materials` (empty: every particle has entry 0).
    pub material_ids: Vec<u8>,
    /// Kernel support, pseudo-inverse threshold, XSPH, implicit/semi-implicit plasticity.
    pub settings: XpbiSettings,
    /// Solver iterations per step.
    pub iterations: usize,
    /// `Jacobi { ω, averaged }` or `Coloured` (3³ cell colours); sequential Gauss-Seidel is
    /// not ported.
    pub solver: SolverKind,
    /// Gravity (m/s²).
    pub gravity: Vector3<f64>,
    /// Velocity damping k (1/s): `v ← e^{−kΔt} v` for free particles.
    pub velocity_damping: f64,
    /// XPBI position correction (pairs kept ≥ 0.75 r apart, see `correction_radius`).
    pub spacing_constraints: bool,
    /// The position correction's r over Δx (`SceneOptions::correction_radius`): pairs within
    /// `max(1, r) Δx` are kept ≥ `0.75 r Δx` apart, as `SpacingConstraints::with_radius`.
    pub correction_radius: f64,
    /// Ground, walls and obstacles (at most [`crate::MAX_COLLIDERS`]), in the CPU's collider
    /// order.
    pub colliders: Vec<KinematicCollider>,
    /// Particle radius r of the contacts (m; `ContinuumScene` uses Δx/2).
    pub particle_radius: f64,
    /// Acceleration bound a of the contact candidate test (m/s², `ContactOptions::acceleration`).
    pub contact_acceleration: f64,
}

/// Refuses, by name, the XPBI settings whose model the GPU step does not have (orderings such
/// as the sweep or the row layout change the order of projections, not the model, and are not
/// refused).
fn modelled(s: &XpbiSettings) -> Result<(), GpuError> {
    if s.kernel_frame != KernelFrame::Current {
        return Err(GpuError::Unsupported {
            what: format!("kernel_frame = {:?}", s.kernel_frame),
            reason: "the GPU evaluates kernels, neighbours and L_p on xⁿ every step (XPBI)",
        });
    }
    if s.constraint_form != ConstraintForm::Single {
        return Err(GpuError::Unsupported {
            what: format!("constraint_form = {:?}", s.constraint_form),
            reason: "the GPU projects one constraint per particle, C = sqrt(2Ψ(F_E))",
        });
    }
    Ok(())
}

impl XpbiGpuScene {
    /// The state and model of a CPU scene: every particle must be a member of the XPBI block,
    /// with no kinematic target and no external force; Jacobi or coloured solver, one substep.
    /// The colliders of the scene's `ColliderContacts` block (ground, walls, obstacles) must be
    /// static planes, spheres, boxes, capsules or signed-distance grids without restitution,
    /// with one particle radius for all particles, contacts generated and projected in every
    /// substep and iteration, and no margin; the radius and the acceleration bound of the
    /// candidate test are read from the block.
    pub fn from_cpu(scene: &ContinuumScene<3>) -> Result<Self, GpuError> {
        let substeps = scene.sim.settings().substeps;
        if substeps != 1 {
            return Err(GpuError::Unsupported {
                what: format!("{substeps} substeps"),
                reason: "GpuXpbi::step is one XPBI substep (the GPU world steps Δt/S S times)",
            });
        }
        let expected = 2 + usize::from(scene.options.spacing_constraints);
        if scene.sim.blocks().len() != expected {
            return Err(GpuError::Unsupported {
                what: format!(
                    "{} constraint blocks (expected {expected}: colliders, position correction, XPBI)",
                    scene.sim.blocks().len(),
                ),
                reason: "other constraint kinds are not ported to the GPU XPBI path",
            });
        }
        let spacing = scene
            .options
            .spacing_constraints
            .then_some(scene.options.correction_radius);
        Self::from_blocks(
            &scene.sim,
            scene.continuum(),
            scene.collider_contacts(),
            spacing,
        )
    }

    /// The state and model of a simulation's XPBI block `c`, its colliders `contacts` and,
    /// when XPBI's position correction is on, its radius over Δx (`correction_radius`), with
    /// the conditions of [`XpbiGpuScene::from_cpu`] (the caller checks that the simulation has
    /// no other blocks), except the substep count: a caller with S substeps per step steps the
    /// GPU S times by Δt/S (an XPBI substep is a full XPBI step of its length). The GPU world
    /// builds the continuum of a scene description so.
    pub fn from_blocks(
        sim: &xpbd_core::Simulation<3>,
        c: &xpbi_continuum::continuum::XpbiContinuum<3>,
        contacts: &xpbd_core::contact::ColliderContacts<3>,
        correction_radius: Option<f64>,
    ) -> Result<Self, GpuError> {
        let p = sim.particles();
        let n = p.len();
        let unsupported =
            |what: String, reason: &'static str| GpuError::Unsupported { what, reason };
        if c.materials().len() > MAX_GPU_MATERIALS {
            return Err(GpuError::SeveralMaterials {
                materials: c.materials().len(),
            });
        }
        for m in c.materials() {
            if let xpbi_continuum::plasticity::PlasticModel::DruckerPrager(dp) = &m.plasticity
                && dp.inertial.is_some()
            {
                return Err(unsupported(
                    "drucker_prager.mu_i (the μ(I) rheology)".into(),
                    "the GPU's Drucker–Prager return map has a rate-independent friction angle",
                ));
            }
        }
        // The device holds the members, in member order (a GPU world keeps the other bodies'
        // particles in the XPBD step's buffers).
        let members: Vec<usize> = c.members().iter().map(|&m| m as usize).collect();
        if let Some(&i) = members.iter().find(|&&i| i >= n) {
            return Err(unsupported(
                format!("XPBI member {i} of {n} particles"),
                "a member must be a particle of the simulation",
            ));
        }
        if let Some(&i) = members.iter().find(|&&i| p.kinematic_target[i].is_some()) {
            return Err(unsupported(
                format!("kinematic target of particle {i}"),
                "pin the particle (inverse mass 0) instead",
            ));
        }
        if let Some(&i) = members.iter().find(|&&i| p.force[i].norm() != 0.0) {
            return Err(unsupported(
                format!("external force on particle {i}"),
                "only gravity is applied on the GPU",
            ));
        }
        let settings = sim.settings();
        if let Some(d) = settings.multiplier_warm_start {
            return Err(unsupported(
                format!("multiplier_warm_start = {d}"),
                "the GPU XPBI step resets the multipliers every step (XPBD)",
            ));
        }
        if settings.diagnostics.residuals || settings.diagnostics.energies {
            return Err(unsupported(
                "diagnostics.residuals / diagnostics.energies".into(),
                "diagnostics are not computed on the GPU",
            ));
        }
        modelled(c.settings())?;
        let options = contacts.options();
        let radius = members
            .first()
            .map_or(contacts.radius(), |&i| contacts.radius_of_particle(i));
        let uniform_radius = members
            .iter()
            .all(|&i| contacts.radius_of_particle(i) == radius);
        let all_members = contacts.members().is_none_or(|m| {
            let mut collides = vec![false; n];
            for &i in m {
                if let Some(c) = collides.get_mut(i as usize) {
                    *c = true;
                }
            }
            members.iter().all(|&i| collides[i])
        });
        if !uniform_radius
            || !all_members
            || options.margin != 0.0
            || options.generation != xpbd_core::contact::ContactGeneration::PerSubstep
            || options.projection != xpbd_core::contact::ContactProjection::EveryIteration
        {
            return Err(unsupported(
                format!(
                    "contact options {options:?} (uniform radius: {uniform_radius}, all particles \
                     collide: {all_members})"
                ),
                "the GPU path has one radius for all particles, no margin, contacts every \
                 substep and iteration",
            ));
        }
        let colliders = crate::kinematic_colliders(contacts)?;
        let pick = |v: &[Vector3<f64>]| members.iter().map(|&i| v[i]).collect::<Vec<_>>();
        Ok(Self {
            positions: pick(&p.x),
            velocities: pick(&p.v),
            inv_mass: members.iter().map(|&i| p.inv_mass[i]).collect(),
            rest_volume: c.rest_volumes().to_vec(),
            deformation_gradients: c.deformation_gradients().to_vec(),
            plastic_states: c
                .plastic_states()
                .iter()
                .map(|s| [s.hardening, s.volume_correction])
                .collect(),
            materials: c.materials().to_vec(),
            material_ids: if c.materials().len() > 1 {
                (0..members.len()).map(|i| c.material_id(i) as u8).collect()
            } else {
                Vec::new()
            },
            settings: *c.settings(),
            iterations: settings.iterations,
            solver: settings.solver,
            gravity: settings.gravity,
            velocity_damping: settings.velocity_damping,
            spacing_constraints: correction_radius.is_some(),
            correction_radius: correction_radius
                .unwrap_or(xpbi_continuum::contact::DEFAULT_CORRECTION_RADIUS),
            colliders,
            particle_radius: radius,
            contact_acceleration: options.acceleration,
        })
    }

    /// Checks sizes, finiteness and ranges (the material and settings were checked by the CPU
    /// constructor; they are checked again here for hand-built descriptions).
    pub fn validate(&self) -> Result<(), GpuError> {
        modelled(&self.settings)?;
        let n = self.positions.len();
        let invalid = |field: &'static str, value: f64, reason: &'static str| {
            GpuError::Build(xpbd_core::BuildError::InvalidSetting {
                field,
                value,
                reason,
            })
        };
        for (field, len) in [
            ("velocities length", self.velocities.len()),
            ("inv_mass length", self.inv_mass.len()),
            ("rest_volume length", self.rest_volume.len()),
            (
                "deformation_gradients length",
                self.deformation_gradients.len(),
            ),
            ("plastic_states length", self.plastic_states.len()),
        ] {
            if len != n {
                return Err(invalid(
                    field,
                    len as f64,
                    "must equal the number of positions",
                ));
            }
        }
        if self.materials.is_empty() || self.materials.len() > MAX_GPU_MATERIALS {
            return Err(GpuError::SeveralMaterials {
                materials: self.materials.len(),
            });
        }
        for m in &self.materials {
            m.validate()?;
        }
        if !self.material_ids.is_empty() {
            if self.material_ids.len() != n {
                return Err(invalid(
                    "material_ids length",
                    self.material_ids.len() as f64,
                    "must be 0 or the number of positions",
                ));
            }
            if let Some(&id) = self
                .material_ids
                .iter()
                .find(|&&id| id as usize >= self.materials.len())
            {
                return Err(invalid(
                    "material id",
                    id as f64,
                    "must index the material table",
                ));
            }
        }
        for i in 0..n {
            let finite = self.positions[i].iter().all(|c| c.is_finite())
                && self.velocities[i].iter().all(|c| c.is_finite())
                && self.deformation_gradients[i].iter().all(|c| c.is_finite())
                && self.plastic_states[i].iter().all(|c| c.is_finite());
            if !finite {
                return Err(xpbd_core::BuildError::NonFiniteState {
                    particle: i,
                    field: "position, velocity, F or plastic state",
                }
                .into());
            }
            // Everything is uploaded as f32: finite f64 values beyond f32's range would become ±∞.
            let f32_range = self.positions[i].iter().all(|c| c.abs() <= F32_MAX)
                && self.velocities[i].iter().all(|c| c.abs() <= F32_MAX)
                && self.deformation_gradients[i]
                    .iter()
                    .all(|c| c.abs() <= F32_MAX)
                && self.plastic_states[i].iter().all(|c| c.abs() <= F32_MAX)
                && self.inv_mass[i] <= F32_MAX;
            if !f32_range {
                return Err(invalid(
                    "particle state",
                    i as f64,
                    "a position, velocity, F, plastic state or inverse mass of this particle exceeds the f32 range",
                ));
            }
            if !(self.inv_mass[i].is_finite() && self.inv_mass[i] >= 0.0) {
                return Err(invalid(
                    "inv_mass",
                    self.inv_mass[i],
                    "must be finite and >= 0",
                ));
            }
            // 1/(V⁰Δt²) is formed in f32: V⁰ must be a normal f32 (≥ 1.2e-38 m³).
            if !(self.rest_volume[i].is_finite()
                && self.rest_volume[i] >= f32::MIN_POSITIVE as f64
                && self.rest_volume[i] <= F32_MAX)
            {
                return Err(invalid(
                    "rest_volume",
                    self.rest_volume[i],
                    "must be finite and > 0",
                ));
            }
        }
        if self.iterations == 0 {
            return Err(invalid("iterations", 0.0, "must be >= 1"));
        }
        match self.solver {
            SolverKind::Jacobi { omega, .. } => {
                if !(omega.is_finite() && omega > 0.0 && omega <= 2.0) {
                    return Err(invalid(
                        "omega",
                        omega,
                        "Jacobi relaxation must lie in (0, 2]",
                    ));
                }
            }
            SolverKind::Coloured => {}
            SolverKind::GaussSeidel => {
                return Err(GpuError::Unsupported {
                    what: "sequential Gauss-Seidel".into(),
                    reason: "use SolverKind::Coloured (parallel coloured Gauss-Seidel) or Jacobi",
                });
            }
        }
        if !(self.velocity_damping.is_finite() && self.velocity_damping >= 0.0) {
            return Err(invalid(
                "velocity_damping",
                self.velocity_damping,
                "must be finite and >= 0",
            ));
        }
        if !self.gravity.iter().all(|c| c.is_finite()) {
            return Err(invalid("gravity", f64::NAN, "must be finite"));
        }
        let s = &self.settings;
        for (field, value) in [
            ("spacing", s.spacing),
            ("support_over_spacing", s.support_over_spacing),
            ("pinv_threshold", s.pinv_threshold),
            ("cfl", s.cfl),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return Err(invalid(field, value, "must be finite and > 0"));
            }
        }
        if s.xsph.validate().is_err() {
            let v = match s.xsph {
                xpbi_continuum::xsph::Xsph::Rate(k) | xpbi_continuum::xsph::Xsph::PerStep(k) => k,
            };
            return Err(invalid(
                "xsph",
                v,
                "a rate must be finite and >= 0, a per-step coefficient in [0, 1]",
            ));
        }
        crate::kinematic::validate_colliders(
            &self.colliders,
            crate::MAX_COLLIDERS,
            "the GPU XPBI step has at most 8 colliders",
        )?;
        for (field, value) in [
            ("particle_radius", self.particle_radius),
            ("contact_acceleration", self.contact_acceleration),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(invalid(field, value, "must be finite and >= 0"));
            }
        }
        Ok(())
    }
}

/// The CPU XPBI path behind the common interface (f64, `xpbi_continuum`).
impl crate::StepBackend for ContinuumScene<3> {
    fn backend_name(&self) -> String {
        "cpu f64 (xpbi-continuum)".into()
    }
    /// One step of `dt` (stored in `options.dt`) after the CFL check; rolled back on error.
    fn step(&mut self, dt: f64) -> Result<(), GpuError> {
        self.options.dt = dt;
        ContinuumScene::step(self)?;
        Ok(())
    }
    fn positions(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        Ok(ContinuumScene::positions(self).to_vec())
    }
    fn velocities(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        Ok(self.sim.particles().v.clone())
    }
    fn time(&self) -> f64 {
        self.sim.time()
    }
}

/// The GPU XPBI path behind the common interface. A step that fails its pre-step checks (CFL,
/// non-finite state) changes nothing.
impl crate::StepBackend for crate::GpuXpbi {
    fn backend_name(&self) -> String {
        format!("gpu f32 xpbi ({})", self.context().describe())
    }
    fn step(&mut self, dt: f64) -> Result<(), GpuError> {
        crate::GpuXpbi::step(self, dt)
    }
    fn positions(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        crate::GpuXpbi::positions(self)
    }
    fn velocities(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        crate::GpuXpbi::velocities(self)
    }
    fn time(&self) -> f64 {
        crate::GpuXpbi::time(self)
    }
}
