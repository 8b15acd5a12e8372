//! What a scene will allocate, estimated from the scene file before anything is allocated,
//! and the check of that estimate against the memory the machine has available.
//!
//! Each body kind costs about a fixed number of bytes per particle: its share of the
//! particle store (positions, velocities, rollback copies, forces, targets), its constraints
//! (stencils, rest measures, compliances, multipliers, colour orders) and, for a continuum,
//! its neighbour lists and kernel-gradient data, which grow with the number of neighbours,
//! ∝ (support/Δx)³. The figures below are the peak resident memory per particle of the
//! release build (`cargo xtask run` on one step, no output), measured on this project's
//! benchmark machine and rounded up by 15–30 %:
//!
//! | body | measured | used |
//! |---|---|---|
//! | cloth grid (dihedral bending), 512², 1024², 2048² (VTK output) | 710, 620, 730 B | 900 B |
//! | cloth grid (isometric bending), 1024² | 930 B | 1 100 B |
//! | rope, 10⁶ links | 300 B | 400 B |
//! | soft box (6 tets per cell), 33³ and 49³ particles | 1 400, 1 310 B | 1 700 B |
//! | continuum, support 1.5 / 2 / 3 Δx, 2.3·10⁵ particles | 1 400 / 1 710 / 4 090 B | 1 100 + 120 (s/Δx)³ B |
//!
//! A scene over the budget is refused with [`SceneError::TooLarge`], which names the field
//! of the largest part, its value and both figures; the alternative is the allocator's
//! `memory allocation of N bytes failed` abort, which names nothing.

use std::path::Path;

use crate::error::SceneError;
use crate::scene::{BendingModel, SceneDesc};

/// Bytes per particle of a cloth grid or a triangle mesh made cloth (no or dihedral bending).
pub const CLOTH_BYTES_PER_PARTICLE: u64 = 900;
/// Bytes per particle of a cloth grid with isometric bending (a 4×4 stencil matrix per
/// interior edge).
pub const ISOMETRIC_CLOTH_BYTES_PER_PARTICLE: u64 = 1100;
/// Bytes per particle of a rope.
pub const ROPE_BYTES_PER_PARTICLE: u64 = 400;
/// Bytes per particle of a Neo-Hookean tet body (box or tet mesh).
pub const SOFT_BYTES_PER_PARTICLE: u64 = 1700;

/// Bytes per particle of an XPBI continuum whose kernel support is `support_over_spacing` Δx.
pub fn continuum_bytes_per_particle(support_over_spacing: f64) -> u64 {
    (1100.0 + 120.0 * support_over_spacing.powi(3)).ceil() as u64
}

/// One body's share of a [`MemoryEstimate`].
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryPart {
    /// The field that sets its size (e.g. `cloth[0].resolution`).
    pub field: String,
    /// That field's value, as written.
    pub value: String,
    /// Particles of the body.
    pub particles: f64,
    /// Estimated bytes.
    pub bytes: f64,
}

/// The estimated allocation of a scene, body by body.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemoryEstimate {
    /// One entry per body sized by the scene file.
    pub parts: Vec<MemoryPart>,
}

impl MemoryEstimate {
    /// Σ bytes of the parts.
    pub fn total(&self) -> f64 {
        self.parts.iter().map(|p| p.bytes).sum()
    }

    /// The part with the most bytes.
    pub fn largest(&self) -> Option<&MemoryPart> {
        self.parts.iter().max_by(|a, b| a.bytes.total_cmp(&b.bytes))
    }

    /// Adds a body of `particles` particles at `per_particle` bytes each.
    pub fn add(&mut self, field: String, value: String, particles: f64, per_particle: u64) {
        self.parts.push(MemoryPart {
            field,
            value,
            particles,
            bytes: particles * per_particle as f64,
        });
    }

    /// `Ok` when the total fits in `available` bytes, else [`SceneError::TooLarge`] naming
    /// the largest part.
    ///
    /// ```
    /// use std::path::Path;
    /// use xpbd_scene::budget::MemoryEstimate;
    /// let mut m = MemoryEstimate::default();
    /// m.add("rope[0].links".into(), "1000000".into(), 1e6 + 1.0, 400);
    /// assert!(m.check(1 << 30, Path::new("s.toml")).is_ok());
    /// let e = m.check(1 << 20, Path::new("s.toml")).unwrap_err().to_string();
    /// assert!(e.contains("rope[0].links") && e.contains("400.0 MB"), "{e}");
    /// ```
    pub fn check(&self, available: u64, file: &Path) -> Result<(), SceneError> {
        let total = self.total();
        match self.largest() {
            Some(p) if total > available as f64 => Err(SceneError::TooLarge {
                file: file.to_path_buf(),
                field: p.field.clone(),
                value: p.value.clone(),
                part: p.bytes,
                total,
                available,
            }),
            _ => Ok(()),
        }
    }
}

impl SceneDesc {
    /// The allocation of the bodies the scene file sizes itself (grids, ropes, boxes,
    /// continua); meshes are added once imported ([`crate::build_scene`]).
    pub fn memory_estimate(&self) -> MemoryEstimate {
        let mut m = MemoryEstimate::default();
        for (k, c) in self.cloth.iter().enumerate() {
            let n = c.resolution[0] as f64 * c.resolution[1] as f64;
            let value = format!("{:?}", c.resolution);
            let per = match c.bending {
                BendingModel::Isometric => ISOMETRIC_CLOTH_BYTES_PER_PARTICLE,
                BendingModel::None | BendingModel::Dihedral => CLOTH_BYTES_PER_PARTICLE,
            };
            m.add(format!("cloth[{k}].resolution"), value, n, per);
        }
        for (k, r) in self.rope.iter().enumerate() {
            let n = r.links as f64 + 1.0;
            let value = r.links.to_string();
            m.add(
                format!("rope[{k}].links"),
                value,
                n,
                ROPE_BYTES_PER_PARTICLE,
            );
        }
        for (k, b) in self.soft_box.iter().enumerate() {
            let n: f64 = b.cells.iter().map(|&c| c as f64 + 1.0).product();
            let value = format!("{:?}", b.cells);
            let field = format!("soft_box[{k}].cells");
            m.add(field, value, n, SOFT_BYTES_PER_PARTICLE);
        }
        for (k, c) in self.continuum.iter().enumerate() {
            let n = c.lattice_points();
            let per = continuum_bytes_per_particle(c.xpbi.support_over_spacing);
            m.add(
                format!("continuum[{k}].spacing"),
                c.spacing.to_string(),
                n,
                per,
            );
        }
        for (k, f) in self.fluid.iter().enumerate() {
            let n = f.region.lattice_count(f.spacing);
            let per = continuum_bytes_per_particle(2.0);
            m.add(format!("fluid[{k}].spacing"), f.spacing.to_string(), n, per);
        }
        m
    }
}

/// The memory the operating system says is available now (bytes); `None` where it cannot
/// tell, and then no budget is applied.
pub fn available_memory() -> Option<u64> {
    let mut s = sysinfo::System::new();
    s.refresh_memory();
    let mut available = s.available_memory();
    if let Some(limits) = s.cgroup_limits() {
        available = available.min(limits.free_memory);
    }
    (available > 0).then_some(available)
}
