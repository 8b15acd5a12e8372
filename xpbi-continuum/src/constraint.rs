//! The XPBI inelastic constraint of one particle (XPBI Eqs. 9–13; reference notes §1.3–1.6).
//!
//! With candidate positions `x = xⁿ + Δt v` and per-step frozen weights
//! `q_b = V_bⁿ L_p ∇W_b(x_pⁿ)` for the neighbours and `q_p = −Σ_b q_b` for the particle itself:
//!
//! ```text
//! Δt ∇v_p = Σ_{k ∈ {p} ∪ N(p)} (x_k − x_kⁿ) q_kᵀ                   (Eq. 11 × Δt)
//! F_tr    = (I + Δt ∇v_p) F_pⁿ                                      (Eq. 9)
//! F_E     = Z(F_tr)   (in the loop; skipped for the semi-implicit variant)
//! C_p     = sqrt(2 Ψ(F_E)),   α = 1/V_p⁰                            ((1/2α) C² = V⁰ Ψ)
//! ∇_{x_k} C_p = G q_k,   G = (∂C/∂F)(F_E) F_pⁿᵀ = P(F_E) F_pⁿᵀ / C     (Eqs. 12–13; Z held fixed)
//! ```
//! `Δt` cancels in `∂F/∂x_k` (derived), so `G` carries no time-step factor.

use nalgebra::{SMatrix, SVector};

use crate::hencky;
use crate::plasticity::{Lame, PlasticModel, PlasticState, principal, principal_from};

/// Below this value of `C` (J^{1/2}/m^{3/2}) the constraint is at rest and its gradient, `P/C`, is
/// a 0/0 limit; it is then reported as `C = 0` with a zero gradient (no correction).
pub const C_AT_REST: f64 = 1e-12;

/// Result of evaluating one inelastic constraint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InelasticEvaluation<const D: usize> {
    /// `C_p = sqrt(2Ψ(F_E))`.
    pub value: f64,
    /// `Ψ(F_E)` (J/m³).
    pub energy_density: f64,
    /// `G = P(F_E) F_pⁿᵀ / C` (zero at rest).
    pub gradient_factor: SMatrix<f64, D, D>,
    /// The projected elastic deformation gradient `F_E`.
    pub elastic_f: SMatrix<f64, D, D>,
    /// Plastic state after the projection (to be committed at the end of the step).
    pub state: PlasticState,
}

/// `Δt ∇v_p = Σ_k (x_k − x_kⁿ) q_kᵀ` over the stencil (`q` includes the particle's own weight).
///
/// ```
/// use nalgebra::{Matrix2, Vector2};
/// use xpbi_continuum::constraint::displacement_gradient;
/// let x = [Vector2::new(0.0, 0.0), Vector2::new(1.1, 0.0)];
/// let xn = [Vector2::new(0.0, 0.0), Vector2::new(1.0, 0.0)];
/// let q = [Vector2::new(-1.0, 0.0), Vector2::new(1.0, 0.0)];
/// let g = displacement_gradient(x.iter().zip(&xn).zip(&q).map(|((a, b), c)| (*a, *b, *c)));
/// assert!((g - Matrix2::new(0.1, 0.0, 0.0, 0.0)).norm() < 1e-12);
/// ```
pub fn displacement_gradient<const D: usize>(
    stencil: impl IntoIterator<Item = (SVector<f64, D>, SVector<f64, D>, SVector<f64, D>)>,
) -> SMatrix<f64, D, D> {
    let mut g = SMatrix::<f64, D, D>::zeros();
    for (x, xn, q) in stencil {
        g += (x - xn) * q.transpose();
    }
    g
}

/// Evaluates `C_p`, `G` and `F_E` from `Δt∇v_p` (see the module docs). `plastic_in_loop = false`
/// is the semi-implicit variant: `Z` is not applied here (only at the end of the step).
///
/// ```
/// use nalgebra::Matrix2;
/// use xpbi_continuum::constraint::evaluate;
/// use xpbi_continuum::plasticity::{Lame, PlasticModel, PlasticState};
/// let lame = Lame { mu: 1.0, lambda: 1.0 };
/// let e = evaluate(&Matrix2::zeros(), &Matrix2::identity(), &lame, &PlasticModel::Elastic,
///                  &PlasticState::default(), 1e-3, true);
/// assert_eq!(e.value, 0.0);
/// ```
pub fn evaluate<const D: usize>(
    dt_grad_v: &SMatrix<f64, D, D>,
    f_n: &SMatrix<f64, D, D>,
    lame: &Lame,
    model: &PlasticModel,
    state: &PlasticState,
    dt: f64,
    plastic_in_loop: bool,
) -> InelasticEvaluation<D> {
    evaluate_from(
        dt_grad_v,
        f_n,
        lame,
        model,
        state,
        dt,
        plastic_in_loop,
        &SMatrix::identity(),
    )
}

