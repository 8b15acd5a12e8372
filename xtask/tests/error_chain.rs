//! Errors as `cargo xtask` prints them (`main` returns `anyhow::Result`: the message, then
//! `Caused by:` and each source) name each cause once: a GPU world's failed step used to print
//! the device's message twice, once in `gpu step failed: …` and again as its source.

use xpbd_gpu::GpuError;
use xpbd_scene::{FrameError, RunError};

/// What `cargo xtask run` prints for `e` (a `main` returning `Err(e)`), and the `{:#}` form.
fn printed(e: anyhow::Error) -> [String; 2] {
    [format!("Error: {e:?}"), format!("{e:#}")]
}

#[test]
fn a_gpu_step_failure_prints_the_device_error_once() {
    for gpu in [
        GpuError::DeviceLost("VK_ERROR_DEVICE_LOST after a driver reset".into()),
        GpuError::Wgpu("Validation Error: buffer of 64 bytes is too small".into()),
        GpuError::NonFiniteState {
            what: "position",
            steps: 12,
        },
    ] {
        let detail = gpu.to_string();
        let run = RunError::Step {
            frame: 4,
            source: FrameError::Backend {
                backend: "gpu",
                source: Box::new(gpu),
            },
        };
        for text in printed(anyhow::Error::from(run)) {
            assert_eq!(text.matches(&detail).count(), 1, "{text}");
            assert_eq!(text.matches("gpu step failed").count(), 1, "{text}");
            assert!(text.contains("frame 4 failed"), "{text}");
        }
    }
}
