//! The GPU world's energy audit (module `audit`): a step, or a frame of XPBD bodies stepped
//! alone, that gains more mechanical energy than its tolerance allows is refused with
//! `StepError::EnergyGrowth`, and the scene keeps the last good state. The scenes gain a
//! little energy when a soft cloth strikes a collider (a few tenths of the step's energy at
//! most, within the default tolerance); a tolerance a thousand times tighter makes that gain
//! a divergence, which is how the refusal and the rollback are exercised here.

use std::path::Path;
use std::sync::Arc;

use xpbd_core::StepError;
use xpbd_gpu::{GpuContext, GpuError, GpuWorld, context_for_test};
use xpbd_scene::BuiltScene;

fn ctx(test: &str) -> Option<Arc<GpuContext>> {
    context_for_test(test)
        .expect("XPBD_REQUIRE_GPU is set but no GPU adapter")
        .map(Arc::new)
}

fn load(name: &str, max_energy_gain: f64) -> BuiltScene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../scenes/{name}.toml"));
    let mut scene = BuiltScene::load(&path).unwrap();
    let mut settings = scene.sim.settings().clone();
    settings.diagnostics.max_energy_gain = max_energy_gain;
    scene.sim.set_settings(settings).unwrap();
    scene
}

/// Frames until the world refuses one (at most `frames`): the error and the scene's state
/// before and after the refused frame.
fn run_until_refused(world: &mut GpuWorld, frames: usize) -> Option<GpuError> {
    for _ in 0..frames {
        let before = world.scene().sim.particles().x.clone();
        let time = world.scene().sim.time();
        if let Err(e) = world.advance_frame() {
            assert_eq!(
                world.scene().sim.particles().x,
                before,
                "the last good state is kept"
            );
            assert_eq!(world.scene().sim.time(), time);
            return Some(e);
        }
    }
    None
}

#[test]
fn a_cloth_frame_that_gains_energy_is_refused_and_rolled_back() {
    let Some(ctx) = ctx("a_cloth_frame_that_gains_energy_is_refused_and_rolled_back") else {
        return;
    };
    // Default tolerance: the sheet falls on the sphere and settles.
    let mut world = GpuWorld::new(ctx.clone(), load("soak_cloth_sphere", 1.0)).unwrap();
    assert_eq!(world.step_name(), "xpbd");
    assert!(run_until_refused(&mut world, 60).is_none());
    // A thousandfold tighter one: the impact's gain is refused.
    let mut world = GpuWorld::new(ctx, load("soak_cloth_sphere", 1e-3)).unwrap();
    let err = run_until_refused(&mut world, 60).expect("the impact gains energy");
    assert!(
        matches!(err, GpuError::Step(StepError::EnergyGrowth { .. })),
        "{err}"
    );
    // The device was put back: the next frame starts from the scene's state again.
    let time = world.scene().sim.time();
    let _ = world.advance_frame();
    assert!(world.scene().sim.time() >= time);
}

#[test]
fn a_coupled_step_that_gains_energy_is_refused_and_rolled_back() {
    let Some(ctx) = ctx("a_coupled_step_that_gains_energy_is_refused_and_rolled_back") else {
        return;
    };
    let mut world = GpuWorld::new(ctx.clone(), load("soak_sand_on_cloth", 1.0)).unwrap();
    assert_eq!(world.step_name(), "coupled");
    assert!(run_until_refused(&mut world, 6).is_none());
    let mut world = GpuWorld::new(ctx, load("soak_sand_on_cloth", 1e-7)).unwrap();
    let err = run_until_refused(&mut world, 60).expect("a step gains energy");
    // The scene steps adaptively: the refused step is retried at half its size until the
    // halvings run out.
    let energy = |e: &StepError| matches!(e, StepError::EnergyGrowth { .. });
    let refused = match &err {
        GpuError::Step(StepError::StepSizeExhausted { last, .. }) => energy(last),
        GpuError::Step(e) => energy(e),
        _ => false,
    };
    assert!(refused, "{err}");
}
