//! `cargo xtask view DIR`: writes DIR/index.html, a self-contained three.js player of the
//! frames DIR/run.json lists (frame_NNNNN.vtk, else .ply; stale frames of an earlier run in
//! the same folder are not listed, so not shown), and optionally screenshots it in headless
//! Chromium and checks that something was drawn.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;
use xpbd_scene::export::{Topology, read_vtk};
use xpbd_scene::import::{ImportedMesh, read_ply};
use xpbd_scene::runner::RunManifest;

/// Debian's `chromium` package.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// The committed esbuild bundle of xtask/viewer/viewer.js + three.js (see its README).
const BUNDLE: &str = include_str!("../viewer/viewer.bundle.js");

/// `cargo xtask view DIR [--screenshot PNG]`.
#[derive(Args, Debug)]
pub struct ViewArgs {
    /// Folder written by `cargo xtask run`.
    pub dir: PathBuf,
    /// Render the page in headless Chromium (/usr/bin/chromium) to this PNG and fail unless
    /// at least 0.1 % of its pixels have the body's (blue) colour.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
}

fn load_frame(path: &Path) -> Result<ImportedMesh> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let name = path.display().to_string();
    Ok(match path.extension().and_then(|e| e.to_str()) {
        Some("vtk") => read_vtk(&bytes, &name)?,
        _ => read_ply(&bytes, &name)?,
    })
}

/// The frames DIR's run manifest (DIR/run.json, written by `cargo xtask run`) lists, as
/// (simulation frame, path), VTK if the run wrote VTK, else PLY. Frame files that the
/// manifest does not list (left by an earlier run) are not returned; a folder without a
/// manifest is refused.
pub fn frame_files(dir: &Path) -> Result<Vec<(usize, PathBuf)>> {
    let manifest = RunManifest::load(dir)
        .context("the viewer plays the frames listed in run.json (written by `cargo xtask run`)")?;
    let mut frames = Vec::new();
    for ext in ["vtk", "ply"] {
        frames = manifest.frame_files(dir, ext);
        if !frames.is_empty() {
            break;
        }
    }
    if frames.is_empty() {
        bail!("{}: run.json lists no .vtk or .ply frames", dir.display());
    }
    Ok(frames)
}

/// Writes DIR/index.html, playing the frames of [`frame_files`]; returns its path.
pub fn write_page(dir: &Path) -> Result<PathBuf> {
    let frames = frame_files(dir)?;
    let first = &frames[0].1;
    let mesh = load_frame(first)?;
    let topo = Topology {
        triangles: mesh.triangles.clone(),
        tets: mesh.tets.clone(),
        ..Topology::default()
    };
    let triangles: Vec<usize> = topo.surface_triangles().into_iter().flatten().collect();
    let segments: Vec<usize> = mesh.segments.iter().flatten().copied().collect();
    let mut json_frames = Vec::new();
    for (index, path) in &frames {
        let m = load_frame(path)?;
        if m.vertices.len() != mesh.vertices.len() {
            bail!(
                "{}: {} points, the first frame has {}",
                path.display(),
                m.vertices.len(),
                mesh.vertices.len()
            );
        }
        // f32 is what WebGL draws, and keeps the page small. `t` is the simulation frame number.
        let x: Vec<f32> = m
            .vertices
            .iter()
            .flat_map(|v| [v.x as f32, v.y as f32, v.z as f32])
            .collect();
        json_frames.push(serde_json::json!({ "t": index, "x": x }));
    }
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let data = serde_json::json!({
        "name": name, "triangles": triangles, "segments": segments, "frames": json_frames,
    });
    // `</` cannot appear inside a script element.
    let data = data.to_string().replace("</", "<\\/");
    let html = format!(
        r#"<!doctype html>
<html><head><meta charset="utf-8"><title>{name} — xpbd frames</title>
<style>html,body{{margin:0;height:100%;overflow:hidden;font:14px system-ui,sans-serif}}
#bar{{position:fixed;left:0;right:0;bottom:0;display:flex;gap:8px;align-items:center;padding:6px 10px;background:rgba(255,255,255,.85)}}
#frame{{flex:1}}</style></head>
<body><div id="bar"><button id="play">pause</button><input id="frame" type="range" min="0" value="0"><span id="info"></span></div>
<script id="frames" type="application/json">{data}</script>
<script>{BUNDLE}</script>
</body></html>
"#
    );
    let out = dir.join("index.html");
    xpbd_scene::export::write_atomic(&out, html.as_bytes())
        .with_context(|| format!("writing {}", out.display()))?;
    Ok(out)
}

