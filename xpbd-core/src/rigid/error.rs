//! Typed errors of rigid bodies and joints: each names the field and the value.

use thiserror::Error;

use crate::contact::ContactError;

/// A rigid body, joint or rigid-body setting that cannot be used.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RigidError {
    /// A bad shape dimension or friction coefficient.
    #[error(transparent)]
    Shape(ContactError),
    /// A shape that cannot be a dynamic body.
    #[error("a {shape} cannot be a rigid body: {reason}")]
    UnsupportedShape {
        shape: &'static str,
        reason: &'static str,
    },
    /// A density that is not finite and positive.
    #[error("density must be finite and > 0, got {value}")]
    BadDensity { value: f64 },
    /// A mass that is not finite and positive.
    #[error("mass must be finite and > 0, got {value}")]
    BadMass { value: f64 },
    /// Principal moments that no mass distribution has (non-positive, non-finite, or one
    /// larger than the sum of the other two).
    #[error(
        "degenerate inertia: principal moments {moments:?} (each must be > 0 and at most the sum of the other two)"
    )]
    DegenerateInertia { moments: [f64; 3] },
    /// A restitution coefficient outside [0, 1].
    #[error("restitution must lie in [0, 1], got {value}")]
    BadRestitution { value: f64 },
    /// A pose or velocity with a NaN or infinite entry, or a zero quaternion.
    #[error("rigid body {field} is not finite (or the orientation is a zero quaternion)")]
    NonFiniteState { field: &'static str },
    /// A body index that does not exist.
    #[error("rigid body {body} does not exist ({len} bodies)")]
    UnknownBody { body: usize, len: usize },
    /// A joint setting out of range.
    #[error("joint {field} = {value}: {reason}")]
    BadJoint {
        field: &'static str,
        value: f64,
        reason: &'static str,
    },
    /// A particle index beyond the particles.
    #[error("particle {particle} does not exist ({len} particles)")]
    UnknownParticle { particle: usize, len: usize },
    /// Two bodies that overlap at the start (the solver would push them apart violently).
    #[error("rigid bodies {a} and {b} interpenetrate by {depth:.3e} m at the start")]
    Interpenetrating { a: usize, b: usize, depth: f64 },
    /// Checkpoint data of the wrong length or with non-finite entries.
    #[error("rigid-body state: {reason}")]
    BadState { reason: String },
}
