//! Rectangular cloth grids with structural, shear and bending constraints.

use crate::constraint::{
    DihedralBendingConstraints, DistanceConstraints, IsometricBendingConstraints,
};
use crate::{BuildError, Particles, Vector};

/// How a [`ClothGrid`] resists bending.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum ClothBending {
    /// No bending constraints.
    #[default]
    None,
    /// Distance constraints between particles two apart along rows and columns.
    SkipOneDistance {
        /// Compliance α (m/N).
        compliance: f64,
    },
    /// Dihedral-angle constraints on every interior edge (3D only).
    Dihedral {
        /// Bending stiffness k_b (N·m).
        stiffness: f64,
    },
    /// Isometric quadratic bending on every interior edge (3D only).
    Isometric {
        /// Bending stiffness k_b (N·m).
        stiffness: f64,
    },
}

/// A rectangular cloth of `nx × ny` particles spanning `size` in the plane of the first two
/// axes, starting at `origin`, with total mass `total_mass` spread evenly.
///
/// Constraints: structural (row and column neighbours) with compliance `stretch_compliance`,
/// both shear diagonals of each quad with `shear_compliance`, and bending per [`ClothBending`].
///
/// ```
/// use xpbd_core::builders::ClothGrid;
/// let cloth = ClothGrid::<3> { nx: 4, ny: 3, ..ClothGrid::default() }.build().unwrap();
/// assert_eq!(cloth.particles.len(), 12);
/// // structural 3·3 + 4·2 = 17, shear 2·(3·2) = 12
/// assert_eq!(cloth.stretch.pairs.len(), 17 + 12);
/// assert_eq!(cloth.triangles.len(), 2 * 3 * 2);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ClothGrid<const D: usize> {
    /// Particles along the first axis (≥ 2).
    pub nx: usize,
    /// Particles along the second axis (≥ 2).
    pub ny: usize,
    /// Extent along the two axes (m).
    pub size: [f64; 2],
    /// Position of particle (0, 0).
    pub origin: Vector<D>,
    /// Total mass (kg).
    pub total_mass: f64,
    /// Compliance of structural edges (m/N).
    pub stretch_compliance: f64,
    /// Compliance of shear diagonals (m/N).
    pub shear_compliance: f64,
    /// Bending model.
    pub bending: ClothBending,
    /// Grid coordinates `(i, j)` of pinned particles.
    pub pinned: Vec<(usize, usize)>,
}

impl<const D: usize> Default for ClothGrid<D> {
    fn default() -> Self {
        Self {
            nx: 10,
            ny: 10,
            size: [1.0, 1.0],
            origin: Vector::<D>::zeros(),
            total_mass: 1.0,
            stretch_compliance: 0.0,
            shear_compliance: 0.0,
            bending: ClothBending::None,
            pinned: Vec::new(),
        }
    }
}

/// A built cloth: particles, constraints and the triangle list (two per quad).
#[derive(Debug, Clone)]
pub struct Cloth<const D: usize> {
    /// Particle `(i, j)` has index `j * nx + i`.
    pub particles: Particles<D>,
    /// Structural and shear distance constraints (and skip-one bending springs if chosen).
    pub stretch: DistanceConstraints,
    /// Triangles, counter-clockwise seen from +z.
    pub triangles: Vec<[usize; 3]>,
    /// Grid size.
    pub nx: usize,
    /// Grid size.
    pub ny: usize,
}

impl<const D: usize> Cloth<D> {
    /// Index of grid particle `(i, j)`.
    pub fn index(&self, i: usize, j: usize) -> usize {
        j * self.nx + i
    }

    /// Interior edges as stencils `[w₀, w₁, e₀, e₁]` (wings, then the shared edge).
    pub fn interior_edges(&self) -> Vec<[usize; 4]> {
        interior_edges(&self.triangles)
    }
}

impl Cloth<3> {
    /// Dihedral bending constraints on every interior edge.
    pub fn dihedral_bending(
        &self,
        stiffness: f64,
    ) -> Result<DihedralBendingConstraints, BuildError> {
        let mut b = DihedralBendingConstraints::new();
        for e in self.interior_edges() {
            b.add(&self.particles, e, stiffness)?;
        }
        Ok(b)
    }

    /// Isometric bending constraints on every interior edge.
    pub fn isometric_bending(
        &self,
        stiffness: f64,
    ) -> Result<IsometricBendingConstraints, BuildError> {
        let mut b = IsometricBendingConstraints::new();
        for [w0, w1, e0, e1] in self.interior_edges() {
            b.add(&self.particles, [e0, e1, w0, w1], stiffness)?;
        }
        Ok(b)
    }
}

/// Interior edges of a triangle list as `[w₀, w₁, e₀, e₁]`, in a deterministic order.
pub fn interior_edges(triangles: &[[usize; 3]]) -> Vec<[usize; 4]> {
    let mut half: Vec<((usize, usize), usize)> = Vec::with_capacity(3 * triangles.len());
    for t in triangles {
        for k in 0..3 {
            let (a, b, w) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            half.push(((a.min(b), a.max(b)), w));
        }
    }
    half.sort_unstable();
    half.windows(2)
        .filter(|p| p[0].0 == p[1].0)
        .map(|p| [p[0].1, p[1].1, p[0].0.0, p[0].0.1])
        .collect()
}

