//! GPU data layout (`#[repr(C)]` Pod mirrors of the WGSL structs in `shaders/xpbd.wgsl`) and
//! the CPU-side packing of a [`Scene`]: f32 particle arrays (vec3 padded to `vec4`, inverse
//! mass in `x.w`), one constraint array for all blocks, the colour order of each block
//! (`Schedule::greedy`, one dispatch per colour) and the Jacobi CSR adjacency (particle →
//! correction slots in ascending constraint order, so the gather sums in the CPU's order).

use std::ops::Range;

use bytemuck::{Pod, Zeroable};
use xpbd_core::constraint::ConstraintKind;
use xpbd_core::schedule::Schedule;

use crate::{GpuError, KinematicCollider, MAX_COLLIDERS, Scene, SceneBlock, SceneCollider};

/// `struct Params` of the shader (uniform, written when `h` changes).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct GpuParams {
    /// Gravity (xyz) and the substep length h (w).
    pub gravity_h: [f32; 4],
    /// 1/h.
    pub inv_h: f32,
    /// exp(−k h).
    pub damping_factor: f32,
    /// Jacobi ω.
    pub omega: f32,
    /// 1 for averaged Jacobi.
    pub averaged: u32,
    /// Particle count.
    pub n_particles: u32,
    /// Constraint count over all blocks.
    pub n_constraints: u32,
    /// (max speed)².
    pub max_speed2: f32,
    /// Collider count.
    pub n_colliders: u32,
    /// λ ← keep·λ at each substep.
    pub lambda_keep: f32,
    /// Start of the CSR row offsets in the index buffer.
    pub csr_offsets_base: u32,
    /// Start of the CSR slots in the index buffer.
    pub csr_slots_base: u32,
    /// Particle radius r of the contacts (m): `C = φ(x) − r`.
    pub contact_radius: f32,
    /// Substeps S per step (a kinematic collider is at `end − motion (S − 1 − s)/S` in
    /// substep s).
    pub substeps: u32,
    /// Restitution threshold `2 a h` (m/s): slower approaches do not bounce.
    pub restitution_threshold: f32,
    /// Padding.
    pub pad: [u32; 2],
}

/// `struct Dispatch` (uniform with a dynamic offset: one slot per dispatch kind).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct GpuDispatch {
    /// First index (constraint or order position).
    pub start: u32,
    /// Number of threads doing work.
    pub count: u32,
    /// Substep index (fault records).
    pub substep: u32,
    /// Padding.
    pub pad: u32,
}

/// Constraint kind tags of the shader.
pub const KIND_DISTANCE: u32 = 0;
/// Dihedral bending.
pub const KIND_DIHEDRAL: u32 = 1;
/// Tetrahedral volume.
pub const KIND_TET_VOLUME: u32 = 2;
/// Isometric bending.
pub const KIND_ISOMETRIC: u32 = 3;
/// Stable neo-Hookean tetrahedron, hydrostatic part `C_H = det F − γ`.
pub const KIND_NH_HYDROSTATIC: u32 = 4;
/// Stable neo-Hookean tetrahedron, deviatoric part `C_D = ‖F‖`.
pub const KIND_NH_DEVIATORIC: u32 = 5;

/// `struct Constraint`: up to four particle indices, kind tag, rest value (l₀, θ₀ or V₀),
/// compliance α, damping β and per-kind data as raw 32-bit words (isometric bending: the f32
/// bits of the factor g of `Q = g gᵀ`, see [`isometric_factor`]; neo-Hookean: where its Dm⁻¹
/// starts in the index buffer, and the f32 bits of γ).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct GpuConstraint {
    /// Stencil (unused entries 0).
    pub idx: [u32; 4],
    /// `KIND_*`.
    pub kind: u32,
    /// Rest value.
    pub rest: f32,
    /// α.
    pub compliance: f32,
    /// β.
    pub damping: f32,
    /// Per-kind data (zero where unused).
    pub aux: [u32; 4],
}

