//! The backend-neutral scene description, [`SceneDesc`], and the Rust builder that writes one.
//!
//! A scene is described once: materials, bodies (cloth, rope, soft box, mesh, continuum),
//! colliders, how bodies touch, solver and time settings, outputs. Every way of running it
//! builds from that one description:
//!
//! * a scene file deserializes into it ([`SceneDesc::parse`], [`SceneDesc::load`]);
//! * Rust code writes it with [`SceneBuilder`] (below), the same fields under the same names;
//! * [`BuiltScene::from_desc`] builds the CPU simulation with its frame driver (grips,
//!   nozzles, adaptive steps, exports), and [`FromDesc`] gives the bare
//!   [`xpbd_core::Simulation`] for a caller who steps it alone;
//! * [`SceneDesc::to_toml`] writes it back as a scene file (and so into checkpoints).
//!
//! Validation happens on the description ([`SceneDesc::validate`]: field path and bad value;
//! line and column too when it came from a file), and every builder of a simulation calls it,
//! so a description written in Rust is refused exactly as the same scene file would be.
//!
//! ```
//! use xpbd_scene::continuum::{ContinuumSpec, Preset};
//! use xpbd_scene::region::RegionSpec;
//! use xpbd_scene::scene::{ClothSpec, ColliderSpec, MaterialSpec};
//! use xpbd_scene::{BuiltScene, SceneDesc};
//!
//! // A ball of sand dropped on a cotton sheet pinned at its corners, above the ground.
//! let desc = SceneDesc::builder("sand on cloth", 1e-3, 5)
//!     .material("cotton", MaterialSpec::sheet(1500.0, 5e8, 5e-4))
//!     .material("sand", MaterialSpec::preset(Preset::Sand))
//!     .cloth(ClothSpec::grid("cotton", [12, 12], [0.3, 0.3], [-0.15, -0.15, 0.1])
//!         .pinned(&[[0, 0], [11, 0], [0, 11], [11, 11]]))
//!     .continuum(ContinuumSpec::new("sand", RegionSpec::ball([0.0, 0.0, 0.16], 0.03), 0.01))
//!     .collider(ColliderSpec::ground(0.0, 0.6))
//!     .contact_radius(0.004)
//!     .build()?;
//! let mut scene = BuiltScene::from_desc(desc.clone())?;
//! scene.advance_frame()?;
//! assert_eq!(scene.bodies.len(), 2);
//! // The description is a scene file, and comes back from one unchanged.
//! let text = desc.to_toml()?;
//! assert_eq!(SceneDesc::parse(&text, "sand_on_cloth.toml".as_ref())?, desc);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;

use crate::build::BuiltScene;
use crate::continuum::{ContinuumSpec, Preset, XpbiSection};
use crate::error::SceneError;
use crate::interaction::InteractionSpec;
use crate::region::RegionSpec;
use crate::scene::{
    BendingModel, ClothSpec, ColliderSpec, ContactSection, MaterialSpec, MeshSpec, OutputSection,
    RopeSpec, SceneDesc, ShapeSpec, SoftBoxSpec, SolverSection, TimeSection,
};

/// The path a description built in Rust is named by in error messages; mesh paths in it are
/// relative to the current directory.
pub const DESCRIPTION_PATH: &str = "<description>";

impl BuiltScene {
    /// Validates and builds a description written in Rust; mesh paths are relative to the
    /// current directory and errors name the file [`DESCRIPTION_PATH`].
    pub fn from_desc(desc: SceneDesc) -> Result<Self, SceneError> {
        crate::build::build(desc, Path::new(DESCRIPTION_PATH))
    }
}

impl SceneDesc {
    /// A builder for a scene `name` of `frames` frames of one step of `dt` seconds each.
    pub fn builder(name: &str, dt: f64, frames: usize) -> SceneBuilder {
        SceneBuilder {
            desc: SceneDesc {
                name: name.to_string(),
                description: String::new(),
                time: TimeSection {
                    dt,
                    frames,
                    steps_per_frame: 1,
                    adaptive: None,
                    dt_max: None,
                },
                solver: SolverSection::default(),
                materials: Default::default(),
                cloth: Vec::new(),
                rope: Vec::new(),
                soft_box: Vec::new(),
                mesh: Vec::new(),
                continuum: Vec::new(),
                fluid: Vec::new(),
                collider: Vec::new(),
                contacts: None,
                rigid: Vec::new(),
                joint: Vec::new(),
                attachment: Vec::new(),
                interaction: Vec::new(),
                output: OutputSection::default(),
            },
        }
    }

