//! The GPU XPBI step (`xpbd_gpu::testing::GpuXpbi`, f32) against the CPU path (`xpbi_continuum`,
//! `ContinuumScene` with the Jacobi solver, f64) on small scenes, plus run-to-run bit identity.
//!
//! Run on lavapipe in CI: `WGPU_BACKEND=vulkan XPBD_REQUIRE_GPU=1 cargo test -p xpbd-gpu --test xpbi`.
//! Without an adapter every test prints SKIPPED, unless `XPBD_REQUIRE_GPU=1`.
//!
//! Scenes are jittered lattices (±5 % Δx, deterministic) so that no pair distance lies within
//! f32 rounding of the kernel support H = 2Δx or of the pair radius Δx: then f32 and f64 find
//! the same neighbour lists, contact candidates and Jacobi counts, and the two paths solve the
//! same equations.

use std::sync::Arc;

use nalgebra::{Matrix3, Vector3};
use xpbd_core::SolverKind;
use xpbd_gpu::testing::{GpuXpbi, XpbiGpuScene};
use xpbd_gpu::{GpuContext, GpuError, context_for_test};
use xpbi_continuum::material::Material;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};

fn ctx(test: &str) -> Option<Arc<GpuContext>> {
    context_for_test(test)
        .unwrap_or_else(|e| panic!("{e}"))
        .map(Arc::new)
}

/// xorshift in [−1, 1].
fn rng(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % 20001) as f64 / 10000.0 - 1.0
    }
}

/// A block of `nx × ny × nz` particles (spacing `dx`, jittered by ±5 %), standing on the ground.
fn block(nx: usize, ny: usize, nz: usize, dx: f64, seed: u64) -> Vec<Vector3<f64>> {
    let mut r = rng(seed);
    let hi = Vector3::new(nx as f64, ny as f64, nz as f64) * dx;
    lattice_box(Vector3::zeros(), hi, dx)
        .into_iter()
        .map(|p| p + Vector3::new(r(), r(), 0.5 * (r() + 1.0)) * (0.05 * dx))
        .collect()
}

fn jacobi_scene(x: &[Vector3<f64>], material: Material, dx: f64) -> ContinuumScene<3> {
    let mut o = SceneOptions::new(dx);
    o.solver = SolverKind::JACOBI;
    o.iterations = 10;
    o.dt = 1e-4;
    ContinuumScene::new(x, material, o).expect("CPU scene")
}

/// Max |a − b| over particles.
fn max_diff(a: &[Vector3<f64>], b: &[Vector3<f64>]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(p, q)| (p - q).norm())
        .fold(0.0, f64::max)
}

#[test]
fn corrected_gradients_and_lp_match_the_cpu() {
    let Some(ctx) = ctx("xpbi corrected gradients") else {
        return;
    };
    let dx = 0.01;
    let x = block(8, 8, 8, dx, 7);
    let scene = jacobi_scene(&x, Material::sand(), dx);
    let desc = XpbiGpuScene::from_cpu(&scene).unwrap();
    let mut gpu = GpuXpbi::new(ctx, &desc).unwrap();
    gpu.rebuild_frozen_data(1e-4).unwrap();
    let (offsets, indices, l_gpu, qself) = gpu.frozen_data().unwrap();
    // CPU: the same neighbourhoods and xpbi_continuum's L_p (SVD pseudo-inverse with its
    // threshold 1e-2) and corrected weights.
    let s = scene.continuum().settings();
    let kernel = xpbi_continuum::kernel::WendlandC2::<3>::new(s.support()).unwrap();
    let vol = dx * dx * dx;
    let mut checked_surface = 0;
    for p in 0..x.len() {
        let row = offsets[p] as usize..offsets[p + 1] as usize;
        let nb: Vec<u32> = indices[row.clone()].to_vec();
        let want: Vec<u32> = (0..x.len() as u32)
            .filter(|&b| b as usize != p && (x[b as usize] - x[p]).norm() < s.support())
            .collect();
        let mut sorted = nb.clone();
        sorted.sort();
        assert_eq!(sorted, want, "neighbours of {p}");
        let mut cq = Vec::new();
        let (l_cpu, rank) = xpbi_continuum::correction::corrected_weights(
            &kernel,
            s.pinv_threshold,
            &x[p],
            nb.iter().map(|&b| (x[b as usize], vol)),
            &mut cq,
        );
        assert_eq!(rank, 3, "full rank at {p}");
        // f32: M_p sums ~30 terms (≈ 30 ε relative), the pseudo-inverse multiplies that by
        // cond(M_p) ≤ 10 here (free surfaces), so 1e-4 ‖L_p‖ (≈ 800 ε) bounds it.
        let err = (l_gpu[p] - l_cpu).norm();
        assert!(
            err <= 1e-4 * l_cpu.norm(),
            "L_{p}: {err:e} vs ‖L‖ {:e}",
            l_cpu.norm()
        );
        let scale = cq.iter().map(|v| v.norm()).fold(0.0, f64::max);
        let sum: Vector3<f64> = cq.iter().sum();
        assert!((qself[p] + sum).norm() <= 1e-4 * scale, "q_p of {p}");
        // Linear fields are reproduced with the GPU's L_p too: Σ_b q_b (x_b − x_p)ᵀ = I.
        let m: Matrix3<f64> = nb
            .iter()
            .map(|&b| {
                let q = l_gpu[p] * kernel.gradient(&(x[p] - x[b as usize])) * vol;
                (x[b as usize] - x[p]) * q.transpose()
            })
            .sum();
        assert!(
            (m - Matrix3::identity()).norm() < 1e-4,
            "Σ (x_b − x_p) q_bᵀ of {p}: {m}"
        );
        if nb.len() < 20 {
            checked_surface += 1;
        }
    }
    assert!(
        checked_surface > 50,
        "the block has free-surface particles ({checked_surface})"
    );
}

