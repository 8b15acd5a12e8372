//! One rigid body: its pose, velocities, mass properties and the two correction primitives
//! every contact and joint is built from (Müller, Macklin, Chentanez, Jeschke & Kim 2020,
//! "Detailed Rigid Body Simulation with Extended Position Based Dynamics", §3).
//!
//! The body frame sits at the centre of mass with its axes along the principal axes of
//! inertia, so the body-frame inertia `I_b` is diagonal. World quantities follow from the
//! orientation `q` (a unit quaternion, rotation `R`): `I⁻¹ = R I_b⁻¹ Rᵀ`.

use nalgebra::{Quaternion, UnitQuaternion};

use super::error::RigidError;
use crate::contact::{Friction, Pose, Shape};
use crate::{Matrix, Vector};

/// Mass `m` and the principal moments of inertia `I_b` (body frame at the centre of mass,
/// axes along the principal axes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MassProperties {
    /// Mass (kg).
    pub mass: f64,
    /// Principal moments (kg m²).
    pub inertia: Vector<3>,
}

impl MassProperties {
    /// A solid ball: `m = ρ 4/3 π r³`, `I = 2/5 m r²` about every axis.
    pub fn sphere(radius: f64, density: f64) -> Self {
        let mass = density * 4.0 / 3.0 * std::f64::consts::PI * radius.powi(3);
        let i = 0.4 * mass * radius * radius;
        Self {
            mass,
            inertia: Vector::<3>::repeat(i),
        }
    }

    /// A solid box of half extents `h`: `m = 8 ρ h₀h₁h₂`, `I₀ = m (h₁² + h₂²)/3` (and cyclic;
    /// the usual `m (b² + c²)/12` with full sides `b = 2h₁`, `c = 2h₂`).
    pub fn cuboid(half_extents: Vector<3>, density: f64) -> Self {
        let h = half_extents;
        let mass = 8.0 * density * h.x * h.y * h.z;
        let s = h.component_mul(&h);
        Self {
            mass,
            inertia: Vector::<3>::new(s.y + s.z, s.x + s.z, s.x + s.y) * (mass / 3.0),
        }
    }

    /// A solid capsule along x (axis segment `±L e₀`, radius r): a cylinder of mass
    /// `m_c = ρ π r² 2L` and two hemispheres of total mass `m_s = ρ 4/3 π r³`.
    /// `I_x = m_c r²/2 + 2/5 m_s r²`; about a transverse axis through the centre
    /// `I_⊥ = m_c (r²/4 + L²/3) + m_s (2r²/5 + L² + 3Lr/4)` (each hemisphere's own moment
    /// `(2/5 − 9/64) (m_s/2) r²` moved by the parallel-axis theorem to its centroid `L + 3r/8`).
    pub fn capsule(half_length: f64, radius: f64, density: f64) -> Self {
        let (l, r) = (half_length, radius);
        let pi = std::f64::consts::PI;
        let m_c = density * pi * r * r * 2.0 * l;
        let m_s = density * 4.0 / 3.0 * pi * r.powi(3);
        let axial = m_c * r * r / 2.0 + 0.4 * m_s * r * r;
        let transverse =
            m_c * (r * r / 4.0 + l * l / 3.0) + m_s * (0.4 * r * r + l * l + 0.75 * l * r);
        Self {
            mass: m_c + m_s,
            inertia: Vector::<3>::new(axial, transverse, transverse),
        }
    }

    /// The mass properties of a shape at a density: sphere, box and capsule; a half-space has
    /// none and a signed-distance grid keeps no mesh (use [`MassProperties::from_mesh`]).
    pub fn of_shape(shape: &Shape<3>, density: f64) -> Result<Self, RigidError> {
        match shape {
            Shape::Sphere { radius } => Ok(Self::sphere(*radius, density)),
            Shape::Box { half_extents } => Ok(Self::cuboid(*half_extents, density)),
            Shape::Capsule {
                half_length,
                radius,
            } => Ok(Self::capsule(*half_length, *radius, density)),
            Shape::HalfSpace { .. } => Err(RigidError::UnsupportedShape {
                shape: "half-space",
                reason: "it has no finite mass",
            }),
            Shape::Sdf(_) => Err(RigidError::UnsupportedShape {
                shape: "signed-distance grid",
                reason: "its mass properties come from the mesh (MassProperties::from_mesh)",
            }),
        }
    }

