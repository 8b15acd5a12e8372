//! Joints between two rigid bodies, or a body and the world, built from the two correction
//! primitives of Müller et al. 2020 (§3.3): a positional constraint between two anchor points
//! (eq. 2–9) and an angular constraint that rotates one body's frame towards the other's
//! (eq. 10–14). A compliance α makes a joint soft exactly as for every XPBD constraint
//! (`Δλ = (−C − α̃ λ) / (w₁ + w₂ + α̃)`, `α̃ = α/h²`, λ accumulated over the iterations of a
//! substep and reset at the next).
//!
//! * `Ball`: anchors coincide.
//! * `Fixed`: anchors coincide and the frames keep their relative orientation of the start.
//! * `Hinge`: anchors coincide and the hinge axes (one per body, body frame) stay aligned; with
//!   `limits` the hinge angle stays in `[lo, hi]`; with a `motor` of angular speed ω the angle
//!   is driven to advance by ω h per substep (a driven wheel).
//! * `Distance`: the anchors stay `rest` apart.

use nalgebra::Quaternion;

use super::RigidError;
use super::body::RigidBody;
use crate::Vector;

/// What a joint keeps.
#[derive(Debug, Clone, PartialEq)]
pub enum JointKind {
    /// Anchors coincide (a ball-and-socket).
    Ball,
    /// Anchors coincide and the relative orientation is kept.
    Fixed,
    /// Anchors coincide and the axes stay aligned; optional angle limits (rad) and motor
    /// speed (rad/s) about the axis.
    Hinge {
        /// The axis in body a's frame (or world, for the world).
        axis_a: Vector<3>,
        /// The axis in body b's frame.
        axis_b: Vector<3>,
        /// `[lo, hi]` of the hinge angle (rad), measured from the start.
        limits: Option<[f64; 2]>,
        /// Driven angular speed of b relative to a about the axis (rad/s).
        motor: Option<f64>,
    },
    /// The anchors stay `rest` apart (m).
    Distance {
        /// Rest distance (m, ≥ 0).
        rest: f64,
    },
}

/// A joint between body `a` (or the world, `None`) and body `b`.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// What it keeps.
    pub kind: JointKind,
    /// Body a, or `None` for the world.
    pub a: Option<usize>,
    /// Body b.
    pub b: usize,
    /// Anchor on a (a's body frame; world coordinates for the world).
    pub anchor_a: Vector<3>,
    /// Anchor on b (b's body frame).
    pub anchor_b: Vector<3>,
    /// Compliance α (m/N for the positional part; 0 = rigid).
    pub compliance: f64,
    /// Relative orientation `q_a⁻¹ q_b` at the start (fixed joints), and for hinges the
    /// reference direction perpendicular to the axis in each frame (angle zero).
    pub(crate) rest: Quaternion<f64>,
    pub(crate) reference: [Vector<3>; 2],
    /// Hinge angle at the start of the substep (motor) and the multipliers of the substep.
    pub(crate) angle_start: f64,
    pub(crate) lambda: [f64; 5],
}

impl Joint {
    /// A joint of `kind` between `a` (or the world) and `b` at anchors in their frames.
    pub fn new(
        kind: JointKind,
        a: Option<usize>,
        b: usize,
        anchor_a: Vector<3>,
        anchor_b: Vector<3>,
    ) -> Self {
        Self {
            kind,
            a,
            b,
            anchor_a,
            anchor_b,
            compliance: 0.0,
            rest: Quaternion::identity(),
            reference: [Vector::<3>::x(), Vector::<3>::x()],
            angle_start: 0.0,
            lambda: [0.0; 5],
        }
    }

    /// With compliance α (≥ 0).
    pub fn with_compliance(mut self, compliance: f64) -> Self {
        self.compliance = compliance;
        self
    }