/// Both paths after `steps` steps.
struct Compared {
    /// max |x_gpu − x_cpu| (m).
    dx: f64,
    /// max |v_gpu − v_cpu| (m/s).
    dv: f64,
    /// max ‖F_gpu − F_cpu‖.
    df: f64,
    /// max |x_cpu| (m).
    x_max: f64,
    /// max |v_cpu| (m/s).
    v_max: f64,
    /// max |x_cpu − x⁰| (m).
    moved: f64,
    /// max |v_cpu − v_free|: how much the constraints changed the velocities in the last step
    /// (v_free = v⁰ + Δt g without constraints), i.e. what the comparison is sensitive to.
    dv_constraints: f64,
}

fn compare_runs(ctx: Arc<GpuContext>, mut scene: ContinuumScene<3>, steps: usize) -> Compared {
    let x0 = scene.positions().to_vec();
    let desc = XpbiGpuScene::from_cpu(&scene).unwrap();
    let mut gpu = GpuXpbi::new(ctx, &desc).unwrap();
    let g = scene.sim.settings().gravity;
    let mut dv_constraints = 0.0;
    for _ in 0..steps {
        let v_free: Vec<Vector3<f64>> = scene
            .sim
            .particles()
            .v
            .iter()
            .map(|v| v + g * scene.options.dt)
            .collect();
        scene.step().unwrap();
        gpu.step(scene.options.dt).unwrap();
        dv_constraints = max_diff(&v_free, &scene.sim.particles().v);
    }
    let xg = gpu.positions().unwrap();
    let vg = gpu.velocities().unwrap();
    let fg = gpu.deformation_gradients().unwrap();
    let p = scene.sim.particles();
    Compared {
        dx: max_diff(&xg, &p.x),
        dv: max_diff(&vg, &p.v),
        df: fg
            .iter()
            .zip(scene.continuum().deformation_gradients())
            .map(|(a, b)| (a - b).norm())
            .fold(0.0, f64::max),
        x_max: p.x.iter().map(|x| x.norm()).fold(0.0, f64::max),
        v_max: p.v.iter().map(|v| v.norm()).fold(0.0, f64::max),
        moved: max_diff(&p.x, &x0),
        dv_constraints,
    }
}

fn with_shear(mut scene: ContinuumScene<3>, rate: f64) -> ContinuumScene<3> {
    // v = A x with a shear + stretch rate (1/s), so every constraint is active in step 1.
    let a = Matrix3::new(0.5, 1.0, 0.0, 0.0, -0.3, 0.2, 0.1, 0.0, 0.2) * rate;
    let p = scene.sim.particles_mut();
    for i in 0..p.len() {
        p.v[i] = a * p.x[i];
    }
    scene
}

/// ulp of an f32 near `x` (for |x| ≥ 2⁻¹²⁶).
fn ulp32(x: f64) -> f64 {
    let x = x.abs() as f32;
    (f32::from_bits(x.to_bits() + 1) - x) as f64
}

/// One step of every material from a sheared state (512 particles, 10 Jacobi iterations).
///
/// Tolerances (f32 against f64):
/// * positions: x is uploaded rounded to f32 (½ ulp) and rebuilt as xⁿ + u (½ ulp): 4 ulp(|x|max).
/// * F: the f32 SVD is accurate to ~4 ε‖F‖ (svd.rs), the return map adds a few ε: 1e-5 (≈ 84 ε).
/// * velocities: v = u/Δt keeps ε relative accuracy, but the constraint sees the strain
///   increment Δt‖∇v‖ ≈ 4e-4 through an f32 SVD of F_tr with absolute error ~4ε ≈ 5e-7, a
///   relative error ≈ 1.2e-3 of the constraint value and gradient, hence of the constraint's
///   velocity change: |Δv| ≤ 5e-3 · max|v_cpu − v_free| + 1e-5 · |v|max.
#[test]
fn one_step_matches_the_cpu() {
    let Some(ctx) = ctx("xpbi one step") else {
        return;
    };
    let dx = 0.01;
    let x = block(8, 8, 8, dx, 11);
    let keep: fn(&mut SceneOptions) = |_| {};
    let semi_implicit: fn(&mut SceneOptions) = |o| o.plasticity_in_loop = false;
    let variants: fn(&mut SceneOptions) = |o| {
        o.xsph = xpbi_continuum::xsph::Xsph::OFF;
        o.velocity_damping = 2.0;
        o.solver = SolverKind::Jacobi {
            omega: 0.1,
            averaged: false,
        };
    };
    for (name, material, tweak) in [
        ("elastic", Material::elastic(1000.0, 1e5, 0.3), keep),
        ("sand (Drucker-Prager)", Material::sand(), keep),
        ("snow (NACC)", Material::snow(), keep),
        (
            "toothpaste (Herschel-Bulkley h = 0.5)",
            Material::toothpaste(),
            keep,
        ),
        ("honey (Bingham)", Material::honey(), keep),
        ("metal (von Mises, hardening)", Material::metal(), keep),
        (
            "sand, semi-implicit plasticity",
            Material::sand(),
            semi_implicit,
        ),
        (
            "elastic, no XSPH, damping 2/s, plain Jacobi ω = 0.1",
            Material::elastic(1000.0, 1e5, 0.3),
            variants,
        ),
    ] {
        let mut o = SceneOptions::new(dx);
        o.solver = SolverKind::JACOBI;
        o.iterations = 10;
        tweak(&mut o);
        let scene = with_shear(ContinuumScene::new(&x, material, o).unwrap(), 2.0);
        let c = compare_runs(ctx.clone(), scene, 1);
        eprintln!(
            "{name}: |Δx| {:.2e} |Δv| {:.2e} |ΔF| {:.2e}; constraints changed v by {:.2e}, |v|max {:.2e}",
            c.dx, c.dv, c.df, c.dv_constraints, c.v_max
        );
        assert!(c.dx <= 4.0 * ulp32(c.x_max), "{name}: positions {:e}", c.dx);
        assert!(c.df <= 1e-5, "{name}: F {:e}", c.df);
        let tol_v = 5e-3 * c.dv_constraints + 1e-5 * c.v_max;
        assert!(c.dv <= tol_v, "{name}: velocities {:e} > {tol_v:e}", c.dv);
        // The comparison is sensitive: the constraints changed the velocities by much more.
        assert!(
            c.dv_constraints > 100.0 * c.dv,
            "{name}: constraints inactive?"
        );
    }
}

