//! Export then import gives the same particles and cells, within each format's precision.
mod common;

use xpbd_scene::BuiltScene;
use xpbd_scene::export::{obj_text, ply_bytes, read_vtk, read_vtk_data, write_vtk};
use xpbd_scene::import::{parse_gmsh, parse_obj, parse_tetgen, read_ply};

/// A deformed, moving state: the soft beam after a few frames (tets, boundary faces, velocities).
fn moving_beam() -> BuiltScene {
    let mut s = BuiltScene::load(&common::scenes_dir().join("soft_tet_beam.toml")).unwrap();
    for _ in 0..3 {
        s.advance_frame().unwrap();
    }
    assert!(s.sim.particles().v.iter().any(|v| v.norm() > 1e-3));
    s
}

#[test]
fn vtk_round_trip_is_bit_exact() {
    let s = moving_beam();
    let dir = common::tmp_dir("vtk");
    let path = dir.join("f.vtk");
    write_vtk(
        &path,
        "beam",
        &s.topology,
        s.sim.particles(),
        &Default::default(),
    )
    .unwrap();
    let m = read_vtk(&std::fs::read(&path).unwrap(), "f.vtk").unwrap();
    let p = s.sim.particles();
    // Binary legacy VTK stores f64 big-endian: the same bits come back.
    assert_eq!(m.vertices, p.x);
    assert_eq!(m.velocities, p.v);
    assert_eq!(m.tets, s.topology.tets);
}

#[test]
fn ply_round_trip_is_bit_exact_with_surface_faces() {
    let s = moving_beam();
    let tris = s.topology.surface_triangles();
    // A 20×2×2 box has 2·(20·2 + 20·2 + 2·2)·2 = 336 boundary triangles.
    assert_eq!(tris.len(), 336);
    let bytes = ply_bytes(&tris, s.sim.particles()).unwrap();
    let m = read_ply(&bytes, "f.ply").unwrap();
    assert_eq!(m.vertices, s.sim.particles().x);
    assert_eq!(m.velocities, s.sim.particles().v);
    assert_eq!(m.triangles, tris);
}

/// The OBJ reader keeps f64 positions and the file's vertex order (tobj stored f32 and
/// re-indexed vertices by first use), so an OBJ frame reads back bit for bit.
#[test]
fn obj_round_trip_is_bit_exact() {
    let s = moving_beam();
    let tris = s.topology.surface_triangles();
    let m = parse_obj(obj_text(&tris, s.sim.particles()).as_bytes(), "f.obj").unwrap();
    assert_eq!(m.vertices, s.sim.particles().x);
    assert_eq!(m.triangles, tris);
}

#[test]
fn tetgen_import_reads_nodes_and_tets() {
    let node = "5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 1 1\n";
    let ele = "2 4 0\n1 1 2 3 4\n2 2 5 3 4\n";
    let m = parse_tetgen(node, ele, "t.node").unwrap();
    assert_eq!(m.vertices.len(), 5);
    assert_eq!(m.tets, vec![[0, 1, 2, 3], [1, 4, 2, 3]]);
}

pub const GMSH_41: &str = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n\
$Nodes\n1 4 1 4\n3 1 0 4\n1\n2\n3\n4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n\
$Elements\n2 2 1 2\n2 1 2 1\n1 1 2 3\n3 1 4 1\n2 1 2 3 4\n$EndElements\n";

#[test]
fn gmsh_import_maps_tags_to_indices() {
    let m = parse_gmsh(GMSH_41.as_bytes(), "t.msh").unwrap();
    assert_eq!(m.vertices.len(), 4);
    assert_eq!(m.vertices[3], xpbd_core::Vector::<3>::new(0.0, 0.0, 1.0));
    assert_eq!(m.triangles, vec![[0, 1, 2]]);
    assert_eq!(m.tets, vec![[0, 1, 2, 3]]);
}

#[test]
fn every_frame_format_is_written_and_readable() {
    let mut s = BuiltScene::load(&common::scenes_dir().join("hanging_chain.toml")).unwrap();
    s.scene.time.frames = 4;
    s.scene.output.formats = vec![
        xpbd_scene::scene::Format::Vtk,
        xpbd_scene::scene::Format::Ply,
        xpbd_scene::scene::Format::Obj,
    ];
    let dir = common::tmp_dir("run");
    let files = xpbd_scene::runner::run(&mut s, &dir, |_| {}).unwrap();
    // Frames 0, 2, 4 (every = 2) in three formats.
    assert_eq!(files, 9);
    let last = read_vtk(&std::fs::read(dir.join("frame_00004.vtk")).unwrap(), "f").unwrap();
    assert_eq!(last.vertices, s.sim.particles().x);
}

