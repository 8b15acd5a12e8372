//! Device plumbing of the XPBI step (`crate::xpbi`): buffers, bind group layouts, pipelines,
//! read-back.

use crate::grid::GridParams;
use crate::xpbi_layout::{
    COLOURS, GpuColourParams, GpuXpbiParams, XPBI_ENTRY_POINTS, XPBI_STORAGE_BUFFERS, storage_bytes,
};
use crate::{GpuContext, GpuError, MAX_COLLIDERS};

#[derive(Debug)]
pub(crate) struct Pipes {
    pub(crate) xpbi: Vec<wgpu::ComputePipeline>,
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(crate) colour_layout: wgpu::BindGroupLayout,
    pub(crate) bin: wgpu::ComputePipeline,
    pub(crate) scatter: wgpu::ComputePipeline,
    pub(crate) sort_cells: wgpu::ComputePipeline,
    pub(crate) count_nb: wgpu::ComputePipeline,
    pub(crate) fill_nb: wgpu::ComputePipeline,
    pub(crate) scan: wgpu::ComputePipeline,
}

/// Per-particle buffers (fixed size) and growable per-cell / per-neighbour buffers.
#[derive(Debug)]
pub(crate) struct Buffers {
    pub(crate) params: wgpu::Buffer,
    pub(crate) grid_params: wgpu::Buffer,
    pub(crate) scan_cells: wgpu::Buffer,
    pub(crate) scan_parts: wgpu::Buffer,
    // Bindings 1..=21 of xpbi.wgsl, in order.
    pub(crate) x: wgpu::Buffer,
    pub(crate) xn: wgpu::Buffer,
    pub(crate) v: wgpu::Buffer,
    pub(crate) dsp: wgpu::Buffer,
    pub(crate) pinfo: wgpu::Buffer,
    pub(crate) counts: wgpu::Buffer,
    pub(crate) fmat: wgpu::Buffer,
    pub(crate) pstate: wgpu::Buffer,
    pub(crate) lam: wgpu::Buffer,
    pub(crate) lam_colliders: wgpu::Buffer,
    pub(crate) dmat: wgpu::Buffer,
    pub(crate) qself: wgpu::Buffer,
    pub(crate) dx_local: wgpu::Buffer,
    pub(crate) nb_offsets: wgpu::Buffer,
    pub(crate) nb_indices: wgpu::Buffer,
    pub(crate) lmat: wgpu::Buffer,
    pub(crate) lam_sp: wgpu::Buffer,
    pub(crate) stats: wgpu::Buffer,
    pub(crate) tau_colliders: wgpu::Buffer,
    pub(crate) colour_params: wgpu::Buffer,
    pub(crate) colour_stride: u64,
    // Grid.
    pub(crate) cell_of: wgpu::Buffer,
    pub(crate) counters: wgpu::Buffer,
    pub(crate) cell_start: wgpu::Buffer,
    pub(crate) sorted: wgpu::Buffer,
    pub(crate) cell_capacity: usize,
    pub(crate) slot_capacity: usize,
}

pub(crate) fn check_binding(
    ctx: &GpuContext,
    buffer: &'static str,
    bytes: u64,
) -> Result<(), GpuError> {
    let limits = ctx.limits();
    let bind = limits.max_storage_buffer_binding_size;
    if bytes > bind {
        return Err(GpuError::BufferTooLarge {
            buffer,
            bytes,
            limit: bind,
            limit_name: "max_storage_buffer_binding_size",
        });
    }
    if bytes > limits.max_buffer_size {
        return Err(GpuError::BufferTooLarge {
            buffer,
            bytes,
            limit: limits.max_buffer_size,
            limit_name: "max_buffer_size",
        });
    }
    Ok(())
}

pub(crate) fn storage(device: &wgpu::Device, label: &str, bytes: u64) -> wgpu::Buffer {
    use wgpu::BufferUsages as U;
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes.max(16).next_multiple_of(16),
        usage: U::STORAGE | U::COPY_SRC | U::COPY_DST,
        mapped_at_creation: false,
    })
}

