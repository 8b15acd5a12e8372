//! [`RigidBodies`] as a participant of the simulation loop: contact generation at the start
//! of a substep, the projection in every iteration, the velocity pass at the end, and the
//! checkpoint of the bodies' state (module docs of [`crate::rigid`]).

use std::any::Any;
use std::collections::HashMap;

use rayon::prelude::*;

use super::RigidBodies;
use super::body::STATE_LEN;
use super::contact::{self, Contact, Motion, Side, Sides, World};
use crate::constraint::block::FusedBlock;
use crate::constraint::{ConstraintSet, JacobiRelaxation, SubstepContext};
use crate::contact::{Friction, Pose, Shape};
use crate::schedule::Colouring;
use crate::{BuildError, Particles, Vector};

/// Coupled particles per parallel work item of the candidate search (fixed: deterministic).
const CHUNK: usize = 4096;

/// Mean of two Coulomb laws (the pair's friction).
fn mean_friction(a: &Friction, b: &Friction) -> Friction {
    Friction {
        static_coefficient: 0.5 * (a.static_coefficient + b.static_coefficient),
        kinetic_coefficient: 0.5 * (a.kinetic_coefficient + b.kinetic_coefficient),
    }
}

impl RigidBodies {
    /// How far body `i` may move in a substep of length h: `(|v| + |ω| R) h + |g| h²`.
    fn reach(&self, i: usize, h: f64) -> f64 {
        let b = &self.bodies[i];
        (b.v.norm() + b.omega.norm() * b.bounding_radius()) * h + self.gravity.norm() * h * h
    }

