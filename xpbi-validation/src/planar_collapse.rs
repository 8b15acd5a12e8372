//! The planar granular column collapse in a channel, against the laboratory.
//!
//! A column of length dᵢ and height hᵢ = a dᵢ (aspect ratio a) stands against the channel's end
//! wall and is released at rest on a rough floor; it spreads along +x until it stops. Lube,
//! Huppert, Sparks & Freundt (Phys. Rev. E 72, 041301, 2005) measured, for many dry granular
//! materials in a narrow channel,
//!
//! ```text
//! (d∞ − dᵢ)/dᵢ ≈ 1.2 a            a ≲ 1.8–2.3
//! (d∞ − dᵢ)/dᵢ ≈ 1.9 a^{2/3}      a ≳ 2.3          (independent of basal and internal friction)
//! h∞/dᵢ ≈ a                       a ≲ 1.15          (the top of the column does not move)
//! t∞ ≈ 3 √(hᵢ/g)                                    (time at which the flow stops)
//! ```
//!
//! and Lajeunesse, Monnier & Homsy (Phys. Fluids 17, 103302, 2005) h∞/dᵢ ≈ a^{1/3} above
//! a ≈ 0.7 in the same geometry. The laws are [`lube_runout`] and [`laboratory_height`].
//!
//! **The model.** The continuum is XPBI in 2D (plane strain: `ContinuumScene<2>`, the 2D
//! kernels), Drucker–Prager sand. The end wall is a frictionless half-space, the exact
//! symmetry plane of a column of width 2dᵢ released on both sides (the laboratory wall's
//! friction and the channel's side walls are not modelled: both slow the flow, so a
//! plane-strain model without them should run out at or somewhat beyond the laboratory
//! prefactors). The floor is Coulomb with `base_friction`.
//!
//! **Observables** ([`Deposit`], lengths over dᵢ): the final height h∞ (the top edge of the
//! highest particle), and the runout three ways: the toe (the flank's straight part extended
//! to the floor), the front where the deposit thins below [`FRONT_THICKNESS`] dᵢ, and the
//! connected front (the edge of the farthest particle still touching the heap). The first two
//! converge under refinement; the last does not (a layer one particle thick keeps spreading as
//! Δx shrinks, in MLS-MPM as here). The flow has stopped when the kinetic energy has fallen
//! below 1e-4 of its peak.

use std::time::Instant;

use nalgebra::Vector2;
use xpbd_core::AdaptiveStepping;
use xpbd_core::contact::Pose;
use xpbi_continuum::error::XpbiError;
use xpbi_continuum::material::Material;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};
use xpbi_continuum::xsph::Xsph;

use crate::observables::Deposit;

/// Lube et al. (2005)'s runout law for planar collapses, (d∞ − dᵢ)/dᵢ, as the lower of its two
/// branches, 1.2a and 1.9a^{2/3} (they cross at a = (1.9/1.2)³ ≈ 3.97). Lube quote the linear
/// branch below a ≈ 1.8–2.3 and the power law above a ≈ 2.3; between a = 2.3 and 4 the data
/// lie between the branches (which differ by at most 12 % there), so the lower one is the
/// conservative reading.
///
/// ```
/// use xpbi_validation::planar_collapse::lube_runout;
/// assert!((lube_runout(1.0) - 1.2).abs() < 1e-12);
/// assert!((lube_runout(8.0) - 7.6).abs() < 1e-9);
/// ```
pub fn lube_runout(a: f64) -> f64 {
    (1.2 * a).min(1.9 * a.powf(2.0 / 3.0))
}

/// The laboratory's final height h∞/dᵢ: a (the top does not move) below a = 0.7, a^{1/3} above
/// (Lajeunesse, Monnier & Homsy 2005, channel collapses; Lube et al. 2005 give h∞ = hᵢ up to
/// a ≈ 1.15, where a^{1/3} = 1.05).
///
/// ```
/// use xpbi_validation::planar_collapse::laboratory_height;
/// assert_eq!(laboratory_height(0.5), 0.5);
/// assert!((laboratory_height(8.0) - 2.0).abs() < 1e-12);
/// ```
pub fn laboratory_height(a: f64) -> f64 {
    if a <= 0.7 { a } else { a.cbrt() }
}

