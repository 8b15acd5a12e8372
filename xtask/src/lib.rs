//! Library half of `cargo xtask`: the cantilever drivers and the convergence study, shared by the
//! `cargo xtask` binary and by the quick-tier integration test (`tests/`), so that the figures
//! pinned in CI and the figures in the report come from the same code.
//!
//! * [`beam`]: one cantilever run by any method (FEM oracle, XPBD tets with three solvers, XPBI
//!   particles with two) producing a [`beam::RunResult`] (one JSON line of `cargo xtask
//!   cantilever`).
//! * [`study`]: the cantilever convergence study (sweeps over iterations, substeps, Δt and
//!   resolution at each Young's modulus) and its JSON result.
//! * [`fit`]: least-squares slopes on log–log data (observed orders).
//! * [`fuzz`]: the stable structured fuzzer of the scene files and mesh importers.

pub mod beam;
pub mod dam_break_3d;
pub mod fit;
pub mod fuzz;
pub mod study;