/// The frames `cargo xtask run` writes for an XPBI scene carry, per particle, the velocity, det F,
/// hardening, volume correction, λ and material id, and read back bit for bit. The sand column
/// is collapsing by then (some particles have yielded), so the fields are not trivial.
#[test]
fn vtk_frame_of_an_xpbi_scene_carries_the_continuum_fields_bit_exactly() {
    let (text, path) = common::shortened("sand_column_2d.toml", 3);
    let text = text.replace("steps_per_frame = 100", "steps_per_frame = 10");
    let mut s = xpbd_scene::build_scene(xpbd_scene::SceneDesc::parse(&text, &path).unwrap(), &path)
        .unwrap();
    for _ in 0..3 {
        s.advance_frame().unwrap();
    }
    let dir = common::tmp_dir("vtk-xpbi");
    let written = xpbd_scene::runner::write_frame(&s, &dir).unwrap();
    let bytes = std::fs::read(&written[0]).unwrap();
    let data = read_vtk_data(&bytes, "f.vtk").unwrap();
    let p = s.sim.particles();
    let block = s.sim.block(s.continua[0].handle);
    let kind = &block.kind;
    let members: Vec<usize> = kind.members().iter().map(|&m| m as usize).collect();
    assert_eq!(members, (0..p.len()).collect::<Vec<_>>());
    let v: Vec<f64> = p.v.iter().flat_map(|v| [v.x, v.y, v.z]).collect();
    assert_eq!(data.point["velocity"], v);
    let det: Vec<f64> = kind
        .deformation_gradients()
        .iter()
        .map(|f| f.determinant())
        .collect();
    assert_eq!(data.point["det_F"], det);
    let q: Vec<f64> = kind.plastic_states().iter().map(|s| s.hardening).collect();
    assert_eq!(data.point["hardening"], q);
    assert!(q.iter().any(|&q| q > 0.0), "no particle has yielded");
    assert!(det.iter().any(|&d| (d - 1.0).abs() > 1e-4));
    let vc: Vec<f64> = kind
        .plastic_states()
        .iter()
        .map(|s| s.volume_correction)
        .collect();
    assert_eq!(data.point["volume_correction"], vc);
    let lambda = xpbd_core::constraint::ConstraintSet::multipliers(block);
    assert_eq!(data.point["lambda"], lambda);
    assert!(lambda.iter().any(|&l| l != 0.0));
    assert!(data.point["material_id"].iter().all(|&m| m == 0.0));
    // Positions through the mesh reader: bit-exact too; every particle is a VTK vertex cell.
    let m = read_vtk(&bytes, "f.vtk").unwrap();
    assert_eq!(m.vertices, p.x);
    assert_eq!(data.cell["material_id"].len(), p.len());
}

/// Meshes keep their per-element data: the soft beam's tets carry det F = V/V₀ and the
/// material id as cell data; XPBD-only scenes write no continuum point fields.
#[test]
fn vtk_mesh_cells_keep_their_stretch_ratio() {
    let s = moving_beam();
    let dir = common::tmp_dir("vtk-cells");
    let written = xpbd_scene::runner::write_frame(&s, &dir).unwrap();
    let vtk = written
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "vtk"))
        .unwrap();
    let data = read_vtk_data(&std::fs::read(vtk).unwrap(), "f.vtk").unwrap();
    let ratios = s.topology.stretch_ratios(&s.sim.particles().x);
    assert_eq!(data.cell["stretch_ratio"], ratios);
    assert_eq!(ratios.len(), s.topology.tets.len());
    // The beam sags, so some tet has changed volume.
    assert!(ratios.iter().any(|r| (r - 1.0).abs() > 1e-6));
    assert!(!data.point.contains_key("det_F") && data.point.contains_key("inv_mass"));
}

/// Two runs into one output folder: while the first holds the folder, the second is refused
/// with the folder and the lock named, and nothing of the first run's is touched; when the
/// first ends the lock file is gone and the folder can be reused. (Both runs used to write,
/// and the first run's frames and record were lost.)
#[test]
fn a_second_run_into_a_folder_in_use_is_refused() {
    let dir = common::tmp_dir("run-lock");
    let mut s = BuiltScene::load(&common::scenes_dir().join("hanging_chain.toml")).unwrap();
    s.scene.time.frames = 2;
    let held = xpbd_scene::runner::OutputLock::acquire(&dir).unwrap();
    std::fs::write(dir.join("frame_00000.vtk"), "the first run's frame").unwrap();
    let e = xpbd_scene::runner::run(&mut s, &dir, |_| {}).unwrap_err();
    assert!(
        matches!(&e, xpbd_scene::RunError::FolderInUse { dir: d, .. } if *d == dir),
        "{e}"
    );
    assert!(e.to_string().contains("in use by another run"), "{e}");
    assert_eq!(s.frame, 0, "nothing was stepped");
    assert_eq!(
        std::fs::read_to_string(dir.join("frame_00000.vtk")).unwrap(),
        "the first run's frame"
    );
    drop(held);
    assert!(
        !dir.join(".run.lock").exists(),
        "the lock file goes with its run"
    );
    xpbd_scene::runner::run(&mut s, &dir, |_| {}).unwrap();
    assert!(!dir.join(".run.lock").exists());
}

