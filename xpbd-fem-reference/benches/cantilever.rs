//! Static nonlinear solve of a 3-D quadratic-tet cantilever (Hencky, self-weight with
//! K = qL³/EI = 2, i.e. a tip deflection of ~0.24 L) at about 30 000 and 150 000 DOFs:
//! time of one Newton iteration (internal force + stiffness assembly + sparse Cholesky solve)
//! and of the whole solve; peak resident memory (VmHWM) is printed after each size.
//!
//! `cargo bench -p xpbd-fem-reference -- --quick` runs the 30k size under criterion. The 150k
//! size runs only with `FEM_BENCH_LARGE=1`, as one timed Newton iteration (plus one whole solve
//! with `FEM_BENCH_LARGE_SOLVE=1`), because a single solve takes minutes on a 2-core machine.
//! The sparse Cholesky runs sequentially (determinism), so it dominates: ~85 % of an iteration.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use xpbd_core::cantilever::Cantilever;
use xpbd_core::mesh::TetMesh;
use xpbd_fem_reference::assembly::{System, internal_force, stiffness};
use xpbd_fem_reference::linear_solver::SparseSolver;
use xpbd_fem_reference::{
    MaterialKind, Problem, StaticSettings, cantilever_problem_3d_with_mesh, solve_static,
};

fn peak_memory_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kib| kib / 1024.0)
}

fn beam() -> Cantilever {
    let mut b = Cantilever {
        length: 1.0,
        width: 0.1,
        height: 0.1,
        poisson: 0.3,
        ..Cantilever::default()
    };
    b.youngs = b.weight_per_length() * b.length.powi(3) / (2.0 * b.second_moment());
    b
}

/// Quadratic tets on `cells` hexes: DOFs = 3 (2nx+1)(2ny+1)(2nz+1).
fn problem(cells: [usize; 3]) -> Problem<3> {
    let b = beam();
    let tets = TetMesh::box_beam([b.length, b.width, b.height], cells).expect("valid box");
    cantilever_problem_3d_with_mesh(&b, MaterialKind::Hencky, 2, tets).expect("valid problem")
}

/// One Newton iteration's work at `u = 0`: internal force, stiffness, Cholesky solve.
fn newton_iteration(
    p: &Problem<3>,
    system: &System,
    solver: &SparseSolver,
    u: &[f64],
    rhs: &[f64],
) -> usize {
    let g = internal_force(p, black_box(u));
    let k = stiffness(p, system, u, false);
    let d = solver.solve_cholesky(&k, rhs).expect("solve").expect("SPD");
    black_box(g.len() + d.len())
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("cantilever_p2_static");
    group.sample_size(10);
    {
        let (label, cells) = ("30k", [40, 5, 5]);
        let p = problem(cells);
        let system = System::new(&p).expect("clamped");
        let solver = SparseSolver::new(system.pattern.clone()).expect("pattern");
        let u = vec![0.0; p.dof_count()];
        let rhs = system.restrict(&p.external_force());
        let id = format!("{label} ({} dofs)", p.dof_count());
        group.bench_function(BenchmarkId::new("newton_iteration", &id), |bencher| {
            bencher.iter(|| newton_iteration(&p, &system, &solver, &u, &rhs))
        });
        group.bench_function(BenchmarkId::new("whole_solve", &id), |bencher| {
            bencher.iter(|| {
                let sol =
                    solve_static(black_box(&p), &StaticSettings::default()).expect("converges");
                black_box(sol.stats.iterations)
            })
        });
        report(&id, &p, &system);
    }
    group.finish();
    // The 150k case is too slow for criterion's 10 samples on a shared machine: one timed run.
    if std::env::var("FEM_BENCH_LARGE").is_ok_and(|v| v == "1") {
        let p = problem([84, 8, 8]);
        let system = System::new(&p).expect("clamped");
        let solver = SparseSolver::new(system.pattern.clone()).expect("pattern");
        let u = vec![0.0; p.dof_count()];
        let rhs = system.restrict(&p.external_force());
        let start = std::time::Instant::now();
        newton_iteration(&p, &system, &solver, &u, &rhs);
        let id = format!("150k ({} dofs)", p.dof_count());
        println!(
            "{id}: one Newton iteration {:.2} s (single run), peak memory (VmHWM) {:.0} MiB",
            start.elapsed().as_secs_f64(),
            peak_memory_mib()
        );
        if std::env::var("FEM_BENCH_LARGE_SOLVE").is_ok_and(|v| v == "1") {
            report(&id, &p, &system);
        }
    }
}

fn report(id: &str, p: &Problem<3>, system: &System) {
    let sol = solve_static(p, &StaticSettings::default()).expect("converges");
    println!(
        "{id}: free dofs {}, stiffness nnz {}, Newton iterations {}, whole solve {:.2} s ({:.2} s per iteration), peak memory (VmHWM) {:.0} MiB",
        system.free_count,
        system.pattern.row_idx.len(),
        sol.stats.iterations,
        sol.seconds,
        sol.seconds / sol.stats.iterations.max(1) as f64,
        peak_memory_mib()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
