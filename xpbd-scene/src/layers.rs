//! `[[continuum.layer]]`: one XPBI body of several materials.
//!
//! ```toml
//! [[continuum]]
//! spacing = 0.005
//! [[continuum.layer]]
//! material = "sand"
//! region = { box = { min = [0.0, 0.0, 0.02], max = [0.1, 0.005, 0.04] } }
//! [[continuum.layer]]
//! material = "clay"
//! region = { box = { min = [0.0, 0.0, 0.0], max = [0.1, 0.005, 0.02] } }
//! ```
//!
//! **Rule.** All layers share one lattice: the points `min + (i + ½)Δx` of the bounding box of
//! all the layers' regions (the componentwise min and max of their bounding boxes), at the
//! body's `spacing`. A lattice point belongs to the **first** layer (in file order) whose
//! region contains it, boxes closed (`min ≤ x ≤ max`), balls and cylinders as for `region`
//! (open, a cylinder between its base and top); points in no layer, and points removed by the
//! body's `exclude`, are not sampled. A point on the boundary between two layers therefore goes
//! to the one listed first. A one-region body whose region is tiled exactly by its layers'
//! boxes has the same lattice, so the same particles in the same order (x fastest, then y,
//! then z).
//!
//! Each particle weighs its own material's `ρ Δx³` and is solved with its own material's
//! elasticity and return map; the body is bonded: one neighbourhood across all layers
//! (`xpbi_continuum::continuum::XpbiContinuum::with_materials`). Layers naming the same
//! material share one table entry, so a body of layers of one material is the one-material
//! body. `velocity`, `pin`, `grips`, `exclude` and `xpbi` apply to the whole body; a layer
//! cannot be a nozzle or a mesh (validation refuses both; a mesh fills a whole body as its
//! `region`).

use serde::{Deserialize, Serialize};
use xpbd_core::Vector;

use crate::region::{RegionSpec, v3};

/// Most layers one body may have (its material table holds at most
/// `xpbi_continuum::continuum::MAX_MATERIALS` entries).
pub const MAX_LAYERS: usize = xpbi_continuum::continuum::MAX_MATERIALS;

/// `[[continuum.layer]]`: a material and the region it fills (see the module docs for the
/// rule that assigns lattice points to layers).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayerSpec {
    /// Material name (needs `youngs`, directly or from a preset).
    pub material: String,
    /// Where the layer's particles are (the syntax of `[[continuum]]`'s `region`, no nozzle).
    pub region: RegionSpec,
}

impl RegionSpec {
    /// Whether a lattice point lies in the region: in its closed bounding box and, for a ball
    /// or cylinder, inside its round boundary (as [`RegionSpec::sample`] filters). Never for a
    /// mesh (not a layer's region: refused by validation).
    pub(crate) fn holds(&self, p: &Vector<3>) -> bool {
        let Some((lo, hi)) = self.bounds() else {
            return false;
        };
        (0..3).all(|a| p[a] >= lo[a] && p[a] <= hi[a]) && self.contains(p)
    }
}

/// The bounding box of all the layers' regions.
fn bounds(layers: &[LayerSpec]) -> Option<([f64; 3], [f64; 3])> {
    layers
        .iter()
        .filter_map(|l| l.region.bounds())
        .reduce(|a, b| {
            (
                std::array::from_fn(|k| a.0[k].min(b.0[k])),
                std::array::from_fn(|k| a.1[k].max(b.1[k])),
            )
        })
}

/// Lattice points of the layers' common bounding box (0 without layers).
pub(crate) fn lattice_count(layers: &[LayerSpec], spacing: f64) -> f64 {
    match bounds(layers) {
        Some((lo, hi)) => (0..3)
            .map(|a| ((hi[a] - lo[a]) / spacing + 1e-9).floor().max(0.0))
            .product(),
        None => 0.0,
    }
}

/// The body's lattice points, each with the index of the first layer that holds it.
pub(crate) fn sample(layers: &[LayerSpec], spacing: f64) -> Vec<(Vector<3>, usize)> {
    let Some((lo, hi)) = bounds(layers) else {
        return Vec::new();
    };
    xpbi_continuum::scene::lattice_box(v3(lo), v3(hi), spacing)
        .into_iter()
        .filter_map(|p| {
            layers
                .iter()
                .position(|l| l.region.holds(&p))
                .map(|k| (p, k))
        })
        .collect()
}

/// The first layer that received no particle (`layer` is each particle's layer index).
pub(crate) fn empty_layer(layers: usize, layer: &[usize]) -> Option<usize> {
    if layers == 0 {
        return None;
    }
    let mut count = vec![0usize; layers];
    for &l in layer {
        count[l] += 1;
    }
    count.iter().position(|&n| n == 0)
}
