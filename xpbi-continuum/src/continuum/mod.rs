//! The XPBI inelastic constraint set as a constraint kind of the XPBD core
//! (`xpbd_core::constraint::ConstraintKind`), so continuum particles live in the core's particle
//! store and are solved in the same loop as cloth, contacts and colliders (design sketch §1).
//!
//! Per substep (XPBI Algorithm 1, reference notes §1.3):
//!
//! * `begin_substep` (x = xⁿ): grid + neighbour lists on xⁿ, Vⁿ = V⁰ det Fⁿ, corrected weights
//!   `q_b = V_bⁿ L_p ∇W_b(x_pⁿ)`, `q_p = −Σ q_b`, XSPH weights `V_b W_pb`, and the spatial
//!   colouring schedule (3^d colours, cell = support; conflict-free, see `xpbd_core::spatial`).
//! * iterations (the core): constraint `p` has stencil `{p} ∪ N(p)`; `C_p`, `∇C_p` come from
//!   the candidate positions through [`crate::constraint::evaluate`], with `Z` applied inside
//!   every evaluation (implicit plasticity) unless `plasticity_in_loop` is off (semi-implicit).
//! * `end_substep` (v = (x − xⁿ)/Δt): XSPH `v_p += c Σ_b V_b (v_b − v_p) W_pb` (c = 1 − e^{−κΔt},
//!   κ ≈ 100.5 s⁻¹ by default, c = 0.01 at Δt = 1e-4 s, [`crate::xsph`]),
//!   `x = xⁿ + Δt v`, then `F^{n+1} = Z((I + Δt∇v^{n+1}) Fⁿ)` with the final velocities and the
//!   hardening state committed.

use nalgebra::{SMatrix, SVector};
use rayon::prelude::*;
use xpbd_core::constraint::{ConstraintKind, DisjointSlice, SubstepContext};
use xpbd_core::schedule::Schedule;
use xpbd_core::spatial::{ColourScheme, NeighbourLists, UniformGrid};
use xpbd_core::{BuildError, Particles};

use crate::constraint::{SplitTerm, evaluate_split, value_and_gradient};
use crate::correction::DEFAULT_PINV_THRESHOLD;
use crate::error::XpbiError;
use crate::kernel::WendlandC2;
use crate::material::Material;
use crate::plasticity::PlasticState;
use crate::projection::warm::WarmStarts;
use crate::projection::{ProjectionData, project_run};
use crate::xsph::Xsph;

mod frozen;
mod materials;
mod state;

pub(crate) use materials::Constitutive;
pub use materials::MAX_MATERIALS;
#[cfg(test)]
mod tests;

/// Rows per parallel work item when building the per-step data (fixed: thread-count independent).
const ROWS_PER_CHUNK: usize = 512;
/// Smallest number of constraints per task of the coloured sweep.
const TASK_CONSTRAINTS: u32 = 128;

/// Settings of an XPBI continuum.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct XpbiSettings {
    /// Particle spacing Δx (m).
    pub spacing: f64,
    /// Kernel support radius over spacing (default 2).
    pub support_over_spacing: f64,
    /// Pseudo-inverse threshold on the singular values of the moment matrix.
    pub pinv_threshold: f64,
    /// Implicit plasticity (Z inside every iteration); `false` = semi-implicit (Z at the end).
    pub plasticity_in_loop: bool,
    /// XSPH velocity smoothing: a rate κ in 1/s by default (see [`crate::xsph`]).
    pub xsph: Xsph,
    /// Cell colouring of the coloured Gauss–Seidel sweep.
    pub colour_scheme: ColourScheme,
    /// Building fails if two particles are closer than this × spacing.
    pub min_distance_ratio: f64,
    /// Courant number: Δt ≤ cfl · Δx / max|v| (default 0.4, the bound of the C++ XPBI code,
    /// `0.4 · 2r / v_max` with r the particle radius). It is an accuracy bound, not a
    /// stability one: the kernels, `L_p` and neighbour lists are frozen on xⁿ, and a particle
    /// that moves a large fraction of Δx in one step leaves them behind. Measured on the 2D snow
    /// ball at Δx = 2.5 mm (`xpbi_validation::snow`): the footprint is converged in Δt up to a Courant
    /// number ≈ 0.5 and loses 57 % at 0.6, which the old bound `0.4 · support / max|v|`
    /// (Courant 0.8) admitted.
    pub cfl: f64,
    /// Where the kernels, neighbour lists and `L_p` are evaluated (see [`KernelFrame`]).
    pub kernel_frame: KernelFrame,
    /// One constraint `sqrt(2Ψ)` per particle, or the μ/λ split (see [`ConstraintForm`]).
    pub constraint_form: ConstraintForm,
    /// Order and grouping of the coloured sweep (see [`SweepOrder`]).
    pub sweep: SweepOrder,
    /// Lay the per-step data out in sweep order (default `true`, see [`XpbiContinuum`]'s
    /// "Memory layout"); the results are bit-identical either way.
    pub reorder_by_cell: bool,
}