/// `struct Collider`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct GpuCollider {
    /// Plane: unit normal and offset; sphere: centre and radius; box and capsule: centre.
    pub shape: [f32; 4],
    /// 0 plane, 1 sphere, 2 box, 3 capsule.
    pub kind: u32,
    /// μ_s.
    pub friction: f32,
    /// μ_k.
    pub kinetic_friction: f32,
    /// Restitution e.
    pub restitution: f32,
    /// Box and capsule: the columns of the rotation R (local axes in world coordinates).
    pub rotation: [[f32; 4]; 3],
    /// Box: half extents; capsule: half length and radius.
    pub dims: [f32; 4],
    /// The displacement over the step of a kinematic collider (the pose above is the one at
    /// the end of the step).
    pub motion: [f32; 4],
}

/// `struct Colliders` (uniform).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct GpuColliders {
    /// Unused entries are zero.
    pub items: [GpuCollider; MAX_COLLIDERS],
}

/// How one block is solved: its constraints are `start .. start + len` of the constraint
/// array; colour k is `indices[colours[k]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockPlan {
    /// First constraint.
    pub start: u32,
    /// Number of constraints.
    pub len: u32,
    /// Colour ranges into the index buffer.
    pub colours: Vec<Range<u32>>,
}

/// A scene packed for upload.
#[derive(Debug, Clone, PartialEq)]
pub struct PackedScene {
    /// Positions (xyz) and inverse masses (w).
    pub x: Vec<[f32; 4]>,
    /// Velocities.
    pub v: Vec<[f32; 4]>,
    /// External forces.
    pub force: Vec<[f32; 4]>,
    /// All constraints, block after block.
    pub constraints: Vec<GpuConstraint>,
    /// `[colour order of every block | CSR row offsets (n + 1) | CSR slots | neo-Hookean Dm⁻¹
    /// (f32 bits)]`.
    pub indices: Vec<u32>,
    /// Where the CSR row offsets start in `indices`.
    pub csr_offsets_base: u32,
    /// Where the CSR slots start in `indices`.
    pub csr_slots_base: u32,
    /// Per block solve plan.
    pub blocks: Vec<BlockPlan>,
    /// Colliders.
    pub colliders: GpuColliders,
    /// Number of colliders.
    pub n_colliders: u32,
    /// The colliders' signed-distance grids.
    pub(crate) sdf: crate::sdf::SdfAtlas,
}

fn f32x4(v: &nalgebra::Vector3<f64>, w: f64) -> [f32; 4] {
    [v.x as f32, v.y as f32, v.z as f32, w as f32]
}

fn push_kind<K: ConstraintKind<3>>(
    kind: &K,
    tag: u32,
    rest: impl Fn(usize) -> f64,
    aux: impl Fn(usize) -> [u32; 4],
    out: &mut Vec<GpuConstraint>,
) {
    for c in 0..kind.len() {
        let s = kind.stencil(c);
        let mut idx = [0u32; 4];
        idx[..s.len()].copy_from_slice(s);
        out.push(GpuConstraint {
            idx,
            kind: tag,
            rest: rest(c) as f32,
            compliance: kind.compliance(c) as f32,
            damping: kind.damping(c) as f32,
            aux: aux(c),
        });
    }
}

/// Packs a validated scene. Kinematic targets are not supported (typed error).
///
/// ```
/// use xpbd_core::builders::ClothGrid;
/// use xpbd_gpu::testing::{Scene, SceneBlock, pack};
/// let cloth = ClothGrid::<3> { nx: 4, ny: 4, ..ClothGrid::default() }.build().unwrap();
/// let n_con = cloth.stretch.pairs.len();
/// let scene = Scene::new(cloth.particles, Default::default()).with_block(SceneBlock::Distance(cloth.stretch));
/// let packed = pack(&scene).unwrap();
/// assert_eq!(packed.constraints.len(), n_con);
/// // every constraint appears in exactly one colour
/// let coloured: u32 = packed.blocks[0].colours.iter().map(|r| r.end - r.start).sum();
/// assert_eq!(coloured as usize, n_con);
/// ```
pub fn pack(scene: &Scene) -> Result<PackedScene, GpuError> {
    pack_members(scene, None)
}

