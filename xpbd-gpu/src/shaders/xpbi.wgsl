// XPBI step on the GPU (3D, f32): the kernels after the neighbour grid (grid.wgsl) of
// xpbi_continuum's step (XPBI Algorithm 1 in candidate positions x = xⁿ + Δt v):
//
//   stats        bounding box of x and max |v|² (integer atomics on order-preserving keys,
//                one per workgroup after a workgroup reduction: deterministic)
//   volumes      Vₚⁿ = Vₚ⁰ det Fₚⁿ
//   counts       constraints touching p (Jacobi averaging, as Simulation::count_incidence):
//                contacts + 1 + |N(p)| + |S(p)|, S(p) = {b ∈ N(p) : |x_bⁿ − x_pⁿ| < Δx}; a free
//                particle is a contact candidate of collider i when φ_i(xⁿ) − r < 2(|vⁿ|Δt + aΔt²)
//                + |d_i| (φ_i at the collider's pose at the start of the step, d_i its
//                displacement over the step; ColliderContacts::generate's sweep)
//                (ColliderContacts::generate with margin 0); bits 24.. hold the candidate mask
//   frozen       M_p = Σ_b V_b ∇W_b(x_p) ⊗ (x_b − x_p), L_p = pinv(M_p) (singular values
//                |σ| < threshold dropped), stored per particle; q_p = −Σ_b q_b with
//                q_b = V_b L_p ∇W_b(x_p) (recomputed where used, `q_of`), and the Jacobi factor
//                ω / max_{k ∈ {p}∪N(p), w_k > 0} count_k
//   predict      λ ← 0; free particles v += Δt g, u = Δt v (pinned: u = 0; kinematic: u given)
//
// The unknown of the iterations is the displacement u = x − xⁿ = Δt v (buffer `dsp`), not x:
// in f32, x − xⁿ would lose ulp(|x|)/|u| relative accuracy (≈ 1e-3 at |x| = 0.1 m, |u| = 1e-5 m),
// u keeps ε. Positions are xⁿ + u where needed and x ← xⁿ + u at the end of the step.
//   solve        Jacobi phase 1 per particle p (all against the same x):
//                  XPBI  Δt∇v_p = Σ_k (x_k − x_kⁿ) q_kᵀ, F_tr = (I + Δt∇v_p)Fⁿ, F_E = Z(F_tr),
//                        C = √(2Ψ(F_E)), G = P(F_E)Fⁿᵀ/C, α̃ = 1/(V⁰Δt²),
//                        Δλ = s(−C − α̃λ)/(Σ_k w_k|G q_k|² + α̃), stores D_p = Δλ G
//                  colliders φ(x) ≥ r (planes, spheres, boxes, capsules; unilateral, λ ≥ 0) with
//                        the core's budgeted Coulomb friction (xpbd_core::contact::friction):
//                        d_n = wλ, τ = tangential correction applied so far in the step;
//                        stick if |Δx_t| + τ ≤ μ_s d_n, else slide by min(μ_k d_n − τ, |Δx_t|)
//                  spacing pairs |x_p − x_b| ≥ 0.75 r (r = 1.1Δx by default; unilateral), both ends compute the
//                        pair identically in canonical (min, max) order
//   apply        Jacobi phase 2 (gather, no float atomics): x_p += w_p (D_p q_p +
//                Σ_b D_b q_{b→p}) + collider and pair corrections
//   velocities   v = u/Δt (then damped, then the restitution of active contacts)
//   xsph         v_p += c Σ_b V_b W_pb (v_b − v_p)  (into dx_local), then u = Δt v
//   update_f     Fⁿ⁺¹ = Z((I + Δt∇v)Fⁿ) with the final velocities, hardening committed,
//                x = xⁿ + u
//
// Prepend svd3.wgsl and plasticity.wgsl.

