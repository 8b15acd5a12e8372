// Return mappings Z(F) in principal Hencky strain (XPBI building block), f32 ports of
// xpbi_continuum::plasticity: F = U diag(σ) Vᵀ (svd3), ε = ln max(σ, 1e-4), project ε,
// F_E = U diag(exp ε_new) Vᵀ. StVK on Hencky strain: dev τ = 2μ ε̂, tr τ = (2μ + 3λ) tr ε.
//
//   von Mises:       δγ = ‖ε̂‖ − σ_Y(q)/(2μ), σ_Y(q) = σ_Y0 + H q;  δγ > 0: ε −= δγ ε̂/‖ε̂‖, q += δγ
//   Drucker–Prager:  ε_s = ε − c₀1 + (v_c/3)1;  tr ε_s ≥ 0: ε = c₀1, q += ‖ε_s‖;
//                    δγ = ‖ε̂_s‖ + (3λ + 2μ)/(2μ) α tr ε_s;  δγ > 0: ε = ε_s − δγ ε̂_s/‖ε̂_s‖ + c₀1,
//                    q += δγ;  α of a constant φ is the host's (FrictionCone::alpha_of_angle),
//                    with Klár's hardening φ(q) = h₀ + (h₁q − h₃)e^{−h₂q} (Klár et al. 2016,
//                    clamped to the host's KlarHardening::ANGLE_CLAMP) evaluated here:
//                    shear flow √2 tan φ / 3, triaxial compression √(2/3) 2 sin φ/(3 − sin φ);
//                    v_c += tr ε − tr ε_new (Tampubolon 2017).
//   NACC (Wolper et al. 2019, Hencky form of xpbi_continuum::plasticity::nacc): κ = λ + 2μ/3,
//                    p = −κ tr ε, q = √(3/2) 2μ‖ε̂‖, p₀ = κ(1e-5 + sinh(ξ max(−α, 0))),
//                    y = (1+2β)q² + M²(p + βp₀)(p − p₀); p > p₀ / p < −βp₀: tips (ε̂ = 0);
//                    y > 0: q_new = M √(−(p+βp₀)(p−p₀)/(1+2β)), ε̂ ← ε̂ q_new/q, α += (p_f − p)/κ
//                    with p_f on the ray from the centre (1−β)p₀/2 (ziran's "fake p").
//   Herschel–Bulkley (Yue et al. 2015): s_tr = 2μ‖ε̂‖ > τ_Y: s = τ_Y + t(s_tr − τ_Y) with t the root
//                    in [0, 1] of t^{1/h} + c(t − 1) = 0, c = η^{1/h}(s_tr − τ_Y)^{1−1/h}/(2μΔt)
//                    (bracketed Newton; h = 1: t = c/(1+c)); ε̂ ← ε̂ s/s_tr; q += ‖ε̂‖ − s/2μ.
//                    Δt is the step's (an argument), not the material's.
//
// A function library: prepend svd3.wgsl, then this file, to a module that uses it.

const MODEL_ELASTIC: u32 = 0u;
const MODEL_VON_MISES: u32 = 1u;
const MODEL_DRUCKER_PRAGER: u32 = 2u;
const MODEL_NACC: u32 = 3u;
const MODEL_HERSCHEL_BULKLEY: u32 = 4u;
const HB_EPS: f32 = 1.1920929e-7;
const MIN_SINGULAR_VALUE: f32 = 1e-4;

