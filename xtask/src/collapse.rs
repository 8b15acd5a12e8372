//! `cargo xtask collapse`: the axisymmetric granular column collapse of
//! `scenes/sand_collapse_3d.toml` with its step, iterations, resolution, base friction and XSPH
//! rate overridden; prints one JSON line with the deposit (runout, height, slope,
//! nearest-neighbour statistics), the steps taken and the cost of a simulated second.
//! `--planar` runs the planar collapse in a channel instead
//! (`xpbi_validation::planar_collapse`: aspect ratio, particles across the column), with the
//! laboratory's runout and height beside the deposit.
//!
//! ## On the default Mohr–Coulomb pyramid (measured with this command)
//!
//! Runout (r − r₀)/r₀ and height over h₀ of the deposit at 1.2 s, a = 1, 10 iterations, one
//! thread (`--scene` on a copy of the scene with `cone = "mohr_coulomb"` before it became the
//! default; the laboratory, Lube et al. 2004: ≈ 1.24):
//!
//! | Δx, Δt ≤ | toe | r₉₅ | r₉₉ | connected front | top |
//! |---|---|---|---|---|---|
//! | 5 mm, 2.5e-4 s (3160 particles) | 1.145 | 0.5565 | 0.7011 | 0.876 | 0.852 |
//! | 5 mm, 1.25e-4 s | 1.212 | 0.5573 | 0.7036 | 0.911 | 0.858 |
//! | 2.5 mm, 1.25e-4 s (25 280 particles, 30 min) | 0.993 | 0.6500 | 0.8164 | 1.054 | 0.837 |
//!
//! Converged in Δt (r₉₉ within 0.7 % per halving from 1e-3 s down, `cargo xtask report --only
//! collapse`), not in Δx: one halving of the spacing moves the runouts by 16–18 % and the top by
//! 2.4 % (on the shear-flow cone: toe 1.40 → 1.10, r₉₉ 0.78 → 0.93, top 0.76 → 0.735).
//!
//! ## What limits the step (measured with this command, Δx = 5 mm, 3160 particles)
//!
//! Measured with Klár's triaxial-compression cone, before the shear-flow cone became the
//! default (`xpbi_continuum::plasticity::FrictionCone`). The runout at the 95th percentile of
//! the radius, 10 iterations unless stated:
//!
//! | Young's modulus E | Δt = 1e-3 s | 5e-4 s | 2.5e-4 s | 1.25e-4 s |
//! |-------------------|-------------|--------|----------|-----------|
//! | 8.75e4 Pa (E/4)   | 0.5446      | 0.5307 | 0.5333   |           |
//! | 3.5e5 Pa (scene)  | 0.5654      | 0.5445 | 0.5341   | 0.5295    |
//! | 1.4e6 Pa (4E)     | 0.5758      | 0.5561 |          |           |
//!
//! (`--scene` on a copy of the scene with `youngs` changed.) The scene's error is first order
//! (3.8 %, 1.9 %, 0.9 % per halving) and is not an iteration error: at Δt = 1e-3 s, 20 and 40
//! iterations give 0.5609 and 0.5618. It grows with the stiffness, i.e. with how many
//! particles an elastic wave crosses in one step (c Δt/Δx = √(E/ρ) Δt/Δx ≈ 1.5, 3 and 6 at
//! 1e-3 s): implicit Euler damps the resolved elastic response, and the flow it carries,
//! by an amount set by c Δt/Δx. At small steps the deposit barely depends on E (0.5333
//! against 0.5341 between E/4 and E at 2.5e-4 s), so a softer sand (E/4 still keeps the
//! column's elastic strain ρ g h₀/E below 1 %) is 2.1 % from its converged deposit at
//! Δt = 1e-3 s, where the scene's sand is about 7 % away.
//!
//! Over-relaxing the XPBD update (Δλ scaled by ω, which keeps the fixed point) does not buy
//! iterations: at Δt = 1e-3 s with 5 iterations ω = 0.8 / 1.0 / 1.2 / 1.5 give 0.5997 /
//! 0.5998 / 0.6057 / 0.6050, and with 10 iterations ω = 1.5 gives 0.5736 against 0.5654; so
//! the solver keeps ω = 1.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use xpbd_core::Vector;
use xpbd_scene::{SceneDesc, build_scene};
use xpbi_continuum::plasticity::{FrictionCone, InertialFriction, PlasticModel};
use xpbi_continuum::xsph::Xsph;
use xpbi_validation::observables::{Deposit, percentile, pile_observables};
use xpbi_validation::planar_collapse::{self, PlanarCollapseConfig};

