//! The GPU world built from an [`Assembly`] written in Rust, with no file in the way: the
//! library depends on the description and the assembly, never on a file-format crate, and the
//! world it builds agrees with the CPU simulation of the same assembly.

use std::path::Path;
use std::sync::Arc;

use nalgebra::Vector3;
use xpbd_gpu::{GpuContext, GpuWorld, context_for_test};
use xpbd_scene::continuum::{ContinuumSpec, Preset};
use xpbd_scene::region::RegionSpec;
use xpbd_scene::scene::{ColliderSpec, MaterialSpec, SolverSection};
use xpbd_scene::{Assembly, BlockPlan, SceneDesc, assemble};
use xpbi_continuum::contact::DEFAULT_CORRECTION_RADIUS;
use xpbi_continuum::continuum::SweepOrder;

/// Crates that read or write a file format (scene text, frames, meshes, checkpoints,
/// manifests) or the operating system's memory figures: the scene crate's `files` feature.
const FILE_CRATES: &[&str] = &[
    "toml",
    "serde_path_to_error",
    "vtkio",
    "ply-rs",
    "mshio",
    "postcard",
    "sysinfo",
    "serde_json",
];

#[test]
fn the_gpu_library_depends_on_no_file_format_crate() {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["tree", "-p", "xpbd-gpu", "-e", "normal", "--prefix", "none"])
        .args(["--format", "{p}", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    // The test can fail: the scene crate is in the tree, the GPU's own dependencies too.
    assert!(
        names.contains(&"xpbd-scene") && names.contains(&"wgpu"),
        "{tree}"
    );
    let found: Vec<&&str> = FILE_CRATES.iter().filter(|c| names.contains(c)).collect();
    assert!(
        found.is_empty(),
        "file-format crates in xpbd-gpu's tree: {found:?}"
    );
}

/// A sand block on a rough ground, written in Rust (a description without a file).
fn sand_block() -> SceneDesc {
    let mut solver = SolverSection::default();
    (solver.substeps, solver.iterations) = (2, 4);
    let mut sand = ContinuumSpec::new(
        "sand",
        RegionSpec::cuboid([-0.03, -0.03, 0.005], [0.03, 0.03, 0.045]),
        0.01,
    );
    // The GPU's order of projections (3^d cell colours), so that both backends agree within
    // f32 rounding rather than within the iterations' convergence.
    sand.xpbi.sweep = SweepOrder::Cells;
    SceneDesc::builder("sand block", 1e-3, 4)
        .solver(solver)
        .material("sand", MaterialSpec::preset(Preset::Sand))
        .continuum(sand)
        .collider(ColliderSpec::ground(0.0, 0.6))
        .contact_radius(0.004)
        .build()
        .unwrap()
}

fn ctx(test: &str) -> Option<Arc<GpuContext>> {
    context_for_test(test)
        .expect("XPBD_REQUIRE_GPU is set but no GPU adapter")
        .map(Arc::new)
}

#[test]
fn the_assembly_plans_the_blocks_in_projection_order() {
    let assembly: Assembly = assemble(sand_block(), Path::new("<rust>")).unwrap();
    let kinds: Vec<&str> = assembly.plans.iter().map(BlockPlan::describe).collect();
    assert_eq!(
        kinds,
        [
            "collider contacts",
            "XPBI continuum",
            "contacts between bodies"
        ]
    );
    let BlockPlan::Continuum(c) = &assembly.plans[1] else {
        unreachable!()
    };
    assert_eq!(c.correction_radius, Some(DEFAULT_CORRECTION_RADIUS));
    assert_eq!(c.members, 0..assembly.particles.len());
    assert!(
        assembly.particles.len() >= 5 * 5 * 4,
        "{}",
        assembly.particles.len()
    );
}

/// Bound as in `tests/world.rs`: positions stored in f32 round by ε|x| every substep, a random
/// walk through the velocity, 4 N^{3/2} ε |x|max after N substeps; the motion is real.
#[test]
fn a_world_built_from_an_assembly_in_rust_agrees_with_the_cpu() {
    let Some(ctx) = ctx("world from an assembly") else {
        return;
    };
    let file = Path::new("<rust>");
    let mut gpu = GpuWorld::from_assembly(ctx, assemble(sand_block(), file).unwrap()).unwrap();
    assert_eq!(gpu.step_name(), "xpbi");
    let mut cpu = assemble(sand_block(), file).unwrap().into_scene().unwrap();
    let x0 = cpu.sim.particles().x.clone();
    let steps = 20;
    for _ in 0..steps {
        gpu.step().unwrap();
        cpu.step().unwrap();
    }
    let (a, b) = (&gpu.scene().sim.particles().x, &cpu.sim.particles().x);
    let diff = max_diff(a, b);
    let moved = max_diff(&x0, b);
    let substeps = (cpu.steps.steps * 2) as f64;
    let xmax = b.iter().map(|p| p.norm()).fold(0.0, f64::max);
    let bound = 4.0 * substeps.powf(1.5) * f32::EPSILON as f64 * xmax;
    assert!(moved > 1e-5, "the sand did not move: {moved:e}");
    assert!(
        diff <= bound,
        "GPU and CPU differ by {diff:e} m > {bound:e} m"
    );
}

fn max_diff(a: &[Vector3<f64>], b: &[Vector3<f64>]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(p, q)| (p - q).norm())
        .fold(0.0, f64::max)
}
