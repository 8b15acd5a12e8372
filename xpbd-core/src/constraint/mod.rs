//! Constraints: the per-kind maths ([`ConstraintKind`]) and the solver-facing block
//! ([`ConstraintBlock`], used through the object-safe [`ConstraintSet`]).
//!
//! A kind stores its constraints as structure-of-arrays and says, for constraint `c`, which
//! particles it touches (its *stencil*), its compliance α (physical units: inverse stiffness)
//! and how to evaluate `C` and `∇C` from the stencil's positions. Everything else (multipliers,
//! the XPBD update, Gauss-Seidel / Jacobi / coloured sweeps, residuals, energies) is written once
//! in [`block`], generic over the kind, so the hot loop is monomorphised per kind with no dynamic
//! dispatch per constraint.

pub mod attachment;
pub mod bending;
pub mod block;
pub mod distance;
pub mod membrane;
pub mod neo_hookean;
pub mod volume;

pub use attachment::AttachmentConstraints;
pub use bending::{DihedralBendingConstraints, IsometricBendingConstraints};
pub use block::{ConstraintBlock, ConstraintSet, DisjointSlice, JacobiRelaxation, SubstepContext};
pub use distance::DistanceConstraints;
pub use membrane::{MembraneConstraints, MembraneModel};
pub use neo_hookean::NeoHookeanTetConstraints;
pub use volume::{SurfaceVolumeConstraint, TetVolumeConstraints};

use crate::schedule::Schedule;

use crate::{BuildError, Particles, Vector};

/// An upper bound on the substep that a kind declares ([`ConstraintKind::max_substep`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SubstepBound {
    /// The largest substep h (s); may be `f64::INFINITY`.
    pub h: f64,
    /// What the bound is, for error messages (e.g. `"CFL: cfl · spacing / max |v|"`).
    pub rule: &'static str,
    /// The particle that sets the bound (e.g. the fastest), if one does.
    pub particle: Option<usize>,
    /// For a bound on how far a particle travels in a substep (a CFL bound), that distance
    /// `d` (m) and the speed `s` (m/s) it was divided by: `h = d / s`. The simulation then adds
    /// the acceleration a particle gains within the substep ([`SubstepBound::accelerated`]),
    /// which a bound on the speed at the start alone misses (at rest, any step would do).
    pub travel: Option<Travel>,
}

/// The distance and speed of a travel bound (see [`SubstepBound::travel`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Travel {
    /// The largest distance a particle may move in a substep (m).
    pub distance: f64,
    /// The largest particle speed at the start of the substep (m/s).
    pub speed: f64,
}

impl SubstepBound {
    /// A travel bound `h = distance / speed`.
    pub fn travel(distance: f64, speed: f64, rule: &'static str, particle: Option<usize>) -> Self {
        Self {
            h: distance / speed,
            rule,
            particle,
            travel: Some(Travel { distance, speed }),
        }
    }

    /// The bound with an acceleration of at most `a` (m/s²) during the substep: a particle
    /// moves at most `h s + h² a` (symplectic Euler: `v ← v + h a`, `x ← x + h v`), so the
    /// largest substep solves `a h² + s h = d`:
    ///
    /// ```text
    /// h = 2d / (s + √(s² + 4 a d))
    /// ```
    ///
    /// (the cancellation-free root; `d / s` for `a = 0`, `√(d/a)` at rest). Bounds that are not
    /// travel bounds are returned unchanged.
    ///
    /// ```
    /// use xpbd_core::constraint::SubstepBound;
    /// let b = SubstepBound::travel(0.004, 0.0, "cfl", None);
    /// assert_eq!(b.h, f64::INFINITY);
    /// let g = b.accelerated(9.81);
    /// assert!((g.h - (0.004f64 / 9.81).sqrt()).abs() < 1e-15);
    /// let moving = SubstepBound::travel(0.004, 2.0, "cfl", None);
    /// assert_eq!(moving.accelerated(0.0).h, 0.002);
    /// assert!(moving.accelerated(9.81).h < 0.002);
    /// ```
    pub fn accelerated(self, a: f64) -> Self {
        match self.travel {
            Some(Travel { distance, speed }) if a > 0.0 => Self {
                h: 2.0 * distance / (speed + (speed * speed + 4.0 * a * distance).sqrt()),
                ..self
            },
            _ => self,
        }
    }
}

/// The maths of one kind of constraint. See the module docs.
///
/// Sign convention (XPBD, Macklin et al. 2016): the update is
/// `Δλ = (−C − α̃λ) / (Σ wᵢ|∇ᵢC|² + α̃)`, `Δxᵢ = wᵢ ∇ᵢC Δλ`, so the elastic energy is
/// `C²/(2α)` and λ/Δt² is the constraint force magnitude.
pub trait ConstraintKind<const D: usize>: Send + Sync + std::fmt::Debug {
    /// Short name used in reports and errors (e.g. `"distance"`).
    const NAME: &'static str;

