//! Return mappings `Z(F)` in principal log-strain space (StVK on Hencky strain).
//!
//! With `F = U Σ Vᵀ` and `ε = ln Σ` (principal Hencky strain), the Kirchhoff stress is principal too:
//! `τ = 2μ ε + λ (tr ε) 1`, so `dev τ = 2μ ε̂` (`ε̂ = ε − (tr ε / d) 1`) and `tr τ = (2μ + dλ) tr ε`.
//! Every model maps a trial strain `ε_tr` to `ε_new` and returns `F_E = U exp(ε_new) Vᵀ`.
//!
//! | model | yield surface after projection | trace of ε |
//! |---|---|---|
//! | [`VonMises`] | `‖dev τ‖ = 2μ‖ε̂‖ = σ_Y(q)` | kept |
//! | [`DruckerPrager`] | `α_DP tr τ + ‖dev τ‖ = 0` (case III); `ε = 0` (case II) | kept in case III |
//! | [`Nacc`] | `(1+2β) q² + M²(p + βp₀)(p − p₀) = 0`, or tips `p = p₀`, `p = −βp₀` | kept off the tips |
//! | [`HerschelBulkley`] | `‖dev τ‖ = s ∈ [τ_Y, s_tr]` (rate dependent) | kept |
//!
//! Inside the XPBI iterations the hardening state is frozen at tⁿ and only committed at the end of
//! the step, so `Z` with a frozen state is a projection: `Z(Z(F)) = Z(F)` for elastic, von Mises,
//! Drucker–Prager (without volume correction) and NACC. Herschel–Bulkley is a viscous relaxation
//! over Δt and is idempotent only in its η → 0 (von Mises) limit.

mod drucker_prager;
mod herschel_bulkley;
mod mohr_coulomb;
mod nacc;
mod von_mises;

pub use drucker_prager::{
    DruckerPrager, FrictionCone, InertialFriction, KlarHardening, drucker_prager_alpha,
};
pub use herschel_bulkley::{HerschelBulkley, solve_herschel_bulkley};
pub use nacc::Nacc;
pub use von_mises::VonMises;

use nalgebra::{SMatrix, SVector};

use crate::error::XpbiError;

/// Lamé parameters `μ`, `λ` (Pa).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lame {
    /// Shear modulus μ.
    pub mu: f64,
    /// First Lamé parameter λ.
    pub lambda: f64,
}

/// Per-particle plastic state (committed once per step).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PlasticState {
    /// Hardening variable: accumulated plastic strain `q` (von Mises, Drucker–Prager) or
    /// `α = ln J_p` (NACC).
    pub hardening: f64,
    /// Drucker–Prager volume correction `v_c` (Tampubolon et al. 2017); 0 otherwise.
    pub volume_correction: f64,
}

/// Clamp of singular values before the logarithm (as in ziran): `σ ≥ 1e-4`.
pub const MIN_SINGULAR_VALUE: f64 = 1e-4;

/// The plasticity model of a material.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum PlasticModel {
    /// No plasticity: `Z(F) = F`.
    Elastic,
    /// Von Mises (metal, clay).
    VonMises(VonMises),
    /// Drucker–Prager sand (Klár et al. 2016).
    DruckerPrager(DruckerPrager),
    /// Non-associated Cam-clay snow (Wolper et al. 2019).
    Nacc(Nacc),
    /// Herschel–Bulkley viscoplastic flow (Yue et al. 2015), Bingham for `h = 1`.
    HerschelBulkley(HerschelBulkley),
}

impl PlasticModel {
    /// Checks the model parameters.
    pub fn validate(&self) -> Result<(), XpbiError> {
        match self {
            Self::Elastic => Ok(()),
            Self::VonMises(m) => m.validate(),
            Self::DruckerPrager(m) => m.validate(),
            Self::Nacc(m) => m.validate(),
            Self::HerschelBulkley(m) => m.validate(),
        }
    }

    /// Maps the principal trial strain `eps` to the projected strain and the *updated* state
    /// (which the caller commits at the end of the step). `dt` is used by rate-dependent models.
    ///
    /// ```
    /// use nalgebra::Vector3;
    /// use xpbi_continuum::plasticity::{Lame, PlasticModel, PlasticState, VonMises};
    /// let vm = PlasticModel::VonMises(VonMises { yield_stress: 100.0, hardening_modulus: 0.0 });
    /// let lame = Lame { mu: 1e4, lambda: 1e4 };
    /// let (eps, _) = vm.project_strain(&Vector3::new(0.1, -0.05, -0.05), &PlasticState::default(), &lame, 1e-3);
    /// let dev = eps - Vector3::repeat(eps.sum() / 3.0);
    /// assert!((2.0 * lame.mu * dev.norm() - 100.0).abs() < 1e-9);
    /// ```
    pub fn project_strain<const D: usize>(
        &self,
        eps: &SVector<f64, D>,
        state: &PlasticState,
        lame: &Lame,
        dt: f64,
    ) -> (SVector<f64, D>, PlasticState) {
        match self {
            Self::Elastic => (*eps, *state),
            Self::VonMises(m) => m.project(eps, state, lame),
            Self::DruckerPrager(m) => m.project(eps, state, lame, dt),
            Self::Nacc(m) => m.project(eps, state, lame),
            Self::HerschelBulkley(m) => m.project(eps, state, lame, dt),
        }
    }

