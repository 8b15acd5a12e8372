//! Narrow phase of [`super::ColliderTriangleContacts`]: the points of a convex collider that
//! can cross a triangle, each with the barycentric weights of the triangle point it faces and
//! the frozen normal.
//!
//! With `n̂_f` the unit face normal oriented towards the collider's centre, the collider's part
//! inside the triangle's prism (the triangle swept along `n̂_f`) reaches deepest along `−n̂_f`
//! at a vertex of the convex polytope `core ∩ prism` (the core: a box, a capsule's axis
//! segment, a sphere's centre; the rounded shapes add their radius R). Its vertices are
//! (a) corners of the core inside the prism (a box corner, a capsule's axis end, the centre),
//! (b) crossings of the core's edges with the prism's side planes, above a triangle edge, and
//! (c) for a box, crossings of the prism's edges (the lines through the triangle's vertices
//! along `n̂_f`) with its faces: its lowest point over a vertex.
//! Each is a *face* touch with normal `n̂_f`; together they keep the whole core inside the prism
//! on the collider's side of the triangle's plane (a linear function is smallest at a vertex).
//! A sphere or a capsule also reaches an edge or a vertex of the triangle from outside the
//! prism (a ridge of folded cloth): the exact closest point between the core and the triangle
//! (Ericson 2005, "Real-Time Collision Detection", §5.1.5 point–triangle, §5.1.9
//! segment–segment, §5.1.10) gives a touch with the normal from the triangle point to the core.
//! A touch at a vertex (β a unit vector) is the particle contact with margin 0 and a frozen
//! normal: inactive while the particle contact holds the vertex off, it stops the vertex from
//! being pushed through a collider that moves farther than its radius in a substep.

use crate::Vector;
use crate::contact::sdf::closest_point_barycentric;
use crate::contact::{Pose, Shape};

/// A point of a collider facing a triangle point: `C = n̂·(y − Σ βᵢ xᵢ) − offset`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Touch {
    /// Barycentric weights β of the triangle point (each ≥ 0, summing to 1).
    pub beta: [f64; 3],
    /// Unit normal n̂, from the triangle towards the collider.
    pub normal: Vector<3>,
    /// The collider's point y (world, at the pose of generation).
    pub point: Vector<3>,
    /// The collider's radius around y (R of a sphere or capsule; 0 for a box corner).
    pub offset: f64,
}

/// Weights below this (in magnitude) count as zero: a point on a shared edge or at a vertex.
const ON_EDGE: f64 = 1e-12;

