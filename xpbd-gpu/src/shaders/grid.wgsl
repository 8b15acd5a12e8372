// Uniform neighbour grid on the GPU (XPBI building block), mirroring xpbd-core::spatial:
// counting sort of particles by cell (Hoetzlein 2014, "Fast Fixed-Radius Nearest
// Neighbors": histogram, exclusive prefix sum in scan.wgsl, scatter), then each cell's
// particles sorted by index (so the order is the CPU's stable order whatever the atomics
// did), then fixed-radius neighbour lists in CSR: count, prefix sum, fill, visiting cells
// by increasing linear index and particles by increasing index, as
// UniformGrid::for_each_within does. Only integer atomics (deterministic totals).

const WG: u32 = 64u;

struct GridParams {
    // xyz: grid origin (bounding-box minimum); w: cell width.
    origin_cell: vec4<f32>,
    // xyz: cells per axis; w: total cells.
    dims: vec4<u32>,
    n_particles: u32,
    // Query radius and its square.
    radius: f32,
    radius2: f32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> gp: GridParams;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> cell_of: array<u32>;
// Histogram (bin) / scatter cursors (scatter), n_cells + 1 entries.
@group(0) @binding(3) var<storage, read_write> counters: array<atomic<u32>>;
// Exclusive prefix sum of the histogram, n_cells + 1 entries.
@group(0) @binding(4) var<storage, read> cell_start: array<u32>;
@group(0) @binding(5) var<storage, read_write> sorted: array<u32>;
// Neighbour counts (count_neighbours), then offsets after the scan (fill_neighbours).
@group(0) @binding(6) var<storage, read_write> nb_offsets: array<u32>;
@group(0) @binding(7) var<storage, read_write> nb_indices: array<u32>;

fn thread_index(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return gid.x + gid.y * nwg.x * WG;
}

// floor((x − origin)/cell) clamped to the grid, as UniformGrid::cell_coords_of.
fn cell_coords(p: vec3<f32>) -> vec3<u32> {
    let f = floor((p - gp.origin_cell.xyz) / gp.origin_cell.w);
    let hi = vec3<f32>(gp.dims.xyz - vec3<u32>(1u));
    return vec3<u32>(clamp(f, vec3<f32>(0.0), hi));
}

fn linear(c: vec3<u32>) -> u32 {
    return c.x + gp.dims.x * (c.y + gp.dims.y * c.z);
}

@compute @workgroup_size(64)
fn bin(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = thread_index(gid, nwg);
    if p >= gp.n_particles {
        return;
    }
    let c = linear(cell_coords(positions[p].xyz));
    cell_of[p] = c;
    atomicAdd(&counters[c], 1u);
}

// counters must hold a copy of cell_start here.
@compute @workgroup_size(64)
fn scatter(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = thread_index(gid, nwg);
    if p >= gp.n_particles {
        return;
    }
    let slot = atomicAdd(&counters[cell_of[p]], 1u);
    sorted[slot] = p;
}

// Insertion sort of each cell's particles by index (cells hold a handful of particles).
@compute @workgroup_size(64)
fn sort_cells(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let c = thread_index(gid, nwg);
    if c >= gp.dims.w {
        return;
    }
    let begin = cell_start[c];
    let end = cell_start[c + 1u];
    for (var i = begin + 1u; i < end; i++) {
        let key = sorted[i];
        var j = i;
        while j > begin && sorted[j - 1u] > key {
            sorted[j] = sorted[j - 1u];
            j -= 1u;
        }
        sorted[j] = key;
    }
}

// Visits the neighbours of particle p (|x_b − x_p| < radius, b ≠ p) in the CPU's order;
// `write` = false counts them, true stores them at nb_offsets[p]...
fn visit(p: u32, write: bool) -> u32 {
    let x = positions[p].xyz;
    let r = gp.radius;
    let a = floor((x - vec3<f32>(r) - gp.origin_cell.xyz) / gp.origin_cell.w);
    let b = floor((x + vec3<f32>(r) - gp.origin_cell.xyz) / gp.origin_cell.w);
    let top = vec3<f32>(gp.dims.xyz - vec3<u32>(1u));
    if any(b < vec3<f32>(0.0)) || any(a > top) {
        return 0u;
    }
    let lo = vec3<u32>(max(a, vec3<f32>(0.0)));
    let hi = vec3<u32>(min(b, top));
    var n = 0u;
    var base = 0u;
    if write {
        base = nb_offsets[p];
    }
    for (var k = lo.z; k <= hi.z; k++) {
        for (var j = lo.y; j <= hi.y; j++) {
            for (var i = lo.x; i <= hi.x; i++) {
                let c = linear(vec3<u32>(i, j, k));
                for (var s = cell_start[c]; s < cell_start[c + 1u]; s++) {
                    let q = sorted[s];
                    let d = positions[q].xyz - x;
                    if q != p && dot(d, d) < gp.radius2 {
                        if write {
                            nb_indices[base + n] = q;
                        }
                        n += 1u;
                    }
                }
            }
        }
    }
    return n;
}

@compute @workgroup_size(64)
fn count_neighbours(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = thread_index(gid, nwg);
    if p >= gp.n_particles {
        return;
    }
    nb_offsets[p] = visit(p, false);
}

@compute @workgroup_size(64)
fn fill_neighbours(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let p = thread_index(gid, nwg);
    if p >= gp.n_particles {
        return;
    }
    visit(p, true);
}
