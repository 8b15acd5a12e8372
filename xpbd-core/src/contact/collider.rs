//! Particles against static and kinematic colliders: `C = φ(x) − r ≥ 0`.

use rayon::prelude::*;

use super::ContactOptions;
use super::collider_triangle::ColliderMotionLink;
use super::error::{ContactError, check_finite, check_size};
use super::friction::{
    TangentialBudget, apply_coulomb_friction, driven_contact_work, restitution_impulse,
};
use super::shape::Pose;
use crate::constraint::{ConstraintKind, SubstepContext};
use crate::{BuildError, Particles, Vector};

mod rigid;

pub use rigid::{Collider, ColliderId};

/// Particles per parallel work item of the candidate search (fixed: deterministic output).
const CHUNK: usize = 2048;

/// Per-collider motion over the current step and substep.
#[derive(Debug, Clone, Default, PartialEq)]
struct Motion<const D: usize> {
    target: Option<Pose<D>>,
    step_start: Pose<D>,
    step_end: Pose<D>,
    sub_start: Pose<D>,
    sub_end: Pose<D>,
    saved_pose: Pose<D>,
    saved_target: Option<Pose<D>>,
}

/// Contacts between particles of radius r and a set of [`Collider`]s (one constraint per
/// particle–collider pair within the margin, regenerated per substep or per step:
/// [`ContactOptions`]). Add it to a simulation with
/// [`crate::Simulation::add_constraints`]; reach it afterwards through the returned handle
/// (`sim.block_mut(handle).kind`) to move colliders.
///
/// By default every particle with `w > 0` collides; restrict with
/// [`ColliderContacts::only_particles`], and give particles their own radii with
/// [`ColliderContacts::set_radii`].
///
/// ```
/// use xpbd_core::prelude::*;
/// use xpbd_core::contact::ColliderId;
/// let mut particles = Particles::<3>::new();
/// particles.push(Vector::<3>::new(0.0, 0.0, 1.0), 1.0);
/// let mut sim = Simulation::new(particles, SolverSettings::default()).unwrap();
/// let mut contacts = ColliderContacts::new(0.01, ContactOptions::default()).unwrap();
/// let ball = contacts.add_collider(Collider::fixed(Shape::Sphere { radius: 0.5 })).unwrap();
/// let handle = sim.add_constraints(contacts).unwrap();
/// // Later: make the sphere kinematic, moving up at 0.1 m/s.
/// sim.block_mut(handle).kind.set_velocity(ball, Vector::<3>::new(0.0, 0.0, 0.1)).unwrap();
/// sim.step(0.1).unwrap();
/// let c = &sim.block(handle).kind.colliders()[ball.0];
/// assert!((c.pose.translation.z - 0.01).abs() < 1e-12);
/// # let _ = ColliderId(0);
/// ```
#[derive(Debug, Clone)]
pub struct ColliderContacts<const D: usize> {
    colliders: Vec<Collider<D>>,
    motion: Vec<Motion<D>>,
    radius: f64,
    radii: Vec<f64>,
    members: Option<Vec<u32>>,
    options: ContactOptions,
    // Active contact list (structure of arrays).
    stencil: Vec<[u32; 1]>,
    collider_of: Vec<u32>,
    v_pre: Vec<Vector<D>>,
    friction_used: TangentialBudget,
    /// Where the colliders' substep motion is published for linked blocks (`None`: unlinked).
    link: Option<ColliderMotionLink<D>>,
    /// Work bound of the moving colliders over the current step (J), summed per substep.
    driven_work: f64,
}

impl<const D: usize> ColliderContacts<D> {
    /// No colliders yet; particles have radius `radius` (m, ≥ 0).
    pub fn new(radius: f64, options: ContactOptions) -> Result<Self, ContactError> {
        check_size("particle radius", radius, true)?;
        options.validate()?;
        Ok(Self {
            colliders: Vec::new(),
            motion: Vec::new(),
            radius,
            radii: Vec::new(),
            members: None,
            options,
            stencil: Vec::new(),
            collider_of: Vec::new(),
            v_pre: Vec::new(),
            friction_used: TangentialBudget::default(),
            link: None,
            driven_work: 0.0,
        })
    }

