//! The GPU world's collider contact holds a cloth's vertices only; the CPU's also holds its
//! triangles (`xpbd_core::contact::ColliderTriangleContacts`). Where that could act — a box
//! with a cloth, or a sphere or capsule of radius below ρ²/(2r) — the world refuses the scene
//! by name when it is built, before any device is needed; the scene files with a cloth still
//! run.

use std::path::Path;
use std::sync::Arc;

use xpbd_gpu::world::refusal;
use xpbd_gpu::{GpuError, GpuWorld, context_for_test};
use xpbd_scene::{BuiltScene, SceneDesc, build_scene};

/// A 6 × 6 cotton sheet of 0.5 m (triangles of circumradius ρ = 0.0707 m), contact radius
/// r = 0.01 m: triangle contact can act for spheres and capsules below ρ²/(2r) = 0.25 m.
fn sheet_over(collider: &str) -> BuiltScene {
    let text = format!(
        "name = 'sheet'\n[time]\ndt = 0.016666666666666666\nframes = 1\n\
         [solver]\nsubsteps = 10\niterations = 1\nmethod = {{ kind = 'coloured' }}\n\
         gravity = [0.0, 0.0, -9.81]\n\
         [materials.cotton]\ndensity = 1500.0\nyoungs = 5e8\nthickness = 0.0005\n\
         [[cloth]]\nmaterial = 'cotton'\nresolution = [6, 6]\nsize = [0.5, 0.5]\n\
         origin = [-0.25, -0.25, 0.5]\npins = [[0, 5], [5, 5]]\n\
         [[collider]]\nshape = {{ {collider} }}\ncenter = [0.0, 0.0, 0.0]\n\
         [contacts]\nradius = 0.01\n"
    );
    let path = Path::new("sheet.toml");
    build_scene(SceneDesc::parse(&text, path).unwrap(), path).unwrap()
}

fn refused(scene: &BuiltScene) -> (String, &'static str) {
    match refusal(scene) {
        Some(GpuError::Unsupported { what, reason }) => (what, reason),
        other => panic!("expected a refusal by name, got {other:?}"),
    }
}

/// A sphere of 0.1 m, a capsule of 0.05 m and a box under a sheet are refused, each naming the
/// collider, what it is against, the bound, and that the CPU backend models it; a sphere of
/// 0.25 m or more is not.
#[test]
fn colliders_that_could_cross_a_cloth_triangle_are_refused_by_name() {
    let (what, reason) = refused(&sheet_over("sphere = { radius = 0.1 }"));
    assert!(
        what.contains("collider 0: a sphere of radius 0.1 m against a cloth's triangles"),
        "{what}"
    );
    assert!(what.contains("0.0707") && what.contains("0.2500"), "{what}");
    assert!(reason.contains("CPU backend models it"), "{reason}");
    let (what, _) = refused(&sheet_over(
        "capsule = { half_length = 0.1, radius = 0.05 }",
    ));
    assert!(what.contains("a capsule of radius 0.05 m"), "{what}");
    let (what, reason) = refused(&sheet_over("box = { half_extents = [0.2, 0.2, 0.1] }"));
    assert!(what.contains("a box against a cloth's triangles"), "{what}");
    assert!(reason.contains("a box's corner"), "{reason}");
    assert!(refusal(&sheet_over("sphere = { radius = 0.26 }")).is_none());
}

/// Every scene file with a cloth and colliders builds a world that is not refused for it
/// (checked without a device): cloth_on_sphere (R = 0.3 m ≥ ρ²/(2r) = 0.068 m),
/// soak_cloth_sphere (0.2 m ≥ 0.184 m) and the cloths over a plane alone.
#[test]
fn the_scene_files_with_a_cloth_are_not_refused() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes");
    for name in [
        "cloth_on_sphere",
        "soak_cloth_sphere",
        "sand_hammock",
        "water_hammock",
        "soak_sand_on_cloth",
        "paste_on_sheet",
        "cloth_on_sand_heap",
    ] {
        let scene = BuiltScene::load(&dir.join(format!("{name}.toml"))).unwrap();
        if let Some(e) = refusal(&scene) {
            panic!("{name}: {e}");
        }
    }
}

/// The world's constructor gives the same refusal (with a device; skipped without one unless
/// `XPBD_REQUIRE_GPU` is set).
#[test]
fn the_world_refuses_a_small_sphere_under_a_cloth() {
    let Some(ctx) = context_for_test("collider triangles")
        .expect("XPBD_REQUIRE_GPU is set but no GPU adapter")
        .map(Arc::new)
    else {
        return;
    };
    match GpuWorld::new(ctx, sheet_over("sphere = { radius = 0.1 }")) {
        Err(GpuError::Unsupported { what, .. }) => {
            assert!(what.contains("a sphere of radius 0.1 m"), "{what}")
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a sphere of 0.1 m under the sheet runs on the GPU"),
    }
}
