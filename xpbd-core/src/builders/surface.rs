//! Triangle surfaces held in memory (collider meshes for signed-distance grids, cloth
//! surfaces). Reading them from files (OBJ, PLY, Gmsh) is xpbd-scene's `import` module.

use crate::Vector;

/// Vertices and triangles of a surface.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TriangleSurface {
    /// Vertex positions.
    pub vertices: Vec<Vector<3>>,
    /// Triangles (vertex indices).
    pub triangles: Vec<[usize; 3]>,
}

impl TriangleSurface {
    /// An icosahedron subdivided `subdivisions` times, its vertices pushed onto the sphere of
    /// `radius` about `centre`: 10·4ⁿ + 2 vertices, 20·4ⁿ triangles, facing outwards (for
    /// mesh colliders, examples and tests).
    ///
    /// ```
    /// use xpbd_core::builders::TriangleSurface;
    /// use xpbd_core::Vector;
    /// let s = TriangleSurface::icosphere(2, 0.5, Vector::<3>::zeros());
    /// assert_eq!((s.vertices.len(), s.triangles.len()), (162, 320));
    /// assert!(s.vertices.iter().all(|v| (v.norm() - 0.5).abs() < 1e-12));
    /// ```
    pub fn icosphere(subdivisions: usize, radius: f64, centre: Vector<3>) -> Self {
        let g = (1.0 + 5f64.sqrt()) / 2.0;
        let mut vertices: Vec<Vector<3>> = [
            [-1.0, g, 0.0],
            [1.0, g, 0.0],
            [-1.0, -g, 0.0],
            [1.0, -g, 0.0],
            [0.0, -1.0, g],
            [0.0, 1.0, g],
            [0.0, -1.0, -g],
            [0.0, 1.0, -g],
            [g, 0.0, -1.0],
            [g, 0.0, 1.0],
            [-g, 0.0, -1.0],
            [-g, 0.0, 1.0],
        ]
        .iter()
        .map(|&[x, y, z]| Vector::<3>::new(x, y, z).normalize())
        .collect();
        let mut triangles: Vec<[usize; 3]> = vec![
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
        for _ in 0..subdivisions {
            let mut mid = std::collections::HashMap::<(usize, usize), usize>::new();
            let mut next = Vec::with_capacity(triangles.len() * 4);
            for t in &triangles {
                let mut m = [0; 3];
                for e in 0..3 {
                    let (a, b) = (t[e], t[(e + 1) % 3]);
                    m[e] = *mid.entry((a.min(b), a.max(b))).or_insert_with(|| {
                        vertices.push(((vertices[a] + vertices[b]) / 2.0).normalize());
                        vertices.len() - 1
                    });
                }
                next.extend([
                    [t[0], m[0], m[2]],
                    [t[1], m[1], m[0]],
                    [t[2], m[2], m[1]],
                    [m[0], m[1], m[2]],
                ]);
            }
            triangles = next;
        }
        // Outward: a positive enclosed volume Σ a·(b × c)/6 (about the centre).
        let volume: f64 = triangles
            .iter()
            .map(|t| vertices[t[0]].dot(&vertices[t[1]].cross(&vertices[t[2]])))
            .sum();
        if volume < 0.0 {
            for t in &mut triangles {
                t.swap(1, 2);
            }
        }
        for v in &mut vertices {
            *v = centre + *v * radius;
        }
        Self {
            vertices,
            triangles,
        }
    }

    /// A unit cube centred at the origin: 8 vertices, 12 triangles, all facing outwards
    /// (counter-clockwise seen from outside), for examples and tests.
    ///
    /// ```
    /// let cube = xpbd_core::builders::TriangleSurface::unit_cube();
    /// assert_eq!((cube.vertices.len(), cube.triangles.len()), (8, 12));
    /// ```
    pub fn unit_cube() -> Self {
        let vertices = [
            [-0.5, -0.5, -0.5],
            [0.5, -0.5, -0.5],
            [0.5, 0.5, -0.5],
            [-0.5, 0.5, -0.5],
            [-0.5, -0.5, 0.5],
            [0.5, -0.5, 0.5],
            [0.5, 0.5, 0.5],
            [-0.5, 0.5, 0.5],
        ]
        .map(|[x, y, z]| Vector::<3>::new(x, y, z))
        .to_vec();
        let triangles = vec![
            [0, 2, 1],
            [0, 3, 2],
            [4, 5, 6],
            [4, 6, 7],
            [0, 1, 5],
            [0, 5, 4],
            [1, 2, 6],
            [1, 6, 5],
            [2, 3, 7],
            [2, 7, 6],
            [3, 0, 4],
            [3, 4, 7],
        ];
        Self {
            vertices,
            triangles,
        }
    }
}
