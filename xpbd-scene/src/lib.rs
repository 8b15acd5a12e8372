//! # xpbd-scene
pub mod error;
pub mod export;
pub mod import;
pub mod scene;
pub use error::{CheckpointError, ExportError, ImportError, SceneError};
pub use scene::SceneFile;
pub mod build;
pub use build::{BuiltScene, build_scene};
pub mod checkpoint;
pub mod runner;
pub use checkpoint::Checkpoint;
pub use error::RunError;
