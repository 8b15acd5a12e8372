//! The one cantilever-beam description shared by the FEM oracle, the XPBD tet discretisation
//! and the XPBI particle discretisation, with its analytic reference values.
//!
//! Geometry: the box `[0, L] × [0, W] × [0, H]`, clamped on the face `x = 0`, gravity `g` along
//! `−z`, an optional tip load `P` (total force, along `−z`) spread uniformly over the free face
//! `x = L`. The quantity of interest is the displacement of the centre of the free end,
//! `(L, W/2, H/2)`. The 2-D twin lives in the `(x, z)` plane (plane strain, out-of-plane
//! thickness `W`), clamped at `x = 0`, tip point `(L, H/2)`.
//!
//! Analytic references (notes §3.3): Euler–Bernoulli `δ = PL³/(3EI)` (tip load),
//! `δ = qL⁴/(8EI)` (self-weight `q = ρgA`), Timoshenko shear terms `PL/(κGA)` and
//! `qL²/(2κGA)` with `κ = 5/6`, first bending frequency `f₁ = (1.8751²/2π)√(EI/(ρAL⁴))`,
//! and the inextensible-elastica tables [`ELASTICA_TIP_LOAD`] / [`ELASTICA_SELF_WEIGHT`].
//!
//! ```
//! use xpbd_core::cantilever::Cantilever;
//! let beam = Cantilever { youngs: 1e7, ..Cantilever::default() };
//! let eb = beam.euler_bernoulli_tip_deflection();
//! let q = beam.density * beam.gravity * beam.area();
//! assert!((eb - q * beam.length.powi(4) / (8.0 * beam.youngs * beam.second_moment())).abs() < 1e-15);
//! assert!(beam.timoshenko_tip_deflection() > eb);
//! ```

use crate::mesh::{MeshError, TetMesh, TriMesh2};

/// Timoshenko shear coefficient of a rectangular section.
pub const SHEAR_COEFFICIENT_RECTANGLE: f64 = 5.0 / 6.0;

/// First root of `1 + cos β cosh β = 0` (clamped–free beam), `β₁ L`.
pub const FIRST_MODE_BETA_L: f64 = 1.875_104_068_711_961;

/// One row of an elastica table: load parameter `K` and tip displacements over `L`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElasticaPoint {
    /// `K = PL²/EI` (tip load) or `K = qL³/EI` (self-weight).
    pub k: f64,
    /// Vertical tip deflection `δ_v / L`.
    pub vertical: f64,
    /// Horizontal tip shortening `δ_h / L`.
    pub horizontal: f64,
}

const fn ep(k: f64, vertical: f64, horizontal: f64) -> ElasticaPoint {
    ElasticaPoint {
        k,
        vertical,
        horizontal,
    }
}

/// Inextensible elastica, dead tip load `P`, `K = PL²/EI` (Bisshopp & Drucker 1945; notes §3.3,
/// re-derived by a BVP solve).
pub const ELASTICA_TIP_LOAD: [ElasticaPoint; 7] = [
    ep(0.1, 0.03330, 0.00067),
    ep(0.5, 0.16214, 0.01592),
    ep(1.0, 0.30172, 0.05643),
    ep(2.0, 0.49346, 0.16064),
    ep(3.0, 0.60325, 0.25442),
    ep(5.0, 0.71379, 0.38763),
    ep(10.0, 0.81061, 0.55500),
];

/// Inextensible elastica under uniform self-weight `q`, `K = qL³/EI` (notes §3.3, BVP solve).
pub const ELASTICA_SELF_WEIGHT: [ElasticaPoint; 8] = [
    ep(0.1, 0.01250, 0.00009),
    ep(0.5, 0.06231, 0.00222),
    ep(1.0, 0.12347, 0.00875),
    ep(2.0, 0.23851, 0.03311),
    ep(4.0, 0.42516, 0.10989),
    ep(8.0, 0.64063, 0.27558),
    ep(16.0, 0.79702, 0.49001),
    ep(32.0, 0.87846, 0.67151),
];

/// Why a cantilever description is unusable.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CantileverError {
    /// A parameter is non-finite or out of its physical range.
    #[error("cantilever parameter {field} = {value} is invalid ({expected})")]
    InvalidParameter {
        /// Field name.
        field: &'static str,
        /// Its value.
        value: f64,
        /// The admissible range.
        expected: &'static str,
    },
    /// Mesh generation failed.
    #[error(transparent)]
    Mesh(#[from] MeshError),
}

/// A clamped–free rectangular beam (SI units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cantilever {
    /// `L` along `x` (m).
    pub length: f64,
    /// `W` along `y` (m).
    pub width: f64,
    /// `H` along `z` (m), the bending direction.
    pub height: f64,
    /// Young's modulus `E` (Pa).
    pub youngs: f64,
    /// Poisson's ratio `ν`.
    pub poisson: f64,
    /// Density `ρ` (kg/m³).
    pub density: f64,
    /// Gravitational acceleration magnitude (m/s²) along `−z`; 0 for none.
    pub gravity: f64,
    /// Total tip force `P` (N) along `−z` on the free face, if any.
    pub tip_load: Option<f64>,
}

