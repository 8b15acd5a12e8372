//! Contact points of two boxes: the face pair of least overlap (separating-axis test over the
//! six face normals) and the incident face clipped to the reference face (Sutherland–Hodgman),
//! as in Gottschalk's OBB test and the box–box manifolds of ODE and Box2D.
//!
//! Corners alone miss the contact of two equal boxes stacked with a slight twist: every
//! corner of each sticks out past the other's edges, and the contact polygon's vertices are
//! where the edges cross. The clipped incident face gives exactly those vertices.

use crate::Vector;
use crate::contact::Pose;

/// A box–box manifold: points on the incident box's face (world) and the reference face's
/// plane `n·x = offset` (n outward from the reference box, towards the incident one).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BoxManifold {
    /// Whether box `a` is the incident box (its points are the features).
    pub a_incident: bool,
    /// Points on the incident face, world coordinates.
    pub points: Vec<Vector<3>>,
    /// Reference normal, world.
    pub normal: Vector<3>,
    /// The reference face's plane: `normal·x = offset` (world).
    pub offset: f64,
}

/// Half-width of box `(pose, h)` along unit `u`.
fn radius(pose: &Pose<3>, h: &Vector<3>, u: &Vector<3>) -> f64 {
    (0..3)
        .map(|i| h[i] * pose.rotation.column(i).dot(u).abs())
        .sum()
}

/// The manifold of boxes a and b (half extents `ha`, `hb`).
pub(crate) fn manifold(pa: &Pose<3>, ha: &Vector<3>, pb: &Pose<3>, hb: &Vector<3>) -> BoxManifold {
    let d = pa.translation - pb.translation;
    // (overlap, axis owner is a, axis index, normal from b towards a)
    let mut best = (f64::INFINITY, false, 0, Vector::<3>::z());
    for (owner_a, pose) in [(true, pa), (false, pb)] {
        for i in 0..3 {
            let u: Vector<3> = pose.rotation.column(i).into();
            let overlap = radius(pa, ha, &u) + radius(pb, hb, &u) - d.dot(&u).abs();
            // Prefer b's axes on ties (a stack's lower box is the reference).
            if overlap < best.0 - 1e-12 * (1.0 + overlap.abs()) || (overlap <= best.0 && !owner_a) {
                let sign = if d.dot(&u) < 0.0 { -1.0 } else { 1.0 };
                best = (overlap, owner_a, i, u * sign);
            }
        }
    }
    let (_, axis_of_a, axis, n_ba) = best;
    // Reference box R owns the axis; its face normal points towards the incident box I.
    let (rp, rh, ip, ih, n) = if axis_of_a {
        (pa, ha, pb, hb, -n_ba)
    } else {
        (pb, hb, pa, ha, n_ba)
    };
    let face_centre = rp.translation + n * rh[axis];
    let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
    let ru: Vector<3> = rp.rotation.column(u).into();
    let rv: Vector<3> = rp.rotation.column(v).into();
    // Incident face: the face of I most anti-parallel to n.
    let mut j = 0;
    let mut best_dot = 0.0;
    for k in 0..3 {
        let dot = ip.rotation.column(k).dot(&n);
        if dot.abs() > best_dot {
            best_dot = dot.abs();
            j = k;
        }
    }
    let col_j: Vector<3> = ip.rotation.column(j).into();
    let s = if col_j.dot(&n) > 0.0 { -1.0 } else { 1.0 };
    let centre = ip.translation + col_j * (s * ih[j]);
    let (a1, a2) = ((j + 1) % 3, (j + 2) % 3);
    let e1: Vector<3> = ip.rotation.column(a1).into_owned() * ih[a1];
    let e2: Vector<3> = ip.rotation.column(a2).into_owned() * ih[a2];
    let mut poly = vec![
        centre + e1 + e2,
        centre - e1 + e2,
        centre - e1 - e2,
        centre + e1 - e2,
    ];
    for (dir, half) in [(ru, rh[u]), (-ru, rh[u]), (rv, rh[v]), (-rv, rh[v])] {
        poly = clip(&poly, &dir, dir.dot(&face_centre) + half);
        if poly.is_empty() {
            break;
        }
    }
    BoxManifold {
        a_incident: !axis_of_a,
        points: poly,
        normal: n,
        offset: n.dot(&face_centre),
    }
}

/// Sutherland–Hodgman: the part of polygon `poly` with `dir·x ≤ limit`.
fn clip(poly: &[Vector<3>], dir: &Vector<3>, limit: f64) -> Vec<Vector<3>> {
    let mut out = Vec::with_capacity(poly.len() + 2);
    for k in 0..poly.len() {
        let (p, q) = (poly[k], poly[(k + 1) % poly.len()]);
        let (dp, dq) = (dir.dot(&p) - limit, dir.dot(&q) - limit);
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
            out.push(p + (q - p) * (dp / (dp - dq)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rigid::quaternion_from_degrees;
    use crate::rigid::rotation_of;

    /// Two equal boxes stacked with a 10° twist: the manifold is the regular octagon where
    /// the two squares overlap, all on the lower box's top face.
    #[test]
    fn twisted_stack_gives_the_octagon_of_overlap() {
        let h = Vector::<3>::repeat(0.1);
        let lower = Pose::from_translation(Vector::<3>::new(0.0, 0.0, 0.1));
        let upper = Pose {
            translation: Vector::<3>::new(0.0, 0.0, 0.3 - 1e-4),
            rotation: rotation_of(&quaternion_from_degrees([0.0, 0.0, 10.0])),
        };
        let m = manifold(&upper, &h, &lower, &h);
        assert_eq!(m.points.len(), 8);
        assert!((m.normal - Vector::<3>::z()).norm() < 1e-12);
        for p in &m.points {
            // On the upper box's bottom face, inside both squares.
            assert!((p.z - (0.2 - 1e-4)).abs() < 1e-12, "{p:?}");
            assert!(p.x.abs() <= 0.1 + 1e-12 && p.y.abs() <= 0.1 + 1e-12);
        }
        assert!(m.a_incident);
    }
}