    /// Stencil size when every constraint of the kind touches the same number of particles
    /// (1–4 get a specialised kernel with stack arrays); 0 = variable.
    const FIXED_ARITY: usize = 0;

    /// `true` when constraints `2e` and `2e + 1` share a stencil and are one coupled solve: the
    /// sweeps project them together through [`ConstraintKind::project_pair`] when they reach
    /// constraint `2e` and do nothing at `2e + 1`. For a pair whose constraints are not each
    /// satisfied at the energy's minimum (the stable neo-Hookean pair: `C_D = ‖F‖ = √D` at
    /// rest, balanced only by the shifted `C_H = det F − γ`), two sequential projections from
    /// λ = 0 pull against each other and never reach the rest state; the 2×2 solve reaches it
    /// in one projection. The residual, energy, strain and force passes stay per constraint.
    const PAIRED: bool = false;

    /// Number of constraints.
    fn len(&self) -> usize;

    /// Whether there are no constraints.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Particles touched by constraint `c`, in the order of `evaluate`'s arrays.
    fn stencil(&self, c: usize) -> &[u32];

    /// Compliance α of constraint `c` (inverse stiffness, physical units; 0 = rigid).
    fn compliance(&self, c: usize) -> f64;

    /// Rayleigh damping coefficient β of constraint `c` (XPBD §5; 0 = none).
    fn damping(&self, _c: usize) -> f64 {
        0.0
    }

    /// `true` for inequality constraints `C ≥ 0` (contacts): inactive when satisfied and the
    /// accumulated multiplier is clamped to `λ ≥ 0`.
    fn unilateral(&self) -> bool {
        false
    }

    /// Whether the kind is projected in iteration `iteration` (0-based) of the `iterations` of
    /// a substep. Contacts may be projected once per substep
    /// ([`crate::contact::ContactProjection`]); the default projects in every iteration.
    #[inline]
    fn projects_in_iteration(&self, _iteration: usize, _iterations: usize) -> bool {
        true
    }

    /// Evaluates `C` at the stencil positions `xs` (`xs[k]` is the position of
    /// `stencil(c)[k]`) and writes `∇_{x_k} C` into `grad[k]`.
    fn evaluate(&self, c: usize, xs: &[Vector<D>], grad: &mut [Vector<D>]) -> f64;

    /// Called by the projection kernel right after constraint `c`'s correction has been applied
    /// to the local copy `xs` of its stencil (`idx`), with `grad` the gradients used for it,
    /// `lambda` the accumulated multiplier (after the update) and `delta_lambda` this
    /// projection's Δλ. A kind may move `xs` further (e.g. position-level Coulomb friction
    /// driven by the normal correction, Müller et al. 2020 §3.5, Macklin et al. 2019 eqs. 11–12)
    /// and returns whether it did. Not called for inactive inequality constraints.
    /// The default does nothing.
    #[inline(always)]
    #[allow(unused_variables)]
    fn after_projection(
        &self,
        c: usize,
        idx: &[u32],
        xs: &mut [Vector<D>],
        grad: &[Vector<D>],
        x_prev: &[Vector<D>],
        w: &[f64],
        lambda: f64,
        delta_lambda: f64,
        h: f64,
    ) -> bool {
        false
    }

    /// The coupled XPBD projection of the pair `c = 2e`, `c + 1` of a [`ConstraintKind::PAIRED`]
    /// kind on a private copy `xs` of their (shared) stencil: with `gⱼ = ∇Cⱼ`, `α̃ⱼ = αⱼ/h²`,
    /// `γⱼ = αⱼβ/h`, solves the 2×2 system of XPBD eq. (26) written for both multipliers,
    ///
    /// ```text
    /// Σₖ [(1 + γⱼ) Σₚ wₚ gⱼₚ·gₖₚ + δⱼₖ α̃ⱼ] Δλₖ = −Cⱼ − α̃ⱼ λⱼ − γⱼ Σₚ gⱼₚ·(xₚ − x_prev,ₚ),
    /// ```
    ///
    /// scales both `Δλ` by `relax` (Jacobi; 1 for Gauss–Seidel), and moves
    /// `xₚ += wₚ (g₀ₚ Δλ₀ + g₁ₚ Δλ₁)`. Returns whether `xs` changed. Only called for paired
    /// kinds.
    #[allow(unused_variables, clippy::too_many_arguments)]
    fn project_pair(
        &self,
        c: usize,
        idx: &[u32],
        xs: &mut [Vector<D>],
        x_prev: &[Vector<D>],
        w: &[f64],
        lambda: &mut [f64; 2],
        h: f64,
        relax: f64,
    ) -> bool {
        unreachable!("project_pair is only called for kinds with PAIRED = true")
    }

