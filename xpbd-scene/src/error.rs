//! Typed errors. Every variant names the file, the field or element and the bad value.

use std::path::PathBuf;

/// A scene file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The file could not be read.
    #[error("{file}: cannot read: {message}")]
    Io {
        /// The scene file.
        file: PathBuf,
        /// The OS error.
        message: String,
    },
    /// TOML syntax error or a value of the wrong type / an unknown field, located by toml's span.
    #[error("{file}:{line}:{column}: field `{field}`: {message}")]
    Syntax {
        /// The scene file.
        file: PathBuf,
        /// 1-based line (0 when toml gave no span).
        line: usize,
        /// 1-based column (0 when toml gave no span).
        column: usize,
        /// Dotted path of the offending field (`.` = the document), from `serde_path_to_error`.
        field: String,
        /// toml's message (names the bad value or the unknown key).
        message: String,
    },
    /// A value that parses but is out of range (NaN, negative density, zero frames, ...).
    #[error("{}{}: field `{field}` = {value}: {reason}", file.display(), at(*line))]
    InvalidValue {
        /// The scene file.
        file: PathBuf,
        /// 1-based line of the field (0 when not known, e.g. a value left at its default).
        line: usize,
        /// Dotted path, e.g. `cloth[0].nx` or `materials.cotton.youngs`.
        field: String,
        /// The bad value, as written.
        value: String,
        /// What it must be.
        reason: &'static str,
    },
    /// A body refers to a material that the `[materials]` table does not define.
    #[error("{}{}: field `{field}`: unknown material `{name}`", file.display(), at(*line))]
    UnknownMaterial {
        /// The scene file.
        file: PathBuf,
        /// 1-based line of the field (0 when not known).
        line: usize,
        /// Dotted path of the reference.
        field: String,
        /// The name used.
        name: String,
    },
    /// An `[[interaction]]` names a body that the scene does not have.
    #[error(
        "{}{}: field `{field}`: unknown body `{name}` (the bodies are {known:?})",
        file.display(),
        at(*line)
    )]
    UnknownBody {
        /// The scene file.
        file: PathBuf,
        /// 1-based line of the field (0 when not known).
        line: usize,
        /// Dotted path of the reference, e.g. `interaction[0].bodies[1]`.
        field: String,
        /// The name used.
        name: String,
        /// The names the scene's bodies have.
        known: Vec<String>,
    },
    /// Two bodies that touch start inside each other: particles closer than their contact
    /// distance, which the contacts would push apart in one substep.
    #[error(
        "{file}: {field} particle {particle} and {other} particle {other_particle} start \
         {distance:e} m apart, closer than their contact distance {required:e} m (bodies that \
         touch must not overlap; move one, or turn their contact off with an [[interaction]])"
    )]
    Overlap {
        /// The scene file.
        file: PathBuf,
        /// The first body's field.
        field: String,
        /// The other body's field.
        other: String,
        /// The first body's particle (index within the body).
        particle: usize,
        /// The other body's particle (index within the body).
        other_particle: usize,
        /// Their distance (m).
        distance: f64,
        /// Their contact distance r_p + r_q (m).
        required: f64,
    },
    /// A particle's centre starts inside a collider's solid, which the contact would push
    /// out through the whole depth in one substep.
    #[error(
        "{file}: {field} particle {particle} starts inside {collider}, {} m below its surface \
         (contact radius {required:e} m; a body must start outside every collider; move the \
         body or the collider)",
        -distance
    )]
    InsideCollider {
        /// The scene file.
        file: PathBuf,
        /// The body's field.
        field: String,
        /// The particle (index within the body).
        particle: usize,
        /// The collider's field, e.g. `collider[0]`.
        collider: String,
        /// The particle's signed distance to the collider's surface (m; < 0 inside).
        distance: f64,
        /// The particle's contact radius (m).
        required: f64,
    },
    /// A particle of a body that touches a cloth starts inside the cloth's thickness.
    #[error(
        "{file}: {other} particle {other_particle} starts {distance:e} m from a triangle of \
         {field}, closer than their contact distance {required:e} m (bodies that touch must not \
         overlap; move one, or turn their contact off with an [[interaction]])"
    )]
    InsideSheet {
        /// The scene file.
        file: PathBuf,
        /// The cloth's field.
        field: String,
        /// The other body's field.
        other: String,
        /// The other body's particle (index within the body).
        other_particle: usize,
        /// Its distance from the closest triangle (m).
        distance: f64,
        /// The contact distance r_point + r_cloth (m).
        required: f64,
    },
    /// A mesh file referenced by the scene failed to import.
    #[error("{file}: field `{field}`: the mesh file cannot be imported")]
    Import {
        /// The scene file.
        file: PathBuf,
        /// Dotted path of the `path` field.
        field: String,
        /// What the importer said.
        #[source]
        source: crate::import::ImportError,
    },
    /// The core rejected a body, constraint or setting built from the scene.
    #[error("{file}: {field}: rejected by xpbd-core")]
    Build {
        /// The scene file.
        file: PathBuf,
        /// Which part of the scene (e.g. `cloth[0]`, `solver`).
        field: String,
        /// The core's error.
        #[source]
        source: xpbd_core::BuildError,
    },
    /// xpbi-continuum rejected a continuum's material or settings, or its particles (too close,
    /// non-finite).
    #[error("{file}: {field}: rejected by xpbi-continuum")]
    Continuum {
        /// The scene file.
        file: PathBuf,
        /// Which part of the scene (e.g. `continuum[0].material`).
        field: String,
        /// xpbi-continuum's error (names the parameter or particle and the value); boxed, as
        /// it is large and rare.
        #[source]
        source: Box<xpbi_continuum::XpbiError>,
    },
    /// The scene asks for more computation per frame or per run than
    /// [`crate::budget::MAX_WORK_PER_FRAME`] / [`crate::budget::MAX_WORK_PER_RUN`]
    /// ([`crate::budget::WorkEstimate`]): refused before anything is built.
    #[error(
        "{}: {what} would take about {work:.2e} particle projections, over the bound {limit:.0e} (hours per frame, months per run on one core): {factors}",
        file.display()
    )]
    TooMuchWork {
        /// The scene file.
        file: PathBuf,
        /// `a frame` or `the run`.
        what: &'static str,
        /// The estimate (particle projections).
        work: f64,
        /// The bound.
        limit: f64,
        /// Every factor, with its field and value.
        factors: String,
    },
    /// The scene would allocate more memory than the machine has available
    /// ([`crate::budget`]): refused before anything is allocated.
    #[error(
        "{}: the scene would allocate about {}, more than the {} available (largest part: field `{field}` = {value}, about {})",
        file.display(),
        human_bytes(*total),
        human_bytes(*available as f64),
        human_bytes(*part)
    )]
    TooLarge {
        /// The scene file.
        file: PathBuf,
        /// The field that sizes the largest part (e.g. `cloth[0].resolution`).
        field: String,
        /// Its value, as written.
        value: String,
        /// The largest part's estimate (bytes).
        part: f64,
        /// The whole scene's estimate (bytes).
        total: f64,
        /// The memory available when the scene was built (bytes).
        available: u64,
    },
    /// A rigid body or joint the rigid-body module rejected (a degenerate inertia, an open
    /// mesh, a bad friction or restitution).
    #[error("{file}: {field}: {source}")]
    Rigid {
        /// The scene file.
        file: PathBuf,
        /// Which part of the scene (e.g. `rigid[1]`).
        field: String,
        /// The rigid-body module's error.
        #[source]
        source: Box<xpbd_core::rigid::RigidError>,
    },
    /// The contact module rejected a collider or the contact settings.
    #[error("{file}: {field}: rejected by the contact module")]
    Contact {
        /// The scene file.
        file: PathBuf,
        /// Which part of the scene (e.g. `collider[1]`).
        field: String,
        /// The contact module's error.
        #[source]
        source: xpbd_core::contact::ContactError,
    },
    /// The mesh of a `region = { mesh = … }` does not bound a solid: it is open, non-manifold
    /// or inconsistently oriented (the closedness check of mesh colliders), or has a
    /// degenerate triangle.
    #[error(
        "{file}: field `{field}` = {mesh}: the mesh does not bound a solid (it must be closed \
         and consistently oriented)"
    )]
    MeshRegion {
        /// The scene file.
        file: PathBuf,
        /// Dotted path of the region's `path` field (e.g. `continuum[0].region.mesh.path`).
        field: String,
        /// The mesh file, as resolved against the scene file's folder.
        mesh: PathBuf,
        /// What the closedness check said (boxed: the error stays small).
        #[source]
        source: Box<xpbd_core::contact::ContactError>,
    },
    /// A description that TOML cannot represent (only an invalid one: validation refuses
    /// non-finite numbers first).
    #[error("the scene description cannot be written as TOML: {message}")]
    Unrepresentable {
        /// toml's message.
        message: String,
    },
    /// A feature that only the frame driver [`crate::BuiltScene::step`] moves, asked of a
    /// bare [`xpbd_core::Simulation`] ([`crate::FromDesc`]), where it would stand still.
    #[error(
        "field `{field}`: {feature} move only under the scene's frame driver; build a `BuiltScene` (`BuiltScene::from_desc`) instead of a bare `Simulation`"
    )]
    NeedsFrameDriver {
        /// The field that asks for it (e.g. `continuum[0].grips`).
        field: String,
        /// What it is.
        feature: &'static str,
    },
}

