//! Contacts of rigid bodies with colliders, with each other and with particles: one
//! positional constraint `C = φ_S(p) − r ≥ 0` per *feature* (a point `p` with radius `r` on
//! one side) against the signed distance φ_S of the other side (Müller et al. 2020, §3.5).
//!
//! * **Features.** A sphere is its centre with its radius, a capsule a row of points along its
//!   axis (spaced at most half a radius apart) with its radius, a box its eight corners, a
//!   mesh body its vertices, a particle its position with its contact radius. A pair is
//!   tested with the features of the rounder side against the other's φ (sphere before
//!   capsule before box before mesh), both ways for two boxes or two meshes, so a ball on a
//!   box is exact, a box on a box catches every corner.
//! * **Normal.** `n = ∇φ_S`; with generalized inverse masses `w = 1/m + (r×n)ᵀ I⁻¹ (r×n)` of
//!   each side at its contact point (a particle: its `w`; a collider: 0) the multiplier is
//!   `Δλ = −C / (w₁ + w₂)` and the feature's side moves by `+Δλ n`, the other by `−Δλ n`.
//! * **Friction** (position level, as for every contact kind here, see
//!   `contact::friction`): the relative tangential motion of the two contact points over the
//!   substep, `Δx_t`, would take the tangential multiplier to `τ + |Δx_t| / w_t`; the contact
//!   sticks (undoes all of `Δx_t`) while that stays below `μ_s λ_n` and otherwise slides,
//!   undoing at most `μ_k λ_n − τ` of it. The comparison is of multipliers (impulses), so it
//!   holds for any mass ratio and lever arm: a box on a slope sticks exactly when
//!   `tan θ ≤ μ_s` and otherwise slides at `g (sin θ − μ_k cos θ)`; a ball rolls.
//! * **Restitution** in the velocity pass: the relative normal speed of an active contact is
//!   set to `max(−e ṽ_n, 0)`, `ṽ_n` the speed before the substep, with `e = 0` when
//!   `|ṽ_n| ≤ 2 |g| h` (the paper's cut-off against jitter at rest).

use super::body::RigidBody;
use crate::Vector;
use crate::contact::{Collider, Friction, Pose, Shape};

/// One side of a contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// A rigid body (index).
    Body(u32),
    /// A static or kinematic collider (index).
    Collider(u32),
    /// A particle (index into the particle store).
    Particle(u32),
}

/// A contact of one substep: a feature of `owner` against the signed distance of `other`.
#[derive(Debug, Clone)]
pub(crate) struct Contact {
    pub owner: Side,
    pub other: Side,
    /// The feature point in the owner's body frame (unused for a particle).
    pub local: Vector<3>,
    /// The feature's radius (m).
    pub radius: f64,
    pub friction: Friction,
    pub restitution: f64,
    /// Accumulated normal and tangential multipliers of the substep.
    pub lambda_n: f64,
    pub lambda_t: f64,
    /// Normal and contact offsets at the last projection (for the velocity pass).
    pub normal: Vector<3>,
    pub r_owner: Vector<3>,
    pub r_other: Vector<3>,
    /// Relative normal speed at the start of the substep.
    pub v_n_pre: f64,
    /// Accumulated tangential impulse of the substep (world; manifold contacts).
    pub tangential: Vector<3>,
    /// For a box face contact: the reference face's outward normal in the other side's frame
    /// and its offset there (`n·x = offset`); the constraint is the depth below that plane.
    pub face: Option<(Vector<3>, f64)>,
    /// Positional impulse applied to the owner over the substep (the other side got its
    /// negative): `Σ Δλ n` plus the friction.
    pub impulse: Vector<3>,
}

impl Contact {
    /// A contact of `owner`'s feature `(local, radius)` against `other`.
    pub(crate) fn new(owner: Side, other: Side, local: Vector<3>, radius: f64) -> Self {
        Self {
            owner,
            other,
            local,
            radius,
            friction: Friction::NONE,
            restitution: 0.0,
            lambda_n: 0.0,
            lambda_t: 0.0,
            normal: Vector::<3>::zeros(),
            r_owner: Vector::<3>::zeros(),
            r_other: Vector::<3>::zeros(),
            v_n_pre: 0.0,
            tangential: Vector::<3>::zeros(),
            face: None,
            impulse: Vector::<3>::zeros(),
        }
    }
}

