// Contacts between bodies on the GPU (f32): xpbd-core's BodyContacts, particles p, q of two
// bodies kept r_p + r_q apart,
//
//   C = |x_p − x_q| − (r_p + r_q) ≥ 0,  ∇_p C = n̂ = (x_p − x_q)/|x_p − x_q|,  ∇_q C = −n̂,
//
// and PointTriangleContacts, a point kept d from a triangle with the normal n̂ and the
// barycentric weights β of the closest point frozen when the contact was generated,
//
//   C = n̂·(x_p − Σᵢ βᵢ xᵢ) − d ≥ 0,  ∇_p C = n̂,  ∇ᵢ C = −βᵢ n̂,
//
// each projected as the core's unilateral XPBD update with zero compliance (kernel.rs):
// Δλ = −C / Σₖ wₖ|∇ₖC|², λ ← max(λ + Δλ, 0), xₖ += wₖ ∇ₖC Δλ, then the core's position-level
// Coulomb friction (contact/friction.rs, Müller et al. 2020 §3.5): with sₖ = ∇ₖC·n̂,
// W = Σ wₖ sₖ², the relative displacement over the substep Δx_rel = Σ sₖ (xₖ − xₖ_prev), its
// tangential part Δx_t and the tangential correction τ applied so far in the substep, the
// contact sticks (δ = Δx_t) while |Δx_t| + τ ≤ μ_s W λ, else slides by
// min(μ_k W λ − τ, |Δx_t|); xₖ −= wₖ sₖ δ / W.
//
// The candidates are generated on the host by the CPU's own code once per step and uploaded
// sorted by the CPU's colours, so a colour is a particle-disjoint range of `contacts` (one
// dispatch) and the projections happen in the CPU's order (`solve_sequential`: one thread in
// index order, for sequential Gauss-Seidel).
//
// The particles live in up to four sets: the XPBD bodies' (`x`: position and inverse mass,
// `x_prev`: position at the start of the substep) and up to three XPBI continua's, whose
// unknown is the step's displacement u (`xn` + `dsp`, inverse mass in `pinfo.x`; a
// continuum's substep is its step, so xⁿ is the substep's start). Bits 30–31 of a stencil
// entry name the set (0: XPBD bodies, k: continuum k − 1), the others the particle in it. A
// correction of a continuum particle is added to u, not to xⁿ + u, so u keeps its f32
// accuracy (xpbi.wgsl).

const BWG: u32 = 64u;
const SET_SHIFT: u32 = 30u;
const INDEX_MASK: u32 = 0x3fffffffu;

struct Slot {
    start: u32,
    count: u32,
    _pad0: u32,
    _pad1: u32,
}

