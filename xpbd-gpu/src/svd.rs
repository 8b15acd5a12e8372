//! The rotation-variant 3×3 SVD of `shaders/svd3.wgsl` (an XPBI building block), with a
//! batch driver that runs it on the device for testing and reuse.

use nalgebra::{Matrix3, Vector3};
use wgpu::util::DeviceExt;

use crate::{GpuContext, GpuError};

/// `(U, σ, V)` of one matrix.
pub type Svd3 = (Matrix3<f64>, Vector3<f64>, Matrix3<f64>);

/// Decomposes every matrix on the device (f32): `F = U diag(σ) Vᵀ`, `det U = det V = +1`,
/// `|σ₀| ≥ |σ₁| ≥ |σ₂|`, the sign of `det F` on `σ₂` (as
/// `xpbd_core::energy::svd::rotation_variant_svd`).
///
/// ```
/// use nalgebra::Matrix3;
/// if let Some(ctx) = xpbd_gpu::context_for_test("svd doctest").unwrap() {
///     let f = Matrix3::new(2.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -0.5);
///     let (u, s, v) = xpbd_gpu::testing::svd3_batch(&ctx, &[f]).unwrap()[0];
///     assert!((s - nalgebra::Vector3::new(2.0, 1.0, -0.5)).norm() < 1e-6);
///     assert!((u * Matrix3::from_diagonal(&s) * v.transpose() - f).norm() < 1e-6);
/// }
/// ```
pub fn svd3_batch(ctx: &GpuContext, matrices: &[Matrix3<f64>]) -> Result<Vec<Svd3>, GpuError> {
    let n = matrices.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let mut input: Vec<[f32; 4]> = Vec::with_capacity(3 * n);
    for m in matrices {
        for j in 0..3 {
            input.push([m[(0, j)] as f32, m[(1, j)] as f32, m[(2, j)] as f32, 0.0]);
        }
    }
    let device = ctx.device();
    let out_bytes = (7 * 16 * n) as u64;
    let (pipeline, input_buf, output_buf) = ctx.scoped(|| {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("svd3_batch"),
            source: wgpu::ShaderSource::Wgsl(crate::shaders::SVD3_BATCH_MODULE.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("svd3_batch"),
            layout: None,
            module: &module,
            entry_point: Some("svd3_batch"),
            compilation_options: Default::default(),
            cache: None,
        });
        let input_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("svd input"),
            contents: bytemuck::cast_slice(&input),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let output_buf = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("svd output"),
            size: out_bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        (pipeline, input_buf, output_buf)
    })?;
    ctx.scoped(|| {
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: input_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: output_buf.as_entire_binding(),
                },
            ],
        });
        let mut enc = device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups((n as u32).div_ceil(64), 1, 1);
        }
        ctx.queue().submit([enc.finish()]);
    })?;
    let raw: Vec<[f32; 4]> =
        bytemuck::pod_collect_to_vec(&ctx.read_buffer(&output_buf, 0, out_bytes)?);
    let col = |c: &[f32; 4]| Vector3::new(c[0] as f64, c[1] as f64, c[2] as f64);
    Ok(raw
        .chunks(7)
        .map(|r| {
            let u = Matrix3::from_columns(&[col(&r[0]), col(&r[1]), col(&r[2])]);
            let v = Matrix3::from_columns(&[col(&r[4]), col(&r[5]), col(&r[6])]);
            (u, col(&r[3]), v)
        })
        .collect())
}
