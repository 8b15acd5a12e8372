//! `cargo xtask report [--quick] [--check] [--jobs J] [--only NAME]`: the convergence study, the
//! validation scenes and a short benchmark pass, written to `target/report/index.html` and
//! `target/report/report.md` with SVG plots and PNG renders. Every number in the report comes from
//! this run; `--check` compares the key figures with `xtask/baseline/<tier>.json`.
//!
//! * this module: the command, its sections run in order, and the summary they fill;
//! * [`checks`]: the key figures and their baseline (`--bless`, `--check`);
//! * [`markdown`]: `report.md`, one function per section; [`html`]: `index.html` from it;
//! * [`figures`]: the convergence study's plots; the other modules: one study or scene each.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Result, bail};
use clap::Args;
use serde::{Deserialize, Serialize};
use xtask::study::{Analysis, Tier};

mod checks;
mod collapse_study;
mod dam_break;
mod figures;
mod gallery;
mod html;
mod markdown;
mod planar_study;
mod repose_table;
use collapse_study::{CollapseStudy, collapse_study};
use gallery::{GalleryScene, gallery};
use planar_study::{PlanarStudy, planar_study};

use crate::bench::{ClothBenchLine, bench_cloth};
use crate::convergence::{ensure_writable, json_name, run_study};
use crate::scenes::{
    ChainResult, InclineResult, ReposeRow, SandResult, SnowResult, UniformityRow, angle_of_repose,
    hanging_chain, incline, sand_column, snow_robustness, uniformity,
};

/// Report sections (`--only`).
pub const SECTIONS: [&str; 12] = [
    "convergence",
    "chain",
    "incline",
    "sand",
    "repose",
    "uniformity",
    "snow",
    "collapse",
    "planar",
    "dam_break",
    "gallery",
    "bench",
];

/// Arguments of `cargo xtask report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The CI tier (≈ 2–3 minutes on 2 cores) instead of the full one.
    #[arg(long)]
    quick: bool,
    /// Compare the key figures with xtask/baseline/<tier>.json; exit non-zero on a regression.
    #[arg(long)]
    check: bool,
    /// Write the key figures of this run as the new baseline (review the diff before committing);
    /// with `--only`, replace that section's entries and keep the others.
    #[arg(long)]
    bless: bool,
    /// Parallel jobs for the convergence study (0 = all cores).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// Run one section only: convergence | chain | incline | sand | repose | uniformity | snow |
    /// collapse | planar | dam_break | gallery | bench.
    #[arg(long)]
    only: Option<String>,
    /// Output directory.
    #[arg(long, default_value = "target/report")]
    out: PathBuf,
}

/// Machine and provenance.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Provenance {
    /// CPU model from /proc/cpuinfo.
    pub cpu: String,
    /// Logical cores.
    pub cores: usize,
    /// `git rev-parse HEAD` (+ "-dirty" with uncommitted changes).
    pub commit: String,
    /// The command line.
    pub command: String,
    /// UTC date.
    pub date: String,
}

fn provenance(command: String) -> Provenance {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let mut commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    if git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty()) {
        commit += "-dirty";
    }
    let date = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    Provenance {
        cpu,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        commit,
        command,
        date,
    }
}

/// Everything the report shows (`target/report/summary.json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Summary {
    /// Tier.
    pub tier: Tier,
    /// Machine, commit, command.
    pub provenance: Provenance,
    /// Convergence analysis (the points are in convergence-<tier>.json).
    pub convergence: Option<Analysis>,
    /// Convergence wall seconds.
    pub convergence_seconds: Option<f64>,
    /// Hanging chain.
    pub chain: Option<ChainResult>,
    /// Incline runs.
    pub incline: Vec<InclineResult>,
    /// Sand column.
    pub sand: Option<SandResult>,
    /// Angle of repose at φ = 20°, 30°, 40°.
    #[serde(default)]
    pub repose: Vec<ReposeRow>,
    /// Particle uniformity through the 2D column collapse.
    #[serde(default)]
    pub uniformity: Vec<UniformityRow>,
    /// Snow step-size robustness.
    #[serde(default)]
    pub snow: Option<SnowResult>,
    /// Planar collapses against the laboratory, at three resolutions.
    #[serde(default)]
    pub planar: Option<PlanarStudy>,
    /// Column collapse: deposit against Δt, iterations and resolution, and its cost.
    #[serde(default)]
    pub collapse: Option<CollapseStudy>,
    /// The gallery of coupled scenes, rendered.
    #[serde(default)]
    pub gallery: Vec<GalleryScene>,
    /// Cloth benchmark lines.
    pub bench: Vec<ClothBenchLine>,
    /// Sections skipped, with the reason.
    pub skipped: Vec<String>,
    /// Key figures (name → value) checked against the baseline.
    pub key_figures: BTreeMap<String, f64>,
    /// Figures: (file, caption, command that produced the data).
    pub figures: Vec<(String, String, String)>,
    /// Wall seconds of the whole report.
    pub wall_seconds: f64,
}

