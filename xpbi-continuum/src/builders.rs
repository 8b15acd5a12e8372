//! Scene builders (2D and 3D through `const D`): particle positions on a lattice of
//! spacing Δx, plus scene assembly for the scenes that need pinned or driven particles.
//! Sand column: `xpbi_validation::sand_column` (3D benchmark) and [`column()`]; toothpaste extrusion:
//! [`toothpaste_extrusion_scene`] (through [`crate::emitter::Nozzle`]); hourglass:
//! [`hourglass_scene`]; angle of repose: `xpbi_validation::repose`.

use nalgebra::{SMatrix, SVector};
use xpbd_core::BuildError;
use xpbd_core::contact::{Collider, Friction, Pose, Shape};

use crate::emitter::Nozzle;
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

/// Sets the hardening variable of every continuum particle to `hardening` (NACC: `α = ln J_p`,
/// so `α < 0` is snow already compacted, with compression cap `p₀ = κ(1e-5 + sinh(−ξα))` and
/// cohesion `βp₀`; Drucker–Prager / von Mises: the accumulated plastic strain). F and the
/// Drucker–Prager volume correction are kept.
///
/// ```
/// use xpbi_continuum::builders::{set_initial_hardening, snow_ball_scene};
/// use xpbi_continuum::scene::SceneOptions;
/// let mut s = snow_ball_scene::<2>(0.05, 0.07, 3.0, SceneOptions::new(0.01)).unwrap();
/// set_initial_hardening(&mut s, 0.97f64.ln()).unwrap();
/// assert!(s.continuum().plastic_states().iter().all(|p| (p.hardening - 0.97f64.ln()).abs() < 1e-15));
/// assert!(set_initial_hardening(&mut s, f64::NAN).is_err());
/// ```
pub fn set_initial_hardening<const D: usize>(
    scene: &mut ContinuumScene<D>,
    hardening: f64,
) -> Result<(), XpbiError> {
    let per = crate::continuum::XpbiContinuum::<D>::STATE_PER_MEMBER;
    let c = scene.continuum_mut();
    let n = c.members().len();
    let mut state = c.state_vector();
    for m in 0..n {
        state[m * per + D * D] = hardening;
    }
    c.set_state_vector(&state)?;
    Ok(())
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

/// Herschel–Bulkley toothpaste extruded downwards from a nozzle onto a rough plate (the ground,
/// Coulomb 0.5): the nozzle exit is at `height`, its half-width (2D) or radius (3D) is
/// `half_width`, the paste leaves at `speed` for `duration` seconds ([`Nozzle`]: the paste in
/// the nozzle is driven kinematically, the released strand hangs from it through the XPBI
/// constraint). Call [`Nozzle::before_step`] before every step.
pub fn toothpaste_extrusion_scene<const D: usize>(
    material: Material,
    height: f64,
    half_width: f64,
    speed: f64,
    duration: f64,
    options: SceneOptions,
) -> Result<(ContinuumScene<D>, Nozzle<D>), XpbiError> {
    let mut exit = SVector::<f64, D>::zeros();
    exit[D - 1] = height;
    let (x, columns) = Nozzle::<D>::reservoir(exit, half_width, speed, duration, options.spacing);
    let mut scene = ContinuumScene::new(&x, material, options)?;
    let ids = (0..x.len()).collect();
    let nozzle = Nozzle::attach(&mut scene, ids, exit, half_width, speed, columns);
    Ok((scene, nozzle))
}

/// Geometry of the hourglass's upper bulb: a hopper of plane walls inclined at `wall_angle`
/// (degrees from the horizontal) down to an orifice of half-width `orifice_half_width` (a slot
/// in 2D, a square in 3D: one pair of walls per horizontal axis) at `orifice_height` above the
/// floor of the lower bulb (the ground); the hopper is filled with sand up to `fill_height`
/// above the orifice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hourglass {
    /// Orifice half-width (m).
    pub orifice_half_width: f64,
    /// Height of the orifice above the floor (m).
    pub orifice_height: f64,
    /// Wall inclination from the horizontal (degrees, in (0°, 90°)).
    pub wall_angle: f64,
    /// Sand fill height above the orifice (m).
    pub fill_height: f64,
    /// Wall friction (Coulomb).
    pub wall_friction: f64,
}

