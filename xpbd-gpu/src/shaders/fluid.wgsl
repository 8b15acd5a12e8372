// Position-based fluids on the GPU (f32): xpbi_continuum::fluid::PbfFluid's density
// constraint, one per fluid particle i over its neighbours j within the support H (fluid
// particles and the solid particles of the other bodies, Akinci et al. 2012),
//
//   C_i = 1 − Σ_j V̂_j W(|x_i − x_j|) ≥ 0   (the particle itself included, V̂ = V/κ_W),
//   ∇_{x_j} C_i = V̂_j ∇W(x_i − x_j),  ∇_{x_i} C_i = −Σ_j ∇_{x_j} C_i,
//
// projected as the core's unilateral XPBD update with compliance α = 1/(K V) (0:
// incompressible): Δλ = (−C − α̃λ)/(Σ_k w_k|∇_k C|² + α̃), λ ← max(λ + Δλ, 0),
// x_k += w_k ∇_k C Δλ; then, after the velocity update, XSPH among fluid neighbours
// (Δv_i = c Σ_j V̂_j W_ij (v_j − v_i), c = 1 − e^{−κh}) and the optional vorticity
// confinement (Δv_i = ε Δx h |ω_i| (N_i × ω_i)), both from the substep's start positions, in
// Jacobi form. Wendland C2 kernel, as XPBI.
//
// The fluid's particles and the solid ones are gathered ("local" numbering: the fluid's
// members first, then the solids) into `pos` at the substep's start for the neighbour grid
// (grid.wgsl: cell H, counting sort, lists in the CPU's order); `local` maps each to its
// device slot (bits 30–31: the particle set, 0 the XPBD bodies' buffers, where the fluid's own
// particles live, k continuum k − 1; bodies.wgsl) and holds its V̂. The coloured sweep is the
// CPU's: 3³ cell colours on that grid, one thread per cell of a colour, its fluid particles in
// index order.

const FWG: u32 = 64u;
const SET_SHIFT: u32 = 30u;
const INDEX_MASK: u32 = 0x3fffffffu;
const FLAG_XSPH: u32 = 1u;
const FLAG_VORTICITY: u32 = 2u;
const NO_CELL: u32 = 0xffffffffu;

struct FluidParams {
    n_all: u32,
    n_fluid: u32,
    flags: u32,
    _pad0: u32,
    support: f32,
    // σ₃/H³ of the Wendland C2 kernel.
    kernel_scale: f32,
    // α/h² of every constraint.
    alpha_tilde: f32,
    // XSPH's c = 1 − e^{−κh}.
    xsph: f32,
    // ε Δx h.
    confinement: f32,
    // κ_W/μ_W: V̂ ∇W times this is the lattice-normalised gradient weight V ∇W/μ_W.
    inv_pressure_factor: f32,
    _pad1: u32,
    _pad2: u32,
}

struct ColourParams {
    // xyz: this colour's cell offsets (0..3), w: colour index.
    offset: vec4<u32>,
    // xyz: grid cells per axis.
    dims: vec4<u32>,
    // xyz: cells of this colour per axis.
    count: vec4<u32>,
    _pad: vec4<u32>,
}

struct Loaded {
    pos: vec3<f32>,
    w: f32,
}

@group(0) @binding(0) var<uniform> fp: FluidParams;
@group(0) @binding(1) var<storage, read_write> x: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> x_prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> v: array<vec4<f32>>;
// Per local particle: (device slot, V̂ as f32 bits).
@group(0) @binding(4) var<storage, read_write> local: array<vec2<u32>>;
// Local positions at the substep's start (the grid's input).
@group(0) @binding(5) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> cell_start: array<u32>;
@group(0) @binding(7) var<storage, read_write> sorted: array<u32>;
@group(0) @binding(8) var<storage, read_write> nb_offsets: array<u32>;
@group(0) @binding(9) var<storage, read_write> nb_indices: array<u32>;
// Per fluid particle: Δv of the end of the substep (xyz), λ (w).
@group(0) @binding(10) var<storage, read_write> rows: array<vec4<f32>>;
// Per fluid particle: the vorticity ω (xyz).
@group(0) @binding(11) var<storage, read_write> omega: array<vec4<f32>>;
// 0..3: min keys of pos, 3..6: max keys.
@group(0) @binding(12) var<storage, read_write> bounds: array<atomic<u32>>;
// Continuum k: xⁿ, u, (inverse mass, V⁰, Vⁿ, factor).
@group(0) @binding(13) var<storage, read_write> xn0: array<vec4<f32>>;
@group(0) @binding(14) var<storage, read_write> dsp0: array<vec4<f32>>;
@group(0) @binding(15) var<storage, read_write> pinfo0: array<vec4<f32>>;
@group(0) @binding(16) var<storage, read_write> xn1: array<vec4<f32>>;
@group(0) @binding(17) var<storage, read_write> dsp1: array<vec4<f32>>;
@group(0) @binding(18) var<storage, read_write> pinfo1: array<vec4<f32>>;
@group(0) @binding(19) var<storage, read_write> xn2: array<vec4<f32>>;
@group(0) @binding(20) var<storage, read_write> dsp2: array<vec4<f32>>;
@group(0) @binding(21) var<storage, read_write> pinfo2: array<vec4<f32>>;
@group(1) @binding(0) var<uniform> cp: ColourParams;

