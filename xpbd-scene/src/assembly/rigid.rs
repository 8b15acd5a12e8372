//! The rigid bodies of a scene (`[[rigid]]`, `[[joint]]`): shapes and mass properties, poses,
//! the colliders they meet, their joints, and every body's particles coupled to them.

use std::path::Path;

use xpbd_core::contact::{Friction, Shape};
use xpbd_core::rigid::{
    Joint, JointKind, MassProperties, Overlap, Participant, RigidBodies, RigidBody,
    quaternion_from_degrees,
};
use xpbd_core::{Particles, Vector};

use super::v3;
use crate::error::SceneError;
use crate::import::import_mesh;
use crate::interaction::Body;
use crate::scene::{JointKindSpec, RigidSpec, SceneDesc, ShapeSpec};
use crate::validate::rigid::rigid_name;

/// The rigid bodies of `scene` (`None` without `[[rigid]]`), meeting `colliders` (built from
/// `[[collider]]`) and every particle of `bodies` at the body's contact radius. Bodies that
/// start interpenetrating each other, a collider or a particle are refused.
pub(super) fn rigid_bodies(
    scene: &SceneDesc,
    file: &Path,
    particles: &Particles<3>,
    bodies: &[Body],
    colliders: &[xpbd_core::contact::Collider<3>],
) -> Result<Option<RigidBodies>, SceneError> {
    if scene.rigid.is_empty() {
        return Ok(None);
    }
    let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let rigid_err = |field: String| {
        let file = file.to_path_buf();
        move |source| SceneError::Rigid {
            file,
            field,
            source: Box::new(source),
        }
    };
    let mut set = RigidBodies::new(v3(scene.solver.gravity));
    for c in colliders {
        set.add_collider(c.clone())
            .map_err(rigid_err("collider".into()))?;
    }
    for (k, spec) in scene.rigid.iter().enumerate() {
        let field = format!("rigid[{k}]");
        let (body, mesh) = body_of(spec, &field, file, &folder)?;
        let body = body
            .moving(v3(spec.velocity), v3(spec.angular_velocity))
            .and_then(|b| {
                Friction::coulomb(spec.friction)
                    .map_err(xpbd_core::rigid::RigidError::Shape)
                    .and_then(|f| b.with_contact(f, spec.restitution))
            })
            .map_err(rigid_err(field.clone()))?;
        match mesh {
            Some((vertices, triangles)) => set.add_mesh_body(body, &vertices, &triangles),
            None => set.add_body(body),
        }
        .map_err(rigid_err(field))?;
    }
    let index = |name: &str| {
        (0..scene.rigid.len())
            .find(|&k| rigid_name(scene, k) == name)
            .unwrap_or(0)
    };
    for (k, j) in scene.joint.iter().enumerate() {
        let field = format!("joint[{k}]");
        let a = j.a.as_deref().map(index);
        let b = index(&j.b);
        let anchor = v3(j.anchor);
        let local = |body: Option<usize>, p: Vector<3>| match body {
            Some(i) => set.body(i).pose().to_local(&p),
            None => p,
        };
        let axis_in = |body: Option<usize>, w: Vector<3>| match body {
            Some(i) => set.body(i).rotation().tr_mul(&w),
            None => w,
        };
        let (kind, anchor_b) = match j.kind {
            JointKindSpec::Ball => (JointKind::Ball, anchor),
            JointKindSpec::Fixed => (JointKind::Fixed, anchor),
            JointKindSpec::Hinge => {
                let w = v3(j.axis.unwrap_or([0.0, 0.0, 1.0])).normalize();
                (
                    JointKind::Hinge {
                        axis_a: axis_in(a, w),
                        axis_b: axis_in(Some(b), w),
                        limits: j.limits_deg.map(|l| l.map(f64::to_radians)),
                        motor: j.motor,
                    },
                    anchor,
                )
            }
            JointKindSpec::Distance => {
                let pb = v3(j.anchor_b.unwrap_or(j.anchor));
                let rest = j.rest.unwrap_or((pb - anchor).norm());
                (JointKind::Distance { rest }, pb)
            }
        };
        let joint = Joint::new(kind, a, b, local(a, anchor), local(Some(b), anchor_b))
            .with_compliance(j.compliance);
        set.add_joint(joint).map_err(rigid_err(field))?;
    }
    for (k, a) in scene.attachment.iter().enumerate() {
        let field = format!("attachment[{k}]");
        let r = index(&a.rigid);
        let Some(body) = bodies.iter().find(|b| b.name == a.body) else {
            continue; // validated: names a body
        };
        for &i in &a.particles {
            let Some(p) = body.particles.clone().nth(i) else {
                return Err(SceneError::InvalidValue {
                    file: file.to_path_buf(),
                    line: 0,
                    field: format!("{field}.particles"),
                    value: format!(
                        "{i} (body {:?} has {} particles)",
                        a.body,
                        body.particles.len()
                    ),
                    reason: "each index must name a particle of the body",
                });
            };
            let local = set.body(r).pose().to_local(&particles.x[p]);
            set.attach(r, local, p, a.compliance)
                .map_err(rigid_err(field.clone()))?;
        }
    }
    // A tied particle is held by its attachment, not pushed off the body it is tied to.
    let tied: std::collections::BTreeSet<usize> = scene
        .attachment
        .iter()
        .flat_map(|a| {
            let body = bodies.iter().find(|b| b.name == a.body);
            a.particles
                .iter()
                .filter_map(move |&i| body.and_then(|b| b.particles.clone().nth(i)))
        })
        .collect();
    let mut members = Vec::new();
    let mut radii = Vec::new();
    for b in bodies {
        for p in b.particles.clone().filter(|p| !tied.contains(p)) {
            members.push(p as u32);
            radii.push(b.radius);
        }
    }
    set.couple_particles(members, radii)
        .map_err(rigid_err("rigid".into()))?;
    if let Some(c) = &scene.contacts {
        set.set_margin(c.margin)
            .map_err(rigid_err("contacts.margin".into()))?;
    }
    if let Some(o) = set.deepest_overlap(particles, OVERLAP_TOLERANCE) {
        return Err(overlap_error(scene, file, bodies, &o));
    }
    Ok(Some(set))
}

