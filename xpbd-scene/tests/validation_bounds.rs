//! Values that parse but would make a silently wrong model or corrupt the output are refused by
//! the validator with the real cause, field and value.

use std::path::Path;

use xpbd_scene::{SceneDesc, SceneError};

const CLOTH: &str = "name = 'sheet'\n[time]\ndt = 0.01\nframes = 2\n\
    [materials.cotton]\ndensity = 300.0\nyoungs = 1e6\nthickness = 0.001\n\
    [[cloth]]\nmaterial = 'cotton'\nresolution = [4, 4]\nsize = [1.0, 1.0]\n\
    origin = [0.0, 0.0, 1.0]\n[output]\nformats = ['vtk']\n";

fn refused(text: &str, field: &str) -> String {
    let e = SceneDesc::parse(text, Path::new("s.toml")).unwrap_err();
    assert!(
        matches!(&e, SceneError::InvalidValue { field: f, .. } if f == field),
        "expected {field}: {e}"
    );
    e.to_string()
}

/// An origin of 1e300 used to reach the builder and be reported as a zero-area triangle.
#[test]
fn a_huge_origin_is_reported_as_a_huge_origin() {
    let text = CLOTH.replace("origin = [0.0, 0.0, 1.0]", "origin = [1e300, 0.0, 1.0]");
    let e = refused(&text, "cloth[0].origin");
    assert!(e.contains("1e300") && e.contains("magnitude"), "{e}");
    assert!(!e.contains("area"), "{e}");
    let e = refused(
        &CLOTH.replace("size = [1.0, 1.0]", "size = [1e300, 1.0]"),
        "cloth[0].size[0]",
    );
    assert!(e.contains("length"), "{e}");
}

/// A newline in a name went into every VTK title and made the project's own viewer fail.
#[test]
fn names_with_control_characters_are_refused() {
    refused(
        &CLOTH.replace("name = 'sheet'", "name = \"two\\nlines\""),
        "name",
    );
    refused(
        &CLOTH.replace("name = 'sheet'", "name = \"tab\\there\""),
        "name",
    );
    // The material's name is written into the exports' material tables too.
    let text = CLOTH
        .replace("[materials.cotton]", "[materials.\"cot\\nton\"]")
        .replace("material = 'cotton'", "material = \"cot\\nton\"");
    refused(&text, "materials.cot\nton");
    // An ordinary name with spaces and non-ASCII letters is fine.
    SceneDesc::parse(
        &CLOTH.replace("name = 'sheet'", "name = 'drap de coton, 4×4'"),
        Path::new("s.toml"),
    )
    .unwrap();
}

/// Solver settings the core would refuse (or take as NaN) are refused by field when parsing.
#[test]
fn solver_settings_out_of_range_are_refused_when_parsing() {
    let with = |line: &str| format!("{CLOTH}[solver]\n{line}\n");
    refused(&with("velocity_damping = nan"), "solver.velocity_damping");
    refused(&with("velocity_damping = -1.0"), "solver.velocity_damping");
    refused(
        &with("multiplier_warm_start = 1.5"),
        "solver.multiplier_warm_start",
    );
    refused(
        &with("method = { kind = 'jacobi', omega = 3.0, averaged = true }"),
        "solver.method.omega",
    );
}