impl Default for Cantilever {
    /// `L = 1`, `W = H = 0.1`, `E = 1e6`, `ν = 0.3`, `ρ = 1000`, `g = 9.81`, no tip load.
    fn default() -> Self {
        Self {
            length: 1.0,
            width: 0.1,
            height: 0.1,
            youngs: 1e6,
            poisson: 0.3,
            density: 1000.0,
            gravity: 9.81,
            tip_load: None,
        }
    }
}

impl Cantilever {
    /// Checks that every parameter is finite and physical (`ν ∈ (−1, 0.5)`).
    pub fn validate(&self) -> Result<(), CantileverError> {
        let positive = [
            ("length", self.length),
            ("width", self.width),
            ("height", self.height),
            ("youngs", self.youngs),
            ("density", self.density),
        ];
        for (field, value) in positive {
            if !(value.is_finite() && value > 0.0) {
                return Err(CantileverError::InvalidParameter {
                    field,
                    value,
                    expected: "finite and > 0",
                });
            }
        }
        if !(self.poisson.is_finite() && self.poisson > -1.0 && self.poisson < 0.5) {
            return Err(CantileverError::InvalidParameter {
                field: "poisson",
                value: self.poisson,
                expected: "in (-1, 0.5)",
            });
        }
        if !(self.gravity.is_finite() && self.gravity >= 0.0) {
            return Err(CantileverError::InvalidParameter {
                field: "gravity",
                value: self.gravity,
                expected: "finite and >= 0",
            });
        }
        if let Some(p) = self.tip_load
            && !p.is_finite()
        {
            return Err(CantileverError::InvalidParameter {
                field: "tip_load",
                value: p,
                expected: "finite",
            });
        }
        Ok(())
    }

    /// Cross-section area `A = W H`.
    pub fn area(&self) -> f64 {
        self.width * self.height
    }

    /// Second moment about the bending axis `I = W H³ / 12`.
    pub fn second_moment(&self) -> f64 {
        self.width * self.height.powi(3) / 12.0
    }

    /// Shear modulus `G = E / (2(1 + ν))`.
    pub fn shear_modulus(&self) -> f64 {
        self.youngs / (2.0 * (1.0 + self.poisson))
    }

    /// Self-weight per unit length `q = ρ g A`.
    pub fn weight_per_length(&self) -> f64 {
        self.density * self.gravity * self.area()
    }

    /// Bending stiffness `E I` (3-D beam: uniaxial stress in the fibres).
    pub fn bending_stiffness(&self) -> f64 {
        self.youngs * self.second_moment()
    }

    /// Bending stiffness of the 2-D plane-strain twin: `E I / (1 − ν²)`.
    pub fn bending_stiffness_plane_strain(&self) -> f64 {
        self.bending_stiffness() / (1.0 - self.poisson * self.poisson)
    }

    /// Tip-load parameter `K = P L² / (E I)` (0 without a tip load).
    pub fn tip_load_parameter(&self) -> f64 {
        self.tip_load.unwrap_or(0.0) * self.length.powi(2) / self.bending_stiffness()
    }

    /// Self-weight parameter `K = q L³ / (E I)`.
    pub fn self_weight_parameter(&self) -> f64 {
        self.weight_per_length() * self.length.powi(3) / self.bending_stiffness()
    }

    /// Euler–Bernoulli tip deflection (positive downwards) for the tip load plus self-weight,
    /// `PL³/(3EI) + qL⁴/(8EI)` (linear superposition).
    pub fn euler_bernoulli_tip_deflection(&self) -> f64 {
        let ei = self.bending_stiffness();
        let l = self.length;
        self.tip_load.unwrap_or(0.0) * l.powi(3) / (3.0 * ei)
            + self.weight_per_length() * l.powi(4) / (8.0 * ei)
    }

    /// Timoshenko tip deflection: Euler–Bernoulli plus the shear terms
    /// `PL/(κGA) + qL²/(2κGA)`, `κ = 5/6`.
    pub fn timoshenko_tip_deflection(&self) -> f64 {
        let kga = SHEAR_COEFFICIENT_RECTANGLE * self.shear_modulus() * self.area();
        let l = self.length;
        self.euler_bernoulli_tip_deflection()
            + self.tip_load.unwrap_or(0.0) * l / kga
            + self.weight_per_length() * l * l / (2.0 * kga)
    }

    /// First bending frequency (Hz) `f₁ = (1.8751²/2π) √(EI/(ρ A L⁴))`.
    pub fn first_bending_frequency(&self) -> f64 {
        FIRST_MODE_BETA_L.powi(2) / (2.0 * std::f64::consts::PI)
            * (self.bending_stiffness() / (self.density * self.area() * self.length.powi(4))).sqrt()
    }

