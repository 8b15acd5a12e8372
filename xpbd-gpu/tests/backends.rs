//! One suite, both backends: the same scenes run on the CPU (f64, xpbd-core) and on the GPU
//! (f32, wgpu; lavapipe in CI) through `StepBackend`, checked against analytic facts and
//! against each other, and GPU runs are compared byte for byte.
//!
//! Tolerances. The GPU stores positions in f32 (ε = 2⁻²³ ≈ 1.19e-7); the CPU's f64 error
//! is negligible next to it. Each substep rounds x (error ≤ ε|x|), and the step rebuilds
//! v = (x − x_prev)/h, so every rounding enters v as ε|x|/h and stays there: the position
//! error is the integral of a velocity random walk. Worst case (all roundings aligned) it
//! is N(N+1)/2 · ε|x| after N substeps; for independent zero-mean roundings its standard
//! deviation is ε|x| N^{3/2}/√3. Trajectory comparisons of smooth (non-chaotic, no
//! contact switching) scenes use [`walk_bound`] = 4 N^{3/2} ε |x|max (≈ 7σ).

use std::sync::Arc;

use nalgebra::Vector3;
use xpbd_core::builders::{ClothGrid, RopeBuilder};
use xpbd_core::constraint::DistanceConstraints;
use xpbd_core::{Particles, SolverKind, SolverSettings, Vector};
use xpbd_gpu::testing::{Scene, SceneBlock, SceneCollider, StepBackend};
use xpbd_gpu::{GpuContext, context_for_test};

const EPS32: f64 = f32::EPSILON as f64;

/// The GPU context, or `None` (skip; printed) without an adapter. With
/// `XPBD_REQUIRE_GPU=1` a missing adapter fails the test.
fn gpu(test: &str) -> Option<Arc<GpuContext>> {
    context_for_test(test)
        .unwrap_or_else(|e| panic!("{test}: {e}"))
        .map(Arc::new)
}

/// 4 N^{3/2} ε |x|max: see the module docs.
fn walk_bound(substeps_total: usize, x_max: f64) -> f64 {
    4.0 * (substeps_total as f64).powf(1.5) * EPS32 * x_max
}

fn settings(substeps: usize, solver: SolverKind) -> SolverSettings<3> {
    SolverSettings {
        substeps,
        solver,
        ..SolverSettings::default()
    }
}

/// Runs `steps` steps of `dt`, returning positions after every step.
fn trajectory(b: &mut dyn StepBackend, steps: usize, dt: f64) -> Vec<Vec<Vector3<f64>>> {
    (0..steps)
        .map(|_| {
            b.step(dt).unwrap();
            b.positions().unwrap()
        })
        .collect()
}

fn max_deviation(a: &[Vec<Vector3<f64>>], b: &[Vec<Vector3<f64>>]) -> f64 {
    a.iter()
        .zip(b)
        .flat_map(|(pa, pb)| pa.iter().zip(pb).map(|(x, y)| (x - y).norm()))
        .fold(0.0, f64::max)
}

fn hanging_cloth(n: usize, solver: SolverKind) -> Scene {
    let cloth = ClothGrid::<3> {
        nx: n,
        ny: n,
        size: [1.0, 1.0],
        pinned: vec![(0, n - 1), (n - 1, n - 1)],
        stretch_compliance: 1e-7,
        shear_compliance: 1e-6,
        ..ClothGrid::default()
    }
    .build()
    .unwrap();
    Scene::new(cloth.particles, settings(10, solver))
        .with_block(SceneBlock::Distance(cloth.stretch))
}

/// A rope pinned at one end, initially horizontal, its rest lengths 1 % shorter than the
/// initial spacing (stiff, compliance 1e-6), so it starts under tension and swings down.
fn rope(links: usize, solver: SolverKind) -> Scene {
    let r = RopeBuilder::<3> {
        links,
        start: Vector::<3>::zeros(),
        end: Vector::<3>::new(1.0, 0.0, 0.0),
        mass: 1.0,
        compliance: 0.0,
        pin_start: true,
    }
    .build()
    .unwrap();
    let mut links_desc = r.links;
    links_desc.rest_length.iter_mut().for_each(|l| *l *= 0.99);
    links_desc.compliance.iter_mut().for_each(|a| *a = 1e-6);
    Scene::new(r.particles, settings(20, solver)).with_block(SceneBlock::Distance(links_desc))
}

