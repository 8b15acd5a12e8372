//! The per-particle passes of a substep: the prediction and the velocity update, the latter
//! optionally chained to the next substep's prediction (see `Simulation::run_substeps`).

use rayon::prelude::*;

use super::{Simulation, fused};
use crate::Vector;

impl<const D: usize> Simulation<D> {
    /// `x_prev = xⁿ`, then x̃ = x + h v + h² g (free particles); kinematic particles move
    /// along their target.
    pub(super) fn predict(&mut self, h: f64, fraction: f64, par: bool) {
        if self.forces_zero {
            self.predict_with::<false>(h, fraction, par);
        } else {
            self.predict_with::<true>(h, fraction, par);
        }
    }

    /// [`Simulation::predict`]; without `FORCES` (no particle has an external force) the force
    /// array is not read and `h g` is computed once: `(g + 0 w) h = g h` exactly, so both give
    /// the same bits.
    #[allow(clippy::type_complexity)] // the zipped SoA fields of one particle
    fn predict_with<const FORCES: bool>(&mut self, h: f64, fraction: f64, par: bool) {
        let g = self.settings.gravity;
        let gh = g * h;
        let p = &mut self.particles;
        // Kinematic particles start where the step started (the rollback copy).
        let start = &self.backup_x;
        let body = |((((x, x_prev), v), (w, f)), (target, x0)): (
            (
                ((&mut Vector<D>, &mut Vector<D>), &mut Vector<D>),
                (&f64, &Vector<D>),
            ),
            (&Option<Vector<D>>, &Vector<D>),
        )| {
            fused::predict_particle::<D, FORCES>(
                x, x_prev, v, w, f, target, x0, g, gh, h, fraction,
            );
        };
        if par {
            p.x.par_iter_mut()
                .zip(p.x_prev.par_iter_mut())
                .zip(p.v.par_iter_mut())
                .zip(p.inv_mass.par_iter().zip(p.force.par_iter()))
                .zip(p.kinematic_target.par_iter().zip(start.par_iter()))
                .for_each(body);
        } else {
            p.x.iter_mut()
                .zip(p.x_prev.iter_mut())
                .zip(p.v.iter_mut())
                .zip(p.inv_mass.iter().zip(p.force.iter()))
                .zip(p.kinematic_target.iter().zip(start.iter()))
                .for_each(body);
        }
    }

    /// `v = (x − x_prev)/h` (then damped). Returns `false` when some particle is non-finite
    /// or faster than the divergence threshold, so the full check runs only then. With
    /// `next = Some(fraction)` each particle is then predicted for the next substep (chained
    /// step, see [`Simulation::run_substeps`]), whose kinematic fraction that is.
    pub(super) fn update_velocities(&mut self, h: f64, par: bool, next: Option<f64>) -> bool {
        match (next, self.forces_zero) {
            (None, _) => self.update_velocities_with::<false, false>(h, par, 0.0),
            (Some(fraction), true) => self.update_velocities_with::<true, false>(h, par, fraction),
            (Some(fraction), false) => self.update_velocities_with::<true, true>(h, par, fraction),
        }
    }

    /// [`Simulation::update_velocities`], chained to the prediction when `CHAIN`.
    #[allow(clippy::type_complexity)] // the zipped SoA fields of one particle
    fn update_velocities_with<const CHAIN: bool, const FORCES: bool>(
        &mut self,
        h: f64,
        par: bool,
        fraction: f64,
    ) -> bool {
        let c = fused::ChainConstants {
            inv_h: 1.0 / h,
            damp: (-self.settings.velocity_damping * h).exp(),
            max_speed2: self.settings.diagnostics.max_speed.powi(2),
            g: self.settings.gravity,
            gh: self.settings.gravity * h,
            h,
            fraction,
        };
        let p = &mut self.particles;
        // Kinematic particles start where the step started (the rollback copy).
        let start = &self.backup_x;
        let body = |((((x, x_prev), v), (w, f)), (target, x0)): (
            (
                ((&mut Vector<D>, &mut Vector<D>), &mut Vector<D>),
                (&f64, &Vector<D>),
            ),
            (&Option<Vector<D>>, &Vector<D>),
        )|
         -> bool {
            // NaN compares false, so a non-finite velocity fails the speed test too.
            if CHAIN {
                fused::update_and_predict::<D, FORCES>(x, x_prev, v, w, f, target, x0, &c)
            } else {
                fused::update_velocity(v, x, x_prev, w, c.inv_h, c.damp, c.max_speed2)
            }
        };
        if par {
            p.x.par_iter_mut()
                .zip(p.x_prev.par_iter_mut())
                .zip(p.v.par_iter_mut())
                .zip(p.inv_mass.par_iter().zip(p.force.par_iter()))
                .zip(p.kinematic_target.par_iter().zip(start.par_iter()))
                .map(body)
                .reduce(|| true, |a, b| a & b)
        } else {
            // An indexed loop: the zipped iterator's fold kept `body` out of line (a call and
            // reloads of the constants per particle).
            let n = p.x.len();
            let (x, x_prev, v) = (&mut p.x[..n], &mut p.x_prev[..n], &mut p.v[..n]);
            let (w, f, target, x0) = (
                &p.inv_mass[..n],
                &p.force[..n],
                &p.kinematic_target[..n],
                &start[..n],
            );
            let mut ok = true;
            for i in 0..n {
                ok &= if CHAIN {
                    fused::update_and_predict::<D, FORCES>(
                        &mut x[i],
                        &mut x_prev[i],
                        &mut v[i],
                        &w[i],
                        &f[i],
                        &target[i],
                        &x0[i],
                        &c,
                    )
                } else {
                    fused::update_velocity(
                        &mut v[i],
                        &x[i],
                        &x_prev[i],
                        &w[i],
                        c.inv_h,
                        c.damp,
                        c.max_speed2,
                    )
                };
            }
            ok
        }
    }
}
