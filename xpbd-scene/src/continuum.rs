//! `[[continuum]]`: XPBI continua (Yu et al., SIGGRAPH Asia 2024) in scene files.
//!
//! A continuum is a region (box, ball or vertical cylinder, less any `exclude` cut-outs; see
//! [`crate::region`]) filled with particles on a cubic lattice of spacing Δx (centres
//! `min + (i + ½)Δx` inside the region), or an extrusion nozzle's reservoir (released below the
//! exit by [`crate::emitter::Emitter`] in every [`crate::BuiltScene::step`]), each of mass ρΔx³ and
//! rest volume Δx³ (as `xpbi_continuum::scene::ContinuumScene`), solved by one
//! [`xpbi_continuum::continuum::XpbiContinuum`] block (plus XPBI's position correction) in the
//! same [`xpbd_core::Simulation`] as the cloth, ropes and soft bodies, with the scene's colliders
//! (`xpbd_core::contact`; continuum particles get the contact radius ½Δx, so their centres stay
//! ½Δx from every collider surface). A continuum touches every other body (other continua,
//! cloth, ropes, soft bodies) through body contacts, never through its kernel estimate, so
//! separate bodies do not stick ([`crate::interaction`]).
//!
//! The material is a `[materials.NAME]` entry with a `plasticity` model or a `preset`
//! ([`Preset`]: sand, snow, clay, metal, toothpaste, honey, with the SI values of
//! `xpbi_continuum::Material`'s constructors; fields given next to a preset override it).
//! A body of several materials lists `[[continuum.layer]]` entries instead of `material` and
//! `region` ([`LayerSpec`]; a lattice point belongs to the first layer whose region holds it,
//! see [`crate::layers`]).
//!
//! **2D scenes** are written as plane-strain slabs one particle thick (e.g. `min.y = −½Δx`,
//! `max.y = ½Δx`): the moment matrix `M_p` then has no y extent, its pseudo-inverse drops that
//! direction (`xpbi_continuum::correction`), so ∂v/∂y = 0, F_yy stays 1 and nothing moves along
//! y. This is plane strain, not the 2D kernels of `ContinuumScene<2>`; the validation studies of
//! xpbi-continuum stay in that crate's tests.

use serde::{Deserialize, Serialize};
use xpbd_core::Vector;
use xpbi_continuum::continuum::{KernelFrame, SweepOrder, XpbiSettings};
use xpbi_continuum::plasticity::{PlasticModel, check_friction_angle};
use xpbi_continuum::xsph::Xsph;

pub use crate::layers::LayerSpec;
pub use crate::region::{ExcludeSpec, HalfSpaceSpec, NozzleSpec, RegionSpec};
use crate::validate::Validator;

/// `[[continuum]]`: particles sampled in a region, solved by XPBI.
///
/// Either one `material` and one `region`, or a list of `[[continuum.layer]]` entries (a
/// body of several materials, see [`LayerSpec`]); not both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContinuumSpec {
    /// The body's name, for `[[interaction]]` (default: its field, e.g. `continuum[0]`).
    #[serde(default)]
    pub name: Option<String>,
    /// Material name (needs `youngs`, directly or from a preset; `plasticity` absent = elastic).
    /// With `region`; absent when `layer` is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<String>,
    /// Where the particles are. With `material`; absent when `layer` is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<RegionSpec>,
    /// The layers of a body of several materials, instead of `material` + `region`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layer: Vec<LayerSpec>,
    /// Particle spacing Δx (m).
    pub spacing: f64,
    /// Initial velocity of every particle (m/s).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub velocity: [f64; 3],
    /// Particles inside this box are pinned (inverse mass 0; e.g. a cantilever's clamp).
    #[serde(default)]
    pub pin: Option<BoxSpec>,
    /// Grips: particles inside a grip's box are kinematic and move at its constant velocity
    /// (e.g. a clay bar pulled at both ends). Checked after `pin`.
    #[serde(default)]
    pub grips: Vec<GripSpec>,
    /// Regions removed from `region` (e.g. a V notch cut out of a block): a lattice point is
    /// dropped when it lies inside any of them by more than 10⁻⁹Δx, so points on an excluded
    /// region's boundary are kept (the `≤` of xpbi-continuum's notched-block filter).
    #[serde(default)]
    pub exclude: Vec<ExcludeSpec>,
    /// XPBI settings.
    #[serde(default)]
    pub xpbi: XpbiSection,
}

