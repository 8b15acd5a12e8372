//! # xpbi-validation
//!
//! The validation runners of XPBI ([`xpbi_continuum`]): scenes with a measured answer, run by
//! `cargo xtask report` and by the heavy tests, kept out of the library so that a user of the
//! method does not compile them.
//!
//! * [`repose`]: heaps poured from a nozzle, their slope against the friction angle φ and the
//!   cone's flowing angle (2D, and a quarter heap in 3D).
//! * [`uniformity`]: nearest-neighbour spacing through a 2D column collapse.
//! * [`snow`]: the footprint of a snowball impact against the step size.
//! * [`sand_column`]: the 3D sand column of the benchmark (`cargo xtask bench xpbi` calls
//!   [`sand_column::run_sand_column_3d`]).
//! * [`dam_break`]: a 2D water column (position-based fluid) collapsing on a dry bed, its front
//!   against Martin & Moyce (1952).
//! * [`observables`]: what they measure (pile height, runout, surface slope, spacing
//!   statistics, percentiles).

pub mod dam_break;
pub mod observables;
pub mod planar_collapse;
pub mod repose;
pub mod sand_column;
pub mod snow;
pub mod uniformity;
