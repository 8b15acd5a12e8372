//! Bodies touching bodies in scene files: momentum across a collision of two continua, no
//! sticking between separate bodies, sand carried by a cloth hammock (force balance at the
//! pins, no crossing), thread-count and checkpoint bit identity, and typed errors.
mod common;

use common::{closest_between_bodies, cloth_height, momentum, pin_force, weight};

use std::path::Path;

use xpbd_core::Vector;
use xpbd_scene::interaction::BodyKind;
use xpbd_scene::{BuiltScene, SceneDesc, SceneError, build_scene};

fn build(text: &str) -> Result<BuiltScene, SceneError> {
    let path = Path::new("coupling.toml");
    build_scene(SceneDesc::parse(text, path)?, path)
}

const TWO_BALLS: &str = "name = 'two balls'\n[time]\ndt = 2e-4\nframes = 40\nsteps_per_frame = 5\n\
    [solver]\nsubsteps = 1\niterations = 10\nmethod = { kind = 'coloured' }\ngravity = [0, 0, 0]\nthreads = 0\n\
    [materials.rubber]\ndensity = 1000.0\nyoungs = 2e5\npoisson = 0.3\n\
    [materials.sand]\npreset = 'sand'\n\
    [[continuum]]\nname = 'left'\nmaterial = 'rubber'\nspacing = 0.01\nvelocity = [2.0, 0.0, 0.0]\n\
    region = { ball = { center = [-0.06, 0.0, 0.0], radius = 0.04 } }\n\
    [[continuum]]\nname = 'right'\nmaterial = 'sand'\nspacing = 0.01\nvelocity = [-0.5, 0.0, 0.0]\n\
    region = { ball = { center = [0.05, 0.013, 0.0], radius = 0.03 } }\n";

/// Two continua (an elastic ball and a sand ball) collide in free space: body contacts and
/// every other correction are mass-weighted pair corrections, so the total momentum is that of
/// the start to rounding; the bodies met (the elastic ball slowed) and no pair of their
/// particles came closer than 90 % of the contact distance (a Gauss–Seidel sweep leaves small
/// overlaps between the iterations' last corrections).
#[test]
fn momentum_is_conserved_when_two_continua_collide_in_free_space() {
    let mut s = build(TWO_BALLS).unwrap();
    assert_eq!(s.bodies.len(), 2);
    let (before, scale) = momentum(&s);
    let left = s.bodies[0].particles.clone();
    let mut closest = f64::INFINITY;
    for _ in 0..s.scene.time.frames {
        s.advance_frame().unwrap();
        let (now, _) = momentum(&s);
        assert!(
            (now - before).norm() <= 1e-9 * scale,
            "frame {}: momentum {before} → {now}",
            s.frame
        );
        closest = closest.min(closest_between_bodies(&s));
    }
    let v = s.sim.particles().v[left.clone()]
        .iter()
        .map(|v| v.x)
        .sum::<f64>()
        / left.len() as f64;
    assert!(
        v < 1.5,
        "the elastic ball did not hit the sand: mean vx {v}"
    );
    assert!(
        closest >= 0.9,
        "closest pair at {closest} of the contact distance"
    );
}

const TWO_BLOCKS: &str = "name = 'blocks'\n[time]\ndt = 1e-3\nframes = 20\n\
    [solver]\nsubsteps = 1\niterations = 10\nmethod = { kind = 'coloured' }\ngravity = [0, 0, 0]\nthreads = 0\n\
    [materials.rubber]\ndensity = 1000.0\nyoungs = 1e5\npoisson = 0.3\n";

