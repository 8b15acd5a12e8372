//! The bodies made of XPBD constraints (cloths, ropes, soft boxes, meshes), appended to the
//! assembly's one particle store in file order, each with its material block(s).

use std::path::Path;

use xpbd_core::builders::cloth::interior_edges;
use xpbd_core::constraint::{
    DihedralBendingConstraints, DistanceConstraints, IsometricBendingConstraints,
    NeoHookeanTetConstraints,
};
use xpbd_core::mesh::TetMesh;
use xpbd_core::{BuildError, Particles, Vector};

use super::colliders::check_scale;
use super::{boundary, v3};
use crate::budget::MemoryEstimate;
use crate::error::SceneError;
use crate::export::{Topology, segment_length, tet_volume, triangle_area};
use crate::import::{ImportedMesh, import_mesh};
use crate::interaction::{Body, BodyKind, half_mean_edge, tet_edges, triangle_edges};
use crate::scene::{
    BendingModel, ClothSpec, MaterialSpec, MeshKind, MeshSpec, RopeSpec, SceneDesc, SoftBoxSpec,
};

/// Accumulates bodies into one particle store.
pub(super) struct Assembler<'a> {
    pub(super) file: &'a Path,
    pub(super) scene: &'a SceneDesc,
    pub(super) particles: Particles<3>,
    pub(super) topology: Topology,
    pub(super) distance: Vec<(String, DistanceConstraints)>,
    pub(super) dihedral: Vec<(String, DihedralBendingConstraints)>,
    pub(super) isometric: Vec<(String, IsometricBendingConstraints)>,
    pub(super) tets: Vec<(String, NeoHookeanTetConstraints<3>)>,
    pub(super) bodies: Vec<Body>,
    pub(super) names: Vec<(String, String, bool)>,
}

impl<'a> Assembler<'a> {
    /// An empty store for the bodies of `scene`, loaded from `file`.
    pub(super) fn new(scene: &'a SceneDesc, file: &'a Path) -> Self {
        Self {
            file,
            scene,
            particles: Particles::new(),
            topology: Topology {
                material_names: scene.materials.keys().cloned().collect(),
                ..Topology::default()
            },
            distance: Vec::new(),
            dihedral: Vec::new(),
            isometric: Vec::new(),
            tets: Vec::new(),
            bodies: Vec::new(),
            names: scene.body_names(),
        }
    }

    /// The folder mesh paths are relative to.
    pub(super) fn folder(&self) -> std::path::PathBuf {
        self.file
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    }