var<workgroup> red: array<array<u32, 6>, 64>;

fn fluid_tid(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return gid.x + gid.y * nwg.x * FWG;
}

fn vhat(k: u32) -> f32 {
    return bitcast<f32>(local[k].y);
}

// Order-preserving u32 key of an f32.
fn key(f: f32) -> u32 {
    let b = bitcast<u32>(f);
    if (b & 0x80000000u) != 0u {
        return ~b;
    }
    return b | 0x80000000u;
}

fn kernel_w(r: f32) -> f32 {
    let q = r / fp.support;
    if q >= 1.0 {
        return 0.0;
    }
    let a = 1.0 - q;
    return fp.kernel_scale * a * a * a * a * (1.0 + 4.0 * q);
}

// ∇_{x_i} W(|x_i − x_j|) for d = x_i − x_j.
fn kernel_grad(d: vec3<f32>) -> vec3<f32> {
    let q = length(d) / fp.support;
    if q >= 1.0 {
        return vec3<f32>(0.0);
    }
    let a = 1.0 - q;
    return d * (fp.kernel_scale * (-20.0 / (fp.support * fp.support)) * a * a * a);
}

// Current position and inverse mass of device slot `e`.
fn load(e: u32) -> Loaded {
    let i = e & INDEX_MASK;
    switch e >> SET_SHIFT {
        case 1u: {
            return Loaded(xn0[i].xyz + dsp0[i].xyz, pinfo0[i].x);
        }
        case 2u: {
            return Loaded(xn1[i].xyz + dsp1[i].xyz, pinfo1[i].x);
        }
        case 3u: {
            return Loaded(xn2[i].xyz + dsp2[i].xyz, pinfo2[i].x);
        }
        default: {
            let p = x[i];
            return Loaded(p.xyz, p.w);
        }
    }
}

