//! The cantilever convergence study: XPBD and XPBI against the FEM oracle.
//!
//! **Beam** ([`study_beam`]): `L = 0.5 m`, `W = H = 0.1 m` (aspect 5), clamped at `x = 0`,
//! self-weight (`g = 9.81 m/s²` along `−z`), `ν = 0.3`, `ρ = 1000 kg/m³`, and
//! `E ∈ {1e4, 1e5, 1e6, 1e7} Pa`: the self-weight parameter `K = qL³/(EI)` is 147, 14.7, 1.47
//! and 0.147, i.e. a beam hanging almost vertically, a large, a moderate and a small
//! (≈ 2 % of L) deflection.
//!
//! **Oracles.** FEM order 1 (stable Neo-Hookean) on the *same* tet mesh is the exact discrete
//! problem XPBD solves: its tip is the oracle for the solver sweeps (iterations, substeps, Δt),
//! whose error is then pure solver error. FEM order 2 on the finest mesh is the continuum truth
//! for the resolution sweep (linear tets lock in bending, so order 1 converges slowly) and for
//! XPBI (Hencky-StVK, as XPBI uses). FEM backward Euler with `h = Δt/S` is the trajectory
//! oracle.
//!
//! **Sweeps** (each XPBD one for Gauss-Seidel, coloured GS and Jacobi; `Δt = 1/60 s` unless
//! swept; `S₀(E)` = [`base_substeps`]): iterations at `S = 4 S₀`; substeps `S₀·k` at `I = 1`
//! (error vs `h = Δt/S`); the "small steps" split of the fixed budget `S × I = 16 S₀`; Δt at
//! `S = 4 S₀, I = 8`; resolution (GS, `S = 1.6 S₀ N, I = 1`); a residual probe (one substep
//! `h = Δt/S₀` from the exact equilibrium, multipliers reset: residual and tip error per
//! iteration); trajectories (GS vs backward Euler, same `h`); XPBI coloured/Jacobi at rest
//! ([`xpbi_points`], [`xpbi_substeps`]; Lagrangian kernels, see `beam::xpbi`) against FEM
//! Hencky order 2, with a resolution series at E = 1e5.
//!
//! ```
//! let plan = xtask::study::plan(xtask::study::Tier::Quick);
//! assert!(plan.iter().any(|p| p.kind == xtask::study::Kind::Probe));
//! ```

use std::time::Instant;

use anyhow::Result;
use serde::{Deserialize, Serialize};
use xpbd_core::cantilever::Cantilever;
use xpbd_fem_reference::MaterialKind;

use crate::beam::{self, Method, RunOptions, RunResult};

mod analysis;
pub use analysis::{Analysis, PerYoungs, Series, analyse, relative_error};

/// Young's moduli of the study (Pa).
pub const YOUNGS: [f64; 4] = [1e4, 1e5, 1e6, 1e7];

/// The study beam at Young's modulus `youngs`.
pub fn study_beam(youngs: f64) -> Cantilever {
    Cantilever {
        length: 0.5,
        width: 0.1,
        height: 0.1,
        youngs,
        poisson: 0.3,
        density: 1000.0,
        ..Cantilever::default()
    }
}

/// Which tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tier {
    /// CI tier (≈ 2 minutes on 2 cores).
    Quick,
    /// Full tier (≲ 30 minutes on 2 cores).
    Full,
}

/// What a point measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// FEM static solve.
    FemStatic,
    /// XPBD damped run to rest (a point of one or more sweeps).
    Rest,
    /// XPBI damped run to rest.
    Xpbi,
    /// Residual and tip error per iteration of one substep from the equilibrium.
    Probe,
    /// Undamped tip trajectory (FEM backward Euler or XPBD).
    Trajectory,
}

/// One point of the study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// What it measures.
    pub kind: Kind,
    /// Young's modulus (Pa).
    pub youngs: f64,
    /// Method name ([`Method::name`]).
    pub method: String,
    /// FEM material name.
    pub material: String,
    /// FEM order.
    pub order: u8,
    /// Cells along the length.
    pub cells: usize,
    /// Substeps per step.
    pub substeps: usize,
    /// Iterations per substep.
    pub iterations: usize,
    /// Step (s).
    pub dt: f64,
    /// Fixed simulated time (trajectories).
    pub seconds: Option<f64>,
}

