//! The reference cloth benchmark (see `xpbd_core::builders::cloth::benchmark_cloth`):
//! one 1/60 s frame (10 substeps × 1 iteration) per iteration of the measurement.
//! `cargo xtask bench cloth` runs the full 120-frame protocol and prints JSON.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use xpbd_core::SolverKind;
use xpbd_core::builders::cloth::benchmark_cloth;

fn cloth(c: &mut Criterion) {
    let mut group = c.benchmark_group("cloth_frame");
    group.sample_size(20);
    for n in [32, 64, 128] {
        for (solver, threads) in [
            (SolverKind::GaussSeidel, 1),
            (SolverKind::JACOBI, 1),
            (SolverKind::Coloured, 1),
            (SolverKind::Coloured, 2),
        ] {
            let mut sim = benchmark_cloth(n, solver, threads).unwrap();
            // Let the cloth start falling so contacts between colours are realistic.
            for _ in 0..10 {
                sim.step(1.0 / 60.0).unwrap();
            }
            let id = BenchmarkId::new(format!("{}_t{threads}", solver.short_name()), n);
            group.bench_function(id, |b| b.iter(|| sim.step(1.0 / 60.0).map(|_| ()).unwrap()));
        }
    }
    group.finish();
}

criterion_group!(benches, cloth);
criterion_main!(benches);
