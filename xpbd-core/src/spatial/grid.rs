//! Uniform grid over the bounding box of a particle set, filled by a stable counting sort.

use nalgebra::SVector;
use rayon::prelude::*;

/// Most cells a grid may allocate: `max(64 · n_particles, 2^22)` (4 bytes each). A larger
/// bounding box means particles escaped the scene, which is reported instead of allocating.
fn cell_limit(n: usize) -> usize {
    (64 * n).max(1 << 22)
}

/// Particle indices are stored as `u32`.
pub(super) fn check_particle_count(count: usize) -> Result<(), GridError> {
    if count >= u32::MAX as usize {
        return Err(GridError::TooManyParticles { count });
    }
    Ok(())
}

/// Errors of grid construction and colouring.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GridError {
    /// The cell width must be finite and positive.
    #[error("cell size must be finite and > 0, got {value}")]
    InvalidCellSize { value: f64 },
    /// A query / stencil radius must be finite and positive.
    #[error("radius must be finite and > 0, got {value}")]
    InvalidRadius { value: f64 },
    /// A particle position is NaN or infinite.
    #[error("particle {index} has a non-finite position")]
    NonFinitePosition { index: usize },
    /// The bounding box needs more cells than allowed (particles far apart / escaped, or
    /// cells too small for the box).
    #[error(
        "the particles' bounding box ({extent:?} m on its longest side) needs {cells:.3e} cells \
         of width {cell_size:?} m, more than the limit {limit}"
    )]
    DomainTooLarge {
        /// Longest side of the particles' bounding box (m).
        extent: f64,
        /// The cell width asked for (m).
        cell_size: f64,
        /// Cells the box needs (a float: it may exceed any integer type).
        cells: f64,
        /// Most cells allowed (`max(64 · particles, 2^22)`).
        limit: usize,
    },
    /// More particles than the u32 indices of the grid can address.
    #[error("{count} particles exceed the u32 index range")]
    TooManyParticles { count: usize },
    /// The cell width is too small for conflict-free colouring with this scheme.
    #[error(
        "colouring with {colours_per_axis} colours per axis needs cell size >= {required} for stencil radius {radius}, got {cell_size}"
    )]
    ColouringTooFine {
        colours_per_axis: usize,
        cell_size: f64,
        radius: f64,
        required: f64,
    },
}

/// Particles binned into cubic cells of width `cell_size`.
///
/// Cells are numbered linearly, axis 0 fastest. `sorted_particles()` lists particle indices by
/// increasing cell and, inside a cell, by increasing particle index (stable counting sort), so the
/// result is independent of the thread count.
///
/// ```
/// use nalgebra::Vector2;
/// use xpbd_core::spatial::UniformGrid;
/// let x = vec![Vector2::new(0.0, 0.0), Vector2::new(0.25, 0.0), Vector2::new(1.1, 0.0)];
/// let grid = UniformGrid::build(&x, 0.5).unwrap();
/// let mut near = Vec::new();
/// grid.for_each_within(&x, &x[0], 0.3, |b| near.push(b));
/// assert_eq!(near, vec![0, 1]);
/// ```
#[derive(Debug, Clone)]
pub struct UniformGrid<const D: usize> {
    cell_size: f64,
    origin: SVector<f64, D>,
    dims: [usize; D],
    cell_start: Vec<u32>,
    sorted: Vec<u32>,
    cell_of: Vec<u32>,
    /// The positions the grid was built from, in cell order (`sorted_x[k]` is the position of
    /// `sorted[k]`), read front to back by [`UniformGrid::for_each_near`].
    sorted_x: Vec<SVector<f64, D>>,
}

