//! Thin bridge to the shared StVK-on-Hencky energy `xpbd_core::energy::HenckyStvk` (the energy
//! lives there once, finite-difference tested there; this module only adapts types).
//!
//! ```text
//! Ψ(σ) = μ Σ (ln σᵢ)² + (λ/2)(Σ ln σᵢ)²,   ∂Ψ/∂σᵢ = (2μ ln σᵢ + λ Σⱼ ln σⱼ) / σᵢ
//! ```

use nalgebra::SVector;
use xpbd_core::energy::{HenckyStvk, lame_from_young_poisson};

use crate::plasticity::Lame;

/// `μ = E/(2(1+ν))`, `λ = Eν/((1+ν)(1−2ν))` via `xpbd_core::energy::lame_from_young_poisson`.
///
/// ```
/// let l = xpbi_continuum::hencky::lame(2.6, 0.3);
/// assert!((l.mu - 1.0).abs() < 1e-12);
/// ```
pub fn lame(youngs_modulus: f64, poisson_ratio: f64) -> Lame {
    let (mu, lambda) = lame_from_young_poisson(youngs_modulus, poisson_ratio);
    Lame { mu, lambda }
}

/// The shared energy with these Lamé parameters.
pub fn energy(lame: &Lame) -> HenckyStvk {
    HenckyStvk {
        mu: lame.mu,
        lambda: lame.lambda,
    }
}

/// `Ψ` at principal stretches `σ > 0`.
///
/// ```
/// use nalgebra::Vector2;
/// use xpbi_continuum::{hencky::psi, plasticity::Lame};
/// let s = Vector2::new(0.1f64.exp(), 1.0);
/// assert!((psi(&Lame { mu: 1.0, lambda: 2.0 }, &s) - 0.02).abs() < 1e-15);
/// ```
pub fn psi<const D: usize>(lame: &Lame, sigma: &SVector<f64, D>) -> f64 {
    energy(lame).psi_principal(sigma)
}

/// `∂Ψ/∂σᵢ` at principal stretches `σ > 0`.
///
/// ```
/// use nalgebra::Vector2;
/// use xpbi_continuum::{hencky::dpsi_dsigma, plasticity::Lame};
/// assert_eq!(dpsi_dsigma(&Lame { mu: 1.0, lambda: 0.0 }, &Vector2::repeat(1.0)), Vector2::zeros());
/// ```
pub fn dpsi_dsigma<const D: usize>(lame: &Lame, sigma: &SVector<f64, D>) -> SVector<f64, D> {
    energy(lame).dpsi_dsigma(sigma)
}

/// `Ψ` from the principal Hencky strain `ε = ln σ` directly (the same formula as [`psi`], without
/// recomputing the logarithms: the constraint evaluation already has `ε` from the SVD).
///
/// ```
/// use nalgebra::Vector3;
/// use xpbi_continuum::{hencky::{psi, psi_from_strain}, plasticity::Lame};
/// let lame = Lame { mu: 2.0, lambda: 3.0 };
/// let eps = Vector3::new(0.1, -0.05, 0.02);
/// assert!((psi_from_strain(&lame, &eps) - psi(&lame, &eps.map(f64::exp))).abs() < 1e-15);
/// ```
#[inline]
pub fn psi_from_strain<const D: usize>(lame: &Lame, eps: &SVector<f64, D>) -> f64 {
    let tr = eps.sum();
    lame.mu * eps.norm_squared() + 0.5 * lame.lambda * tr * tr
}

/// `∂Ψ/∂σᵢ = (2μ εᵢ + λ tr ε)/σᵢ` from `ε` and `σ = exp ε` (as [`dpsi_dsigma`], without logs).
///
/// ```
/// use nalgebra::Vector2;
/// use xpbi_continuum::{hencky::{dpsi_dsigma, dpsi_from_strain}, plasticity::Lame};
/// let lame = Lame { mu: 2.0, lambda: 3.0 };
/// let eps = Vector2::new(0.1, -0.05);
/// let s = eps.map(f64::exp);
/// assert!((dpsi_from_strain(&lame, &eps, &s) - dpsi_dsigma(&lame, &s)).norm() < 1e-14);
/// ```
#[inline]
pub fn dpsi_from_strain<const D: usize>(
    lame: &Lame,
    eps: &SVector<f64, D>,
    sigma: &SVector<f64, D>,
) -> SVector<f64, D> {
    let tr = eps.sum();
    SVector::from_fn(|i, _| (2.0 * lame.mu * eps[i] + lame.lambda * tr) / sigma[i])
}
