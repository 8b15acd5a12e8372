//! Rigid bodies in the XPBD loop, each test against an analytic law or an invariant:
//! torque-free rotation (angular momentum, the intermediate-axis flip period from Jacobi's
//! elliptic functions), rolling and sliding on an incline, a hinge pendulum, a stack at rest,
//! momentum exchanged with particles, determinism across thread counts and rollback.

use nalgebra::Quaternion;
use xpbd_core::contact::{Collider, Friction, Shape};
use xpbd_core::rigid::{Joint, JointKind, RigidBodies, RigidBody, quaternion_from_degrees};
use xpbd_core::{Diagnostics, Particles, Simulation, SolverSettings, Vector};

const G: f64 = 9.81;

fn gravity() -> Vector<3> {
    Vector::<3>::new(0.0, 0.0, -G)
}

fn settings(g: Vector<3>, substeps: usize) -> SolverSettings<3> {
    SolverSettings {
        gravity: g,
        substeps,
        ..SolverSettings::default()
    }
}

fn ground(friction: f64) -> Collider<3> {
    Collider::fixed(Shape::HalfSpace {
        normal: Vector::<3>::z(),
        offset: 0.0,
    })
    .with_friction(Friction::coulomb(friction).unwrap())
}

/// A simulation holding only `rigid` (no particles); returns it with the set's index.
fn world(rigid: RigidBodies, substeps: usize) -> (Simulation<3>, usize) {
    let g = rigid.gravity();
    let mut sim = Simulation::new(Particles::<3>::new(), settings(g, substeps)).unwrap();
    let set = sim.add_set(Box::new(rigid)).unwrap();
    (sim, set)
}

fn rigid(sim: &Simulation<3>, set: usize) -> &RigidBodies {
    sim.set::<RigidBodies>(set).unwrap()
}

/// Complete elliptic integral of the first kind K(m), m = k², by the arithmetic–geometric
/// mean: K = π / (2 AGM(1, √(1 − m))).
fn elliptic_k(m: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - m).sqrt());
    for _ in 0..60 {
        let (an, bn) = (0.5 * (a + b), (a * b).sqrt());
        a = an;
        b = bn;
    }
    std::f64::consts::PI / (2.0 * a)
}

/// Time between successive sign changes of the intermediate-axis component of ω for a free
/// body with principal moments `i` (i[1] the intermediate one), energy `e` and angular
/// momentum `m2 = |L|²` (Landau & Lifshitz, Mechanics §37: ω₂ ∝ sn(τ), which changes sign
/// every 2K(k) in τ).
fn flip_interval(i: [f64; 3], e: f64, m2: f64) -> f64 {
    let i2 = i[1];
    // (I_a, I_b): the smallest and largest moment, swapped when M² < 2 E I₂.
    let (lo, hi) = (i[0].min(i[2]), i[0].max(i[2]));
    let (ia, ib) = if m2 > 2.0 * e * i2 {
        (lo, hi)
    } else {
        (hi, lo)
    };
    let rate = ((ib - i2) * (m2 - 2.0 * e * ia) / (ia * i2 * ib)).sqrt();
    let k2 = (i2 - ia) * (2.0 * e * ib - m2) / ((ib - i2) * (m2 - 2.0 * e * ia));
    2.0 * elliptic_k(k2) / rate
}

/// A box spun about its intermediate axis keeps its angular momentum to 1e-6 and its energy
/// to 1e-4 over 30 s, and flips at the period of the analytic solution (within 5 %).
#[test]
fn torque_free_box_conserves_momentum_and_flips_at_the_analytic_period() {
    let h = Vector::<3>::new(0.1, 0.2, 0.3);
    let body = RigidBody::solid(Shape::Box { half_extents: h }, 500.0)
        .unwrap()
        .moving(Vector::<3>::zeros(), Vector::<3>::new(0.02, 4.0, 0.02))
        .unwrap();
    let inertia = body.inv_inertia.map(|w| 1.0 / w);
    // x largest, y intermediate, z smallest.
    assert!(inertia.x > inertia.y && inertia.y > inertia.z);
    let mut set = RigidBodies::new(Vector::<3>::zeros());
    set.add_body(body).unwrap();
    let (mut sim, id) = world(set, 20);
    let b0 = rigid(&sim, id).body(0).clone();
    let l0 = b0.angular_momentum();
    let e0 = b0.kinetic_energy();
    let expected = flip_interval([inertia.x, inertia.y, inertia.z], e0, l0.norm_squared());
    let dt = 1.0 / 60.0;
    let mut crossings = Vec::new();
    let mut last = 1.0;
    let mut worst: f64 = 0.0;
    let mut energy: f64 = 0.0;
    for step in 0..1800 {
        sim.step(dt).unwrap();
        let b = rigid(&sim, id).body(0);
        worst = worst.max((b.angular_momentum() - l0).norm() / l0.norm());
        energy = energy.max((b.kinetic_energy() - e0).abs() / e0);
        let wy = b.rotation().tr_mul(&b.omega).y;
        if wy * last < 0.0 {
            crossings.push((step + 1) as f64 * dt);
        }
        last = wy;
    }
    assert!(worst < 1e-6, "angular momentum drifted by {worst:.3e}");
    assert!(energy < 1e-4, "kinetic energy drifted by {energy:.3e}");
    assert!(
        crossings.len() >= 3,
        "only {} flips in 30 s",
        crossings.len()
    );
    let measured = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
    let err = (measured - expected).abs() / expected;
    assert!(
        err < 0.05,
        "flip interval {measured:.4} s vs analytic {expected:.4} s ({:.2} %)",
        100.0 * err
    );
}