impl Point {
    /// The `cargo xtask cantilever` command reproducing this point (not for probes).
    pub fn command(&self) -> String {
        let b = study_beam(self.youngs);
        let mut c = format!(
            "cargo xtask cantilever --method {} --length {} --width {} --height {} --youngs {:e} --poisson {} --density {} --material {} --order {} --cells {}",
            self.method,
            b.length,
            b.width,
            b.height,
            self.youngs,
            b.poisson,
            b.density,
            self.material,
            self.order,
            self.cells
        );
        if self.method != "fem" || self.seconds.is_some() {
            c += &format!(
                " --substeps {} --iterations {} --dt {}",
                self.substeps, self.iterations, self.dt
            );
        }
        if let Some(t) = self.seconds {
            c += &format!(" --seconds {t} --trajectory");
        }
        c
    }
}

/// A measured point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// The point.
    pub point: Point,
    /// The run (absent for probes and failures).
    pub result: Option<RunResult>,
    /// Probe: residual per iteration.
    #[serde(default)]
    pub probe_residuals: Vec<f64>,
    /// Probe: `[k, tip error after k iterations]` (m).
    #[serde(default)]
    pub probe_tip_errors: Vec<[f64; 2]>,
    /// Why the run failed (diverged, rolled back, Newton failure …), if it did.
    pub error: Option<String>,
    /// Wall seconds of this point.
    pub wall_seconds: f64,
}

const XPBD: [Method; 3] = [Method::XpbdGs, Method::XpbdColored, Method::XpbdJacobi];
const DT: f64 = 1.0 / 60.0;

fn point(
    kind: Kind,
    youngs: f64,
    method: Method,
    cells: usize,
    s: usize,
    i: usize,
    dt: f64,
) -> Point {
    Point {
        kind,
        youngs,
        method: method.name().into(),
        material: "stable-neo-hookean".into(),
        order: 1,
        cells,
        substeps: s,
        iterations: i,
        dt,
        seconds: None,
    }
}

fn fem(youngs: f64, material: MaterialKind, order: u8, cells: usize) -> Point {
    Point {
        kind: Kind::FemStatic,
        youngs,
        method: "fem".into(),
        material: beam::material_name(material).into(),
        order,
        cells,
        substeps: 0,
        iterations: 0,
        dt: 0.0,
        seconds: None,
    }
}

/// Mesh (cells along L) of the solver sweeps.
pub fn solver_cells(_tier: Tier) -> usize {
    10
}

/// Resolutions of the resolution sweep.
pub fn resolutions(tier: Tier) -> Vec<usize> {
    match tier {
        Tier::Quick => vec![5, 10],
        Tier::Full => vec![5, 10, 20],
    }
}

/// Cells of the order-2 truth.
pub fn truth_cells(tier: Tier) -> usize {
    match tier {
        Tier::Quick => 10,
        Tier::Full => 20,
    }
}

/// Base substep count at `Δt = 1/60 s`: the smallest power of two whose substep is below the
/// stable neo-Hookean pair's shear-wave bound on the solver mesh (`NeoHookeanTetConstraints`'s
/// `max_substep`: 8.8e-3, 2.8e-3, 8.8e-4 and 2.8e-4 s at E = 1e4 … 1e7; above it the pair's
/// shear is unstable, e.g. at `E = 1e6` Gauss–Seidel with `h = Δt/4` reached an inverted
/// state even with 200 iterations). Every sweep uses `S ≥ S₀` at `Δt ≤ 1/60 s`, and the
/// resolution sweep scales S with the cells, so no point of the study is refused.
pub fn base_substeps(youngs: f64) -> usize {
    if youngs <= 1e4 {
        4
    } else if youngs <= 1e5 {
        8
    } else if youngs <= 1e6 {
        32
    } else {
        64
    }
}

/// A sweep of (substeps, iterations, Δt) at one E (x-axis value, settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sweep {
    /// Iterations at `S = 4 S₀(E)`.
    Iterations,
    /// Substeps (`h = Δt/S`) at `I = 1`.
    Substeps,
    /// Fixed budget `S × I = 16 S₀`, split.
    SmallSteps,
    /// Δt at `S = 4 S₀`, `I = 8`.
    TimeStep,
}

