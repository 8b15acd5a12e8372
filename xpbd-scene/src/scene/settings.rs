//! The run settings of a scene: `[time]`, `[solver]` and `[output]`.

use serde::{Deserialize, Serialize};
use xpbd_core::SolverKind;

use super::one;

/// `[time]`: frame length and count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeSection {
    /// Step length Δt (s, > 0).
    pub dt: f64,
    /// Frames to run (≥ 1).
    pub frames: usize,
    /// Steps per frame (≥ 1).
    #[serde(default = "one")]
    pub steps_per_frame: usize,
    /// Adaptive stepping: each step of `dt` is advanced in steps of at most `dt_max`, below
    /// every block's substep bound (XPBI's CFL bound), a failing step retried at half its size
    /// (`xpbd_core::simulation::AdaptiveStepping`). Absent: on where a continuum is present,
    /// off otherwise. Off: fixed steps of `dt`, and a step over a bound is an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adaptive: Option<bool>,
    /// Largest adaptive step (s, > 0; absent: `dt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dt_max: Option<f64>,
}

impl TimeSection {
    /// Whether steps are adaptive (`adaptive`, or by default whether there is a continuum or
    /// a fluid: `has_bounded`).
    pub fn is_adaptive(&self, has_continuum: bool) -> bool {
        self.adaptive.unwrap_or(has_continuum)
    }

    /// The adaptive stepping of these settings: steps ≤ min(dt, dt_max).
    pub fn stepping(&self) -> xpbd_core::AdaptiveStepping {
        xpbd_core::AdaptiveStepping::new(self.dt_max.map_or(self.dt, |m| m.min(self.dt)))
    }
}

/// `[solver]`: maps onto [`xpbd_core::SolverSettings`]; absent fields take the defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolverSection {
    /// Substeps per step.
    pub substeps: usize,
    /// Iterations per substep.
    pub iterations: usize,
    /// `{ kind = "gauss_seidel" }`, `{ kind = "coloured" }` or
    /// `{ kind = "jacobi", omega = 1.0, averaged = true }`.
    pub method: SolverKind,
    /// Gravity (m/s²).
    #[serde(deserialize_with = "crate::exact::array")]
    pub gravity: [f64; 3],
    /// Global velocity damping k (1/s).
    pub velocity_damping: f64,
    /// Multiplier warm start decay d ∈ [0, 1] (absent: multipliers reset every substep).
    pub multiplier_warm_start: Option<f64>,
    /// Worker threads (0 = rayon's pool). Results do not depend on it.
    pub threads: usize,
}

impl Default for SolverSection {
    fn default() -> Self {
        Self {
            substeps: 10,
            iterations: 1,
            method: SolverKind::Coloured,
            gravity: [0.0, 0.0, -9.81],
            velocity_damping: 0.0,
            multiplier_warm_start: None,
            threads: 0,
        }
    }
}

/// Export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// VTK legacy binary (`frame_NNNNN.vtk`).
    Vtk,
    /// PLY binary (`frame_NNNNN.ply`).
    Ply,
    /// OBJ (`frame_NNNNN.obj`).
    Obj,
}

/// `[output]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSection {
    /// Formats written per output frame.
    #[serde(default = "default_formats")]
    pub formats: Vec<Format>,
    /// Write every n-th frame (≥ 1; frame 0 is always written).
    #[serde(default = "one")]
    pub every: usize,
}

fn default_formats() -> Vec<Format> {
    vec![Format::Vtk]
}

impl Default for OutputSection {
    fn default() -> Self {
        Self {
            formats: default_formats(),
            every: 1,
        }
    }
}
