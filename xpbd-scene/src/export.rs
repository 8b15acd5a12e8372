//! Per-frame export: VTK legacy binary (vtkio; ParaView), PLY ASCII with f64
//! coordinates (ply-rs; Blender, MeshLab) and OBJ (text; Blender). Plus [`read_vtk`], used by
//! the viewer and the round-trip tests. (PLY is written as ASCII: ply-rs 0.1.3 fails to read
//! back its own binary lists; Rust prints f64 as the shortest text that parses back to the
//! same bits, so the ASCII round trip is still exact.)
//!
//! The formats live in submodules, re-exported here: [`vtk`] (write and read VTK) and
//! [`surface`] (PLY and OBJ); this file holds what they share: the [`Topology`], the
//! [`ParticleFields`] and the atomic write.

use std::io::Write;
use std::path::Path;

use xpbd_core::Vector;

#[cfg(feature = "files")]
use crate::error::ExportError;

#[cfg(feature = "files")]
pub mod rigid;
pub mod surface;
#[cfg(feature = "files")]
pub mod vtk;

#[cfg(feature = "files")]
pub use surface::{
    obj_text, ply_bytes, ply_bytes_with_fields, write_obj, write_ply, write_ply_with_fields,
};
#[cfg(feature = "files")]
pub use vtk::{VtkData, read_vtk, read_vtk_data, write_vtk};

/// What the particles form: the cells written with every frame, and their rest measures for
/// the per-element stretch ratio (det F for linear tets).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Topology {
    /// Rope / chain segments.
    pub segments: Vec<[usize; 2]>,
    /// Cloth and surface triangles.
    pub triangles: Vec<[usize; 3]>,
    /// Tetrahedra (positively oriented).
    pub tets: Vec<[usize; 4]>,
    /// Rest length / area / volume of each segment, triangle, tet (same order).
    pub rest_segment: Vec<f64>,
    /// Rest area of each triangle.
    pub rest_triangle: Vec<f64>,
    /// Rest volume of each tet.
    pub rest_tet: Vec<f64>,
    /// Material index of each particle (index into `material_names`).
    pub particle_material: Vec<u32>,
    /// Material index of each segment, triangle and tet (in that order).
    pub cell_material: Vec<u32>,
    /// Material names (sorted, as in the scene's `[materials]` table).
    pub material_names: Vec<String>,
}

/// Per-particle continuum fields written as VTK point data next to `velocity`, `inv_mass` and
/// `material_id` (empty vectors: not written). Particles outside every XPBI continuum get
/// det F = 1 and 0 for the rest.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParticleFields {
    /// `det_F`: det Fⁿ of the elastic deformation gradient (XPBI, `Vⁿ = V⁰ det Fⁿ`).
    pub det_f: Vec<f64>,
    /// `hardening`: the plastic hardening state q (accumulated plastic strain for von Mises
    /// and Drucker–Prager, α = ln J_p for NACC; xpbi_continuum's `PlasticState::hardening`).
    pub hardening: Vec<f64>,
    /// `volume_correction`: Drucker–Prager's plastic volume correction v_c.
    pub volume_correction: Vec<f64>,
    /// `lambda`: the multiplier λ_p of the particle's XPBI constraint, accumulated over the
    /// last substep (C_p = √(2Ψ), so λ_p/Δt² is a force-like magnitude).
    pub lambda: Vec<f64>,
    /// `density`: a fluid particle's SPH density ρ (kg/m³; solid neighbours counted), 0 for
    /// particles of other bodies (`xpbi_continuum::fluid::PbfFluid::density_ratios`).
    pub density: Vec<f64>,
    /// `pressure`: a fluid particle's pressure p (Pa) from its multiplier of the last substep
    /// (`PbfFluid::pressures`), 0 for particles of other bodies.
    pub pressure: Vec<f64>,
}

impl ParticleFields {
    /// The fields of `n` particles, by their exported name (fields of another length, i.e.
    /// absent ones, are left out).
    pub fn named(&self, n: usize) -> Vec<(&'static str, &[f64])> {
        [
            ("det_F", &self.det_f),
            ("hardening", &self.hardening),
            ("volume_correction", &self.volume_correction),
            ("lambda", &self.lambda),
            ("density", &self.density),
            ("pressure", &self.pressure),
        ]
        .into_iter()
        .filter(|(_, v)| v.len() == n && n > 0)
        .map(|(name, v)| (name, v.as_slice()))
        .collect()
    }
}

