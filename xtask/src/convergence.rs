//! `cargo xtask convergence [--quick] [--jobs J]`: the cantilever convergence study
//! ([`xtask::study`]), written to `target/report/convergence-{quick,full}.json`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use xtask::study::{self, StudyOutput, Tier};

/// Arguments of `cargo xtask convergence`.
#[derive(Args, Debug, Clone)]
pub struct ConvergenceArgs {
    /// The CI tier (about 2 minutes on 2 cores) instead of the full one (about 20).
    #[arg(long)]
    pub quick: bool,
    /// Parallel jobs (rayon threads); 0 = all cores.
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Output directory.
    #[arg(long, default_value = "target/report")]
    pub out: PathBuf,
}

/// Fails with a clear message unless `dir` can be created and written.
pub fn ensure_writable(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("output directory {} cannot be created", dir.display()))?;
    let probe = dir.join(".write-test");
    std::fs::write(&probe, b"ok")
        .with_context(|| format!("output directory {} is not writable", dir.display()))?;
    std::fs::remove_file(&probe).ok();
    Ok(())
}

/// Runs the study with a progress bar on stderr.
pub fn run_study(tier: Tier, jobs: usize) -> Result<StudyOutput> {
    let plan = study::plan(tier);
    let bar = ProgressBar::new(plan.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}")
            .expect("static template"),
    );
    bar.set_prefix("convergence");
    let out = study::run_plan(tier, &plan, jobs, &|m| {
        bar.set_message(format!(
            "{} E={:.0e} S={} I={}",
            m.point.method, m.point.youngs, m.point.substeps, m.point.iterations
        ));
        bar.inc(1);
    })?;
    bar.finish_with_message(format!("{:.1} s", out.wall_seconds));
    Ok(out)
}

/// File name of a tier's JSON.
pub fn json_name(tier: Tier) -> &'static str {
    match tier {
        Tier::Quick => "convergence-quick.json",
        Tier::Full => "convergence-full.json",
    }
}

pub fn run_command(a: ConvergenceArgs) -> Result<()> {
    ensure_writable(&a.out)?;
    let tier = if a.quick { Tier::Quick } else { Tier::Full };
    let out = run_study(tier, a.jobs)?;
    let path = a.out.join(json_name(tier));
    std::fs::write(&path, serde_json::to_string_pretty(&out)?)
        .with_context(|| format!("writing {}", path.display()))?;
    for p in &out.analysis.per_youngs {
        eprintln!("E = {:.0e}: {}", p.youngs, p.verdict);
    }
    println!(
        "{}",
        serde_json::json!({"tier": tier, "points": out.points.len(), "wall_seconds": out.wall_seconds, "json": path})
    );
    Ok(())
}
