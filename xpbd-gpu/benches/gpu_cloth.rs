//! Cloth 256×256 (65 536 particles, structural + shear springs, two pinned corners):
//! steps per second on the CPU path (xpbd-core, f64, rayon) and on the GPU path (wgpu,
//! f32) measured in the same run, printed as one JSON line per sweep with the adapter
//! name and the GPU/CPU throughput ratio.
//!
//! `cargo bench -p xpbd-gpu --bench gpu_cloth` (`XPBD_BENCH_N=64` for a smaller cloth,
//! `XPBD_BENCH_STEPS` for the number of timed steps). Without an adapter only the CPU
//! figure is printed.

use std::sync::Arc;
use std::time::Instant;

use xpbd_core::builders::ClothGrid;
use xpbd_core::{SolverKind, SolverSettings};
use xpbd_gpu::GpuContext;
use xpbd_gpu::testing::{Scene, SceneBlock, StepBackend};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Steps per second over `steps` steps after one warm-up step (the GPU path includes the
/// per-step fault read-back, i.e. one submit + wait per step).
fn steps_per_second(b: &mut dyn StepBackend, steps: usize) -> f64 {
    let dt = 1.0 / 60.0;
    b.step(dt).expect("warm-up step");
    let t = Instant::now();
    for _ in 0..steps {
        b.step(dt).expect("step");
    }
    steps as f64 / t.elapsed().as_secs_f64()
}

fn main() {
    let n = env_usize("XPBD_BENCH_N", 256);
    let steps = env_usize("XPBD_BENCH_STEPS", 5);
    let cloth = ClothGrid::<3> {
        nx: n,
        ny: n,
        pinned: vec![(0, n - 1), (n - 1, n - 1)],
        stretch_compliance: 1e-8,
        shear_compliance: 1e-7,
        ..ClothGrid::default()
    }
    .build()
    .expect("cloth");
    let constraints = cloth.stretch.pairs.len();
    let ctx = match GpuContext::from_env() {
        Ok(c) => Some(Arc::new(c)),
        Err(e) => {
            eprintln!("no GPU: {e}");
            None
        }
    };
    for solver in [SolverKind::Coloured, SolverKind::JACOBI] {
        let settings = SolverSettings {
            solver,
            ..SolverSettings::default()
        };
        let scene = Scene::new(cloth.particles.clone(), settings)
            .with_block(SceneBlock::Distance(cloth.stretch.clone()));
        let cpu = steps_per_second(&mut scene.cpu().expect("cpu"), steps);
        let (adapter, gpu) = match &ctx {
            Some(ctx) => {
                let mut sim = scene.gpu(ctx.clone()).expect("gpu");
                (ctx.describe(), Some(steps_per_second(&mut sim, steps)))
            }
            None => ("none".to_string(), None),
        };
        let gpu_json = gpu.map_or("null".into(), |g| format!("{g:.3}"));
        let ratio = gpu.map_or("null".into(), |g| format!("{:.3}", g / cpu));
        let per_particle_us = gpu.map_or("null".into(), |g| {
            format!("{:.4}", 1e6 / (g * (n * n) as f64))
        });
        println!(
            "{{\"bench\":\"cloth\",\"nx\":{n},\"ny\":{n},\"particles\":{},\"constraints\":{constraints},\"solver\":\"{}\",\"substeps\":10,\"iterations\":1,\"timed_steps\":{steps},\"adapter\":\"{}\",\"cpu_threads\":{},\"cpu_steps_per_s\":{cpu:.3},\"gpu_steps_per_s\":{gpu_json},\"gpu_over_cpu\":{ratio},\"gpu_us_per_particle_per_frame\":{per_particle_us}}}",
            n * n,
            solver.short_name(),
            adapter.replace('"', "'"),
            std::thread::available_parallelism().map_or(1, |p| p.get()),
        );
    }
}
