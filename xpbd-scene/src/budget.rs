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
//!
//! The computation a scene asks for is bounded the same way ([`WorkEstimate`]): particles ×
//! steps per frame × substeps × (iterations + 1) particle projections per frame, at most
//! [`MAX_WORK_PER_FRAME`], and per run at most [`MAX_WORK_PER_RUN`]. At about 10⁸ particle
//! projections per second and core, the bounds are about three hours per frame and four months
//! per run: values beyond are typing errors (a `dt_max` of 1e-12, caps multiplied together), and
//! the alternative is a run that writes no frame and never ends.

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

/// The most particle projections one frame may ask for (10¹²; the paper's largest demo, 4 M
/// particles × 7 iterations × 133 steps, asks for 4·10⁹).
pub const MAX_WORK_PER_FRAME: f64 = 1e12;
/// The most particle projections one run may ask for (10¹⁵).
pub const MAX_WORK_PER_RUN: f64 = 1e15;

/// The computation a scene asks for, from its counts: see the module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkEstimate {
    /// Particles of every body.
    pub particles: f64,
    /// `time.steps_per_frame`.
    pub steps_per_frame: usize,
    /// Steps per step of `dt`: ⌈dt / dt_max⌉ when adaptive (the fewest the cap allows; the
    /// state's bounds may ask for more, checked per step), else 1.
    pub per_dt: f64,
    /// `solver.substeps`.
    pub substeps: usize,
    /// `solver.iterations`.
    pub iterations: usize,
    /// `time.frames`.
    pub frames: usize,
}

impl WorkEstimate {
    /// The estimate for `scene` with `memory`'s particles.
    pub fn new(scene: &SceneDesc, memory: &MemoryEstimate) -> Self {
        let t = &scene.time;
        let per_dt = if scene.is_adaptive() {
            (t.dt / t.stepping().dt_max * (1.0 - 1e-12)).ceil().max(1.0)
        } else {
            1.0
        };
        Self {
            particles: memory.parts.iter().map(|p| p.particles).sum(),
            steps_per_frame: t.steps_per_frame,
            per_dt,
            substeps: scene.solver.substeps,
            iterations: scene.solver.iterations,
            frames: t.frames,
        }
    }

    /// Particle projections per frame: particles × steps × substeps × (iterations + 1).
    pub fn per_frame(&self) -> f64 {
        self.particles
            * self.steps_per_frame as f64
            * self.per_dt
            * self.substeps as f64
            * (self.iterations as f64 + 1.0)
    }

    /// Particle projections of the run: [`Self::per_frame`] × frames.
    pub fn per_run(&self) -> f64 {
        self.per_frame() * self.frames as f64
    }

    /// `Ok` within [`MAX_WORK_PER_FRAME`] and [`MAX_WORK_PER_RUN`], else
    /// [`SceneError::TooMuchWork`] naming every factor.
    ///
    /// ```
    /// use std::path::Path;
    /// use xpbd_scene::budget::WorkEstimate;
    /// let text = "name = 'w'\n[time]\ndt = 0.01\nframes = 1\n\
    ///     [solver]\nsubsteps = 100000\niterations = 100000\n\
    ///     [materials.steel]\ndensity = 7850.0\nyoungs = 2e11\n\
    ///     [[rope]]\nmaterial = 'steel'\nlinks = 1000\nstart = [0.0, 0.0, 0.0]\n\
    ///     end = [1.0, 0.0, 0.0]\nradius = 0.001\n";
    /// let scene = xpbd_scene::SceneDesc::parse(text, Path::new("w.toml")).unwrap();
    /// let m = scene.memory_estimate();
    /// let e = WorkEstimate::new(&scene, &m).check(&m, Path::new("w.toml")).unwrap_err();
    /// assert!(e.to_string().contains("solver.iterations = 100000"), "{e}");
    /// ```
    pub fn check(&self, memory: &MemoryEstimate, file: &Path) -> Result<(), SceneError> {
        let (what, work, limit) = if self.per_frame() > MAX_WORK_PER_FRAME {
            ("a frame", self.per_frame(), MAX_WORK_PER_FRAME)
        } else if self.per_run() > MAX_WORK_PER_RUN {
            ("the run", self.per_run(), MAX_WORK_PER_RUN)
        } else {
            return Ok(());
        };
        let largest = memory.largest().map_or(String::new(), |p| {
            format!(" (largest: `{}` = {})", p.field, p.value)
        });
        let mut factors = format!(
            "{:.3e} particles{largest} × time.steps_per_frame = {} × {} steps per dt \
             (⌈time.dt / time.dt_max⌉ when adaptive) × solver.substeps = {} × \
             (solver.iterations = {} + 1)",
            self.particles, self.steps_per_frame, self.per_dt, self.substeps, self.iterations
        );
        if what == "the run" {
            factors += &format!(" × time.frames = {}", self.frames);
        }
        Err(SceneError::TooMuchWork {
            file: file.to_path_buf(),
            what,
            work,
            limit,
            factors,
        })
    }
}

/// The memory this process may still allocate (bytes): the least of what the operating
/// system says is available, what the process's cgroup leaves free, and what its address-space
/// limit (`ulimit -v`, `RLIMIT_AS`) leaves beyond the address space already mapped. `None`
/// where none can be told, and then no budget is applied.
#[cfg(feature = "files")]
pub fn available_memory() -> Option<u64> {
    let mut s = sysinfo::System::new();
    s.refresh_memory();
    let mut available = s.available_memory();
    if let Some(limits) = s.cgroup_limits() {
        available = available.min(limits.free_memory);
    }
    if let Some(left) = address_space_left() {
        available = if available == 0 {
            left
        } else {
            available.min(left)
        };
    }
    (available > 0).then_some(available)
}

/// The memory this process may still allocate (bytes): the least of what the operating
/// system says is available, what the process's cgroup leaves free, and what its address-space
/// limit (`ulimit -v`, `RLIMIT_AS`) leaves beyond the address space already mapped. `None`
/// where none can be told, and then no budget is applied.
/// (Without the `files` feature nothing is read from the operating system: `None`.)
#[cfg(not(feature = "files"))]
pub fn available_memory() -> Option<u64> {
    None
}

/// `RLIMIT_AS` (soft) less the process's mapped address space (`/proc/self/statm`, first
/// field, in pages); `None` without a limit. An allocation beyond it fails like one beyond
/// the machine's memory (the allocator aborts), so it bounds the budget the same way.
#[cfg(all(unix, feature = "files"))]
fn address_space_left() -> Option<u64> {
    use rustix::process::{Resource, getrlimit};
    let limit = getrlimit(Resource::As).current?;
    let mapped = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0, |pages| pages * rustix::param::page_size() as u64);
    Some(limit.saturating_sub(mapped))
}

#[cfg(all(not(unix), feature = "files"))]
fn address_space_left() -> Option<u64> {
    None
}
