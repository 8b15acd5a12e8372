//! `[[rigid]]` and `[[joint]]`: the range checks of rigid bodies and joints, each naming the
//! field and the value.

use super::Validator;
use crate::scene::{JointKindSpec, SceneDesc, ShapeSpec};

/// The name of `rigid[k]` (its `name`, or the table path).
pub(crate) fn rigid_name(scene: &SceneDesc, k: usize) -> String {
    scene.rigid[k]
        .name
        .clone()
        .unwrap_or_else(|| format!("rigid[{k}]"))
}

/// Every `[[rigid]]` and `[[joint]]` of `scene`.
pub(crate) fn validate(v: &mut Validator<'_>, scene: &SceneDesc) {
    let others: Vec<String> = scene.body_names().into_iter().map(|(_, n, _)| n).collect();
    let mut names: Vec<String> = Vec::new();
    for (k, r) in scene.rigid.iter().enumerate() {
        let f = |s: &str| format!("rigid[{k}].{s}");
        let name = rigid_name(scene, k);
        if let Some(n) = &r.name {
            v.name(&f("name"), n);
        }
        v.check_text(
            &f("name"),
            format!("{name:?}"),
            !names.contains(&name) && !others.contains(&name),
            "must differ from every other body's name",
        );
        names.push(name);
        v.check_text(
            &f("shape"),
            "plane".into(),
            !matches!(r.shape, ShapeSpec::Plane { .. }),
            "a rigid body needs a finite shape (sphere, box, capsule or mesh); a plane is a collider",
        );
        super::sections::shape(v, &r.shape, &f);
        match (r.density, r.mass) {
            (Some(d), None) => v.positive(&f("density"), d),
            (None, Some(m)) => v.positive(&f("mass"), m),
            (Some(_), Some(m)) => v.check(
                &f("mass"),
                m,
                false,
                "give either density or mass, not both",
            ),
            (None, None) => v.check_text(
                &f("density"),
                "absent".into(),
                false,
                "a rigid body needs its density (kg/m^3) or its mass (kg)",
            ),
        }
        v.finite3(&f("center"), r.center);
        for (a, &d) in r.rotation_deg.iter().enumerate() {
            v.check(
                &f(&format!("rotation_deg[{a}]")),
                d,
                d.is_finite() && d.abs() <= 360.0,
                "must be finite degrees with |angle| <= 360",
            );
        }
        v.finite3(&f("velocity"), r.velocity);
        v.finite3(&f("angular_velocity"), r.angular_velocity);
        v.non_negative(&f("friction"), r.friction);
        v.check(
            &f("restitution"),
            r.restitution,
            (0.0..=1.0).contains(&r.restitution),
            "must lie in [0, 1]",
        );
    }
    for (k, a) in scene.attachment.iter().enumerate() {
        let f = |s: &str| format!("attachment[{k}].{s}");
        v.check_text(
            &f("rigid"),
            format!("{:?}", a.rigid),
            names.contains(&a.rigid),
            "must name a [[rigid]] body",
        );
        v.check_text(
            &f("body"),
            format!("{:?}", a.body),
            others.contains(&a.body),
            "must name a cloth, rope, soft body, mesh, continuum or fluid",
        );
        v.check_text(
            &f("particles"),
            "[]".into(),
            !a.particles.is_empty(),
            "must list at least one particle",
        );
        v.non_negative(&f("compliance"), a.compliance);
    }
    for (k, j) in scene.joint.iter().enumerate() {
        let f = |s: &str| format!("joint[{k}].{s}");
        for (field, name) in j.a.iter().map(|a| ("a", a)).chain([("b", &j.b)]) {
            v.check_text(
                &f(field),
                format!("{name:?}"),
                names.contains(name),
                "must name a [[rigid]] body",
            );
        }
        v.check_text(
            &f("b"),
            format!("{:?}", j.b),
            j.a.as_ref() != Some(&j.b),
            "a joint connects two different bodies",
        );
        v.finite3(&f("anchor"), j.anchor);
        v.non_negative(&f("compliance"), j.compliance);
        let hinge = j.kind == JointKindSpec::Hinge;
        let distance = j.kind == JointKindSpec::Distance;
        let only = |v: &mut Validator<'_>, field: &str, given: bool, allowed: bool| {
            v.check_text(
                &f(field),
                "given".into(),
                !given || allowed,
                "applies to another kind of joint (axis, limits_deg, motor: hinge; anchor_b, rest: distance)",
            );
        };
        only(v, "axis", j.axis.is_some(), hinge);
        only(v, "limits_deg", j.limits_deg.is_some(), hinge);
        only(v, "motor", j.motor.is_some(), hinge);
        only(v, "anchor_b", j.anchor_b.is_some(), distance);
        only(v, "rest", j.rest.is_some(), distance);
        if hinge {
            match j.axis {
                Some(axis) => {
                    v.finite3(&f("axis"), axis);
                    v.check_text(
                        &f("axis"),
                        format!("{axis:?}"),
                        axis.iter().any(|&c| c != 0.0),
                        "must be non-zero",
                    );
                }
                None => v.check_text(
                    &f("axis"),
                    "absent".into(),
                    false,
                    "a hinge needs its axis (world, at the start)",
                ),
            }
            if let Some([lo, hi]) = j.limits_deg {
                v.check_text(
                    &f("limits_deg"),
                    format!("[{lo}, {hi}]"),
                    lo.is_finite() && hi.is_finite() && lo <= hi && lo >= -180.0 && hi <= 180.0,
                    "must be [lo, hi] degrees with -180 <= lo <= hi <= 180",
                );
            }
            if let Some(m) = j.motor {
                v.check(&f("motor"), m, m.is_finite(), "must be finite (rad/s)");
                v.check_text(
                    &f("motor"),
                    m.to_string(),
                    j.limits_deg.is_none(),
                    "a driven hinge has no angle limits: give motor or limits_deg, not both",
                );
            }
        }
        if distance {
            match j.anchor_b {
                Some(b) => v.finite3(&f("anchor_b"), b),
                None => v.check_text(
                    &f("anchor_b"),
                    "absent".into(),
                    false,
                    "a distance joint needs the anchor on b (world, at the start)",
                ),
            }
            if let Some(r) = j.rest {
                v.non_negative(&f("rest"), r);
            }
        }
    }
}