    /// The yield function at a principal elastic strain `eps` and state, in log-strain
    /// units, ≤ 0 on or inside the yield surface (what the return map leaves behind, up to
    /// round-off), > 0 outside:
    ///
    /// * von Mises: `‖ε̂‖ − σ_Y(q)/(2μ)` (`‖dev τ‖ = 2μ‖ε̂‖`);
    /// * Drucker–Prager, with `ε_s = ε − c₀1 + (v_c/d)1`: `‖ε̂_s‖ + ((dλ + 2μ)/(2μ)) α_DP(q)
    ///   tr ε_s` for `tr ε_s ≤ 0` (the δγ of the return map; 0 on the cone), `‖ε_s‖` in
    ///   expansion (`tr ε_s > 0`: no tension, the apex is the only admissible point there); on
    ///   the pyramid ([`FrictionCone::MohrCoulomb`], 3D) half its `f/2μ`, the face return's
    ///   increment.
    ///
    /// `None` for models without a static yield surface in strain space: elastic (none),
    /// Herschel–Bulkley (rate dependent: the stress exceeds τ_Y while flowing) and NACC (its
    /// hardening update moves the ellipse after the projection; see [`Nacc::yield_function`]
    /// for the surface itself).
    ///
    /// ```
    /// use nalgebra::Vector3;
    /// use xpbi_continuum::plasticity::{DruckerPrager, Lame, PlasticModel, PlasticState};
    /// let dp = PlasticModel::DruckerPrager(DruckerPrager::sand(30.0));
    /// let lame = Lame { mu: 1e5, lambda: 1e5 };
    /// let st = PlasticState::default();
    /// let trial = Vector3::new(0.02, -0.03, -0.01);
    /// assert!(dp.yield_margin(&trial, &st, &lame).unwrap() > 0.0);
    /// let (eps, st) = dp.project_strain(&trial, &st, &lame, 1e-3);
    /// assert!(dp.yield_margin(&eps, &st, &lame).unwrap().abs() < 1e-12);
    /// ```
    pub fn yield_margin<const D: usize>(
        &self,
        eps: &SVector<f64, D>,
        state: &PlasticState,
        lame: &Lame,
    ) -> Option<f64> {
        match self {
            Self::VonMises(m) => {
                Some(deviatoric(eps).norm() - m.yield_radius(state) / (2.0 * lame.mu))
            }
            Self::DruckerPrager(m) => {
                let d = D as f64;
                let vc = if m.volume_correction {
                    state.volume_correction
                } else {
                    0.0
                };
                let eps_s = eps - SVector::<f64, D>::repeat(m.cohesion - vc / d);
                let trace = eps_s.sum();
                if trace > 0.0 {
                    return Some(eps_s.norm());
                }
                let alpha = m.alpha::<D>(state);
                if D == 3 && m.cone == FrictionCone::MohrCoulomb {
                    let e = [eps_s[0], eps_s[1], eps_s[2]];
                    let mu_f = d * alpha / std::f64::consts::SQRT_2;
                    let g = mohr_coulomb::yield_value(&e, mu_f, lame.lambda / lame.mu);
                    return Some(0.5 * g);
                }
                Some(
                    deviatoric(&eps_s).norm()
                        + (d * lame.lambda + 2.0 * lame.mu) / (2.0 * lame.mu) * trace * alpha,
                )
            }
            Self::Elastic | Self::Nacc(_) | Self::HerschelBulkley(_) => None,
        }
    }

    /// `α_DP` in dimension `D` when it is the same for every state (Drucker–Prager without
    /// hardening), to be passed to [`PlasticModel::project_strain_with`]; `None` otherwise.
    pub(crate) fn constant_dp_alpha<const D: usize>(&self) -> Option<f64> {
        match self {
            Self::DruckerPrager(m) => m.constant_alpha::<D>(),
            _ => None,
        }
    }

    /// [`PlasticModel::project_strain`] with the constant `α_DP` of
    /// [`PlasticModel::constant_dp_alpha`] (or `None`): the same result without a sine per call.
    #[inline]
    pub(crate) fn project_strain_with<const D: usize>(
        &self,
        eps: &SVector<f64, D>,
        state: &PlasticState,
        lame: &Lame,
        dt: f64,
        dp_alpha: Option<f64>,
    ) -> (SVector<f64, D>, PlasticState) {
        match self {
            Self::DruckerPrager(m) => m.project_with(eps, state, lame, dt, dp_alpha),
            _ => self.project_strain(eps, state, lame, dt),
        }
    }

