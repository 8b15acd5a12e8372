//! The GPU world against the CPU on every scene file: each scene in `scenes/` either runs on
//! both backends and agrees within f32 bounds, or is refused by name when the world is built.
//! The table of which scenes run is asserted, so a scene that silently starts or stops running
//! on the GPU fails here.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use nalgebra::Vector3;
use xpbd_gpu::{GpuContext, GpuError, GpuWorld, context_for_test};
use xpbd_scene::runner::FrameStepper;
use xpbd_scene::{BuiltScene, Checkpoint, SceneDesc, build_scene};
use xpbi_continuum::continuum::SweepOrder;

const EPS32: f64 = f32::EPSILON as f64;

/// The feature table (a module of this test, not a test target of its own).
#[path = "world/features.rs"]
mod features;

fn ctx(test: &str) -> Option<Arc<GpuContext>> {
    context_for_test(test)
        .expect("XPBD_REQUIRE_GPU is set but no GPU adapter")
        .map(Arc::new)
}

fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes")
}

fn build(path: &Path) -> BuiltScene {
    let text = std::fs::read_to_string(path).unwrap();
    build_scene(SceneDesc::parse(&text, path).unwrap(), path).unwrap()
}

/// [`build`] with every continuum swept in 3^d cell colours, the GPU's order of projections
/// (`sweep = "cells"`): the default slab sweep projects in another order, which converges to
/// the same answer as the iterations grow but differs after a fixed number of them by far more
/// than f32 rounding.
fn build_in_gpu_order(path: &Path) -> BuiltScene {
    let text = std::fs::read_to_string(path).unwrap();
    let mut desc = SceneDesc::parse(&text, path).unwrap();
    for c in &mut desc.continuum {
        c.xpbi.sweep = SweepOrder::Cells;
    }
    build_scene(desc, path).unwrap()
}

/// The scenes the GPU world runs, with the steps of `[time] dt` the comparison takes (an
/// adaptive scene's step is split into steps below its bounds) and the device step.
const RUNS: &[(&str, usize, &str)] = &[
    // Until the sheet reaches the sphere (0.2 s): once contacts switch on, rounding decides the
    // substep a particle touches in and the paths separate by a substep's motion per event,
    // which no f32 bound covers (the soaked cloth on a sphere below is compared through it).
    ("cloth_on_sphere", 11, "xpbd"),
    ("cloth_two_pins", 30, "xpbd"),
    ("hanging_chain", 30, "xpbd"),
    ("hourglass", 20, "xpbi"),
    ("incline_friction", 30, "xpbd"),
    ("layered_bank", 40, "xpbi"),
    ("sand_block", 20, "xpbi"),
    ("sand_block_notched", 20, "xpbi"),
    ("sand_column_2d", 20, "xpbi"),
    ("sand_column_3d", 20, "xpbi"),
    ("sand_collapse_3d", 2, "xpbi"),
    ("snow_ball_impact", 20, "xpbi"),
    ("soak_cloth_sphere", 30, "xpbd"),
    ("soft_tet_beam", 30, "xpbd"),
    // Past the first release of each nozzle (its lowest layer starts Δx/2 above the exit).
    ("toothpaste_extrusion", 140, "xpbi"),
    ("sand_repose_pour", 110, "xpbi"),
    ("clay_bar", 20, "xpbi"),
    ("clay_bar_stretch", 20, "xpbi"),
    ("elastic_cantilever", 4, "xpbi"),
    // Past the moment the bodies meet: the sheet lands on the heap (≈ 90 steps), the ball in
    // the hammock (≈ 110), the paste on the sheet (≈ 400).
    ("cloth_on_sand_heap", 110, "coupled"),
    ("sand_hammock", 130, "coupled"),
    ("paste_on_sheet", 500, "coupled"),
    // The snowball reaches the sand bed after ≈ 20 steps; well past the impact its return map
    // parts from the CPU's by more than f32 rounding (tests/coupled.rs).
    ("snowball_into_sand", 30, "coupled"),
    // Water amplifies rounding: a perturbation of 1e-9 m of its start grows to 2e-4 m within
    // 12 steps of the dam break on the CPU alone (f64). The walk bound holds for the first
    // steps; tests/fluid.rs holds the GPU's water to the CPU's through observables that
    // converge (fronts, pressures, what rests on what) instead.
    ("dam_break", 3, "coupled"),
    ("water_hammock", 3, "coupled"),
    ("sand_dam_breach", 2, "coupled"),
    // The soaks of coupled scenes (cargo xtask soak): the first steps, before contact.
    ("soak_sand_on_cloth", 10, "coupled"),
    ("soak_water_on_sand", 3, "coupled"),
];

fn max_diff(a: &[Vector3<f64>], b: &[Vector3<f64>]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(p, q)| (p - q).norm())
        .fold(0.0, f64::max)
}

