//! Drucker–Prager sand on Hencky strain (Klár et al. 2016, §6.3; ziran2020
//! `DruckerPragerStvkHencky::projectStrain`), with Klár's hardening, optional cohesion (a shift of
//! the log strain, as in ziran), optional volume correction (Tampubolon et al. 2017, Eq. 26)
//! and the optional μ(I) rheology ([`InertialFriction`]).
//!
//! **What the friction angle means** ([`FrictionCone`]). The cone `α tr τ + ‖dev τ‖ ≤ 0`
//! (zero dilatancy, flow coaxial with the stress) shears steadily, in simple shear with equal
//! normal stresses −p, at `|τ_xz|/p = d α/√2` (`‖dev τ‖ = √2|τ_xz|`, `tr τ = −d p`). φ is
//! the angle of that friction, μ = tan φ = |τ|/p, as granular rheology defines it
//! (GDR MiDi 2004; Jop, Forterre & Pouliquen 2006: a layer on a slope flows above atan μ and
//! stops below it): `α = √2 tan φ / d`, the same flowing friction in 2D and 3D. Klár et al.'s
//! `α = √(2/3) · 2 sin φ/(3 − sin φ)` matches Mohr–Coulomb in triaxial compression instead and
//! does not depend on d, so its layers flow at `atan(dα/√2)`: for φ = 32° at 26.3° in 2D and
//! 36.6° in 3D. Measured on collapses (`xpbi_validation::planar_collapse`, the report's planar
//! section): with Klár's cone planar deposits run out 20–26 % beyond the laboratory law and
//! axisymmetric ones fall short of it; with the shear-flow cone both land near it.
//!
//! **A cone is right at one Lode angle only, so the default is a pyramid.** The shear-flow cone
//! gives tan φ when the intermediate principal stress is the mean of the other two (plane
//! shear: a channel, a 2D heap); on a conical heap's flank it is not, and 3D heaps stood 6–7°
//! below φ (13.9°, 23.7°, 32.7° for φ = 20°, 30°, 40°). Mohr–Coulomb's pyramid
//! ([`FrictionCone::MohrCoulomb`], the default; module `mohr_coulomb`) does not see the
//! intermediate stress, so its layers flow at φ in every state of shear: the same quarter heaps
//! stand at 15.1°, 25.6°, 38.6° (`xpbi_validation::repose`). In 2D it is the shear-flow cone,
//! so every 2D result (the planar collapses above) is unchanged.
//!
//! ```text
//! α_DP = √2 tan φ / d   (FrictionCone::ShearFlow; FrictionCone::MohrCoulomb, the default, in 2D)
//!      = sqrt(2/3) · 2 sin φ / (3 − sin φ)   (FrictionCone::TriaxialCompression, Klár)
//! ε_s  = ε − c₀ 1 + (v_c / d) 1                                   (cohesion, volume correction)
//! case II  (tr ε_s ≥ 0, expansion):   ε_new = c₀ 1 (stress free),  δq = ‖ε_s‖
//! δγ = ‖ε̂_s‖ + ((dλ + 2μ) / (2μ)) α_DP tr ε_s
//! case I   (δγ ≤ 0):                  ε_new = ε (elastic),           δq = 0
//! case III (δγ > 0):                  ε_new = ε_s − δγ ε̂_s/‖ε̂_s‖ + c₀ 1,  δq = δγ   (tr ε_s kept)
//! Klár hardening: q += δq,  φ(q) = h₀ + (h₁ q − h₃) e^{−h₂ q}  (degrees)
//! volume correction: v_c += tr ε − tr ε_new   (case I: unchanged)
//! ```
//! After case III `α_DP tr τ_s + ‖dev τ_s‖ = 0` with `τ_s = 2μ ε_s,new + λ tr(ε_s,new) 1`.

use nalgebra::SVector;

use super::{
    Lame, PlasticState, check_finite_nonneg, check_friction_angle, deviatoric, mohr_coulomb,
};
use crate::error::XpbiError;

/// Klár et al.'s (2016) `α_DP(φ) = sqrt(2/3) · 2 sin φ / (3 − sin φ)` for a friction angle in
/// degrees: the cone through Mohr–Coulomb's triaxial-compression corners
/// ([`FrictionCone::TriaxialCompression`]).
///
/// ```
/// use xpbi_continuum::plasticity::drucker_prager_alpha;
/// assert!((drucker_prager_alpha(30.0) - 0.3266).abs() < 1e-4);
/// ```
pub fn drucker_prager_alpha(friction_degrees: f64) -> f64 {
    let s = friction_degrees.to_radians().sin();
    (2.0f64 / 3.0).sqrt() * 2.0 * s / (3.0 - s)
}

