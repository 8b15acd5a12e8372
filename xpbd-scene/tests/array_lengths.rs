//! Fixed-size arrays of a scene file must have exactly their length: extra elements were
//! dropped silently (`gravity = [0, 0, -9.81, 5]` read as `[0, 0, -9.81]`), so a wrong length
//! is now a syntax error naming the file, the line, the field path and both counts.
mod common;

use std::path::Path;

use xpbd_scene::{SceneDesc, SceneError};

/// A valid scene with a solver section, a cloth, a rope and an interaction between them.
const GOOD: &str = "name = 'x'\n\
[time]\ndt = 0.01\nframes = 2\n\
[solver]\ngravity = [0, 0, -9.81]\n\
[materials.cotton]\ndensity = 1500.0\nthickness = 0.0005\n\
[[cloth]]\nname = 'sheet'\nmaterial = 'cotton'\nresolution = [6, 6]\nsize = [1.0, 1.0]\n\
pins = [[0, 0], [5, 0]]\n\
[[rope]]\nname = 'line'\nmaterial = 'cotton'\nlinks = 3\nstart = [0, 0, 0]\nend = [1, 0, 0]\n\
radius = 0.001\n\
[[interaction]]\nbodies = ['sheet', 'line']\nfriction = 0.3\n";

fn parse(text: &str) -> Result<SceneDesc, SceneError> {
    SceneDesc::parse(text, Path::new("x.toml"))
}

/// `GOOD` with `from` replaced by `to` must fail at `line` on `field`, with a message naming
/// the length found (`found`) and the length expected (`expected`).
fn assert_wrong_length(
    from: &str,
    to: &str,
    field: &str,
    line: usize,
    found: usize,
    expected: usize,
) {
    assert!(GOOD.contains(from), "{from}");
    let e = parse(&GOOD.replacen(from, to, 1)).unwrap_err();
    let SceneError::Syntax {
        field: f,
        line: l,
        message,
        ..
    } = &e
    else {
        panic!("not a syntax error: {e}")
    };
    assert_eq!((f.as_str(), *l), (field, line), "{e}");
    assert!(
        message.contains(&format!("invalid length {found}"))
            && message.contains(&format!("exactly {expected} element")),
        "{e}"
    );
    let text = e.to_string();
    assert!(text.starts_with(&format!("x.toml:{line}:")), "{text}");
    assert!(text.contains(field), "{text}");
}

#[test]
fn good_scene_parses_with_its_arrays() {
    let s = parse(GOOD).unwrap();
    assert_eq!(s.solver.gravity, [0.0, 0.0, -9.81]);
    assert_eq!(s.cloth[0].resolution, [6, 6]);
    assert_eq!(s.cloth[0].pins, vec![[0, 0], [5, 0]]);
    assert_eq!(
        s.cloth[0].origin, [0.0; 3],
        "an absent defaulted array stays the default"
    );
    assert_eq!(
        s.interaction[0].bodies,
        ["sheet".to_string(), "line".into()]
    );
}

#[test]
fn gravity_with_four_components_is_refused() {
    assert_wrong_length(
        "gravity = [0, 0, -9.81]",
        "gravity = [0, 0, -9.81, 5]",
        "solver.gravity",
        6,
        4,
        3,
    );
}

#[test]
fn gravity_with_two_components_is_refused() {
    assert_wrong_length(
        "gravity = [0, 0, -9.81]",
        "gravity = [0, -9.81]",
        "solver.gravity",
        6,
        2,
        3,
    );
}

#[test]
fn cloth_resolution_with_three_counts_is_refused() {
    assert_wrong_length(
        "resolution = [6, 6]",
        "resolution = [6, 6, 99]",
        "cloth[0].resolution",
        13,
        3,
        2,
    );
}

#[test]
fn cloth_pin_with_three_coordinates_is_refused() {
    assert_wrong_length(
        "pins = [[0, 0], [5, 0]]",
        "pins = [[0, 0], [5, 0, 1]]",
        "cloth[0].pins[1]",
        15,
        3,
        2,
    );
}

#[test]
fn interaction_of_three_bodies_is_refused() {
    assert_wrong_length(
        "bodies = ['sheet', 'line']",
        "bodies = ['sheet', 'line', 'other']",
        "interaction[0].bodies",
        24,
        3,
        2,
    );
}

#[test]
fn region_corner_with_four_coordinates_is_refused() {
    let text = "name = 'x'\n[time]\ndt = 0.001\nframes = 1\n\
        [materials.sand]\npreset = 'sand'\n\
        [[continuum]]\nmaterial = 'sand'\nspacing = 0.05\n\
        region = { box = { min = [0, 0, 0], max = [0.2, 0.2, 0.2, 0.2] } }\n";
    let e = parse(text).unwrap_err();
    let SceneError::Syntax {
        field,
        line,
        message,
        ..
    } = &e
    else {
        panic!("not a syntax error: {e}")
    };
    assert_eq!(
        (field.as_str(), *line),
        ("continuum[0].region.box.max", 10),
        "{e}"
    );
    assert!(message.contains("invalid length 4"), "{e}");
}

/// Klár's hardening `[h₀, h₁, h₂, h₃]` with a fifth coefficient.
#[test]
fn hardening_with_five_coefficients_is_refused() {
    let text = "name = 'x'\n[time]\ndt = 0.001\nframes = 1\n\
        [materials.sand]\npreset = 'sand'\n\
        plasticity = { drucker_prager = { friction_angle = 35.0, hardening = [35.0, 9.0, 0.2, 10.0, 1.0] } }\n\
        [[continuum]]\nmaterial = 'sand'\nspacing = 0.05\n\
        region = { box = { min = [0, 0, 0], max = [0.2, 0.2, 0.2] } }\n";
    let e = parse(text).unwrap_err();
    let SceneError::Syntax { field, message, .. } = &e else {
        panic!("not a syntax error: {e}")
    };
    assert!(field.contains("hardening"), "{e}");
    assert!(message.contains("invalid length 5"), "{e}");
}

#[test]
fn every_scene_file_still_parses() {
    let names = common::scene_files();
    assert!(!names.is_empty());
    for path in names {
        let text = std::fs::read_to_string(&path).unwrap();
        parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}
