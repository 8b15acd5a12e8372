//! `cargo xtask bench coupled`: the cost of body contact, measured on a scene of touching
//! bodies (the sand hammock by default).

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use serde::Serialize;
use xpbd_scene::interaction::{BodyKind, InteractionSpec};
use xpbd_scene::{BuiltScene, SceneDesc, build_scene};

/// One line of `cargo xtask bench coupled`.
#[derive(Debug, Clone, Serialize)]
pub struct CoupledBenchLine {
    pub bench: &'static str,
    pub scene: String,
    pub particles: usize,
    pub frames: usize,
    pub steps: usize,
    pub threads: usize,
    /// Wall µs per step with the sand and the cloth touching.
    pub coupled_us_per_step: f64,
    /// Wall µs per step of the same scene with their contact off (colliders only).
    pub colliders_only_us_per_step: f64,
    /// coupled / colliders only.
    pub ratio: f64,
    /// Share of the coupled step spent searching body contacts (the step's own breakdown:
    /// `StepReport::setup_seconds` of the body-contact and point–triangle blocks).
    pub contact_search_share: f64,
    /// Share of the coupled step spent in body contact: its search, projections and
    /// end-of-substep friction (`StepReport::setup_seconds` + `solve_seconds` of those blocks).
    pub coupling_share: f64,
    /// Body contact's time over the rest of the coupled step (same run, same state): what
    /// coupling adds to the step of the scene without it, `share / (1 − share)`.
    pub coupling_cost: f64,
    /// The coupled step's own breakdown by block: µs per step of setup and of solve.
    pub blocks: Vec<BlockTime>,
    /// The same breakdown with colliders only: the two runs reach different states (without
    /// contact the sand falls through the sheet onto the ground), so their blocks differ too.
    pub colliders_only_blocks: Vec<BlockTime>,
    /// Lowest particle of the last body (the sand) above the lowest of the first (the cloth)
    /// at the end of the coupled run (m), when those are a continuum and a cloth.
    pub sand_above_cloth: Option<f64>,
}

/// One block's time in the coupled step.
#[derive(Debug, Clone, Serialize)]
pub struct BlockTime {
    pub block: &'static str,
    /// µs per step in its substep setup (searches, frozen data).
    pub setup_us: f64,
    /// µs per step in its projections and end-of-substep work.
    pub solve_us: f64,
}

struct Run {
    us_per_step: f64,
    steps: usize,
    search_share: f64,
    coupling_share: f64,
    blocks: Vec<BlockTime>,
    particles: usize,
    sand_above_cloth: Option<f64>,
}

/// The scene at `path`, `frames` long on `threads`, its bodies touching or (`coupled` false)
/// every pair listed as not touching.
fn build(path: &Path, frames: usize, threads: usize, coupled: bool) -> Result<BuiltScene> {
    let mut scene = SceneDesc::load(path)?;
    scene.time.frames = frames;
    scene.solver.threads = threads;
    if !coupled {
        let names: Vec<String> = build_scene(scene.clone(), path)?
            .bodies
            .iter()
            .map(|b| b.name.clone())
            .collect();
        scene.interaction = (0..names.len())
            .flat_map(|a| (a + 1..names.len()).map(move |b| (a, b)))
            .map(|(a, b)| InteractionSpec {
                bodies: [names[a].clone(), names[b].clone()],
                friction: None,
                contact: false,
            })
            .collect();
    }
    Ok(build_scene(scene, path)?)
}

/// What one run measured, from its wall time and the simulation's own per-block totals over
/// every step it took (a scene step may be several adaptive steps).
fn measure(s: &BuiltScene, wall: f64, steps: usize) -> Run {
    let totals = s.sim.block_seconds();
    let (mut search, mut coupling) = (0.0, 0.0);
    let mut blocks = Vec::new();
    for (k, b) in s.sim.blocks().iter().enumerate() {
        let setup = totals.setup.get(k).copied().unwrap_or(0.0);
        let solve = totals.solve.get(k).copied().unwrap_or(0.0);
        blocks.push(BlockTime {
            block: b.name(),
            setup_us: 1e6 * setup / steps as f64,
            solve_us: 1e6 * solve / steps as f64,
        });
        if matches!(b.name(), "body contact" | "point-triangle contact") {
            search += setup;
            coupling += setup + solve;
        }
    }
    let x = &s.sim.particles().x;
    let lowest = |r: std::ops::Range<usize>| x[r].iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
    let (first, last) = (&s.bodies[0], &s.bodies[s.bodies.len() - 1]);
    let sand_above_cloth = (first.kind == BodyKind::Cloth && last.kind == BodyKind::Continuum)
        .then(|| lowest(last.particles.clone()) - lowest(first.particles.clone()));
    Run {
        us_per_step: 1e6 * wall / steps as f64,
        steps,
        search_share: search / wall,
        coupling_share: coupling / wall,
        blocks,
        particles: x.len(),
        sand_above_cloth,
    }
}

/// Runs `scene` coupled and with colliders only, step by step in turn, in one process (a relative
/// path is taken from the workspace root, as `cargo xtask` runs there).
pub fn bench_coupled(scene: &Path, frames: usize, threads: usize) -> Result<CoupledBenchLine> {
    let path = if scene.is_relative() && !scene.exists() {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(scene)
    } else {
        scene.to_path_buf()
    };
    // The two runs step in turn (one step coupled, one step with colliders only), so that a
    // change of the machine's load during the benchmark falls on both alike.
    let mut with = build(&path, frames, threads, true)?;
    let mut without = build(&path, frames, threads, false)?;
    let steps = frames * with.scene.time.steps_per_frame;
    let mut wall = [0.0; 2];
    for _ in 0..steps {
        for (s, w) in [&mut with, &mut without].into_iter().zip(&mut wall) {
            let start = Instant::now();
            s.step().with_context(|| format!("{}", path.display()))?;
            *w += start.elapsed().as_secs_f64();
        }
    }
    let coupled = measure(&with, wall[0], steps);
    let alone = measure(&without, wall[1], steps);
    Ok(CoupledBenchLine {
        bench: "coupled",
        scene: scene.display().to_string(),
        particles: coupled.particles,
        frames,
        steps: coupled.steps,
        threads,
        coupled_us_per_step: coupled.us_per_step,
        colliders_only_us_per_step: alone.us_per_step,
        ratio: coupled.us_per_step / alone.us_per_step,
        contact_search_share: coupled.search_share,
        coupling_share: coupled.coupling_share,
        coupling_cost: coupled.coupling_share / (1.0 - coupled.coupling_share),
        blocks: coupled.blocks,
        colliders_only_blocks: alone.blocks,
        sand_above_cloth: coupled.sand_above_cloth,
    })
}
