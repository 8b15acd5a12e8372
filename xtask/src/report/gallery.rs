//! The gallery of coupled scenes: each scene file is run through the same runner as
//! `cargo xtask run`, its frames are played by the viewer's own three.js page
//! (`cargo xtask view`) and rendered by headless Chromium: shaded spheres for the grains, a
//! shaded surface for cloth and rigid bodies, coloured by body and by a per-particle field.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use xpbd_scene::runner::RunManifest;
use xpbd_scene::{SceneDesc, build_scene};

use crate::viewer::{CHROMIUM, screenshot, write_page};

/// A gallery scene: its file (in `scenes/`) and the field its last picture is coloured by.
const SCENES: [(&str, &str); 12] = [
    ("sand_hammock", "hardening"),
    ("cloth_on_sand_heap", "hardening"),
    ("snowball_into_sand", "hardening"),
    ("layered_bank", "material_id"),
    ("paste_on_sheet", "speed"),
    ("dam_break", "pressure"),
    ("water_hammock", "pressure"),
    ("sand_dam_breach", "speed"),
    ("stone_into_sand", "speed"),
    ("crate_on_sand", "hardening"),
    ("sand_cart", "speed"),
    ("cloth_over_crate", "speed"),
];

/// Frames a quick-tier gallery scene runs to: its start only.
const QUICK_FRAMES: usize = 1;

/// One rendered picture.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Shot {
    /// PNG file name, in the report folder.
    pub file: String,
    /// Simulated time shown (s).
    pub t: f64,
    /// `body` or the field the particles are coloured by.
    pub colour: String,
    /// Fraction of the picture's pixels that show a body.
    pub drawn: f64,
}

/// One scene of the gallery.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GalleryScene {
    /// `scenes/NAME.toml`.
    pub file: String,
    /// The scene's `description`.
    pub description: String,
    /// Particles.
    pub particles: usize,
    /// Bodies, by name.
    pub bodies: Vec<String>,
    /// Simulated seconds run.
    pub simulated_s: f64,
    /// Wall seconds of the run (frames written included, pictures not).
    pub wall_s: f64,
    /// Pictures, in time order, then the field-coloured one.
    pub shots: Vec<Shot>,
}

/// Runs every gallery scene into `out/gallery/NAME/` and renders it into `out`; in the quick
/// tier only the first frame of each is run. Needs Chromium (`Err` naming it otherwise).
pub fn gallery(out: &Path, quick: bool) -> Result<Vec<GalleryScene>> {
    if !Path::new(CHROMIUM).exists() {
        anyhow::bail!("{CHROMIUM} not found (apt-get install chromium)");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes");
    let mut rows = Vec::new();
    for (stem, field) in SCENES {
        eprintln!("gallery: {stem}");
        let path = root.join(format!("{stem}.toml"));
        let mut scene = SceneDesc::load(&path)?;
        if quick {
            scene.time.frames = QUICK_FRAMES;
            scene.output.every = 1;
        }
        scene.output.formats = vec![xpbd_scene::scene::Format::Vtk];
        let frame_s = scene.time.dt * scene.time.steps_per_frame as f64;
        let description = scene.description.clone();
        let mut built = build_scene(scene, &path)?;
        let dir = out.join("gallery").join(stem);
        let start = Instant::now();
        xpbd_scene::runner::run(&mut built, &dir, |_| {})
            .with_context(|| format!("running {}", path.display()))?;
        let wall_s = start.elapsed().as_secs_f64();
        let manifest = RunManifest::load(&dir)?;
        let written: Vec<usize> = manifest.written.iter().map(|w| w.frame).collect();
        let last = written.len() - 1;
        let mut picks = vec![0, last / 2, last];
        picks.dedup();
        let mut shots = Vec::new();
        let page = write_page(&dir, "body")?;
        for k in picks {
            let file = format!("gallery-{stem}-{k}.png");
            let drawn = screenshot(&page, &out.join(&file), Some(&k.to_string()))?;
            shots.push(Shot {
                file,
                t: written[k] as f64 * frame_s,
                colour: "body".into(),
                drawn,
            });
        }
        let page = write_page(&dir, field)?;
        let file = format!("gallery-{stem}-{field}.png");
        let drawn = screenshot(&page, &out.join(&file), Some("last"))?;
        shots.push(Shot {
            file,
            t: written[last] as f64 * frame_s,
            colour: field.into(),
            drawn,
        });
        // The body-coloured page is the one left to open by hand.
        write_page(&dir, "body")?;
        rows.push(GalleryScene {
            file: format!("scenes/{stem}.toml"),
            description,
            particles: built.sim.particles().len(),
            bodies: built.bodies.iter().map(|b| b.name.clone()).collect(),
            simulated_s: built.frame as f64 * frame_s,
            wall_s,
            shots,
        });
    }
    Ok(rows)
}

/// The report's gallery section.
pub fn write_gallery_section(m: &mut String, rows: &[GalleryScene], quick: bool) {
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(m, "## Gallery: bodies touching bodies\n");
    let _ = writeln!(
        m,
        "Each scene file is run by the same runner as `cargo xtask run`, played by the viewer's three.js page (`cargo xtask view DIR`, open `gallery/NAME/index.html`) and rendered in headless Chromium: grains as shaded spheres of their contact radius, cloth and rigid bodies as shaded surfaces, coloured by body (legend at the top left), the last picture by a per-particle field (ramp from its 1st to 99th percentile).{}\n",
        if quick {
            " Quick tier: the first frame of each scene only; the full tier runs them to the end."
        } else {
            ""
        }
    );
    for r in rows {
        let _ = writeln!(
            m,
            "### `{}`\n\n{}. Bodies: {}; {} particles; {:.2} s simulated in {:.1} s wall. Reproduce: `cargo xtask run {} --out DIR && cargo xtask view DIR`.\n",
            r.file,
            r.description,
            r.bodies.join(", "),
            r.particles,
            r.simulated_s,
            r.wall_s,
            r.file
        );
        let row: Vec<String> = r
            .shots
            .iter()
            .map(|s| {
                let what = if s.colour == "body" {
                    "coloured by body".to_string()
                } else {
                    format!("coloured by {}", s.colour)
                };
                format!("![t = {:.2} s, {what}]({})", s.t, s.file)
            })
            .collect();
        let _ = writeln!(m, "{}\n", row.join(" "));
        let _ = writeln!(
            m,
            "*{}: t = {}; coloured by body, the last by {}.*\n",
            r.file,
            r.shots
                .iter()
                .map(|s| format!("{:.2} s", s.t))
                .collect::<Vec<_>>()
                .join(", "),
            r.shots.last().map_or("", |s| s.colour.as_str())
        );
    }
}
