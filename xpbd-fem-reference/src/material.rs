//! Run-time selection among the energies of `xpbd_core::energy`.

use crate::error::FemError;
use nalgebra::SMatrix;
use xpbd_core::energy::{
    EnergyError, HenckyStvk, HyperelasticEnergy, LinearElastic, NeoHookean, StableNeoHookean,
    Tangent, lame_from_young_poisson,
};

macro_rules! dispatch {
    ($self:ident, $m:ident => $e:expr) => {
        match $self {
            ConstitutiveModel::Hencky($m) => $e,
            ConstitutiveModel::NeoHookean($m) => $e,
            ConstitutiveModel::StableNeoHookean($m) => $e,
            ConstitutiveModel::Linear($m) => $e,
        }
    };
}

/// Constitutive model names (as accepted by `cargo xtask cantilever --material`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MaterialKind {
    /// StVK with Hencky strain (`hencky`).
    Hencky,
    /// Classic compressible Neo-Hookean (`neo-hookean`).
    NeoHookean,
    /// Stable Neo-Hookean (`stable-neo-hookean`).
    StableNeoHookean,
    /// Linear elasticity (`linear`).
    Linear,
}

impl std::str::FromStr for MaterialKind {
    type Err = FemError;
    /// ```
    /// use xpbd_fem_reference::MaterialKind;
    /// assert_eq!("stable-neo-hookean".parse::<MaterialKind>().unwrap(), MaterialKind::StableNeoHookean);
    /// assert!("rubber".parse::<MaterialKind>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, FemError> {
        match s {
            "hencky" => Ok(Self::Hencky),
            "neo-hookean" => Ok(Self::NeoHookean),
            "stable-neo-hookean" => Ok(Self::StableNeoHookean),
            "linear" => Ok(Self::Linear),
            other => Err(FemError::InvalidInput {
                field: "material",
                message: format!(
                    "{other:?}; expected hencky | neo-hookean | stable-neo-hookean | linear"
                ),
            }),
        }
    }
}

/// A material with its parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ConstitutiveModel {
    /// See [`HenckyStvk`].
    Hencky(HenckyStvk),
    /// See [`NeoHookean`].
    NeoHookean(NeoHookean),
    /// See [`StableNeoHookean`].
    StableNeoHookean(StableNeoHookean),
    /// See [`LinearElastic`].
    Linear(LinearElastic),
}

impl ConstitutiveModel {
    /// The material of `kind` with Lamé parameters from `E` and `ν`; rejects non-finite `E`,
    /// `E ≤ 0` and `ν ∉ (−1, 0.5)`.
    ///
    /// ```
    /// use xpbd_fem_reference::{ConstitutiveModel, MaterialKind};
    /// assert!(ConstitutiveModel::new(MaterialKind::Hencky, 1e6, 0.3).is_ok());
    /// assert!(ConstitutiveModel::new(MaterialKind::Hencky, f64::NAN, 0.3).is_err());
    /// ```
    pub fn new(kind: MaterialKind, youngs: f64, poisson: f64) -> Result<Self, FemError> {
        if !(youngs.is_finite() && youngs > 0.0) {
            return Err(FemError::NonFiniteParameter {
                field: "youngs",
                value: youngs,
                expected: "finite and > 0",
            });
        }
        if !(poisson.is_finite() && poisson > -1.0 && poisson < 0.5) {
            return Err(FemError::NonFiniteParameter {
                field: "poisson",
                value: poisson,
                expected: "in (-1, 0.5)",
            });
        }
        let (mu, lambda) = lame_from_young_poisson(youngs, poisson);
        Ok(match kind {
            MaterialKind::Hencky => Self::Hencky(HenckyStvk { mu, lambda }),
            MaterialKind::NeoHookean => Self::NeoHookean(NeoHookean { mu, lambda }),
            MaterialKind::StableNeoHookean => {
                Self::StableNeoHookean(StableNeoHookean { mu, lambda })
            }
            MaterialKind::Linear => Self::Linear(LinearElastic { mu, lambda }),
        })
    }

    /// The Lamé parameters `(μ, λ)` the material was built with.
    pub fn lame(&self) -> (f64, f64) {
        dispatch!(self, m => (m.mu, m.lambda))
    }

    /// Whether the energy needs `det F > 0` (cheap admissibility test used during assembly).
    pub fn requires_positive_jacobian(&self) -> bool {
        matches!(self, Self::Hencky(_) | Self::NeoHookean(_))
    }
}

impl<const D: usize> HyperelasticEnergy<D> for ConstitutiveModel {
    fn psi(&self, f: &SMatrix<f64, D, D>) -> f64 {
        dispatch!(self, m => m.psi(f))
    }
    fn pk1(&self, f: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
        dispatch!(self, m => m.pk1(f))
    }
    fn dpk1(&self, f: &SMatrix<f64, D, D>, df: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
        dispatch!(self, m => m.dpk1(f, df))
    }
    fn tangent(&self, f: &SMatrix<f64, D, D>) -> Tangent<D> {
        dispatch!(self, m => m.tangent(f))
    }
    fn check_admissible(&self, f: &SMatrix<f64, D, D>) -> Result<(), EnergyError> {
        dispatch!(self, m => m.check_admissible(f))
    }
}
