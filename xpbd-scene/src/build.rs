//! Turning a [`SceneDesc`] into a running [`Simulation`] plus the [`Topology`] written with
//! every frame.
//!
//! Bodies are appended to one particle store in file order (cloth, rope, soft_box, mesh
//! sections in that order, each in list order); each body's constraints form one block, the
//! collider contacts a last block (followed, with a cloth and a sphere, capsule or box collider,
//! by the colliders' contact against the cloth's triangles). The construction is deterministic,
//! which is what makes checkpoints small: a checkpoint stores the scene text and the evolving
//! state only.

use std::path::Path;

use xpbd_core::builders::cloth::interior_edges;
use xpbd_core::constraint::ConstraintSet;
use xpbd_core::constraint::{
    DihedralBendingConstraints, DistanceConstraints, IsometricBendingConstraints,
    NeoHookeanTetConstraints,
};
use xpbd_core::contact::{
    BodyContacts, Collider, ColliderContacts, ColliderTriangleContacts, ContactOptions, Friction,
    PointTriangleContacts, Pose, Shape,
};
use xpbd_core::mesh::TetMesh;
use xpbd_core::simulation::BlockHandle;
use xpbd_core::{AdvanceReport, BuildError, Particles, Simulation, SolverSettings, Vector};
use xpbi_continuum::contact::SpacingConstraints;
use xpbi_continuum::continuum::{XpbiContinuum, XpbiSettings};
use xpbi_continuum::plasticity::PlasticModel;

use crate::continuum::Hold;
use crate::error::SceneError;
use crate::export::{Topology, segment_length, tet_volume, triangle_area};
use crate::import::{ImportedMesh, import_mesh};
use crate::interaction::{Body, BodyKind, half_mean_edge, tet_edges, triangle_edges};
use crate::scene::{BendingModel, MaterialSpec, MeshKind, SceneDesc, ShapeSpec};

/// A built scene: the simulation, what its particles form, and the time stepping.
#[derive(Debug)]
pub struct BuiltScene {
    /// The simulation (3D).
    pub sim: Simulation<3>,
    /// Cells and materials for export.
    pub topology: Topology,
    /// The parsed scene.
    pub scene: SceneDesc,
    /// Frames completed so far.
    pub frame: usize,
    /// The XPBI blocks, one per `[[continuum]]` in file order.
    pub continua: Vec<ContinuumBlock>,
    /// The fluid blocks, one per `[[fluid]]` in file order.
    pub fluids: Vec<BlockHandle<xpbi_continuum::fluid::PbfFluid<3>>>,
    /// Gripped (kinematic) particles and their velocities (m/s), moved by [`BuiltScene::step`].
    pub grips: Vec<(usize, Vector<3>)>,
    /// Extrusion nozzles (`region = { nozzle = .. }`), driven by [`BuiltScene::step`].
    pub emitters: Vec<crate::emitter::Emitter>,
    /// A typed handle for every block, in `sim.blocks()` order (checkpoint restore).
    pub(crate) handles: Vec<AnyBlock>,
    /// The steps taken so far (sizes, halvings) by [`BuiltScene::step`].
    pub steps: AdvanceReport,
    /// Every body (name, kind, particles) in build order; see [`crate::interaction`].
    pub bodies: Vec<Body>,
}

/// A `[[continuum]]`'s XPBI block.
#[derive(Debug, Clone, Copy)]
pub struct ContinuumBlock {
    /// The block (`sim.block(handle).kind` is the [`XpbiContinuum`]).
    pub handle: BlockHandle<XpbiContinuum<3>>,
    /// Material id (index into `topology.material_names`); for a body of layers, the first
    /// layer's (each particle's own is `topology.particle_material`).
    pub material: u32,
}

/// A typed handle to any block a scene builds, for mutable access through [`ConstraintSet`]
/// (the simulation hands out mutable blocks by typed handle only).
#[derive(Debug, Clone, Copy)]
pub(crate) enum AnyBlock {
    Distance(BlockHandle<DistanceConstraints>),
    Dihedral(BlockHandle<DihedralBendingConstraints>),
    Isometric(BlockHandle<IsometricBendingConstraints>),
    Tets(BlockHandle<NeoHookeanTetConstraints<3>>),
    Contacts(BlockHandle<ColliderContacts<3>>),
    ColliderTriangles(BlockHandle<ColliderTriangleContacts>),
    Spacing(BlockHandle<SpacingConstraints<3>>),
    Xpbi(BlockHandle<XpbiContinuum<3>>),
    Bodies(BlockHandle<BodyContacts<3>>),
    Triangles(BlockHandle<PointTriangleContacts>),
    Fluid(BlockHandle<xpbi_continuum::fluid::PbfFluid<3>>),
}

impl AnyBlock {
    /// The block, mutably.
    pub(crate) fn get_mut<'a>(&self, sim: &'a mut Simulation<3>) -> &'a mut dyn ConstraintSet<3> {
        match *self {
            Self::Distance(h) => sim.block_mut(h),
            Self::Dihedral(h) => sim.block_mut(h),
            Self::Isometric(h) => sim.block_mut(h),
            Self::Tets(h) => sim.block_mut(h),
            Self::Contacts(h) => sim.block_mut(h),
            Self::ColliderTriangles(h) => sim.block_mut(h),
            Self::Spacing(h) => sim.block_mut(h),
            Self::Xpbi(h) => sim.block_mut(h),
            Self::Bodies(h) => sim.block_mut(h),
            Self::Triangles(h) => sim.block_mut(h),
            Self::Fluid(h) => sim.block_mut(h),
        }
    }
}