/// How the coloured Gauss–Seidel sweep of the continuum is grouped into parallel tasks.
///
/// [`SweepOrder::Cells`]: the 3^d (or 2^d) cell colouring of [`XpbiSettings::colour_scheme`],
/// one task per cell (merged up to 128 constraints), 27 colours in 3D.
/// [`SweepOrder::Slabs`] (default): the grid is cut across its longest axis into slabs of
/// t = ⌈2R/h⌉ cell layers (R the stencil radius, h the cell width), one task per slab, its cells
/// in grid order; even and odd slabs are the two colours. Two particles of slabs k and k + 2
/// are more than t·h ≥ 2R apart along the axis, so their stencils (radius R) are disjoint: the
/// determinism contract holds. Two barriers per iteration instead of 27, and a slab is swept
/// cell after adjacent cell, so neighbour data is reused from the core's cache instead of
/// being fetched again for every colour. Measured (`cargo xtask bench xpbi --particles N
/// --threads 1 --seconds S --sweep cells|slabs`, 2-core machine, µs per particle per
/// iteration, cells → slabs): 10k particles 0.467 → 0.475 (equal within noise), 100k 0.666 →
/// 0.555 and 0.714 → 0.507 (two series), 1M 0.750 → 0.477; whole step at 100k 847 → 672 ms.
/// Hence the default. Slabs fall back to cells when there would be fewer than 16 occupied
/// slabs: then there are about 8 tasks per colour, so up to eight threads balance; and small
/// scenes, where slabs gain nothing (10k above), keep the cell sweep (a
/// 200-particle poured heap (too small for a slope; the report pours 800) is sensitive to the
/// projection order: its 40° slope read 31.5° with cells and 43.4° with slabs, while the
/// full-tier heaps agree within the 1–2° scatter of granular flow: 14.2/22.4/29.4° with slabs,
/// 15.8/23.8/29.3° with cells). The order of projection differs, so trajectories differ from
/// `Cells` to the solver's convergence (static sag of elastic blocks: 2e-5 to 0.15 %),
/// and are again bit-identical for any thread count.
///
/// With the `serde` feature written `"slabs"` or `"cells"` (scene files' `sweep`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum SweepOrder {
    /// One task per slab of cell layers, two colours.
    #[default]
    Slabs,
    /// One task per grid cell, `colour_scheme` colours (the cell colouring).
    Cells,
}

/// How the elastic energy of a particle is written as constraints.
///
/// [`ConstraintForm::Single`] is XPBI's choice (`C_p = sqrt(2Ψ)`, α = 1/V⁰: half the
/// constraints); [`ConstraintForm::Split`] is the comparison form: per particle a shear
/// constraint `C_μ = ‖ln Σ‖` (α = 1/(2μV⁰)) then a volume constraint `C_λ = tr ln Σ`
/// (α = 1/(λV⁰)), see [`crate::constraint::SplitTerm`]. Both have the same energy and hence
/// the same converged equilibrium. In the split form constraint `2c` is the shear and `2c + 1`
/// the volume term of member `c`; it needs λ > 0 (ν > 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConstraintForm {
    /// `C_p = sqrt(2Ψ(F_E))`, one per particle (XPBI).
    #[default]
    Single,
    /// `C_μ` and `C_λ`, two per particle.
    Split,
}

/// Configuration in which the kernels, neighbour lists and corrected gradients are evaluated.
///
/// **Why a choice.** XPBI (the paper) evaluates them on xⁿ every step ([`KernelFrame::Current`],
/// "Eulerian kernels" in the SPH stability literature). Eulerian-kernel SPH has the *tensile
/// instability* (Swegle, Hicks & Attaway 1995, J. Comput. Phys. 116; Belytschko, Guo, Liu & Xiao
/// 2000, IJNME 48, "A unified stability analysis of meshless particle methods"): under tension
/// σ the re-evaluated kernel gradients add a stiffness ∝ σ W''(r), and W'' > 0 beyond the
/// inflection point of the kernel (Wendland C2: r = H/4 = Δx/2 at H = 2Δx, so every neighbour
/// lies in the unstable range). Kernel-gradient correction does not remove it. Measured on the
/// elastic study cantilever (`xtask` cantilever, Δx = H/4, converged iterations, XSPH on or off,
/// any damping): the stored Hencky strain saturates at ≈ 6–8 % in the tensile fibres next to
/// the clamp while the geometric strain keeps growing, the elastic energy stops rising and the
/// beam tears off and falls (E ≤ 1e6 Pa); at E = 1e7 Pa (peak strain 0.7 %) it stays stable.
/// The linearised stiffness about the lattice has no spurious zero-energy modes (lowest
/// discrete frequency 10.4 rad/s vs 12.8 rad/s Euler–Bernoulli), so hourglass modes are not the
/// cause there.
///
/// [`KernelFrame::Reference`] uses *Lagrangian kernels* (Rabczuk, Belytschko & Xiao 2004, CMAME
/// 193, "Stable particle methods based on Lagrangian kernels"; total-Lagrangian SPH,
/// Ganzenmüller 2015, CMAME 286), which are free of the tensile instability: neighbours and
/// `q⁰_b = V_b⁰ L_p⁰ ∇W_b(X_p)` are computed once on the configuration at construction X, the
/// total deformation gradient `F_tot = I + Σ_k (x_k − X_k) q⁰_kᵀ` is carried, and the per-step
/// weights the constraint uses are the push-forward `q_k = F_tot,pⁿ⁻ᵀ q⁰_k`, so that
/// `Σ_k (x_k − x_kⁿ) q_kᵀ = Δt ∇v_p` exactly as in XPBI Eq. 11 and the rest of the method
/// (constraint, return mapping, F update, XSPH) is unchanged. It suits solids whose neighbours
/// stay neighbours (elastic bodies, the convergence cantilever), not flows (sand, snow, fluids).
///
/// With the `serde` feature written `"current"` or `"reference"` (scene files' `kernel_frame`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum KernelFrame {
    /// XPBI: kernels, neighbours and `L_p` on xⁿ every step (updated Lagrangian).
    #[default]
    Current,
    /// Lagrangian kernels on the construction-time configuration (tensile-stable solids).
    Reference,
}

