//! The solver settings of a [`Simulation`](super::Simulation): [`SolverSettings`], what a step
//! measures ([`Diagnostics`]) and their range checks.

use crate::schedule::Colouring;
use crate::{BuildError, SolverKind, Vector};

/// What to measure during a step (each costs extra constraint passes).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Diagnostics {
    /// Record the residual norm ‖C + α̃λ‖ after every iteration (one extra pass each).
    pub residuals: bool,
    /// Compute energies and the max relative strain at the end of the step (one extra pass).
    pub energies: bool,
    /// A particle faster than this (m/s) means the solve diverged: the step is rolled back.
    pub max_speed: f64,
    /// A constraint strained more than this many times its rest measure (|C| / rest: a
    /// distance stretched to 101 times its length at the default 100, a tet whose volume
    /// grew a hundredfold) at the end of a step means the solve failed even though every
    /// value is finite and slow enough: the step is rolled back with
    /// [`StepError::Overstrained`]. One pass over the constraints that define a strain
    /// ([`crate::constraint::ConstraintKind::relative_strain`]) per step.
    /// `f64::INFINITY` turns the check off.
    ///
    /// [`StepError::Overstrained`]: crate::StepError::Overstrained
    pub max_strain: f64,
    /// The energy audit's tolerance ε: a step whose mechanical energy (kinetic +
    /// gravitational + the multipliers' elastic energy) grows by more than the work done on
    /// it from outside plus ε times the energy it had to work with is divergence, rolled back
    /// with [`StepError::EnergyGrowth`] (the rule and its terms: module `simulation::audit`).
    /// Two passes over the particles and one over the multipliers per step. The default, 1,
    /// lets no step more than double the energy it had beyond what came in; over 100 steps of
    /// every scene file the largest ratio measured is 0.25 (a soft cloth bouncing off a
    /// sphere). `f64::INFINITY` turns the audit off.
    ///
    /// [`StepError::EnergyGrowth`]: crate::StepError::EnergyGrowth
    #[serde(default = "default_max_energy_gain")]
    pub max_energy_gain: f64,
}

fn default_max_energy_gain() -> f64 {
    Diagnostics::default().max_energy_gain
}

impl Default for Diagnostics {
    fn default() -> Self {
        Self {
            residuals: false,
            energies: false,
            max_speed: 1e4,
            max_strain: 100.0,
            max_energy_gain: 1.0,
        }
    }
}

/// Solver settings. `Default` gives the "small steps" scheme: 10 substeps × 1 iteration,
/// coloured Gauss-Seidel, gravity −9.81 m/s² along the last axis.
#[derive(Debug, Clone, PartialEq)]
pub struct SolverSettings<const D: usize> {
    /// Substeps per step (≥ 1).
    pub substeps: usize,
    /// Solver iterations per substep (≥ 1).
    pub iterations: usize,
    /// Which sweep.
    pub solver: SolverKind,
    /// Gravitational acceleration (m/s²).
    pub gravity: Vector<D>,
    /// Global velocity damping k (1/s): `v ← v e^{−k h}` every substep.
    pub velocity_damping: f64,
    /// `Some(d)`: warm-start multipliers as `λ ← (1 − d) λ` at each substep (the cloth
    /// tutorial's multiplier damping) instead of resetting them to 0. Off by default: XPBD's
    /// stiffness independence from iterations and Δt requires the reset.
    pub multiplier_warm_start: Option<f64>,
    /// Worker threads for the coloured and Jacobi solvers; 0 = rayon's global pool.
    pub threads: usize,
    /// How the coloured solver colours mesh constraints (greedy constraint colouring by
    /// default, block schedule on request; see [`Colouring`]). Changes the projection order, so the trajectory, not determinism.
    pub colouring: Colouring,
    /// What to measure.
    pub diagnostics: Diagnostics,
}

impl<const D: usize> Default for SolverSettings<D> {
    fn default() -> Self {
        let mut gravity = Vector::<D>::zeros();
        gravity[D - 1] = -9.81;
        Self {
            substeps: 10,
            iterations: 1,
            solver: SolverKind::Coloured,
            gravity,
            velocity_damping: 0.0,
            multiplier_warm_start: None,
            threads: 0,
            colouring: Colouring::default(),
            diagnostics: Diagnostics::default(),
        }
    }
}

/// The most worker threads [`SolverSettings::threads`] accepts: results do not depend on the
/// count, and a pool far beyond the machine's cores only adds waiting.
pub const MAX_THREADS: usize = 256;

impl<const D: usize> SolverSettings<D> {
    /// Range checks with typed errors.
    pub fn validate(&self) -> Result<(), BuildError> {
        if self.substeps == 0 {
            return Err(BuildError::ZeroCount { field: "substeps" });
        }
        if self.iterations == 0 {
            return Err(BuildError::ZeroCount {
                field: "iterations",
            });
        }
        self.solver.validate()?;
        if !self.gravity.iter().all(|g| g.is_finite()) {
            return Err(BuildError::InvalidSetting {
                field: "gravity",
                value: f64::NAN,
                reason: "must be finite",
            });
        }
        let k = self.velocity_damping;
        if !(k.is_finite() && k >= 0.0) {
            return Err(BuildError::InvalidSetting {
                field: "velocity_damping",
                value: k,
                reason: "must be finite and >= 0",
            });
        }
        if let Some(d) = self.multiplier_warm_start
            && !(0.0..=1.0).contains(&d)
        {
            return Err(BuildError::InvalidSetting {
                field: "multiplier_warm_start",
                value: d,
                reason: "decay must lie in [0, 1]",
            });
        }
        if self.threads > MAX_THREADS {
            return Err(BuildError::InvalidSetting {
                field: "threads",
                value: self.threads as f64,
                reason: "at most 256 worker threads",
            });
        }
        let s = self.diagnostics.max_speed;
        if s.is_nan() || s <= 0.0 {
            return Err(BuildError::InvalidSetting {
                field: "max_speed",
                value: s,
                reason: "must be > 0",
            });
        }
        let s = self.diagnostics.max_strain;
        if s.is_nan() || s <= 0.0 {
            return Err(BuildError::InvalidSetting {
                field: "max_strain",
                value: s,
                reason: "must be > 0",
            });
        }
        let s = self.diagnostics.max_energy_gain;
        if s.is_nan() || s <= 0.0 {
            return Err(BuildError::InvalidSetting {
                field: "max_energy_gain",
                value: s,
                reason: "must be > 0 (a fraction of the step's energy; infinity turns the audit off)",
            });
        }
        Ok(())
    }
}
