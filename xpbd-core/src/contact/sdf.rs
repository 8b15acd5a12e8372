//! Signed-distance grids: node samples of φ on a regular grid, multilinear interpolation.
//!
//! # Building one from a closed triangle mesh (D = 3)
//! After R. Bridson's `makelevelset3` (the SDFGen tool; R. Bridson, "Fluid Simulation for
//! Computer Graphics", 2nd ed., 2015), in two independent parts:
//!
//! * **Sign by ray crossings.** Every triangle is projected onto the (y, z) plane. For each
//!   grid line (y_j, z_k) inside the projection, the crossing x is interpolated and the
//!   triangle's orientation (the sign of its normal's x component) is subtracted from a
//!   per-row counter at the first node with x_i > x; a prefix sum along x then gives each node's
//!   winding number `w`, the number of signed crossings of the ray from the node towards −x.
//!   Off the surface this is the generalised winding number `Σ_t Ω_t / 4π` (Jacobson et al.
//!   2013) of the mesh; a node is inside when `w > ½`, i.e. `w ≥ 1` (outward-facing triangles
//!   give 1 inside; a mesh with inward normals gives −1 there and counts as all outside).
//!   Whether a line passes inside a projected triangle is decided by exact orientation
//!   predicates (a floating-point filter with an exact expansion fallback, Shewchuk 1997),
//!   each edge evaluated in one canonical vertex order, with the line symbolically moved by
//!   (ε, ε²) in (y, z) (simulation of simplicity): a line through a shared edge or vertex of
//!   a watertight mesh is counted by exactly one of the triangles around it, and triangles
//!   whose projection has zero area count for nothing.
//! * **Distance: exact in a narrow band, then closest-triangle propagation.** Every node in a
//!   triangle's bounding box grown by 2 cells, cut to the slab within 2 cells of the
//!   triangle's plane, gets its exact distance to that triangle (closest point on a triangle,
//!   Ericson, "Real-Time Collision Detection" §5.1.5); each node keeps the smallest and its
//!   triangle, so every node within 2 cells of the surface has its exact value. Fast sweeping
//!   (H. Zhao, "A fast sweeping method for Eikonal equations", Math. Comp. 74, 2005) in the 8
//!   diagonal orders, as in makelevelset3, then lets every other node look at its 7 upwind
//!   neighbours' closest triangles and take one that is nearer. Two local refinements follow,
//!   each node on its own: a descent over the mesh (move to a triangle sharing a vertex with
//!   the node's one while that is nearer), then one look at the 26 neighbours' triangles
//!   (with a descent from any nearer one). Every value is the exact distance to some triangle,
//!   recomputed at the end as above: the true distance within 2 cells of the surface, an upper
//!   bound beyond, equal to the brute-force minimum to rounding on every test mesh (a node can
//!   miss its closest triangle only when no neighbour has it and no descent leads to it).
//!
//! Cost: O(nodes + Σ_t 8 (size_t / cell + 5)² + projected area / cell²) distance and predicate
//! evaluations (t over triangles): per node at most 8 · 7 evaluations in the sweeps (fewer in
//! practice: a neighbour holding the node's own triangle, or the last one it rejected, is
//! skipped), a few dozen in the descent and the polish (the look at the 26 neighbours). The
//! brute-force construction this replaces evaluated every triangle at every node,
//! O(nodes × triangles): for a 20 480-triangle sphere of radius 0.5 m at 2 cm cells (176k
//! nodes) it took 85–110 s against 0.45–0.7 s now (2 busy cores), and 4 mm cells (21M nodes)
//! now take 10–20 s instead of an estimated 3 h. Every step gives the same grid for any number of threads: the crossings are counted
//! serially; the band runs in slabs of z-planes, each walking its triangles in index order; a
//! sweep runs as a wavefront of node blocks that reproduces the serial sweep exactly; the
//! descent, the polish and the prefix sums work per node or per row from fixed inputs.

mod distance;
mod lattice;
mod winding;

use std::collections::HashMap;

use rayon::prelude::*;

use distance::{NONE, closest_triangles};
use lattice::Lattice;
use winding::winding_numbers;

use super::error::{ContactError, check_size};
use crate::Vector;
use crate::builders::TriangleSurface;

/// φ sampled at the nodes `origin + cell · (i₀, …, i_{D−1})`, node index axis 0 fastest.
///
/// Inside the box, φ and ∇φ come from multilinear interpolation (exact for a φ that is
/// linear over a cell, e.g. near a flat face). Outside it, φ is the value at the nearest box
/// point plus the distance to the box (an upper bound of the true distance) and ∇φ points
/// away from the box.
#[derive(Debug, Clone, PartialEq)]
pub struct SdfGrid<const D: usize> {
    origin: Vector<D>,
    cell: f64,
    dims: [usize; D],
    values: Vec<f64>,
}

