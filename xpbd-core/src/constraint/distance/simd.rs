//! Four distance constraints per AVX2 instruction (x86-64 only; selected at run time).

use std::arch::x86_64::*;

/// Which instruction sets the four-at-once kernel may use (std caches the detection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Level {
    /// No AVX2: the scalar loop does everything.
    None,
    /// AVX2: 16 vector registers.
    Avx2,
    /// AVX2 code compiled with AVX-512VL enabled, only for its 32 vector registers (the
    /// kernel keeps ~20 vectors live; with 16 the compiler spills to the stack). The
    /// instructions and their rounding are the same.
    Avx512Vl,
}

#[cfg(test)]
thread_local! {
    /// Tests force a level (each one the CPU has) to check every variant bit for bit.
    pub(super) static FORCED: std::cell::Cell<Option<Level>> =
        const { std::cell::Cell::new(None) };
}

#[inline(always)]
pub(super) fn level() -> Level {
    #[cfg(test)]
    if let Some(forced) = FORCED.with(|f| f.get()) {
        return forced;
    }
    if !std::arch::is_x86_feature_detected!("avx2") {
        Level::None
    } else if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
    {
        Level::Avx512Vl
    } else {
        Level::Avx2
    }
}

/// Loads the positions of four particles as coordinate vectors `[X, Y, Z]` (lane `l` is
/// particle `p[l]`): `x, y` as one 16-byte load per particle, interleaved by two unpacks;
/// `z` element by element. 13 instructions instead of 21 for three element-wise gathers.
#[inline(always)]
unsafe fn load_positions(p: [*mut f64; 4]) -> [__m256d; 3] {
    // SAFETY: each pointer addresses three valid f64 (caller).
    unsafe {
        let a = _mm256_insertf128_pd::<1>(
            _mm256_castpd128_pd256(_mm_loadu_pd(p[0])),
            _mm_loadu_pd(p[2]),
        ); // [x0, y0, x2, y2]
        let b = _mm256_insertf128_pd::<1>(
            _mm256_castpd128_pd256(_mm_loadu_pd(p[1])),
            _mm_loadu_pd(p[3]),
        ); // [x1, y1, x3, y3]
        [
            _mm256_unpacklo_pd(a, b),
            _mm256_unpackhi_pd(a, b),
            _mm256_set_pd(*p[3].add(2), *p[2].add(2), *p[1].add(2), *p[0].add(2)),
        ]
    }
}

/// The inverse of [`load_positions`]: `x, y` of each particle as one 16-byte store (so a
/// later 16-byte load of the pair is store-forwarded), `z` element by element, straight
/// from the registers.
#[inline(always)]
unsafe fn store_positions(v: [__m256d; 3], p: [*mut f64; 4]) {
    // SAFETY: each pointer addresses three valid f64, exclusively ours (caller).
    unsafe {
        let a = _mm256_unpacklo_pd(v[0], v[1]); // [x0, y0, x2, y2]
        let b = _mm256_unpackhi_pd(v[0], v[1]); // [x1, y1, x3, y3]
        _mm_storeu_pd(p[0], _mm256_castpd256_pd128(a));
        _mm_storeu_pd(p[1], _mm256_castpd256_pd128(b));
        _mm_storeu_pd(p[2], _mm256_extractf128_pd::<1>(a));
        _mm_storeu_pd(p[3], _mm256_extractf128_pd::<1>(b));
        let lo = _mm256_castpd256_pd128(v[2]);
        let hi = _mm256_extractf128_pd::<1>(v[2]);
        _mm_storel_pd(p[0].add(2), lo);
        _mm_storeh_pd(p[1].add(2), lo);
        _mm_storel_pd(p[2].add(2), hi);
        _mm_storeh_pd(p[3].add(2), hi);
    }
}

/// Stores lane `l` of `v` at `dst[l]`, straight from the register.
#[inline(always)]
unsafe fn scatter(v: __m256d, dst: [*mut f64; 4]) {
    // SAFETY: each pointer is valid and exclusively ours (caller).
    unsafe {
        let lo = _mm256_castpd256_pd128(v);
        let hi = _mm256_extractf128_pd::<1>(v);
        _mm_storel_pd(dst[0], lo);
        _mm_storeh_pd(dst[1], lo);
        _mm_storel_pd(dst[2], hi);
        _mm_storeh_pd(dst[3], hi);
    }
}