/// The three measures used for the stretch ratio of a cell.
pub fn segment_length(x: &[Vector<3>], s: [usize; 2]) -> f64 {
    (x[s[1]] - x[s[0]]).norm()
}

/// Triangle area.
pub fn triangle_area(x: &[Vector<3>], t: [usize; 3]) -> f64 {
    0.5 * (x[t[1]] - x[t[0]]).cross(&(x[t[2]] - x[t[0]])).norm()
}

/// Signed tet volume `(x₁−x₀)·((x₂−x₀)×(x₃−x₀))/6`.
pub fn tet_volume(x: &[Vector<3>], t: [usize; 4]) -> f64 {
    (x[t[1]] - x[t[0]]).dot(&(x[t[2]] - x[t[0]]).cross(&(x[t[3]] - x[t[0]]))) / 6.0
}

impl Topology {
    /// Current/rest measure of every cell (segments, triangles, tets in that order):
    /// `l/l₀`, `A/A₀` and `V/V₀ = det F` (F is constant on a linear tet).
    pub fn stretch_ratios(&self, x: &[Vector<3>]) -> Vec<f64> {
        let s = self
            .segments
            .iter()
            .zip(&self.rest_segment)
            .map(|(&c, r)| segment_length(x, c) / r);
        let t = self
            .triangles
            .iter()
            .zip(&self.rest_triangle)
            .map(|(&c, r)| triangle_area(x, c) / r);
        let v = self
            .tets
            .iter()
            .zip(&self.rest_tet)
            .map(|(&c, r)| tet_volume(x, c) / r);
        s.chain(t).chain(v).collect()
    }

    /// Triangles to draw: the cloth/surface triangles plus the boundary faces of the tets
    /// (faces used by exactly one tet, oriented outwards).
    pub fn surface_triangles(&self) -> Vec<[usize; 3]> {
        let mut faces: Vec<([usize; 3], [usize; 3])> = Vec::new();
        for t in &self.tets {
            let [a, b, c, d] = *t;
            for f in [[b, c, d], [a, d, c], [a, b, d], [a, c, b]] {
                let mut key = f;
                key.sort_unstable();
                faces.push((key, f));
            }
        }
        faces.sort_unstable();
        let mut out = self.triangles.clone();
        let mut i = 0;
        while i < faces.len() {
            let mut j = i + 1;
            while j < faces.len() && faces[j].0 == faces[i].0 {
                j += 1;
            }
            if j - i == 1 {
                out.push(faces[i].1);
            }
            i = j;
        }
        out
    }
}

/// Whether `name` is a temporary file of [`write_atomic`] (`.NAME.tmp-PID-N`).
///
/// ```
/// use xpbd_scene::export::is_atomic_temporary;
/// assert!(is_atomic_temporary(".frame_00003.vtk.tmp-4242-7"));
/// assert!(!is_atomic_temporary("frame_00003.vtk"));
/// assert!(!is_atomic_temporary(".frame.tmp-x-1"));
/// ```
pub fn is_atomic_temporary(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.') else {
        return false;
    };
    let Some((_, tail)) = rest.rsplit_once(".tmp-") else {
        return false;
    };
    let mut parts = tail.split('-');
    let digits =
        |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    digits(parts.next()) && digits(parts.next()) && parts.next().is_none()
}

/// Writes `bytes` to `path` atomically: into a temporary file beside it (same folder, so the
/// rename stays on one file system), flushed to disk, then renamed over `path`. A failed write
/// (disk full, file size limit, I/O error) removes the temporary file and leaves `path` as it
/// was, so a reader never sees a truncated file. Frames and checkpoints are written this way.
/// A run killed between the write and the rename leaves the temporary file; the next run
/// into the folder removes it ([`crate::runner::OutputLock::acquire`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "the path has no file name",
        )
    })?;
    let tmp = path.with_file_name(format!(
        ".{}.tmp-{}-{}",
        name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(feature = "files")]
fn io_err(file: &Path, e: impl std::fmt::Display) -> ExportError {
    ExportError::Io {
        file: file.to_path_buf(),
        message: e.to_string(),
    }
}
