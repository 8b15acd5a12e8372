//! The elastic XPBI cantilever: Lagrangian kernels reproduce the total-Lagrangian
//! deformation gradient, and the small-deflection tip converges to beam theory with resolution.
//!
//! Diagnosis behind [`KernelFrame::Reference`] (see its docs): with per-step Eulerian kernels the
//! study cantilever tears off at E ≤ 1e6 Pa by the SPH tensile instability; with Lagrangian
//! kernels it stays, and the remaining error is the one-sided (free-surface) gradient error,
//! O(Δx/H), measured here.

use nalgebra::{Matrix2, Vector2};
use xpbd_core::simulation::BlockHandle;
use xpbd_core::{Particles, Simulation, SolverKind, SolverSettings};
use xpbi_continuum::Material;
use xpbi_continuum::continuum::{ConstraintForm, KernelFrame, XpbiContinuum, XpbiSettings};
use xpbi_continuum::correction::corrected_weights;
use xpbi_continuum::kernel::WendlandC2;
use xpbi_continuum::scene::lattice_box;

const RHO: f64 = 1000.0;
const NU: f64 = 0.3;

/// A 2D plane-strain cantilever `[0, L] × [0, H]` with three pinned particle layers behind
/// `x = 0`, Lagrangian kernels, XSPH off, coloured Gauss–Seidel.
struct Beam {
    sim: Simulation<2>,
    xpbi: BlockHandle<XpbiContinuum<2>>,
    rest: Vec<Vector2<f64>>,
    dx: f64,
}

fn beam(
    length: f64,
    height: f64,
    per_height: usize,
    youngs: f64,
    gravity: f64,
    iterations: usize,
    damping: f64,
    form: ConstraintForm,
) -> Beam {
    let dx = height / per_height as f64;
    let rest = lattice_box(
        Vector2::new(-3.0 * dx, 0.0),
        Vector2::new(length, height),
        dx,
    );
    let vol = dx * dx;
    let mut particles = Particles::<2>::new();
    for x in &rest {
        particles.push(*x, if x.x < 0.0 { 0.0 } else { 1.0 / (RHO * vol) });
    }
    let n = rest.len();
    let mut settings = XpbiSettings::new(dx);
    settings.xsph = xpbi_continuum::xsph::Xsph::OFF;
    settings.constraint_form = form;
    let mut continuum = XpbiContinuum::new(
        &particles,
        (0..n as u32).collect(),
        vec![vol; n],
        Material::elastic(RHO, youngs, NU),
        settings,
    )
    .unwrap();
    continuum.set_kernel_frame(KernelFrame::Reference);
    let mut sim = Simulation::new(
        particles,
        SolverSettings {
            substeps: 1,
            iterations,
            solver: SolverKind::Coloured,
            gravity: Vector2::new(0.0, -gravity),
            velocity_damping: damping,
            threads: 1,
            ..SolverSettings::default()
        },
    )
    .unwrap();
    let xpbi = sim.add_constraints(continuum).unwrap();
    Beam {
        sim,
        xpbi,
        rest,
        dx,
    }
}

/// With Lagrangian kernels the stored F is the total-Lagrangian gradient
/// `F_p = I + Σ_k (x_k − X_k) q⁰_kᵀ` (`q⁰` = corrected weights on the reference lattice,
/// `q⁰_p = −Σ_b q⁰_b`) after any number of steps: the push-forward `q = F⁻ᵀ q⁰` makes the
/// per-step products telescope. Round-off only (1e-10 on strains of ~1e-3).
#[test]
fn reference_frame_carries_the_total_lagrangian_gradient() {
    let mut b = beam(0.1, 0.04, 4, 1e5, 9.81, 6, 0.0, ConstraintForm::Single);
    let dt = 0.7 * b.dx / Material::elastic(RHO, 1e5, NU).wave_speed();
    for _ in 0..40 {
        b.sim.step(dt).unwrap();
    }
    let kernel = WendlandC2::<2>::from_spacing(b.dx).unwrap();
    let x = &b.sim.particles().x;
    let f = b.sim.block(b.xpbi).kind.deformation_gradients();
    let vol = b.dx * b.dx;
    let mut largest_strain = 0.0f64;
    for p in 0..b.rest.len() {
        let nb: Vec<usize> = (0..b.rest.len())
            .filter(|&k| k != p && (b.rest[k] - b.rest[p]).norm() < kernel.support())
            .collect();
        let mut q = Vec::new();
        corrected_weights(
            &kernel,
            1e-2,
            &b.rest[p],
            nb.iter().map(|&k| (b.rest[k], vol)),
            &mut q,
        );
        let mut f_tl = Matrix2::identity();
        for (&k, qk) in nb.iter().zip(&q) {
            f_tl += (x[k] - b.rest[k] - (x[p] - b.rest[p])) * qk.transpose();
        }
        largest_strain = largest_strain.max((f_tl - Matrix2::identity()).norm());
        assert!(
            (f[p] - f_tl).norm() < 1e-10,
            "particle {p}: stored F {:?} vs total-Lagrangian {:?}",
            f[p],
            f_tl
        );
    }
    // The check is not vacuous: the block did deform.
    assert!(largest_strain > 1e-4, "largest |F − I| {largest_strain}");
}