#[derive(Args, Debug, Clone)]
pub struct CollapseArgs {
    /// Largest (adaptive) step Δt (s).
    #[arg(long, default_value_t = 2.5e-4)]
    pub dt_max: f64,
    /// Solver iterations per step.
    #[arg(long, default_value_t = 10)]
    pub iterations: usize,
    /// Particle spacing Δx (m).
    #[arg(long, default_value_t = 0.005)]
    pub spacing: f64,
    /// Simulated time (s).
    #[arg(long, default_value_t = 1.2)]
    pub seconds: f64,
    /// Coulomb coefficient of the ground.
    #[arg(long, default_value_t = 0.6)]
    pub friction: f64,
    /// XSPH rate κ (1/s); absent: the library default.
    #[arg(long)]
    pub xsph_rate: Option<f64>,
    /// Turn XPBI's position correction off (pairs kept ≥ 0.75 r apart).
    #[arg(long)]
    pub no_position_correction: bool,
    /// XSPH as the paper's per-step coefficient c instead of a rate.
    #[arg(long)]
    pub xsph_per_step: Option<f64>,
    /// Worker threads (results do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The scene file.
    #[arg(long, default_value = "scenes/sand_collapse_3d.toml")]
    pub scene: PathBuf,
    /// The planar collapse in a channel instead (plane strain, a column of length dᵢ = 5 cm
    /// against a frictionless end wall), against the laboratory laws of Lube et al. (2005).
    #[arg(long, conflicts_with_all = ["scene", "spacing", "seconds"])]
    pub planar: bool,
    /// Planar: the aspect ratio a = hᵢ/dᵢ.
    #[arg(long, default_value_t = 1.0, requires = "planar")]
    pub aspect: f64,
    /// Planar: particles across the column's length dᵢ (Δx = dᵢ/n).
    #[arg(long, default_value_t = 20, requires = "planar")]
    pub across: usize,
    /// Planar: the sand's Drucker–Prager friction angle (degrees).
    #[arg(long, default_value_t = 32.0, requires = "planar")]
    pub friction_angle: f64,
    /// Planar: the μ(I) rheology on top of the friction angle (φ₂ = 45°, I₀ = 0.279, grains
    /// of 0.5 mm and 2650 kg/m³).
    #[arg(long, requires = "planar")]
    pub mu_i: bool,
    /// Planar: Klár's triaxial-compression cone for the friction angle instead of the
    /// shear-flow cone (`xpbi_continuum::plasticity::FrictionCone`).
    #[arg(long, requires = "planar")]
    pub klar_cone: bool,
}

/// The deposit of one collapse and what it cost.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct CollapseLine {
    pub scene: String,
    pub particles: usize,
    pub spacing_m: f64,
    pub dt_max_s: f64,
    pub iterations: usize,
    pub friction: f64,
    pub threads: usize,
    pub steps: usize,
    pub dt_min_s: f64,
    pub dt_taken_max_s: f64,
    pub halvings: u32,
    /// (r₉₉ − r₀)/r₀ with r₉₉ the 99th percentile of the distance from the axis.
    pub runout: f64,
    /// (r₉₅ − r₀)/r₀.
    pub runout95: f64,
    /// 99th percentile of z over the initial height.
    pub height: f64,
    pub slope_degrees: f64,
    /// (toe − r₀)/r₀: the deposit's flank (radial profile, tops between 20 % and 60 % of its
    /// height) extended to the floor (`xpbi_validation::observables::Deposit`).
    #[serde(default)]
    pub runout_toe: f64,
    /// (front − r₀)/r₀ where the radial profile thins below 5 % of r₀.
    #[serde(default)]
    pub runout_thickness: f64,
    /// (connected front − r₀)/r₀: the edge of the farthest particle still touching the heap.
    #[serde(default)]
    pub runout_front: f64,
    /// The top edge of the highest particle over h₀.
    #[serde(default)]
    pub height_top: f64,
    pub nn_mean_over_spacing: f64,
    pub nn_std_over_spacing: f64,
    pub wall_s: f64,
    pub us_per_particle_simulated_second: f64,
}

