//! Importer rules shared by every format: empty meshes, degenerate elements and inverted
//! tetrahedra are refused with the file, element and line; OBJ/TetGen/Gmsh 2.2 errors name
//! their line; mesh bodies refuse massless vertices; contained parser panics print nothing.
mod common;

use std::path::Path;

use xpbd_scene::import::{
    ElementKind, ElementRef, ImportedMesh, parse_gmsh, parse_obj, parse_ply, parse_tetgen,
};
use xpbd_scene::{ImportError, SceneError};

const PLY_HEAD: &str = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n";

const NODE: &str = "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n";

/// MSH 2.2 with one tetrahedron `tet` (node tags 1..4 at the corners of the unit tet) and one
/// triangle; the tet is on line 18.
fn msh22(tet: &str) -> String {
    format!(
        "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n1\n3 1 \"body\"\n$EndPhysicalNames\n\
         $Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n\
         $Elements\n3\n1 15 2 0 1 1\n2 4 2 1 1 {tet}\n3 2 2 0 1 1 2 3\n$EndElements\n"
    )
}

/// MSH 4.1 with one tetrahedron `tet` and one triangle.
fn msh41(tet: &str) -> String {
    format!(
        "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n\
         $Nodes\n1 4 1 4\n3 1 0 4\n1\n2\n3\n4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n\
         $Elements\n2 2 1 2\n2 1 2 1\n1 1 2 3\n3 1 4 1\n2 {tet}\n$EndElements\n"
    )
}

#[test]
fn empty_meshes_are_refused_by_every_importer() {
    let cases: Vec<(&str, Result<ImportedMesh, ImportError>)> = vec![
        ("empty obj", parse_obj(b"", "e.obj")),
        ("obj without faces", parse_obj(b"v 0 0 0\nv 1 0 0\n", "e.obj")),
        (
            "ply without vertices",
            parse_ply(
                PLY_HEAD
                    .replace("vertex 3", "vertex 0")
                    .replace("face 1", "face 0")
                    .as_bytes(),
                "e.ply",
            ),
        ),
        ("tetgen without points", parse_tetgen("0 3 0 0\n", "0 4 0\n", "e.node")),
        ("tetgen without tets", parse_tetgen(NODE, "0 4 0\n", "e.node")),
        (
            "msh 2.2 without elements",
            parse_gmsh(
                b"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n",
                "e.msh",
            ),
        ),
        (
            "msh 4.1 without elements",
            parse_gmsh(
                b"$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 1 1 1\n0 1 0 1\n1\n0 0 0\n$EndNodes\n",
                "e.msh",
            ),
        ),
    ];
    for (what, r) in cases {
        let e = r.expect_err(what);
        assert!(matches!(e, ImportError::Empty { .. }), "{what}: {e}");
        assert!(e.to_string().starts_with('e'), "{what}: {e} names no file");
    }
    // The TetGen pair: no tetrahedra is the `.ele`'s fault.
    let e = parse_tetgen(NODE, "0 4 0\n", "e.node").unwrap_err();
    assert_eq!(
        e.to_string(),
        "e.ele: the mesh has no triangles or tetrahedra"
    );
}

#[test]
fn zero_area_triangle_is_refused_with_its_index_and_line() {
    let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 0 0\n# a flat one\nf 1 2 3\nf 1 2 4\n";
    let e = parse_obj(obj.as_bytes(), "flat.obj").unwrap_err();
    let ImportError::Degenerate {
        element, measure, ..
    } = &e
    else {
        panic!("{e}")
    };
    assert_eq!(
        *element,
        ElementRef::new(ElementKind::Triangle, 1).at_line(7)
    );
    assert_eq!(*measure, 0.0);
    assert!(
        e.to_string()
            .starts_with("flat.obj: triangle 1 (line 7) is degenerate: area 0e0"),
        "{e}"
    );
    // PLY: the same rule, with the line of the face.
    let text = PLY_HEAD
        .replace("face 1", "face 2")
        .replace("vertex 3", "vertex 4");
    let ply = format!("{text}0 0 0\n1 0 0\n0 1 0\n2 0 0\n3 0 1 2\n3 0 1 3\n");
    let e = parse_ply(ply.as_bytes(), "flat.ply").unwrap_err();
    assert!(
        matches!(e, ImportError::Degenerate { element, .. }
            if element == ElementRef::new(ElementKind::Triangle, 1).at_line(15)),
        "{e}"
    );
}