impl XpbiSettings {
    /// Defaults for a spacing: support 2Δx, threshold 1e-2, implicit plasticity, XSPH at
    /// κ ≈ 100.5 s⁻¹ (c = 0.01 per step at Δt = 1e-4 s),
    /// slab sweep (3^d cell colours below 16 slabs), minimum distance 0.5Δx, Courant number 0.4, kernels on xⁿ (XPBI).
    pub fn new(spacing: f64) -> Self {
        Self {
            spacing,
            support_over_spacing: crate::kernel::DEFAULT_SUPPORT_OVER_SPACING,
            pinv_threshold: DEFAULT_PINV_THRESHOLD,
            plasticity_in_loop: true,
            xsph: Xsph::default(),
            colour_scheme: ColourScheme::ThreePerAxis,
            min_distance_ratio: 0.5,
            cfl: 0.4,
            kernel_frame: KernelFrame::Current,
            constraint_form: ConstraintForm::Single,
            sweep: SweepOrder::Slabs,
            reorder_by_cell: true,
        }
    }

    /// Kernel support radius (m).
    pub fn support(&self) -> f64 {
        self.spacing * self.support_over_spacing
    }

    /// The CFL rule's travel `cfl · Δx` (m): the farthest a particle may move in one step, the
    /// bound the core's step checks ([`ConstraintKind::max_substep`]).
    pub fn cfl_travel(&self) -> f64 {
        self.cfl * self.spacing
    }

    /// The CFL rule `h ≤ cfl · Δx / max|v|`: the largest step at the fastest speed `max_speed`
    /// (the one place the rule is written; [`XpbiContinuum::cfl_bound`] and the GPU step's
    /// pre-step check evaluate it).
    pub fn cfl_step(&self, max_speed: f64) -> f64 {
        self.cfl_travel() / max_speed
    }

    /// `map_err` of a neighbour grid of cells `cell` wide set by the setting `setting`
    /// (`"min_distance_ratio"` or `"support_over_spacing"`): [`XpbiError::Grid`].
    pub(crate) fn grid_error(
        &self,
        setting: &'static str,
        cell: f64,
    ) -> impl Fn(xpbd_core::spatial::GridError) -> XpbiError + use<> {
        let value = match setting {
            "min_distance_ratio" => self.min_distance_ratio,
            _ => self.support_over_spacing,
        };
        let spacing = self.spacing;
        move |source| XpbiError::Grid {
            setting,
            value,
            spacing,
            cell,
            source,
        }
    }

    fn validate(&self) -> Result<(), XpbiError> {
        let positive = |name, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(XpbiError::InvalidParameter { name, value: v })
            }
        };
        positive("spacing", self.spacing)?;
        crate::kernel::check_support_over_spacing(self.support_over_spacing)?;
        crate::correction::check_pinv_threshold(self.pinv_threshold)?;
        positive("cfl", self.cfl)?;
        self.xsph.validate()?;
        if !(self.min_distance_ratio.is_finite() && self.min_distance_ratio >= 0.0) {
            return Err(XpbiError::InvalidParameter {
                name: "min_distance_ratio",
                value: self.min_distance_ratio,
            });
        }
        Ok(())
    }
}

/// Wall-clock time of the last `begin_substep` (s).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct XpbiTimings {
    /// Grid + neighbour lists.
    pub neighbour_search: f64,
    /// Vⁿ, L_p, corrected weights, schedule.
    pub frozen_data: f64,
}

