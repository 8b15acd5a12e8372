//! The guards of a step: runaway or non-finite particles, overstrained constraints, and the
//! constraint a failure is traced to. A failed guard rolls the step back.

use super::Simulation;
use crate::StepError;
use crate::error::ConstraintRef;

impl<const D: usize> Simulation<D> {
    /// Finds non-finite or runaway particles; names the worst constraint touching it.
    pub(super) fn check_state(&self, substep: usize) -> Result<(), StepError> {
        let p = &self.particles;
        let max_speed2 = self.settings.diagnostics.max_speed.powi(2);
        let bad = (0..p.len()).find(|&i| {
            let s2 = p.v[i].norm_squared();
            !(p.x[i].iter().all(|c| c.is_finite()) && s2.is_finite() && s2 <= max_speed2)
        });
        let Some(i) = bad else { return Ok(()) };
        let constraint = self.trace_constraint(i);
        let speed = p.v[i].norm();
        if speed.is_finite() && p.x[i].iter().all(|c| c.is_finite()) {
            Err(StepError::Diverged {
                particle: i,
                speed,
                substep,
                constraint,
            })
        } else {
            Err(StepError::NonFinite {
                particle: i,
                substep,
                constraint,
            })
        }
    }

    /// [`Diagnostics::max_strain`]: the most strained constraint of every block that defines
    /// a strain, refused past the bound (non-finite strains included).
    ///
    /// The evaluation is skipped while it cannot fire: with `d = max_i |x_i − x_i^ref|` since
    /// the last evaluation (positions `x^ref`, largest strain `S_b` of block `b` then), block
    /// `b`'s strains are at most `S_b + L_b d` ([`ConstraintKind::strain_lipschitz`]); when
    /// that is within the bound for every block, nothing is evaluated (one pass over
    /// the particles instead of one over the constraints). A block without `L_b`, a changed
    /// constraint or particle count, or a failed check forces the evaluation.
    ///
    /// [`ConstraintKind::strain_lipschitz`]: crate::constraint::ConstraintKind::strain_lipschitz
    pub(super) fn check_strain(&mut self) -> Result<(), StepError> {
        let bound = self.settings.diagnostics.max_strain;
        if bound == f64::INFINITY {
            return Ok(());
        }
        let x = &self.particles.x;
        if self.strain_reference.len() == x.len()
            && self.strain_at_reference.len() == self.blocks.len()
        {
            let d = x
                .iter()
                .zip(&self.strain_reference)
                .map(|(a, b)| (a - b).norm_squared())
                .fold(0.0, f64::max)
                .sqrt();
            let safe =
                self.blocks
                    .iter()
                    .zip(&self.strain_at_reference)
                    .all(|(b, &(len, strain))| {
                        b.len() == len
                            && strain.is_none_or(|s| {
                                b.strain_lipschitz().is_some_and(|l| s + l * d <= bound)
                            })
                    });
            if safe {
                return Ok(());
            }
        }
        let mut at_reference = Vec::with_capacity(self.blocks.len());
        let mut worst: Option<(usize, usize, f64, f64)> = None;
        for (bi, b) in self.blocks.iter().enumerate() {
            let m = b.most_strained(x);
            at_reference.push((b.len(), m.map(|(_, s, _)| s)));
            if let Some((c, s, value)) = m
                && worst.is_none_or(|w| s > w.2)
            {
                worst = Some((bi, c, s, value));
            }
        }
        if let Some((bi, c, strain, value)) = worst
            && strain > bound
        {
            self.strain_reference.clear();
            let b = &self.blocks[bi];
            return Err(StepError::Overstrained {
                strain,
                bound,
                constraint: ConstraintRef {
                    block_name: Some(b.name()),
                    block: Some(bi),
                    index: Some(c),
                    value: Some(value),
                },
            });
        }
        self.strain_reference.clone_from(x);
        self.strain_at_reference = at_reference;
        Ok(())
    }

    /// The constraint of largest |C| touching `particle`, over all blocks: what a guard names
    /// when that particle fails.
    pub(super) fn trace_constraint(&self, particle: usize) -> ConstraintRef {
        let mut best = ConstraintRef::default();
        let mut best_score = -1.0;
        for (bi, b) in self.blocks.iter().enumerate() {
            if let Some((c, value)) = b.worst_constraint(&self.particles.x, Some(particle)) {
                let score = if value.is_finite() {
                    value.abs()
                } else {
                    f64::INFINITY
                };
                if score > best_score {
                    best_score = score;
                    best = ConstraintRef {
                        block_name: Some(b.name()),
                        block: Some(bi),
                        index: Some(c),
                        value: Some(value),
                    };
                }
            }
        }
        best
    }
}
