//! The collider contacts of a scene (`[contacts]`, `[[collider]]`): shapes at their poses
//! with friction and restitution, and each particle's contact radius.

use std::path::Path;

use xpbd_core::Vector;
use xpbd_core::contact::{Collider, ColliderContacts, ContactOptions, Friction, Pose, Shape};

use super::v3;
use crate::error::SceneError;
use crate::export::{tet_volume, triangle_area};
use crate::import::{ImportedMesh, import_mesh};
use crate::interaction::Body;
use crate::scene::{SceneDesc, ShapeSpec};

/// The collider contacts of `scene` (`None` without `[contacts]`) for the assembled
/// `particles`: continuum and fluid particles (`spaced`: their ranges and spacings) keep their
/// centres ½Δx from collider surfaces, every other particle `[contacts] radius`. A body that
/// starts inside a collider is refused.
pub(super) fn collider_contacts(
    scene: &SceneDesc,
    file: &Path,
    particles: &xpbd_core::Particles<3>,
    bodies: &[Body],
    spaced: &[(std::ops::Range<usize>, f64)],
) -> Result<Option<ColliderContacts<3>>, SceneError> {
    let Some(c) = &scene.contacts else {
        return Ok(None);
    };
    let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let options = ContactOptions {
        margin: c.margin,
        ..ContactOptions::default()
    };
    let mut contacts = ColliderContacts::new(c.radius, options)
        .map_err(SceneError::contact_at(file, "contacts".into()))?;
    for (k, spec) in scene.collider.iter().enumerate() {
        let shape = match &spec.shape {
            analytic @ (ShapeSpec::Plane { .. }
            | ShapeSpec::Sphere { .. }
            | ShapeSpec::Box { .. }
            | ShapeSpec::Capsule { .. }) => {
                analytic_shape(analytic).expect("every shape but a mesh is analytic")
            }
            ShapeSpec::Mesh {
                path,
                cell,
                padding,
                scale,
            } => Shape::Sdf(std::sync::Arc::new(mesh_sdf(
                file,
                &format!("collider[{k}].shape.mesh"),
                &folder.join(path),
                *cell,
                *padding,
                *scale,
            )?)),
        };
        let friction = Friction::coulomb(spec.friction).map_err(SceneError::contact_at(
            file,
            format!("collider[{k}].friction"),
        ))?;
        let collider = Collider::fixed(shape)
            .at(Pose {
                translation: v3(spec.center),
                rotation: spec.rotation(),
            })
            .with_friction(friction)
            .with_restitution(spec.restitution)
            .moving_at(v3(spec.velocity));
        contacts
            .add_collider(collider)
            .map_err(SceneError::contact_at(file, format!("collider[{k}]")))?;
    }
    if !spaced.is_empty() {
        let mut radii = vec![c.radius; particles.len()];
        for (members, spacing) in spaced {
            radii[members.clone()].fill(0.5 * spacing);
        }
        contacts
            .set_radii(radii)
            .map_err(SceneError::contact_at(file, "contacts".into()))?;
    }
    crate::interaction::check_outside_colliders(particles, &contacts, bodies, file)?;
    Ok(Some(contacts))
}

/// The core's shape of a plane, sphere, box or capsule spec (`None` for a mesh, which needs
/// its file read and its grid built).
pub(super) fn analytic_shape(spec: &ShapeSpec) -> Option<Shape<3>> {
    Some(match spec {
        ShapeSpec::Plane { normal, offset } => Shape::HalfSpace {
            normal: v3(*normal),
            offset: *offset,
        },
        ShapeSpec::Sphere { radius } => Shape::Sphere { radius: *radius },
        ShapeSpec::Box { half_extents } => Shape::Box {
            half_extents: v3(*half_extents),
        },
        ShapeSpec::Capsule {
            half_length,
            radius,
        } => Shape::Capsule {
            half_length: *half_length,
            radius: *radius,
        },
        ShapeSpec::Mesh { .. } => return None,
    })
}

