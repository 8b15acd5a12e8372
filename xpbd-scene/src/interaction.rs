//! How bodies touch: body names, `[[interaction]]`, and the contact blocks built from them.
//!
//! Every body (`[[cloth]]`, `[[rope]]`, `[[soft_box]]`, `[[mesh]]`, `[[continuum]]`) has a
//! name: its `name` field, or else its field (`cloth[0]`, `continuum[1]`). Two bodies touch
//! when
//! * one of them is a continuum (sand, snow, clay, paste: a user who puts sand above a cloth
//!   expects it to land on the cloth), with friction μ = [`DEFAULT_BODY_FRICTION`], or
//! * an `[[interaction]]` names them (`bodies = ["sand", "hammock"]`, `friction = μ`), which
//!   also sets the friction of a pair that touches by default, or turns it off with
//!   `contact = false`.
//!
//! Two XPBD bodies (cloth, rope, soft body, mesh) touch only when an `[[interaction]]` names
//! them: scenes written before bodies could touch place such bodies through each other, and
//! keep their meaning.
//!
//! Touching is, for a pair in which a body has triangles (a `[[cloth]]`, a `[[mesh]]` of kind
//! cloth, a soft body's boundary faces), [`xpbd_core::contact::PointTriangleContacts`] between
//! the other body's particles and those triangles, so grains smaller than the mesh spacing
//! cannot slip between its particles; the closest point of a triangle may be one of its
//! vertices, so this also keeps the other body's particles off the mesh's own particles, and
//! a particle–particle contact for that pair would only repeat it. Any other pair (two
//! continua, a continuum and a rope) touches through [`xpbd_core::contact::BodyContacts`]
//! between the bodies' particles. Each body's own particles never touch through either: a
//! continuum's kernel estimate and a cloth's mesh see only their own body, so separate bodies
//! do not stick. Contact radii: a continuum particle's is ½Δx
//! (as against colliders); an XPBD particle's is `[contacts] radius` when the scene has one,
//! else a rope's `radius`, else half the body's mean edge length. A point is kept
//! `r_point + r_cloth` from a cloth triangle. All contacts are in the same iterations as the
//! rest of the solve (no lagged exchange) and are mass-weighted, so momentum passes correctly
//! between a heavy sand body and a light cloth.
//!
//! ```
//! let text = "name = 'hammock'\n[time]\ndt = 0.001\nframes = 1\n\
//!     [materials.cotton]\ndensity = 1500.0\nyoungs = 1e7\nthickness = 0.001\n\
//!     [materials.sand]\npreset = 'sand'\n\
//!     [[cloth]]\nname = 'sheet'\nmaterial = 'cotton'\nresolution = [8, 8]\nsize = [0.2, 0.2]\n\
//!     pins = [[0, 0], [7, 0], [0, 7], [7, 7]]\nbending = 'none'\n\
//!     [[continuum]]\nname = 'sand'\nmaterial = 'sand'\nspacing = 0.01\n\
//!     region = { ball = { center = [0.1, 0.1, 0.05], radius = 0.03 } }\n\
//!     [[interaction]]\nbodies = ['sand', 'sheet']\nfriction = 0.4\n";
//! let scene = xpbd_scene::SceneDesc::parse(text, std::path::Path::new("h.toml")).unwrap();
//! let built = xpbd_scene::build_scene(scene, std::path::Path::new("h.toml")).unwrap();
//! assert_eq!(built.bodies.len(), 2);
//! assert_eq!(built.bodies[1].name, "sand");
//! ```

use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Serialize};
use xpbd_core::Simulation;
use xpbd_core::contact::{
    BodyContacts, ContactGeneration, ContactOptions, Friction, PointTriangleContacts,
};

use crate::error::SceneError;
use crate::validate::Validator;
use xpbd_core::simulation::BlockHandle;

/// Coulomb friction μ between two bodies that touch by default.
pub const DEFAULT_BODY_FRICTION: f64 = 0.5;

/// `[[interaction]]`: how two bodies touch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InteractionSpec {
    /// The two bodies, by name (a body's `name`, or its field such as `cloth[0]`).
    #[serde(deserialize_with = "crate::exact::array")]
    pub bodies: [String; 2],
    /// Coulomb friction μ between them (static = kinetic; default [`DEFAULT_BODY_FRICTION`]).
    #[serde(default)]
    pub friction: Option<f64>,
    /// Whether they touch (`false` turns off a pair that touches by default).
    #[serde(default = "touch")]
    pub contact: bool,
}