pub(crate) fn bind_entries(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    entries: &[(u32, &wgpu::Buffer)],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> = entries
        .iter()
        .map(|(i, buf)| wgpu::BindGroupEntry {
            binding: *i,
            resource: buf.as_entire_binding(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout,
        entries: &entries,
    })
}

pub(crate) fn make_buffers(device: &wgpu::Device, n: usize) -> Buffers {
    let colour_stride = (device.limits().min_uniform_buffer_offset_alignment as u64)
        .max(std::mem::size_of::<GpuColourParams>() as u64)
        .next_multiple_of(16);
    use wgpu::BufferUsages as U;
    let uniform = |label: &str, bytes: u64| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.next_multiple_of(16),
            usage: U::UNIFORM | U::COPY_DST,
            mapped_at_creation: false,
        })
    };
    let s = |label: &str, stride: usize| storage(device, label, storage_bytes(n, stride));
    let nb_offsets = storage(device, "nb_offsets", storage_bytes(n + 1, 4));
    let scan_parts = uniform("scan particles", 16);
    Buffers {
        params: uniform("xpbi params", std::mem::size_of::<GpuXpbiParams>() as u64),
        grid_params: uniform("grid params", std::mem::size_of::<GridParams>() as u64),
        scan_cells: uniform("scan cells", 16),
        scan_parts,
        x: s("x", 16),
        xn: s("xn", 16),
        v: s("v", 16),
        dsp: s("dsp", 16),
        pinfo: s("pinfo", 16),
        counts: s("counts", 4),
        fmat: s("fmat", 48),
        pstate: s("pstate", 16),
        lam: s("lam", 4),
        lam_colliders: s("lam_colliders", 4 * MAX_COLLIDERS),
        dmat: s("dmat", 48),
        qself: s("qself", 16),
        dx_local: s("dx_local", 16),
        nb_offsets,
        nb_indices: storage(device, "nb_indices", 16),
        lmat: s("lmat", 48),
        lam_sp: storage(device, "lam_sp", 16),
        stats: storage(device, "stats", 32),
        colour_params: device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("colour params"),
            size: COLOURS as u64 * colour_stride,
            usage: U::UNIFORM | U::COPY_DST,
            mapped_at_creation: false,
        }),
        colour_stride,
        tau_colliders: s("tau_colliders", 4 * MAX_COLLIDERS),
        cell_of: s("cell_of", 4),
        counters: storage(device, "counters", 16),
        cell_start: storage(device, "cell_start", 16),
        sorted: s("sorted", 4),
        cell_capacity: 4,
        slot_capacity: 0,
    }
}

pub(crate) fn make_pipes(device: &wgpu::Device) -> Pipes {
    let module = |label: &str, src: &str| {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(src.into()),
        })
    };
    let xpbi = module("xpbi", crate::shaders::XPBI_MODULE);
    let grid = module("grid.wgsl", crate::shaders::GRID_WGSL);
    let scan = module("scan.wgsl", crate::shaders::SCAN_WGSL);
    let mut entries = vec![wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }];
    for b in 1..=XPBI_STORAGE_BUFFERS {
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: b,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: false },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        });
    }
    entries.push(crate::sdf::layout_entry(XPBI_STORAGE_BUFFERS + 1));
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("xpbi"),
        entries: &entries,
    });
    let colour_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("xpbi colour"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(
                    std::mem::size_of::<GpuColourParams>() as u64
                ),
            },
            count: None,
        }],
    });
    let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("xpbi"),
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
    Pipes {
        xpbi: XPBI_ENTRY_POINTS
            .iter()
            .map(|e| make(&xpbi, Some(&pl), e))
            .collect(),
        layout,
        colour_layout,
        bin: make(&grid, None, "bin"),
        scatter: make(&grid, None, "scatter"),
        sort_cells: make(&grid, None, "sort_cells"),
        count_nb: make(&grid, None, "count_neighbours"),
        fill_nb: make(&grid, None, "fill_neighbours"),
        scan: make(&scan, None, "exclusive_scan"),
    }
}
