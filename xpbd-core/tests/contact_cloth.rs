//! Cloth against a sphere (draping, no particle inside) and folded cloth with self-collision
//! (no particle pair, and no point–triangle pair, closer than the thickness).

use xpbd_core::builders::{Cloth, ClothGrid};
use xpbd_core::contact::{Friction, PointTriangleContacts};
use xpbd_core::prelude::*;

/// Particle radius against colliders (the documented thickness of the cloth against bodies).
const RADIUS: f64 = 0.01;

fn cloth(nx: usize, ny: usize, size: [f64; 2], origin: Vector<3>) -> Cloth<3> {
    ClothGrid::<3> {
        nx,
        ny,
        size,
        origin,
        total_mass: 0.3,
        stretch_compliance: 1e-8,
        shear_compliance: 1e-6,
        ..ClothGrid::default()
    }
    .build()
    .unwrap()
}

fn min_pair_distance(x: &[Vector<3>]) -> f64 {
    let mut best = f64::INFINITY;
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            best = best.min((x[i] - x[j]).norm());
        }
    }
    best
}

/// A 1 m cloth (25×25) dropped from 0.2 m above a sphere of radius 0.3 m, with friction and
/// particle self-collision, for 2.5 s.
/// * No particle centre is ever closer to the sphere centre than R + r: the collider block is
///   projected last in each Gauss–Seidel sweep and each particle touches the sphere through one
///   constraint, so it ends each step on or outside the surface; tolerance 1e-9 m (rounding).
/// * It drapes: the corners hang below z = −0.1 m (derived for an inextensible sheet resting on
///   the top: a corner is 0.707 m from the centre along the sheet, the arc from the top to the
///   equator is 0.3·π/2 = 0.47 m, so ≈ 0.24 m hangs below the equator), while the cloth rests on
///   the top (closest particle within 1e-6 m of the surface: in contact, not hovering).
/// * Self-collision holds: no two particles closer than the thickness, minus 2 %: the contact
///   block is followed by the sphere block in the sweep, whose corrections can reopen
///   particle pairs by a fraction of the per-substep motion.
#[test]
fn cloth_drapes_over_a_sphere_without_entering_it() {
    let n = 25;
    let c = cloth(n, n, [1.0, 1.0], Vector::<3>::new(-0.5, -0.5, 0.5));
    let radius_sphere = 0.3;
    let thickness = 0.02;
    let triangles = c.triangles.clone();
    let mut sim = Simulation::new(
        c.particles.clone(),
        SolverSettings {
            substeps: 15,
            iterations: 1,
            velocity_damping: 0.5,
            ..SolverSettings::default()
        },
    )
    .unwrap();
    sim.add_constraints(c.stretch.clone()).unwrap();
    let self_collision = ParticleContacts::new(
        thickness,
        Friction::coulomb(0.2).unwrap(),
        0.0,
        ContactOptions::default(),
    )
    .unwrap()
    .exclude_mesh_neighbours(&triangles);
    sim.add_constraints(self_collision).unwrap();
    let mut colliders = ColliderContacts::new(RADIUS, ContactOptions::default()).unwrap();
    colliders
        .add_collider(
            Collider::fixed(Shape::Sphere {
                radius: radius_sphere,
            })
            .with_friction(Friction::new(0.6, 0.5).unwrap()),
        )
        .unwrap();
    sim.add_constraints(colliders).unwrap();
    let mut worst_pair = f64::INFINITY;
    for step in 0..150 {
        sim.step(1.0 / 60.0).unwrap();
        let x = &sim.particles().x;
        let closest = x.iter().map(|p| p.norm()).fold(f64::INFINITY, f64::min);
        assert!(
            closest >= radius_sphere + RADIUS - 1e-9,
            "step {step}: a particle is inside the sphere: |x| = {closest}"
        );
        if step % 10 == 9 {
            worst_pair = worst_pair.min(min_pair_distance(x));
        }
    }
    let x = &sim.particles().x;
    let closest = x.iter().map(|p| p.norm()).fold(f64::INFINITY, f64::min);
    let lowest = x.iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
    eprintln!("closest {closest}, lowest z {lowest}, min pair {worst_pair}");
    assert!(
        closest - (radius_sphere + RADIUS) < 1e-6,
        "not resting on the sphere: {closest}"
    );
    assert!(lowest < -0.1, "did not drape: lowest z {lowest}");
    assert!(
        worst_pair >= 0.98 * thickness,
        "self-collision violated: {worst_pair}"
    );
}