/// Static tip deflection of the cantilever (centroid of the last particle layer extrapolated
/// to x = L), run to rest under critical damping of the beam-theory first mode.
fn static_tip(per_height: usize, form: ConstraintForm) -> (f64, f64) {
    let (length, height, youngs, gravity): (f64, f64, f64, f64) = (0.5, 0.1, 1e6, 0.981);
    let lame = Material::elastic(RHO, youngs, NU).lame();
    let e_plane = youngs / (1.0 - NU * NU);
    let second_moment = height.powi(3) / 12.0;
    let w1 = 1.8751f64.powi(2) * (e_plane * second_moment / (RHO * height * length.powi(4))).sqrt();
    let mut b = beam(
        length,
        height,
        per_height,
        youngs,
        gravity,
        4,
        2.0 * w1,
        form,
    );
    let c = ((lame.lambda + 2.0 * lame.mu) / RHO).sqrt();
    let dt = 0.7 * b.dx / c;
    let steps = (14.0 / w1 / dt) as usize;
    let dx = b.dx;
    let layer = |xc: f64| -> Vec<usize> {
        (0..b.rest.len())
            .filter(|&i| (b.rest[i].x - xc).abs() < 0.25 * dx)
            .collect()
    };
    let (last, prev) = (layer(length - 0.5 * dx), layer(length - 1.5 * dx));
    let tip = |b: &Beam| {
        let x = &b.sim.particles().x;
        let mean = |l: &[usize]| {
            l.iter().map(|&i| x[i] - b.rest[i]).sum::<Vector2<f64>>() / l.len() as f64
        };
        let (a, p) = (mean(&last), mean(&prev));
        -(a + (a - p) * 0.5).y
    };
    let mut before = 0.0;
    for s in 0..steps {
        b.sim.step(dt).unwrap();
        if s + 1 == steps * 9 / 10 {
            before = tip(&b);
        }
    }
    let q = RHO * gravity * height;
    let timoshenko = q * length.powi(4) / (8.0 * e_plane * second_moment)
        + q * length * length / (2.0 * 5.0 / 6.0 * lame.mu * height);
    let after = tip(&b);
    // At rest: the last 10 % of the run moved the tip by < 0.5 % (the error studied is ≥ 10 %).
    assert!(
        (after - before).abs() < 5e-3 * after,
        "{per_height} particles: tip still moving ({before} → {after})"
    );
    (after, timoshenko)
}

/// Small deflection (K = qL³/EI = 0.13, L/H = 5, plane strain, ν = 0.3) at 4 and 8 particles
/// through the height, against Timoshenko `qL⁴/(8E'I) + qL²/(2κGA)` (κ = 5/6,
/// `E' = E/(1 − ν²)`). Measured (h = 0.7Δx/c, 4 iterations): tip/Timoshenko = 1.484 and 1.152:
/// too soft, because the one-sided gradients of the surface particles see the bending strain
/// about half a spacing inwards (an O(Δx/H) error of the stiffness). Asserted:
/// * both too soft (≥ Timoshenko) and the error falls by ≥ 2.5× when Δx halves (3.2× measured;
///   a first-order method gives 2×, so a bound of 2.5 fails if the convergence degrades);
/// * Richardson extrapolation with order 2 (`(4 u_{H/8} − u_{H/4})/3`) lies within 6 % of
///   Timoshenko (measured +4.1 %): beam theory itself is ~2 % off a clamped 2D continuum at
///   L/H = 5 (the 3D FEM Hencky oracle of the study is 2.1 % stiffer than Timoshenko), and the
///   observed order ≈ 1.7 rather than 2 leaves ≈ 2 % in the extrapolation.
#[test]
fn small_deflection_tip_converges_to_beam_theory() {
    let (u4, timoshenko) = static_tip(4, ConstraintForm::Single);
    let (u8, _) = static_tip(8, ConstraintForm::Single);
    let (e4, e8) = (u4 / timoshenko - 1.0, u8 / timoshenko - 1.0);
    assert!(e4 > 0.0 && e8 > 0.0, "errors {e4}, {e8}");
    assert!(e4 / e8 > 2.5, "error 4 → 8 particles: {e4} → {e8}");
    let richardson = (4.0 * u8 - u4) / 3.0;
    println!(
        "tip/Timoshenko: {:.4} (H/4), {:.4} (H/8), Richardson {:.4}",
        u4 / timoshenko,
        u8 / timoshenko,
        richardson / timoshenko
    );
    assert!(
        (richardson / timoshenko - 1.0).abs() < 0.06,
        "Richardson {richardson} vs Timoshenko {timoshenko} (tips {u4}, {u8})"
    );
}

/// The split form (`C_μ`, `C_λ` with their own compliances) has the same energy as the single
/// `C = sqrt(2Ψ)`, so the same static sag once both runs are at rest with converged iterations.
/// Tolerance 1 %: each run is at rest to 0.5 % of the tip (checked in `static_tip`); the
/// converged fixed points themselves agree to round-off.
#[test]
fn split_and_single_constraints_give_the_same_static_sag() {
    let (single, _) = static_tip(4, ConstraintForm::Single);
    let (split, _) = static_tip(4, ConstraintForm::Split);
    println!("tip single {single:.6e}, split {split:.6e}");
    assert!(
        (split / single - 1.0).abs() < 0.01,
        "single {single} vs split {split}"
    );
}
