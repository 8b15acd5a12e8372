//! Drucker–Prager sand on Hencky strain (Klár et al. 2016, §6.3; ziran2020
//! `DruckerPragerStvkHencky::projectStrain`), with Klár's hardening, optional cohesion (a shift of
//! the log strain, as in ziran) and optional volume correction (Tampubolon et al. 2017, Eq. 26).
//!
//! ```text
//! α_DP = sqrt(2/3) · 2 sin φ / (3 − sin φ)
//! ε_s  = ε − c₀ 1 + (v_c / d) 1                                   (cohesion, volume correction)
//! case II  (tr ε_s ≥ 0, expansion):   ε_new = c₀ 1 (stress free),  δq = ‖ε_s‖
//! δγ = ‖ε̂_s‖ + ((dλ + 2μ) / (2μ)) α_DP tr ε_s
//! case I   (δγ ≤ 0):                  ε_new = ε (elastic),           δq = 0
//! case III (δγ > 0):                  ε_new = ε_s − δγ ε̂_s/‖ε̂_s‖ + c₀ 1,  δq = δγ   (tr ε_s kept)
//! Klár hardening: q += δq,  φ(q) = h₀ + (h₁ q − h₃) e^{−h₂ q}  (degrees)
//! volume correction: v_c += tr ε − tr ε_new   (case I: unchanged)
//! ```
//! After case III `α_DP tr τ_s + ‖dev τ_s‖ = 0` with `τ_s = 2μ ε_s,new + λ tr(ε_s,new) 1`.

use nalgebra::SVector;

use super::{Lame, PlasticState, check_finite_nonneg, check_friction_angle, deviatoric};
use crate::error::XpbiError;

/// `α_DP(φ) = sqrt(2/3) · 2 sin φ / (3 − sin φ)` for a friction angle in degrees (Klár et al. 2016).
///
/// ```
/// use xpbi_continuum::plasticity::drucker_prager_alpha;
/// assert!((drucker_prager_alpha(30.0) - 0.3266).abs() < 1e-4);
/// ```
pub fn drucker_prager_alpha(friction_degrees: f64) -> f64 {
    let s = friction_degrees.to_radians().sin();
    (2.0f64 / 3.0).sqrt() * 2.0 * s / (3.0 - s)
}

/// Klár et al. (2016) hardening `φ(q) = h₀ + (h₁ q − h₃) e^{−h₂ q}` (degrees); with the
/// `serde` feature written as the array `[h₀, h₁, h₂, h₃]`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(from = "[f64; 4]", into = "[f64; 4]")
)]
pub struct KlarHardening {
    /// h₀ (degrees).
    pub h0: f64,
    /// h₁ (degrees).
    pub h1: f64,
    /// h₂ (dimensionless).
    pub h2: f64,
    /// h₃ (degrees).
    pub h3: f64,
}

impl From<[f64; 4]> for KlarHardening {
    fn from([h0, h1, h2, h3]: [f64; 4]) -> Self {
        Self { h0, h1, h2, h3 }
    }
}

impl From<KlarHardening> for [f64; 4] {
    fn from(h: KlarHardening) -> Self {
        [h.h0, h.h1, h.h2, h.h3]
    }
}

impl KlarHardening {
    /// Klár's published values (35°, 9°, 0.2, 10°), giving φ(0) = 25°.
    pub const KLAR_2016: Self = Self {
        h0: 35.0,
        h1: 9.0,
        h2: 0.2,
        h3: 10.0,
    };

    /// Friction angle (degrees) at hardening state `q`.
    pub fn friction_angle(&self, q: f64) -> f64 {
        self.h0 + (self.h1 * q - self.h3) * (-self.h2 * q).exp()
    }
}

/// Drucker–Prager parameters (SI, angles in degrees).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct DruckerPrager {
    /// Friction angle φ in degrees, in (0°, 90°); used when `hardening` is `None`.
    pub friction_angle: f64,
    /// Optional Klár hardening (replaces the constant friction angle).
    #[cfg_attr(feature = "serde", serde(default))]
    pub hardening: Option<KlarHardening>,
    /// Cohesion as a log-strain shift `c₀ ≥ 0` (0 = cohesionless).
    #[cfg_attr(feature = "serde", serde(default))]
    pub cohesion: f64,
    /// Volume correction (Tampubolon et al. 2017).
    #[cfg_attr(feature = "serde", serde(default))]
    pub volume_correction: bool,
}

impl DruckerPrager {
    /// Cohesionless sand without hardening.
    pub fn sand(friction_angle: f64) -> Self {
        Self {
            friction_angle,
            hardening: None,
            cohesion: 0.0,
            volume_correction: false,
        }
    }

    /// Checks φ ∈ (0°, 90°) (also for the hardening curve at q = 0 and q → ∞) and c₀ ≥ 0.
    pub fn validate(&self) -> Result<(), XpbiError> {
        match self.hardening {
            None => check_friction_angle(self.friction_angle)?,
            Some(h) => {
                for v in [h.h0, h.h1, h.h2, h.h3] {
                    if !v.is_finite() {
                        return Err(XpbiError::InvalidParameter {
                            name: "Klár hardening",
                            value: v,
                        });
                    }
                }
                check_finite_nonneg("Klár h2", h.h2)?;
                check_friction_angle(h.friction_angle(0.0))?;
                check_friction_angle(h.h0)?;
            }
        }
        check_finite_nonneg("Drucker-Prager cohesion", self.cohesion)
    }

    /// Friction angle at state `q` (degrees).
    pub fn friction_angle_at(&self, state: &PlasticState) -> f64 {
        match self.hardening {
            None => self.friction_angle,
            Some(h) => h.friction_angle(state.hardening).clamp(1e-3, 89.999),
        }
    }

    pub(super) fn project<const D: usize>(
        &self,
        eps: &SVector<f64, D>,
        state: &PlasticState,
        lame: &Lame,
    ) -> (SVector<f64, D>, PlasticState) {
        self.project_with(eps, state, lame, None)
    }

    /// [`DruckerPrager::project`] with `α_DP` given when it does not depend on the state
    /// (no hardening: computed once instead of a sine per call); `None` computes it.
    #[inline]
    pub(super) fn project_with<const D: usize>(
        &self,
        eps: &SVector<f64, D>,
        state: &PlasticState,
        lame: &Lame,
        alpha: Option<f64>,
    ) -> (SVector<f64, D>, PlasticState) {
        let d = D as f64;
        let vc = if self.volume_correction {
            state.volume_correction
        } else {
            0.0
        };
        let shift = SVector::<f64, D>::repeat(self.cohesion);
        let eps_s = eps - shift + SVector::repeat(vc / d);
        let trace = eps_s.sum();
        let dev = deviatoric(&eps_s);
        let dev_norm = dev.norm();
        let alpha = alpha.unwrap_or_else(|| drucker_prager_alpha(self.friction_angle_at(state)));
        let mut next = *state;
        let eps_new = if trace >= 0.0 {
            next.hardening += eps_s.norm();
            shift
        } else {
            let delta_gamma =
                dev_norm + (d * lame.lambda + 2.0 * lame.mu) / (2.0 * lame.mu) * trace * alpha;
            if delta_gamma <= 0.0 || dev_norm == 0.0 {
                return (*eps, *state);
            }
            next.hardening += delta_gamma;
            eps_s - dev * (delta_gamma / dev_norm) + shift
        };
        if self.volume_correction {
            next.volume_correction += eps.sum() - eps_new.sum();
        }
        (eps_new, next)
    }
}