const XWG: u32 = 64u;
const C_AT_REST: f32 = 1e-12;
const FLAG_IN_LOOP: u32 = 1u;
const FLAG_SPACING: u32 = 2u;
const FLAG_AVERAGED: u32 = 4u;
// dx_local holds, at predict, the displacement of each kinematic particle over the step.
const FLAG_KINEMATIC: u32 = 8u;

struct XpbiParams {
    n: u32,
    n_colliders: u32,
    flags: u32,
    _pad0: u32,
    dt: f32,
    inv_dt: f32,
    omega: f32,
    support: f32,
    // σ₃/H³ of the Wendland C2 kernel.
    kernel_scale: f32,
    pinv_threshold: f32,
    xsph: f32,
    // 0.75 r (MIN_DISTANCE_OVER_RADIUS r; r: the position-correction radius, 1.1Δx by default).
    min_distance: f32,
    // (max(Δx, r))², the pair search radius of the position correction.
    spacing2: f32,
    // exp(−k Δt).
    damping: f32,
    // Acceleration bound a of the contact candidate test (ContactOptions::acceleration).
    contact_accel: f32,
    // Particle radius r of the contacts (m).
    contact_radius: f32,
    gravity: vec4<f32>,
    // Static colliders (colliders.wgsl; MAX_COLLIDERS on the host) with μ_s and μ_k; a
    // plane's offset includes r (n·x ≥ d + r).
    colliders: array<Collider, 8>,
    // The body's material table (plasticity.wgsl; MAX_GPU_MATERIALS on the host), indexed by
    // the material id in pstate.z.
    materials: array<Plastic, 8>,
}

@group(0) @binding(0) var<uniform> xp: XpbiParams;
@group(0) @binding(1) var<storage, read_write> x: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> xn: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> v: array<vec4<f32>>;
// Displacement u = x − xⁿ of the step.
@group(0) @binding(4) var<storage, read_write> dsp: array<vec4<f32>>;
// (inverse mass, V⁰, Vⁿ, Jacobi factor of the particle's own XPBI constraint)
@group(0) @binding(5) var<storage, read_write> pinfo: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> counts: array<u32>;
@group(0) @binding(7) var<storage, read_write> fmat: array<mat3x3<f32>>;
// (hardening, volume correction, material id, 0)
@group(0) @binding(8) var<storage, read_write> pstate: array<vec4<f32>>;
@group(0) @binding(9) var<storage, read_write> lam: array<f32>;
@group(0) @binding(10) var<storage, read_write> lam_colliders: array<array<f32, 8>>;
@group(0) @binding(11) var<storage, read_write> dmat: array<mat3x3<f32>>;
@group(0) @binding(12) var<storage, read_write> qself: array<vec4<f32>>;
@group(0) @binding(13) var<storage, read_write> dx_local: array<vec4<f32>>;
@group(0) @binding(14) var<storage, read_write> nb_offsets: array<u32>;
@group(0) @binding(15) var<storage, read_write> nb_indices: array<u32>;
// L_p of the step (per particle); the corrected weights are recomputed where used.
@group(0) @binding(16) var<storage, read_write> lmat: array<mat3x3<f32>>;
@group(0) @binding(17) var<storage, read_write> lam_sp: array<f32>;
// 0..3: min keys of x, 3..6: max keys, 6: max |v|² bits.
@group(0) @binding(18) var<storage, read_write> stats_out: array<atomic<u32>>;
// Tangential friction budget τ per (particle, collider).
@group(0) @binding(19) var<storage, read_write> tau_colliders: array<array<f32, 8>>;
// Node values of the colliders' signed-distance grids (colliders.wgsl).
@group(0) @binding(22) var sdf_nodes: texture_2d<f32>;

const COUNT_MASK: u32 = 0x00ffffffu;

var<workgroup> red: array<array<u32, 7>, 64>;

// The material of particle p: its entry of the table (the id is stored exactly as an f32).
fn material_of(p: u32) -> Plastic {
    return xp.materials[u32(pstate[p].z)];
}

fn tid(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return gid.x + gid.y * nwg.x * XWG;
}

