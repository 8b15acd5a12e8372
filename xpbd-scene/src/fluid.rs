//! `[[fluid]]`: liquid water in the same simulation as the other bodies, as position-based
//! fluid particles ([`xpbi_continuum::fluid::PbfFluid`]: one density constraint per particle,
//! XSPH viscosity), on a lattice of spacing Δx filling a region.
//!
//! ```toml
//! [[fluid]]
//! name = "water"
//! region = { box = { min = [0.0, 0.0, 0.0], max = [0.1, 0.1, 0.2] } }   # box | ball | cylinder
//! # region = { nozzle = { exit = [0, 0, 0.3], radius = 0.01, speed = 0.5, duration = 0.2 } }
//! # region = { mesh = { path = "shapes/tank.obj", scale = 1.0, translation = [0, 0, 0] } }
//! spacing = 0.01              # Δx (m); each particle weighs ρ₀Δx³
//! rest_density = 1000.0       # ρ₀ (kg/m³), default water's
//! viscosity = 1.0e-3          # dynamic viscosity μ (Pa·s), default water's; through XSPH
//! # bulk_modulus = 2.2e9      # K (Pa): compliance 1/(K Δx³); absent = incompressible
//! velocity = [0.0, 0.0, 0.0]  # initial, m/s
//! # vorticity_confinement = 0.25  # ε ≥ 0, dimensionless; default 0 (off)
//! ```
//!
//! How it meets the rest of the scene:
//! * **Colliders**: its particles keep their centres ½Δx from collider surfaces, with the
//!   collider's friction.
//! * **Other bodies**: a fluid touches every other body by default, as a continuum does
//!   ([`crate::interaction`]: contacts of radius ½Δx, point–triangle against a cloth, so no
//!   water particle crosses a sheet), and every particle of a continuum, cloth, rope or solid
//!   enters the fluid's density sum as a solid neighbour (Akinci et al. 2012), with the
//!   volume `κ_W / Σ_k W(x_b − x_k)` over its own body's particles (Δx³ inside a lattice
//!   body), so the water rests on sand and cloth at its own density and pushes them back.
//! * **Sand and water at their boundary**: the water pushes sand through its pressure (the
//!   density constraint's solid neighbours) and through contact friction where the two are
//!   pressed together, so sand is carried where the flow drives into it (an impinging jet
//!   scours a crater, a surge breaches a dam) and a bed under still water loses nothing.
//! * **Not modelled**: pore pressure and drag of water through a granular body (water and sand
//!   meet at their boundary only), and the shear stress of a boundary layer: a flow parallel to
//!   a flat bed, which at this resolution presses nowhere into it, does not erode it.

use serde::{Deserialize, Serialize};
use xpbd_core::Vector;
use xpbd_core::spatial::UniformGrid;
use xpbi_continuum::fluid::{FluidSettings, lattice_kernel_sum};
use xpbi_continuum::kernel::WendlandC2;

use crate::continuum::ContinuumSpec;
use crate::region::RegionSpec;
use crate::validate::Validator;

/// `[[fluid]]`: a body of liquid (module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FluidSpec {
    /// The body's name, for `[[interaction]]` (default: its field, e.g. `fluid[0]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Where the particles are (a box, ball or cylinder), or the reservoir of a nozzle that
    /// pours them (released below its exit, every step; [`crate::emitter`]).
    pub region: RegionSpec,
    /// Particle spacing Δx (m).
    pub spacing: f64,
    /// Rest density ρ₀ (kg/m³, > 0).
    #[serde(default = "water_density")]
    pub rest_density: f64,
    /// Dynamic viscosity μ (Pa·s, ≥ 0).
    #[serde(default = "water_viscosity")]
    pub viscosity: f64,
    /// Bulk modulus K (Pa, > 0); absent: incompressible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bulk_modulus: Option<f64>,
    /// Initial velocity of every particle (m/s).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub velocity: [f64; 3],
    /// Vorticity confinement ε (dimensionless, ≥ 0; 0 = off;
    /// [`xpbi_continuum::fluid`]: a = ε Δx |ω| (N × ω)).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub vorticity_confinement: f64,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

fn water_density() -> f64 {
    1000.0
}

fn water_viscosity() -> f64 {
    1e-3
}

impl FluidSpec {
    /// Water at rest filling `region` at spacing Δx (m).
    pub fn water(region: RegionSpec, spacing: f64) -> Self {
        Self {
            name: None,
            region,
            spacing,
            rest_density: water_density(),
            viscosity: water_viscosity(),
            bulk_modulus: None,
            velocity: [0.0; 3],
            vorticity_confinement: 0.0,
        }
    }

