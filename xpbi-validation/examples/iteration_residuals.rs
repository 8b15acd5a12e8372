//! How fast the XPBI iterations converge in the benchmark sand column: the residual
//! ‖C + α̃λ‖ after each iteration of a step, averaged over steps 20–59 at Δt = 1e-3 s
//! (the column's CFL-limited step), with multipliers reset every step (XPBD) or warm-started
//! as λ ← (1 − d) λ.
//!
//! ```text
//! cargo run --release -p xpbi-validation --example iteration_residuals -- PARTICLES ITERATIONS [d]
//! ```
//!
//! Measured (4 000 particles, 20 iterations, 2-core machine): the residual falls by about 1.5×
//! per iteration with the reset (5.2e-2 after 10, 8.0e-4 after 20); warm-started with d = 0.9
//! it is 5.4e-2 after 10 and with d = 0.5 8.3e-2: warm starting does not converge faster here.

use xpbi_validation::sand_column::{SandColumnConfig, sand_column_3d_scene};

fn main() {
    let arg = |k: usize| std::env::args().nth(k);
    let particles: usize = arg(1).map_or(4000, |s| s.parse().expect("PARTICLES"));
    let iterations: usize = arg(2).map_or(20, |s| s.parse().expect("ITERATIONS"));
    let warm: Option<f64> = arg(3).map(|s| s.parse().expect("d"));
    let mut config = SandColumnConfig::new(particles);
    config.dt = 1e-3;
    config.iterations = iterations;
    let mut scene = sand_column_3d_scene(&config).expect("column");
    let mut settings = scene.sim.settings().clone();
    settings.diagnostics.residuals = true;
    settings.multiplier_warm_start = warm;
    scene.sim.set_settings(settings).expect("settings");
    let (skip, steps) = (20, 60);
    let mut mean = vec![0.0; iterations];
    for k in 0..steps {
        scene.step().expect("step");
        if k >= skip {
            for (m, r) in mean.iter_mut().zip(&scene.sim.last_report().residuals) {
                *m += r / (steps - skip) as f64;
            }
        }
    }
    for (i, r) in mean.iter().enumerate() {
        println!("iteration {:2}: residual {r:.3e}", i + 1);
    }
}
