//! A particle dropped on a plane never ends a step below it, for every solver, time step and
//! substep count, and for both contact-generation options.

use xpbd_core::contact::{ContactGeneration, ContactOptions};
use xpbd_core::prelude::*;

/// Jacobi only with ω = 1: a relaxed Jacobi update `x += ω Δx` leaves `(1 − ω)` of the last
/// iteration's correction unresolved (ω < 1) or overshoots and is pulled back below the surface
/// by the `λ ≥ 0` clamp at the next iteration (ω > 1), so an inequality cannot hold exactly
/// after a finite number of relaxed iterations (documented in `contact`).
fn solvers() -> [SolverKind; 4] {
    [
        SolverKind::GaussSeidel,
        SolverKind::Coloured,
        SolverKind::JACOBI,
        SolverKind::Jacobi {
            omega: 1.0,
            averaged: false,
        },
    ]
}

/// Drops a particle of radius r from 1 m (and, in 2D too, sideways) with an initial downward
/// speed, for 1.5 s, and returns the lowest `height − r` seen at the end of any step.
fn lowest_gap<const D: usize>(
    solver: SolverKind,
    dt: f64,
    substeps: usize,
    generation: ContactGeneration,
) -> f64 {
    let r = 0.05;
    let mut particles = Particles::<D>::new();
    let mut x0 = Vector::<D>::zeros();
    x0[D - 1] = 1.0;
    let p = particles.push(x0, 2.0);
    particles.v[p][D - 1] = -3.0;
    particles.v[p][0] = 0.7;
    let settings = SolverSettings {
        substeps,
        iterations: 2,
        solver,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(particles, settings).unwrap();
    let mut contacts = ColliderContacts::new(
        r,
        ContactOptions {
            generation,
            ..ContactOptions::default()
        },
    )
    .unwrap();
    let mut up = Vector::<D>::zeros();
    up[D - 1] = 1.0;
    contacts
        .add_collider(Collider::fixed(Shape::HalfSpace {
            normal: up,
            offset: 0.0,
        }))
        .unwrap();
    sim.add_constraints(contacts).unwrap();
    let mut lowest = f64::INFINITY;
    let steps = (1.5 / dt).ceil() as usize;
    for _ in 0..steps {
        sim.step(dt).unwrap();
        lowest = lowest.min(sim.particles().x[p][D - 1] - r);
    }
    // It must also have reached the plane (the test is not vacuous).
    assert!(
        sim.particles().x[p][D - 1] - r < 1e-6,
        "particle never landed: height {}",
        sim.particles().x[p][D - 1]
    );
    lowest
}

/// Tolerance 1e-12 m: the contact is the only constraint on the particle, so its last
/// projection puts it exactly on the surface (C = 0 up to rounding of x ≈ 0.05).
#[test]
fn dropped_particle_never_ends_below_the_plane_3d() {
    for solver in solvers() {
        for (dt, substeps) in [(1.0 / 30.0, 1), (1.0 / 60.0, 4), (1.0 / 60.0, 20), (0.1, 3)] {
            for generation in [ContactGeneration::PerSubstep, ContactGeneration::PerStep] {
                let gap = lowest_gap::<3>(solver, dt, substeps, generation);
                assert!(
                    gap >= -1e-12,
                    "{solver:?} dt {dt} substeps {substeps} {generation:?}: {gap}"
                );
            }
        }
    }
}

#[test]
fn dropped_particle_never_ends_below_the_plane_2d() {
    for solver in solvers() {
        for (dt, substeps) in [(1.0 / 30.0, 1), (1.0 / 60.0, 10)] {
            let gap = lowest_gap::<2>(solver, dt, substeps, ContactGeneration::PerSubstep);
            assert!(
                gap >= -1e-12,
                "{solver:?} dt {dt} substeps {substeps}: {gap}"
            );
        }
    }
}