/// A VTK frame cut short (a run killed while the file was written elsewhere, a full disk) is
/// refused, naming the file and where its bytes stop making sense: vtkio dropped the bytes it
/// could not read, and its point and cell data are optional, so a frame cut in half inside its
/// POINT_DATA read as a frame without them and played in the viewer. A cut exactly between two
/// sections or arrays is refused by the array counts the title line declares.
#[test]
fn a_vtk_frame_cut_short_is_refused_by_name() {
    let text = "name = 'r'\n[time]\ndt = 0.01\nframes = 1\n\
                [materials.steel]\ndensity = 7850.0\nyoungs = 2e11\n\
                [[rope]]\nmaterial = 'steel'\nlinks = 4\nstart = [0.0, 0.0, 1.0]\n\
                end = [1.0, 0.0, 1.0]\nradius = 0.001\npin_start = true\n";
    let path = std::path::Path::new("r.toml");
    let s =
        xpbd_scene::build_scene(xpbd_scene::SceneDesc::parse(text, path).unwrap(), path).unwrap();
    let dir = common::tmp_dir("vtk-cut");
    let file = dir.join("f.vtk");
    write_vtk(
        &file,
        "r",
        &s.topology,
        s.sim.particles(),
        &Default::default(),
    )
    .unwrap();
    let bytes = std::fs::read(&file).unwrap();
    read_vtk(&bytes, "f.vtk").unwrap();
    let half = &bytes[..bytes.len() / 2];
    for e in [
        read_vtk(half, "cut/f.vtk").unwrap_err(),
        read_vtk_data(half, "cut/f.vtk").unwrap_err(),
    ] {
        let message = e.to_string();
        assert!(
            matches!(e, xpbd_scene::ImportError::Malformed { .. })
                && message.starts_with("cut/f.vtk: malformed vtk file: the file is cut short")
                && message.contains("POINT_DATA"),
            "{message}"
        );
    }
    // Every cut fails, including one exactly between two sections or arrays (a valid VTK file
    // on its own): the title line declares how many arrays follow. Only the whole file, or the
    // whole file without trailing whitespace, reads.
    for k in 0..bytes.len() {
        let whole = bytes[k..].iter().all(|b| b.is_ascii_whitespace());
        let read = read_vtk_data(&bytes[..k], "f.vtk");
        assert!(
            read.is_err() || whole,
            "cut at byte {k} of {} read without an error",
            bytes.len()
        );
    }
    let at_section = (0..bytes.len())
        .find(|&k| bytes[k..].starts_with(b"CELL_DATA") || bytes[k..].starts_with(b"POINT_DATA"))
        .unwrap();
    let e = read_vtk_data(&bytes[..at_section], "cut/f.vtk").unwrap_err();
    assert!(e.to_string().contains("declares"), "{e}");
}

/// A run killed (`kill -9`) between writing a frame's or checkpoint's temporary file and
/// renaming it leaves `.NAME.tmp-PID-N` behind, hidden; the next run into the folder removes
/// such files once it holds the folder, and leaves everything else.
#[test]
fn the_next_run_removes_the_temporaries_a_killed_run_left() {
    let dir = common::tmp_dir("stale-tmp");
    let stale = [
        ".frame_00001.vtk.tmp-99999-0",
        ".checkpoint_00002.ckpt.tmp-12345-17",
    ];
    for name in stale {
        std::fs::write(dir.join(name), "half a frame").unwrap();
    }
    std::fs::write(dir.join(".notes.tmp-mine"), "a user's file").unwrap();
    let mut s = BuiltScene::load(&common::scenes_dir().join("hanging_chain.toml")).unwrap();
    s.scene.time.frames = 1;
    xpbd_scene::runner::run(&mut s, &dir, |_| {}).unwrap();
    for name in stale {
        assert!(!dir.join(name).exists(), "{name} left behind");
    }
    assert!(dir.join(".notes.tmp-mine").exists());
}