/// Two elastic blocks in contact, the left one pulled away by a grip: separate bodies do not
/// stick (the right block does not move), while the same particles as one body follow.
#[test]
fn separate_bodies_do_not_stick_and_one_body_follows() {
    let grip =
        "grips = [{ min = [-0.06, -1, -1], max = [-0.05, 1, 1], velocity = [-0.5, 0, 0] }]\n";
    let two = format!(
        "{TWO_BLOCKS}[[continuum]]\nmaterial = 'rubber'\nspacing = 0.01\n\
         region = {{ box = {{ min = [-0.06, -0.02, -0.02], max = [0.0, 0.02, 0.02] }} }}\n{grip}\
         [[continuum]]\nmaterial = 'rubber'\nspacing = 0.01\n\
         region = {{ box = {{ min = [0.0, -0.02, -0.02], max = [0.06, 0.02, 0.02] }} }}\n"
    );
    let one = format!(
        "{TWO_BLOCKS}[[continuum]]\nmaterial = 'rubber'\nspacing = 0.01\n\
         region = {{ box = {{ min = [-0.06, -0.02, -0.02], max = [0.06, 0.02, 0.02] }} }}\n{grip}"
    );
    let right_centre = |s: &BuiltScene, from: usize, to: usize| {
        let x = &s.sim.particles().x[from..to];
        x.iter().sum::<Vector<3>>() / x.len() as f64
    };
    let mut separate = build(&two).unwrap();
    // The facing layers are Δx apart: exactly in touch (r = ½Δx each).
    assert!((closest_between_bodies(&separate) - 1.0).abs() < 1e-9);
    let (from, to) = (
        separate.bodies[1].particles.start,
        separate.bodies[1].particles.end,
    );
    let start = right_centre(&separate, from, to);
    let mut joined = build(&one).unwrap();
    let n = joined.sim.particles().len();
    // The right half of the single body: the particles with x > 0.
    let right: Vec<usize> = (0..n)
        .filter(|&p| joined.sim.particles().x[p].x > 0.0)
        .collect();
    let joined_centre = |s: &BuiltScene| {
        right
            .iter()
            .map(|&p| s.sim.particles().x[p])
            .sum::<Vector<3>>()
            / right.len() as f64
    };
    let joined_start = joined_centre(&joined);
    for _ in 0..20 {
        separate.advance_frame().unwrap();
        joined.advance_frame().unwrap();
    }
    let moved = (right_centre(&separate, from, to) - start).norm();
    assert!(moved < 1e-6, "the separate block moved {moved} m");
    // The grip moved 1 cm in 20 ms; the bonded half follows by a good part of it.
    let followed = joined_start.x - joined_centre(&joined).x;
    assert!(followed > 2e-3, "the bonded half moved only {followed} m");
}

/// A small hammock: 12 × 12 sheet, a sand ball of 123 particles.
fn hammock(with_sand: bool, frames: usize, threads: usize) -> String {
    let text =
        common::small_hammock(frames).replace("threads = 0", &format!("threads = {threads}"));
    if with_sand {
        text
    } else {
        let cut = text.find("[[continuum]]").unwrap();
        let rest = text[cut..].find("[[collider]]").unwrap();
        format!("{}{}", &text[..cut], &text[cut + rest..])
    }
}

/// Sand at rest in the hammock: the pins carry the weight of sand and cloth (within 2 %), the
/// sheet sags more than when empty, and at no frame is a grain below the cloth surface.
#[test]
fn the_hammock_carries_the_sand_and_no_grain_crosses_it() {
    let frames = 60;
    let mut s = build(&hammock(true, frames, 0)).unwrap();
    let cloth = s
        .bodies
        .iter()
        .find(|b| b.kind == BodyKind::Cloth)
        .unwrap()
        .clone();
    let sand = s
        .bodies
        .iter()
        .find(|b| b.kind == BodyKind::Continuum)
        .unwrap()
        .clone();
    for _ in 0..frames {
        s.advance_frame().unwrap();
        let x = &s.sim.particles().x;
        for p in sand.particles.clone() {
            if let Some(z) = cloth_height(x, &cloth.triangles, &x[p]) {
                assert!(
                    x[p].z > z,
                    "frame {}: grain {p} at z = {} is below the cloth at {z}",
                    s.frame,
                    x[p].z
                );
            }
        }
    }
    let h = s.steps.dt_max / s.scene.solver.substeps as f64;
    assert_eq!(
        s.steps.dt_min, s.steps.dt_max,
        "the last frame took equal steps"
    );
    let (carried, w) = (pin_force(&s, h), weight(&s));
    assert!(
        (carried - w).abs() < 0.02 * w,
        "pins carry {carried} N of {w} N"
    );
    let sag = |s: &BuiltScene| {
        s.sim.particles().x[cloth.particles.clone()]
            .iter()
            .map(|x| x.z)
            .fold(f64::INFINITY, f64::min)
    };
    let mut empty = build(&hammock(false, frames, 0)).unwrap();
    for _ in 0..frames {
        empty.advance_frame().unwrap();
    }
    assert!(
        sag(&s) < sag(&empty) - 1e-3,
        "loaded {} vs empty {}",
        sag(&s),
        sag(&empty)
    );
}

