//! One test per error variant: bad input gets a typed error naming the element and value,
//! and a failing step is rolled back.

use xpbd_core::builders::{ClothGrid, RopeBuilder, soft_body_from_simplices};
use xpbd_core::constraint::{
    MembraneConstraints, MembraneModel, NeoHookeanTetConstraints, TetVolumeConstraints,
};
use xpbd_core::error::ConstraintRef;
use xpbd_core::prelude::*;

fn two_particles() -> Particles<3> {
    let mut p = Particles::new();
    p.push(Vector::<3>::zeros(), 1.0);
    p.push(Vector::<3>::x(), 1.0);
    p
}

#[test]
fn non_finite_mass() {
    let mut p = two_particles();
    p.inv_mass[1] = f64::NAN;
    assert!(matches!(
        Simulation::new(p, SolverSettings::default()),
        Err(BuildError::NonFiniteMass { particle: 1, .. })
    ));
}

#[test]
fn negative_mass() {
    let mut p = two_particles();
    assert!(matches!(
        p.push_with_mass(Vector::<3>::zeros(), -2.0),
        Err(BuildError::NegativeMass {
            particle: 2,
            value: -2.0
        })
    ));
    p.inv_mass[0] = -1.0;
    assert!(matches!(
        Simulation::new(p, SolverSettings::default()),
        Err(BuildError::NegativeMass { particle: 0, .. })
    ));
}

#[test]
fn non_finite_state() {
    let mut p = two_particles();
    p.v[1].y = f64::INFINITY;
    let e = Simulation::new(p, SolverSettings::default()).unwrap_err();
    assert_eq!(
        e,
        BuildError::NonFiniteState {
            particle: 1,
            field: "velocity"
        }
    );
    assert!(e.to_string().contains("particle 1"));
}

#[test]
fn zero_rest_length() {
    let mut p = two_particles();
    p.x[1] = p.x[0];
    let mut d = DistanceConstraints::new();
    assert!(matches!(
        d.add(&p, 0, 1, 0.0),
        Err(BuildError::ZeroRestLength { constraint: 0, .. })
    ));
}

#[test]
fn degenerate_element() {
    let flat = [
        Vector::<3>::zeros(),
        Vector::<3>::x(),
        Vector::<3>::y(),
        Vector::<3>::new(1.0, 1.0, 0.0),
    ];
    let e = soft_body_from_simplices(&flat, &[vec![0, 1, 2, 3]], 1000.0, 1e5, 0.3).unwrap_err();
    assert!(
        matches!(e, BuildError::DegenerateElement { element: 0, .. }),
        "{e}"
    );
    let mut p = two_particles();
    p.push(Vector::<3>::new(2.0, 0.0, 0.0), 1.0);
    let mut m = MembraneConstraints::new(MembraneModel::StVK, 1e4, 0.3, 1e-3).unwrap();
    assert!(matches!(
        m.add(&p, [0, 1, 2]),
        Err(BuildError::DegenerateElement { .. })
    ));
}

#[test]
fn inverted_element() {
    let mut p = Particles::<2>::new();
    for x in [Vector::<2>::zeros(), Vector::<2>::y(), Vector::<2>::x()] {
        p.push(x, 1.0);
    }
    let mut v = TetVolumeConstraints::<2>::new();
    let e = v.add(&p, &[0, 1, 2], 0.0).unwrap_err();
    assert!(
        matches!(e, BuildError::InvertedElement { element: 0, measure, .. } if measure < 0.0),
        "{e}"
    );
}

#[test]
fn index_out_of_range() {
    let p = two_particles();
    let mut d = DistanceConstraints::new();
    let e = d.add(&p, 0, 5, 0.0).unwrap_err();
    assert_eq!(
        e,
        BuildError::IndexOutOfRange {
            kind: "distance",
            constraint: 0,
            index: 5,
            len: 2
        }
    );
    // Also caught when a hand-made block is added to a simulation.
    let mut bad = DistanceConstraints::new();
    bad.add_with_rest_length(0, 9, 1.0, 0.0).unwrap();
    let mut sim = Simulation::new(p, SolverSettings::default()).unwrap();
    assert!(matches!(
        sim.add_constraints(bad),
        Err(BuildError::IndexOutOfRange { index: 9, .. })
    ));
}

#[test]
fn duplicate_index() {
    let mut p = two_particles();
    p.push(Vector::<3>::y(), 1.0);
    let mut nh = NeoHookeanTetConstraints::<3>::new(1e5, 0.3).unwrap();
    p.push(Vector::<3>::z(), 1.0);
    let e = nh.add(&p, &[0, 1, 1, 3]).unwrap_err();
    assert_eq!(
        e,
        BuildError::DuplicateIndex {
            kind: "neo-hookean",
            constraint: 0,
            index: 1
        }
    );
}

#[test]
fn invalid_compliance() {
    let p = two_particles();
    let mut d = DistanceConstraints::new();
    assert!(matches!(
        d.add(&p, 0, 1, -1e-3),
        Err(BuildError::InvalidCompliance {
            field: "compliance",
            value: -1e-3,
            ..
        })
    ));
    assert!(matches!(
        d.add(&p, 0, 1, f64::NAN),
        Err(BuildError::InvalidCompliance { .. })
    ));
}

