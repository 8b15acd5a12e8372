//! Same input, same output, whatever the thread count.

use xpbd_core::builders::ClothGrid;
use xpbd_core::constraint::SubstepContext;
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

/// A kind with dynamic topology whose substep hook records how many threads rayon offers it
/// (XPBI's neighbour search and frozen data run in such a hook, on parallel iterators).
#[derive(Debug)]
struct ThreadProbe {
    stencil: [u32; 2],
    seen: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl ConstraintKind<3> for ThreadProbe {
    const NAME: &'static str = "thread probe";
    fn len(&self) -> usize {
        1
    }
    fn stencil(&self, _c: usize) -> &[u32] {
        &self.stencil
    }
    fn compliance(&self, _c: usize) -> f64 {
        1.0
    }
    fn evaluate(&self, _c: usize, xs: &[Vector<3>], grad: &mut [Vector<3>]) -> f64 {
        let d = xs[0] - xs[1];
        let l = d.norm().max(1e-12);
        grad[0] = d / l;
        grad[1] = -d / l;
        l - 1.0
    }
    fn dynamic_topology(&self) -> bool {
        true
    }
    fn begin_substep(&mut self, _particles: &Particles<3>, _ctx: &SubstepContext) {
        self.seen.store(
            rayon::current_num_threads(),
            std::sync::atomic::Ordering::Relaxed,
        );
    }
}

#[test]
fn one_thread_means_one_thread_in_the_hooks_of_dynamic_blocks() {
    let seen = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut particles = Particles::<3>::new();
    particles.push(Vector::<3>::zeros(), 1.0);
    particles.push(Vector::<3>::new(1.0, 0.0, 0.0), 1.0);
    for (threads, expected) in [(1, 1), (2, 2)] {
        let settings = SolverSettings {
            threads,
            ..SolverSettings::default()
        };
        let mut sim = Simulation::new(particles.clone(), settings).unwrap();
        sim.add_constraints(ThreadProbe {
            stencil: [0, 1],
            seen: seen.clone(),
        })
        .unwrap();
        sim.step(1.0 / 60.0).unwrap();
        assert_eq!(
            seen.load(std::sync::atomic::Ordering::Relaxed),
            expected,
            "threads = {threads}"
        );
    }
}
