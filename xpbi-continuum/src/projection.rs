//! The XPBD projection of a run of XPBI constraints (`ConstraintKind::project_closed_form_run`),
//! written for the fixed layout of [`crate::continuum::XpbiContinuum`]: the stencil of particle
//! `p` is `{p} ∪ N(p)` with frozen weights `q_k` stored contiguously, and `∇_{x_k} C_p = G q_k`
//! for one `D × D` matrix `G` (see [`crate::constraint`]). The generic variable-arity kernel of
//! the core copies the stencil into a scratch buffer, writes `|stencil|` gradients, then reads
//! them twice; here nothing per neighbour is stored:
//!
//! ```text
//! begin_substep:    S_p = Σ_k w_k q_k q_kᵀ           (w: the particles' inverse masses)
//!                   M_p = Fⁿ                         (V₀ = I; warm starts, see `warm`)
//! pass 1 (gather):  Δt∇v_p = Σ_{k≥1} (x_k − x_0) q_kᵀ − B_p
//! SVD:              A = F_tr V_prev = M_p + Δt∇v_p M_p  (F_tr = (I + Δt∇v_p) Fⁿ),
//!                   Jacobi on A → U, σ; the rotations also update M_p to Fⁿ V
//! evaluate:         C, ∂C/∂σ (return map);  G = ∂C/∂F Fⁿᵀ = U diag(∂C/∂σ) Vᵀ Fⁿᵀ
//!                                                 = U diag(∂C/∂σ) M_pᵀ
//! denominator:      Σ_k w_k |G q_k|² = Σ_k w_k q_kᵀ GᵀG q_k = Σ_ij (GᵀG)_ij S_ij
//! XPBD:             Δλ = (−C − α̃λ) / (Σ_k w_k |G q_k|² + α̃),   λ ← λ + Δλ
//! pass 2 (scatter): x_k ← x_k + w_k Δλ G q_k   (w_k > 0)
//! ```
//! which is the generic kernel's update (XPBD eq. 18 of Macklin et al. 2016, no damping) in exact
//! arithmetic. It differs from the generic kernel by round-off only: the summation order of the
//! denominator, `G` from `M` instead of `V` and `Fⁿ`, and the SVD's starting point (from the
//! second iteration of a substep on, the constraint's previous `V`; the first starts from
//! `V₀ = I`, as the generic kernel does). Measured (callgrind, 3D sand column, 2662
//! particles, 50 steps of 10 iterations): 3075 → 2075 instructions per constraint projection.

use nalgebra::{SMatrix, SVector};
use xpbd_core::constraint::DisjointSlice;
use xpbd_core::energy::svd::rotation_variant_svd_tracked;

use crate::constraint::principal_response;
use crate::continuum::Constitutive;
use crate::plasticity::{MIN_SINGULAR_VALUE, PlasticState};

// Declared here rather than in `lib.rs` (crate-private, used only by this kernel and its owner).
pub(crate) mod warm;
use warm::WarmStarts;

/// The per-step data of the single-form XPBI constraints that the projection reads.
pub(crate) struct ProjectionData<'a, const D: usize> {
    pub offsets: &'a [u32],
    pub stencil: &'a [u32],
    pub weights: &'a [SVector<f64, D>],
    /// `B_p` (see `XpbiContinuum::rest_moment`).
    pub rest_moment: &'a [SMatrix<f64, D, D>],
    pub state: &'a [PlasticState],
    /// `M_p = Fⁿ V_p` of the last SVD of each constraint ([`warm`]), read and rewritten here.
    pub warm: &'a WarmStarts<D>,
    /// Compliance α = 1/V⁰ per constraint.
    pub compliance: &'a [f64],
    /// The body's material table: Lamé parameters, model and constant `α_DP` per entry.
    pub constitutive: &'a [Constitutive],
    /// Material id per constraint (an index into `constitutive`); empty: all 0.
    pub material: &'a [u8],
    pub dt: f64,
    pub plastic_in_loop: bool,
    /// Per constraint, the [`packed_len`] entries of `S = Σ_k w_k q_k q_kᵀ` ([`w_moment`]).
    pub w_moment: &'a [f64],
    /// Every stencil entry has `w_k > 0` (the inverse masses `S` was built from).
    pub w_all_positive: bool,
}