    /// Typed checks against `n_bodies`.
    pub(crate) fn validate(&self, n_bodies: usize) -> Result<(), RigidError> {
        for body in self.a.iter().chain(std::iter::once(&self.b)) {
            if *body >= n_bodies {
                return Err(RigidError::UnknownBody {
                    body: *body,
                    len: n_bodies,
                });
            }
        }
        if self.a == Some(self.b) {
            return Err(RigidError::BadJoint {
                field: "bodies",
                value: self.b as f64,
                reason: "a joint needs two different bodies",
            });
        }
        if !(self.compliance.is_finite() && self.compliance >= 0.0) {
            return Err(RigidError::BadJoint {
                field: "compliance",
                value: self.compliance,
                reason: "must be finite and >= 0",
            });
        }
        for v in self.anchor_a.iter().chain(self.anchor_b.iter()) {
            if !v.is_finite() {
                return Err(RigidError::BadJoint {
                    field: "anchor",
                    value: *v,
                    reason: "must be finite",
                });
            }
        }
        match &self.kind {
            JointKind::Hinge {
                axis_a,
                axis_b,
                limits,
                motor,
            } => {
                for axis in [axis_a, axis_b] {
                    let n = axis.norm();
                    if !(n.is_finite() && n > 0.0) {
                        return Err(RigidError::BadJoint {
                            field: "axis length",
                            value: n,
                            reason: "must be finite and > 0",
                        });
                    }
                }
                if let Some([lo, hi]) = limits
                    && !(lo.is_finite() && hi.is_finite() && lo <= hi)
                {
                    return Err(RigidError::BadJoint {
                        field: "limits",
                        value: *lo,
                        reason: "need finite lo <= hi (rad)",
                    });
                }
                if let Some(m) = motor
                    && !m.is_finite()
                {
                    return Err(RigidError::BadJoint {
                        field: "motor",
                        value: *m,
                        reason: "must be finite (rad/s)",
                    });
                }
            }
            JointKind::Distance { rest } => {
                if !(rest.is_finite() && *rest >= 0.0) {
                    return Err(RigidError::BadJoint {
                        field: "rest",
                        value: *rest,
                        reason: "must be finite and >= 0",
                    });
                }
            }
            JointKind::Ball | JointKind::Fixed => {}
        }
        Ok(())
    }

    /// Records the rest orientation and the hinge's reference directions from the bodies'
    /// state at the start.
    pub(crate) fn initialise(&mut self, bodies: &[RigidBody]) {
        let qa = self.a.map_or(Quaternion::identity(), |a| bodies[a].q);
        let qb = bodies[self.b].q;
        self.rest = qa.conjugate() * qb;
        if let JointKind::Hinge { axis_a, .. } = &self.kind {
            let ra = self
                .a
                .map_or(nalgebra::Matrix3::identity(), |a| bodies[a].rotation());
            let rb = bodies[self.b].rotation();
            let axis_w = ra * axis_a.normalize();
            let pick = if axis_w.x.abs() < 0.9 {
                Vector::<3>::x()
            } else {
                Vector::<3>::y()
            };
            let perp = (pick - axis_w * pick.dot(&axis_w)).normalize();
            self.reference = [ra.tr_mul(&perp), rb.tr_mul(&perp)];
        }
    }

    /// World axis of a hinge on side a and b, and the hinge angle of b relative to a.
    fn hinge_state(&self, bodies: &[RigidBody]) -> Option<(Vector<3>, Vector<3>, f64)> {
        let JointKind::Hinge { axis_a, axis_b, .. } = &self.kind else {
            return None;
        };
        let ra = self
            .a
            .map_or(nalgebra::Matrix3::identity(), |a| bodies[a].rotation());
        let rb = bodies[self.b].rotation();
        let wa = (ra * axis_a).normalize();
        let wb = (rb * axis_b).normalize();
        let ea = ra * self.reference[0];
        let eb = rb * self.reference[1];
        let angle = ea.cross(&eb).dot(&wa).atan2(ea.dot(&eb));
        Some((wa, wb, angle))
    }

    /// Start of a substep: λ = 0 and the hinge angle the motor starts from.
    pub(crate) fn begin_substep(&mut self, bodies: &[RigidBody]) {
        self.lambda = [0.0; 5];
        if let Some((_, _, angle)) = self.hinge_state(bodies) {
            self.angle_start = angle;
        }
    }

