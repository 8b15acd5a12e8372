//! Stable Neo-Hookean simplices as a pair of XPBD constraints (Macklin & Müller, MIG 2021).

use super::{ConstraintKind, check_stencil, volume::rest_measure_checked};
use crate::geometry::{cofactor, determinant, edge_matrix, inverse, scatter_edge_gradient};
use crate::{BuildError, Matrix, Particles, Vector};

/// Each element (tetrahedron in 3D, plane-strain triangle in 2D) contributes two constraints
/// on its deformation gradient `F = Ds Dm⁻¹`, whose energies sum to the stable Neo-Hookean
/// density `Ψ = μ/2 (tr FᵀF − D) + λ'/2 (det F − γ)²` times the rest volume V₀:
///
/// * hydrostatic `C_H = det F − γ`, `α_H = 1 / (λ' V₀)`, `γ = 1 + μ/λ'` (rest-stable shift);
/// * deviatoric `C_D = √(tr FᵀF)`, `α_D = 1 / (μ V₀)` (the constant −D/2 of Ψ is irrelevant).
///
/// Gradients `∇_{x_k} C = (∂C/∂F) Dm⁻ᵀ` columns, with `∂ det F/∂F = cof F` and
/// `∂√I_C/∂F = F/√I_C` (xpbi-math.md §2.4, finite-difference checked in the tests).
///
/// Parameter mapping: with Lamé parameters (μ, λ) from Young's modulus and Poisson's ratio,
/// `λ' = λ + μ` makes the small-strain limit equal linear elasticity (derived: the second
/// variation at F = I is `μ|sym H|² + (λ' − μ)/2 (tr H)²`). Constraint `2e` is element `e`'s
/// hydrostatic part, `2e + 1` its deviatoric part.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NeoHookeanTetConstraints<const D: usize> {
    /// `D + 1` indices per element, flattened.
    pub elements: Vec<u32>,
    /// Inverse rest edge matrices Dm⁻¹.
    pub rest_inverse: Vec<Matrix<D>>,
    /// Rest measures V₀.
    pub rest_volume: Vec<f64>,
    /// Shear modulus μ (Pa).
    pub mu: f64,
    /// Shifted first parameter λ' = λ + μ (Pa).
    pub lambda_stable: f64,
    /// Rayleigh damping β for both constraints.
    pub damping: f64,
}

impl<const D: usize> NeoHookeanTetConstraints<D> {
    /// An empty set for a material with Young's modulus `youngs` (Pa), Poisson's ratio
    /// `poisson` ∈ (−1, 0.5).
    pub fn new(youngs: f64, poisson: f64) -> Result<Self, BuildError> {
        let (mu, lambda) = lame(youngs, poisson)?;
        Ok(Self {
            mu,
            lambda_stable: lambda + mu,
            ..Self::default()
        })
    }

    /// Adds a positively oriented element with rest shape from the current positions.
    pub fn add(
        &mut self,
        particles: &Particles<D>,
        element: &[usize],
    ) -> Result<usize, BuildError> {
        let e = self.rest_volume.len();
        let idx: Vec<u32> = element.iter().map(|&i| i as u32).collect();
        if idx.len() != D + 1 {
            return Err(BuildError::InvalidGeometry(format!(
                "neo-hookean element {e}: needs {} indices",
                D + 1
            )));
        }
        check_stencil("neo-hookean", e, &idx, particles.len())?;
        let xs: Vec<Vector<D>> = element.iter().map(|&i| particles.x[i]).collect();
        let v = rest_measure_checked("neo-hookean", e, &xs)?;
        let dm_inv = inverse(&edge_matrix(&xs)).ok_or(BuildError::DegenerateElement {
            kind: "neo-hookean",
            element: e,
            measure: v,
        })?;
        self.elements.extend(idx);
        self.rest_inverse.push(dm_inv);
        self.rest_volume.push(v);
        Ok(e)
    }

    /// γ = 1 + μ/λ'.
    pub fn gamma(&self) -> f64 {
        1.0 + self.mu / self.lambda_stable
    }
}

/// Lamé parameters `μ = E / (2(1+ν))`, `λ = E ν / ((1+ν)(1−2ν))` (the shared
/// [`crate::energy::lame_from_young_poisson`]) after range checks with typed errors.
pub fn lame(youngs: f64, poisson: f64) -> Result<(f64, f64), BuildError> {
    if !(youngs.is_finite() && youngs > 0.0) {
        return Err(BuildError::InvalidMaterial {
            field: "youngs",
            value: youngs,
            reason: "must be finite and > 0",
        });
    }
    if !(poisson.is_finite() && poisson > -1.0 && poisson < 0.5) {
        return Err(BuildError::InvalidMaterial {
            field: "poisson",
            value: poisson,
            reason: "must lie in (-1, 0.5)",
        });
    }
    Ok((
        youngs / (2.0 * (1.0 + poisson)),
        youngs * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson)),
    ))
}

impl<const D: usize> ConstraintKind<D> for NeoHookeanTetConstraints<D> {
    const SUBSTEP_HOOKS: bool = false;

    const NAME: &'static str = "neo-hookean";
    const FIXED_ARITY: usize = D + 1;

    fn len(&self) -> usize {
        2 * self.rest_volume.len()
    }

    fn stencil(&self, c: usize) -> &[u32] {
        let e = c / 2;
        &self.elements[e * (D + 1)..(e + 1) * (D + 1)]
    }

    fn compliance(&self, c: usize) -> f64 {
        let v = self.rest_volume[c / 2];
        if c.is_multiple_of(2) {
            1.0 / (self.lambda_stable * v)
        } else {
            1.0 / (self.mu * v)
        }
    }

    fn damping(&self, _c: usize) -> f64 {
        self.damping
    }

    fn evaluate(&self, c: usize, xs: &[Vector<D>], grad: &mut [Vector<D>]) -> f64 {
        let dm_inv = &self.rest_inverse[c / 2];
        let f = edge_matrix(xs) * dm_inv;
        let (value, dc_df) = if c.is_multiple_of(2) {
            (determinant(&f) - self.gamma(), cofactor(&f))
        } else {
            let norm = f.norm();
            if norm < 1e-300 {
                (0.0, Matrix::<D>::zeros())
            } else {
                (norm, f / norm)
            }
        };
        scatter_edge_gradient(&(dc_df * dm_inv.transpose()), grad);
        value
    }

    /// Hydrostatic: the volume change `det F − 1 = C_H + γ − 1`; deviatoric: the stretch
    /// `‖F‖/√D − 1 = C_D/√D − 1` (0 at rest for both).
    fn relative_strain(&self, c: usize, value: f64) -> Option<f64> {
        Some(if c.is_multiple_of(2) {
            value + self.gamma() - 1.0
        } else {
            value / (D as f64).sqrt() - 1.0
        })
    }

    fn validate(&self) -> Result<(), BuildError> {
        for (field, v) in [("mu", self.mu), ("lambda_stable", self.lambda_stable)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(BuildError::InvalidMaterial {
                    field,
                    value: v,
                    reason: "must be finite and > 0",
                });
            }
        }
        Ok(())
    }
}
