//! Neo-Hookean energies: the classic compressible form and the stable form XPBD uses.

use super::{EnergyError, HyperelasticEnergy, cofactor, cofactor_derivative, determinant};
use nalgebra::SMatrix;

/// Classic compressible Neo-Hookean (Bonet & Wood, *Nonlinear Continuum Mechanics for FEA*,
/// Eq. 6.28; Sifakis & Barbič 2012, §3.4):
///
/// `Ψ = μ/2 (I₁ − D) − μ ln J + λ/2 (ln J)²`, `I₁ = tr(FᵀF)`, `J = det F`,
///
/// `P = μ F + (λ ln J − μ) F⁻ᵀ`,
/// `dP = μ dF + (μ − λ ln J) F⁻ᵀ dFᵀ F⁻ᵀ + λ tr(F⁻¹ dF) F⁻ᵀ`.
///
/// `D = 2` is plane strain (`F₃₃ = 1` adds 1 to `I₁` and nothing to `J`). Undefined for
/// `J ≤ 0`: there `check_admissible` fails, `psi = +∞`, and `pk1`/`dpk1` use `ln J` with `J`
/// clamped to `≥ 1e-12` and `F⁻ᵀ = cof F / J` with the same clamp (finite, not physical).
///
/// ```
/// use nalgebra::Matrix3;
/// use xpbd_core::energy::{HyperelasticEnergy, NeoHookean};
/// let nh = NeoHookean { mu: 1.0, lambda: 10.0 };
/// assert!(nh.pk1(&Matrix3::identity()).norm() < 1e-14);
/// assert!(nh.check_admissible(&(-Matrix3::<f64>::identity())).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NeoHookean {
    /// Shear modulus `μ` (Pa).
    pub mu: f64,
    /// First Lamé parameter `λ` (Pa).
    pub lambda: f64,
}

const J_FLOOR: f64 = 1e-12;

impl NeoHookean {
    fn inverse_transpose<const D: usize>(f: &SMatrix<f64, D, D>) -> (f64, SMatrix<f64, D, D>) {
        let j = determinant(f);
        let jc = if j.abs() < J_FLOOR { J_FLOOR } else { j };
        (j, cofactor(f) / jc)
    }
}

impl<const D: usize> HyperelasticEnergy<D> for NeoHookean {
    fn psi(&self, f: &SMatrix<f64, D, D>) -> f64 {
        let j = determinant(f);
        if j <= 0.0 {
            return f64::INFINITY;
        }
        let log_j = j.ln();
        0.5 * self.mu * (f.norm_squared() - D as f64) - self.mu * log_j
            + 0.5 * self.lambda * log_j * log_j
    }

    fn pk1(&self, f: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
        let (j, f_inv_t) = Self::inverse_transpose(f);
        let log_j = j.max(J_FLOOR).ln();
        f * self.mu + f_inv_t * (self.lambda * log_j - self.mu)
    }

    fn dpk1(&self, f: &SMatrix<f64, D, D>, df: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
        let (j, f_inv_t) = Self::inverse_transpose(f);
        let log_j = j.max(J_FLOOR).ln();
        let tr = (f_inv_t.transpose() * df).trace();
        df * self.mu
            + f_inv_t * df.transpose() * f_inv_t * (self.mu - self.lambda * log_j)
            + f_inv_t * (self.lambda * tr)
    }

    fn check_admissible(&self, f: &SMatrix<f64, D, D>) -> Result<(), EnergyError> {
        if !f.iter().all(|x| x.is_finite()) {
            return Err(EnergyError::NonFinite);
        }
        let det = determinant(f);
        if det <= 0.0 {
            return Err(EnergyError::NonPositiveDeterminant { det });
        }
        Ok(())
    }
}

/// Stable Neo-Hookean in the form XPBD uses (Smith, de Goes & Kim 2018, Eq. 14 without the
/// `ln(I_C + 1)` term; Macklin & Müller 2021, Eq. 8; notes §2.4):
///
/// `Ψ = μ/2 (I_C − D) + λ'/2 (J − α)² − μ²/(2λ')`, `α = 1 + μ/λ'`,
///
/// `P = μ F + λ'(J − α) cof F`, `dP = μ dF + λ' (cof F : dF) cof F + λ'(J − α) d(cof F)[dF]`.
///
/// **Parameter mapping (chosen here, derived):** the fields `mu`, `lambda` are the ordinary Lamé
/// parameters (e.g. from [`super::lame_from_young_poisson`]); internally `λ' = λ + μ`.
/// Linearising `P` at `F = I` gives `μ (dF + dFᵀ) + (λ' − μ) tr(dF) I`, which equals linear
/// elasticity exactly when `λ' = λ + μ` (in 2-D and 3-D). The constant `−μ²/(2λ')` makes
/// `Ψ(I) = 0`. Defined (and smooth) for every `F`, inverted included.
///
/// ```
/// use nalgebra::Matrix3;
/// use xpbd_core::energy::{HyperelasticEnergy, StableNeoHookean};
/// let snh = StableNeoHookean { mu: 1.0, lambda: 4.0 };
/// assert!(snh.psi(&Matrix3::identity()).abs() < 1e-15);
/// assert!(snh.pk1(&Matrix3::identity()).norm() < 1e-14);
/// assert!(snh.psi(&(-Matrix3::<f64>::identity())).is_finite()); // inversion-safe
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StableNeoHookean {
    /// Shear modulus `μ` (Pa, ordinary Lamé parameter).
    pub mu: f64,
    /// First Lamé parameter `λ` (Pa, ordinary; the energy uses `λ' = λ + μ`).
    pub lambda: f64,
}

impl StableNeoHookean {
    /// `λ' = λ + μ`, the volumetric stiffness inside the energy.
    pub fn lambda_snh(&self) -> f64 {
        self.lambda + self.mu
    }

    /// Rest-stable shift `α = 1 + μ/λ'`.
    pub fn alpha(&self) -> f64 {
        1.0 + self.mu / self.lambda_snh()
    }
}

impl<const D: usize> HyperelasticEnergy<D> for StableNeoHookean {
    fn psi(&self, f: &SMatrix<f64, D, D>) -> f64 {
        let ls = self.lambda_snh();
        let dj = determinant(f) - self.alpha();
        0.5 * self.mu * (f.norm_squared() - D as f64) + 0.5 * ls * dj * dj
            - self.mu * self.mu / (2.0 * ls)
    }

    fn pk1(&self, f: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
        let dj = determinant(f) - self.alpha();
        f * self.mu + cofactor(f) * (self.lambda_snh() * dj)
    }

    fn dpk1(&self, f: &SMatrix<f64, D, D>, df: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
        let ls = self.lambda_snh();
        let cof = cofactor(f);
        let dj = determinant(f) - self.alpha();
        df * self.mu + cof * (ls * cof.dot(df)) + cofactor_derivative(f, df) * (ls * dj)
    }
}
