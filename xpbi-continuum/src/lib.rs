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
//! The time step follows XPBI's Algorithm 1 written in candidate positions `x = xⁿ + Δt v`
//! (design sketch §1): kernels, `L_p` and volumes are frozen at `xⁿ`, so the velocity update
//! `Δv = w ∇C Δλ / Δt` of the paper is exactly the position update `Δx = w ∇C Δλ` of XPBD.

pub mod constraint;
pub mod contact;
pub mod continuum;
pub mod correction;
pub mod error;
pub mod hencky;
pub mod kernel;
pub mod material;
pub mod observables;
pub mod plasticity;
pub mod sand_column;
pub mod scene;

pub use error::XpbiError;
pub use material::Material;
