//! Von Mises return mapping on Hencky strain (ziran2020 `VonMisesStvkHencky::projectStrain`;
//! phys-sim-book "yield criterion"), with optional linear isotropic hardening.
//!
//! Convention: `yield_stress` bounds the Frobenius norm of the deviatoric Kirchhoff stress,
//! `‖dev τ‖ = 2μ ‖ε̂‖ ≤ σ_Y(q) = σ_Y0 + H q` (`q` = accumulated plastic strain). A uniaxial yield
//! stress `σ_u` corresponds to `σ_Y = sqrt(2/3) σ_u`.
//!
//! ```text
//! δγ = ‖ε̂‖ − σ_Y(q) / (2μ);   δγ ≤ 0: elastic;   else ε_new = ε − δγ ε̂ / ‖ε̂‖,  q += δγ
//! ```
//! The hardening is applied with `q` frozen during the step (the yield radius of the projection uses
//! `q` at tⁿ), so the projection is idempotent.

use nalgebra::SVector;

use super::{Lame, PlasticState, check_finite_nonneg, deviatoric};
use crate::error::XpbiError;

/// Von Mises plasticity parameters (SI).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct VonMises {
    /// Yield stress `σ_Y0` on `‖dev τ‖_F` (Pa).
    pub yield_stress: f64,
    /// Linear hardening modulus `H` (Pa per unit plastic strain); 0 = perfectly plastic.
    #[cfg_attr(feature = "serde", serde(default))]
    pub hardening_modulus: f64,
}

impl VonMises {
    /// Checks `σ_Y ≥ 0`, `H ≥ 0`, finite.
    pub fn validate(&self) -> Result<(), XpbiError> {
        check_finite_nonneg("von Mises yield stress", self.yield_stress)?;
        check_finite_nonneg("von Mises hardening modulus", self.hardening_modulus)
    }

    /// Current yield radius `σ_Y0 + H q`.
    pub fn yield_radius(&self, state: &PlasticState) -> f64 {
        self.yield_stress + self.hardening_modulus * state.hardening.max(0.0)
    }

    pub(super) fn project<const D: usize>(
        &self,
        eps: &SVector<f64, D>,
        state: &PlasticState,
        lame: &Lame,
    ) -> (SVector<f64, D>, PlasticState) {
        let dev = deviatoric(eps);
        let norm = dev.norm();
        let delta_gamma = norm - self.yield_radius(state) / (2.0 * lame.mu);
        if delta_gamma <= 0.0 || norm == 0.0 {
            return (*eps, *state);
        }
        let new_eps = eps - dev * (delta_gamma / norm);
        (
            new_eps,
            PlasticState {
                hardening: state.hardening + delta_gamma,
                ..*state
            },
        )
    }
}
