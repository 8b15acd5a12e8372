//! Static equilibrium: minimise `Π(u) = W(u) − s f_extᵀ u` for load factors `s` stepping to 1.

use crate::assembly::{System, internal_force, stiffness, strain_energy};
use crate::error::FemError;
use crate::linear_solver::SparseSolver;
use crate::newton::{NewtonSettings, NewtonStats, Objective, minimise};
use crate::problem::Problem;
use std::time::Instant;

/// Static solver settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StaticSettings {
    /// Initial number of equal load increments.
    pub load_steps: usize,
    /// How many times a failing increment may be halved before giving up.
    pub max_step_halvings: usize,
    /// Newton settings per increment.
    pub newton: NewtonSettings,
}

impl Default for StaticSettings {
    /// One increment, up to 8 halvings, default Newton.
    fn default() -> Self {
        Self {
            load_steps: 1,
            max_step_halvings: 8,
            newton: NewtonSettings::default(),
        }
    }
}

/// Result of a static solve.
#[derive(Debug, Clone)]
pub struct StaticSolution {
    /// Displacement of every DOF (`D·node + component`).
    pub displacement: Vec<f64>,
    /// Newton statistics over all increments (`residual_history` is the concatenation).
    pub stats: NewtonStats,
    /// Load increments accepted.
    pub increments: usize,
    /// Free DOFs.
    pub free_dofs: usize,
    /// Wall-clock seconds of the whole solve (set-up included).
    pub seconds: f64,
}

/// Static objective at a fixed load factor.
pub(crate) struct StaticObjective<'a, const D: usize> {
    pub problem: &'a Problem<D>,
    pub system: &'a System,
    pub base: Vec<f64>,
    pub load: Vec<f64>,
    pub floor: f64,
}

impl<const D: usize> StaticObjective<'_, D> {
    /// Full displacement from free values (prescribed entries taken from `base`).
    pub fn full(&self, x: &[f64]) -> Vec<f64> {
        let mut u = self.base.clone();
        for (d, &f) in self.system.free_index.iter().enumerate() {
            if f != u32::MAX {
                u[d] = x[f as usize];
            }
        }
        u
    }
}

impl<const D: usize> Objective for StaticObjective<'_, D> {
    fn objective(&self, x: &[f64]) -> f64 {
        let u = self.full(x);
        match strain_energy(self.problem, &u) {
            Ok(w) => w - self.load.iter().zip(&u).map(|(f, v)| f * v).sum::<f64>(),
            Err(_) => f64::INFINITY,
        }
    }

    fn gradient(&self, x: &[f64]) -> (Vec<f64>, f64) {
        let u = self.full(x);
        let fint = internal_force(self.problem, &u);
        let r: Vec<f64> = fint.iter().zip(&self.load).map(|(a, b)| a - b).collect();
        let scale = self
            .system
            .restrict(&self.load)
            .iter()
            .map(|v| v * v)
            .sum::<f64>()
            .sqrt()
            .max(fint.iter().map(|v| v * v).sum::<f64>().sqrt());
        (self.system.restrict(&r), scale)
    }

    fn hessian(&self, x: &[f64], projected: bool) -> Vec<f64> {
        stiffness(self.problem, self.system, &self.full(x), projected)
    }

    fn residual_floor(&self) -> f64 {
        self.floor
    }
}

/// Checks that `u` is inside the material's domain everywhere.
pub(crate) fn check_state<const D: usize>(problem: &Problem<D>, u: &[f64]) -> Result<(), FemError> {
    strain_energy(problem, u)
        .map(|_| ())
        .map_err(
            |(element, point, reason)| FemError::InadmissibleDeformation {
                element,
                point,
                reason,
            },
        )
}

