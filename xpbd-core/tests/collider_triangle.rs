//! Collider contact against cloth triangles: a kinematic collider smaller than the cloth's
//! edges, driven through a cloth pinned at its corners and aimed between vertices, pushes the
//! cloth instead of slipping between the vertices (sphere, box corner first, capsule, at
//! several m/s); without the triangle contact it slips through. A large sphere under a draped
//! cloth never activates the triangle contact, so such scenes step bit for bit as before.

use xpbd_core::builders::ClothGrid;
use xpbd_core::constraint::ConstraintSet;
use xpbd_core::contact::{ColliderTriangleContacts, Friction, closest_point_on_triangle};
use xpbd_core::prelude::*;

/// Edge length of the cloth (m): 11 × 11 particles over 1 m.
const EDGE: f64 = 0.1;
/// Particle contact radius (m).
const R_PARTICLE: f64 = 0.005;
/// Start height of the collider's centre above the cloth (m).
const START: f64 = 0.2;
const DT: f64 = 1.0 / 60.0;
/// How far the collider travels (m): it ends 0.25 m below the cloth's plane.
const TRAVEL: f64 = 0.45;

/// The end of a run: the cloth's positions and triangles, and the collider's final pose.
struct Run {
    x: Vec<Vector<3>>,
    triangles: Vec<[usize; 3]>,
    pose: Pose<3>,
    /// Collider-triangle contacts seen over the run (0 without the block).
    contacts: usize,
}

/// The centroid (x, y) of a triangle in the middle of the cloth: as far from its vertices
/// (≥ 0.047 m) as a point of the cloth gets, farther than any collider here reaches with the
/// particle radius.
fn aim(triangles: &[[usize; 3]], x: &[Vector<3>]) -> Vector<3> {
    let t = triangles[triangles.len() / 2 + 11];
    (x[t[0]] + x[t[1]] + x[t[2]]) / 3.0
}

