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

/// Tasks of at most this many constraints per colour (mesh colourings).
const TASK_SIZE: usize = 512;
/// Multipliers per parallel chunk when they are reset (a serial reset of a large block is a
/// visible share of a two-thread substep).
const PARALLEL_MULTIPLIERS: usize = 16384;

/// Constraints per parallel chunk in the Jacobi sweep.
const JACOBI_CHUNK: usize = 1024;

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

/// A barrier for the threads of one broadcast: spins briefly, then yields (the machine may be
/// shared). Arrivals publish their writes (release) and leavers see all of them (acquire).
pub(crate) struct SpinBarrier {
    arrived: std::sync::atomic::AtomicUsize,
    generation: std::sync::atomic::AtomicUsize,
    threads: usize,
}

impl SpinBarrier {
    pub(crate) fn new(threads: usize) -> Self {
        Self {
            arrived: std::sync::atomic::AtomicUsize::new(0),
            generation: std::sync::atomic::AtomicUsize::new(0),
            threads,
        }
    }

    pub(crate) fn wait(&self) {
        use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
        let generation = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.threads {
            self.arrived.store(0, Relaxed);
            self.generation.fetch_add(1, Release);
        } else {
            let mut spins = 0u32;
            while self.generation.load(Acquire) == generation {
                if spins < 2000 {
                    std::hint::spin_loop();
                    spins += 1;
                } else {
                    std::thread::yield_now();
                }
            }
        }
    }
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
    fn fused_block(&mut self) -> FusedBlock<'_, D>;
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

/// A view of a mutable slice that several threads read and write at provably disjoint
/// indices: the tasks of one colour of a [`Schedule`] (the colouring invariant,
/// [`Schedule::verify`]). Reads and writes are `unsafe`: the caller promises that no other
/// thread touches the same index meanwhile and that the index is in bounds (checked in debug
/// builds only: stencils are range-checked once, when a block is added).
#[derive(Clone, Copy)]
pub struct DisjointSlice<'a, T> {
    ptr: *mut T,
    len: usize,
    borrow: std::marker::PhantomData<&'a mut [T]>,
}
impl<T> std::fmt::Debug for DisjointSlice<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DisjointSlice")
            .field("len", &self.len)
            .finish()
    }
}

// SAFETY: only used where writers touch disjoint indices (see the coloured sweep).
unsafe impl<T: Send> Send for DisjointSlice<'_, T> {}
unsafe impl<T: Send> Sync for DisjointSlice<'_, T> {}

impl<'a, T: Copy> DisjointSlice<'a, T> {
    /// Borrows `s` for disjoint access.
    pub fn new(s: &'a mut [T]) -> Self {
        Self {
            ptr: s.as_mut_ptr(),
            len: s.len(),
            borrow: std::marker::PhantomData,
        }
    }

    /// Length of the viewed slice.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The raw pointer to element 0, for kernels that load and store several elements at once
    /// under the same contract as [`DisjointSlice::get`] and [`DisjointSlice::set`].
    pub fn as_mut_ptr(&self) -> *mut T {
        self.ptr
    }

    /// Whether the viewed slice is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reads element `i`.
    ///
    /// # Safety
    /// `i < self.len()`, and no other thread writes index `i` concurrently.
    #[inline(always)]
    pub unsafe fn get(&self, i: usize) -> T {
        debug_assert!(i < self.len);
        // SAFETY: in bounds and not written concurrently (caller).
        unsafe { *self.ptr.add(i) }
    }

    /// Writes element `i`.
    ///
    /// # Safety
    /// `i < self.len()`, and no other thread reads or writes index `i` concurrently.
    #[inline(always)]
    pub unsafe fn set(&self, i: usize, v: T) {
        debug_assert!(i < self.len);
        // SAFETY: as above.
        unsafe { *self.ptr.add(i) = v }
    }

