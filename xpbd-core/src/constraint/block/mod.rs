//! The solver-facing side of constraints: multipliers, the XPBD update and the sweeps.
//!
//! [`ConstraintBlock<K>`] owns a [`ConstraintKind`] plus its Lagrange multipliers, its
//! colouring and its Jacobi buffers, and implements the object-safe [`ConstraintSet`] that
//! the [`crate::Simulation`] drives. All sweeps share one projection kernel,
//! XPBD eq. (26) of Macklin et al. 2016 with the damping of §5:
//!
//! ```text
//! Δλ = (−C − α̃ λ − γ ∇C·(x − x_prev)) / ((1 + γ) Σₖ wₖ |∇ₖC|² + α̃),   α̃ = α / h²,  γ = α β / h
//! λ ← λ + Δλ  (clamped to λ ≥ 0 for inequality constraints),   xₖ ← xₖ + wₖ ∇ₖC Δλ
//! ```

use std::any::Any;
use std::sync::Mutex;

use rayon::prelude::*;

use super::{ConstraintKind, check_stencil};
use crate::schedule::{Colouring, Schedule};
use crate::{BuildError, Particles, Vector};

mod diagnostics;
mod kernel;
mod sweep;
mod sync;

pub use kernel::FusedBlock;
pub use sync::DisjointSlice;
pub(crate) use sync::SpinBarrier;

/// Tasks of at most this many constraints per colour (mesh colourings).
const TASK_SIZE: usize = 512;
/// Multipliers per parallel chunk when they are reset (a serial reset of a large block is a
/// visible share of a two-thread substep).
const PARALLEL_MULTIPLIERS: usize = 16384;

/// Constraints per parallel chunk in the Jacobi sweep.
const JACOBI_CHUNK: usize = 1024;
const _: () = assert!(
    JACOBI_CHUNK.is_multiple_of(2),
    "paired kinds keep partners in one chunk"
);

/// What a constraint needs to know about the current substep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SubstepContext {
    /// Substep length h = Δt / substeps (s).
    pub h: f64,
    /// Index of this substep within the step.
    pub substep: usize,
    /// Substeps per step.
    pub substeps: usize,
    /// Simulation time at the start of this substep (s).
    pub time: f64,
    /// Whether the sweep runs in a thread pool that the simulation owns (every worker free to
    /// join a broadcast), so the coloured sweep may synchronise its threads with a barrier
    /// instead of rayon's fork-join.
    pub dedicated_pool: bool,
}

/// How a Jacobi sweep scales each constraint's update.
///
/// XPBD keeps two equations true at every iterate (Macklin et al. 2016, eqs. 8–9):
/// `M (x − x̃) = ∇Cᵀ λ` holds by construction when `Δx = M⁻¹ ∇Cᵀ Δλ`, and the iteration drives
/// `C + α̃ λ = 0`. A Jacobi sweep must therefore scale `Δλ` and `Δx` of a constraint *by the same
/// factor*. Averaging only the positions (dividing each particle's summed Δx by its constraint
/// count, as PBF does for PBD) breaks eq. (8) and converges to a wrong state — measured on the
/// hanging chain: 1.90× the analytic stretch. Here each constraint is scaled by
/// `s = ω / max_{k ∈ stencil, wₖ > 0} nₖ` (nₖ: constraints touching particle k), which is
/// safe (the corrections at a particle sum to at most ω times one full correction) and
/// consistent, or by `s = ω` for plain relaxation.
#[derive(Debug, Clone, Copy)]
pub struct JacobiRelaxation<'a> {
    /// Relaxation factor ω.
    pub omega: f64,
    /// Constraint count per particle, for averaging; `None` = plain relaxation.
    pub counts: Option<&'a [u32]>,
}