fn outer(a: vec3<f32>, b: vec3<f32>) -> mat3x3<f32> {
    return mat3x3<f32>(a * b.x, a * b.y, a * b.z);
}

fn det3(m: mat3x3<f32>) -> f32 {
    return dot(m[0], cross(m[1], m[2]));
}

// Order-preserving u32 key of an f32 (NaN sorts above +∞).
fn order_key(f: f32) -> u32 {
    let b = bitcast<u32>(f);
    if (b & 0x80000000u) != 0u {
        return ~b;
    }
    return b | 0x80000000u;
}

// Wendland C2: W(r) = σ/H³ (1 − q)⁴(1 + 4q), q = r/H.
fn kernel_w(r: f32) -> f32 {
    let q = r / xp.support;
    if q >= 1.0 {
        return 0.0;
    }
    let a = 1.0 - q;
    return xp.kernel_scale * a * a * a * a * (1.0 + 4.0 * q);
}

// ∇_{x_p} W(|x_p − x_b|) for d = x_p − x_b: d σ/H³ (−20/H²)(1 − q)³.
fn kernel_grad(d: vec3<f32>) -> vec3<f32> {
    let q = length(d) / xp.support;
    if q >= 1.0 {
        return vec3<f32>(0.0);
    }
    let a = 1.0 - q;
    return d * (xp.kernel_scale * (-20.0 / (xp.support * xp.support)) * a * a * a);
}

// Corrected weight of neighbour b in p's stencil, q_b = (L_p ∇W_b(x_pⁿ)) V_bⁿ: recomputed from
// L_p wherever it is needed (instead of stored per neighbour: 16 bytes × ~26 per particle), with
// one expression, so every use gets the same bits. The weight of p in b's stencil (the Jacobi
// gather) is q_of(b, p).
fn q_of(p: u32, b: u32) -> vec3<f32> {
    return (lmat[p] * kernel_grad(xn[p].xyz - xn[b].xyz)) * pinfo[b].z;
}

// XSPH weight V_bⁿ W(|x_bⁿ − x_pⁿ|).
// XSPH's pair volume ω_pb = 2 w_p V_p V_b / (w_p V_p + w_b V_b) (xpbi_continuum::xsph::pair_volume).
fn xsph_weight(p: u32, b: u32) -> f32 {
    let wvp = pinfo[p].x * pinfo[p].z;
    let den = wvp + pinfo[b].x * pinfo[b].z;
    var omega = 0.0;
    if den > 0.0 {
        omega = 2.0 * wvp * pinfo[b].z / den;
    }
    return omega * kernel_w(length(xn[b].xyz - xn[p].xyz));
}

fn is_spacing_pair(p: u32, b: u32) -> bool {
    let d = xn[b].xyz - xn[p].xyz;
    return (xp.flags & FLAG_SPACING) != 0u && dot(d, d) < xp.spacing2;
}

@compute @workgroup_size(64)
fn stats(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) li: u32) {
    let p = tid(gid, nwg);
    var k = array<u32, 7>(0xffffffffu, 0xffffffffu, 0xffffffffu, 0u, 0u, 0u, 0u);
    if p < xp.n {
        let xx = x[p].xyz;
        let vv = v[p].xyz;
        for (var a = 0u; a < 3u; a++) {
            k[a] = order_key(xx[a]);
            k[3u + a] = k[a];
        }
        // |v|² ≥ 0 (or NaN): its bits order as u32.
        k[6] = bitcast<u32>(dot(vv, vv));
    }
    red[li] = k;
    workgroupBarrier();
    for (var off = 32u; off > 0u; off /= 2u) {
        if li < off {
            for (var a = 0u; a < 3u; a++) {
                red[li][a] = min(red[li][a], red[li + off][a]);
                red[li][3u + a] = max(red[li][3u + a], red[li + off][3u + a]);
            }
            red[li][6] = max(red[li][6], red[li + off][6]);
        }
        workgroupBarrier();
    }
    if li == 0u {
        for (var a = 0u; a < 3u; a++) {
            atomicMin(&stats_out[a], red[0][a]);
            atomicMax(&stats_out[3u + a], red[0][3u + a]);
        }
        atomicMax(&stats_out[6], red[0][6]);
    }
}