/// Builds a 12×24 cloth with spacing `s` folded in two over the row `j = 12`: the lower half
/// lies flat at height `RADIUS` on the ground, the upper half is mirrored onto it at height
/// `RADIUS + s` (the crease links are vertical, so every rest length is kept), shifted by
/// `shift` in the plane, and thrown down at 1 m/s.
fn folded_cloth(s: f64, shift: [f64; 2]) -> (Particles<3>, DistanceConstraints, Vec<[usize; 3]>) {
    let (nx, ny) = (12, 24);
    let c = cloth(
        nx,
        ny,
        [s * (nx - 1) as f64, s * (ny - 1) as f64],
        Vector::<3>::new(0.0, 0.0, RADIUS),
    );
    let mut p = c.particles.clone();
    let half = ny / 2;
    for j in half..ny {
        for i in 0..nx {
            let k = c.index(i, j);
            let mirror = c.index(i, ny - 1 - j);
            let mut x = p.x[mirror];
            x.z = RADIUS + s;
            x.x += shift[0];
            x.y += shift[1];
            // Keep the crease links vertical: only the rows above the crease row shift.
            if j == half {
                x.x -= shift[0];
                x.y -= shift[1];
            }
            p.x[k] = x;
            p.x_prev[k] = x;
            p.v[k] = Vector::<3>::new(0.0, 0.0, -1.0);
        }
    }
    (p, c.stretch.clone(), c.triangles.clone())
}

fn ground() -> ColliderContacts<3> {
    let mut g = ColliderContacts::new(RADIUS, ContactOptions::default()).unwrap();
    g.add_collider(
        Collider::fixed(Shape::HalfSpace {
            normal: Vector::<3>::z(),
            offset: 0.0,
        })
        .with_friction(Friction::coulomb(0.4).unwrap()),
    )
    .unwrap();
    g
}

/// Folded cloth, particle–particle self-collision with thickness d = 0.02 m (< spacing
/// 0.04 m): the upper half lands on the lower one, aligned particle on particle. Every 5 steps
/// over 1 s, no pair is closer than d, minus 0.5 %: within a Gauss–Seidel sweep the ground
/// block follows the self-collision block and reopens a pair by part of a substep's motion
/// (1.3 % with 1 iteration, 0.1 % with 2, 0.02 % with the 4 used here — measured). Without
/// self-collision the halves merge (checked: the minimum pair distance then drops below d / 4),
/// so the test can fail.
#[test]
fn folded_cloth_keeps_particle_pairs_apart_by_the_thickness() {
    let d = 0.02;
    let run = |self_collision: bool| {
        let (p, stretch, triangles) = folded_cloth(0.04, [0.0, 0.0]);
        let mut sim = Simulation::new(
            p,
            SolverSettings {
                substeps: 10,
                iterations: 4,
                ..SolverSettings::default()
            },
        )
        .unwrap();
        sim.add_constraints(stretch).unwrap();
        if self_collision {
            let pp = ParticleContacts::new(
                d,
                Friction::coulomb(0.3).unwrap(),
                0.0,
                ContactOptions::default(),
            )
            .unwrap()
            .exclude_mesh_neighbours(&triangles);
            sim.add_constraints(pp).unwrap();
        }
        sim.add_constraints(ground()).unwrap();
        let mut worst = f64::INFINITY;
        for step in 0..60 {
            sim.step(1.0 / 60.0).unwrap();
            if step % 5 == 4 {
                worst = worst.min(min_pair_distance(&sim.particles().x));
            }
        }
        worst
    };
    let with = run(true);
    let without = run(false);
    eprintln!("min pair distance: with self-collision {with}, without {without}");
    assert!(with >= 0.995 * d, "pair closer than the thickness: {with}");
    assert!(
        without < 0.25 * d,
        "the scene does not test self-collision: {without}"
    );
}

