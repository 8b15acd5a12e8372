//! One description for every way of building a scene: scene files and the Rust builder give
//! the same [`SceneDesc`], which round-trips through TOML, is validated with the scene file's
//! typed errors, and builds the same simulation.
mod common;

use std::path::Path;

use xpbd_core::Simulation;
use xpbd_scene::continuum::{ContinuumSpec, Preset};
use xpbd_scene::region::RegionSpec;
use xpbd_scene::scene::{BendingModel, ClothSpec, ColliderSpec, MaterialSpec, OutputSection};
use xpbd_scene::{BuiltScene, FromDesc, SceneDesc, SceneError};

#[test]
fn every_scene_file_round_trips_description_to_toml_to_description() {
    for path in common::scene_files() {
        let desc = SceneDesc::load(&path).unwrap();
        let text = desc.to_toml().unwrap();
        let back = SceneDesc::parse(&text, &path).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, desc, "{}", path.display());
    }
}

/// `scenes/cloth_on_sand_heap.toml` written with the builder.
fn heap_by_builder() -> SceneDesc {
    let mut solver = xpbd_scene::scene::SolverSection {
        velocity_damping: 1.0,
        ..Default::default()
    };
    (solver.substeps, solver.iterations) = (4, 5);
    SceneDesc::builder("cloth on sand heap", 1e-3, 40)
        .description("cotton sheet draped over a slumping XPBI sand heap")
        .steps_per_frame(20)
        .solver(solver)
        .material(
            "cotton",
            MaterialSpec::sheet(1500.0, 5e8, 5e-4).with_bending(1e-6),
        )
        .material("sand", MaterialSpec::preset(Preset::Sand))
        .continuum(
            ContinuumSpec::new("sand", RegionSpec::cylinder([0.0; 3], 0.08, 0.06), 0.01)
                .named("heap"),
        )
        .cloth(
            ClothSpec::grid("cotton", [20, 20], [0.4, 0.4], [-0.2, -0.2, 0.1])
                .with_bending(BendingModel::Isometric)
                .named("sheet"),
        )
        .collider(ColliderSpec::ground(0.0, 0.6))
        .contact_radius(0.004)
        .output(OutputSection {
            every: 2,
            ..Default::default()
        })
        .build()
        .unwrap()
}

#[test]
fn the_builder_and_the_scene_file_give_the_same_description_and_simulation() {
    let path = common::scenes_dir().join("cloth_on_sand_heap.toml");
    let file = SceneDesc::load(&path).unwrap();
    let built = heap_by_builder();
    assert_eq!(built, file);
    // Same description, same simulation: ten steps agree bit for bit.
    let mut a = BuiltScene::load(&path).unwrap();
    let mut b = BuiltScene::from_desc(built).unwrap();
    for _ in 0..10 {
        a.step().unwrap();
        b.step().unwrap();
    }
    assert!(a.sim.particles().x.len() > 400);
    assert_eq!(a.sim.particles().x, b.sim.particles().x);
    assert_eq!(a.sim.particles().v, b.sim.particles().v);
}

#[test]
fn a_description_written_in_rust_is_refused_with_the_scene_file_s_typed_error() {
    // The builder validates: field path and value, as for a file.
    let bad = SceneDesc::builder("bad", 1e-3, 1)
        .material("sand", MaterialSpec::preset(Preset::Sand))
        .continuum(ContinuumSpec::new(
            "sand",
            RegionSpec::ball([0.0; 3], 0.05),
            -0.01,
        ))
        .build()
        .unwrap_err();
    let SceneError::InvalidValue { field, value, .. } = &bad else {
        panic!("{bad}")
    };
    assert_eq!(
        (field.as_str(), value.as_str()),
        ("continuum[0].spacing", "-0.01")
    );
    // A description edited after `build` is validated again by every builder of a simulation.
    let mut desc = heap_by_builder();
    desc.cloth[0].resolution = [1, 20];
    for e in [
        BuiltScene::from_desc(desc.clone()).unwrap_err(),
        Simulation::<3>::from_desc(&desc).unwrap_err(),
        xpbd_scene::build_scene(desc.clone(), Path::new("heap.toml")).unwrap_err(),
    ] {
        let SceneError::InvalidValue { field, .. } = &e else {
            panic!("{e}")
        };
        assert_eq!(field, "cloth[0].resolution[0]", "{e}");
    }
}

#[test]
fn a_bare_simulation_builds_from_a_description_and_refuses_what_only_the_frame_driver_moves() {
    let desc = heap_by_builder();
    let mut sim = Simulation::<3>::from_desc(&desc).unwrap();
    let mut scene = BuiltScene::from_desc(desc.clone()).unwrap();
    // Without grips or nozzles the frame driver adds nothing to the simulation's own step.
    for _ in 0..3 {
        sim.advance(desc.time.dt, &desc.time.stepping(), |_, _| {})
            .unwrap();
        scene.step().unwrap();
    }
    assert_eq!(sim.particles().x, scene.sim.particles().x);
    // Grips would stand still in a bare simulation: refused by field.
    let stretch = SceneDesc::load(&common::scenes_dir().join("clay_bar_stretch.toml")).unwrap();
    let e = Simulation::<3>::from_desc(&stretch).unwrap_err();
    let SceneError::NeedsFrameDriver { field, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!(field, "continuum[0].grips");
    assert!(e.to_string().contains("BuiltScene::from_desc"), "{e}");
    BuiltScene::from_desc(stretch).unwrap();
}