/// Which friction the angle φ of a Drucker–Prager material is (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum FrictionCone {
    /// tan φ = |τ|/p in steady plane shear, in any dimension: `α = √2 tan φ / d`.
    ShearFlow,
    /// Mohr–Coulomb φ in triaxial compression (Klár et al. 2016): [`drucker_prager_alpha`].
    TriaxialCompression,
    /// Not a cone: Mohr–Coulomb's pyramid `(τ₁ − τ₃) + tan φ (τ₁ + τ₃) ≤ 0`, with the
    /// shear-flow cone's flowing friction tan φ = |τ|/p in steady shear whatever the intermediate
    /// stress (the classical angle is asin(tan φ) for φ < 45°; module `mohr_coulomb`), for
    /// φ < [`FrictionCone::PYRAMID_ANGLE_BELOW`]. In 2D it is the shear-flow cone. The default: layers flow at φ whatever the intermediate stress
    /// (3D heaps stand within 5° of φ, where the cone's stood 6–7° below; module docs).
    #[default]
    MohrCoulomb,
}

impl FrictionCone {
    /// Every yield surface.
    pub const ALL: [Self; 3] = [
        Self::ShearFlow,
        Self::TriaxialCompression,
        Self::MohrCoulomb,
    ];

    /// The cone's name as scene files spell it (`cone = "triaxial_compression"`).
    ///
    /// ```
    /// use xpbi_continuum::plasticity::FrictionCone;
    /// assert_eq!(FrictionCone::ShearFlow.name(), "shear_flow");
    /// assert_eq!(FrictionCone::from_name("triaxial_compression"), Some(FrictionCone::TriaxialCompression));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Self::ShearFlow => "shear_flow",
            Self::TriaxialCompression => "triaxial_compression",
            Self::MohrCoulomb => "mohr_coulomb",
        }
    }

    /// The cone of that [`FrictionCone::name`].
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// `α_DP` of a friction coefficient μ = tan φ in dimension `d`; for
    /// [`FrictionCone::MohrCoulomb`] the shear-flow cone's, which agrees with the pyramid in plane
    /// shear (and is the pyramid in 2D): `μ = d α / √2` recovers the pyramid's friction.
    ///
    /// ```
    /// use xpbi_continuum::plasticity::{FrictionCone, drucker_prager_alpha};
    /// let mu = 30f64.to_radians().tan();
    /// // The shear-flow cone flows at μ: d α / √2 = μ.
    /// assert!((3.0 * FrictionCone::ShearFlow.alpha(mu, 3) / 2f64.sqrt() - mu).abs() < 1e-15);
    /// assert!((FrictionCone::TriaxialCompression.alpha(mu, 2) - drucker_prager_alpha(30.0)).abs() < 1e-14);
    /// ```
    pub fn alpha(self, mu: f64, d: usize) -> f64 {
        match self {
            Self::ShearFlow | Self::MohrCoulomb => std::f64::consts::SQRT_2 * mu / d as f64,
            Self::TriaxialCompression => {
                let s = mu / (1.0 + mu * mu).sqrt();
                (2.0f64 / 3.0).sqrt() * 2.0 * s / (3.0 - s)
            }
        }
    }

    /// `α_DP` of a friction angle in degrees in dimension `d`.
    pub fn alpha_of_angle(self, friction_degrees: f64, d: usize) -> f64 {
        match self {
            Self::ShearFlow | Self::MohrCoulomb => {
                self.alpha(friction_degrees.to_radians().tan(), d)
            }
            Self::TriaxialCompression => drucker_prager_alpha(friction_degrees),
        }
    }

    /// The interval `[min, max]` (degrees) a hardened friction angle φ(q) is clamped to on this
    /// surface: [`KlarHardening::ANGLE_CLAMP`], below [`FrictionCone::PYRAMID_ANGLE_BELOW`] on
    /// the pyramid. The GPU's return map is given the same bounds.
    pub fn angle_clamp(self) -> [f64; 2] {
        let [lo, hi] = KlarHardening::ANGLE_CLAMP;
        match self {
            Self::MohrCoulomb => [lo, hi.min(Self::PYRAMID_ANGLE_BELOW - 1e-3)],
            Self::ShearFlow | Self::TriaxialCompression => [lo, hi],
        }
    }

    /// The pyramid's friction angles lie below this (degrees). Its extension corner
    /// (τ₁ = τ₂) exists for tan φ < 3 (71.6°; module `mohr_coulomb`); 70° leaves a margin and
    /// lies above any granular material's angle. The shear-flow cone takes up to 90°.
    pub const PYRAMID_ANGLE_BELOW: f64 = 70.0;

    /// The slope angle (degrees) a steadily shearing layer of the cone of `friction_degrees`
    /// stands at in dimension `d`: atan(d α/√2) (module docs); φ itself for
    /// [`FrictionCone::ShearFlow`] and [`FrictionCone::MohrCoulomb`].
    pub fn flowing_angle(self, friction_degrees: f64, d: usize) -> f64 {
        (d as f64 * self.alpha_of_angle(friction_degrees, d) / std::f64::consts::SQRT_2)
            .atan()
            .to_degrees()
    }
}

