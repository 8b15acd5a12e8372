//! The exception hierarchy: `xpbd.XpbdError` (a subclass of `Exception`) and one subclass per
//! kind of library error. Each exception's message is the Rust error's `Display`, followed by
//! its causes (`: cause`), as `anyhow` prints a chain with `{:#}`: the same text `cargo xtask
//! run` reports.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use xpbd_scene::error as rs;

create_exception!(
    xpbd,
    XpbdError,
    PyException,
    "Base class of every error raised by the xpbd library."
);
create_exception!(
    xpbd,
    SceneError,
    XpbdError,
    "A scene that cannot be read, parsed, validated or built. The message names the file, the \
     line and the field, and the bad value where there is one (the attributes `file`, `line`, \
     `field` and `value` hold them; absent ones are None)."
);
create_exception!(
    xpbd,
    StepError,
    XpbdError,
    "A step that failed (rolled back: the scene keeps the state of its last completed step), \
     or was refused before it ran (a time step over a block's CFL bound)."
);
create_exception!(
    xpbd,
    CheckpointError,
    XpbdError,
    "A checkpoint that cannot be written, read or restored (wrong format version, a changed \
     byte, another scene, a changed mesh file)."
);
create_exception!(
    xpbd,
    XpbdIOError,
    XpbdError,
    "A frame, a run manifest or an output folder that cannot be written, or an output folder \
     in use by another run."
);

/// The error's `Display`, then each `source()` in turn, joined by `": "`.
pub fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let s = c.to_string();
        if !text.ends_with(&s) {
            text.push_str(": ");
            text.push_str(&s);
        }
        cause = c.source();
    }
    text
}

/// The location fields of a scene error: file, line (None when unknown), field, value.
fn location(
    e: &rs::SceneError,
) -> (
    Option<String>,
    Option<usize>,
    Option<String>,
    Option<String>,
) {
    let line = |l: usize| (l > 0).then_some(l);
    let path = |p: &std::path::Path| Some(p.display().to_string());
    match e {
        rs::SceneError::Io { file, .. } => (path(file), None, None, None),
        rs::SceneError::Syntax {
            file,
            line: l,
            field,
            ..
        } => (path(file), line(*l), Some(field.clone()), None),
        rs::SceneError::InvalidValue {
            file,
            line: l,
            field,
            value,
            ..
        } => (
            path(file),
            line(*l),
            Some(field.clone()),
            Some(value.clone()),
        ),
        rs::SceneError::UnknownMaterial {
            file,
            line: l,
            field,
            name,
        }
        | rs::SceneError::UnknownBody {
            file,
            line: l,
            field,
            name,
            ..
        } => (
            path(file),
            line(*l),
            Some(field.clone()),
            Some(name.clone()),
        ),
        rs::SceneError::Overlap { file, field, .. }
        | rs::SceneError::InsideCollider { file, field, .. }
        | rs::SceneError::InsideSheet { file, field, .. }
        | rs::SceneError::Import { file, field, .. }
        | rs::SceneError::Build { file, field, .. }
        | rs::SceneError::Continuum { file, field, .. }
        | rs::SceneError::TooLarge { file, field, .. }
        | rs::SceneError::Contact { file, field, .. }
        | rs::SceneError::MeshRegion { file, field, .. } => {
            (path(file), None, Some(field.clone()), None)
        }
        rs::SceneError::TooMuchWork { file, .. } => (path(file), None, None, None),
        rs::SceneError::NeedsFrameDriver { field, .. } => (None, None, Some(field.clone()), None),
        _ => (None, None, None, None),
    }
}

/// `xpbd.SceneError` with the message and the `file`, `line`, `field`, `value` attributes.
pub fn scene_error(e: rs::SceneError) -> PyErr {
    let err = SceneError::new_err(chain(&e));
    let (file, line, field, value) = location(&e);
    Python::attach(|py| {
        let v = err.value(py);
        // Setting attributes on a fresh exception instance does not fail; if it ever did, the
        // exception keeps its message, which says the same.
        let _ = v.setattr("file", file);
        let _ = v.setattr("line", line);
        let _ = v.setattr("field", field);
        let _ = v.setattr("value", value);
    });
    err
}

/// `xpbd.StepError`.
pub fn frame_error(e: rs::FrameError) -> PyErr {
    StepError::new_err(chain(&e))
}

/// `xpbd.CheckpointError`.
pub fn checkpoint_error(e: rs::CheckpointError) -> PyErr {
    CheckpointError::new_err(chain(&e))
}

/// `xpbd.XpbdIOError`.
pub fn export_error(e: rs::ExportError) -> PyErr {
    XpbdIOError::new_err(chain(&e))
}

/// A run's error, by what failed: a frame (`StepError`), a checkpoint (`CheckpointError`), a
/// file or the folder (`XpbdIOError`).
pub fn run_error(e: rs::RunError) -> PyErr {
    let text = chain(&e);
    match e {
        rs::RunError::Step { .. } => StepError::new_err(text),
        rs::RunError::Checkpoint(_) => CheckpointError::new_err(text),
        _ => XpbdIOError::new_err(text),
    }
}

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("XpbdError", py.get_type::<XpbdError>())?;
    m.add("SceneError", py.get_type::<SceneError>())?;
    m.add("StepError", py.get_type::<StepError>())?;
    m.add("CheckpointError", py.get_type::<CheckpointError>())?;
    m.add("XpbdIOError", py.get_type::<XpbdIOError>())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_appends_causes_once() {
        let e = rs::FrameError::Step(xpbd_core::StepError::NonPositiveTimeStep { dt: -1.0 });
        // transparent: the Display is the source's own, printed once.
        assert_eq!(chain(&e), e.to_string());
        let run = rs::RunError::Step {
            frame: 2,
            source: rs::FrameError::Step(xpbd_core::StepError::NonPositiveTimeStep { dt: -1.0 }),
        };
        let text = chain(&run);
        assert!(text.starts_with("frame 2 failed: "), "{text}");
        assert!(text.ends_with(&e.to_string()), "{text}");
    }
}
