//! Several materials in one XPBI body: a material table and a material id per member.
//!
//! The bonded body is one continuum: every member is a neighbour of every other within the
//! kernel support whatever its material, so `∇v_p = Σ_b (v_b − v_p) q_bᵀ` (XPBI Eq. 11), the
//! kernel correction `L_p`, the XSPH smoothing and the position correction are those of the
//! whole body. Only the constitutive model is the member's own: its constraint
//! `C_p = sqrt(2Ψ_p(F_E))` uses its material's Lamé parameters `μ_p`, `λ_p`
//! (`μ = E/(2(1+ν))`, `λ = Eν/((1+ν)(1−2ν))`), and the return map `F_E = Z_p(F_tr)` (in every
//! iteration and in the end-of-step update `F^{n+1} = Z_p((I + Δt∇v) Fⁿ)`) is its material's
//! plasticity model, with its constant Drucker–Prager `α_DP = sqrt(2/3)·2 sin φ/(3 − sin φ)`
//! computed once per material. The compliance stays `α = 1/V⁰_p` (split form:
//! `1/(2μ_p V⁰_p)`, `1/(λ_p V⁰_p)`). The material is chosen once per constraint projection,
//! never per neighbour. The CFL bound `cfl · Δx / max|v|` depends on no material; the
//! checkpoint state (F, hardening, volume correction) is per member already and does not
//! store the ids, which are part of the body's construction (a scene rebuilds them).

use xpbd_core::Particles;

use super::{XpbiContinuum, XpbiSettings};
use crate::error::XpbiError;
use crate::material::Material;
use crate::plasticity::{Lame, PlasticModel};

/// Most materials one body's table may hold (ids are stored as one byte per particle).
pub const MAX_MATERIALS: usize = 256;

/// What the constraint of a member needs of its material, computed once per table entry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Constitutive {
    /// `material.lame()`.
    pub lame: Lame,
    /// `material.plasticity`.
    pub model: PlasticModel,
    /// `model.constant_dp_alpha::<D>()`.
    pub dp_alpha: Option<f64>,
}

impl Constitutive {
    pub(crate) fn new<const D: usize>(m: &Material) -> Self {
        Self {
            lame: m.lame(),
            model: m.plasticity,
            dp_alpha: m.plasticity.constant_dp_alpha::<D>(),
        }
    }
}

impl<const D: usize> XpbiContinuum<D> {
    /// A body of several materials: `materials` is the table (1 to [`MAX_MATERIALS`] entries,
    /// each validated) and `material_ids[i]` the entry of member `members[i]`. Otherwise as
    /// [`XpbiContinuum::new`]; a table of one is exactly `new` with that material (the same
    /// results bit for bit). Errors: [`XpbiError::NoMaterials`],
    /// [`XpbiError::TooManyMaterials`], [`XpbiError::InvalidMaterial`] (naming the entry),
    /// [`XpbiError::MaterialIdOutOfRange`] (naming the particle), and a `material_ids`
    /// length other than the members' ([`XpbiError::InvalidParameter`]).
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use xpbd_core::Particles;
    /// use xpbi_continuum::{Material, continuum::{XpbiContinuum, XpbiSettings}};
    /// let mut p = Particles::<2>::new();
    /// for i in 0..4 { p.push(Vector2::new(0.01 * i as f64, 0.0), 1.0); }
    /// let c = XpbiContinuum::with_materials(&p, vec![0, 1, 2, 3], vec![1e-4; 4],
    ///     vec![Material::sand(), Material::clay()], vec![0, 0, 1, 1],
    ///     XpbiSettings::new(0.01)).unwrap();
    /// assert_eq!(c.materials().len(), 2);
    /// assert_eq!(c.material_of(3), Some(&Material::clay()));
    /// assert_eq!(c.material_id(0), 0);
    /// assert!(XpbiContinuum::with_materials(&p, vec![0, 1, 2, 3], vec![1e-4; 4],
    ///     vec![Material::sand()], vec![0, 0, 1, 0], XpbiSettings::new(0.01)).is_err());
    /// ```
    pub fn with_materials(
        particles: &Particles<D>,
        members: Vec<u32>,
        rest_volume: Vec<f64>,
        materials: Vec<Material>,
        material_ids: Vec<u8>,
        settings: XpbiSettings,
    ) -> Result<Self, XpbiError> {
        if materials.is_empty() {
            return Err(XpbiError::NoMaterials);
        }
        if materials.len() > MAX_MATERIALS {
            return Err(XpbiError::TooManyMaterials {
                count: materials.len(),
                max: MAX_MATERIALS,
            });
        }
        for (k, m) in materials.iter().enumerate() {
            m.validate().map_err(|e| XpbiError::InvalidMaterial {
                material: k,
                source: Box::new(e),
            })?;
        }
        if material_ids.len() != members.len() {
            return Err(XpbiError::InvalidParameter {
                name: "material_ids length",
                value: material_ids.len() as f64,
            });
        }
        if let Some(i) = material_ids
            .iter()
            .position(|&id| id as usize >= materials.len())
        {
            return Err(XpbiError::MaterialIdOutOfRange {
                particle: members[i] as usize,
                id: material_ids[i] as usize,
                count: materials.len(),
            });
        }
        // A table of one is the single-material body (no ids stored, the same code path).
        let ids = if materials.len() == 1 {
            Vec::new()
        } else {
            material_ids
        };
        Self::from_table(particles, members, rest_volume, materials, ids, settings)
    }

    /// The material table (one entry for a body built by [`XpbiContinuum::new`]).
    pub fn materials(&self) -> &[Material] {
        &self.materials
    }

    /// Index into [`XpbiContinuum::materials`] of member `member` (an index into
    /// [`XpbiContinuum::members`]); 0 for a single-material body.
    pub fn material_id(&self, member: usize) -> usize {
        self.member_material
            .get(member)
            .map_or(0, |&id| id as usize)
    }

    /// The material of the particle with global id `particle`, `None` if it is not a member.
    pub fn material_of(&self, particle: usize) -> Option<&Material> {
        match self.member_index.get(particle) {
            Some(&i) if i != u32::MAX => Some(&self.materials[self.material_id(i as usize)]),
            _ => None,
        }
    }

    /// The constitutive data of member `member` (table entry 0 for a single-material body).
    #[inline]
    pub(super) fn constitutive_of_member(&self, member: usize) -> &Constitutive {
        &self.constitutive[self.material_id(member)]
    }
}
