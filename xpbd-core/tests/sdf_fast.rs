//! `SdfGrid::<3>::from_mesh` (ray-crossing sign, exact band + closest-triangle sweeps)
//! against the brute-force construction it replaced: every node against every triangle,
//! closest-point distance and solid-angle winding number (inside when `Σ Ω / 4π > ½`).

use std::collections::HashMap;

use rayon::prelude::*;
use xpbd_core::Vector;
use xpbd_core::builders::TriangleSurface;
use xpbd_core::contact::{SdfGrid, closest_point_on_triangle};

// ---------------------------------------------------------------- brute-force reference

/// Signed solid angle of triangle `t` seen from `p` (Van Oosterom & Strackee 1983).
fn triangle_solid_angle(p: &Vector<3>, t: &[Vector<3>; 3]) -> f64 {
    let a = t[0] - p;
    let b = t[1] - p;
    let c = t[2] - p;
    let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
    let num = a.dot(&b.cross(&c));
    let den = la * lb * lc + a.dot(&b) * lc + a.dot(&c) * lb + b.dot(&c) * la;
    2.0 * num.atan2(den)
}

/// φ at the nodes of `origin + cell · (i, j, k)` by the old O(nodes × triangles) loop.
fn brute_force(mesh: &TriangleSurface, origin: Vector<3>, cell: f64, dims: [usize; 3]) -> Vec<f64> {
    let tris: Vec<[Vector<3>; 3]> = mesh
        .triangles
        .iter()
        .map(|t| {
            [
                mesh.vertices[t[0]],
                mesh.vertices[t[1]],
                mesh.vertices[t[2]],
            ]
        })
        .collect();
    (0..dims[0] * dims[1] * dims[2])
        .into_par_iter()
        .map(|lin| {
            let (i, j, k) = (
                lin % dims[0],
                (lin / dims[0]) % dims[1],
                lin / (dims[0] * dims[1]),
            );
            let x = origin + Vector::<3>::new(i as f64, j as f64, k as f64) * cell;
            let mut d2 = f64::INFINITY;
            let mut solid_angle = 0.0;
            for t in &tris {
                d2 = d2.min((closest_point_on_triangle(&x, t) - x).norm_squared());
                solid_angle += triangle_solid_angle(&x, t);
            }
            let inside = solid_angle / (4.0 * std::f64::consts::PI) > 0.5;
            if inside { -d2.sqrt() } else { d2.sqrt() }
        })
        .collect()
}

/// Bounding box of the mesh grown by `padding`, as `from_mesh` lays out its grid.
fn layout(mesh: &TriangleSurface, cell: f64, padding: f64) -> (Vector<3>, [usize; 3]) {
    let mut lo = Vector::<3>::repeat(f64::INFINITY);
    let mut hi = Vector::<3>::repeat(f64::NEG_INFINITY);
    for v in &mesh.vertices {
        lo = lo.inf(v);
        hi = hi.sup(v);
    }
    lo -= Vector::<3>::repeat(padding);
    hi += Vector::<3>::repeat(padding);
    let dims = std::array::from_fn(|k| ((hi[k] - lo[k]) / cell).ceil() as usize + 1);
    (lo, dims)
}

// ---------------------------------------------------------------- meshes

/// Flips every triangle when the enclosed signed volume is negative (outward normals).
fn outward(mut mesh: TriangleSurface) -> TriangleSurface {
    let volume: f64 = mesh
        .triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|v| mesh.vertices[v]);
            a.dot(&b.cross(&c)) / 6.0
        })
        .sum();
    if volume < 0.0 {
        for t in &mut mesh.triangles {
            t.swap(1, 2);
        }
    }
    mesh
}

/// The library's icosphere ([`TriangleSurface::icosphere`]).
fn icosphere(level: usize, radius: f64, centre: Vector<3>) -> TriangleSurface {
    TriangleSurface::icosphere(level, radius, centre)
}

/// Latitude–longitude sphere with its poles on the x axis at ±`radius` (so a grid line
/// through the centre runs through both poles, where `segments` triangles meet).
fn uv_sphere(rings: usize, segments: usize, radius: f64) -> TriangleSurface {
    let mut vertices = vec![
        Vector::<3>::new(radius, 0.0, 0.0),
        Vector::<3>::new(-radius, 0.0, 0.0),
    ];
    for r in 1..rings {
        let theta = std::f64::consts::PI * r as f64 / rings as f64;
        for s in 0..segments {
            let phi = 2.0 * std::f64::consts::PI * s as f64 / segments as f64;
            let rho = radius * theta.sin();
            vertices.push(Vector::<3>::new(
                radius * theta.cos(),
                rho * phi.cos(),
                rho * phi.sin(),
            ));
        }
    }
    let ring = |r: usize, s: usize| 2 + (r - 1) * segments + s % segments;
    let mut triangles = Vec::new();
    for s in 0..segments {
        triangles.push([0, ring(1, s), ring(1, s + 1)]);
        triangles.push([1, ring(rings - 1, s + 1), ring(rings - 1, s)]);
        for r in 1..rings - 1 {
            triangles.push([ring(r, s), ring(r + 1, s), ring(r + 1, s + 1)]);
            triangles.push([ring(r, s), ring(r + 1, s + 1), ring(r, s + 1)]);
        }
    }
    outward(TriangleSurface {
        vertices,
        triangles,
    })
}

