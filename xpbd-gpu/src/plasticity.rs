//! The return mappings of `shaders/plasticity.wgsl` (von Mises, Drucker–Prager, NACC,
//! Herschel–Bulkley on Hencky strain, the XPBI materials), with a batch driver for testing and
//! reuse. The models are xpbi-continuum's own [`PlasticModel`]s, packed into the shader's
//! uniform ([`GpuPlastic`]) at upload: there is no second description of them.

use bytemuck::{Pod, Zeroable};
use nalgebra::{Matrix3, Vector3};
use wgpu::util::DeviceExt;

use xpbi_continuum::plasticity::{FrictionCone, PlasticModel};

use crate::{GpuContext, GpuError};

/// `struct Plastic` of the shader: a material's constants, packed once when the material table
/// is uploaded (the step Δt that Herschel–Bulkley reads is the step's, passed beside it).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct GpuPlastic {
    model: u32,
    mu: f32,
    lambda: f32,
    yield_stress: f32,
    hardening_modulus: f32,
    /// Drucker–Prager's α of a constant friction angle, computed on the host
    /// ([`xpbi_continuum::plasticity::DruckerPrager::constant_alpha`]); with Klár's hardening
    /// the angle depends on each particle's state and the shader evaluates α(φ(q)).
    alpha: f32,
    cohesion: f32,
    volume_correction: u32,
    klar: u32,
    h: [f32; 4],
    beta: f32,
    xi: f32,
    nacc_m: f32,
    viscosity: f32,
    exponent: f32,
    cone: u32,
    /// [`FrictionCone::angle_clamp`]: the interval a hardened friction angle is clamped to.
    angle_clamp: [f32; 2],
    pad: [u32; 3],
}

impl GpuPlastic {
    /// Packs a model with Lamé parameters μ, λ (Pa).
    pub fn new(model: &PlasticModel, mu: f64, lambda: f64) -> Self {
        let mut p = Self::zeroed();
        p.mu = mu as f32;
        p.lambda = lambda as f32;
        match model {
            PlasticModel::Elastic => p.model = 0,
            PlasticModel::VonMises(m) => {
                p.model = 1;
                p.yield_stress = m.yield_stress as f32;
                p.hardening_modulus = m.hardening_modulus as f32;
            }
            PlasticModel::DruckerPrager(m) => {
                p.model = 2;
                p.cohesion = m.cohesion as f32;
                p.volume_correction = m.volume_correction as u32;
                p.cone = match m.cone {
                    FrictionCone::ShearFlow => 0,
                    FrictionCone::TriaxialCompression => 1,
                    FrictionCone::MohrCoulomb => 2,
                };
                // α in f64, the library's own (3D); none with hardening (α(φ(q)) per particle).
                p.alpha = m.constant_alpha::<3>().unwrap_or(0.0) as f32;
                if let Some(h) = m.hardening {
                    p.klar = 1;
                    p.h = [h.h0, h.h1, h.h2, h.h3].map(|v| v as f32);
                    p.angle_clamp = m.cone.angle_clamp().map(|v| v as f32);
                }
            }
            PlasticModel::Nacc(m) => {
                p.model = 3;
                p.beta = m.beta as f32;
                p.xi = m.xi as f32;
                // M in f64, the library's own (3D).
                p.nacc_m = m.m(3) as f32;
            }
            PlasticModel::HerschelBulkley(m) => {
                p.model = 4;
                p.yield_stress = m.yield_stress as f32;
                p.viscosity = m.viscosity as f32;
                p.exponent = m.exponent as f32;
            }
        }
        p
    }
}

/// `(F_E, [q, v_c])` after a return mapping.
pub type Mapped = (Matrix3<f64>, [f64; 2]);

/// Applies `Z` to every `(F, [q, v_c])` on the device (f32) with Lamé parameters μ, λ.
///
/// ```
/// use nalgebra::Matrix3;
/// use xpbd_gpu::testing::return_map_batch;
/// use xpbi_continuum::plasticity::{PlasticModel, VonMises};
/// if let Some(ctx) = xpbd_gpu::context_for_test("plasticity doctest").unwrap() {
///     let vm = PlasticModel::VonMises(VonMises { yield_stress: 100.0, hardening_modulus: 0.0 });
///     let f = Matrix3::from_diagonal(&nalgebra::Vector3::new(1.1, 0.95, 0.95));
///     let (fe, q) = return_map_batch(&ctx, &vm, 1e4, 1e4, &[(f, [0.0, 0.0])]).unwrap()[0];
///     assert!(q[0] > 0.0); // yielded
///     assert!((fe.determinant() - f.determinant()).abs() < 1e-5); // von Mises keeps volume
/// }
/// ```
pub fn return_map_batch(
    ctx: &GpuContext,
    model: &PlasticModel,
    mu: f64,
    lambda: f64,
    items: &[Mapped],
) -> Result<Vec<Mapped>, GpuError> {
    return_map_batch_dt(ctx, model, mu, lambda, 1e-3, items)
}

/// [`return_map_batch`] with the time step `dt` of the rate-dependent Herschel–Bulkley model.
pub fn return_map_batch_dt(
    ctx: &GpuContext,
    model: &PlasticModel,
    mu: f64,
    lambda: f64,
    dt: f64,
    items: &[Mapped],
) -> Result<Vec<Mapped>, GpuError> {
    let n = items.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let mut input: Vec<[f32; 4]> = Vec::with_capacity(4 * n);
    for (f, s) in items {
        for j in 0..3 {
            input.push([f[(0, j)] as f32, f[(1, j)] as f32, f[(2, j)] as f32, 0.0]);
        }
        input.push([s[0] as f32, s[1] as f32, 0.0, 0.0]);
    }
    let params = GpuPlastic::new(model, mu, lambda);
    // The step Δt (x) of the rate-dependent Herschel–Bulkley model: `rm_step` of the driver.
    let step: [f32; 4] = [dt as f32, 0.0, 0.0, 0.0];
    let device = ctx.device();
    let bytes = (16 * 4 * n) as u64;
    let (pipeline, params_buf, step_buf, input_buf, output_buf) = ctx.scoped(|| {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("plasticity_batch"),
            source: wgpu::ShaderSource::Wgsl(crate::shaders::PLASTICITY_BATCH_MODULE.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("return_map_batch"),
            layout: None,
            module: &module,
            entry_point: Some("return_map_batch"),
            compilation_options: Default::default(),
            cache: None,
        });
        let init = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        let params_buf = init(
            "plastic params",
            bytemuck::bytes_of(&params),
            wgpu::BufferUsages::UNIFORM,
        );
        let step_buf = init(
            "rm step",
            bytemuck::bytes_of(&step),
            wgpu::BufferUsages::UNIFORM,
        );
        let input_buf = init(
            "rm input",
            bytemuck::cast_slice(&input),
            wgpu::BufferUsages::STORAGE,
        );
        let output_buf = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("rm output"),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        (pipeline, params_buf, step_buf, input_buf, output_buf)
    })?;
    ctx.scoped(|| {
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: params_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: input_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: output_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: step_buf.as_entire_binding(),
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
        bytemuck::pod_collect_to_vec(&ctx.read_buffer(&output_buf, 0, bytes)?);
    let col = |c: &[f32; 4]| Vector3::new(c[0] as f64, c[1] as f64, c[2] as f64);
    Ok(raw
        .chunks(4)
        .map(|r| {
            let fe = Matrix3::from_columns(&[col(&r[0]), col(&r[1]), col(&r[2])]);
            (fe, [r[3][0] as f64, r[3][1] as f64])
        })
        .collect())
}
