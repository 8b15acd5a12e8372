//! The XPBI constraint maths (FD check of ∇C_p, energy identity, rigid rotation, pure
//! stretch).

mod common;

use common::{Rng, lattice_neighbourhood, random_f, random_rotation};
use nalgebra::{SMatrix, SVector};
use xpbi_continuum::constraint::{SplitTerm, displacement_gradient, evaluate, evaluate_split};
use xpbi_continuum::correction::{DEFAULT_PINV_THRESHOLD, corrected_weights};
use xpbi_continuum::hencky;
use xpbi_continuum::kernel::WendlandC2;
use xpbi_continuum::plasticity::{Lame, PlasticModel, PlasticState, principal};

const LAME: Lame = Lame {
    mu: 3.0,
    lambda: 2.0,
};

/// A particle at the origin with a jittered (optionally half-space) neighbourhood: returns the
/// stencil positions xⁿ (particle first) and the weights q (q₀ = −Σ q_b).
fn stencil<const D: usize>(
    rng: &mut Rng,
    half: bool,
) -> (Vec<SVector<f64, D>>, Vec<SVector<f64, D>>) {
    let dx = 0.1;
    let nb = lattice_neighbourhood::<D>(dx, 2.0 * dx, 0.2, half, rng);
    let kernel = WendlandC2::<D>::from_spacing(dx).unwrap();
    let vol = dx.powi(D as i32);
    let mut q = Vec::new();
    corrected_weights(
        &kernel,
        DEFAULT_PINV_THRESHOLD,
        &SVector::zeros(),
        nb.iter().map(|x| (*x, vol)),
        &mut q,
    );
    let s: SVector<f64, D> = q.iter().sum();
    let mut xs = vec![SVector::zeros()];
    xs.extend(nb);
    let mut qs = vec![-s];
    qs.extend(q);
    (xs, qs)
}

fn constraint_value<const D: usize>(
    x: &[SVector<f64, D>],
    xn: &[SVector<f64, D>],
    q: &[SVector<f64, D>],
    f_n: &SMatrix<f64, D, D>,
) -> f64 {
    let g = displacement_gradient(x.iter().zip(xn).zip(q).map(|((a, b), c)| (*a, *b, *c)));
    evaluate(
        &g,
        f_n,
        &LAME,
        &PlasticModel::Elastic,
        &PlasticState::default(),
        1e-3,
        true,
    )
    .value
}

/// Central differences of C_p(x) with respect to every coordinate of every stencil particle
/// (p and each neighbour) against ∇_{x_k}C_p = G q_k. Step 1e-6 × spacing: truncation
/// ~ε² C''' ≈ 1e-12 and cancellation ~1e-16/1e-7 ≈ 1e-9 relative, so 1e-6 relative to ‖∇C‖
/// is a safe pass/fail line (a wrong transpose or sign gives O(1)).
fn fd_check<const D: usize>(seed: u64, half: bool) {
    let mut rng = Rng(seed);
    let (xn, q) = stencil::<D>(&mut rng, half);
    let f_n = random_f::<D>(&mut rng, 0.8, 1.2);
    // Candidate positions: a random displacement of a few % of the spacing.
    let x: Vec<SVector<f64, D>> = xn
        .iter()
        .map(|p| p + rng.vector::<D>(-0.004, 0.004))
        .collect();
    let g = displacement_gradient(x.iter().zip(&xn).zip(&q).map(|((a, b), c)| (*a, *b, *c)));
    let e = evaluate(
        &g,
        &f_n,
        &LAME,
        &PlasticModel::Elastic,
        &PlasticState::default(),
        1e-3,
        true,
    );
    assert!(e.value > 0.0);
    let grads: Vec<SVector<f64, D>> = q.iter().map(|qk| e.gradient_factor * qk).collect();
    // ∇_{x_p}C = −Σ_b ∇_{x_b}C.
    let sum: SVector<f64, D> = grads[1..].iter().sum();
    assert!((grads[0] + sum).norm() < 1e-12 * sum.norm().max(1.0));
    let scale = grads.iter().map(|g| g.norm()).fold(0.0, f64::max);
    let h = 1e-7;
    for k in 0..x.len() {
        for a in 0..D {
            let mut xp = x.clone();
            xp[k][a] += h;
            let mut xm = x.clone();
            xm[k][a] -= h;
            let fd = (constraint_value(&xp, &xn, &q, &f_n) - constraint_value(&xm, &xn, &q, &f_n))
                / (2.0 * h);
            assert!(
                (fd - grads[k][a]).abs() < 1e-6 * scale,
                "k {k} axis {a}: fd {fd} analytic {}",
                grads[k][a]
            );
        }
    }
}

