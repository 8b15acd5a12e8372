//! Mesh generator, validation and import tests (one per `MeshError` variant).

use super::*;
use nalgebra::{Vector2, Vector3};

#[test]
fn box_beam_is_conforming_positive_and_fills_the_box() {
    let m = TetMesh::box_beam([2.0, 0.5, 0.3], [4, 2, 3]).unwrap();
    m.validate().unwrap();
    // Volume of the box, exactly (sum of positive tets).
    assert!((m.total_measure() - 0.3).abs() < 1e-13);
    // Conforming: every interior triangle is shared by exactly two tets, boundary ones by one;
    // the boundary area equals the box surface area 2(ab + bc + ca).
    let mut faces = std::collections::HashMap::<[u32; 3], usize>::new();
    for c in &m.cells {
        for skip in 0..4 {
            let mut f: Vec<u32> = (0..4).filter(|&i| i != skip).map(|i| c[i]).collect();
            f.sort_unstable();
            *faces.entry([f[0], f[1], f[2]]).or_default() += 1;
        }
    }
    assert!(faces.values().all(|&n| n == 1 || n == 2));
    let boundary: Vec<[u32; 3]> = faces
        .iter()
        .filter(|(_, n)| **n == 1)
        .map(|(f, _)| *f)
        .collect();
    let surface = SurfaceMesh {
        vertices: m.vertices.clone(),
        cells: boundary,
    };
    let area = 2.0 * (2.0 * 0.5 + 0.5 * 0.3 + 0.3 * 2.0);
    assert!((surface.total_measure() - area).abs() < 1e-12);
    // Euler characteristic of a ball: V − E + F − T = 1.
    let v = m.vertices.len() as i64;
    let e = m.unique_edges().len() as i64;
    assert_eq!(v - e + faces.len() as i64 - m.cells.len() as i64, 1);
}

#[test]
fn rectangle_is_ccw_and_fills() {
    let m = TriMesh2::rectangle([3.0, 1.0], [6, 2]).unwrap();
    m.validate().unwrap();
    assert!((m.total_measure() - 3.0).abs() < 1e-13);
    // V − E + F = 1 for a disc.
    assert_eq!(
        m.vertices.len() as i64 - m.unique_edges().len() as i64 + m.cells.len() as i64,
        1
    );
}

fn unit_tet() -> TetMesh {
    TetMesh {
        vertices: vec![Vector3::zeros(), Vector3::x(), Vector3::y(), Vector3::z()],
        cells: vec![[0, 1, 2, 3]],
    }
}

#[test]
fn error_non_finite_vertex() {
    let mut m = unit_tet();
    m.vertices[2].y = f64::NAN;
    assert_eq!(m.validate(), Err(MeshError::NonFiniteVertex { vertex: 2 }));
}

#[test]
fn error_index_out_of_range() {
    let mut m = unit_tet();
    m.cells[0][3] = 7;
    assert_eq!(
        m.validate(),
        Err(MeshError::IndexOutOfRange {
            cell: 0,
            local: 3,
            index: 7,
            vertex_count: 4
        })
    );
}

#[test]
fn error_repeated_vertex() {
    let mut m = unit_tet();
    m.cells[0] = [0, 1, 1, 3];
    assert_eq!(
        m.validate(),
        Err(MeshError::RepeatedVertex { cell: 0, index: 1 })
    );
}

#[test]
fn error_degenerate_cell() {
    let mut m = unit_tet();
    m.vertices[3] = Vector3::new(0.3, 0.3, 0.0); // coplanar
    assert!(matches!(
        m.validate(),
        Err(MeshError::DegenerateCell { cell: 0, .. })
    ));
    let flat = TriMesh2 {
        vertices: vec![
            Vector2::zeros(),
            Vector2::new(1.0, 0.0),
            Vector2::new(2.0, 0.0),
        ],
        cells: vec![[0, 1, 2]],
    };
    assert!(matches!(
        flat.validate(),
        Err(MeshError::DegenerateCell { .. })
    ));
}

#[test]
fn error_inverted_cell_and_repair() {
    let mut m = unit_tet();
    m.cells[0] = [0, 2, 1, 3];
    assert!(
        matches!(m.validate(), Err(MeshError::InvertedCell { cell: 0, measure }) if (measure + 1.0 / 6.0).abs() < 1e-15)
    );
    m.orient_positively();
    m.validate().unwrap();
}

#[test]
fn error_invalid_generator_input() {
    assert!(matches!(
        TetMesh::box_beam([1.0, -1.0, 1.0], [1, 1, 1]),
        Err(MeshError::InvalidGeneratorInput {
            field: "lengths[1]",
            ..
        })
    ));
    assert!(matches!(
        TriMesh2::rectangle([1.0, 1.0], [1, 0]),
        Err(MeshError::InvalidGeneratorInput {
            field: "cells[1]",
            ..
        })
    ));
}