impl ContinuumSpec {
    /// Lattice points of the body's bounding box at the spacing (an upper bound on the
    /// particle count, without sampling; e.g. to cap fuzzed scenes).
    pub fn lattice_points(&self) -> f64 {
        match (&self.region, self.layer.is_empty()) {
            (Some(r), true) => r.lattice_count(self.spacing),
            _ => crate::layers::lattice_count(&self.layer, self.spacing),
        }
    }
}

/// An axis-aligned box `[min, max]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxSpec {
    /// Minimum corner (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub min: [f64; 3],
    /// Maximum corner (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub max: [f64; 3],
}

impl BoxSpec {
    fn contains(&self, p: &Vector<3>) -> bool {
        (0..3).all(|a| p[a] >= self.min[a] && p[a] <= self.max[a])
    }
}

/// `grips = [{ min = [..], max = [..], velocity = [..] }]`: a kinematic box.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GripSpec {
    /// Minimum corner (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub min: [f64; 3],
    /// Maximum corner (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub max: [f64; 3],
    /// Velocity of the gripped particles (m/s): before every step of Δt each gets the
    /// kinematic target x + Δt·velocity (reached at the end of the step, linearly over substeps).
    #[serde(deserialize_with = "crate::exact::array")]
    pub velocity: [f64; 3],
}

/// `[continuum.xpbi]`: maps onto [`XpbiSettings`]; every field is optional (defaults below,
/// [`XpbiSettings::new`]'s). The section is the scene file's view, not a copy of the settings:
/// the spacing is the body's, XSPH is two keys (`xsph`, `xsph_rate`) for one [`Xsph`], the
/// position correction is a block beside the continuum, and the settings' layout and colouring
/// knobs are not in the file; its enumerations are the library's own ([`KernelFrame`],
/// [`SweepOrder`], read through xpbi-continuum's `serde` feature).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct XpbiSection {
    /// Kernel support over spacing (default 2).
    pub support_over_spacing: f64,
    /// XSPH as the paper's per-step coefficient c ∈ [0, 1]; its effect per unit time is ∝ c/Δt,
    /// so results change with the step. Absent by default: `xsph_rate` is used.
    pub xsph: Option<f64>,
    /// XSPH as a relaxation rate κ (1/s, default ≈ 100.5: c = 0.01 at Δt = 1e-4 s): c = 1 − e^{−κΔt}
    /// per step, the same smoothing per unit time at any step (`xpbi_continuum::xsph`). Not
    /// together with `xsph`.
    pub xsph_rate: Option<f64>,
    /// Implicit plasticity (Z in every iteration, default) or semi-implicit (end of step).
    pub plasticity_in_loop: bool,
    /// XPBI's position correction: pairs kept ≥ 0.75 r apart, r = 1.1Δx (default on;
    /// `xpbi_continuum::contact`).
    pub position_correction: bool,
    /// Pseudo-inverse threshold of the kernel-gradient correction (default 1e-2).
    pub pinv_threshold: f64,
    /// Courant number: Δt/substeps ≤ cfl · spacing / |v₀| is checked at build (default 0.4).
    pub cfl: f64,
    /// Building fails if two particles are closer than this × spacing (default 0.5).
    pub min_distance_ratio: f64,
    /// Where kernels, neighbours and L_p are evaluated: `"current"` (XPBI: on xⁿ every step,
    /// default) or `"reference"` (Lagrangian kernels on the initial configuration, free of the
    /// SPH tensile instability; for elastic solids, see `xpbi_continuum::continuum::KernelFrame`).
    pub kernel_frame: KernelFrame,
    /// Grouping of the coloured Gauss–Seidel sweep: `"slabs"` (two colours of slabs across the
    /// longest axis, default; cells below 4 occupied slabs) or `"cells"` (3^d cell colours, the
    /// GPU's order). An ordering, not a model: both converge to the same answer as the
    /// iterations grow (`xpbi_continuum::continuum::SweepOrder`).
    pub sweep: SweepOrder,
}

