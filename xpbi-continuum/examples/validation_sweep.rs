//! Parameter sweeps of the three validation runners (one run per call, one thread, release):
//!
//! * `cargo run -p xpbi-continuum --release --example validation_sweep -- uniformity R [DX] [DT]
//!   [SECONDS]`: column collapse ([`UniformityConfig::fine`], or Δx = `DX`) with correction
//!   radius `R`Δx;
//! * `… -- snow DX DT LN_JP0 [ITERATIONS] [XSPH] [GROUND_MU] [R]`: one snow-ball run (initial
//!   hardening `ln J_p = LN_JP0`; `snow3` for the 3D ball);
//! * `… -- repose PHI SPEED [DX] [GROUND_MU] [XSPH] [CORRECTION 0/1] [CALIBRATED 0/1] [SETTLE]
//!   [ITERATIONS] [INLET_HEIGHT] [DT] [IN_LOOP 0/1]`;
//! * `… -- repose3 PHI [DX] [VOLUME] [SPEED] [INLET_RADIUS] [DT] [SETTLE] [ITERATIONS] [THREADS]
//!   [INLET_HEIGHT]`: a 3D pour ([`ReposeConfig::fine_3d`] unless overridden; with
//!   `REPOSE_QUARTER=1` one quarter against two symmetry walls, [`ReposeConfig::quarter`]; with
//!   `REPOSE_CONE=mohr_coulomb` on that yield surface, `FrictionCone::from_name`);
//! * `… -- heap PHI THETA0 …`: a triangular heap released at rest (arguments in the code);
//! * `… -- sand3d N SECONDS R`: the report's 3D sand column at correction radius `R`Δx.
//!
//! Prints one line of `key=value` pairs; with `REPOSE_DUMP=path` the repose mode also writes
//! the final positions (`x z` per line).

use std::time::Instant;

use nalgebra::Vector2;
use xpbi_continuum::Material;
use xpbi_continuum::plasticity::FrictionCone;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};
use xpbi_continuum::xsph::Xsph;
use xpbi_validation::repose::{
    ReposeConfig, ReposeResult, measure_heap, pouring_scene, run_angle_of_repose,
};
use xpbi_validation::snow::snow_footprint_with;
use xpbi_validation::uniformity::{UniformityConfig, run_column_uniformity};

/// The command line: numbers and XSPH settings by position, with defaults.
struct Args(Vec<String>);

impl Args {
    /// Argument `i` as a number, `d` when absent or unreadable.
    fn num(&self, i: usize, d: f64) -> f64 {
        self.0
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(d)
    }

    /// An XSPH argument: `0.01` is the paper's per-step c, `100/s` a rate κ in 1/s.
    fn xsph(&self, i: usize, d: Xsph) -> Xsph {
        match self.0.get(i) {
            Some(v) if v.ends_with("/s") => v
                .trim_end_matches("/s")
                .parse::<f64>()
                .map_or(d, Xsph::Rate),
            Some(v) => v.parse::<f64>().map_or(d, Xsph::PerStep),
            None => d,
        }
    }
}

fn main() {
    let args = Args(std::env::args().collect());
    let start = std::time::Instant::now();
    match args.0.get(1).map(String::as_str) {
        Some("uniformity") => uniformity(&args, start),
        Some(mode @ ("snow" | "snow3")) => snow(&args, mode, start),
        Some("repose") => repose(&args, start),
        Some("repose3") => repose3(&args, start),
        Some("heap") => heap(&args, start),
        Some("sand3d") => sand3d(&args, start),
        _ => {
            eprintln!("usage: validation_sweep uniformity|snow|repose … (see the file's docs)");
            std::process::exit(2);
        }
    }
}