#[test]
fn constraint_gradient_matches_finite_differences_3d() {
    for seed in 0..4 {
        fd_check::<3>(seed, seed % 2 == 1);
    }
}

#[test]
fn constraint_gradient_matches_finite_differences_2d() {
    for seed in 0..4 {
        fd_check::<2>(100 + seed, seed % 2 == 1);
    }
}

/// (1/2α) C² = V⁰ Ψ with α = 1/V⁰ (exact up to round-off).
#[test]
fn constraint_energy_identity() {
    let mut rng = Rng(9);
    for _ in 0..50 {
        let f = random_f::<3>(&mut rng, 0.6, 1.5);
        let v0 = rng.uniform(1e-9, 1e-3);
        let alpha = 1.0 / v0;
        let e = evaluate(
            &SMatrix::zeros(),
            &f,
            &LAME,
            &PlasticModel::Elastic,
            &PlasticState::default(),
            1e-3,
            true,
        );
        let psi = hencky::psi(&LAME, &principal(&f).sigma);
        assert!(
            (e.value * e.value / (2.0 * alpha) - v0 * psi).abs() <= 1e-12 * v0 * psi.max(1e-300)
        );
    }
}

/// F update of a rigid rotation v = W x (W skew) through the corrected gradient:
/// F^{n+1} = (I + Δt W) Fⁿ exactly, so with Fⁿ a rotation F^{n+1}ᵀF^{n+1} − I = −Δt² W²
/// (strain O(Δt²) per step), checked to 1e-12.
#[test]
fn rigid_rotation_keeps_f_a_rotation_to_second_order() {
    let mut rng = Rng(21);
    for half in [false, true] {
        let (xn, q) = stencil::<3>(&mut rng, half);
        let omega = SVector::<f64, 3>::new(0.3, -1.2, 2.0);
        let w = omega.cross_matrix();
        let f_n = random_rotation::<3>(&mut rng);
        for dt in [1e-2, 1e-3, 1e-4] {
            let x: Vec<_> = xn
                .iter()
                .map(|p| p + w * p * dt + SVector::<f64, 3>::new(0.1, 0.2, 0.3) * dt)
                .collect();
            let g =
                displacement_gradient(x.iter().zip(&xn).zip(&q).map(|((a, b), c)| (*a, *b, *c)));
            assert!((g - w * dt).norm() < 1e-12, "Δt∇v ≠ Δt W");
            let f = (SMatrix::<f64, 3, 3>::identity() + g) * f_n;
            let strain = f.transpose() * f - SMatrix::<f64, 3, 3>::identity();
            let expected = -(w * w) * (dt * dt);
            assert!((f_n.transpose() * expected * f_n - strain).norm() < 1e-12);
            // ‖W²‖_F = √2 |ω|² (eigenvalues 0, −|ω|², −|ω|²).
            assert!(strain.norm() <= 2f64.sqrt() * (omega.norm() * dt).powi(2) * 1.0001 + 1e-14);
        }
    }
}

/// Pure stretch v = A x: F^{n+1} = (I + ΔtA)Fⁿ exactly (corrected gradient), 2D and 3D.
#[test]
fn pure_stretch_updates_f_exactly() {
    let mut rng = Rng(33);
    let dt = 1e-3;
    let (xn, q) = stencil::<3>(&mut rng, true);
    let a: SMatrix<f64, 3, 3> = rng.matrix(-2.0, 2.0);
    let f_n = random_f::<3>(&mut rng, 0.8, 1.2);
    let x: Vec<_> = xn.iter().map(|p| p + a * p * dt).collect();
    let g = displacement_gradient(x.iter().zip(&xn).zip(&q).map(|((a, b), c)| (*a, *b, *c)));
    let f = (SMatrix::<f64, 3, 3>::identity() + g) * f_n;
    assert!((f - (SMatrix::<f64, 3, 3>::identity() + a * dt) * f_n).norm() < 1e-12);
    let (xn2, q2) = stencil::<2>(&mut rng, false);
    let a2: SMatrix<f64, 2, 2> = rng.matrix(-2.0, 2.0);
    let x2: Vec<_> = xn2.iter().map(|p| p + a2 * p * dt).collect();
    let g2 = displacement_gradient(x2.iter().zip(&xn2).zip(&q2).map(|((a, b), c)| (*a, *b, *c)));
    assert!((g2 - a2 * dt).norm() < 1e-12);
}

