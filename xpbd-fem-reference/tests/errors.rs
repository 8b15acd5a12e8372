//! One test per `FemError` variant: bad input gets a typed error naming what is wrong.

use nalgebra::Vector2;
use xpbd_core::cantilever::Cantilever;
use xpbd_core::energy::EnergyError;
use xpbd_core::mesh::{MeshError, TetMesh, TriMesh2};
use xpbd_fem_reference::linear_solver::{CscPattern, SparseSolver};
use xpbd_fem_reference::*;

fn unit_square(order: ElementOrder) -> FemMesh<2> {
    FemMesh::from_simplex_mesh(&TriMesh2::rectangle([1.0, 1.0], [2, 2]).unwrap(), order).unwrap()
}

fn material(kind: MaterialKind) -> ConstitutiveModel {
    ConstitutiveModel::new(kind, 100.0, 0.3).unwrap()
}

#[test]
fn mesh_error_is_forwarded() {
    let mut m = TetMesh::box_beam([1.0, 1.0, 1.0], [1, 1, 1]).unwrap();
    m.cells[2][1] = 99;
    assert!(matches!(
        FemMesh::from_simplex_mesh(&m, ElementOrder::Linear),
        Err(FemError::Mesh(MeshError::IndexOutOfRange {
            cell: 2,
            index: 99,
            ..
        }))
    ));
}

#[test]
fn inverted_element() {
    let mut m = TetMesh::box_beam([1.0, 1.0, 1.0], [1, 1, 1]).unwrap();
    m.cells[3].swap(0, 1);
    assert!(matches!(
        FemMesh::from_simplex_mesh(&m, ElementOrder::Quadratic),
        Err(FemError::InvertedElement { element: 3, measure }) if measure < 0.0
    ));
}

#[test]
fn degenerate_element() {
    let mut m = TriMesh2::rectangle([1.0, 1.0], [1, 1]).unwrap();
    m.vertices[3] = Vector2::new(0.5, 0.0); // on edge 0–1: cell 0 (0, 1, 3) collapses
    assert!(matches!(
        FemMesh::from_simplex_mesh(&m, ElementOrder::Linear),
        Err(FemError::DegenerateElement { element: 0, .. })
    ));
}

#[test]
fn inadmissible_initial_deformation() {
    // Hencky is undefined for det F ≤ 0: start from a state that flips the square.
    let mut p = Problem::new(
        unit_square(ElementOrder::Linear),
        material(MaterialKind::Hencky),
        1.0,
    )
    .unwrap();
    p.clamp(|x| x.x < 1e-12);
    let u0: Vec<f64> = p
        .mesh
        .nodes
        .iter()
        .flat_map(|x| [-2.0 * x.x, 0.0])
        .collect();
    let err = solve_static_from(&p, &StaticSettings::default(), &u0).unwrap_err();
    assert!(
        matches!(err, FemError::InadmissibleDeformation { reason: EnergyError::NonPositiveDeterminant { det }, .. } if det < 0.0),
        "{err:?}"
    );
}

#[test]
fn no_dirichlet_conditions() {
    let mut p = Problem::new(
        unit_square(ElementOrder::Linear),
        material(MaterialKind::Linear),
        1.0,
    )
    .unwrap();
    p.body_force = Vector2::new(0.0, -1.0);
    assert_eq!(
        solve_static(&p, &StaticSettings::default()).unwrap_err(),
        FemError::NoDirichletConditions
    );
    assert!(matches!(
        BackwardEuler::new(&p, 0.01, vec![0.0; 18], vec![0.0; 18]),
        Err(FemError::NoDirichletConditions)
    ));
}

#[test]
fn singular_system() {
    // A matrix with a zero column: neither Cholesky nor LU can solve it.
    let pattern = CscPattern {
        n: 2,
        col_ptr: vec![0, 2, 4],
        row_idx: vec![0, 1, 0, 1],
    };
    let mut solver = SparseSolver::new(pattern).unwrap();
    let values = [1.0, 0.0, 0.0, 0.0];
    assert!(
        solver
            .solve_cholesky(&values, &[1.0, 1.0])
            .unwrap()
            .is_none()
    );
    assert!(matches!(
        solver.solve_lu(&values, &[1.0, 1.0]),
        Err(FemError::SingularSystem { .. })
    ));
}

