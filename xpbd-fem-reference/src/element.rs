//! Lagrange simplex elements of order 1 and 2 in `D` dimensions and their quadrature rules.
//!
//! Local node order: the `D + 1` vertices, then (order 2) the edge midpoints for the vertex
//! pairs `(i, j)`, `i < j`, in lexicographic order. In barycentric coordinates
//! `λ₀ = 1 − Σ ξₖ`, `λₖ = ξₖ₋₁` the shape functions are (Zienkiewicz & Taylor, Vol. 1, §6.7)
//!
//! * order 1: `Nᵢ = λᵢ`;
//! * order 2: vertex `Nᵢ = λᵢ (2λᵢ − 1)`, edge `(i, j)`: `N = 4 λᵢ λⱼ`.

use nalgebra::SVector;

/// Polynomial order of the Lagrange element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElementOrder {
    /// Linear (P1): vertices only, constant strain.
    Linear,
    /// Quadratic (P2): vertices and edge midpoints, linear strain (no bending locking).
    Quadratic,
}

impl ElementOrder {
    /// `1` or `2`.
    pub fn degree(self) -> u8 {
        match self {
            Self::Linear => 1,
            Self::Quadratic => 2,
        }
    }

    /// Nodes of a `dim`-simplex element of this order: `dim + 1` or `(dim + 1)(dim + 2)/2`.
    pub fn nodes_per_element(self, dim: usize) -> usize {
        match self {
            Self::Linear => dim + 1,
            Self::Quadratic => (dim + 1) * (dim + 2) / 2,
        }
    }
}

/// The vertex pairs of a `dim`-simplex in local edge order.
pub fn simplex_edges(dim: usize) -> Vec<[usize; 2]> {
    let mut e = Vec::new();
    for i in 0..=dim {
        for j in (i + 1)..=dim {
            e.push([i, j]);
        }
    }
    e
}

/// Barycentric coordinates `λ` of the reference point `ξ` (`λ₀ = 1 − Σξ`).
pub fn barycentric<const D: usize>(xi: &SVector<f64, D>) -> Vec<f64> {
    let mut l = Vec::with_capacity(D + 1);
    l.push(1.0 - xi.sum());
    l.extend(xi.iter().copied());
    l
}

/// `∂λᵢ/∂ξ`.
fn dlambda<const D: usize>(i: usize) -> SVector<f64, D> {
    if i == 0 {
        SVector::repeat(-1.0)
    } else {
        let mut e = SVector::zeros();
        e[i - 1] = 1.0;
        e
    }
}

/// Shape function values at barycentric point `lambda` (`dim = lambda.len() − 1`).
pub fn shape_values(order: ElementOrder, lambda: &[f64]) -> Vec<f64> {
    let dim = lambda.len() - 1;
    match order {
        ElementOrder::Linear => lambda.to_vec(),
        ElementOrder::Quadratic => {
            let mut n: Vec<f64> = lambda.iter().map(|&l| l * (2.0 * l - 1.0)).collect();
            n.extend(
                simplex_edges(dim)
                    .iter()
                    .map(|&[i, j]| 4.0 * lambda[i] * lambda[j]),
            );
            n
        }
    }
}

/// Reference gradients `∂Nₐ/∂ξ` at `ξ`.
pub fn shape_gradients<const D: usize>(
    order: ElementOrder,
    xi: &SVector<f64, D>,
) -> Vec<SVector<f64, D>> {
    match order {
        ElementOrder::Linear => (0..=D).map(dlambda::<D>).collect(),
        ElementOrder::Quadratic => {
            let l = barycentric(xi);
            let mut g: Vec<SVector<f64, D>> = (0..=D)
                .map(|i| dlambda::<D>(i) * (4.0 * l[i] - 1.0))
                .collect();
            g.extend(
                simplex_edges(D)
                    .iter()
                    .map(|&[i, j]| (dlambda::<D>(i) * l[j] + dlambda::<D>(j) * l[i]) * 4.0),
            );
            g
        }
    }
}

/// A quadrature rule on the reference simplex `{ξ ≥ 0, Σξ ≤ 1}` (weights sum to `1/D!`).
#[derive(Debug, Clone)]
pub struct Quadrature<const D: usize> {
    /// Points `ξ`.
    pub points: Vec<SVector<f64, D>>,
    /// Weights.
    pub weights: Vec<f64>,
}

fn factorial(n: usize) -> f64 {
    (1..=n).map(|k| k as f64).product()
}