/// Solves the static problem from `u = 0`. See [`solve_static_from`].
///
/// ```
/// use nalgebra::Vector2;
/// use xpbd_core::mesh::TriMesh2;
/// use xpbd_fem_reference::*;
/// // A bar under uniaxial tension: linear material, P1, exact solution u_x = σ x / E'.
/// let mesh = FemMesh::from_simplex_mesh(&TriMesh2::rectangle([2.0, 1.0], [4, 2]).unwrap(), ElementOrder::Linear).unwrap();
/// let mut p = Problem::new(mesh, ConstitutiveModel::new(MaterialKind::Linear, 100.0, 0.0).unwrap(), 1.0).unwrap();
/// p.clamp(|x| x.x < 1e-12);
/// p.add_traction(|x| (x.x - 2.0).abs() < 1e-12, Vector2::new(1.0, 0.0)).unwrap();
/// let sol = solve_static(&p, &StaticSettings::default()).unwrap();
/// // ν = 0: no lateral contraction, so the clamp does not disturb the uniform state.
/// assert!((sol.displacement[2 * 4] - 2.0 * 1.0 / 100.0).abs() < 1e-12);
/// ```
pub fn solve_static<const D: usize>(
    problem: &Problem<D>,
    settings: &StaticSettings,
) -> Result<StaticSolution, FemError> {
    solve_static_from(problem, settings, &vec![0.0; problem.dof_count()])
}

/// Solves for equilibrium with load stepping: increments of `1/load_steps` in the load factor,
/// each solved by Newton ([`crate::newton`]) from the previous equilibrium; a failing increment
/// is halved up to `max_step_halvings` times. Errors: [`FemError::NoDirichletConditions`],
/// [`FemError::InadmissibleDeformation`] (initial state), [`FemError::NewtonNotConverged`]
/// (with the residual history), linear-solver failures.
pub fn solve_static_from<const D: usize>(
    problem: &Problem<D>,
    settings: &StaticSettings,
    initial: &[f64],
) -> Result<StaticSolution, FemError> {
    let start = Instant::now();
    if settings.load_steps == 0 {
        return Err(FemError::InvalidInput {
            field: "load_steps",
            message: "must be ≥ 1".into(),
        });
    }
    if initial.len() != problem.dof_count() {
        return Err(FemError::InvalidInput {
            field: "initial",
            message: format!("{} values for {} DOFs", initial.len(), problem.dof_count()),
        });
    }
    let system = System::new(problem)?;
    check_state(problem, initial)?;
    let mut solver = SparseSolver::new(system.pattern.clone())?;
    let f_ext = problem.external_force();
    let floor = problem.residual_floor();
    let mut stats = NewtonStats::default();
    let mut u = initial.to_vec();
    let mut s_done = 0.0;
    let base_step = 1.0 / settings.load_steps as f64;
    let mut step = base_step;
    let mut halvings = 0;
    let mut increments = 0;
    while s_done < 1.0 {
        let s = (s_done + step).min(1.0);
        let mut base = u.clone();
        for (d, p) in problem.prescribed.iter().enumerate() {
            if let Some(v) = p {
                base[d] = s * v;
            }
        }
        let obj = StaticObjective {
            problem,
            system: &system,
            base,
            load: f_ext.iter().map(|f| s * f).collect(),
            floor,
        };
        let mut x = system.restrict(&u);
        match minimise(&obj, &mut solver, &mut x, &settings.newton, &mut stats)? {
            Ok(_) => {
                u = obj.full(&x);
                s_done = s;
                increments += 1;
                halvings = 0;
                step = (step * 2.0).min(base_step);
            }
            Err(iterations) => {
                if halvings >= settings.max_step_halvings {
                    return Err(FemError::NewtonNotConverged {
                        load_factor: s,
                        iterations,
                        residual_history: stats.residual_history,
                    });
                }
                halvings += 1;
                step *= 0.5;
            }
        }
    }
    Ok(StaticSolution {
        displacement: u,
        stats,
        increments,
        free_dofs: system.free_count,
        seconds: start.elapsed().as_secs_f64(),
    })
}