/// Entries of the upper triangle of a symmetric `D × D` matrix.
pub(crate) const fn packed_len(d: usize) -> usize {
    d * (d + 1) / 2
}

/// The upper triangle of `S = Σ_k (w_k q_k) q_kᵀ` over a stencil, column by column
/// (`S_00, S_01, S_11, S_02, …`), each entry summed over `k` in stencil order.
pub(crate) fn w_moment<const D: usize>(
    idx: &[u32],
    q: &[SVector<f64, D>],
    w: &[f64],
    out: &mut [f64],
) {
    out.iter_mut().for_each(|v| *v = 0.0);
    for (&p, qk) in idx.iter().zip(q) {
        let wq = qk * w[p as usize];
        let mut e = 0;
        for j in 0..D {
            for i in 0..=j {
                out[e] += wq[i] * qk[j];
                e += 1;
            }
        }
    }
}

/// `Σ_ij (GᵀG)_ij S_ij = Σ_k w_k |G q_k|²` from the packed `S` (only the upper triangle of
/// `GᵀG` is formed: `(GᵀG)_ij = Σ_k G_ki G_kj`, summed over `k` in order).
#[inline(always)]
fn denominator<const D: usize>(gm: &SMatrix<f64, D, D>, s: &[f64]) -> f64 {
    let mut sum = 0.0;
    let mut e = 0;
    for j in 0..D {
        for i in 0..=j {
            let mut m = gm[(0, i)] * gm[(0, j)];
            for k in 1..D {
                m += gm[(k, i)] * gm[(k, j)];
            }
            let t = m * s[e];
            sum += if i == j { t } else { 2.0 * t };
            e += 1;
        }
    }
    sum
}

/// Projects the constraints that `order` yields (module docs), in order, on the shared
/// positions `x` and multipliers `lambda`. In 3D on a CPU with AVX the per-neighbour passes run
/// four lanes wide with the same IEEE operations in the same order (no fused multiply-add), so
/// the result is bit-identical to the scalar passes.
///
/// # Safety
/// As `ConstraintKind::project_closed_form_run`: exclusive access to the stencils' positions
/// and to the multipliers of the run; stencil indices below `x.len()`, constraints below
/// `lambda.len()`.
#[inline]
pub(crate) unsafe fn project_run<const D: usize>(
    data: &ProjectionData<'_, D>,
    order: &mut impl Iterator<Item = usize>,
    x: DisjointSlice<'_, SVector<f64, D>>,
    w: &[f64],
    lambda: DisjointSlice<'_, f64>,
    inv_h2: f64,
) {
    #[cfg(target_arch = "x86_64")]
    if D == 3 && w.len() >= x.len() && std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: AVX present, D == 3 (a position and a weight are three contiguous f64, a
        // matrix nine, column-major), every stencil index below x.len() ≤ w.len() (caller).
        unsafe { project_avx::<D>(data, order, x, w, lambda, inv_h2) };
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { project_with::<D, false>(data, order, x, w, lambda, inv_h2) };
}

/// [`project_with`] with the AVX passes, the whole loop (the evaluation and its SVD included)
/// compiled with AVX enabled: three-operand VEX code and 256-bit vectors where the compiler
/// finds them, fewer instructions than the baseline SSE2 build. No FMA is enabled and Rust does
/// not contract or reassociate, so the arithmetic is the scalar path's bit for bit.
///
/// # Safety
/// As [`project_with`] with `AVX`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn project_avx<const D: usize>(
    data: &ProjectionData<'_, D>,
    order: &mut impl Iterator<Item = usize>,
    x: DisjointSlice<'_, SVector<f64, D>>,
    w: &[f64],
    lambda: DisjointSlice<'_, f64>,
    inv_h2: f64,
) {
    // SAFETY: the caller's contract.
    unsafe { project_with::<D, true>(data, order, x, w, lambda, inv_h2) };
}

