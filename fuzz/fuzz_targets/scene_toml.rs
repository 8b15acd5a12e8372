//! Scene parser: any bytes give Ok or a typed SceneError, never a panic. Valid scenes are
//! also built when small (cloth, soft boxes, ropes and continua capped at a few thousand
//! particles, as xpbd-scene/tests/fuzz_regressions.rs does; no meshes).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(scene) = xpbd_scene::SceneDesc::parse(text, std::path::Path::new("fuzz.toml"))
    {
        let small = scene.cloth.iter().all(|c| c.resolution[0] * c.resolution[1] <= 4096)
            && scene.soft_box.iter().all(|b| b.cells.iter().product::<usize>() <= 512)
            && scene.rope.iter().all(|r| r.links <= 4096)
            && scene.continuum.iter().all(|c| c.lattice_points() <= 4096.0)
            && scene.mesh.is_empty();
        if small {
            let _ = xpbd_scene::build_scene(scene, std::path::Path::new("fuzz.toml"));
        }
    }
});
