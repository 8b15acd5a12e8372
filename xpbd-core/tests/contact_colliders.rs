//! Every collider shape holds a particle at rest at the analytic height, including a
//! signed-distance grid imported from an OBJ file; particle–particle contact stacks spheres.

use std::sync::Arc;

use xpbd_core::builders::TriangleSurface;
use xpbd_core::contact::{Friction, SdfGrid};
use xpbd_core::prelude::*;

const R: f64 = 0.02;

/// Drops a particle from z = 1.5 m at (x, y) onto `shape` (static, sticky) for 2 s; returns
/// its final position and speed.
fn rest_on(shape: Shape<3>, x: f64, y: f64) -> (Vector<3>, f64) {
    let mut particles = Particles::<3>::new();
    let p = particles.push(Vector::<3>::new(x, y, 1.5), 1.0);
    let mut sim = Simulation::new(particles, SolverSettings::default()).unwrap();
    let mut contacts = ColliderContacts::new(R, ContactOptions::default()).unwrap();
    contacts
        .add_collider(Collider::fixed(shape).with_friction(Friction::coulomb(0.8).unwrap()))
        .unwrap();
    sim.add_constraints(contacts).unwrap();
    for _ in 0..120 {
        sim.step(1.0 / 60.0).unwrap();
    }
    (sim.particles().x[p], sim.particles().v[p].norm())
}

/// Resting heights (derived): sphere and capsule tops at radius + r, box and cube tops at
/// half height + r. Analytic shapes are exact to rounding (1e-9 m). The SDF grid interpolates
/// φ multilinearly, which is exact where φ is linear over a cell (a point above the middle of a
/// face, at least one cell from any edge): same tolerance.
#[test]
fn particle_rests_on_every_shape_at_the_analytic_height() {
    let cube = TriangleSurface::unit_cube();
    let sdf = Arc::new(SdfGrid::from_mesh(&cube, 0.05, 0.2).unwrap());
    let cases: Vec<(Shape<3>, f64, f64, f64)> = vec![
        (Shape::Sphere { radius: 0.3 }, 0.0, 0.0, 0.3 + R),
        (
            Shape::Capsule {
                half_length: 0.4,
                radius: 0.1,
            },
            0.2,
            0.0,
            0.1 + R,
        ),
        (
            Shape::Box {
                half_extents: Vector::<3>::new(0.5, 0.4, 0.25),
            },
            0.1,
            -0.2,
            0.25 + R,
        ),
        (Shape::Sdf(sdf), 0.07, 0.12, 0.5 + R),
    ];
    for (shape, x, y, height) in cases {
        let name = format!("{shape:?}").chars().take(30).collect::<String>();
        let (pos, speed) = rest_on(shape, x, y);
        assert!(
            (pos.z - height).abs() < 1e-9,
            "{name}: rests at {} instead of {height}",
            pos.z
        );
        assert!(speed < 1e-9, "{name}: still moving at {speed}");
        assert!(
            (pos.x - x).abs() < 1e-9 && (pos.y - y).abs() < 1e-9,
            "{name}: slid"
        );
    }
}

/// Particle–particle contact in 2D: a column of 5 particles of radius 0.05 dropped onto the
/// ground stacks at heights r, 3r, 5r, … (centres 2r apart). Tolerance 1e-5 m: every substep
/// gravity closes each gap by g h² = 2.7e-5 m (h = 1/600 s) and Gauss–Seidel removes it from a
/// stack only linearly in the iterations; 20 iterations leave 3.4e-6 m (measured).
#[test]
fn particles_stack_at_twice_their_radius() {
    let r = 0.05;
    let mut particles = Particles::<2>::new();
    for k in 0..5 {
        particles.push(Vector::<2>::new(0.0, 0.2 + 0.15 * k as f64), 1.0);
    }
    let settings = SolverSettings {
        substeps: 10,
        iterations: 20,
        solver: SolverKind::GaussSeidel,
        gravity: Vector::<2>::new(0.0, -9.81),
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(particles, settings).unwrap();
    sim.add_constraints(
        ParticleContacts::new(2.0 * r, Friction::NONE, 0.0, ContactOptions::default()).unwrap(),
    )
    .unwrap();
    let mut ground = ColliderContacts::new(r, ContactOptions::default()).unwrap();
    ground
        .add_collider(Collider::fixed(Shape::HalfSpace {
            normal: Vector::<2>::new(0.0, 1.0),
            offset: 0.0,
        }))
        .unwrap();
    sim.add_constraints(ground).unwrap();
    for _ in 0..180 {
        sim.step(1.0 / 60.0).unwrap();
    }
    let mut heights: Vec<f64> = sim.particles().x.iter().map(|x| x.y).collect();
    heights.sort_by(f64::total_cmp);
    for (k, z) in heights.iter().enumerate() {
        let expected = r * (2 * k + 1) as f64;
        assert!(
            (z - expected).abs() < 1e-5,
            "particle {k}: {z} vs {expected}"
        );
    }
}
