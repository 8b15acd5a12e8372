//! The WGSL return mappings against xpbi-continuum's f64 `PlasticModel::return_map`.
//!
//! Tolerance: the f32 SVD is accurate to ~4 ε‖F‖ (measured in svd.rs, bound 32 ε); ln and
//! exp of σ ≈ 1 add a few ε; the projection is Lipschitz with constant ≤ 2 in ε except for
//! the direction ε̂/‖ε̂‖, whose error is relative to ‖ε̂‖ (≥ 0.01 for these samples). So
//! 1e-5 · ‖F‖ (≈ 84 ε) bounds F_E and the hardening increment. Samples whose trial state
//! lies within 1e-4 of a case boundary (δγ = 0, tr ε_s = 0) are skipped: there f32 and f64
//! may legitimately pick different branches.

use nalgebra::{Matrix3, Vector3};
use xpbd_gpu::context_for_test;
use xpbd_gpu::testing::return_map_batch;
use xpbi_continuum::plasticity::{
    DruckerPrager, FrictionCone, KlarHardening, Lame, PlasticModel, PlasticState, VonMises,
    deviatoric, principal,
};

fn samples() -> Vec<(Matrix3<f64>, [f64; 2])> {
    let mut s = 0x2545f4914f6cdd1du64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % 20001) as f64 / 10000.0 - 1.0
    };
    (0..300)
        .map(|_| {
            let f = Matrix3::identity() + Matrix3::from_fn(|_, _| 0.15 * next());
            (f, [0.2 * (next() + 1.0), 0.02 * next()])
        })
        .collect()
}

/// Distance of the trial state from the branch boundaries of the model (large = safe).
fn margin(model: &PlasticModel, f: &Matrix3<f64>, st: &PlasticState, lame: &Lame) -> f64 {
    let eps: Vector3<f64> = principal(f).eps;
    match model {
        PlasticModel::VonMises(vm) => {
            (deviatoric(&eps).norm() - vm.yield_radius(st) / (2.0 * lame.mu)).abs()
        }
        PlasticModel::DruckerPrager(dp) => {
            let vc = if dp.volume_correction {
                st.volume_correction
            } else {
                0.0
            };
            let es = eps - Vector3::repeat(dp.cohesion) + Vector3::repeat(vc / 3.0);
            let tr = es.sum();
            let alpha = dp.alpha::<3>(st);
            let dg = deviatoric(&es).norm()
                + (3.0 * lame.lambda + 2.0 * lame.mu) / (2.0 * lame.mu) * tr * alpha;
            tr.abs().min(dg.abs()).min(deviatoric(&es).norm())
        }
        _ => f64::INFINITY,
    }
}

#[test]
fn gpu_return_mappings_match_xpbi_continuum() {
    let Some(ctx) = context_for_test("plasticity").unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    let lame = Lame {
        mu: 1e5,
        lambda: 2e5,
    };
    let klar = KlarHardening::KLAR_2016;
    let cases: Vec<(&str, PlasticModel)> = vec![
        (
            "von Mises",
            PlasticModel::VonMises(VonMises {
                yield_stress: 5e3,
                hardening_modulus: 1e4,
            }),
        ),
        (
            "Drucker-Prager",
            PlasticModel::DruckerPrager(DruckerPrager::sand(30.0)),
        ),
        (
            "Drucker-Prager Klar cohesion volume",
            PlasticModel::DruckerPrager(DruckerPrager {
                friction_angle: 30.0,
                hardening: Some(klar),
                cohesion: 0.01,
                volume_correction: true,
                cone: FrictionCone::TriaxialCompression,
                inertial: None,
            }),
        ),
        (
            "Mohr-Coulomb pyramid",
            PlasticModel::DruckerPrager(DruckerPrager {
                cone: FrictionCone::MohrCoulomb,
                ..DruckerPrager::sand(32.0)
            }),
        ),
        (
            "Mohr-Coulomb pyramid Klar cohesion volume",
            PlasticModel::DruckerPrager(DruckerPrager {
                friction_angle: 30.0,
                hardening: Some(klar),
                cohesion: 0.01,
                volume_correction: true,
                cone: FrictionCone::MohrCoulomb,
                inertial: None,
            }),
        ),
        ("elastic", PlasticModel::Elastic),
    ];
    let items = samples();
    for (name, cpu_model) in cases {
        let gpu = return_map_batch(&ctx, &cpu_model, lame.mu, lame.lambda, &items).unwrap();
        let (mut checked, mut yielded) = (0, 0);
        for (i, ((f, s), (fe_gpu, s_gpu))) in items.iter().zip(&gpu).enumerate() {
            let st = PlasticState {
                hardening: s[0],
                volume_correction: s[1],
            };
            if margin(&cpu_model, f, &st, &lame) < 1e-4 {
                continue;
            }
            let (fe, st_new) = cpu_model.return_map(f, &st, &lame, 1e-3);
            let tol = 1e-5 * f.norm();
            let err = (fe_gpu - fe).norm();
            assert!(err < tol, "{name} #{i}: ‖ΔF_E‖ = {err:e}");
            assert!(
                (s_gpu[0] - st_new.hardening).abs() < tol,
                "{name} #{i}: q {} vs {}",
                s_gpu[0],
                st_new.hardening
            );
            assert!(
                (s_gpu[1] - st_new.volume_correction).abs() < tol,
                "{name} #{i}: v_c"
            );
            checked += 1;
            if (fe - f).norm() > 1e-3 {
                yielded += 1;
            }
        }
        eprintln!("{name}: {checked} samples compared, {yielded} yielded");
        assert!(
            checked > 250,
            "{name}: only {checked} samples away from branch boundaries"
        );
        if !matches!(cpu_model, PlasticModel::Elastic) {
            assert!(
                yielded > 20,
                "{name}: too few samples exercise the projection"
            );
        }
    }
}