#[test]
fn invalid_material() {
    assert!(matches!(
        NeoHookeanTetConstraints::<3>::new(1e5, 0.5),
        Err(BuildError::InvalidMaterial {
            field: "poisson",
            ..
        })
    ));
    assert!(matches!(
        NeoHookeanTetConstraints::<3>::new(-1.0, 0.3),
        Err(BuildError::InvalidMaterial {
            field: "youngs",
            ..
        })
    ));
    assert!(matches!(
        DistanceConstraints::compliance_from_material(1.0, 1e6, 0.0),
        Err(BuildError::InvalidMaterial { field: "area", .. })
    ));
}

#[test]
fn zero_substeps_and_iterations() {
    let s = SolverSettings::<3> {
        substeps: 0,
        ..SolverSettings::default()
    };
    assert_eq!(
        Simulation::new(two_particles(), s).unwrap_err(),
        BuildError::ZeroCount { field: "substeps" }
    );
    let s = SolverSettings::<3> {
        iterations: 0,
        ..SolverSettings::default()
    };
    assert_eq!(
        Simulation::new(two_particles(), s).unwrap_err(),
        BuildError::ZeroCount {
            field: "iterations"
        }
    );
    let r = RopeBuilder::<3> {
        links: 0,
        start: Vector::<3>::zeros(),
        end: Vector::<3>::x(),
        mass: 1.0,
        compliance: 0.0,
        pin_start: false,
    };
    assert!(matches!(
        r.build(),
        Err(BuildError::ZeroCount { field: "links" })
    ));
}

#[test]
fn invalid_setting() {
    let s = SolverSettings::<3> {
        solver: SolverKind::Jacobi {
            omega: 2.5,
            averaged: true,
        },
        ..SolverSettings::default()
    };
    assert!(matches!(
        Simulation::new(two_particles(), s),
        Err(BuildError::InvalidSetting {
            field: "omega",
            value: 2.5,
            ..
        })
    ));
    let s = SolverSettings::<3> {
        velocity_damping: -1.0,
        ..SolverSettings::default()
    };
    assert!(matches!(
        Simulation::new(two_particles(), s),
        Err(BuildError::InvalidSetting {
            field: "velocity_damping",
            ..
        })
    ));
    let s = SolverSettings::<3> {
        threads: 100_000,
        ..SolverSettings::default()
    };
    assert!(matches!(
        Simulation::new(two_particles(), s),
        Err(BuildError::InvalidSetting {
            field: "threads",
            ..
        })
    ));
}

#[test]
fn invalid_geometry() {
    let g = ClothGrid::<3> {
        nx: 1,
        ..ClothGrid::default()
    };
    assert!(matches!(g.build(), Err(BuildError::InvalidGeometry(_))));
}

#[test]
fn non_positive_time_step() {
    let mut sim = Simulation::new(two_particles(), SolverSettings::default()).unwrap();
    for dt in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            sim.step(dt),
            Err(StepError::NonPositiveTimeStep { .. })
        ));
    }
}

/// A stiff spring stepped far beyond its stability limit blows up; the step must report the
/// offending particle and constraint and leave the state exactly as it was.
#[test]
fn diverging_step_is_reported_and_rolled_back() {
    let mut p = two_particles();
    p.force[1] = Vector::<3>::new(1e12, 0.0, 0.0);
    let mut d = DistanceConstraints::new();
    d.add(&p, 0, 1, 0.0).unwrap();
    let mut sim = Simulation::new(p, SolverSettings::default()).unwrap();
    sim.add_constraints(d).unwrap();
    let before = sim.particles().clone();
    let e = sim.step(1.0 / 60.0).unwrap_err();
    match &e {
        StepError::Diverged {
            particle,
            constraint,
            ..
        } => {
            assert!(*particle <= 1);
            assert_eq!(constraint.block_name, Some("distance"));
            assert_eq!(constraint.index, Some(0));
        }
        other => panic!("expected Diverged, got {other}"),
    }
    assert_eq!(sim.particles(), &before, "state must be rolled back");
    assert_eq!(sim.time(), 0.0);
    // Fix the cause and continue from the same state.
    sim.particles_mut().force[1] = Vector::<3>::zeros();
    sim.step(1.0 / 60.0).unwrap();
}

#[test]
fn non_finite_step_is_reported_and_rolled_back() {
    let mut p = two_particles();
    p.force[0] = Vector::<3>::new(f64::MAX, f64::MAX, 0.0);
    let mut d = DistanceConstraints::new();
    d.add(&p, 0, 1, 1e-3).unwrap();
    let mut sim = Simulation::new(p, SolverSettings::default()).unwrap();
    sim.add_constraints(d).unwrap();
    let before = sim.particles().clone();
    let e = sim.step(1.0 / 60.0).unwrap_err();
    assert!(
        matches!(
            e,
            StepError::NonFinite {
                substep: 0,
                constraint: ConstraintRef {
                    block_name: Some("distance"),
                    ..
                },
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(sim.particles(), &before);
}
