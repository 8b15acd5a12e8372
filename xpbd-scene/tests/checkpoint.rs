//! A checkpoint written at frame k and restored reproduces frames k+1..n bit for bit.
mod common;

use std::path::Path;

use xpbd_scene::{BuiltScene, Checkpoint, SceneDesc, build_scene};

fn bits(s: &BuiltScene) -> Vec<u64> {
    let p = s.sim.particles();
    p.x.iter()
        .chain(&p.v)
        .flat_map(|x| x.iter().map(|c| c.to_bits()))
        .collect()
}

fn check_restart(name: &str, k: usize, n: usize) {
    let (text, path) = common::shortened(name, n);
    check_restart_text(name, &text, &path, k, n);
}

fn check_restart_text(name: &str, text: &str, path: &Path, k: usize, n: usize) {
    let (text, path) = (text.to_string(), path.to_path_buf());
    let build = || build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let mut reference = build();
    let mut frames = Vec::new();
    let mut saved = None;
    for f in 1..=n {
        reference.advance_frame().unwrap();
        frames.push(bits(&reference));
        if f == k {
            // Through bytes and a file, as a user would.
            let file = common::tmp_dir(&format!("ckpt-{name}")).join("k.ckpt");
            Checkpoint::capture(&reference, &text, &path)
                .save(&file)
                .unwrap();
            saved = Some(file);
        }
    }
    let mut restored = Checkpoint::load(&saved.unwrap())
        .unwrap()
        .restore()
        .unwrap();
    assert_eq!(restored.frame, k);
    for f in k + 1..=n {
        restored.advance_frame().unwrap();
        assert!(
            frames[f - 1] == bits(&restored),
            "{name}: frame {f} differs after restoring frame {k}"
        );
    }
    // The run moved: a restore that ignored the state would have failed above.
    assert_ne!(frames[k - 1], frames[n - 1]);
}

#[test]
fn cloth_on_sphere_restart_is_bit_identical() {
    // Contacts and friction are active by frame 30 (the cloth starts 0.5 m above the sphere).
    check_restart("cloth_on_sphere.toml", 30, 36);
}

#[test]
fn dam_break_restart_is_bit_identical() {
    // Fluid stencils and rows are rebuilt from the positions alone at every substep.
    check_restart("dam_break.toml", 10, 14);
}

#[test]
fn soft_beam_restart_is_bit_identical() {
    check_restart("soft_tet_beam.toml", 5, 10);
}

#[test]
fn chain_restart_is_bit_identical() {
    check_restart("hanging_chain.toml", 7, 15);
}

