//! The GPU world against the CPU on every scene file: each scene in `scenes/` either runs on
//! both backends and agrees within f32 bounds, or is refused by name when the world is built.
//! The table of which scenes run is asserted, so a scene that silently starts or stops running
//! on the GPU fails here.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use nalgebra::Vector3;
use xpbd_gpu::{GpuContext, GpuError, GpuWorld, context_for_test};
use xpbd_scene::continuum::SweepSpec;
use xpbd_scene::runner::FrameStepper;
use xpbd_scene::{BuiltScene, Checkpoint, SceneDesc, build_scene};

const EPS32: f64 = f32::EPSILON as f64;

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
        c.xpbi.sweep = SweepSpec::Cells;
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

const XPBD_BASE: &str = "name = 'feature'\n[time]\ndt = 0.016666666666666666\nframes = 1\n\
[solver]\nsubsteps = 10\niterations = 1\nmethod = { kind = 'coloured' }\n\
gravity = [0.0, 0.0, -9.81]\n\
[materials.cotton]\ndensity = 1500.0\nyoungs = 5e8\nthickness = 0.0005\n\
[materials.steel]\ndensity = 7850.0\nyoungs = 2e11\n\
[materials.rubber]\ndensity = 1100.0\nyoungs = 1e6\npoisson = 0.45\n";

const CLOTH: &str = "[[cloth]]\nmaterial = 'cotton'\nresolution = [6, 6]\nsize = [0.5, 0.5]\n\
origin = [-0.25, -0.25, 0.5]\npins = [[0, 5], [5, 5]]\n";

const CONTINUUM_BASE: &str = "name = 'feature'\n[time]\ndt = 1e-4\nframes = 1\n\
[solver]\nsubsteps = 1\niterations = 10\nmethod = { kind = 'coloured' }\n\
gravity = [0.0, 0.0, -9.81]\n\
[materials.sand]\npreset = 'sand'\n[materials.clay]\npreset = 'clay'\n\
[[collider]]\nshape = { plane = { normal = [0.0, 0.0, 1.0], offset = 0.0 } }\nfriction = 0.5\n\
[contacts]\nradius = 0.005\n";

const SAND: &str = "[[continuum]]\nname = 'sand'\nmaterial = 'sand'\n\
region = { box = { min = [-0.03, -0.03, 0.0], max = [0.03, 0.03, 0.06] } }\nspacing = 0.01\n\
velocity = [0.3, 0.0, -0.5]\n";

/// A 4 × 4 cotton sheet, 0.2 m wide (its `origin` and pins follow).
/// The cotton of [`XPBD_BASE`] without and with a bending stiffness (only a bending cloth
/// reads it; elsewhere it is refused as a setting nothing reads).
const BENDLESS: &str = "thickness = 0.0005\n";
const BENDING: &str = "thickness = 0.0005\nbending_stiffness = 1e-5\n";

const SMALL_SHEET: &str = "[materials.cotton]\ndensity = 1500.0\nyoungs = 5e8\nthickness = 0.0005\n\
[[cloth]]\nmaterial = 'cotton'\nresolution = [4, 4]\nsize = [0.2, 0.2]\n";

