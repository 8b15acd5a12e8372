//! The three sweeps of a [`ConstraintBlock`] over its constraints: Gauss-Seidel in constraint
//! order, coloured (parallel within a colour) and Jacobi (every constraint from the same
//! positions, then the corrections scattered), all through the one projection kernel.

use rayon::prelude::*;

use super::kernel::{project_local, project_shared, run_tasks};
use super::{
    ConstraintBlock, DisjointSlice, JACOBI_CHUNK, JacobiRelaxation, SpinBarrier, SubstepContext,
};
use crate::Vector;
use crate::constraint::ConstraintKind;
use crate::schedule::Schedule;

/// One Gauss-Seidel sweep in constraint order
/// ([`ConstraintSet::solve_gauss_seidel`](super::ConstraintSet::solve_gauss_seidel)).
pub(super) fn gauss_seidel<K: ConstraintKind<D>, const D: usize>(
    block: &mut ConstraintBlock<K, D>,
    x: &mut [Vector<D>],
    x_prev: &[Vector<D>],
    w: &[f64],
    ctx: &SubstepContext,
) {
    block.ensure_scratch();
    let shared = DisjointSlice::new(x);
    let lambdas = DisjointSlice::new(&mut block.lambda);
    let mut scratch = block.scratch[0].lock().expect("scratch lock");
    let inv_h2 = 1.0 / (ctx.h * ctx.h);
    // SAFETY: single thread; stencils were range-checked when the block was added.
    unsafe {
        let mut run = 0..block.kind.len();
        while let Some(c) = block
            .kind
            .project_closed_form_run(&mut run, false, shared, w, lambdas, inv_h2)
        {
            project_shared(
                &block.kind,
                c,
                shared,
                x_prev,
                w,
                lambdas,
                ctx.h,
                &mut scratch,
            );
        }
    }
}

/// One coloured sweep ([`ConstraintSet::solve_coloured`](super::ConstraintSet::solve_coloured)):
/// the colours in order, each colour's tasks in parallel where allowed.
pub(super) fn coloured<K: ConstraintKind<D>, const D: usize>(
    block: &mut ConstraintBlock<K, D>,
    x: &mut [Vector<D>],
    x_prev: &[Vector<D>],
    w: &[f64],
    ctx: &SubstepContext,
    parallel: bool,
) {
    block.ensure_scratch();
    let ConstraintBlock {
        kind,
        lambda,
        schedule,
        scratch,
        ..
    } = block;
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

/// The Jacobi sweep's multiplier updates and corrections
/// ([`ConstraintSet::jacobi_compute`](super::ConstraintSet::jacobi_compute)): each constraint
/// projected from the same positions, its corrections written into its slots.
pub(super) fn jacobi_compute<K: ConstraintKind<D>, const D: usize>(
    block: &mut ConstraintBlock<K, D>,
    x: &[Vector<D>],
    x_prev: &[Vector<D>],
    w: &[f64],
    ctx: &SubstepContext,
    relax: JacobiRelaxation<'_>,
    parallel: bool,
) {
    block.ensure_scratch();
    let ConstraintBlock {
        kind,
        lambda,
        slot_offsets,
        corrections,
        scratch,
        ..
    } = block;
    let slots = *slot_offsets.last().unwrap_or(&0) as usize;
    if corrections.len() != slots {
        corrections.resize(slots, Vector::<D>::zeros());
    }
    let corr = DisjointSlice::new(corrections);
    // A paired kind's partners 2e, 2e + 1 fall in one chunk (JACOBI_CHUNK is even).
    let chunk_job = |chunk: usize, lchunk: &mut [f64], scratch: &mut Vec<Vector<D>>| {
        for k in 0..lchunk.len() {
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
            let changed = if K::PAIRED {
                if c.is_multiple_of(2) {
                    let mut l = [lchunk[k], lchunk[k + 1]];
                    let changed = kind.project_pair(
                        c,
                        idx,
                        xs,
                        x_prev,
                        w,
                        &mut l,
                        ctx.h,
                        relax.factor(idx, w),
                    );
                    [lchunk[k], lchunk[k + 1]] = l;
                    changed
                } else {
                    false
                }
            } else {
                project_local(
                    kind,
                    c,
                    idx,
                    xs,
                    &mut grad[..n],
                    x_prev,
                    w,
                    &mut lchunk[k],
                    ctx.h,
                    relax,
                )
            };
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

/// Adds the recorded Jacobi corrections into `dx`
/// ([`ConstraintSet::jacobi_scatter`](super::ConstraintSet::jacobi_scatter)).
pub(super) fn jacobi_scatter<K: ConstraintKind<D>, const D: usize>(
    block: &ConstraintBlock<K, D>,
    w: &[f64],
    dx: &mut [Vector<D>],
) {
    for c in 0..block.kind.len() {
        let base = block.slot_offsets[c] as usize;
        for (k, &p) in block.kind.stencil(c).iter().enumerate() {
            let p = p as usize;
            if w[p] > 0.0 {
                dx[p] += block.corrections[base + k];
            }
        }
    }
}