    /// The same body scaled to mass `mass` (inertia scales with it).
    pub fn with_mass(self, mass: f64) -> Self {
        let s = mass / self.mass;
        Self {
            mass,
            inertia: self.inertia * s,
        }
    }

    /// Positive, finite mass and moments obeying the triangle inequality
    /// `I_i ≤ I_j + I_k` (every real mass distribution does).
    pub fn validate(&self) -> Result<(), RigidError> {
        if !(self.mass.is_finite() && self.mass > 0.0) {
            return Err(RigidError::BadMass { value: self.mass });
        }
        let i = self.inertia;
        let ok = i.iter().all(|v| v.is_finite() && *v > 0.0)
            && (0..3).all(|k| i[k] <= (i[(k + 1) % 3] + i[(k + 2) % 3]) * (1.0 + 1e-9));
        if !ok {
            return Err(RigidError::DegenerateInertia {
                moments: [i.x, i.y, i.z],
            });
        }
        Ok(())
    }
}

/// A rigid body: geometry, material and state. Build with [`RigidBody::new`], then place it
/// with the `at`/`moving` methods.
#[derive(Debug, Clone)]
pub struct RigidBody {
    /// The contact geometry in the body frame (centre of mass at the origin, principal axes).
    pub shape: Shape<3>,
    /// Inverse mass 1/m (1/kg).
    pub inv_mass: f64,
    /// Inverse principal moments `I_b⁻¹` (1/(kg m²)).
    pub inv_inertia: Vector<3>,
    /// Coulomb friction of this body's contacts (a pair uses the mean of its two).
    pub friction: Friction,
    /// Restitution of this body's contacts (a pair uses the mean).
    pub restitution: f64,
    /// Position of the centre of mass x (m).
    pub x: Vector<3>,
    /// Orientation q (unit quaternion, body → world).
    pub q: Quaternion<f64>,
    /// Linear velocity v (m/s).
    pub v: Vector<3>,
    /// Angular velocity ω in world coordinates (rad/s).
    pub omega: Vector<3>,
    /// Pose at the start of the substep (for the velocity update and friction).
    pub(crate) x_prev: Vector<3>,
    pub(crate) q_prev: Quaternion<f64>,
    /// The free rotation's angular velocity at the midpoint and at the end of the substep.
    pub(crate) omega_mid: Vector<3>,
    pub(crate) omega_end: Vector<3>,
}

impl RigidBody {
    /// A body at rest at the origin, identity orientation.
    pub fn new(shape: Shape<3>, mass: MassProperties) -> Result<Self, RigidError> {
        shape.validate().map_err(RigidError::Shape)?;
        mass.validate()?;
        if matches!(shape, Shape::HalfSpace { .. }) {
            return Err(RigidError::UnsupportedShape {
                shape: "half-space",
                reason: "it has no finite extent",
            });
        }
        Ok(Self {
            shape,
            inv_mass: 1.0 / mass.mass,
            inv_inertia: mass.inertia.map(|i| 1.0 / i),
            friction: Friction::NONE,
            restitution: 0.0,
            x: Vector::<3>::zeros(),
            q: Quaternion::identity(),
            v: Vector::<3>::zeros(),
            omega: Vector::<3>::zeros(),
            x_prev: Vector::<3>::zeros(),
            q_prev: Quaternion::identity(),
            omega_mid: Vector::<3>::zeros(),
            omega_end: Vector::<3>::zeros(),
        })
    }

    /// A body of the given shape and density (sphere, box or capsule).
    ///
    /// ```
    /// use xpbd_core::contact::Shape;
    /// use xpbd_core::rigid::RigidBody;
    /// let ball = RigidBody::solid(Shape::Sphere { radius: 0.1 }, 1000.0).unwrap();
    /// assert!((1.0 / ball.inv_mass - 4.18879).abs() < 1e-4);
    /// assert!(RigidBody::solid(Shape::Sphere { radius: 0.1 }, -1.0).is_err());
    /// ```
    pub fn solid(shape: Shape<3>, density: f64) -> Result<Self, RigidError> {
        if !(density.is_finite() && density > 0.0) {
            return Err(RigidError::BadDensity { value: density });
        }
        shape.validate().map_err(RigidError::Shape)?;
        let mass = MassProperties::of_shape(&shape, density)?;
        Self::new(shape, mass)
    }