/// Klár et al. (2016) hardening `φ(q) = h₀ + (h₁ q − h₃) e^{−h₂ q}` (degrees); with the
/// `serde` feature written as the array `[h₀, h₁, h₂, h₃]`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "Vec<f64>", into = "[f64; 4]")
)]
pub struct KlarHardening {
    /// h₀ (degrees).
    pub h0: f64,
    /// h₁ (degrees).
    pub h1: f64,
    /// h₂ (dimensionless).
    pub h2: f64,
    /// h₃ (degrees).
    pub h3: f64,
}

impl From<[f64; 4]> for KlarHardening {
    fn from([h0, h1, h2, h3]: [f64; 4]) -> Self {
        Self { h0, h1, h2, h3 }
    }
}

/// `[h₀, h₁, h₂, h₃]` read from a list, refusing any other length (a fixed-size array would
/// drop a fifth element without a word).
impl TryFrom<Vec<f64>> for KlarHardening {
    type Error = String;

    fn try_from(h: Vec<f64>) -> Result<Self, String> {
        let n = h.len();
        <[f64; 4]>::try_from(h).map(Self::from).map_err(|_| {
            format!("invalid length {n}, expected exactly 4 elements [h0, h1, h2, h3]")
        })
    }
}

impl From<KlarHardening> for [f64; 4] {
    fn from(h: KlarHardening) -> Self {
        [h.h0, h.h1, h.h2, h.h3]
    }
}

impl KlarHardening {
    /// Klár's published values (35°, 9°, 0.2, 10°), giving φ(0) = 25°.
    pub const KLAR_2016: Self = Self {
        h0: 35.0,
        h1: 9.0,
        h2: 0.2,
        h3: 10.0,
    };

    /// The interval `[min, max]` (degrees) a hardened friction angle φ(q) is clamped to when
    /// the cone is evaluated ([`DruckerPrager::friction_angle_at`]), inside the admissible
    /// (0°, 90°) of [`super::check_friction_angle`]; the GPU's return map is given the same
    /// bounds (`xpbd_gpu::plasticity::GpuPlastic`).
    pub const ANGLE_CLAMP: [f64; 2] = [1e-3, 89.999];

    /// Friction angle (degrees) at hardening state `q`.
    pub fn friction_angle(&self, q: f64) -> f64 {
        self.h0 + (self.h1 * q - self.h3) * (-self.h2 * q).exp()
    }
}

/// The μ(I) rheology of dense granular flow (Jop, Forterre & Pouliquen, Nature 441, 727, 2006;
/// GDR MiDi, Eur. Phys. J. E 14, 341, 2004): the friction coefficient grows with the inertial
/// number `I = γ̇ d / √(p/ρ_s)` (shear rate γ̇, grain diameter d, pressure p, grain density ρ_s)
/// from the static `μ_s = tan φ` of the quasi-static limit to `μ₂ = tan φ₂`:
///
/// ```text
/// μ(I) = μ_s + (μ₂ − μ_s) I / (I₀ + I)
/// ```
///
/// A rate-dependent yield surface, so the return map solves for the plastic increment δγ whose
/// rate `γ̇ = √2 δγ/Δt` gives the friction it is projected with (`DruckerPrager::project_with`).
/// It introduces a physical length (the grain) and time (√(d²ρ_s/p)), not a numerical one:
/// the result converges in Δt and Δx to the rheology's answer. Jop et al.'s glass beads:
/// `μ_s = 0.38`, `μ₂ = 0.64`, `I₀ = 0.279`, `d = 0.53 mm`, `ρ_s = 2450 kg/m³`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct InertialFriction {
    /// φ₂ (degrees): the friction angle as I → ∞, above the static angle.
    pub dynamic_angle: f64,
    /// I₀: the inertial number at which μ is halfway from μ_s to μ₂.
    pub i0: f64,
    /// Grain diameter d (m).
    pub grain_diameter: f64,
    /// Grain (solid) density ρ_s (kg/m³).
    pub grain_density: f64,
}

