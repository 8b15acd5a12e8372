// XPBD on the GPU, f32. Mirrors xpbd-core's substep loop (simulation.rs) and projection
// kernel (constraint/block.rs, XPBD eq. 26 of Macklin, Müller & Chentanez 2016 with the
// damping of §5):
//
//   Δλ = (−C − α̃λ − γ ∇C·(x − x_prev)) / ((1 + γ) Σₖ wₖ|∇ₖC|² + α̃),  α̃ = α/h²,  γ = αβ/h
//   λ += Δλ;  xₖ += wₖ ∇ₖC Δλ
//
// One module, one explicit bind-group layout shared by every entry point (layout.rs).
// Particle kernels run over `dispatch.count` particles; constraint kernels over
// `dispatch.count` constraints starting at `dispatch.start` of the index buffer.
// Nothing here uses float atomics: Jacobi is a gather over a CSR adjacency, so every run
// sums in the same order and results are bit-reproducible.

const WG: u32 = 64u;
const MAX_COLLIDERS: u32 = 8u;
const KIND_DISTANCE: u32 = 0u;
const KIND_DIHEDRAL: u32 = 1u;
const KIND_TET_VOLUME: u32 = 2u;
const KIND_ISOMETRIC: u32 = 3u;
const KIND_NH_HYDROSTATIC: u32 = 4u;
const KIND_NH_DEVIATORIC: u32 = 5u;
const TINY: f32 = 1e-30;
const PI: f32 = 3.14159265358979;

struct Params {
    // xyz: gravity (m/s²); w: substep length h (s).
    gravity_h: vec4<f32>,
    inv_h: f32,
    // exp(−k h): global velocity damping per substep.
    damping_factor: f32,
    // Jacobi relaxation ω.
    omega: f32,
    // 1: averaged Jacobi, Δλ scaled by ω / (largest constraint count in the stencil).
    averaged: u32,
    n_particles: u32,
    n_constraints: u32,
    // (max speed)², m²/s²: faster particles count as diverged.
    max_speed2: f32,
    n_colliders: u32,
    // λ ← keep·λ at the start of a substep (0: reset; 1 − d: warm start with decay d).
    lambda_keep: f32,
    // Offsets into `indices`: CSR row starts (n_particles + 1) and CSR slots.
    csr_offsets_base: u32,
    csr_slots_base: u32,
    // Particle radius r of the contacts (each particle's own is force.w: C = φ(x) − r).
    contact_radius: f32,
    // Substeps S per step.
    substeps: u32,
    // Restitution threshold 2 a h (m/s).
    restitution_threshold: f32,
    _pad0: u32,
    _pad1: u32,
}

struct Dispatch {
    start: u32,
    count: u32,
    substep: u32,
    _pad: u32,
}

struct Constraint {
    idx: vec4<u32>,
    kind: u32,
    rest: f32,
    compliance: f32,
    damping: f32,
    // Per-kind words (layout.rs): isometric bending, the f32 bits of g of Q = g gᵀ;
    // neo-Hookean, [index of Dm⁻¹ in `indices`, f32 bits of γ].
    aux: vec4<u32>,
}