    /// The contacts of the substep starting at `time` (module docs of `contact`).
    pub(super) fn generate(&mut self, particles: &Particles<3>, time: f64, h: f64) {
        let mut out = Vec::new();
        let n = self.bodies.len();
        let reach: Vec<f64> = (0..n).map(|i| self.reach(i, h)).collect();
        let poses_now: Vec<_> = (0..self.colliders.len())
            .map(|k| self.collider_pose_at(k, time))
            .collect();
        let mut groups = Vec::new();
        let mut close = |start: usize, end: usize| {
            let mut s = start;
            while s < end {
                let e = (s + contact::MAX_MANIFOLD).min(end);
                groups.push(s..e);
                s = e;
            }
        };
        // Body–collider.
        for (bi, body) in self.bodies.iter().enumerate() {
            for (k, col) in self.colliders.iter().enumerate() {
                let slack = reach[bi] + col.velocity.norm() * h + self.margin;
                let (phi, _) = col.shape.signed_distance(&poses_now[k], &body.x);
                if phi - body.bounding_radius() > slack {
                    continue;
                }
                let friction = mean_friction(&body.friction, &col.friction);
                let restitution = 0.5 * (body.restitution + col.restitution);
                let (mine, theirs) = contact::directions(&body.shape, &col.shape);
                let start = out.len();
                if let Some(found) = box_pair(
                    Side::Body(bi as u32),
                    &body.shape,
                    &body.pose(),
                    Side::Collider(k as u32),
                    &col.shape,
                    &poses_now[k],
                    slack,
                ) {
                    for mut c in found {
                        c.friction = friction;
                        c.restitution = restitution;
                        out.push(c);
                    }
                } else if mine {
                    for &(l, r) in &self.features[bi] {
                        let p = body.pose().to_world(&l);
                        if col.shape.signed_distance(&poses_now[k], &p).0 - r <= slack {
                            let mut c =
                                Contact::new(Side::Body(bi as u32), Side::Collider(k as u32), l, r);
                            c.friction = friction;
                            c.restitution = restitution;
                            out.push(c);
                        }
                    }
                }
                if theirs
                    && !matches!(
                        (&body.shape, &col.shape),
                        (Shape::Box { .. }, Shape::Box { .. })
                    )
                {
                    for (l, r) in contact::features(&col.shape, &[]) {
                        let p = poses_now[k].to_world(&l);
                        if body.shape.signed_distance(&body.pose(), &p).0 - r <= slack {
                            let mut c =
                                Contact::new(Side::Collider(k as u32), Side::Body(bi as u32), l, r);
                            c.friction = friction;
                            c.restitution = restitution;
                            out.push(c);
                        }
                    }
                }
                close(start, out.len());
            }
        }
        // Body–body.
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (&self.bodies[i], &self.bodies[j]);
                let slack = reach[i] + reach[j] + self.margin;
                if (a.x - b.x).norm() > a.bounding_radius() + b.bounding_radius() + slack {
                    continue;
                }
                let friction = mean_friction(&a.friction, &b.friction);
                let restitution = 0.5 * (a.restitution + b.restitution);
                let (ab, ba) = contact::directions(&a.shape, &b.shape);
                let start = out.len();
                if let Some(found) = box_pair(
                    Side::Body(i as u32),
                    &a.shape,
                    &a.pose(),
                    Side::Body(j as u32),
                    &b.shape,
                    &b.pose(),
                    slack,
                ) {
                    for mut c in found {
                        c.friction = friction;
                        c.restitution = restitution;
                        out.push(c);
                    }
                    close(start, out.len());
                    continue;
                }
                for (go, (o, s)) in [(ab, (i, j)), (ba, (j, i))] {
                    if !go {
                        continue;
                    }
                    let (owner, other) = (&self.bodies[o], &self.bodies[s]);
                    for &(l, r) in &self.features[o] {
                        let p = owner.pose().to_world(&l);
                        if other.shape.signed_distance(&other.pose(), &p).0 - r <= slack {
                            let mut c =
                                Contact::new(Side::Body(o as u32), Side::Body(s as u32), l, r);
                            c.friction = friction;
                            c.restitution = restitution;
                            out.push(c);
                        }
                    }
                }
                close(start, out.len());
            }
        }
        self.groups = groups;
        // Body–particle, through a grid of the bodies' bounding balls.
        if n > 0 && !self.members.is_empty() {
            let g = self.gravity.norm();
            let r_max = self.radii.iter().copied().fold(0.0, f64::max);
            let v_max = self
                .members
                .iter()
                .map(|&p| particles.v[p as usize].norm())
                .fold(0.0, f64::max);
            let particle_reach = v_max * h + g * h * h + r_max;
            let cell = (0..n)
                .map(|i| 2.0 * (self.bodies[i].bounding_radius() + reach[i]))
                .fold(0.0, f64::max)
                + 2.0 * (particle_reach + self.margin);
            let mut grid: HashMap<[i64; 3], Vec<u32>> = HashMap::new();
            let key = |x: &Vector<3>| x.map(|c| (c / cell).floor() as i64);
            for (i, b) in self.bodies.iter().enumerate() {
                let ext = b.bounding_radius() + reach[i] + particle_reach + self.margin;
                let lo = key(&b.x.add_scalar(-ext));
                let hi = key(&b.x.add_scalar(ext));
                for cx in lo.x..=hi.x {
                    for cy in lo.y..=hi.y {
                        for cz in lo.z..=hi.z {
                            grid.entry([cx, cy, cz]).or_default().push(i as u32);
                        }
                    }
                }
            }
            let bodies = &self.bodies;
            let margin = self.margin;
            let chunks: Vec<Vec<Contact>> = self
                .members
                .par_chunks(CHUNK)
                .zip(self.radii.par_chunks(CHUNK))
                .map(|(members, radii)| {
                    let mut found = Vec::new();
                    for (&p, &r) in members.iter().zip(radii) {
                        let x = particles.x[p as usize];
                        let k = key(&x);
                        let Some(list) = grid.get(&[k.x, k.y, k.z]) else {
                            continue;
                        };
                        let slack_p = particles.v[p as usize].norm() * h + g * h * h;
                        for &bi in list {
                            let b = &bodies[bi as usize];
                            let slack = reach[bi as usize] + slack_p + margin;
                            if (x - b.x).norm() > b.bounding_radius() + r + slack {
                                continue;
                            }
                            if b.shape.signed_distance(&b.pose(), &x).0 - r <= slack {
                                let mut c = Contact::new(
                                    Side::Particle(p),
                                    Side::Body(bi),
                                    Vector::<3>::zeros(),
                                    r,
                                );
                                c.friction = b.friction;
                                c.restitution = b.restitution;
                                found.push(c);
                            }
                        }
                    }
                    found
                })
                .collect();
            out.extend(chunks.into_iter().flatten());
        }
        // Relative normal speed before the substep, for restitution.
        let world = World {
            bodies: &self.bodies,
            colliders: &self.colliders,
            collider_poses: &poses_now,
            x: &particles.x,
        };
        for c in &mut out {
            let g = world.geometry(c);
            let r_o = offset(c.owner, &g.p_owner, &self.bodies);
            let r_s = offset(c.other, &g.p_other, &self.bodies);
            c.v_n_pre = contact::normal_speed(
                c,
                &g.n,
                &r_o,
                &r_s,
                &self.bodies,
                &particles.v,
                &self.colliders,
            );
        }
        self.contacts = out;
    }

    /// One Gauss–Seidel sweep: joints, then contacts in their order.
    fn sweep(&mut self, x: &mut [Vector<3>], x_prev: &[Vector<3>], w: &[f64]) {
        let h = self.h;
        let motion = Motion {
            colliders: &self.colliders,
            poses: &self.collider_poses,
            displacement: &self.collider_motion,
            x_prev,
        };
        let mut sides = Sides {
            bodies: &mut self.bodies,
            x,
            w,
        };
        let paired = self.groups.last().map_or(0, |g| g.end);
        for sweep in 0..self.sweeps {
            for j in &mut self.joints {
                j.project(sides.bodies, h);
            }
            for a in &mut self.attachments {
                a.project(sides.bodies, sides.x, sides.w, h);
            }
            if sweep % 2 == 1 {
                for g in self.groups.iter().rev() {
                    contact::project_manifold(&mut self.contacts[g.clone()], &mut sides, &motion);
                }
            } else {
                for g in &self.groups {
                    contact::project_manifold(&mut self.contacts[g.clone()], &mut sides, &motion);
                }
            }
        }
        for c in &mut self.contacts[paired..] {
            contact::project(c, &mut sides, &motion);
        }
    }
}

