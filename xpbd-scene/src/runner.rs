//! Running a scene and writing its frames, its checkpoints and its manifest.
//!
//! Every file is written atomically ([`crate::export::write_atomic`]: a temporary file in the
//! same folder, then renamed), so a failed write leaves no truncated frame. The output folder
//! holds a [`RunManifest`] (`run.json`), rewritten after every frame, that lists exactly the
//! frames and checkpoints of the run: frames left in the folder by an earlier, longer run are
//! not in it, and `cargo xtask view` plays only what it lists.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::build::BuiltScene;
pub use crate::build::FrameStepper;
use crate::checkpoint::{Checkpoint, hex};
use crate::error::{ExportError, RunError};
use crate::export::{write_atomic, write_obj, write_ply_with_fields, write_vtk};
use crate::scene::Format;

/// The manifest's file name in an output folder.
pub const MANIFEST: &str = "run.json";
/// The manifest's `format` field.
pub const MANIFEST_FORMAT: &str = "xpbd-scene run 1";

/// `DIR/frame_NNNNN.EXT`.
pub fn frame_path(dir: &Path, frame: usize, ext: &str) -> PathBuf {
    dir.join(format!("frame_{frame:05}.{ext}"))
}

/// `DIR/checkpoint_NNNNN.ckpt`.
pub fn checkpoint_path(dir: &Path, frame: usize) -> PathBuf {
    dir.join(format!("checkpoint_{frame:05}.ckpt"))
}

/// The files written for one frame, by name inside the output folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrittenFrame {
    /// The simulation frame number.
    pub frame: usize,
    /// File names (no folder), one per output format.
    pub files: Vec<String>,
}

/// `DIR/run.json`: the record of the run that wrote DIR's frames.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunManifest {
    /// Always [`MANIFEST_FORMAT`].
    pub format: String,
    /// The scene file, when the run was given one.
    pub scene: Option<PathBuf>,
    /// Hex SHA-256 of the scene text, when known: a resumed run keeps the frames listed by an
    /// earlier run in the folder only if it ran the same text.
    pub scene_sha256: Option<String>,
    /// The scene's `name`.
    pub name: String,
    /// Frames the scene runs to (`time.frames`).
    pub frames: usize,
    /// Frames completed so far (equals `frames` once the run has finished).
    pub completed: usize,
    /// Frames written, in frame order.
    pub written: Vec<WrittenFrame>,
    /// Checkpoints written (frame and file name), in frame order.
    pub checkpoints: Vec<WrittenFrame>,
    /// The scene's bodies, in particle order (empty in manifests written before bodies were
    /// recorded): what a viewer colours by body.
    #[serde(default)]
    pub bodies: Vec<ManifestBody>,
}

/// A body as the manifest records it: its name, kind and particles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestBody {
    /// Its name (`name` in the scene file, else its field, `cloth[0]`).
    pub name: String,
    /// `cloth`, `rope`, `solid` or `continuum`.
    pub kind: String,
    /// Its first particle in the frame files.
    pub first: usize,
    /// Its number of particles.
    pub count: usize,
    /// Its particles' contact radius against other bodies (m): what a viewer draws a free
    /// particle's sphere with.
    pub radius: f64,
}

impl ManifestBody {
    /// The manifest's record of each of `scene`'s bodies.
    pub fn of(scene: &BuiltScene) -> Vec<Self> {
        scene
            .bodies
            .iter()
            .map(|b| ManifestBody {
                name: b.name.clone(),
                kind: b.kind.label().into(),
                first: b.particles.start,
                count: b.particles.len(),
                radius: b.radius,
            })
            .collect()
    }
}

impl RunManifest {
    /// Reads and checks `DIR/run.json`: the format marker, and that every listed file is a
    /// plain name inside DIR.
    pub fn load(dir: &Path) -> Result<Self, ExportError> {
        let file = dir.join(MANIFEST);
        let bad = |message: String| ExportError::Manifest {
            file: file.clone(),
            message,
        };
        let text = std::fs::read_to_string(&file).map_err(|e| bad(e.to_string()))?;
        let m: Self = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        if m.format != MANIFEST_FORMAT {
            return Err(bad(format!(
                "format `{}`, expected `{MANIFEST_FORMAT}`",
                m.format
            )));
        }
        let names = m
            .written
            .iter()
            .chain(&m.checkpoints)
            .flat_map(|w| &w.files);
        if let Some(n) = names
            .into_iter()
            .find(|n| Path::new(n).file_name() != Some(n.as_ref()))
        {
            return Err(bad(format!("`{n}` is not a file name inside the folder")));
        }
        Ok(m)
    }