    /// The elements `range` as an ordinary mutable slice (one thread's share of a pass).
    ///
    /// # Safety
    /// `range` lies within `0..self.len()`, and while the returned slice lives no other
    /// thread reads or writes any index of `range`.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)] // the disjointness contract is the caller's
    pub(crate) unsafe fn range_mut(&self, range: std::ops::Range<usize>) -> &mut [T] {
        debug_assert!(range.start <= range.end && range.end <= self.len);
        // SAFETY: in bounds and exclusively accessed for the slice's life (caller).
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
    }

    /// The whole viewed slice, read-only (a phase in which no thread writes it).
    ///
    /// # Safety
    /// While the returned slice lives no thread writes any element.
    #[inline(always)]
    pub(crate) unsafe fn as_slice(&self) -> &[T] {
        // SAFETY: valid for `len` elements and not written for the slice's life (caller).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

/// One block as the fused coloured step sees it (see [`ConstraintSet::fused_block`]): the
/// kind's sweep behind one dynamic call per thread and colour, the colouring, the multipliers
/// (written by several threads at disjoint indices) and the per-thread scratch buffers.
#[derive(Clone, Copy)]
pub struct FusedBlock<'a, const D: usize> {
    kind: &'a dyn ColouredSweep<D>,
    schedule: &'a Schedule,
    lambda: DisjointSlice<'a, f64>,
    scratch: &'a [Mutex<Vec<Vector<D>>>],
}

impl<const D: usize> std::fmt::Debug for FusedBlock<'_, D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FusedBlock")
            .field("colours", &self.schedule.colours.len())
            .field("multipliers", &self.lambda.len())
            .finish()
    }
}

impl<'a, const D: usize> FusedBlock<'a, D> {
    /// The colours of the block's schedule, each a list of tasks (ranges of
    /// [`FusedBlock::order`]).
    pub(crate) fn colours(&self) -> &'a [Vec<std::ops::Range<u32>>] {
        &self.schedule.colours
    }

    /// The multipliers, for disjoint per-thread access.
    pub(crate) fn lambda(&self) -> DisjointSlice<'a, f64> {
        self.lambda
    }

    /// Scratch buffer `slot` (worker `t` uses slot `t + 1`, as the per-phase sweep does).
    pub(crate) fn scratch(&self, slot: usize) -> &'a Mutex<Vec<Vector<D>>> {
        &self.scratch[slot]
    }

    /// Projects the constraints of `tasks` (tasks of one colour of this block), exactly as
    /// [`ConstraintSet::solve_coloured`] does.
    ///
    /// # Safety
    /// While this runs no other thread touches the positions of these tasks' stencils, nor
    /// their multipliers, and no thread writes `x_prev` (a thread's slice of one colour, the
    /// others working on other slices of the same colour: Schedule invariant); `x` is the
    /// array the block was validated against.
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn run_tasks(
        &self,
        tasks: &[std::ops::Range<u32>],
        x: DisjointSlice<'_, Vector<D>>,
        x_prev: &[Vector<D>],
        w: &[f64],
        h: f64,
        scratch: &mut Vec<Vector<D>>,
    ) {
        // SAFETY: forwarded contract.
        unsafe {
            self.kind
                .run_tasks(self.schedule, tasks, x, x_prev, w, self.lambda, h, scratch)
        }
    }
}

/// The coloured sweep of a kind over some tasks, callable through `dyn` (one call per thread
/// and colour in the fused step).
trait ColouredSweep<const D: usize>: Sync {
    /// See [`FusedBlock::run_tasks`].
    ///
    /// # Safety
    /// As [`FusedBlock::run_tasks`]; `lambda` is the block's multiplier array.
    #[allow(clippy::too_many_arguments)]
    unsafe fn run_tasks(
        &self,
        schedule: &Schedule,
        tasks: &[std::ops::Range<u32>],
        x: DisjointSlice<'_, Vector<D>>,
        x_prev: &[Vector<D>],
        w: &[f64],
        lambda: DisjointSlice<'_, f64>,
        h: f64,
        scratch: &mut Vec<Vector<D>>,
    );
}

