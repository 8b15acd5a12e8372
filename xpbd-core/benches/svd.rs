//! The 3×3 rotation-variant SVD as XPBI's projection uses it
//! (`xpbd_core::energy::svd::rotation_variant_svd_tracked`): 4096 trial deformation gradients
//! `A = M + H M` of a loaded granular body (`Fⁿ = I + 0.05·noise`, `M = Fⁿ V₀` from the SVD of
//! `Fⁿ`, `H` a velocity-gradient step of 0.002·noise), each from its own warm start; and the
//! cold decomposition `rotation_variant_svd` of the same `Fⁿ`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nalgebra::Matrix3;
use xpbd_core::energy::svd::{rotation_variant_svd, rotation_variant_svd_tracked};

fn cases() -> Vec<(Matrix3<f64>, Matrix3<f64>, Matrix3<f64>)> {
    let mut seed = 12_345u64;
    let mut noise = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    (0..4096)
        .map(|_| {
            let f = Matrix3::identity() + Matrix3::from_fn(|_, _| 0.05 * noise());
            let (_, _, v0) = rotation_variant_svd(&f);
            let h = Matrix3::from_fn(|_, _| 0.002 * noise());
            let m = f * v0;
            (f, m, m + h * m)
        })
        .collect()
}

fn svd(c: &mut Criterion) {
    let cases = cases();
    let mut group = c.benchmark_group("svd3");
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("tracked", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for (_, m, a) in &cases {
                let mut m = *m;
                sum += rotation_variant_svd_tracked(a, &mut m).1[0];
            }
            sum
        })
    });
    group.bench_function("cold", |b| {
        b.iter(|| {
            cases
                .iter()
                .map(|(f, _, _)| rotation_variant_svd(f).1[0])
                .sum::<f64>()
        })
    });
    group.finish();
}

criterion_group!(benches, svd);
criterion_main!(benches);
