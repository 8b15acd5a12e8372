//! The distances of a signed-distance grid: exact in a band around the surface, then
//! closest-triangle propagation by fast sweeping, a descent over the mesh and a polish (see
//! [`super`]).

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64};

use rayon::prelude::*;

use super::closest_point_on_triangle;
use super::lattice::Lattice;
use crate::Vector;

/// Cells around each triangle within which nodes get their exact distance to it first: every
/// node within `BAND` cells of the surface gets its exact value there.
const BAND: f64 = 2.0;
/// Passes over the 8 diagonal sweep orders. makelevelset3 makes 2; with the descent and the
/// polish that follow here, a second pass gave no measurable gain on the test meshes (the
/// same largest deviation from brute force) for twice the sweep time.
const SWEEP_PASSES: usize = 1;
/// The 8 sweep orders (axis directions, true = increasing), in makelevelset3's order.
const SWEEP_ORDERS: [[bool; 3]; 8] = [
    [true, true, true],
    [false, false, false],
    [true, true, false],
    [false, false, true],
    [true, false, true],
    [false, true, false],
    [true, false, false],
    [false, true, true],
];
/// Side of the cubic blocks of nodes that the sweeps hand to threads.
const SWEEP_BLOCK: usize = 16;
/// z-planes per slab in the band's pass (one slab per task).
const BAND_SLAB: usize = 8;
/// "No closest triangle yet."
pub(super) const NONE: u32 = u32::MAX;

/// A triangle prepared for fast squared distances (used to compare candidates in the sweeps
/// and the descent; values are recomputed with [`closest_point_on_triangle`] at the end).
#[derive(Debug, Clone, Copy)]
struct Facet {
    a: Vector<3>,
    ab: Vector<3>,
    ac: Vector<3>,
    bc: Vector<3>,
    /// `(x − a)·to_b`, `(x − a)·to_c`: barycentric weights of b and c of x's projection.
    to_b: Vector<3>,
    to_c: Vector<3>,
    unit_normal: Vector<3>,
    inv_len2: [f64; 3],
}

impl Facet {
    fn new(t: &[Vector<3>; 3]) -> Self {
        let ab = t[1] - t[0];
        let ac = t[2] - t[0];
        let bc = t[2] - t[1];
        let n = ab.cross(&ac);
        let n2 = n.norm_squared();
        Self {
            a: t[0],
            ab,
            ac,
            bc,
            to_b: ac.cross(&n) / n2,
            to_c: n.cross(&ab) / n2,
            unit_normal: n / n2.sqrt(),
            inv_len2: [ab, ac, bc].map(|e| 1.0 / e.norm_squared()),
        }
    }

    /// The squared distance from `x` when it is below `bound`: to the plane when x projects
    /// inside, else to the nearest edge (all three evaluated without branching on the Voronoi
    /// region). The plane's distance, a lower bound, is checked first.
    fn nearer(&self, x: &Vector<3>, bound: f64) -> Option<f64> {
        let ap = x - self.a;
        let h = ap.dot(&self.unit_normal);
        if h * h >= bound {
            return None;
        }
        let beta = ap.dot(&self.to_b);
        let gamma = ap.dot(&self.to_c);
        let d = if beta >= 0.0 && gamma >= 0.0 && beta + gamma <= 1.0 {
            h * h
        } else {
            let segment = |p: Vector<3>, e: &Vector<3>, inv: f64| {
                let t = (p.dot(e) * inv).clamp(0.0, 1.0);
                (p - e * t).norm_squared()
            };
            segment(ap, &self.ab, self.inv_len2[0])
                .min(segment(ap, &self.ac, self.inv_len2[1]))
                .min(segment(ap - self.ab, &self.bc, self.inv_len2[2]))
        };
        (d < bound).then_some(d)
    }
}

/// Squared distance from every node to the nearest triangle found (axis 0 fastest) and that
/// triangle's index: exact within `BAND` cells of the surface, then propagated by the sweeps,
/// the descent and the polish; the values are finally recomputed as the brute-force
/// construction computes them (closest point, then squared norm).
pub(super) fn closest_triangles(
    tris: &[[Vector<3>; 3]],
    triangles: &[[usize; 3]],
    vertex_count: usize,
    lattice: &Lattice,
) -> (Vec<f64>, Vec<u32>) {
    let reach = BAND * lattice.cell;
    let exact = reach * reach;
    let (d2, closest) = band(tris, lattice, reach);
    let facets: Vec<Facet> = tris.iter().map(Facet::new).collect();
    let rings = Rings::new(triangles, vertex_count);
    let (mut d2, mut closest) = sweeps(&facets, lattice, exact, d2, closest);
    descend(&facets, &rings, lattice, exact, &mut d2, &mut closest);
    polish(&facets, &rings, lattice, exact, &mut d2, &mut closest);
    d2.par_iter_mut()
        .zip(closest.par_iter())
        .enumerate()
        .for_each(|(lin, (d, &t))| {
            if *d > exact && t != NONE {
                let x = lattice.node(lattice.multi_index(lin));
                *d = (closest_point_on_triangle(&x, &tris[t as usize]) - x).norm_squared();
            }
        });
    (d2, closest)
}