/// [`evaluate`] with the SVD of `F_tr` warm-started from `v_guess` (the right singular vectors
/// of `F_pⁿ`, computed once per step: `F_tr = (I + Δt∇v)Fⁿ` stays close to `Fⁿ`, so the Jacobi
/// SVD needs fewer sweeps). Same result up to round-off.
#[allow(clippy::too_many_arguments)] // `evaluate` plus the guess
pub fn evaluate_from<const D: usize>(
    dt_grad_v: &SMatrix<f64, D, D>,
    f_n: &SMatrix<f64, D, D>,
    lame: &Lame,
    model: &PlasticModel,
    state: &PlasticState,
    dt: f64,
    plastic_in_loop: bool,
    v_guess: &SMatrix<f64, D, D>,
) -> InelasticEvaluation<D> {
    let f_trial = (SMatrix::<f64, D, D>::identity() + dt_grad_v) * f_n;
    let core = evaluate_core(
        &f_trial,
        f_n,
        lame,
        model,
        state,
        dt,
        plastic_in_loop,
        v_guess,
        None,
    );
    let elastic_f = if plastic_in_loop && !matches!(model, PlasticModel::Elastic) {
        core.svd.u * SMatrix::from_diagonal(&core.sigma) * core.svd.v_t
    } else {
        f_trial
    };
    InelasticEvaluation {
        value: core.value,
        energy_density: core.energy_density,
        gradient_factor: core.gradient_factor,
        elastic_f,
        state: core.state,
    }
}

/// `(C, G)` of [`evaluate_from`] at the trial gradient `F_tr = (I + Δt∇v) Fⁿ`: what the XPBD
/// projection needs (`dp_alpha`: [`PlasticModel::constant_dp_alpha`]), for the generic
/// `evaluate`. The run kernel ([`crate::projection`]) shares [`principal_response`] with it
/// but forms the SVD and `G` from its own warm start, so the two agree to round-off.
///
/// (Measured and not kept: skipping the SVD for cohesionless Drucker–Prager in expansion,
/// `det F_tr > 1`, where `C = 0` and `G = 0` exactly; 0.4 % of the evaluations of the sand
/// column benchmark take that branch, fewer than the determinant costs.)
#[allow(clippy::too_many_arguments)] // `evaluate_core`'s arguments
#[inline(always)]
pub(crate) fn value_and_gradient<const D: usize>(
    f_trial: &SMatrix<f64, D, D>,
    f_n: &SMatrix<f64, D, D>,
    lame: &Lame,
    model: &PlasticModel,
    state: &PlasticState,
    dt: f64,
    plastic_in_loop: bool,
    v_guess: &SMatrix<f64, D, D>,
    dp_alpha: Option<f64>,
) -> (f64, SMatrix<f64, D, D>) {
    let e = evaluate_core(
        f_trial,
        f_n,
        lame,
        model,
        state,
        dt,
        plastic_in_loop,
        v_guess,
        dp_alpha,
    );
    (e.value, e.gradient_factor)
}

/// What [`evaluate_from`] computes before assembling `F_E`: the SVD of `F_tr`, the projected
/// strain and stretches, `C`, `Ψ`, `G` and the new state. The projection kernel
/// ([`crate::projection`]) needs only `C` and `G`; with this inlined the rest is dead code there.
pub(crate) struct EvaluationCore<const D: usize> {
    pub svd: crate::plasticity::Principal<D>,
    pub sigma: SVector<f64, D>,
    pub value: f64,
    pub energy_density: f64,
    pub gradient_factor: SMatrix<f64, D, D>,
    pub state: PlasticState,
}

