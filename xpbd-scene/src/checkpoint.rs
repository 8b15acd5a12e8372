//! Bit-exact checkpoints, checked before they are trusted.
//!
//! A [`Checkpoint`] stores the scene *text* (the construction is deterministic, so rebuilding
//! it gives the same constraints, rest shapes, colourings and colliders) plus everything that
//! evolves: every particle field as raw f64 bits, the frame counter, the simulation time, the
//! multipliers of every block (restored: with `solver.multiplier_warm_start` they carry over
//! into the next substep) and every block's own state
//! (`xpbd_core::constraint::ConstraintKind::save_state`: XPBI's deformation gradients Fⁿ,
//! hardening and volume-correction state).
//!
//! ## File format (version 3)
//!
//! | bytes        | content                                                         |
//! |--------------|-----------------------------------------------------------------|
//! | 0..8         | magic `XPBDCKPT`                                                |
//! | 8..12        | format version, u32 little-endian (this build: [`VERSION`])     |
//! | 12..20       | body length `n`, u64 little-endian                              |
//! | 20..20+n     | body: postcard encoding of [`Checkpoint`] (f64 as its 8 bytes)  |
//! | 20+n..52+n   | SHA-256 of bytes 0..20+n                                        |
//!
//! Reading refuses, with a typed [`CheckpointError`] naming the file: a missing magic or a
//! truncated file (`Malformed`), another version (`UnsupportedVersion`), bytes after the
//! checksum or after the body's encoding (`TrailingBytes`), and any changed byte
//! (`Checksum`). The body also holds fingerprints: the SHA-256 of the scene text and of every
//! mesh file the scene references ([`MeshFingerprint`]), which [`Checkpoint::restore`] checks
//! against the files on disk before rebuilding (`MeshChanged`), and which
//! [`Checkpoint::verify_scene_file`] checks against a scene file given with the checkpoint
//! (`SceneMismatch`).
//!
//! What is *not* stored, and why that is exact: data rebuilt from the positions at every
//! substep (contact candidates and friction budgets, XPBI neighbour lists, Vⁿ, L_p, kernel
//! weights and colourings, Jacobi counts); the colliders' poses are their block's state; the neighbour settings
//! (support, spacing, colour scheme) come from the scene text.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use xpbd_core::Vector;

use crate::build::{BuiltScene, build_scene};
use crate::error::CheckpointError;
use crate::scene::SceneDesc;

/// The first 8 bytes of every checkpoint file.
pub const MAGIC: [u8; 8] = *b"XPBDCKPT";
/// The format version this build writes and reads (bytes 8..12 of the file).
pub const VERSION: u32 = 3;
/// Magic, version and body length.
const HEADER: usize = 8 + 4 + 8;
/// SHA-256 at the end of the file.
const CHECKSUM: usize = 32;

/// The complete evolving state of a [`BuiltScene`], with the fingerprints of the files it was
/// built from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Format version.
    pub version: u32,
    /// The scene file's text.
    pub scene_text: String,
    /// SHA-256 of `scene_text` (checked by [`Checkpoint::restore`] and compared with a scene
    /// file by [`Checkpoint::verify_scene_file`]).
    pub scene_sha256: [u8; 32],
    /// Where the scene file was (mesh paths are relative to it).
    pub scene_path: PathBuf,
    /// Every mesh file the scene references, as it was when captured.
    pub meshes: Vec<MeshFingerprint>,
    /// Frames completed.
    pub frame: u64,
    /// `Simulation::time()` when saved (restored: moving colliders read it).
    pub sim_time: f64,
    /// Positions.
    pub x: Vec<[f64; 3]>,
    /// Positions at the start of the last substep.
    pub x_prev: Vec<[f64; 3]>,
    /// Velocities.
    pub v: Vec<[f64; 3]>,
    /// Inverse masses.
    pub inv_mass: Vec<f64>,
    /// Kinematic targets.
    pub kinematic_target: Vec<Option<[f64; 3]>>,
    /// External forces.
    pub force: Vec<[f64; 3]>,
    /// Multipliers of every block after the last substep.
    pub multipliers: Vec<Vec<f64>>,
    /// Every block's evolving state (`ConstraintSet::save_state`; empty for stateless kinds).
    pub block_state: Vec<Vec<f64>>,
}

