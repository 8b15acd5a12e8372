//! `cargo xtask cantilever`: one cantilever by any method, one JSON line on stdout.

use anyhow::Result;
use clap::Args;
use xpbd_core::cantilever::Cantilever;
use xtask::beam::{Method, RunOptions, parse_material, run};

/// Arguments of `cargo xtask cantilever` (SI units; defaults: the study beam at E = 1e6 Pa).
#[derive(Args, Debug)]
pub struct CantileverArgs {
    /// fem | xpbd-gs | xpbd-colored | xpbd-jacobi | xpbi-colored | xpbi-jacobi
    #[arg(long, default_value = "fem")]
    method: String,
    /// Beam length L (m).
    #[arg(long, default_value_t = 0.5)]
    length: f64,
    /// Beam width W (m).
    #[arg(long, default_value_t = 0.1)]
    width: f64,
    /// Beam height H (m), the bending direction.
    #[arg(long, default_value_t = 0.1)]
    height: f64,
    /// Young's modulus E (Pa).
    #[arg(long, default_value_t = 1e6)]
    youngs: f64,
    /// Poisson's ratio ν.
    #[arg(long, default_value_t = 0.3)]
    poisson: f64,
    /// Density ρ (kg/m³).
    #[arg(long, default_value_t = 1000.0)]
    density: f64,
    /// FEM material: hencky | neo-hookean | stable-neo-hookean | linear (XPBD always uses
    /// stable Neo-Hookean tets, XPBI Hencky-StVK).
    #[arg(long, default_value = "stable-neo-hookean")]
    material: String,
    /// FEM element order, 1 or 2 (XPBD uses the order-1 mesh).
    #[arg(long, default_value_t = 1)]
    order: u8,
    /// Hex cells along the length (cross-section cells ≈ cubic).
    #[arg(long, default_value_t = 10)]
    cells: usize,
    /// Substeps per step (XPBD/XPBI).
    #[arg(long, default_value_t = 10)]
    substeps: usize,
    /// Iterations per substep (XPBD/XPBI).
    #[arg(long, default_value_t = 1)]
    iterations: usize,
    /// Step Δt (s) (XPBD/XPBI; FEM backward Euler uses Δt/substeps).
    #[arg(long, default_value_t = 1.0 / 60.0)]
    dt: f64,
    /// Undamped run of this many seconds (FEM: backward Euler); default: damped run to rest
    /// (FEM: static Newton).
    #[arg(long)]
    seconds: Option<f64>,
    /// Record the tip trajectory in the JSON line.
    #[arg(long)]
    trajectory: bool,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

pub fn run_command(a: CantileverArgs) -> Result<()> {
    let method = Method::parse(&a.method)?;
    let beam = Cantilever {
        length: a.length,
        width: a.width,
        height: a.height,
        youngs: a.youngs,
        poisson: a.poisson,
        density: a.density,
        ..Cantilever::default()
    };
    let opts = RunOptions {
        material: parse_material(&a.material)?,
        order: a.order,
        cells: a.cells,
        substeps: a.substeps,
        iterations: a.iterations,
        dt: a.dt,
        seconds: a.seconds,
        trajectory: a.trajectory,
        threads: a.threads,
    };
    if !(opts.dt.is_finite() && opts.dt > 0.0) {
        anyhow::bail!("--dt must be finite and > 0, got {}", opts.dt);
    }
    let result = run(&beam, method, &opts)?;
    println!("{}", serde_json::to_string(&result)?);
    Ok(())
}
