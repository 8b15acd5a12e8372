//! Substep bounds declared by a constraint kind and adaptive stepping: a step over a bound is
//! refused with nothing changed, `advance` splits a span below the bound, a failing step is
//! halved and retried, and the step sequence is a function of the state.

use xpbd_core::constraint::SubstepBound;
use xpbd_core::prelude::*;
use xpbd_core::simulation::AdaptiveStepping;

/// No constraints; declares the bound h ≤ ℓ / max|v| (a CFL bound with length ℓ).
#[derive(Debug)]
struct Cfl {
    length: f64,
}

impl ConstraintKind<2> for Cfl {
    const NAME: &'static str = "cfl";
    fn len(&self) -> usize {
        0
    }
    fn stencil(&self, _c: usize) -> &[u32] {
        &[]
    }
    fn compliance(&self, _c: usize) -> f64 {
        0.0
    }
    fn evaluate(&self, _c: usize, _xs: &[Vector<2>], _grad: &mut [Vector<2>]) -> f64 {
        0.0
    }
    fn max_substep(&self, p: &Particles<2>) -> Option<SubstepBound> {
        let (i, v) =
            p.v.iter()
                .map(|v| v.norm())
                .enumerate()
                .fold((0, 0.0), |a, b| if b.1 > a.1 { b } else { a });
        Some(SubstepBound {
            h: self.length / v,
            rule: "test CFL",
            particle: Some(i),
            travel: None,
        })
    }
}

fn falling(v0: f64, substeps: usize) -> Simulation<2> {
    let mut p = Particles::<2>::new();
    p.push(Vector::<2>::zeros(), 1.0);
    p.push(Vector::<2>::new(1.0, 0.0), 1.0);
    p.v[1] = Vector::<2>::new(0.0, -v0);
    let settings = SolverSettings {
        substeps,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(p, settings).unwrap();
    sim.add_constraints(Cfl { length: 0.01 }).unwrap();
    sim
}

#[test]
fn a_step_over_a_declared_bound_is_refused_and_changes_nothing() {
    let mut sim = falling(2.0, 2);
    // Bound h ≤ 0.01 / 2 = 5e-3; substep 0.02 / 2 = 1e-2.
    let before = sim.particles().x.clone();
    let e = sim.step(0.02).unwrap_err();
    match e {
        StepError::TimeStepOverBound {
            h,
            bound,
            block,
            block_name,
            particle,
            ..
        } => {
            assert_eq!((h, bound, block, block_name), (0.01, 0.005, 0, "cfl"));
            assert_eq!(particle, Some(1));
        }
        other => panic!("expected TimeStepOverBound, got {other:?}"),
    }
    assert_eq!(sim.particles().x, before);
    assert_eq!(sim.time(), 0.0);
    assert!(e.to_string().contains("test CFL"), "{e}");
    // At the bound the step is taken.
    sim.step(0.01).unwrap();
}

#[test]
fn advance_splits_a_span_below_the_bound_and_reports_the_steps() {
    let mut sim = falling(2.0, 2);
    let r = sim
        .advance(0.1, &AdaptiveStepping::new(0.05), |_, _| {})
        .unwrap();
    // Every step is at most 2 substeps × 0.01 / |v| at its start, and the steps sum to 0.1.
    assert!((sim.time() - 0.1).abs() < 1e-14);
    assert!(r.steps >= 9, "{r:?}");
    assert!(r.dt_max <= 0.01 + 1e-15, "{r:?}");
    assert!(r.dt_min > 0.0 && r.dt_min <= r.dt_max);
    assert_eq!(r.halvings, 0);
    // Free fall from v₀: the steps changed, the physics did not (symplectic Euler error ≤ g t Δt).
    let t = sim.time();
    let exact = -2.0 * t - 0.5 * 9.81 * t * t;
    assert!((sim.particles().x[1].y - exact).abs() < 9.81 * t * r.dt_max);
}

#[test]
fn a_span_of_one_step_under_the_bound_is_that_step_bit_for_bit() {
    let mut a = falling(0.1, 1);
    let mut b = falling(0.1, 1);
    a.step(0.01).unwrap();
    let r = b
        .advance(0.01, &AdaptiveStepping::new(0.01), |_, _| {})
        .unwrap();
    assert_eq!(r.steps, 1);
    assert_eq!(a.particles().x, b.particles().x);
    assert_eq!(a.particles().v, b.particles().v);
    assert_eq!(a.time(), b.time());
}

#[test]
fn a_failing_step_is_halved_then_the_error_keeps_the_last_good_state() {
    // No bound; divergence = speed above 10 m/s. From 9 m/s a step of 0.2 s fails (10.96), one
    // of 0.1 s passes (9.98); the next 0.1 s cannot pass at any size above 10/9.81 − … so four
    // halvings are exhausted and the error keeps the state at t = 0.1 s.
    let mut p = Particles::<2>::new();
    p.push(Vector::<2>::zeros(), 1.0);
    p.v[0] = Vector::<2>::new(0.0, -9.0);
    let mut settings = SolverSettings::<2> {
        substeps: 1,
        ..SolverSettings::default()
    };
    settings.diagnostics.max_speed = 10.0;
    let mut sim = Simulation::new(p, settings).unwrap();
    let mut attempts = Vec::new();
    let e = sim
        .advance(0.2, &AdaptiveStepping::new(0.2), |_, dt| attempts.push(dt))
        .unwrap_err();
    let StepError::StepSizeExhausted {
        time,
        dt,
        halvings,
        last,
    } = e
    else {
        panic!("expected StepSizeExhausted, got {e:?}");
    };
    assert_eq!(halvings, 4);
    assert!((time - 0.1).abs() < 1e-15 && (sim.time() - 0.1).abs() < 1e-15);
    assert!((dt - 0.1 / 16.0).abs() < 1e-15);
    assert!(matches!(*last, StepError::Diverged { particle: 0, .. }));
    // The state is the end of the one good step of 0.1 s.
    assert!((sim.particles().v[0].y + 9.0 + 0.981).abs() < 1e-12);
    // before_step saw every attempt: 0.2, 0.1 (good), then 0.1, 0.05, 0.025, 0.0125, 0.00625.
    assert_eq!(attempts.len(), 7);
}

#[test]
fn bad_stepping_settings_are_refused() {
    let mut sim = falling(1.0, 1);
    for dt_max in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(AdaptiveStepping::new(dt_max).validate().is_err());
        assert!(
            sim.advance(0.1, &AdaptiveStepping::new(dt_max), |_, _| {})
                .is_err()
        );
    }
    assert!(
        sim.advance(f64::NAN, &AdaptiveStepping::new(0.1), |_, _| {})
            .is_err()
    );
    assert_eq!(sim.time(), 0.0);
}

