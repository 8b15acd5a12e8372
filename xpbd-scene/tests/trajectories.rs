//! Every scene file builds the same simulation as the build that recorded
//! `data/trajectories.txt`, bit for bit: 50 steps of each scene, positions and velocities
//! hashed (FNV-1a over the f64 bits) after steps 10, 20, …, 50.
//!
//! The record was written once, before scene building moved onto [`xpbd_scene::SceneDesc`];
//! a change to the physics that is meant to change trajectories re-records it with
//! `XPBD_RECORD_TRAJECTORIES=1 cargo test -p xpbd-scene --test trajectories` and says why in
//! its commit.
mod common;

use std::collections::BTreeMap;

use xpbd_scene::BuiltScene;

const STEPS: usize = 50;
const EVERY: usize = 10;

fn fnv(hash: &mut u64, bits: u64) {
    for b in bits.to_le_bytes() {
        *hash ^= b as u64;
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

fn state_hash(s: &BuiltScene) -> u64 {
    let p = s.sim.particles();
    let mut h = 0xcbf2_9ce4_8422_2325;
    fnv(&mut h, p.len() as u64);
    for x in p.x.iter().chain(&p.v) {
        for c in x.iter() {
            fnv(&mut h, c.to_bits());
        }
    }
    // Rigid bodies' state (x, q, v, ω), when the scene has them.
    for b in s.rigid().map_or(&[][..], |r| r.bodies()) {
        for c in b.state() {
            fnv(&mut h, c.to_bits());
        }
    }
    h
}

fn record_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/trajectories.txt")
}

fn trajectory(path: &std::path::Path) -> Vec<u64> {
    let mut s = BuiltScene::load(path).unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    for k in 1..=STEPS {
        s.step()
            .unwrap_or_else(|e| panic!("{}: step {k}: {e}", path.display()));
        if k % EVERY == 0 {
            out.push(state_hash(&s));
        }
    }
    out
}

#[test]
fn every_scene_file_gives_the_recorded_50_step_trajectory() {
    let names = common::scene_files();
    let got: BTreeMap<String, Vec<u64>> = names
        .iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, trajectory(p))
        })
        .collect();
    let text: String = got
        .iter()
        .map(|(n, h)| {
            let hs: Vec<String> = h.iter().map(|x| format!("{x:016x}")).collect();
            format!("{n} {}\n", hs.join(" "))
        })
        .collect();
    if std::env::var_os("XPBD_RECORD_TRAJECTORIES").is_some() {
        std::fs::write(record_path(), text).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(record_path()).unwrap();
    let recorded: BTreeMap<&str, Vec<&str>> = recorded
        .lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?, it.collect()))
        })
        .collect();
    let mut differ = Vec::new();
    for (name, hashes) in &got {
        let Some(rec) = recorded.get(name.as_str()) else {
            differ.push(format!("{name}: not recorded"));
            continue;
        };
        let now: Vec<String> = hashes.iter().map(|x| format!("{x:016x}")).collect();
        if let Some(k) = now.iter().zip(rec).position(|(a, b)| a != b) {
            differ.push(format!(
                "{name}: differs from step {} on ({} ≠ recorded {})",
                (k + 1) * EVERY,
                now[k],
                rec[k]
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
