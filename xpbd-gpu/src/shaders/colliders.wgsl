// Static rigid colliders, shared by the XPBD and XPBI kernels (function library; prepend to a
// module): the packed `Collider` (`layout::GpuCollider`) and its signed distance, xpbd_core's
// `Shape::signed_distance` (shape.rs) in f32. A module that includes it declares the
// signed-distance grids' node values, `sdf_nodes: texture_2d<f32>` (`sdf.rs`: node L of the
// atlas at texel (L mod W, L div W), W the texture's width).

const COLLIDER_PLANE: u32 = 0u;
const COLLIDER_SPHERE: u32 = 1u;
const COLLIDER_BOX: u32 = 2u;
const COLLIDER_CAPSULE: u32 = 3u;
const COLLIDER_SDF: u32 = 4u;

struct Collider {
    // xyz: plane unit normal, or the centre of a sphere, box, capsule or grid frame; w: plane
    // offset (n·x ≥ w), sphere radius or grid node spacing.
    shape: vec4<f32>,
    kind: u32,
    // Coulomb coefficients μ_s and μ_k.
    friction: f32,
    kinetic_friction: f32,
    // Restitution e.
    restitution: f32,
    // Box, capsule and grid: the columns of the rotation R (local axes in world coordinates);
    // grid: w holds the local origin of node (0, 0, 0), one component per column.
    rot0: vec4<f32>,
    rot1: vec4<f32>,
    rot2: vec4<f32>,
    // Box: half extents; capsule: (half length, radius); grid: its node counts (xyz) and its
    // first node in the atlas (w), as u32 bits.
    dims: vec4<f32>,
    // xyz: the collider's displacement over the step (a kinematic collider, whose pose above
    // is the one at the end of the step); zero for a static one.
    motion: vec4<f32>,
}

// (|v|, v/|v|), or (0, e_z) for the zero vector (shape.rs, unit_or_up).
fn unit_or_up(v: vec3<f32>) -> vec4<f32> {
    let d = length(v);
    if d > 0.0 {
        return vec4<f32>(v / d, d);
    }
    return vec4<f32>(0.0, 0.0, 1.0, 0.0);
}

// φ at node i of the grid whose nodes start at node `first` of the atlas (axis 0 fastest).
fn sdf_node(first: u32, dims: vec3<u32>, i: vec3<u32>) -> f32 {
    let lin = first + i.x + dims.x * (i.y + dims.y * i.z);
    let w = textureDimensions(sdf_nodes).x;
    return textureLoad(sdf_nodes, vec2<u32>(lin % w, lin / w), 0).x;
}

// (∇φ/|∇φ|, φ) of a signed-distance grid at the local point q: xpbd_core's SdfGrid::sample
// (sdf.rs). Inside the grid's box, trilinear interpolation of the node values and its exact
// gradient; outside, φ at the nearest box point plus the distance to the box, the normal
// pointing away from the box.
fn sdf_distance(col: Collider, q: vec3<f32>) -> vec4<f32> {
    let bits = bitcast<vec4<u32>>(col.dims);
    let dims = bits.xyz;
    let origin = vec3<f32>(col.rot0.w, col.rot1.w, col.rot2.w);
    let cell = col.shape.w;
    let hi = origin + cell * vec3<f32>(dims - vec3<u32>(1u));
    let c = clamp(q, origin, hi);
    let f = (c - origin) / cell;
    let base = min(vec3<u32>(max(floor(f), vec3<f32>(0.0))), dims - vec3<u32>(2u));
    let t = clamp(f - vec3<f32>(base), vec3<f32>(0.0), vec3<f32>(1.0));
    var phi = 0.0;
    var grad = vec3<f32>(0.0);
    for (var corner = 0u; corner < 8u; corner++) {
        let bit = vec3<u32>(corner & 1u, (corner >> 1u) & 1u, (corner >> 2u) & 1u);
        let on = bit == vec3<u32>(1u);
        let w = select(vec3<f32>(1.0) - t, t, on);
        let dw = select(vec3<f32>(-1.0), vec3<f32>(1.0), on);
        let v = sdf_node(bits.w, dims, base + bit);
        phi += w.x * w.y * w.z * v;
        grad += vec3<f32>(dw.x * w.y * w.z, w.x * dw.y * w.z, w.x * w.y * dw.z) * (v / cell);
    }
    let outside = q - c;
    let d_out = length(outside);
    if d_out > 0.0 {
        return vec4<f32>(outside / d_out, phi + d_out);
    }
    let g = length(grad);
    if g > 0.0 {
        return vec4<f32>(grad / g, phi);
    }
    return vec4<f32>(0.0, 0.0, 1.0, phi);
}

// (∇φ, φ) of collider `col` at the world point x: xpbd_core's Shape::signed_distance
// (shape.rs): half-space, sphere, exact box distance (Quílez), capsule, signed-distance grid.
fn collider_distance(col: Collider, x: vec3<f32>) -> vec4<f32> {
    if col.kind == COLLIDER_PLANE {
        return vec4<f32>(col.shape.xyz, dot(col.shape.xyz, x) - col.shape.w);
    }
    if col.kind == COLLIDER_SPHERE {
        let u = unit_or_up(x - col.shape.xyz);
        return vec4<f32>(u.xyz, u.w - col.shape.w);
    }
    let r = mat3x3<f32>(col.rot0.xyz, col.rot1.xyz, col.rot2.xyz);
    let q = transpose(r) * (x - col.shape.xyz);
    if col.kind == COLLIDER_SDF {
        let s = sdf_distance(col, q);
        return vec4<f32>(r * s.xyz, s.w);
    }
    if col.kind == COLLIDER_CAPSULE {
        let axis = vec3<f32>(clamp(q.x, -col.dims.x, col.dims.x), 0.0, 0.0);
        let u = unit_or_up(q - axis);
        return vec4<f32>(r * u.xyz, u.w - col.dims.y);
    }
    // Box: outside, |max(|q| − h, 0)| along the outside components; inside, the largest
    // (|qᵢ| − hᵢ) with the normal of that face.
    let h = col.dims.xyz;
    let over = abs(q) - h;
    let s = select(vec3<f32>(1.0), vec3<f32>(-1.0), q < vec3<f32>(0.0));
    let outside = s * max(over, vec3<f32>(0.0));
    if any(over > vec3<f32>(0.0)) {
        let d = length(outside);
        return vec4<f32>(r * (outside / d), d);
    }
    var k = 0u;
    if over.y > over.x {
        k = 1u;
    }
    if over.z > over[k] {
        k = 2u;
    }
    var n = vec3<f32>(0.0);
    n[k] = s[k];
    return vec4<f32>(r * n, over[k]);
}
