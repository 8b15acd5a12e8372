//! The range checks of each section of a [`SceneDesc`], one function per section, called by
//! [`SceneDesc::validate`] in the order in which they report (the [`Validator`] keeps the
//! first error only).

use std::collections::BTreeMap;

use xpbd_core::SolverKind;

use super::Validator;
use crate::continuum::ContinuumSpec;
use crate::fluid::FluidSpec;
use crate::scene::{
    ClothSpec, ColliderSpec, ContactSection, MAX_FRAMES, MAX_PER_STEP_COUNT, MaterialSpec,
    MeshSpec, OutputSection, RopeSpec, SceneDesc, ShapeSpec, SoftBoxSpec, SolverSection,
};

/// `[time]`: the step and its largest adaptive part, then the scene's name, then the frame and
/// step counts (in this order, the order errors were always reported in).
pub(crate) fn time(v: &mut Validator<'_>, scene: &SceneDesc) {
    v.positive("time.dt", scene.time.dt);
    if let Some(m) = scene.time.dt_max {
        v.positive("time.dt_max", m);
        v.check(
            "time.dt_max",
            m,
            scene.is_adaptive(),
            "a largest adaptive step is set but steps are fixed (`adaptive = false`, or \
             absent without a continuum or fluid): set `adaptive = true` or remove it",
        );
        v.check(
            "time.dt_max",
            m,
            (scene.time.dt / m).is_finite()
                && (scene.time.dt / m).ceil() <= xpbd_core::simulation::MAX_STEPS_PER_SPAN,
            "dt / dt_max must be at most 10^6 steps per step of dt (a frame would not end)",
        );
    }
    v.name("name", &scene.name);
    v.count_at_most("time.frames", scene.time.frames, MAX_FRAMES);
    v.count_at_most(
        "time.steps_per_frame",
        scene.time.steps_per_frame,
        MAX_PER_STEP_COUNT,
    );
}

/// `[solver]`: counts, threads, gravity, damping, warm start and the Jacobi relaxation.
pub(crate) fn solver(v: &mut Validator<'_>, solver: &SolverSection) {
    v.count_at_most("solver.substeps", solver.substeps, MAX_PER_STEP_COUNT);
    v.count_at_most("solver.iterations", solver.iterations, MAX_PER_STEP_COUNT);
    v.check(
        "solver.threads",
        solver.threads as f64,
        solver.threads <= xpbd_core::simulation::MAX_THREADS,
        "at most 256 worker threads (0 = rayon's pool; results do not depend on it)",
    );
    v.finite3("solver.gravity", solver.gravity);
    v.non_negative("solver.velocity_damping", solver.velocity_damping);
    if let Some(d) = solver.multiplier_warm_start {
        v.check(
            "solver.multiplier_warm_start",
            d,
            (0.0..=1.0).contains(&d),
            "decay must lie in [0, 1]",
        );
    }
    if let SolverKind::Jacobi { omega, .. } = solver.method {
        v.check(
            "solver.method.omega",
            omega,
            omega.is_finite() && omega > 0.0 && omega <= 2.0,
            "must lie in (0, 2]",
        );
    }
}

/// `[output]`: the frame interval.
pub(crate) fn output(v: &mut Validator<'_>, output: &OutputSection) {
    v.count("output.every", output.every);
}

/// `[materials.NAME]`: each material's name and SI values, in name order.
pub(crate) fn materials(v: &mut Validator<'_>, materials: &BTreeMap<String, MaterialSpec>) {
    for (name, m) in materials {
        v.name(&format!("materials.{name}"), name);
        let f = |k: &str| format!("materials.{name}.{k}");
        match m.density {
            Some(d) => v.positive(&f("density"), d),
            None => v.check_text(
                &f("density"),
                "absent".into(),
                false,
                "required (or a `preset` that gives it)",
            ),
        }
        if let Some(e) = m.youngs {
            v.positive(&f("youngs"), e);
        }
        let nu = m.poisson();
        v.check(
            &f("poisson"),
            nu,
            nu > -1.0 && nu < 0.5,
            "must lie in (-1, 0.5)",
        );
        if let Some(p) = &m.plasticity {
            crate::continuum::validate_plasticity(p, v, &f("plasticity"));
        }
        if let Some(t) = m.thickness {
            v.length(&f("thickness"), t);
        }
        if let Some(k) = m.bending_stiffness {
            v.positive(&f("bending_stiffness"), k);
        }
    }
}

