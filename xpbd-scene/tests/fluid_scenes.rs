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
/// the bed's top layer, the bed has not risen, and no sand particle has moved by a quarter of
/// the spacing (the bed loses nothing where the water does not flow).
#[test]
fn water_rests_on_a_sand_bed_without_passing_into_it() {
    let mut s = build(WATER_ON_SAND).unwrap();
    let (bed, water) = (s.bodies[0].particles.clone(), s.bodies[1].particles.clone());
    let top = s.sim.particles().x[bed.clone()]
        .iter()
        .map(|p| p.z)
        .fold(f64::MIN, f64::max);
    let x0 = s.sim.particles().x[bed.clone()].to_vec();
    for _ in 0..60 {
        s.step().unwrap();
    }
    let p = s.sim.particles();
    let moved = x0
        .iter()
        .zip(&p.x[bed.clone()])
        .map(|(a, b)| (b - a).norm())
        .fold(0.0, f64::max);
    eprintln!("largest sand displacement under still water: {moved:.2e} m");
    assert!(moved < 0.25 * 0.01, "still water moved sand by {moved} m");
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
        (
            "name = 'water'\n",
            "name = 'water'\nvorticity_confinement = -0.5\n",
            "fluid[0].vorticity_confinement",
            "-0.5",
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

/// A ball of water (136 particles, Δx = 1 cm) poured into the small cotton hammock (12 × 12,
/// pinned at four corners): at no frame is a water particle below the cloth surface, and after
/// 1.2 s the pins carry the weight of water and cloth within 2 %.
#[test]
fn the_hammock_carries_the_water_and_no_water_crosses_it() {
    use xpbd_scene::interaction::BodyKind;
    let frames = 60;
    let text = common::small_hammock(frames).replace(
        "[[continuum]]\nname = \"sand\"\nmaterial = \"sand\"\n",
        "[[fluid]]\nname = \"sand\"\n",
    );
    let mut s = build(&text).unwrap();
    let body = |k: BodyKind| s.bodies.iter().find(|b| b.kind == k).unwrap().clone();
    let (cloth, water) = (body(BodyKind::Cloth), body(BodyKind::Fluid));
    assert_eq!(water.particles.len(), 136);
    for _ in 0..frames {
        s.advance_frame().unwrap();
        let x = &s.sim.particles().x;
        for p in water.particles.clone() {
            if let Some(z) = common::cloth_height(x, &cloth.triangles, &x[p]) {
                assert!(x[p].z > z, "frame {}: water {p} below the cloth", s.frame);
            }
        }
    }
    let h = s.steps.dt_max / s.scene.solver.substeps as f64;
    assert_eq!(
        s.steps.dt_min, s.steps.dt_max,
        "the last frame took equal steps"
    );
    let (carried, w) = (common::pin_force(&s, h), common::weight(&s));
    assert!(
        (carried - w).abs() < 0.02 * w,
        "pins carry {carried} N of {w} N"
    );
}

/// The sand-dam scene: within 0.4 s the water overtops the dam (water beyond its downstream
/// face) and carries sand downstream of its toe.
#[test]
fn water_breaches_the_sand_dam() {
    use xpbd_scene::interaction::BodyKind;
    let (text, _) = common::shortened("sand_dam_breach.toml", 40);
    let mut s = build(&text).unwrap();
    let body = |k: BodyKind| s.bodies.iter().find(|b| b.kind == k).unwrap().clone();
    let (water, dam) = (body(BodyKind::Fluid), body(BodyKind::Continuum));
    for _ in 0..40 {
        s.advance_frame().unwrap();
    }
    let x = &s.sim.particles().x;
    let water_far = x[water.particles.clone()]
        .iter()
        .map(|p| p.x)
        .fold(f64::MIN, f64::max);
    let sand_far = x[dam.particles.clone()]
        .iter()
        .map(|p| p.x)
        .fold(f64::MIN, f64::max);
    eprintln!("water front {water_far:.3} m, sand front {sand_far:.3} m");
    assert!(
        water_far > 0.34,
        "the water did not pass the dam: {water_far}"
    );
    assert!(sand_far > 0.35, "no sand carried downstream: {sand_far}");
}

/// Water poured from a nozzle (exit radius 1 cm, 0.5 m/s, Δx = 5 mm) into a basin: the
/// released mass after t is ρ₀ A v t within one lattice layer (A = n_c Δx²), every released
/// particle stays finite and inside the basin, and a bare simulation refuses the nozzle.
#[test]
fn a_nozzle_pours_water_at_its_mass_rate() {
    let text = "name = 'pour'\n[time]\ndt = 0.005\nframes = 1\n\
        [solver]\nsubsteps = 4\niterations = 4\n\
        [[fluid]]\nname = 'water'\nspacing = 0.005\n\
        region = { nozzle = { exit = [0.05, 0.05, 0.06], radius = 0.01, speed = 0.5, duration = 0.2 } }\n\
        [[collider]]\nshape = { plane = { normal = [0, 0, 1], offset = 0 } }\n\
        [[collider]]\nshape = { plane = { normal = [1, 0, 0], offset = 0 } }\n\
        [[collider]]\nshape = { plane = { normal = [-1, 0, 0], offset = -0.1 } }\n\
        [[collider]]\nshape = { plane = { normal = [0, 1, 0], offset = 0 } }\n\
        [[collider]]\nshape = { plane = { normal = [0, -1, 0], offset = -0.1 } }\n\
        [contacts]\nradius = 0.0025\n";
    let mut s = build(text).unwrap();
    let steps = 20;
    for _ in 0..steps {
        s.step().unwrap();
    }
    let e = &s.emitters[0];
    assert_eq!(e.field, "fluid[0]");
    let t = steps as f64 * 0.005;
    let expected = e.columns() as f64 * 0.5 * t / 0.005;
    let released = e.released() as f64;
    assert!(
        (released - expected).abs() <= e.columns() as f64,
        "released {released} particles, expected {expected} ± {}",
        e.columns()
    );
    let p = s.sim.particles();
    for i in s.bodies[0].particles.clone() {
        let x = p.x[i];
        assert!(x.iter().all(|c| c.is_finite()));
        if p.inv_mass[i] > 0.0 {
            assert!((0.0..=0.1).contains(&x.x) && (0.0..=0.1).contains(&x.y) && x.z >= 0.0);
        }
    }
    let desc = SceneDesc::parse(text, Path::new("pour.toml")).unwrap();
    let e = <xpbd_core::Simulation<3> as xpbd_scene::FromDesc>::from_desc(&desc).unwrap_err();
    assert!(
        matches!(e, SceneError::NeedsFrameDriver { ref field, .. } if field == "fluid[0].region"),
        "{e}"
    );
}

/// A fluid's density and pressure reach the frame files: VTK point fields and PLY vertex
/// properties, the density near ρ₀ in the bulk and the pressure positive under 5 cm of water
/// (the bed itself is a collider without boundary particles: its layer carries no pressure).
#[test]
fn fluid_density_and_pressure_are_exported() {
    let (text, _) = common::shortened("dam_break.toml", 2);
    let mut s = build(&text).unwrap();
    // 0.08 s: the column has begun to fall over; its lower half is under pressure.
    for _ in 0..10 {
        s.step().unwrap();
    }
    let f = s.particle_fields();
    let n = s.sim.particles().len();
    assert_eq!((f.density.len(), f.pressure.len()), (n, n));
    let water = s.bodies[0].particles.clone();
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let rho = median(&mut f.density[water.clone()].to_vec());
    assert!((rho - 1000.0).abs() < 20.0, "median density {rho}");
    let x = &s.sim.particles().x;
    let mut deep: Vec<f64> = water
        .clone()
        .filter(|&i| x[i].z > 0.05 && x[i].z < 0.15)
        .map(|i| f.pressure[i])
        .collect();
    let p = median(&mut deep);
    assert!(
        p > 100.0,
        "median pressure {p} Pa under 5 cm or more of water"
    );
    let ply = xpbd_scene::export::ply_bytes_with_fields(&[], s.sim.particles(), &f).unwrap();
    let head = String::from_utf8_lossy(&ply[..ply.len().min(600)]).into_owned();
    assert!(
        head.contains("property double density") && head.contains("property double pressure"),
        "{head}"
    );
}

/// A water jet (nozzle radius 1.5 cm, 2 m/s, 10 cm above the bed) scours a sand bed 3 cm deep
/// (20 × 20 cm, Δx = 1 cm) only where it impinges. After 0.3 s: sand has been carried away
/// (displaced by more than Δx) under the jet, the top layer's before the layers below and none
/// beyond 8 cm (about 5 jet radii) of the axis, although the jet's water has spread over the
/// bed there (it flows over that sand without moving it: the interface carries pressure and
/// contact friction, not a boundary layer's shear stress, module docs of `xpbd_scene::fluid`).
/// At rest the same bed under still water loses nothing
/// (`water_rests_on_a_sand_bed_without_passing_into_it`).
#[test]
fn a_water_jet_scours_sand_only_where_it_impinges() {
    let text = "name = 'jet'\n[time]\ndt = 0.005\nframes = 1\n\
        [solver]\nsubsteps = 4\niterations = 4\n\
        [materials.sand]\npreset = 'sand'\n\
        [[continuum]]\nname = 'bed'\nmaterial = 'sand'\nspacing = 0.01\n\
        region = { box = { min = [0, 0, 0], max = [0.2, 0.2, 0.03] } }\n\
        [[fluid]]\nname = 'water'\nspacing = 0.01\n\
        region = { nozzle = { exit = [0.1, 0.1, 0.1], radius = 0.015, speed = 2.0, duration = 0.3 } }\n\
        [[collider]]\nshape = { plane = { normal = [0, 0, 1], offset = 0 } }\nfriction = 0.5\n\
        [[collider]]\nshape = { plane = { normal = [1, 0, 0], offset = 0 } }\n\
        [[collider]]\nshape = { plane = { normal = [-1, 0, 0], offset = -0.2 } }\n\
        [[collider]]\nshape = { plane = { normal = [0, 1, 0], offset = 0 } }\n\
        [[collider]]\nshape = { plane = { normal = [0, -1, 0], offset = -0.2 } }\n\
        [contacts]\nradius = 0.005\n";
    let mut s = build(text).unwrap();
    let body = |name: &str| {
        s.bodies
            .iter()
            .find(|b| b.name == name)
            .unwrap()
            .particles
            .clone()
    };
    let (bed, water) = (body("bed"), body("water"));
    let x0: Vec<_> = s.sim.particles().x[bed.clone()].to_vec();
    let axis = |p: &xpbd_core::Vector<3>| ((p.x - 0.1).powi(2) + (p.y - 0.1).powi(2)).sqrt();
    for _ in 0..60 {
        s.step().unwrap();
    }
    let p = s.sim.particles();
    let dx = 0.01;
    // Carried away, by initial layer (0 = top) and distance from the axis.
    let mut carried = [0usize; 3];
    let mut farthest: f64 = 0.0;
    for (a, b) in x0.iter().zip(&p.x[bed.clone()]) {
        if (b - a).norm() > dx {
            carried[((0.03 - a.z) / dx) as usize] += 1;
            farthest = farthest.max(axis(a));
        }
    }
    let wet_far = p.x[water.clone()]
        .iter()
        .zip(&p.inv_mass[water])
        .filter(|(x, w)| **w > 0.0 && axis(x) > 0.08 && x.z < 0.03 + 3.0 * dx)
        .count();
    eprintln!(
        "carried by layer (top first) {carried:?}, farthest from the axis {farthest:.3} m, \
         {wet_far} water particles over the bed beyond 8 cm"
    );
    assert!(carried[0] >= 40, "the jet carried away {carried:?}");
    assert!(
        carried[0] >= carried[1] && carried[1] >= carried[2],
        "scour deeper than at the surface: {carried:?}"
    );
    assert!(
        farthest < 0.08,
        "sand carried {farthest} m from the jet's axis"
    );
    assert!(
        wet_far >= 20,
        "the water did not spread over the bed: {wet_far}"
    );
}
