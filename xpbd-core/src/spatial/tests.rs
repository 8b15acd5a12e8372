//! Property tests of the grid, the neighbour lists and the colouring.

use nalgebra::SVector;
use proptest::prelude::*;

use super::grid::check_particle_count;
use super::*;

fn brute_force<const D: usize>(x: &[SVector<f64, D>], p: usize, r: f64) -> Vec<u32> {
    let mut v: Vec<u32> = (0..x.len())
        .filter(|&b| b != p && (x[b] - x[p]).norm() < r)
        .map(|b| b as u32)
        .collect();
    v.sort();
    v
}

fn points<const D: usize>(n: usize, seed: u64, extent: f64) -> Vec<SVector<f64, D>> {
    // SplitMix64: deterministic, dependency free.
    let mut s = seed;
    let mut next = move || {
        s = s.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| SVector::from_fn(|_, _| extent * next()))
        .collect()
}

/// Particles claimed by two different cells of one colour (stencil = `{p} ∪ N(p)`).
fn conflicts<const D: usize>(
    grid: &UniformGrid<D>,
    nl: &NeighbourLists,
    colouring: &CellColouring,
) -> usize {
    let mut conflicts = 0;
    for colour in colouring.colours() {
        let mut owner = vec![u32::MAX; grid.particle_count()];
        for &cell in colour {
            for &p in grid.cell_particles(cell as usize) {
                for &b in nl.neighbours(p as usize).iter().chain(std::iter::once(&p)) {
                    let o = &mut owner[b as usize];
                    if *o != u32::MAX && *o != cell {
                        conflicts += 1;
                    }
                    *o = cell;
                }
            }
        }
    }
    conflicts
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The CSR lists equal a brute-force O(n²) search, for any cell size (smaller or larger than
    /// the radius), in 2D and 3D.
    #[test]
    fn neighbour_lists_equal_brute_force(seed in any::<u64>(), n in 1usize..300, r in 0.02f64..0.3, cell_factor in 0.3f64..2.5) {
        let x2 = points::<2>(n, seed, 1.0);
        let g2 = UniformGrid::build(&x2, r * cell_factor).unwrap();
        let nl2 = NeighbourLists::build(&g2, &x2, r).unwrap();
        let x3 = points::<3>(n, seed ^ 7, 1.0);
        let g3 = UniformGrid::build(&x3, r * cell_factor).unwrap();
        let nl3 = NeighbourLists::build(&g3, &x3, r).unwrap();
        for p in 0..n {
            let mut a = nl2.neighbours(p).to_vec();
            a.sort();
            prop_assert_eq!(a, brute_force(&x2, p, r));
            let mut b = nl3.neighbours(p).to_vec();
            b.sort();
            prop_assert_eq!(b, brute_force(&x3, p, r));
        }
    }

    /// The query over the grid's own copy of the positions visits the same particles in the
    /// same order as the query over the array, for any cell size and for points inside and
    /// outside the grid's box, in 1D, 2D and 3D.
    #[test]
    fn near_query_visits_what_the_array_query_visits(seed in any::<u64>(), n in 1usize..300, r in 0.02f64..0.3, cell_factor in 0.3f64..2.5) {
        fn check<const D: usize>(n: usize, seed: u64, r: f64, cell: f64) -> Result<(), TestCaseError> {
            let x = points::<D>(n, seed, 1.0);
            let grid = UniformGrid::build(&x, cell).unwrap();
            let probes = points::<D>(40, seed ^ 11, 1.6).into_iter().map(|p| p.add_scalar(-0.3));
            for q in x.iter().copied().chain(probes) {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                grid.for_each_within(&x, &q, r, |p| a.push(p));
                grid.for_each_near(&q, r, |p| b.push(p));
                prop_assert_eq!(a, b);
            }
            Ok(())
        }
        check::<1>(n, seed, r, r * cell_factor)?;
        check::<2>(n, seed, r, r * cell_factor)?;
        check::<3>(n, seed, r, r * cell_factor)?;
    }

    /// Counting sort: a permutation, cells non-decreasing, indices increasing inside each cell.
    #[test]
    fn counting_sort_is_stable_permutation(seed in any::<u64>(), n in 0usize..500, cell in 0.01f64..0.5) {
        let x = points::<3>(n, seed, 1.0);
        let g = UniformGrid::build(&x, cell).unwrap();
        let sorted = g.sorted_particles();
        let mut seen = vec![false; n];
        for &p in sorted { prop_assert!(!seen[p as usize]); seen[p as usize] = true; }
        for w in sorted.windows(2) {
            let (ca, cb) = (g.cell_of_particles()[w[0] as usize], g.cell_of_particles()[w[1] as usize]);
            prop_assert!(ca < cb || (ca == cb && w[0] < w[1]));
        }
        for (p, xp) in x.iter().enumerate() {
            let c = g.cell_coords(g.cell_of_particles()[p] as usize);
            for k in 0..3 {
                // Point lies in its cell (clamping only affects the upper boundary point).
                let lo = c[k] as f64 * cell;
                let rel = xp[k] - x.iter().map(|y| y[k]).fold(f64::INFINITY, f64::min);
                prop_assert!(rel >= lo - 1e-12 && (rel < lo + cell + 1e-12 || c[k] == g.dims()[k] - 1));
            }
        }
    }

    /// 3^d colours with cell = radius and 2^d colours with cell = 2 radius: no particle belongs to
    /// the stencils of two different tasks of the same colour.
    #[test]
    fn colouring_is_conflict_free(seed in any::<u64>(), n in 50usize..600, r in 0.05f64..0.2) {
        let x2 = points::<2>(n, seed, 1.0);
        let x3 = points::<3>(n, seed, 1.0);
        for scheme in [ColourScheme::ThreePerAxis, ColourScheme::TwoPerAxis] {
            let cell = scheme.min_cell_size(r);
            let g2 = UniformGrid::build(&x2, cell).unwrap();
            let nl2 = NeighbourLists::build(&g2, &x2, r).unwrap();
            let c2 = CellColouring::build(&g2, scheme, r).unwrap();
            prop_assert_eq!(conflicts(&g2, &nl2, &c2), 0);
            let g3 = UniformGrid::build(&x3, cell).unwrap();
            let nl3 = NeighbourLists::build(&g3, &x3, r).unwrap();
            let c3 = CellColouring::build(&g3, scheme, r).unwrap();
            prop_assert_eq!(conflicts(&g3, &nl3, &c3), 0);
            // Every occupied cell appears in exactly one colour.
            let tasks: usize = c3.colours().iter().map(Vec::len).sum();
            let occupied = (0..g3.cell_count()).filter(|&c| !g3.cell_particles(c).is_empty()).count();
            prop_assert_eq!(tasks, occupied);
        }
    }
}

/// The conflict check can fail: 2^d colours with cell = radius race on a dense lattice.
#[test]
fn two_colours_with_cell_equal_radius_conflict() {
    let h = 0.1;
    let x: Vec<SVector<f64, 2>> = (0..400)
        .map(|i| SVector::<f64, 2>::new((i % 20) as f64 * h, (i / 20) as f64 * h))
        .collect();
    let r = 2.0 * h;
    let g = UniformGrid::build(&x, r).unwrap();
    let nl = NeighbourLists::build(&g, &x, r).unwrap();
    let bad = CellColouring::build_unchecked(&g, ColourScheme::TwoPerAxis);
    assert!(conflicts(&g, &nl, &bad) > 0);
    assert!(matches!(
        CellColouring::build(&g, ColourScheme::TwoPerAxis, r),
        Err(GridError::ColouringTooFine {
            colours_per_axis: 2,
            ..
        })
    ));
}

/// Same lists and order for 1, 2 and 3 threads.
#[test]
fn neighbour_lists_independent_of_thread_count() {
    let x = points::<3>(5000, 42, 1.0);
    let build = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                let g = UniformGrid::build(&x, 0.06).unwrap();
                let nl = NeighbourLists::build(&g, &x, 0.06).unwrap();
                (
                    g.sorted_particles().to_vec(),
                    nl.offsets().to_vec(),
                    nl.indices().to_vec(),
                )
            })
    };
    let one = build(1);
    assert_eq!(one, build(2));
    assert_eq!(one, build(3));
}

