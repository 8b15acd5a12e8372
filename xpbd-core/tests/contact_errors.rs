//! One test per [`ContactError`] variant: bad input is a typed error naming the field and
//! value, never a panic or a NaN.

use xpbd_core::builders::TriangleSurface;
use xpbd_core::contact::{ColliderId, ContactError, Friction, Pose, SdfGrid};
use xpbd_core::prelude::*;

fn contacts() -> ColliderContacts<3> {
    ColliderContacts::new(0.01, ContactOptions::default()).unwrap()
}

#[test]
fn non_finite_geometry_is_rejected() {
    let e = contacts()
        .add_collider(Collider::fixed(Shape::Sphere { radius: f64::NAN }))
        .unwrap_err();
    assert!(
        matches!(
            e,
            ContactError::NonFiniteGeometry {
                field: "sphere radius",
                ..
            }
        ),
        "{e}"
    );
    let pose = Pose::from_translation(Vector::<3>::new(f64::INFINITY, 0.0, 0.0));
    let e = contacts()
        .add_collider(Collider::fixed(Shape::Sphere { radius: 1.0 }).at(pose))
        .unwrap_err();
    assert!(
        matches!(
            e,
            ContactError::NonFiniteGeometry {
                field: "pose translation",
                ..
            }
        ),
        "{e}"
    );
    // Converts into the core's BuildError for `?` in scene code.
    let b: BuildError = e.into();
    assert!(matches!(b, BuildError::InvalidGeometry(_)));
}

#[test]
fn negative_radius_and_sizes_are_rejected() {
    let e = contacts()
        .add_collider(Collider::fixed(Shape::Sphere { radius: -0.5 }))
        .unwrap_err();
    assert_eq!(
        e,
        ContactError::NegativeSize {
            field: "sphere radius",
            value: -0.5
        }
    );
    let e = ColliderContacts::<3>::new(-0.01, ContactOptions::default()).unwrap_err();
    assert!(matches!(
        e,
        ContactError::NegativeSize {
            field: "particle radius",
            ..
        }
    ));
    let e = contacts()
        .add_collider(Collider::fixed(Shape::Capsule {
            half_length: 0.1,
            radius: -1.0,
        }))
        .unwrap_err();
    assert!(matches!(
        e,
        ContactError::NegativeSize {
            field: "capsule radius",
            ..
        }
    ));
    let e = ParticleContacts::<3>::new(-0.02, Friction::NONE, 0.0, ContactOptions::default())
        .unwrap_err();
    assert!(matches!(e, ContactError::NegativeSize { .. }));
}

#[test]
fn negative_or_inconsistent_friction_is_rejected() {
    let e = Friction::new(-0.1, 0.0).unwrap_err();
    assert!(
        matches!(e, ContactError::InvalidFriction { field: "static coefficient", value, .. } if value == -0.1)
    );
    let e = Friction::new(0.3, 0.5).unwrap_err();
    assert!(matches!(
        e,
        ContactError::InvalidFriction {
            field: "kinetic coefficient",
            ..
        }
    ));
    let bad = Friction {
        static_coefficient: 0.5,
        kinetic_coefficient: f64::NAN,
    };
    let e = contacts()
        .add_collider(Collider::fixed(Shape::Sphere { radius: 1.0 }).with_friction(bad))
        .unwrap_err();
    assert!(matches!(e, ContactError::InvalidFriction { .. }));
    let b: BuildError = e.into();
    assert!(matches!(b, BuildError::InvalidMaterial { .. }));
}

#[test]
fn restitution_outside_unit_interval_is_rejected() {
    let e = contacts()
        .add_collider(Collider::fixed(Shape::Sphere { radius: 1.0 }).with_restitution(1.5))
        .unwrap_err();
    assert_eq!(e, ContactError::InvalidRestitution { value: 1.5 });
}

#[test]
fn improper_rotation_is_rejected() {
    let mut pose = Pose::<3>::identity();
    pose.rotation[(0, 0)] = -1.0; // a reflection: orthonormal, det = −1
    let e = contacts()
        .add_collider(Collider::fixed(Shape::Sphere { radius: 1.0 }).at(pose))
        .unwrap_err();
    assert!(
        matches!(e, ContactError::InvalidRotation { det, .. } if det < 0.0),
        "{e}"
    );
    pose.rotation = xpbd_core::Matrix::<3>::identity() * 2.0;
    let e = pose.validate().unwrap_err();
    assert!(matches!(e, ContactError::InvalidRotation { .. }));
}

#[test]
fn non_closed_mesh_is_rejected_for_an_sdf() {
    let mut cube = TriangleSurface::unit_cube();
    cube.triangles.pop();
    let e = SdfGrid::from_mesh(&cube, 0.1, 0.1).unwrap_err();
    assert!(
        matches!(e, ContactError::NonClosedMesh { forward, backward, .. } if forward + backward == 1),
        "{e}"
    );
    // A closed but inconsistently oriented mesh (one face flipped) has no inside either.
    let mut cube = TriangleSurface::unit_cube();
    cube.triangles[0].swap(1, 2);
    assert!(matches!(
        SdfGrid::from_mesh(&cube, 0.1, 0.1),
        Err(ContactError::NonClosedMesh { .. })
    ));
}

#[test]
fn degenerate_mesh_triangle_is_rejected() {
    let mesh = TriangleSurface {
        vertices: vec![
            Vector::<3>::zeros(),
            Vector::<3>::x(),
            Vector::<3>::x() * 2.0,
        ],
        triangles: vec![[0, 1, 2]],
    };
    let e = SdfGrid::from_mesh(&mesh, 0.1, 0.1).unwrap_err();
    assert_eq!(
        e,
        ContactError::BadTriangle {
            triangle: 0,
            reason: "zero area"
        }
    );
}

#[test]
fn unknown_collider_id_is_rejected() {
    let mut c = contacts();
    let e = c
        .set_velocity(ColliderId(3), Vector::<3>::zeros())
        .unwrap_err();
    assert_eq!(e, ContactError::UnknownCollider { id: 3, len: 0 });
}
