//! Running a scene and writing its frames.

use std::path::{Path, PathBuf};

use crate::build::BuiltScene;
use crate::error::{ExportError, RunError};
use crate::export::{write_obj, write_ply, write_vtk};
use crate::scene::Format;

/// `DIR/frame_NNNNN.EXT`.
pub fn frame_path(dir: &Path, frame: usize, ext: &str) -> PathBuf {
    dir.join(format!("frame_{frame:05}.{ext}"))
}

/// Writes the current frame in every format of the scene's `[output]` section.
pub fn write_frame(scene: &BuiltScene, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
    let p = scene.sim.particles();
    let mut written = Vec::new();
    for f in &scene.scene.output.formats {
        let path = match f {
            Format::Vtk => {
                let path = frame_path(dir, scene.frame, "vtk");
                let title = format!("{} t={}", scene.scene.name, scene.time());
                write_vtk(&path, &title, &scene.topology, p, &scene.particle_fields())?;
                path
            }
            Format::Ply => {
                let path = frame_path(dir, scene.frame, "ply");
                write_ply(&path, &scene.topology, p)?;
                path
            }
            Format::Obj => {
                let path = frame_path(dir, scene.frame, "obj");
                write_obj(&path, &scene.topology, p)?;
                path
            }
        };
        written.push(path);
    }
    Ok(written)
}

/// Runs the scene from its current frame to `scene.time.frames`, writing frame 0 (when
/// starting there) and every `output.every`-th frame into `dir`; `on_frame(frame)` is called
/// after each frame (for a progress bar).
pub fn run(
    scene: &mut BuiltScene,
    dir: &Path,
    mut on_frame: impl FnMut(usize),
) -> Result<usize, RunError> {
    std::fs::create_dir_all(dir).map_err(|e| ExportError::Io {
        file: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let every = scene.scene.output.every;
    let mut files = 0;
    if scene.frame == 0 {
        files += write_frame(scene, dir)?.len();
    }
    while scene.frame < scene.scene.time.frames {
        let frame = scene.frame + 1;
        scene
            .advance_frame()
            .map_err(|source| RunError::Step { frame, source })?;
        if scene.frame.is_multiple_of(every) {
            files += write_frame(scene, dir)?.len();
        }
        on_frame(scene.frame);
    }
    Ok(files)
}