fn touch() -> bool {
    true
}

/// What kind of body a name refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// A `[[cloth]]`, or a `[[mesh]]` of kind cloth.
    Cloth,
    /// A `[[rope]]`.
    Rope,
    /// A `[[soft_box]]`, or a `[[mesh]]` of kind soft.
    Solid,
    /// A `[[continuum]]`.
    Continuum,
    /// A `[[fluid]]`.
    Fluid,
}

impl BodyKind {
    /// `cloth`, `rope`, `solid`, `continuum` or `fluid`.
    pub fn label(self) -> &'static str {
        match self {
            BodyKind::Cloth => "cloth",
            BodyKind::Rope => "rope",
            BodyKind::Solid => "solid",
            BodyKind::Continuum => "continuum",
            BodyKind::Fluid => "fluid",
        }
    }

    /// Whether the body touches every other body unless an interaction turns it off (a
    /// continuum or a fluid; see the module docs).
    pub fn touches_by_default(self) -> bool {
        matches!(self, BodyKind::Continuum | BodyKind::Fluid)
    }
}

/// A built body: its name, field, kind and particles.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Its name (`name`, or else the field).
    pub name: String,
    /// Its field in the scene file (`cloth[0]`).
    pub field: String,
    /// Its kind.
    pub kind: BodyKind,
    /// Its particles (a contiguous range of the particle store).
    pub particles: Range<usize>,
    /// Contact radius of its particles against other bodies (m).
    pub radius: f64,
    /// Its triangles (particle indices): a cloth's, or a soft body's boundary faces.
    pub triangles: Vec<[usize; 3]>,
}

/// Names unique (and no name equal to another body's field), every interaction naming two
/// different known bodies, each pair listed once, friction finite and ≥ 0.
pub(crate) fn validate(
    v: &mut Validator<'_>,
    bodies: &[(String, String, bool)],
    interactions: &[InteractionSpec],
) {
    for (k, (field, name, _)) in bodies.iter().enumerate() {
        let f = format!("{field}.name");
        v.name(&f, name);
        v.check_text(
            &f,
            format!("{name:?}"),
            !name.is_empty(),
            "must not be empty",
        );
        let clash = bodies
            .iter()
            .enumerate()
            .any(|(j, (other_field, other, _))| {
                j != k && (other == name || (other_field == name && other_field != field))
            });
        v.check_text(
            &f,
            format!("{name:?}"),
            !clash,
            "another body has this name (or this is another body's field)",
        );
    }
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for (k, i) in interactions.iter().enumerate() {
        let f = format!("interaction[{k}]");
        let mut ids = [0usize; 2];
        for (s, name) in i.bodies.iter().enumerate() {
            match resolve(bodies, name) {
                Some(b) => ids[s] = b,
                None => {
                    v.fail(SceneError::UnknownBody {
                        file: v.file().to_path_buf(),
                        line: 0,
                        field: format!("{f}.bodies[{s}]"),
                        name: name.clone(),
                        known: bodies.iter().map(|(_, n, _)| n.clone()).collect(),
                    });
                    return;
                }
            }
        }
        v.check_text(
            &format!("{f}.bodies"),
            format!("{:?}", i.bodies),
            ids[0] != ids[1],
            "a body cannot interact with itself (its own constraints hold its particles)",
        );
        let key = (ids[0].min(ids[1]), ids[0].max(ids[1]));
        v.check_text(
            &format!("{f}.bodies"),
            format!("{:?}", i.bodies),
            !seen.contains(&key),
            "this pair of bodies is already listed in an earlier [[interaction]]",
        );
        seen.push(key);
        if let Some(mu) = i.friction {
            v.non_negative(&format!("{f}.friction"), mu);
            v.check(
                &format!("{f}.friction"),
                mu,
                i.contact,
                "a pair that does not touch (`contact = false`) has no friction: remove one of them",
            );
        }
    }
}