/// A sand column (768 particles) and an elastic block (216) hitting the ground at 0.5 m/s
/// with a sideways 0.2 m/s (ground friction 0.5 stops the sliding), 100 steps = 10 ms with 10
/// Jacobi iterations: trajectories agree.
///
/// Bound: per step the paths differ by the one-step error above (≤ 1e-8 m in x, ~1e-3 of the
/// constraint's velocity change); over 100 steps of an impact these add up (and are amplified
/// by the contact and plasticity branch decisions of particles near a switch), measured up to
/// the figures printed by the test (measured at 1280/512 particles and 150 steps: |Δx| ≤ 9e-7 m
/// for 9e-3 m of motion, |Δv| ≤ 6e-4 m/s for |v| ≤ 0.76 m/s, ‖ΔF‖ ≤ 6e-5). The bounds (1e-3 ×
/// the motion, 5e-3 |v|max, ‖ΔF‖ ≤ 5e-4) are ~7-10× those figures and far below the motion.
#[test]
fn short_sand_and_elastic_runs_match_the_cpu() {
    let Some(ctx) = ctx("xpbi short runs") else {
        return;
    };
    let dx = 0.01;
    for (name, material, x, steps) in [
        ("sand column", Material::sand(), block(8, 8, 12, dx, 3), 100),
        (
            "elastic block",
            Material::elastic(1000.0, 2e5, 0.3),
            block(6, 6, 6, dx, 5),
            100,
        ),
    ] {
        let mut scene = jacobi_scene(&x, material, dx);
        for v in scene.sim.particles_mut().v.iter_mut() {
            *v = Vector3::new(0.2, 0.0, -0.5);
        }
        let c = compare_runs(ctx.clone(), scene, steps);
        eprintln!(
            "{name}: after {steps} steps |Δx| {:.2e} |Δv| {:.2e} |ΔF| {:.2e}, moved {:.2e} m, |v|max {:.2e}",
            c.dx, c.dv, c.df, c.moved, c.v_max
        );
        assert!(c.moved > 1e-3, "{name}: the scene moved ({:e})", c.moved);
        assert!(c.dx <= 1e-3 * c.moved, "{name}: positions {:e}", c.dx);
        assert!(c.dv <= 5e-3 * c.v_max, "{name}: velocities {:e}", c.dv);
        assert!(c.df <= 5e-4, "{name}: F {:e}", c.df);
    }
}

