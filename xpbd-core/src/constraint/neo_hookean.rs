//! Stable Neo-Hookean simplices as a pair of XPBD constraints (Macklin & Müller, MIG 2021).

use super::{ConstraintKind, SubstepBound, check_stencil, volume::rest_measure_checked};
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
    /// Per element, `2 λ_max(Σₖ ∇ₖ∇ₖᵀ)` (`∇ₖ` the rest gradients, the columns of `Dm⁻ᵀ` and
    /// `∇₀ = −Σ`): the largest shear stiffness per unit μ and rest measure, for
    /// [`ConstraintKind::max_substep`].
    pub shear_stiffness: Vec<f64>,
    /// Per particle, the rest measure of the elements touching it, `vₚ = Σₑ∋ₚ V₀ₑ`.
    pub particle_measure: Vec<f64>,
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
        let mut grad = [Vector::<D>::zeros(); 4];
        scatter_edge_gradient(&dm_inv.transpose(), &mut grad[..D + 1]);
        let gram: Matrix<D> = grad[..D + 1].iter().map(|g| g * g.transpose()).sum();
        let top_eigen = nalgebra::DMatrix::from_column_slice(D, D, gram.as_slice())
            .symmetric_eigenvalues()
            .max();
        self.shear_stiffness.push(2.0 * top_eigen);
        let top = element.iter().copied().max().unwrap_or(0);
        if self.particle_measure.len() <= top {
            self.particle_measure.resize(top + 1, 0.0);
        }
        for &i in element {
            self.particle_measure[i] += v;
        }
        self.elements.extend(idx);
        self.rest_inverse.push(dm_inv);
        self.rest_volume.push(v);
        Ok(e)
    }

    /// γ = 1 + μ/λ'.
    pub fn gamma(&self) -> f64 {
        1.0 + self.mu / self.lambda_stable
    }

    /// `C_H = det F − γ` and `∂C_H/∂F = cof F`.
    fn hydrostatic(&self, f: &Matrix<D>) -> (f64, Matrix<D>) {
        (determinant(f) - self.gamma(), cofactor(f))
    }
}