/// Headless Chromium screenshot of `page`; returns the fraction of non-background pixels.
pub fn screenshot(page: &Path, png: &Path) -> Result<f64> {
    let profile = std::env::temp_dir().join(format!("xtask-view-{}", std::process::id()));
    let page = std::fs::canonicalize(page)?;
    let status = std::process::Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--use-angle=swiftshader",
            "--enable-unsafe-swiftshader",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=800,600",
            "--virtual-time-budget=3000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!(
            "--screenshot={}",
            std::path::absolute(png)?.display()
        ))
        .arg(format!("file://{}", page.display()))
        .status()
        .context("starting /usr/bin/chromium (apt-get install chromium)")?;
    let _ = std::fs::remove_dir_all(&profile);
    if !status.success() {
        bail!("chromium exited with {status}");
    }
    let decoder = ::png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png)?));
    let mut reader = decoder.read_info()?;
    let mut buf = vec![0; reader.output_buffer_size().context("PNG too large")?];
    let info = reader.next_frame(&mut buf)?;
    let channels = info.color_type.samples();
    let pixels = &buf[..info.buffer_size()];
    // Count pixels of the body's colour: the mesh, lines and points are drawn in blues
    // (0x3070c0 shaded, 0x103050), the background (0xf4f4f0), grid (greys) and control bar
    // are not blue, so an empty scene counts 0. The bottom 40 px (the control bar) are skipped.
    let rows = (info.height as usize).saturating_sub(40);
    let stride = info.width as usize * channels;
    let mut drawn = 0usize;
    for row in pixels[..rows * stride].chunks_exact(stride) {
        for p in row.chunks_exact(channels) {
            if p[2] as i32 - p[0] as i32 > 40 {
                drawn += 1;
            }
        }
    }
    Ok(drawn as f64 / (rows * info.width as usize).max(1) as f64)
}

