//! gmsh importer: any bytes give Ok or a typed ImportError, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = xpbd_scene::import::parse_gmsh(data, "fuzz");
});
