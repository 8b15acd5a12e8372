//! Typed errors of the GPU backend. Nothing in this crate panics on a device problem: the
//! caller gets one of these and the CPU path stays usable.

use thiserror::Error;
use xpbd_core::{BuildError, StepError};

/// What can go wrong building or stepping on the GPU.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GpuError {
    /// No adapter for the requested backends (no driver, no software Vulkan installed).
    #[error("no GPU adapter for backends {backends}: {reason}")]
    NoAdapter {
        /// The backends that were searched (e.g. `VULKAN | GL`).
        backends: String,
        /// wgpu's explanation.
        reason: String,
    },
    /// `XPBD_REQUIRE_GPU=1` and the only adapter is the OpenGL fallback, which nobody asked
    /// for with `WGPU_BACKEND=gl` (the silent fall-back of the lavapipe recipe, pitfall 1).
    #[error(
        "adapter {adapter:?} is the OpenGL fallback; install a Vulkan driver (mesa-vulkan-drivers) or set WGPU_BACKEND=gl explicitly"
    )]
    GlFallback {
        /// The adapter that was found.
        adapter: String,
    },
    /// `request_device` failed.
    #[error("cannot open device on {adapter:?}: {reason}")]
    RequestDevice {
        /// The adapter.
        adapter: String,
        /// wgpu's explanation.
        reason: String,
    },
    /// A device limit is below what the backend needs.
    #[error("device limit {limit} = {available} is below the required {required}")]
    LimitTooLow {
        /// Name of the `wgpu::Limits` field.
        limit: &'static str,
        /// What the device offers.
        available: u64,
        /// What the backend needs.
        required: u64,
    },
    /// A buffer is larger than the device can allocate or bind.
    #[error("buffer {buffer} needs {bytes} bytes, the device allows {limit} ({limit_name})")]
    BufferTooLarge {
        /// Which buffer.
        buffer: &'static str,
        /// Its size.
        bytes: u64,
        /// The device limit.
        limit: u64,
        /// Name of the `wgpu::Limits` field.
        limit_name: &'static str,
    },
    /// The device was lost (driver reset, `Device::destroy`, out of memory).
    #[error("device lost: {0}")]
    DeviceLost(String),
    /// A validation or out-of-memory error reported by wgpu (recorded by the uncaptured-error
    /// handler or an error scope instead of panicking).
    #[error("wgpu error: {0}")]
    Wgpu(String),
    /// The scene uses something the GPU backend does not implement.
    #[error("not supported on the GPU backend: {what} ({reason})")]
    Unsupported {
        /// The feature (e.g. `"kinematic target of particle 3"`).
        what: String,
        /// Why, or what to use instead.
        reason: &'static str,
    },
    /// A collider with invalid parameters.
    #[error("collider {index}: {field} = {value} is invalid: {reason}")]
    InvalidCollider {
        /// Position in the scene's collider list.
        index: usize,
        /// The field.
        field: &'static str,
        /// Its value.
        value: f64,
        /// The rule it breaks.
        reason: &'static str,
    },
    /// The scene description is invalid (same checks as the CPU path).
    #[error(transparent)]
    Build(#[from] BuildError),
    /// A collider or friction coefficient the core's contact model refuses.
    #[error(transparent)]
    Contact(#[from] xpbd_core::contact::ContactError),
    /// The step failed (non-finite or runaway state); the state was rolled back.
    #[error(transparent)]
    Step(#[from] StepError),
    /// The assembly could not be built into the host's mirror of the state (a scene error,
    /// with its file and field).
    #[error(transparent)]
    Scene(#[from] SceneFailure),
    /// An XPBI model or step check failed (material, settings, CFL bound), as on the CPU.
    #[error(transparent)]
    Xpbi(#[from] xpbi_continuum::XpbiError),
    /// The device state became non-finite (found by the per-step statistics pass, before the
    /// next step runs; the state is left as it is for inspection).
    #[error("non-finite {what} on the device after {steps} steps")]
    NonFiniteState {
        /// Which quantity (`"position"`, `"velocity"`).
        what: &'static str,
        /// Steps completed.
        steps: u64,
    },
    /// The continuum's material table has more entries than the GPU's
    /// (`xpbi_scene::MAX_GPU_MATERIALS`, 8), or none; the GPU refuses rather than merge or drop
    /// materials.
    #[error("the continuum has {materials} materials; the GPU XPBI path supports 1 to 8 per body")]
    SeveralMaterials {
        /// Entries of the CPU block's material table.
        materials: usize,
    },
}

/// A scene error inside a [`GpuError`] (shared, so that the GPU error stays `Clone`; equal when
/// their texts are).
#[derive(Debug, Clone)]
pub struct SceneFailure(pub std::sync::Arc<xpbd_scene::SceneError>);

impl PartialEq for SceneFailure {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

impl std::fmt::Display for SceneFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SceneFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl From<xpbd_scene::SceneError> for GpuError {
    fn from(e: xpbd_scene::SceneError) -> Self {
        Self::Scene(SceneFailure(std::sync::Arc::new(e)))
    }
}
