//! Device plumbing: adapter selection (honouring `WGPU_BACKEND`), device creation with the
//! limits this backend needs, and error recording instead of panicking.
//!
//! wgpu's default uncaptured-error handler panics. [`GpuContext`] installs one that records
//! the message, and a device-lost callback that records the reason; [`GpuContext::check`]
//! turns either into a [`GpuError`] at the next API call.

use std::sync::{Arc, Mutex};

use crate::GpuError;

/// Storage buffers bound by the XPBD kernels (layout.rs): 5 particle + 5 constraint buffers.
pub const REQUIRED_STORAGE_BUFFERS: u32 = 10;

/// Which adapters to accept, read from the environment by [`AdapterRequest::from_env`].
#[derive(Debug, Clone, PartialEq)]
pub struct AdapterRequest {
    /// Backends to search (`WGPU_BACKEND`, e.g. `vulkan`, `gl`, `vulkan,gl`; default all).
    pub backends: wgpu::Backends,
    /// Whether `backends` came from `WGPU_BACKEND` (then a GL adapter was asked for).
    pub explicit_backends: bool,
    /// `XPBD_REQUIRE_GPU=1`: a missing adapter or an unrequested GL fallback is an error
    /// instead of a skip.
    pub require_gpu: bool,
}

impl AdapterRequest {
    /// Reads `WGPU_BACKEND` and `XPBD_REQUIRE_GPU`.
    ///
    /// ```
    /// let r = xpbd_gpu::AdapterRequest::from_env();
    /// assert!(!r.backends.is_empty());
    /// ```
    pub fn from_env() -> Self {
        let env = wgpu::Backends::from_env();
        Self {
            backends: env.unwrap_or(wgpu::Backends::all()),
            explicit_backends: env.is_some(),
            require_gpu: std::env::var("XPBD_REQUIRE_GPU").is_ok_and(|v| v.trim() == "1"),
        }
    }
}

/// Checks that an adapter can bind the XPBD kernels' buffers.
///
/// ```
/// use xpbd_gpu::{GpuError, context::check_adapter_limits};
/// // WebGL2-class limits bind only 4 storage buffers per stage.
/// let low = wgpu::Limits::downlevel_defaults();
/// assert!(matches!(check_adapter_limits(&low), Err(GpuError::LimitTooLow { .. })));
/// ```
pub fn check_adapter_limits(limits: &wgpu::Limits) -> Result<(), GpuError> {
    if limits.max_storage_buffers_per_shader_stage < REQUIRED_STORAGE_BUFFERS {
        return Err(GpuError::LimitTooLow {
            limit: "max_storage_buffers_per_shader_stage",
            available: limits.max_storage_buffers_per_shader_stage as u64,
            required: REQUIRED_STORAGE_BUFFERS as u64,
        });
    }
    Ok(())
}

type Slot = Arc<Mutex<Option<String>>>;

/// An adapter, its device and queue, and the recorded errors.
#[derive(Debug)]
pub struct GpuContext {
    info: wgpu::AdapterInfo,
    device: wgpu::Device,
    queue: wgpu::Queue,
    limits: wgpu::Limits,
    uncaptured: Slot,
    lost: Slot,
}

fn record(slot: &Slot, message: String) {
    // A poisoned lock only means another recorder panicked; keep the first message.
    let mut guard = match slot.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    };
    guard.get_or_insert(message);
}

fn take(slot: &Slot) -> Option<String> {
    match slot.lock() {
        Ok(mut g) => g.take(),
        Err(p) => p.into_inner().take(),
    }
}

impl GpuContext {
    /// Opens a device as [`AdapterRequest::from_env`] says.
    pub fn from_env() -> Result<Self, GpuError> {
        Self::new(&AdapterRequest::from_env())
    }

