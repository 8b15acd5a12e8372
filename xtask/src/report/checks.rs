//! The key figures of a report and their baseline: which figures are checked, with which
//! tolerance (`--bless` writes them, `--check` compares a run with them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use xtask::study::Tier;

use super::Summary;

/// `xtask/baseline/<tier>.json`.
pub fn baseline_path(tier: Tier) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("baseline");
    root.join(match tier {
        Tier::Quick => "quick.json",
        Tier::Full => "full.json",
    })
}

/// A baseline entry. `upper`: only an increase beyond `value (1 + rel) + abs` is a regression
/// (errors); otherwise a change beyond `abs + rel |value|` either way is.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Tolerance {
    /// Baseline value.
    pub value: f64,
    /// Absolute tolerance.
    pub abs: f64,
    /// Relative tolerance.
    pub rel: f64,
    /// One-sided (errors may only get smaller).
    pub upper: bool,
}

/// Tolerances by figure family (stated in the report and in the baseline file).
///
/// * FEM tips are deterministic Newton solves: 1e-6 relative.
/// * XPBD errors are deterministic but depend on floating-point summation order across
///   platforms: they may not grow by more than 25 % plus 1e-4.
/// * Fitted orders ±0.3; residual reduction factors ±0.05.
/// * Scene errors may not leave their analytic band (chain 1e-6, incline 2 %).
/// * Sand observables ±10 % (uniformity figures ±0.05); bench max stretch ±10 %.
/// * Angle of repose slopes ±4° in both tiers: pouring is chaotic, but the 800-particle 2D
///   heap's flanks agree within ~2° (a 200-particle heap's differed by up to 32°, which is
///   why the quick tier no longer pours one);
///   snow relative differences ±0.1 (the splash is chaotic, see `xpbi_validation::snow`);
///   collapse runout ±0.05, its Δt-halving change at most 0.02 above the baseline; planar
///   collapse toe and height ±5 %, the toe's change under a halving at most 0.02 above.
/// * Timings are reported, never checked.
fn bless(k: &BTreeMap<String, f64>) -> BTreeMap<String, Tolerance> {
    k.iter()
        .map(|(name, &v)| {
            let t = if name.starts_with("fem.") {
                Tolerance {
                    value: v,
                    abs: 1e-9,
                    rel: 1e-6,
                    upper: false,
                }
            } else if name.starts_with("error.") {
                Tolerance {
                    value: v,
                    abs: 1e-4,
                    rel: 0.25,
                    upper: true,
                }
            } else if name.starts_with("order.") {
                Tolerance {
                    value: v,
                    abs: 0.3,
                    rel: 0.0,
                    upper: false,
                }
            } else if name.starts_with("reduction.") {
                Tolerance {
                    value: v,
                    abs: 0.05,
                    rel: 0.0,
                    upper: false,
                }
            } else if name == "chain.max_relative_error" {
                Tolerance {
                    value: v,
                    abs: 1e-6,
                    rel: 0.0,
                    upper: true,
                }
            } else if name.starts_with("incline.") {
                Tolerance {
                    value: v,
                    abs: 0.02,
                    rel: 0.0,
                    upper: true,
                }
            } else if name.starts_with("repose.slope") || name.starts_with("repose3d.slope") {
                Tolerance {
                    value: v,
                    abs: 4.0,
                    rel: 0.0,
                    upper: false,
                }
            } else if name == "collapse.halving_change" {
                // The Δt-halving change of the deposit may not grow past 2 % points more.
                Tolerance {
                    value: v,
                    abs: 0.02,
                    rel: 0.0,
                    upper: true,
                }
            } else if name.starts_with("collapse.") {
                Tolerance {
                    value: v,
                    abs: 0.05,
                    rel: 0.0,
                    upper: false,
                }
            } else if name.starts_with("planar.toe_change") {
                // The toe's change under the last halving may not grow past 2 % points more.
                Tolerance {
                    value: v,
                    abs: 0.02,
                    rel: 0.0,
                    upper: true,
                }
            } else if name.starts_with("planar.") {
                Tolerance {
                    value: v,
                    abs: 0.0,
                    rel: 0.05,
                    upper: false,
                }
            } else if name.starts_with("snow.") {
                Tolerance {
                    value: v,
                    abs: 0.1,
                    rel: 0.0,
                    upper: false,
                }
            } else if name.starts_with("sand.nn") || name.starts_with("uniformity.") {
                Tolerance {
                    value: v,
                    abs: 0.05,
                    rel: 0.0,
                    upper: false,
                }
            } else {
                Tolerance {
                    value: v,
                    abs: 1e-6,
                    rel: 0.1,
                    upper: false,
                }
            };
            (name.clone(), t)
        })
        .collect()
}

/// Failures of `now` against `base` (figures missing from `now` fail unless `partial`).
fn check(
    now: &BTreeMap<String, f64>,
    base: &BTreeMap<String, Tolerance>,
    partial: bool,
) -> Vec<String> {
    let mut out = vec![];
    for (name, t) in base {
        let Some(&v) = now.get(name) else {
            if !partial {
                out.push(format!("{name}: missing (baseline {})", t.value));
            }
            continue;
        };
        let bad = if !v.is_finite() {
            t.value.is_finite()
        } else if t.upper {
            v > t.value * (1.0 + t.rel) + t.abs
        } else {
            (v - t.value).abs() > t.abs + t.rel * t.value.abs()
        };
        if bad {
            out.push(format!(
                "{name}: {v:.6e} vs baseline {:.6e} (abs {:.1e}, rel {:.2}, {})",
                t.value,
                t.abs,
                t.rel,
                if t.upper { "upper bound" } else { "two-sided" }
            ));
        }
    }
    out
}

