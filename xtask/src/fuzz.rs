//! A structured mutational fuzzer of the scene parser and builder and of the mesh importers,
//! on stable Rust (`cargo xtask fuzz`; cargo-fuzz's libFuzzer engine needs a nightly
//! compiler, and its targets in `fuzz/` stay for machines that have one).
//!
//! Each case is a seed input (a shipped scene, a corpus file) with a few mutations drawn by
//! proptest: a number replaced by an extreme value (0, −1, 10³⁰⁰, 2⁶⁴ − 1, `nan`, `inf`…) or by
//! a value drawn log-uniformly over the whole range of f64 (±m·10ᵉ, e from −320 to 308, and
//! integers up to 2⁶⁴), or scaled by a power of ten, a line deleted, duplicated, swapped or
//! inserted from a list of format-aware snippets, an array given an extra element, a byte
//! set, the text truncated. Each case must satisfy its target's [`check`]: no panic, and
//!
//! * scene files: a file that parses serialises back to TOML and parses to the same scene
//!   (the scene file is a faithful description); a small one builds or gives a typed error, and
//!   every frame either leaves every position and velocity finite or gives a typed error. A
//!   case runs under a work bound ([`FUZZ_WORK_PER_FRAME`] particle projections per frame, by
//!   the scene's own [`xpbd_scene::budget::WorkEstimate`]), so that a run ends in its budget;
//! * meshes: an imported mesh has at least one element, finite vertices and element indices
//!   inside the vertex list.
//!
//! A failing case is shrunk by proptest to its fewest mutations and written to
//! `fuzz/regressions/TARGET/`, which `xtask/tests/fuzz.rs` replays through the same checks.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use sha2::{Digest, Sha256};

/// What a target parses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Scene files (`SceneDesc::parse`, `build_scene`, two frames).
    SceneToml,
    /// Wavefront OBJ.
    ImportObj,
    /// PLY.
    ImportPly,
    /// Gmsh `.msh`.
    ImportGmsh,
    /// TetGen `.node` and `.ele`, separated by a NUL byte in one input.
    ImportTetgen,
}

/// Every target, in the order `cargo xtask fuzz` runs them.
pub const TARGETS: [Target; 5] = [
    Target::SceneToml,
    Target::ImportObj,
    Target::ImportPly,
    Target::ImportGmsh,
    Target::ImportTetgen,
];

impl Target {
    /// The name of the target's folders under `fuzz/corpus` and `fuzz/regressions`.
    pub fn name(self) -> &'static str {
        match self {
            Self::SceneToml => "scene_toml",
            Self::ImportObj => "import_obj",
            Self::ImportPly => "import_ply",
            Self::ImportGmsh => "import_gmsh",
            Self::ImportTetgen => "import_tetgen",
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        TARGETS.into_iter().find(|t| t.name() == name)
    }