/// A cloth pinned at its corners in the plane z = 0 (no gravity) and a kinematic collider of
/// `shape`, rotated by `rotation`, starting `START` above the centroid of a middle triangle
/// and moving down at `speed` over `TRAVEL`; with or without the triangle contact.
fn run(shape: Shape<3>, rotation: Matrix<3>, speed: f64, triangle_contact: bool) -> Run {
    let cloth = ClothGrid::<3> {
        nx: 11,
        ny: 11,
        size: [1.0, 1.0],
        origin: Vector::<3>::new(-0.5, -0.5, 0.0),
        total_mass: 0.5,
        stretch_compliance: 1e-4,
        shear_compliance: 1e-4,
        pinned: vec![(0, 0), (10, 0), (0, 10), (10, 10)],
        ..ClothGrid::default()
    }
    .build()
    .unwrap();
    let settings = SolverSettings {
        substeps: 10,
        gravity: Vector::<3>::zeros(),
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(cloth.particles.clone(), settings).unwrap();
    sim.add_constraints(cloth.stretch.clone()).unwrap();
    let mut contacts = ColliderContacts::new(R_PARTICLE, ContactOptions::default()).unwrap();
    let centre = aim(&cloth.triangles, &cloth.particles.x) + Vector::<3>::new(0.0, 0.0, START);
    let collider = Collider::fixed(shape)
        .at(Pose {
            translation: centre,
            rotation,
        })
        .moving_at(Vector::<3>::new(0.0, 0.0, -speed))
        .with_friction(Friction::coulomb(0.3).unwrap());
    contacts.add_collider(collider).unwrap();
    let triangles = ColliderTriangleContacts::new(&mut contacts, &cloth.triangles);
    let colliders = sim.add_constraints(contacts).unwrap();
    let block = triangle_contact.then(|| sim.add_constraints(triangles).unwrap());
    let mut seen = 0;
    for _ in 0..(TRAVEL / (speed * DT)).round() as usize {
        sim.step(DT).unwrap();
        seen += block.map_or(0, |h| sim.block(h).kind.len());
    }
    Run {
        x: sim.particles().x.clone(),
        triangles: cloth.triangles.clone(),
        pose: sim.block(colliders).kind.colliders()[0].pose,
        contacts: seen,
    }
}

/// The heights at which the vertical line through `p` crosses the cloth.
fn crossings_below(run: &Run, p: &Vector<3>) -> Vec<f64> {
    let mut out = Vec::new();
    for t in &run.triangles {
        let [a, b, c] = t.map(|i| run.x[i]);
        // Barycentric coordinates of (p.x, p.y) in the triangle's projection on z = 0.
        let det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
        if det.abs() < 1e-15 {
            continue;
        }
        let u = ((p.x - a.x) * (c.y - a.y) - (c.x - a.x) * (p.y - a.y)) / det;
        let v = ((b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)) / det;
        if u >= 0.0 && v >= 0.0 && u + v <= 1.0 {
            out.push(a.z + u * (b.z - a.z) + v * (c.z - a.z));
        }
    }
    out
}

/// The smallest distance from the segment `p0 p1` to the cloth's triangles, sampled along the
/// segment (101 points; a sphere is the segment of one point).
fn distance_to_cloth(run: &Run, p0: &Vector<3>, p1: &Vector<3>) -> f64 {
    let mut best = f64::INFINITY;
    for t in &run.triangles {
        let tri = t.map(|i| run.x[i]);
        for k in 0..=100 {
            let p = p0 + (p1 - p0) * (k as f64 / 100.0);
            best = best.min((p - closest_point_on_triangle(&p, &tri)).norm());
        }
    }
    best
}

/// Whether the segment `p0 p1` crosses a triangle of the cloth (Möller–Trumbore) more than
/// 1 µm from its ends (a corner resting on the cloth touches it without crossing).
fn segment_crosses_cloth(run: &Run, p0: &Vector<3>, p1: &Vector<3>) -> bool {
    let d = p1 - p0;
    run.triangles.iter().any(|t| {
        let [a, b, c] = t.map(|i| run.x[i]);
        let (e1, e2) = (b - a, c - a);
        let p = d.cross(&e2);
        let det = e1.dot(&p);
        if det.abs() < 1e-15 {
            return false;
        }
        let s = p0 - a;
        let u = s.dot(&p) / det;
        let q = s.cross(&e1);
        let v = d.dot(&q) / det;
        let t = e2.dot(&q) / det;
        let inside = 1e-6 / d.norm();
        u >= 0.0 && v >= 0.0 && u + v <= 1.0 && t > inside && t < 1.0 - inside
    })
}

/// The collider's lowest point is above every crossing of the cloth under its centre, and
/// those crossings are pushed well below the cloth's plane (the cloth was carried down).
fn assert_pushed(run: &Run, lowest: f64, what: &str) {
    let c = run.pose.translation;
    let below = crossings_below(run, &c);
    assert!(!below.is_empty(), "{what}: no cloth under the collider");
    for z in &below {
        assert!(
            *z <= lowest + 1e-3,
            "{what}: the cloth at {z} m is above the collider's lowest point {lowest} m"
        );
    }
    assert!(
        below.iter().all(|&z| z < -0.2),
        "{what}: the cloth under the collider is at {below:?}, not carried down"
    );
}

fn tilt_corner_down() -> Matrix<3> {
    let d = Vector::<3>::new(-1.0, -1.0, -1.0).normalize();
    nalgebra::Rotation3::rotation_between(&d, &(-Vector::<3>::z()))
        .unwrap()
        .into_inner()
}

/// A sphere of radius 0.3 × the edge length, driven down at 2, 5 and 10 m/s (3 to 17 mm per
/// substep) at the middle of a triangle, carries the cloth down: every triangle stays at
/// least R (to 0.1 mm) from the centre and the cloth under it lies below it. Without the
/// triangle contact the vertices never touch it (each is ≥ 0.047 m > R + r from its path) and it
/// passes through.
#[test]
fn a_small_fast_sphere_pushes_the_cloth_instead_of_slipping_between_vertices() {
    let radius = 0.3 * EDGE;
    for speed in [2.0, 5.0, 10.0] {
        let r = run(
            Shape::Sphere { radius },
            Matrix::<3>::identity(),
            speed,
            true,
        );
        let c = r.pose.translation;
        let what = format!("sphere at {speed} m/s");
        assert!(r.contacts > 0, "{what}: no contact");
        let d = distance_to_cloth(&r, &c, &c);
        assert!(
            d >= radius - 1e-4,
            "{what}: a triangle is {d} m from the centre"
        );
        assert_pushed(&r, c.z - radius, &what);
    }
    let r = run(
        Shape::Sphere { radius },
        Matrix::<3>::identity(),
        5.0,
        false,
    );
    let c = r.pose.translation;
    let below = crossings_below(&r, &c);
    assert!(
        below.iter().all(|&z| z > c.z + radius),
        "without triangle contact the sphere passes through: the cloth at {below:?} is above it"
    );
}

/// A cube of side 0.3 × the edge length, a corner leading, driven down at 5 m/s: no edge of
/// the cube crosses a triangle and the cloth under it lies below its lowest corner. Without
/// the triangle contact it passes through.
#[test]
fn a_small_cube_corner_first_pushes_the_cloth() {
    let h = 0.15 * EDGE;
    let shape = Shape::Box {
        half_extents: Vector::<3>::repeat(h),
    };
    let corners = |r: &Run| -> Vec<Vector<3>> {
        (0..8)
            .map(|i| {
                let s = |bit: usize| if i & bit != 0 { h } else { -h };
                r.pose.to_world(&Vector::<3>::new(s(1), s(2), s(4)))
            })
            .collect()
    };
    let r = run(shape.clone(), tilt_corner_down(), 5.0, true);
    let k = corners(&r);
    let lowest = k.iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
    assert!((lowest - (r.pose.translation.z - h * 3f64.sqrt())).abs() < 1e-9);
    for i in 0..8 {
        for bit in [1, 2, 4] {
            if i & bit == 0 {
                assert!(
                    !segment_crosses_cloth(&r, &k[i], &k[i | bit]),
                    "edge {i}-{} of the cube crosses the cloth",
                    i | bit
                );
            }
        }
    }
    assert_pushed(&r, lowest, "cube");
    let r = run(shape, tilt_corner_down(), 5.0, false);
    let top = corners(&r)
        .iter()
        .map(|p| p.z)
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(
        crossings_below(&r, &r.pose.translation)
            .iter()
            .all(|&z| z > top),
        "without triangle contact the cube passes through"
    );
}

/// A capsule (radius 0.2 × the edge, axis 0.6 × the edge along x, between two rows of vertices)
/// driven down at 5 m/s: its axis stays at least R (to 0.1 mm) from every triangle and the
/// cloth under it lies below it. Without the triangle contact it passes through.
#[test]
fn a_small_capsule_pushes_the_cloth() {
    let (radius, half_length) = (0.2 * EDGE, 0.3 * EDGE);
    let shape = Shape::Capsule {
        half_length,
        radius,
    };
    let axis = |r: &Run| {
        let e = r.pose.rotation.column(0).into_owned() * half_length;
        (r.pose.translation - e, r.pose.translation + e)
    };
    let r = run(shape.clone(), Matrix::<3>::identity(), 5.0, true);
    let (p0, p1) = axis(&r);
    let d = distance_to_cloth(&r, &p0, &p1);
    assert!(
        d >= radius - 1e-4,
        "capsule: a triangle is {d} m from the axis"
    );
    assert_pushed(&r, r.pose.translation.z - radius, "capsule");
    let r = run(shape, Matrix::<3>::identity(), 5.0, false);
    assert!(
        crossings_below(&r, &r.pose.translation)
            .iter()
            .all(|&z| z > r.pose.translation.z + radius),
        "without triangle contact the capsule passes through"
    );
}

/// The cloth-on-sphere setting (a 24 × 24 sheet of 1.2 m dropped on a sphere of radius 0.3 m,
/// contact radius 0.01 m, coloured solver): `R ≥ (ρ² − r²)/(2r)` (0.3 ≥ 0.063), so the vertex
/// contacts hold every triangle off the sphere and the triangle contact, though it has
/// candidates during the impact, never takes a non-zero multiplier; the run is bit for bit the
/// run without it.
#[test]
fn a_large_sphere_never_activates_the_triangle_contact() {
    let build = |with: bool| {
        let cloth = ClothGrid::<3> {
            nx: 24,
            ny: 24,
            size: [1.2, 1.2],
            origin: Vector::<3>::new(-0.6, -0.6, 0.8),
            total_mass: 1.2 * 1.2 * 1500.0 * 0.0005,
            stretch_compliance: 1e-6,
            shear_compliance: 1e-6,
            ..ClothGrid::default()
        }
        .build()
        .unwrap();
        let settings = SolverSettings {
            substeps: 10,
            solver: SolverKind::Coloured,
            ..SolverSettings::default()
        };
        let mut sim = Simulation::new(cloth.particles.clone(), settings).unwrap();
        sim.add_constraints(cloth.stretch.clone()).unwrap();
        let options = ContactOptions {
            margin: 0.005,
            ..ContactOptions::default()
        };
        let mut contacts = ColliderContacts::new(0.01, options).unwrap();
        contacts
            .add_collider(
                Collider::fixed(Shape::Sphere { radius: 0.3 })
                    .at(Pose::from_translation(Vector::<3>::new(0.0, 0.0, 0.3)))
                    .with_friction(Friction::coulomb(0.4).unwrap()),
            )
            .unwrap();
        let ground = Shape::HalfSpace {
            normal: Vector::<3>::z(),
            offset: 0.0,
        };
        let friction = Friction::coulomb(0.5).unwrap();
        contacts
            .add_collider(Collider::fixed(ground).with_friction(friction))
            .unwrap();
        let triangles = ColliderTriangleContacts::new(&mut contacts, &cloth.triangles);
        sim.add_constraints(contacts).unwrap();
        let block = with.then(|| sim.add_constraints(triangles).unwrap());
        (sim, block)
    };
    let (mut with, block) = build(true);
    let block = block.unwrap();
    let (mut without, _) = build(false);
    let mut candidates = 0;
    for step in 0..60 {
        with.step(1.0 / 60.0).unwrap();
        without.step(1.0 / 60.0).unwrap();
        let b = with.block(block);
        candidates += b.kind.len();
        assert!(
            b.multipliers().iter().all(|&l| l == 0.0),
            "step {step}: a triangle contact took a multiplier"
        );
        assert_eq!(with.particles().x, without.particles().x, "step {step}");
        assert_eq!(with.particles().v, without.particles().v, "step {step}");
    }
    assert!(
        candidates > 0,
        "the triangle contact had candidates during the impact"
    );
    let lowest = with
        .particles()
        .x
        .iter()
        .map(|x| x.z)
        .fold(f64::INFINITY, f64::min);
    assert!(
        lowest < 0.4,
        "the cloth reached the sphere (lowest {lowest} m)"
    );
}

/// A triangle block added before its collider contacts reads no motion for the substep: the
/// step fails by name instead of using stale colliders.
#[test]
fn a_triangle_block_before_its_collider_contacts_is_refused_when_stepping() {
    let cloth = ClothGrid::<3> {
        nx: 3,
        ny: 3,
        ..ClothGrid::default()
    }
    .build()
    .unwrap();
    let mut sim = Simulation::new(cloth.particles.clone(), SolverSettings::default()).unwrap();
    let mut contacts = ColliderContacts::new(0.01, ContactOptions::default()).unwrap();
    contacts
        .add_collider(Collider::fixed(Shape::Sphere { radius: 0.1 }))
        .unwrap();
    let triangles = ColliderTriangleContacts::new(&mut contacts, &cloth.triangles);
    sim.add_constraints(triangles).unwrap();
    sim.add_constraints(contacts).unwrap();
    let e = sim.step(DT).unwrap_err();
    assert!(matches!(e, StepError::BlockFault { .. }), "{e}");
    assert!(e.to_string().contains("before them"), "{e}");
}