/// The key figures of a report (name → value), the ones `--check` compares.
pub fn key_figures(s: &Summary) -> BTreeMap<String, f64> {
    let mut k = BTreeMap::new();
    if let Some(a) = &s.convergence {
        for p in &a.per_youngs {
            let e = format!("{:.0e}", p.youngs);
            if let Some(t) = p.fem_p1_tip {
                k.insert(format!("fem.p1.tip_z.E{e}"), t[1]);
            }
            if let Some(t) = p.fem_truth_tip {
                k.insert(format!("fem.p2.tip_z.E{e}"), t[1]);
            }
            for (m, r) in &p.probe_reduction {
                if let Some(r) = r {
                    k.insert(format!("reduction.{m}.E{e}"), *r);
                }
            }
        }
        // The family by position, not by `contains`: a series holding a NaN (a diverged
        // point) is not equal to itself, and was filed under the other family.
        let families = (a.substeps.iter().map(|sr| ("substeps", sr)))
            .chain(a.iterations.iter().map(|sr| ("iterations", sr)));
        for (fam, sr) in families {
            let e = format!("{:.0e}", sr.youngs);
            if let Some(y) = sr.y.last().filter(|y| y.is_finite()) {
                k.insert(format!("error.{fam}.{}.E{e}", sr.method), *y);
            }
            if fam == "substeps"
                && sr.method == "xpbd-gs"
                && let Some(sl) = sr.slope
            {
                k.insert(format!("order.substeps.{}.E{e}", sr.method), sl);
            }
        }
    }
    if let Some(c) = &s.chain {
        k.insert("chain.max_relative_error".into(), c.max_relative_error);
    }
    for i in &s.incline {
        k.insert(format!("incline.error.{}deg", i.angle_degrees), i.error);
    }
    if let Some(sd) = &s.sand {
        k.insert("sand.nn_min_over_time".into(), sd.nn_min_over_time);
        k.insert("sand.nn_mean".into(), sd.nn_mean);
        k.insert("sand.nn_std".into(), sd.nn_std);
        k.insert("sand.runout".into(), sd.runout);
    }
    for r in &s.repose {
        let section = if r.dimension == 3 {
            "repose3d"
        } else {
            "repose"
        };
        k.insert(
            format!("{section}.slope.{}deg", r.friction_angle),
            r.slope_degrees,
        );
    }
    for u in &s.uniformity {
        let tag = format!("r{}", u.correction_radius);
        k.insert(format!("uniformity.{tag}.nn_min"), u.nn_min);
        k.insert(format!("uniformity.{tag}.nn_mean_low"), u.nn_mean_low);
        k.insert(format!("uniformity.{tag}.nn_std_max"), u.nn_std_max);
        k.insert(
            format!("uniformity.{tag}.interior_std_max"),
            u.interior_std_max,
        );
    }
    if let Some(p) = &s.planar {
        for c in &p.convergence {
            let (toe, height) = (c.toe[c.toe.len() - 1], c.height[c.height.len() - 1]);
            k.insert(format!("planar.toe.a{}", c.aspect), toe);
            k.insert(format!("planar.height.a{}", c.aspect), height);
            if c.toe_change.is_finite() {
                k.insert(format!("planar.toe_change.a{}", c.aspect), c.toe_change);
            }
        }
    }
    if let Some(c) = &s.collapse {
        k.insert("collapse.halving_change".into(), c.halving_change);
        k.insert("collapse.runout".into(), c.runs[2].runout);
    }
    if let Some(sn) = &s.snow {
        k.insert("snow.footprint_difference".into(), sn.footprint_difference);
        k.insert("snow.height_difference".into(), sn.height_difference);
    }
    for b in &s.bench {
        k.insert(
            format!("bench.max_stretch.{}.t{}", b.solver, b.threads),
            b.max_relative_stretch,
        );
    }
    k
}

/// `--bless`: writes `key` as the baseline at `path`; with `partial` (`--only`), the entries of
/// the old baseline that this run did not measure are kept.
pub fn bless_baseline(path: &Path, key: &BTreeMap<String, f64>, partial: bool) -> Result<()> {
    let mut b = bless(key);
    if partial {
        // One section re-blessed: keep the other sections' entries of the baseline.
        if let Ok(text) = std::fs::read_to_string(path) {
            let old: BTreeMap<String, Tolerance> = serde_json::from_str(&text)
                .with_context(|| format!("parsing {}", path.display()))?;
            for (k, t) in old {
                b.entry(k).or_insert(t);
            }
        }
    }
    std::fs::write(path, serde_json::to_string_pretty(&b)?)
        .with_context(|| format!("writing {}", path.display()))?;
    eprintln!("baseline written: {}", path.display());
    Ok(())
}

/// `--check`: compares `key` with the baseline at `path`; `Err` naming the count of
/// regressions (each printed) if any.
pub fn check_baseline(path: &Path, key: &BTreeMap<String, f64>, partial: bool) -> Result<()> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading baseline {}", path.display()))?;
    let b: BTreeMap<String, Tolerance> = serde_json::from_str(&text)?;
    let failures = check(key, &b, partial);
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("REGRESSION {f}");
        }
        bail!(
            "{} key figures regressed against {}",
            failures.len(),
            path.display()
        );
    }
    let compared = b.keys().filter(|k| key.contains_key(*k)).count();
    eprintln!(
        "check: {compared} of {} baseline key figures compared, all within tolerance ({})",
        b.len(),
        path.display()
    );
    Ok(())
}
