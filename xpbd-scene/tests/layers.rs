//! `[[continuum.layer]]`: one XPBI body of several materials (sand over clay, sand on an
//! elastic bed), its equivalence with the one-region body, the yield surfaces it keeps and the
//! typed errors of bad layer input.
mod common;

use std::path::Path;

use xpbd_scene::{BuiltScene, SceneDesc, SceneError, build_scene};
use xpbi_continuum::continuum::XpbiContinuum;
use xpbi_continuum::plasticity::principal;

fn parse(text: &str) -> Result<SceneDesc, SceneError> {
    SceneDesc::parse(text, Path::new("layers.toml"))
}

fn build(text: &str) -> Result<BuiltScene, SceneError> {
    parse(text).and_then(|s| build_scene(s, Path::new("layers.toml")))
}

fn xpbi(s: &BuiltScene) -> &XpbiContinuum<3> {
    &s.sim.block(s.continua[0].handle).kind
}

fn bits(s: &BuiltScene) -> Vec<u64> {
    let p = s.sim.particles();
    p.x.iter()
        .chain(&p.v)
        .flat_map(|x| x.iter().map(|c| c.to_bits()))
        .collect()
}

/// A plane-strain scene: `materials` tables, then `body` (the `[[continuum]]` entry).
fn scene(materials: &str, body: &str) -> String {
    format!(
        "name = 'layers'\n[time]\ndt = 2e-4\nframes = 1\nsteps_per_frame = 1\n\
         [solver]\nsubsteps = 1\niterations = 10\nmethod = {{ kind = 'coloured' }}\nthreads = 1\n\
         {materials}\n{body}\n\
         [[collider]]\nshape = {{ plane = {{ normal = [0.0, 0.0, 1.0], offset = 0.0 }} }}\n\
         friction = 0.5\n[contacts]\nradius = 0.0025\n"
    )
}

const SAND_CLAY: &str = "[materials.sand]\npreset = 'sand'\n[materials.clay]\npreset = 'clay'\n\
                         [materials.stiff]\ndensity = 1600.0\nyoungs = 5e6\npoisson = 0.3\n";

fn layer(material: &str, min: [f64; 3], max: [f64; 3]) -> String {
    format!(
        "[[continuum.layer]]\nmaterial = '{material}'\n\
         region = {{ box = {{ min = {min:?}, max = {max:?} }} }}\n"
    )
}

/// Two layers of one material tiling a box are that box's one-region body, bit for bit: the
/// same lattice, the same one-entry table, the same trajectory.
#[test]
fn two_layers_of_one_material_equal_the_one_region_body_bit_for_bit() {
    let (lo, mid, hi) = ([-0.03, -0.0025, 0.0], 0.03, [0.03, 0.0025, 0.06]);
    let one = scene(
        SAND_CLAY,
        &format!(
            "[[continuum]]\nmaterial = 'sand'\nspacing = 0.005\n\
             region = {{ box = {{ min = {lo:?}, max = {hi:?} }} }}\n"
        ),
    );
    let two = scene(
        SAND_CLAY,
        &format!(
            "[[continuum]]\nspacing = 0.005\n{}{}",
            layer("sand", [lo[0], lo[1], mid], hi),
            layer("sand", lo, [hi[0], hi[1], mid]),
        ),
    );
    let (mut a, mut b) = (build(&one).unwrap(), build(&two).unwrap());
    assert_eq!(xpbi(&b).materials().len(), 1);
    assert_eq!(a.sim.particles().len(), 144);
    assert_eq!(bits(&a), bits(&b));
    let moved = a.sim.particles().x.clone();
    for _ in 0..40 {
        a.step().unwrap();
        b.step().unwrap();
    }
    assert_ne!(a.sim.particles().x, moved, "the body must move");
    assert_eq!(bits(&a), bits(&b));
    assert_eq!(a.topology.particle_material, b.topology.particle_material);
}

/// Margin of member `k` from its own material's yield surface
/// (`PlasticModel::yield_margin`, log-strain units, ≤ 0 inside).
fn margin(c: &XpbiContinuum<3>, k: usize) -> Option<f64> {
    let m = &c.materials()[c.material_id(k)];
    let eps = principal(&c.deformation_gradients()[k]).eps;
    m.plasticity
        .yield_margin(&eps, &c.plastic_states()[k], &m.lame())
}