    /// The library's settings of this fluid.
    pub fn settings(&self) -> FluidSettings {
        FluidSettings {
            spacing: self.spacing,
            rest_density: self.rest_density,
            bulk_modulus: self.bulk_modulus,
            viscosity: self.viscosity,
            vorticity_confinement: self.vorticity_confinement,
            ..FluidSettings::water(self.spacing)
        }
    }
}

/// Range checks of `fluid[k]`, by field and value.
pub(crate) fn validate(v: &mut Validator<'_>, k: usize, f: &FluidSpec) {
    let field = |s: &str| format!("fluid[{k}].{s}");
    v.length(&field("spacing"), f.spacing);
    v.positive(&field("rest_density"), f.rest_density);
    v.non_negative(&field("viscosity"), f.viscosity);
    if let Some(b) = f.bulk_modulus {
        v.positive(&field("bulk_modulus"), b);
    }
    v.finite3(&field("velocity"), f.velocity);
    v.non_negative(&field("vorticity_confinement"), f.vorticity_confinement);
    let as_continuum = ContinuumSpec::new("", f.region.clone(), f.spacing);
    crate::continuum::validate_region(v, &field("region"), &f.region, &as_continuum);
    if f.spacing.is_finite() && f.spacing > 0.0 {
        let n = f.region.lattice_count(f.spacing);
        crate::region::check_lattice(v, &format!("fluid[{k}]"), Some(&f.region), f.spacing, n);
    }
}

/// Akinci's boundary volumes `κ_W / Σ_k W(x_b − x_k)` of the particles `x` of one body, for
/// the kernel of a fluid of spacing Δx (the sum over the body's own particles, itself
/// included): Δx³ for a particle inside a lattice of spacing Δx.
pub(crate) fn boundary_volumes(x: &[Vector<3>], spacing: f64) -> Vec<f64> {
    let settings = FluidSettings::water(spacing);
    let Ok(kernel) = WendlandC2::<3>::new(settings.support_over_spacing * spacing) else {
        return vec![spacing.powi(3); x.len()];
    };
    let kappa = lattice_kernel_sum(&kernel, spacing);
    let Ok(grid) = UniformGrid::build(x, kernel.support()) else {
        return vec![spacing.powi(3); x.len()];
    };
    x.iter()
        .map(|p| {
            let mut sum = 0.0;
            grid.for_each_within(x, p, kernel.support(), |j| {
                sum += kernel.value((p - x[j]).norm());
            });
            // κ_W Δx^d / (Σ W): Δx^d when the sum is a full lattice's.
            kappa / sum.max(kernel.value(0.0))
        })
        .collect()
}

/// A fluid's particles and settings, between sampling and block construction.
#[derive(Debug, Clone)]
pub struct FluidPlan {
    /// The fluid's table in the description (`fluid[0]`).
    pub field: String,
    /// Its particles in the store.
    pub members: std::ops::Range<usize>,
    /// Its lattice spacing Δx (m).
    pub spacing: f64,
    /// Its PBF settings.
    pub settings: FluidSettings,
}

/// The particle store a scene is being assembled into: its particles, their material ids,
/// the bodies so far and every body's `(field, name, touches by default)` in build order.
pub(crate) struct Store<'a> {
    pub(crate) particles: &'a mut xpbd_core::Particles<3>,
    pub(crate) topology: &'a mut crate::export::Topology,
    pub(crate) bodies: &'a mut Vec<crate::interaction::Body>,
    pub(crate) names: &'a [(String, String, bool)],
    pub(crate) file: &'a std::path::Path,
}

