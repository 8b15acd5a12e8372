//! The XPBD bodies of a scene: `[[cloth]]`, `[[rope]]`, `[[soft_box]]` and `[[mesh]]`.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::unit;

/// Bending model of a cloth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BendingModel {
    /// No bending constraints.
    #[default]
    None,
    /// Dihedral angle constraints (needs `bending_stiffness`).
    Dihedral,
    /// Isometric quadratic bending (needs `bending_stiffness`).
    Isometric,
}

/// `[[cloth]]`: a rectangular grid in the xy plane (mass = ρ · thickness · area).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClothSpec {
    /// The body's name, for `[[interaction]]` (default: its field, e.g. `cloth[0]`).
    #[serde(default)]
    pub name: Option<String>,
    /// Material name (needs `thickness`).
    pub material: String,
    /// Particles along x and y (each ≥ 2).
    #[serde(deserialize_with = "crate::exact::array")]
    pub resolution: [usize; 2],
    /// Extent along x and y (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub size: [f64; 2],
    /// Position of particle (0, 0) (m).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub origin: [f64; 3],
    /// Grid coordinates `[i, j]` of pinned particles.
    #[serde(default, deserialize_with = "crate::exact::vec_of_arrays")]
    pub pins: Vec<[usize; 2]>,
    /// Bending model.
    #[serde(default)]
    pub bending: BendingModel,
}

/// `[[rope]]`: a chain of `links` distance constraints (mass = ρ π r² L).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RopeSpec {
    /// The body's name, for `[[interaction]]` (default: its field, e.g. `rope[0]`).
    #[serde(default)]
    pub name: Option<String>,
    /// Material name.
    pub material: String,
    /// Number of links (≥ 1).
    pub links: usize,
    /// First particle (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub start: [f64; 3],
    /// Last particle (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub end: [f64; 3],
    /// Cross-section radius r (m): area π r² for mass and compliance α = l₀/(E π r²).
    pub radius: f64,
    /// Pin the first particle.
    #[serde(default)]
    pub pin_start: bool,
}

/// `[[soft_box]]`: a box of Kuhn-subdivided tets with stable Neo-Hookean constraints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoftBoxSpec {
    /// The body's name, for `[[interaction]]` (default: its field, e.g. `soft_box[0]`).
    #[serde(default)]
    pub name: Option<String>,
    /// Material name (needs `youngs`).
    pub material: String,
    /// Extent (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub size: [f64; 3],
    /// Hexahedral cells per axis (each split into 6 tets).
    #[serde(deserialize_with = "crate::exact::array")]
    pub cells: [usize; 3],
    /// Minimum corner (m).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub origin: [f64; 3],
    /// Pin every particle with x ≤ origin.x + this (m); absent = no pins.
    pub pin_x_below: Option<f64>,
}

/// How a mesh file becomes a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeshKind {
    /// Triangles become cloth: distance constraints on edges, α = 1/(E t) per unit length.
    Cloth,
    /// Tets become a Neo-Hookean soft body.
    Soft,
}

/// `[[mesh]]`: a mesh file (`.obj`, `.ply`, `.node`+`.ele`, `.msh`), relative to the scene file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshSpec {
    /// The body's name, for `[[interaction]]` (default: its field, e.g. `mesh[0]`).
    #[serde(default)]
    pub name: Option<String>,
    /// Material name.
    pub material: String,
    /// Path, relative to the scene file's folder.
    pub path: PathBuf,
    /// Cloth or soft body.
    pub kind: MeshKind,
    /// Translation applied to every vertex (m).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub translate: [f64; 3],
    /// Uniform scale applied before translation.
    #[serde(default = "unit")]
    pub scale: f64,
    /// Vertex indices (0-based, in the file's order) to pin.
    #[serde(default)]
    pub pins: Vec<usize>,
}
