//! One cantilever run by any method: the FEM oracle (static Newton, or backward Euler), XPBD
//! stable Neo-Hookean tetrahedra on the same mesh as FEM order 1 (Gauss-Seidel, coloured GS,
//! Jacobi), and XPBI particles (coloured GS, Jacobi).
//!
//! The beam is [`xpbd_core::cantilever::Cantilever`]: the box `[0, L] × [0, W] × [0, H]`,
//! clamped at `x = 0`, gravity along `−z`; the quantity of interest is the displacement of the
//! centre of the free end `(L, W/2, H/2)`.
//!
//! **XPBD driver.** Vertices of [`Cantilever::tet_mesh`] become particles with lumped masses
//! `ρ V_e / 4` (which is also the consistent body-force vector of linear tets, so XPBD and FEM
//! order 1 have the *same* static equilibrium); vertices on `x = 0` are pinned (inverse mass 0).
//! The stable Neo-Hookean parameter mapping is the same on both sides (`μ`, `λ' = λ + μ`,
//! `γ = 1 + μ/λ'`: `xpbd_core::constraint::NeoHookeanTetConstraints` and
//! `xpbd_core::energy::StableNeoHookean`). To reach rest, mass-proportional velocity damping
//! `k = 2ω₁` (critical for the linear first mode, `ω₁ = 2π f₁`) is applied; damping changes the
//! path, not the equilibrium. Rest means the largest particle speed stayed below
//! `10⁻⁵ ω₁ max(|u_tip|, 10⁻³ L)` for a quarter of the linear first period.
//!
//! ```
//! use xpbd_core::cantilever::Cantilever;
//! use xtask::beam::{run, Method, RunOptions};
//! let beam = Cantilever { length: 0.5, youngs: 1e5, ..Cantilever::default() };
//! let fem = run(&beam, Method::Fem, &RunOptions { cells: 5, ..RunOptions::default() }).unwrap();
//! let gs = run(&beam, Method::XpbdGs, &RunOptions { cells: 5, substeps: 64, iterations: 1, ..RunOptions::default() }).unwrap();
//! // Same mesh, same energy: the XPBD rest state tends to the FEM order-1 equilibrium (h → 0).
//! assert!((gs.tip_displacement_z - fem.tip_displacement_z).abs() < 0.01 * fem.tip_displacement_z.abs());
//! ```

use std::time::Instant;

use anyhow::{Context, Result, bail};
use nalgebra::Vector3;
use serde::{Deserialize, Serialize};
use xpbd_core::builders::soft_body_from_simplices;
use xpbd_core::cantilever::Cantilever;
use xpbd_core::mesh::TetMesh;
use xpbd_core::{Simulation, SolverKind, SolverSettings, Vector};
use xpbd_fem_reference::cantilever::suggested_load_steps;
use xpbd_fem_reference::{
    BackwardEuler, MaterialKind, StaticSettings, cantilever_problem_3d, solve_cantilever_static,
    solve_static,
};

/// How a cantilever is solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Method {
    /// Static FEM oracle (Newton with load stepping).
    Fem,
    /// XPBD tets, sequential Gauss-Seidel.
    XpbdGs,
    /// XPBD tets, graph-coloured Gauss-Seidel.
    XpbdColored,
    /// XPBD tets, Jacobi (ω = 1, averaged).
    XpbdJacobi,
    /// XPBI particles, coloured Gauss-Seidel.
    XpbiColored,
    /// XPBI particles, Jacobi (ω = 1, averaged).
    XpbiJacobi,
}

impl Method {
    /// Every method, in the study's order.
    pub const ALL: [Method; 6] = [
        Method::Fem,
        Method::XpbdGs,
        Method::XpbdColored,
        Method::XpbdJacobi,
        Method::XpbiColored,
        Method::XpbiJacobi,
    ];