fn bits(s: &BuiltScene) -> Vec<u64> {
    let p = s.sim.particles();
    p.x.iter()
        .chain(&p.v)
        .flat_map(|x| x.iter().map(|c| c.to_bits()))
        .collect()
}

/// Coupled runs give the same bits on 1, 2 and 8 threads: sand in the hammock (point–triangle
/// contact against the sheet) and the two balls colliding (particle–particle body contact).
#[test]
fn coupled_runs_are_bit_identical_for_any_thread_count() {
    // The ball starts 1 cm above the sheet: in touch within the 5 frames.
    let sheet = |threads| hammock(true, 5, threads).replace("0.0, 0.62]", "0.0, 0.54]");
    // The balls 1 cm apart at the start: in touch within the 8 frames.
    let balls = |threads: usize| {
        TWO_BALLS
            .replace("frames = 40", "frames = 8")
            .replace("threads = 0", &format!("threads = {threads}"))
            .replace("[-0.06, 0.0, 0.0]", "[-0.03, 0.0, 0.0]")
    };
    let run = |text: String, block: &str| {
        let mut s = build(&text).unwrap();
        assert!(s.sim.blocks().iter().any(|b| b.name() == block), "{block}");
        for _ in 0..s.scene.time.frames {
            s.advance_frame().unwrap();
        }
        bits(&s)
    };
    for (scene, block) in [
        (&sheet as &dyn Fn(usize) -> String, "point-triangle contact"),
        (&balls, "body contact"),
    ] {
        let one = run(scene(1), block);
        assert_eq!(one, run(scene(2), block), "{block}: 2 threads");
        assert_eq!(one, run(scene(8), block), "{block}: 8 threads");
    }
}

/// A checkpoint of a coupled run restores bit for bit.
#[test]
fn coupled_checkpoint_restores_bit_for_bit() {
    let text = hammock(true, 12, 0);
    let path = common::scenes_dir().join("sand_hammock.toml");
    let mut reference = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let mut saved = None;
    for f in 1..=12 {
        reference.advance_frame().unwrap();
        if f == 8 {
            let file = common::tmp_dir("ckpt-coupled").join("k.ckpt");
            xpbd_scene::Checkpoint::capture(&reference, &text, &path)
                .save(&file)
                .unwrap();
            saved = Some(file);
        }
    }
    let mut restored = xpbd_scene::Checkpoint::load(&saved.unwrap())
        .unwrap()
        .restore()
        .unwrap();
    for _ in 9..=12 {
        restored.advance_frame().unwrap();
    }
    assert!(bits(&restored) == bits(&reference));
}

#[test]
fn bad_interactions_are_typed_errors_naming_field_and_value() {
    let base = hammock(true, 1, 0);
    let with = |extra: &str| build(&format!("{base}{extra}")).unwrap_err();
    let e = with("[[interaction]]\nbodies = ['sand', 'tarp']\n");
    assert!(
        matches!(&e, SceneError::UnknownBody { field, name, .. }
            if field == "interaction[1].bodies[1]" && name == "tarp"),
        "{e}"
    );
    let e = with("[[interaction]]\nbodies = ['sand', 'sand']\n");
    assert!(
        matches!(&e, SceneError::InvalidValue { field, .. } if field == "interaction[1].bodies"),
        "{e}"
    );
    let e = with("[[interaction]]\nbodies = ['hammock', 'continuum[0]']\n");
    assert!(
        matches!(&e, SceneError::InvalidValue { field, reason, .. }
            if field == "interaction[1].bodies" && reason.contains("already listed")),
        "{e}"
    );
    let e = build(&base.replace(
        "friction = 0.5\n\n[[collider]]",
        "friction = -0.1\n\n[[collider]]",
    ))
    .unwrap_err();
    assert!(
        matches!(&e, SceneError::InvalidValue { field, value, .. }
            if field == "interaction[0].friction" && value == "-0.1"),
        "{e}"
    );
    let e = build(&base.replace("name = \"sand\"", "name = \"hammock\"")).unwrap_err();
    assert!(
        matches!(&e, SceneError::InvalidValue { field, .. } if field == "cloth[0].name"),
        "{e}"
    );
    // The sand ball moved down into the sheet: bodies that start inside each other.
    let e =
        build(&base.replace("center = [0.0, 0.0, 0.62]", "center = [0.0, 0.0, 0.51]")).unwrap_err();
    assert!(
        matches!(&e, SceneError::InsideSheet { field, other, distance, required, .. }
            if field == "cloth[0]" && other == "continuum[0]" && distance < required),
        "{e}"
    );
    // A second sand ball on top of the first: particles of two continua closer than Δx.
    let e = build(&format!(
        "{base}[[continuum]]\nmaterial = 'sand'\nspacing = 0.01\n\
         region = {{ ball = {{ center = [0.0, 0.0, 0.64], radius = 0.02 }} }}\n"
    ))
    .unwrap_err();
    assert!(
        matches!(&e, SceneError::Overlap { field, other, distance, required, .. }
            if field == "continuum[0]" && other == "continuum[1]" && distance < required),
        "{e}"
    );
    // The same overlap is accepted once the pair is told not to touch.
    let off = base
        .replace("center = [0.0, 0.0, 0.62]", "center = [0.0, 0.0, 0.51]")
        .replace(
            "friction = 0.5\n\n[[collider]]",
            "contact = false\n\n[[collider]]",
        );
    let s = build(&off).unwrap();
    assert!(s.bodies.len() == 2);
}