/// A scene's constraint block, borrowed with its kind: what another backend reads to build its
/// own step from the one description (`BuiltScene::block_kinds`, in `sim.blocks()` order).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum BlockKind<'a> {
    /// Stretch and shear springs of a cloth, links of a rope, edges of a mesh.
    Distance(&'a DistanceConstraints),
    /// Dihedral-angle bending of a cloth.
    Dihedral(&'a DihedralBendingConstraints),
    /// Isometric (quadratic) bending of a cloth.
    Isometric(&'a IsometricBendingConstraints),
    /// Stable neo-Hookean tetrahedra of a soft body.
    Tets(&'a NeoHookeanTetConstraints<3>),
    /// Particles against the colliders.
    Contacts(&'a ColliderContacts<3>),
    /// Cloth triangles against the convex colliders of the [`BlockKind::Contacts`] block
    /// before it (a collider smaller than the cloth's edges would slip between the vertices).
    ColliderTriangles(&'a ColliderTriangleContacts),
    /// XPBI's position correction of a continuum.
    Spacing(&'a SpacingConstraints<3>),
    /// An XPBI continuum.
    Xpbi(&'a XpbiContinuum<3>),
    /// Contacts between the particles of different bodies.
    Bodies(&'a BodyContacts<3>),
    /// Particles of one body against the triangles of another (a cloth, a soft body's faces).
    Triangles(&'a PointTriangleContacts),
    /// Position-based fluid.
    Fluid(&'a xpbi_continuum::fluid::PbfFluid<3>),
}

impl BlockKind<'_> {
    /// What the block is, in words (for a backend that refuses it by name).
    pub fn describe(&self) -> &'static str {
        match self {
            Self::Distance(_) => "distance constraints",
            Self::Dihedral(_) => "dihedral bending",
            Self::Isometric(_) => "isometric bending",
            Self::Tets(_) => "neo-Hookean tetrahedra",
            Self::Contacts(_) => "collider contacts",
            Self::ColliderTriangles(_) => "collider contacts against cloth triangles",
            Self::Spacing(_) => "XPBI position correction",
            Self::Xpbi(_) => "XPBI continuum",
            Self::Bodies(_) => "contacts between bodies",
            Self::Triangles(_) => "point-triangle contacts between bodies",
            Self::Fluid(_) => "position-based fluid",
        }
    }
}

/// A continuum's particles and settings, between sampling and block construction.
struct PendingContinuum {
    field: String,
    /// Scene material id of the first layer (the only one without layers).
    material_id: u32,
    /// The body's material table and each member's entry (empty for a table of one).
    materials: Vec<xpbi_continuum::Material>,
    ids: Vec<u8>,
    members: std::ops::Range<usize>,
    settings: XpbiSettings,
    position_correction: bool,
    /// Its `velocity`, as written (for the CFL error).
    velocity: String,
}

/// The boundary faces of `tets` (faces of exactly one tet): a soft body's surface, which other
/// bodies' particles touch.
fn boundary(tets: &[[usize; 4]]) -> Vec<[usize; 3]> {
    Topology {
        tets: tets.to_vec(),
        ..Topology::default()
    }
    .surface_triangles()
}

fn v3(a: [f64; 3]) -> Vector<3> {
    Vector::<3>::new(a[0], a[1], a[2])
}

/// Accumulates bodies into one particle store.
struct Assembler<'a> {
    file: &'a Path,
    scene: &'a SceneDesc,
    particles: Particles<3>,
    topology: Topology,
    distance: Vec<(String, DistanceConstraints)>,
    dihedral: Vec<(String, DihedralBendingConstraints)>,
    isometric: Vec<(String, IsometricBendingConstraints)>,
    tets: Vec<(String, NeoHookeanTetConstraints<3>)>,
    bodies: Vec<Body>,
    names: Vec<(String, String, bool)>,
}

impl<'a> Assembler<'a> {
    fn build_err(&self, field: &str) -> impl Fn(BuildError) -> SceneError + use<'_> {
        let field = field.to_string();
        move |source| SceneError::Build {
            file: self.file.to_path_buf(),
            field: field.clone(),
            source,
        }
    }

    fn material(&self, field: &str, name: &str) -> Result<(u32, &'a MaterialSpec), SceneError> {
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

    fn require(
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
    fn push_particles(&mut self, x: &[Vector<3>], mass: &[f64], material: u32) -> usize {
        let base = self.particles.len();
        for (p, &m) in x.iter().zip(mass) {
            self.particles.push(*p, if m > 0.0 { 1.0 / m } else { 0.0 });
            self.topology.particle_material.push(material);
        }
        base
    }

    /// Records the body built last: particles `start..` the current end, its triangles (cloth)
    /// and its contact radius (`[contacts] radius`, else `radius`, else half the mean edge).
    fn record_body(
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

    fn add_segment(&mut self, s: [usize; 2], material: u32) {
        self.topology
            .rest_segment
            .push(segment_length(&self.particles.x, s));
        self.topology.segments.push(s);
        self.topology.cell_material.push(material);
    }

    /// Edges of `triangles` as distance constraints with α = l₀/(E t w): each edge carries a
    /// strip of sheet as wide as its own length, so α = 1/(E t) (the cloth tutorial's estimate).
    fn sheet(
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
    fn solid(
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
}

/// Builds the scene a description loaded from `file` gives (mesh paths are relative to its
/// folder), after validating it ([`SceneDesc::validate`]). An error that names a field also
/// names its line when `file` can be read. A description written in Rust is built with
/// [`BuiltScene::from_desc`].
pub fn build_scene(scene: SceneDesc, file: &Path) -> Result<BuiltScene, SceneError> {
    build(scene, file).map_err(|e| match std::fs::read_to_string(file) {
        Ok(text) => e.locate(&text),
        Err(_) => e,
    })
}

/// Validates `scene` and builds it; `file` names it in errors and holds its meshes.
pub(crate) fn build(scene: SceneDesc, file: &Path) -> Result<BuiltScene, SceneError> {
    scene.validate(file)?;
    // What the bodies will allocate, checked before allocating any (meshes once imported).
    let available = crate::budget::available_memory();
    let mut budget = scene.memory_estimate();
    if let Some(bytes) = available {
        budget.check(bytes, file)?;
    }
    crate::budget::WorkEstimate::new(&scene, &budget).check(&budget, file)?;
    let mut a = Assembler {
        file,
        scene: &scene,
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
    };
    for (k, c) in scene.cloth.iter().enumerate() {
        let field = format!("cloth[{k}]");
        let (mid, mat) = a.material(&field, &c.material)?;
        let thickness = a.require(
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
        let base = a.push_particles(&x, &mass, mid);
        let id = |i: usize, j: usize| base + j * nx + i;
        let mut tris = Vec::new();
        for j in 0..ny - 1 {
            for i in 0..nx - 1 {
                tris.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                tris.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        a.sheet(&field, &tris, mat, mid, c.bending)?;
        let edges = triangle_edges(&tris);
        a.record_body(BodyKind::Cloth, base, tris, &edges, None);
    }
    for (k, r) in scene.rope.iter().enumerate() {
        let field = format!("rope[{k}]");
        let (mid, mat) = a.material(&field, &r.material)?;
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
        let base = a.push_particles(&x, &mass, mid);
        let mut d = DistanceConstraints::new();
        for i in 0..r.links {
            let l0 = length / r.links as f64;
            let alpha = match mat.youngs {
                Some(e) => DistanceConstraints::compliance_from_material(l0, e, area)
                    .map_err(a.build_err(&field))?,
                None => 0.0,
            };
            d.add(&a.particles, base + i, base + i + 1, alpha)
                .map_err(a.build_err(&field))?;
            a.add_segment([base + i, base + i + 1], mid);
        }
        a.distance.push((field, d));
        a.record_body(BodyKind::Rope, base, Vec::new(), &[], Some(r.radius));
    }
    for (k, b) in scene.soft_box.iter().enumerate() {
        let field = format!("soft_box[{k}]");
        let (mid, mat) = a.material(&field, &b.material)?;
        let mesh = TetMesh::box_beam(b.size, b.cells).map_err(|e| SceneError::Build {
            file: file.to_path_buf(),
            field: field.clone(),
            source: BuildError::InvalidGeometry(e.to_string()),
        })?;
        let x: Vec<Vector<3>> = mesh.vertices.iter().map(|p| p + v3(b.origin)).collect();
        let tets: Vec<[usize; 4]> = mesh.cells.iter().map(|c| c.map(|i| i as usize)).collect();
        let pin = b.pin_x_below;
        let xs = x.clone();
        let pinned = move |i: usize| pin.is_some_and(|p| xs[i].x <= b.origin[0] + p);
        let start = a.particles.len();
        a.solid(&field, &x, &tets, &pinned, mat, mid)?;
        let shifted: Vec<[usize; 4]> = tets.iter().map(|t| t.map(|i| i + start)).collect();
        let edges = tet_edges(&shifted);
        a.record_body(BodyKind::Solid, start, boundary(&shifted), &edges, None);
    }
    let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
    for (k, m) in scene.mesh.iter().enumerate() {
        let field = format!("mesh[{k}]");
        let (mid, mat) = a.material(&field, &m.material)?;
        let path = folder.join(&m.path);
        let import_err = |source| SceneError::Import {
            file: file.to_path_buf(),
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
            budget.check(bytes, file)?;
        }
        crate::budget::WorkEstimate::new(&scene, &budget).check(&budget, file)?;
        // Every vertex must belong to an element of the kind the body is built from, or its
        // lumped mass would be 0 (a silently pinned particle).
        imported
            .check_body(&path.display().to_string(), m.kind == MeshKind::Soft)
            .map_err(import_err)?;
        check_scale(file, &format!("{field}.scale"), m.scale, &imported)?;
        let x: Vec<Vector<3>> = imported
            .vertices
            .iter()
            .map(|p| p * m.scale + v3(m.translate))
            .collect();
        if let Some(&p) = m.pins.iter().find(|&&p| p >= x.len()) {
            return Err(SceneError::InvalidValue {
                file: file.to_path_buf(),
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
                let start = a.particles.len();
                a.solid(&field, &x, &imported.tets, &pinned, mat, mid)?;
                let shifted: Vec<[usize; 4]> =
                    imported.tets.iter().map(|t| t.map(|i| i + start)).collect();
                let edges = tet_edges(&shifted);
                a.record_body(BodyKind::Solid, start, boundary(&shifted), &edges, None);
            }
            MeshKind::Cloth => {
                let thickness = a.require(
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
                let base = a.push_particles(&x, &mass, mid);
                let tris: Vec<[usize; 3]> = imported
                    .triangles
                    .iter()
                    .map(|t| t.map(|i| i + base))
                    .collect();
                a.sheet(&field, &tris, mat, mid, BendingModel::None)?;
                let edges = triangle_edges(&tris);
                a.record_body(BodyKind::Cloth, base, tris, &edges, None);
            }
        }
    }
    let mut pending = Vec::new();
    let mut grips = Vec::new();
    let mut emitters = Vec::new();
    for (k, c) in scene.continuum.iter().enumerate() {
        let field = format!("continuum[{k}]");
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
                field.clone()
            } else {
                format!("{field}.layer[{j}]")
            };
            let (mid, mat) = a.material(&lfield, name)?;
            if let Some(e) = table.iter().position(|(m, _)| *m == mid) {
                entry.push(e as u8);
                continue;
            }
            let youngs = a.require(
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
        let Some(&(mid, material)) = table.first() else {
            return Err(SceneError::InvalidValue {
                file: file.to_path_buf(),
                line: 0,
                field: format!("{field}.material"),
                value: "absent".into(),
                reason: "a continuum needs `material` and `region`, or `[[continuum.layer]]` entries",
            });
        };
        let (x, hold, layer) = crate::continuum::sample(c);
        if let Some(j) = crate::layers::empty_layer(c.layer.len(), &layer) {
            return Err(SceneError::InvalidValue {
                file: file.to_path_buf(),
                line: 0,
                field: format!("{field}.layer[{j}].region"),
                value: format!("{:?}", c.layer[j].region),
                reason: "the layer holds no particle: no lattice point of the body lies in it, \
                         outside the layers before it and the excluded regions",
            });
        }
        if x.is_empty() {
            return Err(SceneError::InvalidValue {
                file: file.to_path_buf(),
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
        let base = a.push_particles(&x, &mass, mid);
        for (i, &e) in ids.iter().enumerate() {
            a.topology.particle_material[base + i] = table[e as usize].0;
        }
        for (i, &h) in hold.iter().enumerate() {
            match h {
                Hold::Free => a.particles.v[base + i] = v3(c.velocity),
                Hold::Pinned => {}
                Hold::Grip(v) => {
                    a.particles.v[base + i] = v3(v);
                    grips.push((base + i, v3(v)));
                }
                Hold::Nozzle => {}
            }
        }
        if let Some(crate::continuum::RegionSpec::Nozzle(n)) = &c.region {
            let ids: Vec<usize> = (base..base + x.len()).collect();
            for &i in &ids {
                a.particles.v[i] = Vector::<3>::new(0.0, 0.0, -n.speed);
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
        let (_, name, _) = a.names[a.bodies.len()].clone();
        a.bodies.push(Body {
            name,
            field: field.clone(),
            kind: BodyKind::Continuum,
            particles: base..base + x.len(),
            radius: 0.5 * c.spacing,
            triangles: Vec::new(),
        });
        pending.push(PendingContinuum {
            field,
            material_id: mid,
            materials: table.into_iter().map(|(_, m)| m).collect(),
            ids,
            members: base..base + x.len(),
            settings,
            position_correction: c.xpbi.position_correction,
            velocity: format!("{:?}", c.velocity),
        });
    }
    let fluids = crate::fluid::add_particles(
        crate::fluid::Store {
            particles: &mut a.particles,
            topology: &mut a.topology,
            bodies: &mut a.bodies,
            names: &a.names,
            file,
        },
        &scene.fluid,
        &mut emitters,
    )?;
    let s = &scene.solver;
    let settings = SolverSettings::<3> {
        substeps: s.substeps,
        iterations: s.iterations,
        solver: s.method,
        gravity: v3(s.gravity),
        velocity_damping: s.velocity_damping,
        multiplier_warm_start: s.multiplier_warm_start,
        threads: s.threads,
        ..SolverSettings::default()
    };
    let Assembler {
        particles,
        topology,
        distance,
        dihedral,
        isometric,
        tets,
        bodies,
        ..
    } = a;
    let mut sim = Simulation::new(particles, settings)
        .map_err(SceneError::build_at(file, "solver".into()))?;
    let mut handles = Vec::new();
    for (f, b) in distance {
        handles.push(AnyBlock::Distance(
            sim.add_constraints(b)
                .map_err(SceneError::build_at(file, f))?,
        ));
    }
    for (f, b) in dihedral {
        handles.push(AnyBlock::Dihedral(
            sim.add_constraints(b)
                .map_err(SceneError::build_at(file, f))?,
        ));
    }
    for (f, b) in isometric {
        handles.push(AnyBlock::Isometric(
            sim.add_constraints(b)
                .map_err(SceneError::build_at(file, f))?,
        ));
    }
    for (f, b) in tets {
        handles.push(AnyBlock::Tets(
            sim.add_constraints(b)
                .map_err(SceneError::build_at(file, f))?,
        ));
    }
    if let Some(c) = &scene.contacts {
        let options = ContactOptions {
            margin: c.margin,
            ..ContactOptions::default()
        };
        let mut contacts = ColliderContacts::new(c.radius, options)
            .map_err(SceneError::contact_at(file, "contacts".into()))?;
        for (k, spec) in scene.collider.iter().enumerate() {
            let shape = match &spec.shape {
                ShapeSpec::Plane { normal, offset } => Shape::HalfSpace {
                    normal: v3(*normal),
                    offset: *offset,
                },
                ShapeSpec::Sphere { radius } => Shape::Sphere { radius: *radius },
                ShapeSpec::Box { half_extents } => Shape::Box {
                    half_extents: v3(*half_extents),
                },
                ShapeSpec::Capsule {
                    half_length,
                    radius,
                } => Shape::Capsule {
                    half_length: *half_length,
                    radius: *radius,
                },
                ShapeSpec::Mesh {
                    path,
                    cell,
                    padding,
                    scale,
                } => Shape::Sdf(std::sync::Arc::new(mesh_sdf(
                    file,
                    &format!("collider[{k}].shape.mesh"),
                    &folder.join(path),
                    *cell,
                    *padding,
                    *scale,
                )?)),
            };
            let friction = Friction::coulomb(spec.friction).map_err(SceneError::contact_at(
                file,
                format!("collider[{k}].friction"),
            ))?;
            let collider = Collider::fixed(shape)
                .at(Pose {
                    translation: v3(spec.center),
                    rotation: spec.rotation(),
                })
                .with_friction(friction)
                .with_restitution(spec.restitution)
                .moving_at(v3(spec.velocity));
            contacts
                .add_collider(collider)
                .map_err(SceneError::contact_at(file, format!("collider[{k}]")))?;
        }
        if !pending.is_empty() || !fluids.is_empty() {
            // Continuum and fluid particles keep their centres ½Δx from collider surfaces.
            let mut radii = vec![c.radius; sim.particles().len()];
            for p in &pending {
                radii[p.members.clone()].fill(0.5 * p.settings.spacing);
            }
            for f in &fluids {
                radii[f.members.clone()].fill(0.5 * f.spacing);
            }
            contacts
                .set_radii(radii)
                .map_err(SceneError::contact_at(file, "contacts".into()))?;
        }
        crate::interaction::check_outside_colliders(sim.particles(), &contacts, &bodies, file)?;
        // Cloth triangles against the convex colliders (spheres, capsules, boxes), which would
        // slip between the vertices: a second block that reads the colliders' motion from this
        // one (`ColliderTriangleContacts`), added right after it. Without a cloth or a convex
        // collider there is none (planes and meshes are vertex contact only).
        let cloth: Vec<[usize; 3]> = (bodies.iter())
            .filter(|b| b.kind == crate::interaction::BodyKind::Cloth)
            .flat_map(|b| b.triangles.iter().copied())
            .collect();
        let convex = contacts.colliders().iter().any(|c| {
            matches!(
                c.shape,
                Shape::Sphere { .. } | Shape::Capsule { .. } | Shape::Box { .. }
            )
        });
        let triangles = (!cloth.is_empty() && convex)
            .then(|| ColliderTriangleContacts::new(&mut contacts, &cloth));
        handles.push(AnyBlock::Contacts(
            sim.add_constraints(contacts)
                .map_err(SceneError::build_at(file, "contacts".into()))?,
        ));
        if let Some(triangles) = triangles {
            handles.push(AnyBlock::ColliderTriangles(
                sim.add_constraints(triangles)
                    .map_err(SceneError::build_at(file, "contacts".into()))?,
            ));
        }
    }
    // Per continuum, as xpbi_continuum::scene: position correction, then the XPBI block.
    let mut continua = Vec::new();
    for p in pending {
        let members: Vec<u32> = p.members.clone().map(|i| i as u32).collect();
        if p.position_correction {
            let sc = SpacingConstraints::new(sim.particles(), members.clone(), p.settings.spacing);
            handles.push(AnyBlock::Spacing(
                sim.add_constraints(sc)
                    .map_err(SceneError::build_at(file, p.field.clone()))?,
            ));
        }
        let volume = vec![p.settings.spacing.powi(3); members.len()];
        let built = match (p.ids.is_empty(), &p.materials[..]) {
            (true, &[material]) => {
                XpbiContinuum::new(sim.particles(), members, volume, material, p.settings)
            }
            _ => XpbiContinuum::with_materials(
                sim.particles(),
                members,
                volume,
                p.materials,
                p.ids,
                p.settings,
            ),
        };
        let xpbi = built.map_err(|source| SceneError::Continuum {
            file: file.to_path_buf(),
            // A neighbour grid refused: the `[continuum.xpbi]` setting that sets its cells.
            field: match &source {
                xpbi_continuum::XpbiError::Grid { setting, .. } => {
                    format!("{}.xpbi.{setting}", p.field)
                }
                _ => p.field.clone(),
            },
            source: Box::new(source),
        })?;
        // Fixed steps: the block's own CFL bound at the start (`XpbiContinuum::cfl_bound`, the
        // bound every step checks), refused here by field. Adaptive steps stay below it.
        let h = scene.time.dt / scene.solver.substeps as f64;
        if !scene.time.is_adaptive(true) && h > xpbi.cfl_bound(sim.particles()).0 {
            return Err(SceneError::InvalidValue {
                file: file.to_path_buf(),
                line: 0,
                field: format!("{}.velocity", p.field),
                value: p.velocity,
                reason: "the substep dt/substeps exceeds the CFL bound cfl * spacing / |velocity|",
            });
        }
        let handle = sim
            .add_constraints(xpbi)
            .map_err(SceneError::build_at(file, p.field.clone()))?;
        handles.push(AnyBlock::Xpbi(handle));
        continua.push(ContinuumBlock {
            handle,
            material: p.material_id,
        });
    }
    let fixed_substep =
        (!scene.time.is_adaptive(true)).then(|| scene.time.dt / scene.solver.substeps as f64);
    let fluid_blocks =
        crate::fluid::add_blocks(&mut sim, fluids, &scene.fluid, &bodies, fixed_substep, file)?;
    handles.extend(fluid_blocks.iter().copied().map(AnyBlock::Fluid));
    // Bodies touch last, so contacts have the last word in a Gauss–Seidel sweep.
    let margin = scene.contacts.as_ref().map_or(0.0, |c| c.margin);
    let touching =
        crate::interaction::add_body_contacts(&mut sim, &bodies, &scene.interaction, margin, file)?;
    handles.extend(touching.bodies.map(AnyBlock::Bodies));
    handles.extend(touching.triangles.into_iter().map(AnyBlock::Triangles));
    debug_assert_eq!(handles.len(), sim.blocks().len());
    Ok(BuiltScene {
        bodies,
        sim,
        topology,
        scene,
        frame: 0,
        continua,
        fluids: fluid_blocks,
        grips,
        emitters,
        handles,
        steps: AdvanceReport::default(),
    })
}

impl BuiltScene {
    /// Loads, validates and builds a scene file.
    ///
    /// ```
    /// let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes/hanging_chain.toml");
    /// let mut s = xpbd_scene::BuiltScene::load(&path).unwrap();
    /// s.advance_frame().unwrap();
    /// assert_eq!(s.frame, 1);
    /// ```
    pub fn load(path: &Path) -> Result<Self, SceneError> {
        build_scene(SceneDesc::load(path)?, path)
    }

    /// Runs one frame (`steps_per_frame` calls of [`BuiltScene::step`]).
    pub fn advance_frame(&mut self) -> Result<(), crate::error::FrameError> {
        for _ in 0..self.scene.time.steps_per_frame {
            self.step()?;
        }
        self.frame += 1;
        Ok(())
    }

    /// One step of Δt. Adaptive ([`crate::scene::TimeSection::is_adaptive`]): Δt is advanced
    /// in steps of at most `dt_max` below every block's substep bound (XPBI's CFL bound), a
    /// failing step retried at half its size ([`Simulation::advance`]); fixed: one step of Δt,
    /// after the step's own check of every block's bound for the substep Δt/substeps
    /// ([`Simulation::check_substep_bounds`]; nothing changes on failure). Before every step of δt, every gripped particle gets the kinematic target
    /// `x + δt v_grip` and the nozzles release and drive their particles
    /// ([`crate::emitter::Emitter::before_step`]). A failed step is rolled back.
    pub fn step(&mut self) -> Result<(), crate::error::FrameError> {
        let dt = self.scene.time.dt;
        let adaptive = self.is_adaptive();
        let (grips, emitters) = (&self.grips, &mut self.emitters);
        let before = |p: &mut xpbd_core::Particles<3>, dt: f64| drive(grips, emitters, p, dt);
        if adaptive {
            let report = self.sim.advance(dt, &self.scene.time.stepping(), before)?;
            self.steps.merge(&report);
            return Ok(());
        }
        // The step's own bound check (every block's `max_substep`, XPBI's CFL bound among
        // them), made before the grips and nozzles move anything.
        self.sim
            .check_substep_bounds(dt / self.sim.settings().substeps as f64)?;
        let mut before = before;
        before(self.sim.particles_mut(), dt);
        let gain = self.sim.step(dt)?.energy_gain;
        self.steps.merge(&AdvanceReport {
            steps: 1,
            dt_min: dt,
            dt_max: dt,
            halvings: 0,
            max_energy_gain: gain,
        });
        Ok(())
    }

    /// What happens before every step of `dt` ([`BuiltScene::step`] does it, and a backend
    /// that steps the scene itself calls it): each gripped particle gets the kinematic target
    /// `x + dt v_grip`, and the nozzles release the particles that crossed their exit plane and
    /// move the others' targets down by `v dt` ([`crate::emitter::Emitter::before_step`]).
    /// The particles with a kinematic target afterwards are the ones the step moves
    /// kinematically, each linearly to its target over the step.
    pub fn prepare_step(&mut self, dt: f64) {
        drive(
            &self.grips,
            &mut self.emitters,
            self.sim.particles_mut(),
            dt,
        );
    }

    /// The continuum and fluid fields of every particle for export (det F, hardening, volume
    /// correction, λ of the XPBI constraint; a fluid's density and pressure; see
    /// [`crate::export::ParticleFields`]); empty without continua and fluids.
    pub fn particle_fields(&self) -> crate::export::ParticleFields {
        let n = self.sim.particles().len();
        let mut f = crate::export::ParticleFields::default();
        if !self.fluids.is_empty() {
            f.density = vec![0.0; n];
            f.pressure = vec![0.0; n];
            for &handle in &self.fluids {
                let block = self.sim.block(handle);
                let kind = &block.kind;
                let lambda = xpbd_core::constraint::ConstraintSet::multipliers(block);
                let ratios = kind.density_ratios(&self.sim.particles().x);
                let rho0 = kind.settings().rest_density;
                // The multipliers are those of the substep that last began.
                let p = match kind.last_substep() {
                    Some(h) if h > 0.0 => kind.pressures(lambda, h),
                    _ => vec![0.0; ratios.len()],
                };
                for (k, &m) in kind.row_particles().iter().enumerate() {
                    f.density[m as usize] = rho0 * ratios[k];
                    f.pressure[m as usize] = p.get(k).copied().unwrap_or(0.0);
                }
            }
        }
        if self.continua.is_empty() {
            return f;
        }
        f.det_f = vec![1.0; n];
        f.hardening = vec![0.0; n];
        f.volume_correction = vec![0.0; n];
        f.lambda = vec![0.0; n];
        for c in &self.continua {
            let block = self.sim.block(c.handle);
            let kind = &block.kind;
            let lambda = xpbd_core::constraint::ConstraintSet::multipliers(block);
            for (k, &p) in kind.members().iter().enumerate() {
                let p = p as usize;
                f.det_f[p] = kind.deformation_gradients()[k].determinant();
                f.hardening[p] = kind.plastic_states()[k].hardening;
                f.volume_correction[p] = kind.plastic_states()[k].volume_correction;
                f.lambda[p] = lambda.get(k).copied().unwrap_or(0.0);
            }
        }
        f
    }

    /// The scene's collider contacts (ground, walls, obstacles), mutably: for a backend that
    /// steps them itself and hands the colliders' poses back (`ColliderContacts::set_pose`).
    pub fn collider_contacts_mut(&mut self) -> Option<&mut ColliderContacts<3>> {
        let h = self.handles.iter().find_map(|h| match *h {
            AnyBlock::Contacts(h) => Some(h),
            _ => None,
        })?;
        Some(&mut self.sim.block_mut(h).kind)
    }

    /// Every constraint block with its kind, in `sim.blocks()` order.
    pub fn block_kinds(&self) -> Vec<BlockKind<'_>> {
        let sim = &self.sim;
        self.handles
            .iter()
            .map(|h| match *h {
                AnyBlock::Distance(h) => BlockKind::Distance(&sim.block(h).kind),
                AnyBlock::Dihedral(h) => BlockKind::Dihedral(&sim.block(h).kind),
                AnyBlock::Isometric(h) => BlockKind::Isometric(&sim.block(h).kind),
                AnyBlock::Tets(h) => BlockKind::Tets(&sim.block(h).kind),
                AnyBlock::Contacts(h) => BlockKind::Contacts(&sim.block(h).kind),
                AnyBlock::ColliderTriangles(h) => BlockKind::ColliderTriangles(&sim.block(h).kind),
                AnyBlock::Spacing(h) => BlockKind::Spacing(&sim.block(h).kind),
                AnyBlock::Xpbi(h) => BlockKind::Xpbi(&sim.block(h).kind),
                AnyBlock::Bodies(h) => BlockKind::Bodies(&sim.block(h).kind),
                AnyBlock::Triangles(h) => BlockKind::Triangles(&sim.block(h).kind),
                AnyBlock::Fluid(h) => BlockKind::Fluid(&sim.block(h).kind),
            })
            .collect()
    }

    /// Whether [`BuiltScene::step`] is adaptive: `[time] adaptive`, or by default whether the
    /// scene has a continuum or a fluid (whose blocks declare CFL bounds).
    pub fn is_adaptive(&self) -> bool {
        self.scene.is_adaptive()
    }

    /// Simulated time at the current frame (s), `frame · steps_per_frame · Δt`.
    pub fn time(&self) -> f64 {
        self.frame as f64 * self.scene.time.steps_per_frame as f64 * self.scene.time.dt
    }
}

/// [`BuiltScene::prepare_step`] on borrowed parts (the adaptive step calls it per attempt).
fn drive(
    grips: &[(usize, Vector<3>)],
    emitters: &mut [crate::emitter::Emitter],
    p: &mut xpbd_core::Particles<3>,
    dt: f64,
) {
    for &(i, v) in grips {
        p.kinematic_target[i] = Some(p.x[i] + v * dt);
    }
    for e in emitters {
        e.before_step(p, dt);
    }
}

/// The signed-distance grid of the closed mesh at `path` (vertices times `scale`), nodes
/// `cell` apart over its bounding box grown by `padding` (default 3 cells); `field` names the
/// `mesh` table in errors, each naming the value at fault: the `path` of an unreadable or open
/// mesh, the `scale` that takes it beyond [`crate::scene::MAX_COORDINATE`] or to zero area
/// ([`check_scale`]), and for a grid of more than [`ShapeSpec::MAX_MESH_NODES`] the `padding`
/// (when the mesh's own box fits at this cell), else the `scale` (when the mesh fits at scale
/// 1), else the `cell`.
fn mesh_sdf(
    file: &Path,
    field: &str,
    path: &Path,
    cell: f64,
    padding: Option<f64>,
    scale: f64,
) -> Result<xpbd_core::contact::SdfGrid<3>, SceneError> {
    let mesh = import_mesh(path).map_err(|source| SceneError::Import {
        file: file.to_path_buf(),
        field: format!("{field}.path"),
        source,
    })?;
    check_scale(file, &format!("{field}.scale"), scale, &mesh)?;
    let vertices: Vec<Vector<3>> = mesh.vertices.iter().map(|v| v * scale).collect();
    let (mut lo, mut hi) = (
        Vector::<3>::repeat(f64::INFINITY),
        Vector::<3>::repeat(f64::NEG_INFINITY),
    );
    for v in &mesh.vertices {
        lo = lo.inf(v);
        hi = hi.sup(v);
    }
    // Nodes of the grid over a box of sides `extent` grown by `pad` on every side.
    let nodes = |extent: Vector<3>, pad: f64| -> f64 {
        (0..3)
            .map(|a| ((extent[a] + 2.0 * pad) / cell).ceil() + 1.0)
            .product()
    };
    let (extent, grown) = ((hi - lo) * scale, padding.unwrap_or(3.0 * cell));
    if nodes(extent, grown) > ShapeSpec::MAX_MESH_NODES {
        let fits = |n: f64| n <= ShapeSpec::MAX_MESH_NODES;
        let (name, value, reason) = match padding {
            Some(p) if fits(nodes(extent, 0.0)) => (
                "padding",
                p,
                "grows the mesh's box so much that its signed-distance grid at this cell would \
                 have more than 16.8 M nodes",
            ),
            _ if scale != 1.0 && fits(nodes(hi - lo, 0.0)) => (
                "scale",
                scale,
                "enlarges the mesh so much that its signed-distance grid at this cell would have \
                 more than 16.8 M nodes",
            ),
            _ => (
                "cell",
                cell,
                "gives a signed-distance grid of more than 16.8 M nodes over the mesh's box",
            ),
        };
        return Err(SceneError::InvalidValue {
            file: file.to_path_buf(),
            line: 0,
            field: format!("{field}.{name}"),
            value: value.to_string(),
            reason,
        });
    }
    let surface = xpbd_core::builders::TriangleSurface {
        vertices,
        triangles: mesh.triangles,
    };
    xpbd_core::contact::SdfGrid::from_mesh(&surface, cell, grown).map_err(|source| {
        use xpbd_core::contact::ContactError as C;
        // The contact module names its own parameter; the scene field is the one it came from.
        let name = match &source {
            C::NonFiniteGeometry { field, .. } | C::NegativeSize { field, .. } => match *field {
                "sdf cell size" => "cell",
                "sdf padding" => "padding",
                "mesh vertex" => "scale",
                _ => "path",
            },
            _ => "path",
        };
        SceneError::contact_at(file, format!("{field}.{name}"))(source)
    })
}

/// Refuses a mesh's `scale` (the scene field `field`) that takes a vertex of `mesh` beyond
/// [`crate::scene::MAX_COORDINATE`] in magnitude (where areas and volumes would overflow, or lose
/// their precision) or shrinks a triangle or tetrahedron to zero area or volume (underflow):
/// the error names the scale, not the area, mass or grid it would break downstream.
fn check_scale(
    file: &Path,
    field: &str,
    scale: f64,
    mesh: &ImportedMesh,
) -> Result<(), SceneError> {
    let x: Vec<Vector<3>> = mesh.vertices.iter().map(|v| v * scale).collect();
    let refuse = |reason: &'static str| SceneError::InvalidValue {
        file: file.to_path_buf(),
        line: 0,
        field: field.to_string(),
        value: format!("{scale:?}"),
        reason,
    };
    let limit = crate::validate::MAX_COORDINATE;
    if x.iter()
        .flatten()
        .any(|c| !c.is_finite() || c.abs() > limit)
    {
        return Err(refuse(
            "takes a vertex of the mesh beyond 1e8 m: scaled coordinates must be finite with \
             magnitude <= 1e8 (so that areas and volumes stay finite)",
        ));
    }
    let flat = mesh.triangles.iter().any(|&t| triangle_area(&x, t) == 0.0)
        || mesh.tets.iter().any(|&t| tet_volume(&x, t) == 0.0);
    if flat {
        return Err(refuse(
            "shrinks a triangle or tetrahedron of the mesh to zero area or volume (underflow)",
        ));
    }
    Ok(())
}
