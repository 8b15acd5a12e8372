//! A checkpoint written at frame k and restored reproduces frames k+1..n bit for bit.
mod common;

use std::path::Path;

use xpbd_scene::{BuiltScene, Checkpoint, SceneFile, build_scene};

fn bits(s: &BuiltScene) -> Vec<u64> {
    let p = s.sim.particles();
    p.x.iter()
        .chain(&p.v)
        .flat_map(|x| x.iter().map(|c| c.to_bits()))
        .collect()
}

fn check_restart(name: &str, k: usize, n: usize) {
    let (text, path) = common::shortened(name, n);
    let build = || build_scene(SceneFile::parse(&text, &path).unwrap(), &path).unwrap();
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
    let s = build_scene(SceneFile::parse(&text, &path).unwrap(), &path).unwrap();
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
    let s = build_scene(SceneFile::parse(&text, &path).unwrap(), &path).unwrap();
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
    let s = build_scene(SceneFile::parse(&text, &path).unwrap(), &path).unwrap();
    let bytes = Checkpoint::capture(&s, &text, &path).to_bytes();
    for cut in [0, 4, 8, 20, bytes.len() / 2, bytes.len() - 1] {
        let e = Checkpoint::from_bytes(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(e, xpbd_scene::CheckpointError::Malformed { .. }),
            "{e}"
        );
    }
}

#[test]
fn warm_started_multipliers_are_refused_not_silently_dropped() {
    let (text, path) = common::shortened("hanging_chain.toml", 2);
    let text = text.replace("threads = 0", "threads = 0\nmultiplier_warm_start = 0.1");
    let s = build_scene(SceneFile::parse(&text, &path).unwrap(), &path).unwrap();
    let e = Checkpoint::capture(&s, &text, &path).restore().unwrap_err();
    assert!(
        matches!(e, xpbd_scene::CheckpointError::Unsupported { .. }),
        "{e}"
    );
}

#[test]
fn missing_checkpoint_file_is_an_io_error() {
    let e = Checkpoint::load(Path::new("/nonexistent/x.ckpt")).unwrap_err();
    assert!(matches!(e, xpbd_scene::CheckpointError::Io { .. }), "{e}");
}