/// Two XPBD bodies touch only when an interaction names them (scenes written before bodies
/// touched place them through each other); with one, a rope falls onto a pinned cloth.
#[test]
fn xpbd_bodies_touch_when_an_interaction_names_them() {
    let text = "name = 'r'\n[time]\ndt = 0.005\nframes = 60\n\
        [solver]\nsubsteps = 10\niterations = 1\nmethod = { kind = 'coloured' }\ngravity = [0, 0, -9.81]\nthreads = 0\n\
        [materials.cotton]\ndensity = 1500.0\nyoungs = 5e8\nthickness = 0.0005\n\
        [[cloth]]\nname = 'sheet'\nmaterial = 'cotton'\nresolution = [10, 10]\nsize = [0.5, 0.5]\n\
        origin = [-0.25, -0.25, 0.0]\npins = [[0, 0], [9, 0], [0, 9], [9, 9]]\nbending = 'none'\n\
        [[rope]]\nname = 'cord'\nmaterial = 'cotton'\nlinks = 8\nstart = [-0.1, 0.02, 0.1]\nend = [0.1, 0.02, 0.1]\nradius = 0.005\n\
        [contacts]\nradius = 0.005\n";
    let lowest_rope = |text: &str| {
        let mut s = build(text).unwrap();
        for _ in 0..60 {
            s.advance_frame().unwrap();
        }
        let r = s.bodies[1].particles.clone();
        s.sim.particles().x[r]
            .iter()
            .map(|x| x.z)
            .fold(f64::INFINITY, f64::min)
    };
    // Without an interaction it falls through (free fall of 0.3 s is 0.44 m).
    assert!(lowest_rope(text) < -0.3);
    let held = lowest_rope(&format!(
        "{text}[[interaction]]\nbodies = ['cord', 'sheet']\nfriction = 0.3\n"
    ));
    assert!(held > -0.15, "the rope fell to {held}");
}

