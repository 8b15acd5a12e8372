//! Contact between bodies: `C = |x_p − x_q| − (r_p + r_q) ≥ 0` for particles p, q of two
//! different bodies that interact, with Coulomb friction chosen per pair of bodies.

use rayon::prelude::*;

use super::error::{ContactError, check_size};
use super::friction::{Friction, TangentialBudget, apply_coulomb_friction};
use super::particle::build_grid;
use super::{ContactOptions, owns_pair, speed_deviations};
use crate::constraint::{ConstraintKind, SubstepContext};
use crate::spatial::UniformGrid;
use crate::{BuildError, Particles, Vector};

/// Particles per parallel work item of the pair search (fixed: deterministic output).
const CHUNK: usize = 1024;

/// Marks a particle that belongs to no body.
const NO_BODY: u32 = u32::MAX;

/// Relative tolerance of [`BodyContacts::first_overlap`]: pairs closer than
/// `(1 − 1e-9)(r_p + r_q)` overlap, so bodies placed exactly in touch do not.
const OVERLAP_TOLERANCE: f64 = 1e-9;

/// Two bodies' particles closer than their contact distance (see
/// [`BodyContacts::first_overlap`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overlap {
    /// The particle of the lower-numbered body.
    pub particle: usize,
    /// Its body.
    pub body: usize,
    /// The particle of the other body.
    pub other_particle: usize,
    /// Its body.
    pub other_body: usize,
    /// |x_p − x_q| (m).
    pub distance: f64,
    /// r_p + r_q (m).
    pub required: f64,
}

/// Contact between the particles of different bodies (a continuum and a cloth, two continua,
/// a rope and a sand bed): every particle has a body and a contact radius r, and particles p, q
/// of two bodies that interact are kept `r_p + r_q` apart,
/// `C = |x_p − x_q| − (r_p + r_q) ≥ 0`, `∇_p C = n = (x_p − x_q)/|x_p − x_q|`, `∇_q C = −n`
/// (the point–point inequality of Yu et al. 2024 §5 between bodies, and the particle contact of
/// Macklin et al. 2014, "Unified Particle Physics", §5), with the position-level Coulomb
/// friction of [`super::friction`] chosen per pair of bodies. Particles of the same body never
/// touch through this kind: a body's own particles are held by its own constraints (a
/// continuum's kernel estimate and position correction, a cloth's mesh), so separate bodies
/// exchange only contact forces, and one body's velocity-gradient estimate never sees another
/// body's particles (no artificial sticking).
///
/// The correction of a pair is the mass-weighted XPBD update (`Δx_p = w_p n λ`,
/// `Δx_q = −w_q n λ`), so momentum passes from a heavy sand body to a light cloth exactly;
/// contacts are inelastic (no restitution), as grains are. Pairs are found on `xⁿ` by the
/// broad phase of [`super::ParticleContacts`] (the shared [`UniformGrid`], the faster particle
/// of a pair searching `r_p + r_max + margin + 2(2 dev_p h_g + a h_g²)`).
///
/// ```
/// use xpbd_core::contact::{BodyContacts, ContactOptions, Friction};
/// let mut contacts = BodyContacts::<3>::new(ContactOptions::default()).unwrap();
/// let sand = contacts.add_body(0..100, 0.005).unwrap();
/// let cloth = contacts.add_body(100..200, 0.002).unwrap();
/// contacts.interact(sand, cloth, Friction::coulomb(0.5).unwrap()).unwrap();
/// assert_eq!(contacts.bodies(), 2);
/// assert!(contacts.interact(sand, sand, Friction::NONE).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct BodyContacts<const D: usize> {
    options: ContactOptions,
    /// Body of every particle (`NO_BODY` outside every body).
    body: Vec<u32>,
    /// Contact radius of every particle (0 outside every body).
    radius: Vec<f64>,
    /// Largest radius of any body.
    max_radius: f64,
    bodies: usize,
    /// `friction[a * bodies + b]`: `Some` when bodies a and b interact (symmetric).
    friction: Vec<Option<Friction>>,
    pairs: Vec<[u32; 2]>,
    rest: Vec<f64>,
    friction_used: TangentialBudget,
}

