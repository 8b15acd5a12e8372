//! The return of [`FrictionCone::MohrCoulomb`](super::FrictionCone::MohrCoulomb): Mohr–Coulomb's
//! pyramid in principal Hencky strain, with zero dilatancy (Tresca's flow potential), its angle
//! read as the flowing friction of the shear-flow cone.
//!
//! With ordered principal Kirchhoff stresses `τ₁ ≥ τ₂ ≥ τ₃` (tension positive) and μ_f = tan φ:
//!
//! ```text
//! f(τ) = (τ₁ − τ₃) + μ_f (τ₁ + τ₃) ≤ 0
//! ```
//!
//! the classical pyramid (Mohr–Coulomb's `(τ₁ − τ₃) + (τ₁ + τ₃) sin φ_MC`) with `sin φ_MC = tan φ`
//! for φ < 45°; above, a frictional pyramid without a classical angle (like a wide cone, it
//! admits a small tension beside a larger compression), whose extension corner exists while
//! μ_f < 3.
//! It does not depend on the intermediate stress τ₂. With the flow potential `g = τ₁ − τ₃` (no
//! dilatancy: the trace of ε is kept) a steady simple shear is coaxial, its principal axes at 45°
//! to the shear plane, so that plane carries `|τ| = (τ₁ − τ₃)/2` under `σ_n = −(τ₁ + τ₃)/2`: at
//! yield `|τ|/σ_n = μ_f`, the same flowing friction as the shear-flow cone, whatever τ₂ is (Davis
//! 1968 relates the two angles). The shear-flow cone `α tr τ + ‖dev τ‖ ≤ 0` gives that friction
//! only when τ₂ is the mean of τ₁ and τ₃ (plane shear); on a conical heap's flank or in a
//! spreading column it is not, and the cone flows at a lower angle there. In 2D the pyramid
//! and the shear-flow cone are the same set (`α tr τ + ‖dev τ‖ = ((τ₁ − τ₂) + μ_f(τ₁ + τ₂))/√2`).
//!
//! The return (in log-strain units, `τᵢ = λ tr ε + 2μ εᵢ`, εₐ ≥ ε_b ≥ ε_c, `tr ε < 0`; Borja,
//! *Plasticity*, 2013, §6; Clausen, Damkilde & Andersen 2006 for the regions):
//!
//! ```text
//! g   = (εₐ − ε_c) + μ_f ((λ/μ) tr ε + εₐ + ε_c)          (f / 2μ)
//! g ≤ 0: elastic
//! face:  εₐ −= g/2,  ε_c += g/2                              if still εₐ ≥ ε_b ≥ ε_c
//! edge τ₁ = τ₂:  εₐ = ε_b = m₊ = tr ε (1 − μ_f(λ/μ + 1)) / (3 − μ_f),  ε_c = tr ε − 2m₊
//! edge τ₂ = τ₃:  ε_b = ε_c = m₋ = tr ε (1 + μ_f(λ/μ + 1)) / (3 + μ_f),  εₐ = tr ε − 2m₋
//! ```
//!
//! Both edges satisfy `g = 0` and keep the order (derived in the module's tests). The face return
//! cannot cross the hydrostatic axis (there `g = μ_f (λ/μ + 2/3) tr ε < 0`), so at most one edge
//! is active. Tension (`tr ε ≥ 0`) goes to the apex as on the cone.

/// Ordered indices `(a, b, c)` of the largest, middle and smallest of three values.
fn order(e: &[f64; 3]) -> (usize, usize, usize) {
    let mut i = [0usize, 1, 2];
    i.sort_by(|&x, &y| e[y].total_cmp(&e[x]));
    (i[0], i[1], i[2])
}

/// `f / 2μ` of the trial strain `e` (`tr e < 0`) for the friction `mu_f` and `λ/μ`.
pub(super) fn yield_value(e: &[f64; 3], mu_f: f64, lambda_over_mu: f64) -> f64 {
    let (a, _, c) = order(e);
    let trace = e[0] + e[1] + e[2];
    (e[a] - e[c]) + mu_f * (lambda_over_mu * trace + e[a] + e[c])
}

/// Projects a compressive trial strain (`tr e < 0`) onto the pyramid; `None` when it is inside.
/// The trace is kept.
pub(super) fn project(e: &[f64; 3], mu_f: f64, lambda_over_mu: f64) -> Option<[f64; 3]> {
    let g = yield_value(e, mu_f, lambda_over_mu);
    if g <= 0.0 {
        return None;
    }
    let (a, b, c) = order(e);
    let trace = e[0] + e[1] + e[2];
    let mut out = *e;
    let (ea, ec) = (e[a] - 0.5 * g, e[c] + 0.5 * g);
    if ea < e[b] {
        let m = trace * (1.0 - mu_f * (lambda_over_mu + 1.0)) / (3.0 - mu_f);
        out[a] = m;
        out[b] = m;
        out[c] = trace - 2.0 * m;
    } else if ec > e[b] {
        let m = trace * (1.0 + mu_f * (lambda_over_mu + 1.0)) / (3.0 + mu_f);
        out[b] = m;
        out[c] = m;
        out[a] = trace - 2.0 * m;
    } else {
        out[a] = ea;
        out[c] = ec;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LM: f64 = 2.0;

    fn trace(e: &[f64; 3]) -> f64 {
        e.iter().sum()
    }

    #[test]
    fn the_face_return_lands_on_the_pyramid_keeping_the_trace_and_the_middle_strain() {
        let mu_f = 30f64.to_radians().tan();
        let e = [0.02, -0.005, -0.04];
        let out = project(&e, mu_f, LM).expect("outside");
        assert!(yield_value(&out, mu_f, LM).abs() < 1e-15);
        assert!((trace(&out) - trace(&e)).abs() < 1e-15);
        assert_eq!(out[1], e[1]);
    }

    #[test]
    fn both_edges_land_on_the_pyramid_with_two_equal_strains() {
        let mu_f = 35f64.to_radians().tan();
        // τ₁ ≈ τ₂ (extension corner) and τ₂ ≈ τ₃ (compression corner).
        for (e, pair) in [
            ([0.02, 0.019, -0.05], (0, 1)),
            ([0.03, -0.03, -0.0305], (1, 2)),
        ] {
            let out = project(&e, mu_f, LM).expect("outside");
            assert!(yield_value(&out, mu_f, LM).abs() < 1e-15, "{out:?}");
            assert!((trace(&out) - trace(&e)).abs() < 1e-15);
            assert!((out[pair.0] - out[pair.1]).abs() < 1e-15, "{out:?}");
        }
    }

    #[test]
    fn the_yield_value_ignores_the_intermediate_strain() {
        let mu_f = 0.6;
        let t = -0.03;
        // Same ε₁, ε₃ and trace would fix ε₂; vary ε₂ with the trace moved into λ/μ's term.
        let f = |e2: f64| {
            let e = [0.01, e2, -0.02];
            yield_value(&e, mu_f, 0.0)
        };
        assert_eq!(f(-0.015), f(0.005));
        assert!(yield_value(&[t / 3.0; 3], mu_f, LM) < 0.0);
    }
}
