//! Newton's method with backtracking line search, shared by the static solver (load stepping)
//! and backward Euler (one minimisation per step).
//!
//! Each iteration minimises an objective `E(u)` whose gradient on the free DOFs is `g` and
//! Hessian `H`: solve `H δ = −g` (Cholesky; if `H` is indefinite, sparse LU; if the LU direction
//! is not a descent direction, the per-element PSD-projected Hessian), then backtrack
//! `α ← α/2` until the Armijo condition `E(u + αδ) ≤ E(u) + 10⁻⁴ α gᵀδ` holds or, when the
//! energy change is below its own round-off (`10⁻¹⁰ |E|`), the residual norm decreases. An
//! inadmissible trial state has `E = +∞`.
//! Converged when `‖g‖ ≤ rtol · scale + atol + floor` (see [`Objective::residual_floor`]).

use crate::error::FemError;
use crate::linear_solver::SparseSolver;

/// Tangent used by Newton.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TangentKind {
    /// The exact Hessian (falls back to LU, then projection, when indefinite).
    Exact,
    /// Per-quadrature-point PSD projection of `∂P/∂F` (projected Newton, Teran et al. 2005).
    Projected,
}

/// Newton settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewtonSettings {
    /// Converged when `‖g‖ ≤ relative_tolerance · scale + absolute_tolerance`, `scale` being the
    /// larger of the external and the internal force norms.
    pub relative_tolerance: f64,
    /// Absolute residual tolerance (force units).
    pub absolute_tolerance: f64,
    /// Maximum Newton iterations per minimisation.
    pub max_iterations: usize,
    /// Maximum halvings in the line search.
    pub max_backtracks: usize,
    /// Tangent kind.
    pub tangent: TangentKind,
}

impl Default for NewtonSettings {
    /// `rtol = 1e-9`, `atol = 0`, 30 iterations, 30 backtracks, exact tangent.
    fn default() -> Self {
        Self {
            relative_tolerance: 1e-9,
            absolute_tolerance: 0.0,
            max_iterations: 30,
            max_backtracks: 30,
            tangent: TangentKind::Exact,
        }
    }
}

/// Counters of a Newton run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewtonStats {
    /// Newton iterations (linear solves).
    pub iterations: usize,
    /// Solves that used LU because Cholesky failed.
    pub lu_fallbacks: usize,
    /// Solves that used the projected tangent because the exact one gave no descent direction.
    pub projected_fallbacks: usize,
    /// `‖g‖` at every iteration (including the converged one).
    pub residual_history: Vec<f64>,
}

/// What Newton minimises: `objective` (`+∞` if inadmissible), `gradient` on the free DOFs (and
/// the force scale for the relative tolerance), `hessian` values on the solver's pattern.
pub trait Objective {
    /// `E(x)` for free-DOF vector `x`.
    fn objective(&self, x: &[f64]) -> f64;
    /// `(∇E(x), force scale)`.
    fn gradient(&self, x: &[f64]) -> (Vec<f64>, f64);
    /// Hessian values (exact or projected).
    fn hessian(&self, x: &[f64], projected: bool) -> Vec<f64>;
    /// Residual norm that counts as converged whatever the tolerances (round-off floor).
    fn residual_floor(&self) -> f64;
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// Solves `H δ = −g`, returning the direction and the factorisation used.
fn newton_direction(
    obj: &impl Objective,
    solver: &mut SparseSolver,
    x: &[f64],
    g: &[f64],
    settings: &NewtonSettings,
    stats: &mut NewtonStats,
) -> Result<Vec<f64>, FemError> {
    let rhs: Vec<f64> = g.iter().map(|v| -v).collect();
    let projected = settings.tangent == TangentKind::Projected;
    let h = obj.hessian(x, projected);
    if let Some(d) = solver.solve_cholesky(&h, &rhs)? {
        return Ok(d);
    }
    if !projected {
        stats.lu_fallbacks += 1;
        if let Ok(d) = solver.solve_lu(&h, &rhs)
            && dot(&d, g) < 0.0
        {
            return Ok(d);
        }
        stats.projected_fallbacks += 1;
        let hp = obj.hessian(x, true);
        if let Some(d) = solver.solve_cholesky(&hp, &rhs)? {
            return Ok(d);
        }
        return solver.solve_lu(&hp, &rhs);
    }
    stats.lu_fallbacks += 1;
    solver.solve_lu(&h, &rhs)
}

/// Minimises `obj` from `x` in place. On failure returns `Err(iterations)` (the history is in
/// `stats`); linear-algebra failures are returned as errors.
pub fn minimise(
    obj: &impl Objective,
    solver: &mut SparseSolver,
    x: &mut [f64],
    settings: &NewtonSettings,
    stats: &mut NewtonStats,
) -> Result<Result<usize, usize>, FemError> {
    let mut energy = obj.objective(x);
    for it in 0..=settings.max_iterations {
        let (g, scale) = obj.gradient(x);
        let r = norm(&g);
        stats.residual_history.push(r);
        if !r.is_finite() || !energy.is_finite() {
            return Ok(Err(it));
        }
        if r <= settings.relative_tolerance * scale
            + settings.absolute_tolerance
            + obj.residual_floor()
        {
            return Ok(Ok(it));
        }
        if it == settings.max_iterations {
            return Ok(Err(it));
        }
        let d = newton_direction(obj, solver, x, &g, settings, stats)?;
        stats.iterations += 1;
        let slope = dot(&g, &d);
        let mut alpha = 1.0;
        let mut accepted = false;
        let mut trial = x.to_vec();
        for _ in 0..=settings.max_backtracks {
            for (t, (xi, di)) in trial.iter_mut().zip(x.iter().zip(&d)) {
                *t = xi + alpha * di;
            }
            let e_trial = obj.objective(&trial);
            let armijo = e_trial <= energy + 1e-4 * alpha * slope;
            // Near convergence the energy change falls below the round-off of E itself; there
            // the merit function is the residual norm instead.
            let in_noise = e_trial.is_finite()
                && (e_trial - energy).abs() <= 1e-10 * energy.abs().max(e_trial.abs());
            if armijo || (in_noise && norm(&obj.gradient(&trial).0) < r) {
                energy = e_trial;
                accepted = true;
                break;
            }
            alpha *= 0.5;
        }
        if !accepted {
            return Ok(Err(it + 1));
        }
        x.copy_from_slice(&trial);
    }
    Ok(Err(settings.max_iterations))
}
