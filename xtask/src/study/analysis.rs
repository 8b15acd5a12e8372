//! The study's derived figures ([`analyse`]): error series against the oracles with their
//! fitted orders, per-E summaries and the Jacobi verdict.

use serde::{Deserialize, Serialize};

use super::{
    DT, Kind, Measured, Sweep, Tier, XPBD, XPBI_RESOLUTIONS, YOUNGS, base_substeps,
    resolution_substeps, resolutions, solver_cells, study_beam, sweep_settings, truth_cells,
};
use crate::beam::Method;
use crate::fit::{log_log_slope, mean_reduction_factor};

/// A series of `(x, error)` with its fitted log–log slope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Label (method, E).
    pub label: String,
    /// Young's modulus.
    pub youngs: f64,
    /// Method.
    pub method: String,
    /// Abscissae.
    pub x: Vec<f64>,
    /// Relative tip errors.
    pub y: Vec<f64>,
    /// Fitted slope of `ln y` vs `ln x`.
    pub slope: Option<f64>,
}

/// Per-E summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PerYoungs {
    /// E (Pa).
    pub youngs: f64,
    /// FEM order-1 tip `(x, z)` on the solver mesh (m).
    pub fem_p1_tip: Option<[f64; 2]>,
    /// FEM order-2 truth tip `(x, z)` (m).
    pub fem_truth_tip: Option<[f64; 2]>,
    /// Timoshenko small-deflection tip deflection (m, positive down).
    pub timoshenko: f64,
    /// Mean residual reduction factor per iteration in the probe, per method.
    pub probe_reduction: Vec<(String, Option<f64>)>,
    /// Relative tip error of each XPBD method at the largest iteration budget of the
    /// iterations sweep.
    pub best_error: Vec<(String, Option<f64>)>,
    /// Wall seconds per substep-iteration, measured serially after the sweeps
    /// ([`time_substep`]), per method.
    pub wall_per_step: Vec<(String, Option<f64>)>,
    /// Jacobi verdict, as measured.
    pub verdict: String,
}

/// Derived figures of the study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// Error vs iterations (x = iterations).
    pub iterations: Vec<Series>,
    /// Error vs h = Δt/S at I = 1 (x = h).
    pub substeps: Vec<Series>,
    /// Error vs S at fixed budget (x = S).
    pub small_steps: Vec<Series>,
    /// Error vs Δt at S = 1, I = 8.
    pub time_step: Vec<Series>,
    /// Error vs cell size L/N against the order-2 truth: XPBD GS, FEM P1, FEM P2; and XPBI
    /// coloured GS against FEM Hencky order 2 with x = the particle spacing Δx.
    pub resolution: Vec<Series>,
    /// Probe residual per iteration (x = iteration, y = residual / first residual).
    pub probe: Vec<Series>,
    /// XPBI relative tip error against FEM Hencky order 2 at 5 cells: `(method, E, error)`.
    /// (The XPBI resolution series, x = particle spacing, is in `resolution`.)
    pub xpbi: Vec<(String, f64, Option<f64>)>,
    /// Per E.
    pub per_youngs: Vec<PerYoungs>,
}

fn tip(m: &Measured) -> Option<[f64; 2]> {
    let r = m.result.as_ref()?;
    if m.error.is_some() {
        return None;
    }
    Some([r.tip_displacement_x, r.tip_displacement_z])
}

/// Relative error `|a − b| / |b|` of two `(x, z)` tips.
pub fn relative_error(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt() / (b[0].powi(2) + b[1].powi(2)).sqrt()
}

fn find_fem<'a>(
    pts: &'a [Measured],
    e: f64,
    material: &str,
    order: u8,
    cells: usize,
) -> Option<&'a Measured> {
    pts.iter().find(|m| {
        let p = &m.point;
        p.kind == Kind::FemStatic
            && p.youngs == e
            && p.material == material
            && p.order == order
            && p.cells == cells
    })
}

/// The measured points of one Young's modulus, looked up by what they ran.
struct AtYoungs<'a> {
    tier: Tier,
    pts: &'a [Measured],
    /// E (Pa).
    e: f64,
    /// Cells of the solver mesh.
    n: usize,
}