impl Summary {
    /// A summary with no section run yet.
    fn new(tier: Tier, provenance: Provenance) -> Self {
        Self {
            tier,
            provenance,
            convergence: None,
            convergence_seconds: None,
            chain: None,
            incline: vec![],
            sand: None,
            repose: vec![],
            uniformity: vec![],
            snow: None,
            collapse: None,
            planar: None,
            gallery: vec![],
            bench: vec![],
            skipped: vec![],
            key_figures: BTreeMap::new(),
            figures: vec![],
            wall_seconds: 0.0,
        }
    }
}

/// `cargo xtask report`: runs the sections asked for, writes the summary, the markdown and the
/// HTML page, blesses or checks the baseline, and prints one JSON line.
pub fn run_command(a: ReportArgs) -> Result<()> {
    let start = Instant::now();
    if let Some(o) = &a.only
        && !SECTIONS.contains(&o.as_str())
    {
        bail!("unknown --only {o:?}: use one of {}", SECTIONS.join(" | "));
    }
    ensure_writable(&a.out)?;
    let tier = if a.quick { Tier::Quick } else { Tier::Full };
    let cmd = format!(
        "cargo xtask report{}{}",
        tier_flag(a.quick),
        a.only
            .as_ref()
            .map_or(String::new(), |o| format!(" --only {o}"))
    );
    let mut s = Summary::new(tier, provenance(cmd));
    run_sections(&a, &mut s)?;
    s.key_figures = checks::key_figures(&s);
    s.wall_seconds = start.elapsed().as_secs_f64();
    write_outputs(&a.out, &s)?;
    let baseline = checks::baseline_path(tier);
    if a.bless {
        checks::bless_baseline(&baseline, &s.key_figures, a.only.is_some())?;
    }
    if a.check {
        checks::check_baseline(&baseline, &s.key_figures, a.only.is_some())?;
    }
    println!(
        "{}",
        serde_json::json!({"report": a.out.join("index.html"), "wall_seconds": s.wall_seconds, "key_figures": s.key_figures.len()})
    );
    Ok(())
}

/// ` --quick` in the quick tier, nothing in the full one (for the commands the report quotes).
fn tier_flag(quick: bool) -> &'static str {
    if quick { " --quick" } else { "" }
}

/// Runs every section `--only` lets through, in the report's order, into `s`.
fn run_sections(a: &ReportArgs, s: &mut Summary) -> Result<()> {
    let want = |name: &str| a.only.as_deref().is_none_or(|o| o == name);
    if want("convergence") {
        run_convergence(a, s)?;
    }
    if want("chain") {
        eprintln!("scene: hanging chain");
        s.chain = Some(hanging_chain()?);
    }
    if want("incline") {
        eprintln!("scene: incline friction");
        s.incline.push(incline(20.0, 0.6, 0.4)?);
        s.incline.push(incline(40.0, 0.5, 0.3)?);
    }
    if want("sand") {
        run_sand(a, s)?;
    }
    if want("repose") {
        eprintln!("scene: angle of repose (φ = 20°, 30°, 40°)");
        s.repose = angle_of_repose(a.quick)?;
    }
    if want("uniformity") {
        eprintln!("scene: particle uniformity (2D column collapse)");
        s.uniformity = uniformity(a.quick)?;
    }
    if want("snow") {
        eprintln!("scene: snow step-size robustness");
        s.snow = Some(snow_robustness(a.quick)?);
    }
    if want("collapse") {
        run_collapse(a, s)?;
    }
    if want("planar") {
        eprintln!("scene: planar collapses against the laboratory");
        s.planar = Some(planar_study(a.quick)?);
    }
    if want("dam_break") {
        run_dam_break(a, s)?;
    }
    if want("gallery") {
        run_gallery(a, s)?;
    }
    if want("bench") {
        run_bench(a, s)?;
    }
    Ok(())
}