/// What to run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanarCollapseConfig {
    /// Aspect ratio a = hᵢ/dᵢ.
    pub aspect: f64,
    /// Column length dᵢ (m).
    pub length: f64,
    /// Particles across the column's length dᵢ (Δx = dᵢ / n).
    pub particles_across: usize,
    /// The sand.
    pub material: Material,
    /// Coulomb coefficient of the floor.
    pub base_friction: f64,
    /// Largest adaptive step (s).
    pub dt_max: f64,
    /// Solver iterations per step.
    pub iterations: usize,
    /// XSPH smoothing.
    pub xsph: Xsph,
    /// Position correction on.
    pub position_correction: bool,
    /// The position correction's r over Δx.
    pub correction_radius: f64,
    /// Simulated time as a multiple of √(hᵢ/g) (the laboratory flow stops at about 3).
    pub duration_over_timescale: f64,
    /// Time the column first rests behind a frictionless gate at x = dᵢ, over √(hᵢ/g), so
    /// that it is released from its weight's stress as in the laboratory (0: released
    /// stress-free at t = 0).
    pub settle_over_timescale: f64,
    /// Worker threads (results do not depend on it).
    pub threads: usize,
}

impl PlanarCollapseConfig {
    /// The defaults: dᵢ = 5 cm, the library's sand with φ = 32°, floor μ = 0.6, 10 iterations,
    /// steps ≤ 2.5e-4 s, the library's XSPH and position correction, 6 √(hᵢ/g) of flow.
    pub fn new(aspect: f64, particles_across: usize) -> Self {
        let o = SceneOptions::new(1.0);
        Self {
            aspect,
            length: 0.05,
            particles_across,
            material: Material::sand_with_friction(32.0),
            base_friction: 0.6,
            dt_max: 2.5e-4,
            iterations: 10,
            xsph: o.xsph,
            position_correction: o.spacing_constraints,
            correction_radius: o.correction_radius,
            duration_over_timescale: 6.0,
            settle_over_timescale: 0.0,
            threads: 1,
        }
    }

    /// Δx = dᵢ / n.
    pub fn spacing(&self) -> f64 {
        self.length / self.particles_across as f64
    }
}

/// The deposit and the run's cost; lengths over dᵢ (see [`Deposit`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanarCollapseReport {
    /// Aspect ratio a.
    pub aspect: f64,
    /// Particle spacing Δx (m).
    pub spacing: f64,
    /// Particles.
    pub particles: usize,
    /// (toe − dᵢ)/dᵢ: the flank's line extended to the floor.
    pub runout_toe: f64,
    /// (front − dᵢ)/dᵢ where the deposit thins below [`FRONT_THICKNESS`] dᵢ.
    pub runout_thickness: f64,
    /// (connected front − dᵢ)/dᵢ.
    pub runout_front: f64,
    /// h∞/dᵢ.
    pub height: f64,
    /// The flank's descent angle (degrees).
    pub slope_degrees: f64,
    /// Time at which the kinetic energy fell below 1e-4 of its peak, over √(hᵢ/g) (NaN if it
    /// never did).
    pub stop_time: f64,
    /// Steps taken.
    pub steps: usize,
    /// Simulated time (s).
    pub simulated: f64,
    /// Wall time (s).
    pub wall: f64,
}

/// The thickness (over dᵢ) below which [`PlanarCollapseReport::runout_thickness`] ends the
/// deposit.
pub const FRONT_THICKNESS: f64 = 0.05;