    /// Command-line name (`fem`, `xpbd-gs`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Method::Fem => "fem",
            Method::XpbdGs => "xpbd-gs",
            Method::XpbdColored => "xpbd-colored",
            Method::XpbdJacobi => "xpbd-jacobi",
            Method::XpbiColored => "xpbi-colored",
            Method::XpbiJacobi => "xpbi-jacobi",
        }
    }

    /// Parses a command-line name.
    ///
    /// ```
    /// use xtask::beam::Method;
    /// assert_eq!(Method::parse("xpbd-jacobi").unwrap(), Method::XpbdJacobi);
    /// assert!(Method::parse("xpbd-sor").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name).with_context(|| {
            format!(
                "unknown --method {name:?}: use fem | xpbd-gs | xpbd-colored | xpbd-jacobi | xpbi-colored | xpbi-jacobi"
            )
        })
    }

    /// The XPBD sweep of an XPBD/XPBI method (`None` for FEM).
    pub fn solver(&self) -> Option<SolverKind> {
        match self {
            Method::Fem => None,
            Method::XpbdGs => Some(SolverKind::GaussSeidel),
            Method::XpbdColored | Method::XpbiColored => Some(SolverKind::Coloured),
            Method::XpbdJacobi | Method::XpbiJacobi => Some(SolverKind::JACOBI),
        }
    }

    /// Whether the method uses XPBI particles.
    pub fn is_xpbi(&self) -> bool {
        matches!(self, Method::XpbiColored | Method::XpbiJacobi)
    }
}

/// Parses a material name (`hencky | neo-hookean | stable-neo-hookean | linear`).
pub fn parse_material(name: &str) -> Result<MaterialKind> {
    name.parse::<MaterialKind>()
        .map_err(|e| anyhow::anyhow!("--material: {e}"))
}

/// The material's command-line name.
pub fn material_name(kind: MaterialKind) -> &'static str {
    match kind {
        MaterialKind::Hencky => "hencky",
        MaterialKind::NeoHookean => "neo-hookean",
        MaterialKind::StableNeoHookean => "stable-neo-hookean",
        MaterialKind::Linear => "linear",
    }
}

/// Options of one run (FEM uses `material`, `order`, `cells`; XPBD/XPBI the rest as well).
#[derive(Debug, Clone, PartialEq)]
pub struct RunOptions {
    /// FEM material (XPBD is always stable Neo-Hookean, XPBI always Hencky-StVK).
    pub material: MaterialKind,
    /// FEM element order (1 or 2).
    pub order: u8,
    /// Hex cells along the length (cross-section from [`Cantilever::tet_mesh`]).
    pub cells: usize,
    /// Substeps per step (XPBD); XPBI always takes one.
    pub substeps: usize,
    /// Iterations per substep.
    pub iterations: usize,
    /// Step Δt (s).
    pub dt: f64,
    /// `Some(T)`: undamped dynamic run of `T` seconds from rest; `None`: damped run to rest.
    pub seconds: Option<f64>,
    /// Record the tip trajectory `(t, u_x, u_z)` every step.
    pub trajectory: bool,
    /// Worker threads (coloured and Jacobi sweeps).
    pub threads: usize,
}

impl Default for RunOptions {
    /// Stable Neo-Hookean, order 1, 10 cells, 10 substeps × 1 iteration, Δt = 1/60 s, run to
    /// rest, one thread.
    fn default() -> Self {
        Self {
            material: MaterialKind::StableNeoHookean,
            order: 1,
            cells: 10,
            substeps: 10,
            iterations: 1,
            dt: 1.0 / 60.0,
            seconds: None,
            trajectory: false,
            threads: 1,
        }
    }
}