/// Projects the constraints of `order` four at a time while four undamped ones remain,
/// lane `l` doing exactly the scalar arithmetic of `project_closed_form` for its constraint
/// (IEEE square root, division, products and sums in the same order, no fused multiply-add),
/// so the result is the same bit for bit; leaves the rest of `order` (fewer than four, or
/// starting within four of a damped constraint) to the scalar loop. A lane whose scalar form
/// would return early (`|d| < 1e-300`, vanishing denominator) writes its inputs back
/// unchanged. Gathers, arithmetic and scatters stay in one function so that lane values
/// never round-trip through memory (a 256-bit load of four just-stored doubles cannot be
/// forwarded and stalls).
///
/// # Safety
/// The CPU supports `level` (not `Level::None`); `x` points to `n_x` 3-component positions
/// and `lambda` to `n_lambda` multipliers; the stencils of `order` are pairwise disjoint and
/// in range, and nothing else accesses them meanwhile.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) unsafe fn distance_runs_of_four(
    level: Level,
    undamped_and_rigid: bool,
    order: &mut (impl Iterator<Item = usize> + Clone),
    pairs: &[[u32; 2]],
    rest: &[f64],
    compliance: &[f64],
    damping: &[f64],
    x: *mut f64,
    n_x: usize,
    w: &[f64],
    lambda: *mut f64,
    n_lambda: usize,
    inv_h2: f64,
) {
    macro_rules! dispatch {
        ($($feature:literal => $variant:ident),*) => {
            match level {
                $(Level::$variant => {
                    #[target_feature(enable = $feature)]
                    #[allow(clippy::too_many_arguments)]
                    unsafe fn kernel<const GENERAL: bool>(
                        order: &mut (impl Iterator<Item = usize> + Clone),
                        pairs: &[[u32; 2]],
                        rest: &[f64],
                        compliance: &[f64],
                        damping: &[f64],
                        x: *mut f64,
                        n_x: usize,
                        w: &[f64],
                        lambda: *mut f64,
                        n_lambda: usize,
                        inv_h2: f64,
                    ) {
                        // SAFETY: forwarded contract.
                        unsafe {
                            runs_of_four_body::<GENERAL>(
                                order, pairs, rest, compliance, damping, x, n_x, w,
                                lambda, n_lambda, inv_h2,
                            )
                        }
                    }
                    // SAFETY: the CPU supports the variant's features (caller).
                    unsafe {
                        if undamped_and_rigid {
                            kernel::<false>(
                                order, pairs, rest, compliance, damping, x, n_x, w,
                                lambda, n_lambda, inv_h2,
                            )
                        } else {
                            kernel::<true>(
                                order, pairs, rest, compliance, damping, x, n_x, w,
                                lambda, n_lambda, inv_h2,
                            )
                        }
                    }
                })*
                Level::None => {}
            }
        };
    }
    dispatch!("avx2" => Avx2, "avx2,avx512f,avx512vl" => Avx512Vl);
}

