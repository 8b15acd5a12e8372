//! The memory budget holds under an address-space limit (`ulimit -v`, `RLIMIT_AS`): a scene
//! larger than the limit leaves is refused with a typed error naming its field, where the
//! allocator used to abort the process (SIGABRT, nothing named). This file holds one test: it
//! lowers the limit of its own process.

#![cfg(target_os = "linux")]

use std::path::Path;

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
use xpbd_scene::SceneError;

#[test]
fn a_scene_larger_than_the_address_space_limit_is_refused_not_aborted() {
    let mapped = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = mapped.split_whitespace().next().unwrap().parse().unwrap();
    let mapped = pages * rustix::param::page_size() as u64;
    // 512 MiB beyond what is mapped now; the cloth asks for about 3.8 GB.
    let limit = mapped + (512 << 20);
    let old = getrlimit(Resource::As);
    setrlimit(
        Resource::As,
        Rlimit {
            current: Some(limit),
            maximum: old.maximum,
        },
    )
    .unwrap();
    let text = "name = 'big'\n[time]\ndt = 0.001\nframes = 1\n\
        [materials.cotton]\ndensity = 300.0\nyoungs = 1e6\nthickness = 0.001\n\
        [[cloth]]\nmaterial = 'cotton'\nresolution = [2048, 2048]\nsize = [1.0, 1.0]\n";
    let scene = xpbd_scene::SceneDesc::parse(text, Path::new("big.toml")).unwrap();
    let left = xpbd_scene::budget::available_memory().unwrap();
    assert!(left <= 512 << 20, "{left}");
    let Err(e) = xpbd_scene::build_scene(scene, Path::new("big.toml")) else {
        panic!("a 3.8 GB cloth was built under a 512 MiB address-space allowance");
    };
    assert!(
        matches!(&e, SceneError::TooLarge { field, .. } if field == "cloth[0].resolution"),
        "{e}"
    );
}
