//! Colliders: `[[collider]]` shapes and poses, and the `[contacts]` settings they need.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::unit;

/// A collider's geometry in its local frame (centred at `center`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapeSpec {
    /// The half-space `n·x ≤ offset` (ground for n = z).
    Plane {
        /// Outward normal.
        #[serde(deserialize_with = "crate::exact::array")]
        normal: [f64; 3],
        /// Offset along the normal (m).
        offset: f64,
    },
    /// A ball.
    Sphere {
        /// Radius (m).
        radius: f64,
    },
    /// An axis-aligned box.
    Box {
        /// Half extents (m).
        #[serde(deserialize_with = "crate::exact::array")]
        half_extents: [f64; 3],
    },
    /// A capsule along x.
    Capsule {
        /// Half length of the axis (m).
        half_length: f64,
        /// Radius (m).
        radius: f64,
    },
    /// A closed, consistently oriented triangle mesh (`.obj` or `.ply`), as a signed-distance
    /// grid sampled at nodes `cell` apart over its bounding box grown by `padding`
    /// (`xpbd_core::contact::SdfGrid::from_mesh`; between nodes φ is trilinear, so detail
    /// finer than `cell` is smoothed). The mesh's coordinates, times `scale`, are the
    /// collider's local frame. E.g. `shape = { mesh = { path = "bowl.obj", cell = 0.01 } }`.
    Mesh {
        /// Path, relative to the scene file's folder.
        path: PathBuf,
        /// Node spacing of the grid (m, > 0).
        cell: f64,
        /// Margin around the mesh's bounding box (m, ≥ 0; default: 3 cells).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        padding: Option<f64>,
        /// Uniform scale applied to the vertices (default 1).
        #[serde(default = "unit")]
        scale: f64,
    },
}

impl ShapeSpec {
    /// Most nodes a mesh collider's grid may have (16.8 M, 134 MB of f64; built once per
    /// build in time proportional to nodes + triangles, `SdfGrid::from_mesh`).
    pub const MAX_MESH_NODES: f64 = 16_777_216.0;
}

/// `[[collider]]`: a rigid collider, static or translating with a constant velocity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColliderSpec {
    /// e.g. `shape = { sphere = { radius = 0.3 } }`.
    pub shape: ShapeSpec,
    /// Centre / translation of the local frame (m).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub center: [f64; 3],
    /// Orientation of the local frame as rotations about the world axes, in degrees:
    /// `[rx, ry, rz]` gives R = R_z(rz) R_y(ry) R_x(rx) (x first; e.g. `[0, 60, 0]` tilts a box
    /// wall 60° about y). Each angle must be finite with |angle| ≤ 360.
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub rotation_deg: [f64; 3],
    /// Coulomb friction coefficient μ (static = kinetic).
    #[serde(default)]
    pub friction: f64,
    /// Restitution coefficient e ∈ [0, 1].
    #[serde(default)]
    pub restitution: f64,
    /// Velocity (m/s) of a kinematic collider, which translates at it from the start (a
    /// bulldozer blade, a piston); absent or zero: static.
    #[serde(
        default,
        skip_serializing_if = "is_zero3",
        deserialize_with = "crate::exact::array"
    )]
    pub velocity: [f64; 3],
}

fn is_zero3(v: &[f64; 3]) -> bool {
    v.iter().all(|&c| c == 0.0)
}

impl ColliderSpec {
    /// The rotation matrix R = R_z(rz) R_y(ry) R_x(rx) of [`ColliderSpec::rotation_deg`]
    /// (columns: the local axes in world coordinates, as `xpbd_core::contact::Pose`).
    pub fn rotation(&self) -> xpbd_core::Matrix<3> {
        let [rx, ry, rz] = self.rotation_deg.map(f64::to_radians);
        let (sx, cx) = rx.sin_cos();
        let (sy, cy) = ry.sin_cos();
        let (sz, cz) = rz.sin_cos();
        let x = xpbd_core::Matrix::<3>::new(1.0, 0.0, 0.0, 0.0, cx, -sx, 0.0, sx, cx);
        let y = xpbd_core::Matrix::<3>::new(cy, 0.0, sy, 0.0, 1.0, 0.0, -sy, 0.0, cy);
        let z = xpbd_core::Matrix::<3>::new(cz, -sz, 0.0, sz, cz, 0.0, 0.0, 0.0, 1.0);
        z * y * x
    }
}

/// `[contacts]`: particle radius and candidate margin for collider contacts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContactSection {
    /// Particle radius r (m, > 0).
    pub radius: f64,
    /// Extra candidate margin (m, ≥ 0).
    #[serde(default)]
    pub margin: f64,
}