    /// An optional closed-form projection for the plain case (no damping, no relaxation, not
    /// unilateral) that must equal the generic XPBD update exactly in exact arithmetic but may
    /// be cheaper (e.g. one division instead of three for distance constraints). Updates
    /// `xs` and `lambda`; returns `Some(changed)`, or `None` to use the generic kernel.
    #[inline(always)]
    #[allow(unused_variables)]
    fn project_closed_form(
        &self,
        c: usize,
        idx: &[u32],
        xs: &mut [Vector<D>],
        w: &[f64],
        lambda: &mut f64,
        alpha_tilde: f64,
    ) -> Option<bool> {
        None
    }

    /// [`ConstraintKind::project_closed_form`] over a run of constraints: projects the
    /// constraints that `order` yields, in order, directly on the shared positions and
    /// multipliers, and returns the first constraint that needs the generic kernel (which the
    /// caller projects before calling again with the rest of `order`), or `None` when `order` is
    /// exhausted. `disjoint` says that the stencils of the run are pairwise disjoint (one task of
    /// one colour), so the kind may project several constraints at once (SIMD); a Gauss–Seidel
    /// sweep passes `false`. `inv_h2` is `1/h²`.
    ///
    /// A kind implements it when its closed form is cheap enough that per-constraint overhead
    /// matters (distance constraints: array pointers hoisted out of the loop). Every constraint
    /// must get exactly the result of `project_closed_form`, bit for bit. The default hands
    /// every constraint back.
    ///
    /// # Safety
    /// While this runs, no other thread reads or writes the positions of the stencils of the
    /// constraints in `order`, nor their multipliers (one task of one colour, or one thread);
    /// every stencil index is below `x.len()` and every constraint below `lambda.len()`
    /// (checked when the block was added).
    #[inline(always)]
    #[allow(unused_variables)]
    unsafe fn project_closed_form_run(
        &self,
        order: &mut (impl Iterator<Item = usize> + Clone),
        disjoint: bool,
        x: DisjointSlice<'_, Vector<D>>,
        w: &[f64],
        lambda: DisjointSlice<'_, f64>,
        inv_h2: f64,
    ) -> Option<usize> {
        order.next()
    }

    /// `|C| / rest measure` where that means a relative stretch (distance constraints).
    fn relative_strain(&self, _c: usize, _value: f64) -> Option<f64> {
        None
    }

    /// A bound `L` on how fast [`ConstraintKind::relative_strain`] can change with the
    /// particles: `|s_c(x) − s_c(y)| ≤ L · max_i |x_i − y_i|` for every constraint `c` (valid
    /// from the start of a step, after [`ConstraintKind::checkpoint`]). With it the simulation
    /// evaluates the strain check ([`crate::Diagnostics::max_strain`]) only when the particles
    /// have moved far enough since the last evaluation for a strain to reach the bound;
    /// `None` (the default): evaluated every step.
    fn strain_lipschitz(&self) -> Option<f64> {
        None
    }

    /// Whether [`ConstraintKind::begin_substep`] or [`ConstraintKind::end_substep`] may do
    /// anything. `true` (the default) is the conservative answer: the simulation then calls
    /// both hooks every substep, through the per-phase step. A kind that overrides neither hook
    /// may say `false`, which lets [`crate::Simulation`] run a whole step of the coloured solver
    /// in one parallel region (the fused step, bit-identical to the per-phase step). The
    /// plain mesh kinds of this crate say `false`.
    const SUBSTEP_HOOKS: bool = true;

    /// Called at the start of each substep with `x = xⁿ`, before prediction (which is also
    /// when `x_prev` is set to `xⁿ`: here it still holds the previous substep's start), and
    /// `v = vⁿ`: frozen per-step data (neighbour lists, contacts) is built here.
    fn begin_substep(&mut self, _particles: &Particles<D>, _ctx: &SubstepContext) {}

    /// Why the last [`ConstraintKind::begin_substep`] could not do its work (a neighbour
    /// search that cannot hold the particles, say), or `None`. The simulation asks after every
    /// `begin_substep` and refuses the step with [`crate::StepError::BlockFault`] (rolled
    /// back), so a failed hook is never silently followed by a solve on stale data.
    fn substep_fault(&self) -> Option<String> {
        None
    }

    /// Called at the end of each substep after velocities are updated (`v = (x − x_prev)/h`).
    /// `lambda` holds this substep's accumulated multipliers.
    fn end_substep(
        &mut self,
        _particles: &mut Particles<D>,
        _lambda: &[f64],
        _ctx: &SubstepContext,
    ) {
    }

