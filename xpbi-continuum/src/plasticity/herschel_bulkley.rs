//! Herschel–Bulkley viscoplasticity (Yue et al. 2015, "Continuum Foam") on Hencky strain
//! (phys-sim-book for the Bingham case; general exponent derived).
//!
//! Flow rule `ṡ = −2μ γ̇`, `γ̇ = ((s − τ_Y)/η)^{1/h}` for `s > τ_Y`; backward Euler over Δt:
//!
//! ```text
//! s_tr = 2μ‖ε̂‖;  s_tr ≤ τ_Y: elastic;  else solve for s ∈ [τ_Y, s_tr]
//!   η^{1/h} (s − s_tr) + 2μΔt (s − τ_Y)^{1/h} = 0
//! with s = τ_Y + t (s_tr − τ_Y), t ∈ [0, 1], c = η^{1/h} (s_tr − τ_Y)^{1 − 1/h} / (2μΔt):
//!   f(t) = t^{1/h} + c (t − 1) = 0,  f(0) = −c ≤ 0,  f(1) = 1,  f increasing (unique root)
//! Bingham h = 1: t = c / (1 + c)
//! ε̂_new = (s / 2μ) ε̂ / ‖ε̂‖,  tr ε kept
//! ```
//! `τ_Y` uses the von Mises convention (`‖dev τ‖_F`), so η → 0 recovers [`super::VonMises`].

use nalgebra::SVector;

use super::{Lame, PlasticState, check_finite_nonneg, deviatoric};
use crate::error::XpbiError;

/// Herschel–Bulkley parameters (SI).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct HerschelBulkley {
    /// Yield stress `τ_Y` on `‖dev τ‖_F` (Pa).
    pub yield_stress: f64,
    /// Consistency η (Pa·s^h).
    pub viscosity: f64,
    /// Flow index h > 0 (h < 1 shear thinning, h = 1 Bingham, h > 1 shear thickening).
    pub exponent: f64,
}

impl HerschelBulkley {
    /// Checks τ_Y ≥ 0, η ≥ 0, h > 0, finite.
    pub fn validate(&self) -> Result<(), XpbiError> {
        check_finite_nonneg("Herschel-Bulkley yield stress", self.yield_stress)?;
        check_finite_nonneg("Herschel-Bulkley viscosity", self.viscosity)?;
        if !(self.exponent.is_finite() && self.exponent > 0.0) {
            return Err(XpbiError::InvalidParameter {
                name: "Herschel-Bulkley exponent",
                value: self.exponent,
            });
        }
        Ok(())
    }

    /// Relaxed deviatoric stress norm `s` for a trial value `s_tr > τ_Y`.
    pub fn relaxed_stress(&self, s_trial: f64, mu: f64, dt: f64) -> f64 {
        let excess = s_trial - self.yield_stress;
        if excess <= 0.0 {
            return s_trial;
        }
        let inv_h = 1.0 / self.exponent;
        let c = self.viscosity.powf(inv_h) * excess.powf(1.0 - inv_h) / (2.0 * mu * dt);
        let t = if self.exponent == 1.0 {
            c / (1.0 + c)
        } else {
            solve_herschel_bulkley(c, self.exponent)
        };
        self.yield_stress + t * excess
    }

    pub(super) fn project<const D: usize>(
        &self,
        eps: &SVector<f64, D>,
        state: &PlasticState,
        lame: &Lame,
        dt: f64,
    ) -> (SVector<f64, D>, PlasticState) {
        let dev = deviatoric(eps);
        let norm = dev.norm();
        let s_trial = 2.0 * lame.mu * norm;
        if s_trial <= self.yield_stress || norm == 0.0 {
            return (*eps, *state);
        }
        let s = self.relaxed_stress(s_trial, lame.mu, dt);
        let eps_new = SVector::repeat(eps.sum() / D as f64) + dev * (s / s_trial);
        (
            eps_new,
            PlasticState {
                hardening: state.hardening + norm - s / (2.0 * lame.mu),
                ..*state
            },
        )
    }
}

/// Root `t ∈ [0, 1]` of `t^{1/h} + c (t − 1) = 0` (`c ≥ 0`, `h > 0`) by bracketed Newton with
/// bisection fallback; converges to machine precision in at most 200 iterations.
///
/// ```
/// use xpbi_continuum::plasticity::solve_herschel_bulkley;
/// let t = solve_herschel_bulkley(3.0, 1.0);
/// assert!((t - 0.75).abs() < 1e-14);
/// ```
pub fn solve_herschel_bulkley(c: f64, h: f64) -> f64 {
    if c <= 0.0 {
        return 0.0;
    }
    if !c.is_finite() {
        return 1.0;
    }
    let inv_h = 1.0 / h;
    let f = |t: f64| t.powf(inv_h) + c * (t - 1.0);
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    // Start from the middle of the bracket (not from the Bingham root, so that the h = 1 closed
    // form is an independent check of this solver).
    let mut t = 0.5;
    for _ in 0..200 {
        let ft = f(t);
        if ft == 0.0 {
            return t;
        }
        if ft < 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        let df = if t > 0.0 {
            inv_h * t.powf(inv_h - 1.0) + c
        } else {
            f64::INFINITY
        };
        let step = ft / df;
        if step.abs() <= 2.0 * f64::EPSILON * t {
            // Converged: the Newton correction is below one ulp of t.
            return (t - step).clamp(lo, hi);
        }
        let newton = t - step;
        t = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if hi - lo <= 4.0 * f64::EPSILON * hi {
            break;
        }
    }
    t
}