impl<const D: usize> ClothGrid<D> {
    /// Validates and builds the cloth.
    pub fn build(&self) -> Result<Cloth<D>, BuildError> {
        if self.nx < 2 || self.ny < 2 {
            return Err(BuildError::InvalidGeometry(format!(
                "cloth needs at least 2×2 particles, got {}×{}",
                self.nx, self.ny
            )));
        }
        if !self.size.iter().all(|s| s.is_finite() && *s > 0.0) {
            return Err(BuildError::InvalidGeometry(format!(
                "cloth size must be positive, got {:?}",
                self.size
            )));
        }
        if !(self.total_mass.is_finite() && self.total_mass > 0.0) {
            return Err(BuildError::NegativeMass {
                particle: 0,
                value: self.total_mass,
            });
        }
        let (nx, ny) = (self.nx, self.ny);
        let n = nx * ny;
        let w = n as f64 / self.total_mass;
        let mut particles = Particles::new();
        for j in 0..ny {
            for i in 0..nx {
                let mut x = self.origin;
                x[0] += self.size[0] * i as f64 / (nx - 1) as f64;
                x[1] += self.size[1] * j as f64 / (ny - 1) as f64;
                particles.push(x, w);
            }
        }
        for &(i, j) in &self.pinned {
            if i >= nx || j >= ny {
                return Err(BuildError::IndexOutOfRange {
                    kind: "cloth pin",
                    constraint: 0,
                    index: j * nx + i,
                    len: n,
                });
            }
            particles.pin(j * nx + i);
        }
        let id = |i: usize, j: usize| j * nx + i;
        // Constraints are emitted in independent groups (each group touches every particle at
        // most once): horizontal, vertical and the two diagonal directions, each split by the
        // parity of i. A greedy colouring in index order then gives one colour per group, so
        // colours are contiguous in memory and the coloured sweep streams through its data.
        let mut stretch = DistanceConstraints::new();
        type Edge = fn(usize, usize) -> ((usize, usize), (usize, usize));
        let directions: [(Edge, usize, usize, bool); 4] = [
            (|i, j| ((i, j), (i + 1, j)), 1, 0, false),
            (|i, j| ((i, j), (i, j + 1)), 0, 1, false),
            (|i, j| ((i, j), (i + 1, j + 1)), 1, 1, true),
            (|i, j| ((i + 1, j), (i, j + 1)), 1, 1, true),
        ];
        for (edge, di, dj, shear) in directions {
            let alpha = if shear {
                self.shear_compliance
            } else {
                self.stretch_compliance
            };
            // Horizontal-type edges conflict along i, vertical ones along j.
            let along_i = di == 1;
            for parity in 0..2 {
                for j in 0..ny - dj {
                    for i in 0..nx - di {
                        if (if along_i { i } else { j }) % 2 != parity {
                            continue;
                        }
                        let ((a, b), (c, d)) = edge(i, j);
                        stretch.add(&particles, id(a, b), id(c, d), alpha)?;
                    }
                }
            }
        }
        if let ClothBending::SkipOneDistance { compliance } = self.bending {
            for (di, dj) in [(2, 0), (0, 2)] {
                for group in 0..2 {
                    for j in 0..ny - dj {
                        for i in 0..nx - di {
                            if ((if di == 2 { i } else { j }) / 2) % 2 == group {
                                stretch.add(
                                    &particles,
                                    id(i, j),
                                    id(i + di, j + dj),
                                    compliance,
                                )?;
                            }
                        }
                    }
                }
            }
        }
        let mut triangles = Vec::with_capacity(2 * (nx - 1) * (ny - 1));
        for j in 0..ny - 1 {
            for i in 0..nx - 1 {
                triangles.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                triangles.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        Ok(Cloth {
            particles,
            stretch,
            triangles,
            nx,
            ny,
        })
    }

    /// The cloth tutorial's compliance for a grid edge of rest length `l₀`:
    /// `α = l₀ / (E A)` with `A = spacing × thickness` (each edge carries a strip of the sheet
    /// as wide as the grid spacing).
    pub fn edge_compliance(
        rest_length: f64,
        youngs: f64,
        thickness: f64,
        spacing: f64,
    ) -> Result<f64, BuildError> {
        DistanceConstraints::compliance_from_material(rest_length, youngs, thickness * spacing)
    }
}

/// The project's reference cloth benchmark, exactly: `n × n` particles, 1 m × 1 m,
/// 1 kg spread evenly, horizontal at z = 0, pinned at the two corners of the edge y = 0,
/// gravity (0, 0, −9.81), distance constraints on structural edges and both shear diagonals
/// with compliance 0, 10 substeps × 1 iteration. Step it with Δt = 1/60 s.
///
/// ```
/// use xpbd_core::SolverKind;
/// let sim = xpbd_core::builders::cloth::benchmark_cloth(8, SolverKind::Coloured, 1).unwrap();
/// assert_eq!(sim.particles().len(), 64);
/// ```
pub fn benchmark_cloth(
    n: usize,
    solver: crate::SolverKind,
    threads: usize,
) -> Result<crate::Simulation<3>, BuildError> {
    let cloth = ClothGrid::<3> {
        nx: n,
        ny: n,
        pinned: vec![(0, 0), (n - 1, 0)],
        ..ClothGrid::default()
    }
    .build()?;
    let settings = crate::SolverSettings::<3> {
        substeps: 10,
        iterations: 1,
        solver,
        threads,
        gravity: Vector::<3>::new(0.0, 0.0, -9.81),
        ..crate::SolverSettings::default()
    };
    let mut sim = crate::Simulation::new(cloth.particles, settings)?;
    sim.add_constraints(cloth.stretch)?;
    Ok(sim)
}
