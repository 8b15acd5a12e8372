//! The XPBI neighbour search on the GPU: uniform grid by counting sort (histogram, prefix
//! sum, scatter, per-cell index sort) and fixed-radius neighbour lists in CSR
//! (`shaders/grid.wgsl`, `shaders/scan.wgsl`). The result is the same, entry for entry, as
//! `xpbd_core::spatial::{UniformGrid, NeighbourLists}` whenever f32 and f64 put every
//! particle in the same cell and every pair on the same side of the radius.
//!
//! [`crate::xpbi`] runs the same kernels on device-resident positions every step.

use bytemuck::{Pod, Zeroable};
use nalgebra::Vector3;
use wgpu::util::DeviceExt;

use crate::{GpuContext, GpuError};

const WORKGROUP: u32 = 64;
const MAX_GROUPS_PER_DIM: u32 = 65535;

/// `struct GridParams` of `grid.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct GridParams {
    pub(crate) origin_cell: [f32; 4],
    pub(crate) dims: [u32; 4],
    pub(crate) n_particles: u32,
    pub(crate) radius: f32,
    pub(crate) radius2: f32,
    pub(crate) pad: u32,
}

/// `struct ScanParams` of `scan.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct ScanParams {
    pub(crate) len: u32,
    pub(crate) pad: [u32; 3],
}

/// The grid and neighbour lists, read back from the device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuNeighbours {
    /// Cells per axis.
    pub dims: [usize; 3],
    /// Linear cell of each particle (axis 0 fastest).
    pub cell_of: Vec<u32>,
    /// Exclusive prefix sum of the cell counts (cells + 1 entries).
    pub cell_start: Vec<u32>,
    /// Particles by cell, by index inside a cell.
    pub sorted: Vec<u32>,
    /// CSR row offsets of the neighbour lists (particles + 1).
    pub offsets: Vec<u32>,
    /// Neighbour indices.
    pub indices: Vec<u32>,
}

pub(crate) fn groups(count: u32) -> (u32, u32) {
    let g = count.div_ceil(WORKGROUP).max(1);
    if g <= MAX_GROUPS_PER_DIM {
        (g, 1)
    } else {
        (MAX_GROUPS_PER_DIM, g.div_ceil(MAX_GROUPS_PER_DIM))
    }
}

pub(crate) fn read_u32(
    ctx: &GpuContext,
    src: &wgpu::Buffer,
    len: usize,
) -> Result<Vec<u32>, GpuError> {
    Ok(bytemuck::pod_collect_to_vec(&ctx.read_buffer(
        src,
        0,
        4 * len as u64,
    )?))
}

/// Builds the grid (cell width `cell_size`, origin at the bounding-box minimum, as
/// `UniformGrid::build`) and the neighbour lists of radius `radius` on the GPU.
///
/// ```
/// use nalgebra::Vector3;
/// if let Some(ctx) = xpbd_gpu::context_for_test("grid doctest").unwrap() {
///     let x = vec![Vector3::new(0.0, 0.0, 0.0), Vector3::new(0.1, 0.0, 0.0), Vector3::new(0.5, 0.0, 0.0)];
///     let nb = xpbd_gpu::testing::neighbours(&ctx, &x, 0.25, 0.2).unwrap();
///     assert_eq!(nb.indices, vec![1, 0]); // 0 ↔ 1; particle 2 has none
///     assert_eq!(nb.offsets, vec![0, 1, 2, 2]);
/// }
/// ```
pub fn neighbours(
    ctx: &GpuContext,
    positions: &[Vector3<f64>],
    cell_size: f64,
    radius: f64,
) -> Result<GpuNeighbours, GpuError> {
    check_inputs(positions, cell_size, radius)?;
    let n = positions.len();
    let (lo, hi) = bounding_box(positions);
    let (dims, cells) = grid_dims(lo.into(), hi.into(), cell_size, n)?;
    let device = ctx.device();
    let params = GridParams {
        origin_cell: [lo.x as f32, lo.y as f32, lo.z as f32, cell_size as f32],
        dims: [dims[0] as u32, dims[1] as u32, dims[2] as u32, cells as u32],
        n_particles: n as u32,
        radius: radius as f32,
        radius2: (radius * radius) as f32,
        pad: 0,
    };
    let pos: Vec<[f32; 4]> = positions
        .iter()
        .map(|x| [x.x as f32, x.y as f32, x.z as f32, 0.0])
        .collect();
    let (pipes, bufs) = ctx.scoped(|| {
        (
            SearchPipelines::new(device),
            SearchBuffers::new(device, &params, &pos, n, cells),
        )
    })?;
    ctx.scoped(|| count(ctx, &pipes, &bufs, n, cells))?;
    let offsets = read_u32(ctx, &bufs.nb_offsets, n + 1)?;
    let total = offsets[n] as usize;
    let nb_indices = init_buffer(device, "nb_indices", &vec![0u8; 4 * total], RW);
    ctx.scoped(|| {
        let g_fill = bind(
            device,
            &pipes.fill_nb,
            &[
                (0, &bufs.params),
                (1, &bufs.positions),
                (4, &bufs.cell_start),
                (5, &bufs.sorted),
                (6, &bufs.nb_offsets),
                (7, &nb_indices),
            ],
        );
        ctx.queue()
            .submit([dispatch(device, &pipes.fill_nb, &g_fill, n as u32)]);
    })?;
    Ok(GpuNeighbours {
        dims,
        cell_of: read_u32(ctx, &bufs.cell_of, n)?,
        cell_start: read_u32(ctx, &bufs.cell_start, cells + 1)?,
        sorted: read_u32(ctx, &bufs.sorted, n)?,
        offsets,
        indices: read_u32(ctx, &nb_indices, total)?,
    })
}