#[test]
fn tiny_triangle_relative_to_the_mesh_is_degenerate() {
    // Well shaped, but 1e-14 of the other triangle's area: its corners would be ~massless.
    let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 5 5 5\nv 5.0000001 5 5\nv 5 5.0000001 5\n\
               f 1 2 3\nf 4 5 6\n";
    let e = parse_obj(obj.as_bytes(), "tiny.obj").unwrap_err();
    assert!(
        matches!(e, ImportError::Degenerate { element, .. } if element.index == 1),
        "{e}"
    );
}

#[test]
fn repeated_vertex_in_an_element_is_refused() {
    let e = parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 2\n", "r.obj").unwrap_err();
    assert!(
        matches!(e, ImportError::RepeatedVertex { vertex: 1, .. }),
        "{e}"
    );
    let e = parse_tetgen(NODE, "1 4 0\n1 1 2 3 3\n", "r.node").unwrap_err();
    assert_eq!(
        e.to_string(),
        "r.ele: tetrahedron 0 (line 2) repeats vertex 2"
    );
}

#[test]
fn zero_volume_tet_is_refused_by_tetgen_and_gmsh() {
    let flat_node = "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n";
    let e = parse_tetgen(flat_node, "1 4 0\n1 1 2 3 4\n", "f.node").unwrap_err();
    assert!(
        matches!(&e, ImportError::Degenerate { file, element, .. }
            if file == "f.ele" && element.line() == Some(2)),
        "{e}"
    );
    let msh = msh22("1 2 3 4").replace("4 0 0 1\n$EndNodes", "4 1 1 0\n$EndNodes");
    let e = parse_gmsh(msh.as_bytes(), "f.msh").unwrap_err();
    assert!(
        matches!(e, ImportError::Degenerate { element, .. }
            if element == ElementRef::new(ElementKind::Tet, 0).at_line(18)),
        "{e}"
    );
}

/// One rule for every tet source: the same inverted tet (corners 2 and 3 swapped) is refused
/// by TetGen, Gmsh 2.2 and Gmsh 4.1, never flipped.
#[test]
fn inverted_tet_is_refused_alike_by_every_tet_importer() {
    let tetgen = parse_tetgen(NODE, "1 4 0\n1 1 3 2 4\n", "i.node");
    let gmsh22 = parse_gmsh(msh22("1 3 2 4").as_bytes(), "i.msh");
    let gmsh41 = parse_gmsh(msh41("1 3 2 4").as_bytes(), "i.msh");
    for (what, r) in [
        ("tetgen", tetgen),
        ("gmsh 2.2", gmsh22),
        ("gmsh 4.1", gmsh41),
    ] {
        let e = r.expect_err(what);
        let ImportError::Inverted {
            element, volume, ..
        } = &e
        else {
            panic!("{what}: {e}")
        };
        assert_eq!(
            (element.kind, element.index),
            (ElementKind::Tet, 0),
            "{what}"
        );
        assert!((volume + 1.0 / 6.0).abs() < 1e-15, "{what}: {volume}");
    }
    // And the positively listed tet is read by all three.
    assert!(parse_tetgen(NODE, "1 4 0\n1 1 2 3 4\n", "i.node").is_ok());
    assert!(parse_gmsh(msh22("1 2 3 4").as_bytes(), "i.msh").is_ok());
    assert!(parse_gmsh(msh41("1 2 3 4").as_bytes(), "i.msh").is_ok());
}

#[test]
fn gmsh_22_reads_the_same_mesh_as_41() {
    let a = parse_gmsh(msh22("1 2 3 4").as_bytes(), "a.msh").unwrap();
    let b = parse_gmsh(msh41("1 2 3 4").as_bytes(), "b.msh").unwrap();
    assert_eq!(
        (&a.vertices, &a.triangles, &a.tets),
        (&b.vertices, &b.triangles, &b.tets)
    );
    assert_eq!((a.tet_lines, a.triangle_lines), (vec![18], vec![19]));
}

#[test]
fn gmsh_22_errors_name_the_line() {
    let e = parse_gmsh(msh22("1 2 3 x").as_bytes(), "b.msh").unwrap_err();
    assert!(e.to_string().starts_with("b.msh:18: node tag `x`"), "{e}");
    let e = parse_gmsh(msh22("1 2 3 9").as_bytes(), "b.msh").unwrap_err();
    assert_eq!(
        e.to_string(),
        "b.msh: tetrahedron 0 (line 18) refers to vertex 9, but there are 4 vertices"
    );
    let binary = msh22("1 2 3 4").replace("2.2 0 8", "2.2 1 8");
    let e = parse_gmsh(binary.as_bytes(), "b.msh").unwrap_err();
    assert!(
        e.to_string().starts_with("b.msh:2: MSH 2.2 file type `1`"),
        "{e}"
    );
    // A quadrangle would be silently dropped: refused instead, in both versions.
    let quad = msh22("1 2 3 4").replace("3 2 2 0 1 1 2 3", "3 3 2 0 1 1 2 3 4");
    let e = parse_gmsh(quad.as_bytes(), "b.msh").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("b.msh:19: element type 3 is not supported"),
        "{e}"
    );
}

