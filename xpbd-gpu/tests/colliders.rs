//! Boxes and capsules on both backends: the core's signed distances and position-level
//! Coulomb friction (`xpbd_core::contact`), on the CPU through `ColliderContacts` and on the
//! GPU through the `collide` kernel.

use std::sync::Arc;

use nalgebra::{Matrix3, Rotation3, Vector3};
use xpbd_core::{Particles, SolverSettings};
use xpbd_gpu::testing::{Scene, SceneCollider, StepBackend};
use xpbd_gpu::{GpuContext, context_for_test};

fn gpu(test: &str) -> Option<Arc<GpuContext>> {
    context_for_test(test)
        .unwrap_or_else(|e| panic!("{test}: {e}"))
        .map(Arc::new)
}

/// Free particles on a 4 × 4 lattice, 5 cm above the point (0, 0, 0.3), radius 1 cm.
fn drops(contact_radius: f64) -> (Particles<3>, f64) {
    let mut p = Particles::<3>::new();
    for i in 0..4 {
        for j in 0..4 {
            let x = Vector3::new(-0.06 + 0.04 * i as f64, -0.06 + 0.04 * j as f64, 0.45);
            p.push(x, 0.01);
        }
    }
    (p, contact_radius)
}

fn run(b: &mut dyn StepBackend, steps: usize) -> (Vec<Vector3<f64>>, Vec<Vector3<f64>>) {
    for _ in 0..steps {
        b.step(1.0 / 60.0).unwrap();
    }
    (b.positions().unwrap(), b.velocities().unwrap())
}

/// The box both friction tests drop particles on: rotation (20° about x), half extents and
/// centre.
fn tilted_box() -> (Matrix3<f64>, Vector3<f64>, Vector3<f64>) {
    let theta = 20f64.to_radians();
    let rotation = *Rotation3::from_axis_angle(&Vector3::x_axis(), theta).matrix();
    (
        rotation,
        Vector3::new(0.3, 0.3, 0.1),
        Vector3::new(0.0, 0.0, 0.2),
    )
}

/// Particles dropped on the top face of a box tilted by θ = 20° about x: with μ = 0.5 >
/// tan θ = 0.36 every particle lands and sticks where it fell (its horizontal position moves by
/// less than a millimetre, it rests on the face at φ = r), with μ = 0.1 < tan θ they slide
/// down the slope (Coulomb's law at the position level: they stick exactly when tan θ ≤ μ).
/// Both backends give each of these, and the same resting positions within 1e-4 m.
#[test]
fn particles_stick_on_a_tilted_box_below_the_friction_angle_and_slide_above_it() {
    let ctx = gpu("box collider");
    let (rotation, half, centre) = tilted_box();
    // φ of the box (the top face is the relevant one for these drops).
    let top_gap = |x: &Vector3<f64>| {
        let q = rotation.transpose() * (x - centre);
        q.z - half.z
    };
    for (mu, sticks) in [(0.5, true), (0.1, false)] {
        let (particles, r) = drops(0.01);
        let mut scene = Scene::new(particles.clone(), SolverSettings::default()).with_collider(
            SceneCollider::Box {
                centre,
                rotation,
                half_extents: half,
                friction: mu,
            },
        );
        scene.contact_radius = r;
        let mut backends: Vec<Box<dyn StepBackend>> = vec![Box::new(scene.cpu().unwrap())];
        if let Some(ctx) = ctx.clone() {
            backends.push(Box::new(scene.gpu(ctx).unwrap()));
        }
        let mut finals = Vec::new();
        for b in &mut backends {
            let name = b.backend_name();
            let (x, v) = run(b.as_mut(), 30);
            for (i, (xi, x0)) in x.iter().zip(&particles.x).enumerate() {
                let lateral = ((xi - x0).xy()).norm();
                if sticks {
                    assert!(
                        lateral < 1e-3,
                        "{name} μ={mu}: particle {i} slid {lateral:e} m"
                    );
                    let gap = top_gap(xi) - r;
                    assert!(
                        gap.abs() < 1e-4,
                        "{name}: particle {i} rests at gap {gap:e} m"
                    );
                    assert!(
                        v[i].norm() < 1e-2,
                        "{name}: particle {i} moves at {:e}",
                        v[i].norm()
                    );
                } else {
                    assert!(lateral > 1e-2, "{name} μ={mu}: particle {i} did not slide");
                }
            }
            finals.push(x);
        }
        if sticks && finals.len() == 2 {
            let dev = finals[0]
                .iter()
                .zip(&finals[1])
                .map(|(a, b)| (a - b).norm())
                .fold(0.0, f64::max);
            eprintln!("box μ={mu}: CPU/GPU resting positions within {dev:e} m");
            assert!(dev < 1e-4, "{dev:e}");
        }
    }
}

