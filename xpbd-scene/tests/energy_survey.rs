//! The energy audit's measure over every scene file: the largest gain of a step, beyond the
//! work done from outside and the noise floor, as a fraction of the energy it had to work with
//! (`StepReport::energy_gain`; a step is refused above `Diagnostics::max_energy_gain`, 1 by
//! default). The figure that sets the default's margin, printed per scene.
mod common;

use xpbd_scene::BuiltScene;

#[test]
#[ignore = "a survey of every scene file (minutes): cargo test -p xpbd-scene --release --test energy_survey -- --ignored --nocapture"]
fn largest_energy_gain_of_every_scene_file() {
    let steps: usize = std::env::var("XPBD_SURVEY_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let mut worst: (String, f64) = (String::new(), f64::NEG_INFINITY);
    for path in common::scene_files() {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let mut s = BuiltScene::load(&path).unwrap_or_else(|e| panic!("{e}"));
        for k in 0..steps {
            s.step().unwrap_or_else(|e| panic!("{name}: step {k}: {e}"));
        }
        let gain = s.steps.max_energy_gain;
        println!("{name:<28} {steps} steps: largest energy gain {gain:?}");
        if let Some(g) = gain
            && g > worst.1
        {
            worst = (name, g);
        }
    }
    println!("largest over the scene files: {:.3} ({})", worst.1, worst.0);
    assert!(worst.1 < 1.0);
}
