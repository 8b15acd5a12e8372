//! # xpbd-fem-reference
//!
//! The sparse implicit finite-element oracle of the workspace: linear and quadratic simplex
//! elements (triangles in plane strain, tetrahedra), the hyperelastic energies of
//! [`xpbd_core::energy`], static equilibrium by Newton with backtracking line search and load
//! stepping, and backward-Euler dynamics, on sparse systems factorised by faer (Cholesky, LU as
//! the fallback for indefinite tangents).
//!
//! Module map: [`element`] (shape functions, quadrature) → [`fem_mesh`] (P1/P2 meshes from
//! `xpbd_core::mesh`) → [`problem`] (material, loads, Dirichlet) → [`assembly`] (element kernels,
//! CSC assembly) → [`newton`] / [`static_solver`] / [`dynamics`]; [`cantilever`] builds the
//! shared beam scenes and holds the `cargo xtask cantilever --method fem` entry point.
//!
//! ```
//! use xpbd_core::cantilever::Cantilever;
//! use xpbd_fem_reference::{solve_cantilever_static, MaterialKind};
//! let beam = Cantilever { youngs: 1e7, ..Cantilever::default() };
//! let sol = solve_cantilever_static(&beam, MaterialKind::StableNeoHookean, 2, 8).unwrap();
//! assert!(sol.tip_displacement_z < 0.0);
//! assert!(*sol.residual_history.last().unwrap() < 1e-6);
//! ```

pub mod assembly;
pub mod cantilever;
pub mod dynamics;
pub mod element;
pub mod error;
pub mod fem_mesh;
pub mod linear_solver;
pub mod material;
pub mod newton;
pub mod problem;
pub mod static_solver;

pub use cantilever::{
    CantileverSolution, cantilever_problem_2d, cantilever_problem_3d,
    cantilever_problem_3d_with_mesh, first_natural_frequency, solve_cantilever_static,
    solve_cantilever_static_2d,
};
pub use dynamics::BackwardEuler;
pub use element::ElementOrder;
pub use error::FemError;
pub use fem_mesh::FemMesh;
pub use material::{ConstitutiveModel, MaterialKind};
pub use newton::{NewtonSettings, NewtonStats, TangentKind};
pub use problem::Problem;
pub use static_solver::{StaticSettings, StaticSolution, solve_static, solve_static_from};