/// Free fall has a closed form under the substep loop (symplectic Euler):
/// after N substeps of h, `v = v₀ + N h g`, `x = x₀ + N h v₀ + h² g N(N+1)/2`.
#[test]
fn free_fall_matches_the_discrete_closed_form_on_both_backends() {
    let mut p = Particles::<3>::new();
    let x0 = [Vector3::new(0.0, 0.0, 5.0), Vector3::new(1.0, -2.0, 3.0)];
    let v0 = [Vector3::new(1.0, 0.5, 2.0), Vector3::new(-0.5, 0.0, 0.0)];
    for k in 0..2 {
        let i = p.push(x0[k], 2.0);
        p.v[i] = v0[k];
    }
    let scene = Scene::new(p, settings(10, SolverKind::Coloured));
    let (steps, dt) = (30, 1.0 / 60.0);
    let n = (steps * 10) as f64;
    let h = dt / 10.0;
    let g = Vector3::new(0.0, 0.0, -9.81);
    let expected: Vec<_> = (0..2)
        .map(|k| x0[k] + v0[k] * (n * h) + g * (h * h * n * (n + 1.0) / 2.0))
        .collect();
    let check = |b: &mut dyn StepBackend, tol: f64| {
        for _ in 0..steps {
            b.step(dt).unwrap();
        }
        let x = b.positions().unwrap();
        let v = b.velocities().unwrap();
        for k in 0..2 {
            let err = (x[k] - expected[k]).norm();
            eprintln!(
                "{}: free fall error {err:e} m (bound {tol:e})",
                b.backend_name()
            );
            assert!(
                err < tol,
                "{}: particle {k} off by {err:e} (tol {tol:e})",
                b.backend_name()
            );
            // v carries the last substep's ε|x|/h plus the accumulated drift: N ε|x|/h.
            let verr = (v[k] - (v0[k] + g * (n * h))).norm();
            let vtol = tol / (n * h) * 2.0;
            assert!(
                verr < vtol,
                "{}: velocity off by {verr:e}",
                b.backend_name()
            );
        }
    };
    // The step reconstructs v = (x − x_prev)/h, so each substep's rounding of x (≤ ε|x|)
    // enters v as ε|x|/h and persists; integrated over N substeps the position error is
    // at most ~N(N+1)/2 · ε|x| (worst case, all roundings aligned), |x| ≤ 6 here.
    let bound = |eps: f64| n * (n + 1.0) / 2.0 * eps * 6.0;
    check(&mut scene.cpu().unwrap(), bound(f64::EPSILON));
    if let Some(ctx) = gpu("free_fall") {
        let mut sim = scene.gpu(ctx).unwrap();
        check(&mut sim, bound(EPS32));
    }
}

/// A rigid pendulum keeps its length (compliance 0: XPBD projects it exactly each
/// iteration up to rounding), and the GPU trajectory follows the CPU's.
#[test]
fn pendulum_keeps_its_length_and_gpu_follows_cpu() {
    let mut p = Particles::<3>::new();
    let pivot = p.push(Vector3::zeros(), 0.0);
    let bob = p.push(Vector3::new(1.0, 0.0, 0.0), 1.0);
    let mut rod = DistanceConstraints::new();
    rod.add(&p, pivot, bob, 0.0).unwrap();
    let scene =
        Scene::new(p, settings(20, SolverKind::Coloured)).with_block(SceneBlock::Distance(rod));
    let (steps, dt) = (60, 1.0 / 60.0);
    let cpu = trajectory(&mut scene.cpu().unwrap(), steps, dt);
    for x in &cpu {
        assert!(((x[1] - x[0]).norm() - 1.0).abs() < 1e-12);
    }
    let Some(ctx) = gpu("pendulum") else { return };
    let gpu_traj = trajectory(&mut scene.gpu(ctx).unwrap(), steps, dt);
    for x in &gpu_traj {
        // One f32 projection leaves |l − 1| at a few ulps of 1.
        assert!(((x[1] - x[0]).norm() - 1.0).abs() < 8.0 * EPS32);
    }
    let dev = max_deviation(&cpu, &gpu_traj);
    let tol = walk_bound(steps * 20, 1.0);
    eprintln!("pendulum: max |x_gpu − x_cpu| over 1 s = {dev:e} m (bound {tol:e})");
    assert!(dev < tol, "deviation {dev:e}");
}

