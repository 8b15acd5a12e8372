//! Colouring of grid cells into conflict-free task sets for coloured Gauss–Seidel.

use super::{GridError, UniformGrid};

/// How many colours per axis: 3^d colours need `cell ≥ radius`, 2^d colours need `cell ≥ 2 radius`
/// (see the module documentation for the derivation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourScheme {
    /// `cell mod 2` per axis, 2^d colours; requires cell width ≥ 2 × stencil radius.
    TwoPerAxis,
    /// `cell mod 3` per axis, 3^d colours; requires cell width ≥ stencil radius.
    ThreePerAxis,
}

impl ColourScheme {
    /// Colours per axis `k`.
    pub fn per_axis(self) -> usize {
        match self {
            Self::TwoPerAxis => 2,
            Self::ThreePerAxis => 3,
        }
    }
    /// Smallest admissible cell width for a stencil radius: `2R / (k − 1)`.
    pub fn min_cell_size(self, radius: f64) -> f64 {
        2.0 * radius / (self.per_axis() - 1) as f64
    }
}

/// Colours → tasks: `colours()[c]` lists occupied cells (one task each, by increasing cell index).
/// Particles of one task are processed sequentially in [`UniformGrid::cell_particles`] order; tasks
/// of one colour may run in parallel because their stencils (`{p} ∪ N(p)`, radius `R`) are disjoint.
///
/// ```
/// use nalgebra::Vector2;
/// use xpbd_core::spatial::{CellColouring, ColourScheme, UniformGrid};
/// let x: Vec<_> = (0..10).map(|i| Vector2::new(0.1 * i as f64, 0.0)).collect();
/// let grid = UniformGrid::build(&x, 0.2).unwrap();
/// let col = CellColouring::build(&grid, ColourScheme::ThreePerAxis, 0.2).unwrap();
/// assert_eq!(col.colours().len(), 9);
/// assert!(CellColouring::build(&grid, ColourScheme::TwoPerAxis, 0.2).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct CellColouring {
    scheme: ColourScheme,
    colours: Vec<Vec<u32>>,
}

impl CellColouring {
    /// Colours the occupied cells of `grid` for stencils of radius `radius`.
    pub fn build<const D: usize>(
        grid: &UniformGrid<D>,
        scheme: ColourScheme,
        radius: f64,
    ) -> Result<Self, GridError> {
        if !(radius.is_finite() && radius > 0.0) {
            return Err(GridError::InvalidRadius { value: radius });
        }
        let required = scheme.min_cell_size(radius);
        if grid.cell_size() < required {
            return Err(GridError::ColouringTooFine {
                colours_per_axis: scheme.per_axis(),
                cell_size: grid.cell_size(),
                radius,
                required,
            });
        }
        Ok(Self::build_unchecked(grid, scheme))
    }

    /// Colours without checking the cell width (used by tests to show what goes wrong).
    pub fn build_unchecked<const D: usize>(grid: &UniformGrid<D>, scheme: ColourScheme) -> Self {
        let k = scheme.per_axis();
        let colour_count = k.pow(D as u32);
        let mut colours = vec![Vec::new(); colour_count];
        for cell in 0..grid.cell_count() {
            if grid.cell_particles(cell).is_empty() {
                continue;
            }
            let c = grid.cell_coords(cell);
            let mut colour = 0;
            for axis in (0..D).rev() {
                colour = colour * k + c[axis] % k;
            }
            colours[colour].push(cell as u32);
        }
        Self { scheme, colours }
    }

    /// Scheme used.
    pub fn scheme(&self) -> ColourScheme {
        self.scheme
    }
    /// Cells (tasks) of each colour.
    pub fn colours(&self) -> &[Vec<u32>] {
        &self.colours
    }
}