#[test]
fn restore_rejects_state_for_another_scene() {
    let (text, path) = common::shortened("hanging_chain.toml", 2);
    let s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let mut c = Checkpoint::capture(&s, &text, &path);
    c.x.pop();
    let e = c.restore().unwrap_err();
    assert!(
        matches!(
            e,
            xpbd_scene::CheckpointError::Mismatch {
                what: "particle count",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn restore_rejects_non_finite_state() {
    let (text, path) = common::shortened("hanging_chain.toml", 2);
    let s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let mut c = Checkpoint::capture(&s, &text, &path);
    c.v[3][1] = f64::NAN;
    let e = c.restore().unwrap_err();
    assert!(
        matches!(
            e,
            xpbd_scene::CheckpointError::NonFinite {
                particle: 3,
                field: "v"
            }
        ),
        "{e}"
    );
}

#[test]
fn truncated_checkpoint_is_a_typed_error() {
    let (text, path) = common::shortened("hanging_chain.toml", 2);
    let s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let bytes = Checkpoint::capture(&s, &text, &path).to_bytes();
    for cut in [0, 4, 8, 20, bytes.len() / 2, bytes.len() - 1] {
        let e = Checkpoint::from_bytes(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(e, xpbd_scene::CheckpointError::Malformed { .. }),
            "{e}"
        );
    }
}

/// With multiplier warm starting λ carries over between substeps (decay d = 0.1), so the
/// restore must put every block's λ back: restoring without them diverges (checked below).
/// A kinematic collider (`velocity` of a `[[collider]]`): the sphere rises at 1 m/s into the
/// falling cloth; its pose is its block's state, so a restart puts it where it was, and the
/// continuation is bit-identical. Restoring the built pose instead changes the run.
#[test]
fn moving_collider_restart_is_bit_identical() {
    let (text, path) = common::shortened("cloth_on_sphere.toml", 24);
    let text = text.replacen(
        "center = [0.0, 0.0, 0.3]\n",
        "center = [0.0, 0.0, 0.3]\nvelocity = [0.0, 0.0, 1.0]\n",
        1,
    );
    assert!(text.contains("velocity = [0.0, 0.0, 1.0]"));
    check_restart_text("moving-sphere", &text, &path, 20, 24);
    let build = || build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let mut reference = build();
    for _ in 0..20 {
        reference.advance_frame().unwrap();
    }
    let centre = |s: &BuiltScene| {
        s.block_kinds()
            .iter()
            .find_map(|k| match k {
                xpbd_scene::BlockKind::Contacts(c) => Some(c.colliders()[0].pose.translation.z),
                _ => None,
            })
            .unwrap()
    };
    // 20 frames of 1/60 s at 1 m/s.
    let expected = 0.3 + 20.0 / 60.0;
    assert!(
        (centre(&reference) - expected).abs() < 1e-12,
        "{}",
        centre(&reference)
    );
    let mut c = Checkpoint::capture(&reference, &text, &path);
    assert!((centre(&c.clone().restore().unwrap()) - expected).abs() < 1e-12);
    // Without the poses (an empty block state keeps the built ones) the sphere is back at 0.3.
    let contacts = build()
        .block_kinds()
        .iter()
        .position(|k| matches!(k, xpbd_scene::BlockKind::Contacts(_)))
        .unwrap();
    c.block_state[contacts].clear();
    let mut reset = c.restore().unwrap();
    assert_eq!(centre(&reset), 0.3);
    reference.advance_frame().unwrap();
    reset.advance_frame().unwrap();
    assert_ne!(bits(&reference), bits(&reset));
}

#[test]
fn warm_started_cloth_restart_is_bit_identical() {
    let (text, path) = common::shortened("cloth_on_sphere.toml", 34);
    let text = text.replace("threads = 0", "threads = 0\nmultiplier_warm_start = 0.1");
    assert!(text.contains("multiplier_warm_start"));
    check_restart_text("cloth-warm", &text, &path, 30, 34);
    // The multipliers matter: zeroing them in the checkpoint changes the continuation.
    let build = || build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let mut reference = build();
    for _ in 0..30 {
        reference.advance_frame().unwrap();
    }
    let mut c = Checkpoint::capture(&reference, &text, &path);
    assert!(c.multipliers.iter().flatten().any(|&l| l != 0.0));
    c.multipliers.iter_mut().flatten().for_each(|l| *l = 0.0);
    let mut zeroed = c.restore().unwrap();
    reference.advance_frame().unwrap();
    zeroed.advance_frame().unwrap();
    assert_ne!(bits(&reference), bits(&zeroed));
}

/// XPBI: F, the hardening state and the plastic volume correction are restored. The sand
/// column is collapsing at frame 3 (30 ms; Drucker–Prager projection active, hardening q > 0),
/// and the run is warm-started too, so λ of the XPBI, contact and position-correction blocks
/// carry over as well.
#[test]
fn xpbi_sand_restart_is_bit_identical() {
    let (text, path) = common::shortened("sand_column_2d.toml", 5);
    let text = text
        .replace("steps_per_frame = 100", "steps_per_frame = 10")
        .replace("threads = 0", "threads = 0\nmultiplier_warm_start = 0.2");
    assert!(text.contains("steps_per_frame = 10 ") && text.contains("warm_start"));
    check_restart_text("sand", &text, &path, 3, 5);
    let mut s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    for _ in 0..3 {
        s.advance_frame().unwrap();
    }
    let xpbi = &s.sim.block(s.continua[0].handle).kind;
    let plastic = xpbi
        .plastic_states()
        .iter()
        .filter(|p| p.hardening > 0.0)
        .count();
    assert!(plastic > 0, "no particle has yielded by frame 3");
    // Restoring with F reset to I changes the continuation (the state matters).
    let mut c = Checkpoint::capture(&s, &text, &path);
    let k = s.continua[0].handle.index();
    assert!(!c.block_state[k].is_empty());
    let fresh = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    c.block_state[k] = fresh.sim.blocks()[k].save_state();
    let mut reset = c.restore().unwrap();
    s.advance_frame().unwrap();
    reset.advance_frame().unwrap();
    assert_ne!(bits(&s), bits(&reset));
}

/// Gripped (kinematic) particles: their targets are recomputed from the restored positions.
/// Von Mises clay yielding under the grips' pull (hardening restored with F).
#[test]
fn xpbi_gripped_clay_restart_is_bit_identical() {
    let (text, path) = common::shortened("clay_bar_stretch.toml", 5);
    let text = text.replace("steps_per_frame = 50", "steps_per_frame = 20");
    assert!(text.contains("steps_per_frame = 20 "));
    check_restart_text("clay", &text, &path, 3, 5);
}

/// Lagrangian kernels (`kernel_frame = "reference"`): the total deformation gradients are part
/// of the saved state; the elastic cantilever restarts bit-identically, and restoring with
/// them reset to I (as after a rebuild) changes the continuation.
#[test]
fn xpbi_reference_kernel_cantilever_restart_is_bit_identical() {
    let (text, path) = common::shortened("elastic_cantilever.toml", 4);
    let text = text.replace(
        "xpbi = { position_correction = false }",
        "xpbi = { position_correction = false, kernel_frame = \"reference\" }",
    );
    assert!(text.contains("reference"));
    check_restart_text("cantilever-ref", &text, &path, 2, 4);
    let mut s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    for _ in 0..2 {
        s.advance_frame().unwrap();
    }
    let k = s.continua[0].handle.index();
    let mut c = Checkpoint::capture(&s, &text, &path);
    let n = s.sim.block(s.continua[0].handle).kind.members().len();
    assert_eq!(c.block_state[k].len(), n * (11 + 9));
    let totals = c.block_state[k].split_off(n * 11);
    assert!(totals.chunks(9).any(|f| f[0] != 1.0 || f[2] != 0.0));
    c.block_state[k].extend((0..n).flat_map(|_| [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]));
    let mut reset = c.restore().unwrap();
    s.advance_frame().unwrap();
    reset.advance_frame().unwrap();
    assert_ne!(bits(&s), bits(&reset));
}

#[test]
fn xpbi_state_of_wrong_length_or_non_finite_is_a_typed_error() {
    let (text, path) = common::shortened("sand_column_2d.toml", 1);
    let s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let k = s.continua[0].handle.index();
    let mut c = Checkpoint::capture(&s, &text, &path);
    c.block_state[k].pop();
    let e = c.restore().unwrap_err();
    assert!(
        matches!(&e, xpbd_scene::CheckpointError::Block { block, name: "xpbi", .. } if *block == k),
        "{e}"
    );
    let mut c = Checkpoint::capture(&s, &text, &path);
    c.block_state[k][3] = f64::INFINITY;
    let e = c.restore().unwrap_err();
    assert!(
        matches!(
            &e,
            xpbd_scene::CheckpointError::Block {
                source: xpbd_core::BuildError::NonFiniteState { particle: 0, .. },
                ..
            }
        ),
        "{e}"
    );
    let mut c = Checkpoint::capture(&s, &text, &path);
    c.multipliers[k][0] = f64::NAN;
    assert!(matches!(
        c.restore().unwrap_err(),
        xpbd_scene::CheckpointError::Block { .. }
    ));
    let mut c = Checkpoint::capture(&s, &text, &path);
    c.block_state.pop();
    assert!(matches!(
        c.restore().unwrap_err(),
        xpbd_scene::CheckpointError::Mismatch { .. }
    ));
}

#[test]
fn missing_checkpoint_file_is_an_io_error() {
    let e = Checkpoint::load(Path::new("/nonexistent/x.ckpt")).unwrap_err();
    assert!(matches!(e, xpbd_scene::CheckpointError::Io { .. }), "{e}");
}

/// Extrusion nozzle: the released count is re-derived from the restored masses, so a restart
/// at frame 3 (30 ms: one layer of the toothpaste released, the next crossing the exit at
/// 37.5 ms) releases the same particles in the same steps and continues bit-identically.
#[test]
fn xpbi_nozzle_restart_is_bit_identical() {
    let (text, path) = common::shortened("toothpaste_extrusion.toml", 6);
    check_restart_text("nozzle", &text, &path, 3, 6);
    let mut s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    for _ in 0..3 {
        s.advance_frame().unwrap();
    }
    let c = Checkpoint::capture(&s, &text, &path).restore().unwrap();
    assert_eq!(c.emitters[0].released(), s.emitters[0].released());
    assert!(s.emitters[0].released() > 0 && s.emitters[0].pending() > 0);
}

// Checkpoints are checked before they are trusted.

fn chain_checkpoint_bytes() -> (Vec<u8>, String) {
    let (text, path) = common::shortened("hanging_chain.toml", 2);
    let mut s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    s.advance_frame().unwrap();
    (Checkpoint::capture(&s, &text, &path).to_bytes(), text)
}

/// Every single-bit flip anywhere in the file (the scene text with its `dt`, the velocities,
/// the inverse masses, the header, the checksum) is refused, and so are trailing bytes; the
/// flips inside the body are caught by the checksum. Before the format had a checksum, a flipped
/// velocity or `dt` decoded and restored without complaint.
#[test]
fn every_flipped_bit_and_trailing_garbage_is_refused() {
    use xpbd_scene::CheckpointError;
    let (bytes, text) = chain_checkpoint_bytes();
    assert!(Checkpoint::from_bytes(&bytes).is_ok());
    let dt = text.find("dt").unwrap();
    let text_at = bytes
        .windows(text.len())
        .position(|w| w == text.as_bytes())
        .unwrap();
    let dt_at = text_at + dt + text[dt..].find(|c: char| c.is_ascii_digit()).unwrap();
    let mut checksum_errors = 0;
    for i in 0..bytes.len() {
        for bit in [0x01u8, 0x80] {
            let mut b = bytes.clone();
            b[i] ^= bit;
            match Checkpoint::from_bytes(&b) {
                Ok(_) => panic!("byte {i} ^ {bit:#x} of {} was accepted", bytes.len()),
                Err(CheckpointError::Checksum { .. }) => checksum_errors += 1,
                Err(e) if i < 20 => assert!(
                    matches!(
                        e,
                        CheckpointError::Malformed { .. }
                            | CheckpointError::UnsupportedVersion { .. }
                            | CheckpointError::TrailingBytes { .. }
                    ),
                    "header byte {i}: {e}"
                ),
                Err(e) => panic!("byte {i} ^ {bit:#x}: {e}, expected a checksum error"),
            }
        }
    }
    assert_eq!(checksum_errors, 2 * (bytes.len() - 20));
    // The time step in the stored text, flipped to another digit, is a checksum error too.
    let mut b = bytes.clone();
    b[dt_at] = if b[dt_at] == b'1' { b'2' } else { b'1' };
    assert!(matches!(
        Checkpoint::from_bytes(&b).unwrap_err(),
        CheckpointError::Checksum { .. }
    ));
    let mut b = bytes.clone();
    b.extend_from_slice(b"garbage");
    let e = Checkpoint::from_bytes(&b).unwrap_err();
    assert!(
        matches!(e, CheckpointError::TrailingBytes { extra: 7, .. }),
        "{e}"
    );
}

/// The version after the magic is checked first: another version is a typed error naming the
/// file and both versions, not a decoding failure.
#[test]
fn unknown_format_version_is_a_typed_error() {
    let (mut bytes, _) = chain_checkpoint_bytes();
    assert_eq!(&bytes[..8], b"XPBDCKPT");
    bytes[8..12].copy_from_slice(&99u32.to_le_bytes());
    let file = common::tmp_dir("ckpt-version").join("v99.ckpt");
    std::fs::write(&file, &bytes).unwrap();
    let e = Checkpoint::load(&file).unwrap_err();
    assert!(
        matches!(
            &e,
            xpbd_scene::CheckpointError::UnsupportedVersion { file: f, found: 99, supported: 3 }
                if *f == file
        ),
        "{e}"
    );
    assert!(e.to_string().contains(&file.display().to_string()), "{e}");
}

const MESH_SCENE: &str = "name = 'sheet'\n[time]\ndt = 0.01\nframes = 3\n\
    [materials.cotton]\ndensity = 200.0\nyoungs = 1e6\nthickness = 0.001\n\
    [[mesh]]\nmaterial = 'cotton'\npath = 'sheet.obj'\nkind = 'cloth'\npins = [0]\n";
const SHEET: &str = "v 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\nf 1 2 3\nf 2 4 3\n";

/// A mesh file edited after checkpointing (here only a comment added, the same geometry) is
/// refused with the mesh's path; a deleted one is an I/O error naming it. The unedited mesh
/// restores (the control).
#[test]
fn mesh_edited_after_checkpointing_is_refused() {
    let dir = common::tmp_dir("ckpt-mesh");
    let (scene_path, mesh) = (dir.join("sheet.toml"), dir.join("sheet.obj"));
    std::fs::write(&scene_path, MESH_SCENE).unwrap();
    std::fs::write(&mesh, SHEET).unwrap();
    let mut s = BuiltScene::load(&scene_path).unwrap();
    s.advance_frame().unwrap();
    let file = dir.join("k.ckpt");
    Checkpoint::capture(&s, MESH_SCENE, &scene_path)
        .save(&file)
        .unwrap();
    let c = Checkpoint::load(&file).unwrap();
    assert_eq!(c.meshes.len(), 1);
    assert_eq!(c.restore().unwrap().frame, 1);
    std::fs::write(&mesh, format!("{SHEET}# edited\n")).unwrap();
    let e = c.restore().unwrap_err();
    assert!(
        matches!(&e, xpbd_scene::CheckpointError::MeshChanged { mesh: m, .. } if *m == mesh),
        "{e}"
    );
    assert!(e.to_string().contains("sheet.obj"), "{e}");
    std::fs::remove_file(&mesh).unwrap();
    let e = c.restore().unwrap_err();
    assert!(
        matches!(&e, xpbd_scene::CheckpointError::Io { file: m, .. } if *m == mesh),
        "{e}"
    );
}

/// `run SCENE --resume CKPT` must name the scene the checkpoint was written from: the same text
/// passes (wherever the file is), another text (here another `dt`) is an error naming the given
/// scene, the checkpoint and the checkpoint's own scene.
#[test]
fn scene_file_given_with_a_checkpoint_must_be_its_scene() {
    let (text, path) = common::shortened("hanging_chain.toml", 2);
    let s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let c = Checkpoint::capture(&s, &text, &path);
    let dir = common::tmp_dir("ckpt-scene");
    let (same, other, ckpt) = (dir.join("a.toml"), dir.join("b.toml"), dir.join("a.ckpt"));
    std::fs::write(&same, &text).unwrap();
    assert!(text.contains("dt = "));
    std::fs::write(&other, text.replacen("dt = ", "dt = 2", 1)).unwrap();
    c.verify_scene_file(&same, &ckpt).unwrap();
    let e = c.verify_scene_file(&other, &ckpt).unwrap_err();
    assert!(
        matches!(&e, xpbd_scene::CheckpointError::SceneMismatch { scene, checkpoint, .. }
            if *scene == other && *checkpoint == ckpt),
        "{e}"
    );
    let msg = e.to_string();
    for p in [&other, &ckpt, &path] {
        assert!(
            msg.contains(&p.display().to_string()),
            "{msg} lacks {}",
            p.display()
        );
    }
}

/// A TetGen mesh is two files: an edit of the `.ele` beside the `.node` (the tets, not named in
/// the scene) is refused with the `.ele`'s path.
#[test]
fn tetgen_ele_edited_after_checkpointing_is_refused() {
    let dir = common::tmp_dir("ckpt-tetgen");
    let scene_path = dir.join("tet.toml");
    let text = "name = 'tet'\n[time]\ndt = 0.01\nframes = 2\n\
        [materials.rubber]\ndensity = 1000.0\nyoungs = 1e5\n\
        [[mesh]]\nmaterial = 'rubber'\npath = 'tet.node'\nkind = 'soft'\npins = [0]\n";
    std::fs::write(&scene_path, text).unwrap();
    std::fs::write(
        dir.join("tet.node"),
        "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n",
    )
    .unwrap();
    let ele = dir.join("tet.ele");
    std::fs::write(&ele, "1 4 0\n1 1 2 3 4\n").unwrap();
    let mut s = BuiltScene::load(&scene_path).unwrap();
    s.advance_frame().unwrap();
    let c = Checkpoint::capture(&s, text, &scene_path);
    let listed: Vec<_> = c.meshes.iter().map(|m| m.path.clone()).collect();
    assert_eq!(listed, [dir.join("tet.node"), ele.clone()]);
    c.restore().unwrap();
    std::fs::write(&ele, "1 4 0\n1 1 2 3 4\n# edited\n").unwrap();
    let e = c.restore().unwrap_err();
    assert!(
        matches!(&e, xpbd_scene::CheckpointError::MeshChanged { mesh, .. } if *mesh == ele),
        "{e}"
    );
}

/// A mesh that cannot be read when the checkpoint is captured cannot be fingerprinted: saving
/// is refused with the mesh's path and no file is written (it would be refused on restore).
#[test]
fn checkpoint_of_an_unreadable_mesh_is_not_saved() {
    let dir = common::tmp_dir("ckpt-mesh-gone");
    let (scene_path, mesh) = (dir.join("sheet.toml"), dir.join("sheet.obj"));
    std::fs::write(&scene_path, MESH_SCENE).unwrap();
    std::fs::write(&mesh, SHEET).unwrap();
    let s = BuiltScene::load(&scene_path).unwrap();
    std::fs::remove_file(&mesh).unwrap();
    let c = Checkpoint::capture(&s, MESH_SCENE, &scene_path);
    assert!(c.meshes[0].sha256.is_err());
    let file = dir.join("k.ckpt");
    let e = c.save(&file).unwrap_err();
    assert!(
        matches!(&e, xpbd_scene::CheckpointError::Io { file: m, .. } if *m == mesh),
        "{e}"
    );
    assert!(!file.exists());
}