    #[cfg(feature = "files")]
    /// The description as scene-file text; [`SceneDesc::parse`] of it gives the description
    /// back, field for field (numbers are written in their shortest exact form).
    pub fn to_toml(&self) -> Result<String, SceneError> {
        toml::to_string(self).map_err(|e| SceneError::Unrepresentable {
            message: e.to_string(),
        })
    }
}

/// Writes a [`SceneDesc`] field by field; [`SceneBuilder::build`] fills preset materials and
/// validates it. Sections without a method here are set on [`SceneBuilder::desc_mut`].
#[derive(Debug, Clone)]
#[must_use]
pub struct SceneBuilder {
    desc: SceneDesc,
}

impl SceneBuilder {
    /// What the scene demonstrates (free text).
    pub fn description(mut self, text: &str) -> Self {
        self.desc.description = text.to_string();
        self
    }
    /// Steps per frame (default 1).
    pub fn steps_per_frame(mut self, n: usize) -> Self {
        self.desc.time.steps_per_frame = n;
        self
    }
    /// Adaptive stepping on or off (default: on with a continuum) and its largest step (s).
    pub fn adaptive(mut self, on: bool, dt_max: Option<f64>) -> Self {
        self.desc.time.adaptive = Some(on);
        self.desc.time.dt_max = dt_max;
        self
    }
    /// Solver settings (substeps, iterations, method, gravity, damping, threads).
    pub fn solver(mut self, solver: SolverSection) -> Self {
        self.desc.solver = solver;
        self
    }
    /// Substeps per step and iterations per substep.
    pub fn iterations(mut self, substeps: usize, iterations: usize) -> Self {
        self.desc.solver.substeps = substeps;
        self.desc.solver.iterations = iterations;
        self
    }
    /// A material by name (material ids follow name order).
    pub fn material(mut self, name: &str, material: MaterialSpec) -> Self {
        self.desc.materials.insert(name.to_string(), material);
        self
    }
    /// A cloth grid.
    pub fn cloth(mut self, cloth: ClothSpec) -> Self {
        self.desc.cloth.push(cloth);
        self
    }
    /// A rope.
    pub fn rope(mut self, rope: RopeSpec) -> Self {
        self.desc.rope.push(rope);
        self
    }
    /// A tetrahedral soft box.
    pub fn soft_box(mut self, soft_box: SoftBoxSpec) -> Self {
        self.desc.soft_box.push(soft_box);
        self
    }
    /// A mesh file (path relative to the current directory).
    pub fn mesh(mut self, mesh: MeshSpec) -> Self {
        self.desc.mesh.push(mesh);
        self
    }
    /// An XPBI continuum.
    pub fn continuum(mut self, continuum: ContinuumSpec) -> Self {
        self.desc.continuum.push(continuum);
        self
    }
    /// A body of liquid.
    pub fn fluid(mut self, fluid: crate::fluid::FluidSpec) -> Self {
        self.desc.fluid.push(fluid);
        self
    }
    /// A static collider.
    pub fn collider(mut self, collider: ColliderSpec) -> Self {
        self.desc.collider.push(collider);
        self
    }
    /// The XPBD particles' contact radius (m; `[contacts] radius`), needed with colliders.
    pub fn contact_radius(mut self, radius: f64) -> Self {
        let margin = self.desc.contacts.as_ref().map_or(0.0, |c| c.margin);
        self.desc.contacts = Some(ContactSection { radius, margin });
        self
    }
    /// How two bodies touch (`[[interaction]]`).
    pub fn interaction(mut self, interaction: InteractionSpec) -> Self {
        self.desc.interaction.push(interaction);
        self
    }
    /// What to write per frame.
    pub fn output(mut self, output: OutputSection) -> Self {
        self.desc.output = output;
        self
    }
    /// The description so far, for the sections without a method here.
    pub fn desc_mut(&mut self) -> &mut SceneDesc {
        &mut self.desc
    }
    /// Fills the fields preset materials give and validates the description
    /// ([`SceneDesc::validate`]; errors name the field and the value, file
    /// [`DESCRIPTION_PATH`]).
    pub fn build(mut self) -> Result<SceneDesc, SceneError> {
        self.desc
            .materials
            .values_mut()
            .for_each(MaterialSpec::apply_preset);
        self.desc.validate(Path::new(DESCRIPTION_PATH))?;
        Ok(self.desc)
    }
}