#[test]
fn obj_errors_name_the_line_and_the_face() {
    let e = parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 9\n", "o.obj").unwrap_err();
    assert_eq!(
        e.to_string(),
        "o.obj: triangle 1 (line 5) refers to vertex 9, but there are 3 vertices"
    );
    let e = parse_obj(b"v 0 0 0\nv 1 x 0\n", "o.obj").unwrap_err();
    assert_eq!(
        e.to_string(),
        "o.obj:2: vertex y coordinate `x` is not a number"
    );
    let e = parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", "o.obj").unwrap_err();
    assert!(
        e.to_string().contains("(line 4) refers to vertex -4"),
        "{e}"
    );
    let e = parse_obj(b"v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n", "o.obj").unwrap_err();
    assert_eq!(
        e.to_string(),
        "o.obj:2: vertex 1 has a non-finite coordinate NaN"
    );
    // Polygons are fans; relative indices and `i/t/n` corners are read.
    let m = parse_obj(
        b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf -4/1/1 -3//1 -2 -1\n",
        "q.obj",
    )
    .unwrap();
    assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3]]);
}

#[test]
fn tetgen_errors_name_the_file_they_are_about() {
    let e = parse_tetgen(NODE, "1 5 0\n1 1 2 3 4\n", "m/t.node").unwrap_err();
    assert_eq!(
        e.to_string(),
        "m/t.ele:1: 5 nodes per tetrahedron, expected 4 or 10"
    );
    let e = parse_tetgen("4 2 0 0\n", "1 4 0\n", "m/t.node").unwrap_err();
    assert_eq!(e.to_string(), "m/t.node:1: dimension 2, expected 3");
    let e = parse_tetgen(NODE, "1 4 0\n1 1 x 3 4\n", "m/t.node").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("m/t.ele:2: cannot parse node index"),
        "{e}"
    );
}

#[test]
fn tetgen_zero_based_with_comments_and_attributes() {
    let node = "# two tets sharing a face\n5 3 0 1\n0 0 0 0 1\n1 1 0 0 1\n2 0 1 0 1\n3 0 0 1 1\n4 1 1 1 0\n";
    let ele = "2 4 1\n0 0 1 2 3 7\n1 1 2 3 4 7 # region 7\n";
    let m = parse_tetgen(node, ele, "t.node").unwrap();
    assert_eq!(m.tets, vec![[0, 1, 2, 3], [1, 2, 3, 4]]);
    assert_eq!(m.tet_lines, vec![2, 3]);
    // A header count larger than the file is an error, not a huge reservation.
    let e = parse_tetgen("10000000000000 3 0 0\n0 0 0 0\n", ele, "t.node").unwrap_err();
    assert!(matches!(e, ImportError::Syntax { .. }), "{e}");
}

/// A `[[mesh]]` body refuses a file without the elements its kind needs and a vertex that
/// belongs to none of them (it would be a massless, silently pinned particle).
#[test]
fn mesh_bodies_refuse_massless_vertices() {
    let dir = common::tmp_dir("mesh-bodies");
    let scene = |path: &str, kind: &str| {
        format!(
            "name = 'm'\n[time]\ndt = 0.01\nframes = 1\n[materials.m]\ndensity = 1000.0\n\
             youngs = 1e5\n{sheet}[[mesh]]\nmaterial = 'm'\npath = '{path}'\nkind = '{kind}'\n",
            sheet = if kind == "cloth" {
                "thickness = 0.001\n"
            } else {
                ""
            }
        )
    };
    let load = |name: &str, text: String| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        xpbd_scene::BuiltScene::load(&p).unwrap_err()
    };
    std::fs::write(
        dir.join("tri.obj"),
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 9 9 9\nf 1 2 3\n",
    )
    .unwrap();
    std::fs::write(dir.join("t.node"), NODE).unwrap();
    std::fs::write(dir.join("t.ele"), "1 4 0\n1 1 2 3 4\n").unwrap();
    let cases = [
        (
            "a.toml",
            scene("tri.obj", "cloth"),
            "vertex 3 belongs to no triangle",
        ),
        (
            "b.toml",
            scene("tri.obj", "soft"),
            "the mesh has no tetrahedra",
        ),
        (
            "c.toml",
            scene("t.node", "cloth"),
            "the mesh has no triangles",
        ),
    ];
    for (name, text, expected) in cases {
        let e = load(name, text);
        let SceneError::Import { source, .. } = &e else {
            panic!("{name}: {e}")
        };
        let message = source.to_string();
        assert!(message.contains(expected), "{name}: {message}");
        assert!(
            message.starts_with(&dir.display().to_string()),
            "{name}: {message}"
        );
    }
}