/// Every scene file runs on the GPU world or is refused by name; the ones that run agree with
/// the CPU, projecting in the same order, after the steps of [`RUNS`].
///
/// Bound: the device stores positions in f32 (ε = 2⁻²³). Every substep rounds x by ε|x| and
/// rebuilds v = (x − x_prev)/h, so each rounding stays in the velocity and the position error is
/// a random walk of the velocity: for N substeps of independent roundings its standard
/// deviation is ε|x| N^{3/2}/√3, and the bound is 4 N^{3/2} ε |x|max (≈ 7σ; the same bound as
/// the backend suite, `tests/backends.rs`). The motion is asserted to be real (> 1e-5 m).
#[test]
fn every_scene_runs_on_the_gpu_within_f32_bounds_or_is_refused_by_name() {
    let Some(ctx) = ctx("world parity") else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(scenes_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "the scene files are found");
    let mut ran = Vec::new();
    for path in &files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let expected = RUNS.iter().find(|r| r.0 == name);
        match (GpuWorld::new(ctx.clone(), build(path)), expected) {
            (Err(GpuError::Unsupported { what, reason }), None) => {
                eprintln!("{name}: refused: {what} ({reason})");
                assert!(!what.is_empty(), "{name}: the refusal names the feature");
            }
            (Err(e @ GpuError::SeveralMaterials { .. }), None) => {
                eprintln!("{name}: refused: {e}");
            }
            (Err(e), _) => panic!("{name}: {e}"),
            (Ok(_), None) => panic!("{name} now runs on the GPU: add it to RUNS"),
            (Ok(mut gpu), Some(&(_, steps, step_name))) => {
                assert_eq!(gpu.step_name(), step_name, "{name}");
                let mut cpu = build_in_gpu_order(path);
                let x0 = cpu.sim.particles().x.clone();
                for _ in 0..steps {
                    cpu.step().unwrap();
                    gpu.step().unwrap();
                }
                // The XPBD path is read back at frame ends: compare through a frame's read-back.
                let xg = positions(&mut gpu);
                let xc = &cpu.sim.particles().x;
                let moved = max_diff(xc, &x0);
                let dx = max_diff(&xg, xc);
                eprintln!("{name}: {steps} steps, moved {moved:.3e} m, |x_gpu - x_cpu| {dx:.3e} m");
                assert!(moved > 1e-5, "{name}: the scene moved ({moved:e})");
                let substeps = cpu.steps.steps * cpu.sim.settings().substeps;
                let x_max = xc.iter().map(|x| x.amax()).fold(0.0, f64::max);
                let bound = 4.0 * (substeps as f64).powf(1.5) * EPS32 * x_max;
                assert!(
                    dx <= bound,
                    "{name}: GPU and CPU differ by {dx:e} m > {bound:e} m ({moved:e} m of motion)"
                );
                assert_eq!(
                    gpu.scene().steps.steps,
                    cpu.steps.steps,
                    "{name}: step count"
                );
                ran.push(name);
            }
        }
    }
    assert_eq!(ran.len(), RUNS.len(), "ran {ran:?}");
}

/// The positions of the world's device state (the XPBD path is otherwise read back at frame
/// ends).
fn positions(world: &mut GpuWorld) -> Vec<Vector3<f64>> {
    world.sync_from_device().unwrap();
    world.scene().sim.particles().x.clone()
}