/// Packs the particles `members` of a validated scene (ascending indices into
/// `scene.particles`; `None`: all of them) and its blocks, whose stencils must lie in
/// `members`: device particle k is `members[k]`, and every stencil is renumbered so. The GPU
/// world steps a scene's XPBD bodies so, beside a continuum that lives in its own buffers.
pub fn pack_members(scene: &Scene, members: Option<&[u32]>) -> Result<PackedScene, GpuError> {
    scene.validate()?;
    let p = &scene.particles;
    let all: Vec<u32>;
    let members = match members {
        Some(m) => m,
        None => {
            if p.len() >= u32::MAX as usize {
                return Err(GpuError::Unsupported {
                    what: format!("{} particles", p.len()),
                    reason: "particle indices are u32",
                });
            }
            all = (0..p.len() as u32).collect();
            &all
        }
    };
    // local[global] = device index (u32::MAX: not on the device).
    let mut local = vec![u32::MAX; p.len()];
    for (k, &g) in members.iter().enumerate() {
        let slot = local.get_mut(g as usize).filter(|s| **s == u32::MAX);
        let Some(slot) = slot else {
            return Err(GpuError::Unsupported {
                what: format!("device particle {k} = scene particle {g}"),
                reason: "members must be distinct indices of the scene's particles",
            });
        };
        *slot = k as u32;
    }
    let n = members.len();
    if let Some(&i) = members
        .iter()
        .find(|&&i| p.kinematic_target[i as usize].is_some())
    {
        return Err(GpuError::Unsupported {
            what: format!("kinematic target of particle {i}"),
            reason: "pin the particle (inverse mass 0) instead",
        });
    }
    let x = members
        .iter()
        .map(|&i| f32x4(&p.x[i as usize], p.inv_mass[i as usize]))
        .collect();
    let v = members
        .iter()
        .map(|&i| f32x4(&p.v[i as usize], 0.0))
        .collect();
    // w: the particle's contact radius (`collide` in xpbd.wgsl).
    let radius = |i: usize| {
        scene
            .contact_radii
            .get(i)
            .copied()
            .unwrap_or(scene.contact_radius)
    };
    let force = members
        .iter()
        .map(|&i| f32x4(&p.force[i as usize], radius(i as usize)))
        .collect();
    let mut constraints = Vec::new();
    let mut rest_inverse: Vec<u32> = Vec::new();
    let mut order = Vec::new();
    let mut blocks = Vec::new();
    // The colouring is computed on the scene's numbering (the same conflicts as the device's).
    let n_scene = p.len();
    for b in &scene.blocks {
        let start = constraints.len() as u32;
        let schedule = match b {
            SceneBlock::Distance(k) => {
                push_kind(
                    k,
                    KIND_DISTANCE,
                    |c| k.rest_length[c],
                    none,
                    &mut constraints,
                );
                greedy(k, n_scene)
            }
            SceneBlock::DihedralBending(k) => {
                push_kind(
                    k,
                    KIND_DIHEDRAL,
                    |c| k.rest_angle[c],
                    none,
                    &mut constraints,
                );
                greedy(k, n_scene)
            }
            SceneBlock::TetVolume(k) => {
                push_kind(
                    k,
                    KIND_TET_VOLUME,
                    |c| k.rest_volume[c],
                    none,
                    &mut constraints,
                );
                greedy(k, n_scene)
            }
            SceneBlock::IsometricBending(k) => {
                let mut factors = Vec::with_capacity(k.q.len());
                for (c, q) in k.q.iter().enumerate() {
                    factors.push(isometric_factor(q).ok_or_else(|| GpuError::Unsupported {
                        what: format!("isometric bending {c}: Q is not g gᵀ"),
                        reason: "the GPU evaluates Bergou's rank-one Q = 3/(A₀+A₁) K Kᵀ",
                    })?);
                }
                let bits = |c: usize| factors[c].map(f32::to_bits);
                push_kind(k, KIND_ISOMETRIC, |_| 0.0, bits, &mut constraints);
                greedy(k, n_scene)
            }
            SceneBlock::NeoHookean(k) => {
                // Dm⁻¹ of element e at rest_base + 9e, column by column, as f32 bits.
                let base = rest_inverse.len() as u32;
                for m in &k.rest_inverse {
                    rest_inverse.extend(m.iter().map(|&v| (v as f32).to_bits()));
                }
                let gamma = (k.gamma() as f32).to_bits();
                let aux = |c: usize| [base + 9 * (c / 2) as u32, gamma, 0, 0];
                let start_len = constraints.len();
                push_kind(k, KIND_NH_HYDROSTATIC, |_| 0.0, aux, &mut constraints);
                for (c, con) in constraints[start_len..].iter_mut().enumerate() {
                    if c % 2 == 1 {
                        con.kind = KIND_NH_DEVIATORIC;
                    }
                }
                greedy(k, n_scene)
            }
        };
        let base = order.len() as u32;
        order.extend(schedule.order.iter().map(|&c| start + c));
        let colours = schedule
            .colours
            .iter()
            .filter(|tasks| !tasks.is_empty())
            .map(|tasks| base + tasks[0].start..base + tasks[tasks.len() - 1].end)
            .collect();
        blocks.push(BlockPlan {
            start,
            len: constraints.len() as u32 - start,
            colours,
        });
    }
    // Stencils in device numbering.
    for (c, con) in constraints.iter_mut().enumerate() {
        let a = arity(con.kind);
        for i in &mut con.idx[..a] {
            let l = local[*i as usize];
            if l == u32::MAX {
                return Err(GpuError::Unsupported {
                    what: format!("constraint {c} on particle {i}, which is not on the device"),
                    reason: "an XPBD block must lie within the particles the XPBD step holds",
                });
            }
            *i = l;
        }
    }
    // CSR: for each particle, the correction slots 4c + k touching it, ascending in c (the
    // CPU's jacobi_scatter order: block by block, constraint by constraint).
    let mut counts = vec![0u32; n + 1];
    for con in &constraints {
        for &i in &con.idx[..arity(con.kind)] {
            counts[i as usize + 1] += 1;
        }
    }
    for i in 0..n {
        counts[i + 1] += counts[i];
    }
    let mut fill = counts.clone();
    let mut slots = vec![0u32; counts[n] as usize];
    for (c, con) in constraints.iter().enumerate() {
        for (k, &i) in con.idx[..arity(con.kind)].iter().enumerate() {
            slots[fill[i as usize] as usize] = 4 * c as u32 + k as u32;
            fill[i as usize] += 1;
        }
    }
    let csr_offsets_base = order.len() as u32;
    let csr_slots_base = csr_offsets_base + counts.len() as u32;
    let rest_base = csr_slots_base + slots.len() as u32;
    for con in &mut constraints {
        if con.kind == KIND_NH_HYDROSTATIC || con.kind == KIND_NH_DEVIATORIC {
            con.aux[0] += rest_base;
        }
    }
    let mut indices = order;
    indices.extend_from_slice(&counts);
    indices.extend_from_slice(&slots);
    indices.extend_from_slice(&rest_inverse);
    let mut colliders = GpuColliders::zeroed();
    let atlas = crate::sdf::SdfAtlas::new(&scene.colliders);
    for (k, c) in scene.colliders.iter().enumerate() {
        colliders.items[k] = pack_collider(c, atlas.offset(k));
    }
    Ok(PackedScene {
        x,
        v,
        force,
        constraints,
        indices,
        csr_offsets_base,
        csr_slots_base,
        blocks,
        colliders,
        n_colliders: scene.colliders.len() as u32,
        sdf: atlas,
    })
}

