//! The dam break as a scene description in 3D: a water column a × a × 2a against the end wall
//! of a frictionless tank a wide (Martin & Moyce's n² = 2), walls and bed as plane colliders
//! (no boundary particles), built from a [`SceneDesc`] like any scene file and run by the
//! frame driver; its surge front against Martin & Moyce in their variables. The benchmark
//! (`cargo xtask bench pbf`) and the full report's dam-break figure use it.

use anyhow::{Context, Result};
use xpbd_scene::fluid::FluidSpec;
use xpbd_scene::region::RegionSpec;
use xpbd_scene::scene::{ColliderSpec, ShapeSpec, SolverSection};
use xpbd_scene::{BuiltScene, SceneDesc};
use xpbi_validation::dam_break::{COLUMN_WIDTH, MARTIN_MOYCE_A225, front_at_measured_instants};

/// Frame length of the dam break (s): each frame is split into adaptive steps below the
/// fluid's CFL bound, 4 substeps × 4 iterations each.
pub const FRAME: f64 = 1.0 / 240.0;

/// The dam break: water (ρ₀ = 1000 kg/m³, μ = 1e-3 Pa·s, incompressible) filling
/// `[0, a] × [0, a] × [0, 2a]` at spacing Δx in a tank `length` long and a wide, released at
/// rest; `frames` frames of [`FRAME`].
pub fn dam_break_desc(
    a: f64,
    dx: f64,
    length: f64,
    frames: usize,
    threads: usize,
) -> Result<SceneDesc> {
    let plane =
        |normal: [f64; 3], offset: f64| ColliderSpec::new(ShapeSpec::Plane { normal, offset });
    let solver = SolverSection {
        substeps: 4,
        iterations: 4,
        threads,
        ..SolverSection::default()
    };
    Ok(SceneDesc::builder("dam break", FRAME, frames)
        .solver(solver)
        .adaptive(true, None)
        .fluid(FluidSpec::water(
            RegionSpec::cuboid([0.0; 3], [a, a, 2.0 * a]),
            dx,
        ))
        .collider(plane([0.0, 0.0, 1.0], 0.0))
        .collider(plane([1.0, 0.0, 0.0], 0.0))
        .collider(plane([-1.0, 0.0, 0.0], -length))
        .collider(plane([0.0, 1.0, 0.0], 0.0))
        .collider(plane([0.0, -1.0, 0.0], -a))
        .contact_radius(0.5 * dx)
        .build()?)
}

/// The front Z = z/a (the furthest particle's centre + Δx/2) at each of Martin & Moyce's
/// instants ([`MARTIN_MOYCE_A225`]), interpolated linearly between the frame ends around it
/// ([`front_at_measured_instants`]),
/// for their column (a = 2.25 in) at Δx = a/`res` in a tank 10a long.
pub fn dam_break_front_3d(res: f64, threads: usize) -> Result<Vec<f64>> {
    let a = COLUMN_WIDTH;
    let dx = a / res;
    let scale = (2.0 * 9.81 / a).sqrt();
    let last = MARTIN_MOYCE_A225[MARTIN_MOYCE_A225.len() - 1].0;
    let frames = (last / scale / FRAME).ceil() as usize + 1;
    let mut s = BuiltScene::from_desc(dam_break_desc(a, dx, 10.0 * a, frames, threads)?)?;
    let front = |s: &BuiltScene| {
        (s.sim
            .particles()
            .x
            .iter()
            .map(|p| p.x)
            .fold(f64::MIN, f64::max)
            + 0.5 * dx)
            / a
    };
    let z0 = front(&s);
    let mut frame = 0;
    front_at_measured_instants(FRAME * scale, z0, || {
        s.step()
            .with_context(|| format!("dam break frame {frame}"))?;
        frame += 1;
        Ok(front(&s))
    })
}