@compute @workgroup_size(64)
fn volumes(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = tid(gid, nwg);
    if p >= xp.n {
        return;
    }
    pinfo[p].z = pinfo[p].y * det3(fmat[p]);
}

@compute @workgroup_size(64)
fn count_incidence(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = tid(gid, nwg);
    if p >= xp.n {
        return;
    }
    let begin = nb_offsets[p];
    let end = nb_offsets[p + 1u];
    var pairs = 0u;
    for (var s = begin; s < end; s++) {
        if is_spacing_pair(p, nb_indices[s]) {
            pairs += 1u;
        }
    }
    var mask = 0u;
    var contacts = 0u;
    if pinfo[p].x > 0.0 {
        let bound = 2.0 * (length(v[p].xyz) * xp.dt + xp.contact_accel * xp.dt * xp.dt);
        for (var i = 0u; i < xp.n_colliders; i++) {
            // At the collider's pose at the start of the step, φ_start(x) = φ(x + d) (d: its
            // displacement over the step), within the bound plus the sweep |d|.
            let d = xp.colliders[i].motion.xyz;
            if contact_gap(i, p, d).w < bound + length(d) {
                mask |= 1u << i;
                contacts += 1u;
            }
        }
    }
    counts[p] = (contacts + 1u + (end - begin) + pairs) | (mask << 24u);
}

@compute @workgroup_size(64)
fn frozen(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = tid(gid, nwg);
    if p >= xp.n {
        return;
    }
    let xp_n = xn[p].xyz;
    let begin = nb_offsets[p];
    let end = nb_offsets[p + 1u];
    var m = mat3x3<f32>();
    for (var s = begin; s < end; s++) {
        let b = nb_indices[s];
        let xb = xn[b].xyz;
        m += outer(kernel_grad(xp_n - xb) * pinfo[b].z, xb - xp_n);
    }
    // pinv(M) = Σ_{|σ_i| ≥ threshold} v_i u_iᵀ / σ_i (rotation-variant SVD, as the CPU).
    var l = mat3x3<f32>();
    let finite = all(abs(m[0]) < vec3<f32>(3.0e38)) && all(abs(m[1]) < vec3<f32>(3.0e38))
        && all(abs(m[2]) < vec3<f32>(3.0e38));
    if finite {
        let d = svd3(m);
        for (var i = 0u; i < 3u; i++) {
            if abs(d.sigma[i]) >= xp.pinv_threshold {
                l += outer(d.v[i], d.u[i]) * (1.0 / d.sigma[i]);
            }
        }
    }
    lmat[p] = l;
    var sum = vec3<f32>(0.0);
    var max_count = 0u;
    if pinfo[p].x > 0.0 {
        max_count = counts[p] & COUNT_MASK;
    }
    for (var s = begin; s < end; s++) {
        let b = nb_indices[s];
        sum += q_of(p, b);
        if pinfo[b].x > 0.0 {
            max_count = max(max_count, counts[b] & COUNT_MASK);
        }
    }
    qself[p] = vec4<f32>(-sum, 0.0);
    var factor = xp.omega;
    if (xp.flags & FLAG_AVERAGED) != 0u {
        factor = xp.omega / f32(max(max_count, 1u));
    }
    pinfo[p].w = factor;
}

@compute @workgroup_size(64)
fn predict(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = tid(gid, nwg);
    if p >= xp.n {
        return;
    }
    lam[p] = 0.0;
    lam_colliders[p] = array<f32, 8>();
    tau_colliders[p] = array<f32, 8>();
    for (var s = nb_offsets[p]; s < nb_offsets[p + 1u]; s++) {
        lam_sp[s] = 0.0;
    }
    if pinfo[p].x > 0.0 {
        let vv = v[p].xyz + xp.gravity.xyz * xp.dt;
        v[p] = vec4<f32>(vv, 0.0);
        dsp[p] = vec4<f32>(vv * xp.dt, 0.0);
    } else if (xp.flags & FLAG_KINEMATIC) != 0u {
        // Pinned: 0; kinematic: moved towards its target (the CPU's kinematic_target).
        dsp[p] = vec4<f32>(dx_local[p].xyz, 0.0);
    } else {
        dsp[p] = vec4<f32>(0.0);
    }
}

