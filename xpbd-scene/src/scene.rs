//! The scene file format (TOML) and its parser. See the crate docs for an annotated example.
//!
//! Parsing is two-stage: serde (through `serde_path_to_error`, so a type error names the
//! field path, and toml's span, so it names the line and column; unknown fields are rejected
//! by `deny_unknown_fields`), then [`SceneDesc::validate`], which range-checks every number
//! and names the field and the bad value.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use xpbd_core::SolverKind;

use crate::continuum::{ContinuumSpec, Preset};
use crate::error::SceneError;
use crate::validate::Validator;
use xpbi_continuum::plasticity::PlasticModel;

/// The most `time.frames` a scene may ask for, and the reason given.
pub const MAX_FRAMES: (usize, &str) = (10_000_000, "at most 10^7 frames");
/// The most `time.steps_per_frame`, `solver.substeps` or `solver.iterations`.
pub const MAX_PER_STEP_COUNT: (usize, &str) = (100_000, "at most 10^5");

pub use crate::validate::MAX_COORDINATE;

/// A whole scene file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneDesc {
    /// Human-readable name.
    pub name: String,
    /// What the scene demonstrates or validates.
    #[serde(default)]
    pub description: String,
    /// Time stepping.
    pub time: TimeSection,
    /// Solver settings.
    #[serde(default)]
    pub solver: SolverSection,
    /// Materials by name (SI units).
    #[serde(default)]
    pub materials: BTreeMap<String, MaterialSpec>,
    /// Cloth grids.
    #[serde(default)]
    pub cloth: Vec<ClothSpec>,
    /// Ropes / chains.
    #[serde(default)]
    pub rope: Vec<RopeSpec>,
    /// Tetrahedral boxes (Neo-Hookean soft bodies).
    #[serde(default)]
    pub soft_box: Vec<SoftBoxSpec>,
    /// Meshes loaded from files.
    #[serde(default)]
    pub mesh: Vec<MeshSpec>,
    /// XPBI continua (sand, snow, clay, elastic solids, viscoplastic fluids).
    #[serde(default)]
    pub continuum: Vec<ContinuumSpec>,
    /// Liquids (position-based fluid particles; see [`crate::fluid`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fluid: Vec<crate::fluid::FluidSpec>,
    /// Static colliders.
    #[serde(default)]
    pub collider: Vec<ColliderSpec>,
    /// Contact settings (required when there are colliders).
    #[serde(default)]
    pub contacts: Option<ContactSection>,
    /// How pairs of bodies touch (pairs with a continuum touch by default; see
    /// [`crate::interaction`]).
    #[serde(default)]
    pub interaction: Vec<crate::interaction::InteractionSpec>,
    /// What to write per frame.
    #[serde(default)]
    pub output: OutputSection,
}

/// `[time]`: frame length and count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeSection {
    /// Step length Δt (s, > 0).
    pub dt: f64,
    /// Frames to run (≥ 1).
    pub frames: usize,
    /// Steps per frame (≥ 1).
    #[serde(default = "one")]
    pub steps_per_frame: usize,
    /// Adaptive stepping: each step of `dt` is advanced in steps of at most `dt_max`, below
    /// every block's substep bound (XPBI's CFL bound), a failing step retried at half its size
    /// (`xpbd_core::simulation::AdaptiveStepping`). Absent: on where a continuum is present,
    /// off otherwise. Off: fixed steps of `dt`, and a step over a bound is an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adaptive: Option<bool>,
    /// Largest adaptive step (s, > 0; absent: `dt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dt_max: Option<f64>,
}

impl TimeSection {
    /// Whether steps are adaptive (`adaptive`, or by default whether there is a continuum or
    /// a fluid: `has_bounded`).
    pub fn is_adaptive(&self, has_continuum: bool) -> bool {
        self.adaptive.unwrap_or(has_continuum)
    }

    /// The adaptive stepping of these settings: steps ≤ min(dt, dt_max).
    pub fn stepping(&self) -> xpbd_core::AdaptiveStepping {
        xpbd_core::AdaptiveStepping::new(self.dt_max.map_or(self.dt, |m| m.min(self.dt)))
    }
}

fn one() -> usize {
    1
}