    /// Placed at `x` with orientation `q` (normalised; a zero quaternion is refused).
    pub fn at(mut self, x: Vector<3>, q: Quaternion<f64>) -> Result<Self, RigidError> {
        let n = q.norm();
        if !(n.is_finite() && n > 0.0) || x.iter().any(|v| !v.is_finite()) {
            return Err(RigidError::NonFiniteState { field: "pose" });
        }
        self.x = x;
        self.q = q / n;
        self.x_prev = self.x;
        self.q_prev = self.q;
        Ok(self)
    }

    /// Moving with linear velocity `v` and angular velocity `omega` (world frame).
    pub fn moving(mut self, v: Vector<3>, omega: Vector<3>) -> Result<Self, RigidError> {
        if v.iter().chain(omega.iter()).any(|c| !c.is_finite()) {
            return Err(RigidError::NonFiniteState { field: "velocity" });
        }
        self.v = v;
        self.omega = omega;
        Ok(self)
    }

    /// With friction and restitution `e ∈ [0, 1]`.
    pub fn with_contact(
        mut self,
        friction: Friction,
        restitution: f64,
    ) -> Result<Self, RigidError> {
        friction.validate().map_err(RigidError::Shape)?;
        if !(0.0..=1.0).contains(&restitution) {
            return Err(RigidError::BadRestitution { value: restitution });
        }
        self.friction = friction;
        self.restitution = restitution;
        Ok(self)
    }

    /// Mass m (kg).
    pub fn mass(&self) -> f64 {
        1.0 / self.inv_mass
    }

    /// The rotation matrix R of q.
    #[inline]
    pub fn rotation(&self) -> Matrix<3> {
        rotation_of(&self.q)
    }

    /// The pose (R, x): body → world.
    pub fn pose(&self) -> Pose<3> {
        Pose {
            translation: self.x,
            rotation: self.rotation(),
        }
    }

    /// The pose at the start of the substep.
    pub(crate) fn pose_prev(&self) -> Pose<3> {
        Pose {
            translation: self.x_prev,
            rotation: rotation_of(&self.q_prev),
        }
    }

    /// World inverse inertia applied to a world vector: `R I_b⁻¹ Rᵀ a`.
    #[inline]
    pub fn inv_inertia_times(&self, a: &Vector<3>) -> Vector<3> {
        let r = self.rotation();
        r * self.inv_inertia.component_mul(&r.tr_mul(a))
    }

    /// Angular momentum about the centre of mass, `L = R I_b Rᵀ ω` (kg m²/s).
    pub fn angular_momentum(&self) -> Vector<3> {
        let r = self.rotation();
        r * r.tr_mul(&self.omega).component_div(&self.inv_inertia)
    }

    /// Kinetic energy `½ m v² + ½ ωᵀ I ω` (J).
    pub fn kinetic_energy(&self) -> f64 {
        0.5 * self.v.norm_squared() / self.inv_mass + 0.5 * self.omega.dot(&self.angular_momentum())
    }

    /// Generalized inverse mass of a positional correction along unit `n` at the world offset
    /// `r` from the centre of mass: `w = 1/m + (r×n)ᵀ I⁻¹ (r×n)` (Müller et al. 2020, eq. 2).
    #[inline]
    pub fn positional_weight(&self, r: &Vector<3>, n: &Vector<3>) -> f64 {
        let rn = r.cross(n);
        self.inv_mass + rn.dot(&self.inv_inertia_times(&rn))
    }

    /// Generalized inverse mass of a rotation about unit `n`: `w = nᵀ I⁻¹ n` (eq. 3).
    #[inline]
    pub fn angular_weight(&self, n: &Vector<3>) -> f64 {
        n.dot(&self.inv_inertia_times(n))
    }

    /// Applies the positional impulse `p` at world offset `r`: `x += p/m`,
    /// `q += ½ [I⁻¹(r×p), 0] q`, then normalises q (eqs. 6–9).
    #[inline]
    pub fn apply_positional(&mut self, p: &Vector<3>, r: &Vector<3>) {
        self.x += p * self.inv_mass;
        let dw = self.inv_inertia_times(&r.cross(p));
        self.rotate_by(&dw);
    }

    /// Applies the angular impulse `p` (a rotation vector times a multiplier):
    /// `q += ½ [I⁻¹ p, 0] q` (eq. 14).
    #[inline]
    pub fn apply_angular(&mut self, p: &Vector<3>) {
        let dw = self.inv_inertia_times(p);
        self.rotate_by(&dw);
    }