/// [`project_run`] with the AVX passes (`AVX = true`, only for D = 3 on an AVX CPU) or the
/// scalar ones.
///
/// # Safety
/// As [`project_run`]; with `AVX`, D = 3 and the CPU has AVX.
#[inline(always)]
pub(crate) unsafe fn project_with<const D: usize, const AVX: bool>(
    data: &ProjectionData<'_, D>,
    order: &mut impl Iterator<Item = usize>,
    x: DisjointSlice<'_, SVector<f64, D>>,
    w: &[f64],
    lambda: DisjointSlice<'_, f64>,
    inv_h2: f64,
) {
    for c in order {
        let r = data.offsets[c] as usize..data.offsets[c + 1] as usize;
        let idx = &data.stencil[r.clone()];
        let q = &data.weights[r];
        let mut g = -data.rest_moment[c];
        if AVX {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: D = 3 and AVX (caller); exclusive access, indices in range (caller).
            unsafe {
                avx::gather(
                    idx,
                    q.as_ptr().cast(),
                    x.as_mut_ptr().cast(),
                    g.as_mut_ptr(),
                )
            };
        } else {
            // SAFETY: exclusive access, indices in range (caller).
            unsafe { gather_scalar(idx, q, x, &mut g) };
        }
        // F_tr = (I + Δt∇v) Fⁿ = U Σ Vᵀ from A = F_tr V_prev = M + Δt∇v M (M = Fⁿ V_prev);
        // the SVD rewrites M as Fⁿ V, and ∂C/∂F Fⁿᵀ = U diag(∂C/∂σ) Vᵀ Fⁿᵀ = U diag(∂C/∂σ) Mᵀ.
        // SAFETY: exclusive access to constraint c (caller), in range.
        let m = unsafe { data.warm.get_mut(c) };
        let a = *m + g * *m;
        let (u, sigma) = rotation_variant_svd_tracked(&a, m);
        let eps = sigma.map(|s| s.max(MIN_SINGULAR_VALUE).ln());
        // The constraint's material: one lookup per constraint, none per neighbour.
        let cm = match data.material.get(c) {
            Some(&id) => &data.constitutive[id as usize],
            None => &data.constitutive[0],
        };
        let response = principal_response(
            &sigma,
            &eps,
            &cm.lame,
            &cm.model,
            &data.state[c],
            data.dt,
            data.plastic_in_loop,
            cm.dp_alpha,
        );
        let value = response.value;
        let gm = if value != 0.0 {
            // U diag(d) as scaled columns (not a product with a diagonal matrix's zeros).
            let d = &response.dc_dsigma;
            SMatrix::<f64, D, D>::from_fn(|i, k| u[(i, k)] * d[k]) * m.transpose()
        } else {
            SMatrix::zeros()
        };
        let per = packed_len(D);
        let wsum = denominator(&gm, &data.w_moment[c * per..(c + 1) * per]);
        let alpha_tilde = data.compliance[c] * inv_h2;
        let denom = wsum + alpha_tilde;
        if denom <= f64::MIN_POSITIVE {
            continue;
        }
        // SAFETY: exclusive access to λ_c, in range (caller).
        let l = unsafe { lambda.get(c) };
        let dl = (-value - alpha_tilde * l) / denom;
        // SAFETY: as above.
        unsafe { lambda.set(c, l + dl) };
        if dl == 0.0 {
            continue;
        }
        if AVX {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as for the gather.
            unsafe {
                if data.w_all_positive {
                    avx::scatter::<false>(
                        idx,
                        q.as_ptr().cast(),
                        x.as_mut_ptr().cast(),
                        w,
                        gm.as_ptr(),
                        dl,
                    )
                } else {
                    avx::scatter::<true>(
                        idx,
                        q.as_ptr().cast(),
                        x.as_mut_ptr().cast(),
                        w,
                        gm.as_ptr(),
                        dl,
                    )
                }
            };
        } else {
            // SAFETY: as for the gather.
            unsafe { scatter_scalar(idx, q, x, w, &gm, dl) };
        }
    }
}