/// Appends every fluid's lattice particles (mass ρ₀Δx³, its velocity; a nozzle's reservoir
/// kinematic, driven by an [`crate::emitter::Emitter`]) and records the body; each fluid's
/// material id is a name appended to the topology's material names.
pub(crate) fn add_particles(
    store: Store<'_>,
    fluids: &[FluidSpec],
    emitters: &mut Vec<crate::emitter::Emitter>,
) -> Result<Vec<FluidPlan>, crate::SceneError> {
    let mut out = Vec::new();
    for (k, f) in fluids.iter().enumerate() {
        let field = format!("fluid[{k}]");
        let x = f.region.sample(f.spacing, store.file, &field)?;
        if x.is_empty() {
            return Err(crate::SceneError::InvalidValue {
                file: store.file.to_path_buf(),
                line: 0,
                field: format!("{field}.region"),
                value: format!("{:?}", f.region),
                reason: "no lattice point of the spacing lies in the region",
            });
        }
        let (_, name, _) = store.names[store.bodies.len()].clone();
        let material = store.topology.material_names.len() as u32;
        store.topology.material_names.push(name.clone());
        let m = f.rest_density * f.spacing.powi(3);
        let nozzle = match &f.region {
            RegionSpec::Nozzle(n) => Some(n),
            _ => None,
        };
        let base = store.particles.len();
        for p in &x {
            // A nozzle's reservoir is kinematic until released (inverse mass 0 here).
            let w = if nozzle.is_some() { 0.0 } else { 1.0 / m };
            store.particles.push(*p, w);
            store.topology.particle_material.push(material);
        }
        for v in &mut store.particles.v[base..] {
            *v = Vector::<3>::from(f.velocity);
        }
        if let Some(n) = nozzle {
            let ids: Vec<usize> = (base..base + x.len()).collect();
            for &i in &ids {
                store.particles.v[i] = Vector::<3>::new(0.0, 0.0, -n.speed);
            }
            emitters.push(crate::emitter::Emitter {
                field: field.clone(),
                nozzle: xpbi_continuum::emitter::Nozzle::new(
                    ids,
                    Vector::<3>::from(n.exit),
                    n.radius,
                    n.speed,
                    f.spacing,
                    n.reservoir(f.spacing).1,
                    1.0 / m,
                ),
            });
        }
        store.bodies.push(crate::interaction::Body {
            name,
            field: field.clone(),
            kind: crate::interaction::BodyKind::Fluid,
            particles: base..base + x.len(),
            radius: 0.5 * f.spacing,
            triangles: Vec::new(),
        });
        out.push(FluidPlan {
            field,
            members: base..base + x.len(),
            spacing: f.spacing,
            settings: f.settings(),
        });
    }
    Ok(out)
}

/// One [`PbfFluid`](xpbi_continuum::fluid::PbfFluid) block per fluid, every particle of every
/// other non-fluid body its solid neighbours (volumes from [`boundary_volumes`] per body).
/// `fixed_substep`: the substep Δt/substeps of fixed steps (checked against the fluid's CFL
/// bound here, by field), `None` for adaptive steps.
pub(crate) fn add_blocks(
    sim: &mut xpbd_core::Simulation<3>,
    fluids: Vec<FluidPlan>,
    specs: &[FluidSpec],
    bodies: &[crate::interaction::Body],
    fixed_substep: Option<f64>,
    file: &std::path::Path,
) -> Result<
    Vec<xpbd_core::simulation::BlockHandle<xpbi_continuum::fluid::PbfFluid<3>>>,
    crate::SceneError,
> {
    use crate::interaction::BodyKind;
    let mut out = Vec::new();
    for f in fluids {
        let mut boundary = Vec::new();
        let mut volumes = Vec::new();
        for b in bodies.iter().filter(|b| b.kind != BodyKind::Fluid) {
            let x = &sim.particles().x[b.particles.clone()];
            volumes.extend(boundary_volumes(x, f.spacing));
            boundary.extend(b.particles.clone().map(|i| i as u32));
        }
        let err = |source| crate::SceneError::Continuum {
            file: file.to_path_buf(),
            field: f.field.clone(),
            source: Box::new(source),
        };
        let members: Vec<u32> = f.members.clone().map(|i| i as u32).collect();
        let mut block = xpbi_continuum::fluid::PbfFluid::new(sim.particles(), members, f.settings)
            .map_err(err)?;
        if !boundary.is_empty() {
            block = block
                .with_boundary(sim.particles(), boundary, volumes)
                .map_err(err)?;
        }
        // Fixed steps: the fluid's CFL bound at the start, refused here by field.
        let bound = xpbd_core::constraint::ConstraintKind::max_substep(&block, sim.particles());
        if let (Some(h), Some(b)) = (fixed_substep, bound)
            && h > b.h
        {
            return Err(crate::SceneError::InvalidValue {
                file: file.to_path_buf(),
                line: 0,
                field: format!("{}.velocity", f.field),
                value: format!("{:?}", specs[out.len()].velocity),
                reason: "the substep dt/substeps exceeds the CFL bound 0.4 * spacing / |velocity|",
            });
        }
        out.push(
            sim.add_constraints(block)
                .map_err(crate::SceneError::build_at(file, f.field.clone()))?,
        );
    }
    Ok(out)
}
