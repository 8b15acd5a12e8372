//! Small deflection of a stiff 3-D beam (tip deflection 0.15–0.6 % of L) against
//! Euler–Bernoulli plus the Timoshenko shear term, for a tip load and for self-weight, with the
//! nonlinear Hencky material (the oracle's production energy), on quadratic tets.
//!
//! * ν = 0.3, L/t = 20, 40 × 2 × 2 hexes: tolerance 1 %, measured −0.74 % (self-weight)
//!   and −0.56 % (tip load). The gap is the clamp restraining the Poisson contraction, which beam
//!   theory ignores; it shrinks under refinement only slowly (the clamped edges are singular:
//!   −0.59 % / −0.45 % on 60 × 3 × 3) and is larger for stubbier beams (−1.06 % at L/t = 10).
//! * ν = 0, L/t = 10, 20 × 2 × 2 hexes: no Poisson restraint, so the continuum must match
//!   Timoshenko closely: tolerance 0.2 %, measured −0.02 %.

use xpbd_core::cantilever::Cantilever;
use xpbd_fem_reference::{MaterialKind, solve_cantilever_static};

/// L = 1, W = H = 0.1 (L/t = 10), E = 1e9: self-weight deflection qL⁴/8EI = 1.5e-3 L.
fn stubby(poisson: f64) -> Cantilever {
    Cantilever {
        youngs: 1e9,
        poisson,
        ..Cantilever::default()
    }
}

/// L = 1, W = H = 0.05 (L/t = 20), E = 1e9: self-weight deflection 5.9e-3 L.
fn slender(poisson: f64) -> Cantilever {
    Cantilever {
        width: 0.05,
        height: 0.05,
        ..stubby(poisson)
    }
}

fn with_tip_load(mut b: Cantilever) -> Cantilever {
    // P such that PL³/3EI = 2e-3 L; no gravity.
    b.gravity = 0.0;
    b.tip_load = Some(2e-3 * 3.0 * b.bending_stiffness() / b.length.powi(2));
    b
}

fn check(beam: &Cantilever, cells: usize, tolerance: f64) {
    let sol = solve_cantilever_static(beam, MaterialKind::Hencky, 2, cells).unwrap();
    let reference = beam.timoshenko_tip_deflection();
    let rel = (-sol.tip_displacement_z - reference) / reference;
    println!(
        "dofs {} iterations {} tip z {:.6e} Timoshenko {:.6e} (EB {:.6e}) rel {:+.4}%",
        sol.dofs,
        sol.newton_iterations,
        sol.tip_displacement_z,
        reference,
        beam.euler_bernoulli_tip_deflection(),
        100.0 * rel
    );
    assert!(
        -sol.tip_displacement_z < 0.01 * beam.length,
        "not a small deflection"
    );
    assert!(
        rel.abs() < tolerance,
        "tip deflection off by {:.3} %",
        100.0 * rel
    );
}

#[test]
fn self_weight_within_one_percent() {
    check(&slender(0.3), 40, 0.01);
}

#[test]
fn tip_load_within_one_percent() {
    check(&with_tip_load(slender(0.3)), 40, 0.01);
}

#[test]
fn self_weight_zero_poisson_within_point_two_percent() {
    check(&stubby(0.0), 20, 0.002);
}

#[test]
fn tip_load_zero_poisson_within_point_two_percent() {
    check(&with_tip_load(stubby(0.0)), 20, 0.002);
}