impl Hourglass {
    /// A 2 cm-half-width orifice 0.15 m above the floor, walls at 60°, filled 0.1 m high,
    /// wall friction 0.3.
    pub fn standard() -> Self {
        Self {
            orifice_half_width: 0.02,
            orifice_height: 0.15,
            wall_angle: 60.0,
            fill_height: 0.1,
            wall_friction: 0.3,
        }
    }

    /// The hopper walls as core box colliders (thickness 2 cm, long enough to rise `2 ×` the
    /// fill height); wall `2a + s` is the one on the side `s ∈ {0: −, 1: +}` of axis `a`.
    pub fn walls<const D: usize>(&self) -> Result<Vec<Collider<D>>, XpbiError> {
        let beta = self.wall_angle.to_radians();
        if !(self.wall_angle > 0.0 && self.wall_angle < 90.0) {
            return Err(XpbiError::InvalidParameter {
                name: "hourglass wall_angle",
                value: self.wall_angle,
            });
        }
        let length = 2.0 * self.fill_height / beta.sin() + self.orifice_half_width;
        let thickness = 0.02;
        let friction = Friction::coulomb(self.wall_friction).map_err(BuildError::from)?;
        let mut out = Vec::new();
        for a in 0..D - 1 {
            for s in [-1.0, 1.0] {
                // u: along the wall, outwards and up; n: wall normal towards the sand.
                let mut u = SVector::<f64, D>::zeros();
                u[a] = s * beta.cos();
                u[D - 1] = beta.sin();
                let mut n = SVector::<f64, D>::zeros();
                n[a] = -s * beta.sin();
                n[D - 1] = beta.cos();
                let mut edge = SVector::<f64, D>::zeros();
                edge[a] = s * self.orifice_half_width;
                edge[D - 1] = self.orifice_height;
                let centre = edge + u * (0.5 * length) - n * (0.5 * thickness);
                // Local axes: 0 = u, D−1 = n, the others the remaining horizontal axes; a
                // reflection is fixed by flipping axis 0 (the box is symmetric).
                let mut r = SMatrix::<f64, D, D>::zeros();
                r.set_column(0, &u);
                r.set_column(D - 1, &n);
                let mut k = 1;
                for b in 0..D - 1 {
                    if b != a && k < D - 1 {
                        let mut e = SVector::<f64, D>::zeros();
                        e[b] = 1.0;
                        r.set_column(k, &e);
                        k += 1;
                    }
                }
                if crate::constraint::determinant(&r) < 0.0 {
                    r.set_column(0, &(-u));
                }
                let mut half = SVector::<f64, D>::repeat(length);
                half[0] = 0.5 * length;
                half[D - 1] = 0.5 * thickness;
                out.push(
                    Collider::fixed(Shape::Box { half_extents: half })
                        .at(Pose {
                            translation: centre,
                            rotation: r,
                        })
                        .with_friction(friction),
                );
            }
        }
        Ok(out)
    }

    /// Sand lattice inside the hopper: points between the orifice plane and the fill height
    /// whose distance to every wall's inner plane is at least Δx/2.
    pub fn sand<const D: usize>(&self, spacing: f64) -> Vec<SVector<f64, D>> {
        let beta = self.wall_angle.to_radians();
        let top = self.orifice_height + self.fill_height;
        let reach = self.orifice_half_width + self.fill_height / beta.tan();
        let mut lo = SVector::<f64, D>::repeat(-reach);
        let mut hi = SVector::<f64, D>::repeat(reach);
        lo[D - 1] = self.orifice_height;
        hi[D - 1] = top;
        lattice_box(lo, hi, spacing)
            .into_iter()
            .filter(|p| {
                (0..D - 1).all(|a| {
                    // Signed distance to the inner plane of the wall on p's side.
                    let h = p[a].abs() - self.orifice_half_width;
                    let z = p[D - 1] - self.orifice_height;
                    z * beta.cos() - h * beta.sin() >= 0.5 * spacing
                })
            })
            .collect()
    }
}

/// Sand pouring through an hourglass ([`Hourglass`]): the sand in the upper bulb, the hopper
/// walls (core box colliders), the floor of the lower bulb (the ground).
pub fn hourglass_scene<const D: usize>(
    geometry: &Hourglass,
    material: Material,
    options: SceneOptions,
) -> Result<ContinuumScene<D>, XpbiError> {
    let x = geometry.sand::<D>(options.spacing);
    let mut scene = ContinuumScene::new(&x, material, options)?;
    for w in geometry.walls::<D>()? {
        scene.add_collider(w)?;
    }
    Ok(scene)
}