/// A span that would take more than 10⁶ steps (a cap far below the span, or a state whose
/// bound asks for steps that small) is refused before any step, naming what sets the step,
/// with nothing changed: the work a span does is bounded, it never hangs.
#[test]
fn a_span_of_more_than_a_million_steps_is_refused_with_its_cause() {
    let mut sim = falling(2.0, 1);
    let x0 = sim.particles().x.clone();
    let e = sim
        .advance(1.0, &AdaptiveStepping::new(1e-12), |_, _| {})
        .unwrap_err();
    assert!(
        matches!(&e, StepError::TooManySteps { steps, .. } if *steps > 1e6),
        "{e:?}"
    );
    assert!(e.to_string().contains("dt_max = 1.000e-12"), "{e}");
    // The bound: 0.01 m / 1e9 m/s = 1e-11 s, 1e11 steps for one second.
    let mut fast = falling(1e9, 1);
    let e = fast
        .advance(1.0, &AdaptiveStepping::new(1.0), |_, _| {})
        .unwrap_err();
    assert!(e.to_string().contains("test CFL, set by particle 1"), "{e}");
    assert_eq!(sim.particles().x, x0);
    assert_eq!(sim.time(), 0.0);
    // 10⁶ steps exactly is allowed (here: the span at the cap, not run to the end).
    assert!(sim.next_step_size(1e-6, 1e-12).is_ok());
}

#[test]
fn a_span_over_the_work_bound_is_refused_with_its_cause() {
    // The bound: 0.01 m / 100 m/s = 1e-4 s per substep, 1e4 steps of 2 particles × 1 substep ×
    // 2 passes for one second: 4e4 particle projections.
    let mut sim = falling(100.0, 1);
    assert!(sim.next_step_size(1.0, 1.0).is_ok());
    sim.set_max_work_per_span(1e4).unwrap();
    let e = sim
        .advance(1.0, &AdaptiveStepping::new(1.0), |_, _| {})
        .unwrap_err();
    assert!(
        matches!(&e, StepError::TooManySteps { steps, .. } if *steps < 1e6),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(
        text.contains("test CFL") && text.contains("particle projections"),
        "{text}"
    );
    assert_eq!(sim.time(), 0.0);
    for bad in [0.0, -1.0, f64::NAN] {
        assert!(sim.set_max_work_per_span(bad).is_err());
    }
}
