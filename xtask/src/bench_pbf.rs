//! `cargo xtask bench pbf`: the dam break as a benchmark of the position-based fluid.
//!
//! A water column a × a × 2a (a = 0.1 m, ρ₀ = 1000 kg/m³, μ = 1e-3 Pa·s, incompressible)
//! against the end wall of a tank 4a long and a wide, frictionless walls, released at rest;
//! Δx = a (2/N)^{1/3} gives N particles. Adaptive steps of at most 1/240 s below the fluid's
//! CFL bound, 4 substeps × 4 iterations. Built from a [`SceneDesc`] like any scene.

use std::time::Instant;

use anyhow::{Context, Result};
use serde::Serialize;
use xpbd_scene::{BuiltScene, SceneDesc};

/// Column width a (m).
const A: f64 = 0.1;

/// One line of `cargo xtask bench pbf`.
#[derive(Debug, Clone, Serialize)]
pub struct PbfBenchLine {
    pub scene: &'static str,
    pub particles: usize,
    pub spacing_m: f64,
    pub threads: usize,
    pub substeps: usize,
    pub iterations: usize,
    pub simulated_s: f64,
    pub steps: usize,
    pub dt_min_s: f64,
    pub dt_max_s: f64,
    /// Wall time per step (ms), build excluded.
    pub step_ms: f64,
    /// The fluid block's projections and XSPH per particle per iteration (µs).
    pub us_per_particle_iteration: f64,
    /// The fluid block's neighbour search and stencils per particle per substep (µs).
    pub us_per_particle_search: f64,
    /// The whole step per particle per simulated second (µs).
    pub us_per_particle_simulated_second: f64,
    /// Peak resident memory over the particle count (bytes).
    pub peak_rss_bytes_per_particle: f64,
    /// The surge front z/a at the end (the furthest particle's centre + Δx/2).
    pub front_over_a: f64,
}

/// The dam break description at about `particles` particles (a = 0.1 m, tank 4a long).
pub fn dam_break_desc(particles: usize, threads: usize) -> Result<SceneDesc> {
    let dx = A * (2.0 / particles.max(2) as f64).cbrt();
    xtask::dam_break_3d::dam_break_desc(A, dx, 4.0 * A, 1, threads)
}

/// Runs the dam break for `seconds` of simulated time.
pub fn bench_pbf(particles: usize, threads: usize, seconds: f64) -> Result<PbfBenchLine> {
    let desc = dam_break_desc(particles, threads)?;
    let spacing = desc.fluid[0].spacing;
    let (substeps, iterations) = (desc.solver.substeps, desc.solver.iterations);
    let mut s = BuiltScene::from_desc(desc)?;
    let n = s.sim.particles().len();
    let frames = (seconds / s.scene.time.dt).round().max(1.0) as usize;
    let start = Instant::now();
    for f in 0..frames {
        s.step().with_context(|| format!("step {f}"))?;
    }
    let wall = start.elapsed().as_secs_f64();
    let block = s
        .sim
        .blocks()
        .iter()
        .position(|b| b.name() == "pbf-density")
        .context("the scene has no fluid block")?;
    let times = s.sim.block_seconds();
    let steps = s.steps.steps;
    let substeps_run = (steps * substeps) as f64;
    let x = &s.sim.particles().x;
    let front = x.iter().map(|p| p.x).fold(f64::MIN, f64::max) + 0.5 * spacing;
    let simulated = frames as f64 * s.scene.time.dt;
    Ok(PbfBenchLine {
        scene: "dam break",
        particles: n,
        spacing_m: spacing,
        threads,
        substeps,
        iterations,
        simulated_s: simulated,
        steps,
        dt_min_s: s.steps.dt_min,
        dt_max_s: s.steps.dt_max,
        step_ms: 1e3 * wall / steps as f64,
        us_per_particle_iteration: 1e6 * times.solve[block]
            / (n as f64 * substeps_run * iterations as f64),
        us_per_particle_search: 1e6 * times.setup[block] / (n as f64 * substeps_run),
        us_per_particle_simulated_second: 1e6 * wall / (n as f64 * simulated),
        peak_rss_bytes_per_particle: xpbi_validation::sand_column::peak_rss_bytes() / n as f64,
        front_over_a: front / A,
    })
}
