//! The GPU XPBI step (`xpbd_gpu::GpuXpbi`, f32) against the CPU path (`xpbi_continuum`,
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
use xpbd_gpu::{GpuContext, GpuError, GpuXpbi, XpbiGpuScene, context_for_test};
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
    a.iter().zip(b).map(|(p, q)| (p - q).norm()).fold(0.0, f64::max)
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
    let (offsets, indices, q, qself) = gpu.frozen_data().unwrap();
    // CPU: the same neighbourhoods and xpbi_continuum's corrected weights (L_p by SVD
    // pseudo-inverse with its threshold 1e-2).
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
        xpbi_continuum::correction::corrected_weights(
            &kernel,
            s.pinv_threshold,
            &x[p],
            nb.iter().map(|&b| (x[b as usize], vol)),
            &mut cq,
        );
        // |q| ~ 1/Δx. f32: M_p sums ~30 terms (≈ 30 ε relative), the pseudo-inverse multiplies
        // that by cond(M_p) ≤ 10 here (free surfaces), so 1e-4 × max|q| (≈ 800 ε) bounds it.
        let scale = cq.iter().map(|v| v.norm()).fold(0.0, f64::max);
        let mut sum = Vector3::zeros();
        for (k, c) in cq.iter().enumerate() {
            let err = (q[row.start + k] - c).norm();
            assert!(err <= 1e-4 * scale, "q of pair ({p}, {}): {err:e} vs |q| {scale:e}", nb[k]);
            sum += c;
        }
        assert!((qself[p] + sum).norm() <= 1e-4 * scale, "q_p of {p}");
        // Linear fields are reproduced on the GPU too: Σ_b q_b (x_b − x_p)ᵀ = I (full rank).
        let m: Matrix3<f64> = nb
            .iter()
            .enumerate()
            .map(|(k, &b)| (x[b as usize] - x[p]) * q[row.start + k].transpose())
            .sum();
        assert!((m - Matrix3::identity()).norm() < 1e-4, "Σ (x_b − x_p) q_bᵀ of {p}: {m}");
        if nb.len() < 20 {
            checked_surface += 1;
        }
    }
    assert!(checked_surface > 50, "the block has free-surface particles ({checked_surface})");
}

/// Runs `steps` steps on both paths and returns (max |Δx|, max |Δv|, max |ΔF|, max |x − x⁰|).
fn compare_runs(
    ctx: Arc<GpuContext>,
    mut scene: ContinuumScene<3>,
    steps: usize,
) -> (f64, f64, f64, f64) {
    let x0 = scene.positions().to_vec();
    let desc = XpbiGpuScene::from_cpu(&scene).unwrap();
    let mut gpu = GpuXpbi::new(ctx, &desc).unwrap();
    for _ in 0..steps {
        scene.step().unwrap();
        gpu.step(scene.options.dt).unwrap();
    }
    let xg = gpu.positions().unwrap();
    let vg = gpu.velocities().unwrap();
    let fg = gpu.deformation_gradients().unwrap();
    let dxm = max_diff(&xg, scene.positions());
    let dvm = max_diff(&vg, &scene.sim.particles().v);
    let dfm = fg
        .iter()
        .zip(scene.continuum().deformation_gradients())
        .map(|(a, b)| (a - b).norm())
        .fold(0.0, f64::max);
    let moved = max_diff(scene.positions(), &x0);
    (dxm, dvm, dfm, moved)
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

#[test]
fn one_step_matches_the_cpu() {
    let Some(ctx) = ctx("xpbi one step") else {
        return;
    };
    let dx = 0.01;
    let x = block(8, 8, 8, dx, 11);
    for (name, material) in [
        ("elastic", Material::elastic(1000.0, 1e5, 0.3)),
        ("sand", Material::sand()),
        ("snow", Material::snow()),
        ("toothpaste", Material::toothpaste()),
        ("metal", Material::metal()),
    ] {
        let scene = with_shear(jacobi_scene(&x, material, dx), 2.0);
        let (dxm, dvm, dfm, moved) = compare_runs(ctx.clone(), scene, 1);
        eprintln!("{name}: one step |Δx| {dxm:e} |Δv| {dvm:e} |ΔF| {dfm:e} (moved {moved:e})");
    }
}