    /// Adds a validated collider (half-space normals are normalised).
    pub fn add_collider(&mut self, collider: Collider<D>) -> Result<ColliderId, ContactError> {
        collider.validate()?;
        let mut collider = collider;
        collider.shape = collider.shape.normalised();
        let pose = collider.pose;
        self.colliders.push(collider);
        self.motion.push(Motion {
            step_start: pose,
            step_end: pose,
            sub_start: pose,
            sub_end: pose,
            saved_pose: pose,
            ..Motion::default()
        });
        Ok(ColliderId(self.colliders.len() - 1))
    }

    /// The colliders.
    pub fn colliders(&self) -> &[Collider<D>] {
        &self.colliders
    }

    /// Changes the velocity of a kinematic collider (from the next step).
    pub fn set_velocity(
        &mut self,
        id: ColliderId,
        velocity: Vector<D>,
    ) -> Result<(), ContactError> {
        for &v in velocity.iter() {
            check_finite("collider velocity", v)?;
        }
        self.collider_mut(id)?.velocity = velocity;
        Ok(())
    }

    /// Animates a collider: it reaches `pose` at the end of the next step (instead of moving
    /// with its velocity during that step).
    pub fn set_target_pose(&mut self, id: ColliderId, pose: Pose<D>) -> Result<(), ContactError> {
        pose.validate()?;
        self.collider_mut(id)?;
        self.motion[id.0].target = Some(pose);
        Ok(())
    }

    /// Places a collider at `pose` now, without sweeping through the space between (the next
    /// step starts there): for a backend that steps the contacts itself and hands the poses
    /// back.
    pub fn set_pose(&mut self, id: ColliderId, pose: Pose<D>) -> Result<(), ContactError> {
        pose.validate()?;
        self.collider_mut(id)?.pose = pose;
        Ok(())
    }

    /// Shares the colliders' motion with another block (a
    /// [`super::ColliderTriangleContacts`]): from now on this block publishes every collider's
    /// shape, friction and substep poses at the start of every substep, where a block added
    /// after it reads them. The colliders stay owned (moved, checkpointed, rolled back) here.
    pub fn motion_link(&mut self) -> ColliderMotionLink<D> {
        self.link
            .get_or_insert_with(ColliderMotionLink::default)
            .clone()
    }

    /// The pose a collider is animated to over the next step ([`Self::set_target_pose`]),
    /// if one is set.
    pub fn target_pose(&self, id: ColliderId) -> Option<&Pose<D>> {
        self.motion.get(id.0).and_then(|m| m.target.as_ref())
    }

    fn collider_mut(&mut self, id: ColliderId) -> Result<&mut Collider<D>, ContactError> {
        let len = self.colliders.len();
        self.colliders
            .get_mut(id.0)
            .ok_or(ContactError::UnknownCollider { id: id.0, len })
    }

    /// Only these particles collide (others are ignored).
    pub fn only_particles(mut self, particles: impl IntoIterator<Item = usize>) -> Self {
        let mut m: Vec<u32> = particles.into_iter().map(|p| p as u32).collect();
        m.sort_unstable();
        m.dedup();
        self.members = Some(m);
        self
    }

    /// Per-particle radii (m, ≥ 0) replacing the uniform radius; indexed by particle.
    pub fn set_radii(&mut self, radii: Vec<f64>) -> Result<(), ContactError> {
        for &r in &radii {
            check_size("particle radius", r, true)?;
        }
        self.radii = radii;
        Ok(())
    }

    /// The uniform particle radius (m), used for particles without a per-particle radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Per-particle radii set by [`ColliderContacts::set_radii`] (empty when uniform).
    pub fn radii(&self) -> &[f64] {
        &self.radii
    }

    /// The radius of particle `p` (m): its own radius if set, else the uniform one.
    pub fn radius_of_particle(&self, p: usize) -> f64 {
        self.radius_of(p)
    }

    /// The contact options (generation, projection, margin, acceleration bound).
    pub fn options(&self) -> &ContactOptions {
        &self.options
    }

    /// The particles that collide, sorted (`None`: all).
    pub fn members(&self) -> Option<&[u32]> {
        self.members.as_deref()
    }

    #[inline]
    fn radius_of(&self, p: usize) -> f64 {
        self.radii.get(p).copied().unwrap_or(self.radius)
    }

