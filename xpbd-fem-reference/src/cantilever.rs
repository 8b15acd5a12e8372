//! The cantilever scenes of `xpbd_core::cantilever` as FEM problems, the entry point of
//! `cargo xtask cantilever --method fem`, and a modal (generalised eigenvalue) frequency check.

use crate::assembly::{System, mass, stiffness};
use crate::element::ElementOrder;
use crate::error::FemError;
use crate::fem_mesh::FemMesh;
use crate::linear_solver::SparseSolver;
use crate::material::{ConstitutiveModel, MaterialKind};
use crate::problem::Problem;
use crate::static_solver::{StaticSettings, solve_static};
use nalgebra::{Vector2, Vector3};
use std::time::Instant;
use xpbd_core::cantilever::Cantilever;
use xpbd_core::mesh::TetMesh;

const CLAMP_TOLERANCE: f64 = 1e-9;

/// `1 → Linear`, `2 → Quadratic`, anything else is [`FemError::InvalidInput`].
pub fn element_order(order: u8) -> Result<ElementOrder, FemError> {
    match order {
        1 => Ok(ElementOrder::Linear),
        2 => Ok(ElementOrder::Quadratic),
        other => Err(FemError::InvalidInput {
            field: "order",
            message: format!("{other}; expected 1 or 2"),
        }),
    }
}

/// The 3-D cantilever: [`Cantilever::tet_mesh`] with `cells` hexes along `x`, clamped at
/// `x = 0`, gravity `(0, 0, −g)`, tip load as a uniform traction `(0, 0, −P/(W H))` on `x = L`.
pub fn cantilever_problem_3d(
    beam: &Cantilever,
    material: MaterialKind,
    order: u8,
    cells: usize,
) -> Result<Problem<3>, FemError> {
    cantilever_problem_3d_with_mesh(beam, material, order, beam.tet_mesh(cells)?)
}

/// [`cantilever_problem_3d`] on a given linear tet mesh of the box `[0, L] × [0, W] × [0, H]`
/// (e.g. [`xpbd_core::mesh::TetMesh::box_beam`] with a chosen cross-section resolution).
pub fn cantilever_problem_3d_with_mesh(
    beam: &Cantilever,
    material: MaterialKind,
    order: u8,
    tets: TetMesh,
) -> Result<Problem<3>, FemError> {
    beam.validate()?;
    let mesh = FemMesh::from_simplex_mesh(&tets, element_order(order)?)?;
    let mut p = Problem::new(
        mesh,
        ConstitutiveModel::new(material, beam.youngs, beam.poisson)?,
        beam.density,
    )?;
    p.clamp(|x| x.x.abs() < CLAMP_TOLERANCE * beam.length);
    p.body_force = Vector3::new(0.0, 0.0, -beam.gravity);
    if let Some(load) = beam.tip_load {
        let t = -load / beam.area();
        p.add_traction(
            |x| (x.x - beam.length).abs() < CLAMP_TOLERANCE * beam.length,
            Vector3::new(0.0, 0.0, t),
        )?;
    }
    Ok(p)
}

/// The 2-D plane-strain twin in the `(x, z)` plane, thickness `W` ([`Cantilever::tri_mesh_2d`]).
/// Its bending stiffness is `E I / (1 − ν²)`.
pub fn cantilever_problem_2d(
    beam: &Cantilever,
    material: MaterialKind,
    order: u8,
    cells: usize,
) -> Result<Problem<2>, FemError> {
    let mesh = FemMesh::from_simplex_mesh(&beam.tri_mesh_2d(cells)?, element_order(order)?)?;
    let mut p = Problem::new(
        mesh,
        ConstitutiveModel::new(material, beam.youngs, beam.poisson)?,
        beam.density,
    )?;
    p.thickness = beam.width;
    p.clamp(|x| x.x.abs() < CLAMP_TOLERANCE * beam.length);
    p.body_force = Vector2::new(0.0, -beam.gravity);
    if let Some(load) = beam.tip_load {
        let t = -load / beam.area();
        p.add_traction(
            |x| (x.x - beam.length).abs() < CLAMP_TOLERANCE * beam.length,
            Vector2::new(0.0, t),
        )?;
    }
    Ok(p)
}

