//! Same input, same output, whatever the thread count.

use xpbd_core::builders::ClothGrid;
use xpbd_core::prelude::*;
use xpbd_core::schedule::{Colouring, Schedule};

fn cloth_trajectory(solver: SolverKind, threads: usize) -> Vec<Vec<Vector<3>>> {
    cloth_trajectory_with(solver, threads, Colouring::default())
}

fn cloth_trajectory_with(
    solver: SolverKind,
    threads: usize,
    colouring: Colouring,
) -> Vec<Vec<Vector<3>>> {
    // 64×64: each colour holds several 512-constraint tasks, so threads really interleave.
    let cloth = ClothGrid::<3> {
        nx: 64,
        ny: 64,
        stretch_compliance: 1e-6,
        pinned: vec![(0, 63), (63, 63)],
        ..ClothGrid::default()
    }
    .build()
    .unwrap();
    let bending = cloth.dihedral_bending(1e-4).unwrap();
    let settings = SolverSettings {
        solver,
        threads,
        substeps: 4,
        colouring,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(cloth.particles.clone(), settings).unwrap();
    sim.add_constraints(cloth.stretch.clone()).unwrap();
    sim.add_constraints(bending).unwrap();
    (0..20)
        .map(|_| {
            sim.step(1.0 / 60.0).unwrap();
            sim.particles().x.clone()
        })
        .collect()
}

#[test]
fn coloured_gauss_seidel_is_bit_identical_for_1_2_and_8_threads() {
    for colouring in [Colouring::Blocks, Colouring::Constraints] {
        let one = cloth_trajectory_with(SolverKind::Coloured, 1, colouring);
        for threads in [2, 8] {
            let many = cloth_trajectory_with(SolverKind::Coloured, threads, colouring);
            assert!(
                one == many,
                "coloured GS ({colouring:?}) with {threads} threads differs from 1 thread"
            );
        }
        // And the cloth actually moved (the comparison is not between two static states).
        assert!((one[19][0] - one[0][0]).norm() > 1e-2);
    }
}

#[test]
fn both_colourings_converge_to_the_same_static_sag() {
    // Different projection orders, one physics: after 3 s of a damped hanging cloth the two
    // schedules agree to the solver's convergence, not bit for bit.
    let sag = |colouring: Colouring| {
        let cloth = ClothGrid::<3> {
            nx: 24,
            ny: 24,
            stretch_compliance: 1e-5,
            pinned: vec![(0, 23), (23, 23)],
            ..ClothGrid::default()
        }
        .build()
        .unwrap();
        let settings = SolverSettings {
            colouring,
            substeps: 20,
            velocity_damping: 2.0,
            ..SolverSettings::default()
        };
        let mut sim = Simulation::new(cloth.particles.clone(), settings).unwrap();
        sim.add_constraints(cloth.stretch.clone()).unwrap();
        let colours = sim.blocks()[0].num_colours();
        for _ in 0..180 {
            sim.step(1.0 / 60.0).unwrap();
        }
        let low = sim
            .particles()
            .x
            .iter()
            .map(|x| x.z)
            .fold(f64::INFINITY, f64::min);
        (low, colours)
    };
    let (blocks, blocks_colours) = sag(Colouring::Blocks);
    let (constraints, constraint_colours) = sag(Colouring::Constraints);
    assert_eq!(
        blocks_colours, 2,
        "the grid's bandwidth allows the block schedule"
    );
    assert!(constraint_colours >= 8, "{constraint_colours} colours");
    assert!(blocks < -0.5, "the cloth hangs: lowest z {blocks}");
    assert!(
        (blocks - constraints).abs() < 1e-3 * blocks.abs(),
        "static sag {blocks} (blocks) vs {constraints} (constraints)"
    );
}

#[test]
fn jacobi_is_bit_identical_for_1_and_8_threads() {
    let one = cloth_trajectory(SolverKind::JACOBI, 1);
    let many = cloth_trajectory(SolverKind::JACOBI, 8);
    assert!(one == many);
}

#[test]
fn cloth_colouring_is_conflict_free() {
    let cloth = ClothGrid::<3> {
        nx: 32,
        ny: 32,
        ..ClothGrid::default()
    }
    .build()
    .unwrap();
    let pairs = &cloth.stretch.pairs;
    let s = Schedule::greedy(pairs.len(), cloth.particles.len(), |c| &pairs[c], 64);
    s.verify(cloth.particles.len(), |c| &pairs[c]).unwrap();
    // Each particle has at most 8 structural + shear neighbours, so a greedy colouring needs
    // at most 2·(8 − 1) + 1 = 15 colours; on a grid it finds far fewer.
    assert!(s.num_colours() <= 15, "{} colours", s.num_colours());
}