fn none(_: usize) -> [u32; 4] {
    [0; 4]
}

/// The factor g of a rank-one positive semi-definite `Q = g gᵀ` (Bergou's isometric bending
/// matrix `3/(A₀+A₁) K Kᵀ`, so `g = √(3/(A₀+A₁)) K` up to sign), or `None` when Q is not of
/// that form to 1e-9 of its largest entry. With it `C = √(xᵀQx) = |Σⱼ gⱼ xⱼ|` and
/// `∇ⱼC = gⱼ u/|u|`, `u = Σⱼ gⱼ xⱼ`: the CPU's constraint without forming xᵀQx.
///
/// ```
/// use nalgebra::{Matrix4, Vector4};
/// let g = Vector4::new(1.0, -2.0, 0.5, 0.5);
/// let f = Vector4::from(xpbd_gpu::testing::isometric_factor(&(g * g.transpose())).unwrap().map(f64::from));
/// assert!((f - g).norm() < 1e-6 || (f + g).norm() < 1e-6); // g up to its sign
/// assert!(xpbd_gpu::testing::isometric_factor(&Matrix4::identity()).is_none());
/// ```
pub fn isometric_factor(q: &nalgebra::Matrix4<f64>) -> Option<[f32; 4]> {
    let scale = q.amax();
    if scale == 0.0 {
        return Some([0.0; 4]);
    }
    let (j, d) = (0..4)
        .map(|j| (j, q[(j, j)]))
        .fold((0, f64::MIN), |a, b| if b.1 > a.1 { b } else { a });
    if d.is_nan() || d <= 0.0 {
        return None;
    }
    let g = q.column(j) / d.sqrt();
    ((q - g * g.transpose()).amax() <= 1e-9 * scale).then(|| g.map(|v| v as f32).into())
}

