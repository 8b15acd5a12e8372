//! A backend-neutral scene: the CPU description (particles, constraint kinds, settings) plus
//! colliders, from which both backends are built ([`Scene::cpu`], [`Scene::gpu`]).

use std::sync::Arc;

use nalgebra::{Matrix3, Vector3};
use xpbd_core::constraint::{
    ConstraintBlock, ConstraintSet, DihedralBendingConstraints, DistanceConstraints,
    IsometricBendingConstraints, NeoHookeanTetConstraints, TetVolumeConstraints,
};
use xpbd_core::{Particles, SolverSettings};

use crate::{CpuBackend, GpuContext, GpuError, GpuSimulation};

/// The constraint kinds the GPU backend implements (3D).
#[derive(Debug, Clone, PartialEq)]
pub enum SceneBlock {
    /// `C = |x₀ − x₁| − l₀`.
    Distance(DistanceConstraints),
    /// `C = θ − θ₀` per interior edge.
    DihedralBending(DihedralBendingConstraints),
    /// `C = V − V₀` per tetrahedron.
    TetVolume(TetVolumeConstraints<3>),
    /// `C = √(xᵀQx)` per interior edge (Bergou et al. 2006; `Q = g gᵀ` on the GPU).
    IsometricBending(IsometricBendingConstraints),
    /// Stable neo-Hookean tetrahedra (Macklin & Müller 2021): `C_H = det F − γ` and
    /// `C_D = ‖F‖` per element.
    NeoHookean(NeoHookeanTetConstraints<3>),
}

impl SceneBlock {
    /// Number of constraints.
    pub fn len(&self) -> usize {
        match self {
            Self::Distance(k) => k.pairs.len(),
            Self::DihedralBending(k) => k.stencils.len(),
            Self::TetVolume(k) => k.rest_volume.len(),
            Self::IsometricBending(k) => k.stencils.len(),
            Self::NeoHookean(k) => 2 * k.rest_volume.len(),
        }
    }

    /// Whether the block is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Range, duplicate and per-kind checks, exactly as `Simulation::add_constraints`.
    pub fn validate(&self, n_particles: usize) -> Result<(), GpuError> {
        match self {
            Self::Distance(k) => ConstraintBlock::<_, 3>::new(k.clone()).validate(n_particles)?,
            Self::DihedralBending(k) => {
                ConstraintBlock::<_, 3>::new(k.clone()).validate(n_particles)?
            }
            Self::TetVolume(k) => ConstraintBlock::<_, 3>::new(k.clone()).validate(n_particles)?,
            Self::IsometricBending(k) => {
                ConstraintBlock::<_, 3>::new(k.clone()).validate(n_particles)?
            }
            Self::NeoHookean(k) => ConstraintBlock::<_, 3>::new(k.clone()).validate(n_particles)?,
        }
        Ok(())
    }
}

