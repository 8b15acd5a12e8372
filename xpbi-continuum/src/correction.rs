//! Kernel-gradient correction (Bonet & Lok 1999), as used by XPBI Eq. 10–11.
//!
//! ```text
//! M_p = Σ_b V_b ∇W_b(x_p) ⊗ (x_b − x_p)           (dimensionless, ≈ I inside a full neighbourhood)
//! L_p = pinv(M_p)                                  (M_p⁻¹ when well conditioned, else the SVD pseudo-inverse)
//! ∇v(x_p) ≈ Σ_b V_b (v_b − v_p) (L_p ∇W_b(x_p))ᵀ
//! ```
//!
//! Exactness for linear fields (derived): if `v = A x + c` then
//! `Σ_b V_b A (x_b − x_p) (L_p ∇W_b)ᵀ = A (Σ_b V_b (x_b − x_p) ⊗ ∇W_b) L_pᵀ = A M_pᵀ L_pᵀ = A`
//! whenever `M_p` is invertible — also at a free surface where `M_p` is far from `I`.
//!
//! **Threshold.** Singular values of `M_p` below [`DEFAULT_PINV_THRESHOLD`] = 0.01 (absolute; `M_p`
//! is dimensionless and ≈ I for a full neighbourhood) are dropped from the pseudo-inverse: in such a
//! direction the neighbourhood carries no information (a particle with neighbours on a line, or
//! alone), and `1/σ > 100` would amplify noise. The velocity gradient is then zero along that
//! direction, so the constraint exerts no force there.

use nalgebra::{SMatrix, SVector};

use crate::kernel::WendlandC2;

/// Singular values of the moment matrix below this are dropped from its pseudo-inverse.
pub const DEFAULT_PINV_THRESHOLD: f64 = 1e-2;

/// The largest pseudo-inverse threshold a body may use: `M_p` ≈ I inside a body, and at a
/// lattice corner its smallest singular value is 0.31 at the default support (2 Δx); a
/// threshold above 0.25 drops directions that carry information, and one near 1 or above drops
/// them all (an inert body).
pub const MAX_PINV_THRESHOLD: f64 = 0.25;

/// `Ok` when `value` lies in (0, [`MAX_PINV_THRESHOLD`]].
pub fn check_pinv_threshold(value: f64) -> Result<(), crate::XpbiError> {
    if value > 0.0 && value <= MAX_PINV_THRESHOLD {
        Ok(())
    } else {
        Err(crate::XpbiError::OutOfRange {
            name: "pinv_threshold",
            value,
            reason: "must lie in (0, 0.25]: the moment matrix is about I inside a body and its \
                     smallest singular value is about 0.3 at a corner; a larger threshold drops \
                     the directions the correction needs",
        })
    }
}

/// Moment matrix `M_p = Σ_b V_b ∇W_b(x_p) ⊗ (x_b − x_p)` from `(x_b − x_p, V_b ∇W_b(x_p))` pairs.
///
/// ```
/// use nalgebra::{Matrix2, Vector2};
/// use xpbi_continuum::correction::moment_matrix;
/// let m = moment_matrix::<2>([(Vector2::new(1.0, 0.0), Vector2::new(-1.0, 0.0))]);
/// assert_eq!(m, Matrix2::new(-1.0, 0.0, 0.0, 0.0));
/// ```
pub fn moment_matrix<const D: usize>(
    pairs: impl IntoIterator<Item = (SVector<f64, D>, SVector<f64, D>)>,
) -> SMatrix<f64, D, D> {
    let mut m = SMatrix::<f64, D, D>::zeros();
    for (dx, vgrad) in pairs {
        m += vgrad * dx.transpose();
    }
    m
}

/// Pseudo-inverse `pinv(M)` keeping singular values `≥ threshold`; returns it with the rank kept.
///
/// ```
/// use nalgebra::Matrix2;
/// use xpbi_continuum::correction::pseudo_inverse;
/// let (l, rank) = pseudo_inverse(&Matrix2::new(2.0, 0.0, 0.0, 1e-6), 1e-2);
/// assert_eq!(rank, 1);
/// assert!((l - Matrix2::new(0.5, 0.0, 0.0, 0.0)).norm() < 1e-14);
/// ```
pub fn pseudo_inverse<const D: usize>(
    m: &SMatrix<f64, D, D>,
    threshold: f64,
) -> (SMatrix<f64, D, D>, usize) {
    if !m.iter().all(|v| v.is_finite()) {
        return (SMatrix::zeros(), 0);
    }
    // Rotation-variant SVD: the last singular value may be negative (det M < 0); the threshold
    // applies to |σ|.
    let (u, sigma, v) = xpbd_core::energy::svd::rotation_variant_svd(m);
    let mut l = SMatrix::<f64, D, D>::zeros();
    let mut rank = 0;
    for i in 0..D {
        let s = sigma[i];
        if s.abs() >= threshold {
            rank += 1;
            // pinv(M) = V Σ⁺ Uᵀ = Σ_i (1/σ_i) v_i u_iᵀ
            l += v.column(i) * u.column(i).transpose() / s;
        }
    }
    (l, rank)
}