impl Default for XpbiSection {
    fn default() -> Self {
        let s = XpbiSettings::new(1.0);
        Self {
            support_over_spacing: s.support_over_spacing,
            xsph: None,
            xsph_rate: None,
            plasticity_in_loop: s.plasticity_in_loop,
            position_correction: true,
            pinv_threshold: s.pinv_threshold,
            cfl: s.cfl,
            min_distance_ratio: s.min_distance_ratio,
            kernel_frame: s.kernel_frame,
            sweep: s.sweep,
        }
    }
}

impl XpbiSection {
    /// The XPBI settings for a spacing.
    pub fn settings(&self, spacing: f64) -> XpbiSettings {
        XpbiSettings {
            spacing,
            support_over_spacing: self.support_over_spacing,
            pinv_threshold: self.pinv_threshold,
            plasticity_in_loop: self.plasticity_in_loop,
            xsph: match (self.xsph, self.xsph_rate) {
                (Some(c), _) => Xsph::PerStep(c),
                (None, Some(k)) => Xsph::Rate(k),
                (None, None) => Xsph::default(),
            },
            cfl: self.cfl,
            min_distance_ratio: self.min_distance_ratio,
            kernel_frame: self.kernel_frame,
            sweep: self.sweep,
            ..XpbiSettings::new(spacing)
        }
    }
}

/// Range checks of a material's `plasticity` (xpbi-continuum's own [`PlasticModel`], read
/// from the scene file through its `serde` feature, e.g. `plasticity = { drucker_prager =
/// { friction_angle = 30.0 } }` or `plasticity = "elastic"`), with the field path and the bad
/// value.
pub(crate) fn validate_plasticity(model: &PlasticModel, v: &mut Validator<'_>, field: &str) {
    let f = |s: &str| format!("{field}.{s}");
    // The range is xpbi-continuum's (`check_friction_angle`); the field path is the scene's.
    let angle = |v: &mut Validator<'_>, name: String, a: f64| {
        v.check(
            &name,
            a,
            check_friction_angle(a).is_ok(),
            "friction angle must lie in (0, 90) degrees",
        )
    };
    match model {
        PlasticModel::Elastic => {}
        PlasticModel::VonMises(m) => {
            v.non_negative(&f("von_mises.yield_stress"), m.yield_stress);
            v.non_negative(&f("von_mises.hardening_modulus"), m.hardening_modulus);
        }
        PlasticModel::DruckerPrager(m) => {
            match m.hardening {
                None => angle(v, f("drucker_prager.friction_angle"), m.friction_angle),
                Some(k) => {
                    let h: [f64; 4] = k.into();
                    v.check_text(
                        &f("drucker_prager.hardening"),
                        format!("{h:?}"),
                        h.iter().all(|x| x.is_finite()) && k.h2 >= 0.0,
                        "must be finite with h2 >= 0",
                    );
                    angle(v, f("drucker_prager.hardening[0]"), k.h0);
                    angle(
                        v,
                        f("drucker_prager.hardening (angle at q = 0, h0 - h3)"),
                        k.friction_angle(0.0),
                    );
                }
            }
            v.non_negative(&f("drucker_prager.cohesion"), m.cohesion);
        }
        PlasticModel::Nacc(m) => {
            angle(v, f("nacc.friction_angle"), m.friction_angle);
            v.non_negative(&f("nacc.beta"), m.beta);
            v.non_negative(&f("nacc.xi"), m.xi);
        }
        PlasticModel::HerschelBulkley(m) => {
            v.non_negative(&f("herschel_bulkley.yield_stress"), m.yield_stress);
            v.non_negative(&f("herschel_bulkley.viscosity"), m.viscosity);
            v.positive(&f("herschel_bulkley.exponent"), m.exponent);
        }
    }
}

