//! Central finite-difference checks of `Ψ → P` and `P → ∂P/∂F` for every material, on random
//! deformation gradients `F = R₁ diag(s) R₂` (arbitrary rotations, stretches in [0.5, 2]).
//!
//! Tolerance: the central difference error is `h²/6 ‖Ψ'''‖ ≈ 1e-12` for `h = 1e-6` and moduli
//! O(1), plus round-off `ε ‖Ψ‖ / h ≈ 1e-10`; we assert `1e-6` relative to the stress scale,
//! which a wrong sign or missing term (an O(1) error) cannot pass.

use super::*;
use nalgebra::{Matrix2, Matrix3, Rotation2, Rotation3, Vector2, Vector3};
use proptest::prelude::*;

const H: f64 = 1e-6;

fn check_material<const D: usize, M: HyperelasticEnergy<D>>(m: &M, f: &SMatrix<f64, D, D>) {
    let p = m.pk1(f);
    let scale = p.norm().max(1.0);
    let t = m.tangent(f);
    for k in 0..D {
        for l in 0..D {
            let mut e = SMatrix::<f64, D, D>::zeros();
            e[(k, l)] = H;
            // Ψ → P
            let fd_p = (m.psi(&(f + e)) - m.psi(&(f - e))) / (2.0 * H);
            assert!(
                (fd_p - p[(k, l)]).abs() < 1e-6 * scale,
                "P[{k},{l}]: fd {fd_p} vs {}",
                p[(k, l)]
            );
            // P → tangent (and dpk1 == tangent column)
            let fd_t = (m.pk1(&(f + e)) - m.pk1(&(f - e))) / (2.0 * H);
            let tscale = fd_t.norm().max(scale);
            assert!(
                (fd_t - t[k][l]).norm() < 1e-6 * tscale,
                "dP/dF[{k},{l}]:\n{fd_t}\nvs\n{}",
                t[k][l]
            );
            let mut unit = SMatrix::<f64, D, D>::zeros();
            unit[(k, l)] = 1.0;
            assert!((m.dpk1(f, &unit) - t[k][l]).norm() < 1e-9 * tscale);
        }
    }
    // Hyperelastic ⇒ symmetric tangent; projection gives PSD and leaves PSD tangents alone.
    let a = tangent_matrix(&t);
    assert!((&a - a.transpose()).norm() < 1e-8 * a.norm().max(1.0));
    let proj = tangent_matrix(&m.tangent_psd(f));
    assert!(proj.clone().symmetric_eigenvalues().min() > -1e-9 * a.norm().max(1.0));
}

fn materials() -> (HenckyStvk, NeoHookean, StableNeoHookean, LinearElastic) {
    let (mu, lambda) = lame_from_young_poisson(3.0, 0.3);
    (
        HenckyStvk { mu, lambda },
        NeoHookean { mu, lambda },
        StableNeoHookean { mu, lambda },
        LinearElastic { mu, lambda },
    )
}

fn check_all<const D: usize>(f: &SMatrix<f64, D, D>) {
    let (h, nh, snh, lin) = materials();
    check_material(&h, f);
    check_material(&nh, f);
    check_material(&snh, f);
    check_material(&lin, f);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn fd_3d(
        a1 in proptest::array::uniform3(-1.0f64..1.0), t1 in -3.1f64..3.1,
        a2 in proptest::array::uniform3(-1.0f64..1.0), t2 in -3.1f64..3.1,
        s in proptest::array::uniform3(0.5f64..2.0),
    ) {
        let r1 = Rotation3::from_scaled_axis(Vector3::from(a1).normalize() * t1);
        let r2 = Rotation3::from_scaled_axis(Vector3::from(a2).normalize() * t2);
        check_all(&(r1.matrix() * Matrix3::from_diagonal(&Vector3::from(s)) * r2.matrix()));
    }

    #[test]
    fn fd_2d(t1 in -3.1f64..3.1, t2 in -3.1f64..3.1, s in proptest::array::uniform2(0.5f64..2.0)) {
        let f = Rotation2::new(t1).matrix() * Matrix2::from_diagonal(&Vector2::from(s)) * Rotation2::new(t2).matrix();
        check_all(&f);
    }
}

