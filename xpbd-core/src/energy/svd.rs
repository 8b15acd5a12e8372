//! Rotation-variant singular value decomposition for small square matrices.
//!
//! `F = U Σ Vᵀ` with `U`, `V` proper rotations (`det = +1`) and the singular values sorted in
//! decreasing order; when `det F < 0` the sign is put on the **smallest** singular value, so an
//! inverted element shows up as `σ_D < 0` (Irving, Teran & Fedkiw 2004, "Invertible finite
//! elements", §5; the convention every XPBI/MPM return mapping assumes).
//!
//! The decomposition is computed with one-sided (Hestenes) Jacobi rotations on the columns of
//! `F`: each sweep orthogonalises every column pair `(p, q)` with the rotation that zeroes
//! `f_p · f_q` (Demmel & Veselić 1992). It is dimension-generic, allocation-free and accurate to
//! a few ulps relative to `‖F‖`, including for rank-deficient `F` (a zero column is completed to
//! an orthonormal basis).

use super::determinant;
use nalgebra::{SMatrix, SVector};

/// Largest number of Jacobi sweeps; `D ≤ 3` converges in 3–6 sweeps to machine precision.
const MAX_SWEEPS: usize = 40;

/// Orthogonality to which [`rotation_variant_svd_tracked`] rotates: column pairs whose cosine
/// is below `√ε` are left as they are. The columns then give `U` orthogonal to `√ε` and `σ` to
/// `ε` relative where the singular values are apart, to `√ε / 2` inside a cluster (where the
/// rotation that full precision would still apply is large but changes `U diag(d)` by as
/// little). Measured on the flowing 16k sand column: 37 % fewer rotations than rotating to `ε`,
/// with a deposit identical to five digits.
pub const TRACKED_ORTHOGONALITY: f64 = 1.4901161193847656e-8;

/// Rotation-variant SVD of a `D × D` matrix.
///
/// Returns `(U, σ, V)` with `F = U diag(σ) Vᵀ`, `det U = det V = +1`, `|σ₀| ≥ … ≥ |σ_{D−1}|`,
/// `σ₀ … σ_{D−2} ≥ 0` and `sign(σ_{D−1}) = sign(det F)`.
///
/// ```
/// use nalgebra::Matrix3;
/// use xpbd_core::energy::svd::rotation_variant_svd;
/// // A reflection (inverted element): det F < 0.
/// let f = Matrix3::new(2.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -0.5);
/// let (u, sigma, v) = rotation_variant_svd(&f);
/// assert!((u.determinant() - 1.0).abs() < 1e-12 && (v.determinant() - 1.0).abs() < 1e-12);
/// assert!((sigma[0] - 2.0).abs() < 1e-12 && (sigma[2] + 0.5).abs() < 1e-12);
/// assert!((u * Matrix3::from_diagonal(&sigma) * v.transpose() - f).norm() < 1e-12);
/// ```
pub fn rotation_variant_svd<const D: usize>(
    f: &SMatrix<f64, D, D>,
) -> (SMatrix<f64, D, D>, SVector<f64, D>, SMatrix<f64, D, D>) {
    jacobi_svd(f, *f, SMatrix::identity())
}

/// [`rotation_variant_svd`] warm-started from a guess `V₀` of the right singular vectors (an
/// orthogonal matrix, e.g. the `V` of a nearby matrix): the Jacobi sweeps run on `F V₀`, whose
/// columns are already nearly orthogonal when `V₀` is close, so fewer sweeps are needed; the
/// result satisfies the same contract (`F = U diag(σ) Vᵀ`, rotations, sign convention).
///
/// ```
/// use nalgebra::Matrix3;
/// use xpbd_core::energy::svd::{rotation_variant_svd, rotation_variant_svd_from};
/// let f = Matrix3::new(1.2, 0.3, 0.0, -0.1, 0.9, 0.2, 0.05, 0.0, 1.1);
/// let (_, s0, v0) = rotation_variant_svd(&f);
/// let g = f + Matrix3::repeat(1e-3);
/// let (u, s, v) = rotation_variant_svd_from(&g, &v0);
/// assert!((u * Matrix3::from_diagonal(&s) * v.transpose() - g).norm() < 1e-13);
/// assert!((s - rotation_variant_svd(&g).1).norm() < 1e-13 && (s - s0).norm() < 1e-2);
/// ```
pub fn rotation_variant_svd_from<const D: usize>(
    f: &SMatrix<f64, D, D>,
    v0: &SMatrix<f64, D, D>,
) -> (SMatrix<f64, D, D>, SVector<f64, D>, SMatrix<f64, D, D>) {
    jacobi_svd(f, f * v0, *v0)
}

