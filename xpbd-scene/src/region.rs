//! Where a `[[continuum]]`'s particles are: the region it fills ([`RegionSpec`]: box, ball,
//! vertical cylinder, or an extrusion nozzle's reservoir), less the regions it excludes
//! ([`ExcludeSpec`]: boxes, balls and convex polytopes of half-spaces, e.g. a V notch or the
//! space behind a hopper wall). Lattice points are `min + (i + ½)Δx` of the region's bounding
//! box (`xpbi_continuum::scene::lattice_box`), or the nozzle's reservoir lattice
//! (`xpbi_continuum::emitter::Nozzle::reservoir`).

use serde::{Deserialize, Serialize};
use xpbd_core::Vector;

use crate::validate::Validator;

/// A region cut out of a continuum, e.g. `exclude = [{ box = { min = [..], max = [..] } }]` or
/// a V notch `exclude = [{ half_spaces = [{ normal = [1, 0, -1], offset = -0.1 },
/// { normal = [-1, 0, -1], offset = -0.1 }] }]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ExcludeSpec {
    /// The open box `(min, max)`.
    Box {
        /// Minimum corner (m).
        #[serde(deserialize_with = "crate::exact::array")]
        min: [f64; 3],
        /// Maximum corner (m).
        #[serde(deserialize_with = "crate::exact::array")]
        max: [f64; 3],
    },
    /// The open ball `|x − center| < radius`.
    Ball {
        /// Centre (m).
        #[serde(deserialize_with = "crate::exact::array")]
        center: [f64; 3],
        /// Radius (m).
        radius: f64,
    },
    /// The convex polytope `n_k·x < offset_k` for every listed half-space (the solid side of a
    /// plane collider is `n·x ≤ offset`); one entry is a single half-space.
    HalfSpaces(Vec<HalfSpaceSpec>),
}

/// `{ normal = [..], offset = .. }`: the half-space `normal·x < offset` (normal need not be
/// unit; the test is scale invariant).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HalfSpaceSpec {
    /// Outward normal of the kept side (non-zero).
    #[serde(deserialize_with = "crate::exact::array")]
    pub normal: [f64; 3],
    /// Offset (m × |normal|).
    pub offset: f64,
}

impl ExcludeSpec {
    /// Whether `p` lies inside by more than `tol` (m).
    pub(crate) fn removes(&self, p: &Vector<3>, tol: f64) -> bool {
        match self {
            Self::Box { min, max } => (0..3).all(|a| p[a] > min[a] + tol && p[a] < max[a] - tol),
            Self::Ball { center, radius } => (p - v3(*center)).norm() < radius - tol,
            Self::HalfSpaces(h) => h.iter().all(|h| {
                let n = v3(h.normal);
                n.dot(p) < h.offset - tol * n.norm()
            }),
        }
    }

    pub(crate) fn validate(&self, v: &mut Validator<'_>, field: &str) {
        match self {
            Self::Box { min, max } => {
                v.finite3(&format!("{field}.box.min"), *min);
                v.finite3(&format!("{field}.box.max"), *max);
            }
            Self::Ball { center, radius } => {
                v.finite3(&format!("{field}.ball.center"), *center);
                v.length(&format!("{field}.ball.radius"), *radius);
            }
            Self::HalfSpaces(h) => {
                v.check_text(
                    &format!("{field}.half_spaces"),
                    "[]".into(),
                    !h.is_empty(),
                    "needs at least one half-space",
                );
                for (k, h) in h.iter().enumerate() {
                    let f = format!("{field}.half_spaces[{k}]");
                    v.finite3(&format!("{f}.normal"), h.normal);
                    v.check_text(
                        &format!("{f}.normal"),
                        format!("{:?}", h.normal),
                        h.normal.iter().any(|&c| c != 0.0),
                        "must be non-zero",
                    );
                    v.check(
                        &format!("{f}.offset"),
                        h.offset,
                        h.offset.is_finite(),
                        "must be finite",
                    );
                }
            }
        }
    }
}

/// `region = { nozzle = { exit = [..], radius = .., speed = .., duration = .. } }`: the paste
/// that a vertical round nozzle extrudes downwards at `speed` for `duration` seconds
/// (`xpbi_continuum::emitter::Nozzle`): the reservoir lattice above the exit moves down
/// kinematically and each particle is released (made dynamic, velocity −speed ẑ) in the step
/// in which it crosses the exit plane, driven by [`crate::BuiltScene::step`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NozzleSpec {
    /// Centre of the exit plane (m).
    #[serde(deserialize_with = "crate::exact::array")]
    pub exit: [f64; 3],
    /// Outlet radius a (m).
    pub radius: f64,
    /// Inflow speed v (m/s, downwards).
    pub speed: f64,
    /// Extrusion time T (s): the reservoir holds ⌈vT/Δx⌉ layers.
    pub duration: f64,
}

impl NozzleSpec {
    /// Reservoir positions (lowest layer first) and lattice columns `n_c`
    /// (`xpbi_continuum::emitter::Nozzle::reservoir`).
    pub fn reservoir(&self, spacing: f64) -> (Vec<Vector<3>>, usize) {
        xpbi_continuum::emitter::Nozzle::<3>::reservoir(
            v3(self.exit),
            self.radius,
            self.speed,
            self.duration,
            spacing,
        )
    }
}