/// The touches of `shape` at `pose` against triangle `tri` (none for a degenerate triangle or
/// a shape that is not a sphere, capsule or box). `motion` is the collider's displacement
/// over the substep, which orients the normal when its centre lies in the triangle's plane.
pub(super) fn touches(
    shape: &Shape<3>,
    pose: &Pose<3>,
    motion: &Vector<3>,
    tri: &[Vector<3>; 3],
    out: &mut Vec<Touch>,
) {
    let cross = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
    let double_area = cross.norm();
    let scale = (tri[1] - tri[0]).norm().max((tri[2] - tri[0]).norm());
    // Degenerate (or non-finite) triangles have no face normal.
    if double_area.partial_cmp(&(1e-12 * scale * scale)) != Some(std::cmp::Ordering::Greater) {
        return;
    }
    let centre = pose.translation;
    let mut face = cross / double_area;
    let side = face.dot(&(centre - tri[0]));
    if side < 0.0 || (side.abs() <= 1e-12 * scale && face.dot(motion) > 0.0) {
        face = -face;
    }
    match shape {
        Shape::Sphere { radius } => {
            let beta = closest_point_barycentric(&centre, tri);
            if beta.iter().all(|&b| b > ON_EDGE) {
                out.push(Touch {
                    beta,
                    normal: face,
                    point: centre,
                    offset: *radius,
                });
            } else {
                boundary_touch(&centre, beta, tri, *radius, out);
            }
        }
        Shape::Capsule {
            half_length,
            radius,
        } => {
            let axis = pose.rotation.column(0).into_owned() * *half_length;
            let (p0, p1) = (centre - axis, centre + axis);
            if let Some((t0, t1)) = clip_to_prism(&p0, &p1, tri, &face) {
                let ends = if t1 > t0 { 2 } else { 1 };
                for t in [t0, t1].into_iter().take(ends) {
                    let y = p0 + (p1 - p0) * t;
                    out.push(Touch {
                        beta: plane_weights(&y, tri),
                        normal: face,
                        point: y,
                        offset: *radius,
                    });
                }
            }
            if !crosses_triangle(&p0, &p1, tri, &face) {
                let (a, beta) = closest_segment_triangle(&p0, &p1, tri);
                if beta.iter().any(|&b| b <= ON_EDGE) {
                    boundary_touch(&a, beta, tri, *radius, out);
                }
            }
        }
        Shape::Box { half_extents } => {
            let corner = |i: usize| {
                let s = |bit: usize| if i & bit != 0 { 1.0 } else { -1.0 };
                pose.to_world(&Vector::<3>::new(
                    s(1) * half_extents.x,
                    s(2) * half_extents.y,
                    s(4) * half_extents.z,
                ))
            };
            let corners: [Vector<3>; 8] = std::array::from_fn(corner);
            for y in &corners {
                if let Some(beta) = inside_weights(y, tri) {
                    out.push(Touch {
                        beta,
                        normal: face,
                        point: *y,
                        offset: 0.0,
                    });
                }
            }
            // The 12 edges join corners that differ in one bit.
            for i in 0..8 {
                for bit in [1, 2, 4] {
                    if i & bit == 0 {
                        side_crossings(&corners[i], &corners[i | bit], tri, &face, out);
                    }
                }
            }
            over_vertices(half_extents, pose, tri, &face, out);
        }
        Shape::HalfSpace { .. } | Shape::Sdf(_) => {}
    }
}

/// A touch for the core point `a` facing the triangle point of weights `beta` on the
/// triangle's boundary, with the normal from that point to `a` (none where they coincide).
fn boundary_touch(
    a: &Vector<3>,
    beta: [f64; 3],
    tri: &[Vector<3>; 3],
    radius: f64,
    out: &mut Vec<Touch>,
) {
    let q = tri[0] * beta[0] + tri[1] * beta[1] + tri[2] * beta[2];
    let d = a - q;
    let len = d.norm();
    if len > 0.0 && len.is_finite() {
        out.push(Touch {
            beta,
            normal: d / len,
            point: *a,
            offset: radius,
        });
    }
}

/// The lowest point of a box (`half_extents` at `pose`) on the line through each triangle
/// vertex along `face` (points (c) of the module docs), where the line meets the box.
fn over_vertices(
    half_extents: &Vector<3>,
    pose: &Pose<3>,
    tri: &[Vector<3>; 3],
    face: &Vector<3>,
    out: &mut Vec<Touch>,
) {
    let dir = pose.rotation.tr_mul(face);
    for (v, x) in tri.iter().enumerate() {
        let origin = pose.to_local(x);
        let (mut s0, mut s1) = (f64::NEG_INFINITY, f64::INFINITY);
        for i in 0..3 {
            let h = half_extents[i];
            if dir[i] == 0.0 {
                if origin[i].abs() > h {
                    s0 = f64::INFINITY;
                }
                continue;
            }
            let (a, b) = ((-h - origin[i]) / dir[i], (h - origin[i]) / dir[i]);
            s0 = s0.max(a.min(b));
            s1 = s1.min(a.max(b));
        }
        if s0 <= s1 && s0.is_finite() {
            let mut beta = [0.0; 3];
            beta[v] = 1.0;
            out.push(Touch {
                beta,
                normal: *face,
                point: x + face * s0,
                offset: 0.0,
            });
        }
    }
}

