//! StVK with Hencky (logarithmic) strain — the elastic energy of XPBI.

use super::svd::rotation_variant_svd;
use super::{EnergyError, HyperelasticEnergy, Tangent};
use nalgebra::{SMatrix, SVector};

/// StVK with Hencky strain (XPBI, Yu et al. 2024, §4; notes §1.4):
///
/// `Ψ(F) = μ Σᵢ (ln σᵢ)² + (λ/2) (Σᵢ ln σᵢ)²`, `F = U Σ Vᵀ`,
///
/// `∂Ψ/∂σᵢ = (2μ ln σᵢ + λ Σⱼ ln σⱼ) / σᵢ`, `P = U diag(∂Ψ/∂σ) Vᵀ`.
///
/// Defined for `σᵢ > 0` only. On an inverted or degenerate `F` (smallest signed singular value
/// `≤ 0`) [`HyperelasticEnergy::check_admissible`] returns
/// [`EnergyError::NonPositiveStretch`], `psi` returns `+∞`, and `pk1`/`dpk1`/`tangent` are
/// evaluated with the stretches clamped to `|σᵢ| ≥` [`HenckyStvk::STRETCH_FLOOR`] (the ziran
/// convention, so XPBI return mappings stay finite); callers that need the exact energy must
/// check admissibility first.
///
/// ```
/// use nalgebra::{Matrix2, Vector2};
/// use xpbd_core::energy::{HenckyStvk, HyperelasticEnergy};
/// let m = HenckyStvk { mu: 2.0, lambda: 3.0 };
/// let f = Matrix2::from_diagonal(&Vector2::new(2.0, 1.0)); // uniaxial stretch
/// let l = 2f64.ln();
/// assert!((m.psi(&f) - (2.0 * l * l + 1.5 * l * l)).abs() < 1e-12);
/// // XPBI's constraint C = sqrt(2Ψ), ∂C/∂F = P / C.
/// let c = (2.0 * m.psi(&f)).sqrt();
/// let dc = m.pk1(&f) / c;
/// assert!(dc.norm() > 0.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HenckyStvk {
    /// Shear modulus `μ` (Pa).
    pub mu: f64,
    /// First Lamé parameter `λ` (Pa).
    pub lambda: f64,
}

impl HenckyStvk {
    /// Floor on `|σ|` used by `pk1`/`dpk1` on inadmissible `F` (ziran's `1e-4`).
    pub const STRETCH_FLOOR: f64 = 1e-4;

    /// `Ψ(σ) = μ Σ (ln σᵢ)² + (λ/2)(Σ ln σᵢ)²` for principal stretches `σᵢ > 0`.
    pub fn psi_principal<const D: usize>(&self, sigma: &SVector<f64, D>) -> f64 {
        let eps = sigma.map(f64::ln);
        let tr = eps.sum();
        self.mu * eps.norm_squared() + 0.5 * self.lambda * tr * tr
    }

    /// Principal Kirchhoff stress `τᵢ = 2μ ln σᵢ + λ Σⱼ ln σⱼ` (= `σᵢ ∂Ψ/∂σᵢ`).
    pub fn kirchhoff_principal<const D: usize>(&self, sigma: &SVector<f64, D>) -> SVector<f64, D> {
        let eps = sigma.map(f64::ln);
        let tr = eps.sum();
        eps.map(|e| 2.0 * self.mu * e + self.lambda * tr)
    }

    /// `∂Ψ/∂σᵢ = (2μ ln σᵢ + λ Σⱼ ln σⱼ) / σᵢ`.
    pub fn dpsi_dsigma<const D: usize>(&self, sigma: &SVector<f64, D>) -> SVector<f64, D> {
        self.kirchhoff_principal(sigma).component_div(sigma)
    }

    /// `∂²Ψ/∂σᵢ∂σⱼ = λ/(σᵢσⱼ) + δᵢⱼ (2μ − 2μ ln σᵢ − λ Σ ln σ)/σᵢ²` (derived).
    pub fn d2psi_dsigma2<const D: usize>(&self, sigma: &SVector<f64, D>) -> SMatrix<f64, D, D> {
        let eps = sigma.map(f64::ln);
        let tr = eps.sum();
        SMatrix::from_fn(|i, j| {
            let mut h = self.lambda / (sigma[i] * sigma[j]);
            if i == j {
                h += (2.0 * self.mu - 2.0 * self.mu * eps[i] - self.lambda * tr)
                    / (sigma[i] * sigma[i]);
            }
            h
        })
    }