/// One XPBI constraint per member particle (see the module docs).
///
/// # Materials
/// [`XpbiContinuum::new`] builds a body of one material; [`XpbiContinuum::with_materials`] a
/// bonded body of several (a table and an id per member): one neighbourhood for the whole
/// body, each member's constraint and return map with its own material's parameters (see
/// `continuum/materials.rs` for the formulas).
///
/// # Memory layout
/// Members (`members()`, `deformation_gradients()`, `plastic_states()`, the checkpoint state)
/// keep the order they were given. The per-step data the sweep reads (stencils, weights,
/// `B_p`, `S_p`, SVD warm starts, copies of the plastic state and compliance) is stored in
/// *rows*. With [`XpbiSettings::reorder_by_cell`] (default) the rows are laid out in the order
/// the sweep visits them, colour → slab or cell → members of a grid cell, re-sorted every
/// step, so the sweep reads every per-constraint array front to back; otherwise row = member
/// and the sweep jumps between rows as it goes from cell to cell. The constraint ids the core
/// sees are rows (single form) or `2·row`, `2·row + 1` (split form), so a diverging step names
/// a row; its stencil's first particle is the member. The sweep visits the same members in the
/// same order with the same stencils either way: results are bit-identical
/// (`tests/row_order.rs`). Measured (`cargo xtask bench xpbi --particles 100000 --threads 1
/// --seconds 0.005`, 3D sand column, 94.6k particles, 2-core machine): 0.543 → 0.330 µs per
/// particle per iteration, whole step 693 → 516 ms. The particles themselves (the core's
/// arrays, shared with other blocks) are not moved.
#[derive(Debug, Clone)]
pub struct XpbiContinuum<const D: usize> {
    settings: XpbiSettings,
    /// The material table (one entry for a single-material body; `continuum/materials.rs`).
    materials: Vec<Material>,
    /// Per table entry, what the constitutive model needs: Lamé parameters, plasticity
    /// model and its constant Drucker–Prager α (computed once).
    constitutive: Vec<Constitutive>,
    /// Per member, its index into `materials`; empty for a table of one (every member 0).
    member_material: Vec<u8>,
    /// Per row, copies of its member's material id (made in `rebuild`, so the sweep streams
    /// them; empty when row = member or for a table of one).
    row_material: Vec<u8>,
    kernel: WendlandC2<D>,
    members: Vec<u32>,
    /// Global particle id → member index (u32::MAX for non-members).
    member_index: Vec<u32>,
    rest_volume: Vec<f64>,
    inv_rest_volume: Vec<f64>,
    f: Vec<SMatrix<f64, D, D>>,
    state: Vec<PlasticState>,
    backup: Option<(Vec<SMatrix<f64, D, D>>, Vec<PlasticState>)>,
    // Per-step frozen data.
    xn: Vec<SVector<f64, D>>,
    /// `B_p = Σ_b (x_bⁿ − x_pⁿ) q_bᵀ` (= (L_p M_p)ᵀ, I for a full neighbourhood), so that the hot
    /// loop needs no xⁿ: `Δt∇v_p = Σ_b (x_b − x_p) q_bᵀ − B_p` (uses Σ_k q_k = 0).
    rest_moment: Vec<SMatrix<f64, D, D>>,
    stencil_offsets: Vec<u32>,
    stencil: Vec<u32>,
    weights: Vec<SVector<f64, D>>,
    volume: Vec<f64>,
    schedule: Schedule,
    /// [`KernelFrame::Reference`]: reference weights `q⁰` (same layout as `weights`) and the
    /// total deformation gradients (empty in the current frame).
    reference_weights: Vec<SVector<f64, D>>,
    /// The run kernel's `Fⁿ V` per member: `Fⁿ` (`V₀ = I`) at `begin_substep`, then with the `V` of
    /// the member's last evaluation (see [`crate::projection::warm`]).
    warm: WarmStarts<D>,
    /// Per member, the upper triangle of `S_p = Σ_k w_k q_k q_kᵀ` over its stencil (the
    /// projection's denominator is `Σ_ij (GᵀG)_ij S_ij`), built in `begin_substep` from the
    /// particles' inverse masses; `w_source` identifies that array (address, length) so that a
    /// sweep given other weights falls back to the generic kernel.
    w_moment: Vec<f64>,
    w_source: (usize, usize),
    /// Why the last neighbour rebuild failed (non-finite or escaped particles), reported
    /// through [`ConstraintKind::substep_fault`].
    fault: Option<String>,
    /// Whether every stencil entry's inverse mass was positive at `begin_substep` (the run
    /// kernel's scatter then skips its per-neighbour test).
    w_all_positive: bool,
    /// Row → member when the rows are in sweep order ([`XpbiSettings::reorder_by_cell`]);
    /// empty when row = member.
    row_member: Vec<u32>,
    /// Per row, copies of its member's plastic state and compliance 1/V⁰ (made in `rebuild`,
    /// so the sweep streams them; empty when row = member).
    row_state: Vec<PlasticState>,
    row_compliance: Vec<f64>,
    f_total: Vec<SMatrix<f64, D, D>>,
    backup_total: Vec<SMatrix<f64, D, D>>,
    dt: f64,
    timings: XpbiTimings,
}

/// The fastest of `members` and its speed |v| (`None`, 0 when all are at rest): the particle
/// a CFL bound `cfl · Δx / max|v|` names. `>` keeps the first of equal speeds and skips NaN
/// (the core's state check reports a non-finite particle by name).
pub(crate) fn fastest_member<const D: usize>(
    members: &[u32],
    particles: &Particles<D>,
) -> (Option<usize>, f64) {
    let mut fastest = None;
    let mut max_speed = 0.0;
    for &m in members {
        let s = particles.v[m as usize].norm();
        if s > max_speed {
            max_speed = s;
            fastest = Some(m as usize);
        }
    }
    (fastest, max_speed)
}

impl<const D: usize> XpbiContinuum<D> {
    /// Continuum over the particles `members` of `particles` with rest volumes `rest_volume`,
    /// undeformed (`F = I`). Checks the material, settings, volumes, finiteness and the minimum
    /// particle distance.
    pub fn new(
        particles: &Particles<D>,
        members: Vec<u32>,
        rest_volume: Vec<f64>,
        material: Material,
        settings: XpbiSettings,
    ) -> Result<Self, XpbiError> {
        material.validate()?;
        Self::from_table(
            particles,
            members,
            rest_volume,
            vec![material],
            Vec::new(),
            settings,
        )
    }