/// Barycentric weights of the projection of `y` on the triangle's plane.
fn plane_weights_raw(y: &Vector<3>, tri: &[Vector<3>; 3]) -> [f64; 3] {
    let (v0, v1, v2) = (tri[1] - tri[0], tri[2] - tri[0], y - tri[0]);
    let (d00, d01, d11) = (v0.dot(&v0), v0.dot(&v1), v1.dot(&v1));
    let (d20, d21) = (v2.dot(&v0), v2.dot(&v1));
    let denom = d00 * d11 - d01 * d01;
    let b1 = (d11 * d20 - d01 * d21) / denom;
    let b2 = (d00 * d21 - d01 * d20) / denom;
    [1.0 - b1 - b2, b1, b2]
}

/// [`plane_weights_raw`] clamped to the triangle (a point on a side plane rounds to a weight of
/// ±10⁻¹⁶ for the opposite vertex).
fn plane_weights(y: &Vector<3>, tri: &[Vector<3>; 3]) -> [f64; 3] {
    let b = plane_weights_raw(y, tri).map(|b| b.max(0.0));
    let sum = b[0] + b[1] + b[2];
    b.map(|b| b / sum)
}

/// The weights of `y`'s projection when it lies in the triangle (to rounding).
fn inside_weights(y: &Vector<3>, tri: &[Vector<3>; 3]) -> Option<[f64; 3]> {
    let b = plane_weights_raw(y, tri);
    b.iter()
        .all(|&b| b >= -ON_EDGE)
        .then(|| plane_weights(y, tri))
}

/// The inward normal of the prism's side plane through edge `i` (vertices i, i+1).
fn side_normal(i: usize, tri: &[Vector<3>; 3], face: &Vector<3>) -> Vector<3> {
    let (a, b, o) = (tri[i], tri[(i + 1) % 3], tri[(i + 2) % 3]);
    let m = face.cross(&(b - a));
    if m.dot(&(o - a)) < 0.0 { -m } else { m }
}

/// The parameters `t0 ≤ t1` of the part of segment `p0 + t (p1 − p0)`, `t ∈ [0, 1]`, inside the
/// triangle's prism (Liang–Barsky clipping against the three side planes), if any.
fn clip_to_prism(
    p0: &Vector<3>,
    p1: &Vector<3>,
    tri: &[Vector<3>; 3],
    face: &Vector<3>,
) -> Option<(f64, f64)> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for i in 0..3 {
        let m = side_normal(i, tri, face);
        let f0 = m.dot(&(p0 - tri[i]));
        let df = m.dot(&(p1 - p0));
        if df == 0.0 {
            if f0 < 0.0 {
                return None;
            }
            continue;
        }
        let t = -f0 / df;
        if df > 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
        if t0 > t1 {
            return None;
        }
    }
    Some((t0, t1))
}

/// The crossings of the box edge `y0 y1` with the prism's side planes above the triangle's
/// edges (points (b) of the module docs).
fn side_crossings(
    y0: &Vector<3>,
    y1: &Vector<3>,
    tri: &[Vector<3>; 3],
    face: &Vector<3>,
    out: &mut Vec<Touch>,
) {
    for i in 0..3 {
        let m = side_normal(i, tri, face);
        let (f0, f1) = (m.dot(&(y0 - tri[i])), m.dot(&(y1 - tri[i])));
        if (f0 < 0.0) == (f1 < 0.0) || f0 == f1 {
            continue;
        }
        let y = y0 + (y1 - y0) * (f0 / (f0 - f1));
        let raw = plane_weights_raw(&y, tri);
        // On the side plane of edge i: the opposite vertex's weight is ~0; the edge's own two
        // must be ≥ 0 for the crossing to lie above the edge.
        if raw[i] >= -ON_EDGE && raw[(i + 1) % 3] >= -ON_EDGE {
            out.push(Touch {
                beta: plane_weights(&y, tri),
                normal: *face,
                point: y,
                offset: 0.0,
            });
        }
    }
}

/// Whether segment `p0 p1` crosses (or touches) the triangle.
fn crosses_triangle(
    p0: &Vector<3>,
    p1: &Vector<3>,
    tri: &[Vector<3>; 3],
    face: &Vector<3>,
) -> bool {
    let (s0, s1) = (face.dot(&(p0 - tri[0])), face.dot(&(p1 - tri[0])));
    if (s0 > 0.0 && s1 > 0.0) || (s0 < 0.0 && s1 < 0.0) {
        return false;
    }
    let y = if s0 == s1 {
        *p0
    } else {
        p0 + (p1 - p0) * (s0 / (s0 - s1))
    };
    inside_weights(&y, tri).is_some()
}