/// A pinned pre-stretched rope (8 stiff links) with each sweep: GPU follows CPU and links stay rigid.
#[test]
fn rope_gpu_follows_cpu_for_every_solver() {
    let Some(ctx) = gpu("rope") else { return };
    let solvers = [
        SolverKind::Coloured,
        SolverKind::GaussSeidel,
        SolverKind::Jacobi {
            omega: 1.0,
            averaged: true,
        },
    ];
    for solver in solvers {
        let scene = rope(8, solver);
        let (steps, dt) = (30, 1.0 / 60.0);
        let cpu = trajectory(&mut scene.cpu().unwrap(), steps, dt);
        let gpu_traj = trajectory(&mut scene.gpu(ctx.clone()).unwrap(), steps, dt);
        let dev = max_deviation(&cpu, &gpu_traj);
        eprintln!("rope {}: max deviation {dev:e} m", solver.short_name());
        assert!(
            dev < walk_bound(steps * 20, 1.0),
            "{}: {dev:e}",
            solver.short_name()
        );
    }
}

/// The hanging cloth (10×10, two pinned corners, stiff but compliant springs): the GPU's
/// trajectory stays within the f32 bound of the CPU's for every sweep, and the pinned
/// corners do not move.
#[test]
fn hanging_cloth_gpu_follows_cpu() {
    let Some(ctx) = gpu("hanging_cloth") else {
        return;
    };
    for solver in [
        SolverKind::Coloured,
        SolverKind::GaussSeidel,
        SolverKind::JACOBI,
    ] {
        let scene = hanging_cloth(10, solver);
        let (steps, dt) = (30, 1.0 / 60.0);
        let cpu = trajectory(&mut scene.cpu().unwrap(), steps, dt);
        let gpu_traj = trajectory(&mut scene.gpu(ctx.clone()).unwrap(), steps, dt);
        for (i, x0) in scene.particles.x.iter().enumerate() {
            if scene.particles.inv_mass[i] == 0.0 {
                let last = &gpu_traj[steps - 1][i];
                assert_eq!(
                    *last,
                    x0.map(|c| c as f32 as f64),
                    "pinned particle {i} moved"
                );
            }
        }
        let dev = max_deviation(&cpu, &gpu_traj);
        eprintln!("cloth {}: max deviation {dev:e} m", solver.short_name());
        let tol = walk_bound(steps * 10, 1.5);
        assert!(
            dev < tol,
            "{}: {dev:e} (bound {tol:e})",
            solver.short_name()
        );
    }
}

/// GPU runs are deterministic: two simulations of the same scene give the same bytes
/// (no float atomics; Jacobi gathers in a fixed order; colours have no write conflicts).
#[test]
fn gpu_runs_are_bit_identical() {
    let Some(ctx) = gpu("bit_identical") else {
        return;
    };
    for solver in [SolverKind::Coloured, SolverKind::JACOBI] {
        let scene = hanging_cloth(12, solver).with_collider(SceneCollider::Sphere {
            centre: Vector3::new(0.5, 0.5, -0.6),
            radius: 0.4,
            friction: 0.3,
        });
        let run = || {
            let mut sim = scene.gpu(ctx.clone()).unwrap();
            for _ in 0..20 {
                sim.step(1.0 / 60.0).unwrap();
            }
            sim.state_bytes().unwrap()
        };
        let (a, b) = (run(), run());
        assert_eq!(a.len(), 2 * 16 * 144);
        assert!(a == b, "{}: runs differ", solver.short_name());
        // Not trivially equal: the state moved away from the start.
        let start = scene.gpu(ctx.clone()).unwrap().state_bytes().unwrap();
        assert!(a != start);
    }
}