impl MaterialSpec {
    /// A continuum preset (density, E, ν and plasticity from [`Preset`]).
    pub fn preset(preset: Preset) -> Self {
        Self {
            preset: Some(preset),
            ..Self::default()
        }
    }
    /// A sheet: density ρ (kg/m³), Young's modulus E (Pa), thickness t (m).
    pub fn sheet(density: f64, youngs: f64, thickness: f64) -> Self {
        Self {
            density: Some(density),
            youngs: Some(youngs),
            thickness: Some(thickness),
            ..Self::default()
        }
    }
    /// A rope's material: density ρ (kg/m³), Young's modulus E (Pa); a rope has no ν (its
    /// stiffness is E times its cross-section).
    pub fn rope(density: f64, youngs: f64) -> Self {
        Self {
            density: Some(density),
            youngs: Some(youngs),
            ..Self::default()
        }
    }
    /// A soft body's or a continuum's: density ρ (kg/m³), Young's modulus E (Pa), Poisson's
    /// ratio ν.
    pub fn solid(density: f64, youngs: f64, poisson: f64) -> Self {
        Self {
            density: Some(density),
            youngs: Some(youngs),
            poisson: Some(poisson),
            ..Self::default()
        }
    }
    /// With bending stiffness k_b (N·m) for cloth.
    pub fn with_bending(mut self, stiffness: f64) -> Self {
        self.bending_stiffness = Some(stiffness);
        self
    }
}

impl ClothSpec {
    /// A `resolution[0] × resolution[1]` grid of extent `size` (m) in the xy plane, particle
    /// (0, 0) at `origin`; no pins, no bending.
    pub fn grid(material: &str, resolution: [usize; 2], size: [f64; 2], origin: [f64; 3]) -> Self {
        Self {
            name: None,
            material: material.to_string(),
            resolution,
            size,
            origin,
            pins: Vec::new(),
            bending: BendingModel::None,
        }
    }
    /// With these grid points `[i, j]` pinned.
    pub fn pinned(mut self, pins: &[[usize; 2]]) -> Self {
        self.pins = pins.to_vec();
        self
    }
    /// With a bending model (the material needs `bending_stiffness`).
    pub fn with_bending(mut self, bending: BendingModel) -> Self {
        self.bending = bending;
        self
    }
    /// Named, for interactions.
    pub fn named(mut self, name: &str) -> Self {
        self.name = Some(name.to_string());
        self
    }
}

impl ContinuumSpec {
    /// `material` filling `region` on a lattice of spacing Δx (m), at rest, default XPBI
    /// settings.
    pub fn new(material: &str, region: RegionSpec, spacing: f64) -> Self {
        Self {
            name: None,
            material: Some(material.to_string()),
            region: Some(region),
            layer: Vec::new(),
            spacing,
            velocity: [0.0; 3],
            pin: None,
            grips: Vec::new(),
            exclude: Vec::new(),
            xpbi: XpbiSection::default(),
        }
    }
    /// With an initial velocity (m/s).
    pub fn moving(mut self, velocity: [f64; 3]) -> Self {
        self.velocity = velocity;
        self
    }
    /// Named, for interactions.
    pub fn named(mut self, name: &str) -> Self {
        self.name = Some(name.to_string());
        self
    }
}