/// [`neighbours`]' argument checks: a finite, positive cell size and radius and finite
/// positions, each refused by name.
fn check_inputs(positions: &[Vector3<f64>], cell_size: f64, radius: f64) -> Result<(), GpuError> {
    let invalid = |field, value: f64| {
        GpuError::Build(xpbd_core::BuildError::InvalidSetting {
            field,
            value,
            reason: "must be finite and > 0",
        })
    };
    if !(cell_size.is_finite() && cell_size > 0.0) {
        return Err(invalid("cell_size", cell_size));
    }
    if !(radius.is_finite() && radius > 0.0) {
        return Err(invalid("radius", radius));
    }
    if let Some(i) = positions
        .iter()
        .position(|x| !x.iter().all(|c| c.is_finite()))
    {
        return Err(xpbd_core::BuildError::NonFiniteState {
            particle: i,
            field: "position",
        }
        .into());
    }
    Ok(())
}

/// The bounding box of `positions` (both corners at the origin when there are none).
fn bounding_box(positions: &[Vector3<f64>]) -> (Vector3<f64>, Vector3<f64>) {
    if positions.is_empty() {
        return (Vector3::zeros(), Vector3::zeros());
    }
    let mut lo = Vector3::repeat(f64::INFINITY);
    let mut hi = Vector3::repeat(f64::NEG_INFINITY);
    for x in positions {
        lo = lo.inf(x);
        hi = hi.sup(x);
    }
    (lo, hi)
}

/// Usage of the search's read-write buffers.
const RW: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::COPY_SRC)
    .union(wgpu::BufferUsages::COPY_DST);

/// A buffer holding `bytes` (at least 16 bytes: zero-padded).
fn init_buffer(
    device: &wgpu::Device,
    label: &str,
    bytes: &[u8],
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    let mut data = bytes.to_vec();
    data.resize(data.len().max(16), 0);
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: &data,
        usage,
    })
}

/// The search's kernels: `grid.wgsl`'s five entry points and `scan.wgsl`'s scan.
struct SearchPipelines {
    bin: wgpu::ComputePipeline,
    scatter: wgpu::ComputePipeline,
    sort_cells: wgpu::ComputePipeline,
    count_nb: wgpu::ComputePipeline,
    fill_nb: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
}

impl SearchPipelines {
    fn new(device: &wgpu::Device) -> Self {
        let grid_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("grid.wgsl"),
            source: wgpu::ShaderSource::Wgsl(crate::shaders::GRID_WGSL.into()),
        });
        let scan_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("scan.wgsl"),
            source: wgpu::ShaderSource::Wgsl(crate::shaders::SCAN_WGSL.into()),
        });
        let make = |module: &wgpu::ShaderModule, entry: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: None,
                module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        Self {
            bin: make(&grid_module, "bin"),
            scatter: make(&grid_module, "scatter"),
            sort_cells: make(&grid_module, "sort_cells"),
            count_nb: make(&grid_module, "count_neighbours"),
            fill_nb: make(&grid_module, "fill_neighbours"),
            scan: make(&scan_module, "exclusive_scan"),
        }
    }
}

