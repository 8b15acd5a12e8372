//! A continuum of several materials (`XpbiContinuum::with_materials`, a layered body) on the
//! GPU: each particle keeps its entry of the material table (up to
//! `xpbd_gpu::MAX_GPU_MATERIALS`), and a larger table is refused with a typed error rather
//! than merged or dropped.
//!
//! Run on lavapipe in CI: `WGPU_BACKEND=vulkan XPBD_REQUIRE_GPU=1 cargo test -p xpbd-gpu --test layers`.

use std::sync::Arc;

use nalgebra::Vector3;
use xpbd_core::SolverKind;
use xpbd_gpu::testing::{GpuXpbi, XpbiGpuScene};
use xpbd_gpu::{GpuContext, GpuError, MAX_GPU_MATERIALS, context_for_test};
use xpbi_continuum::material::Material;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};

fn options(dx: f64) -> SceneOptions {
    let mut o = SceneOptions::new(dx);
    o.solver = SolverKind::JACOBI;
    o.iterations = 10;
    o.dt = 1e-4;
    o
}

fn max_diff(a: &[Vector3<f64>], b: &[Vector3<f64>]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(p, q)| (p - q).norm())
        .fold(0.0, f64::max)
}

/// A 6 × 6 × 9 lattice, jittered by ±5 % Δx (no pair distance at f32 rounding of a radius,
/// as `tests/xpbi.rs`), in three layers by height: sand below, clay in the middle, an elastic
/// solid on top (`ids` of each particle), thrown at the ground at 0.5 m/s with 0.2 m/s sideways.
fn layered(table: Vec<Material>, ids: impl Fn(f64) -> u8) -> ContinuumScene<3> {
    let dx = 0.01;
    let mut s = 7u64;
    let mut r = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % 20001) as f64 / 10000.0 - 1.0
    };
    let x: Vec<Vector3<f64>> = lattice_box(Vector3::zeros(), Vector3::new(0.06, 0.06, 0.09), dx)
        .into_iter()
        .map(|p| p + Vector3::new(r(), r(), 0.5 * (r() + 1.0)) * (0.05 * dx))
        .collect();
    let id: Vec<u8> = x.iter().map(|p| ids(p.z)).collect();
    let mut scene = ContinuumScene::<3>::with_materials(&x, table, id, options(dx)).unwrap();
    for v in scene.sim.particles_mut().v.iter_mut() {
        *v = Vector3::new(0.2, 0.0, -0.5);
    }
    scene
}

fn layer(z: f64) -> u8 {
    u8::from(z > 0.03) + u8::from(z > 0.06)
}

fn table() -> Vec<Material> {
    vec![
        Material::sand(),
        Material::clay(),
        Material::elastic(1500.0, 2e5, 0.3),
    ]
}

/// 100 steps of 1e-4 s (the impact and the sand's spreading), GPU against CPU, with the bounds
/// of `tests/xpbi.rs::short_sand_and_elastic_runs_match_the_cpu` (f32 error per step,
/// amplified by contact and plasticity branch decisions): positions within 1e-3 of the motion,
/// velocities within 5e-3 |v|max, F within 5e-4. The comparison sees the table: the same body
/// all of sand ends farther from the layered one than 100× the GPU–CPU difference.
#[test]
fn a_layered_body_matches_the_cpu() {
    let Some(ctx): Option<Arc<GpuContext>> = context_for_test("xpbi layers")
        .unwrap_or_else(|e| panic!("{e}"))
        .map(Arc::new)
    else {
        return;
    };
    let mut cpu = layered(table(), layer);
    let x0 = cpu.positions().to_vec();
    let desc = XpbiGpuScene::from_cpu(&cpu).unwrap();
    assert_eq!(desc.materials.len(), 3);
    let mut gpu = GpuXpbi::new(ctx, &desc).unwrap();
    let mut sand = layered(vec![Material::sand()], |_| 0);
    let steps = 100;
    for _ in 0..steps {
        cpu.step().unwrap();
        gpu.step(1e-4).unwrap();
        sand.step().unwrap();
    }
    let p = cpu.sim.particles();
    let (xg, vg, fg) = (
        gpu.positions().unwrap(),
        gpu.velocities().unwrap(),
        gpu.deformation_gradients().unwrap(),
    );
    let dx = max_diff(&xg, &p.x);
    let dv = max_diff(&vg, &p.v);
    let df = fg
        .iter()
        .zip(cpu.continuum().deformation_gradients())
        .map(|(a, b)| (a - b).norm())
        .fold(0.0, f64::max);
    let moved = max_diff(&p.x, &x0);
    let v_max = p.v.iter().map(|v| v.norm()).fold(0.0, f64::max);
    let layers_matter = max_diff(&p.x, sand.positions());
    eprintln!(
        "layered body, {steps} steps: |Δx| {dx:.2e} |Δv| {dv:.2e} |ΔF| {df:.2e}, moved {moved:.2e} m, \
         all-sand body {layers_matter:.2e} m away"
    );
    assert!(moved > 1e-3, "the body moved ({moved:e})");
    assert!(dx <= 1e-3 * moved, "positions {dx:e}");
    assert!(dv <= 5e-3 * v_max, "velocities {dv:e}");
    assert!(df <= 5e-4, "F {df:e}");
    assert!(
        layers_matter > 100.0 * dx,
        "the table changes the run: {layers_matter:e}"
    );
    // A re-upload of the downloaded state (a rollback) keeps each particle's material: one
    // more step still matches the CPU.
    let before = dx;
    let st = gpu.plastic_states().unwrap();
    gpu.upload_state(&xg, &vg, &fg, &st).unwrap();
    cpu.step().unwrap();
    gpu.step(1e-4).unwrap();
    let after = max_diff(&gpu.positions().unwrap(), &cpu.sim.particles().x);
    assert!(
        after <= 1e-3 * moved,
        "after a re-upload the GPU is {after:e} m from the CPU ({before:e} m before)"
    );
}

/// A table larger than the GPU's is refused with its size; a table of one is the one-material
/// body. Needs no adapter (the description is built on the CPU).
#[test]
fn more_materials_than_the_gpu_table_holds_are_refused_by_count() {
    let n = MAX_GPU_MATERIALS + 1;
    let many = layered(vec![Material::sand(); n], |z| {
        ((z / 0.09 * n as f64) as usize).min(n - 1) as u8
    });
    let err = XpbiGpuScene::from_cpu(&many).unwrap_err();
    assert_eq!(err, GpuError::SeveralMaterials { materials: n });
    assert!(err.to_string().contains(&format!("{n} materials")), "{err}");
    let one = layered(vec![Material::sand()], |_| 0);
    let desc = XpbiGpuScene::from_cpu(&one).unwrap();
    assert_eq!(desc.materials, vec![Material::sand()]);
    assert!(desc.material_ids.is_empty());
}
