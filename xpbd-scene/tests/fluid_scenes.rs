//! `[[fluid]]` in scene files: water builds from the description, stays in its tank, rests on
//! sand at its own density, never crosses a cloth, and bad values are refused by field.
mod common;

use std::path::Path;

use xpbd_scene::{BuiltScene, SceneDesc, SceneError};

fn build(text: &str) -> Result<BuiltScene, SceneError> {
    xpbd_scene::build_scene(
        SceneDesc::parse(text, Path::new("f.toml"))?,
        Path::new("f.toml"),
    )
}

/// The dam-break scene: 0.5 s of surge, every particle inside the tank, the front past the
/// middle of the bed, the same bits on 1 and 2 threads.
#[test]
fn dam_break_scene_surges_along_the_tank_and_stays_inside() {
    let (text, _) = common::shortened("dam_break.toml", 60);
    let run = |threads: usize| {
        let t = text.replace("gravity = [", &format!("threads = {threads}\ngravity = ["));
        let mut s = build(&t).unwrap();
        for _ in 0..s.scene.time.frames {
            s.advance_frame().unwrap();
        }
        s
    };
    let s = run(1);
    assert!(s.is_adaptive() && s.steps.steps > 60, "{:?}", s.steps);
    let x = &s.sim.particles().x;
    assert!(
        x.iter()
            .all(|p| { p.x >= 0.0 && p.x <= 0.4 && p.y >= 0.0 && p.y <= 0.1 && p.z >= 0.0 })
    );
    let front = x.iter().map(|p| p.x).fold(f64::MIN, f64::max);
    assert!(front > 0.3, "front at {front} m after 0.5 s");
    assert_eq!(run(2).sim.particles().x, s.sim.particles().x);
}

const WATER_ON_SAND: &str = "name = 'w'\n[time]\ndt = 0.005\nframes = 1\n\
    [solver]\nsubsteps = 4\niterations = 4\n\
    [materials.sand]\npreset = 'sand'\n\
    [[continuum]]\nname = 'bed'\nmaterial = 'sand'\nspacing = 0.01\n\
    region = { box = { min = [0, 0, 0], max = [0.1, 0.1, 0.04] } }\n\
    [[fluid]]\nname = 'water'\nspacing = 0.01\n\
    region = { box = { min = [0.02, 0.02, 0.05], max = [0.08, 0.08, 0.09] } }\n\
    [[collider]]\nshape = { plane = { normal = [0, 0, 1], offset = 0 } }\nfriction = 0.5\n\
    [[collider]]\nshape = { plane = { normal = [1, 0, 0], offset = 0 } }\n\
    [[collider]]\nshape = { plane = { normal = [-1, 0, 0], offset = -0.1 } }\n\
    [[collider]]\nshape = { plane = { normal = [0, 1, 0], offset = 0 } }\n\
    [[collider]]\nshape = { plane = { normal = [0, -1, 0], offset = -0.1 } }\n\
    [contacts]\nradius = 0.005\n";

/// Water poured onto a sand bed in a basin sits on it: after 0.3 s no water particle is below
/// the bed's top layer, and the bed has not risen.
#[test]
fn water_rests_on_a_sand_bed_without_passing_into_it() {
    let mut s = build(WATER_ON_SAND).unwrap();
    let (bed, water) = (s.bodies[0].particles.clone(), s.bodies[1].particles.clone());
    let top = s.sim.particles().x[bed.clone()]
        .iter()
        .map(|p| p.z)
        .fold(f64::MIN, f64::max);
    for _ in 0..60 {
        s.step().unwrap();
    }
    let p = s.sim.particles();
    let lowest = p.x[water].iter().map(|p| p.z).fold(f64::MAX, f64::min);
    let sand_top = p.x[bed].iter().map(|p| p.z).fold(f64::MIN, f64::max);
    assert!(sand_top <= top + 1e-3, "the bed rose to {sand_top}");
    assert!(
        lowest > sand_top - 0.005,
        "water at {lowest} below the bed's top {sand_top}"
    );
}

#[test]
fn bad_fluid_values_are_refused_with_field_and_value() {
    for (from, to, field, value) in [
        (
            "name = 'water'\nspacing = 0.01",
            "name = 'water'\nspacing = 0.0",
            "fluid[0].spacing",
            "0",
        ),
        (
            "name = 'water'\n",
            "name = 'water'\nrest_density = -1000.0\n",
            "fluid[0].rest_density",
            "-1000",
        ),
        (
            "name = 'water'\n",
            "name = 'water'\nviscosity = -0.001\n",
            "fluid[0].viscosity",
            "-0.001",
        ),
        (
            "name = 'water'\n",
            "name = 'water'\nbulk_modulus = 0.0\n",
            "fluid[0].bulk_modulus",
            "0",
        ),
    ] {
        let text = WATER_ON_SAND.replace(from, to);
        let e = build(&text).unwrap_err();
        let SceneError::InvalidValue {
            field: f, value: v, ..
        } = &e
        else {
            panic!("{e}")
        };
        assert_eq!((f.as_str(), v.as_str()), (field, value), "{e}");
    }
    // Water placed inside the sand bed: the bodies overlap, refused by name.
    let inside = WATER_ON_SAND.replace(
        "min = [0.02, 0.02, 0.05], max = [0.08, 0.08, 0.09]",
        "min = [0.02, 0.02, 0.01], max = [0.08, 0.08, 0.03]",
    );
    let e = build(&inside).unwrap_err();
    assert!(matches!(e, SceneError::Overlap { .. }), "{e}");
}