/// One JSON line of `cargo xtask cantilever`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// Method name.
    pub method: String,
    /// Material actually used.
    pub material: String,
    /// Element order (FEM; 1 for XPBD; 0 for XPBI).
    pub order: u8,
    /// Cells along the length.
    pub cells: usize,
    /// Degrees of freedom (`3 ×` nodes or particles, pinned included).
    pub dofs: usize,
    /// Newton iterations (FEM only).
    pub newton_iterations: Option<usize>,
    /// Wall-clock seconds of the whole run (set-up included).
    pub seconds: f64,
    /// Substeps per step (0 for static FEM).
    pub substeps: usize,
    /// Iterations per substep (0 for static FEM).
    pub iterations: usize,
    /// Step Δt (0 for static FEM).
    pub dt: f64,
    /// Simulated seconds (0 for static FEM).
    pub simulated_seconds: f64,
    /// Steps taken.
    pub steps: usize,
    /// Whether the damped run reached rest (`None` for static FEM and fixed-time runs).
    pub at_rest: Option<bool>,
    /// Mean wall seconds per step (dynamic runs).
    pub wall_per_step: f64,
    /// Tip displacement along `x` (m).
    pub tip_displacement_x: f64,
    /// Tip displacement along `z` (m, negative = down).
    pub tip_displacement_z: f64,
    /// FEM: Newton residual norms; XPBD/XPBI: residual ‖C + α̃λ‖ after each iteration of the
    /// last substep of the last step.
    pub residual_history: Vec<f64>,
    /// `(t, u_x, u_z)` of the tip every step (only when requested).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trajectory: Vec<[f64; 3]>,
}

/// Runs one cantilever.
pub fn run(beam: &Cantilever, method: Method, opts: &RunOptions) -> Result<RunResult> {
    beam.validate()?;
    if opts.cells == 0 {
        bail!("--cells must be at least 1");
    }
    match method {
        Method::Fem if opts.seconds.is_some() => fem_backward_euler(beam, opts),
        Method::Fem => fem_static(beam, opts),
        m if m.is_xpbi() => crate::beam::xpbi::run_xpbi(beam, m, opts),
        m => run_xpbd(beam, m, opts),
    }
}

/// The static FEM oracle: the FEM crate's cantilever solve ([`solve_cantilever_static`]).
fn fem_static(beam: &Cantilever, opts: &RunOptions) -> Result<RunResult> {
    let sol = solve_cantilever_static(beam, opts.material, opts.order, opts.cells)?;
    Ok(RunResult {
        method: Method::Fem.name().into(),
        material: material_name(opts.material).into(),
        order: opts.order,
        cells: opts.cells,
        dofs: sol.dofs,
        newton_iterations: Some(sol.newton_iterations),
        seconds: sol.seconds,
        substeps: 0,
        iterations: 0,
        dt: 0.0,
        simulated_seconds: 0.0,
        steps: sol.load_increments,
        at_rest: None,
        wall_per_step: 0.0,
        tip_displacement_x: sol.tip_displacement_x,
        tip_displacement_z: sol.tip_displacement_z,
        residual_history: sol.residual_history,
        trajectory: Vec::new(),
    })
}

/// FEM static equilibrium displacement of every vertex of the order-1 mesh (same vertex order as
/// [`Cantilever::tet_mesh`]), stable Neo-Hookean: the exact discrete solution XPBD converges to.
pub fn fem_p1_equilibrium(beam: &Cantilever, cells: usize) -> Result<Vec<Vector<3>>> {
    let problem = cantilever_problem_3d(beam, MaterialKind::StableNeoHookean, 1, cells)?;
    let settings = StaticSettings {
        load_steps: suggested_load_steps(beam),
        ..StaticSettings::default()
    };
    let sol = solve_static(&problem, &settings)?;
    Ok(problem.nodal_vectors(&sol.displacement))
}

