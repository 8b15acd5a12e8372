//! States that stay finite and slow enough to pass the speed check but are physically absurd
//! (a far too large Δt stretches a steel rope to thousands of kilometres) are caught at the end
//! of the step that makes them, before any frame of them is written, and the state is kept.

use std::path::Path;

use xpbd_core::StepError;
use xpbd_scene::error::{FrameError, RunError};
use xpbd_scene::{BuiltScene, SceneDesc};

/// A pinned 1 m steel rope (10 links, E = 200 GPa, r = 1 mm) under gravity at Δt = 1000 s.
const STEEL_ROPE: &str = "name = 'steel rope'\n[time]\ndt = 1000.0\nframes = 3\n\
    [materials.steel]\ndensity = 7850.0\nyoungs = 2e11\n\
    [[rope]]\nmaterial = 'steel'\nlinks = 10\nstart = [0.0, 0.0, 1.0]\nend = [1.0, 0.0, 1.0]\n\
    radius = 0.001\npin_start = true\n[output]\nformats = ['vtk']\n";

/// A stiff Neo-Hookean beam (1 × 0.1 × 0.1 m, E = 10 MPa) clamped at x = 0, at Δt = 1000 s.
const STIFF_BEAM: &str = "name = 'stiff beam'\n[time]\ndt = 1000.0\nframes = 3\n\
    [solver]\nsubsteps = 4\niterations = 2\n\
    [materials.rubber]\ndensity = 1000.0\nyoungs = 1e7\npoisson = 0.3\n\
    [[soft_box]]\nmaterial = 'rubber'\nsize = [1.0, 0.1, 0.1]\ncells = [10, 1, 1]\n\
    origin = [0.0, 0.0, 1.0]\npin_x_below = 0.001\n[output]\nformats = ['vtk']\n";

fn build(text: &str) -> BuiltScene {
    let scene = SceneDesc::parse(text, Path::new("absurd.toml")).unwrap();
    xpbd_scene::build_scene(scene, Path::new("absurd.toml")).unwrap()
}

/// The error of the first frame, the state before and after it.
fn first_frame_fails(text: &str) -> StepError {
    let mut scene = build(text);
    let before = scene.sim.particles().clone();
    let e = scene.advance_frame().unwrap_err();
    assert_eq!(scene.frame, 0, "the failing frame is not counted");
    assert_eq!(scene.sim.particles().x, before.x, "positions kept");
    assert_eq!(scene.sim.particles().v, before.v, "velocities kept");
    match e {
        FrameError::Step(s) => s,
        other => panic!("expected a step error, got {other}"),
    }
}

#[test]
fn a_steel_rope_at_a_huge_step_is_refused_with_the_overstretched_link() {
    let e = first_frame_fails(STEEL_ROPE);
    let StepError::Overstrained {
        strain,
        bound,
        constraint,
    } = &e
    else {
        panic!("expected Overstrained, got {e}");
    };
    assert!(*strain > *bound, "{e}");
    assert_eq!(constraint.block_name, Some("distance"), "{e}");
    assert!(constraint.index.is_some_and(|i| i < 10), "{e}");
    assert!(e.to_string().contains("times its rest measure"), "{e}");
}

/// A rubber beam at a step of 1000 s: the neo-Hookean pair declares the substep at which its
/// shear stays stable, and the step is refused before anything moves, naming that bound.
#[test]
fn a_stiff_beam_at_a_huge_step_is_refused_by_its_shear_wave_bound() {
    let e = first_frame_fails(STIFF_BEAM);
    let StepError::TimeStepOverBound {
        h,
        bound,
        block_name,
        rule,
        ..
    } = &e
    else {
        panic!("expected the substep bound, got {e}");
    };
    assert_eq!(*block_name, "neo-hookean", "{e}");
    assert!(*h == 250.0 && *bound < 1e-3, "{e}");
    assert!(rule.contains("shear waves"), "{e}");
}

/// The same beam, adaptive: the run takes the steps the bound allows and holds together.
#[test]
fn the_same_beam_adaptive_runs_below_its_bound() {
    let text = STIFF_BEAM
        .replace("dt = 1000.0", "dt = 0.01\nadaptive = true")
        .replace("frames = 3", "frames = 1");
    let mut scene = build(&text);
    scene.advance_frame().unwrap();
    let p = scene.sim.particles();
    let sag = p.x.iter().map(|x| 1.0 - x[2]).fold(0.0, f64::max);
    assert!(
        sag > 0.0 && sag < 0.05,
        "the pinned beam sags, a little: {sag} m"
    );
}

/// Through the runner: frame 0 (the initial state) is written, no frame of the absurd state.
#[test]
fn no_frame_of_an_absurd_state_is_written() {
    let dir = std::env::temp_dir().join(format!("xpbd-absurd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut scene = build(STEEL_ROPE);
    let e = xpbd_scene::runner::run(&mut scene, &dir, |_| {}).unwrap_err();
    assert!(
        matches!(e, RunError::Step { frame: 1, .. }),
        "the first frame fails: {e}"
    );
    let frames: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("frame_"))
        .collect();
    assert_eq!(frames, ["frame_00000.vtk"], "{frames:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same rope at an ordinary step runs: the check does not fire on honest states.
#[test]
fn the_same_rope_at_a_small_step_runs() {
    let mut scene = build(&STEEL_ROPE.replace("dt = 1000.0", "dt = 0.001"));
    for _ in 0..3 {
        scene.advance_frame().unwrap();
    }
}

/// The check is skipped while the particles have not moved far enough since its last
/// evaluation for a link to reach the bound (the Lipschitz bound of the distance strain); a
/// rope stretched between steps, by a user moving a particle, is still caught on the next
/// step, however many steps were skipped before.
#[test]
fn a_link_stretched_between_steps_is_caught_on_the_next_step() {
    // A very compliant rope (E = 1 kPa), which the solver barely pulls back in one step.
    let soft = STEEL_ROPE
        .replace("dt = 1000.0", "dt = 0.001")
        .replace("youngs = 2e11", "youngs = 1e3");
    let mut scene = build(&soft);
    for _ in 0..3 {
        scene.advance_frame().unwrap();
    }
    let last = scene.sim.particles().len() - 1;
    scene.sim.particles_mut().x[last].x += 500.0;
    let e = scene.sim.step(0.001).unwrap_err();
    assert!(
        matches!(&e, StepError::Overstrained { constraint, .. } if constraint.index == Some(9)),
        "{e}"
    );
}
