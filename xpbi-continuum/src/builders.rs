//! Scene builders of issue 5 (2D and 3D through `const D`): particle positions on a lattice of
//! spacing Δx, plus scene assembly for the scenes that need pinned or driven particles.
//! Sand column: [`crate::sand_column`] (3D benchmark) and [`column`].

use nalgebra::SVector;

use crate::error::XpbiError;
use crate::material::Material;
use crate::scene::{ContinuumScene, SceneOptions, lattice_box};

/// A column of half-width `half_width` and height `height` centred on the vertical axis,
/// standing on the ground (vertical = last axis).
///
/// ```
/// let x = xpbi_continuum::builders::column::<2>(0.05, 0.2, 0.01);
/// assert_eq!(x.len(), 10 * 20);
/// ```
pub fn column<const D: usize>(half_width: f64, height: f64, spacing: f64) -> Vec<SVector<f64, D>> {
    let mut lo = SVector::<f64, D>::repeat(-half_width);
    let mut hi = SVector::<f64, D>::repeat(half_width);
    lo[D - 1] = 0.0;
    hi[D - 1] = height;
    lattice_box(lo, hi, spacing)
}

/// A ball (disc in 2D) of radius `radius` centred at `centre` (the snow ball).
///
/// ```
/// use nalgebra::Vector2;
/// let x = xpbi_continuum::builders::ball(Vector2::new(0.0, 0.5), 0.05, 0.01);
/// assert!(x.iter().all(|p| (p - Vector2::new(0.0, 0.5)).norm() < 0.05));
/// assert!((x.len() as f64 - std::f64::consts::PI * 25.0).abs() < 10.0);
/// ```
pub fn ball<const D: usize>(
    centre: SVector<f64, D>,
    radius: f64,
    spacing: f64,
) -> Vec<SVector<f64, D>> {
    lattice_box(
        centre - SVector::repeat(radius),
        centre + SVector::repeat(radius),
        spacing,
    )
    .into_iter()
    .filter(|p| (p - centre).norm() < radius)
    .collect()
}

/// A snow ball of radius `radius` at height `height` thrown down at `speed` (m/s).
pub fn snow_ball_scene<const D: usize>(
    radius: f64,
    height: f64,
    speed: f64,
    options: SceneOptions,
) -> Result<ContinuumScene<D>, XpbiError> {
    let mut c = SVector::<f64, D>::zeros();
    c[D - 1] = height;
    let x = ball(c, radius, options.spacing);
    let mut scene = ContinuumScene::new(&x, Material::snow(), options)?;
    for v in scene.sim.particles_mut().v.iter_mut() {
        v[D - 1] = -speed;
    }
    Ok(scene)
}

/// A bar of `length` along axis 0 and square cross-section `thickness`, its lowest face at
/// `height`; particles with `x₀ < clamp` are returned as the clamped set.
pub fn bar<const D: usize>(
    length: f64,
    thickness: f64,
    height: f64,
    spacing: f64,
) -> Vec<SVector<f64, D>> {
    let mut lo = SVector::<f64, D>::repeat(-0.5 * thickness);
    let mut hi = SVector::<f64, D>::repeat(0.5 * thickness);
    lo[0] = 0.0;
    hi[0] = length;
    lo[D - 1] = height;
    hi[D - 1] = height + thickness;
    lattice_box(lo, hi, spacing)
}

/// Elastic cantilever: a bar whose particles with `x₀ < clamp_length` are pinned (inverse mass
/// 0), hanging under gravity; returns the scene and the index of the particle nearest the free
/// end's centre line (tip).
pub fn cantilever_scene<const D: usize>(
    length: f64,
    thickness: f64,
    clamp_length: f64,
    material: Material,
    options: SceneOptions,
) -> Result<(ContinuumScene<D>, usize), XpbiError> {
    let height = 2.0 * length;
    let x: Vec<SVector<f64, D>> =
        bar::<D>(length + clamp_length, thickness, height, options.spacing)
            .into_iter()
            .map(|mut p| {
                p[0] -= clamp_length;
                p
            })
            .collect();
    let mut scene = ContinuumScene::new(&x, material, options)?;
    for (i, p) in x.iter().enumerate() {
        if p[0] < 0.0 {
            scene.sim.particles_mut().pin(i);
        }
    }
    let centre = height + 0.5 * thickness;
    let tip = (0..x.len())
        .max_by(|&a, &b| {
            let key = |p: &SVector<f64, D>| p[0] - (p[D - 1] - centre).abs();
            key(&x[a]).total_cmp(&key(&x[b]))
        })
        .unwrap_or(0);
    Ok((scene, tip))
}

/// Clay bar (von Mises) stretched: both ends (particles within `grip` of either end) move apart
/// along axis 0 at `speed` (m/s each) as kinematic particles; gravity is switched off by the
/// caller if wanted. Returns the scene and the indices of the two grips.
pub fn stretched_bar_scene<const D: usize>(
    length: f64,
    thickness: f64,
    grip: f64,
    speed: f64,
    material: Material,
    options: SceneOptions,
) -> Result<(ContinuumScene<D>, Vec<usize>, Vec<usize>), XpbiError> {
    let x = bar::<D>(length, thickness, 0.5 * options.spacing, options.spacing);
    let mut scene = ContinuumScene::new(&x, material, options)?;
    let left: Vec<usize> = (0..x.len()).filter(|&i| x[i][0] < grip).collect();
    let right: Vec<usize> = (0..x.len()).filter(|&i| x[i][0] > length - grip).collect();
    let p = scene.sim.particles_mut();
    for (&i, sign) in left
        .iter()
        .map(|i| (i, -1.0))
        .chain(right.iter().map(|i| (i, 1.0)))
    {
        p.pin(i);
        let mut v = SVector::<f64, D>::zeros();
        v[0] = sign * speed;
        p.v[i] = v;
    }
    Ok((scene, left, right))
}

/// Moves the kinematic grips of [`stretched_bar_scene`] for the next step (`dt`).
pub fn drive_grips<const D: usize>(
    scene: &mut ContinuumScene<D>,
    left: &[usize],
    right: &[usize],
    speed: f64,
    dt: f64,
) {
    let p = scene.sim.particles_mut();
    for (&i, sign) in left
        .iter()
        .map(|i| (i, -1.0))
        .chain(right.iter().map(|i| (i, 1.0)))
    {
        let mut target = p.x[i];
        target[0] += sign * speed * dt;
        p.kinematic_target[i] = Some(target);
    }
}
