//! XPBI 3D sand column (the benchmark scene: 0.2 × 0.2 × 0.4 m, ρ = 1600 kg/m³,
//! E = 3.5e5 Pa, ν = 0.3, φ = 30°, ground friction 0.5, Δt = 1e-4 s, 10 iterations, released
//! at rest): steps per second on the CPU path (xpbi-continuum, f64, rayon) and on the GPU path
//! (wgpu, f32) from the same scene, for the Jacobi and the coloured Gauss-Seidel solver, one
//! JSON line per solver with the adapter name, the GPU/CPU throughput ratio, µs per particle
//! per step, the GPU's per-step rebuild time (grid, neighbours, L_p) and what remains of a step
//! per particle per iteration (an upper bound of the constraint solve's share).
//!
//! `cargo bench -p xpbd-gpu --bench gpu_xpbi` (the 1M-particle column, 986 078 particles;
//! `XPBD_BENCH_XPBI_N=100000` for the 100k one, minutes faster on a software adapter), `XPBD_BENCH_STEPS` for the timed steps (default 3, after one
//! warm-up step), `XPBD_BENCH_SOLVERS=jacobi` (or `colored`) for one solver only. Without an
//! adapter only the CPU figures are printed.
//!
//! Measured 2026-11-30 on the 2-core CI-class machine, lavapipe (llvmpipe, LLVM 15, Vulkan), with
//! 5–10 other processes loading it (load average 5–10: every figure is inflated 2–3×, the
//! ratios less so), µs per particle per step (GPU / CPU, ratio GPU/CPU throughput):
//!
//! | particles | solver | GPU | CPU (2 threads) | GPU/CPU | GPU rebuild per step |
//! |---|---|---|---|---|---|
//! | 94 608 | Jacobi | 45.7–86.8 | 12.7–20.5 | 0.24–0.28 | 1.1–1.2 s |
//! | 94 608 | coloured | 49.1–100.5 | 18.4–36.1 | 0.36–0.52 | 1.1–1.2 s |
//! | 986 078 | Jacobi | 58.6 | 12.5 | 0.21 | 8.4 s |
//!
//! Lavapipe runs compute shaders on the same two CPU cores, so these ratios say only that the
//! GPU path works at this scale; real-GPU figures are to be taken on a machine with one.

use std::sync::Arc;
use std::time::Instant;

use xpbd_core::SolverKind;
use xpbd_gpu::GpuContext;
use xpbd_gpu::testing::{GpuXpbi, XpbiGpuScene};
use xpbi_continuum::scene::ContinuumScene;
use xpbi_validation::sand_column::{SandColumnConfig, sand_column_3d_scene};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn scene(n: usize, solver: SolverKind) -> ContinuumScene<3> {
    let mut s = sand_column_3d_scene(&SandColumnConfig {
        threads: 0,
        ..SandColumnConfig::new(n)
    })
    .expect("sand column");
    let mut settings = s.sim.settings().clone();
    settings.solver = solver;
    s.sim.set_settings(settings).expect("settings");
    s.options.solver = solver;
    s
}

/// GPU steps per second (upload, one warm-up step for pipelines and buffer growth, then timed
/// steps ended by a wait for the device) and the mean neighbour count.
fn gpu_steps_per_second(
    ctx: &Arc<GpuContext>,
    s: &ContinuumScene<3>,
    steps: usize,
) -> Option<GpuFigures> {
    let desc = XpbiGpuScene::from_cpu(s).expect("GPU scene");
    let mut g = match GpuXpbi::new(ctx.clone(), &desc) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("GPU XPBI unavailable: {e}");
            return None;
        }
    };
    if let Err(e) = g.step(s.options.dt).and_then(|_| g.finish()) {
        eprintln!("GPU XPBI step failed: {e}");
        return None;
    }
    let t = Instant::now();
    for _ in 0..steps {
        g.step(s.options.dt).expect("step");
    }
    g.finish().expect("wait");
    let sps = steps as f64 / t.elapsed().as_secs_f64();
    // The per-step rebuild alone (statistics read-back, grid, neighbour lists, L_p, corrected
    // weights): the rest of a step is the constraint solve, velocities, XSPH and the F update.
    let t = Instant::now();
    for _ in 0..steps {
        g.rebuild_frozen_data(s.options.dt).expect("rebuild");
    }
    g.finish().expect("wait");
    let rebuild = t.elapsed().as_secs_f64() / steps as f64;
    Some(GpuFigures {
        steps_per_s: sps,
        rebuild_s: rebuild,
        mean_neighbours: g.total_neighbours() as f64 / g.len() as f64,
    })
}

#[derive(Clone, Copy)]
struct GpuFigures {
    steps_per_s: f64,
    rebuild_s: f64,
    mean_neighbours: f64,
}

fn main() {
    let n = env_usize("XPBD_BENCH_XPBI_N", 1_000_000);
    let steps = env_usize("XPBD_BENCH_STEPS", 3);
    let only = std::env::var("XPBD_BENCH_SOLVERS").ok();
    let ctx = match GpuContext::from_env() {
        Ok(c) => Some(Arc::new(c)),
        Err(e) => {
            eprintln!("no GPU: {e}");
            None
        }
    };
    let adapter = ctx.as_ref().map_or("none".to_string(), |c| c.describe());
    for solver in [SolverKind::JACOBI, SolverKind::Coloured] {
        if only.as_deref().is_some_and(|o| o != solver.short_name()) {
            continue;
        }
        let mut s = scene(n, solver);
        let particles = s.positions().len();
        let gpu = ctx
            .as_ref()
            .and_then(|ctx| gpu_steps_per_second(ctx, &s, steps));
        s.step().expect("warm-up step");
        let t = Instant::now();
        for _ in 0..steps {
            s.step().expect("step");
        }
        let cpu = steps as f64 / t.elapsed().as_secs_f64();
        let f =
            |v: Option<f64>, digits: usize| v.map_or("null".into(), |v| format!("{v:.digits$}"));
        let iters = s.sim.settings().iterations as f64;
        let gpu_sps = gpu.map(|g| g.steps_per_s);
        println!(
            "{{\"bench\":\"xpbi_sand_column\",\"particles\":{particles},\"dt_s\":1e-4,\"iterations\":10,\"solver\":\"{}\",\"timed_steps\":{steps},\"adapter\":\"{}\",\"cpu_threads\":{},\"cpu_steps_per_s\":{cpu:.4},\"cpu_us_per_particle_per_step\":{:.4},\"gpu_steps_per_s\":{},\"gpu_us_per_particle_per_step\":{},\"gpu_rebuild_ms\":{},\"gpu_solve_us_per_particle_per_iteration\":{},\"gpu_mean_neighbours\":{},\"gpu_over_cpu\":{}}}",
            solver.short_name(),
            adapter.replace('"', "'"),
            std::thread::available_parallelism().map_or(1, |p| p.get()),
            1e6 / (cpu * particles as f64),
            f(gpu_sps, 4),
            f(gpu_sps.map(|g| 1e6 / (g * particles as f64)), 4),
            f(gpu.map(|g| g.rebuild_s * 1e3), 2),
            f(
                gpu.map(|g| (1.0 / g.steps_per_s - g.rebuild_s) * 1e6 / (iters * particles as f64)),
                4
            ),
            f(gpu.map(|g| g.mean_neighbours), 2),
            f(gpu_sps.map(|g| g / cpu), 3),
        );
    }
}