    /// Particle and collider of each current contact (diagnostics and tests).
    pub fn contacts(&self) -> impl Iterator<Item = (usize, ColliderId)> + '_ {
        self.stencil
            .iter()
            .zip(&self.collider_of)
            .map(|(s, &c)| (s[0] as usize, ColliderId(c as usize)))
    }

    /// Displacement over the substep of the collider material point now at `x`.
    #[inline]
    fn collider_displacement(&self, k: usize, x: &Vector<D>) -> Vector<D> {
        let m = &self.motion[k];
        if m.sub_start == m.sub_end {
            return Vector::<D>::zeros();
        }
        x - m.sub_start.to_world(&m.sub_end.to_local(x))
    }

    /// The moving colliders' work bound over a substep of length `h`
    /// ([`driven_contact_work`] per contact). Static colliders do none.
    fn substep_driven_work(&self, particles: &Particles<D>, lambda: &[f64], h: f64) -> f64 {
        if self.motion.iter().all(|m| m.sub_start == m.sub_end) {
            return 0.0;
        }
        let mut work = 0.0;
        for (c, (s, &k)) in self.stencil.iter().zip(&self.collider_of).enumerate() {
            let l = lambda.get(c).copied().unwrap_or(0.0);
            if l > 0.0 {
                let k = k as usize;
                let d = self
                    .collider_displacement(k, &particles.x[s[0] as usize])
                    .norm();
                work += driven_contact_work(&self.colliders[k].friction, l, d, h);
            }
        }
        work
    }

    fn update_motion(&mut self, ctx: &SubstepContext) {
        let n = ctx.substeps as f64;
        for (c, m) in self.colliders.iter().zip(&mut self.motion) {
            if ctx.substep == 0 {
                m.step_start = c.pose;
                m.step_end = m.target.unwrap_or(Pose {
                    translation: c.pose.translation + c.velocity * (ctx.h * n),
                    rotation: c.pose.rotation,
                });
            }
            let s = ctx.substep as f64;
            m.sub_start = Pose::interpolate(&m.step_start, &m.step_end, s / n);
            m.sub_end = Pose::interpolate(&m.step_start, &m.step_end, (s + 1.0) / n);
        }
    }

    fn generate(&mut self, particles: &Particles<D>, ctx: &SubstepContext) {
        let span = self.options.generation_span(ctx.h, ctx.substeps);
        let sweep_fraction = span / ctx.h;
        let this = &*self;
        let test = |p: usize, out: &mut Vec<(u32, u32)>| {
            if particles.inv_mass[p] <= 0.0 {
                return;
            }
            let x = &particles.x[p];
            let bound = this.options.gap_bound(particles.v[p].norm(), span) + this.radius_of(p);
            for (k, c) in this.colliders.iter().enumerate() {
                let m = &this.motion[k];
                let sweep = (this.collider_displacement(k, x)).norm() * sweep_fraction;
                let (phi, _) = c.shape.signed_distance(&m.sub_start, x);
                if phi < bound + sweep {
                    out.push((p as u32, k as u32));
                }
            }
        };
        let found: Vec<(u32, u32)> = match &self.members {
            Some(list) => list
                .par_chunks(CHUNK)
                .flat_map_iter(|chunk| {
                    let mut out = Vec::new();
                    for &p in chunk {
                        if (p as usize) < particles.len() {
                            test(p as usize, &mut out);
                        }
                    }
                    out
                })
                .collect(),
            None => (0..particles.len().div_ceil(CHUNK))
                .into_par_iter()
                .flat_map_iter(|chunk| {
                    let mut out = Vec::new();
                    for p in chunk * CHUNK..((chunk + 1) * CHUNK).min(particles.len()) {
                        test(p, &mut out);
                    }
                    out
                })
                .collect(),
        };
        self.stencil.clear();
        self.collider_of.clear();
        for (p, k) in found {
            self.stencil.push([p]);
            self.collider_of.push(k);
        }
    }
}

impl<const D: usize> ConstraintKind<D> for ColliderContacts<D> {
    const NAME: &'static str = "collider contact";
    const FIXED_ARITY: usize = 1;

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
    fn evaluate(&self, c: usize, xs: &[Vector<D>], grad: &mut [Vector<D>]) -> f64 {
        let k = self.collider_of[c] as usize;
        let (phi, n) = self.colliders[k]
            .shape
            .signed_distance(&self.motion[k].sub_end, &xs[0]);
        grad[0] = n;
        phi - self.radius_of(self.stencil[c][0] as usize)
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
        let k = self.collider_of[c] as usize;
        let friction = &self.colliders[k].friction;
        if friction.is_none() {
            return false;
        }
        let obstacle = self.collider_displacement(k, &xs[0]);
        apply_coulomb_friction(
            friction,
            &self.friction_used,
            c,
            idx,
            xs,
            grad,
            x_prev,
            w,
            obstacle,
            lambda,
        )
    }

