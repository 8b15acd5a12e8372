//! `xpbd.Scene`: building a scene from a file, TOML text or a dict, and stepping it with the
//! GIL released and Ctrl-C checked between chunks of steps.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use xpbd_scene::{BuiltScene, SceneDesc, build_scene};

use crate::convert;
use crate::errors::{SceneError, frame_error, scene_error};

/// How long one chunk of steps runs without the GIL before Ctrl-C is checked.
pub(crate) const CHUNK: Duration = Duration::from_millis(50);

/// A built scene: its simulation (CPU, f64) and the text it was built from.
///
/// Build one with ``Scene.from_file``, ``Scene.from_toml``, ``Scene.from_dict`` or
/// ``Scene.load_checkpoint``. Stepping (``step``, ``advance``, ``advance_frame``, ``run``)
/// releases the GIL; while it runs, other threads may run Python code but calls on the same
/// scene raise ``RuntimeError`` (it is borrowed). A failed step is rolled back and raises
/// ``StepError``; Ctrl-C (``KeyboardInterrupt``) stops between steps. Either way the scene
/// keeps the state of its last completed step.
#[pyclass(module = "xpbd", name = "Scene")]
pub struct Scene {
    pub(crate) built: BuiltScene,
    /// The TOML text the scene was built from (stored in checkpoints).
    pub(crate) text: String,
    /// The file that text names (errors, mesh paths, checkpoints).
    pub(crate) path: PathBuf,
}

impl std::fmt::Debug for Scene {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scene")
            .field("name", &self.built.scene.name)
            .field("path", &self.path)
            .field("particles", &self.built.sim.particles().len())
            .field("frame", &self.built.frame)
            .finish_non_exhaustive()
    }
}

impl Scene {
    /// Parses and builds `text`, which `path` names in errors (and mesh paths are relative
    /// to); the GIL is released while building.
    pub(crate) fn build(py: Python<'_>, text: String, path: PathBuf) -> PyResult<Self> {
        let built = py
            .detach(|| {
                let desc = SceneDesc::parse(&text, &path)?;
                build_scene(desc, &path).map_err(|e| e.locate(&text))
            })
            .map_err(scene_error)?;
        Ok(Self { built, text, path })
    }

    /// Runs `n` steps, `CHUNK` at a time without the GIL, checking signals in between.
    /// `per_frame`: count a frame after every `steps_per_frame` steps. Returns the steps run.
    fn run_steps(&mut self, py: Python<'_>, n: usize, per_frame: bool) -> PyResult<usize> {
        let spf = self.built.scene.time.steps_per_frame.max(1);
        let mut done = 0;
        while done < n {
            let built = &mut self.built;
            let (k, result) = py.detach(|| {
                let start = Instant::now();
                let mut k = 0;
                while done + k < n {
                    if let Err(e) = built.step() {
                        return (k, Err(e));
                    }
                    k += 1;
                    if per_frame && (done + k).is_multiple_of(spf) {
                        built.frame += 1;
                    }
                    if start.elapsed() > CHUNK {
                        break;
                    }
                }
                (k, Ok(()))
            });
            done += k;
            result.map_err(frame_error)?;
            py.check_signals()?;
        }
        Ok(done)
    }
}

/// The number of steps of `dt` in `seconds`: a whole number (to 1e-6 of a step).
pub(crate) fn steps_in(seconds: f64, dt: f64) -> Result<usize, String> {
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(format!("seconds must be finite and >= 0, got {seconds}"));
    }
    let n = (seconds / dt).round();
    if (seconds / dt - n).abs() > 1e-6 || n > 1e12 {
        return Err(format!(
            "{seconds} s is not a whole number of steps of dt = {dt} s ({} steps); \
             advance by a multiple of dt, or call step()",
            seconds / dt
        ));
    }
    Ok(n as usize)
}