/// `C_D = ‖F‖` and `∂C_D/∂F = F/‖F‖` (zero at `F = 0`, where the norm has no gradient).
fn deviatoric<const D: usize>(f: &Matrix<D>) -> (f64, Matrix<D>) {
    let norm = f.norm();
    if norm < 1e-300 {
        (0.0, Matrix::<D>::zeros())
    } else {
        (norm, f / norm)
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
            self.hydrostatic(&f)
        } else {
            deviatoric(&f)
        };
        scatter_edge_gradient(&(dc_df * dm_inv.transpose()), grad);
        value
    }

    const PAIRED: bool = true;

    /// The hydrostatic and deviatoric constraints of element `c / 2` in one 2×2 solve (the
    /// trait's formula). At rest (`F = I`) both gradients are `I Dm⁻ᵀ` up to the factor
    /// `1/√D`, and from λ = 0 the solution is `Δλ_D = −√D μ V₀ h²`, `Δλ_H = μ V₀ h²`, whose
    /// corrections cancel exactly: the element stays at rest. Projected one after the other,
    /// `C_D` alone pulls the element towards `F = 0` and `C_H` pushes it back, and a few
    /// Gauss–Seidel iterations leave a large part of that tug unbalanced (a 2×2×2-cell rubber
    /// box drifted by a tenth of its size in 0.1 s; a steel box exploded).
    #[allow(clippy::too_many_arguments)]
    fn project_pair(
        &self,
        c: usize,
        idx: &[u32],
        xs: &mut [Vector<D>],
        x_prev: &[Vector<D>],
        w: &[f64],
        lambda: &mut [f64; 2],
        h: f64,
        relax: f64,
    ) -> bool {
        let e = c / 2;
        let dm_inv = &self.rest_inverse[e];
        let f = edge_matrix(xs) * dm_inv;
        let (c_h, dh) = self.hydrostatic(&f);
        let (c_d, dd) = deviatoric(&f);
        // D + 1 ≤ 4 stencil particles.
        let mut g_h = [Vector::<D>::zeros(); 4];
        let mut g_d = [Vector::<D>::zeros(); 4];
        let n = D + 1;
        scatter_edge_gradient(&(dh * dm_inv.transpose()), &mut g_h[..n]);
        scatter_edge_gradient(&(dd * dm_inv.transpose()), &mut g_d[..n]);
        let inv_h = 1.0 / h;
        let alpha = [self.compliance(c), self.compliance(c + 1)];
        let alpha_tilde = alpha.map(|a| a * inv_h * inv_h);
        let gamma = alpha.map(|a| a * self.damping * inv_h);
        let (mut a_hh, mut a_dd, mut a_hd) = (0.0, 0.0, 0.0);
        let (mut v_h, mut v_d) = (0.0, 0.0);
        for k in 0..n {
            let wk = w[idx[k] as usize];
            a_hh += wk * g_h[k].norm_squared();
            a_dd += wk * g_d[k].norm_squared();
            a_hd += wk * g_h[k].dot(&g_d[k]);
            if self.damping > 0.0 {
                let dx = xs[k] - x_prev[idx[k] as usize];
                v_h += g_h[k].dot(&dx);
                v_d += g_d[k].dot(&dx);
            }
        }
        let k11 = (1.0 + gamma[0]) * a_hh + alpha_tilde[0];
        let k12 = (1.0 + gamma[0]) * a_hd;
        let k21 = (1.0 + gamma[1]) * a_hd;
        let k22 = (1.0 + gamma[1]) * a_dd + alpha_tilde[1];
        // det K with the Gram determinant a_hh a_dd − a_hd² ≥ 0 (zero at rest, where the
        // gradients are parallel) kept apart from the compliance terms.
        let gram = (a_hh * a_dd - a_hd * a_hd).max(0.0);
        let det = (1.0 + gamma[0]) * (1.0 + gamma[1]) * gram
            + (1.0 + gamma[0]) * a_hh * alpha_tilde[1]
            + (1.0 + gamma[1]) * a_dd * alpha_tilde[0]
            + alpha_tilde[0] * alpha_tilde[1];
        if det.is_nan() || det <= f64::MIN_POSITIVE {
            return false;
        }
        let r_h = -c_h - alpha_tilde[0] * lambda[0] - gamma[0] * v_h;
        let r_d = -c_d - alpha_tilde[1] * lambda[1] - gamma[1] * v_d;
        let dl_h = relax * (k22 * r_h - k12 * r_d) / det;
        let dl_d = relax * (k11 * r_d - k21 * r_h) / det;
        lambda[0] += dl_h;
        lambda[1] += dl_d;
        for k in 0..n {
            xs[k] += (g_h[k] * dl_h + g_d[k] * dl_d) * w[idx[k] as usize];
        }
        dl_h != 0.0 || dl_d != 0.0
    }

    /// Hydrostatic: the volume change `det F − 1 = C_H + γ − 1`, infinite for an inverted
    /// element (`det F ≤ 0`: no deformation of a solid turns it inside out, so the solve has
    /// failed and the step is rolled back as overstrained); deviatoric: the stretch
    /// `‖F‖/√D − 1 = C_D/√D − 1` (0 at rest for both).
    fn relative_strain(&self, c: usize, value: f64) -> Option<f64> {
        Some(if c.is_multiple_of(2) {
            let det = value + self.gamma();
            if det <= 0.0 { f64::INFINITY } else { det - 1.0 }
        } else {
            value / (D as f64).sqrt() - 1.0
        })
    }

    /// The shear-wave bound `h ≤ 1.8/ω` (0.9 of the stability limit `2/ω`). The pair's 2×2 solve treats volume implicitly but not
    /// shear: a shear `F = I + εS` changes neither `C_H` nor `C_D` to first order, only their
    /// gradients, so the correction it draws, `−2εμV₀h² w S Dm⁻ᵀ`, is the shear force applied
    /// as symplectic Euler applies it, stable for `h ω ≤ 2` with ω² the largest eigenvalue of
    /// `M⁻¹K` (K the shear stiffness, at most `2μV₀ Σₖ∇ₖ∇ₖᵀ` per element). The energy's shear
    /// stiffness lives in the Hessians `λ∇²C` that XPBD's Gauss–Newton system leaves out.
    /// ω is bounded element by element (the element eigenvalue inequality, Irons 1970; Fried
    /// 1972): with each particle's mass shared among its elements in proportion to their
    /// measure, `ω² ≤ maxₑ μ · 2λ_max(Σₖ∇ₖ∇ₖᵀ) · maxₚ∈ₑ wₚ vₚ`. Measured on rubber boxes
    /// sheared by 1e-6 and stepped 2000 times: unstable from 0.99 (one cell, five tetrahedra),
    /// 1.5 (2³ cells) and 1.7 (4³ cells) times `2/ω`, where round-off grew ×10³ per step.
    /// Pinned particles (w = 0) set no bound.
    fn max_substep(&self, particles: &Particles<D>) -> Option<SubstepBound> {
        let mut worst: Option<(usize, f64)> = None;
        for (e, &s) in self.shear_stiffness.iter().enumerate() {
            for &p in &self.elements[e * (D + 1)..(e + 1) * (D + 1)] {
                let p = p as usize;
                let wv = particles.inv_mass.get(p).copied().unwrap_or(0.0)
                    * self.particle_measure.get(p).copied().unwrap_or(0.0);
                let rate = self.mu * s * wv;
                if rate.is_nan() || rate > 0.0 && worst.is_none_or(|(_, r)| rate > r) {
                    worst = Some((p, rate));
                }
            }
        }
        let (p, rate) = worst?;
        Some(SubstepBound {
            h: 1.8 / rate.sqrt(),
            rule: "shear waves of the stable neo-Hookean pair: h ≤ 1.8/ω, ω² = μ·2λ_max(Σ∇∇ᵀ)·w·v",
            particle: Some(p),
            travel: None,
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
