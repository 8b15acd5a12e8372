//! The assembly: a scene description turned into plain data that every backend builds from.
//!
//! [`assemble`] validates a [`SceneDesc`], samples and imports its bodies into one particle
//! store (cloth, rope, soft_box, mesh, continuum, fluid sections in that order, each in list
//! order), and plans the constraint blocks in the order the loop projects them
//! ([`BlockPlan`]): the XPBD material blocks, the collider contacts (with the colliders'
//! contact against cloth triangles), each continuum's position correction and XPBI block, the
//! fluids, and last the contacts between bodies, so that contacts have the last word in a
//! Gauss–Seidel sweep. [`Assembly::into_scene`] builds the CPU [`Simulation`] from it; another
//! backend reads the same plans (a continuum's settings, materials and correction radius as
//! numbers, not as a CPU block to take apart).
//!
//! The assembly is deterministic, which is what makes checkpoints small: a checkpoint stores
//! the scene text and the evolving state only.

mod bodies;
mod colliders;
mod continuum;
mod rigid;
mod simulation;

use std::ops::Range;
use std::path::{Path, PathBuf};

use xpbd_core::constraint::{
    DihedralBendingConstraints, DistanceConstraints, IsometricBendingConstraints,
    NeoHookeanTetConstraints,
};
use xpbd_core::contact::ColliderContacts;
use xpbd_core::{Particles, SolverSettings, Vector};
use xpbi_continuum::continuum::XpbiSettings;

use crate::error::SceneError;
use crate::export::Topology;
use crate::fluid::FluidPlan;
use crate::interaction::Body;
use crate::scene::SceneDesc;

/// A scene assembled: particles, what they form, and the plan of every constraint block.
#[derive(Debug, Clone)]
pub struct Assembly {
    /// The validated description.
    pub scene: SceneDesc,
    /// The file the description came from (errors name it; mesh paths are relative to it).
    pub file: PathBuf,
    /// Every body's particles in one store, in body order.
    pub particles: Particles<3>,
    /// The solver settings of `[solver]`.
    pub settings: SolverSettings<3>,
    /// Cells and materials for export.
    pub topology: Topology,
    /// Every body (name, kind, particles, contact radius, surface) in build order.
    pub bodies: Vec<Body>,
    /// The constraint blocks, in projection order.
    pub plans: Vec<BlockPlan>,
    /// Gripped (kinematic) particles and their velocities (m/s).
    pub grips: Vec<(usize, Vector<3>)>,
    /// Extrusion nozzles (`region = { nozzle = .. }`).
    pub emitters: Vec<crate::emitter::Emitter>,
}

/// A constraint block of an [`Assembly`], as data.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum BlockPlan {
    /// Stretch and shear springs of a cloth, links of a rope, edges of a mesh; `field` is the
    /// body's table (`cloth[0]`).
    Distance {
        /// The body's table in the description.
        field: String,
        /// The constraints.
        block: DistanceConstraints,
    },
    /// Dihedral-angle bending of a cloth.
    Dihedral {
        /// The body's table in the description.
        field: String,
        /// The constraints.
        block: DihedralBendingConstraints,
    },
    /// Isometric (quadratic) bending of a cloth.
    Isometric {
        /// The body's table in the description.
        field: String,
        /// The constraints.
        block: IsometricBendingConstraints,
    },
    /// Stable neo-Hookean tetrahedra of a soft body.
    Tets {
        /// The body's table in the description.
        field: String,
        /// The constraints.
        block: NeoHookeanTetConstraints<3>,
    },
    /// Particles against the colliders, and with a cloth and a sphere, capsule or box
    /// collider, the cloth triangles against those colliders (which would otherwise slip
    /// between the vertices).
    Colliders {
        /// The colliders and every particle's contact radius.
        contacts: ColliderContacts<3>,
        /// The cloths' triangles that touch the convex colliders (empty: none).
        cloth_triangles: Vec<[usize; 3]>,
    },
    /// An XPBI continuum and its position correction.
    Continuum(ContinuumPlan),
    /// The position-based fluids (each sees the others and the other bodies as boundary).
    Fluids(Vec<FluidPlan>),
    /// Contacts between the particles of different bodies and against their triangles, as
    /// `[[interaction]]` and the bodies' defaults say.
    Touching {
        /// The contact search margin (m), `[contacts] margin` or 0.
        margin: f64,
    },
    /// The rigid bodies (`[[rigid]]`, `[[joint]]`), with the colliders they meet and the
    /// particles they touch.
    Rigid(Box<xpbd_core::rigid::RigidBodies>),
}

impl BlockPlan {
    /// What the block is, in words (for a backend that refuses it by name).
    pub fn describe(&self) -> &'static str {
        match self {
            Self::Distance { .. } => "distance constraints",
            Self::Dihedral { .. } => "dihedral bending",
            Self::Isometric { .. } => "isometric bending",
            Self::Tets { .. } => "neo-Hookean tetrahedra",
            Self::Colliders { .. } => "collider contacts",
            Self::Continuum(_) => "XPBI continuum",
            Self::Fluids(_) => "position-based fluid",
            Self::Touching { .. } => "contacts between bodies",
            Self::Rigid(_) => "rigid bodies",
        }
    }
}

/// A `[[continuum]]`'s blocks as data: its particles, material table, settings and position
/// correction.
#[derive(Debug, Clone)]
pub struct ContinuumPlan {
    /// The body's table in the description (`continuum[0]`).
    pub field: String,
    /// Scene material id of the first layer (the only one without layers).
    pub material_id: u32,
    /// The body's material table.
    pub materials: Vec<xpbi_continuum::Material>,
    /// Each member's entry of `materials` (empty for a table of one).
    pub ids: Vec<u8>,
    /// Its particles in the store.
    pub members: Range<usize>,
    /// The XPBI settings (spacing, kernel, XSPH, sweep, ...).
    pub settings: XpbiSettings,
    /// The position correction's radius in spacings (pairs kept `0.75 r Δx` apart; `None`:
    /// no correction).
    pub correction_radius: Option<f64>,
    /// Its `velocity`, as written (for the CFL error).
    pub(crate) velocity: String,
}

