//! Mass properties of a closed triangle mesh, by the divergence theorem over the signed
//! tetrahedra `(0, a, b, c)` of its triangles (Eberly, "Polyhedral Mass
//! Properties"): `6V = Σ a·(b×c)`, the centroid `Σ det (a+b+c)/24 / V`, and the second moment
//! `∫ x xᵀ dV = Σ det/120 (a aᵀ + b bᵀ + c cᵀ + s sᵀ)` with `s = a + b + c`. The inertia about
//! the centroid is `I = ρ (tr(C) 𝟙 − C)` with `C` the second moment about it; its eigenvectors
//! are the principal axes.

use super::RigidError;
use super::body::MassProperties;
use crate::{Matrix, Vector};

/// Mass properties of a closed, outward-oriented mesh, and the body frame they define.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshMass {
    /// Mass and principal moments.
    pub mass: MassProperties,
    /// Volume (m³).
    pub volume: f64,
    /// Centre of mass in the mesh's coordinates.
    pub centroid: Vector<3>,
    /// Principal axes (columns) in the mesh's coordinates, a proper rotation:
    /// `x_mesh = centroid + axes · x_body`.
    pub axes: Matrix<3>,
}

impl MeshMass {
    /// The body-frame coordinates of a mesh point.
    pub fn to_body(&self, x: &Vector<3>) -> Vector<3> {
        self.axes.tr_mul(&(x - self.centroid))
    }
}

impl MassProperties {
    /// Mass properties of the solid bounded by a closed, outward-oriented triangle mesh at
    /// `density` (closedness is the caller's check, e.g. `SdfGrid::from_mesh`).
    ///
    /// ```
    /// use xpbd_core::rigid::MassProperties;
    /// use xpbd_core::Vector;
    /// // The unit cube [0, 1]³ as 12 outward triangles.
    /// let v: Vec<Vector<3>> = (0..8)
    ///     .map(|k| Vector::<3>::new((k & 1) as f64, ((k >> 1) & 1) as f64, ((k >> 2) & 1) as f64))
    ///     .collect();
    /// let t = [[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4],
    ///          [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]];
    /// let m = MassProperties::from_mesh(&v, &t, 2.0).unwrap();
    /// assert!((m.volume - 1.0).abs() < 1e-12 && (m.mass.mass - 2.0).abs() < 1e-12);
    /// assert!((m.centroid - Vector::<3>::repeat(0.5)).norm() < 1e-12);
    /// assert!(m.mass.inertia.iter().all(|i| (i - 2.0 / 6.0).abs() < 1e-12));
    /// ```
    pub fn from_mesh(
        vertices: &[Vector<3>],
        triangles: &[[usize; 3]],
        density: f64,
    ) -> Result<MeshMass, RigidError> {
        if !(density.is_finite() && density > 0.0) {
            return Err(RigidError::BadDensity { value: density });
        }
        let mut six_v = 0.0;
        let mut first = Vector::<3>::zeros();
        let mut second = Matrix::<3>::zeros();
        for t in triangles {
            if t.iter().any(|&i| i >= vertices.len()) {
                return Err(RigidError::BadState {
                    reason: format!("mesh triangle {t:?} names a vertex past {}", vertices.len()),
                });
            }
            let (a, b, c) = (vertices[t[0]], vertices[t[1]], vertices[t[2]]);
            let det = a.dot(&b.cross(&c));
            let s = a + b + c;
            six_v += det;
            first += s * (det / 24.0);
            second +=
                (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose())
                    * (det / 120.0);
        }
        let volume = six_v / 6.0;
        if !(volume.is_finite() && volume > 0.0) {
            return Err(RigidError::BadMass {
                value: volume * density,
            });
        }
        let centroid = first / volume;
        let c = second - centroid * centroid.transpose() * volume;
        let inertia = (Matrix::<3>::identity() * c.trace() - c) * density;
        let eig = nalgebra::SymmetricEigen::new(inertia);
        let mut axes = eig.eigenvectors;
        if axes.determinant() < 0.0 {
            let col = -axes.column(2);
            axes.set_column(2, &col);
        }
        let mass = MassProperties {
            mass: volume * density,
            inertia: eig.eigenvalues,
        };
        mass.validate()?;
        Ok(MeshMass {
            mass,
            volume,
            centroid,
            axes,
        })
    }
}