impl<const D: usize> SdfGrid<D> {
    /// A grid from node values (length Π dims, axis 0 fastest). Each dim must be ≥ 2.
    pub fn from_values(
        origin: Vector<D>,
        cell: f64,
        dims: [usize; D],
        values: Vec<f64>,
    ) -> Result<Self, ContactError> {
        check_size("sdf cell size", cell, false)?;
        for &o in origin.iter() {
            super::error::check_finite("sdf origin", o)?;
        }
        let count: usize = dims.iter().product();
        if dims.iter().any(|&d| d < 2) || values.len() != count {
            return Err(ContactError::NegativeSize {
                field: "sdf grid nodes (need >= 2 per axis and one value per node)",
                value: values.len() as f64,
            });
        }
        for &v in &values {
            super::error::check_finite("sdf value", v)?;
        }
        Ok(Self {
            origin,
            cell,
            dims,
            values,
        })
    }

    /// Nodes per axis.
    pub fn dims(&self) -> [usize; D] {
        self.dims
    }

    /// Node spacing (m).
    pub fn cell_size(&self) -> f64 {
        self.cell
    }

    /// The position of node (0, …, 0) in the grid's local frame (m).
    pub fn origin(&self) -> Vector<D> {
        self.origin
    }

    /// φ at every node, axis 0 fastest (the layout of [`SdfGrid::from_values`]).
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// φ at node `i` (multi-index).
    pub fn node_value(&self, i: [usize; D]) -> f64 {
        let mut lin = 0;
        for k in (0..D).rev() {
            lin = lin * self.dims[k] + i[k];
        }
        self.values[lin]
    }

    /// `(φ, ∇φ / |∇φ|)` at the local point `x` (see the type docs).
    pub fn sample(&self, x: &Vector<D>) -> (f64, Vector<D>) {
        let mut clamped = *x;
        for k in 0..D {
            let hi = self.origin[k] + self.cell * (self.dims[k] - 1) as f64;
            clamped[k] = x[k].clamp(self.origin[k], hi);
        }
        let outside = x - clamped;
        let (phi, grad) = self.interpolate(&clamped);
        let d_out = outside.norm();
        if d_out > 0.0 {
            return (phi + d_out, outside / d_out);
        }
        let g = grad.norm();
        if g > 0.0 {
            (phi, grad / g)
        } else {
            let mut up = Vector::<D>::zeros();
            up[D - 1] = 1.0;
            (phi, up)
        }
    }

    /// Multilinear interpolation of φ and its exact gradient at a point inside the box.
    fn interpolate(&self, x: &Vector<D>) -> (f64, Vector<D>) {
        let mut base = [0usize; D];
        let mut t = [0.0; D];
        for k in 0..D {
            let f = (x[k] - self.origin[k]) / self.cell;
            let i = (f.floor().max(0.0) as usize).min(self.dims[k] - 2);
            base[k] = i;
            t[k] = (f - i as f64).clamp(0.0, 1.0);
        }
        let mut phi = 0.0;
        let mut grad = Vector::<D>::zeros();
        for corner in 0..(1usize << D) {
            let mut node = base;
            let mut weight = 1.0;
            let mut dweight = [1.0; D];
            for k in 0..D {
                let bit = (corner >> k) & 1;
                node[k] += bit;
                let (wk, dk) = if bit == 1 {
                    (t[k], 1.0)
                } else {
                    (1.0 - t[k], -1.0)
                };
                weight *= wk;
                for j in 0..D {
                    dweight[j] *= if j == k { dk } else { wk };
                }
            }
            let v = self.node_value(node);
            phi += weight * v;
            for j in 0..D {
                grad[j] += dweight[j] * v / self.cell;
            }
        }
        (phi, grad)
    }
}

