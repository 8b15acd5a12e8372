//! TetGen importer: the input is split at the first NUL into .node and .ele text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (node, ele) = text.split_once('\0').unwrap_or((&text, ""));
    let _ = xpbd_scene::import::parse_tetgen(node, ele, "fuzz");
});
