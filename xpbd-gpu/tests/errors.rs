//! One test per `GpuError` variant: bad input and device trouble come back as typed errors,
//! never panics, and the CPU path stays usable.

use std::sync::Arc;

use nalgebra::Vector3;
use xpbd_core::builders::ClothGrid;
use xpbd_core::{BuildError, Particles, SolverSettings, StepError};
use xpbd_gpu::context::check_adapter_limits;
use xpbd_gpu::testing::{Scene, SceneBlock, SceneCollider, StepBackend};
use xpbd_gpu::testing::{check_limits, pack};
use xpbd_gpu::{AdapterRequest, GpuContext, GpuError, context_for_test};

fn gpu(test: &str) -> Option<Arc<GpuContext>> {
    context_for_test(test)
        .unwrap_or_else(|e| panic!("{test}: {e}"))
        .map(Arc::new)
}

fn cloth_scene(n: usize) -> Scene {
    let cloth = ClothGrid::<3> {
        nx: n,
        ny: n,
        pinned: vec![(0, n - 1)],
        ..ClothGrid::default()
    }
    .build()
    .unwrap();
    Scene::new(cloth.particles, SolverSettings::default())
        .with_block(SceneBlock::Distance(cloth.stretch))
}

#[test]
fn no_adapter_for_backends_not_compiled_in() {
    // This crate builds wgpu with Vulkan and GL only: Metal/DX12 find nothing on any OS.
    let request = AdapterRequest {
        backends: wgpu::Backends::METAL | wgpu::Backends::DX12,
        explicit_backends: true,
        require_gpu: false,
    };
    let err = GpuContext::new(&request).unwrap_err();
    assert!(matches!(err, GpuError::NoAdapter { .. }), "{err}");
    // The CPU path is unaffected.
    cloth_scene(3).cpu().unwrap().step(0.01).unwrap();
}

#[test]
fn unrequested_gl_fallback_is_refused_when_a_gpu_is_required() {
    let request = AdapterRequest {
        backends: wgpu::Backends::GL,
        explicit_backends: false,
        require_gpu: true,
    };
    match GpuContext::new(&request) {
        Err(GpuError::GlFallback { adapter }) => eprintln!("refused GL adapter {adapter}"),
        // No EGL on this machine: nothing to fall back to.
        Err(GpuError::NoAdapter { reason, .. }) => eprintln!("SKIPPED: no GL adapter ({reason})"),
        other => panic!("expected GlFallback, got {other:?}"),
    }
    // Asked for explicitly, GL is accepted.
    let explicit = AdapterRequest {
        explicit_backends: true,
        ..request
    };
    if let Ok(ctx) = GpuContext::new(&explicit) {
        assert_eq!(ctx.adapter_info().backend, wgpu::Backend::Gl);
    }
}

#[test]
fn limit_too_low_for_the_kernels_bindings() {
    let low = wgpu::Limits::downlevel_defaults();
    match check_adapter_limits(&low) {
        Err(GpuError::LimitTooLow {
            limit,
            available,
            required,
        }) => {
            assert_eq!(limit, "max_storage_buffers_per_shader_stage");
            assert!(available < required);
        }
        other => panic!("{other:?}"),
    }
    // The WebGPU defaults (8 storage buffers) are also too low; native adapters give ≥ 16.
    assert!(check_adapter_limits(&wgpu::Limits::default()).is_err());
    let native = wgpu::Limits {
        max_storage_buffers_per_shader_stage: 16,
        ..wgpu::Limits::default()
    };
    check_adapter_limits(&native).unwrap();
}