/// The signed-distance grid of the closed mesh at `path` (vertices times `scale`), nodes
/// `cell` apart over its bounding box grown by `padding` (default 3 cells); `field` names the
/// `mesh` table in errors, each naming the value at fault: the `path` of an unreadable or open
/// mesh, the `scale` that takes it beyond [`crate::scene::MAX_COORDINATE`] or to zero area
/// ([`check_scale`]), and for a grid of more than [`ShapeSpec::MAX_MESH_NODES`] the `padding`
/// (when the mesh's own box fits at this cell), else the `scale` (when the mesh fits at scale
/// 1), else the `cell`.
pub(super) fn mesh_sdf(
    file: &Path,
    field: &str,
    path: &Path,
    cell: f64,
    padding: Option<f64>,
    scale: f64,
) -> Result<xpbd_core::contact::SdfGrid<3>, SceneError> {
    let mesh = import_mesh(path).map_err(|source| SceneError::Import {
        file: file.to_path_buf(),
        field: format!("{field}.path"),
        source,
    })?;
    check_scale(file, &format!("{field}.scale"), scale, &mesh)?;
    let vertices: Vec<Vector<3>> = mesh.vertices.iter().map(|v| v * scale).collect();
    let (mut lo, mut hi) = (
        Vector::<3>::repeat(f64::INFINITY),
        Vector::<3>::repeat(f64::NEG_INFINITY),
    );
    for v in &mesh.vertices {
        lo = lo.inf(v);
        hi = hi.sup(v);
    }
    // Nodes of the grid over a box of sides `extent` grown by `pad` on every side.
    let nodes = |extent: Vector<3>, pad: f64| -> f64 {
        (0..3)
            .map(|a| ((extent[a] + 2.0 * pad) / cell).ceil() + 1.0)
            .product()
    };
    let (extent, grown) = ((hi - lo) * scale, padding.unwrap_or(3.0 * cell));
    if nodes(extent, grown) > ShapeSpec::MAX_MESH_NODES {
        let fits = |n: f64| n <= ShapeSpec::MAX_MESH_NODES;
        let (name, value, reason) = match padding {
            Some(p) if fits(nodes(extent, 0.0)) => (
                "padding",
                p,
                "grows the mesh's box so much that its signed-distance grid at this cell would \
                 have more than 16.8 M nodes",
            ),
            _ if scale != 1.0 && fits(nodes(hi - lo, 0.0)) => (
                "scale",
                scale,
                "enlarges the mesh so much that its signed-distance grid at this cell would have \
                 more than 16.8 M nodes",
            ),
            _ => (
                "cell",
                cell,
                "gives a signed-distance grid of more than 16.8 M nodes over the mesh's box",
            ),
        };
        return Err(SceneError::InvalidValue {
            file: file.to_path_buf(),
            line: 0,
            field: format!("{field}.{name}"),
            value: value.to_string(),
            reason,
        });
    }
    let surface = xpbd_core::builders::TriangleSurface {
        vertices,
        triangles: mesh.triangles,
    };
    xpbd_core::contact::SdfGrid::from_mesh(&surface, cell, grown).map_err(|source| {
        use xpbd_core::contact::ContactError as C;
        // The contact module names its own parameter; the scene field is the one it came from.
        let name = match &source {
            C::NonFiniteGeometry { field, .. } | C::NegativeSize { field, .. } => match *field {
                "sdf cell size" => "cell",
                "sdf padding" => "padding",
                "mesh vertex" => "scale",
                _ => "path",
            },
            _ => "path",
        };
        SceneError::contact_at(file, format!("{field}.{name}"))(source)
    })
}

/// Refuses a mesh's `scale` (the scene field `field`) that takes a vertex of `mesh` beyond
/// [`crate::scene::MAX_COORDINATE`] in magnitude (where areas and volumes would overflow, or lose
/// their precision) or shrinks a triangle or tetrahedron to zero area or volume (underflow):
/// the error names the scale, not the area, mass or grid it would break downstream.
pub(super) fn check_scale(
    file: &Path,
    field: &str,
    scale: f64,
    mesh: &ImportedMesh,
) -> Result<(), SceneError> {
    let x: Vec<Vector<3>> = mesh.vertices.iter().map(|v| v * scale).collect();
    let refuse = |reason: &'static str| SceneError::InvalidValue {
        file: file.to_path_buf(),
        line: 0,
        field: field.to_string(),
        value: format!("{scale:?}"),
        reason,
    };
    let limit = crate::validate::MAX_COORDINATE;
    if x.iter()
        .flatten()
        .any(|c| !c.is_finite() || c.abs() > limit)
    {
        return Err(refuse(
            "takes a vertex of the mesh beyond 1e8 m: scaled coordinates must be finite with \
             magnitude <= 1e8 (so that areas and volumes stay finite)",
        ));
    }
    let flat = mesh.triangles.iter().any(|&t| triangle_area(&x, t) == 0.0)
        || mesh.tets.iter().any(|&t| tet_volume(&x, t) == 0.0);
    if flat {
        return Err(refuse(
            "shrinks a triangle or tetrahedron of the mesh to zero area or volume (underflow)",
        ));
    }
    Ok(())
}
