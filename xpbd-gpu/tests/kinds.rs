//! The GPU's dihedral-bending and tetrahedral-volume kernels against xpbd-core's (whose
//! gradients are finite-difference tested there): same scenes, trajectories within the f32
//! random-walk bound of `backends.rs` (4 N^{3/2} ε |x|max), plus each kind's own invariant.

use std::sync::Arc;

use nalgebra::Vector3;
use xpbd_core::builders::ClothGrid;
use xpbd_core::constraint::{DistanceConstraints, TetVolumeConstraints};
use xpbd_core::mesh::TetMesh;
use xpbd_core::{Particles, SolverKind, SolverSettings};
use xpbd_gpu::testing::{Scene, SceneBlock, StepBackend};
use xpbd_gpu::{GpuContext, context_for_test};

const EPS32: f64 = f32::EPSILON as f64;

fn gpu(test: &str) -> Option<Arc<GpuContext>> {
    context_for_test(test)
        .unwrap_or_else(|e| panic!("{test}: {e}"))
        .map(Arc::new)
}

fn walk_bound(substeps_total: usize, x_max: f64) -> f64 {
    4.0 * (substeps_total as f64).powf(1.5) * EPS32 * x_max
}

fn run(b: &mut dyn StepBackend, steps: usize) -> Vec<Vec<Vector3<f64>>> {
    (0..steps)
        .map(|_| {
            b.step(1.0 / 60.0).unwrap();
            b.positions().unwrap()
        })
        .collect()
}

fn max_deviation(a: &[Vec<Vector3<f64>>], b: &[Vec<Vector3<f64>>]) -> f64 {
    a.iter()
        .zip(b)
        .flat_map(|(pa, pb)| pa.iter().zip(pb).map(|(x, y)| (x - y).norm()))
        .fold(0.0, f64::max)
}

/// An 8×8 flag pinned along one edge, with dihedral bending: GPU follows CPU, for the
/// coloured and Jacobi sweeps; and bending does resist (the swinging flag stays flatter
/// than without it), so the kernel is not a no-op.
#[test]
fn dihedral_bending_cloth_gpu_follows_cpu() {
    bending_cloth_gpu_follows_cpu("dihedral", |c| {
        SceneBlock::DihedralBending(c.dihedral_bending(1.0).unwrap())
    });
}

/// The same flag with isometric bending (Bergou's quadratic model, C = √(xᵀQx), evaluated on
/// the GPU as |Σ gⱼ xⱼ| with Q = g gᵀ): GPU follows CPU and the bending resists.
#[test]
fn isometric_bending_cloth_gpu_follows_cpu() {
    bending_cloth_gpu_follows_cpu("isometric", |c| {
        SceneBlock::IsometricBending(c.isometric_bending(ISOMETRIC_STIFFNESS).unwrap())
    });
}

/// Bending stiffness k_b (N·m) of the isometric flag.
const ISOMETRIC_STIFFNESS: f64 = 1e-2;

fn bending_cloth_gpu_follows_cpu(
    name: &str,
    bending: impl Fn(&xpbd_core::builders::cloth::Cloth<3>) -> SceneBlock,
) {
    let n = 8;
    let cloth = ClothGrid::<3> {
        nx: n,
        ny: n,
        size: [0.5, 0.5],
        pinned: (0..n).map(|i| (i, n - 1)).collect(),
        stretch_compliance: 1e-7,
        shear_compliance: 1e-6,
        ..ClothGrid::default()
    }
    .build()
    .unwrap();
    let bending = bending(&cloth);
    let steps = 30;
    // Curvature across the flag: mean distance of the middle row from the midpoint of the
    // pinned and free rows of the same column (0 for a flat sheet).
    let bulge = |xs: &[Vector3<f64>]| {
        (0..n)
            .map(|i| (xs[(n / 2) * n + i] - (xs[i] + xs[(n - 1) * n + i]) * 0.5).norm())
            .sum::<f64>()
            / n as f64
    };
    let plain = Scene::new(cloth.particles.clone(), SolverSettings::default())
        .with_block(SceneBlock::Distance(cloth.stretch.clone()));
    let plain_bulge = bulge(&run(&mut plain.cpu().unwrap(), steps)[steps - 1]);
    let ctx = gpu(name);
    for solver in [SolverKind::Coloured, SolverKind::JACOBI] {
        let scene = Scene::new(
            cloth.particles.clone(),
            SolverSettings {
                solver,
                ..SolverSettings::default()
            },
        )
        .with_block(SceneBlock::Distance(cloth.stretch.clone()))
        .with_block(bending.clone());
        let cpu = run(&mut scene.cpu().unwrap(), steps);
        if solver == SolverKind::Coloured {
            let bent = bulge(&cpu[steps - 1]);
            eprintln!("{name}: bulge with bending {bent:e} m, without {plain_bulge:e} m");
            // Measured 0.036 vs 0.047 m (one iteration per substep converges bending slowly).
            // The GPU deviation bound below (~1.2e-3 m) is far below this 1e-2 m effect,
            // so agreement with the CPU also proves the GPU kernel bends.
            assert!(
                bent < 0.85 * plain_bulge,
                "bending bulge {bent} vs {plain_bulge}"
            );
        }
        let Some(ctx) = ctx.clone() else { return };
        let g = run(&mut scene.gpu(ctx).unwrap(), steps);
        let dev = max_deviation(&cpu, &g);
        let tol = walk_bound(steps * 10, 0.5);
        eprintln!(
            "{name} {}: max deviation {dev:e} m (bound {tol:e})",
            solver.short_name()
        );
        assert!(dev < tol, "{}: {dev:e}", solver.short_name());
    }
}

