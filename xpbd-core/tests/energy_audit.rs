//! The energy audit: a step that creates mechanical energy is divergence and is rolled back;
//! work done from outside (driven colliders, animated attachments and pins, applied forces)
//! is not counted as created.

use xpbd_core::constraint::SubstepContext;
use xpbd_core::prelude::*;

/// A rope of `n` particles, 5 cm apart along x, distance constraints of compliance `alpha`.
fn rope(n: usize, alpha: f64, pin_first: bool) -> (Particles<3>, DistanceConstraints) {
    let mut p = Particles::<3>::new();
    for i in 0..n {
        p.push(Vector::<3>::new(0.05 * i as f64, 0.0, 1.0), 1.0);
    }
    if pin_first {
        p.pin(0);
    }
    let mut d = DistanceConstraints::new();
    for i in 0..n - 1 {
        d.add(&p, i, i + 1, alpha).unwrap();
    }
    (p, d)
}

/// A defective kind: every substep it multiplies the velocities by `gain` (an energy pump,
/// like an unstable constraint, but slow enough to pass the speed and strain guards).
#[derive(Debug)]
struct Pump {
    gain: f64,
    stencil: Vec<[u32; 1]>,
}

impl ConstraintKind<3> for Pump {
    const NAME: &'static str = "pump";
    const FIXED_ARITY: usize = 1;
    fn len(&self) -> usize {
        self.stencil.len()
    }
    fn stencil(&self, c: usize) -> &[u32] {
        &self.stencil[c]
    }
    fn compliance(&self, _c: usize) -> f64 {
        0.0
    }
    fn evaluate(&self, _c: usize, _xs: &[Vector<3>], grad: &mut [Vector<3>]) -> f64 {
        grad[0] = Vector::<3>::zeros();
        0.0
    }
    fn end_substep(
        &mut self,
        particles: &mut Particles<3>,
        _lambda: &[f64],
        _ctx: &SubstepContext,
    ) {
        for v in &mut particles.v {
            *v *= self.gain;
        }
    }
}

fn zero_gravity() -> SolverSettings<3> {
    SolverSettings {
        gravity: Vector::<3>::zeros(),
        ..SolverSettings::default()
    }
}

#[test]
fn an_energy_pump_is_caught_and_the_step_rolled_back() {
    let (mut p, d) = rope(10, 1e-6, false);
    for v in &mut p.v {
        *v = Vector::<3>::new(0.0, 0.3, 0.0);
    }
    let mut sim = Simulation::new(p, zero_gravity()).unwrap();
    sim.add_constraints(d).unwrap();
    // 5 % per substep: ×1.6 in speed, ×2.7 in kinetic energy per step of 10 substeps; a
    // particle reaches the 10⁴ m/s speed bound only after 20 steps, and the strain guard
    // never fires (the pump moves the rope as a whole).
    sim.add_constraints(Pump {
        gain: 1.05,
        stencil: vec![[0]],
    })
    .unwrap();
    // The first step is not audited (no multipliers of the state it starts from).
    sim.step(1.0 / 60.0).unwrap();
    let x0 = sim.particles().x.clone();
    let v0 = sim.particles().v.clone();
    let t0 = sim.time();
    let err = sim.step(1.0 / 60.0).unwrap_err();
    let StepError::EnergyGrowth {
        gain,
        allowed,
        particle,
        ..
    } = err
    else {
        panic!("expected EnergyGrowth, got {err}");
    };
    assert!(gain > allowed && particle < 10);
    assert!(err.to_string().contains("state rolled back"), "{err}");
    assert_eq!(sim.particles().x, x0);
    assert_eq!(sim.particles().v, v0);
    assert_eq!(sim.time(), t0);
}

#[test]
fn a_free_swinging_rope_and_a_stiff_one_pass_the_audit() {
    // A pendulum rope released horizontally converts gravitational into kinetic and elastic
    // energy; the scheme dissipates, so no step gains. Stiff (α = 0) and soft (α = 1e-3).
    for alpha in [0.0, 1e-3] {
        let (p, d) = rope(20, alpha, true);
        let mut sim = Simulation::new(p, SolverSettings::default()).unwrap();
        sim.add_constraints(d).unwrap();
        for k in 0..240 {
            sim.step(1.0 / 60.0)
                .unwrap_or_else(|e| panic!("α = {alpha}, step {k}: {e}"));
        }
    }
}

