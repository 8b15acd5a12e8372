//! Bodies that touch on the GPU world: a continuum on a cloth (point–triangle contacts), a rope
//! on a continuum (particle pairs), XPBD bodies and a continuum in one step. Each is held to
//! the CPU within the f32 walk bound while the contacts are active, and to the physics: no
//! penetration, momentum passed between the bodies and conserved.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use nalgebra::Vector3;
use xpbd_gpu::{GpuContext, GpuError, GpuWorld, context_for_test};
use xpbd_scene::{BlockKind, BuiltScene, SceneDesc, build_scene};
use xpbi_continuum::continuum::SweepOrder;

const EPS32: f64 = f32::EPSILON as f64;

fn ctx(test: &str) -> Option<Arc<GpuContext>> {
    context_for_test(test)
        .expect("XPBD_REQUIRE_GPU is set but no GPU adapter")
        .map(Arc::new)
}

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xpbd-gpu-coupled-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// The scene of `text`, its continua swept in the GPU's 3^d cell colours (the projection
/// order both backends share; see `tests/world.rs`).
fn build(text: &str, path: &Path) -> BuiltScene {
    let mut desc = SceneDesc::parse(text, path).unwrap();
    for c in &mut desc.continuum {
        c.xpbi.sweep = SweepOrder::Cells;
    }
    build_scene(desc, path).unwrap()
}

fn max_diff(a: &[Vector3<f64>], b: &[Vector3<f64>]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(p, q)| (p - q).norm())
        .fold(0.0, f64::max)
}

/// The f32 walk bound of the parity tests (`tests/world.rs`): 4 N^{3/2} ε |x|max after N
/// substeps.
fn walk_bound(scene: &BuiltScene) -> f64 {
    let substeps = scene.steps.steps * scene.sim.settings().substeps;
    let x_max = (scene.sim.particles().x.iter())
        .map(|x| x.amax())
        .fold(0.0, f64::max);
    4.0 * (substeps as f64).powf(1.5) * EPS32 * x_max
}

/// How many body contacts of the scene are active (λ > 0) after its last step.
fn active_contacts(scene: &BuiltScene) -> usize {
    scene
        .sim
        .blocks()
        .iter()
        .zip(scene.block_kinds())
        .filter(|(_, k)| matches!(k, BlockKind::Bodies(_) | BlockKind::Triangles(_)))
        .map(|(b, _)| b.multipliers().iter().filter(|&&l| l > 0.0).count())
        .sum()
}

const SHEET: &str = "name = 'sand on a sheet'\n[time]\ndt = 1e-3\nframes = 1\n\
[solver]\nsubsteps = 4\niterations = 5\nmethod = { kind = 'coloured' }\n\
gravity = [0.0, 0.0, -9.81]\n\
[materials.cotton]\ndensity = 1500.0\nyoungs = 5e8\nthickness = 0.0005\nbending_stiffness = 1e-5\n\
[materials.sand]\npreset = 'sand'\n\
[[cloth]]\nname = 'sheet'\nmaterial = 'cotton'\nresolution = [9, 9]\nsize = [0.16, 0.16]\n\
origin = [-0.08, -0.08, 0.1]\npins = [[0, 0], [8, 0], [0, 8], [8, 8]]\nbending = 'isometric'\n\
[[continuum]]\nname = 'sand'\nmaterial = 'sand'\nspacing = 0.01\n\
region = { box = { min = [-0.03, -0.03, 0.103], max = [0.03, 0.03, 0.133] } }\n\
[[interaction]]\nbodies = ['sand', 'sheet']\nfriction = 0.5\n\
[contacts]\nradius = 0.002\n";