/// The convergence study: its JSON, its figures and its analysis.
fn run_convergence(a: &ReportArgs, s: &mut Summary) -> Result<()> {
    let out = run_study(s.tier, a.jobs)?;
    std::fs::write(
        a.out.join(json_name(s.tier)),
        serde_json::to_string_pretty(&out)?,
    )?;
    figures::convergence_figures(s, &out, &a.out, tier_flag(a.quick))?;
    s.convergence_seconds = Some(out.wall_seconds);
    s.convergence = Some(out.analysis);
    Ok(())
}

/// The 3-D sand column and its renders.
fn run_sand(a: &ReportArgs, s: &mut Summary) -> Result<()> {
    eprintln!("scene: sand column");
    let (n, secs) = if a.quick { (1000, 0.15) } else { (8000, 0.4) };
    let r = sand_column(n, secs, &a.out)?;
    for (k, f) in r.frames.iter().enumerate() {
        s.figures.push((
            f.clone(),
            format!(
                "3-D sand column (XPBI, φ = 30°), side view, t = {:.3} s",
                secs * k as f64 / 3.0
            ),
            format!("cargo xtask report{} --only sand", tier_flag(a.quick)),
        ));
    }
    s.sand = Some(r);
    Ok(())
}

/// The column collapse's accuracy against cost (full tier only).
fn run_collapse(a: &ReportArgs, s: &mut Summary) -> Result<()> {
    if a.quick {
        s.skipped.push(
                "collapse (accuracy vs cost of the column collapse): full tier only, ≈ 12 min; the Δt-halving check at Δx = 1 cm runs in the test suite (xpbd-scene/tests/collapse.rs)".into(),
            );
    } else {
        eprintln!("scene: column collapse, accuracy vs cost");
        let (study, svg) = collapse_study(&a.out)?;
        s.figures.push((
                svg,
                "Column collapse: runout error against the finest step vs µs per particle per simulated second; MLS-MPM for reference".into(),
                "cargo xtask report --only collapse".into(),
            ));
        s.collapse = Some(study);
    }
    Ok(())
}

/// The dam break against Martin & Moyce (full tier only).
fn run_dam_break(a: &ReportArgs, s: &mut Summary) -> Result<()> {
    if a.quick {
        s.skipped.push(
                "dam_break (water column against Martin & Moyce at three resolutions): full tier only, ≈ 1 min; the comparison at a/20 and a/40 runs in the test suite (xpbi-continuum/tests/fluid.rs)".into(),
            );
    } else {
        eprintln!("scene: dam break against Martin & Moyce");
        let svg = dam_break::dam_break_figure(&a.out)?;
        s.figures.push((
                svg,
                "Dam break (2D position-based fluid): surge front z/a against t√(2g/a) at Δx = a/10, a/20, a/40 and at a/40 with half the step, and in 3D from a scene description at a/20, beside Martin & Moyce's measurements".into(),
                "cargo xtask report --only dam_break".into(),
            ));
    }
    Ok(())
}

/// The gallery of coupled scenes, when Chromium is there to render it.
fn run_gallery(a: &ReportArgs, s: &mut Summary) -> Result<()> {
    if Path::new(crate::viewer::CHROMIUM).exists() {
        s.gallery = gallery(&a.out, a.quick)?;
    } else {
        s.skipped.push(format!(
                "gallery (coupled scenes rendered by the viewer): {} not found (apt-get install chromium)",
                crate::viewer::CHROMIUM
            ));
    }
    Ok(())
}

/// The cloth benchmark pass.
fn run_bench(a: &ReportArgs, s: &mut Summary) -> Result<()> {
    eprintln!("bench: cloth");
    let n = if a.quick { 32 } else { 64 };
    for solver in ["gs", "colored", "jacobi"] {
        s.bench.push(bench_cloth(n, solver, 1)?);
    }
    if !a.quick {
        s.bench.push(bench_cloth(n, "colored", 2)?);
    }
    Ok(())
}

/// `summary.json`, `report.md` and `index.html` in `out`.
fn write_outputs(out: &Path, s: &Summary) -> Result<()> {
    std::fs::write(out.join("summary.json"), serde_json::to_string_pretty(s)?)?;
    let md = markdown::markdown(s);
    std::fs::write(out.join("report.md"), &md)?;
    std::fs::write(out.join("index.html"), html::html(&md))?;
    eprintln!(
        "report: {} ({:.1} s)",
        out.join("index.html").display(),
        s.wall_seconds
    );
    Ok(())
}