fn greedy<K: ConstraintKind<3>>(kind: &K, n_particles: usize) -> Schedule {
    // One task per colour: the GPU runs a whole colour per dispatch.
    Schedule::greedy(kind.len(), n_particles, |c| kind.stencil(c), 1 << 30)
}

/// Stencil size of a kind tag.
pub fn arity(kind: u32) -> usize {
    if kind == KIND_DISTANCE { 2 } else { 4 }
}

/// The packed form of a collider for a step of `dt`: at its pose at the end of the step, with
/// its displacement over the step (`motion`), μ_k and e; a plane's offset raised by
/// `plane_radius` (the XPBI step folds the contact radius into it); a signed-distance grid's
/// nodes start at node `sdf_offset` of the step's atlas ([`crate::sdf::SdfAtlas`]).
pub(crate) fn pack_kinematic(
    c: &KinematicCollider,
    dt: f64,
    plane_radius: f64,
    sdf_offset: u32,
) -> GpuCollider {
    let d = c.velocity * dt;
    let shape = match c.shape.translated(&d) {
        SceneCollider::Plane {
            normal,
            offset,
            friction,
        } => SceneCollider::Plane {
            normal,
            offset: offset + plane_radius,
            friction,
        },
        other => other,
    };
    let mut o = pack_collider(&shape, sdf_offset);
    o.kinetic_friction = c.kinetic_friction as f32;
    o.motion = [d.x as f32, d.y as f32, d.z as f32, 0.0];
    o.restitution = c.restitution as f32;
    o
}

