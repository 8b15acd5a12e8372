//! Where a `[[continuum]]`'s particles are: the region it fills ([`RegionSpec`]: box, ball,
//! vertical cylinder, an extrusion nozzle's reservoir, or the inside of a closed triangle
//! mesh), less the regions it excludes
//! ([`ExcludeSpec`]: boxes, balls and convex polytopes of half-spaces, e.g. a V notch or the
//! space behind a hopper wall). Lattice points are `min + (i + ½)Δx` of the region's bounding
//! box (`xpbi_continuum::scene::lattice_box`), or the nozzle's reservoir lattice
//! (`xpbi_continuum::emitter::Nozzle::reservoir`); a mesh's are those of its bounding box
//! strictly inside it ([`MeshRegionSpec`]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use xpbd_core::Vector;

use crate::error::SceneError;
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

/// `region = { mesh = { path = "shapes/bunny.obj", scale = 1.0, translation = [0, 0, 0] } }`:
/// the inside of a closed, consistently oriented triangle mesh (`.obj` or `.ply`, read as for
/// a mesh collider, `shape = { mesh = … }`), its vertices mapped to `scale · v + translation`.
/// The particles are the lattice points `min + (i + ½)Δx` of the mapped mesh's bounding box
/// (the lattice a box region of that box has) whose winding number is ≥ 1
/// (`xpbd_core::contact::sdf::mesh_winding_numbers`: exact ray crossings, the sign of the
/// collider's signed-distance grid). An open, non-manifold or inconsistently oriented mesh, or
/// one whose triangles face inwards, is refused ([`SceneError::MeshRegion`],
/// [`SceneError::InvalidValue`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshRegionSpec {
    /// Path, relative to the scene file's folder.
    pub path: PathBuf,
    /// Uniform scale applied to the vertices (default 1).
    #[serde(default = "unit")]
    pub scale: f64,
    /// Translation applied after the scale (m, default zero).
    #[serde(default, deserialize_with = "crate::exact::array")]
    pub translation: [f64; 3],
}

fn unit() -> f64 {
    1.0
}

