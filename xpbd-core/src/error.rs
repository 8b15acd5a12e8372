//! Typed errors at the API edge: building a model ([`BuildError`]) and stepping it
//! ([`StepError`]). Every variant names the offending element and value.

use thiserror::Error;

/// A model, constraint or setting that cannot be simulated.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum BuildError {
    /// A mass or inverse mass that is NaN or infinite.
    #[error("particle {particle}: mass is not finite ({value})")]
    NonFiniteMass { particle: usize, value: f64 },
    /// A negative mass or inverse mass.
    #[error("particle {particle}: mass must be non-negative, got {value}")]
    NegativeMass { particle: usize, value: f64 },
    /// A position or velocity with a NaN or infinite component.
    #[error("particle {particle}: {field} is not finite")]
    NonFiniteState {
        particle: usize,
        field: &'static str,
    },
    /// A constraint's rest length is zero (or below 1e-12 m), so its direction is undefined.
    #[error("{kind} constraint {constraint}: rest length {value} is zero")]
    ZeroRestLength {
        kind: &'static str,
        constraint: usize,
        value: f64,
    },
    /// A triangle or tetrahedron whose rest measure (area/volume) is zero.
    #[error("{kind} element {element}: degenerate, rest measure {measure}")]
    DegenerateElement {
        kind: &'static str,
        element: usize,
        measure: f64,
    },
    /// A tetrahedron (or 2D triangle) with negative signed rest volume (area).
    #[error("{kind} element {element}: inverted, signed rest measure {measure}")]
    InvertedElement {
        kind: &'static str,
        element: usize,
        measure: f64,
    },
    /// A particle index past the end of the particle store.
    #[error(
        "{kind} constraint {constraint}: particle index {index} out of range (particles: {len})"
    )]
    IndexOutOfRange {
        kind: &'static str,
        constraint: usize,
        index: usize,
        len: usize,
    },
    /// The same particle twice in one constraint.
    #[error("{kind} constraint {constraint}: particle {index} appears twice")]
    DuplicateIndex {
        kind: &'static str,
        constraint: usize,
        index: usize,
    },
    /// A compliance (or damping, stiffness) that is negative or not finite.
    #[error("{kind} constraint {constraint}: {field} must be finite and >= 0, got {value}")]
    InvalidCompliance {
        kind: &'static str,
        constraint: usize,
        field: &'static str,
        value: f64,
    },
    /// A material parameter out of its physical range (Young's modulus ≤ 0, ν ∉ (−1, 0.5), ...).
    #[error("invalid material parameter {field} = {value}: {reason}")]
    InvalidMaterial {
        field: &'static str,
        value: f64,
        reason: &'static str,
    },
    /// Zero substeps or zero iterations.
    #[error("{field} must be at least 1, got 0")]
    ZeroCount { field: &'static str },
    /// A setting that is out of range (relaxation ω ∉ (0, 2], negative damping, ...).
    #[error("setting {field} = {value} is out of range: {reason}")]
    InvalidSetting {
        field: &'static str,
        value: f64,
        reason: &'static str,
    },
    /// A mesh or grid description that cannot be built.
    #[error("invalid geometry: {0}")]
    InvalidGeometry(String),
}

