//! The fused coloured step: a whole step (all substeps) of the coloured Gauss-Seidel solver in
//! one `rayon::broadcast`, instead of four entries into the pool per substep (prediction,
//! multiplier reset, the sweep, the velocity update), each of which costs a wake-up of the
//! other workers.
//!
//! Each of the T threads of the simulation's own pool does, per substep:
//!
//! 1. (first substep only) prediction ([`predict_particle`]) on its contiguous particle range
//!    `[n t/T, n (t+1)/T)`;
//! 2. the multiplier reset on its range of each block's λ; barrier, after which every thread
//!    stops if a particle failed in the previous substep;
//! 3. per iteration, block and colour: its contiguous slice of the colour's tasks (as the
//!    per-phase sweep, `ConstraintSet::solve_coloured`), barrier;
//! 4. the velocity update ([`update_velocity`]) on its particle range, chained to the next
//!    substep's prediction of the same particle (one pass instead of two, and one barrier per
//!    substep fewer), with the speed and finiteness test folded into a shared flag.
//!
//! A failed particle stops the step after the next prediction; the simulation then restores
//! the step's start and replays it per phase, which reports the offender.
//!
//! Every particle, multiplier and constraint sees the same operations in the same order as in
//! the per-phase step (the per-particle bodies and the task kernel are the same functions), so
//! the results are bit-identical for any thread count. The simulation uses it only when that
//! holds (see `Simulation::fused_eligible`).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::Vector;
use crate::constraint::DisjointSlice;
use crate::constraint::block::{FusedBlock, SpinBarrier};

/// Blocks a fused step can hold (their views live in a stack array); a simulation with more
/// blocks takes the per-phase step.
pub(super) const MAX_BLOCKS: usize = 8;

/// `x_prev = x`, then for a free particle `v += (g + f w) h` (or `v += g h`, precomputed, when
/// no particle has a force: the same bits) and `x += v h`; a kinematic particle moves to
/// `x0 + (target − x0) · fraction`. Semi-implicit Euler prediction (Macklin et al. 2019,
/// Algorithm 1).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn predict_particle<const D: usize, const FORCES: bool>(
    x: &mut Vector<D>,
    x_prev: &mut Vector<D>,
    v: &mut Vector<D>,
    w: &f64,
    f: &Vector<D>,
    target: &Option<Vector<D>>,
    x0: &Vector<D>,
    g: Vector<D>,
    gh: Vector<D>,
    h: f64,
    fraction: f64,
) {
    *x_prev = *x;
    if *w > 0.0 {
        if FORCES {
            *v += (g + f * *w) * h;
        } else {
            *v += gh;
        }
        *x += *v * h;
    } else if let Some(t) = target {
        *x = x0 + (t - x0) * fraction;
    }
}

/// `v = (x − x_prev) / h`, times `damp` for free particles when damping is on. Returns whether
/// `|v|² ≤ max_speed2` (false for a non-finite velocity: NaN compares false).
#[inline(always)]
pub(super) fn update_velocity<const D: usize>(
    v: &mut Vector<D>,
    x: &Vector<D>,
    xp: &Vector<D>,
    w: &f64,
    inv_h: f64,
    damp: f64,
    max_speed2: f64,
) -> bool {
    *v = (x - xp) * inv_h;
    if *w > 0.0 && damp != 1.0 {
        *v *= damp;
    }
    v.norm_squared() <= max_speed2
}

/// [`update_velocity`] then [`predict_particle`] of the next substep, on values in registers
/// (the same operations in the same order, so the same bits): written through memory, the
/// prediction reloads `v` right after the update stored it in two differently sized pieces,
/// which stalls store-to-load forwarding (measured: the chained pass was 4× slower; calling
/// the two functions on a local velocity instead of this copy of their bodies still cost 18 %
/// of the whole N = 128 cloth step).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn update_and_predict<const D: usize, const FORCES: bool>(
    x: &mut Vector<D>,
    x_prev: &mut Vector<D>,
    v: &mut Vector<D>,
    w: &f64,
    f: &Vector<D>,
    target: &Option<Vector<D>>,
    x0: &Vector<D>,
    step: &ChainConstants<D>,
) -> bool {
    let (xn, w) = (*x, *w);
    let mut vn = (xn - *x_prev) * step.inv_h;
    if w > 0.0 && step.damp != 1.0 {
        vn *= step.damp;
    }
    let ok = vn.norm_squared() <= step.max_speed2;
    *x_prev = xn;
    if w > 0.0 {
        if FORCES {
            vn += (step.g + f * w) * step.h;
        } else {
            vn += step.gh;
        }
        *x = xn + vn * step.h;
    } else if let Some(t) = target {
        *x = x0 + (t - x0) * step.fraction;
    }
    *v = vn;
    ok
}