/// The gallery bank (sand over clay) collapsing: after every step each particle's elastic
/// strain is on or inside its own material's yield surface, both materials flow plastically
/// (particles on their surfaces), and the material ids never change.
///
/// Tolerance 1e-9 in log strain: the end-of-step return map leaves `F = U exp(ε_E) Vᵀ` with
/// `ε_E` on the surface to round-off (≈ 1e-16 relative), and recovering `ε_E` by a second SVD
/// and logarithm adds a few ulps of the strains (≤ 0.1 here), so genuine round-off is
/// ~1e-15; an unprojected particle lies outside by its plastic strain increment per step
/// (≥ 1e-6 while the bank flows), orders above the tolerance.
#[test]
fn layered_bank_keeps_every_particle_inside_its_own_yield_surface() {
    let (text, path) = common::shortened("layered_bank.toml", 1);
    let mut s = build_scene(parse(&text).unwrap(), &path).unwrap();
    let ids: Vec<usize> = (0..xpbi(&s).members().len())
        .map(|k| xpbi(&s).material_id(k))
        .collect();
    assert_eq!(xpbi(&s).materials().len(), 2);
    let count = |id| ids.iter().filter(|&&i| i == id).count();
    // 24 columns, 12 rows of sand over 6 of clay.
    assert_eq!((count(0), count(1)), (24 * 12, 24 * 6));
    let mut on_surface = [0usize; 2];
    let mut worst = f64::NEG_INFINITY;
    for _ in 0..100 {
        s.step().unwrap();
        let c = xpbi(&s);
        for (k, &id) in ids.iter().enumerate() {
            assert_eq!(c.material_id(k), id, "material id of member {k} changed");
            let m = margin(c, k).expect("sand and clay have yield surfaces");
            worst = worst.max(m);
            assert!(m <= 1e-9, "member {k} (material {id}) outside by {m}");
            if m > -1e-9 {
                on_surface[id] += 1;
            }
        }
    }
    // Measured: worst margin 1.4e-15; 15 412 sand and 5 998 clay particle-steps on the
    // surface.
    assert!(
        on_surface[0] > 100 && on_surface[1] > 100,
        "both materials must flow: {on_surface:?} (worst margin {worst:e})"
    );
}

/// Horizontal extent of the members `ids` (m).
fn width(s: &BuiltScene, ids: &[usize]) -> f64 {
    let x = &s.sim.particles().x;
    let (lo, hi) = ids.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &i| {
        (lo.min(x[i].x), hi.max(x[i].x))
    });
    hi - lo
}

/// Largest |ln σ| of the elastic deformation gradients of the members `ids`.
fn max_strain(s: &BuiltScene, ids: &[usize]) -> f64 {
    let c = xpbi(s);
    ids.iter()
        .map(|&i| principal(&c.deformation_gradients()[i]).eps.amax())
        .fold(0.0, f64::max)
}

/// A sand column on a stiff elastic bed (one body) against the same geometry all sand and
/// all elastic: the column spreads over the bed as the all-sand column does, the bed keeps its
/// shape (strain and width) as in the all-elastic body, and neither single-material body
/// does both.
#[test]
fn a_sand_column_spreads_on_an_elastic_bed_that_keeps_its_shape() {
    let body = |top: &str, bed: &str| {
        scene(
            SAND_CLAY,
            &format!(
                "[[continuum]]\nspacing = 0.005\n{}{}",
                layer(top, [-0.015, -0.0025, 0.02], [0.015, 0.0025, 0.08]),
                layer(bed, [-0.06, -0.0025, 0.0], [0.06, 0.0025, 0.02]),
            ),
        )
    };
    let run = |top, bed| {
        let mut s = build(&body(top, bed)).unwrap();
        let n = s.sim.particles().len();
        // Particles in lattice order, z slowest: the bed is the lowest 4 rows.
        let (column, bed): (Vec<usize>, Vec<usize>) =
            (0..n).partition(|&i| s.sim.particles().x[i].z > 0.02);
        let w0 = (width(&s, &column), width(&s, &bed));
        for _ in 0..750 {
            s.step().unwrap();
        }
        let spread = width(&s, &column) / w0.0;
        let bed_width = width(&s, &bed) / w0.1;
        (spread, bed_width, max_strain(&s, &bed))
    };
    // Measured (0.15 s): layered (3.55, 1.00005, 3.5e-3), all sand (4.11, 1.117, 2.5e-3),
    // all elastic (1.00007, 1.00002, 2.0e-4).
    let layered = run("sand", "stiff");
    let sand = run("sand", "sand");
    let elastic = run("stiff", "stiff");
    // The column spreads as sand does, an elastic column does not.
    assert!(layered.0 > 2.5 && sand.0 > 2.5, "{layered:?} {sand:?}");
    assert!(elastic.0 < 1.01, "{elastic:?}");
    // The stiff bed keeps its width and small strain under the spreading sand; a sand bed
    // is pushed out sideways by more than 5 %.
    assert!((layered.1 - 1.0).abs() < 0.005, "{layered:?}");
    assert!(layered.2 < 0.01, "{layered:?}");
    assert!(sand.1 > 1.05, "{sand:?}");
    assert!((elastic.1 - 1.0).abs() < 0.005, "{elastic:?}");
}