#[pymethods]
impl Scene {
    /// Loads, validates and builds a scene file (TOML, as ``cargo xtask run`` reads it).
    ///
    /// Raises ``SceneError`` naming the file, line, field and value of what is wrong.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let text = std::fs::read_to_string(&path).map_err(|e| {
            scene_error(xpbd_scene::SceneError::Io {
                file: path.clone(),
                message: e.to_string(),
            })
        })?;
        Self::build(py, text, path)
    }

    /// Builds a scene from TOML text (the scene file format).
    ///
    /// ``path`` names the text in error messages and checkpoints, and mesh paths are relative
    /// to its folder; default ``"<string>"``.
    #[staticmethod]
    #[pyo3(signature = (text, path = None))]
    fn from_toml(py: Python<'_>, text: String, path: Option<PathBuf>) -> PyResult<Self> {
        Self::build(py, text, path.unwrap_or_else(|| "<string>".into()))
    }

    /// Builds a scene from a dict with the fields of the TOML scene format (nested dicts for
    /// tables, lists of dicts for ``[[cloth]]`` etc.; values bool, int, float, str, lists,
    /// NumPy arrays).
    ///
    /// The dict is written as TOML text and parsed as a file is, so errors name the same
    /// fields; their line numbers are those of that text (``scene.to_toml()`` after a
    /// successful build). ``path`` as in ``from_toml``; default ``"<dict>"``.
    #[staticmethod]
    #[pyo3(signature = (d, path = None))]
    fn from_dict(py: Python<'_>, d: &Bound<'_, PyDict>, path: Option<PathBuf>) -> PyResult<Self> {
        let path = path.unwrap_or_else(|| "<dict>".into());
        let value = convert::to_toml(d.as_any(), "").map_err(|u| {
            let e = SceneError::new_err(format!(
                "{}: field `{}`: {}",
                path.display(),
                u.field,
                u.message
            ));
            let v = e.value(py);
            let _ = v.setattr("file", path.display().to_string());
            let _ = v.setattr("line", py.None());
            let _ = v.setattr("field", u.field);
            let _ = v.setattr("value", py.None());
            e
        })?;
        let text = toml::to_string(&value).map_err(|e| {
            scene_error(xpbd_scene::SceneError::Unrepresentable {
                message: e.to_string(),
            })
        })?;
        Self::build(py, text, path)
    }

    /// The TOML text the scene was built from (for ``from_dict``, the text the dict became).
    fn to_toml(&self) -> String {
        self.text.clone()
    }

    /// The scene description as a dict (the TOML text parsed; ``Scene.from_dict`` of it
    /// builds the same scene).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let table: toml::Table = self
            .text
            .parse()
            .map_err(|e: toml::de::Error| PyValueError::new_err(e.to_string()))?;
        convert::to_python(py, &toml::Value::Table(table))
    }

    /// The scene's ``name``.
    #[getter]
    fn name(&self) -> String {
        self.built.scene.name.clone()
    }

    /// The scene's ``description``.
    #[getter]
    fn description(&self) -> String {
        self.built.scene.description.clone()
    }

    /// The file (or ``"<string>"``, ``"<dict>"``) the scene was built from.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// The time step Δt (s) of ``step()`` (``[time] dt``; an adaptive scene takes it in
    /// smaller steps below its CFL bounds).
    #[getter]
    fn dt(&self) -> f64 {
        self.built.scene.time.dt
    }

    /// Steps per frame (``[time] steps_per_frame``).
    #[getter]
    fn steps_per_frame(&self) -> usize {
        self.built.scene.time.steps_per_frame
    }

    /// The frame count the scene runs to (``[time] frames``; what ``run`` stops at).
    #[getter]
    fn frames(&self) -> usize {
        self.built.scene.time.frames
    }

    /// Frames completed (``advance_frame``, ``run``, or the checkpoint's). ``step`` and
    /// ``advance`` do not change it.
    #[getter]
    fn frame(&self) -> usize {
        self.built.frame
    }

    /// Simulated time (s): the simulation clock, advanced by every step.
    #[getter]
    fn time(&self) -> f64 {
        self.built.sim.time()
    }

    /// Whether steps are adaptive (split below the blocks' CFL bounds).
    #[getter]
    fn adaptive(&self) -> bool {
        self.built.is_adaptive()
    }

    /// The number of particles (every body's, in body order).
    #[getter]
    fn num_particles(&self) -> usize {
        self.built.sim.particles().len()
    }

    /// Runs ``n`` steps of ``dt`` (default 1), without the GIL. Returns the steps run.
    ///
    /// Raises ``StepError`` if a step fails (that step is rolled back; the steps before it
    /// are kept) and ``KeyboardInterrupt`` on Ctrl-C (checked between steps).
    #[pyo3(signature = (n = 1))]
    fn step(&mut self, py: Python<'_>, n: usize) -> PyResult<usize> {
        self.run_steps(py, n, false)
    }

    /// Advances by ``seconds``, a whole number of steps of ``dt`` (``ValueError`` otherwise),
    /// without the GIL. Returns the steps run. Errors as ``step``.
    fn advance(&mut self, py: Python<'_>, seconds: f64) -> PyResult<usize> {
        let n = steps_in(seconds, self.built.scene.time.dt).map_err(PyValueError::new_err)?;
        self.run_steps(py, n, false)
    }

    /// Runs ``count`` frames (default 1) of ``steps_per_frame`` steps each and counts them in
    /// ``frame``, without the GIL. Errors as ``step``; an interrupted frame keeps its completed
    /// steps but is not counted.
    #[pyo3(signature = (count = 1))]
    fn advance_frame(&mut self, py: Python<'_>, count: usize) -> PyResult<usize> {
        let spf = self.built.scene.time.steps_per_frame.max(1);
        let n = count.checked_mul(spf).ok_or_else(|| {
            PyValueError::new_err(format!("{count} frames of {spf} steps is too many steps"))
        })?;
        self.run_steps(py, n, true)
    }

    fn __len__(&self) -> usize {
        self.built.sim.particles().len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<xpbd.Scene {:?}: {} particles, {} bodies, frame {}, t = {} s>",
            self.built.scene.name,
            self.built.sim.particles().len(),
            self.built.bodies.len(),
            self.built.frame,
            self.built.sim.time()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn whole_steps_only() {
        assert_eq!(steps_in(0.1, 1.0 / 60.0), Ok(6));
        assert_eq!(steps_in(0.0, 0.01), Ok(0));
        assert!(steps_in(0.015, 0.01).is_err());
        assert!(steps_in(-1.0, 0.01).is_err());
        assert!(steps_in(f64::NAN, 0.01).is_err());
    }

    /// The Python exception's message is the Rust error's `Display`, for a syntax error (line
    /// from toml's span) and a range error (line found by `SceneError::locate`).
    #[test]
    fn exception_text_is_the_rust_text() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes/hanging_chain.toml");
        let text = std::fs::read_to_string(&file).unwrap();
        let path = Path::new("scenes/bad.toml");
        let bad = [
            text.replace("[time]", "[time]\nfoo = 1"),
            text.replace("density = 7850.0", "density = -7850.0"),
        ];
        Python::initialize();
        for bad in bad {
            let rust = SceneDesc::parse(&bad, path)
                .and_then(|d| build_scene(d, path))
                .map(|_| ())
                .unwrap_err()
                .to_string();
            Python::attach(|py| {
                let err = Scene::build(py, bad.clone(), path.into()).unwrap_err();
                assert!(err.is_instance_of::<crate::errors::SceneError>(py));
                assert!(err.is_instance_of::<crate::errors::XpbdError>(py));
                assert_eq!(err.value(py).to_string(), rust);
            });
            assert!(rust.starts_with("scenes/bad.toml:"), "{rust}");
        }
    }
}
