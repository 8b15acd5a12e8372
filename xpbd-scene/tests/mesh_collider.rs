//! `[[collider]]` with `shape = { mesh = { … } }`: a closed triangle mesh as a signed-distance
//! grid. A mesh of a box gives the box's collisions (φ is linear over the faces, where the
//! grid's trilinear interpolation is exact), and every bad input names its field.
mod common;

use std::path::{Path, PathBuf};

use xpbd_scene::{BuiltScene, ImportError, SceneError};

/// A steel rope, 0.4 m long, released 0.2 m above the top face (z = 0.3 m) of a box
/// 0.6 × 0.6 × 0.2 m centred at (0, 0, 0.2), described by `shape`.
fn rope_over(shape: &str) -> String {
    format!(
        "name = 'rope over a box'\n[time]\ndt = 0.01666666666666667\nframes = 60\n\
         [solver]\nsubsteps = 10\n\
         [materials.steel]\ndensity = 7800.0\nyoungs = 2e11\n\
         [[rope]]\nmaterial = 'steel'\nlinks = 8\nstart = [-0.2, 0.05, 0.5]\n\
         end = [0.2, 0.05, 0.5]\nradius = 0.005\n\
         [[collider]]\nshape = {{ {shape} }}\ncenter = [0.0, 0.0, 0.2]\nfriction = 0.4\n\
         [contacts]\nradius = 0.01\n"
    )
}

/// The box of [`rope_over`] as an OBJ file (12 outward-facing triangles) in `dir`.
fn box_obj(dir: &Path) -> PathBuf {
    let mesh = xpbd_core::builders::TriangleSurface::unit_cube();
    let mut text = String::new();
    for v in &mesh.vertices {
        text += &format!("v {} {} {}\n", 0.6 * v.x, 0.6 * v.y, 0.2 * v.z);
    }
    for t in &mesh.triangles {
        text += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    let path = dir.join("box.obj");
    std::fs::write(&path, text).unwrap();
    path
}

fn build(dir: &Path, text: &str) -> Result<BuiltScene, SceneError> {
    let path = dir.join("scene.toml");
    std::fs::write(&path, text).unwrap();
    BuiltScene::load(&path)
}

/// The rope lands on the mesh box and rests on its top face at the contact radius, exactly
/// where it rests on the analytic box (same trajectory to 1e-9 m: on the faces the grid's φ is
/// the box's).
#[test]
fn a_rope_rests_on_a_mesh_collider_as_on_the_box_it_describes() {
    let dir = common::tmp_dir("mesh-collider");
    box_obj(&dir);
    let mut mesh = build(&dir, &rope_over("mesh = { path = 'box.obj', cell = 0.02 }")).unwrap();
    let mut analytic = build(&dir, &rope_over("box = { half_extents = [0.3, 0.3, 0.1] }")).unwrap();
    let mut dev: f64 = 0.0;
    for _ in 0..60 {
        mesh.step().unwrap();
        analytic.step().unwrap();
        let (a, b) = (&mesh.sim.particles().x, &analytic.sim.particles().x);
        for (a, b) in a.iter().zip(b) {
            dev = dev.max((a - b).norm());
        }
    }
    eprintln!("mesh vs analytic box: {dev:e} m over 60 frames");
    assert!(dev < 1e-9, "{dev:e}");
    let p = mesh.sim.particles();
    for (i, (x, v)) in p.x.iter().zip(&p.v).enumerate() {
        assert!(
            (x.z - 0.31).abs() < 1e-4,
            "particle {i} rests at z = {} (top face + r = 0.31)",
            x.z
        );
        assert!(v.norm() < 1e-2, "particle {i} still moves at {}", v.norm());
    }
}

#[test]
fn a_missing_mesh_file_names_the_field() {
    let dir = common::tmp_dir("mesh-collider-missing");
    let e = build(
        &dir,
        &rope_over("mesh = { path = 'nope.obj', cell = 0.02 }"),
    )
    .unwrap_err();
    assert!(
        matches!(&e, SceneError::Import { field, source: ImportError::Io { .. }, .. }
            if field == "collider[0].shape.mesh.path"),
        "{e}"
    );
}

#[test]
fn an_open_mesh_is_refused_by_field() {
    let dir = common::tmp_dir("mesh-collider-open");
    std::fs::write(
        dir.join("sheet.obj"),
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
    )
    .unwrap();
    let e = build(
        &dir,
        &rope_over("mesh = { path = 'sheet.obj', cell = 0.1 }"),
    )
    .unwrap_err();
    assert!(
        matches!(&e, SceneError::Contact { field, .. } if field == "collider[0].shape.mesh.path"),
        "{e}"
    );
}

#[test]
fn a_grid_too_fine_for_memory_is_refused_by_its_cell() {
    let dir = common::tmp_dir("mesh-collider-fine");
    box_obj(&dir);
    let e = build(&dir, &rope_over("mesh = { path = 'box.obj', cell = 1e-4 }")).unwrap_err();
    assert!(
        matches!(&e, SceneError::InvalidValue { field, value, .. }
            if field == "collider[0].shape.mesh.cell" && value == "0.0001"),
        "{e}"
    );
}

#[test]
fn bad_mesh_collider_numbers_are_refused_by_field() {
    let dir = common::tmp_dir("mesh-collider-numbers");
    box_obj(&dir);
    for (shape, field) in [
        ("mesh = { path = 'box.obj', cell = -0.02 }", "cell"),
        (
            "mesh = { path = 'box.obj', cell = 0.02, scale = 0.0 }",
            "scale",
        ),
        (
            "mesh = { path = 'box.obj', cell = 0.02, padding = nan }",
            "padding",
        ),
    ] {
        let e = build(&dir, &rope_over(shape)).unwrap_err();
        let want = format!("collider[0].shape.mesh.{field}");
        assert!(
            matches!(&e, SceneError::InvalidValue { field: f, .. } if *f == want),
            "{shape}: {e}"
        );
    }
}

/// A checkpoint fingerprints a mesh collider's file like a mesh body's: an edited `box.obj`
/// (here only a comment added) is refused on resume with the collider's path, instead of
/// resuming silently against another shape; the unedited file restores.
#[test]
fn a_checkpoint_refuses_an_edited_collider_mesh() {
    use xpbd_scene::checkpoint::Checkpoint;
    let dir = common::tmp_dir("mesh-collider-ckpt");
    let obj = box_obj(&dir);
    let text = rope_over("mesh = { path = 'box.obj', cell = 0.02 }");
    let mut s = build(&dir, &text).unwrap();
    s.advance_frame().unwrap();
    let c = Checkpoint::capture(&s, &text, &dir.join("scene.toml"));
    let listed: Vec<_> = c.meshes.iter().map(|m| m.path.clone()).collect();
    assert_eq!(listed, std::slice::from_ref(&obj));
    c.restore().unwrap();
    let mut edited = std::fs::read_to_string(&obj).unwrap();
    edited += "# edited\n";
    std::fs::write(&obj, edited).unwrap();
    let e = c.restore().unwrap_err();
    assert!(
        matches!(&e, xpbd_scene::CheckpointError::MeshChanged { mesh, .. } if *mesh == obj),
        "{e}"
    );
}

/// The box of [`box_obj`] with its coordinates multiplied by `factor`, as `name` in `dir`.
fn scaled_box_obj(dir: &Path, name: &str, factor: f64) {
    let text = std::fs::read_to_string(box_obj(dir)).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        match line.strip_prefix("v ") {
            Some(v) => {
                let c: Vec<f64> = v.split(' ').map(|c| c.parse().unwrap()).collect();
                out += &format!(
                    "v {:e} {:e} {:e}\n",
                    c[0] * factor,
                    c[1] * factor,
                    c[2] * factor
                );
            }
            None => out += &format!("{line}\n"),
        }
    }
    std::fs::write(dir.join(name), out).unwrap();
}

