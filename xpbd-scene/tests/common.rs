#![allow(dead_code)]
use std::path::{Path, PathBuf};

use xpbd_core::Vector;
use xpbd_scene::BuiltScene;

pub fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes")
}

/// Every scene file in `scenes/`, sorted by name.
pub fn scene_files() -> Vec<PathBuf> {
    let mut names: Vec<_> = std::fs::read_dir(scenes_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    names.sort();
    names
}

/// The small hammock: `scenes/sand_hammock.toml` of `frames` frames with a 12 × 12 sheet, a
/// ball of radius 3 cm and damping 8/s (to come to rest in the 1.2 s simulated).
pub fn small_hammock(frames: usize) -> String {
    let (text, _) = shortened("sand_hammock.toml", frames);
    text.replace("resolution = [24, 24]", "resolution = [12, 12]")
        .replace(
            "pins = [[0, 0], [23, 0], [0, 23], [23, 23]]",
            "pins = [[0, 0], [11, 0], [0, 11], [11, 11]]",
        )
        .replace("radius = 0.06 }", "radius = 0.03 }")
        .replace("velocity_damping = 1.0", "velocity_damping = 8.0")
}

pub fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xpbd-scene-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A scene text with `frames` frames instead of the file's.
pub fn shortened(name: &str, frames: usize) -> (String, PathBuf) {
    let path = scenes_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    let mut in_time = false;
    for line in text.lines() {
        if line.starts_with('[') {
            in_time = line.trim() == "[time]";
        }
        if in_time && line.starts_with("frames") {
            out.push_str(&format!("frames = {frames}\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    (out, path)
}

/// Total linear momentum Σ v/w of the free particles, and Σ |v|/w (its scale).
pub fn momentum(s: &BuiltScene) -> (Vector<3>, f64) {
    let p = s.sim.particles();
    let mut total = Vector::<3>::zeros();
    let mut scale = 0.0;
    for (v, &w) in p.v.iter().zip(&p.inv_mass) {
        if w > 0.0 {
            total += v / w;
            scale += v.norm() / w;
        }
    }
    (total, scale)
}

/// Smallest |x_p − x_q| / (r_p + r_q) over particles p, q of different bodies (brute force).
pub fn closest_between_bodies(s: &BuiltScene) -> f64 {
    let x = &s.sim.particles().x;
    let mut worst = f64::INFINITY;
    for (i, a) in s.bodies.iter().enumerate() {
        for b in &s.bodies[i + 1..] {
            for p in a.particles.clone() {
                for q in b.particles.clone() {
                    worst = worst.min((x[p] - x[q]).norm() / (a.radius + b.radius));
                }
            }
        }
    }
    worst
}

/// Lowest z of the cloth surface under (x, y): barycentric interpolation on the cloth triangle
/// whose xy projection contains the point (`None` outside the sheet).
pub fn cloth_height(x: &[Vector<3>], triangles: &[[usize; 3]], at: &Vector<3>) -> Option<f64> {
    let mut best: Option<f64> = None;
    for t in triangles {
        let [a, b, c] = t.map(|i| x[i]);
        let det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
        if det.abs() < 1e-15 {
            continue;
        }
        let l1 = ((at.x - a.x) * (c.y - a.y) - (c.x - a.x) * (at.y - a.y)) / det;
        let l2 = ((b.x - a.x) * (at.y - a.y) - (at.x - a.x) * (b.y - a.y)) / det;
        let l0 = 1.0 - l1 - l2;
        if l0 >= 0.0 && l1 >= 0.0 && l2 >= 0.0 {
            let z = l0 * a.z + l1 * b.z + l2 * c.z;
            best = Some(best.map_or(z, |m: f64| m.min(z)));
        }
    }
    best
}

/// Vertical force the pins carry: minus the z sum over every block of λ/h² ∇C at the pinned
/// particles (the constraints pull the pins down; the supports hold them up).
pub fn pin_force(s: &BuiltScene, h: f64) -> f64 {
    let p = s.sim.particles();
    let mut f = vec![Vector::<3>::zeros(); p.len()];
    for block in s.sim.blocks() {
        block.add_constraint_forces(&p.x, h, &mut f);
    }
    (0..p.len())
        .filter(|&i| p.inv_mass[i] == 0.0)
        .map(|i| -f[i].z)
        .sum()
}

/// Weight of the free particles (N).
pub fn weight(s: &BuiltScene) -> f64 {
    let p = s.sim.particles();
    let g = -s.scene.solver.gravity[2];
    p.inv_mass.iter().filter(|&&w| w > 0.0).map(|w| g / w).sum()
}
