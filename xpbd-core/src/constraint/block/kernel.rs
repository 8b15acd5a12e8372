//! The projection kernels: one coloured Gauss–Seidel task runner and the per-constraint
//! XPBD update (eq. 26) that every sweep shares, with fixed-size and variable stencils.

use std::sync::Mutex;

use super::{ConstraintKind, DisjointSlice, JacobiRelaxation};
use crate::Vector;
use crate::schedule::Schedule;

/// One block as the fused coloured step sees it (see [`super::ConstraintSet::fused_block`]): the
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
    /// A kind's sweep with its schedule, multipliers and scratch buffers.
    pub(super) fn new<K: ConstraintKind<D>>(
        kind: &'a K,
        schedule: &'a Schedule,
        lambda: DisjointSlice<'a, f64>,
        scratch: &'a [Mutex<Vec<Vector<D>>>],
    ) -> Self {
        Self {
            kind,
            schedule,
            lambda,
            scratch,
        }
    }

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
pub(super) unsafe fn run_tasks<K: ConstraintKind<D>, const D: usize>(
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
                    project_shared(kind, c, xs, x_prev, w, lambdas, h, scratch);
                }
            }
        }
    }
}

/// Gauss–Seidel projection of constraint `c` on the shared positions and multipliers: one
/// constraint, or for a [`ConstraintKind::PAIRED`] kind the pair `c, c + 1` when `c` is even
/// (nothing when it is odd: its partner projected it).
///
/// # Safety
/// No other thread touches the positions of `c`'s stencil nor the multipliers of `c` (and of
/// `c + 1` for a paired kind) while this runs; the stencil is in range.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn project_shared<K: ConstraintKind<D>, const D: usize>(
    kind: &K,
    c: usize,
    x: DisjointSlice<'_, Vector<D>>,
    x_prev: &[Vector<D>],
    w: &[f64],
    lambdas: DisjointSlice<'_, f64>,
    h: f64,
    scratch: &mut Vec<Vector<D>>,
) {
    // SAFETY (both arms): exclusive access to the stencil and the multipliers (caller).
    unsafe {
        if K::PAIRED {
            if c % 2 == 1 {
                return;
            }
            let idx = kind.stencil(c);
            let n = idx.len();
            if scratch.len() < n {
                scratch.resize(n, Vector::<D>::zeros());
            }
            let xs = &mut scratch[..n];
            for k in 0..n {
                xs[k] = x.get(idx[k] as usize);
            }
            let mut l = [lambdas.get(c), lambdas.get(c + 1)];
            if kind.project_pair(c, idx, xs, x_prev, w, &mut l, h, 1.0) {
                for k in 0..n {
                    if w[idx[k] as usize] > 0.0 {
                        x.set(idx[k] as usize, xs[k]);
                    }
                }
            }
            lambdas.set(c, l[0]);
            lambdas.set(c + 1, l[1]);
        } else {
            let mut l = lambdas.get(c);
            project_in_place(kind, c, x, x_prev, w, &mut l, h, scratch);
            lambdas.set(c, l);
        }
    }
}

/// The XPBD projection of constraint `c` (module docs) on a private copy of its stencil:
/// `xs[k]` holds the position of `idx[k]` on entry and the corrected position on exit.
/// Returns whether `xs` changed (Δλ ≠ 0 or the kind's [`ConstraintKind::after_projection`]
/// moved it). This one kernel serves every sweep.
#[inline(always)]
pub(super) fn project_local<K: ConstraintKind<D>, const D: usize>(
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
pub(super) unsafe fn project_in_place<K: ConstraintKind<D>, const D: usize>(
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
pub(super) unsafe fn project_fixed<K: ConstraintKind<D>, const D: usize, const N: usize>(
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
pub(super) unsafe fn project_variable<K: ConstraintKind<D>, const D: usize>(
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
