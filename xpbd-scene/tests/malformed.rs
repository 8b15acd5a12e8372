//! Malformed input gives a typed error naming the place and the value, never a panic.
//! One test per class: syntax/truncation, unknown field, wrong type, NaN / out of range,
//! unknown material, wrong counts, out-of-range indices, non-finite coordinates, bad files.
mod common;

use std::path::Path;

use xpbd_scene::import::{ElementKind, ElementRef, parse_gmsh, parse_obj, parse_ply, parse_tetgen};
use xpbd_scene::{ImportError, SceneDesc, SceneError, build_scene};

const GOOD: &str = "name = 'x'\n[time]\ndt = 0.01\nframes = 2\n\
[materials.steel]\ndensity = 7800.0\n\
[[rope]]\nmaterial = 'steel'\nlinks = 3\nstart = [0, 0, 0]\nend = [1, 0, 0]\nradius = 0.001\n";

fn parse(text: &str) -> Result<SceneDesc, SceneError> {
    SceneDesc::parse(text, Path::new("bad.toml"))
}

#[test]
fn good_scene_parses() {
    parse(GOOD).unwrap();
}

#[test]
fn truncated_scene_names_line_and_column() {
    let cut = &GOOD[..GOOD.find("radius").unwrap() + 8];
    let e = parse(cut).unwrap_err();
    let SceneError::Syntax { line, column, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!((*line, *column), (12, 9), "{e}");
    assert!(e.to_string().starts_with("bad.toml:12:9"), "{e}");
}

#[test]
fn unknown_field_is_rejected_with_its_name_and_line() {
    let e = parse(&GOOD.replace("radius = 0.001", "radius = 0.001\nradios = 2")).unwrap_err();
    let SceneError::Syntax { line, message, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!(*line, 13);
    assert!(message.contains("radios"), "{e}");
}

#[test]
fn wrong_type_names_the_field_path() {
    let e = parse(&GOOD.replace("links = 3", "links = 'three'")).unwrap_err();
    let SceneError::Syntax { field, line, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!(field, "rope[0].links", "{e}");
    assert_eq!(*line, 9);
}

#[test]
fn nan_value_names_field_and_value() {
    let e = parse(&GOOD.replace("density = 7800.0", "density = nan")).unwrap_err();
    let SceneError::InvalidValue { field, value, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!(
        (field.as_str(), value.as_str()),
        ("materials.steel.density", "NaN")
    );
}

#[test]
fn infinite_collider_velocity_names_field_and_value() {
    let text = format!(
        "{GOOD}[[collider]]\nshape = {{ sphere = {{ radius = 0.1 }} }}\nvelocity = [0.0, inf, 0.0]\n\
         [contacts]\nradius = 0.01\n"
    );
    let e = parse(&text).unwrap_err();
    let SceneError::InvalidValue { field, value, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!(field.as_str(), "collider[0].velocity", "{e}");
    assert_eq!(value.as_str(), "[0.0, inf, 0.0]", "{e}");
    assert!(e.to_string().starts_with("bad.toml:15"), "{e}");
}

#[test]
fn out_of_range_count_names_field_and_value() {
    let e = parse(&GOOD.replace("frames = 2", "frames = 0")).unwrap_err();
    let SceneError::InvalidValue { field, value, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!((field.as_str(), value.as_str()), ("time.frames", "0"));
}

#[test]
fn unknown_material_is_named() {
    let s = parse(&GOOD.replace("material = 'steel'", "material = 'stele'")).unwrap();
    let e = build_scene(s, Path::new("bad.toml")).unwrap_err();
    assert!(
        matches!(&e, SceneError::UnknownMaterial { name, .. } if name == "stele"),
        "{e}"
    );
}

#[test]
fn missing_material_parameter_is_named() {
    let text = GOOD.replace(
        "[[rope]]",
        "[[soft_box]]\nmaterial = 'steel'\nsize = [1, 1, 1]\ncells = [1, 1, 1]\n[[rope]]",
    );
    let e = build_scene(parse(&text).unwrap(), Path::new("bad.toml")).unwrap_err();
    let SceneError::InvalidValue { field, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!(field, "soft_box[0].material.youngs");
}

#[test]
fn missing_mesh_file_is_an_import_error() {
    let text = GOOD.replace(
        "[[rope]]",
        "[[mesh]]\nmaterial = 'steel'\npath = 'nope.obj'\nkind = 'cloth'\n[[rope]]",
    );
    let e = build_scene(parse(&text).unwrap(), Path::new("bad.toml")).unwrap_err();
    assert!(
        matches!(
            &e,
            SceneError::Import {
                source: ImportError::Io { .. },
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn mesh_with_coincident_vertices_is_refused_at_import() {
    // Two coincident vertices: a zero-area triangle, whose corners would get no mass. The
    // importer refuses it (it reached the core's zero-length-edge check before).
    let dir = common::tmp_dir("degenerate");
    std::fs::write(dir.join("d.obj"), "v 0 0 0\nv 0 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    std::fs::write(dir.join("d.toml"), format!("{GOOD}[materials.cotton]\ndensity = 1.0\nthickness = 0.001\nyoungs = 1e6\n[[mesh]]\nmaterial = 'cotton'\npath = 'd.obj'\nkind = 'cloth'\n")).unwrap();
    let e = xpbd_scene::BuiltScene::load(&dir.join("d.toml")).unwrap_err();
    assert!(
        matches!(&e, SceneError::Import { field, source: ImportError::Degenerate { .. }, .. }
            if field == "mesh[0].path"),
        "{e}"
    );
}

#[test]
fn colliders_without_contacts_table_are_rejected() {
    let text = format!("{GOOD}[[collider]]\nshape = {{ sphere = {{ radius = 0.1 }} }}\n");
    let e = parse(&text).unwrap_err();
    assert!(
        matches!(&e, SceneError::InvalidValue { field, .. } if field == "contacts"),
        "{e}"
    );
}

#[test]
fn missing_scene_file_is_an_io_error() {
    let e = SceneDesc::load(Path::new("/nonexistent/scene.toml")).unwrap_err();
    assert!(matches!(e, SceneError::Io { .. }), "{e}");
}

// ---- importers ----

const PLY_HEAD: &str = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n";

#[test]
fn truncated_ply_is_malformed() {
    let e = parse_ply(format!("{PLY_HEAD}0 0 0\n1 0 0\n").as_bytes(), "t.ply").unwrap_err();
    assert!(
        matches!(e, ImportError::Malformed { format: "ply", .. }),
        "{e}"
    );
}

#[test]
fn ply_with_out_of_range_index_names_element() {
    let e = parse_ply(
        format!("{PLY_HEAD}0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n").as_bytes(),
        "t.ply",
    )
    .unwrap_err();
    assert_eq!(
        e,
        ImportError::IndexOutOfRange {
            file: "t.ply".into(),
            element: ElementRef::new(ElementKind::Triangle, 0).at_line(13),
            index: 7,
            count: 3
        }
    );
}

#[test]
fn ply_with_nan_coordinate_names_vertex() {
    // Binary PLY (ASCII PLY cannot spell NaN in ply-rs's grammar).
    let mut bytes = PLY_HEAD
        .replace("format ascii 1.0", "format binary_little_endian 1.0")
        .into_bytes();
    let coords = [0.0f32, 0.0, 0.0, 1.0, f32::NAN, 0.0, 0.0, 1.0, 0.0];
    coords.iter().for_each(|c| bytes.extend(c.to_le_bytes()));
    bytes.push(3);
    [0i32, 1, 2]
        .iter()
        .for_each(|i| bytes.extend(i.to_le_bytes()));
    let e = parse_ply(&bytes, "t.ply").unwrap_err();
    assert!(matches!(e, ImportError::NonFinite { vertex: 1, .. }), "{e}");
}

#[test]
fn ply_with_quad_is_wrong_arity() {
    let text = PLY_HEAD.replace("vertex 3", "vertex 4");
    let e = parse_ply(
        format!("{text}0 0 0\n1 0 0\n0 1 0\n1 1 0\n4 0 1 3 2\n").as_bytes(),
        "t.ply",
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            ImportError::WrongArity {
                count: 4,
                expected: 3,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn ply_without_z_is_missing_property() {
    let text = PLY_HEAD.replace("property float z\n", "");
    let e = parse_ply(
        format!("{text}0 0\n1 0\n0 1\n3 0 1 2\n").as_bytes(),
        "t.ply",
    )
    .unwrap_err();
    assert!(matches!(e, ImportError::Missing { .. }), "{e}");
}

#[test]
fn obj_with_out_of_range_face_is_typed() {
    let e = parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n", "t.obj").unwrap_err();
    assert!(
        matches!(
            e,
            ImportError::Malformed { .. } | ImportError::IndexOutOfRange { .. }
        ),
        "{e}"
    );
}

#[test]
fn obj_with_nan_is_typed() {
    let e = parse_obj(b"v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n", "t.obj").unwrap_err();
    assert!(
        matches!(
            e,
            ImportError::NonFinite { .. } | ImportError::Malformed { .. }
        ),
        "{e}"
    );
}

#[test]
fn tetgen_with_wrong_count_is_malformed() {
    // Header promises 5 nodes, file has 4.
    let e = parse_tetgen(
        "5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n",
        "1 4 0\n1 1 2 3 4\n",
        "t.node",
    )
    .unwrap_err();
    assert!(
        matches!(&e, ImportError::Syntax { file, .. } if file == "t.node"),
        "{e}"
    );
}

#[test]
fn tetgen_with_out_of_range_index_names_element() {
    let e = parse_tetgen(
        "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n",
        "1 4 0\n1 1 2 3 9\n",
        "t.node",
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            ImportError::IndexOutOfRange {
                element: ElementRef { index: 0, .. },
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn truncated_gmsh_is_malformed() {
    let text = include_str!("data/tet.msh");
    let e = parse_gmsh(&text.as_bytes()[..text.len() / 2], "t.msh").unwrap_err();
    assert!(
        matches!(e, ImportError::Malformed { format: "gmsh", .. }),
        "{e}"
    );
}

#[test]
fn gmsh_with_unknown_node_tag_names_element() {
    let text = include_str!("data/tet.msh").replace("2 1 2 3 4", "2 1 2 3 99");
    let e = parse_gmsh(text.as_bytes(), "t.msh").unwrap_err();
    assert!(
        matches!(
            e,
            ImportError::IndexOutOfRange { index: 99, .. } | ImportError::Malformed { .. }
        ),
        "{e}"
    );
}

#[test]
fn unsupported_extension_is_typed() {
    let e = xpbd_scene::import::import_mesh(Path::new("mesh.stl")).unwrap_err();
    assert!(matches!(e, ImportError::UnsupportedFormat { .. }), "{e}");
}

#[test]
fn unwritable_frame_is_an_export_error() {
    let s = build_scene(parse(GOOD).unwrap(), Path::new("bad.toml")).unwrap();
    let e = xpbd_scene::export::write_vtk(
        Path::new("/nonexistent/dir/f.vtk"),
        "x",
        &s.topology,
        s.sim.particles(),
        &Default::default(),
    )
    .unwrap_err();
    assert!(matches!(e, xpbd_scene::ExportError::Io { .. }), "{e}");
}

#[test]
fn run_into_a_file_instead_of_a_folder_is_a_run_error() {
    let mut s = build_scene(parse(GOOD).unwrap(), Path::new("bad.toml")).unwrap();
    let dir = common::tmp_dir("run-into-file");
    let file = dir.join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let e = xpbd_scene::runner::run(&mut s, &file, |_| {}).unwrap_err();
    assert!(matches!(e, xpbd_scene::RunError::Export(_)), "{e}");
}
