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