    /// Lines the mutator may insert: fragments of the format that reach deeper than noise.
    fn snippets(self) -> &'static [&'static str] {
        match self {
            Self::SceneToml => &[
                "[[cloth]]\nmaterial = 'm'\nresolution = [3, 3]\nsize = [1.0, 1.0]",
                "[[rope]]\nmaterial = 'm'\nlinks = 3\nstart = [0, 0, 0]\nend = [1, 0, 0]\nradius = 0.01",
                "[[soft_box]]\nmaterial = 'm'\nsize = [1.0, 1.0, 1.0]\ncells = [1, 1, 1]",
                "[[continuum]]\nmaterial = 'm'\nspacing = 0.1\nregion = { ball = { center = [0, 0, 1], radius = 0.2 } }",
                "[[collider]]\nshape = { plane = { normal = [0, 0, 1], offset = 0 } }",
                "[[collider]]\nshape = { sphere = { radius = 0.5 } }\nfriction = 0.3",
                "[contacts]\nradius = 0.01",
                "[materials.m]\ndensity = 1000.0\nyoungs = 1e6\nthickness = 0.001",
                "[materials.s]\npreset = 'sand'",
                "[solver]\nsubsteps = 2\niterations = 3\nmethod = { kind = 'jacobi', omega = 1.0, averaged = true }",
                "[time]\ndt = 0.01\nframes = 2",
                "pins = [[0, 0], [2, 2]]",
                "pin_start = true",
                "name = \"a\\nb\"",
                "bending = 'isometric'",
                "adaptive = true",
                "dt_max = 1e-9",
                "velocity = [1e3, 0, 0]",
                "[output]\nformats = ['vtk', 'ply', 'obj']\nevery = 1",
            ],
            Self::ImportObj => &[
                "v 0 0 0",
                "v 1e300 0 0",
                "f 1 2 3",
                "f -1 -2 -3",
                "f 1 1 1",
                "f 0 0 0",
                "f 1/1/1 2/2/2 3/3/3",
                "f 1 2 3 4 5",
                "vt 0 0",
                "vn 0 0 1",
                "o part",
                "l 1 2",
            ],
            Self::ImportPly => &[
                "ply",
                "format ascii 1.0",
                "format binary_little_endian 1.0",
                "element vertex 3",
                "element vertex 4294967295",
                "element face 1",
                "property float x",
                "property list uchar int vertex_indices",
                "property list uint int vertex_indices",
                "end_header",
                "3 0 1 2",
                "0 0 0",
            ],
            Self::ImportGmsh => &[
                "$MeshFormat\n4.1 0 8\n$EndMeshFormat",
                "$MeshFormat\n2.2 0 8\n$EndMeshFormat",
                "$Nodes",
                "$EndNodes",
                "$Elements",
                "$EndElements",
                "1 4 0 0 4 1 2 3 4",
                "1 4 2 0 1 1 2 3 4",
                "3 1 1 4",
                "0 0 0",
            ],
            Self::ImportTetgen => &[
                "4 3 0 0",
                "1 4 0",
                "1 1 2 3 4",
                "1 1 1 1 1",
                "0 0 0 0",
                "1 0 0 0",
                "# comment",
                "\0",
            ],
        }
    }
}

/// Replacement values for numbers: boundaries, overflows and non-numbers.
const EXTREMES: [&str; 20] = [
    "0",
    "-0.0",
    "-1",
    "1",
    "2",
    "3",
    "0.5",
    "1e-300",
    "1e-12",
    "1e9",
    "1e300",
    "-1e300",
    "65536",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "-9223372036854775808",
    "nan",
    "inf",
    "-inf",
];

/// One edit of an input; indices are reduced modulo what they index, so that shrinking
/// (towards 0) keeps a case valid.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// The n-th number becomes an extreme value.
    Number { index: usize, value: usize },
    /// The n-th line is removed.
    DeleteLine(usize),
    /// The n-th line is written twice.
    DuplicateLine(usize),
    /// Lines a and b change places.
    SwapLines(usize, usize),
    /// A snippet goes in before the n-th line.
    Insert { index: usize, snippet: usize },
    /// The n-th number becomes `±mantissa · 10^exponent` (log-uniform over f64's range).
    LogUniform {
        index: usize,
        mantissa: u8,
        exponent: i16,
        negative: bool,
    },
    /// The n-th number gets `e<exponent>` appended (scaled by a power of ten; an integer
    /// becomes a float, which a count must refuse by name).
    Scale { index: usize, exponent: i16 },
    /// The n-th array (`[`) gets one more element, a copy of its first.
    ExtraElement(usize),
    /// One byte is set.
    Byte { pos: usize, byte: u8 },
    /// Everything from a position on is cut.
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let i = 0..10_000usize;
    prop_oneof![
        4 => (i.clone(), 0..EXTREMES.len()).prop_map(|(index, value)| Mutation::Number { index, value }),
        3 => (i.clone(), 1..10u8, -320..=308i16, any::<bool>()).prop_map(|(index, mantissa, exponent, negative)| {
            Mutation::LogUniform { index, mantissa, exponent, negative }
        }),
        2 => (i.clone(), -12..=12i16).prop_map(|(index, exponent)| Mutation::Scale { index, exponent }),
        1 => i.clone().prop_map(Mutation::ExtraElement),
        1 => i.clone().prop_map(Mutation::DeleteLine),
        1 => i.clone().prop_map(Mutation::DuplicateLine),
        1 => (i.clone(), i.clone()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        3 => (i.clone(), 0..64usize).prop_map(|(index, snippet)| Mutation::Insert { index, snippet }),
        1 => (i.clone(), any::<u8>()).prop_map(|(pos, byte)| Mutation::Byte { pos, byte }),
        1 => i.prop_map(Mutation::Truncate),
    ]
}