    /// [`XpbiContinuum::new`] with a validated material table and per-member ids (empty for a
    /// table of one); checks the rest.
    fn from_table(
        particles: &Particles<D>,
        members: Vec<u32>,
        rest_volume: Vec<f64>,
        materials: Vec<Material>,
        member_material: Vec<u8>,
        settings: XpbiSettings,
    ) -> Result<Self, XpbiError> {
        settings.validate()?;
        if settings.constraint_form == ConstraintForm::Split
            && let Some(m) = materials.iter().find(|m| m.lame().lambda <= 0.0)
        {
            return Err(XpbiError::InvalidParameter {
                name: "Lamé λ (the split constraint form needs λ > 0, i.e. ν > 0)",
                value: m.lame().lambda,
            });
        }
        let kernel = WendlandC2::new(settings.support())?;
        if rest_volume.len() != members.len() {
            return Err(XpbiError::InvalidParameter {
                name: "rest_volume length",
                value: rest_volume.len() as f64,
            });
        }
        for (i, &v) in rest_volume.iter().enumerate() {
            if !(v.is_finite() && v > 0.0) {
                return Err(XpbiError::InvalidVolume {
                    index: members[i] as usize,
                    value: v,
                });
            }
        }
        for &m in &members {
            let m = m as usize;
            if m >= particles.len() {
                return Err(XpbiError::InvalidParameter {
                    name: "member index",
                    value: m as f64,
                });
            }
            if !particles.x[m].iter().all(|c| c.is_finite()) {
                return Err(XpbiError::NonFiniteState {
                    index: m,
                    field: "position",
                });
            }
            if !particles.v[m].iter().all(|c| c.is_finite()) {
                return Err(XpbiError::NonFiniteState {
                    index: m,
                    field: "velocity",
                });
            }
        }
        // Global id → member; a particle listed twice is refused (the step writes each member's
        // particle from one task).
        let mut member_index = vec![u32::MAX; particles.len()];
        for (i, &g) in members.iter().enumerate() {
            if member_index[g as usize] != u32::MAX {
                return Err(XpbiError::DuplicateMember { index: g as usize });
            }
            member_index[g as usize] = i as u32;
        }
        let positions: Vec<_> = members.iter().map(|&m| particles.x[m as usize]).collect();
        let min_distance = settings.min_distance_ratio * settings.spacing;
        if min_distance > 0.0 {
            let err = settings.grid_error("min_distance_ratio", min_distance);
            let grid = UniformGrid::build(&positions, min_distance).map_err(&err)?;
            let nl = NeighbourLists::build(&grid, &positions, min_distance).map_err(&err)?;
            if let Some(p) = (0..positions.len()).find(|&p| !nl.neighbours(p).is_empty()) {
                let b = nl.neighbours(p)[0] as usize;
                return Err(XpbiError::ParticlesTooClose {
                    a: members[p] as usize,
                    b: members[b] as usize,
                    distance: (positions[p] - positions[b]).norm(),
                    minimum: min_distance,
                });
            }
        }
        let n = members.len();
        let mut continuum = Self {
            settings,
            constitutive: materials.iter().map(Constitutive::new::<D>).collect(),
            materials,
            member_material,
            row_material: Vec::new(),
            kernel,
            inv_rest_volume: rest_volume.iter().map(|v| 1.0 / v).collect(),
            rest_volume,
            f: vec![SMatrix::identity(); n],
            state: vec![PlasticState::default(); n],
            member_index,
            members,
            backup: None,
            xn: Vec::new(),
            rest_moment: Vec::new(),
            stencil_offsets: Vec::new(),
            stencil: Vec::new(),
            weights: Vec::new(),
            volume: Vec::new(),
            schedule: Schedule::default(),
            reference_weights: Vec::new(),
            warm: WarmStarts::default(),
            w_moment: Vec::new(),
            w_source: (0, 0),
            fault: None,
            w_all_positive: false,
            row_member: Vec::new(),
            row_state: Vec::new(),
            row_compliance: Vec::new(),
            f_total: Vec::new(),
            backup_total: Vec::new(),
            dt: 1.0,
            timings: XpbiTimings::default(),
        };
        continuum.rebuild(particles)?;
        Ok(continuum)
    }

