//! The simulation: particles + constraint blocks + settings, and the substepped XPBD step.

mod adaptive;
mod audit;
mod fused;
mod guards;
mod passes;
mod settings;
mod step;

pub use adaptive::{
    AdaptiveStepping, AdvanceReport, MAX_STEPS_PER_SPAN, MAX_WORK_PER_SPAN, StepAttempt,
    advance_adaptive, is_retryable,
};
pub use settings::{Diagnostics, MAX_THREADS, SolverSettings};

use std::marker::PhantomData;

use crate::constraint::{ConstraintBlock, ConstraintKind, ConstraintSet, SubstepContext};
use crate::{BuildError, Particles, Vector};

/// Particle counts above which the per-particle loops run in parallel.
const PARALLEL_PARTICLES: usize = 8192;

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

    /// Adds a participant that is not a block of one constraint kind (the rigid bodies of
    /// [`crate::rigid::RigidBodies`]) after validating it against the particles; returns its
    /// index among [`Simulation::blocks`], for [`Simulation::set`].
    pub fn add_set(&mut self, mut set: Box<dyn ConstraintSet<D>>) -> Result<usize, BuildError> {
        set.validate(self.particles.len())?;
        set.prepare(self.particles.len(), self.settings.colouring);
        self.blocks_dynamic = true;
        self.blocks.push(set);
        self.jacobi_counts_stale = true;
        Ok(self.blocks.len() - 1)
    }

    /// The participant at `index` as its concrete type (`None` if it is another type).
    pub fn set<T: 'static>(&self, index: usize) -> Option<&T> {
        self.blocks.get(index)?.as_any().downcast_ref()
    }

    /// The participant at `index` as its concrete type, mutably.
    pub fn set_mut<T: 'static>(&mut self, index: usize) -> Option<&mut T> {
        self.blocks.get_mut(index)?.as_any_mut().downcast_mut()
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
}