struct Contact {
    idx: vec4<u32>,
    // n̂ of a point–triangle contact (xyz); w: the contact distance (r_p + r_q, or d).
    normal: vec4<f32>,
    // β₀, β₁, β₂ of a point–triangle contact.
    weights: vec4<f32>,
    mu_s: f32,
    mu_k: f32,
    // 2: particle pair, 4: point and triangle.
    arity: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> slot: Slot;
@group(0) @binding(1) var<storage, read_write> x: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> x_prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> contacts: array<Contact>;
// (λ, τ) per contact, reset at every substep.
@group(0) @binding(4) var<storage, read_write> lam_tau: array<vec2<f32>>;
// Continuum k: xⁿ, u, (inverse mass, V⁰, Vⁿ, factor).
@group(0) @binding(5) var<storage, read_write> xn0: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> dsp0: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> pinfo0: array<vec4<f32>>;
@group(0) @binding(8) var<storage, read_write> xn1: array<vec4<f32>>;
@group(0) @binding(9) var<storage, read_write> dsp1: array<vec4<f32>>;
@group(0) @binding(10) var<storage, read_write> pinfo1: array<vec4<f32>>;
@group(0) @binding(11) var<storage, read_write> xn2: array<vec4<f32>>;
@group(0) @binding(12) var<storage, read_write> dsp2: array<vec4<f32>>;
@group(0) @binding(13) var<storage, read_write> pinfo2: array<vec4<f32>>;

fn body_tid(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return gid.x + gid.y * nwg.x * BWG;
}

struct Loaded {
    pos: vec3<f32>,
    disp: vec3<f32>,
    w: f32,
}

// Position, displacement over the substep so far and inverse mass of stencil entry `e`.
fn load(e: u32) -> Loaded {
    let i = e & INDEX_MASK;
    switch e >> SET_SHIFT {
        case 1u: {
            let u = dsp0[i].xyz;
            return Loaded(xn0[i].xyz + u, u, pinfo0[i].x);
        }
        case 2u: {
            let u = dsp1[i].xyz;
            return Loaded(xn1[i].xyz + u, u, pinfo1[i].x);
        }
        case 3u: {
            let u = dsp2[i].xyz;
            return Loaded(xn2[i].xyz + u, u, pinfo2[i].x);
        }
        default: {
            let p = x[i];
            return Loaded(p.xyz, p.xyz - x_prev[i].xyz, p.w);
        }
    }
}

fn store(e: u32, d: vec3<f32>) {
    let i = e & INDEX_MASK;
    switch e >> SET_SHIFT {
        case 1u: {
            dsp0[i] = vec4<f32>(dsp0[i].xyz + d, 0.0);
        }
        case 2u: {
            dsp1[i] = vec4<f32>(dsp1[i].xyz + d, 0.0);
        }
        case 3u: {
            dsp2[i] = vec4<f32>(dsp2[i].xyz + d, 0.0);
        }
        default: {
            let p = x[i];
            x[i] = vec4<f32>(p.xyz + d, p.w);
        }
    }
}

fn project_contact(c: u32) {
    let con = contacts[c];
    let n = con.arity;
    var xs: array<vec3<f32>, 4>;
    var disp: array<vec3<f32>, 4>;
    var w: array<f32, 4>;
    for (var k = 0u; k < n; k++) {
        let l = load(con.idx[k]);
        xs[k] = l.pos;
        disp[k] = l.disp;
        w[k] = l.w;
    }
    var grad: array<vec3<f32>, 4>;
    var value: f32;
    if n == 2u {
        let d = xs[0] - xs[1];
        let len = length(d);
        var nn = vec3<f32>(0.0, 0.0, 1.0);
        if len > 0.0 {
            nn = d / len;
        }
        grad[0] = nn;
        grad[1] = -nn;
        value = len - con.normal.w;
    } else {
        let nn = con.normal.xyz;
        let b = con.weights.xyz;
        let q = xs[1] * b.x + xs[2] * b.y + xs[3] * b.z;
        grad[0] = nn;
        grad[1] = -nn * b.x;
        grad[2] = -nn * b.y;
        grad[3] = -nn * b.z;
        value = dot(nn, xs[0] - q) - con.normal.w;
    }
    var lt = lam_tau[c];
    if value >= 0.0 && lt.x <= 0.0 {
        return;
    }
    var wsum = 0.0;
    for (var k = 0u; k < n; k++) {
        wsum += w[k] * dot(grad[k], grad[k]);
    }
    if wsum <= 1.17549435e-38 {
        return;
    }
    var dl = -value / wsum;
    dl = max(lt.x + dl, 0.0) - lt.x;
    lt.x += dl;
    var delta: array<vec3<f32>, 4>;
    for (var k = 0u; k < n; k++) {
        delta[k] = grad[k] * (w[k] * dl);
    }
    if (con.mu_s > 0.0 || con.mu_k > 0.0) && lt.x > 0.0 {
        let nn = grad[0];
        var s: array<f32, 4>;
        var weight = 0.0;
        var rel = vec3<f32>(0.0);
        for (var k = 0u; k < n; k++) {
            s[k] = dot(grad[k], nn);
            weight += w[k] * s[k] * s[k];
            rel += (disp[k] + delta[k]) * s[k];
        }
        let tang = rel - nn * dot(rel, nn);
        let t_len = length(tang);
        if weight > 0.0 && t_len > 0.0 {
            let normal_correction = weight * lt.x;
            let used = lt.y;
            var applied = min(con.mu_k * normal_correction - used, t_len);
            if t_len + used <= con.mu_s * normal_correction {
                applied = t_len;
            }
            if applied > 0.0 {
                lt.y = used + applied;
                let d = tang * (applied / t_len);
                for (var k = 0u; k < n; k++) {
                    delta[k] -= d * (w[k] * s[k] / weight);
                }
            }
        }
    }
    lam_tau[c] = lt;
    for (var k = 0u; k < n; k++) {
        if w[k] > 0.0 {
            store(con.idx[k], delta[k]);
        }
    }
}

// λ = τ = 0 for contacts start .. start + count (every substep).
@compute @workgroup_size(64)
fn reset_contacts(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = body_tid(gid, nwg);
    if t >= slot.count {
        return;
    }
    lam_tau[slot.start + t] = vec2<f32>(0.0);
}

// One colour: contacts start .. start + count share no particle.
@compute @workgroup_size(64)
fn solve_contact_colour(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = body_tid(gid, nwg);
    if t >= slot.count {
        return;
    }
    project_contact(slot.start + t);
}

// Sequential Gauss-Seidel: contacts start .. start + count in index order, one thread.
@compute @workgroup_size(1)
fn solve_contacts_sequential(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x != 0u {
        return;
    }
    for (var c = slot.start; c < slot.start + slot.count; c++) {
        project_contact(c);
    }
}
