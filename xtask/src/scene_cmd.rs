//! `cargo xtask run | view | soak | fuzz`: scene files, the frame viewer, the
//! long-run soak and the fuzzing driver (`xtask::fuzz`).

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use xpbd_scene::runner::{RunSource, run_with};
use xpbd_scene::{BuiltScene, Checkpoint, SceneDesc, build_scene};

/// `cargo xtask run SCENE --out DIR`, or `cargo xtask run [SCENE] --resume CKPT --out DIR`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The scene file (TOML), e.g. scenes/cloth_on_sphere.toml. With --resume it may be left
    /// out; if given, its text must be the one the checkpoint was written from.
    #[arg(required_unless_present = "resume")]
    pub scene: Option<PathBuf>,
    /// Output folder for frames, checkpoints and run.json (created; a file there is an error).
    #[arg(long)]
    pub out: PathBuf,
    /// Also write DIR/checkpoint_NNNNN.ckpt every this many frames (at least 1).
    #[arg(long)]
    pub checkpoint_every: Option<NonZeroUsize>,
    /// Continue from a checkpoint instead of frame 0: the scene run is the checkpoint's own
    /// (its stored text and scene path, with the mesh files checked against its fingerprints).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// What steps the scene: the CPU (f64) or the GPU world (wgpu, f32; the adapter is chosen
    /// as `WGPU_BACKEND` says). A scene feature the GPU does not model is refused by name.
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
}

/// The backend of `cargo xtask run`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// xpbd-core's simulation in f64.
    Cpu,
    /// The GPU world (xpbd_gpu::GpuWorld) in f32.
    Gpu,
}

/// Runs a scene with a progress bar ([`xpbd_scene::runner::run_with`]: atomic frames and
/// checkpoints, DIR/run.json); prints one JSON line.
pub fn run_command(args: RunArgs) -> Result<()> {
    let (text, scene_path, mut scene) = match (&args.resume, &args.scene) {
        (Some(ckpt), given) => {
            let c = Checkpoint::load(ckpt)?;
            if let Some(given) = given {
                c.verify_scene_file(given, ckpt)?;
            }
            let built = c.restore()?;
            (c.scene_text, c.scene_path, built)
        }
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            let built = build_scene(SceneDesc::parse(&text, path)?, path)?;
            (text, path.clone(), built)
        }
        (None, None) => bail!("a SCENE file or --resume CKPT is needed"),
    };
    let frames = scene.scene.time.frames;
    let bar = ProgressBar::new(frames as u64).with_position(scene.frame as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} frames ({eta})")?
            .progress_chars("=> "),
    );
    bar.set_message(scene.scene.name.clone());
    let start = Instant::now();
    let source = RunSource {
        path: &scene_path,
        text: &text,
        checkpoint_every: args.checkpoint_every,
    };
    let (outcome, adapter, scene) = match args.backend {
        Backend::Cpu => {
            let o = run_with(&mut scene, &args.out, Some(source), |f| {
                bar.set_position(f as u64)
            })?;
            (o, None, scene)
        }
        Backend::Gpu => {
            let ctx = std::sync::Arc::new(xpbd_gpu::GpuContext::from_env()?);
            let adapter = ctx.describe();
            let mut world = xpbd_gpu::GpuWorld::new(ctx, scene)?;
            let o = run_with(&mut world, &args.out, Some(source), |f| {
                bar.set_position(f as u64)
            })?;
            (o, Some(adapter), world.into_scene())
        }
    };
    bar.finish();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{}",
        serde_json::json!({
            "command": "run", "scene": scene_path, "out": args.out, "frames": scene.frame,
            "particles": scene.sim.particles().len(), "files": outcome.files,
            "checkpoints": outcome.checkpoints, "seconds": secs,
            "adaptive": scene.is_adaptive(),
            "steps": scene.steps.steps, "dt_min_s": scene.steps.dt_min,
            "dt_max_s": scene.steps.dt_max, "halvings": scene.steps.halvings,
            "backend": match args.backend { Backend::Cpu => "cpu", Backend::Gpu => "gpu" },
            "adapter": adapter,
        })
    );
    Ok(())
}

/// `cargo xtask soak`: 10⁵ steps of a soak scene (default the cloth on a sphere; the coupled
/// soaks are scenes/soak_sand_on_cloth.toml and scenes/soak_water_on_sand.toml).
#[derive(Args, Debug)]
pub struct SoakArgs {
    /// Scene to soak.
    #[arg(long, default_value = "scenes/soak_cloth_sphere.toml")]
    pub scene: PathBuf,
    /// Steps to take.
    #[arg(long, default_value_t = 100_000)]
    pub steps: usize,
}

