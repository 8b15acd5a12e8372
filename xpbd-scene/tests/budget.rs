//! Scenes that would not fit in memory, or ask for absurd counts, are refused with a typed
//! error naming the field and the figures, before anything is allocated; the allocator's abort
//! (`memory allocation of N bytes failed`, nothing named) is never reached.

use std::path::Path;

use xpbd_scene::budget::WorkEstimate;
use xpbd_scene::{SceneDesc, SceneError};

const GIB: u64 = 1 << 30;

const HEADER: &str = "name = 'big'\n[time]\ndt = 0.001\nframes = 1\n\
    [materials.cotton]\ndensity = 300.0\nyoungs = 1e6\nthickness = 0.001\nbending_stiffness = 1e-4\n\
    [materials.rubber]\ndensity = 1000.0\nyoungs = 1e6\n\
    [materials.steel]\ndensity = 7850.0\nyoungs = 2e11\n\
    [materials.sand]\npreset = 'sand'\n";

fn parse(body: &str) -> Result<SceneDesc, SceneError> {
    SceneDesc::parse(&format!("{HEADER}{body}"), Path::new("big.toml"))
}

/// A 4096² cloth (within the validator's caps, which crashed the allocator of a loaded
/// 24 GiB machine): the estimate is at least the measured 620 B per particle, it is refused
/// by a machine with less available, naming the field, and accepted by one with more.
#[test]
fn a_cloth_larger_than_the_available_memory_is_refused_by_field() {
    let scene = parse(
        "[[cloth]]\nmaterial = 'cotton'\nresolution = [4096, 4096]\nsize = [1.0, 1.0]\n\
         bending = 'dihedral'\n",
    );
    let estimate = scene.unwrap().memory_estimate();
    let total = estimate.total();
    assert!(total >= 4096.0 * 4096.0 * 620.0, "{total}");
    let e = estimate
        .check(total as u64 - 1, Path::new("big.toml"))
        .unwrap_err();
    assert!(
        matches!(&e, SceneError::TooLarge { field, value, .. }
            if field == "cloth[0].resolution" && value == "[4096, 4096]"),
        "{e}"
    );
    assert!(
        estimate
            .check(total as u64 + 1, Path::new("big.toml"))
            .is_ok()
    );
}

/// A 256³ soft box and a continuum of 4.8e7 lattice points (both within the validator's
/// caps, both crashed the allocator): each is refused on a 24 GiB machine, naming its field.
#[test]
fn bodies_within_the_caps_that_exceed_a_24_gib_machine_are_refused_by_field() {
    let cases = [
        (
            "[[soft_box]]\nmaterial = 'rubber'\nsize = [1.0, 1.0, 1.0]\ncells = [256, 256, 256]\n",
            "soft_box[0].cells",
        ),
        (
            // 3.6 m × 3.6 m × 3.7 m at 1 cm: 4.8e7 lattice points (cap 5e7).
            "[[continuum]]\nmaterial = 'sand'\nspacing = 0.01\n\
             region = { box = { min = [0.0, 0.0, 0.0], max = [3.6, 3.6, 3.7] } }\n",
            "continuum[0].spacing",
        ),
    ];
    for (body, field) in cases {
        let scene = parse(body).expect("within the validator's caps");
        let estimate = scene.memory_estimate();
        let e = estimate
            .check(24 * GIB, Path::new("big.toml"))
            .expect_err(field);
        let text = e.to_string();
        assert!(
            matches!(&e, SceneError::TooLarge { field: f, .. } if f == field),
            "{text}"
        );
        assert!(
            text.contains("big.toml") && text.contains("GB available"),
            "{text}"
        );
    }
}

/// Every shipped scene fits in 2 GiB by the estimate (the estimate is not a blanket refusal).
#[test]
fn every_shipped_scene_fits_in_two_gib() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let scene = SceneDesc::load(&path).unwrap();
            let estimate = scene.memory_estimate();
            estimate
                .check(2 * GIB, &path)
                .unwrap_or_else(|e| panic!("{e}"));
            WorkEstimate::new(&scene, &estimate)
                .check(&estimate, &path)
                .unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
    }
    assert!(n >= 10, "{n} scenes");
}

/// The parts add up: many bodies, each small, that together exceed memory are refused at
/// build time against the machine's own available memory (4 000 ropes of 10⁶ links: about
/// 1.6 TB, more than any machine this runs on).
#[test]
fn many_small_bodies_that_add_up_are_refused_when_building() {
    let rope = "[[rope]]\nmaterial = 'steel'\nlinks = 1000000\nstart = [0.0, 0.0, 0.0]\n\
                end = [1.0, 0.0, 0.0]\nradius = 0.001\n";
    let scene = parse(&rope.repeat(4000)).unwrap();
    let Err(e) = xpbd_scene::build_scene(scene, Path::new("big.toml")) else {
        panic!("a 1.6 TB scene was built");
    };
    let text = e.to_string();
    assert!(matches!(e, SceneError::TooLarge { .. }), "{text}");
    assert!(text.contains("TB") && text.contains("rope["), "{text}");
}

