//! Contact constraint kinds used with XPBI particles (all inequality, zero compliance, solved in
//! the same XPBD loop, so their corrections flow into the velocities and hence into the F update):
//!
//! * [`GroundPlane`]: `C = n·x − d ≥ 0` per particle with position-level Coulomb friction
//!   (tangential displacement over the substep reduced by at most `μ · w λ`, the normal correction;
//!   Müller et al. 2020 §3.5).
//! * [`SpacingConstraints`]: XPBI's position correction `C = |x_p − x_b| − r + ε ≥ 0`, ε = 0.25 r
//!   (r = spacing), i.e. pairs are kept at least `0.75 Δx` apart; standard PBD pair projection.
//!   Pairs are found on xⁿ within `Δx` each substep and scheduled by the same 3^d cell colouring.

use nalgebra::SVector;
use xpbd_core::constraint::{ConstraintKind, SubstepContext};
use xpbd_core::schedule::Schedule;
use xpbd_core::spatial::{CellColouring, ColourScheme, NeighbourLists, UniformGrid};
use xpbd_core::{BuildError, Particles};

/// A rough or smooth ground half-space `n·x ≥ d`.
///
/// ```
/// use nalgebra::Vector2;
/// use xpbi_continuum::contact::GroundPlane;
/// let g = GroundPlane::<2>::new(Vector2::new(0.0, 1.0), 0.0, 0.5, vec![0, 1]);
/// assert_eq!(g.particles(), &[0, 1]);
/// ```
#[derive(Debug, Clone)]
pub struct GroundPlane<const D: usize> {
    normal: SVector<f64, D>,
    offset: f64,
    friction: f64,
    particles: Vec<u32>,
}

impl<const D: usize> GroundPlane<D> {
    /// Plane `normal·x ≥ offset` (normal normalised) with Coulomb coefficient `friction`.
    pub fn new(normal: SVector<f64, D>, offset: f64, friction: f64, particles: Vec<u32>) -> Self {
        Self {
            normal: normal.normalize(),
            offset,
            friction,
            particles,
        }
    }
    /// Constrained particles.
    pub fn particles(&self) -> &[u32] {
        &self.particles
    }
}

impl<const D: usize> ConstraintKind<D> for GroundPlane<D> {
    const NAME: &'static str = "ground";

    fn len(&self) -> usize {
        self.particles.len()
    }
    fn stencil(&self, c: usize) -> &[u32] {
        &self.particles[c..c + 1]
    }
    fn compliance(&self, _c: usize) -> f64 {
        0.0
    }
    fn unilateral(&self) -> bool {
        true
    }
    fn evaluate(&self, _c: usize, xs: &[SVector<f64, D>], grad: &mut [SVector<f64, D>]) -> f64 {
        grad[0] = self.normal;
        self.normal.dot(&xs[0]) - self.offset
    }
    fn after_projection(
        &self,
        _c: usize,
        idx: &[u32],
        xs: &mut [SVector<f64, D>],
        _grad: &[SVector<f64, D>],
        x_prev: &[SVector<f64, D>],
        w: &[f64],
        lambda: f64,
        _delta_lambda: f64,
        _h: f64,
    ) -> bool {
        let i = idx[0] as usize;
        if self.friction <= 0.0 || lambda <= 0.0 {
            return false;
        }
        let d = xs[0] - x_prev[i];
        let dt = d - self.normal * self.normal.dot(&d);
        let len = dt.norm();
        if len == 0.0 {
            return false;
        }
        let allowed = self.friction * w[i] * lambda;
        xs[0] -= if len <= allowed {
            dt
        } else {
            dt * (allowed / len)
        };
        true
    }
    fn validate(&self) -> Result<(), BuildError> {
        if !(self.friction.is_finite() && self.friction >= 0.0) {
            return Err(BuildError::InvalidSetting {
                field: "ground friction",
                value: self.friction,
                reason: "must be finite and >= 0",
            });
        }
        Ok(())
    }
}

/// XPBI position correction between member particles (see the module docs).
#[derive(Debug, Clone)]
pub struct SpacingConstraints<const D: usize> {
    members: Vec<u32>,
    spacing: f64,
    min_distance: f64,
    pairs: Vec<u32>,
    schedule: Schedule,
}

impl<const D: usize> SpacingConstraints<D> {
    /// Pairs among `members` kept at least `(1 − 0.25) × spacing` apart.
    pub fn new(particles: &Particles<D>, members: Vec<u32>, spacing: f64) -> Self {
        let mut s = Self {
            members,
            spacing,
            min_distance: 0.75 * spacing,
            pairs: Vec::new(),
            schedule: Schedule::default(),
        };
        s.rebuild(particles);
        s
    }
    /// Minimum distance enforced (m).
    pub fn min_distance(&self) -> f64 {
        self.min_distance
    }

    fn rebuild(&mut self, particles: &Particles<D>) {
        self.pairs.clear();
        self.schedule.order.clear();
        self.schedule.colours.clear();
        let positions: Vec<SVector<f64, D>> = self
            .members
            .iter()
            .map(|&m| particles.x[m as usize])
            .collect();
        let radius = self.spacing;
        let (Ok(grid), true) = (
            UniformGrid::build(&positions, radius),
            !positions.is_empty(),
        ) else {
            return;
        };
        let Ok(nl) = NeighbourLists::build(&grid, &positions, radius) else {
            return;
        };
        let Ok(colouring) = CellColouring::build(&grid, ColourScheme::ThreePerAxis, radius) else {
            return;
        };
        for colour in colouring.colours() {
            let mut tasks: Vec<std::ops::Range<u32>> = Vec::new();
            for &cell in colour {
                let start = (self.pairs.len() / 2) as u32;
                for &p in grid.cell_particles(cell as usize) {
                    for &b in nl.neighbours(p as usize) {
                        if b > p {
                            self.pairs.push(self.members[p as usize]);
                            self.pairs.push(self.members[b as usize]);
                        }
                    }
                }
                let end = (self.pairs.len() / 2) as u32;
                // Merge consecutive cells of one colour into tasks of ≥ 256 pairs.
                match tasks.last_mut() {
                    Some(last) if last.end == start && last.end - last.start < 256 => {
                        last.end = end
                    }
                    _ if end > start => tasks.push(start..end),
                    _ => {}
                }
            }
            self.schedule.colours.push(tasks);
        }
        self.schedule.order.extend(0..(self.pairs.len() / 2) as u32);
    }
}

impl<const D: usize> ConstraintKind<D> for SpacingConstraints<D> {
    const NAME: &'static str = "xpbi-spacing";

    fn len(&self) -> usize {
        self.pairs.len() / 2
    }
    fn stencil(&self, c: usize) -> &[u32] {
        &self.pairs[2 * c..2 * c + 2]
    }
    fn compliance(&self, _c: usize) -> f64 {
        0.0
    }
    fn unilateral(&self) -> bool {
        true
    }
    fn evaluate(&self, _c: usize, xs: &[SVector<f64, D>], grad: &mut [SVector<f64, D>]) -> f64 {
        let d = xs[0] - xs[1];
        let len = d.norm();
        let n = if len > 0.0 { d / len } else { SVector::zeros() };
        grad[0] = n;
        grad[1] = -n;
        len - self.min_distance
    }
    fn begin_substep(&mut self, particles: &Particles<D>, _ctx: &SubstepContext) {
        self.rebuild(particles);
    }
    fn dynamic_topology(&self) -> bool {
        true
    }
    fn own_schedule(&self) -> Option<&Schedule> {
        Some(&self.schedule)
    }
}