/// Feature points (body frame) with their radius.
pub(crate) fn features(shape: &Shape<3>, mesh_vertices: &[Vector<3>]) -> Vec<(Vector<3>, f64)> {
    match shape {
        Shape::Sphere { radius } => vec![(Vector::<3>::zeros(), *radius)],
        Shape::Capsule {
            half_length,
            radius,
        } => {
            let n = ((2.0 * half_length / (0.5 * radius)).ceil() as usize).clamp(1, 64);
            (0..=n)
                .map(|i| {
                    let s = -half_length + 2.0 * half_length * i as f64 / n as f64;
                    (Vector::<3>::new(s, 0.0, 0.0), *radius)
                })
                .collect()
        }
        Shape::Box { half_extents: h } => (0..8)
            .map(|k| {
                let sx = if k & 1 == 0 { -1.0 } else { 1.0 };
                let sy = if k & 2 == 0 { -1.0 } else { 1.0 };
                let sz = if k & 4 == 0 { -1.0 } else { 1.0 };
                (Vector::<3>::new(sx * h.x, sy * h.y, sz * h.z), 0.0)
            })
            .collect(),
        Shape::Sdf(_) => mesh_vertices.iter().map(|v| (*v, 0.0)).collect(),
        Shape::HalfSpace { .. } => Vec::new(),
    }
}

/// Roundness rank: features of the lower rank are tested against the higher's φ.
pub(crate) fn rank(shape: &Shape<3>) -> u8 {
    match shape {
        Shape::Sphere { .. } => 0,
        Shape::Capsule { .. } => 1,
        Shape::Box { .. } => 2,
        Shape::Sdf(_) => 3,
        Shape::HalfSpace { .. } => 4,
    }
}

/// Which directions a pair of shapes is tested in: `(features of a against b, of b against a)`.
pub(crate) fn directions(a: &Shape<3>, b: &Shape<3>) -> (bool, bool) {
    let (ra, rb) = (rank(a), rank(b));
    if ra == rb {
        (true, (2..4).contains(&ra))
    } else {
        (ra < rb && ra < 4, rb < ra && rb < 4)
    }
}

/// The world geometry of a contact in the current state.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Geometry {
    /// `C = φ − r` (negative: penetrating).
    pub c: f64,
    pub n: Vector<3>,
    /// Contact point on the owner's surface and on the other's.
    pub p_owner: Vector<3>,
    pub p_other: Vector<3>,
}

/// The state a contact reads: bodies, colliders at the end of the substep, particles.
pub(crate) struct World<'a> {
    pub bodies: &'a [RigidBody],
    pub colliders: &'a [Collider<3>],
    /// Collider poses at the end of the substep.
    pub collider_poses: &'a [Pose<3>],
    pub x: &'a [Vector<3>],
}

impl World<'_> {
    /// Shape and pose of a side (`None` for a particle).
    fn placed(&self, side: Side) -> Option<(&Shape<3>, Pose<3>)> {
        match side {
            Side::Body(b) => {
                let body = &self.bodies[b as usize];
                Some((&body.shape, body.pose()))
            }
            Side::Collider(k) => Some((
                &self.colliders[k as usize].shape,
                self.collider_poses[k as usize],
            )),
            Side::Particle(_) => None,
        }
    }

    pub(crate) fn geometry(&self, c: &Contact) -> Geometry {
        let owner = self.placed(c.owner);
        let p = match (&owner, c.owner) {
            (Some((_, pose)), _) => pose.to_world(&c.local),
            (None, Side::Particle(i)) => self.x[i as usize],
            (None, _) => Vector::<3>::zeros(),
        };
        let Some((shape, pose)) = self.placed(c.other) else {
            // Never built: particles are always a contact's feature side.
            return Geometry {
                c: f64::INFINITY,
                n: Vector::<3>::z(),
                p_owner: p,
                p_other: p,
            };
        };
        if let Some((n_local, offset)) = c.face {
            let n = pose.rotation * n_local;
            let depth = n.dot(&(p - pose.translation)) - offset;
            return Geometry {
                c: depth - c.radius,
                n,
                p_owner: p - n * c.radius,
                p_other: p - n * depth,
            };
        }
        let (phi, n) = shape.signed_distance(&pose, &p);
        Geometry {
            c: phi - c.radius,
            n,
            p_owner: p - n * c.radius,
            p_other: p - n * phi,
        }
    }
}

/// Mutable access to both sides of a contact.
pub(crate) struct Sides<'a> {
    pub bodies: &'a mut [RigidBody],
    pub x: &'a mut [Vector<3>],
    pub w: &'a [f64],
}

