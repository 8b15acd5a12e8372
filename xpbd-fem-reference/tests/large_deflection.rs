//! Large deflection of a slender 3-D cantilever (L/t = 20) against the inextensible elastica
//! : tip load K = PL²/EI = 1, 3, 10 and self-weight K = qL³/EI = 1, 4, 16, vertical
//! tip deflection within 2 % (and the horizontal shortening within 2 % where it is large,
//! K ≥ 3).
//!
//! Discretisation: quadratic tets, 20 hexes along the length and one across (1 107 DOFs) —
//! the cheapest mesh found to pass; 40 × 2 × 2 (6 075 DOFs) agrees with the tables to 0.5 %.
//! The residual differences are continuum effects the elastica neglects (axial stretch
//! ~PL²/(EA L²) ≈ 0.2 %, shear ~(t/L)², the clamp's Poisson restraint).

use xpbd_core::cantilever::{Cantilever, ELASTICA_SELF_WEIGHT, ELASTICA_TIP_LOAD, ElasticaPoint};
use xpbd_fem_reference::{MaterialKind, solve_cantilever_static};

fn slender() -> Cantilever {
    Cantilever {
        length: 1.0,
        width: 0.05,
        height: 0.05,
        youngs: 1e7,
        poisson: 0.3,
        ..Cantilever::default()
    }
}

fn table(t: &[ElasticaPoint], k: f64) -> ElasticaPoint {
    *t.iter().find(|p| p.k == k).unwrap()
}

fn check(beam: &Cantilever, reference: ElasticaPoint) {
    check_on(beam, reference, 20, 0.02);
}

fn check_on(beam: &Cantilever, reference: ElasticaPoint, cells: usize, tolerance: f64) {
    let sol = solve_cantilever_static(beam, MaterialKind::Hencky, 2, cells).unwrap();
    let dv = -sol.tip_displacement_z / beam.length;
    let dh = -sol.tip_displacement_x / beam.length;
    println!(
        "K {} dofs {} increments {} iterations {} dv {dv:.5} (table {}) dh {dh:.5} (table {})",
        reference.k,
        sol.dofs,
        sol.load_increments,
        sol.newton_iterations,
        reference.vertical,
        reference.horizontal
    );
    assert!(
        (dv - reference.vertical).abs() < tolerance * reference.vertical,
        "vertical {dv} vs {}",
        reference.vertical
    );
    if reference.k >= 3.0 {
        assert!(
            (dh - reference.horizontal).abs() < tolerance * reference.horizontal,
            "horizontal {dh} vs {}",
            reference.horizontal
        );
    }
}

fn tip_load(k: f64) {
    let mut beam = slender();
    beam.gravity = 0.0;
    beam.tip_load = Some(k * beam.bending_stiffness() / beam.length.powi(2));
    assert!((beam.tip_load_parameter() - k).abs() < 1e-12);
    check(&beam, table(&ELASTICA_TIP_LOAD, k));
}

fn self_weight(k: f64) {
    let mut beam = slender();
    // Choose E so that qL³/EI = K.
    beam.youngs = beam.weight_per_length() * beam.length.powi(3) / (k * beam.second_moment());
    assert!((beam.self_weight_parameter() - k).abs() < 1e-9);
    check(&beam, table(&ELASTICA_SELF_WEIGHT, k));
}

#[test]
fn tip_load_k1() {
    tip_load(1.0);
}

#[test]
fn tip_load_k3() {
    tip_load(3.0);
}

#[test]
fn tip_load_k10() {
    tip_load(10.0);
}

#[test]
fn self_weight_k1() {
    self_weight(1.0);
}

#[test]
fn self_weight_k4() {
    self_weight(4.0);
}

#[test]
fn self_weight_k16() {
    self_weight(16.0);
}

/// Refinement evidence: on 40 × 2 × 2 hexes (6 075 DOFs) every case is within 1 % (measured
/// ≤ 0.46 %), so the 2 % agreement above is not a coarse-mesh coincidence.
#[test]
#[ignore = "about 15 s in the dev profile; run with `cargo test -p xpbd-fem-reference --test large_deflection -- --ignored`"]
fn refined_mesh_all_cases_within_one_percent() {
    for k in [1.0, 3.0, 10.0] {
        let mut beam = slender();
        beam.gravity = 0.0;
        beam.tip_load = Some(k * beam.bending_stiffness() / beam.length.powi(2));
        check_on(&beam, table(&ELASTICA_TIP_LOAD, k), 40, 0.01);
    }
    for k in [1.0, 4.0, 16.0] {
        let mut beam = slender();
        beam.youngs = beam.weight_per_length() * beam.length.powi(3) / (k * beam.second_moment());
        check_on(&beam, table(&ELASTICA_SELF_WEIGHT, k), 40, 0.01);
    }
}
