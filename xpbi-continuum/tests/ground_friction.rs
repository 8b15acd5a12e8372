//! Ground friction of XPBI particles through the core's collider contacts
//! (`xpbd_core::contact::ColliderContacts`, the ground of every `ContinuumScene`).

use nalgebra::Vector2;
use xpbi_continuum::material::Material;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};

const G: f64 = 9.81;

/// An elastic block (6 cm × 2 cm, Δx = 1 cm, E = 1e6 Pa) launched along rough ground at `v0`;
/// returns (distance of the centroid until it stops, time it stopped).
fn slide(mu: f64, v0: f64) -> (f64, f64) {
    let dx = 0.01;
    let x = lattice_box(Vector2::new(0.0, 0.0), Vector2::new(0.06, 0.02), dx);
    let mut o = SceneOptions::new(dx);
    o.ground_friction = mu;
    o.threads = 1;
    let mut s = ContinuumScene::<2>::new(&x, Material::elastic(1000.0, 1e6, 0.3), o).unwrap();
    // Settle on the ground first (the lattice starts at exactly ½Δx: no fall).
    for v in s.sim.particles_mut().v.iter_mut() {
        v[0] = v0;
    }
    let centroid = |s: &ContinuumScene<2>| s.positions().iter().map(|p| p[0]).sum::<f64>() / 12.0;
    let start = centroid(&s);
    let mut stopped = f64::NAN;
    while s.sim.time() < 2.0 * v0 / (mu * G) {
        s.step().unwrap();
        let vmean = s.sim.particles().v.iter().map(|v| v[0]).sum::<f64>() / 12.0;
        if vmean < 1e-3 && stopped.is_nan() {
            stopped = s.sim.time();
        }
    }
    (centroid(&s) - start, stopped)
}

/// Coulomb sliding: the block decelerates at μg, so it stops after `v0/(μg)` having travelled
/// `v0²/(2μg)` (rigid-body Coulomb law; the block is stiff, so internal waves carry little
/// energy). Tolerance 1 % (measured 0.1–0.2 %): one substep of sliding (v0 h = 1e-4 m) is negligible, the rest is
/// the block's elastic rocking at the start of the slide.
#[test]
fn sliding_block_stops_at_the_coulomb_distance() {
    for (mu, v0) in [(0.3, 1.0), (0.6, 1.0)] {
        let (d, t) = slide(mu, v0);
        let (d_exact, t_exact) = (v0 * v0 / (2.0 * mu * G), v0 / (mu * G));
        println!(
            "μ = {mu}: stopping distance {d:.4} m (Coulomb {d_exact:.4}), time {t:.4} s ({t_exact:.4})"
        );
        assert!(
            (d - d_exact).abs() < 0.01 * d_exact,
            "distance {d} vs {d_exact}"
        );
        assert!(
            (t - t_exact).abs() < 0.01 * t_exact,
            "time {t} vs {t_exact}"
        );
    }
}
