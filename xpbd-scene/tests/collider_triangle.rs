//! A scene's cloth against a small, fast collider: the scene builds collider contact against
//! the cloth's triangles next to the vertex contact, so a sphere smaller than the cloth's edges
//! driven through it pushes the cloth instead of slipping between the vertices; the colliders
//! are moved through `BuiltScene::collider_contacts_mut` alone and the triangle contact
//! follows. Scenes without a cloth or without a sphere, capsule or box get no such block.
mod common;

use std::path::Path;

use xpbd_core::Vector;
use xpbd_core::contact::{ColliderId, Pose, closest_point_on_triangle};
use xpbd_scene::{BlockKind, BuiltScene, SceneDesc, build_scene};

const RADIUS: f64 = 0.03;

/// An 11 × 11 cotton sheet of 1 m (edges of 0.1 m) pinned at its corners in z = 0, no
/// gravity, and a sphere of radius 0.03 m (0.3 × the edge) moving down at 5 m/s from 0.2 m
/// above the sheet's centre (a vertex: it is moved between vertices below).
const SCENE: &str = "name = 'small sphere through a sheet'
[time]
dt = 0.016666666666666666
frames = 1
[solver]
substeps = 10
iterations = 1
method = { kind = 'coloured' }
gravity = [0.0, 0.0, 0.0]
[materials.cotton]
density = 1500.0
youngs = 5e8
thickness = 0.0005
[[cloth]]
name = 'sheet'
material = 'cotton'
resolution = [11, 11]
size = [1.0, 1.0]
origin = [-0.5, -0.5, 0.0]
pins = [[0, 0], [10, 0], [0, 10], [10, 10]]
[[collider]]
shape = { sphere = { radius = 0.03 } }
center = [0.0, 0.0, 0.2]
velocity = [0.0, 0.0, -5.0]
friction = 0.3
[contacts]
radius = 0.005
";

fn build(text: &str) -> BuiltScene {
    let path = Path::new("small_sphere.toml");
    build_scene(SceneDesc::parse(text, path).unwrap(), path).unwrap()
}

fn sphere_centre(s: &BuiltScene) -> Vector<3> {
    s.block_kinds()
        .iter()
        .find_map(|k| match k {
            BlockKind::Contacts(c) => Some(c.colliders()[0].pose.translation),
            _ => None,
        })
        .unwrap()
}

/// The sheet's triangles at the scene's current positions.
fn triangles(s: &BuiltScene) -> Vec<[Vector<3>; 3]> {
    let x = &s.sim.particles().x;
    (s.bodies[0].triangles.iter())
        .map(|t| t.map(|i| x[i]))
        .collect()
}

/// The sheet's heights on the vertical line through `p`.
fn heights_under(tris: &[[Vector<3>; 3]], p: &Vector<3>) -> Vec<f64> {
    let mut out = Vec::new();
    for [a, b, c] in tris {
        let det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
        if det.abs() < 1e-15 {
            continue;
        }
        let u = ((p.x - a.x) * (c.y - a.y) - (c.x - a.x) * (p.y - a.y)) / det;
        let v = ((b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)) / det;
        if u >= 0.0 && v >= 0.0 && u + v <= 1.0 {
            out.push(a.z + u * (b.z - a.z) + v * (c.z - a.z));
        }
    }
    out
}

/// The sphere, moved (through `collider_contacts_mut` only) above the centroid of a
/// triangle next to the sheet's centre — 0.047 m or more from every vertex, farther than the
/// sphere and the particle radius reach — and driven 0.5 m down, carries the sheet down: no
/// triangle comes closer than R to its centre (to 0.1 mm), and the sheet under it lies below
/// it. Without collider contact against the triangles it slips through.
#[test]
fn a_small_fast_sphere_collider_pushes_a_scene_cloth() {
    let mut s = build(SCENE);
    let aim = (triangles(&s).iter())
        .map(|[a, b, c]| (a + b + c) / 3.0)
        .min_by(|p, q| p.norm().total_cmp(&q.norm()))
        .unwrap();
    assert!(aim.norm() < 0.1 && aim.z == 0.0);
    let x = &s.sim.particles().x;
    assert!(
        x.iter().all(|p| (p - aim).norm() > 0.045),
        "aimed between vertices"
    );
    let contacts = s.collider_contacts_mut().unwrap();
    let pose = Pose::from_translation(aim + Vector::<3>::new(0.0, 0.0, 0.2));
    contacts.set_pose(ColliderId(0), pose).unwrap();
    for _ in 0..6 {
        s.step().unwrap();
    }
    let c = sphere_centre(&s);
    assert!((c.z - (0.2 - 0.5)).abs() < 1e-12 && (c - aim).xy().norm() < 1e-12);
    let tris = triangles(&s);
    let d = (tris.iter())
        .map(|t| (c - closest_point_on_triangle(&c, t)).norm())
        .fold(f64::INFINITY, f64::min);
    assert!(d >= RADIUS - 1e-4, "a triangle is {d} m from the centre");
    let under = heights_under(&tris, &c);
    assert!(!under.is_empty());
    assert!(
        under.iter().all(|&z| z < c.z - RADIUS + 1e-4),
        "the sheet under the sphere is at {under:?}, the sphere's bottom at {}",
        c.z - RADIUS
    );
}

/// The block list: collider contact against the triangles right after the collider contacts
/// for a cloth with a sphere (`cloth_on_sphere`), none for a cloth over a plane alone
/// (`sand_hammock`) or a sphere without a cloth.
#[test]
fn the_triangle_contact_is_built_for_cloth_and_convex_colliders_only() {
    let kinds = |s: &BuiltScene| -> Vec<&'static str> {
        s.block_kinds().iter().map(|k| k.describe()).collect()
    };
    let sphere = BuiltScene::load(&common::scenes_dir().join("cloth_on_sphere.toml")).unwrap();
    let k = kinds(&sphere);
    let at = k.iter().position(|&d| d == "collider contacts").unwrap();
    assert_eq!(
        k[at + 1],
        "collider contacts against cloth triangles",
        "{k:?}"
    );
    let Some(BlockKind::ColliderTriangles(t)) = sphere.block_kinds().get(at + 1).copied() else {
        panic!("{k:?}");
    };
    assert_eq!(t.triangles().len(), 2 * 23 * 23);
    let plane = BuiltScene::load(&common::scenes_dir().join("sand_hammock.toml")).unwrap();
    assert!(
        !kinds(&plane).contains(&"collider contacts against cloth triangles"),
        "{:?}",
        kinds(&plane)
    );
    let sheet = "[[cloth]]\nname = 'sheet'\nmaterial = 'cotton'\nresolution = [11, 11]\n\
                 size = [1.0, 1.0]\norigin = [-0.5, -0.5, 0.0]\n\
                 pins = [[0, 0], [10, 0], [0, 10], [10, 10]]\n";
    let rope = "[[rope]]\nmaterial = 'cotton'\nlinks = 4\nstart = [-0.5, 0.3, 0.0]\n\
                end = [0.5, 0.3, 0.0]\nradius = 0.001\n";
    assert!(SCENE.contains(sheet));
    let no_cloth = SCENE
        .replace(sheet, rope)
        .replace("thickness = 0.0005\n", "");
    let s = build(&no_cloth);
    assert!(
        !kinds(&s).contains(&"collider contacts against cloth triangles"),
        "{:?}",
        kinds(&s)
    );
}