impl InertialFriction {
    /// `μ(I)` for a static coefficient `mu_s`.
    ///
    /// ```
    /// use xpbi_continuum::plasticity::InertialFriction;
    /// let r = InertialFriction { dynamic_angle: 32.76, i0: 0.279, grain_diameter: 5.3e-4, grain_density: 2450.0 };
    /// assert_eq!(r.friction(0.38, 0.0), 0.38);
    /// let mid = r.friction(0.38, 0.279);
    /// assert!((mid - 0.5 * (0.38 + 32.76f64.to_radians().tan())).abs() < 1e-12);
    /// ```
    pub fn friction(&self, mu_s: f64, inertial_number: f64) -> f64 {
        let mu2 = self.dynamic_angle.to_radians().tan();
        mu_s + (mu2 - mu_s) * inertial_number / (self.i0 + inertial_number)
    }

    /// `I = γ̇ d / √(p/ρ_s)` (∞ for p ≤ 0).
    pub fn inertial_number(&self, shear_rate: f64, pressure: f64) -> f64 {
        if pressure <= 0.0 {
            return f64::INFINITY;
        }
        shear_rate * self.grain_diameter / (pressure / self.grain_density).sqrt()
    }
}

/// Drucker–Prager parameters (SI, angles in degrees).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct DruckerPrager {
    /// Friction angle φ in degrees, in (0°, 90°); used when `hardening` is `None`.
    pub friction_angle: f64,
    /// Optional Klár hardening (replaces the constant friction angle).
    #[cfg_attr(feature = "serde", serde(default))]
    pub hardening: Option<KlarHardening>,
    /// Cohesion as a log-strain shift `c₀ ≥ 0` (0 = cohesionless).
    #[cfg_attr(feature = "serde", serde(default))]
    pub cohesion: f64,
    /// Volume correction (Tampubolon et al. 2017).
    #[cfg_attr(feature = "serde", serde(default))]
    pub volume_correction: bool,
    /// Which friction `friction_angle` is ([`FrictionCone`]; default the shear-flow friction).
    #[cfg_attr(feature = "serde", serde(default))]
    pub cone: FrictionCone,
    /// The μ(I) rheology: the friction grows with the inertial number above the static
    /// `tan(friction_angle)` ([`InertialFriction`]; `None`: rate independent).
    #[cfg_attr(
        feature = "serde",
        serde(default, rename = "mu_i", skip_serializing_if = "Option::is_none")
    )]
    pub inertial: Option<InertialFriction>,
}

impl DruckerPrager {
    /// Cohesionless sand without hardening.
    pub fn sand(friction_angle: f64) -> Self {
        Self {
            friction_angle,
            hardening: None,
            cohesion: 0.0,
            volume_correction: false,
            cone: FrictionCone::default(),
            inertial: None,
        }
    }

