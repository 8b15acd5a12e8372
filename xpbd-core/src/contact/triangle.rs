//! Cloth self-collision, point against triangle (3D): `C = n̂·(x_p − Σ βᵢ xᵢ) − d ≥ 0`.

use rayon::prelude::*;

use super::error::{ContactError, check_size};
use super::friction::{Friction, TangentialBudget, apply_coulomb_friction};
use super::particle::build_grid;
use super::sdf::closest_point_barycentric;
use super::{ContactOptions, speed_deviations};
use crate::constraint::{ConstraintKind, SubstepContext};
use crate::{BuildError, Particles, Vector};

/// Particles per parallel work item of the candidate search (fixed: deterministic output).
const CHUNK: usize = 512;

/// Keeps points at least `d` (the thickness) from triangles of a mesh, on the side where they
/// were at the start of the substep.
///
/// At generation (on `xⁿ`) each candidate point p and triangle (a, b, c) not containing p get
/// the barycentric weights β of the closest point `q = Σ βᵢ xᵢ` and the unit normal
/// `n̂ = (x_p − q)/|x_p − q|` (the face normal, oriented towards p, when the closest point is
/// inside the face). Both are frozen for the substep, so the constraint is linear:
/// `∇_p C = n̂`, `∇_{xᵢ} C = −βᵢ n̂` (the triangle-collision constraint of Müller et al. 2007,
/// "Position Based Dynamics" §4.4, with the normal frozen per substep as in Bridson et al. 2002).
/// Freezing the side is what stops a point from being pushed through to the wrong side, and it
/// needs small substeps: the relative motion per substep must stay below the thickness `d`
/// (the promised speed limit is `|v_rel| h < d`).
///
/// The broad phase bins triangle centroids and particles in the shared
/// [`crate::spatial::UniformGrid`]. A (point, triangle) pair is found by whichever side has the
/// larger speed deviation `dev = |v − v̄|` (a triangle's is its fastest vertex's), searching the
/// radius `r_tri + d + margin + 2(2 dev h_g + a h_g²)` (r_tri: largest centroid–vertex
/// distance), which bounds the pair's relative speed by `2 dev`. Points default to the mesh vertices; add others with
/// [`PointTriangleContacts::with_points`].
///
/// ```
/// use xpbd_core::builders::ClothGrid;
/// use xpbd_core::contact::{ContactOptions, Friction, PointTriangleContacts};
/// let cloth = ClothGrid::<3> { nx: 4, ny: 4, ..ClothGrid::default() }.build().unwrap();
/// let self_collision = PointTriangleContacts::new(&cloth.triangles, 0.01, Friction::NONE,
///     ContactOptions::default()).unwrap();
/// assert_eq!(self_collision.points().len(), 16);
/// ```
#[derive(Debug, Clone)]
pub struct PointTriangleContacts {
    triangles: Vec<[u32; 3]>,
    points: Vec<u32>,
    distance: f64,
    friction: Friction,
    options: ContactOptions,
    stencil: Vec<[u32; 4]>,
    weights: Vec<[f64; 3]>,
    normal: Vec<Vector<3>>,
    friction_used: TangentialBudget,
}

impl PointTriangleContacts {
    /// Triangles of the mesh (particle indices), thickness `distance` (m, > 0).
    pub fn new(
        triangles: &[[usize; 3]],
        distance: f64,
        friction: Friction,
        options: ContactOptions,
    ) -> Result<Self, ContactError> {
        check_size("contact distance (thickness)", distance, false)?;
        friction.validate()?;
        options.validate()?;
        let triangles: Vec<[u32; 3]> = triangles.iter().map(|t| t.map(|i| i as u32)).collect();
        let mut points: Vec<u32> = triangles.iter().flatten().copied().collect();
        points.sort_unstable();
        points.dedup();
        Ok(Self {
            triangles,
            points,
            distance,
            friction,
            options,
            stencil: Vec::new(),
            weights: Vec::new(),
            normal: Vec::new(),
            friction_used: TangentialBudget::default(),
        })
    }

    /// Also tests these particles against the triangles.
    pub fn with_points(mut self, points: impl IntoIterator<Item = usize>) -> Self {
        self.points.extend(points.into_iter().map(|p| p as u32));
        self.points.sort_unstable();
        self.points.dedup();
        self
    }

    /// Tests only these particles against the triangles (replacing the mesh vertices, e.g.
    /// the particles of another body against a cloth, without the cloth's self-collision).
    pub fn with_only_points(mut self, points: impl IntoIterator<Item = usize>) -> Self {
        self.points.clear();
        self.with_points(points)
    }

    /// The particles tested against the triangles.
    pub fn points(&self) -> &[u32] {
        &self.points
    }

    /// Current contacts as `[p, a, b, c]`.
    pub fn contacts(&self) -> &[[u32; 4]] {
        &self.stencil
    }

