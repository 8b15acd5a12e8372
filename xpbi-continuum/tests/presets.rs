//! The hardening presets: each builds into a
//! scene that steps, and its return mapping, driven through a random loading path with the
//! hardening state committed after every step (as the continuum does at the end of a step),
//! keeps every projected strain on or inside the yield surface of the state it was projected
//! with.

mod common;

use common::Rng;
use nalgebra::{SVector, Vector2};
use xpbi_continuum::Material;
use xpbi_continuum::plasticity::{
    FrictionCone, Lame, Nacc, PlasticModel, PlasticState, deviatoric,
};
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};

/// Yield function of `model` at strain `eps` with the (frozen) state `state`, ≤ 0 inside,
/// in units of a strain (VM, DP, HB) or scaled to one (NACC), so one tolerance fits all.
fn yield_value<const D: usize>(
    model: &PlasticModel,
    eps: &SVector<f64, D>,
    trial: &SVector<f64, D>,
    state: &PlasticState,
    lame: &Lame,
) -> f64 {
    let d = D as f64;
    match model {
        PlasticModel::Elastic => -1.0,
        // 2μ‖ε̂‖ ≤ σ_Y0 + H q.
        PlasticModel::VonMises(vm) => {
            deviatoric(eps).norm() - vm.yield_radius(state) / (2.0 * lame.mu)
        }
        // ‖ε̂_s‖ + ((dλ + 2μ)/2μ) α(φ(q)) tr ε_s ≤ 0 (ε_s = ε − c₀1; no volume correction).
        PlasticModel::DruckerPrager(dp) => {
            assert!(!dp.volume_correction);
            let eps_s = eps - SVector::<f64, D>::repeat(dp.cohesion);
            if D == 3 && dp.cone == FrictionCone::MohrCoulomb {
                // (τ₁ − τ₃) + tan φ(q) (τ₁ + τ₃) ≤ 0 on the principal Kirchhoff stresses.
                let tau = eps_s * (2.0 * lame.mu) + SVector::repeat(lame.lambda * eps_s.sum());
                let mu_f = dp.friction_angle_at(state).to_radians().tan();
                return ((tau.max() - tau.min()) + mu_f * (tau.max() + tau.min()))
                    / (2.0 * lame.mu);
            }
            let alpha = dp.alpha::<D>(state);
            deviatoric(&eps_s).norm()
                + (d * lame.lambda + 2.0 * lame.mu) / (2.0 * lame.mu) * alpha * eps_s.sum()
        }
        // (1 + 2β)q² + M²(p + βp₀)(p − p₀) ≤ 0 and −βp₀ ≤ p ≤ p₀, scaled by 1/(M p₀)².
        PlasticModel::Nacc(n) => {
            let kappa = Nacc::kappa(lame, D);
            let p0 = n.p0(kappa, state);
            let (p, q) = Nacc::invariants(eps, lame);
            let scale = (n.m(D) * p0).powi(2);
            let tips = ((p - p0) / p0).max((-n.beta * p0 - p) / p0);
            (n.yield_function(p, q, p0, D) / scale).max(tips)
        }
        // τ_Y ≤ s ≤ s_tr when the trial yields; unchanged otherwise.
        PlasticModel::HerschelBulkley(hb) => {
            let (s, s_tr) = (
                2.0 * lame.mu * deviatoric(eps).norm(),
                2.0 * lame.mu * deviatoric(trial).norm(),
            );
            if s_tr <= hb.yield_stress {
                (s - s_tr).abs() / (2.0 * lame.mu)
            } else {
                ((s - s_tr).max(hb.yield_stress - s)) / (2.0 * lame.mu)
            }
        }
    }
}

/// Random loading path: 300 steps of random strain increments (±2 % per component, the trace
/// pulled towards compression or tension in alternate blocks of 50 steps so cones, caps and
/// tips are all reached), projected and committed; returns the number of plastic steps.
fn drive<const D: usize>(name: &str, m: &Material, seed: u64) -> usize {
    let lame = m.lame();
    let mut rng = Rng(seed);
    let mut eps = SVector::<f64, D>::zeros();
    let mut state = PlasticState::default();
    let mut plastic_steps = 0;
    for step in 0..300 {
        // Volumetric part pulled back halfway towards a mean of −1 % or +0.5 % (alternating
        // every 50 steps), deviatoric part a random walk: the path keeps crossing the surface.
        let target = if (step / 50) % 2 == 0 { -0.01 } else { 0.005 };
        let pull = 0.5 * (target - eps.sum()) / D as f64;
        let trial = eps + rng.vector::<D>(-0.02, 0.02) + SVector::repeat(pull);
        let (new, next) = m.plasticity.project_strain(&trial, &state, &lame, 1e-3);
        let y = yield_value(&m.plasticity, &new, &trial, &state, &lame);
        assert!(
            y <= 1e-9,
            "{name} step {step}: yield function {y:e} > 0 (strain {new:?}, state {state:?})"
        );
        if (new - trial).norm() > 1e-12 {
            plastic_steps += 1;
        }
        // Accumulated plastic strain never decreases (VM, DP, HB).
        if !matches!(m.plasticity, PlasticModel::Nacc(_)) {
            assert!(next.hardening >= state.hardening, "{name} step {step}");
        }
        eps = new;
        state = next;
    }
    plastic_steps
}

fn check_preset(name: &str, m: &Material) {
    m.validate().unwrap();
    // Builds into a 2D scene and steps (5 × 1e-4 s, a 4 cm × 8 cm column on the ground).
    let x = lattice_box(Vector2::new(-0.02, 0.0), Vector2::new(0.02, 0.08), 0.01);
    let mut scene = ContinuumScene::<2>::new(&x, *m, SceneOptions::new(0.01)).unwrap();
    for _ in 0..5 {
        scene.step().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    // The path actually reaches the yield surface (the check is not vacuous).
    for seed in 0..3 {
        let n3 = drive::<3>(name, m, seed);
        assert!(n3 > 10, "{name}: never yields ({n3})");
        assert!(
            drive::<2>(name, m, 100 + seed) > 10,
            "{name}: never yields (2D)"
        );
    }
}

#[test]
fn sand_preset_with_klar_hardening() {
    let (name, m) = &Material::hardening_presets()[0];
    assert!(matches!(m.plasticity, PlasticModel::DruckerPrager(dp) if dp.hardening.is_some()));
    check_preset(name, m);
}

#[test]
fn snow_preset_with_nacc_hardening() {
    let (name, m) = &Material::hardening_presets()[1];
    assert!(matches!(m.plasticity, PlasticModel::Nacc(n) if n.xi > 0.0));
    check_preset(name, m);
}

#[test]
fn clay_preset_with_von_mises_hardening() {
    let (name, m) = &Material::hardening_presets()[2];
    assert!(matches!(m.plasticity, PlasticModel::VonMises(v) if v.hardening_modulus > 0.0));
    check_preset(name, m);
}

#[test]
fn metal_preset_with_von_mises_hardening() {
    let (name, m) = &Material::hardening_presets()[3];
    assert!(matches!(m.plasticity, PlasticModel::VonMises(v) if v.hardening_modulus > 0.0));
    check_preset(name, m);
}

#[test]
fn toothpaste_preset() {
    let (name, m) = &Material::hardening_presets()[4];
    check_preset(name, m);
}

#[test]
fn honey_preset() {
    let (name, m) = &Material::hardening_presets()[5];
    check_preset(name, m);
}
