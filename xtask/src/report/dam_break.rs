//! The dam-break section of the report: the position-based fluid's surge front against Martin
//! & Moyce (1952) in their variables (Z = z/a against T = t √(2g/a)), at three resolutions
//! and at half the step at the finest (`xpbi_validation::dam_break`), and the 3D dam break built
//! from a scene description at a/20 (`xtask::dam_break_3d`).

use std::path::Path;

use anyhow::Result;
use xpbi_validation::dam_break::{
    DAM_BREAK_DT, MARTIN_MOYCE_A225, dam_break_front, dam_break_front_at,
};

use crate::plot::{Curve, plot};

/// Spacings a/res of the resolution series.
const RESOLUTIONS: [f64; 3] = [10.0, 20.0, 40.0];

/// Runs the series and writes the plot into `dir`; returns the plot's file name.
pub fn dam_break_figure(dir: &Path) -> Result<String> {
    // A run's fronts at the measured instants as a curve.
    let run = |label: String, z: Vec<f64>, dashed: bool| Curve {
        label,
        points: MARTIN_MOYCE_A225
            .iter()
            .zip(&z)
            .map(|(&(t, _), &z)| (t, z))
            .collect(),
        dashed,
    };
    let mut curves = Vec::new();
    for res in RESOLUTIONS {
        let z = dam_break_front(res, 0)?;
        curves.push(run(format!("position-based fluid, Δx = a/{res}"), z, false));
    }
    let finest = RESOLUTIONS[RESOLUTIONS.len() - 1];
    let z = dam_break_front_at(finest, 0.5 * DAM_BREAK_DT, 0)?;
    curves.push(run(
        format!("position-based fluid, Δx = a/{finest}, Δt/2"),
        z,
        true,
    ));
    let z = xtask::dam_break_3d::dam_break_front_3d(20.0, 0)?;
    curves.push(run(
        "position-based fluid in 3D from a scene description, Δx = a/20".into(),
        z,
        true,
    ));
    curves.push(Curve {
        label: "Martin & Moyce (1952), a = 2.25 in, n² = 2".into(),
        points: MARTIN_MOYCE_A225.to_vec(),
        dashed: true,
    });
    let name = "dam_break.svg".to_string();
    plot(
        &dir.join(&name),
        "Dam break: surge front on a dry bed",
        "T = t √(2g/a)",
        "Z = z/a",
        &curves,
        false,
    )?;
    Ok(name)
}
