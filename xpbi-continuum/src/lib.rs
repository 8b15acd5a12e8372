//! # xpbi-continuum
//!
//! XPBI (Yu, Li, Lan, Yang, Jiang, "XPBI: Position-Based Dynamics with Smoothing Kernels Handles
//! Continuum Inelasticity", SIGGRAPH Asia 2024) inside the XPBD core of this workspace.
//!
//! * [`kernel`]: Wendland C2 kernel (2D, 3D), support `2 Δx` by default.
//! * [`correction`]: Bonet–Lok kernel-gradient correction `L_p` by SVD pseudo-inverse.
//! * [`plasticity`]: return mappings in principal Hencky strain (von Mises, Drucker–Prager,
//!   NACC, Herschel–Bulkley), [`material`]: materials with SI presets.
//! * [`constraint`]: the per-particle inelastic constraint `C_p = sqrt(2Ψ(Z(F_tr)))`.
//!
//! * [`continuum`]: the XPBI constraint set as a `ConstraintKind` of `xpbd_core` (per-step
//!   neighbour search and `L_p`, coloured schedule, XSPH, F update, hardening commit,
//!   checkpoint/rollback); [`contact`]: XPBI's position correction (walls: core colliders).
//! * [`scene`]: scene assembly; [`builders`]: ready scenes (columns, snowballs, hourglass);
//!   [`emitter`]: nozzle inflow.
//!
//! The validation runners (angle of repose, particle uniformity, snow step-size robustness, the
//! benchmark's 3D sand column, pile observables) are the `xpbi-validation` crate.
//!
//! The time step follows XPBI's Algorithm 1 written in candidate positions `x = xⁿ + Δt v`
//! (design sketch §1): kernels, `L_p` and volumes are frozen at `xⁿ`, so the velocity update
//! `Δv = w ∇C Δλ / Δt` of the paper is exactly the position update `Δx = w ∇C Δλ` of XPBD.
//!
//! ```
//! use nalgebra::Vector2;
//! use xpbi_continuum::{Material, scene::{ContinuumScene, SceneOptions, lattice_box}};
//! // A 2D sand column (5 cm × 10 cm, Δx = 1 cm) released on rough ground.
//! let x = lattice_box(Vector2::new(-0.025, 0.0), Vector2::new(0.025, 0.1), 0.01);
//! let mut scene = ContinuumScene::<2>::new(&x, Material::sand(), SceneOptions::new(0.01)).unwrap();
//! for _ in 0..100 {
//!     scene.step().unwrap();
//! }
//! // Gravity has started the collapse: the top particles moved down.
//! assert!(scene.positions().iter().map(|p| p[1]).fold(0.0, f64::max) < 0.095);
//! ```

pub mod builders;
pub mod constraint;
pub mod contact;
pub mod continuum;
pub mod correction;
pub mod emitter;
pub mod error;
pub mod fluid;
pub mod hencky;
pub mod kernel;
pub mod material;
pub mod plasticity;
mod projection;
pub mod scene;
pub mod xsph;

pub use error::XpbiError;
pub use material::Material;