#[test]
fn layered_gallery_scene_loads_and_runs() {
    let (text, path) = common::shortened("layered_bank.toml", 2);
    let mut s = build_scene(parse(&text).unwrap(), &path).unwrap();
    let names = &s.topology.material_names;
    let sand = names.iter().position(|n| n == "sand").unwrap() as u32;
    let clay = names.iter().position(|n| n == "clay").unwrap() as u32;
    let pm = &s.topology.particle_material;
    assert!(pm.contains(&sand) && pm.contains(&clay));
    // Masses follow each particle's own density (sand 1600, clay 1200 kg/m³).
    let p = s.sim.particles();
    let dx3 = 0.005f64.powi(3);
    for (i, &w) in p.inv_mass.iter().enumerate() {
        let rho = if pm[i] == sand { 1600.0 } else { 1200.0 };
        assert!((1.0 / w - rho * dx3).abs() <= 1e-12 * rho * dx3);
    }
    let z0: f64 = p.x.iter().map(|x| x.z).sum();
    for _ in 0..2 {
        s.advance_frame().unwrap();
    }
    let p = s.sim.particles();
    assert!(p.x.iter().all(|x| x.iter().all(|c| c.is_finite())));
    assert!(
        p.x.iter().map(|x| x.z).sum::<f64>() < z0,
        "the bank settles"
    );
}

/// Two layers: `first` and `second` are their materials, the second layer below the first.
fn two_layers(first: &str, second: &str) -> String {
    scene(
        SAND_CLAY,
        &format!(
            "[[continuum]]\nspacing = 0.005\n{}{}",
            layer(first, [-0.02, -0.0025, 0.02], [0.02, 0.0025, 0.04]),
            layer(second, [-0.02, -0.0025, 0.0], [0.02, 0.0025, 0.02]),
        ),
    )
}

fn invalid(text: &str) -> (String, String, &'static str) {
    match build(text) {
        Err(SceneError::InvalidValue {
            field,
            value,
            reason,
            ..
        }) => (field, value, reason),
        other => panic!("expected InvalidValue, got {other:?}"),
    }
}

#[test]
fn a_layer_with_an_unknown_material_is_named() {
    match build(&two_layers("sand", "granite")) {
        Err(SceneError::UnknownMaterial {
            field, name, file, ..
        }) => {
            assert_eq!(field, "continuum[0].layer[1].material");
            assert_eq!(name, "granite");
            assert_eq!(file, Path::new("layers.toml"));
        }
        other => panic!("expected UnknownMaterial, got {other:?}"),
    }
}

#[test]
fn a_layer_whose_material_has_no_youngs_modulus_is_refused() {
    let text = two_layers("sand", "soft").replace(
        "[materials.sand]",
        "[materials.soft]\ndensity = 1000.0\n[materials.sand]",
    );
    let (field, value, _) = invalid(&text);
    assert_eq!(
        (field.as_str(), value.as_str()),
        ("continuum[0].layer[1].material.youngs", "absent")
    );
}

