//! The GPU neighbour grid (XPBI's first stage) against xpbd-core's `UniformGrid` and
//! `NeighbourLists`, entry for entry.
//!
//! Exactness argument: positions are multiples of 2⁻⁶ in [0, 2), so f32 holds them exactly,
//! `(x − origin)/cell` with a power-of-two cell is exact in both precisions, and squared
//! distances (< 12, multiples of 2⁻¹²) need at most 16 significant bits: exact in f32 too.
//! The squared radius lies halfway between two multiples of 2⁻¹², so no pair is a tie.
//! Then the CPU (f64) and GPU (f32) make identical decisions and must produce identical
//! arrays; any difference is a bug, not rounding.

use nalgebra::Vector3;
use xpbd_core::spatial::{NeighbourLists, UniformGrid};
use xpbd_gpu::context_for_test;
use xpbd_gpu::testing::neighbours;

/// Deterministic pseudo-random positions on the 2⁻⁶ lattice in [0, 2)³ (xorshift).
fn lattice_points(n: usize, seed: u64) -> Vec<Vector3<f64>> {
    let mut s = seed;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % 128) as f64 / 64.0
    };
    (0..n)
        .map(|_| Vector3::new(next(), next(), next()))
        .collect()
}

#[test]
fn gpu_grid_and_neighbour_lists_equal_the_cpu_ones() {
    let Some(ctx) = context_for_test("grid").unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    // r² = (150 + ½)/4096 (halfway between lattice values), r ≈ 0.1917; cell 0.25 ≥ r.
    let radius = ((150.5f64) / 4096.0).sqrt();
    for (n, seed, cell) in [(1000, 7, 0.25), (3000, 11, 0.125), (1, 3, 0.25)] {
        let x = lattice_points(n, seed);
        let cpu_grid = UniformGrid::build(&x, cell).unwrap();
        let cpu_nb = NeighbourLists::build(&cpu_grid, &x, radius).unwrap();
        let gpu = neighbours(&ctx, &x, cell, radius).unwrap();
        assert_eq!(gpu.dims, cpu_grid.dims(), "n = {n}");
        assert_eq!(gpu.cell_of, cpu_grid.cell_of_particles(), "n = {n}");
        assert_eq!(gpu.sorted, cpu_grid.sorted_particles(), "n = {n}");
        for c in 0..cpu_grid.cell_count() {
            let (a, b) = (gpu.cell_start[c] as usize, gpu.cell_start[c + 1] as usize);
            assert_eq!(&gpu.sorted[a..b], cpu_grid.cell_particles(c), "cell {c}");
        }
        assert_eq!(gpu.offsets, cpu_nb.offsets(), "n = {n}");
        assert_eq!(gpu.indices, cpu_nb.indices(), "n = {n}");
        // Not vacuous: particles do have neighbours (about 27 on average for n = 3000).
        if n > 1 {
            assert!(cpu_nb.total() > n, "n = {n}: {} pairs", cpu_nb.total());
        }
    }
}

#[test]
fn gpu_grid_rejects_bad_input() {
    let Some(ctx) = context_for_test("grid errors").unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    let x = lattice_points(10, 5);
    assert!(neighbours(&ctx, &x, 0.0, 0.1).is_err());
    assert!(neighbours(&ctx, &x, 0.25, f64::NAN).is_err());
    let mut bad = x.clone();
    bad[3].y = f64::INFINITY;
    assert!(neighbours(&ctx, &bad, 0.25, 0.1).is_err());
}
