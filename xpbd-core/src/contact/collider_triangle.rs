//! Cloth triangles against convex colliders (3D): `C = n̂·(y − Σ βᵢ xᵢ) − R ≥ 0`.

mod touch;

use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::ContactOptions;
use super::collider::ColliderContacts;
use super::friction::{
    Friction, TangentialBudget, apply_coulomb_friction_along, driven_contact_work,
};
use super::shape::{Pose, Shape};
use crate::constraint::{ConstraintKind, SubstepContext};
use crate::{BuildError, Particles, Vector};

/// Triangles per parallel work item of the candidate search (fixed: deterministic output).
const CHUNK: usize = 512;

/// A collider's motion over the current substep, as its [`ColliderContacts`] block moves it.
#[derive(Debug, Clone, PartialEq)]
pub struct ColliderSubstep<const D: usize> {
    /// The collider's shape.
    pub shape: Shape<D>,
    /// Its Coulomb friction.
    pub friction: Friction,
    /// Its pose at the start of the substep.
    pub start: Pose<D>,
    /// Its pose at the end of the substep.
    pub end: Pose<D>,
}

/// What a [`ColliderContacts`] block publishes at the start of every substep.
#[derive(Debug, Default)]
struct MotionFrame<const D: usize> {
    /// `(time bits, substep, substeps, h bits)` of the substep it was published for.
    stamp: Option<(u64, usize, usize, u64)>,
    colliders: Vec<ColliderSubstep<D>>,
}

fn stamp(ctx: &SubstepContext) -> (u64, usize, usize, u64) {
    (
        ctx.time.to_bits(),
        ctx.substep,
        ctx.substeps,
        ctx.h.to_bits(),
    )
}

/// The colliders' motion a [`ColliderContacts`] block shares with the blocks linked to it
/// ([`ColliderContacts::motion_link`]): it publishes each collider's shape, friction and
/// substep poses at the start of every substep; a linked block reads them at the start of the
/// same substep. Clones share the one record.
#[derive(Debug, Clone, Default)]
pub struct ColliderMotionLink<const D: usize>(Arc<Mutex<MotionFrame<D>>>);

impl<const D: usize> ColliderMotionLink<D> {
    /// Publishes the colliders' motion over the substep `ctx` (called by [`ColliderContacts`]).
    pub(crate) fn publish<'a>(
        &self,
        ctx: &SubstepContext,
        colliders: impl Iterator<Item = (&'a Shape<D>, Friction, Pose<D>, Pose<D>)>,
    ) {
        let mut frame = self.0.lock().unwrap_or_else(|e| e.into_inner());
        frame.stamp = Some(stamp(ctx));
        frame.colliders.clear();
        frame.colliders.extend(
            colliders.map(|(shape, friction, start, end)| ColliderSubstep {
                shape: shape.clone(),
                friction,
                start,
                end,
            }),
        );
    }

    /// Copies the motion published for substep `ctx` into `out`; `false` when none was.
    fn read(&self, ctx: &SubstepContext, out: &mut Vec<ColliderSubstep<D>>) -> bool {
        let frame = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if frame.stamp != Some(stamp(ctx)) {
            return false;
        }
        out.clone_from(&frame.colliders);
        true
    }
}