// Jacobi factor of a constraint on particles a, b (as JacobiRelaxation::factor).
fn pair_factor(a: u32, b: u32) -> f32 {
    if (xp.flags & FLAG_AVERAGED) == 0u {
        return xp.omega;
    }
    var c = 0u;
    if pinfo[a].x > 0.0 {
        c = counts[a] & COUNT_MASK;
    }
    if pinfo[b].x > 0.0 {
        c = max(c, counts[b] & COUNT_MASK);
    }
    return xp.omega / f32(max(c, 1u));
}

// The XPBI constraint of p at the current displacements: updates λ_p by the (scaled) XPBD
// step and returns D_p = Δλ G (∇_{x_k}C = G q_k).
fn xpbi_project(p: u32, factor: f32) -> mat3x3<f32> {
    let begin = nb_offsets[p];
    let end = nb_offsets[p + 1u];
    let qp = qself[p].xyz;
    var g = outer(dsp[p].xyz, qp);
    for (var s = begin; s < end; s++) {
        let b = nb_indices[s];
        g += outer(dsp[b].xyz, q_of(p, b));
    }
    let f_n = fmat[p];
    let identity = mat3x3<f32>(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(0.0, 0.0, 1.0));
    let f_trial = (identity + g) * f_n;
    let d = svd3(f_trial);
    let eps = log(max(d.sigma, vec3<f32>(MIN_SINGULAR_VALUE)));
    var e = eps;
    let m = material_of(p);
    if (xp.flags & FLAG_IN_LOOP) != 0u && m.model != MODEL_ELASTIC {
        let r = project_strain(eps, pstate[p].xy, m, xp.dt);
        e = vec3<f32>(r.fe[0][0], r.fe[1][1], r.fe[2][2]);
    }
    let mu = m.mu;
    let la = m.lambda;
    let tr = e.x + e.y + e.z;
    let psi = mu * dot(e, e) + 0.5 * la * tr * tr;
    let c = sqrt(max(2.0 * psi, 0.0));
    var gf = mat3x3<f32>();
    var value = 0.0;
    if c > C_AT_REST {
        value = c;
        let sig = exp(e);
        let dd = (2.0 * mu * e + vec3<f32>(la * tr)) / sig / c;
        let us = mat3x3<f32>(d.u[0] * dd.x, d.u[1] * dd.y, d.u[2] * dd.z);
        gf = us * transpose(d.v) * transpose(f_n);
    }
    var wsum = pinfo[p].x * dot(gf * qp, gf * qp);
    for (var s = begin; s < end; s++) {
        let gq = gf * q_of(p, nb_indices[s]);
        wsum += pinfo[nb_indices[s]].x * dot(gq, gq);
    }
    let alpha_tilde = xp.inv_dt * xp.inv_dt / pinfo[p].y;
    let denom = wsum + alpha_tilde;
    var dl = 0.0;
    if denom > 1.1754944e-38 {
        dl = (-value - alpha_tilde * lam[p]) / denom * factor;
    }
    lam[p] += dl;
    return gf * dl;
}

// (n, C) of the contact of p with collider i at displacement u: C = φ(xⁿ + u) − r, n = ∇φ
// (xpbd_core's ColliderContacts::evaluate). A plane's offset carries r and its C is evaluated
// as (n·xⁿ − d) + n·u, which keeps the f32 accuracy of the small displacement u (module
// docs); the other shapes evaluate φ at xⁿ + u.
fn contact_gap(i: u32, p: u32, u: vec3<f32>) -> vec4<f32> {
    let col = xp.colliders[i];
    if col.kind == COLLIDER_PLANE {
        let nrm = col.shape.xyz;
        return vec4<f32>(nrm, (dot(nrm, xn[p].xyz) - col.shape.w) + dot(nrm, u));
    }
    let sd = collider_distance(col, xn[p].xyz + u);
    return vec4<f32>(sd.xyz, sd.w - xp.contact_radius);
}