// Position of device slot `e` at the substep's start (before the prediction of the XPBD
// bodies; a continuum's xⁿ).
fn start_position(e: u32) -> vec3<f32> {
    let i = e & INDEX_MASK;
    switch e >> SET_SHIFT {
        case 1u: {
            return xn0[i].xyz;
        }
        case 2u: {
            return xn1[i].xyz;
        }
        case 3u: {
            return xn2[i].xyz;
        }
        default: {
            return x[i].xyz;
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

// pos ← the start positions; the bounding box of pos (workgroup reduction, then integer
// atomics on order-preserving keys: deterministic).
@compute @workgroup_size(64)
fn fluid_gather(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) li: u32) {
    let k = fluid_tid(gid, nwg);
    var b = array<u32, 6>(0xffffffffu, 0xffffffffu, 0xffffffffu, 0u, 0u, 0u);
    if k < fp.n_all {
        let p = start_position(local[k].x);
        pos[k] = vec4<f32>(p, 0.0);
        for (var a = 0u; a < 3u; a++) {
            b[a] = key(p[a]);
            b[3u + a] = b[a];
        }
    }
    red[li] = b;
    workgroupBarrier();
    for (var off = 32u; off > 0u; off /= 2u) {
        if li < off {
            for (var a = 0u; a < 3u; a++) {
                red[li][a] = min(red[li][a], red[li + off][a]);
                red[li][3u + a] = max(red[li][3u + a], red[li + off][3u + a]);
            }
        }
        workgroupBarrier();
    }
    if li == 0u {
        for (var a = 0u; a < 3u; a++) {
            atomicMin(&bounds[a], red[0][a]);
            atomicMax(&bounds[3u + a], red[0][3u + a]);
        }
    }
}

// λ ← 0 for every fluid particle (the start of every substep).
@compute @workgroup_size(64)
fn fluid_reset(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let k = fluid_tid(gid, nwg);
    if k >= fp.n_fluid {
        return;
    }
    rows[k] = vec4<f32>(0.0);
}

// The density constraint of fluid particle i (local), projected in place.
fn project_density(i: u32) {
    let si = local[i].x;
    let me = load(si);
    let begin = nb_offsets[i];
    let end = nb_offsets[i + 1u];
    var sum = vhat(i) * kernel_w(0.0);
    var gi = vec3<f32>(0.0);
    var wsum = 0.0;
    for (var s = begin; s < end; s++) {
        let j = nb_indices[s];
        let other = load(local[j].x);
        let d = me.pos - other.pos;
        let g = kernel_grad(d) * vhat(j);
        sum += vhat(j) * kernel_w(length(d));
        gi -= g;
        wsum += other.w * dot(g, g);
    }
    wsum += me.w * dot(gi, gi);
    let value = 1.0 - sum;
    var row = rows[i];
    let lambda = row.w;
    if value >= 0.0 && lambda <= 0.0 {
        return;
    }
    let denom = wsum + fp.alpha_tilde;
    if denom <= 1.17549435e-38 {
        return;
    }
    var dl = (-value - fp.alpha_tilde * lambda) / denom;
    dl = max(lambda + dl, 0.0) - lambda;
    if dl == 0.0 {
        return;
    }
    row.w = lambda + dl;
    rows[i] = row;
    // The neighbours' gradients again from the positions before this projection (each
    // neighbour is read before it is moved, and p last).
    for (var s = begin; s < end; s++) {
        let j = nb_indices[s];
        let sj = local[j].x;
        let other = load(sj);
        if other.w > 0.0 {
            let g = kernel_grad(me.pos - other.pos) * vhat(j);
            store(sj, g * (other.w * dl));
        }
    }
    if me.w > 0.0 {
        store(si, gi * (me.w * dl));
    }
}

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

// One colour of the coloured sweep: a thread per cell, its fluid particles in index order.
@compute @workgroup_size(64)
fn fluid_solve(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let cell = colour_cell(fluid_tid(gid, nwg));
    if cell == NO_CELL {
        return;
    }
    for (var k = cell_start[cell]; k < cell_start[cell + 1u]; k++) {
        let i = sorted[k];
        if i < fp.n_fluid {
            project_density(i);
        }
    }
}

// The fluid particle of local index i lives in the XPBD bodies' buffers.
fn xpbd_index(i: u32) -> u32 {
    return local[i].x & INDEX_MASK;
}

// ω_i = Σ_j V ∇W_ij × (v_j − v_i) / μ_W over the fluid neighbours, at the substep's start
// positions.
@compute @workgroup_size(64)
fn fluid_vorticity(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = fluid_tid(gid, nwg);
    if i >= fp.n_fluid {
        return;
    }
    let a = xpbd_index(i);
    var w = vec3<f32>(0.0);
    for (var s = nb_offsets[i]; s < nb_offsets[i + 1u]; s++) {
        let j = nb_indices[s];
        if j >= fp.n_fluid {
            continue;
        }
        let b = xpbd_index(j);
        let g = kernel_grad(x_prev[a].xyz - x_prev[b].xyz) * (vhat(j) * fp.inv_pressure_factor);
        w += cross(g, v[b].xyz - v[a].xyz);
    }
    omega[i] = vec4<f32>(w, 0.0);
}

// Δv of XSPH and vorticity confinement (Jacobi: from the velocities before the pass).
@compute @workgroup_size(64)
fn fluid_smooth(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = fluid_tid(gid, nwg);
    if i >= fp.n_fluid {
        return;
    }
    let a = xpbd_index(i);
    var dv = vec3<f32>(0.0);
    if x[a].w > 0.0 {
        let xa = x_prev[a].xyz;
        let va = v[a].xyz;
        if (fp.flags & FLAG_XSPH) != 0u {
            var acc = vec3<f32>(0.0);
            for (var s = nb_offsets[i]; s < nb_offsets[i + 1u]; s++) {
                let j = nb_indices[s];
                if j >= fp.n_fluid {
                    continue;
                }
                let b = xpbd_index(j);
                acc += (v[b].xyz - va) * (vhat(j) * kernel_w(length(xa - x_prev[b].xyz)));
            }
            dv = acc * fp.xsph;
        }
        if (fp.flags & FLAG_VORTICITY) != 0u {
            let om = omega[i].xyz;
            let mag = length(om);
            var eta = vec3<f32>(0.0);
            for (var s = nb_offsets[i]; s < nb_offsets[i + 1u]; s++) {
                let j = nb_indices[s];
                if j >= fp.n_fluid {
                    continue;
                }
                let b = xpbd_index(j);
                let g = kernel_grad(xa - x_prev[b].xyz) * (vhat(j) * fp.inv_pressure_factor);
                eta += g * (length(omega[j].xyz) - mag);
            }
            let len = length(eta);
            if len > 0.0 {
                dv += cross(eta / len, om) * (mag * fp.confinement);
            }
        }
    }
    rows[i] = vec4<f32>(dv, rows[i].w);
}

@compute @workgroup_size(64)
fn fluid_apply(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = fluid_tid(gid, nwg);
    if i >= fp.n_fluid {
        return;
    }
    let a = xpbd_index(i);
    v[a] = vec4<f32>(v[a].xyz + rows[i].xyz, 0.0);
}