/// Keeps cloth triangles from passing through convex colliders (spheres, capsules, boxes)
/// between their vertices: the triangle counterpart of the particle contact of
/// [`ColliderContacts`], whose colliders it shares.
///
/// A collider smaller than the cloth's edges slips between vertices that each keep their
/// contact radius r from it; this block stops it at the triangles. For a triangle (a, b, c)
/// and a collider, the narrow phase (on `xⁿ`, the collider at its start-of-substep pose)
/// finds the collider points y that can cross the triangle: the vertices of the collider's
/// core (sphere centre, capsule axis, box) clipped to the triangle's prism (the triangle
/// swept along its normal) — a sphere's centre over the face, the ends of a capsule's axis
/// inside the prism, a box's corners over the face, the points where its edges pass over the
/// triangle's edges and its lowest points over the triangle's vertices — and, for spheres and
/// capsules, the exact closest point of the centre or axis to the triangle's edges and
/// vertices (module `touch`). Each gets the barycentric weights β of the triangle point q it
/// faces and the unit normal n̂ from q towards the collider (the face normal oriented towards
/// the collider's centre over the face; from the edge or vertex point to the core otherwise),
/// both frozen for the substep, and the constraint
///
/// ```text
/// C = n̂·(y' − Σ βᵢ xᵢ) − R ≥ 0,   ∇_{xᵢ} C = −βᵢ n̂,
/// ```
///
/// with y' the collider point at the end-of-substep pose and R the radius around it (sphere
/// and capsule radius; 0 for a box). `y − R n̂` is the collider's support point towards the
/// triangle, so `C ≥ 0` says the collider's deepest point is not behind the triangle point
/// that faces it. This is the point–triangle constraint of Müller et al. 2007, "Position
/// Based Dynamics", §4.4 with the point on the collider (infinite mass, moved kinematically)
/// and the normal frozen per substep as in Bridson et al. 2002 and
/// [`super::PointTriangleContacts`]: with n̂ frozen the triangle cannot be pushed to the wrong
/// side of y, whatever the collider's speed along n̂ (a collider sliding sideways by more than
/// a triangle per substep pushes with a stale facing point). For a sphere the touch is the
/// exact closest point of the centre on the triangle, so C is the sphere–triangle distance to
/// first order; for a box the face touches are the vertices of the box's part inside the
/// prism, so `C ≥ 0` for all of them says that part lies on the box's side of the triangle's
/// plane. Tested (`tests/collider_triangle.rs`) with a sphere of 0.3 × the edge length at 2 to
/// 10 m/s (up to 17 mm per substep, over half its radius), a cube corner first and a capsule,
/// 10 substeps of 1/600 s. Under the Jacobi solver, as for every contact
/// ([`super::ContactProjection`]), only part of the approach is removed per substep and a fast
/// collider can still cross; the Gauss–Seidel and coloured solvers, which give contacts the
/// last word, hold the triangle.
///
/// **Margin 0, not the particle radius.** The vertices already keep the radius r from the
/// colliders; this constraint keeps the collider's surface at distance ≥ 0 from the triangle,
/// so it is inactive whenever vertex contact suffices and acts only where a collider would
/// cross the triangle between its vertices. For a ball of radius R around a core point a
/// (a sphere's centre, a capsule's nearest axis point) and a point p = Σ βᵢ xᵢ of a triangle
/// of circumradius ρ and circumcentre o, `Σ βᵢ |xᵢ − a|² = |p − a|² + Σ βᵢ |xᵢ − p|²` and
/// `Σ βᵢ |xᵢ − p|² = ρ² − |p − o|² ≤ ρ²`, so with every vertex at `|xᵢ − a| ≥ R + r`:
///
/// ```text
/// |p − a|² ≥ (R + r)² − ρ²,   which is ≥ R² when   R ≥ (ρ² − r²) / (2 r).
/// ```
///
/// A sphere or capsule at least that large never reaches a triangle that its vertex contacts
/// hold off (a draped cloth on a large sphere leaves this block inactive; a backend without
/// triangle contact can rely on this bound). A box's corners are sharp: any box can reach a
/// triangle's interior between its vertices.
///
/// Half-spaces need no triangle contact (a triangle crosses a plane only if a vertex does)
/// and are skipped; signed-distance grids of meshes (`Shape::Sdf`) are not convex and are left
/// to the vertex contact.
///
/// **Candidates.** Per substep (or per step: [`ContactOptions::generation`], as the particle
/// contact), every (triangle, collider) pair whose bounding spheres are closer than the
/// collider's sweep over the span plus the margin `margin + 2(v h_g + a h_g²)` (v: the fastest
/// vertex of the triangle) goes to the narrow phase; a point is kept while its gap
/// `n̂·(y − q) − R` is below that margin plus its own sweep. The loop runs over triangles in
/// fixed chunks, colliders in order, so the contact list is deterministic.
///
/// **Friction** is the collider's Coulomb friction on the triangle point's motion relative to
/// the collider point ([`super::friction`]); restitution is left to the vertex contacts.
///
/// **Colliders.** The block reads the colliders' shapes, friction and per-substep poses from
/// the [`ColliderContacts`] it was made from ([`ColliderMotionLink`]): that block stays the one
/// owner of the colliders (added, moved, animated, checkpointed and rolled back there), and this
/// one holds no state of its own. It must be added to the simulation after that block (the
/// simulation starts the blocks' substeps in the order they were added); otherwise the step
/// fails with [`crate::StepError::BlockFault`].
///
/// ```
/// use xpbd_core::builders::ClothGrid;
/// use xpbd_core::contact::{ColliderTriangleContacts, ContactOptions, Pose, Shape};
/// use xpbd_core::prelude::*;
/// let cloth = ClothGrid::<3> { nx: 4, ny: 4, ..ClothGrid::default() }.build().unwrap();
/// let mut sim = Simulation::new(cloth.particles.clone(), SolverSettings::default()).unwrap();
/// let mut contacts = ColliderContacts::new(0.01, ContactOptions::default()).unwrap();
/// contacts
///     .add_collider(Collider::fixed(Shape::Sphere { radius: 0.05 })
///         .at(Pose::from_translation(Vector::<3>::new(0.4, 0.4, -0.2))))
///     .unwrap();
/// let triangles = ColliderTriangleContacts::new(&mut contacts, &cloth.triangles);
/// sim.add_constraints(contacts).unwrap();
/// let handle = sim.add_constraints(triangles).unwrap();
/// sim.step(1.0 / 60.0).unwrap();
/// assert_eq!(sim.block(handle).kind.triangles().len(), 18);
/// ```
#[derive(Debug, Clone)]
pub struct ColliderTriangleContacts {
    triangles: Vec<[u32; 3]>,
    link: ColliderMotionLink<3>,
    options: ContactOptions,
    /// The colliders' motion over the current substep (read from the link).
    colliders: Vec<ColliderSubstep<3>>,
    // Active contact list (structure of arrays).
    stencil: Vec<[u32; 3]>,
    weights: Vec<[f64; 3]>,
    normal: Vec<Vector<3>>,
    collider_of: Vec<u32>,
    /// The collider point y in the collider's frame, and the radius R around it.
    local_point: Vec<Vector<3>>,
    offset: Vec<f64>,
    /// Per substep: `n̂·y' − R`, and the collider point's displacement `y' − y`.
    level: Vec<f64>,
    obstacle: Vec<Vector<3>>,
    friction_used: TangentialBudget,
    fault: Option<String>,
    /// Work bound of the moving colliders over the current step (J), summed per substep.
    driven_work: f64,
}