impl Sides<'_> {
    /// Generalized inverse mass of `side` along `n` at world point `p`.
    fn weight(&self, side: Side, p: &Vector<3>, n: &Vector<3>) -> f64 {
        match side {
            Side::Body(b) => {
                let body = &self.bodies[b as usize];
                body.positional_weight(&(p - body.x), n)
            }
            Side::Particle(i) => self.w[i as usize],
            Side::Collider(_) => 0.0,
        }
    }

    /// Moves `side` by the positional impulse `impulse` applied at world point `p`.
    fn apply(&mut self, side: Side, impulse: &Vector<3>, p: &Vector<3>) {
        match side {
            Side::Body(b) => {
                let body = &mut self.bodies[b as usize];
                let r = p - body.x;
                body.apply_positional(impulse, &r);
            }
            Side::Particle(i) => {
                let i = i as usize;
                self.x[i] += impulse * self.w[i];
            }
            Side::Collider(_) => {}
        }
    }
}

/// The point `p` in the frame that moves with `side`: a body's frame, a particle's offset, a
/// collider's frame at the end of the substep.
fn to_material(side: Side, p: &Vector<3>, m: &Motion<'_>, sides: &Sides<'_>) -> Vector<3> {
    match side {
        Side::Body(b) => sides.bodies[b as usize].pose().to_local(p),
        Side::Particle(i) => p - sides.x[i as usize],
        Side::Collider(k) => m.poses[k as usize].to_local(p),
    }
}

/// The material point `l` of `side` now (`prev = false`) or at the start of the substep.
fn material_at(side: Side, l: &Vector<3>, prev: bool, m: &Motion<'_>, s: &Sides<'_>) -> Vector<3> {
    match side {
        Side::Body(b) => {
            let body = &s.bodies[b as usize];
            if prev {
                body.pose_prev().to_world(l)
            } else {
                body.pose().to_world(l)
            }
        }
        Side::Particle(i) => {
            let i = i as usize;
            if prev { m.x_prev[i] + l } else { s.x[i] + l }
        }
        Side::Collider(k) => {
            let now = m.poses[k as usize].to_world(l);
            if prev {
                now - m.displacement[k as usize]
            } else {
                now
            }
        }
    }
}

/// The colliders' placement and the particles' substep start, read by the projection.
pub(crate) struct Motion<'a> {
    pub colliders: &'a [Collider<3>],
    /// Collider poses at the end of the substep.
    pub poses: &'a [Pose<3>],
    /// Collider displacement over the substep.
    pub displacement: &'a [Vector<3>],
    pub x_prev: &'a [Vector<3>],
}

/// Projects one contact (normal, then friction); returns `C` before the projection.
pub(crate) fn project(c: &mut Contact, sides: &mut Sides<'_>, m: &Motion<'_>) -> f64 {
    let g = World {
        bodies: sides.bodies,
        colliders: m.colliders,
        collider_poses: m.poses,
        x: sides.x,
    }
    .geometry(c);
    if g.c >= 0.0 {
        return g.c;
    }
    let n = g.n;
    let w = sides.weight(c.owner, &g.p_owner, &n) + sides.weight(c.other, &g.p_other, &n);
    if w <= 0.0 {
        return g.c;
    }
    let l_o = to_material(c.owner, &g.p_owner, m, sides);
    let l_s = to_material(c.other, &g.p_other, m, sides);
    let dl = -g.c / w;
    c.lambda_n += dl;
    let p = n * dl;
    c.impulse += p;
    sides.apply(c.owner, &p, &g.p_owner);
    sides.apply(c.other, &(-p), &g.p_other);
    c.normal = n;
    c.r_owner = offset(c.owner, &g.p_owner, sides.bodies);
    c.r_other = offset(c.other, &g.p_other, sides.bodies);
    if !c.friction.is_none() {
        friction(c, sides, m, &n, &l_o, &l_s);
    }
    g.c
}

/// Largest contact manifold solved as one block (features of one body pair).
pub(crate) const MAX_MANIFOLD: usize = 16;

/// Rows of a manifold block: a normal and two tangents per contact.
const ROWS: usize = 3 * MAX_MANIFOLD;