impl MeshRegionSpec {
    /// The mesh at `path` (relative to the scene file's folder), unscaled, untranslated.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            scale: 1.0,
            translation: [0.0; 3],
        }
    }

    /// The lattice points inside the mesh at `spacing`, for the body at `body` (e.g.
    /// `continuum[0]`) of the scene file `file` (the mesh's path is relative to its folder).
    /// Errors name `body.region.mesh.path` (a mesh that cannot be read, that is not closed
    /// and consistently oriented, or whose triangles face inwards), `body.region.mesh.scale`
    /// (a vertex mapped beyond [`crate::scene::MAX_COORDINATE`]) or `body.spacing` (not a
    /// positive length, or more than 5e7 lattice points in the mesh's box).
    pub fn sample(
        &self,
        spacing: f64,
        file: &Path,
        body: &str,
    ) -> Result<Vec<Vector<3>>, SceneError> {
        let field = format!("{body}.region.mesh");
        let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let mesh_path = folder.join(&self.path);
        let invalid =
            |field: String, value: String, reason: &'static str| SceneError::InvalidValue {
                file: file.to_path_buf(),
                line: 0,
                field,
                value,
                reason,
            };
        // The loader of mesh colliders and `[[mesh]]` bodies.
        let mesh = crate::import::import_mesh(&mesh_path).map_err(|source| SceneError::Import {
            file: file.to_path_buf(),
            field: format!("{field}.path"),
            source,
        })?;
        let vertices: Vec<Vector<3>> = mesh
            .vertices
            .iter()
            .map(|v| v * self.scale + v3(self.translation))
            .collect();
        let limit = crate::validate::MAX_COORDINATE;
        if vertices
            .iter()
            .flatten()
            .any(|c| !c.is_finite() || c.abs() > limit)
        {
            return Err(invalid(
                format!("{field}.scale"),
                format!("{:?}", self.scale),
                "takes a vertex of the mesh (scaled, then translated) beyond 1e8 m: its \
                 coordinates must be finite with magnitude <= 1e8",
            ));
        }
        let (mut lo, mut hi) = (
            Vector::<3>::repeat(f64::INFINITY),
            Vector::<3>::repeat(f64::NEG_INFINITY),
        );
        for v in &vertices {
            lo = lo.inf(v);
            hi = hi.sup(v);
        }
        if vertices.is_empty() {
            (lo, hi) = (Vector::<3>::zeros(), Vector::<3>::zeros());
        }
        if !(spacing.is_finite() && spacing > 0.0) {
            return Err(invalid(
                format!("{body}.spacing"),
                format!("{spacing:?}"),
                "must be a finite length > 0",
            ));
        }
        // As xpbi_continuum::scene::lattice_box (and RegionSpec::lattice_count).
        let counts = [0, 1, 2].map(|a| ((hi[a] - lo[a]) / spacing + 1e-9).floor().max(0.0));
        let n: f64 = counts.iter().product();
        if n > 5e7 {
            return Err(invalid(
                format!("{body}.spacing"),
                format!("{spacing:?}"),
                "the region must hold between 1 and 5e7 lattice points at this spacing",
            ));
        }
        let surface = xpbd_core::builders::TriangleSurface {
            vertices,
            triangles: mesh.triangles,
        };
        // The collider's closedness check and winding numbers, at the lattice points (to
        // rounding: node i is `lo + ½Δx + iΔx`, point i `lo + (i + ½)Δx`).
        let winding = xpbd_core::contact::sdf::mesh_winding_numbers(
            &surface,
            lo + Vector::<3>::repeat(0.5 * spacing),
            spacing,
            counts.map(|c| c as usize),
        )
        .map_err(|source| SceneError::MeshRegion {
            file: file.to_path_buf(),
            field: format!("{field}.path"),
            mesh: mesh_path.clone(),
            source: Box::new(source),
        })?;
        // Enclosed volume by the divergence theorem: negative when the triangles face inwards
        // (winding number −1 inside, so nothing would be filled).
        let x = &surface.vertices;
        let volume: f64 = surface
            .triangles
            .iter()
            .map(|t| x[t[0]].dot(&x[t[1]].cross(&x[t[2]])) / 6.0)
            .sum();
        if volume <= 0.0 {
            return Err(invalid(
                format!("{field}.path"),
                mesh_path.display().to_string(),
                "the mesh's triangles face inwards (its enclosed volume is negative): list \
                 each triangle's vertices counter-clockwise seen from outside",
            ));
        }
        let points = xpbi_continuum::scene::lattice_box(lo, hi, spacing);
        debug_assert_eq!(points.len(), winding.len());
        Ok(points
            .into_iter()
            .zip(winding)
            .filter(|&(_, w)| w >= 1)
            .map(|(p, _)| p)
            .collect())
    }
}

/// The region a continuum fills, e.g. `region = { ball = { center = [0, 0, 0.1], radius = 0.05 } }`
/// or, from a closed triangle mesh beside the scene file,
/// `region = { mesh = { path = "shapes/bunny.obj", scale = 1.0, translation = [0, 0, 0] } }`
/// ([`MeshRegionSpec`]).
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
    /// The inside of a closed triangle mesh ([`MeshRegionSpec`]); not a layer's region.
    Mesh(MeshRegionSpec),
}

impl RegionSpec {
    /// Bounding box `(min, max)`; `None` for a mesh, whose box is known once its file is read.
    pub(crate) fn bounds(&self) -> Option<([f64; 3], [f64; 3])> {
        Some(match *self {
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
            Self::Mesh(_) => return None,
        })
    }