impl<const D: usize> Quadrature<D> {
    /// The cheapest rule that integrates the stiffness of an affine element of `order` exactly
    /// for linear elasticity (degree `2(order − 1)`) and the body-force load (degree `order`):
    /// the centroid for P1; for P2 the degree-2 rules with 3 points (triangle, Strang & Fix) or
    /// 4 points (tetrahedron, `a = (5 + 3√5)/20`, `b = (5 − √5)/20`).
    pub fn for_stiffness(order: ElementOrder) -> Self {
        let vol = 1.0 / factorial(D);
        match (order, D) {
            (ElementOrder::Linear, _) => Self {
                points: vec![SVector::repeat(1.0 / (D as f64 + 1.0))],
                weights: vec![vol],
            },
            (ElementOrder::Quadratic, 2) => {
                let p = |a: f64, b: f64| SVector::<f64, D>::from_fn(|i, _| [a, b][i]);
                Self {
                    points: vec![
                        p(1.0 / 6.0, 1.0 / 6.0),
                        p(2.0 / 3.0, 1.0 / 6.0),
                        p(1.0 / 6.0, 2.0 / 3.0),
                    ],
                    weights: vec![vol / 3.0; 3],
                }
            }
            (ElementOrder::Quadratic, 3) => {
                let a = (5.0 + 3.0 * 5f64.sqrt()) / 20.0;
                let b = (5.0 - 5f64.sqrt()) / 20.0;
                let p = |x: f64, y: f64, z: f64| SVector::<f64, D>::from_fn(|i, _| [x, y, z][i]);
                Self {
                    points: vec![p(b, b, b), p(a, b, b), p(b, a, b), p(b, b, a)],
                    weights: vec![vol / 4.0; 4],
                }
            }
            _ => Self::collapsed_gauss(3),
        }
    }

    /// Conical-product (Duffy) rule with `n` Gauss–Legendre points per direction (Stroud 1971):
    /// `ξₖ = uₖ Πₘ<ₖ (1 − uₘ)`, Jacobian `Πₖ (1 − uₖ)^(D−1−k)`. Exact for polynomials of degree
    /// `≤ 2n − D` (at least), any `D`; used for the consistent mass matrix.
    pub fn collapsed_gauss(n: usize) -> Self {
        let (nodes, wts) = gauss_legendre_01(n);
        let total = n.pow(D as u32);
        let mut points = Vec::with_capacity(total);
        let mut weights = Vec::with_capacity(total);
        for flat in 0..total {
            let mut idx = flat;
            let mut xi = SVector::<f64, D>::zeros();
            let mut w = 1.0;
            let mut remaining = 1.0;
            for k in 0..D {
                let u = nodes[idx % n];
                w *= wts[idx % n] * (1.0 - u).powi((D - 1 - k) as i32);
                idx /= n;
                xi[k] = u * remaining;
                remaining *= 1.0 - u;
            }
            points.push(xi);
            weights.push(w);
        }
        Self { points, weights }
    }
}

/// Gauss–Legendre nodes and weights on `[0, 1]` for `n ≤ 5` points (Abramowitz & Stegun 25.4.30).
fn gauss_legendre_01(n: usize) -> (Vec<f64>, Vec<f64>) {
    let (x, w): (Vec<f64>, Vec<f64>) = match n {
        1 => (vec![0.0], vec![2.0]),
        2 => (
            vec![-0.577_350_269_189_625_8, 0.577_350_269_189_625_8],
            vec![1.0, 1.0],
        ),
        3 => (
            vec![-0.774_596_669_241_483_4, 0.0, 0.774_596_669_241_483_4],
            vec![5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0],
        ),
        4 => (
            vec![
                -0.861_136_311_594_052_6,
                -0.339_981_043_584_856_3,
                0.339_981_043_584_856_3,
                0.861_136_311_594_052_6,
            ],
            vec![
                0.347_854_845_137_453_9,
                0.652_145_154_862_546_1,
                0.652_145_154_862_546_1,
                0.347_854_845_137_453_9,
            ],
        ),
        _ => (
            vec![
                -0.906_179_845_938_664,
                -0.538_469_310_105_683,
                0.0,
                0.538_469_310_105_683,
                0.906_179_845_938_664,
            ],
            vec![
                0.236_926_885_056_189_1,
                0.478_628_670_499_366_5,
                0.568_888_888_888_888_9,
                0.478_628_670_499_366_5,
                0.236_926_885_056_189_1,
            ],
        ),
    };
    (
        x.iter().map(|v| 0.5 * (v + 1.0)).collect(),
        w.iter().map(|v| 0.5 * v).collect(),
    )
}