/// A soft beam (box of 4×1×1 cubes, 24 tets) pinned at x = 0, held by edge springs and
/// tetrahedral volume constraints (bulk modulus 1e6 Pa): GPU follows CPU, and each tet's
/// volume stays within the compliant error of its rest volume on both backends.
#[test]
fn tet_volume_beam_gpu_follows_cpu() {
    let mesh = TetMesh::box_beam([0.4, 0.1, 0.1], [4, 1, 1]).unwrap();
    let mut particles = Particles::<3>::new();
    for v in &mesh.vertices {
        let i = particles.push(*v, 20.0);
        if v.x == 0.0 {
            particles.pin(i);
        }
    }
    let mut edges = DistanceConstraints::new();
    for [a, b] in mesh.unique_edges() {
        edges.add(&particles, a as usize, b as usize, 1e-5).unwrap();
    }
    let mut volume = TetVolumeConstraints::<3>::new();
    for cell in &mesh.cells {
        let idx = cell.map(|i| i as usize);
        let xs = idx.map(|i| particles.x[i]);
        let v0 = (xs[1] - xs[0])
            .cross(&(xs[2] - xs[0]))
            .dot(&(xs[3] - xs[0]))
            / 6.0;
        let alpha = TetVolumeConstraints::<3>::compliance_from_bulk_modulus(v0, 1e6).unwrap();
        volume.add(&particles, &idx, alpha).unwrap();
    }
    let rest: Vec<f64> = volume.rest_volume.clone();
    let scene = Scene::new(particles, SolverSettings::default())
        .with_block(SceneBlock::Distance(edges))
        .with_block(SceneBlock::TetVolume(volume.clone()));
    let steps = 30;
    let worst_volume_error = |xs: &[Vector3<f64>]| {
        mesh.cells
            .iter()
            .zip(&rest)
            .map(|(cell, v0)| {
                let p = cell.map(|i| xs[i as usize]);
                let v = (p[1] - p[0]).cross(&(p[2] - p[0])).dot(&(p[3] - p[0])) / 6.0;
                ((v - v0) / v0).abs()
            })
            .fold(0.0, f64::max)
    };
    let cpu = run(&mut scene.cpu().unwrap(), steps);
    // The beam did deform (the free end dropped), and volumes held to within 5 %: with
    // K = 1e6 Pa and stresses ~ρ g L ~ 1e4 Pa, the compliant volume error is ~1 %.
    assert!(cpu[steps - 1][4].z < -1e-3);
    let cpu_err = worst_volume_error(&cpu[steps - 1]);
    assert!(cpu_err < 0.05, "cpu volume error {cpu_err}");
    let Some(ctx) = gpu("tet_volume") else { return };
    let g = run(&mut scene.gpu(ctx).unwrap(), steps);
    let gpu_err = worst_volume_error(&g[steps - 1]);
    assert!(gpu_err < 0.05, "gpu volume error {gpu_err}");
    let dev = max_deviation(&cpu, &g);
    let tol = walk_bound(steps * 10, 0.4);
    eprintln!(
        "tet beam: max deviation {dev:e} m (bound {tol:e}), volume error cpu {cpu_err:e} gpu {gpu_err:e}"
    );
    assert!(dev < tol, "{dev:e}");
}

