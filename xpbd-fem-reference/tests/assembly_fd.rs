//! System-level consistency of the assembly, by central finite differences at a deformed state
//! (random displacement of 5 % of the mesh size on every free node):
//! `δᵀ f_int ≈ (W(u + hδ) − W(u − hδ)) / 2h` and `K δ ≈ (f(u + hδ) − f(u − hδ)) / 2h`,
//! for P1 and P2, in 2-D and 3-D, for every material; the stiffness is symmetric; and the
//! consistent mass matrix carries the body's mass exactly (`1ᵀ M_xx 1 = ρ V`).
//!
//! Tolerance 1e-6 relative: central differences with h = 1e-6 have truncation error
//! O(h²‖∂³W‖) ≈ 1e-12 and round-off O(ε‖W‖/h) ≈ 1e-10 relative; a missing term or wrong index
//! in assembly is an O(1) error.

use xpbd_core::mesh::{SimplexMesh, TetMesh, TriMesh2};
use xpbd_fem_reference::assembly::{System, internal_force, mass, stiffness, strain_energy};
use xpbd_fem_reference::*;

fn pseudo_random(i: usize) -> f64 {
    // Deterministic values in [-1, 1].
    let x = ((i as f64 + 1.0) * 12.9898).sin() * 43758.5453;
    2.0 * (x - x.floor()) - 1.0
}

fn check<const D: usize, const K: usize>(linear: &SimplexMesh<D, K>, h_mesh: f64) {
    for order in [ElementOrder::Linear, ElementOrder::Quadratic] {
        for kind in [
            MaterialKind::Hencky,
            MaterialKind::NeoHookean,
            MaterialKind::StableNeoHookean,
            MaterialKind::Linear,
        ] {
            let mesh = FemMesh::from_simplex_mesh(linear, order).unwrap();
            let mut p =
                Problem::new(mesh, ConstitutiveModel::new(kind, 50.0, 0.3).unwrap(), 2.0).unwrap();
            p.clamp(|x| x.norm() < 1e-12); // one node: the system exists, everything else free
            let system = System::new(&p).unwrap();
            let n = p.dof_count();
            let u: Vec<f64> = (0..n)
                .map(|i| {
                    if system.free_index[i] == u32::MAX {
                        0.0
                    } else {
                        0.05 * h_mesh * pseudo_random(i)
                    }
                })
                .collect();
            let delta_free: Vec<f64> = (0..system.free_count)
                .map(|i| pseudo_random(7 * i + 3))
                .collect();
            let mut delta = vec![0.0; n];
            system.add_free(&mut delta, &delta_free, 1.0);
            let h = 1e-6;
            let shifted =
                |s: f64| -> Vec<f64> { u.iter().zip(&delta).map(|(a, d)| a + s * h * d).collect() };
            let (up, um) = (shifted(1.0), shifted(-1.0));
            // Energy → force.
            let f = internal_force(&p, &u);
            let directional: f64 = f.iter().zip(&delta).map(|(a, b)| a * b).sum();
            let fd =
                (strain_energy(&p, &up).unwrap() - strain_energy(&p, &um).unwrap()) / (2.0 * h);
            assert!(
                (fd - directional).abs() < 1e-6 * directional.abs().max(1e-3),
                "{order:?} {kind:?} D={D}: force {directional} vs FD {fd}"
            );
            // Force → stiffness (free block).
            let k = stiffness(&p, &system, &u, false);
            let kd = system.pattern.mul_vec(&k, &delta_free);
            let fd_f: Vec<f64> = system
                .restrict(&internal_force(&p, &up))
                .iter()
                .zip(system.restrict(&internal_force(&p, &um)))
                .map(|(a, b)| (a - b) / (2.0 * h))
                .collect();
            let err = kd
                .iter()
                .zip(&fd_f)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
                .sqrt();
            let size = kd.iter().map(|a| a * a).sum::<f64>().sqrt();
            assert!(
                err < 1e-6 * size,
                "{order:?} {kind:?} D={D}: stiffness error {err:e} of {size:e}"
            );
            // Stiffness symmetry (hyperelastic) on the stored pattern.
            let other: Vec<f64> = (0..system.free_count)
                .map(|i| pseudo_random(11 * i + 5))
                .collect();
            let kx = system.pattern.mul_vec(&k, &other);
            let a: f64 = kd.iter().zip(&other).map(|(x, y)| x * y).sum();
            let b: f64 = kx.iter().zip(&delta_free).map(|(x, y)| x * y).sum();
            assert!(
                (a - b).abs() < 1e-10 * a.abs().max(b.abs()),
                "asymmetric stiffness"
            );
        }
    }
}

#[test]
fn assembly_is_consistent_2d() {
    check(&TriMesh2::rectangle([1.0, 0.5], [4, 2]).unwrap(), 0.25);
}

#[test]
fn assembly_is_consistent_3d() {
    check(&TetMesh::box_beam([1.0, 0.5, 0.5], [2, 1, 1]).unwrap(), 0.5);
}

#[test]
fn consistent_mass_integrates_the_total_mass_exactly() {
    // Clamp only the y components so every x DOF is free: 1ᵀ M_xx 1 = ρ V exactly.
    for order in [ElementOrder::Linear, ElementOrder::Quadratic] {
        let mesh = FemMesh::from_simplex_mesh(
            &TetMesh::box_beam([1.0, 0.5, 0.25], [3, 2, 1]).unwrap(),
            order,
        )
        .unwrap();
        let mut p = Problem::new(
            mesh,
            ConstitutiveModel::new(MaterialKind::Linear, 1.0, 0.3).unwrap(),
            3.0,
        )
        .unwrap();
        for node in 0..p.mesh.nodes.len() {
            p.prescribe(node, 1, 0.0).unwrap();
        }
        let system = System::new(&p).unwrap();
        let m = mass(&p, &system);
        let ones: Vec<f64> = (0..p.dof_count())
            .map(|d| if d % 3 == 0 { 1.0 } else { 0.0 })
            .collect();
        let ones_free = system.restrict(&ones);
        let total: f64 = ones_free
            .iter()
            .zip(system.pattern.mul_vec(&m, &ones_free))
            .map(|(a, b)| a * b)
            .sum();
        assert!((total - 3.0 * 0.125).abs() < 1e-14, "{order:?}: {total}");
    }
}