struct Plastic {
    model: u32,
    mu: f32,
    lambda: f32,
    // von Mises: σ_Y0 and H.
    yield_stress: f32,
    hardening_modulus: f32,
    // Drucker–Prager: α_DP of the constant friction angle (computed on the host) when
    // `klar` = 0, else Klár's h₀..h₃ give φ(q).
    alpha: f32,
    cohesion: f32,
    // 1: volume correction on.
    volume_correction: u32,
    klar: u32,
    h0: f32,
    h1: f32,
    h2: f32,
    h3: f32,
    // NACC: β, ξ and the critical-state slope M (computed in f64 on the host).
    beta: f32,
    xi: f32,
    nacc_m: f32,
    // Herschel–Bulkley: η (yield stress in `yield_stress`) and exponent h.
    viscosity: f32,
    exponent: f32,
    // Drucker–Prager surface: 0 = shear-flow cone (α = √2 tan φ / 3), 1 = triaxial-compression
    // cone (Klár), 2 = Mohr–Coulomb pyramid with the shear-flow friction tan φ = 3α/√2.
    cone: u32,
    // Klár's hardened φ(q) is clamped to [angle_min, angle_max] (degrees).
    angle_min: f32,
    angle_max: f32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

// State: x = hardening q, y = volume correction v_c.
struct ReturnMapped {
    fe: mat3x3<f32>,
    state: vec2<f32>,
}

fn deviatoric(e: vec3<f32>) -> vec3<f32> {
    return e - vec3<f32>((e.x + e.y + e.z) / 3.0);
}

// `dt`: the step (Herschel–Bulkley's relaxation).
fn project_strain(eps: vec3<f32>, state: vec2<f32>, m: Plastic, dt: f32) -> ReturnMapped {
    var out = ReturnMapped(mat3x3<f32>(), state);
    var e = eps;
    if m.model == MODEL_VON_MISES {
        let dev = deviatoric(eps);
        let norm = length(dev);
        let radius = m.yield_stress + m.hardening_modulus * max(state.x, 0.0);
        let dg = norm - radius / (2.0 * m.mu);
        if dg > 0.0 && norm != 0.0 {
            e = eps - dev * (dg / norm);
            out.state.x = state.x + dg;
        }
    } else if m.model == MODEL_DRUCKER_PRAGER {
        var vc = 0.0;
        if m.volume_correction != 0u {
            vc = state.y;
        }
        let shift = vec3<f32>(m.cohesion);
        let eps_s = eps - shift + vec3<f32>(vc / 3.0);
        let trace = eps_s.x + eps_s.y + eps_s.z;
        let dev = deviatoric(eps_s);
        let dev_norm = length(dev);
        var alpha = m.alpha;
        if m.klar != 0u {
            let phi_q = m.h0 + (m.h1 * state.x - m.h3) * exp(-m.h2 * state.x);
            let phi = clamp(phi_q, m.angle_min, m.angle_max);
            alpha = sqrt(2.0) * tan(radians(phi)) / 3.0;
            if m.cone == 1u {
                let s = sin(radians(phi));
                alpha = sqrt(2.0 / 3.0) * 2.0 * s / (3.0 - s);
            }
        }
        var changed = true;
        if trace >= 0.0 {
            out.state.x = state.x + length(eps_s);
            e = shift;
        } else if m.cone == 2u {
            let p = project_pyramid(eps_s, 3.0 * alpha / sqrt(2.0), m.lambda / m.mu);
            if p.w == 0.0 {
                changed = false;
            } else {
                out.state.x = state.x + length(eps_s - p.xyz);
                e = p.xyz + shift;
            }
        } else {
            let dg = dev_norm + (3.0 * m.lambda + 2.0 * m.mu) / (2.0 * m.mu) * trace * alpha;
            if dg <= 0.0 || dev_norm == 0.0 {
                changed = false;
            } else {
                out.state.x = state.x + dg;
                e = eps_s - dev * (dg / dev_norm) + shift;
            }
        }
        if changed && m.volume_correction != 0u {
            out.state.y = state.y + (eps.x + eps.y + eps.z) - (e.x + e.y + e.z);
        }
    } else if m.model == MODEL_NACC {
        let r = project_nacc(eps, state, m);
        e = r.xyz;
        out.state.x = r.w;
    } else if m.model == MODEL_HERSCHEL_BULKLEY {
        let dev = deviatoric(eps);
        let norm = length(dev);
        let s_trial = 2.0 * m.mu * norm;
        if s_trial > m.yield_stress && norm != 0.0 {
            let s = hb_relaxed_stress(s_trial, m, dt);
            e = vec3<f32>((eps.x + eps.y + eps.z) / 3.0) + dev * (s / s_trial);
            out.state.x = state.x + norm - s / (2.0 * m.mu);
        }
    }
    out.fe = mat3x3<f32>(vec3<f32>(e.x, 0.0, 0.0), vec3<f32>(0.0, e.y, 0.0), vec3<f32>(0.0, 0.0, e.z));
    return out;
}

// Mohr–Coulomb pyramid (xpbi_continuum's plasticity::mohr_coulomb): (ε_a − ε_c) + μ_f((λ/μ) tr ε
// + ε_a + ε_c) ≤ 0 for ε_a ≥ ε_b ≥ ε_c and tr ε < 0, zero dilatancy; the face return or one of
// its two edges. xyz = ε_new, w = 1 when it yielded, 0 inside.
fn project_pyramid(eps: vec3<f32>, mu_f: f32, lm: f32) -> vec4<f32> {
    var e = array<f32, 3>(eps.x, eps.y, eps.z);
    var ia = 0u;
    var ic = 0u;
    for (var i = 1u; i < 3u; i++) {
        if e[i] > e[ia] {
            ia = i;
        }
        if e[i] <= e[ic] {
            ic = i;
        }
    }
    if ia == ic {
        return vec4<f32>(eps, 0.0);
    }
    let ib = 3u - ia - ic;
    let tr = e[0] + e[1] + e[2];
    let g = (e[ia] - e[ic]) + mu_f * (lm * tr + e[ia] + e[ic]);
    if g <= 0.0 {
        return vec4<f32>(eps, 0.0);
    }
    let ea = e[ia] - 0.5 * g;
    let ec = e[ic] + 0.5 * g;
    if ea < e[ib] {
        let m = tr * (1.0 - mu_f * (lm + 1.0)) / (3.0 - mu_f);
        e[ia] = m;
        e[ib] = m;
        e[ic] = tr - 2.0 * m;
    } else if ec > e[ib] {
        let m = tr * (1.0 + mu_f * (lm + 1.0)) / (3.0 + mu_f);
        e[ib] = m;
        e[ic] = m;
        e[ia] = tr - 2.0 * m;
    } else {
        e[ia] = ea;
        e[ic] = ec;
    }
    return vec4<f32>(e[0], e[1], e[2], 1.0);
}

// NACC projection: xyz = ε_new, w = new hardening α.
fn project_nacc(eps: vec3<f32>, state: vec2<f32>, m: Plastic) -> vec4<f32> {
    let kappa = m.lambda + 2.0 * m.mu / 3.0;
    let p0 = kappa * (1e-5 + sinh(m.xi * max(-state.x, 0.0)));
    let tr = eps.x + eps.y + eps.z;
    let p = -kappa * tr;
    let dev = deviatoric(eps);
    let q = sqrt(1.5) * 2.0 * m.mu * length(dev);
    var p_tip = 0.0;
    var tip = false;
    if p > p0 {
        p_tip = p0;
        tip = true;
    } else if p < -m.beta * p0 {
        p_tip = -m.beta * p0;
        tip = true;
    }
    if tip {
        let e_new = vec3<f32>(-p_tip / (kappa * 3.0));
        return vec4<f32>(e_new, state.x + tr - (e_new.x + e_new.y + e_new.z));
    }
    let m2 = m.nacc_m * m.nacc_m;
    let one_2b = 1.0 + 2.0 * m.beta;
    let y = one_2b * q * q + m2 * (p + m.beta * p0) * (p - p0);
    if y <= 0.0 || q == 0.0 {
        return vec4<f32>(eps, state.x);
    }
    let q_new = sqrt(max(m2 * (-(p + m.beta * p0) * (p - p0)) / one_2b, 0.0));
    let e_new = vec3<f32>(tr / 3.0) + dev * (q_new / q);
    // Hardening: the ray from the ellipse centre (p_c, 0) through (p, q) meets the ellipse at p_f.
    let pc = (1.0 - m.beta) * p0 / 2.0;
    let len = sqrt((p - pc) * (p - pc) + q * q);
    let dp = (p - pc) / len;
    let dq = q / len;
    let a = m2 * dp * dp + one_2b * dq * dq;
    let b = m2 * dp * (2.0 * pc - p0 + m.beta * p0);
    let c = m2 * (pc + m.beta * p0) * (pc - p0);
    let l = (-b + sqrt(max(b * b - 4.0 * a * c, 0.0))) / (2.0 * a);
    let p_fake = pc + l * dp;
    return vec4<f32>(e_new, state.x + (p_fake - p) / kappa);
}

// Root t ∈ [0, 1] of t^{1/h} + c(t − 1) = 0 (c ≥ 0): bracketed Newton from t = 1/2 with a
// bisection fallback, as xpbi_continuum::plasticity::solve_herschel_bulkley (f32 tolerances).
fn hb_solve(c: f32, h: f32) -> f32 {
    if c <= 0.0 {
        return 0.0;
    }
    if c > 3.0e38 {
        return 1.0;
    }
    let inv_h = 1.0 / h;
    var lo = 0.0;
    var hi = 1.0;
    var t = 0.5;
    for (var i = 0u; i < 100u; i++) {
        let ft = pow(t, inv_h) + c * (t - 1.0);
        if ft == 0.0 {
            return t;
        }
        if ft < 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        let df = inv_h * pow(t, inv_h - 1.0) + c;
        let step = ft / df;
        if abs(step) <= 2.0 * HB_EPS * t {
            return clamp(t - step, lo, hi);
        }
        let newton = t - step;
        if newton > lo && newton < hi {
            t = newton;
        } else {
            t = 0.5 * (lo + hi);
        }
        if hi - lo <= 4.0 * HB_EPS * hi {
            break;
        }
    }
    return t;
}

// Relaxed deviatoric stress norm s for a trial value s_tr > τ_Y.
fn hb_relaxed_stress(s_trial: f32, m: Plastic, dt: f32) -> f32 {
    let excess = s_trial - m.yield_stress;
    if excess <= 0.0 {
        return s_trial;
    }
    let inv_h = 1.0 / m.exponent;
    var c = 0.0;
    if m.viscosity > 0.0 {
        c = pow(m.viscosity, inv_h) * pow(excess, 1.0 - inv_h) / (2.0 * m.mu * dt);
    }
    var t: f32;
    if m.exponent == 1.0 {
        t = c / (1.0 + c);
    } else {
        t = hb_solve(c, m.exponent);
    }
    return m.yield_stress + t * excess;
}

// Z(F): the elastic part of F and the updated (uncommitted) state.
fn return_map(f: mat3x3<f32>, state: vec2<f32>, m: Plastic, dt: f32) -> ReturnMapped {
    if m.model == MODEL_ELASTIC {
        return ReturnMapped(f, state);
    }
    let d = svd3(f);
    let eps = log(max(d.sigma, vec3<f32>(MIN_SINGULAR_VALUE)));
    var r = project_strain(eps, state, m, dt);
    let e = vec3<f32>(r.fe[0][0], r.fe[1][1], r.fe[2][2]);
    let s = exp(e);
    let us = mat3x3<f32>(d.u[0] * s.x, d.u[1] * s.y, d.u[2] * s.z);
    r.fe = us * transpose(d.v);
    return r;
}