/// A sand block (216 particles) pushed at 0.3 m/s against a sphere, a tilted box and a tilted
/// capsule (static μ_s = 0.4, kinetic μ_k = 0.3), placed 0.5 mm from the nearest particle:
/// 60 steps of 1e-4 s with 10 Jacobi iterations, GPU against CPU, with the bounds of
/// [`short_sand_and_elastic_runs_match_the_cpu`] (the same f32 error per step, the same
/// amplification by branch decisions). The comparison is sensitive: particles end touching
/// the shape (φ − r below 0.1Δx: 4 on the sphere, 6 on the box, 2 on the tilted capsule), and
/// the CPU run without the obstacle ends more than 100× the GPU–CPU difference away (measured:
/// |Δx| ≤ 6.2e-8 m against 3.6e-4 to 8.2e-4 m).
#[test]
fn spheres_boxes_and_capsules_match_the_cpu() {
    use xpbd_core::contact::{Collider, Friction, Pose, Shape};
    let Some(ctx) = ctx("xpbi colliders") else {
        return;
    };
    let dx = 0.01;
    let x = block(6, 6, 6, dx, 13);
    let rot_z = |deg: f64| {
        *nalgebra::Rotation3::from_axis_angle(&Vector3::z_axis(), deg.to_radians()).matrix()
    };
    let tilt = |deg: f64| {
        *nalgebra::Rotation3::from_axis_angle(&Vector3::x_axis(), deg.to_radians()).matrix()
    };
    for (name, shape, rotation) in [
        (
            "sphere",
            Shape::Sphere { radius: 0.02 },
            Matrix3::identity(),
        ),
        (
            "box",
            Shape::Box {
                half_extents: Vector3::new(0.01, 0.05, 0.05),
            },
            rot_z(15.0) * tilt(10.0),
        ),
        (
            "capsule",
            Shape::Capsule {
                half_length: 0.04,
                radius: 0.01,
            },
            rot_z(80.0) * tilt(20.0),
        ),
    ] {
        let scene_with = |obstacle: bool| {
            let mut scene = jacobi_scene(&x, Material::sand(), dx);
            let r = scene.collider_contacts().radius();
            // Centre on the +x side, moved so that the nearest particle is 0.5 mm away.
            let mut pose = Pose {
                translation: Vector3::new(0.1, 0.03, 0.03),
                rotation,
            };
            let gap = x
                .iter()
                .map(|p| shape.signed_distance(&pose, p).0 - r)
                .fold(f64::INFINITY, f64::min);
            pose.translation.x -= gap - 5e-4;
            if obstacle {
                let c = Collider::fixed(shape.clone())
                    .at(pose)
                    .with_friction(Friction::new(0.4, 0.3).unwrap());
                scene.add_collider(c).unwrap();
            }
            for v in scene.sim.particles_mut().v.iter_mut() {
                *v = Vector3::new(0.3, 0.0, 0.0);
            }
            (scene, pose, r)
        };
        let (mut cpu, pose, r) = scene_with(true);
        let steps = 60;
        let c = compare_runs(ctx.clone(), scene_with(true).0, steps);
        let mut free = scene_with(false).0;
        for _ in 0..steps {
            cpu.step().unwrap();
            free.step().unwrap();
        }
        let touching = cpu
            .positions()
            .iter()
            .filter(|p| shape.signed_distance(&pose, p).0 - r < 0.1 * dx)
            .count();
        let pushed = max_diff(cpu.positions(), free.positions());
        eprintln!(
            "{name}: |Δx| {:.2e} |Δv| {:.2e} |ΔF| {:.2e}, moved {:.2e} m, {touching} touching, \
             the obstacle moved particles by {pushed:.2e} m",
            c.dx, c.dv, c.df, c.moved
        );
        assert!(touching >= 2, "{name}: only {touching} particles touch");
        assert!(
            pushed > 100.0 * c.dx,
            "{name}: obstacle effect {pushed:e} vs {:e}",
            c.dx
        );
        assert!(c.dx <= 1e-3 * c.moved, "{name}: positions {:e}", c.dx);
        assert!(c.dv <= 5e-3 * c.v_max, "{name}: velocities {:e}", c.dv);
        assert!(c.df <= 5e-4, "{name}: F {:e}", c.df);
    }
}

/// A kinematic box (μ_s = 0.4, μ_k = 0.3) moving at 0.5 m/s pushes a resting sand block
/// (216 particles) along the ground: 100 steps of 1e-4 s, GPU against CPU. Velocities within
/// 5e-3 |v|max as [`short_sand_and_elastic_runs_match_the_cpu`]; positions within 3e-3 of
/// the motion (measured 6e-4: every particle the advancing face reaches switches its contact
/// on in some step, a branch decision f32 and f64 may take one step apart, where the
/// free-falling runs of that test see a single impact). The box advances by v Δt per step on both
/// (the device's copy ends where the CPU's collider is), and the comparison is sensitive: the
/// run with the box held still ends more than 100× the GPU–CPU difference away.
#[test]
fn a_moving_box_pushes_sand_as_on_the_cpu() {
    use xpbd_core::contact::{Collider, Friction, Pose, Shape};
    let Some(ctx) = ctx("xpbi moving collider") else {
        return;
    };
    let dx = 0.01;
    let x = block(6, 6, 6, dx, 17);
    let shape = Shape::Box {
        half_extents: Vector3::new(0.01, 0.05, 0.05),
    };
    let scene_with = |speed: f64| {
        let mut scene = jacobi_scene(&x, Material::sand(), dx);
        let r = scene.collider_contacts().radius();
        // On the −x side, the nearest particle 0.5 mm from the face.
        let mut pose = Pose::from_translation(Vector3::new(-0.05, 0.03, 0.045));
        let gap = x
            .iter()
            .map(|p| shape.signed_distance(&pose, p).0 - r)
            .fold(f64::INFINITY, f64::min);
        pose.translation.x += gap - 5e-4;
        let c = Collider::fixed(shape.clone())
            .at(pose)
            .moving_at(Vector3::new(speed, 0.0, 0.0))
            .with_friction(Friction::new(0.4, 0.3).unwrap());
        scene.add_collider(c).unwrap();
        (scene, pose)
    };
    let steps = 100;
    let (scene, pose) = scene_with(0.5);
    let desc = XpbiGpuScene::from_cpu(&scene).unwrap();
    let mut gpu = GpuXpbi::new(ctx, &desc).unwrap();
    let (mut cpu, mut still) = (scene, scene_with(0.0).0);
    let x0 = cpu.positions().to_vec();
    for _ in 0..steps {
        cpu.step().unwrap();
        gpu.step(1e-4).unwrap();
        still.step().unwrap();
    }
    let p = cpu.sim.particles();
    let xg = gpu.positions().unwrap();
    let vg = gpu.velocities().unwrap();
    let (dx_, dv) = (max_diff(&xg, &p.x), max_diff(&vg, &p.v));
    let moved = max_diff(&p.x, &x0);
    let v_max = p.v.iter().map(|v| v.norm()).fold(0.0, f64::max);
    let pushed = max_diff(&p.x, still.positions());
    let cpu_box = cpu
        .collider_contacts()
        .colliders()
        .last()
        .unwrap()
        .pose
        .translation;
    let gpu_box = match gpu.colliders().last().unwrap().shape.clone() {
        xpbd_gpu::testing::SceneCollider::Box { centre, .. } => centre,
        other => panic!("{other:?}"),
    };
    eprintln!(
        "moving box, {steps} steps: |Δx| {dx_:.2e} |Δv| {dv:.2e}, moved {moved:.2e} m, the box \
         at rest ends {pushed:.2e} m away; box at {:.6} (GPU) / {:.6} (CPU) from {:.6}",
        gpu_box.x, cpu_box.x, pose.translation.x
    );
    assert!((cpu_box.x - pose.translation.x - 0.5 * 1e-4 * steps as f64).abs() < 1e-12);
    assert!(
        (gpu_box - cpu_box).norm() < 1e-12,
        "{gpu_box:?} vs {cpu_box:?}"
    );
    assert!(moved > 1e-3, "the box pushed the sand ({moved:e})");
    assert!(
        pushed > 100.0 * dx_,
        "motion matters: {pushed:e} vs {dx_:e}"
    );
    assert!(dx_ <= 3e-3 * moved, "positions {dx_:e}");
    assert!(dv <= 5e-3 * v_max, "velocities {dv:e}");
}