/// The face contacts of two boxes within `slack` of touching (`None` unless both are boxes):
/// the incident face clipped to the reference face (`boxes::manifold`), one contact per point,
/// owned by the incident side, against the reference face's plane.
fn box_pair(
    a: Side,
    shape_a: &Shape<3>,
    pose_a: &Pose<3>,
    b: Side,
    shape_b: &Shape<3>,
    pose_b: &Pose<3>,
    slack: f64,
) -> Option<Vec<Contact>> {
    let (Shape::Box { half_extents: ha }, Shape::Box { half_extents: hb }) = (shape_a, shape_b)
    else {
        return None;
    };
    let m = super::boxes::manifold(pose_a, ha, pose_b, hb);
    let (owner, owner_pose, other, other_pose) = if m.a_incident {
        (a, pose_a, b, pose_b)
    } else {
        (b, pose_b, a, pose_a)
    };
    let n_local = other_pose.rotation.tr_mul(&m.normal);
    let offset = m.offset - m.normal.dot(&other_pose.translation);
    Some(
        m.points
            .iter()
            .filter(|p| m.normal.dot(p) - m.offset <= slack)
            .map(|p| {
                let mut c = Contact::new(owner, other, owner_pose.to_local(p), 0.0);
                c.face = Some((n_local, offset));
                c
            })
            .collect(),
    )
}

/// World offset of `p` from the centre of mass of `side` (zero for particles and colliders).
fn offset(side: Side, p: &Vector<3>, bodies: &[super::RigidBody]) -> Vector<3> {
    match side {
        Side::Body(b) => p - bodies[b as usize].x,
        _ => Vector::<3>::zeros(),
    }
}