impl<'a> AtYoungs<'a> {
    /// The run-to-rest point of `method` on `cells` cells at (substeps, iterations, Δt).
    fn rest(&self, method: &str, cells: usize, st: (usize, usize, f64)) -> Option<&'a Measured> {
        self.pts.iter().find(|x| {
            let p = &x.point;
            p.kind == Kind::Rest
                && p.youngs == self.e
                && p.method == method
                && p.cells == cells
                && p.substeps == st.0
                && p.iterations == st.1
                && p.dt == st.2
        })
    }

    /// The static FEM point of a material, order and cell count.
    fn fem(&self, material: &str, order: u8, cells: usize) -> Option<&'a Measured> {
        find_fem(self.pts, self.e, material, order, cells)
    }

    /// The XPBI point of `m` on `cells` cells.
    fn xpbi(&self, m: Method, cells: usize) -> Option<&'a Measured> {
        self.pts.iter().find(|x| {
            x.point.kind == Kind::Xpbi
                && x.point.youngs == self.e
                && x.point.method == m.name()
                && x.point.cells == cells
        })
    }

    /// One sweep of `method` on the solver mesh: abscissa `x(settings)`, relative tip error
    /// against `oracle` (NaN where a run or the oracle failed), and its log–log slope.
    fn series(
        &self,
        sweep: Sweep,
        method: &str,
        x: &dyn Fn((usize, usize, f64)) -> f64,
        oracle: Option<[f64; 2]>,
    ) -> Series {
        let mut xs = vec![];
        let mut ys = vec![];
        for st in sweep_settings(sweep, self.tier, self.e) {
            let Some(m) = self.rest(method, self.n, st) else {
                continue;
            };
            xs.push(x(st));
            ys.push(match (tip(m), oracle) {
                (Some(t), Some(o)) => relative_error(t, o),
                _ => f64::NAN,
            });
        }
        let e = self.e;
        Series {
            label: format!("{method}, E = {e:.0e}"),
            youngs: e,
            method: method.into(),
            slope: log_log_slope(&xs, &ys),
            x: xs,
            y: ys,
        }
    }
}

/// Computes the derived figures.
pub fn analyse(tier: Tier, pts: &[Measured]) -> Analysis {
    let mut a = Analysis {
        iterations: vec![],
        substeps: vec![],
        small_steps: vec![],
        time_step: vec![],
        resolution: vec![],
        probe: vec![],
        xpbi: vec![],
        per_youngs: vec![],
    };
    for &e in &YOUNGS {
        let at = AtYoungs {
            tier,
            pts,
            e,
            n: solver_cells(tier),
        };
        let p1 = at.fem("stable-neo-hookean", 1, at.n).and_then(tip);
        let truth = at
            .fem("stable-neo-hookean", 2, truth_cells(tier))
            .and_then(tip);
        let hencky = at.fem("hencky", 2, truth_cells(tier)).and_then(tip);
        let mut per = PerYoungs {
            youngs: e,
            fem_p1_tip: p1,
            fem_truth_tip: truth,
            timoshenko: study_beam(e).timoshenko_tip_deflection(),
            probe_reduction: vec![],
            best_error: vec![],
            wall_per_step: vec![],
            verdict: String::new(),
        };
        for m in XPBD {
            analyse_solver_sweeps(&at, m.name(), p1, &mut a, &mut per);
        }
        analyse_resolution(&at, truth, &mut a);
        analyse_xpbi(&at, hencky, &mut a);
        per.verdict = verdict(&per, &a, e);
        a.per_youngs.push(per);
    }
    a
}

/// One XPBD method at one E: its iterations, substeps, small-steps and time-step sweeps against
/// FEM order 1 (`p1`), its residual probe, and its serial cost per substep-iteration.
fn analyse_solver_sweeps(
    at: &AtYoungs,
    name: &str,
    p1: Option<[f64; 2]>,
    a: &mut Analysis,
    per: &mut PerYoungs,
) {
    let e = at.e;
    let it = at.series(Sweep::Iterations, name, &|st| st.1 as f64, p1);
    per.best_error
        .push((name.into(), it.y.last().copied().filter(|v| v.is_finite())));
    a.iterations.push(it);
    a.substeps
        .push(at.series(Sweep::Substeps, name, &|st| st.2 / st.0 as f64, p1));
    a.small_steps
        .push(at.series(Sweep::SmallSteps, name, &|st| st.0 as f64, p1));
    let ts = at.series(Sweep::TimeStep, name, &|st| st.2, p1);
    if !ts.x.is_empty() {
        a.time_step.push(ts);
    }
    if let Some(pr) = at
        .pts
        .iter()
        .find(|x| x.point.kind == Kind::Probe && x.point.youngs == e && x.point.method == name)
    {
        let r0 = pr.probe_residuals.first().copied().unwrap_or(1.0);
        let x: Vec<f64> = (1..=pr.probe_residuals.len()).map(|k| k as f64).collect();
        let y: Vec<f64> = pr.probe_residuals.iter().map(|r| r / r0).collect();
        per.probe_reduction
            .push((name.into(), mean_reduction_factor(&pr.probe_residuals)));
        a.probe.push(Series {
            label: format!("{name}, E = {e:.0e}"),
            youngs: e,
            method: name.into(),
            x,
            y,
            slope: None,
        });
    }
    let s0 = base_substeps(e);
    let wps = at
        .rest(name, at.n, (s0, 1, DT))
        .and_then(|x| x.result.as_ref())
        .map(|r| r.wall_per_step / s0 as f64);
    per.wall_per_step.push((name.into(), wps));
}