#[test]
fn non_finite_parameters() {
    assert!(matches!(
        ConstitutiveModel::new(MaterialKind::NeoHookean, f64::INFINITY, 0.3),
        Err(FemError::NonFiniteParameter {
            field: "youngs",
            ..
        })
    ));
    assert!(matches!(
        ConstitutiveModel::new(MaterialKind::Linear, 1.0, 0.5),
        Err(FemError::NonFiniteParameter {
            field: "poisson",
            ..
        })
    ));
    assert!(matches!(
        Problem::new(
            unit_square(ElementOrder::Linear),
            material(MaterialKind::Linear),
            f64::NAN
        ),
        Err(FemError::NonFiniteParameter {
            field: "density",
            ..
        })
    ));
    let mut p = Problem::new(
        unit_square(ElementOrder::Linear),
        material(MaterialKind::Linear),
        1.0,
    )
    .unwrap();
    assert!(matches!(
        p.add_traction(|_| true, Vector2::new(f64::NAN, 0.0)),
        Err(FemError::NonFiniteParameter {
            field: "traction",
            ..
        })
    ));
    assert!(matches!(
        BackwardEuler::new(&p, -1.0, vec![], vec![]),
        Err(FemError::NonFiniteParameter { field: "dt", .. })
    ));
}

#[test]
fn invalid_input() {
    let beam = Cantilever::default();
    assert!(matches!(
        solve_cantilever_static(&beam, MaterialKind::Linear, 3, 4),
        Err(FemError::InvalidInput { field: "order", .. })
    ));
    let mut p = Problem::new(
        unit_square(ElementOrder::Linear),
        material(MaterialKind::Linear),
        1.0,
    )
    .unwrap();
    assert!(matches!(
        p.prescribe(1000, 0, 0.0),
        Err(FemError::InvalidInput { .. })
    ));
    assert!(matches!(
        "rubber".parse::<MaterialKind>(),
        Err(FemError::InvalidInput {
            field: "material",
            ..
        })
    ));
}

#[test]
fn newton_not_converged_carries_the_history() {
    // A large load in one increment, two Newton iterations allowed, no step halving.
    let beam = Cantilever {
        length: 1.0,
        width: 0.05,
        height: 0.05,
        youngs: 1e7,
        gravity: 0.0,
        tip_load: Some(50.0),
        ..Cantilever::default()
    };
    let p = cantilever_problem_3d(&beam, MaterialKind::Hencky, 2, 10).unwrap();
    let settings = StaticSettings {
        load_steps: 1,
        max_step_halvings: 0,
        newton: NewtonSettings {
            max_iterations: 2,
            ..NewtonSettings::default()
        },
    };
    match solve_static(&p, &settings).unwrap_err() {
        FemError::NewtonNotConverged {
            load_factor,
            iterations,
            residual_history,
        } => {
            assert_eq!(load_factor, 1.0);
            assert_eq!(iterations, 2);
            assert_eq!(residual_history.len(), 3);
            assert!(
                residual_history[2] > 1e-6 * residual_history[0],
                "{residual_history:?}"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn linear_solver_rejects_malformed_pattern() {
    let unsorted = CscPattern {
        n: 2,
        col_ptr: vec![0, 2, 3],
        row_idx: vec![1, 0, 1],
    };
    assert!(matches!(
        SparseSolver::new(unsorted),
        Err(FemError::LinearSolver { .. })
    ));
}

#[test]
fn cantilever_error_is_forwarded() {
    let beam = Cantilever {
        height: -0.1,
        ..Cantilever::default()
    };
    assert!(matches!(
        solve_cantilever_static(&beam, MaterialKind::Linear, 1, 4),
        Err(FemError::Cantilever(_))
    ));
}

#[test]
fn loads_are_checked() {
    let mut p = Problem::new(
        unit_square(ElementOrder::Quadratic),
        material(MaterialKind::Linear),
        1.0,
    )
    .unwrap();
    assert!(p.add_point_load(0, Vector2::new(0.0, f64::NAN)).is_err());
    assert!(p.add_point_load(10_000, Vector2::zeros()).is_err());
}
