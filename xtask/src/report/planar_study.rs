//! The granular section of the report: planar collapses in a channel
//! (`cargo xtask collapse --planar`, `xpbi_validation::planar_collapse`) at several aspect ratios
//! and three resolutions, against the laboratory laws of Lube et al. (2005) and the same
//! continuum in MLS-MPM (`xtask/compare/mpm_planar.py`, its lines committed in
//! `xtask/compare/mpm_planar.jsonl`).
//!
//! **Refinement path.** Δx and Δt are refined together, Δt_max = 2.5e-4 s × 10/n at n particles
//! across the column (the elastic Courant number c Δt/Δx ≈ 0.74 at every resolution, with
//! c = √(E/ρ)): above c Δt/Δx ≈ 1 a deposit's free surface and its static zone creep (a 20°
//! slope of φ = 32° sand creeps 0.75 Δx per second at c Δt/Δx = 1.5 and not at all at 0.6), so
//! refining Δx at a fixed step would mix that creep into the resolution study.

use std::fmt::Write as _;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::collapse::{CollapseArgs, PlanarLine, run_planar};

/// The committed MLS-MPM lines (`python3 xtask/compare/mpm_planar.py A N 32`, one per line).
const MPM_LINES: &str = include_str!("../../compare/mpm_planar.jsonl");

/// One line of `xtask/compare/mpm_planar.py`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MpmPlanarLine {
    pub aspect: f64,
    pub particles_across: usize,
    pub friction_angle: f64,
    /// `null` when the deposit has fewer than two bins in its flank (the coarsest runs).
    pub runout_toe: Option<f64>,
    pub runout_thickness5: f64,
    pub runout_front: f64,
    pub height: f64,
}

/// The convergence of one aspect ratio's deposit over the resolutions.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlanarConvergence {
    pub aspect: f64,
    /// Particles across dᵢ, coarse to fine.
    pub across: Vec<usize>,
    pub toe: Vec<f64>,
    pub height: Vec<f64>,
    pub front: Vec<f64>,
    /// |change| of the toe and of the height over the last halving, relative.
    pub toe_change: f64,
    pub height_change: f64,
    /// Observed order of the toe from the three resolutions (NaN unless the changes shrink).
    pub toe_order: f64,
    /// The Δx → 0 estimate of the toe (Richardson, with the observed order; NaN without one).
    pub toe_extrapolated: f64,
    /// When the flow stopped at the finest resolution, over √(hᵢ/g).
    pub stop_time: f64,
    /// Lube et al. (2005) and the laboratory height.
    pub lab_runout: f64,
    pub lab_height: f64,
}

/// All runs of the section.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlanarStudy {
    /// The sand of the scenes (φ = 32°), every aspect ratio at every resolution.
    pub runs: Vec<PlanarLine>,
    pub convergence: Vec<PlanarConvergence>,
    /// At n = 20: Klár's triaxial-compression cone, and μ(I).
    pub variants: Vec<(String, PlanarLine)>,
    pub mpm: Vec<MpmPlanarLine>,
    pub wall_seconds: f64,
}

/// The step cap at `n` particles across dᵢ (module docs).
pub fn dt_max(n: usize) -> f64 {
    2.5e-4 * 10.0 / n as f64
}

fn config(aspect: f64, n: usize) -> CollapseArgs {
    let mut c = CollapseArgs::planar(aspect, n);
    c.dt_max = dt_max(n);
    c
}

