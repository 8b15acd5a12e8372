//! Every scene file parses, builds and runs; builders conserve the masses the scene asks for.
mod common;

use std::path::Path;

use xpbd_scene::{BuiltScene, SceneDesc, build_scene};

fn total_mass(s: &BuiltScene) -> f64 {
    let p = s.sim.particles();
    p.inv_mass
        .iter()
        .filter(|&&w| w > 0.0)
        .map(|w| 1.0 / w)
        .sum()
}

#[test]
fn every_scene_file_builds_and_its_first_frames_stay_finite() {
    let names = common::scene_files();
    assert!(names.len() >= 11, "scenes/ must hold the validation scenes");
    for path in names {
        let mut s = BuiltScene::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(!s.sim.particles().is_empty());
        // Two frames, at most 10 steps (the XPBI scenes take 50-100 steps per frame).
        let steps = (2 * s.scene.time.steps_per_frame).min(10);
        for _ in 0..steps {
            s.step()
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        let p = s.sim.particles();
        assert!(
            p.x.iter()
                .chain(&p.v)
                .all(|x| x.iter().all(|c| c.is_finite()))
        );
    }
}

#[test]
fn cloth_mass_is_density_times_thickness_times_area() {
    let s = BuiltScene::load(&common::scenes_dir().join("cloth_on_sphere.toml")).unwrap();
    // 1500 kg/m³ · 0.5 mm · 1.2 m · 1.2 m = 1.08 kg, no pins; lumped exactly (sum of n
    // equal shares), so only summation round-off (≈ n ε) separates the two.
    assert!((total_mass(&s) - 1.08).abs() < 1e-12, "{}", total_mass(&s));
}

#[test]
fn rope_and_box_masses_follow_the_material() {
    let text = "name = 'm'\n[time]\ndt = 0.01\nframes = 1\n\
        [materials.steel]\ndensity = 8000.0\nyoungs = 2e11\n\
        [[rope]]\nmaterial = 'steel'\nlinks = 10\nstart = [0, 0, 0]\nend = [2, 0, 0]\nradius = 0.01\n\
        [[soft_box]]\nmaterial = 'steel'\nsize = [0.5, 0.2, 0.1]\ncells = [5, 2, 1]\n";
    let s = build_scene(
        SceneDesc::parse(text, Path::new("m.toml")).unwrap(),
        Path::new("m.toml"),
    )
    .unwrap();
    let rope = 8000.0 * std::f64::consts::PI * 1e-4 * 2.0;
    let block = 8000.0 * 0.5 * 0.2 * 0.1;
    // Lumped masses sum to ρ·volume exactly up to round-off of ~10³ additions.
    assert!((total_mass(&s) - rope - block).abs() < 1e-9 * (rope + block));
    assert_eq!(s.topology.segments.len(), 10);
    assert_eq!(s.topology.tets.len(), 6 * 5 * 2);
    // Rope compliance α = l₀/(E A) reaches the constraint block unchanged.
    let d = s.sim.blocks()[0]
        .as_any()
        .downcast_ref::<xpbd_core::constraint::ConstraintBlock<xpbd_core::constraint::DistanceConstraints, 3>>()
        .unwrap();
    let alpha = 0.2 / (2e11 * std::f64::consts::PI * 1e-4);
    assert!((d.kind.compliance[0] - alpha).abs() < 1e-15 * alpha.max(1e-30) + 1e-25);
}

#[test]
fn hanging_chain_scene_reaches_the_analytic_static_stretch() {
    // A vertical chain hanging from the pin: at rest link k (from the bottom, k = 1..n)
    // carries the weight of the k particles below it, T_k = k m g, and stretches by α T_k.
    let text = "name = 'c'\n[time]\ndt = 0.01\nframes = 300\n\
        [solver]\nsubsteps = 2\niterations = 100\nmethod = { kind = 'gauss_seidel' }\n\
        gravity = [0, 0, -9.81]\nvelocity_damping = 5.0\nthreads = 0\n\
        [materials.soft]\ndensity = 1000.0\nyoungs = 1e5\n\
        [[rope]]\nmaterial = 'soft'\nlinks = 5\nstart = [0, 0, 0]\nend = [0, 0, -1]\nradius = 0.01\npin_start = true\n";
    let mut s = build_scene(
        SceneDesc::parse(text, Path::new("c.toml")).unwrap(),
        Path::new("c.toml"),
    )
    .unwrap();
    for _ in 0..600 {
        s.advance_frame().unwrap();
    }
    let x = &s.sim.particles().x;
    let area = std::f64::consts::PI * 1e-4;
    let m = 1000.0 * area * 1.0 / 6.0;
    let alpha = 0.2 / (1e5 * area);
    for link in 0..5 {
        let below = (5 - link) as f64;
        let stretch = (x[link + 1] - x[link]).norm() - 0.2;
        let expected = alpha * below * m * 9.81;
        // Converged XPBD statics are exact (100 GS iterations per substep converge the
        // 5-link chain to round-off); 1e-6 relative covers the residual axial motion left
        // after 6 s with k = 5 1/s damping (at 3 s it was still 3e-5).
        assert!(
            (stretch - expected).abs() < 1e-6 * expected,
            "link {link}: {stretch} vs {expected}"
        );
    }
}
