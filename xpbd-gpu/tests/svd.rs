//! The WGSL 3×3 SVD against xpbd-core's f64 rotation-variant SVD.
//!
//! Tolerances: one-sided Jacobi is backward stable, so in f32 the decomposition is exact
//! for a matrix within a few ε‖F‖ of F (ε = 1.19e-7); we allow 32 ε ‖F‖ (the CPU's own
//! error, ~ε_f64‖F‖, is negligible). Singular values are perfectly conditioned (Weyl), so
//! σ_gpu must match σ_cpu to the same bound.

use nalgebra::{Matrix3, Vector3};
use xpbd_core::energy::svd::rotation_variant_svd;
use xpbd_gpu::context_for_test;
use xpbd_gpu::testing::svd3_batch;

const EPS32: f64 = f32::EPSILON as f64;

fn test_matrices() -> Vec<Matrix3<f64>> {
    let mut s = 0x9e3779b97f4a7c15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % 20001) as f64 / 10000.0 - 1.0
    };
    let mut m: Vec<Matrix3<f64>> = (0..200).map(|_| Matrix3::from_fn(|_, _| next())).collect();
    // Near-identity deformation gradients (the common case in XPBI).
    for _ in 0..50 {
        m.push(Matrix3::identity() + Matrix3::from_fn(|_, _| 0.05 * next()));
    }
    let r = nalgebra::Rotation3::from_euler_angles(0.3, -0.7, 1.1).into_inner();
    m.extend([
        Matrix3::zeros(),
        Matrix3::identity(),
        r,                                                          // repeated σ = 1
        r * Matrix3::from_diagonal(&Vector3::new(2.0, 1.0, -0.5)),  // inverted
        Matrix3::new(1.0, 2.0, 3.0, 2.0, 4.0, 6.0, -1.0, 0.5, 0.2), // rank 2
        Matrix3::new(1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 3.0, 6.0, 9.0),  // rank 1
        Matrix3::from_diagonal(&Vector3::new(1e3, 1.0, 1e-3)),      // ill-conditioned
    ]);
    m
}

#[test]
fn gpu_svd_matches_the_cpu_rotation_variant_svd() {
    let Some(ctx) = context_for_test("svd").unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    let ms = test_matrices();
    let gpu = svd3_batch(&ctx, &ms).unwrap();
    assert_eq!(gpu.len(), ms.len());
    let mut worst = 0.0f64;
    for (i, (f, (u, s, v))) in ms.iter().zip(&gpu).enumerate() {
        let norm = f.norm().max(f64::MIN_POSITIVE);
        let tol = 32.0 * EPS32 * norm;
        let (_, s_cpu, _) = rotation_variant_svd(f);
        let recon = (u * Matrix3::from_diagonal(s) * v.transpose() - f).norm();
        let sigma_err = (s - s_cpu).norm();
        worst = worst.max(recon / norm).max(sigma_err / norm);
        assert!(recon <= tol, "#{i}: ‖UΣVᵀ − F‖ = {recon:e} > {tol:e}");
        assert!(sigma_err <= tol, "#{i}: σ {s:?} vs cpu {s_cpu:?}");
        for (name, q) in [("U", u), ("V", v)] {
            assert!(
                (q.transpose() * q - Matrix3::identity()).norm() < 32.0 * EPS32,
                "#{i} {name} not orthogonal"
            );
            assert!(
                (q.determinant() - 1.0).abs() < 32.0 * EPS32,
                "#{i} det {name} = {}",
                q.determinant()
            );
        }
        assert!(s[0] >= 0.0 && s[1] >= 0.0, "#{i}: {s:?}");
        assert!(
            s[0] + tol >= s[1] && s[1] + tol >= s[2].abs(),
            "#{i}: order {s:?}"
        );
        let det = f.determinant();
        if det.abs() > 1e-3 * norm.powi(3) {
            assert_eq!(s[2] < 0.0, det < 0.0, "#{i}: sign of σ₂ vs det F = {det}");
        }
    }
    eprintln!(
        "svd3: worst relative error {worst:e} over {} matrices",
        ms.len()
    );
}