/// `[solver]`: maps onto [`xpbd_core::SolverSettings`]; absent fields take the defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolverSection {
    /// Substeps per step.
    pub substeps: usize,
    /// Iterations per substep.
    pub iterations: usize,
    /// `{ kind = "gauss_seidel" }`, `{ kind = "coloured" }` or
    /// `{ kind = "jacobi", omega = 1.0, averaged = true }`.
    pub method: SolverKind,
    /// Gravity (m/s²).
    #[serde(deserialize_with = "crate::exact::array")]
    pub gravity: [f64; 3],
    /// Global velocity damping k (1/s).
    pub velocity_damping: f64,
    /// Multiplier warm start decay d ∈ [0, 1] (absent: multipliers reset every substep).
    pub multiplier_warm_start: Option<f64>,
    /// Worker threads (0 = rayon's pool). Results do not depend on it.
    pub threads: usize,
}

impl Default for SolverSection {
    fn default() -> Self {
        Self {
            substeps: 10,
            iterations: 1,
            method: SolverKind::Coloured,
            gravity: [0.0, 0.0, -9.81],
            velocity_damping: 0.0,
            multiplier_warm_start: None,
            threads: 0,
        }
    }
}

/// `[materials.NAME]`: SI parameters.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaterialSpec {
    /// A continuum preset supplying density, `youngs`, `poisson` and `plasticity` where they
    /// are absent (see [`Preset`]); filled in by [`SceneDesc::parse`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// Density ρ (kg/m³, > 0); required unless a preset gives it.
    pub density: Option<f64>,
    /// Young's modulus E (Pa, > 0); absent = inextensible (compliance 0).
    pub youngs: Option<f64>,
    /// Poisson's ratio ν ∈ (−1, 0.5) (absent: 0.3).
    pub poisson: Option<f64>,
    /// Sheet thickness (m) for cloth and surface meshes.
    pub thickness: Option<f64>,
    /// Bending stiffness k_b (N·m) for cloth.
    pub bending_stiffness: Option<f64>,
    /// Plasticity of a continuum (absent: elastic): xpbi-continuum's own model, e.g.
    /// `plasticity = { drucker_prager = { friction_angle = 30.0 } }` or `"elastic"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plasticity: Option<PlasticModel>,
}

impl MaterialSpec {
    /// Fills the fields a preset provides (density, Young's modulus, Poisson ratio,
    /// plasticity) where the scene gave none.
    pub(crate) fn apply_preset(&mut self) {
        if let Some(p) = self.preset {
            let x = p.material();
            self.density.get_or_insert(x.density);
            self.youngs.get_or_insert(x.youngs_modulus);
            self.poisson.get_or_insert(x.poisson_ratio);
            self.plasticity.get_or_insert(x.plasticity);
        }
    }
}

impl MaterialSpec {
    /// ρ (kg/m³); NaN if absent, which validation rejects.
    pub fn density(&self) -> f64 {
        self.density.unwrap_or(f64::NAN)
    }
    /// ν, 0.3 when absent.
    pub fn poisson(&self) -> f64 {
        self.poisson.unwrap_or(0.3)
    }
}

/// Bending model of a cloth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BendingModel {
    /// No bending constraints.
    #[default]
    None,
    /// Dihedral angle constraints (needs `bending_stiffness`).
    Dihedral,
    /// Isometric quadratic bending (needs `bending_stiffness`).
    Isometric,
}

/// `[[cloth]]`: a rectangular grid in the xy plane (mass = ρ · thickness · area).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClothSpec {
    /// The body's name, for `[[interaction]]` (default: its field, e.g. `cloth[0]`).
    #[serde(default)]
    pub name: Option<String>,
    /// Material name (needs `thickness`).
    pub material: String,
    /// Particles along x and y (each ≥ 2).
    #[serde(deserialize_with = "crate::exact::array")]
    pub resolution: [usize; 2],
    /// Extent along x and y (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub size: [f64; 2],
    /// Position of particle (0, 0) (m).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub origin: [f64; 3],
    /// Grid coordinates `[i, j]` of pinned particles.
    #[serde(default, deserialize_with = "crate::exact::vec_of_arrays")]
    pub pins: Vec<[usize; 2]>,
    /// Bending model.
    #[serde(default)]
    pub bending: BendingModel,
}

