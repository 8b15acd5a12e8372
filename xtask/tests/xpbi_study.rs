//! The XPBI points of the convergence study are meaningful: stable step sizes, an oracle that
//! exists, and (heavy, ignored) a beam that stays up and converges with resolution.

use xpbd_core::cantilever::Cantilever;
use xtask::beam::{Method, RunOptions, run, xpbi_max_substep};
use xtask::study::{Kind, Tier, XPBI_RESOLUTIONS, plan, relative_error, study_beam};

/// Every XPBI point of the full tier runs at a substep within the measured stability bound
/// (`h ≤ 0.7Δx/c` and the kinematic CFL), none at E = 1e4 (no Hencky equilibrium), and the
/// resolution series has its two resolutions at one E with 4 and 8 particles through H.
#[test]
fn xpbi_points_respect_the_stability_bounds() {
    let pts = plan(Tier::Full);
    let xpbi: Vec<_> = pts.iter().filter(|p| p.kind == Kind::Xpbi).collect();
    assert!(!xpbi.is_empty());
    for p in &xpbi {
        assert!(p.youngs >= 1e5, "XPBI point at E = {}", p.youngs);
        let h = p.dt / p.substeps as f64;
        let bound = xpbi_max_substep(&study_beam(p.youngs), p.cells);
        assert!(
            h <= bound,
            "E {} cells {}: h {h} > {bound}",
            p.youngs,
            p.cells
        );
        // Not needlessly small either: within a factor 2 (power-of-two substeps).
        assert!(
            2.0 * h > bound,
            "E {} cells {}: h {h} ≪ {bound}",
            p.youngs,
            p.cells
        );
    }
    let fine: Vec<_> = xpbi
        .iter()
        .filter(|p| p.cells == XPBI_RESOLUTIONS[1])
        .collect();
    assert_eq!(fine.len(), 1);
    assert!(xpbi.iter().any(|p| p.youngs == fine[0].youngs
        && p.cells == XPBI_RESOLUTIONS[0]
        && p.method == fine[0].method));
    let beam = study_beam(1e5);
    let dx = |c| xtask::beam::xpbi_spacing(&beam, c);
    assert!((dx(XPBI_RESOLUTIONS[0]) - beam.height / 4.0).abs() < 1e-12);
    assert!((dx(XPBI_RESOLUTIONS[1]) - beam.height / 8.0).abs() < 1e-12);
}

fn xpbi(beam: &Cantilever, cells: usize) -> [f64; 2] {
    let opts = RunOptions {
        cells,
        substeps: xtask::study::xpbi_substeps(beam.youngs, cells),
        iterations: 10,
        ..RunOptions::default()
    };
    let r = run(beam, Method::XpbiColored, &opts).unwrap();
    assert_eq!(r.at_rest, Some(true), "XPBI beam did not come to rest");
    [r.tip_displacement_x, r.tip_displacement_z]
}

fn fem_hencky(beam: &Cantilever, cells: usize) -> [f64; 2] {
    let opts = RunOptions {
        material: xpbd_fem_reference::MaterialKind::Hencky,
        order: 2,
        cells,
        ..RunOptions::default()
    };
    let r = run(beam, Method::Fem, &opts).unwrap();
    [r.tip_displacement_x, r.tip_displacement_z]
}

/// Small deflection (E = 1e7 Pa, tip ≈ 1.9 % of L) and moderate deflection (E = 1e6 Pa), 5
/// cells (4 particles through the height), against FEM Hencky order 2 (10 cells): the beam
/// comes to rest (before the Lagrangian-kernel fix it tore off at E = 1e6: tip −1.0 m against
/// −0.092 m) and is too soft by the one-sided surface-gradient error, measured 48.8 % (E = 1e7)
/// and 46.5 % (E = 1e6); asserted within [35 %, 60 %], the band of that O(Δx/H) error at 4
/// particles (2D plane strain gives +48 %, `xpbi-continuum` test `cantilever`).
///
/// Heavy (≈ 1 minute in release): `cargo test -p xtask --release --test xpbi_study -- --ignored`.
#[test]
#[ignore = "≈ 1 min in release: cargo test -p xtask --release --test xpbi_study -- --ignored"]
fn xpbi_cantilever_stays_up_and_is_within_its_discretisation_error() {
    for e in [1e7, 1e6] {
        let beam = study_beam(e);
        let fem = fem_hencky(&beam, 10);
        let tip = xpbi(&beam, 5);
        let err = relative_error(tip, fem);
        println!("E {e:e}: XPBI {tip:?} FEM Hencky P2 {fem:?} error {err:.4}");
        assert!(tip[1] < 0.0 && tip[1] > 2.0 * fem[1], "E {e}: tip {tip:?}");
        assert!((0.35..0.60).contains(&err), "E {e}: error {err}");
    }
}