// Collider contacts of p (candidates only) from displacement `u0`; returns the corrected
// displacement. Jacobi (`sequential` = false): every contact starts from u0 and the
// corrections are summed; Gauss-Seidel: each contact starts where the previous one ended.
fn contacts_project(p: u32, u0: vec3<f32>, sequential: bool) -> vec3<f32> {
    let wp = pinfo[p].x;
    var lp = lam_colliders[p];
    var tp = tau_colliders[p];
    let mask = counts[p] >> 24u;
    var factor = 1.0;
    if !sequential {
        factor = pair_factor(p, p);
    }
    var cur = u0;
    var corr = vec3<f32>(0.0);
    for (var i = 0u; i < xp.n_colliders; i++) {
        var up = u0;
        if sequential {
            up = cur;
        }
        let gap = contact_gap(i, p, up);
        let nrm = gap.xyz;
        let cv = gap.w;
        if (mask & (1u << i)) == 0u || (cv >= 0.0 && lp[i] <= 0.0) || wp <= 0.0 {
            continue;
        }
        var dlp = -cv / wp * factor;
        dlp = max(lp[i] + dlp, 0.0) - lp[i];
        lp[i] += dlp;
        // Local copy of the displacement (x − xⁿ), corrected by the normal then friction.
        var xs = up + nrm * (wp * dlp);
        let mu_s = xp.colliders[i].friction;
        let mu_k = xp.colliders[i].kinetic_friction;
        if (mu_s > 0.0 || mu_k > 0.0) && lp[i] > 0.0 {
            // The displacement relative to the collider's over the step.
            let rel = xs - xp.colliders[i].motion.xyz;
            let tang = rel - nrm * dot(rel, nrm);
            let t_len = length(tang);
            if t_len > 0.0 {
                let d_n = wp * lp[i];
                let used = tp[i];
                var applied = min(mu_k * d_n - used, t_len);
                if t_len + used <= mu_s * d_n {
                    applied = t_len;
                }
                if applied > 0.0 {
                    tp[i] = used + applied;
                    xs -= tang * (applied / t_len);
                }
            }
        }
        corr += xs - up;
        cur = xs;
    }
    lam_colliders[p] = lp;
    tau_colliders[p] = tp;
    if sequential {
        return cur;
    }
    return u0 + corr;
}

// Position-correction pair in slot s of p (canonical i < j): updates λ_s, returns
// (Δλ·n, valid) with n = (x_i − x_j)/|x_i − x_j|; the caller applies ±w n Δλ.
fn spacing_project(p: u32, s: u32, factor_mode_jacobi: bool) -> vec4<f32> {
    let b = nb_indices[s];
    let i = min(p, b);
    let j = max(p, b);
    let dv = (xn[i].xyz - xn[j].xyz) + (dsp[i].xyz - dsp[j].xyz);
    let len = length(dv);
    var nrm = vec3<f32>(0.0);
    if len > 0.0 {
        nrm = dv / len;
    }
    let cv = len - xp.min_distance;
    if cv >= 0.0 && lam_sp[s] <= 0.0 {
        return vec4<f32>(0.0);
    }
    let ws = pinfo[i].x * dot(nrm, nrm) + pinfo[j].x * dot(nrm, nrm);
    if ws <= 1.1754944e-38 {
        return vec4<f32>(0.0);
    }
    var factor = 1.0;
    if factor_mode_jacobi {
        factor = pair_factor(i, j);
    }
    var dls = -cv / ws * factor;
    dls = max(lam_sp[s] + dls, 0.0) - lam_sp[s];
    lam_sp[s] += dls;
    return vec4<f32>(nrm * dls, 1.0);
}

