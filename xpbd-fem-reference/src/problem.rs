//! A boundary-value problem: mesh, material, density, body force, Dirichlet conditions and
//! dead loads (point forces and uniform surface tractions).

use crate::element::{ElementOrder, Quadrature, barycentric, face_load_fractions, shape_values};
use crate::error::FemError;
use crate::fem_mesh::{ElementGeometry, FemMesh};
use crate::material::ConstitutiveModel;
use nalgebra::SVector;

/// A hyperelastic boundary-value problem in `D` dimensions (`D = 2` is plane strain per unit
/// thickness times [`Problem::thickness`]).
///
/// All loads and prescribed displacements are *dead* and scale with the load factor `s ∈ [0, 1]`
/// of the static solver: `Π(u) = ∫ Ψ(F) dV − s f_extᵀ u`, `u = s ū` on Dirichlet DOFs.
///
/// ```
/// use nalgebra::Vector2;
/// use xpbd_core::mesh::TriMesh2;
/// use xpbd_fem_reference::{ElementOrder, FemMesh, ConstitutiveModel, MaterialKind, Problem};
/// let mesh = FemMesh::from_simplex_mesh(&TriMesh2::rectangle([1.0, 0.1], [10, 1]).unwrap(), ElementOrder::Quadratic).unwrap();
/// let mut p = Problem::new(mesh, ConstitutiveModel::new(MaterialKind::Linear, 1e6, 0.3).unwrap(), 1000.0).unwrap();
/// assert_eq!(p.clamp(|x| x.x < 1e-12), 3 * 2); // 3 nodes on x = 0, both components
/// p.body_force = Vector2::new(0.0, -9.81);
/// let f = p.external_force();
/// let total: f64 = f.iter().skip(1).step_by(2).sum();
/// assert!((total + 1000.0 * 9.81 * 0.1).abs() < 1e-9); // ρ g × area
/// ```
#[derive(Debug, Clone)]
pub struct Problem<const D: usize> {
    /// The mesh.
    pub mesh: FemMesh<D>,
    /// The material.
    pub material: ConstitutiveModel,
    /// Mass density `ρ` (per unit reference volume).
    pub density: f64,
    /// Body-force acceleration (e.g. gravity `(0, 0, −9.81)`), applied as `ρ b`.
    pub body_force: SVector<f64, D>,
    /// Out-of-plane thickness multiplying all integrals when `D = 2` (1 for `D = 3`).
    pub thickness: f64,
    /// Prescribed displacement (at load factor 1) of each DOF `D·node + component`, if fixed.
    pub(crate) prescribed: Vec<Option<f64>>,
    /// Concentrated and surface dead loads per DOF (body force excluded).
    pub(crate) surface_and_point_loads: Vec<f64>,
    /// Element geometry at the stiffness quadrature points.
    pub(crate) geometry: ElementGeometry<D>,
    pub(crate) rule: Quadrature<D>,
}

impl<const D: usize> Problem<D> {
    /// A problem with no loads and no Dirichlet conditions. Rejects a non-finite or
    /// non-positive density.
    pub fn new(
        mesh: FemMesh<D>,
        material: ConstitutiveModel,
        density: f64,
    ) -> Result<Self, FemError> {
        if !(density.is_finite() && density > 0.0) {
            return Err(FemError::NonFiniteParameter {
                field: "density",
                value: density,
                expected: "finite and > 0",
            });
        }
        let rule = Quadrature::for_stiffness(mesh.order);
        let geometry = mesh.geometry(&rule);
        let dofs = mesh.nodes.len() * D;
        Ok(Self {
            mesh,
            material,
            density,
            body_force: SVector::zeros(),
            thickness: 1.0,
            prescribed: vec![None; dofs],
            surface_and_point_loads: vec![0.0; dofs],
            geometry,
            rule,
        })
    }

    /// Number of degrees of freedom (`D × nodes`).
    pub fn dof_count(&self) -> usize {
        self.mesh.nodes.len() * D
    }

    /// Number of free (non-Dirichlet) degrees of freedom.
    pub fn free_dof_count(&self) -> usize {
        self.prescribed.iter().filter(|p| p.is_none()).count()
    }

    /// Fixes every component of every node whose reference position satisfies `select`
    /// (zero displacement). Returns the number of DOFs fixed.
    pub fn clamp(&mut self, select: impl Fn(&SVector<f64, D>) -> bool) -> usize {
        let mut n = 0;
        for (a, x) in self.mesh.nodes.iter().enumerate() {
            if select(x) {
                for i in 0..D {
                    self.prescribed[D * a + i] = Some(0.0);
                    n += 1;
                }
            }
        }
        n
    }

