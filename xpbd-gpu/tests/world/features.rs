//! The feature table of the GPU world: every feature a scene description can hold, one small
//! description each, either runs on the GPU world and agrees with the CPU within the f32 walk
//! bound, or is refused when the world is built with a message naming it: nothing is silently
//! ignored. One test per group of features, each with its own scene folder.

use std::path::Path;
use std::sync::Arc;

use nalgebra::Vector3;
use xpbd_gpu::{GpuContext, GpuWorld};
use xpbd_scene::{BuiltScene, SceneDesc, build_scene};

use super::{CONTINUUM_BASE, EPS32, box_obj, ctx, max_diff, positions};
use Expect::{Refused, Runs};

const XPBD_BASE: &str = "name = 'feature'\n[time]\ndt = 0.016666666666666666\nframes = 1\n\
[solver]\nsubsteps = 10\niterations = 1\nmethod = { kind = 'coloured' }\n\
gravity = [0.0, 0.0, -9.81]\n\
[materials.cotton]\ndensity = 1500.0\nyoungs = 5e8\nthickness = 0.0005\n\
[materials.steel]\ndensity = 7850.0\nyoungs = 2e11\n\
[materials.rubber]\ndensity = 1100.0\nyoungs = 1e6\npoisson = 0.45\n";

const CLOTH: &str = "[[cloth]]\nmaterial = 'cotton'\nresolution = [6, 6]\nsize = [0.5, 0.5]\n\
origin = [-0.25, -0.25, 0.5]\npins = [[0, 5], [5, 5]]\n";

const SAND: &str = "[[continuum]]\nname = 'sand'\nmaterial = 'sand'\n\
region = { box = { min = [-0.03, -0.03, 0.0], max = [0.03, 0.03, 0.06] } }\nspacing = 0.01\n\
velocity = [0.3, 0.0, -0.5]\n";

/// The cotton of [`XPBD_BASE`] without and with a bending stiffness (only a bending cloth
/// reads it; elsewhere it is refused as a setting nothing reads).
const BENDLESS: &str = "thickness = 0.0005\n";
const BENDING: &str = "thickness = 0.0005\nbending_stiffness = 1e-5\n";

/// A 4 × 4 cotton sheet, 0.2 m wide (its `origin` and pins follow).
const SMALL_SHEET: &str = "[materials.cotton]\ndensity = 1500.0\nyoungs = 5e8\nthickness = 0.0005\n\
[[cloth]]\nmaterial = 'cotton'\nresolution = [4, 4]\nsize = [0.2, 0.2]\n";