/// Sand dropped 1 mm onto a sheet pinned at its corners (point–triangle contacts with
/// friction between the sand's particles and the sheet's triangles): the GPU world steps the
/// cloth, the continuum and their contacts in one step and stays within the f32 walk bound of
/// the CPU while dozens of contacts carry the sand; the sand does not pass the sheet.
#[test]
fn sand_on_a_sheet_matches_the_cpu_while_the_contacts_carry_it() {
    let Some(ctx) = ctx("coupled sheet") else {
        return;
    };
    let path = write("sheet", SHEET);
    let mut cpu = build(SHEET, &path);
    let mut gpu = GpuWorld::new(ctx, build(SHEET, &path)).unwrap();
    assert_eq!(gpu.step_name(), "coupled");
    let x0 = cpu.sim.particles().x.clone();
    for _ in 0..40 {
        cpu.step().unwrap();
        gpu.step().unwrap();
    }
    let (xc, xg) = (&cpu.sim.particles().x, &gpu.scene().sim.particles().x);
    let moved = max_diff(xc, &x0);
    let dx = max_diff(xg, xc);
    let bound = walk_bound(&cpu);
    let active = active_contacts(&cpu);
    eprintln!(
        "moved {moved:.3e} m, |x_gpu - x_cpu| {dx:.3e} m (bound {bound:.1e}), {active} active \
         contacts"
    );
    assert!(
        active >= 9,
        "the sand rests on the sheet ({active} active contacts)"
    );
    assert!(moved > 1e-3, "moved {moved:e}");
    assert!(dx <= bound, "{dx:e} > {bound:e}");
    // No sand particle below the sheet's lowest particle.
    let sheet = &gpu.scene().bodies[0].particles;
    let sand = &gpu.scene().bodies[1].particles;
    let lowest_sheet = sheet.clone().map(|i| xg[i].z).fold(f64::MAX, f64::min);
    let lowest_sand = sand.clone().map(|i| xg[i].z).fold(f64::MAX, f64::min);
    assert!(
        lowest_sand > lowest_sheet,
        "sand at {lowest_sand} below the sheet at {lowest_sheet}"
    );
}

const ROPE: &str = "name = 'rope on sand'\n[time]\ndt = 1e-3\nframes = 1\n\
[solver]\nsubsteps = 4\niterations = 5\nmethod = { kind = 'coloured' }\n\
gravity = [0.0, 0.0, -9.81]\n\
[materials.steel]\ndensity = 7850.0\nyoungs = 2e11\n\
[materials.sand]\npreset = 'sand'\n\
[[rope]]\nname = 'rope'\nmaterial = 'steel'\nlinks = 12\nstart = [-0.03, 0.0, 0.0455]\n\
end = [0.03, 0.0, 0.0455]\nradius = 0.0025\n\
[[continuum]]\nname = 'sand'\nmaterial = 'sand'\nspacing = 0.01\n\
region = { box = { min = [-0.04, -0.04, 0.0], max = [0.04, 0.04, 0.04] } }\n\
[[collider]]\nshape = { plane = { normal = [0.0, 0.0, 1.0], offset = 0.0 } }\nfriction = 0.5\n\
[contacts]\nradius = 0.0025\n";

/// A steel rope laid 0.5 mm above a sand bed (particle-pair contacts between the rope's and
/// the sand's particles): the rope sinks into the bed on both backends alike, within the f32
/// walk bound, carried by pair contacts.
#[test]
fn a_rope_on_sand_matches_the_cpu_through_pair_contacts() {
    let Some(ctx) = ctx("coupled rope") else {
        return;
    };
    let path = write("rope", ROPE);
    let mut cpu = build(ROPE, &path);
    let mut gpu = GpuWorld::new(ctx, build(ROPE, &path)).unwrap();
    assert_eq!(gpu.step_name(), "coupled");
    let x0 = cpu.sim.particles().x.clone();
    for _ in 0..40 {
        cpu.step().unwrap();
        gpu.step().unwrap();
    }
    let (xc, xg) = (&cpu.sim.particles().x, &gpu.scene().sim.particles().x);
    let moved = max_diff(xc, &x0);
    let dx = max_diff(xg, xc);
    let bound = walk_bound(&cpu);
    let active = active_contacts(&cpu);
    let pairs = cpu
        .block_kinds()
        .iter()
        .any(|k| matches!(k, BlockKind::Bodies(b) if !b.pairs().is_empty()));
    eprintln!(
        "moved {moved:.3e} m, |x_gpu - x_cpu| {dx:.3e} m (bound {bound:.1e}), {active} active"
    );
    assert!(pairs, "the rope and the sand touch through pair contacts");
    assert!(active >= 5, "the rope rests on the sand ({active} active)");
    assert!(moved > 1e-4, "moved {moved:e}");
    assert!(dx <= bound, "{dx:e} > {bound:e}");
}

