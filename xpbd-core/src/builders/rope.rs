//! Ropes and chains: particles on a line joined by distance constraints.

use crate::constraint::DistanceConstraints;
use crate::{BuildError, Particles, Vector};

/// A straight rope from `start` to `end` with `links` links (`links + 1` particles), total
/// mass `mass` spread over the particles, link compliance `compliance`; `pin_start` pins the
/// first particle.
///
/// ```
/// use xpbd_core::builders::RopeBuilder;
/// use xpbd_core::Vector;
/// let rope = RopeBuilder::<2> { links: 5, start: Vector::<2>::zeros(), end: Vector::<2>::new(0.0, -1.0),
///     mass: 6.0, compliance: 0.0, pin_start: true }.build().unwrap();
/// assert_eq!(rope.particles.len(), 6);
/// assert_eq!(rope.particles.inv_mass[0], 0.0);
/// assert_eq!(rope.particles.inv_mass[1], 1.0);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RopeBuilder<const D: usize> {
    /// Number of links (≥ 1).
    pub links: usize,
    /// First particle.
    pub start: Vector<D>,
    /// Last particle.
    pub end: Vector<D>,
    /// Mass of all particles together (kg), pinned ones included.
    pub mass: f64,
    /// Link compliance (m/N).
    pub compliance: f64,
    /// Pin the first particle.
    pub pin_start: bool,
}

/// A built rope.
#[derive(Debug, Clone)]
pub struct Rope<const D: usize> {
    /// Particles from start to end.
    pub particles: Particles<D>,
    /// Link `k` joins particles `k` and `k + 1`.
    pub links: DistanceConstraints,
}

impl<const D: usize> RopeBuilder<D> {
    /// Validates and builds.
    pub fn build(&self) -> Result<Rope<D>, BuildError> {
        if self.links == 0 {
            return Err(BuildError::ZeroCount { field: "links" });
        }
        if !(self.mass.is_finite() && self.mass > 0.0) {
            return Err(BuildError::NegativeMass {
                particle: 0,
                value: self.mass,
            });
        }
        let n = self.links + 1;
        let mut particles = Particles::new();
        for k in 0..n {
            let t = k as f64 / self.links as f64;
            particles.push(
                self.start + (self.end - self.start) * t,
                n as f64 / self.mass,
            );
        }
        if self.pin_start {
            particles.pin(0);
        }
        let mut links = DistanceConstraints::new();
        for k in 0..self.links {
            links.add(&particles, k, k + 1, self.compliance)?;
        }
        Ok(Rope { particles, links })
    }
}
