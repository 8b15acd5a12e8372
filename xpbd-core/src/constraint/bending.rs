//! Bending of cloth across an interior edge: dihedral angle and isometric (quadratic) forms.

use super::{ConstraintKind, check_non_negative, check_stencil};
use crate::{BuildError, Particles, Vector};
use nalgebra::Matrix4;

/// Signed dihedral angle and its gradient for the edge stencil `[w₀, w₁, e₀, e₁]`
/// (two wing vertices, then the shared edge `E = e₁ − e₀`), with
/// `N₁ = (w₀ − e₀) × (w₀ − e₁)`, `N₂ = (w₁ − e₁) × (w₁ − e₀)`,
/// `θ = atan2((n̂₁ × n̂₂)·Ê, n̂₁·n̂₂)` and the gradients of Bridson et al. 2003 (§4.1):
/// `u_{w₀} = |E| N₁/|N₁|²`, `u_{w₁} = |E| N₂/|N₂|²`,
/// `u_{e₀} = (w₀−e₁)·Ê N₁/|N₁|² + (w₁−e₁)·Ê N₂/|N₂|²`,
/// `u_{e₁} = −(w₀−e₀)·Ê N₁/|N₁|² − (w₁−e₀)·Ê N₂/|N₂|²`, and `∇θ = −u`
/// (sign fixed by the finite-difference test). Returns `None` for a degenerate wing.
pub fn dihedral_angle(xs: &[Vector<3>], grad: &mut [Vector<3>]) -> Option<f64> {
    let (w0, w1, e0, e1) = (xs[0], xs[1], xs[2], xs[3]);
    let e = e1 - e0;
    let elen = e.norm();
    let n1 = (w0 - e0).cross(&(w0 - e1));
    let n2 = (w1 - e1).cross(&(w1 - e0));
    let (l1, l2) = (n1.norm_squared(), n2.norm_squared());
    if elen < 1e-300 || l1 < 1e-300 || l2 < 1e-300 {
        return None;
    }
    let eh = e / elen;
    let (m1, m2) = (n1 / l1, n2 / l2);
    let (nh1, nh2) = (n1 / l1.sqrt(), n2 / l2.sqrt());
    let theta = nh1.cross(&nh2).dot(&eh).atan2(nh1.dot(&nh2));
    grad[0] = -(m1 * elen);
    grad[1] = -(m2 * elen);
    grad[2] = -(m1 * (w0 - e1).dot(&eh) + m2 * (w1 - e1).dot(&eh));
    grad[3] = m1 * (w0 - e0).dot(&eh) + m2 * (w1 - e0).dot(&eh);
    Some(theta)
}

/// `C = θ − θ₀` per interior edge (stencil `[w₀, w₁, e₀, e₁]`, see [`dihedral_angle`]).
///
/// Compliance from a bending stiffness `k_b` (N·m) with the discrete-shells energy
/// (Grinspun et al. 2003) `E = k_b · 3|e|²/(A₁ + A₂) · (θ − θ₀)²`, i.e.
/// `α = (A₁ + A₂) / (6 k_b |e|²)` ([`DihedralBendingConstraints::add`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DihedralBendingConstraints {
    /// Stencils `[w₀, w₁, e₀, e₁]`.
    pub stencils: Vec<[u32; 4]>,
    /// Rest angles θ₀.
    pub rest_angle: Vec<f64>,
    /// Compliances α.
    pub compliance: Vec<f64>,
}

impl DihedralBendingConstraints {
    /// No constraints.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the edge `(e0, e1)` shared by the triangles with far vertices `w0`, `w1`, bending
    /// stiffness `k_b` (N·m; `f64::INFINITY` for rigid). Rest angle from current positions.
    pub fn add(
        &mut self,
        particles: &Particles<3>,
        [w0, w1, e0, e1]: [usize; 4],
        bending_stiffness: f64,
    ) -> Result<usize, BuildError> {
        let c = self.stencils.len();
        let idx = [w0, w1, e0, e1].map(|i| i as u32);
        check_stencil("dihedral bending", c, &idx, particles.len())?;
        if bending_stiffness.is_nan() || bending_stiffness <= 0.0 {
            return Err(BuildError::InvalidMaterial {
                field: "bending_stiffness",
                value: bending_stiffness,
                reason: "must be > 0",
            });
        }
        let xs = [w0, w1, e0, e1].map(|i| particles.x[i]);
        let mut g = [Vector::<3>::zeros(); 4];
        let theta = dihedral_angle(&xs, &mut g).ok_or(BuildError::DegenerateElement {
            kind: "dihedral bending",
            element: c,
            measure: 0.0,
        })?;
        let area = 0.5
            * ((xs[0] - xs[2]).cross(&(xs[0] - xs[3])).norm()
                + (xs[1] - xs[2]).cross(&(xs[1] - xs[3])).norm());
        let e2 = (xs[3] - xs[2]).norm_squared();
        let alpha = area / (6.0 * bending_stiffness * e2);
        check_non_negative("dihedral bending", c, "compliance", alpha)?;
        self.stencils.push(idx);
        self.rest_angle.push(theta);
        self.compliance.push(alpha);
        Ok(c)
    }
}

impl ConstraintKind<3> for DihedralBendingConstraints {
    const SUBSTEP_HOOKS: bool = false;

