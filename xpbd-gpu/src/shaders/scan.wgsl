// Exclusive prefix sum in place: data[0..len] ← Σ_{j<i} data[j], data[len] ← total.
// One workgroup of 256 threads: each thread sums a contiguous chunk, a Hillis-Steele scan
// over the 256 partial sums in workgroup memory, then each thread rewrites its chunk.
// O(len / 256) work per thread, one dispatch, deterministic (integer sums).

struct ScanParams {
    len: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<uniform> sp: ScanParams;
@group(0) @binding(1) var<storage, read_write> data: array<u32>;

var<workgroup> partial: array<u32, 256>;

@compute @workgroup_size(256)
fn exclusive_scan(@builtin(local_invocation_id) lid: vec3<u32>) {
    let t = lid.x;
    let chunk = (sp.len + 255u) / 256u;
    let begin = min(t * chunk, sp.len);
    let end = min(begin + chunk, sp.len);
    var sum = 0u;
    for (var i = begin; i < end; i++) {
        sum += data[i];
    }
    partial[t] = sum;
    workgroupBarrier();
    for (var off = 1u; off < 256u; off *= 2u) {
        var add = 0u;
        if t >= off {
            add = partial[t - off];
        }
        workgroupBarrier();
        partial[t] += add;
        workgroupBarrier();
    }
    var run = 0u;
    if t > 0u {
        run = partial[t - 1u];
    }
    for (var i = begin; i < end; i++) {
        let c = data[i];
        data[i] = run;
        run += c;
    }
    if t == 255u {
        data[sp.len] = partial[255u];
    }
}
