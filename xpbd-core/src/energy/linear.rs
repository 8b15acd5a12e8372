//! Small-strain linear elasticity.

use super::HyperelasticEnergy;
use nalgebra::SMatrix;

/// Linear (small-strain) isotropic elasticity written as a function of `F`:
///
/// `ε = ½(F + Fᵀ) − I`, `Ψ = μ ε:ε + λ/2 (tr ε)²`, `P = 2μ ε + λ tr(ε) I`,
/// `dP = μ (dF + dFᵀ) + λ tr(dF) I` (constant tangent).
///
/// Not rotation invariant: use it only for small-strain checks. `D = 2` is plane strain.
///
/// ```
/// use nalgebra::Matrix2;
/// use xpbd_core::energy::{HyperelasticEnergy, LinearElastic};
/// let m = LinearElastic { mu: 1.0, lambda: 2.0 };
/// let f = Matrix2::new(1.01, 0.0, 0.0, 1.0); // ε₁₁ = 0.01
/// assert!((m.pk1(&f)[(0, 0)] - (2.0 + 2.0) * 0.01).abs() < 1e-14);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearElastic {
    /// Shear modulus `μ` (Pa).
    pub mu: f64,
    /// First Lamé parameter `λ` (Pa).
    pub lambda: f64,
}

impl LinearElastic {
    fn strain<const D: usize>(f: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
        (f + f.transpose()) * 0.5 - SMatrix::<f64, D, D>::identity()
    }
}

impl<const D: usize> HyperelasticEnergy<D> for LinearElastic {
    fn psi(&self, f: &SMatrix<f64, D, D>) -> f64 {
        let eps = Self::strain(f);
        let tr = eps.trace();
        self.mu * eps.norm_squared() + 0.5 * self.lambda * tr * tr
    }

    fn pk1(&self, f: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
        let eps = Self::strain(f);
        eps * (2.0 * self.mu) + SMatrix::<f64, D, D>::identity() * (self.lambda * eps.trace())
    }

    fn dpk1(&self, _f: &SMatrix<f64, D, D>, df: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
        (df + df.transpose()) * self.mu
            + SMatrix::<f64, D, D>::identity() * (self.lambda * df.trace())
    }
}