impl SdfGrid<3> {
    /// Builds the signed-distance grid of a closed, consistently oriented triangle mesh
    /// (see the module docs), with node spacing `cell` over the mesh's bounding box grown by
    /// `padding` on every side. Vertices at identical positions are welded first, so OBJ files
    /// whose vertices were split by normals or texture coordinates still count as closed.
    ///
    /// ```
    /// use xpbd_core::builders::TriangleSurface;
    /// use xpbd_core::contact::SdfGrid;
    /// use xpbd_core::Vector;
    /// let cube = TriangleSurface::unit_cube();
    /// let sdf = SdfGrid::from_mesh(&cube, 0.1, 0.3).unwrap();
    /// let (phi, n) = sdf.sample(&Vector::<3>::new(0.0, 0.0, 0.8));
    /// assert!((phi - 0.3).abs() < 1e-9 && (n.z - 1.0).abs() < 1e-9);
    /// ```
    pub fn from_mesh(
        mesh: &TriangleSurface,
        cell: f64,
        padding: f64,
    ) -> Result<Self, ContactError> {
        check_size("sdf cell size", cell, false)?;
        check_size("sdf padding", padding, true)?;
        let (vertices, triangles) = weld(mesh)?;
        check_closed(&triangles)?;
        let mut lo = Vector::<3>::repeat(f64::INFINITY);
        let mut hi = Vector::<3>::repeat(f64::NEG_INFINITY);
        for v in &vertices {
            lo = lo.inf(v);
            hi = hi.sup(v);
        }
        lo -= Vector::<3>::repeat(padding);
        hi += Vector::<3>::repeat(padding);
        let mut dims = [0usize; 3];
        for k in 0..3 {
            dims[k] = ((hi[k] - lo[k]) / cell).ceil() as usize + 1;
        }
        let lattice = Lattice {
            origin: lo,
            cell,
            dims,
        };
        let tris: Vec<[Vector<3>; 3]> = triangles
            .iter()
            .map(|t| [vertices[t[0]], vertices[t[1]], vertices[t[2]]])
            .collect();
        let (mut values, closest) = closest_triangles(&tris, &triangles, vertices.len(), &lattice);
        let winding = winding_numbers(&vertices, &triangles, &lattice);
        values
            .par_iter_mut()
            .zip(winding.par_iter())
            .zip(closest.par_iter())
            .enumerate()
            .for_each(|(lin, ((v, &w), &t))| {
                let mut d2 = *v;
                if t == NONE {
                    // Not reached by the sweeps (cannot happen: the band is never empty and
                    // the first pass reaches every node from it); all triangles then.
                    let x = lattice.node(lattice.multi_index(lin));
                    d2 = tris.iter().fold(f64::INFINITY, |m, tri| {
                        m.min((closest_point_on_triangle(&x, tri) - x).norm_squared())
                    });
                }
                *v = if w > 0 { -d2.sqrt() } else { d2.sqrt() };
            });
        Self::from_values(lo, cell, dims, values)
    }
}

/// Winding numbers of a closed, consistently oriented triangle mesh at the nodes
/// `origin + cell · (i, j, k)` of a grid of `dims` nodes (axis 0 fastest): the sign part of
/// [`SdfGrid::from_mesh`] alone (same welding, same closedness check, same exact ray
/// crossings; see the module docs), for filling the inside of a mesh with particles. A node
/// is inside when its winding number is ≥ 1 (outward-facing triangles); a mesh whose
/// triangles face inwards gives −1 there. A grid with no node gives an empty list (the mesh
/// is still checked).
///
/// ```
/// use xpbd_core::builders::TriangleSurface;
/// use xpbd_core::contact::sdf::mesh_winding_numbers;
/// use xpbd_core::Vector;
/// let cube = TriangleSurface::unit_cube(); // [-0.5, 0.5]³
/// // The nodes x = -0.75, -0.25, 0.25, 0.75 on the x axis.
/// let origin = Vector::<3>::new(-0.75, 0.0, 0.0);
/// let w = mesh_winding_numbers(&cube, origin, 0.5, [4, 1, 1]).unwrap();
/// assert_eq!(w, [0, 1, 1, 0]);
/// ```
pub fn mesh_winding_numbers(
    mesh: &TriangleSurface,
    origin: Vector<3>,
    cell: f64,
    dims: [usize; 3],
) -> Result<Vec<i32>, ContactError> {
    check_size("sdf cell size", cell, false)?;
    for &c in origin.iter() {
        super::error::check_finite("grid origin", c)?;
    }
    let (vertices, triangles) = weld(mesh)?;
    check_closed(&triangles)?;
    if dims.contains(&0) {
        return Ok(Vec::new());
    }
    let lattice = Lattice { origin, cell, dims };
    Ok(winding_numbers(&vertices, &triangles, &lattice))
}

