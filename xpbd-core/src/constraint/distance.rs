//! Distance constraints (structural, shear and bending springs of cloth; rope links).

use super::{ConstraintKind, DisjointSlice, SubstepBound, check_non_negative, check_stencil};
use crate::{BuildError, Particles, Vector};

/// `C = |x₀ − x₁| − l₀`, `∇₀C = n`, `∇₁C = −n`, `n = (x₀ − x₁)/|x₀ − x₁|`
/// (Müller et al. 2007, "Position Based Dynamics", §4.2; XPBD uses the same C).
///
/// Compliance from material (the cloth tutorial, §3.3): a bar of Young's modulus `E` and
/// cross-section `A` has stiffness `k = E A / l₀`, so `α = l₀ / (E A)`
/// ([`DistanceConstraints::compliance_from_material`]).
///
/// ```
/// use xpbd_core::prelude::*;
/// let mut p = Particles::<3>::new();
/// let a = p.push(Vector::<3>::new(0.0, 0.0, 0.0), 1.0);
/// let b = p.push(Vector::<3>::new(0.5, 0.0, 0.0), 1.0);
/// let mut d = DistanceConstraints::new();
/// let alpha = DistanceConstraints::compliance_from_material(0.5, 1e6, 1e-4).unwrap();
/// d.add(&p, a, b, alpha).unwrap();
/// assert_eq!(d.rest_length[0], 0.5);
/// assert!((alpha - 0.5 / (1e6 * 1e-4)).abs() < 1e-15);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DistanceConstraints {
    /// Particle pairs.
    pub pairs: Vec<[u32; 2]>,
    /// Rest lengths l₀ (m).
    pub rest_length: Vec<f64>,
    /// Compliances α (m/N).
    pub compliance: Vec<f64>,
    /// Damping β (XPBD §5).
    pub damping: Vec<f64>,
    /// Whole-block facts recorded at the start of every step, for the SIMD kernel.
    step_facts: StepFacts,
}

/// What [`DistanceConstraints`] records in `checkpoint`, which the simulation calls at the
/// start of every step (the fields are public and may change between steps, never during
/// one): whether no constraint is damped and every compliance is zero (inextensible links,
/// e.g. the benchmark cloth). The SIMD kernel then skips the per-group damping test and the
/// `α̃` terms, with the same bits: with `α̃ = 0`, `(w₀ + w₁) + α̃ = w₀ + w₁` (w ≥ 0) and
/// `(l₀ − |d|) − α̃λ = l₀ − |d|` (`l₀ − |d|` is never −0 since `l₀ > 0`) for finite `λ`.
/// Measured (`cargo xtask bench cloth --n 128 --solver colored --threads 1`, 6 interleaved
/// runs, 2-core machine): 0.0250 → 0.0225 µs per particle per substep (minimum). Not
/// recorded (the general kernel) until the first `checkpoint`.
#[derive(Debug, Clone, Copy, Default)]
struct StepFacts {
    undamped_and_rigid: bool,
    /// min l₀ over the block (0 before the first `checkpoint`).
    min_rest_length: f64,
}

/// Derived data, not part of a constraint set's value.
impl PartialEq for StepFacts {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl DistanceConstraints {
    /// No constraints.
    pub fn new() -> Self {
        Self::default()
    }

    /// `α = l₀ / (E A)` for a bar of Young's modulus `youngs` (Pa) and section `area` (m²).
    pub fn compliance_from_material(
        rest_length: f64,
        youngs: f64,
        area: f64,
    ) -> Result<f64, BuildError> {
        if !(youngs.is_finite() && youngs > 0.0) {
            return Err(BuildError::InvalidMaterial {
                field: "youngs",
                value: youngs,
                reason: "must be finite and > 0",
            });
        }
        if !(area.is_finite() && area > 0.0) {
            return Err(BuildError::InvalidMaterial {
                field: "area",
                value: area,
                reason: "must be finite and > 0",
            });
        }
        Ok(rest_length / (youngs * area))
    }

    /// Adds a constraint between particles `i` and `j` with rest length from their current
    /// positions. Returns its index.
    pub fn add<const D: usize>(
        &mut self,
        particles: &Particles<D>,
        i: usize,
        j: usize,
        compliance: f64,
    ) -> Result<usize, BuildError> {
        let c = self.len_();
        check_stencil("distance", c, &[i as u32, j as u32], particles.len())?;
        let l0 = (particles.x[i] - particles.x[j]).norm();
        self.add_with_rest_length(i, j, l0, compliance)
    }

