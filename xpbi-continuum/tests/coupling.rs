//! Coupling with the XPBD core in the same solver loop: XPBI sand on a core collider
//! with friction, and on an XPBD rope through the core's particle–particle contacts.

use nalgebra::Vector2;
use xpbd_core::constraint::DistanceConstraints;
use xpbd_core::contact::{
    Collider, ColliderContacts, ContactOptions, Friction, ParticleContacts, Pose, Shape,
};
use xpbd_core::{Particles, Simulation, SolverSettings};
use xpbi_continuum::contact::SpacingConstraints;
use xpbi_continuum::continuum::{XpbiContinuum, XpbiSettings};
use xpbi_continuum::material::Material;
use xpbi_continuum::scene::lattice_box;

const DX: f64 = 0.01;

fn settings() -> SolverSettings<2> {
    SolverSettings {
        substeps: 1,
        iterations: 10,
        threads: 1,
        ..SolverSettings::default()
    }
}

/// Sand dropped on the core's sphere collider (μ = 0.5) with a ground half-space: no particle
/// ends inside the sphere by more than 1e-3 m (contact tolerance of a 10-iteration solve with
/// ~3 m/s impacts), and the sphere splits the flow (particles on both sides, some resting on top).
#[test]
fn sand_on_core_sphere_collider() {
    let sand = lattice_box(Vector2::new(-0.04, 0.12), Vector2::new(0.04, 0.2), DX);
    let vol = DX * DX;
    let mut p = Particles::<2>::new();
    for x in &sand {
        p.push(*x, 1.0 / (1600.0 * vol));
    }
    let members: Vec<u32> = (0..sand.len() as u32).collect();
    let xpbi = XpbiContinuum::new(
        &p,
        members.clone(),
        vec![vol; sand.len()],
        Material::sand(),
        XpbiSettings::new(DX),
    )
    .unwrap();
    let spacing = SpacingConstraints::new(&p, members, DX);
    let mut colliders = ColliderContacts::new(0.5 * DX, ContactOptions::default()).unwrap();
    let friction = Friction::coulomb(0.5).unwrap();
    colliders
        .add_collider(
            Collider::fixed(Shape::Sphere { radius: 0.05 })
                .at(Pose::from_translation(Vector2::new(0.0, 0.05)))
                .with_friction(friction),
        )
        .unwrap();
    colliders
        .add_collider(
            Collider::fixed(Shape::HalfSpace {
                normal: Vector2::new(0.0, 1.0),
                offset: 0.0,
            })
            .with_friction(friction),
        )
        .unwrap();
    let mut sim = Simulation::new(p, settings()).unwrap();
    sim.add_constraints(colliders).unwrap();
    sim.add_constraints(spacing).unwrap();
    sim.add_constraints(xpbi).unwrap();
    while sim.time() < 0.35 {
        sim.step(1e-4).unwrap();
    }
    let x = &sim.particles().x;
    let centre = Vector2::new(0.0, 0.05);
    let deepest = x
        .iter()
        .map(|p| (p - centre).norm() - 0.05 - 0.5 * DX)
        .fold(f64::INFINITY, f64::min);
    let left = x.iter().filter(|p| p[0] < -0.05).count();
    let right = x.iter().filter(|p| p[0] > 0.05).count();
    let on_top = x.iter().filter(|p| p[1] > 0.1).count();
    println!("deepest {deepest:.2e} m, left {left}, right {right}, on top {on_top}");
    assert!(deepest > -1e-3, "penetration {deepest}");
    assert!(left > 5 && right > 5, "flow not split: {left} / {right}");
    assert!(x.iter().all(|p| p[1] > 0.0));
}

/// A pinned XPBD rope catches a sand block through the core's particle contacts: the sand stays
/// on the rope (never reaches the ground) and the rope sags far more than under its own weight.
#[test]
fn sand_on_xpbd_rope() {
    let sand = lattice_box(Vector2::new(-0.03, 0.12), Vector2::new(0.03, 0.16), DX);
    let vol = DX * DX;
    let mut p = Particles::<2>::new();
    for x in &sand {
        p.push(*x, 1.0 / (1600.0 * vol));
    }
    let n_sand = sand.len();
    let n_rope = 41;
    let rope: Vec<usize> = (0..n_rope)
        .map(|i| {
            let w = if i == 0 || i == n_rope - 1 {
                0.0
            } else {
                1.0 / 0.01
            };
            p.push(
                Vector2::new(-0.1 + 0.2 * i as f64 / (n_rope - 1) as f64, 0.1),
                w,
            )
        })
        .collect();
    let mut links = DistanceConstraints::new();
    for w in rope.windows(2) {
        links.add(&p, w[0], w[1], 1e-6).unwrap();
    }
    let members: Vec<u32> = (0..n_sand as u32).collect();
    let xpbi = XpbiContinuum::new(
        &p,
        members.clone(),
        vec![vol; n_sand],
        Material::sand(),
        XpbiSettings::new(DX),
    )
    .unwrap();
    let spacing = SpacingConstraints::new(&p, members, DX);
    // Contact distance 0.75Δx: sand–sand pairs are already kept at ≥ 0.75Δx by the position
    // correction, so only sand–rope pairs act; consecutive rope particles are excluded.
    let contacts = ParticleContacts::new(
        0.75 * DX,
        Friction::coulomb(0.5).unwrap(),
        0.0,
        ContactOptions::default(),
    )
    .unwrap()
    .exclude_pairs(rope.windows(2).map(|w| (w[0], w[1])));
    let mut sim = Simulation::new(p, settings()).unwrap();
    sim.add_constraints(links).unwrap();
    sim.add_constraints(contacts).unwrap();
    sim.add_constraints(spacing).unwrap();
    sim.add_constraints(xpbi).unwrap();
    while sim.time() < 0.3 {
        sim.step(1e-4).unwrap();
    }
    let x = &sim.particles().x;
    let rope_mid = x[rope[n_rope / 2]][1];
    let sand_low = x[..n_sand]
        .iter()
        .map(|p| p[1])
        .fold(f64::INFINITY, f64::min);
    println!("rope midpoint y {rope_mid:.4}, lowest sand y {sand_low:.4}");
    assert!(rope_mid < 0.1 - 0.005, "rope did not sag under the sand");
    assert!(sand_low > rope_mid - 0.02, "sand fell through the rope");
    assert!(sand_low > 0.02);
}
