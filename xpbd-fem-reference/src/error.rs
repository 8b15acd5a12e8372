//! The crate's error type.

use xpbd_core::cantilever::CantileverError;
use xpbd_core::energy::EnergyError;
use xpbd_core::mesh::MeshError;

/// Everything that can go wrong in setting up or solving a FEM problem.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FemError {
    /// The input mesh is malformed (index range, non-finite vertex, parse error, …).
    #[error("mesh: {0}")]
    Mesh(MeshError),
    /// A reference element has negative volume.
    #[error("element {element} is inverted in the reference mesh (signed measure {measure:e})")]
    InvertedElement {
        /// Element index.
        element: usize,
        /// Signed measure.
        measure: f64,
    },
    /// A reference element has (numerically) zero volume.
    #[error("element {element} is degenerate in the reference mesh (measure {measure:e})")]
    DegenerateElement {
        /// Element index.
        element: usize,
        /// Signed measure.
        measure: f64,
    },
    /// The deformation a solve starts from is outside the material's domain (e.g. `det F ≤ 0`
    /// for Hencky or Neo-Hookean).
    #[error("element {element}, quadrature point {point}: {reason}")]
    InadmissibleDeformation {
        /// Element index.
        element: usize,
        /// Quadrature point index.
        point: usize,
        /// What the energy reported.
        reason: EnergyError,
    },
    /// No degree of freedom is constrained: the stiffness is singular (rigid-body modes).
    #[error(
        "no Dirichlet conditions: the stiffness matrix is singular (rigid-body motion is free)"
    )]
    NoDirichletConditions,
    /// The linear system could not be solved by Cholesky nor LU.
    #[error("singular linear system: {message}")]
    SingularSystem {
        /// Details from the factorisation.
        message: String,
    },
    /// A physical parameter is NaN, infinite or out of range.
    #[error("parameter {field} = {value} is invalid ({expected})")]
    NonFiniteParameter {
        /// Field name.
        field: &'static str,
        /// Its value.
        value: f64,
        /// The admissible range.
        expected: &'static str,
    },
    /// An argument is out of its domain (order, node index, …).
    #[error("invalid {field}: {message}")]
    InvalidInput {
        /// Argument name.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// Newton did not reach the residual tolerance (after load-step refinement).
    #[error("Newton did not converge at load factor {load_factor} after {iterations} iterations; last residual {:e}", residual_history.last().copied().unwrap_or(f64::NAN))]
    NewtonNotConverged {
        /// Load factor of the failing increment.
        load_factor: f64,
        /// Iterations spent on it.
        iterations: usize,
        /// `‖r‖` of every iteration of the whole solve, in order.
        residual_history: Vec<f64>,
    },
    /// faer reported an allocation or structural failure.
    #[error("linear solver: {message}")]
    LinearSolver {
        /// Details.
        message: String,
    },
    /// The cantilever description is invalid.
    #[error(transparent)]
    Cantilever(#[from] CantileverError),
}

impl From<MeshError> for FemError {
    fn from(e: MeshError) -> Self {
        FemError::Mesh(e)
    }
}
