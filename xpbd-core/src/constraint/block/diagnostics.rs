//! The diagnostics of a [`ConstraintBlock`]: residuals, energies, strains and constraint
//! forces, evaluated at given positions with the block's reused scratch (no allocation once
//! it has grown).

use super::{ConstraintBlock, SubstepContext};
use crate::Vector;
use crate::constraint::ConstraintKind;

/// Σ (C + α̃ λ)² over the block
/// ([`ConstraintSet::residual_squared`](super::ConstraintSet::residual_squared)).
pub(super) fn residual_squared<K: ConstraintKind<D>, const D: usize>(
    block: &ConstraintBlock<K, D>,
    x: &[Vector<D>],
    ctx: &SubstepContext,
) -> f64 {
    let mut guard = block.diagnostic_scratch.lock().expect("diagnostic scratch");
    let (xs, grad) = &mut *guard;
    let mut sum = 0.0;
    for c in 0..block.kind.len() {
        let value = eval_at(&block.kind, c, x, xs, grad);
        let lambda = block.lambda.get(c).copied().unwrap_or(0.0);
        if block.kind.unilateral() && value >= 0.0 && lambda <= 0.0 {
            continue;
        }
        let r = value + block.kind.compliance(c) / (ctx.h * ctx.h) * lambda;
        sum += r * r;
    }
    sum
}

/// The multipliers' elastic energy Σ α λ² / (2 h⁴)
/// ([`ConstraintSet::multiplier_energy`](super::ConstraintSet::multiplier_energy)).
pub(super) fn multiplier_energy<K: ConstraintKind<D>, const D: usize>(
    block: &ConstraintBlock<K, D>,
    h: f64,
) -> f64 {
    let h4 = (h * h) * (h * h);
    let n = block.kind.len().min(block.lambda.len());
    (0..n)
        .map(|c| {
            let lambda = block.lambda[c];
            0.5 * block.kind.compliance(c) * lambda * lambda / h4
        })
        .sum()
}

/// Σ C²/(2α) over compliant constraints at `x`
/// ([`ConstraintSet::elastic_energy`](super::ConstraintSet::elastic_energy)).
pub(super) fn elastic_energy<K: ConstraintKind<D>, const D: usize>(
    block: &ConstraintBlock<K, D>,
    x: &[Vector<D>],
) -> f64 {
    let mut guard = block.diagnostic_scratch.lock().expect("diagnostic scratch");
    let (xs, grad) = &mut *guard;
    let mut sum = 0.0;
    for c in 0..block.kind.len() {
        let alpha = block.kind.compliance(c);
        if alpha > 0.0 {
            let value = eval_at(&block.kind, c, x, xs, grad);
            if block.kind.unilateral() && value >= 0.0 {
                continue;
            }
            sum += value * value / (2.0 * alpha);
        }
    }
    sum
}

/// The most strained constraint at `x`
/// ([`ConstraintSet::most_strained`](super::ConstraintSet::most_strained)).
pub(super) fn most_strained<K: ConstraintKind<D>, const D: usize>(
    block: &ConstraintBlock<K, D>,
    x: &[Vector<D>],
) -> Option<(usize, f64, f64)> {
    let mut guard = block.diagnostic_scratch.lock().expect("diagnostic scratch");
    let (xs, grad) = &mut *guard;
    let mut worst: Option<(usize, f64, f64)> = None;
    for c in 0..block.kind.len() {
        let value = eval_at(&block.kind, c, x, xs, grad);
        // Kinds without a strain measure answer None for every constraint.
        let s = block.kind.relative_strain(c, value)?.abs();
        let s = if s.is_nan() { f64::INFINITY } else { s };
        if worst.is_none_or(|(_, w, _)| s > w) {
            worst = Some((c, s, value));
        }
    }
    worst
}

/// The constraint of largest |C| at `x`, among those touching `particle` if given
/// ([`ConstraintSet::worst_constraint`](super::ConstraintSet::worst_constraint)).
pub(super) fn worst_constraint<K: ConstraintKind<D>, const D: usize>(
    block: &ConstraintBlock<K, D>,
    x: &[Vector<D>],
    particle: Option<usize>,
) -> Option<(usize, f64)> {
    let mut guard = block.diagnostic_scratch.lock().expect("diagnostic scratch");
    let (xs, grad) = &mut *guard;
    let mut best: Option<(usize, f64)> = None;
    for c in 0..block.kind.len() {
        if let Some(p) = particle
            && !block.kind.stencil(c).contains(&(p as u32))
        {
            continue;
        }
        let value = eval_at(&block.kind, c, x, xs, grad);
        let score = if value.is_finite() {
            value.abs()
        } else {
            f64::INFINITY
        };
        if best.is_none_or(|(_, b)| {
            score
                > if b.is_finite() {
                    b.abs()
                } else {
                    f64::INFINITY
                }
        }) {
            best = Some((c, value));
        }
    }
    best
}

/// Adds each constraint's force ∇C λ / h²
/// ([`ConstraintSet::add_constraint_forces`](super::ConstraintSet::add_constraint_forces)).
pub(super) fn add_constraint_forces<K: ConstraintKind<D>, const D: usize>(
    block: &ConstraintBlock<K, D>,
    x: &[Vector<D>],
    h: f64,
    forces: &mut [Vector<D>],
) {
    let mut guard = block.diagnostic_scratch.lock().expect("diagnostic scratch");
    let (xs, grad) = &mut *guard;
    let scale = 1.0 / (h * h);
    for c in 0..block.kind.len().min(block.lambda.len()) {
        let lambda = block.lambda[c];
        if lambda == 0.0 {
            continue;
        }
        eval_at(&block.kind, c, x, xs, grad);
        for (k, &p) in block.kind.stencil(c).iter().enumerate() {
            forces[p as usize] += grad[k] * (lambda * scale);
        }
    }
}

/// Evaluates constraint `c` at the global positions `x` (diagnostics; allocates on first use).
pub(crate) fn eval_at<K: ConstraintKind<D>, const D: usize>(
    kind: &K,
    c: usize,
    x: &[Vector<D>],
    xs: &mut Vec<Vector<D>>,
    grad: &mut Vec<Vector<D>>,
) -> f64 {
    let idx = kind.stencil(c);
    xs.clear();
    xs.extend(idx.iter().map(|&p| x[p as usize]));
    grad.clear();
    grad.resize(idx.len(), Vector::<D>::zeros());
    kind.evaluate(c, xs, grad)
}