/// The closest pair between segment `p0 p1` and a triangle it does not cross: the segment
/// point and the triangle point's weights. The minimum lies at a segment end against the
/// triangle or between the segment and a triangle edge (Ericson §5.1.10).
fn closest_segment_triangle(
    p0: &Vector<3>,
    p1: &Vector<3>,
    tri: &[Vector<3>; 3],
) -> (Vector<3>, [f64; 3]) {
    let point = |b: &[f64; 3]| tri[0] * b[0] + tri[1] * b[1] + tri[2] * b[2];
    let mut best = (f64::INFINITY, *p0, [1.0, 0.0, 0.0]);
    for p in [p0, p1] {
        let b = closest_point_barycentric(p, tri);
        let d = (p - point(&b)).norm_squared();
        if d < best.0 {
            best = (d, *p, b);
        }
    }
    for i in 0..3 {
        let j = (i + 1) % 3;
        let (s, t) = closest_segment_segment(p0, p1, &tri[i], &tri[j]);
        let a = p0 + (p1 - p0) * s;
        let mut b = [0.0; 3];
        b[i] = 1.0 - t;
        b[j] = t;
        let d = (a - point(&b)).norm_squared();
        if d < best.0 {
            best = (d, a, b);
        }
    }
    (best.1, best.2)
}