/// Runs the study on two workers, one thread each: the quick tier a = 1 and 2 at n = 20 (no
/// convergence figures), the full tier a = 0.5 at n = 40, 80, 160, a = 1 at n = 20, 40, 80,
/// a = 2, 4, 8 at n = 10, 20, 40 (a short column needs more particles across to resolve its
/// flank: at a = 0.5 the toe still moves 8 % from n = 40 to 80 and under 3 % from 80 to 160),
/// and the variants.
pub fn planar_study(quick: bool) -> Result<PlanarStudy> {
    let start = std::time::Instant::now();
    let aspects: &[f64] = if quick {
        &[1.0, 2.0]
    } else {
        &[0.5, 1.0, 2.0, 4.0, 8.0]
    };
    let across = |a: f64| -> &[usize] {
        match (quick, a) {
            (true, _) => &[20],
            (false, a) if a < 1.0 => &[40, 80, 160],
            (false, a) if a < 2.0 => &[20, 40, 80],
            (false, _) => &[10, 20, 40],
        }
    };
    let mut jobs: Vec<(String, CollapseArgs)> = Vec::new();
    for &a in aspects {
        for &n in across(a) {
            jobs.push((String::new(), config(a, n)));
        }
    }
    if !quick {
        for &a in &[1.0, 2.0, 4.0] {
            let mut c = config(a, 20);
            c.klar_cone = true;
            jobs.push(("Klár's triaxial-compression cone".into(), c));
            let mut c = config(a, 20);
            c.mu_i = true;
            jobs.push(("μ(I): φ₂ = 45°, I₀ = 0.279, d = 0.5 mm".into(), c));
        }
    }
    // Largest first, so that the pairs finish together.
    jobs.sort_by(|x, y| {
        let cost = |c: &CollapseArgs| c.aspect * (c.across * c.across * c.across) as f64;
        cost(&y.1).total_cmp(&cost(&x.1))
    });
    // Two workers take the jobs in turn (the largest first), one thread each.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Vec<(usize, Result<PlanarLine>)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((_, c)) = jobs.get(k) else { break };
                        mine.push((k, run_planar(c)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_default())
            .collect()
    });
    let mut done: Vec<(String, PlanarLine)> = Vec::new();
    for (k, l) in results.into_iter().flatten() {
        let l = l?;
        eprintln!(
            "planar collapse a = {}, n = {} {}: toe {:.3}, height {:.3} (laboratory {:.3}, {:.3})",
            l.aspect,
            l.particles_across,
            jobs[k].0,
            l.runout_toe,
            l.height,
            l.lab_runout,
            l.lab_height
        );
        done.push((jobs[k].0.clone(), l));
    }
    if done.len() != jobs.len() {
        anyhow::bail!("a planar collapse worker panicked");
    }
    let (mut runs, mut variants): (Vec<_>, Vec<_>) =
        done.into_iter().partition(|(label, _)| label.is_empty());
    runs.sort_by(|x, y| {
        (x.1.aspect, x.1.particles_across)
            .partial_cmp(&(y.1.aspect, y.1.particles_across))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    variants.sort_by(|x, y| x.1.aspect.total_cmp(&y.1.aspect).then(x.0.cmp(&y.0)));
    let runs: Vec<PlanarLine> = runs.into_iter().map(|(_, l)| l).collect();
    let convergence = aspects
        .iter()
        .map(|&a| {
            let series: Vec<&PlanarLine> = runs.iter().filter(|l| l.aspect == a).collect();
            let pick = |f: &dyn Fn(&PlanarLine) -> f64| series.iter().map(|l| f(l)).collect();
            let toe: Vec<f64> = pick(&|l| l.runout_toe);
            let height: Vec<f64> = pick(&|l| l.height);
            let last_change = |v: &[f64]| match v.len() {
                0 | 1 => f64::NAN,
                k => (v[k - 1] - v[k - 2]).abs() / v[k - 1].abs(),
            };
            let toe_order = if toe.len() >= 3 {
                let (x, y, z) = (toe[toe.len() - 3], toe[toe.len() - 2], toe[toe.len() - 1]);
                if (x - y) * (y - z) > 0.0 && (x - y).abs() > (y - z).abs() {
                    ((x - y) / (y - z)).log2()
                } else {
                    f64::NAN
                }
            } else {
                f64::NAN
            };
            let toe_extrapolated = if toe_order.is_finite() {
                let (y, z) = (toe[toe.len() - 2], toe[toe.len() - 1]);
                z + (z - y) / (2f64.powf(toe_order) - 1.0)
            } else {
                f64::NAN
            };
            PlanarConvergence {
                toe_extrapolated,
                stop_time: series[series.len() - 1].stop_time,
                aspect: a,
                across: series.iter().map(|l| l.particles_across).collect(),
                toe_change: last_change(&toe),
                height_change: last_change(&height),
                toe,
                height,
                front: pick(&|l| l.runout_front),
                toe_order,
                lab_runout: series[0].lab_runout,
                lab_height: series[0].lab_height,
            }
        })
        .collect();
    let mpm = MPM_LINES
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).context("xtask/compare/mpm_planar.jsonl"))
        .collect::<Result<Vec<MpmPlanarLine>>>()?;
    Ok(PlanarStudy {
        runs,
        convergence,
        variants,
        mpm,
        wall_seconds: start.elapsed().as_secs_f64(),
    })
}