    /// Prescribes component `component` of node `node` to `value` (at load factor 1).
    pub fn prescribe(&mut self, node: usize, component: usize, value: f64) -> Result<(), FemError> {
        if node >= self.mesh.nodes.len() || component >= D {
            return Err(FemError::InvalidInput {
                field: "node/component",
                message: format!(
                    "({node}, {component}) outside {} nodes × {D}",
                    self.mesh.nodes.len()
                ),
            });
        }
        if !value.is_finite() {
            return Err(FemError::NonFiniteParameter {
                field: "prescribed displacement",
                value,
                expected: "finite",
            });
        }
        self.prescribed[D * node + component] = Some(value);
        Ok(())
    }

    /// Adds a concentrated dead force at a node.
    pub fn add_point_load(&mut self, node: usize, force: SVector<f64, D>) -> Result<(), FemError> {
        if node >= self.mesh.nodes.len() {
            return Err(FemError::InvalidInput {
                field: "node",
                message: format!("{node} outside {} nodes", self.mesh.nodes.len()),
            });
        }
        if let Some(value) = force.iter().copied().find(|v| !v.is_finite()) {
            return Err(FemError::NonFiniteParameter {
                field: "point load",
                value,
                expected: "finite",
            });
        }
        for i in 0..D {
            self.surface_and_point_loads[D * node + i] += force[i];
        }
        Ok(())
    }

    /// Adds a uniform dead traction `t` (force per unit reference area) on every boundary facet
    /// whose vertices all satisfy `select`, with consistent nodal loads
    /// ([`crate::element::face_load_fractions`]). Returns the total reference area loaded.
    pub fn add_traction(
        &mut self,
        select: impl Fn(&SVector<f64, D>) -> bool,
        traction: SVector<f64, D>,
    ) -> Result<f64, FemError> {
        if let Some(value) = traction.iter().copied().find(|v| !v.is_finite()) {
            return Err(FemError::NonFiniteParameter {
                field: "traction",
                value,
                expected: "finite",
            });
        }
        let fractions = face_load_fractions(self.mesh.order, D - 1);
        let mut area_total = 0.0;
        for (e, opp) in self.mesh.boundary_facets() {
            let nodes = self.mesh.facet_nodes(e, opp);
            if !nodes[..D]
                .iter()
                .all(|&n| select(&self.mesh.nodes[n as usize]))
            {
                continue;
            }
            let area = self.mesh.facet_measure(e, opp) * self.thickness_factor();
            area_total += area;
            for (&n, &w) in nodes.iter().zip(&fractions) {
                for i in 0..D {
                    self.surface_and_point_loads[D * n as usize + i] += w * area * traction[i];
                }
            }
        }
        Ok(area_total)
    }

    /// `thickness` for `D = 2`, 1 otherwise.
    pub(crate) fn thickness_factor(&self) -> f64 {
        if D == 2 { self.thickness } else { 1.0 }
    }

    /// The external dead-load vector at load factor 1: `∫ ρ b Nₐ dV` + tractions + point loads.
    pub fn external_force(&self) -> Vec<f64> {
        let mut f = self.surface_and_point_loads.clone();
        if self.body_force.norm() == 0.0 {
            return f;
        }
        let values: Vec<Vec<f64>> = self
            .rule
            .points
            .iter()
            .map(|p| shape_values(self.mesh.order, &barycentric(p)))
            .collect();
        let nq = self.rule.points.len();
        for e in 0..self.mesh.element_count() {
            for (q, n) in values.iter().enumerate() {
                let w = self.geometry.weights[e * nq + q] * self.density * self.thickness_factor();
                for (a, &node) in self.mesh.element(e).iter().enumerate() {
                    for i in 0..D {
                        f[D * node as usize + i] += w * n[a] * self.body_force[i];
                    }
                }
            }
        }
        f
    }

    /// Round-off floor of the residual force: `10⁻¹³ (2μ + λ) V^((D−1)/D)` (times the thickness
    /// in 2-D), i.e. machine precision on a stress of the order of the moduli acting on the
    /// body's cross-section. Newton counts a residual below it as converged: a nodal force cannot
    /// be resolved more finely than this, and near an unloaded state (a vibrating beam crossing
    /// its rest shape) the relative tolerance alone would ask for less.
    pub fn residual_floor(&self) -> f64 {
        let (mu, lambda) = self.material.lame();
        let volume: f64 = (0..self.mesh.element_count())
            .map(|e| xpbd_core::energy::determinant(&self.mesh.jacobian(e)))
            .sum::<f64>()
            / (1..=D).map(|k| k as f64).product::<f64>();
        1e-13
            * (2.0 * mu + lambda).abs()
            * volume.powf((D as f64 - 1.0) / D as f64)
            * self.thickness_factor()
    }

    /// The element order of the mesh.
    pub fn order(&self) -> ElementOrder {
        self.mesh.order
    }

    /// Nodal displacement vectors from a flat DOF vector.
    pub fn nodal_vectors(&self, u: &[f64]) -> Vec<SVector<f64, D>> {
        u.chunks_exact(D)
            .map(SVector::<f64, D>::from_column_slice)
            .collect()
    }
}