/// `[[rope]]`: a chain of `links` distance constraints (mass = ρ π r² L).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RopeSpec {
    /// The body's name, for `[[interaction]]` (default: its field, e.g. `rope[0]`).
    #[serde(default)]
    pub name: Option<String>,
    /// Material name.
    pub material: String,
    /// Number of links (≥ 1).
    pub links: usize,
    /// First particle (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub start: [f64; 3],
    /// Last particle (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub end: [f64; 3],
    /// Cross-section radius r (m): area π r² for mass and compliance α = l₀/(E π r²).
    pub radius: f64,
    /// Pin the first particle.
    #[serde(default)]
    pub pin_start: bool,
}

/// `[[soft_box]]`: a box of Kuhn-subdivided tets with stable Neo-Hookean constraints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoftBoxSpec {
    /// The body's name, for `[[interaction]]` (default: its field, e.g. `soft_box[0]`).
    #[serde(default)]
    pub name: Option<String>,
    /// Material name (needs `youngs`).
    pub material: String,
    /// Extent (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub size: [f64; 3],
    /// Hexahedral cells per axis (each split into 6 tets).
    #[serde(deserialize_with = "crate::exact::array")]
    pub cells: [usize; 3],
    /// Minimum corner (m).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub origin: [f64; 3],
    /// Pin every particle with x ≤ origin.x + this (m); absent = no pins.
    pub pin_x_below: Option<f64>,
}

/// How a mesh file becomes a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeshKind {
    /// Triangles become cloth: distance constraints on edges, α = 1/(E t) per unit length.
    Cloth,
    /// Tets become a Neo-Hookean soft body.
    Soft,
}

/// `[[mesh]]`: a mesh file (`.obj`, `.ply`, `.node`+`.ele`, `.msh`), relative to the scene file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshSpec {
    /// The body's name, for `[[interaction]]` (default: its field, e.g. `mesh[0]`).
    #[serde(default)]
    pub name: Option<String>,
    /// Material name.
    pub material: String,
    /// Path, relative to the scene file's folder.
    pub path: PathBuf,
    /// Cloth or soft body.
    pub kind: MeshKind,
    /// Translation applied to every vertex (m).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub translate: [f64; 3],
    /// Uniform scale applied before translation.
    #[serde(default = "unit")]
    pub scale: f64,
    /// Vertex indices (0-based, in the file's order) to pin.
    #[serde(default)]
    pub pins: Vec<usize>,
}

fn unit() -> f64 {
    1.0
}

/// A collider's geometry in its local frame (centred at `center`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapeSpec {
    /// The half-space `n·x ≤ offset` (ground for n = z).
    Plane {
        /// Outward normal.
        #[serde(deserialize_with = "crate::exact::array")]
        normal: [f64; 3],
        /// Offset along the normal (m).
        offset: f64,
    },
    /// A ball.
    Sphere {
        /// Radius (m).
        radius: f64,
    },
    /// An axis-aligned box.
    Box {
        /// Half extents (m).
        #[serde(deserialize_with = "crate::exact::array")]
        half_extents: [f64; 3],
    },
    /// A capsule along x.
    Capsule {
        /// Half length of the axis (m).
        half_length: f64,
        /// Radius (m).
        radius: f64,
    },
    /// A closed, consistently oriented triangle mesh (`.obj` or `.ply`), as a signed-distance
    /// grid sampled at nodes `cell` apart over its bounding box grown by `padding`
    /// (`xpbd_core::contact::SdfGrid::from_mesh`; between nodes φ is trilinear, so detail
    /// finer than `cell` is smoothed). The mesh's coordinates, times `scale`, are the
    /// collider's local frame. E.g. `shape = { mesh = { path = "bowl.obj", cell = 0.01 } }`.
    Mesh {
        /// Path, relative to the scene file's folder.
        path: PathBuf,
        /// Node spacing of the grid (m, > 0).
        cell: f64,
        /// Margin around the mesh's bounding box (m, ≥ 0; default: 3 cells).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        padding: Option<f64>,
        /// Uniform scale applied to the vertices (default 1).
        #[serde(default = "unit")]
        scale: f64,
    },
}