/// The `(substeps, iterations, dt)` settings of a sweep.
pub fn sweep_settings(sweep: Sweep, tier: Tier, youngs: f64) -> Vec<(usize, usize, f64)> {
    let quick = tier == Tier::Quick;
    let s0 = base_substeps(youngs);
    match sweep {
        Sweep::Iterations => {
            let its: &[usize] = if quick {
                &[1, 4, 16]
            } else {
                &[1, 2, 4, 8, 16, 32, 64]
            };
            its.iter().map(|&i| (4 * s0, i, DT)).collect()
        }
        Sweep::Substeps => {
            let f: &[usize] = if quick {
                &[1, 4, 16]
            } else {
                &[1, 2, 4, 8, 16, 32, 64]
            };
            f.iter().map(|&k| (s0 * k, 1, DT)).collect()
        }
        Sweep::SmallSteps => {
            let f: &[usize] = if quick {
                &[1, 4, 16]
            } else {
                &[1, 2, 4, 8, 16]
            };
            f.iter().map(|&k| (s0 * k, 16 / k, DT)).collect()
        }
        Sweep::TimeStep => {
            let d: &[f64] = if quick {
                &[30.0, 60.0, 120.0]
            } else {
                &[15.0, 30.0, 60.0, 120.0, 240.0]
            };
            d.iter().map(|&f| (4 * s0, 8, 1.0 / f)).collect()
        }
    }
}

/// Sweeps of a tier.
pub const SWEEPS: [Sweep; 4] = [
    Sweep::Iterations,
    Sweep::Substeps,
    Sweep::SmallSteps,
    Sweep::TimeStep,
];

/// Every point of a tier (deduplicated: the sweeps share points).
pub fn plan(tier: Tier) -> Vec<Point> {
    let quick = tier == Tier::Quick;
    let n = solver_cells(tier);
    let mut pts: Vec<Point> = Vec::new();
    let push = |p: Point, pts: &mut Vec<Point>| {
        if !pts.contains(&p) {
            pts.push(p);
        }
    };
    for &e in &YOUNGS {
        let s0 = base_substeps(e);
        for m in XPBD {
            for sw in SWEEPS {
                // The quick tier runs coloured GS (≈ GS, measured) only in the iterations sweep.
                let skip = match m {
                    Method::XpbdColored => sw != Sweep::Iterations,
                    Method::XpbdJacobi => sw == Sweep::TimeStep,
                    _ => false,
                };
                if quick && skip {
                    continue;
                }
                for (s, i, dt) in sweep_settings(sw, tier, e) {
                    push(point(Kind::Rest, e, m, n, s, i, dt), &mut pts);
                }
            }
            push(
                point(
                    Kind::Probe,
                    e,
                    m,
                    n,
                    1,
                    if quick { 32 } else { 64 },
                    DT / s0 as f64,
                ),
                &mut pts,
            );
        }
        for &c in &resolutions(tier) {
            push(
                point(
                    Kind::Rest,
                    e,
                    Method::XpbdGs,
                    c,
                    resolution_substeps(e, c),
                    1,
                    DT,
                ),
                &mut pts,
            );
            push(fem(e, MaterialKind::StableNeoHookean, 1, c), &mut pts);
            push(fem(e, MaterialKind::StableNeoHookean, 2, c), &mut pts);
        }
        push(
            fem(e, MaterialKind::StableNeoHookean, 2, truth_cells(tier)),
            &mut pts,
        );
        push(fem(e, MaterialKind::StableNeoHookean, 1, n), &mut pts);
        if !quick {
            push(fem(e, MaterialKind::Hencky, 2, truth_cells(tier)), &mut pts);
            for (m, cells) in xpbi_points(e) {
                let mut p = point(Kind::Xpbi, e, m, cells, xpbi_substeps(e, cells), 10, DT);
                p.material = "hencky".into();
                p.order = 0;
                push(p, &mut pts);
            }
        }
        if !quick || e == 1e6 {
            let period = 1.0 / study_beam(e).first_bending_frequency();
            let seconds = (2.0 * period).min(if quick { 0.5 } else { 1.0 });
            let seconds = (seconds * 60.0).round() / 60.0;
            let mut gs = point(Kind::Trajectory, e, Method::XpbdGs, n, 4 * s0, 8, DT);
            gs.seconds = Some(seconds);
            let mut be = gs.clone();
            be.method = "fem".into();
            be.iterations = 0;
            push(be, &mut pts);
            push(gs, &mut pts);
        }
    }
    pts
}

