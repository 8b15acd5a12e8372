//! Element kernels and sparse assembly over the free DOFs.
//!
//! With `F = I + Σₐ uₐ ⊗ ∇_X Nₐ` at each quadrature point `q` (weight `w_q = w · det J`):
//!
//! * energy `W_e = Σ_q w_q Ψ(F_q)`;
//! * internal force `f_{a,i} = Σ_q w_q (P_q ∇Nₐ)ᵢ`;
//! * stiffness `K_{(a,i),(b,k)} = Σ_q w_q Σ_{j,l} ∂P_ij/∂F_kl ∇Nₐ_j ∇N_b_l`;
//! * consistent mass `M_{(a,i),(b,k)} = δ_ik ρ ∫ Nₐ N_b dV`.
//!
//! Element work runs in parallel (rayon) into per-element buffers that are scattered serially in
//! element order, so every result is bitwise independent of the thread count.
//!
//! The CSC pattern stores both triangles of the free–free block. All columns of a node share
//! the same row set (the free components of its neighbour nodes), so an entry's position is
//! `col_ptr[col] + offset(a, b) + rank(b, k)` with a per-node-pair offset.

use crate::element::{Quadrature, barycentric, shape_values};
use crate::error::FemError;
use crate::linear_solver::CscPattern;
use crate::problem::Problem;
use nalgebra::{SMatrix, SVector};
use rayon::prelude::*;
use xpbd_core::energy::{EnergyError, HyperelasticEnergy, determinant};

const FIXED: u32 = u32::MAX;
const CHUNK: usize = 2048;

/// DOF numbering, sparsity pattern and element-to-pattern maps of a [`Problem`].
#[derive(Debug, Clone)]
pub struct System {
    /// Free index of each DOF, or `u32::MAX` when prescribed.
    pub free_index: Vec<u32>,
    /// Number of free DOFs.
    pub free_count: usize,
    /// CSC pattern of the free–free stiffness.
    pub pattern: CscPattern,
    /// Per element, per local pair `(a, b)` (row-major `a · npe + b`): offset of node `b`'s rows
    /// inside the columns of node `a`.
    pair_offset: Vec<u32>,
    /// Rank of each DOF among the free components of its node.
    rank: Vec<u8>,
}

impl System {
    /// Builds the DOF map and pattern. Fails with [`FemError::NoDirichletConditions`] when no
    /// DOF is prescribed.
    pub fn new<const D: usize>(problem: &Problem<D>) -> Result<Self, FemError> {
        if problem.prescribed.iter().all(|p| p.is_none()) {
            return Err(FemError::NoDirichletConditions);
        }
        let nodes = problem.mesh.nodes.len();
        let mut free_index = vec![FIXED; nodes * D];
        let mut rank = vec![0u8; nodes * D];
        let mut free_count = 0usize;
        let mut node_free = vec![0usize; nodes];
        for a in 0..nodes {
            for i in 0..D {
                if problem.prescribed[D * a + i].is_none() {
                    free_index[D * a + i] = free_count as u32;
                    rank[D * a + i] = node_free[a] as u8;
                    free_count += 1;
                    node_free[a] += 1;
                }
            }
        }
        // Node adjacency (sorted, including self).
        let mesh = &problem.mesh;
        let npe = mesh.nodes_per_element;
        let mut adjacency: Vec<Vec<u32>> = vec![Vec::new(); nodes];
        for e in 0..mesh.element_count() {
            let el = mesh.element(e);
            for &a in el {
                adjacency[a as usize].extend_from_slice(el);
            }
        }
        for list in &mut adjacency {
            list.sort_unstable();
            list.dedup();
        }
        // Offsets of each neighbour block inside a node's columns.
        let offsets: Vec<Vec<u32>> = adjacency
            .iter()
            .map(|list| {
                let mut acc = 0u32;
                list.iter()
                    .map(|&b| {
                        let o = acc;
                        acc += node_free[b as usize] as u32;
                        o
                    })
                    .collect()
            })
            .collect();
        let mut col_ptr = Vec::with_capacity(free_count + 1);
        let mut row_idx = Vec::new();
        col_ptr.push(0);
        for a in 0..nodes {
            for i in 0..D {
                if free_index[D * a + i] == FIXED {
                    continue;
                }
                for &b in &adjacency[a] {
                    for k in 0..D {
                        let r = free_index[D * b as usize + k];
                        if r != FIXED {
                            row_idx.push(r as usize);
                        }
                    }
                }
                col_ptr.push(row_idx.len());
            }
        }
        let mut pair_offset = Vec::with_capacity(mesh.element_count() * npe * npe);
        for e in 0..mesh.element_count() {
            let el = mesh.element(e);
            for &a in el {
                for &b in el {
                    let pos = adjacency[a as usize].binary_search(&b).unwrap_or(0);
                    pair_offset.push(offsets[a as usize][pos]);
                }
            }
        }
        Ok(Self {
            free_index,
            free_count,
            pattern: CscPattern {
                n: free_count,
                col_ptr,
                row_idx,
            },
            pair_offset,
            rank,
        })
    }