impl JacobiRelaxation<'_> {
    /// No scaling (Gauss-Seidel).
    pub const NONE: JacobiRelaxation<'static> = JacobiRelaxation {
        omega: 1.0,
        counts: None,
    };

    #[inline(always)]
    fn factor(&self, idx: &[u32], w: &[f64]) -> f64 {
        match self.counts {
            None => self.omega,
            Some(counts) => {
                let n = idx
                    .iter()
                    .filter(|&&p| w[p as usize] > 0.0)
                    .map(|&p| counts[p as usize])
                    .max()
                    .unwrap_or(1);
                self.omega / n.max(1) as f64
            }
        }
    }
}

/// The object-safe interface through which the simulation drives every constraint block.
/// Implemented once, generically, by [`ConstraintBlock`].
pub trait ConstraintSet<const D: usize>: Send + Sync + std::fmt::Debug {
    /// The kind's name.
    fn name(&self) -> &'static str;
    /// Number of constraints.
    fn len(&self) -> usize;
    /// Whether the block is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Index range, duplicates and the kind's own checks.
    fn validate(&self, n_particles: usize) -> Result<(), BuildError>;
    /// Builds colouring (a [`Colouring`] schedule unless the kind brings its own) and Jacobi
    /// buffers; called when added, when topology changes and when the colouring setting does.
    fn prepare(&mut self, n_particles: usize, colouring: Colouring);
    /// Start-of-substep hook (see [`ConstraintKind::begin_substep`]).
    fn begin_substep(&mut self, particles: &Particles<D>, ctx: &SubstepContext);
    /// End-of-substep hook (see [`ConstraintKind::end_substep`]).
    fn end_substep(&mut self, particles: &mut Particles<D>, ctx: &SubstepContext);
    /// The failure of the last start-of-substep hook ([`ConstraintKind::substep_fault`]).
    fn substep_fault(&self) -> Option<String>;
    /// Start of a step: see [`ConstraintKind::checkpoint`]; with `multipliers` (multiplier
    /// warm starting, where λ carries over from step to step) also saves λ.
    /// The kind's substep bound in the current state ([`ConstraintKind::max_substep`]).
    fn max_substep(&self, particles: &Particles<D>) -> Option<super::SubstepBound>;
    /// The kind's adaptive-step target ([`ConstraintKind::max_adaptive_substep`]).
    fn max_adaptive_substep(&self, particles: &Particles<D>) -> Option<super::SubstepBound>;
    fn checkpoint(&mut self, multipliers: bool);
    /// A failed step: see [`ConstraintKind::rollback`]; restores λ when the checkpoint saved
    /// it.
    fn rollback(&mut self);
    /// λ ← 0, or λ ← (1 − d) λ with multiplier warm starting (the tutorial's damping).
    /// Resets (or decays) the multipliers at the start of a substep; in parallel chunks when
    /// `parallel` and the block is large.
    fn reset_multipliers(&mut self, warm_start_decay: Option<f64>, parallel: bool);
    /// See [`ConstraintKind::projects_in_iteration`].
    fn projects_in_iteration(&self, iteration: usize, iterations: usize) -> bool;
    /// Whether the simulation's fused coloured step may drive this block with `iterations`
    /// iterations per substep: no substep hooks (see [`ConstraintKind::SUBSTEP_HOOKS`]), a
    /// static topology and a projection in every iteration. The fused step then does exactly
    /// what the per-phase step does, in one parallel region per step.
    fn fusable(&self, iterations: usize) -> bool;
    /// The parts of the block that the fused step works on (the kind, its colouring, its
    /// multipliers and the per-thread scratch), borrowed for the step.
    fn fused_block(&mut self) -> Option<FusedBlock<'_, D>>;
    /// One sequential Gauss-Seidel sweep in constraint index order.
    fn solve_gauss_seidel(
        &mut self,
        x: &mut [Vector<D>],
        x_prev: &[Vector<D>],
        w: &[f64],
        ctx: &SubstepContext,
    );
    /// One coloured Gauss-Seidel sweep; tasks of a colour run in parallel when `parallel`.
    fn solve_coloured(
        &mut self,
        x: &mut [Vector<D>],
        x_prev: &[Vector<D>],
        w: &[f64],
        ctx: &SubstepContext,
        parallel: bool,
    );
    /// Jacobi phase 1: every constraint computes Δλ against the same `x`, updates λ and
    /// records its corrections `wₖ ∇ₖC Δλ`.
    fn jacobi_compute(
        &mut self,
        x: &[Vector<D>],
        x_prev: &[Vector<D>],
        w: &[f64],
        ctx: &SubstepContext,
        relax: JacobiRelaxation<'_>,
        parallel: bool,
    );
    /// Jacobi phase 2: adds the recorded corrections into `dx`, in constraint order
    /// (deterministic for any thread count).
    fn jacobi_scatter(&self, w: &[f64], dx: &mut [Vector<D>]);
    /// Adds to `count[p]` the number of this block's constraints touching each particle.
    fn count_incidence(&self, count: &mut [u32]);
    /// Σ_c (C_c + α̃ λ_c)², the XPBD residual of eq. (9) (inactive inequalities count 0).
    fn residual_squared(&self, x: &[Vector<D>], ctx: &SubstepContext) -> f64;
    /// Σ_c C_c² / (2 α_c) over compliant constraints (J).
    fn elastic_energy(&self, x: &[Vector<D>]) -> f64;
    /// The elastic energy the solver's multipliers stand for, `Σ_c λ_c² α_c / (2 h⁴)` (J): the
    /// energy `½ α f²` of the constraint forces `f = λ / h²` of a substep of length `h` (equal
    /// to `Σ C²/(2α)` when the solve has converged, since then `C = −α λ / h²`; smaller when
    /// it has not, where `C²/(2α)` of a stiff constraint measures the solver's residual, not
    /// stored energy). Rigid constraints (α = 0) store none.
    fn multiplier_energy(&self, h: f64) -> f64;
    /// See [`ConstraintKind::driven_work`].
    fn driven_work(&self, particles: &Particles<D>, h: f64) -> f64;
    /// Largest relative strain |C| / rest over the block (0 if the kind has none).
    fn max_relative_strain(&self, x: &[Vector<D>]) -> f64 {
        self.most_strained(x).map_or(0.0, |(_, s, _)| s)
    }
    /// The constraint with the largest relative strain |C| / rest: `(index, strain, C)` (a
    /// non-finite strain counts as infinite); `None` if the kind defines no strain measure.
    fn most_strained(&self, x: &[Vector<D>]) -> Option<(usize, f64, f64)>;
    /// The kind's strain Lipschitz bound ([`ConstraintKind::strain_lipschitz`]).
    fn strain_lipschitz(&self) -> Option<f64>;
    /// The constraint with the largest |C| (or a non-finite C) among those touching
    /// `particle` (all when `None`): `(index, C)`.
    fn worst_constraint(&self, x: &[Vector<D>], particle: Option<usize>) -> Option<(usize, f64)>;
    /// Adds to `forces[p]` the force each constraint of the block exerts on particle p in the
    /// substep of length `h` that ended with positions `x`: `f_p = ∇_p C λ / h²` (Macklin et
    /// al. 2016, eq. 17 with the accumulated λ of the substep), pinned particles included, so
    /// the reaction at a pin is the sum over the constraints that touch it.
    fn add_constraint_forces(&self, x: &[Vector<D>], h: f64, forces: &mut [Vector<D>]);
    /// The accumulated multipliers of the current substep.
    fn multipliers(&self) -> &[f64];
    /// Number of colours of the coloured sweep.
    fn num_colours(&self) -> usize;
    /// Particles touched by constraint `c`.
    fn stencil(&self, c: usize) -> &[u32];
    /// For downcasting to the concrete block.
    fn as_any(&self) -> &dyn Any;
    /// For downcasting to the concrete block.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The kind's evolving state (see [`ConstraintKind::save_state`]), for checkpoints.
    fn save_state(&self) -> Vec<f64>;
    /// Restores the kind's state (see [`ConstraintKind::load_state`]).
    fn load_state(&mut self, state: &[f64]) -> Result<(), BuildError>;
    /// Replaces the accumulated multipliers, e.g. when restoring a checkpoint of a run with
    /// multiplier warm starting (where λ carries over between substeps). The length must be
    /// the number of constraints, except for kinds with a dynamic topology, whose multiplier
    /// array is resized to the new constraint count at the next substep (as after a step).
    /// Non-finite values are rejected; on error nothing changes.
    ///
    /// ```
    /// use xpbd_core::constraint::{ConstraintSet, DistanceConstraints};
    /// use xpbd_core::{Particles, Simulation, SolverSettings, Vector};
    /// let mut p = Particles::<3>::new();
    /// p.push(Vector::<3>::zeros(), 0.0);
    /// p.push(Vector::<3>::new(1.0, 0.0, 0.0), 1.0);
    /// let mut d = DistanceConstraints::new();
    /// d.add(&p, 0, 1, 1e-3).unwrap();
    /// let mut sim = Simulation::new(p, SolverSettings::default()).unwrap();
    /// let h = sim.add_constraints(d).unwrap();
    /// let block = sim.block_mut(h);
    /// block.set_multipliers(&[0.25]).unwrap();
    /// assert_eq!(block.multipliers(), &[0.25]);
    /// assert!(block.set_multipliers(&[0.25, 1.0]).is_err()); // one constraint
    /// assert!(block.set_multipliers(&[f64::NAN]).is_err());
    /// assert_eq!(block.multipliers(), &[0.25]);
    /// // Distance constraints keep no other state.
    /// assert!(block.save_state().is_empty() && block.load_state(&[1.0]).is_err());
    /// ```
    fn set_multipliers(&mut self, lambda: &[f64]) -> Result<(), BuildError>;
    /// Kinetic and gravitational energy `(K, −Σ m g·x)` of state the set owns beyond the
    /// particles (the rigid bodies of [`crate::rigid::RigidBodies`]), for the energy audit;
    /// none for constraint blocks.
    fn owned_energy(&self, _gravity: &Vector<D>) -> (f64, f64) {
        (0.0, 0.0)
    }
    /// Mass (kg) of state the set owns beyond the particles (the audit's noise floor).
    fn owned_mass(&self) -> f64 {
        0.0
    }
}