/// Steps the scene (`BuiltScene::step`: grips and the XPBI CFL check included), checking every step that positions and velocities stay finite and that
/// the energy stays bounded:
/// * mechanical energy (kinetic + gravitational) ≤ E₀ + 1 % of the scale: the scene starts at
///   rest with no elastic energy and dissipates (velocity damping, friction), so
///   E_mech(t) ≤ E₀ − E_el(t) ≤ E₀; the 1 % allows the per-step solver error;
/// * elastic energy Σ C²/(2α) ≤ the scale. With one iteration per substep XPBD leaves a
///   residual C that this measure weighs by the (stiff) 1/α, so it is reported and bounded,
///   not compared with E₀.
///
/// The scale is m g z summed over free particles (the potential energy they can release
/// falling to the ground). Prints one JSON line; fails if a check fails.
pub fn soak_command(args: SoakArgs) -> Result<()> {
    let mut scene = BuiltScene::load(&args.scene)?;
    let e0 = scene.sim.energies().total();
    // Energy scale (see above): Σ m g |z| over free particles.
    let p = scene.sim.particles();
    let g = 9.81;
    let scale: f64 = (0..p.len())
        .filter(|&i| p.inv_mass[i] > 0.0)
        .map(|i| g * p.x[i].z.abs() / p.inv_mass[i])
        .sum();
    let particles = p.len();
    let bar = ProgressBar::new(args.steps as u64);
    let (mut e_max, mut e_min, mut el_max) = (e0, e0, 0.0f64);
    let start = Instant::now();
    for step in 0..args.steps {
        scene.step().with_context(|| format!("step {step}"))?;
        let p = scene.sim.particles();
        if p.len() != particles
            && !scene
                .scene
                .continuum
                .iter()
                .any(|c| matches!(c.region, Some(xpbd_scene::continuum::RegionSpec::Nozzle(_))))
        {
            bail!(
                "step {step}: {} particles, the scene started with {particles} and emits none",
                p.len()
            );
        }
        if let Some(i) =
            (0..p.len()).find(|&i| !p.x[i].iter().chain(p.v[i].iter()).all(|c| c.is_finite()))
        {
            bail!("step {step}: particle {i} is not finite");
        }
        let energies = scene.sim.energies();
        let e = energies.kinetic + energies.gravitational;
        e_max = e_max.max(e);
        e_min = e_min.min(e);
        el_max = el_max.max(energies.elastic);
        if e > e0 + 0.01 * scale {
            bail!(
                "step {step}: mechanical energy {e} J exceeds the initial {e0} J by more than 1% of {scale} J"
            );
        }
        if energies.elastic > scale {
            bail!(
                "step {step}: elastic energy {} J exceeds the scale {scale} J",
                energies.elastic
            );
        }
        if step % 1000 == 0 {
            bar.set_position(step as u64);
        }
    }
    bar.finish();
    println!(
        "{}",
        serde_json::json!({
            "command": "soak", "scene": args.scene, "steps": args.steps,
            "energy_initial": e0, "mechanical_energy_max": e_max, "mechanical_energy_min": e_min,
            "elastic_energy_max": el_max,
            "energy_scale": scale, "particles": particles,
            "seconds": start.elapsed().as_secs_f64(),
        })
    );
    Ok(())
}

/// `cargo xtask fuzz`: the stable structured fuzzer of `xtask::fuzz`.
#[derive(Args, Debug)]
pub struct FuzzArgs {
    /// Seconds per target.
    #[arg(long, default_value_t = 60)]
    pub seconds: u64,
    /// Only this target (scene_toml, import_obj, import_ply, import_gmsh, import_tetgen).
    #[arg(long)]
    pub target: Option<String>,
    /// Seed of the case generator (the same seed and budget of cases give the same cases).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop a target after this many cases even if time is left.
    #[arg(long, default_value_t = u64::MAX)]
    pub cases: u64,
}