/// The region a continuum fills, e.g. `region = { ball = { center = [0, 0, 0.1], radius = 0.05 } }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RegionSpec {
    /// The box `[min, max]`.
    Box {
        /// Minimum corner (m).
        #[serde(deserialize_with = "crate::exact::array")]
        min: [f64; 3],
        /// Maximum corner (m).
        #[serde(deserialize_with = "crate::exact::array")]
        max: [f64; 3],
    },
    /// The open ball `|x − center| < radius`.
    Ball {
        /// Centre (m).
        #[serde(deserialize_with = "crate::exact::array")]
        center: [f64; 3],
        /// Radius (m).
        radius: f64,
    },
    /// A vertical (z) cylinder standing on `base` (the centre of its bottom disc).
    Cylinder {
        /// Centre of the bottom disc (m).
        #[serde(deserialize_with = "crate::exact::array")]
        base: [f64; 3],
        /// Radius (m).
        radius: f64,
        /// Height (m).
        height: f64,
    },
    /// The reservoir of an extrusion nozzle ([`NozzleSpec`]).
    Nozzle(NozzleSpec),
}

impl RegionSpec {
    /// Bounding box `(min, max)`.
    pub(crate) fn bounds(&self) -> ([f64; 3], [f64; 3]) {
        match *self {
            Self::Box { min, max } => (min, max),
            Self::Ball { center, radius } => {
                (center.map(|c| c - radius), center.map(|c| c + radius))
            }
            Self::Cylinder {
                base,
                radius,
                height,
            } => (
                [base[0] - radius, base[1] - radius, base[2]],
                [base[0] + radius, base[1] + radius, base[2] + height],
            ),
            Self::Nozzle(n) => (
                [n.exit[0] - n.radius, n.exit[1] - n.radius, n.exit[2]],
                [
                    n.exit[0] + n.radius,
                    n.exit[1] + n.radius,
                    n.exit[2] + n.speed * n.duration,
                ],
            ),
        }
    }

    pub(crate) fn contains(&self, p: &Vector<3>) -> bool {
        match *self {
            Self::Box { .. } | Self::Nozzle(_) => true,
            Self::Ball { center, radius } => (p - v3(center)).norm() < radius,
            Self::Cylinder { base, radius, .. } => {
                let (dx, dy) = (p.x - base[0], p.y - base[1]);
                (dx * dx + dy * dy).sqrt() < radius
            }
        }
    }

    /// Lattice points `min + (i + ½)Δx` of the bounding box that lie in the region, x fastest
    /// (`xpbi_continuum::scene::lattice_box`, then filtered).
    pub fn sample(&self, spacing: f64) -> Vec<Vector<3>> {
        if let Self::Nozzle(n) = self {
            return n.reservoir(spacing).0;
        }
        let (lo, hi) = self.bounds();
        xpbi_continuum::scene::lattice_box(v3(lo), v3(hi), spacing)
            .into_iter()
            .filter(|p| self.contains(p))
            .collect()
    }

    /// Number of lattice points of the bounding box (before filtering), without sampling.
    pub(crate) fn lattice_count(&self, spacing: f64) -> f64 {
        if let Self::Nozzle(n) = self {
            // As Nozzle::reservoir: ⌊2a/Δx⌋ per horizontal axis, ⌈vT/Δx⌉ layers.
            let per_axis = (2.0 * n.radius / spacing + 1e-9).floor().max(1.0);
            let layers = (n.speed * n.duration / spacing - 1e-9).ceil().max(0.0);
            return per_axis * per_axis * layers;
        }
        let (lo, hi) = self.bounds();
        (0..3)
            .map(|a| ((hi[a] - lo[a]) / spacing + 1e-9).floor().max(0.0))
            .product()
    }
}

/// Range check of the `n` lattice points (1 to 5e7) of the body at `body` (`continuum[0]`,
/// `fluid[1]`) filling `region` (`None`: layers) at `spacing`. A nozzle's reservoir is named
/// by the nozzle, with the factors of its count (columns from its radius, layers from its
/// speed × duration); other regions by the spacing.
pub(crate) fn check_lattice(
    v: &mut Validator<'_>,
    body: &str,
    region: Option<&RegionSpec>,
    spacing: f64,
    n: f64,
) {
    let ok = (1.0..=5e7).contains(&n);
    let Some(RegionSpec::Nozzle(z)) = region else {
        v.check(
            &format!("{body}.spacing"),
            spacing,
            ok,
            "the region must hold between 1 and 5e7 lattice points at this spacing",
        );
        return;
    };
    // As RegionSpec::lattice_count; whole numbers, in exponent form when huge.
    let columns = (2.0 * z.radius / spacing + 1e-9).floor().max(1.0);
    let layers = (z.speed * z.duration / spacing - 1e-9).ceil().max(0.0);
    let count = |x: f64| {
        if x < 1e15 {
            format!("{:.0}", x.abs()) // not "-0"
        } else {
            format!("{x:.3e}")
        }
    };
    v.check_text(
        &format!("{body}.region.nozzle"),
        format!(
            "{{ radius = {:?}, speed = {:?}, duration = {:?} }} at spacing {spacing:?}: \
             {} × {} columns × {} layers = {} particles",
            z.radius,
            z.speed,
            z.duration,
            count(columns),
            count(columns),
            count(layers),
            count(n)
        ),
        ok,
        "a nozzle's reservoir, (2 radius / spacing)² columns × (speed × duration / spacing) \
         layers, must hold between 1 and 5e7 particles",
    );
}

pub(crate) fn v3(a: [f64; 3]) -> Vector<3> {
    Vector::<3>::new(a[0], a[1], a[2])
}
