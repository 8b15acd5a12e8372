// Batch driver of return_map (appended to svd3.wgsl + plasticity.wgsl): item i reads F
// columns input[4i..4i+3] and its state from input[4i+3].xy; writes F_E columns and the
// new state to output[4i..4i+4]. The step Δt (Herschel–Bulkley) is rm_step.x.

@group(0) @binding(0) var<uniform> plastic: Plastic;
@group(0) @binding(1) var<storage, read> rm_input: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> rm_output: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> rm_step: vec4<f32>;

@compute @workgroup_size(64)
fn return_map_batch(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if 4u * i + 3u >= arrayLength(&rm_input) {
        return;
    }
    let f = mat3x3<f32>(rm_input[4u * i].xyz, rm_input[4u * i + 1u].xyz, rm_input[4u * i + 2u].xyz);
    let r = return_map(f, rm_input[4u * i + 3u].xy, plastic, rm_step.x);
    rm_output[4u * i] = vec4<f32>(r.fe[0], 0.0);
    rm_output[4u * i + 1u] = vec4<f32>(r.fe[1], 0.0);
    rm_output[4u * i + 2u] = vec4<f32>(r.fe[2], 0.0);
    rm_output[4u * i + 3u] = vec4<f32>(r.state, 0.0, 0.0);
}