    /// Adds a constraint with an explicit rest length.
    pub fn add_with_rest_length(
        &mut self,
        i: usize,
        j: usize,
        rest_length: f64,
        compliance: f64,
    ) -> Result<usize, BuildError> {
        let c = self.len_();
        if !(rest_length.is_finite() && rest_length > 1e-12) {
            return Err(BuildError::ZeroRestLength {
                kind: "distance",
                constraint: c,
                value: rest_length,
            });
        }
        check_non_negative("distance", c, "compliance", compliance)?;
        if i == j {
            return Err(BuildError::DuplicateIndex {
                kind: "distance",
                constraint: c,
                index: i,
            });
        }
        self.pairs.push([i as u32, j as u32]);
        self.rest_length.push(rest_length);
        self.compliance.push(compliance);
        self.damping.push(0.0);
        Ok(c)
    }

    /// Sets the damping β of every constraint.
    pub fn set_damping(&mut self, beta: f64) -> Result<(), BuildError> {
        check_non_negative("distance", 0, "damping", beta)?;
        self.damping.iter_mut().for_each(|b| *b = beta);
        Ok(())
    }

    fn len_(&self) -> usize {
        self.pairs.len()
    }
}

/// The fraction of the shortest rest length a particle of a mesh of edges may travel in one
/// adaptive substep ([`DistanceConstraints`]' `max_adaptive_substep`).
pub const EDGE_TRAVEL_FRACTION: f64 = 0.5;

impl<const D: usize> ConstraintKind<D> for DistanceConstraints {
    const SUBSTEP_HOOKS: bool = false;

    /// `h (max|v| + a h) ≤ c · min l₀` with `c` = [`EDGE_TRAVEL_FRACTION`], over the block's
    /// particles (a travel bound, [`SubstepBound::travel`]; the acceleration is added by the
    /// simulation). A Gauss–Seidel sweep propagates a correction one edge per iteration, so
    /// a substep in which a particle moves further than its edges leaves the constraints
    /// violated by more than the few iterations can repair: a 1 m cloth (32², 1 iteration)
    /// at one adaptive step of 1 s ended 53× its rest length. A fixed step above the bound
    /// runs: it is an accuracy target for adaptive steps, not a stability limit (XPBD's
    /// distance constraints are stable at any step).
    fn max_adaptive_substep(&self, particles: &Particles<D>) -> Option<SubstepBound> {
        let min_rest = self
            .rest_length
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
        if self.pairs.is_empty() {
            return None;
        }
        let (mut fastest, mut s2) = (None, 0.0_f64);
        for &[i, j] in &self.pairs {
            for k in [i as usize, j as usize] {
                let v2 = particles.v[k].norm_squared();
                if particles.inv_mass[k] > 0.0 && v2 > s2 {
                    (fastest, s2) = (Some(k), v2);
                }
            }
        }
        Some(SubstepBound::travel(
            EDGE_TRAVEL_FRACTION * min_rest,
            s2.sqrt(),
            "edge travel: h (max|v| + a h) <= 0.5 * shortest rest length",
            fastest,
        ))
    }

    const NAME: &'static str = "distance";
    const FIXED_ARITY: usize = 2;

    fn len(&self) -> usize {
        self.pairs.len()
    }

    #[inline(always)]
    fn stencil(&self, c: usize) -> &[u32] {
        &self.pairs[c]
    }

    #[inline(always)]
    fn compliance(&self, c: usize) -> f64 {
        self.compliance[c]
    }

    #[inline(always)]
    fn damping(&self, c: usize) -> f64 {
        self.damping[c]
    }

    #[inline(always)]
    fn evaluate(&self, c: usize, xs: &[Vector<D>], grad: &mut [Vector<D>]) -> f64 {
        let d = xs[0] - xs[1];
        let len = d.norm();
        if len < 1e-300 {
            grad[0] = Vector::<D>::zeros();
            grad[1] = Vector::<D>::zeros();
            return -self.rest_length[c];
        }
        let n = d * (1.0 / len);
        grad[0] = n;
        grad[1] = -n;
        len - self.rest_length[c]
    }

    /// `Δλ = (−C − α̃λ)/(w₀ + w₁ + α̃)`, `Δx₀ = w₀ n Δλ`, `Δx₁ = −w₁ n Δλ` with the
    /// normalisation folded into the single division: `s = Δλ/|d|`, `Δx₀ = w₀ s d`.
    #[inline(always)]
    fn project_closed_form(
        &self,
        c: usize,
        idx: &[u32],
        xs: &mut [Vector<D>],
        w: &[f64],
        lambda: &mut f64,
        alpha_tilde: f64,
    ) -> Option<bool> {
        let d = xs[0] - xs[1];
        let len = d.norm();
        let (w0, w1) = (w[idx[0] as usize], w[idx[1] as usize]);
        let denom = w0 + w1 + alpha_tilde;
        if len < 1e-300 || denom <= f64::MIN_POSITIVE {
            return Some(false);
        }
        let s = (self.rest_length[c] - len - alpha_tilde * *lambda) / (denom * len);
        *lambda += s * len;
        xs[0] += d * (w0 * s);
        xs[1] -= d * (w1 * s);
        Some(true)
    }