/// Restitution: an elastic block (216 particles) hits an elastic ground (e = 0.8, μ = 0.5) at
/// 1 m/s; 100 steps of 1e-4 s, GPU against CPU, within the bounds of
/// [`short_sand_and_elastic_runs_match_the_cpu`]. The comparison is sensitive: on the
/// inelastic ground (e = 0) the velocities end more than 100× the GPU–CPU difference away.
#[test]
fn restitution_matches_the_cpu() {
    use xpbd_core::contact::{Collider, Friction, Shape};
    let Some(ctx) = ctx("xpbi restitution") else {
        return;
    };
    let dx = 0.01;
    let x = block(6, 6, 6, dx, 19);
    let scene_with = |e: f64| {
        let mut o = SceneOptions::new(dx);
        o.solver = SolverKind::JACOBI;
        o.iterations = 10;
        o.ground = false;
        let mut scene = ContinuumScene::new(&x, Material::elastic(1000.0, 2e5, 0.3), o).unwrap();
        let ground = Collider::fixed(Shape::HalfSpace {
            normal: Vector3::z(),
            offset: 0.0,
        })
        .with_friction(Friction::coulomb(0.5).unwrap())
        .with_restitution(e);
        scene.add_collider(ground).unwrap();
        for v in scene.sim.particles_mut().v.iter_mut() {
            *v = Vector3::new(0.1, 0.0, -1.0);
        }
        scene
    };
    let c = compare_runs(ctx, scene_with(0.8), 100);
    let (mut bouncy, mut dead) = (scene_with(0.8), scene_with(0.0));
    for _ in 0..100 {
        bouncy.step().unwrap();
        dead.step().unwrap();
    }
    let bounce = max_diff(&bouncy.sim.particles().v, &dead.sim.particles().v);
    eprintln!(
        "restitution 0.8, 100 steps: |Δx| {:.2e} |Δv| {:.2e} |ΔF| {:.2e}, moved {:.2e} m; \
         the inelastic ground changes v by {bounce:.2e} m/s",
        c.dx, c.dv, c.df, c.moved
    );
    assert!(
        bounce > 100.0 * c.dv,
        "restitution acts: {bounce:e} vs {:e}",
        c.dv
    );
    assert!(c.dx <= 1e-3 * c.moved, "positions {:e}", c.dx);
    assert!(c.dv <= 5e-3 * c.v_max, "velocities {:e}", c.dv);
    assert!(c.df <= 5e-4, "F {:e}", c.df);
}

/// Two fresh uploads of the same scene give bit-identical states after 20 steps, for the
/// Jacobi and the coloured sweep (gather sums in a fixed order, one thread per cell in the
/// coloured sweep, integer atomics only for the grid and statistics).
#[test]
fn gpu_runs_are_bit_identical() {
    let Some(ctx) = ctx("xpbi bit identity") else {
        return;
    };
    let dx = 0.01;
    let scene = with_shear(
        jacobi_scene(&block(6, 6, 8, dx, 9), Material::sand(), dx),
        2.0,
    );
    for solver in [SolverKind::JACOBI, SolverKind::Coloured] {
        let mut desc = XpbiGpuScene::from_cpu(&scene).unwrap();
        desc.solver = solver;
        let run = || {
            let mut g = GpuXpbi::new(ctx.clone(), &desc).unwrap();
            for _ in 0..20 {
                g.step(1e-4).unwrap();
            }
            g.state_bytes().unwrap()
        };
        let a = run();
        let b = run();
        assert_eq!(a.len(), b.len());
        assert!(a == b, "GPU XPBI runs differ ({})", solver.short_name());
        // ... and the state did change.
        let g0 = GpuXpbi::new(ctx.clone(), &desc)
            .unwrap()
            .state_bytes()
            .unwrap();
        assert!(a != g0);
    }
}

