//! The energy audit of the GPU world, on the host, when the device state is read back.
//!
//! The rule is the CPU's (`xpbd_core`'s `simulation::audit`, [`xpbd_core::Diagnostics::max_energy_gain`]):
//! a step (or, for XPBD bodies stepped alone on the device, a frame) whose mechanical energy
//! grows by more than the work done on it from outside plus `ε` times the energy it had to
//! work with is divergence, and the last good state is kept. Two differences, both stated:
//! - the multipliers stay on the device, so the energy is kinetic + gravitational only: the
//!   elastic energy a body releases counts as gained. The tolerance is doubled for it
//!   ([`GPU_TOLERANCE_FACTOR`]): over 100 steps of every scene file, the CPU's largest
//!   gain ratio is 0.25 with the elastic term and about 0.7 without it (a soft cloth bouncing
//!   off a sphere, `scenes/soak_cloth_sphere.toml`; the survey:
//!   `cargo test -p xpbd-scene --release --test energy_survey -- --ignored --nocapture`),
//!   against the default `ε = 1`;
//! - the work of driven bodies is bounded without the contact forces: a particle struck by a
//!   body moving at `v_d` gains at most `½ m ((|v| + 2 v_d)² − |v|²) ≤ 2 m v_d (|v| + v_d)`,
//!   summed over the free particles, with `v_d` the fastest collider or pinned particle;
//! - the floor (the CPU's: a millionth of the extent per step, one substep of free fall)
//!   adds the f32 round-off of the coordinates `X` per substep `h`: motion below
//!   `10⁻⁶ X / h` is not counted.

use nalgebra::Vector3;
use xpbd_core::error::ConstraintRef;
use xpbd_core::{Particles, StepError};

/// The GPU's tolerance is this many times the scene's `ε` (module docs: no elastic term).
pub(crate) const GPU_TOLERANCE_FACTOR: f64 = 2.0;
/// Motion below this fraction of the particles' extent per step is below the audit (the CPU's).
const FLOOR_FRACTION: f64 = 1e-6;
/// Motion below this fraction of the coordinates per substep is f32 round-off.
const F32_FLOOR_FRACTION: f64 = 1e-6;

/// Sums the energies of the particles a read-back changes: the host's (last good) state
/// against the device's.
pub(crate) struct EnergyAudit<'a> {
    host: &'a Particles<3>,
    gravity: Vector3<f64>,
    start: (f64, f64),
    end: (f64, f64),
    force_work: f64,
    mass: f64,
    momentum: f64,
    lo: Vector3<f64>,
    hi: Vector3<f64>,
    largest_coordinate: f64,
    worst: (usize, f64),
}

impl<'a> EnergyAudit<'a> {
    /// An audit of the host state `host` under gravity `gravity`.
    pub(crate) fn new(host: &'a Particles<3>, gravity: Vector3<f64>) -> Self {
        Self {
            host,
            gravity,
            start: (0.0, 0.0),
            end: (0.0, 0.0),
            force_work: 0.0,
            mass: 0.0,
            momentum: 0.0,
            lo: Vector3::repeat(f64::INFINITY),
            hi: Vector3::repeat(f64::NEG_INFINITY),
            largest_coordinate: 0.0,
            worst: (0, f64::NEG_INFINITY),
        }
    }

    /// Particle `i` of the host store now at `x` with velocity `v` on the device.
    pub(crate) fn add(&mut self, i: usize, x: &Vector3<f64>, v: &Vector3<f64>) {
        let w = self.host.inv_mass[i];
        if w <= 0.0 {
            return;
        }
        let m = 1.0 / w;
        let (x0, v0) = (&self.host.x[i], &self.host.v[i]);
        self.start.0 += 0.5 * m * v0.norm_squared();
        self.start.1 -= m * self.gravity.dot(x0);
        self.end.0 += 0.5 * m * v.norm_squared();
        self.end.1 -= m * self.gravity.dot(x);
        self.force_work += self.host.force[i].dot(&(x - x0)).abs();
        self.mass += m;
        self.momentum += m * v.norm();
        self.lo = self.lo.inf(x);
        self.hi = self.hi.sup(x);
        self.largest_coordinate = self.largest_coordinate.max(x.amax());
        let gain = m * (v.norm_squared() - v0.norm_squared());
        let gain = if gain.is_nan() { f64::INFINITY } else { gain };
        if gain > self.worst.1 {
            self.worst = (i, gain);
        }
    }