    const NAME: &'static str = "dihedral bending";
    const FIXED_ARITY: usize = 4;

    fn len(&self) -> usize {
        self.stencils.len()
    }

    fn stencil(&self, c: usize) -> &[u32] {
        &self.stencils[c]
    }

    fn compliance(&self, c: usize) -> f64 {
        self.compliance[c]
    }

    fn evaluate(&self, c: usize, xs: &[Vector<3>], grad: &mut [Vector<3>]) -> f64 {
        match dihedral_angle(xs, grad) {
            Some(theta) => {
                // Wrap the difference into (−π, π] so a fold through ±π does not jump.
                let mut d = theta - self.rest_angle[c];
                if d > std::f64::consts::PI {
                    d -= 2.0 * std::f64::consts::PI;
                } else if d <= -std::f64::consts::PI {
                    d += 2.0 * std::f64::consts::PI;
                }
                d
            }
            None => {
                grad.iter_mut().for_each(|g| *g = Vector::<3>::zeros());
                0.0
            }
        }
    }
}

/// Isometric bending (Bergou et al. 2006, "A quadratic bending model for inextensible
/// surfaces"): for the stencil `[x₀, x₁, x₂, x₃]` (shared edge x₀x₁, wings x₂, x₃) the energy
/// is `E = (k_b/2) Σ_jk Q_jk xⱼ·xₖ` with the constant `Q = 3/(A₀ + A₁) K Kᵀ`,
/// `K = (c₀₃ + c₀₄, c₀₁ + c₀₂, −c₀₁ − c₀₃, −c₀₂ − c₀₄)` of edge cotangents (xpbi-math.md §2.3).
/// As a constraint: `C = √(Σ Q_jk xⱼ·xₖ)`, `α = 1/k_b`, so `C²/(2α) = E`; `∇ⱼC = Σₖ Q_jk xₖ / C`.
/// Valid for a flat rest state (then `Q x_rest = 0`, `C = 0` at rest).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IsometricBendingConstraints {
    /// Stencils `[x₀, x₁, x₂, x₃]`.
    pub stencils: Vec<[u32; 4]>,
    /// The constant matrices Q.
    pub q: Vec<Matrix4<f64>>,
    /// Compliance α = 1/k_b.
    pub compliance: Vec<f64>,
}

fn cot(a: Vector<3>, b: Vector<3>) -> f64 {
    a.dot(&b) / a.cross(&b).norm().max(1e-300)
}

impl IsometricBendingConstraints {
    /// No constraints.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the edge `(x0, x1)` with wings `x2`, `x3` and bending stiffness `k_b` (N·m).
    pub fn add(
        &mut self,
        particles: &Particles<3>,
        stencil: [usize; 4],
        bending_stiffness: f64,
    ) -> Result<usize, BuildError> {
        let c = self.stencils.len();
        let idx = stencil.map(|i| i as u32);
        check_stencil("isometric bending", c, &idx, particles.len())?;
        if bending_stiffness.is_nan() || bending_stiffness <= 0.0 {
            return Err(BuildError::InvalidMaterial {
                field: "bending_stiffness",
                value: bending_stiffness,
                reason: "must be > 0",
            });
        }
        let [x0, x1, x2, x3] = stencil.map(|i| particles.x[i]);
        let (e0, e1, e2, e3, e4) = (x1 - x0, x2 - x0, x3 - x0, x2 - x1, x3 - x1);
        let (a0, a1) = (0.5 * e0.cross(&e1).norm(), 0.5 * e0.cross(&e2).norm());
        if !(a0 > 1e-300 && a1 > 1e-300) {
            return Err(BuildError::DegenerateElement {
                kind: "isometric bending",
                element: c,
                measure: a0.min(a1),
            });
        }
        let (c01, c02, c03, c04) = (cot(e0, e1), cot(e0, e2), cot(-e0, e3), cot(-e0, e4));
        let k = nalgebra::Vector4::new(c03 + c04, c01 + c02, -c01 - c03, -c02 - c04);
        let q = k * k.transpose() * (3.0 / (a0 + a1));
        self.stencils.push(idx);
        self.q.push(q);
        self.compliance.push(1.0 / bending_stiffness);
        Ok(c)
    }
}

impl ConstraintKind<3> for IsometricBendingConstraints {
    const SUBSTEP_HOOKS: bool = false;

    const NAME: &'static str = "isometric bending";
    const FIXED_ARITY: usize = 4;

    fn len(&self) -> usize {
        self.stencils.len()
    }

    fn stencil(&self, c: usize) -> &[u32] {
        &self.stencils[c]
    }

    fn compliance(&self, c: usize) -> f64 {
        self.compliance[c]
    }

    fn evaluate(&self, c: usize, xs: &[Vector<3>], grad: &mut [Vector<3>]) -> f64 {
        let q = &self.q[c];
        let mut energy2 = 0.0;
        for j in 0..4 {
            let mut qx = Vector::<3>::zeros();
            for k in 0..4 {
                qx += xs[k] * q[(j, k)];
            }
            energy2 += xs[j].dot(&qx);
            grad[j] = qx;
        }
        let value = energy2.max(0.0).sqrt();
        if value < 1e-12 {
            grad.iter_mut().for_each(|g| *g = Vector::<3>::zeros());
            return 0.0;
        }
        grad.iter_mut().for_each(|g| *g /= value);
        value
    }
}
