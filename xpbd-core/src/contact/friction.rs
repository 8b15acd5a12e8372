//! Position-level Coulomb friction and velocity-level restitution, shared by every contact
//! kind.
//!
//! A contact constraint `C ≥ 0` with unit normal `n` has gradients `∇ₖC = sₖ n` (scalars
//! `sₖ`: `1` for a particle against a collider, `(1, −1)` for a particle pair,
//! `(1, −β₀, −β₁, −β₂)` for a point against a triangle with barycentric weights β). The
//! *relative* displacement over the substep is `Δx_rel = Σₖ sₖ (xₖ − xₖ_prev) − Δx_obstacle`,
//! its tangential part `Δx_t = Δx_rel − (Δx_rel·n) n`, and a correction `δ` of the relative
//! position is shared as `Δxₖ = −wₖ sₖ δ / W`, `W = Σₖ wₖ sₖ²`: the XPBD update of a rigid
//! tangential constraint, which conserves momentum between the particles.
//!
//! Coulomb's law at the position level (Müller et al. 2020, "Detailed Rigid Body Simulation
//! with Extended Position Based Dynamics", §3.5; Macklin et al. 2019 "Small Steps", eqs. 11–12,
//! after Macklin et al. 2014 "Unified Particle Physics", eqs. 24–25): the normal correction of
//! the relative position is `d_n = W λ_n` (λ_n the accumulated normal multiplier of the
//! substep) and each contact remembers the tangential correction `τ` it has applied so far in
//! the substep (Müller's accumulated λ_t). With `|Δx_t| + τ` the tangential motion friction has
//! to act on, the contact sticks — `δ = Δx_t` — when `|Δx_t| + τ ≤ μ_s d_n`; otherwise it slides
//! and `δ` has length `min(μ_k d_n − τ, |Δx_t|)` (nothing when negative). Both tests use
//! substep totals, so the result does not depend on how many iterations (or, for Jacobi, how
//! many partial corrections) it took to build up λ_n.
//!
//! For a particle at rest on a plane tilted by θ under gravity g this gives, per substep h,
//! `d_n = g cos θ h²` and a tangential step `g sin θ h²` (plus the current tangential motion):
//! the particle sticks exactly when `tan θ ≤ μ_s` and otherwise accelerates at
//! `g (sin θ − μ_k cos θ)` (derived; tested in `tests/contact_friction.rs`).

use std::sync::atomic::{AtomicU64, Ordering};

use super::error::ContactError;
use crate::Vector;

/// Static and kinetic Coulomb coefficients, with `0 ≤ μ_k ≤ μ_s`.
///
/// ```
/// use xpbd_core::contact::Friction;
/// let f = Friction::new(0.6, 0.4).unwrap();
/// assert!(Friction::new(0.4, 0.6).is_err());
/// assert_eq!(Friction::NONE.static_coefficient, 0.0);
/// # let _ = f;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Friction {
    /// μ_s: sticking while the tangential step is below μ_s × the normal correction.
    pub static_coefficient: f64,
    /// μ_k: the sliding resistance as a fraction of the normal correction.
    pub kinetic_coefficient: f64,
}

impl Friction {
    /// Frictionless.
    pub const NONE: Self = Self {
        static_coefficient: 0.0,
        kinetic_coefficient: 0.0,
    };

    /// Checked coefficients.
    pub fn new(static_coefficient: f64, kinetic_coefficient: f64) -> Result<Self, ContactError> {
        let f = Self {
            static_coefficient,
            kinetic_coefficient,
        };
        f.validate()?;
        Ok(f)
    }

    /// The same coefficient for sticking and sliding.
    pub fn coulomb(mu: f64) -> Result<Self, ContactError> {
        Self::new(mu, mu)
    }