/// The boundary faces of `tets` (faces of exactly one tet): a soft body's surface, which other
/// bodies' particles touch.
fn boundary(tets: &[[usize; 4]]) -> Vec<[usize; 3]> {
    Topology {
        tets: tets.to_vec(),
        ..Topology::default()
    }
    .surface_triangles()
}

fn v3(a: [f64; 3]) -> Vector<3> {
    Vector::<3>::new(a[0], a[1], a[2])
}

/// Validates `scene` ([`SceneDesc::validate`]) and assembles it; `file` names it in errors and
/// holds its meshes. What the bodies will allocate is checked before any is (meshes again once
/// imported).
pub fn assemble(scene: SceneDesc, file: &Path) -> Result<Assembly, SceneError> {
    scene.validate(file)?;
    let available = crate::budget::available_memory();
    let mut budget = scene.memory_estimate();
    if let Some(bytes) = available {
        budget.check(bytes, file)?;
    }
    crate::budget::WorkEstimate::new(&scene, &budget).check(&budget, file)?;
    let mut a = bodies::Assembler::new(&scene, file);
    for (k, c) in scene.cloth.iter().enumerate() {
        a.cloth(k, c)?;
    }
    for (k, r) in scene.rope.iter().enumerate() {
        a.rope(k, r)?;
    }
    for (k, b) in scene.soft_box.iter().enumerate() {
        a.soft_box(k, b)?;
    }
    for (k, m) in scene.mesh.iter().enumerate() {
        a.mesh(k, m, &mut budget, available)?;
    }
    let (mut grips, mut emitters, mut continua) = (Vec::new(), Vec::new(), Vec::new());
    for (k, c) in scene.continuum.iter().enumerate() {
        continua.push(a.continuum(k, c, &mut grips, &mut emitters)?);
    }
    let fluids = crate::fluid::add_particles(
        crate::fluid::Store {
            particles: &mut a.particles,
            topology: &mut a.topology,
            bodies: &mut a.bodies,
            names: &a.names,
            file,
        },
        &scene.fluid,
        &mut emitters,
    )?;
    let s = &scene.solver;
    let settings = SolverSettings::<3> {
        substeps: s.substeps,
        iterations: s.iterations,
        solver: s.method,
        gravity: v3(s.gravity),
        velocity_damping: s.velocity_damping,
        multiplier_warm_start: s.multiplier_warm_start,
        threads: s.threads,
        ..SolverSettings::default()
    };
    // The simulation's own checks of the store and the settings, before the blocks'.
    (a.particles.validate())
        .and_then(|()| settings.validate())
        .map_err(SceneError::build_at(file, "solver".into()))?;
    let bodies::Assembler {
        particles,
        topology,
        distance,
        dihedral,
        isometric,
        tets,
        bodies,
        ..
    } = a;
    let mut plans: Vec<BlockPlan> = Vec::new();
    plans.extend(
        distance
            .into_iter()
            .map(|(field, block)| BlockPlan::Distance { field, block }),
    );
    plans.extend(
        dihedral
            .into_iter()
            .map(|(field, block)| BlockPlan::Dihedral { field, block }),
    );
    plans.extend(
        isometric
            .into_iter()
            .map(|(field, block)| BlockPlan::Isometric { field, block }),
    );
    plans.extend(
        tets.into_iter()
            .map(|(field, block)| BlockPlan::Tets { field, block }),
    );
    let spaced: Vec<(Range<usize>, f64)> = (continua.iter())
        .map(|c| (c.members.clone(), c.settings.spacing))
        .chain(fluids.iter().map(|f| (f.members.clone(), f.spacing)))
        .collect();
    let collider_contacts =
        colliders::collider_contacts(&scene, file, &particles, &bodies, &spaced)?;
    let rigid = rigid::rigid_bodies(
        &scene,
        file,
        &particles,
        &bodies,
        collider_contacts.as_ref().map_or(&[], |c| c.colliders()),
    )?;
    if let Some(contacts) = collider_contacts {
        // Without a cloth or a convex collider there is no triangle contact (planes and meshes
        // are vertex contact only).
        let convex = contacts.colliders().iter().any(|c| {
            matches!(
                c.shape,
                xpbd_core::contact::Shape::Sphere { .. }
                    | xpbd_core::contact::Shape::Capsule { .. }
                    | xpbd_core::contact::Shape::Box { .. }
            )
        });
        let cloth_triangles = (bodies.iter())
            .filter(|b| convex && b.kind == crate::interaction::BodyKind::Cloth)
            .flat_map(|b| b.triangles.iter().copied())
            .collect();
        plans.push(BlockPlan::Colliders {
            contacts,
            cloth_triangles,
        });
    }
    plans.extend(continua.into_iter().map(BlockPlan::Continuum));
    if !fluids.is_empty() {
        plans.push(BlockPlan::Fluids(fluids));
    }
    plans.push(BlockPlan::Touching {
        margin: scene.contacts.as_ref().map_or(0.0, |c| c.margin),
    });
    if let Some(r) = rigid {
        plans.push(BlockPlan::Rigid(Box::new(r)));
    }
    Ok(Assembly {
        file: file.to_path_buf(),
        particles,
        settings,
        topology,
        bodies,
        plans,
        grips,
        emitters,
        scene,
    })
}
