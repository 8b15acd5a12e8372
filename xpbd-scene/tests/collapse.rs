//! Time-step refinement of the granular column collapse (`scenes/sand_collapse_3d.toml`): with
//! XSPH as a rate (`xpbi_continuum::xsph`) and adaptive steps below the CFL bound, the deposit
//! does not change when the step is halved. The heavy test runs the scene as written
//! (Δx = 5 mm, 1.2 s); the quick one a coarse copy (Δx = 1 cm), where the per-step XSPH of the
//! paper is also run to show that the test can fail: the same refinement then moves the deposit.

use std::path::Path;

use xpbd_core::Vector;
use xpbd_scene::{SceneDesc, build_scene};
use xpbi_continuum::plasticity::{FrictionCone, PlasticModel};
use xpbi_continuum::xsph::Xsph;
use xpbi_validation::observables::{percentile, pile_observables};

/// Runout (99th percentile of the radius, relative to r₀), height (99th percentile of z) and the
/// nearest-neighbour mean over Δx of the deposit. At Δx = 1 cm the column is five particles
/// across its radius: too coarse for the toe of `xpbi_validation::observables::Deposit`, so the
/// quick tests read the runout at the 95th percentile, which many particles set.
#[derive(Debug, Clone, Copy)]
struct Deposit {
    runout: f64,
    /// The runout at the 95th percentile of the radius (the 158th outermost particle of 3160).
    runout95: f64,
    height: f64,
    nn_mean: f64,
    steps: usize,
}

fn collapse(spacing: f64, dt_max: f64, seconds: f64, xsph: Option<Xsph>) -> Deposit {
    collapse_on(spacing, dt_max, seconds, xsph, None, None)
}

/// [`collapse`] on a ground of Coulomb coefficient `friction` (absent: the scene's, μ = 0.6).
fn collapse_on(
    spacing: f64,
    dt_max: f64,
    seconds: f64,
    xsph: Option<Xsph>,
    friction: Option<f64>,
    cone: Option<FrictionCone>,
) -> Deposit {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes/sand_collapse_3d.toml");
    let mut scene = SceneDesc::load(&path).unwrap();
    scene.time.dt_max = Some(dt_max);
    scene.time.frames = (seconds / scene.time.dt).round() as usize;
    scene.continuum[0].spacing = spacing;
    scene.contacts.as_mut().unwrap().radius = 0.5 * spacing;
    if let Some(mu) = friction {
        scene.collider.iter_mut().for_each(|c| c.friction = mu);
    }
    if let Some(cone) = cone {
        for m in scene.materials.values_mut() {
            if let Some(PlasticModel::DruckerPrager(dp)) = &mut m.plasticity {
                dp.cone = cone;
            }
        }
    }
    match xsph {
        Some(Xsph::PerStep(c)) => scene.continuum[0].xpbi.xsph = Some(c),
        Some(Xsph::Rate(k)) => scene.continuum[0].xpbi.xsph_rate = Some(k),
        None => {}
    }
    let mut s = build_scene(scene, &path).unwrap();
    for _ in 0..s.scene.time.frames {
        s.advance_frame().unwrap();
    }
    let x = &s.sim.particles().x;
    let r: Vec<f64> = x.iter().map(|p| p.xy().norm()).collect();
    let ob = pile_observables(x, &Vector::<3>::zeros(), spacing);
    let d = Deposit {
        runout: (percentile(&r, 99.0) - 0.05) / 0.05,
        runout95: (percentile(&r, 95.0) - 0.05) / 0.05,
        height: ob.height,
        nn_mean: ob.nn_mean,
        steps: s.steps.steps,
    };
    eprintln!(
        "Δx = {spacing}, Δt_max = {dt_max:.3e}, xsph = {xsph:?}: {d:?} (steps {:?})",
        s.steps
    );
    d
}

