//! Continuum materials: density, elasticity (StVK on Hencky strain) and a plasticity model, with
//! documented presets in SI units.

use crate::error::XpbiError;
use crate::hencky;
use crate::plasticity::{
    DruckerPrager, FrictionCone, HerschelBulkley, KlarHardening, Lame, Nacc, PlasticModel, VonMises,
};

/// A continuum material (SI units).
///
/// ```
/// use xpbi_continuum::material::Material;
/// let sand = Material::sand();
/// sand.validate().unwrap();
/// let lame = sand.lame();
/// assert!((lame.mu - 3.5e5 / 2.6).abs() < 1e-6);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// Mass density ρ (kg/m³).
    pub density: f64,
    /// Young's modulus E (Pa).
    pub youngs_modulus: f64,
    /// Poisson ratio ν ∈ (−1, 0.5).
    pub poisson_ratio: f64,
    /// Plasticity model.
    pub plasticity: PlasticModel,
}

impl Material {
    /// Dry sand: ρ = 1600 kg/m³, E = 3.5e5 Pa, ν = 0.3 (the benchmark column's; Klár et al. 2016
    /// use E = 3.537e5), Drucker–Prager φ = 30°, cohesionless.
    pub fn sand() -> Self {
        Self::sand_with_friction(30.0)
    }

    /// Sand with another friction angle (degrees), on the default cone.
    pub fn sand_with_friction(friction_angle: f64) -> Self {
        Self::sand_on_cone(friction_angle, FrictionCone::default())
    }

    /// Sand whose friction angle (degrees) is read on `cone` ([`FrictionCone`]).
    pub fn sand_on_cone(friction_angle: f64, cone: FrictionCone) -> Self {
        Self {
            density: 1600.0,
            youngs_modulus: 3.5e5,
            poisson_ratio: 0.3,
            plasticity: PlasticModel::DruckerPrager(DruckerPrager {
                cone,
                ..DruckerPrager::sand(friction_angle)
            }),
        }
    }

    /// Snow: ρ = 400 kg/m³, E = 1e5 Pa, ν = 0.3, NACC φ = 45° (M = 1.85 in 3D, as in XPBI's
    /// "Snow Dive" tuple quoted by a third party), β = 0.3, ξ = 3 (ziran's snow scenes use ξ = 1–3).
    pub fn snow() -> Self {
        Self {
            density: 400.0,
            youngs_modulus: 1e5,
            poisson_ratio: 0.3,
            plasticity: PlasticModel::Nacc(Nacc {
                friction_angle: 45.0,
                beta: 0.3,
                xi: 3.0,
            }),
        }
    }

    /// Clay / plasticine: ρ = 1200 kg/m³, E = 2e4 Pa, ν = 0.3, von Mises σ_Y = 76.9 Pa (XPBI
    /// "Noodles" tuple quoted by a third party), perfectly plastic.
    pub fn clay() -> Self {
        Self {
            density: 1200.0,
            youngs_modulus: 2e4,
            poisson_ratio: 0.3,
            plasticity: PlasticModel::VonMises(VonMises {
                yield_stress: 76.9,
                hardening_modulus: 0.0,
            }),
        }
    }

    /// Soft "animation metal": ρ = 2700 kg/m³, E = 1e6 Pa, ν = 0.3, von Mises σ_Y = 1e4 Pa with
    /// hardening H = 5e4 Pa (scaled down from real metals so that Δt stays ~1e-4 s).
    pub fn metal() -> Self {
        Self {
            density: 2700.0,
            youngs_modulus: 1e6,
            poisson_ratio: 0.3,
            plasticity: PlasticModel::VonMises(VonMises {
                yield_stress: 1e4,
                hardening_modulus: 5e4,
            }),
        }
    }

    /// Toothpaste: ρ = 1000 kg/m³, E = 2250 Pa, ν = 0.3, Herschel–Bulkley τ_Y = 50 Pa,
    /// η = 10 Pa·s^h, h = 0.5 (shear thinning; XPBI "Wrist" uses E = 2250, σ_Y = 10, η = 10, h = 1).
    pub fn toothpaste() -> Self {
        Self {
            density: 1000.0,
            youngs_modulus: 2250.0,
            poisson_ratio: 0.3,
            plasticity: PlasticModel::HerschelBulkley(HerschelBulkley {
                yield_stress: 50.0,
                viscosity: 10.0,
                exponent: 0.5,
            }),
        }
    }