/// The body of [`evaluate_from`] from `F_tr` (see there).
#[allow(clippy::too_many_arguments)] // `evaluate_from` with F_tr
#[inline(always)]
pub(crate) fn evaluate_core<const D: usize>(
    f_trial: &SMatrix<f64, D, D>,
    f_n: &SMatrix<f64, D, D>,
    lame: &Lame,
    model: &PlasticModel,
    state: &PlasticState,
    dt: f64,
    plastic_in_loop: bool,
    v_guess: &SMatrix<f64, D, D>,
    dp_alpha: Option<f64>,
) -> EvaluationCore<D> {
    let svd = principal_from(f_trial, v_guess);
    let p = principal_response(
        &svd.sigma,
        &svd.eps,
        lame,
        model,
        state,
        dt,
        plastic_in_loop,
        dp_alpha,
    );
    let gradient_factor = if p.value != 0.0 {
        svd.u * SMatrix::from_diagonal(&p.dc_dsigma) * svd.v_t * f_n.transpose()
    } else {
        SMatrix::zeros()
    };
    EvaluationCore {
        svd,
        sigma: p.sigma,
        value: p.value,
        energy_density: p.energy_density,
        gradient_factor,
        state: p.state,
    }
}

/// The constraint in principal form, from the trial stretches `σ` and strains `ε = ln σ`
/// (clamped) of one SVD `F_tr = U diag(σ) Vᵀ`: `∂C/∂F = U diag(dc_dsigma) Vᵀ`.
pub(crate) struct PrincipalResponse<const D: usize> {
    /// `C = sqrt(2Ψ(ε_E))`, 0 at rest (`C ≤ C_AT_REST`).
    pub value: f64,
    /// `∂C/∂σᵢ = (∂Ψ/∂σᵢ)/C` at the projected strain (zero at rest).
    pub dc_dsigma: SVector<f64, D>,
    /// `Ψ(ε_E)`.
    pub energy_density: f64,
    /// The projected stretches `exp ε_E` (the clamped `σ` when `Z` left `ε` unchanged).
    pub sigma: SVector<f64, D>,
    /// Plastic state after the projection.
    pub state: PlasticState,
}

/// Return mapping `ε_E = Z(ε)` (in the loop only), `C`, `Ψ` and `∂C/∂σ` (see
/// [`PrincipalResponse`]); shared by [`evaluate_from`] and the run kernel
/// ([`crate::projection`]), which forms `G` from its own record of `V`.
#[allow(clippy::too_many_arguments)] // the constitutive inputs
#[inline(always)]
pub(crate) fn principal_response<const D: usize>(
    sigma: &SVector<f64, D>,
    eps: &SVector<f64, D>,
    lame: &Lame,
    model: &PlasticModel,
    state: &PlasticState,
    dt: f64,
    plastic_in_loop: bool,
    dp_alpha: Option<f64>,
) -> PrincipalResponse<D> {
    let (eps_e, new_state) = if plastic_in_loop {
        model.project_strain_with(eps, state, lame, dt, dp_alpha)
    } else {
        (*eps, *state)
    };
    // σ = exp ε; when Z left ε unchanged (elastic step) that is the clamped SVD value, so the
    // exponentials are skipped (ε and Ψ are used directly: no logarithm is recomputed either).
    let projected = eps_e != *eps;
    let sigma_e = if projected {
        eps_e.map(f64::exp)
    } else {
        sigma.map(|s| s.max(crate::plasticity::MIN_SINGULAR_VALUE))
    };
    let energy_density = hencky::psi_from_strain(lame, &eps_e);
    let value = (2.0 * energy_density).max(0.0).sqrt();
    let active = value > C_AT_REST; // false for NaN too: no correction
    PrincipalResponse {
        value: if active { value } else { 0.0 },
        dc_dsigma: if active {
            hencky::dpsi_from_strain(lame, &eps_e, &sigma_e) / value
        } else {
            SVector::zeros()
        },
        energy_density,
        sigma: sigma_e,
        state: new_state,
    }
}

/// `det F` for `D ∈ {1, 2, 3}` (closed forms; NaN for other dimensions, which the kernel rejects).
///
/// ```
/// use nalgebra::Matrix2;
/// assert_eq!(xpbi_continuum::constraint::determinant(&Matrix2::new(2.0, 1.0, 0.0, 3.0)), 6.0);
/// ```
pub fn determinant<const D: usize>(f: &SMatrix<f64, D, D>) -> f64 {
    match D {
        1 => f[(0, 0)],
        2 => f[(0, 0)] * f[(1, 1)] - f[(0, 1)] * f[(1, 0)],
        3 => {
            f[(0, 0)] * (f[(1, 1)] * f[(2, 2)] - f[(1, 2)] * f[(2, 1)])
                - f[(0, 1)] * (f[(1, 0)] * f[(2, 2)] - f[(1, 2)] * f[(2, 0)])
                + f[(0, 2)] * (f[(1, 0)] * f[(2, 1)] - f[(1, 1)] * f[(2, 0)])
        }
        _ => f64::NAN,
    }
}