/// The field and value of an `InvalidValue`, and its message.
fn invalid(e: &SceneError) -> (String, String, String) {
    match e {
        SceneError::InvalidValue { field, value, .. } => {
            (field.clone(), value.clone(), e.to_string())
        }
        other => panic!("expected InvalidValue, got {other}"),
    }
}

/// A grid too large because of the `padding` or the `scale` is refused by that field: both
/// used to be blamed on the `cell`, which is blamed only when the mesh's own box at scale 1 is
/// too large for it.
#[test]
fn a_grid_too_large_names_the_padding_or_the_scale_that_makes_it() {
    let dir = common::tmp_dir("mesh-collider-grid-blame");
    box_obj(&dir);
    let e = build(
        &dir,
        &rope_over("mesh = { path = 'box.obj', cell = 0.02, padding = 10.0 }"),
    )
    .unwrap_err();
    let (field, value, message) = invalid(&e);
    assert_eq!(
        (field.as_str(), value.as_str()),
        ("collider[0].shape.mesh.padding", "10"),
        "{message}"
    );
    assert!(message.contains("grows the mesh's box"), "{message}");
    let e = build(
        &dir,
        &rope_over("mesh = { path = 'box.obj', cell = 0.02, scale = 100.0 }"),
    )
    .unwrap_err();
    let (field, value, message) = invalid(&e);
    assert_eq!(
        (field.as_str(), value.as_str()),
        ("collider[0].shape.mesh.scale", "100"),
        "{message}"
    );
    assert!(message.contains("enlarges the mesh"), "{message}");
    // The cell alone: still the cell, even with a (harmless) padding given.
    let e = build(
        &dir,
        &rope_over("mesh = { path = 'box.obj', cell = 1e-4, padding = 0.01 }"),
    )
    .unwrap_err();
    assert_eq!(invalid(&e).0, "collider[0].shape.mesh.cell", "{e}");
}

/// A `scale` that takes the mesh's vertices beyond 1e8 m, or its triangles to zero area, is
/// refused by the scale and its value: the first was blamed on the grid's `cell`, the second
/// on the mesh file (`path`: "mesh triangle 0: zero area").
#[test]
fn a_collider_scale_that_breaks_the_mesh_names_the_scale() {
    let dir = common::tmp_dir("mesh-collider-scale");
    box_obj(&dir);
    // 600 m box × 1e6: 6e8 m.
    scaled_box_obj(&dir, "big.obj", 1e3);
    let e = build(
        &dir,
        &rope_over("mesh = { path = 'big.obj', cell = 0.02, scale = 1e6 }"),
    )
    .unwrap_err();
    let (field, value, message) = invalid(&e);
    assert_eq!(
        (field.as_str(), value.as_str()),
        ("collider[0].shape.mesh.scale", "1000000.0"),
        "{message}"
    );
    assert!(message.contains("beyond 1e8 m"), "{message}");
    let e = build(
        &dir,
        &rope_over("mesh = { path = 'box.obj', cell = 0.02, scale = 1e-200 }"),
    )
    .unwrap_err();
    let (field, value, message) = invalid(&e);
    assert_eq!(
        (field.as_str(), value.as_str()),
        ("collider[0].shape.mesh.scale", "1e-200"),
        "{message}"
    );
    assert!(message.contains("zero area"), "{message}");
}
