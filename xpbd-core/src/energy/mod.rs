//! Hyperelastic energy densities `Ψ(F)` shared by the FEM oracle (`xpbd-fem-reference`) and the
//! XPBI continuum layer.
//!
//! Every material implements [`HyperelasticEnergy<D>`] for `D = 2` (plane strain: `F₃₃ = 1`,
//! so `I₁ = tr(FᵀF) + 1` and the 3-D formulas reduce to "`I₁ − D`") and `D = 3`:
//!
//! | type | `Ψ(F)` | source |
//! |---|---|---|
//! | [`HenckyStvk`] | `μ Σ (ln σᵢ)² + (λ/2)(Σ ln σᵢ)²` | XPBI (Yu et al. 2024) §1.4 of the notes |
//! | [`NeoHookean`] | `μ/2 (I₁ − D) − μ ln J + λ/2 (ln J)²` | Bonet & Wood, Eq. 6.28 |
//! | [`StableNeoHookean`] | `μ/2 (I₁ − D) + λ'/2 (J − α)² − c` | Smith et al. 2018 / Macklin & Müller 2021 |
//! | [`LinearElastic`] | `μ ε:ε + λ/2 (tr ε)²`, `ε = sym(F) − I` | small strain |
//!
//! `P = ∂Ψ/∂F` is the first Piola–Kirchhoff stress; the tangent `∂P/∂F` is returned as a
//! [`Tangent<D>`] (`t[k][l] = ∂P/∂F_kl`). [`project_tangent_psd`] clamps its negative eigenvalues
//! for projected Newton (Teran et al. 2005).
//!
//! Materials with a `ln J` or `ln σ` term are undefined for `det F ≤ 0`:
//! [`HyperelasticEnergy::check_admissible`] reports that as an [`EnergyError`]; on such an `F`,
//! `psi` returns `+∞` (an energy barrier a line search backtracks from) and the documented
//! behaviour of `pk1`/`dpk1` is given on each type.
//!
//! ```
//! use nalgebra::Matrix3;
//! use xpbd_core::energy::{lame_from_young_poisson, HenckyStvk, HyperelasticEnergy};
//! let (mu, lambda) = lame_from_young_poisson(1e5, 0.3);
//! let hencky = HenckyStvk { mu, lambda };
//! assert_eq!(hencky.psi(&Matrix3::identity()), 0.0);
//! assert!(hencky.pk1(&Matrix3::identity()).norm() < 1e-12);
//! ```

mod hencky;
mod linear;
mod neo_hookean;
pub mod svd;

#[cfg(test)]
mod fd_tests;

pub use hencky::HenckyStvk;
pub use linear::LinearElastic;
pub use neo_hookean::{NeoHookean, StableNeoHookean};

use nalgebra::{DMatrix, SMatrix};

/// `∂P/∂F` as `D × D` blocks: `t[k][l]` is the matrix `∂P/∂F_kl`.
pub type Tangent<const D: usize> = [[SMatrix<f64, D, D>; D]; D];

/// Why an energy cannot be evaluated at a deformation gradient.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EnergyError {
    /// `det F ≤ 0`: the material has a `ln J` (or `ln σ`) term and is undefined there.
    #[error("deformation gradient is inverted or degenerate: det F = {det}")]
    NonPositiveDeterminant {
        /// `det F`.
        det: f64,
    },
    /// A singular value `σ ≤ 0` (Hencky strain `ln σ` undefined).
    #[error("non-positive principal stretch σ = {sigma} (Hencky strain ln σ undefined)")]
    NonPositiveStretch {
        /// The smallest (signed) singular value.
        sigma: f64,
    },
    /// `F` holds NaN or ±∞.
    #[error("deformation gradient has a non-finite entry")]
    NonFinite,
}

/// Lamé parameters from Young's modulus `E` and Poisson's ratio `ν` (3-D formulas, also used
/// for plane strain): `μ = E / (2(1+ν))`, `λ = E ν / ((1+ν)(1−2ν))`.
///
/// ```
/// let (mu, lambda) = xpbd_core::energy::lame_from_young_poisson(1.0, 0.25);
/// assert!((mu - 0.4).abs() < 1e-15 && (lambda - 0.4).abs() < 1e-15);
/// ```
pub fn lame_from_young_poisson(youngs: f64, poisson: f64) -> (f64, f64) {
    let mu = youngs / (2.0 * (1.0 + poisson));
    let lambda = youngs * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
    (mu, lambda)
}