/// Plasticity in the loop: the evaluated F_E lies on the yield surface and C is computed from
/// it; the semi-implicit switch evaluates the unprojected F.
#[test]
fn plasticity_in_the_loop_switch() {
    let model = PlasticModel::VonMises(xpbi_continuum::plasticity::VonMises {
        yield_stress: 0.1,
        hardening_modulus: 0.0,
    });
    let g = SMatrix::<f64, 3, 3>::new(0.2, 0.0, 0.0, 0.0, -0.1, 0.0, 0.0, 0.0, -0.1);
    let implicit = evaluate(
        &g,
        &SMatrix::identity(),
        &LAME,
        &model,
        &PlasticState::default(),
        1e-3,
        true,
    );
    let semi = evaluate(
        &g,
        &SMatrix::identity(),
        &LAME,
        &model,
        &PlasticState::default(),
        1e-3,
        false,
    );
    assert!(implicit.value < semi.value);
    let eps = principal(&implicit.elastic_f).eps;
    let dev = eps - SVector::<f64, 3>::repeat(eps.sum() / 3.0);
    assert!((2.0 * LAME.mu * dev.norm() - 0.1).abs() < 1e-9);
    assert!((semi.elastic_f - (SMatrix::identity() + g)).norm() < 1e-15);
}

/// Split form: central differences of `C_μ(x)` and `C_λ(x)` with respect to every stencil
/// coordinate against `∇_{x_k}C = G q_k` (same step and pass line as [`fd_check`]), in 2D and
/// 3D, full and half-space neighbourhoods.
fn fd_check_split<const D: usize>(seed: u64, half: bool, term: SplitTerm) {
    let mut rng = Rng(seed);
    let (xn, q) = stencil::<D>(&mut rng, half);
    let f_n = random_f::<D>(&mut rng, 0.8, 1.2);
    let x: Vec<SVector<f64, D>> = xn
        .iter()
        .map(|p| p + rng.vector::<D>(-0.004, 0.004))
        .collect();
    let value = |x: &[SVector<f64, D>]| {
        let g = displacement_gradient(x.iter().zip(&xn).zip(&q).map(|((a, b), c)| (*a, *b, *c)));
        evaluate_split(
            &g,
            &f_n,
            &LAME,
            &PlasticModel::Elastic,
            &PlasticState::default(),
            1e-3,
            true,
            term,
        )
    };
    let e = value(&x);
    assert!(e.value.abs() > 1e-3, "{term:?}: C = {}", e.value);
    let grads: Vec<SVector<f64, D>> = q.iter().map(|qk| e.gradient_factor * qk).collect();
    let scale = grads.iter().map(|g| g.norm()).fold(0.0, f64::max);
    let h = 1e-7;
    for k in 0..x.len() {
        for a in 0..D {
            let mut xp = x.clone();
            xp[k][a] += h;
            let mut xm = x.clone();
            xm[k][a] -= h;
            let fd = (value(&xp).value - value(&xm).value) / (2.0 * h);
            assert!(
                (fd - grads[k][a]).abs() < 1e-6 * scale,
                "{term:?} k {k} axis {a}: fd {fd} analytic {}",
                grads[k][a]
            );
        }
    }
}

#[test]
fn split_constraint_gradients_match_finite_differences() {
    for term in [SplitTerm::Shear, SplitTerm::Volume] {
        for seed in 0..3 {
            fd_check_split::<3>(200 + seed, seed % 2 == 1, term);
            fd_check_split::<2>(300 + seed, seed % 2 == 1, term);
        }
    }
}

/// The split has the single constraint's energy: `C_μ²/(2α_μ) + C_λ²/(2α_λ) = V⁰Ψ` with
/// `α_μ = 1/(2μV⁰)`, `α_λ = 1/(λV⁰)` (round-off only), and the single-form `C² / 2α` too.
#[test]
fn split_energy_identity() {
    let mut rng = Rng(19);
    for _ in 0..50 {
        let f = random_f::<3>(&mut rng, 0.6, 1.5);
        let v0 = rng.uniform(1e-9, 1e-3);
        let eval = |t| {
            evaluate_split(
                &SMatrix::zeros(),
                &f,
                &LAME,
                &PlasticModel::Elastic,
                &PlasticState::default(),
                1e-3,
                true,
                t,
            )
            .value
        };
        let (cm, cl) = (eval(SplitTerm::Shear), eval(SplitTerm::Volume));
        let split = cm * cm * LAME.mu * v0 + cl * cl * LAME.lambda * v0 / 2.0;
        let psi = hencky::psi(&LAME, &principal(&f).sigma);
        assert!((split - v0 * psi).abs() <= 1e-12 * v0 * psi);
    }
}