    fn clamped_svd<const D: usize>(
        f: &SMatrix<f64, D, D>,
    ) -> (SMatrix<f64, D, D>, SVector<f64, D>, SMatrix<f64, D, D>) {
        let (u, sigma, v) = rotation_variant_svd(f);
        (u, sigma.map(|s| s.abs().max(Self::STRETCH_FLOOR)), v)
    }

    /// Off-diagonal principal tangent coefficients `(A, B)` with
    /// `dP̂ᵢⱼ = A dF̂ᵢⱼ + B dF̂ⱼᵢ` for `i ≠ j`:
    /// `A = ½(d₋ + s₊)`, `B = ½(d₋ − s₊)`, `d₋ = (pᵢ − pⱼ)/(σᵢ − σⱼ)`, `s₊ = (pᵢ + pⱼ)/(σᵢ + σⱼ)`
    /// (Teran et al. 2005 / Stomakhin et al. 2012). `d₋` is evaluated without cancellation:
    /// `d₋ = 2μ (σⱼ L − ln σⱼ)/(σᵢσⱼ) − λ tr ε/(σᵢσⱼ)` with `L = (ln σᵢ − ln σⱼ)/(σᵢ − σⱼ)`
    /// computed via `ln_1p` (derived).
    fn off_diagonal_coefficients(&self, si: f64, sj: f64, pi: f64, pj: f64, tr: f64) -> (f64, f64) {
        let x = (si - sj) / sj;
        let log_dd = if x.abs() < 1e-8 {
            (1.0 - 0.5 * x) / sj
        } else {
            x.ln_1p() / (si - sj)
        };
        let d_minus = (2.0 * self.mu * (sj * log_dd - sj.ln()) - self.lambda * tr) / (si * sj);
        let s_plus = (pi + pj) / (si + sj);
        (0.5 * (d_minus + s_plus), 0.5 * (d_minus - s_plus))
    }

    fn principal_dp<const D: usize>(
        &self,
        sigma: &SVector<f64, D>,
        df_hat: &SMatrix<f64, D, D>,
    ) -> SMatrix<f64, D, D> {
        let p = self.dpsi_dsigma(sigma);
        let h = self.d2psi_dsigma2(sigma);
        let tr = sigma.map(f64::ln).sum();
        let mut out = SMatrix::<f64, D, D>::zeros();
        for i in 0..D {
            for j in 0..D {
                out[(i, i)] += h[(i, j)] * df_hat[(j, j)];
            }
        }
        for i in 0..D {
            for j in (i + 1)..D {
                let (a, b) = self.off_diagonal_coefficients(sigma[i], sigma[j], p[i], p[j], tr);
                out[(i, j)] = a * df_hat[(i, j)] + b * df_hat[(j, i)];
                out[(j, i)] = a * df_hat[(j, i)] + b * df_hat[(i, j)];
            }
        }
        out
    }
}

impl<const D: usize> HyperelasticEnergy<D> for HenckyStvk {
    fn psi(&self, f: &SMatrix<f64, D, D>) -> f64 {
        let (_, sigma, _) = rotation_variant_svd(f);
        if sigma[D - 1] <= 0.0 {
            return f64::INFINITY;
        }
        self.psi_principal(&sigma)
    }

    fn pk1(&self, f: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
        let (u, sigma, v) = Self::clamped_svd(f);
        u * SMatrix::<f64, D, D>::from_diagonal(&self.dpsi_dsigma(&sigma)) * v.transpose()
    }

    fn dpk1(&self, f: &SMatrix<f64, D, D>, df: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
        let (u, sigma, v) = Self::clamped_svd(f);
        u * self.principal_dp(&sigma, &(u.transpose() * df * v)) * v.transpose()
    }

    fn tangent(&self, f: &SMatrix<f64, D, D>) -> Tangent<D> {
        let (u, sigma, v) = Self::clamped_svd(f);
        let (ut, vt) = (u.transpose(), v.transpose());
        core::array::from_fn(|k| {
            core::array::from_fn(|l| {
                // dF = e_k e_lᵀ ⇒ dF̂ = (Uᵀ e_k)(Vᵀ e_l)ᵀ.
                let df_hat = ut.column(k) * vt.column(l).transpose();
                u * self.principal_dp(&sigma, &df_hat) * vt
            })
        })
    }

    fn check_admissible(&self, f: &SMatrix<f64, D, D>) -> Result<(), EnergyError> {
        if !f.iter().all(|x| x.is_finite()) {
            return Err(EnergyError::NonFinite);
        }
        let (_, sigma, _) = rotation_variant_svd(f);
        if sigma[D - 1] <= 0.0 {
            return Err(EnergyError::NonPositiveStretch {
                sigma: sigma[D - 1],
            });
        }
        Ok(())
    }
}