/// [`rotation_variant_svd_from`] for a caller that keeps `A = F V₀` and, instead of `V₀`, its
/// image `M = B V₀` under some fixed matrix `B` (e.g. `B = Fⁿ` when `F = (I + H) Fⁿ`, so that
/// `A = (I + H) M` and `∂C/∂F Fⁿᵀ = U diag(d) Mᵀ` need no `V`). `V₀` must be a proper rotation
/// (`det V₀ = +1`, as every `V` this module returns). Returns `(U, σ)` of `F = U diag(σ) Vᵀ`
/// with the contract of [`rotation_variant_svd`] and replaces `m` by `B V`; `V` itself is not
/// formed (its determinant is the sign of the sorting permutation, `det V₀ = +1`).
///
/// The Jacobi sweeps of [`rotation_variant_svd_from`], except that they stop at the
/// orthogonality [`TRACKED_ORTHOGONALITY`] (`√ε`) instead of `ε` (this is the SVD of an
/// iterative solver's inner loop, evaluated again at the next iteration), the degenerate-column
/// threshold is taken relative to the largest column norm of `A` instead of `max |F_ij|` (they
/// differ by at most a factor `√D`), and an `A` whose squared norm is zero or not finite gives
/// `U = I`, `σ = diag A`.
/// ```
/// use nalgebra::Matrix3;
/// use xpbd_core::energy::svd::{rotation_variant_svd, rotation_variant_svd_tracked};
/// let fn_ = Matrix3::new(1.1, 0.2, 0.0, -0.1, 0.9, 0.1, 0.0, 0.05, 1.0);
/// let (_, _, v0) = rotation_variant_svd(&fn_);
/// let h = Matrix3::new(0.01, 0.02, 0.0, 0.0, -0.03, 0.01, 0.02, 0.0, 0.01);
/// let f = (Matrix3::identity() + h) * fn_;
/// let mut m = fn_ * v0;
/// let a = m + h * m;
/// let (u, s) = rotation_variant_svd_tracked(&a, &mut m);
/// let (u_ref, s_ref, v_ref) = rotation_variant_svd(&f);
/// assert!((s - s_ref).norm() < 1e-14 && (u - u_ref).norm() < 1e-7);
/// assert!((m - fn_ * v_ref).norm() < 1e-7);
/// ```
#[inline(always)]
pub fn rotation_variant_svd_tracked<const D: usize>(
    a: &SMatrix<f64, D, D>,
    m: &mut SMatrix<f64, D, D>,
) -> (SMatrix<f64, D, D>, SVector<f64, D>) {
    let mut cols: [[f64; D]; D] = core::array::from_fn(|j| core::array::from_fn(|i| a[(i, j)]));
    let n2: [f64; D] = core::array::from_fn(|j| dot(&cols[j], &cols[j]));
    let total: f64 = n2.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        let sigma = SVector::<f64, D>::from_fn(|i, _| a[(i, i)]);
        return (SMatrix::identity(), sigma);
    }
    // The largest column norm: max |A_ij| ≤ scale ≤ √D max |A_ij|.
    let scale = n2.iter().fold(0.0f64, |s, &v| s.max(v)).sqrt();
    let mut w: [[f64; D]; D] = core::array::from_fn(|j| core::array::from_fn(|i| m[(i, j)]));
    let n2 = if moderate(&n2) {
        sweeps::<D, true>(&mut cols, &mut w, n2, TRACKED_ORTHOGONALITY)
    } else {
        sweeps::<D, false>(&mut cols, &mut w, n2, TRACKED_ORTHOGONALITY)
    };
    let (mut u, mut sigma, order) = sorted_left_vectors(&cols, &n2, scale);
    for (dst, &src) in order.iter().enumerate() {
        for k in 0..D {
            m[(k, dst)] = w[src][k];
        }
    }
    if determinant(&u) < 0.0 {
        negate_column(&mut u, D - 1);
        sigma[D - 1] = -sigma[D - 1];
    }
    if odd_permutation(&order) {
        negate_column(m, D - 1);
        sigma[D - 1] = -sigma[D - 1];
    }
    (u, sigma)
}

