//! The range checks of a scene file: [`Validator`] collects the first bad value, with its field
//! path, as a typed [`SceneError`]; [`sections`] checks each section of the description.

use std::path::Path;

use crate::error::SceneError;

pub(crate) mod rigid;
pub(crate) mod sections;

/// The largest coordinate or length (m, and the largest component of any vector) a scene file
/// accepts: at 10⁸ m f64 still resolves 10⁻⁸ m, and squared lengths stay far from overflow.
pub const MAX_COORDINATE: f64 = 1e8;

/// Collects the first range error.
pub(crate) struct Validator<'a> {
    file: &'a Path,
    err: Option<SceneError>,
}

impl<'a> Validator<'a> {
    /// No error yet.
    pub(crate) fn new(file: &'a Path) -> Self {
        Self { file, err: None }
    }
    /// The first error, if any.
    pub(crate) fn finish(self) -> Result<(), SceneError> {
        match self.err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
    pub(crate) fn check_text(
        &mut self,
        field: &str,
        value: String,
        ok: bool,
        reason: &'static str,
    ) {
        if !ok && self.err.is_none() {
            self.err = Some(SceneError::InvalidValue {
                file: self.file.to_path_buf(),
                line: 0,
                field: field.to_string(),
                value,
                reason,
            });
        }
    }
    pub(crate) fn check(&mut self, field: &str, value: f64, ok: bool, reason: &'static str) {
        self.check_text(field, value.to_string(), ok, reason);
    }
    pub(crate) fn positive(&mut self, field: &str, value: f64) {
        self.check(
            field,
            value,
            value.is_finite() && value > 0.0,
            "must be finite and > 0",
        );
    }
    pub(crate) fn count(&mut self, field: &str, value: usize) {
        self.check(field, value as f64, value >= 1, "must be >= 1");
    }
    pub(crate) fn count_at_most(
        &mut self,
        field: &str,
        value: usize,
        (max, reason): (usize, &'static str),
    ) {
        self.count(field, value);
        self.check(field, value as f64, value <= max, reason);
    }
    /// A name that is written into file headers (VTK titles, manifests): one line of
    /// printable text.
    pub(crate) fn name(&mut self, field: &str, value: &str) {
        self.check_text(
            field,
            format!("{value:?}"),
            !value.chars().any(char::is_control),
            "must be one line of text without control characters (it is written into file headers)",
        );
    }
    /// Records `err` unless an earlier error is recorded.
    pub(crate) fn fail(&mut self, err: SceneError) {
        if self.err.is_none() {
            self.err = Some(err);
        }
    }
    /// The scene file.
    pub(crate) fn file(&self) -> &Path {
        self.file
    }
    pub(crate) fn non_negative(&mut self, field: &str, value: f64) {
        self.check(
            field,
            value,
            value.is_finite() && value >= 0.0,
            "must be finite and >= 0",
        );
    }
    /// A position, velocity or other vector: finite, each component within
    /// [`MAX_COORDINATE`] (beyond, squares overflow and f64 cannot resolve a particle).
    pub(crate) fn finite3(&mut self, field: &str, value: [f64; 3]) {
        let ok = value
            .iter()
            .all(|c| c.is_finite() && c.abs() <= MAX_COORDINATE);
        self.check_text(
            field,
            format!("{value:?}"),
            ok,
            "every component must be finite with magnitude <= 1e8",
        );
    }
    /// A length (m): finite, > 0 and at most [`MAX_COORDINATE`].
    pub(crate) fn length(&mut self, field: &str, value: f64) {
        self.check(
            field,
            value,
            value.is_finite() && value > 0.0 && value <= MAX_COORDINATE,
            "must be a length in (0, 1e8] m",
        );
    }
}