/// A hyperelastic energy density per unit reference volume.
pub trait HyperelasticEnergy<const D: usize> {
    /// `Ψ(F)`.
    fn psi(&self, f: &SMatrix<f64, D, D>) -> f64;

    /// First Piola–Kirchhoff stress `P = ∂Ψ/∂F`.
    fn pk1(&self, f: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D>;

    /// Directional derivative of the stress, `dP = (∂P/∂F) : dF`.
    fn dpk1(&self, f: &SMatrix<f64, D, D>, df: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D>;

    /// Full tangent `∂P/∂F` (default: `dpk1` applied to the `D²` unit matrices).
    fn tangent(&self, f: &SMatrix<f64, D, D>) -> Tangent<D> {
        core::array::from_fn(|k| {
            core::array::from_fn(|l| {
                let mut e = SMatrix::<f64, D, D>::zeros();
                e[(k, l)] = 1.0;
                self.dpk1(f, &e)
            })
        })
    }

    /// The tangent with its negative eigenvalues clamped to zero (projected Newton).
    fn tangent_psd(&self, f: &SMatrix<f64, D, D>) -> Tangent<D> {
        project_tangent_psd(&self.tangent(f))
    }

    /// `Ok` when `Ψ`, `P` and the tangent are defined at `F` (default: `F` finite).
    fn check_admissible(&self, f: &SMatrix<f64, D, D>) -> Result<(), EnergyError> {
        if f.iter().all(|x| x.is_finite()) {
            Ok(())
        } else {
            Err(EnergyError::NonFinite)
        }
    }
}

/// The tangent as a `D² × D²` matrix `A[(D i + j), (D k + l)] = ∂P_ij/∂F_kl` (row-major
/// flattening of `P` and `F`). Symmetric for a hyperelastic material.
///
/// ```
/// use nalgebra::Matrix2;
/// use xpbd_core::energy::{tangent_matrix, HyperelasticEnergy, LinearElastic};
/// let a = tangent_matrix(&LinearElastic { mu: 1.0, lambda: 2.0 }.tangent(&Matrix2::identity()));
/// assert_eq!(a[(0, 0)], 2.0 * 1.0 + 2.0); // ∂P₁₁/∂F₁₁ = 2μ + λ
/// ```
pub fn tangent_matrix<const D: usize>(t: &Tangent<D>) -> DMatrix<f64> {
    DMatrix::from_fn(D * D, D * D, |r, c| t[c / D][c % D][(r / D, r % D)])
}

/// Inverse of [`tangent_matrix`].
pub fn tangent_from_matrix<const D: usize>(a: &DMatrix<f64>) -> Tangent<D> {
    core::array::from_fn(|k| {
        core::array::from_fn(|l| SMatrix::<f64, D, D>::from_fn(|i, j| a[(D * i + j, D * k + l)]))
    })
}

/// Projects a tangent onto the positive semi-definite cone: symmetrise, eigen-decompose the
/// `D² × D²` matrix and clamp negative eigenvalues to zero (Teran, Sifakis, Irving & Fedkiw 2005,
/// "Robust quasistatic finite elements", §4, done here numerically rather than per 2×2 block).
///
/// ```
/// use nalgebra::Matrix3;
/// use xpbd_core::energy::{project_tangent_psd, tangent_matrix, HyperelasticEnergy, NeoHookean};
/// let nh = NeoHookean { mu: 1.0, lambda: 1.0 };
/// let f = Matrix3::from_diagonal(&nalgebra::Vector3::new(0.3, 2.0, 1.0)); // strongly compressed
/// let projected = tangent_matrix(&project_tangent_psd(&nh.tangent(&f)));
/// assert!(projected.symmetric_eigenvalues().min() > -1e-12);
/// ```
pub fn project_tangent_psd<const D: usize>(t: &Tangent<D>) -> Tangent<D> {
    let a = tangent_matrix(t);
    let sym = (&a + a.transpose()) * 0.5;
    let eig = sym.symmetric_eigen();
    let clamped = eig.eigenvalues.map(|x| x.max(0.0));
    let projected =
        &eig.eigenvectors * DMatrix::from_diagonal(&clamped) * eig.eigenvectors.transpose();
    tangent_from_matrix(&projected)
}

/// Cofactor matrix `cof F = ∂(det F)/∂F` (`= det F · F⁻ᵀ` when invertible); closed forms for
/// `D = 2` (`[[F₂₂, −F₂₁], [−F₁₂, F₁₁]]`) and `D = 3` (columns `f₂×f₃, f₃×f₁, f₁×f₂`).
pub fn cofactor<const D: usize>(f: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
    match D {
        1 => SMatrix::from_element(1.0),
        2 => SMatrix::from_fn(|i, j| {
            let sign = if (i + j) % 2 == 0 { 1.0 } else { -1.0 };
            sign * f[(1 - i, 1 - j)]
        }),
        3 => SMatrix::from_fn(|i, j| {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            f[(i1, j1)] * f[(i2, j2)] - f[(i1, j2)] * f[(i2, j1)]
        }),
        _ => {
            let m = DMatrix::from_fn(D, D, |i, j| f[(i, j)]);
            let det = m.clone().determinant();
            match m.try_inverse() {
                Some(inv) => SMatrix::from_fn(|i, j| inv[(j, i)] * det),
                None => SMatrix::zeros(),
            }
        }
    }
}

/// `det F` for any `D` (closed forms for `D ≤ 3`; nalgebra's own `determinant` needs
/// type-level dimension bounds that a `const D` cannot provide).
pub fn determinant<const D: usize>(f: &SMatrix<f64, D, D>) -> f64 {
    match D {
        0 => 1.0,
        1 => f[(0, 0)],
        2 => f[(0, 0)] * f[(1, 1)] - f[(0, 1)] * f[(1, 0)],
        3 => {
            f[(0, 0)] * (f[(1, 1)] * f[(2, 2)] - f[(1, 2)] * f[(2, 1)])
                - f[(0, 1)] * (f[(1, 0)] * f[(2, 2)] - f[(1, 2)] * f[(2, 0)])
                + f[(0, 2)] * (f[(1, 0)] * f[(2, 1)] - f[(1, 1)] * f[(2, 0)])
        }
        _ => DMatrix::from_fn(D, D, |i, j| f[(i, j)]).determinant(),
    }
}

/// `F⁻¹ = (cof F)ᵀ / det F`, or `None` when `det F = 0` or non-finite.
///
/// ```
/// use nalgebra::Matrix3;
/// let f = Matrix3::new(2.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 4.0);
/// let inv = xpbd_core::energy::try_inverse(&f).unwrap();
/// assert!((f * inv - Matrix3::identity()).norm() < 1e-15);
/// ```
pub fn try_inverse<const D: usize>(f: &SMatrix<f64, D, D>) -> Option<SMatrix<f64, D, D>> {
    let det = determinant(f);
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    Some(cofactor(f).transpose() / det)
}

/// Directional derivative of the cofactor, `d(cof F)[dF]` (derived from the closed forms of
/// [`cofactor`]; it is linear in `dF` for `D = 2` and bilinear in `(F, dF)` for `D = 3`).
pub fn cofactor_derivative<const D: usize>(
    f: &SMatrix<f64, D, D>,
    df: &SMatrix<f64, D, D>,
) -> SMatrix<f64, D, D> {
    match D {
        1 => SMatrix::zeros(),
        2 => cofactor(df),
        3 => SMatrix::from_fn(|i, j| {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            df[(i1, j1)] * f[(i2, j2)] + f[(i1, j1)] * df[(i2, j2)]
                - df[(i1, j2)] * f[(i2, j1)]
                - f[(i1, j2)] * df[(i2, j1)]
        }),
        _ => {
            // d(J F⁻ᵀ) = J tr(F⁻¹dF) F⁻ᵀ − J F⁻ᵀ dFᵀ F⁻ᵀ.
            let det = determinant(f);
            match try_inverse(f) {
                Some(inv) => {
                    let inv_t = inv.transpose();
                    (inv_t * (inv * df).trace() - inv_t * df.transpose() * inv_t) * det
                }
                None => SMatrix::zeros(),
            }
        }
    }
}