/// `uniformity R [DX] [DT] [SECONDS]`: the column collapse at correction radius `R`Δx.
fn uniformity(args: &Args, start: Instant) {
    let mut c = UniformityConfig::fine();
    c.correction_radius = args.num(2, 1.0);
    c.spacing = args.num(3, c.spacing);
    c.dt = args.num(4, c.dt);
    c.seconds = args.num(5, c.seconds);
    let u = run_column_uniformity::<2>(&c).expect("uniformity run");
    println!(
        "r={} dx={} min={:.4} mean_low={:.4} mean_high={:.4} std_max={:.4} int_mean_low={:.4} int_std_max={:.4} isolated={} runout={:.4} height={:.4} claims={} wall={:.1}",
        c.correction_radius,
        c.spacing,
        u.min,
        u.mean_low,
        u.mean_high,
        u.std_max,
        u.interior_mean_low,
        u.interior_std_max,
        u.isolated_max,
        u.pile.runout,
        u.pile.height,
        u.meets_claims(),
        start.elapsed().as_secs_f64()
    );
}

/// `snow DX DT LN_JP0 [ITERATIONS] [XSPH] [GROUND_MU] [R]` (`snow3`: the 3D ball).
fn snow(args: &Args, mode: &str, start: Instant) {
    let (dx, dt, a) = (args.num(2, 0.005), args.num(3, 1e-4), args.num(4, 0.0));
    let mut o = SceneOptions::new(dx);
    o.dt = dt;
    o.threads = 1;
    o.iterations = args.num(5, o.iterations as f64) as usize;
    o.xsph = args.xsph(6, o.xsph);
    o.ground_friction = args.num(7, o.ground_friction);
    o.correction_radius = args.num(8, o.correction_radius);
    let (s, n) = if mode == "snow3" {
        snow_footprint_with::<3>(o, a)
    } else {
        snow_footprint_with::<2>(o, a)
    }
    .expect("snow run");
    println!(
        "dx={dx} dt={dt} ln_jp0={a} it={} xsph={:?} mu={} r={} n={n} footprint={:.4} height={:.4} core={:.4} wall={:.1}",
        o.iterations,
        o.xsph,
        o.ground_friction,
        o.correction_radius,
        s.footprint,
        s.height,
        s.core_width,
        start.elapsed().as_secs_f64()
    );
}

/// `repose PHI SPEED [DX] [GROUND_MU] [XSPH] [CORRECTION 0/1] [CALIBRATED 0/1] [SETTLE]
/// [ITERATIONS] [INLET_HEIGHT] [DT] [IN_LOOP 0/1]`: a 2D pour.
fn repose(args: &Args, start: Instant) {
    let mut c = ReposeConfig::fine(args.num(2, 30.0));
    c.inflow_speed = args.num(3, 0.1);
    c.spacing = args.num(4, c.spacing);
    c.ground_friction = args.num(5, c.ground_friction);
    c.xsph = args.xsph(6, c.xsph);
    c.spacing_constraints = args.num(7, 1.0) > 0.5;
    c.settle_time = args.num(9, c.settle_time);
    c.iterations = args.num(10, c.iterations as f64) as usize;
    c.inlet_height = args.num(11, c.inlet_height);
    c.dt = args.num(12, c.dt);
    c.plasticity_in_loop = args.num(13, 1.0) > 0.5;
    let r = match std::env::var("REPOSE_DUMP") {
        Ok(path) => repose_with_dump(&c, &path),
        Err(_) => run_angle_of_repose::<2>(&c).expect("repose run"),
    };
    println!(
        "phi={} in_loop={} v={} dx={} dt={} mu={} xsph={:?} corr={} settle={} it={} inlet={} slope={:.2} left={:.2} right={:.2} height={:.4} half_width={:.4} n={} wall={:.1}",
        c.friction_angle,
        c.plasticity_in_loop,
        c.inflow_speed,
        c.spacing,
        c.dt,
        c.ground_friction,
        c.xsph,
        c.spacing_constraints,
        c.settle_time,
        c.iterations,
        c.inlet_height,
        r.slope_degrees,
        r.slope_left,
        r.slope_right,
        r.height,
        r.half_width,
        r.particles,
        start.elapsed().as_secs_f64()
    );
}