    /// `q ← normalise(q + ½ [θ, 0] q)` for a small rotation vector θ.
    #[inline]
    fn rotate_by(&mut self, theta: &Vector<3>) {
        let dq = Quaternion::new(0.0, theta.x, theta.y, theta.z) * self.q * 0.5;
        self.q = (self.q + dq).normalize();
    }

    /// Applies the velocity impulse `p` at world offset `r`: `v += p/m`, `ω += I⁻¹(r×p)`.
    #[inline]
    pub fn apply_impulse(&mut self, p: &Vector<3>, r: &Vector<3>) {
        self.v += p * self.inv_mass;
        self.omega += self.inv_inertia_times(&r.cross(p));
    }

    /// Velocity of the material point at world offset `r`: `v + ω × r`.
    #[inline]
    pub fn point_velocity(&self, r: &Vector<3>) -> Vector<3> {
        self.v + self.omega.cross(r)
    }

    /// The prediction of a substep of length h under gravity g: `v ← v + h g`, `x ← x + h v`,
    /// and the free rotation at constant angular momentum `L = I ω` by the implicit midpoint
    /// rule: `q' = Δq(h ω_m) q` with `ω_m = I⁻¹(q_m) L` the angular velocity at the half-way
    /// orientation `q_m = Δq(h ω_m / 2) q`, solved by fixed-point iteration (it contracts with
    /// factor ≈ h|ω|). `Δq(θ) = (√(1 − |θ/2|²), θ/2)` is the rotation whose vector part the
    /// velocity update inverts (`ω = 2 Δq_xyz / h`).
    ///
    /// The velocity update then returns `ω' = I⁻¹(q') L + (ω_Δq − ω_m)`: the free body's
    /// angular velocity at the end of the substep plus whatever the constraints changed. So a
    /// torque-free body keeps L to round-off and, the rule being symmetric, its energy without
    /// secular drift; the explicit update of the paper (`ω += h I⁻¹(−ω × Iω)`, then
    /// `q += ½ h [ω, 0] q`) loses or gains energy at O(h) per unit time, which moves the
    /// period of the intermediate-axis flip (it depends on the energy logarithmically close
    /// to the separatrix).
    pub fn predict(&mut self, h: f64, gravity: &Vector<3>) {
        self.x_prev = self.x;
        self.q_prev = self.q;
        self.v += gravity * h;
        self.x += self.v * h;
        let l = self.angular_momentum();
        let mut omega = self.omega;
        if l.norm_squared() > 0.0 {
            for _ in 0..64 {
                let q_mid = (small_rotation(&(omega * (0.5 * h))) * self.q).normalize();
                let r = rotation_of(&q_mid);
                let next = r * self.inv_inertia.component_mul(&r.tr_mul(&l));
                let change = (next - omega).norm();
                omega = next;
                if change <= 1e-15 * omega.norm() {
                    break;
                }
            }
        }
        self.q = (small_rotation(&(omega * h)) * self.q).normalize();
        let r = rotation_of(&self.q);
        self.omega_mid = omega;
        self.omega_end = r * self.inv_inertia.component_mul(&r.tr_mul(&l));
    }

    /// The velocity update: `v = (x − x_prev)/h`; `ω_Δq = 2 Δq_xyz / h` with
    /// `Δq = q q_prev⁻¹` (negated when its scalar part is negative, the shorter rotation) and
    /// `ω = ω_end + (ω_Δq − ω_m)` (see [`RigidBody::predict`]).
    pub fn update_velocities(&mut self, h: f64) {
        self.v = (self.x - self.x_prev) / h;
        let dq = self.q * self.q_prev.conjugate();
        let sign = if dq.w < 0.0 { -1.0 } else { 1.0 };
        let omega_dq = Vector::<3>::new(dq.i, dq.j, dq.k) * (2.0 * sign / h);
        self.omega = self.omega_end + (omega_dq - self.omega_mid);
    }

    /// Whether every state entry is finite.
    pub fn is_finite(&self) -> bool {
        self.x.iter().all(|v| v.is_finite())
            && self.q.coords.iter().all(|v| v.is_finite())
            && self.v.iter().all(|v| v.is_finite())
            && self.omega.iter().all(|v| v.is_finite())
    }

