//! Adaptive stepping: a span of time split into steps chosen from the state.
//!
//! The step size rule, evaluated at the start of every step on the state there:
//!
//! ```text
//! Δt_cap  = min(Δt_max, Δt_fail / 2 after a failure)
//! n       = max(⌈T_left / Δt_cap⌉, ⌈T_left / (S · min_b h_b(state))⌉),   Δt = T_left / n
//! ```
//!
//! with `S` the substeps per step and `h_b` the substep bound a block declares
//! ([`ConstraintKind::max_substep`](crate::constraint::ConstraintKind::max_substep), e.g.
//! XPBI's CFL bound `cfl · Δx / max|v|`, to which the largest acceleration `a = maxᵢ|g + wᵢfᵢ|`
//! is added for travel bounds: `h (max|v| + a h) ≤ cfl · Δx`,
//! [`SubstepBound::accelerated`](crate::constraint::SubstepBound::accelerated)). Dividing the time left evenly instead of taking
//! `Δt_cap` and a remainder avoids a last sliver of a step, and when `T_left ≤ Δt_cap` the step
//! is `T_left` exactly, so a span of one fixed step under every bound is that step, bit for
//! bit. Every input is a deterministic function of the state (the bounds are maxima, which do
//! not depend on the order of reduction), so the sequence of steps is the same for any thread
//! count.
//!
//! A step that fails ([`StepError::Diverged`], [`StepError::NonFinite`],
//! [`StepError::Overstrained`], [`StepError::EnergyGrowth`], [`StepError::BlockFault`]) has been rolled back by
//! [`Simulation::step`]; it is retried at half its size, at most
//! [`AdaptiveStepping::max_halvings`] times, and the halved cap is kept for the rest of the
//! span. Then [`StepError::StepSizeExhausted`] carries the last failure; the state is that of
//! the start of the failing step, so nothing already simulated is lost.

use super::Simulation;
use crate::constraint::SubstepBound;
use crate::{BuildError, Particles, StepError};

/// The most steps one span of [`Simulation::advance`] may take (10⁶): beyond, a span of one
/// frame would not end in any useful time, and the step the state asks for is a symptom (a
/// speed or acceleration near its bound, a cap far below the frame), not a setting to honour.
pub const MAX_STEPS_PER_SPAN: f64 = 1e6;

/// The most particle projections one span of [`Simulation::advance`] may need by default
/// (10¹², the per-frame budget scenes are refused above at build): steps that the state makes
/// far smaller than the build foresaw (a degenerate mesh's travel bound, say) end in an error
/// instead of a run that never ends ([`Simulation::set_max_work_per_span`]).
pub const MAX_WORK_PER_SPAN: f64 = 1e12;

/// How [`Simulation::advance`] chooses its steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdaptiveStepping {
    /// The largest step Δt (s).
    pub dt_max: f64,
    /// How many times a failing step is halved and retried before the error (default 4).
    pub max_halvings: u32,
}

impl AdaptiveStepping {
    /// Steps of at most `dt_max`, a failing step halved up to 4 times.
    pub fn new(dt_max: f64) -> Self {
        Self {
            dt_max,
            max_halvings: 4,
        }
    }

    /// `dt_max` finite and > 0, at most 60 halvings.
    pub fn validate(&self) -> Result<(), BuildError> {
        if !(self.dt_max.is_finite() && self.dt_max > 0.0) {
            return Err(BuildError::InvalidSetting {
                field: "dt_max",
                value: self.dt_max,
                reason: "must be finite and > 0",
            });
        }
        if self.max_halvings > 60 {
            return Err(BuildError::InvalidSetting {
                field: "max_halvings",
                value: self.max_halvings as f64,
                reason: "at most 60",
            });
        }
        Ok(())
    }
}

/// What [`Simulation::advance`] did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AdvanceReport {
    /// Steps taken (successful ones).
    pub steps: usize,
    /// Smallest and largest step taken (s); 0 when no step was taken.
    pub dt_min: f64,
    /// Largest step taken (s).
    pub dt_max: f64,
    /// Failed steps that were halved and retried.
    pub halvings: u32,
    /// The largest energy audit measure of the steps ([`crate::StepReport::energy_gain`]);
    /// `None` when no step was judged.
    pub max_energy_gain: Option<f64>,
}

