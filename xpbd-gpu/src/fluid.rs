//! Water on the GPU: the position-based fluid of `xpbi_continuum::fluid::PbfFluid` (density
//! constraints over fluid and solid neighbours, XSPH, vorticity confinement) as one more
//! block of the GPU world's step (`shaders/fluid.wgsl` has the maths).
//!
//! The fluid's particles live in the XPBD bodies' buffers (prediction, colliders and the
//! velocity update are theirs); its solid neighbours are the particles of every other body,
//! in whichever set they live ([`crate::bodies::ParticleSlots`]), and the density projection
//! corrects them too (two-way coupling). Each substep, before the prediction, the fluid and
//! solid particles' positions are gathered and the neighbour grid is built on the device with
//! the XPBI continuum's kernels (`grid.wgsl`: cell H, origin at the bounding box's minimum,
//! lists in the CPU's order), which costs two host round trips (the bounding box, the list
//! length); the constraints are then projected in the CPU's 3³ cell colours of that grid.

use bytemuck::{Pod, Zeroable};
use xpbi_continuum::fluid::PbfFluid;

mod pipelines;
mod search;

use pipelines::{GridPipes, make_pipes};

use crate::bodies::{MAX_CONTINUA, ParticleSlots};
use crate::grid::{GridParams, ScanParams, groups};
use crate::world::Phase;
use crate::xpbi_device::{check_binding, storage};
use crate::xpbi_layout::{COLOURS, GpuColourParams, storage_bytes};
use crate::{GpuContext, GpuError};

const FLAG_XSPH: u32 = 1;
const FLAG_VORTICITY: u32 = 2;

/// `struct FluidParams` of `fluid.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
struct GpuFluidParams {
    n_all: u32,
    n_fluid: u32,
    flags: u32,
    pad0: u32,
    support: f32,
    kernel_scale: f32,
    alpha_tilde: f32,
    xsph: f32,
    confinement: f32,
    inv_pressure_factor: f32,
    pad1: [u32; 2],
}

/// The fluid's entry points, in the order of [`GpuFluid::pipes`].
const ENTRY_POINTS: [&str; 6] = [
    "fluid_gather",
    "fluid_reset",
    "fluid_solve",
    "fluid_vorticity",
    "fluid_smooth",
    "fluid_apply",
];

/// Storage buffers of `fluid.wgsl`'s group 0.
const STORAGE_BUFFERS: u32 = 21;

/// One fluid of a GPU world on the device (module docs).
#[derive(Debug)]
pub(crate) struct GpuFluid {
    n_all: usize,
    n_fluid: usize,
    /// The scene's particle of each fluid particle (local order).
    members: Vec<usize>,
    support: f64,
    spacing: f64,
    compliance: f64,
    xsph_rate: f64,
    confinement: f64,
    params: GpuFluidParams,
    pipes: Vec<wgpu::ComputePipeline>,
    grid: GridPipes,
    layout: wgpu::BindGroupLayout,
    /// XPBD x, x_prev, v, then xn, u, pinfo of each continuum (placeholders where absent).
    particles: Vec<wgpu::Buffer>,
    params_buf: wgpu::Buffer,
    grid_all: wgpu::Buffer,
    grid_fluid: wgpu::Buffer,
    scan_cells: wgpu::Buffer,
    scan_rows: wgpu::Buffer,
    colour_params: wgpu::Buffer,
    colour_stride: u64,
    colour_threads: [u32; COLOURS],
    local: wgpu::Buffer,
    pos: wgpu::Buffer,
    cell_of: wgpu::Buffer,
    counters: wgpu::Buffer,
    cell_start: wgpu::Buffer,
    sorted: wgpu::Buffer,
    nb_offsets: wgpu::Buffer,
    nb_indices: wgpu::Buffer,
    rows: wgpu::Buffer,
    omega: wgpu::Buffer,
    bounds: wgpu::Buffer,
    cell_capacity: usize,
    slot_capacity: usize,
    group: Option<wgpu::BindGroup>,
    colour_group: wgpu::BindGroup,
}

