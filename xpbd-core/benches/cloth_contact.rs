//! Cloth falling on a sphere with self-collision: 64×64 and 128×128 particles,
//! coloured Gauss–Seidel, one substep (h = 1/600 s, 1 iteration) per measured iteration.
//!
//! * `cloth_contact_detect/<variant>/<n>`: contact generation only (`begin_substep` of the sphere
//!   contacts and the self-collision kind on a frozen state of the draped cloth);
//! * `cloth_contact_substep/<variant>/<n>`: a whole substep (detection + colouring of the new
//!   contacts + solve + velocity update) from the same state (restored before every measured
//!   substep); solve ≈ substep − detect.
//!
//! Single worker thread (settings and detection), so the figures measure work rather than the
//! scheduling of a shared machine. Divide the time per iteration by n² for µs per particle per
//! substep.
//! Variants: `pp` = particle–particle self-collision, `pt` = particle–particle + point–triangle.
//! Run: `cargo bench -p xpbd-core --bench cloth_contact`.

use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use xpbd_core::builders::ClothGrid;
use xpbd_core::constraint::{ConstraintKind, SubstepContext};
use xpbd_core::contact::{Friction, PointTriangleContacts};
use xpbd_core::prelude::*;

const H: f64 = 1.0 / 600.0;

struct Scene {
    sim: Simulation<3>,
    sphere: ColliderContacts<3>,
    self_pp: ParticleContacts<3>,
    self_pt: Option<PointTriangleContacts>,
}

fn scene(n: usize, point_triangle: bool) -> Scene {
    let spacing = 1.0 / (n - 1) as f64;
    let thickness = 0.6 * spacing;
    let cloth = ClothGrid::<3> {
        nx: n,
        ny: n,
        size: [1.0, 1.0],
        origin: Vector::<3>::new(-0.5, -0.5, 0.35),
        total_mass: 0.3,
        stretch_compliance: 1e-8,
        shear_compliance: 1e-6,
        ..ClothGrid::default()
    }
    .build()
    .unwrap();
    let settings = SolverSettings {
        substeps: 1,
        iterations: 1,
        solver: SolverKind::Coloured,
        threads: 1,
        velocity_damping: 0.5,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(cloth.particles.clone(), settings).unwrap();
    sim.add_constraints(cloth.stretch.clone()).unwrap();
    let self_pp = ParticleContacts::new(
        thickness,
        Friction::coulomb(0.2).unwrap(),
        0.0,
        ContactOptions::default(),
    )
    .unwrap()
    .exclude_mesh_neighbours(&cloth.triangles);
    sim.add_constraints(self_pp.clone()).unwrap();
    let self_pt = point_triangle.then(|| {
        PointTriangleContacts::new(
            &cloth.triangles,
            0.5 * thickness,
            Friction::coulomb(0.2).unwrap(),
            ContactOptions::default(),
        )
        .unwrap()
    });
    if let Some(pt) = &self_pt {
        sim.add_constraints(pt.clone()).unwrap();
    }
    let mut sphere = ColliderContacts::new(0.5 * thickness, ContactOptions::default()).unwrap();
    sphere
        .add_collider(
            Collider::fixed(Shape::Sphere { radius: 0.3 })
                .with_friction(Friction::new(0.6, 0.5).unwrap()),
        )
        .unwrap();
    sim.add_constraints(sphere.clone()).unwrap();
    // Fall 0.05 m onto the sphere and drape for 0.5 s (the edges are still swinging down).
    for _ in 0..300 {
        sim.step(H).unwrap();
    }
    Scene {
        sim,
        sphere,
        self_pp,
        self_pt,
    }
}

fn bench(c: &mut Criterion) {
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let ctx = SubstepContext {
        h: H,
        substep: 0,
        substeps: 1,
        time: 0.0,
        dedicated_pool: false,
    };
    let mut detect = c.benchmark_group("cloth_contact_detect");
    detect.sample_size(10);
    for n in [64, 128] {
        for point_triangle in [false, true] {
            let variant = if point_triangle { "pt" } else { "pp" };
            let mut s = scene(n, point_triangle);
            let frozen = s.sim.particles().clone();
            detect.throughput(Throughput::Elements((n * n) as u64));
            detect.bench_function(BenchmarkId::new(variant, n), |b| {
                b.iter(|| {
                    one_thread.install(|| {
                        s.sphere.begin_substep(&frozen, &ctx);
                        s.self_pp.begin_substep(&frozen, &ctx);
                        if let Some(pt) = &mut s.self_pt {
                            pt.begin_substep(&frozen, &ctx);
                        }
                    });
                    s.sphere.len() + s.self_pp.len() + s.self_pt.as_ref().map_or(0, |p| p.len())
                })
            });
            eprintln!(
                "n = {n} {variant}: {} sphere contacts, {} particle pairs, {} point-triangle candidates",
                s.sphere.len(),
                s.self_pp.len(),
                s.self_pt.as_ref().map_or(0, |p| p.len())
            );
        }
    }
    detect.finish();
    let mut substep = c.benchmark_group("cloth_contact_substep");
    substep.sample_size(10);
    for n in [64, 128] {
        for point_triangle in [false, true] {
            let variant = if point_triangle { "pt" } else { "pp" };
            let mut s = scene(n, point_triangle);
            let frozen = s.sim.particles().clone();
            substep.throughput(Throughput::Elements((n * n) as u64));
            substep.bench_function(BenchmarkId::new(variant, n), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        // Every measured substep starts from the same state as the detection
                        // bench (restoring it is not timed).
                        let p = s.sim.particles_mut();
                        p.x.clone_from(&frozen.x);
                        p.x_prev.clone_from(&frozen.x_prev);
                        p.v.clone_from(&frozen.v);
                        let start = Instant::now();
                        s.sim.step(H).unwrap();
                        total += start.elapsed();
                    }
                    total
                })
            });
        }
    }
    substep.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
