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

/// The grid pipelines (`grid.wgsl`, `scan.wgsl`; automatic layouts).
#[derive(Debug)]
struct GridPipes {
    bin: wgpu::ComputePipeline,
    scatter: wgpu::ComputePipeline,
    sort_cells: wgpu::ComputePipeline,
    count: wgpu::ComputePipeline,
    fill: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
}

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
        let members: Vec<usize> = kind.members().iter().map(|&m| m as usize).collect();
        if let Some(&m) = members.iter().find(|&&m| slots.slot[m] >> 30 != 0) {
            return Err(GpuError::Unsupported {
                what: format!("fluid particle {m} in a continuum's buffers"),
                reason: "a fluid's particles live in the XPBD bodies' buffers",
            });
        }
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
        let uniform = |label: &str, bytes: u64| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.next_multiple_of(16),
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
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
        let colour_params =
            ctx.scoped(|| uniform("fluid colours", COLOURS as u64 * colour_stride))?;
        let colour_group = ctx.scoped(|| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("fluid colours"),
                layout: &colour_layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &colour_params,
                        offset: 0,
                        size: wgpu::BufferSize::new(std::mem::size_of::<GpuColourParams>() as u64),
                    }),
                }],
            })
        })?;
        let flags = if kind.xsph_rate() > 0.0 { FLAG_XSPH } else { 0 }
            | if s.vorticity_confinement > 0.0 {
                FLAG_VORTICITY
            } else {
                0
            };
        let params = GpuFluidParams {
            n_all: n_all as u32,
            n_fluid: n_fluid as u32,
            flags,
            pad0: 0,
            support: support as f32,
            kernel_scale: (21.0 / (2.0 * std::f64::consts::PI) / support.powi(3)) as f32,
            alpha_tilde: 0.0,
            xsph: 0.0,
            confinement: 0.0,
            inv_pressure_factor: (1.0 / kind.pressure_factor()) as f32,
            pad1: [0; 2],
        };
        let fluid = ctx.scoped(|| {
            let sto = |label: &str, len: usize, stride: usize| {
                storage(device, label, storage_bytes(len, stride))
            };
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

    /// The substep of length `h` starts: the uniforms, the gathered positions and their
    /// bounding box (read back), the neighbour grid and lists (their length read back).
    /// Call before the substep's phases are encoded.
    pub(crate) fn prepare(&mut self, ctx: &GpuContext, h: f64) -> Result<(), GpuError> {
        self.params.alpha_tilde = (self.compliance / (h * h)) as f32;
        self.params.xsph = (-(-self.xsph_rate * h).exp_m1()) as f32;
        self.params.confinement = (self.confinement * self.spacing * h) as f32;
        let q = ctx.queue();
        let init: [u32; 8] = [u32::MAX, u32::MAX, u32::MAX, 0, 0, 0, 0, 0];
        ctx.scoped(|| {
            q.write_buffer(&self.params_buf, 0, bytemuck::bytes_of(&self.params));
            q.write_buffer(&self.bounds, 0, bytemuck::cast_slice(&init));
        })?;
        self.ensure_group(ctx)?;
        let device = ctx.device();
        let mut enc = device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            self.run(&mut pass, 0, self.n_all);
        }
        ctx.scoped(|| q.submit([enc.finish()]))?;
        let raw: Vec<u32> = bytemuck::pod_collect_to_vec(&ctx.read_buffer(&self.bounds, 0, 24)?);
        let unkey = |k: u32| {
            let b = if k & 0x8000_0000 != 0 {
                k & 0x7fff_ffff
            } else {
                !k
            };
            f32::from_bits(b) as f64
        };
        let lo: [f64; 3] = core::array::from_fn(|a| unkey(raw[a]));
        let hi: [f64; 3] = core::array::from_fn(|a| unkey(raw[3 + a]));
        if !lo.iter().chain(&hi).all(|c| c.is_finite()) {
            return Err(xpbd_core::StepError::NonFinite {
                particle: 0,
                substep: 0,
                constraint: xpbd_core::error::ConstraintRef::default(),
            }
            .into());
        }
        let (dims, cells) = crate::grid::grid_dims(lo, hi, self.support, self.n_all)?;
        if cells + 1 > self.cell_capacity {
            let cap = 3 * (cells + 1) / 2 + 1;
            check_binding(ctx, "fluid grid cells", storage_bytes(cap, 4))?;
            let (counters, cell_start) = ctx.scoped(|| {
                (
                    storage(device, "fluid counters", storage_bytes(cap, 4)),
                    storage(device, "fluid cell_start", storage_bytes(cap, 4)),
                )
            })?;
            (self.counters, self.cell_start, self.cell_capacity) = (counters, cell_start, cap);
            self.group = None;
            self.ensure_group(ctx)?;
        }
        let grid = |n: usize| GridParams {
            origin_cell: [
                lo[0] as f32,
                lo[1] as f32,
                lo[2] as f32,
                self.support as f32,
            ],
            dims: [dims[0] as u32, dims[1] as u32, dims[2] as u32, cells as u32],
            n_particles: n as u32,
            radius: self.support as f32,
            radius2: (self.support * self.support) as f32,
            pad: 0,
        };
        let (colours, threads) = crate::grid::cell_colours(dims, self.colour_stride as usize);
        self.colour_threads = threads;
        ctx.scoped(|| {
            q.write_buffer(&self.grid_all, 0, bytemuck::bytes_of(&grid(self.n_all)));
            q.write_buffer(&self.grid_fluid, 0, bytemuck::bytes_of(&grid(self.n_fluid)));
            q.write_buffer(
                &self.scan_cells,
                0,
                bytemuck::bytes_of(&ScanParams {
                    len: cells as u32,
                    pad: [0; 3],
                }),
            );
            q.write_buffer(&self.colour_params, 0, &colours);
        })?;
        let g = &self.grid;
        let bind = |pipe: &wgpu::ComputePipeline, entries: &[(u32, &wgpu::Buffer)]| {
            crate::xpbi_device::bind_entries(device, &pipe.get_bind_group_layout(0), entries)
        };
        let groups_grid = ctx.scoped(|| {
            [
                bind(
                    &g.bin,
                    &[
                        (0, &self.grid_all),
                        (1, &self.pos),
                        (2, &self.cell_of),
                        (3, &self.counters),
                    ],
                ),
                bind(&g.scan, &[(0, &self.scan_cells), (1, &self.cell_start)]),
                bind(
                    &g.scatter,
                    &[
                        (0, &self.grid_all),
                        (2, &self.cell_of),
                        (3, &self.counters),
                        (5, &self.sorted),
                    ],
                ),
                bind(
                    &g.sort_cells,
                    &[
                        (0, &self.grid_all),
                        (4, &self.cell_start),
                        (5, &self.sorted),
                    ],
                ),
                bind(
                    &g.count,
                    &[
                        (0, &self.grid_fluid),
                        (1, &self.pos),
                        (4, &self.cell_start),
                        (5, &self.sorted),
                        (6, &self.nb_offsets),
                        (7, &self.nb_indices),
                    ],
                ),
                bind(&g.scan, &[(0, &self.scan_rows), (1, &self.nb_offsets)]),
            ]
        })?;
        let [g_bin, g_scan_cells, g_scatter, g_sort, g_count, g_scan_rows] = &groups_grid;
        let cells_bytes = 4 * (cells as u64 + 1);
        let (ax, ay) = groups(self.n_all as u32);
        let (fx, fy) = groups(self.n_fluid as u32);
        let mut enc = device.create_command_encoder(&Default::default());
        enc.clear_buffer(&self.counters, 0, None);
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&g.bin);
            pass.set_bind_group(0, g_bin, &[]);
            pass.dispatch_workgroups(ax, ay, 1);
        }
        enc.copy_buffer_to_buffer(&self.counters, 0, &self.cell_start, 0, Some(cells_bytes));
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&g.scan);
            pass.set_bind_group(0, g_scan_cells, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        enc.copy_buffer_to_buffer(&self.cell_start, 0, &self.counters, 0, Some(cells_bytes));
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&g.scatter);
            pass.set_bind_group(0, g_scatter, &[]);
            pass.dispatch_workgroups(ax, ay, 1);
            pass.set_pipeline(&g.sort_cells);
            pass.set_bind_group(0, g_sort, &[]);
            let (cx, cy) = groups(cells as u32);
            pass.dispatch_workgroups(cx, cy, 1);
            pass.set_pipeline(&g.count);
            pass.set_bind_group(0, g_count, &[]);
            pass.dispatch_workgroups(fx, fy, 1);
            pass.set_pipeline(&g.scan);
            pass.set_bind_group(0, g_scan_rows, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        ctx.scoped(|| q.submit([enc.finish()]))?;
        let total_raw = ctx.read_buffer(&self.nb_offsets, 4 * self.n_fluid as u64, 4)?;
        let total =
            u32::from_le_bytes([total_raw[0], total_raw[1], total_raw[2], total_raw[3]]) as usize;
        if total > self.slot_capacity {
            let cap = total + total / 4 + 16;
            check_binding(ctx, "fluid neighbour lists", storage_bytes(cap, 4))?;
            self.nb_indices =
                ctx.scoped(|| storage(device, "fluid nb_indices", storage_bytes(cap, 4)))?;
            self.slot_capacity = cap;
            self.group = None;
            self.ensure_group(ctx)?;
        }
        let g = &self.grid;
        let bind = |pipe: &wgpu::ComputePipeline, entries: &[(u32, &wgpu::Buffer)]| {
            crate::xpbi_device::bind_entries(device, &pipe.get_bind_group_layout(0), entries)
        };
        let g_fill = ctx.scoped(|| {
            bind(
                &g.fill,
                &[
                    (0, &self.grid_fluid),
                    (1, &self.pos),
                    (4, &self.cell_start),
                    (5, &self.sorted),
                    (6, &self.nb_offsets),
                    (7, &self.nb_indices),
                ],
            )
        })?;
        let mut enc = device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&g.fill);
            pass.set_bind_group(0, &g_fill, &[]);
            pass.dispatch_workgroups(fx, fy, 1);
        }
        ctx.scoped(|| q.submit([enc.finish()]))?;
        Ok(())
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

