//! Contacts between bodies on the GPU: the core's [`BodyContacts`] (particles of two bodies,
//! `C = |x_p − x_q| − (r_p + r_q) ≥ 0`) and [`PointTriangleContacts`] (a body's particles
//! against a cloth's triangles, `C = n̂·(x_p − Σ βᵢ xᵢ) − d ≥ 0`), with their Coulomb friction,
//! projected in every iteration after the material blocks, as on the CPU
//! (`shaders/bodies.wgsl` has the maths).
//!
//! The candidates are the CPU's own: the GPU world runs the blocks' generation on the host at
//! the start of each step (they are generated once per step, `ContactGeneration::PerStep`, on
//! the state the world reads back after every step) and uploads them here, sorted by the
//! CPU's greedy colouring, so the device projects the same contacts in the same order. A
//! stencil entry names a particle of the XPBD bodies' buffers or of one of up to
//! [`MAX_CONTINUA`] continua's ([`ParticleSlots`]).

use bytemuck::{Pod, Zeroable};
use xpbd_core::contact::{BodyContacts, PointTriangleContacts};
use xpbd_core::schedule::Schedule;

use crate::xpbi_device::{check_binding, storage};
use crate::{GpuContext, GpuError};

/// Continua whose particles the body contacts reach (the device stencil has two bits for the
/// particle set: the XPBD bodies or one of these).
pub const MAX_CONTINUA: usize = 3;

/// Where a device stencil entry's particle set starts (bits 30–31).
const SET_SHIFT: u32 = 30;

/// Where every particle of a scene lives on the device: `slot[i]` holds in bits 30–31 its
/// set (0: the XPBD bodies' buffers, k: continuum k − 1) and in the other bits its index in
/// that set's buffers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParticleSlots {
    /// Per scene particle.
    pub slot: Vec<u32>,
}

impl ParticleSlots {
    /// The XPBD bodies hold `xpbd` (scene indices, in device order) and continuum k holds
    /// `continua[k]`; every scene particle of `n` must be in exactly one of them.
    pub fn new(n: usize, xpbd: &[u32], continua: &[&[u32]]) -> Result<Self, GpuError> {
        if continua.len() > MAX_CONTINUA || n >= 1 << SET_SHIFT {
            return Err(GpuError::Unsupported {
                what: format!("{} continua of {n} particles", continua.len()),
                reason: "body contacts reach at most 3 continua of fewer than 2^30 particles",
            });
        }
        let mut slot = vec![u32::MAX; n];
        let sets = std::iter::once(xpbd).chain(continua.iter().copied());
        let entries = sets.enumerate().flat_map(|(set, members)| {
            (members.iter().enumerate())
                .map(move |(k, &g)| (g, k as u32 | (set as u32) << SET_SHIFT))
        });
        for (g, s) in entries {
            match slot.get_mut(g as usize) {
                Some(e) if *e == u32::MAX => *e = s,
                _ => {
                    return Err(GpuError::Unsupported {
                        what: format!("particle {g} placed twice or out of range"),
                        reason: "every particle is in the XPBD bodies' or the continuum's buffers",
                    });
                }
            }
        }
        if let Some(i) = slot.iter().position(|&s| s == u32::MAX) {
            return Err(GpuError::Unsupported {
                what: format!("particle {i} in no device buffer"),
                reason: "every particle is in the XPBD bodies' or the continuum's buffers",
            });
        }
        Ok(Self { slot })
    }
}

/// `struct Contact` of `bodies.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct GpuBodyContact {
    /// Stencil in device slots ([`ParticleSlots`]); unused entries 0.
    pub idx: [u32; 4],
    /// n̂ of a point–triangle contact (xyz) and the contact distance (w).
    pub normal: [f32; 4],
    /// β of a point–triangle contact.
    pub weights: [f32; 4],
    /// μ_s.
    pub mu_s: f32,
    /// μ_k.
    pub mu_k: f32,
    /// 2 (pair) or 4 (point and triangle).
    pub arity: u32,
    /// Padding.
    pub pad: u32,
}

/// `struct Slot` of `bodies.wgsl` (a range of the contact array; uniform, dynamic offset).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
struct GpuSlot {
    start: u32,
    count: u32,
    pad: [u32; 2],
}

