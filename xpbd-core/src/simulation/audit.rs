//! The energy audit of a step: mechanical energy may not grow by more than what came in.
//!
//! With `E = K + V_g + U` (kinetic `½ Σ m v²`, gravitational `−Σ m g·x`, elastic `U`), a step
//! of the implicit, substepped XPBD scheme dissipates: it gains no energy beyond the work `W`
//! of applied forces and of bodies the scene drives (moving colliders, animated pins and
//! attachment targets). A step that gains more,
//!
//! ```text
//! gain = E(end) − E(start) − W  >  ε · (K(start) + U(start) + |ΔV_g| + W) + E_floor,
//! ```
//!
//! is divergence ([`StepError::EnergyGrowth`]), rolled back like the other guards: energy
//! growth from nothing is what an unstable constraint, a contact that pumps energy or a step
//! too large for a stiff material looks like before any speed or strain bound fires. `ε` is
//! [`crate::Diagnostics::max_energy_gain`]; the scale is the energy the step had to work with
//! (its kinetic and elastic energy, what gravity exchanged, what was done on it), so growth
//! faster than a factor `1 + ε` per step is caught at any energy level. Below a floor,
//! `E_floor = ½ M ((10⁻⁶ ℓ/Δt)² + (|g| h)²)` (`M` the free mass, `ℓ` the extent of the
//! particles, `h` the substep), motion is noise: a millionth of the scene per step is what
//! round-off alone gives a body at rest, and one substep of free fall is what a contact at
//! rest gives back and takes again every substep (a folded cloth settled on the ground gains
//! and loses about 10⁻⁶ J a step).
//!
//! `U` is the multipliers' energy `Σ α λ²/(2h⁴)` ([`ConstraintSet::multiplier_energy`]): for
//! a converged solve it equals `Σ C²/(2α)`; for a stiff constraint solved with one iteration
//! `C²/(2α)` is the solver's residual divided by a tiny α and would swamp every other term.
//! The first step after construction (or after [`Simulation::set_time`], as when a checkpoint
//! is restored) is not audited: there are no multipliers of the state it starts from, and its
//! state may hold elastic energy (a rope built stretched) that the step rightly releases. It
//! records `U(end)` for the next.
//!
//! [`ConstraintSet::multiplier_energy`]: crate::constraint::ConstraintSet::multiplier_energy

use super::Simulation;
use crate::{StepError, Vector};

/// Motion below this fraction of the particles' extent per step is below the audit.
const FLOOR_FRACTION: f64 = 1e-6;

/// The energies at the start of a step.
#[derive(Debug, Clone, Copy)]
pub(super) struct AuditStart {
    kinetic: f64,
    gravitational: f64,
    /// `None` before the first successful step.
    elastic: Option<f64>,
}

/// `(½ Σ m v², −Σ m g·x)` over the free particles (w > 0), summed in particle order.
fn mechanical<const D: usize>(
    x: &[Vector<D>],
    v: &[Vector<D>],
    w: &[f64],
    gravity: &Vector<D>,
) -> (f64, f64) {
    let (mut k, mut g) = (0.0, 0.0);
    for ((x, v), &w) in x.iter().zip(v).zip(w) {
        if w > 0.0 {
            k += 0.5 * v.norm_squared() / w;
            g -= gravity.dot(x) / w;
        }
    }
    (k, g)
}

impl<const D: usize> Simulation<D> {
    /// The audit's view of the state at the start of a step, or `None` when it is off.
    pub(super) fn audit_start(&self) -> Option<AuditStart> {
        if self.settings.diagnostics.max_energy_gain == f64::INFINITY {
            return None;
        }
        let p = &self.particles;
        let (kinetic, gravitational) =
            self.owned_energy(mechanical(&p.x, &p.v, &p.inv_mass, &self.settings.gravity));
        Some(AuditStart {
            kinetic,
            gravitational,
            elastic: self.audit_elastic,
        })
    }