@compute @workgroup_size(64)
fn solve(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = tid(gid, nwg);
    if p >= xp.n {
        return;
    }
    dmat[p] = xpbi_project(p, pinfo[p].w);
    let up = dsp[p].xyz;
    var corr = contacts_project(p, up, false) - up;
    let wp = pinfo[p].x;
    for (var s = nb_offsets[p]; s < nb_offsets[p + 1u]; s++) {
        let b = nb_indices[s];
        if !is_spacing_pair(p, b) {
            continue;
        }
        let r = spacing_project(p, s, true);
        if p < b {
            corr += r.xyz * wp;
        } else {
            corr -= r.xyz * wp;
        }
    }
    dx_local[p] = vec4<f32>(corr, 0.0);
}

@compute @workgroup_size(64)
fn apply(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = tid(gid, nwg);
    if p >= xp.n {
        return;
    }
    let wp = pinfo[p].x;
    if wp <= 0.0 {
        return;
    }
    var dx = dmat[p] * qself[p].xyz;
    for (var s = nb_offsets[p]; s < nb_offsets[p + 1u]; s++) {
        let b = nb_indices[s];
        dx += dmat[b] * q_of(b, p);
    }
    dsp[p] = vec4<f32>(dsp[p].xyz + dx * wp + dx_local[p].xyz, 0.0);
}

@compute @workgroup_size(64)
fn velocities(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = tid(gid, nwg);
    if p >= xp.n {
        return;
    }
    var vv = dsp[p].xyz * xp.inv_dt;
    if pinfo[p].x > 0.0 {
        vv *= xp.damping;
        // Restitution of each active contact (λ > 0) with an elastic collider, as the core's
        // ColliderContacts::end_substep: with v̄_n the normal velocity relative to the collider
        // before the step (v here still holds vⁿ + Δt g from predict) and v_n the one now, a
        // contact approaching faster than 2aΔt gets v_n ← −e v̄_n.
        let v_pre = v[p].xyz - xp.gravity.xyz * xp.dt;
        let threshold = 2.0 * xp.contact_accel * xp.dt;
        let lp = lam_colliders[p];
        for (var i = 0u; i < xp.n_colliders; i++) {
            let e = xp.colliders[i].restitution;
            if e <= 0.0 || lp[i] <= 0.0 {
                continue;
            }
            let nrm = contact_gap(i, p, dsp[p].xyz).xyz;
            let v_obstacle = xp.colliders[i].motion.xyz * xp.inv_dt;
            let vn_pre = dot(v_pre - v_obstacle, nrm);
            if vn_pre >= -threshold {
                continue;
            }
            let vn = dot(vv - v_obstacle, nrm);
            vv += nrm * (-e * vn_pre - vn);
        }
    }
    v[p] = vec4<f32>(vv, 0.0);
}

@compute @workgroup_size(64)
fn xsph(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = tid(gid, nwg);
    if p >= xp.n {
        return;
    }
    let vp = v[p].xyz;
    var dv = vec3<f32>(0.0);
    for (var s = nb_offsets[p]; s < nb_offsets[p + 1u]; s++) {
        let b = nb_indices[s];
        dv += (v[b].xyz - vp) * xsph_weight(p, b);
    }
    dx_local[p] = vec4<f32>(vp + dv * xp.xsph, 0.0);
}

@compute @workgroup_size(64)
fn xsph_apply(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = tid(gid, nwg);
    if p >= xp.n {
        return;
    }
    if pinfo[p].x > 0.0 {
        let vv = dx_local[p].xyz;
        v[p] = vec4<f32>(vv, 0.0);
        dsp[p] = vec4<f32>(vv * xp.dt, 0.0);
    }
}