/// A contact candidate: triangle, collider, touch.
type Candidate = (u32, u32, touch::Touch);

impl ColliderTriangleContacts {
    /// Contacts between the triangles of a mesh (particle indices) and the colliders of
    /// `contacts`, with its options (generation, projection, margin, acceleration bound);
    /// links to it ([`ColliderContacts::motion_link`]).
    pub fn new(contacts: &mut ColliderContacts<3>, triangles: &[[usize; 3]]) -> Self {
        Self {
            triangles: triangles.iter().map(|t| t.map(|i| i as u32)).collect(),
            link: contacts.motion_link(),
            options: *contacts.options(),
            colliders: Vec::new(),
            stencil: Vec::new(),
            weights: Vec::new(),
            normal: Vec::new(),
            collider_of: Vec::new(),
            local_point: Vec::new(),
            offset: Vec::new(),
            level: Vec::new(),
            obstacle: Vec::new(),
            friction_used: TangentialBudget::default(),
            fault: None,
            driven_work: 0.0,
        }
    }

    /// The triangles (particle indices).
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// The options (those of the linked [`ColliderContacts`]).
    pub fn options(&self) -> &ContactOptions {
        &self.options
    }

    /// Current contacts as `(triangle's particles, collider index)`.
    pub fn contacts(&self) -> impl Iterator<Item = ([u32; 3], usize)> + '_ {
        (self.stencil.iter().copied()).zip(self.collider_of.iter().map(|&k| k as usize))
    }

    /// The barycentric weights β of each current contact, frozen at generation.
    pub fn weights(&self) -> &[[f64; 3]] {
        &self.weights
    }

    /// The unit normal n̂ of each current contact (from the triangle towards the collider).
    pub fn normals(&self) -> &[Vector<3>] {
        &self.normal
    }

    fn clear(&mut self) {
        self.stencil.clear();
        self.weights.clear();
        self.normal.clear();
        self.collider_of.clear();
        self.local_point.clear();
        self.offset.clear();
    }

    fn generate(&mut self, particles: &Particles<3>, ctx: &SubstepContext) {
        self.clear();
        let (x, v, w) = (&particles.x, &particles.v, &particles.inv_mass);
        let span = self.options.generation_span(ctx.h, ctx.substeps);
        let fraction = span / ctx.h;
        // Per convex collider: its bounding sphere at the start pose and its sweep bound.
        let bounds: Vec<Option<(Vector<3>, f64, f64)>> = (self.colliders.iter())
            .map(|c| {
                let reach = match &c.shape {
                    Shape::Sphere { radius } => *radius,
                    Shape::Capsule {
                        half_length,
                        radius,
                    } => half_length + radius,
                    Shape::Box { half_extents } => half_extents.norm(),
                    Shape::HalfSpace { .. } | Shape::Sdf(_) => return None,
                };
                let sweep = (c.end.translation - c.start.translation).norm()
                    + reach * (c.end.rotation - c.start.rotation).norm();
                Some((c.start.translation, reach, sweep * fraction))
            })
            .collect();
        if bounds.iter().all(Option::is_none) || self.triangles.is_empty() {
            return;
        }
        let this = &*self;
        let search = |t: usize, out: &mut Vec<Candidate>, scratch: &mut Vec<touch::Touch>| {
            let tri = this.triangles[t];
            if tri.iter().all(|&i| w[i as usize] <= 0.0) {
                return;
            }
            let pts = tri.map(|i| x[i as usize]);
            let speed = tri
                .iter()
                .map(|&i| v[i as usize].norm())
                .fold(0.0, f64::max);
            let margin = this.options.gap_bound(speed, span);
            let centroid = (pts[0] + pts[1] + pts[2]) / 3.0;
            let r_tri = pts
                .iter()
                .map(|p| (p - centroid).norm())
                .fold(0.0, f64::max);
            for (k, (c, bound)) in this.colliders.iter().zip(&bounds).enumerate() {
                let Some((centre, reach, sweep)) = bound else {
                    continue;
                };
                if (centroid - centre).norm() >= reach + r_tri + sweep + margin {
                    continue;
                }
                scratch.clear();
                let motion = c.end.translation - c.start.translation;
                touch::touches(&c.shape, &c.start, &motion, &pts, scratch);
                for t_ in scratch.iter() {
                    let q = pts[0] * t_.beta[0] + pts[1] * t_.beta[1] + pts[2] * t_.beta[2];
                    let gap = t_.normal.dot(&(t_.point - q)) - t_.offset;
                    let local = c.start.to_local(&t_.point);
                    let moved = (c.end.to_world(&local) - t_.point).norm() * fraction;
                    if gap < margin + moved && t_.normal.iter().all(|n| n.is_finite()) {
                        out.push((t as u32, k as u32, *t_));
                    }
                }
            }
        };
        let found: Vec<Candidate> = (0..self.triangles.len().div_ceil(CHUNK))
            .into_par_iter()
            .flat_map_iter(|chunk| {
                let (mut out, mut scratch) = (Vec::new(), Vec::new());
                for t in chunk * CHUNK..((chunk + 1) * CHUNK).min(this.triangles.len()) {
                    search(t, &mut out, &mut scratch);
                }
                out
            })
            .collect();
        for (t, k, touch) in found {
            let c = &self.colliders[k as usize];
            self.stencil.push(self.triangles[t as usize]);
            self.weights.push(touch.beta);
            self.normal.push(touch.normal);
            self.collider_of.push(k);
            self.local_point.push(c.start.to_local(&touch.point));
            self.offset.push(touch.offset);
        }
    }

    /// Per contact, `n̂·y' − R` and the collider point's displacement over the substep.
    fn place(&mut self) {
        self.level.clear();
        self.obstacle.clear();
        for c in 0..self.stencil.len() {
            let m = &self.colliders[self.collider_of[c] as usize];
            let (start, end) = (
                m.start.to_world(&self.local_point[c]),
                m.end.to_world(&self.local_point[c]),
            );
            self.level.push(self.normal[c].dot(&end) - self.offset[c]);
            self.obstacle.push(end - start);
        }
    }
}

