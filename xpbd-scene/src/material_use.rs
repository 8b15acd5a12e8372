//! A material field that no body using the material reads is refused: `thickness` on a
//! material only a continuum uses, `plasticity` on a cloth's material, `bending_stiffness`
//! where no cloth bends. A setting silently ignored is a setting the
//! user believes in and the simulation does not have.
//!
//! Who reads what (`build.rs`): cloth grids and cloth meshes read `thickness`; cloth grids with
//! bending read `bending_stiffness`; continua (and their layers) read `plasticity`; soft
//! bodies (tets) and continua read `poisson` (a rope and a cloth have no ν: their stiffness
//! is `youngs` times a cross-section or a thickness). `density` and `youngs` are read by every
//! body and are not checked. A material shared by a rope and a soft body may set `poisson`.
//! Fields a `preset` filled in are not the user's and are not checked; a material no body
//! uses is not checked (a file may keep a library of materials).

use crate::scene::{BendingModel, MeshKind, SceneDesc};
use crate::validate::Validator;

/// What a body does with its material.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Use {
    /// A sheet; `true` when it bends.
    Sheet(bool),
    /// A rope.
    Rope,
    /// A soft box or a soft mesh (tets).
    Solid,
    Continuum,
}

/// The bodies that use each material, with their fields.
fn uses(scene: &SceneDesc, material: &str) -> Vec<(String, Use)> {
    let mut out = Vec::new();
    for (k, c) in scene.cloth.iter().enumerate() {
        if c.material == material {
            out.push((
                format!("cloth[{k}]"),
                Use::Sheet(c.bending != BendingModel::None),
            ));
        }
    }
    for (k, r) in scene.rope.iter().enumerate() {
        if r.material == material {
            out.push((format!("rope[{k}]"), Use::Rope));
        }
    }
    for (k, b) in scene.soft_box.iter().enumerate() {
        if b.material == material {
            out.push((format!("soft_box[{k}]"), Use::Solid));
        }
    }
    for (k, m) in scene.mesh.iter().enumerate() {
        if m.material == material {
            let u = match m.kind {
                MeshKind::Soft => Use::Solid,
                MeshKind::Cloth => Use::Sheet(false),
            };
            out.push((format!("mesh[{k}]"), u));
        }
    }
    for (k, c) in scene.continuum.iter().enumerate() {
        if c.material.as_deref() == Some(material) {
            out.push((format!("continuum[{k}]"), Use::Continuum));
        }
        for (l, layer) in c.layer.iter().enumerate() {
            if layer.material == material {
                out.push((format!("continuum[{k}].layer[{l}]"), Use::Continuum));
            }
        }
    }
    out
}

/// Refuses the fields of each used material that none of its bodies reads.
pub(crate) fn validate(v: &mut Validator<'_>, scene: &SceneDesc) {
    for (name, m) in &scene.materials {
        let users = uses(scene, name);
        if users.is_empty() {
            continue;
        }
        let any = |f: fn(Use) -> bool| users.iter().any(|(_, u)| f(*u));
        let listed = users
            .iter()
            .map(|(f, _)| f.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let mut refuse = |field: &str, value: String, read: bool, reason: &'static str| {
            v.check_text(
                &format!("materials.{name}.{field}"),
                format!("{value} (used by {listed})"),
                read,
                reason,
            );
        };
        if let Some(t) = m.thickness {
            refuse(
                "thickness",
                t.to_string(),
                any(|u| matches!(u, Use::Sheet(_))),
                "only a cloth or a cloth mesh reads `thickness`; no body using this material is one",
            );
        }
        if let Some(k) = m.bending_stiffness {
            refuse(
                "bending_stiffness",
                k.to_string(),
                any(|u| u == Use::Sheet(true)),
                "only a cloth with `bending` reads `bending_stiffness`; no body using this material bends",
            );
        }
        if m.preset.is_none()
            && let Some(nu) = m.poisson
        {
            refuse(
                "poisson",
                nu.to_string(),
                any(|u| matches!(u, Use::Solid | Use::Continuum)),
                "only soft bodies and continua read `poisson`; no body using this material is one (a rope's or a cloth's stiffness is `youngs` alone)",
            );
        }
        if m.preset.is_none() && m.plasticity.is_some() {
            refuse(
                "plasticity",
                "given".into(),
                any(|u| u == Use::Continuum),
                "only a continuum reads `plasticity`; no body using this material is one",
            );
        }
    }
}