/// `[[cloth]]`: resolution, size, origin and pins of each grid.
pub(crate) fn cloths(v: &mut Validator<'_>, cloth: &[ClothSpec]) {
    for (k, c) in cloth.iter().enumerate() {
        let f = |s: &str| format!("cloth[{k}].{s}");
        for a in 0..2 {
            let r = c.resolution[a];
            v.check(
                &f(&format!("resolution[{a}]")),
                r as f64,
                (2..=4096).contains(&r),
                "must lie in [2, 4096]",
            );
            v.length(&f(&format!("size[{a}]")), c.size[a]);
        }
        v.finite3(&f("origin"), c.origin);
        for (p, pin) in c.pins.iter().enumerate() {
            let ok = pin[0] < c.resolution[0] && pin[1] < c.resolution[1];
            v.check_text(
                &f(&format!("pins[{p}]")),
                format!("{pin:?}"),
                ok,
                "grid coordinate outside the resolution",
            );
        }
    }
}

/// `[[rope]]`: link count, end points and radius of each rope.
pub(crate) fn ropes(v: &mut Validator<'_>, rope: &[RopeSpec]) {
    for (k, r) in rope.iter().enumerate() {
        let f = |s: &str| format!("rope[{k}].{s}");
        v.check(
            &f("links"),
            r.links as f64,
            (1..=1_000_000).contains(&r.links),
            "must lie in [1, 10^6]",
        );
        v.finite3(&f("start"), r.start);
        v.finite3(&f("end"), r.end);
        v.length(&f("radius"), r.radius);
        v.check_text(
            &f("end"),
            format!("{:?}", r.end),
            r.start != r.end,
            "must differ from start",
        );
    }
}

/// `[[soft_box]]`: size, cells, origin and pin plane of each box.
pub(crate) fn soft_boxes(v: &mut Validator<'_>, soft_box: &[SoftBoxSpec]) {
    for (k, b) in soft_box.iter().enumerate() {
        let f = |s: &str| format!("soft_box[{k}].{s}");
        for a in 0..3 {
            v.length(&f(&format!("size[{a}]")), b.size[a]);
            let c = b.cells[a];
            v.check(
                &f(&format!("cells[{a}]")),
                c as f64,
                (1..=256).contains(&c),
                "must lie in [1, 256]",
            );
        }
        v.finite3(&f("origin"), b.origin);
        if let Some(p) = b.pin_x_below {
            v.check(&f("pin_x_below"), p, p.is_finite(), "must be finite");
        }
    }
}

/// `[[mesh]]`: translation and scale of each mesh (the file itself is checked when it is read).
pub(crate) fn meshes(v: &mut Validator<'_>, mesh: &[MeshSpec]) {
    for (k, m) in mesh.iter().enumerate() {
        v.finite3(&format!("mesh[{k}].translate"), m.translate);
        v.positive(&format!("mesh[{k}].scale"), m.scale);
    }
}

/// `[[collider]]`: pose, friction, restitution, velocity and shape of each collider.
pub(crate) fn colliders(v: &mut Validator<'_>, collider: &[ColliderSpec]) {
    for (k, c) in collider.iter().enumerate() {
        let f = |s: &str| format!("collider[{k}].{s}");
        v.finite3(&f("center"), c.center);
        for (a, &r) in c.rotation_deg.iter().enumerate() {
            v.check(
                &f(&format!("rotation_deg[{a}]")),
                r,
                r.is_finite() && r.abs() <= 360.0,
                "must be finite degrees with |angle| <= 360",
            );
        }
        v.check(
            &f("friction"),
            c.friction,
            c.friction.is_finite() && c.friction >= 0.0,
            "must be finite and >= 0",
        );
        v.check(
            &f("restitution"),
            c.restitution,
            (0.0..=1.0).contains(&c.restitution),
            "must lie in [0, 1]",
        );
        v.finite3(&f("velocity"), c.velocity);
        shape(v, &c.shape, &f);
    }
}

