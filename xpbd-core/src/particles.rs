//! Particle state as structure-of-arrays.

use crate::{BuildError, Vector};

/// The particle store: one `Vec` per field, indexed by particle id.
///
/// * `x`: positions (the unknowns of the constraint solve),
/// * `x_prev`: positions at the start of the current substep (`xⁿ`),
/// * `v`: velocities,
/// * `inv_mass`: inverse masses; `0` means pinned or kinematic,
/// * `kinematic_target`: where a kinematic (zero inverse mass) particle must be at the end of the
///   next step; substeps interpolate linearly towards it. `None` = stays where it is.
/// * `force`: external forces applied at every substep (N), in addition to gravity.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Particles<const D: usize> {
    pub x: Vec<Vector<D>>,
    pub x_prev: Vec<Vector<D>>,
    pub v: Vec<Vector<D>>,
    pub inv_mass: Vec<f64>,
    pub kinematic_target: Vec<Option<Vector<D>>>,
    pub force: Vec<Vector<D>>,
}

impl<const D: usize> Particles<D> {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of particles.
    pub fn len(&self) -> usize {
        self.x.len()
    }

    /// Whether the store is empty.
    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    /// Adds a particle at rest with the given inverse mass (0 = pinned) and returns its index.
    /// Values are validated by [`Particles::validate`] when the simulation is built.
    pub fn push(&mut self, x: Vector<D>, inv_mass: f64) -> usize {
        self.x.push(x);
        self.x_prev.push(x);
        self.v.push(Vector::<D>::zeros());
        self.inv_mass.push(inv_mass);
        self.kinematic_target.push(None);
        self.force.push(Vector::<D>::zeros());
        self.x.len() - 1
    }

    /// Adds a particle of mass `mass` (kg); `mass = f64::INFINITY` pins it.
    pub fn push_with_mass(&mut self, x: Vector<D>, mass: f64) -> Result<usize, BuildError> {
        let particle = self.len();
        if mass.is_nan() {
            return Err(BuildError::NonFiniteMass {
                particle,
                value: mass,
            });
        }
        if mass <= 0.0 {
            return Err(BuildError::NegativeMass {
                particle,
                value: mass,
            });
        }
        Ok(self.push(x, 1.0 / mass))
    }

    /// Mass of particle `i` (infinite when pinned).
    pub fn mass(&self, i: usize) -> f64 {
        if self.inv_mass[i] > 0.0 {
            1.0 / self.inv_mass[i]
        } else {
            f64::INFINITY
        }
    }

    /// Pins particle `i` where it is (inverse mass 0, velocity 0).
    pub fn pin(&mut self, i: usize) {
        self.inv_mass[i] = 0.0;
        self.v[i] = Vector::<D>::zeros();
    }

    /// Checks every field: finite non-negative inverse masses, finite positions and velocities,
    /// consistent lengths.
    pub fn validate(&self) -> Result<(), BuildError> {
        let n = self.x.len();
        let lens = [
            self.x_prev.len(),
            self.v.len(),
            self.inv_mass.len(),
            self.kinematic_target.len(),
            self.force.len(),
        ];
        if lens.iter().any(|&l| l != n) {
            return Err(BuildError::InvalidGeometry(format!(
                "particle arrays have different lengths: x {n}, others {lens:?}"
            )));
        }
        for i in 0..n {
            let w = self.inv_mass[i];
            if !w.is_finite() {
                return Err(BuildError::NonFiniteMass {
                    particle: i,
                    value: w,
                });
            }
            if w < 0.0 {
                return Err(BuildError::NegativeMass {
                    particle: i,
                    value: w,
                });
            }
            if !self.x[i].iter().all(|c| c.is_finite()) {
                return Err(BuildError::NonFiniteState {
                    particle: i,
                    field: "position",
                });
            }
            if !self.v[i].iter().all(|c| c.is_finite()) {
                return Err(BuildError::NonFiniteState {
                    particle: i,
                    field: "velocity",
                });
            }
            if !self.force[i].iter().all(|c| c.is_finite()) {
                return Err(BuildError::NonFiniteState {
                    particle: i,
                    field: "force",
                });
            }
            if let Some(t) = self.kinematic_target[i]
                && !t.iter().all(|c| c.is_finite())
            {
                return Err(BuildError::NonFiniteState {
                    particle: i,
                    field: "kinematic target",
                });
            }
        }
        Ok(())
    }

    /// Total kinetic energy ½ Σ mᵢ |vᵢ|² over free particles (J).
    pub fn kinetic_energy(&self) -> f64 {
        (0..self.len())
            .filter(|&i| self.inv_mass[i] > 0.0)
            .map(|i| 0.5 * self.v[i].norm_squared() / self.inv_mass[i])
            .sum()
    }

    /// Gravitational potential energy −Σ mᵢ g·xᵢ over free particles (J).
    pub fn gravitational_energy(&self, gravity: &Vector<D>) -> f64 {
        (0..self.len())
            .filter(|&i| self.inv_mass[i] > 0.0)
            .map(|i| -gravity.dot(&self.x[i]) / self.inv_mass[i])
            .sum()
    }
}
