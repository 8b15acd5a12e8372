//! Several materials in one XPBI body (`XpbiContinuum::with_materials`): a table of one is the
//! one-material body bit for bit, the row layout and thread count change no bit, each member
//! is solved with its own material (compliance, return map), and bad tables are typed errors.

use nalgebra::{Vector2, Vector3};
use xpbd_core::Particles;
use xpbd_core::constraint::ConstraintKind;
use xpbi_continuum::XpbiError;
use xpbi_continuum::continuum::{ConstraintForm, MAX_MATERIALS, XpbiContinuum, XpbiSettings};
use xpbi_continuum::material::Material;
use xpbi_continuum::plasticity::principal;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};

/// Positions, velocities, F and plastic state of every member, as bits.
fn snapshot<const D: usize>(s: &ContinuumScene<D>) -> Vec<u64> {
    let p = s.sim.particles();
    let c = s.continuum();
    let vecs = p.x.iter().chain(&p.v).flat_map(|x| x.iter().copied());
    let fs = c
        .deformation_gradients()
        .iter()
        .flat_map(|f| f.iter().copied());
    let st = c
        .plastic_states()
        .iter()
        .flat_map(|s| [s.hardening, s.volume_correction]);
    vecs.chain(fs).chain(st).map(f64::to_bits).collect()
}

/// A 2D bank: `top` over `bottom`, each half of a 24 × 16 lattice at Δx = 5 mm.
fn bank(top: u8, bottom: u8) -> (Vec<Vector2<f64>>, Vec<u8>) {
    let x = lattice_box(Vector2::zeros(), Vector2::new(0.12, 0.08), 0.005);
    let ids = x
        .iter()
        .map(|p| if p.y > 0.04 { top } else { bottom })
        .collect();
    (x, ids)
}

fn options(reorder: bool, threads: usize) -> SceneOptions {
    let mut o = SceneOptions::new(0.005);
    o.dt = 2e-4;
    o.reorder_by_cell = reorder;
    o.threads = threads;
    o
}

#[test]
fn a_table_of_one_is_the_one_material_body_bit_for_bit() {
    let (x, _) = bank(0, 0);
    let mut a = ContinuumScene::<2>::new(&x, Material::sand(), options(true, 1)).unwrap();
    let mut b = ContinuumScene::<2>::with_materials(
        &x,
        vec![Material::sand()],
        vec![0; x.len()],
        options(true, 1),
    )
    .unwrap();
    for _ in 0..30 {
        a.step().unwrap();
        b.step().unwrap();
    }
    assert_eq!(snapshot(&a), snapshot(&b));
    assert_eq!(b.continuum().materials(), &[Material::sand()]);
}

/// Sand over clay in 2D: the row layout (sweep order or by member) and the thread count
/// change no bit, and every member ends each step inside its own material's yield surface.
#[test]
fn sand_over_clay_is_layout_and_thread_independent_and_inside_its_surfaces() {
    let (x, ids) = bank(0, 1);
    let table = vec![Material::sand(), Material::clay()];
    let run = |reorder, threads, check: bool| {
        let mut s = ContinuumScene::<2>::with_materials(
            &x,
            table.clone(),
            ids.clone(),
            options(reorder, threads),
        )
        .unwrap();
        for _ in 0..60 {
            s.step().unwrap();
            if check {
                let c = s.continuum();
                for (k, &id) in ids.iter().enumerate() {
                    assert_eq!(c.material_id(k), id as usize);
                    let m = &c.materials()[id as usize];
                    let eps = principal(&c.deformation_gradients()[k]).eps;
                    let margin = m
                        .plasticity
                        .yield_margin(&eps, &c.plastic_states()[k], &m.lame())
                        .unwrap();
                    // Round-off of a reassembled and re-decomposed F (see xpbd-scene's
                    // layers test for the argument).
                    assert!(margin <= 1e-9, "member {k}: {margin}");
                }
            }
        }
        s
    };
    let a = run(true, 1, true);
    let b = run(false, 1, false);
    let c = run(true, 2, false);
    assert_eq!(snapshot(&a), snapshot(&b));
    assert_eq!(snapshot(&a), snapshot(&c));
    // Each particle weighs its own material's ρΔx²: sand 1600, clay 1200 kg/m³.
    let p = a.sim.particles();
    for (k, &id) in ids.iter().enumerate() {
        let rho = [1600.0, 1200.0][id as usize];
        let m = 1.0 / p.inv_mass[k];
        assert!((m - rho * 0.005f64.powi(2)).abs() < 1e-12 * m, "{k}: {m}");
    }
}