    /// The barycentric weights β of each current contact's closest point, frozen at
    /// generation (in [`PointTriangleContacts::contacts`] order).
    pub fn weights(&self) -> &[[f64; 3]] {
        &self.weights
    }

    /// The unit normal n̂ of each current contact, frozen at generation.
    pub fn normals(&self) -> &[Vector<3>] {
        &self.normal
    }

    /// The thickness d (m): `C = n̂·(x_p − Σ βᵢ xᵢ) − d`.
    pub fn distance(&self) -> f64 {
        self.distance
    }

    /// The Coulomb friction of every contact.
    pub fn friction(&self) -> Friction {
        self.friction
    }

    /// The options (generation, projection, margin, acceleration bound).
    pub fn options(&self) -> &ContactOptions {
        &self.options
    }

    /// The first (point, triangle, distance) in triangle order with the point closer than
    /// `(1 − 10⁻⁹) d` to a triangle that does not contain it, in `x`: a point that starts
    /// inside the thickness (the contact would push it to one side in one substep, possibly the
    /// wrong one). `None` when there is none.
    pub fn first_overlap(&self, x: &[Vector<3>]) -> Option<(usize, usize, f64)> {
        let n = x.len();
        let mut is_point = vec![false; n];
        for &p in &self.points {
            if (p as usize) < n {
                is_point[p as usize] = true;
            }
        }
        let grid = build_grid(x, self.distance)?;
        let bound = (1.0 - 1e-9) * self.distance;
        for (k, t) in self.triangles.iter().enumerate() {
            let corners = t.map(|i| x[i as usize]);
            let centroid = (corners[0] + corners[1] + corners[2]) / 3.0;
            let reach = corners
                .iter()
                .map(|c| (c - centroid).norm())
                .fold(0.0, f64::max);
            let mut found: Option<(usize, f64)> = None;
            grid.for_each_within(x, &centroid, reach + self.distance, |q| {
                if !is_point[q] || t.contains(&(q as u32)) {
                    return;
                }
                let b = closest_point_barycentric(&x[q], &corners);
                let closest = corners[0] * b[0] + corners[1] * b[1] + corners[2] * b[2];
                let d = (x[q] - closest).norm();
                if d < bound && found.is_none_or(|(p, _)| q < p) {
                    found = Some((q, d));
                }
            });
            if let Some((q, d)) = found {
                return Some((q, k, d));
            }
        }
        None
    }

    fn generate(&mut self, particles: &Particles<3>, ctx: &SubstepContext) {
        self.stencil.clear();
        self.weights.clear();
        self.normal.clear();
        let x = &particles.x;
        let n = x.len();
        if self.triangles.is_empty() || self.points.is_empty() || n == 0 {
            return;
        }
        let span = self.options.generation_span(ctx.h, ctx.substeps);
        let mut is_point = vec![false; n];
        for &p in &self.points {
            if (p as usize) < n {
                is_point[p as usize] = true;
            }
        }
        let mut in_mesh = vec![false; n];
        for t in &self.triangles {
            for &i in t {
                in_mesh[i as usize] = true;
            }
        }
        let (dev, mean_dev) = speed_deviations(&particles.v, |p| is_point[p] || in_mesh[p]);
        let corners = |t: &[u32; 3]| t.map(|i| x[i as usize]);
        let centroids: Vec<Vector<3>> = self
            .triangles
            .iter()
            .map(|t| {
                let [a, b, c] = corners(t);
                (a + b + c) / 3.0
            })
            .collect();
        let r_tri = self
            .triangles
            .iter()
            .zip(&centroids)
            .map(|(t, m)| {
                corners(t)
                    .iter()
                    .map(|p| (p - m).norm())
                    .fold(0.0, f64::max)
            })
            .fold(0.0, f64::max);
        let dev_tri: Vec<f64> = self
            .triangles
            .iter()
            .map(|t| t.iter().map(|&i| dev[i as usize]).fold(0.0, f64::max))
            .collect();
        let reach = |d: f64| r_tri + self.distance + self.options.gap_bound(2.0 * d, span);
        let cell = reach(mean_dev);
        let (Some(tri_grid), Some(point_grid)) =
            (build_grid(&centroids, cell), build_grid(x, cell))
        else {
            return;
        };
        let this = &*self;
        // Narrow phase of point p against triangle t (module docs).
        let narrow = |p: usize, t: usize, out: &mut Vec<Candidate>| {
            let tri = this.triangles[t];
            if tri.contains(&(p as u32)) {
                return;
            }
            let w = &particles.inv_mass;
            if w[p] <= 0.0 && tri.iter().all(|&i| w[i as usize] <= 0.0) {
                return;
            }
            let v = &particles.v;
            let pts = corners(&tri);
            let beta = closest_point_barycentric(&x[p], &pts);
            let q = pts[0] * beta[0] + pts[1] * beta[1] + pts[2] * beta[2];
            let vq = v[tri[0] as usize] * beta[0]
                + v[tri[1] as usize] * beta[1]
                + v[tri[2] as usize] * beta[2];
            let offset = x[p] - q;
            let dist = offset.norm();
            if dist - this.distance >= this.options.gap_bound((v[p] - vq).norm(), span) {
                return;
            }
            let n = if dist > 1e-12 * this.distance.max(1.0) {
                offset / dist
            } else {
                (pts[1] - pts[0]).cross(&(pts[2] - pts[0])).normalize()
            };
            if n.iter().all(|c| c.is_finite()) {
                out.push(([p as u32, tri[0], tri[1], tri[2]], beta, n));
            }
        };
        // Pass 1: each point searches the triangles it is responsible for (dev_t ≤ dev_p, so
        // the relative speed is at most 2 dev_p and within its search radius).
        let from_points: Vec<Candidate> = self
            .points
            .par_chunks(CHUNK)
            .flat_map_iter(|chunk| {
                let mut out = Vec::new();
                for &p in chunk {
                    let p = p as usize;
                    if p >= n {
                        continue;
                    }
                    tri_grid.for_each_within(&centroids, &x[p], reach(dev[p]), |t| {
                        if dev_tri[t] <= dev[p] {
                            narrow(p, t, &mut out);
                        }
                    });
                }
                out
            })
            .collect();
        // Pass 2: each triangle searches the points that are slower than its fastest vertex.
        let from_triangles: Vec<Candidate> = (0..self.triangles.len().div_ceil(CHUNK))
            .into_par_iter()
            .flat_map_iter(|chunk| {
                let mut out = Vec::new();
                for t in chunk * CHUNK..((chunk + 1) * CHUNK).min(this.triangles.len()) {
                    if dev_tri[t] == 0.0 {
                        continue;
                    }
                    point_grid.for_each_within(x, &centroids[t], reach(dev_tri[t]), |p| {
                        if is_point[p] && dev[p] < dev_tri[t] {
                            narrow(p, t, &mut out);
                        }
                    });
                }
                out
            })
            .collect();
        for (s, b, n) in from_points.into_iter().chain(from_triangles) {
            self.stencil.push(s);
            self.weights.push(b);
            self.normal.push(n);
        }
    }
}