/// A stable neo-Hookean beam (the same 24 tets, E = 1e6 Pa, ν = 0.3, 0.1 kg per vertex, no
/// springs) pinned at x = 0 falls and swings under its own weight (with one iteration per
/// substep the solve is far from converged, so the motion is much larger than the static
/// deflection): GPU follows CPU within the walk bound, for the coloured and Jacobi sweeps.
#[test]
fn neo_hookean_beam_gpu_follows_cpu() {
    let mesh = TetMesh::box_beam([0.4, 0.1, 0.1], [4, 1, 1]).unwrap();
    let mut particles = Particles::<3>::new();
    for v in &mesh.vertices {
        let i = particles.push(*v, 0.1);
        if v.x == 0.0 {
            particles.pin(i);
        }
    }
    let mut tets = xpbd_core::constraint::NeoHookeanTetConstraints::<3>::new(1e6, 0.3).unwrap();
    for cell in &mesh.cells {
        tets.add(&particles, &cell.map(|i| i as usize)).unwrap();
    }
    let steps = 30;
    let ctx = gpu("neo-hookean");
    for solver in [SolverKind::Coloured, SolverKind::JACOBI] {
        let settings = SolverSettings {
            solver,
            ..SolverSettings::default()
        };
        let scene = Scene::new(particles.clone(), settings)
            .with_block(SceneBlock::NeoHookean(tets.clone()));
        let cpu = run(&mut scene.cpu().unwrap(), steps);
        // Mean vertical displacement of the free end's vertices.
        let end: Vec<usize> = (0..particles.len())
            .filter(|&i| particles.x[i].x > 0.4 - 1e-9)
            .collect();
        let tip = end
            .iter()
            .map(|&i| cpu[steps - 1][i].z - particles.x[i].z)
            .sum::<f64>()
            / end.len() as f64;
        assert!(tip < -1e-3, "the free end sagged ({tip:e} m)");
        let Some(ctx) = ctx.clone() else { return };
        let g = run(&mut scene.gpu(ctx).unwrap(), steps);
        let dev = max_deviation(&cpu, &g);
        let tol = walk_bound(steps * 10, 0.4);
        eprintln!(
            "neo-hookean beam {}: tip {tip:e} m, max deviation {dev:e} m (bound {tol:e})",
            solver.short_name()
        );
        assert!(dev < tol, "{}: {dev:e}", solver.short_name());
    }
}

/// A rubber cube of 2×2×2 cells (E = 1 MPa, ν = 0.45) at rest without gravity stays at rest
/// on both backends, for the coloured and Jacobi sweeps: the stable neo-Hookean pair is one
/// 2×2 solve on the GPU as on the CPU (projected one after the other, the two constraints
/// pull against each other and the cube drifted by centimetres). CPU to round-off, GPU within
/// f32 round-off of the cube's size.
#[test]
fn a_neo_hookean_cube_at_rest_stays_at_rest_on_both_backends() {
    let mesh = TetMesh::box_beam([0.1, 0.1, 0.1], [2, 2, 2]).unwrap();
    let body = xpbd_core::builders::soft_body_from_mesh(&mesh, 1100.0, 1e6, 0.45).unwrap();
    let x0: Vec<Vector3<f64>> = body.particles.x.clone();
    let ctx = gpu("neo-hookean rest");
    let moved = |traj: &[Vec<Vector3<f64>>]| {
        traj.iter()
            .flat_map(|xs| xs.iter().zip(&x0).map(|(a, b)| (a - b).norm()))
            .fold(0.0, f64::max)
    };
    for solver in [SolverKind::Coloured, SolverKind::JACOBI] {
        // 20 substeps of 1/60 s: h = 8.3e-4 s, below the pair's shear bound (9.7e-4 s).
        let settings = SolverSettings {
            solver,
            substeps: 20,
            gravity: Vector3::zeros(),
            ..SolverSettings::default()
        };
        let scene = Scene::new(body.particles.clone(), settings)
            .with_block(SceneBlock::NeoHookean(body.elastic.clone()));
        let steps = 6;
        let cpu = moved(&run(&mut scene.cpu().unwrap(), steps));
        assert!(cpu < 1e-13, "{}: cpu moved {cpu:e} m", solver.short_name());
        let Some(ctx) = ctx.clone() else { return };
        let gpu = moved(&run(&mut scene.gpu(ctx).unwrap(), steps));
        eprintln!(
            "{}: at rest, cpu moved {cpu:e} m, gpu {gpu:e} m",
            solver.short_name()
        );
        assert!(gpu < 1e-6, "{}: gpu moved {gpu:e} m", solver.short_name());
    }
}
