//! The accuracy-versus-cost section of the report: the granular column collapse
//! (`scenes/sand_collapse_3d.toml`, `cargo xtask collapse`) at several step caps, iteration
//! counts and resolutions; the deposit's runout error against the finest-step run, plotted
//! against the cost of a simulated second, beside an MLS-MPM figure.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::collapse::{CollapseArgs, CollapseLine, run_collapse};
use crate::plot::{Curve, plot};

/// MLS-MPM cost of a simulated second on the 16k sand column, one thread of this machine kind
/// (Taichi CPU backend, f32, APIC, 8 particles per cell, Δt = 3.5e-4 s from its CFL;
/// `xtask/compare/mpm_column.py`): measured beside the XPBI benchmark column in a quiet window,
/// quoted as a reference line (µs per particle per simulated second).
pub const MPM_US_PER_PARTICLE_SECOND: f64 = 3400.0;

/// The default step cap and iterations of the scene.
const DEFAULT: (f64, usize) = (2.5e-4, 10);

/// All runs of the study and the reference they are measured against.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CollapseStudy {
    /// Δx = 5 mm, 10 iterations, step caps 1e-3 … 1.25e-4 s; then 5 and 20 iterations at the
    /// default cap; then Δx = 1 cm at 5e-4 and 2.5e-4 s.
    pub runs: Vec<CollapseLine>,
    /// Runout of the finest step at Δx = 5 mm (the Δt → 0 reference).
    pub reference_runout: f64,
    /// Relative runout change from the default step to half of it (Δx = 5 mm).
    pub halving_change: f64,
    /// Observed order of the runout in Δt from the three finest steps (NaN unless the changes
    /// shrink with the step).
    pub observed_order: f64,
    /// The same two for the runout read at the 95th percentile of the radius (the 158th
    /// outermost of 3160 particles instead of the 32nd), which is set by many particles.
    #[serde(default)]
    pub halving_change95: f64,
    #[serde(default)]
    pub observed_order95: f64,
    /// Wall seconds.
    pub wall_seconds: f64,
}

/// Runs the study two at a time (one thread each) and writes the plot into `dir`.
pub fn collapse_study(dir: &Path) -> Result<(CollapseStudy, String)> {
    let start = std::time::Instant::now();
    let mut configs: Vec<CollapseArgs> = [1e-3, 5e-4, 2.5e-4, 1.25e-4]
        .iter()
        .map(|&dt| CollapseArgs::new(dt, 10, 0.005))
        .collect();
    configs.push(CollapseArgs::new(DEFAULT.0, 5, 0.005));
    configs.push(CollapseArgs::new(DEFAULT.0, 20, 0.005));
    configs.push(CollapseArgs::new(5e-4, 10, 0.01));
    configs.push(CollapseArgs::new(2.5e-4, 10, 0.01));
    let mut runs = Vec::new();
    for pair in configs.chunks(2) {
        let lines: Vec<Result<CollapseLine>> = std::thread::scope(|scope| {
            let handles: Vec<_> = pair
                .iter()
                .map(|c| scope.spawn(move || run_collapse(c)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .map_err(|_| anyhow::anyhow!("collapse thread panicked"))?
                })
                .collect()
        });
        for l in lines {
            let l = l?;
            eprintln!(
                "collapse: Δx = {} m, Δt ≤ {:.2e} s, {} iterations: runout {:.4}, height {:.4}",
                l.spacing_m, l.dt_max_s, l.iterations, l.runout, l.height
            );
            runs.push(l);
        }
    }
    let series: Vec<&CollapseLine> = runs[..4].iter().collect();
    let reference = series[3].runout;
    // An order only where the changes shrink as the step does (otherwise NaN: scatter).
    let order = |a: f64, b: f64, c: f64| {
        if (a - b) * (b - c) > 0.0 && (a - b).abs() > (b - c).abs() {
            ((a - b) / (b - c)).log2()
        } else {
            f64::NAN
        }
    };
    let observed_order = order(series[1].runout, series[2].runout, series[3].runout);
    let observed_order95 = order(series[1].runout95, series[2].runout95, series[3].runout95);
    let study = CollapseStudy {
        halving_change: (series[2].runout - series[3].runout).abs() / series[3].runout,
        halving_change95: (series[2].runout95 - series[3].runout95).abs() / series[3].runout95,
        observed_order95,
        reference_runout: reference,
        observed_order,
        runs,
        wall_seconds: start.elapsed().as_secs_f64(),
    };
    let name = "collapse-accuracy-vs-cost.svg".to_string();
    let err = |l: &CollapseLine| 100.0 * (l.runout - reference).abs() / reference;
    let point = |l: &CollapseLine| (err(l).max(0.05), l.us_per_particle_simulated_second);
    let r = &study.runs;
    let mut curves = vec![
        Curve {
            label: "Δx = 5 mm, 10 iterations, Δt ≤ 1e-3 … 2.5e-4 s".into(),
            points: r[..3].iter().map(point).collect(),
            dashed: false,
        },
        Curve {
            label: "Δx = 5 mm, Δt ≤ 2.5e-4 s, 5 / 10 / 20 iterations".into(),
            points: vec![point(&r[4]), point(&r[2]), point(&r[5])],
            dashed: false,
        },
        Curve {
            label: "Δx = 1 cm, Δt ≤ 5e-4 / 2.5e-4 s (error against its own finer step)".into(),
            points: vec![(
                (100.0 * (r[6].runout - r[7].runout).abs() / r[7].runout).max(0.05),
                r[6].us_per_particle_simulated_second,
            )],
            dashed: false,
        },
        Curve {
            label: format!(
                "default (Δt ≤ {:.1e} s, {} iterations)",
                DEFAULT.0, DEFAULT.1
            ),
            points: vec![point(&r[2])],
            dashed: false,
        },
    ];
    let xs: Vec<f64> = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.0))
        .collect();
    let (x0, x1) = (
        xs.iter().copied().fold(f64::INFINITY, f64::min),
        xs.iter().copied().fold(0.0, f64::max),
    );
    curves.push(Curve {
        label: "MLS-MPM, 16k sand column, 1 thread".into(),
        points: vec![
            (x0, MPM_US_PER_PARTICLE_SECOND),
            (x1, MPM_US_PER_PARTICLE_SECOND),
        ],
        dashed: true,
    });
    plot(
        &dir.join(&name),
        "Column collapse: runout error vs cost of a simulated second",
        "runout error against the finest step at Δx = 5 mm (%)",
        "µs per particle per simulated second",
        &curves,
        true,
    )?;
    Ok((study, name))
}

