//! The dam break against Martin & Moyce (1952): a 2D water column of width a and height 2a
//! (n² = 2) collapsing along a dry horizontal bed, as position-based fluid
//! ([`xpbi_continuum::fluid::PbfFluid`]), its surge front against the laboratory's.
//!
//! The column stands against the end wall of a tank 10a long; walls and bed are frictionless
//! half-spaces with two layers of static boundary particles behind them (Akinci et al. 2012),
//! so particles near a wall see a full neighbourhood. Δt = 1/600 s, 10 substeps, 4 iterations.
//! The front is the furthest particle's centre + Δx/2, interpolated in time to each measured
//! instant.

use nalgebra::{SVector, Vector2};
use xpbd_core::contact::{Collider, ColliderContacts, ContactOptions, Shape};
use xpbd_core::{Particles, Simulation, SolverSettings, StepError};
use xpbi_continuum::XpbiError;
use xpbi_continuum::fluid::{FluidSettings, PbfFluid};
use xpbi_continuum::scene::lattice_box;

/// Martin & Moyce (1952, Phil. Trans. R. Soc. A 244, 312–324), Figure 3: the surge front of a
/// column of width a = 2.25 in and height 2a (n² = 2), as (T = t √(2g/a), Z = z/a)
/// (digitised values as distributed with PySPH's dam-break example, `db_exp_data.py`).
pub const MARTIN_MOYCE_A225: [(f64, f64); 8] = [
    (0.832, 1.217),
    (1.219, 1.474),
    (1.997, 2.292),
    (2.547, 2.995),
    (3.345, 4.134),
    (4.034, 4.944),
    (4.418, 5.881),
    (5.091, 6.980),
];

/// Column width a (m): Martin & Moyce's 2.25 in.
pub const COLUMN_WIDTH: f64 = 2.25 * 0.0254;

/// Why a dam break could not run.
#[derive(Debug, thiserror::Error)]
pub enum DamBreakError {
    /// The fluid refused its settings.
    #[error("fluid rejected")]
    Fluid(#[from] XpbiError),
    /// The core refused the model or a step.
    #[error("step failed")]
    Step(#[from] StepError),
    /// The simulation could not be built.
    #[error("simulation rejected")]
    Build(#[from] xpbd_core::BuildError),
}

/// A 2D tank: water (`fluid`, at its spacing Δx) filling `[0, w_water] × [0, depth]` against the wall x = 0,
/// walls at x = 0 and x = w and the bed z = 0 (frictionless), two layers of static boundary
/// particles behind them up to depth + 2Δx. Returns the simulation and the fluid count (the
/// fluid particles come first).
pub fn tank_2d(
    fs: FluidSettings,
    w_water: f64,
    w: f64,
    depth: f64,
    settings: SolverSettings<2>,
) -> Result<(Simulation<2>, usize), DamBreakError> {
    let dx = fs.spacing;
    let x = lattice_box(Vector2::zeros(), Vector2::new(w_water, depth), dx);
    let mut p = Particles::<2>::new();
    for xi in &x {
        p.push(*xi, 1.0 / (fs.rest_density * dx * dx));
    }
    let members: Vec<u32> = (0..x.len() as u32).collect();
    let cells = (w / dx).round() as i64;
    let layers = (depth / dx).round() as i64 + 2;
    let mut boundary = Vec::new();
    for j in -2..layers {
        for i in -2..cells + 2 {
            if i < 0 || i >= cells || j < 0 {
                boundary.push(p.len() as u32);
                p.push(
                    SVector::<f64, 2>::new((i as f64 + 0.5) * dx, (j as f64 + 0.5) * dx),
                    0.0,
                );
            }
        }
    }
    let volumes = vec![dx * dx; boundary.len()];
    let fluid = PbfFluid::new(&p, members.clone(), fs)?.with_boundary(&p, boundary, volumes)?;
    let mut sim = Simulation::new(p, settings)?;
    let mut walls = ColliderContacts::new(0.5 * dx, ContactOptions::default())
        .map_err(xpbd_core::BuildError::from)?
        .only_particles(members.iter().map(|&m| m as usize));
    for (normal, offset) in [
        (Vector2::new(1.0, 0.0), 0.0),
        (Vector2::new(-1.0, 0.0), -w),
        (Vector2::new(0.0, 1.0), 0.0),
    ] {
        walls
            .add_collider(Collider::fixed(Shape::HalfSpace { normal, offset }))
            .map_err(xpbd_core::BuildError::from)?;
    }
    sim.add_constraints(walls)?;
    sim.add_constraints(fluid)?;
    Ok((sim, members.len()))
}

/// The step of the dam break (s): 10 substeps of 1/6000 s each.
pub const DAM_BREAK_DT: f64 = 1.0 / 600.0;

/// The front Z = z/a at Martin & Moyce's times ([`MARTIN_MOYCE_A225`]) of the dam break at
/// spacing Δx = a/`res` and the default step [`DAM_BREAK_DT`] (`threads`: worker threads;
/// results do not depend on them).
pub fn dam_break_front(res: f64, threads: usize) -> Result<Vec<f64>, DamBreakError> {
    dam_break_front_at(res, DAM_BREAK_DT, threads)
}

/// [`dam_break_front`] at step `dt` (10 substeps each): the front at each of Martin & Moyce's
/// times, interpolated linearly between the two step ends around it (so the sampling does not
/// depend on where the steps happen to end).
pub fn dam_break_front_at(res: f64, dt: f64, threads: usize) -> Result<Vec<f64>, DamBreakError> {
    let a = COLUMN_WIDTH;
    let dx = a / res;
    let settings = SolverSettings::<2> {
        substeps: 10,
        iterations: 4,
        gravity: Vector2::new(0.0, -9.81),
        threads,
        ..SolverSettings::default()
    };
    let (mut sim, n) = tank_2d(FluidSettings::water(dx), a, 10.0 * a, 2.0 * a, settings)?;
    let scale = (2.0 * 9.81 / a).sqrt();
    let front = |sim: &Simulation<2>| {
        (sim.particles().x[..n]
            .iter()
            .map(|x| x[0])
            .fold(f64::MIN, f64::max)
            + 0.5 * dx)
            / a
    };
    let z0 = front(&sim);
    front_at_measured_instants(dt * scale, z0, || {
        sim.step(dt)?;
        Ok(front(&sim))
    })
}

/// The front Z at each of Martin & Moyce's instants T ([`MARTIN_MOYCE_A225`]) from a run read
/// every `period` (in T): `z0` at T = 0, then `advance()` runs one period and returns the new
/// front; each instant's front is interpolated linearly between the two readings around it.
pub fn front_at_measured_instants<E>(
    period: f64,
    z0: f64,
    mut advance: impl FnMut() -> Result<f64, E>,
) -> Result<Vec<f64>, E> {
    let mut out = Vec::new();
    let (mut t0, mut z0) = (0.0, z0);
    while out.len() < MARTIN_MOYCE_A225.len() {
        let (t1, z1) = (t0 + period, advance()?);
        while let Some(&(tt, _)) = MARTIN_MOYCE_A225.get(out.len())
            && tt <= t1
        {
            out.push(z0 + (z1 - z0) * (tt - t0) / (t1 - t0));
        }
        (t0, z0) = (t1, z1);
    }
    Ok(out)
}