impl CollapseArgs {
    /// The scene's defaults with another step cap, iteration count and spacing.
    pub fn new(dt_max: f64, iterations: usize, spacing: f64) -> Self {
        Self {
            dt_max,
            iterations,
            spacing,
            seconds: 1.2,
            friction: 0.6,
            xsph_rate: None,
            no_position_correction: false,
            xsph_per_step: None,
            threads: 1,
            scene: PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../scenes/sand_collapse_3d.toml"),
            planar: false,
            aspect: 1.0,
            across: 20,
            friction_angle: 32.0,
            mu_i: false,
            klar_cone: false,
        }
    }

    /// The planar collapse of aspect `a` with `n` particles across dᵢ, the other settings
    /// their defaults.
    pub fn planar(aspect: f64, across: usize) -> Self {
        Self {
            planar: true,
            aspect,
            across,
            ..Self::new(2.5e-4, 10, 0.005)
        }
    }

    /// The planar configuration these arguments describe.
    pub fn planar_config(&self) -> Result<PlanarCollapseConfig> {
        if !(self.aspect.is_finite() && self.aspect > 0.0) {
            anyhow::bail!("--aspect must be finite and > 0, got {}", self.aspect);
        }
        if self.across < 2 {
            anyhow::bail!("--across must be at least 2, got {}", self.across);
        }
        let mut c = PlanarCollapseConfig::new(self.aspect, self.across);
        let cone = if self.klar_cone {
            FrictionCone::TriaxialCompression
        } else {
            FrictionCone::default()
        };
        c.material = xpbi_continuum::material::Material::sand_on_cone(self.friction_angle, cone);
        if let PlasticModel::DruckerPrager(dp) = &mut c.material.plasticity
            && self.mu_i
        {
            dp.inertial = Some(InertialFriction {
                dynamic_angle: 45.0,
                i0: 0.279,
                grain_diameter: 5e-4,
                grain_density: 2650.0,
            });
        }
        c.base_friction = self.friction;
        c.dt_max = self.dt_max;
        c.iterations = self.iterations;
        c.threads = self.threads;
        if let Some(k) = self.xsph_rate {
            c.xsph = Xsph::Rate(k);
        }
        if let Some(k) = self.xsph_per_step {
            c.xsph = Xsph::PerStep(k);
        }
        if self.no_position_correction {
            c.position_correction = false;
        }
        Ok(c)
    }
}

/// The deposit of one planar collapse (lengths over dᵢ), the laboratory's and the cost.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct PlanarLine {
    pub scene: String,
    pub aspect: f64,
    pub particles_across: usize,
    pub spacing_m: f64,
    pub particles: usize,
    pub friction_angle: f64,
    /// The μ(I) rheology was on.
    pub mu_i: bool,
    /// Klár's triaxial-compression cone instead of the shear-flow cone.
    #[serde(default)]
    pub klar_cone: bool,
    pub friction: f64,
    pub dt_max_s: f64,
    pub iterations: usize,
    pub threads: usize,
    pub steps: usize,
    /// (toe − dᵢ)/dᵢ: the flank's straight part extended to the floor.
    pub runout_toe: f64,
    /// (front − dᵢ)/dᵢ where the deposit thins below 5 % of dᵢ.
    pub runout_thickness: f64,
    /// (connected front − dᵢ)/dᵢ (does not converge under refinement).
    pub runout_front: f64,
    /// h∞/dᵢ.
    pub height: f64,
    pub slope_degrees: f64,
    /// When the flow stopped, over √(hᵢ/g).
    pub stop_time: f64,
    /// Lube et al. (2005): 1.2a or 1.9a^{2/3}.
    pub lab_runout: f64,
    /// a below a = 0.7, a^{1/3} above (Lajeunesse et al. 2005).
    pub lab_height: f64,
    pub wall_s: f64,
    pub us_per_particle_simulated_second: f64,
}