/// The touching blocks' current candidates, packed for the device: contacts block after
/// block, each block's in its colour order, with the ranges to dispatch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PackedContacts {
    /// All contacts.
    pub contacts: Vec<GpuBodyContact>,
    /// Per block, its colours (coloured sweep) or its whole range in index order (sequential
    /// Gauss-Seidel), as (start, count).
    pub ranges: Vec<Vec<(u32, u32)>>,
}

impl PackedContacts {
    /// Appends a block of contacts (in the block's index order, scene numbering); coloured
    /// by the CPU's greedy colouring of a coloured sweep (`coloured`), else kept in index
    /// order for a sequential sweep.
    fn push_block(
        &mut self,
        contacts: Vec<GpuBodyContact>,
        n_particles: usize,
        slots: &ParticleSlots,
        coloured: bool,
    ) {
        let base = self.contacts.len() as u32;
        let mut block_ranges = Vec::new();
        if coloured {
            let stencils: Vec<[u32; 4]> = contacts.iter().map(|c| c.idx).collect();
            let arity = |c: usize| contacts[c].arity as usize;
            let schedule = Schedule::greedy(
                contacts.len(),
                n_particles,
                |c| &stencils[c][..arity(c)],
                1 << 30,
            );
            for tasks in schedule.colours.iter().filter(|t| !t.is_empty()) {
                let (a, b) = (tasks[0].start, tasks[tasks.len() - 1].end);
                block_ranges.push((base + a, b - a));
            }
            self.contacts
                .extend(schedule.order.iter().map(|&c| contacts[c as usize]));
        } else {
            block_ranges.push((base, contacts.len() as u32));
            self.contacts.extend_from_slice(&contacts);
        }
        let start = base as usize;
        for c in &mut self.contacts[start..] {
            for e in &mut c.idx[..c.arity as usize] {
                *e = slots.slot[*e as usize];
            }
        }
        self.ranges.push(block_ranges);
    }

    /// A body-contact block's pairs.
    pub fn push_pairs(
        &mut self,
        kind: &BodyContacts<3>,
        n_particles: usize,
        slots: &ParticleSlots,
        coloured: bool,
    ) {
        let contacts = (kind.pairs().iter().zip(kind.contact_distances()))
            .map(|(&[p, q], &rest)| {
                let body = |i: u32| kind.body_of(i as usize).unwrap_or(0);
                let f = kind.friction_between(body(p), body(q)).unwrap_or_default();
                GpuBodyContact {
                    idx: [p, q, 0, 0],
                    normal: [0.0, 0.0, 0.0, rest as f32],
                    weights: [0.0; 4],
                    mu_s: f.static_coefficient as f32,
                    mu_k: f.kinetic_coefficient as f32,
                    arity: 2,
                    pad: 0,
                }
            })
            .collect();
        self.push_block(contacts, n_particles, slots, coloured);
    }

    /// A point–triangle block's contacts.
    pub fn push_triangles(
        &mut self,
        kind: &PointTriangleContacts,
        n_particles: usize,
        slots: &ParticleSlots,
        coloured: bool,
    ) {
        let f = kind.friction();
        let d = kind.distance() as f32;
        let contacts = (kind
            .contacts()
            .iter()
            .zip(kind.weights())
            .zip(kind.normals()))
        .map(|((&idx, b), n)| GpuBodyContact {
            idx,
            normal: [n.x as f32, n.y as f32, n.z as f32, d],
            weights: [b[0] as f32, b[1] as f32, b[2] as f32, 0.0],
            mu_s: f.static_coefficient as f32,
            mu_k: f.kinetic_coefficient as f32,
            arity: 4,
            pad: 0,
        })
        .collect();
        self.push_block(contacts, n_particles, slots, coloured);
    }
}

