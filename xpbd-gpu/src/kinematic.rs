//! The colliders both device steps take ([`crate::GpuSimulation`] for XPBD bodies,
//! [`crate::GpuXpbi`] for a continuum): a rigid shape at its pose, static or translating with a
//! constant velocity, with the core's contact law (`xpbd_core::contact`): `C = φ(x) − r ≥ 0`,
//! position-level Coulomb friction with static and kinetic coefficients on the displacement
//! relative to the collider, and velocity-level restitution.

use nalgebra::Vector3;

use crate::{GpuError, SceneCollider};

/// A rigid collider, static or translating: a plane, sphere, box, capsule or signed-distance
/// grid at its pose
/// ([`SceneCollider`], whose `friction` is the static Coulomb coefficient μ_s), particle
/// centres kept at `φ(x) ≥ r` (r: the scene's particle radius), with the core's Coulomb
/// friction on the displacement relative to the collider (`xpbd_core::contact::friction`:
/// static and kinetic coefficients) and its restitution.
///
/// ```
/// use nalgebra::Vector3;
/// use xpbd_gpu::testing::{KinematicCollider, SceneCollider};
/// let paddle = KinematicCollider {
///     shape: SceneCollider::Sphere { centre: Vector3::zeros(), radius: 0.1, friction: 0.5 },
///     kinetic_friction: 0.4,
///     velocity: Vector3::new(1.0, 0.0, 0.0),
///     restitution: 0.5,
/// };
/// assert_eq!(paddle.static_friction(), 0.5);
/// assert!(KinematicCollider::fixed(paddle.shape).velocity.norm() == 0.0);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct KinematicCollider {
    /// Shape and pose; its `friction` is μ_s ≥ 0.
    pub shape: SceneCollider,
    /// Kinetic Coulomb coefficient 0 ≤ μ_k ≤ μ_s.
    pub kinetic_friction: f64,
    /// Velocity of a kinematic collider (m/s; zero: static): it translates by `velocity Δt`
    /// over each step, as `xpbd_core::contact::Collider::velocity`, and by `velocity Δt / S`
    /// over each of S substeps.
    pub velocity: Vector3<f64>,
    /// Restitution e ∈ [0, 1]: the core's velocity-level restitution of a contact that was
    /// approaching faster than `2 a h` (`xpbd_core::contact`, Müller et al. 2020 §3.6).
    pub restitution: f64,
}

impl KinematicCollider {
    /// A static, inelastic collider with one Coulomb coefficient (the shape's).
    pub fn fixed(shape: SceneCollider) -> Self {
        Self {
            kinetic_friction: shape.friction(),
            shape,
            velocity: Vector3::zeros(),
            restitution: 0.0,
        }
    }

    /// The static Coulomb coefficient μ_s.
    pub fn static_friction(&self) -> f64 {
        self.shape.friction()
    }

    /// Whether it moves.
    pub fn is_moving(&self) -> bool {
        self.velocity.norm() != 0.0
    }
}

/// Checks a collider list for a device step that holds at most `max` (`step` names it in the
/// refusal): valid shapes, finite velocities, `0 ≤ μ_k ≤ μ_s`, `e ∈ [0, 1]`.
pub(crate) fn validate_colliders(
    colliders: &[KinematicCollider],
    max: usize,
    step: &'static str,
) -> Result<(), GpuError> {
    if colliders.len() > max {
        return Err(GpuError::Unsupported {
            what: format!("{} colliders", colliders.len()),
            reason: step,
        });
    }
    for (i, c) in colliders.iter().enumerate() {
        c.shape.validate(i)?;
        if let Some(&v) = c.velocity.iter().find(|v| !v.is_finite()) {
            return Err(GpuError::InvalidCollider {
                index: i,
                field: "velocity",
                value: v,
                reason: "must be finite",
            });
        }
        if !(0.0..=1.0).contains(&c.restitution) {
            return Err(GpuError::InvalidCollider {
                index: i,
                field: "restitution",
                value: c.restitution,
                reason: "must lie in [0, 1]",
            });
        }
        let (mu_s, mu_k) = (c.static_friction(), c.kinetic_friction);
        if !(mu_k.is_finite() && mu_k >= 0.0 && mu_k <= mu_s) {
            return Err(GpuError::InvalidCollider {
                index: i,
                field: "kinetic friction",
                value: mu_k,
                reason: "must lie in [0, static friction]",
            });
        }
    }
    Ok(())
}

