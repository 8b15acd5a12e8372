//! Measurements on particle sets: pile height, runout, free-surface slope, nearest-neighbour
//! statistics.

use nalgebra::SVector;
use xpbd_core::spatial::UniformGrid;

/// `p`-th percentile (0–100) by nearest rank of unsorted values (copied).
pub fn percentile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * (v.len() - 1) as f64).round() as usize;
    v[rank.min(v.len() - 1)]
}

/// Horizontal distance of every particle from the axis through `centre` (last axis is vertical).
pub fn horizontal_distances<const D: usize>(
    x: &[SVector<f64, D>],
    centre: &SVector<f64, D>,
) -> Vec<f64> {
    x.iter()
        .map(|p| {
            let mut d = p - centre;
            d[D - 1] = 0.0;
            d.norm()
        })
        .collect()
}

/// Nearest-neighbour distances (each particle to its closest other particle; `NaN` if none
/// within `search_radius`).
pub fn nearest_neighbour_distances<const D: usize>(
    x: &[SVector<f64, D>],
    search_radius: f64,
) -> Vec<f64> {
    let Ok(grid) = UniformGrid::build(x, search_radius) else {
        return vec![f64::NAN; x.len()];
    };
    (0..x.len())
        .map(|p| {
            let mut best = f64::INFINITY;
            grid.for_each_within(x, &x[p], search_radius, |b| {
                if b != p {
                    best = best.min((x[b] - x[p]).norm());
                }
            });
            if best.is_finite() { best } else { f64::NAN }
        })
        .collect()
}

/// Mean and standard deviation of the finite nearest-neighbour distances, over `spacing`.
pub fn nn_statistics<const D: usize>(x: &[SVector<f64, D>], spacing: f64) -> (f64, f64, f64) {
    let d: Vec<f64> = nearest_neighbour_distances(x, 3.0 * spacing)
        .into_iter()
        .filter(|v| v.is_finite())
        .collect();
    let n = d.len().max(1) as f64;
    let mean = d.iter().sum::<f64>() / n;
    let var = d.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let min = d.iter().copied().fold(f64::INFINITY, f64::min);
    (mean / spacing, var.sqrt() / spacing, min / spacing)
}

/// Nearest-neighbour statistics split by neighbourhood (see [`nn_statistics_split`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NnStatistics {
    /// Mean NN distance over Δx, all particles with a neighbour within 3Δx.
    pub mean: f64,
    /// Standard deviation over Δx, same particles.
    pub std: f64,
    /// Smallest NN distance over Δx.
    pub min: f64,
    /// Mean over Δx of the interior particles only.
    pub interior_mean: f64,
    /// Standard deviation over Δx of the interior particles only.
    pub interior_std: f64,
    /// Fraction of the particles counted as interior.
    pub interior_fraction: f64,
    /// Particles without any neighbour within 3Δx (isolated, excluded from every statistic).
    pub isolated: usize,
}

/// NN statistics over all particles and over the *interior* ones: a particle is interior when
/// the centroid of its neighbours within `1.5Δx` is less than `Δx/4` from it (a full, balanced
/// neighbourhood; at a straight free surface of a lattice the centroid shifts inwards by 0.6Δx,
/// at a corner by 0.9Δx).
/// Free-surface and toe particles have fewer neighbours and larger NN distances, so the
/// all-particle standard deviation is dominated by them; both are reported, neither hides the
/// minimum (taken over all particles).
pub fn nn_statistics_split<const D: usize>(x: &[SVector<f64, D>], spacing: f64) -> NnStatistics {
    let nn = nearest_neighbour_distances(x, 3.0 * spacing);
    let support = 1.5 * spacing;
    let interior: Vec<bool> = match UniformGrid::build(x, support) {
        Ok(grid) => (0..x.len())
            .map(|p| {
                let mut sum = SVector::<f64, D>::zeros();
                let mut n = 0usize;
                grid.for_each_within(x, &x[p], support, |b| {
                    if b != p {
                        sum += x[b] - x[p];
                        n += 1;
                    }
                });
                n > 0 && (sum / n as f64).norm() < 0.25 * spacing
            })
            .collect(),
        Err(_) => vec![false; x.len()],
    };
    let stats = |keep: &dyn Fn(usize) -> bool| {
        let d: Vec<f64> = (0..x.len())
            .filter(|&i| nn[i].is_finite() && keep(i))
            .map(|i| nn[i] / spacing)
            .collect();
        let n = d.len().max(1) as f64;
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        (
            mean,
            var.sqrt(),
            d.iter().copied().fold(f64::INFINITY, f64::min),
            d.len(),
        )
    };
    let (mean, std, min, _) = stats(&|_| true);
    let (interior_mean, interior_std, _, count) = stats(&|i| interior[i]);
    NnStatistics {
        mean,
        std,
        min,
        interior_mean,
        interior_std,
        interior_fraction: count as f64 / x.len().max(1) as f64,
        isolated: nn.iter().filter(|v| !v.is_finite()).count(),
    }
}