/// The packed form of a collider (`struct Collider` of `colliders.wgsl`); a signed-distance
/// grid's nodes start at node `sdf_offset` of the step's atlas.
pub(crate) fn pack_collider(c: &SceneCollider, sdf_offset: u32) -> GpuCollider {
    let mut g = GpuCollider::zeroed();
    g.friction = c.friction() as f32;
    g.kinetic_friction = g.friction;
    let columns =
        |r: &nalgebra::Matrix3<f64>| [0, 1, 2].map(|k| f32x4(&r.column(k).into_owned(), 0.0));
    match c {
        &SceneCollider::Plane { normal, offset, .. } => {
            g.shape = f32x4(&normal.normalize(), offset);
            g.kind = 0;
        }
        &SceneCollider::Sphere { centre, radius, .. } => {
            g.shape = f32x4(&centre, radius);
            g.kind = 1;
        }
        &SceneCollider::Box {
            centre,
            rotation,
            half_extents,
            ..
        } => {
            g.shape = f32x4(&centre, 0.0);
            g.kind = 2;
            g.rotation = columns(&rotation);
            g.dims = f32x4(&half_extents, 0.0);
        }
        &SceneCollider::Capsule {
            centre,
            rotation,
            half_length,
            radius,
            ..
        } => {
            g.shape = f32x4(&centre, 0.0);
            g.kind = 3;
            g.rotation = columns(&rotation);
            g.dims = [half_length as f32, radius as f32, 0.0, 0.0];
        }
        SceneCollider::Sdf {
            centre,
            rotation,
            grid,
            ..
        } => {
            // The grid's node spacing in shape.w, its origin (local frame) in the rotation
            // columns' w, its node counts and first node in dims (as u32 bits).
            g.shape = f32x4(centre, grid.cell_size());
            g.kind = 4;
            let origin = grid.origin();
            g.rotation = [0, 1, 2].map(|k| f32x4(&rotation.column(k).into_owned(), origin[k]));
            let [nx, ny, nz] = grid.dims().map(|n| n as u32);
            g.dims = [nx, ny, nz, sdf_offset].map(f32::from_bits);
        }
    }
    g
}

/// The storage buffers of a packed scene with their sizes in bytes.
pub fn storage_buffer_sizes(p: &PackedScene, substeps: usize) -> [(&'static str, u64); 10] {
    let n = p.x.len() as u64;
    let nc = p.constraints.len() as u64;
    [
        ("x", 16 * n),
        ("x_prev", 16 * n),
        ("v", 16 * n),
        ("force", 16 * n),
        ("contact", 32 * n),
        ("constraints", 48 * nc),
        ("lambda", 4 * nc),
        ("corrections", 64 * nc),
        ("indices", 4 * p.indices.len() as u64),
        ("faults", 8 * substeps as u64),
    ]
}

/// Checks every storage buffer against `max_storage_buffer_binding_size` and
/// `max_buffer_size`.
///
/// ```
/// use xpbd_core::builders::ClothGrid;
/// use xpbd_gpu::GpuError;
/// use xpbd_gpu::testing::{Scene, SceneBlock, check_limits, pack};
/// let cloth = ClothGrid::<3> { nx: 8, ny: 8, ..ClothGrid::default() }.build().unwrap();
/// let scene = Scene::new(cloth.particles, Default::default()).with_block(SceneBlock::Distance(cloth.stretch));
/// let packed = pack(&scene).unwrap();
/// let tiny = wgpu::Limits { max_storage_buffer_binding_size: 512, ..wgpu::Limits::default() };
/// assert!(matches!(check_limits(&packed, 10, &tiny), Err(GpuError::BufferTooLarge { .. })));
/// assert!(check_limits(&packed, 10, &wgpu::Limits::default()).is_ok());
/// ```
pub fn check_limits(
    p: &PackedScene,
    substeps: usize,
    limits: &wgpu::Limits,
) -> Result<(), GpuError> {
    for (buffer, bytes) in storage_buffer_sizes(p, substeps) {
        let checks = [
            (
                limits.max_storage_buffer_binding_size,
                "max_storage_buffer_binding_size",
            ),
            (limits.max_buffer_size, "max_buffer_size"),
        ];
        for (limit, limit_name) in checks {
            if bytes > limit {
                return Err(GpuError::BufferTooLarge {
                    buffer,
                    bytes,
                    limit,
                    limit_name,
                });
            }
        }
    }
    Ok(())
}