/// A step that could not be completed. The simulation state has been rolled back to the
/// start of the step, so the caller can retry, e.g. with a smaller time step.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum StepError {
    /// The frame time step is not strictly positive and finite.
    #[error("time step must be finite and > 0, got {dt}")]
    NonPositiveTimeStep { dt: f64 },
    /// The substep `h = Δt / substeps` exceeds a bound that a block declares for the current
    /// state ([`crate::constraint::ConstraintKind::max_substep`], e.g. XPBI's CFL bound).
    /// Nothing was changed; [`crate::Simulation::advance`] splits a step below such bounds.
    #[error(
        "substep {h:.3e} s exceeds the bound {bound:.3e} s of block {block} ({block_name}: {rule}{})",
        particle.map_or(String::new(), |p| format!(", set by particle {p}"))
    )]
    TimeStepOverBound {
        h: f64,
        bound: f64,
        block: usize,
        block_name: &'static str,
        rule: &'static str,
        particle: Option<usize>,
    },
    /// A span of [`crate::Simulation::advance`] would take more than
    /// [`crate::simulation::MAX_STEPS_PER_SPAN`] steps; nothing was changed.
    #[error(
        "{remaining:.3e} s would take {steps:.3e} steps (at most 1e6 per span, within its work bound), set by {cause}; nothing was changed"
    )]
    TooManySteps {
        remaining: f64,
        steps: f64,
        cause: String,
    },
    /// [`crate::Simulation::advance`] halved a failing step its allowed number of times and
    /// the step still failed; the state is that of the start of the failing step.
    #[error(
        "step at t = {time:.6e} s still failed after {halvings} halvings of its size (last tried {dt:.3e} s): {last}"
    )]
    StepSizeExhausted {
        time: f64,
        dt: f64,
        halvings: u32,
        last: Box<StepError>,
    },
    /// A position or velocity became NaN/inf during substep `substep`.
    #[error(
        "non-finite state at particle {particle} in substep {substep} (constraint: {constraint}); state rolled back"
    )]
    NonFinite {
        particle: usize,
        substep: usize,
        constraint: ConstraintRef,
    },
    /// At the end of the step a constraint was strained past
    /// [`crate::Diagnostics::max_strain`] times its rest measure: a state that is finite and
    /// slow enough to pass the other checks but physically absurd (a rope stretched to
    /// thousands of times its length by a far too large Δt).
    #[error(
        "absurd state: {constraint} is {}; state rolled back",
        strain_text(*strain, *bound)
    )]
    Overstrained {
        strain: f64,
        bound: f64,
        constraint: ConstraintRef,
    },
    /// A block's start-of-substep hook could not do its work
    /// ([`crate::constraint::ConstraintKind::substep_fault`]; e.g. XPBI's neighbour grid cannot
    /// hold particles that flew apart).
    #[error(
        "block {block} ({block_name}) failed in substep {substep}: {message}; state rolled back"
    )]
    BlockFault {
        block: usize,
        block_name: &'static str,
        substep: usize,
        message: String,
    },
    /// The step's mechanical energy grew by more than the work done on it from outside plus
    /// the audit's tolerance ([`crate::Diagnostics::max_energy_gain`]): energy from nothing,
    /// the mark of an unstable solve before speeds or strains give it away.
    #[error(
        "diverged: the step created {gain:.3e} J of mechanical energy (kinetic + gravitational + elastic) beyond the {work:.3e} J of work done on it from outside, more than the {allowed:.3e} J its tolerance allows; particle {particle} gained the most kinetic energy (worst constraint: {constraint}); state rolled back"
    )]
    EnergyGrowth {
        gain: f64,
        allowed: f64,
        work: f64,
        particle: usize,
        constraint: ConstraintRef,
    },
    /// A particle moved faster than [`crate::Diagnostics::max_speed`]: the solve is exploding.
    #[error(
        "diverged: particle {particle} reached speed {speed:.3e} m/s in substep {substep} (worst constraint: {constraint}); state rolled back"
    )]
    Diverged {
        particle: usize,
        speed: f64,
        substep: usize,
        constraint: ConstraintRef,
    },
}

/// Which constraint a fault was traced to: its block (by name and index in the simulation)
/// and its index inside the block. `None` fields mean none could be identified.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConstraintRef {
    /// Name of the constraint block (e.g. `"distance"`).
    pub block_name: Option<&'static str>,
    /// Index of the block in the simulation.
    pub block: Option<usize>,
    /// Index of the constraint inside the block.
    pub index: Option<usize>,
    /// Its value C at the last evaluation.
    pub value: Option<f64>,
}

impl std::fmt::Display for ConstraintRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.block_name, self.block, self.index) {
            (Some(n), Some(b), Some(i)) => {
                write!(f, "{n} #{i} in block {b}")?;
                if let Some(v) = self.value {
                    write!(f, ", C = {v:.3e}")?;
                }
                Ok(())
            }
            _ => write!(f, "none identified"),
        }
    }
}

/// How [`StepError::Overstrained`] states its strain: an infinite strain is an inverted
/// element (or a non-finite one).
fn strain_text(strain: f64, bound: f64) -> String {
    if strain.is_finite() {
        format!("strained {strain:.3e} times its rest measure (bound {bound})")
    } else {
        format!("inverted or non-finite (det F ≤ 0 or C not finite; strain bound {bound})")
    }
}