    /// One projection of the joint (positional part, then angular parts).
    pub(crate) fn project(&mut self, bodies: &mut [RigidBody], h: f64) {
        let alpha = self.compliance / (h * h);
        match self.kind.clone() {
            JointKind::Ball | JointKind::Fixed | JointKind::Hinge { .. } => {
                self.coincide(bodies, alpha);
            }
            JointKind::Distance { rest } => self.positional(bodies, rest, alpha),
        }
        match self.kind.clone() {
            JointKind::Fixed => {
                let qa = self.a.map_or(Quaternion::identity(), |a| bodies[a].q);
                let qb = bodies[self.b].q;
                // Rotation taking b's current orientation to where the rest orientation
                // puts it: Δq = (q_a q_rest) q_b⁻¹.
                let dq = qa * self.rest * qb.conjugate();
                let sign = if dq.w < 0.0 { -1.0 } else { 1.0 };
                let theta = Vector::<3>::new(dq.i, dq.j, dq.k) * (2.0 * sign);
                self.angular(bodies, &theta, 1, alpha, 0.0);
            }
            JointKind::Hinge { limits, motor, .. } => {
                if let Some((wa, wb, _)) = self.hinge_state(bodies) {
                    // Rotate b's axis onto a's.
                    let theta = wb.cross(&wa);
                    self.angular(bodies, &theta, 1, 0.0, 0.0);
                }
                if let Some(speed) = motor {
                    if let Some((wa, _, angle)) = self.hinge_state(bodies) {
                        let target = self.angle_start + speed * h;
                        let error = wrap(target - angle);
                        self.angular(bodies, &(wa * error), 2, alpha, 0.0);
                    }
                } else if let Some([lo, hi]) = limits
                    && let Some((wa, _, angle)) = self.hinge_state(bodies)
                {
                    let error = if angle < lo {
                        lo - angle
                    } else if angle > hi {
                        hi - angle
                    } else {
                        0.0
                    };
                    if error != 0.0 {
                        self.angular(bodies, &(wa * error), 2, 0.0, 0.0);
                    }
                }
            }
            JointKind::Ball | JointKind::Distance { .. } => {}
        }
    }

    /// The anchors' world positions.
    fn anchors(&self, bodies: &[RigidBody]) -> (Vector<3>, Vector<3>) {
        let pa = self
            .a
            .map_or(self.anchor_a, |a| bodies[a].pose().to_world(&self.anchor_a));
        let pb = bodies[self.b].pose().to_world(&self.anchor_b);
        (pa, pb)
    }

    /// The three constraints `C = p_b − p_a = 0` solved together with their 3×3 effective
    /// inverse mass `K = Σ (𝟙/m − [r]× I⁻¹ [r]×)` (`[r]×` the cross-product matrix of the
    /// anchor's offset): `Δp = −(K + α̃ 𝟙)⁻¹ (C + α̃ λ)`. One scalar constraint along
    /// `C/|C|` would move the anchor sideways wherever `K` is anisotropic (a small ball on a
    /// long lever turns a thousand times more easily than it translates) and make that
    /// sideways error the next substep's `C`.
    fn coincide(&mut self, bodies: &mut [RigidBody], alpha: f64) {
        let (pa, pb) = self.anchors(bodies);
        let c = pb - pa;
        if c == Vector::<3>::zeros() {
            return;
        }
        let k_of = |body: &RigidBody, r: &Vector<3>| {
            let rx = r.cross_matrix();
            let rot = body.rotation();
            let inv_i = rot * nalgebra::Matrix3::from_diagonal(&body.inv_inertia) * rot.transpose();
            nalgebra::Matrix3::identity() * body.inv_mass - rx * inv_i * rx
        };
        let rb = pb - bodies[self.b].x;
        let mut k = k_of(&bodies[self.b], &rb) + nalgebra::Matrix3::identity() * alpha;
        let ra = self.a.map(|a| pa - bodies[a].x);
        if let (Some(a), Some(ra)) = (self.a, ra) {
            k += k_of(&bodies[a], &ra);
        }
        let Some(k_inv) = k.try_inverse() else {
            return;
        };
        let lambda = Vector::<3>::new(self.lambda[0], self.lambda[3], self.lambda[4]);
        let dp = -(k_inv * (c + lambda * alpha));
        let lambda = lambda + dp;
        self.lambda[0] = lambda.x;
        self.lambda[3] = lambda.y;
        self.lambda[4] = lambda.z;
        bodies[self.b].apply_positional(&dp, &rb);
        if let (Some(a), Some(ra)) = (self.a, ra) {
            bodies[a].apply_positional(&(-dp), &ra);
        }
    }

