//! The interface both backends implement, so one test suite and one benchmark drive either,
//! and the CPU backend: `xpbd_core::Simulation<3>` plus the colliders as the core's contact
//! block.

use nalgebra::Vector3;
use xpbd_core::contact::{Collider, ColliderContacts, ContactOptions, Friction, Pose, Shape};
use xpbd_core::{Simulation, Vector};

use crate::{GpuError, Scene, SceneBlock, SceneCollider};

/// Step a scene and read its state back, whatever runs it.
pub trait StepBackend {
    /// Human-readable name (`"cpu f64"`, or the GPU adapter).
    fn backend_name(&self) -> String;
    /// Advances by `dt` (substeps from the settings). On error the state is rolled back.
    fn step(&mut self, dt: f64) -> Result<(), GpuError>;
    /// Current positions.
    fn positions(&self) -> Result<Vec<Vector3<f64>>, GpuError>;
    /// Current velocities.
    fn velocities(&self) -> Result<Vec<Vector3<f64>>, GpuError>;
    /// Simulation time (s).
    fn time(&self) -> f64;
}

/// The colliders as the core's contact block (particle radius `radius`, the default options),
/// which the GPU's `collide` kernel mirrors: the same unilateral constraint, signed distances
/// and position-level Coulomb friction.
pub fn core_contacts(
    colliders: &[SceneCollider],
    radius: f64,
) -> Result<ColliderContacts<3>, GpuError> {
    let mut contacts = ColliderContacts::new(radius, ContactOptions::default())?;
    let identity = nalgebra::Matrix3::identity();
    for c in colliders {
        let (shape, translation, rotation) = match c.clone() {
            SceneCollider::Plane { normal, offset, .. } => (
                Shape::HalfSpace {
                    normal: normal.normalize(),
                    offset,
                },
                Vector::<3>::zeros(),
                identity,
            ),
            SceneCollider::Sphere { centre, radius, .. } => {
                (Shape::Sphere { radius }, centre, identity)
            }
            SceneCollider::Box {
                centre,
                rotation,
                half_extents,
                ..
            } => (Shape::Box { half_extents }, centre, rotation),
            SceneCollider::Capsule {
                centre,
                rotation,
                half_length,
                radius,
                ..
            } => (
                Shape::Capsule {
                    half_length,
                    radius,
                },
                centre,
                rotation,
            ),
            SceneCollider::Sdf {
                centre,
                rotation,
                grid,
                ..
            } => (Shape::Sdf(grid), centre, rotation),
        };
        let collider = Collider::fixed(shape)
            .at(Pose {
                translation,
                rotation,
            })
            .with_friction(Friction::coulomb(c.friction())?);
        contacts.add_collider(collider)?;
    }
    Ok(contacts)
}

/// The CPU reference backend (f64), `xpbd_core::Simulation<3>` built from a [`Scene`].
#[derive(Debug)]
pub struct CpuBackend {
    sim: Simulation<3>,
}

impl CpuBackend {
    /// Builds the simulation: the scene's blocks in order, then the contacts.
    pub fn new(scene: &Scene) -> Result<Self, GpuError> {
        scene.validate()?;
        let mut sim = Simulation::new(scene.particles.clone(), scene.settings.clone())?;
        for b in &scene.blocks {
            match b {
                SceneBlock::Distance(k) => {
                    sim.add_constraints(k.clone())?;
                }
                SceneBlock::DihedralBending(k) => {
                    sim.add_constraints(k.clone())?;
                }
                SceneBlock::TetVolume(k) => {
                    sim.add_constraints(k.clone())?;
                }
                SceneBlock::IsometricBending(k) => {
                    sim.add_constraints(k.clone())?;
                }
                SceneBlock::NeoHookean(k) => {
                    sim.add_constraints(k.clone())?;
                }
            }
        }
        if !scene.colliders.is_empty() {
            let mut contacts = core_contacts(&scene.colliders, scene.contact_radius)?;
            if !scene.contact_radii.is_empty() {
                contacts.set_radii(scene.contact_radii.clone())?;
            }
            sim.add_constraints(contacts)?;
        }
        Ok(Self { sim })
    }

    /// The wrapped simulation.
    pub fn simulation(&self) -> &Simulation<3> {
        &self.sim
    }
}

impl StepBackend for CpuBackend {
    fn backend_name(&self) -> String {
        "cpu f64 (xpbd-core)".into()
    }

    fn step(&mut self, dt: f64) -> Result<(), GpuError> {
        self.sim.step(dt)?;
        Ok(())
    }

    fn positions(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        Ok(self.sim.particles().x.clone())
    }

    fn velocities(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        Ok(self.sim.particles().v.clone())
    }

    fn time(&self) -> f64 {
        self.sim.time()
    }
}