impl<K: ConstraintKind<D>, const D: usize> ColouredSweep<D> for K {
    unsafe fn run_tasks(
        &self,
        schedule: &Schedule,
        tasks: &[std::ops::Range<u32>],
        x: DisjointSlice<'_, Vector<D>>,
        x_prev: &[Vector<D>],
        w: &[f64],
        lambda: DisjointSlice<'_, f64>,
        h: f64,
        scratch: &mut Vec<Vector<D>>,
    ) {
        // SAFETY: forwarded contract.
        unsafe { run_tasks(self, schedule, tasks, x, x_prev, w, lambda, h, scratch) }
    }
}

/// The coloured Gauss-Seidel projection of `tasks` (ranges of the schedule's order), task
/// after task, in order inside a task, one run ([`Schedule::runs`]: particle-disjoint
/// constraints, which the kind may batch) at a time. Every coloured sweep (serial, fork-join,
/// broadcast, fused) runs through this one function, so all of them give the same bits.
///
/// # Safety
/// As [`FusedBlock::run_tasks`]; `lambda` is the kind's multiplier array.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn run_tasks<K: ConstraintKind<D>, const D: usize>(
    kind: &K,
    schedule: &Schedule,
    tasks: &[std::ops::Range<u32>],
    xs: DisjointSlice<'_, Vector<D>>,
    x_prev: &[Vector<D>],
    w: &[f64],
    lambdas: DisjointSlice<'_, f64>,
    h: f64,
    scratch: &mut Vec<Vector<D>>,
) {
    let inv_h2 = 1.0 / (h * h);
    let order = &schedule.order[..];
    for task in tasks {
        for run in schedule.runs(task.clone()) {
            let mut run = order[run.start as usize..run.end as usize]
                .iter()
                .map(|&c| c as usize);
            // SAFETY: tasks of one colour touch disjoint particles and disjoint constraints
            // (Schedule invariant), so no two threads access the same x or λ entry; a run's
            // constraints are particle-disjoint (Schedule::breaks); stencils were
            // range-checked when the block was added.
            unsafe {
                while let Some(c) =
                    kind.project_closed_form_run(&mut run, true, xs, w, lambdas, inv_h2)
                {
                    let mut l = lambdas.get(c);
                    project_in_place(kind, c, xs, x_prev, w, &mut l, h, scratch);
                    lambdas.set(c, l);
                }
            }
        }
    }
}

/// The XPBD projection of constraint `c` (module docs) on a private copy of its stencil:
/// `xs[k]` holds the position of `idx[k]` on entry and the corrected position on exit.
/// Returns whether `xs` changed (Δλ ≠ 0 or the kind's [`ConstraintKind::after_projection`]
/// moved it). This one kernel serves every sweep.
#[inline(always)]
fn project_local<K: ConstraintKind<D>, const D: usize>(
    kind: &K,
    c: usize,
    idx: &[u32],
    xs: &mut [Vector<D>],
    grad: &mut [Vector<D>],
    x_prev: &[Vector<D>],
    w: &[f64],
    lambda: &mut f64,
    h: f64,
    relax: JacobiRelaxation<'_>,
) -> bool {
    let n = idx.len();
    if !kind.unilateral() && relax.counts.is_none() && relax.omega == 1.0 && kind.damping(c) == 0.0
    {
        let alpha_tilde = kind.compliance(c) * (1.0 / (h * h));
        if let Some(changed) = kind.project_closed_form(c, idx, xs, w, lambda, alpha_tilde) {
            return changed;
        }
    }
    let value = kind.evaluate(c, xs, grad);
    if kind.unilateral() && value >= 0.0 && *lambda <= 0.0 {
        return false;
    }
    let alpha = kind.compliance(c);
    // Multiplications by reciprocals precomputed once per substep: divisions are the most
    // expensive instructions of this kernel.
    let inv_h = 1.0 / h;
    let alpha_tilde = alpha * (inv_h * inv_h);
    let beta = kind.damping(c);
    let gamma = if beta > 0.0 {
        alpha * beta * inv_h
    } else {
        0.0
    };
    let mut wsum = 0.0;
    let mut grad_dot_dx = 0.0;
    for k in 0..n {
        wsum += w[idx[k] as usize] * grad[k].norm_squared();
        if gamma > 0.0 {
            grad_dot_dx += grad[k].dot(&(xs[k] - x_prev[idx[k] as usize]));
        }
    }
    let denom = (1.0 + gamma) * wsum + alpha_tilde;
    if denom <= f64::MIN_POSITIVE {
        return false;
    }
    let mut dl = (-value - alpha_tilde * *lambda - gamma * grad_dot_dx) / denom;
    dl *= relax.factor(idx, w);
    if kind.unilateral() {
        dl = (*lambda + dl).max(0.0) - *lambda;
    }
    *lambda += dl;
    for k in 0..n {
        xs[k] += grad[k] * (w[idx[k] as usize] * dl);
    }
    let moved = kind.after_projection(c, idx, xs, grad, x_prev, w, *lambda, dl, h);
    dl != 0.0 || moved
}

