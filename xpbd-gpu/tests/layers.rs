//! A CPU continuum of several materials (`XpbiContinuum::with_materials`) is refused by the
//! GPU description with a typed error: the GPU XPBI path has one material per body, and using
//! the table's first entry for every particle would silently simulate another body. Needs no
//! adapter (the description is built on the CPU).

use nalgebra::Vector3;
use xpbd_core::SolverKind;
use xpbd_gpu::{GpuError, XpbiGpuScene};
use xpbi_continuum::material::Material;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};

fn options(dx: f64) -> SceneOptions {
    let mut o = SceneOptions::new(dx);
    o.solver = SolverKind::JACOBI;
    o.iterations = 10;
    o.dt = 1e-4;
    o
}

#[test]
fn a_body_of_several_materials_is_refused_by_name() {
    let dx = 0.01;
    let x = lattice_box(Vector3::zeros(), Vector3::repeat(0.04), dx);
    let ids = x.iter().map(|p| u8::from(p.z > 0.02)).collect();
    let layered = ContinuumScene::<3>::with_materials(
        &x,
        vec![Material::sand(), Material::clay()],
        ids,
        options(dx),
    )
    .unwrap();
    let err = XpbiGpuScene::from_cpu(&layered).unwrap_err();
    assert_eq!(err, GpuError::SeveralMaterials { materials: 2 });
    assert!(err.to_string().contains("2 materials"), "{err}");
    // A table of one is the one-material body, which the GPU path takes.
    let one = ContinuumScene::<3>::with_materials(
        &x,
        vec![Material::sand()],
        vec![0; x.len()],
        options(dx),
    )
    .unwrap();
    let desc = XpbiGpuScene::from_cpu(&one).unwrap();
    assert_eq!(desc.material, Material::sand());
}