/// The two terms of the split constraint form (XPBI mentions the split as the alternative to the
/// single `C = sqrt(2Ψ)`; the form below is derived in the reference notes §1.4):
///
/// ```text
/// shear  (μ term):  C_μ = ‖ε‖ = sqrt(Σ (ln σᵢ)²),   α_μ = 1/(2μV⁰),   ∂C_μ/∂σᵢ = εᵢ/(σᵢ ‖ε‖)
/// volume (λ term):  C_λ = tr ε = Σ ln σᵢ = ln J,    α_λ = 1/(λV⁰),    ∂C_λ/∂σᵢ = 1/σᵢ
/// C_μ²/(2α_μ) + C_λ²/(2α_λ) = V⁰ (μ‖ε‖² + (λ/2)(tr ε)²) = V⁰ Ψ
/// ```
/// so the split has the same total energy, hence the same converged static equilibrium, as the
/// single constraint; it differs in how a sweep distributes the work (two scalar projections
/// per particle, each with its own compliance). `C_λ` is signed (an equality constraint), `C_μ`
/// is a norm and, like the single form, has a zero gradient at rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitTerm {
    /// `C_μ = ‖ln Σ‖`, compliance `1/(2μV⁰)`.
    Shear,
    /// `C_λ = tr ln Σ`, compliance `1/(λV⁰)`.
    Volume,
}

/// Evaluates one term of the split constraint (see [`SplitTerm`]) from `Δt∇v_p`, with the
/// same trial gradient, return mapping and `G = (∂C/∂F)(F_E) F_pⁿᵀ` convention as [`evaluate`];
/// `energy_density` is the term's part of Ψ.
///
/// ```
/// use nalgebra::Matrix2;
/// use xpbi_continuum::constraint::{SplitTerm, evaluate_split};
/// use xpbi_continuum::plasticity::{Lame, PlasticModel, PlasticState};
/// let lame = Lame { mu: 1.0, lambda: 1.0 };
/// // Uniform stretch by e^0.1: C_λ = 2 · 0.1 in 2D.
/// let g = Matrix2::identity() * (0.1f64.exp() - 1.0);
/// let e = evaluate_split(&g, &Matrix2::identity(), &lame, &PlasticModel::Elastic,
///                        &PlasticState::default(), 1e-3, true, SplitTerm::Volume);
/// assert!((e.value - 0.2).abs() < 1e-12);
/// ```
#[allow(clippy::too_many_arguments)] // mirrors `evaluate` plus the term
pub fn evaluate_split<const D: usize>(
    dt_grad_v: &SMatrix<f64, D, D>,
    f_n: &SMatrix<f64, D, D>,
    lame: &Lame,
    model: &PlasticModel,
    state: &PlasticState,
    dt: f64,
    plastic_in_loop: bool,
    term: SplitTerm,
) -> InelasticEvaluation<D> {
    let f_trial = (SMatrix::<f64, D, D>::identity() + dt_grad_v) * f_n;
    let svd = principal(&f_trial);
    let (eps, new_state) = if plastic_in_loop {
        model.project_strain(&svd.eps, state, lame, dt)
    } else {
        (svd.eps, *state)
    };
    let sigma = eps.map(f64::exp);
    let elastic_f = if plastic_in_loop && !matches!(model, PlasticModel::Elastic) {
        svd.u * SMatrix::from_diagonal(&sigma) * svd.v_t
    } else {
        f_trial
    };
    let (value, energy_density, dc_dsigma) = match term {
        SplitTerm::Shear => {
            let norm = eps.norm();
            let d = if norm > C_AT_REST {
                eps.component_div(&sigma) / norm
            } else {
                SVector::zeros()
            };
            (
                if norm > C_AT_REST { norm } else { 0.0 },
                lame.mu * norm * norm,
                d,
            )
        }
        SplitTerm::Volume => {
            let tr = eps.sum();
            (tr, 0.5 * lame.lambda * tr * tr, sigma.map(|s| 1.0 / s))
        }
    };
    let gradient_factor = svd.u * SMatrix::from_diagonal(&dc_dsigma) * svd.v_t * f_n.transpose();
    InelasticEvaluation {
        value,
        energy_density,
        gradient_factor,
        elastic_f,
        state: new_state,
    }
}
