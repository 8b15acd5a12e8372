//! Checkpoints, frames and runs: the library's own writers (`xpbd_scene::checkpoint`,
//! `xpbd_scene::runner`), so the files are those `cargo xtask run` writes.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Instant;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use xpbd_scene::error::FrameError;
use xpbd_scene::runner::{self, FrameStepper, RunSource};
use xpbd_scene::{BuiltScene, Checkpoint};

use crate::errors::{checkpoint_error, export_error, run_error};
use crate::scene::{CHUNK, Scene};

/// Ctrl-C during a run, as the frame error that stops `runner::run_with`.
#[derive(Debug)]
struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

/// A scene stepped by `run_with` without the GIL, that checks for signals between steps
/// (re-taking the GIL briefly) and stops the run with the signal's exception.
struct Interruptible<'a> {
    scene: &'a mut BuiltScene,
    signal: Option<PyErr>,
    last_check: Instant,
}

impl FrameStepper for Interruptible<'_> {
    fn built(&self) -> &BuiltScene {
        self.scene
    }

    fn advance_frame(&mut self) -> Result<(), FrameError> {
        for _ in 0..self.scene.scene.time.steps_per_frame {
            self.scene.step()?;
            if self.last_check.elapsed() > CHUNK {
                self.last_check = Instant::now();
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    self.signal = Some(e);
                    return Err(FrameError::Backend {
                        backend: "python",
                        source: Box::new(Interrupted),
                    });
                }
            }
        }
        self.scene.frame += 1;
        Ok(())
    }
}

#[pymethods]
impl Scene {
    /// Writes a bit-exact checkpoint to ``path`` (atomically): the scene text, every particle
    /// field, the multipliers and each block's state (XPBI's F and hardening), with SHA-256
    /// fingerprints of the text and of the mesh files. ``CheckpointError`` on failure.
    fn save_checkpoint(&self, path: PathBuf) -> PyResult<()> {
        self.checkpoint().save(&path).map_err(checkpoint_error)
    }

    /// The checkpoint ``save_checkpoint`` writes, as bytes.
    fn checkpoint_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.checkpoint().to_bytes())
    }

    /// Rebuilds a scene from a checkpoint file and restores its state exactly: stepping it
    /// continues bit for bit as the saved scene would have. Checks the format version, the
    /// checksum and the fingerprints of the scene text and mesh files first
    /// (``CheckpointError``, naming the file).
    #[staticmethod]
    fn load_checkpoint(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        py.detach(|| Checkpoint::load(&path).and_then(restore))
            .map_err(checkpoint_error)
    }

    /// ``load_checkpoint`` from bytes (``checkpoint_bytes()``).
    #[staticmethod]
    fn from_checkpoint_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
        let data = data.to_vec();
        py.detach(|| Checkpoint::from_bytes(&data).and_then(restore))
            .map_err(checkpoint_error)
    }

    /// Writes the current frame into the folder ``out`` (created if missing) in every format
    /// of the scene's ``[output] formats``, as ``cargo xtask run`` names them
    /// (``frame_NNNNN.vtk``, ``.ply``, ``.obj``, NNNNN = ``frame``). Returns the paths written.
    /// No ``run.json`` is written (``run`` writes one). ``XpbdIOError`` on failure.
    fn write_frame(&self, out: PathBuf) -> PyResult<Vec<PathBuf>> {
        runner::prepare_dir(&out).map_err(export_error)?;
        runner::write_frame(&self.built, &out).map_err(export_error)
    }

    /// Runs the scene from its current frame to ``frames`` and writes what ``cargo xtask run
    /// SCENE --out OUT`` writes: frame 0 (when starting there) and every ``[output] every``-th
    /// frame, ``run.json`` after each frame, and with ``checkpoint_every`` a checkpoint
    /// ``checkpoint_NNNNN.ckpt`` every that many frames. The folder is locked for the run.
    /// Without the GIL; Ctrl-C stops it between steps (``KeyboardInterrupt``; the files and
    /// ``run.json`` written so far are those of the completed frames).
    ///
    /// Returns a dict: ``frames`` (completed), ``files`` and ``checkpoints`` (written by this
    /// call), ``seconds`` (wall time). Errors: ``StepError`` (a frame failed),
    /// ``XpbdIOError`` (a file, or the folder in use), ``CheckpointError``.
    #[pyo3(signature = (out, checkpoint_every = None))]
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        out: PathBuf,
        checkpoint_every: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let every = match checkpoint_every {
            None => None,
            Some(k) => Some(
                NonZeroUsize::new(k)
                    .ok_or_else(|| PyValueError::new_err("checkpoint_every must be at least 1"))?,
            ),
        };
        let (text, path) = (self.text.as_str(), self.path.as_path());
        let mut stepper = Interruptible {
            scene: &mut self.built,
            signal: None,
            last_check: Instant::now(),
        };
        let start = Instant::now();
        let result = py.detach(|| {
            let source = RunSource {
                path,
                text,
                checkpoint_every: every,
            };
            runner::run_with(&mut stepper, &out, Some(source), |_| {})
        });
        if let Some(signal) = stepper.signal.take() {
            return Err(signal);
        }
        let outcome = result.map_err(run_error)?;
        let d = PyDict::new(py);
        d.set_item("frames", outcome.manifest.completed)?;
        d.set_item("files", outcome.files)?;
        d.set_item("checkpoints", outcome.checkpoints)?;
        d.set_item("seconds", start.elapsed().as_secs_f64())?;
        Ok(d)
    }
}

impl Scene {
    fn checkpoint(&self) -> Checkpoint {
        Checkpoint::capture(&self.built, &self.text, &self.path)
    }
}

/// The scene a checkpoint restores, with its text and path.
fn restore(c: Checkpoint) -> Result<Scene, xpbd_scene::CheckpointError> {
    let built = c.restore()?;
    Ok(Scene {
        built,
        text: c.scene_text,
        path: c.scene_path,
    })
}