/// Torus around the z axis (major radius `big`, tube radius `small`): concave.
fn torus(big: f64, small: f64, n_big: usize, n_small: usize) -> TriangleSurface {
    let mut vertices = Vec::new();
    for u in 0..n_big {
        let a = 2.0 * std::f64::consts::PI * (u as f64 + 0.3) / n_big as f64;
        for v in 0..n_small {
            let b = 2.0 * std::f64::consts::PI * (v as f64 + 0.1) / n_small as f64;
            let rho = big + small * b.cos();
            vertices.push(Vector::<3>::new(
                rho * a.cos(),
                rho * a.sin(),
                small * b.sin(),
            ));
        }
    }
    let id = |u: usize, v: usize| (u % n_big) * n_small + v % n_small;
    let mut triangles = Vec::new();
    for u in 0..n_big {
        for v in 0..n_small {
            triangles.push([id(u, v), id(u + 1, v), id(u + 1, v + 1)]);
            triangles.push([id(u, v), id(u + 1, v + 1), id(u, v + 1)]);
        }
    }
    outward(TriangleSurface {
        vertices,
        triangles,
    })
}

/// The boundary of a union of cubes of side `size` (corner `(i, j, k) · size`), each
/// exposed face split into two triangles: exact coordinates, every edge on the lattice.
fn polycube(voxels: &[[i64; 3]], size: f64) -> TriangleSurface {
    let set: std::collections::HashSet<[i64; 3]> = voxels.iter().copied().collect();
    let mut index: HashMap<[i64; 3], usize> = HashMap::new();
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    let mut vertex = |p: [i64; 3]| {
        *index.entry(p).or_insert_with(|| {
            vertices.push(Vector::<3>::new(
                p[0] as f64 * size,
                p[1] as f64 * size,
                p[2] as f64 * size,
            ));
            vertices.len() - 1
        })
    };
    for v in voxels {
        for a in 0..3 {
            let (b, c) = ((a + 1) % 3, (a + 2) % 3);
            for positive in [false, true] {
                let mut nb = *v;
                nb[a] += if positive { 1 } else { -1 };
                if set.contains(&nb) {
                    continue;
                }
                let corner = |db: i64, dc: i64| {
                    let mut p = *v;
                    p[a] += i64::from(positive);
                    p[b] += db;
                    p[c] += dc;
                    p
                };
                let mut quad = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
                if !positive {
                    quad.reverse();
                }
                let q = quad.map(&mut vertex);
                triangles.push([q[0], q[1], q[2]]);
                triangles.push([q[0], q[2], q[3]]);
            }
        }
    }
    TriangleSurface {
        vertices,
        triangles,
    }
}

/// An L-shaped prism: 1 × 1 × 0.5 with the (0.5..1, 0.5..1) quarter cut out.
fn l_prism() -> TriangleSurface {
    let mut voxels = Vec::new();
    for k in 0..2 {
        for j in 0..4 {
            for i in 0..4 {
                if i < 2 || j < 2 {
                    voxels.push([i, j, k]);
                }
            }
        }
    }
    polycube(&voxels, 0.25)
}

// ---------------------------------------------------------------- comparison

/// Largest deviations of the fast grid from the brute-force one, in cells.
#[derive(Debug, Default, Clone, Copy)]
struct Deviation {
    everywhere: f64,
    band_relative: f64,
}

fn compare(name: &str, mesh: &TriangleSurface, cell: f64, padding: f64) -> Deviation {
    let sdf = SdfGrid::from_mesh(mesh, cell, padding).unwrap();
    let (origin, dims) = layout(mesh, cell, padding);
    assert_eq!(sdf.origin(), origin, "{name}");
    assert_eq!(sdf.dims(), dims, "{name}");
    let brute = brute_force(mesh, origin, cell, dims);
    let mut dev = Deviation::default();
    let (mut inside, mut band, mut off_band) = (0, 0, 0);
    for (lin, (&f, &b)) in sdf.values().iter().zip(&brute).enumerate() {
        if b.abs() > 1e-9 * cell {
            assert_eq!(
                f < 0.0,
                b < 0.0,
                "{name}, cell {cell}: sign at node {lin} (fast {f}, brute force {b})"
            );
        }
        // Every value is the exact distance to some triangle: never below the minimum.
        assert!(
            f.abs() >= b.abs(),
            "{name}, cell {cell}: |φ| at node {lin} below the minimum (fast {f}, brute {b})"
        );
        let diff = (f.abs() - b.abs()).abs();
        dev.everywhere = dev.everywhere.max(diff / cell);
        if b.abs() <= cell {
            band += 1;
            if b != 0.0 {
                dev.band_relative = dev.band_relative.max(diff / b.abs());
            }
            assert!(
                diff <= 1e-12 * b.abs(),
                "{name}, cell {cell}: band node {lin}: fast {f}, brute force {b}"
            );
        } else {
            off_band += 1;
        }
        inside += usize::from(b < 0.0);
    }
    println!(
        "{name:>24} cell {cell:<7} tris {:>5} nodes {:>7} ({band} within a cell, {off_band} \
         further, {inside} inside): max |Δφ| {:.3e} cells, band rel {:.1e}",
        mesh.triangles.len(),
        brute.len(),
        dev.everywhere,
        dev.band_relative,
    );
    assert!(
        dev.everywhere <= 1e-3,
        "{name}, cell {cell}: max |Δφ| = {} cells",
        dev.everywhere
    );
    dev
}