/// Substeps of the resolution sweep: `16 S₀ N/10` keeps `α̃ / (w|∇C|²) ∝ ρ Δx² / (μ h²)`, the
/// regime of the per-substep solve, the same at every mesh size `Δx ∝ 1/N`.
pub fn resolution_substeps(youngs: f64, cells: usize) -> usize {
    (16 * base_substeps(youngs) * cells).div_ceil(10)
}

/// Particle resolutions (cells along L, `Δx = min(L/2N, H/4)`: 4 and 8 particles through the
/// height) of the XPBI resolution series.
pub const XPBI_RESOLUTIONS: [usize; 2] = [5, 20];

/// XPBI points of the full tier at E: coloured GS and Jacobi at 5 cells (4 particles through
/// the height) for E ≥ 1e5, plus coloured GS at 20 cells (8 through the height) at E = 1e5 for
/// the resolution series (measured: relative tip error 15.7 % → 7.0 %, 314 s for the fine
/// point on the loaded 2-core machine; at E = 1e6 the fine point would need 128 substeps).
/// None at E = 1e4: Hencky-StVK has no hanging equilibrium there (its nominal tensile stress
/// `2μ ln σ / σ` peaks at `2μ/e` = 2.8 kPa, below the root load `ρ g L` = 4.9 kPa, and FEM
/// Hencky fails to converge too), so the beam tears whatever the method.
pub fn xpbi_points(youngs: f64) -> Vec<(Method, usize)> {
    if youngs < 1e5 {
        return Vec::new();
    }
    let mut v = vec![(Method::XpbiColored, 5), (Method::XpbiJacobi, 5)];
    if youngs == 1e5 {
        v.push((Method::XpbiColored, XPBI_RESOLUTIONS[1]));
    }
    v
}

/// XPBI substeps per 1/60 s frame at E on `cells` cells: the smallest power of two whose
/// substep respects [`crate::beam::xpbi_max_substep`] (`h ≤ 0.7 Δx/c`; longer steps make the
/// particle beam jitter, see `beam::xpbi`): 4, 16, 64, 128 at E = 1e4 … 1e7 and 5 cells.
pub fn xpbi_substeps(youngs: f64, cells: usize) -> usize {
    let h = crate::beam::xpbi_max_substep(&study_beam(youngs), cells);
    ((DT / h).ceil() as usize).next_power_of_two()
}

/// Runs every point on a rayon pool of `jobs` threads (0 = all cores), calling `progress`
/// after each; results in plan order.
pub fn run_plan(
    tier: Tier,
    points: &[Point],
    jobs: usize,
    progress: &(dyn Fn(&Measured) + Sync),
) -> Result<StudyOutput> {
    use rayon::prelude::*;
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    // Longest first: better packing over the jobs.
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(cost_rank(&points[i])));
    let mut measured: Vec<(usize, Measured)> = pool.install(|| {
        order
            .par_iter()
            .map(|&i| {
                let m = measure(&points[i]);
                progress(&m);
                (i, m)
            })
            .collect()
    });
    measured.sort_by_key(|x| x.0);
    let points: Vec<Measured> = measured.into_iter().map(|x| x.1).collect();
    let mut analysis = analyse(tier, &points);
    // Timings from the parallel sweeps share the cores; measure them serially instead.
    for per in &mut analysis.per_youngs {
        for (name, slot) in per.wall_per_step.iter_mut() {
            let method = Method::parse(name)?;
            *slot = time_substep(
                per.youngs,
                method.solver().expect("XPBD"),
                solver_cells(tier),
            )
            .ok();
        }
    }
    Ok(StudyOutput {
        tier,
        points,
        analysis,
        wall_seconds: start.elapsed().as_secs_f64(),
    })
}