/// Backward-Euler FEM trajectory from rest, time step `dt / substeps` (the XPBD substep) for
/// `seconds`, undamped.
fn fem_backward_euler(beam: &Cantilever, opts: &RunOptions) -> Result<RunResult> {
    let start = Instant::now();
    let problem = cantilever_problem_3d(beam, opts.material, opts.order, opts.cells)?;
    let h = opts.dt / opts.substeps.max(1) as f64;
    let seconds = opts.seconds.unwrap_or(1.0);
    let n = problem.dof_count();
    let mut be = BackwardEuler::new(&problem, h, vec![0.0; n], vec![0.0; n])?;
    // Small steps make the inertial term dominate the force scale of the relative test; 1e-8
    // of it is still far below the trajectory differences studied (≥ 1e-6 m).
    be.newton.relative_tolerance = 1e-8;
    be.newton.max_iterations = 50;
    let tip = beam.tip_point();
    let tip = Vector3::new(tip[0], tip[1], tip[2]);
    let steps = (seconds / h).round() as usize;
    let mut trajectory = Vec::new();
    let stepping = Instant::now();
    for s in 0..steps {
        be.step()
            .with_context(|| format!("backward Euler step {s}"))?;
        if opts.trajectory {
            let d = be
                .point_displacement(&tip)
                .context("tip outside the mesh")?;
            trajectory.push([be.time, d.x, d.z]);
        }
    }
    let wall_per_step = stepping.elapsed().as_secs_f64() / steps.max(1) as f64;
    let d = be
        .point_displacement(&tip)
        .context("tip outside the mesh")?;
    Ok(RunResult {
        method: Method::Fem.name().into(),
        material: material_name(opts.material).into(),
        order: opts.order,
        cells: opts.cells,
        dofs: n,
        newton_iterations: Some(be.stats.iterations),
        seconds: start.elapsed().as_secs_f64(),
        substeps: 1,
        iterations: 0,
        dt: h,
        simulated_seconds: be.time,
        steps,
        at_rest: None,
        wall_per_step,
        tip_displacement_x: d.x,
        tip_displacement_z: d.z,
        residual_history: Vec::new(),
        trajectory,
    })
}

/// Barycentric location of a reference point in a tet mesh: the first tet whose barycentric
/// coordinates are all ≥ −1e-9 (linear interpolation is continuous, so any containing tet gives
/// the same value).
pub fn locate(mesh: &TetMesh, p: &Vector<3>) -> Option<([usize; 4], [f64; 4])> {
    mesh.cells.iter().find_map(|c| {
        let x: [Vector<3>; 4] = c.map(|i| mesh.vertices[i as usize]);
        let m = nalgebra::Matrix3::from_columns(&[x[1] - x[0], x[2] - x[0], x[3] - x[0]]);
        let b = m.try_inverse()? * (p - x[0]);
        let w = [1.0 - b.x - b.y - b.z, b.x, b.y, b.z];
        w.iter()
            .all(|v| *v >= -1e-9)
            .then(|| (c.map(|i| i as usize), w))
    })
}

/// The XPBD tet cantilever: a simulation with the beam's vertices as particles (pinned at
/// `x = 0`), the stable Neo-Hookean block, and the tip's barycentric location.
pub struct XpbdBeam {
    /// The simulation.
    pub sim: Simulation<3>,
    /// Reference vertex positions.
    pub rest: Vec<Vector<3>>,
    /// Tip location (vertices, weights).
    pub tip: ([usize; 4], [f64; 4]),
}

impl std::fmt::Debug for XpbdBeam {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("XpbdBeam")
            .field("particles", &self.rest.len())
            .finish()
    }
}