    /// The material of a single-material body; for a body with a material table
    /// ([`XpbiContinuum::with_materials`]) the table's first entry (see
    /// [`XpbiContinuum::materials`] and [`XpbiContinuum::material_of`]).
    pub fn material(&self) -> &Material {
        &self.materials[0]
    }
    /// The settings.
    pub fn settings(&self) -> &XpbiSettings {
        &self.settings
    }
    /// Global particle ids of the members (constraint `c` belongs to `members()[c]`).
    pub fn members(&self) -> &[u32] {
        &self.members
    }
    /// Elastic deformation gradients Fⁿ (per member).
    pub fn deformation_gradients(&self) -> &[SMatrix<f64, D, D>] {
        &self.f
    }
    /// Plastic states (per member).
    pub fn plastic_states(&self) -> &[PlasticState] {
        &self.state
    }
    /// Rest volumes V⁰ (per member).
    pub fn rest_volumes(&self) -> &[f64] {
        &self.rest_volume
    }
    /// Timings of the last per-step rebuild.
    pub fn timings(&self) -> XpbiTimings {
        self.timings
    }
    /// Σ_p |N(p)| of the current neighbour lists.
    pub fn total_neighbours(&self) -> usize {
        self.stencil.len() - self.members.len()
    }
    /// Selects the kernel frame (see [`KernelFrame`]). Switching to
    /// [`KernelFrame::Reference`] takes the configuration of the last rebuild (construction, or
    /// the start of the last step) as the reference: its neighbour lists, weights and colouring
    /// are frozen from then on and the total deformation gradient starts at I. Switching back to
    /// [`KernelFrame::Current`] rebuilds on xⁿ at the next step.
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use xpbd_core::Particles;
    /// use xpbi_continuum::{Material, continuum::{KernelFrame, XpbiContinuum, XpbiSettings}};
    /// let mut p = Particles::<2>::new();
    /// for i in 0..3 { p.push(Vector2::new(0.01 * i as f64, 0.0), 1.0); }
    /// let mut c = XpbiContinuum::new(&p, vec![0, 1, 2], vec![1e-4; 3],
    ///     Material::elastic(1000.0, 1e5, 0.3), XpbiSettings::new(0.01)).unwrap();
    /// c.set_kernel_frame(KernelFrame::Reference);
    /// assert_eq!(c.settings().kernel_frame, KernelFrame::Reference);
    /// ```
    pub fn set_kernel_frame(&mut self, frame: KernelFrame) {
        self.settings.kernel_frame = frame;
        match frame {
            KernelFrame::Reference if !self.row_member.is_empty() => {
                // The per-step data is in sweep order; the reference stencils are kept by
                // member: rebuild them on the same xⁿ (it succeeded there before).
                self.f_total = Vec::new();
                let xn = std::mem::take(&mut self.xn);
                let rebuilt = self.rebuild_at(&xn);
                debug_assert!(rebuilt.is_ok(), "xpbi rebuild on the last xⁿ failed");
            }
            KernelFrame::Reference => {
                self.reference_weights.clone_from(&self.weights);
                self.f_total = vec![SMatrix::identity(); self.members.len()];
            }
            KernelFrame::Current => {
                self.reference_weights = Vec::new();
                self.f_total = Vec::new();
                self.backup_total = Vec::new();
            }
        }
    }

    /// Switches implicit / semi-implicit plasticity.
    pub fn set_plasticity_in_loop(&mut self, in_loop: bool) {
        self.settings.plasticity_in_loop = in_loop;
    }

    /// The CFL bound `h ≤ cfl · Δx / max|v|` over the members in the current state, with the
    /// fastest member (the one place the bound is computed: the core checks it before every
    /// step through [`ConstraintKind::max_substep`], and adaptive stepping stays below it).
    pub fn cfl_bound(&self, particles: &Particles<D>) -> (f64, Option<usize>, f64) {
        let (fastest, max_speed) = fastest_member(&self.members, particles);
        (self.settings.cfl_step(max_speed), fastest, max_speed)
    }