impl ShapeSpec {
    /// Most nodes a mesh collider's grid may have (16.8 M, 134 MB of f64; built once per
    /// build in time proportional to nodes + triangles, `SdfGrid::from_mesh`).
    pub const MAX_MESH_NODES: f64 = 16_777_216.0;
}

/// `[[collider]]`: a rigid collider, static or translating with a constant velocity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColliderSpec {
    /// e.g. `shape = { sphere = { radius = 0.3 } }`.
    pub shape: ShapeSpec,
    /// Centre / translation of the local frame (m).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub center: [f64; 3],
    /// Orientation of the local frame as rotations about the world axes, in degrees:
    /// `[rx, ry, rz]` gives R = R_z(rz) R_y(ry) R_x(rx) (x first; e.g. `[0, 60, 0]` tilts a box
    /// wall 60° about y). Each angle must be finite with |angle| ≤ 360.
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub rotation_deg: [f64; 3],
    /// Coulomb friction coefficient μ (static = kinetic).
    #[serde(default)]
    pub friction: f64,
    /// Restitution coefficient e ∈ [0, 1].
    #[serde(default)]
    pub restitution: f64,
    /// Velocity (m/s) of a kinematic collider, which translates at it from the start (a
    /// bulldozer blade, a piston); absent or zero: static.
    #[serde(
        default,
        skip_serializing_if = "is_zero3",
        deserialize_with = "crate::exact::array"
    )]
    pub velocity: [f64; 3],
}

fn is_zero3(v: &[f64; 3]) -> bool {
    v.iter().all(|&c| c == 0.0)
}

impl ColliderSpec {
    /// The rotation matrix R = R_z(rz) R_y(ry) R_x(rx) of [`ColliderSpec::rotation_deg`]
    /// (columns: the local axes in world coordinates, as `xpbd_core::contact::Pose`).
    pub fn rotation(&self) -> xpbd_core::Matrix<3> {
        let [rx, ry, rz] = self.rotation_deg.map(f64::to_radians);
        let (sx, cx) = rx.sin_cos();
        let (sy, cy) = ry.sin_cos();
        let (sz, cz) = rz.sin_cos();
        let x = xpbd_core::Matrix::<3>::new(1.0, 0.0, 0.0, 0.0, cx, -sx, 0.0, sx, cx);
        let y = xpbd_core::Matrix::<3>::new(cy, 0.0, sy, 0.0, 1.0, 0.0, -sy, 0.0, cy);
        let z = xpbd_core::Matrix::<3>::new(cz, -sz, 0.0, sz, cz, 0.0, 0.0, 0.0, 1.0);
        z * y * x
    }
}

/// `[contacts]`: particle radius and candidate margin for collider contacts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContactSection {
    /// Particle radius r (m, > 0).
    pub radius: f64,
    /// Extra candidate margin (m, ≥ 0).
    #[serde(default)]
    pub margin: f64,
}

/// Export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// VTK legacy binary (`frame_NNNNN.vtk`).
    Vtk,
    /// PLY binary (`frame_NNNNN.ply`).
    Ply,
    /// OBJ (`frame_NNNNN.obj`).
    Obj,
}

/// `[output]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSection {
    /// Formats written per output frame.
    #[serde(default = "default_formats")]
    pub formats: Vec<Format>,
    /// Write every n-th frame (≥ 1; frame 0 is always written).
    #[serde(default = "one")]
    pub every: usize,
}

fn default_formats() -> Vec<Format> {
    vec![Format::Vtk]
}

impl Default for OutputSection {
    fn default() -> Self {
        Self {
            formats: default_formats(),
            every: 1,
        }
    }
}

/// 1-based line and column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

impl SceneDesc {
    /// Whether steps are adaptive: `[time] adaptive`, or by default whether the scene has a
    /// continuum or a fluid (whose blocks declare CFL bounds).
    pub fn is_adaptive(&self) -> bool {
        self.time
            .is_adaptive(!self.continuum.is_empty() || !self.fluid.is_empty())
    }