/// A static collider of the GPU XPBD scene, the core's `xpbd_core::contact::Shape` placed at a
/// pose: half-space, sphere, box, capsule or signed-distance grid. Contact is the unilateral constraint
/// `C(x) = φ(x) − r ≥ 0` (r: [`Scene::contact_radius`]) projected with zero compliance after the
/// constraint passes of every iteration; friction is the core's position-level Coulomb law
/// right after each normal correction (`xpbd_core::contact::friction`, μ_s = μ_k = μ): the
/// substep's tangential displacement is undone while it stays below μ times the normal
/// correction, and reduced by that much otherwise. The CPU backend runs the same model as the
/// core's contact block ([`crate::core_contacts`]).
#[derive(Debug, Clone, PartialEq)]
pub enum SceneCollider {
    /// Half-space `n·x ≥ offset` (`n` is normalised when packed).
    Plane {
        /// Outward normal (non-zero).
        normal: Vector3<f64>,
        /// Offset d in `n·x ≥ d` (m), along the normalised normal.
        offset: f64,
        /// Coulomb friction coefficient μ ≥ 0.
        friction: f64,
    },
    /// Solid sphere: particles stay at `|x − c| ≥ R + r`.
    Sphere {
        /// Centre c (m).
        centre: Vector3<f64>,
        /// Radius R > 0 (m).
        radius: f64,
        /// Coulomb friction coefficient μ ≥ 0.
        friction: f64,
    },
    /// Solid box `|qᵢ| ≤ hᵢ` in its frame `q = Rᵀ(x − c)`; exact Euclidean φ (`Shape::Box`).
    Box {
        /// Centre c (m).
        centre: Vector3<f64>,
        /// Rotation R (columns: the box's axes in world coordinates; orthonormal).
        rotation: Matrix3<f64>,
        /// Half extents h (m, each > 0).
        half_extents: Vector3<f64>,
        /// Coulomb friction coefficient μ ≥ 0.
        friction: f64,
    },
    /// Solid capsule: the points within `radius` of the segment `c ± L R e₀` (`Shape::Capsule`).
    Capsule {
        /// Centre c (m).
        centre: Vector3<f64>,
        /// Rotation R (orthonormal; the axis is its first column).
        rotation: Matrix3<f64>,
        /// Half length L ≥ 0 of the axis segment (m).
        half_length: f64,
        /// Radius > 0 (m).
        radius: f64,
        /// Coulomb friction coefficient μ ≥ 0.
        friction: f64,
    },
    /// A signed-distance grid (`Shape::Sdf`, e.g. [`xpbd_core::contact::SdfGrid::from_mesh`]
    /// of a closed mesh) in its frame `q = Rᵀ(x − c)`: φ and ∇φ by trilinear interpolation of
    /// the node values, extended outside the grid's box as the core does. On the device the
    /// node values are f32 (an error of an ulp of the largest |φ|).
    Sdf {
        /// Translation c of the grid's frame (m).
        centre: Vector3<f64>,
        /// Rotation R (orthonormal).
        rotation: Matrix3<f64>,
        /// The grid, shared with the core's collider.
        grid: Arc<xpbd_core::contact::SdfGrid<3>>,
        /// Coulomb friction coefficient μ ≥ 0.
        friction: f64,
    },
}

impl SceneCollider {
    /// Checks finiteness, a non-zero normal, positive sizes, an orthonormal rotation and
    /// `μ ≥ 0`.
    pub fn validate(&self, index: usize) -> Result<(), GpuError> {
        let bad = |field, value, reason| GpuError::InvalidCollider {
            index,
            field,
            value,
            reason,
        };
        let finite = |v: &Vector3<f64>| v.iter().all(|c| c.is_finite());
        let positive = |v: f64| v.is_finite() && v > 0.0;
        let check_rotation = |r: &Matrix3<f64>| {
            let err = (r.transpose() * r - Matrix3::identity()).amax();
            if err.is_finite() && err <= 1e-9 && r.determinant() > 0.0 {
                Ok(())
            } else {
                Err(bad(
                    "rotation",
                    err,
                    "must be a finite proper rotation (RᵀR = I, det R = 1)",
                ))
            }
        };
        match self.clone() {
            Self::Plane { normal, offset, .. } => {
                let n = normal.norm();
                if !(n.is_finite() && n > 1e-12) {
                    return Err(bad("normal", n, "must be finite and non-zero"));
                }
                if !offset.is_finite() {
                    return Err(bad("offset", offset, "must be finite"));
                }
            }
            Self::Sphere { centre, radius, .. } => {
                if !finite(&centre) {
                    return Err(bad("centre", f64::NAN, "must be finite"));
                }
                if !positive(radius) {
                    return Err(bad("radius", radius, "must be finite and > 0"));
                }
            }
            Self::Box {
                centre,
                rotation,
                half_extents,
                ..
            } => {
                if !finite(&centre) {
                    return Err(bad("centre", f64::NAN, "must be finite"));
                }
                check_rotation(&rotation)?;
                if let Some(&h) = half_extents.iter().find(|&&h| !positive(h)) {
                    return Err(bad("half_extents", h, "must be finite and > 0"));
                }
            }
            Self::Capsule {
                centre,
                rotation,
                half_length,
                radius,
                ..
            } => {
                if !finite(&centre) {
                    return Err(bad("centre", f64::NAN, "must be finite"));
                }
                check_rotation(&rotation)?;
                if !(half_length.is_finite() && half_length >= 0.0) {
                    return Err(bad("half_length", half_length, "must be finite and >= 0"));
                }
                if !positive(radius) {
                    return Err(bad("radius", radius, "must be finite and > 0"));
                }
            }
            Self::Sdf {
                centre, rotation, ..
            } => {
                if !finite(&centre) {
                    return Err(bad("centre", f64::NAN, "must be finite"));
                }
                check_rotation(&rotation)?;
            }
        }
        let friction = self.friction();
        if !(friction.is_finite() && friction >= 0.0) {
            return Err(bad("friction", friction, "must be finite and >= 0"));
        }
        Ok(())
    }

