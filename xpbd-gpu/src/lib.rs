//! # xpbd-gpu
//!
//! A portable GPU backend for XPBD on wgpu compute (Vulkan, Metal, DX12, GL, WebGPU), f32 on
//! the device, with the step semantics of the CPU path (`xpbd_core::Simulation`):
//! substeps, multiplier reset, Gauss-Seidel / coloured Gauss-Seidel / Jacobi sweeps,
//! `v = (x − x_prev)/h`, damping, fault detection with rollback. See `simulation` for
//! the kernel sequence and `shaders/xpbd.wgsl` for the maths.
//!
//! Both backends are built from one [`Scene`](testing::Scene) and driven through [`StepBackend`](testing::StepBackend), so the
//! same tests run on both:
//!
//! ```
//! use std::sync::Arc;
//! use xpbd_core::builders::ClothGrid;
//! use xpbd_gpu::context_for_test;
//! use xpbd_gpu::testing::{Scene, SceneBlock, StepBackend};
//! let cloth = ClothGrid::<3> { nx: 4, ny: 4, pinned: vec![(0, 3), (3, 3)], ..ClothGrid::default() }
//!     .build().unwrap();
//! let scene = Scene::new(cloth.particles, Default::default())
//!     .with_block(SceneBlock::Distance(cloth.stretch));
//! let mut backends: Vec<Box<dyn StepBackend>> = vec![Box::new(scene.cpu().unwrap())];
//! if let Some(ctx) = context_for_test("lib doctest").unwrap() {
//!     backends.push(Box::new(scene.gpu(Arc::new(ctx)).unwrap()));
//! }
//! for b in &mut backends {
//!     b.step(1.0 / 60.0).unwrap();
//!     assert!(b.positions().unwrap()[0].z < 0.0, "{}", b.backend_name()); // free corner falls
//! }
//! ```
//!
//! Device problems are typed [`GpuError`]s, never panics: no adapter, the unrequested GL
//! fallback under `XPBD_REQUIRE_GPU=1`, limits, buffers too large, device lost, wgpu
//! validation errors (recorded by an uncaptured-error handler).
//!
//! Implemented kinds: distance, dihedral and isometric bending, tetrahedral volume, stable
//! neo-Hookean tetrahedra; planes, spheres, boxes, capsules and signed-distance grids with
//! Coulomb friction and restitution ([`SceneCollider`](testing::SceneCollider), [`KinematicCollider`](testing::KinematicCollider)). Not implemented on the GPU:
//! kinematic targets of XPBD particles and residual/energy diagnostics (typed `Unsupported`
//! errors).
//!
//! A whole scene description runs on the [`GpuWorld`] ([`world`]): XPBD bodies, up to three
//! XPBI continua and water in one step, touching each other through the core's body and
//! point–triangle contacts (`bodies`), built from an `xpbd_scene::Assembly`
//! ([`GpuWorld::from_assembly`]) and written out by the CPU's frame driver. The world is the
//! one door; the device steps below it are in [`testing`], for this crate's tests and
//! benchmarks.
//!
//! XPBI (3D) runs on the GPU through `testing::GpuXpbi` (`xpbi`, `shaders/xpbi.wgsl`): neighbour grid
//! by counting sort (`grid`), L_p by the f32 SVD pseudo-inverse (`svd`), corrected kernel
//! gradients frozen for the step, the per-particle constraint with all five return mappings in
//! the loop (`plasticity`: elastic, von Mises, Drucker–Prager, NACC, Herschel–Bulkley; a
//! table of up to eight materials per body), the
//! Jacobi (gather) or coloured Gauss-Seidel (3³ cell colours) sweep, static colliders (planes,
//! spheres, boxes, capsules, signed-distance grids) with the core's Coulomb friction, the position correction, XSPH and the F update; its input is an
//! `testing::XpbiGpuScene`, usually taken from a CPU `xpbi_continuum::scene::ContinuumScene<3>`:
//!
//! ```
//! use std::sync::Arc;
//! use xpbi_continuum::{Material, scene::{ContinuumScene, SceneOptions, lattice_box}};
//! use xpbd_gpu::context_for_test;
//! use xpbd_gpu::testing::{GpuXpbi, XpbiGpuScene};
//! let x = lattice_box(nalgebra::Vector3::zeros(), nalgebra::Vector3::new(0.04, 0.04, 0.08), 0.01);
//! let mut o = SceneOptions::new(0.01);
//! o.solver = xpbd_core::SolverKind::JACOBI;
//! let cpu = ContinuumScene::<3>::new(&x, Material::sand(), o).unwrap();
//! let desc = XpbiGpuScene::from_cpu(&cpu).unwrap();
//! // Both paths behind the common interface.
//! let mut backends: Vec<Box<dyn xpbd_gpu::testing::StepBackend>> = vec![Box::new(cpu)];
//! if let Some(ctx) = context_for_test("xpbi doctest").unwrap() {
//!     backends.push(Box::new(GpuXpbi::new(Arc::new(ctx), &desc).unwrap()));
//! }
//! for b in &mut backends {
//!     b.step(1e-4).unwrap();
//!     assert!(b.velocities().unwrap()[0].z < 0.0, "{}", b.backend_name()); // gravity
//! }
//! ```

mod audit;
mod backend;
mod bodies;
pub mod context;
pub mod error;
mod fluid;
mod grid;
mod kinematic;
mod layout;
mod pipelines;
mod plasticity;
mod scene;
mod sdf;
mod shaders;
mod simulation;
mod svd;
pub mod world;
mod xpbi;
mod xpbi_device;
mod xpbi_layout;
mod xpbi_scene;

pub use context::{AdapterRequest, GpuContext, context_for_test};
pub use error::{GpuError, SceneFailure};
pub use scene::MAX_COLLIDERS;
pub use world::GpuWorld;
pub use xpbi_scene::MAX_GPU_MATERIALS;

/// The device steps and kernels below the [`GpuWorld`], public for this crate's tests and
/// benchmarks (one kernel or one step set against the CPU): not an interface to build on; a
/// scene runs through [`GpuWorld`].
pub mod testing {
    pub use crate::backend::{CpuBackend, StepBackend, core_contacts};
    pub use crate::grid::neighbours;
    pub use crate::kinematic::{KinematicCollider, kinematic_colliders};
    pub use crate::layout::{check_limits, isometric_factor, pack};
    pub use crate::plasticity::{return_map_batch, return_map_batch_dt};
    pub use crate::scene::{Scene, SceneBlock, SceneCollider};
    pub use crate::simulation::GpuSimulation;
    pub use crate::svd::svd3_batch;
    pub use crate::xpbi::GpuXpbi;
    pub use crate::xpbi_scene::XpbiGpuScene;
}

pub(crate) use backend::{CpuBackend, StepBackend};
pub(crate) use kinematic::{KinematicCollider, kinematic_colliders};
pub(crate) use scene::{Scene, SceneBlock, SceneCollider};
pub(crate) use simulation::GpuSimulation;
pub(crate) use xpbi::GpuXpbi;
pub(crate) use xpbi_scene::XpbiGpuScene;
