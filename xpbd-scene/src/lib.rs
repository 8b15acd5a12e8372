//! # xpbd-scene
//!
//! The library in a user's pipeline: scene files, exchange formats and checkpoints
//! for [`xpbd_core`], kept out of the math crates so their users do not pull file-format
//! dependencies.
//!
//! * [`desc`]: the one scene description ([`SceneDesc`]) every way of building a simulation
//!   starts from, its Rust builder ([`SceneBuilder`]), [`BuiltScene::from_desc`] and
//!   [`FromDesc`] (a bare [`xpbd_core::Simulation`]), and the round trip to TOML.
//! * [`scene`]: the TOML scene format of that description, parsed with serde + `toml` 1.x. Errors
//!   name the file, line:column (toml's span) and the field path (`serde_path_to_error`);
//!   range errors name the field and the bad value.
//! * [`build`]: a scene becomes a [`xpbd_core::Simulation`] plus the [`export::Topology`]
//!   written with each frame ([`BuiltScene`]).
//! * [`fluid`]: `[[fluid]]` liquids (position-based fluids) on colliders, sand and cloth.
//! * [`continuum`]: `[[continuum]]` XPBI continua (sand, snow, clay, elastic, viscoplastic)
//!   sampled in regions, in the same simulation as the XPBD bodies and colliders.
//! * [`interaction`]: body names and `[[interaction]]`: how bodies touch (continuum–cloth,
//!   continuum–continuum, any pair listed), through contacts in the same solve.
//! * [`export`]: VTK legacy binary (vtkio; point velocity, inverse mass, material id and, for
//!   XPBI particles, det F, hardening, volume correction and λ; cell material id and stretch
//!   ratio l/l₀, A/A₀, det F = V/V₀), PLY (ply-rs) and OBJ per frame.
//! * [`import`]: OBJ, PLY (ply-rs), TetGen `.node`/`.ele`, Gmsh `.msh` 4.1 (mshio) and 2.2 ASCII;
//!   empty meshes, degenerate elements and inverted tetrahedra are refused.
//! * [`checkpoint`]: bit-exact save/restore ([`Checkpoint`]), including warm-started
//!   multipliers and XPBI's deformation gradients and hardening state.
//! * [`runner`]: run a scene and write its frames (`cargo xtask run SCENE --out DIR`).
//!
//! ## Scene format
//!
//! ```toml
//! name = "cloth on sphere"
//! description = "free text"
//!
//! [time]
//! dt = 0.016666666666666666   # s, per step
//! frames = 150
//! steps_per_frame = 1         # optional, default 1
//! # adaptive = true           # optional; default: true with a [[continuum]] or [[fluid]], false otherwise.
//! #                           # Each dt is advanced in steps of at most dt_max below every
//! #                           # block's bound (XPBI: CFL 0.4 Δx / max|v|); a failing step is
//! #                           # retried at half its size. false: fixed steps of dt.
//! # dt_max = 2.5e-4           # optional, s; default dt
//!
//! [solver]                    # optional, as is each field; these are the defaults
//! substeps = 10
//! iterations = 1
//! method = { kind = "coloured" }   # or { kind = "gauss_seidel" },
//!                                  # { kind = "jacobi", omega = 1.0, averaged = true }
//! gravity = [0.0, 0.0, -9.81]
//! velocity_damping = 0.0      # 1/s
//! threads = 0                 # results do not depend on it
//! # multiplier_warm_start = 0.1
//!
//! [materials.cotton]          # SI units; material id = position in name order
//! density = 1500.0            # kg/m³ (required unless a preset gives it)
//! youngs = 5.0e8              # Pa; absent = inextensible
//! poisson = 0.3               # default 0.3
//! thickness = 0.0005          # m, sheets
//! bending_stiffness = 1.0e-5  # N·m, cloth bending
//!
//! [[cloth]]                   # mass ρ t A, edge compliance α = 1/(E t)
//! material = "cotton"
//! resolution = [24, 24]
//! size = [1.2, 1.2]
//! origin = [-0.6, -0.6, 0.8]
//! pins = [[0, 0], [23, 0]]
//! bending = "isometric"       # "none" | "dihedral" | "isometric"
//!
//! [[rope]]                    # mass ρ π r² L, α = l₀/(E π r²)
//! material = "steel"
//! links = 20
//! start = [0.0, 0.0, 1.0]
//! end = [1.0, 0.0, 1.0]
//! radius = 0.001
//! pin_start = true
//!
//! [[soft_box]]                # Kuhn tets, stable Neo-Hookean (E, ν), lumped ρV/4
//! material = "rubber"
//! size = [1.0, 0.1, 0.1]
//! cells = [20, 2, 2]
//! origin = [0.0, -0.05, 0.5]
//! pin_x_below = 1e-9          # pins x ≤ origin.x + this
//!
//! [[mesh]]                    # .obj / .ply / .node(+.ele) / .msh, relative to the scene file
//! material = "rubber"
//! path = "bunny.node"
//! kind = "soft"               # "soft" (tets) | "cloth" (triangles)
//! translate = [0.0, 0.0, 1.0]
//! scale = 1.0
//! pins = [0, 5]
//!
//! [materials.sand]            # a continuum material: a preset (sand | snow | clay | metal |
//! preset = "sand"             # toothpaste | honey) and/or SI values, which override it:
//! # plasticity = "elastic"
//! # plasticity = { von_mises = { yield_stress = 76.9, hardening_modulus = 0.0 } }
//! # plasticity = { drucker_prager = { friction_angle = 30.0, cohesion = 0.0,
//! #                volume_correction = false, hardening = [35.0, 9.0, 0.2, 10.0] } }
//! #   (friction_angle: tan φ is the friction of a flowing layer, so slopes stand up to φ, on
//! #    Mohr–Coulomb's pyramid, φ < 45°; cone = "shear_flow" reads it on the Drucker–Prager
//! #    cone that agrees in plane shear, cone = "triaxial_compression" as Klár et al.'s
//! #    Mohr–Coulomb compression angle)
//! # plasticity = { drucker_prager = { friction_angle = 32.0, mu_i = { dynamic_angle = 45.0,
//! #                i0 = 0.279, grain_diameter = 5e-4, grain_density = 2650.0 } } }
//! #   (the μ(I) rheology: friction grows with the inertial number; CPU only, the GPU refuses it)
//! # plasticity = { nacc = { friction_angle = 45.0, beta = 0.3, xi = 3.0 } }
//! # plasticity = { herschel_bulkley = { yield_stress = 50.0, viscosity = 10.0, exponent = 0.5 } }
//!
//! [[continuum]]               # XPBI: lattice particles of mass ρΔx³ in a region
//! material = "sand"
//! region = { box = { min = [-0.1, -0.1, 0.0], max = [0.1, 0.1, 0.4] } }
//! # region = { ball = { center = [0, 0, 0.1], radius = 0.05 } }
//! # region = { cylinder = { base = [0, 0, 0], radius = 0.1, height = 0.4 } }
//! # region = { nozzle = { exit = [0, 0, 0.05], radius = 0.005, speed = 0.2, duration = 0.15 } }
//! #   (extrusion: the reservoir moves down and is released below the exit, every step)
//! # region = { mesh = { path = "shapes/bunny.obj", scale = 1.0, translation = [0, 0, 0] } }
//! #   (the lattice points of the mesh's box strictly inside a closed, consistently oriented
//! #    .obj/.ply mesh, path relative to this file's folder; not a layer's region)
//! # exclude = [{ box = { min = [...], max = [...] } }, { ball = { center = [...], radius = 0.02 } },
//! #            { half_spaces = [{ normal = [1, 0, -1], offset = -0.1 }, ...] }]  # cut-outs
//! # instead of material + region, layers of one bonded body (first layer holding a
//! # lattice point takes it; see `layers`):
//! # [[continuum.layer]]
//! # material = "sand"
//! # region = { box = { min = [...], max = [...] } }
//! spacing = 0.02              # Δx (m)
//! velocity = [0.0, 0.0, 0.0]  # initial, m/s
//! # pin = { min = [...], max = [...] }   # particles in this box are pinned
//! # grips = [{ min = [...], max = [...], velocity = [0.05, 0, 0] }]   # kinematic boxes
//! # xpbi = { support_over_spacing = 2.0, xsph_rate = 100.5, plasticity_in_loop = true,
//! #          position_correction = true, pinv_threshold = 0.01, cfl = 0.4,
//! #          min_distance_ratio = 0.5, kernel_frame = "current",   # or "reference"
//! #          sweep = "slabs" }   # or "cells": 3^d cell colours, the GPU's order
//! #   xsph_rate: XSPH as a rate κ (1/s), c = 1 − e^{−κΔt} per step, the same smoothing per
//! #   unit time at any step; or xsph = c, the paper's per-step coefficient (0.01), whose
//! #   smoothing per unit time grows as the step shrinks.
//!
//! [[fluid]]                   # liquid: position-based fluid particles of mass ρ₀Δx³ (see `fluid`)
//! region = { box = { min = [0.3, 0.0, 0.0], max = [0.4, 0.1, 0.2] } }   # box | ball | cylinder
//! spacing = 0.01              # Δx (m)
//! rest_density = 1000.0       # ρ₀ (kg/m³), default water's
//! viscosity = 1.0e-3          # μ (Pa·s), default water's (XSPH)
//! # bulk_modulus = 2.2e9      # K (Pa); absent = incompressible
//! # vorticity_confinement = 0.25  # ε ≥ 0 (dimensionless); default 0, off
//!
//! # Every body may have a name (default: its field, e.g. "cloth[0]"). Bodies touch bodies:
//! # a pair with a continuum or a fluid touches by default (friction 0.5); [[interaction]] sets a pair's
//! # friction, turns it off, or makes two XPBD bodies touch (see `interaction`).
//! # name = "sand"
//! [[interaction]]
//! bodies = ["sand", "cloth[0]"]
//! friction = 0.4              # Coulomb μ between them
//! # contact = false           # they pass through each other
//!
//! [[collider]]                # shape = plane | sphere | box | capsule
//! shape = { sphere = { radius = 0.3 } }
//! center = [0.0, 0.0, 0.3]
//! rotation_deg = [0.0, 0.0, 0.0]   # R = Rz Ry Rx, degrees (e.g. tilted box walls)
//! friction = 0.4
//! restitution = 0.0
//! velocity = [0.0, 0.0, 0.0]  # m/s: a kinematic collider translates at it (default static)
//!
//! [contacts]                  # required with colliders
//! radius = 0.01               # particle radius, m
//! margin = 0.005
//!
//! [output]
//! formats = ["vtk", "ply", "obj"]
//! every = 3                   # write every 3rd frame (frame 0 always)
//! ```
//!
//! ```
//! let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes/cloth_on_sphere.toml");
//! let mut scene = xpbd_scene::BuiltScene::load(&path).unwrap();
//! scene.advance_frame().unwrap();
//! let ckpt = xpbd_scene::Checkpoint::capture(&scene, &std::fs::read_to_string(&path).unwrap(), &path);
//! let restored = xpbd_scene::Checkpoint::from_bytes(&ckpt.to_bytes()).unwrap().restore().unwrap();
//! assert_eq!(restored.sim.particles().x, scene.sim.particles().x);
//! ```

pub mod assembly;
pub mod budget;
pub mod build;
#[cfg(feature = "files")]
pub mod checkpoint;
pub mod continuum;
pub mod desc;
pub mod emitter;
pub mod error;
mod exact;
pub mod export;
pub mod fluid;
pub mod import;
pub mod interaction;
pub mod layers;
#[cfg(feature = "files")]
pub mod locate;
mod material_use;
pub mod region;
#[cfg(feature = "files")]
pub mod runner;
pub mod scene;
mod validate;

pub use assembly::{Assembly, BlockPlan, ContinuumPlan, assemble};
pub use build::{BlockKind, BuiltScene, FrameStepper, build_scene};
#[cfg(feature = "files")]
pub use checkpoint::Checkpoint;
pub use desc::{FromDesc, SceneBuilder};
pub use error::{CheckpointError, ExportError, FrameError, RunError, SceneError};
pub use import::ImportError;
pub use scene::SceneDesc;
/// The earlier name of [`SceneDesc`], which scene files deserialize into.
pub type SceneFile = SceneDesc;
