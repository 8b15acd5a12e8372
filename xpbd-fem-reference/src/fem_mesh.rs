//! Finite-element meshes of order 1 or 2 built from the linear simplex meshes of
//! `xpbd_core::mesh`, with the per-element geometry every assembly needs.

use crate::element::{
    ElementOrder, Quadrature, barycentric, shape_gradients, shape_values, simplex_edges,
};
use crate::error::FemError;
use nalgebra::{SMatrix, SVector};
use std::collections::HashMap;
use xpbd_core::energy::{determinant, try_inverse};
use xpbd_core::mesh::{MeshError, SimplexMesh};

/// A Lagrange finite-element mesh: nodes (vertices, then edge midpoints for order 2) and
/// elements as `nodes_per_element` node indices each.
#[derive(Debug, Clone)]
pub struct FemMesh<const D: usize> {
    /// Reference positions of all nodes.
    pub nodes: Vec<SVector<f64, D>>,
    /// Element connectivity, `nodes_per_element` entries per element (local order of
    /// [`crate::element`]).
    pub connectivity: Vec<u32>,
    /// Element order.
    pub order: ElementOrder,
    /// Number of nodes per element.
    pub nodes_per_element: usize,
    /// Number of nodes that are vertices of the linear mesh (they come first).
    pub vertex_count: usize,
}

/// Per-element, per-quadrature-point geometry: `w · det J` and `∇_X Nₐ`.
#[derive(Debug, Clone)]
pub struct ElementGeometry<const D: usize> {
    /// Quadrature points per element.
    pub points_per_element: usize,
    /// `weight × |det J|`, `elements × points`.
    pub weights: Vec<f64>,
    /// `∇_X Nₐ`, `elements × points × nodes_per_element`.
    pub gradients: Vec<SVector<f64, D>>,
}

impl<const D: usize> FemMesh<D> {
    /// Builds the mesh of the given order from a linear simplex mesh (`K` must be `D + 1`).
    /// The linear mesh is validated first: an inverted cell gives
    /// [`FemError::InvertedElement`], a degenerate one [`FemError::DegenerateElement`].
    ///
    /// ```
    /// use xpbd_core::mesh::TriMesh2;
    /// use xpbd_fem_reference::{ElementOrder, FemMesh};
    /// let linear = TriMesh2::rectangle([2.0, 1.0], [2, 1]).unwrap();
    /// let p2 = FemMesh::from_simplex_mesh(&linear, ElementOrder::Quadratic).unwrap();
    /// assert_eq!(p2.nodes.len(), 5 * 3); // (2·2+1) × (2·1+1)
    /// ```
    pub fn from_simplex_mesh<const K: usize>(
        mesh: &SimplexMesh<D, K>,
        order: ElementOrder,
    ) -> Result<Self, FemError> {
        if K != D + 1 {
            return Err(FemError::InvalidInput {
                field: "mesh",
                message: format!("cells have {K} vertices, expected {} for D = {D}", D + 1),
            });
        }
        mesh.validate().map_err(|e| match e {
            MeshError::InvertedCell { cell, measure } => FemError::InvertedElement {
                element: cell,
                measure,
            },
            MeshError::DegenerateCell { cell, measure, .. } => FemError::DegenerateElement {
                element: cell,
                measure,
            },
            other => FemError::Mesh(other),
        })?;
        let mut nodes = mesh.vertices.clone();
        let npe = order.nodes_per_element(D);
        let mut connectivity = Vec::with_capacity(npe * mesh.cells.len());
        let edges = simplex_edges(D);
        let mut midpoint: HashMap<[u32; 2], u32> = HashMap::new();
        for cell in &mesh.cells {
            connectivity.extend_from_slice(cell);
            if order == ElementOrder::Quadratic {
                for &[i, j] in &edges {
                    let key = [cell[i].min(cell[j]), cell[i].max(cell[j])];
                    let id = *midpoint.entry(key).or_insert_with(|| {
                        nodes.push(
                            (mesh.vertices[key[0] as usize] + mesh.vertices[key[1] as usize]) * 0.5,
                        );
                        (nodes.len() - 1) as u32
                    });
                    connectivity.push(id);
                }
            }
        }
        Ok(Self {
            nodes,
            connectivity,
            order,
            nodes_per_element: npe,
            vertex_count: mesh.vertices.len(),
        })
    }

    /// Number of elements.
    pub fn element_count(&self) -> usize {
        self.connectivity.len() / self.nodes_per_element
    }

    /// Node indices of element `e`.
    pub fn element(&self, e: usize) -> &[u32] {
        &self.connectivity[e * self.nodes_per_element..(e + 1) * self.nodes_per_element]
    }

    /// `J = [X₁ − X₀, …, X_D − X₀]` of element `e` (affine geometry: midside nodes are midpoints).
    pub fn jacobian(&self, e: usize) -> SMatrix<f64, D, D> {
        let el = self.element(e);
        let x0 = self.nodes[el[0] as usize];
        SMatrix::from_fn(|i, j| self.nodes[el[j + 1] as usize][i] - x0[i])
    }