/// Runs one planar collapse.
pub fn run_planar(args: &CollapseArgs) -> Result<PlanarLine> {
    let c = args.planar_config()?;
    let r = planar_collapse::run(&c).context("the planar collapse")?;
    Ok(PlanarLine {
        scene: "xpbi_planar_collapse".into(),
        aspect: c.aspect,
        particles_across: c.particles_across,
        spacing_m: r.spacing,
        particles: r.particles,
        friction_angle: args.friction_angle,
        mu_i: args.mu_i,
        klar_cone: args.klar_cone,
        friction: c.base_friction,
        dt_max_s: c.dt_max,
        iterations: c.iterations,
        threads: c.threads,
        steps: r.steps,
        runout_toe: r.runout_toe,
        runout_thickness: r.runout_thickness,
        runout_front: r.runout_front,
        height: r.height,
        slope_degrees: r.slope_degrees,
        stop_time: r.stop_time,
        lab_runout: planar_collapse::lube_runout(c.aspect),
        lab_height: planar_collapse::laboratory_height(c.aspect),
        wall_s: r.wall,
        us_per_particle_simulated_second: r.wall / r.simulated / r.particles as f64 * 1e6,
    })
}

pub fn run_collapse(args: &CollapseArgs) -> Result<CollapseLine> {
    let mut scene = SceneDesc::load(&args.scene)?;
    let (r0, h0) = match scene.continuum.first().and_then(|c| c.region.as_ref()) {
        Some(xpbd_scene::continuum::RegionSpec::Cylinder { radius, height, .. }) => {
            (*radius, *height)
        }
        _ => anyhow::bail!(
            "{}: the first continuum must be a cylinder",
            args.scene.display()
        ),
    };
    scene.time.dt_max = Some(args.dt_max);
    scene.time.frames = (args.seconds / scene.time.dt).round().max(1.0) as usize;
    scene.solver.iterations = args.iterations;
    scene.solver.threads = args.threads;
    scene.continuum[0].spacing = args.spacing;
    if let Some(k) = args.xsph_rate {
        scene.continuum[0].xpbi.xsph_rate = Some(k);
    }
    if let Some(c) = args.xsph_per_step {
        scene.continuum[0].xpbi.xsph = Some(c);
    }
    if args.no_position_correction {
        scene.continuum[0].xpbi.position_correction = false;
    }
    if let Some(c) = scene.contacts.as_mut() {
        c.radius = 0.5 * args.spacing;
    }
    for c in &mut scene.collider {
        c.friction = args.friction;
    }
    let mut s = build_scene(scene, &args.scene).context("building the collapse")?;
    let t = Instant::now();
    for _ in 0..s.scene.time.frames {
        s.advance_frame()?;
    }
    let wall = t.elapsed().as_secs_f64();
    let x = &s.sim.particles().x;
    let n = x.len();
    let r: Vec<f64> = x.iter().map(|p| p.xy().norm()).collect();
    let ob = pile_observables(x, &Vector::<3>::zeros(), args.spacing);
    let z: Vec<f64> = x.iter().map(|p| p.z).collect();
    let deposit = Deposit::measure(&r, &z, args.spacing);
    Ok(CollapseLine {
        scene: "xpbi_collapse_3d".into(),
        particles: n,
        spacing_m: args.spacing,
        dt_max_s: args.dt_max,
        iterations: args.iterations,
        friction: args.friction,
        threads: args.threads,
        steps: s.steps.steps,
        dt_min_s: s.steps.dt_min,
        dt_taken_max_s: s.steps.dt_max,
        halvings: s.steps.halvings,
        runout: (percentile(&r, 99.0) - r0) / r0,
        runout95: (percentile(&r, 95.0) - r0) / r0,
        height: ob.height / h0,
        slope_degrees: ob.slope_degrees,
        runout_toe: (deposit.toe - r0) / r0,
        runout_thickness: (deposit.thickness_front(0.05 * r0) - r0) / r0,
        runout_front: (deposit.connected_front - r0) / r0,
        height_top: deposit.height / h0,
        nn_mean_over_spacing: ob.nn_mean,
        nn_std_over_spacing: ob.nn_std,
        wall_s: wall,
        us_per_particle_simulated_second: wall / s.sim.time() / n as f64 * 1e6,
    })
}

pub fn run_command(args: CollapseArgs) -> Result<()> {
    if args.planar {
        println!("{}", serde_json::to_string(&run_planar(&args)?)?);
    } else {
        println!("{}", serde_json::to_string(&run_collapse(&args)?)?);
    }
    Ok(())
}
