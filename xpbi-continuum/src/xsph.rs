//! XSPH velocity smoothing (XPBI Eq. 20; Monaghan 1989), applied once per step after the
//! iterations:
//!
//! ```text
//! v_p ← v_p + c Σ_b ω_pb (v_b − v_p) W(|x_pⁿ − x_bⁿ|),   ω_pb = m_b / ρ̄_pb,  ρ̄_pb = ½(ρ_p + ρ_b)
//! ```
//!
//! with ρ = m/Vⁿ ([`pair_volume`]). Monaghan's pair-averaged density makes `m_p ω_pb` symmetric
//! in the pair, so the smoothing exchanges momentum between particles and conserves the total
//! exactly (the paper's `ω_pb = V_bⁿ` does not once the volumes differ: a spinning elastic
//! ball drifted by 4e-8 of its momentum in 0.02 s, 3e-13 with ω_pb); for equal masses and
//! volumes the two are the same.
//!
//! **Why a rate.** The paper's `c = 0.01` is a fraction *per step*, so over a time T it acts
//! T/Δt times: its effect per unit time is ∝ c/Δt, and halving the step doubles the
//! smoothing. Measured on a 3D sand column collapse (Δx = 5 mm, φ = 32°, 1.2 s): runout 0.77 at
//! Δt = 2.5e-4 s and 0.63 at 1e-4 s with c = 0.01, 0.75 at 1e-4 s with c scaled by the step.
//! [`Xsph::Rate`] is the same operator written as the relaxation `dv_p/dt = κ Σ_b V_b (v_b −
//! v_p) W_pb` with a rate κ in 1/s, integrated exactly over a step for the frozen neighbour
//! field: `c = 1 − e^{−κΔt}` (≈ κΔt; never above 1). Its effect per unit time does not depend
//! on Δt.
//!
//! **What it is physically.** For a smooth field, `Σ_b V_b (v_b − v_p) W_pb ≈ (⟨r²⟩/2d) ∇²v`
//! with `⟨r²⟩ = ∫W r² dV` (normalised W), so XSPH is an artificial kinematic viscosity
//! `ν = κ ⟨q²⟩ H² / (2d)`, `q = r/H`: for the Wendland C2 kernel ⟨q²⟩ = 1/5 in 3D (ν = κH²/30)
//! and 5/36 in 2D (ν ≈ κH²/28.8). It vanishes as H² under refinement at fixed κ, as an
//! artificial viscosity should. The default κ = −ln(1 − 0.01) / 1e-4 s ≈ 100.5 s⁻¹ is the rate
//! whose per-step coefficient at the paper's middle step Δt = 1e-4 s (Table 2: 4e-5 … 2.5e-4 s)
//! is its c = 0.01 ([`Xsph::matching`]), so scenes run at that step smooth as before; at
//! H = 1 cm it is ν ≈ 3.3e-4 m²/s.

use crate::error::XpbiError;

/// XSPH's pair volume `ω_pb = m_b/ρ̄_pb = 2 m_b / (m_p/V_p + m_b/V_b)`, written with inverse
/// masses (`wv_p = w_p V_p`) so that a pinned neighbour (w_b = 0) is the limit `2 V_b`:
/// `ω_pb = 2 wv_p V_b / (wv_p + wv_b)` (0 when both are pinned). `m_p ω_pb` is symmetric in
/// the pair, which is what conserves momentum.
///
/// ```
/// use xpbi_continuum::xsph::pair_volume;
/// // Equal masses and volumes: the paper's V_b.
/// assert_eq!(pair_volume(2.0 * 1e-6, 2.0 * 1e-6, 1e-6), 1e-6);
/// // m_p ω_pb = m_b ω_bp.
/// let (mp, vp, mb, vb) = (1.0, 1.1e-6, 3.0, 0.9e-6);
/// let a = mp * pair_volume(vp / mp, vb / mb, vb);
/// let b = mb * pair_volume(vb / mb, vp / mp, vp);
/// assert!((a - b).abs() < 1e-20);
/// ```
#[inline]
pub fn pair_volume(wv_p: f64, wv_b: f64, v_b: f64) -> f64 {
    let den = wv_p + wv_b;
    if den > 0.0 {
        2.0 * wv_p * v_b / den
    } else {
        0.0
    }
}

/// The default XSPH relaxation rate κ (1/s): −ln(1 − 0.01) / 1e-4 s, whose coefficient at
/// Δt = 1e-4 s is XPBI's c = 0.01 (checked in the tests).
pub const DEFAULT_XSPH_RATE: f64 = 100.50335853501441;

