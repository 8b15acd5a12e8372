//! Wendland C2 smoothing kernel (Wendland 1995), 2D and 3D, with a configurable support radius.
//!
//! With support radius `H` and `q = r / H ∈ [0, 1]` (reference notes §1.5, normalisation checked by
//! quadrature there and in the tests below):
//!
//! ```text
//! W(r)    = σ_d / H^d · (1 − q)⁴ (1 + 4q)          σ_2 = 7/π,  σ_3 = 21/(2π)
//! dW/dr   = σ_d / H^d · (−20 q / H) (1 − q)³
//! ∇_{x_p} W(|x_p − x_b|) = dW/dr · (x_p − x_b) / r
//! ```
//!
//! XPBI's Table 2 neighbour counts (17–39) match `H = 2 Δx` (26 neighbours on a 3D lattice), the
//! default of [`WendlandC2::from_spacing`].

use nalgebra::SVector;

use crate::error::XpbiError;

/// Wendland C2 kernel with support radius `H` in `D ∈ {2, 3}` dimensions.
///
/// ```
/// use xpbi_continuum::kernel::WendlandC2;
/// let w = WendlandC2::<3>::from_spacing(0.01).unwrap();
/// assert_eq!(w.support(), 0.02);
/// assert_eq!(w.value(0.02), 0.0);
/// assert!(w.value(0.0) > 0.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WendlandC2<const D: usize> {
    support: f64,
    /// `σ_d / H^d`.
    scale: f64,
}

/// Relative margin below the support within which neighbours are not searched
/// ([`WendlandC2::search_radius`]); well above f32 rounding of positions (6·10⁻⁸).
pub const NEIGHBOUR_TIE_MARGIN: f64 = 1e-5;

/// Default support radius in units of the particle spacing.
pub const DEFAULT_SUPPORT_OVER_SPACING: f64 = 2.0;

/// The support radii over spacing a body may use, [1.5, 4]. The moment matrix
/// `M_p = Σ V_b ∇W_b ⊗ (x_b − x_p)` of an interior lattice particle has singular values 0.67 at
/// 1.5, 0.25 at 1.2 and 0.011 at 1.05 (0.0057 at a corner, under the default pseudo-inverse
/// threshold: the correction drops every direction and the body is inert); at 1 and below no
/// neighbour is inside the support. Above 4 a particle has over 260 neighbours and the kernel
/// smooths the deformation over more than 8 spacings (at 100 a small body is one
/// neighbourhood, inert as well), at a cost ∝ (support/Δx)³.
pub const SUPPORT_OVER_SPACING_RANGE: std::ops::RangeInclusive<f64> = 1.5..=4.0;

/// `Ok` when `value` lies in [`SUPPORT_OVER_SPACING_RANGE`].
pub fn check_support_over_spacing(value: f64) -> Result<(), XpbiError> {
    if SUPPORT_OVER_SPACING_RANGE.contains(&value) {
        Ok(())
    } else {
        Err(XpbiError::OutOfRange {
            name: "support_over_spacing",
            value,
            reason: "must lie in [1.5, 4]: below, the kernel-gradient correction of a lattice \
                     particle degenerates (no neighbour at 1); above, it smooths over more than \
                     8 spacings",
        })
    }
}

impl<const D: usize> WendlandC2<D> {
    /// Kernel with support radius `support` (finite, > 0); `D` must be 2 or 3.
    pub fn new(support: f64) -> Result<Self, XpbiError> {
        let sigma = Self::normalisation()?;
        if !(support.is_finite() && support > 0.0) {
            return Err(XpbiError::InvalidParameter {
                name: "kernel support",
                value: support,
            });
        }
        Ok(Self {
            support,
            scale: sigma / support.powi(D as i32),
        })
    }

    /// The normalisation `σ_d` of the kernel in `D` dimensions (module docs: `σ_2 = 7/π`,
    /// `σ_3 = 21/(2π)`, so that `∫ W = 1`): the one definition, which the GPU's shaders
    /// receive through [`WendlandC2::scale`].
    ///
    /// ```
    /// use xpbi_continuum::kernel::WendlandC2;
    /// assert_eq!(WendlandC2::<3>::normalisation().unwrap(), 21.0 / (2.0 * std::f64::consts::PI));
    /// assert!(WendlandC2::<4>::normalisation().is_err());
    /// ```
    pub fn normalisation() -> Result<f64, XpbiError> {
        match D {
            2 => Ok(7.0 / std::f64::consts::PI),
            3 => Ok(21.0 / (2.0 * std::f64::consts::PI)),
            _ => Err(XpbiError::UnsupportedDimension { dimension: D }),
        }
    }

    /// `σ_d / H^d`, the factor of `W` and `∇W` (the value the GPU kernels are given).
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// Kernel with the default support `2 × spacing`.
    pub fn from_spacing(spacing: f64) -> Result<Self, XpbiError> {
        Self::new(DEFAULT_SUPPORT_OVER_SPACING * spacing)
    }

    /// Support radius `H`.
    pub fn support(&self) -> f64 {
        self.support
    }

    /// The radius the neighbours are searched within: `H (1 − NEIGHBOUR_TIE_MARGIN)`.
    ///
    /// A neighbour at the support carries `W = ∇W = 0`, and one within `10⁻⁵ H` of it carries
    /// `W ≤ 10⁻²⁰ W(0)` and `|∇W| ≤ 10⁻¹⁵` of its largest value: nothing the sums see. A particle
    /// lattice puts its axis neighbours two spacings away exactly at `H = 2Δx`, where whether
    /// `|x_b − x_p| < H` holds is decided by the rounding of the positions (differently in f64
    /// on the CPU and f32 on the GPU); those zero-weight neighbours would still count in the
    /// stencils (work, and averaged Jacobi's incidence counts). Searching within a margin below
    /// `H` makes the neighbour set independent of that rounding.
    ///
    /// ```
    /// use xpbi_continuum::kernel::WendlandC2;
    /// let w = WendlandC2::<3>::from_spacing(0.01).unwrap();
    /// assert!(w.search_radius() < w.support() && w.search_radius() > 0.9999 * w.support());
    /// ```
    pub fn search_radius(&self) -> f64 {
        self.support * (1.0 - NEIGHBOUR_TIE_MARGIN)
    }

    /// `W(r)`; zero for `r ≥ H`.
    pub fn value(&self, r: f64) -> f64 {
        let q = r / self.support;
        if q >= 1.0 {
            return 0.0;
        }
        let a = 1.0 - q;
        self.scale * a * a * a * a * (1.0 + 4.0 * q)
    }

    /// `dW/dr`; zero for `r ≥ H` and at `r = 0`.
    pub fn derivative(&self, r: f64) -> f64 {
        let q = r / self.support;
        if q >= 1.0 {
            return 0.0;
        }
        let a = 1.0 - q;
        self.scale * (-20.0 * q / self.support) * a * a * a
    }

    /// `∇_{x_p} W(|x_p − x_b|)` as a function of `d = x_p − x_b` (odd in `d`).
    pub fn gradient(&self, d: &SVector<f64, D>) -> SVector<f64, D> {
        let q = d.norm() / self.support;
        if q >= 1.0 {
            return SVector::zeros();
        }
        // dW/dr / r = σ/H^d · (−20/H²)(1 − q)³, finite at r = 0.
        let a = 1.0 - q;
        d * (self.scale * (-20.0 / (self.support * self.support)) * a * a * a)
    }
}
