//! The 3D sand column benchmark, runnable from `cargo xtask bench xpbi` and from the
//! criterion bench: a 0.2 × 0.2 × 0.4 m column (z up), ρ = 1600 kg/m³, E = 3.5e5 Pa, ν = 0.3,
//! friction angle 30°, ground friction 0.5, released at rest; spacing chosen to give N particles.

use std::time::Instant;

use nalgebra::Vector3;
use xpbd_core::constraint::ConstraintKind;

use crate::observables::pile_observables;
use xpbi_continuum::error::XpbiError;
use xpbi_continuum::material::Material;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};

/// What to run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SandColumnConfig {
    /// Requested particle count (the lattice gives approximately this many).
    pub particles: usize,
    /// Simulated time (s).
    pub seconds: f64,
    /// Worker threads (0 = rayon's global pool).
    pub threads: usize,
    /// Time step (s).
    pub dt: f64,
    /// Solver iterations per step.
    pub iterations: usize,
    /// Friction angle (degrees).
    pub friction_angle: f64,
    /// Which yield surface the angle is read on (`xpbi_continuum::plasticity::FrictionCone`;
    /// default the library's, Mohr–Coulomb's pyramid), so the surfaces can be timed side by side.
    pub cone: xpbi_continuum::plasticity::FrictionCone,
    /// Grouping of the coloured sweep (see [`xpbi_continuum::continuum::SweepOrder`]).
    pub sweep: xpbi_continuum::continuum::SweepOrder,
    /// Adaptive steps of at most `dt` below the CFL bound (`xpbd_core::Simulation::advance`)
    /// instead of fixed steps of `dt`.
    pub adaptive: bool,
}

impl SandColumnConfig {
    /// The benchmark's defaults: S = 0.2 s, Δt = 1e-4 s, 10 iterations, φ = 30°.
    pub fn new(particles: usize) -> Self {
        Self {
            particles,
            seconds: 0.2,
            threads: 1,
            dt: 1e-4,
            iterations: 10,
            friction_angle: 30.0,
            cone: xpbi_continuum::plasticity::FrictionCone::MohrCoulomb,
            sweep: xpbi_continuum::continuum::SweepOrder::Slabs,
            adaptive: false,
        }
    }
}

/// Figures and observables of one run (times in seconds unless stated).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SandColumnReport {
    /// Particles simulated.
    pub particles: usize,
    /// Spacing Δx (m).
    pub spacing: f64,
    /// Time step (s): the fixed step, or the largest adaptive one allowed.
    pub dt: f64,
    /// Whether steps were adaptive.
    pub adaptive: bool,
    /// Smallest and largest step taken (s).
    pub dt_min: f64,
    /// Largest step taken (s).
    pub dt_taken_max: f64,
    /// Simulated time (s).
    pub simulated: f64,
    /// Iterations per step.
    pub iterations: usize,
    /// Threads.
    pub threads: usize,
    /// Steps taken.
    pub steps: usize,
    /// Colours (parallel phases) of the continuum's sweep in the last step: 27 for the cell
    /// colouring in 3D, 2 for slabs (see [`xpbi_continuum::continuum::SweepOrder`]).
    pub colours: usize,
    /// Mean neighbours per particle (Σ|N(p)|/N) at the end.
    pub mean_neighbours: f64,
    /// Mean neighbour search (grid + CSR lists) per step.
    pub neighbour_search_s: f64,
    /// Mean frozen-data build (volumes, L_p, weights, colouring) per step, after the search.
    pub frozen_data_s: f64,
    /// Mean whole step.
    pub step_s: f64,
    /// The cost of a simulated second: wall time of the run over the simulated time and the
    /// particle count (µs per particle per simulated second).
    pub us_per_particle_simulated_second: f64,
    /// Constraint solve cost in µs per particle per iteration (all blocks: XPBI, ground,
    /// position correction), from timing extra steps at 1 and at `iterations` iterations.
    pub us_per_particle_iteration: f64,
    /// The same from process CPU time (all threads; robust to a loaded machine).
    pub cpu_us_per_particle_iteration: f64,
    /// Bytes held by the XPBI block per particle.
    pub block_bytes_per_particle: f64,
    /// Peak resident set size of the process over the particle count (bytes; includes the
    /// process baseline, so it overestimates small runs).
    pub peak_rss_bytes_per_particle: f64,
    /// Pile height: 99th percentile of z (m).
    pub pile_height: f64,
    /// Runout: 95th percentile of the horizontal distance from the column axis (m).
    pub runout_radius: f64,
    /// Mean nearest-neighbour distance over Δx.
    pub nn_mean_over_spacing: f64,
    /// Standard deviation of the nearest-neighbour distance over Δx.
    pub nn_std_over_spacing: f64,
    /// Smallest nearest-neighbour distance over Δx.
    pub nn_min_over_spacing: f64,
    /// Which friction the friction angle is.
    pub cone: xpbi_continuum::plasticity::FrictionCone,
}

