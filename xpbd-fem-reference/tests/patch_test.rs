//! Patch test (Irons): on a mesh with distorted interior nodes, prescribing a linear
//! displacement field `u = A X + b` on the boundary must reproduce it exactly in the interior,
//! for linear and quadratic elements, in 2-D and 3-D, for the linear and a nonlinear material
//! (a homogeneous `F = I + A` has constant stress, hence zero divergence, for any energy).
//!
//! Tolerance `1e-9`: Newton stops at `‖r‖ ≤ 1e-9 · ‖f‖`; with O(1) stiffness and mesh size this
//! bounds the displacement error by ~1e-10. An element with a wrong gradient, quadrature or
//! assembly entry produces O(|A| h) = O(1e-2) errors.

use nalgebra::{Matrix2, Matrix3, SMatrix, SVector, Vector2, Vector3};
use xpbd_core::mesh::{SimplexMesh, TetMesh, TriMesh2};
use xpbd_fem_reference::*;

/// Deterministic pseudo-random numbers in [-1, 1] (xorshift).
fn jitter(seed: &mut u64) -> f64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (*seed % 20001) as f64 / 10000.0 - 1.0
}

fn distort<const D: usize, const K: usize>(
    mesh: &mut SimplexMesh<D, K>,
    lengths: [f64; D],
    h: f64,
) {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for v in &mut mesh.vertices {
        let interior = (0..D).all(|i| v[i] > 1e-9 && v[i] < lengths[i] - 1e-9);
        if interior {
            for i in 0..D {
                v[i] += 0.2 * h * jitter(&mut seed);
            }
        }
    }
    mesh.validate().unwrap();
}

fn run<const D: usize, const K: usize>(
    mesh: &SimplexMesh<D, K>,
    lengths: [f64; D],
    a: SMatrix<f64, D, D>,
    b: SVector<f64, D>,
) {
    for order in [ElementOrder::Linear, ElementOrder::Quadratic] {
        for kind in [
            MaterialKind::Linear,
            MaterialKind::Hencky,
            MaterialKind::StableNeoHookean,
        ] {
            let fem = FemMesh::from_simplex_mesh(mesh, order).unwrap();
            let mut p =
                Problem::new(fem, ConstitutiveModel::new(kind, 10.0, 0.3).unwrap(), 1.0).unwrap();
            let exact: Vec<SVector<f64, D>> = p.mesh.nodes.iter().map(|x| a * x + b).collect();
            let mut interior = 0;
            for (n, x) in p.mesh.nodes.clone().iter().enumerate() {
                let on_boundary =
                    (0..D).any(|i| x[i].abs() < 1e-9 || (x[i] - lengths[i]).abs() < 1e-9);
                if on_boundary {
                    for i in 0..D {
                        p.prescribe(n, i, exact[n][i]).unwrap();
                    }
                } else {
                    interior += 1;
                }
            }
            assert!(interior > 0);
            let sol = solve_static(&p, &StaticSettings::default()).unwrap();
            let err = p
                .nodal_vectors(&sol.displacement)
                .iter()
                .zip(&exact)
                .map(|(u, e)| (u - e).norm())
                .fold(0.0, f64::max);
            assert!(
                err < 1e-9,
                "{order:?} {kind:?} D={D}: max nodal error {err:e}"
            );
        }
    }
}

#[test]
fn patch_test_2d() {
    let lengths = [1.0, 0.8];
    let mut mesh = TriMesh2::rectangle(lengths, [4, 4]).unwrap();
    distort(&mut mesh, lengths, 0.2);
    run(
        &mesh,
        lengths,
        Matrix2::new(0.05, 0.02, -0.01, 0.03),
        Vector2::new(0.01, -0.02),
    );
}

#[test]
fn patch_test_3d() {
    let lengths = [1.0, 0.8, 0.6];
    let mut mesh = TetMesh::box_beam(lengths, [3, 3, 3]).unwrap();
    distort(&mut mesh, lengths, 0.2);
    run(
        &mesh,
        lengths,
        Matrix3::new(0.05, 0.02, -0.01, 0.01, -0.03, 0.02, 0.0, 0.01, 0.04),
        Vector3::new(0.01, -0.02, 0.03),
    );
}
