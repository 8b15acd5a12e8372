//! The sign of a signed-distance grid: winding numbers by ray crossings with exact
//! orientation predicates (see [`super`]).

use rayon::prelude::*;

use super::lattice::Lattice;
use crate::Vector;

/// Winding number of every node (axis 0 fastest): the signed crossings of the ray from the
/// node towards −x through the mesh, by one pass over the triangles' projections onto (y, z)
/// and a prefix sum per row (see the module docs).
pub(super) fn winding_numbers(
    vertices: &[Vector<3>],
    triangles: &[[usize; 3]],
    lattice: &Lattice,
) -> Vec<i32> {
    let [nx, ny, _] = lattice.dims;
    let mut count = vec![0i32; lattice.len()];
    for t in triangles {
        let p = t.map(|v| vertices[v]);
        let lo = p[0].inf(&p[1]).inf(&p[2]);
        let hi = p[0].sup(&p[1]).sup(&p[2]);
        // One extra line on each side: the exact test below decides.
        let (Some((j0, j1)), Some((k0, k1))) = (
            lattice.span(1, lo.y, hi.y, 1.0),
            lattice.span(2, lo.z, hi.z, 1.0),
        ) else {
            continue;
        };
        for k in k0..=k1 {
            let z = lattice.coord(2, k);
            for j in j0..=j1 {
                let y = lattice.coord(1, j);
                let Some((x, sign)) = ray_crossing([y, z], t, vertices) else {
                    continue;
                };
                // The first node with x_i > x (the guess corrected against node coordinates).
                let guess = ((x - lattice.origin.x) / lattice.cell).floor() + 1.0;
                let mut i = guess.clamp(0.0, nx as f64) as usize;
                while i > 0 && lattice.coord(0, i - 1) > x {
                    i -= 1;
                }
                while i < nx && lattice.coord(0, i) <= x {
                    i += 1;
                }
                if i < nx {
                    count[i + nx * (j + ny * k)] -= sign;
                }
            }
        }
    }
    count.par_chunks_mut(nx).for_each(|row| {
        let mut w = 0;
        for c in row {
            w += *c;
            *c = w;
        }
    });
    count
}

/// Where the line `{(x, q₀, q₁)}` (moved by (ε, ε²) in (y, z)) crosses triangle `t`, and the
/// sign of the triangle's projected area there (its normal's x component); `None` when it
/// misses, or when the projection has zero area.
fn ray_crossing(q: [f64; 2], t: &[usize; 3], vertices: &[Vector<3>]) -> Option<(f64, i32)> {
    let yz = |v: usize| [vertices[v].y, vertices[v].z];
    let mut weight = [0.0; 3];
    let mut sign = 0;
    for e in 0..3 {
        // Edge opposite vertex e, always evaluated from its lower vertex index.
        let (a, b) = (t[(e + 1) % 3], t[(e + 2) % 3]);
        let (det, s) = if a < b {
            edge_function(q, yz(a), yz(b))
        } else {
            let (det, s) = edge_function(q, yz(b), yz(a));
            (-det, -s)
        };
        if s == 0 || (e > 0 && s != sign) {
            return None;
        }
        sign = s;
        weight[e] = if det * f64::from(s) > 0.0 {
            det.abs()
        } else {
            0.0
        };
    }
    let x = t.map(|v| vertices[v].x);
    let sum = weight[0] + weight[1] + weight[2];
    let crossing = if sum > 0.0 {
        (weight[0] * x[0] + weight[1] * x[1] + weight[2] * x[2]) / sum
    } else {
        (x[0] + x[1] + x[2]) / 3.0
    };
    let (lo, hi) = (x[0].min(x[1]).min(x[2]), x[0].max(x[1]).max(x[2]));
    Some((crossing.clamp(lo, hi), sign))
}