/// Appends the section's table and text to the markdown `m`.
pub fn write_collapse_section(m: &mut String, s: &CollapseStudy, tier_flag: &str) {
    let _ = write!(
        m,
        "\n### Column collapse: convergence in Δt and the cost of a simulated second\n\n\
         A 5 cm × 5 cm (radius × height) column of dry sand (Drucker–Prager φ = 32°) collapses on \
         ground of Coulomb μ = 0.6 for 1.2 s (`scenes/sand_collapse_3d.toml`); steps are adaptive, \
         at most Δt_max and below the CFL bound 0.4 Δx / max|v|; XSPH is a rate (κ ≈ 100.5 s⁻¹), so \
         the smoothing per unit time does not depend on the step. Runout = (r₉₉ − r₀)/r₀ with r₉₉ \
         the 99th percentile of the distance from the axis; the reference is the finest step at \
         Δx = 5 mm. Runout change from Δt = 2.5e-4 s to 1.25e-4 s: {:.1} %; observed order in Δt \
         from the three finest steps: {}. The runout front (the 32nd outermost of 3160 particles) \
         scatters by a few per cent between step sizes without a trend (Δt = 6.25e-5 s, in the \
         heavy test `collapse_deposit_converges_in_dt_at_the_default_step`, gives 0.669, back \
         above 2.5e-4 s's 0.663), so runout errors below ≈ 5 % are within that scatter; the \
         height and the packing (NN mean) change by < 1 % from Δt = 5e-4 s down, while \
         Δt = 1e-3 s is 6 % low in height. Read at the 95th percentile (the 158th outermost \
         particle) the runout converges: change from 2.5e-4 s to 1.25e-4 s {:.1} %, observed \
         order {}. With the paper's per-step XSPH (c = 0.01) the runout \
         of this column was 0.77 at 2.5e-4 s and 0.63 at 1e-4 s. Cost = wall time / simulated time / particles, two \
         runs at a time on this machine, one thread each. The MLS-MPM line is {} µs per particle \
         per simulated second (16k sand column, one thread, same machine kind; `xtask/compare/mpm_column.py` runs it beside `bench xpbi`).\n\n\
         The percentile runouts are not the laboratory's: in an axisymmetric deposit most \
         particles lie in the thin outer ring, so r₉₉ sits far behind the deposit's edge. The \
         toe (the flank's straight part extended to the floor, `xpbi_validation::observables::Deposit`) \
         and the top edge of the heap are what the planar section compares with the \
         laboratory; Lube et al. (2004) measured (r∞ − r₀)/r₀ ≈ 1.24a for axisymmetric columns \
         (a < 1.7), here a = 1.\n\n\
         | Δx (m) | Δt_max (s) | iterations | particles | steps | runout | runout error vs the finest step at 5 mm | runout at r₉₅ | toe | height / h₀ | top / h₀ | slope (°) | NN mean / Δx | µs per particle per simulated second |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        100.0 * s.halving_change,
        if s.observed_order.is_finite() {
            format!("{:.2}", s.observed_order)
        } else {
            "none (the changes do not shrink with the step)".to_string()
        },
        100.0 * s.halving_change95,
        if s.observed_order95.is_finite() {
            format!("{:.2}", s.observed_order95)
        } else {
            "none".to_string()
        },
        MPM_US_PER_PARTICLE_SECOND
    );
    for l in &s.runs {
        let _ = writeln!(
            m,
            "| {} | {:.2e} | {} | {} | {} | {:.4} | {:.1} % | {:.4} | {:.3} | {:.4} | {:.3} | {:.1} | {:.3} | {:.0} |",
            l.spacing_m,
            l.dt_max_s,
            l.iterations,
            l.particles,
            l.steps,
            l.runout,
            100.0 * (l.runout - s.reference_runout).abs() / s.reference_runout,
            l.runout95,
            l.runout_toe,
            l.height,
            l.height_top,
            l.slope_degrees,
            l.nn_mean_over_spacing,
            l.us_per_particle_simulated_second
        );
    }
    let _ = writeln!(
        m,
        "\nAny point: `cargo xtask collapse --dt-max DT --iterations K --spacing DX`; the section: \
         `cargo xtask report{tier_flag} --only collapse` ({:.0} s).",
        s.wall_seconds
    );
}
