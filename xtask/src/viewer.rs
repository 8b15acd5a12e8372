//! `cargo xtask view DIR`: writes DIR/index.html, a self-contained three.js player of the
//! frames DIR/run.json lists (frame_NNNNN.vtk, else .ply; stale frames of an earlier run in
//! the same folder are not listed, so not shown), coloured by body or by a per-particle field,
//! and optionally screenshots it in headless Chromium and checks that something was drawn.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;
use xpbd_scene::export::{Topology, read_vtk, read_vtk_data};
use xpbd_scene::import::{ImportedMesh, read_ply};
use xpbd_scene::runner::RunManifest;

/// Debian's `chromium` package.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// The committed esbuild bundle of xtask/viewer/viewer.js + three.js (see its README).
const BUNDLE: &str = include_str!("../viewer/viewer.bundle.js");

/// Colours of the XPBD bodies (cloth, rope, soft body), in body order: blue, green, purple,
/// orange. Saturated, so a screenshot can tell them from the greys of the background and grid.
pub const STRUCTURE_COLOURS: [u32; 4] = [0x3070c0, 0x3a9a50, 0x7a50c0, 0xe07020];

/// Colours of the continua, in body order: sand, ice blue, clay red, olive.
pub const CONTINUUM_COLOURS: [u32; 4] = [0xd09a3a, 0x68a8e0, 0xb0503a, 0x8a9a30];

/// Colours of the fluids, in body order: water blues.
pub const FLUID_COLOURS: [u32; 2] = [0x2a7fd4, 0x1fb0c0];
/// Rigid bodies, greys and a dark red.
pub const RIGID_COLOURS: [u32; 3] = [0x707070, 0x9a3030, 0x4a4a58];

/// `cargo xtask view DIR [--color-by body|FIELD] [--frame K] [--screenshot PNG]`.
#[derive(Args, Debug)]
pub struct ViewArgs {
    /// Folder written by `cargo xtask run`.
    pub dir: PathBuf,
    /// What the particles' colour shows: `body` (one colour per body, with a legend), or a
    /// VTK point field of the frames: `det_F`, `hardening`, `volume_correction`, `lambda`,
    /// `speed` (|velocity|, m/s), `material_id`.
    #[arg(long, default_value = "body")]
    pub color_by: String,
    /// The output shown in the screenshot (0-based; default: the last).
    #[arg(long)]
    pub frame: Option<usize>,
    /// Render the page in headless Chromium (/usr/bin/chromium) to this PNG and fail unless
    /// at least 0.1 % of its pixels show a body (a saturated colour, not the greys of the
    /// background and grid).
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
}

/// A `cargo xtask view` argument that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// `--frame K` beyond the outputs the run wrote.
    #[error(
        "--frame {frame}: {} lists {count} frames (outputs 0 to {}, or leave --frame out for the last)",
        dir.join("run.json").display(),
        count - 1
    )]
    FrameOutOfRange {
        /// The output asked for (0-based).
        frame: usize,
        /// Outputs the run lists (at least 1).
        count: usize,
        /// The run's folder.
        dir: PathBuf,
    },
    /// `--screenshot PNG` into a folder that does not exist (Chromium would fail to write it
    /// and still exit 0).
    #[error("--screenshot {}: the folder {} does not exist", png.display(), folder.display())]
    ScreenshotFolderMissing {
        /// The PNG asked for.
        png: PathBuf,
        /// Its folder.
        folder: PathBuf,
    },
}

fn load_frame(path: &Path) -> Result<ImportedMesh> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let name = path.display().to_string();
    Ok(match path.extension().and_then(|e| e.to_str()) {
        Some("vtk") => read_vtk(&bytes, &name)?,
        _ => read_ply(&bytes, &name)?,
    })
}

