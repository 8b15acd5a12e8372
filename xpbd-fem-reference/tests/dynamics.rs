//! First bending frequency of a slender beam (L/t = 20, ν = 0.3, quadratic tets 20 × 1 × 1)
//! against f₁ = (1.8751²/2π)√(EI/(ρAL⁴)), within 2 %, two ways:
//!
//! 1. Backward Euler: release the beam from a small static tip deflection (0.5 % of L) and
//!    measure the period from the zero crossings of the tip displacement. Backward Euler damps
//!    the amplitude (|z| = (1 + ω²h²)^(-1/2) per step) but its phase per step is atan(ωh), so the
//!    period is lengthened only by (ωh)²/3 ≈ 0.2 % with 80 steps per period (derived). Higher
//!    modes (ω₂ ≈ 6.3 ω₁) are damped out within a few dozen steps.
//! 2. Modal: the smallest generalised eigenvalue of K φ = ω² M φ at rest (consistent mass).

use nalgebra::Vector3;
use xpbd_core::cantilever::Cantilever;
use xpbd_fem_reference::*;

fn beam() -> Cantilever {
    Cantilever {
        length: 1.0,
        width: 0.05,
        height: 0.05,
        youngs: 1e7,
        poisson: 0.3,
        density: 1000.0,
        gravity: 0.0,
        tip_load: None,
    }
}

#[test]
fn backward_euler_period_matches_first_bending_frequency() {
    let free = beam();
    let f1 = free.first_bending_frequency();
    // Initial state: static deflection under a tip load giving δ ≈ 0.5 % L.
    let loaded = Cantilever {
        tip_load: Some(5e-3 * 3.0 * free.bending_stiffness()),
        ..free
    };
    let static_problem = cantilever_problem_3d(&loaded, MaterialKind::Hencky, 2, 20).unwrap();
    let u0 = solve_static(&static_problem, &StaticSettings::default())
        .unwrap()
        .displacement;
    let problem = cantilever_problem_3d(&free, MaterialKind::Hencky, 2, 20).unwrap();
    let steps_per_period = 80.0;
    let dt = 1.0 / (f1 * steps_per_period);
    let n = problem.dof_count();
    let mut be = BackwardEuler::new(&problem, dt, u0, vec![0.0; n]).unwrap();
    let tip = Vector3::new(1.0, 0.025, 0.025);
    let mut previous = be.point_displacement(&tip).unwrap().z;
    assert!(previous < -4e-3);
    let mut crossings = Vec::new();
    let mut energy = be.mechanical_energy();
    let initial_energy = energy;
    for _ in 0..(3.2 * steps_per_period) as usize {
        be.step().unwrap();
        // Backward Euler is dissipative: the mechanical energy never increases (up to the
        // Newton tolerance, ~1e-9 relative).
        let e = be.mechanical_energy();
        assert!(
            e <= energy + 1e-9 * initial_energy,
            "energy rose from {energy} to {e}"
        );
        energy = e;
        let z = be.point_displacement(&tip).unwrap().z;
        if previous.signum() != z.signum() {
            // Linear interpolation of the crossing time inside the step.
            crossings.push(be.time - dt * z / (z - previous));
        }
        previous = z;
    }
    assert!(
        crossings.len() >= 5,
        "only {} zero crossings",
        crossings.len()
    );
    let half_periods: Vec<f64> = crossings.windows(2).map(|w| w[1] - w[0]).collect();
    let period = 2.0 * half_periods.iter().sum::<f64>() / half_periods.len() as f64;
    let rel = (1.0 / period - f1) / f1;
    println!(
        "f1 {f1:.5} Hz, measured {:.5} Hz ({:+.3} %), {} crossings, Newton iterations {}",
        1.0 / period,
        100.0 * rel,
        crossings.len(),
        be.stats.iterations
    );
    assert!(rel.abs() < 0.02);
    // ... and it does dissipate: amplitude decay (1 + ω²h²)^(-1/2) per step ⇒ energy ratio
    // (1 + (2π/80)²)^(-256) ≈ 0.2 after 256 steps (derived); assert a clear loss.
    assert!(energy < 0.5 * initial_energy && energy > 0.0);
}

#[test]
fn modal_frequency_matches_first_bending_frequency() {
    let b = beam();
    let f1 = b.first_bending_frequency();
    let f3 =
        first_natural_frequency(&cantilever_problem_3d(&b, MaterialKind::Hencky, 2, 20).unwrap())
            .unwrap();
    // 2-D plane-strain twin: EI/(1 − ν²).
    let f2 =
        first_natural_frequency(&cantilever_problem_2d(&b, MaterialKind::Linear, 2, 20).unwrap())
            .unwrap();
    let f1_plane_strain = f1 / (1.0 - b.poisson * b.poisson).sqrt();
    println!("3-D {f3:.5} vs {f1:.5}; 2-D {f2:.5} vs {f1_plane_strain:.5}");
    assert!((f3 - f1).abs() < 0.02 * f1);
    assert!((f2 - f1_plane_strain).abs() < 0.02 * f1_plane_strain);
}
