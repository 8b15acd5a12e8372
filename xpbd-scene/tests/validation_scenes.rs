//! The validation scene files reproduce their analytic facts (not just "they run").
mod common;

use xpbd_scene::BuiltScene;

/// `scenes/incline_friction.toml`: the rod slides down the 30° incline with the kinetic
/// Coulomb acceleration g (sin θ − μ cos θ) within 2 % (the tolerance; the core's
/// friction derivation predicts it exactly per substep) and stays on the incline surface
/// (normal gap within 1e-9 m of the contact radius).
#[test]
fn incline_scene_slides_with_the_coulomb_acceleration() {
    let mut s = BuiltScene::load(&common::scenes_dir().join("incline_friction.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let theta = 30f64.to_radians();
    let n = xpbd_core::Vector::<3>::new(-theta.sin(), 0.0, theta.cos());
    let t = xpbd_core::Vector::<3>::new(theta.cos(), 0.0, theta.sin());
    for _ in 0..s.scene.time.frames {
        s.advance_frame().unwrap();
    }
    let p = s.sim.particles();
    let v = (p.v[0] + p.v[1]) / 2.0;
    let a_expected = 9.81 * (theta.sin() - 0.3 * theta.cos());
    let a = -v.dot(&t) / s.time();
    assert!(
        ((a - a_expected) / a_expected).abs() < 0.02,
        "a = {a}, expected {a_expected}"
    );
    for x in &p.x {
        assert!(
            (x.dot(&n) - 0.01).abs() < 1e-9,
            "left the incline: {}",
            x.dot(&n)
        );
    }
}

/// `scenes/sand_repose_pour.toml`: the nozzle releases sand at the set rate (after 0.2 s,
/// ρ·A·v·t of sand has left the nozzle, within one lattice layer ρ·A·Δx, A = n_columns Δx²), the
/// released sand falls and no particle ever ends a step below the plate (centre at least the
/// contact radius Δx/2 above it, to 1e-6 m).
#[test]
fn repose_pour_scene_releases_sand_at_the_nozzle_rate_onto_the_plate() {
    let mut s = BuiltScene::load(&common::scenes_dir().join("sand_repose_pour.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let dx = 0.005;
    let rho = s.scene.materials["sand"].density();
    // Lattice columns inside the nozzle: the reservoir particles at the lowest layer.
    let p = s.sim.particles();
    let z_min = p.x.iter().map(|x| x.z).fold(f64::INFINITY, f64::min);
    let columns = p.x.iter().filter(|x| (x.z - z_min).abs() < 1e-9).count() as f64;
    let area = columns * dx * dx;
    let steps = (0.2 / s.scene.time.dt).round() as usize;
    let mut lowest = f64::INFINITY;
    for _ in 0..steps {
        s.step().unwrap();
        lowest = s
            .sim
            .particles()
            .x
            .iter()
            .map(|x| x.z)
            .fold(lowest, f64::min);
    }
    let p = s.sim.particles();
    let released: f64 = p
        .inv_mass
        .iter()
        .filter(|&&w| w > 0.0)
        .map(|w| 1.0 / w)
        .sum();
    let expected = rho * area * 0.1 * (steps as f64 * s.scene.time.dt);
    assert!(
        (released - expected).abs() <= rho * area * dx * (1.0 + 1e-9),
        "released {released} kg, expected {expected} kg"
    );
    assert!(
        lowest >= 0.0025 - 1e-6,
        "a particle went below the plate: {lowest}"
    );
}