/// The per-substep constants of [`update_and_predict`].
#[derive(Debug, Clone, Copy)]
pub(super) struct ChainConstants<const D: usize> {
    pub inv_h: f64,
    pub damp: f64,
    pub max_speed2: f64,
    pub g: Vector<D>,
    pub gh: Vector<D>,
    pub h: f64,
    /// Kinematic fraction of the substep being predicted.
    pub fraction: f64,
}

/// Everything one fused step reads and writes. The particle arrays that change are
/// [`DisjointSlice`]s: each thread writes only its own particle range, outside the sweeps.
pub(super) struct FusedStep<'a, const D: usize> {
    pub x: DisjointSlice<'a, Vector<D>>,
    pub x_prev: DisjointSlice<'a, Vector<D>>,
    pub v: DisjointSlice<'a, Vector<D>>,
    pub w: &'a [f64],
    pub force: &'a [Vector<D>],
    pub target: &'a [Option<Vector<D>>],
    /// Kinematic particles' positions at the start of the step.
    pub start: &'a [Vector<D>],
    pub blocks: &'a [Option<FusedBlock<'a, D>>],
    /// Whether some particle has an external force.
    pub forces: bool,
    pub gravity: Vector<D>,
    pub h: f64,
    pub substeps: usize,
    pub iterations: usize,
    pub warm_start: Option<f64>,
    pub velocity_damping: f64,
    pub max_speed: f64,
}

