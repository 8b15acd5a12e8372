//! Finite-difference checks of every constraint gradient on random configurations.
//!
//! Central differences with step ε = 1e-6 have truncation error O(ε²·C''') ≈ 1e-12 and
//! round-off O(1e-16/ε) ≈ 1e-10 for O(1) values, so 1e-6 (scaled by the gradient size)
//! separates a correct gradient from any wrong one by orders of magnitude.

use proptest::prelude::*;
use xpbd_core::constraint::{
    DihedralBendingConstraints, IsometricBendingConstraints, MembraneConstraints, MembraneModel,
    NeoHookeanTetConstraints, SurfaceVolumeConstraint, TetVolumeConstraints,
};
use xpbd_core::prelude::*;

fn fd_check<K: ConstraintKind<D>, const D: usize>(
    kind: &K,
    c: usize,
    xs: &[Vector<D>],
) -> Result<(), TestCaseError> {
    let n = xs.len();
    let mut grad = vec![Vector::<D>::zeros(); n];
    let value = kind.evaluate(c, xs, &mut grad);
    prop_assume!(value.is_finite());
    let scale = grad.iter().map(|g| g.norm()).fold(1.0, f64::max);
    let eps = 1e-6;
    let mut scratch = vec![Vector::<D>::zeros(); n];
    for k in 0..n {
        for d in 0..D {
            let mut p = xs.to_vec();
            p[k][d] += eps;
            let fp = kind.evaluate(c, &p, &mut scratch);
            p[k][d] -= 2.0 * eps;
            let fm = kind.evaluate(c, &p, &mut scratch);
            let fd = (fp - fm) / (2.0 * eps);
            prop_assert!(
                (fd - grad[k][d]).abs() < 1e-6 * scale,
                "{}: constraint {c}, particle {k}, axis {d}: fd {fd} vs analytic {}",
                K::NAME,
                grad[k][d]
            );
        }
    }
    Ok(())
}

fn vec3() -> impl Strategy<Value = Vector<3>> {
    (-0.3..0.3f64, -0.3..0.3f64, -0.3..0.3f64).prop_map(|(a, b, c)| Vector::<3>::new(a, b, c))
}

fn vec2() -> impl Strategy<Value = Vector<2>> {
    (-0.2..0.2f64, -0.2..0.2f64).prop_map(|(a, b)| Vector::<2>::new(a, b))
}

fn particles<const D: usize>(xs: &[Vector<D>]) -> Particles<D> {
    let mut p = Particles::new();
    for &x in xs {
        p.push(x, 1.0);
    }
    p
}

fn unit_tet() -> [Vector<3>; 4] {
    [
        Vector::<3>::zeros(),
        Vector::<3>::x(),
        Vector::<3>::y(),
        Vector::<3>::z(),
    ]
}