/// The search's buffers up to the neighbour counts (the neighbour indices are sized after
/// the counts are read back).
struct SearchBuffers {
    params: wgpu::Buffer,
    positions: wgpu::Buffer,
    cell_of: wgpu::Buffer,
    counters: wgpu::Buffer,
    cell_start: wgpu::Buffer,
    sorted: wgpu::Buffer,
    nb_offsets: wgpu::Buffer,
    scan_cells: wgpu::Buffer,
    scan_particles: wgpu::Buffer,
}

impl SearchBuffers {
    fn new(
        device: &wgpu::Device,
        params: &GridParams,
        pos: &[[f32; 4]],
        n: usize,
        cells: usize,
    ) -> Self {
        use wgpu::BufferUsages as U;
        let buf = |label: &str, bytes: &[u8], usage: U| init_buffer(device, label, bytes, usage);
        Self {
            params: buf("grid params", bytemuck::bytes_of(params), U::UNIFORM),
            positions: buf("positions", bytemuck::cast_slice(pos), U::STORAGE),
            cell_of: buf("cell_of", &vec![0u8; 4 * n], RW),
            counters: buf("counters", &vec![0u8; 4 * (cells + 1)], RW),
            cell_start: buf("cell_start", &vec![0u8; 4 * (cells + 1)], RW),
            sorted: buf("sorted", &vec![0u8; 4 * n], RW),
            nb_offsets: buf("nb_offsets", &vec![0u8; 4 * (n + 1)], RW),
            scan_cells: buf(
                "scan params cells",
                bytemuck::bytes_of(&ScanParams {
                    len: cells as u32,
                    pad: [0; 3],
                }),
                U::UNIFORM,
            ),
            scan_particles: buf(
                "scan params particles",
                bytemuck::bytes_of(&ScanParams {
                    len: n as u32,
                    pad: [0; 3],
                }),
                U::UNIFORM,
            ),
        }
    }
}