    /// `(field, name, kind is continuum or fluid)` of every body in build order (cloth, rope,
    /// soft_box, mesh, continuum, fluid; each in list order).
    pub(crate) fn body_names(&self) -> Vec<(String, String, bool)> {
        let mut out = Vec::new();
        let mut add = |list: &str, names: Vec<Option<&String>>, continuum: bool| {
            for (k, n) in names.into_iter().enumerate() {
                let field = format!("{list}[{k}]");
                let name = n.cloned().unwrap_or_else(|| field.clone());
                out.push((field, name, continuum));
            }
        };
        add(
            "cloth",
            self.cloth.iter().map(|c| c.name.as_ref()).collect(),
            false,
        );
        add(
            "rope",
            self.rope.iter().map(|c| c.name.as_ref()).collect(),
            false,
        );
        add(
            "soft_box",
            self.soft_box.iter().map(|c| c.name.as_ref()).collect(),
            false,
        );
        add(
            "mesh",
            self.mesh.iter().map(|c| c.name.as_ref()).collect(),
            false,
        );
        add(
            "continuum",
            self.continuum.iter().map(|c| c.name.as_ref()).collect(),
            true,
        );
        add(
            "fluid",
            self.fluid.iter().map(|c| c.name.as_ref()).collect(),
            true,
        );
        out
    }

