//! Scene builders: cloth grids, ropes, soft bodies from simplex meshes, triangle surfaces.
//! They take in-memory data; mesh files are read by xpbd-scene's `import` module.
//!
//! Builders return plain data (particles and constraint kinds) that the caller adds to a
//! [`crate::Simulation`], so a scene can mix several of them.

pub mod cloth;
pub mod rope;
pub mod soft_body;
pub mod surface;

pub use cloth::{Cloth, ClothBending, ClothGrid};
pub use rope::{Rope, RopeBuilder};
pub use soft_body::{SoftBody, soft_body_from_mesh, soft_body_from_simplices};
pub use surface::TriangleSurface;
