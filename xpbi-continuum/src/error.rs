//! Typed errors of the crate.

/// Everything that can go wrong when building or stepping an XPBI system.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum XpbiError {
    /// Only 2D and 3D are implemented.
    #[error("dimension {dimension} is not supported (2 or 3)")]
    UnsupportedDimension { dimension: usize },
    /// A scalar parameter is non-finite or outside its admissible range.
    #[error("parameter `{name}` has an invalid value {value}")]
    InvalidParameter { name: &'static str, value: f64 },
    /// A setting outside the range where the method means something (the reason says why).
    #[error("parameter `{name}` = {value} is out of range: {reason}")]
    OutOfRange {
        name: &'static str,
        value: f64,
        reason: &'static str,
    },
    /// Friction angle outside the open interval (0°, 90°).
    #[error("friction angle {degrees}° is outside (0°, 90°)")]
    FrictionAngleOutOfRange { degrees: f64 },
    /// Poisson ratio outside (−1, 0.5).
    #[error("Poisson ratio {value} is outside (-1, 0.5)")]
    PoissonRatioOutOfRange { value: f64 },
    /// A particle has a zero, negative or non-finite rest volume.
    #[error("particle {index} has an invalid rest volume {value}")]
    InvalidVolume { index: usize, value: f64 },
    /// A particle has a non-finite position, velocity or deformation gradient.
    #[error("particle {index} has a non-finite {field}")]
    NonFiniteState { index: usize, field: &'static str },
    /// A particle is listed twice among a continuum's members.
    #[error("particle {index} is listed twice among the continuum's members")]
    DuplicateMember { index: usize },
    /// Two particles are closer than the allowed minimum distance.
    #[error("particles {a} and {b} are {distance} apart, closer than the minimum {minimum}")]
    ParticlesTooClose {
        a: usize,
        b: usize,
        distance: f64,
        minimum: f64,
    },
    /// A material table ([`crate::continuum::XpbiContinuum::with_materials`]) with no entry.
    #[error("the material table is empty")]
    NoMaterials,
    /// A material table with more entries than ids can address.
    #[error("the material table has {count} entries, at most {max} are allowed")]
    TooManyMaterials { count: usize, max: usize },
    /// An entry of a material table is invalid (the cause names the parameter).
    #[error("material {material} of the table is invalid")]
    InvalidMaterial {
        material: usize,
        #[source]
        source: Box<XpbiError>,
    },
    /// A particle's material id is not an entry of the table.
    #[error("particle {particle} has material id {id}, the table has {count} entries")]
    MaterialIdOutOfRange {
        particle: usize,
        id: usize,
        count: usize,
    },
    /// The time step exceeds the CFL bound `cfl · Δx / max|v|` (the GPU step's check; on the
    /// CPU the core's step refuses it as `StepError::TimeStepOverBound`, from
    /// `XpbiContinuum::cfl_bound`).
    #[error("time step {dt} exceeds the CFL bound {bound} (max speed {max_speed})")]
    TimeStepOverCfl { dt: f64, bound: f64, max_speed: f64 },
    /// The neighbour grid could not be built with the cell width that a setting gives
    /// (`min_distance_ratio` × spacing for the minimum-distance check at build, the kernel
    /// support `support_over_spacing` × spacing for the neighbour search); the cause says why
    /// (e.g. the particles' bounding box needs too many cells of that width).
    #[error(
        "the neighbour grid for {setting} = {value:?} (× spacing {spacing:?} m: cells of {cell:?} m) cannot be built"
    )]
    Grid {
        /// The [`crate::continuum::XpbiSettings`] field that sets the cell width.
        setting: &'static str,
        /// Its value.
        value: f64,
        /// The particle spacing Δx (m).
        spacing: f64,
        /// The cell width (m).
        cell: f64,
        /// What the grid refused.
        #[source]
        source: xpbd_core::spatial::GridError,
    },
    /// The XPBD core refused the model (constraint validation, settings).
    #[error("model rejected by xpbd-core")]
    Build(#[from] xpbd_core::BuildError),
    /// A step failed (non-finite or diverging state); the core rolled the state back, including
    /// the XPBI deformation gradients and hardening (checkpoint/rollback hooks).
    #[error("step failed")]
    Step(#[from] xpbd_core::StepError),
}