/// A [`ConstraintKind`] with its multipliers and solver buffers.
#[derive(Debug)]
pub struct ConstraintBlock<K, const D: usize> {
    /// The constraints.
    pub kind: K,
    lambda: Vec<f64>,
    /// λ at the last checkpoint that saved it (multiplier warm starting only).
    lambda_backup: Option<Vec<f64>>,
    schedule: Schedule,
    /// The colouring the schedule was built with (kept for rebuilds on topology changes).
    colouring: Colouring,
    slot_offsets: Vec<u32>,
    corrections: Vec<Vector<D>>,
    scratch: Vec<Mutex<Vec<Vector<D>>>>,
    /// Reused by the diagnostics (residuals, energies, strain) so they allocate nothing.
    diagnostic_scratch: Mutex<(Vec<Vector<D>>, Vec<Vector<D>>)>,
}

impl<K: ConstraintKind<D>, const D: usize> ConstraintBlock<K, D> {
    /// Wraps a kind. Buffers are built by [`ConstraintSet::prepare`].
    pub fn new(kind: K) -> Self {
        Self {
            kind,
            lambda: Vec::new(),
            lambda_backup: None,
            schedule: Schedule::default(),
            colouring: Colouring::default(),
            slot_offsets: Vec::new(),
            corrections: Vec::new(),
            scratch: Vec::new(),
            diagnostic_scratch: Mutex::new((Vec::new(), Vec::new())),
        }
    }

