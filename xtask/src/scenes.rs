//! Validation scenes of the report: hanging chain (analytic static stretch), incline friction
//! (Coulomb sticking and sliding), 3-D sand column collapse (XPBI: particle uniformity, runout,
//! slope; renders). Every figure is measured here and compared with its analytic value where
//! one exists.

use std::path::Path;

use anyhow::{Context, Result};
use nalgebra::Vector3;
use serde::{Deserialize, Serialize};
use xpbd_core::builders::RopeBuilder;
use xpbd_core::contact::Friction;
use xpbd_core::prelude::*;
use xpbi_continuum::observables::{nn_statistics, pile_observables};
use xpbi_continuum::sand_column::{SandColumnConfig, sand_column_3d_scene};

const G: f64 = 9.81;

/// Hanging chain: `n` links of rest length `l₀` and compliance `α`, particles of mass `m`,
/// pinned at the top. At rest, link `k` (from the top, 0-based) carries the weight of the
/// `n − k` particles below it, so its stretch is `α (n − k) m g` (XPBD: compliance is inverse
/// stiffness in physical units).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChainResult {
    /// Links.
    pub links: usize,
    /// Compliance (m/N).
    pub compliance: f64,
    /// Substeps × iterations.
    pub substeps: usize,
    /// Iterations per substep.
    pub iterations: usize,
    /// Largest relative error of a link stretch against `α T_k`.
    pub max_relative_error: f64,
    /// Measured stretch of the top link (m).
    pub top_stretch: f64,
    /// Analytic stretch of the top link (m).
    pub top_stretch_analytic: f64,
}

/// Runs the hanging chain to rest.
pub fn hanging_chain() -> Result<ChainResult> {
    let links = 10;
    let m = 0.1;
    let alpha = 1e-3;
    let rope = RopeBuilder::<3> {
        links,
        start: Vector::<3>::zeros(),
        end: Vector::<3>::new(0.0, 0.0, -1.0),
        mass: m * (links + 1) as f64,
        compliance: alpha,
        pin_start: true,
    }
    .build()?;
    let (substeps, iterations) = (20, 20);
    let settings = SolverSettings {
        substeps,
        iterations,
        solver: SolverKind::GaussSeidel,
        velocity_damping: 5.0,
        gravity: Vector::<3>::new(0.0, 0.0, -G),
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(rope.particles, settings)?;
    sim.add_constraints(rope.links)?;
    for _ in 0..600 {
        sim.step(1.0 / 60.0)?;
    }
    let x = &sim.particles().x;
    let l0 = 1.0 / links as f64;
    let mut max_rel: f64 = 0.0;
    let mut top = (0.0, 0.0);
    for k in 0..links {
        let stretch = (x[k + 1] - x[k]).norm() - l0;
        let analytic = alpha * (links - k) as f64 * m * G;
        max_rel = max_rel.max(((stretch - analytic) / analytic).abs());
        if k == 0 {
            top = (stretch, analytic);
        }
    }
    Ok(ChainResult {
        links,
        compliance: alpha,
        substeps,
        iterations,
        max_relative_error: max_rel,
        top_stretch: top.0,
        top_stretch_analytic: top.1,
    })
}

/// Incline friction: one particle on a plane at angle θ with Coulomb friction `(μ_s, μ_k)`,
/// 1 s from rest, 20 substeps at 60 Hz.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InclineResult {
    /// θ (degrees).
    pub angle_degrees: f64,
    /// Static coefficient.
    pub mu_static: f64,
    /// Kinetic coefficient.
    pub mu_kinetic: f64,
    /// Downhill speed after 1 s (m/s).
    pub speed: f64,
    /// Analytic: 0 if tan θ ≤ μ_s, else g (sin θ − μ_k cos θ) × 1 s.
    pub speed_analytic: f64,
    /// |speed − analytic| / max(analytic, 1).
    pub error: f64,
}

