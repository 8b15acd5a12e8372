//! Analytic checks of the XPBD core: hanging chain statics, pendulum period and energy,
//! free fall, pinned particles.

use xpbd_core::builders::{ClothGrid, RopeBuilder};
use xpbd_core::prelude::*;
use xpbd_core::simulation::Diagnostics;

const G: f64 = 9.81;

/// A vertical chain of `links` links of length `l`, particle mass `m`, link compliance `alpha`,
/// pinned at the top. At rest, link k (from the top) carries the weight of the particles below
/// it, T_k = (links − k) m g, and XPBD's fixed point C + α̃λ = 0 with force λ/h² makes the
/// static stretch exactly α T_k (xpbi-math.md §3.1).
fn hanging_chain(solver: SolverKind, iterations: usize) -> (Vec<f64>, Vec<f64>) {
    let (links, l, m, alpha) = (10, 0.1, 0.1, 1e-4);
    let rope = RopeBuilder::<3> {
        links,
        start: Vector::<3>::zeros(),
        end: Vector::<3>::new(0.0, 0.0, -(links as f64) * l),
        mass: m * (links + 1) as f64,
        compliance: alpha,
        pin_start: true,
    }
    .build()
    .unwrap();
    let settings = SolverSettings {
        substeps: 2,
        iterations,
        solver,
        velocity_damping: 5.0,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(rope.particles, settings).unwrap();
    sim.add_constraints(rope.links).unwrap();
    for _ in 0..900 {
        sim.step(1.0 / 60.0).unwrap();
    }
    let x = &sim.particles().x;
    let stretch: Vec<f64> = (0..links).map(|k| (x[k] - x[k + 1]).norm() - l).collect();
    let expected: Vec<f64> = (0..links)
        .map(|k| alpha * (links - k) as f64 * m * G)
        .collect();
    (stretch, expected)
}

#[test]
fn hanging_chain_stretch_equals_compliance_times_tension() {
    let (stretch, expected) = hanging_chain(SolverKind::GaussSeidel, 100);
    for (k, (s, e)) in stretch.iter().zip(&expected).enumerate() {
        // 1e-6 relative: the residual after 100 GS iterations of a 10-link chain with
        // α̃ = α/h² = 1.44 is far below this; any error in the update formula or the
        // compliance scaling shows up at the percent level.
        assert!(
            ((s - e) / e).abs() < 1e-6,
            "link {k}: stretch {s:e} vs α·T = {e:e}"
        );
    }
}

#[test]
fn hanging_chain_is_the_same_for_coloured_gauss_seidel_and_jacobi() {
    let (gs, expected) = hanging_chain(SolverKind::Coloured, 100);
    let (jac, _) = hanging_chain(SolverKind::JACOBI, 400);
    for k in 0..gs.len() {
        assert!(
            ((gs[k] - expected[k]) / expected[k]).abs() < 1e-6,
            "coloured link {k}"
        );
        // Jacobi converges more slowly (information travels one link per iteration), so its
        // static state agrees with GS to 1e-4 relative, not 1e-6.
        assert!(
            ((jac[k] - gs[k]) / gs[k]).abs() < 1e-4,
            "jacobi link {k}: {} vs {}",
            jac[k],
            gs[k]
        );
    }
}

/// Returns (measured period, relative energy change) of a rigid pendulum of length 1 m
/// released at `theta0` and run for `seconds`.
fn pendulum(theta0: f64, substeps: usize, seconds: f64) -> (f64, f64) {
    let mut p = Particles::<2>::new();
    let pivot = p.push(Vector::<2>::zeros(), 0.0);
    let bob = p.push(Vector::<2>::new(theta0.sin(), -theta0.cos()), 1.0);
    let mut rod = DistanceConstraints::new();
    rod.add(&p, pivot, bob, 0.0).unwrap();
    let settings = SolverSettings {
        substeps,
        iterations: 1,
        gravity: Vector::<2>::new(0.0, -G),
        solver: SolverKind::GaussSeidel,
        diagnostics: Diagnostics {
            energies: true,
            ..Diagnostics::default()
        },
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(p, settings).unwrap();
    sim.add_constraints(rod).unwrap();
    let e0 = sim.energies().total();
    let dt = 1.0 / 60.0;
    let mut crossings = Vec::new();
    let mut last_x = sim.particles().x[bob].x;
    let mut t = 0.0;
    while t < seconds {
        sim.step(dt).unwrap();
        t += dt;
        let x = sim.particles().x[bob].x;
        if last_x > 0.0 && x <= 0.0 {
            // linear interpolation of the downward zero crossing
            crossings.push(t - dt * x / (x - last_x));
        }
        last_x = x;
    }
    let periods = crossings.len() - 1;
    let period = (crossings[periods] - crossings[0]) / periods as f64;
    (period, (sim.energies().total() - e0) / e0.abs())
}

#[test]
fn pendulum_small_angle_period_and_bounded_energy_drift() {
    let theta0 = 0.05;
    let (period, drift) = pendulum(theta0, 50, 12.0);
    // Finite-amplitude correction (1 + θ₀²/16) is 1.6e-4, well inside the 1 % tolerance.
    let expected = 2.0 * std::f64::consts::PI * (1.0 / G).sqrt();
    assert!(
        ((period - expected) / expected).abs() < 0.01,
        "period {period} vs {expected}"
    );
    // Energy (measured from the pivot) drifts by the O(h) numerical damping of implicit
    // Euler; with 50 substeps at 60 Hz it stays below 1 % over 12 s.
    assert!(drift.abs() < 0.01, "energy drift {drift}");
    assert!(drift <= 1e-9, "XPBD must not gain energy: {drift}");
}

#[test]
fn more_substeps_damp_less() {
    let (_, drift_4) = pendulum(0.5, 4, 5.0);
    let (_, drift_64) = pendulum(0.5, 64, 5.0);
    assert!(
        drift_64.abs() < drift_4.abs() / 4.0,
        "substeps should reduce damping: {drift_4} vs {drift_64}"
    );
}

#[test]
fn free_fall_matches_symplectic_euler_closed_form() {
    let mut p = Particles::<3>::new();
    let x0 = Vector::<3>::new(0.1, -0.2, 3.0);
    let v0 = Vector::<3>::new(1.0, 0.5, 2.0);
    let i = p.push(x0, 2.0);
    p.v[i] = v0;
    let settings = SolverSettings::<3> {
        substeps: 7,
        ..SolverSettings::default()
    };
    let g = settings.gravity;
    let mut sim = Simulation::new(p, settings).unwrap();
    let (dt, frames) = (1.0 / 60.0, 90);
    for _ in 0..frames {
        sim.step(dt).unwrap();
    }
    let h = dt / 7.0;
    let n = (7 * frames) as f64;
    let t = n * h;
    // v_n = v₀ + n h g and x_n = x₀ + v₀ t + g h² n(n+1)/2 = x₀ + v₀t + ½ g t (t + h).
    let x_expected = x0 + v0 * t + g * (0.5 * t * (t + h));
    let v_expected = v0 + g * t;
    // Round-off only: v = (x − x_prev)/h amplifies it by |x|/(h|v|) ~ 1e3 per substep.
    assert!(
        (sim.particles().x[i] - x_expected).norm() < 1e-9,
        "{}",
        (sim.particles().x[i] - x_expected).norm()
    );
    assert!((sim.particles().v[i] - v_expected).norm() < 1e-9);
}

#[test]
fn pinned_particles_never_move_and_kinematic_ones_follow_their_target() {
    let cloth = ClothGrid::<3> {
        nx: 8,
        ny: 8,
        pinned: vec![(0, 7), (7, 7)],
        ..ClothGrid::default()
    }
    .build()
    .unwrap();
    let (a, b) = (cloth.index(0, 7), cloth.index(7, 7));
    let (xa, xb) = (cloth.particles.x[a], cloth.particles.x[b]);
    let mut sim = Simulation::new(cloth.particles.clone(), SolverSettings::default()).unwrap();
    sim.add_constraints(cloth.stretch.clone()).unwrap();
    for solver in [
        SolverKind::GaussSeidel,
        SolverKind::Coloured,
        SolverKind::JACOBI,
    ] {
        let settings = SolverSettings {
            solver,
            ..sim.settings().clone()
        };
        sim.set_settings(settings).unwrap();
        for _ in 0..30 {
            sim.step(1.0 / 60.0).unwrap();
            assert_eq!(sim.particles().x[a], xa);
            assert_eq!(sim.particles().x[b], xb);
        }
    }
    // Animate one pin: after a step it sits exactly on its target.
    let target = xa + Vector::<3>::new(0.0, 0.0, 0.05);
    sim.particles_mut().kinematic_target[a] = Some(target);
    sim.step(1.0 / 60.0).unwrap();
    assert!((sim.particles().x[a] - target).norm() < 1e-15);
    assert!(
        (sim.particles().v[a].z - 0.05 * 60.0).abs() < 1e-9,
        "kinematic velocity {}",
        sim.particles().v[a]
    );
}

/// The XPBD paper's spring (§7): distance constraint with rest length 1, α = 1e-3 m/N, a free
/// particle of mass 1 kg released at x = 1.5 next to a pinned one, no gravity. The analytic
/// solution is x(t) = 1 + 0.5 cos(t/√(mα)). Returns (measured period, amplitude after `t_end`).
fn spring(beta: f64, substeps: usize, t_end: f64) -> (f64, f64) {
    let mut p = Particles::<2>::new();
    p.push(Vector::<2>::zeros(), 0.0);
    p.push(Vector::<2>::new(1.5, 0.0), 1.0);
    let mut d = DistanceConstraints::new();
    d.add_with_rest_length(0, 1, 1.0, 1e-3).unwrap();
    d.set_damping(beta).unwrap();
    let settings = SolverSettings::<2> {
        substeps,
        gravity: Vector::<2>::zeros(),
        solver: SolverKind::GaussSeidel,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(p, settings).unwrap();
    sim.add_constraints(d).unwrap();
    let dt = 1.0 / 60.0;
    let (mut t, mut last, mut crossings, mut amplitude) = (0.0, 0.5, Vec::new(), 0.0f64);
    while t < t_end {
        sim.step(dt).unwrap();
        t += dt;
        let u = sim.particles().x[1].x - 1.0;
        if last > 0.0 && u <= 0.0 {
            crossings.push(t - dt * u / (u - last));
        }
        if t > t_end - 0.2 {
            amplitude = amplitude.max(u.abs());
        }
        last = u;
    }
    let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
    (period, amplitude)
}

#[test]
fn spring_oscillates_at_the_analytic_frequency() {
    let expected = 2.0 * std::f64::consts::PI * (1.0f64 * 1e-3).sqrt();
    let (period, amplitude) = spring(0.0, 40, 2.0);
    // h = 1/2400 s, ωh = 0.013: implicit Euler's period error O((ωh)²) is ~1e-4.
    assert!(
        ((period - expected) / expected).abs() < 0.01,
        "period {period} vs {expected}"
    );
    // XPBD with one converged iteration per substep *is* implicit Euler on this linear spring,
    // whose amplitude decays by (1 + (ωh)²)^(−1/2) per step: after 2 s, 0.5 → 0.33. The peak in
    // the last 0.2 s (one period) lies within one period of t = 2 s: 2 % tolerance.
    let omega_h = (1.0f64 / 1e-3).sqrt() / 2400.0;
    let predicted = 0.5 * (1.0 + omega_h * omega_h).powf(-0.5 * 4800.0);
    assert!(
        ((amplitude - predicted) / predicted).abs() < 0.02,
        "amplitude {amplitude} vs implicit Euler {predicted}"
    );
}

#[test]
fn constraint_damping_dissipates_without_changing_statics() {
    let (_, undamped) = spring(0.0, 40, 2.0);
    // β is a damping coefficient (N·s/m): with m = 1 kg the envelope decays as e^{−βt/2m} on
    // top of the numerical damping. The last-period peak sits in t ∈ [1.8, 2.0]: ±10 %.
    let beta = 2.0;
    let (_, damped) = spring(beta, 40, 2.0);
    let ratio = damped / undamped;
    let predicted = (-beta * 1.9 / 2.0f64).exp();
    assert!(
        (ratio / predicted - 1.0).abs() < 0.12,
        "damped/undamped {ratio} vs e^(-βt/2m) = {predicted}"
    );
    // Statics: a hanging chain with damped links settles to the same α·T stretch.
    let (links, l, m, alpha) = (5, 0.1, 0.1, 1e-4);
    let rope = RopeBuilder::<3> {
        links,
        start: Vector::<3>::zeros(),
        end: Vector::<3>::new(0.0, 0.0, -0.5),
        mass: m * 6.0,
        compliance: alpha,
        pin_start: true,
    }
    .build()
    .unwrap();
    let mut chain = rope.links.clone();
    chain.set_damping(0.1).unwrap();
    let settings = SolverSettings {
        substeps: 2,
        iterations: 200,
        solver: SolverKind::GaussSeidel,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(rope.particles, settings).unwrap();
    sim.add_constraints(chain).unwrap();
    for _ in 0..1800 {
        sim.step(1.0 / 60.0).unwrap();
    }
    let x = &sim.particles().x;
    for k in 0..links {
        let expected = alpha * (links - k) as f64 * m * G;
        let s = (x[k] - x[k + 1]).norm() - l;
        assert!(
            ((s - expected) / expected).abs() < 1e-6,
            "link {k}: {s} vs {expected}"
        );
    }
}
