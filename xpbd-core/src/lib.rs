//! # xpbd-core
//!
//! The math core of the workspace: particles, constraints and the XPBD solvers
//! (sequential Gauss-Seidel, Jacobi with relaxation, graph-coloured parallel Gauss-Seidel),
//! substepping, damping, diagnostics and fault handling.
//!
//! Everything is `f64` and generic over the spatial dimension `D` (2 or 3).
//!
//! The step follows XPBD (Macklin, Müller & Chentanez 2016, Algorithm 1) with the
//! "small steps" substepping of Macklin et al. 2019:
//!
//! ```text
//! for each substep (h = Δt / substeps):
//!     x_prev = x;  v += h g;  x += h v                      (predict; kinematic pins follow targets)
//!     λ = 0                                                  (multipliers reset every substep)
//!     repeat iterations:  Δλ = (−C − α̃λ − γ∇C·(x − x_prev)) / ((1 + γ) Σ wᵢ|∇ᵢC|² + α̃)
//!                         λ += Δλ;  xᵢ += wᵢ ∇ᵢC Δλ              (α̃ = α / h², γ = α β / h)
//!     v = (x − x_prev) / h
//! ```
//!
//! ```
//! use xpbd_core::prelude::*;
//! // A two-particle pendulum: a pinned pivot and a bob on a rigid rod.
//! let mut particles = Particles::<2>::new();
//! let pivot = particles.push(Vector::<2>::new(0.0, 0.0), 0.0);   // inverse mass 0 = pinned
//! let bob = particles.push(Vector::<2>::new(1.0, 0.0), 1.0);
//! let mut rods = DistanceConstraints::new();
//! rods.add(&particles, pivot, bob, 0.0).unwrap();
//! let settings = SolverSettings { substeps: 20, gravity: Vector::<2>::new(0.0, -9.81), ..SolverSettings::default() };
//! let mut sim = Simulation::new(particles, settings).unwrap();
//! sim.add_constraints(rods).unwrap();
//! sim.step(1.0 / 60.0).unwrap();
//! let l = (sim.particles().x[bob] - sim.particles().x[pivot]).norm();
//! assert!((l - 1.0).abs() < 1e-9);
//! ```

pub mod builders;
pub mod cantilever;
pub mod constraint;
pub mod contact;
pub mod energy;
pub mod error;
pub mod geometry;
pub mod mesh;
pub mod particles;
pub mod rigid;
pub mod schedule;
pub mod simulation;
pub mod solver;
pub mod spatial;

pub use error::{BuildError, StepError};
pub use particles::Particles;
pub use simulation::{
    AdaptiveStepping, AdvanceReport, BlockSeconds, Diagnostics, Simulation, SolverSettings,
    StepReport,
};
pub use solver::SolverKind;

/// A point or displacement in `D` dimensions.
pub type Vector<const D: usize> = nalgebra::SVector<f64, D>;
/// A `D × D` matrix (deformation gradients, rest-shape inverses).
pub type Matrix<const D: usize> = nalgebra::SMatrix<f64, D, D>;

/// Everything a typical user needs.
pub mod prelude {
    pub use crate::constraint::{
        AttachmentConstraints, ConstraintBlock, ConstraintKind, ConstraintSet, DistanceConstraints,
    };
    pub use crate::contact::{
        Collider, ColliderContacts, ContactOptions, Friction, ParticleContacts, Pose, Shape,
    };
    pub use crate::{
        BuildError, Matrix, Particles, Simulation, SolverKind, SolverSettings, StepError,
        StepReport, Vector,
    };
}

/// The README's example compiles and runs as a doctest.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
