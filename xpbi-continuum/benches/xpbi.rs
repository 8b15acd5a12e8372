//! Criterion benches of the XPBI performance figures (3D sand column):
//! `cargo bench -p xpbi-continuum --bench xpbi`.
//!
//! * `neighbour_search/N`: uniform grid + CSR neighbour lists (support 2Δx) on the column.
//! * `step/N/threads`: one whole XPBI step (10 coloured-GS iterations, Δt = 1e-4 s) of the column
//!   during its collapse (the state advances between samples, as in a real run).
//! * `iterations/N`: one step at 10 iterations minus one step at 1 iteration gives the
//!   per-iteration cost (reported by `run_sand_column_3d` / the xtask; here both are timed).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use xpbd_core::spatial::{NeighbourLists, UniformGrid};
use xpbi_validation::sand_column::{
    SandColumnConfig, sand_column_3d_positions, sand_column_3d_scene,
};

fn neighbour_search(c: &mut Criterion) {
    let mut g = c.benchmark_group("neighbour_search");
    g.sample_size(20);
    for n in [10_000usize, 100_000] {
        let (x, dx) = sand_column_3d_positions(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &x, |b, x| {
            b.iter(|| {
                let grid = UniformGrid::build(x, 2.0 * dx).unwrap();
                black_box(NeighbourLists::build(&grid, x, 2.0 * dx).unwrap().total())
            })
        });
    }
    g.finish();
}

fn step(c: &mut Criterion) {
    let mut g = c.benchmark_group("step");
    g.sample_size(10);
    for n in [10_000usize, 100_000] {
        for threads in [1usize, 2] {
            let mut config = SandColumnConfig::new(n);
            config.threads = threads;
            let mut scene = sand_column_3d_scene(&config).unwrap();
            g.bench_function(BenchmarkId::new(format!("{n}"), threads), |b| {
                b.iter(|| scene.step().unwrap())
            });
        }
    }
    g.finish();
}

fn iterations(c: &mut Criterion) {
    let mut g = c.benchmark_group("iterations");
    g.sample_size(10);
    let n = 10_000;
    for iterations in [1usize, 10] {
        let mut config = SandColumnConfig::new(n);
        config.iterations = iterations;
        let mut scene = sand_column_3d_scene(&config).unwrap();
        g.bench_function(BenchmarkId::new(format!("{n}"), iterations), |b| {
            b.iter(|| scene.step().unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, neighbour_search, step, iterations);
criterion_main!(benches);
