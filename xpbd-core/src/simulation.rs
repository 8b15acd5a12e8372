//! The simulation: particles + constraint blocks + settings, and the substepped XPBD step.

mod adaptive;
mod audit;
mod fused;
mod passes;

pub use adaptive::{AdaptiveStepping, AdvanceReport, MAX_STEPS_PER_SPAN, MAX_WORK_PER_SPAN};

use std::marker::PhantomData;

use rayon::prelude::*;

use crate::constraint::block::{FusedBlock, JacobiRelaxation};
use crate::constraint::{
    ConstraintBlock, ConstraintKind, ConstraintSet, DisjointSlice, SubstepContext,
};
use crate::error::ConstraintRef;
use crate::schedule::Colouring;
use crate::{BuildError, Particles, SolverKind, StepError, Vector};

/// Particle counts above which the per-particle loops run in parallel.
const PARALLEL_PARTICLES: usize = 8192;

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
    pub max_strain: f64,
    /// The energy audit's tolerance ε: a step whose mechanical energy (kinetic +
    /// gravitational + the multipliers' elastic energy) grows by more than the work done on
    /// it from outside plus ε times the energy it had to work with is divergence, rolled back
    /// with [`StepError::EnergyGrowth`] (the rule and its terms: module `simulation::audit`).
    /// Two passes over the particles and one over the multipliers per step. The default, 1,
    /// lets no step more than double the energy it had beyond what came in; over 100 steps of
    /// every scene file the largest ratio measured is 0.25 (a soft cloth bouncing off a
    /// sphere). `f64::INFINITY` turns the audit off.
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

/// Energies at the end of a step (J).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Energies {
    /// ½ Σ m v².
    pub kinetic: f64,
    /// −Σ m g·x.
    pub gravitational: f64,
    /// Σ C²/(2α) over compliant constraints.
    pub elastic: f64,
}

impl Energies {
    /// Sum of the three.
    pub fn total(&self) -> f64 {
        self.kinetic + self.gravitational + self.elastic
    }
}

/// What a step did and measured. Vectors are reused from step to step (no allocation once
/// their capacity is reached).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StepReport {
    /// The step's size Δt (s).
    pub dt: f64,
    /// Substeps taken.
    pub substeps: usize,
    /// Iterations per substep.
    pub iterations: usize,
    /// Residual norm ‖C + α̃λ‖ after each iteration of the last substep
    /// (empty unless [`Diagnostics::residuals`]).
    pub residuals: Vec<f64>,
    /// Residual norm after the last iteration of each substep (same condition).
    pub substep_residuals: Vec<f64>,
    /// Energies at the end of the step (with [`Diagnostics::energies`]).
    pub energies: Option<Energies>,
    /// Largest relative strain |l − l₀|/l₀ over constraints that define one (same condition).
    pub max_relative_strain: Option<f64>,
    /// The energy audit's measure of the step: its gain beyond the work done from outside and
    /// the noise floor, as a fraction of the energy it had to work with (a step is refused
    /// above [`Diagnostics::max_energy_gain`]; negative when it lost energy). `None` when the
    /// audit is off or did not judge the step (the first after construction or `set_time`).
    pub energy_gain: Option<f64>,
    /// Simulation time at the end of the step (s).
    pub time: f64,
    /// Wall time (s) of each block's substep setup (`ConstraintKind::begin_substep`: contact
    /// search, XPBI neighbour search and frozen data), summed over the step's substeps, in
    /// block order: the step's own timing breakdown of its searches (empty after a fused
    /// step, whose blocks have no setup). A measurement: it differs from run to run.
    pub setup_seconds: Vec<f64>,
    /// Wall time (s) of each block's projections (every iteration of every substep) and
    /// end-of-substep work (`ConstraintKind::end_substep`: friction and restitution of
    /// contacts, the XPBI commit), in block order; with [`StepReport::setup_seconds`] the
    /// step's own breakdown of where its time goes by block (empty after a fused step).
    pub solve_seconds: Vec<f64>,
}

/// A typed handle to a constraint block added to a [`Simulation`].
#[derive(Debug)]
pub struct BlockHandle<K> {
    index: usize,
    kind: PhantomData<fn() -> K>,
}

impl<K> Clone for BlockHandle<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K> Copy for BlockHandle<K> {}

impl<K> BlockHandle<K> {
    /// Position of the block in [`Simulation::blocks`].
    pub fn index(&self) -> usize {
        self.index
    }
}

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