#[test]
fn hencky_tangent_at_repeated_stretches() {
    // σᵢ = σⱼ exercises the removable singularity of (pᵢ − pⱼ)/(σᵢ − σⱼ).
    let r = Rotation3::from_euler_angles(0.3, -1.2, 2.0);
    check_all(&(r.matrix() * 1.3));
    check_all(&Matrix3::identity());
    check_all(&(r.matrix() * Matrix3::from_diagonal(&Vector3::new(1.2, 1.2, 0.7))));
    check_all(&Matrix2::from_diagonal(&Vector2::new(0.8, 0.8)));
}

#[test]
fn all_materials_agree_with_linear_elasticity_at_small_strain() {
    // Same Lamé parameters ⇒ same linearisation at F = I (SNH via λ' = λ + μ).
    let (h, nh, snh, lin) = materials();
    let t_lin = tangent_matrix(&HyperelasticEnergy::<3>::tangent(
        &lin,
        &Matrix3::identity(),
    ));
    for t in [
        HyperelasticEnergy::<3>::tangent(&h, &Matrix3::identity()),
        HyperelasticEnergy::<3>::tangent(&nh, &Matrix3::identity()),
        HyperelasticEnergy::<3>::tangent(&snh, &Matrix3::identity()),
    ] {
        assert!((tangent_matrix(&t) - &t_lin).norm() < 1e-12);
    }
}

#[test]
fn hencky_principal_api_matches_full_f() {
    let (h, ..) = materials();
    let r = Rotation3::from_euler_angles(0.1, 0.7, -0.4);
    let sigma = Vector3::new(1.5, 0.9, 0.6);
    let f = r.matrix() * Matrix3::from_diagonal(&sigma);
    assert!((h.psi_principal(&sigma) - h.psi(&f)).abs() < 1e-12);
    // dΨ/dσ by central differences.
    let g = h.dpsi_dsigma(&sigma);
    let hess = h.d2psi_dsigma2(&sigma);
    for i in 0..3 {
        let mut e = Vector3::zeros();
        e[i] = H;
        let fd = (h.psi_principal(&(sigma + e)) - h.psi_principal(&(sigma - e))) / (2.0 * H);
        assert!((fd - g[i]).abs() < 1e-7);
        let fd2 = (h.dpsi_dsigma(&(sigma + e)) - h.dpsi_dsigma(&(sigma - e))) / (2.0 * H);
        assert!((fd2 - hess.column(i)).norm() < 1e-6);
    }
}

#[test]
fn inadmissible_f_is_reported() {
    let (h, nh, snh, _) = materials();
    let inverted = Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, -0.5));
    assert!(matches!(
        HyperelasticEnergy::<3>::check_admissible(&h, &inverted),
        Err(EnergyError::NonPositiveStretch { sigma }) if (sigma + 0.5).abs() < 1e-12
    ));
    assert_eq!(HyperelasticEnergy::<3>::psi(&h, &inverted), f64::INFINITY);
    assert!(
        HyperelasticEnergy::<3>::pk1(&h, &inverted)
            .iter()
            .all(|x| x.is_finite())
    );
    assert!(matches!(
        HyperelasticEnergy::<3>::check_admissible(&nh, &inverted),
        Err(EnergyError::NonPositiveDeterminant { det }) if (det + 0.5).abs() < 1e-12
    ));
    assert!(HyperelasticEnergy::<3>::check_admissible(&snh, &inverted).is_ok());
    let mut nan = Matrix3::identity();
    nan[(0, 1)] = f64::NAN;
    assert_eq!(
        HyperelasticEnergy::<3>::check_admissible(&snh, &nan),
        Err(EnergyError::NonFinite)
    );
}