    /// Restriction of a full DOF vector to the free DOFs.
    pub fn restrict(&self, full: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.free_count];
        for (d, &f) in self.free_index.iter().enumerate() {
            if f != FIXED {
                out[f as usize] = full[d];
            }
        }
        out
    }

    /// Adds `alpha · x_free` to the free entries of `full`.
    pub fn add_free(&self, full: &mut [f64], x_free: &[f64], alpha: f64) {
        for (d, &f) in self.free_index.iter().enumerate() {
            if f != FIXED {
                full[d] += alpha * x_free[f as usize];
            }
        }
    }

    /// Scatters one element matrix (column-major, `(npe·D)²`) into `values`.
    fn scatter<const D: usize>(
        &self,
        problem: &Problem<D>,
        e: usize,
        ke: &[f64],
        values: &mut [f64],
    ) {
        let el = problem.mesh.element(e);
        let npe = el.len();
        let nd = npe * D;
        for (la, &a) in el.iter().enumerate() {
            for i in 0..D {
                let col = self.free_index[D * a as usize + i];
                if col == FIXED {
                    continue;
                }
                let start = self.pattern.col_ptr[col as usize];
                for (lb, &b) in el.iter().enumerate() {
                    let off = start + self.pair_offset[(e * npe + la) * npe + lb] as usize;
                    for k in 0..D {
                        let dof = D * b as usize + k;
                        if self.free_index[dof] != FIXED {
                            values[off + self.rank[dof] as usize] +=
                                ke[(D * lb + k) + nd * (D * la + i)];
                        }
                    }
                }
            }
        }
    }
}

/// Deformation gradient at quadrature point `q` of element `e`.
fn deformation_gradient<const D: usize>(
    problem: &Problem<D>,
    e: usize,
    q: usize,
    u: &[f64],
) -> SMatrix<f64, D, D> {
    let npe = problem.mesh.nodes_per_element;
    let nq = problem.geometry.points_per_element;
    let grads = &problem.geometry.gradients[(e * nq + q) * npe..(e * nq + q + 1) * npe];
    let mut f = SMatrix::<f64, D, D>::identity();
    for (&a, g) in problem.mesh.element(e).iter().zip(grads) {
        let ua = SVector::<f64, D>::from_column_slice(&u[D * a as usize..D * a as usize + D]);
        f += ua * g.transpose();
    }
    f
}

fn admissible<const D: usize>(
    problem: &Problem<D>,
    f: &SMatrix<f64, D, D>,
) -> Result<(), EnergyError> {
    if !f.iter().all(|x| x.is_finite()) {
        return Err(EnergyError::NonFinite);
    }
    if problem.material.requires_positive_jacobian() {
        let det = determinant(f);
        if det <= 0.0 {
            return Err(EnergyError::NonPositiveDeterminant { det });
        }
    }
    Ok(())
}

/// Strain energy `Σ_e W_e(u)`; `Err((element, point, reason))` at the first inadmissible point.
pub fn strain_energy<const D: usize>(
    problem: &Problem<D>,
    u: &[f64],
) -> Result<f64, (usize, usize, EnergyError)> {
    let nq = problem.geometry.points_per_element;
    let t = problem.thickness_factor();
    let per_element: Vec<Result<f64, (usize, usize, EnergyError)>> =
        (0..problem.mesh.element_count())
            .into_par_iter()
            .map(|e| {
                let mut w = 0.0;
                for q in 0..nq {
                    let f = deformation_gradient(problem, e, q, u);
                    admissible(problem, &f).map_err(|r| (e, q, r))?;
                    w += problem.geometry.weights[e * nq + q] * t * problem.material.psi(&f);
                }
                Ok(w)
            })
            .collect();
    let mut total = 0.0;
    for w in per_element {
        total += w?;
    }
    Ok(total)
}