    /// Finite, non-negative, `μ_k ≤ μ_s`.
    pub fn validate(&self) -> Result<(), ContactError> {
        for (field, value) in [
            ("static coefficient", self.static_coefficient),
            ("kinetic coefficient", self.kinetic_coefficient),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(ContactError::InvalidFriction {
                    field,
                    value,
                    reason: "must be finite and >= 0",
                });
            }
        }
        if self.kinetic_coefficient > self.static_coefficient {
            return Err(ContactError::InvalidFriction {
                field: "kinetic coefficient",
                value: self.kinetic_coefficient,
                reason: "must not exceed the static coefficient",
            });
        }
        Ok(())
    }

    /// Whether both coefficients are zero.
    pub fn is_none(&self) -> bool {
        self.static_coefficient == 0.0 && self.kinetic_coefficient == 0.0
    }
}

/// Checks a restitution coefficient `e ∈ [0, 1]`.
pub(crate) fn check_restitution(e: f64) -> Result<(), ContactError> {
    if (0.0..=1.0).contains(&e) {
        Ok(())
    } else {
        Err(ContactError::InvalidRestitution { value: e })
    }
}

/// `(n, W)` from the contact gradients: `n = ∇₀C` (unit by construction of every contact kind)
/// and `W = Σ wₖ sₖ²` with `sₖ = ∇ₖC·n`.
#[inline(always)]
fn normal_and_weight<const D: usize>(
    idx: &[u32],
    grad: &[Vector<D>],
    w: &[f64],
    s: &mut [f64],
) -> (Vector<D>, f64) {
    let n = grad[0];
    (n, weight_along(&n, idx, grad, w, s))
}

/// `W = Σ wₖ sₖ²` with `sₖ = ∇ₖC·n` for a given unit normal `n`.
#[inline(always)]
fn weight_along<const D: usize>(
    n: &Vector<D>,
    idx: &[u32],
    grad: &[Vector<D>],
    w: &[f64],
    s: &mut [f64],
) -> f64 {
    let mut weight = 0.0;
    for k in 0..idx.len() {
        s[k] = grad[k].dot(n);
        weight += w[idx[k] as usize] * s[k] * s[k];
    }
    weight
}

/// The tangential correction τ each contact has applied in the current substep (module docs).
///
/// Stored as `f64` bits in relaxed atomics so the kernel can update it through `&self`: every
/// sweep projects a given contact from one thread at a time (the colouring and Jacobi
/// invariants), so the values are deterministic.
#[derive(Debug, Default)]
pub(crate) struct TangentialBudget(Vec<AtomicU64>);

impl Clone for TangentialBudget {
    fn clone(&self) -> Self {
        Self(
            self.0
                .iter()
                .map(|a| AtomicU64::new(a.load(Ordering::Relaxed)))
                .collect(),
        )
    }
}

impl TangentialBudget {
    /// `n` contacts with τ = 0.
    pub(crate) fn reset(&mut self, n: usize) {
        self.0.clear();
        self.0.resize_with(n, || AtomicU64::new(0));
    }

    #[inline(always)]
    fn get(&self, c: usize) -> f64 {
        f64::from_bits(self.0[c].load(Ordering::Relaxed))
    }

    #[inline(always)]
    fn set(&self, c: usize, value: f64) {
        self.0[c].store(value.to_bits(), Ordering::Relaxed);
    }
}

/// The most work (J) a contact with multiplier `lambda` does on its particles in a substep of
/// length `h` while its obstacle moves by `displacement` (m): it pushes with the normal force
/// `λ/h²` and rubs with at most `μ_k λ/h²` (Coulomb), so `(1 + μ_k) λ |d| / h²`; none when the
/// contact is inactive (λ ≤ 0). The energy audit's allowance for moving colliders.
#[inline]
pub(crate) fn driven_contact_work(
    friction: &Friction,
    lambda: f64,
    displacement: f64,
    h: f64,
) -> f64 {
    if lambda <= 0.0 {
        return 0.0;
    }
    (1.0 + friction.kinetic_coefficient) * lambda * displacement / (h * h)
}