/// Byte ranges of the numbers in `text` (a digit run with an optional sign, point and
/// exponent).
fn numbers(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < text.len() {
        let start = k;
        if text[k] == b'-' || text[k] == b'+' {
            k += 1;
        }
        if k < text.len() && text[k].is_ascii_digit() {
            while k < text.len()
                && (text[k].is_ascii_digit()
                    || matches!(text[k], b'.' | b'e' | b'E')
                    || ((text[k] == b'-' || text[k] == b'+') && matches!(text[k - 1], b'e' | b'E')))
            {
                k += 1;
            }
            out.push((start, k));
        } else {
            k = start + 1;
        }
    }
    out
}

/// `seed` with `mutations` applied in order.
pub fn apply(target: Target, seed: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut text = seed.to_vec();
    for m in mutations {
        let mut lines: Vec<Vec<u8>> = text.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        let n = lines.len().max(1);
        match *m {
            Mutation::Number { index, value } => {
                let spans = numbers(&text);
                if let Some(&(a, b)) = spans.get(index % spans.len().max(1)) {
                    text.splice(a..b, EXTREMES[value].bytes());
                }
                continue;
            }
            Mutation::LogUniform {
                index,
                mantissa,
                exponent,
                negative,
            } => {
                let spans = numbers(&text);
                if let Some(&(a, b)) = spans.get(index % spans.len().max(1)) {
                    let sign = if negative { "-" } else { "" };
                    let value = format!("{sign}{mantissa}e{exponent}");
                    text.splice(a..b, value.bytes());
                }
                continue;
            }
            Mutation::Scale { index, exponent } => {
                let spans = numbers(&text);
                if let Some(&(a, b)) = spans.get(index % spans.len().max(1))
                    && !text[a..b].iter().any(|c| matches!(c, b'e' | b'E'))
                {
                    text.splice(b..b, format!("e{exponent}").bytes());
                }
                continue;
            }
            Mutation::ExtraElement(n) => {
                let opens: Vec<usize> = (0..text.len()).filter(|&k| text[k] == b'[').collect();
                if let Some(&o) = opens.get(n % opens.len().max(1)) {
                    let end = text[o + 1..]
                        .iter()
                        .position(|c| matches!(c, b',' | b']' | b'['))
                        .map(|k| o + 1 + k);
                    if let Some(e) = end
                        && text[e] != b'['
                        && e > o + 1
                    {
                        let first = text[o + 1..e].to_vec();
                        let mut insert = first;
                        insert.extend_from_slice(b", ");
                        text.splice(o + 1..o + 1, insert);
                    }
                }
                continue;
            }
            Mutation::DeleteLine(i) => {
                if !lines.is_empty() {
                    lines.remove(i % n);
                }
            }
            Mutation::DuplicateLine(i) => {
                if !lines.is_empty() {
                    let l = lines[i % n].clone();
                    lines.insert(i % n, l);
                }
            }
            Mutation::SwapLines(a, b) => {
                if !lines.is_empty() {
                    lines.swap(a % n, b % n);
                }
            }
            Mutation::Insert { index, snippet } => {
                let s = target.snippets();
                let at = index % (lines.len() + 1);
                lines.insert(at, s[snippet % s.len()].into());
            }
            Mutation::Byte { pos, byte } => {
                if !text.is_empty() {
                    let p = pos % text.len();
                    text[p] = byte;
                }
                continue;
            }
            Mutation::Truncate(pos) => {
                text.truncate(pos % (text.len() + 1));
                continue;
            }
        }
        text = lines.join(&b'\n');
    }
    text
}