/// A tilted plane through the origin: outward normal `(−sin θ, 0, cos θ)`.
fn incline(theta: f64, friction: f64) -> Collider<3> {
    Collider::fixed(Shape::HalfSpace {
        normal: Vector::<3>::new(-theta.sin(), 0.0, theta.cos()),
        offset: 0.0,
    })
    .with_friction(Friction::coulomb(friction).unwrap())
}

/// Downhill unit vector of [`incline`].
fn downhill(theta: f64) -> Vector<3> {
    -Vector::<3>::new(theta.cos(), 0.0, theta.sin())
}

/// Speed gained along the slope after `seconds` by `body` resting on an incline of `theta`.
fn slope_speed(body: RigidBody, theta: f64, mu: f64, seconds: f64) -> (f64, f64) {
    let mut set = RigidBodies::new(gravity());
    set.add_collider(incline(theta, mu)).unwrap();
    let start = body.x;
    set.add_body(body).unwrap();
    let (mut sim, id) = world(set, 40);
    let dt = 1.0 / 100.0;
    let steps = (seconds / dt).round() as usize;
    for _ in 0..steps {
        sim.step(dt).unwrap();
    }
    let b = rigid(&sim, id).body(0);
    (
        b.v.dot(&downhill(theta)),
        (b.x - start).dot(&downhill(theta)),
    )
}

/// A ball rolling without slipping accelerates at (5/7) g sin θ.
#[test]
fn ball_rolls_down_an_incline_at_five_sevenths_g_sin_theta() {
    let theta = 20f64.to_radians();
    let n = Vector::<3>::new(-theta.sin(), 0.0, theta.cos());
    let r = 0.1;
    let ball = RigidBody::solid(Shape::Sphere { radius: r }, 1000.0)
        .unwrap()
        .with_contact(Friction::coulomb(0.5).unwrap(), 0.0)
        .unwrap()
        .at(n * r, Quaternion::identity())
        .unwrap();
    let t = 1.0;
    let (v, _) = slope_speed(ball, theta, 0.5, t);
    let expected = 5.0 / 7.0 * G * theta.sin() * t;
    let err = (v - expected).abs() / expected;
    assert!(
        err < 0.02,
        "rolling speed {v:.4} vs {expected:.4} m/s ({:.2} %)",
        100.0 * err
    );
}

/// A box slides at g (sin θ − μ cos θ) for μ < tan θ and sticks for μ > tan θ.
#[test]
fn box_slides_with_coulomb_friction_or_sticks() {
    let theta = 30f64.to_radians();
    let n = Vector::<3>::new(-theta.sin(), 0.0, theta.cos());
    let h = 0.1;
    let make = |mu: f64| {
        RigidBody::solid(
            Shape::Box {
                half_extents: Vector::<3>::repeat(h),
            },
            800.0,
        )
        .unwrap()
        .with_contact(Friction::coulomb(mu).unwrap(), 0.0)
        .unwrap()
        .at(n * h, quaternion_from_degrees([0.0, -30.0, 0.0]))
        .unwrap()
    };
    let t = 1.0;
    let mu = 0.3;
    let (v, _) = slope_speed(make(mu), theta, mu, t);
    let expected = G * (theta.sin() - mu * theta.cos()) * t;
    let err = (v - expected).abs() / expected;
    assert!(
        err < 0.02,
        "sliding speed {v:.4} vs {expected:.4} m/s ({:.2} %)",
        100.0 * err
    );
    let mu = 0.7;
    let (v, d) = slope_speed(make(mu), theta, mu, t);
    assert!(
        v.abs() < 1e-3 && d.abs() < 1e-3,
        "stuck box moved {d:.2e} m at {v:.2e} m/s"
    );
}

