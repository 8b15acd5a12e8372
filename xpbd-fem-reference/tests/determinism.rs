//! Same input, same output, whatever the thread count: a nonlinear solve on a 1-thread and a
//! 2-thread rayon pool gives bitwise-identical displacements (element work is gathered in
//! element order and faer runs sequentially).

use xpbd_core::cantilever::Cantilever;
use xpbd_fem_reference::*;

fn solve() -> Vec<f64> {
    let beam = Cantilever {
        length: 1.0,
        width: 0.05,
        height: 0.05,
        youngs: 1e6,
        ..Cantilever::default()
    };
    let p = cantilever_problem_3d(&beam, MaterialKind::StableNeoHookean, 2, 12).unwrap();
    solve_static(
        &p,
        &StaticSettings {
            load_steps: 2,
            ..StaticSettings::default()
        },
    )
    .unwrap()
    .displacement
}

#[test]
fn thread_count_does_not_change_results() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(solve);
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(solve);
    assert!(one.iter().any(|v| v.abs() > 1e-3));
    assert!(
        one.iter()
            .zip(&two)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    );
}