/// A contact candidate: stencil `[p, a, b, c]`, barycentric weights, frozen normal.
type Candidate = ([u32; 4], [f64; 3], Vector<3>);

impl ConstraintKind<3> for PointTriangleContacts {
    const NAME: &'static str = "point-triangle contact";
    const FIXED_ARITY: usize = 4;

    fn len(&self) -> usize {
        self.stencil.len()
    }

    fn stencil(&self, c: usize) -> &[u32] {
        &self.stencil[c]
    }

    fn compliance(&self, _c: usize) -> f64 {
        0.0
    }

    fn unilateral(&self) -> bool {
        true
    }

    #[inline]
    fn evaluate(&self, c: usize, xs: &[Vector<3>], grad: &mut [Vector<3>]) -> f64 {
        let n = self.normal[c];
        let b = self.weights[c];
        let q = xs[1] * b[0] + xs[2] * b[1] + xs[3] * b[2];
        grad[0] = n;
        grad[1] = -n * b[0];
        grad[2] = -n * b[1];
        grad[3] = -n * b[2];
        n.dot(&(xs[0] - q)) - self.distance
    }

    #[inline]
    fn after_projection(
        &self,
        c: usize,
        idx: &[u32],
        xs: &mut [Vector<3>],
        grad: &[Vector<3>],
        x_prev: &[Vector<3>],
        w: &[f64],
        lambda: f64,
        _delta_lambda: f64,
        _h: f64,
    ) -> bool {
        apply_coulomb_friction(
            &self.friction,
            &self.friction_used,
            c,
            idx,
            xs,
            grad,
            x_prev,
            w,
            Vector::<3>::zeros(),
            lambda,
        )
    }

    fn projects_in_iteration(&self, iteration: usize, iterations: usize) -> bool {
        self.options.projection.projects_in(iteration, iterations)
    }

    fn begin_substep(&mut self, particles: &Particles<3>, ctx: &SubstepContext) {
        if self.options.regenerate_at(ctx.substep) {
            self.generate(particles, ctx);
        }
        let n_contacts = self.len();
        self.friction_used.reset(n_contacts);
    }

    /// Always `true`: the contact list changes between substeps (with
    /// [`super::ContactGeneration::PerStep`] only at the first, but the simulation decides
    /// once, when the block is added, whether to track incidence counts).
    fn dynamic_topology(&self) -> bool {
        true
    }

    fn validate(&self) -> Result<(), BuildError> {
        self.options.validate()?;
        self.friction.validate()?;
        Ok(())
    }
}
