//! The convergence study's figures (SVG plots of its series).

use std::path::Path;

use anyhow::Result;
use xtask::study::{Kind, Series, StudyOutput};

use super::Summary;
use crate::plot::{Curve, plot};

fn series_curves(series: &[Series], filter: impl Fn(&Series) -> bool) -> Vec<Curve> {
    series
        .iter()
        .filter(|s| filter(s) && s.y.iter().filter(|y| y.is_finite()).count() >= 2)
        .map(|s| Curve {
            label: match s.slope {
                Some(p) => format!("{} (slope {p:.2})", s.label),
                None => s.label.clone(),
            },
            points: s.x.iter().copied().zip(s.y.iter().copied()).collect(),
            dashed: s.method.contains("jacobi"),
        })
        .collect()
}

/// Plots the convergence study into `dir` and lists the figures in the summary.
pub fn convergence_figures(
    s: &mut Summary,
    out: &StudyOutput,
    dir: &Path,
    tier_flag: &str,
) -> Result<()> {
    let a = &out.analysis;
    let cmd = format!("cargo xtask convergence{tier_flag}");
    let fig = |s: &mut Summary,
               name: &str,
               caption: &str,
               title: &str,
               xl: &str,
               yl: &str,
               curves: Vec<Curve>,
               log: bool|
     -> Result<()> {
        plot(&dir.join(name), title, xl, yl, &curves, log)?;
        s.figures.push((name.into(), caption.into(), cmd.clone()));
        Ok(())
    };
    fig(
        s,
        "residual-vs-iteration.svg",
        "Residual ‖C + α̃λ‖ (relative to the first iteration) per iteration of one substep h = Δt/S₀ started from the exact FEM equilibrium with λ = 0 (GS solid, Jacobi dashed).",
        "Residual per iteration (probe)",
        "iteration",
        "residual / first",
        series_curves(&a.probe, |x| x.method != "xpbd-colored"),
        true,
    )?;
    fig(
        s,
        "error-vs-iterations.svg",
        "Relative tip error at rest vs FEM order 1 on the same mesh, against iterations per substep (S = 4 S₀).",
        "Tip error vs iterations (S = 4 S0)",
        "iterations per substep",
        "relative tip error",
        series_curves(&a.iterations, |x| x.method != "xpbd-colored"),
        true,
    )?;
    fig(
        s,
        "error-vs-substeps.svg",
        "Relative tip error at rest vs FEM order 1, against the substep h = Δt/S at one iteration: the fitted slope is the observed order in h.",
        "Tip error vs substep size (I = 1)",
        "h = Δt/S (s)",
        "relative tip error",
        series_curves(&a.substeps, |_| true),
        true,
    )?;
    fig(
        s,
        "error-vs-small-steps.svg",
        "Fixed budget S × I = 16 S₀: relative tip error against the number of substeps S (\"small steps\").",
        "Small steps at a fixed budget",
        "substeps S (I = 16 S0 / S)",
        "relative tip error",
        series_curves(&a.small_steps, |_| true),
        true,
    )?;
    fig(
        s,
        "error-vs-dt.svg",
        "Relative tip error against the frame Δt at S = 4 S₀, I = 8.",
        "Tip error vs Δt",
        "Δt (s)",
        "relative tip error",
        series_curves(&a.time_step, |_| true),
        true,
    )?;
    fig(
        s,
        "error-vs-resolution.svg",
        "Relative tip error against the cell size L/N, vs FEM order 2 on the finest mesh (stable Neo-Hookean): XPBD GS, FEM order 1 and order 2.",
        "Tip error vs resolution",
        "cell size L/N (m)",
        "relative tip error",
        series_curves(&a.resolution, |_| true),
        true,
    )?;
    // Trajectories.
    let mut curves = vec![];
    for m in out
        .points
        .iter()
        .filter(|m| m.point.kind == Kind::Trajectory)
    {
        if let Some(r) = &m.result {
            curves.push(Curve {
                label: format!(
                    "{} E = {:.0e}",
                    if m.point.method == "fem" {
                        "FEM backward Euler"
                    } else {
                        "XPBD GS"
                    },
                    m.point.youngs
                ),
                points: r.trajectory.iter().map(|t| (t[0], t[2])).collect(),
                dashed: m.point.method == "fem",
            });
        }
    }
    fig(
        s,
        "tip-trajectory.svg",
        "Undamped tip trajectory u_z(t) from rest: XPBD GS against the FEM backward-Euler oracle with the same step h = Δt/S.",
        "Tip trajectory vs oracle",
        "t (s)",
        "u_z (m)",
        curves,
        false,
    )?;
    Ok(())
}