/// Download / upload round trip (a checkpoint): 10 steps, download x, v, F and the plastic
/// states, upload them into a fresh `GpuXpbi`, 10 more steps on both: bit-identical (f32 → f64
/// → f32 is exact). A bad upload is a typed error and writes nothing.
#[test]
fn download_upload_round_trip_continues_bit_identically() {
    let Some(ctx) = ctx("xpbi checkpoint") else {
        return;
    };
    let dx = 0.01;
    let scene = with_shear(
        jacobi_scene(&block(6, 6, 8, dx, 13), Material::snow(), dx),
        2.0,
    );
    let desc = XpbiGpuScene::from_cpu(&scene).unwrap();
    let mut a = GpuXpbi::new(ctx.clone(), &desc).unwrap();
    for _ in 0..10 {
        a.step(1e-4).unwrap();
    }
    let (x, v, f, st) = (
        a.positions().unwrap(),
        a.velocities().unwrap(),
        a.deformation_gradients().unwrap(),
        a.plastic_states().unwrap(),
    );
    assert!(st.iter().any(|s| s[0] != 0.0), "snow hardened somewhere");
    let mut b = GpuXpbi::new(ctx.clone(), &desc).unwrap();
    b.upload_state(&x, &v, &f, &st).unwrap();
    assert_eq!(a.state_bytes().unwrap(), b.state_bytes().unwrap());
    for _ in 0..10 {
        a.step(1e-4).unwrap();
        b.step(1e-4).unwrap();
    }
    assert!(a.state_bytes().unwrap() == b.state_bytes().unwrap());
    let before = b.state_bytes().unwrap();
    let mut bad_x = x.clone();
    bad_x[5].y = f64::INFINITY;
    assert!(matches!(
        b.upload_state(&bad_x, &v, &f, &st),
        Err(GpuError::Build(xpbd_core::BuildError::NonFiniteState {
            particle: 5,
            ..
        }))
    ));
    assert!(matches!(
        b.upload_state(&x[1..], &v, &f, &st),
        Err(GpuError::Build(_))
    ));
    assert_eq!(b.state_bytes().unwrap(), before);
}

#[test]
fn bad_input_and_unsupported_features_are_typed_errors() {
    let Some(ctx) = ctx("xpbi errors") else {
        return;
    };
    let dx = 0.01;
    let x = block(4, 4, 4, dx, 1);
    // Sequential Gauss-Seidel is not ported (coloured and Jacobi are).
    let mut o = SceneOptions::new(dx);
    o.solver = SolverKind::GaussSeidel;
    let gs = ContinuumScene::new(&x, Material::sand(), o).unwrap();
    let desc = XpbiGpuScene::from_cpu(&gs).unwrap();
    assert!(matches!(
        GpuXpbi::new(ctx.clone(), &desc),
        Err(GpuError::Unsupported { .. })
    ));
    // A target pose (an animated collider) is not ported (constant velocities are).
    let mut with_ball = jacobi_scene(&x, Material::sand(), dx);
    let id = with_ball
        .add_collider(xpbd_core::contact::Collider::fixed(
            xpbd_core::contact::Shape::Sphere { radius: 0.01 },
        ))
        .unwrap();
    let handle = with_ball.colliders;
    with_ball
        .sim
        .block_mut(handle)
        .kind
        .set_target_pose(
            id,
            xpbd_core::contact::Pose::from_translation(Vector3::new(0.0, 0.0, 1.0)),
        )
        .unwrap();
    assert!(matches!(
        XpbiGpuScene::from_cpu(&with_ball),
        Err(GpuError::Unsupported { .. })
    ));
    let scene = jacobi_scene(&x, Material::sand(), dx);
    let good = XpbiGpuScene::from_cpu(&scene).unwrap();
    // Non-finite position.
    let mut bad = good.clone();
    bad.positions[3].x = f64::NAN;
    assert!(matches!(
        GpuXpbi::new(ctx.clone(), &bad),
        Err(GpuError::Build(xpbd_core::BuildError::NonFiniteState {
            particle: 3,
            ..
        }))
    ));
    // Zero rest volume, ω out of range, too many colliders.
    let mut bad = good.clone();
    bad.rest_volume[0] = 0.0;
    assert!(matches!(
        GpuXpbi::new(ctx.clone(), &bad),
        Err(GpuError::Build(_))
    ));
    let mut bad = good.clone();
    bad.solver = SolverKind::Jacobi {
        omega: 3.0,
        averaged: true,
    };
    assert!(matches!(
        GpuXpbi::new(ctx.clone(), &bad),
        Err(GpuError::Build(_))
    ));
    let mut bad = good.clone();
    bad.colliders = vec![bad.colliders[0].clone(); 9];
    assert!(matches!(
        GpuXpbi::new(ctx.clone(), &bad),
        Err(GpuError::Unsupported { .. })
    ));
    // A friction angle outside (0°, 90°) is the CPU's typed error.
    let mut bad = good.clone();
    bad.materials = vec![Material::sand_with_friction(95.0)];
    assert!(matches!(
        GpuXpbi::new(ctx.clone(), &bad),
        Err(GpuError::Xpbi(_))
    ));
    // Δt over the CFL bound 0.4 H / max|v| (H = 0.02 m, |v| = 10 m/s → 8e-4 s): refused
    // before the step, the state is unchanged.
    let mut fast = good.clone();
    fast.velocities
        .iter_mut()
        .for_each(|v| *v = Vector3::new(10.0, 0.0, 0.0));
    let mut g = GpuXpbi::new(ctx.clone(), &fast).unwrap();
    let before = g.state_bytes().unwrap();
    assert!(matches!(
        g.step(1e-3),
        Err(GpuError::Xpbi(
            xpbi_continuum::XpbiError::TimeStepOverCfl { .. }
        ))
    ));
    assert_eq!(g.state_bytes().unwrap(), before);
    g.step(1e-4).unwrap();
    assert!(matches!(g.step(-1.0), Err(GpuError::Step(_))));
    // Finite in f64 but beyond f32: refused at upload, not silently uploaded as ∞.
    let mut bad = good.clone();
    bad.inv_mass[2] = 1e300;
    assert!(matches!(
        GpuXpbi::new(ctx.clone(), &bad),
        Err(GpuError::Build(_))
    ));
    // A state that overflows f32 on the device is reported before the next step (here: a
    // gravity of 3e38 m/s² makes the displacements and the SVD overflow).
    let mut blow = good.clone();
    blow.gravity = Vector3::new(0.0, 0.0, -3e38);
    let mut g = GpuXpbi::new(ctx.clone(), &blow).unwrap();
    g.step(1e-4).unwrap();
    let e = g.step(1e-4).unwrap_err();
    assert!(
        matches!(e, GpuError::NonFiniteState { steps: 1, .. }),
        "{e}"
    );
}

