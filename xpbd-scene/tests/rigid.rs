//! Rigid bodies in scene files: `[[rigid]]` and `[[joint]]` parsed, validated with the field
//! and line of a bad value, built into the loop; sand carries a crate's weight; a checkpoint
//! restores the bodies bit for bit.
mod common;

use xpbd_scene::{BuiltScene, Checkpoint, SceneDesc, SceneError, build_scene};

/// `text` written to a scene file in a fresh folder, then built (errors carry the line).
fn load(name: &str, text: &str) -> Result<BuiltScene, SceneError> {
    let dir = common::tmp_dir(name);
    let path = dir.join("scene.toml");
    std::fs::write(&path, text).unwrap();
    BuiltScene::load(&path)
}

const HEAD: &str = r#"
name = "rigid"
[time]
dt = 0.004
frames = 10
[solver]
substeps = 20
gravity = [0.0, 0.0, -9.81]
[[collider]]
shape = { plane = { normal = [0.0, 0.0, 1.0], offset = 0.0 } }
friction = 0.5
[contacts]
radius = 0.005
"#;

fn field_and_line(e: &SceneError) -> (String, usize) {
    match e {
        SceneError::InvalidValue { field, line, .. } => (field.clone(), *line),
        other => panic!("expected an invalid value, got {other}"),
    }
}

#[test]
fn bad_rigid_bodies_and_joints_are_refused_by_field_and_line() {
    let cases = [
        (
            "[[rigid]]\nshape = { sphere = { radius = 0.1 } }\ndensity = -3.0\ncenter = [0, 0, 1]\n",
            "rigid[0].density",
        ),
        (
            "[[rigid]]\nshape = { sphere = { radius = 0.1 } }\ncenter = [0, 0, 1]\n",
            "rigid[0].density",
        ),
        (
            "[[rigid]]\nshape = { plane = { normal = [0, 0, 1], offset = 0 } }\nmass = 1.0\n",
            "rigid[0].shape",
        ),
        (
            "[[rigid]]\nname = \"a\"\nshape = { sphere = { radius = 0.1 } }\nmass = 1.0\ncenter = [0, 0, 1]\n\
             [[joint]]\nkind = \"ball\"\nb = \"nobody\"\nanchor = [0, 0, 1.2]\n",
            "joint[0].b",
        ),
        (
            "[[rigid]]\nname = \"a\"\nshape = { sphere = { radius = 0.1 } }\nmass = 1.0\ncenter = [0, 0, 1]\n\
             [[joint]]\nkind = \"ball\"\nb = \"a\"\nanchor = [0, 0, 1.2]\naxis = [0, 1, 0]\n",
            "joint[0].axis",
        ),
        (
            "[[rigid]]\nname = \"a\"\nshape = { sphere = { radius = 0.1 } }\nmass = 1.0\ncenter = [0, 0, 1]\n\
             [[rigid]]\nname = \"b\"\nshape = { box = { half_extents = [0.1, 0.1, 0.1] } }\nmass = 1.0\ncenter = [0, 0, 1.15]\n",
            "rigid[0].center",
        ),
        (
            "[[rigid]]\nshape = { box = { half_extents = [0.1, 0.1, 0.1] } }\nmass = 1.0\ncenter = [0, 0, 0.05]\n",
            "rigid[0].center",
        ),
    ];
    for (k, (body, field)) in cases.iter().enumerate() {
        let text = format!("{HEAD}{body}");
        let err = load(&format!("bad-rigid-{k}"), &text).unwrap_err();
        let (f, line) = field_and_line(&err);
        assert_eq!(&f, field, "case {k}: {err}");
        assert!(line > 0, "case {k}: no line in {err}");
        let key = f.rsplit('.').next().unwrap();
        let at = text.lines().nth(line - 1).unwrap();
        assert!(
            at.contains(key) || at.starts_with("[["),
            "case {k}: line {line} is {at:?} for {f}"
        );
    }
}

#[test]
fn rigid_sections_round_trip_through_toml() {
    let text = format!(
        "{HEAD}[[rigid]]\nname = \"wheel\"\nshape = {{ capsule = {{ half_length = 0.05, radius = 0.1 }} }}\n\
         density = 500.0\ncenter = [0, 0, 0.1]\nangular_velocity = [0, 2, 0]\nfriction = 0.8\n\
         [[joint]]\nkind = \"hinge\"\nb = \"wheel\"\nanchor = [0, 0, 0.1]\naxis = [1, 0, 0]\nmotor = 2.0\n"
    );
    let path = std::path::Path::new("scene.toml");
    let desc = SceneDesc::parse(&text, path).unwrap();
    let again = SceneDesc::parse(&desc.to_toml().unwrap(), path).unwrap();
    assert_eq!(desc, again);
    assert_eq!(desc.rigid.len(), 1);
    assert_eq!(desc.joint[0].motor, Some(2.0));
}

