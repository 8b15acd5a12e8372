//! XPBD bodies under adaptive stepping: a step far larger than the default is split so that a
//! cloth is not stretched by a step no user would choose by hand.

use std::path::Path;

use xpbd_scene::{BuiltScene, SceneDesc};

fn scene(dt: f64, frames: usize, extra: &str) -> BuiltScene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes/cloth_two_pins.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("dt = 0.016666666666666666", &format!("dt = {dt}\n{extra}"))
        .replace("frames = 120", &format!("frames = {frames}"));
    let desc = SceneDesc::parse(&text, &path).unwrap();
    xpbd_scene::build_scene(desc, &path).unwrap()
}

/// Largest edge length over rest length of the 32×32 grid (1 m, spacing 1/31 m), along rows
/// and columns.
fn max_stretch(s: &BuiltScene) -> f64 {
    let x = &s.sim.particles().x;
    let n = 32;
    let rest = 1.0 / 31.0;
    let mut worst = 0.0_f64;
    for j in 0..n {
        for i in 0..n {
            let k = j * n + i;
            if i + 1 < n {
                worst = worst.max((x[k + 1] - x[k]).norm() / rest);
            }
            if j + 1 < n {
                worst = worst.max((x[k + n] - x[k]).norm() / rest);
            }
        }
    }
    worst
}

/// At one adaptive step of dt = 1 s (10 substeps × 1 iteration), the hanging cloth used to
/// be advanced in one step and end at 53× its rest length; its edges' travel bound splits the
/// second into steps in which no particle moves more than half an edge per substep, and the
/// sheet stays within 1.5× its rest length (1.39 measured; 1.11 at the fixed default step of
/// 1/60 s, 60 steps).
#[test]
fn a_cloth_at_a_huge_adaptive_step_is_split_by_its_edge_travel_bound() {
    let mut reference = scene(1.0 / 60.0, 60, "");
    for _ in 0..60 {
        reference.advance_frame().unwrap();
    }
    let mut big = scene(1.0, 1, "adaptive = true");
    big.advance_frame().unwrap();
    let (r, b) = (max_stretch(&reference), max_stretch(&big));
    assert!(b < 1.5 && r < 1.15, "adaptive {b}, reference {r}");
    assert!(big.steps.steps > 20, "{:?}", big.steps);
    assert!((big.sim.time() - 1.0).abs() < 1e-12);
}

/// The bound guides adaptive steps only: the same cloth at a fixed step far above it runs
/// (XPBD's distance constraints are stable at any step; the step is the user's choice).
#[test]
fn a_fixed_step_above_the_edge_travel_bound_runs() {
    let mut fixed = scene(0.1, 3, "");
    for _ in 0..3 {
        fixed.advance_frame().unwrap();
    }
    assert_eq!(fixed.steps.steps, 3);
}