#[test]
fn cube_matches_brute_force_including_vertices_on_nodes() {
    let cube = TriangleSurface::unit_cube();
    // 0.125 and 0.0625 (padding 0.25, 0.125): every vertex exactly on a node, every edge on
    // a grid line, the face diagonals through nodes, so rays run along projected edges and
    // through projected vertices (the tie rule decides); 0.1: nearly so; 0.037: generic.
    for (cell, padding) in [(0.1, 0.3), (0.125, 0.25), (0.0625, 0.125), (0.037, 0.1)] {
        compare("unit cube", &cube, cell, padding);
    }
}

#[test]
fn inward_facing_cube_is_outside_everywhere_like_brute_force() {
    let mut cube = TriangleSurface::unit_cube();
    for t in &mut cube.triangles {
        t.swap(1, 2);
    }
    compare("inward cube", &cube, 0.125, 0.25);
    let sdf = SdfGrid::from_mesh(&cube, 0.125, 0.25).unwrap();
    assert!(sdf.values().iter().all(|&v| v >= 0.0));
}

#[test]
fn spheres_match_brute_force() {
    let coarse = icosphere(1, 0.5, Vector::<3>::new(0.013, -0.021, 0.007));
    let fine = icosphere(3, 0.5, Vector::<3>::new(0.013, -0.021, 0.007));
    for cell in [0.1, 0.031] {
        compare("icosphere 80", &coarse, cell, 0.1);
    }
    for cell in [0.1, 0.043, 0.025] {
        compare("icosphere 1280", &fine, cell, 0.1);
    }
}

#[test]
fn uv_sphere_with_poles_on_a_grid_line_matches_brute_force() {
    // Poles at x = ±0.5 and y, z extents exactly ±0.5: with cell 0.125 and padding 0.25
    // the row y = z = 0 runs through both poles (32 triangles meet at each).
    let sphere = uv_sphere(16, 32, 0.5);
    for (cell, padding) in [(0.125, 0.25), (0.0625, 0.25), (0.047, 0.1)] {
        compare("uv sphere", &sphere, cell, padding);
    }
}

/// An icosphere with its radius modulated by smooth bumps (±15 %): many concave dents.
fn bumpy_sphere(level: usize) -> TriangleSurface {
    let mut mesh = icosphere(level, 1.0, Vector::<3>::zeros());
    for v in &mut mesh.vertices {
        let r = 0.5
            * (1.0 + 0.15 * (5.0 * v.x).sin() * (7.0 * v.y + 1.0).sin() * (4.0 * v.z + 0.5).cos());
        *v *= r;
    }
    outward(mesh)
}

#[test]
fn bumpy_and_finely_triangulated_meshes_match_brute_force() {
    let bumpy = bumpy_sphere(3);
    for cell in [0.08, 0.03] {
        compare("bumpy sphere 1280", &bumpy, cell, 0.1);
    }
    let fine_ring = torus(0.35, 0.15, 96, 32);
    for cell in [0.06, 0.04] {
        compare("torus 6144", &fine_ring, cell, 0.1);
    }
}

#[test]
fn concave_meshes_match_brute_force() {
    let ring = torus(0.35, 0.15, 32, 16);
    for cell in [0.05, 0.02] {
        compare("torus", &ring, cell, 0.1);
    }
    let l = l_prism();
    // 0.125: vertices on nodes, edges on grid lines, the notch's faces on grid planes.
    for (cell, padding) in [(0.125, 0.25), (0.0625, 0.125), (0.07, 0.1), (0.021, 0.05)] {
        compare("L prism", &l, cell, padding);
    }
}

#[test]
fn result_is_the_same_for_any_thread_count() {
    let meshes = [
        icosphere(3, 0.5, Vector::<3>::new(0.013, -0.021, 0.007)),
        torus(0.35, 0.15, 32, 16),
        l_prism(),
    ];
    for mesh in &meshes {
        let build = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| SdfGrid::from_mesh(mesh, 0.02, 0.05).unwrap())
        };
        let bits = |g: &SdfGrid<3>| g.values().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        let one = build(1);
        for threads in [2, 3] {
            let other = build(threads);
            assert_eq!(one.dims(), other.dims());
            assert!(
                bits(&one) == bits(&other),
                "{threads} threads differ from 1"
            );
        }
    }
}