#[allow(clippy::type_complexity)]
fn make_pipes(
    device: &wgpu::Device,
) -> (
    Vec<wgpu::ComputePipeline>,
    GridPipes,
    wgpu::BindGroupLayout,
    wgpu::BindGroupLayout,
) {
    let module = |label: &str, src: &str| {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(src.into()),
        })
    };
    let fluid = module("fluid.wgsl", crate::shaders::FLUID_WGSL);
    let grid = module("grid.wgsl", crate::shaders::GRID_WGSL);
    let scan = module("scan.wgsl", crate::shaders::SCAN_WGSL);
    let buffer = |binding: u32, ty: wgpu::BufferBindingType, dynamic: bool, min: u64| {
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: dynamic,
                min_binding_size: wgpu::BufferSize::new(min),
            },
            count: None,
        }
    };
    let mut entries = vec![buffer(0, wgpu::BufferBindingType::Uniform, false, 0)];
    for b in 1..=STORAGE_BUFFERS {
        entries.push(buffer(
            b,
            wgpu::BufferBindingType::Storage { read_only: false },
            false,
            0,
        ));
    }
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("fluid"),
        entries: &entries,
    });
    let colour_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("fluid colour"),
        entries: &[buffer(
            0,
            wgpu::BufferBindingType::Uniform,
            true,
            std::mem::size_of::<GpuColourParams>() as u64,
        )],
    });
    let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("fluid"),
        bind_group_layouts: &[Some(&layout), Some(&colour_layout)],
        immediate_size: 0,
    });
    let make = |m: &wgpu::ShaderModule, layout: Option<&wgpu::PipelineLayout>, entry: &str| {
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout,
            module: m,
            entry_point: Some(entry),
            compilation_options: Default::default(),
            cache: None,
        })
    };
    let pipes = ENTRY_POINTS
        .iter()
        .map(|e| make(&fluid, Some(&pl), e))
        .collect();
    let grid_pipes = GridPipes {
        bin: make(&grid, None, "bin"),
        scatter: make(&grid, None, "scatter"),
        sort_cells: make(&grid, None, "sort_cells"),
        count: make(&grid, None, "count_neighbours"),
        fill: make(&grid, None, "fill_neighbours"),
        scan: make(&scan, None, "exclusive_scan"),
    };
    (pipes, grid_pipes, layout, colour_layout)
}
