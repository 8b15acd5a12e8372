//! Non-associated Cam-clay (Wolper et al. 2019, CD-MPM; ziran2020 `NonAssociativeCamClay`), written
//! for StVK on Hencky strain (derived in the reference notes §1.8(c); the paper's exact Hencky
//! adaptation was not readable).
//!
//! ```text
//! κ = λ + 2μ/d,  p = −κ tr ε,  s = 2μ ε̂,  q = sqrt((6 − d)/2) ‖s‖       (3D: von Mises q)
//! p₀ = κ (1e-5 + sinh(ξ max(−α, 0))),   α = ln J_p (hardening state)
//! y(p, q) = (1 + 2β) q² + M² (p + β p₀)(p − p₀)
//! case 1  p > p₀:       tip  p = p₀   (tr ε = −p₀/κ, ε̂ = 0),   α += tr ε_tr − tr ε_new
//! case 2  p < −β p₀:    tip  p = −βp₀ (tr ε = βp₀/κ, ε̂ = 0),   α += tr ε_tr − tr ε_new
//! case 3a y ≤ 0:        elastic
//! case 3b               keep p (tr ε), q_new = M sqrt(−(p + βp₀)(p − p₀)/(1 + 2β)),
//!                       ε̂_new = ε̂ q_new / q;  hardening with ziran's "fake p": the ray from the
//!                       ellipse centre p_c = (1 − β)p₀/2 through (p, q) meets the ellipse at p_f,
//!                       α += (p_f − p)/κ  (= ln J − ln J_f with J_f = exp(−p_f/κ))
//! ```
//! `M` from the friction angle: `M = 6 sin φ / (3 − sin φ)` in 3D, and the ziran 2D form
//! `M = m_c d / sqrt(2/(6 − d))` with `m_c = sqrt(2/3) 2 sin φ/(3 − sin φ)`.

use nalgebra::SVector;

use super::{Lame, PlasticState, check_finite_nonneg, check_friction_angle, deviatoric};
use crate::error::XpbiError;

/// NACC parameters (SI, angle in degrees).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Nacc {
    /// Friction angle φ (degrees), sets the slope `M` of the critical state line.
    pub friction_angle: f64,
    /// Tension/compression ratio β ≥ 0 (cohesion).
    pub beta: f64,
    /// Hardening factor ξ ≥ 0.
    pub xi: f64,
}

impl Nacc {
    /// Checks φ ∈ (0°, 90°), β ≥ 0, ξ ≥ 0, finite.
    pub fn validate(&self) -> Result<(), XpbiError> {
        check_friction_angle(self.friction_angle)?;
        check_finite_nonneg("NACC beta", self.beta)?;
        check_finite_nonneg("NACC xi", self.xi)
    }

    /// Slope `M` of the critical state line in dimension `d`.
    pub fn m(&self, d: usize) -> f64 {
        let s = self.friction_angle.to_radians().sin();
        let mc = (2.0f64 / 3.0).sqrt() * 2.0 * s / (3.0 - s);
        mc * d as f64 / (2.0 / (6.0 - d as f64)).sqrt()
    }

    /// Bulk-like modulus `κ = λ + 2μ/d` relating `p = −κ tr ε`.
    pub fn kappa(lame: &Lame, d: usize) -> f64 {
        lame.lambda + 2.0 * lame.mu / d as f64
    }

    /// Compression cap `p₀(α)`.
    pub fn p0(&self, kappa: f64, state: &PlasticState) -> f64 {
        kappa * (1e-5 + (self.xi * (-state.hardening).max(0.0)).sinh())
    }

    /// Pressure `p` and shear invariant `q` of a principal strain.
    pub fn invariants<const D: usize>(eps: &SVector<f64, D>, lame: &Lame) -> (f64, f64) {
        let d = D as f64;
        let p = -Self::kappa(lame, D) * eps.sum();
        let q = ((6.0 - d) / 2.0).sqrt() * 2.0 * lame.mu * deviatoric(eps).norm();
        (p, q)
    }

    /// Yield function `y(p, q)` (≤ 0 inside).
    pub fn yield_function(&self, p: f64, q: f64, p0: f64, d: usize) -> f64 {
        let m = self.m(d);
        (1.0 + 2.0 * self.beta) * q * q + m * m * (p + self.beta * p0) * (p - p0)
    }

    pub(super) fn project<const D: usize>(
        &self,
        eps: &SVector<f64, D>,
        state: &PlasticState,
        lame: &Lame,
    ) -> (SVector<f64, D>, PlasticState) {
        let d = D as f64;
        let kappa = Self::kappa(lame, D);
        let p0 = self.p0(kappa, state);
        let (p, q) = Self::invariants(eps, lame);
        let tip = |p_tip: f64| {
            let eps_new = SVector::<f64, D>::repeat(-p_tip / (kappa * d));
            let next = PlasticState {
                hardening: state.hardening + eps.sum() - eps_new.sum(),
                ..*state
            };
            (eps_new, next)
        };
        if p > p0 {
            return tip(p0);
        }
        if p < -self.beta * p0 {
            return tip(-self.beta * p0);
        }
        let y = self.yield_function(p, q, p0, D);
        if y <= 0.0 || q == 0.0 {
            return (*eps, *state);
        }
        let m2 = self.m(D).powi(2);
        let one_2b = 1.0 + 2.0 * self.beta;
        let q_new = (m2 * (-(p + self.beta * p0) * (p - p0)) / one_2b)
            .max(0.0)
            .sqrt();
        let dev = deviatoric(eps);
        let eps_new = SVector::repeat(eps.sum() / d) + dev * (q_new / q);
        // Hardening: intersection of the ray (p_c, 0) → (p, q) with the ellipse.
        let mut next = *state;
        {
            let pc = (1.0 - self.beta) * p0 / 2.0;
            let (dp, dq) = (p - pc, q);
            let len = (dp * dp + dq * dq).sqrt();
            let (dp, dq) = (dp / len, dq / len);
            let a = m2 * dp * dp + one_2b * dq * dq;
            let b = m2 * dp * (2.0 * pc - p0 + self.beta * p0);
            let c = m2 * (pc + self.beta * p0) * (pc - p0);
            let l = (-b + (b * b - 4.0 * a * c).max(0.0).sqrt()) / (2.0 * a);
            let p_fake = pc + l * dp;
            next.hardening += (p_fake - p) / kappa;
        }
        (eps_new, next)
    }
}