    /// Honey-like viscous fluid: ρ = 1400 kg/m³, E = 2250 Pa, ν = 0.45, Bingham with τ_Y = 0,
    /// η = 10 Pa·s (h = 1).
    pub fn honey() -> Self {
        Self {
            density: 1400.0,
            youngs_modulus: 2250.0,
            poisson_ratio: 0.45,
            plasticity: PlasticModel::HerschelBulkley(HerschelBulkley {
                yield_stress: 0.0,
                viscosity: 10.0,
                exponent: 1.0,
            }),
        }
    }

    /// Sand with Klár et al. (2016) hardening: as [`Material::sand`] but the friction angle
    /// follows `φ(q) = h₀ + (h₁q − h₃)e^{−h₂q}` with Klár's published (35°, 9°, 0.2, 10°)
    /// ([`KlarHardening::KLAR_2016`]): 25° for loose, undeformed sand, rising with the
    /// accumulated plastic strain q to a peak of ≈ 48° near q ≈ 6 and settling to 35°.
    pub fn sand_hardening() -> Self {
        let mut dp = DruckerPrager::sand(30.0);
        dp.hardening = Some(KlarHardening::KLAR_2016);
        Self {
            plasticity: PlasticModel::DruckerPrager(dp),
            ..Self::sand()
        }
    }

    /// Work-hardening clay: as [`Material::clay`] (σ_Y = 76.9 Pa) with linear isotropic
    /// hardening H = 770 Pa, so the yield radius doubles after a plastic strain of 0.1 (a
    /// modelling choice for plasticine-like clay that stiffens as it is kneaded, not a
    /// measured value; the XPBI tuple quoted by a third party is perfectly plastic).
    pub fn clay_hardening() -> Self {
        Self {
            plasticity: PlasticModel::VonMises(VonMises {
                yield_stress: 76.9,
                hardening_modulus: 770.0,
            }),
            ..Self::clay()
        }
    }

    /// The documented presets with hardening enabled wherever the model has it, by name:
    /// sand (Drucker–Prager + Klár hardening), snow (NACC, hardening ξ = 3 on the compression cap
    /// through ln J_p), clay and metal (von Mises + linear hardening), toothpaste and honey
    /// (Herschel–Bulkley: the model has no hardening variable; its rate dependence plays that
    /// role).
    ///
    /// ```
    /// for (name, m) in xpbi_continuum::Material::hardening_presets() {
    ///     m.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
    /// }
    /// ```
    pub fn hardening_presets() -> [(&'static str, Self); 6] {
        [
            ("sand", Self::sand_hardening()),
            ("snow", Self::snow()),
            ("clay", Self::clay_hardening()),
            ("metal", Self::metal()),
            ("toothpaste", Self::toothpaste()),
            ("honey", Self::honey()),
        ]
    }

    /// Purely elastic material.
    pub fn elastic(density: f64, youngs_modulus: f64, poisson_ratio: f64) -> Self {
        Self {
            density,
            youngs_modulus,
            poisson_ratio,
            plasticity: PlasticModel::Elastic,
        }
    }

    /// Checks ρ > 0, E > 0 (finite), ν ∈ (−1, 0.5) and the plasticity parameters.
    pub fn validate(&self) -> Result<(), XpbiError> {
        if !(self.density.is_finite() && self.density > 0.0) {
            return Err(XpbiError::InvalidParameter {
                name: "density",
                value: self.density,
            });
        }
        if !(self.youngs_modulus.is_finite() && self.youngs_modulus > 0.0) {
            return Err(XpbiError::InvalidParameter {
                name: "Young's modulus",
                value: self.youngs_modulus,
            });
        }
        if !(self.poisson_ratio.is_finite()
            && self.poisson_ratio > -1.0
            && self.poisson_ratio < 0.5)
        {
            return Err(XpbiError::PoissonRatioOutOfRange {
                value: self.poisson_ratio,
            });
        }
        self.plasticity.validate()
    }

    /// Lamé parameters `μ = E/(2(1+ν))`, `λ = Eν/((1+ν)(1−2ν))` (3D expressions, used in 2D too).
    pub fn lame(&self) -> Lame {
        hencky::lame(self.youngs_modulus, self.poisson_ratio)
    }

    /// Dilatational wave speed `sqrt((λ + 2μ)/ρ)` (m/s), the scale of the CFL bound.
    pub fn wave_speed(&self) -> f64 {
        let l = self.lame();
        ((l.lambda + 2.0 * l.mu) / self.density).sqrt()
    }
}
