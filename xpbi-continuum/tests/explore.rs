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
