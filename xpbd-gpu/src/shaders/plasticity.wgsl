// Return mappings Z(F) in principal Hencky strain (XPBI building block), f32 ports of
// xpbi_continuum::plasticity: F = U diag(σ) Vᵀ (svd3), ε = ln max(σ, 1e-4), project ε,
// F_E = U diag(exp ε_new) Vᵀ. StVK on Hencky strain: dev τ = 2μ ε̂, tr τ = (2μ + 3λ) tr ε.
//
//   von Mises:       δγ = ‖ε̂‖ − σ_Y(q)/(2μ), σ_Y(q) = σ_Y0 + H q;  δγ > 0: ε −= δγ ε̂/‖ε̂‖, q += δγ
//   Drucker–Prager:  ε_s = ε − c₀1 + (v_c/3)1;  tr ε_s ≥ 0: ε = c₀1, q += ‖ε_s‖;
//                    δγ = ‖ε̂_s‖ + (3λ + 2μ)/(2μ) α tr ε_s;  δγ > 0: ε = ε_s − δγ ε̂_s/‖ε̂_s‖ + c₀1,
//                    q += δγ;  α = √(2/3) 2 sin φ/(3 − sin φ), φ(q) = h₀ + (h₁q − h₃)e^{−h₂q}
//                    (Klár et al. 2016) or constant; v_c += tr ε − tr ε_new (Tampubolon 2017).
//
// A function library: prepend svd3.wgsl, then this file, to a module that uses it.

const MODEL_ELASTIC: u32 = 0u;
const MODEL_VON_MISES: u32 = 1u;
const MODEL_DRUCKER_PRAGER: u32 = 2u;
const MIN_SINGULAR_VALUE: f32 = 1e-4;

struct Plastic {
    model: u32,
    mu: f32,
    lambda: f32,
    // von Mises: σ_Y0 and H.
    yield_stress: f32,
    hardening_modulus: f32,
    // Drucker–Prager: friction angle (degrees) when `klar` = 0, else Klár's h₀..h₃.
    friction_angle: f32,
    cohesion: f32,
    // 1: volume correction on.
    volume_correction: u32,
    klar: u32,
    h0: f32,
    h1: f32,
    h2: f32,
    h3: f32,
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

fn project_strain(eps: vec3<f32>, state: vec2<f32>, m: Plastic) -> ReturnMapped {
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
        var phi = m.friction_angle;
        if m.klar != 0u {
            phi = clamp(m.h0 + (m.h1 * state.x - m.h3) * exp(-m.h2 * state.x), 1e-3, 89.999);
        }
        let s = sin(radians(phi));
        let alpha = sqrt(2.0 / 3.0) * 2.0 * s / (3.0 - s);
        var changed = true;
        if trace >= 0.0 {
            out.state.x = state.x + length(eps_s);
            e = shift;
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
    }
    out.fe = mat3x3<f32>(vec3<f32>(e.x, 0.0, 0.0), vec3<f32>(0.0, e.y, 0.0), vec3<f32>(0.0, 0.0, e.z));
    return out;
}

// Z(F): the elastic part of F and the updated (uncommitted) state.
fn return_map(f: mat3x3<f32>, state: vec2<f32>, m: Plastic) -> ReturnMapped {
    if m.model == MODEL_ELASTIC {
        return ReturnMapped(f, state);
    }
    let d = svd3(f);
    let eps = log(max(d.sigma, vec3<f32>(MIN_SINGULAR_VALUE)));
    var r = project_strain(eps, state, m);
    let e = vec3<f32>(r.fe[0][0], r.fe[1][1], r.fe[2][2]);
    let s = exp(e);
    let us = mat3x3<f32>(d.u[0] * s.x, d.u[1] * s.y, d.u[2] * s.z);
    r.fe = us * transpose(d.v);
    return r;
}