/// `∫ Nₐ dA / A` over a `dim`-simplex face of the given order: `1/(dim+1)` (P1); vertices
/// `(1 − dim)/((dim+1)(dim+2))` and edges `4/((dim+1)(dim+2))` (P2), from
/// `∫ λ^α = A dim! α! / (dim + |α|)!` (derived). Consistent nodal loads of a uniform traction.
pub fn face_load_fractions(order: ElementOrder, dim: usize) -> Vec<f64> {
    let d = dim as f64;
    match order {
        ElementOrder::Linear => vec![1.0 / (d + 1.0); dim + 1],
        ElementOrder::Quadratic => {
            let mut f = vec![(2.0 - d) / ((d + 1.0) * (d + 2.0)); dim + 1];
            f.extend(std::iter::repeat_n(
                4.0 / ((d + 1.0) * (d + 2.0)),
                simplex_edges(dim).len(),
            ));
            f
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Vector2, Vector3};

    /// Exact `∫ ξ^a` over the reference simplex: `Π aₖ! / (D + Σa)!`.
    fn monomial_integral(a: &[usize]) -> f64 {
        a.iter().map(|&k| factorial(k)).product::<f64>()
            / factorial(a.len() + a.iter().sum::<usize>())
    }

    fn check_rule<const D: usize>(q: &Quadrature<D>, degree: usize) {
        // Every monomial of total degree ≤ `degree` is integrated to 1e-14.
        let mut exps = vec![vec![]];
        for _ in 0..D {
            exps = exps
                .into_iter()
                .flat_map(|e: Vec<usize>| {
                    (0..=degree).map(move |k| {
                        let mut e = e.clone();
                        e.push(k);
                        e
                    })
                })
                .collect();
        }
        for a in exps
            .into_iter()
            .filter(|a| a.iter().sum::<usize>() <= degree)
        {
            let approx: f64 = q
                .points
                .iter()
                .zip(&q.weights)
                .map(|(p, w)| {
                    w * a
                        .iter()
                        .enumerate()
                        .map(|(k, &e)| p[k].powi(e as i32))
                        .product::<f64>()
                })
                .sum();
            assert!((approx - monomial_integral(&a)).abs() < 1e-14, "{a:?}");
        }
    }

    #[test]
    fn quadrature_exactness() {
        check_rule(&Quadrature::<2>::for_stiffness(ElementOrder::Quadratic), 2);
        check_rule(&Quadrature::<3>::for_stiffness(ElementOrder::Quadratic), 2);
        check_rule(&Quadrature::<3>::for_stiffness(ElementOrder::Linear), 1);
        check_rule(&Quadrature::<2>::collapsed_gauss(4), 6);
        check_rule(&Quadrature::<3>::collapsed_gauss(4), 5);
    }

    fn check_partition_and_nodality<const D: usize>(
        nodes: &[SVector<f64, D>],
        order: ElementOrder,
    ) {
        // Kronecker property at the nodes; Σ Nₐ = 1 and Σ ∇Nₐ = 0 everywhere; ∇N by FD.
        for (b, x) in nodes.iter().enumerate() {
            let n = shape_values(order, &barycentric(x));
            for (a, v) in n.iter().enumerate() {
                assert!((v - if a == b { 1.0 } else { 0.0 }).abs() < 1e-14);
            }
        }
        let xi = SVector::<f64, D>::from_fn(|i, _| 0.13 + 0.07 * i as f64);
        let n = shape_values(order, &barycentric(&xi));
        assert!((n.iter().sum::<f64>() - 1.0).abs() < 1e-14);
        let g = shape_gradients(order, &xi);
        assert!(g.iter().sum::<SVector<f64, D>>().norm() < 1e-13);
        for k in 0..D {
            let mut e = SVector::<f64, D>::zeros();
            e[k] = 1e-6;
            let np = shape_values(order, &barycentric(&(xi + e)));
            let nm = shape_values(order, &barycentric(&(xi - e)));
            for a in 0..n.len() {
                assert!(((np[a] - nm[a]) / 2e-6 - g[a][k]).abs() < 1e-8);
            }
        }
    }

    #[test]
    fn shape_functions() {
        let tri = [
            Vector2::new(0.0, 0.0),
            Vector2::new(1.0, 0.0),
            Vector2::new(0.0, 1.0),
            Vector2::new(0.5, 0.0),
            Vector2::new(0.0, 0.5),
            Vector2::new(0.5, 0.5),
        ];
        check_partition_and_nodality(&tri[..3], ElementOrder::Linear);
        check_partition_and_nodality(&tri, ElementOrder::Quadratic);
        let v = [Vector3::zeros(), Vector3::x(), Vector3::y(), Vector3::z()];
        let mut tet: Vec<Vector3<f64>> = v.to_vec();
        tet.extend(simplex_edges(3).iter().map(|&[i, j]| (v[i] + v[j]) * 0.5));
        check_partition_and_nodality(&tet[..4], ElementOrder::Linear);
        check_partition_and_nodality(&tet, ElementOrder::Quadratic);
    }

    #[test]
    fn face_fractions_sum_to_one() {
        for dim in 1..=2 {
            for order in [ElementOrder::Linear, ElementOrder::Quadratic] {
                assert!((face_load_fractions(order, dim).iter().sum::<f64>() - 1.0).abs() < 1e-15);
            }
        }
        assert_eq!(
            face_load_fractions(ElementOrder::Quadratic, 1),
            vec![1.0 / 6.0, 1.0 / 6.0, 2.0 / 3.0]
        );
    }
}
