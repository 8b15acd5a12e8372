//! The run kernel's per-constraint record of the right singular vectors of the last SVD,
//! kept as `M_p = F_pⁿ V_p` (see [`crate::projection`]): reset to `Fⁿ` (`V₀ = I`) in every
//! `begin_substep`, then overwritten by each evaluation of the constraint, so that the next
//! iteration's Jacobi SVD starts from the previous iteration's `V` (nearly converged: fewer
//! sweeps) and `G = U diag(∂C/∂σ) Mᵀ` needs no product with `Fⁿ`.
//!
//! **Why the first iteration starts cold.** Resetting to `Fⁿ V(Fⁿ)` costs one SVD of `Fⁿ` per
//! particle and saves the first iteration nothing measurable. Counted in the 16k sand column
//! (Δt = 1 ms, 40 steps): 19.9 M Jacobi sweeps with the `V(Fⁿ)` reset, 17.9 M with `V₀ = I`;
//! the 2.0 M removed are the reset's own (640 k SVDs of ≈ 3.1 sweeps), so the first
//! iteration took no more sweeps from `I` than from `V(Fⁿ)`. The deposit is unchanged to five
//! digits. The reset stays a
//! function of `Fⁿ` alone, so a restored checkpoint repeats the run bit for bit.

use std::cell::UnsafeCell;

use nalgebra::SMatrix;
use rayon::prelude::*;

/// One `D × D` matrix per constraint, written through a shared reference by the thread that
/// owns the constraint in the current sweep (the contract of
/// `ConstraintKind::project_closed_form_run`: exclusive access to the constraints of a run).
#[derive(Default)]
pub(crate) struct WarmStarts<const D: usize> {
    cells: Vec<UnsafeCell<SMatrix<f64, D, D>>>,
}

// SAFETY: a cell is only written through `get_mut`, whose callers hold exclusive access to the
// constraint (no two threads touch the same cell, none reads one another thread writes).
unsafe impl<const D: usize> Sync for WarmStarts<D> {}

impl<const D: usize> WarmStarts<D> {
    /// Replaces the records by `values` (in constraint order).
    pub fn reset(&mut self, values: impl IndexedParallelIterator<Item = SMatrix<f64, D, D>>) {
        self.cells.clear();
        self.cells.par_extend(values.map(UnsafeCell::new));
    }

    /// Allocated records (for the memory report).
    pub fn capacity(&self) -> usize {
        self.cells.capacity()
    }

    /// All records, in constraint order (outside a sweep: the borrow is exclusive).
    pub fn as_slice(&mut self) -> &[SMatrix<f64, D, D>] {
        // SAFETY: `UnsafeCell<T>` has the layout of `T`, and `&mut self` excludes any writer
        // for the life of the returned borrow.
        unsafe { std::slice::from_raw_parts(self.cells.as_ptr().cast(), self.cells.len()) }
    }

    /// The record of constraint `c`.
    ///
    /// # Safety
    /// The caller has exclusive access to constraint `c` while the reference lives (no other
    /// `get_mut(c)` on any thread). Panics if `c` is out of range.
    #[allow(clippy::mut_from_ref)] // interior mutability, exclusive by the contract above
    #[inline(always)]
    pub unsafe fn get_mut(&self, c: usize) -> &mut SMatrix<f64, D, D> {
        // SAFETY: exclusive (caller).
        unsafe { &mut *self.cells[c].get() }
    }
}

impl<const D: usize> Clone for WarmStarts<D> {
    fn clone(&self) -> Self {
        // SAFETY: `&self` here is not concurrent with a sweep (`Clone` needs no `&mut`, but a
        // sweep runs inside `Simulation::step`, which holds the continuum exclusively).
        let values = self.cells.iter().map(|c| unsafe { *c.get() });
        Self {
            cells: values.map(UnsafeCell::new).collect(),
        }
    }
}

impl<const D: usize> std::fmt::Debug for WarmStarts<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarmStarts")
            .field("len", &self.cells.len())
            .finish()
    }
}
