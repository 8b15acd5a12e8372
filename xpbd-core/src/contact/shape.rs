//! Collider shapes and poses: signed distance φ and its unit gradient ∇φ.
//!
//! Every shape is described in its own (local) frame; a [`Pose`] maps local to world,
//! `x_w = R x_l + t`. For a rigid motion the signed distance transforms as
//! `φ_w(x) = φ_l(Rᵀ(x − t))` and `∇φ_w = R ∇φ_l`. φ < 0 inside, φ > 0 outside.

use std::sync::Arc;

use super::error::{ContactError, check_finite, check_size};
use super::sdf::SdfGrid;
use crate::{Matrix, Vector};

/// A rigid placement: rotation `R` (proper, orthonormal) and translation `t`.
///
/// ```
/// use xpbd_core::contact::Pose;
/// use xpbd_core::Vector;
/// let p = Pose::<2>::from_translation(Vector::<2>::new(1.0, 2.0));
/// assert_eq!(p.to_world(&Vector::<2>::zeros()), Vector::<2>::new(1.0, 2.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose<const D: usize> {
    /// Translation t (m).
    pub translation: Vector<D>,
    /// Rotation R (columns: local axes in world coordinates).
    pub rotation: Matrix<D>,
}

impl<const D: usize> Default for Pose<D> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<const D: usize> Pose<D> {
    /// The identity placement.
    pub fn identity() -> Self {
        Self {
            translation: Vector::<D>::zeros(),
            rotation: Matrix::<D>::identity(),
        }
    }

    /// A pure translation.
    pub fn from_translation(translation: Vector<D>) -> Self {
        Self {
            translation,
            rotation: Matrix::<D>::identity(),
        }
    }

    /// Local → world.
    #[inline]
    pub fn to_world(&self, x: &Vector<D>) -> Vector<D> {
        self.rotation * x + self.translation
    }

    /// World → local.
    #[inline]
    pub fn to_local(&self, x: &Vector<D>) -> Vector<D> {
        self.rotation.tr_mul(&(x - self.translation))
    }

    /// Finite entries and a proper rotation (‖RᵀR − I‖_F ≤ 1e-9, det R > 0).
    pub fn validate(&self) -> Result<(), ContactError> {
        for &v in self.translation.iter() {
            check_finite("pose translation", v)?;
        }
        for &v in self.rotation.iter() {
            check_finite("pose rotation", v)?;
        }
        let deviation =
            (self.rotation.transpose() * self.rotation - Matrix::<D>::identity()).norm();
        let det = crate::geometry::determinant(&self.rotation);
        if deviation > 1e-9 || det <= 0.0 {
            return Err(ContactError::InvalidRotation { deviation, det });
        }
        Ok(())
    }

    /// Pose at fraction `s ∈ [0, 1]` between `a` and `b`: translation interpolated linearly,
    /// rotation `(1 − s) R_a + s R_b` re-orthonormalised by Gram–Schmidt on its columns
    /// (a first-order interpolation, adequate for the small per-step rotations of animated
    /// colliders; exact when `R_a = R_b`).
    pub fn interpolate(a: &Self, b: &Self, s: f64) -> Self {
        let translation = a.translation * (1.0 - s) + b.translation * s;
        if a.rotation == b.rotation {
            return Self {
                translation,
                rotation: a.rotation,
            };
        }
        let mut r = a.rotation * (1.0 - s) + b.rotation * s;
        for j in 0..D {
            let mut col: Vector<D> = r.column(j).into_owned();
            for k in 0..j {
                let prev: Vector<D> = r.column(k).into_owned();
                col -= prev * prev.dot(&col);
            }
            let n = col.norm();
            if n > 0.0 {
                col /= n;
            }
            r.set_column(j, &col);
        }
        Self {
            translation,
            rotation: r,
        }
    }
}

/// The geometry of a collider, in its local frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape<const D: usize> {
    /// The solid `{x : n·x ≤ offset}`; φ = n·x − offset (n normalised when the collider is
    /// added). With an identity pose: a ground plane at height `offset` for n = e_{D−1}.
    HalfSpace {
        /// Outward normal (any non-zero length).
        normal: Vector<D>,
        /// Signed distance of the plane from the local origin along `normal` (m).
        offset: f64,
    },
    /// A ball of radius r centred at the local origin; φ = |x| − r.
    Sphere {
        /// Radius (m, > 0).
        radius: f64,
    },
    /// An axis-aligned box `|x_i| ≤ h_i` in the local frame; exact Euclidean φ
    /// (outside: |max(|x| − h, 0)|; inside: max_i (|x_i| − h_i)).
    Box {
        /// Half extents h (m, each > 0).
        half_extents: Vector<D>,
    },
    /// The points within `radius` of the segment from `−half_length e₀` to `+half_length e₀`;
    /// φ = |x − clamp(x₀, ±L) e₀| − r.
    Capsule {
        /// Half length L of the axis segment (m, ≥ 0).
        half_length: f64,
        /// Radius (m, > 0).
        radius: f64,
    },
    /// A sampled signed-distance grid (built from a closed triangle mesh for D = 3).
    Sdf(Arc<SdfGrid<D>>),
}

impl<const D: usize> Shape<D> {
    /// Typed checks of every dimension.
    pub fn validate(&self) -> Result<(), ContactError> {
        match self {
            Self::HalfSpace { normal, offset } => {
                for &v in normal.iter() {
                    check_finite("half-space normal", v)?;
                }
                check_finite("half-space offset", *offset)?;
                check_size("half-space normal length", normal.norm(), false)
            }
            Self::Sphere { radius } => check_size("sphere radius", *radius, false),
            Self::Box { half_extents } => {
                for &v in half_extents.iter() {
                    check_size("box half extent", v, false)?;
                }
                Ok(())
            }
            Self::Capsule {
                half_length,
                radius,
            } => {
                check_size("capsule half length", *half_length, true)?;
                check_size("capsule radius", *radius, false)
            }
            Self::Sdf(_) => Ok(()),
        }
    }