impl AdvanceReport {
    /// Adds another report's steps (e.g. the spans of one frame).
    pub fn merge(&mut self, other: &AdvanceReport) {
        self.note_energy_gain(other.max_energy_gain);
        if other.steps == 0 {
            self.halvings += other.halvings;
            return;
        }
        if self.steps == 0 {
            self.dt_min = other.dt_min;
            self.dt_max = other.dt_max;
        } else {
            self.dt_min = self.dt_min.min(other.dt_min);
            self.dt_max = self.dt_max.max(other.dt_max);
        }
        self.steps += other.steps;
        self.halvings += other.halvings;
    }

    /// Keeps the larger of the recorded and `gain` ([`AdvanceReport::max_energy_gain`]).
    pub fn note_energy_gain(&mut self, gain: Option<f64>) {
        if let Some(g) = gain {
            self.max_energy_gain = Some(self.max_energy_gain.map_or(g, |m| m.max(g)));
        }
    }

    /// Counts one successful step of `dt`.
    pub fn record(&mut self, dt: f64) {
        if self.steps == 0 {
            self.dt_min = dt;
            self.dt_max = dt;
        } else {
            self.dt_min = self.dt_min.min(dt);
            self.dt_max = self.dt_max.max(dt);
        }
        self.steps += 1;
    }
}

impl<const D: usize> Simulation<D> {
    /// The tightest substep bound over the blocks in the current state, with its block's
    /// index (`None` when no block declares one). See [`crate::constraint::ConstraintKind::max_substep`].
    ///
    /// Both kinds of bound count here: those a fixed step must respect
    /// ([`ConstraintKind::max_substep`](crate::constraint::ConstraintKind::max_substep)) and the
    /// accuracy targets of adaptive steps
    /// ([`ConstraintKind::max_adaptive_substep`](crate::constraint::ConstraintKind::max_adaptive_substep)).
    pub fn substep_bound(&self) -> Option<(usize, SubstepBound)> {
        let mut best: Option<(usize, SubstepBound)> = None;
        let mut accel = None;
        for (i, b) in self.blocks.iter().enumerate() {
            let required = self.block_bound(b.max_substep(&self.particles), &mut accel);
            let target = self.block_bound(b.max_adaptive_substep(&self.particles), &mut accel);
            for bound in [required, target].into_iter().flatten() {
                if best.is_none_or(|(_, old)| bound.h < old.h || bound.h.is_nan()) {
                    best = Some((i, bound));
                }
            }
        }
        best
    }

    /// A block's substep bound, a travel bound with the largest acceleration of a free
    /// particle added ([`SubstepBound::accelerated`]), computed once into `accel`.
    fn block_bound(
        &self,
        bound: Option<SubstepBound>,
        accel: &mut Option<f64>,
    ) -> Option<SubstepBound> {
        let bound = bound?;
        if bound.travel.is_none() {
            return Some(bound);
        }
        let a = *accel.get_or_insert_with(|| self.max_acceleration());
        Some(bound.accelerated(a))
    }

    /// `maxᵢ |g + wᵢ fᵢ|` over the free particles: the largest acceleration the substep's
    /// prediction gives (`v ← v + h (g + w f)`); `|g|` when no force is applied.
    pub fn max_acceleration(&self) -> f64 {
        let p = &self.particles;
        let g = self.settings.gravity;
        let mut a2 = 0.0_f64;
        let mut any_free = false;
        for (f, &w) in p.force.iter().zip(&p.inv_mass) {
            if w > 0.0 {
                any_free = true;
                a2 = a2.max((g + f * w).norm_squared());
            }
        }
        if any_free { a2.sqrt() } else { 0.0 }
    }

    /// Refuses a substep `h` above a block's bound (nothing is changed): the check
    /// [`Simulation::step`] makes first, for a caller that must know before it changes
    /// anything (kinematic targets, emitters) whether a step of `h · substeps` would run.
    pub fn check_substep_bounds(&self, h: f64) -> Result<(), StepError> {
        let mut accel = None;
        for (i, b) in self.blocks.iter().enumerate() {
            if let Some(bound) = self.block_bound(b.max_substep(&self.particles), &mut accel)
                && (h > bound.h || bound.h.is_nan())
            {
                return Err(over_bound(h, i, b.name(), bound));
            }
        }
        Ok(())
    }

