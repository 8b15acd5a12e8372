//! Cross-crate integration tests of the workspace (see `tests/tests/`): the quick tier of the
//! cantilever convergence study (`cargo xtask convergence --quick` runs the larger version),
//! pinned with insta snapshots, each guarded by a physical assertion.