impl ConstraintSet<3> for RigidBodies {
    fn name(&self) -> &'static str {
        "rigid bodies"
    }

    fn len(&self) -> usize {
        self.contacts.len() + self.joints.len()
    }

    fn validate(&self, n_particles: usize) -> Result<(), BuildError> {
        let attached = self.attachments.iter().map(|a| &a.particle);
        if let Some(&p) = self
            .members
            .iter()
            .chain(attached)
            .find(|&&p| p as usize >= n_particles)
        {
            return Err(BuildError::InvalidGeometry(
                super::RigidError::UnknownParticle {
                    particle: p as usize,
                    len: n_particles,
                }
                .to_string(),
            ));
        }
        Ok(())
    }

    fn prepare(&mut self, _n_particles: usize, _colouring: Colouring) {
        if self.saved.len() != self.bodies.len() {
            let bodies = self.bodies.clone();
            for j in &mut self.joints {
                j.initialise(&bodies);
            }
            self.saved = self.bodies.iter().map(|b| b.state()).collect();
        }
    }

    fn begin_substep(&mut self, particles: &Particles<3>, ctx: &SubstepContext) {
        self.fault = self
            .bodies
            .iter()
            .position(|b| !b.is_finite())
            .map(|i| format!("rigid body {i} has a non-finite state"));
        if self.fault.is_some() {
            return;
        }
        self.h = ctx.h;
        for k in 0..self.colliders.len() {
            let end = self.collider_pose_at(k, ctx.time + ctx.h);
            self.collider_motion[k] = self.colliders[k].velocity * ctx.h;
            self.collider_poses[k] = end;
        }
        self.generate(particles, ctx.time, ctx.h);
        // The hinge angle a motor advances from is the substep's start, before the prediction.
        for j in &mut self.joints {
            j.begin_substep(&self.bodies);
        }
        let g = self.gravity;
        for b in &mut self.bodies {
            b.predict(ctx.h, &g);
        }
        for a in &mut self.attachments {
            a.lambda = Vector::<3>::zeros();
        }
    }

    fn end_substep(&mut self, particles: &mut Particles<3>, ctx: &SubstepContext) {
        for b in &mut self.bodies {
            b.update_velocities(ctx.h);
        }
        let g = self.gravity.norm();
        let (bodies, v, w) = (&mut self.bodies, &mut particles.v, &particles.inv_mass);
        for c in &self.contacts {
            contact::restitution(c, bodies, v, w, &self.colliders, ctx.h, g);
        }
    }

    fn substep_fault(&self) -> Option<String> {
        self.fault.clone()
    }

    fn max_substep(&self, _particles: &Particles<3>) -> Option<crate::constraint::SubstepBound> {
        None
    }

    fn max_adaptive_substep(
        &self,
        _particles: &Particles<3>,
    ) -> Option<crate::constraint::SubstepBound> {
        None
    }

    fn checkpoint(&mut self, _multipliers: bool) {
        self.saved = self.bodies.iter().map(|b| b.state()).collect();
    }

    fn rollback(&mut self) {
        for (b, s) in self.bodies.iter_mut().zip(&self.saved) {
            b.set_state(s);
        }
        self.contacts.clear();
        self.groups.clear();
    }

    fn reset_multipliers(&mut self, _warm_start_decay: Option<f64>, _parallel: bool) {
        for c in &mut self.contacts {
            c.lambda_n = 0.0;
            c.lambda_t = 0.0;
            c.tangential = Vector::<3>::zeros();
            c.impulse = Vector::<3>::zeros();
        }
    }

    fn projects_in_iteration(&self, _iteration: usize, _iterations: usize) -> bool {
        true
    }

    fn fusable(&self, _iterations: usize) -> bool {
        false
    }

    fn fused_block(&mut self) -> Option<FusedBlock<'_, 3>> {
        None
    }

    fn solve_gauss_seidel(
        &mut self,
        x: &mut [Vector<3>],
        x_prev: &[Vector<3>],
        w: &[f64],
        _ctx: &SubstepContext,
    ) {
        self.sweep(x, x_prev, w);
    }

    fn solve_coloured(
        &mut self,
        x: &mut [Vector<3>],
        x_prev: &[Vector<3>],
        w: &[f64],
        _ctx: &SubstepContext,
        _parallel: bool,
    ) {
        self.sweep(x, x_prev, w);
    }

    fn jacobi_compute(
        &mut self,
        x: &[Vector<3>],
        x_prev: &[Vector<3>],
        w: &[f64],
        _ctx: &SubstepContext,
        _relax: JacobiRelaxation<'_>,
        _parallel: bool,
    ) {
        // The bodies are updated in place (Gauss–Seidel among themselves); the particles'
        // corrections are recorded against the sweep's common x and added by the scatter.
        let mut xs = x.to_vec();
        self.sweep(&mut xs, x_prev, w);
        self.pending.clear();
        let attached: Vec<u32> = self.attachments.iter().map(|a| a.particle).collect();
        let mut touched: Vec<u32> = self.members.iter().copied().chain(attached).collect();
        touched.sort_unstable();
        touched.dedup();
        for &p in &touched {
            let d = xs[p as usize] - x[p as usize];
            if d != Vector::<3>::zeros() {
                self.pending.push((p, d));
            }
        }
    }

    fn jacobi_scatter(&self, _w: &[f64], dx: &mut [Vector<3>]) {
        for (p, d) in &self.pending {
            dx[*p as usize] += d;
        }
    }

    fn count_incidence(&self, _count: &mut [u32]) {}

    fn residual_squared(&self, _x: &[Vector<3>], _ctx: &SubstepContext) -> f64 {
        0.0
    }

    fn elastic_energy(&self, _x: &[Vector<3>]) -> f64 {
        0.0
    }

    fn multiplier_energy(&self, _h: f64) -> f64 {
        0.0
    }

    fn driven_work(&self, _particles: &Particles<3>, h: f64) -> f64 {
        // Moving colliders push the bodies (and through them the particles): the bound of
        // `contact::friction::driven_contact_work` per contact against a moving collider.
        let mut work = 0.0;
        for c in &self.contacts {
            for side in [c.owner, c.other] {
                if let Side::Collider(k) = side {
                    let d = self.collider_motion[k as usize].norm();
                    if c.lambda_n > 0.0 && d > 0.0 {
                        work += (1.0 + c.friction.kinetic_coefficient) * c.lambda_n * d / (h * h);
                    }
                }
            }
        }
        work
    }

    fn most_strained(&self, _x: &[Vector<3>]) -> Option<(usize, f64, f64)> {
        None
    }

    fn strain_lipschitz(&self) -> Option<f64> {
        None
    }

    fn worst_constraint(&self, _x: &[Vector<3>], particle: Option<usize>) -> Option<(usize, f64)> {
        // The contact with the largest normal multiplier touching `particle`.
        self.contacts
            .iter()
            .enumerate()
            .filter(|(_, c)| particle.is_none_or(|p| c.owner == Side::Particle(p as u32)))
            .max_by(|a, b| a.1.lambda_n.total_cmp(&b.1.lambda_n))
            .map(|(i, c)| (i, -c.lambda_n))
    }

    fn add_constraint_forces(&self, _x: &[Vector<3>], h: f64, forces: &mut [Vector<3>]) {
        for c in &self.contacts {
            if let Side::Particle(p) = c.owner {
                forces[p as usize] += c.impulse / (h * h);
            }
        }
    }

    fn multipliers(&self) -> &[f64] {
        &[]
    }

    fn num_colours(&self) -> usize {
        1
    }

    fn stencil(&self, c: usize) -> &[u32] {
        // Contacts are generated per substep and name their particle in `Side`; the
        // diagnostics that trace stencils see none.
        let _ = c;
        &[]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn save_state(&self) -> Vec<f64> {
        self.bodies.iter().flat_map(|b| b.state()).collect()
    }

    fn load_state(&mut self, state: &[f64]) -> Result<(), BuildError> {
        if state.len() != self.bodies.len() * STATE_LEN {
            return Err(BuildError::InvalidGeometry(format!(
                "rigid-body state has {} numbers, expected {} ({} bodies × {STATE_LEN})",
                state.len(),
                self.bodies.len() * STATE_LEN,
                self.bodies.len()
            )));
        }
        if let Some(v) = state.iter().find(|v| !v.is_finite()) {
            return Err(BuildError::InvalidGeometry(format!(
                "rigid-body state holds a non-finite number ({v})"
            )));
        }
        for (b, s) in self.bodies.iter_mut().zip(state.chunks_exact(STATE_LEN)) {
            let mut a = [0.0; STATE_LEN];
            a.copy_from_slice(s);
            b.set_state(&a);
        }
        self.saved = self.bodies.iter().map(|b| b.state()).collect();
        Ok(())
    }

    fn set_multipliers(&mut self, lambda: &[f64]) -> Result<(), BuildError> {
        if lambda.is_empty() {
            Ok(())
        } else {
            Err(BuildError::InvalidGeometry(
                "rigid bodies keep no multipliers between substeps".into(),
            ))
        }
    }

    fn owned_energy(&self, gravity: &Vector<3>) -> (f64, f64) {
        let mut k = 0.0;
        let mut v = 0.0;
        for b in &self.bodies {
            k += b.kinetic_energy();
            v -= b.mass() * gravity.dot(&b.x);
        }
        (k, v)
    }

    fn owned_mass(&self) -> f64 {
        self.bodies.iter().map(|b| b.mass()).sum()
    }
}
