//! The XPBI scenes that need region subtraction (`exclude`), rotated colliders (`rotation_deg`)
//! and a nozzle (`region = { nozzle = .. }`): the notched sand block, the hourglass and the
//! toothpaste extrusion load from `scenes/`, reproduce xpbi-continuum's builders and obey
//! their physical checks; the new fields' bad values are typed errors naming field and value.
mod common;

use std::path::Path;

use xpbd_core::Vector;
use xpbd_scene::{BuiltScene, SceneDesc, SceneError, build_scene};
use xpbi_continuum::Material;
use xpbi_continuum::builders::Hourglass;

fn load(name: &str) -> BuiltScene {
    BuiltScene::load(&common::scenes_dir().join(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// The notched block: the box lattice (40 × 1 × 20 points at Δx = 5 mm) minus the V notch's
/// lattice points, counted in integers: with x = Δx(i − 19.5), z − 0.1 = Δx(k − 9.5), a
/// point is removed iff k − 9.5 > |i − 19.5|, i.e. 2k − 19 > |2i − 39| (ties, on the notch
/// faces, are kept). xpbi-continuum's notched block (`y ≤ 0.1 + |x|` in floating point) is
/// this set less face points only (2 ties rounded the other way); 20 steps keep every particle finite and above the ground.
#[test]
fn notched_block_is_the_box_lattice_minus_the_notch_lattice() {
    let mut s = load("sand_block_notched.toml");
    let (nx, nz) = (40i64, 20i64);
    let notch = (0..nx)
        .flat_map(|i| (0..nz).map(move |k| (i, k)))
        .filter(|&(i, k)| 2 * k - 19 > (2 * i - 39).abs())
        .count();
    // Notch rows k = 10..19 remove 0, 2, …, 18 points (the faces' points are kept): 90.
    assert_eq!(notch, 90);
    let n = s.sim.particles().len();
    assert_eq!(n, (nx * nz) as usize - notch);
    // xpbi-continuum's study filters its 2D lattice with the floating-point `y <= 0.1 + |x|`,
    // which rounds 2 of the 20 face points (exact ties) to removed: its block is this one
    // less two face points, and every difference lies on a notch face.
    let study: Vec<_> = xpbi_continuum::scene::lattice_box(
        nalgebra::Vector2::new(-0.1, 0.05),
        nalgebra::Vector2::new(0.1, 0.15),
        0.005,
    )
    .into_iter()
    .filter(|p| p[1] <= 0.1 + p[0].abs())
    .collect();
    let on_face = |x: f64, z: f64| (z - 0.1 - x.abs()).abs() < 1e-12;
    assert!(study.iter().all(|q| {
        s.sim
            .particles()
            .x
            .iter()
            .any(|p| (p.x - q[0]).abs() < 1e-12 && (p.z - q[1]).abs() < 1e-12)
    }));
    let extra = s
        .sim
        .particles()
        .x
        .iter()
        .filter(|p| {
            !study
                .iter()
                .any(|q| (p.x - q[0]).abs() < 1e-12 && (p.z - q[1]).abs() < 1e-12)
        })
        .collect::<Vec<_>>();
    assert_eq!(n, study.len() + extra.len());
    assert!(extra.iter().all(|p| on_face(p.x, p.z)), "{extra:?}");
    // No particle inside the notch.
    assert!(
        s.sim
            .particles()
            .x
            .iter()
            .all(|p| p.z <= 0.1 + p.x.abs() + 1e-12)
    );
    for _ in 0..20 {
        s.step().unwrap();
    }
    assert!(
        s.sim
            .particles()
            .x
            .iter()
            .all(|p| p.iter().all(|c| c.is_finite()) && p.z > 0.0)
    );
}

/// The hourglass file reproduces `Hourglass::standard()` at Δx = 1 cm: the same sand lattice
/// (point for point, 1e-12 m) and the same walls (signed distances of a grid of probe points to
/// the four file walls and to `Hourglass::walls::<3>()` agree to 1e-12 m). After 200 steps
/// (0.05 s) no particle centre is closer than ½Δx − 0.01Δx to a wall (contact radius ½Δx, so
/// no particle is inside a wall within 0.01Δx), every particle is above the floor, and sand
/// has passed the orifice (a free fall of 0.05 s from the orifice's first layer, Δx/2 above
/// it, reaches 1.2 cm below it; some particle must be > Δx below the orifice plane).
#[test]
fn hourglass_matches_the_builder_keeps_out_of_the_walls_and_drains() {
    let g = Hourglass::standard();
    let dx = 0.01;
    let mut s = load("hourglass.toml");
    let mut mine: Vec<Vector<3>> = s.sim.particles().x.clone();
    let mut theirs: Vec<Vector<3>> = g.sand::<3>(dx);
    let key = |a: &Vector<3>, b: &Vector<3>| (a.z, a.y, a.x).partial_cmp(&(b.z, b.y, b.x)).unwrap();
    mine.sort_by(key);
    theirs.sort_by(key);
    assert_eq!(mine.len(), theirs.len());
    assert!(
        mine.iter()
            .zip(&theirs)
            .all(|(a, b)| (a - b).norm() < 1e-12)
    );

    let walls = g.walls::<3>().unwrap();
    let files: Vec<_> = s.scene.collider[1..].to_vec();
    assert_eq!(files.len(), walls.len());
    let probe = |p: &Vector<3>| {
        for (f, w) in files.iter().zip(&walls) {
            let pose = xpbd_core::contact::Pose {
                translation: Vector::<3>::from(f.center),
                rotation: f.rotation(),
            };
            let xpbd_scene::scene::ShapeSpec::Box { half_extents } = f.shape else {
                panic!("walls are boxes");
            };
            let shape = xpbd_core::contact::Shape::Box {
                half_extents: Vector::<3>::from(half_extents),
            };
            let a = shape.signed_distance(&pose, p).0;
            let b = w.shape.signed_distance(&w.pose, p).0;
            assert!((a - b).abs() < 1e-12, "{p:?}: {a} vs {b}");
        }
    };
    for i in -6..=6 {
        for j in -6..=6 {
            for k in 0..=8 {
                probe(&Vector::<3>::new(
                    0.04 * i as f64,
                    0.04 * j as f64,
                    0.05 * k as f64,
                ));
            }
        }
    }

    let nearest = |s: &BuiltScene| {
        s.sim
            .particles()
            .x
            .iter()
            .flat_map(|p| {
                walls
                    .iter()
                    .map(move |w| w.shape.signed_distance(&w.pose, p).0)
            })
            .fold(f64::INFINITY, f64::min)
    };
    let mut worst = nearest(&s);
    for _ in 0..200 {
        s.step().unwrap();
        worst = worst.min(nearest(&s));
    }
    let p = &s.sim.particles().x;
    let lowest = p.iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
    let through = p.iter().filter(|p| p.z < g.orifice_height - dx).count();
    println!(
        "hourglass: nearest wall distance {worst:.5} m (½Δx = {}), {through} of {} particles \
         more than Δx below the orifice, lowest z {lowest:.4} m",
        0.5 * dx,
        p.len()
    );
    assert!(worst > 0.5 * dx - 0.01 * dx, "{worst}");
    assert!(lowest > 0.0);
    assert!(through > 0);
}

/// Extrusion: the file's nozzle has n_c = 4 columns (the 5 mm radius holds the 2 × 2 lattice
/// points at ±Δx/2), a reservoir of ⌈vT/Δx⌉ = 6 layers (0.2 m/s × 0.15 s / 5 mm), all
/// kinematic; after t = 0.1 s (1000 steps of 1e-4 s, as xpbi-continuum's 3D builders test) the
/// released mass, and the mass below the exit plane, equals ρ A v t within
/// one lattice layer ρ A Δx, the released particles are the only dynamic ones, the paste still
/// in the nozzle has moved down exactly v t (kinematic), and the whole strand stays finite.
#[test]
fn nozzle_emits_rho_a_v_t_within_one_layer() {
    let mut s = load("toothpaste_extrusion.toml");
    let rho = Material::toothpaste().density;
    let (dx, v): (f64, f64) = (0.005, 0.2);
    assert_eq!(s.emitters.len(), 1);
    let e = &s.emitters[0];
    assert_eq!(e.columns(), 4);
    assert_eq!(e.pending(), 4 * 6);
    assert!(s.sim.particles().inv_mass.iter().all(|&w| w == 0.0));
    let z0: Vec<f64> = s.sim.particles().x.iter().map(|p| p.z).collect();
    let steps = 1000;
    for _ in 0..steps {
        s.step().unwrap();
    }
    let t = steps as f64 * s.scene.time.dt;
    let e = &s.emitters[0];
    let area = e.area();
    let released = e.released() as f64 * rho * dx.powi(3);
    let expected = rho * area * v * t;
    println!("extrusion: released {released:.4e} kg vs ρAvt = {expected:.4e} kg");
    assert!((released - expected).abs() <= rho * area * dx + 1e-15);
    let p = s.sim.particles();
    let below = p.x.iter().filter(|x| x.z < 0.05).count() as f64 * rho * dx.powi(3);
    assert!(
        (below - expected).abs() <= rho * area * dx + 1e-15,
        "{below}"
    );
    let dynamic = p.inv_mass.iter().filter(|&&w| w > 0.0).count();
    assert_eq!(dynamic, e.released());
    for (i, x) in p.x.iter().enumerate() {
        assert!(x.iter().all(|c| c.is_finite()));
        if p.inv_mass[i] == 0.0 {
            assert!(
                (z0[i] - x.z - v * t).abs() < 1e-9,
                "{i}: {} vs {}",
                z0[i] - x.z,
                v * t
            );
        }
    }
}

const BASE: &str = "name = 'c'\n[time]\ndt = 1e-4\nframes = 1\n\
[solver]\nsubsteps = 1\niterations = 5\nmethod = { kind = 'coloured' }\ngravity = [0, 0, -9.81]\nthreads = 1\n\
[materials.sand]\npreset = 'sand'\n\
[[continuum]]\nmaterial = 'sand'\nregion = { box = { min = [0, 0, 0], max = [0.04, 0.04, 0.04] } }\nspacing = 0.01\n";

const COLLIDER: &str = "[[collider]]\nshape = { box = { half_extents = [0.1, 0.1, 0.01] } }\n\
center = [0, 0, -0.01]\nrotation_deg = [0, 30, 0]\n[contacts]\nradius = 0.005\n";

fn invalid(text: &str) -> (String, String) {
    match SceneDesc::parse(text, Path::new("c.toml"))
        .and_then(|s| build_scene(s, Path::new("c.toml")))
    {
        Err(SceneError::InvalidValue { field, value, .. }) => (field, value),
        other => panic!("expected InvalidValue, got {other:?}"),
    }
}

/// Every new field's bad value is an `InvalidValue` naming the field path and the value; an
/// unknown key inside them is a parse error naming it; a box exclusion removes exactly its
/// lattice points (4³ − 2³ = 56 left when a 2 × 2 × 2 corner is cut out).
#[test]
fn new_fields_give_typed_errors_naming_field_and_value() {
    let ex = |e: &str| format!("{BASE}exclude = [{e}]\n");
    let cases = [
        (
            ex("{ ball = { center = [0, 0, 0], radius = -1 } }"),
            "continuum[0].exclude[0].ball.radius",
            "-1",
        ),
        (
            ex("{ box = { min = [0, 0, nan], max = [1, 1, 1] } }"),
            "continuum[0].exclude[0].box.min",
            "[0.0, 0.0, NaN]",
        ),
        (
            ex("{ half_spaces = [] }"),
            "continuum[0].exclude[0].half_spaces",
            "[]",
        ),
        (
            ex("{ half_spaces = [{ normal = [0, 0, 0], offset = 1 }] }"),
            "continuum[0].exclude[0].half_spaces[0].normal",
            "[0.0, 0.0, 0.0]",
        ),
        (
            ex("{ half_spaces = [{ normal = [0, 0, 1], offset = inf }] }"),
            "continuum[0].exclude[0].half_spaces[0].offset",
            "inf",
        ),
        (
            format!("{BASE}{}", COLLIDER.replace("[0, 30, 0]", "[0, 400, 0]")),
            "collider[0].rotation_deg[1]",
            "400",
        ),
        (
            format!("{BASE}{}", COLLIDER.replace("[0, 30, 0]", "[nan, 0, 0]")),
            "collider[0].rotation_deg[0]",
            "NaN",
        ),
    ];
    for (text, field, value) in cases {
        assert_eq!(
            invalid(&text),
            (field.to_string(), value.to_string()),
            "{text}"
        );
    }
    let nozzle = |n: &str| {
        BASE.replace(
            "region = { box = { min = [0, 0, 0], max = [0.04, 0.04, 0.04] } }",
            &format!("region = {{ nozzle = {{ {n} }} }}"),
        )
    };
    let ok = "exit = [0, 0, 0.1], radius = 0.01, speed = 0.2, duration = 0.1";
    let nozzle_cases = [
        (
            "radius = 0.01",
            "radius = 0",
            "continuum[0].region.nozzle.radius",
            "0",
        ),
        (
            "speed = 0.2",
            "speed = -0.2",
            "continuum[0].region.nozzle.speed",
            "-0.2",
        ),
        (
            "duration = 0.1",
            "duration = nan",
            "continuum[0].region.nozzle.duration",
            "NaN",
        ),
        (
            "exit = [0, 0, 0.1]",
            "exit = [0, inf, 0.1]",
            "continuum[0].region.nozzle.exit",
            "[0.0, inf, 0.1]",
        ),
    ];
    for (old, new, field, value) in nozzle_cases {
        let text = nozzle(&ok.replace(old, new));
        assert_eq!(
            invalid(&text),
            (field.to_string(), value.to_string()),
            "{text}"
        );
    }
    let pinned = format!(
        "{}pin = {{ min = [0, 0, 0], max = [1, 1, 1] }}\n",
        nozzle(ok)
    );
    assert_eq!(invalid(&pinned).0, "continuum[0].region.nozzle");
    // Unknown keys are rejected with their name.
    for text in [
        ex("{ box = { min = [0, 0, 0], max = [1, 1, 1], side = 1 } }"),
        nozzle(&format!("{ok}, diameter = 1")),
        format!("{BASE}{}", COLLIDER.replace("rotation_deg", "rotation_rad")),
    ] {
        let e = SceneDesc::parse(&text, Path::new("c.toml")).unwrap_err();
        assert!(matches!(e, SceneError::Syntax { .. }), "{e:?}");
    }
    // A valid rotated collider builds; a box exclusion removes its lattice points only.
    assert!(
        build_scene(
            SceneDesc::parse(&format!("{BASE}{COLLIDER}"), Path::new("c.toml")).unwrap(),
            Path::new("c.toml")
        )
        .is_ok()
    );
    let cut = ex("{ box = { min = [0.02, 0.02, 0.02], max = [0.05, 0.05, 0.05] } }");
    let s = build_scene(
        SceneDesc::parse(&cut, Path::new("c.toml")).unwrap(),
        Path::new("c.toml"),
    )
    .unwrap();
    assert_eq!(s.sim.particles().len(), 64 - 8);
}

/// A nozzle whose speed × duration (the reservoir's height) overflows, or whose reservoir holds
/// no particle or too many, used to be refused as a bad `continuum[0].spacing`: the height is
/// refused by the nozzle's `duration` with the product, the reservoir's count by the nozzle
/// with every factor (radius, speed, duration, spacing), for a continuum and a fluid alike.
#[test]
fn a_nozzle_out_of_range_names_its_own_fields() {
    let nozzle = |n: &str| {
        BASE.replace(
            "region = { box = { min = [0, 0, 0], max = [0.04, 0.04, 0.04] } }",
            &format!("region = {{ nozzle = {{ exit = [0, 0, 0.1], radius = 0.01, {n} }} }}"),
        )
    };
    let refused = |text: &str| match SceneDesc::parse(text, Path::new("c.toml")) {
        Err(e @ SceneError::InvalidValue { .. }) => e,
        other => panic!("expected InvalidValue, got {other:?}"),
    };
    let fluid = |text: String| text.replace("[[continuum]]\nmaterial = 'sand'\n", "[[fluid]]\n");
    // speed × duration = inf.
    for text in [
        nozzle("speed = 1e200, duration = 1e200"),
        fluid(nozzle("speed = 1e200, duration = 1e200")),
    ] {
        let e = refused(&text);
        let SceneError::InvalidValue { field, value, .. } = &e else {
            unreachable!()
        };
        assert!(field.ends_with("[0].region.nozzle.duration"), "{e}");
        assert_eq!(value, "1e200 s × speed 1e200 m/s = inf m", "{e}");
        assert!(e.to_string().contains("speed × duration"), "{e}");
    }
    // Fewer than one layer (1e-12 m), then more than 5e7 particles (1e6 m of 1 cm layers).
    for (n, count) in [
        (
            "speed = 1e-6, duration = 1e-6",
            "2 × 2 columns × 0 layers = 0 particles",
        ),
        (
            "speed = 1e3, duration = 1e3",
            "2 × 2 columns × 100000000 layers = 400000000 particles",
        ),
    ] {
        for text in [nozzle(n), fluid(nozzle(n))] {
            let e = refused(&text);
            let SceneError::InvalidValue { field, value, .. } = &e else {
                unreachable!()
            };
            assert!(field.ends_with("[0].region.nozzle"), "{e}");
            assert!(
                value.contains("radius = 0.01") && value.contains("spacing 0.01"),
                "{e}"
            );
            assert!(value.ends_with(count), "{e}");
            assert!(!field.ends_with("spacing"), "{e}");
        }
    }
}