    /// The closed form above over a run, with the arrays hoisted out of the loop (the generic
    /// path reloads every array pointer after each store through the shared position view:
    /// about 105 instructions per constraint against 87 here), and in 3D, on a disjoint run
    /// (one colour) on a CPU with AVX2, four constraints per instruction
    /// (`simd::distance_runs_of_four`). Damped constraints are handed back to the generic
    /// kernel.
    ///
    /// (Measured slower on the benchmark cloth and dropped: building the four lanes in arrays
    /// and passing them to the AVX2 function, whose 256-bit loads of just-stored doubles cannot
    /// be store-forwarded, +20 %; unchecked indexing, +10 %; a callback instead of handing
    /// constraints back, +10 %.)
    #[inline(always)]
    unsafe fn project_closed_form_run(
        &self,
        order: &mut (impl Iterator<Item = usize> + Clone),
        disjoint: bool,
        x: DisjointSlice<'_, Vector<D>>,
        w: &[f64],
        lambda: DisjointSlice<'_, f64>,
        inv_h2: f64,
    ) -> Option<usize> {
        let pairs = &self.pairs[..];
        let rest_length = &self.rest_length[..];
        let compliance = &self.compliance[..];
        let damping = &self.damping[..];
        #[cfg(target_arch = "x86_64")]
        let level = simd::level();
        #[cfg(target_arch = "x86_64")]
        if D == 3 && disjoint && level != simd::Level::None {
            // SAFETY: AVX2 present; D == 3, so a position is three contiguous f64; the run is
            // disjoint and in range, with exclusive access (caller).
            unsafe {
                simd::distance_runs_of_four(
                    level,
                    self.step_facts.undamped_and_rigid,
                    order,
                    pairs,
                    rest_length,
                    compliance,
                    damping,
                    x.as_mut_ptr().cast::<f64>(),
                    x.len(),
                    w,
                    lambda.as_mut_ptr(),
                    lambda.len(),
                    inv_h2,
                )
            };
        }
        for c in order {
            if damping[c] != 0.0 {
                return Some(c);
            }
            let [i, j] = pairs[c].map(|p| p as usize);
            // SAFETY: exclusive access to the stencil and to λ_c, indices in range (caller).
            let (xi, xj) = unsafe { (x.get(i), x.get(j)) };
            let d = xi - xj;
            let len = d.norm();
            let (w0, w1) = (w[i], w[j]);
            let alpha_tilde = compliance[c] * inv_h2;
            let denom = w0 + w1 + alpha_tilde;
            if len < 1e-300 || denom <= f64::MIN_POSITIVE {
                continue;
            }
            unsafe {
                let l = lambda.get(c);
                let s = (rest_length[c] - len - alpha_tilde * l) / (denom * len);
                lambda.set(c, l + s * len);
                x.set(i, xi + d * (w0 * s));
                x.set(j, xj - d * (w1 * s));
            }
        }
        None
    }

    fn checkpoint(&mut self) {
        self.step_facts = StepFacts {
            undamped_and_rigid: self.damping.iter().all(|&b| b == 0.0)
                && self.compliance.iter().all(|&a| a == 0.0),
            min_rest_length: self
                .rest_length
                .iter()
                .copied()
                .fold(f64::INFINITY, f64::min),
        };
    }

    fn relative_strain(&self, c: usize, value: f64) -> Option<f64> {
        Some(value / self.rest_length[c])
    }

    /// `|(|x_b − x_a| − l₀)/l₀ − (|y_b − y_a| − l₀)/l₀| ≤ (|x_a − y_a| + |x_b − y_b|)/l₀`, so
    /// `L = 2 / min l₀` (recorded at the start of each step; infinite before the first).
    fn strain_lipschitz(&self) -> Option<f64> {
        Some(2.0 / self.step_facts.min_rest_length)
    }

    fn validate(&self) -> Result<(), BuildError> {
        for c in 0..self.pairs.len() {
            if !(self.rest_length[c].is_finite() && self.rest_length[c] > 1e-12) {
                return Err(BuildError::ZeroRestLength {
                    kind: "distance",
                    constraint: c,
                    value: self.rest_length[c],
                });
            }
            check_non_negative("distance", c, "compliance", self.compliance[c])?;
            check_non_negative("distance", c, "damping", self.damping[c])?;
        }
        Ok(())
    }
}

#[cfg(target_arch = "x86_64")]
mod simd;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builders::ClothGrid;
    use crate::schedule::Schedule;