/// The coloured Gauss-Seidel sweep (3³ cell colours, cell = H, particles of a cell in index
/// order, as the CPU's `SolverKind::Coloured` schedule of the XPBI block) against the CPU:
/// one step from a sheared state and 100 steps of an impact. The XPBI and contact sweeps run in
/// the CPU's order, so the tolerances of the Jacobi tests apply. Position-correction pairs are
/// swept by the same H-cell colouring (the CPU colours them on a Δx grid: another order), which
/// matters only when a pair is active (closer than 0.75 Δx); the agreement within the Jacobi
/// bounds shows it does not change the result of these scenes.
#[test]
fn coloured_gauss_seidel_matches_the_cpu() {
    let Some(ctx) = ctx("xpbi coloured") else {
        return;
    };
    let dx = 0.01;
    let coloured = |x: &[Vector3<f64>], m: Material| {
        let mut o = SceneOptions::new(dx);
        o.solver = SolverKind::Coloured;
        o.iterations = 10;
        ContinuumScene::new(x, m, o).expect("CPU scene")
    };
    let x = block(8, 8, 8, dx, 21);
    for (name, m) in [
        ("elastic", Material::elastic(1000.0, 1e5, 0.3)),
        ("sand", Material::sand()),
    ] {
        let c = compare_runs(ctx.clone(), with_shear(coloured(&x, m), 2.0), 1);
        eprintln!(
            "coloured {name}, one step: |Δx| {:.2e} |Δv| {:.2e} |ΔF| {:.2e}; constraints changed v by {:.2e}",
            c.dx, c.dv, c.df, c.dv_constraints
        );
        assert!(c.dx <= 4.0 * ulp32(c.x_max), "{name}: positions {:e}", c.dx);
        assert!(c.df <= 1e-5, "{name}: F {:e}", c.df);
        assert!(
            c.dv <= 5e-3 * c.dv_constraints + 1e-5 * c.v_max,
            "{name}: velocities {:e}",
            c.dv
        );
        assert!(
            c.dv_constraints > 100.0 * c.dv,
            "{name}: constraints inactive?"
        );
    }
    let mut scene = coloured(&block(6, 6, 10, dx, 23), Material::sand());
    for v in scene.sim.particles_mut().v.iter_mut() {
        *v = Vector3::new(0.2, 0.0, -0.5);
    }
    let c = compare_runs(ctx.clone(), scene, 100);
    eprintln!(
        "coloured sand impact, 100 steps: |Δx| {:.2e} |Δv| {:.2e} |ΔF| {:.2e}, moved {:.2e} m, |v|max {:.2e}",
        c.dx, c.dv, c.df, c.moved, c.v_max
    );
    assert!(c.moved > 1e-3);
    assert!(c.dx <= 1e-3 * c.moved, "positions {:e}", c.dx);
    assert!(c.dv <= 5e-3 * c.v_max, "velocities {:e}", c.dv);
    assert!(c.df <= 5e-4, "F {:e}", c.df);
}

