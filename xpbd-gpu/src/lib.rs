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
//! Implemented kinds: distance, dihedral bending, tetrahedral volume; plane and sphere
//! colliders with Coulomb friction ([`Collider`]). Not implemented on the GPU: kinematic
//! targets and residual/energy diagnostics (typed `Unsupported` errors), the other
//! constraint kinds of xpbd-core (not representable in [`SceneBlock`]), and XPBI beyond two
//! building blocks: the neighbour grid ([`grid`]) the 3×3 SVD ([`svd`]) and the von Mises /
//! Drucker–Prager return mappings ([`plasticity`]).

pub mod backend;
pub mod context;
pub mod error;
pub mod grid;
pub mod layout;
mod pipelines;
pub mod plasticity;
pub mod scene;
pub mod shaders;
pub mod simulation;
pub mod svd;
pub mod xpbi;
pub mod xpbi_scene;

pub use backend::{ContactConstraints, CpuBackend, StepBackend};
pub use context::{AdapterRequest, GpuContext, context_for_test};
pub use error::GpuError;
pub use scene::{Collider, MAX_COLLIDERS, Scene, SceneBlock};
pub use simulation::GpuSimulation;
pub use xpbi::GpuXpbi;
pub use xpbi_scene::{Plane, XpbiGpuScene};
