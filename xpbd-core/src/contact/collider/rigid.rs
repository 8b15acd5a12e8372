//! The rigid obstacle itself: a [`Collider`] (shape, pose, kinematic velocity, friction,
//! restitution) and the [`ColliderId`] naming it in its
//! [`ColliderContacts`](super::ColliderContacts).

use crate::Vector;
use crate::contact::error::{ContactError, check_finite};
use crate::contact::friction::{Friction, check_restitution};
use crate::contact::shape::{Pose, Shape};

/// Index of a collider in its [`ColliderContacts`](super::ColliderContacts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColliderId(pub usize);

/// A rigid obstacle: a [`Shape`] at a [`Pose`], static or kinematic, with Coulomb friction
/// and restitution.
///
/// Kinematic motion: every step the pose advances by `velocity · Δt` (translation), or moves
/// to a target set with
/// [`ColliderContacts::set_target_pose`](super::ColliderContacts::set_target_pose)
/// (translation and rotation); substeps interpolate linearly ([`Pose::interpolate`]). Contacts
/// see the collider at its end-of-substep pose and friction/restitution use its velocity at
/// the contact point.
///
/// **No-tunnelling promise** (tested in `tests/contact_kinematic.rs`): a particle is pushed,
/// never passed through, while the collider moves less per substep than half its thinnest
/// extent minus the particle radius (`|V| h < t/2 − r` for a plate of thickness t), because the
/// projection moves a penetrating particle to the nearest surface.
///
/// ```
/// use xpbd_core::contact::{Collider, Friction, Pose, Shape};
/// use xpbd_core::Vector;
/// let paddle = Collider::fixed(Shape::Box { half_extents: Vector::<3>::new(0.05, 0.5, 0.5) })
///     .at(Pose::from_translation(Vector::<3>::new(-1.0, 0.0, 0.5)))
///     .moving_at(Vector::<3>::new(2.0, 0.0, 0.0))
///     .with_friction(Friction::coulomb(0.3).unwrap())
///     .with_restitution(0.5);
/// assert!(paddle.validate().is_ok());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Collider<const D: usize> {
    /// Geometry in the local frame.
    pub shape: Shape<D>,
    /// Pose at the start of the next step.
    pub pose: Pose<D>,
    /// Linear velocity (m/s) of a kinematic collider; zero = static.
    pub velocity: Vector<D>,
    /// Coulomb coefficients against particles.
    pub friction: Friction,
    /// Restitution e ∈ [0, 1] (0 = perfectly inelastic).
    pub restitution: f64,
}

impl<const D: usize> Collider<D> {
    /// A static, frictionless, inelastic collider at the identity pose.
    pub fn fixed(shape: Shape<D>) -> Self {
        Self {
            shape,
            pose: Pose::identity(),
            velocity: Vector::<D>::zeros(),
            friction: Friction::NONE,
            restitution: 0.0,
        }
    }

    /// Placed at `pose`.
    pub fn at(mut self, pose: Pose<D>) -> Self {
        self.pose = pose;
        self
    }

    /// Kinematic with constant linear velocity (m/s).
    pub fn moving_at(mut self, velocity: Vector<D>) -> Self {
        self.velocity = velocity;
        self
    }

    /// With friction.
    pub fn with_friction(mut self, friction: Friction) -> Self {
        self.friction = friction;
        self
    }

    /// With restitution e.
    pub fn with_restitution(mut self, restitution: f64) -> Self {
        self.restitution = restitution;
        self
    }

    /// Typed checks of shape, pose, velocity, friction and restitution.
    pub fn validate(&self) -> Result<(), ContactError> {
        self.shape.validate()?;
        self.pose.validate()?;
        for &v in self.velocity.iter() {
            check_finite("collider velocity", v)?;
        }
        self.friction.validate()?;
        check_restitution(self.restitution)
    }
}
