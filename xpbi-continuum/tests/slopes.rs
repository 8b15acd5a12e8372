//! A sand slope below its friction angle stays at rest; one above it flows. Plane strain (2D),
//! Drucker–Prager φ = 32° on the shear-flow cone (`FrictionCone::ShearFlow`: tan φ is the
//! friction of a flowing layer, so a slope stands up to φ; with Klár's triaxial-compression
//! cone the same φ flows on 2D slopes above 26.3°).
//!
//! The step resolves elastic waves here (√(E/ρ) Δt/Δx = 0.59). At √(E/ρ) Δt/Δx ≈ 1.5 (the
//! same slope at Δt = 2.5e-4 s) the free surface of the 20° slope creeps down by ≈ 0.75Δx per
//! second: the step's implicit fixed point is not at rest there (measured; more iterations,
//! Lagrangian kernels, XSPH or the position correction off do not change it, a smaller step
//! does). Collapse studies therefore refine Δt with Δx
//! (`xtask` report, planar section).

use nalgebra::Vector2;
use xpbi_continuum::material::Material;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};

/// The largest displacement over Δx after 1 s of a wedge of slope `theta` (degrees), 0.1 m
/// long, against a frictionless wall, on a rough floor, Δx = 2.5 mm, Δt = 1e-4 s.
fn creep(theta: f64) -> f64 {
    let (l, dx) = (0.1, 0.0025);
    let tan = theta.to_radians().tan();
    let x: Vec<Vector2<f64>> = lattice_box(Vector2::zeros(), Vector2::new(l, l * tan), dx)
        .into_iter()
        .filter(|p| p.y <= (l - p.x) * tan + 0.5 * dx)
        .collect();
    let mut o = SceneOptions::new(dx);
    o.threads = 1;
    o.ground_friction = 1.0;
    let mut s = ContinuumScene::<2>::new(&x, Material::sand_with_friction(32.0), o).unwrap();
    s.add_wall(Vector2::new(1.0, 0.0), 0.0, 0.0).unwrap();
    s.run_until(1.0).unwrap();
    s.positions()
        .iter()
        .zip(&x)
        .map(|(a, b)| (a - b).norm() / dx)
        .fold(0.0, f64::max)
}

#[test]
fn a_slope_below_the_friction_angle_stays_at_rest_and_one_above_it_flows() {
    let (gentle, steep, above) = (creep(20.0), creep(28.0), creep(37.0));
    println!("20°: {gentle:.3} Δx, 28°: {steep:.3} Δx, 37°: {above:.3} Δx");
    assert!(gentle < 0.05, "a 20° slope moved {gentle} Δx in 1 s");
    assert!(steep < 0.1, "a 28° slope moved {steep} Δx in 1 s");
    assert!(above > 5.0, "a 37° slope moved only {above} Δx in 1 s");
}