    /// The state `[x, q (w, i, j, k), v, ω]` (13 numbers), as checkpoints store it.
    pub fn state(&self) -> [f64; STATE_LEN] {
        let (x, q, v, w) = (self.x, self.q, self.v, self.omega);
        [
            x.x, x.y, x.z, q.w, q.i, q.j, q.k, v.x, v.y, v.z, w.x, w.y, w.z,
        ]
    }

    /// Restores [`RigidBody::state`].
    pub fn set_state(&mut self, s: &[f64; STATE_LEN]) {
        self.x = Vector::<3>::new(s[0], s[1], s[2]);
        self.q = Quaternion::new(s[3], s[4], s[5], s[6]);
        self.v = Vector::<3>::new(s[7], s[8], s[9]);
        self.omega = Vector::<3>::new(s[10], s[11], s[12]);
        self.x_prev = self.x;
        self.q_prev = self.q;
    }

    /// Radius of the smallest ball about the centre of mass that holds the shape (m).
    pub fn bounding_radius(&self) -> f64 {
        match &self.shape {
            Shape::Sphere { radius } => *radius,
            Shape::Box { half_extents } => half_extents.norm(),
            Shape::Capsule {
                half_length,
                radius,
            } => half_length + radius,
            Shape::Sdf(grid) => {
                let o = grid.origin();
                let d = grid.dims();
                let c = grid.cell_size();
                let far = o + Vector::<3>::new(
                    (d[0] - 1) as f64 * c,
                    (d[1] - 1) as f64 * c,
                    (d[2] - 1) as f64 * c,
                );
                let mut r: f64 = 0.0;
                for k in 0..8 {
                    let corner = Vector::<3>::new(
                        if k & 1 == 0 { o.x } else { far.x },
                        if k & 2 == 0 { o.y } else { far.y },
                        if k & 4 == 0 { o.z } else { far.z },
                    );
                    r = r.max(corner.norm());
                }
                r
            }
            Shape::HalfSpace { .. } => f64::INFINITY,
        }
    }
}

/// The unit quaternion `(√(1 − |θ/2|²), θ/2)` of a rotation vector θ (|θ| < 2; clamped).
#[inline]
fn small_rotation(theta: &Vector<3>) -> Quaternion<f64> {
    let half = theta * 0.5;
    let s = half.norm_squared().min(1.0);
    Quaternion::new((1.0 - s).sqrt(), half.x, half.y, half.z)
}

/// Numbers per body in a checkpoint.
pub const STATE_LEN: usize = 13;

/// Rotation matrix of a unit quaternion.
#[inline]
pub fn rotation_of(q: &Quaternion<f64>) -> Matrix<3> {
    UnitQuaternion::new_unchecked(*q)
        .to_rotation_matrix()
        .into_inner()
}

/// The quaternion of `R = R_z(rz) R_y(ry) R_x(rx)` (angles in degrees), the scene files'
/// `rotation_deg` convention.
pub fn quaternion_from_degrees(deg: [f64; 3]) -> Quaternion<f64> {
    let [rx, ry, rz] = deg.map(f64::to_radians);
    UnitQuaternion::from_euler_angles(rx, ry, rz).into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A positional impulse `p` at `r` moves the material point at `r` by `w p` along `p`'s
    /// direction to first order (w the generalized inverse mass).
    #[test]
    fn positional_impulse_moves_the_point_by_the_generalized_inverse_mass() {
        let mut b = RigidBody::solid(
            Shape::Box {
                half_extents: Vector::<3>::new(0.1, 0.2, 0.3),
            },
            700.0,
        )
        .unwrap()
        .at(
            Vector::<3>::new(0.3, -0.2, 1.0),
            quaternion_from_degrees([10.0, 20.0, 30.0]),
        )
        .unwrap();
        let local = Vector::<3>::new(0.1, -0.2, 0.25);
        let r = b.pose().to_world(&local) - b.x;
        let n = Vector::<3>::new(0.3, -0.5, 0.8).normalize();
        let w = b.positional_weight(&r, &n);
        let before = b.pose().to_world(&local);
        let mag = 1e-7;
        b.apply_positional(&(n * mag), &r);
        let moved = b.pose().to_world(&local) - before;
        let rel = (moved.dot(&n) - w * mag).abs() / (w * mag);
        assert!(
            rel < 1e-5,
            "moved {:e} along n, expected {:e}",
            moved.dot(&n),
            w * mag
        );
    }
}