/// The body a name refers to: the body with that `name`, else the body with that field.
fn resolve(bodies: &[(String, String, bool)], name: &str) -> Option<usize> {
    bodies
        .iter()
        .position(|(_, n, _)| n == name)
        .or_else(|| bodies.iter().position(|(f, _, _)| f == name))
}

/// The blocks [`add_body_contacts`] added, in the order it added them.
#[derive(Debug, Default)]
pub(crate) struct ContactBlocks {
    /// The body contacts (absent when no pair touches).
    pub(crate) bodies: Option<BlockHandle<BodyContacts<3>>>,
    /// The point–triangle blocks, one per (sheet or soft body, other body).
    pub(crate) triangles: Vec<BlockHandle<PointTriangleContacts>>,
}

/// For bodies `a < b`: `Some(friction)` when they touch.
fn pair_friction(
    interactions: &[InteractionSpec],
    bodies: &[Body],
    a: usize,
    b: usize,
) -> Option<f64> {
    let names: Vec<(String, String, bool)> = bodies
        .iter()
        .map(|b| (b.field.clone(), b.name.clone(), false))
        .collect();
    let listed = interactions.iter().find(|i| {
        let ids = i.bodies.each_ref().map(|n| resolve(&names, n));
        ids == [Some(a), Some(b)] || ids == [Some(b), Some(a)]
    });
    match listed {
        Some(i) => i
            .contact
            .then(|| i.friction.unwrap_or(DEFAULT_BODY_FRICTION)),
        None => (bodies[a].kind.touches_by_default() || bodies[b].kind.touches_by_default())
            .then_some(DEFAULT_BODY_FRICTION),
    }
}

/// Adds the body contacts (one block for every pair that touches) and, per cloth and body it
/// touches, a point–triangle block; refuses bodies that start inside each other.
pub(crate) fn add_body_contacts(
    sim: &mut Simulation<3>,
    bodies: &[Body],
    interactions: &[InteractionSpec],
    margin: f64,
    file: &Path,
) -> Result<ContactBlocks, SceneError> {
    // Searched once per step for all its substeps (the margin then covers the step's motion):
    // the search is the main cost of body contact, and a step's motion is far below a grain.
    let options = ContactOptions {
        margin,
        generation: ContactGeneration::PerStep,
        ..ContactOptions::default()
    };
    let mut pairs = Vec::new();
    for a in 0..bodies.len() {
        for b in a + 1..bodies.len() {
            if let Some(mu) = pair_friction(interactions, bodies, a, b) {
                let friction = Friction::coulomb(mu).map_err(SceneError::contact_at(
                    file,
                    format!(
                        "interaction between {} and {}",
                        bodies[a].name, bodies[b].name
                    ),
                ))?;
                pairs.push((a, b, friction));
            }
        }
    }
    let mut handles = ContactBlocks::default();
    let meshed = |k: usize| !bodies[k].triangles.is_empty();
    let (sheet_pairs, particle_pairs): (Vec<_>, Vec<_>) = pairs
        .into_iter()
        .partition(|&(a, b, _)| meshed(a) || meshed(b));
    if !particle_pairs.is_empty() {
        handles.bodies = Some(add_particle_pairs(
            sim,
            bodies,
            &particle_pairs,
            options,
            file,
        )?);
    }
    for &(a, b, friction) in &sheet_pairs {
        for (cloth, other) in [(a, b), (b, a)] {
            let (c, o) = (&bodies[cloth], &bodies[other]);
            if c.triangles.is_empty() {
                continue;
            }
            let field = format!("{} against {}", o.field, c.field);
            let d = c.radius + o.radius;
            let block = PointTriangleContacts::new(&c.triangles, d, friction, options)
                .map_err(SceneError::contact_at(file, field.clone()))?
                .with_only_points(o.particles.clone());
            if let Some((q, _, distance)) = block.first_overlap(&sim.particles().x) {
                return Err(SceneError::InsideSheet {
                    file: file.to_path_buf(),
                    field: c.field.clone(),
                    other: o.field.clone(),
                    other_particle: q - o.particles.start,
                    distance,
                    required: d,
                });
            }
            handles.triangles.push(
                sim.add_constraints(block)
                    .map_err(SceneError::build_at(file, field))?,
            );
        }
    }
    Ok(handles)
}

