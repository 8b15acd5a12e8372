//! Settings that nothing reads are refused by field, never silently ignored: friction on a
//! pair that does not touch, material fields that no body using the material reads, and a
//! nozzle too narrow to be sampled (it used to emit a whole lattice column).

use std::path::Path;

use xpbd_scene::{SceneDesc, SceneError};

const HEAD: &str = "name = 'i'\n[time]\ndt = 0.001\nframes = 1\n";

fn refused(text: &str, field: &str, reason: &str) {
    let e = SceneDesc::parse(&format!("{HEAD}{text}"), Path::new("i.toml")).unwrap_err();
    assert!(
        matches!(&e, SceneError::InvalidValue { field: f, .. } if f == field),
        "{field}: {e}"
    );
    assert!(e.to_string().contains(reason), "{e}");
}

fn accepted(text: &str) {
    SceneDesc::parse(&format!("{HEAD}{text}"), Path::new("i.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
}

const SAND_AND_CLOTH: &str = "[materials.sand]\npreset = 'sand'\n\
    [materials.cotton]\ndensity = 300.0\nyoungs = 1e6\nthickness = 0.001\n\
    [[continuum]]\nname = 'heap'\nmaterial = 'sand'\nspacing = 0.05\n\
    region = { ball = { center = [0.0, 0.0, 1.0], radius = 0.2 } }\n\
    [[cloth]]\nname = 'sheet'\nmaterial = 'cotton'\nresolution = [4, 4]\nsize = [1.0, 1.0]\n";

#[test]
fn friction_on_a_pair_that_does_not_touch_is_refused() {
    refused(
        &format!(
            "{SAND_AND_CLOTH}[[interaction]]\nbodies = ['heap', 'sheet']\ncontact = false\n\
             friction = 0.3\n"
        ),
        "interaction[0].friction",
        "does not touch",
    );
    accepted(&format!(
        "{SAND_AND_CLOTH}[[interaction]]\nbodies = ['heap', 'sheet']\ncontact = false\n"
    ));
    accepted(&format!(
        "{SAND_AND_CLOTH}[[interaction]]\nbodies = ['heap', 'sheet']\nfriction = 0.3\n"
    ));
}

#[test]
fn material_fields_no_body_reads_are_refused_with_the_bodies_that_use_it() {
    let layered = |extra: &str| {
        format!(
            "[materials.clay]\ndensity = 1800.0\nyoungs = 1e6\n{extra}\n\
             [materials.sand]\npreset = 'sand'\n\
             [[continuum]]\nspacing = 0.05\n\
             [[continuum.layer]]\nmaterial = 'sand'\n\
             region = {{ box = {{ min = [0.0, 0.0, 0.0], max = [0.2, 0.2, 0.1] }} }}\n\
             [[continuum.layer]]\nmaterial = 'clay'\n\
             region = {{ box = {{ min = [0.0, 0.0, 0.1], max = [0.2, 0.2, 0.2] }} }}\n"
        )
    };
    refused(
        &layered("thickness = 0.001"),
        "materials.clay.thickness",
        "continuum[0].layer[1]",
    );
    refused(
        &layered("bending_stiffness = 1e-4"),
        "materials.clay.bending_stiffness",
        "bends",
    );
    accepted(&layered("poisson = 0.4"));
    // A cloth without bending does not read bending_stiffness; a rope reads no plasticity.
    refused(
        &SAND_AND_CLOTH.replace(
            "thickness = 0.001",
            "thickness = 0.001\nbending_stiffness = 1e-4",
        ),
        "materials.cotton.bending_stiffness",
        "cloth[0]",
    );
    accepted(
        &SAND_AND_CLOTH
            .replace(
                "thickness = 0.001",
                "thickness = 0.001\nbending_stiffness = 1e-4",
            )
            .replace(
                "size = [1.0, 1.0]",
                "size = [1.0, 1.0]\nbending = 'dihedral'",
            ),
    );
    let rope = "[materials.steel]\ndensity = 7850.0\nyoungs = 2e11\nEXTRA\n\
                [[rope]]\nmaterial = 'steel'\nlinks = 4\nstart = [0.0, 0.0, 0.0]\n\
                end = [1.0, 0.0, 0.0]\nradius = 0.001\n";
    refused(
        &rope.replace("EXTRA", "plasticity = 'elastic'"),
        "materials.steel.plasticity",
        "only a continuum",
    );
    // A material no body uses is a library entry, not checked.
    accepted(&format!(
        "{}[materials.spare]\ndensity = 1.0\nthickness = 0.1\n",
        rope.replace("EXTRA", "")
    ));
}

#[test]
fn a_nozzle_narrower_than_one_spacing_is_refused() {
    let nozzle = |radius: f64| {
        format!(
            "[materials.paste]\npreset = 'sand'\n[[continuum]]\nmaterial = 'paste'\n\
             spacing = 0.01\nregion = {{ nozzle = {{ exit = [0.0, 0.0, 0.1], radius = {radius:?}, \
             speed = 0.1, duration = 0.5 }} }}\n"
        )
    };
    refused(
        &nozzle(1e-6),
        "continuum[0].region.nozzle.radius",
        "one spacing wide",
    );
    refused(
        &nozzle(0.004),
        "continuum[0].region.nozzle.radius",
        "one spacing wide",
    );
    accepted(&nozzle(0.005));
}

#[test]
fn poisson_on_a_material_only_ropes_and_cloths_use_is_refused() {
    let cloth = "[materials.cotton]\ndensity = 300.0\nyoungs = 1e6\nthickness = 0.001\npoisson = 0.3\n\
                 [[cloth]]\nmaterial = 'cotton'\nresolution = [4, 4]\nsize = [1.0, 1.0]\n";
    refused(
        cloth,
        "materials.cotton.poisson",
        "only soft bodies and continua read `poisson`",
    );
    let rope = "[materials.steel]\ndensity = 7850.0\nyoungs = 2e11\npoisson = 0.3\n\
                [[rope]]\nmaterial = 'steel'\nlinks = 4\nstart = [0.0, 0.0, 1.0]\n\
                end = [1.0, 0.0, 1.0]\nradius = 0.001\n";
    refused(rope, "materials.steel.poisson", "used by rope[0]");
    // Shared with a soft body, which reads ν: accepted.
    accepted(&format!(
        "{rope}[[soft_box]]\nmaterial = 'steel'\ncells = [1, 1, 1]\nsize = [0.1, 0.1, 0.1]\n\
         origin = [0.0, 0.0, 2.0]\n"
    ));
}
