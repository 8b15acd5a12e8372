//! The coupled cloth-and-sand scene (`scenes/sand_hammock.toml`: a ball of 912 sand particles
//! falling into a 24 × 24 cotton hammock, 1 488 particles in all, body contacts between them,
//! 4 substeps × 5 iterations of 1 ms steps) on the CPU (`BuiltScene`, f64, rayon) and on the GPU world (wgpu,
//! f32) from the same description: µs per particle per step and per simulated second on each,
//! and the GPU/CPU throughput ratio, as one JSON line with the adapter named.
//!
//! Both run the scene to the moment the sand lies in the sheet (`XPBD_BENCH_WARMUP` steps,
//! default 150), untimed, then time `XPBD_BENCH_STEPS` steps (default 20), so the contacts
//! between the bodies are active in every timed step. `XPBD_BENCH_SCENE=path.toml` times
//! another scene file. Without an adapter only the CPU figures are printed.
//!
//! `cargo bench -p xpbd-gpu --bench gpu_coupled`.
//!
//! Measured 2026-12-05 on the 2-core CI-class machine with lavapipe (llvmpipe, LLVM 15,
//! Vulkan), which runs the compute shaders on the same two cores: CPU 23.4 µs per particle
//! per step (2 threads), GPU 337.5 µs, GPU/CPU throughput 0.069. A step of this small scene is
//! about 1 500 dispatches (4 substeps of 5 iterations, each 27 colours of position correction
//! and of XPBI constraints beside the cloth's and the contacts' colours) and four host
//! round trips per substep (the continuum's CFL check and neighbour count); lavapipe pays
//! about 0.3 ms per dispatch, so this measures its dispatch cost, not the physics. Real-GPU
//! figures are to be taken on a machine with one.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use xpbd_gpu::{GpuContext, GpuWorld};
use xpbd_scene::{BuiltScene, SceneDesc, build_scene};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn build(path: &PathBuf) -> BuiltScene {
    let text = std::fs::read_to_string(path).expect("scene file");
    build_scene(SceneDesc::parse(&text, path).expect("scene"), path).expect("build")
}

/// Seconds per step over `steps` steps after `warmup` untimed ones.
fn seconds_per_step(mut step: impl FnMut(), warmup: usize, steps: usize) -> f64 {
    for _ in 0..warmup {
        step();
    }
    let t = Instant::now();
    for _ in 0..steps {
        step();
    }
    t.elapsed().as_secs_f64() / steps as f64
}

fn main() {
    let path = std::env::var("XPBD_BENCH_SCENE").map_or_else(
        |_| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../scenes/sand_hammock.toml"
            ))
        },
        PathBuf::from,
    );
    let warmup = env_usize("XPBD_BENCH_WARMUP", 150);
    let steps = env_usize("XPBD_BENCH_STEPS", 20);
    let ctx = match GpuContext::from_env() {
        Ok(c) => Some(Arc::new(c)),
        Err(e) => {
            eprintln!("no GPU: {e}");
            None
        }
    };
    let adapter = ctx.as_ref().map_or("none".to_string(), |c| c.describe());
    let mut cpu = build(&path);
    let particles = cpu.sim.particles().len();
    let dt = cpu.scene.time.dt;
    let name = cpu.scene.name.clone();
    let cpu_s = seconds_per_step(|| cpu.step().expect("CPU step"), warmup, steps);
    let gpu_s = ctx.as_ref().and_then(|ctx| {
        let mut world = match GpuWorld::new(ctx.clone(), build(&path)) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("the GPU world refuses the scene: {e}");
                return None;
            }
        };
        Some(seconds_per_step(
            || world.step().expect("GPU step"),
            warmup,
            steps,
        ))
    });
    let per_particle = |s: f64| s * 1e6 / particles as f64;
    let f = |v: Option<f64>, digits: usize| v.map_or("null".into(), |v| format!("{v:.digits$}"));
    println!(
        "{{\"bench\":\"coupled_scene\",\"scene\":\"{}\",\"particles\":{particles},\"dt_s\":{dt:e},\"warmup_steps\":{warmup},\"timed_steps\":{steps},\"adapter\":\"{}\",\"cpu_threads\":{},\"cpu_us_per_particle_per_step\":{:.4},\"cpu_us_per_particle_per_simulated_s\":{:.1},\"gpu_us_per_particle_per_step\":{},\"gpu_us_per_particle_per_simulated_s\":{},\"gpu_over_cpu\":{}}}",
        name.replace('"', "'"),
        adapter.replace('"', "'"),
        std::thread::available_parallelism().map_or(1, |p| p.get()),
        per_particle(cpu_s),
        per_particle(cpu_s) / dt,
        f(gpu_s.map(per_particle), 4),
        f(gpu_s.map(|s| per_particle(s) / dt), 1),
        f(gpu_s.map(|g| cpu_s / g), 3),
    );
}
