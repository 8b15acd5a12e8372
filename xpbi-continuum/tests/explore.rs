use nalgebra::Vector2;
use xpbi_continuum::material::Material;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};

#[test]
#[ignore]
fn explore_elastic_block() {
    let dx = 0.01;
    let x = lattice_box(Vector2::new(0.0, 0.0), Vector2::new(0.2, 0.2), dx);
    for (dt, it) in [(5e-4, 20)] {
        let mut o = SceneOptions::new(dx);
        o.dt = dt;
        o.iterations = it;
        o.ground_friction = 0.0;
        o.velocity_damping = 20.0;
        o.threads = std::env::var("T").map(|v| v.parse().unwrap()).unwrap_or(1);
        let mut s = ContinuumScene::<2>::new(&x, Material::elastic(1000.0, 1e5, 0.3), o).unwrap();
        let top: Vec<usize> = (0..x.len()).filter(|&i| x[i][1] > 0.2 - dx).collect();
        let t0 = std::time::Instant::now();
        for k in 0..2 {
            s.run_until(0.1 * (k + 1) as f64).unwrap();
            let sag: f64 = top
                .iter()
                .map(|&i| x[i][1] - s.positions()[i][1])
                .sum::<f64>()
                / top.len() as f64;
            println!("dt {dt} it {it} t {:.2} sag {sag:.6e}", s.sim.time());
        }
        println!("elapsed {:?}", t0.elapsed());
    }
    let analytic = 1000.0 * 9.81 * 0.2f64.powi(2) * (1.0 - 0.09) / (2.0 * 1e5);
    println!("analytic plane strain {analytic:.6e}");
}

#[test]
#[ignore]
fn explore_sand_column() {
    let dx: f64 = std::env::var("DX").map(|v| v.parse().unwrap()).unwrap_or(0.005);
    let dt: f64 = std::env::var("DT").map(|v| v.parse().unwrap()).unwrap_or(1e-4);
    let x = lattice_box(Vector2::new(-0.05, 0.0), Vector2::new(0.05, 0.2), dx);
    for phi in [20.0, 30.0, 40.0] {
        let mut o = SceneOptions::new(dx);
        o.dt = dt;
        o.threads = 1;
        let mut s = ContinuumScene::<2>::new(&x, Material::sand_with_friction(phi), o).unwrap();
        let t0 = std::time::Instant::now();
        for k in 0..8 {
            s.run_until(0.1 * (k + 1) as f64).unwrap();
            let ob = xpbi_continuum::observables::pile_observables(s.positions(), &Vector2::zeros(), dx);
            let ke = s.sim.particles().kinetic_energy();
            println!("phi {phi} t {:.2} {:?} ke {ke:.3e}", s.sim.time(), ob);
        }
        println!("elapsed {:?}", t0.elapsed());
    }
}

#[test]
#[ignore]
fn explore_repose() {
    let dx: f64 = std::env::var("DX").map(|v| v.parse().unwrap()).unwrap_or(0.005);
    let vc = std::env::var("VC").is_ok();
    let x = lattice_box(Vector2::new(0.0, 0.0), Vector2::new(0.2, 0.1), dx);
    for phi in [20.0, 30.0, 40.0] {
        let mut o = SceneOptions::new(dx);
        o.threads = 1;
        o.ground_friction = 1.0;
        o.spacing_constraints = std::env::var("NOSP").is_err();
        if let Ok(d) = std::env::var("DT") { o.dt = d.parse().unwrap(); }
        if let Ok(d) = std::env::var("IT") { o.iterations = d.parse().unwrap(); }
        let mut m = Material::sand_with_friction(phi);
        if let xpbi_continuum::plasticity::PlasticModel::DruckerPrager(dp) = &mut m.plasticity { dp.volume_correction = vc; }
        let mut s = ContinuumScene::<2>::new(&x, m, o).unwrap();
        s.add_wall(Vector2::new(1.0, 0.0), 0.5 * dx, 1.0).unwrap();
        let t0 = std::time::Instant::now();
        for k in 0..6 {
            s.run_until(0.1 * (k + 1) as f64).unwrap();
            let ob = xpbi_continuum::observables::pile_observables(s.positions(), &Vector2::zeros(), dx);
            let ke = s.sim.particles().kinetic_energy();
            println!("phi {phi} t {:.2} h {:.4} runout {:.4} slope {:.2} nn {:.3} {:.3} {:.3} ke {ke:.3e}", s.sim.time(), ob.height, ob.runout, ob.slope_degrees, ob.nn_mean, ob.nn_std, ob.nn_min);
        }
        println!("elapsed {:?}", t0.elapsed());
    }
}

fn disc(c: Vector2<f64>, r: f64, dx: f64) -> Vec<Vector2<f64>> {
    lattice_box(c - Vector2::repeat(r), c + Vector2::repeat(r), dx).into_iter().filter(|p| (p - c).norm() < r).collect()
}

#[test]
#[ignore]
fn explore_snow() {
    let dx = 0.005;
    let x = disc(Vector2::new(0.0, 0.06), 0.05, dx);
    for dt in [1e-4, 5e-4] {
        let mut o = SceneOptions::new(dx);
        o.dt = dt;
        o.threads = 1;
        let mut s = ContinuumScene::<2>::new(&x, Material::snow(), o).unwrap();
        for p in s.sim.particles_mut().v.iter_mut() { p[1] = -3.0; }
        let t0 = std::time::Instant::now();
        for k in 0..3 {
            s.run_until(0.1 * (k + 1) as f64).unwrap();
            let xs = s.positions();
            let foot: Vec<f64> = xs.iter().filter(|p| p[1] < 1.5 * dx).map(|p| p[0]).collect();
            let w = foot.iter().cloned().fold(f64::NEG_INFINITY, f64::max) - foot.iter().cloned().fold(f64::INFINITY, f64::min);
            let h = xs.iter().map(|p| p[1]).fold(0.0, f64::max);
            println!("dt {dt} t {:.2} footprint {w:.4} height {h:.4} n_ground {}", s.sim.time(), foot.len());
        }
        println!("elapsed {:?}", t0.elapsed());
    }
}

#[test]
#[ignore]
fn explore_notched() {
    let dx = 0.005;
    // 0.2 × 0.1 block with a V notch from the top centre down to half height, lifted 0.05 m.
    let x: Vec<_> = lattice_box(Vector2::new(-0.1, 0.05), Vector2::new(0.1, 0.15), dx)
        .into_iter()
        .filter(|p| !(p[1] > 0.1 + p[0].abs()))
        .collect();
    for in_loop in [true, false] {
        let mut o = SceneOptions::new(dx);
        o.threads = 1;
        o.plasticity_in_loop = in_loop;
        let mut s = ContinuumScene::<2>::new(&x, Material::sand(), o).unwrap();
        let t0 = std::time::Instant::now();
        for k in 0..4 {
            s.run_until(0.1 * (k + 1) as f64).unwrap();
            let ob = xpbi_continuum::observables::pile_observables(s.positions(), &Vector2::zeros(), dx);
            let xs = s.positions();
            let spread = xs.iter().map(|p| p[0]).fold(f64::NEG_INFINITY, f64::max) - xs.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min);
            println!("in_loop {in_loop} t {:.2} spread {spread:.4} {ob:?}", s.sim.time());
        }
        println!("elapsed {:?}", t0.elapsed());
    }
}