    /// Picks an adapter among `request.backends` (no surface, default power preference),
    /// refuses the unrequested GL fallback when `request.require_gpu`, and opens a device
    /// with the adapter's own limits (wgpu's defaults allow only 8 storage buffers per stage).
    pub fn new(request: &AdapterRequest) -> Result<Self, GpuError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = request.backends;
        let instance = wgpu::Instance::new(desc);
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::None,
            force_fallback_adapter: false,
            compatible_surface: None,
            ..Default::default()
        }))
        .map_err(|e| GpuError::NoAdapter {
            backends: format!("{:?}", request.backends),
            reason: e.to_string(),
        })?;
        let info = adapter.get_info();
        if info.backend == wgpu::Backend::Gl && !request.explicit_backends {
            if request.require_gpu {
                return Err(GpuError::GlFallback {
                    adapter: info.name.clone(),
                });
            }
            eprintln!(
                "xpbd-gpu: warning: running on the OpenGL fallback adapter {:?}; no Vulkan driver was found",
                info.name
            );
        }
        let limits = adapter.limits();
        check_adapter_limits(&limits)?;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("xpbd-gpu"),
            required_features: wgpu::Features::empty(),
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .map_err(|e| GpuError::RequestDevice {
            adapter: info.name.clone(),
            reason: e.to_string(),
        })?;
        let uncaptured: Slot = Arc::default();
        let lost: Slot = Arc::default();
        {
            let slot = uncaptured.clone();
            device
                .on_uncaptured_error(Arc::new(move |e: wgpu::Error| record(&slot, e.to_string())));
            let slot = lost.clone();
            device.set_device_lost_callback(move |reason, message| {
                record(&slot, format!("{reason:?}: {message}"))
            });
        }
        Ok(Self {
            info,
            device,
            queue,
            limits,
            uncaptured,
            lost,
        })
    }

    /// The adapter's description (name, backend, device type, driver).
    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        &self.info
    }

    /// One line naming the adapter, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) [Vulkan, Cpu, Mesa 22.3.6]`.
    pub fn describe(&self) -> String {
        format!(
            "{} [{:?}, {:?}, {}]",
            self.info.name, self.info.backend, self.info.device_type, self.info.driver_info
        )
    }

    /// The device.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The limits the device was opened with.
    pub fn limits(&self) -> &wgpu::Limits {
        &self.limits
    }

    /// Destroys the device (all later work fails with [`GpuError::DeviceLost`]); for testing
    /// the device-lost path.
    pub fn destroy_device(&self) {
        self.device.destroy();
    }

    /// Reports a recorded device loss or uncaptured wgpu error (and clears the latter).
    pub fn check(&self) -> Result<(), GpuError> {
        if let Ok(g) = self.lost.lock()
            && let Some(m) = g.as_ref()
        {
            return Err(GpuError::DeviceLost(m.clone()));
        }
        match take(&self.uncaptured) {
            Some(m) => Err(GpuError::Wgpu(m)),
            None => Ok(()),
        }
    }

    /// Runs `f` inside a validation + out-of-memory error scope and returns its value, or
    /// the first error raised inside.
    pub(crate) fn scoped<T>(&self, f: impl FnOnce() -> T) -> Result<T, GpuError> {
        self.check()?;
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let value = f();
        let v = pollster::block_on(validation.pop());
        let o = pollster::block_on(oom.pop());
        if let Some(e) = v.or(o) {
            return Err(GpuError::Wgpu(e.to_string()));
        }
        self.check()?;
        Ok(value)
    }

    /// Copies `bytes` bytes at `offset` of `src` (a buffer with `COPY_SRC` usage) to the
    /// host, after all work submitted so far: the one read-back of the crate.
    pub fn read_buffer(
        &self,
        src: &wgpu::Buffer,
        offset: u64,
        bytes: u64,
    ) -> Result<Vec<u8>, GpuError> {
        if bytes == 0 {
            return Ok(Vec::new());
        }
        let size = bytes.next_multiple_of(4);
        let staging = self.scoped(|| {
            self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("read-back"),
                size,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        })?;
        let mut enc = self.device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(src, offset, &staging, 0, Some(size));
        self.scoped(|| self.queue.submit([enc.finish()]))?;
        let slice = staging.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.wait()?;
        let failed = |e: &dyn std::fmt::Display| GpuError::Wgpu(format!("read-back: {e}"));
        rx.recv().map_err(|e| failed(&e))?.map_err(|e| failed(&e))?;
        let mut out = slice.get_mapped_range().map_err(|e| failed(&e))?.to_vec();
        staging.unmap();
        out.truncate(bytes as usize);
        Ok(out)
    }

    /// Waits for all submitted work.
    pub(crate) fn wait(&self) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| match e {
                wgpu::PollError::Timeout => GpuError::Wgpu(format!("poll: {e}")),
                _ => GpuError::DeviceLost(e.to_string()),
            })?;
        self.check()
    }
}

/// What a GPU test should do: run on a context, or skip (prints why).
///
/// Without an adapter this prints a skip message and returns `Ok(None)`, unless
/// `XPBD_REQUIRE_GPU=1`, which makes it an error. With an adapter it prints the adapter's
/// name with the test's name, so every GPU test log says where it ran.
///
/// ```
/// match xpbd_gpu::context_for_test("doctest") {
///     Ok(Some(ctx)) => assert!(!ctx.adapter_info().name.is_empty()),
///     Ok(None) => {} // no adapter: skipped
///     Err(e) => panic!("{e}"), // XPBD_REQUIRE_GPU=1 and no usable adapter
/// }
/// ```
pub fn context_for_test(test: &str) -> Result<Option<GpuContext>, GpuError> {
    let request = AdapterRequest::from_env();
    match GpuContext::new(&request) {
        Ok(ctx) => {
            eprintln!("[{test}] GPU adapter: {}", ctx.describe());
            Ok(Some(ctx))
        }
        Err(e @ GpuError::NoAdapter { .. }) if !request.require_gpu => {
            eprintln!("[{test}] SKIPPED: {e} (set XPBD_REQUIRE_GPU=1 to make this a failure)");
            Ok(None)
        }
        Err(e) => Err(e),
    }
}