    /// Checks φ ∈ (0°, 90°) (also for the hardening curve at q = 0 and q → ∞) and c₀ ≥ 0.
    pub fn validate(&self) -> Result<(), XpbiError> {
        match self.hardening {
            None => check_friction_angle(self.friction_angle)?,
            Some(h) => {
                for v in [h.h0, h.h1, h.h2, h.h3] {
                    if !v.is_finite() {
                        return Err(XpbiError::InvalidParameter {
                            name: "Klár hardening",
                            value: v,
                        });
                    }
                }
                check_finite_nonneg("Klár h2", h.h2)?;
                check_friction_angle(h.friction_angle(0.0))?;
                check_friction_angle(h.h0)?;
            }
        }
        if self.cone == FrictionCone::MohrCoulomb {
            let angles = match self.hardening {
                None => vec![self.friction_angle],
                Some(h) => vec![h.friction_angle(0.0), h.h0],
            };
            for a in angles
                .into_iter()
                .chain(self.inertial.map(|r| r.dynamic_angle))
            {
                if a >= FrictionCone::PYRAMID_ANGLE_BELOW {
                    return Err(XpbiError::OutOfRange {
                        name: "friction_angle",
                        value: a,
                        reason: "the mohr_coulomb pyramid (the default yield surface) takes \
                                 φ < 70°; cone = \"shear_flow\" takes up to 90°",
                    });
                }
            }
        }
        if let Some(r) = self.inertial {
            if self.hardening.is_some() {
                return Err(XpbiError::InvalidParameter {
                    name: "mu_i with Klár hardening (choose one)",
                    value: r.dynamic_angle,
                });
            }
            check_friction_angle(r.dynamic_angle)?;
            if r.dynamic_angle < self.friction_angle {
                return Err(XpbiError::InvalidParameter {
                    name: "mu_i.dynamic_angle (below friction_angle)",
                    value: r.dynamic_angle,
                });
            }
            for (name, v) in [
                ("mu_i.i0", r.i0),
                ("mu_i.grain_diameter", r.grain_diameter),
                ("mu_i.grain_density", r.grain_density),
            ] {
                if !(v.is_finite() && v > 0.0) {
                    return Err(XpbiError::InvalidParameter { name, value: v });
                }
            }
        }
        check_finite_nonneg("Drucker-Prager cohesion", self.cohesion)
    }

    /// `α_DP` at state `q` in dimension `D` (the static friction of μ(I)).
    pub fn alpha<const D: usize>(&self, state: &PlasticState) -> f64 {
        self.cone.alpha_of_angle(self.friction_angle_at(state), D)
    }

    /// `α_DP` when it does not depend on the state (no hardening), in dimension `D`.
    pub fn constant_alpha<const D: usize>(&self) -> Option<f64> {
        self.hardening
            .is_none()
            .then(|| self.cone.alpha_of_angle(self.friction_angle, D))
    }

    /// Friction angle at state `q` (degrees).
    pub fn friction_angle_at(&self, state: &PlasticState) -> f64 {
        match self.hardening {
            None => self.friction_angle,
            Some(h) => {
                let [lo, hi] = self.cone.angle_clamp();
                h.friction_angle(state.hardening).clamp(lo, hi)
            }
        }
    }

    pub(super) fn project<const D: usize>(
        &self,
        eps: &SVector<f64, D>,
        state: &PlasticState,
        lame: &Lame,
        dt: f64,
    ) -> (SVector<f64, D>, PlasticState) {
        self.project_with(eps, state, lame, dt, None)
    }

    /// [`DruckerPrager::project`] with `α_DP` given when it does not depend on the state
    /// (no hardening: computed once instead of a sine per call); `None` computes it.
    #[inline]
    pub(super) fn project_with<const D: usize>(
        &self,
        eps: &SVector<f64, D>,
        state: &PlasticState,
        lame: &Lame,
        dt: f64,
        alpha: Option<f64>,
    ) -> (SVector<f64, D>, PlasticState) {
        let d = D as f64;
        let vc = if self.volume_correction {
            state.volume_correction
        } else {
            0.0
        };
        let shift = SVector::<f64, D>::repeat(self.cohesion);
        let eps_s = eps - shift + SVector::repeat(vc / d);
        let trace = eps_s.sum();
        let dev = deviatoric(&eps_s);
        let dev_norm = dev.norm();
        let alpha = alpha.unwrap_or_else(|| self.alpha::<D>(state));
        let mut next = *state;
        let eps_new = if trace >= 0.0 {
            next.hardening += eps_s.norm();
            shift
        } else if D == 3 && self.cone == FrictionCone::MohrCoulomb {
            let e = [eps_s[0], eps_s[1], eps_s[2]];
            let mut mu_f = d * alpha / std::f64::consts::SQRT_2;
            let lm = lame.lambda / lame.mu;
            if let Some(r) = self.inertial {
                let g = mohr_coulomb::yield_value(&e, mu_f, lm);
                if g <= 0.0 {
                    return (*eps, *state);
                }
                // The face's increment δ = g/2 shears at γ̇ = 2δ/Δt (principal strains ±δ).
                let pressure = -(d * lame.lambda + 2.0 * lame.mu) * trace / d;
                let half = |mu: f64| 0.5 * mohr_coulomb::yield_value(&e, mu, lm);
                let rate = 2.0 / dt.max(f64::MIN_POSITIVE);
                let delta = inertial_root(&r, mu_f, pressure, rate, 0.5 * g, half);
                mu_f = r.friction(mu_f, r.inertial_number(rate * delta, pressure));
            }
            let Some(out) = mohr_coulomb::project(&e, mu_f, lm) else {
                return (*eps, *state);
            };
            let projected = SVector::<f64, D>::from_fn(|i, _| out[i]);
            next.hardening += (eps_s - projected).norm();
            projected + shift
        } else {
            let k = (d * lame.lambda + 2.0 * lame.mu) / (2.0 * lame.mu) * trace;
            let mut delta_gamma = dev_norm + k * alpha;
            if delta_gamma <= 0.0 || dev_norm == 0.0 {
                return (*eps, *state);
            }
            if let Some(r) = self.inertial {
                delta_gamma =
                    self.inertial_increment(&r, dev_norm, k, trace, d, lame, dt, delta_gamma);
            }
            next.hardening += delta_gamma;
            eps_s - dev * (delta_gamma / dev_norm) + shift
        };
        if self.volume_correction {
            next.volume_correction += eps.sum() - eps_new.sum();
        }
        (eps_new, next)
    }