/// One-sided Jacobi on `a = F V₀` accumulating `V = V₀ · rotations`.
///
/// The columns are kept as plain arrays (`[[f64; D]; D]`, column `j` = `cols[j]`) so that the
/// pair loops unroll for the small `D` of interest; the arithmetic (and hence the result, bit
/// for bit) is that of the textbook loop over `a[(k, p)]`.
fn jacobi_svd<const D: usize>(
    f: &SMatrix<f64, D, D>,
    a: SMatrix<f64, D, D>,
    v: SMatrix<f64, D, D>,
) -> (SMatrix<f64, D, D>, SVector<f64, D>, SMatrix<f64, D, D>) {
    let scale = f.abs().max();
    if scale == 0.0 || !scale.is_finite() {
        // Zero (or non-finite) input: U = V = I, σ = |diag| (zeros, or NaN propagated honestly).
        let sigma = SVector::<f64, D>::from_fn(|i, _| f[(i, i)]);
        return (SMatrix::identity(), sigma, SMatrix::identity());
    }
    let mut a: [[f64; D]; D] = core::array::from_fn(|j| core::array::from_fn(|i| a[(i, j)]));
    let mut v: [[f64; D]; D] = core::array::from_fn(|j| core::array::from_fn(|i| v[(i, j)]));
    let n2 = core::array::from_fn(|j| dot(&a[j], &a[j]));
    let n2 = if moderate(&n2) {
        sweeps::<D, true>(&mut a, &mut v, n2, f64::EPSILON)
    } else {
        sweeps::<D, false>(&mut a, &mut v, n2, f64::EPSILON)
    };
    let (mut u, mut sigma, order) = sorted_left_vectors(&a, &n2, scale);
    let mut v_sorted = SMatrix::<f64, D, D>::zeros();
    for (dst, &src) in order.iter().enumerate() {
        for k in 0..D {
            v_sorted[(k, dst)] = v[src][k];
        }
    }
    // Make U and V proper rotations; the sign goes on the smallest singular value.
    if determinant(&u) < 0.0 {
        negate_column(&mut u, D - 1);
        sigma[D - 1] = -sigma[D - 1];
    }
    if determinant(&v_sorted) < 0.0 {
        negate_column(&mut v_sorted, D - 1);
        sigma[D - 1] = -sigma[D - 1];
    }
    (u, sigma, v_sorted)
}

/// Cyclic Jacobi sweeps on the columns of `a`, each rotation also applied to the companion `v`,
/// from the squared column norms `n2` of `a` until a sweep rotates nothing (every pair's
/// cosine at most `tol`, [`jacobi_pair`]). Returns the squared
/// column norms, kept up to date (recomputed after each rotation of a column, so that a pair
/// that does not rotate, the whole last sweep and the final singular values reuse them: the
/// same dot products in the same order as recomputing them, hence the same bits).
#[inline(always)]
fn sweeps<const D: usize, const MODERATE: bool>(
    a: &mut [[f64; D]; D],
    v: &mut [[f64; D]; D],
    mut n2: [f64; D],
    tol: f64,
) -> [f64; D] {
    for _ in 0..MAX_SWEEPS {
        // The pairs in cyclic order; spelled out for D ≤ 3 so that every index is a constant.
        let rotated = match D {
            2 => jacobi_pair::<D, MODERATE>(a, v, &mut n2, 0, 1, tol),
            3 => {
                let r01 = jacobi_pair::<D, MODERATE>(a, v, &mut n2, 0, 1, tol);
                let r02 = jacobi_pair::<D, MODERATE>(a, v, &mut n2, 0, 2, tol);
                let r12 = jacobi_pair::<D, MODERATE>(a, v, &mut n2, 1, 2, tol);
                r01 | r02 | r12
            }
            _ => {
                let mut rotated = false;
                for p in 0..D {
                    for q in (p + 1)..D {
                        rotated |= jacobi_pair::<D, MODERATE>(a, v, &mut n2, p, q, tol);
                    }
                }
                rotated
            }
        };
        if !rotated {
            break;
        }
    }
    n2
}