/// How strongly XSPH smooths velocities (module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Xsph {
    /// A relaxation rate κ (1/s): `c = 1 − e^{−κΔt}` per step, the same smoothing per unit
    /// time at any step size (default, κ = [`DEFAULT_XSPH_RATE`]).
    Rate(f64),
    /// The paper's dimensionless per-step coefficient c ∈ [0, 1]: its effect per unit time is
    /// ∝ c/Δt, so results depend on the step size. Kept for reproducing fixed-step runs.
    PerStep(f64),
}

impl Default for Xsph {
    fn default() -> Self {
        Xsph::Rate(DEFAULT_XSPH_RATE)
    }
}

impl Xsph {
    /// No smoothing.
    pub const OFF: Xsph = Xsph::Rate(0.0);

    /// The rate whose per-step coefficient at a step of `dt` is `c`: κ = −ln(1 − c)/Δt (the
    /// same smoothing as the per-step `c` at that step, and the same per unit time at any other).
    ///
    /// ```
    /// use xpbi_continuum::xsph::Xsph;
    /// let x = Xsph::matching(0.01, 5e-4);
    /// assert!((x.coefficient(5e-4) - 0.01).abs() < 1e-17);
    /// ```
    pub fn matching(c: f64, dt: f64) -> Xsph {
        Xsph::Rate(-(-c).ln_1p() / dt)
    }

    /// The per-step coefficient c for a step of `dt` seconds.
    ///
    /// ```
    /// use xpbi_continuum::xsph::Xsph;
    /// // Two steps of Δt/2 smooth a uniform mode exactly as much as one step of Δt.
    /// let (one, half) = (Xsph::Rate(100.0).coefficient(1e-3), Xsph::Rate(100.0).coefficient(5e-4));
    /// assert!(((1.0 - half) * (1.0 - half) - (1.0 - one)).abs() < 1e-15);
    /// assert_eq!(Xsph::PerStep(0.01).coefficient(1e-3), 0.01);
    /// ```
    pub fn coefficient(&self, dt: f64) -> f64 {
        match *self {
            Xsph::Rate(k) => -(-k * dt).exp_m1(),
            Xsph::PerStep(c) => c,
        }
    }

    /// Whether it does nothing.
    pub fn is_off(&self) -> bool {
        match *self {
            Xsph::Rate(k) => k == 0.0,
            Xsph::PerStep(c) => c == 0.0,
        }
    }

    /// A rate finite and ≥ 0, a per-step coefficient in [0, 1].
    pub fn validate(&self) -> Result<(), XpbiError> {
        match *self {
            Xsph::Rate(k) if !(k.is_finite() && k >= 0.0) => Err(XpbiError::InvalidParameter {
                name: "xsph rate (1/s)",
                value: k,
            }),
            Xsph::PerStep(c) if !(c.is_finite() && (0.0..=1.0).contains(&c)) => {
                Err(XpbiError::InvalidParameter {
                    name: "xsph",
                    value: c,
                })
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rate form composes over steps: n steps of Δt/n give the factor of one step of Δt,
    /// for a uniform mode (the property that makes it Δt-consistent); the per-step form does not.
    #[test]
    fn rate_composes_over_steps_per_step_does_not() {
        let dt = 2.5e-4;
        for n in [2_i32, 5, 10] {
            let x = Xsph::Rate(DEFAULT_XSPH_RATE);
            let split = (1.0 - x.coefficient(dt / n as f64)).powi(n);
            assert!((split - (1.0 - x.coefficient(dt))).abs() < 1e-14);
            let p = Xsph::PerStep(0.01);
            let split = (1.0 - p.coefficient(dt / n as f64)).powi(n);
            assert!((split - (1.0 - p.coefficient(dt))).abs() > 1e-3);
        }
    }

    /// The default rate is the paper's coefficient at Δt = 1e-4 s.
    #[test]
    fn default_rate_is_the_papers_coefficient_at_1e4() {
        assert!((Xsph::default().coefficient(1e-4) - 0.01).abs() <= 1e-17);
        assert_eq!(Xsph::matching(0.01, 1e-4), Xsph::default());
    }

    #[test]
    fn bad_values_are_refused() {
        assert!(Xsph::Rate(-1.0).validate().is_err());
        assert!(Xsph::Rate(f64::NAN).validate().is_err());
        assert!(Xsph::PerStep(1.5).validate().is_err());
        assert!(Xsph::default().validate().is_ok());
        assert!(Xsph::OFF.is_off());
    }
}