    /// Reads and validates a scene file.
    pub fn load(path: &Path) -> Result<Self, SceneError> {
        let text = std::fs::read_to_string(path).map_err(|e| SceneError::Io {
            file: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Self::parse(&text, path)
    }

    /// Parses and validates scene text; `file` is used in error messages.
    ///
    /// ```
    /// use std::path::Path;
    /// use xpbd_scene::SceneDesc;
    /// let text = "name = 'drop'\n[time]\ndt = 0.01\nframes = 2\n\
    ///             [materials.steel]\ndensity = 7800.0\n\
    ///             [[rope]]\nmaterial = 'steel'\nlinks = 3\nstart = [0, 0, 0]\nend = [1, 0, 0]\nradius = 0.001\n";
    /// let scene = SceneDesc::parse(text, Path::new("drop.toml")).unwrap();
    /// assert_eq!(scene.rope[0].links, 3);
    /// let bad = text.replace("links = 3", "links = 3\nlinsk = 4");
    /// let err = SceneDesc::parse(&bad, Path::new("drop.toml")).unwrap_err().to_string();
    /// assert!(err.contains("drop.toml:10:1") && err.contains("linsk"), "{err}");
    /// ```
    pub fn parse(text: &str, file: &Path) -> Result<Self, SceneError> {
        let syntax = |e: toml::de::Error, field: String| {
            let (line, column) = e
                .span()
                .map(|s| line_column(text, s.start))
                .unwrap_or((0, 0));
            SceneError::Syntax {
                file: file.to_path_buf(),
                line,
                column,
                field,
                message: e.message().trim().to_string(),
            }
        };
        let de = toml::Deserializer::parse(text).map_err(|e| syntax(e, ".".into()))?;
        let mut scene: SceneDesc = serde_path_to_error::deserialize(de).map_err(|e| {
            let field = e.path().to_string();
            syntax(e.into_inner(), field)
        })?;
        scene
            .materials
            .values_mut()
            .for_each(MaterialSpec::apply_preset);
        scene.validate(file).map_err(|e| e.locate(text))?;
        Ok(scene)
    }

    /// Range checks of every number, with the field path and the bad value.
    pub fn validate(&self, file: &Path) -> Result<(), SceneError> {
        let mut v = Validator::new(file);
        v.positive("time.dt", self.time.dt);
        if let Some(m) = self.time.dt_max {
            v.positive("time.dt_max", m);
            v.check(
                "time.dt_max",
                m,
                self.is_adaptive(),
                "a largest adaptive step is set but steps are fixed (`adaptive = false`, or \
                 absent without a continuum or fluid): set `adaptive = true` or remove it",
            );
            v.check(
                "time.dt_max",
                m,
                (self.time.dt / m).is_finite()
                    && (self.time.dt / m).ceil() <= xpbd_core::simulation::MAX_STEPS_PER_SPAN,
                "dt / dt_max must be at most 10^6 steps per step of dt (a frame would not end)",
            );
        }
        v.name("name", &self.name);
        v.count_at_most("time.frames", self.time.frames, MAX_FRAMES);
        v.count_at_most(
            "time.steps_per_frame",
            self.time.steps_per_frame,
            MAX_PER_STEP_COUNT,
        );
        v.count_at_most("solver.substeps", self.solver.substeps, MAX_PER_STEP_COUNT);
        v.count_at_most(
            "solver.iterations",
            self.solver.iterations,
            MAX_PER_STEP_COUNT,
        );
        v.check(
            "solver.threads",
            self.solver.threads as f64,
            self.solver.threads <= xpbd_core::simulation::MAX_THREADS,
            "at most 256 worker threads (0 = rayon's pool; results do not depend on it)",
        );
        v.finite3("solver.gravity", self.solver.gravity);
        v.non_negative("solver.velocity_damping", self.solver.velocity_damping);
        if let Some(d) = self.solver.multiplier_warm_start {
            v.check(
                "solver.multiplier_warm_start",
                d,
                (0.0..=1.0).contains(&d),
                "decay must lie in [0, 1]",
            );
        }
        if let SolverKind::Jacobi { omega, .. } = self.solver.method {
            v.check(
                "solver.method.omega",
                omega,
                omega.is_finite() && omega > 0.0 && omega <= 2.0,
                "must lie in (0, 2]",
            );
        }
        v.count("output.every", self.output.every);
        crate::interaction::validate(&mut v, &self.body_names(), &self.interaction);
        crate::material_use::validate(&mut v, self);
        for (name, m) in &self.materials {
            v.name(&format!("materials.{name}"), name);
            let f = |k: &str| format!("materials.{name}.{k}");
            match m.density {
                Some(d) => v.positive(&f("density"), d),
                None => v.check_text(
                    &f("density"),
                    "absent".into(),
                    false,
                    "required (or a `preset` that gives it)",
                ),
            }
            if let Some(e) = m.youngs {
                v.positive(&f("youngs"), e);
            }
            let nu = m.poisson();
            v.check(
                &f("poisson"),
                nu,
                nu > -1.0 && nu < 0.5,
                "must lie in (-1, 0.5)",
            );
            if let Some(p) = &m.plasticity {
                crate::continuum::validate_plasticity(p, &mut v, &f("plasticity"));
            }
            if let Some(t) = m.thickness {
                v.length(&f("thickness"), t);
            }
            if let Some(k) = m.bending_stiffness {
                v.positive(&f("bending_stiffness"), k);
            }
        }
        for (k, c) in self.cloth.iter().enumerate() {
            let f = |s: &str| format!("cloth[{k}].{s}");
            for a in 0..2 {
                let r = c.resolution[a];
                v.check(
                    &f(&format!("resolution[{a}]")),
                    r as f64,
                    (2..=4096).contains(&r),
                    "must lie in [2, 4096]",
                );
                v.length(&f(&format!("size[{a}]")), c.size[a]);
            }
            v.finite3(&f("origin"), c.origin);
            for (p, pin) in c.pins.iter().enumerate() {
                let ok = pin[0] < c.resolution[0] && pin[1] < c.resolution[1];
                v.check_text(
                    &f(&format!("pins[{p}]")),
                    format!("{pin:?}"),
                    ok,
                    "grid coordinate outside the resolution",
                );
            }
        }
        for (k, r) in self.rope.iter().enumerate() {
            let f = |s: &str| format!("rope[{k}].{s}");
            v.check(
                &f("links"),
                r.links as f64,
                (1..=1_000_000).contains(&r.links),
                "must lie in [1, 10^6]",
            );
            v.finite3(&f("start"), r.start);
            v.finite3(&f("end"), r.end);
            v.length(&f("radius"), r.radius);
            v.check_text(
                &f("end"),
                format!("{:?}", r.end),
                r.start != r.end,
                "must differ from start",
            );
        }
        for (k, b) in self.soft_box.iter().enumerate() {
            let f = |s: &str| format!("soft_box[{k}].{s}");
            for a in 0..3 {
                v.length(&f(&format!("size[{a}]")), b.size[a]);
                let c = b.cells[a];
                v.check(
                    &f(&format!("cells[{a}]")),
                    c as f64,
                    (1..=256).contains(&c),
                    "must lie in [1, 256]",
                );
            }
            v.finite3(&f("origin"), b.origin);
            if let Some(p) = b.pin_x_below {
                v.check(&f("pin_x_below"), p, p.is_finite(), "must be finite");
            }
        }
        for (k, m) in self.mesh.iter().enumerate() {
            v.finite3(&format!("mesh[{k}].translate"), m.translate);
            v.positive(&format!("mesh[{k}].scale"), m.scale);
        }
        for (k, c) in self.collider.iter().enumerate() {
            let f = |s: &str| format!("collider[{k}].{s}");
            v.finite3(&f("center"), c.center);
            for (a, &r) in c.rotation_deg.iter().enumerate() {
                v.check(
                    &f(&format!("rotation_deg[{a}]")),
                    r,
                    r.is_finite() && r.abs() <= 360.0,
                    "must be finite degrees with |angle| <= 360",
                );
            }
            v.check(
                &f("friction"),
                c.friction,
                c.friction.is_finite() && c.friction >= 0.0,
                "must be finite and >= 0",
            );
            v.check(
                &f("restitution"),
                c.restitution,
                (0.0..=1.0).contains(&c.restitution),
                "must lie in [0, 1]",
            );
            v.finite3(&f("velocity"), c.velocity);
            match &c.shape {
                ShapeSpec::Plane { normal, offset } => {
                    v.finite3(&f("shape.plane.normal"), *normal);
                    v.check_text(
                        &f("shape.plane.normal"),
                        format!("{normal:?}"),
                        normal.iter().any(|&n| n != 0.0),
                        "must be non-zero",
                    );
                    v.check(
                        &f("shape.plane.offset"),
                        *offset,
                        offset.is_finite(),
                        "must be finite",
                    );
                }
                ShapeSpec::Sphere { radius } => v.length(&f("shape.sphere.radius"), *radius),
                ShapeSpec::Box { half_extents } => {
                    for a in 0..3 {
                        v.length(&f(&format!("shape.box.half_extents[{a}]")), half_extents[a]);
                    }
                }
                ShapeSpec::Capsule {
                    half_length,
                    radius,
                } => {
                    v.check(
                        &f("shape.capsule.half_length"),
                        *half_length,
                        half_length.is_finite() && *half_length >= 0.0,
                        "must be finite and >= 0",
                    );
                    v.length(&f("shape.capsule.radius"), *radius);
                }
                ShapeSpec::Mesh {
                    path,
                    cell,
                    padding,
                    scale,
                } => {
                    v.check_text(
                        &f("shape.mesh.path"),
                        path.display().to_string(),
                        !path.as_os_str().is_empty(),
                        "must name a mesh file",
                    );
                    v.length(&f("shape.mesh.cell"), *cell);
                    if let Some(p) = padding {
                        v.check(
                            &f("shape.mesh.padding"),
                            *p,
                            p.is_finite() && *p >= 0.0,
                            "must be finite and >= 0",
                        );
                    }
                    v.length(&f("shape.mesh.scale"), *scale);
                }
            }
        }
        match &self.contacts {
            Some(c) => {
                v.length("contacts.radius", c.radius);
                v.check(
                    "contacts.margin",
                    c.margin,
                    c.margin.is_finite() && c.margin >= 0.0,
                    "must be finite and >= 0",
                );
            }
            None if !self.collider.is_empty() => {
                v.check_text("contacts", "absent".into(), false, "a [contacts] table with the particle radius is required when there are colliders");
            }
            None => {}
        }
        for (k, c) in self.continuum.iter().enumerate() {
            crate::continuum::validate_spec(&mut v, k, c);
        }
        for (k, f) in self.fluid.iter().enumerate() {
            crate::fluid::validate(&mut v, k, f);
        }
        if self.cloth.is_empty()
            && self.rope.is_empty()
            && self.soft_box.is_empty()
            && self.mesh.is_empty()
            && self.continuum.is_empty()
            && self.fluid.is_empty()
        {
            v.check_text(
                "cloth/rope/soft_box/mesh/continuum/fluid",
                "none".into(),
                false,
                "the scene has no body",
            );
        }
        v.finish()
    }
}