/// A cloth dropped on a slumping sand heap rests on it: over the top of the heap every sheet
/// vertex lies between touching and one sand radius above touching (gap to the nearest grain's
/// surface in [r_cloth − 5 %, r_cloth + r_sand]), and the heap keeps every grain (all finite,
/// above the ground, none lost).
#[test]
fn a_cloth_dropped_on_a_sand_heap_rests_on_its_surface() {
    let (text, path) = common::shortened("cloth_on_sand_heap.toml", 30);
    let mut s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let by_name = |n: &str| s.bodies.iter().find(|b| b.name == n).unwrap().clone();
    let (heap, sheet) = (by_name("heap"), by_name("sheet"));
    assert_eq!(
        (heap.kind, sheet.kind),
        (BodyKind::Continuum, BodyKind::Cloth)
    );
    let mass = |s: &BuiltScene| -> f64 {
        heap.particles
            .clone()
            .map(|p| 1.0 / s.sim.particles().inv_mass[p])
            .sum()
    };
    let before = mass(&s);
    for _ in 0..30 {
        s.advance_frame().unwrap();
    }
    let x = &s.sim.particles().x;
    let (r_s, r_c) = (heap.radius, sheet.radius);
    let top = heap.particles.clone().map(|p| x[p].z).fold(0.0, f64::max);
    let mut checked = 0;
    for v in sheet.particles.clone() {
        let xy = (x[v].x * x[v].x + x[v].y * x[v].y).sqrt();
        if xy > 0.03 {
            continue;
        }
        let gap = heap
            .particles
            .clone()
            .map(|q| (x[v] - x[q]).norm() - r_s)
            .fold(f64::INFINITY, f64::min);
        assert!(
            gap >= 0.95 * r_c && gap <= r_c + r_s,
            "vertex {v} at {} (heap top {top}): gap {gap} to the nearest grain",
            x[v]
        );
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} vertices over the heap top");
    assert!(
        heap.particles
            .clone()
            .all(|p| x[p].iter().all(|c| c.is_finite()) && x[p].z > 0.0)
    );
    assert_eq!(mass(&s), before);
}

/// Errors found after parsing name the line the field is written on.
#[test]
fn errors_after_parsing_name_the_line() {
    let base = hammock(true, 1, 0);
    let text = format!("{base}[[interaction]]\nbodies = ['sand', 'tarp']\n");
    let e = SceneDesc::parse(&text, Path::new("h.toml")).unwrap_err();
    let line = text.lines().count();
    assert!(
        matches!(&e, SceneError::UnknownBody { line: l, .. } if *l == line),
        "{e}"
    );
    assert!(
        e.to_string().starts_with(&format!("h.toml:{line}: ")),
        "{e}"
    );
    let text = base.replace(
        "friction = 0.5\n\n[[collider]]",
        "friction = -0.1\n\n[[collider]]",
    );
    let e = SceneDesc::parse(&text, Path::new("h.toml")).unwrap_err();
    let want = text.lines().position(|l| l == "friction = -0.1").unwrap() + 1;
    assert!(
        matches!(&e, SceneError::InvalidValue { line, .. } if *line == want),
        "{e}"
    );
}

/// A sand ball dropped on a soft box lands on its surface (point–triangle against the box's
/// boundary faces, particle contact against its vertices) instead of falling through.
#[test]
fn sand_lands_on_a_soft_body() {
    let text = "name = 's'\n[time]\ndt = 1e-3\nframes = 15\nsteps_per_frame = 20\n\
        [solver]\nsubsteps = 2\niterations = 10\nmethod = { kind = 'coloured' }\ngravity = [0, 0, -9.81]\nthreads = 0\n\
        [materials.rubber]\ndensity = 1000.0\nyoungs = 1e5\npoisson = 0.3\n\
        [materials.sand]\npreset = 'sand'\n\
        [[soft_box]]\nname = 'pad'\nmaterial = 'rubber'\nsize = [0.2, 0.2, 0.05]\ncells = [4, 4, 1]\n\
        origin = [-0.1, -0.1, 0.0]\n\
        [[continuum]]\nname = 'sand'\nmaterial = 'sand'\nspacing = 0.01\n\
        region = { ball = { center = [0.0, 0.0, 0.1], radius = 0.02 } }\n\
        [[collider]]\nshape = { plane = { normal = [0.0, 0.0, 1.0], offset = 0.0 } }\nfriction = 0.5\n\
        [contacts]\nradius = 0.004\n";
    let mut s = build(text).unwrap();
    let pad = s.bodies[0].clone();
    let sand = s.bodies[1].clone();
    assert!(!pad.triangles.is_empty());
    for _ in 0..15 {
        s.advance_frame().unwrap();
    }
    let x = &s.sim.particles().x;
    let top = pad
        .particles
        .clone()
        .map(|p| x[p].z)
        .fold(f64::MIN, f64::max);
    let lowest = sand.particles.map(|p| x[p].z).fold(f64::INFINITY, f64::min);
    // The pad's top is 5 cm up; the sand rests on it (r_sand + r_pad = 9 mm above it).
    assert!(top > 0.045, "the pad collapsed: top at {top}");
    assert!(
        lowest > top,
        "sand at {lowest} is below the pad's top {top}"
    );
}