/// Merges vertices with bit-identical positions; checks indices and triangle areas.
#[allow(clippy::type_complexity)]
fn weld(mesh: &TriangleSurface) -> Result<(Vec<Vector<3>>, Vec<[usize; 3]>), ContactError> {
    let mut map: HashMap<[u64; 3], usize> = HashMap::new();
    let mut remap = Vec::with_capacity(mesh.vertices.len());
    let mut vertices = Vec::new();
    for v in &mesh.vertices {
        for &c in v.iter() {
            super::error::check_finite("mesh vertex", c)?;
        }
        let key = [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
        let id = *map.entry(key).or_insert_with(|| {
            vertices.push(*v);
            vertices.len() - 1
        });
        remap.push(id);
    }
    let mut triangles = Vec::with_capacity(mesh.triangles.len());
    for (ti, t) in mesh.triangles.iter().enumerate() {
        if t.iter().any(|&i| i >= remap.len()) {
            return Err(ContactError::BadTriangle {
                triangle: ti,
                reason: "vertex index out of range",
            });
        }
        let w = [remap[t[0]], remap[t[1]], remap[t[2]]];
        let area2 = (vertices[w[1]] - vertices[w[0]])
            .cross(&(vertices[w[2]] - vertices[w[0]]))
            .norm();
        if area2.is_nan() || area2 <= 0.0 {
            return Err(ContactError::BadTriangle {
                triangle: ti,
                reason: "zero area",
            });
        }
        triangles.push(w);
    }
    if triangles.is_empty() {
        return Err(ContactError::BadTriangle {
            triangle: 0,
            reason: "mesh has no triangles",
        });
    }
    Ok((vertices, triangles))
}

/// Every undirected edge must appear exactly once in each direction (a closed, oriented
/// 2-manifold edge structure).
fn check_closed(triangles: &[[usize; 3]]) -> Result<(), ContactError> {
    let mut count: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
    for t in triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let e = count.entry((a.min(b), a.max(b))).or_default();
            if a < b {
                e.0 += 1;
            } else {
                e.1 += 1;
            }
        }
    }
    let mut bad: Vec<_> = count
        .into_iter()
        .filter(|(_, (f, b))| *f != 1 || *b != 1)
        .collect();
    bad.sort_unstable();
    if let Some(&((a, b), (forward, backward))) = bad.first() {
        return Err(ContactError::NonClosedMesh {
            a,
            b,
            forward,
            backward,
        });
    }
    Ok(())
}

/// Closest point to `p` on triangle `t` (Ericson 2005, §5.1.5, Voronoi regions).
pub fn closest_point_on_triangle(p: &Vector<3>, t: &[Vector<3>; 3]) -> Vector<3> {
    let bary = closest_point_barycentric(p, t);
    t[0] * bary[0] + t[1] * bary[1] + t[2] * bary[2]
}

/// Barycentric coordinates of the closest point to `p` on triangle `t` (Ericson §5.1.5).
pub(crate) fn closest_point_barycentric(p: &Vector<3>, t: &[Vector<3>; 3]) -> [f64; 3] {
    let (a, b, c) = (t[0], t[1], t[2]);
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(&ap);
    let d2 = ac.dot(&ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return [1.0, 0.0, 0.0];
    }
    let bp = p - b;
    let d3 = ab.dot(&bp);
    let d4 = ac.dot(&bp);
    if d3 >= 0.0 && d4 <= d3 {
        return [0.0, 1.0, 0.0];
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return [1.0 - v, v, 0.0];
    }
    let cp = p - c;
    let d5 = ab.dot(&cp);
    let d6 = ac.dot(&cp);
    if d6 >= 0.0 && d5 <= d6 {
        return [0.0, 0.0, 1.0];
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return [1.0 - w, 0.0, w];
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return [0.0, 1.0 - w, w];
    }
    let denom = 1.0 / (va + vb + vc);
    let v = vb * denom;
    let w = vc * denom;
    [1.0 - v - w, v, w]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cube's SDF at nodes equals the exact box distance: nodes lie on the grid, and φ is
    /// computed exactly there (closest point + winding sign), so only rounding remains.
    #[test]
    fn cube_sdf_matches_the_exact_box_distance_at_random_points_near_faces() {
        let cube = TriangleSurface::unit_cube();
        let sdf = SdfGrid::from_mesh(&cube, 0.05, 0.2).unwrap();
        let exact = super::super::shape::Shape::<3>::Box {
            half_extents: Vector::<3>::repeat(0.5),
        };
        // Points whose closest feature is a face: φ linear per cell → interpolation exact.
        for x in [
            Vector::<3>::new(0.1, -0.2, 0.62),
            Vector::<3>::new(-0.61, 0.05, 0.1),
            Vector::<3>::new(0.0, 0.1, -0.3),
        ] {
            let (a, _) = sdf.sample(&x);
            let (b, _) = exact.signed_distance_local(&x);
            assert!((a - b).abs() < 1e-9, "{x:?}: sdf {a} vs exact {b}");
        }
    }
}