    /// Summed per substep by `end_substep` (see [`ColliderContacts::substep_driven_work`]).
    fn driven_work(&self, _particles: &Particles<D>, _lambda: &[f64], _h: f64) -> f64 {
        self.driven_work
    }

    fn projects_in_iteration(&self, iteration: usize, iterations: usize) -> bool {
        self.options.projection.projects_in(iteration, iterations)
    }

    fn begin_substep(&mut self, particles: &Particles<D>, ctx: &SubstepContext) {
        self.update_motion(ctx);
        if let Some(link) = &self.link {
            let motion = self.colliders.iter().zip(&self.motion);
            link.publish(
                ctx,
                motion.map(|(c, m)| (&c.shape, c.friction, m.sub_start, m.sub_end)),
            );
        }
        if self.options.regenerate_at(ctx.substep) {
            self.generate(particles, ctx);
        }
        let n_contacts = self.len();
        self.friction_used.reset(n_contacts);
        self.v_pre.clear();
        self.v_pre
            .extend(self.stencil.iter().map(|s| particles.v[s[0] as usize]));
    }

    fn end_substep(&mut self, particles: &mut Particles<D>, lambda: &[f64], ctx: &SubstepContext) {
        if ctx.substep == 0 {
            self.driven_work = 0.0;
        }
        self.driven_work += self.substep_driven_work(particles, lambda, ctx.h);
        let threshold = self.options.restitution_threshold(ctx.h);
        for c in 0..self.stencil.len() {
            let k = self.collider_of[c] as usize;
            if self.colliders[k].restitution == 0.0 || lambda.get(c).copied().unwrap_or(0.0) <= 0.0
            {
                continue;
            }
            let p = self.stencil[c][0] as usize;
            let x = particles.x[p];
            let (_, n) = self.colliders[k]
                .shape
                .signed_distance(&self.motion[k].sub_end, &x);
            let v_obstacle = self.collider_displacement(k, &x) / ctx.h;
            let mut dv = [Vector::<D>::zeros()];
            if restitution_impulse(
                self.colliders[k].restitution,
                threshold,
                &self.stencil[c],
                &[n],
                &particles.inv_mass,
                &[particles.v[p]],
                &[self.v_pre[c]],
                v_obstacle,
                &mut dv,
            ) {
                particles.v[p] += dv[0];
            }
        }
        if ctx.substep + 1 == ctx.substeps {
            for (c, m) in self.colliders.iter_mut().zip(&mut self.motion) {
                c.pose = m.step_end;
                m.target = None;
            }
        }
    }

    /// The colliders' poses (translation, then the rotation column by column, per collider):
    /// kinematic colliders move from step to step. Data rebuilt every substep (candidates,
    /// friction budgets) is not state.
    fn save_state(&self) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.colliders.len() * (D + D * D));
        for c in &self.colliders {
            out.extend(c.pose.translation.iter());
            out.extend(c.pose.rotation.iter());
        }
        out
    }

    /// Restores the poses of [`Self::save_state`]; an empty state (a checkpoint of static
    /// colliders written before poses were stored) keeps the built poses.
    fn load_state(&mut self, state: &[f64]) -> Result<(), BuildError> {
        let per = D + D * D;
        if state.is_empty() {
            return Ok(());
        }
        if state.len() != per * self.colliders.len() || !state.iter().all(|v| v.is_finite()) {
            return Err(BuildError::InvalidSetting {
                field: "collider poses",
                value: state.len() as f64,
                reason: "must hold a finite translation and rotation per collider",
            });
        }
        for (c, s) in self.colliders.iter_mut().zip(state.chunks_exact(per)) {
            c.pose.translation = Vector::<D>::from_column_slice(&s[..D]);
            c.pose.rotation = crate::Matrix::<D>::from_column_slice(&s[D..]);
        }
        Ok(())
    }

    fn checkpoint(&mut self) {
        for (c, m) in self.colliders.iter().zip(&mut self.motion) {
            m.saved_pose = c.pose;
            m.saved_target = m.target;
        }
    }

    fn rollback(&mut self) {
        for (c, m) in self.colliders.iter_mut().zip(&mut self.motion) {
            c.pose = m.saved_pose;
            m.target = m.saved_target;
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
        for c in &self.colliders {
            c.validate()?;
        }
        Ok(())
    }
}
