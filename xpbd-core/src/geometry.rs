//! Small dimension-generic geometry helpers for simplices (triangles in 2D, tetrahedra in 3D).

use crate::{Matrix, Vector};

/// The cofactor matrix `cof(A)` with `∂ det A / ∂A = cof(A)` (= det(A) A⁻ᵀ when invertible),
/// for D = 1, 2, 3. Defined also for singular `A`.
pub fn cofactor<const D: usize>(a: &Matrix<D>) -> Matrix<D> {
    let mut c = Matrix::<D>::zeros();
    match D {
        1 => c[(0, 0)] = 1.0,
        2 => {
            c[(0, 0)] = a[(1, 1)];
            c[(0, 1)] = -a[(1, 0)];
            c[(1, 0)] = -a[(0, 1)];
            c[(1, 1)] = a[(0, 0)];
        }
        3 => {
            for i in 0..3 {
                for j in 0..3 {
                    let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
                    let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                    c[(i, j)] = a[(i1, j1)] * a[(i2, j2)] - a[(i1, j2)] * a[(i2, j1)];
                }
            }
        }
        _ => panic!("cofactor is implemented for D <= 3, got D = {D}"),
    }
    c
}

/// `det A` for D = 1, 2, 3 (nalgebra's `determinant` needs allocator bounds that a generic
/// `const D` cannot name).
pub fn determinant<const D: usize>(a: &Matrix<D>) -> f64 {
    match D {
        1 => a[(0, 0)],
        2 => a[(0, 0)] * a[(1, 1)] - a[(0, 1)] * a[(1, 0)],
        3 => {
            let c = cofactor(a);
            (0..3).map(|j| a[(0, j)] * c[(0, j)]).sum()
        }
        _ => panic!("determinant is implemented for D <= 3, got D = {D}"),
    }
}

/// `A⁻¹ = cof(A)ᵀ / det A`, or `None` when `|det A|` is not above `f64::MIN_POSITIVE`.
pub fn inverse<const D: usize>(a: &Matrix<D>) -> Option<Matrix<D>> {
    let det = determinant(a);
    (det.abs() > f64::MIN_POSITIVE && det.is_finite()).then(|| cofactor(a).transpose() / det)
}

/// `D!`: the ratio between a simplex's volume and the determinant of its edge matrix.
pub fn factorial(d: usize) -> f64 {
    (1..=d).product::<usize>() as f64
}

/// The edge matrix `[x₁ − x₀, …, x_D − x₀]` (columns) of a simplex given by `D + 1` points.
pub fn edge_matrix<const D: usize>(xs: &[Vector<D>]) -> Matrix<D> {
    Matrix::<D>::from_fn(|r, c| xs[c + 1][r] - xs[0][r])
}

/// Signed measure (area in 2D, volume in 3D) of a simplex: `det(edge matrix) / D!`.
pub fn signed_measure<const D: usize>(xs: &[Vector<D>]) -> f64 {
    determinant(&edge_matrix(xs)) / factorial(D)
}

/// Writes the gradient `∂/∂xₖ` of a function of the edge matrix `Ds = [x₁ − x₀, …]` given
/// `G = ∂f/∂Ds`: `∇_{xₖ} f = G[:, k−1]` for `k ≥ 1` and `∇_{x₀} f = −Σₖ G[:, k−1]`.
pub fn scatter_edge_gradient<const D: usize>(g: &Matrix<D>, grad: &mut [Vector<D>]) {
    let mut sum = Vector::<D>::zeros();
    for k in 0..D {
        let col: Vector<D> = g.column(k).into_owned();
        grad[k + 1] = col;
        sum += col;
    }
    grad[0] = -sum;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cofactor_is_the_derivative_of_the_determinant() {
        let a = Matrix::<3>::new(1.0, 0.3, -0.2, 0.1, 0.9, 0.4, -0.5, 0.2, 1.3);
        let c = cofactor(&a);
        let e = 1e-6;
        for i in 0..3 {
            for j in 0..3 {
                let mut p = a;
                p[(i, j)] += e;
                let mut m = a;
                m[(i, j)] -= e;
                let fd = (p.determinant() - m.determinant()) / (2.0 * e);
                assert!(
                    (fd - c[(i, j)]).abs() < 1e-8,
                    "({i},{j}) {fd} vs {}",
                    c[(i, j)]
                );
            }
        }
        let a2 = Matrix::<2>::new(1.0, 0.3, -0.2, 0.7);
        let c2 = cofactor(&a2);
        assert!((c2 - a2.determinant() * a2.try_inverse().unwrap().transpose()).norm() < 1e-14);
    }
}
