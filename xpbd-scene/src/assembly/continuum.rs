//! An XPBI continuum (`[[continuum]]`): its lattice particles, material table, grips and
//! nozzle, appended to the assembly's particle store; its blocks are planned
//! ([`ContinuumPlan`]) and built with the simulation.

use xpbd_core::Vector;
use xpbi_continuum::contact::DEFAULT_CORRECTION_RADIUS;
use xpbi_continuum::plasticity::PlasticModel;

use super::bodies::Assembler;
use super::{ContinuumPlan, v3};
use crate::continuum::{ContinuumSpec, Hold};
use crate::error::SceneError;
use crate::interaction::{Body, BodyKind};

/// A continuum's material table (scene material id, material) and each layer's entry in it.
type MaterialTable = (Vec<(u32, xpbi_continuum::Material)>, Vec<u8>);

impl Assembler<'_> {
    /// Appends continuum `k` (`c`): its particles (each of mass ρΔx³ of its own material,
    /// held ones of mass 0), its grips and nozzle, and the body; returns the plan of its
    /// blocks.
    pub(super) fn continuum(
        &mut self,
        k: usize,
        c: &ContinuumSpec,
        grips: &mut Vec<(usize, Vector<3>)>,
        emitters: &mut Vec<crate::emitter::Emitter>,
    ) -> Result<ContinuumPlan, SceneError> {
        let field = format!("continuum[{k}]");
        let (table, entry) = self.material_table(&field, c)?;
        let Some(&(mid, material)) = table.first() else {
            return Err(SceneError::InvalidValue {
                file: self.file.to_path_buf(),
                line: 0,
                field: format!("{field}.material"),
                value: "absent".into(),
                reason: "a continuum needs `material` and `region`, or `[[continuum.layer]]` entries",
            });
        };
        let (x, hold, layer) = crate::continuum::sample(c, self.file, &field)?;
        if let Some(j) = crate::layers::empty_layer(c.layer.len(), &layer) {
            return Err(SceneError::InvalidValue {
                file: self.file.to_path_buf(),
                line: 0,
                field: format!("{field}.layer[{j}].region"),
                value: format!("{:?}", c.layer[j].region),
                reason: "the layer holds no particle: no lattice point of the body lies in it, \
                         outside the layers before it and the excluded regions",
            });
        }
        if x.is_empty() {
            return Err(SceneError::InvalidValue {
                file: self.file.to_path_buf(),
                line: 0,
                field: format!("{field}.region"),
                value: c
                    .region
                    .as_ref()
                    .map_or("absent".into(), |r| format!("{r:?}")),
                reason: "no lattice point of the spacing lies in the region",
            });
        }
        // Per particle, its entry of the table (empty for a table of one).
        let ids: Vec<u8> = if table.len() > 1 {
            layer.iter().map(|&l| entry[l]).collect()
        } else {
            Vec::new()
        };
        let settings = c.xpbi.settings(c.spacing);
        // Each particle weighs its own material's ρΔx³.
        let m = material.density * c.spacing.powi(3);
        let mass_of = |i: usize| match ids.get(i) {
            Some(&e) => table[e as usize].1.density * c.spacing.powi(3),
            None => m,
        };
        let mass: Vec<f64> = hold
            .iter()
            .enumerate()
            .map(|(i, &h)| if h == Hold::Free { mass_of(i) } else { 0.0 })
            .collect();
        let base = self.push_particles(&x, &mass, mid);
        for (i, &e) in ids.iter().enumerate() {
            self.topology.particle_material[base + i] = table[e as usize].0;
        }
        for (i, &h) in hold.iter().enumerate() {
            match h {
                Hold::Free => self.particles.v[base + i] = v3(c.velocity),
                Hold::Pinned => {}
                Hold::Grip(v) => {
                    self.particles.v[base + i] = v3(v);
                    grips.push((base + i, v3(v)));
                }
                Hold::Nozzle => {}
            }
        }
        if let Some(crate::continuum::RegionSpec::Nozzle(n)) = &c.region {
            let ids: Vec<usize> = (base..base + x.len()).collect();
            for &i in &ids {
                self.particles.v[i] = Vector::<3>::new(0.0, 0.0, -n.speed);
            }
            emitters.push(crate::emitter::Emitter {
                field: format!("continuum[{k}]"),
                nozzle: xpbi_continuum::emitter::Nozzle::new(
                    ids,
                    v3(n.exit),
                    n.radius,
                    n.speed,
                    c.spacing,
                    n.reservoir(c.spacing).1,
                    1.0 / m,
                ),
            });
        }
        let (_, name, _) = self.names[self.bodies.len()].clone();
        self.bodies.push(Body {
            name,
            field: field.clone(),
            kind: BodyKind::Continuum,
            particles: base..base + x.len(),
            radius: 0.5 * c.spacing,
            triangles: Vec::new(),
        });
        Ok(ContinuumPlan {
            field,
            material_id: mid,
            materials: table.into_iter().map(|(_, m)| m).collect(),
            ids,
            members: base..base + x.len(),
            settings,
            correction_radius: c
                .xpbi
                .position_correction
                .then_some(DEFAULT_CORRECTION_RADIUS),
            velocity: format!("{:?}", c.velocity),
        })
    }

    /// The body's material table: one entry `(scene material id, material)` per distinct
    /// scene material, in the order the layers first name them (`material` alone: one entry),
    /// and each layer's entry.
    fn material_table(&self, field: &str, c: &ContinuumSpec) -> Result<MaterialTable, SceneError> {
        let file = self.file;
        let xerr = |f: String| {
            move |source| SceneError::Continuum {
                file: file.to_path_buf(),
                field: f.clone(),
                source: Box::new(source),
            }
        };
        // The body's material table: one entry per distinct scene material, in the order
        // the layers first name them (`material` alone: one entry); `entry[j]` is layer j's.
        let mut table: Vec<(u32, xpbi_continuum::Material)> = Vec::new();
        let mut entry: Vec<u8> = Vec::new();
        for (j, name) in crate::continuum::material_names(c).into_iter().enumerate() {
            let lfield = if c.layer.is_empty() {
                field.to_string()
            } else {
                format!("{field}.layer[{j}]")
            };
            let (mid, mat) = self.material(&lfield, name)?;
            if let Some(e) = table.iter().position(|(m, _)| *m == mid) {
                entry.push(e as u8);
                continue;
            }
            let youngs = self.require(
                &format!("{lfield}.material.youngs"),
                mat.youngs,
                "a continuum needs `youngs` (Pa) or a `preset`",
            )?;
            let material = xpbi_continuum::Material {
                density: mat.density(),
                youngs_modulus: youngs,
                poisson_ratio: mat.poisson(),
                plasticity: mat.plasticity.unwrap_or(PlasticModel::Elastic),
            };
            material
                .validate()
                .map_err(xerr(format!("{lfield}.material")))?;
            entry.push(table.len() as u8);
            table.push((mid, material));
        }
        Ok((table, entry))
    }
}