#[test]
fn buffer_too_large_names_the_buffer_and_limit() {
    let packed = pack(&cloth_scene(8)).unwrap();
    let limits = wgpu::Limits {
        max_storage_buffer_binding_size: 1000,
        ..wgpu::Limits::default()
    };
    match check_limits(&packed, 10, &limits) {
        // x: 64 particles × 16 bytes = 1024 > 1000, the first buffer checked.
        Err(GpuError::BufferTooLarge {
            buffer,
            bytes,
            limit,
            limit_name,
        }) => {
            assert_eq!((buffer, bytes, limit), ("x", 1024, 1000));
            assert_eq!(limit_name, "max_storage_buffer_binding_size");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn device_lost_is_reported_by_the_next_step() {
    let Some(ctx) = gpu("device_lost") else {
        return;
    };
    let mut sim = cloth_scene(4).gpu(ctx.clone()).unwrap();
    sim.step(0.01).unwrap();
    ctx.destroy_device();
    let err = sim.step(0.01).unwrap_err();
    assert!(matches!(err, GpuError::DeviceLost(_)), "{err:?}");
    assert!(matches!(sim.positions(), Err(GpuError::DeviceLost(_))));
    // The CPU path remains usable.
    cloth_scene(4).cpu().unwrap().step(0.01).unwrap();
}

#[test]
fn wgpu_validation_error_is_recorded_not_panicked() {
    let Some(ctx) = gpu("validation") else { return };
    // A mappable buffer cannot also be a storage buffer: a validation error, which wgpu's
    // default handler would turn into a panic.
    let _bad = ctx.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("invalid"),
        size: 64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let err = ctx.check().unwrap_err();
    assert!(matches!(err, GpuError::Wgpu(_)), "{err:?}");
    // Recorded once: the context is usable again.
    ctx.check().unwrap();
    let mut sim = cloth_scene(3).gpu(ctx).unwrap();
    sim.step(0.01).unwrap();
}

#[test]
fn unsupported_kinematic_target() {
    let mut scene = cloth_scene(3);
    scene.particles.pin(1);
    scene.particles.kinematic_target[1] = Some(Vector3::new(0.0, 0.0, 1.0));
    match pack(&scene) {
        Err(GpuError::Unsupported { what, .. }) => assert!(what.contains("particle 1")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn invalid_collider_names_index_and_field() {
    let scene = cloth_scene(3)
        .with_collider(SceneCollider::Plane {
            normal: Vector3::z(),
            offset: 0.0,
            friction: 0.1,
        })
        .with_collider(SceneCollider::Sphere {
            centre: Vector3::zeros(),
            radius: 1.0,
            friction: -0.5,
        });
    match scene.validate() {
        Err(GpuError::InvalidCollider {
            index,
            field,
            value,
            ..
        }) => assert_eq!((index, field, value), (1, "friction", -0.5)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn build_error_from_the_cpu_checks() {
    let mut scene = cloth_scene(3);
    scene.particles.inv_mass[4] = f64::NAN;
    match pack(&scene) {
        Err(GpuError::Build(BuildError::NonFiniteMass { particle: 4, .. })) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn step_errors_roll_back_like_the_cpu() {
    let Some(ctx) = gpu("step_errors") else {
        return;
    };
    let mut sim = cloth_scene(3).gpu(ctx.clone()).unwrap();
    assert!(matches!(
        sim.step(0.0),
        Err(GpuError::Step(StepError::NonPositiveTimeStep { .. }))
    ));

    // Diverged: max speed 0.5 m/s, free fall passes it after ~0.05 s.
    let mut p = Particles::<3>::new();
    p.push(Vector3::zeros(), 1.0);
    p.push(Vector3::new(1.0, 0.0, 0.0), 1.0);
    let mut settings = SolverSettings::<3>::default();
    settings.diagnostics.max_speed = 0.5;
    let mut sim = Scene::new(p, settings).gpu(ctx.clone()).unwrap();
    let mut failed = None;
    for _ in 0..10 {
        let before = sim.state_bytes().unwrap();
        if let Err(e) = sim.step(1.0 / 60.0) {
            // Rolled back bit for bit.
            assert_eq!(sim.state_bytes().unwrap(), before);
            failed = Some(e);
            break;
        }
    }
    match failed {
        Some(GpuError::Step(StepError::Diverged {
            particle, speed, ..
        })) => {
            assert_eq!(particle, 0, "smallest offending index");
            assert!(speed > 0.5);
        }
        other => panic!("{other:?}"),
    }

    // Non-finite: a force that overflows f32 (finite in f64, so only the GPU trips).
    let mut p = Particles::<3>::new();
    p.push(Vector3::zeros(), 1.0);
    let k = p.push(Vector3::new(1.0, 0.0, 0.0), 10.0);
    p.force[k] = Vector3::new(1e38, 0.0, 0.0);
    let mut sim = Scene::new(p, SolverSettings::default()).gpu(ctx).unwrap();
    let before = sim.state_bytes().unwrap();
    match sim.step(0.01) {
        Err(GpuError::Step(StepError::NonFinite {
            particle, substep, ..
        })) => assert_eq!((particle, substep), (1, 0)),
        other => panic!("{other:?}"),
    }
    assert_eq!(sim.state_bytes().unwrap(), before);
}