struct Colliders {
    items: array<Collider, 8>,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<uniform> dispatch: Dispatch;
@group(0) @binding(2) var<uniform> colliders: Colliders;
// Node values of the colliders' signed-distance grids (colliders.wgsl).
@group(0) @binding(3) var sdf_nodes: texture_2d<f32>;

// xyz: position; w: inverse mass.
@group(1) @binding(0) var<storage, read_write> x: array<vec4<f32>>;
@group(1) @binding(1) var<storage, read_write> x_prev: array<vec4<f32>>;
@group(1) @binding(2) var<storage, read_write> v: array<vec4<f32>>;
// xyz: external force; w: the particle's contact radius r.
@group(1) @binding(3) var<storage, read> force: array<vec4<f32>>;
// Per particle i: [5i], [5i + 1] the contact multiplier λ of each collider (0–3, 4–7) in this
// substep, [5i + 2], [5i + 3] the tangential correction τ friction has applied against each
// collider so far in the substep, [5i + 4] the velocity at the start of the substep
// (restitution's v̄).
@group(1) @binding(4) var<storage, read_write> contact: array<vec4<f32>>;

@group(2) @binding(0) var<storage, read> constraints: array<Constraint>;
@group(2) @binding(1) var<storage, read_write> lambda: array<f32>;
// Jacobi corrections wₖ ∇ₖC Δλ, slot 4c + k.
@group(2) @binding(2) var<storage, read_write> corrections: array<vec4<f32>>;
// [constraint order by colour | CSR row starts | CSR slots], see Params.
@group(2) @binding(3) var<storage, read> indices: array<u32>;
// Per substep s: [2s] smallest non-finite particle, [2s + 1] smallest too-fast particle.
@group(2) @binding(4) var<storage, read_write> faults: array<atomic<u32>>;

fn thread_index(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return gid.x + gid.y * nwg.x * WG;
}

fn all_finite(a: vec3<f32>) -> bool {
    let e = bitcast<vec3<u32>>(a) & vec3<u32>(0x7f800000u);
    return all(e != vec3<u32>(0x7f800000u));
}

fn arity(kind: u32) -> u32 {
    if kind == KIND_DISTANCE {
        return 2u;
    }
    return 4u;
}

// C and ∇C of constraint `con` at the stencil positions `xs`; gradients into `grad`.
fn evaluate(con: Constraint, xs: ptr<function, array<vec3<f32>, 4>>, grad: ptr<function, array<vec3<f32>, 4>>) -> f32 {
    (*grad)[0] = vec3<f32>(0.0);
    (*grad)[1] = vec3<f32>(0.0);
    (*grad)[2] = vec3<f32>(0.0);
    (*grad)[3] = vec3<f32>(0.0);
    if con.kind == KIND_DISTANCE {
        // C = |x₀ − x₁| − l₀ (distance.rs).
        let d = (*xs)[0] - (*xs)[1];
        let len = length(d);
        if len < TINY {
            return -con.rest;
        }
        let n = d / len;
        (*grad)[0] = n;
        (*grad)[1] = -n;
        return len - con.rest;
    }
    if con.kind == KIND_ISOMETRIC {
        // C = √(xᵀQx) = |u|, u = Σⱼ gⱼ xⱼ; ∇ⱼC = gⱼ u/|u| (bending.rs, Bergou et al. 2006).
        let g = bitcast<vec4<f32>>(con.aux);
        let u = g.x * (*xs)[0] + g.y * (*xs)[1] + g.z * (*xs)[2] + g.w * (*xs)[3];
        let len = length(u);
        if len < 1e-12 {
            return 0.0;
        }
        let n = u / len;
        (*grad)[0] = g.x * n;
        (*grad)[1] = g.y * n;
        (*grad)[2] = g.z * n;
        (*grad)[3] = g.w * n;
        return len;
    }
    if con.kind == KIND_NH_HYDROSTATIC || con.kind == KIND_NH_DEVIATORIC {
        // Stable neo-Hookean (neo_hookean.rs, Macklin & Müller 2021): F = Ds Dm⁻¹,
        // C_H = det F − γ with ∂C/∂F = cof F (columns F₁×F₂, F₂×F₀, F₀×F₁), or C_D = ‖F‖
        // with ∂C/∂F = F/‖F‖; ∇ₖC = (∂C/∂F Dm⁻ᵀ)[:, k−1], ∇₀C = −Σ.
        let b = con.aux.x;
        var m: array<f32, 9>;
        for (var k = 0u; k < 9u; k++) {
            m[k] = bitcast<f32>(indices[b + k]);
        }
        let dm = mat3x3<f32>(vec3<f32>(m[0], m[1], m[2]), vec3<f32>(m[3], m[4], m[5]), vec3<f32>(m[6], m[7], m[8]));
        let ds = mat3x3<f32>((*xs)[1] - (*xs)[0], (*xs)[2] - (*xs)[0], (*xs)[3] - (*xs)[0]);
        let f = ds * dm;
        var dcdf: mat3x3<f32>;
        var value: f32;
        if con.kind == KIND_NH_HYDROSTATIC {
            dcdf = mat3x3<f32>(cross(f[1], f[2]), cross(f[2], f[0]), cross(f[0], f[1]));
            value = determinant(f) - bitcast<f32>(con.aux.y);
        } else {
            let norm = sqrt(dot(f[0], f[0]) + dot(f[1], f[1]) + dot(f[2], f[2]));
            if norm < TINY {
                return 0.0;
            }
            dcdf = f * (1.0 / norm);
            value = norm;
        }
        let gm = dcdf * transpose(dm);
        (*grad)[1] = gm[0];
        (*grad)[2] = gm[1];
        (*grad)[3] = gm[2];
        (*grad)[0] = -(gm[0] + gm[1] + gm[2]);
        return value;
    }
    if con.kind == KIND_TET_VOLUME {
        // C = det[x₁−x₀, x₂−x₀, x₃−x₀]/6 − V₀; cof(Ds) columns are d₁×d₂, d₂×d₀, d₀×d₁
        // (volume.rs).
        let d0 = (*xs)[1] - (*xs)[0];
        let d1 = (*xs)[2] - (*xs)[0];
        let d2 = (*xs)[3] - (*xs)[0];
        let g1 = cross(d1, d2) / 6.0;
        let g2 = cross(d2, d0) / 6.0;
        let g3 = cross(d0, d1) / 6.0;
        (*grad)[1] = g1;
        (*grad)[2] = g2;
        (*grad)[3] = g3;
        (*grad)[0] = -(g1 + g2 + g3);
        return dot(d0, cross(d1, d2)) / 6.0 - con.rest;
    }
    // Dihedral angle, stencil [w₀, w₁, e₀, e₁] (bending.rs, Bridson et al. 2003 §4.1).
    let w0 = (*xs)[0];
    let w1 = (*xs)[1];
    let e0 = (*xs)[2];
    let e1 = (*xs)[3];
    let e = e1 - e0;
    let elen = length(e);
    let n1 = cross(w0 - e0, w0 - e1);
    let n2 = cross(w1 - e1, w1 - e0);
    let l1 = dot(n1, n1);
    let l2 = dot(n2, n2);
    if elen < TINY || l1 < TINY || l2 < TINY {
        return 0.0;
    }
    let eh = e / elen;
    let m1 = n1 / l1;
    let m2 = n2 / l2;
    let nh1 = n1 / sqrt(l1);
    let nh2 = n2 / sqrt(l2);
    let theta = atan2(dot(cross(nh1, nh2), eh), dot(nh1, nh2));
    (*grad)[0] = -(m1 * elen);
    (*grad)[1] = -(m2 * elen);
    (*grad)[2] = -(m1 * dot(w0 - e1, eh) + m2 * dot(w1 - e1, eh));
    (*grad)[3] = m1 * dot(w0 - e0, eh) + m2 * dot(w1 - e0, eh);
    var d = theta - con.rest;
    if d > PI {
        d -= 2.0 * PI;
    } else if d <= -PI {
        d += 2.0 * PI;
    }
    return d;
}

// Δλ of constraint `c` at the current positions (λ updated); the stencil's gradients are
// left in `grad` and the inverse masses in `w`.
// `jacobi`: scale Δλ by the relaxation s of xpbd-core's JacobiRelaxation: s = ω, or with
// averaging s = ω / max_k n(xₖ) over the free stencil particles, n = the particle's
// constraint count (its CSR row length), so the corrections at a particle sum to at most ω
// times one full correction.
fn project(c: u32, grad: ptr<function, array<vec3<f32>, 4>>, w: ptr<function, array<f32, 4>>, jacobi: bool) -> f32 {
    let con = constraints[c];
    if con.kind == KIND_NH_DEVIATORIC {
        // Projected with its hydrostatic partner c − 1 (project_nh_pair).
        return 0.0;
    }
    if con.kind == KIND_NH_HYDROSTATIC {
        return project_nh_pair(c, grad, w, jacobi);
    }
    let n = arity(con.kind);
    var xs: array<vec3<f32>, 4>;
    for (var k = 0u; k < 4u; k++) {
        if k < n {
            let p = x[con.idx[k]];
            xs[k] = p.xyz;
            (*w)[k] = p.w;
        } else {
            xs[k] = vec3<f32>(0.0);
            (*w)[k] = 0.0;
        }
    }
    let value = evaluate(con, &xs, grad);
    let h = params.gravity_h.w;
    let alpha_tilde = con.compliance / (h * h);
    let gamma = con.compliance * con.damping / h;
    var wsum = 0.0;
    var grad_dot_dx = 0.0;
    for (var k = 0u; k < n; k++) {
        wsum += (*w)[k] * dot((*grad)[k], (*grad)[k]);
        if gamma > 0.0 {
            grad_dot_dx += dot((*grad)[k], xs[k] - x_prev[con.idx[k]].xyz);
        }
    }
    let denom = (1.0 + gamma) * wsum + alpha_tilde;
    if denom <= 1.17549435e-38 {
        return 0.0;
    }
    let l = lambda[c];
    var dl = (-value - alpha_tilde * l - gamma * grad_dot_dx) / denom;
    if jacobi {
        dl *= jacobi_scale(con, w);
    }
    lambda[c] = l + dl;
    return dl;
}

// The relaxation s of a Jacobi update (see `project`) for the stencil of `con`.
fn jacobi_scale(con: Constraint, w: ptr<function, array<f32, 4>>) -> f32 {
    if params.averaged == 0u {
        return params.omega;
    }
    var most = 1u;
    for (var k = 0u; k < arity(con.kind); k++) {
        if (*w)[k] > 0.0 {
            let i = con.idx[k];
            let row = indices[params.csr_offsets_base + i + 1u] - indices[params.csr_offsets_base + i];
            most = max(most, row);
        }
    }
    return params.omega / f32(most);
}

// The stable neo-Hookean pair c (hydrostatic), c + 1 (deviatoric) in one 2×2 solve
// (NeoHookeanTetConstraints::project_pair): K Δλ = r with
// Kⱼₖ = (1 + γⱼ) Σₚ wₚ gⱼₚ·gₖₚ + δⱼₖ α̃ⱼ, rⱼ = −Cⱼ − α̃ⱼλⱼ − γⱼ Σₚ gⱼₚ·(xₚ − x_prev,ₚ).
// Returns 1 with the combined correction direction gₕΔλₕ + g_DΔλ_D in `grad` (so the
// callers' xₖ += wₖ gradₖ · 1 moves both), or 0 when nothing moves.
fn project_nh_pair(c: u32, grad: ptr<function, array<vec3<f32>, 4>>, w: ptr<function, array<f32, 4>>, jacobi: bool) -> f32 {
    let con_h = constraints[c];
    var con_d = constraints[c + 1u];
    var xs: array<vec3<f32>, 4>;
    for (var k = 0u; k < 4u; k++) {
        let p = x[con_h.idx[k]];
        xs[k] = p.xyz;
        (*w)[k] = p.w;
    }
    var g_h: array<vec3<f32>, 4>;
    var g_d: array<vec3<f32>, 4>;
    let c_h = evaluate(con_h, &xs, &g_h);
    let c_d = evaluate(con_d, &xs, &g_d);
    let h = params.gravity_h.w;
    let at_h = con_h.compliance / (h * h);
    let at_d = con_d.compliance / (h * h);
    let gm_h = con_h.compliance * con_h.damping / h;
    let gm_d = con_d.compliance * con_d.damping / h;
    var a_hh = 0.0;
    var a_dd = 0.0;
    var a_hd = 0.0;
    var v_h = 0.0;
    var v_d = 0.0;
    for (var k = 0u; k < 4u; k++) {
        a_hh += (*w)[k] * dot(g_h[k], g_h[k]);
        a_dd += (*w)[k] * dot(g_d[k], g_d[k]);
        a_hd += (*w)[k] * dot(g_h[k], g_d[k]);
        if con_h.damping > 0.0 {
            let dx = xs[k] - x_prev[con_h.idx[k]].xyz;
            v_h += dot(g_h[k], dx);
            v_d += dot(g_d[k], dx);
        }
    }
    let k11 = (1.0 + gm_h) * a_hh + at_h;
    let k12 = (1.0 + gm_h) * a_hd;
    let k21 = (1.0 + gm_d) * a_hd;
    let k22 = (1.0 + gm_d) * a_dd + at_d;
    let gram = max(a_hh * a_dd - a_hd * a_hd, 0.0);
    let det = (1.0 + gm_h) * (1.0 + gm_d) * gram + (1.0 + gm_h) * a_hh * at_d + (1.0 + gm_d) * a_dd * at_h + at_h * at_d;
    if !(det > 1.17549435e-38) {
        return 0.0;
    }
    let l_h = lambda[c];
    let l_d = lambda[c + 1u];
    let r_h = -c_h - at_h * l_h - gm_h * v_h;
    let r_d = -c_d - at_d * l_d - gm_d * v_d;
    var dl_h = (k22 * r_h - k12 * r_d) / det;
    var dl_d = (k11 * r_d - k21 * r_h) / det;
    if jacobi {
        let s = jacobi_scale(con_h, w);
        dl_h *= s;
        dl_d *= s;
    }
    lambda[c] = l_h + dl_h;
    lambda[c + 1u] = l_d + dl_d;
    for (var k = 0u; k < 4u; k++) {
        (*grad)[k] = g_h[k] * dl_h + g_d[k] * dl_d;
    }
    if dl_h == 0.0 && dl_d == 0.0 {
        return 0.0;
    }
    return 1.0;
}

// Gauss-Seidel projection of constraint `c` in place (its stencil is exclusively ours).
fn project_in_place(c: u32) {
    var grad: array<vec3<f32>, 4>;
    var w: array<f32, 4>;
    let dl = project(c, &grad, &w, false);
    if dl == 0.0 {
        return;
    }
    let con = constraints[c];
    let n = arity(con.kind);
    for (var k = 0u; k < n; k++) {
        if w[k] > 0.0 {
            let i = con.idx[k];
            let p = x[i];
            x[i] = vec4<f32>(p.xyz + grad[k] * (w[k] * dl), p.w);
        }
    }
}

// Substep start: x_prev = x; v += h (g + w f); x += h v (free particles); contacts reset.
@compute @workgroup_size(64)
fn predict(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = thread_index(gid, nwg);
    if i >= dispatch.count {
        return;
    }
    let p = x[i];
    x_prev[i] = p;
    contact[5u * i] = vec4<f32>(0.0);
    contact[5u * i + 1u] = vec4<f32>(0.0);
    contact[5u * i + 2u] = vec4<f32>(0.0);
    contact[5u * i + 3u] = vec4<f32>(0.0);
    contact[5u * i + 4u] = v[i];
    if p.w > 0.0 {
        let h = params.gravity_h.w;
        let vi = v[i].xyz + (params.gravity_h.xyz + force[i].xyz * p.w) * h;
        v[i] = vec4<f32>(vi, 0.0);
        x[i] = vec4<f32>(p.xyz + vi * h, p.w);
    }
}

// λ ← keep·λ (keep = 0: the XPBD reset).
@compute @workgroup_size(64)
fn reset_multipliers(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let c = thread_index(gid, nwg);
    if c >= dispatch.count {
        return;
    }
    if params.lambda_keep == 0.0 {
        lambda[c] = 0.0;
    } else {
        lambda[c] = lambda[c] * params.lambda_keep;
    }
}

// One colour of coloured Gauss-Seidel: the constraints indices[start .. start + count]
// share no particle.
@compute @workgroup_size(64)
fn solve_colour(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = thread_index(gid, nwg);
    if t >= dispatch.count {
        return;
    }
    project_in_place(indices[dispatch.start + t]);
}

// Sequential Gauss-Seidel over constraints start .. start + count in index order (one thread).
@compute @workgroup_size(1)
fn solve_sequential(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x != 0u {
        return;
    }
    for (var c = dispatch.start; c < dispatch.start + dispatch.count; c++) {
        project_in_place(c);
    }
}

// Jacobi phase 1: every constraint against the same x; corrections into slots 4c + k.
@compute @workgroup_size(64)
fn jacobi_compute(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let c = thread_index(gid, nwg);
    if c >= dispatch.count {
        return;
    }
    var grad: array<vec3<f32>, 4>;
    var w: array<f32, 4>;
    let dl = project(c, &grad, &w, true);
    let con = constraints[c];
    for (var k = 0u; k < 4u; k++) {
        // The correction as it lands on x, (x + Δx) − x, as the CPU records it.
        var d = vec3<f32>(0.0);
        if dl != 0.0 && k < arity(con.kind) {
            let p = x[con.idx[k]].xyz;
            d = (p + grad[k] * (w[k] * dl)) - p;
        }
        corrections[4u * c + k] = vec4<f32>(d, 0.0);
    }
}

// Jacobi phase 2: gather per particle over its CSR slots in ascending constraint order
// (the CPU's scatter order) and apply x += Σ Δx (the relaxation is already in Δλ).
@compute @workgroup_size(64)
fn jacobi_apply(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = thread_index(gid, nwg);
    if i >= dispatch.count {
        return;
    }
    let p = x[i];
    if p.w <= 0.0 {
        return;
    }
    let begin = indices[params.csr_offsets_base + i];
    let end = indices[params.csr_offsets_base + i + 1u];
    var sum = vec3<f32>(0.0);
    for (var s = begin; s < end; s++) {
        sum += corrections[indices[params.csr_slots_base + s]].xyz;
    }
    x[i] = vec4<f32>(p.xyz + sum, p.w);
}

// One value per collider from the two vec4 at contact[at], contact[at + 1].
fn contact_values(at: u32) -> array<f32, 8> {
    let a = contact[at];
    let b = contact[at + 1u];
    return array<f32, 8>(a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w);
}

// Collider k in the current substep s of S: the packed pose is the one at the end of the step,
// so the collider is (S − 1 − s)/S of the step's motion behind it (xpbd_core's
// ColliderContacts: poses interpolated linearly over the step, contacts at the end of the
// substep); `motion` becomes its displacement over the substep.
fn substep_collider(k: u32) -> Collider {
    var col = colliders.items[k];
    let s = f32(params.substeps);
    let back = col.motion.xyz * (f32(params.substeps - 1u - dispatch.substep) / s);
    if col.kind == COLLIDER_PLANE {
        col.shape.w -= dot(col.shape.xyz, back);
    } else {
        col.shape = vec4<f32>(col.shape.xyz - back, col.shape.w);
    }
    col.motion = vec4<f32>(col.motion.xyz / s, 0.0);
    return col;
}

// Unilateral contact C(x) ≥ 0 with each collider, projected per particle with compliance 0:
// λ ← max(λ − C/w, 0) (|∇C| = 1), x += w n Δλ. Runs after the constraint passes of every
// iteration. After each normal correction, the core's position-level Coulomb friction
// (xpbd_core::contact::friction, Müller et al. 2020 §3.5): with the substep's tangential
// displacement relative to the collider Δx_t = (x − x_prev − d)_t (d: the collider's motion
// over the substep), the normal correction d_n = w λ and the tangential correction τ applied
// so far, the particle sticks (x −= Δx_t) while |Δx_t| + τ ≤ μ_s d_n, and otherwise slides
// back by min(μ_k d_n − τ, |Δx_t|) along Δx_t.
@compute @workgroup_size(64)
fn collide(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = thread_index(gid, nwg);
    if i >= dispatch.count {
        return;
    }
    var p = x[i];
    if p.w <= 0.0 {
        return;
    }
    var lam = contact_values(5u * i);
    var tau = contact_values(5u * i + 2u);
    let start = x_prev[i].xyz;
    for (var k = 0u; k < params.n_colliders; k++) {
        let col = substep_collider(k);
        let sd = collider_distance(col, p.xyz);
        let n = sd.xyz;
        let value = sd.w - force[i].w;
        if value >= 0.0 && lam[k] <= 0.0 {
            continue;
        }
        let l_new = max(lam[k] - value / p.w, 0.0);
        let dl = l_new - lam[k];
        lam[k] = l_new;
        var xi = p.xyz + n * (p.w * dl);
        if (col.friction > 0.0 || col.kinetic_friction > 0.0) && l_new > 0.0 {
            let rel = xi - start - col.motion.xyz;
            let tang = rel - n * dot(rel, n);
            let t_len = length(tang);
            if t_len > 0.0 {
                let d_n = p.w * l_new;
                let used = tau[k];
                var applied = min(col.kinetic_friction * d_n - used, t_len);
                if t_len + used <= col.friction * d_n {
                    applied = t_len;
                }
                if applied > 0.0 {
                    tau[k] = used + applied;
                    xi -= tang * (applied / t_len);
                }
            }
        }
        p = vec4<f32>(xi, p.w);
    }
    x[i] = p;
    contact[5u * i] = vec4<f32>(lam[0], lam[1], lam[2], lam[3]);
    contact[5u * i + 1u] = vec4<f32>(lam[4], lam[5], lam[6], lam[7]);
    contact[5u * i + 2u] = vec4<f32>(tau[0], tau[1], tau[2], tau[3]);
    contact[5u * i + 3u] = vec4<f32>(tau[4], tau[5], tau[6], tau[7]);
}

// Substep end: v = (x − x_prev)/h, damped (friction acted on the positions in `collide`); the
// restitution of each active contact (λ > 0) with an elastic collider, as the core's
// ColliderContacts::end_substep: with v̄_n the normal velocity relative to the collider at the
// start of the substep and v_n the one now, a contact approaching faster than 2 a h gets
// v_n ← −e v̄_n; then the fault check of Simulation::check_state.
@compute @workgroup_size(64)
fn update_velocity(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = thread_index(gid, nwg);
    if i >= dispatch.count {
        return;
    }
    let p = x[i];
    var vi = (p.xyz - x_prev[i].xyz) * params.inv_h;
    if p.w > 0.0 {
        vi *= params.damping_factor;
        let lam = contact_values(5u * i);
        let v_pre = contact[5u * i + 4u].xyz;
        for (var k = 0u; k < params.n_colliders; k++) {
            if colliders.items[k].restitution <= 0.0 || lam[k] <= 0.0 {
                continue;
            }
            let col = substep_collider(k);
            let n = collider_distance(col, p.xyz).xyz;
            let v_obstacle = col.motion.xyz * params.inv_h;
            let vn_pre = dot(v_pre - v_obstacle, n);
            if vn_pre >= -params.restitution_threshold {
                continue;
            }
            let vn = dot(vi - v_obstacle, n);
            vi += n * (-col.restitution * vn_pre - vn);
        }
    }
    v[i] = vec4<f32>(vi, 0.0);
    let s2 = dot(vi, vi);
    // Finiteness by the exponent bits (all ones = ±inf or NaN): compilers may fold
    // float comparisons such as `x != x` under fast-math, never integer tests.
    let finite = all_finite(p.xyz) && all_finite(vi);
    if !finite {
        atomicMin(&faults[2u * dispatch.substep], i);
    } else if s2 > params.max_speed2 {
        atomicMin(&faults[2u * dispatch.substep + 1u], i);
    }
}