/// A frame that could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The file could not be written.
    #[error("{file}: cannot write: {message}")]
    Io {
        /// The path.
        file: PathBuf,
        /// The OS error.
        message: String,
    },
    /// The output path exists and is not a folder (`--out` naming a file, or a file where a
    /// parent folder should be).
    #[error("{file}: not a folder (the output of a run must be a folder)")]
    NotADirectory {
        /// The path.
        file: PathBuf,
    },
    /// A run manifest (`run.json`, [`crate::runner::RunManifest`]) that is missing, unreadable
    /// or not valid.
    #[error("{file}: run manifest: {message}")]
    Manifest {
        /// The manifest's path.
        file: PathBuf,
        /// What is wrong (the OS or JSON error).
        message: String,
    },
    /// The format library refused the data.
    #[error("{file}: {format} writer failed: {message}")]
    Writer {
        /// The path.
        file: PathBuf,
        /// `vtk`, `ply`.
        format: &'static str,
        /// What it said.
        message: String,
    },
}

/// A checkpoint that cannot be written, read or applied.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("{file}: {message}")]
    Io {
        /// The path.
        file: PathBuf,
        /// The OS error.
        message: String,
    },
    /// Not a checkpoint, a truncated one, or one of another format version.
    #[error("malformed checkpoint: {message}")]
    Malformed {
        /// What postcard or the header check said.
        message: String,
    },
    /// The checkpoint was written by a different scene (other particle count or scene text).
    #[error(
        "checkpoint does not match the scene: {what}: checkpoint has {found}, scene has {expected}"
    )]
    Mismatch {
        /// What differs.
        what: &'static str,
        /// In the checkpoint.
        found: String,
        /// In the scene.
        expected: String,
    },
    /// The saved state contains NaN or infinite values.
    #[error("checkpoint particle {particle}: non-finite {field}")]
    NonFinite {
        /// Particle index.
        particle: usize,
        /// `x`, `x_prev`, `v`, `inv_mass`, `force`, `kinematic_target`.
        field: &'static str,
    },
    /// A block refused its saved multipliers or state (wrong length, non-finite value).
    #[error("checkpoint block {block} ({name}) refused its saved state")]
    Block {
        /// Index of the block in `Simulation::blocks()`.
        block: usize,
        /// The block's kind name.
        name: &'static str,
        /// The core's error (names the field and value).
        #[source]
        source: xpbd_core::BuildError,
    },
    /// The saved simulation time is NaN or infinite.
    #[error("checkpoint simulation time {value} is not finite")]
    NonFiniteTime {
        /// The saved time.
        value: f64,
    },
    /// The file's format version is not the one this build reads (the header's version
    /// number, right after the magic).
    #[error("{file}: checkpoint format version {found}, this build reads version {supported}")]
    UnsupportedVersion {
        /// The checkpoint.
        file: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version this build writes and reads.
        supported: u32,
    },
    /// The SHA-256 stored at the end of the file is not the one of the bytes before it (a
    /// flipped or edited byte anywhere in the file).
    #[error("{file}: checkpoint checksum mismatch: stored SHA-256 {stored}, computed {computed}")]
    Checksum {
        /// The checkpoint.
        file: PathBuf,
        /// Hex SHA-256 stored in the file.
        stored: String,
        /// Hex SHA-256 of the bytes read.
        computed: String,
    },
    /// Bytes after the end of the checkpoint (after its checksum, or after the encoded state).
    #[error("{file}: {extra} trailing bytes after the end of the checkpoint")]
    TrailingBytes {
        /// The checkpoint.
        file: PathBuf,
        /// How many.
        extra: usize,
    },
    /// A scene file given with the checkpoint (`run SCENE --resume CKPT`) whose text is not the
    /// one the checkpoint was written from.
    #[error(
        "{scene}: this scene file is not the one {checkpoint} was written from \
         ({checkpoint_scene}; SHA-256 of the text {found}, the checkpoint's {expected})"
    )]
    SceneMismatch {
        /// The checkpoint.
        checkpoint: PathBuf,
        /// The scene file given.
        scene: PathBuf,
        /// The scene file recorded in the checkpoint.
        checkpoint_scene: PathBuf,
        /// Hex SHA-256 of the given scene file's bytes.
        found: String,
        /// Hex SHA-256 of the checkpoint's scene text.
        expected: String,
    },
    /// A mesh file the scene references is not the one the checkpoint was written with (edited,
    /// replaced, or the scene now lists other meshes).
    #[error("{mesh}: mesh file changed since the checkpoint was written: {what}")]
    MeshChanged {
        /// The mesh file (resolved against the scene file's folder).
        mesh: PathBuf,
        /// What differs (`SHA-256 abc… ≠ def…`, `not readable when the checkpoint was written`,
        /// `not listed in the checkpoint`).
        what: String,
    },
    /// Rebuilding the scene stored in the checkpoint failed.
    #[error(transparent)]
    Scene(#[from] SceneError),
}