impl SandColumnReport {
    /// One JSON line.
    pub fn to_json(&self) -> String {
        format!(
            concat!(
                "{{\"scene\":\"xpbi_sand_column_3d\",\"particles\":{},\"spacing_m\":{:.6e},\"dt_s\":{:.3e},",
                "\"adaptive\":{},\"dt_min_s\":{:.3e},\"dt_taken_max_s\":{:.3e},\"simulated_s\":{:.4e},",
                "\"iterations\":{},\"threads\":{},\"steps\":{},\"colours\":{},\"mean_neighbours\":{:.2},",
                "\"neighbour_search_ms\":{:.4},\"frozen_data_ms\":{:.4},\"step_ms\":{:.4},",
                "\"us_per_particle_simulated_second\":{:.1},",
                "\"us_per_particle_iteration\":{:.4},\"cpu_us_per_particle_iteration\":{:.4},\"block_bytes_per_particle\":{:.1},",
                "\"peak_rss_bytes_per_particle\":{:.1},\"pile_height_m\":{:.5},\"runout_radius_m\":{:.5},",
                "\"nn_mean_over_spacing\":{:.4},\"nn_std_over_spacing\":{:.4},\"nn_min_over_spacing\":{:.4},\"cone\":\"{}\"}}"
            ),
            self.particles,
            self.spacing,
            self.dt,
            self.adaptive,
            self.dt_min,
            self.dt_taken_max,
            self.simulated,
            self.iterations,
            self.threads,
            self.steps,
            self.colours,
            self.mean_neighbours,
            self.neighbour_search_s * 1e3,
            self.frozen_data_s * 1e3,
            self.step_s * 1e3,
            self.us_per_particle_simulated_second,
            self.us_per_particle_iteration,
            self.cpu_us_per_particle_iteration,
            self.block_bytes_per_particle,
            self.peak_rss_bytes_per_particle,
            self.pile_height,
            self.runout_radius,
            self.nn_mean_over_spacing,
            self.nn_std_over_spacing,
            self.nn_min_over_spacing,
            self.cone.name(),
        )
    }
}

/// Column particle positions and the spacing `Δx = (0.016 m³ / N)^{1/3}`.
///
/// ```
/// let (x, dx) = xpbi_validation::sand_column::sand_column_3d_positions(1000);
/// assert!((x.len() as f64 - 1000.0).abs() < 300.0);
/// assert!(dx > 0.02 && dx < 0.03);
/// ```
pub fn sand_column_3d_positions(particles: usize) -> (Vec<Vector3<f64>>, f64) {
    let dx = (0.2 * 0.2 * 0.4 / particles.max(1) as f64).cbrt();
    (
        lattice_box(
            Vector3::new(-0.1, -0.1, 0.0),
            Vector3::new(0.1, 0.1, 0.4),
            dx,
        ),
        dx,
    )
}

/// Builds the 3D sand column scene.
pub fn sand_column_3d_scene(config: &SandColumnConfig) -> Result<ContinuumScene<3>, XpbiError> {
    let (x, dx) = sand_column_3d_positions(config.particles);
    let mut o = SceneOptions::new(dx);
    o.dt = config.dt;
    o.iterations = config.iterations;
    o.threads = config.threads;
    o.sweep = config.sweep;
    o.ground_friction = 0.5;
    ContinuumScene::new(
        &x,
        Material::sand_on_cone(config.friction_angle, config.cone),
        o,
    )
}

/// Peak resident set size of this process (bytes), from `/proc/self/status` (0 if unavailable).
pub fn peak_rss_bytes() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|v| v.parse::<f64>().ok())
            })
        })
        .map_or(0.0, |kb| kb * 1024.0)
}

/// User + system CPU time of this process (s), from `/proc/self/stat` (clock ticks of 10 ms;
/// 0 if unavailable).
pub fn process_cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the command name (which is in parentheses): utime is field 14, stime 15.
            let rest = &s[s.rfind(')')? + 2..];
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some((f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?) / 100.0)
        })
        .unwrap_or(0.0)
}