/// Observables of a granular pile (vertical = last axis).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PileObservables {
    /// 99th percentile of the particle heights (m).
    pub height: f64,
    /// 95th percentile of the horizontal distance from the initial column axis (m).
    pub runout: f64,
    /// Free-surface slope angle (degrees) fitted between 20 % and 80 % of the height.
    pub slope_degrees: f64,
    /// Mean nearest-neighbour distance over the spacing.
    pub nn_mean: f64,
    /// Standard deviation of the nearest-neighbour distance over the spacing.
    pub nn_std: f64,
    /// Smallest nearest-neighbour distance over the spacing.
    pub nn_min: f64,
}

/// Measures a pile around the vertical axis through `centre`.
pub fn pile_observables<const D: usize>(
    x: &[SVector<f64, D>],
    centre: &SVector<f64, D>,
    spacing: f64,
) -> PileObservables {
    let heights: Vec<f64> = x.iter().map(|p| p[D - 1]).collect();
    let r = horizontal_distances(x, centre);
    let height = percentile(&heights, 99.0);
    let runout = percentile(&r, 95.0);
    let slope_degrees = surface_slope(&r, &heights, spacing, height);
    let (nn_mean, nn_std, nn_min) = nn_statistics(x, spacing);
    PileObservables {
        height,
        runout,
        slope_degrees,
        nn_mean,
        nn_std,
        nn_min,
    }
}

/// Slope of the free surface: the top of each radial bin of width 2Δx, least-squares line through
/// the bin tops with heights in [0.2 h, 0.8 h] (h = pile height); returns atan(−slope) in degrees.
pub fn surface_slope(r: &[f64], z: &[f64], spacing: f64, height: f64) -> f64 {
    let bin = 2.0 * spacing;
    let nbins = (r.iter().copied().fold(0.0, f64::max) / bin).ceil() as usize + 1;
    let mut top = vec![f64::NEG_INFINITY; nbins];
    for (ri, zi) in r.iter().zip(z) {
        let b = (ri / bin) as usize;
        top[b] = top[b].max(*zi);
    }
    let pts: Vec<(f64, f64)> = top
        .iter()
        .enumerate()
        .filter(|(_, t)| t.is_finite() && **t >= 0.2 * height && **t <= 0.8 * height)
        .map(|(b, t)| ((b as f64 + 0.5) * bin, *t))
        .collect();
    if pts.len() < 2 {
        return f64::NAN;
    }
    descent_angle_degrees(&pts)
}