/// Gauss-Seidel projection of constraint `c` in place on the shared positions.
///
/// # Safety
/// No other thread touches the positions of `c`'s stencil while this runs.
#[inline(always)]
unsafe fn project_in_place<K: ConstraintKind<D>, const D: usize>(
    kind: &K,
    c: usize,
    x: DisjointSlice<'_, Vector<D>>,
    x_prev: &[Vector<D>],
    w: &[f64],
    lambda: &mut f64,
    h: f64,
    scratch: &mut Vec<Vector<D>>,
) {
    // SAFETY (all arms): exclusive access to the stencil is the caller's contract.
    unsafe {
        match K::FIXED_ARITY {
            1 => project_fixed::<K, D, 1>(kind, c, x, x_prev, w, lambda, h),
            2 => project_fixed::<K, D, 2>(kind, c, x, x_prev, w, lambda, h),
            3 => project_fixed::<K, D, 3>(kind, c, x, x_prev, w, lambda, h),
            4 => project_fixed::<K, D, 4>(kind, c, x, x_prev, w, lambda, h),
            _ => project_variable(kind, c, x, x_prev, w, lambda, h, scratch),
        }
    }
}

/// [`project_in_place`] for kinds whose stencils all have `N` particles: stack arrays and
/// loops of compile-time length (the distance constraint runs in ~40 instructions).
///
/// # Safety
/// As [`project_in_place`].
#[inline(always)]
unsafe fn project_fixed<K: ConstraintKind<D>, const D: usize, const N: usize>(
    kind: &K,
    c: usize,
    x: DisjointSlice<'_, Vector<D>>,
    x_prev: &[Vector<D>],
    w: &[f64],
    lambda: &mut f64,
    h: f64,
) {
    let idx: &[u32; N] = kind
        .stencil(c)
        .try_into()
        .expect("stencil length equals FIXED_ARITY");
    let mut xs = [Vector::<D>::zeros(); N];
    let mut grad = [Vector::<D>::zeros(); N];
    for k in 0..N {
        // SAFETY: exclusive access to the stencil (caller).
        xs[k] = unsafe { x.get(idx[k] as usize) };
    }
    if project_local(
        kind,
        c,
        idx,
        &mut xs,
        &mut grad,
        x_prev,
        w,
        lambda,
        h,
        JacobiRelaxation::NONE,
    ) {
        for k in 0..N {
            // Pinned particles get w·∇C·Δλ = 0 added, so writing them back is a no-op.
            // SAFETY: exclusive access to the stencil (caller).
            unsafe { x.set(idx[k] as usize, xs[k]) };
        }
    }
}

