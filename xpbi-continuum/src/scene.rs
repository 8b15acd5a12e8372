//! Scene assembly: XPBI particles in an `xpbd_core::Simulation` on a rough ground, with the
//! position-correction constraints.
//!
//! The ground and any walls or obstacles are colliders of the XPBD core
//! (`xpbd_core::contact::ColliderContacts`, one block shared by all of them): the same contact
//! machinery, Coulomb friction (static = kinetic = `ground_friction`) and restitution (0) as for
//! cloth and rope particles. Particle centres keep `r = ½Δx` from every collider surface.

use nalgebra::SVector;
use xpbd_core::contact::{Collider, ColliderContacts, ColliderId, ContactOptions, Friction, Shape};
use xpbd_core::simulation::BlockHandle;
use xpbd_core::{BuildError, Particles, Simulation, SolverKind, SolverSettings};

use crate::contact::SpacingConstraints;
use crate::continuum::{SweepOrder, XpbiContinuum, XpbiSettings};
use crate::error::XpbiError;
use crate::material::Material;

pub use crate::contact::DEFAULT_CORRECTION_RADIUS;

/// How to assemble and step a scene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SceneOptions {
    /// Particle spacing Δx (m).
    pub spacing: f64,
    /// Time step Δt (s), one substep.
    pub dt: f64,
    /// Solver iterations per step.
    pub iterations: usize,
    /// Solver sweep.
    pub solver: SolverKind,
    /// Ground Coulomb coefficient (static = kinetic) of the ground half-space at height 0
    /// (normal along the last axis).
    pub ground_friction: f64,
    /// Whether the ground collider at height 0 exists.
    pub ground: bool,
    /// XSPH velocity smoothing (a rate in 1/s by default, see [`crate::xsph`]).
    pub xsph: crate::xsph::Xsph,
    /// XPBI position correction (pairs ≥ 0.75 r).
    pub spacing_constraints: bool,
    /// The position correction's `r` over Δx: pairs are kept ≥ 0.75 r apart.
    ///
    /// Default [`DEFAULT_CORRECTION_RADIUS`] = 1.1 (pairs ≥ 0.825Δx). The paper's `r` could not
    /// be read (reference notes §1.9). The position correction is the only thing that stops a
    /// granular packing from compacting by rearrangement, which F (hence `V = V⁰ det F`) does
    /// not see: with `r = Δx` the 2D column collapse (Δx = 5 mm) compacts until pairs sit on
    /// the 0.75Δx bound and the mean nearest-neighbour distance falls to 0.827Δx, a local
    /// density 1.46 × ρ₀ — far beyond what dry sand can compact (random loose to dense
    /// packing: ≈ 10–20 %). `r = 1.1Δx` lowers the pairwise cap from (1/0.75)² = 1.78 to
    /// (1/0.825)² = 1.47 and keeps the mean at
    /// ≥ 0.868Δx (Δx = 5 mm) / 0.873Δx (2.5 mm), std ≤ 0.121Δx / 0.100Δx: XPBI's uniformity claim
    /// (min ≥ 0.75, mean within 15 %, std < 0.15). Swept (Δx = 5 mm, mean low / std max / runout
    /// m): r = 1.0: 0.827 / 0.140 / 0.275; 1.05: 0.846 / 0.132 / 0.280; 1.1: 0.868 / 0.121 /
    /// 0.283; 1.15: 0.894 / 0.134 / 0.288; 1.2: 0.920 / 0.155 / 0.293 (larger r pushes surface
    /// particles apart: the std rises again). Runout +3 %, height +5 % against r = Δx.
    pub correction_radius: f64,
    /// Implicit plasticity (in the loop) or semi-implicit.
    pub plasticity_in_loop: bool,
    /// Global velocity damping (1/s), for quasi-static scenes only.
    pub velocity_damping: f64,
    /// Worker threads (0 = rayon's global pool).
    pub threads: usize,
    /// Grouping of the continuum's coloured sweep (see [`SweepOrder`]).
    pub sweep: SweepOrder,
    /// Per-step data in sweep order (see `XpbiSettings::reorder_by_cell`; same results).
    pub reorder_by_cell: bool,
}

impl SceneOptions {
    /// Defaults: Δt = 1e-4 s, 10 coloured Gauss–Seidel iterations, ground friction 0.5, position
    /// correction on with r = 1.1Δx, implicit plasticity, no damping.
    pub fn new(spacing: f64) -> Self {
        Self {
            spacing,
            dt: 1e-4,
            iterations: 10,
            solver: SolverKind::Coloured,
            ground_friction: 0.5,
            ground: true,
            xsph: crate::xsph::Xsph::default(),
            spacing_constraints: true,
            correction_radius: DEFAULT_CORRECTION_RADIUS,
            plasticity_in_loop: true,
            velocity_damping: 0.0,
            threads: 0,
            sweep: SweepOrder::Slabs,
            reorder_by_cell: true,
        }
    }
}

