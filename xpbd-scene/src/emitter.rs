//! The nozzle of `region = { nozzle = { .. } }` driven inside a [`crate::BuiltScene`].
//!
//! `xpbi_continuum::emitter::Nozzle` drives a `ContinuumScene` (its `attach` and `before_step`
//! take one), while a scene file's continuum lives in a shared [`xpbd_core::Simulation`]; this
//! is the same rule on that simulation's particles (request in notes/requests.md for a
//! particle-level `before_step`): before every step of Δt, the reservoir particles below the
//! exit plane are released — inverse mass 1/(ρΔx³), no kinematic target, velocity −v ẑ — and
//! the others get the kinematic target `x − v Δt ẑ`. Released mass after time t is ρ A v t
//! within one lattice layer, `A = n_c Δx²` (the emitter module's mass balance).

use xpbd_core::Particles;

/// A nozzle's state: the reservoir particles not yet released.
#[derive(Debug, Clone, PartialEq)]
pub struct Emitter {
    /// Index of the `[[continuum]]` it feeds.
    pub continuum: usize,
    /// Height of the exit plane (m).
    pub exit_z: f64,
    /// Inflow speed v (m/s, downwards).
    pub speed: f64,
    /// Particle spacing Δx (m).
    pub spacing: f64,
    /// Lattice columns inside the outlet (`n_c`).
    pub columns: usize,
    /// Every reservoir particle (global ids), lowest layer first.
    pub(crate) ids: Vec<usize>,
    /// Inverse mass 1/(ρΔx³) given on release.
    pub(crate) inv_mass: f64,
    /// How many of `ids` (a prefix) have been released.
    pub(crate) released: usize,
}

impl Emitter {
    /// Releases the particles that crossed the exit plane and moves the others' kinematic
    /// targets down by v Δt (`xpbi_continuum::emitter::Nozzle::before_step`).
    pub fn before_step(&mut self, p: &mut Particles<3>, dt: f64) {
        while self.released < self.ids.len() && p.x[self.ids[self.released]].z < self.exit_z {
            let i = self.ids[self.released];
            p.inv_mass[i] = self.inv_mass;
            p.kinematic_target[i] = None;
            p.v[i] = xpbd_core::Vector::<3>::new(0.0, 0.0, -self.speed);
            self.released += 1;
        }
        for &i in &self.ids[self.released..] {
            let mut t = p.x[i];
            t.z -= self.speed * dt;
            p.kinematic_target[i] = Some(t);
        }
    }

    /// Particles released so far.
    pub fn released(&self) -> usize {
        self.released
    }

    /// Particles still in the nozzle.
    pub fn pending(&self) -> usize {
        self.ids.len() - self.released
    }

    /// Discrete outlet cross-section `A = n_c Δx²` (m²).
    pub fn area(&self) -> f64 {
        self.columns as f64 * self.spacing * self.spacing
    }

    /// Re-derives the released count from restored particles (released ones have a mass; the
    /// reservoir releases in order, so they form a prefix).
    pub(crate) fn resync(&mut self, p: &Particles<3>) {
        self.released = self
            .ids
            .iter()
            .take_while(|&&i| p.inv_mass[i] > 0.0)
            .count();
    }
}
