//! Building a mesh collider's signed-distance grid (`SdfGrid::from_mesh`): a 20 480-triangle
//! icosphere of radius 0.5 m, padding 5 cm, at 4 cm and 2 cm cells (24k and 176k nodes). The
//! cost grows with nodes + triangles (see the `contact::sdf` module docs); the brute-force
//! construction it replaced took 14–17 s and 85–110 s here on a 2-core machine.

use criterion::{Criterion, criterion_group, criterion_main};
use xpbd_core::Vector;
use xpbd_core::builders::TriangleSurface;
use xpbd_core::contact::SdfGrid;

fn sdf(c: &mut Criterion) {
    let sphere = TriangleSurface::icosphere(5, 0.5, Vector::<3>::new(0.013, -0.021, 0.007));
    let mut group = c.benchmark_group("sdf_from_mesh_20k_triangles");
    group.sample_size(10);
    for cell in [0.04, 0.02] {
        group.bench_function(format!("cell_{cell}"), |b| {
            b.iter(|| SdfGrid::from_mesh(&sphere, cell, 0.05).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, sdf);
criterion_main!(benches);
