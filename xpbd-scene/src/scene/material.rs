//! `[materials.NAME]`: the SI parameters of a material, and the continuum presets that fill them.

use serde::{Deserialize, Serialize};
use xpbi_continuum::plasticity::PlasticModel;

use crate::continuum::Preset;

/// `[materials.NAME]`: SI parameters.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaterialSpec {
    /// A continuum preset supplying density, `youngs`, `poisson` and `plasticity` where they
    /// are absent (see [`Preset`]); filled in by [`SceneDesc::parse`](crate::SceneDesc::parse).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// Density ρ (kg/m³, > 0); required unless a preset gives it.
    pub density: Option<f64>,
    /// Young's modulus E (Pa, > 0); absent = inextensible (compliance 0).
    pub youngs: Option<f64>,
    /// Poisson's ratio ν ∈ (−1, 0.5) (absent: 0.3).
    pub poisson: Option<f64>,
    /// Sheet thickness (m) for cloth and surface meshes.
    pub thickness: Option<f64>,
    /// Bending stiffness k_b (N·m) for cloth.
    pub bending_stiffness: Option<f64>,
    /// Plasticity of a continuum (absent: elastic): xpbi-continuum's own model, e.g.
    /// `plasticity = { drucker_prager = { friction_angle = 30.0 } }` or `"elastic"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plasticity: Option<PlasticModel>,
}

impl MaterialSpec {
    /// Fills the fields a preset provides (density, Young's modulus, Poisson ratio,
    /// plasticity) where the scene gave none.
    pub(crate) fn apply_preset(&mut self) {
        if let Some(p) = self.preset {
            let x = p.material();
            self.density.get_or_insert(x.density);
            self.youngs.get_or_insert(x.youngs_modulus);
            self.poisson.get_or_insert(x.poisson_ratio);
            self.plasticity.get_or_insert(x.plasticity);
        }
    }
}

impl MaterialSpec {
    /// ρ (kg/m³); NaN if absent, which validation rejects.
    pub fn density(&self) -> f64 {
        self.density.unwrap_or(f64::NAN)
    }
    /// ν, 0.3 when absent.
    pub fn poisson(&self) -> f64 {
        self.poisson.unwrap_or(0.3)
    }
}