/// Projects the contacts of one pair of bodies (or a body and a collider) together, friction
/// included: the multipliers of the normal and the two tangents of every contact solve
///
/// ```text
/// C_n + (K Δλ)_n ≥ 0,  λ_n ≥ 0,  complementary             (no penetration)
/// C_t + (K Δλ)_t = 0   while |λ_t| ≤ μ_s λ_n,  else |λ_t| = μ_k λ_n   (Coulomb)
/// ```
///
/// by projected Gauss–Seidel on the block to convergence, with the pair's Delassus matrix
/// `K_ab = Σ_B s_a s_b (d_a·d_b / m_B + (r_a×d_a)ᵀ I_B⁻¹ (r_b×d_b))` over the rows' directions
/// `d` and lever arms `r`, and `C_t` the relative tangential motion of the two material points
/// over the substep; λ are the substep's totals (module docs on friction).
///
/// Projecting the corners of a box one after the other, and friction after the normals,
/// leaves the box tilted after each sweep (the first corner lifts by turning the box, which
/// pushes the opposite corner down; a tangential push below the centre of mass turns it too):
/// measured, a stack of three boxes at μ = 0.6 rocks with growing amplitude. Solved as one
/// block, the contact impulses hold it level.
pub(crate) fn project_manifold(contacts: &mut [Contact], sides: &mut Sides<'_>, m: &Motion<'_>) {
    let k = contacts.len().min(MAX_MANIFOLD);
    if k == 0 {
        return;
    }
    let world = World {
        bodies: sides.bodies,
        colliders: m.colliders,
        collider_poses: m.poses,
        x: sides.x,
    };
    let geo: Vec<Geometry> = contacts[..k].iter().map(|c| world.geometry(c)).collect();
    if geo
        .iter()
        .zip(&contacts[..k])
        .all(|(g, c)| g.c >= 0.0 && c.lambda_n <= 0.0)
    {
        return;
    }
    // Row directions and right-hand sides.
    let mut dir = [Vector::<3>::zeros(); ROWS];
    let mut rhs = [0.0; ROWS];
    let l_o: Vec<Vector<3>> = (0..k)
        .map(|i| to_material(contacts[i].owner, &geo[i].p_owner, m, sides))
        .collect();
    let l_s: Vec<Vector<3>> = (0..k)
        .map(|i| to_material(contacts[i].other, &geo[i].p_other, m, sides))
        .collect();
    for i in 0..k {
        let c = &contacts[i];
        let n = geo[i].n;
        let t1 = if n.x.abs() < 0.9 {
            n.cross(&Vector::<3>::x())
        } else {
            n.cross(&Vector::<3>::y())
        }
        .normalize();
        let t2 = n.cross(&t1);
        let dx = (material_at(c.owner, &l_o[i], false, m, sides)
            - material_at(c.owner, &l_o[i], true, m, sides))
            - (material_at(c.other, &l_s[i], false, m, sides)
                - material_at(c.other, &l_s[i], true, m, sides));
        dir[3 * i] = n;
        dir[3 * i + 1] = t1;
        dir[3 * i + 2] = t2;
        rhs[3 * i] = geo[i].c;
        rhs[3 * i + 1] = t1.dot(&dx);
        rhs[3 * i + 2] = t2.dot(&dx);
    }
    // Body terms of each contact: (body, sign, lever arm).
    let mut terms = vec![[(usize::MAX, 0.0, Vector::<3>::zeros()); 2]; k];
    let mut particle_w = vec![0.0; k];
    for i in 0..k {
        let c = &contacts[i];
        for (slot, (side, p, sign)) in [
            (c.owner, geo[i].p_owner, 1.0),
            (c.other, geo[i].p_other, -1.0),
        ]
        .into_iter()
        .enumerate()
        {
            match side {
                Side::Body(b) => {
                    let b = b as usize;
                    terms[i][slot] = (b, sign, p - sides.bodies[b].x);
                }
                Side::Particle(q) => particle_w[i] += sides.w[q as usize],
                Side::Collider(_) => {}
            }
        }
    }
    let rows = 3 * k;
    let mut kmat = vec![0.0; rows * rows];
    for a in 0..rows {
        let (i, da) = (a / 3, dir[a]);
        for b in a..rows {
            let (j, db) = (b / 3, dir[b]);
            let mut sum = 0.0;
            for &(bi, si, ri) in &terms[i] {
                for &(bj, sj, rj) in &terms[j] {
                    if bi == usize::MAX || bi != bj {
                        continue;
                    }
                    let body = &sides.bodies[bi];
                    sum += si
                        * sj
                        * (body.inv_mass * da.dot(&db)
                            + ri.cross(&da).dot(&body.inv_inertia_times(&rj.cross(&db))));
                }
            }
            if i == j {
                sum += particle_w[i] * da.dot(&db);
            }
            kmat[a * rows + b] = sum;
            kmat[b * rows + a] = sum;
        }
    }
    // Substep totals before this projection.
    let lambda_n0: Vec<f64> = contacts[..k].iter().map(|c| c.lambda_n).collect();
    let lambda_t0: Vec<[f64; 2]> = (0..k)
        .map(|i| {
            let lt = contacts[i].tangential;
            [lt.dot(&dir[3 * i + 1]), lt.dot(&dir[3 * i + 2])]
        })
        .collect();
    let mut dl = vec![0.0; rows];
    let residual =
        |dl: &[f64], a: usize| rhs[a] + (0..rows).map(|b| kmat[a * rows + b] * dl[b]).sum::<f64>();
    for _ in 0..64 {
        let mut change: f64 = 0.0;
        for i in 0..k {
            let a = 3 * i;
            let knn = kmat[a * rows + a];
            if knn > 0.0 {
                let next = (dl[a] - residual(&dl, a) / knn).max(-lambda_n0[i]);
                change = change.max((next - dl[a]).abs() * knn);
                dl[a] = next;
            }
            let friction = contacts[i].friction;
            if friction.is_none() {
                continue;
            }
            let total_n = lambda_n0[i] + dl[a];
            // The 2×2 tangential block, solved exactly, then clamped to the cone.
            let (k11, k12, k22) = (
                kmat[(a + 1) * rows + a + 1],
                kmat[(a + 1) * rows + a + 2],
                kmat[(a + 2) * rows + a + 2],
            );
            let det = k11 * k22 - k12 * k12;
            if det <= 0.0 || total_n <= 0.0 {
                continue;
            }
            let (r1, r2) = (residual(&dl, a + 1), residual(&dl, a + 2));
            let mut t = [
                lambda_t0[i][0] + dl[a + 1] - (k22 * r1 - k12 * r2) / det,
                lambda_t0[i][1] + dl[a + 2] - (k11 * r2 - k12 * r1) / det,
            ];
            let mag = (t[0] * t[0] + t[1] * t[1]).sqrt();
            if mag > friction.static_coefficient * total_n {
                // Sliding: the whole kinetic friction against the slip this contact would
                // have without its own friction, `r − K_tt λ_t` (Coulomb's direction; the
                // sticking solution's direction differs where K_tt is anisotropic, a corner
                // of a box, and would leave the net friction short of μ_k Σ λ_n).
                let (l1, l2) = (lambda_t0[i][0] + dl[a + 1], lambda_t0[i][1] + dl[a + 2]);
                let s1 = r1 - (k11 * l1 + k12 * l2);
                let s2 = r2 - (k12 * l1 + k22 * l2);
                let slip = (s1 * s1 + s2 * s2).sqrt();
                let (d1, d2) = if slip > 0.0 {
                    (s1 / slip, s2 / slip)
                } else {
                    (t[0] / mag, t[1] / mag)
                };
                let f = friction.kinetic_coefficient * total_n;
                t = if slip > 0.0 {
                    [-f * d1, -f * d2]
                } else {
                    [f * d1, f * d2]
                };
            }
            for (d, tv) in [(1, t[0]), (2, t[1])] {
                let next = tv - lambda_t0[i][d - 1];
                change = change.max((next - dl[a + d]).abs() * kmat[(a + d) * rows + a + d]);
                dl[a + d] = next;
            }
        }
        if change <= 1e-14 {
            break;
        }
    }
    for i in 0..k {
        let a = 3 * i;
        let p = dir[a] * dl[a] + dir[a + 1] * dl[a + 1] + dir[a + 2] * dl[a + 2];
        if p == Vector::<3>::zeros() {
            continue;
        }
        let c = &mut contacts[i];
        c.lambda_n += dl[a];
        c.tangential += dir[a + 1] * dl[a + 1] + dir[a + 2] * dl[a + 2];
        c.impulse += p;
        sides.apply(c.owner, &p, &geo[i].p_owner);
        sides.apply(c.other, &(-p), &geo[i].p_other);
        c.normal = geo[i].n;
        c.r_owner = offset(c.owner, &geo[i].p_owner, sides.bodies);
        c.r_other = offset(c.other, &geo[i].p_other, sides.bodies);
    }
}

