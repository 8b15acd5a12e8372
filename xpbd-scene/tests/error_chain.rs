//! Error chains print each cause once: a variant either writes its inner error into its own
//! message or exposes it as `source()`, never both (with `anyhow`'s `{:#}` or `Caused by:`
//! the message would repeat, three times for the CFL error of a run).
mod common;

use std::error::Error;
use std::path::Path;

use xpbd_core::{BuildError, StepError};
use xpbd_scene::error::FrameError;
use xpbd_scene::{CheckpointError, ImportError, RunError, SceneError};
use xpbi_continuum::XpbiError;

/// The messages of `e` and its sources, outermost first.
fn chain(e: &(dyn Error + 'static)) -> Vec<String> {
    let mut out = vec![e.to_string()];
    let mut next = e.source();
    while let Some(s) = next {
        out.push(s.to_string());
        next = s.source();
    }
    out
}

/// No message in the chain contains the next one's text, and the chain has `depth` links.
fn assert_each_cause_once(e: &(dyn Error + 'static), depth: usize) {
    let c = chain(e);
    assert_eq!(c.len(), depth, "{c:#?}");
    for w in c.windows(2) {
        assert!(
            !w[0].contains(&w[1]),
            "{:?} repeats its source {:?}",
            w[0],
            w[1]
        );
    }
}

#[test]
fn scene_errors_wrapping_importer_core_and_xpbi_errors_print_each_cause_once() {
    // A real build: the [[mesh]] file is a zero-area triangle.
    let dir = common::tmp_dir("chain");
    std::fs::write(dir.join("flat.obj"), "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n").unwrap();
    let text = "name = 'c'\n[time]\ndt = 0.01\nframes = 1\n[materials.m]\ndensity = 1.0\n\
                thickness = 0.001\n[[mesh]]\nmaterial = 'm'\npath = 'flat.obj'\nkind = 'cloth'\n";
    std::fs::write(dir.join("c.toml"), text).unwrap();
    let e = xpbd_scene::BuiltScene::load(&dir.join("c.toml")).unwrap_err();
    assert!(
        matches!(
            &e,
            SceneError::Import {
                source: ImportError::Degenerate { .. },
                ..
            }
        ),
        "{e}"
    );
    assert_each_cause_once(&e, 2);

    let file = Path::new("s.toml").to_path_buf();
    let build = SceneError::Build {
        file: file.clone(),
        field: "cloth[0]".into(),
        source: BuildError::InvalidGeometry("edge 3 has zero length".into()),
    };
    assert_each_cause_once(&build, 2);
    let continuum = SceneError::Continuum {
        file: file.clone(),
        field: "continuum[0]".into(),
        source: Box::new(XpbiError::Build(BuildError::InvalidGeometry("x".into()))),
    };
    assert_each_cause_once(&continuum, 3);
    let ckpt = CheckpointError::Block {
        block: 2,
        name: "distance",
        source: BuildError::InvalidGeometry("3 multipliers for 4 constraints".into()),
    };
    assert_each_cause_once(&ckpt, 2);
    let scene_in_ckpt = CheckpointError::Scene(build);
    assert_each_cause_once(&scene_in_ckpt, 2);
}

#[test]
fn run_and_xpbi_errors_print_each_cause_once() {
    // The CFL error of a run: frame → the step's bound check, naming XPBI's rule, once.
    let run = RunError::Step {
        frame: 3,
        source: FrameError::Step(StepError::TimeStepOverBound {
            h: 1e-3,
            bound: 2.5e-4,
            block: 2,
            block_name: "xpbi",
            rule: "XPBI CFL bound cfl · spacing / max |v|",
            particle: Some(7),
        }),
    };
    assert_each_cause_once(&run, 2);
    let shown = chain(&run).join(": ");
    assert_eq!(shown.matches("exceeds the bound").count(), 1, "{shown}");
    let step = RunError::Step {
        frame: 1,
        source: FrameError::Step(StepError::NonPositiveTimeStep { dt: -1.0 }),
    };
    assert_each_cause_once(&step, 2);
    assert_each_cause_once(
        &XpbiError::Step(StepError::NonPositiveTimeStep { dt: 0.0 }),
        2,
    );
}

/// A GPU world's failed step (`FrameError::Backend`) exposes the backend's error as its
/// source: its message used to end in ": {source}" as well, so `{:#}` or anyhow's
/// `Caused by:` printed the device's message twice.
#[test]
fn a_backend_step_error_prints_its_cause_once() {
    let run = RunError::Step {
        frame: 2,
        source: FrameError::Backend {
            backend: "gpu",
            source: Box::new(std::io::Error::other("device lost: driver reset")),
        },
    };
    assert_each_cause_once(&run, 3);
    let shown = chain(&run).join(": ");
    assert_eq!(
        shown,
        "frame 2 failed: gpu step failed: device lost: driver reset"
    );
}

/// A neighbour grid that cannot be built names the `[continuum.xpbi]` setting that sets its
/// cells, with its value and the spacing, and the reason (the box needs too many cells): it
/// used to say "neighbour grid rejected the settings" under the field `continuum[0]`.
#[test]
fn a_neighbour_grid_error_names_the_setting_and_why() {
    let dir = common::tmp_dir("grid-setting");
    let text = "name = 'g'\n[time]\ndt = 1e-4\nframes = 1\n[materials.sand]\npreset = 'sand'\n\
                [[continuum]]\nmaterial = 'sand'\nspacing = 0.01\n\
                region = { box = { min = [0, 0, 0], max = [0.04, 0.04, 0.04] } }\n\
                xpbi = { min_distance_ratio = 1e-7 }\n";
    std::fs::write(dir.join("g.toml"), text).unwrap();
    let e = xpbd_scene::BuiltScene::load(&dir.join("g.toml")).unwrap_err();
    let SceneError::Continuum { field, source, .. } = &e else {
        panic!("expected a continuum error, got {e}");
    };
    assert_eq!(field, "continuum[0].xpbi.min_distance_ratio", "{e}");
    assert!(
        matches!(
            **source,
            XpbiError::Grid {
                setting: "min_distance_ratio",
                ..
            }
        ),
        "{source}"
    );
    assert_each_cause_once(&e, 3);
    let shown = chain(&e).join(": ");
    assert!(
        shown.contains("min_distance_ratio = 1e-7 (× spacing 0.01 m: cells of 1e-9 m)")
            && shown.contains("needs 2.700e22 cells of width 1e-9 m, more than the limit 4194304"),
        "{shown}"
    );
    assert!(!shown.contains("rejected the settings"), "{shown}");
}
