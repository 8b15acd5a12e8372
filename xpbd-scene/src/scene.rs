//! The scene file format (TOML) and its parser. See the crate docs for an annotated example.
//!
//! Parsing is two-stage: serde (through `serde_path_to_error`, so a type error names the
//! field path, and toml's span, so it names the line and column; unknown fields are rejected
//! by `deny_unknown_fields`), then [`SceneDesc::validate`], which range-checks every number
//! and names the field and the bad value.
//!
//! The description's sections live in submodules, re-exported here: [`settings`] (`[time]`,
//! `[solver]`, `[output]`), [`material`] (`[materials.NAME]`), [`body`] (`[[cloth]]`,
//! `[[rope]]`, `[[soft_box]]`, `[[mesh]]`) and [`collider`] (`[[collider]]`, `[contacts]`); the
//! range checks are in the crate's validator (`validate.rs`), one function per section.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::continuum::ContinuumSpec;
use crate::error::SceneError;
use crate::validate::{Validator, sections};

pub mod body;
pub mod collider;
pub mod material;
pub mod rigid;
pub mod settings;

pub use body::{BendingModel, ClothSpec, MeshKind, MeshSpec, RopeSpec, SoftBoxSpec};
pub use collider::{ColliderSpec, ContactSection, ShapeSpec};
pub use material::MaterialSpec;
pub use rigid::{AttachmentSpec, JointKindSpec, JointSpec, RigidSpec};
pub use settings::{Format, OutputSection, SolverSection, TimeSection};

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
    /// `[[rigid]]`: dynamic rigid bodies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rigid: Vec<RigidSpec>,
    /// `[[joint]]`: joints between rigid bodies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joint: Vec<JointSpec>,
    /// `[[attachment]]`: particles tied to rigid bodies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachment: Vec<AttachmentSpec>,
    /// How pairs of bodies touch (pairs with a continuum touch by default; see
    /// [`crate::interaction`]).
    #[serde(default)]
    pub interaction: Vec<crate::interaction::InteractionSpec>,
    /// What to write per frame.
    #[serde(default)]
    pub output: OutputSection,
}

fn one() -> usize {
    1
}

fn unit() -> f64 {
    1.0
}

#[cfg(feature = "files")]
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
    #[cfg(feature = "files")]
    pub fn load(path: &Path) -> Result<Self, SceneError> {
        let text = std::fs::read_to_string(path).map_err(|e| SceneError::Io {
            file: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Self::parse(&text, path)
    }

    #[cfg(feature = "files")]
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

    /// Range checks of every number, with the field path and the bad value: each section in
    /// turn (`crate::validate::sections`), the first error found is returned.
    pub fn validate(&self, file: &Path) -> Result<(), SceneError> {
        let mut v = Validator::new(file);
        sections::time(&mut v, self);
        sections::solver(&mut v, &self.solver);
        sections::output(&mut v, &self.output);
        crate::interaction::validate(&mut v, &self.body_names(), &self.interaction);
        crate::material_use::validate(&mut v, self);
        sections::materials(&mut v, &self.materials);
        sections::cloths(&mut v, &self.cloth);
        sections::ropes(&mut v, &self.rope);
        sections::soft_boxes(&mut v, &self.soft_box);
        sections::meshes(&mut v, &self.mesh);
        sections::colliders(&mut v, &self.collider);
        sections::contacts(&mut v, self.contacts.as_ref(), !self.collider.is_empty());
        sections::continua(&mut v, &self.continuum);
        sections::fluids(&mut v, &self.fluid);
        crate::validate::rigid::validate(&mut v, self);
        sections::has_body(&mut v, self);
        v.finish()
    }
}
