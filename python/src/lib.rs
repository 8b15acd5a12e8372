//! # xpbd-py
//!
//! The Python package `xpbd` (PyO3, abi3 for CPython ≥ 3.9, built with maturin): scenes from
//! files, TOML text or dicts, stepping with the GIL released, NumPy copies of the state,
//! checkpoints, frames and runs. See `python/xpbd/_xpbd.pyi` for the Python API and
//! `python/test.sh` for building and testing it.
//!
//! * [`scene`]: `xpbd.Scene`, its construction and stepping.
//! * [`data`]: positions, velocities and per-particle fields as NumPy arrays; bodies, cells.
//! * [`files`]: checkpoints, frames and runs.
//! * [`errors`]: `xpbd.XpbdError` and its subclasses.
//! * [`convert`]: Python values to TOML values and back (`Scene.from_dict`, `to_dict`).

use pyo3::prelude::*;

pub mod convert;
pub mod data;
pub mod errors;
pub mod files;
pub mod scene;

pub use scene::Scene;

/// Position-based physics (XPBD cloth, ropes and soft bodies; XPBI sand, snow and clay;
/// position-based fluids) driven from Python. Start with ``xpbd.Scene.from_file``.
///
/// The extension module `xpbd._xpbd`; the package `xpbd` (`python/xpbd/__init__.py`)
/// re-exports it next to its pure-Python modules (`xpbd.usd`).
#[pymodule]
#[pyo3(name = "_xpbd")]
fn xpbd(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    m.add_class::<Scene>()?;
    Ok(())
}
