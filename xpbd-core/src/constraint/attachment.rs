//! Attachment of a particle to a world point or an animated (kinematic) target.

use super::{ConstraintKind, check_non_negative};
use crate::{BuildError, Particles, Vector};

/// `C = |x − p|`, `∇C = (x − p)/|x − p|`: a zero-length spring to the point `p`
/// (a distance constraint with l₀ = 0 whose other end is not a particle). With α = 0 it pins;
/// with α > 0 the energy is `|x − p|² / (2α)`, a spring of stiffness `1/α` (N/m).
///
/// Move the target between steps with [`AttachmentConstraints::set_target`] for an animated pin.
///
/// ```
/// use xpbd_core::prelude::*;
/// let mut a = AttachmentConstraints::<3>::new();
/// a.add(0, Vector::<3>::new(0.0, 0.0, 1.0), 1e-3).unwrap();
/// a.set_target(0, Vector::<3>::new(0.0, 0.1, 1.0));
/// assert_eq!(a.target[0].y, 0.1);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AttachmentConstraints<const D: usize> {
    /// Attached particle of each constraint.
    pub particle: Vec<[u32; 1]>,
    /// World-space target points.
    pub target: Vec<Vector<D>>,
    /// Compliance α (m/N).
    pub compliance: Vec<f64>,
    /// The targets at the start of the last step, and before it (for a rolled-back step).
    step_start_target: Vec<Vector<D>>,
    saved_start_target: Vec<Vector<D>>,
    /// How far each target jumped between the last two steps (m).
    jump: Vec<f64>,
}

impl<const D: usize> AttachmentConstraints<D> {
    /// No attachments.
    pub fn new() -> Self {
        Self {
            particle: Vec::new(),
            target: Vec::new(),
            compliance: Vec::new(),
            step_start_target: Vec::new(),
            saved_start_target: Vec::new(),
            jump: Vec::new(),
        }
    }

    /// Attaches `particle` to `target` with compliance `alpha`.
    pub fn add(
        &mut self,
        particle: usize,
        target: Vector<D>,
        alpha: f64,
    ) -> Result<usize, BuildError> {
        let c = self.particle.len();
        check_non_negative("attachment", c, "compliance", alpha)?;
        if !target.iter().all(|v| v.is_finite()) {
            return Err(BuildError::InvalidGeometry(format!(
                "attachment {c}: target is not finite"
            )));
        }
        self.particle.push([particle as u32]);
        self.target.push(target);
        self.compliance.push(alpha);
        self.step_start_target.push(target);
        Ok(c)
    }

    /// Moves the target of attachment `c` (takes effect at the next step).
    pub fn set_target(&mut self, c: usize, target: Vector<D>) {
        self.target[c] = target;
    }
}

impl<const D: usize> ConstraintKind<D> for AttachmentConstraints<D> {
    const SUBSTEP_HOOKS: bool = false;

    const NAME: &'static str = "attachment";
    const FIXED_ARITY: usize = 1;

    fn len(&self) -> usize {
        self.particle.len()
    }

    fn stencil(&self, c: usize) -> &[u32] {
        &self.particle[c]
    }

    fn compliance(&self, c: usize) -> f64 {
        self.compliance[c]
    }

    fn evaluate(&self, c: usize, xs: &[Vector<D>], grad: &mut [Vector<D>]) -> f64 {
        let d = xs[0] - self.target[c];
        let len = d.norm();
        grad[0] = if len > 1e-300 {
            d / len
        } else {
            Vector::<D>::zeros()
        };
        len
    }

    /// Records how far each target moved since the last step started
    /// ([`AttachmentConstraints::set_target`] between steps), for [`Self::driven_work`].
    fn checkpoint(&mut self) {
        self.saved_start_target.clone_from(&self.step_start_target);
        self.jump.clear();
        // Targets pushed onto the public field directly have no start yet: no jump.
        self.jump
            .extend(self.target.iter().enumerate().map(|(c, t)| {
                self.step_start_target
                    .get(c)
                    .map_or(0.0, |s| (t - s).norm())
            }));
        self.step_start_target.clone_from(&self.target);
    }

    fn rollback(&mut self) {
        self.step_start_target.clone_from(&self.saved_start_target);
    }

    /// A target that jumped by `d` since the last step pulls with the force `λ/h²` (at most
    /// `|λ| d / h²` of work while it pulls) and may have yanked its particle by `d` within one
    /// substep (at most `½ m (d/h)²` of kinetic energy): the sum of both per attachment.
    fn driven_work(&self, particles: &Particles<D>, lambda: &[f64], h: f64) -> f64 {
        let inv_h2 = 1.0 / (h * h);
        (self.jump.iter().zip(lambda).zip(&self.particle))
            .filter(|((d, _), _)| **d > 0.0)
            .map(|((d, l), p)| {
                let w = particles
                    .inv_mass
                    .get(p[0] as usize)
                    .copied()
                    .unwrap_or(0.0);
                let yank = if w > 0.0 { 0.5 * d * d / w } else { 0.0 };
                (d * l.abs() + yank) * inv_h2
            })
            .sum()
    }

    fn validate(&self) -> Result<(), BuildError> {
        for c in 0..self.particle.len() {
            check_non_negative("attachment", c, "compliance", self.compliance[c])?;
        }
        Ok(())
    }
}
