//! Structured mesh generators: box beams of tetrahedra and rectangles of triangles.

use super::{MeshError, TetMesh, TriMesh2};
use nalgebra::{Vector2, Vector3};

fn check_inputs<const N: usize>(lengths: [f64; N], cells: [usize; N]) -> Result<(), MeshError> {
    const AXES: [&str; 3] = ["lengths[0]", "lengths[1]", "lengths[2]"];
    const CELLS: [&str; 3] = ["cells[0]", "cells[1]", "cells[2]"];
    for i in 0..N {
        if !(lengths[i].is_finite() && lengths[i] > 0.0) {
            return Err(MeshError::InvalidGeneratorInput {
                field: AXES[i],
                value: lengths[i].to_string(),
            });
        }
        if cells[i] == 0 || cells[i] > u32::MAX as usize / 4 {
            return Err(MeshError::InvalidGeneratorInput {
                field: CELLS[i],
                value: cells[i].to_string(),
            });
        }
    }
    Ok(())
}

impl TetMesh {
    /// The box `[0, Lx] × [0, Ly] × [0, Lz]` split into `nx × ny × nz` hexahedra, each cut into
    /// 6 tetrahedra around its main diagonal (Kuhn/Freudenthal subdivision: every hex uses the
    /// same diagonal direction, so the mesh is conforming). All tets are positively oriented.
    /// Vertex `(i, j, k)` has index `i + (nx+1)(j + (ny+1) k)`.
    ///
    /// ```
    /// use xpbd_core::mesh::TetMesh;
    /// let m = TetMesh::box_beam([2.0, 1.0, 1.0], [2, 1, 1]).unwrap();
    /// assert_eq!((m.vertices.len(), m.cells.len()), (12, 12));
    /// assert!(TetMesh::box_beam([1.0, 1.0, 1.0], [0, 1, 1]).is_err());
    /// ```
    pub fn box_beam(lengths: [f64; 3], cells: [usize; 3]) -> Result<Self, MeshError> {
        check_inputs(lengths, cells)?;
        let [nx, ny, nz] = cells;
        let index = |i: usize, j: usize, k: usize| (i + (nx + 1) * (j + (ny + 1) * k)) as u32;
        let mut vertices = Vec::with_capacity((nx + 1) * (ny + 1) * (nz + 1));
        for k in 0..=nz {
            for j in 0..=ny {
                for i in 0..=nx {
                    vertices.push(Vector3::new(
                        lengths[0] * i as f64 / nx as f64,
                        lengths[1] * j as f64 / ny as f64,
                        lengths[2] * k as f64 / nz as f64,
                    ));
                }
            }
        }
        // The 6 monotone lattice paths from corner 0 to corner 7 (bit 0 = x, 1 = y, 2 = z).
        const PERMUTATIONS: [[usize; 3]; 6] = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        let mut tets = Vec::with_capacity(6 * nx * ny * nz);
        for k in 0..nz {
            for j in 0..ny {
                for i in 0..nx {
                    let corner = |bits: usize| {
                        index(i + (bits & 1), j + ((bits >> 1) & 1), k + ((bits >> 2) & 1))
                    };
                    for p in PERMUTATIONS {
                        let b1 = 1 << p[0];
                        let b2 = b1 | (1 << p[1]);
                        tets.push([corner(0), corner(b1), corner(b2), corner(7)]);
                    }
                }
            }
        }
        let mut mesh = Self {
            vertices,
            cells: tets,
        };
        mesh.orient_positively();
        Ok(mesh)
    }
}

impl TriMesh2 {
    /// The rectangle `[0, Lx] × [0, Ly]` split into `nx × ny` quads, each cut into two
    /// counter-clockwise triangles along the same diagonal. Vertex `(i, j)` has index
    /// `i + (nx+1) j`.
    ///
    /// ```
    /// use xpbd_core::mesh::TriMesh2;
    /// let m = TriMesh2::rectangle([2.0, 1.0], [4, 2]).unwrap();
    /// assert_eq!(m.cells.len(), 16);
    /// assert!((m.total_measure() - 2.0).abs() < 1e-12);
    /// ```
    pub fn rectangle(lengths: [f64; 2], cells: [usize; 2]) -> Result<Self, MeshError> {
        check_inputs(lengths, cells)?;
        let [nx, ny] = cells;
        let index = |i: usize, j: usize| (i + (nx + 1) * j) as u32;
        let mut vertices = Vec::with_capacity((nx + 1) * (ny + 1));
        for j in 0..=ny {
            for i in 0..=nx {
                vertices.push(Vector2::new(
                    lengths[0] * i as f64 / nx as f64,
                    lengths[1] * j as f64 / ny as f64,
                ));
            }
        }
        let mut tris = Vec::with_capacity(2 * nx * ny);
        for j in 0..ny {
            for i in 0..nx {
                tris.push([index(i, j), index(i + 1, j), index(i + 1, j + 1)]);
                tris.push([index(i, j), index(i + 1, j + 1), index(i, j + 1)]);
            }
        }
        Ok(Self {
            vertices,
            cells: tris,
        })
    }
}