/// A particle dropped on the plane z = 0 comes to rest on it (no penetration beyond one
/// substep's gravity drop g h², zero velocity), on both backends.
#[test]
fn particle_rests_on_a_plane() {
    let mut p = Particles::<3>::new();
    p.push(Vector3::new(0.0, 0.0, 0.2), 1.0);
    let scene =
        Scene::new(p, settings(10, SolverKind::Coloured)).with_collider(SceneCollider::Plane {
            normal: Vector3::z(),
            offset: 0.0,
            friction: 0.5,
        });
    let mut backends: Vec<Box<dyn StepBackend>> = vec![Box::new(scene.cpu().unwrap())];
    if let Some(ctx) = gpu("plane_rest") {
        backends.push(Box::new(scene.gpu(ctx).unwrap()));
    }
    for b in &mut backends {
        for _ in 0..60 {
            b.step(1.0 / 60.0).unwrap();
        }
        let x = b.positions().unwrap()[0];
        let v = b.velocities().unwrap()[0];
        // Projection is exact up to rounding: |z| ≤ a few ulps of the 0.2 m drop.
        assert!(x.z.abs() < 1e-6, "{}: z = {:e}", b.backend_name(), x.z);
        assert!(v.norm() < 1e-4, "{}: v = {v:?}", b.backend_name());
    }
}

/// Friction: a particle sliding on the plane at v₀ loses μ g h of speed per substep
/// (friction impulse μ λ / h with λ = m g h² from the contact), i.e. it decelerates at μ g
/// and stops after v₀²/(2 μ g), up to one substep of travel (v₀ h) from the discretisation.
#[test]
fn friction_stops_a_sliding_particle_at_the_coulomb_distance() {
    let (v0, mu, g) = (2.0, 0.4, 9.81);
    let mut p = Particles::<3>::new();
    let i = p.push(Vector3::new(0.0, 0.0, 0.0), 1.0);
    p.v[i] = Vector3::new(v0, 0.0, 0.0);
    let scene =
        Scene::new(p, settings(10, SolverKind::Coloured)).with_collider(SceneCollider::Plane {
            normal: Vector3::z(),
            offset: 0.0,
            friction: mu,
        });
    let dt = 1.0 / 60.0;
    let h = dt / 10.0;
    let expected = v0 * v0 / (2.0 * mu * g);
    let mut backends: Vec<Box<dyn StepBackend>> = vec![Box::new(scene.cpu().unwrap())];
    if let Some(ctx) = gpu("friction") {
        backends.push(Box::new(scene.gpu(ctx).unwrap()));
    }
    for b in &mut backends {
        for _ in 0..60 {
            b.step(dt).unwrap();
        }
        let x = b.positions().unwrap()[0];
        let v = b.velocities().unwrap()[0];
        assert!(v.norm() < 1e-4, "{}: still moving {v:?}", b.backend_name());
        assert!(
            (x.x - expected).abs() < 2.0 * v0 * h,
            "{}: stopped at {} m, Coulomb {} m",
            b.backend_name(),
            x.x,
            expected
        );
    }
}

