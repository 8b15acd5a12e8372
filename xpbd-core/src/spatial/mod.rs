//! Uniform neighbour grid shared by XPBI (kernel neighbourhoods) and particle–particle contact.
//!
//! * [`UniformGrid`]: counting sort of particles by cell (Hoetzlein 2014, "Fast Fixed-Radius Nearest
//!   Neighbors"), cells of width `cell_size` over the bounding box of the particles.
//! * [`NeighbourLists`]: compressed sparse rows (offsets + indices) of all pairs closer than a radius,
//!   built in parallel with a result independent of the thread count.
//! * [`CellColouring`]: colours → tasks (one task per occupied cell) so that tasks of one colour touch
//!   disjoint particle stencils; this is the schedule of the coloured Gauss–Seidel solve.
//!
//! Conflict-freedom (derived, tested in `colouring.rs`): a constraint centred on particle p reads and
//! writes `{p} ∪ N(p)`, all within distance `< R` (the query radius) of `x_p`. Colour cells by
//! `(c_i mod k)` per axis. Two different cells of the same colour differ by at least `k` in one axis,
//! so their particles are more than `(k − 1) W` apart along it (W = cell width). Their stencils are
//! disjoint whenever `(k − 1) W ≥ 2R`: with `k = 3` (3^d colours) the cell may be as small as the
//! support (`W ≥ R`); with `k = 2` (2^d colours) it must be twice the support (`W ≥ 2R`).

mod colouring;
mod grid;
mod neighbours;

pub use colouring::{CellColouring, ColourScheme};
pub use grid::{GridError, UniformGrid};
pub use neighbours::NeighbourLists;

#[cfg(test)]
mod tests;