/// The particle–particle contacts of `pairs` (bodies without triangles), after checking that
/// no two of their particles start closer than their contact distance.
fn add_particle_pairs(
    sim: &mut Simulation<3>,
    bodies: &[Body],
    pairs: &[(usize, usize, Friction)],
    options: ContactOptions,
    file: &Path,
) -> Result<BlockHandle<BodyContacts<3>>, SceneError> {
    let mut contacts =
        BodyContacts::<3>::new(options).map_err(SceneError::contact_at(file, "contacts".into()))?;
    for body in bodies {
        contacts
            .add_body(body.particles.clone(), body.radius)
            .map_err(SceneError::contact_at(file, body.field.clone()))?;
    }
    for &(a, b, friction) in pairs {
        contacts
            .interact(a, b, friction)
            .map_err(SceneError::contact_at(
                file,
                format!("{} and {}", bodies[a].field, bodies[b].field),
            ))?;
    }
    if let Some(o) = contacts.first_overlap(&sim.particles().x) {
        return Err(SceneError::Overlap {
            file: file.to_path_buf(),
            field: bodies[o.body].field.clone(),
            other: bodies[o.other_body].field.clone(),
            particle: o.particle - bodies[o.body].particles.start,
            other_particle: o.other_particle - bodies[o.other_body].particles.start,
            distance: o.distance,
            required: o.required,
        });
    }
    sim.add_constraints(contacts)
        .map_err(SceneError::build_at(file, "body contacts".into()))
}

/// Refuses a free particle whose centre starts inside a collider's solid (signed distance
/// below −10⁻⁹ of its contact radius), which the contact would push out through the whole
/// depth in one substep (a sand block built inside a sphere left it at 183 m/s, one below the
/// ground at 446 m/s). A centre on the surface or within the contact radius outside it (a
/// soft box's vertices on the ground) is pushed out by at most that radius and accepted.
/// Pinned particles are never moved by a contact and are not checked.
pub(crate) fn check_outside_colliders(
    particles: &xpbd_core::Particles<3>,
    contacts: &xpbd_core::contact::ColliderContacts<3>,
    bodies: &[Body],
    file: &Path,
) -> Result<(), SceneError> {
    let members: Vec<usize> = match contacts.members() {
        Some(m) => m.iter().map(|&p| p as usize).collect(),
        None => (0..particles.len()).collect(),
    };
    for p in members {
        if particles.inv_mass[p] == 0.0 {
            continue;
        }
        let r = contacts.radius_of_particle(p);
        for (k, c) in contacts.colliders().iter().enumerate() {
            let (phi, _) = c.shape.signed_distance(&c.pose, &particles.x[p]);
            if phi < -1e-9 * r {
                let body = bodies.iter().find(|b| b.particles.contains(&p));
                return Err(SceneError::InsideCollider {
                    file: file.to_path_buf(),
                    field: body.map_or_else(|| "a body".into(), |b| b.field.clone()),
                    particle: body.map_or(p, |b| p - b.particles.start),
                    collider: format!("collider[{k}]"),
                    distance: phi,
                    required: r,
                });
            }
        }
    }
    Ok(())
}

/// Half the mean length of the edges of `triangles` (each edge once per triangle) in `x`.
pub(crate) fn half_mean_edge(x: &[xpbd_core::Vector<3>], edges: &[[usize; 2]]) -> f64 {
    if edges.is_empty() {
        return 0.0;
    }
    let sum: f64 = edges.iter().map(|&[a, b]| (x[a] - x[b]).norm()).sum();
    0.5 * sum / edges.len() as f64
}

/// The three edges of every triangle.
pub(crate) fn triangle_edges(triangles: &[[usize; 3]]) -> Vec<[usize; 2]> {
    triangles
        .iter()
        .flat_map(|t| [[t[0], t[1]], [t[1], t[2]], [t[2], t[0]]])
        .collect()
}

/// The six edges of every tetrahedron.
pub(crate) fn tet_edges(tets: &[[usize; 4]]) -> Vec<[usize; 2]> {
    tets.iter()
        .flat_map(|t| {
            [
                [t[0], t[1]],
                [t[0], t[2]],
                [t[0], t[3]],
                [t[1], t[2]],
                [t[1], t[3]],
                [t[2], t[3]],
            ]
        })
        .collect()
}
