//! The substepped XPBD step: [`Simulation::step`], its substeps (fused where allowed, see
//! module `fused`), the solver iterations of each substep and the step's report.

use rayon::prelude::*;

use super::{PARALLEL_PARTICLES, Simulation, StepReport, fused};
use crate::constraint::block::{FusedBlock, JacobiRelaxation};
use crate::constraint::{ConstraintSet, DisjointSlice, SubstepContext};
use crate::{SolverKind, StepError, Vector};

/// Why [`Simulation::run_substeps`] stopped.
#[derive(Debug)]
enum SubstepsFailed {
    /// The step failed (the state is then restored by the caller).
    Step(StepError),
    /// A particle failed the speed/finiteness test in a chained step, after the next
    /// substep's prediction: the caller restores the step's start and replays it unfused.
    Chained,
}

impl From<StepError> for SubstepsFailed {
    fn from(e: StepError) -> Self {
        Self::Step(e)
    }
}

impl<const D: usize> Simulation<D> {
    /// Advances by `dt` seconds (`substeps` substeps). On error the state is rolled back to
    /// the start of the step and the error names the offending particle and constraint.
    pub fn step(&mut self, dt: f64) -> Result<&StepReport, StepError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(StepError::NonPositiveTimeStep { dt });
        }
        if self.prepared_particles != self.particles.len() {
            self.prepare();
        }
        self.check_substep_bounds(dt / self.settings.substeps as f64)?;
        self.forces_zero = self
            .particles
            .force
            .iter()
            .all(|f| f.iter().all(|c| *c == 0.0));
        self.backup_x.copy_from_slice(&self.particles.x);
        self.backup_v.copy_from_slice(&self.particles.v);
        let audit = self.audit_start();
        let time0 = self.time;
        if self.settings.threads == 1 && self.blocks_dynamic && self.pool.is_none() {
            // `threads = 1` means one thread: the hooks of dynamic blocks (XPBI's neighbour
            // search and frozen data, contacts) use rayon's parallel iterators, which outside a
            // pool run on the global pool (all cores). A one-thread pool keeps them on one
            // thread. Static meshes keep running inline (entering a pool allocates now and
            // then, and their step allocates nothing). If the OS refuses the thread, the step
            // runs inline.
            self.pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().ok();
        }
        let pool = self.pool.take();
        let result = match &pool {
            Some(p) => p.install(|| self.run_substeps_or_replay(dt, time0)),
            None => self.run_substeps_or_replay(dt, time0),
        };
        self.pool = pool;
        let result = result
            .and_then(|()| self.check_strain())
            .and_then(|()| self.check_energy(audit, dt));
        match result {
            Ok(()) => {
                self.report.dt = dt;
                self.finish_report();
                Ok(&self.report)
            }
            Err(e) => {
                self.restore_step_start(time0);
                Err(e)
            }
        }
    }

    /// The particle and block state of the start of the step (`backup_x`, `backup_v`, the
    /// blocks' checkpoints) and its time.
    fn restore_step_start(&mut self, time0: f64) {
        self.particles.x.copy_from_slice(&self.backup_x);
        self.particles.x_prev.copy_from_slice(&self.backup_x);
        self.particles.v.copy_from_slice(&self.backup_v);
        for b in &mut self.blocks {
            b.rollback();
        }
        self.time = time0;
    }

    /// The step's substeps, fused where allowed; a fused step that meets a failed particle
    /// has already predicted the next substep, so it is restored and replayed unfused, which
    /// names the offender exactly as the per-phase step does.
    fn run_substeps_or_replay(&mut self, dt: f64, time0: f64) -> Result<(), StepError> {
        match self.run_substeps(dt, self.fused_enabled) {
            Ok(()) => Ok(()),
            Err(SubstepsFailed::Step(e)) => Err(e),
            Err(SubstepsFailed::Chained) => {
                self.restore_step_start(time0);
                match self.run_substeps(dt, false) {
                    Err(SubstepsFailed::Step(e)) => Err(e),
                    // Unfused, no substep is chained; a step that passes on replay (it
                    // cannot: the same operations) is kept.
                    _ => Ok(()),
                }
            }
        }
    }

    /// The substeps of one step. With `fusion`, a step of static blocks without substep hooks
    /// runs fused: as one parallel region ([`fused`]) when eligible, otherwise phase by phase
    /// with each velocity update *chained* to the next substep's prediction (one pass over the
    /// particles instead of two; the same operations on each particle, so the same bits).
    fn run_substeps(&mut self, dt: f64, fusion: bool) -> Result<(), SubstepsFailed> {
        let n_sub = self.settings.substeps;
        let h = dt / n_sub as f64;
        let parallel = self.settings.threads != 1 && rayon::current_num_threads() > 1;
        let par_particles = parallel && self.particles.len() >= PARALLEL_PARTICLES;
        let record = self.settings.diagnostics.residuals;
        self.report.residuals.clear();
        self.report.substep_residuals.clear();
        self.report.setup_seconds.clear();
        self.report.solve_seconds.clear();
        // With multiplier warm starting λ is carried from step to step: part of the state
        // that a failed step restores.
        let warm = self.settings.multiplier_warm_start.is_some();
        for b in &mut self.blocks {
            b.checkpoint(warm);
        }
        let iterations = self.settings.iterations;
        let chain = fusion
            && !record
            && !self.blocks_dynamic
            && self.blocks.iter().all(|b| b.fusable(iterations));
        self.last_step_fused = chain && self.fused_eligible(parallel);
        if self.last_step_fused {
            if !self.run_fused(h) {
                return Err(SubstepsFailed::Chained);
            }
            // Time advances substep by substep, as below (the same bits).
            for _ in 0..n_sub {
                self.time += h;
            }
            return Ok(());
        }
        let mut predicted = false;
        self.report.setup_seconds.resize(self.blocks.len(), 0.0);
        self.report.solve_seconds.resize(self.blocks.len(), 0.0);
        for s in 0..n_sub {
            let ctx = SubstepContext {
                h,
                substep: s,
                substeps: n_sub,
                time: self.time,
                dedicated_pool: self.pool_threads > 1,
            };
            let p = &self.particles;
            for (b, t) in self.blocks.iter_mut().zip(&mut self.report.setup_seconds) {
                let start = std::time::Instant::now();
                b.begin_substep(p, &ctx);
                *t += start.elapsed().as_secs_f64();
            }
            if let Some((block, message)) = (self.blocks.iter().enumerate())
                .find_map(|(bi, b)| b.substep_fault().map(|m| (bi, m)))
            {
                return Err(SubstepsFailed::Step(StepError::BlockFault {
                    block,
                    block_name: self.blocks[block].name(),
                    substep: s,
                    message,
                }));
            }
            if !predicted {
                // Also saves x_prev = xⁿ (one pass over the particles instead of a copy and a
                // pass).
                self.predict(h, (s + 1) as f64 / n_sub as f64, par_particles);
            }
            for b in &mut self.blocks {
                b.reset_multipliers(self.settings.multiplier_warm_start, par_particles);
            }
            if record {
                self.report.residuals.clear();
            }
            for it in 0..iterations {
                self.iterate(&ctx, it, parallel, par_particles);
                if record {
                    let r = self.residual_norm(&ctx);
                    self.report.residuals.push(r);
                }
            }
            if record {
                let last = self.report.residuals.last().copied().unwrap_or(0.0);
                self.report.substep_residuals.push(last);
            }
            let next = (chain && s + 1 < n_sub).then(|| (s + 2) as f64 / n_sub as f64);
            let velocities_ok = self.update_velocities(h, par_particles, next);
            predicted = next.is_some();
            if !velocities_ok && predicted {
                return Err(SubstepsFailed::Chained);
            }
            for (b, t) in self.blocks.iter_mut().zip(&mut self.report.solve_seconds) {
                let start = std::time::Instant::now();
                b.end_substep(&mut self.particles, &ctx);
                *t += start.elapsed().as_secs_f64();
            }
            // End-of-substep hooks (XPBI, contacts) may change x and v: check again then.
            if !velocities_ok || self.blocks_dynamic {
                self.check_state(s)?;
            }
            self.time += h;
        }
        Ok(())
    }

    /// Whether a chained step (see [`Simulation::run_substeps`]: no residuals, no dynamic
    /// blocks, every block fusable) can also run as one fused parallel region (module `fused`)
    /// with exactly the per-phase step's results: coloured solver, the simulation's own pool
    /// with ≥ 2 threads, no more than the machine's hardware threads (the fused step's
    /// threads wait for each other at spin barriers, which a pool larger than the machine
    /// turns into seconds per step) and at most [`fused::MAX_BLOCKS`] blocks.
    fn fused_eligible(&self, parallel: bool) -> bool {
        static HARDWARE_THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let hardware = *HARDWARE_THREADS
            .get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        parallel
            && matches!(self.settings.solver, SolverKind::Coloured)
            && self.pool_threads > 1
            && (self.pool_threads <= hardware || self.fused_oversubscribed)
            && rayon::current_num_threads() == self.pool_threads
            && self.blocks.len() <= fused::MAX_BLOCKS
    }

    /// All substeps in one broadcast (see module `fused`). `false`: a particle failed the
    /// speed/finiteness test, and the step stopped after predicting the next substep.
    fn run_fused(&mut self, h: f64) -> bool {
        let mut views: [Option<FusedBlock<'_, D>>; fused::MAX_BLOCKS] = [None; fused::MAX_BLOCKS];
        for (view, b) in views.iter_mut().zip(self.blocks.iter_mut()) {
            *view = b.fused_block();
        }
        let p = &mut self.particles;
        let settings = &self.settings;
        let step = fused::FusedStep {
            x: DisjointSlice::new(&mut p.x),
            x_prev: DisjointSlice::new(&mut p.x_prev),
            v: DisjointSlice::new(&mut p.v),
            w: &p.inv_mass,
            force: &p.force,
            target: &p.kinematic_target,
            // Kinematic particles start where the step started (the rollback copy).
            start: &self.backup_x,
            blocks: &views,
            forces: !self.forces_zero,
            gravity: settings.gravity,
            h,
            substeps: settings.substeps,
            iterations: settings.iterations,
            warm_start: settings.multiplier_warm_start,
            velocity_damping: settings.velocity_damping,
            max_speed: settings.diagnostics.max_speed,
        };
        step.run()
    }

    fn iterate(
        &mut self,
        ctx: &SubstepContext,
        iteration: usize,
        parallel: bool,
        par_particles: bool,
    ) {
        let p = &mut self.particles;
        let iterations = self.settings.iterations;
        let active = |b: &dyn ConstraintSet<D>| b.projects_in_iteration(iteration, iterations);
        let times = &mut self.report.solve_seconds;
        times.resize(self.blocks.len(), 0.0);
        match self.settings.solver {
            SolverKind::GaussSeidel => {
                for (b, t) in self.blocks.iter_mut().zip(times.iter_mut()) {
                    if active(b.as_ref()) {
                        let start = std::time::Instant::now();
                        b.solve_gauss_seidel(&mut p.x, &p.x_prev, &p.inv_mass, ctx);
                        *t += start.elapsed().as_secs_f64();
                    }
                }
            }
            SolverKind::Coloured => {
                for (b, t) in self.blocks.iter_mut().zip(times.iter_mut()) {
                    if active(b.as_ref()) {
                        let start = std::time::Instant::now();
                        b.solve_coloured(&mut p.x, &p.x_prev, &p.inv_mass, ctx, parallel);
                        *t += start.elapsed().as_secs_f64();
                    }
                }
            }
            SolverKind::Jacobi { omega, averaged } => {
                if averaged && (self.jacobi_counts_stale || self.blocks_dynamic) {
                    self.jacobi_count.iter_mut().for_each(|c| *c = 0);
                    for b in &self.blocks {
                        b.count_incidence(&mut self.jacobi_count);
                    }
                    self.jacobi_counts_stale = false;
                }
                let relax = JacobiRelaxation {
                    omega,
                    counts: averaged.then_some(&self.jacobi_count[..]),
                };
                for (b, t) in self.blocks.iter_mut().zip(times.iter_mut()) {
                    if active(b.as_ref()) {
                        let start = std::time::Instant::now();
                        b.jacobi_compute(&p.x, &p.x_prev, &p.inv_mass, ctx, relax, parallel);
                        *t += start.elapsed().as_secs_f64();
                    }
                }
                self.jacobi_dx
                    .iter_mut()
                    .for_each(|d| *d = Vector::<D>::zeros());
                for b in self.blocks.iter().filter(|b| active(b.as_ref())) {
                    b.jacobi_scatter(&p.inv_mass, &mut self.jacobi_dx);
                }
                if par_particles {
                    p.x.par_iter_mut()
                        .zip(self.jacobi_dx.par_iter())
                        .for_each(|(x, d)| *x += d);
                } else {
                    p.x.iter_mut()
                        .zip(self.jacobi_dx.iter())
                        .for_each(|(x, d)| *x += d);
                }
            }
        }
    }

    /// ‖C + α̃λ‖ over all blocks at the current positions.
    fn residual_norm(&self, ctx: &SubstepContext) -> f64 {
        self.blocks
            .iter()
            .map(|b| b.residual_squared(&self.particles.x, ctx))
            .sum::<f64>()
            .sqrt()
    }
    fn finish_report(&mut self) {
        let totals = &mut self.block_seconds;
        for (total, step) in [
            (&mut totals.setup, &self.report.setup_seconds),
            (&mut totals.solve, &self.report.solve_seconds),
        ] {
            total.resize(total.len().max(step.len()), 0.0);
            total.iter_mut().zip(step).for_each(|(t, s)| *t += s);
        }
        self.report.substeps = self.settings.substeps;
        self.report.iterations = self.settings.iterations;
        self.report.time = self.time;
        if self.settings.diagnostics.energies {
            self.report.energies = Some(self.energies());
            self.report.max_relative_strain = Some(self.max_relative_strain());
        } else {
            self.report.energies = None;
            self.report.max_relative_strain = None;
        }
    }
}
