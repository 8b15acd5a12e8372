//! `cargo xtask`: the project's convergence suites, benchmarks and reports.
//!
//! Every subcommand that produces published figures prints exactly one JSON line on stdout
//! (progress and diagnostics go to stderr), so figures can be reproduced and diffed.

use anyhow::Result;
use clap::{Parser, Subcommand};

mod bench;

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
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Bench(cmd) => bench::run(cmd),
    }
}