impl ConstraintKind<3> for ColliderTriangleContacts {
    const NAME: &'static str = "collider-triangle contact";
    const FIXED_ARITY: usize = 3;

    fn len(&self) -> usize {
        self.stencil.len()
    }

    fn stencil(&self, c: usize) -> &[u32] {
        &self.stencil[c]
    }

    fn compliance(&self, _c: usize) -> f64 {
        0.0
    }

    fn unilateral(&self) -> bool {
        true
    }

    #[inline]
    fn evaluate(&self, c: usize, xs: &[Vector<3>], grad: &mut [Vector<3>]) -> f64 {
        let n = self.normal[c];
        let b = self.weights[c];
        grad[0] = -n * b[0];
        grad[1] = -n * b[1];
        grad[2] = -n * b[2];
        self.level[c] - n.dot(&(xs[0] * b[0] + xs[1] * b[1] + xs[2] * b[2]))
    }

    /// Coulomb friction on the triangle point's motion relative to the collider point: with the
    /// normal `−n̂` (from the collider towards the triangle) the gradients' scalars are `βᵢ` and
    /// the relative displacement is `Σ βᵢ Δxᵢ − Δy`.
    #[inline]
    fn after_projection(
        &self,
        c: usize,
        idx: &[u32],
        xs: &mut [Vector<3>],
        grad: &[Vector<3>],
        x_prev: &[Vector<3>],
        w: &[f64],
        lambda: f64,
        _delta_lambda: f64,
        _h: f64,
    ) -> bool {
        let friction = &self.colliders[self.collider_of[c] as usize].friction;
        apply_coulomb_friction_along(
            -self.normal[c],
            friction,
            &self.friction_used,
            c,
            idx,
            xs,
            grad,
            x_prev,
            w,
            self.obstacle[c],
            lambda,
        )
    }