/// `U` (columns `a_j / ‖a_j‖`, a numerically zero column completed to an orthonormal basis),
/// `σ = ‖a_j‖` sorted in decreasing order (stable insertion sort: equal norms keep their column
/// order) and the sorting permutation (`order[dst] = src`); no sign fixed yet.
#[inline(always)]
#[allow(clippy::type_complexity)]
fn sorted_left_vectors<const D: usize>(
    a: &[[f64; D]; D],
    n2: &[f64; D],
    scale: f64,
) -> (SMatrix<f64, D, D>, SVector<f64, D>, [usize; D]) {
    let norms: [f64; D] = core::array::from_fn(|j| n2[j].sqrt());
    let mut order: [usize; D] = core::array::from_fn(|j| j);
    for i in 1..D {
        let mut j = i;
        while j > 0 && norms[order[j - 1]].total_cmp(&norms[order[j]]).is_lt() {
            order.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut u = SMatrix::<f64, D, D>::zeros();
    let mut sigma = SVector::<f64, D>::zeros();
    let tiny = scale * f64::EPSILON * 4.0;
    let mut degenerate = false;
    for (dst, &src) in order.iter().enumerate() {
        sigma[dst] = norms[src];
        if norms[src] > tiny {
            // One division per column (normal range: norms[src] > 4ε·scale).
            let inv = 1.0 / norms[src];
            for k in 0..D {
                u[(k, dst)] = a[src][k] * inv;
            }
        } else {
            sigma[dst] = 0.0;
            degenerate = true;
        }
    }
    if degenerate {
        complete_orthonormal_columns(&mut u, &sigma, tiny);
    }
    (u, sigma, order)
}

/// Whether the permutation `order` is odd (its matrix has determinant −1).
#[inline(always)]
fn odd_permutation<const D: usize>(order: &[usize; D]) -> bool {
    let mut odd = false;
    for i in 0..D {
        for j in (i + 1)..D {
            odd ^= order[i] > order[j];
        }
    }
    odd
}

/// Column dot product `Σ_k x_k y_k`, summed left to right.
#[inline(always)]
fn dot<const D: usize>(x: &[f64; D], y: &[f64; D]) -> f64 {
    let mut s = x[0] * y[0];
    for k in 1..D {
        s += x[k] * y[k];
    }
    s
}

/// One Jacobi rotation of columns `p < q` (Demmel & Veselić 1992): skipped when they are
/// orthogonal to the tolerance, `|a_p · a_q| ≤ tol ‖a_p‖ ‖a_q‖` (`tol = ε`: working precision); otherwise the rotation that
/// zeroes `a_p · a_q`, applied to `a` and accumulated in `v`, and the squared norms `n2` of the
/// two columns recomputed. Returns whether it rotated.
///
/// With `α = ‖a_p‖²`, `β = ‖a_q‖²`, `γ = a_p · a_q`, the rotation is `t = tan θ` of the smaller
/// root of `t² + 2ζt − 1 = 0`, `ζ = (β − α)/(2γ)`, and `c = 1/√(1 + t²)`, `s = c t`. Where the
/// caller knows the squared norms are `MODERATE` (between [`MODERATE_SQUARED_NORMS`] and its
/// inverse, so that `(β − α)²` and `γ²` neither overflow nor underflow), the same rotation is
/// formed with one division instead of three: with `d = β − α`, `r = √(d² + 4γ²)` and
/// `b = |d| + r`, `t = sign(d) 2γ / b` and `1 + t² = 2rb / b²`, so
/// `c = b / √(2rb)`, `s = sign(d) 2γ / √(2rb)`; and the test `|γ| ≤ tol √(αβ)` is taken
/// squared, `γ² ≤ tol² αβ` (no square root for a pair that is left as it is). The two forms
/// agree to rounding.
#[inline(always)]
fn jacobi_pair<const D: usize, const MODERATE: bool>(
    a: &mut [[f64; D]; D],
    v: &mut [[f64; D]; D],
    n2: &mut [f64; D],
    p: usize,
    q: usize,
    tol: f64,
) -> bool {
    let alpha = n2[p];
    let beta = n2[q];
    let gamma = dot(&a[p], &a[q]);
    let (c, s) = if MODERATE {
        if gamma * gamma <= (tol * tol) * (alpha * beta) {
            return false;
        }
        let d = beta - alpha;
        let g2 = if d.is_sign_negative() {
            -2.0 * gamma
        } else {
            2.0 * gamma
        };
        let r = (d * d + g2 * g2).sqrt();
        let b = d.abs() + r;
        let k = 1.0 / (2.0 * r * b).sqrt();
        (b * k, g2 * k)
    } else {
        // √α·√β, not √(αβ): the product of two squared norms over- or underflows for column
        // norms beyond about 1e±77, where the test would then always (or never) pass.
        if gamma.abs() <= tol * alpha.sqrt() * beta.sqrt() || gamma == 0.0 {
            return false;
        }
        let zeta = (beta - alpha) / (2.0 * gamma);
        let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
        let c = 1.0 / (1.0 + t * t).sqrt();
        (c, c * t)
    };
    rotate(a, p, q, c, s);
    rotate(v, p, q, c, s);
    n2[p] = dot(&a[p], &a[p]);
    n2[q] = dot(&a[q], &a[q]);
    true
}

/// Bounds of the squared column norms for the one-division rotation of [`jacobi_pair`]:
/// squared norms in `[1e-100, 1e100]` keep `(β − α)²`, `4γ²` and `2rb` (at most about
/// `1e200 · 8`) and `tol² αβ` (at least `ε² · 1e-200 ≈ 1e-232`) inside the normal range.
pub const MODERATE_SQUARED_NORMS: f64 = 1e-100;

/// Whether all squared column norms `n2` lie in `[MODERATE_SQUARED_NORMS, 1/MODERATE_SQUARED_NORMS]`
/// (a zero column is not moderate: the classic rotation handles it).
#[inline(always)]
fn moderate<const D: usize>(n2: &[f64; D]) -> bool {
    n2.iter()
        .all(|&v| (MODERATE_SQUARED_NORMS..=1.0 / MODERATE_SQUARED_NORMS).contains(&v))
}

/// Columns `p`, `q` of `m` ← `(c m_p − s m_q, s m_p + c m_q)`.
#[inline(always)]
fn rotate<const D: usize>(m: &mut [[f64; D]; D], p: usize, q: usize, c: f64, s: f64) {
    for k in 0..D {
        let (mp, mq) = (m[p][k], m[q][k]);
        m[p][k] = c * mp - s * mq;
        m[q][k] = s * mp + c * mq;
    }
}

fn negate_column<const D: usize>(m: &mut SMatrix<f64, D, D>, j: usize) {
    for i in 0..D {
        m[(i, j)] = -m[(i, j)];
    }
}

/// Replaces the columns of `u` whose singular value is (numerically) zero by unit vectors
/// orthogonal to all previous columns (Gram–Schmidt against the canonical basis).
fn complete_orthonormal_columns<const D: usize>(
    u: &mut SMatrix<f64, D, D>,
    sigma: &SVector<f64, D>,
    tiny: f64,
) {
    for j in 0..D {
        if sigma[j].abs() > tiny {
            continue;
        }
        let mut best = SVector::<f64, D>::zeros();
        let mut best_norm = -1.0;
        for e in 0..D {
            let mut w = SVector::<f64, D>::zeros();
            w[e] = 1.0;
            for k in 0..D {
                if k != j && (sigma[k].abs() > tiny || k < j) {
                    let col = u.column(k).into_owned();
                    w -= col * col.dot(&w);
                }
            }
            let n = w.norm();
            if n > best_norm {
                best_norm = n;
                best = w / n;
            }
        }
        u.set_column(j, &best);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix2, Matrix3, Rotation3, Vector3};
    use proptest::prelude::*;

    fn check<const D: usize>(f: &SMatrix<f64, D, D>) {
        check_result(f, rotation_variant_svd(f));
    }

    /// The one-division rotation of moderate columns is the classic one to rounding, and zeroes
    /// the pair's dot product as well; both leave an orthogonal pair alone.
    #[test]
    fn one_division_rotation_is_the_classic_rotation() {
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for case in 0..2000 {
            // Nearly equal, nearly orthogonal and arbitrary pairs, norms from 1e-40 to 1e40.
            let scale = 10f64.powi((case % 81) - 40);
            let p: [f64; 3] = core::array::from_fn(|_| rnd() * scale);
            let q: [f64; 3] = match case % 3 {
                0 => core::array::from_fn(|k| p[k] * (1.0 + 1e-9 * rnd())),
                1 => [p[1], -p[0], rnd() * scale * 1e-6],
                _ => core::array::from_fn(|_| rnd() * scale),
            };
            let run = |moderate: bool| {
                let mut a = [p, q, [0.0; 3]];
                let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
                let mut n2 = [dot(&a[0], &a[0]), dot(&a[1], &a[1]), 0.0];
                let rotated = if moderate {
                    jacobi_pair::<3, true>(&mut a, &mut v, &mut n2, 0, 1, f64::EPSILON)
                } else {
                    jacobi_pair::<3, false>(&mut a, &mut v, &mut n2, 0, 1, f64::EPSILON)
                };
                (rotated, v, dot(&a[0], &a[1]) / (n2[0] * n2[1]).sqrt())
            };
            let (r_classic, v_classic, cos_classic) = run(false);
            let (r_fast, v_fast, cos_fast) = run(true);
            assert_eq!(r_classic, r_fast, "case {case}: one rotates, the other not");
            for j in 0..2 {
                for k in 0..2 {
                    let e = (v_fast[j][k] - v_classic[j][k]).abs();
                    assert!(e < 4.0 * f64::EPSILON, "case {case}: V differs by {e:e}");
                }
            }
            // Nearly parallel columns (case 0) leave one column tiny, whose cosine is rounding
            // relative to it; the others are orthogonal to working precision.
            if case % 3 != 0 {
                assert!(
                    cos_fast.abs() < 1e-14 && cos_classic.abs() < 1e-14,
                    "case {case}: cosines {cos_fast:e} and {cos_classic:e} after the rotation"
                );
            }
        }
    }

    /// Matrices far outside the moderate range (squared column norms beyond 1e±100) take the
    /// classic rotation and decompose exactly as their unit-scale copy, scaled; up to column
    /// norms of 1e150 (the product of two squared norms, 1e600, is not representable).
    #[test]
    fn extreme_scales_decompose_as_the_unit_scale_matrix() {
        let f = Matrix3::new(1.1, 0.3, -0.2, 0.05, 0.8, 0.4, -0.3, 0.1, 1.3);
        let (u1, s1, v1) = rotation_variant_svd(&f);
        for scale in [1e-150, 1e-120, 1e-60, 1e-20, 1e20, 1e60, 1e120, 1e150] {
            let (u, s, v) = rotation_variant_svd(&(f * scale));
            assert!(
                (u - u1).norm() < 1e-13 && (v - v1).norm() < 1e-13,
                "scale {scale:e}: U {:e}, V {:e}",
                (u - u1).norm(),
                (v - v1).norm()
            );
            assert!(
                (s / scale - s1).norm() < 1e-13 * s1.norm(),
                "scale {scale:e}"
            );
        }
    }

    #[allow(clippy::type_complexity)]
    fn check_result<const D: usize>(
        f: &SMatrix<f64, D, D>,
        result: (SMatrix<f64, D, D>, SVector<f64, D>, SMatrix<f64, D, D>),
    ) {
        check_result_to(f, result, 1e-12);
    }

    /// [`check_result`] with `U` orthogonal to `orthogonality` (and `V`, a product of
    /// rotations, always to a few ulps).
    #[allow(clippy::type_complexity)]
    fn check_result_to<const D: usize>(
        f: &SMatrix<f64, D, D>,
        (u, s, v): (SMatrix<f64, D, D>, SVector<f64, D>, SMatrix<f64, D, D>),
        orthogonality: f64,
    ) {
        let scale = f.norm().max(1.0);
        // Reconstruction and orthogonality to a few ulps of ‖F‖ (Jacobi SVD is backward stable).
        let recon = u * SMatrix::<f64, D, D>::from_diagonal(&s) * v.transpose();
        assert!((recon - f).norm() < 1e-12 * scale, "reconstruction {f}");
        assert!((u.transpose() * u - SMatrix::<f64, D, D>::identity()).norm() < orthogonality);
        assert!((v.transpose() * v - SMatrix::<f64, D, D>::identity()).norm() < 1e-12);
        assert!((determinant(&u) - 1.0).abs() < orthogonality);
        assert!((determinant(&v) - 1.0).abs() < 1e-12);
        for i in 0..D - 1 {
            assert!(s[i] >= -1e-300 && s[i] + 1e-12 * scale >= s[i + 1].abs());
        }
        let det = determinant(f);
        if det.abs() > 1e-9 * scale.powi(D as i32) {
            assert_eq!(s[D - 1] < 0.0, det < 0.0);
        }
    }

    #[test]
    fn handles_rank_deficient_and_repeated() {
        check(&Matrix3::zeros());
        check(&Matrix3::new(1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0));
        check(&Matrix3::new(1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 1.0, 1.0, 1.0));
        check(&Matrix3::identity());
        check(&(-Matrix3::<f64>::identity()));
        check(&Matrix2::new(0.0, 1.0, 1.0, 0.0));
        check(&Matrix2::new(0.0, 0.0, 3.0, 0.0));
    }

    proptest! {
        #[test]
        fn random_3d(entries in proptest::array::uniform9(-3.0f64..3.0)) {
            check(&Matrix3::from_row_slice(&entries));
        }

        #[test]
        fn random_2d(entries in proptest::array::uniform4(-3.0f64..3.0)) {
            check(&Matrix2::from_row_slice(&entries));
        }

        /// Warm start from the V of a nearby (or unrelated) matrix: same contract, same σ.
        #[test]
        fn warm_started_3d(
            entries in proptest::array::uniform9(-3.0f64..3.0),
            delta in proptest::array::uniform9(-0.5f64..0.5),
        ) {
            let f = Matrix3::from_row_slice(&entries);
            let (_, _, v0) = rotation_variant_svd(&(f + Matrix3::from_row_slice(&delta)));
            let warm = rotation_variant_svd_from(&f, &v0);
            let cold = rotation_variant_svd(&f);
            prop_assert!((warm.1 - cold.1).norm() < 1e-12 * f.norm().max(1.0));
            check_result(&f, warm);
        }

        /// The tracked form on `A = (I + H) M`, `M = Fⁿ V₀`: `F = (I + H) Fⁿ = U diag(σ) Vᵀ`
        /// with `V = Fⁿ⁻¹ M` after the call (a rotation), `U` orthogonal to a few times
        /// [`TRACKED_ORTHOGONALITY`], σ that of the plain SVD of `F` to `√ε` relative; tracked
        /// again from its own result (the run kernel's next iteration), still so.
        #[test]
        fn tracked_3d(
            base in proptest::array::uniform9(-0.4f64..0.4),
            step in proptest::array::uniform9(-0.3f64..0.3),
            again in proptest::array::uniform9(-0.01f64..0.01),
        ) {
            let fn_ = Matrix3::identity() + Matrix3::from_row_slice(&base);
            prop_assume!(determinant(&fn_).abs() > 0.05);
            let fn_inv = fn_.try_inverse().unwrap();
            let (_, _, v0) = rotation_variant_svd(&fn_);
            let mut m = fn_ * v0;
            for h in [Matrix3::from_row_slice(&step), Matrix3::from_row_slice(&again)] {
                let f = (Matrix3::identity() + h) * fn_;
                let (u, s) = rotation_variant_svd_tracked(&(m + h * m), &mut m);
                let v = fn_inv * m;
                check_result_to(&f, (u, s, v), 4.0 * TRACKED_ORTHOGONALITY);
                let exact = rotation_variant_svd(&f).1;
                prop_assert!((s - exact).norm() < TRACKED_ORTHOGONALITY * f.norm());
            }
        }

        #[test]
        fn rotated_stretch_recovers_stretches(
            axis in proptest::array::uniform3(-1.0f64..1.0),
            angle in -3.1f64..3.1,
            s in proptest::array::uniform3(0.2f64..3.0),
        ) {
            let r = Rotation3::from_scaled_axis(Vector3::from(axis).normalize() * angle);
            let f = r.matrix() * Matrix3::from_diagonal(&Vector3::from(s));
            let (_, sigma, _) = rotation_variant_svd(&f);
            let mut expected = s;
            expected.sort_by(|a, b| b.total_cmp(a));
            for i in 0..3 {
                prop_assert!((sigma[i] - expected[i]).abs() < 1e-12 * 3.0);
            }
        }
    }
}