impl XpbdBeam {
    /// Builds the beam for a solver.
    pub fn new(
        beam: &Cantilever,
        cells: usize,
        solver: SolverKind,
        substeps: usize,
        iterations: usize,
        threads: usize,
    ) -> Result<Self> {
        let mesh = beam.tet_mesh(cells)?;
        let simplices: Vec<Vec<usize>> = mesh
            .cells
            .iter()
            .map(|c| c.iter().map(|&i| i as usize).collect())
            .collect();
        let body = soft_body_from_simplices(
            &mesh.vertices,
            &simplices,
            beam.density,
            beam.youngs,
            beam.poisson,
        )?;
        let mut particles = body.particles;
        for (i, x) in mesh.vertices.iter().enumerate() {
            if x.x.abs() < 1e-9 * beam.length {
                particles.pin(i);
            }
        }
        let settings = SolverSettings {
            substeps,
            iterations,
            solver,
            gravity: Vector::<3>::new(0.0, 0.0, -beam.gravity),
            threads,
            ..SolverSettings::default()
        };
        let mut sim = Simulation::new(particles, settings)?;
        sim.add_constraints(body.elastic)?;
        let t = beam.tip_point();
        let tip = locate(&mesh, &Vector::<3>::new(t[0], t[1], t[2]))
            .context("tip point outside the tet mesh")?;
        Ok(Self {
            sim,
            rest: mesh.vertices,
            tip,
        })
    }

    /// Current tip displacement.
    pub fn tip_displacement(&self) -> Vector<3> {
        let x = &self.sim.particles().x;
        let (idx, w) = self.tip;
        (0..4).map(|k| (x[idx[k]] - self.rest[idx[k]]) * w[k]).sum()
    }

    /// Tip displacement of a nodal displacement field on the same mesh.
    pub fn tip_of(&self, u: &[Vector<3>]) -> Vector<3> {
        let (idx, w) = self.tip;
        (0..4).map(|k| u[idx[k]] * w[k]).sum()
    }

    /// Largest particle speed.
    pub fn max_speed(&self) -> f64 {
        self.sim
            .particles()
            .v
            .iter()
            .map(|v| v.norm())
            .fold(0.0, f64::max)
    }

    /// Puts the particles at `rest + u` with zero velocity.
    pub fn set_displacement(&mut self, u: &[Vector<3>]) {
        let rest = self.rest.clone();
        let p = self.sim.particles_mut();
        for i in 0..rest.len() {
            p.x[i] = rest[i] + u[i];
            p.v[i] = Vector::<3>::zeros();
        }
    }
}

/// Linear first bending angular frequency `ω₁ = 2π f₁` (rad/s).
pub fn omega1(beam: &Cantilever) -> f64 {
    2.0 * std::f64::consts::PI * beam.first_bending_frequency()
}

/// The damped run-to-rest (or fixed-time) loop shared by XPBD and XPBI: `step` advances one
/// step and returns the tip displacement and largest particle speed.
pub(crate) struct DynamicOutcome {
    pub steps: usize,
    pub simulated: f64,
    pub at_rest: Option<bool>,
    pub wall_per_step: f64,
    pub trajectory: Vec<[f64; 3]>,
}

pub(crate) fn drive(
    beam: &Cantilever,
    opts: &RunOptions,
    mut step: impl FnMut() -> Result<(Vector<3>, f64)>,
) -> Result<DynamicOutcome> {
    let w1 = omega1(beam);
    let period = 2.0 * std::f64::consts::PI / w1;
    let (limit, resting) = match opts.seconds {
        Some(t) => (t, false),
        // Critical damping of mode 1 decays as e^{−ω₁ t}: 10⁻⁸ after 18.4/ω₁; allow 2×.
        None => (2.0 * 18.4 / w1, true),
    };
    let max_steps = (limit / opts.dt).round().max(1.0) as usize;
    let window = ((0.25 * period / opts.dt).ceil() as usize).max(5);
    let mut calm = 0usize;
    let mut trajectory = Vec::new();
    let start = Instant::now();
    let mut steps = 0;
    let mut at_rest = false;
    while steps < max_steps {
        let (u, vmax) = step()?;
        steps += 1;
        if opts.trajectory {
            trajectory.push([steps as f64 * opts.dt, u.x, u.z]);
        }
        if resting {
            let tol = 1e-5 * w1 * u.norm().max(1e-3 * beam.length);
            calm = if vmax < tol { calm + 1 } else { 0 };
            if calm >= window {
                at_rest = true;
                break;
            }
        }
    }
    Ok(DynamicOutcome {
        steps,
        simulated: steps as f64 * opts.dt,
        at_rest: resting.then_some(at_rest),
        wall_per_step: start.elapsed().as_secs_f64() / steps.max(1) as f64,
        trajectory,
    })
}

