//! Rigid bodies and joints: `[[rigid]]` and `[[joint]]`.
//!
//! ```toml
//! [[rigid]]
//! name = "stone"
//! shape = { sphere = { radius = 0.03 } }   # or box, capsule, mesh (as for colliders)
//! density = 2600.0                         # or mass = 0.29 (kg)
//! center = [0.0, 0.0, 0.3]                 # centre of the shape's frame (m)
//! rotation_deg = [0.0, 0.0, 0.0]           # R = R_z R_y R_x, as for colliders
//! velocity = [0.0, 0.0, -2.0]              # m/s
//! angular_velocity = [0.0, 0.0, 0.0]       # rad/s, world axes
//! friction = 0.5
//! restitution = 0.1
//!
//! [[joint]]
//! kind = "hinge"          # ball, fixed, hinge, distance
//! a = "frame"             # a rigid body's name; absent: the world
//! b = "wheel"
//! anchor = [0.0, 0.0, 0.2]  # where the joint is at the start (world, m)
//! axis = [0.0, 1.0, 0.0]    # hinge axis at the start (world)
//! motor = 3.0               # driven speed of b relative to a about the axis (rad/s)
//! ```
//!
//! A rope or cloth is tied to a rigid body by `[[attachment]]`:
//!
//! ```toml
//! [[attachment]]
//! rigid = "crate"
//! body = "rope"      # any particle body
//! particles = [0]    # indices within that body; each is tied where it is at the start
//! ```
//!
//! Rigid bodies touch every body's particles (both ways, in the same iterations), every
//! collider and each other.

use serde::{Deserialize, Serialize};

use super::collider::ShapeSpec;

/// `[[rigid]]`: a dynamic rigid body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RigidSpec {
    /// Name (unique among bodies; default `rigid[k]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Geometry: `sphere`, `box`, `capsule` or a closed `mesh` (a plane has no mass).
    pub shape: ShapeSpec,
    /// Density (kg/m³); exactly one of `density` and `mass`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub density: Option<f64>,
    /// Mass (kg); the inertia is the shape's at uniform density.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass: Option<f64>,
    /// Where the shape's local frame sits (m); for a mesh, the mesh's origin.
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub center: [f64; 3],
    /// Orientation, degrees about the world axes: R = R_z(rz) R_y(ry) R_x(rx).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub rotation_deg: [f64; 3],
    /// Initial velocity of the centre of mass (m/s).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub velocity: [f64; 3],
    /// Initial angular velocity (rad/s, world axes).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub angular_velocity: [f64; 3],
    /// Coulomb friction μ of its contacts (a pair uses the mean of its two).
    #[serde(default)]
    pub friction: f64,
    /// Restitution e ∈ [0, 1] (a pair uses the mean).
    #[serde(default)]
    pub restitution: f64,
}

impl RigidSpec {
    /// The rotation matrix of `rotation_deg` (as a collider's).
    pub fn rotation(&self) -> xpbd_core::Matrix<3> {
        super::ColliderSpec {
            shape: self.shape.clone(),
            center: self.center,
            rotation_deg: self.rotation_deg,
            friction: 0.0,
            restitution: 0.0,
            velocity: [0.0; 3],
        }
        .rotation()
    }
}

/// What a `[[joint]]` keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JointKindSpec {
    /// The anchor points coincide.
    Ball,
    /// The anchors coincide and the relative orientation of the start is kept.
    Fixed,
    /// The anchors coincide and the bodies turn only about `axis`.
    Hinge,
    /// The anchors `anchor` (on a) and `anchor_b` (on b) stay `rest` apart.
    Distance,
}

/// `[[joint]]`: a joint between rigid body `a` (or the world) and rigid body `b`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointSpec {
    /// `ball`, `fixed`, `hinge` or `distance`.
    pub kind: JointKindSpec,
    /// Name of rigid body a; absent: the world.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<String>,
    /// Name of rigid body b.
    pub b: String,
    /// The joint's point at the start (world, m); for `distance`, the anchor on a.
    #[serde(deserialize_with = "crate::exact::array")]
    pub anchor: [f64; 3],
    /// `distance` only: the anchor on b at the start (world, m).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor_b: Option<[f64; 3]>,
    /// `hinge` only: the axis at the start (world; any non-zero length).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub axis: Option<[f64; 3]>,
    /// `hinge` only: the hinge angle's range from the start (degrees).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits_deg: Option<[f64; 2]>,
    /// `hinge` only: driven angular speed of b relative to a about the axis (rad/s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub motor: Option<f64>,
    /// `distance` only: the rest distance (m; default: the anchors' distance at the start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest: Option<f64>,
    /// Compliance α (m/N; 0 = rigid).
    #[serde(default)]
    pub compliance: f64,
}

/// `[[attachment]]`: particles of a body tied to a rigid body where they are at the start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttachmentSpec {
    /// The rigid body's name.
    pub rigid: String,
    /// The particle body's name (a cloth, rope, soft body, continuum or fluid).
    pub body: String,
    /// Indices of the tied particles within that body.
    pub particles: Vec<usize>,
    /// Compliance α (m/N; 0 = rigid).
    #[serde(default)]
    pub compliance: f64,
}
