//! Bit-exact checkpoints.
//!
//! A [`Checkpoint`] stores the scene *text* (the construction is deterministic, so rebuilding
//! it gives the same constraints, rest shapes, colourings and colliders) plus everything that
//! evolves: every particle field as raw f64 bits, the frame counter, the simulation time, the
//! multipliers of every block (restored: with `solver.multiplier_warm_start` they carry over
//! into the next substep) and every block's own state
//! (`xpbd_core::constraint::ConstraintKind::save_state`: XPBI's deformation gradients Fⁿ,
//! hardening and volume-correction state). It is encoded with postcard (f64 stored as its 8
//! little-endian bytes, so no rounding) behind an 8-byte magic and a format version.
//!
//! What is *not* stored, and why that is exact: data rebuilt from the positions at every
//! substep (contact candidates and friction budgets, XPBI neighbour lists, Vⁿ, L_p, kernel
//! weights and colourings, Jacobi counts); static colliders do not move; the neighbour settings
//! (support, spacing, colour scheme) come from the scene text.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use xpbd_core::Vector;

use crate::build::{BuiltScene, build_scene};
use crate::error::CheckpointError;
use crate::scene::SceneFile;

const MAGIC: [u8; 8] = *b"XPBDCKPT";
const VERSION: u32 = 2;

/// The complete evolving state of a [`BuiltScene`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Format version.
    pub version: u32,
    /// The scene file's text.
    pub scene_text: String,
    /// Where the scene file was (mesh paths are relative to it).
    pub scene_path: PathBuf,
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

fn arr(v: &Vector<3>) -> [f64; 3] {
    [v.x, v.y, v.z]
}

fn vec3(a: &[f64; 3]) -> Vector<3> {
    Vector::<3>::new(a[0], a[1], a[2])
}

impl Checkpoint {
    /// Captures `scene`, which was built from `scene_text` found at `scene_path`.
    pub fn capture(scene: &BuiltScene, scene_text: &str, scene_path: &Path) -> Self {
        let p = scene.sim.particles();
        Self {
            version: VERSION,
            scene_text: scene_text.to_string(),
            scene_path: scene_path.to_path_buf(),
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

    /// Encodes as `MAGIC ‖ postcard(self)`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(postcard::to_stdvec(self).expect("postcard encodes plain data into a Vec"));
        out
    }

    /// Decodes bytes written by [`Checkpoint::to_bytes`].
    ///
    /// ```
    /// assert!(xpbd_scene::checkpoint::Checkpoint::from_bytes(b"not a checkpoint").is_err());
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, CheckpointError> {
        let body = bytes
            .strip_prefix(&MAGIC[..])
            .ok_or_else(|| CheckpointError::Malformed {
                message: "missing XPBDCKPT magic".into(),
            })?;
        let c: Self = postcard::from_bytes(body).map_err(|e| CheckpointError::Malformed {
            message: e.to_string(),
        })?;
        if c.version != VERSION {
            return Err(CheckpointError::Malformed {
                message: format!("format version {} (this build reads {VERSION})", c.version),
            });
        }
        Ok(c)
    }

    /// Writes to a file.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        std::fs::write(path, self.to_bytes()).map_err(|e| CheckpointError::Io {
            file: path.to_path_buf(),
            message: e.to_string(),
        })
    }

    /// Reads from a file.
    pub fn load(path: &Path) -> Result<Self, CheckpointError> {
        let bytes = std::fs::read(path).map_err(|e| CheckpointError::Io {
            file: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Self::from_bytes(&bytes)
    }

    /// Rebuilds the scene and overwrites its state with the saved one.
    pub fn restore(&self) -> Result<BuiltScene, CheckpointError> {
        let scene = SceneFile::parse(&self.scene_text, &self.scene_path)?;
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