#[test]
fn error_invalid_cell_size() {
    let x = vec![SVector::<f64, 2>::zeros()];
    assert_eq!(
        UniformGrid::build(&x, 0.0).unwrap_err(),
        GridError::InvalidCellSize { value: 0.0 }
    );
    assert!(matches!(
        UniformGrid::build(&x, f64::NAN),
        Err(GridError::InvalidCellSize { .. })
    ));
}

#[test]
fn error_invalid_radius() {
    let x = vec![SVector::<f64, 2>::zeros()];
    let g = UniformGrid::build(&x, 1.0).unwrap();
    assert_eq!(
        NeighbourLists::build(&g, &x, -1.0).unwrap_err(),
        GridError::InvalidRadius { value: -1.0 }
    );
    assert!(matches!(
        CellColouring::build(&g, ColourScheme::ThreePerAxis, f64::INFINITY),
        Err(GridError::InvalidRadius { .. })
    ));
}

#[test]
fn error_non_finite_position() {
    let x = vec![
        SVector::<f64, 3>::zeros(),
        SVector::<f64, 3>::new(0.0, f64::NAN, 0.0),
    ];
    assert_eq!(
        UniformGrid::build(&x, 1.0).unwrap_err(),
        GridError::NonFinitePosition { index: 1 }
    );
}

#[test]
fn error_domain_too_large() {
    let x = vec![
        SVector::<f64, 3>::zeros(),
        SVector::<f64, 3>::new(1e6, 1e6, 1e6),
    ];
    assert!(matches!(
        UniformGrid::build(&x, 1e-3),
        Err(GridError::DomainTooLarge { .. })
    ));
}

#[test]
fn error_too_many_particles() {
    assert!(check_particle_count(1000).is_ok());
    assert_eq!(
        check_particle_count(u32::MAX as usize).unwrap_err(),
        GridError::TooManyParticles {
            count: u32::MAX as usize
        }
    );
}

#[test]
fn error_colouring_too_fine() {
    let x = vec![SVector::<f64, 3>::zeros()];
    let g = UniformGrid::build(&x, 0.1).unwrap();
    let e = CellColouring::build(&g, ColourScheme::ThreePerAxis, 0.2).unwrap_err();
    assert!(matches!(
        e,
        GridError::ColouringTooFine {
            colours_per_axis: 3,
            ..
        }
    ));
}

#[test]
fn reorder_follows_sorted_order() {
    let x = points::<2>(100, 3, 1.0);
    let g = UniformGrid::build(&x, 0.1).unwrap();
    let r = g.reorder(&x);
    for (k, &p) in g.sorted_particles().iter().enumerate() {
        assert_eq!(r[k], x[p as usize]);
    }
}