/// NACC and Herschel–Bulkley (general exponent by the bracketed scalar solve, and Bingham) in
/// WGSL against xpbi-continuum, over the samples above with compressed hardening states
/// (NACC α = ln J_p ∈ [−0.4, 0]: a cap p₀ of the order of the sampled pressures, so the tips,
/// the ellipse and the elastic region are all exercised).
///
/// Tolerance: as above, 1e-5 ‖F‖ for F_E; the hardening increments are strain-like quantities
/// of the same f32 accuracy (the NACC "fake p" intersection divides by κ, a scale that cancels).
/// Samples within 1e-4 (strain units) of a branch boundary are skipped.
#[test]
fn gpu_nacc_and_herschel_bulkley_match_xpbi_continuum() {
    use xpbi_continuum::plasticity::{HerschelBulkley, Nacc};
    let Some(ctx) = context_for_test("plasticity nacc hb").unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    let lame = Lame {
        mu: 1e5,
        lambda: 2e5,
    };
    let dt = 1e-3;
    let kappa = lame.lambda + 2.0 * lame.mu / 3.0;
    let nacc = Nacc {
        friction_angle: 45.0,
        beta: 0.3,
        xi: 3.0,
    };
    let hb = |yield_stress: f64, viscosity: f64, exponent: f64| HerschelBulkley {
        yield_stress,
        viscosity,
        exponent,
    };
    // η chosen so that c = η^{1/h} (s_tr − τ_Y)^{1−1/h} / (2μΔt) ≈ 1 for the typical excess
    // s_tr − τ_Y ≈ 1.5e4 Pa: the relaxed stress lies well inside [τ_Y, s_tr].
    let cases: Vec<(&str, PlasticModel)> = vec![
        ("NACC", PlasticModel::Nacc(nacc)),
        (
            "Herschel-Bulkley h = 0.5",
            PlasticModel::HerschelBulkley(hb(5e3, 1.7e3, 0.5)),
        ),
        (
            "Herschel-Bulkley h = 2",
            PlasticModel::HerschelBulkley(hb(5e3, 3.0, 2.0)),
        ),
        (
            "Bingham h = 1",
            PlasticModel::HerschelBulkley(hb(5e3, 200.0, 1.0)),
        ),
    ];
    let items: Vec<(Matrix3<f64>, [f64; 2])> = samples()
        .into_iter()
        .map(|(f, s)| (f, [-2.0 * s[0], 0.0]))
        .collect();
    for (name, model) in cases {
        let gpu =
            xpbd_gpu::testing::return_map_batch_dt(&ctx, &model, lame.mu, lame.lambda, dt, &items)
                .unwrap();
        let (mut checked, mut yielded) = (0, 0);
        for (i, ((f, s), (fe_gpu, s_gpu))) in items.iter().zip(&gpu).enumerate() {
            let st = PlasticState {
                hardening: s[0],
                volume_correction: 0.0,
            };
            let eps: Vector3<f64> = principal(f).eps;
            let dev = deviatoric(&eps).norm();
            let margin = match model {
                PlasticModel::Nacc(m) => {
                    let p0 = m.p0(kappa, &st);
                    let (p, q) = Nacc::invariants(&eps, &lame);
                    let y = m.yield_function(p, q, p0, 3);
                    // Distances in strain units: pressure over κ, y over κ² (y ~ p²).
                    ((p - p0) / kappa)
                        .abs()
                        .min(((p + m.beta * p0) / kappa).abs())
                        .min((y / (kappa * kappa)).abs().sqrt())
                        .min(dev)
                }
                PlasticModel::HerschelBulkley(m) => {
                    ((2.0 * lame.mu * dev - m.yield_stress) / (2.0 * lame.mu)).abs()
                }
                _ => f64::INFINITY,
            };
            if margin < 1e-4 {
                continue;
            }
            let (fe, st_new) = model.return_map(f, &st, &lame, dt);
            let tol = 1e-5 * f.norm();
            let err = (fe_gpu - fe).norm();
            assert!(err < tol, "{name} #{i}: ‖ΔF_E‖ = {err:e}");
            assert!(
                (s_gpu[0] - st_new.hardening).abs() < tol,
                "{name} #{i}: hardening {} vs {}",
                s_gpu[0],
                st_new.hardening
            );
            checked += 1;
            if (fe - f).norm() > 1e-3 {
                yielded += 1;
            }
        }
        eprintln!("{name}: {checked} samples compared, {yielded} yielded");
        assert!(
            checked > 200,
            "{name}: only {checked} samples away from branch boundaries"
        );
        assert!(
            yielded > 20,
            "{name}: too few samples exercise the projection"
        );
    }
}