/// Pass 1: `g += Σ_{k≥1} (x_k − x_0) q_kᵀ`, element by element
/// `g_ij ← g_ij + (x_k,i − x_0,i) q_k,j` (the AVX pass does exactly these operations).
///
/// # Safety
/// Exclusive access to the positions of `idx`, all below `x.len()`.
#[inline(always)]
unsafe fn gather_scalar<const D: usize>(
    idx: &[u32],
    q: &[SVector<f64, D>],
    x: DisjointSlice<'_, SVector<f64, D>>,
    g: &mut SMatrix<f64, D, D>,
) {
    // SAFETY: caller.
    let x0 = unsafe { x.get(idx[0] as usize) };
    for (&p, qk) in idx[1..].iter().zip(&q[1..]) {
        // SAFETY: caller.
        let d = unsafe { x.get(p as usize) } - x0;
        for j in 0..D {
            for i in 0..D {
                g[(i, j)] += d[i] * qk[j];
            }
        }
    }
}

/// Pass 2: `x_k ← x_k + ((G q_k) (w_k Δλ))` for `w_k > 0`, with
/// `(G q)_i = (G_i0 q_0 + G_i1 q_1) + G_i2 q_2 …` (left to right, as the AVX pass).
///
/// # Safety
/// As [`gather_scalar`].
#[inline(always)]
unsafe fn scatter_scalar<const D: usize>(
    idx: &[u32],
    q: &[SVector<f64, D>],
    x: DisjointSlice<'_, SVector<f64, D>>,
    w: &[f64],
    gm: &SMatrix<f64, D, D>,
    dl: f64,
) {
    for (&p, qk) in idx.iter().zip(q) {
        let p = p as usize;
        let wk = w[p];
        if wk > 0.0 {
            let scale = wk * dl;
            let mut gq = gm.column(0) * qk[0];
            for j in 1..D {
                gq += gm.column(j) * qk[j];
            }
            // SAFETY: caller.
            unsafe { x.set(p, x.get(p) + gq * scale) };
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    //! The two per-neighbour passes of [`super::project_with`] for D = 3, one position (or one
    //! column of a 3 × 3 matrix) per 256-bit register, the fourth lane not loaded or stored (a
    //! full-width store would write the next particle's first coordinate, which another
    //! thread may own).

    use std::arch::x86_64::*;

    /// Loads three f64 into lanes 0–2 (lane 3 zero) as one 128-bit and one 64-bit load, not
    /// `vmaskmovpd`: a masked store cannot forward to a later load (measured: the load of a
    /// neighbour's position just written by the previous constraint was the hottest
    /// instruction of the gather), and neither can a masked load take a forwarded value.
    #[inline(always)]
    unsafe fn load3(p: *const f64) -> __m256d {
        unsafe {
            _mm256_insertf128_pd(
                _mm256_castpd128_pd256(_mm_loadu_pd(p)),
                _mm_load_sd(p.add(2)),
                1,
            )
        }
    }

    /// Stores lanes 0–2 (a 128-bit and a 64-bit store; lane 3 is not written).
    #[inline(always)]
    unsafe fn store3(p: *mut f64, v: __m256d) {
        unsafe {
            _mm_storeu_pd(p, _mm256_castpd256_pd128(v));
            _mm_store_sd(p.add(2), _mm256_extractf128_pd(v, 1));
        }
    }

    /// See [`super::gather_scalar`]; `q` is `3 |idx|` f64, `x` three f64 per particle, `g`
    /// nine f64 (column-major) that are read and updated. Two neighbours per loop trip (the
    /// same accumulation order; half the loop overhead).
    ///
    /// # Safety
    /// AVX; exclusive access to the positions of `idx`, all in range; `q`, `g` valid.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn gather(idx: &[u32], q: *const f64, x: *const f64, g: *mut f64) {
        unsafe {
            let x0 = load3(x.add(3 * idx[0] as usize));
            let mut g0 = load3(g);
            let mut g1 = load3(g.add(3));
            let mut g2 = load3(g.add(6));
            let mut add = |k: usize| {
                let qk = q.add(3 * k);
                let p = *idx.get_unchecked(k) as usize;
                let d = _mm256_sub_pd(load3(x.add(3 * p)), x0);
                g0 = _mm256_add_pd(g0, _mm256_mul_pd(d, _mm256_broadcast_sd(&*qk)));
                g1 = _mm256_add_pd(g1, _mm256_mul_pd(d, _mm256_broadcast_sd(&*qk.add(1))));
                g2 = _mm256_add_pd(g2, _mm256_mul_pd(d, _mm256_broadcast_sd(&*qk.add(2))));
            };
            let n = idx.len();
            let mut k = 1;
            while k + 1 < n {
                add(k);
                add(k + 1);
                k += 2;
            }
            if k < n {
                add(k);
            }
            store3(g, g0);
            store3(g.add(3), g1);
            store3(g.add(6), g2);
        }
    }

    /// See [`super::scatter_scalar`]; `gm` nine f64, column-major. `w_k Δλ` is formed in
    /// every lane from a broadcast of `w_k` (the same product), and two neighbours are handled
    /// per loop trip. `CHECK = false` skips the test `w_k > 0` (every `w_k` of the stencil is
    /// positive: the same result).
    ///
    /// # Safety
    /// As [`gather`]; every index of `idx` also below `w.len()`.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn scatter<const CHECK: bool>(
        idx: &[u32],
        q: *const f64,
        x: *mut f64,
        w: &[f64],
        gm: *const f64,
        dl: f64,
    ) {
        unsafe {
            let c0 = load3(gm);
            let c1 = load3(gm.add(3));
            let c2 = load3(gm.add(6));
            let dlv = _mm256_set1_pd(dl);
            let zero = _mm256_setzero_pd();
            let step = |k: usize| {
                let p = *idx.get_unchecked(k) as usize;
                let wk = _mm256_broadcast_sd(w.get_unchecked(p));
                if !CHECK
                    || _mm_comigt_sd(_mm256_castpd256_pd128(wk), _mm256_castpd256_pd128(zero)) != 0
                {
                    let qk = q.add(3 * k);
                    let gq = _mm256_add_pd(
                        _mm256_add_pd(
                            _mm256_mul_pd(c0, _mm256_broadcast_sd(&*qk)),
                            _mm256_mul_pd(c1, _mm256_broadcast_sd(&*qk.add(1))),
                        ),
                        _mm256_mul_pd(c2, _mm256_broadcast_sd(&*qk.add(2))),
                    );
                    let xp = x.add(3 * p);
                    let xn = _mm256_add_pd(load3(xp), _mm256_mul_pd(gq, _mm256_mul_pd(wk, dlv)));
                    store3(xp, xn);
                }
            };
            let n = idx.len();
            let mut k = 0;
            while k + 1 < n {
                step(k);
                step(k + 1);
                k += 2;
            }
            if k < n {
                step(k);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::{SVector, Vector3};
    use xpbd_core::Particles;
    use xpbd_core::constraint::{ConstraintKind, DisjointSlice, SubstepContext};
    use xpbd_core::energy::svd::TRACKED_ORTHOGONALITY;

    use crate::continuum::{XpbiContinuum, XpbiSettings};
    use crate::material::Material;
    use crate::scene::lattice_box;

    /// A 5 × 5 × 5 (3D) or 8 × 8 (2D) sand block after one substep's frozen data, with the
    /// candidate positions sheared, compressed and jittered (elastic, Drucker–Prager cone and
    /// tip cases) and one pinned particle.
    fn perturbed<const D: usize>() -> (XpbiContinuum<D>, Particles<D>) {
        perturbed_with::<D>(true)
    }

    /// [`perturbed`], with or without the pinned particle.
    fn perturbed_with<const D: usize>(pinned: bool) -> (XpbiContinuum<D>, Particles<D>) {
        perturbed_table::<D>(pinned, vec![Material::sand()])
    }

    /// [`perturbed_with`] for a table of materials, member i of entry i mod the table's
    /// length (neighbours of every material next to each other).
    fn perturbed_table<const D: usize>(
        pinned: bool,
        table: Vec<Material>,
    ) -> (XpbiContinuum<D>, Particles<D>) {
        let dx = 0.01;
        let n = if D == 3 { 5.0 } else { 8.0 };
        let pos = lattice_box(SVector::zeros(), SVector::repeat(n * dx), dx);
        let mut p = Particles::<D>::new();
        for x in &pos {
            p.push(*x, 1.0);
        }
        if pinned {
            p.inv_mass[3] = 0.0;
        }
        let members: Vec<u32> = (0..p.len() as u32).collect();
        let volumes = vec![dx.powi(D as i32); p.len()];
        let mut c = if table.len() == 1 {
            XpbiContinuum::new(&p, members, volumes, table[0], XpbiSettings::new(dx))
        } else {
            let ids = (0..p.len()).map(|i| (i % table.len()) as u8).collect();
            XpbiContinuum::with_materials(&p, members, volumes, table, ids, XpbiSettings::new(dx))
        }
        .unwrap();
        let ctx = SubstepContext {
            h: 1e-3,
            substep: 0,
            substeps: 1,
            time: 0.0,
            dedicated_pool: false,
        };
        c.begin_substep(&p, &ctx);
        for (i, x) in p.x.iter_mut().enumerate() {
            let t = i as f64;
            let h = x[D - 1];
            x[0] += 0.2 * h + 1e-4 * (1.7 * t).sin();
            x[D - 1] -= 0.03 * h * (0.3 * t).cos().abs();
            if D == 3 {
                x[1] += 2e-4 * (2.3 * t).cos();
            }
        }
        (c, p)
    }

    /// The generic XPBD update through `evaluate` (as the core's variable-arity kernel).
    fn generic<const D: usize>(
        c: &XpbiContinuum<D>,
        x: &mut [SVector<f64, D>],
        w: &[f64],
        lambda: &mut [f64],
        h: f64,
    ) {
        for k in 0..c.len() {
            let idx = c.stencil(k).to_vec();
            let xs: Vec<_> = idx.iter().map(|&i| x[i as usize]).collect();
            let mut grad = vec![SVector::zeros(); idx.len()];
            let value = c.evaluate(k, &xs, &mut grad);
            let alpha_tilde = c.compliance(k) / (h * h);
            let wsum: f64 = idx
                .iter()
                .zip(&grad)
                .map(|(&i, g)| w[i as usize] * g.norm_squared())
                .sum();
            let dl = (-value - alpha_tilde * lambda[k]) / (wsum + alpha_tilde);
            lambda[k] += dl;
            for (&i, g) in idx.iter().zip(&grad) {
                x[i as usize] += g * (w[i as usize] * dl);
            }
        }
    }

    fn run<const D: usize>(
        c: &XpbiContinuum<D>,
        x: &mut [SVector<f64, D>],
        w: &[f64],
        lambda: &mut [f64],
        h: f64,
        avx: bool,
    ) {
        let data = c.projection_data();
        let mut order = 0..c.len();
        let (xd, ld) = (DisjointSlice::new(x), DisjointSlice::new(lambda));
        // SAFETY: one thread, stencils in range.
        unsafe {
            if avx {
                super::project_with::<D, true>(&data, &mut order, xd, w, ld, 1.0 / (h * h))
            } else {
                super::project_with::<D, false>(&data, &mut order, xd, w, ld, 1.0 / (h * h))
            }
        }
    }

    /// Two Gauss–Seidel sweeps of the run kernel equal the generic kernel to the tracked SVD's
    /// precision.
    fn matches_generic<const D: usize>() {
        matches_generic_for::<D>(perturbed::<D>());
    }

    fn matches_generic_for<const D: usize>((c, p): (XpbiContinuum<D>, Particles<D>)) {
        let h = 1e-3;
        let (mut xa, mut la) = (p.x.clone(), vec![0.0; c.len()]);
        let (mut xb, mut lb) = (p.x.clone(), vec![0.0; c.len()]);
        for _ in 0..2 {
            generic(&c, &mut xa, &p.inv_mass, &mut la, h);
            run(&c, &mut xb, &p.inv_mass, &mut lb, h, false);
        }
        let moved = xa
            .iter()
            .zip(&p.x)
            .map(|(a, b)| (a - b).norm())
            .fold(0.0, f64::max);
        assert!(moved > 1e-6, "the sweep must do something: {moved}");
        assert!(la.iter().filter(|l| **l != 0.0).count() > c.len() / 2);
        // The run kernel's SVD stops at column orthogonality √ε (TRACKED_ORTHOGONALITY), the
        // generic one at ε: the stress direction U diag(τ) Vᵀ, hence each Δx and Δλ, agrees to
        // a small multiple of √ε relative (measured: 1.2 √ε of the motion, 0.4 √ε of λ), plus
        // an ulp or two of the position itself (each `x += Δx` rounds to the position's ulp
        // whatever the size of Δx). Rotating to ε in both would agree to 1e-12.
        let tol = 4.0 * TRACKED_ORTHOGONALITY;
        for (a, b) in xa.iter().zip(&xb) {
            assert!(
                (a - b).norm() <= tol * moved + 4.0 * f64::EPSILON * a.norm(),
                "{a} vs {b}"
            );
        }
        for (a, b) in la.iter().zip(&lb) {
            assert!((a - b).abs() <= tol * a.abs().max(1e-12), "{a} vs {b}");
        }
        assert_eq!(xb[3], p.x[3], "pinned particle moved");
    }

    #[test]
    fn run_kernel_matches_generic_kernel_3d() {
        matches_generic::<3>();
    }

    #[test]
    fn run_kernel_matches_generic_kernel_2d() {
        matches_generic::<2>();
    }

    /// With a material table (sand, clay, stiff elastic interleaved member by member, rows in
    /// sweep order) the run kernel picks each constraint's own material as the generic one.
    #[test]
    fn run_kernel_matches_generic_kernel_with_several_materials() {
        let table = vec![
            Material::sand(),
            Material::clay(),
            Material::elastic(1000.0, 1e6, 0.3),
        ];
        let (c, p) = perturbed_table::<3>(true, table.clone());
        assert_eq!(c.projection_data().material.len(), c.len());
        matches_generic_for::<3>((c, p));
        matches_generic_for::<2>(perturbed_table::<2>(true, table));
    }

    /// A sweep whose weights are not the inverse masses seen by `begin_substep` is handed to
    /// the generic kernel (`S` was built from those).
    #[test]
    fn other_weights_use_the_generic_kernel() {
        let (c, mut p) = perturbed::<3>();
        let w = p.inv_mass.clone();
        let mut lambda = vec![0.0; c.len()];
        let mut order = 0..c.len();
        // SAFETY: one thread, stencils in range.
        let first = unsafe {
            c.project_closed_form_run(
                &mut order,
                false,
                DisjointSlice::new(&mut p.x),
                &w,
                DisjointSlice::new(&mut lambda),
                1e6,
            )
        };
        assert_eq!(first, Some(0));
        let mut order = 0..c.len();
        // SAFETY: as above.
        let done = unsafe {
            c.project_closed_form_run(
                &mut order,
                false,
                DisjointSlice::new(&mut p.x),
                &p.inv_mass,
                DisjointSlice::new(&mut lambda),
                1e6,
            )
        };
        assert_eq!(done, None);
        assert!(lambda.iter().any(|l| *l != 0.0));
    }

    /// The AVX passes are the scalar passes bit for bit (with a pinned particle, and without:
    /// the scatter then skips its `w > 0` test).
    #[test]
    fn avx_passes_are_bit_identical() {
        if !std::arch::is_x86_feature_detected!("avx") {
            return;
        }
        for pinned in [true, false] {
            avx_matches_scalar(pinned);
        }
    }

    fn avx_matches_scalar(pinned: bool) {
        let (c, p) = perturbed_with::<3>(pinned);
        assert_eq!(c.projection_data().w_all_positive, !pinned);
        // Each path with its own warm starts (a sweep rewrites them).
        let cb = c.clone();
        let (mut xa, mut la) = (p.x.clone(), vec![0.0; c.len()]);
        let (mut xb, mut lb) = (p.x.clone(), vec![0.0; c.len()]);
        for _ in 0..3 {
            run(&c, &mut xa, &p.inv_mass, &mut la, 1e-3, false);
            run(&cb, &mut xb, &p.inv_mass, &mut lb, 1e-3, true);
        }
        assert_ne!(xa, p.x);
        let bits = |v: &[Vector3<f64>]| -> Vec<u64> {
            v.iter()
                .flat_map(|x| x.iter().map(|c| c.to_bits()))
                .collect()
        };
        assert_eq!(bits(&xa), bits(&xb));
        assert_eq!(
            la.iter().map(|l| l.to_bits()).collect::<Vec<_>>(),
            lb.iter().map(|l| l.to_bits()).collect::<Vec<_>>()
        );
    }
}
