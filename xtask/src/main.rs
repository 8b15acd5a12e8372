//! `cargo xtask`: the project's convergence suites, benchmarks and reports.
//!
//! Every subcommand that produces published figures prints exactly one JSON line on stdout
//! (progress and diagnostics go to stderr), so figures can be reproduced and diffed.

use anyhow::Result;
use clap::{Parser, Subcommand};

mod bench;
mod bench_coupled;
mod bench_pbf;
mod bench_rigid;
mod cantilever;
mod collapse;
mod convergence;
mod plot;
mod report;
mod scene_cmd;
mod scenes;
mod splat;
mod viewer;

#[derive(Parser, Debug)]
#[command(
    name = "cargo xtask",
    about = "Convergence suites, benchmarks and reports for the XPBD/XPBI workspace"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Benchmarks with a fixed protocol; one JSON line per run.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// One cantilever (FEM oracle, XPBD tets or XPBI particles); one JSON line.
    Cantilever(cantilever::CantileverArgs),
    /// One granular column collapse (step, iterations, resolution, base friction); one JSON line
    /// with the deposit and the cost of a simulated second.
    Collapse(collapse::CollapseArgs),
    /// The cantilever convergence study (FEM oracle vs XPBD solvers); JSON under target/report/.
    Convergence(convergence::ConvergenceArgs),
    /// Convergence study + validation scenes + benchmark pass → target/report/{index.html,report.md}.
    Report(report::ReportArgs),
    /// Runs a scene file with a progress bar and writes its frames.
    Run(scene_cmd::RunArgs),
    /// Writes DIR/index.html, a self-contained 3D player of DIR's frames.
    View(viewer::ViewArgs),
    /// 10^5-step soak of a scene (default a small cloth on a sphere; coupled soaks in scenes/soak_*.toml): finite, bounded energy.
    Soak(scene_cmd::SoakArgs),
    /// Fuzzes the scene parser and the mesh importers for a fixed time each (stable Rust);
    /// shrunk failing inputs go to fuzz/regressions/.
    Fuzz(scene_cmd::FuzzArgs),
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Bench(cmd) => bench::run(cmd),
        Command::Cantilever(args) => cantilever::run_command(args),
        Command::Collapse(args) => collapse::run_command(args),
        Command::Convergence(args) => convergence::run_command(args),
        Command::Report(args) => report::run_command(args),
        Command::Run(args) => scene_cmd::run_command(args),
        Command::View(args) => viewer::view_command(args),
        Command::Soak(args) => scene_cmd::soak_command(args),
        Command::Fuzz(args) => scene_cmd::fuzz_command(args),
    }
}