/// Applies Coulomb friction (module docs) to the local stencil copy `xs` of contact `c`;
/// returns whether it moved anything. `obstacle_displacement` is the collider's motion at the
/// contact over the substep (zero between particles). At most 4 stencil entries.
#[inline]
pub(crate) fn apply_coulomb_friction<const D: usize>(
    friction: &Friction,
    budget: &TangentialBudget,
    c: usize,
    idx: &[u32],
    xs: &mut [Vector<D>],
    grad: &[Vector<D>],
    x_prev: &[Vector<D>],
    w: &[f64],
    obstacle_displacement: Vector<D>,
    lambda: f64,
) -> bool {
    apply_coulomb_friction_along(
        grad[0],
        friction,
        budget,
        c,
        idx,
        xs,
        grad,
        x_prev,
        w,
        obstacle_displacement,
        lambda,
    )
}

/// [`apply_coulomb_friction`] for a contact whose first gradient is not the unit normal (a
/// collider against a triangle, `∇ₖC = −βₖ n̂`): `normal` is the unit normal, and the
/// gradients' scalars are `sₖ = ∇ₖC·normal`.
#[inline]
pub(crate) fn apply_coulomb_friction_along<const D: usize>(
    normal: Vector<D>,
    friction: &Friction,
    budget: &TangentialBudget,
    c: usize,
    idx: &[u32],
    xs: &mut [Vector<D>],
    grad: &[Vector<D>],
    x_prev: &[Vector<D>],
    w: &[f64],
    obstacle_displacement: Vector<D>,
    lambda: f64,
) -> bool {
    if friction.is_none() || lambda <= 0.0 {
        return false;
    }
    let mut s = [0.0; 4];
    let n = normal;
    let weight = weight_along(&n, idx, grad, w, &mut s);
    if weight <= 0.0 {
        return false;
    }
    let mut rel = -obstacle_displacement;
    for k in 0..idx.len() {
        rel += (xs[k] - x_prev[idx[k] as usize]) * s[k];
    }
    let tangential = rel - n * rel.dot(&n);
    let t_len = tangential.norm();
    if t_len <= 0.0 {
        return false;
    }
    let normal_correction = weight * lambda;
    let used = budget.get(c);
    let applied = if t_len + used <= friction.static_coefficient * normal_correction {
        t_len
    } else {
        (friction.kinetic_coefficient * normal_correction - used).min(t_len)
    };
    if applied <= 0.0 {
        return false;
    }
    budget.set(c, used + applied);
    let delta = tangential * (applied / t_len);
    for k in 0..idx.len() {
        xs[k] -= delta * (w[idx[k] as usize] * s[k] / weight);
    }
    true
}

/// Velocity-level restitution (Müller et al. 2020, §3.6): with `v̄_n` the relative normal
/// velocity at the start of the substep (before the solve) and `v_n` the one after the
/// velocity update, a contact that was approaching faster than `threshold`
/// (`v̄_n < −threshold`) gets `v_n ← −e v̄_n`, the change shared like the positions
/// (`Δvₖ = wₖ sₖ n Δv_n / W`). Below the threshold nothing is done (e = 0 in effect), which
/// keeps resting contacts from jittering. `v` holds the stencil's velocities, `v_pre` their
/// values at the start of the substep; `obstacle_velocity` the collider's velocity at the
/// contact. Returns the velocity changes to add.
#[inline]
pub(crate) fn restitution_impulse<const D: usize>(
    restitution: f64,
    threshold: f64,
    idx: &[u32],
    grad: &[Vector<D>],
    w: &[f64],
    v: &[Vector<D>],
    v_pre: &[Vector<D>],
    obstacle_velocity: Vector<D>,
    out: &mut [Vector<D>],
) -> bool {
    let mut s = [0.0; 4];
    let (n, weight) = normal_and_weight(idx, grad, w, &mut s);
    if weight <= 0.0 {
        return false;
    }
    let mut vn = -obstacle_velocity.dot(&n);
    let mut vn_pre = vn;
    for k in 0..idx.len() {
        vn += s[k] * v[k].dot(&n);
        vn_pre += s[k] * v_pre[k].dot(&n);
    }
    if vn_pre >= -threshold {
        return false;
    }
    let dvn = -restitution * vn_pre - vn;
    for k in 0..idx.len() {
        out[k] = n * (w[idx[k] as usize] * s[k] * dvn / weight);
    }
    true
}