    /// Writes `DIR/run.json` atomically.
    pub fn save(&self, dir: &Path) -> Result<(), ExportError> {
        let file = dir.join(MANIFEST);
        let text = serde_json::to_string_pretty(self).map_err(|e| ExportError::Manifest {
            file: file.clone(),
            message: e.to_string(),
        })?;
        write_atomic(&file, text.as_bytes()).map_err(|e| ExportError::Io {
            file,
            message: e.to_string(),
        })
    }

    /// The paths of the frames in `format`'s extension (`vtk`, `ply`, `obj`), in frame order.
    pub fn frame_files(&self, dir: &Path, ext: &str) -> Vec<(usize, PathBuf)> {
        self.written
            .iter()
            .filter_map(|w| {
                w.files
                    .iter()
                    .find(|f| Path::new(f).extension().is_some_and(|e| e == ext))
                    .map(|f| (w.frame, dir.join(f)))
            })
            .collect()
    }
}

/// An output folder held by one run: an exclusive advisory lock (`flock`) on `DIR/.run.lock`,
/// taken before anything is written and released, with the file removed, when the run ends
/// (an aborted run's lock is released by the operating system, so a stale file does not
/// block). A second run into the same folder, in this process or another, is refused with
/// [`RunError::FolderInUse`] instead of overwriting the first run's frames and record.
#[derive(Debug)]
pub struct OutputLock {
    file: std::fs::File,
    path: PathBuf,
}

impl OutputLock {
    /// The lock file's name inside the output folder.
    pub const FILE: &'static str = ".run.lock";

    /// Locks `dir` (which must exist), or refuses if another run holds it.
    ///
    /// ```
    /// use xpbd_scene::runner::OutputLock;
    /// let dir = std::env::temp_dir().join(format!("xpbd-lock-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let held = OutputLock::acquire(&dir).unwrap();
    /// assert!(OutputLock::acquire(&dir).is_err()); // a second run into the same folder
    /// drop(held);
    /// assert!(OutputLock::acquire(&dir).is_ok());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn acquire(dir: &Path) -> Result<Self, RunError> {
        let path = dir.join(Self::FILE);
        let io = |e: std::io::Error| {
            RunError::Export(ExportError::Io {
                file: path.clone(),
                message: e.to_string(),
            })
        };
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {
                remove_stale_temporaries(dir);
                Ok(Self { file, path })
            }
            Err(std::fs::TryLockError::WouldBlock) => Err(RunError::FolderInUse {
                dir: dir.to_path_buf(),
                lock: path,
            }),
            Err(std::fs::TryLockError::Error(e)) => Err(io(e)),
        }
    }
}

/// Removes the temporary files of atomic writes ([`crate::export::write_atomic`]:
/// `.NAME.tmp-PID-N`) that a killed run left in `dir`. Only the holder of the folder's lock
/// calls it, so no other run is writing one.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if crate::export::is_atomic_temporary(&name) && entry.path().is_file() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Remove first, then unlock by closing: a run starting in between finds the old file
        // locked or no file at all, never an unlocked file about to vanish under it.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Makes `dir` a folder to write into: creates it (and its parents) if missing; refuses a path
/// that is a file, or lies under one, with the path ([`ExportError::NotADirectory`]).
pub fn prepare_dir(dir: &Path) -> Result<(), ExportError> {
    for (k, a) in dir.ancestors().enumerate() {
        if a.as_os_str().is_empty() {
            break;
        }
        match std::fs::metadata(a) {
            Ok(m) if m.is_dir() => break,
            Ok(_) => {
                return Err(ExportError::NotADirectory {
                    file: a.to_path_buf(),
                });
            }
            // Missing, or under a file (ENOTDIR): look at the parent.
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) => {}
            Err(e) if k == 0 => {
                return Err(ExportError::Io {
                    file: a.to_path_buf(),
                    message: e.to_string(),
                });
            }
            Err(_) => break,
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| ExportError::Io {
        file: dir.to_path_buf(),
        message: e.to_string(),
    })
}

/// Writes the current frame in every format of the scene's `[output]` section.
pub fn write_frame(scene: &BuiltScene, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
    let p = scene.sim.particles();
    let mut written = Vec::new();
    for f in &scene.scene.output.formats {
        let path = match f {
            Format::Vtk => {
                let path = frame_path(dir, scene.frame, "vtk");
                let title = format!("{} t={}", scene.scene.name, scene.time());
                write_vtk(&path, &title, &scene.topology, p, &scene.particle_fields())?;
                path
            }
            Format::Ply => {
                let path = frame_path(dir, scene.frame, "ply");
                write_ply_with_fields(&path, &scene.topology, p, &scene.particle_fields())?;
                path
            }
            Format::Obj => {
                let path = frame_path(dir, scene.frame, "obj");
                write_obj(&path, &scene.topology, p)?;
                path
            }
        };
        written.push(path);
    }
    written.extend(crate::export::rigid::write_rigid_frame(scene, dir)?);
    Ok(written)
}