    /// The size of the next step of a span with `remaining` seconds left, steps at most
    /// `cap`: see the module docs. Errors when a block's bound is not a positive number.
    /// A span that would take more than [`MAX_STEPS_PER_SPAN`] steps is refused with
    /// [`StepError::TooManySteps`], naming what sets the step: the cap, or the block, rule and
    /// particle of the bound.
    pub fn next_step_size(&self, remaining: f64, cap: f64) -> Result<f64, StepError> {
        // Steps against the cap: a ratio within 1e-12 of an integer counts as that integer
        // (1e-4 s in steps of 2.5e-5 s is 4 steps, although 1e-4 / 2.5e-5 rounds above 4).
        let mut n = (remaining / cap * (1.0 - 1e-12)).ceil().max(1.0);
        let mut by_bound = None;
        if let Some((i, bound)) = self.substep_bound() {
            if bound.h.is_nan() || bound.h <= 0.0 {
                return Err(over_bound(
                    remaining / self.settings.substeps as f64,
                    i,
                    self.blocks[i].name(),
                    bound,
                ));
            }
            // Against a bound, strictly: a margin of a few ulp, so that the step's own check
            // h = Δt/S ≤ h_b holds after the roundings of S·h_b and of T_left / n.
            let step_bound = bound.h * self.settings.substeps as f64 * (1.0 - 4.0 * f64::EPSILON);
            let m = (remaining / step_bound).ceil();
            if m > n {
                n = m;
                by_bound = Some((i, bound));
            }
        }
        // What set the step, for the error.
        let cause = || match &by_bound {
            None => format!("the step cap dt_max = {cap:.3e} s"),
            Some((i, bound)) => format!(
                "the substep bound {:.3e} s of block {i} ({}: {}{})",
                bound.h,
                self.blocks[*i].name(),
                bound.rule,
                bound
                    .particle
                    .map_or(String::new(), |p| format!(", set by particle {p}"))
            ),
        };
        let work = n * self.step_work();
        if n > MAX_STEPS_PER_SPAN || work > self.max_work_per_span {
            return Err(StepError::TooManySteps {
                remaining,
                steps: n,
                cause: if n > MAX_STEPS_PER_SPAN {
                    cause()
                } else {
                    format!(
                        "{}, at {work:.2e} particle projections, over the bound {:.0e} per span",
                        cause(),
                        self.max_work_per_span
                    )
                },
            });
        }
        Ok(if n <= 1.0 { remaining } else { remaining / n })
    }

    /// Particle projections of one step, `particles × substeps × (iterations + 1)` (the
    /// prediction and velocity pass counted as one more), the unit of the work bound.
    fn step_work(&self) -> f64 {
        self.particles.len() as f64
            * self.settings.substeps as f64
            * (self.settings.iterations as f64 + 1.0)
    }

    /// The most particle projections ([`Self::next_step_size`]'s unit) one span of
    /// [`Simulation::advance`] may need, [`MAX_WORK_PER_SPAN`] by default: a span whose steps
    /// the state makes that small stops with [`StepError::TooManySteps`] naming what sets the
    /// step. A caller with a tighter budget (a fuzzer, a preview) lowers it; it must be > 0.
    pub fn set_max_work_per_span(&mut self, work: f64) -> Result<(), BuildError> {
        if work.is_nan() || work <= 0.0 {
            return Err(BuildError::InvalidSetting {
                field: "max_work_per_span",
                value: work,
                reason: "must be > 0",
            });
        }
        self.max_work_per_span = work;
        Ok(())
    }

    /// Advances by `duration` seconds in steps chosen from the state (module docs): at most
    /// `stepping.dt_max`, below every block's substep bound, a failing step halved and retried.
    /// `before_step(particles, Δt)` runs before every attempt of a step (e.g. to set kinematic
    /// targets `x + Δt v`); it is called again, with the smaller Δt, when a step is retried.
    ///
    /// ```
    /// use xpbd_core::prelude::*;
    /// use xpbd_core::simulation::AdaptiveStepping;
    /// let mut p = Particles::<2>::new();
    /// p.push(Vector::<2>::new(0.0, 0.0), 1.0);
    /// let mut sim = Simulation::new(p, SolverSettings::default()).unwrap();
    /// let r = sim.advance(0.1, &AdaptiveStepping::new(0.03), |_, _| {}).unwrap();
    /// assert_eq!(r.steps, 4); // ⌈0.1 / 0.03⌉ steps of 0.025 s
    /// assert!((sim.time() - 0.1).abs() < 1e-15);
    /// ```
    pub fn advance(
        &mut self,
        duration: f64,
        stepping: &AdaptiveStepping,
        mut before_step: impl FnMut(&mut Particles<D>, f64),
    ) -> Result<AdvanceReport, StepError> {
        stepping
            .validate()
            .map_err(|_| StepError::NonPositiveTimeStep {
                dt: stepping.dt_max,
            })?;
        if !(duration.is_finite() && duration >= 0.0) {
            return Err(StepError::NonPositiveTimeStep { dt: duration });
        }
        let mut cpu = CpuAttempt {
            sim: self,
            before_step: &mut before_step,
        };
        advance_adaptive(&mut cpu, duration, stepping)
    }
}