/// `atan(−b)` in degrees for the least-squares line `z = a + b r` through the points `(r, z)`.
fn descent_angle_degrees(pts: &[(f64, f64)]) -> f64 {
    let n = pts.len() as f64;
    let (mx, my) = (
        pts.iter().map(|p| p.0).sum::<f64>() / n,
        pts.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    (-sxy / sxx).atan().to_degrees()
}

/// Slope of a 3D heap's free surface around the vertical axis through `centre`, from its
/// height map: the top particle of each Δx × Δx column of the horizontal plane, and the
/// least-squares line `z = a − r tan θ` through the column tops with heights in
/// [0.2 h, 0.8 h] (r = that particle's horizontal distance from the axis, h = heap height);
/// returns θ in degrees, NaN with fewer than three columns in the band.
///
/// Every column of the flank contributes (a heap of radius R has ≈ π R²/Δx² of them), where
/// [`surface_slope`]'s radial bins keep one particle per 2Δx of radius: on a heap of 6500
/// particles (radius ≈ 24Δx) those few bin tops made the fitted slope jump by 10° between
/// heaps whose height-to-radius ratios were ordered.
///
/// ```
/// use nalgebra::Vector3;
/// use xpbi_validation::observables::heap_surface_slope_3d;
/// // A filled cone of slope 30° (tan = 0.577), radius 0.1 m, sampled on a 2 mm lattice.
/// let (dx, t) = (0.002, 30f64.to_radians().tan());
/// let mut x = Vec::new();
/// for i in -50..=50 {
///     for j in -50..=50 {
///         let (px, py) = (i as f64 * dx, j as f64 * dx);
///         let top = t * (0.1 - (px * px + py * py).sqrt());
///         let mut k = 0;
///         while k as f64 * dx <= top {
///             x.push(Vector3::new(px, py, k as f64 * dx));
///             k += 1;
///         }
///     }
/// }
/// let theta = heap_surface_slope_3d(&x, &Vector3::zeros(), dx, 0.1 * t);
/// assert!((theta - 30.0).abs() < 1.0, "{theta}");
/// ```
pub fn heap_surface_slope_3d<const D: usize>(
    x: &[SVector<f64, D>],
    centre: &SVector<f64, D>,
    spacing: f64,
    height: f64,
) -> f64 {
    assert!(D == 3, "heap_surface_slope_3d needs 3D positions");
    // Top particle (z, r) of each column, in a BTreeMap so the sums run in a fixed order.
    let mut top: std::collections::BTreeMap<(i64, i64), (f64, f64)> = Default::default();
    for p in x {
        let (dx, dy) = (p[0] - centre[0], p[1] - centre[1]);
        let key = ((dx / spacing).floor() as i64, (dy / spacing).floor() as i64);
        let z = p[D - 1];
        let entry = top.entry(key).or_insert((f64::NEG_INFINITY, 0.0));
        if z > entry.0 {
            *entry = (z, (dx * dx + dy * dy).sqrt());
        }
    }
    let pts: Vec<(f64, f64)> = top
        .values()
        .filter(|(z, _)| *z >= 0.2 * height && *z <= 0.8 * height)
        .map(|(z, r)| (*r, *z))
        .collect();
    if pts.len() < 3 {
        return f64::NAN;
    }
    descent_angle_degrees(&pts)
}

/// The shape of a granular deposit spread along one horizontal coordinate `s` (the distance
/// along a channel, or from the axis of an axisymmetric heap), measured on its surface profile:
/// the top edge of the highest particle (centre + ½Δx) in each bin of width 2Δx along s.
///
/// A continuum deposit thins towards its edge; particles represent it down to one particle
/// layer, and that last layer keeps spreading as Δx shrinks (a layer one particle thick has no
/// resolved internal friction; in the laboratory a layer a few grains thick stops). So the edge
/// is measured three ways, of which the first two converge under refinement (see the collapse
/// studies): the **toe**, where the straight part of the flank (the bins beyond the summit whose
/// tops lie between 20 % and 60 % of the height) extended by a least-squares line meets the
/// floor; the **thickness front**, the far edge of the last bin beyond the summit still thicker
/// than a given fraction of a length scale; and the **connected front**, the far edge of the
/// farthest particle connected to the heap by gaps of at most 1.5Δx along s (what a laboratory
/// reads as the end of the deposit, and a discrete simulation at a finite Δx cannot converge).
#[derive(Debug, Clone, PartialEq)]
pub struct Deposit {
    /// Bin width (2Δx).
    pub bin: f64,
    /// Top edge of each bin (0 for an empty bin).
    pub top: Vec<f64>,
    /// The highest top edge.
    pub height: f64,
    /// Where the flank's line meets the floor (NaN with fewer than two bins in the band).
    pub toe: f64,
    /// The flank's descent angle (degrees).
    pub slope_degrees: f64,
    /// The far edge of the farthest connected particle.
    pub connected_front: f64,
}

impl Deposit {
    /// Measures the deposit of particles at horizontal coordinates `s` and heights `z` (floor at
    /// z = 0) sampled at spacing Δx.
    ///
    /// ```
    /// use xpbi_validation::observables::Deposit;
    /// // A wedge of slope 1/2 on a 0.01 lattice: its surface is z = 0.5 (1 − s).
    /// let dx = 0.01;
    /// let (mut s, mut z) = (Vec::new(), Vec::new());
    /// for i in 0..100 {
    ///     for k in 0..100 {
    ///         let (si, zk) = ((i as f64 + 0.5) * dx, (k as f64 + 0.5) * dx);
    ///         if zk + 0.5 * dx <= 0.5 * (1.0 - si) + 1e-9 { s.push(si); z.push(zk); }
    ///     }
    /// }
    /// let d = Deposit::measure(&s, &z, dx);
    /// assert!((d.toe - 1.0).abs() < 0.03, "{}", d.toe);
    /// assert!((d.slope_degrees - 26.57).abs() < 1.5, "{}", d.slope_degrees);
    /// assert!((d.height - 0.5).abs() < 0.011);
    /// ```
    pub fn measure(s: &[f64], z: &[f64], spacing: f64) -> Self {
        let bin = 2.0 * spacing;
        let far = s.iter().copied().fold(0.0f64, f64::max);
        let bins = (far / bin).floor() as usize + 1;
        let mut top = vec![0.0f64; bins];
        for (si, zi) in s.iter().zip(z) {
            let b = ((si.max(0.0) / bin) as usize).min(bins - 1);
            top[b] = top[b].max(zi + 0.5 * spacing);
        }
        let (summit, height) = top
            .iter()
            .copied()
            .enumerate()
            .fold(
                (0, 0.0f64),
                |best, (b, t)| if t > best.1 { (b, t) } else { best },
            );
        let flank: Vec<(f64, f64)> = top
            .iter()
            .enumerate()
            .skip(summit + 1)
            .filter(|(_, t)| **t >= 0.2 * height && **t <= 0.6 * height)
            .map(|(b, t)| ((b as f64 + 0.5) * bin, *t))
            .collect();
        let (toe, slope_degrees) = if flank.len() < 2 {
            (f64::NAN, f64::NAN)
        } else {
            let angle = descent_angle_degrees(&flank);
            let n = flank.len() as f64;
            let (ms, mz) = (
                flank.iter().map(|p| p.0).sum::<f64>() / n,
                flank.iter().map(|p| p.1).sum::<f64>() / n,
            );
            (ms + mz / angle.to_radians().tan(), angle)
        };
        let mut sorted = s.to_vec();
        sorted.sort_by(f64::total_cmp);
        let mut front = sorted.first().copied().unwrap_or(f64::NAN);
        for &v in sorted.iter().skip(1) {
            if v - front > 1.5 * spacing {
                break;
            }
            front = v;
        }
        Self {
            bin,
            top,
            height,
            toe,
            slope_degrees,
            connected_front: front + 0.5 * spacing,
        }
    }

    /// The far edge of the last bin beyond the summit whose top is at least `thickness`.
    pub fn thickness_front(&self, thickness: f64) -> f64 {
        let summit = self.top.iter().position(|&t| t == self.height).unwrap_or(0);
        let last = (summit..self.top.len())
            .rev()
            .find(|&b| self.top[b] >= thickness)
            .unwrap_or(summit);
        (last + 1) as f64 * self.bin
    }
}
