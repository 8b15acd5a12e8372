//! The three constraint solvers, selectable at run time.

use crate::BuildError;

/// How each iteration sweeps the constraints.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SolverKind {
    /// Sequential Gauss-Seidel in block order, constraint index order (the XPBD paper's
    /// Algorithm 1). Single-threaded.
    GaussSeidel,
    /// Jacobi: every constraint is projected against the same positions and the corrections
    /// are summed per particle. Each constraint's Δλ and Δx are scaled together by ω (plain
    /// relaxation) or by ω / (the largest constraint count among its particles) (`averaged`);
    /// see [`crate::constraint::block::JacobiRelaxation`] for why both must be scaled.
    /// Deterministic for any thread count (corrections are summed in constraint order).
    Jacobi {
        /// Relaxation factor ω ∈ (0, 2].
        omega: f64,
        /// Divide each particle's summed correction by its constraint count.
        averaged: bool,
    },
    /// Graph-coloured Gauss-Seidel: the constraints of one colour share no particle and are
    /// projected in parallel (rayon). Bit-identical results for any thread count.
    #[default]
    Coloured,
}

impl SolverKind {
    /// The Jacobi solver with averaging and ω = 1.
    pub const JACOBI: Self = Self::Jacobi {
        omega: 1.0,
        averaged: true,
    };

    /// Short name (`gs`, `jacobi`, `colored`) as used on the command line.
    pub fn short_name(&self) -> &'static str {
        match self {
            Self::GaussSeidel => "gs",
            Self::Jacobi { .. } => "jacobi",
            Self::Coloured => "colored",
        }
    }

    /// Parses `gs`, `jacobi`, `colored`/`coloured`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "gs" | "gauss-seidel" => Some(Self::GaussSeidel),
            "jacobi" => Some(Self::JACOBI),
            "colored" | "coloured" => Some(Self::Coloured),
            _ => None,
        }
    }

    pub(crate) fn validate(&self) -> Result<(), BuildError> {
        if let Self::Jacobi { omega, .. } = *self
            && !(omega.is_finite() && omega > 0.0 && omega <= 2.0)
        {
            return Err(BuildError::InvalidSetting {
                field: "omega",
                value: omega,
                reason: "Jacobi relaxation must lie in (0, 2]",
            });
        }
        Ok(())
    }
}
