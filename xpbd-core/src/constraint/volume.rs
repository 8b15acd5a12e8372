//! Volume constraints: per simplex (tetrahedra in 3D, triangle area in 2D) and for a whole
//! closed surface (balloons, pressure).

use super::{ConstraintKind, check_non_negative};
use crate::geometry::{cofactor, determinant, edge_matrix, factorial, signed_measure};
use crate::{BuildError, Matrix, Particles, Vector};

/// `C = V(x) − V₀` with `V = det[x₁ − x₀, …, x_D − x₀] / D!` (tetrahedron volume in 3D,
/// triangle area in 2D), gradients `∇_{xₖ}C = cof(Ds)[:, k−1] / D!`, `∇_{x₀}C = −Σ`
/// (Müller et al. 2007 §4.3 with the 1/6 kept: it does not cancel with compliance; derived and
/// finite-difference checked in the tests).
///
/// Compliance from a bulk modulus `K`: the energy `K ΔV² / (2 V₀)` equals `C²/(2α)` for
/// `α = V₀ / K` ([`TetVolumeConstraints::compliance_from_bulk_modulus`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TetVolumeConstraints<const D: usize> {
    /// `D + 1` particle indices per element, flattened.
    pub elements: Vec<u32>,
    /// Rest measures V₀.
    pub rest_volume: Vec<f64>,
    /// Compliances α.
    pub compliance: Vec<f64>,
}

impl<const D: usize> TetVolumeConstraints<D> {
    /// No constraints.
    pub fn new() -> Self {
        Self {
            elements: Vec::new(),
            rest_volume: Vec::new(),
            compliance: Vec::new(),
        }
    }

    /// `α = V₀ / K`.
    pub fn compliance_from_bulk_modulus(
        rest_volume: f64,
        bulk_modulus: f64,
    ) -> Result<f64, BuildError> {
        if !(bulk_modulus.is_finite() && bulk_modulus > 0.0) {
            return Err(BuildError::InvalidMaterial {
                field: "bulk_modulus",
                value: bulk_modulus,
                reason: "must be finite and > 0",
            });
        }
        Ok(rest_volume / bulk_modulus)
    }

    /// Adds an element with rest volume from the current positions; it must be positively
    /// oriented and non-degenerate. `compliance = None` uses the bulk modulus rule with `bulk`.
    pub fn add(
        &mut self,
        particles: &Particles<D>,
        element: &[usize],
        compliance: f64,
    ) -> Result<usize, BuildError> {
        let c = self.rest_volume.len();
        let idx: Vec<u32> = element.iter().map(|&i| i as u32).collect();
        if idx.len() != D + 1 {
            return Err(BuildError::InvalidGeometry(format!(
                "volume element {c}: needs {} indices, got {}",
                D + 1,
                idx.len()
            )));
        }
        super::check_stencil("volume", c, &idx, particles.len())?;
        let xs: Vec<Vector<D>> = element.iter().map(|&i| particles.x[i]).collect();
        let v = rest_measure_checked("volume", c, &xs)?;
        check_non_negative("volume", c, "compliance", compliance)?;
        self.elements.extend(idx);
        self.rest_volume.push(v);
        self.compliance.push(compliance);
        Ok(c)
    }
}

/// Rest measure of a simplex, rejecting degenerate and inverted ones.
pub(crate) fn rest_measure_checked<const D: usize>(
    kind: &'static str,
    element: usize,
    xs: &[Vector<D>],
) -> Result<f64, BuildError> {
    let v = signed_measure(xs);
    let scale = (1..=D)
        .map(|k| (xs[k] - xs[0]).norm())
        .fold(0.0, f64::max)
        .powi(D as i32);
    if !v.is_finite() || v.abs() <= 1e-12 * scale.max(f64::MIN_POSITIVE) {
        return Err(BuildError::DegenerateElement {
            kind,
            element,
            measure: v,
        });
    }
    if v < 0.0 {
        return Err(BuildError::InvertedElement {
            kind,
            element,
            measure: v,
        });
    }
    Ok(v)
}

impl<const D: usize> ConstraintKind<D> for TetVolumeConstraints<D> {
    const SUBSTEP_HOOKS: bool = false;

    const NAME: &'static str = "volume";
    const FIXED_ARITY: usize = D + 1;

    fn len(&self) -> usize {
        self.rest_volume.len()
    }

    fn stencil(&self, c: usize) -> &[u32] {
        &self.elements[c * (D + 1)..(c + 1) * (D + 1)]
    }

    fn compliance(&self, c: usize) -> f64 {
        self.compliance[c]
    }