fn perturb<const D: usize, const N: usize>(
    rest: [Vector<D>; N],
    d: &[Vector<D>],
) -> Vec<Vector<D>> {
    rest.iter().zip(d).map(|(a, b)| a + b).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn distance(a in vec3(), b in vec3()) {
        let xs = [a, b + Vector::<3>::new(1.0, 0.0, 0.0)];
        let mut d = DistanceConstraints::new();
        d.add_with_rest_length(0, 1, 0.7, 0.0).unwrap();
        fd_check(&d, 0, &xs)?;
    }

    #[test]
    fn attachment(a in vec2()) {
        let mut att = AttachmentConstraints::<2>::new();
        att.add(0, Vector::<2>::new(0.5, 0.1), 0.0).unwrap();
        fd_check(&att, 0, &[a])?;
    }

    #[test]
    fn tet_volume_3d(d in prop::collection::vec(vec3(), 4)) {
        let rest = unit_tet();
        let mut v = TetVolumeConstraints::<3>::new();
        v.add(&particles(&rest), &[0, 1, 2, 3], 0.0).unwrap();
        fd_check(&v, 0, &perturb(rest, &d))?;
    }

    #[test]
    fn triangle_area_2d(d in prop::collection::vec(vec2(), 3)) {
        let rest = [Vector::<2>::zeros(), Vector::<2>::x(), Vector::<2>::y()];
        let mut v = TetVolumeConstraints::<2>::new();
        v.add(&particles(&rest), &[0, 1, 2], 0.0).unwrap();
        fd_check(&v, 0, &perturb(rest, &d))?;
    }

    #[test]
    fn neo_hookean_3d(d in prop::collection::vec(vec3(), 4)) {
        let rest = unit_tet();
        let mut nh = NeoHookeanTetConstraints::<3>::new(1e5, 0.3).unwrap();
        nh.add(&particles(&rest), &[0, 1, 2, 3]).unwrap();
        let xs = perturb(rest, &d);
        fd_check(&nh, 0, &xs)?;
        fd_check(&nh, 1, &xs)?;
    }

    #[test]
    fn neo_hookean_2d(d in prop::collection::vec(vec2(), 3)) {
        let rest = [Vector::<2>::zeros(), Vector::<2>::x(), Vector::<2>::y()];
        let mut nh = NeoHookeanTetConstraints::<2>::new(1e5, 0.3).unwrap();
        nh.add(&particles(&rest), &[0, 1, 2]).unwrap();
        let xs = perturb(rest, &d);
        fd_check(&nh, 0, &xs)?;
        fd_check(&nh, 1, &xs)?;
    }

    #[test]
    fn membrane(d in prop::collection::vec(vec3(), 3), nh in any::<bool>()) {
        let rest = [Vector::<3>::zeros(), Vector::<3>::x(), Vector::<3>::new(0.3, 0.9, 0.2)];
        let model = if nh { MembraneModel::NeoHookean } else { MembraneModel::StVK };
        let mut m = MembraneConstraints::new(model, 1e4, 0.3, 1e-3).unwrap();
        m.add(&particles(&rest), [0, 1, 2]).unwrap();
        let xs = perturb(rest, &d);
        // Away from the rest state C = √(2Ψ) is smooth; very close to it the gradient is
        // direction-dependent (a cone), so skip the first ~0.1 % of strain.
        let mut g = vec![Vector::<3>::zeros(); 3];
        prop_assume!(m.evaluate(0, &xs, &mut g) > 1e-3);
        fd_check(&m, 0, &xs)?;
    }

    #[test]
    fn dihedral(d in prop::collection::vec(vec3(), 4), fold in -1.2..1.2f64) {
        // wings w0 = (0.5, -1, 0) and w1 = (0.5, cos, sin) folded about the x axis edge.
        let rest = [Vector::<3>::new(0.5, -1.0, 0.0), Vector::<3>::new(0.5, 1.0, 0.0), Vector::<3>::zeros(), Vector::<3>::x()];
        let mut b = DihedralBendingConstraints::new();
        b.add(&particles(&rest), [0, 1, 2, 3], 1e-3).unwrap();
        let mut xs = perturb(rest, &d);
        xs[1] = Vector::<3>::new(0.5, fold.cos(), fold.sin()) + d[1];
        fd_check(&b, 0, &xs)?;
    }

    #[test]
    fn isometric(d in prop::collection::vec(vec3(), 4)) {
        let rest = [Vector::<3>::zeros(), Vector::<3>::x(), Vector::<3>::new(0.5, -1.0, 0.0), Vector::<3>::new(0.4, 1.0, 0.0)];
        let mut b = IsometricBendingConstraints::new();
        b.add(&particles(&rest), [0, 1, 2, 3], 1e-3).unwrap();
        let xs = perturb(rest, &d);
        let mut g = vec![Vector::<3>::zeros(); 4];
        prop_assume!(b.evaluate(0, &xs, &mut g) > 1e-3);
        fd_check(&b, 0, &xs)?;
    }

    #[test]
    fn surface_volume(d in prop::collection::vec(vec3(), 4)) {
        // A tetrahedron surface, outward oriented.
        let rest = unit_tet();
        let tris = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        let s = SurfaceVolumeConstraint::new(&particles(&rest), &tris, 1.0, 0.0).unwrap();
        prop_assert!((s.rest_volume - 1.0 / 6.0).abs() < 1e-12);
        fd_check(&s, 0, &perturb(rest, &d))?;
    }
}