/// A file a scene references (a `[[mesh]]` path, and the `.ele` beside a `.node`), resolved
/// against the scene file's folder, with the SHA-256 of its bytes when the checkpoint was
/// captured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeshFingerprint {
    /// The file (scene folder joined with the mesh path).
    pub path: PathBuf,
    /// SHA-256 of its bytes, or the OS error that kept it from being read.
    pub sha256: Result<[u8; 32], String>,
}

/// Lower-case hex of a digest.
pub fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// The files `scene` (loaded from `scene_path`) reads when built: every mesh collider's and
/// every `[[mesh]]` path, joined to the scene file's folder as `build_scene` does, and for
/// TetGen `.node` files the `.ele` beside it (as `import::import_mesh` reads it).
pub fn referenced_files(scene: &SceneDesc, scene_path: &Path) -> Vec<PathBuf> {
    let folder = scene_path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut files = Vec::new();
    for c in &scene.collider {
        if let crate::scene::ShapeSpec::Mesh { path, .. } = &c.shape {
            files.push(folder.join(path));
        }
    }
    for m in &scene.mesh {
        let path = folder.join(&m.path);
        let node = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("node"));
        files.push(path.clone());
        if node {
            files.push(path.with_extension("ele"));
        }
    }
    files.extend(
        crate::region::mesh_region_paths(scene)
            .into_iter()
            .map(|p| folder.join(p)),
    );
    files
}

/// Fingerprints of the files in `files` as they are now.
fn fingerprint(files: Vec<PathBuf>) -> Vec<MeshFingerprint> {
    files
        .into_iter()
        .map(|path| {
            let sha256 = std::fs::read(&path)
                .map(|b| sha256(&b))
                .map_err(|e| e.to_string());
            MeshFingerprint { path, sha256 }
        })
        .collect()
}

fn arr(v: &Vector<3>) -> [f64; 3] {
    [v.x, v.y, v.z]
}

fn vec3(a: &[f64; 3]) -> Vector<3> {
    Vector::<3>::new(a[0], a[1], a[2])
}

fn malformed(file: &Path, what: impl std::fmt::Display) -> CheckpointError {
    CheckpointError::Malformed {
        message: format!("{}: {what}", file.display()),
    }
}

impl Checkpoint {
    /// Captures `scene`, which was built from `scene_text` found at `scene_path`, and
    /// fingerprints the scene text and the mesh files it references (read now: a mesh that
    /// cannot be read is recorded as such, and [`Checkpoint::save`] refuses to write it).
    pub fn capture(scene: &BuiltScene, scene_text: &str, scene_path: &Path) -> Self {
        let p = scene.sim.particles();
        // The text built `scene`, so it parses; if not, restore reports the parse error.
        let meshes = SceneDesc::parse(scene_text, scene_path)
            .map(|s| fingerprint(referenced_files(&s, scene_path)))
            .unwrap_or_default();
        Self {
            version: VERSION,
            scene_text: scene_text.to_string(),
            scene_sha256: sha256(scene_text.as_bytes()),
            scene_path: scene_path.to_path_buf(),
            meshes,
            frame: scene.frame as u64,
            sim_time: scene.sim.time(),
            x: p.x.iter().map(arr).collect(),
            x_prev: p.x_prev.iter().map(arr).collect(),
            v: p.v.iter().map(arr).collect(),
            inv_mass: p.inv_mass.clone(),
            kinematic_target: p
                .kinematic_target
                .iter()
                .map(|t| t.as_ref().map(arr))
                .collect(),
            force: p.force.iter().map(arr).collect(),
            multipliers: scene
                .sim
                .blocks()
                .iter()
                .map(|b| b.multipliers().to_vec())
                .collect(),
            block_state: scene.sim.blocks().iter().map(|b| b.save_state()).collect(),
        }
    }