    pub(super) fn build_err(&self, field: &str) -> impl Fn(BuildError) -> SceneError + use<'_> {
        let field = field.to_string();
        move |source| SceneError::Build {
            file: self.file.to_path_buf(),
            field: field.clone(),
            source,
        }
    }

    pub(super) fn material(
        &self,
        field: &str,
        name: &str,
    ) -> Result<(u32, &'a MaterialSpec), SceneError> {
        let scene: &'a SceneDesc = self.scene;
        scene
            .materials
            .iter()
            .enumerate()
            .find(|(_, (n, _))| n.as_str() == name)
            .map(|(k, (_, m))| (k as u32, m))
            .ok_or_else(|| SceneError::UnknownMaterial {
                file: self.file.to_path_buf(),
                line: 0,
                field: format!("{field}.material"),
                name: name.to_string(),
            })
    }

    pub(super) fn require(
        &self,
        field: &str,
        value: Option<f64>,
        what: &'static str,
    ) -> Result<f64, SceneError> {
        value.ok_or_else(|| SceneError::InvalidValue {
            file: self.file.to_path_buf(),
            line: 0,
            field: field.to_string(),
            value: "absent".into(),
            reason: what,
        })
    }

    /// Appends particles with the given masses (kg; 0 mass = pinned) and material.
    pub(super) fn push_particles(&mut self, x: &[Vector<3>], mass: &[f64], material: u32) -> usize {
        let base = self.particles.len();
        for (p, &m) in x.iter().zip(mass) {
            self.particles.push(*p, if m > 0.0 { 1.0 / m } else { 0.0 });
            self.topology.particle_material.push(material);
        }
        base
    }

    /// Records the body built last: particles `start..` the current end, its triangles (cloth)
    /// and its contact radius (`[contacts] radius`, else `radius`, else half the mean edge).
    pub(super) fn record_body(
        &mut self,
        kind: BodyKind,
        start: usize,
        triangles: Vec<[usize; 3]>,
        edges: &[[usize; 2]],
        radius: Option<f64>,
    ) {
        let k = self.bodies.len();
        let (field, name, _) = self.names[k].clone();
        let radius = self
            .scene
            .contacts
            .as_ref()
            .map(|c| c.radius)
            .or(radius)
            .unwrap_or_else(|| half_mean_edge(&self.particles.x, edges));
        self.bodies.push(Body {
            name,
            field,
            kind,
            particles: start..self.particles.len(),
            radius,
            triangles,
        });
    }

    pub(super) fn add_segment(&mut self, s: [usize; 2], material: u32) {
        self.topology
            .rest_segment
            .push(segment_length(&self.particles.x, s));
        self.topology.segments.push(s);
        self.topology.cell_material.push(material);
    }

    /// Edges of `triangles` as distance constraints with α = l₀/(E t w): each edge carries a
    /// strip of sheet as wide as its own length, so α = 1/(E t) (the cloth tutorial's estimate).
    pub(super) fn sheet(
        &mut self,
        field: &str,
        triangles: &[[usize; 3]],
        mat: &MaterialSpec,
        material: u32,
        bending: BendingModel,
    ) -> Result<(), SceneError> {
        let thickness = self.require(
            &format!("{field}.material.thickness"),
            mat.thickness,
            "a sheet material needs `thickness` (m)",
        )?;
        let mut edges: Vec<[usize; 2]> = triangles
            .iter()
            .flat_map(|t| [[t[0], t[1]], [t[1], t[2]], [t[2], t[0]]])
            .map(|[a, b]| [a.min(b), a.max(b)])
            .collect();
        edges.sort_unstable();
        edges.dedup();
        let mut d = DistanceConstraints::new();
        for [a, b] in edges {
            let l0 = segment_length(&self.particles.x, [a, b]);
            let alpha = match mat.youngs {
                Some(e) => DistanceConstraints::compliance_from_material(l0, e, thickness * l0)
                    .map_err(self.build_err(field))?,
                None => 0.0,
            };
            d.add(&self.particles, a, b, alpha)
                .map_err(self.build_err(field))?;
        }
        self.distance.push((field.to_string(), d));
        for &t in triangles {
            self.topology
                .rest_triangle
                .push(triangle_area(&self.particles.x, t));
            self.topology.triangles.push(t);
            self.topology.cell_material.push(material);
        }
        if bending != BendingModel::None {
            let k = self.require(
                &format!("{field}.material.bending_stiffness"),
                mat.bending_stiffness,
                "bending needs `bending_stiffness` (N m)",
            )?;
            let edges = interior_edges(triangles);
            if bending == BendingModel::Dihedral {
                let mut b = DihedralBendingConstraints::new();
                for e in edges {
                    b.add(&self.particles, e, k)
                        .map_err(self.build_err(field))?;
                }
                self.dihedral.push((field.to_string(), b));
            } else {
                let mut b = IsometricBendingConstraints::new();
                for [w0, w1, e0, e1] in edges {
                    b.add(&self.particles, [e0, e1, w0, w1], k)
                        .map_err(self.build_err(field))?;
                }
                self.isometric.push((field.to_string(), b));
            }
        }
        Ok(())
    }

    /// Lumped masses ρ V/4 per tet corner, then Neo-Hookean constraints (xpbd-core's stable
    /// Neo-Hookean, Macklin & Müller 2021) with the material's E and ν.
    pub(super) fn solid(
        &mut self,
        field: &str,
        vertices: &[Vector<3>],
        tets: &[[usize; 4]],
        pinned: &dyn Fn(usize) -> bool,
        mat: &MaterialSpec,
        material: u32,
    ) -> Result<(), SceneError> {
        let youngs = self.require(
            &format!("{field}.material.youngs"),
            mat.youngs,
            "a soft body needs `youngs` (Pa)",
        )?;
        let mut mass = vec![0.0; vertices.len()];
        for (e, &t) in tets.iter().enumerate() {
            let v = tet_volume(vertices, t);
            if v.is_nan() || v <= 0.0 {
                return Err(SceneError::Build {
                    file: self.file.to_path_buf(),
                    field: field.to_string(),
                    source: BuildError::InvalidGeometry(format!("tet {e} has volume {v:e}")),
                });
            }
            for &i in &t {
                mass[i] += mat.density() * v / 4.0;
            }
        }
        for (i, m) in mass.iter_mut().enumerate() {
            if pinned(i) {
                *m = 0.0;
            }
        }
        let base = self.push_particles(vertices, &mass, material);
        let mut c =
            NeoHookeanTetConstraints::new(youngs, mat.poisson()).map_err(self.build_err(field))?;
        for &t in tets {
            let g = t.map(|i| i + base);
            c.add(&self.particles, &g).map_err(self.build_err(field))?;
            self.topology
                .rest_tet
                .push(tet_volume(&self.particles.x, g));
            self.topology.tets.push(g);
            self.topology.cell_material.push(material);
        }
        self.tets.push((field.to_string(), c));
        Ok(())
    }

    pub(super) fn cloth(&mut self, k: usize, c: &ClothSpec) -> Result<(), SceneError> {
        let field = format!("cloth[{k}]");
        let (mid, mat) = self.material(&field, &c.material)?;
        let thickness = self.require(
            &format!("{field}.material.thickness"),
            mat.thickness,
            "a sheet material needs `thickness` (m)",
        )?;
        let [nx, ny] = c.resolution;
        let m = mat.density() * thickness * c.size[0] * c.size[1] / (nx * ny) as f64;
        let mut x = Vec::with_capacity(nx * ny);
        let mut mass = vec![m; nx * ny];
        for j in 0..ny {
            for i in 0..nx {
                let f = [i as f64 / (nx - 1) as f64, j as f64 / (ny - 1) as f64];
                x.push(v3(c.origin) + Vector::<3>::new(c.size[0] * f[0], c.size[1] * f[1], 0.0));
            }
        }
        for p in &c.pins {
            mass[p[1] * nx + p[0]] = 0.0;
        }
        let base = self.push_particles(&x, &mass, mid);
        let id = |i: usize, j: usize| base + j * nx + i;
        let mut tris = Vec::new();
        for j in 0..ny - 1 {
            for i in 0..nx - 1 {
                tris.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                tris.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        self.sheet(&field, &tris, mat, mid, c.bending)?;
        let edges = triangle_edges(&tris);
        self.record_body(BodyKind::Cloth, base, tris, &edges, None);
        Ok(())
    }

    pub(super) fn rope(&mut self, k: usize, r: &RopeSpec) -> Result<(), SceneError> {
        let field = format!("rope[{k}]");
        let (mid, mat) = self.material(&field, &r.material)?;
        let area = std::f64::consts::PI * r.radius * r.radius;
        let (p0, p1) = (v3(r.start), v3(r.end));
        let length = (p1 - p0).norm();
        let n = r.links + 1;
        let x: Vec<Vector<3>> = (0..n)
            .map(|i| p0 + (p1 - p0) * (i as f64 / r.links as f64))
            .collect();
        let mut mass = vec![mat.density() * area * length / n as f64; n];
        if r.pin_start {
            mass[0] = 0.0;
        }
        let base = self.push_particles(&x, &mass, mid);
        let mut d = DistanceConstraints::new();
        for i in 0..r.links {
            let l0 = length / r.links as f64;
            let alpha = match mat.youngs {
                Some(e) => DistanceConstraints::compliance_from_material(l0, e, area)
                    .map_err(self.build_err(&field))?,
                None => 0.0,
            };
            d.add(&self.particles, base + i, base + i + 1, alpha)
                .map_err(self.build_err(&field))?;
            self.add_segment([base + i, base + i + 1], mid);
        }
        self.distance.push((field, d));
        self.record_body(BodyKind::Rope, base, Vec::new(), &[], Some(r.radius));
        Ok(())
    }

    pub(super) fn soft_box(&mut self, k: usize, b: &SoftBoxSpec) -> Result<(), SceneError> {
        let field = format!("soft_box[{k}]");
        let (mid, mat) = self.material(&field, &b.material)?;
        let mesh = TetMesh::box_beam(b.size, b.cells).map_err(|e| SceneError::Build {
            file: self.file.to_path_buf(),
            field: field.clone(),
            source: BuildError::InvalidGeometry(e.to_string()),
        })?;
        let x: Vec<Vector<3>> = mesh.vertices.iter().map(|p| p + v3(b.origin)).collect();
        let tets: Vec<[usize; 4]> = mesh.cells.iter().map(|c| c.map(|i| i as usize)).collect();
        let pin = b.pin_x_below;
        let xs = x.clone();
        let pinned = move |i: usize| pin.is_some_and(|p| xs[i].x <= b.origin[0] + p);
        let start = self.particles.len();
        self.solid(&field, &x, &tets, &pinned, mat, mid)?;
        let shifted: Vec<[usize; 4]> = tets.iter().map(|t| t.map(|i| i + start)).collect();
        let edges = tet_edges(&shifted);
        self.record_body(BodyKind::Solid, start, boundary(&shifted), &edges, None);
        Ok(())
    }

    pub(super) fn mesh(
        &mut self,
        k: usize,
        m: &MeshSpec,
        budget: &mut MemoryEstimate,
        available: Option<u64>,
    ) -> Result<(), SceneError> {
        let field = format!("mesh[{k}]");
        let (mid, mat) = self.material(&field, &m.material)?;
        let path = self.folder().join(&m.path);
        let import_err = |source| SceneError::Import {
            file: self.file.to_path_buf(),
            field: format!("{field}.path"),
            source,
        };
        let imported: ImportedMesh = import_mesh(&path).map_err(import_err)?;
        let per = match m.kind {
            MeshKind::Soft => crate::budget::SOFT_BYTES_PER_PARTICLE,
            MeshKind::Cloth => crate::budget::CLOTH_BYTES_PER_PARTICLE,
        };
        let n = imported.vertices.len() as f64;
        budget.add(
            format!("{field}.path"),
            m.path.display().to_string(),
            n,
            per,
        );
        if let Some(bytes) = available {
            budget.check(bytes, self.file)?;
        }
        crate::budget::WorkEstimate::new(self.scene, budget).check(budget, self.file)?;
        // Every vertex must belong to an element of the kind the body is built from, or its
        // lumped mass would be 0 (a silently pinned particle).
        imported
            .check_body(&path.display().to_string(), m.kind == MeshKind::Soft)
            .map_err(import_err)?;
        check_scale(self.file, &format!("{field}.scale"), m.scale, &imported)?;
        let x: Vec<Vector<3>> = imported
            .vertices
            .iter()
            .map(|p| p * m.scale + v3(m.translate))
            .collect();
        if let Some(&p) = m.pins.iter().find(|&&p| p >= x.len()) {
            return Err(SceneError::InvalidValue {
                file: self.file.to_path_buf(),
                line: 0,
                field: format!("{field}.pins"),
                value: p.to_string(),
                reason: "pin index beyond the mesh's vertex count",
            });
        }
        let pins = m.pins.clone();
        match m.kind {
            MeshKind::Soft => {
                let pinned = move |i: usize| pins.contains(&i);
                let start = self.particles.len();
                self.solid(&field, &x, &imported.tets, &pinned, mat, mid)?;
                let shifted: Vec<[usize; 4]> =
                    imported.tets.iter().map(|t| t.map(|i| i + start)).collect();
                let edges = tet_edges(&shifted);
                self.record_body(BodyKind::Solid, start, boundary(&shifted), &edges, None);
            }
            MeshKind::Cloth => {
                let thickness = self.require(
                    &format!("{field}.material.thickness"),
                    mat.thickness,
                    "a sheet material needs `thickness` (m)",
                )?;
                // Lumped mass: a third of each triangle's ρ t A per corner.
                let mut mass = vec![0.0; x.len()];
                for &t in &imported.triangles {
                    let am = mat.density() * thickness * triangle_area(&x, t) / 3.0;
                    t.iter().for_each(|&i| mass[i] += am);
                }
                for &p in &pins {
                    mass[p] = 0.0;
                }
                let base = self.push_particles(&x, &mass, mid);
                let tris: Vec<[usize; 3]> = imported
                    .triangles
                    .iter()
                    .map(|t| t.map(|i| i + base))
                    .collect();
                self.sheet(&field, &tris, mat, mid, BendingModel::None)?;
                let edges = triangle_edges(&tris);
                self.record_body(BodyKind::Cloth, base, tris, &edges, None);
            }
        }
        Ok(())
    }
}