impl<const D: usize> BodyContacts<D> {
    /// No bodies yet.
    pub fn new(options: ContactOptions) -> Result<Self, ContactError> {
        options.validate()?;
        Ok(Self {
            options,
            body: Vec::new(),
            radius: Vec::new(),
            max_radius: 0.0,
            bodies: 0,
            friction: Vec::new(),
            pairs: Vec::new(),
            rest: Vec::new(),
            friction_used: TangentialBudget::default(),
        })
    }

    /// Adds a body made of these particles (indices into the particle store), each with contact
    /// radius `radius` (m, > 0); returns its number. It interacts with nothing until
    /// [`BodyContacts::interact`] says so.
    pub fn add_body(
        &mut self,
        particles: impl IntoIterator<Item = usize>,
        radius: f64,
    ) -> Result<usize, ContactError> {
        check_size("body contact radius", radius, false)?;
        let id = self.bodies;
        for p in particles {
            if p >= self.body.len() {
                self.body.resize(p + 1, NO_BODY);
                self.radius.resize(p + 1, 0.0);
            }
            if self.body[p] != NO_BODY && self.body[p] as usize != id {
                return Err(ContactError::SharedParticle {
                    particle: p,
                    first: self.body[p] as usize,
                    second: id,
                });
            }
            self.body[p] = id as u32;
            self.radius[p] = radius;
        }
        self.max_radius = self.max_radius.max(radius);
        let n = id + 1;
        let mut friction = vec![None; n * n];
        for a in 0..id {
            for b in 0..id {
                friction[a * n + b] = self.friction[a * id + b];
            }
        }
        self.friction = friction;
        self.bodies = n;
        Ok(id)
    }

    /// Bodies `a` and `b` (two different bodies) touch, with this friction.
    pub fn interact(&mut self, a: usize, b: usize, friction: Friction) -> Result<(), ContactError> {
        for body in [a, b] {
            if body >= self.bodies {
                return Err(ContactError::UnknownBody {
                    body,
                    len: self.bodies,
                });
            }
        }
        if a == b {
            return Err(ContactError::SelfInteraction { body: a });
        }
        friction.validate()?;
        self.friction[a * self.bodies + b] = Some(friction);
        self.friction[b * self.bodies + a] = Some(friction);
        Ok(())
    }

    /// The number of bodies.
    pub fn bodies(&self) -> usize {
        self.bodies
    }

    /// The friction between bodies `a` and `b`, `None` when they do not interact.
    pub fn friction_between(&self, a: usize, b: usize) -> Option<Friction> {
        (a < self.bodies && b < self.bodies)
            .then(|| self.friction[a * self.bodies + b])
            .flatten()
    }

    /// The body of particle `p` (`None` outside every body).
    pub fn body_of(&self, p: usize) -> Option<usize> {
        self.body
            .get(p)
            .copied()
            .filter(|&b| b != NO_BODY)
            .map(|b| b as usize)
    }

    /// The current candidate pairs.
    pub fn pairs(&self) -> &[[u32; 2]] {
        &self.pairs
    }

    /// The contact distance `r_p + r_q` of each current pair (in [`BodyContacts::pairs`]
    /// order).
    pub fn contact_distances(&self) -> &[f64] {
        &self.rest
    }

    /// The options (generation, projection, margin, acceleration bound).
    pub fn options(&self) -> &ContactOptions {
        &self.options
    }

    /// Whether any pair of bodies interacts.
    pub fn is_coupled(&self) -> bool {
        self.friction.iter().any(Option::is_some)
    }

    #[inline]
    fn pair_friction(&self, p: usize, q: usize) -> Option<Friction> {
        let (a, b) = (self.body[p], self.body[q]);
        if a == NO_BODY || b == NO_BODY || a == b {
            return None;
        }
        self.friction[a as usize * self.bodies + b as usize]
    }

    #[inline]
    fn member(&self, p: usize) -> bool {
        self.body.get(p).is_some_and(|&b| b != NO_BODY)
    }