/// A bind group of `pipe` (group 0) with `entries` (binding, buffer). Auto layouts hold only
/// the bindings an entry point uses (pitfall 2): one bind group per pipeline, listing exactly
/// those bindings.
fn bind(
    device: &wgpu::Device,
    pipe: &wgpu::ComputePipeline,
    entries: &[(u32, &wgpu::Buffer)],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> = entries
        .iter()
        .map(|(b, buf)| wgpu::BindGroupEntry {
            binding: *b,
            resource: buf.as_entire_binding(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipe.get_bind_group_layout(0),
        entries: &entries,
    })
}

/// One dispatch of `pipe` over `threads` threads.
fn dispatch(
    device: &wgpu::Device,
    pipe: &wgpu::ComputePipeline,
    group: &wgpu::BindGroup,
    threads: u32,
) -> wgpu::CommandBuffer {
    let mut enc = device.create_command_encoder(&Default::default());
    {
        let mut pass = enc.begin_compute_pass(&Default::default());
        pass.set_pipeline(pipe);
        pass.set_bind_group(0, group, &[]);
        let (gx, gy) = groups(threads);
        pass.dispatch_workgroups(gx, gy, 1);
    }
    enc.finish()
}

/// One single-workgroup scan.
fn dispatch_scan(
    device: &wgpu::Device,
    scan: &wgpu::ComputePipeline,
    group: &wgpu::BindGroup,
) -> wgpu::CommandBuffer {
    let mut enc = device.create_command_encoder(&Default::default());
    {
        let mut pass = enc.begin_compute_pass(&Default::default());
        pass.set_pipeline(scan);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    enc.finish()
}

/// Copies the first `bytes` bytes of `src` to `dst`.
fn copy(
    device: &wgpu::Device,
    src: &wgpu::Buffer,
    dst: &wgpu::Buffer,
    bytes: u64,
) -> wgpu::CommandBuffer {
    let mut enc = device.create_command_encoder(&Default::default());
    enc.copy_buffer_to_buffer(src, 0, dst, 0, Some(bytes));
    enc.finish()
}

/// Submits the search up to the neighbour counts: bin the particles, scan the cell counts,
/// scatter and sort the particles by cell, count each particle's neighbours and scan the
/// counts into the CSR offsets.
fn count(ctx: &GpuContext, pipes: &SearchPipelines, bufs: &SearchBuffers, n: usize, cells: usize) {
    let device = ctx.device();
    let b = bufs;
    let cell_bytes = 4 * (cells as u64 + 1);
    let g_bin = bind(
        device,
        &pipes.bin,
        &[
            (0, &b.params),
            (1, &b.positions),
            (2, &b.cell_of),
            (3, &b.counters),
        ],
    );
    let g_scan_cells = bind(
        device,
        &pipes.scan,
        &[(0, &b.scan_cells), (1, &b.cell_start)],
    );
    let g_scatter = bind(
        device,
        &pipes.scatter,
        &[
            (0, &b.params),
            (2, &b.cell_of),
            (3, &b.counters),
            (5, &b.sorted),
        ],
    );
    let g_sort = bind(
        device,
        &pipes.sort_cells,
        &[(0, &b.params), (4, &b.cell_start), (5, &b.sorted)],
    );
    // `visit` references nb_indices statically even when only counting: bind a
    // placeholder (never written: `write` is false).
    let placeholder = init_buffer(device, "nb_indices placeholder", &[0u8; 16], RW);
    let g_count = bind(
        device,
        &pipes.count_nb,
        &[
            (0, &b.params),
            (1, &b.positions),
            (4, &b.cell_start),
            (5, &b.sorted),
            (6, &b.nb_offsets),
            (7, &placeholder),
        ],
    );
    let g_scan_parts = bind(
        device,
        &pipes.scan,
        &[(0, &b.scan_particles), (1, &b.nb_offsets)],
    );
    let (n_u32, cells_u32) = (n as u32, cells as u32);
    ctx.queue().submit([
        dispatch(device, &pipes.bin, &g_bin, n_u32),
        copy(device, &b.counters, &b.cell_start, cell_bytes),
        dispatch_scan(device, &pipes.scan, &g_scan_cells),
        copy(device, &b.cell_start, &b.counters, cell_bytes),
        dispatch(device, &pipes.scatter, &g_scatter, n_u32),
        dispatch(device, &pipes.sort_cells, &g_sort, cells_u32),
        dispatch(device, &pipes.count_nb, &g_count, n_u32),
        dispatch_scan(device, &pipes.scan, &g_scan_parts),
    ]);
}

/// Cells per axis and in all of a grid of cell width `cell` with its origin at `lo` covering
/// `hi` (as `UniformGrid::build`); refused by name when the particles are spread over more than
/// `max(64 n, 2²²)` cells for `n` particles.
pub(crate) fn grid_dims(
    lo: [f64; 3],
    hi: [f64; 3],
    cell: f64,
    n: usize,
) -> Result<([usize; 3], usize), GpuError> {
    let limit = (64 * n).max(1 << 22);
    let mut dims = [1usize; 3];
    let mut cells = 1usize;
    for k in 0..3 {
        let extent = ((hi[k] - lo[k]) / cell).floor();
        if extent.is_nan() || extent >= limit as f64 {
            return Err(GpuError::Unsupported {
                what: format!("grid extent {extent} cells along axis {k}"),
                reason: "particles are spread over too many cells",
            });
        }
        dims[k] = extent as usize + 1;
        cells = cells.saturating_mul(dims[k]);
    }
    if cells > limit {
        return Err(GpuError::Unsupported {
            what: format!("{cells} grid cells"),
            reason: "particles are spread over too many cells",
        });
    }
    Ok((dims, cells))
}

/// The 27 cell colours of a grid of `dims` cells (colour c = (cx mod 3) + 3 (cy mod 3) +
/// 9 (cz mod 3), as `CellColouring` with three colours per axis): each colour's uniform
/// written at `stride` bytes into one buffer, and its cell count.
pub(crate) fn cell_colours(
    dims: [usize; 3],
    stride: usize,
) -> (Vec<u8>, [u32; crate::xpbi_layout::COLOURS]) {
    use crate::xpbi_layout::{COLOURS, GpuColourParams};
    let mut bytes = vec![0u8; COLOURS * stride];
    let mut threads = [0u32; COLOURS];
    for c in 0..COLOURS {
        let off = [(c % 3) as u32, ((c / 3) % 3) as u32, (c / 9) as u32];
        let count: [u32; 3] =
            core::array::from_fn(|a| (dims[a] as u32).saturating_sub(off[a]).div_ceil(3));
        let cp = GpuColourParams {
            offset: [off[0], off[1], off[2], c as u32],
            dims: [dims[0] as u32, dims[1] as u32, dims[2] as u32, 0],
            count: [count[0], count[1], count[2], 0],
            pad: [0; 4],
        };
        threads[c] = count[0] * count[1] * count[2];
        let size = std::mem::size_of::<GpuColourParams>();
        bytes[c * stride..c * stride + size].copy_from_slice(bytemuck::bytes_of(&cp));
    }
    (bytes, threads)
}