    /// The core's collider `c` (number `index` of its contact block) at its pose, with the
    /// Coulomb coefficient `friction` (velocity and restitution are the caller's).
    ///
    /// ```
    /// use xpbd_core::contact::{Collider, Pose, Shape};
    /// use xpbd_core::Vector;
    /// use xpbd_gpu::testing::SceneCollider;
    /// let ball = Collider::fixed(Shape::Sphere { radius: 0.1 })
    ///     .at(Pose::from_translation(Vector::<3>::new(0.0, 0.0, 1.0)));
    /// let c = SceneCollider::from_core(0, &ball, 0.3).unwrap();
    /// assert!(matches!(c, SceneCollider::Sphere { radius: 0.1, .. }));
    /// ```
    pub fn from_core(
        _index: usize,
        c: &xpbd_core::contact::Collider<3>,
        friction: f64,
    ) -> Result<Self, GpuError> {
        use xpbd_core::contact::Shape;
        let (t, rotation) = (c.pose.translation, c.pose.rotation);
        Ok(match &c.shape {
            &Shape::HalfSpace { normal, offset } => {
                // φ = n̂·Rᵀ(x − t) − d = (R n̂)·x − ((R n̂)·t + d).
                let n = rotation * normal.normalize();
                Self::Plane {
                    normal: n,
                    offset: offset + n.dot(&t),
                    friction,
                }
            }
            &Shape::Sphere { radius } => Self::Sphere {
                centre: t,
                radius,
                friction,
            },
            &Shape::Box { half_extents } => Self::Box {
                centre: t,
                rotation,
                half_extents,
                friction,
            },
            &Shape::Capsule {
                half_length,
                radius,
            } => Self::Capsule {
                centre: t,
                rotation,
                half_length,
                radius,
                friction,
            },
            Shape::Sdf(grid) => Self::Sdf {
                centre: t,
                rotation,
                grid: grid.clone(),
                friction,
            },
        })
    }

    /// The collider moved rigidly by `d` (m).
    ///
    /// ```
    /// use nalgebra::Vector3;
    /// use xpbd_gpu::testing::SceneCollider;
    /// let floor = SceneCollider::Plane { normal: Vector3::new(0.0, 0.0, 2.0), offset: 0.1, friction: 0.0 };
    /// let raised = floor.translated(&Vector3::new(5.0, 0.0, 0.25));
    /// assert!(matches!(raised, SceneCollider::Plane { offset, .. } if (offset - 0.35).abs() < 1e-15));
    /// ```
    pub fn translated(&self, d: &Vector3<f64>) -> Self {
        let mut out = self.clone();
        match &mut out {
            Self::Plane { normal, offset, .. } => *offset += normal.normalize().dot(d),
            Self::Sphere { centre, .. }
            | Self::Box { centre, .. }
            | Self::Capsule { centre, .. }
            | Self::Sdf { centre, .. } => *centre += d,
        }
        out
    }

    /// The friction coefficient μ.
    pub fn friction(&self) -> f64 {
        match *self {
            Self::Plane { friction, .. }
            | Self::Sphere { friction, .. }
            | Self::Box { friction, .. }
            | Self::Capsule { friction, .. }
            | Self::Sdf { friction, .. } => friction,
        }
    }
}

/// Most colliders per scene, in both device steps: the XPBD step's (two `vec4` of contact
/// multipliers per particle) and each XPBI continuum's ([`crate::GpuXpbi`]: a hopper of four
/// walls, a floor and three obstacles; the candidate mask of a particle has 8 bits). The
/// shaders' `array<Collider, 8>` are held to it by the uniform-size tests.
pub const MAX_COLLIDERS: usize = 8;