/// `collider[k].shape`: the dimensions of one collider's shape; `f` makes the field path.
pub(crate) fn shape(v: &mut Validator<'_>, shape: &ShapeSpec, f: &dyn Fn(&str) -> String) {
    match shape {
        ShapeSpec::Plane { normal, offset } => {
            v.finite3(&f("shape.plane.normal"), *normal);
            v.check_text(
                &f("shape.plane.normal"),
                format!("{normal:?}"),
                normal.iter().any(|&n| n != 0.0),
                "must be non-zero",
            );
            v.check(
                &f("shape.plane.offset"),
                *offset,
                offset.is_finite(),
                "must be finite",
            );
        }
        ShapeSpec::Sphere { radius } => v.length(&f("shape.sphere.radius"), *radius),
        ShapeSpec::Box { half_extents } => {
            for a in 0..3 {
                v.length(&f(&format!("shape.box.half_extents[{a}]")), half_extents[a]);
            }
        }
        ShapeSpec::Capsule {
            half_length,
            radius,
        } => {
            v.check(
                &f("shape.capsule.half_length"),
                *half_length,
                half_length.is_finite() && *half_length >= 0.0,
                "must be finite and >= 0",
            );
            v.length(&f("shape.capsule.radius"), *radius);
        }
        ShapeSpec::Mesh {
            path,
            cell,
            padding,
            scale,
        } => {
            v.check_text(
                &f("shape.mesh.path"),
                path.display().to_string(),
                !path.as_os_str().is_empty(),
                "must name a mesh file",
            );
            v.length(&f("shape.mesh.cell"), *cell);
            if let Some(p) = padding {
                v.check(
                    &f("shape.mesh.padding"),
                    *p,
                    p.is_finite() && *p >= 0.0,
                    "must be finite and >= 0",
                );
            }
            v.length(&f("shape.mesh.scale"), *scale);
        }
    }
}

/// `[contacts]`: the particle radius and margin, and the table's presence when there are
/// colliders.
pub(crate) fn contacts(v: &mut Validator<'_>, contacts: Option<&ContactSection>, colliders: bool) {
    match contacts {
        Some(c) => {
            v.length("contacts.radius", c.radius);
            v.check(
                "contacts.margin",
                c.margin,
                c.margin.is_finite() && c.margin >= 0.0,
                "must be finite and >= 0",
            );
        }
        None if colliders => {
            v.check_text(
                "contacts",
                "absent".into(),
                false,
                "a [contacts] table with the particle radius is required when there are colliders",
            );
        }
        None => {}
    }
}

/// `[[continuum]]`: each continuum (`crate::continuum::validate_spec`).
pub(crate) fn continua(v: &mut Validator<'_>, continuum: &[ContinuumSpec]) {
    for (k, c) in continuum.iter().enumerate() {
        crate::continuum::validate_spec(v, k, c);
    }
}

/// `[[fluid]]`: each liquid (`crate::fluid::validate`).
pub(crate) fn fluids(v: &mut Validator<'_>, fluid: &[FluidSpec]) {
    for (k, f) in fluid.iter().enumerate() {
        crate::fluid::validate(v, k, f);
    }
}

/// The scene has at least one body.
pub(crate) fn has_body(v: &mut Validator<'_>, scene: &SceneDesc) {
    if scene.cloth.is_empty()
        && scene.rope.is_empty()
        && scene.soft_box.is_empty()
        && scene.mesh.is_empty()
        && scene.continuum.is_empty()
        && scene.fluid.is_empty()
        && scene.rigid.is_empty()
    {
        v.check_text(
            "cloth/rope/soft_box/mesh/continuum/fluid/rigid",
            "none".into(),
            false,
            "the scene has no body",
        );
    }
}