impl<const D: usize> FusedStep<'_, D> {
    /// Runs all substeps on every thread of the current pool. `false`: some particle failed
    /// the speed/finiteness test at the end of a substep; all threads stopped after predicting
    /// the next one (the caller restores the step's start and replays it per phase).
    pub(super) fn run(&self) -> bool {
        let barrier = SpinBarrier::new(rayon::current_num_threads());
        let failed = AtomicBool::new(false);
        rayon::broadcast(|b| self.thread(b.index(), b.num_threads(), &barrier, &failed));
        !failed.load(Ordering::Relaxed)
    }

    /// Thread `t` of `n_threads`. Every thread passes the same barriers in the same order
    /// (the loops depend only on the substep, iteration, block and colour counts).
    fn thread(&self, t: usize, n_threads: usize, barrier: &SpinBarrier, failed: &AtomicBool) {
        let n = self.w.len();
        let mine = n * t / n_threads..n * (t + 1) / n_threads;
        let h = self.h;
        // The same expressions as the per-phase step's, so the same bits.
        let gh = self.gravity * h;
        let damp = (-self.velocity_damping * h).exp();
        let max_speed2 = self.max_speed.powi(2);
        let inv_h = 1.0 / h;
        let fraction = |s: usize| (s + 1) as f64 / self.substeps as f64;
        for s in 0..self.substeps {
            if s == 0 {
                self.predict_range(mine.clone(), gh, fraction(0));
            }
            for b in self.blocks.iter().flatten() {
                let lambda = b.lambda();
                let m = lambda.len();
                // SAFETY: the λ ranges of the threads are disjoint, and no sweep runs before
                // the barrier below.
                let mine = unsafe { lambda.range_mut(m * t / n_threads..m * (t + 1) / n_threads) };
                match self.warm_start {
                    None => mine.iter_mut().for_each(|l| *l = 0.0),
                    Some(d) => mine.iter_mut().for_each(|l| *l *= 1.0 - d),
                }
            }
            // Also publishes the failure flag of the previous substep's velocity update: the
            // barrier orders every arrival before every leave, so all threads stop together.
            barrier.wait();
            if failed.load(Ordering::Relaxed) {
                return;
            }
            for _ in 0..self.iterations {
                for b in self.blocks.iter().flatten() {
                    let mut scratch = b.scratch(t + 1).lock().expect("scratch lock");
                    // SAFETY: x_prev is written only in the prediction, which every thread
                    // finished before the barrier above; the slice dies before the velocity
                    // update.
                    let x_prev = unsafe { self.x_prev.as_slice() };
                    for colour in b.colours() {
                        let k = colour.len();
                        let share = &colour[k * t / n_threads..k * (t + 1) / n_threads];
                        // SAFETY: the threads run disjoint shares of one colour's tasks, which
                        // touch disjoint particles and multipliers (Schedule invariant); the
                        // barrier after each colour separates colours.
                        unsafe { b.run_tasks(share, self.x, x_prev, self.w, h, &mut scratch) };
                        barrier.wait();
                    }
                }
            }
            // The velocity update on the own particle range, chained to the next substep's
            // prediction (as the per-phase chained step): every sweep ended at the last
            // colour's barrier, and the next sweep starts after the next substep's barrier.
            let ok = if s + 1 < self.substeps {
                if self.forces {
                    self.update_range::<true, true>(
                        mine.clone(),
                        inv_h,
                        damp,
                        max_speed2,
                        gh,
                        fraction(s + 1),
                    )
                } else {
                    self.update_range::<true, false>(
                        mine.clone(),
                        inv_h,
                        damp,
                        max_speed2,
                        gh,
                        fraction(s + 1),
                    )
                }
            } else {
                self.update_range::<false, false>(mine.clone(), inv_h, damp, max_speed2, gh, 0.0)
            };
            if !ok {
                failed.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The velocity update on the particle range `mine`, then (`CHAIN`) the prediction of the
    /// next substep at kinematic `fraction`; whether every particle passed the speed test.
    #[allow(clippy::too_many_arguments)]
    fn update_range<const CHAIN: bool, const FORCES: bool>(
        &self,
        mine: std::ops::Range<usize>,
        inv_h: f64,
        damp: f64,
        max_speed2: f64,
        gh: Vector<D>,
        fraction: f64,
    ) -> bool {
        // SAFETY: own particle range, written by this thread only; no other thread reads it
        // until the next barrier.
        let (x, x_prev, v) = unsafe {
            (
                self.x.range_mut(mine.clone()),
                self.x_prev.range_mut(mine.clone()),
                self.v.range_mut(mine.clone()),
            )
        };
        let c = ChainConstants {
            inv_h,
            damp,
            max_speed2,
            g: self.gravity,
            gh,
            h: self.h,
            fraction,
        };
        x.iter_mut()
            .zip(x_prev.iter_mut())
            .zip(v.iter_mut())
            .zip(self.w[mine.clone()].iter().zip(&self.force[mine.clone()]))
            .zip(self.target[mine.clone()].iter().zip(&self.start[mine]))
            .fold(true, |ok, ((((x, xp), v), (w, f)), (target, x0))| {
                let passed = if CHAIN {
                    update_and_predict::<D, FORCES>(x, xp, v, w, f, target, x0, &c)
                } else {
                    update_velocity(v, x, xp, w, inv_h, damp, max_speed2)
                };
                ok & passed
            })
    }

    /// Prediction on the particle range `mine` (the first substep's).
    fn predict_range(&self, mine: std::ops::Range<usize>, gh: Vector<D>, fraction: f64) {
        if self.forces {
            self.predict::<true>(mine, gh, fraction);
        } else {
            self.predict::<false>(mine, gh, fraction);
        }
    }

    /// Prediction on the particle range `mine`.
    fn predict<const FORCES: bool>(
        &self,
        mine: std::ops::Range<usize>,
        gh: Vector<D>,
        fraction: f64,
    ) {
        // SAFETY: own particle range, and no thread reads another's range until the barrier
        // after the multiplier reset (the previous substep's last barrier ended every read).
        let (x, x_prev, v) = unsafe {
            (
                self.x.range_mut(mine.clone()),
                self.x_prev.range_mut(mine.clone()),
                self.v.range_mut(mine.clone()),
            )
        };
        let (g, h) = (self.gravity, self.h);
        x.iter_mut()
            .zip(x_prev.iter_mut())
            .zip(v.iter_mut())
            .zip(self.w[mine.clone()].iter().zip(&self.force[mine.clone()]))
            .zip(self.target[mine.clone()].iter().zip(&self.start[mine]))
            .for_each(|((((x, xp), v), (w, f)), (target, x0))| {
                predict_particle::<D, FORCES>(x, xp, v, w, f, target, x0, g, gh, h, fraction);
            });
    }
}

#[cfg(test)]
mod tests {
    use crate::builders::ClothGrid;
    use crate::builders::cloth::benchmark_cloth;
    use crate::{Simulation, SolverKind, SolverSettings, StepError, Vector};

    /// Cloth with stretch and bending blocks, warm-started multipliers, velocity damping, an
    /// external force and a moving kinematic particle: every branch of the fused step.
    fn rich_cloth(threads: usize, fused: bool, max_speed: f64) -> Simulation<3> {
        rich_cloth_with(SolverKind::Coloured, threads, fused, max_speed)
    }

    fn rich_cloth_with(
        solver: SolverKind,
        threads: usize,
        fused: bool,
        max_speed: f64,
    ) -> Simulation<3> {
        let cloth = ClothGrid::<3> {
            nx: 40,
            ny: 40,
            stretch_compliance: 1e-6,
            pinned: vec![(0, 39), (39, 39)],
            ..ClothGrid::default()
        }
        .build()
        .unwrap();
        let bending = cloth.dihedral_bending(1e-4).unwrap();
        let mut settings = SolverSettings::<3> {
            solver,
            threads,
            substeps: 4,
            iterations: 2,
            multiplier_warm_start: Some(0.2),
            velocity_damping: 0.5,
            ..SolverSettings::default()
        };
        settings.diagnostics.max_speed = max_speed;
        let mut particles = cloth.particles.clone();
        particles.force[100] = Vector::<3>::new(0.3, -0.2, 0.1);
        let pinned = 39 * 40;
        particles.kinematic_target[pinned] = Some(particles.x[pinned] + Vector::<3>::x() * 1e-3);
        let mut sim = Simulation::new(particles, settings).unwrap();
        sim.add_constraints(cloth.stretch.clone()).unwrap();
        sim.add_constraints(bending).unwrap();
        sim.set_fused_step(fused);
        // The partitioning is what is tested, at thread counts above this machine's too.
        sim.fused_oversubscribed = true;
        sim
    }

    fn bits(v: &[Vector<3>]) -> Vec<u64> {
        v.iter()
            .flat_map(|p| p.iter().map(|c| c.to_bits()))
            .collect()
    }

    fn state(sim: &Simulation<3>) -> (Vec<u64>, Vec<u64>, Vec<u64>, Vec<u64>) {
        let p = sim.particles();
        let lambda = sim
            .blocks()
            .iter()
            .flat_map(|b| b.multipliers().iter().map(|l| l.to_bits()))
            .collect();
        (bits(&p.x), bits(&p.x_prev), bits(&p.v), lambda)
    }

    /// A pool larger than the machine runs per phase (the fused step's spin barriers would
    /// make every step wait on descheduled threads), with the same bits.
    #[test]
    fn a_pool_larger_than_the_machine_runs_per_phase() {
        let hardware = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut reference = rich_cloth(2, false, 1e4);
        let mut sim = rich_cloth(hardware + 1, true, 1e4);
        sim.fused_oversubscribed = false;
        for _ in 0..3 {
            reference.step(1.0 / 60.0).unwrap();
            sim.step(1.0 / 60.0).unwrap();
            assert!(!sim.last_step_fused());
            assert!(state(&sim) == state(&reference));
        }
    }

    #[test]
    fn fused_step_is_bit_identical_to_the_per_phase_step() {
        let mut reference = rich_cloth(2, false, 1e4);
        let mut runs: Vec<_> = [2, 3, 8]
            .into_iter()
            .map(|t| (t, rich_cloth(t, true, 1e4)))
            .collect();
        for step in 0..12 {
            reference.step(1.0 / 60.0).unwrap();
            assert!(!reference.last_step_fused());
            let want = state(&reference);
            for (t, sim) in &mut runs {
                sim.step(1.0 / 60.0).unwrap();
                assert!(sim.last_step_fused(), "{t} threads: fused path not taken");
                assert!(state(sim) == want, "{t} threads differ at step {step}");
                assert_eq!(sim.time().to_bits(), reference.time().to_bits());
            }
        }
    }

    #[test]
    fn fused_step_reports_and_rolls_back_a_divergence_like_the_per_phase_step() {
        // Speed limits that the falling cloth passes within a few steps, at various substeps.
        let mut substeps_seen = Vec::new();
        // Two threads run the fused region; one thread the chained per-phase step. A failed
        // step of either is replayed per phase, so it reports as the reference.
        for (threads, max_speed) in [0.3, 0.6, 0.9, 1.2, 1.5]
            .into_iter()
            .flat_map(|m| [(2, m), (1, m)])
        {
            let mut reference = rich_cloth(threads, false, max_speed);
            let mut fused = rich_cloth(threads, true, max_speed);
            for _ in 0..60 {
                let before = state(&fused);
                let a: Result<(), StepError> = reference.step(1.0 / 60.0).map(|_| ());
                let b = fused.step(1.0 / 60.0).map(|_| ());
                assert_eq!(fused.last_step_fused(), threads == 2 && b.is_ok());
                assert_eq!(a, b);
                assert!(state(&fused) == state(&reference));
                assert_eq!(fused.time().to_bits(), reference.time().to_bits());
                if let Err(e) = b {
                    // x, v and (warm-started) λ as before the step; x_prev = x.
                    let after = state(&fused);
                    assert!(after.0 == before.0 && after.2 == before.2, "rolled back");
                    assert!(after.1 == before.0 && after.3 == before.3, "rolled back");
                    let StepError::Diverged { substep, .. } = e else {
                        panic!("{e:?}")
                    };
                    substeps_seen.push(substep);
                    break;
                }
            }
        }
        assert_eq!(substeps_seen.len(), 10, "every speed limit is reached");
        assert!(substeps_seen.iter().any(|&s| s > 0), "{substeps_seen:?}");
    }

    #[test]
    fn chained_per_phase_step_is_bit_identical_for_every_solver() {
        // One thread (and Jacobi / Gauss-Seidel on two): the velocity update chained to the
        // next prediction against the separate passes, 12 steps of 4 substeps.
        for (solver, threads) in [
            (SolverKind::Coloured, 1),
            (SolverKind::GaussSeidel, 1),
            (SolverKind::JACOBI, 1),
            (SolverKind::JACOBI, 2),
        ] {
            let mut reference = rich_cloth_with(solver, threads, false, 1e4);
            let mut chained = rich_cloth_with(solver, threads, true, 1e4);
            for step in 0..12 {
                reference.step(1.0 / 60.0).unwrap();
                chained.step(1.0 / 60.0).unwrap();
                assert!(
                    state(&chained) == state(&reference),
                    "{solver:?}, {threads} threads differ at step {step}"
                );
            }
        }
    }

    #[test]
    fn benchmark_cloth_takes_the_fused_path_with_two_threads() {
        let mut sim = benchmark_cloth(128, SolverKind::Coloured, 2).unwrap();
        sim.step(1.0 / 60.0).unwrap();
        assert!(sim.last_step_fused());
        assert!(sim.blocks().iter().all(|b| b.fusable(1)));
        // Not fused: one thread, or residual recording, or another solver.
        let mut one = benchmark_cloth(32, SolverKind::Coloured, 1).unwrap();
        one.step(1.0 / 60.0).unwrap();
        assert!(!one.last_step_fused());
        let mut residuals = benchmark_cloth(32, SolverKind::Coloured, 2).unwrap();
        let mut settings = residuals.settings().clone();
        settings.diagnostics.residuals = true;
        residuals.set_settings(settings).unwrap();
        residuals.step(1.0 / 60.0).unwrap();
        assert!(!residuals.last_step_fused());
        let mut jacobi = benchmark_cloth(32, SolverKind::JACOBI, 2).unwrap();
        jacobi.step(1.0 / 60.0).unwrap();
        assert!(!jacobi.last_step_fused());
    }

    #[test]
    fn blocks_with_substep_hooks_keep_the_per_phase_step() {
        use crate::contact::{Collider, ColliderContacts, ContactOptions, Shape};
        let mut sim = benchmark_cloth(16, SolverKind::Coloured, 2).unwrap();
        let mut contacts = ColliderContacts::new(0.01, ContactOptions::default()).unwrap();
        contacts
            .add_collider(Collider::fixed(Shape::HalfSpace {
                normal: Vector::<3>::z(),
                offset: -0.5,
            }))
            .unwrap();
        sim.add_constraints(contacts).unwrap();
        assert!(!sim.blocks()[1].fusable(1));
        sim.step(1.0 / 60.0).unwrap();
        assert!(!sim.last_step_fused());
    }
}
