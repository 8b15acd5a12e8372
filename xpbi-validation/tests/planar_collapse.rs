//! The planar collapse at a = 2 is resolved and right against the laboratory: its toe and
//! height change by under 3 % from 20 to 40 particles across the column (Δt refined with Δx),
//! the toe and the height lie within 10 % of Lube et al.'s (2005) runout law and the
//! laboratory's a^{1/3}, and the laboratory's front lies between the deposit's toe and its
//! connected front (the thin tail the toe leaves out).

use xpbi_validation::planar_collapse::{
    PlanarCollapseConfig, PlanarCollapseReport, laboratory_height, lube_runout, run,
};

fn collapse(n: usize) -> PlanarCollapseReport {
    let mut c = PlanarCollapseConfig::new(2.0, n);
    c.dt_max = 2.5e-4 * 10.0 / n as f64;
    let r = run(&c).unwrap();
    println!(
        "n = {n}: toe {:.4}, thickness front {:.4}, connected front {:.4}, height {:.4}, stopped at {:.2} √(hᵢ/g)",
        r.runout_toe, r.runout_thickness, r.runout_front, r.height, r.stop_time
    );
    r
}

#[test]
fn planar_collapse_at_aspect_two_is_resolved_and_near_the_laboratory() {
    let (coarse, fine) = (collapse(20), collapse(40));
    let (toe, h) = (fine.runout_toe, fine.height);
    assert!(
        (toe - coarse.runout_toe).abs() < 0.03 * toe,
        "toe {} → {toe}",
        coarse.runout_toe
    );
    assert!(
        (h - coarse.height).abs() < 0.03 * h,
        "height {} → {h}",
        coarse.height
    );
    let lab = lube_runout(2.0);
    assert!((toe / lab - 1.0).abs() < 0.1, "toe {toe} against {lab}");
    assert!(
        toe < lab && lab < fine.runout_front,
        "laboratory {lab} outside [toe {toe}, front {}]",
        fine.runout_front
    );
    let h_lab = laboratory_height(2.0);
    assert!((h / h_lab - 1.0).abs() < 0.1, "height {h} against {h_lab}");
}