/// Counts that no honest scene needs are refused by the validator, by field.
#[test]
fn absurd_counts_are_refused_by_field() {
    let rope = "[[rope]]\nmaterial = 'steel'\nlinks = 4\nstart = [0.0, 0.0, 0.0]\n\
                end = [1.0, 0.0, 0.0]\nradius = 0.001\n";
    let cases = [
        ("frames = 1\n", "frames = 100000000\n", "time.frames"),
        (
            "frames = 1\n",
            "frames = 1\nsteps_per_frame = 10000000\n",
            "time.steps_per_frame",
        ),
    ];
    for (from, to, field) in cases {
        let text = format!("{HEADER}{rope}").replace(from, to);
        let e = SceneDesc::parse(&text, Path::new("big.toml")).unwrap_err();
        assert!(
            matches!(&e, SceneError::InvalidValue { field: f, .. } if f == field),
            "{e}"
        );
    }
    for (line, field) in [
        ("threads = 1024", "solver.threads"),
        ("iterations = 1000000", "solver.iterations"),
        ("substeps = 1000000", "solver.substeps"),
    ] {
        let e = parse(&format!("{rope}[solver]\n{line}\n")).unwrap_err();
        assert!(
            matches!(&e, SceneError::InvalidValue { field: f, .. } if f == field),
            "{e}"
        );
    }
}

/// Accepted values that would hang: counts within their caps that multiply to 10¹⁵ particle
/// projections per frame, and a frame of 10¹² projections repeated 10⁴ times, are refused when
/// the scene is built, naming every factor (before, the first frame never came).
#[test]
fn caps_that_multiply_to_hours_per_frame_or_months_per_run_are_refused() {
    let cube = "[[soft_box]]\nmaterial = 'rubber'\nsize = [1.0, 1.0, 1.0]\ncells = [9, 9, 9]\n";
    let scene = parse(&format!(
        "{cube}[solver]\nsubsteps = 100000\niterations = 100000\n"
    ))
    .expect("each count within its cap");
    let Err(e) = xpbd_scene::build_scene(scene, Path::new("big.toml")) else {
        panic!("a scene of 1e13 projections per frame was built");
    };
    let text = e.to_string();
    assert!(
        matches!(
            &e,
            SceneError::TooMuchWork {
                what: "a frame",
                ..
            }
        ),
        "{text}"
    );
    for part in [
        "soft_box[0].cells",
        "solver.substeps = 100000",
        "solver.iterations = 100000",
        "time.steps_per_frame = 1",
    ] {
        assert!(text.contains(part), "{part}: {text}");
    }
    // 1000 particles × 1000 × 10 × 11 = 1.1e8 per frame, × 10^7 frames = 1.1e15 per run.
    let text = format!("{HEADER}{cube}[solver]\nsubsteps = 10\niterations = 10\n").replace(
        "frames = 1\n",
        "frames = 10000000\nsteps_per_frame = 1000\n",
    );
    let scene = SceneDesc::parse(&text, Path::new("big.toml")).unwrap();
    let e = xpbd_scene::build_scene(scene, Path::new("big.toml")).err();
    assert!(
        matches!(
            &e,
            Some(SceneError::TooMuchWork {
                what: "the run",
                ..
            })
        ),
        "{e:?}"
    );
    // The same body at the default counts is built.
    assert!(xpbd_scene::build_scene(parse(cube).unwrap(), Path::new("big.toml")).is_ok());
}

/// A largest adaptive step that would split one step into more than 10⁶ (`dt_max = 1e-12`
/// against dt = 1 ms, or a subnormal 5e-324 that used to pass and fail later as "got 0"), and
/// a `dt_max` that fixed steps would ignore, are refused when the file is read, by field.
#[test]
fn a_largest_step_that_would_never_end_a_frame_or_is_ignored_is_refused() {
    let ball = "[[continuum]]\nmaterial = 'sand'\nspacing = 0.05\n\
                region = { ball = { center = [0.0, 0.0, 1.0], radius = 0.1 } }\n";
    for (time, reason) in [
        ("dt_max = 1e-12\n", "10^6 steps"),
        ("dt_max = 5e-324\n", "10^6 steps"),
        ("adaptive = false\ndt_max = 1e-4\n", "steps are fixed"),
    ] {
        let text =
            format!("{HEADER}{ball}").replace("frames = 1\n", &format!("frames = 1\n{time}"));
        let e = SceneDesc::parse(&text, Path::new("big.toml")).unwrap_err();
        assert!(
            matches!(&e, SceneError::InvalidValue { field, .. } if field == "time.dt_max"),
            "{e}"
        );
        assert!(e.to_string().contains(reason), "{e}");
    }
    let ok = format!("{HEADER}{ball}").replace("frames = 1\n", "frames = 1\ndt_max = 1e-9\n");
    assert!(SceneDesc::parse(&ok, Path::new("big.toml")).is_ok());
}
