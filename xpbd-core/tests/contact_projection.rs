//! The documented choice of projecting contacts in every iteration or once per substep
//! (`contact::ContactProjection`): the same computation at one iteration, non-penetration and
//! Coulomb friction preserved with several iterations, and a real difference in between.

use xpbd_core::builders::ClothGrid;
use xpbd_core::contact::{ContactProjection, Friction};
use xpbd_core::prelude::*;

const SOLVERS: [SolverKind; 3] = [
    SolverKind::GaussSeidel,
    SolverKind::Coloured,
    SolverKind::JACOBI,
];

fn options(projection: ContactProjection) -> ContactOptions {
    ContactOptions {
        projection,
        ..ContactOptions::default()
    }
}

/// A 12×12 cloth with self-collision falling on a sphere and a ground plane, with friction,
/// for 0.5 s; returns the final positions.
fn drape(projection: ContactProjection, solver: SolverKind, iterations: usize) -> Vec<Vector<3>> {
    let c = ClothGrid::<3> {
        nx: 12,
        ny: 12,
        size: [0.6, 0.6],
        origin: Vector::<3>::new(-0.3, -0.3, 0.35),
        total_mass: 0.2,
        stretch_compliance: 1e-7,
        shear_compliance: 1e-6,
        ..ClothGrid::default()
    }
    .build()
    .unwrap();
    let settings = SolverSettings {
        substeps: 8,
        iterations,
        solver,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(c.particles.clone(), settings).unwrap();
    sim.add_constraints(c.stretch.clone()).unwrap();
    let self_collision = ParticleContacts::new(
        0.02,
        Friction::coulomb(0.2).unwrap(),
        0.0,
        options(projection),
    )
    .unwrap()
    .exclude_mesh_neighbours(&c.triangles);
    sim.add_constraints(self_collision).unwrap();
    let mut colliders = ColliderContacts::new(0.01, options(projection)).unwrap();
    colliders
        .add_collider(
            Collider::fixed(Shape::Sphere { radius: 0.2 })
                .with_friction(Friction::new(0.5, 0.4).unwrap()),
        )
        .unwrap();
    colliders
        .add_collider(
            Collider::fixed(Shape::HalfSpace {
                normal: Vector::<3>::z(),
                offset: -0.25,
            })
            .with_friction(Friction::coulomb(0.3).unwrap()),
        )
        .unwrap();
    sim.add_constraints(colliders).unwrap();
    for _ in 0..30 {
        sim.step(1.0 / 60.0).unwrap();
    }
    sim.particles().x.clone()
}

/// With one iteration per substep both options run the same projections in the same order:
/// the trajectories are identical bit for bit, for every solver.
#[test]
fn one_iteration_makes_both_options_the_same_computation() {
    for solver in SOLVERS {
        let every = drape(ContactProjection::EveryIteration, solver, 1);
        let once = drape(ContactProjection::OncePerSubstep, solver, 1);
        assert_eq!(every, once, "{solver:?}");
    }
}

/// With four iterations the option changes the computation (contacts are skipped in
/// iterations 0–2), and in both modes the cloth ends outside the sphere (R + r) and above the
/// ground (−0.25 + r): contacts are projected after the material constraints in the last
/// iteration, and each particle touches a collider through one constraint, so the end state
/// is non-penetrating up to rounding (1e-9 m) for Gauss–Seidel and the coloured sweep. Jacobi
/// scales each correction by 1/(incidence count), leaving part of the per-substep motion
/// into the collider: with contacts in every iteration the four passes leave under 2 mm (a
/// tenth of the cloth's thickness); with one pass the bound is one substep's approach at the
/// fall speed reached, g·t·h = 9.81·0.5/480 ≈ 1 cm (documented on `ContactProjection`).
#[test]
fn several_iterations_differ_and_stay_outside_the_colliders() {
    for solver in SOLVERS {
        let every = drape(ContactProjection::EveryIteration, solver, 4);
        let once = drape(ContactProjection::OncePerSubstep, solver, 4);
        assert_ne!(every, once, "{solver:?}: the option had no effect");
        for (mode, x) in [("every", &every), ("once", &once)] {
            let tol = match (solver, mode) {
                (SolverKind::Jacobi { .. }, "every") => 2e-3,
                (SolverKind::Jacobi { .. }, _) => 9.81 * 0.5 / 480.0,
                _ => 1e-9,
            };
            for p in x {
                let sphere_gap = p.norm() - 0.21;
                let ground_gap = p.z + 0.25 - 0.01;
                assert!(
                    sphere_gap > -tol && ground_gap > -tol,
                    "{solver:?} {mode}: sphere gap {sphere_gap}, ground gap {ground_gap}"
                );
            }
        }
    }
}

/// A particle dropped on a plane with several iterations and contacts projected once per
/// substep never ends a step below the plane, for any solver and time step (tolerance 1e-9 m:
/// a single contact constraint is solved exactly in its one projection).
#[test]
fn once_per_substep_keeps_a_dropped_particle_above_the_plane() {
    for solver in SOLVERS {
        for dt in [1.0 / 240.0, 1.0 / 60.0, 1.0 / 15.0] {
            let mut particles = Particles::<3>::new();
            let p = particles.push(Vector::<3>::new(0.0, 0.0, 1.0), 1.0);
            let settings = SolverSettings {
                substeps: 2,
                iterations: 5,
                solver,
                ..SolverSettings::default()
            };
            let mut sim = Simulation::new(particles, settings).unwrap();
            let mut contacts =
                ColliderContacts::new(0.05, options(ContactProjection::OncePerSubstep)).unwrap();
            contacts
                .add_collider(Collider::fixed(Shape::HalfSpace {
                    normal: Vector::<3>::z(),
                    offset: 0.0,
                }))
                .unwrap();
            sim.add_constraints(contacts).unwrap();
            let mut lowest = f64::INFINITY;
            for _ in 0..(2.0 / dt) as usize {
                sim.step(dt).unwrap();
                lowest = lowest.min(sim.particles().x[p].z);
            }
            assert!(lowest >= 0.05 - 1e-9, "{solver:?} dt {dt}: lowest {lowest}");
            // It came to rest on the plane, not above it.
            assert!((sim.particles().x[p].z - 0.05).abs() < 1e-9);
        }
    }
}

/// Coulomb friction keeps its meaning when contacts are projected once per substep: a rigid
/// 4-particle cluster on a 40° incline (μ_s = 0.5, μ_k = 0.3) slides with acceleration
/// g (sin θ − μ_k cos θ) within 2 % (the tolerance), and on a 20° incline it stays at
/// rest (displacement under 1e-9 m), with 4 Gauss–Seidel iterations per substep.
#[test]
fn friction_on_an_incline_holds_with_one_contact_pass_per_substep() {
    let g = 9.81;
    let friction = Friction::new(0.5, 0.3).unwrap();
    for (theta_deg, expected) in [(40.0f64, true), (20.0, false)] {
        let theta = theta_deg.to_radians();
        let n = Vector::<3>::new(-theta.sin(), 0.0, theta.cos());
        let t = Vector::<3>::new(theta.cos(), 0.0, theta.sin());
        let r = 0.02;
        let mut particles = Particles::<3>::new();
        let mut rods = DistanceConstraints::new();
        let ids: Vec<usize> = [(0.0, 0.0), (0.1, 0.0), (0.0, 0.1), (0.1, 0.1)]
            .iter()
            .map(|&(a, b)| particles.push(n * r + t * a + Vector::<3>::y() * b, 4.0))
            .collect();
        for i in 0..4 {
            for j in i + 1..4 {
                rods.add(&particles, ids[i], ids[j], 0.0).unwrap();
            }
        }
        let settings = SolverSettings {
            substeps: 20,
            iterations: 4,
            solver: SolverKind::GaussSeidel,
            ..SolverSettings::default()
        };
        let mut sim = Simulation::new(particles, settings).unwrap();
        sim.add_constraints(rods).unwrap();
        let mut contacts =
            ColliderContacts::new(r, options(ContactProjection::OncePerSubstep)).unwrap();
        contacts
            .add_collider(
                Collider::fixed(Shape::HalfSpace {
                    normal: n,
                    offset: 0.0,
                })
                .with_friction(friction),
            )
            .unwrap();
        sim.add_constraints(contacts).unwrap();
        let com = |sim: &Simulation<3>| sim.particles().x.iter().sum::<Vector<3>>() / 4.0;
        let start = com(&sim);
        for _ in 0..60 {
            sim.step(1.0 / 60.0).unwrap();
        }
        let v = sim.particles().v.iter().sum::<Vector<3>>() / 4.0;
        let speed = -v.dot(&t);
        let moved = -(com(&sim) - start).dot(&t);
        if expected {
            let a = g * (theta.sin() - 0.3 * theta.cos());
            assert!(
                ((speed - a) / a).abs() < 0.02,
                "θ {theta_deg}°: a = {speed}, expected {a}"
            );
        } else {
            assert!(
                moved.abs() < 1e-9 && speed.abs() < 1e-8,
                "θ {theta_deg}°: moved {moved}"
            );
        }
    }
}
