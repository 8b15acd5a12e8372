//! The nodes of a signed-distance grid under construction (see [`super`]).

use crate::Vector;

/// The nodes of a grid under construction: node `(i, j, k)` at `origin + cell · (i, j, k)`,
/// axis 0 fastest.
#[derive(Debug, Clone, Copy)]
pub(super) struct Lattice {
    pub(super) origin: Vector<3>,
    pub(super) cell: f64,
    pub(super) dims: [usize; 3],
}

impl Lattice {
    pub(super) fn len(&self) -> usize {
        self.dims[0] * self.dims[1] * self.dims[2]
    }

    pub(super) fn index(&self, i: [usize; 3]) -> usize {
        i[0] + self.dims[0] * (i[1] + self.dims[1] * i[2])
    }

    pub(super) fn multi_index(&self, lin: usize) -> [usize; 3] {
        [
            lin % self.dims[0],
            (lin / self.dims[0]) % self.dims[1],
            lin / (self.dims[0] * self.dims[1]),
        ]
    }

    /// Node position (the same expression, hence the same bits, on every path).
    pub(super) fn node(&self, i: [usize; 3]) -> Vector<3> {
        self.origin + Vector::<3>::new(i[0] as f64, i[1] as f64, i[2] as f64) * self.cell
    }

    /// Coordinate `axis` of the nodes with index `i` on that axis (equal to `node(..)[axis]`).
    pub(super) fn coord(&self, axis: usize, i: usize) -> f64 {
        self.origin[axis] + i as f64 * self.cell
    }

    /// The inclusive index range on `axis` of the nodes whose coordinate lies in
    /// `[a − grow·cell, b + grow·cell]` (rounded outwards), clipped to the grid.
    pub(super) fn span(&self, axis: usize, a: f64, b: f64, grow: f64) -> Option<(usize, usize)> {
        let first = ((a - self.origin[axis]) / self.cell - grow).floor();
        let last = ((b - self.origin[axis]) / self.cell + grow).ceil();
        let top = (self.dims[axis] - 1) as f64;
        if !(first <= top && last >= 0.0) {
            return None;
        }
        Some((first.max(0.0) as usize, last.min(top) as usize))
    }
}