/// Appends the section's text and tables to the markdown `m`.
pub fn write_planar_section(m: &mut String, s: &PlanarStudy, tier_flag: &str) {
    let _ = write!(
        m,
        "\n### Planar collapse against the laboratory\n\n\
         A column of dry sand, dᵢ = 5 cm long and hᵢ = a dᵢ high, stands against the \
         frictionless end wall of a channel (the symmetry plane of a column 2dᵢ wide) and \
         collapses on a Coulomb floor (μ = 0.6): XPBI in plane strain (2D), Drucker–Prager \
         φ = 32° on the library's Mohr–Coulomb pyramid, in 2D the shear-flow cone (tan φ is \
         the friction of a flowing layer, `xpbi_continuum::plasticity::FrictionCone`; the \
         scenes' sand: ρ = 1600 kg/m³, \
         E = 3.5e5 Pa, ν = 0.3), the library's XSPH \
         and position correction, 10 iterations, adaptive steps Δt ≤ 2.5e-4 s × 10/n with n \
         particles across dᵢ (Δx and Δt refined together at an elastic Courant number \
         √(E/ρ) Δt/Δx ≈ 0.74), run for 6 √(hᵢ/g). The laboratory: Lube, Huppert, Sparks & \
         Freundt (Phys. Rev. E 72, 041301, 2005), (d∞ − dᵢ)/dᵢ ≈ 1.2a (a ≲ 1.8–2.3) or \
         1.9a^{{2/3}} (a ≳ 2.3), here the lower of the two; h∞/dᵢ ≈ a below a ≈ 0.7 and \
         a^{{1/3}} above (Lajeunesse, Monnier & Homsy, Phys. Fluids 17, 103302, 2005). A \
         channel's side walls slow the laboratory flow; a plane-strain model has none, so it \
         should land at or above these prefactors: a 2D DEM of glass beads without walls runs \
         out to 1.67a and 2.5a^{{2/3}} (Kumar 2015, PhD thesis, Cambridge), and MPM with \
         Mohr–Coulomb beyond its DEM at a > 1.7.\n\n\
         **Which runout.** The toe is where the deposit's flank (its surface between 20 % and \
         60 % of the deposit height, beyond the summit) extended by a straight line meets the \
         floor; it converges under refinement. The connected front, the edge of the farthest \
         particle still touching the heap (what a laboratory reads), does not: a layer one \
         particle thick has no resolved internal friction and keeps spreading as Δx shrinks, in \
         XPBI as in MLS-MPM (its column below). So the toe is gated and compared with the \
         laboratory; it lies behind the laboratory's front by the thin tail of the deposit. The \
         flow has stopped when the kinetic energy is below 1e-4 of its peak (Lube et al.: \
         about 3 √(hᵢ/g)).\n\n\
         | a | n across dᵢ | toe (d∞ − dᵢ)/dᵢ | change, last halving | observed order (Δx → 0) | height h∞/dᵢ | change | connected front | flow stops (√(hᵢ/g)) | laboratory runout | toe / laboratory | laboratory height | height / laboratory | MLS-MPM toe, height, front (same n) |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    for c in &s.convergence {
        for (k, &n) in c.across.iter().enumerate() {
            let last = k + 1 == c.across.len();
            let mpm = s
                .mpm
                .iter()
                .find(|l| l.aspect == c.aspect && l.particles_across == n)
                .map_or("–".to_string(), |l| {
                    format!(
                        "{}, {:.3}, {:.3}",
                        l.runout_toe.map_or("–".to_string(), |t| format!("{t:.3}")),
                        l.height,
                        l.runout_front
                    )
                });
            let _ = writeln!(
                m,
                "| {} | {} | {:.3} | {} | {} | {:.3} | {} | {:.3} | {} | {:.3} | {:.2} | {:.3} | {:.2} | {} |",
                c.aspect,
                n,
                c.toe[k],
                if last && c.toe_change.is_finite() {
                    format!("{:.1} %", 100.0 * c.toe_change)
                } else {
                    String::new()
                },
                if last && c.toe_order.is_finite() {
                    format!("{:.1} ({:.3})", c.toe_order, c.toe_extrapolated)
                } else {
                    String::new()
                },
                c.height[k],
                if last && c.height_change.is_finite() {
                    format!("{:.1} %", 100.0 * c.height_change)
                } else {
                    String::new()
                },
                c.front[k],
                if last && c.stop_time.is_finite() {
                    format!("{:.1}", c.stop_time)
                } else if last {
                    "still creeping".to_string()
                } else {
                    String::new()
                },
                c.lab_runout,
                c.toe[k] / c.lab_runout,
                c.lab_height,
                c.height[k] / c.lab_height,
                mpm
            );
        }
    }
    if !s.variants.is_empty() {
        let _ = write!(
            m,
            "\n**The cone and the rate.** The same runs at n = 20 with Klár's cone (fitted to \
             Mohr–Coulomb in triaxial compression; in 2D its layers flow at 26.3° for φ = 32°, \
             in 3D at 36.6°), and with the μ(I) rheology on the shear-flow cone (Jop, Forterre \
             & Pouliquen 2006: the friction grows from tan φ with the inertial number \
             I = γ̇d/√(p/ρ_s); `plasticity = {{ drucker_prager = {{ friction_angle = 32.0, mu_i = \
             {{ dynamic_angle = 45.0, i0 = 0.279, grain_diameter = 5e-4, grain_density = 2650.0 }} \
             }} }}`):\n\n\
             | a | sand | toe | toe / laboratory | height | height / laboratory |\n|---|---|---|---|---|---|\n"
        );
        for (label, l) in &s.variants {
            let _ = writeln!(
                m,
                "| {} | {label} | {:.3} | {:.2} | {:.3} | {:.2} |",
                l.aspect,
                l.runout_toe,
                l.runout_toe / l.lab_runout,
                l.height,
                l.height / l.lab_height
            );
        }
    }
    let _ = writeln!(
        m,
        "\nAny point: `cargo xtask collapse --planar --aspect A --across N --dt-max DT` \
         (`--friction-angle`, `--mu-i`, `--klar-cone`); MLS-MPM: `python3 xtask/compare/mpm_planar.py A N 32`; \
         the section: `cargo xtask report{tier_flag} --only planar` ({:.0} s).",
        s.wall_seconds
    );
}
