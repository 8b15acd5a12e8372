//! Rows in sweep order ([`XpbiSettings::reorder_by_cell`]) against rows by member: the same
//! constraint of the same member has the same stencil, compliance, value and gradients, in
//! both constraint forms (the generic `evaluate` path; the run kernel is covered by the
//! bit-identical trajectories of `tests/row_order.rs`).

use nalgebra::{SVector, Vector2};
use xpbd_core::Particles;
use xpbd_core::constraint::{ConstraintKind, SubstepContext};

use super::{ConstraintForm, KernelFrame, XpbiContinuum, XpbiSettings};
use crate::material::Material;
use crate::scene::lattice_box;

/// A 12 × 8 sand block (volumes, F and hardening varying by member) after one substep's frozen data with sheared, jittered candidates, and
/// its candidate positions.
fn block(form: ConstraintForm, reorder: bool) -> (XpbiContinuum<2>, Vec<SVector<f64, 2>>) {
    let dx = 0.01;
    let mut p = Particles::<2>::new();
    for x in lattice_box(Vector2::zeros(), Vector2::new(0.12, 0.08), dx) {
        p.push(x, 1.0);
    }
    let n = p.len();
    let settings = XpbiSettings {
        constraint_form: form,
        reorder_by_cell: reorder,
        ..XpbiSettings::new(dx)
    };
    let members = (0..n as u32).collect();
    // Distinct volumes, deformation gradients and hardening per member, so that a row/member
    // mix-up changes a value.
    let volumes = (0..n)
        .map(|i| dx * dx * (1.0 + 0.2 * (0.7 * i as f64).sin()))
        .collect();
    let mut c =
        XpbiContinuum::new(&p, members, volumes, Material::sand(), settings).expect("valid block");
    let state: Vec<f64> = (0..n)
        .flat_map(|i| {
            let t = i as f64;
            let (a, b) = (0.01 * (1.3 * t).sin(), 0.005 * (0.9 * t).cos());
            [1.0 + a, 0.0, b, 1.0 - a, 1e-3 * t, 0.0]
        })
        .collect();
    c.set_state_vector(&state).expect("valid state");
    let ctx = SubstepContext {
        h: 1e-3,
        substep: 0,
        substeps: 1,
        time: 0.0,
        dedicated_pool: false,
    };
    c.begin_substep(&p, &ctx);
    let x =
        p.x.iter()
            .enumerate()
            .map(|(i, x)| x + Vector2::new(0.1 * x.y + 1e-4 * (1.7 * i as f64).sin(), -0.02 * x.y))
            .collect();
    (c, x)
}

fn constraints_agree(form: ConstraintForm) {
    let (by_member, x) = block(form, false);
    let (in_order, _) = block(form, true);
    let per_member = by_member.len() / by_member.members().len();
    assert!(!in_order.row_member.is_empty() && by_member.row_member.is_empty());
    let mut seen = vec![false; by_member.len()];
    let mut moved_rows = 0;
    for c in 0..in_order.len() {
        let row = c / per_member;
        let member = in_order.row_member[row] as usize;
        moved_rows += usize::from(member != row);
        let k = member * per_member + c % per_member;
        seen[k] = true;
        assert_eq!(in_order.stencil(c), by_member.stencil(k), "stencil of {c}");
        assert_eq!(in_order.compliance(c), by_member.compliance(k));
        let xs: Vec<_> = in_order.stencil(c).iter().map(|&i| x[i as usize]).collect();
        let (mut ga, mut gb) = (
            vec![SVector::zeros(); xs.len()],
            vec![SVector::zeros(); xs.len()],
        );
        let va = in_order.evaluate(c, &xs, &mut ga);
        let vb = by_member.evaluate(k, &xs, &mut gb);
        assert!(va != 0.0, "constraint {c} is loaded");
        assert_eq!((va, ga), (vb, gb), "constraint {c} (member {member})");
    }
    assert!(
        seen.iter().all(|&s| s),
        "rows are a permutation of the members"
    );
    assert!(
        moved_rows > 0,
        "the cell order is not the member order here"
    );
}

#[test]
fn reordered_rows_give_the_same_constraints_single_form() {
    constraints_agree(ConstraintForm::Single);
}

#[test]
fn reordered_rows_give_the_same_constraints_split_form() {
    constraints_agree(ConstraintForm::Split);
}

#[test]
fn lagrangian_kernels_keep_rows_by_member() {
    let (mut c, _) = block(ConstraintForm::Single, true);
    c.set_kernel_frame(KernelFrame::Reference);
    assert!(c.row_member.is_empty());
    assert_eq!(c.reference_weights.len(), c.weights.len());
    assert_eq!(c.f_total.len(), c.members().len());
    // Row k is member k again: its stencil starts with its own particle.
    for k in 0..c.len() {
        assert_eq!(c.stencil(k)[0] as usize, k);
    }
}

#[test]
fn a_member_listed_twice_is_refused() {
    let mut p = Particles::<2>::new();
    for i in 0..3 {
        p.push(Vector2::new(0.01 * i as f64, 0.0), 1.0);
    }
    let mut settings = XpbiSettings::new(0.01);
    settings.min_distance_ratio = 0.0; // the distance check would not see it
    let err = XpbiContinuum::new(&p, vec![0, 2, 2], vec![1e-4; 3], Material::sand(), settings)
        .unwrap_err();
    assert_eq!(err, crate::error::XpbiError::DuplicateMember { index: 2 });
}