    fn ensure_scratch(&mut self) {
        let want = rayon::current_num_threads() + 1;
        if self.scratch.len() < want {
            self.scratch.resize_with(want, || Mutex::new(Vec::new()));
        }
    }

    fn rebuild_slots(&mut self) {
        let n = self.kind.len();
        self.slot_offsets.clear();
        self.slot_offsets.reserve(n + 1);
        let mut acc = 0u32;
        self.slot_offsets.push(0);
        for c in 0..n {
            acc += self.kind.stencil(c).len() as u32;
            self.slot_offsets.push(acc);
        }
        // Jacobi correction slots are allocated by the first Jacobi sweep only: a coloured or
        // Gauss-Seidel run never pays their memory (≈ 0.65 KB per XPBI particle).
        if !self.corrections.is_empty() {
            self.corrections.resize(acc as usize, Vector::<D>::zeros());
        }
        self.lambda.resize(n, 0.0);
    }
}

impl<K: ConstraintKind<D> + 'static, const D: usize> ConstraintSet<D> for ConstraintBlock<K, D> {
    fn name(&self) -> &'static str {
        K::NAME
    }

    fn len(&self) -> usize {
        self.kind.len()
    }

    fn validate(&self, n_particles: usize) -> Result<(), BuildError> {
        for c in 0..self.kind.len() {
            check_stencil(K::NAME, c, self.kind.stencil(c), n_particles)?;
        }
        self.kind.validate()
    }

    fn prepare(&mut self, n_particles: usize, colouring: Colouring) {
        self.rebuild_slots();
        if self.kind.own_schedule().is_none() {
            let kind = &self.kind;
            self.schedule = Schedule::for_colouring(
                colouring,
                kind.len(),
                n_particles,
                |c| kind.stencil(c),
                TASK_SIZE,
            );
        }
        self.colouring = colouring;
    }

    fn begin_substep(&mut self, particles: &Particles<D>, ctx: &SubstepContext) {
        self.kind.begin_substep(particles, ctx);
        if self.kind.dynamic_topology() {
            self.prepare(particles.len(), self.colouring);
        }
    }

    fn end_substep(&mut self, particles: &mut Particles<D>, ctx: &SubstepContext) {
        self.kind.end_substep(particles, &self.lambda, ctx);
    }

    fn substep_fault(&self) -> Option<String> {
        self.kind.substep_fault()
    }

    fn strain_lipschitz(&self) -> Option<f64> {
        self.kind.strain_lipschitz()
    }

    fn max_substep(&self, particles: &Particles<D>) -> Option<super::SubstepBound> {
        self.kind.max_substep(particles)
    }

    fn max_adaptive_substep(&self, particles: &Particles<D>) -> Option<super::SubstepBound> {
        self.kind.max_adaptive_substep(particles)
    }

    fn checkpoint(&mut self, multipliers: bool) {
        self.kind.checkpoint();
        if multipliers {
            self.lambda_backup
                .get_or_insert_with(Vec::new)
                .clone_from(&self.lambda);
        } else {
            self.lambda_backup = None;
        }
    }

    fn rollback(&mut self) {
        self.kind.rollback();
        if let Some(saved) = &self.lambda_backup {
            self.lambda.clone_from(saved);
        }
    }

    fn projects_in_iteration(&self, iteration: usize, iterations: usize) -> bool {
        self.kind.projects_in_iteration(iteration, iterations)
    }

    fn fusable(&self, iterations: usize) -> bool {
        !K::SUBSTEP_HOOKS
            && !self.kind.dynamic_topology()
            && (0..iterations).all(|it| self.kind.projects_in_iteration(it, iterations))
    }

    fn fused_block(&mut self) -> Option<FusedBlock<'_, D>> {
        self.ensure_scratch();
        let Self {
            kind,
            lambda,
            schedule,
            scratch,
            ..
        } = self;
        let kind: &K = kind;
        Some(FusedBlock::new(
            kind,
            kind.own_schedule().unwrap_or(schedule),
            DisjointSlice::new(lambda),
            scratch,
        ))
    }

    fn reset_multipliers(&mut self, warm_start_decay: Option<f64>, parallel: bool) {
        let reset = |l: &mut [f64]| match warm_start_decay {
            None => l.iter_mut().for_each(|l| *l = 0.0),
            Some(d) => l.iter_mut().for_each(|l| *l *= 1.0 - d),
        };
        if parallel && self.lambda.len() >= 2 * PARALLEL_MULTIPLIERS {
            self.lambda
                .par_chunks_mut(PARALLEL_MULTIPLIERS)
                .for_each(reset);
        } else {
            reset(&mut self.lambda);
        }
    }

    fn solve_gauss_seidel(
        &mut self,
        x: &mut [Vector<D>],
        x_prev: &[Vector<D>],
        w: &[f64],
        ctx: &SubstepContext,
    ) {
        sweep::gauss_seidel(self, x, x_prev, w, ctx)
    }

    fn solve_coloured(
        &mut self,
        x: &mut [Vector<D>],
        x_prev: &[Vector<D>],
        w: &[f64],
        ctx: &SubstepContext,
        parallel: bool,
    ) {
        sweep::coloured(self, x, x_prev, w, ctx, parallel)
    }

    fn jacobi_compute(
        &mut self,
        x: &[Vector<D>],
        x_prev: &[Vector<D>],
        w: &[f64],
        ctx: &SubstepContext,
        relax: JacobiRelaxation<'_>,
        parallel: bool,
    ) {
        sweep::jacobi_compute(self, x, x_prev, w, ctx, relax, parallel)
    }

    fn jacobi_scatter(&self, w: &[f64], dx: &mut [Vector<D>]) {
        sweep::jacobi_scatter(self, w, dx)
    }

    fn count_incidence(&self, count: &mut [u32]) {
        for c in 0..self.kind.len() {
            for &p in self.kind.stencil(c) {
                count[p as usize] += 1;
            }
        }
    }

    fn residual_squared(&self, x: &[Vector<D>], ctx: &SubstepContext) -> f64 {
        diagnostics::residual_squared(self, x, ctx)
    }

    fn multiplier_energy(&self, h: f64) -> f64 {
        diagnostics::multiplier_energy(self, h)
    }

    fn driven_work(&self, particles: &Particles<D>, h: f64) -> f64 {
        self.kind.driven_work(particles, &self.lambda, h)
    }

    fn elastic_energy(&self, x: &[Vector<D>]) -> f64 {
        diagnostics::elastic_energy(self, x)
    }

    fn most_strained(&self, x: &[Vector<D>]) -> Option<(usize, f64, f64)> {
        diagnostics::most_strained(self, x)
    }

    fn worst_constraint(&self, x: &[Vector<D>], particle: Option<usize>) -> Option<(usize, f64)> {
        diagnostics::worst_constraint(self, x, particle)
    }

    fn add_constraint_forces(&self, x: &[Vector<D>], h: f64, forces: &mut [Vector<D>]) {
        diagnostics::add_constraint_forces(self, x, h, forces)
    }

    fn multipliers(&self) -> &[f64] {
        &self.lambda
    }

    fn num_colours(&self) -> usize {
        self.kind
            .own_schedule()
            .unwrap_or(&self.schedule)
            .num_colours()
    }

    fn stencil(&self, c: usize) -> &[u32] {
        self.kind.stencil(c)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn save_state(&self) -> Vec<f64> {
        self.kind.save_state()
    }

    fn load_state(&mut self, state: &[f64]) -> Result<(), BuildError> {
        self.kind.load_state(state)
    }

    fn set_multipliers(&mut self, lambda: &[f64]) -> Result<(), BuildError> {
        if !self.kind.dynamic_topology() && lambda.len() != self.kind.len() {
            return Err(BuildError::InvalidSetting {
                field: "multiplier count",
                value: lambda.len() as f64,
                reason: "must equal the block's constraint count",
            });
        }
        if let Some(&l) = lambda.iter().find(|l| !l.is_finite()) {
            return Err(BuildError::InvalidSetting {
                field: "multiplier",
                value: l,
                reason: "must be finite",
            });
        }
        self.lambda.clear();
        self.lambda.extend_from_slice(lambda);
        Ok(())
    }
}
