//! "No allocation inside the step": once buffers have reached their size, stepping a cloth
//! with any solver performs zero heap allocations. A counting global allocator measures it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use xpbd_core::SolverKind;
use xpbd_core::builders::cloth::benchmark_cloth;

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Only allocations made by the thread that steps are counted (the test harness's own
    /// threads allocate for their bookkeeping).
    static COUNTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn count() {
    if COUNTING.with(|c| c.get()) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: forwards to the system allocator; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn stepping_allocates_nothing_after_warm_up() {
    for (solver, diagnostics) in [
        (SolverKind::GaussSeidel, false),
        (SolverKind::Coloured, false),
        (SolverKind::JACOBI, false),
        (SolverKind::Coloured, true),
    ] {
        let mut sim = benchmark_cloth(16, solver, 1).unwrap();
        if diagnostics {
            // Residuals after every iteration, energies and strain at the end of each step.
            let mut settings = sim.settings().clone();
            settings.diagnostics.residuals = true;
            settings.diagnostics.energies = true;
            sim.set_settings(settings).unwrap();
        }
        for _ in 0..3 {
            sim.step(1.0 / 60.0).unwrap(); // warm-up: scratch and Jacobi buffers reach their size
        }
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        COUNTING.with(|c| c.set(true));
        for _ in 0..20 {
            sim.step(1.0 / 60.0).unwrap();
        }
        COUNTING.with(|c| c.set(false));
        let during = ALLOCATIONS.load(Ordering::SeqCst) - before;
        // With one thread everything runs on this thread, so every allocation is counted.
        assert_eq!(during, 0, "{solver:?}: {during} allocations in 20 steps");
    }
}
