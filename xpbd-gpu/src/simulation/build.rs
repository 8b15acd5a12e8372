//! Building a [`GpuSimulation`]: the scene packed and checked against the device limits, the
//! dispatch slots of every sweep, the buffers uploaded and the bind groups.

use std::sync::Arc;

use wgpu::util::DeviceExt;

use super::{Buffers, GpuSimulation, Slots};
use crate::context::GpuContext;
use crate::layout::{GpuDispatch, GpuParams, PackedScene, check_limits, pack_members};
use crate::pipelines::{Layouts, Pipelines};
use crate::{GpuError, KinematicCollider, Scene};

impl GpuSimulation {
    /// [`GpuSimulation::new`] holding only the particles `members` of the scene (ascending
    /// indices; device particle k is `members[k]`, see [`crate::layout::pack_members`]): the
    /// GPU world's XPBD bodies beside a continuum that lives in its own buffers.
    pub fn with_members(
        ctx: Arc<GpuContext>,
        scene: &Scene,
        members: Option<&[u32]>,
    ) -> Result<Self, GpuError> {
        let packed = pack_members(scene, members)?;
        let settings = scene.settings.clone();
        if settings.diagnostics.residuals || settings.diagnostics.energies {
            return Err(GpuError::Unsupported {
                what: "diagnostics.residuals / diagnostics.energies".into(),
                reason: "download the state and evaluate on the CPU",
            });
        }
        check_limits(&packed, settings.substeps, ctx.limits())?;
        let device = ctx.device();
        let layouts = Layouts::new(device);
        let pipelines = Pipelines::new(&ctx, &layouts)?;
        let n_particles = packed.x.len() as u32;
        let n_constraints = packed.constraints.len() as u32;
        let (slots, entries) =
            dispatch_slots(&packed, settings.substeps, n_particles, n_constraints);
        let stride = ctx
            .limits()
            .min_uniform_buffer_offset_alignment
            .max(std::mem::size_of::<GpuDispatch>() as u32);
        let dispatch_bytes = dispatch_bytes(&entries, stride);
        let sdf_view = ctx.scoped(|| packed.sdf.upload(device, ctx.queue()))??;
        let (buffers, bind_groups) = ctx.scoped(|| {
            upload(
                device,
                &layouts,
                &packed,
                settings.substeps,
                &dispatch_bytes,
                &sdf_view,
            )
        })?;
        Ok(Self {
            ctx,
            settings,
            n_particles,
            n_constraints,
            n_colliders: packed.n_colliders,
            colliders: scene
                .colliders
                .iter()
                .map(|c| KinematicCollider::fixed(c.clone()))
                .collect(),
            contact_acceleration: xpbd_core::contact::ContactOptions::default().acceleration,
            packed_dt: None,
            contact_radius: scene.contact_radius as f32,
            csr_offsets_base: packed.csr_offsets_base,
            csr_slots_base: packed.csr_slots_base,
            blocks: packed.blocks,
            buffers,
            pipelines,
            layouts,
            sdf: packed.sdf,
            bind_groups,
            slot_stride: stride,
            slots,
            written_h: None,
            time: 0.0,
        })
    }
}

/// The dispatch slots of every sweep (each substep's particles, all constraints, each colour
/// of each block, each block) and the uniform entries they index.
fn dispatch_slots(
    packed: &PackedScene,
    substeps: usize,
    n_particles: u32,
    n_constraints: u32,
) -> (Slots, Vec<GpuDispatch>) {
    let mut entries = Vec::new();
    let mut slot = |start: u32, count: u32, substep: u32| {
        entries.push(GpuDispatch {
            start,
            count,
            substep,
            pad: 0,
        });
        entries.len() as u32 - 1
    };
    let mut slots = Slots {
        particles: (0..substeps as u32)
            .map(|s| slot(0, n_particles, s))
            .collect(),
        constraints: slot(0, n_constraints, 0),
        ..Slots::default()
    };
    for b in &packed.blocks {
        slots.colours.push(
            b.colours
                .iter()
                .map(|r| (slot(r.start, r.end - r.start, 0), r.end - r.start))
                .collect(),
        );
        slots.blocks.push(slot(b.start, b.len, 0));
    }
    (slots, entries)
}