/// The scene file a run was built from, for its manifest and its checkpoints.
#[derive(Debug, Clone, Copy)]
pub struct RunSource<'a> {
    /// The scene file (mesh paths are relative to its folder).
    pub path: &'a Path,
    /// Its text, exactly as the scene was built from.
    pub text: &'a str,
    /// Write `DIR/checkpoint_NNNNN.ckpt` every this many frames.
    pub checkpoint_every: Option<NonZeroUsize>,
}

/// What [`run_with`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    /// The manifest as last written.
    pub manifest: RunManifest,
    /// Frame files written by this call.
    pub files: usize,
    /// Checkpoints written by this call.
    pub checkpoints: usize,
}

fn names(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect()
}

/// Runs the scene from its current frame to `scene.time.frames`, writing frame 0 (when
/// starting there) and every `output.every`-th frame into `dir`, the checkpoints `source`
/// asks for, and `dir/run.json` after each. A run from frame 0 starts a new manifest; a resumed
/// run keeps the frames ≤ its start that the folder's manifest lists for the same scene text.
/// `on_frame(frame)` is called after each frame (for a progress bar).
pub fn run_with<S: FrameStepper + ?Sized>(
    stepper: &mut S,
    dir: &Path,
    source: Option<RunSource<'_>>,
    mut on_frame: impl FnMut(usize),
) -> Result<RunOutcome, RunError> {
    prepare_dir(dir)?;
    let _lock = OutputLock::acquire(dir)?;
    let scene = stepper.built();
    let sha = source.map(|s| hex(&Sha256::digest(s.text.as_bytes())));
    let start = scene.frame;
    let mut manifest = RunManifest {
        format: MANIFEST_FORMAT.into(),
        scene: source.map(|s| s.path.to_path_buf()),
        scene_sha256: sha.clone(),
        name: scene.scene.name.clone(),
        frames: scene.scene.time.frames,
        completed: start,
        written: Vec::new(),
        checkpoints: Vec::new(),
        bodies: ManifestBody::of(scene),
    };
    if start > 0
        && let Ok(old) = RunManifest::load(dir)
        && sha.is_some()
        && old.scene_sha256 == sha
    {
        manifest.written = old
            .written
            .into_iter()
            .filter(|w| w.frame <= start)
            .collect();
        manifest.checkpoints = (old.checkpoints.into_iter())
            .filter(|w| w.frame <= start)
            .collect();
    }
    manifest.save(dir)?;
    let (mut files, mut checkpoints) = (0, 0);
    let every = scene.scene.output.every;
    if start == 0 {
        let written = write_frame(scene, dir)?;
        files += written.len();
        manifest.written.push(WrittenFrame {
            frame: 0,
            files: names(&written),
        });
        manifest.save(dir)?;
    }
    while stepper.built().frame < stepper.built().scene.time.frames {
        let frame = stepper.built().frame + 1;
        stepper
            .advance_frame()
            .map_err(|source| RunError::Step { frame, source })?;
        let scene = stepper.built();
        manifest.completed = scene.frame;
        if scene.frame.is_multiple_of(every) {
            let written = write_frame(scene, dir)?;
            files += written.len();
            manifest.written.push(WrittenFrame {
                frame,
                files: names(&written),
            });
        }
        if let Some(s) = source
            && let Some(k) = s.checkpoint_every
            && scene.frame.is_multiple_of(k.get())
        {
            let path = checkpoint_path(dir, frame);
            Checkpoint::capture(scene, s.text, s.path).save(&path)?;
            checkpoints += 1;
            manifest.checkpoints.push(WrittenFrame {
                frame,
                files: names(&[path]),
            });
        }
        manifest.save(dir)?;
        on_frame(scene.frame);
    }
    Ok(RunOutcome {
        manifest,
        files,
        checkpoints,
    })
}

/// [`run_with`] without a scene file (no checkpoints); returns the number of frame files
/// written.
pub fn run(
    scene: &mut BuiltScene,
    dir: &Path,
    on_frame: impl FnMut(usize),
) -> Result<usize, RunError> {
    run_with(scene, dir, None, on_frame).map(|o| o.files)
}