const FREE: &str = "name = 'free collision'\n[time]\ndt = 1e-3\nframes = 1\n\
[solver]\nsubsteps = 4\niterations = 5\nmethod = { kind = 'coloured' }\n\
gravity = [0.0, 0.0, 0.0]\n\
[materials.canvas]\ndensity = 1500.0\nyoungs = 5e8\nthickness = 0.003\nbending_stiffness = 1e-5\n\
[materials.sand]\npreset = 'sand'\n\
[[cloth]]\nname = 'sheet'\nmaterial = 'canvas'\nresolution = [9, 9]\nsize = [0.16, 0.16]\n\
origin = [-0.08, -0.08, 0.0]\nbending = 'isometric'\n\
[[continuum]]\nname = 'sand'\nmaterial = 'sand'\nspacing = 0.01\nvelocity = [0.0, 0.0, -1.0]\n\
region = { ball = { center = [0.0, 0.0, 0.04], radius = 0.03 } }\n\
[[interaction]]\nbodies = ['sand', 'sheet']\nfriction = 0.5\n\
[contacts]\nradius = 0.002\n";

/// Total momentum Σ m v of a scene.
fn momentum(scene: &BuiltScene) -> Vector3<f64> {
    let p = scene.sim.particles();
    (0..p.len())
        .filter(|&i| p.inv_mass[i] > 0.0)
        .map(|i| p.v[i] / p.inv_mass[i])
        .sum()
}

/// A sand ball flying at 1 m/s into a free sheet, without gravity, colliders or damping:
/// every interaction (the continuum's constraint and XSPH, the cloth's springs, the contacts
/// and their friction) is internal, so the total momentum is conserved, to f32 rounding on the
/// GPU, while the collision passes the sheet at least half its share of a perfectly
/// inelastic collision, m_sheet / (m_sheet + m_sand).
#[test]
fn momentum_passes_from_sand_to_a_free_sheet_and_is_conserved() {
    let Some(ctx) = ctx("coupled momentum") else {
        return;
    };
    let path = write("free", FREE);
    let mut gpu = GpuWorld::new(ctx, build(FREE, &path)).unwrap();
    let p0 = momentum(gpu.scene());
    let mass = |r: std::ops::Range<usize>| -> f64 {
        let w = &gpu.scene().sim.particles().inv_mass;
        r.map(|i| 1.0 / w[i]).sum()
    };
    let bodies = &gpu.scene().bodies;
    let (m_sheet, m_sand) = (
        mass(bodies[0].particles.clone()),
        mass(bodies[1].particles.clone()),
    );
    let share = m_sheet / (m_sheet + m_sand);
    for _ in 0..40 {
        gpu.step().unwrap();
    }
    let p1 = momentum(gpu.scene());
    let sheet = gpu.scene().bodies[0].particles.clone();
    let p = gpu.scene().sim.particles();
    let sheet_p: Vector3<f64> = sheet.map(|i| p.v[i] / p.inv_mass[i]).sum();
    let change = (p1 - p0).norm() / p0.norm();
    eprintln!(
        "momentum {p0:?} -> {p1:?} (relative change {change:.2e}); the sheet carries {:.3} \
         (inelastic share {share:.3})",
        sheet_p.z / p0.z
    );
    assert!(
        sheet_p.z / p0.z > 0.5 * share,
        "the sheet was hit: {sheet_p:?}"
    );
    assert!(change < 1e-4, "momentum changed by {change:e}");
}