/// Particles, constraints and settings, stepped with substepped XPBD.
///
/// Architecture invariant: a step that fails leaves the particle state (and every block's
/// state, via [`ConstraintKind`]'s rollback hooks) exactly as it was before the step.
#[derive(Debug)]
pub struct Simulation<const D: usize> {
    particles: Particles<D>,
    settings: SolverSettings<D>,
    blocks: Vec<Box<dyn ConstraintSet<D>>>,
    pool: Option<rayon::ThreadPool>,
    pool_threads: usize,
    prepared_particles: usize,
    time: f64,
    /// Positions at the start of the step: the rollback copy, and where kinematic particles
    /// start their move to their targets.
    backup_x: Vec<Vector<D>>,
    backup_v: Vec<Vector<D>>,
    /// Positions at the last evaluation of the strain check, and per block its constraint
    /// count and largest strain then (see [`Simulation::check_strain`]).
    strain_reference: Vec<Vector<D>>,
    strain_at_reference: Vec<(usize, Option<f64>)>,
    /// The multipliers' elastic energy at the end of the last successful step (the energy
    /// audit's start value for the next one; `None` before the first).
    audit_elastic: Option<f64>,
    /// [`Simulation::set_max_work_per_span`].
    max_work_per_span: f64,
    jacobi_dx: Vec<Vector<D>>,
    jacobi_count: Vec<u32>,
    jacobi_counts_stale: bool,
    blocks_dynamic: bool,
    /// No particle has an external force (checked at each step; hooks do not add forces).
    forces_zero: bool,
    /// Whether a step may take the fused coloured path (see [`Simulation::set_fused_step`]).
    fused_enabled: bool,
    /// Lets the fused step run with more pool threads than hardware threads (slow, but it
    /// is how the unit tests check its partitioning at 3 and 8 threads on a 2-core machine).
    fused_oversubscribed: bool,
    /// Whether the last step took it.
    last_step_fused: bool,
    report: StepReport,
    /// Per-block wall time summed over every successful step (see [`Simulation::block_seconds`]).
    block_seconds: BlockSeconds,
}

/// Wall time of each block, in block order, summed over every successful step since the
/// simulation was built: [`StepReport::setup_seconds`] and [`StepReport::solve_seconds`]
/// accumulated. A measurement, not state: checkpoints and results do not depend on it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BlockSeconds {
    /// Substep setup (searches, frozen data).
    pub setup: Vec<f64>,
    /// Projections and end-of-substep work.
    pub solve: Vec<f64>,
}

impl<const D: usize> Simulation<D> {
    /// Validates the particles and settings and builds an empty simulation.
    pub fn new(particles: Particles<D>, settings: SolverSettings<D>) -> Result<Self, BuildError> {
        particles.validate()?;
        settings.validate()?;
        let mut sim = Self {
            particles,
            settings,
            blocks: Vec::new(),
            pool: None,
            pool_threads: 0,
            prepared_particles: 0,
            time: 0.0,
            backup_x: Vec::new(),
            backup_v: Vec::new(),
            strain_reference: Vec::new(),
            strain_at_reference: Vec::new(),
            audit_elastic: None,
            max_work_per_span: adaptive::MAX_WORK_PER_SPAN,
            jacobi_dx: Vec::new(),
            jacobi_count: Vec::new(),
            jacobi_counts_stale: true,
            blocks_dynamic: false,
            forces_zero: false,
            fused_enabled: true,
            fused_oversubscribed: false,
            last_step_fused: false,
            report: StepReport::default(),
            block_seconds: BlockSeconds::default(),
        };
        sim.ensure_pool()?;
        sim.prepare();
        Ok(sim)
    }

