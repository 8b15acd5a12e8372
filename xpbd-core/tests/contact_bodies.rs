//! Contact between bodies: momentum exchanged exactly, separation kept, own particles and
//! non-interacting bodies untouched, friction per pair, typed errors.

use xpbd_core::contact::{BodyContacts, ContactError, Friction};
use xpbd_core::prelude::*;

fn settings() -> SolverSettings<3> {
    SolverSettings {
        gravity: Vector::<3>::zeros(),
        substeps: 4,
        iterations: 2,
        ..SolverSettings::default()
    }
}

fn momentum(p: &Particles<3>) -> Vector<3> {
    p.v.iter()
        .zip(&p.inv_mass)
        .filter(|(_, w)| **w > 0.0)
        .map(|(v, w)| v / *w)
        .sum()
}

/// A light particle (0.1 kg) hits a heavy one (2 kg) head on: the XPBD pair correction is
/// mass-weighted, so the total momentum is that of the start to rounding and the heavy particle
/// takes the light one's momentum in proportion; the two stay r_p + r_q apart.
#[test]
fn a_collision_of_two_bodies_conserves_momentum_and_keeps_them_apart() {
    let mut particles = Particles::<3>::new();
    let light = particles.push(Vector::<3>::new(-0.2, 0.0, 0.0), 10.0);
    let heavy = particles.push(Vector::<3>::new(0.2, 0.01, 0.0), 0.5);
    particles.v[light] = Vector::<3>::new(3.0, 0.0, 0.0);
    particles.v[heavy] = Vector::<3>::new(-0.5, 0.0, 0.0);
    let before = momentum(&particles);
    let mut sim = Simulation::new(particles, settings()).unwrap();
    let mut contacts = BodyContacts::<3>::new(ContactOptions::default()).unwrap();
    let a = contacts.add_body([light], 0.03).unwrap();
    let b = contacts.add_body([heavy], 0.05).unwrap();
    contacts
        .interact(a, b, Friction::coulomb(0.4).unwrap())
        .unwrap();
    sim.add_constraints(contacts).unwrap();
    let mut closest = f64::INFINITY;
    for _ in 0..60 {
        sim.step(1.0 / 120.0).unwrap();
        let x = &sim.particles().x;
        closest = closest.min((x[light] - x[heavy]).norm());
    }
    let after = momentum(sim.particles());
    assert!(
        (after - before).norm() <= 1e-12 * before.norm(),
        "{before} → {after}"
    );
    // They met (the light particle was turned around) and never came closer than 0.08 m.
    assert!(
        sim.particles().v[light].x < 0.0,
        "{}",
        sim.particles().v[light]
    );
    assert!(closest >= 0.08 - 1e-9, "closest approach {closest}");
    assert!(closest < 0.085, "they did not touch: {closest}");
}

/// Particles of one body pass through each other (their own constraints hold them, never body
/// contact), and so do two bodies that do not interact.
#[test]
fn own_particles_and_non_interacting_bodies_pass_through() {
    for same_body in [true, false] {
        let mut particles = Particles::<3>::new();
        let p = particles.push(Vector::<3>::new(-0.1, 0.0, 0.0), 1.0);
        let q = particles.push(Vector::<3>::new(0.1, 0.0, 0.0), 1.0);
        let r = particles.push(Vector::<3>::new(5.0, 0.0, 0.0), 1.0);
        particles.v[p] = Vector::<3>::new(1.0, 0.0, 0.0);
        particles.v[q] = Vector::<3>::new(-1.0, 0.0, 0.0);
        let mut sim = Simulation::new(particles, settings()).unwrap();
        let mut contacts = BodyContacts::<3>::new(ContactOptions::default()).unwrap();
        if same_body {
            // p and q are one body; it interacts with a third, far away.
            let a = contacts.add_body([p, q], 0.05).unwrap();
            let b = contacts.add_body([r], 0.05).unwrap();
            contacts.interact(a, b, Friction::NONE).unwrap();
        } else {
            contacts.add_body([p], 0.05).unwrap();
            contacts.add_body([q], 0.05).unwrap();
        }
        sim.add_constraints(contacts).unwrap();
        for _ in 0..30 {
            sim.step(0.01).unwrap();
        }
        // Free flight: each moved 0.3 m, through the other.
        let x = &sim.particles().x;
        assert!((x[p].x - 0.2).abs() < 1e-12, "{}", x[p]);
        assert!((x[q].x + 0.2).abs() < 1e-12, "{}", x[q]);
    }
}