/// The XPBD bodies' `x`, `x_prev`, `v` and each continuum's `xn`, `dsp`, `pinfo`.
pub(crate) struct ParticleBuffers<'a> {
    pub(crate) xpbd: [&'a wgpu::Buffer; 3],
    pub(crate) continua: Vec<[&'a wgpu::Buffer; 3]>,
}

impl GpuFluid {
    /// The fluid `kind` on the device: its members and solid neighbours placed by `slots`
    /// (the members in the XPBD bodies' buffers), over the particle buffers `buffers`.
    pub(crate) fn new(
        ctx: &GpuContext,
        kind: &PbfFluid<3>,
        slots: &ParticleSlots,
        buffers: &ParticleBuffers<'_>,
    ) -> Result<Self, GpuError> {
        check_limits(ctx, buffers)?;
        let members: Vec<usize> = kind.members().iter().map(|&m| m as usize).collect();
        if let Some(&m) = members.iter().find(|&&m| slots.slot[m] >> 30 != 0) {
            return Err(GpuError::Unsupported {
                what: format!("fluid particle {m} in a continuum's buffers"),
                reason: "a fluid's particles live in the XPBD bodies' buffers",
            });
        }
        let local = local_table(kind, slots, &members);
        let (n_all, n_fluid) = (local.len(), members.len());
        if n_fluid == 0 || n_all >= 1 << 30 {
            return Err(GpuError::Unsupported {
                what: format!("a fluid of {n_fluid} particles among {n_all}"),
                reason: "a fluid on the GPU has 1 to 2^30 particles",
            });
        }
        check_binding(ctx, "fluid positions", storage_bytes(n_all, 16))?;
        let s = kind.settings();
        let support = kind.kernel().support();
        let device = ctx.device();
        let (pipes, grid, layout, colour_layout) = ctx.scoped(|| make_pipes(device))?;
        let colour_stride = (device.limits().min_uniform_buffer_offset_alignment as u64)
            .max(std::mem::size_of::<GpuColourParams>() as u64)
            .next_multiple_of(16);
        let particles = particle_set(device, buffers);
        let colour_params =
            ctx.scoped(|| uniform(device, "fluid colours", COLOURS as u64 * colour_stride))?;
        let colour_group = ctx.scoped(|| colour_group(device, &colour_layout, &colour_params))?;
        let params = fluid_params(kind, n_all, n_fluid);
        let fluid = ctx.scoped(|| {
            let sto = |label: &str, len: usize, stride: usize| {
                storage(device, label, storage_bytes(len, stride))
            };
            let uniform = |label: &str, bytes: u64| uniform(device, label, bytes);
            let local_buf = sto("fluid local", n_all, 8);
            ctx.queue()
                .write_buffer(&local_buf, 0, bytemuck::cast_slice(&local));
            let scan_rows = uniform("fluid scan rows", 16);
            ctx.queue().write_buffer(
                &scan_rows,
                0,
                bytemuck::bytes_of(&ScanParams {
                    len: n_fluid as u32,
                    pad: [0; 3],
                }),
            );
            Self {
                n_all,
                n_fluid,
                members,
                support,
                spacing: s.spacing,
                compliance: kind
                    .settings()
                    .bulk_modulus
                    .map_or(0.0, |k| 1.0 / (k * kind.rest_volume())),
                xsph_rate: kind.xsph_rate(),
                confinement: s.vorticity_confinement,
                params,
                pipes,
                grid,
                layout,
                particles,
                params_buf: uniform("fluid params", std::mem::size_of::<GpuFluidParams>() as u64),
                grid_all: uniform("fluid grid", std::mem::size_of::<GridParams>() as u64),
                grid_fluid: uniform("fluid grid rows", std::mem::size_of::<GridParams>() as u64),
                scan_cells: uniform("fluid scan cells", 16),
                scan_rows,
                colour_params,
                colour_stride,
                colour_threads: [0; COLOURS],
                local: local_buf,
                pos: sto("fluid pos", n_all, 16),
                cell_of: sto("fluid cell_of", n_all, 4),
                counters: storage(device, "fluid counters", 16),
                cell_start: storage(device, "fluid cell_start", 16),
                sorted: sto("fluid sorted", n_all, 4),
                nb_offsets: sto("fluid nb_offsets", n_fluid + 1, 4),
                nb_indices: storage(device, "fluid nb_indices", 16),
                rows: sto("fluid rows", n_fluid, 16),
                omega: sto("fluid omega", n_fluid, 16),
                bounds: storage(device, "fluid bounds", 32),
                cell_capacity: 4,
                slot_capacity: 4,
                group: None,
                colour_group,
            }
        })?;
        Ok(fluid)
    }

    /// The scene's particle of each fluid particle, in device order (the order of
    /// [`GpuFluid::multipliers`]).
    pub(crate) fn members(&self) -> &[usize] {
        &self.members
    }

    fn ensure_group(&mut self, ctx: &GpuContext) -> Result<(), GpuError> {
        if self.group.is_some() {
            return Ok(());
        }
        let mut entries: Vec<(u32, &wgpu::Buffer)> = vec![
            (0, &self.params_buf),
            (1, &self.particles[0]),
            (2, &self.particles[1]),
            (3, &self.particles[2]),
            (4, &self.local),
            (5, &self.pos),
            (6, &self.cell_start),
            (7, &self.sorted),
            (8, &self.nb_offsets),
            (9, &self.nb_indices),
            (10, &self.rows),
            (11, &self.omega),
            (12, &self.bounds),
        ];
        entries.extend((13u32..).zip(&self.particles[3..]));
        let group =
            ctx.scoped(|| crate::xpbi_device::bind_entries(ctx.device(), &self.layout, &entries))?;
        self.group = Some(group);
        Ok(())
    }

    /// Dispatches entry point `entry` over `threads` threads.
    fn run(&self, pass: &mut wgpu::ComputePass<'_>, entry: usize, threads: usize) {
        let Some(group) = &self.group else {
            return;
        };
        pass.set_pipeline(&self.pipes[entry]);
        pass.set_bind_group(0, group, &[]);
        pass.set_bind_group(1, &self.colour_group, &[0]);
        let (gx, gy) = groups(threads as u32);
        pass.dispatch_workgroups(gx, gy, 1);
    }

    /// Encodes one phase of the substep [`GpuFluid::prepare`] prepared: λ ← 0 (start), one
    /// coloured sweep of the density constraints (iteration), or vorticity, XSPH and their
    /// velocity increments (end, after the XPBD bodies' velocity update).
    pub(crate) fn encode_phase(&self, enc: &mut wgpu::CommandEncoder, phase: Phase) {
        let mut pass = enc.begin_compute_pass(&Default::default());
        match phase {
            Phase::Start => self.run(&mut pass, 1, self.n_fluid),
            Phase::Iteration => {
                let Some(group) = &self.group else {
                    return;
                };
                pass.set_pipeline(&self.pipes[2]);
                pass.set_bind_group(0, group, &[]);
                for (c, &threads) in self.colour_threads.iter().enumerate() {
                    if threads == 0 {
                        continue;
                    }
                    let offset = (c as u64 * self.colour_stride) as u32;
                    pass.set_bind_group(1, &self.colour_group, &[offset]);
                    let (gx, gy) = groups(threads);
                    pass.dispatch_workgroups(gx, gy, 1);
                }
            }
            Phase::End => {
                if self.params.flags == 0 {
                    return;
                }
                if self.params.flags & FLAG_VORTICITY != 0 {
                    self.run(&mut pass, 3, self.n_fluid);
                }
                self.run(&mut pass, 4, self.n_fluid);
                self.run(&mut pass, 5, self.n_fluid);
            }
        }
    }

    /// The multiplier λ of each fluid particle's constraint in the last substep (device
    /// order, [`GpuFluid::members`]).
    pub(crate) fn multipliers(&self, ctx: &GpuContext) -> Result<Vec<f64>, GpuError> {
        let raw: Vec<[f32; 4]> = bytemuck::pod_collect_to_vec(&ctx.read_buffer(
            &self.rows,
            0,
            16 * self.n_fluid as u64,
        )?);
        Ok(raw.iter().map(|r| r[3] as f64).collect())
    }
}

/// The device limits a fluid needs (`STORAGE_BUFFERS` storage buffers in one stage) and the
/// continua its solid neighbours may live in (at most [`MAX_CONTINUA`]), refused by name.
fn check_limits(ctx: &GpuContext, buffers: &ParticleBuffers<'_>) -> Result<(), GpuError> {
    let limits = ctx.limits();
    if limits.max_storage_buffers_per_shader_stage < STORAGE_BUFFERS {
        return Err(GpuError::LimitTooLow {
            limit: "max_storage_buffers_per_shader_stage",
            available: limits.max_storage_buffers_per_shader_stage as u64,
            required: STORAGE_BUFFERS as u64,
        });
    }
    if buffers.continua.len() > MAX_CONTINUA {
        return Err(GpuError::Unsupported {
            what: format!("{} continua beside a fluid", buffers.continua.len()),
            reason: "a fluid's solid neighbours reach at most 3 continua",
        });
    }
    Ok(())
}

/// Each fluid particle's (`members`, then the solid neighbours') slot and its volume over the
/// kernel sum, `V̂ = V / κ`, as f32 bits: the fluid's local table.
fn local_table(kind: &PbfFluid<3>, slots: &ParticleSlots, members: &[usize]) -> Vec<[u32; 2]> {
    let inv_kappa = 1.0 / kind.kernel_sum();
    let mut local: Vec<[u32; 2]> = members
        .iter()
        .map(|&m| {
            let vhat = (kind.rest_volume() * inv_kappa) as f32;
            [slots.slot[m], vhat.to_bits()]
        })
        .collect();
    for (&b, &vol) in kind.boundary().iter().zip(kind.boundary_volumes()) {
        local.push([slots.slot[b as usize], ((vol * inv_kappa) as f32).to_bits()]);
    }
    local
}

/// A uniform buffer of `bytes` bytes (rounded up to 16).
fn uniform(device: &wgpu::Device, label: &str, bytes: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes.next_multiple_of(16),
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// The particle buffers the fluid binds: the XPBD bodies' `x`, `x_prev`, `v`, then each of
/// [`MAX_CONTINUA`] continua's `xn`, `dsp`, `pinfo` (placeholders where absent).
fn particle_set(device: &wgpu::Device, buffers: &ParticleBuffers<'_>) -> Vec<wgpu::Buffer> {
    let placeholder = |label| storage(device, label, 16);
    let mut particles: Vec<wgpu::Buffer> = buffers.xpbd.iter().map(|&b| b.clone()).collect();
    for k in 0..MAX_CONTINUA {
        match buffers.continua.get(k) {
            Some(set) => particles.extend(set.iter().map(|&b| b.clone())),
            None => particles.extend([
                placeholder("no xn"),
                placeholder("no dsp"),
                placeholder("no pinfo"),
            ]),
        }
    }
    particles
}

/// The bind group of the colour uniform (one colour's parameters, at a dynamic offset).
fn colour_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    colour_params: &wgpu::Buffer,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("fluid colours"),
        layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: colour_params,
                offset: 0,
                size: wgpu::BufferSize::new(std::mem::size_of::<GpuColourParams>() as u64),
            }),
        }],
    })
}

/// The fluid's parameter uniform with its per-substep fields (α̃, XSPH, confinement) at 0.
fn fluid_params(kind: &PbfFluid<3>, n_all: usize, n_fluid: usize) -> GpuFluidParams {
    let flags = if kind.xsph_rate() > 0.0 { FLAG_XSPH } else { 0 }
        | if kind.settings().vorticity_confinement > 0.0 {
            FLAG_VORTICITY
        } else {
            0
        };
    GpuFluidParams {
        n_all: n_all as u32,
        n_fluid: n_fluid as u32,
        flags,
        pad0: 0,
        support: kind.kernel().support() as f32,
        kernel_scale: kind.kernel().scale() as f32,
        alpha_tilde: 0.0,
        xsph: 0.0,
        confinement: 0.0,
        inv_pressure_factor: (1.0 / kind.pressure_factor()) as f32,
        pad1: [0; 2],
    }
}