/// Runs the incline at `theta_deg`.
pub fn incline(theta_deg: f64, mu_s: f64, mu_k: f64) -> Result<InclineResult> {
    let theta = theta_deg.to_radians();
    let n = Vector::<3>::new(-theta.sin(), 0.0, theta.cos());
    let t = Vector::<3>::new(theta.cos(), 0.0, theta.sin());
    let r = 0.02;
    let mut particles = Particles::<3>::new();
    particles.push(n * r, 1.0);
    let settings = SolverSettings {
        substeps: 20,
        iterations: 1,
        solver: SolverKind::GaussSeidel,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(particles, settings)?;
    let mut contacts = ColliderContacts::new(r, ContactOptions::default())?;
    contacts.add_collider(
        Collider::fixed(Shape::HalfSpace {
            normal: n,
            offset: 0.0,
        })
        .with_friction(Friction::new(mu_s, mu_k)?),
    )?;
    sim.add_constraints(contacts)?;
    for _ in 0..60 {
        sim.step(1.0 / 60.0)?;
    }
    let speed = -sim.particles().v[0].dot(&t);
    let analytic = if theta.tan() <= mu_s {
        0.0
    } else {
        G * (theta.sin() - mu_k * theta.cos())
    };
    Ok(InclineResult {
        angle_degrees: theta_deg,
        mu_static: mu_s,
        mu_kinetic: mu_k,
        speed,
        speed_analytic: analytic,
        error: (speed - analytic).abs() / analytic.max(1.0),
    })
}

/// 3-D sand column collapse (issue 5's column: 0.2 × 0.2 × 0.4 m, φ = 30°, XPBI coloured GS).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SandResult {
    /// Particles.
    pub particles: usize,
    /// Spacing (m).
    pub spacing: f64,
    /// Simulated seconds.
    pub seconds: f64,
    /// Δt (s).
    pub dt: f64,
    /// Smallest nearest-neighbour distance over Δx seen at any render frame (claim: ≥ 0.75).
    pub nn_min_over_time: f64,
    /// Mean NN distance over Δx at the end (claim: within 15 % of 1).
    pub nn_mean: f64,
    /// Std of NN distance over Δx at the end (claim: < 0.15).
    pub nn_std: f64,
    /// Pile height (m, 99th percentile).
    pub height: f64,
    /// Runout radius (m, 95th percentile).
    pub runout: f64,
    /// Free-surface slope (degrees).
    pub slope_degrees: f64,
    /// PNG renders (side view, x–z), relative to the report directory.
    pub frames: Vec<String>,
    /// Wall seconds.
    pub wall_seconds: f64,
}

/// Runs the column with `particles` particles for `seconds`, rendering 4 frames into `dir`.
pub fn sand_column(particles: usize, seconds: f64, dir: &Path) -> Result<SandResult> {
    let start = std::time::Instant::now();
    let mut config = SandColumnConfig::new(particles);
    config.seconds = seconds;
    config.threads = 1;
    config.dt = 2e-4;
    let mut scene = sand_column_3d_scene(&config).context("sand column scene")?;
    let dx = scene.options.spacing;
    let n = scene.positions().len();
    let frames_at = [0.0, seconds / 3.0, 2.0 * seconds / 3.0, seconds];
    let mut frames = Vec::new();
    let mut nn_min: f64 = f64::INFINITY;
    let z0: Vec<f64> = sand_column_3d_positions_heights(particles);
    for (k, &t) in frames_at.iter().enumerate() {
        scene.run_until(t).map_err(anyhow::Error::from)?;
        let x = scene.positions();
        nn_min = nn_min.min(nn_statistics(x, dx).2);
        let name = format!("sand-column-frame{k}.png");
        let pts: Vec<(f64, f64)> = x.iter().map(|p| (p.x, p.z)).collect();
        crate::splat::splat(
            &dir.join(&name),
            (480, 320),
            (-0.45, 0.45, -0.02, 0.58),
            &pts,
            2,
            |i| {
                // Colour by initial height: bands show how the column flows.
                let f = (z0.get(i).copied().unwrap_or(0.0) / 0.4).clamp(0.0, 1.0);
                [
                    (200.0 * f + 40.0) as u8,
                    (120.0 + 60.0 * (1.0 - f)) as u8,
                    (220.0 * (1.0 - f) + 20.0) as u8,
                ]
            },
        )?;
        frames.push(name);
    }
    let x = scene.positions();
    let pile = pile_observables(x, &Vector3::zeros(), dx);
    Ok(SandResult {
        particles: n,
        spacing: dx,
        seconds,
        dt: config.dt,
        nn_min_over_time: nn_min,
        nn_mean: pile.nn_mean,
        nn_std: pile.nn_std,
        height: pile.height,
        runout: pile.runout,
        slope_degrees: pile.slope_degrees,
        frames,
        wall_seconds: start.elapsed().as_secs_f64(),
    })
}

fn sand_column_3d_positions_heights(particles: usize) -> Vec<f64> {
    xpbi_continuum::sand_column::sand_column_3d_positions(particles)
        .0
        .iter()
        .map(|p| p.z)
        .collect()
}
