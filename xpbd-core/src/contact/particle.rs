//! Particle–particle contact with a thickness: `C = |x_p − x_q| − d ≥ 0`.

use rayon::prelude::*;

use super::error::{ContactError, check_size};
use super::friction::{
    Friction, TangentialBudget, apply_coulomb_friction, check_restitution, restitution_impulse,
};
use super::{ContactOptions, owns_pair, speed_deviations};
use crate::constraint::{ConstraintKind, SubstepContext};
use crate::spatial::UniformGrid;
use crate::{BuildError, Particles, Vector};

/// Particles per parallel work item of the pair search (fixed: deterministic output).
const CHUNK: usize = 1024;

/// Pairs of particles kept at least `distance` apart (d = 2r for spheres of radius r; the
/// thickness for cloth self-collision), with Coulomb friction and restitution between them.
///
/// Broad phase: a [`UniformGrid`] (counting sort, shared with the XPBI neighbour search) is
/// rebuilt on `xⁿ` at every generation; each particle searches the radius
/// `R_p = d + margin + 2(2 dev_p h_g + a h_g²)` with `dev_p = |v_p − v̄|`, which covers every
/// pair it is responsible for (the one of larger deviation, so `|v_p − v_q| ≤ 2 dev_p`); a pair
/// is kept when its gap is below the bound for its own relative speed ([`ContactOptions`]).
/// Pairs where both particles are immovable, pairs listed with
/// [`ParticleContacts::exclude_pairs`] (e.g. neighbours in a cloth mesh,
/// [`ParticleContacts::exclude_mesh_neighbours`]) and particles outside
/// [`ParticleContacts::only_particles`] are skipped.
///
/// For cloth, particle–particle contact keeps particles apart but lets a particle slip through
/// the middle of a triangle whose edges are longer than about `2d`; use
/// [`super::PointTriangleContacts`] as well for that.
///
/// ```
/// use xpbd_core::contact::{ContactOptions, Friction, ParticleContacts};
/// let pp = ParticleContacts::<3>::new(0.02, Friction::coulomb(0.3).unwrap(), 0.0,
///     ContactOptions::default()).unwrap();
/// assert_eq!(pp.distance(), 0.02);
/// ```
#[derive(Debug, Clone)]
pub struct ParticleContacts<const D: usize> {
    distance: f64,
    friction: Friction,
    restitution: f64,
    options: ContactOptions,
    members: Option<Vec<bool>>,
    excluded: Vec<(u32, u32)>,
    pairs: Vec<[u32; 2]>,
    v_pre: Vec<[Vector<D>; 2]>,
    friction_used: TangentialBudget,
}

impl<const D: usize> ParticleContacts<D> {
    /// Pairs closer than `distance` (m, > 0) are pushed apart.
    pub fn new(
        distance: f64,
        friction: Friction,
        restitution: f64,
        options: ContactOptions,
    ) -> Result<Self, ContactError> {
        check_size("contact distance (thickness)", distance, false)?;
        friction.validate()?;
        check_restitution(restitution)?;
        options.validate()?;
        Ok(Self {
            distance,
            friction,
            restitution,
            options,
            members: None,
            excluded: Vec::new(),
            pairs: Vec::new(),
            v_pre: Vec::new(),
            friction_used: TangentialBudget::default(),
        })
    }

    /// The contact distance d.
    pub fn distance(&self) -> f64 {
        self.distance
    }

    /// Only these particles take part (indices into the particle store).
    pub fn only_particles(mut self, particles: impl IntoIterator<Item = usize>) -> Self {
        let list: Vec<usize> = particles.into_iter().collect();
        let n = list.iter().copied().max().map_or(0, |m| m + 1);
        let mut mask = vec![false; n];
        for p in list {
            mask[p] = true;
        }
        self.members = Some(mask);
        self
    }

    /// Never creates contacts between these pairs.
    pub fn exclude_pairs(mut self, pairs: impl IntoIterator<Item = (usize, usize)>) -> Self {
        self.excluded.extend(
            pairs
                .into_iter()
                .map(|(a, b)| (a.min(b) as u32, a.max(b) as u32)),
        );
        self.excluded.sort_unstable();
        self.excluded.dedup();
        self
    }

    /// Excludes every pair that shares a triangle (mesh neighbours, whose distance the cloth
    /// constraints already control).
    pub fn exclude_mesh_neighbours(self, triangles: &[[usize; 3]]) -> Self {
        let pairs: Vec<(usize, usize)> = triangles
            .iter()
            .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
            .collect();
        self.exclude_pairs(pairs)
    }

    /// The current candidate pairs.
    pub fn pairs(&self) -> &[[u32; 2]] {
        &self.pairs
    }

    #[inline]
    fn is_member(&self, p: usize) -> bool {
        self.members
            .as_ref()
            .is_none_or(|m| m.get(p).copied().unwrap_or(false))
    }