    /// The run kernel gives the same positions and multipliers, bit for bit, whether it may
    /// project four constraints at once (`disjoint`, with each SIMD variant the CPU has) or
    /// goes one by one, over every colour of a perturbed cloth with compliant, pinned, damped and degenerate
    /// (zero-length) constraints.
    #[test]
    fn four_at_once_equals_one_by_one_bit_for_bit() {
        four_at_once_equals_one_by_one(false);
    }

    /// The same with every link inextensible and undamped, after the step-start `checkpoint`
    /// that lets the kernel drop the damping test and the α̃ terms ([`StepFacts`]).
    #[test]
    fn four_at_once_equals_one_by_one_bit_for_bit_inextensible() {
        four_at_once_equals_one_by_one(true);
    }

    fn four_at_once_equals_one_by_one(inextensible: bool) {
        let cloth = ClothGrid::<3> {
            nx: 13,
            ny: 11,
            ..ClothGrid::default()
        }
        .build()
        .unwrap();
        let mut d = cloth.stretch.clone();
        let n = cloth.particles.len();
        let mut x = cloth.particles.x.clone();
        let mut w = cloth.particles.inv_mass.clone();
        // Deterministic perturbation, a few pins, compliance, a damped constraint and a
        // degenerate pair (both ends at one point).
        for (p, xp) in x.iter_mut().enumerate() {
            let t = p as f64;
            *xp += Vector::<3>::new((t * 0.37).sin(), (t * 0.91).cos(), (t * 0.13).sin()) * 0.01;
        }
        w[0] = 0.0;
        w[n / 2] = 0.0;
        if !inextensible {
            for (c, a) in d.compliance.iter_mut().enumerate() {
                *a = if c % 3 == 0 { 1e-6 } else { 0.0 };
            }
            d.damping[7] = 0.5;
        }
        <DistanceConstraints as ConstraintKind<3>>::checkpoint(&mut d);
        assert_eq!(d.step_facts.undamped_and_rigid, inextensible);
        let [a, b] = d.pairs[20];
        x[b as usize] = x[a as usize];
        let schedule = Schedule::greedy(d.pairs.len(), n, |c| &d.pairs[c], 512);
        let lambda0: Vec<f64> = (0..d.pairs.len())
            .map(|c| (c as f64 * 0.1).sin() * 1e-4)
            .collect();
        let run = |disjoint: bool| {
            let (mut x, mut lambda) = (x.clone(), lambda0.clone());
            let (xs, ls) = (DisjointSlice::new(&mut x), DisjointSlice::new(&mut lambda));
            let mut handed_back = Vec::new();
            for colour in &schedule.colours {
                for task in colour {
                    let mut order = schedule.order[task.start as usize..task.end as usize]
                        .iter()
                        .map(|&c| c as usize);
                    // SAFETY: single thread; stencils in range; a task is disjoint.
                    while let Some(c) = unsafe {
                        <DistanceConstraints as ConstraintKind<3>>::project_closed_form_run(
                            &d,
                            &mut order,
                            disjoint,
                            xs,
                            &w,
                            ls,
                            1.0 / (1e-3 * 1e-3),
                        )
                    } {
                        handed_back.push(c);
                    }
                }
            }
            (x, lambda, handed_back)
        };
        let (x2, l2, h2) = run(false);
        // Every SIMD variant this CPU has (the scalar loop where it has none).
        #[cfg(target_arch = "x86_64")]
        let levels: Vec<Option<simd::Level>> = {
            use simd::Level;
            let mut levels = vec![Some(Level::None)];
            if std::arch::is_x86_feature_detected!("avx2") {
                levels.push(Some(Level::Avx2));
            }
            if std::arch::is_x86_feature_detected!("avx512vl")
                && std::arch::is_x86_feature_detected!("avx512f")
            {
                levels.push(Some(Level::Avx512Vl));
            }
            levels
        };
        #[cfg(not(target_arch = "x86_64"))]
        let levels: Vec<Option<()>> = vec![None];
        for level in levels {
            #[cfg(target_arch = "x86_64")]
            simd::FORCED.with(|f| f.set(level));
            let (x1, l1, h1) = run(true);
            let damped = if inextensible { vec![] } else { vec![7] };
            assert_eq!(
                h1, damped,
                "only the damped constraint goes to the generic kernel ({level:?})"
            );
            assert_eq!(h1, h2);
            assert!(
                x1.iter().zip(&x2).all(|(a, b)| {
                    a.iter()
                        .zip(b.iter())
                        .all(|(p, q)| p.to_bits() == q.to_bits())
                }),
                "positions differ with {level:?}"
            );
            assert!(
                l1.iter().zip(&l2).all(|(a, b)| a.to_bits() == b.to_bits()),
                "multipliers differ with {level:?}"
            );
            // And the sweep did something (the perturbation was projected).
            assert!(x1 != x);
        }
    }
}
