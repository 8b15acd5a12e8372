// Static rigid colliders, shared by the XPBD and XPBI kernels (function library, no
// bindings; prepend to a module): the packed `Collider` (`layout::GpuCollider`) and its signed
// distance, xpbd_core's `Shape::signed_distance` (shape.rs) in f32.

const COLLIDER_PLANE: u32 = 0u;
const COLLIDER_SPHERE: u32 = 1u;
const COLLIDER_BOX: u32 = 2u;
const COLLIDER_CAPSULE: u32 = 3u;

struct Collider {
    // xyz: plane unit normal, or the centre of a sphere, box or capsule; w: plane offset
    // (n·x ≥ w) or sphere radius.
    shape: vec4<f32>,
    kind: u32,
    // Coulomb coefficients μ_s and μ_k.
    friction: f32,
    kinetic_friction: f32,
    // Restitution e.
    restitution: f32,
    // Box and capsule: the columns of the rotation R (local axes in world coordinates).
    rot0: vec4<f32>,
    rot1: vec4<f32>,
    rot2: vec4<f32>,
    // Box: half extents; capsule: (half length, radius).
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

// (∇φ, φ) of collider `col` at the world point x: xpbd_core's Shape::signed_distance
// (shape.rs): half-space, sphere, exact box distance (Quílez), capsule.
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
