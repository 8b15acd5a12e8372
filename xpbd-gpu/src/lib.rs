//! # xpbd-gpu
//!
//! A portable GPU backend for XPBD on wgpu compute (Vulkan, Metal, DX12, GL, WebGPU), f32 on
//! the device, with the step semantics of the CPU path (`xpbd_core::Simulation`):
//! substeps, multiplier reset, Gauss-Seidel / coloured Gauss-Seidel / Jacobi sweeps,
//! `v = (x − x_prev)/h`, damping, fault detection with rollback. See [`simulation`] for
//! the kernel sequence and `shaders/xpbd.wgsl` for the maths.
//!
//! Both backends are built from one [`Scene`] and driven through [`StepBackend`], so the
//! same tests run on both:
//!
//! ```
//! use std::sync::Arc;
//! use xpbd_core::builders::ClothGrid;
//! use xpbd_gpu::{Scene, SceneBlock, StepBackend, context_for_test};
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
//! Coulomb friction and restitution ([`SceneCollider`], [`KinematicCollider`]). Not implemented on the GPU:
//! kinematic targets of XPBD particles and residual/energy diagnostics (typed `Unsupported`
//! errors).
//!
//! A whole scene description runs on the [`GpuWorld`] ([`world`]): XPBD bodies, up to three
//! XPBI continua and water in one step, touching each other through the core's body and
//! point–triangle contacts ([`bodies`]), built from `xpbd_scene::BuiltScene` and written out by
//! the CPU's frame driver.
//!
//! XPBI (3D) runs on the GPU through [`GpuXpbi`] ([`xpbi`], `shaders/xpbi.wgsl`): neighbour grid
//! by counting sort ([`grid`]), L_p by the f32 SVD pseudo-inverse ([`svd`]), corrected kernel
//! gradients frozen for the step, the per-particle constraint with all five return mappings in
//! the loop ([`plasticity`]: elastic, von Mises, Drucker–Prager, NACC, Herschel–Bulkley; a
//! table of up to eight materials per body), the
//! Jacobi (gather) or coloured Gauss-Seidel (3³ cell colours) sweep, static colliders (planes,
//! spheres, boxes, capsules, signed-distance grids) with the core's Coulomb friction, the position correction, XSPH and the F update; its input is an
//! [`XpbiGpuScene`], usually taken from a CPU `xpbi_continuum::scene::ContinuumScene<3>`:
//!
//! ```
//! use std::sync::Arc;
//! use xpbi_continuum::{Material, scene::{ContinuumScene, SceneOptions, lattice_box}};
//! use xpbd_gpu::{GpuXpbi, XpbiGpuScene, context_for_test};
//! let x = lattice_box(nalgebra::Vector3::zeros(), nalgebra::Vector3::new(0.04, 0.04, 0.08), 0.01);
//! let mut o = SceneOptions::new(0.01);
//! o.solver = xpbd_core::SolverKind::JACOBI;
//! let cpu = ContinuumScene::<3>::new(&x, Material::sand(), o).unwrap();
//! let desc = XpbiGpuScene::from_cpu(&cpu).unwrap();
//! // Both paths behind the common interface.
//! let mut backends: Vec<Box<dyn xpbd_gpu::StepBackend>> = vec![Box::new(cpu)];
//! if let Some(ctx) = context_for_test("xpbi doctest").unwrap() {
//!     backends.push(Box::new(GpuXpbi::new(Arc::new(ctx), &desc).unwrap()));
//! }
//! for b in &mut backends {
//!     b.step(1e-4).unwrap();
//!     assert!(b.velocities().unwrap()[0].z < 0.0, "{}", b.backend_name()); // gravity
//! }
//! ```

mod audit;
pub mod backend;
pub mod bodies;
pub mod context;
pub mod error;
mod fluid;
pub mod grid;
pub mod kinematic;
pub mod layout;
mod pipelines;
pub mod plasticity;
pub mod scene;
mod sdf;
pub mod shaders;
pub mod simulation;
pub mod svd;
pub mod world;
pub mod xpbi;
mod xpbi_device;
mod xpbi_layout;
pub mod xpbi_scene;

pub use backend::{CpuBackend, StepBackend, core_contacts};
pub use context::{AdapterRequest, GpuContext, context_for_test};
pub use error::GpuError;
pub use kinematic::{KinematicCollider, kinematic_colliders};
pub use scene::{MAX_COLLIDERS, Scene, SceneBlock, SceneCollider};
pub use simulation::GpuSimulation;
pub use world::GpuWorld;
pub use xpbi::GpuXpbi;
pub use xpbi_scene::{MAX_GPU_MATERIALS, MAX_XPBI_COLLIDERS, XpbiGpuScene};