    /// Centre of the free end `(L, W/2, H/2)`.
    pub fn tip_point(&self) -> [f64; 3] {
        [self.length, 0.5 * self.width, 0.5 * self.height]
    }

    /// Centre of the free end of the 2-D twin `(L, H/2)`.
    pub fn tip_point_2d(&self) -> [f64; 2] {
        [self.length, 0.5 * self.height]
    }

    /// Cells across a side of size `side` for `cells_along_length` cells along `L`: the
    /// nearest count giving roughly cubic cells, at least 1.
    fn cells_across(&self, side: f64, cells_along_length: usize) -> usize {
        ((cells_along_length as f64 * side / self.length).round() as usize).max(1)
    }

    /// Tetrahedral mesh of the beam ([`TetMesh::box_beam`]) with `cells_along_length` hex cells
    /// along `x` and roughly cubic cells across.
    ///
    /// ```
    /// let m = xpbd_core::cantilever::Cantilever::default().tet_mesh(20).unwrap();
    /// assert_eq!(m.cells.len(), 6 * 20 * 2 * 2);
    /// ```
    pub fn tet_mesh(&self, cells_along_length: usize) -> Result<TetMesh, CantileverError> {
        self.validate()?;
        let ny = self.cells_across(self.width, cells_along_length);
        let nz = self.cells_across(self.height, cells_along_length);
        Ok(TetMesh::box_beam(
            [self.length, self.width, self.height],
            [cells_along_length, ny, nz],
        )?)
    }

    /// The 2-D twin: the `(x, z)` rectangle `[0, L] × [0, H]` ([`TriMesh2::rectangle`]).
    pub fn tri_mesh_2d(&self, cells_along_length: usize) -> Result<TriMesh2, CantileverError> {
        self.validate()?;
        let nz = self.cells_across(self.height, cells_along_length);
        Ok(TriMesh2::rectangle(
            [self.length, self.height],
            [cells_along_length, nz],
        )?)
    }
}

/// Linear interpolation in an elastica table (`vertical` deflection over `L` at `k`); `None`
/// outside the tabulated range.
///
/// ```
/// use xpbd_core::cantilever::{elastica_vertical, ELASTICA_TIP_LOAD};
/// assert_eq!(elastica_vertical(&ELASTICA_TIP_LOAD, 3.0), Some(0.60325));
/// ```
pub fn elastica_vertical(table: &[ElasticaPoint], k: f64) -> Option<f64> {
    table.windows(2).find_map(|w| {
        (k >= w[0].k && k <= w[1].k).then(|| {
            let t = (k - w[0].k) / (w[1].k - w[0].k);
            w[0].vertical + t * (w[1].vertical - w[0].vertical)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_match_hand_values() {
        // L = 1, W = H = 0.1, E = 1e6, ν = 0.3, ρ = 1000, g = 9.81.
        let b = Cantilever {
            tip_load: Some(2.0),
            ..Cantilever::default()
        };
        let i = 0.1f64.powi(4) / 12.0;
        assert!((b.second_moment() - i).abs() < 1e-20);
        let q = 1000.0 * 9.81 * 0.01;
        let eb = 2.0 / (3.0 * 1e6 * i) + q / (8.0 * 1e6 * i);
        assert!((b.euler_bernoulli_tip_deflection() - eb).abs() < 1e-14);
        let kga = 5.0 / 6.0 * 1e6 / 2.6 * 0.01;
        assert!((b.timoshenko_tip_deflection() - eb - 2.0 / kga - q / (2.0 * kga)).abs() < 1e-14);
        // f1 = 3.5160 / (2π) sqrt(EI / (ρ A L⁴)).
        let f1 = 3.516_015_268 / (2.0 * std::f64::consts::PI) * (1e6 * i / 10.0).sqrt();
        assert!((b.first_bending_frequency() - f1).abs() < 1e-8);
        assert!((b.self_weight_parameter() - q / (1e6 * i)).abs() < 1e-12);
    }

    #[test]
    fn invalid_parameters_are_named() {
        let bad = Cantilever {
            poisson: 0.5,
            ..Cantilever::default()
        };
        assert!(matches!(
            bad.validate(),
            Err(CantileverError::InvalidParameter {
                field: "poisson",
                ..
            })
        ));
        let bad = Cantilever {
            youngs: f64::NAN,
            ..Cantilever::default()
        };
        assert!(matches!(
            bad.tet_mesh(4),
            Err(CantileverError::InvalidParameter {
                field: "youngs",
                ..
            })
        ));
        assert!(matches!(
            Cantilever::default().tet_mesh(0),
            Err(CantileverError::Mesh(_))
        ));
    }

    #[test]
    fn meshes_cover_the_beam() {
        let b = Cantilever::default();
        assert!((b.tet_mesh(10).unwrap().total_measure() - 0.01).abs() < 1e-14);
        assert!((b.tri_mesh_2d(10).unwrap().total_measure() - 0.1).abs() < 1e-14);
    }
}
