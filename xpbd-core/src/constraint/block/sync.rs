//! Synchronisation for the coloured sweeps: the spin barrier of one broadcast and the
//! disjoint-index slice view that threads of one colour share.

#[cfg(doc)]
use crate::schedule::Schedule;

/// A barrier for the threads of one broadcast: spins briefly, then yields (the machine may be
/// shared). Arrivals publish their writes (release) and leavers see all of them (acquire).
pub(crate) struct SpinBarrier {
    arrived: std::sync::atomic::AtomicUsize,
    generation: std::sync::atomic::AtomicUsize,
    threads: usize,
}

impl SpinBarrier {
    pub(crate) fn new(threads: usize) -> Self {
        Self {
            arrived: std::sync::atomic::AtomicUsize::new(0),
            generation: std::sync::atomic::AtomicUsize::new(0),
            threads,
        }
    }

    pub(crate) fn wait(&self) {
        use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
        let generation = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.threads {
            self.arrived.store(0, Relaxed);
            self.generation.fetch_add(1, Release);
        } else {
            let mut spins = 0u32;
            while self.generation.load(Acquire) == generation {
                if spins < 2000 {
                    std::hint::spin_loop();
                    spins += 1;
                } else {
                    std::thread::yield_now();
                }
            }
        }
    }
}

/// A view of a mutable slice that several threads read and write at provably disjoint
/// indices: the tasks of one colour of a [`Schedule`] (the colouring invariant,
/// [`Schedule::verify`]). Reads and writes are `unsafe`: the caller promises that no other
/// thread touches the same index meanwhile and that the index is in bounds (checked in debug
/// builds only: stencils are range-checked once, when a block is added).
#[derive(Clone, Copy)]
pub struct DisjointSlice<'a, T> {
    ptr: *mut T,
    len: usize,
    borrow: std::marker::PhantomData<&'a mut [T]>,
}
impl<T> std::fmt::Debug for DisjointSlice<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DisjointSlice")
            .field("len", &self.len)
            .finish()
    }
}

// SAFETY: only used where writers touch disjoint indices (see the coloured sweep).
unsafe impl<T: Send> Send for DisjointSlice<'_, T> {}
unsafe impl<T: Send> Sync for DisjointSlice<'_, T> {}

impl<'a, T: Copy> DisjointSlice<'a, T> {
    /// Borrows `s` for disjoint access.
    pub fn new(s: &'a mut [T]) -> Self {
        Self {
            ptr: s.as_mut_ptr(),
            len: s.len(),
            borrow: std::marker::PhantomData,
        }
    }

    /// Length of the viewed slice.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The raw pointer to element 0, for kernels that load and store several elements at once
    /// under the same contract as [`DisjointSlice::get`] and [`DisjointSlice::set`].
    pub fn as_mut_ptr(&self) -> *mut T {
        self.ptr
    }

    /// Whether the viewed slice is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reads element `i`.
    ///
    /// # Safety
    /// `i < self.len()`, and no other thread writes index `i` concurrently.
    #[inline(always)]
    pub unsafe fn get(&self, i: usize) -> T {
        debug_assert!(i < self.len);
        // SAFETY: in bounds and not written concurrently (caller).
        unsafe { *self.ptr.add(i) }
    }

    /// Writes element `i`.
    ///
    /// # Safety
    /// `i < self.len()`, and no other thread reads or writes index `i` concurrently.
    #[inline(always)]
    pub unsafe fn set(&self, i: usize, v: T) {
        debug_assert!(i < self.len);
        // SAFETY: as above.
        unsafe { *self.ptr.add(i) = v }
    }

    /// The elements `range` as an ordinary mutable slice (one thread's share of a pass).
    ///
    /// # Safety
    /// `range` lies within `0..self.len()`, and while the returned slice lives no other
    /// thread reads or writes any index of `range`.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)] // the disjointness contract is the caller's
    pub(crate) unsafe fn range_mut(&self, range: std::ops::Range<usize>) -> &mut [T] {
        debug_assert!(range.start <= range.end && range.end <= self.len);
        // SAFETY: in bounds and exclusively accessed for the slice's life (caller).
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
    }

    /// The whole viewed slice, read-only (a phase in which no thread writes it).
    ///
    /// # Safety
    /// While the returned slice lives no thread writes any element.
    #[inline(always)]
    pub(crate) unsafe fn as_slice(&self) -> &[T] {
        // SAFETY: valid for `len` elements and not written for the slice's life (caller).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}