/// A simulation holding one XPBI continuum on a ground plane.
#[derive(Debug)]
pub struct ContinuumScene<const D: usize> {
    /// The XPBD simulation (particles + constraint blocks).
    pub sim: Simulation<D>,
    /// Handle of the XPBI block.
    pub xpbi: BlockHandle<XpbiContinuum<D>>,
    /// Handle of the collider block (ground, walls, obstacles).
    pub colliders: BlockHandle<ColliderContacts<D>>,
    /// Options used.
    pub options: SceneOptions,
}

/// Particle centres `min + (i + ½)Δx` filling the box `[min, max]`, ordered axis 0 fastest.
///
/// ```
/// use nalgebra::Vector2;
/// let x = xpbi_continuum::scene::lattice_box(Vector2::new(0.0, 0.0), Vector2::new(0.2, 0.1), 0.05);
/// assert_eq!(x.len(), 8);
/// assert_eq!(x[0], Vector2::new(0.025, 0.025));
/// ```
pub fn lattice_box<const D: usize>(
    min: SVector<f64, D>,
    max: SVector<f64, D>,
    spacing: f64,
) -> Vec<SVector<f64, D>> {
    let counts: [usize; D] =
        core::array::from_fn(|a| (((max[a] - min[a]) / spacing) + 1e-9).floor().max(0.0) as usize);
    let total: usize = counts.iter().product();
    (0..total)
        .map(|mut k| {
            SVector::from_fn(|a, _| {
                let i = k % counts[a];
                if a < D {
                    k /= counts[a];
                }
                min[a] + (i as f64 + 0.5) * spacing
            })
        })
        .collect()
}

impl<const D: usize> ContinuumScene<D> {
    /// Builds the scene: one particle per position (mass ρΔx^d, rest volume Δx^d), the XPBI
    /// block, the core's collider block with the ground half-space (centres kept ½Δx above
    /// height 0, Coulomb `ground_friction`) and optionally the position correction.
    pub fn new(
        positions: &[SVector<f64, D>],
        material: Material,
        options: SceneOptions,
    ) -> Result<Self, XpbiError> {
        Self::build(positions, vec![material], Vec::new(), options)
    }

    /// [`ContinuumScene::new`] for a body of several materials
    /// ([`XpbiContinuum::with_materials`]): particle `i` is of material `materials[ids[i]]`
    /// and weighs that material's `ρ Δx^d`.
    pub fn with_materials(
        positions: &[SVector<f64, D>],
        materials: Vec<Material>,
        ids: Vec<u8>,
        options: SceneOptions,
    ) -> Result<Self, XpbiError> {
        Self::build(positions, materials, ids, options)
    }

