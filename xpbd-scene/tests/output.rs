//! Output that can be lost or confused. Frames are written atomically (a
//! failed write leaves no truncated frame), the output folder's `run.json` lists exactly the
//! frames of the run that wrote it, and a bad output path is an error naming it.
mod common;

use std::num::NonZeroUsize;
use std::path::Path;

use xpbd_scene::runner::{MANIFEST, RunManifest, RunSource, prepare_dir, run, run_with};
use xpbd_scene::{BuiltScene, Checkpoint, ExportError, SceneDesc, build_scene};

/// A 20 × 20 cloth: its VTK frame is tens of kilobytes.
const CLOTH: &str = "name = 'sheet'\n[time]\ndt = 0.01\nframes = 1\n\
    [materials.cotton]\ndensity = 200.0\nyoungs = 1e6\nthickness = 0.001\n\
    [[cloth]]\nmaterial = 'cotton'\nresolution = [20, 20]\nsize = [1.0, 1.0]\n\
    origin = [0.0, 0.0, 1.0]\npins = [[0, 0]]\n";

const CHILD: &str = "XPBD_TEST_FSIZE_CHILD";
const TEST: &str = "failed_frame_write_leaves_the_previous_frame_and_no_truncated_file";

/// The frame is written by a child process (this test binary, re-run for this test alone)
/// under a file-size limit of 8 × 512 bytes (`ulimit -f`, with SIGXFSZ ignored so that the
/// write fails with EFBIG): writing the frame fails with an I/O error naming the frame's path,
/// the frame file that was there keeps its content and no temporary file is left. Written in
/// place (as before), the failed write left the frame truncated at the limit.
#[test]
fn failed_frame_write_leaves_the_previous_frame_and_no_truncated_file() {
    if let Ok(dir) = std::env::var(CHILD) {
        let dir = Path::new(&dir);
        let scene = build_scene(
            SceneDesc::parse(CLOTH, Path::new("c.toml")).unwrap(),
            Path::new("c.toml"),
        )
        .unwrap();
        let e = xpbd_scene::runner::write_frame(&scene, dir).unwrap_err();
        let frame = dir.join("frame_00000.vtk");
        assert!(
            matches!(&e, ExportError::Io { file, .. } if *file == frame),
            "{e}"
        );
        return;
    }
    let dir = common::tmp_dir("fsize");
    let frame = dir.join("frame_00000.vtk");
    std::fs::write(&frame, "the previous frame").unwrap();
    // Unlimited, the frame is far larger than the limit.
    let scene = build_scene(
        SceneDesc::parse(CLOTH, Path::new("c.toml")).unwrap(),
        Path::new("c.toml"),
    )
    .unwrap();
    let probe = common::tmp_dir("fsize-probe");
    xpbd_scene::runner::write_frame(&scene, &probe).unwrap();
    assert!(
        std::fs::metadata(probe.join("frame_00000.vtk"))
            .unwrap()
            .len()
            > 8 * 1024 * 4
    );
    let exe = std::env::current_exe().unwrap();
    let status = std::process::Command::new("/bin/sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 8; exec \"$0\" \"$1\" --exact --nocapture --test-threads=1")
        .arg(&exe)
        .arg(TEST)
        .env(CHILD, &dir)
        // Pipes, not inherited descriptors: a file the harness's output goes to may already be
        // past the size limit, and the child's own prints would then fail.
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "the child run failed: {}\n{}\n{}",
        status.status,
        String::from_utf8_lossy(&status.stdout),
        String::from_utf8_lossy(&status.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&frame).unwrap(),
        "the previous frame"
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("frame_00000.vtk")]);
}

fn chain(frames: usize) -> (BuiltScene, String, std::path::PathBuf) {
    let (text, path) = common::shortened("hanging_chain.toml", frames);
    let s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    (s, text, path)
}

fn listed(m: &RunManifest) -> Vec<usize> {
    m.written.iter().map(|w| w.frame).collect()
}

