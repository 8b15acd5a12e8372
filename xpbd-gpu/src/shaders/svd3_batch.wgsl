// Batch driver of svd3 (appended to svd3.wgsl): matrix i is input[3i..3i+3] (columns);
// output[7i..7i+7] = U columns, (σ, 0), V columns.

@group(0) @binding(0) var<storage, read> svd_input: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> svd_output: array<vec4<f32>>;

@compute @workgroup_size(64)
fn svd3_batch(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if 3u * i + 2u >= arrayLength(&svd_input) {
        return;
    }
    let f = mat3x3<f32>(svd_input[3u * i].xyz, svd_input[3u * i + 1u].xyz, svd_input[3u * i + 2u].xyz);
    let r = svd3(f);
    svd_output[7u * i] = vec4<f32>(r.u[0], 0.0);
    svd_output[7u * i + 1u] = vec4<f32>(r.u[1], 0.0);
    svd_output[7u * i + 2u] = vec4<f32>(r.u[2], 0.0);
    svd_output[7u * i + 3u] = vec4<f32>(r.sigma, 0.0);
    svd_output[7u * i + 4u] = vec4<f32>(r.v[0], 0.0);
    svd_output[7u * i + 5u] = vec4<f32>(r.v[1], 0.0);
    svd_output[7u * i + 6u] = vec4<f32>(r.v[2], 0.0);
}