/// Internal force vector `∂W/∂u` over all DOFs.
pub fn internal_force<const D: usize>(problem: &Problem<D>, u: &[f64]) -> Vec<f64> {
    let npe = problem.mesh.nodes_per_element;
    let nq = problem.geometry.points_per_element;
    let t = problem.thickness_factor();
    let mut out = vec![0.0; problem.dof_count()];
    let elements: Vec<usize> = (0..problem.mesh.element_count()).collect();
    for chunk in elements.chunks(CHUNK * 4) {
        let forces: Vec<Vec<f64>> = chunk
            .par_iter()
            .map(|&e| {
                let mut fe = vec![0.0; npe * D];
                for q in 0..nq {
                    let p = problem
                        .material
                        .pk1(&deformation_gradient(problem, e, q, u));
                    let w = problem.geometry.weights[e * nq + q] * t;
                    let grads =
                        &problem.geometry.gradients[(e * nq + q) * npe..(e * nq + q + 1) * npe];
                    for (a, g) in grads.iter().enumerate() {
                        let pg = p * g * w;
                        for i in 0..D {
                            fe[D * a + i] += pg[i];
                        }
                    }
                }
                fe
            })
            .collect();
        for (&e, fe) in chunk.iter().zip(forces) {
            for (a, &node) in problem.mesh.element(e).iter().enumerate() {
                for i in 0..D {
                    out[D * node as usize + i] += fe[D * a + i];
                }
            }
        }
    }
    out
}

/// Element stiffness (column-major `(npe·D)²`), PSD-projected per quadrature point if asked.
fn element_stiffness<const D: usize>(
    problem: &Problem<D>,
    e: usize,
    u: &[f64],
    projected: bool,
) -> Vec<f64> {
    let npe = problem.mesh.nodes_per_element;
    let nq = problem.geometry.points_per_element;
    let nd = npe * D;
    let mut ke = vec![0.0; nd * nd];
    for q in 0..nq {
        let f = deformation_gradient(problem, e, q, u);
        let tangent = if projected {
            problem.material.tangent_psd(&f)
        } else {
            problem.material.tangent(&f)
        };
        let w = problem.geometry.weights[e * nq + q] * problem.thickness_factor();
        let grads = &problem.geometry.gradients[(e * nq + q) * npe..(e * nq + q + 1) * npe];
        for (b, gb) in grads.iter().enumerate() {
            for k in 0..D {
                // M = Σ_l ∂P/∂F_kl (∇N_b)_l, then column (b,k) of K_e is w M ∇Nₐ for each a.
                let mut m = SMatrix::<f64, D, D>::zeros();
                for l in 0..D {
                    m += tangent[k][l] * gb[l];
                }
                let col = nd * (D * b + k);
                for (a, ga) in grads.iter().enumerate() {
                    let v = m * ga * w;
                    for i in 0..D {
                        ke[col + D * a + i] += v[i];
                    }
                }
            }
        }
    }
    ke
}

/// Stiffness values on `system.pattern` at displacement `u`.
pub fn stiffness<const D: usize>(
    problem: &Problem<D>,
    system: &System,
    u: &[f64],
    projected: bool,
) -> Vec<f64> {
    let mut values = vec![0.0; system.pattern.row_idx.len()];
    let elements: Vec<usize> = (0..problem.mesh.element_count()).collect();
    for chunk in elements.chunks(CHUNK) {
        let blocks: Vec<Vec<f64>> = chunk
            .par_iter()
            .map(|&e| element_stiffness(problem, e, u, projected))
            .collect();
        for (&e, ke) in chunk.iter().zip(blocks) {
            system.scatter(problem, e, &ke, &mut values);
        }
    }
    values
}

/// Consistent mass matrix values on `system.pattern` (exact for affine P1/P2 elements: the
/// collapsed Gauss rule with 4 points per direction integrates degree 4 exactly).
pub fn mass<const D: usize>(problem: &Problem<D>, system: &System) -> Vec<f64> {
    let rule = Quadrature::<D>::collapsed_gauss(4);
    let order = problem.mesh.order;
    let npe = problem.mesh.nodes_per_element;
    let mut reference = vec![0.0; npe * npe];
    for (p, w) in rule.points.iter().zip(&rule.weights) {
        let n = shape_values(order, &barycentric(p));
        for a in 0..npe {
            for b in 0..npe {
                reference[a * npe + b] += w * n[a] * n[b];
            }
        }
    }
    let nd = npe * D;
    let mut values = vec![0.0; system.pattern.row_idx.len()];
    let mut me = vec![0.0; nd * nd];
    for e in 0..problem.mesh.element_count() {
        let scale =
            problem.density * determinant(&problem.mesh.jacobian(e)) * problem.thickness_factor();
        me.iter_mut().for_each(|v| *v = 0.0);
        for a in 0..npe {
            for b in 0..npe {
                for i in 0..D {
                    me[(D * a + i) + nd * (D * b + i)] = scale * reference[a * npe + b];
                }
            }
        }
        system.scatter(problem, e, &me, &mut values);
    }
    values
}