    fn evaluate(&self, c: usize, xs: &[Vector<D>], grad: &mut [Vector<D>]) -> f64 {
        let ds = edge_matrix(xs);
        let scale = 1.0 / factorial(D);
        let g: Matrix<D> = cofactor(&ds) * scale;
        crate::geometry::scatter_edge_gradient(&g, grad);
        determinant(&ds) * scale - self.rest_volume[c]
    }

    fn relative_strain(&self, c: usize, value: f64) -> Option<f64> {
        Some(value / self.rest_volume[c])
    }
}

/// One constraint on the volume enclosed by a closed, outward-oriented triangle surface
/// (3D): `C = Σ_t (x_a × x_b)·x_c / 6 − s V₀`, `∇_i C = Σ_{t ∋ i} (x_j × x_k)/6` with (i, j, k)
/// the triangle's vertices in cyclic order (Müller et al. 2007 §4.4, the 1/6 kept).
/// `s` ([`SurfaceVolumeConstraint::pressure_scale`]) over-inflates (balloon), `α = V₀/K`
/// makes the enclosed gas compliant with bulk modulus `K`.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceVolumeConstraint {
    /// The distinct particles of the surface (the constraint's stencil).
    pub particles: Vec<u32>,
    /// Triangles as local indices into `particles`, outward orientation.
    pub triangles: Vec<[u32; 3]>,
    /// Rest volume V₀ (m³) measured at construction.
    pub rest_volume: f64,
    /// Target volume = `pressure_scale · V₀`.
    pub pressure_scale: f64,
    /// Compliance α (m³/Pa... per unit volume², see type docs).
    pub compliance: f64,
}

impl SurfaceVolumeConstraint {
    /// Builds the constraint from a closed surface given by global particle indices.
    pub fn new(
        particles: &Particles<3>,
        triangles: &[[usize; 3]],
        pressure_scale: f64,
        compliance: f64,
    ) -> Result<Self, BuildError> {
        check_non_negative("surface volume", 0, "compliance", compliance)?;
        check_non_negative("surface volume", 0, "pressure_scale", pressure_scale)?;
        let mut global: Vec<u32> = triangles.iter().flatten().map(|&i| i as u32).collect();
        global.sort_unstable();
        global.dedup();
        if let Some(&bad) = global.iter().find(|&&i| i as usize >= particles.len()) {
            return Err(BuildError::IndexOutOfRange {
                kind: "surface volume",
                constraint: 0,
                index: bad as usize,
                len: particles.len(),
            });
        }
        let local = |g: usize| global.binary_search(&(g as u32)).expect("present") as u32;
        let tris: Vec<[u32; 3]> = triangles
            .iter()
            .map(|t| [local(t[0]), local(t[1]), local(t[2])])
            .collect();
        let xs: Vec<Vector<3>> = global.iter().map(|&i| particles.x[i as usize]).collect();
        let v = enclosed_volume(&tris, &xs);
        if !(v.is_finite() && v > 0.0) {
            return Err(BuildError::DegenerateElement {
                kind: "surface volume",
                element: 0,
                measure: v,
            });
        }
        Ok(Self {
            particles: global,
            triangles: tris,
            rest_volume: v,
            pressure_scale,
            compliance,
        })
    }
}

/// Volume enclosed by an outward-oriented closed triangle surface (divergence theorem).
pub fn enclosed_volume(triangles: &[[u32; 3]], xs: &[Vector<3>]) -> f64 {
    triangles
        .iter()
        .map(|t| {
            xs[t[0] as usize]
                .cross(&xs[t[1] as usize])
                .dot(&xs[t[2] as usize])
        })
        .sum::<f64>()
        / 6.0
}

impl ConstraintKind<3> for SurfaceVolumeConstraint {
    const SUBSTEP_HOOKS: bool = false;

    const NAME: &'static str = "surface volume";

    fn len(&self) -> usize {
        1
    }

    fn stencil(&self, _c: usize) -> &[u32] {
        &self.particles
    }

    fn compliance(&self, _c: usize) -> f64 {
        self.compliance
    }

    fn evaluate(&self, _c: usize, xs: &[Vector<3>], grad: &mut [Vector<3>]) -> f64 {
        grad.iter_mut().for_each(|g| *g = Vector::<3>::zeros());
        for t in &self.triangles {
            let [a, b, c] = t.map(|i| i as usize);
            grad[a] += xs[b].cross(&xs[c]) / 6.0;
            grad[b] += xs[c].cross(&xs[a]) / 6.0;
            grad[c] += xs[a].cross(&xs[b]) / 6.0;
        }
        enclosed_volume(&self.triangles, xs) - self.pressure_scale * self.rest_volume
    }

    fn relative_strain(&self, _c: usize, value: f64) -> Option<f64> {
        Some(value / self.rest_volume)
    }
}