@compute @workgroup_size(64)
fn update_f(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = tid(gid, nwg);
    if p >= xp.n {
        return;
    }
    var g = outer(dsp[p].xyz, qself[p].xyz);
    for (var s = nb_offsets[p]; s < nb_offsets[p + 1u]; s++) {
        let b = nb_indices[s];
        g += outer(dsp[b].xyz, q_of(p, b));
    }
    let identity = mat3x3<f32>(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(0.0, 0.0, 1.0));
    let id = pstate[p].z;
    let r = return_map((identity + g) * fmat[p], pstate[p].xy, material_of(p), xp.dt);
    fmat[p] = r.fe;
    pstate[p] = vec4<f32>(r.state, id, 0.0);
    x[p] = vec4<f32>(xn[p].xyz + dsp[p].xyz, 0.0);
}

// ---------------------------------------------------------------------------------------
// Coloured Gauss-Seidel (SolverKind::Coloured): per iteration the contacts of every particle
// (in collider order), then the position-correction pairs and the XPBI constraints, each by
// 3³ cell colours (cell = H: cells of one colour are ≥ 2H apart, so the stencils {p} ∪ N(p)
// of two threads never overlap, as xpbd_core::spatial::CellColouring); one thread per cell
// of the colour, its particles in index order, corrections applied in place.

struct ColourParams {
    // xyz: this colour's cell offsets (0..3), w: colour index.
    offset: vec4<u32>,
    // xyz: grid cells per axis.
    dims: vec4<u32>,
    // xyz: cells of this colour per axis.
    count: vec4<u32>,
    _pad: vec4<u32>,
}

@group(0) @binding(20) var<storage, read_write> cell_start: array<u32>;
@group(0) @binding(21) var<storage, read_write> sorted: array<u32>;
@group(1) @binding(0) var<uniform> cp: ColourParams;

const NO_CELL: u32 = 0xffffffffu;

fn colour_cell(t: u32) -> u32 {
    let c = cp.count.xyz;
    if t >= c.x * c.y * c.z {
        return NO_CELL;
    }
    let i = t % c.x;
    let j = (t / c.x) % c.y;
    let k = t / (c.x * c.y);
    let cell = cp.offset.xyz + 3u * vec3<u32>(i, j, k);
    return cell.x + cp.dims.x * (cell.y + cp.dims.y * cell.z);
}

@compute @workgroup_size(64)
fn gs_contacts(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = tid(gid, nwg);
    if p >= xp.n || pinfo[p].x <= 0.0 {
        return;
    }
    dsp[p] = vec4<f32>(contacts_project(p, dsp[p].xyz, true), 0.0);
}

@compute @workgroup_size(64)
fn gs_spacing(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let cell = colour_cell(tid(gid, nwg));
    if cell == NO_CELL {
        return;
    }
    for (var k = cell_start[cell]; k < cell_start[cell + 1u]; k++) {
        let p = sorted[k];
        for (var s = nb_offsets[p]; s < nb_offsets[p + 1u]; s++) {
            let b = nb_indices[s];
            if b < p || !is_spacing_pair(p, b) {
                continue;
            }
            let r = spacing_project(p, s, false);
            if r.w != 0.0 {
                dsp[p] = vec4<f32>(dsp[p].xyz + r.xyz * pinfo[p].x, 0.0);
                dsp[b] = vec4<f32>(dsp[b].xyz - r.xyz * pinfo[b].x, 0.0);
            }
        }
    }
}

@compute @workgroup_size(64)
fn gs_xpbi(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let cell = colour_cell(tid(gid, nwg));
    if cell == NO_CELL {
        return;
    }
    for (var k = cell_start[cell]; k < cell_start[cell + 1u]; k++) {
        let p = sorted[k];
        let dm = xpbi_project(p, 1.0);
        let wp = pinfo[p].x;
        if wp > 0.0 {
            dsp[p] = vec4<f32>(dsp[p].xyz + dm * qself[p].xyz * wp, 0.0);
        }
        for (var s = nb_offsets[p]; s < nb_offsets[p + 1u]; s++) {
            let b = nb_indices[s];
            let wb = pinfo[b].x;
            if wb > 0.0 {
                dsp[b] = vec4<f32>(dsp[b].xyz + dm * q_of(p, b) * wb, 0.0);
            }
        }
    }
}