/// A frame that could not be completed; the scene keeps the state of its last good step.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// A step failed and was rolled back by the core (names particle and constraint), or was
    /// refused before it ran: a substep over a block's bound (XPBI's CFL bound
    /// `cfl · Δx / max|v|`) is `StepError::TimeStepOverBound`, naming the block, the bound and
    /// the fastest particle.
    #[error(transparent)]
    Step(#[from] xpbd_core::StepError),
    /// Another backend's step failed (a GPU world: device lost, a refused or diverged step);
    /// the backend keeps the state of its last good step. What failed is the `source()`, not
    /// part of this message, so an error chain prints it once.
    #[error("{backend} step failed")]
    Backend {
        /// The backend, e.g. "gpu".
        backend: &'static str,
        /// What failed.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// A scene run that stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A frame failed; the frame it happened in.
    #[error("frame {frame} failed")]
    Step {
        /// Frame being computed.
        frame: usize,
        /// What failed (a rolled-back step or the CFL check).
        #[source]
        source: FrameError,
    },
    /// A frame could not be written.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A checkpoint could not be written.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// Another run is writing into the same output folder (it holds `lock`); two runs into one
    /// folder would overwrite each other's frames and record.
    #[error(
        "output folder {dir} is in use by another run (it holds {lock}); wait for it to finish or choose another folder"
    )]
    FolderInUse {
        /// The output folder.
        dir: PathBuf,
        /// The lock file the other run holds.
        lock: PathBuf,
    },
}