/// A ball on a rigid rod hinged to the world swings with the small-angle period of the
/// compound pendulum, 2π √(I_pivot / (m g L)).
#[test]
fn hinge_pendulum_has_the_small_angle_period() {
    let (r, l) = (0.05, 1.0);
    let ball = RigidBody::solid(Shape::Sphere { radius: r }, 1000.0).unwrap();
    let m = ball.mass();
    let omega0 = 0.05;
    let ball = ball
        .at(Vector::<3>::new(0.0, 0.0, -l), Quaternion::identity())
        .unwrap()
        // Rotation about y at ω₀: the centre moves at ω₀ × r.
        .moving(
            Vector::<3>::new(0.0, omega0, 0.0).cross(&Vector::<3>::new(0.0, 0.0, -l)),
            Vector::<3>::new(0.0, omega0, 0.0),
        )
        .unwrap();
    let mut set = RigidBodies::new(gravity());
    let b = set.add_body(ball).unwrap();
    let axis = Vector::<3>::y();
    set.add_joint(Joint::new(
        JointKind::Hinge {
            axis_a: axis,
            axis_b: axis,
            limits: None,
            motor: None,
        },
        None,
        b,
        Vector::<3>::zeros(),
        Vector::<3>::new(0.0, 0.0, l),
    ))
    .unwrap();
    let (mut sim, id) = world(set, 20);
    let i_pivot = 0.4 * m * r * r + m * l * l;
    let expected = std::f64::consts::TAU * (i_pivot / (m * G * l)).sqrt();
    let dt = 1.0 / 200.0;
    let mut crossings = Vec::new();
    let mut last = omega0;
    for step in 0..1200 {
        sim.step(dt).unwrap();
        let w = rigid(&sim, id).body(0).omega.y;
        if w * last < 0.0 {
            // Linear interpolation of the crossing time.
            let s = last / (last - w);
            crossings.push((step as f64 + s) * dt);
        }
        last = w;
    }
    assert!(crossings.len() >= 4);
    let measured =
        2.0 * (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
    let err = (measured - expected).abs() / expected;
    assert!(
        err < 0.01,
        "period {measured:.4} vs {expected:.4} s ({:.2} %)",
        100.0 * err
    );
    // The hinge holds: the ball stays on its circle and in the swing plane.
    let bx = rigid(&sim, id).body(0).x;
    assert!((bx.norm() - l).abs() < 1e-3 && bx.y.abs() < 1e-6, "{bx:?}");
}

/// Five boxes stacked on the ground stay stacked: the top keeps its height within 1 % for 10 s.
#[test]
fn stack_of_five_boxes_stays_at_rest() {
    let h = 0.1;
    let mut set = RigidBodies::new(gravity());
    set.add_collider(ground(0.6)).unwrap();
    for k in 0..5 {
        let b = RigidBody::solid(
            Shape::Box {
                half_extents: Vector::<3>::repeat(h),
            },
            600.0,
        )
        .unwrap()
        .with_contact(Friction::coulomb(0.6).unwrap(), 0.0)
        .unwrap()
        .at(
            Vector::<3>::new(0.0, 0.0, h + 2.0 * h * k as f64),
            Quaternion::identity(),
        )
        .unwrap();
        set.add_body(b).unwrap();
    }
    let (mut sim, id) = world(set, 20);
    let top0 = 9.0 * h;
    for _ in 0..600 {
        sim.step(1.0 / 60.0).unwrap();
    }
    let r = rigid(&sim, id);
    let top = r.body(4).x;
    assert!(
        (top.z - top0).abs() < 0.01 * top0,
        "top box at {:.4} m (start {top0})",
        top.z
    );
    assert!(
        top.x.abs() < 1e-3 && top.y.abs() < 1e-3,
        "stack drifted: {top:?}"
    );
}

/// A scene of free particles hit by a ball, no gravity: total momentum (particles + ball)
/// is conserved by the two-way contact.
fn particles_and_ball(threads: usize) -> (Simulation<3>, usize) {
    let mut p = Particles::<3>::new();
    let mut members = Vec::new();
    let d = 0.02;
    for i in 0..6 {
        for j in 0..6 {
            for k in 0..6 {
                let x = Vector::<3>::new(
                    0.3 + d * i as f64,
                    d * (j as f64 - 2.5),
                    d * (k as f64 - 2.5),
                );
                members.push(p.len() as u32);
                p.push(x, 1.0 / 0.01);
            }
        }
    }
    let mut set = RigidBodies::new(Vector::<3>::zeros());
    let ball = RigidBody::solid(Shape::Sphere { radius: 0.1 }, 500.0)
        .unwrap()
        .with_contact(Friction::coulomb(0.4).unwrap(), 0.2)
        .unwrap()
        .moving(
            Vector::<3>::new(2.0, 0.1, 0.05),
            Vector::<3>::new(0.0, 0.0, 3.0),
        )
        .unwrap();
    set.add_body(ball).unwrap();
    let radii = vec![0.005; members.len()];
    set.couple_particles(members, radii).unwrap();
    let s = SolverSettings {
        gravity: Vector::<3>::zeros(),
        substeps: 10,
        threads,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(p, s).unwrap();
    let id = sim.add_set(Box::new(set)).unwrap();
    (sim, id)
}

fn total_momentum(sim: &Simulation<3>, id: usize) -> Vector<3> {
    let p = sim.particles();
    let particles: Vector<3> = p.v.iter().zip(&p.inv_mass).map(|(v, w)| v / *w).sum();
    particles + rigid(sim, id).momentum()
}

#[test]
fn ball_and_particles_exchange_momentum_and_conserve_it() {
    let (mut sim, id) = particles_and_ball(1);
    let m0 = total_momentum(&sim, id);
    for _ in 0..30 {
        sim.step(1.0 / 60.0).unwrap();
    }
    let m1 = total_momentum(&sim, id);
    assert!((m1 - m0).norm() < 1e-9 * m0.norm(), "{m0:?} → {m1:?}");
    // The ball pushed the particles and slowed down.
    let ball = rigid(&sim, id).body(0);
    assert!(ball.v.x < 1.9, "ball still at {:?}", ball.v);
    let moved = sim.particles().v.iter().filter(|v| v.norm() > 0.1).count();
    assert!(moved > 10, "only {moved} particles were pushed");
}

#[test]
fn rigid_scenes_are_bit_identical_for_any_thread_count() {
    let run = |threads| {
        let (mut sim, id) = particles_and_ball(threads);
        for _ in 0..20 {
            sim.step(1.0 / 60.0).unwrap();
        }
        let x: Vec<[u64; 3]> = sim
            .particles()
            .x
            .iter()
            .map(|x| [x.x.to_bits(), x.y.to_bits(), x.z.to_bits()])
            .collect();
        let b: Vec<u64> = rigid(&sim, id)
            .body(0)
            .state()
            .iter()
            .map(|v| v.to_bits())
            .collect();
        (x, b)
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(8));
}

#[test]
fn a_failed_step_rolls_the_bodies_back() {
    let (mut sim, id) = particles_and_ball(1);
    sim.step(1.0 / 60.0).unwrap();
    let mut s = sim.settings().clone();
    // Particles hit by the ball exceed this speed: the step fails and is undone.
    s.diagnostics = Diagnostics {
        max_speed: 0.5,
        ..s.diagnostics
    };
    sim.set_settings(s).unwrap();
    let mut failed = false;
    for _ in 0..30 {
        let before = rigid(&sim, id).body(0).state();
        let x_before = sim.particles().x.clone();
        if sim.step(1.0 / 60.0).is_err() {
            failed = true;
            assert_eq!(rigid(&sim, id).body(0).state(), before, "ball not restored");
            assert_eq!(sim.particles().x, x_before, "particles not restored");
            break;
        }
    }
    assert!(failed, "no step failed");
}

/// A chain of particles (distance constraints) tied to a box moving at 1 m/s, no gravity: the
/// box drags the chain along and the total momentum of box and chain is conserved.
#[test]
fn a_box_drags_the_rope_tied_to_it_and_momentum_is_conserved() {
    use xpbd_core::constraint::DistanceConstraints;
    let mut p = Particles::<3>::new();
    let links = 10;
    for k in 0..=links {
        p.push(
            Vector::<3>::new(-0.1 - 0.05 * k as f64, 0.0, 0.0),
            1.0 / 0.02,
        );
    }
    let mut d = DistanceConstraints::new();
    for k in 0..links {
        d.add(&p, k, k + 1, 0.0).unwrap();
    }
    let mut set = RigidBodies::new(Vector::<3>::zeros());
    let crate_ = RigidBody::solid(
        Shape::Box {
            half_extents: Vector::<3>::repeat(0.1),
        },
        300.0,
    )
    .unwrap()
    .moving(Vector::<3>::new(1.0, 0.0, 0.0), Vector::<3>::zeros())
    .unwrap();
    let b = set.add_body(crate_).unwrap();
    // The rope's first particle is tied to the middle of the box's −x face.
    set.attach(b, Vector::<3>::new(-0.1, 0.0, 0.0), 0, 0.0)
        .unwrap();
    let s = SolverSettings {
        gravity: Vector::<3>::zeros(),
        substeps: 20,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(p, s).unwrap();
    sim.add_constraints(d).unwrap();
    let id = sim.add_set(Box::new(set)).unwrap();
    let m0 = total_momentum(&sim, id);
    for _ in 0..60 {
        sim.step(1.0 / 60.0).unwrap();
    }
    let m1 = total_momentum(&sim, id);
    assert!((m1 - m0).norm() < 1e-9 * m0.norm(), "{m0:?} → {m1:?}");
    let rope_v: f64 = sim.particles().v.iter().map(|v| v.x).sum::<f64>() / (links + 1) as f64;
    let box_v = rigid(&sim, id).body(0).v.x;
    // Dragged along: the taut rope moves with the box, which slowed down to share its momentum.
    assert!(
        (rope_v - box_v).abs() < 0.02 && box_v < 0.99,
        "rope {rope_v}, box {box_v}"
    );
    let tie = rigid(&sim, id)
        .body(0)
        .pose()
        .to_world(&Vector::<3>::new(-0.1, 0.0, 0.0));
    assert!((tie - sim.particles().x[0]).norm() < 1e-6, "the knot holds");
}

/// A cloth-like sheet of particles thrown at a free box in free space pushes it along: they
/// exchange momentum both ways and conserve it, and no particle ends inside the box.
#[test]
fn a_falling_sheet_pushes_a_free_box() {
    use xpbd_core::constraint::DistanceConstraints;
    let mut p = Particles::<3>::new();
    let n = 12;
    let d = 0.03;
    for i in 0..n {
        for j in 0..n {
            // Off-centre over the box and moving down and sideways.
            p.push(
                Vector::<3>::new(0.05 + d * i as f64 - 0.15, d * j as f64 - 0.15, 0.15),
                1.0 / 0.01,
            );
        }
    }
    let mut c = DistanceConstraints::new();
    for i in 0..n {
        for j in 0..n {
            let k = i * n + j;
            if i + 1 < n {
                c.add(&p, k, k + n, 1e-6).unwrap();
            }
            if j + 1 < n {
                c.add(&p, k, k + 1, 1e-6).unwrap();
            }
        }
    }
    for v in &mut p.v {
        *v = Vector::<3>::new(0.5, 0.0, -2.0);
    }
    let mut set = RigidBodies::new(Vector::<3>::zeros());
    let b = RigidBody::solid(
        Shape::Box {
            half_extents: Vector::<3>::repeat(0.08),
        },
        200.0,
    )
    .unwrap()
    .with_contact(Friction::coulomb(0.5).unwrap(), 0.0)
    .unwrap();
    set.add_body(b).unwrap();
    let members: Vec<u32> = (0..(n * n) as u32).collect();
    let radii = vec![0.005; members.len()];
    set.couple_particles(members, radii).unwrap();
    let s = SolverSettings {
        gravity: Vector::<3>::zeros(),
        substeps: 20,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(p, s).unwrap();
    sim.add_constraints(c).unwrap();
    let id = sim.add_set(Box::new(set)).unwrap();
    let m0 = total_momentum(&sim, id);
    for _ in 0..30 {
        sim.step(1.0 / 60.0).unwrap();
    }
    let m1 = total_momentum(&sim, id);
    assert!((m1 - m0).norm() < 1e-9 * m0.norm(), "{m0:?} → {m1:?}");
    let v = rigid(&sim, id).body(0).v;
    assert!(
        v.z < -0.1 && v.x > 0.01,
        "the box was pushed down and along: {v:?}"
    );
    // No particle passed into the box.
    let body = rigid(&sim, id).body(0);
    for x in &sim.particles().x {
        assert!(
            body.shape.signed_distance(&body.pose(), x).0 > 0.0,
            "{x:?} inside"
        );
    }
}
