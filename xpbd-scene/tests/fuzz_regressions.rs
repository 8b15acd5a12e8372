//! Replays the committed fuzz corpora and crash inputs (`fuzz/corpus/TARGET/*`,
//! `fuzz/regressions/TARGET/*`) through the same entry points as the cargo-fuzz targets, on
//! stable Rust: every input must give `Ok` or a typed error, never a panic (a panic fails the
//! test and names the file).

use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut files = Vec::new();
    for dir in ["corpus", "regressions"] {
        if let Ok(rd) = std::fs::read_dir(root.join(dir).join(target)) {
            files.extend(
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.is_file()),
            );
        }
    }
    files.sort();
    files
}

fn replay(target: &str, f: impl Fn(&[u8])) {
    let files = inputs(target);
    assert!(!files.is_empty(), "no corpus for {target}");
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&bytes)));
        assert!(r.is_ok(), "{target}: {} panicked", path.display());
    }
}

#[test]
fn scene_parser_corpus() {
    replay("scene_toml", |data| {
        if let Ok(text) = std::str::from_utf8(data)
            && let Ok(scene) = xpbd_scene::SceneFile::parse(text, Path::new("fuzz.toml"))
            && scene.mesh.is_empty()
            && scene
                .cloth
                .iter()
                .all(|c| c.resolution[0] * c.resolution[1] <= 4096)
            && scene
                .soft_box
                .iter()
                .all(|b| b.cells.iter().product::<usize>() <= 512)
            && scene.continuum.iter().all(|c| c.lattice_points() <= 4096.0)
        {
            let _ = xpbd_scene::build_scene(scene, Path::new("fuzz.toml"));
        }
    });
}

#[test]
fn obj_corpus() {
    replay("import_obj", |d| {
        drop(xpbd_scene::import::parse_obj(d, "fuzz"))
    });
}

#[test]
fn ply_corpus() {
    replay("import_ply", |d| {
        drop(xpbd_scene::import::parse_ply(d, "fuzz"))
    });
}

#[test]
fn gmsh_corpus() {
    replay("import_gmsh", |d| {
        drop(xpbd_scene::import::parse_gmsh(d, "fuzz"))
    });
}

#[test]
fn tetgen_corpus() {
    replay("import_tetgen", |d| {
        let text = String::from_utf8_lossy(d);
        let (node, ele) = text.split_once('\0').unwrap_or((&text, ""));
        drop(xpbd_scene::import::parse_tetgen(node, ele, "fuzz"));
    });
}