/// Position-level Coulomb friction of a contact (module docs) between the material points
/// `l_o` and `l_s` of its two sides.
fn friction(
    c: &mut Contact,
    sides: &mut Sides<'_>,
    m: &Motion<'_>,
    n: &Vector<3>,
    l_o: &Vector<3>,
    l_s: &Vector<3>,
) {
    let p_o = material_at(c.owner, l_o, false, m, sides);
    let p_s = material_at(c.other, l_s, false, m, sides);
    let dx = (p_o - material_at(c.owner, l_o, true, m, sides))
        - (p_s - material_at(c.other, l_s, true, m, sides));
    let dx_t = dx - n * dx.dot(n);
    let len = dx_t.norm();
    if len <= 0.0 || !len.is_finite() {
        return;
    }
    let t = dx_t / len;
    let w = sides.weight(c.owner, &p_o, &t) + sides.weight(c.other, &p_s, &t);
    if w <= 0.0 {
        return;
    }
    let want = len / w;
    let dl = if c.lambda_t + want <= c.friction.static_coefficient * c.lambda_n {
        want
    } else {
        (c.friction.kinetic_coefficient * c.lambda_n - c.lambda_t).min(want)
    };
    if dl <= 0.0 {
        return;
    }
    c.lambda_t += dl;
    let p = -t * dl;
    c.impulse += p;
    sides.apply(c.owner, &p, &p_o);
    sides.apply(c.other, &(-p), &p_s);
}