/// Particles dropped on a horizontal capsule (axis along a rotated x, radius 0.1 m, no
/// friction) end outside it by the contact radius: none penetrates on either backend, and
/// those that fell on its crest have slid off the curved surface (frictionless).
#[test]
fn particles_never_enter_a_capsule_and_slide_off_it_without_friction() {
    let ctx = gpu("capsule collider");
    let rotation: Matrix3<f64> =
        *Rotation3::from_axis_angle(&Vector3::z_axis(), 30f64.to_radians()).matrix();
    let (centre, half_length, radius) = (Vector3::new(0.0, 0.0, 0.3), 0.2, 0.1);
    let phi = |x: &Vector3<f64>| {
        let q = rotation.transpose() * (x - centre);
        let a = Vector3::new(q.x.clamp(-half_length, half_length), 0.0, 0.0);
        (q - a).norm() - radius
    };
    let (particles, r) = drops(0.01);
    let mut scene =
        Scene::new(particles, SolverSettings::default()).with_collider(SceneCollider::Capsule {
            centre,
            rotation,
            half_length,
            radius,
            friction: 0.0,
        });
    scene.contact_radius = r;
    let mut backends: Vec<Box<dyn StepBackend>> = vec![Box::new(scene.cpu().unwrap())];
    if let Some(ctx) = ctx {
        backends.push(Box::new(scene.gpu(ctx).unwrap()));
    }
    for b in &mut backends {
        let name = b.backend_name();
        let mut deepest = f64::INFINITY;
        for _ in 0..40 {
            b.step(1.0 / 60.0).unwrap();
            let x = b.positions().unwrap();
            deepest = x.iter().map(|x| phi(x) - r).fold(deepest, f64::min);
        }
        // One substep's gravity drop g h² is the most a frictionless contact leaves.
        let h = 1.0 / 600.0;
        eprintln!("{name}: deepest penetration {:e} m", -deepest);
        assert!(
            deepest > -2.0 * 9.81 * h * h,
            "{name}: penetrated {deepest:e} m"
        );
        let x = b.positions().unwrap();
        let below = x.iter().filter(|x| x.z < centre.z).count();
        assert!(
            below >= 8,
            "{name}: only {below} particles slid past the crest"
        );
    }
}