/// `cargo xtask view`.
pub fn view_command(args: ViewArgs) -> Result<()> {
    let page = write_page(&args.dir)?;
    let mut drawn = None;
    if let Some(png) = &args.screenshot {
        let f = screenshot(&page, png)?;
        drawn = Some(f);
        if f < 0.001 {
            bail!(
                "{}: only {:.3} % of the pixels show the body",
                png.display(),
                100.0 * f
            );
        }
    }
    println!(
        "{}",
        serde_json::json!({"command": "view", "page": page, "drawn_fraction": drawn})
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `XPBD_REQUIRE_BROWSER=1` (set by `.ci/run`) turns a missing Chromium into a failure.
    fn chromium_or_skip(test: &str) -> bool {
        if Path::new(CHROMIUM).exists() {
            return true;
        }
        assert!(
            std::env::var("XPBD_REQUIRE_BROWSER").as_deref() != Ok("1"),
            "{test}: {CHROMIUM} is missing and XPBD_REQUIRE_BROWSER=1 (apt-get install chromium)"
        );
        eprintln!("{test}: skipped, {CHROMIUM} not found (apt-get install chromium)");
        false
    }

    /// Issue 8's browser check: a tiny scene (a 6 × 6 cloth pinned at two corners and a rope)
    /// is run and exported, `cargo xtask view`'s page is written and rendered by headless
    /// Chromium (SwiftShader WebGL), and the screenshot must show the body: ≥ 0.1 % of the
    /// pixels in the body's blue (the background, grid and control bar are not blue). The
    /// control, a blank page of the viewer's background colour, must count zero, so the
    /// measure cannot pass on an empty canvas.
    #[test]
    fn viewer_page_draws_the_exported_scene_in_headless_chromium() {
        let test = "viewer_page_draws_the_exported_scene_in_headless_chromium";
        if !chromium_or_skip(test) {
            return;
        }
        let dir = std::env::temp_dir().join(format!("xtask-viewer-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let text = "name = 'tiny'\n[time]\ndt = 0.01\nframes = 3\n\
            [materials.cotton]\ndensity = 200.0\nyoungs = 1e6\nthickness = 0.001\n\
            [[cloth]]\nmaterial = 'cotton'\nresolution = [6, 6]\nsize = [1.0, 1.0]\n\
            origin = [0.0, 0.0, 1.0]\npins = [[0, 0], [5, 0]]\n\
            [[rope]]\nmaterial = 'cotton'\nlinks = 5\nstart = [0.0, -0.2, 1.0]\nend = [1.0, -0.2, 1.0]\n\
            radius = 0.01\npin_start = true\n";
        let scene_path = dir.join("tiny.toml");
        let scene = xpbd_scene::SceneFile::parse(text, &scene_path).unwrap();
        let mut built = xpbd_scene::build_scene(scene, &scene_path).unwrap();
        let files = xpbd_scene::runner::run(&mut built, &dir, |_| {}).unwrap();
        assert_eq!(files, 4, "frames 0..=3 as VTK");
        let page = write_page(&dir).unwrap();
        let html = std::fs::read_to_string(&page).unwrap();
        // Self-contained: the frames and three.js are inline, no script is fetched.
        assert!(html.contains("\"frames\"") && !html.contains("<script src"));
        let png = dir.join("shot.png");
        let drawn = screenshot(&page, &png).unwrap();
        assert!(std::fs::metadata(&png).unwrap().len() > 1000);
        assert!(
            drawn > 0.001,
            "only {:.4} % of the pixels show the body",
            100.0 * drawn
        );
        let blank = dir.join("blank.html");
        std::fs::write(
            &blank,
            "<!doctype html><html><body style=\"margin:0;background:#f4f4f0\"></body></html>",
        )
        .unwrap();
        let control = screenshot(&blank, &dir.join("blank.png")).unwrap();
        assert_eq!(control, 0.0, "the blank control page counts body pixels");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A shorter run into the folder of a longer one: the page plays only the shorter run's
    /// frames (0, 1, 2), not the longer run's stale frames 3 and 4 left on disk (they used to be
    /// played as one sequence). A folder of frames without run.json is refused, naming it.
    #[test]
    fn page_plays_only_the_frames_of_the_last_run_in_the_folder() {
        let dir = std::env::temp_dir().join(format!("xtask-viewer-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let text = |frames: usize| {
            format!(
                "name = 'r'\n[time]\ndt = 0.01\nframes = {frames}\n\
                 [materials.steel]\ndensity = 7850.0\nyoungs = 2e11\n\
                 [[rope]]\nmaterial = 'steel'\nlinks = 4\nstart = [0.0, 0.0, 1.0]\n\
                 end = [1.0, 0.0, 1.0]\nradius = 0.001\npin_start = true\n"
            )
        };
        let path = dir.join("r.toml");
        for frames in [4, 2] {
            let scene = xpbd_scene::SceneFile::parse(&text(frames), &path).unwrap();
            let mut built = xpbd_scene::build_scene(scene, &path).unwrap();
            xpbd_scene::runner::run(&mut built, &dir, |_| {}).unwrap();
        }
        assert!(dir.join("frame_00004.vtk").exists());
        let shown: Vec<usize> = frame_files(&dir).unwrap().iter().map(|f| f.0).collect();
        assert_eq!(shown, [0, 1, 2]);
        let html = std::fs::read_to_string(write_page(&dir).unwrap()).unwrap();
        assert_eq!(html.matches("\"t\":").count(), 3);
        std::fs::remove_file(dir.join("run.json")).unwrap();
        let e = format!("{:#}", write_page(&dir).unwrap_err());
        assert!(
            e.contains(&dir.join("run.json").display().to_string()),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
