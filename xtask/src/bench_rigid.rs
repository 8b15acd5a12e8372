//! `cargo xtask bench rigid`: what rigid bodies cost in a granular scene: S spheres dropped on
//! a sand bed of N particles, the step's own breakdown by block (`Simulation::block_seconds`)
//! giving the rigid bodies' share (their contact search, prediction, projections and
//! velocity pass).

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use serde::Serialize;
use xpbd_scene::{SceneDesc, build_scene};

use crate::bench_coupled::BlockTime;

/// One line of `cargo xtask bench rigid`.
#[derive(Debug, Clone, Serialize)]
pub struct RigidBenchLine {
    pub bench: &'static str,
    pub particles: usize,
    pub bodies: usize,
    pub steps: usize,
    pub threads: usize,
    /// Wall µs per step.
    pub us_per_step: f64,
    /// Share of the step in the rigid bodies' block (setup + solve).
    pub rigid_share: f64,
    /// Active rigid contacts at the end (bodies with sand, each other, the ground).
    pub rigid_contacts: usize,
    /// The step's breakdown by block: µs per step of setup and of solve.
    pub blocks: Vec<BlockTime>,
}

/// The scene: a sand bed (spacing 1 cm, 10 cm deep, square, sized for `particles`) in a
/// box, `bodies` granite spheres of radius 2 cm on a square grid just above it, falling at 1 m/s.
fn scene_text(particles: usize, bodies: usize) -> String {
    let dx = 0.01;
    let side = ((particles as f64 / 10.0).sqrt().round() as usize).max(2);
    let half = 0.5 * side as f64 * dx;
    let mut s = format!(
        r#"name = "rigid bench"
[time]
dt = 0.004
frames = 1
[solver]
substeps = 1
iterations = 10
method = {{ kind = "coloured" }}
gravity = [0.0, 0.0, -9.81]
[materials.sand]
preset = "sand"
[[continuum]]
name = "bed"
material = "sand"
region = {{ box = {{ min = [{lo}, {lo}, 0.0], max = [{half}, {half}, 0.1] }} }}
spacing = {dx}
[[collider]]
shape = {{ plane = {{ normal = [0.0, 0.0, 1.0], offset = 0.0 }} }}
friction = 0.6
[contacts]
radius = 0.005
"#,
        lo = -half
    );
    let per_row = ((bodies as f64).sqrt().ceil() as usize).max(1);
    let pitch = 2.0 * half / per_row as f64;
    for k in 0..bodies {
        let (i, j) = (k % per_row, k / per_row);
        let x = -half + pitch * (i as f64 + 0.5);
        let y = -half + pitch * (j as f64 + 0.5);
        let _ = write!(
            s,
            "[[rigid]]\nshape = {{ sphere = {{ radius = 0.02 }} }}\ndensity = 2600.0\n\
             center = [{x}, {y}, 0.126]\nvelocity = [0.0, 0.0, -1.0]\nfriction = 0.5\n"
        );
    }
    s
}

/// Runs the scene `steps` steps on `threads` threads.
pub fn bench_rigid(
    particles: usize,
    bodies: usize,
    steps: usize,
    threads: usize,
) -> Result<RigidBenchLine> {
    let text = scene_text(particles, bodies);
    let path = Path::new("rigid-bench.toml");
    let mut desc = SceneDesc::parse(&text, path)?;
    desc.solver.threads = threads;
    let mut s = build_scene(desc, path)?;
    let start = Instant::now();
    let mut taken = 0;
    for _ in 0..steps {
        s.step().context("a step of the rigid benchmark")?;
        taken += 1;
    }
    let wall = start.elapsed().as_secs_f64();
    let steps_taken = s.steps.steps.max(taken);
    let totals = s.sim.block_seconds();
    let mut rigid = 0.0;
    let mut blocks = Vec::new();
    for (k, b) in s.sim.blocks().iter().enumerate() {
        let setup = totals.setup.get(k).copied().unwrap_or(0.0);
        let solve = totals.solve.get(k).copied().unwrap_or(0.0);
        if b.name() == "rigid bodies" {
            rigid += setup + solve;
        }
        blocks.push(BlockTime {
            block: b.name(),
            setup_us: 1e6 * setup / steps_taken as f64,
            solve_us: 1e6 * solve / steps_taken as f64,
        });
    }
    let r = s.rigid().context("the bench scene has rigid bodies")?;
    Ok(RigidBenchLine {
        bench: "rigid",
        particles: s.sim.particles().len(),
        bodies: r.bodies().len(),
        steps: steps_taken,
        threads,
        us_per_step: 1e6 * wall / steps_taken as f64,
        rigid_share: rigid / wall,
        rigid_contacts: r.active_contacts(),
        blocks,
    })
}