/// Material presets: the constructors of [`xpbi_continuum::Material`] (their docs give the
/// values and sources).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// Dry sand: 1600 kg/m³, E = 3.5e5 Pa, ν = 0.3, Drucker–Prager φ = 30°.
    Sand,
    /// Snow: 400 kg/m³, E = 1e5 Pa, ν = 0.3, NACC φ = 45°, β = 0.3, ξ = 3.
    Snow,
    /// Clay: 1200 kg/m³, E = 2e4 Pa, ν = 0.3, von Mises σ_Y = 76.9 Pa.
    Clay,
    /// Soft metal: 2700 kg/m³, E = 1e6 Pa, ν = 0.3, von Mises σ_Y = 1e4 Pa, H = 5e4 Pa.
    Metal,
    /// Toothpaste: 1000 kg/m³, E = 2250 Pa, ν = 0.3, Herschel–Bulkley τ_Y = 50 Pa, η = 10, h = 0.5.
    Toothpaste,
    /// Honey: 1400 kg/m³, E = 2250 Pa, ν = 0.45, Bingham τ_Y = 0, η = 10 Pa·s.
    Honey,
}

impl Preset {
    /// The preset material.
    pub fn material(self) -> xpbi_continuum::Material {
        use xpbi_continuum::Material as M;
        match self {
            Self::Sand => M::sand(),
            Self::Snow => M::snow(),
            Self::Clay => M::clay(),
            Self::Metal => M::metal(),
            Self::Toothpaste => M::toothpaste(),
            Self::Honey => M::honey(),
        }
    }
}

/// Range checks of a `[[continuum]]` entry.
pub(crate) fn validate_spec(v: &mut Validator<'_>, k: usize, c: &ContinuumSpec) {
    let f = |s: &str| format!("continuum[{k}].{s}");
    v.length(&f("spacing"), c.spacing);
    v.finite3(&f("velocity"), c.velocity);
    validate_layers(v, k, c);
    if let (Some(region), true) = (&c.region, c.layer.is_empty()) {
        validate_region(v, &f("region"), region, c);
    }
    for (e, x) in c.exclude.iter().enumerate() {
        x.validate(v, &f(&format!("exclude[{e}]")));
    }
    if c.spacing.is_finite() && c.spacing > 0.0 {
        let region = c.region.as_ref().filter(|_| c.layer.is_empty());
        let n = c.lattice_points();
        crate::region::check_lattice(v, &format!("continuum[{k}]"), region, c.spacing, n);
    }
    if let Some(p) = &c.pin {
        v.finite3(&f("pin.min"), p.min);
        v.finite3(&f("pin.max"), p.max);
    }
    for (g, grip) in c.grips.iter().enumerate() {
        v.finite3(&f(&format!("grips[{g}].min")), grip.min);
        v.finite3(&f(&format!("grips[{g}].max")), grip.max);
        v.finite3(&f(&format!("grips[{g}].velocity")), grip.velocity);
    }
    validate_xpbi(v, k, &c.xpbi);
}

