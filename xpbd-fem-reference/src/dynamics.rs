//! Backward-Euler dynamics: each step minimises the incremental potential (Martin et al. 2011,
//! "Example-based elastic materials", Eq. 2; Gast et al. 2015)
//!
//! `E(u) = 1/(2h²) (u − ũ)ᵀ M (u − ũ) + W(u) − f_extᵀ u`, `ũ = uⁿ + h vⁿ`,
//!
//! whose stationarity is `M (uⁿ⁺¹ − uⁿ − h vⁿ)/h² + f_int(uⁿ⁺¹) = f_ext`; then
//! `vⁿ⁺¹ = (uⁿ⁺¹ − uⁿ)/h`. Dirichlet DOFs are held at their prescribed values (load factor 1).

use crate::assembly::{System, internal_force, mass, stiffness, strain_energy};
use crate::error::FemError;
use crate::linear_solver::SparseSolver;
use crate::newton::{NewtonSettings, NewtonStats, Objective, minimise};
use crate::problem::Problem;
use crate::static_solver::check_state;
use nalgebra::SVector;

/// A backward-Euler integrator for one [`Problem`].
#[derive(Debug)]
pub struct BackwardEuler<'a, const D: usize> {
    problem: &'a Problem<D>,
    system: System,
    solver: Option<SparseSolver>,
    mass: Vec<f64>,
    f_ext: Vec<f64>,
    floor: f64,
    /// Time step `h`.
    pub dt: f64,
    /// Displacement of every DOF.
    pub displacement: Vec<f64>,
    /// Velocity of every DOF.
    pub velocity: Vec<f64>,
    /// Newton settings per step.
    pub newton: NewtonSettings,
    /// Accumulated Newton statistics.
    pub stats: NewtonStats,
    /// Simulated time.
    pub time: f64,
}

struct StepObjective<'s, 'a, const D: usize> {
    be: &'s BackwardEuler<'a, D>,
    predicted: Vec<f64>,
}

impl<const D: usize> StepObjective<'_, '_, D> {
    fn full(&self, x: &[f64]) -> Vec<f64> {
        let mut u = self.be.displacement.clone();
        for (d, &f) in self.be.system.free_index.iter().enumerate() {
            if f != u32::MAX {
                u[d] = x[f as usize];
            }
        }
        u
    }

    fn inertia(&self, x: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let dx: Vec<f64> = x.iter().zip(&self.predicted).map(|(a, b)| a - b).collect();
        let mdx = self.be.system.pattern.mul_vec(&self.be.mass, &dx);
        (dx, mdx)
    }
}

impl<const D: usize> Objective for StepObjective<'_, '_, D> {
    fn objective(&self, x: &[f64]) -> f64 {
        let u = self.full(x);
        let Ok(w) = strain_energy(self.be.problem, &u) else {
            return f64::INFINITY;
        };
        let (dx, mdx) = self.inertia(x);
        let h2 = self.be.dt * self.be.dt;
        0.5 / h2 * dx.iter().zip(&mdx).map(|(a, b)| a * b).sum::<f64>() + w
            - self
                .be
                .f_ext
                .iter()
                .zip(&u)
                .map(|(f, v)| f * v)
                .sum::<f64>()
    }

    fn gradient(&self, x: &[f64]) -> (Vec<f64>, f64) {
        let u = self.full(x);
        let fint = internal_force(self.be.problem, &u);
        let (_, mdx) = self.inertia(x);
        let h2 = self.be.dt * self.be.dt;
        let static_part: Vec<f64> = fint
            .iter()
            .zip(&self.be.f_ext)
            .map(|(a, b)| a - b)
            .collect();
        let g: Vec<f64> = self
            .be
            .system
            .restrict(&static_part)
            .iter()
            .zip(&mdx)
            .map(|(s, m)| s + m / h2)
            .collect();
        let nrm = |v: &[f64]| v.iter().map(|a| a * a).sum::<f64>().sqrt();
        let inertial: Vec<f64> = mdx.iter().map(|m| m / h2).collect();
        let scale = nrm(&self.be.f_ext).max(nrm(&fint)).max(nrm(&inertial));
        (g, scale)
    }

    fn hessian(&self, x: &[f64], projected: bool) -> Vec<f64> {
        let mut k = stiffness(self.be.problem, &self.be.system, &self.full(x), projected);
        let h2 = self.be.dt * self.be.dt;
        for (kv, m) in k.iter_mut().zip(&self.be.mass) {
            *kv += m / h2;
        }
        k
    }

    fn residual_floor(&self) -> f64 {
        self.be.floor
    }
}

