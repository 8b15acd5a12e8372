//! Contact: colliders, particle–particle and cloth self-collision, Coulomb friction and
//! restitution, as unilateral constraints `C ≥ 0` inside the XPBD solver loop.
//!
//! Five constraint kinds, added to a [`crate::Simulation`] like any other block (put them
//! after the material constraints so contacts have the last word in a Gauss–Seidel sweep):
//!
//! * [`ColliderContacts`]: particles of radius r against static or kinematic [`Collider`]s
//!   (half-space, sphere, box, capsule, signed-distance grid from a closed mesh):
//!   `C = φ(x) − r ≥ 0` with φ the collider's signed distance at its end-of-substep pose.
//! * [`ColliderTriangleContacts`] (3D): cloth triangles against the convex colliders of a
//!   [`ColliderContacts`] block, `C = n̂·(y − Σ βᵢ xᵢ) − R ≥ 0` with y a point of the collider's
//!   core, R its radius, n̂ and β frozen at generation: stops a collider smaller than the cloth's
//!   edges from passing between the vertices.
//! * [`ParticleContacts`]: pairs of particles, `C = |x_p − x_q| − d ≥ 0` (d = 2r, the
//!   thickness), with the broad phase on the shared [`crate::spatial::UniformGrid`].
//! * [`BodyContacts`]: particles of different bodies (a sand body and a cloth, two continua),
//!   `C = |x_p − x_q| − (r_p + r_q) ≥ 0` with friction per pair of bodies; a body's own
//!   particles never touch through it.
//! * [`PointTriangleContacts`] (3D): cloth particles against cloth triangles,
//!   `C = n̂·(x_p − Σ βᵢ xᵢ) − d ≥ 0` with the normal n̂ and barycentric weights β frozen at
//!   generation.
//!
//! Every kind is an ordinary [`crate::constraint::ConstraintKind`]: all three solvers
//! (Gauss–Seidel, Jacobi, coloured) project it with the multiplier clamped to λ ≥ 0, inside
//! every iteration or once per substep ([`ContactProjection`]), so XPBD cloth and rope particles and XPBI continuum particles (which live
//! in the same particle store) share one contact machinery. Friction runs in the kernel right
//! after each normal correction ([`crate::constraint::ConstraintKind::after_projection`],
//! see [`friction`]); restitution in `end_substep`.
//!
//! # When contacts are generated ([`ContactGeneration`])
//! Candidates are found on `xⁿ` at the start of a substep (`PerSubstep`, the default), or once at
//! the start of each step for all its substeps (`PerStep`, cheaper, needs a larger margin). A
//! candidate is kept when its gap is below `margin + 2(|v| h_g + a h_g²) + collider sweep`
//! (`h_g` = substep or step length, `a` = [`ContactOptions::acceleration`]); kept contacts are
//! inactive (and cost one evaluation) while `C > 0`. A contact whose gap closes faster than the
//! margin allows is missed for that substep and caught at the next one.
//!
//! # When contacts are projected ([`ContactProjection`])
//! `EveryIteration` (the default) treats a contact like any other constraint: it is projected
//! in each of the substep's iterations, so material constraints and contacts converge together
//! (Macklin et al. 2016). `OncePerSubstep` projects contacts only in the last iteration, after
//! the material constraints have had their other iterations: the classic PBD collision pass
//! (Müller et al. 2007 §3.5; Müller et al. 2020 handle collisions once per substep). It costs
//! one contact pass per substep instead of one per iteration and the end-of-substep state is
//! still non-penetrating, but the material constraints do not see the contacts until then, so
//! with several iterations a stiff object resting on a collider converges more slowly. Under
//! the Jacobi solver the single pass is scaled like every Jacobi update (ω / incidence count),
//! so part of the substep's approach into a collider remains at the end of the substep (bounded
//! by one substep's motion, `|v| h`); prefer `EveryIteration` with Jacobi. With one
//! iteration per substep (the "small steps" default) both options are the same computation,
//! bit for bit.
//!
//! ```
//! use xpbd_core::prelude::*;
//! use xpbd_core::contact::{Collider, ColliderContacts, ContactOptions, Friction, Shape};
//! let mut particles = Particles::<3>::new();
//! let ball = particles.push(Vector::<3>::new(0.0, 0.0, 0.5), 1.0);
//! let mut sim = Simulation::new(particles, SolverSettings::default()).unwrap();
//! let mut contacts = ColliderContacts::new(0.05, ContactOptions::default()).unwrap();
//! let ground = Collider::fixed(Shape::HalfSpace { normal: Vector::<3>::z(), offset: 0.0 })
//!     .with_friction(Friction::new(0.5, 0.4).unwrap());
//! contacts.add_collider(ground).unwrap();
//! sim.add_constraints(contacts).unwrap();
//! for _ in 0..60 {
//!     sim.step(1.0 / 60.0).unwrap();
//! }
//! assert!(sim.particles().x[ball].z >= 0.05 - 1e-12);
//! ```

pub mod body;
pub mod collider;
pub mod collider_triangle;
pub mod error;
pub mod friction;
pub mod particle;
pub mod sdf;
pub mod shape;
pub mod triangle;

pub use body::{BodyContacts, Overlap};
pub use collider::{Collider, ColliderContacts, ColliderId};
pub use collider_triangle::{ColliderMotionLink, ColliderSubstep, ColliderTriangleContacts};
pub use error::ContactError;
pub use friction::Friction;
pub use particle::ParticleContacts;
pub use sdf::{SdfGrid, closest_point_on_triangle};
pub use shape::{Pose, Shape};
pub use triangle::PointTriangleContacts;