    /// Encodes in the format of the module documentation: header, postcard body, SHA-256.
    pub fn to_bytes(&self) -> Vec<u8> {
        let body = postcard::to_stdvec(self).expect("postcard encodes plain data into a Vec");
        let mut out = Vec::with_capacity(HEADER + body.len() + CHECKSUM);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&body);
        let sum = sha256(&out);
        out.extend_from_slice(&sum);
        out
    }

    /// Decodes bytes written by [`Checkpoint::to_bytes`] (errors name the file `<bytes>`).
    ///
    /// ```
    /// assert!(xpbd_scene::checkpoint::Checkpoint::from_bytes(b"not a checkpoint").is_err());
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, CheckpointError> {
        Self::decode(bytes, Path::new("<bytes>"))
    }

    /// Decodes the bytes of `file`: magic, version, length, checksum, then the body.
    pub fn decode(bytes: &[u8], file: &Path) -> Result<Self, CheckpointError> {
        if !bytes.starts_with(&MAGIC) {
            return Err(malformed(file, "not a checkpoint (no XPBDCKPT magic)"));
        }
        let Some(version) = bytes.get(8..12) else {
            return Err(malformed(file, "truncated before the format version"));
        };
        let version = u32::from_le_bytes(version.try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(CheckpointError::UnsupportedVersion {
                file: file.to_path_buf(),
                found: version,
                supported: VERSION,
            });
        }
        let Some(len) = bytes.get(12..HEADER) else {
            return Err(malformed(file, "truncated before the body length"));
        };
        let len = u64::from_le_bytes(len.try_into().expect("8 bytes"));
        let total = usize::try_from(len)
            .ok()
            .and_then(|n| n.checked_add(HEADER + CHECKSUM));
        let Some(total) = total.filter(|&t| t <= bytes.len()) else {
            return Err(malformed(
                file,
                format!(
                    "truncated: {} bytes, the header announces a {len}-byte body",
                    bytes.len()
                ),
            ));
        };
        if bytes.len() > total {
            return Err(CheckpointError::TrailingBytes {
                file: file.to_path_buf(),
                extra: bytes.len() - total,
            });
        }
        let (content, stored) = bytes.split_at(total - CHECKSUM);
        let computed = sha256(content);
        if computed[..] != stored[..] {
            return Err(CheckpointError::Checksum {
                file: file.to_path_buf(),
                stored: hex(stored),
                computed: hex(&computed),
            });
        }
        let (c, rest): (Self, _) =
            postcard::take_from_bytes(&content[HEADER..]).map_err(|e| malformed(file, e))?;
        if !rest.is_empty() {
            return Err(CheckpointError::TrailingBytes {
                file: file.to_path_buf(),
                extra: rest.len(),
            });
        }
        if c.version != VERSION {
            return Err(malformed(
                file,
                format!("body version {} in a version {VERSION} file", c.version),
            ));
        }
        Ok(c)
    }

    /// Writes to a file atomically (a temporary file beside it, then renamed), after checking
    /// that every referenced mesh could be fingerprinted.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        if let Some(m) = self.meshes.iter().find(|m| m.sha256.is_err()) {
            return Err(CheckpointError::Io {
                file: m.path.clone(),
                message: format!(
                    "cannot fingerprint this mesh for {}: {}",
                    path.display(),
                    m.sha256.as_ref().err().map_or("", String::as_str)
                ),
            });
        }
        crate::export::write_atomic(path, &self.to_bytes()).map_err(|e| CheckpointError::Io {
            file: path.to_path_buf(),
            message: e.to_string(),
        })
    }

    /// Reads from a file ([`Checkpoint::decode`]).
    pub fn load(path: &Path) -> Result<Self, CheckpointError> {
        let bytes = std::fs::read(path).map_err(|e| CheckpointError::Io {
            file: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Self::decode(&bytes, path)
    }

    /// Checks that the scene file at `scene` has the text this checkpoint (read from
    /// `checkpoint`) was written from: `run SCENE --resume CKPT` must name the same scene.
    pub fn verify_scene_file(
        &self,
        scene: &Path,
        checkpoint: &Path,
    ) -> Result<(), CheckpointError> {
        let bytes = std::fs::read(scene).map_err(|e| CheckpointError::Io {
            file: scene.to_path_buf(),
            message: e.to_string(),
        })?;
        let found = sha256(&bytes);
        if found != self.scene_sha256 {
            return Err(CheckpointError::SceneMismatch {
                checkpoint: checkpoint.to_path_buf(),
                scene: scene.to_path_buf(),
                checkpoint_scene: self.scene_path.clone(),
                found: hex(&found),
                expected: hex(&self.scene_sha256),
            });
        }
        Ok(())
    }

    /// Checks the mesh files `scene` references now against the fingerprints captured.
    fn verify_meshes(&self, scene: &SceneDesc) -> Result<(), CheckpointError> {
        let now = referenced_files(scene, &self.scene_path);
        let changed = |mesh: &Path, what: String| CheckpointError::MeshChanged {
            mesh: mesh.to_path_buf(),
            what,
        };
        for path in &now {
            let Some(saved) = self.meshes.iter().find(|m| &m.path == path) else {
                return Err(changed(path, "not listed in the checkpoint".into()));
            };
            let saved = match &saved.sha256 {
                Ok(d) => d,
                Err(e) => {
                    return Err(changed(
                        path,
                        format!("not readable when the checkpoint was written ({e})"),
                    ));
                }
            };
            let bytes = std::fs::read(path).map_err(|e| CheckpointError::Io {
                file: path.clone(),
                message: e.to_string(),
            })?;
            let current = sha256(&bytes);
            if &current != saved {
                return Err(changed(
                    path,
                    format!(
                        "SHA-256 now {}, when checkpointed {}",
                        hex(&current),
                        hex(saved)
                    ),
                ));
            }
        }
        if let Some(m) = self.meshes.iter().find(|m| !now.contains(&m.path)) {
            return Err(changed(
                &m.path,
                "listed in the checkpoint but not referenced by its scene".into(),
            ));
        }
        Ok(())
    }

    /// Rebuilds the scene and overwrites its state with the saved one.
    /// First the fingerprints: the scene text must have its recorded SHA-256 and every mesh
    /// file the scene references must have the bytes it had when captured.
    pub fn restore(&self) -> Result<BuiltScene, CheckpointError> {
        let text_sha = sha256(self.scene_text.as_bytes());
        if text_sha != self.scene_sha256 {
            return Err(CheckpointError::Mismatch {
                what: "SHA-256 of the scene text",
                found: hex(&self.scene_sha256),
                expected: hex(&text_sha),
            });
        }
        let scene = SceneDesc::parse(&self.scene_text, &self.scene_path)?;
        self.verify_meshes(&scene)?;
        let mut built = build_scene(scene, &self.scene_path)?;
        let n = built.sim.particles().len();
        let lens = [
            self.x.len(),
            self.x_prev.len(),
            self.v.len(),
            self.inv_mass.len(),
            self.kinematic_target.len(),
            self.force.len(),
        ];
        if let Some(&bad) = lens.iter().find(|&&l| l != n) {
            return Err(CheckpointError::Mismatch {
                what: "particle count",
                found: bad.to_string(),
                expected: n.to_string(),
            });
        }
        let fields: [(&'static str, &Vec<[f64; 3]>); 4] = [
            ("x", &self.x),
            ("x_prev", &self.x_prev),
            ("v", &self.v),
            ("force", &self.force),
        ];
        for (field, values) in fields {
            if let Some(i) = values.iter().position(|a| !a.iter().all(|c| c.is_finite())) {
                return Err(CheckpointError::NonFinite { particle: i, field });
            }
        }
        if let Some(i) = self
            .inv_mass
            .iter()
            .position(|w| !(w.is_finite() && *w >= 0.0))
        {
            return Err(CheckpointError::NonFinite {
                particle: i,
                field: "inv_mass",
            });
        }
        if let Some(i) = self
            .kinematic_target
            .iter()
            .position(|t| t.is_some_and(|a| !a.iter().all(|c| c.is_finite())))
        {
            return Err(CheckpointError::NonFinite {
                particle: i,
                field: "kinematic_target",
            });
        }
        let blocks = built.handles.len();
        for (what, len) in [
            ("block count (multipliers)", self.multipliers.len()),
            ("block count (block state)", self.block_state.len()),
        ] {
            if len != blocks {
                return Err(CheckpointError::Mismatch {
                    what,
                    found: len.to_string(),
                    expected: blocks.to_string(),
                });
            }
        }
        let handles = built.handles.clone();
        for (k, h) in handles.iter().enumerate() {
            let block = h.get_mut(&mut built.sim);
            let name = block.name();
            let bad = |source| CheckpointError::Block {
                block: k,
                name,
                source,
            };
            block.set_multipliers(&self.multipliers[k]).map_err(bad)?;
            block.load_state(&self.block_state[k]).map_err(bad)?;
        }
        built
            .sim
            .set_time(self.sim_time)
            .map_err(|_| CheckpointError::NonFiniteTime {
                value: self.sim_time,
            })?;
        let p = built.sim.particles_mut();
        p.x = self.x.iter().map(vec3).collect();
        p.x_prev = self.x_prev.iter().map(vec3).collect();
        p.v = self.v.iter().map(vec3).collect();
        p.inv_mass = self.inv_mass.clone();
        p.kinematic_target = self
            .kinematic_target
            .iter()
            .map(|t| t.as_ref().map(vec3))
            .collect();
        p.force = self.force.iter().map(vec3).collect();
        // Nozzle state follows from the masses (released particles have one).
        for e in &mut built.emitters {
            e.resync(built.sim.particles());
        }
        built.frame = self.frame as usize;
        Ok(built)
    }
}