impl RegionSpec {
    /// The box `[min, max]`.
    pub fn cuboid(min: [f64; 3], max: [f64; 3]) -> Self {
        Self::Box { min, max }
    }
    /// The ball of `radius` about `center`.
    pub fn ball(center: [f64; 3], radius: f64) -> Self {
        Self::Ball { center, radius }
    }
    /// The vertical cylinder of `radius` and `height` standing on `base`.
    pub fn cylinder(base: [f64; 3], radius: f64, height: f64) -> Self {
        Self::Cylinder {
            base,
            radius,
            height,
        }
    }
}

impl ColliderSpec {
    /// A static collider of this shape at the origin, frictionless, no restitution.
    pub fn new(shape: ShapeSpec) -> Self {
        Self {
            shape,
            center: [0.0; 3],
            rotation_deg: [0.0; 3],
            friction: 0.0,
            restitution: 0.0,
            velocity: [0.0; 3],
        }
    }
    /// The ground `z ≤ height` with Coulomb friction μ.
    pub fn ground(height: f64, friction: f64) -> Self {
        Self {
            friction,
            ..Self::new(ShapeSpec::Plane {
                normal: [0.0, 0.0, 1.0],
                offset: height,
            })
        }
    }
    /// Centred at `center` (m).
    pub fn at(mut self, center: [f64; 3]) -> Self {
        self.center = center;
        self
    }
    /// With Coulomb friction μ.
    pub fn with_friction(mut self, friction: f64) -> Self {
        self.friction = friction;
        self
    }
}

impl InteractionSpec {
    /// Bodies `a` and `b` touch with friction μ.
    pub fn touching(a: &str, b: &str, friction: f64) -> Self {
        Self {
            bodies: [a.to_string(), b.to_string()],
            friction: Some(friction),
            contact: true,
        }
    }
    /// Bodies `a` and `b` do not touch.
    pub fn apart(a: &str, b: &str) -> Self {
        Self {
            bodies: [a.to_string(), b.to_string()],
            friction: None,
            contact: false,
        }
    }
}

/// Building a bare simulation from a description, for a caller who steps it alone
/// (`sim.advance(desc.time.dt, &desc.time.stepping(), |_, _| {})` or `sim.step`).
///
/// What only the frame driver ([`BuiltScene::step`]) does, moving grips and releasing nozzle
/// particles, would stand still in a bare simulation, so a description with either is refused
/// by name ([`SceneError::NeedsFrameDriver`]); build a [`BuiltScene`] for it instead.
///
/// ```
/// use xpbd_scene::{FromDesc, SceneDesc};
/// use xpbd_scene::scene::{MaterialSpec, RopeSpec};
/// let rope = RopeSpec { name: None, material: "steel".into(), links: 4, start: [0.0; 3],
///     end: [1.0, 0.0, 0.0], radius: 1e-3, pin_start: true };
/// let desc = SceneDesc::builder("rope", 0.01, 1)
///     .material("steel", MaterialSpec::rope(7800.0, 2e11))
///     .rope(rope)
///     .build()?;
/// let mut sim = xpbd_core::Simulation::from_desc(&desc)?;
/// sim.step(desc.time.dt)?;
/// assert_eq!(sim.particles().len(), 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait FromDesc: Sized {
    /// Validates `desc` and builds from it.
    fn from_desc(desc: &SceneDesc) -> Result<Self, SceneError>;
}

impl FromDesc for xpbd_core::Simulation<3> {
    fn from_desc(desc: &SceneDesc) -> Result<Self, SceneError> {
        for (k, c) in desc.continuum.iter().enumerate() {
            let driven = if !c.grips.is_empty() {
                Some(("grips", "gripped particles"))
            } else if matches!(c.region, Some(RegionSpec::Nozzle(_))) {
                Some(("region", "nozzle particles"))
            } else {
                None
            };
            if let Some((field, feature)) = driven {
                return Err(SceneError::NeedsFrameDriver {
                    field: format!("continuum[{k}].{field}"),
                    feature,
                });
            }
        }
        if let Some(k) = desc
            .fluid
            .iter()
            .position(|f| matches!(f.region, RegionSpec::Nozzle(_)))
        {
            return Err(SceneError::NeedsFrameDriver {
                field: format!("fluid[{k}].region"),
                feature: "nozzle particles",
            });
        }
        Ok(BuiltScene::from_desc(desc.clone())?.sim)
    }
}
