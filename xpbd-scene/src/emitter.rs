//! The nozzle of `region = { nozzle = { .. } }` driven inside a [`crate::BuiltScene`]: the
//! library's own [`Nozzle`] (`xpbi_continuum::emitter`) on the scene's shared simulation.
//! Before every step of Δt, the reservoir particles less than v Δt / 2 above the exit plane
//! (the ones that reach it in this step, to the nearest step) are released (inverse mass 1/(ρΔx³) of the body's density, no kinematic target, velocity −v ẑ) and the others get the
//! kinematic target `x − v Δt ẑ`. Released mass after time t is ρ A v t within one lattice
//! layer, `A = n_c Δx²` (the emitter module's mass balance).

use xpbd_core::Particles;
use xpbi_continuum::emitter::Nozzle;

/// A nozzle feeding one `[[continuum]]` or `[[fluid]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Emitter {
    /// The body it feeds, by field (`continuum[0]`, `fluid[1]`).
    pub field: String,
    /// The nozzle.
    pub nozzle: Nozzle<3>,
}

impl Emitter {
    /// Releases the particles that reach the exit plane in this step and moves the others' kinematic
    /// targets down by v Δt ([`Nozzle::drive`]).
    pub fn before_step(&mut self, p: &mut Particles<3>, dt: f64) {
        self.nozzle.drive(p, dt);
    }

    /// Particles released so far.
    pub fn released(&self) -> usize {
        self.nozzle.released()
    }

    /// Particles still in the nozzle.
    pub fn pending(&self) -> usize {
        self.nozzle.pending()
    }

    /// Discrete outlet cross-section `A = n_c Δx²` (m²).
    pub fn area(&self) -> f64 {
        self.nozzle.area()
    }

    /// Lattice columns inside the outlet (`n_c`).
    pub fn columns(&self) -> usize {
        self.nozzle.columns()
    }

    /// Re-derives the released count from restored particles.
    #[cfg(feature = "files")]
    pub(crate) fn resync(&mut self, p: &Particles<3>) {
        self.nozzle.resync(p);
    }
}
