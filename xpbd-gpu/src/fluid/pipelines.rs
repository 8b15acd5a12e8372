//! The fluid's pipelines: `fluid.wgsl`'s entry points behind an explicit layout (group 0: the
//! fluid's buffers; group 1: the colour uniform at a dynamic offset) and the neighbour grid's
//! (`grid.wgsl`, `scan.wgsl`; automatic layouts).

use super::{ENTRY_POINTS, STORAGE_BUFFERS};
use crate::xpbi_layout::GpuColourParams;

/// The grid pipelines (`grid.wgsl`, `scan.wgsl`; automatic layouts).
#[derive(Debug)]
pub(super) struct GridPipes {
    pub(super) bin: wgpu::ComputePipeline,
    pub(super) scatter: wgpu::ComputePipeline,
    pub(super) sort_cells: wgpu::ComputePipeline,
    pub(super) count: wgpu::ComputePipeline,
    pub(super) fill: wgpu::ComputePipeline,
    pub(super) scan: wgpu::ComputePipeline,
}

/// The fluid's pipelines, the grid's, and the fluid's two bind group layouts (its buffers,
/// the colour uniform).
#[allow(clippy::type_complexity)]
pub(super) fn make_pipes(
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