/// `":LINE"` for a known line, nothing for 0.
fn at(line: usize) -> String {
    if line > 0 {
        format!(":{line}")
    } else {
        String::new()
    }
}

impl SceneError {
    /// Fills in the line of the field an error names, from the scene text (errors found after
    /// parsing carry the field path; this finds where the file writes it).
    pub fn locate(mut self, text: &str) -> Self {
        match &mut self {
            Self::InvalidValue { field, line, .. }
            | Self::UnknownMaterial { field, line, .. }
            | Self::UnknownBody { field, line, .. }
                if *line == 0 =>
            {
                *line = line_of_field(text, field);
            }
            _ => {}
        }
        self
    }
}

/// `1.5 GB`-style text (powers of 1000).
pub(crate) fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut v = bytes;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    if u == 0 {
        format!("{v:.0} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

impl SceneError {
    /// `map_err` of a core build error of `field` in `file`.
    pub(crate) fn build_at(
        file: &std::path::Path,
        field: String,
    ) -> impl FnOnce(xpbd_core::BuildError) -> Self {
        let file = file.to_path_buf();
        move |source| SceneError::Build {
            file,
            field,
            source,
        }
    }

    /// `map_err` of a core contact error of `field` in `file`.
    pub(crate) fn contact_at(
        file: &std::path::Path,
        field: String,
    ) -> impl FnOnce(xpbd_core::contact::ContactError) -> Self {
        let file = file.to_path_buf();
        move |source| SceneError::Contact {
            file,
            field,
            source,
        }
    }
}

/// The line of `field` in the scene text (0: not found, or read without the `files` feature).
#[cfg(feature = "files")]
fn line_of_field(text: &str, field: &str) -> usize {
    crate::locate::field_line(text, field).unwrap_or(0)
}

/// The line of `field` in the scene text (0: not found, or read without the `files` feature).
#[cfg(not(feature = "files"))]
fn line_of_field(_text: &str, _field: &str) -> usize {
    0
}