/// The body of [`distance_runs_of_four`], inlined into one function per instruction set.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn runs_of_four_body<const GENERAL: bool>(
    order: &mut (impl Iterator<Item = usize> + Clone),
    pairs: &[[u32; 2]],
    rest: &[f64],
    compliance: &[f64],
    damping: &[f64],
    x: *mut f64,
    n_x: usize,
    w: &[f64],
    lambda: *mut f64,
    n_lambda: usize,
    inv_h2: f64,
) {
    // One range check per array and one per index below, instead of one per access (24
    // per group of four).
    let n_c = pairs.len();
    if rest.len() != n_c
        || compliance.len() != n_c
        || damping.len() != n_c
        || n_lambda < n_c
        || w.len() < n_x
    {
        return;
    }
    loop {
        let mut ahead = order.clone();
        let (Some(c0), Some(c1), Some(c2), Some(c3)) =
            (ahead.next(), ahead.next(), ahead.next(), ahead.next())
        else {
            return;
        };
        assert!(c0.max(c1).max(c2).max(c3) < n_c, "constraint out of range");
        // SAFETY: every per-constraint array has n_c entries (checked above).
        let at = |a: &[f64], c: usize| unsafe { *a.get_unchecked(c) };
        if GENERAL
            && (at(damping, c0) != 0.0
                || at(damping, c1) != 0.0
                || at(damping, c2) != 0.0
                || at(damping, c3) != 0.0)
        {
            return;
        }
        // SAFETY: as above.
        let pair = |c: usize| unsafe { pairs.get_unchecked(c).map(|p| p as usize) };
        let ([i0, j0], [i1, j1], [i2, j2], [i3, j3]) = (pair(c0), pair(c1), pair(c2), pair(c3));
        assert!(
            i0.max(j0).max(i1).max(j1).max(i2).max(j2).max(i3).max(j3) < n_x,
            "stencil out of range"
        );
        let (rest, compliance) = (|c: usize| at(rest, c), |c: usize| at(compliance, c));
        // SAFETY: w has at least n_x entries (checked above), the particles are in range.
        let w = |p: usize| unsafe { *w.get_unchecked(p) };
        // SAFETY (loads and stores): in range (asserted) and exclusive (caller).
        unsafe {
            let pi = [x.add(3 * i0), x.add(3 * i1), x.add(3 * i2), x.add(3 * i3)];
            let pj = [x.add(3 * j0), x.add(3 * j1), x.add(3 * j2), x.add(3 * j3)];
            let pl = [
                lambda.add(c0),
                lambda.add(c1),
                lambda.add(c2),
                lambda.add(c3),
            ];
            let xi = load_positions(pi);
            let xj = load_positions(pj);
            let d = [
                _mm256_sub_pd(xi[0], xj[0]),
                _mm256_sub_pd(xi[1], xj[1]),
                _mm256_sub_pd(xi[2], xj[2]),
            ];
            // nalgebra's norm: (dx² + dy²) + dz².
            let len2 = _mm256_add_pd(
                _mm256_add_pd(_mm256_mul_pd(d[0], d[0]), _mm256_mul_pd(d[1], d[1])),
                _mm256_mul_pd(d[2], d[2]),
            );
            let len = _mm256_sqrt_pd(len2);
            let w0 = _mm256_set_pd(w(i3), w(i2), w(i1), w(i0));
            let w1 = _mm256_set_pd(w(j3), w(j2), w(j1), w(j0));
            // Without GENERAL every α is zero (see `StepFacts`): α̃ drops out.
            let alpha_tilde = if GENERAL {
                let alpha = _mm256_set_pd(
                    compliance(c3),
                    compliance(c2),
                    compliance(c1),
                    compliance(c0),
                );
                _mm256_mul_pd(alpha, _mm256_set1_pd(inv_h2))
            } else {
                _mm256_setzero_pd()
            };
            let denom = if GENERAL {
                _mm256_add_pd(_mm256_add_pd(w0, w1), alpha_tilde)
            } else {
                _mm256_add_pd(w0, w1)
            };
            // ok = !(len < 1e-300) && !(denom <= MIN_POSITIVE): NaN counts as ok, as in
            // the scalar test.
            let ok = _mm256_and_pd(
                _mm256_cmp_pd::<_CMP_NLT_UQ>(len, _mm256_set1_pd(1e-300)),
                _mm256_cmp_pd::<_CMP_NLE_UQ>(denom, _mm256_set1_pd(f64::MIN_POSITIVE)),
            );
            let lam = _mm256_set_pd(*pl[3], *pl[2], *pl[1], *pl[0]);
            let rest4 = _mm256_set_pd(rest(c3), rest(c2), rest(c1), rest(c0));
            let num = if GENERAL {
                _mm256_sub_pd(_mm256_sub_pd(rest4, len), _mm256_mul_pd(alpha_tilde, lam))
            } else {
                _mm256_sub_pd(rest4, len)
            };
            let den = _mm256_blendv_pd(_mm256_set1_pd(1.0), _mm256_mul_pd(denom, len), ok);
            let s = _mm256_div_pd(num, den);
            let lam_new = _mm256_blendv_pd(lam, _mm256_add_pd(lam, _mm256_mul_pd(s, len)), ok);
            let s0 = _mm256_mul_pd(w0, s);
            let s1 = _mm256_mul_pd(w1, s);
            let moved = |k: usize| {
                let ni = _mm256_add_pd(xi[k], _mm256_mul_pd(d[k], s0));
                let nj = _mm256_sub_pd(xj[k], _mm256_mul_pd(d[k], s1));
                (
                    _mm256_blendv_pd(xi[k], ni, ok),
                    _mm256_blendv_pd(xj[k], nj, ok),
                )
            };
            let ((xi0, xj0), (xi1, xj1), (xi2, xj2)) = (moved(0), moved(1), moved(2));
            store_positions([xi0, xi1, xi2], pi);
            store_positions([xj0, xj1, xj2], pj);
            scatter(lam_new, pl);
        }
        order.nth(3);
    }
}