impl<const D: usize> UniformGrid<D> {
    /// Bins `positions` into cells of width `cell_size`.
    pub fn build(positions: &[SVector<f64, D>], cell_size: f64) -> Result<Self, GridError> {
        if !(cell_size.is_finite() && cell_size > 0.0) {
            return Err(GridError::InvalidCellSize { value: cell_size });
        }
        let n = positions.len();
        check_particle_count(n)?;
        if let Some(index) = positions
            .par_iter()
            .position_first(|x| !x.iter().all(|c| c.is_finite()))
        {
            return Err(GridError::NonFinitePosition { index });
        }
        type Bounds<const D: usize> = (SVector<f64, D>, SVector<f64, D>);
        let empty = || -> Bounds<D> {
            (
                SVector::repeat(f64::INFINITY),
                SVector::repeat(f64::NEG_INFINITY),
            )
        };
        let (lo, hi): Bounds<D> = if n == 0 {
            (SVector::zeros(), SVector::zeros())
        } else {
            positions
                .par_iter()
                .fold(empty, |(lo, hi), x| (lo.inf(x), hi.sup(x)))
                .reduce(empty, |(a, b), (c, d)| (a.inf(&c), b.sup(&d)))
        };
        let mut dims = [1usize; D];
        let limit = cell_limit(n);
        let per_axis: Vec<f64> = (0..D)
            .map(|k| ((hi[k] - lo[k]) / cell_size).floor() + 1.0)
            .collect();
        let needed: f64 = per_axis.iter().product();
        if needed > limit as f64 {
            return Err(GridError::DomainTooLarge {
                extent: (0..D).map(|k| hi[k] - lo[k]).fold(0.0, f64::max),
                cell_size,
                cells: needed,
                limit,
            });
        }
        for k in 0..D {
            dims[k] = per_axis[k] as usize;
        }
        let cells: usize = dims.iter().product();
        let mut grid = Self {
            cell_size,
            origin: lo,
            dims,
            cell_start: vec![0; cells + 1],
            sorted: vec![0; n],
            cell_of: Vec::new(),
            sorted_x: Vec::new(),
        };
        grid.cell_of = positions
            .par_iter()
            .map(|x| grid.linear_cell(&grid.cell_coords_of(x)) as u32)
            .collect();
        // Counting sort: histogram, exclusive prefix sum, stable scatter in particle order.
        for &c in &grid.cell_of {
            grid.cell_start[c as usize + 1] += 1;
        }
        for c in 0..cells {
            grid.cell_start[c + 1] += grid.cell_start[c];
        }
        let mut cursor = grid.cell_start.clone();
        for (p, &c) in grid.cell_of.iter().enumerate() {
            let slot = &mut cursor[c as usize];
            grid.sorted[*slot as usize] = p as u32;
            *slot += 1;
        }
        grid.sorted_x = grid
            .sorted
            .par_iter()
            .map(|&p| positions[p as usize])
            .collect();
        Ok(grid)
    }

    /// Cell width.
    pub fn cell_size(&self) -> f64 {
        self.cell_size
    }
    /// Number of cells per axis.
    pub fn dims(&self) -> [usize; D] {
        self.dims
    }
    /// Total number of cells (occupied or not).
    pub fn cell_count(&self) -> usize {
        self.cell_start.len() - 1
    }
    /// Number of binned particles.
    pub fn particle_count(&self) -> usize {
        self.sorted.len()
    }
    /// Particle indices ordered by cell (the permutation used for memory reordering).
    pub fn sorted_particles(&self) -> &[u32] {
        &self.sorted
    }
    /// Linear cell index of each particle.
    pub fn cell_of_particles(&self) -> &[u32] {
        &self.cell_of
    }
    /// Particles of one cell, by increasing index.
    pub fn cell_particles(&self, cell: usize) -> &[u32] {
        &self.sorted[self.cell_start[cell] as usize..self.cell_start[cell + 1] as usize]
    }

    /// Integer cell coordinates of a point (clamped to the grid).
    pub fn cell_coords_of(&self, x: &SVector<f64, D>) -> [usize; D] {
        let mut c = [0usize; D];
        for k in 0..D {
            let f = ((x[k] - self.origin[k]) / self.cell_size).floor();
            c[k] = if f <= 0.0 {
                0
            } else {
                (f as usize).min(self.dims[k] - 1)
            };
        }
        c
    }

    /// Integer coordinates of a linear cell index.
    pub fn cell_coords(&self, mut cell: usize) -> [usize; D] {
        let mut c = [0usize; D];
        for k in 0..D {
            c[k] = cell % self.dims[k];
            cell /= self.dims[k];
        }
        c
    }

    /// Linear index of integer cell coordinates (axis 0 fastest).
    pub fn linear_cell(&self, c: &[usize; D]) -> usize {
        let mut index = 0;
        for k in (0..D).rev() {
            index = index * self.dims[k] + c[k];
        }
        index
    }