/// What a feature of the description does on the GPU world.
enum Expect {
    /// It runs and agrees with the CPU within the walk bound after these steps.
    Runs(usize),
    /// It is refused; the refusal names this.
    Refused(&'static str),
}

/// A feature: its name, its description and what the GPU world does with it.
type Feature = (&'static str, String, Expect);

/// A description of the XPBD bodies in `body` (materials cotton, steel, rubber).
fn x(body: &str) -> String {
    format!("{XPBD_BASE}{body}")
}

/// A description of the continua in `body` above a ground plane (materials sand, clay).
fn c(body: &str) -> String {
    format!("{CONTINUUM_BASE}{body}")
}

/// The pinned 6 × 6 cloth of [`CLOTH`] with `extra` after it.
fn cloth(extra: &str) -> String {
    x(&format!("{CLOTH}{extra}"))
}

/// A plane under the cloth, 5 cm below it.
const PLANE: &str =
    "[[collider]]\nshape = { plane = { normal = [0.0, 0.0, 1.0], offset = 0.45 } }\n";

/// The cloth above a collider of shape `shape` (with `extra` settings), 0.2 m below it.
///
/// Contact radius 0.03 m: a sphere or capsule of radius R ≥ ρ²/(2r) = 0.083 m (ρ = 0.0707 m,
/// the circumradius of the sheet's triangles) cannot reach a triangle between vertices that
/// keep r from it, so the CPU's collider contact against the triangles stays inactive and
/// the GPU's per-vertex contact gives the same result.
fn collider(shape: &str, extra: &str) -> String {
    cloth(&format!(
        "[[collider]]\nshape = {{ {shape} }}\ncenter = [0.0, 0.0, 0.3]\n{extra}\n\
         [contacts]\nradius = 0.03\n"
    ))
}

/// The features of [`xpbd_bodies_and_solvers_run_on_the_gpu_or_are_refused_by_name`].
fn xpbd_bodies_and_solvers() -> Vec<Feature> {
    vec![
        ("cloth without bending", cloth(""), Runs(10)),
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
    ]
}

/// The features of [`xpbd_colliders_run_on_the_gpu_or_are_refused_by_name`].
fn xpbd_colliders() -> Vec<Feature> {
    let plane = PLANE;
    vec![
        (
            "mesh collider",
            collider(
                "mesh = { path = 'block.obj', cell = 0.05 }",
                "rotation_deg = [10.0, 0.0, 0.0]\nfriction = 0.3",
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
    ]
}

/// The features of [`continuum_settings_run_on_the_gpu_or_are_refused_by_name`].
fn continuum_settings() -> Vec<Feature> {
    vec![
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
            "nozzle",
            c("[[continuum]]\nmaterial = 'clay'\nspacing = 0.005\n\
               region = { nozzle = { exit = [0.0, 0.0, 0.05], radius = 0.005, speed = 0.2, duration = 0.15 } }\n"),
            Runs(20),
        ),
    ]
}

/// The features of [`continuum_colliders_run_on_the_gpu_or_are_refused_by_name`].
fn continuum_colliders() -> Vec<Feature> {
    vec![
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
    ]
}

/// The features of [`several_bodies_run_on_the_gpu_or_are_refused_by_name`].
fn several_bodies() -> Vec<Feature> {
    vec![
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
    ]
}

/// Cloths with each bending model, ropes, soft boxes, touching XPBD bodies and every solver
/// setting of the XPBD step.
#[test]
fn xpbd_bodies_and_solvers_run_on_the_gpu_or_are_refused_by_name() {
    check_features("xpbd bodies and solvers", xpbd_bodies_and_solvers());
}

/// Colliders of every shape under the XPBD bodies: friction, restitution, rotation and motion.
#[test]
fn xpbd_colliders_run_on_the_gpu_or_are_refused_by_name() {
    check_features("xpbd colliders", xpbd_colliders());
}

/// A continuum with each solver, material and XPBI setting, grips, pins, layers and a nozzle.
#[test]
fn continuum_settings_run_on_the_gpu_or_are_refused_by_name() {
    check_features("continuum settings", continuum_settings());
}

/// A continuum against colliders of every shape, moving and bouncing.
#[test]
fn continuum_colliders_run_on_the_gpu_or_are_refused_by_name() {
    check_features("continuum colliders", continuum_colliders());
}

/// Several continua, fluids, and continua beside or on XPBD bodies.
#[test]
fn several_bodies_run_on_the_gpu_or_are_refused_by_name() {
    check_features("several bodies", several_bodies());
}

/// Runs each feature of `features` (a group named `group`) on the GPU world, in a scene folder
/// of its own holding the mesh colliders' files.
fn check_features(group: &str, features: Vec<Feature>) {
    let Some(ctx) = ctx(&format!("world features: {group}")) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!(
        "xpbd-gpu-features-{}-{}",
        group.replace(' ', "-"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    // Closed box meshes for the mesh colliders (signed-distance grids): a 0.4 × 0.4 × 0.2 m
    // block under the cloth and a 0.02 × 0.2 × 0.2 m wall beside the sand.
    box_obj(&dir.join("block.obj"), [0.4, 0.4, 0.2]);
    box_obj(&dir.join("wall.obj"), [0.02, 0.2, 0.2]);
    for (name, text, expect) in features {
        check_feature(&ctx, &dir, name, &text, expect);
    }
}

/// Builds the GPU world of the description `text` (written to `dir`) and checks that it is
/// refused naming the feature, or runs and agrees with the CPU.
fn check_feature(ctx: &Arc<GpuContext>, dir: &Path, name: &str, text: &str, expect: Expect) {
    let path = dir.join("feature.toml");
    std::fs::write(&path, text).unwrap();
    let desc = SceneDesc::parse(text, &path).unwrap_or_else(|e| panic!("{name}: {e}"));
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
        (Ok(gpu), Runs(steps)) => {
            let cpu = build_scene(desc, &path).unwrap();
            compare_runs(name, gpu, cpu, steps);
        }
    }
}

/// Steps the GPU world and the CPU scene `steps` times and compares the positions (within the
/// f32 walk bound) and the colliders' poses.
fn compare_runs(name: &str, mut gpu: GpuWorld, mut cpu: BuiltScene, steps: usize) {
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
    eprintln!("{name}: moved {moved:.3e} m, |x_gpu - x_cpu| {dx:.3e} m (bound {bound:.1e})");
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
