//! The slab sweep ([`SweepOrder::Slabs`]): conflict-free (the determinism contract), two
//! colours, bit-identical for any thread count, and the same physics as the cell sweep.

use nalgebra::{Vector2, Vector3};
use xpbd_core::constraint::ConstraintKind;
use xpbi_continuum::continuum::SweepOrder;
use xpbi_continuum::material::Material;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};

/// Colours of the continuum's schedule, after checking the schedule's contract: every
/// constraint once, no particle in two tasks of one colour.
fn checked_colours<const D: usize>(scene: &ContinuumScene<D>) -> usize {
    let c = scene.continuum();
    let s = c.own_schedule().expect("the continuum schedules itself");
    s.verify(scene.positions().len(), |k| c.stencil(k))
        .unwrap_or_else(|e| panic!("schedule conflict: {e}"));
    assert_eq!(s.order.len(), c.len(), "every constraint scheduled once");
    s.num_colours()
}

#[test]
fn slab_schedule_of_a_collapsing_3d_column_is_conflict_free_with_two_colours() {
    // A thin column, 5 × 5 × 40 cm at Δx = 6 mm (≈ 3.9k particles): 2.4 cm slabs, 17 up the
    // column.
    let dx = 0.006;
    let x = lattice_box(Vector3::zeros(), Vector3::new(0.05, 0.05, 0.4), dx);
    let column = |sweep| {
        let mut o = SceneOptions::new(dx);
        o.sweep = sweep;
        o.threads = 1;
        ContinuumScene::<3>::new(&x, Material::sand(), o).unwrap()
    };
    let mut scene = column(SweepOrder::Slabs);
    // Check the schedules of several steps while the column starts to move.
    for _ in 0..3 {
        for _ in 0..10 {
            scene.step().unwrap();
        }
        assert_eq!(checked_colours(&scene), 2);
    }
    // The cell sweep of the same scene: 3³ colours.
    let mut cells = column(SweepOrder::Cells);
    cells.step().unwrap();
    assert_eq!(checked_colours(&cells), 27);
}

#[test]
fn slabs_fall_back_to_cells_when_there_are_too_few() {
    // A 0.1 m cube at Δx = 1 cm: 5 cells of 2 cm across, 3 slabs of 2 layers (< 16).
    let dx = 0.01;
    let x = lattice_box(Vector3::zeros(), Vector3::new(0.1, 0.1, 0.1), dx);
    let mut o = SceneOptions::new(dx);
    o.sweep = SweepOrder::Slabs;
    o.threads = 1;
    let mut s = ContinuumScene::<3>::new(&x, Material::sand(), o).unwrap();
    s.step().unwrap();
    assert_eq!(checked_colours(&s), 27);
}

/// A 2D sand column, 0.1 × 0.4 m at Δx = 5 mm (20 slabs of 2 cm): 200 steps.
fn column_2d(sweep: SweepOrder, threads: usize) -> (Vec<Vector2<f64>>, usize) {
    let dx = 0.005;
    let x = lattice_box(Vector2::new(-0.05, 0.0), Vector2::new(0.05, 0.4), dx);
    let mut o = SceneOptions::new(dx);
    o.sweep = sweep;
    o.threads = threads;
    let mut s = ContinuumScene::<2>::new(&x, Material::sand(), o).unwrap();
    for _ in 0..200 {
        s.step().unwrap();
    }
    let colours = checked_colours(&s);
    (s.positions().to_vec(), colours)
}

#[test]
fn slab_sweep_is_bit_identical_for_1_2_and_3_threads() {
    let (one, colours) = column_2d(SweepOrder::Slabs, 1);
    assert_eq!(colours, 2, "the column is tall enough for slabs");
    assert_eq!(one, column_2d(SweepOrder::Slabs, 2).0);
    assert_eq!(one, column_2d(SweepOrder::Slabs, 3).0);
}

/// Static sag of an elastic block (0.1 m wide, 0.4 m tall, Δx = 5 mm, E = 1e5 Pa, ν = 0.3,
/// frictionless ground, damped to rest): the converged static state does not depend on the
/// order in which the constraints are projected, so both sweeps give the same sag up to the
/// iteration error of 10 iterations on an 80-particle-tall block (measured: 6.819e-3 vs
/// 6.830e-3 m, 0.15 %; a 0.2 m block agreed to 2e-5). Bound 1 %, half of the
/// Δt/iteration tolerance.
#[test]
fn slab_and_cell_sweeps_give_the_same_static_sag() {
    let sag = |sweep| {
        let dx = 0.005;
        let x = lattice_box(Vector2::new(0.0, 0.0), Vector2::new(0.1, 0.4), dx);
        let mut o = SceneOptions::new(dx);
        o.dt = 5e-4;
        o.sweep = sweep;
        o.ground_friction = 0.0;
        o.velocity_damping = 20.0;
        o.threads = 1;
        let mut s = ContinuumScene::<2>::new(&x, Material::elastic(1000.0, 1e5, 0.3), o).unwrap();
        s.run_until(0.4).unwrap();
        let colours = checked_colours(&s);
        let top: Vec<usize> = (0..x.len()).filter(|&i| x[i][1] > 0.4 - dx).collect();
        let sag = top
            .iter()
            .map(|&i| x[i][1] - s.positions()[i][1])
            .sum::<f64>()
            / top.len() as f64;
        (sag, colours)
    };
    let (slabs, slab_colours) = sag(SweepOrder::Slabs);
    let (cells, cell_colours) = sag(SweepOrder::Cells);
    println!("sag: slabs {slabs:.5e} m, cells {cells:.5e} m");
    assert_eq!((slab_colours, cell_colours), (2, 9));
    // ρ g H² (1 − ν²) / (2E) = 7.1e-3 m: the block really sags.
    assert!(cells > 4e-3, "sag {cells}");
    assert!(
        (slabs - cells).abs() < 1e-2 * cells,
        "slabs {slabs} vs cells {cells}"
    );
}