/// Corrected velocity gradient `Σ_b (v_b − v_p) g̃_pbᵀ` with `g̃_pb = V_b L_p ∇W_b(x_p)` already
/// premultiplied by the neighbour volume.
///
/// ```
/// use nalgebra::{Matrix2, Vector2};
/// use xpbi_continuum::correction::velocity_gradient;
/// let g = velocity_gradient::<2>([(Vector2::new(1.0, 2.0), Vector2::new(1.0, 0.0))]);
/// assert_eq!(g, Matrix2::new(1.0, 0.0, 2.0, 0.0));
/// ```
pub fn velocity_gradient<const D: usize>(
    pairs: impl IntoIterator<Item = (SVector<f64, D>, SVector<f64, D>)>,
) -> SMatrix<f64, D, D> {
    let mut g = SMatrix::<f64, D, D>::zeros();
    for (dv, gt) in pairs {
        g += dv * gt.transpose();
    }
    g
}

/// Corrected, volume-weighted kernel gradients of one particle: for neighbours `(x_b, V_b)` of
/// `x_p`, writes `q_b = V_b L_p ∇W_b(x_p)` into `out` (same order) and returns `(L_p, rank)`.
///
/// ```
/// use nalgebra::Vector2;
/// use xpbi_continuum::{correction::corrected_weights, kernel::WendlandC2};
/// let w = WendlandC2::<2>::from_spacing(1.0).unwrap();
/// let xp = Vector2::zeros();
/// let nb: Vec<_> = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)]
///     .iter().map(|&(a, b)| (Vector2::new(a, b), 1.0)).collect();
/// let mut q = Vec::new();
/// let (_, rank) = corrected_weights(&w, 1e-2, &xp, nb.iter().copied(), &mut q);
/// assert_eq!(rank, 2);
/// // Σ_b q_b (x_b − x_p)ᵀ = I: linear fields are reproduced.
/// let m: nalgebra::Matrix2<f64> = nb.iter().zip(&q).map(|((x, _), q)| x * q.transpose()).sum();
/// assert!((m - nalgebra::Matrix2::identity()).norm() < 1e-12);
/// ```
pub fn corrected_weights<const D: usize>(
    kernel: &WendlandC2<D>,
    threshold: f64,
    x_p: &SVector<f64, D>,
    neighbours: impl Iterator<Item = (SVector<f64, D>, f64)> + Clone,
    out: &mut Vec<SVector<f64, D>>,
) -> (SMatrix<f64, D, D>, usize) {
    // V_b ∇W_b(x_p) once per neighbour (kept in `out`, then premultiplied by L_p in place).
    out.clear();
    out.extend(
        neighbours
            .clone()
            .map(|(x_b, v_b)| kernel.gradient(&(x_p - x_b)) * v_b),
    );
    let m = moment_matrix(
        neighbours
            .zip(out.iter())
            .map(|((x_b, _), g)| (x_b - x_p, *g)),
    );
    let (l, rank) = moment_pseudo_inverse(&m, threshold);
    for q in out.iter_mut() {
        *q = l * *q;
    }
    (l, rank)
}

/// [`pseudo_inverse`] of a moment matrix, which is symmetric positive semi-definite: with
/// `∇W_b(x_p) = W'(r) (x_p − x_b)/r`, `M_p = Σ_b V_b (−W'(r)/r) (x_b − x_p)(x_b − x_p)ᵀ`
/// and `W' ≤ 0`. Its singular values are then its eigenvalues, so when the Cholesky
/// factorisation of `sym(M) − threshold·I` exists every one of them is above the threshold,
/// and `pinv(M) = M⁻¹` (the full-neighbourhood case, almost every particle, without an SVD).
/// Otherwise (a free surface thin in some direction, an isolated particle) the SVD
/// pseudo-inverse drops the directions below the threshold.
///
/// ```
/// use nalgebra::Matrix3;
/// use xpbi_continuum::correction::{moment_pseudo_inverse, pseudo_inverse};
/// let m = Matrix3::new(1.0, 0.1, 0.0, 0.1, 0.8, 0.05, 0.0, 0.05, 0.9);
/// let (fast, rank) = moment_pseudo_inverse(&m, 1e-2);
/// assert_eq!(rank, 3);
/// assert!((fast - pseudo_inverse(&m, 1e-2).0).norm() < 1e-12);
/// // A neighbourhood on a plane: the normal direction is dropped.
/// let flat = Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1e-9);
/// assert_eq!(moment_pseudo_inverse(&flat, 1e-2).1, 2);
/// ```
pub fn moment_pseudo_inverse<const D: usize>(
    m: &SMatrix<f64, D, D>,
    threshold: f64,
) -> (SMatrix<f64, D, D>, usize) {
    let sym = (m + m.transpose()) * 0.5;
    if sym.iter().all(|v| v.is_finite())
        && (sym - SMatrix::<f64, D, D>::identity() * threshold)
            .cholesky()
            .is_some()
        && let Some(inv) = sym.try_inverse()
    {
        return (inv, D);
    }
    pseudo_inverse(m, threshold)
}
