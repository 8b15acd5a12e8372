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