/// The target's invariant on one input (see the module docs); a panic inside is a failure too.
pub fn check(target: Target, input: &[u8]) -> Result<(), String> {
    match target {
        Target::SceneToml => check_scene(input),
        Target::ImportObj => check_mesh(xpbd_scene::import::parse_obj(input, "fuzz.obj")),
        Target::ImportPly => check_mesh(xpbd_scene::import::parse_ply(input, "fuzz.ply")),
        Target::ImportGmsh => check_mesh(xpbd_scene::import::parse_gmsh(input, "fuzz.msh")),
        Target::ImportTetgen => {
            let text = String::from_utf8_lossy(input);
            let (node, ele) = text.split_once('\0').unwrap_or((&text, ""));
            check_mesh(xpbd_scene::import::parse_tetgen(node, ele, "fuzz"))
        }
    }
}

/// Particles a fuzzed scene may have to be built and stepped (larger ones are only parsed).
const SMALL_SCENE_PARTICLES: f64 = 4096.0;

/// Particle projections per frame a fuzzed scene may ask for to be stepped (about 0.1 s);
/// larger ones are only built.
pub const FUZZ_WORK_PER_FRAME: f64 = 1e7;

fn check_scene(input: &[u8]) -> Result<(), String> {
    let path = Path::new("fuzz.toml");
    let Ok(text) = std::str::from_utf8(input) else {
        return Ok(());
    };
    let Ok(mut scene) = xpbd_scene::SceneDesc::parse(text, path) else {
        return Ok(());
    };
    let back = toml::to_string(&scene).map_err(|e| format!("does not serialise: {e}"))?;
    match xpbd_scene::SceneDesc::parse(&back, path) {
        Ok(again) if again == scene => {}
        Ok(again) => return Err(format!("round trip changed the scene:\n{back}\n{again:?}")),
        Err(e) => return Err(format!("its own TOML does not parse: {e}\n{back}")),
    }
    let small = scene.mesh.is_empty()
        && scene
            .memory_estimate()
            .parts
            .iter()
            .map(|p| p.particles)
            .sum::<f64>()
            <= SMALL_SCENE_PARTICLES;
    if !small {
        return Ok(());
    }
    // Keep each case to a few milliseconds: two frames of a few steps.
    scene.time.frames = scene.time.frames.min(2);
    scene.time.steps_per_frame = scene.time.steps_per_frame.min(2);
    scene.solver.substeps = scene.solver.substeps.min(10);
    scene.solver.iterations = scene.solver.iterations.min(10);
    scene.solver.threads = scene.solver.threads.min(2);
    let memory = scene.memory_estimate();
    let work = xpbd_scene::budget::WorkEstimate::new(&scene, &memory).per_frame();
    let Ok(mut built) = xpbd_scene::build_scene(scene, path) else {
        return Ok(());
    };
    if work > FUZZ_WORK_PER_FRAME {
        return Ok(());
    }
    // The estimate foresees the steps of `[time]`; adaptive steps the state makes far smaller
    // (a degenerate cloth's edge travel bound under falling sand) meet the same bound at run
    // time and end the case with a typed error.
    built
        .sim
        .set_max_work_per_span(FUZZ_WORK_PER_FRAME)
        .map_err(|e| e.to_string())?;
    for _ in 0..built.scene.time.frames {
        match built.advance_frame() {
            Ok(()) => {
                let p = built.sim.particles();
                if let Some(i) = (0..p.len())
                    .find(|&i| !p.x[i].iter().chain(p.v[i].iter()).all(|c| c.is_finite()))
                {
                    return Err(format!("frame passed with particle {i} not finite"));
                }
            }
            Err(e) if e.to_string().is_empty() => return Err("an error without text".into()),
            Err(_) => break,
        }
    }
    Ok(())
}