/// Folded cloth with the upper half shifted by half a cell, so its particles would fall
/// between the lower half's particles (which particle–particle contact cannot stop when the
/// gap between particles exceeds the thickness): point–triangle contact keeps every particle
/// of the upper half at least d from every triangle of the lower half, minus 0.5 % (as above;
/// measured 0.03 % with 4 iterations, 0.6 % with 1). Without it the halves interpenetrate
/// (checked).
#[test]
fn folded_cloth_with_point_triangle_contact_keeps_layers_apart() {
    let d = 0.01;
    let s = 0.04;
    let run = |point_triangle: bool| {
        let (p, stretch, triangles) = folded_cloth(s, [0.5 * s, 0.5 * s]);
        let n = p.len();
        let mut sim = Simulation::new(
            p,
            SolverSettings {
                substeps: 10,
                iterations: 4,
                ..SolverSettings::default()
            },
        )
        .unwrap();
        sim.add_constraints(stretch).unwrap();
        if point_triangle {
            let pt = PointTriangleContacts::new(
                &triangles,
                d,
                Friction::coulomb(0.3).unwrap(),
                ContactOptions::default(),
            )
            .unwrap();
            sim.add_constraints(pt).unwrap();
        }
        sim.add_constraints(ground()).unwrap();
        for _ in 0..60 {
            sim.step(1.0 / 60.0).unwrap();
        }
        // Distance from every upper-half particle to every lower-half triangle (excluding the
        // crease rows, which are joined by vertical links).
        let x = &sim.particles().x;
        let lower: Vec<&[usize; 3]> = triangles
            .iter()
            .filter(|t| t.iter().all(|&i| i < n / 2 - 12))
            .collect();
        let mut worst = f64::INFINITY;
        for p in n / 2 + 12..n {
            for t in &lower {
                let q = closest_point(&x[p], &[x[t[0]], x[t[1]], x[t[2]]]);
                worst = worst.min((x[p] - q).norm());
            }
        }
        worst
    };
    let with = run(true);
    let without = run(false);
    eprintln!("min point-triangle distance: with {with}, without {without}");
    assert!(
        with >= 0.995 * d,
        "layers closer than the thickness: {with}"
    );
    assert!(
        without < 0.25 * d,
        "the scene does not test point-triangle contact: {without}"
    );
}

/// Closest point on a triangle by brute force over a fine barycentric lattice refined by
/// projection (independent of the implementation under test).
fn closest_point(p: &Vector<3>, t: &[Vector<3>; 3]) -> Vector<3> {
    let mut best = t[0];
    let mut best_d = f64::INFINITY;
    let m = 60;
    for i in 0..=m {
        for j in 0..=m - i {
            let (a, b) = (i as f64 / m as f64, j as f64 / m as f64);
            let q = t[0] * (1.0 - a - b) + t[1] * a + t[2] * b;
            let d = (p - q).norm();
            if d < best_d {
                best_d = d;
                best = q;
            }
        }
    }
    best
}

/// Determinism: the cloth-on-sphere scene with particle and point–triangle self-collision gives
/// bit-identical positions on 1 and 2 worker threads for every solver (contact lists are built
/// in fixed-size chunks concatenated in order; the per-contact friction budget is touched by
/// one task at a time).
#[test]
fn contact_scenes_are_bit_identical_for_any_thread_count() {
    let run = |threads: usize, solver: SolverKind| {
        let c = cloth(16, 16, [0.8, 0.8], Vector::<3>::new(-0.4, -0.4, 0.35));
        let mut sim = Simulation::new(
            c.particles.clone(),
            SolverSettings {
                threads,
                solver,
                ..SolverSettings::default()
            },
        )
        .unwrap();
        sim.add_constraints(c.stretch.clone()).unwrap();
        sim.add_constraints(
            ParticleContacts::new(
                0.03,
                Friction::coulomb(0.2).unwrap(),
                0.0,
                ContactOptions::default(),
            )
            .unwrap()
            .exclude_mesh_neighbours(&c.triangles),
        )
        .unwrap();
        sim.add_constraints(
            PointTriangleContacts::new(
                &c.triangles,
                0.01,
                Friction::coulomb(0.2).unwrap(),
                ContactOptions::default(),
            )
            .unwrap(),
        )
        .unwrap();
        let mut g = ColliderContacts::new(RADIUS, ContactOptions::default()).unwrap();
        g.add_collider(
            Collider::fixed(Shape::Sphere { radius: 0.3 })
                .with_friction(Friction::coulomb(0.5).unwrap()),
        )
        .unwrap();
        sim.add_constraints(g).unwrap();
        for _ in 0..40 {
            sim.step(1.0 / 60.0).unwrap();
        }
        sim.particles().x.clone()
    };
    for solver in [SolverKind::Coloured, SolverKind::JACOBI] {
        let a = run(1, solver);
        let b = run(2, solver);
        assert!(a == b, "{solver:?}: results differ between 1 and 2 threads");
    }
}