/// A signed-distance grid built from a closed mesh (the box of the tilted-box test, 0.6 × 0.6 ×
/// 0.2 m, as 12 triangles, node spacing 2 cm) at the box's pose: on the top face φ is linear, so
/// the grid's trilinear φ is the box's exact φ, and particles dropped on it stick below the
/// friction angle and slide above it as on the analytic box. On both backends the resting
/// positions equal the analytic box's within 1e-4 m, and the GPU's (f32 node values, atlas
/// texture) equal the CPU's within 1e-4 m; and nothing penetrates the face by more than a
/// substep's gravity drop, frictionless or not.
#[test]
fn particles_rest_on_a_mesh_collider_as_on_the_box_it_was_built_from() {
    use xpbd_core::builders::TriangleSurface;
    use xpbd_core::contact::SdfGrid;
    let ctx = gpu("signed-distance grid collider");
    let (rotation, half, centre) = tilted_box();
    let mut mesh = TriangleSurface::unit_cube();
    for v in &mut mesh.vertices {
        *v = v.component_mul(&(2.0 * half));
    }
    let grid = Arc::new(SdfGrid::from_mesh(&mesh, 0.02, 0.06).unwrap());
    let top_gap = |x: &Vector3<f64>| (rotation.transpose() * (x - centre)).z - half.z;
    for (mu, sticks) in [(0.5, true), (0.1, false), (0.0, false)] {
        let (particles, r) = drops(0.01);
        let scene_with = |collider| {
            let mut s =
                Scene::new(particles.clone(), SolverSettings::default()).with_collider(collider);
            s.contact_radius = r;
            s
        };
        let analytic = scene_with(SceneCollider::Box {
            centre,
            rotation,
            half_extents: half,
            friction: mu,
        });
        let sdf = scene_with(SceneCollider::Sdf {
            centre,
            rotation,
            grid: grid.clone(),
            friction: mu,
        });
        let (x_box, _) = run(&mut analytic.cpu().unwrap(), 30);
        let mut backends: Vec<Box<dyn StepBackend>> = vec![Box::new(sdf.cpu().unwrap())];
        if let Some(ctx) = ctx.clone() {
            backends.push(Box::new(sdf.gpu(ctx).unwrap()));
        }
        let mut finals = Vec::new();
        for b in &mut backends {
            let name = b.backend_name();
            let mut deepest = f64::INFINITY;
            for _ in 0..30 {
                b.step(1.0 / 60.0).unwrap();
                let x = b.positions().unwrap();
                // Above the face's interior, where φ is the distance to the top face.
                let over_face = |x: &&Vector3<f64>| {
                    let q = rotation.transpose() * (*x - centre);
                    q.x.abs() < half.x - 0.02 && q.y.abs() < half.y - 0.02
                };
                deepest = x
                    .iter()
                    .filter(over_face)
                    .map(|x| top_gap(x) - r)
                    .fold(deepest, f64::min);
            }
            let x = b.positions().unwrap();
            let h = 1.0 / 600.0;
            assert!(
                deepest > -2.0 * 9.81 * h * h,
                "{name} μ={mu}: penetrated the grid by {:e} m",
                -deepest
            );
            for (i, (xi, x0)) in x.iter().zip(&particles.x).enumerate() {
                let lateral = (xi - x0).xy().norm();
                if sticks {
                    assert!(
                        lateral < 1e-3,
                        "{name} μ={mu}: particle {i} slid {lateral:e} m"
                    );
                    let gap = top_gap(xi) - r;
                    assert!(
                        gap.abs() < 1e-4,
                        "{name}: particle {i} rests at gap {gap:e} m"
                    );
                } else {
                    assert!(lateral > 1e-2, "{name} μ={mu}: particle {i} did not slide");
                }
            }
            if sticks {
                let dev = max_dev(&x, &x_box);
                eprintln!("grid μ={mu} ({name}): within {dev:e} m of the analytic box");
                assert!(dev < 1e-4, "{name}: {dev:e} m from the analytic box");
            }
            finals.push(x);
        }
        if finals.len() == 2 {
            let dev = max_dev(&finals[0], &finals[1]);
            eprintln!("grid μ={mu}: CPU/GPU within {dev:e} m");
            // Sliding particles keep accelerating for 0.5 s: the f32 walk grows with the path.
            let bound = if sticks { 1e-4 } else { 1e-3 };
            assert!(dev < bound, "μ={mu}: CPU/GPU {dev:e} m");
        }
    }
}

fn max_dev(a: &[Vector3<f64>], b: &[Vector3<f64>]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(a, b)| (a - b).norm())
        .fold(0.0, f64::max)
}