/// Cloth draped over a sphere: no particle ends inside it and the cloth does touch it, on
/// both backends. The trajectories are not compared point-wise: contact switches on at
/// C < 0 and friction between sticking and sliding at |Δv_t| = μ w λ/h, so rounding-level
/// differences change which substep a particle touches in, and the paths separate by up to
/// a substep's motion at each such event (measured: ~5 cm after 40 steps).
#[test]
fn cloth_drapes_over_a_sphere_without_penetration() {
    let cloth = ClothGrid::<3> {
        nx: 8,
        ny: 8,
        origin: Vector::<3>::new(-0.5, -0.5, 0.6),
        stretch_compliance: 1e-7,
        shear_compliance: 1e-6,
        ..ClothGrid::default()
    }
    .build()
    .unwrap();
    let (centre, radius) = (Vector3::new(0.0, 0.0, 0.0), 0.4);
    let scene = Scene::new(cloth.particles, settings(10, SolverKind::Coloured))
        .with_block(SceneBlock::Distance(cloth.stretch))
        .with_collider(SceneCollider::Sphere {
            centre,
            radius,
            friction: 0.5,
        });
    let (steps, dt) = (40, 1.0 / 60.0);
    let cpu = trajectory(&mut scene.cpu().unwrap(), steps, dt);
    let inside = |xs: &[Vector3<f64>]| {
        xs.iter()
            .map(|x| radius - (x - centre).norm())
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let touches = |xs: &[Vector3<f64>]| xs.iter().any(|x| (x - centre).norm() < radius + 1e-3);
    // The contact pass runs last in every iteration, so the end state satisfies it up to
    // rounding of |x − c| ≈ 0.4 (a few ulps), and the cloth did reach the sphere.
    assert!(inside(&cpu[steps - 1]) < 1e-12);
    assert!(touches(&cpu[steps - 1]));
    let Some(ctx) = gpu("sphere") else { return };
    let gpu_traj = trajectory(&mut scene.gpu(ctx).unwrap(), steps, dt);
    assert!(inside(&gpu_traj[steps - 1]) < 8.0 * EPS32);
    assert!(touches(&gpu_traj[steps - 1]));
}

/// Every remaining setting on both backends: constraint damping β (XPBD §5), global
/// velocity damping, multiplier warm start and external forces. The GPU follows the CPU
/// within the random-walk bound, and each setting changes the result (none is ignored).
#[test]
fn damping_warm_start_and_forces_match_the_cpu() {
    let Some(ctx) = gpu("settings") else { return };
    let mut base = rope(6, SolverKind::Coloured);
    if let SceneBlock::Distance(d) = &mut base.blocks[0] {
        // Soft links (α = 1e-4 m/N) so that constraint damping matters.
        d.compliance.iter_mut().for_each(|a| *a = 1e-4);
    }
    let mut variants = Vec::new();
    let mut s = base.clone();
    if let SceneBlock::Distance(d) = &mut s.blocks[0] {
        // γ = α β / h = 1e-4 · 200 · 1200 = 24: strongly damped stretching.
        d.set_damping(200.0).unwrap();
    }
    variants.push(("constraint damping", s));
    let mut s = base.clone();
    s.settings.velocity_damping = 2.0;
    variants.push(("velocity damping", s));
    let mut s = base.clone();
    s.settings.multiplier_warm_start = Some(0.2);
    variants.push(("warm start", s));
    let mut s = base.clone();
    s.particles.force[6] = Vector3::new(0.0, 3.0, 0.0);
    variants.push(("external force", s));
    let steps = 20;
    let reference = trajectory(&mut base.cpu().unwrap(), steps, 1.0 / 60.0);
    for (name, scene) in variants {
        let cpu = trajectory(&mut scene.cpu().unwrap(), steps, 1.0 / 60.0);
        let g = trajectory(&mut scene.gpu(ctx.clone()).unwrap(), steps, 1.0 / 60.0);
        let dev = max_deviation(&cpu, &g);
        let tol = walk_bound(steps * 20, 1.0);
        let effect = max_deviation(&cpu, &reference);
        eprintln!("{name}: gpu-cpu {dev:e} m (bound {tol:e}), effect of the setting {effect:e} m");
        assert!(dev < tol, "{name}: {dev:e}");
        // A GPU ignoring the setting would deviate by `effect` from the CPU: it must
        // exceed the tolerance for the comparison above to catch that.
        assert!(
            effect > 2.0 * tol,
            "{name} has no visible effect ({effect:e})"
        );
    }
}

/// `upload_state` replaces positions and velocities: stepping after an upload gives the
/// same bytes as a simulation built with that state.
#[test]
fn upload_state_is_equivalent_to_building_with_that_state() {
    let Some(ctx) = gpu("upload") else { return };
    let scene = hanging_cloth(6, SolverKind::Coloured);
    let mut moved = scene.clone();
    for (i, x) in moved.particles.x.iter_mut().enumerate() {
        if moved.particles.inv_mass[i] > 0.0 {
            x.z += 0.01 * (i % 3) as f64;
            moved.particles.v[i] = Vector3::new(0.1, 0.0, -0.2);
        }
    }
    moved.particles.x_prev = moved.particles.x.clone();
    let mut a = moved.gpu(ctx.clone()).unwrap();
    let mut b = scene.gpu(ctx).unwrap();
    b.upload_state(&moved.particles.x, &moved.particles.v)
        .unwrap();
    assert_eq!(a.state_bytes().unwrap(), b.state_bytes().unwrap());
    for _ in 0..5 {
        a.step(1.0 / 60.0).unwrap();
        b.step(1.0 / 60.0).unwrap();
    }
    assert_eq!(a.state_bytes().unwrap(), b.state_bytes().unwrap());
    // Wrong lengths are a typed error.
    assert!(
        b.upload_state(&moved.particles.x[..3], &moved.particles.v)
            .is_err()
    );
}
