//! Closed-surface volume (balloon) constraint under load.

use xpbd_core::constraint::SurfaceVolumeConstraint;
use xpbd_core::constraint::volume::enclosed_volume;
use xpbd_core::prelude::*;

/// Icosahedron subdivided once and projected on the unit sphere: 42 vertices, 80 faces.
fn icosphere() -> (Vec<Vector<3>>, Vec<[usize; 3]>) {
    let t = (1.0 + 5f64.sqrt()) / 2.0;
    let mut v: Vec<Vector<3>> = [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .iter()
    .map(|&(a, b, c)| Vector::<3>::new(a, b, c).normalize())
    .collect();
    let f: Vec<[usize; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    let mut mid = std::collections::HashMap::new();
    let mut midpoint = |a: usize, b: usize, v: &mut Vec<Vector<3>>| -> usize {
        *mid.entry((a.min(b), a.max(b))).or_insert_with(|| {
            v.push(((v[a] + v[b]) * 0.5).normalize());
            v.len() - 1
        })
    };
    let mut faces = Vec::new();
    for [a, b, c] in f {
        let (ab, bc, ca) = (
            midpoint(a, b, &mut v),
            midpoint(b, c, &mut v),
            midpoint(c, a, &mut v),
        );
        faces.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
    }
    (v, faces)
}

/// Squeezes a soft sphere between forces on its poles; returns the relative volume change.
fn squeezed_volume_change(with_volume: bool) -> f64 {
    let (v, faces) = icosphere();
    let mut p = Particles::<3>::new();
    for &x in &v {
        p.push(x, 1.0);
    }
    // 60 N inward on the two poles (vertices 4 and 7 are not poles; pick extreme z).
    let top = (0..v.len())
        .max_by(|&a, &b| v[a].z.total_cmp(&v[b].z))
        .unwrap();
    let bottom = (0..v.len())
        .min_by(|&a, &b| v[a].z.total_cmp(&v[b].z))
        .unwrap();
    p.force[top] = Vector::<3>::new(0.0, 0.0, -60.0);
    p.force[bottom] = Vector::<3>::new(0.0, 0.0, 60.0);
    let mut edges = DistanceConstraints::new();
    let mut seen = std::collections::HashSet::new();
    for f in &faces {
        for k in 0..3 {
            let (a, b) = (f[k].min(f[(k + 1) % 3]), f[k].max(f[(k + 1) % 3]));
            if seen.insert((a, b)) {
                edges.add(&p, a, b, 1e-3).unwrap();
            }
        }
    }
    let tris: Vec<[u32; 3]> = faces.iter().map(|f| f.map(|i| i as u32)).collect();
    let v0 = enclosed_volume(&tris, &p.x);
    let settings = SolverSettings {
        gravity: Vector::<3>::zeros(),
        substeps: 20,
        velocity_damping: 4.0,
        ..SolverSettings::default()
    };
    let mut sim = Simulation::new(p.clone(), settings).unwrap();
    sim.add_constraints(edges).unwrap();
    if with_volume {
        sim.add_constraints(SurfaceVolumeConstraint::new(&p, &faces, 1.0, 0.0).unwrap())
            .unwrap();
    }
    for _ in 0..240 {
        sim.step(1.0 / 60.0).unwrap();
    }
    (enclosed_volume(&tris, &sim.particles().x) - v0) / v0
}

#[test]
fn pressurised_sphere_keeps_its_volume_under_load() {
    let without = squeezed_volume_change(false);
    let with = squeezed_volume_change(true);
    // Control: the load really deforms the sphere when nothing holds its volume.
    assert!(
        without.abs() > 0.05,
        "load too weak to test anything: {without}"
    );
    assert!(
        with.abs() < 0.01,
        "volume change {with} with the balloon constraint"
    );
}