/// One backend's side of an adaptive span: the step size its state allows, and one attempt at
/// a step that, when it fails, leaves the state of the step's start. [`advance_adaptive`] is the one
/// adaptive loop over it, for the CPU [`Simulation::advance`] and for any other backend that
/// keeps its state elsewhere (a GPU world).
pub trait StepAttempt {
    /// What an attempt fails with.
    type Error: From<StepError>;
    /// The next step's size for `remaining` seconds left under `cap`
    /// ([`Simulation::next_step_size`] on the backend's state).
    fn next_step_size(&mut self, remaining: f64, cap: f64) -> Result<f64, StepError>;
    /// One step of `dt`; `Ok` with the step's energy gain (relative, as
    /// [`crate::StepReport::energy_gain`]; `None` where it was not audited). A failed step
    /// leaves the state of its start.
    fn attempt(&mut self, dt: f64) -> Result<Option<f64>, Self::Error>;
    /// The step failure of `error` that a smaller step may cure (`None`: not one).
    fn retryable(error: &Self::Error) -> Option<&StepError>;
    /// The simulated time (s) at the start of the step being attempted.
    fn time(&self) -> f64;
}

/// Whether a smaller step may cure `e`: a divergence, a non-finite state, an overstrained
/// element, energy growth or a block's fault (module docs).
pub fn is_retryable(e: &StepError) -> bool {
    matches!(
        e,
        StepError::Diverged { .. }
            | StepError::NonFinite { .. }
            | StepError::Overstrained { .. }
            | StepError::EnergyGrowth { .. }
            | StepError::BlockFault { .. }
    )
}

/// Advances `backend` by `duration` seconds in adaptive steps (module docs): each the size its
/// state allows below `stepping.dt_max` and the halved cap, a step that fails in a way a
/// smaller step may cure ([`StepAttempt::retryable`]) retried at half its size at most
/// `stepping.max_halvings` times, then [`StepError::StepSizeExhausted`] with the last failure.
pub fn advance_adaptive<B: StepAttempt>(
    backend: &mut B,
    duration: f64,
    stepping: &AdaptiveStepping,
) -> Result<AdvanceReport, B::Error> {
    let mut report = AdvanceReport::default();
    let mut remaining = duration;
    let mut cap = stepping.dt_max;
    while remaining > 0.0 {
        let mut dt = backend.next_step_size(remaining, cap)?;
        let mut halvings = 0;
        loop {
            match backend.attempt(dt) {
                Ok(gain) => {
                    report.note_energy_gain(gain);
                    break;
                }
                Err(e) => match B::retryable(&e) {
                    Some(_) if halvings < stepping.max_halvings => {
                        halvings += 1;
                        report.halvings += 1;
                        dt *= 0.5;
                        cap = cap.min(dt);
                    }
                    Some(last) => {
                        return Err(StepError::StepSizeExhausted {
                            time: backend.time(),
                            dt,
                            halvings,
                            last: Box::new(last.clone()),
                        }
                        .into());
                    }
                    None => return Err(e),
                },
            }
        }
        report.record(dt);
        remaining = if dt == remaining { 0.0 } else { remaining - dt };
    }
    Ok(report)
}

/// The CPU simulation as a [`StepAttempt`]: `before_step` runs before every attempt.
struct CpuAttempt<'a, const D: usize, F: FnMut(&mut Particles<D>, f64)> {
    sim: &'a mut Simulation<D>,
    before_step: &'a mut F,
}

impl<const D: usize, F: FnMut(&mut Particles<D>, f64)> StepAttempt for CpuAttempt<'_, D, F> {
    type Error = StepError;

    fn next_step_size(&mut self, remaining: f64, cap: f64) -> Result<f64, StepError> {
        self.sim.next_step_size(remaining, cap)
    }

    fn attempt(&mut self, dt: f64) -> Result<Option<f64>, StepError> {
        (self.before_step)(&mut self.sim.particles, dt);
        self.sim.step(dt).map(|r| r.energy_gain)
    }

    fn retryable(error: &StepError) -> Option<&StepError> {
        is_retryable(error).then_some(error)
    }

    fn time(&self) -> f64 {
        self.sim.time
    }
}

fn over_bound(h: f64, block: usize, block_name: &'static str, bound: SubstepBound) -> StepError {
    StepError::TimeStepOverBound {
        h,
        bound: bound.h,
        block,
        block_name,
        rule: bound.rule,
        particle: bound.particle,
    }
}