/// The resolution series at one E against the order-2 truth: XPBD GS, FEM P1 and FEM P2.
fn analyse_resolution(at: &AtYoungs, truth: Option<[f64; 2]>, a: &mut Analysis) {
    let (e, tier) = (at.e, at.tier);
    let mut xs = vec![];
    let mut ys = vec![];
    for c in resolutions(tier) {
        if let Some(m) = at.rest("xpbd-gs", c, (resolution_substeps(e, c), 1, DT)) {
            xs.push(study_beam(e).length / c as f64);
            ys.push(match (tip(m), truth) {
                (Some(t), Some(o)) => relative_error(t, o),
                _ => f64::NAN,
            });
        }
    }
    a.resolution.push(Series {
        label: format!("XPBD GS (S = 1.6 S₀ N, I = 1), E = {e:.0e}"),
        youngs: e,
        method: "xpbd-gs".into(),
        slope: log_log_slope(&xs, &ys),
        x: xs,
        y: ys,
    });
    for order in [1u8, 2] {
        let mut xs = vec![];
        let mut ys = vec![];
        for c in resolutions(tier) {
            if order == 2 && c == truth_cells(tier) {
                continue;
            }
            if let (Some(t), Some(o)) =
                (at.fem("stable-neo-hookean", order, c).and_then(tip), truth)
            {
                xs.push(study_beam(e).length / c as f64);
                ys.push(relative_error(t, o));
            }
        }
        a.resolution.push(Series {
            label: format!("FEM P{order}, E = {e:.0e}"),
            youngs: e,
            method: format!("fem-p{order}"),
            slope: log_log_slope(&xs, &ys),
            x: xs,
            y: ys,
        });
    }
}

/// XPBI at one E against FEM Hencky order 2 (`hencky`): the tip error of each method at the
/// coarsest spacing, and the coloured method's resolution series (x = particle spacing).
fn analyse_xpbi(at: &AtYoungs, hencky: Option<[f64; 2]>, a: &mut Analysis) {
    let e = at.e;
    for m in [Method::XpbiColored, Method::XpbiJacobi] {
        if let Some(x) = at.xpbi(m, XPBI_RESOLUTIONS[0]) {
            let err = match (tip(x), hencky) {
                (Some(t), Some(o)) => Some(relative_error(t, o)),
                _ => None,
            };
            a.xpbi.push((m.name().into(), e, err));
        }
    }
    let (mut xs, mut ys) = (vec![], vec![]);
    for c in XPBI_RESOLUTIONS {
        if let (Some(x), Some(o)) = (at.xpbi(Method::XpbiColored, c), hencky) {
            xs.push(crate::beam::xpbi_spacing(&study_beam(e), c));
            ys.push(tip(x).map_or(f64::NAN, |t| relative_error(t, o)));
        }
    }
    if xs.len() >= 2 {
        a.resolution.push(Series {
            label: format!("XPBI coloured (Δx), E = {e:.0e}"),
            youngs: e,
            method: "xpbi-colored".into(),
            slope: log_log_slope(&xs, &ys),
            x: xs,
            y: ys,
        });
    }
}

fn verdict(per: &PerYoungs, a: &Analysis, e: f64) -> String {
    let get = |v: &[(String, Option<f64>)], m: &str| v.iter().find(|x| x.0 == m).and_then(|x| x.1);
    let gs = get(&per.best_error, "xpbd-gs");
    let jac = get(&per.best_error, "xpbd-jacobi");
    let rg = get(&per.probe_reduction, "xpbd-gs");
    let rj = get(&per.probe_reduction, "xpbd-jacobi");
    let failures = a
        .iterations
        .iter()
        .chain(&a.substeps)
        .filter(|s| s.youngs == e && s.method == "xpbd-jacobi")
        .flat_map(|s| s.y.iter())
        .filter(|y| !y.is_finite())
        .count();
    let fmt = |x: Option<f64>| x.map_or("n/a".to_string(), |v| format!("{v:.3}"));
    let fmt_e = |x: Option<f64>| x.map_or("failed".to_string(), |v| format!("{:.2} %", 100.0 * v));
    let judgement = match (gs, jac) {
        (Some(g), Some(j)) if j <= 0.02 && j <= 2.0 * g.max(1e-4) => {
            "Jacobi converges about as well as GS"
        }
        (Some(g), Some(j)) if j <= 0.05 || j < 5.0 * g.max(1e-3) => {
            "Jacobi converges, but slower than GS"
        }
        (Some(_), Some(_)) => "Jacobi fails to converge in the budget (error ≥ 5 % and ≥ 5× GS)",
        (Some(_), None) => "Jacobi fails (diverged or no result)",
        _ => "GS has no result",
    };
    format!(
        "{judgement}: at the largest iteration budget GS error {}, Jacobi {}; residual reduction per iteration GS {}, Jacobi {}; {failures} failed Jacobi runs",
        fmt_e(gs),
        fmt_e(jac),
        fmt(rg),
        fmt(rj)
    )
}