/// The sand bed carries the crate: at rest, the vertical force of the grains on it equals its
/// weight within 2 % (averaged over the last 0.1 s of a 0.6 s settle).
#[test]
fn sand_bed_carries_a_crate_at_its_weight() {
    let path = common::scenes_dir().join("crate_on_sand.toml");
    let mut s = BuiltScene::load(&path).unwrap();
    let frames = s.scene.time.frames;
    let rigid = s.rigid().unwrap();
    let weight = rigid.body(0).mass() * 9.81;
    let z0 = rigid.body(0).x.z;
    let mut forces = Vec::new();
    for f in 0..frames {
        s.advance_frame().unwrap();
        if f + 1 > frames - 6 {
            forces.push(s.rigid().unwrap().contact_force(0, true).z);
        }
    }
    let mean = forces.iter().sum::<f64>() / forces.len() as f64;
    let err = (mean - weight).abs() / weight;
    assert!(
        err < 0.02,
        "sand pushes the crate with {mean:.4} N, its weight is {weight:.4} N ({:.2} %)",
        100.0 * err
    );
    // It settled into the sand, not through it.
    let z = s.rigid().unwrap().body(0).x.z;
    assert!(z < z0 && z > z0 - 0.02, "crate at {z} (start {z0})");
}

#[test]
fn checkpoint_restores_rigid_bodies_bit_for_bit() {
    let (text, path) = common::shortened("stone_into_sand.toml", 12);
    let build = || build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let bits = |s: &BuiltScene| -> Vec<u64> {
        let r = s.rigid().unwrap();
        let p = s.sim.particles();
        r.bodies()
            .iter()
            .flat_map(|b| b.state())
            .chain(p.x.iter().flat_map(|x| x.iter().copied()))
            .map(f64::to_bits)
            .collect()
    };
    let mut reference = build();
    let mut saved = None;
    let mut frames = Vec::new();
    for f in 1..=12 {
        reference.advance_frame().unwrap();
        frames.push(bits(&reference));
        if f == 6 {
            saved = Some(Checkpoint::capture(&reference, &text, &path).to_bytes());
        }
    }
    let mut restored = Checkpoint::from_bytes(&saved.unwrap())
        .unwrap()
        .restore()
        .unwrap();
    for f in 7..=12 {
        restored.advance_frame().unwrap();
        assert!(frames[f - 1] == bits(&restored), "frame {f} differs");
    }
    assert_ne!(frames[5], frames[11]);
}

/// A run writes each frame's rigid surfaces in the scene's formats and the pose table; the
/// surface read back has the body's vertices at its pose and the table its state.
#[test]
fn runs_write_rigid_surfaces_and_the_pose_table() {
    let (text, path) = common::shortened("stone_into_sand.toml", 3);
    let mut s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let dir = common::tmp_dir("rigid-run");
    xpbd_scene::runner::run(&mut s, &dir, |_| {}).unwrap();
    let frame = s.frame;
    let vtk = std::fs::read(dir.join(format!("rigid_{frame:05}.vtk"))).unwrap();
    let mesh = xpbd_scene::export::read_vtk(&vtk, "rigid.vtk").unwrap();
    let stone = s.rigid().unwrap().body(0);
    assert_eq!(mesh.vertices.len(), 162, "an icosphere of two subdivisions");
    assert!(!mesh.triangles.is_empty());
    for v in &mesh.vertices {
        let r = (v - stone.x).norm();
        assert!((r - 0.025).abs() < 1e-9, "vertex {r} m from the centre");
    }
    let csv = std::fs::read_to_string(dir.join(format!("rigid_{frame:05}.csv"))).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(xpbd_scene::export::rigid::POSE_HEADER));
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(row[0], "stone");
    let numbers: Vec<f64> = row[1..].iter().map(|c| c.parse().unwrap()).collect();
    assert_eq!(
        numbers,
        stone.state().to_vec(),
        "the table holds x, q, v, ω exactly"
    );
    // The manifest lists the rigid files with the frame.
    let manifest = xpbd_scene::runner::RunManifest::load(&dir).unwrap();
    let last = manifest.written.last().unwrap();
    assert!(
        last.files
            .iter()
            .any(|f| f == &format!("rigid_{frame:05}.csv"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A cart whose rear roller a hinge motor drives at 8 rad/s moves forward over a sand bed;
/// the motor holds its speed relative to the chassis. Sinkage and slip are reported, not
/// gated (no laboratory figure here to hold them to).
#[test]
fn motor_driven_cart_moves_forward_over_sand() {
    let (text, path) = common::shortened("sand_cart.toml", 40);
    let mut s = build_scene(SceneDesc::parse(&text, &path).unwrap(), &path).unwrap();
    let x0 = s.rigid().unwrap().body(2).x.x;
    let mut relative = Vec::new();
    for _ in 0..40 {
        s.advance_frame().unwrap();
        let r = s.rigid().unwrap();
        relative.push(r.body(0).omega.y - r.body(2).omega.y);
    }
    let r = s.rigid().unwrap();
    let travel = r.body(2).x.x - x0;
    let t = s.time();
    let speed = r.body(2).v.x;
    let late = &relative[20..];
    let spin = late.iter().sum::<f64>() / late.len() as f64;
    let radius = 0.035;
    let slip = 1.0 - speed / (spin * radius);
    let sinkage = 0.05 - (r.body(0).x.z - radius);
    eprintln!(
        "sand cart: travel {travel:.4} m in {t:.2} s, speed {speed:.4} m/s, roller spin {spin:.3} \
         rad/s, slip {slip:.3}, rear roller sinkage {sinkage:.4} m"
    );
    assert!(travel > 0.05, "the cart moved {travel} m");
    assert!(
        (spin - 8.0).abs() < 0.8,
        "the motor turns the roller at {spin} rad/s"
    );
    assert!(slip > 0.0 && slip < 1.0, "slip {slip}");
}
