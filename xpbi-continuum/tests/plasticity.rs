//! Return mappings: property tests over random F.

mod common;

use common::{Rng, random_f};
use nalgebra::{Matrix3, SVector, Vector2, Vector3};
use proptest::prelude::*;
use xpbi_continuum::XpbiError;
use xpbi_continuum::material::Material;
use xpbi_continuum::plasticity::*;

const LAME: Lame = Lame {
    mu: 1.0e5,
    lambda: 1.5e5,
};
const DT: f64 = 1e-3;

fn dev<const D: usize>(e: &SVector<f64, D>) -> SVector<f64, D> {
    deviatoric(e)
}

/// Principal Kirchhoff stress of a Hencky strain.
fn tau<const D: usize>(e: &SVector<f64, D>) -> SVector<f64, D> {
    e * (2.0 * LAME.mu) + SVector::repeat(LAME.lambda * e.sum())
}

fn strain_of(f: &Matrix3<f64>) -> Vector3<f64> {
    principal(f).eps
}

/// Z(Z(F)) = Z(F) with the state frozen at tⁿ (tolerance: round-off of an SVD + exp/log, 1e-10
/// relative to ‖F‖ ≈ 1).
fn assert_idempotent(model: &PlasticModel, f: &Matrix3<f64>, state: &PlasticState) {
    let (fe, _) = model.return_map(f, state, &LAME, DT);
    let (fe2, _) = model.return_map(&fe, state, &LAME, DT);
    assert!(
        (fe2 - fe).norm() < 1e-10 * fe.norm(),
        "not idempotent: {}",
        (fe2 - fe).norm()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Von Mises: ‖dev τ‖ ≤ σ_Y, = σ_Y when yielding; trace kept; idempotent. 1e-9 relative is
    /// round-off of the exp/log round trip through F.
    #[test]
    fn von_mises_projects_onto_cylinder(seed in any::<u64>(), yield_stress in 1e2f64..2e4, hard in 0.0f64..1e5, q0 in 0.0f64..0.1) {
        let mut rng = Rng(seed);
        let f = random_f::<3>(&mut rng, 0.7, 1.3);
        let vm = VonMises { yield_stress, hardening_modulus: hard };
        let state = PlasticState { hardening: q0, ..Default::default() };
        let model = PlasticModel::VonMises(vm);
        let eps = strain_of(&f);
        let (e_new, st) = model.project_strain(&eps, &state, &LAME, DT);
        let radius = vm.yield_radius(&state);
        let s_new = dev(&tau(&e_new)).norm();
        prop_assert!(s_new <= radius * (1.0 + 1e-9));
        if dev(&tau(&eps)).norm() > radius {
            prop_assert!((s_new - radius).abs() < 1e-9 * radius);
            prop_assert!(st.hardening > q0);
        } else {
            prop_assert_eq!(e_new, eps);
        }
        prop_assert!((e_new.sum() - eps.sum()).abs() < 1e-12);
        assert_idempotent(&model, &f, &state);
    }

    /// Drucker–Prager: after projection y = α tr τ + ‖dev τ‖ ≤ 0, = 0 after case III with the
    /// trace kept; case II gives ε = 0 (stress free); idempotent (no volume correction).
    #[test]
    fn drucker_prager_projects_onto_cone(seed in any::<u64>(), phi in 5.0f64..60.0, klar in any::<bool>()) {
        let mut rng = Rng(seed);
        let f = random_f::<3>(&mut rng, 0.7, 1.3);
        // The shear-flow cone (default): √2 tan φ / d; Klár's: triaxial compression.
        let (cone, alpha) = if klar {
            (FrictionCone::TriaxialCompression, drucker_prager_alpha(phi))
        } else {
            (FrictionCone::ShearFlow, 2f64.sqrt() * phi.to_radians().tan() / 3.0)
        };
        let dp = DruckerPrager { cone, ..DruckerPrager::sand(phi) };
        let model = PlasticModel::DruckerPrager(dp);
        let state = PlasticState::default();
        let eps = strain_of(&f);
        let (e_new, _) = model.project_strain(&eps, &state, &LAME, DT);
        let t = tau(&e_new);
        let y = alpha * t.sum() + dev(&t).norm();
        let scale = LAME.mu * eps.norm() + 1.0;
        prop_assert!(y <= 1e-9 * scale, "y = {}", y);
        let t_tr = tau(&eps);
        let case_ii = eps.sum() >= 0.0;
        let case_i = !case_ii && alpha * t_tr.sum() + dev(&t_tr).norm() <= 0.0;
        if case_ii {
            prop_assert!(e_new.norm() < 1e-15);
        } else if case_i {
            prop_assert_eq!(e_new, eps);
        } else {
            prop_assert!(y.abs() <= 1e-9 * scale);
            prop_assert!((e_new.sum() - eps.sum()).abs() < 1e-12);
        }
        assert_idempotent(&model, &f, &state);
    }

    /// The Mohr–Coulomb pyramid, checked on the principal Kirchhoff stresses: after the return
    /// max over planes of `(τ₁ − τ₃) + tan φ (τ₁ + τ₃) ≤ 0`, = 0 when it yielded; trace kept;
    /// the principal order kept; idempotent; and the intermediate stress moves no yield: the
    /// same τ₁, τ₃ with another τ₂ between them yields alike.
    #[test]
    fn mohr_coulomb_projects_onto_pyramid(seed in any::<u64>(), phi in 5.0f64..69.0) {
        let mut rng = Rng(seed);
        let f = random_f::<3>(&mut rng, 0.85, 1.1);
        let mc = PlasticModel::DruckerPrager(DruckerPrager {
            cone: FrictionCone::MohrCoulomb,
            ..DruckerPrager::sand(phi)
        });
        let mu_f = phi.to_radians().tan();
        let pyramid = |t: &Vector3<f64>| {
            let (hi, lo) = (t.max(), t.min());
            (hi - lo) + mu_f * (hi + lo)
        };
        let eps = strain_of(&f);
        let (e_new, _) = mc.project_strain(&eps, &PlasticState::default(), &LAME, DT);
        let (t_tr, t_new) = (tau(&eps), tau(&e_new));
        let scale = t_tr.norm();
        if eps.sum() >= 0.0 {
            prop_assert!(e_new.norm() < 1e-15);
        } else {
            prop_assert!((e_new.sum() - eps.sum()).abs() < 1e-12);
            prop_assert!(pyramid(&t_new) < 1e-10 * scale);
            if pyramid(&t_tr) > 0.0 {
                prop_assert!(pyramid(&t_new).abs() < 1e-10 * scale);
            } else {
                prop_assert_eq!(e_new, eps);
            }
            for i in 0..3 {
                for j in 0..3 {
                    if eps[i] > eps[j] + 1e-12 {
                        prop_assert!(e_new[i] >= e_new[j] - 1e-12, "order {:?} -> {:?}", eps, e_new);
                    }
                }
            }
            // Another τ₂ between the same τ₁ and τ₃: the same yield value (f/4μ).
            let (hi, lo) = (t_tr.max(), t_tr.min());
            let moved = Vector3::new(hi, lo + 0.3 * (hi - lo), lo);
            let strain = |t: &Vector3<f64>| {
                let k = LAME.lambda / (3.0 * LAME.lambda + 2.0 * LAME.mu);
                (t - Vector3::repeat(k * t.sum())) / (2.0 * LAME.mu)
            };
            let e_moved = strain(&moved);
            prop_assert!((tau(&e_moved) - moved).norm() < 1e-9 * scale);
            if e_moved.sum() < 0.0 {
                let st = PlasticState::default();
                let m_a = mc.yield_margin(&eps, &st, &LAME).unwrap();
                let m_b = mc.yield_margin(&e_moved, &st, &LAME).unwrap();
                prop_assert!((m_a - m_b).abs() < 1e-12, "{} vs {}", m_a, m_b);
                prop_assert!((m_a - pyramid(&t_tr) / (4.0 * LAME.mu)).abs() < 1e-12);
            }
        }
        assert_idempotent(&mc, &f, &PlasticState::default());
    }

    /// NACC: after projection y(p, q) ≤ 0; tips land exactly on p₀ / −βp₀ with q = 0; off the tips
    /// the trace is kept and the point lies on the ellipse; idempotent.
    #[test]
    fn nacc_projects_into_ellipse(seed in any::<u64>(), phi in 20.0f64..60.0, beta in 0.0f64..1.0, xi in 0.0f64..10.0, alpha0 in -0.1f64..0.05) {
        let mut rng = Rng(seed);
        let f = random_f::<3>(&mut rng, 0.8, 1.2);
        let nacc = Nacc { friction_angle: phi, beta, xi };
        let model = PlasticModel::Nacc(nacc);
        let state = PlasticState { hardening: alpha0, ..Default::default() };
        let eps = strain_of(&f);
        let kappa = Nacc::kappa(&LAME, 3);
        let p0 = nacc.p0(kappa, &state);
        let (p_tr, _) = Nacc::invariants(&eps, &LAME);
        let (e_new, st) = model.project_strain(&eps, &state, &LAME, DT);
        let (p, q) = Nacc::invariants(&e_new, &LAME);
        let scale = (LAME.mu * eps.norm() + p0).powi(2) + 1.0;
        prop_assert!(nacc.yield_function(p, q, p0, 3) <= 1e-9 * scale);
        if p_tr > p0 {
            prop_assert!((p - p0).abs() <= 1e-9 * p0.max(1.0) && q < 1e-6);
            prop_assert!(st.hardening < alpha0, "compression beyond the cap hardens");
        } else if p_tr < -beta * p0 {
            prop_assert!((p + beta * p0).abs() <= 1e-9 * p0.max(1.0) && q < 1e-6);
        } else {
            prop_assert!((e_new.sum() - eps.sum()).abs() < 1e-12);
            if e_new != eps {
                prop_assert!(nacc.yield_function(p, q, p0, 3).abs() <= 1e-9 * scale);
            }
        }
        assert_idempotent(&model, &f, &state);
    }

    /// Herschel–Bulkley: s ∈ [τ_Y, s_tr]; trace kept; the scalar root satisfies its equation.
    #[test]
    fn herschel_bulkley_relaxes_between_yield_and_trial(seed in any::<u64>(), ty in 0.0f64..5e3, eta in 1e-3f64..1e3, h in 0.2f64..3.0) {
        let mut rng = Rng(seed);
        let f = random_f::<3>(&mut rng, 0.8, 1.2);
        let hb = HerschelBulkley { yield_stress: ty, viscosity: eta, exponent: h };
        let model = PlasticModel::HerschelBulkley(hb);
        let eps = strain_of(&f);
        let s_tr = 2.0 * LAME.mu * dev(&eps).norm();
        let (e_new, _) = model.project_strain(&eps, &PlasticState::default(), &LAME, DT);
        let s = 2.0 * LAME.mu * dev(&e_new).norm();
        prop_assert!((e_new.sum() - eps.sum()).abs() < 1e-12);
        if s_tr <= ty {
            prop_assert_eq!(e_new, eps);
        } else {
            prop_assert!(s >= ty * (1.0 - 1e-12) && s <= s_tr * (1.0 + 1e-12));
            // η^{1/h}(s − s_tr) + 2μΔt (s − τ_Y)^{1/h} = 0, relative to the terms' size.
            let a = eta.powf(1.0 / h) * (s - s_tr);
            let b = 2.0 * LAME.mu * DT * (s - ty).max(0.0).powf(1.0 / h);
            prop_assert!((a + b).abs() <= 1e-8 * (a.abs() + b.abs() + 1e-300), "residual {} vs {}", a + b, b);
            // A second application relaxes further but never below the yield stress.
            let (e2, _) = model.project_strain(&e_new, &PlasticState::default(), &LAME, DT);
            let s2 = 2.0 * LAME.mu * dev(&e2).norm();
            prop_assert!(s2 <= s * (1.0 + 1e-12) && s2 >= ty * (1.0 - 1e-12));
        }
    }

    /// The general solver with h = 1 equals the Bingham closed form t = c/(1+c) (1e-14 absolute on
    /// t ∈ [0,1]: Newton converges quadratically from the bracket midpoint).
    #[test]
    fn herschel_bulkley_bingham_closed_form_equals_solver(c in 0.0f64..1e6) {
        let t = solve_herschel_bulkley(c, 1.0);
        prop_assert!((t - c / (1.0 + c)).abs() < 1e-14);
    }
}

/// η → 0 recovers von Mises: the relaxed stress tends to τ_Y for every exponent.
#[test]
fn herschel_bulkley_zero_viscosity_is_von_mises() {
    let mut rng = Rng(3);
    for _ in 0..50 {
        let f = random_f::<3>(&mut rng, 0.8, 1.2);
        let eps = strain_of(&f);
        let vm = PlasticModel::VonMises(VonMises {
            yield_stress: 500.0,
            hardening_modulus: 0.0,
        });
        let (e_vm, _) = vm.project_strain(&eps, &PlasticState::default(), &LAME, DT);
        for h in [0.5, 1.0, 2.0] {
            let hb = PlasticModel::HerschelBulkley(HerschelBulkley {
                yield_stress: 500.0,
                viscosity: 1e-12,
                exponent: h,
            });
            let (e_hb, _) = hb.project_strain(&eps, &PlasticState::default(), &LAME, DT);
            // Excess stress left: η^{1/h}-scaled, ≤ 1e-6 relative for η = 1e-12, h ≤ 2.
            assert!(
                (e_hb - e_vm).norm() <= 1e-6 * e_vm.norm().max(1e-3),
                "h = {h}: {}",
                (e_hb - e_vm).norm()
            );
        }
    }
}

/// Drucker–Prager volume correction (Tampubolon et al. 2017): a particle that expanded stays stress
/// free when re-compressed by less than the stored volume, and case III consumes the correction.
#[test]
fn drucker_prager_volume_correction_absorbs_recompression() {
    let dp = DruckerPrager {
        volume_correction: true,
        ..DruckerPrager::sand(30.0)
    };
    let model = PlasticModel::DruckerPrager(dp);
    // Expansion: ε = (0.01, 0.01, 0.01) → case II, v_c = 0.03.
    let (e1, s1) =
        model.project_strain(&Vector3::repeat(0.01), &PlasticState::default(), &LAME, DT);
    assert_eq!(e1, Vector3::zeros());
    assert!((s1.volume_correction - 0.03).abs() < 1e-15);
    // Compression by tr ε = −0.02 < v_c: still stress free, correction reduced to 0.01.
    let (e2, s2) = model.project_strain(&Vector3::repeat(-0.02 / 3.0), &s1, &LAME, DT);
    assert_eq!(e2, Vector3::zeros());
    assert!((s2.volume_correction - 0.01).abs() < 1e-15);
    // Without correction the same compression is elastic (stressed).
    let plain = PlasticModel::DruckerPrager(DruckerPrager::sand(30.0));
    let (e3, _) = plain.project_strain(
        &Vector3::repeat(-0.02 / 3.0),
        &PlasticState::default(),
        &LAME,
        DT,
    );
    assert!(e3.sum() < -0.019);
}

/// Klár hardening: φ(0) = 25° for the published constants, and accumulating plastic strain
/// changes the cone (α_DP(q) ≠ α_DP(0)).
#[test]
fn drucker_prager_klar_hardening() {
    let h = KlarHardening::KLAR_2016;
    assert!((h.friction_angle(0.0) - 25.0).abs() < 1e-12);
    assert!((drucker_prager_alpha(25.0) - 0.267765).abs() < 1e-6);
    let dp = DruckerPrager {
        hardening: Some(h),
        ..DruckerPrager::sand(25.0)
    };
    let model = PlasticModel::DruckerPrager(dp);
    let eps = Vector3::new(-0.05, 0.02, 0.0);
    let (_, st) = model.project_strain(&eps, &PlasticState::default(), &LAME, DT);
    assert!(st.hardening > 0.0);
    assert!(dp.friction_angle_at(&st) > 25.0);
}

/// 2D works through the same code (D generic): von Mises radius in 2D.
/// In 2D the pyramid is the shear-flow cone: the same projection, bit for bit.
#[test]
fn mohr_coulomb_in_2d_is_the_shear_flow_cone() {
    let mut rng = Rng(7);
    let cone = |c| {
        PlasticModel::DruckerPrager(DruckerPrager {
            cone: c,
            ..DruckerPrager::sand(32.0)
        })
    };
    let mut yielded = 0;
    for _ in 0..200 {
        let eps = principal(&random_f::<2>(&mut rng, 0.8, 1.2)).eps;
        let st = PlasticState::default();
        let a = cone(FrictionCone::ShearFlow).project_strain(&eps, &st, &LAME, DT);
        let b = cone(FrictionCone::MohrCoulomb).project_strain(&eps, &st, &LAME, DT);
        assert_eq!(a, b);
        yielded += usize::from(a.0 != eps);
    }
    assert!(yielded > 20, "{yielded}");
}

#[test]
fn von_mises_2d() {
    let vm = PlasticModel::VonMises(VonMises {
        yield_stress: 1000.0,
        hardening_modulus: 0.0,
    });
    let (e, _) = vm.project_strain(
        &Vector2::new(0.05, -0.02),
        &PlasticState::default(),
        &LAME,
        DT,
    );
    assert!((2.0 * LAME.mu * deviatoric(&e).norm() - 1000.0).abs() < 1e-9);
    assert!((e.sum() - 0.03).abs() < 1e-15);
}

#[test]
fn error_friction_angle_out_of_range() {
    for bad in [0.0, 90.0, -5.0, 120.0, f64::NAN] {
        let m = Material::sand_with_friction(bad);
        assert!(
            matches!(m.validate(), Err(XpbiError::FrictionAngleOutOfRange { .. })),
            "{bad}"
        );
        let n = PlasticModel::Nacc(Nacc {
            friction_angle: bad,
            beta: 0.5,
            xi: 1.0,
        });
        assert!(matches!(
            n.validate(),
            Err(XpbiError::FrictionAngleOutOfRange { .. })
        ));
    }
}

#[test]
fn error_poisson_ratio_out_of_range() {
    for bad in [0.5, 0.7, -1.0, f64::INFINITY] {
        let m = Material {
            poisson_ratio: bad,
            ..Material::sand()
        };
        assert_eq!(
            m.validate(),
            Err(XpbiError::PoissonRatioOutOfRange { value: bad })
        );
    }
}

#[test]
fn error_invalid_material_parameters() {
    let cases = [
        Material {
            youngs_modulus: 0.0,
            ..Material::sand()
        },
        Material {
            youngs_modulus: -1.0,
            ..Material::sand()
        },
        Material {
            youngs_modulus: f64::NAN,
            ..Material::sand()
        },
        Material {
            density: 0.0,
            ..Material::sand()
        },
        Material {
            density: f64::INFINITY,
            ..Material::sand()
        },
        Material {
            plasticity: PlasticModel::HerschelBulkley(HerschelBulkley {
                yield_stress: 1.0,
                viscosity: 1.0,
                exponent: 0.0,
            }),
            ..Material::toothpaste()
        },
        Material {
            plasticity: PlasticModel::VonMises(VonMises {
                yield_stress: -1.0,
                hardening_modulus: 0.0,
            }),
            ..Material::clay()
        },
        Material {
            plasticity: PlasticModel::Nacc(Nacc {
                friction_angle: 45.0,
                beta: -0.1,
                xi: 1.0,
            }),
            ..Material::snow()
        },
    ];
    for m in cases {
        assert!(
            matches!(m.validate(), Err(XpbiError::InvalidParameter { .. })),
            "{m:?}"
        );
    }
}

/// Every preset is valid and stable under its own return mapping at rest (Z(I) = I).
#[test]
fn presets_are_valid() {
    for m in [
        Material::sand(),
        Material::snow(),
        Material::clay(),
        Material::metal(),
        Material::toothpaste(),
        Material::honey(),
    ] {
        m.validate().unwrap();
        let (fe, _) = m.plasticity.return_map(
            &Matrix3::identity(),
            &PlasticState::default(),
            &m.lame(),
            DT,
        );
        assert!((fe - Matrix3::identity()).norm() < 1e-12, "{m:?}");
    }
}

/// μ(I) with the grains of Jop et al. (2006) on the scenes' sand.
fn mu_i_sand() -> DruckerPrager {
    DruckerPrager {
        inertial: Some(InertialFriction {
            dynamic_angle: 45.0,
            i0: 0.279,
            grain_diameter: 5e-4,
            grain_density: 2650.0,
        }),
        ..DruckerPrager::sand(32.0)
    }
}

/// A trial strain in shear beyond the φ = 32° cone (tr ε < 0).
fn sheared<const D: usize>() -> SVector<f64, D> {
    let mut e = SVector::<f64, D>::repeat(-1e-3);
    e[0] += 4e-3;
    e[D - 1] -= 4e-3;
    e
}

/// μ(I) in the quasi-static limit (a step so long that the plastic rate, hence I, vanishes) is
/// the rate-independent cone of the static angle; at the scenes' step it resists more: the
/// projected deviatoric strain (the shear stress kept) is larger and the plastic increment
/// smaller.
#[test]
fn mu_i_reduces_to_drucker_prager_at_vanishing_rate_and_resists_fast_shear() {
    let plain = PlasticModel::DruckerPrager(DruckerPrager::sand(32.0));
    let rated = PlasticModel::DruckerPrager(mu_i_sand());
    let eps: Vector3<f64> = sheared();
    let s0 = PlasticState::default();
    let (e_plain, q_plain) = plain.project_strain(&eps, &s0, &LAME, DT);
    let (e_slow, _) = rated.project_strain(&eps, &s0, &LAME, 1e12);
    assert!(
        (e_slow - e_plain).norm() < 1e-12 * e_plain.norm(),
        "{e_slow} vs {e_plain}"
    );
    let (e_fast, q_fast) = rated.project_strain(&eps, &s0, &LAME, 1e-4);
    assert!(dev(&e_fast).norm() > 1.01 * dev(&e_plain).norm());
    assert!(q_fast.hardening < q_plain.hardening);
    // The trace is kept, as in the rate-independent case III.
    assert!((e_fast.sum() - eps.sum()).abs() < 1e-15);
}

/// After the μ(I) projection the stress lies on the cone of the friction that its own plastic
/// rate gives: ‖ε̂‖ + ((dλ + 2μ)/(2μ)) α_DP(atan μ(I)) tr ε = 0 with I = √2 (δγ/Δt) d / √(p/ρ_s),
/// in 2D and 3D and over four decades of Δt.
#[test]
fn mu_i_projection_lies_on_its_rate_dependent_cone() {
    fn check<const D: usize>(dt: f64) {
        let dp = mu_i_sand();
        let r = dp.inertial.unwrap();
        let model = PlasticModel::DruckerPrager(dp);
        let eps: SVector<f64, D> = sheared();
        let (e, state) = model.project_strain(&eps, &PlasticState::default(), &LAME, dt);
        let d = D as f64;
        let dgamma = state.hardening;
        assert!((dev(&eps).norm() - dev(&e).norm() - dgamma).abs() < 1e-14);
        let pressure = -(d * LAME.lambda + 2.0 * LAME.mu) * e.sum() / d;
        let i = r.inertial_number(std::f64::consts::SQRT_2 * dgamma / dt, pressure);
        let mu = r.friction(32f64.to_radians().tan(), i);
        // The shear-flow cone: √2 μ / d.
        let alpha = 2f64.sqrt() * mu / d;
        let y =
            dev(&e).norm() + (d * LAME.lambda + 2.0 * LAME.mu) / (2.0 * LAME.mu) * e.sum() * alpha;
        assert!(
            y.abs() < 1e-10 * dev(&e).norm(),
            "D = {D}, dt = {dt}: yield {y:e}"
        );
        assert!(mu > 32f64.to_radians().tan() && mu < 1.0);
    }
    for dt in [1e-6, 1e-5, 1e-4, 1e-3, 1e-2] {
        check::<2>(dt);
        check::<3>(dt);
    }
}

/// μ(I) parameters are checked: φ₂ below φ, non-positive I₀, grain size or density, and μ(I)
/// together with Klár hardening are refused by name.
#[test]
fn mu_i_parameters_are_checked() {
    let ok = mu_i_sand();
    assert!(ok.validate().is_ok());
    let with = |f: &dyn Fn(&mut InertialFriction)| {
        let mut dp = mu_i_sand();
        f(dp.inertial.as_mut().unwrap());
        dp.validate().unwrap_err().to_string()
    };
    assert!(with(&|r| r.dynamic_angle = 30.0).contains("dynamic_angle"));
    assert!(with(&|r| r.i0 = 0.0).contains("i0"));
    assert!(with(&|r| r.grain_diameter = -1.0).contains("grain_diameter"));
    assert!(with(&|r| r.grain_density = f64::NAN).contains("grain_density"));
    let both = DruckerPrager {
        hardening: Some(KlarHardening::KLAR_2016),
        ..mu_i_sand()
    };
    assert!(both.validate().unwrap_err().to_string().contains("mu_i"));
}