/// The colliders of a core contact block as the device steps take them, in its order: each
/// at its current pose, with its velocity, friction and restitution; target poses are refused
/// by name.
pub fn kinematic_colliders(
    contacts: &xpbd_core::contact::ColliderContacts<3>,
) -> Result<Vec<KinematicCollider>, GpuError> {
    contacts
        .colliders()
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if contacts
                .target_pose(xpbd_core::contact::ColliderId(i))
                .is_some()
            {
                return Err(GpuError::Unsupported {
                    what: format!("collider {i}: a target pose"),
                    reason: "GPU colliders move with a constant velocity",
                });
            }
            Ok(KinematicCollider {
                shape: SceneCollider::from_core(i, c, c.friction.static_coefficient)?,
                kinetic_friction: c.friction.kinetic_coefficient,
                velocity: c.velocity,
                restitution: c.restitution,
            })
        })
        .collect()
}

/// Why the device steps cannot take a block of collider contacts against cloth triangles
/// (`xpbd_core::contact::ColliderTriangleContacts`), or `None` when the triangle contact can
/// never act, so that the device's per-vertex collider contact gives the CPU's result.
///
/// The device keeps every vertex at the contact radius r from the colliders and has no
/// triangle contact. A ball of radius R that every vertex of a triangle of circumradius ρ
/// keeps off by r cannot reach the triangle when `R ≥ (ρ² − r²)/(2r)` (derived in the core's
/// `ColliderTriangleContacts` docs), so the triangle contact stays inactive for spheres and
/// capsules with `R ≥ ρ²/(2r)` (a slightly larger bound). A box's corner can reach a triangle
/// between its vertices whatever its size, and is refused with any cloth. ρ is taken at the
/// positions `x` (the cloth as built or restored; a cloth stretched far beyond them enlarges
/// its triangles), r as the smallest contact radius of the triangle's vertices.
pub fn collider_triangle_refusal(
    contacts: &xpbd_core::contact::ColliderContacts<3>,
    triangles: &xpbd_core::contact::ColliderTriangleContacts,
    x: &[Vector3<f64>],
) -> Option<GpuError> {
    use xpbd_core::contact::Shape;
    const REASON: &str = "the GPU's collider contact holds the cloth's vertices only, and this \
        collider can pass through a cloth triangle between its vertices (a box's corner, or a \
        sphere or capsule of radius below rho^2/(2r) for triangles of circumradius rho and \
        contact radius r); the CPU backend models it with collider contact against the \
        triangles";
    if triangles.triangles().is_empty() {
        return None;
    }
    // The largest ρ²/(2r) over the triangles, with that triangle's ρ and r.
    let mut worst = (0.0f64, 0.0f64, f64::INFINITY);
    for t in triangles.triangles() {
        let [a, b, c] = t.map(|i| x.get(i as usize).copied().unwrap_or_else(Vector3::zeros));
        let (la, lb, lc) = ((b - c).norm(), (c - a).norm(), (a - b).norm());
        let double_area = (b - a).cross(&(c - a)).norm();
        let rho = if double_area > 0.0 {
            la * lb * lc / (2.0 * double_area)
        } else {
            f64::INFINITY
        };
        let r = t
            .iter()
            .map(|&i| contacts.radius_of_particle(i as usize))
            .fold(f64::INFINITY, f64::min);
        let reach = rho * rho / (2.0 * r);
        if reach.is_nan() || reach > worst.0 {
            worst = (reach, rho, r);
        }
    }
    let (reach, rho, r) = worst;
    for (k, c) in contacts.colliders().iter().enumerate() {
        let (name, radius) = match c.shape {
            Shape::Box { .. } => {
                return Some(GpuError::Unsupported {
                    what: format!("collider {k}: a box against a cloth's triangles"),
                    reason: REASON,
                });
            }
            Shape::Sphere { radius } => ("sphere", radius),
            Shape::Capsule { radius, .. } => ("capsule", radius),
            Shape::HalfSpace { .. } | Shape::Sdf(_) => continue,
        };
        let holds = matches!(
            radius.partial_cmp(&reach),
            Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal)
        );
        if !holds {
            return Some(GpuError::Unsupported {
                what: format!(
                    "collider {k}: a {name} of radius {radius} m against a cloth's triangles \
                     (circumradius {rho:.4} m, contact radius {r} m: triangle contact can act \
                     below rho^2/(2r) = {reach:.4} m)"
                ),
                reason: REASON,
            });
        }
    }
    None
}
