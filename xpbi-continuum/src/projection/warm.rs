//! The run kernel's per-constraint record of the right singular vectors of the last SVD,
//! kept as `M_p = F_pⁿ V_p` (see [`crate::projection`]): reset to `Fⁿ V(Fⁿ)` in every
//! `begin_substep`, then overwritten by each evaluation of the constraint, so that the next
//! iteration's Jacobi SVD starts from the previous iteration's `V` (nearly converged: fewer
//! sweeps) and `G = U diag(∂C/∂σ) Mᵀ` needs no product with `Fⁿ`.

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