fn run_xpbd(beam: &Cantilever, method: Method, opts: &RunOptions) -> Result<RunResult> {
    let start = Instant::now();
    let solver = method.solver().expect("XPBD method");
    let mut b = XpbdBeam::new(
        beam,
        opts.cells,
        solver,
        opts.substeps,
        opts.iterations,
        opts.threads,
    )?;
    if opts.seconds.is_none() {
        let mut s = b.sim.settings().clone();
        s.velocity_damping = 2.0 * omega1(beam);
        b.sim.set_settings(s)?;
    }
    let out = drive(beam, opts, || {
        b.sim.step(opts.dt)?;
        Ok((b.tip_displacement(), b.max_speed()))
    })?;
    // One more step with residual recording (kept out of the timed loop: it costs a pass per
    // iteration). At rest this step does not move the beam measurably.
    let mut s = b.sim.settings().clone();
    s.diagnostics.residuals = true;
    b.sim.set_settings(s)?;
    let residual_history = b.sim.step(opts.dt)?.residuals.clone();
    let u = b.tip_displacement();
    Ok(RunResult {
        method: method.name().into(),
        material: "stable-neo-hookean".into(),
        order: 1,
        cells: opts.cells,
        dofs: 3 * b.rest.len(),
        newton_iterations: None,
        seconds: start.elapsed().as_secs_f64(),
        substeps: opts.substeps,
        iterations: opts.iterations,
        dt: opts.dt,
        simulated_seconds: out.simulated,
        steps: out.steps,
        at_rest: out.at_rest,
        wall_per_step: out.wall_per_step,
        tip_displacement_x: u.x,
        tip_displacement_z: u.z,
        residual_history,
        trajectory: out.trajectory,
    })
}

/// One substep from the exact discrete equilibrium `u_eq` (FEM order 1, same mesh) with
/// multipliers reset, as every XPBD substep starts: the residual ‖C + α̃λ‖ and the tip error
/// `|u_tip − u_eq,tip|` after k = 1, 2, 4, … , `iterations` iterations (pairs `[k, error]`). Measures how fast a sweep
/// rebuilds the full elastic force from λ = 0 at the substep size `h`.
pub fn residual_probe(
    beam: &Cantilever,
    cells: usize,
    solver: SolverKind,
    h: f64,
    iterations: usize,
    u_eq: &[Vector<3>],
) -> Result<(Vec<f64>, Vec<[f64; 2]>)> {
    let mut residuals = Vec::with_capacity(iterations);
    let mut tip_errors = Vec::new();
    let b0 = XpbdBeam::new(beam, cells, solver, 1, 1, 1)?;
    let target = b0.tip_of(u_eq);
    // Re-running k iterations from the same start for each k gives the tip error after k
    // iterations; the residual history of the longest run gives the residual per iteration.
    let mut ks: Vec<usize> = (0..)
        .map(|e| 1usize << e)
        .take_while(|k| *k < iterations)
        .collect();
    ks.push(iterations);
    for &k in &ks {
        let mut b = XpbdBeam::new(beam, cells, solver, 1, k, 1)?;
        b.set_displacement(u_eq);
        let mut s = b.sim.settings().clone();
        s.diagnostics.residuals = k == iterations;
        b.sim.set_settings(s)?;
        let rep = b.sim.step(h)?;
        if k == iterations {
            residuals = rep.residuals.clone();
        }
        tip_errors.push([k as f64, (b.tip_displacement() - target).norm()]);
    }
    Ok((residuals, tip_errors))
}

mod xpbi;
pub use xpbi::{xpbi_beam_positions, xpbi_max_substep, xpbi_spacing};