/// Heavy: a sand column (10 × 10 × 20 particles, Δx = 1 cm, φ = 30°) collapsing for 0.1 s
/// (1000 steps, coloured Gauss-Seidel on both paths): the pile observables of the GPU run agree
/// with the CPU's — height (99th percentile) and runout (95th percentile) within 1 % of the
/// column height, nearest-neighbour mean and std within 0.01 Δx. Over this many steps
/// trajectories of individual grains may part (plasticity and contact branch decisions amplify
/// f32 rounding), so the bounds are on the observables, which are what the physics fixes.
///
/// Measured (2026-11-30, lavapipe, load ~6 on 2 cores): CPU 44.5 s, GPU 163.8 s (the coloured
/// sweep is ~560 dispatches per step, dispatch-bound on lavapipe); both give height 0.1480 m,
/// runout 0.0700 m, nn 0.8379 ± 0.0875 Δx (min 0.750: the position correction is active), max
/// |Δx| between the runs 3.5e-5 m.
///
/// `WGPU_BACKEND=vulkan XPBD_REQUIRE_GPU=1 cargo test -p xpbd-gpu --test xpbi -- --ignored`
#[test]
#[ignore = "heavy (3.5 min on a loaded 2-core machine with lavapipe): sand column collapse, GPU vs CPU observables; run with `cargo test -p xpbd-gpu --test xpbi -- --ignored`"]
fn sand_column_collapse_observables_match_the_cpu() {
    let Some(ctx) = ctx("xpbi sand column observables") else {
        return;
    };
    let dx = 0.01;
    let mut o = SceneOptions::new(dx);
    o.solver = SolverKind::Coloured;
    let x: Vec<Vector3<f64>> = block(10, 10, 20, dx, 31)
        .into_iter()
        .map(|p| p - Vector3::new(0.05, 0.05, 0.0))
        .collect();
    let mut scene = ContinuumScene::new(&x, Material::sand(), o).unwrap();
    let mut gpu = GpuXpbi::new(ctx, &XpbiGpuScene::from_cpu(&scene).unwrap()).unwrap();
    let t0 = std::time::Instant::now();
    for _ in 0..1000 {
        scene.step().unwrap();
    }
    let t_cpu = t0.elapsed().as_secs_f64();
    let t0 = std::time::Instant::now();
    for _ in 0..1000 {
        gpu.step(1e-4).unwrap();
    }
    let xg = gpu.positions().unwrap();
    let t_gpu = t0.elapsed().as_secs_f64();
    let obs = |x: &[Vector3<f64>]| {
        xpbi_validation::observables::pile_observables(x, &Vector3::zeros(), dx)
    };
    let (c, g) = (obs(scene.positions()), obs(&xg));
    eprintln!(
        "CPU {t_cpu:.1} s: height {:.4} runout {:.4} nn {:.4}±{:.4} (min {:.3}); GPU {t_gpu:.1} s: height {:.4} runout {:.4} nn {:.4}±{:.4} (min {:.3}); max |Δx| {:.2e} m",
        c.height,
        c.runout,
        c.nn_mean,
        c.nn_std,
        c.nn_min,
        g.height,
        g.runout,
        g.nn_mean,
        g.nn_std,
        g.nn_min,
        max_diff(&xg, scene.positions())
    );
    // The column has collapsed (it started 0.2 m tall).
    assert!(c.height < 0.195, "CPU height {}", c.height);
    assert!((g.height - c.height).abs() < 0.01 * 0.2, "height");
    assert!((g.runout - c.runout).abs() < 0.01 * 0.2, "runout");
    assert!((g.nn_mean - c.nn_mean).abs() < 0.01, "nn mean");
    assert!((g.nn_std - c.nn_std).abs() < 0.01, "nn std");
}

/// Settings whose model the GPU XPBI step does not have are refused by name when the
/// description is taken or checked, never simulated as something else: Lagrangian kernels,
/// the split constraint form, warm-started multipliers and diagnostics (no device needed).
#[test]
fn settings_the_gpu_does_not_model_are_refused_by_name() {
    use xpbi_continuum::continuum::{ConstraintForm, KernelFrame};
    let dx = 0.01;
    let x = block(3, 3, 3, dx, 2);
    let scene = jacobi_scene(&x, Material::sand(), dx);
    let good = XpbiGpuScene::from_cpu(&scene).unwrap();
    good.validate().unwrap();
    let refused = |r: Result<(), GpuError>, name: &str| match r {
        Err(GpuError::Unsupported { what, .. }) => {
            assert!(what.contains(name), "{what} should name {name}")
        }
        other => panic!("{name}: {other:?}"),
    };
    let mut d = good.clone();
    d.settings.kernel_frame = KernelFrame::Reference;
    refused(d.validate(), "kernel_frame");
    let mut d = good.clone();
    d.settings.constraint_form = ConstraintForm::Split;
    refused(d.validate(), "constraint_form");
    for (edit, name) in [
        (
            (|s: &mut xpbd_core::SolverSettings<3>| s.multiplier_warm_start = Some(0.1))
                as fn(&mut xpbd_core::SolverSettings<3>),
            "multiplier_warm_start",
        ),
        (|s| s.diagnostics.residuals = true, "diagnostics.residuals"),
    ] {
        let mut cpu = jacobi_scene(&x, Material::sand(), dx);
        let mut s = cpu.sim.settings().clone();
        edit(&mut s);
        cpu.sim.set_settings(s).unwrap();
        refused(XpbiGpuScene::from_cpu(&cpu).map(|_| ()), name);
    }
}

/// A kinematic particle (inverse mass 0) moves by its displacement every step, with velocity
/// u/Δt, as the CPU moves a particle to its kinematic target; making a free particle kinematic
/// is refused by name.
#[test]
fn kinematic_particles_move_by_their_displacement_and_free_ones_are_refused() {
    let Some(ctx) = ctx("xpbi kinematic") else {
        return;
    };
    let dx = 0.01;
    let x = block(4, 4, 4, dx, 2);
    let mut scene = jacobi_scene(&x, Material::sand(), dx);
    scene.sim.particles_mut().inv_mass[0] = 0.0;
    let desc = XpbiGpuScene::from_cpu(&scene).unwrap();
    let mut gpu = GpuXpbi::new(ctx, &desc).unwrap();
    let (u, dt) = (Vector3::new(2e-5, 0.0, -1e-5), 1e-4);
    gpu.set_kinematic_displacements(&[(0, u)]).unwrap();
    for _ in 0..3 {
        gpu.step(dt).unwrap();
    }
    let moved = gpu.positions().unwrap()[0] - x[0];
    assert!((moved - 3.0 * u).norm() < 1e-7, "moved {moved:?}");
    let v = gpu.velocities().unwrap()[0];
    assert!((v - u / dt).norm() < 1e-3 * (u / dt).norm(), "v = {v:?}");
    let e = gpu.set_kinematic_displacements(&[(1, u)]).unwrap_err();
    assert!(
        matches!(&e, GpuError::Unsupported { what, .. } if what.contains("particle 1")),
        "{e}"
    );
}