/// The body is bonded across materials (one neighbourhood), while the constitutive model is
/// per member: in the split form the compliances are 1/(2μ_p V⁰) and 1/(λ_p V⁰) of each
/// member's own material.
#[test]
fn neighbourhoods_span_materials_and_compliance_is_per_member() {
    let dx = 0.01;
    let x = lattice_box(Vector3::zeros(), Vector3::repeat(0.04), dx);
    let mut p = Particles::<3>::new();
    for xi in &x {
        p.push(*xi, 1.0);
    }
    let n = x.len();
    let ids: Vec<u8> = x.iter().map(|q| u8::from(q.z > 0.02)).collect();
    let table = vec![Material::sand(), Material::elastic(1000.0, 1e6, 0.25)];
    let settings = XpbiSettings {
        constraint_form: ConstraintForm::Split,
        reorder_by_cell: false,
        ..XpbiSettings::new(dx)
    };
    let c = XpbiContinuum::with_materials(
        &p,
        (0..n as u32).collect(),
        vec![dx.powi(3); n],
        table.clone(),
        ids.clone(),
        settings,
    )
    .unwrap();
    for k in 0..n {
        let lame = table[ids[k] as usize].lame();
        let inv_v0 = 1.0 / dx.powi(3);
        assert_eq!(c.compliance(2 * k), inv_v0 / (2.0 * lame.mu));
        assert_eq!(c.compliance(2 * k + 1), inv_v0 / lame.lambda);
        assert_eq!(c.material_of(k), Some(&table[ids[k] as usize]));
    }
    // A particle just below the interface has neighbours of the other material.
    let k = (0..n).find(|&k| ids[k] == 0 && x[k].z > 0.01).unwrap();
    let stencil = c.stencil(2 * k);
    assert!(stencil.iter().any(|&b| ids[b as usize] == 1), "{stencil:?}");
    assert_eq!(c.material_of(n), None);
}

fn particles(n: usize) -> Particles<2> {
    let mut p = Particles::<2>::new();
    for i in 0..n {
        p.push(Vector2::new(0.01 * i as f64, 0.0), 1.0);
    }
    p
}

fn with(materials: Vec<Material>, ids: Vec<u8>) -> Result<XpbiContinuum<2>, XpbiError> {
    let p = particles(4);
    XpbiContinuum::with_materials(
        &p,
        vec![0, 1, 2, 3],
        vec![1e-4; 4],
        materials,
        ids,
        XpbiSettings::new(0.01),
    )
}

#[test]
fn an_empty_table_is_refused() {
    assert_eq!(
        with(Vec::new(), vec![0; 4]).unwrap_err(),
        XpbiError::NoMaterials
    );
}

#[test]
fn a_table_of_more_than_256_materials_is_refused() {
    let e = with(vec![Material::sand(); MAX_MATERIALS + 1], vec![0; 4]).unwrap_err();
    assert_eq!(
        e,
        XpbiError::TooManyMaterials {
            count: 257,
            max: 256
        }
    );
    assert!(with(vec![Material::sand(); MAX_MATERIALS], vec![255; 4]).is_ok());
}

#[test]
fn an_invalid_material_is_named_by_its_table_entry() {
    let mut bad = Material::clay();
    bad.poisson_ratio = 0.5;
    let e = with(vec![Material::sand(), bad], vec![0, 0, 1, 1]).unwrap_err();
    assert_eq!(
        e,
        XpbiError::InvalidMaterial {
            material: 1,
            source: Box::new(XpbiError::PoissonRatioOutOfRange { value: 0.5 })
        }
    );
    assert!(std::error::Error::source(&e).is_some());
}

#[test]
fn an_id_outside_the_table_is_named_by_particle() {
    let e = with(vec![Material::sand(), Material::clay()], vec![0, 1, 2, 1]).unwrap_err();
    assert_eq!(
        e,
        XpbiError::MaterialIdOutOfRange {
            particle: 2,
            id: 2,
            count: 2
        }
    );
}

#[test]
fn ids_of_another_length_than_the_members_are_refused() {
    let e = with(vec![Material::sand(), Material::clay()], vec![0, 1]).unwrap_err();
    assert!(
        matches!(e, XpbiError::InvalidParameter { name: "material_ids length", value } if value == 2.0),
        "{e:?}"
    );
}

/// The split form needs λ > 0 of every material of the table, not only the first.
#[test]
fn the_split_form_checks_every_material() {
    let p = particles(4);
    let e = XpbiContinuum::with_materials(
        &p,
        vec![0, 1, 2, 3],
        vec![1e-4; 4],
        vec![Material::sand(), Material::elastic(1000.0, 1e5, 0.0)],
        vec![0, 0, 1, 1],
        XpbiSettings {
            constraint_form: ConstraintForm::Split,
            ..XpbiSettings::new(0.01)
        },
    )
    .unwrap_err();
    assert!(
        matches!(e, XpbiError::InvalidParameter { value, .. } if value == 0.0),
        "{e:?}"
    );
}