    fn generate(&mut self, particles: &Particles<D>, ctx: &SubstepContext) {
        self.pairs.clear();
        let n = particles.len();
        if n < 2 {
            return;
        }
        let span = self.options.generation_span(ctx.h, ctx.substeps);
        let (dev, mean_dev) = speed_deviations(&particles.v, |p| self.is_member(p));
        let cell = self.distance + self.options.gap_bound(2.0 * mean_dev, span);
        let Some(grid) = build_grid(&particles.x, cell) else {
            return;
        };
        let this = &*self;
        let x = &particles.x;
        let dev = &dev;
        let found: Vec<[u32; 2]> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .flat_map_iter(|chunk| {
                let mut out = Vec::new();
                for p in chunk * CHUNK..((chunk + 1) * CHUNK).min(n) {
                    if !this.is_member(p) {
                        continue;
                    }
                    let radius = this.distance + this.options.gap_bound(2.0 * dev[p], span);
                    grid.for_each_within(x, &x[p], radius, |q| {
                        if q == p || !this.is_member(q) || !owns_pair(dev, p, q) {
                            return;
                        }
                        if particles.inv_mass[p] <= 0.0 && particles.inv_mass[q] <= 0.0 {
                            return;
                        }
                        let speed = (particles.v[p] - particles.v[q]).norm();
                        let gap = (x[p] - x[q]).norm() - this.distance;
                        if gap >= this.options.gap_bound(speed, span) {
                            return;
                        }
                        let key = (p.min(q) as u32, p.max(q) as u32);
                        if this.excluded.binary_search(&key).is_ok() {
                            return;
                        }
                        out.push([p as u32, q as u32]);
                    });
                }
                out
            })
            .collect();
        self.pairs = found;
    }
}

/// A grid with cells of at least `cell`, doubled until the bounding box fits the grid's cell
/// limit (cell width only changes the cost of queries, never their result). `None` when a
/// position is not finite: the simulation's state check reports that particle.
pub(crate) fn build_grid<const D: usize>(x: &[Vector<D>], cell: f64) -> Option<UniformGrid<D>> {
    let mut cell = cell;
    loop {
        match UniformGrid::build(x, cell) {
            Ok(g) => return Some(g),
            Err(crate::spatial::GridError::DomainTooLarge { .. }) => cell *= 2.0,
            Err(_) => return None,
        }
    }
}

impl<const D: usize> ConstraintKind<D> for ParticleContacts<D> {
    const NAME: &'static str = "particle contact";
    const FIXED_ARITY: usize = 2;

    fn len(&self) -> usize {
        self.pairs.len()
    }

    fn stencil(&self, c: usize) -> &[u32] {
        &self.pairs[c]
    }

    fn compliance(&self, _c: usize) -> f64 {
        0.0
    }

    fn unilateral(&self) -> bool {
        true
    }

    /// `C = |x_p − x_q| − d`, `∇_p C = n = (x_p − x_q)/|x_p − x_q|`, `∇_q C = −n`.
    #[inline]
    fn evaluate(&self, _c: usize, xs: &[Vector<D>], grad: &mut [Vector<D>]) -> f64 {
        super::pair_separation(xs, grad) - self.distance
    }

    #[inline]
    fn after_projection(
        &self,
        c: usize,
        idx: &[u32],
        xs: &mut [Vector<D>],
        grad: &[Vector<D>],
        x_prev: &[Vector<D>],
        w: &[f64],
        lambda: f64,
        _delta_lambda: f64,
        _h: f64,
    ) -> bool {
        apply_coulomb_friction(
            &self.friction,
            &self.friction_used,
            c,
            idx,
            xs,
            grad,
            x_prev,
            w,
            Vector::<D>::zeros(),
            lambda,
        )
    }

    fn projects_in_iteration(&self, iteration: usize, iterations: usize) -> bool {
        self.options.projection.projects_in(iteration, iterations)
    }

    fn begin_substep(&mut self, particles: &Particles<D>, ctx: &SubstepContext) {
        if self.options.regenerate_at(ctx.substep) {
            self.generate(particles, ctx);
        }
        let n_contacts = self.len();
        self.friction_used.reset(n_contacts);
        self.v_pre.clear();
        self.v_pre.extend(
            self.pairs
                .iter()
                .map(|s| [particles.v[s[0] as usize], particles.v[s[1] as usize]]),
        );
    }

    fn end_substep(&mut self, particles: &mut Particles<D>, lambda: &[f64], ctx: &SubstepContext) {
        if self.restitution == 0.0 {
            return;
        }
        let threshold = self.options.restitution_threshold(ctx.h);
        let mut grad = [Vector::<D>::zeros(); 2];
        let mut dv = [Vector::<D>::zeros(); 2];
        for c in 0..self.pairs.len() {
            if lambda.get(c).copied().unwrap_or(0.0) <= 0.0 {
                continue;
            }
            let [p, q] = self.pairs[c].map(|i| i as usize);
            self.evaluate(c, &[particles.x[p], particles.x[q]], &mut grad);
            if restitution_impulse(
                self.restitution,
                threshold,
                &self.pairs[c],
                &grad,
                &particles.inv_mass,
                &[particles.v[p], particles.v[q]],
                &self.v_pre[c],
                Vector::<D>::zeros(),
                &mut dv,
            ) {
                particles.v[p] += dv[0];
                particles.v[q] += dv[1];
            }
        }
    }

    /// Always `true`: the contact list changes between substeps (with
    /// [`super::ContactGeneration::PerStep`] only at the first, but the simulation decides
    /// once, when the block is added, whether to track incidence counts).
    fn dynamic_topology(&self) -> bool {
        true
    }

    fn validate(&self) -> Result<(), BuildError> {
        self.options.validate()?;
        self.friction.validate()?;
        Ok(())
    }
}