/// Wall seconds of one substep-iteration (`S = 8`, `I = 1`, 30 frames from rest, one thread,
/// after the sweeps): what one sweep over the beam's constraints costs.
pub fn time_substep(youngs: f64, solver: xpbd_core::SolverKind, cells: usize) -> Result<f64> {
    let beam = study_beam(youngs);
    let mut b = beam::XpbdBeam::new(&beam, cells, solver, 8, 1, 1)?;
    b.sim.step(DT)?;
    let start = Instant::now();
    let frames = 30;
    for _ in 0..frames {
        b.sim.step(DT)?;
    }
    Ok(start.elapsed().as_secs_f64() / (frames * 8) as f64)
}

/// A rough cost estimate for scheduling (substep-iterations to rest × mesh size).
fn cost_rank(p: &Point) -> u64 {
    let beam = study_beam(p.youngs);
    let t = p.seconds.unwrap_or(18.4 / crate::beam::omega1(&beam));
    let per = (p.substeps.max(1) * p.iterations.max(1)) as f64 / p.dt.max(1e-3);
    let size = (p.cells * p.cells * p.cells) as f64;
    let factor = match p.kind {
        Kind::Xpbi => 20.0,
        Kind::Trajectory if p.method == "fem" => 50.0,
        Kind::FemStatic => 0.0,
        _ => 1.0,
    };
    (t * per * size * factor
        + if p.kind == Kind::FemStatic {
            size * 1e3
        } else {
            0.0
        }) as u64
}

/// Runs one point (never fails: failures are recorded).
pub fn measure(p: &Point) -> Measured {
    let start = Instant::now();
    let beam = study_beam(p.youngs);
    let mut m = Measured {
        point: p.clone(),
        result: None,
        probe_residuals: Vec::new(),
        probe_tip_errors: Vec::new(),
        error: None,
        wall_seconds: 0.0,
    };
    let outcome: Result<()> = (|| {
        let method = Method::parse(&p.method)?;
        if p.kind == Kind::Probe {
            let u = beam::fem_p1_equilibrium(&beam, p.cells)?;
            let (r, e) = beam::residual_probe(
                &beam,
                p.cells,
                method.solver().expect("XPBD"),
                p.dt,
                p.iterations,
                &u,
            )?;
            m.probe_residuals = r;
            m.probe_tip_errors = e;
            return Ok(());
        }
        let opts = RunOptions {
            material: beam::parse_material(&p.material)?,
            order: p.order.max(1),
            cells: p.cells,
            substeps: p.substeps.max(1),
            iterations: p.iterations.max(1),
            dt: if p.dt > 0.0 { p.dt } else { DT },
            seconds: p.seconds,
            trajectory: p.seconds.is_some(),
            threads: 1,
        };
        let r = beam::run(&beam, method, &opts)?;
        if !(r.tip_displacement_x.is_finite() && r.tip_displacement_z.is_finite()) {
            m.error = Some("non-finite tip displacement".into());
        }
        m.result = Some(r);
        Ok(())
    })();
    if let Err(e) = outcome {
        m.error = Some(format!("{e:#}"));
    }
    m.wall_seconds = start.elapsed().as_secs_f64();
    m
}

/// The whole study's output (`target/report/convergence.json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StudyOutput {
    /// Tier.
    pub tier: Tier,
    /// Every measured point, in plan order.
    pub points: Vec<Measured>,
    /// Derived figures.
    pub analysis: Analysis,
    /// Wall seconds of the whole study.
    pub wall_seconds: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use xpbd_core::SolverKind;

    /// Every study point at `S₀(E)` and `Δt = 1/60 s` lies below the neo-Hookean pair's
    /// shear-wave bound on the solver mesh, and half of `S₀` does not (the power of two is
    /// the smallest that runs), for every E of the study.
    #[test]
    fn base_substeps_are_the_smallest_power_of_two_below_the_shear_bound() {
        for e in YOUNGS {
            let beam = beam::XpbdBeam::new(
                &study_beam(e),
                solver_cells(Tier::Quick),
                SolverKind::GaussSeidel,
                1,
                1,
                1,
            )
            .unwrap();
            let (_, bound) = beam.sim.substep_bound().unwrap();
            let s0 = base_substeps(e);
            assert!(
                DT / s0 as f64 <= bound.h,
                "E = {e:e}: S₀ = {s0}, bound {}",
                bound.h
            );
            assert!(
                s0 <= 4 || DT / (s0 / 2) as f64 > bound.h,
                "E = {e:e}: S₀ = {s0} could be halved (bound {})",
                bound.h
            );
        }
    }
}
