//! `cargo xtask bench ...`: fixed-protocol benchmarks printing one JSON line.

use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Subcommand;
use serde::{Deserialize, Serialize};
use xpbd_core::SolverKind;
use xpbd_core::builders::cloth::benchmark_cloth;
use xpbd_core::schedule::Colouring;
use xpbi_continuum::continuum::SweepOrder;
use xpbi_continuum::plasticity::FrictionCone;

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// The reference cloth scene: N×N cloth, 1 m², 1 kg, pinned at two corners,
    /// compliance 0, Δt = 1/60 s, 10 substeps × 1 iteration, 120 frames, f64.
    Cloth {
        /// Particles per side.
        #[arg(long)]
        n: usize,
        /// gs | jacobi | colored
        #[arg(long, default_value = "colored")]
        solver: String,
        /// Worker threads (the coloured and Jacobi solvers use them).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Forbid the fused coloured step (one parallel region per step) and run the
        /// per-phase step instead: same results bit for bit, for A/B timing.
        #[arg(long)]
        per_phase: bool,
        /// constraints | blocks: the coloured solver's schedule (one phase per constraint
        /// colour, the library's default, or two-colour index blocks), for A/B timing.
        #[arg(long, default_value = "constraints")]
        colouring: String,
    },
    /// The 3D sand column: 0.2 × 0.2 × 0.4 m, ρ = 1600 kg/m³, E = 3.5e5 Pa,
    /// ν = 0.3, friction angle 30°, ground friction 0.5, released at rest; spacing chosen to
    /// give N particles. Prints timings (neighbour search, µs per particle per iteration,
    /// whole step), memory per particle and the observables at the end.
    Xpbi {
        /// Requested particle count.
        #[arg(long)]
        particles: usize,
        /// Material preset (only `sand`).
        #[arg(long, default_value = "sand")]
        material: String,
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Simulated seconds.
        #[arg(long, default_value_t = 0.2)]
        seconds: f64,
        /// slabs | cells: grouping of the coloured sweep (the library's default, two colours
        /// of slabs, or 27 cell colours), for A/B timing.
        #[arg(long, default_value = "slabs")]
        sweep: String,
        /// Time step Δt (s); with --adaptive the largest step.
        #[arg(long, default_value_t = 1e-4)]
        dt: f64,
        /// Adaptive steps: at most --dt, below the XPBI CFL bound 0.4·Δx/max|v|, chosen from
        /// the state at every step (the JSON line gives the smallest and largest step taken).
        #[arg(long)]
        adaptive: bool,
        /// Solver iterations per step.
        #[arg(long, default_value_t = 10)]
        iterations: usize,
        /// mohr_coulomb | shear_flow | triaxial_compression: the yield surface the 30° is read
        /// on (the library's default Mohr–Coulomb pyramid, the shear-flow cone, or Klár's
        /// triaxial-compression cone), for A/B timing of the models.
        #[arg(long, default_value = "mohr_coulomb")]
        cone: String,
    },
    /// The dam break: a water column a × a × 2a (a = 0.1 m, position-based fluid, ρ₀ = 1000
    /// kg/m³, μ = 1e-3 Pa·s) against the end wall of a frictionless tank 4a long, released at
    /// rest; spacing chosen to give N particles; adaptive steps ≤ 1/240 s, 4 substeps × 4
    /// iterations. Prints µs per particle per iteration (the fluid's projections and XSPH),
    /// the neighbour search per particle per substep, the whole step, the cost of a simulated
    /// second and memory per particle.
    Pbf {
        /// Requested particle count.
        #[arg(long)]
        particles: usize,
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Simulated seconds.
        #[arg(long, default_value_t = 0.1)]
        seconds: f64,
    },
    /// Rigid spheres (radius 2 cm, granite) dropped at 1 m/s onto a sand bed of about N
    /// particles (spacing 1 cm, 10 cm deep, Drucker–Prager sand, 10 iterations): µs per step
    /// and the share of the step spent in the rigid bodies' block (their contact search,
    /// prediction, projections and velocity pass), with the step's breakdown by block.
    Rigid {
        /// Sand particles (about).
        #[arg(long, default_value_t = 100_000)]
        particles: usize,
        /// Rigid spheres.
        #[arg(long, default_value_t = 100)]
        bodies: usize,
        /// Steps to time.
        #[arg(long, default_value_t = 5)]
        steps: usize,
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// A scene of touching bodies (default: sand poured into a cloth hammock,
    /// scenes/sand_hammock.toml), run twice in one process: with its bodies touching, and
    /// with every pair's contact off (colliders only; the sand falls through onto the
    /// ground). Prints µs per step of each, their ratio, and the coupled step's own breakdown
    /// by block: the share spent in body contact (search, projections, friction).
    Coupled {
        /// Frames to run (each run).
        #[arg(long, default_value_t = 30)]
        frames: usize,
        /// The scene file.
        #[arg(long, default_value = "scenes/sand_hammock.toml")]
        scene: std::path::PathBuf,
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

pub fn run(cmd: BenchCommand) -> Result<()> {
    match cmd {
        BenchCommand::Rigid {
            particles,
            bodies,
            steps,
            threads,
        } => {
            if particles < 40 || bodies == 0 || steps == 0 {
                bail!(
                    "--particles must be at least 40, --bodies and --steps at least 1 \
                     (got {particles}, {bodies}, {steps})"
                );
            }
            let line = crate::bench_rigid::bench_rigid(particles, bodies, steps, threads)?;
            println!("{}", serde_json::to_string(&line)?);
            Ok(())
        }
        BenchCommand::Pbf {
            particles,
            threads,
            seconds,
        } => {
            if particles < 8 {
                bail!("--particles must be at least 8, got {particles}");
            }
            if !(seconds.is_finite() && seconds > 0.0) {
                bail!("--seconds must be a positive number, got {seconds}");
            }
            let line = crate::bench_pbf::bench_pbf(particles, threads, seconds)?;
            println!("{}", serde_json::to_string(&line)?);
            Ok(())
        }
        BenchCommand::Coupled {
            frames,
            scene,
            threads,
        } => {
            if frames == 0 {
                bail!("--frames must be at least 1");
            }
            let line = crate::bench_coupled::bench_coupled(&scene, frames, threads)?;
            println!("{}", serde_json::to_string(&line)?);
            Ok(())
        }
        BenchCommand::Xpbi {
            particles,
            material,
            threads,
            seconds,
            sweep,
            dt,
            adaptive,
            iterations,
            cone,
        } => {
            if material != "sand" {
                bail!(
                    "--material {material:?} is not benchmarked yet: only `sand` (the 3D sand column)"
                );
            }
            if particles < 8 {
                bail!("--particles must be at least 8, got {particles}");
            }
            let mut config = xpbi_validation::sand_column::SandColumnConfig::new(particles);
            config.threads = threads;
            config.seconds = seconds;
            config.dt = dt;
            config.adaptive = adaptive;
            if iterations == 0 {
                bail!("--iterations must be at least 1");
            }
            config.iterations = iterations;
            config.sweep = match sweep.as_str() {
                "cells" => SweepOrder::Cells,
                "slabs" => SweepOrder::Slabs,
                other => bail!("unknown --sweep {other:?}: use cells or slabs"),
            };
            config.cone = FrictionCone::from_name(&cone).with_context(|| {
                let names: Vec<_> = FrictionCone::ALL.iter().map(|c| c.name()).collect();
                format!("unknown --cone {cone:?}: use {}", names.join(" | "))
            })?;
            let report = xpbi_validation::sand_column::run_sand_column_3d(&config)?;
            println!("{}", report.to_json());
            Ok(())
        }
        BenchCommand::Cloth {
            n,
            solver,
            threads,
            per_phase,
            colouring,
        } => {
            let colouring = match colouring.as_str() {
                "blocks" => Colouring::Blocks,
                "constraints" => Colouring::Constraints,
                other => bail!("unknown --colouring {other:?}: use constraints or blocks"),
            };
            let line = bench_cloth_with(n, &solver, threads, !per_phase, colouring)?;
            println!("{}", serde_json::to_string(&line)?);
            Ok(())
        }
    }
}

/// One line of `cargo xtask bench cloth`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClothBenchLine {
    pub n: usize,
    pub particles: usize,
    pub constraints: usize,
    pub solver: String,
    pub threads: usize,
    /// Wall seconds for the 120 frames, setup excluded.
    pub wall_seconds: f64,
    pub us_per_particle_per_substep: f64,
    /// Observables at t = 2 s.
    pub lowest_z: f64,
    /// The free corner diagonally opposite the first pinned corner, (n−1, n−1).
    pub free_corner: [f64; 3],
    pub max_relative_stretch: f64,
    pub kinetic_energy: f64,
    /// Whether the steps ran as the fused coloured step (one parallel region per step).
    pub fused: bool,
    /// The coloured solver's schedule: `blocks` or `constraints` (see `--colouring`).
    #[serde(default)]
    pub colouring: String,
    /// Colours (parallel phases) per sweep of the cloth's constraint block.
    #[serde(default)]
    pub colours: usize,
}

/// [`bench_cloth_with`] with the fused coloured step allowed (the default).
pub fn bench_cloth(n: usize, solver: &str, threads: usize) -> Result<ClothBenchLine> {
    bench_cloth_with(n, solver, threads, true, Colouring::default())
}

/// Runs the benchmark cloth; `fused = false` forbids the fused coloured step; `colouring`
/// picks the coloured solver's schedule.
pub fn bench_cloth_with(
    n: usize,
    solver: &str,
    threads: usize,
    fused: bool,
    colouring: Colouring,
) -> Result<ClothBenchLine> {
    if n < 2 {
        bail!("--n must be at least 2, got {n}");
    }
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let kind = SolverKind::from_name(solver)
        .with_context(|| format!("unknown --solver {solver:?}: use gs, jacobi or colored"))?;
    let mut sim = benchmark_cloth(n, kind, threads)?;
    sim.set_fused_step(fused);
    let mut settings = sim.settings().clone();
    settings.colouring = colouring;
    sim.set_settings(settings)?;
    let frames = 120;
    let dt = 1.0 / 60.0;
    let start = Instant::now();
    for frame in 0..frames {
        sim.step(dt).with_context(|| format!("frame {frame}"))?;
    }
    let wall = start.elapsed().as_secs_f64();
    let p = sim.particles();
    let substeps = (frames * sim.settings().substeps) as f64;
    let corner = p.x[(n - 1) * n + (n - 1)];
    Ok(ClothBenchLine {
        n,
        particles: p.len(),
        constraints: sim.blocks().iter().map(|b| b.len()).sum(),
        solver: kind.short_name().to_string(),
        threads,
        wall_seconds: wall,
        us_per_particle_per_substep: wall * 1e6 / (p.len() as f64 * substeps),
        lowest_z: p.x.iter().map(|x| x.z).fold(f64::INFINITY, f64::min),
        free_corner: [corner.x, corner.y, corner.z],
        max_relative_stretch: sim.max_relative_strain(),
        kinetic_energy: p.kinetic_energy(),
        fused: sim.last_step_fused(),
        colouring: match colouring {
            Colouring::Blocks => "blocks",
            Colouring::Constraints => "constraints",
        }
        .to_string(),
        colours: sim
            .blocks()
            .iter()
            .map(|b| b.num_colours())
            .max()
            .unwrap_or(0),
    })
}