    /// The largest substep `h` at which this kind's model is accurate in the current state, or
    /// `None` when it sets no bound (every mesh kind of this crate). [`crate::Simulation::step`]
    /// refuses a step whose substep exceeds it ([`crate::StepError::TimeStepOverBound`],
    /// nothing changed), and [`crate::Simulation::advance`] chooses its steps below it. XPBI's
    /// CFL bound `h ≤ cfl · Δx / max|v|` is such a bound. Called once per step, on the state at
    /// its start; it must be a deterministic function of that state (same bits for any thread
    /// count), so that adaptive step sequences are reproducible.
    fn max_substep(&self, _particles: &Particles<D>) -> Option<SubstepBound> {
        None
    }

    /// The largest substep adaptive stepping should take for this kind to stay accurate, where
    /// a larger fixed step is still the user's choice and runs (unlike
    /// [`ConstraintKind::max_substep`], which refuses it). [`crate::Simulation::advance`]
    /// chooses its steps below both. `None` by default; a mesh of edges bounds how far a
    /// particle travels in a substep by a fraction of its shortest edge
    /// ([`DistanceConstraints`](distance::DistanceConstraints)). The same determinism as
    /// `max_substep` applies.
    fn max_adaptive_substep(&self, _particles: &Particles<D>) -> Option<SubstepBound> {
        None
    }

    /// An upper estimate of the work (J) done on the particles during the last step by what
    /// this kind moves kinematically (a moving collider, an animated attachment target), given
    /// the multipliers `lambda` of the step's last substep of length `h`. The energy audit
    /// ([`crate::Diagnostics::max_energy_gain`]) lets a step gain this much on top of its
    /// tolerance. A constraint force is `f = ∇C λ / h²` (Macklin et al. 2016, eq. 17), so a
    /// driver that moves by `d` while it pushes does at most `|λ| |d| / h²` of work. `0` by
    /// default: kinds whose constraints only couple particles do no work from outside.
    fn driven_work(&self, _particles: &Particles<D>, _lambda: &[f64], _h: f64) -> f64 {
        0.0
    }

    /// Called at the start of every step: save any state the kind evolves (deformation
    /// gradients, hardening) so that [`ConstraintKind::rollback`] can restore it.
    fn checkpoint(&mut self) {}

    /// Called when a step fails: restore the state saved by [`ConstraintKind::checkpoint`].
    fn rollback(&mut self) {}

    /// Whether stencils may change in `begin_substep` (then schedules are rebuilt each substep).
    fn dynamic_topology(&self) -> bool {
        false
    }

    /// A kind that colours itself (e.g. spatially, per step) returns its schedule here;
    /// `None` uses the greedy graph colouring computed once by the block.
    fn own_schedule(&self) -> Option<&Schedule> {
        None
    }

    /// Extra validation beyond index range and duplicates (the block checks those).
    fn validate(&self) -> Result<(), BuildError> {
        Ok(())
    }

    /// The state this kind evolves from step to step beyond the particles and the multipliers
    /// (e.g. XPBI's deformation gradients and hardening), as plain `f64`s for checkpoints
    /// (serde-friendly; bit-exact when stored as bits). Loading it with
    /// [`ConstraintKind::load_state`] into a freshly built, identical kind must make the next
    /// steps bit-identical. Data rebuilt in `begin_substep` (neighbour lists, contacts) is not
    /// state. The default (constraints fixed at construction) has none.
    fn save_state(&self) -> Vec<f64> {
        Vec::new()
    }

    /// Restores a state written by [`ConstraintKind::save_state`]; a state of the wrong length
    /// or with non-finite values is an error and leaves the kind unchanged. The default accepts
    /// only the empty state.
    fn load_state(&mut self, state: &[f64]) -> Result<(), BuildError> {
        if state.is_empty() {
            Ok(())
        } else {
            Err(BuildError::InvalidSetting {
                field: "constraint state length",
                value: state.len() as f64,
                reason: "this constraint kind keeps no state",
            })
        }
    }
}

/// Checks a compliance-like value: finite and non-negative.
pub(crate) fn check_non_negative(
    kind: &'static str,
    constraint: usize,
    field: &'static str,
    value: f64,
) -> Result<(), BuildError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(BuildError::InvalidCompliance {
            kind,
            constraint,
            field,
            value,
        })
    }
}

/// Checks that indices are in range and distinct.
pub(crate) fn check_stencil(
    kind: &'static str,
    constraint: usize,
    stencil: &[u32],
    n_particles: usize,
) -> Result<(), BuildError> {
    for (k, &p) in stencil.iter().enumerate() {
        if p as usize >= n_particles {
            return Err(BuildError::IndexOutOfRange {
                kind,
                constraint,
                index: p as usize,
                len: n_particles,
            });
        }
        if stencil[..k].contains(&p) {
            return Err(BuildError::DuplicateIndex {
                kind,
                constraint,
                index: p as usize,
            });
        }
    }
    Ok(())
}