    /// The per-step data the single-form projection kernel reads.
    pub(crate) fn projection_data(&self) -> ProjectionData<'_, D> {
        ProjectionData {
            offsets: &self.stencil_offsets,
            stencil: &self.stencil,
            weights: &self.weights,
            rest_moment: &self.rest_moment,
            state: if self.row_member.is_empty() {
                &self.state
            } else {
                &self.row_state
            },
            warm: &self.warm,
            compliance: if self.row_member.is_empty() {
                &self.inv_rest_volume
            } else {
                &self.row_compliance
            },
            constitutive: &self.constitutive,
            material: if self.row_member.is_empty() {
                &self.member_material
            } else {
                &self.row_material
            },
            dt: self.dt,
            plastic_in_loop: self.settings.plasticity_in_loop,
            w_moment: &self.w_moment,
            w_all_positive: self.w_all_positive,
        }
    }

    /// Row of the per-step data of constraint `c`.
    #[inline]
    fn row_of(&self, c: usize) -> usize {
        match self.settings.constraint_form {
            ConstraintForm::Single => c,
            ConstraintForm::Split => c / 2,
        }
    }

    /// Member (index into `members`, `f`, `state`) of row `row`.
    #[inline]
    fn member_of_row(&self, row: usize) -> usize {
        match self.row_member.get(row) {
            Some(&m) => m as usize,
            None => row,
        }
    }

    /// Vⁿ of the member whose global id is `global` (members are usually `0..n`, then direct).
    fn volume_of(&self, global: usize) -> f64 {
        match self.member_index.get(global) {
            Some(&i) if i != u32::MAX => self.volume[i as usize],
            _ => 0.0,
        }
    }

    /// `Δt∇v_p` of member `c` at positions `x` (global array).
    fn displacement_gradient(&self, c: usize, x: &[SVector<f64, D>]) -> SMatrix<f64, D, D> {
        let r = self.stencil_offsets[c] as usize..self.stencil_offsets[c + 1] as usize;
        let mut g = SMatrix::<f64, D, D>::zeros();
        for (k, q) in self.stencil[r.clone()].iter().zip(&self.weights[r]) {
            let k = *k as usize;
            g += (x[k] - self.xn[k]) * q.transpose();
        }
        g
    }

    /// End of substep: XSPH, consistent positions, F update with hardening commit.
    fn finish_substep(&mut self, particles: &mut Particles<D>, h: f64) {
        let c = self.settings.xsph.coefficient(h);
        if c > 0.0 {
            let smoothed: Vec<SVector<f64, D>> = (0..self.members.len())
                .into_par_iter()
                .map(|i| {
                    let p = self.members[self.member_of_row(i)] as usize;
                    let r =
                        self.stencil_offsets[i] as usize + 1..self.stencil_offsets[i + 1] as usize;
                    let vp = particles.v[p];
                    let xp = self.xn[p];
                    let wp = particles.inv_mass[p] * self.volume_of(p);
                    let mut dv = SVector::<f64, D>::zeros();
                    for &b in &self.stencil[r] {
                        // ω_pb W(|x_bⁿ − x_pⁿ|) (crate::xsph: the pair-symmetric volume),
                        // recomputed rather than stored (memory).
                        let b = b as usize;
                        let w = crate::xsph::pair_volume(
                            wp,
                            particles.inv_mass[b] * self.volume_of(b),
                            self.volume_of(b),
                        ) * self.kernel.value((self.xn[b] - xp).norm());
                        dv += (particles.v[b] - vp) * w;
                    }
                    vp + dv * c
                })
                .collect();
            // Written back in parallel: rows map to distinct members, hence distinct particles.
            let (v, x) = (
                DisjointSlice::new(&mut particles.v),
                DisjointSlice::new(&mut particles.x),
            );
            let (x_prev, inv_mass) = (&particles.x_prev, &particles.inv_mass);
            smoothed
                .par_iter()
                .enumerate()
                .with_min_len(ROWS_PER_CHUNK)
                .for_each(|(i, &vi)| {
                    let p = self.members[self.member_of_row(i)] as usize;
                    if inv_mass[p] > 0.0 {
                        // SAFETY: p is this row's particle, written by no other row.
                        unsafe {
                            v.set(p, vi);
                            x.set(p, x_prev[p] + vi * h);
                        }
                    }
                });
        }
        // F^{n+1} = Z((I + Δt∇v) Fⁿ) in place, in parallel over rows (each writes only its
        // member's F and plastic state, and reads no other member's). The return map's SVD
        // starts from the V of the row's last evaluation in the sweep, V₀ = Fⁿ⁻¹ M
        // (crate::projection::warm), when that is a rotation to 1e-13 (a few ulps per step
        // at most, like a cold start's V): 2–3 Jacobi sweeps
        // instead of the 4–6 of a cold start.
        let x = &particles.x;
        let (mut f, mut state) = (std::mem::take(&mut self.f), std::mem::take(&mut self.state));
        let mut warm = std::mem::take(&mut self.warm);
        {
            let (fs, ss) = (DisjointSlice::new(&mut f), DisjointSlice::new(&mut state));
            let records = warm.as_slice();
            let records = (records.len() == self.members.len()).then_some(records);
            let this = &*self;
            (0..this.members.len())
                .into_par_iter()
                .with_min_len(ROWS_PER_CHUNK)
                .for_each(|row| {
                    let m = this.member_of_row(row);
                    let g = this.displacement_gradient(row, x);
                    // SAFETY: member m belongs to this row only.
                    let (fm, sm) = unsafe { (fs.get(m), ss.get(m)) };
                    let f_trial = (SMatrix::<f64, D, D>::identity() + g) * fm;
                    let cm = this.constitutive_of_member(m);
                    let v0 = records
                        .and_then(|r| Some(fm.try_inverse()? * r[row]))
                        .filter(|v0| {
                            (v0.transpose() * v0 - SMatrix::<f64, D, D>::identity()).amax() < 1e-13
                        })
                        .unwrap_or_else(SMatrix::identity);
                    let (f_new, s_new) =
                        cm.model
                            .return_map_from(&f_trial, &sm, &cm.lame, h, &v0, cm.dp_alpha);
                    // SAFETY: as above.
                    unsafe {
                        fs.set(m, f_new);
                        ss.set(m, s_new);
                    }
                });
        }
        (self.f, self.state, self.warm) = (f, state, warm);
        if !self.f_total.is_empty() {
            // Lagrangian kernels never reorder (row = member).
            debug_assert!(self.row_member.is_empty());
            // F_tot^{n+1} = (I + Δt∇v) F_totⁿ = F_totⁿ + Σ_k (x_k − x_kⁿ) q⁰_kᵀ.
            let totals: Vec<SMatrix<f64, D, D>> = (0..self.members.len())
                .into_par_iter()
                .map(|i| {
                    let g = self.displacement_gradient(i, x);
                    (SMatrix::<f64, D, D>::identity() + g) * self.f_total[i]
                })
                .collect();
            self.f_total = totals;
        }
    }
}

impl<const D: usize> ConstraintKind<D> for XpbiContinuum<D> {
    const NAME: &'static str = "xpbi";

    fn len(&self) -> usize {
        match self.settings.constraint_form {
            ConstraintForm::Single => self.members.len(),
            ConstraintForm::Split => 2 * self.members.len(),
        }
    }

    fn stencil(&self, c: usize) -> &[u32] {
        let c = self.row_of(c);
        &self.stencil[self.stencil_offsets[c] as usize..self.stencil_offsets[c + 1] as usize]
    }

    /// α = 1/V⁰ (XPBI §4: Φ = V⁰Ψ = C²/(2α)); split: 1/(2μV⁰) and 1/(λV⁰).
    fn compliance(&self, c: usize) -> f64 {
        let member = self.member_of_row(self.row_of(c));
        let inv_v0 = self.inv_rest_volume[member];
        let lame = &self.constitutive_of_member(member).lame;
        match self.settings.constraint_form {
            ConstraintForm::Single => inv_v0,
            ConstraintForm::Split if c.is_multiple_of(2) => inv_v0 / (2.0 * lame.mu),
            ConstraintForm::Split => inv_v0 / lame.lambda,
        }
    }