/// The body contacts of a GPU world on the device (module docs).
#[derive(Debug)]
pub(crate) struct GpuBodyContacts {
    layout: wgpu::BindGroupLayout,
    reset: wgpu::ComputePipeline,
    colour: wgpu::ComputePipeline,
    sequential: wgpu::ComputePipeline,
    /// XPBD x, x_prev, then xn, u, pinfo of each continuum (placeholders where a set is
    /// absent).
    particles: Vec<wgpu::Buffer>,
    contacts: wgpu::Buffer,
    lam_tau: wgpu::Buffer,
    capacity: usize,
    slots: wgpu::Buffer,
    slot_capacity: usize,
    stride: u64,
    group: Option<wgpu::BindGroup>,
    /// Dispatches of an iteration: (slot, threads); the reset's slot is the last.
    dispatches: Vec<(u32, u32)>,
    reset_slot: (u32, u32),
    sequential_sweep: bool,
}

impl GpuBodyContacts {
    /// Kernels and (empty) buffers over the XPBD bodies' `x`, `x_prev` (`None` without XPBD
    /// bodies) and each continuum's `xn`, `dsp`, `pinfo` (at most [`MAX_CONTINUA`]).
    pub(crate) fn new(
        ctx: &GpuContext,
        xpbd: Option<(&wgpu::Buffer, &wgpu::Buffer)>,
        continua: &[(&wgpu::Buffer, &wgpu::Buffer, &wgpu::Buffer)],
        sequential_sweep: bool,
    ) -> Result<Self, GpuError> {
        if continua.len() > MAX_CONTINUA {
            return Err(GpuError::Unsupported {
                what: format!("{} continua", continua.len()),
                reason: "body contacts reach at most 3 continua",
            });
        }
        let device = ctx.device();
        ctx.scoped(|| {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("bodies.wgsl"),
                source: wgpu::ShaderSource::Wgsl(crate::shaders::BODIES_WGSL.into()),
            });
            let buffer = |binding: u32, ty: wgpu::BufferBindingType, dynamic: bool| {
                wgpu::BindGroupLayoutEntry {
                    binding,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty,
                        has_dynamic_offset: dynamic,
                        min_binding_size: None,
                    },
                    count: None,
                }
            };
            let mut entries = vec![buffer(0, wgpu::BufferBindingType::Uniform, true)];
            for b in 1..=13 {
                let read_only = b == 3;
                entries.push(buffer(
                    b,
                    wgpu::BufferBindingType::Storage { read_only },
                    false,
                ));
            }
            let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("bodies"),
                entries: &entries,
            });
            let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("bodies"),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            });
            let make = |entry: &str| {
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry),
                    layout: Some(&pl),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    cache: None,
                })
            };
            let placeholder = |label| storage(device, label, 16);
            let mut particles = match xpbd {
                Some((a, b)) => vec![a.clone(), b.clone()],
                None => vec![placeholder("no x"), placeholder("no x_prev")],
            };
            for k in 0..MAX_CONTINUA {
                match continua.get(k) {
                    Some((a, b, c)) => particles.extend([(*a).clone(), (*b).clone(), (*c).clone()]),
                    None => particles.extend([
                        placeholder("no xn"),
                        placeholder("no dsp"),
                        placeholder("no pinfo"),
                    ]),
                }
            }
            let stride = (device.limits().min_uniform_buffer_offset_alignment as u64)
                .max(std::mem::size_of::<GpuSlot>() as u64);
            Self {
                reset: make("reset_contacts"),
                colour: make("solve_contact_colour"),
                sequential: make("solve_contacts_sequential"),
                layout,
                particles,
                contacts: storage(device, "body contacts", 64),
                lam_tau: storage(device, "body contact lambda tau", 16),
                capacity: 1,
                slots: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("body contact slots"),
                    size: stride,
                    usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }),
                slot_capacity: 1,
                stride,
                group: None,
                dispatches: Vec::new(),
                reset_slot: (0, 0),
                sequential_sweep,
            }
        })
    }

    /// Uploads the candidates of a step (replacing the last step's).
    pub(crate) fn upload(
        &mut self,
        ctx: &GpuContext,
        packed: &PackedContacts,
    ) -> Result<(), GpuError> {
        let n = packed.contacts.len();
        let device = ctx.device();
        if n > self.capacity {
            let cap = n + n / 2 + 16;
            check_binding(ctx, "body contacts", 64 * cap as u64)?;
            let (contacts, lam_tau) = ctx.scoped(|| {
                (
                    storage(device, "body contacts", 64 * cap as u64),
                    storage(device, "body contact lambda tau", 8 * cap as u64),
                )
            })?;
            self.contacts = contacts;
            self.lam_tau = lam_tau;
            self.capacity = cap;
            self.group = None;
        }
        let mut slots: Vec<GpuSlot> = Vec::new();
        self.dispatches.clear();
        for ranges in &packed.ranges {
            for &(start, count) in ranges.iter().filter(|r| r.1 > 0) {
                let threads = if self.sequential_sweep { 1 } else { count };
                self.dispatches.push((slots.len() as u32, threads));
                slots.push(GpuSlot {
                    start,
                    count,
                    pad: [0; 2],
                });
            }
        }
        self.reset_slot = (slots.len() as u32, n as u32);
        slots.push(GpuSlot {
            start: 0,
            count: n as u32,
            pad: [0; 2],
        });
        if slots.len() > self.slot_capacity {
            let cap = slots.len() + slots.len() / 2 + 4;
            self.slots = ctx.scoped(|| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("body contact slots"),
                    size: cap as u64 * self.stride,
                    usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            })?;
            self.slot_capacity = cap;
            self.group = None;
        }
        let mut bytes = vec![0u8; slots.len() * self.stride as usize];
        for (k, s) in slots.iter().enumerate() {
            let at = k * self.stride as usize;
            bytes[at..at + 16].copy_from_slice(bytemuck::bytes_of(s));
        }
        let q = ctx.queue();
        ctx.scoped(|| {
            q.write_buffer(&self.slots, 0, &bytes);
            if n > 0 {
                q.write_buffer(&self.contacts, 0, bytemuck::cast_slice(&packed.contacts));
            }
        })?;
        if self.group.is_none() {
            let (xpbd, continua) = self.particles.split_at(2);
            let mut buffers: Vec<(u32, &wgpu::Buffer)> = vec![
                (1, &xpbd[0]),
                (2, &xpbd[1]),
                (3, &self.contacts),
                (4, &self.lam_tau),
            ];
            buffers.extend((5u32..).zip(continua));
            let mut entries = vec![wgpu::BindGroupEntry {
                // The slot uniform with a dynamic offset: one Slot wide.
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &self.slots,
                    offset: 0,
                    size: wgpu::BufferSize::new(std::mem::size_of::<GpuSlot>() as u64),
                }),
            }];
            entries.extend(buffers.iter().map(|&(binding, b)| wgpu::BindGroupEntry {
                binding,
                resource: b.as_entire_binding(),
            }));
            let group = ctx.scoped(|| {
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("bodies"),
                    layout: &self.layout,
                    entries: &entries,
                })
            })?;
            self.group = Some(group);
        }
        Ok(())
    }

    /// Whether there is anything to project this step.
    pub(crate) fn is_empty(&self) -> bool {
        self.reset_slot.1 == 0
    }

    fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, slot: u32, threads: u32) {
        let Some(group) = &self.group else {
            return;
        };
        pass.set_bind_group(0, group, &[slot * self.stride as u32]);
        let (gx, gy) = crate::grid::groups(threads);
        pass.dispatch_workgroups(gx, gy, 1);
    }

    /// λ = τ = 0 (the start of every substep).
    pub(crate) fn encode_reset(&self, enc: &mut wgpu::CommandEncoder) {
        if self.is_empty() {
            return;
        }
        let mut pass = enc.begin_compute_pass(&Default::default());
        pass.set_pipeline(&self.reset);
        self.dispatch(&mut pass, self.reset_slot.0, self.reset_slot.1);
    }

    /// One sweep over every block's contacts, colour after colour.
    pub(crate) fn encode_iteration(&self, enc: &mut wgpu::CommandEncoder) {
        if self.is_empty() {
            return;
        }
        let mut pass = enc.begin_compute_pass(&Default::default());
        pass.set_pipeline(if self.sequential_sweep {
            &self.sequential
        } else {
            &self.colour
        });
        for &(slot, threads) in &self.dispatches {
            self.dispatch(&mut pass, slot, threads);
        }
    }
}