/// The dispatch uniform's bytes: one slot per `stride` bytes (the device's
/// `min_uniform_buffer_offset_alignment`, 256 bytes on most), as its dynamic offsets need.
fn dispatch_bytes(entries: &[GpuDispatch], stride: u32) -> Vec<u8> {
    let mut dispatch_bytes = vec![0u8; entries.len() * stride as usize];
    for (i, e) in entries.iter().enumerate() {
        let at = i * stride as usize;
        dispatch_bytes[at..at + 16].copy_from_slice(bytemuck::bytes_of(e));
    }
    dispatch_bytes
}

/// Uploads the packed scene into its buffers and binds them: groups 0 (uniforms), 1
/// (particles) and 2 (constraints).
fn upload(
    device: &wgpu::Device,
    layouts: &Layouts,
    packed: &PackedScene,
    substeps: usize,
    dispatch_bytes: &[u8],
    sdf_view: &wgpu::TextureView,
) -> (Buffers, [wgpu::BindGroup; 3]) {
    let init = |label: &str, bytes: &[u8], usage: wgpu::BufferUsages| {
        // Zero-sized bindings are invalid: pad every buffer to at least 64 bytes.
        let mut data = bytes.to_vec();
        data.resize(data.len().max(64), 0);
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: &data,
            usage,
        })
    };
    use wgpu::BufferUsages as U;
    let state = U::STORAGE | U::COPY_SRC | U::COPY_DST;
    let params = init(
        "params",
        &[0u8; std::mem::size_of::<GpuParams>()],
        U::UNIFORM | U::COPY_DST,
    );
    let dispatch = init("dispatch", dispatch_bytes, U::UNIFORM);
    let colliders = init(
        "colliders",
        bytemuck::bytes_of(&packed.colliders),
        U::UNIFORM | U::COPY_DST,
    );
    let x = init("x", bytemuck::cast_slice(&packed.x), state);
    let x_prev = init("x_prev", bytemuck::cast_slice(&packed.x), state);
    let v = init("v", bytemuck::cast_slice(&packed.v), state);
    let force = init("force", bytemuck::cast_slice(&packed.force), U::STORAGE);
    let contact = init("contact", &vec![0u8; 80 * packed.x.len()], U::STORAGE);
    let constraints = init(
        "constraints",
        bytemuck::cast_slice(&packed.constraints),
        U::STORAGE,
    );
    let lambda = init(
        "lambda",
        &vec![0u8; 4 * packed.constraints.len()],
        U::STORAGE,
    );
    let corrections = init(
        "corrections",
        &vec![0u8; 64 * packed.constraints.len()],
        U::STORAGE,
    );
    let indices = init("indices", bytemuck::cast_slice(&packed.indices), U::STORAGE);
    let faults = init("faults", &vec![0xffu8; 8 * substeps], state);
    let backup_x = init("backup_x", bytemuck::cast_slice(&packed.x), state);
    let backup_v = init("backup_v", bytemuck::cast_slice(&packed.v), state);
    let uniforms = uniforms_group(
        device,
        &layouts.uniforms,
        [&params, &dispatch, &colliders],
        sdf_view,
    );
    let particles = bind(
        device,
        "particles",
        &layouts.particles,
        &[&x, &x_prev, &v, &force, &contact],
    );
    let cons = bind(
        device,
        "constraints",
        &layouts.constraints,
        &[&constraints, &lambda, &corrections, &indices, &faults],
    );
    (
        Buffers {
            params,
            dispatch,
            colliders,
            x,
            x_prev,
            v,
            faults,
            backup_x,
            backup_v,
        },
        [uniforms, particles, cons],
    )
}

/// A bind group of `bufs` at bindings 0, 1, 2, …
fn bind(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    bufs: &[&wgpu::Buffer],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> = bufs
        .iter()
        .enumerate()
        .map(|(i, b)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: b.as_entire_binding(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &entries,
    })
}

/// The uniforms group: parameters, the dispatch slots (dynamic offset), the colliders and the
/// signed-distance atlas.
pub(super) fn uniforms_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    [params, dispatch, colliders]: [&wgpu::Buffer; 3],
    sdf: &wgpu::TextureView,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("uniforms"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: params.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: dispatch,
                    offset: 0,
                    size: wgpu::BufferSize::new(16),
                }),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: colliders.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 3,
                resource: wgpu::BindingResource::TextureView(sdf),
            },
        ],
    })
}