/// Builds the column against the end wall at x = 0 on the floor at z = 0.
pub fn build(config: &PlanarCollapseConfig) -> Result<ContinuumScene<2>, XpbiError> {
    let dx = config.spacing();
    let d = config.length;
    let h = config.aspect * d;
    let x = lattice_box(Vector2::new(0.0, 0.0), Vector2::new(d, h), dx);
    let mut o = SceneOptions::new(dx);
    o.dt = config.dt_max;
    o.iterations = config.iterations;
    o.ground_friction = config.base_friction;
    o.xsph = config.xsph;
    o.spacing_constraints = config.position_correction;
    o.correction_radius = config.correction_radius;
    o.threads = config.threads;
    let mut s = ContinuumScene::<2>::new(&x, config.material, o)?;
    s.add_wall(Vector2::new(1.0, 0.0), 0.0, 0.0)?;
    Ok(s)
}

/// Runs one collapse to `duration_over_timescale` √(hᵢ/g).
pub fn run(config: &PlanarCollapseConfig) -> Result<PlanarCollapseReport, XpbiError> {
    run_observed(config, |_| {})
}

/// [`run`], calling `observe` after every step.
pub fn run_observed(
    config: &PlanarCollapseConfig,
    mut observe: impl FnMut(&ContinuumScene<2>),
) -> Result<PlanarCollapseReport, XpbiError> {
    let mut s = build(config)?;
    let dx = config.spacing();
    let d = config.length;
    let h = config.aspect * d;
    let timescale = (h / 9.81).sqrt();
    let stepping = AdaptiveStepping::new(config.dt_max);
    if config.settle_over_timescale > 0.0 {
        let gate = s.add_wall(Vector2::new(-1.0, 0.0), -d, 0.0)?;
        let settle = config.settle_over_timescale * timescale;
        while s.sim.time() < settle - 1e-12 {
            s.step_adaptive(settle - s.sim.time(), &stepping)?;
        }
        let mut away = Pose::<2>::identity();
        away.translation.x = 1e3 * (d + h);
        s.sim
            .block_mut(s.colliders)
            .kind
            .set_pose(gate, away)
            .map_err(xpbd_core::BuildError::from)?;
    }
    let end = s.sim.time() + config.duration_over_timescale * timescale;
    let inv_mass: Vec<f64> = s.sim.particles().inv_mass.clone();
    let kinetic = |s: &ContinuumScene<2>| -> f64 {
        let p = s.sim.particles();
        p.v.iter()
            .zip(&inv_mass)
            .map(|(v, w)| {
                if *w > 0.0 {
                    0.5 * v.norm_squared() / w
                } else {
                    0.0
                }
            })
            .sum()
    };
    let (mut peak, mut stop) = (0.0f64, f64::NAN);
    let mut steps = 0;
    let t0 = Instant::now();
    while s.sim.time() < end - 1e-12 {
        s.step_adaptive(end - s.sim.time(), &stepping)?;
        steps += 1;
        observe(&s);
        let k = kinetic(&s);
        peak = peak.max(k);
        if k < 1e-4 * peak
            && stop.is_nan()
            && s.sim.time() > end - (config.duration_over_timescale - 1.0) * timescale
        {
            stop = (s.sim.time() - (end - config.duration_over_timescale * timescale)) / timescale;
        } else if k >= 1e-4 * peak {
            stop = f64::NAN;
        }
    }
    let wall = t0.elapsed().as_secs_f64();
    let x = s.positions();
    let along: Vec<f64> = x.iter().map(|p| p.x).collect();
    let up: Vec<f64> = x.iter().map(|p| p.y).collect();
    let deposit = Deposit::measure(&along, &up, dx);
    Ok(PlanarCollapseReport {
        aspect: config.aspect,
        spacing: dx,
        particles: x.len(),
        runout_toe: (deposit.toe - d) / d,
        runout_thickness: (deposit.thickness_front(FRONT_THICKNESS * d) - d) / d,
        runout_front: (deposit.connected_front - d) / d,
        height: deposit.height / d,
        slope_degrees: deposit.slope_degrees,
        stop_time: stop,
        steps,
        simulated: s.sim.time(),
        wall,
    })
}