/// A shorter run into the folder of a longer one: the longer run's last frame is still on
/// disk, but run.json lists only the frames of the run that wrote it (every = 2: 0, 2), each
/// as a VTK and a PLY file that exists.
#[test]
fn shorter_run_into_the_same_folder_lists_only_its_own_frames() {
    let dir = common::tmp_dir("stale");
    let (mut long, ..) = chain(4);
    assert_eq!(run(&mut long, &dir, |_| {}).unwrap(), 6);
    assert_eq!(listed(&RunManifest::load(&dir).unwrap()), [0, 2, 4]);
    let (mut short, ..) = chain(2);
    assert_eq!(run(&mut short, &dir, |_| {}).unwrap(), 4);
    assert!(
        dir.join("frame_00004.vtk").exists(),
        "the stale frame is still there"
    );
    let m = RunManifest::load(&dir).unwrap();
    assert_eq!(listed(&m), [0, 2]);
    assert_eq!((m.frames, m.completed), (2, 2));
    assert_eq!(m.written[1].files, ["frame_00002.vtk", "frame_00002.ply"]);
    let vtk: Vec<usize> = m.frame_files(&dir, "vtk").iter().map(|f| f.0).collect();
    assert_eq!(vtk, [0, 2]);
    assert!(m.frame_files(&dir, "vtk").iter().all(|(_, p)| p.exists()));
}

/// A run resumed from its own checkpoint into its folder keeps the frames before the
/// checkpoint in run.json; resumed into a fresh folder, run.json lists only what it wrote. The
/// checkpoints are listed too, and restore.
#[test]
fn resumed_run_lists_the_frames_of_its_scene() {
    let dir = common::tmp_dir("resume-manifest");
    let (mut s, text, path) = chain(4);
    let source = RunSource {
        path: &path,
        text: &text,
        checkpoint_every: NonZeroUsize::new(2),
    };
    let out = run_with(&mut s, &dir, Some(source), |_| {}).unwrap();
    assert_eq!(out.checkpoints, 2);
    let ckpts: Vec<&str> = out
        .manifest
        .checkpoints
        .iter()
        .map(|c| c.files[0].as_str())
        .collect();
    assert_eq!(ckpts, ["checkpoint_00002.ckpt", "checkpoint_00004.ckpt"]);
    let c = Checkpoint::load(&dir.join("checkpoint_00002.ckpt")).unwrap();
    let mut resumed = c.restore().unwrap();
    let again = run_with(&mut resumed, &dir, Some(source), |_| {}).unwrap();
    assert_eq!(listed(&again.manifest), [0, 2, 4]);
    assert_eq!(again.files, 2, "only frame 4 was written again");
    assert_eq!(resumed.sim.particles().x, s.sim.particles().x);
    let fresh = common::tmp_dir("resume-manifest-fresh");
    let mut resumed = c.restore().unwrap();
    let m = run_with(&mut resumed, &fresh, Some(source), |_| {})
        .unwrap()
        .manifest;
    assert_eq!(listed(&m), [4]);
    assert_eq!(m.scene.as_deref(), Some(path.as_path()));
}

/// `--out` naming a file, or a folder under a file, is refused with that file's path (it was
/// `File exists (os error 17)` without one); a missing parent is created. A folder without a
/// run.json is a manifest error naming the manifest's path.
#[test]
fn output_path_that_is_a_file_is_refused_with_its_path() {
    let dir = common::tmp_dir("out-file");
    let file = dir.join("taken");
    std::fs::write(&file, "x").unwrap();
    for out in [file.clone(), file.join("sub/deeper")] {
        let e = prepare_dir(&out).unwrap_err();
        assert!(
            matches!(&e, ExportError::NotADirectory { file: f } if *f == file),
            "{e}"
        );
        assert!(e.to_string().contains(&file.display().to_string()), "{e}");
        let (mut s, ..) = chain(1);
        let e = run(&mut s, &out, |_| {}).unwrap_err();
        assert!(e.to_string().contains(&file.display().to_string()), "{e}");
    }
    let nested = dir.join("a/b/c");
    prepare_dir(&nested).unwrap();
    assert!(nested.is_dir());
    let e = RunManifest::load(&nested).unwrap_err();
    assert!(
        matches!(&e, ExportError::Manifest { file, .. } if *file == nested.join(MANIFEST)),
        "{e}"
    );
}
