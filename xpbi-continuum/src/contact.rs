//! XPBI's own contact-like constraint kind (inequality, zero compliance, solved in the same XPBD
//! loop, so its corrections flow into the velocities and hence into the F update). Ground, walls
//! and obstacles are the core's colliders (`xpbd_core::contact::ColliderContacts`, see
//! [`crate::scene`]), shared with XPBD cloth and ropes.
//!
//! * [`SpacingConstraints`]: XPBI's position correction `C = |x_p − x_b| − r + ε ≥ 0`, ε = 0.25 r,
//!   i.e. pairs are kept at least `0.75 r` apart; standard PBD pair projection. The paper's `r`
//!   could not be read (reference notes §1.9); the default is
//!   `r = `[`DEFAULT_CORRECTION_RADIUS`]` Δx = 1.1Δx` (pairs ≥ 0.825Δx apart; why in
//!   [`crate::scene::SceneOptions::correction_radius`]), [`SpacingConstraints::with_radius`] takes
//!   another. Pairs are found on xⁿ within
//!   `max(Δx, r)` each substep and scheduled by the same 3^d cell colouring.

use nalgebra::SVector;
use rayon::prelude::*;

use xpbd_core::Particles;
use xpbd_core::constraint::{ConstraintKind, SubstepContext};
use xpbd_core::schedule::Schedule;
use xpbd_core::spatial::{CellColouring, ColourScheme, NeighbourLists, UniformGrid};

/// Default position-correction radius over Δx (see
/// [`crate::scene::SceneOptions::correction_radius`]): pairs are kept ≥ 0.75 r = 0.825Δx apart.
pub const DEFAULT_CORRECTION_RADIUS: f64 = 1.1;

/// The position correction's minimum pair distance over its radius r: with `C = |x_p − x_b| −
/// r + ε ≥ 0`, ε = 0.25 r, pairs are kept at least `0.75 r` apart (module docs). The one value
/// of that ratio: [`SpacingConstraints::with_radius`] and the GPU's position correction
/// (`xpbd_gpu`) both read it.
pub const MIN_DISTANCE_OVER_RADIUS: f64 = 0.75;

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
    /// Pairs among `members` kept at least `0.75 r` ([`MIN_DISTANCE_OVER_RADIUS`]) apart with
    /// the default `r = DEFAULT_CORRECTION_RADIUS × spacing` (the scenes' default).
    pub fn new(particles: &Particles<D>, members: Vec<u32>, spacing: f64) -> Self {
        Self::with_radius(
            particles,
            members,
            spacing,
            DEFAULT_CORRECTION_RADIUS * spacing,
        )
    }

    /// Pairs among `members` kept at least `0.75 r` apart; pairs are searched within
    /// `max(spacing, r)`.
    pub fn with_radius(
        particles: &Particles<D>,
        members: Vec<u32>,
        spacing: f64,
        radius: f64,
    ) -> Self {
        let mut s = Self {
            members,
            spacing: spacing.max(radius),
            min_distance: MIN_DISTANCE_OVER_RADIUS * radius,
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
            .par_iter()
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
        // Pairs of each cell (p < b, p in the cell) found in parallel, then concatenated in
        // colour → cell order: the same list for any thread count.
        let (members, grid, nl) = (&self.members, &grid, &nl);
        for colour in colouring.colours() {
            let per_cell: Vec<Vec<u32>> = colour
                .par_iter()
                .map(|&cell| {
                    let mut pairs = Vec::new();
                    for &p in grid.cell_particles(cell as usize) {
                        for &b in nl.neighbours(p as usize) {
                            if b > p {
                                pairs.push(members[p as usize]);
                                pairs.push(members[b as usize]);
                            }
                        }
                    }
                    pairs
                })
                .collect();
            // Tasks of ≥ 256 pairs, or of a 32nd of a small colour (≥ 16 pairs) so that the
            // threads can share it evenly (`Schedule::share`); a colour without pairs is
            // dropped (one barrier fewer per iteration, the same result).
            let colour_pairs = per_cell.iter().map(|c| c.len() / 2).sum::<usize>() as u32;
            let task_pairs = (colour_pairs / 32).clamp(16, 256);
            let mut tasks: Vec<std::ops::Range<u32>> = Vec::new();
            for cell_pairs in per_cell {
                let start = (self.pairs.len() / 2) as u32;
                self.pairs.extend_from_slice(&cell_pairs);
                let end = (self.pairs.len() / 2) as u32;
                // Merge consecutive cells of one colour into tasks of ≥ `task_pairs` pairs.
                match tasks.last_mut() {
                    Some(last) if last.end == start && last.end - last.start < task_pairs => {
                        last.end = end
                    }
                    _ if end > start => tasks.push(start..end),
                    _ => {}
                }
            }
            if !tasks.is_empty() {
                self.schedule.colours.push(tasks);
            }
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