/// Range checks of a region at `field` (e.g. `continuum[0].region`) of the continuum `c`.
pub(crate) fn validate_region(
    v: &mut Validator<'_>,
    field: &str,
    region: &RegionSpec,
    c: &ContinuumSpec,
) {
    let f = |s: &str| format!("{field}.{s}");
    match region {
        RegionSpec::Box { min, max } => {
            v.finite3(&f("box.min"), *min);
            v.finite3(&f("box.max"), *max);
            v.check_text(
                &f("box.max"),
                format!("{max:?}"),
                (0..3).all(|a| max[a] > min[a]),
                "must exceed min on every axis",
            );
        }
        RegionSpec::Ball { center, radius } => {
            v.finite3(&f("ball.center"), *center);
            v.length(&f("ball.radius"), *radius);
        }
        RegionSpec::Cylinder {
            base,
            radius,
            height,
        } => {
            v.finite3(&f("cylinder.base"), *base);
            v.length(&f("cylinder.radius"), *radius);
            v.length(&f("cylinder.height"), *height);
        }
        RegionSpec::Nozzle(n) => {
            v.finite3(&f("nozzle.exit"), n.exit);
            v.length(&f("nozzle.radius"), n.radius);
            v.positive(&f("nozzle.speed"), n.speed);
            v.positive(&f("nozzle.duration"), n.duration);
            let height = n.speed * n.duration;
            v.check_text(
                &f("nozzle.duration"),
                format!(
                    "{:?} s × speed {:?} m/s = {height:?} m",
                    n.duration, n.speed
                ),
                height.is_finite() && height <= crate::validate::MAX_COORDINATE,
                "speed × duration, the height of the nozzle's reservoir, must be a length <= 1e8 m",
            );
            v.check_text(
                &f("nozzle.radius"),
                format!("{:?} at spacing {:?}", n.radius, c.spacing),
                2.0 * n.radius >= c.spacing * (1.0 - 1e-9),
                "the outlet must be at least one spacing wide (2 radius >= spacing): a narrower \
                 one cannot be sampled on the lattice and would emit a whole column of particles",
            );
            v.check_text(
                &f("nozzle"),
                "pin/grips".into(),
                c.pin.is_none() && c.grips.is_empty(),
                "a nozzle's particles are driven by the nozzle: no pin or grips",
            );
        }
        RegionSpec::Mesh(m) => {
            v.check_text(
                &f("mesh.path"),
                m.path.display().to_string(),
                !m.path.as_os_str().is_empty(),
                "must name a mesh file",
            );
            v.length(&f("mesh.scale"), m.scale);
            v.finite3(&f("mesh.translation"), m.translation);
        }
    }
}

/// Range checks of a `[continuum.xpbi]` section.
fn validate_xpbi(v: &mut Validator<'_>, k: usize, x: &XpbiSection) {
    let f = |s: &str| format!("continuum[{k}].{s}");
    let range = |v: &mut Validator<'_>, field: &str, r: Result<(), xpbi_continuum::XpbiError>| {
        if let Err(xpbi_continuum::XpbiError::OutOfRange { value, reason, .. }) = r {
            v.check(field, value, false, reason);
        }
    };
    range(
        v,
        &f("xpbi.support_over_spacing"),
        xpbi_continuum::kernel::check_support_over_spacing(x.support_over_spacing),
    );
    if let Some(c) = x.xsph {
        v.check(
            &f("xpbi.xsph"),
            c,
            (0.0..=1.0).contains(&c),
            "must lie in [0, 1]",
        );
        if let Some(k) = x.xsph_rate {
            v.check(
                &f("xpbi.xsph_rate"),
                k,
                false,
                "give either xsph (per step) or xsph_rate (1/s), not both",
            );
        }
    }
    if let Some(k) = x.xsph_rate {
        v.non_negative(&f("xpbi.xsph_rate"), k);
    }
    range(
        v,
        &f("xpbi.pinv_threshold"),
        xpbi_continuum::correction::check_pinv_threshold(x.pinv_threshold),
    );
    v.positive(&f("xpbi.cfl"), x.cfl);
    v.non_negative(&f("xpbi.min_distance_ratio"), x.min_distance_ratio);
}

/// How a sampled particle is held.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Hold {
    /// Free.
    Free,
    /// Pinned where it is.
    Pinned,
    /// Kinematic, moving at this velocity (m/s).
    Grip([f64; 3]),
    /// In a nozzle's reservoir (kinematic until released).
    Nozzle,
}

/// A continuum's sampled particles: positions, holds, layer indices.
pub(crate) type Sampled = (Vec<Vector<3>>, Vec<Hold>, Vec<usize>);