    /// Whether a point of the bounding box lies in the region (false for a mesh, whose inside
    /// is decided with its file read, in [`MeshRegionSpec::sample`]).
    pub(crate) fn contains(&self, p: &Vector<3>) -> bool {
        match *self {
            Self::Box { .. } | Self::Nozzle(_) => true,
            Self::Ball { center, radius } => (p - v3(center)).norm() < radius,
            Self::Cylinder { base, radius, .. } => {
                let (dx, dy) = (p.x - base[0], p.y - base[1]);
                (dx * dx + dy * dy).sqrt() < radius
            }
            Self::Mesh(_) => false,
        }
    }

    /// Lattice points `min + (i + ½)Δx` of the bounding box that lie in the region, x fastest
    /// (`xpbi_continuum::scene::lattice_box`, then filtered; a nozzle's reservoir; a mesh's
    /// inside, [`MeshRegionSpec::sample`]), for the body at `body` (e.g. `continuum[0]`, which
    /// errors name) of the scene file `file` (a mesh's path is relative to its folder). Only a
    /// mesh region can fail: its file is read here.
    pub fn sample(
        &self,
        spacing: f64,
        file: &Path,
        body: &str,
    ) -> Result<Vec<Vector<3>>, SceneError> {
        match self {
            Self::Nozzle(n) => return Ok(n.reservoir(spacing).0),
            Self::Mesh(m) => return m.sample(spacing, file, body),
            Self::Box { .. } | Self::Ball { .. } | Self::Cylinder { .. } => {}
        }
        let Some((lo, hi)) = self.bounds() else {
            return Ok(Vec::new());
        };
        Ok(xpbi_continuum::scene::lattice_box(v3(lo), v3(hi), spacing)
            .into_iter()
            .filter(|p| self.contains(p))
            .collect())
    }

    /// Number of lattice points of the bounding box (before filtering), without sampling; 0 for
    /// a mesh (its box is known once its file is read: [`MeshRegionSpec::sample`] checks the
    /// count then).
    pub(crate) fn lattice_count(&self, spacing: f64) -> f64 {
        if let Self::Nozzle(n) = self {
            // As Nozzle::reservoir: ⌊2a/Δx⌋ per horizontal axis, ⌈vT/Δx⌉ layers.
            let per_axis = (2.0 * n.radius / spacing + 1e-9).floor().max(1.0);
            let layers = (n.speed * n.duration / spacing - 1e-9).ceil().max(0.0);
            return per_axis * per_axis * layers;
        }
        let Some((lo, hi)) = self.bounds() else {
            return 0.0;
        };
        (0..3)
            .map(|a| ((hi[a] - lo[a]) / spacing + 1e-9).floor().max(0.0))
            .product()
    }
}

/// The `path`s of the mesh regions of `scene` (continua, then fluids, in file order), as
/// written (relative to the scene file's folder): the files a build reads for them.
pub fn mesh_region_paths(scene: &crate::SceneDesc) -> Vec<&Path> {
    let continua = scene.continuum.iter().filter_map(|c| c.region.as_ref());
    continua
        .chain(scene.fluid.iter().map(|f| &f.region))
        .filter_map(|r| match r {
            RegionSpec::Mesh(m) => Some(m.path.as_path()),
            _ => None,
        })
        .collect()
}

/// Range check of the `n` lattice points (1 to 5e7) of the body at `body` (`continuum[0]`,
/// `fluid[1]`) filling `region` (`None`: layers) at `spacing`. A nozzle's reservoir is named
/// by the nozzle, with the factors of its count (columns from its radius, layers from its
/// speed × duration); other regions by the spacing. A mesh region's count is checked when its
/// file is read ([`MeshRegionSpec::sample`]).
pub(crate) fn check_lattice(
    v: &mut Validator<'_>,
    body: &str,
    region: Option<&RegionSpec>,
    spacing: f64,
    n: f64,
) {
    if let Some(RegionSpec::Mesh(_)) = region {
        return;
    }
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
