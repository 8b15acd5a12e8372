//! Containment of panics inside third-party parsers, without output.
//!
//! Fuzzing (`cargo xtask fuzz`) found inputs that make ply-rs 0.1.3 (`uint` overflow in its
//! header grammar) and mshio 0.4.2 (`num_nodes - 1` underflow for an empty node block) panic;
//! the crash inputs are replayed by `xtask/tests/fuzz.rs`. [`guarded`] turns such a
//! panic into [`ImportError::Malformed`]. The default panic hook would print the panic to
//! stderr first, so a process-wide hook is installed once that stays silent while the
//! current thread is inside [`guarded`] (a thread-local flag) and otherwise calls the hook it
//! replaced: panics elsewhere, in this thread or others, print as before. Needs
//! `panic = "unwind"` (the default).

use std::cell::Cell;
use std::sync::Once;

use super::ImportError;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

static INSTALL: Once = Once::new();

fn install_quiet_hook() {
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// Restores the thread's quiet flag when [`guarded`] returns or unwinds.
struct Restore(bool);

impl Drop for Restore {
    fn drop(&mut self) {
        QUIET.with(|q| q.set(self.0));
    }
}

/// Runs a third-party parser, turning a panic inside it into [`ImportError::Malformed`]
/// without printing anything.
pub(crate) fn guarded<T>(
    format: &'static str,
    file: &str,
    parse: impl FnOnce() -> Result<T, ImportError>,
) -> Result<T, ImportError> {
    install_quiet_hook();
    let _restore = Restore(QUIET.with(|q| q.replace(true)));
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(parse)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(ImportError::Malformed {
            file: file.into(),
            format,
            message: format!("the {format} parser panicked: {message}"),
        })
    })
}