    /// The scene of [`ContinuumScene::new`] (`ids` empty: one material) or
    /// [`ContinuumScene::with_materials`].
    fn build(
        positions: &[SVector<f64, D>],
        materials: Vec<Material>,
        ids: Vec<u8>,
        options: SceneOptions,
    ) -> Result<Self, XpbiError> {
        if !(options.correction_radius.is_finite() && options.correction_radius > 0.0) {
            return Err(XpbiError::InvalidParameter {
                name: "correction_radius",
                value: options.correction_radius,
            });
        }
        let vol = options.spacing.powi(D as i32);
        let mut particles = Particles::<D>::new();
        for (i, x) in positions.iter().enumerate() {
            // Out-of-range ids are refused by the constructor below (the mass is then unused).
            let density = materials
                .get(ids.get(i).map_or(0, |&id| id as usize))
                .map_or(1.0, |m| m.density);
            particles.push(*x, 1.0 / (density * vol));
        }
        let members: Vec<u32> = (0..positions.len() as u32).collect();
        let mut xs = XpbiSettings::new(options.spacing);
        xs.plasticity_in_loop = options.plasticity_in_loop;
        xs.xsph = options.xsph;
        xs.sweep = options.sweep;
        xs.reorder_by_cell = options.reorder_by_cell;
        let volumes = vec![vol; positions.len()];
        let continuum = if ids.is_empty() {
            let [material] = materials[..] else {
                return Err(XpbiError::NoMaterials);
            };
            XpbiContinuum::new(&particles, members.clone(), volumes, material, xs)?
        } else {
            XpbiContinuum::with_materials(&particles, members.clone(), volumes, materials, ids, xs)?
        };
        let mut gravity = SVector::<f64, D>::zeros();
        gravity[D - 1] = -9.81;
        let settings = SolverSettings {
            substeps: 1,
            iterations: options.iterations,
            solver: options.solver,
            gravity,
            velocity_damping: options.velocity_damping,
            threads: options.threads,
            ..SolverSettings::default()
        };
        let spacing = options.spacing_constraints.then(|| {
            SpacingConstraints::with_radius(
                &particles,
                members.clone(),
                options.spacing,
                options.correction_radius * options.spacing,
            )
        });
        let mut sim = Simulation::new(particles, settings)?;
        let mut contacts = ColliderContacts::new(0.5 * options.spacing, ContactOptions::default())
            .map_err(BuildError::from)?
            .only_particles(members.iter().map(|&m| m as usize));
        if options.ground {
            let mut up = SVector::<f64, D>::zeros();
            up[D - 1] = 1.0;
            contacts
                .add_collider(
                    Collider::fixed(Shape::HalfSpace {
                        normal: up,
                        offset: 0.0,
                    })
                    .with_friction(
                        Friction::coulomb(options.ground_friction).map_err(BuildError::from)?,
                    ),
                )
                .map_err(BuildError::from)?;
        }
        // Order kept from the first implementation: contacts, position correction, XPBI.
        let colliders = sim.add_constraints(contacts)?;
        if let Some(s) = spacing {
            sim.add_constraints(s)?;
        }
        let xpbi = sim.add_constraints(continuum)?;
        Ok(Self {
            sim,
            xpbi,
            colliders,
            options,
        })
    }

    /// Adds a rigid wall: the half-space `normal·x ≤ offset` is solid, particle centres keep ½Δx
    /// outside it; Coulomb coefficient `friction` (a core collider).
    pub fn add_wall(
        &mut self,
        normal: SVector<f64, D>,
        offset: f64,
        friction: f64,
    ) -> Result<ColliderId, XpbiError> {
        let f = Friction::coulomb(friction).map_err(BuildError::from)?;
        self.add_collider(Collider::fixed(Shape::HalfSpace { normal, offset }).with_friction(f))
    }

    /// Adds any core collider (sphere, box, capsule, SDF, kinematic or static) for the XPBI
    /// particles.
    pub fn add_collider(&mut self, collider: Collider<D>) -> Result<ColliderId, XpbiError> {
        Ok(self
            .sim
            .block_mut(self.colliders)
            .kind
            .add_collider(collider)
            .map_err(BuildError::from)?)
    }

    /// The collider block.
    pub fn collider_contacts(&self) -> &ColliderContacts<D> {
        &self.sim.block(self.colliders).kind
    }

    /// The XPBI block.
    pub fn continuum(&self) -> &XpbiContinuum<D> {
        &self.sim.block(self.xpbi).kind
    }

    /// The XPBI block, mutably.
    pub fn continuum_mut(&mut self) -> &mut XpbiContinuum<D> {
        &mut self.sim.block_mut(self.xpbi).kind
    }

    /// One step of `options.dt`. A step over the CFL bound is refused before it runs (the
    /// step's own check of [`crate::continuum::XpbiContinuum`]'s declared bound:
    /// `XpbiError::Step(StepError::TimeStepOverBound)`); on failure the state is rolled back.
    pub fn step(&mut self) -> Result<(), XpbiError> {
        self.sim.step(self.options.dt)?;
        Ok(())
    }

    /// One adaptive step of a span with `remaining` seconds left: the size is chosen from the
    /// state (at most `stepping.dt_max`, below the CFL bound; `Simulation::advance`) and a
    /// failing step is halved and retried. Returns the step taken (s).
    pub fn step_adaptive(
        &mut self,
        remaining: f64,
        stepping: &xpbd_core::AdaptiveStepping,
    ) -> Result<f64, XpbiError> {
        let dt = self.sim.next_step_size(remaining, stepping.dt_max)?;
        let r = self.sim.advance(dt, stepping, |_, _| {})?;
        Ok(r.dt_max)
    }

    /// Steps until `time` (s).
    pub fn run_until(&mut self, time: f64) -> Result<(), XpbiError> {
        while self.sim.time() < time - 0.5 * self.options.dt {
            self.step()?;
        }
        Ok(())
    }

    /// Positions of the particles.
    pub fn positions(&self) -> &[SVector<f64, D>] {
        &self.sim.particles().x
    }
}
