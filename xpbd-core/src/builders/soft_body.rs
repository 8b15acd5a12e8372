//! Soft bodies from simplex meshes (tetrahedra in 3D, triangles in 2D).

use crate::constraint::NeoHookeanTetConstraints;
use crate::geometry::signed_measure;
use crate::{BuildError, Particles, Vector};

/// Particles with lumped masses and stable Neo-Hookean constraints for a mesh.
#[derive(Debug, Clone)]
pub struct SoftBody<const D: usize> {
    /// One particle per mesh vertex, same order.
    pub particles: Particles<D>,
    /// Two constraints per element.
    pub elastic: NeoHookeanTetConstraints<D>,
}

/// Builds a soft body from vertices and simplices (`D + 1` indices each, positively
/// oriented) with density `density` (kg/m³, per unit area in 2D), Young's modulus and
/// Poisson's ratio. Mass is lumped: each element gives `ρ V₀ / (D + 1)` to each vertex.
///
/// ```
/// use xpbd_core::builders::soft_body_from_simplices;
/// use xpbd_core::Vector;
/// let v = vec![Vector::<3>::zeros(), Vector::<3>::x(), Vector::<3>::y(), Vector::<3>::z()];
/// let body = soft_body_from_simplices(&v, &[vec![0, 1, 2, 3]], 1000.0, 1e5, 0.3).unwrap();
/// let mass: f64 = (0..4).map(|i| body.particles.mass(i)).sum();
/// assert!((mass - 1000.0 / 6.0).abs() < 1e-9);
/// ```
pub fn soft_body_from_simplices<const D: usize>(
    vertices: &[Vector<D>],
    simplices: &[Vec<usize>],
    density: f64,
    youngs: f64,
    poisson: f64,
) -> Result<SoftBody<D>, BuildError> {
    if !(density.is_finite() && density > 0.0) {
        return Err(BuildError::InvalidMaterial {
            field: "density",
            value: density,
            reason: "must be finite and > 0",
        });
    }
    let mut mass = vec![0.0; vertices.len()];
    let mut particles = Particles::new();
    for &x in vertices {
        particles.push(x, 0.0);
    }
    let mut elastic = NeoHookeanTetConstraints::new(youngs, poisson)?;
    for s in simplices {
        let e = elastic.add(&particles, s)?;
        let xs: Vec<Vector<D>> = s.iter().map(|&i| vertices[i]).collect();
        let m = density * signed_measure(&xs) / (D + 1) as f64;
        for &i in s {
            mass[i] += m;
        }
        let _ = e;
    }
    for (i, m) in mass.iter().enumerate() {
        if *m <= 0.0 {
            return Err(BuildError::InvalidGeometry(format!(
                "vertex {i} belongs to no element"
            )));
        }
        particles.inv_mass[i] = 1.0 / m;
    }
    Ok(SoftBody { particles, elastic })
}

/// [`soft_body_from_simplices`] for a [`crate::mesh::SimplexMesh`] (`K = D + 1`), e.g. a
/// [`crate::mesh::TetMesh::box_beam`] or a TetGen import.
///
/// ```
/// use xpbd_core::builders::soft_body_from_mesh;
/// use xpbd_core::mesh::TetMesh;
/// let mesh = TetMesh::box_beam([1.0, 0.1, 0.1], [10, 1, 1]).unwrap();
/// let body = soft_body_from_mesh(&mesh, 1000.0, 1e5, 0.3).unwrap();
/// let mass: f64 = (0..body.particles.len()).map(|i| body.particles.mass(i)).sum();
/// assert!((mass - 1000.0 * 0.01).abs() < 1e-9);
/// ```
pub fn soft_body_from_mesh<const D: usize, const K: usize>(
    mesh: &crate::mesh::SimplexMesh<D, K>,
    density: f64,
    youngs: f64,
    poisson: f64,
) -> Result<SoftBody<D>, BuildError> {
    if K != D + 1 {
        return Err(BuildError::InvalidGeometry(format!(
            "a {D}D soft body needs simplices of {} vertices, got {K}",
            D + 1
        )));
    }
    let cells: Vec<Vec<usize>> = mesh
        .cells
        .iter()
        .map(|c| c.iter().map(|&i| i as usize).collect())
        .collect();
    soft_body_from_simplices(&mesh.vertices, &cells, density, youngs, poisson)
}