fn change(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// On the shear-flow cone: the test is about the form of XSPH, and five particles across the
/// radius are too few for the default pyramid's front (its r₉₅ moves 10 % here, rate form or
/// not; 0.15 % at the scene's Δx = 5 mm between 2.5e-4 and 1.25e-4 s, `cargo xtask collapse`).
#[test]
fn coarse_collapse_deposit_does_not_move_when_the_step_halves() {
    let (dx, t) = (0.01, 0.5);
    let cone = Some(FrictionCone::ShearFlow);
    let collapse = |dt, xsph| collapse_on(dx, dt, t, xsph, None, cone);
    let coarse = collapse(5e-4, None);
    let fine = collapse(2.5e-4, None);
    assert!(fine.steps >= 2 * coarse.steps - 2);
    let (dr, dh) = (
        change(coarse.runout95, fine.runout95),
        change(coarse.height, fine.height),
    );
    eprintln!("rate form: runout (r₉₅) change {dr:.4}, height change {dh:.4}");
    // The paper's per-step coefficient at the same two steps: 2× the smoothing per unit time
    // at the finer step, and the deposit moves.
    let coarse_p = collapse(5e-4, Some(Xsph::PerStep(0.05)));
    let fine_p = collapse(2.5e-4, Some(Xsph::PerStep(0.05)));
    let dr_p = change(coarse_p.runout95, fine_p.runout95);
    eprintln!("per-step form: runout change {dr_p:.4}");
    assert!(dr < 0.03 && dh < 0.03, "rate form moved: {dr} / {dh}");
    assert!(
        dr_p > 2.0 * dr,
        "per-step XSPH should depend on the step: {dr_p} vs {dr}"
    );
}

/// Base friction: once the ground is rougher than the sand (μ above tan φ = tan 32° = 0.62, the
/// friction of the sand's flowing layers), the grains at the base stick and the flow shears
/// inside the material, so the deposit no longer depends on μ (as laboratory collapses on rough
/// bases show). Below tan φ the base slides and the runout grows, which is physical. Measured at
/// Δx = 1 cm, 0.8 s, on the shear-flow cone: r₉₅ runout 0.541 / 0.537 / 0.846 for μ = 1 / 2 / 0.2 (height 0.14 %
/// between μ = 1 and 2).
#[test]
fn deposit_does_not_depend_on_base_friction_above_the_sand_s_own() {
    let (dx, t) = (0.01, 0.8);
    let rough = collapse_on(dx, 2.5e-4, t, None, Some(1.0), None);
    let rougher = collapse_on(dx, 2.5e-4, t, None, Some(2.0), None);
    let slippery = collapse_on(dx, 2.5e-4, t, None, Some(0.2), None);
    let (dr, dh) = (
        change(rough.runout95, rougher.runout95),
        change(rough.height, rougher.height),
    );
    eprintln!("μ = 1 vs 2: runout (r₉₅) {dr:.4}, height {dh:.4}");
    assert!(
        dr < 0.01 && dh < 0.01,
        "μ = 1 vs 2: runout {dr}, height {dh}"
    );
    // Below tan φ the base slides: the same measure then sees the friction.
    assert!(
        slippery.runout95 > 1.1 * rough.runout95,
        "μ = 0.2 runout {} vs μ = 1 {}",
        slippery.runout95,
        rough.runout95
    );
}

/// Δx = 5 mm, steps of at most 2.5e-4, 1.25e-4 and 6.25e-5 s (figures measured with Klár's
/// triaxial-compression cone, before the shear-flow cone became the default; the same Δt pair
/// with the shear-flow cone is in the report's collapse section). Measured with κ = 100 s⁻¹: runout
/// 0.663 / 0.637 / 0.669, height 0.03402 / 0.03391 / 0.03403 m, NN mean 0.9165 / 0.9142 / 0.9171
/// Δx; with the default κ (`cargo xtask collapse --dt-max DT`): runout 0.652 / 0.633 / 0.672,
/// height / h₀ 0.680 / 0.678 / 0.681 (spread 6.2 %, the finest 2.9 % from the default). The height
/// and the packing change by 0.3 % per halving; the runout (the 99th percentile of the radius,
/// the 32nd outermost of 3160 particles) changes by 4.1 % and then 4.9 % *the other way*: the
/// scatter of a chaotic flow front, not an O(Δt) error, which would halve with each halving
/// (with the paper's per-step XSPH the runout fell 20 % from Δt = 2.5e-4 to 1e-4 s). The test
/// asserts both facts: the bulk of the deposit converged, the front within its scatter band.
/// Read at the 95th percentile, a position set by many particles, the runout converges: 0.5445
/// / 0.5341 / 0.5295 at 5e-4 / 2.5e-4 / 1.25e-4 s (`cargo xtask collapse --dt-max DT`), changes
/// of 1.9 % and 0.86 % (first order), so the change from the default step to half of it is
/// asserted below 2 %.
#[test]
#[ignore = "≈15 min in release on 2 cores; run with `cargo test --release -p xpbd-scene --test collapse -- --ignored --nocapture`"]
fn collapse_deposit_converges_in_dt_at_the_default_step() {
    let (dx, t) = (0.005, 1.2);
    let a = collapse(dx, 2.5e-4, t, None);
    let b = collapse(dx, 1.25e-4, t, None);
    let c = collapse(dx, 6.25e-5, t, None);
    let (d1, d2) = (change(a.runout, b.runout), change(b.runout, c.runout));
    eprintln!(
        "runout {:.4} / {:.4} / {:.4}: changes {d1:.4}, {d2:.4}",
        a.runout, b.runout, c.runout
    );
    for (x, y) in [(a, b), (b, c)] {
        assert!(change(x.height, y.height) < 0.02, "height {x:?} vs {y:?}");
        assert!(
            change(x.nn_mean, y.nn_mean) < 0.02,
            "packing {x:?} vs {y:?}"
        );
    }
    assert!(
        change(a.runout95, b.runout95) < 0.02,
        "runout at r₉₅ {} → {} from Δt = 2.5e-4 to 1.25e-4 s",
        a.runout95,
        b.runout95
    );
    let runouts = [a.runout, b.runout, c.runout];
    let (lo, hi) = runouts
        .iter()
        .fold((f64::INFINITY, 0.0_f64), |(l, h), &r| (l.min(r), h.max(r)));
    assert!((hi - lo) / lo < 0.08, "runout spread {runouts:?}");
    // No trend left: the finest step is not further from the coarsest than the scatter band.
    assert!(
        change(a.runout, c.runout) < 0.04,
        "runout drifts with Δt: {runouts:?}"
    );
}