/// [`project_in_place`] for variable-arity stencils, through a per-thread scratch buffer.
///
/// # Safety
/// As [`project_in_place`].
#[inline(always)]
unsafe fn project_variable<K: ConstraintKind<D>, const D: usize>(
    kind: &K,
    c: usize,
    x: DisjointSlice<'_, Vector<D>>,
    x_prev: &[Vector<D>],
    w: &[f64],
    lambda: &mut f64,
    h: f64,
    scratch: &mut Vec<Vector<D>>,
) {
    let idx = kind.stencil(c);
    let n = idx.len();
    if scratch.len() < 2 * n {
        scratch.resize(2 * n, Vector::<D>::zeros());
    }
    let (xs, grad) = scratch.split_at_mut(n);
    for k in 0..n {
        // SAFETY: exclusive access to the stencil (caller).
        xs[k] = unsafe { x.get(idx[k] as usize) };
    }
    if project_local(
        kind,
        c,
        idx,
        xs,
        &mut grad[..n],
        x_prev,
        w,
        lambda,
        h,
        JacobiRelaxation::NONE,
    ) {
        for k in 0..n {
            if w[idx[k] as usize] > 0.0 {
                // SAFETY: exclusive access to the stencil (caller).
                unsafe { x.set(idx[k] as usize, xs[k]) };
            }
        }
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

    fn fused_block(&mut self) -> FusedBlock<'_, D> {
        self.ensure_scratch();
        let Self {
            kind,
            lambda,
            schedule,
            scratch,
            ..
        } = self;
        let kind: &K = kind;
        FusedBlock {
            kind,
            schedule: kind.own_schedule().unwrap_or(schedule),
            lambda: DisjointSlice::new(lambda),
            scratch,
        }
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
        self.ensure_scratch();
        let shared = DisjointSlice::new(x);
        let lambdas = DisjointSlice::new(&mut self.lambda);
        let mut scratch = self.scratch[0].lock().expect("scratch lock");
        let inv_h2 = 1.0 / (ctx.h * ctx.h);
        // SAFETY: single thread; stencils were range-checked when the block was added.
        unsafe {
            let mut run = 0..self.kind.len();
            while let Some(c) = self
                .kind
                .project_closed_form_run(&mut run, false, shared, w, lambdas, inv_h2)
            {
                let mut l = lambdas.get(c);
                project_in_place(
                    &self.kind,
                    c,
                    shared,
                    x_prev,
                    w,
                    &mut l,
                    ctx.h,
                    &mut scratch,
                );
                lambdas.set(c, l);
            }
        }
    }

    fn solve_coloured(
        &mut self,
        x: &mut [Vector<D>],
        x_prev: &[Vector<D>],
        w: &[f64],
        ctx: &SubstepContext,
        parallel: bool,
    ) {
        self.ensure_scratch();
        let Self {
            kind,
            lambda,
            schedule,
            scratch,
            ..
        } = self;
        let schedule = kind.own_schedule().unwrap_or(schedule);
        let xs = DisjointSlice::new(x);
        let lambdas = DisjointSlice::new(lambda);
        let run = |tasks: &[std::ops::Range<u32>], scratch: &mut Vec<Vector<D>>| {
            // SAFETY: `tasks` is a share of one colour's tasks and the other threads work on
            // other shares of the same colour (Schedule invariant: disjoint particles and
            // constraints); x_prev is not written during the sweep.
            unsafe {
                run_tasks(
                    kind, schedule, tasks, xs, x_prev, w, lambdas, ctx.h, scratch,
                )
            }
        };
        if parallel && ctx.dedicated_pool && rayon::current_num_threads() > 1 {
            // One broadcast per sweep: thread t runs the t-th of T contiguous slices of each
            // colour's tasks (`Schedule::share`: equal constraint counts, not equal task
            // counts) and waits at a spinning barrier between colours (one
            // synchronisation per colour, a few hundred nanoseconds, instead of a fork-join
            // through rayon's queues). Tasks are in particle order (see `Schedule::greedy`), so
            // a thread works on the same region of the mesh in every colour and its particles
            // stay in its core's cache; with tasks dealt round-robin, every task boundary
            // moved a row of particles between the cores at each colour. Only in a pool the
            // simulation owns: every thread of it is free to join the broadcast.
            let barrier = SpinBarrier::new(rayon::current_num_threads());
            rayon::broadcast(|b| {
                let (t, n_threads) = (b.index(), b.num_threads());
                let mut s = scratch[t + 1].lock().expect("scratch lock");
                // An empty colour needs no barrier (every thread skips the same ones).
                for colour in schedule.colours.iter().filter(|c| !c.is_empty()) {
                    run(Schedule::share(colour, t, n_threads), &mut s);
                    barrier.wait();
                }
            });
        } else if parallel && rayon::current_num_threads() > 1 {
            for colour in &schedule.colours {
                colour.par_iter().for_each(|task| {
                    let slot = rayon::current_thread_index().map_or(0, |i| i + 1);
                    let mut s = scratch[slot].lock().expect("scratch lock");
                    run(std::slice::from_ref(task), &mut s);
                });
            }
        } else {
            let mut s = scratch[0].lock().expect("scratch lock");
            for colour in &schedule.colours {
                run(colour, &mut s);
            }
        }
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
        self.ensure_scratch();
        let Self {
            kind,
            lambda,
            slot_offsets,
            corrections,
            scratch,
            ..
        } = self;
        let slots = *slot_offsets.last().unwrap_or(&0) as usize;
        if corrections.len() != slots {
            corrections.resize(slots, Vector::<D>::zeros());
        }
        let corr = DisjointSlice::new(corrections);
        let chunk_job = |chunk: usize, lchunk: &mut [f64], scratch: &mut Vec<Vector<D>>| {
            for (k, l) in lchunk.iter_mut().enumerate() {
                let c = chunk * JACOBI_CHUNK + k;
                let idx = kind.stencil(c);
                let n = idx.len();
                if scratch.len() < 2 * n {
                    scratch.resize(2 * n, Vector::<D>::zeros());
                }
                let (xs, grad) = scratch.split_at_mut(n);
                for kk in 0..n {
                    xs[kk] = x[idx[kk] as usize];
                }
                let changed =
                    project_local(kind, c, idx, xs, &mut grad[..n], x_prev, w, l, ctx.h, relax);
                let base = slot_offsets[c] as usize;
                for kk in 0..n {
                    let d = if changed {
                        xs[kk] - x[idx[kk] as usize]
                    } else {
                        Vector::<D>::zeros()
                    };
                    // SAFETY: slot ranges of different constraints are disjoint.
                    unsafe { corr.set(base + kk, d) };
                }
            }
        };
        if parallel && rayon::current_num_threads() > 1 {
            lambda
                .par_chunks_mut(JACOBI_CHUNK)
                .enumerate()
                .for_each(|(chunk, lchunk)| {
                    let slot = rayon::current_thread_index().map_or(0, |i| i + 1);
                    let mut s = scratch[slot].lock().expect("scratch lock");
                    chunk_job(chunk, lchunk, &mut s);
                });
        } else {
            let mut s = scratch[0].lock().expect("scratch lock");
            for (chunk, lchunk) in lambda.chunks_mut(JACOBI_CHUNK).enumerate() {
                chunk_job(chunk, lchunk, &mut s);
            }
        }
    }

    fn jacobi_scatter(&self, w: &[f64], dx: &mut [Vector<D>]) {
        for c in 0..self.kind.len() {
            let base = self.slot_offsets[c] as usize;
            for (k, &p) in self.kind.stencil(c).iter().enumerate() {
                let p = p as usize;
                if w[p] > 0.0 {
                    dx[p] += self.corrections[base + k];
                }
            }
        }
    }

    fn count_incidence(&self, count: &mut [u32]) {
        for c in 0..self.kind.len() {
            for &p in self.kind.stencil(c) {
                count[p as usize] += 1;
            }
        }
    }

    fn residual_squared(&self, x: &[Vector<D>], ctx: &SubstepContext) -> f64 {
        let mut guard = self.diagnostic_scratch.lock().expect("diagnostic scratch");
        let (xs, grad) = &mut *guard;
        let mut sum = 0.0;
        for c in 0..self.kind.len() {
            let value = eval_at(&self.kind, c, x, xs, grad);
            let lambda = self.lambda.get(c).copied().unwrap_or(0.0);
            if self.kind.unilateral() && value >= 0.0 && lambda <= 0.0 {
                continue;
            }
            let r = value + self.kind.compliance(c) / (ctx.h * ctx.h) * lambda;
            sum += r * r;
        }
        sum
    }

    fn elastic_energy(&self, x: &[Vector<D>]) -> f64 {
        let mut guard = self.diagnostic_scratch.lock().expect("diagnostic scratch");
        let (xs, grad) = &mut *guard;
        let mut sum = 0.0;
        for c in 0..self.kind.len() {
            let alpha = self.kind.compliance(c);
            if alpha > 0.0 {
                let value = eval_at(&self.kind, c, x, xs, grad);
                if self.kind.unilateral() && value >= 0.0 {
                    continue;
                }
                sum += value * value / (2.0 * alpha);
            }
        }
        sum
    }

    fn most_strained(&self, x: &[Vector<D>]) -> Option<(usize, f64, f64)> {
        let mut guard = self.diagnostic_scratch.lock().expect("diagnostic scratch");
        let (xs, grad) = &mut *guard;
        let mut worst: Option<(usize, f64, f64)> = None;
        for c in 0..self.kind.len() {
            let value = eval_at(&self.kind, c, x, xs, grad);
            // Kinds without a strain measure answer None for every constraint.
            let s = self.kind.relative_strain(c, value)?.abs();
            let s = if s.is_nan() { f64::INFINITY } else { s };
            if worst.is_none_or(|(_, w, _)| s > w) {
                worst = Some((c, s, value));
            }
        }
        worst
    }

    fn worst_constraint(&self, x: &[Vector<D>], particle: Option<usize>) -> Option<(usize, f64)> {
        let mut guard = self.diagnostic_scratch.lock().expect("diagnostic scratch");
        let (xs, grad) = &mut *guard;
        let mut best: Option<(usize, f64)> = None;
        for c in 0..self.kind.len() {
            if let Some(p) = particle
                && !self.kind.stencil(c).contains(&(p as u32))
            {
                continue;
            }
            let value = eval_at(&self.kind, c, x, xs, grad);
            let score = if value.is_finite() {
                value.abs()
            } else {
                f64::INFINITY
            };
            if best.is_none_or(|(_, b)| {
                score
                    > if b.is_finite() {
                        b.abs()
                    } else {
                        f64::INFINITY
                    }
            }) {
                best = Some((c, value));
            }
        }
        best
    }

    fn add_constraint_forces(&self, x: &[Vector<D>], h: f64, forces: &mut [Vector<D>]) {
        let mut guard = self.diagnostic_scratch.lock().expect("diagnostic scratch");
        let (xs, grad) = &mut *guard;
        let scale = 1.0 / (h * h);
        for c in 0..self.kind.len().min(self.lambda.len()) {
            let lambda = self.lambda[c];
            if lambda == 0.0 {
                continue;
            }
            eval_at(&self.kind, c, x, xs, grad);
            for (k, &p) in self.kind.stencil(c).iter().enumerate() {
                forces[p as usize] += grad[k] * (lambda * scale);
            }
        }
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

/// Evaluates constraint `c` at the global positions `x` (diagnostics; allocates on first use).
pub(crate) fn eval_at<K: ConstraintKind<D>, const D: usize>(
    kind: &K,
    c: usize,
    x: &[Vector<D>],
    xs: &mut Vec<Vector<D>>,
    grad: &mut Vec<Vector<D>>,
) -> f64 {
    let idx = kind.stencil(c);
    xs.clear();
    xs.extend(idx.iter().map(|&p| x[p as usize]));
    grad.clear();
    grad.resize(idx.len(), Vector::<D>::zeros());
    kind.evaluate(c, xs, grad)
}
