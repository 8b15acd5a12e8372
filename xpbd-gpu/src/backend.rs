//! The interface both backends implement, so one test suite and one benchmark drive either,
//! and the CPU backend: `xpbd_core::Simulation<3>` plus the colliders as a contact block.

use nalgebra::Vector3;
use xpbd_core::constraint::{ConstraintKind, SubstepContext};
use xpbd_core::{Particles, Simulation, Vector};

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

/// Contact constraints `C = dist(x_p, collider_k) ≥ 0`, one per (particle, collider), index
/// `p · K + k`, so each particle meets the colliders in list order as on the GPU. Unilateral,
/// compliance 0. Friction is applied in `end_substep` (see [`SceneCollider`]).
#[derive(Debug, Clone)]
pub struct ContactConstraints {
    colliders: Vec<SceneCollider>,
    particle_ids: Vec<u32>,
}

impl ContactConstraints {
    /// Contacts of every particle with every collider.
    pub fn new(colliders: Vec<SceneCollider>, n_particles: usize) -> Self {
        Self {
            colliders,
            particle_ids: (0..n_particles as u32).collect(),
        }
    }
}

impl ConstraintKind<3> for ContactConstraints {
    const NAME: &'static str = "contact";

    fn len(&self) -> usize {
        self.particle_ids.len() * self.colliders.len()
    }

    fn stencil(&self, c: usize) -> &[u32] {
        let p = c / self.colliders.len();
        &self.particle_ids[p..p + 1]
    }

    fn compliance(&self, _c: usize) -> f64 {
        0.0
    }

    fn unilateral(&self) -> bool {
        true
    }

    fn evaluate(&self, c: usize, xs: &[Vector<3>], grad: &mut [Vector<3>]) -> f64 {
        match self.colliders[c % self.colliders.len()].distance(&xs[0]) {
            Some((value, n)) => {
                grad[0] = n;
                value
            }
            None => {
                grad[0] = Vector::<3>::zeros();
                0.0
            }
        }
    }

    fn end_substep(&mut self, particles: &mut Particles<3>, lambda: &[f64], ctx: &SubstepContext) {
        let k_count = self.colliders.len();
        for (c, &l) in lambda.iter().enumerate() {
            let p = c / k_count;
            let w = particles.inv_mass[p];
            if l <= 0.0 || w <= 0.0 {
                continue;
            }
            let collider = &self.colliders[c % k_count];
            let Some((_, n)) = collider.distance(&particles.x[p]) else {
                continue;
            };
            let v = particles.v[p];
            let vt = v - n * v.dot(&n);
            let speed_t = vt.norm();
            if speed_t > 0.0 {
                let dv = (collider.friction() * w * l / ctx.h).min(speed_t);
                particles.v[p] = v - vt * (dv / speed_t);
            }
        }
    }
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
            }
        }
        if !scene.colliders.is_empty() {
            sim.add_constraints(ContactConstraints::new(
                scene.colliders.clone(),
                scene.particles.len(),
            ))?;
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