    /// The plastic increment δγ of case III under μ(I): the root of
    /// `δγ − ‖ε̂‖ − k α(μ(I(δγ)))` (α of the material's [`FrictionCone`]) with
    /// `k = ((dλ + 2μ)/(2μ)) tr ε < 0`, `I = √2 (δγ/Δt) d / √(p/ρ_s)` and the Kirchhoff pressure
    /// `p = −(dλ + 2μ) tr ε / d` (the trial's: the projection keeps the trace); [`inertial_root`].
    #[allow(clippy::too_many_arguments)]
    fn inertial_increment(
        &self,
        r: &InertialFriction,
        dev_norm: f64,
        k: f64,
        trace: f64,
        dims: f64,
        lame: &Lame,
        dt: f64,
        static_increment: f64,
    ) -> f64 {
        let pressure = -(dims * lame.lambda + 2.0 * lame.mu) * trace / dims;
        let mu_s = self.friction_angle.to_radians().tan();
        let rate = std::f64::consts::SQRT_2 / dt.max(f64::MIN_POSITIVE);
        let increment = |mu: f64| dev_norm + k * self.cone.alpha(mu, dims as usize);
        inertial_root(r, mu_s, pressure, rate, static_increment, increment)
    }
}

/// The plastic increment `x` of a rate-dependent return under μ(I): the root in
/// `(0, x_s]` of `g(x) = x − increment(μ(I(rate · x)))`, where `increment(μ)` is the static
/// return's increment at friction μ (`x_s = increment(μ_s)`), `rate · x` the shear rate γ̇ and
/// `pressure` the Kirchhoff pressure of the trial state. `g` increases with x (μ grows with I and
/// a larger friction needs a smaller increment), is `−x_s < 0` at 0 and ≥ 0 at `x_s`, so the
/// root is unique; found by the secant-bisection (regula falsi, Illinois) to 1e-12 relative.
pub(super) fn inertial_root(
    r: &InertialFriction,
    mu_s: f64,
    pressure: f64,
    rate: f64,
    static_increment: f64,
    increment: impl Fn(f64) -> f64,
) -> f64 {
    let g = |x: f64| {
        let i = r.inertial_number(rate * x, pressure);
        let mu = if i.is_finite() {
            r.friction(mu_s, i)
        } else {
            r.dynamic_angle.to_radians().tan()
        };
        x - increment(mu)
    };
    let (mut a, mut b) = (0.0, static_increment);
    let (mut ga, mut gb) = (-static_increment, g(static_increment));
    if gb <= 0.0 {
        return static_increment;
    }
    let mut side = 0i8;
    for _ in 0..60 {
        let c = (a * gb - b * ga) / (gb - ga);
        let gc = g(c);
        if gc.abs() <= 1e-12 * static_increment || (b - a) <= 1e-12 * static_increment {
            return c;
        }
        if gc > 0.0 {
            b = c;
            gb = gc;
            if side == 1 {
                ga *= 0.5;
            }
            side = 1;
        } else {
            a = c;
            ga = gc;
            if side == -1 {
                gb *= 0.5;
            }
            side = -1;
        }
    }
    0.5 * (a + b)
}