use error::check_size;

/// Deviations `|v_p − v̄|` of the velocities of `members` from their mean v̄ (0 for others),
/// and their mean. For any two particles `|v_p − v_q| ≤ 2 max(dev_p, dev_q)` (triangle
/// inequality), so the broad phase can search around each particle with a radius set by its
/// own deviation and let the faster particle of a pair find it ([`owns_pair`]); a cloth that
/// falls as a whole has small deviations and small search radii.
pub(crate) fn speed_deviations<const D: usize>(
    v: &[crate::Vector<D>],
    is_member: impl Fn(usize) -> bool,
) -> (Vec<f64>, f64) {
    let mut mean = crate::Vector::<D>::zeros();
    let mut count = 0usize;
    for (p, vp) in v.iter().enumerate() {
        if is_member(p) {
            mean += vp;
            count += 1;
        }
    }
    if count == 0 {
        return (vec![0.0; v.len()], 0.0);
    }
    mean /= count as f64;
    let dev: Vec<f64> = v
        .iter()
        .enumerate()
        .map(|(p, vp)| {
            if is_member(p) {
                (vp - mean).norm()
            } else {
                0.0
            }
        })
        .collect();
    let mean_dev = dev.iter().sum::<f64>() / count as f64;
    (dev, mean_dev)
}

/// `|x_p − x_q|` of a particle pair `xs = [x_p, x_q]`, with `grad = [n, −n]`,
/// `n = (x_p − x_q)/|x_p − x_q|` (straight up, the last axis, for coincident particles): the
/// separation and gradient of every pair contact, `C = |x_p − x_q| − d`.
#[inline(always)]
pub(crate) fn pair_separation<const D: usize>(
    xs: &[crate::Vector<D>],
    grad: &mut [crate::Vector<D>],
) -> f64 {
    let d = xs[0] - xs[1];
    let len = d.norm();
    let n = if len > 0.0 {
        d / len
    } else {
        let mut up = crate::Vector::<D>::zeros();
        up[D - 1] = 1.0;
        up
    };
    grad[0] = n;
    grad[1] = -n;
    len
}

/// Whether the search around `p` is responsible for the pair (p, q): the particle with the
/// larger speed deviation, ties to the lower index.
#[inline]
pub(crate) fn owns_pair(dev: &[f64], p: usize, q: usize) -> bool {
    dev[p] > dev[q] || (dev[p] == dev[q] && p < q)
}

/// When contact candidates are searched (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContactGeneration {
    /// At the start of every substep, on `xⁿ` (margin over one substep).
    #[default]
    PerSubstep,
    /// At the start of the first substep of each step, kept for the whole step (margin over
    /// the whole step Δt): fewer broad-phase passes, more (mostly inactive) candidates.
    PerStep,
}

/// In which iterations of a substep contacts are projected (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContactProjection {
    /// In every iteration, together with the material constraints.
    #[default]
    EveryIteration,
    /// Only in the last iteration of each substep (one collision pass per substep).
    OncePerSubstep,
}

impl ContactProjection {
    /// Whether contacts are projected in iteration `iteration` (0-based) of `iterations`.
    #[inline]
    pub fn projects_in(self, iteration: usize, iterations: usize) -> bool {
        match self {
            Self::EveryIteration => true,
            Self::OncePerSubstep => iteration + 1 >= iterations,
        }
    }
}

/// Settings shared by the contact kinds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactOptions {
    /// When candidates are searched.
    pub generation: ContactGeneration,
    /// In which iterations contacts are projected.
    pub projection: ContactProjection,
    /// Extra gap (m, ≥ 0) under which candidates are kept, on top of the motion bound.
    pub margin: f64,
    /// Bound `a` (m/s², ≥ 0) on the acceleration from gravity and forces, used for the motion
    /// bound `a h²` of the margin and for the restitution threshold `2 a h` under which a contact
    /// is treated as resting (Müller et al. 2020 §3.6 with a = |g|).
    pub acceleration: f64,
}

impl Default for ContactOptions {
    fn default() -> Self {
        Self {
            generation: ContactGeneration::PerSubstep,
            projection: ContactProjection::EveryIteration,
            margin: 0.0,
            acceleration: 9.81,
        }
    }
}

impl ContactOptions {
    /// Typed checks.
    pub fn validate(&self) -> Result<(), ContactError> {
        check_size("contact margin", self.margin, true)?;
        check_size("contact acceleration bound", self.acceleration, true)
    }

    /// Step length over which candidates must stay valid.
    pub(crate) fn generation_span(&self, h: f64, substeps: usize) -> f64 {
        match self.generation {
            ContactGeneration::PerSubstep => h,
            ContactGeneration::PerStep => h * substeps as f64,
        }
    }

    /// Whether candidates are regenerated at substep `s`.
    pub(crate) fn regenerate_at(&self, substep: usize) -> bool {
        match self.generation {
            ContactGeneration::PerSubstep => true,
            ContactGeneration::PerStep => substep == 0,
        }
    }

    /// Gap bound for a particle (or pair) moving at relative speed `speed` over `span`.
    #[inline]
    pub(crate) fn gap_bound(&self, speed: f64, span: f64) -> f64 {
        self.margin + 2.0 * (speed * span + self.acceleration * span * span)
    }

    /// Restitution threshold `2 a h` (m/s).
    pub(crate) fn restitution_threshold(&self, h: f64) -> f64 {
        2.0 * self.acceleration * h
    }
}