    /// `Z(F)`: SVD, projection of `ln Σ`, reassembly `U exp(ε_new) Vᵀ`. Returns the elastic `F_E`
    /// and the updated state.
    ///
    /// ```
    /// use nalgebra::Matrix2;
    /// use xpbi_continuum::plasticity::{Lame, PlasticModel, PlasticState};
    /// let f = Matrix2::new(1.1, 0.2, 0.0, 0.9);
    /// let (fe, _) = PlasticModel::Elastic.return_map(&f, &PlasticState::default(), &Lame { mu: 1.0, lambda: 1.0 }, 1e-3);
    /// assert!((fe - f).norm() < 1e-12);
    /// ```
    pub fn return_map<const D: usize>(
        &self,
        f: &SMatrix<f64, D, D>,
        state: &PlasticState,
        lame: &Lame,
        dt: f64,
    ) -> (SMatrix<f64, D, D>, PlasticState) {
        self.return_map_from(f, state, lame, dt, &SMatrix::identity(), None)
    }

    /// [`PlasticModel::return_map`] with the SVD warm-started from a rotation `V₀` near the
    /// right singular vectors of `F` ([`principal_from`]; the same result to round-off, in
    /// fewer Jacobi sweeps) and the constant `α_DP` of [`PlasticModel::constant_dp_alpha`]
    /// (or `None`), as [`PlasticModel::project_strain_with`].
    pub(crate) fn return_map_from<const D: usize>(
        &self,
        f: &SMatrix<f64, D, D>,
        state: &PlasticState,
        lame: &Lame,
        dt: f64,
        v0: &SMatrix<f64, D, D>,
        dp_alpha: Option<f64>,
    ) -> (SMatrix<f64, D, D>, PlasticState) {
        if matches!(self, Self::Elastic) {
            return (*f, *state);
        }
        let svd = principal_from(f, v0);
        let (eps_new, new_state) = self.project_strain_with(&svd.eps, state, lame, dt, dp_alpha);
        (svd.assemble(&eps_new), new_state)
    }
}

/// `F = U diag(σ) Vᵀ` with `ε = ln max(σ, 1e-4)`; `U`, `V` rotations.
#[derive(Debug, Clone, Copy)]
pub struct Principal<const D: usize> {
    /// Left singular vectors.
    pub u: SMatrix<f64, D, D>,
    /// Right singular vectors, transposed.
    pub v_t: SMatrix<f64, D, D>,
    /// Singular values.
    pub sigma: SVector<f64, D>,
    /// Principal Hencky strain `ln σ` (clamped).
    pub eps: SVector<f64, D>,
}

impl<const D: usize> Principal<D> {
    /// `U diag(exp ε) Vᵀ`.
    pub fn assemble(&self, eps: &SVector<f64, D>) -> SMatrix<f64, D, D> {
        let s = eps.map(f64::exp);
        self.u * SMatrix::from_diagonal(&s) * self.v_t
    }
}

/// SVD of `F` in principal form (see [`Principal`]), by the shared rotation-variant SVD
/// (`xpbd_core::energy::svd`): `U`, `V` are rotations and an inverted `F` shows up as a negative
/// last singular value, which the logarithm clamps to `ln 1e-4`.
pub fn principal<const D: usize>(f: &SMatrix<f64, D, D>) -> Principal<D> {
    principal_from(f, &SMatrix::identity())
}

/// [`principal`] with the SVD warm-started from a guess `V₀` of the right singular vectors
/// (`xpbd_core::energy::svd::rotation_variant_svd_from`; `V₀ = I` is the cold start).
pub fn principal_from<const D: usize>(
    f: &SMatrix<f64, D, D>,
    v0: &SMatrix<f64, D, D>,
) -> Principal<D> {
    let (u, sigma, v) = xpbd_core::energy::svd::rotation_variant_svd_from(f, v0);
    let eps = sigma.map(|s| s.max(MIN_SINGULAR_VALUE).ln());
    Principal {
        u,
        v_t: v.transpose(),
        sigma,
        eps,
    }
}

/// Deviatoric part `ε̂ = ε − (tr ε / d) 1`.
pub fn deviatoric<const D: usize>(eps: &SVector<f64, D>) -> SVector<f64, D> {
    eps - SVector::repeat(eps.sum() / D as f64)
}

pub(crate) fn check_finite_nonneg(name: &'static str, value: f64) -> Result<(), XpbiError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(XpbiError::InvalidParameter { name, value })
    }
}

/// The range check of a friction angle φ (degrees): finite and in the open interval
/// (0°, 90°), else [`XpbiError::FrictionAngleOutOfRange`]. The one statement of the range:
/// [`DruckerPrager::validate`] and [`Nacc::validate`] call it, and so do scene files' range
/// checks (`xpbd_scene`, which name the field).
///
/// ```
/// use xpbi_continuum::plasticity::check_friction_angle;
/// assert!(check_friction_angle(30.0).is_ok());
/// assert!(check_friction_angle(90.0).is_err() && check_friction_angle(0.0).is_err());
/// assert!(check_friction_angle(f64::NAN).is_err());
/// ```
pub fn check_friction_angle(degrees: f64) -> Result<(), XpbiError> {
    if degrees.is_finite() && degrees > 0.0 && degrees < 90.0 {
        Ok(())
    } else {
        Err(XpbiError::FrictionAngleOutOfRange { degrees })
    }
}
