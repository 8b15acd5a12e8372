//! Fixed-radius neighbour lists in compressed sparse rows.

use nalgebra::SVector;
use rayon::prelude::*;

use super::{GridError, UniformGrid};

/// Rows per parallel work item; fixed so the result never depends on the thread count.
const ROWS_PER_CHUNK: usize = 1024;

/// `N(p) = { b ≠ p : |x_b − x_p| < radius }` for every particle, as CSR: the neighbours of `p`
/// are `indices[offsets[p]..offsets[p + 1]]`, in the grid's fixed visiting order.
///
/// ```
/// use nalgebra::Vector2;
/// use xpbd_core::spatial::{NeighbourLists, UniformGrid};
/// let x = vec![Vector2::new(0.0, 0.0), Vector2::new(0.1, 0.0), Vector2::new(0.5, 0.0)];
/// let grid = UniformGrid::build(&x, 0.2).unwrap();
/// let nl = NeighbourLists::build(&grid, &x, 0.2).unwrap();
/// assert_eq!(nl.neighbours(0), &[1]);
/// assert!(nl.neighbours(2).is_empty());
/// ```
#[derive(Debug, Clone, Default)]
pub struct NeighbourLists {
    offsets: Vec<u32>,
    indices: Vec<u32>,
    radius: f64,
}

impl NeighbourLists {
    /// Builds the lists with a grid made from the same `positions`.
    pub fn build<const D: usize>(
        grid: &UniformGrid<D>,
        positions: &[SVector<f64, D>],
        radius: f64,
    ) -> Result<Self, GridError> {
        if !(radius.is_finite() && radius > 0.0) {
            return Err(GridError::InvalidRadius { value: radius });
        }
        let n = positions.len();
        let chunks: Vec<(Vec<u32>, Vec<u32>)> = (0..n.div_ceil(ROWS_PER_CHUNK))
            .into_par_iter()
            .map(|chunk| {
                let rows = chunk * ROWS_PER_CHUNK..((chunk + 1) * ROWS_PER_CHUNK).min(n);
                let mut counts = Vec::with_capacity(rows.len());
                let mut idx = Vec::with_capacity(rows.len() * 32);
                for p in rows {
                    let before = idx.len();
                    grid.for_each_near(&positions[p], radius, |b| {
                        if b != p {
                            idx.push(b as u32);
                        }
                    });
                    counts.push((idx.len() - before) as u32);
                }
                (counts, idx)
            })
            .collect();
        // Offsets by a sequential prefix sum over the counts (cheap), then the chunks' indices
        // copied into their disjoint ranges in parallel (the copy is Σ|N(p)| entries: at 1M
        // particles about 100 MB, a serial tail that capped the 2-thread speed-up).
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        for (counts, _) in &chunks {
            for &c in counts {
                offsets.push(offsets.last().unwrap() + c);
            }
        }
        let total = *offsets.last().unwrap() as usize;
        let mut indices = vec![0u32; total];
        let mut parts = Vec::with_capacity(chunks.len());
        let mut rest = &mut indices[..];
        for (_, idx) in &chunks {
            let (head, tail) = rest.split_at_mut(idx.len());
            parts.push((head, idx));
            rest = tail;
        }
        parts
            .into_par_iter()
            .for_each(|(dst, src)| dst.copy_from_slice(src));
        Ok(Self {
            offsets,
            indices,
            radius,
        })
    }

    /// Query radius the lists were built with.
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// Number of rows (particles).
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Neighbours of particle `p`.
    pub fn neighbours(&self, p: usize) -> &[u32] {
        &self.indices[self.offsets[p] as usize..self.offsets[p + 1] as usize]
    }
    /// Row offsets (length `len() + 1`).
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }
    /// Concatenated neighbour indices.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }
    /// Total number of (directed) neighbour entries, Σ_p |N(p)|.
    pub fn total(&self) -> usize {
        self.indices.len()
    }
}