    /// Calls `f(b)` for every particle `b` with `|x_b − x| < radius`, in a fixed order (cells by
    /// increasing linear index, particles by increasing index inside a cell). `positions` must be
    /// the array the grid was built from.
    pub fn for_each_within(
        &self,
        positions: &[SVector<f64, D>],
        x: &SVector<f64, D>,
        radius: f64,
        mut f: impl FnMut(usize),
    ) {
        let r2 = radius * radius;
        let Some((lo, hi)) = self.cell_box(x, radius) else {
            return;
        };
        let mut c = lo;
        loop {
            let cell = self.linear_cell(&c);
            for &b in self.cell_particles(cell) {
                if (positions[b as usize] - x).norm_squared() < r2 {
                    f(b as usize);
                }
            }
            if !next_cell(&mut c, &lo, &hi, 0) {
                return;
            }
        }
    }

    /// [`UniformGrid::for_each_within`] over the positions the grid was built from, without
    /// the array: the same particles `b` with `|x_b − x| < radius` in the same order, read from
    /// the grid's own copy in cell order, each run of cells along axis 0 as one contiguous
    /// range (a neighbour search then reads memory front to back instead of gathering each
    /// candidate's position).
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use xpbd_core::spatial::UniformGrid;
    /// let x = vec![Vector2::new(1.1, 0.0), Vector2::new(0.25, 0.0), Vector2::new(0.0, 0.0)];
    /// let grid = UniformGrid::build(&x, 0.5).unwrap();
    /// let (mut a, mut b) = (Vec::new(), Vec::new());
    /// grid.for_each_within(&x, &x[2], 0.3, |p| a.push(p));
    /// grid.for_each_near(&x[2], 0.3, |p| b.push(p));
    /// assert_eq!((a.clone(), b), (vec![1, 2], a));
    /// ```
    pub fn for_each_near(&self, x: &SVector<f64, D>, radius: f64, mut f: impl FnMut(usize)) {
        let r2 = radius * radius;
        let Some((lo, hi)) = self.cell_box(x, radius) else {
            return;
        };
        let mut c = lo;
        loop {
            // The cells lo[0]..=hi[0] of this row are consecutive linear indices.
            let first = self.linear_cell(&c);
            let (start, end) = (
                self.cell_start[first] as usize,
                self.cell_start[first + hi[0] - lo[0] + 1] as usize,
            );
            for (xb, &b) in self.sorted_x[start..end]
                .iter()
                .zip(&self.sorted[start..end])
            {
                if (xb - x).norm_squared() < r2 {
                    f(b as usize);
                }
            }
            // Axis 0 is the run itself.
            if !next_cell(&mut c, &lo, &hi, 1) {
                return;
            }
        }
    }

    /// The box of cells `lo..=hi` (per axis) that the ball of `radius` around `x` touches;
    /// `None` when it misses the grid.
    fn cell_box(&self, x: &SVector<f64, D>, radius: f64) -> Option<([usize; D], [usize; D])> {
        let mut lo = [0usize; D];
        let mut hi = [0usize; D];
        for k in 0..D {
            let a = ((x[k] - radius - self.origin[k]) / self.cell_size).floor();
            let b = ((x[k] + radius - self.origin[k]) / self.cell_size).floor();
            if b < 0.0 || a > (self.dims[k] - 1) as f64 {
                return None;
            }
            lo[k] = if a <= 0.0 { 0 } else { a as usize };
            hi[k] = (b as usize).min(self.dims[k] - 1);
        }
        Some((lo, hi))
    }

    /// Copies `data` into cell order: `out[k] = data[sorted_particles()[k]]`.
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use xpbd_core::spatial::UniformGrid;
    /// let x = vec![Vector2::new(2.0, 0.0), Vector2::new(0.0, 0.0)];
    /// let grid = UniformGrid::build(&x, 1.0).unwrap();
    /// assert_eq!(grid.reorder(&x)[0], Vector2::new(0.0, 0.0));
    /// ```
    pub fn reorder<T: Clone + Send + Sync>(&self, data: &[T]) -> Vec<T> {
        self.sorted
            .par_iter()
            .map(|&p| data[p as usize].clone())
            .collect()
    }
}

/// Odometer step over the axes `from..D` of the cell box `lo..=hi`, axis D−1 slowest, so linear
/// cell indices increase; `false` once the box is exhausted.
fn next_cell<const D: usize>(
    c: &mut [usize; D],
    lo: &[usize; D],
    hi: &[usize; D],
    from: usize,
) -> bool {
    for k in from..D {
        if c[k] < hi[k] {
            c[k] += 1;
            return true;
        }
        c[k] = lo[k];
    }
    false
}