/// Load increments for a cantilever: about one per unit of the elastica load parameter
/// (`K_tip + K_weight / 2.5`), between 1 and 40.
pub fn suggested_load_steps(beam: &Cantilever) -> usize {
    let k = beam.tip_load_parameter().abs() + beam.self_weight_parameter() / 2.5;
    (k.ceil() as usize).clamp(1, 40)
}

/// Result of [`solve_cantilever_static`] (one JSON line in `cargo xtask cantilever`).
#[derive(Debug, Clone, PartialEq)]
pub struct CantileverSolution {
    /// Total degrees of freedom (`D × nodes`).
    pub dofs: usize,
    /// Free (unclamped) degrees of freedom.
    pub free_dofs: usize,
    /// Newton iterations over all load increments.
    pub newton_iterations: usize,
    /// Load increments.
    pub load_increments: usize,
    /// Wall-clock seconds (mesh, assembly and solve).
    pub seconds: f64,
    /// Displacement of the centre of the free end along `x` (negative = shortening).
    pub tip_displacement_x: f64,
    /// Displacement of the centre of the free end along `z` (negative = downwards).
    pub tip_displacement_z: f64,
    /// `‖r‖` of every Newton iteration.
    pub residual_history: Vec<f64>,
}

/// Static equilibrium of the 3-D cantilever under self-weight (gravity along `−z`) and the
/// optional tip load, with `order` 1 or 2 tetrahedra and `cells` hexes along the length
/// (cross-section resolution from [`Cantilever::tet_mesh`]).
///
/// ```
/// use xpbd_core::cantilever::Cantilever;
/// use xpbd_fem_reference::{solve_cantilever_static, MaterialKind};
/// let beam = Cantilever { youngs: 1e8, ..Cantilever::default() };
/// let sol = solve_cantilever_static(&beam, MaterialKind::Hencky, 2, 10).unwrap();
/// let reference = beam.timoshenko_tip_deflection();
/// assert!((sol.tip_displacement_z + reference).abs() < 0.05 * reference);
/// ```
pub fn solve_cantilever_static(
    beam: &Cantilever,
    material: MaterialKind,
    order: u8,
    cells: usize,
) -> Result<CantileverSolution, FemError> {
    let start = Instant::now();
    let problem = cantilever_problem_3d(beam, material, order, cells)?;
    let settings = StaticSettings {
        load_steps: suggested_load_steps(beam),
        ..StaticSettings::default()
    };
    let sol = solve_static(&problem, &settings)?;
    let tip = beam.tip_point();
    let d = problem
        .mesh
        .interpolate(
            &problem.nodal_vectors(&sol.displacement),
            &Vector3::new(tip[0], tip[1], tip[2]),
        )
        .ok_or_else(|| FemError::InvalidInput {
            field: "tip point",
            message: "outside the mesh".into(),
        })?;
    Ok(CantileverSolution {
        dofs: problem.dof_count(),
        free_dofs: sol.free_dofs,
        newton_iterations: sol.stats.iterations,
        load_increments: sol.increments,
        seconds: start.elapsed().as_secs_f64(),
        tip_displacement_x: d.x,
        tip_displacement_z: d.z,
        residual_history: sol.stats.residual_history,
    })
}

/// The 2-D plane-strain counterpart of [`solve_cantilever_static`] (tip at `(L, H/2)`).
pub fn solve_cantilever_static_2d(
    beam: &Cantilever,
    material: MaterialKind,
    order: u8,
    cells: usize,
) -> Result<CantileverSolution, FemError> {
    let start = Instant::now();
    let problem = cantilever_problem_2d(beam, material, order, cells)?;
    let settings = StaticSettings {
        load_steps: suggested_load_steps(beam),
        ..StaticSettings::default()
    };
    let sol = solve_static(&problem, &settings)?;
    let tip = beam.tip_point_2d();
    let d = problem
        .mesh
        .interpolate(
            &problem.nodal_vectors(&sol.displacement),
            &Vector2::new(tip[0], tip[1]),
        )
        .ok_or_else(|| FemError::InvalidInput {
            field: "tip point",
            message: "outside the mesh".into(),
        })?;
    Ok(CantileverSolution {
        dofs: problem.dof_count(),
        free_dofs: sol.free_dofs,
        newton_iterations: sol.stats.iterations,
        load_increments: sol.increments,
        seconds: start.elapsed().as_secs_f64(),
        tip_displacement_x: d.x,
        tip_displacement_z: d.y,
        residual_history: sol.stats.residual_history,
    })
}