/// Particles, constraint blocks (solved in this order), colliders and settings.
///
/// ```
/// use xpbd_core::builders::RopeBuilder;
/// use xpbd_core::{SolverSettings, Vector};
/// use xpbd_gpu::testing::{Scene, SceneBlock, StepBackend};
/// let rope = RopeBuilder::<3> { links: 4, start: Vector::<3>::zeros(), end: Vector::<3>::new(1.0, 0.0, 0.0),
///     mass: 1.0, compliance: 0.0, pin_start: true }.build().unwrap();
/// let scene = Scene::new(rope.particles, SolverSettings::default())
///     .with_block(SceneBlock::Distance(rope.links));
/// let mut cpu = scene.cpu().unwrap();
/// cpu.step(1.0 / 60.0).unwrap();
/// assert!(cpu.positions().unwrap()[4].z < 0.0); // the free end falls
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// The particles (3D).
    pub particles: Particles<3>,
    /// Solver settings (substeps, iterations, sweep, gravity, damping, warm start).
    pub settings: SolverSettings<3>,
    /// Constraint blocks, solved in order.
    pub blocks: Vec<SceneBlock>,
    /// Colliders (at most [`MAX_COLLIDERS`]).
    pub colliders: Vec<SceneCollider>,
    /// Particle radius r of the contacts (m, ≥ 0): `C = φ(x) − r` for every collider.
    pub contact_radius: f64,
    /// Per particle, its own contact radius (m, ≥ 0) instead of `contact_radius` (empty: the
    /// same for all; a GPU world's XPBD buffers hold cloth and water particles, whose radii
    /// differ).
    pub contact_radii: Vec<f64>,
}

impl Scene {
    /// A scene without constraints or colliders.
    pub fn new(particles: Particles<3>, settings: SolverSettings<3>) -> Self {
        Self {
            particles,
            settings,
            blocks: Vec::new(),
            colliders: Vec::new(),
            contact_radius: 0.0,
            contact_radii: Vec::new(),
        }
    }

    /// Adds a constraint block (solved after the ones already added).
    pub fn with_block(mut self, block: SceneBlock) -> Self {
        self.blocks.push(block);
        self
    }

    /// Adds a collider.
    pub fn with_collider(mut self, collider: SceneCollider) -> Self {
        self.colliders.push(collider);
        self
    }

    /// All the checks of the CPU path plus the colliders'.
    pub fn validate(&self) -> Result<(), GpuError> {
        self.particles.validate()?;
        self.settings.validate()?;
        for b in &self.blocks {
            b.validate(self.particles.len())?;
        }
        if self.colliders.len() > MAX_COLLIDERS {
            return Err(GpuError::Unsupported {
                what: format!("{} colliders", self.colliders.len()),
                reason: "at most 8 colliders per scene",
            });
        }
        for (i, c) in self.colliders.iter().enumerate() {
            c.validate(i)?;
        }
        if !self.contact_radii.is_empty() && self.contact_radii.len() != self.particles.len() {
            return Err(xpbd_core::BuildError::InvalidSetting {
                field: "contact_radii length",
                value: self.contact_radii.len() as f64,
                reason: "must be 0 or the particle count",
            }
            .into());
        }
        if let Some(&r) = (self.contact_radii.iter()).find(|r| !(r.is_finite() && **r >= 0.0)) {
            return Err(xpbd_core::BuildError::InvalidSetting {
                field: "contact_radii",
                value: r,
                reason: "must be finite and >= 0",
            }
            .into());
        }
        if !(self.contact_radius.is_finite() && self.contact_radius >= 0.0) {
            return Err(xpbd_core::BuildError::InvalidSetting {
                field: "contact_radius",
                value: self.contact_radius,
                reason: "must be finite and >= 0",
            }
            .into());
        }
        Ok(())
    }

    /// The CPU (f64) backend: an `xpbd_core::Simulation` with these blocks, the colliders
    /// added last as a contact block.
    pub fn cpu(&self) -> Result<CpuBackend, GpuError> {
        CpuBackend::new(self)
    }

    /// The GPU (f32) backend on `ctx`.
    pub fn gpu(&self, ctx: Arc<GpuContext>) -> Result<GpuSimulation, GpuError> {
        GpuSimulation::new(ctx, self)
    }
}