/// Interpenetration a scene may start with (m): contact to rounding.
const OVERLAP_TOLERANCE: f64 = 1e-9;

/// A mesh body's vertices (body frame) and triangles.
type BodyMesh = (Vec<Vector<3>>, Vec<[usize; 3]>);

/// A rigid body of `spec` at its pose (and, for a mesh, its vertices in the body frame and its
/// triangles).
fn body_of(
    spec: &RigidSpec,
    field: &str,
    file: &Path,
    folder: &Path,
) -> Result<(RigidBody, Option<BodyMesh>), SceneError> {
    let rigid_err = |f: String| {
        let file = file.to_path_buf();
        move |source| SceneError::Rigid {
            file,
            field: f,
            source: Box::new(source),
        }
    };
    let rotation = spec.rotation();
    let q = quaternion_from_degrees(spec.rotation_deg);
    let density = spec.density.unwrap_or(1.0);
    let shape = match &spec.shape {
        solid @ (ShapeSpec::Sphere { .. } | ShapeSpec::Box { .. } | ShapeSpec::Capsule { .. }) => {
            super::colliders::analytic_shape(solid).expect("sphere, box and capsule are analytic")
        }
        ShapeSpec::Mesh {
            path,
            cell,
            padding,
            scale,
        } => {
            let mesh_field = format!("{field}.shape.mesh");
            let mesh = import_mesh(&folder.join(path)).map_err(|source| SceneError::Import {
                file: file.to_path_buf(),
                field: format!("{mesh_field}.path"),
                source,
            })?;
            super::colliders::check_scale(file, &format!("{mesh_field}.scale"), *scale, &mesh)?;
            let scaled: Vec<Vector<3>> = mesh.vertices.iter().map(|v| v * *scale).collect();
            let props = MassProperties::from_mesh(&scaled, &mesh.triangles, density)
                .map_err(rigid_err(format!("{mesh_field}.path")))?;
            let body_vertices: Vec<Vector<3>> = scaled.iter().map(|v| props.to_body(v)).collect();
            let surface = xpbd_core::builders::TriangleSurface {
                vertices: body_vertices.clone(),
                triangles: mesh.triangles.clone(),
            };
            let grid = xpbd_core::contact::SdfGrid::from_mesh(
                &surface,
                *cell,
                padding.unwrap_or(3.0 * cell),
            )
            .map_err(SceneError::contact_at(file, format!("{mesh_field}.path")))?;
            let mass = match spec.mass {
                Some(m) => props.mass.with_mass(m),
                None => props.mass,
            };
            let centre = v3(spec.center) + rotation * props.centroid;
            let axes = nalgebra::UnitQuaternion::from_matrix(&props.axes).into_inner();
            let body = RigidBody::new(Shape::Sdf(std::sync::Arc::new(grid)), mass)
                .and_then(|b| b.at(centre, q * axes))
                .map_err(rigid_err(field.to_string()))?;
            return Ok((body, Some((body_vertices, mesh.triangles))));
        }
        ShapeSpec::Plane { .. } => {
            return Err(SceneError::InvalidValue {
                file: file.to_path_buf(),
                line: 0,
                field: format!("{field}.shape"),
                value: "plane".into(),
                reason: "a rigid body needs a finite shape (sphere, box, capsule or mesh)",
            });
        }
    };
    let props = MassProperties::of_shape(&shape, density).map_err(rigid_err(field.to_string()))?;
    let mass = match spec.mass {
        Some(m) => props.with_mass(m),
        None => props,
    };
    let body = RigidBody::new(shape, mass)
        .and_then(|b| b.at(v3(spec.center), q))
        .map_err(rigid_err(field.to_string()))?;
    Ok((body, None))
}

/// The refusal of bodies that start interpenetrating: the field of the first rigid body
/// involved, the other side named.
fn overlap_error(scene: &SceneDesc, file: &Path, bodies: &[Body], o: &Overlap) -> SceneError {
    let name = |p: Participant| match p {
        Participant::Body(i) => format!("rigid body {:?}", rigid_name(scene, i)),
        Participant::Collider(k) => format!("collider[{k}]"),
        Participant::Particle(i) => {
            let body = bodies
                .iter()
                .find(|b| b.particles.contains(&i))
                .map_or_else(
                    || "a particle".to_string(),
                    |b| format!("body {:?}", b.name),
                );
            format!("particle {i} of {body}")
        }
    };
    let (rigid, other) = match (o.a, o.b) {
        (Participant::Body(i), other) => (i, other),
        (other, Participant::Body(i)) => (i, other),
        _ => (0, o.b),
    };
    SceneError::InvalidValue {
        file: file.to_path_buf(),
        line: 0,
        field: format!("rigid[{rigid}].center"),
        value: format!(
            "{:?} ({} m into {})",
            scene.rigid[rigid].center,
            o.depth,
            name(other)
        ),
        reason: "the rigid body starts interpenetrating another body or a collider: move it \
                 apart (contact to rounding is allowed)",
    }
}