/// `orient2d(a, b, q) = (a − q) × (b − q)` (twice the signed area of `(a, b, q)`, positive
/// when counter-clockwise) and its exact sign for `q` moved by `(ε, ε²)`, ε → 0⁺: the sign of
/// the exact determinant, else of `a₁ − b₁`, else of `b₀ − a₀`; 0 only when `a = b`.
/// Swapping `a` and `b` negates both results exactly.
fn edge_function(q: [f64; 2], a: [f64; 2], b: [f64; 2]) -> (f64, i32) {
    // Shewchuk's orient2d error bound (3 + 16ε)ε, ε = 2⁻⁵³.
    const ERR_BOUND: f64 = (3.0 + 16.0 * (f64::EPSILON / 2.0)) * (f64::EPSILON / 2.0);
    let left = (a[0] - q[0]) * (b[1] - q[1]);
    let right = (a[1] - q[1]) * (b[0] - q[0]);
    let det = left - right;
    let bound = ERR_BOUND * (left.abs() + right.abs());
    let s = if det > bound {
        1
    } else if -det > bound {
        -1
    } else {
        orient2d_exact_sign(q, a, b)
    };
    if s != 0 {
        return (det, s);
    }
    let tie = if a[1] != b[1] {
        if a[1] > b[1] { 1 } else { -1 }
    } else if a[0] != b[0] {
        if b[0] > a[0] { 1 } else { -1 }
    } else {
        0
    };
    (det, tie)
}

/// The exact sign of `(a₀ − q₀)(b₁ − q₁) − (a₁ − q₁)(b₀ − q₀)`: each difference split into
/// a two-term expansion, the products into 16 exact terms (fused multiply-add), summed into a
/// nonoverlapping expansion (Shewchuk 1997) whose largest component carries the sign.
fn orient2d_exact_sign(q: [f64; 2], a: [f64; 2], b: [f64; 2]) -> i32 {
    fn two_diff(a: f64, b: f64) -> [f64; 2] {
        let x = a - b;
        let b_virtual = a - x;
        let a_virtual = x + b_virtual;
        [x, (a - a_virtual) + (b_virtual - b)]
    }
    fn two_sum(a: f64, b: f64) -> (f64, f64) {
        let x = a + b;
        let b_virtual = x - a;
        let a_virtual = x - b_virtual;
        (x, (a - a_virtual) + (b - b_virtual))
    }
    let (au, av) = (two_diff(a[0], q[0]), two_diff(a[1], q[1]));
    let (bu, bv) = (two_diff(b[0], q[0]), two_diff(b[1], q[1]));
    let mut terms = [0.0; 16];
    let mut n = 0;
    for (x, y, s) in [(au, bv, 1.0), (av, bu, -1.0)] {
        for xi in x {
            for yi in y {
                let p = xi * yi;
                terms[n] = s * p;
                terms[n + 1] = s * xi.mul_add(yi, -p);
                n += 2;
            }
        }
    }
    // Grow-Expansion, one term at a time; components stay in increasing magnitude.
    let mut expansion = [0.0; 16];
    for (m, &term) in terms.iter().enumerate() {
        let mut carry = term;
        for e in expansion.iter_mut().take(m) {
            let (sum, err) = two_sum(carry, *e);
            *e = err;
            carry = sum;
        }
        expansion[m] = carry;
    }
    match expansion.iter().rev().find(|&&e| e != 0.0) {
        Some(&e) if e > 0.0 => 1,
        Some(_) => -1,
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The orientation sign is exact where the floating-point determinant is not (points
    /// within a few ulps of the line through (12, 12) and (24, 24), Shewchuk's example),
    /// checked against integer arithmetic on the points scaled by 2⁵³; ties are broken
    /// antisymmetrically and never give 0 for distinct points.
    #[test]
    fn orientation_is_exact_and_ties_are_antisymmetric() {
        let ulp = f64::EPSILON / 2.0;
        let scale = |v: f64| (v / ulp) as i128;
        let (a, b) = ([12.0, 12.0], [24.0, 24.0]);
        let mut zeros = 0;
        for i in 0..64 {
            for j in 0..64 {
                let q = [0.5 + i as f64 * ulp, 0.5 + j as f64 * ulp];
                let [qx, qy, ax, ay, bx, by] = [q[0], q[1], a[0], a[1], b[0], b[1]].map(scale);
                let exact = ((ax - qx) * (by - qy) - (ay - qy) * (bx - qx)).signum() as i32;
                assert_eq!(orient2d_exact_sign(q, a, b), exact, "q = {q:?}");
                let (det, s) = edge_function(q, a, b);
                let (det_swapped, s_swapped) = edge_function(q, b, a);
                assert_eq!((det, s), (-det_swapped, -s_swapped));
                assert_ne!(s, 0);
                if exact == 0 {
                    zeros += 1;
                    // q on the line: moved by (ε, ε²), it lies below the line a → b.
                    assert_eq!(s, -1);
                } else {
                    assert_eq!(s, exact);
                }
            }
        }
        assert!(zeros > 0);
    }
}