/// ply-rs panics on this header (fuzz regression); the panic is contained and nothing of it
/// reaches stderr. Run in a child process (this test binary, filtered to the `child_…` test
/// below) so stderr can be read.
#[test]
fn contained_parser_panic_prints_nothing() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_parses_the_panicking_ply",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("XPBD_IMPORT_CHILD", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "child failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("typed: "), "child did not run:\n{stdout}");
    assert!(
        !stderr.contains("panicked"),
        "panic text on stderr:\n{stderr}"
    );
    assert!(
        !stdout.contains("panicked at"),
        "panic text on stdout:\n{stdout}"
    );
}

/// The child half of [`contained_parser_panic_prints_nothing`] (does nothing otherwise).
#[test]
fn child_parses_the_panicking_ply() {
    if std::env::var_os("XPBD_IMPORT_CHILD").is_none() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/import_ply");
    // The libFuzzer crash inputs (`crash-*`) are the ones that make ply-rs panic.
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if !path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("crash-")
        {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let e = parse_ply(&bytes, "crash.ply").unwrap_err();
        assert!(e.to_string().contains("parser panicked"), "{e}");
        println!("typed: {e}");
    }
    // A panic outside the guard still reaches the previous hook (and stderr) as before.
}

/// A PLY header whose elements cannot fit in the bytes after it is refused before the parser
/// allocates for them (an element with 4·10⁹ entries and no property made ply-rs allocate
/// until the process was killed).
#[test]
fn ply_header_larger_than_its_payload_is_refused_before_allocating() {
    let empty = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n\
                 property float z\nelement junk 4294967295\nend_header\n0 0 0\n1 0 0\n0 1 0\n";
    let e = xpbd_scene::import::parse_ply(empty.as_bytes(), "e.ply").unwrap_err();
    assert!(e.to_string().contains("no property"), "{e}");
    let binary = "ply\nformat binary_little_endian 1.0\nelement vertex 1000000000\n\
                  property float x\nproperty float y\nproperty float z\nend_header\n";
    let mut bytes = binary.as_bytes().to_vec();
    bytes.extend_from_slice(&[0u8; 24]);
    let e = xpbd_scene::import::parse_ply(&bytes, "b.ply").unwrap_err();
    assert!(e.to_string().contains("more than the 24 bytes"), "{e}");
}

/// A `[[mesh]]` body's `scale` that takes its vertices beyond 1e8 m (1e300: triangle areas
/// overflow) or its elements to zero size (1e-200: areas and volumes underflow) is refused by
/// the scale and its value before anything is built; the cloth used to be refused by
/// xpbd-core as "invalid material parameter area = inf".
#[test]
fn a_mesh_scale_that_breaks_the_mesh_names_the_scale() {
    let dir = common::tmp_dir("mesh-scale");
    std::fs::write(
        dir.join("sheet.obj"),
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n",
    )
    .unwrap();
    std::fs::write(dir.join("t.node"), NODE).unwrap();
    std::fs::write(dir.join("t.ele"), "1 4 0\n1 1 2 3 4\n").unwrap();
    for (path, kind, scale, reason) in [
        ("sheet.obj", "cloth", "1e300", "beyond 1e8 m"),
        ("sheet.obj", "cloth", "1e-200", "zero area"),
        ("t.node", "soft", "1e300", "beyond 1e8 m"),
        ("t.node", "soft", "1e-110", "zero area or volume"),
    ] {
        let text = format!(
            "name = 'm'\n[time]\ndt = 0.01\nframes = 1\n[materials.m]\ndensity = 1000.0\n\
             youngs = 1e5\n{sheet}[[mesh]]\nmaterial = 'm'\npath = '{path}'\n\
             kind = '{kind}'\nscale = {scale}\n",
            sheet = if kind == "cloth" {
                "thickness = 0.001\n"
            } else {
                ""
            }
        );
        let p = dir.join("s.toml");
        std::fs::write(&p, text).unwrap();
        let e = xpbd_scene::BuiltScene::load(&p).unwrap_err();
        assert!(
            matches!(&e, SceneError::InvalidValue { field, value, .. }
                if field == "mesh[0].scale" && value == scale),
            "{path} × {scale}: {e}"
        );
        let message = e.to_string();
        assert!(
            message.contains(reason) && !message.contains("= inf"),
            "{message}"
        );
    }
}
