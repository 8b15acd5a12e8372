//! The committed fuzz corpora and shrunk failures (`fuzz/corpus/TARGET/*`,
//! `fuzz/regressions/TARGET/*`, the shipped scenes) replayed through the fuzzer's own checks,
//! and a short deterministic fuzzing run of every target: every input gives `Ok` or a typed
//! error, never a panic, a scene that parses round-trips through TOML, an imported mesh is
//! well formed.

use std::path::Path;
use std::time::Duration;

use xtask::fuzz::{TARGETS, Target, check, fuzz, inputs};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn replay(target: Target) {
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        for path in inputs(root(), dir, target) {
            let bytes = std::fs::read(&path).unwrap();
            let r = std::panic::catch_unwind(|| check(target, &bytes));
            match r {
                Ok(Ok(())) => {}
                Ok(Err(why)) => panic!("{}: {why}", path.display()),
                Err(_) => panic!("{} panicked", path.display()),
            }
            n += 1;
        }
    }
    assert!(n > 0, "no inputs for {}", target.name());
}

#[test]
fn scene_corpus_and_regressions() {
    replay(Target::SceneToml);
}

#[test]
fn mesh_corpora_and_regressions() {
    for target in &TARGETS[1..] {
        replay(*target);
    }
}

/// 128 cases per target from a fixed seed (a few seconds): the fuzzer runs on stable and
/// today's code passes its checks. Findings would be written to a temporary folder.
#[test]
fn a_short_fuzzing_run_finds_nothing() {
    let out = std::env::temp_dir().join(format!("xtask-fuzz-{}", std::process::id()));
    for target in TARGETS {
        let o = fuzz(root(), target, Duration::from_secs(600), 128, 7, &out).unwrap();
        assert_eq!(o.cases, 128);
        assert!(o.findings.is_empty(), "{}: {:?}", target.name(), o.findings);
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The mutator reaches what it must: numbers become extremes, lines move, snippets go in.
#[test]
fn mutations_edit_the_seed_as_described() {
    use xtask::fuzz::{Mutation, apply};
    let seed = b"a = 1\nb = 2.5e3\nc = -4";
    let t = Target::SceneToml;
    let num = |index, value| Mutation::Number { index, value };
    assert_eq!(apply(t, seed, &[num(1, 0)]), b"a = 1\nb = 0\nc = -4");
    assert_eq!(apply(t, seed, &[num(2, 17)]), b"a = 1\nb = 2.5e3\nc = nan");
    assert_eq!(
        apply(t, seed, &[Mutation::DeleteLine(0)]),
        b"b = 2.5e3\nc = -4"
    );
    assert_eq!(
        apply(t, seed, &[Mutation::SwapLines(0, 2)]),
        b"c = -4\nb = 2.5e3\na = 1"
    );
    assert_eq!(apply(t, seed, &[Mutation::Truncate(3)]), b"a =");
    let inserted = apply(
        t,
        seed,
        &[Mutation::Insert {
            index: 3,
            snippet: 6,
        }],
    );
    assert!(
        inserted.ends_with(b"[contacts]\nradius = 0.01"),
        "{}",
        String::from_utf8_lossy(&inserted)
    );
}

/// The whole-range mutations: a log-uniform value, a power-of-ten scale, an extra array element.
#[test]
fn whole_range_mutations_edit_the_seed_as_described() {
    use xtask::fuzz::{Mutation, apply};
    let seed = b"a = 1\nb = 2.5e3\ng = [0.0, -9.81]";
    let t = Target::SceneToml;
    let log = Mutation::LogUniform {
        index: 0,
        mantissa: 7,
        exponent: -320,
        negative: true,
    };
    assert_eq!(
        apply(t, seed, &[log]),
        b"a = -7e-320\nb = 2.5e3\ng = [0.0, -9.81]"
    );
    let scale = |index| Mutation::Scale {
        index,
        exponent: 12,
    };
    assert_eq!(
        apply(t, seed, &[scale(0)]),
        b"a = 1e12\nb = 2.5e3\ng = [0.0, -9.81]"
    );
    // A number with an exponent is left alone.
    assert_eq!(apply(t, seed, &[scale(1)]), seed);
    assert_eq!(
        apply(t, seed, &[Mutation::ExtraElement(0)]),
        b"a = 1\nb = 2.5e3\ng = [0.0, 0.0, -9.81]"
    );
}

/// A mutant that asks for more work than a case may do is not stepped: a case ends in its
/// budget (a `dt_max` of 1e-12 used to make the fuzzer run forever on its own mutants; it is
/// now refused when the file is read, and a large scene within the bounds is only built).
#[test]
fn a_case_that_asks_for_too_much_work_ends_at_once() {
    let path = root().join("scenes/cloth_two_pins.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let tiny = text.replace(
        "frames = 120",
        "frames = 120\nadaptive = true\ndt_max = 1e-12",
    );
    // 1.7e5 steps per dt of 1/60 s × 1024 particles × 10 × 11: 1.9e10 projections per frame.
    let heavy = text.replace(
        "frames = 120",
        "frames = 120\nadaptive = true\ndt_max = 1e-7",
    );
    for case in [tiny, heavy] {
        let start = std::time::Instant::now();
        assert_eq!(check(Target::SceneToml, case.as_bytes()), Ok(()));
        assert!(start.elapsed() < Duration::from_secs(30));
    }
}