#[test]
fn layers_next_to_material_and_region_are_refused() {
    let text = two_layers("sand", "clay").replace(
        "spacing = 0.005\n",
        "spacing = 0.005\nmaterial = 'sand'\n\
         region = { box = { min = [0.0, 0.0, 0.0], max = [0.1, 0.1, 0.1] } }\n",
    );
    let (field, value, reason) = invalid(&text);
    assert_eq!(field, "continuum[0].layer");
    assert_eq!(value, "2 layers and material + region");
    assert!(reason.contains("not both"), "{reason}");
}

#[test]
fn a_continuum_without_layers_or_material_and_region_is_refused() {
    let text = scene(SAND_CLAY, "[[continuum]]\nspacing = 0.005\n");
    let (field, value, _) = invalid(&text);
    assert_eq!(
        (field.as_str(), value.as_str()),
        ("continuum[0].material", "absent")
    );
    let only_material = scene(
        SAND_CLAY,
        "[[continuum]]\nspacing = 0.005\nmaterial = 'sand'\n",
    );
    assert_eq!(invalid(&only_material).0, "continuum[0].region");
}

/// A layer whose lattice points all belong to an earlier layer holds no particle.
#[test]
fn a_layer_that_holds_no_particle_is_named() {
    let text = scene(
        SAND_CLAY,
        &format!(
            "[[continuum]]\nspacing = 0.005\n{}{}",
            layer("sand", [-0.02, -0.0025, 0.0], [0.02, 0.0025, 0.04]),
            layer("clay", [-0.01, -0.0025, 0.01], [0.01, 0.0025, 0.02]),
        ),
    );
    let (field, value, reason) = invalid(&text);
    assert_eq!(field, "continuum[0].layer[1].region");
    assert!(value.contains("Box"), "{value}");
    assert!(reason.contains("no particle"), "{reason}");
}

#[test]
fn a_nozzle_layer_is_refused() {
    let text = two_layers("sand", "clay").replace(
        "region = { box = { min = [-0.02, -0.0025, 0.0], max = [0.02, 0.0025, 0.02] } }",
        "region = { nozzle = { exit = [0.0, 0.0, 0.05], radius = 0.005, speed = 0.2, duration = 0.1 } }",
    );
    let (field, value, _) = invalid(&text);
    assert_eq!(
        (field.as_str(), value.as_str()),
        ("continuum[0].layer[1].region", "nozzle")
    );
}

/// A checkpoint of the layered bank restores bit for bit (the material ids come back with
/// the rebuilt scene; F and the hardening with the block's state).
#[test]
fn a_layered_body_restores_from_a_checkpoint_bit_for_bit() {
    let (text, path) = common::shortened("layered_bank.toml", 1);
    let mut s = build_scene(parse(&text).unwrap(), &path).unwrap();
    for _ in 0..5 {
        s.step().unwrap();
    }
    let ckpt = xpbd_scene::Checkpoint::capture(&s, &text, &path);
    let mut r = xpbd_scene::Checkpoint::from_bytes(&ckpt.to_bytes())
        .unwrap()
        .restore()
        .unwrap();
    for _ in 0..5 {
        s.step().unwrap();
        r.step().unwrap();
    }
    assert_eq!(bits(&s), bits(&r));
    assert_eq!(xpbi(&r).materials(), xpbi(&s).materials());
}

/// A written frame of the layered bank carries each particle's own `material_id` (sand and
/// clay) as VTK point data.
#[test]
fn vtk_frames_carry_each_particles_own_material_id() {
    let (text, path) = common::shortened("layered_bank.toml", 1);
    let s = build_scene(parse(&text).unwrap(), &path).unwrap();
    let dir = common::tmp_dir("layers-vtk");
    let written = xpbd_scene::runner::write_frame(&s, &dir).unwrap();
    let vtk = written
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "vtk"))
        .unwrap();
    let data = xpbd_scene::export::read_vtk_data(&std::fs::read(vtk).unwrap(), "f.vtk").unwrap();
    let ids: Vec<f64> = s
        .topology
        .particle_material
        .iter()
        .map(|&m| m as f64)
        .collect();
    assert_eq!(data.point["material_id"], ids);
    let names = &s.topology.material_names;
    for name in ["sand", "clay"] {
        let id = names.iter().position(|n| n == name).unwrap() as f64;
        assert!(ids.contains(&id), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