/// What a feature of the description does on the GPU world.
enum Expect {
    /// It runs and agrees with the CPU within the walk bound after these steps.
    Runs(usize),
    /// It is refused; the refusal names this.
    Refused(&'static str),
}

/// Every feature a scene description can hold, one small description each, either runs on
/// the GPU world and agrees with the CPU within the f32 walk bound, or is refused when the world
/// is built with a message naming it: nothing is silently ignored.
#[test]
fn every_description_feature_runs_on_the_gpu_or_is_refused_by_name() {
    use Expect::{Refused, Runs};
    let Some(ctx) = ctx("world features") else {
        return;
    };
    let x = |body: &str| format!("{XPBD_BASE}{body}");
    let c = |body: &str| format!("{CONTINUUM_BASE}{body}");
    let cloth = |extra: &str| x(&format!("{CLOTH}{extra}"));
    let plane = "[[collider]]\nshape = { plane = { normal = [0.0, 0.0, 1.0], offset = 0.45 } }\n";
    // Contact radius 0.03 m: a sphere or capsule of radius R ≥ ρ²/(2r) = 0.083 m (ρ = 0.0707 m,
    // the circumradius of the sheet's triangles) cannot reach a triangle between vertices that
    // keep r from it, so the CPU's collider contact against the triangles stays inactive and
    // the GPU's per-vertex contact gives the same result.
    let collider = |shape: &str, extra: &str| {
        cloth(&format!(
            "[[collider]]\nshape = {{ {shape} }}\ncenter = [0.0, 0.0, 0.3]\n{extra}\n\
             [contacts]\nradius = 0.03\n"
        ))
    };
    let dir = std::env::temp_dir().join(format!("xpbd-gpu-features-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Closed box meshes for the mesh colliders (signed-distance grids): a 0.4 × 0.4 × 0.2 m
    // block under the cloth and a 0.02 × 0.2 × 0.2 m wall beside the sand.
    box_obj(&dir.join("block.obj"), [0.4, 0.4, 0.2]);
    box_obj(&dir.join("wall.obj"), [0.02, 0.2, 0.2]);
    let features: Vec<(&str, String, Expect)> = vec![
        ("cloth without bending", cloth(""), Runs(10)),
        (
            "mesh collider",
            collider(
                "mesh = { path = 'block.obj', cell = 0.05 }",
                "rotation_deg = [10.0, 0.0, 0.0]\nfriction = 0.3",
            ),
            Runs(10),
        ),
        (
            "dihedral bending",
            cloth("bending = 'dihedral'\n").replace(BENDLESS, BENDING),
            Runs(10),
        ),
        (
            "isometric bending",
            cloth("bending = 'isometric'\n").replace(BENDLESS, BENDING),
            Runs(10),
        ),
        (
            "rope",
            x(
                "[[rope]]\nmaterial = 'steel'\nlinks = 8\nstart = [0.0, 0.0, 1.0]\n\
               end = [1.0, 0.0, 1.0]\nradius = 0.001\npin_start = true\n",
            ),
            Runs(10),
        ),
        (
            "soft box",
            x(
                "[[soft_box]]\nmaterial = 'rubber'\nsize = [0.4, 0.1, 0.1]\ncells = [4, 1, 1]\n\
               origin = [0.0, -0.05, 0.5]\npin_x_below = 1e-9\n",
            ),
            Runs(10),
        ),
        (
            "plane with friction",
            cloth(&format!(
                "{plane}friction = 0.5\n[contacts]\nradius = 0.01\n"
            )),
            Runs(10),
        ),
        (
            "sphere",
            collider("sphere = { radius = 0.15 }", "friction = 0.3"),
            Runs(10),
        ),
        (
            "rotated box",
            x(
                "[[rope]]\nmaterial = 'steel'\nlinks = 8\nstart = [-0.3, 0.0, 0.45]\n\
                 end = [0.3, 0.0, 0.45]\nradius = 0.001\n\
                 [[collider]]\nshape = { box = { half_extents = [0.2, 0.2, 0.1] } }\n\
                 center = [0.0, 0.0, 0.3]\nrotation_deg = [10.0, 0.0, 0.0]\nfriction = 0.3\n\
                 [contacts]\nradius = 0.01\n",
            ),
            Runs(10),
        ),
        // A box's corner can pass through a triangle between its vertices: the CPU's collider
        // contact against the triangles models it, the GPU's per-vertex contact does not.
        (
            "box under a cloth",
            collider(
                "box = { half_extents = [0.2, 0.2, 0.1] }",
                "rotation_deg = [10.0, 0.0, 0.0]\nfriction = 0.3",
            ),
            Refused("a box against a cloth's triangles"),
        ),
        (
            "small sphere under a cloth",
            collider("sphere = { radius = 0.05 }", "friction = 0.3"),
            Refused("a sphere of radius 0.05 m against a cloth's triangles"),
        ),
        (
            "capsule",
            collider(
                "capsule = { half_length = 0.2, radius = 0.1 }",
                "friction = 0.3",
            ),
            Runs(10),
        ),
        (
            "restitution",
            collider("sphere = { radius = 0.15 }", "restitution = 0.5"),
            Runs(10),
        ),
        (
            "rising sphere",
            collider(
                "sphere = { radius = 0.15 }",
                "velocity = [0.0, 0.0, 0.5]\nfriction = 0.3",
            ),
            Runs(10),
        ),
        (
            "conveyor plane",
            cloth(&format!(
                "{plane}velocity = [0.3, 0.0, 0.0]\nfriction = 0.5\n[contacts]\nradius = 0.01\n"
            )),
            Runs(10),
        ),
        (
            "Gauss-Seidel",
            cloth("").replace("kind = 'coloured'", "kind = 'gauss_seidel'"),
            Runs(10),
        ),
        (
            "Jacobi",
            cloth("").replace(
                "kind = 'coloured'",
                "kind = 'jacobi', omega = 1.0, averaged = true",
            ),
            Runs(10),
        ),
        (
            "warm-started multipliers",
            cloth("").replace("gravity =", "multiplier_warm_start = 0.5\ngravity ="),
            Runs(10),
        ),
        (
            "velocity damping",
            cloth("").replace("gravity =", "velocity_damping = 0.5\ngravity ="),
            Runs(10),
        ),
        ("continuum", c(SAND), Runs(5)),
        (
            "continuum, Jacobi",
            c(SAND).replace(
                "kind = 'coloured'",
                "kind = 'jacobi', omega = 1.0, averaged = true",
            ),
            Runs(5),
        ),
        (
            "continuum, Gauss-Seidel",
            c(SAND).replace("kind = 'coloured'", "kind = 'gauss_seidel'"),
            Refused("sequential Gauss-Seidel"),
        ),
        (
            "continuum, warm-started multipliers",
            c(SAND).replace("gravity =", "multiplier_warm_start = 0.5\ngravity ="),
            Refused("multiplier_warm_start"),
        ),
        (
            "continuum, clay",
            c(&SAND.replace("material = 'sand'", "material = 'clay'")),
            Runs(5),
        ),
        (
            "continuum, μ(I) rheology",
            c(SAND).replace(
                "preset = 'sand'\n[materials.clay]",
                "density = 1600.0\nyoungs = 3.5e5\nplasticity = { drucker_prager = { \
                 friction_angle = 32.0, mu_i = { dynamic_angle = 45.0, i0 = 0.279, \
                 grain_diameter = 5e-4, grain_density = 2650.0 } } }\n[materials.clay]",
            ),
            Refused("mu_i"),
        ),
        (
            "continuum, reference kernels",
            c(&format!(
                "{SAND}[continuum.xpbi]\nkernel_frame = 'reference'\n"
            )),
            Refused("kernel_frame"),
        ),
        (
            "continuum, XSPH per step, no position correction",
            c(&format!(
                "{SAND}[continuum.xpbi]\nxsph = 0.01\nposition_correction = false\n"
            )),
            Runs(5),
        ),
        (
            "continuum, adaptive steps",
            c(SAND).replace("frames = 1\n", "frames = 1\ndt_max = 5e-5\n"),
            Runs(2),
        ),
        (
            "continuum, grips",
            c(&format!(
                "{SAND}grips = [{{ min = [-0.1, -0.1, 0.05], max = [0.1, 0.1, 0.1], velocity = [0.0, 0.0, 0.2] }}]\n"
            )),
            Runs(5),
        ),
        (
            "continuum, pinned box",
            c(&format!(
                "{SAND}pin = {{ min = [-0.1, -0.1, 0.0], max = [0.1, 0.1, 0.005] }}\n"
            )),
            Runs(5),
        ),
        // Obstacles on the sand's +x side, their surfaces 0.1 mm or less from the outer particles
        // (x = 0.025, radius 0.005), which move towards them at 0.3 m/s.
        (
            "continuum against a rotated box",
            c(&format!(
                "{SAND}[[collider]]\nshape = {{ box = {{ half_extents = [0.01, 0.1, 0.1] }} }}\n\
                 center = [0.0401, 0.0, 0.03]\nrotation_deg = [10.0, 0.0, 0.0]\nfriction = 0.3\n"
            )),
            Runs(5),
        ),
        (
            "continuum against a mesh collider",
            c(&format!(
                "{SAND}[[collider]]\nshape = {{ mesh = {{ path = 'wall.obj', cell = 0.005 }} }}\n\
                 center = [0.0401, 0.0, 0.03]\nrotation_deg = [10.0, 0.0, 0.0]\nfriction = 0.3\n"
            )),
            Runs(5),
        ),
        (
            "continuum against a sphere",
            c(&format!(
                "{SAND}[[collider]]\nshape = {{ sphere = {{ radius = 0.02 }} }}\n\
                 center = [0.0495, 0.0, 0.03]\nfriction = 0.3\n"
            )),
            Runs(5),
        ),
        (
            "continuum against a capsule",
            c(&format!(
                "{SAND}[[collider]]\nshape = {{ capsule = {{ half_length = 0.05, radius = 0.01 }} }}\n\
                 center = [0.0401, 0.0, 0.035]\nrotation_deg = [0.0, 0.0, 90.0]\nfriction = 0.3\n"
            )),
            Runs(5),
        ),
        (
            "continuum pushed by a moving box",
            c(&format!(
                "{SAND}[[collider]]\nshape = {{ box = {{ half_extents = [0.01, 0.1, 0.1] }} }}\n\
                 center = [0.0401, 0.0, 0.03]\nvelocity = [-1.0, 0.0, 0.0]\nfriction = 0.3\n"
            )),
            Runs(5),
        ),
        (
            "continuum against a bouncing sphere",
            c(&format!(
                "{SAND}[[collider]]\nshape = {{ sphere = {{ radius = 0.02 }} }}\n\
                 center = [0.0495, 0.0, 0.03]\nrestitution = 0.5\n"
            )),
            Runs(5),
        ),
        (
            "continuum of layers",
            c(
                "[[continuum]]\nspacing = 0.01\n[[continuum.layer]]\nmaterial = 'sand'\n\
               region = { box = { min = [-0.03, -0.03, 0.03], max = [0.03, 0.03, 0.06] } }\n\
               [[continuum.layer]]\nmaterial = 'clay'\n\
               region = { box = { min = [-0.03, -0.03, 0.0], max = [0.03, 0.03, 0.03] } }\n",
            ),
            Runs(5),
        ),
        (
            "two continua",
            c(&format!(
                "{SAND}{}",
                SAND.replace("name = 'sand'", "name = 'b'")
                    .replace("[-0.03, -0.03, 0.0]", "[0.1, -0.03, 0.0]")
                    .replace("[0.03, 0.03, 0.06]", "[0.16, 0.03, 0.06]")
            )),
            Runs(5),
        ),
        (
            "two continua touching",
            c(&format!(
                "{SAND}{}",
                SAND.replace("name = 'sand'", "name = 'b'")
                    .replace("material = 'sand'", "material = 'clay'")
                    .replace("[-0.03, -0.03, 0.0]", "[0.04, -0.03, 0.0]")
                    .replace("[0.03, 0.03, 0.06]", "[0.1, 0.03, 0.06]")
                    .replace(
                        "velocity = [0.3, 0.0, -0.5]",
                        "velocity = [-0.3, 0.0, -0.5]"
                    )
            )),
            Runs(20),
        ),
        (
            "four continua",
            c(&(0..4)
                .map(|k| {
                    let x0 = -0.3 + 0.15 * k as f64;
                    SAND.replace("name = 'sand'", &format!("name = 's{k}'"))
                        .replace("[-0.03, -0.03, 0.0]", &format!("[{x0}, -0.03, 0.0]"))
                        .replace(
                            "[0.03, 0.03, 0.06]",
                            &format!("[{}, 0.03, 0.06]", x0 + 0.06),
                        )
                })
                .collect::<String>()),
            Refused("continua"),
        ),
        (
            "nozzle",
            c("[[continuum]]\nmaterial = 'clay'\nspacing = 0.005\n\
               region = { nozzle = { exit = [0.0, 0.0, 0.05], radius = 0.005, speed = 0.2, duration = 0.15 } }\n"),
            Runs(20),
        ),
        (
            "fluid",
            c(
                "[[fluid]]\nregion = { box = { min = [-0.03, -0.03, 0.0], max = [0.03, 0.03, 0.06] } }\n\
               spacing = 0.01\n",
            ),
            Runs(5),
        ),
        (
            "fluid, Jacobi",
            c(
                "[[fluid]]\nregion = { box = { min = [-0.03, -0.03, 0.0], max = [0.03, 0.03, 0.06] } }\n\
               spacing = 0.01\n",
            )
            .replace(
                "kind = 'coloured'",
                "kind = 'jacobi', omega = 1.0, averaged = true",
            ),
            Refused("Jacobi"),
        ),
        (
            "fluid with vorticity confinement beside a continuum",
            c(&format!(
                "{SAND}[[fluid]]\nvorticity_confinement = 0.25\nviscosity = 0.01\n\
                 region = {{ box = {{ min = [-0.03, -0.03, 0.07], max = [0.03, 0.03, 0.1] }} }}\n\
                 spacing = 0.01\n"
            )),
            Runs(5),
        ),
        (
            "cloth and continuum",
            format!("{}{SMALL_SHEET}origin = [-0.1, -0.1, 0.2]\n", c(SAND)),
            Runs(5),
        ),
        (
            "continuum on a cloth",
            format!(
                "{}{SMALL_SHEET}origin = [-0.1, -0.1, -0.0055]\npins = [[0, 0], [3, 0], [0, 3], [3, 3]]\n",
                c(&SAND.replace("velocity = [0.3, 0.0, -0.5]", "velocity = [0.0, 0.0, -0.5]"))
                    .replace("offset = 0.0 }", "offset = -0.1 }")
            ),
            Runs(20),
        ),
        (
            "rope on a continuum",
            format!(
                "{}[materials.steel]\ndensity = 7850.0\nyoungs = 2e11\n[[rope]]\nmaterial = 'steel'\n\
                 links = 6\nstart = [-0.03, 0.0, 0.06301]\nend = [0.03, 0.0, 0.06301]\nradius = 0.003\n",
                c(&SAND.replace("velocity = [0.3, 0.0, -0.5]", "velocity = [0.0, 0.0, 0.0]"))
            ),
            Runs(20),
        ),
        (
            "touching XPBD bodies, Gauss-Seidel",
            x(&format!(
                "{CLOTH}name = 'sheet'\n[[rope]]\nname = 'rope'\nmaterial = 'steel'\nlinks = 8\n\
                 start = [-0.2, 0.0, 0.515]\nend = [0.2, 0.0, 0.515]\nradius = 0.005\n\
                 [[interaction]]\nbodies = ['sheet', 'rope']\nfriction = 0.3\n\
                 [contacts]\nradius = 0.005\n"
            ))
            .replace("kind = 'coloured'", "kind = 'gauss_seidel'"),
            Runs(10),
        ),
    ];
    for (name, text, expect) in features {
        let path = dir.join("feature.toml");
        std::fs::write(&path, &text).unwrap();
        let desc = SceneDesc::parse(&text, &path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let world = GpuWorld::new(ctx.clone(), build_scene(desc.clone(), &path).unwrap());
        match (world, expect) {
            (Err(e), Refused(word)) => {
                let msg = e.to_string();
                eprintln!("{name}: refused: {msg}");
                assert!(
                    msg.contains(word),
                    "{name}: the refusal {msg:?} does not name {word:?}"
                );
            }
            (Err(e), Runs(_)) => panic!("{name}: expected to run, refused: {e}"),
            (Ok(_), Refused(word)) => {
                panic!("{name}: runs on the GPU, expected a refusal ({word})")
            }
            (Ok(mut gpu), Runs(steps)) => {
                let mut cpu = build_scene(desc, &path).unwrap();
                let x0 = cpu.sim.particles().x.clone();
                for _ in 0..steps {
                    cpu.step().unwrap_or_else(|e| panic!("{name}: CPU {e}"));
                    gpu.step().unwrap_or_else(|e| panic!("{name}: GPU {e}"));
                }
                let xg = positions(&mut gpu);
                let xc = &cpu.sim.particles().x;
                let (moved, dx) = (max_diff(xc, &x0), max_diff(&xg, xc));
                let substeps = cpu.steps.steps * cpu.sim.settings().substeps;
                let x_max = xc.iter().map(|x| x.amax()).fold(0.0, f64::max);
                let bound = 4.0 * (substeps as f64).powf(1.5) * EPS32 * x_max;
                eprintln!(
                    "{name}: moved {moved:.3e} m, |x_gpu - x_cpu| {dx:.3e} m (bound {bound:.1e})"
                );
                assert!(moved > 1e-6, "{name}: nothing moved");
                assert!(dx <= bound, "{name}: {dx:e} > {bound:e}");
                // The scene's colliders are where the CPU's are (kinematic ones advanced).
                let poses = |s: &BuiltScene| -> Vec<Vector3<f64>> {
                    s.block_kinds()
                        .iter()
                        .filter_map(|k| match k {
                            xpbd_scene::BlockKind::Contacts(c) => Some(c),
                            _ => None,
                        })
                        .flat_map(|c| c.colliders().iter().map(|c| c.pose.translation))
                        .collect()
                };
                let (pc, pg) = (poses(&cpu), poses(gpu.scene()));
                assert_eq!(pc.len(), pg.len(), "{name}: colliders");
                assert!(
                    max_diff(&pc, &pg) <= 1e-12,
                    "{name}: collider poses {pg:?} vs the CPU's {pc:?}"
                );
            }
        }
    }
}

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
