//! Triangle membrane strain for cloth in 3D (StVK or Neo-Hookean), as energy constraints.

use super::{ConstraintKind, check_stencil, neo_hookean::lame};
use crate::{BuildError, Particles, Vector};
use nalgebra::{Matrix2, Matrix3x2};

/// Which membrane energy density (per unit rest area, plane stress) to use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MembraneModel {
    /// St. Venant–Kirchhoff: `Ψ = μ |E|² + λ/2 (tr E)²`, `E = ½ (FᵀF − I)`.
    StVK,
    /// Compressible Neo-Hookean: `Ψ = μ/2 (tr FᵀF − 2) − μ ln J + λ/2 (ln J)²`,
    /// `J = √det(FᵀF)` (area ratio).
    NeoHookean,
}

/// One constraint per triangle on its 3×2 deformation gradient `F = [x₁−x₀, x₂−x₀] Dm⁻¹`
/// (Dm: rest edges in the triangle's own 2D frame), written in the energy form used by XPBI:
/// `C = √(2Ψ(F))`, `α = 1/A₀`, so `C²/(2α) = A₀ Ψ` exactly, and
/// `∇C = (∂Ψ/∂F) Dm⁻ᵀ / C` (the generic FEM-as-constraint pattern, xpbi-math.md §2.3).
/// `∂Ψ/∂F` is `F S` with `S = 2μE + λ tr(E) I` (StVK) or `μF + (λ ln J − μ) F (FᵀF)⁻¹`
/// (Neo-Hookean). At rest `C = 0` and the gradient vanishes: the constraint is inactive there.
///
/// Material: plane-stress Lamé parameters of a sheet of thickness `t`:
/// `μ = t E / (2(1+ν))`, `λ = t E ν / (1 − ν²)` (N/m).
#[derive(Debug, Clone, PartialEq)]
pub struct MembraneConstraints {
    /// Triangles (particle indices).
    pub triangles: Vec<[u32; 3]>,
    /// Inverse rest edge matrices in the triangle frame.
    pub rest_inverse: Vec<Matrix2<f64>>,
    /// Rest areas A₀.
    pub rest_area: Vec<f64>,
    /// Energy model.
    pub model: MembraneModel,
    /// μ·t (N/m).
    pub mu: f64,
    /// plane-stress λ·t (N/m).
    pub lambda: f64,
}

impl MembraneConstraints {
    /// A sheet of thickness `thickness` (m), Young's modulus `youngs`, Poisson's ratio `poisson`.
    pub fn new(
        model: MembraneModel,
        youngs: f64,
        poisson: f64,
        thickness: f64,
    ) -> Result<Self, BuildError> {
        let (mu, _) = lame(youngs, poisson)?;
        if !(thickness.is_finite() && thickness > 0.0) {
            return Err(BuildError::InvalidMaterial {
                field: "thickness",
                value: thickness,
                reason: "must be finite and > 0",
            });
        }
        let lambda_ps = youngs * poisson / (1.0 - poisson * poisson);
        Ok(Self {
            triangles: Vec::new(),
            rest_inverse: Vec::new(),
            rest_area: Vec::new(),
            model,
            mu: mu * thickness,
            lambda: lambda_ps * thickness,
        })
    }

    /// Adds a triangle with its rest shape taken from the current positions.
    pub fn add(&mut self, particles: &Particles<3>, tri: [usize; 3]) -> Result<usize, BuildError> {
        let c = self.triangles.len();
        let idx = tri.map(|i| i as u32);
        check_stencil("membrane", c, &idx, particles.len())?;
        let [a, b, d] = tri.map(|i| particles.x[i]);
        let (e1, e2) = (b - a, d - a);
        let area = 0.5 * e1.cross(&e2).norm();
        if !(area.is_finite() && area > 1e-12 * e1.norm_squared().max(e2.norm_squared())) {
            return Err(BuildError::DegenerateElement {
                kind: "membrane",
                element: c,
                measure: area,
            });
        }
        // Orthonormal frame in the triangle plane: t1 along e1, t2 in-plane ⟂ t1.
        let t1 = e1.normalize();
        let t2 = (e2 - t1 * t1.dot(&e2)).normalize();
        let dm = Matrix2::new(e1.dot(&t1), e2.dot(&t1), e1.dot(&t2), e2.dot(&t2));
        let inv = dm.try_inverse().ok_or(BuildError::DegenerateElement {
            kind: "membrane",
            element: c,
            measure: area,
        })?;
        self.triangles.push(idx);
        self.rest_inverse.push(inv);
        self.rest_area.push(area);
        Ok(c)
    }

    /// Energy density Ψ(F) and its derivative P = ∂Ψ/∂F (3×2).
    pub fn density(&self, f: &Matrix3x2<f64>) -> (f64, Matrix3x2<f64>) {
        let ftf = f.transpose() * f;
        match self.model {
            MembraneModel::StVK => {
                let e = (ftf - Matrix2::identity()) * 0.5;
                let tr = e.trace();
                let psi = self.mu * e.norm_squared() + 0.5 * self.lambda * tr * tr;
                let s = e * (2.0 * self.mu) + Matrix2::identity() * (self.lambda * tr);
                (psi, f * s)
            }
            MembraneModel::NeoHookean => {
                let det = ftf.determinant();
                if det <= 0.0 {
                    return (f64::INFINITY, Matrix3x2::zeros());
                }
                let ln_j = 0.5 * det.ln();
                let psi = 0.5 * self.mu * (ftf.trace() - 2.0) - self.mu * ln_j
                    + 0.5 * self.lambda * ln_j * ln_j;
                let inv = ftf.try_inverse().unwrap_or_else(Matrix2::zeros);
                (psi, f * self.mu + f * inv * (self.lambda * ln_j - self.mu))
            }
        }
    }
}

impl ConstraintKind<3> for MembraneConstraints {
    const SUBSTEP_HOOKS: bool = false;

    const NAME: &'static str = "membrane";
    const FIXED_ARITY: usize = 3;

    fn len(&self) -> usize {
        self.triangles.len()
    }

    fn stencil(&self, c: usize) -> &[u32] {
        &self.triangles[c]
    }

    fn compliance(&self, c: usize) -> f64 {
        1.0 / self.rest_area[c]
    }

    fn evaluate(&self, c: usize, xs: &[Vector<3>], grad: &mut [Vector<3>]) -> f64 {
        let dm_inv = &self.rest_inverse[c];
        let ds = Matrix3x2::from_columns(&[xs[1] - xs[0], xs[2] - xs[0]]);
        let f = ds * dm_inv;
        let (psi, p) = self.density(&f);
        let value = (2.0 * psi.max(0.0)).sqrt();
        if value.is_nan() || value <= 1e-12 || !value.is_finite() {
            grad.iter_mut().for_each(|g| *g = Vector::<3>::zeros());
            return if value.is_finite() { 0.0 } else { value };
        }
        let g = p * dm_inv.transpose() / value;
        grad[1] = g.column(0).into_owned();
        grad[2] = g.column(1).into_owned();
        grad[0] = -(grad[1] + grad[2]);
        value
    }
}
