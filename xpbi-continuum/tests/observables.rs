//! Measurements used by the validation scenes: nearest-neighbour statistics and heap slopes.

use nalgebra::Vector2;
use xpbi_continuum::scene::lattice_box;
use xpbi_validation::observables::nn_statistics_split;
use xpbi_validation::repose::measure_heap;

/// On a 10 × 10 lattice every NN distance is Δx; the interior criterion (neighbour centroid
/// within 1.5Δx closer than Δx/4) drops exactly the outer ring (its centroid shifts by ≥ 0.6Δx;
/// the second ring's neighbourhood within 1.5Δx is symmetric), leaving 8 × 8 = 64 particles.
#[test]
fn nn_split_on_a_lattice() {
    let dx = 0.01;
    let x = lattice_box(Vector2::new(0.0, 0.0), Vector2::new(0.1, 0.1), dx);
    let s = nn_statistics_split(&x, dx);
    assert!((s.mean - 1.0).abs() < 1e-9 && s.std < 1e-9 && (s.min - 1.0).abs() < 1e-9);
    assert!((s.interior_mean - 1.0).abs() < 1e-9 && s.interior_std < 1e-9);
    assert!(
        (s.interior_fraction - 0.64).abs() < 1e-12,
        "{}",
        s.interior_fraction
    );
    assert_eq!(s.isolated, 0);
    // A far-away particle is isolated: excluded from the statistics, counted.
    let mut y = x.clone();
    y.push(Vector2::new(1.0, 1.0));
    let t = nn_statistics_split(&y, dx);
    assert_eq!(t.isolated, 1);
    assert!((t.mean - 1.0).abs() < 1e-9);
}

/// A lattice triangle with flanks at exactly 30° (top particle of each column on the line
/// z = (L − |x|) tan 30°): the measured heap slope is 30° within the lattice's staircase error
/// (bins of 2Δx; < 1.5°), on both flanks.
#[test]
fn heap_slope_of_a_lattice_triangle() {
    let dx = 0.0025;
    let (l, tan) = (0.1f64, 30f64.to_radians().tan());
    let x: Vec<Vector2<f64>> = lattice_box(Vector2::new(-l, 0.0), Vector2::new(l, l * tan), dx)
        .into_iter()
        .filter(|p| p[1] <= (l - p[0].abs()) * tan)
        .collect();
    let r = measure_heap(&x, dx, 30.0, 0);
    println!(
        "slope {:.2}° (left {:.2}°, right {:.2}°)",
        r.slope_degrees, r.slope_left, r.slope_right
    );
    for s in [r.slope_degrees, r.slope_left, r.slope_right] {
        assert!((s - 30.0).abs() < 1.5, "{s}");
    }
}

/// A half heap (only the right flank, at 40°): the left flank has no surface to fit (NaN), and
/// the heap slope is the right flank's, within the staircase error, not NaN.
#[test]
fn heap_slope_with_one_flank_is_that_flank() {
    let dx = 0.0025;
    let (l, tan) = (0.1f64, 40f64.to_radians().tan());
    let x: Vec<Vector2<f64>> =
        lattice_box(Vector2::new(0.5 * dx, 0.0), Vector2::new(l, l * tan), dx)
            .into_iter()
            .filter(|p| p[1] <= (l - p[0]) * tan)
            .collect();
    let r = measure_heap(&x, dx, 40.0, 0);
    assert!(r.slope_left.is_nan(), "{}", r.slope_left);
    assert!((r.slope_right - 40.0).abs() < 1.5, "{}", r.slope_right);
    assert_eq!(r.slope_degrees.to_bits(), r.slope_right.to_bits());
}
