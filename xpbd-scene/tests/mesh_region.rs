//! `region = { mesh = { path, scale, translation } }`: continua and water filled from a closed
//! triangle mesh, on the lattice a box region of the mesh's bounding box has. Meshes are made
//! here (a cube, icospheres) and written as OBJ files into a temporary folder.
mod common;

use std::path::{Path, PathBuf};

use xpbd_core::Vector;
use xpbd_scene::region::{MeshRegionSpec, RegionSpec};
use xpbd_scene::{BuiltScene, SceneDesc, SceneError};

type Mesh = (Vec<Vector<3>>, Vec<[usize; 3]>);

fn write_obj(path: &Path, (vertices, triangles): &Mesh) {
    let mut text = String::new();
    for v in vertices {
        // `{}` writes the shortest text that reads back to the same f64.
        text += &format!("v {} {} {}\n", v.x, v.y, v.z);
    }
    for t in triangles {
        text += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

/// The box `[min, max]` as 12 outward-facing triangles, its corners exactly `min` and `max`.
fn cube(min: [f64; 3], max: [f64; 3]) -> Mesh {
    let unit = xpbd_core::builders::TriangleSurface::unit_cube();
    let vertices = unit
        .vertices
        .iter()
        .map(|v| Vector::<3>::from_fn(|a, _| if v[a] < 0.0 { min[a] } else { max[a] }))
        .collect();
    (vertices, unit.triangles)
}

/// The icosahedron subdivided `levels` times (20·4^levels triangles), projected onto the
/// sphere of `radius` about `center`, triangles facing outwards (the builders' icosphere).
fn icosphere(center: [f64; 3], radius: f64, levels: usize) -> Mesh {
    let s =
        xpbd_core::builders::TriangleSurface::icosphere(levels, radius, Vector::<3>::from(center));
    (s.vertices, s.triangles)
}

/// Enclosed volume by the divergence theorem.
fn volume((v, t): &Mesh) -> f64 {
    t.iter()
        .map(|t| v[t[0]].dot(&v[t[1]].cross(&v[t[2]])) / 6.0)
        .sum()
}

fn mesh_region(path: &str) -> RegionSpec {
    RegionSpec::Mesh(MeshRegionSpec::new(path))
}

/// A sand continuum filled from `region`, dropped onto rough ground, 5 steps of 0.1 ms.
fn sand_scene(region: &str) -> String {
    format!(
        "name = 'sand from a mesh'\n[time]\ndt = 1.0e-4\nframes = 1\nsteps_per_frame = 5\n\
         [solver]\nsubsteps = 1\niterations = 10\ngravity = [0.0, 0.0, -9.81]\n\
         [materials.sand]\npreset = 'sand'\n\
         [[continuum]]\nmaterial = 'sand'\nregion = {region}\nspacing = 0.01\n\
         [[collider]]\nshape = {{ plane = {{ normal = [0.0, 0.0, 1.0], offset = 0.0 }} }}\n\
         friction = 0.5\n[contacts]\nradius = 0.005\n"
    )
}

fn write_scene(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("scene.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// A cube mesh fills exactly the particles of the box it describes, in the same order, for
/// continua (the region's sampling) and for water (a built scene).
#[test]
fn a_cube_mesh_fills_the_particles_of_its_box() {
    let dir = common::tmp_dir("mesh-region-cube");
    let (min, max) = ([-0.031, 0.012, 0.05], [0.049, 0.0705, 0.11]);
    write_obj(&dir.join("cube.obj"), &cube(min, max));
    let file = dir.join("scene.toml");
    for dx in [0.01, 0.0073, 0.02] {
        let from_mesh = mesh_region("cube.obj")
            .sample(dx, &file, "continuum[0]")
            .unwrap();
        let from_box = RegionSpec::cuboid(min, max)
            .sample(dx, &file, "continuum[0]")
            .unwrap();
        assert!(!from_box.is_empty());
        assert_eq!(from_mesh.len(), from_box.len(), "dx = {dx}");
        assert_eq!(from_mesh, from_box, "dx = {dx}");
    }
    // Water: the built scenes' particles agree bit for bit.
    let water = |region: &str| {
        format!(
            "name = 'water'\n[time]\ndt = 1.0e-3\nframes = 1\n\
             [[fluid]]\nregion = {region}\nspacing = 0.01\n"
        )
    };
    let mesh = BuiltScene::load(&write_scene(
        &dir,
        &water("{ mesh = { path = 'cube.obj' } }"),
    ))
    .unwrap();
    let boxed = BuiltScene::load(&write_scene(
        &dir,
        &water(&format!("{{ box = {{ min = {min:?}, max = {max:?} }} }}")),
    ))
    .unwrap();
    assert_eq!(mesh.sim.particles().x, boxed.sim.particles().x);
}

/// A fine icosphere (5120 triangles) of radius 15Δx fills the ball's particles to within one
/// lattice shell, never outside the sphere, every lattice point within the polyhedron's
/// inscribed sphere, and a total volume NΔx³ within 1 % of the mesh's.
#[test]
fn a_sphere_mesh_fills_its_ball_to_within_a_lattice_shell() {
    let dir = common::tmp_dir("mesh-region-sphere");
    let (c, r, dx) = ([0.003, -0.002, 0.2], 0.15, 0.01);
    let sphere = icosphere(c, r, 4);
    assert!(sphere.1.len() >= 5000, "{}", sphere.1.len());
    write_obj(&dir.join("shapes/sphere.obj"), &sphere);
    let file = dir.join("scene.toml");
    let from_mesh = mesh_region("shapes/sphere.obj")
        .sample(dx, &file, "continuum[0]")
        .unwrap();
    let ball = RegionSpec::ball(c, r);
    let from_ball = ball.sample(dx, &file, "continuum[0]").unwrap();
    let centre = Vector::<3>::from(c);
    // Lattice points of the ball's lattice within Δx of the sphere.
    let (lo, hi) = (c.map(|x| x - r - dx), c.map(|x| x + r + dx));
    let shell =
        xpbi_continuum::scene::lattice_box(Vector::<3>::from(lo), Vector::<3>::from(hi), dx)
            .iter()
            .filter(|p| ((*p - centre).norm() - r).abs() <= dx)
            .count();
    let (n_mesh, n_ball) = (from_mesh.len(), from_ball.len());
    eprintln!("mesh {n_mesh}, ball {n_ball}, shell {shell}");
    assert!(
        n_mesh.abs_diff(n_ball) <= shell,
        "{n_mesh} vs {n_ball}, shell {shell}"
    );
    let v_mesh = volume(&sphere);
    let v_particles = n_mesh as f64 * dx.powi(3);
    let err = (v_particles - v_mesh).abs() / v_mesh;
    eprintln!("particle volume {v_particles:e}, mesh volume {v_mesh:e}, error {err:e}");
    assert!(err < 0.01, "{err}");
    // The inscribed polyhedron lies inside the ball and holds its inscribed sphere.
    assert!(from_mesh.iter().all(|p| (p - centre).norm() < r));
    let (v, t) = &sphere;
    let inscribed = t
        .iter()
        .map(|t| {
            let n = (v[t[1]] - v[t[0]]).cross(&(v[t[2]] - v[t[0]])).normalize();
            n.dot(&(v[t[0]] - centre))
        })
        .fold(f64::INFINITY, f64::min);
    let (mlo, mhi) = v.iter().fold(
        (
            Vector::<3>::repeat(f64::INFINITY),
            Vector::<3>::repeat(f64::NEG_INFINITY),
        ),
        |(lo, hi), p| (lo.inf(p), hi.sup(p)),
    );
    let deep: Vec<_> = xpbi_continuum::scene::lattice_box(mlo, mhi, dx)
        .into_iter()
        .filter(|p| (p - centre).norm() < inscribed - 1e-9)
        .collect();
    assert!(deep.len() > 10_000);
    assert!(deep.iter().all(|p| from_mesh.contains(p)));
}

/// A cube with one triangle removed is open: refused by its `path`, the mesh file named in the
/// message; so are a cube with one triangle flipped and a cube turned inside out.
#[test]
fn an_open_or_misoriented_mesh_is_refused_naming_the_file() {
    let dir = common::tmp_dir("mesh-region-open");
    let (v, mut t) = cube([0.0, 0.0, 0.05], [0.1, 0.1, 0.15]);
    t.pop();
    write_obj(&dir.join("open_cube.obj"), &(v.clone(), t));
    let file = write_scene(&dir, &sand_scene("{ mesh = { path = 'open_cube.obj' } }"));
    let e = mesh_region("open_cube.obj")
        .sample(0.01, &file, "continuum[0]")
        .unwrap_err();
    assert!(e.to_string().contains("open_cube.obj"), "{e}");
    assert!(
        matches!(&e, SceneError::MeshRegion { field, mesh, .. }
            if field == "continuum[0].region.mesh.path" && mesh.ends_with("open_cube.obj")),
        "{e:?}"
    );
    // The same through the scene file.
    let Err(e) = BuiltScene::load(&file) else {
        panic!("an open mesh is refused")
    };
    assert!(e.to_string().contains("open_cube.obj"), "{e}");
    assert!(matches!(e, SceneError::MeshRegion { .. }), "{e:?}");

    let (v, mut t) = cube([0.0, 0.0, 0.05], [0.1, 0.1, 0.15]);
    t[3].swap(1, 2);
    write_obj(&dir.join("flipped.obj"), &(v.clone(), t.clone()));
    let e = mesh_region("flipped.obj")
        .sample(0.01, &file, "fluid[0]")
        .unwrap_err();
    assert!(e.to_string().contains("flipped.obj"), "{e}");
    assert!(
        matches!(&e, SceneError::MeshRegion { field, .. } if field == "fluid[0].region.mesh.path")
    );

    let inside_out = t.iter().map(|&[a, b, c]| [a, c, b]).collect::<Vec<_>>();
    let mut inside_out = inside_out;
    inside_out[3].swap(1, 2); // undo the flip: every triangle now faces inwards
    write_obj(&dir.join("inside_out.obj"), &(v, inside_out));
    let e = mesh_region("inside_out.obj")
        .sample(0.01, &file, "continuum[0]")
        .unwrap_err();
    assert!(e.to_string().contains("inside_out.obj"), "{e}");
    assert!(
        matches!(&e, SceneError::InvalidValue { field, .. } if field == "continuum[0].region.mesh.path"),
        "{e:?}"
    );

    let e = mesh_region("missing.obj")
        .sample(0.01, &file, "continuum[0]")
        .unwrap_err();
    assert!(
        e.to_string().contains("continuum[0].region.mesh.path"),
        "{e}"
    );
    assert!(matches!(e, SceneError::Import { .. }), "{e:?}");
}

/// A scene file with a sand continuum filled from a mesh in a subfolder (scaled and moved)
/// builds and steps with finite positions; its particles are the region's lattice points, and
/// the description round-trips through TOML.
#[test]
fn a_sand_body_filled_from_a_mesh_builds_and_steps() {
    let dir = common::tmp_dir("mesh-region-scene");
    write_obj(&dir.join("shapes/ball.obj"), &icosphere([0.0; 3], 1.0, 2));
    let region =
        "{ mesh = { path = 'shapes/ball.obj', scale = 0.05, translation = [0.0, 0.0, 0.1] } }";
    let path = write_scene(&dir, &sand_scene(region));

    let desc = SceneDesc::load(&path).unwrap();
    let text = desc.to_toml().unwrap();
    let back = SceneDesc::parse(&text, &path).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, desc);
    let expected = MeshRegionSpec {
        path: "shapes/ball.obj".into(),
        scale: 0.05,
        translation: [0.0, 0.0, 0.1],
    };
    assert_eq!(
        xpbd_scene::region::mesh_region_paths(&desc),
        [Path::new("shapes/ball.obj")]
    );
    assert_eq!(
        desc.continuum[0].region,
        Some(RegionSpec::Mesh(expected.clone()))
    );

    let mut scene = BuiltScene::load(&path).unwrap();
    let sampled = expected.sample(0.01, &path, "continuum[0]").unwrap();
    assert!(sampled.len() > 300, "{}", sampled.len());
    assert_eq!(scene.sim.particles().x, sampled);
    for _ in 0..5 {
        scene.step().unwrap();
    }
    let x = &scene.sim.particles().x;
    assert!(x.iter().flatten().all(|c| c.is_finite()));
    // Falling: the body's mean height went down, no particle through the ground.
    let mean = |x: &[Vector<3>]| x.iter().map(|p| p.z).sum::<f64>() / x.len() as f64;
    assert!(
        mean(x) < mean(&sampled),
        "{} vs {}",
        mean(x),
        mean(&sampled)
    );
    assert!(x.iter().all(|p| p.z > 0.0));
}

/// A mesh is not a layer's region, and a mesh region's numbers are checked by field.
#[test]
fn mesh_regions_in_layers_and_bad_numbers_are_refused_by_field() {
    let dir = common::tmp_dir("mesh-region-fields");
    write_obj(&dir.join("cube.obj"), &cube([0.0; 3], [0.1; 3]));
    let layered = "name = 'layers'\n[time]\ndt = 1.0e-4\nframes = 1\n\
                   [materials.sand]\npreset = 'sand'\n\
                   [[continuum]]\nspacing = 0.01\n\
                   [[continuum.layer]]\nmaterial = 'sand'\n\
                   region = { mesh = { path = 'cube.obj' } }\n";
    let e = SceneDesc::parse(layered, &dir.join("scene.toml")).unwrap_err();
    assert!(
        matches!(&e, SceneError::InvalidValue { field, value, .. }
            if field == "continuum[0].layer[0].region" && value == "mesh"),
        "{e}"
    );
    for (region, field) in [
        ("{ mesh = { path = 'cube.obj', scale = 0.0 } }", "scale"),
        ("{ mesh = { path = 'cube.obj', scale = -2.0 } }", "scale"),
        ("{ mesh = { path = '' } }", "path"),
        (
            "{ mesh = { path = 'cube.obj', translation = [0.0, nan, 0.0] } }",
            "translation",
        ),
        ("{ mesh = { path = 'cube.obj', scale = 1e300 } }", "scale"),
    ] {
        let path = write_scene(&dir, &sand_scene(region));
        let Err(e) = BuiltScene::load(&path) else {
            panic!("{region} is refused")
        };
        let want = format!("continuum[0].region.mesh.{field}");
        assert!(
            matches!(&e, SceneError::InvalidValue { field, .. } if *field == want),
            "{region}: {e}"
        );
    }
    // An unknown key is refused (deny_unknown_fields).
    let path = write_scene(
        &dir,
        &sand_scene("{ mesh = { path = 'cube.obj', cell = 0.01 } }"),
    );
    let Err(e) = BuiltScene::load(&path) else {
        panic!("an unknown key is refused")
    };
    assert!(e.to_string().contains("cell"), "{e}");
}
