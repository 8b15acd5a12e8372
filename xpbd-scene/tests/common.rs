#![allow(dead_code)]
use std::path::{Path, PathBuf};

pub fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes")
}

pub fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xpbd-scene-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A scene text with `frames` frames instead of the file's.
pub fn shortened(name: &str, frames: usize) -> (String, PathBuf) {
    let path = scenes_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    let mut in_time = false;
    for line in text.lines() {
        if line.starts_with('[') {
            in_time = line.trim() == "[time]";
        }
        if in_time && line.starts_with("frames") {
            out.push_str(&format!("frames = {frames}\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    (out, path)
}