/// A particle sliding over a resting particle of another body is slowed by that pair's
/// friction and not by another pair's: μ = 0 keeps its tangential speed, μ = 1 stops it.
#[test]
fn friction_is_chosen_per_pair_of_bodies() {
    let slide = |mu: f64| {
        let mut particles = Particles::<3>::new();
        let floor = particles.push(Vector::<3>::new(0.0, 0.0, 0.0), 0.0);
        let puck = particles.push(Vector::<3>::new(0.0, 0.0, 1.0), 1.0);
        let other = particles.push(Vector::<3>::new(3.0, 0.0, 0.0), 0.0);
        particles.v[puck] = Vector::<3>::new(0.05, 0.0, 0.0);
        let mut sim = Simulation::new(
            particles,
            SolverSettings {
                gravity: Vector::<3>::new(0.0, 0.0, -9.81),
                ..settings()
            },
        )
        .unwrap();
        let mut contacts = BodyContacts::<3>::new(ContactOptions::default()).unwrap();
        let a = contacts.add_body([floor], 0.5).unwrap();
        let b = contacts.add_body([puck], 0.5).unwrap();
        let c = contacts.add_body([other], 0.5).unwrap();
        contacts
            .interact(a, b, Friction::coulomb(mu).unwrap())
            .unwrap();
        contacts
            .interact(b, c, Friction::coulomb(1.0).unwrap())
            .unwrap();
        sim.add_constraints(contacts).unwrap();
        for _ in 0..20 {
            sim.step(0.01).unwrap();
        }
        sim.particles().v[puck]
    };
    let free = slide(0.0);
    let stuck = slide(1.0);
    // On top of a sphere of radius 1 (the contact distance) a 0.05 m/s puck barely moves in
    // 0.2 s; without friction it keeps most of its speed, with μ = 1 it sticks.
    assert!(free.x > 0.04, "{free}");
    assert!(stuck.x.abs() < 1e-3, "{stuck}");
}

#[test]
fn bad_bodies_and_interactions_are_typed_errors() {
    let mut c = BodyContacts::<3>::new(ContactOptions::default()).unwrap();
    let a = c.add_body(0..3, 0.1).unwrap();
    assert!(matches!(
        c.add_body(2..5, 0.1),
        Err(ContactError::SharedParticle {
            particle: 2,
            first: 0,
            second: 1
        })
    ));
    let mut c = BodyContacts::<3>::new(ContactOptions::default()).unwrap();
    let a2 = c.add_body(0..3, 0.1).unwrap();
    assert_eq!(a, a2);
    let b = c.add_body(3..5, 0.1).unwrap();
    assert!(matches!(
        c.interact(a, a, Friction::NONE),
        Err(ContactError::SelfInteraction { body: 0 })
    ));
    assert!(matches!(
        c.interact(a, 7, Friction::NONE),
        Err(ContactError::UnknownBody { body: 7, len: 2 })
    ));
    let bad = Friction {
        static_coefficient: -1.0,
        kinetic_coefficient: -1.0,
    };
    assert!(matches!(
        c.interact(a, b, bad),
        Err(ContactError::InvalidFriction { .. })
    ));
    assert_eq!(c.friction_between(a, b), None);
    for r in [0.0, -1.0, f64::NAN] {
        assert!(c.add_body([9], r).is_err(), "radius {r}");
    }
}

/// Bodies that start inside each other are found, with the pair and both distances; bodies in
/// exact touch or that do not interact are not.
#[test]
fn overlapping_bodies_are_found_at_the_start() {
    let x: Vec<Vector<3>> = [0.0, 0.1, 0.3, 0.38]
        .iter()
        .map(|&s| Vector::<3>::new(s, 0.0, 0.0))
        .collect();
    let mut c = BodyContacts::<3>::new(ContactOptions::default()).unwrap();
    let a = c.add_body([0, 1], 0.05).unwrap();
    let b = c.add_body([2], 0.1).unwrap();
    let d = c.add_body([3], 0.05).unwrap();
    // 1–2 are 0.2 apart with r sum 0.15 (clear); 2–3 are 0.08 apart with sum 0.15.
    c.interact(a, b, Friction::NONE).unwrap();
    assert_eq!(c.first_overlap(&x), None);
    c.interact(b, d, Friction::NONE).unwrap();
    let o = c.first_overlap(&x).unwrap();
    assert_eq!(
        (o.particle, o.body, o.other_particle, o.other_body),
        (2, 1, 3, 2)
    );
    assert!((o.distance - 0.08).abs() < 1e-12 && (o.required - 0.15).abs() < 1e-15);
    // Exactly touching is not overlapping.
    let touching = vec![x[0], Vector::<3>::new(0.25, 0.0, 0.0)];
    let mut c = BodyContacts::<3>::new(ContactOptions::default()).unwrap();
    let a = c.add_body([0], 0.1).unwrap();
    let b = c.add_body([1], 0.15).unwrap();
    c.interact(a, b, Friction::NONE).unwrap();
    assert_eq!(c.first_overlap(&touching), None);
}