    /// Compares the energy at the end of the step with its start (module docs). On success
    /// remembers the elastic energy for the next step.
    pub(super) fn check_energy(
        &mut self,
        start: Option<AuditStart>,
        dt: f64,
    ) -> Result<(), StepError> {
        self.report.energy_gain = None;
        let Some(start) = start else {
            return Ok(());
        };
        let h = dt / self.settings.substeps as f64;
        let p = &self.particles;
        let (kinetic, gravitational) =
            self.owned_energy(mechanical(&p.x, &p.v, &p.inv_mass, &self.settings.gravity));
        let elastic: f64 = self.blocks.iter().map(|b| b.multiplier_energy(h)).sum();
        let Some(elastic_start) = start.elastic else {
            self.audit_elastic = Some(elastic);
            return Ok(());
        };
        let work = self.external_work(h);
        let gain = (kinetic + gravitational + elastic)
            - (start.kinetic + start.gravitational + elastic_start)
            - work;
        let (mass, extent) = self.free_mass_and_extent();
        let rest_speed = FLOOR_FRACTION * extent / dt;
        let contact_speed = self.settings.gravity.norm() * h;
        let floor = 0.5 * mass * (rest_speed * rest_speed + contact_speed * contact_speed);
        let scale =
            start.kinetic + elastic_start + (gravitational - start.gravitational).abs() + work;
        let allowed = self.settings.diagnostics.max_energy_gain * scale + floor;
        let ratio = if scale > 0.0 {
            (gain - floor) / scale
        } else if gain > floor {
            f64::INFINITY
        } else {
            0.0
        };
        if gain > allowed || !gain.is_finite() {
            let particle = self.largest_kinetic_gain();
            return Err(StepError::EnergyGrowth {
                gain,
                allowed,
                work,
                particle,
                constraint: self.trace_constraint(particle),
            });
        }
        self.audit_elastic = Some(elastic);
        self.report.energy_gain = Some(ratio);
        Ok(())
    }

    /// Work done on the particles during the step from outside: applied forces `Σ f·Δx` and
    /// the driven bodies' bound ([`crate::constraint::ConstraintKind::driven_work`]), and the
    /// work of kinematic particles (animated pins), `Σ |f_p| |Δx_p|` with `f_p` the constraint
    /// forces on them in the last substep.
    fn external_work(&self, h: f64) -> f64 {
        let p = &self.particles;
        let mut work = 0.0;
        if !self.forces_zero {
            for ((f, x), x0) in p.force.iter().zip(&p.x).zip(&self.backup_x) {
                work += f.dot(&(x - x0)).abs();
            }
        }
        work += self.blocks.iter().map(|b| b.driven_work(p, h)).sum::<f64>();
        let driven = |i: usize| p.inv_mass[i] <= 0.0 && p.x[i] != self.backup_x[i];
        if (0..p.len()).any(driven) {
            let mut forces = vec![Vector::<D>::zeros(); p.len()];
            for b in &self.blocks {
                b.add_constraint_forces(&p.x, h, &mut forces);
            }
            for i in (0..p.len()).filter(|&i| driven(i)) {
                work += forces[i].norm() * (p.x[i] - self.backup_x[i]).norm();
            }
        }
        work
    }

    /// Total mass of the free particles and the largest side of their bounding box.
    fn free_mass_and_extent(&self) -> (f64, f64) {
        let p = &self.particles;
        let mut mass = 0.0;
        let mut lo = Vector::<D>::repeat(f64::INFINITY);
        let mut hi = Vector::<D>::repeat(f64::NEG_INFINITY);
        for (x, &w) in p.x.iter().zip(&p.inv_mass) {
            if w > 0.0 {
                mass += 1.0 / w;
                lo = lo.inf(x);
                hi = hi.sup(x);
            }
        }
        let extent = (hi - lo).max();
        let mass = mass + self.blocks.iter().map(|b| b.owned_mass()).sum::<f64>();
        (mass, if extent.is_finite() { extent } else { 0.0 })
    }

    /// `(K, V_g)` of the particles plus what the blocks own (rigid bodies).
    fn owned_energy(&self, (k, g): (f64, f64)) -> (f64, f64) {
        self.blocks.iter().fold((k, g), |(k, g), b| {
            let (bk, bg) = b.owned_energy(&self.settings.gravity);
            (k + bk, g + bg)
        })
    }

    /// The free particle whose kinetic energy grew the most over the step.
    fn largest_kinetic_gain(&self) -> usize {
        let p = &self.particles;
        let mut best = (0, f64::NEG_INFINITY);
        for i in 0..p.len() {
            if p.inv_mass[i] > 0.0 {
                let gain =
                    (p.v[i].norm_squared() - self.backup_v[i].norm_squared()) / p.inv_mass[i];
                let gain = if gain.is_nan() { f64::INFINITY } else { gain };
                if gain > best.1 {
                    best = (i, gain);
                }
            }
        }
        best.0
    }
}