/// The band: every node in a triangle's bounding box grown by `reach`, and within `reach` of
/// its plane, gets its exact squared distance to it; each node keeps the smallest, the first
/// triangle on ties. Split into slabs of z-planes, each walking the triangles that reach it in
/// triangle order, so every node sees the same triangles in the same order as in one serial
/// pass.
fn band(tris: &[[Vector<3>; 3]], lattice: &Lattice, reach: f64) -> (Vec<f64>, Vec<u32>) {
    let [nx, ny, nz] = lattice.dims;
    let spans = |t: &[Vector<3>; 3]| -> Option<[(usize, usize); 3]> {
        let lo = t[0].inf(&t[1]).inf(&t[2]);
        let hi = t[0].sup(&t[1]).sup(&t[2]);
        let grow = reach / lattice.cell;
        Some([
            lattice.span(0, lo[0], hi[0], grow)?,
            lattice.span(1, lo[1], hi[1], grow)?,
            lattice.span(2, lo[2], hi[2], grow)?,
        ])
    };
    let mut per_slab: Vec<Vec<u32>> = vec![Vec::new(); nz.div_ceil(BAND_SLAB)];
    for (ti, t) in tris.iter().enumerate() {
        if let Some(s) = spans(t) {
            for list in &mut per_slab[s[2].0 / BAND_SLAB..=s[2].1 / BAND_SLAB] {
                list.push(ti as u32);
            }
        }
    }
    let mut d2 = vec![f64::INFINITY; lattice.len()];
    let mut closest = vec![NONE; lattice.len()];
    let slab_len = nx * ny * BAND_SLAB;
    d2.par_chunks_mut(slab_len)
        .zip(closest.par_chunks_mut(slab_len))
        .zip(per_slab.par_iter())
        .enumerate()
        .for_each(|(slab, ((d2, closest), list))| {
            let k0 = slab * BAND_SLAB;
            let k1 = k0 + d2.len() / (nx * ny) - 1;
            let offset = k0 * nx * ny;
            for &ti in list {
                let t = &tris[ti as usize];
                let Some(mut s) = spans(t) else { continue };
                s[2] = (s[2].0.max(k0), s[2].1.min(k1));
                triangle_band(t, s, lattice, reach, |m| {
                    let x = lattice.node(m);
                    let d = (closest_point_on_triangle(&x, t) - x).norm_squared();
                    let lin = lattice.index(m) - offset;
                    if d < d2[lin] {
                        d2[lin] = d;
                        closest[lin] = ti;
                    }
                });
            }
        });
    (d2, closest)
}

/// Calls `visit` on the nodes within `spans` that lie within `reach` of the plane of `t`
/// (rounded outwards): columns along the axis nearest the normal, each cut to the slab around
/// the plane (at most `2·reach·√3` long).
fn triangle_band(
    t: &[Vector<3>; 3],
    spans: [(usize, usize); 3],
    lattice: &Lattice,
    reach: f64,
    mut visit: impl FnMut([usize; 3]),
) {
    let normal = (t[1] - t[0]).cross(&(t[2] - t[0])).normalize();
    let a = normal.iamax();
    let (b, c) = ((a + 1) % 3, (a + 2) % 3);
    let half = reach / normal[a].abs();
    for ic in spans[c].0..=spans[c].1 {
        let yc = lattice.coord(c, ic) - t[0][c];
        for ib in spans[b].0..=spans[b].1 {
            let yb = lattice.coord(b, ib) - t[0][b];
            let on_plane = t[0][a] - (normal[b] * yb + normal[c] * yc) / normal[a];
            let Some((ia0, ia1)) = lattice.span(a, on_plane - half, on_plane + half, 0.0) else {
                continue;
            };
            for ia in ia0.max(spans[a].0)..=ia1.min(spans[a].1) {
                let mut m = [0; 3];
                (m[a], m[b], m[c]) = (ia, ib, ic);
                visit(m);
            }
        }
    }
}