/// Lowest natural frequency (Hz) of the problem linearised at `u = 0`: the smallest `ω²` of
/// `K φ = ω² M φ` (consistent mass) by inverse iteration with Rayleigh quotients
/// (`x ← K⁻¹ M x`), started from the static response to the body force (close to mode 1).
/// Stops when the Rayleigh quotient changes by less than `1e-12` relatively (≤ 200 iterations).
pub fn first_natural_frequency<const D: usize>(problem: &Problem<D>) -> Result<f64, FemError> {
    let system = System::new(problem)?;
    let solver = SparseSolver::new(system.pattern.clone())?;
    let zero = vec![0.0; problem.dof_count()];
    let k = stiffness(problem, &system, &zero, false);
    let m = mass(problem, &system);
    let mut x = system.restrict(&problem.external_force());
    if x.iter().all(|v| *v == 0.0) {
        x = (0..system.free_count)
            .map(|i| 1.0 + (i % 7) as f64)
            .collect();
    }
    let mut lambda = f64::INFINITY;
    for _ in 0..200 {
        let mx = system.pattern.mul_vec(&m, &x);
        let y = solver
            .solve_cholesky(&k, &mx)?
            .ok_or_else(|| FemError::SingularSystem {
                message: "stiffness at rest is not positive definite".into(),
            })?;
        let ky = system.pattern.mul_vec(&k, &y);
        let my = system.pattern.mul_vec(&m, &y);
        let num: f64 = y.iter().zip(&ky).map(|(a, b)| a * b).sum();
        let den: f64 = y.iter().zip(&my).map(|(a, b)| a * b).sum();
        let next = num / den;
        let norm = den.sqrt();
        x = y.iter().map(|v| v / norm).collect();
        let done = ((next - lambda) / next).abs() < 1e-12;
        lambda = next;
        if done {
            break;
        }
    }
    Ok(lambda.sqrt() / (2.0 * std::f64::consts::PI))
}

/// One sample of a tip trajectory: time and the displacement of the centre of the free end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TipSample {
    /// Time (s).
    pub time: f64,
    /// Displacement along `x`.
    pub x: f64,
    /// Displacement along `z`.
    pub z: f64,
}

/// Tip trajectory of the 3-D cantilever released from rest in its straight configuration under
/// gravity and the optional tip load, by backward Euler with step `dt` for `steps` steps (the
/// first sample is `t = 0`). This is the dynamic reference the XPBD/XPBI beams are compared with
/// (backward Euler is dissipative: compare at `dt` small enough for the quantity of interest).
///
/// ```
/// use xpbd_core::cantilever::Cantilever;
/// use xpbd_fem_reference::{cantilever::cantilever_tip_trajectory, MaterialKind};
/// let beam = Cantilever { youngs: 1e7, ..Cantilever::default() };
/// let path = cantilever_tip_trajectory(&beam, MaterialKind::Hencky, 2, 6, 1e-3, 5).unwrap();
/// assert_eq!(path.len(), 6);
/// assert!(path[5].z < 0.0 && path[0].z == 0.0);
/// ```
pub fn cantilever_tip_trajectory(
    beam: &Cantilever,
    material: MaterialKind,
    order: u8,
    cells: usize,
    dt: f64,
    steps: usize,
) -> Result<Vec<TipSample>, FemError> {
    let problem = cantilever_problem_3d(beam, material, order, cells)?;
    let n = problem.dof_count();
    let mut be = crate::dynamics::BackwardEuler::new(&problem, dt, vec![0.0; n], vec![0.0; n])?;
    let tip = beam.tip_point();
    let tip = Vector3::new(tip[0], tip[1], tip[2]);
    let sample = |be: &crate::dynamics::BackwardEuler<'_, 3>| {
        be.point_displacement(&tip)
            .map(|d| TipSample {
                time: be.time,
                x: d.x,
                z: d.z,
            })
            .ok_or_else(|| FemError::InvalidInput {
                field: "tip point",
                message: "outside the mesh".into(),
            })
    };
    let mut out = Vec::with_capacity(steps + 1);
    out.push(sample(&be)?);
    for _ in 0..steps {
        be.step()?;
        out.push(sample(&be)?);
    }
    Ok(out)
}
