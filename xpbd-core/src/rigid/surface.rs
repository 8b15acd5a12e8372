//! Triangle surfaces of rigid bodies, for export and drawing: a sphere as a subdivided
//! icosahedron and a box as its twelve triangles (the builders' `TriangleSurface`), a capsule as a cylinder with hemispherical
//! caps, a mesh body as its own triangles; in world coordinates at the body's pose.

use super::RigidBodies;
use crate::Vector;
use crate::builders::TriangleSurface;
use crate::contact::Shape;

/// Subdivisions of a sphere's icosahedron (162 vertices).
const SPHERE_LEVEL: usize = 2;
/// Segments around a capsule and rings per cap.
const CAPSULE_SEGMENTS: usize = 24;
const CAPSULE_RINGS: usize = 6;

impl RigidBodies {
    /// The surface of body `i` at its current pose (world coordinates).
    pub fn surface(&self, i: usize) -> TriangleSurface {
        let body = &self.bodies[i];
        let mut s = match &body.shape {
            Shape::Sphere { radius } => {
                TriangleSurface::icosphere(SPHERE_LEVEL, *radius, Vector::<3>::zeros())
            }
            Shape::Box { half_extents } => cuboid(half_extents),
            Shape::Capsule {
                half_length,
                radius,
            } => capsule(*half_length, *radius),
            Shape::Sdf(_) => TriangleSurface {
                vertices: self.features[i].iter().map(|(v, _)| *v).collect(),
                triangles: self.mesh_triangles[i].clone(),
            },
            Shape::HalfSpace { .. } => TriangleSurface {
                vertices: Vec::new(),
                triangles: Vec::new(),
            },
        };
        let pose = body.pose();
        s.vertices.iter_mut().for_each(|v| *v = pose.to_world(v));
        s
    }
}

/// A box of half extents `h` centred at the origin: the unit cube stretched by `2h`.
fn cuboid(h: &Vector<3>) -> TriangleSurface {
    let mut s = TriangleSurface::unit_cube();
    s.vertices
        .iter_mut()
        .for_each(|v| *v = v.component_mul(h) * 2.0);
    s
}

/// A capsule along x: rings of a sphere of `radius` split at its equator and moved to ±L,
/// closed by a vertex at each pole.
fn capsule(half_length: f64, radius: f64) -> TriangleSurface {
    let (n, m) = (CAPSULE_SEGMENTS, CAPSULE_RINGS);
    // Rings from the −x cap to the +x cap (poles excluded), each `n` vertices.
    let mut rings = Vec::new();
    for r in 1..=m {
        let phi = std::f64::consts::FRAC_PI_2 * r as f64 / m as f64;
        rings.push((-half_length - radius * phi.cos(), radius * phi.sin()));
    }
    for r in 0..m {
        let phi = std::f64::consts::FRAC_PI_2 * r as f64 / m as f64;
        rings.push((half_length + radius * phi.sin(), radius * phi.cos()));
    }
    let mut vertices = Vec::new();
    for &(x, rho) in &rings {
        for k in 0..n {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            vertices.push(Vector::<3>::new(x, rho * a.cos(), rho * a.sin()));
        }
    }
    let mut triangles = Vec::new();
    for r in 0..rings.len() - 1 {
        for k in 0..n {
            let (a, b) = (r * n + k, r * n + (k + 1) % n);
            let (c, d) = (a + n, b + n);
            triangles.push([a, b, c]);
            triangles.push([b, d, c]);
        }
    }
    let west = vertices.len();
    vertices.push(Vector::<3>::new(-half_length - radius, 0.0, 0.0));
    let east = vertices.len();
    vertices.push(Vector::<3>::new(half_length + radius, 0.0, 0.0));
    let last = (rings.len() - 1) * n;
    for k in 0..n {
        let k1 = (k + 1) % n;
        triangles.push([west, k1, k]);
        triangles.push([east, last + k, last + k1]);
    }
    TriangleSurface {
        vertices,
        triangles,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each surface encloses its shape's volume (divergence theorem), to the tessellation's
    /// accuracy, with outward triangles.
    #[test]
    fn surfaces_enclose_their_shapes_volume() {
        let volume = |s: &TriangleSurface| -> f64 {
            s.triangles
                .iter()
                .map(|t| {
                    let (a, b, c) = (s.vertices[t[0]], s.vertices[t[1]], s.vertices[t[2]]);
                    a.dot(&b.cross(&c)) / 6.0
                })
                .sum()
        };
        let h = Vector::<3>::new(0.1, 0.2, 0.3);
        assert!((volume(&cuboid(&h)) - 8.0 * 0.006).abs() < 1e-15);
        let sphere = volume(&TriangleSurface::icosphere(
            SPHERE_LEVEL,
            1.0,
            Vector::<3>::zeros(),
        ));
        let exact = 4.0 / 3.0 * std::f64::consts::PI;
        assert!(sphere > 0.95 * exact && sphere < exact, "{sphere}");
        let (l, r) = (0.2, 0.1);
        let cap = volume(&capsule(l, r));
        let exact =
            std::f64::consts::PI * r * r * 2.0 * l + 4.0 / 3.0 * std::f64::consts::PI * r.powi(3);
        assert!(cap > 0.97 * exact && cap < exact, "{cap} vs {exact}");
        // No degenerate triangle (exported cells carry their area).
        let s = capsule(l, r);
        for t in &s.triangles {
            let (a, b, c) = (s.vertices[t[0]], s.vertices[t[1]], s.vertices[t[2]]);
            assert!((b - a).cross(&(c - a)).norm() > 0.0, "{t:?}");
        }
    }
}