/// The triangles around each vertex (CSR, in triangle order), for the descent.
#[derive(Debug)]
struct Rings<'a> {
    triangles: &'a [[usize; 3]],
    start: Vec<usize>,
    around: Vec<u32>,
}

impl<'a> Rings<'a> {
    fn new(triangles: &'a [[usize; 3]], vertex_count: usize) -> Self {
        let mut start = vec![0usize; vertex_count + 1];
        for t in triangles {
            for &v in t {
                start[v + 1] += 1;
            }
        }
        for v in 0..vertex_count {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut around = vec![0u32; start[vertex_count]];
        for (ti, t) in triangles.iter().enumerate() {
            for &v in t {
                around[fill[v]] = ti as u32;
                fill[v] += 1;
            }
        }
        Self {
            triangles,
            start,
            around,
        }
    }

    /// Moves `(d, t)` (squared distance from `x`, triangle) to the nearest triangle sharing a
    /// vertex with `t` while that is strictly nearer: a local descent over the mesh.
    fn descend(&self, facets: &[Facet], x: &Vector<3>, d: &mut f64, t: &mut u32) {
        loop {
            let current = *t;
            for &v in &self.triangles[current as usize] {
                for &u in &self.around[self.start[v]..self.start[v + 1]] {
                    if u != current
                        && let Some(du) = facets[u as usize].nearer(x, *d)
                    {
                        *d = du;
                        *t = u;
                    }
                }
            }
            if *t == current {
                return;
            }
        }
    }
}

/// Every node beyond the exact band descends over the mesh from its triangle (in parallel:
/// each node reads only the mesh and writes only itself).
fn descend(
    facets: &[Facet],
    rings: &Rings,
    lattice: &Lattice,
    exact: f64,
    d2: &mut [f64],
    closest: &mut [u32],
) {
    d2.par_iter_mut()
        .zip(closest.par_iter_mut())
        .enumerate()
        .for_each(|(lin, (d, t))| {
            if *t != NONE && *d > exact {
                let x = lattice.node(lattice.multi_index(lin));
                rings.descend(facets, &x, d, t);
            }
        });
}

/// Every node beyond the exact band tries the triangles of its 26 neighbours (as they were
/// before this round) and descends from the best when that is nearer (in parallel: each node
/// reads a snapshot and writes only itself).
fn polish(
    facets: &[Facet],
    rings: &Rings,
    lattice: &Lattice,
    exact: f64,
    d2: &mut [f64],
    closest: &mut [u32],
) {
    let snapshot = closest.to_vec();
    let dims = lattice.dims;
    d2.par_iter_mut()
        .zip(closest.par_iter_mut())
        .enumerate()
        .for_each(|(lin, (d, t))| {
            if *t == NONE || *d <= exact {
                return;
            }
            let m = lattice.multi_index(lin);
            let x = lattice.node(m);
            let start = *t;
            let mut seen = [NONE; 26];
            let mut n = 0;
            for k in m[2].saturating_sub(1)..=(m[2] + 1).min(dims[2] - 1) {
                for j in m[1].saturating_sub(1)..=(m[1] + 1).min(dims[1] - 1) {
                    for i in m[0].saturating_sub(1)..=(m[0] + 1).min(dims[0] - 1) {
                        let u = snapshot[lattice.index([i, j, k])];
                        if u == NONE || u == start || seen[..n].contains(&u) {
                            continue;
                        }
                        seen[n] = u;
                        n += 1;
                        if let Some(du) = facets[u as usize].nearer(&x, *d) {
                            *d = du;
                            *t = u;
                        }
                    }
                }
            }
            if *t != start {
                rings.descend(facets, &x, d, t);
            }
        });
}

/// `SWEEP_PASSES` rounds of the 8 diagonal Gauss–Seidel sweeps (Bridson's makelevelset3): in
/// each, every node beyond the exact band checks the closest triangles of its 7 upwind
/// neighbours and keeps the nearest. A node reads only its upwind neighbours and itself, so a
/// sweep runs as a wavefront over cubic blocks of nodes: blocks whose block indices (counted
/// in the sweep's directions) have the same sum are independent, and each is swept serially in
/// the sweep's order. Every node thus sees exactly what the serial sweep would show it: the
/// result is the serial sweep's, for any number of threads.
fn sweeps(
    facets: &[Facet],
    lattice: &Lattice,
    exact: f64,
    d2: Vec<f64>,
    closest: Vec<u32>,
) -> (Vec<f64>, Vec<u32>) {
    // (The conversions to and from atomics reuse the vectors' memory.)
    let shared = Shared {
        tried: (0..closest.len()).map(|_| AtomicU32::new(NONE)).collect(),
        d2: d2
            .into_iter()
            .map(|d| AtomicU64::new(d.to_bits()))
            .collect(),
        closest: closest.into_iter().map(AtomicU32::new).collect(),
    };
    let blocks = lattice.dims.map(|n| n.div_ceil(SWEEP_BLOCK));
    for _ in 0..SWEEP_PASSES {
        for forward in SWEEP_ORDERS {
            for wave in 0..blocks[0] + blocks[1] + blocks[2] - 2 {
                let mut front = Vec::new();
                for bk in 0..blocks[2] {
                    for bj in 0..blocks[1] {
                        if let Some(bi) = wave.checked_sub(bj + bk).filter(|&b| b < blocks[0]) {
                            front.push([bi, bj, bk]);
                        }
                    }
                }
                front.par_iter().for_each(|&block| {
                    sweep_block(facets, lattice, exact, &shared, forward, block);
                });
            }
        }
    }
    (
        shared
            .d2
            .into_iter()
            .map(|a| f64::from_bits(a.into_inner()))
            .collect(),
        shared
            .closest
            .into_iter()
            .map(AtomicU32::into_inner)
            .collect(),
    )
}

/// Node state during the sweeps: each node is written only by the task sweeping its block,
/// and read by later blocks (after the wave that wrote it has joined).
#[derive(Debug)]
struct Shared {
    /// Squared distance (bits).
    d2: Vec<AtomicU64>,
    closest: Vec<AtomicU32>,
    /// The last triangle found no nearer than the node's own: its distance is fixed and the
    /// node's only decreases, so it need not be evaluated again.
    tried: Vec<AtomicU32>,
}

/// One block of a sweep (`block` counted in the sweep's directions: block 0 is where the sweep
/// starts).
fn sweep_block(
    facets: &[Facet],
    lattice: &Lattice,
    exact: f64,
    shared: &Shared,
    forward: [bool; 3],
    block: [usize; 3],
) {
    let [nx, ny, _] = lattice.dims;
    let back: [isize; 3] = std::array::from_fn(|axis| {
        let stride = [1, nx, nx * ny][axis] as isize;
        if forward[axis] { -stride } else { stride }
    });
    // Offsets of the upwind neighbours: bit `axis` of `m` set = one step back along `axis`.
    let upwind: [isize; 8] =
        std::array::from_fn(|m| (0..3).filter(|&a| m >> a & 1 == 1).map(|a| back[a]).sum());
    let along = |axis: usize, s: usize| {
        if forward[axis] {
            s
        } else {
            lattice.dims[axis] - 1 - s
        }
    };
    let steps = |axis: usize| {
        block[axis] * SWEEP_BLOCK..((block[axis] + 1) * SWEEP_BLOCK).min(lattice.dims[axis])
    };
    for sk in steps(2) {
        let k = along(2, sk);
        for sj in steps(1) {
            let j = along(1, sj);
            // Axes along which the node has no upwind neighbour (the sweep's first planes).
            let first_jk = usize::from(sj == 0) << 1 | usize::from(sk == 0) << 2;
            for si in steps(0) {
                let i = along(0, si);
                let lin = lattice.index([i, j, k]);
                let mut d = f64::from_bits(shared.d2[lin].load(Relaxed));
                if d <= exact {
                    continue;
                }
                let first = first_jk | usize::from(si == 0);
                let mut own = shared.closest[lin].load(Relaxed);
                let tried_before = shared.tried[lin].load(Relaxed);
                let (start, mut tried) = (own, tried_before);
                let mut x = None;
                for m in 1..8 {
                    if m & first != 0 {
                        continue;
                    }
                    let t = shared.closest[lin.wrapping_add_signed(upwind[m])].load(Relaxed);
                    if t == NONE || t == own || t == tried {
                        continue;
                    }
                    let x = *x.get_or_insert_with(|| lattice.node([i, j, k]));
                    if let Some(dt) = facets[t as usize].nearer(&x, d) {
                        d = dt;
                        tried = own;
                        own = t;
                    } else {
                        tried = t;
                    }
                }
                if own != start {
                    shared.d2[lin].store(d.to_bits(), Relaxed);
                    shared.closest[lin].store(own, Relaxed);
                }
                if tried != tried_before {
                    shared.tried[lin].store(tried, Relaxed);
                }
            }
        }
    }
}