    /// Adds a block of constraints after validating it against the particles.
    pub fn add_constraints<K: ConstraintKind<D> + 'static>(
        &mut self,
        kind: K,
    ) -> Result<BlockHandle<K>, BuildError> {
        let mut block = ConstraintBlock::<K, D>::new(kind);
        block.validate(self.particles.len())?;
        block.prepare(self.particles.len(), self.settings.colouring);
        self.blocks_dynamic |= block.kind.dynamic_topology();
        self.blocks.push(Box::new(block));
        self.jacobi_counts_stale = true;
        Ok(BlockHandle {
            index: self.blocks.len() - 1,
            kind: PhantomData,
        })
    }

    /// The block behind a handle.
    pub fn block<K: ConstraintKind<D> + 'static>(
        &self,
        h: BlockHandle<K>,
    ) -> &ConstraintBlock<K, D> {
        self.blocks[h.index]
            .as_any()
            .downcast_ref()
            .expect("handle matches its block")
    }

    /// The block behind a handle, mutably (e.g. to move attachment targets).
    pub fn block_mut<K: ConstraintKind<D> + 'static>(
        &mut self,
        h: BlockHandle<K>,
    ) -> &mut ConstraintBlock<K, D> {
        self.blocks[h.index]
            .as_any_mut()
            .downcast_mut()
            .expect("handle matches its block")
    }

    /// Runs block `index`'s start-of-substep hook on the current particles, as
    /// [`Simulation::step`] does before each substep (contact kinds generate their candidates
    /// and reset their friction budgets; a block whose topology changes is coloured again).
    /// For a backend that projects the block itself and needs the candidates of a substep
    /// (the GPU world reads them back through the block's kind); nothing else changes.
    pub fn begin_block_substep(&mut self, index: usize, ctx: &SubstepContext) {
        if let Some(b) = self.blocks.get_mut(index) {
            b.begin_substep(&self.particles, ctx);
        }
    }

    /// All blocks, in solve order.
    pub fn blocks(&self) -> &[Box<dyn ConstraintSet<D>>] {
        &self.blocks
    }

    /// The particles.
    pub fn particles(&self) -> &Particles<D> {
        &self.particles
    }

    /// The particles, mutably. Adding particles is allowed: colourings are rebuilt at the
    /// next step.
    pub fn particles_mut(&mut self) -> &mut Particles<D> {
        &mut self.particles
    }

    /// The settings.
    pub fn settings(&self) -> &SolverSettings<D> {
        &self.settings
    }

    /// Replaces the settings (validated).
    pub fn set_settings(&mut self, settings: SolverSettings<D>) -> Result<(), BuildError> {
        settings.validate()?;
        let recolour = settings.colouring != self.settings.colouring;
        self.settings = settings;
        if recolour {
            self.prepare();
        }
        self.ensure_pool()
    }

    /// Simulation time (s).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Sets the simulation time (s), e.g. when restoring a checkpoint. The energy audit starts
    /// afresh: the next step takes its elastic energy at the start as at its end (the
    /// multipliers may belong to another state).
    pub fn set_time(&mut self, time: f64) -> Result<(), BuildError> {
        if !time.is_finite() {
            return Err(BuildError::InvalidSetting {
                field: "time",
                value: time,
                reason: "must be finite",
            });
        }
        self.time = time;
        self.audit_elastic = None;
        Ok(())
    }

    /// Allows (the default) or forbids fusion: with no residual recording and only blocks
    /// without substep hooks ([`ConstraintSet::fusable`]) each velocity update is chained to
    /// the next substep's prediction (one pass over the particles), and with the coloured
    /// solver on the simulation's own pool of ≥ 2 threads a whole step runs in one parallel
    /// region instead of four per substep. Results are bit-identical either way; forbidding it
    /// is for comparisons (benchmarks, tests).
    pub fn set_fused_step(&mut self, allowed: bool) {
        self.fused_enabled = allowed;
    }

    /// Whether the last step ran as one fused parallel region (a fused step that failed was
    /// replayed per phase: `false` then).
    pub fn last_step_fused(&self) -> bool {
        self.last_step_fused
    }

    /// The report of the last successful step.
    pub fn last_report(&self) -> &StepReport {
        &self.report
    }

    /// Each block's wall time summed over every successful step so far (the steps of an
    /// [`Simulation::advance`] included): where a run's time went, by block.
    pub fn block_seconds(&self) -> &BlockSeconds {
        &self.block_seconds
    }

    fn ensure_pool(&mut self) -> Result<(), BuildError> {
        let t = self.settings.threads;
        // One thread runs inline, without a pool: entering a pool from outside goes through
        // rayon's job queue, which allocates now and then.
        if t <= 1 {
            self.pool = None;
            self.pool_threads = 0;
        } else if self.pool_threads != t {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .map_err(|_| BuildError::InvalidSetting {
                    field: "threads",
                    value: t as f64,
                    reason: "the operating system refused to create the worker threads",
                })?;
            self.pool = Some(pool);
            self.pool_threads = t;
        }
        Ok(())
    }

    fn prepare(&mut self) {
        let n = self.particles.len();
        for b in &mut self.blocks {
            b.prepare(n, self.settings.colouring);
        }
        self.backup_x.resize(n, Vector::<D>::zeros());
        self.backup_v.resize(n, Vector::<D>::zeros());
        self.jacobi_dx.resize(n, Vector::<D>::zeros());
        self.jacobi_count.resize(n, 0);
        self.jacobi_counts_stale = true;
        self.prepared_particles = n;
    }

    /// Σ C²/(2α) over all blocks at the current positions (J).
    pub fn elastic_energy(&self) -> f64 {
        self.blocks
            .iter()
            .map(|b| b.elastic_energy(&self.particles.x))
            .sum()
    }

    /// Largest relative strain over all blocks that define one.
    pub fn max_relative_strain(&self) -> f64 {
        self.blocks
            .iter()
            .map(|b| b.max_relative_strain(&self.particles.x))
            .fold(0.0, f64::max)
    }

    /// Kinetic + gravitational + elastic energy (J).
    pub fn energies(&self) -> Energies {
        Energies {
            kinetic: self.particles.kinetic_energy(),
            gravitational: self.particles.gravitational_energy(&self.settings.gravity),
            elastic: self.elastic_energy(),
        }
    }

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
            *view = Some(b.fused_block());
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

    /// Finds non-finite or runaway particles; names the worst constraint touching it.
    fn check_state(&self, substep: usize) -> Result<(), StepError> {
        let p = &self.particles;
        let max_speed2 = self.settings.diagnostics.max_speed.powi(2);
        let bad = (0..p.len()).find(|&i| {
            let s2 = p.v[i].norm_squared();
            !(p.x[i].iter().all(|c| c.is_finite()) && s2.is_finite() && s2 <= max_speed2)
        });
        let Some(i) = bad else { return Ok(()) };
        let constraint = self.trace_constraint(i);
        let speed = p.v[i].norm();
        if speed.is_finite() && p.x[i].iter().all(|c| c.is_finite()) {
            Err(StepError::Diverged {
                particle: i,
                speed,
                substep,
                constraint,
            })
        } else {
            Err(StepError::NonFinite {
                particle: i,
                substep,
                constraint,
            })
        }
    }

    /// [`Diagnostics::max_strain`]: the most strained constraint of every block that defines
    /// a strain, refused past the bound (non-finite strains included).
    ///
    /// The evaluation is skipped while it cannot fire: with `d = max_i |x_i − x_i^ref|` since
    /// the last evaluation (positions `x^ref`, largest strain `S_b` of block `b` then), block
    /// `b`'s strains are at most `S_b + L_b d` ([`ConstraintKind::strain_lipschitz`]); when
    /// that is within the bound for every block, nothing is evaluated (one pass over
    /// the particles instead of one over the constraints). A block without `L_b`, a changed
    /// constraint or particle count, or a failed check forces the evaluation.
    ///
    /// [`ConstraintKind::strain_lipschitz`]: crate::constraint::ConstraintKind::strain_lipschitz
    fn check_strain(&mut self) -> Result<(), StepError> {
        let bound = self.settings.diagnostics.max_strain;
        if bound == f64::INFINITY {
            return Ok(());
        }
        let x = &self.particles.x;
        if self.strain_reference.len() == x.len()
            && self.strain_at_reference.len() == self.blocks.len()
        {
            let d = x
                .iter()
                .zip(&self.strain_reference)
                .map(|(a, b)| (a - b).norm_squared())
                .fold(0.0, f64::max)
                .sqrt();
            let safe =
                self.blocks
                    .iter()
                    .zip(&self.strain_at_reference)
                    .all(|(b, &(len, strain))| {
                        b.len() == len
                            && strain.is_none_or(|s| {
                                b.strain_lipschitz().is_some_and(|l| s + l * d <= bound)
                            })
                    });
            if safe {
                return Ok(());
            }
        }
        let mut at_reference = Vec::with_capacity(self.blocks.len());
        let mut worst: Option<(usize, usize, f64, f64)> = None;
        for (bi, b) in self.blocks.iter().enumerate() {
            let m = b.most_strained(x);
            at_reference.push((b.len(), m.map(|(_, s, _)| s)));
            if let Some((c, s, value)) = m
                && worst.is_none_or(|w| s > w.2)
            {
                worst = Some((bi, c, s, value));
            }
        }
        if let Some((bi, c, strain, value)) = worst
            && strain > bound
        {
            self.strain_reference.clear();
            let b = &self.blocks[bi];
            return Err(StepError::Overstrained {
                strain,
                bound,
                constraint: ConstraintRef {
                    block_name: Some(b.name()),
                    block: Some(bi),
                    index: Some(c),
                    value: Some(value),
                },
            });
        }
        self.strain_reference.clone_from(x);
        self.strain_at_reference = at_reference;
        Ok(())
    }

    fn trace_constraint(&self, particle: usize) -> ConstraintRef {
        let mut best = ConstraintRef::default();
        let mut best_score = -1.0;
        for (bi, b) in self.blocks.iter().enumerate() {
            if let Some((c, value)) = b.worst_constraint(&self.particles.x, Some(particle)) {
                let score = if value.is_finite() {
                    value.abs()
                } else {
                    f64::INFINITY
                };
                if score > best_score {
                    best_score = score;
                    best = ConstraintRef {
                        block_name: Some(b.name()),
                        block: Some(bi),
                        index: Some(c),
                        value: Some(value),
                    };
                }
            }
        }
        best
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
