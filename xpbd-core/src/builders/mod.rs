//! Scene builders: cloth grids, ropes, soft bodies from simplex meshes, OBJ import.
//!
//! Builders return plain data (particles and constraint kinds) that the caller adds to a
//! [`crate::Simulation`], so a scene can mix several of them.

pub mod cloth;
pub mod obj;
pub mod rope;
pub mod soft_body;

pub use cloth::{Cloth, ClothBending, ClothGrid};
pub use obj::{TriangleSurface, load_obj};
pub use rope::{Rope, RopeBuilder};
pub use soft_body::{SoftBody, soft_body_from_mesh, soft_body_from_simplices};