fn check_mesh(
    mesh: Result<xpbd_scene::import::ImportedMesh, xpbd_scene::ImportError>,
) -> Result<(), String> {
    let Ok(m) = mesh else { return Ok(()) };
    let n = m.vertices.len();
    if m.triangles.is_empty() && m.tets.is_empty() && m.segments.is_empty() {
        return Err(format!("imported a mesh with {n} vertices and no element"));
    }
    if let Some(i) = (0..n).find(|&i| !m.vertices[i].iter().all(|c| c.is_finite())) {
        return Err(format!("vertex {i} is not finite"));
    }
    let indices = (m.segments.iter().flatten())
        .chain(m.triangles.iter().flatten())
        .chain(m.tets.iter().flatten());
    if let Some(&i) = indices.into_iter().find(|&&i| i >= n) {
        return Err(format!("element index {i} beyond the {n} vertices"));
    }
    Ok(())
}

/// The files of `fuzz/DIR/TARGET` (sorted), and for scene files the shipped scenes too.
pub fn inputs(root: &Path, dir: &str, target: Target) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(root.join("fuzz").join(dir).join(target.name()))
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
    if dir == "corpus" && target == Target::SceneToml {
        files.extend(
            std::fs::read_dir(root.join("scenes"))
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml")),
        );
    }
    files.sort();
    files
}

/// What a fuzzing run of one target found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FuzzOutcome {
    /// The target's name.
    pub target: &'static str,
    /// Cases run.
    pub cases: u64,
    /// Shrunk failing inputs written to `fuzz/regressions/TARGET/` (empty: none found).
    pub findings: Vec<PathBuf>,
}

/// Fuzzes `target` from the seeds in `fuzz/corpus` until `budget` has passed or `max_cases`
/// cases have run, from the deterministic `seed`; shrunk failures go to `regressions`.
pub fn fuzz(
    root: &Path,
    target: Target,
    budget: Duration,
    max_cases: u64,
    seed: u64,
    regressions: &Path,
) -> anyhow::Result<FuzzOutcome> {
    let seeds: Vec<Vec<u8>> = inputs(root, "corpus", target)
        .iter()
        .map(std::fs::read)
        .collect::<Result<_, _>>()?;
    anyhow::ensure!(!seeds.is_empty(), "no corpus for {}", target.name());
    let start = Instant::now();
    let mut outcome = FuzzOutcome {
        target: target.name(),
        cases: 0,
        findings: Vec::new(),
    };
    let mut round = 0u64;
    let current = regressions.join(format!("{}.current", target.name()));
    std::fs::create_dir_all(regressions)?;
    while start.elapsed() < budget && outcome.cases < max_cases {
        let cases = 64.min(max_cases - outcome.cases);
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..16].copy_from_slice(&round.to_le_bytes());
        let config = Config {
            cases: cases as u32,
            failure_persistence: None,
            max_shrink_iters: 512,
            ..Config::default()
        };
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &key);
        let mut runner = TestRunner::new_with_rng(config, rng);
        let strategy = (0..seeds.len(), proptest::collection::vec(mutation(), 1..6));
        let result = runner.run(&strategy, |(s, muts)| {
            let input = apply(target, &seeds[s], &muts);
            // A case that kills the process (out of memory, stack overflow) leaves its input
            // here, for the next run to shrink by hand.
            let _ = std::fs::write(&current, &input);
            check(target, &input).map_err(TestCaseError::fail)
        });
        outcome.cases += cases;
        round += 1;
        match result {
            Ok(()) => {}
            Err(TestError::Fail(reason, (s, muts))) => {
                let input = apply(target, &seeds[s], &muts);
                let dir = regressions.join(target.name());
                std::fs::create_dir_all(&dir)?;
                let digest = format!("{:x}", Sha256::digest(&input));
                let name = format!("fuzz-{}", &digest[..16]);
                let path = dir.join(name);
                std::fs::write(&path, &input)?;
                eprintln!("{}: {reason} → {}", target.name(), path.display());
                outcome.findings.push(path);
            }
            Err(TestError::Abort(reason)) => anyhow::bail!("{}: {reason}", target.name()),
        }
    }
    let _ = std::fs::remove_file(&current);
    Ok(outcome)
}
