//! Typed errors of collider and contact construction.

use thiserror::Error;

use crate::BuildError;

/// A collider, contact setting or SDF mesh that cannot be used. Every variant names the
/// offending field (or mesh element) and value.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ContactError {
    /// A shape dimension, pose entry or velocity that is NaN or infinite.
    #[error("{field} is not finite ({value})")]
    NonFiniteGeometry { field: &'static str, value: f64 },
    /// A radius, half extent, thickness or margin that is negative (or zero where a size is
    /// required).
    #[error("{field} must be > 0 (or >= 0 for margins), got {value}")]
    NegativeSize { field: &'static str, value: f64 },
    /// A friction coefficient that is negative or not finite, or kinetic above static.
    #[error("friction {field} = {value}: {reason}")]
    InvalidFriction {
        field: &'static str,
        value: f64,
        reason: &'static str,
    },
    /// A restitution coefficient outside [0, 1].
    #[error("restitution must lie in [0, 1], got {value}")]
    InvalidRestitution { value: f64 },
    /// A pose whose rotation is not orthonormal with determinant +1 (‖RᵀR − I‖ > 1e-9).
    #[error("pose rotation is not a proper rotation (‖RᵀR − I‖ = {deviation:.3e}, det = {det})")]
    InvalidRotation { deviation: f64, det: f64 },
    /// A mesh edge that is not shared by exactly two triangles with opposite orientation,
    /// so the mesh does not bound a volume and has no inside.
    #[error(
        "mesh is not closed: edge ({a}, {b}) is used {forward} time(s) in this direction and {backward} time(s) reversed (need 1 and 1)"
    )]
    NonClosedMesh {
        a: usize,
        b: usize,
        forward: usize,
        backward: usize,
    },
    /// A mesh with a degenerate (zero-area) triangle or a vertex index out of range.
    #[error("mesh triangle {triangle}: {reason}")]
    BadTriangle {
        triangle: usize,
        reason: &'static str,
    },
    /// A collider id that does not exist.
    #[error("collider {id} does not exist ({len} colliders)")]
    UnknownCollider { id: usize, len: usize },
    /// A body number that does not exist ([`super::BodyContacts`]).
    #[error("body {body} does not exist ({len} bodies)")]
    UnknownBody { body: usize, len: usize },
    /// A body listed as interacting with itself: a body's own particles are held by its own
    /// constraints, never by body contact.
    #[error("body {body} cannot interact with itself")]
    SelfInteraction { body: usize },
    /// A particle given to two bodies.
    #[error("particle {particle} belongs to body {first} and to body {second}")]
    SharedParticle {
        particle: usize,
        first: usize,
        second: usize,
    },
}

impl From<ContactError> for BuildError {
    fn from(e: ContactError) -> Self {
        match e {
            ContactError::InvalidFriction { field, value, .. } => BuildError::InvalidMaterial {
                field,
                value,
                reason: "friction coefficients must be finite, >= 0, and kinetic <= static",
            },
            ContactError::InvalidRestitution { value } => BuildError::InvalidMaterial {
                field: "restitution",
                value,
                reason: "must lie in [0, 1]",
            },
            other => BuildError::InvalidGeometry(other.to_string()),
        }
    }
}

/// `Ok` when `value` is finite.
pub(crate) fn check_finite(field: &'static str, value: f64) -> Result<(), ContactError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(ContactError::NonFiniteGeometry { field, value })
    }
}

/// `Ok` when `value` is finite and `> 0` (`>= 0` when `allow_zero`).
pub(crate) fn check_size(
    field: &'static str,
    value: f64,
    allow_zero: bool,
) -> Result<(), ContactError> {
    check_finite(field, value)?;
    if value > 0.0 || (allow_zero && value == 0.0) {
        Ok(())
    } else {
        Err(ContactError::NegativeSize { field, value })
    }
}