#[test]
fn a_moving_collider_does_work_and_the_audit_counts_it() {
    // Zero gravity, particles at rest; a sphere moving at 3 m/s sweeps them up. All the
    // kinetic energy they end with came from the collider's work.
    let mut p = Particles::<3>::new();
    for i in 0..5 {
        for j in 0..5 {
            p.push(Vector::<3>::new(0.05 * i as f64, 0.05 * j as f64, 0.0), 0.5);
        }
    }
    let mut sim = Simulation::new(p, zero_gravity()).unwrap();
    let mut contacts = ColliderContacts::new(0.01, ContactOptions::default()).unwrap();
    contacts
        .add_collider(
            Collider::fixed(Shape::Sphere { radius: 0.2 })
                .at(Pose::from_translation(Vector::<3>::new(0.1, 0.1, -0.3)))
                .moving_at(Vector::<3>::new(0.0, 0.0, 3.0)),
        )
        .unwrap();
    sim.add_constraints(contacts).unwrap();
    let dt = 1.0 / 60.0;
    let h = dt / sim.settings().substeps as f64;
    let mut work = 0.0;
    for k in 0..20 {
        sim.step(dt).unwrap_or_else(|e| panic!("step {k}: {e}"));
        work += sim
            .blocks()
            .iter()
            .map(|b| b.driven_work(sim.particles(), h))
            .sum::<f64>();
    }
    let kinetic = sim.particles().kinetic_energy();
    assert!(kinetic > 1.0, "the sphere hit the particles: K = {kinetic}");
    assert!(
        work >= kinetic,
        "work bound {work} J < kinetic energy {kinetic} J"
    );
}

#[test]
fn an_animated_attachment_does_work_and_the_audit_counts_it() {
    // A soft rope at rest, zero gravity, its end attached to a target that jumps 2 cm per
    // step: the rope is set moving by the target, not by the solver.
    let (p, d) = rope(10, 1e-6, false);
    let mut sim = Simulation::new(p, zero_gravity()).unwrap();
    sim.add_constraints(d).unwrap();
    let mut a = AttachmentConstraints::<3>::new();
    a.add(0, Vector::<3>::new(0.0, 0.0, 1.0), 0.0).unwrap();
    let handle = sim.add_constraints(a).unwrap();
    for k in 1..=30 {
        sim.block_mut(handle)
            .kind
            .set_target(0, Vector::<3>::new(0.0, 0.02 * k as f64, 1.0));
        sim.step(1.0 / 60.0)
            .unwrap_or_else(|e| panic!("step {k}: {e}"));
    }
    assert!(sim.particles().kinetic_energy() > 1e-3);
}

#[test]
fn a_driven_pin_does_work_and_the_audit_counts_it() {
    // The first particle is kinematic, moved at 1 m/s by its target: it drags the rope.
    let (p, d) = rope(10, 0.0, true);
    let mut sim = Simulation::new(p, zero_gravity()).unwrap();
    sim.add_constraints(d).unwrap();
    let dt = 1.0 / 60.0;
    for k in 1..=30 {
        let p = sim.particles_mut();
        p.kinematic_target[0] = Some(p.x[0] + Vector::<3>::new(0.0, 1.0, 0.0) * dt);
        sim.step(dt).unwrap_or_else(|e| panic!("step {k}: {e}"));
    }
    assert!(sim.particles().kinetic_energy() > 1.0);
}

#[test]
fn a_rope_built_stretched_releases_its_energy_without_a_refusal() {
    // Links 1 % shorter than the particles' spacing, α = 1e-6: 0.8 J stored per link, released
    // in the first steps. The first step is not audited; the release is done by the second.
    let (p, mut d) = rope(8, 1e-6, true);
    d.rest_length.iter_mut().for_each(|l| *l *= 0.99);
    let mut sim = Simulation::new(p, SolverSettings::default()).unwrap();
    sim.add_constraints(d).unwrap();
    for k in 0..60 {
        sim.step(1.0 / 60.0)
            .unwrap_or_else(|e| panic!("step {k}: {e}"));
    }
}

#[test]
fn the_tolerance_must_be_positive() {
    let (p, _) = rope(2, 0.0, false);
    for bad in [0.0, -1.0, f64::NAN] {
        let mut s = zero_gravity();
        s.diagnostics.max_energy_gain = bad;
        let err = Simulation::new(p.clone(), s).unwrap_err();
        assert!(err.to_string().contains("max_energy_gain"), "{err}");
    }
    let mut s = zero_gravity();
    s.diagnostics.max_energy_gain = f64::INFINITY;
    assert!(Simulation::new(p, s).is_ok());
}