/// A scene with body contacts under the Jacobi solver is refused by name: the GPU projects
/// body contacts in the CPU's colours only.
#[test]
fn body_contacts_under_jacobi_are_refused_by_name() {
    let Some(ctx) = ctx("coupled jacobi") else {
        return;
    };
    let text = SHEET.replace(
        "kind = 'coloured'",
        "kind = 'jacobi', omega = 1.0, averaged = true",
    );
    let path = write("jacobi", &text);
    let scene = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    match GpuWorld::new(ctx, scene) {
        Err(GpuError::Unsupported { what, .. }) => {
            assert!(what.contains("Jacobi"), "{what}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

const TWO: &str = "name = 'clay into sand'\n[time]\ndt = 2.5e-4\nframes = 1\n\
[solver]\nsubsteps = 1\niterations = 10\nmethod = { kind = 'coloured' }\n\
gravity = [0.0, 0.0, -9.81]\n\
[materials.clay]\npreset = 'clay'\n[materials.sand]\npreset = 'sand'\n\
[[continuum]]\nname = 'bed'\nmaterial = 'sand'\nspacing = 0.01\n\
region = { box = { min = [-0.05, -0.05, 0.0], max = [0.05, 0.05, 0.03] } }\n\
[[continuum]]\nname = 'ball'\nmaterial = 'clay'\nspacing = 0.01\nvelocity = [0.5, 0.0, -1.0]\n\
region = { ball = { center = [0.0, 0.0, 0.0502], radius = 0.02 } }\n\
[[collider]]\nshape = { plane = { normal = [0.0, 0.0, 1.0], offset = 0.0 } }\nfriction = 0.5\n\
[contacts]\nradius = 0.005\n";

/// A clay ball thrown into a sand bed, two continua that touch through particle pairs (each
/// with its own neighbour grid and cell colours on the device, as on the CPU): within the f32
/// walk bound of the CPU while the pairs carry the impact. (A snowball diverges from the CPU
/// at the impact by more than f32 rounding: its return map's branch decisions, taken in f32 on
/// one side and f64 on the other, part near the yield surface the contact drives it to.)
#[test]
fn two_continua_collide_as_on_the_cpu() {
    let Some(ctx) = ctx("coupled continua") else {
        return;
    };
    let path = write("two", TWO);
    let mut cpu = build(TWO, &path);
    let mut gpu = GpuWorld::new(ctx, build(TWO, &path)).unwrap();
    assert_eq!(gpu.step_name(), "coupled");
    let x0 = cpu.sim.particles().x.clone();
    for _ in 0..60 {
        cpu.step().unwrap();
        gpu.step().unwrap();
    }
    let (xc, xg) = (&cpu.sim.particles().x, &gpu.scene().sim.particles().x);
    let moved = max_diff(xc, &x0);
    let dx = max_diff(xg, xc);
    let bound = walk_bound(&cpu);
    let active = active_contacts(&cpu);
    eprintln!(
        "moved {moved:.3e} m, |x_gpu - x_cpu| {dx:.3e} m (bound {bound:.1e}), {active} active"
    );
    assert!(active >= 3, "the ball presses on the bed ({active} active)");
    assert!(moved > 1e-3, "moved {moved:e}");
    assert!(dx <= bound, "{dx:e} > {bound:e}");
}

/// A checkpoint of the sand on the sheet, written from the GPU world while the contacts carry
/// the sand, resumes on the CPU (and a CPU checkpoint on the GPU): both continue within the
/// walk bound of the run they left.
#[test]
fn a_coupled_checkpoint_crosses_between_the_backends() {
    use xpbd_scene::Checkpoint;
    use xpbd_scene::runner::FrameStepper;
    let Some(ctx) = ctx("coupled checkpoint") else {
        return;
    };
    let path = write("sheet_ckpt", SHEET);
    let text = SHEET;
    let mut gpu = GpuWorld::new(ctx.clone(), build(text, &path)).unwrap();
    for _ in 0..25 {
        gpu.step().unwrap();
    }
    let bytes = Checkpoint::capture(gpu.built(), text, &path).to_bytes();
    let mut cpu = Checkpoint::from_bytes(&bytes).unwrap().restore().unwrap();
    assert_eq!(cpu.sim.particles().x, gpu.scene().sim.particles().x);
    let mut back = GpuWorld::new(
        ctx,
        Checkpoint::from_bytes(&bytes).unwrap().restore().unwrap(),
    )
    .unwrap();
    let x1 = cpu.sim.particles().x.clone();
    for _ in 0..15 {
        gpu.step().unwrap();
        cpu.step().unwrap();
        back.step().unwrap();
    }
    let xg = &gpu.scene().sim.particles().x;
    let moved = max_diff(xg, &x1);
    let d_cpu = max_diff(&cpu.sim.particles().x, xg);
    let d_back = max_diff(&back.scene().sim.particles().x, xg);
    let bound = walk_bound(&cpu);
    eprintln!(
        "moved {moved:.3e} m; the CPU resumed {d_cpu:.3e} m, the GPU resumed {d_back:.3e} m \
         from the GPU run (bound {bound:.1e})"
    );
    assert!(moved > 1e-4, "moved {moved:e}");
    assert!(d_cpu <= bound, "{d_cpu:e} > {bound:e}");
    assert!(d_back <= bound, "{d_back:e} > {bound:e}");
}