    /// Pairs (p, q) of interacting bodies found by `p` within `reach(p)` (p's own search radius
    /// on top of r_p + r_max) and kept by `keep(p, q, |x_p − x_q|)`, in particle order.
    fn search(
        &self,
        x: &[Vector<D>],
        grid: &UniformGrid<D>,
        reach: impl Fn(usize) -> f64 + Sync,
        keep: impl Fn(usize, usize, f64) -> bool + Sync,
    ) -> Vec<[u32; 2]> {
        let n = x.len().min(self.body.len());
        (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .flat_map_iter(|chunk| {
                let mut out = Vec::new();
                for p in chunk * CHUNK..((chunk + 1) * CHUNK).min(n) {
                    if !self.member(p) {
                        continue;
                    }
                    let radius = self.radius[p] + self.max_radius + reach(p);
                    grid.for_each_within(x, &x[p], radius, |q| {
                        if q >= n || self.pair_friction(p, q).is_none() {
                            return;
                        }
                        let dist = (x[p] - x[q]).norm();
                        if keep(p, q, dist) {
                            out.push([p as u32, q as u32]);
                        }
                    });
                }
                out
            })
            .collect()
    }

    /// The first pair (in particle order) of interacting bodies whose particles are closer
    /// than `(1 − 10⁻⁹)(r_p + r_q)` in `x`: bodies that start inside each other, which the
    /// contacts would push apart in one substep. `None` when there is none.
    pub fn first_overlap(&self, x: &[Vector<D>]) -> Option<Overlap> {
        if !self.is_coupled() || x.len() < 2 {
            return None;
        }
        let grid = build_grid(x, 2.0 * self.max_radius)?;
        let found = self.search(
            x,
            &grid,
            |_| 0.0,
            |p, q, dist| {
                p < q && dist < (1.0 - OVERLAP_TOLERANCE) * (self.radius[p] + self.radius[q])
            },
        );
        found.first().map(|&[p, q]| {
            let (p, q) = (p as usize, q as usize);
            let (p, q) = if self.body[p] <= self.body[q] {
                (p, q)
            } else {
                (q, p)
            };
            Overlap {
                particle: p,
                body: self.body[p] as usize,
                other_particle: q,
                other_body: self.body[q] as usize,
                distance: (x[p] - x[q]).norm(),
                required: self.radius[p] + self.radius[q],
            }
        })
    }

    fn generate(&mut self, particles: &Particles<D>, ctx: &SubstepContext) {
        self.pairs.clear();
        self.rest.clear();
        if !self.is_coupled() || particles.len() < 2 {
            return;
        }
        let span = self.options.generation_span(ctx.h, ctx.substeps);
        let (dev, mean_dev) = speed_deviations(&particles.v, |p| self.member(p));
        let cell = 2.0 * self.max_radius + self.options.gap_bound(2.0 * mean_dev, span);
        let Some(grid) = build_grid(&particles.x, cell) else {
            return;
        };
        let options = self.options;
        let dev = &dev;
        let found = self.search(
            &particles.x,
            &grid,
            |p| options.gap_bound(2.0 * dev[p], span),
            |p, q, dist| {
                if !owns_pair(dev, p, q)
                    || (particles.inv_mass[p] <= 0.0 && particles.inv_mass[q] <= 0.0)
                {
                    return false;
                }
                let speed = (particles.v[p] - particles.v[q]).norm();
                dist - (self.radius[p] + self.radius[q]) < options.gap_bound(speed, span)
            },
        );
        self.rest = found
            .iter()
            .map(|&[p, q]| self.radius[p as usize] + self.radius[q as usize])
            .collect();
        self.pairs = found;
    }
}

impl<const D: usize> ConstraintKind<D> for BodyContacts<D> {
    const NAME: &'static str = "body contact";
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

    /// `C = |x_p − x_q| − (r_p + r_q)`, `∇_p C = n`, `∇_q C = −n`.
    #[inline]
    fn evaluate(&self, c: usize, xs: &[Vector<D>], grad: &mut [Vector<D>]) -> f64 {
        super::pair_separation(xs, grad) - self.rest[c]
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
        let Some(friction) = self.pair_friction(idx[0] as usize, idx[1] as usize) else {
            return false;
        };
        apply_coulomb_friction(
            &friction,
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
    }

    /// Always `true`: the pairs change between substeps.
    fn dynamic_topology(&self) -> bool {
        true
    }

    fn validate(&self) -> Result<(), BuildError> {
        self.options.validate()?;
        for f in self.friction.iter().flatten() {
            f.validate()?;
        }
        Ok(())
    }
}