    /// `C = |p_b − p_a| − rest`: keeps the anchors `rest` apart.
    fn positional(&mut self, bodies: &mut [RigidBody], rest: f64, alpha: f64) {
        let (pa, pb) = self.anchors(bodies);
        let d = pb - pa;
        let len = d.norm();
        if len <= 1e-300 && rest == 0.0 {
            return;
        }
        let n = if len > 0.0 { d / len } else { Vector::<3>::z() };
        let c = len - rest;
        let wb = bodies[self.b].positional_weight(&(pb - bodies[self.b].x), &n);
        let wa = self.a.map_or(0.0, |a| {
            bodies[a].positional_weight(&(pa - bodies[a].x), &n)
        });
        let dl = (-c - alpha * self.lambda[0]) / (wa + wb + alpha);
        self.lambda[0] += dl;
        // ∇_b C = n: b moves by w_b n Δλ, a by −w_a n Δλ.
        let p = n * dl;
        let rb = pb - bodies[self.b].x;
        bodies[self.b].apply_positional(&p, &rb);
        if let Some(a) = self.a {
            let ra = pa - bodies[a].x;
            bodies[a].apply_positional(&(-p), &ra);
        }
    }

    /// Rotates b by the fraction of `theta` (a rotation vector, b → target) its inverse
    /// inertia takes, and a by the rest the other way.
    fn angular(
        &mut self,
        bodies: &mut [RigidBody],
        theta: &Vector<3>,
        slot: usize,
        alpha: f64,
        _unused: f64,
    ) {
        let angle = theta.norm();
        if angle <= 1e-300 {
            return;
        }
        let n = theta / angle;
        let wb = bodies[self.b].angular_weight(&n);
        let wa = self.a.map_or(0.0, |a| bodies[a].angular_weight(&n));
        // C = −angle along n (b must turn by +angle about n).
        let dl = (angle - alpha * self.lambda[slot]) / (wa + wb + alpha);
        self.lambda[slot] += dl;
        let p = n * dl;
        bodies[self.b].apply_angular(&p);
        if let Some(a) = self.a {
            bodies[a].apply_angular(&(-p));
        }
    }
}

/// An angle wrapped to (−π, π].
fn wrap(a: f64) -> f64 {
    let two_pi = std::f64::consts::TAU;
    let mut a = a % two_pi;
    if a > std::f64::consts::PI {
        a -= two_pi;
    } else if a <= -std::f64::consts::PI {
        a += two_pi;
    }
    a
}

/// A particle tied to a material point of a rigid body ([`super::RigidBodies::attach`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Attachment {
    pub body: usize,
    /// The point in the body frame.
    pub local: Vector<3>,
    pub particle: u32,
    pub compliance: f64,
    /// Accumulated multiplier of the substep.
    pub lambda: Vector<3>,
}

impl Attachment {
    /// `C = p_body − x_p = 0`, solved as a 3×3 block: `Δp = −(K + α̃ 𝟙)⁻¹ (C + α̃ λ)` with
    /// `K = 𝟙/m − [r]× I⁻¹ [r]× + w_p 𝟙`; the body gets `+Δp` at its point, the particle
    /// `−w_p Δp`.
    pub(crate) fn project(
        &mut self,
        bodies: &mut [RigidBody],
        x: &mut [Vector<3>],
        w: &[f64],
        h: f64,
    ) {
        let i = self.particle as usize;
        let body = &bodies[self.body];
        let p = body.pose().to_world(&self.local);
        let c = p - x[i];
        if c == Vector::<3>::zeros() {
            return;
        }
        let alpha = self.compliance / (h * h);
        let r = p - body.x;
        let rx = r.cross_matrix();
        let rot = body.rotation();
        let inv_i = rot * nalgebra::Matrix3::from_diagonal(&body.inv_inertia) * rot.transpose();
        let k = nalgebra::Matrix3::identity() * (body.inv_mass + w[i] + alpha) - rx * inv_i * rx;
        let Some(k_inv) = k.try_inverse() else {
            return;
        };
        let dp = -(k_inv * (c + self.lambda * alpha));
        self.lambda += dp;
        bodies[self.body].apply_positional(&dp, &r);
        x[i] -= dp * w[i];
    }
}