/// World offset of `p` from the centre of mass of `side` (zero for particles and colliders).
fn offset(side: Side, p: &Vector<3>, bodies: &[RigidBody]) -> Vector<3> {
    match side {
        Side::Body(b) => p - bodies[b as usize].x,
        _ => Vector::<3>::zeros(),
    }
}

/// Velocity of the contact point of `side`.
fn point_velocity(
    side: Side,
    r: &Vector<3>,
    bodies: &[RigidBody],
    v: &[Vector<3>],
    colliders: &[Collider<3>],
) -> Vector<3> {
    match side {
        Side::Body(b) => bodies[b as usize].point_velocity(r),
        Side::Particle(i) => v[i as usize],
        Side::Collider(k) => colliders[k as usize].velocity,
    }
}

/// Relative normal speed `n · (v_owner − v_other)` of a contact with the given geometry.
pub(crate) fn normal_speed(
    c: &Contact,
    n: &Vector<3>,
    r_owner: &Vector<3>,
    r_other: &Vector<3>,
    bodies: &[RigidBody],
    v: &[Vector<3>],
    colliders: &[Collider<3>],
) -> f64 {
    let vo = point_velocity(c.owner, r_owner, bodies, v, colliders);
    let vs = point_velocity(c.other, r_other, bodies, v, colliders);
    n.dot(&(vo - vs))
}

/// The velocity pass of an active contact: restitution (module docs).
pub(crate) fn restitution(
    c: &Contact,
    bodies: &mut [RigidBody],
    v: &mut [Vector<3>],
    w: &[f64],
    colliders: &[Collider<3>],
    h: f64,
    gravity: f64,
) {
    if c.lambda_n <= 0.0 {
        return;
    }
    let n = c.normal;
    let v_n = normal_speed(c, &n, &c.r_owner, &c.r_other, bodies, v, colliders);
    let e = if c.v_n_pre.abs() <= 2.0 * gravity * h {
        0.0
    } else {
        c.restitution
    };
    let dv = (-e * c.v_n_pre).max(0.0) - v_n;
    if dv == 0.0 {
        return;
    }
    let weight = |side: Side, r: &Vector<3>, bodies: &[RigidBody]| match side {
        Side::Body(b) => {
            let body = &bodies[b as usize];
            let rn = r.cross(&n);
            body.inv_mass + rn.dot(&body.inv_inertia_times(&rn))
        }
        Side::Particle(i) => w[i as usize],
        Side::Collider(_) => 0.0,
    };
    let wsum = weight(c.owner, &c.r_owner, bodies) + weight(c.other, &c.r_other, bodies);
    if wsum <= 0.0 {
        return;
    }
    let p = n * (dv / wsum);
    for (side, r, sign) in [(c.owner, c.r_owner, 1.0), (c.other, c.r_other, -1.0)] {
        match side {
            Side::Body(b) => bodies[b as usize].apply_impulse(&(p * sign), &r),
            Side::Particle(i) => v[i as usize] += p * (sign * w[i as usize]),
            Side::Collider(_) => {}
        }
    }
}