/// A checkpoint written from a GPU run restores on the CPU, and a CPU checkpoint restores into
/// a GPU world; both continue within the f32 bound of the parity test.
#[test]
fn checkpoints_cross_between_the_backends() {
    let Some(ctx) = ctx("world checkpoints") else {
        return;
    };
    let path = scenes_dir().join("sand_block.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    // GPU → CPU.
    let mut gpu = GpuWorld::new(ctx.clone(), build(&path)).unwrap();
    gpu.advance_frame().unwrap();
    let ckpt = Checkpoint::capture(gpu.built(), &text, &path);
    let bytes = ckpt.to_bytes();
    let mut cpu = Checkpoint::from_bytes(&bytes).unwrap().restore().unwrap();
    assert_eq!(cpu.frame, 1);
    assert_eq!(cpu.sim.particles().x, gpu.scene().sim.particles().x);
    // CPU → GPU: the CPU's frame-1 state continues on the GPU.
    let mut reference = build(&path);
    reference.advance_frame().unwrap();
    let cpu_ckpt = Checkpoint::capture(&reference, &text, &path);
    let restored = Checkpoint::from_bytes(&cpu_ckpt.to_bytes())
        .unwrap()
        .restore()
        .unwrap();
    let mut gpu2 = GpuWorld::new(ctx, restored).unwrap();
    let x1 = reference.sim.particles().x.clone();
    reference.advance_frame().unwrap();
    gpu2.advance_frame().unwrap();
    cpu.advance_frame().unwrap();
    let moved = max_diff(&reference.sim.particles().x, &x1);
    let d_gpu = max_diff(
        &gpu2.scene().sim.particles().x,
        &reference.sim.particles().x,
    );
    let d_cpu = max_diff(&cpu.sim.particles().x, &reference.sim.particles().x);
    eprintln!("moved {moved:.3e} m; CPU→GPU {d_gpu:.3e} m, GPU→CPU {d_cpu:.3e} m");
    assert!(moved > 1e-5);
    assert!(
        d_gpu <= 1e-3 * moved + 1e-6,
        "CPU checkpoint on the GPU: {d_gpu:e}"
    );
    assert!(
        d_cpu <= 1e-3 * moved + 1e-6,
        "GPU checkpoint on the CPU: {d_cpu:e}"
    );
}

const CONTINUUM_BASE: &str = "name = 'feature'\n[time]\ndt = 1e-4\nframes = 1\n\
[solver]\nsubsteps = 1\niterations = 10\nmethod = { kind = 'coloured' }\n\
gravity = [0.0, 0.0, -9.81]\n\
[materials.sand]\npreset = 'sand'\n[materials.clay]\npreset = 'clay'\n\
[[collider]]\nshape = { plane = { normal = [0.0, 0.0, 1.0], offset = 0.0 } }\nfriction = 0.5\n\
[contacts]\nradius = 0.005\n";

/// A closed box mesh (12 outward triangles) of the given extents, centred at the origin, as an
/// OBJ file.
fn box_obj(path: &Path, size: [f64; 3]) {
    let mesh = xpbd_core::builders::TriangleSurface::unit_cube();
    let mut text = String::new();
    for v in &mesh.vertices {
        text += &format!("v {} {} {}\n", size[0] * v.x, size[1] * v.y, size[2] * v.z);
    }
    for t in &mesh.triangles {
        text += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    std::fs::write(path, text).unwrap();
}

/// A nozzle on the GPU world releases the same particles in the same steps as on the CPU: the
/// lowest reservoir layer starts Δx/2 = 2.5 mm above the exit and moves down at 0.2 m/s, so it
/// crosses in the 125th step of 0.1 ms and is released before the 126th; the released particles
/// get their mass and fall with the material, within the f32 walk bound of the parity tests.
#[test]
fn a_nozzle_releases_on_the_gpu_as_on_the_cpu() {
    let Some(ctx) = ctx("world nozzle") else {
        return;
    };
    let text = format!(
        "{CONTINUUM_BASE}[[continuum]]\nmaterial = 'clay'\nspacing = 0.005\n\
         region = {{ nozzle = {{ exit = [0.0, 0.0, 0.05], radius = 0.005, speed = 0.2, duration = 0.15 }} }}\n"
    );
    let dir = std::env::temp_dir().join(format!("xpbd-gpu-nozzle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("nozzle.toml");
    std::fs::write(&path, &text).unwrap();
    let desc = SceneDesc::parse(&text, &path).unwrap();
    let mut cpu = build_scene(desc.clone(), &path).unwrap();
    let mut gpu = GpuWorld::new(ctx, build_scene(desc, &path).unwrap()).unwrap();
    let steps = 140;
    let mut first = None;
    for k in 0..steps {
        cpu.step().unwrap();
        gpu.step().unwrap();
        let (rc, rg) = (
            cpu.emitters[0].released(),
            gpu.scene().emitters[0].released(),
        );
        assert_eq!(rg, rc, "released after step {k}");
        if rc > 0 && first.is_none() {
            first = Some(k);
        }
    }
    // Released before the step after the crossing (0-based step 125).
    assert_eq!(first, Some(125), "first release");
    let released = cpu.emitters[0].released();
    assert!(released > 0 && cpu.emitters[0].pending() > 0);
    let (pc, pg) = (cpu.sim.particles(), gpu.scene().sim.particles());
    assert_eq!(pc.inv_mass, pg.inv_mass, "released masses");
    let (xc, xg) = (&pc.x, &pg.x);
    let dx = max_diff(xg, xc);
    let x_max = xc.iter().map(|x| x.amax()).fold(0.0, f64::max);
    let bound = 4.0 * (steps as f64).powf(1.5) * EPS32 * x_max;
    eprintln!("{released} released, |x_gpu - x_cpu| {dx:.3e} m (bound {bound:.1e})");
    assert!(dx <= bound, "{dx:e} > {bound:e}");
    // The released particles fall faster than the reservoir's inflow speed.
    let falling = (0..pc.len())
        .filter(|&i| pg.inv_mass[i] > 0.0)
        .all(|i| pg.v[i].z < -0.2 + 1e-3);
    assert!(falling, "released particles fall");
}