/// Runs the fuzzer on each target; shrunk failing inputs are written to
/// fuzz/regressions/TARGET/ (commit them: xtask/tests/fuzz.rs replays them). Prints one JSON
/// line; fails if anything was found.
pub fn fuzz_command(args: FuzzArgs) -> Result<()> {
    use xtask::fuzz::{TARGETS, Target, fuzz};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let targets: Vec<Target> = match &args.target {
        Some(name) => vec![Target::from_name(name).with_context(|| {
            format!("unknown fuzz target `{name}` (one of: scene_toml, import_obj, import_ply, import_gmsh, import_tetgen)")
        })?],
        None => TARGETS.to_vec(),
    };
    let regressions = root.join("fuzz/regressions");
    let start = Instant::now();
    let mut outcomes = Vec::new();
    for target in targets {
        eprintln!("fuzzing {} for {} s", target.name(), args.seconds);
        let budget = std::time::Duration::from_secs(args.seconds);
        outcomes.push(fuzz(
            &root,
            target,
            budget,
            args.cases,
            args.seed,
            &regressions,
        )?);
    }
    let found: usize = outcomes.iter().map(|o| o.findings.len()).sum();
    println!(
        "{}",
        serde_json::json!({
            "command": "fuzz", "seconds_per_target": args.seconds, "seed": args.seed,
            "targets": outcomes, "findings": found, "seconds": start.elapsed().as_secs_f64(),
        })
    );
    if found > 0 {
        bail!(
            "{found} failing inputs written under {}",
            regressions.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! Checkpoint integrity and output safety through `cargo xtask run`'s arguments and driver.
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    const TINY: &str = "name = 'rope'\n[time]\ndt = 0.01\nframes = 3\n\
        [materials.steel]\ndensity = 7850.0\nyoungs = 2e11\n\
        [[rope]]\nmaterial = 'steel'\nlinks = 4\nstart = [0.0, 0.0, 1.0]\nend = [1.0, 0.0, 1.0]\n\
        radius = 0.001\npin_start = true\n[output]\nformats = ['vtk']\nevery = 1\n";

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("xtask-run-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn args(scene: Option<&Path>, out: &Path, resume: Option<&Path>) -> RunArgs {
        RunArgs {
            scene: scene.map(Path::to_path_buf),
            out: out.to_path_buf(),
            checkpoint_every: NonZeroUsize::new(1),
            resume: resume.map(Path::to_path_buf),
            backend: Backend::Cpu,
        }
    }

    /// The soak's checks (finite, energy bounded, particle count constant) pass on the first
    /// 2 000 steps of the cloth on a sphere and the first 300 (0.6 s: through the impact and
    /// into the settling) of the coupled soaks, sand on cloth and water on sand; the full 10⁵
    /// steps are `cargo xtask soak --scene ...`.
    #[test]
    fn soak_checks_pass_on_its_scenes() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for (scene, steps) in [
            ("scenes/soak_cloth_sphere.toml", 2000),
            ("scenes/soak_sand_on_cloth.toml", 300),
            ("scenes/soak_water_on_sand.toml", 300),
        ] {
            soak_command(SoakArgs {
                scene: root.join(scene),
                steps,
            })
            .unwrap_or_else(|e| panic!("{scene}: {e:#}"));
        }
    }

    /// `--checkpoint-every 0` is refused by the argument parser (it used to write no
    /// checkpoint, silently); SCENE may be left out only with `--resume`.
    #[test]
    fn checkpoint_every_zero_is_refused() {
        let parse = |a: &[&str]| Cli::try_parse_from([&["run"], a].concat());
        let e = parse(&["s.toml", "--out", "o", "--checkpoint-every", "0"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::ValueValidation, "{e}");
        assert!(e.to_string().contains("--checkpoint-every"), "{e}");
        let ok = parse(&["s.toml", "--out", "o", "--checkpoint-every", "1"]).unwrap();
        assert_eq!(ok.run.checkpoint_every.map(NonZeroUsize::get), Some(1));
        assert!(parse(&["--out", "o"]).is_err());
        assert!(
            parse(&["--out", "o", "--resume", "a.ckpt"])
                .unwrap()
                .run
                .scene
                .is_none()
        );
    }

    /// `run B --resume A.ckpt` (B another text) is an error naming B and the checkpoint, and
    /// writes nothing; `run --resume A.ckpt` runs A (it used to run A while reporting B, then
    /// write checkpoints with B's text): its checkpoints carry A's text and path, and its
    /// run.json names A and lists the frames written after the checkpoint.
    #[test]
    fn resume_runs_the_checkpoints_scene_and_refuses_another() {
        let dir = tmp("resume");
        let (a, b) = (dir.join("a.toml"), dir.join("b.toml"));
        std::fs::write(&a, TINY).unwrap();
        std::fs::write(&b, TINY.replace("dt = 0.01", "dt = 0.02")).unwrap();
        let (first, second) = (dir.join("first"), dir.join("second"));
        run_command(args(Some(&a), &first, None)).unwrap();
        let ckpt = first.join("checkpoint_00001.ckpt");
        let e = run_command(args(Some(&b), &second, Some(&ckpt))).unwrap_err();
        let msg = format!("{e:#}");
        for p in [&b, &ckpt, &a] {
            assert!(
                msg.contains(&p.display().to_string()),
                "{msg} lacks {}",
                p.display()
            );
        }
        assert!(
            !second.exists(),
            "the refused run wrote {}",
            second.display()
        );
        run_command(args(Some(&a), &second, Some(&ckpt))).unwrap();
        run_command(args(None, &second, Some(&ckpt))).unwrap();
        let c = Checkpoint::load(&second.join("checkpoint_00003.ckpt")).unwrap();
        assert_eq!(
            (c.scene_text.as_str(), c.scene_path.as_path(), c.frame),
            (TINY, a.as_path(), 3)
        );
        let m = xpbd_scene::runner::RunManifest::load(&second).unwrap();
        assert_eq!(m.scene.as_deref(), Some(a.as_path()));
        let frames: Vec<usize> = m.written.iter().map(|w| w.frame).collect();
        assert_eq!(frames, [2, 3]);
    }

    /// `--out` naming a file, or a folder under one, is an error naming the file (it was
    /// `File exists (os error 17)` with no path).
    #[test]
    fn out_that_is_a_file_is_an_error_naming_it() {
        let dir = tmp("out-file");
        let scene = dir.join("a.toml");
        std::fs::write(&scene, TINY).unwrap();
        let file = dir.join("taken");
        std::fs::write(&file, "x").unwrap();
        for out in [file.clone(), file.join("sub")] {
            let e = run_command(args(Some(&scene), &out, None)).unwrap_err();
            let msg = format!("{e:#}");
            assert!(msg.contains(&file.display().to_string()), "{msg}");
            assert!(msg.contains("not a folder"), "{msg}");
        }
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
    }

    /// `--backend gpu` runs a scene file on the GPU world: the same frames and manifest, a
    /// checkpoint from it resumes on the CPU, and a feature the GPU does not model is refused
    /// by name before anything is written.
    #[test]
    fn gpu_backend_runs_resumes_on_the_cpu_and_refuses_by_name() {
        let Some(_) = xpbd_gpu::context_for_test("xtask run --backend gpu").unwrap() else {
            return;
        };
        let dir = tmp("gpu");
        let scene = dir.join("rope.toml");
        std::fs::write(&scene, TINY).unwrap();
        let (gpu, cpu) = (dir.join("gpu"), dir.join("cpu"));
        let gpu_args = |scene: &Path, out: &Path, resume: Option<&Path>| RunArgs {
            backend: Backend::Gpu,
            ..args(Some(scene), out, resume)
        };
        run_command(gpu_args(&scene, &gpu, None)).unwrap();
        let m = xpbd_scene::runner::RunManifest::load(&gpu).unwrap();
        assert_eq!(m.completed, 3);
        assert_eq!(m.written.len(), 4, "frames 0..=3");
        // The GPU's checkpoint of frame 1 continues on the CPU.
        run_command(args(
            Some(&scene),
            &cpu,
            Some(&gpu.join("checkpoint_00001.ckpt")),
        ))
        .unwrap();
        assert_eq!(
            xpbd_scene::runner::RunManifest::load(&cpu)
                .unwrap()
                .completed,
            3
        );
        // A nozzle of water is not on the GPU: refused by name, nothing written.
        let wet = dir.join("wet.toml");
        std::fs::write(
            &wet,
            format!(
                "{TINY}[[fluid]]\nregion = {{ nozzle = {{ exit = [0.0, 0.0, 0.1], radius = 0.01, speed = 0.5, duration = 0.1 }} }}\n\
                 spacing = 0.005\n"
            ),
        )
        .unwrap();
        let refused = dir.join("refused");
        let e = run_command(gpu_args(&wet, &refused, None)).unwrap_err();
        assert!(format!("{e:#}").contains("nozzles feeding fluids"), "{e:#}");
        assert!(
            !refused.exists(),
            "the refused run wrote {}",
            refused.display()
        );
    }
}
