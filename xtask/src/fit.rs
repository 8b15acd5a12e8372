//! Observed convergence orders: least-squares slope of `ln e` against `ln h`.

/// Least-squares slope `p` of `ln y = c + p ln x` over the points with `x > 0`, `y > 0`
/// (finite); `None` with fewer than two such points or a degenerate abscissa.
///
/// ```
/// let x = [1.0, 0.5, 0.25];
/// let y: Vec<f64> = x.iter().map(|h: &f64| 3.0 * h * h).collect();
/// let p = xtask::fit::log_log_slope(&x, &y).unwrap();
/// assert!((p - 2.0).abs() < 1e-12);
/// ```
pub fn log_log_slope(x: &[f64], y: &[f64]) -> Option<f64> {
    let pts: Vec<(f64, f64)> = x
        .iter()
        .zip(y)
        .filter(|(a, b)| a.is_finite() && b.is_finite() && **a > 0.0 && **b > 0.0)
        .map(|(a, b)| (a.ln(), b.ln()))
        .collect();
    if pts.len() < 2 {
        return None;
    }
    let n = pts.len() as f64;
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 1e-300).then(|| sxy / sxx)
}

/// Geometric-mean reduction factor per iteration of a residual history, `(r_last / r_first)^(1/(n−1))`,
/// over its positive finite entries (`None` with fewer than two).
///
/// ```
/// let r = [1.0, 0.5, 0.25, 0.125];
/// assert!((xtask::fit::mean_reduction_factor(&r).unwrap() - 0.5).abs() < 1e-12);
/// ```
pub fn mean_reduction_factor(residuals: &[f64]) -> Option<f64> {
    let r: Vec<f64> = residuals
        .iter()
        .copied()
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    if r.len() < 2 {
        return None;
    }
    Some((r[r.len() - 1] / r[0]).powf(1.0 / (r.len() - 1) as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slope_ignores_non_positive_points_and_needs_two() {
        assert_eq!(log_log_slope(&[1.0], &[1.0]), None);
        assert_eq!(log_log_slope(&[1.0, 1.0], &[1.0, 2.0]), None);
        let p = log_log_slope(&[1.0, 2.0, 4.0, 8.0], &[1.0, 2.0, 0.0, 8.0]).unwrap();
        assert!((p - 1.0).abs() < 1e-12);
    }
}