/// The 2D pour of `c`, measured as `run_angle_of_repose` does, with its final positions written
/// to `path` as "x z" lines.
fn repose_with_dump(c: &ReposeConfig, path: &str) -> ReposeResult {
    // Same loop as `run_angle_of_repose`, plus the final positions as "x z" lines.
    let (mut scene, mut nozzle) = pouring_scene::<2>(c).expect("repose scene");
    let mut steps = 0;
    while nozzle.pending() > 0 {
        nozzle.before_step(&mut scene, c.dt);
        scene.step().expect("repose step");
        steps += 1;
    }
    let end = scene.sim.time() + c.settle_time;
    while scene.sim.time() < end - 0.5 * c.dt {
        scene.step().expect("repose step");
        steps += 1;
    }
    let lines: String = scene
        .positions()
        .iter()
        .map(|p| format!("{} {}\n", p[0], p[1]))
        .collect();
    std::fs::write(path, lines).expect("dump");
    measure_heap(scene.positions(), c.spacing, c.friction_angle, steps)
}

/// `repose3 PHI [DX] [VOLUME] [SPEED] [INLET_RADIUS] [DT] [SETTLE] [ITERATIONS] [THREADS]
/// [INLET_HEIGHT]`: a 3D pour.
fn repose3(args: &Args, start: Instant) {
    // 3D pour, `ReposeConfig::fine_3d` unless overridden: PHI DX VOLUME SPEED
    // INLET_RADIUS DT SETTLE ITERATIONS THREADS INLET_HEIGHT
    let mut c = ReposeConfig::fine_3d(args.num(2, 30.0));
    c.spacing = args.num(3, c.spacing);
    c.poured_volume = args.num(4, c.poured_volume);
    c.inflow_speed = args.num(5, c.inflow_speed);
    c.inlet_half_width = args.num(6, c.inlet_half_width);
    c.dt = args.num(7, c.dt);
    c.settle_time = args.num(8, c.settle_time);
    c.iterations = args.num(9, c.iterations as f64) as usize;
    c.threads = args.num(10, 1.0) as usize;
    c.inlet_height = args.num(11, c.inlet_height);
    c.quarter = std::env::var_os("REPOSE_QUARTER").is_some();
    if let Ok(name) = std::env::var("REPOSE_CONE") {
        c.cone = FrictionCone::from_name(&name).expect("REPOSE_CONE: a FrictionCone name");
    }
    let r = run_angle_of_repose::<3>(&c).expect("repose run");
    println!(
        "phi={} dx={} vol={} v={} a={} h={} dt={} settle={} it={} slope={:.2} height={:.4} half_width={:.4} n={} steps={} wall={:.1}",
        c.friction_angle,
        c.spacing,
        c.poured_volume,
        c.inflow_speed,
        c.inlet_half_width,
        c.inlet_height,
        c.dt,
        c.settle_time,
        c.iterations,
        r.slope_degrees,
        r.height,
        r.half_width,
        r.particles,
        r.steps,
        start.elapsed().as_secs_f64()
    );
}