    /// The verdict for a span `dt` of substeps `h`, tolerance `eps`, driven bodies no faster
    /// than `driven_speed` (module docs).
    pub(crate) fn check(
        &self,
        dt: f64,
        h: f64,
        eps: f64,
        driven_speed: f64,
    ) -> Result<(), StepError> {
        if eps == f64::INFINITY || self.mass == 0.0 {
            return Ok(());
        }
        let driven = 2.0 * driven_speed * (self.momentum + self.mass * driven_speed);
        let work = self.force_work + driven;
        let gain = (self.end.0 + self.end.1) - (self.start.0 + self.start.1) - work;
        let extent = (self.hi - self.lo).max();
        let rest_speed =
            FLOOR_FRACTION * extent / dt + F32_FLOOR_FRACTION * self.largest_coordinate / h;
        let contact_speed = self.gravity.norm() * h;
        let floor = 0.5 * self.mass * (rest_speed * rest_speed + contact_speed * contact_speed);
        let scale = self.start.0 + (self.end.1 - self.start.1).abs() + work;
        let allowed = GPU_TOLERANCE_FACTOR * eps * scale + floor;
        if gain > allowed || !gain.is_finite() {
            return Err(StepError::EnergyGrowth {
                gain,
                allowed,
                work,
                particle: self.worst.0,
                constraint: ConstraintRef::default(),
            });
        }
        Ok(())
    }
}

/// The fastest driven body of a scene: its moving colliders (the GPU moves them at constant
/// velocity) and its kinematic particles (by velocity or by the target of the next step).
pub(crate) fn driven_speed(scene: &mut xpbd_scene::BuiltScene, dt: f64) -> f64 {
    let colliders = scene.collider_contacts_mut().map_or(0.0, |c| {
        (c.colliders().iter())
            .map(|c| c.velocity.norm())
            .fold(0.0, f64::max)
    });
    let p = scene.sim.particles();
    let pins = (0..p.len())
        .filter(|&i| p.inv_mass[i] <= 0.0)
        .map(|i| {
            let target = p.kinematic_target[i].map_or(0.0, |t| (t - p.x[i]).norm() / dt);
            p.v[i].norm().max(target)
        })
        .fold(0.0, f64::max);
    colliders.max(pins)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_particle_at_rest() -> Particles<3> {
        let mut p = Particles::<3>::new();
        p.push(Vector3::new(0.0, 0.0, 1.0), 0.5); // 2 kg
        p.push(Vector3::new(1.0, 0.0, 1.0), 0.5);
        p
    }

    #[test]
    fn energy_from_nothing_is_refused_unless_a_driven_body_could_supply_it() {
        let host = one_particle_at_rest();
        let g = Vector3::zeros();
        let mut audit = EnergyAudit::new(&host, g);
        audit.add(
            0,
            &Vector3::new(0.0, 0.0, 1.0),
            &Vector3::new(1.0, 0.0, 0.0),
        );
        audit.add(1, &Vector3::new(1.0, 0.0, 1.0), &Vector3::zeros());
        let err = audit.check(1.0 / 60.0, 1.0 / 600.0, 1.0, 0.0).unwrap_err();
        let StepError::EnergyGrowth { gain, particle, .. } = err else {
            panic!("{err}");
        };
        assert_eq!(particle, 0);
        assert!(
            (gain - 1.0).abs() < 1e-12,
            "½ · 2 kg · (1 m/s)² = 1 J, got {gain}"
        );
        // A collider at 0.5 m/s can give a 2 kg particle at most 2·0.5·(2·1 + 4·0.5) = 4 J.
        audit.check(1.0 / 60.0, 1.0 / 600.0, 1.0, 0.5).unwrap();
    }

    #[test]
    fn a_fall_exchanges_energy_with_gravity_and_gains_none() {
        let host = one_particle_at_rest();
        let g = Vector3::new(0.0, 0.0, -9.81);
        let mut audit = EnergyAudit::new(&host, g);
        let drop: f64 = 0.01;
        let speed = (2.0 * 9.81 * drop).sqrt();
        audit.add(
            0,
            &Vector3::new(0.0, 0.0, 1.0 - drop),
            &Vector3::new(0.0, 0.0, -speed),
        );
        audit.check(0.05, 0.005, 1e-9, 0.0).unwrap();
        // The same speed without the drop is energy from nothing.
        let mut audit = EnergyAudit::new(&host, g);
        audit.add(
            0,
            &Vector3::new(0.0, 0.0, 1.0),
            &Vector3::new(0.0, 0.0, -speed),
        );
        assert!(audit.check(0.05, 0.005, 1.0, 0.0).is_err());
    }
}