impl<'a, const D: usize> BackwardEuler<'a, D> {
    /// An integrator starting from displacement `u0` and velocity `v0` (full DOF vectors).
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use xpbd_core::mesh::TriMesh2;
    /// use xpbd_fem_reference::*;
    /// let mesh = FemMesh::from_simplex_mesh(&TriMesh2::rectangle([1.0, 0.1], [10, 1]).unwrap(), ElementOrder::Quadratic).unwrap();
    /// let mut p = Problem::new(mesh, ConstitutiveModel::new(MaterialKind::Hencky, 1e6, 0.3).unwrap(), 1000.0).unwrap();
    /// p.clamp(|x| x.x < 1e-12);
    /// p.body_force = Vector2::new(0.0, -9.81);
    /// let n = p.dof_count();
    /// let mut be = BackwardEuler::new(&p, 1e-3, vec![0.0; n], vec![0.0; n]).unwrap();
    /// be.step().unwrap();
    /// // After one step from rest the beam moves down (free fall at first: u ≈ -g h² at the tip).
    /// let tip = be.point_displacement(&Vector2::new(1.0, 0.05)).unwrap();
    /// assert!(tip.y < 0.0 && tip.y > -2.0 * 9.81 * 1e-6);
    /// ```
    pub fn new(
        problem: &'a Problem<D>,
        dt: f64,
        u0: Vec<f64>,
        v0: Vec<f64>,
    ) -> Result<Self, FemError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(FemError::NonFiniteParameter {
                field: "dt",
                value: dt,
                expected: "finite and > 0",
            });
        }
        let n = problem.dof_count();
        if u0.len() != n || v0.len() != n {
            return Err(FemError::InvalidInput {
                field: "u0/v0",
                message: format!("expected {n} values"),
            });
        }
        let system = System::new(problem)?;
        check_state(problem, &u0)?;
        let solver = SparseSolver::new(system.pattern.clone())?;
        let mass = mass(problem, &system);
        let f_ext = problem.external_force();
        Ok(Self {
            problem,
            system,
            solver: Some(solver),
            mass,
            f_ext,
            floor: problem.residual_floor(),
            dt,
            displacement: u0,
            velocity: v0,
            newton: NewtonSettings::default(),
            stats: NewtonStats::default(),
            time: 0.0,
        })
    }

    /// Advances one step. Fails with [`FemError::NewtonNotConverged`] (load factor = 1, the
    /// history of the whole run) if the step's Newton solve fails.
    pub fn step(&mut self) -> Result<(), FemError> {
        let x0 = self.system.restrict(&self.displacement);
        let v = self.system.restrict(&self.velocity);
        let predicted: Vec<f64> = x0.iter().zip(&v).map(|(u, v)| u + self.dt * v).collect();
        let mut x = predicted.clone();
        let mut stats = std::mem::take(&mut self.stats);
        let mut solver = self.solver.take().ok_or_else(|| FemError::LinearSolver {
            message: "solver lost after a failed step".into(),
        })?;
        let outcome = {
            let obj = StepObjective {
                be: self,
                predicted,
            };
            let r = minimise(&obj, &mut solver, &mut x, &self.newton, &mut stats);
            r.map(|res| (res, obj.full(&x)))
        };
        self.solver = Some(solver);
        let (result, u_new) = match outcome {
            Ok(v) => v,
            Err(e) => {
                self.stats = stats;
                return Err(e);
            }
        };
        if let Err(iterations) = result {
            return Err(FemError::NewtonNotConverged {
                load_factor: 1.0,
                iterations,
                residual_history: stats.residual_history,
            });
        }
        self.stats = stats;
        for d in 0..self.displacement.len() {
            self.velocity[d] = (u_new[d] - self.displacement[d]) / self.dt;
        }
        self.displacement = u_new;
        self.time += self.dt;
        Ok(())
    }

    /// Mechanical energy `½ vᵀ M v + W(u) − f_extᵀ u` (kinetic + strain + dead-load
    /// potential). Backward Euler never increases it for a free system with a convex energy
    /// along the path (it is dissipative); `+∞` if the state is inadmissible.
    pub fn mechanical_energy(&self) -> f64 {
        let v = self.system.restrict(&self.velocity);
        let mv = self.system.pattern.mul_vec(&self.mass, &v);
        let kinetic = 0.5 * v.iter().zip(&mv).map(|(a, b)| a * b).sum::<f64>();
        let potential = strain_energy(self.problem, &self.displacement).unwrap_or(f64::INFINITY)
            - self
                .f_ext
                .iter()
                .zip(&self.displacement)
                .map(|(f, u)| f * u)
                .sum::<f64>();
        kinetic + potential
    }

    /// Interpolated displacement at a reference point, or `None` outside the mesh.
    pub fn point_displacement(&self, point: &SVector<f64, D>) -> Option<SVector<f64, D>> {
        self.problem
            .mesh
            .interpolate(&self.problem.nodal_vectors(&self.displacement), point)
    }
}
