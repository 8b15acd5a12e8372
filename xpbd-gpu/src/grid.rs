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
///     let nb = xpbd_gpu::grid::neighbours(&ctx, &x, 0.25, 0.2).unwrap();
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
    let n = positions.len();
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
    let mut lo = Vector3::repeat(f64::INFINITY);
    let mut hi = Vector3::repeat(f64::NEG_INFINITY);
    for x in positions {
        lo = lo.inf(x);
        hi = hi.sup(x);
    }
    if n == 0 {
        lo = Vector3::zeros();
        hi = Vector3::zeros();
    }
    let mut dims = [1usize; 3];
    let limit = (64 * n).max(1 << 22);
    let mut cells = 1usize;
    for k in 0..3 {
        let extent = ((hi[k] - lo[k]) / cell_size).floor();
        if extent >= limit as f64 {
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
    let device = ctx.device();
    let queue = ctx.queue();
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
    use wgpu::BufferUsages as U;
    let buf = |label: &str, bytes: &[u8], usage: U| {
        let mut data = bytes.to_vec();
        data.resize(data.len().max(16), 0);
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: &data,
            usage,
        })
    };
    let rw = U::STORAGE | U::COPY_SRC | U::COPY_DST;
    let (pipes, bufs) = ctx.scoped(|| {
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
        let pipes = [
            make(&grid_module, "bin"),
            make(&grid_module, "scatter"),
            make(&grid_module, "sort_cells"),
            make(&grid_module, "count_neighbours"),
            make(&grid_module, "fill_neighbours"),
            make(&scan_module, "exclusive_scan"),
        ];
        let bufs = [
            buf("grid params", bytemuck::bytes_of(&params), U::UNIFORM),
            buf("positions", bytemuck::cast_slice(&pos), U::STORAGE),
            buf("cell_of", &vec![0u8; 4 * n], rw),
            buf("counters", &vec![0u8; 4 * (cells + 1)], rw),
            buf("cell_start", &vec![0u8; 4 * (cells + 1)], rw),
            buf("sorted", &vec![0u8; 4 * n], rw),
            buf("nb_offsets", &vec![0u8; 4 * (n + 1)], rw),
            buf(
                "scan params cells",
                bytemuck::bytes_of(&ScanParams {
                    len: cells as u32,
                    pad: [0; 3],
                }),
                U::UNIFORM,
            ),
            buf(
                "scan params particles",
                bytemuck::bytes_of(&ScanParams {
                    len: n as u32,
                    pad: [0; 3],
                }),
                U::UNIFORM,
            ),
        ];
        (pipes, bufs)
    })?;
    let [bin, scatter, sort_cells, count_nb, fill_nb, scan] = &pipes;
    let [
        params_buf,
        pos_buf,
        cell_of,
        counters,
        cell_start,
        sorted,
        nb_offsets,
        scan_cells,
        scan_parts,
    ] = &bufs;
    // Auto layouts hold only the bindings an entry point uses (pitfall 2): one bind group
    // per pipeline, listing exactly those bindings.
    let bind = |pipe: &wgpu::ComputePipeline, entries: &[(u32, &wgpu::Buffer)]| {
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
    };
    let cells_u32 = cells as u32;
    let n_u32 = n as u32;
    let run = |pipe: &wgpu::ComputePipeline, group: &wgpu::BindGroup, threads: u32| {
        let mut enc = device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipe);
            pass.set_bind_group(0, group, &[]);
            let (gx, gy) = groups(threads);
            pass.dispatch_workgroups(gx, gy, 1);
        }
        enc.finish()
    };
    let scan_run = |group: &wgpu::BindGroup| {
        let mut enc = device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(scan);
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        enc.finish()
    };
    let copy = |src: &wgpu::Buffer, dst: &wgpu::Buffer, bytes: u64| {
        let mut enc = device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(src, 0, dst, 0, Some(bytes));
        enc.finish()
    };
    let cell_bytes = 4 * (cells as u64 + 1);
    ctx.scoped(|| {
        let g_bin = bind(
            bin,
            &[(0, params_buf), (1, pos_buf), (2, cell_of), (3, counters)],
        );
        let g_scan_cells = bind(scan, &[(0, scan_cells), (1, cell_start)]);
        let g_scatter = bind(
            scatter,
            &[(0, params_buf), (2, cell_of), (3, counters), (5, sorted)],
        );
        let g_sort = bind(sort_cells, &[(0, params_buf), (4, cell_start), (5, sorted)]);
        // `visit` references nb_indices statically even when only counting: bind a
        // placeholder (never written: `write` is false).
        let placeholder = buf("nb_indices placeholder", &[0u8; 16], rw);
        let g_count = bind(
            count_nb,
            &[
                (0, params_buf),
                (1, pos_buf),
                (4, cell_start),
                (5, sorted),
                (6, nb_offsets),
                (7, &placeholder),
            ],
        );
        let g_scan_parts = bind(scan, &[(0, scan_parts), (1, nb_offsets)]);
        queue.submit([
            run(bin, &g_bin, n_u32),
            copy(counters, cell_start, cell_bytes),
            scan_run(&g_scan_cells),
            copy(cell_start, counters, cell_bytes),
            run(scatter, &g_scatter, n_u32),
            run(sort_cells, &g_sort, cells_u32),
            run(count_nb, &g_count, n_u32),
            scan_run(&g_scan_parts),
        ]);
    })?;
    let offsets = read_u32(ctx, nb_offsets, n + 1)?;
    let total = offsets[n] as usize;
    let nb_indices = buf("nb_indices", &vec![0u8; 4 * total], rw);
    ctx.scoped(|| {
        let g_fill = bind(
            fill_nb,
            &[
                (0, params_buf),
                (1, pos_buf),
                (4, cell_start),
                (5, sorted),
                (6, nb_offsets),
                (7, &nb_indices),
            ],
        );
        queue.submit([run(fill_nb, &g_fill, n_u32)]);
    })?;
    Ok(GpuNeighbours {
        dims,
        cell_of: read_u32(ctx, cell_of, n)?,
        cell_start: read_u32(ctx, cell_start, cells + 1)?,
        sorted: read_u32(ctx, sorted, n)?,
        offsets,
        indices: read_u32(ctx, &nb_indices, total)?,
    })
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