/// `heap PHI THETA0 [HALF_BASE] [SECONDS] [DX] [DT] [R] [XSPH] _ [ITERATIONS] [CORRECTION 0/1]
/// [VOLUME_CORRECTION 0/1] [IN_LOOP 0/1]`: a triangular heap released at rest.
fn heap(args: &Args, start: Instant) {
    // A triangular heap of slope THETA (half-base B) on the rough plate, released at rest.
    let (phi, theta, half_base, seconds) = (
        args.num(2, 30.0),
        args.num(3, 20.0),
        args.num(4, 0.1),
        args.num(5, 1.0),
    );
    let dx = args.num(6, 0.0025);
    let h = half_base * theta.to_radians().tan();
    let x: Vec<_> = lattice_box(
        Vector2::new(-half_base, 0.0),
        Vector2::new(half_base, h),
        dx,
    )
    .into_iter()
    .filter(|p| p[0].abs() <= (h - p[1]) / theta.to_radians().tan())
    .collect();
    let mut o = SceneOptions::new(dx);
    o.dt = args.num(7, 2.5e-4);
    o.threads = 1;
    o.ground_friction = 1.0;
    o.correction_radius = args.num(8, o.correction_radius);
    o.xsph = args.xsph(9, o.xsph);
    o.iterations = args.num(11, o.iterations as f64) as usize;
    o.spacing_constraints = args.num(12, 1.0) > 0.5;
    o.plasticity_in_loop = args.num(14, 1.0) > 0.5;
    let mut mat = Material::sand_with_friction(phi);
    if let xpbi_continuum::plasticity::PlasticModel::DruckerPrager(dp) = &mut mat.plasticity {
        dp.volume_correction = args.num(13, 0.0) > 0.5;
    }
    let mut s = ContinuumScene::<2>::new(&x, mat, o).expect("scene");
    let r0 = measure_heap(s.positions(), dx, phi, 0);
    let mut line = format!(
        "phi={phi} in_loop={} vc={} theta0={theta} n={} r={} xsph={:?} it={} corr={} dt={} fit0={:.2} (l {:.2} r {:.2})",
        o.plasticity_in_loop,
        args.num(13, 0.0) > 0.5,
        x.len(),
        o.correction_radius,
        o.xsph,
        o.iterations,
        o.spacing_constraints,
        o.dt,
        r0.slope_degrees,
        r0.slope_left,
        r0.slope_right
    );
    for k in 1..=((seconds / 0.25).round() as usize) {
        s.run_until(0.25 * k as f64).expect("run");
        let r = measure_heap(s.positions(), dx, phi, 0);
        let ke: f64 = s
            .sim
            .particles()
            .v
            .iter()
            .map(|v| v.norm_squared())
            .sum::<f64>()
            / x.len() as f64;
        line += &format!(
            " | t={:.2} slope={:.2} (l {:.2} r {:.2}) h={:.4} hw={:.4} vrms={:.2e}",
            0.25 * k as f64,
            r.slope_degrees,
            r.slope_left,
            r.slope_right,
            r.height,
            r.half_width,
            ke.sqrt()
        );
    }
    println!("{line} wall={:.1}", start.elapsed().as_secs_f64());
}

/// `sand3d N SECONDS R`: the report's 3D sand column at correction radius `R`Δx.
fn sand3d(args: &Args, start: Instant) {
    // The report's 3D sand column (`xtask::scenes::sand_column`: Δt = 2e-4 s, one
    // thread, NN minimum over 4 frames, pile observables at the end) at radius R.
    let (n, seconds, r) = (
        args.num(2, 1000.0) as usize,
        args.num(3, 0.15),
        args.num(4, 1.1),
    );
    let (x, dx) = xpbi_validation::sand_column::sand_column_3d_positions(n);
    let mut o = SceneOptions::new(dx);
    o.dt = 2e-4;
    o.threads = 1;
    o.ground_friction = 0.5;
    o.correction_radius = r;
    let mut s = ContinuumScene::<3>::new(&x, Material::sand(), o).expect("scene");
    let mut nn_min = f64::INFINITY;
    for t in [0.0, seconds / 3.0, 2.0 * seconds / 3.0, seconds] {
        s.run_until(t).expect("run");
        nn_min = nn_min.min(xpbi_validation::observables::nn_statistics(s.positions(), dx).2);
    }
    let p = xpbi_validation::observables::pile_observables(
        s.positions(),
        &nalgebra::Vector3::zeros(),
        dx,
    );
    println!(
        "sand3d n={} r={r} nn_min_over_time={:.4} nn_mean={:.4} nn_std={:.4} runout={:.4} height={:.4} slope={:.2} wall={:.1}",
        x.len(),
        nn_min,
        p.nn_mean,
        p.nn_std,
        p.runout,
        p.height,
        p.slope_degrees,
        start.elapsed().as_secs_f64()
    );
}
