//! The physics of two gallery scenes, run from their files: viscoplastic paste poured onto a
//! pinned sheet, and a snowball thrown into a sand bed.
mod common;

use std::path::Path;

use common::{closest_between_bodies, cloth_height};
use xpbd_scene::{BuiltScene, SceneDesc, build_scene};

fn load(name: &str, frames: usize) -> BuiltScene {
    let (text, path) = common::shortened(name, frames);
    build_scene(SceneDesc::parse(&text, &path).unwrap(), Path::new(&path)).unwrap()
}

fn body<'a>(s: &'a BuiltScene, name: &str) -> &'a xpbd_scene::interaction::Body {
    s.bodies.iter().find(|b| b.name == name).unwrap()
}

/// Paste from the nozzle lands on the sheet and stays on it: at every frame every emitted
/// paste particle is over the sheet and at least 90 % of the contact distance (r_paste +
/// r_sheet) above its surface, and by the end paste rests on the sheet (a particle within
/// 10 % of that distance of it).
#[test]
fn paste_lands_on_the_sheet_and_never_crosses_it() {
    let frames = 30;
    let mut s = load("paste_on_sheet.toml", frames);
    let sheet = body(&s, "sheet").clone();
    let paste = body(&s, "paste").clone();
    let d = sheet.radius + paste.radius;
    let mut emitted = 0;
    let mut lowest_gap = f64::INFINITY;
    for _ in 0..frames {
        s.advance_frame().unwrap();
        let p = s.sim.particles();
        emitted = 0;
        lowest_gap = f64::INFINITY;
        for i in paste.particles.clone().filter(|&i| p.inv_mass[i] > 0.0) {
            emitted += 1;
            let under = cloth_height(&p.x, &sheet.triangles, &p.x[i]);
            let under =
                under.unwrap_or_else(|| panic!("frame {}: paste {i} off the sheet", s.frame));
            let gap = p.x[i].z - under;
            assert!(
                gap >= 0.9 * d,
                "frame {}: paste {i} {gap} m above the sheet, contact distance {d}",
                s.frame
            );
            lowest_gap = lowest_gap.min(gap);
        }
    }
    assert!(emitted >= 20, "only {emitted} paste particles emitted");
    assert!(
        lowest_gap <= 1.1 * d,
        "no paste rests on the sheet: lowest {lowest_gap} m above it"
    );
}

/// The snowball hits the bed: the two continua exchange momentum through body contact (the bed,
/// at rest before, is pushed forward by at least a tenth of the ball's momentum within 10 ms of
/// the impact), the ball loses most of its forward momentum, and no snow particle ever comes
/// closer to a sand particle than 90 % of their contact distance.
#[test]
fn the_snowball_pushes_the_bed_and_never_enters_it() {
    let frames = 6;
    let mut s = load("snowball_into_sand.toml", frames);
    let bed = body(&s, "bed").particles.clone();
    let snow = body(&s, "snowball").particles.clone();
    let px = |s: &BuiltScene, r: std::ops::Range<usize>| {
        let p = s.sim.particles();
        r.map(|i| p.v[i].x / p.inv_mass[i]).sum::<f64>()
    };
    let thrown = px(&s, snow.clone());
    assert!(thrown > 0.0);
    let mut pushed = f64::NEG_INFINITY;
    for _ in 0..frames {
        s.advance_frame().unwrap();
        pushed = pushed.max(px(&s, bed.clone()));
        let closest = closest_between_bodies(&s);
        assert!(
            closest >= 0.9,
            "frame {}: bodies at {closest} of the contact distance",
            s.frame
        );
    }
    assert!(
        pushed >= 0.1 * thrown,
        "the bed got {pushed} of the ball's {thrown} kg m/s"
    );
    let left = px(&s, snow);
    assert!(
        left <= 0.5 * thrown,
        "the ball kept {left} of {thrown} kg m/s"
    );
}
