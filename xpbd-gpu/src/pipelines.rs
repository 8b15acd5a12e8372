//! Bind-group layouts and compute pipelines of `shaders/xpbd.wgsl`: one explicit layout
//! shared by every entry point (auto layouts only contain the bindings an entry point uses,
//! pitfall 2 of the lavapipe recipe).

use crate::GpuError;
use crate::context::GpuContext;
use crate::shaders::XPBD_WGSL;

/// The three bind-group layouts: uniforms (with the signed-distance atlas), particle buffers,
/// constraint buffers.
#[derive(Debug)]
pub(crate) struct Layouts {
    pub uniforms: wgpu::BindGroupLayout,
    pub particles: wgpu::BindGroupLayout,
    pub constraints: wgpu::BindGroupLayout,
}

/// One pipeline per entry point.
#[derive(Debug)]
pub(crate) struct Pipelines {
    pub predict: wgpu::ComputePipeline,
    pub reset_multipliers: wgpu::ComputePipeline,
    pub solve_colour: wgpu::ComputePipeline,
    pub solve_sequential: wgpu::ComputePipeline,
    pub jacobi_compute: wgpu::ComputePipeline,
    pub jacobi_apply: wgpu::ComputePipeline,
    pub collide: wgpu::ComputePipeline,
    pub update_velocity: wgpu::ComputePipeline,
}

fn uniform(binding: u32, dynamic: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: dynamic,
            min_binding_size: None,
        },
        count: None,
    }
}

fn storage(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl Layouts {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let make = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries,
            })
        };
        Self {
            uniforms: make(
                "xpbd uniforms",
                &[
                    uniform(0, false),
                    uniform(1, true),
                    uniform(2, false),
                    crate::sdf::layout_entry(3),
                ],
            ),
            particles: make(
                "xpbd particles",
                &[
                    storage(0, false),
                    storage(1, false),
                    storage(2, false),
                    storage(3, true),
                    storage(4, false),
                ],
            ),
            constraints: make(
                "xpbd constraints",
                &[
                    storage(0, true),
                    storage(1, false),
                    storage(2, false),
                    storage(3, true),
                    storage(4, false),
                ],
            ),
        }
    }
}

impl Pipelines {
    /// Compiles the module and every entry point inside an error scope, so a shader or
    /// layout error comes back as [`GpuError::Wgpu`].
    pub(crate) fn new(ctx: &GpuContext, layouts: &Layouts) -> Result<Self, GpuError> {
        let device = ctx.device();
        ctx.scoped(|| {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("xpbd.wgsl"),
                source: wgpu::ShaderSource::Wgsl(XPBD_WGSL.into()),
            });
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("xpbd"),
                bind_group_layouts: &[
                    Some(&layouts.uniforms),
                    Some(&layouts.particles),
                    Some(&layouts.constraints),
                ],
                immediate_size: 0,
            });
            let make = |entry: &str| {
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry),
                    layout: Some(&layout),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    cache: None,
                })
            };
            Self {
                predict: make("predict"),
                reset_multipliers: make("reset_multipliers"),
                solve_colour: make("solve_colour"),
                solve_sequential: make("solve_sequential"),
                jacobi_compute: make("jacobi_compute"),
                jacobi_apply: make("jacobi_apply"),
                collide: make("collide"),
                update_velocity: make("update_velocity"),
            }
        })
    }
}