/// Runs the column for `config.seconds` and measures (see [`SandColumnReport`]).
///
/// ```
/// use xpbi_validation::sand_column::{SandColumnConfig, run_sand_column_3d};
/// let mut c = SandColumnConfig::new(300);
/// c.seconds = 2e-3;
/// let r = run_sand_column_3d(&c).unwrap();
/// assert!(r.steps == 20 && r.pile_height > 0.35);
/// assert!(r.to_json().starts_with("{\"scene\""));
/// ```
pub fn run_sand_column_3d(config: &SandColumnConfig) -> Result<SandColumnReport, XpbiError> {
    let mut scene = sand_column_3d_scene(config)?;
    let n = scene.positions().len();
    let dx = scene.options.spacing;
    let fixed_steps = (config.seconds / config.dt).round().max(1.0) as usize;
    let (mut search, mut frozen, mut total) = (0.0, 0.0, 0.0);
    let (mut steps, mut dt_min, mut dt_max) = (0usize, f64::INFINITY, 0.0_f64);
    let stepping = xpbd_core::AdaptiveStepping::new(config.dt);
    loop {
        let remaining = config.seconds - scene.sim.time();
        if (config.adaptive && remaining <= 0.0) || (!config.adaptive && steps == fixed_steps) {
            break;
        }
        let t = Instant::now();
        let dt = if config.adaptive {
            scene.step_adaptive(remaining, &stepping)?
        } else {
            scene.step()?;
            config.dt
        };
        total += t.elapsed().as_secs_f64();
        (steps, dt_min, dt_max) = (steps + 1, dt_min.min(dt), dt_max.max(dt));
        let tm = scene.continuum().timings();
        search += tm.neighbour_search;
        frozen += tm.frozen_data;
    }
    let simulated = scene.sim.time();
    // The extra timing steps below run at fixed steps of the last step taken (below the bound).
    scene.options.dt = if config.adaptive {
        scene.sim.next_step_size(config.dt, config.dt)?
    } else {
        config.dt
    };
    let ob = pile_observables(scene.positions(), &Vector3::zeros(), dx);
    let mean_neighbours = scene.continuum().total_neighbours() as f64 / n as f64;
    let block_bytes = scene.continuum().bytes_per_particle();
    let colours = scene
        .continuum()
        .own_schedule()
        .map_or(0, |s| s.num_colours());
    // Per-iteration cost: extra steps at 1 and at `iterations` iterations (state keeps evolving).
    let extra = 10usize;
    let timed =
        |iterations: usize, scene: &mut ContinuumScene<3>| -> Result<(f64, f64), XpbiError> {
            let mut s = scene.sim.settings().clone();
            s.iterations = iterations;
            scene.sim.set_settings(s)?;
            let (t, cpu) = (Instant::now(), process_cpu_seconds());
            for _ in 0..extra {
                scene.step()?;
            }
            Ok((t.elapsed().as_secs_f64(), process_cpu_seconds() - cpu))
        };
    let (t1, c1) = timed(1, &mut scene)?;
    let (tk, ck) = timed(config.iterations.max(2), &mut scene)?;
    let denominator = (extra * (config.iterations.max(2) - 1)) as f64;
    let per_iteration = (tk - t1) / denominator;
    let cpu_per_iteration = (ck - c1) / denominator;
    Ok(SandColumnReport {
        particles: n,
        spacing: dx,
        dt: config.dt,
        adaptive: config.adaptive,
        dt_min,
        dt_taken_max: dt_max,
        simulated,
        iterations: config.iterations,
        threads: config.threads,
        steps,
        colours,
        mean_neighbours,
        neighbour_search_s: search / steps as f64,
        frozen_data_s: frozen / steps as f64,
        step_s: total / steps as f64,
        us_per_particle_simulated_second: total / simulated / n as f64 * 1e6,
        us_per_particle_iteration: per_iteration / n as f64 * 1e6,
        cpu_us_per_particle_iteration: cpu_per_iteration / n as f64 * 1e6,
        block_bytes_per_particle: block_bytes,
        peak_rss_bytes_per_particle: peak_rss_bytes() / n as f64,
        pile_height: ob.height,
        runout_radius: ob.runout,
        nn_mean_over_spacing: ob.nn_mean,
        nn_std_over_spacing: ob.nn_std,
        nn_min_over_spacing: ob.nn_min,
        cone: config.cone,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use xpbi_continuum::plasticity::{FrictionCone, PlasticModel};

    /// The benchmark's `--cone` reaches the material the column is built with: the same 30°
    /// gives the shear-flow cone's α = √2 tan φ / 3 (also the pyramid's plane-shear cone) and
    /// Klár's α otherwise; the default is the pyramid.
    #[test]
    fn the_cone_reaches_the_columns_material() {
        assert_eq!(SandColumnConfig::new(64).cone, FrictionCone::MohrCoulomb);
        for cone in FrictionCone::ALL {
            let mut config = SandColumnConfig::new(64);
            config.cone = cone;
            let s = sand_column_3d_scene(&config).unwrap();
            let PlasticModel::DruckerPrager(dp) = s.sim.block(s.xpbi).kind.material().plasticity
            else {
                panic!("the column is Drucker-Prager sand");
            };
            assert_eq!(dp.cone, cone);
            let alpha = cone.alpha_of_angle(30.0, 3);
            let shear_flow = 2f64.sqrt() * 30f64.to_radians().tan() / 3.0;
            assert_eq!(
                cone != FrictionCone::TriaxialCompression,
                (alpha - shear_flow).abs() < 1e-12
            );
        }
    }
}