/// The per-particle values of `field` in the VTK frame `path` (`speed`: |velocity|).
fn load_field(path: &Path, field: &str, n: usize) -> Result<Vec<f64>> {
    if path.extension().and_then(|e| e.to_str()) != Some("vtk") {
        bail!("{}: colouring by {field} needs VTK frames", path.display());
    }
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let data = read_vtk_data(&bytes, &path.display().to_string())?;
    let values = if field == "speed" {
        let v = data
            .point
            .get("velocity")
            .context("no velocity in the frame")?;
        v.chunks_exact(3)
            .map(|c| (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt())
            .collect()
    } else {
        let known: Vec<&str> = data.point.keys().map(String::as_str).collect();
        data.point
            .get(field)
            .with_context(|| {
                format!(
                    "{}: no point field {field:?} (the frame has: speed, {})",
                    path.display(),
                    known.join(", ")
                )
            })?
            .clone()
    };
    if values.len() != n {
        bail!(
            "{}: {field} has {} values for {n} points",
            path.display(),
            values.len()
        );
    }
    Ok(values)
}

/// For each frame of `frames`, the `rigid_NNNNN.vtk` the manifest lists with it (a run with
/// rigid bodies writes one per frame), or `None`.
fn rigid_files(
    dir: &Path,
    manifest: &RunManifest,
    frames: &[(usize, PathBuf)],
) -> Vec<Option<PathBuf>> {
    frames
        .iter()
        .map(|(frame, _)| {
            let want = format!("rigid_{frame:05}.vtk");
            manifest
                .written
                .iter()
                .find(|w| w.frame == *frame)
                .and_then(|w| w.files.iter().find(|f| **f == want))
                .map(|f| dir.join(f))
        })
        .collect()
}

/// The body names of a pose table (`rigid_NNNNN.csv`, first column), in body order.
fn rigid_names(csv: &Path) -> Vec<String> {
    std::fs::read_to_string(csv)
        .map(|t| {
            t.lines()
                .skip(1)
                .filter_map(|l| l.split(',').next().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The frames DIR's run manifest (DIR/run.json, written by `cargo xtask run`) lists, as
/// (simulation frame, path), VTK if the run wrote VTK, else PLY. Frame files that the
/// manifest does not list (left by an earlier run) are not returned; a folder without a
/// manifest is refused.
pub fn frame_files(dir: &Path) -> Result<Vec<(usize, PathBuf)>> {
    let manifest = load_manifest(dir)?;
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

fn load_manifest(dir: &Path) -> Result<RunManifest> {
    RunManifest::load(dir)
        .context("the viewer plays the frames listed in run.json (written by `cargo xtask run`)")
}

fn hex(c: u32) -> String {
    format!("#{c:06x}")
}

/// The `q`-quantile of `v` (sorted copy; `q` in [0, 1]).
fn quantile(v: &[f64], q: f64) -> f64 {
    let mut s: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if s.is_empty() {
        return 0.0;
    }
    s.sort_by(f64::total_cmp);
    s[((s.len() - 1) as f64 * q).round() as usize]
}

/// Writes DIR/index.html, playing the frames of [`frame_files`] coloured by `color_by`
/// (`body` or a point field, see [`ViewArgs::color_by`]); returns its path.
pub fn write_page(dir: &Path, color_by: &str) -> Result<PathBuf> {
    let manifest = load_manifest(dir)?;
    let frames = frame_files(dir)?;
    let first = &frames[0].1;
    let mesh = load_frame(first)?;
    let n = mesh.vertices.len();
    let topo = Topology {
        triangles: mesh.triangles.clone(),
        tets: mesh.tets.clone(),
        ..Topology::default()
    };
    let surface = topo.surface_triangles();
    let mut triangles: Vec<usize> = surface.iter().flatten().copied().collect();
    // Rigid bodies: each frame's `rigid_NNNNN.vtk` surfaces drawn after the particles.
    let rigid_frames = rigid_files(dir, &manifest, &frames);
    let rigid_first = match rigid_frames.first() {
        Some(Some(p)) => Some(load_frame(p)?),
        _ => None,
    };
    let n_rigid = rigid_first.as_ref().map_or(0, |m| m.vertices.len());
    if let Some(r) = &rigid_first {
        triangles.extend(r.triangles.iter().flatten().map(|&i| i + n));
    }
    let segments: Vec<usize> = mesh.segments.iter().flatten().copied().collect();
    // Sphere radius and colour per particle, from the manifest's bodies (XPBD bodies and
    // continua in two palettes); particles of no listed body get a radius from the extent of
    // the first frame and the first colour.
    let (lo, hi) = mesh.vertices.iter().fold(
        (
            xpbd_core::Vector::<3>::repeat(f64::INFINITY),
            xpbd_core::Vector::<3>::repeat(f64::NEG_INFINITY),
        ),
        |(lo, hi), v| (lo.inf(v), hi.sup(v)),
    );
    let fallback = 0.004 * (hi - lo).norm().max(1e-6);
    let mut radius = vec![fallback as f32; n + n_rigid];
    let mut body_colour = vec![STRUCTURE_COLOURS[0]; n + n_rigid];
    let mut legend = Vec::new();
    let (mut structures, mut continua, mut fluids) = (0, 0, 0);
    for b in &manifest.bodies {
        let colour = if b.kind == "continuum" {
            continua += 1;
            CONTINUUM_COLOURS[(continua - 1) % CONTINUUM_COLOURS.len()]
        } else if b.kind == "fluid" {
            fluids += 1;
            FLUID_COLOURS[(fluids - 1) % FLUID_COLOURS.len()]
        } else {
            structures += 1;
            STRUCTURE_COLOURS[(structures - 1) % STRUCTURE_COLOURS.len()]
        };
        for i in b.first..(b.first + b.count).min(n) {
            radius[i] = b.radius as f32;
            body_colour[i] = colour;
        }
        legend.push(serde_json::json!({ "name": b.name, "color": hex(colour) }));
    }
    if let (Some(Some(path)), Some(r)) = (rigid_frames.first(), &rigid_first) {
        let ids = load_field(path, "material_id", n_rigid)?;
        let names = rigid_names(&path.with_extension("csv"));
        for (k, name) in names.iter().enumerate() {
            let colour = RIGID_COLOURS[k % RIGID_COLOURS.len()];
            legend.push(serde_json::json!({ "name": name, "color": hex(colour) }));
        }
        for (i, id) in ids.iter().enumerate() {
            body_colour[n + i] = RIGID_COLOURS[*id as usize % RIGID_COLOURS.len()];
        }
        debug_assert_eq!(r.vertices.len(), n_rigid);
    }
    let mut in_surface = vec![false; n + n_rigid];
    triangles.iter().for_each(|&i| in_surface[i] = true);
    let free: Vec<usize> = (0..n).filter(|&i| !in_surface[i]).collect();
    let by_field = color_by != "body";
    let mut json_frames = Vec::new();
    let mut all_values = Vec::new();
    for (k, (index, path)) in frames.iter().enumerate() {
        let mut m = load_frame(path)?;
        if m.vertices.len() != n {
            bail!(
                "{}: {} points, the first frame has {}",
                path.display(),
                m.vertices.len(),
                n
            );
        }
        if n_rigid > 0 {
            match rigid_frames.get(k) {
                Some(Some(r)) => {
                    let r = load_frame(r)?;
                    if r.vertices.len() != n_rigid {
                        bail!("{}: rigid surfaces changed size", path.display());
                    }
                    m.vertices.extend(r.vertices);
                }
                _ => bail!("{}: no rigid_*.vtk beside it", path.display()),
            }
        }
        // f32 is what WebGL draws, and keeps the page small. `t` is the simulation frame number.
        let x: Vec<f32> = m
            .vertices
            .iter()
            .flat_map(|v| [v.x as f32, v.y as f32, v.z as f32])
            .collect();
        let mut frame = serde_json::json!({ "t": index, "x": x });
        if by_field {
            let s = load_field(path, color_by, n)?;
            all_values.extend_from_slice(&s);
            // Rigid bodies carry no particle field: drawn at the low end of the ramp.
            let low = s.iter().copied().fold(f64::INFINITY, f64::min);
            let s: Vec<f32> = (s.iter().copied())
                .chain(std::iter::repeat_n(low, n_rigid))
                .map(|v| v as f32)
                .collect();
            frame["s"] = serde_json::json!(s);
        }
        json_frames.push(frame);
    }
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut data = serde_json::json!({
        "name": name, "triangles": triangles, "segments": segments, "frames": json_frames,
        "free": free, "radius": radius, "legend": legend,
    });
    if by_field {
        // The 1st–99th percentile range, so a few outliers do not wash the ramp out.
        let (lo, hi) = (quantile(&all_values, 0.01), quantile(&all_values, 0.99));
        data["field"] = serde_json::json!({ "name": color_by, "range": [lo, hi.max(lo + 1e-12)] });
    } else {
        let color: Vec<f32> = body_colour
            .iter()
            .flat_map(|c| [(c >> 16) & 255, (c >> 8) & 255, c & 255].map(|b| b as f32 / 255.0))
            .collect();
        data["color"] = serde_json::json!(color);
    }
    // `</` cannot appear inside a script element.
    let data = data.to_string().replace("</", "<\\/");
    let html = format!(
        r#"<!doctype html>
<html><head><meta charset="utf-8"><title>{name} — xpbd frames</title>
<style>html,body{{margin:0;height:100%;overflow:hidden;font:14px system-ui,sans-serif}}
#bar{{position:fixed;left:0;right:0;bottom:0;display:flex;gap:8px;align-items:center;padding:6px 10px;background:rgba(255,255,255,.85)}}
#legend{{position:fixed;left:10px;top:8px;padding:4px 8px;background:rgba(255,255,255,.85)}}
#frame{{flex:1}}</style></head>
<body><div id="legend"></div><div id="bar"><button id="play">pause</button><input id="frame" type="range" min="0" value="0"><span id="info"></span></div>
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

/// Headless Chromium screenshot of `page` (at output `frame`, paused, when given; else the page
/// as it first draws); returns the fraction of pixels that show a body: a saturated colour
/// (max − min channel > 40), which the background (0xf4f4f0), the grey grid and the control
/// bar are not, so an empty scene counts 0. The top and bottom 40 px (the legend and the
/// control bar) are skipped.
pub fn screenshot(page: &Path, png: &Path, frame: Option<&str>) -> Result<f64> {
    let folder = match png.parent() {
        Some(f) if !f.as_os_str().is_empty() => f,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(ViewError::ScreenshotFolderMissing {
            png: png.to_path_buf(),
            folder: folder.to_path_buf(),
        }
        .into());
    }
    let profile = std::env::temp_dir().join(format!("xtask-view-{}", std::process::id()));
    let page =
        std::fs::canonicalize(page).with_context(|| format!("finding {}", page.display()))?;
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
            std::path::absolute(png)
                .with_context(|| format!("the absolute path of {}", png.display()))?
                .display()
        ))
        .arg(format!(
            "file://{}{}",
            page.display(),
            frame.map_or(String::new(), |f| format!("#frame={f}"))
        ))
        .status()
        .context("starting /usr/bin/chromium (apt-get install chromium)")?;
    let _ = std::fs::remove_dir_all(&profile);
    if !status.success() {
        bail!("chromium exited with {status}");
    }
    let (count, channels, band) = screenshot_band(png)?;
    let drawn = band
        .chunks_exact(channels)
        .filter(|p| p[..3].iter().max().unwrap() - p[..3].iter().min().unwrap() > 40)
        .count();
    Ok(drawn as f64 / count.max(1) as f64)
}

/// The pixels of a screenshot between the legend and the control bar (its top and bottom
/// 40 px cut off): their count, the channels per pixel, and their bytes.
fn screenshot_band(png: &Path) -> Result<(usize, usize, Vec<u8>)> {
    let file = std::fs::File::open(png).with_context(|| {
        format!(
            "reading {}, the screenshot chromium was to write",
            png.display()
        )
    })?;
    let mut reader = ::png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .with_context(|| format!("decoding {}", png.display()))?;
    let mut buf = vec![0; reader.output_buffer_size().context("PNG too large")?];
    let info = reader.next_frame(&mut buf)?;
    let channels = info.color_type.samples();
    let rows = (info.height as usize).saturating_sub(80);
    let stride = info.width as usize * channels;
    let band = buf.get(40 * stride..(40 + rows) * stride).unwrap_or(&[]);
    Ok((rows * info.width as usize, channels, band.to_vec()))
}

/// `cargo xtask view`.
pub fn view_command(args: ViewArgs) -> Result<()> {
    let count = frame_files(&args.dir)?.len();
    if let Some(frame) = args.frame.filter(|&k| k >= count) {
        return Err(ViewError::FrameOutOfRange {
            frame,
            count,
            dir: args.dir.clone(),
        }
        .into());
    }
    let page = write_page(&args.dir, &args.color_by)?;
    let mut drawn = None;
    if let Some(png) = &args.screenshot {
        let frame = args.frame.map_or("last".to_string(), |k| k.to_string());
        let f = screenshot(&page, png, Some(&frame))?;
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

    /// Fractions of the pixels between the legend and the control bar that are blue
    /// (b − r > 40, b > g) and green (g above both r and b by 40).
    fn hue_fractions(png: &Path) -> (f64, f64) {
        let (count, channels, pixels) = screenshot_band(png).unwrap();
        let (mut blue, mut green) = (0usize, 0usize);
        for p in pixels.chunks_exact(channels) {
            let (r, g, b) = (p[0] as i32, p[1] as i32, p[2] as i32);
            blue += (b - r > 40 && b > g) as usize;
            green += (g - r > 40 && g - b > 40) as usize;
        }
        (blue as f64 / count as f64, green as f64 / count as f64)
    }

    /// The browser check: a tiny scene (a 6 × 6 cloth pinned at two corners and a rope)
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
        let scene = xpbd_scene::SceneDesc::parse(text, &scene_path).unwrap();
        let mut built = xpbd_scene::build_scene(scene, &scene_path).unwrap();
        let files = xpbd_scene::runner::run(&mut built, &dir, |_| {}).unwrap();
        assert_eq!(files, 4, "frames 0..=3 as VTK");
        let page = write_page(&dir, "body").unwrap();
        let html = std::fs::read_to_string(&page).unwrap();
        // Self-contained: the frames and three.js are inline, no script is fetched.
        assert!(html.contains("\"frames\"") && !html.contains("<script src"));
        let png = dir.join("shot.png");
        let drawn = screenshot(&page, &png, Some("last")).unwrap();
        assert!(std::fs::metadata(&png).unwrap().len() > 1000);
        assert!(
            drawn > 0.001,
            "only {:.4} % of the pixels show the body",
            100.0 * drawn
        );
        // Coloured by body: the cloth (first XPBD body) in blue, the rope (second) in green.
        let (blue, green) = hue_fractions(&png);
        assert!(blue > 0.001 && green > 0.0002, "blue {blue}, green {green}");
        // Coloured by a field: the page carries it per frame; an unknown one is refused by name.
        let html = std::fs::read_to_string(write_page(&dir, "speed").unwrap()).unwrap();
        assert!(html.contains("\"field\":{\"name\":\"speed\""));
        let e = format!("{:#}", write_page(&dir, "plastic").unwrap_err());
        assert!(e.contains("\"plastic\"") && e.contains("inv_mass"), "{e}");
        let blank = dir.join("blank.html");
        std::fs::write(
            &blank,
            "<!doctype html><html><body style=\"margin:0;background:#f4f4f0\"></body></html>",
        )
        .unwrap();
        let control = screenshot(&blank, &dir.join("blank.png"), None).unwrap();
        assert_eq!(control, 0.0, "the blank control page counts body pixels");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `--frame 999` of a run of 5 outputs, and `--screenshot` into a folder that does not
    /// exist, are refused as typed errors naming the frame count and the folder (the first was
    /// accepted, the second failed as a bare "No such file or directory" after Chromium ran),
    /// and a VTK frame cut in half is refused naming the file (it played, without its data).
    /// No browser is needed: each is refused before Chromium would start.
    #[test]
    fn view_refuses_a_frame_out_of_range_a_missing_folder_and_a_cut_frame_by_name() {
        let dir = std::env::temp_dir().join(format!("xtask-viewer-refuse-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let text = "name = 'r'\n[time]\ndt = 0.01\nframes = 4\n\
                    [materials.steel]\ndensity = 7850.0\nyoungs = 2e11\n\
                    [[rope]]\nmaterial = 'steel'\nlinks = 4\nstart = [0.0, 0.0, 1.0]\n\
                    end = [1.0, 0.0, 1.0]\nradius = 0.001\npin_start = true\n";
        let path = dir.join("r.toml");
        let scene = xpbd_scene::SceneDesc::parse(text, &path).unwrap();
        let mut built = xpbd_scene::build_scene(scene, &path).unwrap();
        assert_eq!(
            xpbd_scene::runner::run(&mut built, &dir, |_| {}).unwrap(),
            5
        );
        let args = |frame: Option<usize>, screenshot: Option<PathBuf>| ViewArgs {
            dir: dir.clone(),
            color_by: "body".into(),
            frame,
            screenshot,
        };
        let e = view_command(args(Some(999), None)).unwrap_err();
        assert!(
            matches!(
                e.downcast_ref::<ViewError>(),
                Some(ViewError::FrameOutOfRange {
                    frame: 999,
                    count: 5,
                    ..
                })
            ),
            "{e:#}"
        );
        let shown = format!("{e:#}");
        assert!(
            shown.contains("--frame 999") && shown.contains("lists 5 frames (outputs 0 to 4"),
            "{shown}"
        );
        view_command(args(Some(4), None)).unwrap();
        let folder = dir.join("no").join("such");
        let png = folder.join("shot.png");
        let e = view_command(args(None, Some(png.clone()))).unwrap_err();
        assert!(
            matches!(
                e.downcast_ref::<ViewError>(),
                Some(ViewError::ScreenshotFolderMissing { folder: f, .. }) if *f == folder
            ),
            "{e:#}"
        );
        let shown = format!("{e:#}");
        assert!(
            shown.contains(&png.display().to_string()) && shown.contains("does not exist"),
            "{shown}"
        );
        let cut = dir.join("frame_00002.vtk");
        let bytes = std::fs::read(&cut).unwrap();
        std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
        let e = view_command(args(None, None)).unwrap_err();
        assert!(
            matches!(
                e.downcast_ref::<xpbd_scene::ImportError>(),
                Some(xpbd_scene::ImportError::Malformed { .. })
            ),
            "{e:#}"
        );
        let shown = format!("{e:#}");
        assert!(
            shown.contains(&cut.display().to_string()) && shown.contains("cut short"),
            "{shown}"
        );
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
            let scene = xpbd_scene::SceneDesc::parse(&text(frames), &path).unwrap();
            let mut built = xpbd_scene::build_scene(scene, &path).unwrap();
            xpbd_scene::runner::run(&mut built, &dir, |_| {}).unwrap();
        }
        assert!(dir.join("frame_00004.vtk").exists());
        let shown: Vec<usize> = frame_files(&dir).unwrap().iter().map(|f| f.0).collect();
        assert_eq!(shown, [0, 1, 2]);
        let html = std::fs::read_to_string(write_page(&dir, "body").unwrap()).unwrap();
        assert_eq!(html.matches("\"t\":").count(), 3);
        std::fs::remove_file(dir.join("run.json")).unwrap();
        let e = format!("{:#}", write_page(&dir, "body").unwrap_err());
        assert!(
            e.contains(&dir.join("run.json").display().to_string()),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