/// Particles of a continuum: positions, how each is held, and the index of its layer (0 for
/// the `material` + `region` form; see [`LayerSpec`] for the rule). `file` is the scene file (a
/// mesh region's path is relative to its folder), `body` the continuum's table
/// (`continuum[0]`), which errors name.
pub(crate) fn sample(
    c: &ContinuumSpec,
    file: &std::path::Path,
    body: &str,
) -> Result<Sampled, crate::error::SceneError> {
    let tol = 1e-9 * c.spacing;
    let (x, layer): (Vec<Vector<3>>, Vec<usize>) = match (&c.region, c.layer.is_empty()) {
        (Some(region), true) => region
            .sample(c.spacing, file, body)?
            .into_iter()
            .filter(|p| !c.exclude.iter().any(|e| e.removes(p, tol)))
            .map(|p| (p, 0))
            .unzip(),
        _ => crate::layers::sample(&c.layer, c.spacing)
            .into_iter()
            .filter(|(p, _)| !c.exclude.iter().any(|e| e.removes(p, tol)))
            .unzip(),
    };
    let nozzle = matches!(c.region, Some(RegionSpec::Nozzle(_))) && c.layer.is_empty();
    let hold = x
        .iter()
        .map(|p| {
            if nozzle {
                return Hold::Nozzle;
            }
            if c.pin.as_ref().is_some_and(|b| b.contains(p)) {
                return Hold::Pinned;
            }
            let inside = |g: &&GripSpec| {
                BoxSpec {
                    min: g.min,
                    max: g.max,
                }
                .contains(p)
            };
            c.grips
                .iter()
                .find(inside)
                .map_or(Hold::Free, |g| Hold::Grip(g.velocity))
        })
        .collect();
    Ok((x, hold, layer))
}

/// Checks the form of `[[continuum]]` (`material` + `region`, or `layer`, exactly one of the
/// two) and each layer's region.
pub(crate) fn validate_layers(v: &mut Validator<'_>, k: usize, c: &ContinuumSpec) {
    let f = |s: &str| format!("continuum[{k}].{s}");
    if c.layer.is_empty() {
        if c.material.is_none() {
            v.check_text(
                &f("material"),
                "absent".into(),
                false,
                "a continuum needs `material` and `region`, or `[[continuum.layer]]` entries",
            );
        }
        if c.region.is_none() {
            v.check_text(
                &f("region"),
                "absent".into(),
                false,
                "a continuum needs `material` and `region`, or `[[continuum.layer]]` entries",
            );
        }
        return;
    }
    let given: Vec<&str> = [
        c.material.as_ref().map(|_| "material"),
        c.region.as_ref().map(|_| "region"),
    ]
    .into_iter()
    .flatten()
    .collect();
    v.check_text(
        &f("layer"),
        format!("{} layers and {}", c.layer.len(), given.join(" + ")),
        given.is_empty(),
        "give either `material` + `region` or `[[continuum.layer]]` entries, not both",
    );
    v.check(
        &f("layer"),
        c.layer.len() as f64,
        c.layer.len() <= crate::layers::MAX_LAYERS,
        "a continuum has at most 256 layers",
    );
    for (j, l) in c.layer.iter().enumerate() {
        let field = f(&format!("layer[{j}].region"));
        validate_region(v, &field, &l.region, c);
        v.check_text(
            &field,
            "nozzle".into(),
            !matches!(l.region, RegionSpec::Nozzle(_)),
            "a layer's region is a box, ball or cylinder (a nozzle feeds a whole body)",
        );
        v.check_text(
            &field,
            "mesh".into(),
            !matches!(l.region, RegionSpec::Mesh(_)),
            "a layer's region is a box, ball or cylinder (a mesh fills a whole body: give it as \
             the continuum's `region`)",
        );
    }
}

/// The material names of a body, one per layer (`material` alone: that one; none when the
/// form is invalid, which validation reports).
pub(crate) fn material_names(c: &ContinuumSpec) -> Vec<&str> {
    if c.layer.is_empty() {
        c.material.as_deref().into_iter().collect()
    } else {
        c.layer.iter().map(|l| l.material.as_str()).collect()
    }
}