/// Parameters `(s, t) ∈ [0, 1]²` of the closest points of segments `p0 p1` and `q0 q1`
/// (Ericson §5.1.9).
fn closest_segment_segment(
    p0: &Vector<3>,
    p1: &Vector<3>,
    q0: &Vector<3>,
    q1: &Vector<3>,
) -> (f64, f64) {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.dot(&d1), d2.dot(&d2), d2.dot(&r));
    let tiny = 1e-300;
    if a <= tiny && e <= tiny {
        return (0.0, 0.0);
    }
    if a <= tiny {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(&r);
    if e <= tiny {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(&d2);
    let denom = a * e - b * b;
    let mut s = if denom > 0.0 {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (s, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri() -> [Vector<3>; 3] {
        [
            Vector::<3>::new(0.0, 0.0, 0.0),
            Vector::<3>::new(1.0, 0.0, 0.0),
            Vector::<3>::new(0.0, 1.0, 0.0),
        ]
    }

    /// A sphere above the face: one face touch at the centre's projection, normal +z.
    #[test]
    fn sphere_above_the_face_touches_it_at_the_projection() {
        let pose = Pose::from_translation(Vector::<3>::new(0.25, 0.25, 0.1));
        let mut out = Vec::new();
        let sphere = Shape::Sphere { radius: 0.05 };
        touches(&sphere, &pose, &Vector::<3>::zeros(), &tri(), &mut out);
        assert_eq!(out.len(), 1);
        let t = out[0];
        assert!((t.normal - Vector::<3>::z()).norm() < 1e-15);
        assert!((t.beta[1] - 0.25).abs() < 1e-15 && (t.beta[2] - 0.25).abs() < 1e-15);
    }

    /// A sphere beyond an edge touches the edge with the normal from the edge to the centre;
    /// one nearest a vertex touches the vertex.
    #[test]
    fn sphere_beside_an_edge_touches_the_edge_and_beside_a_vertex_the_vertex() {
        let sphere = Shape::Sphere { radius: 0.05 };
        let mut out = Vec::new();
        let beside = Pose::from_translation(Vector::<3>::new(0.5, -0.1, 0.1));
        touches(&sphere, &beside, &Vector::<3>::zeros(), &tri(), &mut out);
        assert_eq!(out.len(), 1);
        let n = Vector::<3>::new(0.0, -1.0, 1.0).normalize();
        assert!((out[0].normal - n).norm() < 1e-15);
        assert_eq!(out[0].beta, [0.5, 0.5, 0.0]);
        out.clear();
        let corner = Pose::from_translation(Vector::<3>::new(-0.1, -0.1, 0.1));
        touches(&sphere, &corner, &Vector::<3>::zeros(), &tri(), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].beta, [1.0, 0.0, 0.0]);
        assert!((out[0].normal - Vector::<3>::new(-1.0, -1.0, 1.0).normalize()).norm() < 1e-15);
    }

    /// A box standing on a corner over the face: the lowest corner is among the touches, at
    /// its own projection, with the face normal towards the box.
    #[test]
    fn box_corner_over_the_face_is_a_touch() {
        let h = 0.02;
        // Rotate the cube so that the corner (−h, −h, −h) points straight down.
        let d = Vector::<3>::new(-1.0, -1.0, -1.0).normalize();
        let rotation = nalgebra::Rotation3::rotation_between(&d, &(-Vector::<3>::z()))
            .unwrap()
            .into_inner();
        let pose = Pose {
            translation: Vector::<3>::new(0.3, 0.3, 0.1),
            rotation,
        };
        let cube = Shape::Box {
            half_extents: Vector::<3>::repeat(h),
        };
        let mut out = Vec::new();
        touches(&cube, &pose, &Vector::<3>::zeros(), &tri(), &mut out);
        let lowest = out
            .iter()
            .min_by(|a, b| a.point.z.total_cmp(&b.point.z))
            .unwrap();
        assert!((lowest.point.z - (0.1 - h * 3f64.sqrt())).abs() < 1e-12);
        assert!((lowest.normal - Vector::<3>::z()).norm() < 1e-15);
        assert!((lowest.beta[1] - 0.3).abs() < 1e-12);
    }

    /// A box larger than the triangle, face down above it: no corner or edge is over the
    /// triangle, its lowest points over the three vertices are, at the gap.
    #[test]
    fn box_face_over_the_whole_triangle_touches_over_the_vertices() {
        let pose = Pose::from_translation(Vector::<3>::new(0.3, 0.3, 1.1));
        let slab = Shape::Box {
            half_extents: Vector::<3>::new(2.0, 2.0, 1.0),
        };
        let mut out = Vec::new();
        touches(&slab, &pose, &Vector::<3>::zeros(), &tri(), &mut out);
        assert_eq!(out.len(), 3, "{out:?}");
        for (v, t) in out.iter().enumerate() {
            assert_eq!(t.beta[v], 1.0);
            assert!((t.point.z - 0.1).abs() < 1e-12 && t.normal == Vector::<3>::z());
        }
    }

    /// A capsule lying across the triangle's edge x + y = 1: the clipped axis ends inside the
    /// prism are face touches, the second on the side plane of that edge.
    #[test]
    fn capsule_across_an_edge_is_clipped_to_the_prism() {
        let pose = Pose::from_translation(Vector::<3>::new(0.5, 0.5, 0.1));
        let capsule = Shape::Capsule {
            half_length: 0.3,
            radius: 0.02,
        };
        let mut out = Vec::new();
        touches(&capsule, &pose, &Vector::<3>::zeros(), &tri(), &mut out);
        let faces: Vec<_> = out
            .iter()
            .filter(|t| (t.normal - Vector::<3>::z()).norm() < 1e-15)
            .collect();
        assert_eq!(faces.len(), 2, "{out:?}");
        assert!((faces[0].point.x - 0.2).abs() < 1e-12);
        assert!((faces[1].point.x - 0.5).abs() < 1e-12);
        assert!(faces[1].beta[0].abs() < 1e-12);
    }

    #[test]
    fn segment_segment_closest_points_of_crossing_segments() {
        let (s, t) = closest_segment_segment(
            &Vector::<3>::new(-1.0, 0.0, 1.0),
            &Vector::<3>::new(1.0, 0.0, 1.0),
            &Vector::<3>::new(0.0, -1.0, 0.0),
            &Vector::<3>::new(0.0, 1.0, 0.0),
        );
        assert!((s - 0.5).abs() < 1e-15 && (t - 0.5).abs() < 1e-15);
    }
}