    /// The same shape with a unit half-space normal (called when a collider is added).
    pub(crate) fn normalised(mut self) -> Self {
        if let Self::HalfSpace { normal, .. } = &mut self {
            *normal /= normal.norm();
        }
        self
    }

    /// `(φ, ∇φ)` at the local point `x`; ∇φ has unit length.
    #[inline]
    pub fn signed_distance_local(&self, x: &Vector<D>) -> (f64, Vector<D>) {
        match self {
            Self::HalfSpace { normal, offset } => (normal.dot(x) - offset, *normal),
            Self::Sphere { radius } => {
                let (d, n) = unit_or_up(*x);
                (d - radius, n)
            }
            Self::Box { half_extents } => box_distance(x, half_extents),
            Self::Capsule {
                half_length,
                radius,
            } => {
                let mut axis_point = Vector::<D>::zeros();
                axis_point[0] = x[0].clamp(-half_length, *half_length);
                let (d, n) = unit_or_up(x - axis_point);
                (d - radius, n)
            }
            Self::Sdf(grid) => grid.sample(x),
        }
    }

    /// `(φ, ∇φ)` at the world point `x` for the shape placed at `pose`.
    #[inline]
    pub fn signed_distance(&self, pose: &Pose<D>, x: &Vector<D>) -> (f64, Vector<D>) {
        let (phi, g) = self.signed_distance_local(&pose.to_local(x));
        (phi, pose.rotation * g)
    }
}

/// `(|v|, v/|v|)`, or `(0, e_{D−1})` for the zero vector.
#[inline]
fn unit_or_up<const D: usize>(v: Vector<D>) -> (f64, Vector<D>) {
    let d = v.norm();
    if d > 0.0 {
        (d, v / d)
    } else {
        let mut up = Vector::<D>::zeros();
        up[D - 1] = 1.0;
        (0.0, up)
    }
}

/// Exact signed distance of an axis-aligned box (Quílez's formula, D-dimensional).
#[inline]
fn box_distance<const D: usize>(x: &Vector<D>, h: &Vector<D>) -> (f64, Vector<D>) {
    let sign = |v: f64| if v < 0.0 { -1.0 } else { 1.0 };
    let mut outside = Vector::<D>::zeros();
    let mut any_outside = false;
    let mut k_max = 0;
    let mut q_max = f64::NEG_INFINITY;
    for i in 0..D {
        let q = x[i].abs() - h[i];
        if q > 0.0 {
            outside[i] = sign(x[i]) * q;
            any_outside = true;
        }
        if q > q_max {
            q_max = q;
            k_max = i;
        }
    }
    if any_outside {
        let d = outside.norm();
        (d, outside / d)
    } else {
        let mut n = Vector::<D>::zeros();
        n[k_max] = sign(x[k_max]);
        (q_max, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ∇φ from `signed_distance` matches central differences of φ (h = 1e-6, error O(h²)
    /// away from the medial axis, where φ is smooth), and |∇φ| = 1 (Eikonal).
    #[test]
    fn gradients_match_finite_differences_for_every_analytic_shape() {
        let rot = {
            let (c, s) = (0.3f64.cos(), 0.3f64.sin());
            Matrix::<3>::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0)
        };
        let pose = Pose {
            translation: Vector::<3>::new(0.1, -0.2, 0.3),
            rotation: rot,
        };
        pose.validate().unwrap();
        let shapes = [
            Shape::HalfSpace {
                normal: Vector::<3>::new(0.0, 0.6, 0.8),
                offset: 0.1,
            },
            Shape::Sphere { radius: 0.5 },
            Shape::Box {
                half_extents: Vector::<3>::new(0.3, 0.4, 0.5),
            },
            Shape::Capsule {
                half_length: 0.4,
                radius: 0.2,
            },
        ];
        let points = [
            Vector::<3>::new(0.9, 0.2, 0.4),
            Vector::<3>::new(0.15, -0.1, 0.35),
            Vector::<3>::new(-0.7, 0.8, -0.9),
        ];
        for shape in shapes {
            for x in &points {
                let (_, g) = shape.signed_distance(&pose, x);
                assert!((g.norm() - 1.0).abs() < 1e-12);
                let e = 1e-6;
                for k in 0..3 {
                    let mut xp = *x;
                    xp[k] += e;
                    let mut xm = *x;
                    xm[k] -= e;
                    let fd = (shape.signed_distance(&pose, &xp).0
                        - shape.signed_distance(&pose, &xm).0)
                        / (2.0 * e);
                    assert!(
                        (fd - g[k]).abs() < 1e-6,
                        "{shape:?} at {x:?}: {fd} vs {}",
                        g[k]
                    );
                }
            }
        }
    }

    #[test]
    fn box_distance_is_exact_at_known_points() {
        let h = Vector::<2>::new(1.0, 0.5);
        // Outside near a corner: distance to the corner (1, 0.5).
        let (d, _) = box_distance(&Vector::<2>::new(4.0, 4.5), &h);
        assert!((d - 5.0).abs() < 1e-14);
        // Inside: distance to the nearest face, negative.
        let (d, n) = box_distance(&Vector::<2>::new(0.2, 0.4), &h);
        assert!((d + 0.1).abs() < 1e-14);
        assert_eq!(n, Vector::<2>::new(0.0, 1.0));
    }
}