    /// Geometry at the points of `rule` for every element.
    pub fn geometry(&self, rule: &Quadrature<D>) -> ElementGeometry<D> {
        let npe = self.nodes_per_element;
        let nq = rule.points.len();
        let ref_grads: Vec<Vec<SVector<f64, D>>> = rule
            .points
            .iter()
            .map(|p| shape_gradients(self.order, p))
            .collect();
        let mut weights = Vec::with_capacity(self.element_count() * nq);
        let mut gradients = Vec::with_capacity(self.element_count() * nq * npe);
        for e in 0..self.element_count() {
            let j = self.jacobian(e);
            let det = determinant(&j);
            // Validated at construction: det J > 0, so the inverse exists.
            let j_inv_t = try_inverse(&j)
                .map(|m| m.transpose())
                .unwrap_or_else(SMatrix::zeros);
            for q in 0..nq {
                weights.push(rule.weights[q] * det);
                gradients.extend(ref_grads[q].iter().map(|g| j_inv_t * g));
            }
        }
        ElementGeometry {
            points_per_element: nq,
            weights,
            gradients,
        }
    }

    /// Reference coordinates `ξ = J⁻¹ (X − X₀)` of `point` in element `e`.
    fn reference_coordinates(&self, e: usize, point: &SVector<f64, D>) -> SVector<f64, D> {
        let x0 = self.nodes[self.element(e)[0] as usize];
        try_inverse(&self.jacobian(e))
            .map(|inv| inv * (point - x0))
            .unwrap_or_else(|| SVector::repeat(f64::NAN))
    }

    /// Element containing `point` (closest to inside, tolerance `1e-9` in barycentric
    /// coordinates) and the point's reference coordinates, or `None`.
    pub fn locate(&self, point: &SVector<f64, D>) -> Option<(usize, SVector<f64, D>)> {
        let mut best: Option<(usize, SVector<f64, D>, f64)> = None;
        for e in 0..self.element_count() {
            let xi = self.reference_coordinates(e, point);
            let worst = barycentric(&xi).into_iter().fold(f64::INFINITY, f64::min);
            if worst >= -1e-9 && best.as_ref().is_none_or(|b| worst > b.2) {
                best = Some((e, xi, worst));
            }
        }
        best.map(|(e, xi, _)| (e, xi))
    }

    /// Interpolates a nodal field `values` (one `D`-vector per node) at `point`.
    pub fn interpolate(
        &self,
        values: &[SVector<f64, D>],
        point: &SVector<f64, D>,
    ) -> Option<SVector<f64, D>> {
        let (e, xi) = self.locate(point)?;
        let n = shape_values(self.order, &barycentric(&xi));
        Some(
            self.element(e)
                .iter()
                .zip(n)
                .map(|(&a, w)| values[a as usize] * w)
                .sum(),
        )
    }

    /// Boundary faces (facets owned by exactly one element) as `(element, local vertex
    /// opposite the face)`, in element order.
    pub fn boundary_facets(&self) -> Vec<(usize, usize)> {
        let mut count: HashMap<Vec<u32>, u32> = HashMap::new();
        let key = |e: usize, opposite: usize| {
            let mut k: Vec<u32> = (0..=D)
                .filter(|&i| i != opposite)
                .map(|i| self.element(e)[i])
                .collect();
            k.sort_unstable();
            k
        };
        for e in 0..self.element_count() {
            for opp in 0..=D {
                *count.entry(key(e, opp)).or_default() += 1;
            }
        }
        let mut out = Vec::new();
        for e in 0..self.element_count() {
            for opp in 0..=D {
                if count[&key(e, opp)] == 1 {
                    out.push((e, opp));
                }
            }
        }
        out
    }

    /// Node indices of facet `(e, opposite)` in face-local order (its `D` vertices, then for
    /// order 2 the midpoints of its edges in lexicographic vertex-pair order).
    pub fn facet_nodes(&self, e: usize, opposite: usize) -> Vec<u32> {
        let el = self.element(e);
        let verts: Vec<usize> = (0..=D).filter(|&i| i != opposite).collect();
        let mut out: Vec<u32> = verts.iter().map(|&i| el[i]).collect();
        if self.order == ElementOrder::Quadratic {
            let edges = simplex_edges(D);
            for a in 0..verts.len() {
                for b in (a + 1)..verts.len() {
                    let k = edges
                        .iter()
                        .position(|&p| p == [verts[a], verts[b]])
                        .unwrap_or(0);
                    out.push(el[D + 1 + k]);
                }
            }
        }
        out
    }

    /// `(D−1)`-measure of a facet from the Gram determinant of its vertex edges.
    pub fn facet_measure(&self, e: usize, opposite: usize) -> f64 {
        let nodes = self.facet_nodes(e, opposite);
        let x0 = self.nodes[nodes[0] as usize];
        let m = D - 1;
        let gram = nalgebra::DMatrix::from_fn(m, m, |i, j| {
            (self.nodes[nodes[i + 1] as usize] - x0).dot(&(self.nodes[nodes[j + 1] as usize] - x0))
        });
        let fact: f64 = (1..=m).map(|k| k as f64).product();
        gram.determinant().max(0.0).sqrt() / fact
    }
}
