//! The 3D dam break built from a scene description against the 2D validation run and Martin &
//! Moyce: the scene-file fluid, whose walls and bed are plane colliders without boundary
//! particles, surges like the 2D column with sampled walls.

use xpbi_validation::dam_break::{MARTIN_MOYCE_A225, dam_break_front};
use xtask::dam_break_3d::dam_break_front_3d;

/// At Δx = a/20 (16 000 particles in 3D), the 3D front is within 4 % of the 2D one at every
/// instant Martin & Moyce measured (measured: 2.8 % at most, the 3D one behind), and leads the
/// experiment by no more than the 2D one's 20 % bound (measured 13.4 % at most). At a/10 the
/// 3D front happens to sit within 7 % of the experiment, but it is not converged there (it
/// moves 6 % to a/20), so that agreement is not asserted.
#[test]
fn dam_break_in_3d_from_a_scene_description_surges_as_in_2d() {
    let (three, two) = (
        dam_break_front_3d(20.0, 0).unwrap(),
        dam_break_front(20.0, 0).unwrap(),
    );
    for (k, &(t, z)) in MARTIN_MOYCE_A225.iter().enumerate() {
        eprintln!(
            "T = {t:.3}: Z = {:.3} (3D), {:.3} (2D); Martin & Moyce {z:.3}",
            three[k], two[k]
        );
        assert!(
            (three[k] - two[k]).abs() <= 0.04 * two[k],
            "3D {} against 2D {} at T = {t}",
            three[k],
            two[k]
        );
        let lead = three[k] / z - 1.0;
        assert!((-0.05..=0.20).contains(&lead), "lead {lead:.3} at T = {t}");
    }
}