    fn projects_in_iteration(&self, iteration: usize, iterations: usize) -> bool {
        self.options.projection.projects_in(iteration, iterations)
    }

    fn begin_substep(&mut self, particles: &Particles<3>, ctx: &SubstepContext) {
        self.fault = None;
        if !self.link.read(ctx, &mut self.colliders) {
            self.clear();
            self.fault = Some(
                "collider-triangle contacts read the colliders' motion from their collider \
                 contacts block, which must be added to the simulation before them"
                    .into(),
            );
        } else if let Some(&i) =
            (self.triangles.iter().flatten()).find(|&&i| i as usize >= particles.len())
        {
            self.clear();
            self.fault = Some(format!(
                "a triangle names particle {i}, beyond the {} particles",
                particles.len()
            ));
        } else if self.options.regenerate_at(ctx.substep) {
            self.generate(particles, ctx);
        }
        self.place();
        let n_contacts = self.len();
        self.friction_used.reset(n_contacts);
    }

    fn substep_fault(&self) -> Option<String> {
        self.fault.clone()
    }

    /// Sums the work bound of the moving colliders ([`driven_contact_work`] per contact).
    fn end_substep(&mut self, _particles: &mut Particles<3>, lambda: &[f64], ctx: &SubstepContext) {
        if ctx.substep == 0 {
            self.driven_work = 0.0;
        }
        for (c, (&k, d)) in self.collider_of.iter().zip(&self.obstacle).enumerate() {
            let l = lambda.get(c).copied().unwrap_or(0.0);
            let friction = &self.colliders[k as usize].friction;
            self.driven_work += driven_contact_work(friction, l, d.norm(), ctx.h);
        }
    }

    /// Summed per substep by `end_substep`.
    fn driven_work(&self, _particles: &Particles<3>, _lambda: &[f64], _h: f64) -> f64 {
        self.driven_work
    }

    /// Always `true`: the contact list changes between substeps.
    fn dynamic_topology(&self) -> bool {
        true
    }

    fn validate(&self) -> Result<(), BuildError> {
        self.options.validate()?;
        Ok(())
    }
}
