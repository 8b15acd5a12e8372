//! cross-crate tests