    #[inline]
    fn evaluate(&self, c: usize, xs: &[SVector<f64, D>], grad: &mut [SVector<f64, D>]) -> f64 {
        let term = match self.settings.constraint_form {
            ConstraintForm::Single => None,
            ConstraintForm::Split if c.is_multiple_of(2) => Some(SplitTerm::Shear),
            ConstraintForm::Split => Some(SplitTerm::Volume),
        };
        let row = self.row_of(c);
        let c = self.member_of_row(row);
        let r = self.stencil_offsets[row] as usize..self.stencil_offsets[row + 1] as usize;
        let idx = &self.stencil[r.clone()];
        let q = &self.weights[r];
        let x0 = xs[0];
        let mut g = -self.rest_moment[row];
        for k in 1..idx.len() {
            g += (xs[k] - x0) * q[k].transpose();
        }
        // The member's material, chosen once per constraint (not per neighbour).
        let cm = self.constitutive_of_member(c);
        let (model, state, in_loop) = (&cm.model, &self.state[c], self.settings.plasticity_in_loop);
        let (value, gradient_factor) = match term {
            None => value_and_gradient(
                &((SMatrix::<f64, D, D>::identity() + g) * self.f[c]),
                &self.f[c],
                &cm.lame,
                model,
                state,
                self.dt,
                in_loop,
                // The SVD's cold start V₀ = I, as the run kernel's first iteration.
                &SMatrix::<f64, D, D>::identity(),
                cm.dp_alpha,
            ),
            Some(t) => {
                let e = evaluate_split(&g, &self.f[c], &cm.lame, model, state, self.dt, in_loop, t);
                (e.value, e.gradient_factor)
            }
        };
        for k in 0..idx.len() {
            grad[k] = gradient_factor * q[k];
        }
        value
    }

    /// The single form projects its runs with `projection::project_run` (fixed
    /// layout, no per-neighbour gradient buffer); the split form, and a sweep whose weights are
    /// not the inverse masses seen by `begin_substep`, use the generic kernel.
    #[inline]
    unsafe fn project_closed_form_run(
        &self,
        order: &mut (impl Iterator<Item = usize> + Clone),
        _disjoint: bool,
        x: DisjointSlice<'_, SVector<f64, D>>,
        w: &[f64],
        lambda: DisjointSlice<'_, f64>,
        inv_h2: f64,
    ) -> Option<usize> {
        if self.settings.constraint_form != ConstraintForm::Single
            || self.w_source != (w.as_ptr() as usize, w.len())
        {
            return order.next();
        }
        // SAFETY: the caller's contract is project_run's.
        unsafe { project_run(&self.projection_data(), order, x, w, lambda, inv_h2) };
        None
    }

    fn begin_substep(&mut self, particles: &Particles<D>, ctx: &SubstepContext) {
        self.dt = ctx.h;
        let rebuilt = self.rebuild(particles);
        self.update_w_moment(&particles.inv_mass);
        // Non-finite or escaped particles: the last topology is kept and the simulation
        // refuses the step with the reason (StepError::BlockFault), rolling it back.
        self.fault = rebuilt
            .err()
            .map(|e| format!("neighbour rebuild failed: {e}"));
    }

    fn substep_fault(&self) -> Option<String> {
        self.fault.clone()
    }

    fn end_substep(&mut self, particles: &mut Particles<D>, _lambda: &[f64], ctx: &SubstepContext) {
        self.finish_substep(particles, ctx.h);
    }

    fn checkpoint(&mut self) {
        match &mut self.backup {
            Some((f, s)) => {
                f.clone_from(&self.f);
                s.clone_from(&self.state);
            }
            None => self.backup = Some((self.f.clone(), self.state.clone())),
        }
        self.backup_total.clone_from(&self.f_total);
    }

    fn rollback(&mut self) {
        if let Some((f, s)) = &self.backup {
            self.f.clone_from(f);
            self.state.clone_from(s);
        }
        if !self.f_total.is_empty() {
            self.f_total.clone_from(&self.backup_total);
        }
    }

    fn dynamic_topology(&self) -> bool {
        true
    }

    /// XPBI's CFL bound ([`XpbiContinuum::cfl_bound`], [`XpbiSettings::cfl`]), a travel bound:
    /// the simulation adds the acceleration ([`xpbd_core::constraint::SubstepBound::accelerated`]).
    fn max_substep(&self, particles: &Particles<D>) -> Option<xpbd_core::constraint::SubstepBound> {
        let (_, particle, speed) = self.cfl_bound(particles);
        Some(xpbd_core::constraint::SubstepBound::travel(
            self.settings.cfl_travel(),
            speed,
            "XPBI CFL bound h (max |v| + |a| h) ≤ cfl · spacing",
            particle,
        ))
    }

    fn own_schedule(&self) -> Option<&Schedule> {
        Some(&self.schedule)
    }

    fn validate(&self) -> Result<(), BuildError> {
        Ok(())
    }

    fn save_state(&self) -> Vec<f64> {
        self.state_vector()
    }

    fn load_state(&mut self, state: &[f64]) -> Result<(), BuildError> {
        self.set_state_vector(state)
    }
}
