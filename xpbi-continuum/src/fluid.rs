//! Liquid water as one more constraint kind in the XPBD loop: position-based fluids (Macklin &
//! Müller, "Position Based Fluids", SIGGRAPH 2013) in XPBD form, on the particle store, the
//! neighbour grid and the kernel that XPBI uses.
//!
//! **The constraint.** One per fluid particle i, in volume form,
//!
//! ```text
//! C_i = 1 − ρ_i/ρ₀ = 1 − Σ_j V̂_j W(|x_i − x_j|) ≥ 0,      V̂_j = V_j / κ_W
//! ∇_{x_i} C_i = −Σ_j V̂_j ∇W(x_i − x_j),   ∇_{x_j} C_i = V̂_j ∇W(x_i − x_j)
//! ```
//!
//! over the fluid neighbours j within the support H (the particle itself included, ∇W(0) = 0)
//! and the solid neighbours (boundary particles, Akinci et al. 2012, "Versatile rigid-fluid
//! coupling for incompressible SPH": a solid particle of volume V_b stands for the fluid it
//! displaces, ρ₀V_b). V_j is the rest volume (Δx^d for a fluid particle on the lattice) and
//! κ_W = Δx^d Σ_{lattice} W the kernel's sum over a full lattice at the rest spacing, so a
//! particle inside the undisturbed lattice has ρ = ρ₀ exactly: the SPH estimate's
//! discretisation error is calibrated once rather than read as compression.
//!
//! The constraint is **unilateral** (C ≥ 0, active only where the fluid is compressed): a
//! particle at the free surface has a deficient neighbourhood, ρ < ρ₀, and an equality would
//! pull it into the bulk, the tensile clustering that PBF's artificial pressure term s_corr
//! was introduced to counter. The one-sided constraint has no tensile branch, so no s_corr is
//! needed (Macklin et al. 2014, "Unified particle physics", §7.1, treat fluid density the same
//! way). The sum Σ_k ∇_{x_k} C_i is zero, so each projection conserves linear momentum,
//! between fluid particles and with dynamic solid neighbours alike (two-way coupling).
//!
//! **Compliance in physical terms.** A weakly compressible liquid of bulk modulus K stores
//! ½ K V C² per particle, so α_i = 1/(K V_i); `bulk_modulus = None` is the incompressible
//! limit α = 0 (PBF proper). The multiplier is the pressure: at convergence
//! λ_i/h² = −C_i/α_i = K V_i (ρ_i/ρ₀ − 1): the pressure is p_i ∝ λ_i / (h² V_i), up to the
//! lattice's kernel moments ([`PbfFluid::pressures`]), which is also the Lagrange multiplier's
//! meaning when α = 0.
//!
//! **Kernel.** XPBI's Wendland C2 ([`crate::kernel::WendlandC2`]) with H = 2Δx, for the density
//! and its gradient, instead of PBF's poly6/spiky pair: one kernel for both, whose gradient
//! does not vanish at short range (so close pairs are still pushed apart) and whose Fourier
//! transform is positive, which makes it free of the pairing instability at large neighbour
//! counts (Dehnen & Aly 2012).
//!
//! **Viscosity.** XSPH (Schechter & Bridson 2012's use in PBF), as the relaxation
//! `dv_i/dt = κ Σ_j V̂_j (v_j − v_i) W_ij` applied after every substep with c = 1 − e^{−κh}
//! (the same smoothing per unit time at any step, as XPBI's [`crate::xsph`]). For a smooth
//! field it is the kinematic viscosity ν = κ⟨q²⟩H²/(2d) (⟨q²⟩ = 1/5 in 3D, 5/36 in 2D for
//! Wendland C2), so the dynamic viscosity μ of [`FluidSettings::viscosity`] (Pa·s) sets
//! κ = 2dμ/(ρ₀⟨q²⟩H²). Weights are symmetric between equal fluid particles, so the smoothing
//! conserves momentum; solid neighbours take no part in it.
//!
//! **Vorticity confinement** (Fedkiw et al. 2001, "Visual simulation of smoke"; PBF §5),
//! optional and off by default: the vorticity ω_i = ∇×v and the gradient of its magnitude are
//! estimated over the fluid neighbours with the lattice-normalised SPH gradient
//! `∇f_i ≈ Σ_j V_j (f_j − f_i) ∇W_ij / μ_W` (exact for a linear field on the rest lattice, so
//! a rigid rotation Ω gives ω = 2Ω), and every fluid particle is accelerated by
//!
//! ```text
//! a_i = ε Δx |ω_i| (N_i × ω_i),      N_i = ∇|ω|_i / |∇|ω|_i|
//! ```
//!
//! with a dimensionless ε ([`FluidSettings::vorticity_confinement`]): the centripetal
//! acceleration of a vortex one particle spacing across, scaled by ε, which vanishes under
//! refinement as the numerical dissipation it restores does. It is a rate, applied as
//! Δv = h a after each substep (the same per unit time at any step), in 2D through the
//! out-of-plane ω. It adds energy back into the rotational structures that the smoothing and
//! the projection damp; it does not conserve momentum. In a vortex filling a closed 2D tank
//! (`tests/vorticity.rs`) ε = 0.25 gives back more than half of the 6.7 % of kinetic energy
//! lost in 0.5 s, the same at half the substep; ε = 1 adds more than is lost (1.10 after
//! 0.5 s).
//!
//! **Not modelled:** surface tension, pore pressure in a granular body and drag of fluid
//! through one (water and sand meet at their boundary only, through the density constraint's
//! solid neighbours and contact), and the shear stress of a boundary layer on a solid (XSPH
//! smooths among fluid particles only).

use nalgebra::{SVector, Vector3};
use rayon::prelude::*;

use xpbd_core::Particles;
use xpbd_core::constraint::{ConstraintKind, SubstepBound, SubstepContext};
use xpbd_core::schedule::Schedule;
use xpbd_core::spatial::{CellColouring, ColourScheme, UniformGrid};

use crate::error::XpbiError;
use crate::kernel::WendlandC2;

/// Settings of a [`PbfFluid`], SI units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FluidSettings {
    /// Particle spacing Δx of the rest lattice (m, > 0).
    pub spacing: f64,
    /// Rest density ρ₀ (kg/m³, > 0; water 1000).
    pub rest_density: f64,
    /// Bulk modulus K (Pa, > 0), compliance α = 1/(K V); `None`: incompressible (α = 0).
    pub bulk_modulus: Option<f64>,
    /// Dynamic viscosity μ (Pa·s, ≥ 0; water 1e-3) through XSPH (module docs).
    pub viscosity: f64,
    /// Kernel support over spacing H/Δx (default 2, > 1).
    pub support_over_spacing: f64,
    /// Vorticity confinement ε (dimensionless, ≥ 0; 0 = off, the default; module docs).
    pub vorticity_confinement: f64,
}

impl FluidSettings {
    /// Water (ρ₀ = 1000 kg/m³, μ = 1e-3 Pa·s, incompressible) at spacing Δx.
    pub fn water(spacing: f64) -> Self {
        Self {
            spacing,
            rest_density: 1000.0,
            bulk_modulus: None,
            viscosity: 1e-3,
            support_over_spacing: crate::kernel::DEFAULT_SUPPORT_OVER_SPACING,
            vorticity_confinement: 0.0,
        }
    }

    /// Refuses non-physical values, naming the field and the value.
    pub fn validate(&self) -> Result<(), XpbiError> {
        let bad = |name: &'static str, value: f64| Err(XpbiError::InvalidParameter { name, value });
        if !(self.spacing.is_finite() && self.spacing > 0.0) {
            return bad("spacing", self.spacing);
        }
        if !(self.rest_density.is_finite() && self.rest_density > 0.0) {
            return bad("rest_density", self.rest_density);
        }
        if let Some(k) = self.bulk_modulus
            && !(k.is_finite() && k > 0.0)
        {
            return bad("bulk_modulus", k);
        }
        if !(self.viscosity.is_finite() && self.viscosity >= 0.0) {
            return bad("viscosity", self.viscosity);
        }
        crate::kernel::check_support_over_spacing(self.support_over_spacing)?;
        if !(self.vorticity_confinement.is_finite() && self.vorticity_confinement >= 0.0) {
            return bad("vorticity_confinement", self.vorticity_confinement);
        }
        Ok(())
    }
}

/// `Σ_k f(|k| Δx)` over the lattice points k ∈ [−⌈H/Δx⌉, ⌈H/Δx⌉]^d (an odometer, axis 0
/// fastest): the sums of [`lattice_kernel_sum`] and [`lattice_gradient_moment`].
fn lattice_sum<const D: usize>(
    kernel: &WendlandC2<D>,
    spacing: f64,
    f: impl Fn(f64) -> f64,
) -> f64 {
    let reach = (kernel.support() / spacing).ceil() as i64;
    let mut sum = 0.0;
    let mut k = [-reach; D];
    loop {
        let r2: f64 = k.iter().map(|&c| (c as f64 * spacing).powi(2)).sum();
        sum += f(r2.sqrt());
        let mut a = 0;
        while a < D {
            k[a] += 1;
            if k[a] <= reach {
                break;
            }
            k[a] = -reach;
            a += 1;
        }
        if a == D {
            break;
        }
    }
    sum
}

/// `Δx^d Σ W(|k| Δx)` over the lattice points k ∈ ℤ^d within the support: the kernel's sum over
/// a full rest lattice, which a uniform lattice's SPH density estimate equals in units of ρ₀.
pub fn lattice_kernel_sum<const D: usize>(kernel: &WendlandC2<D>, spacing: f64) -> f64 {
    lattice_sum(kernel, spacing, |r| kernel.value(r)) * spacing.powi(D as i32)
}

/// `−(Δx^d / d) Σ r_k W'(r_k)` over the lattice points within the support: the lattice's
/// gradient moment, with which `Σ_j V ∇W_ij (x_j − x_i) · ∇p` recovers ∇p for a linear
/// pressure field (1 for the continuous kernel, by parts).
pub fn lattice_gradient_moment<const D: usize>(kernel: &WendlandC2<D>, spacing: f64) -> f64 {
    -lattice_sum(kernel, spacing, |r| r * kernel.derivative(r)) * spacing.powi(D as i32) / D as f64
}

/// Position-based fluid: the density constraints of `members` (module docs).
#[derive(Debug, Clone)]
pub struct PbfFluid<const D: usize> {
    members: Vec<u32>,
    /// Solid neighbours (boundary particles) and their volumes V_b (m^d).
    boundary: Vec<u32>,
    boundary_volume: Vec<f64>,
    settings: FluidSettings,
    kernel: WendlandC2<D>,
    /// 1/κ_W.
    inv_kernel_sum: f64,
    /// μ_W/κ_W: λ/(h²V) times this is the pressure ([`PbfFluid::pressures`]).
    pressure_factor: f64,
    /// Rest volume of a fluid particle, Δx^d.
    volume: f64,
    /// XSPH rate κ (1/s).
    xsph_rate: f64,
    /// Stencil of constraint c: `stencil[offsets[c]..offsets[c + 1]]`, the member first.
    offsets: Vec<u32>,
    stencil: Vec<u32>,
    /// V̂ of each stencil entry.
    stencil_volume: Vec<f64>,
    schedule: Schedule,
    /// Whether each particle of the store is a fluid member (members are fixed at
    /// construction; particles added to the store later are not).
    is_fluid: Vec<bool>,
    /// Per chunk of 256 rows: stencil lengths, entries and V̂ of the last search (scratch kept
    /// between substeps).
    chunks: Vec<(Vec<u32>, Vec<u32>, Vec<f64>)>,
    /// Velocity increments of the end-of-substep pass (scratch).
    dv: Vec<SVector<f64, D>>,
    /// Vorticity of each particle of the store (scratch, confinement only; 2D: along z).
    omega: Vec<Vector3<f64>>,
    fault: Option<String>,
    /// Kinetic energy the vorticity confinement put in over the current step (J).
    confinement_work: f64,
    /// The length h of the substep that last began (s), which [`PbfFluid::pressures`] needs.
    last_substep: Option<f64>,
}

impl<const D: usize> PbfFluid<D> {
    /// The density constraints of the fluid particles `members` (each of mass ρ₀Δx^d, which
    /// the caller gives through the inverse masses).
    pub fn new(
        particles: &Particles<D>,
        members: Vec<u32>,
        settings: FluidSettings,
    ) -> Result<Self, XpbiError> {
        settings.validate()?;
        if let Some(&m) = members.iter().find(|&&m| m as usize >= particles.len()) {
            return Err(XpbiError::InvalidParameter {
                name: "fluid member index",
                value: m as f64,
            });
        }
        let kernel = WendlandC2::<D>::new(settings.support_over_spacing * settings.spacing)?;
        let kappa_w = lattice_kernel_sum(&kernel, settings.spacing);
        let q2 = if D == 3 { 0.2 } else { 5.0 / 36.0 };
        let h = kernel.support();
        let xsph_rate = 2.0 * D as f64 * settings.viscosity / (settings.rest_density * q2 * h * h);
        let mut s = Self {
            members,
            boundary: Vec::new(),
            boundary_volume: Vec::new(),
            settings,
            kernel,
            inv_kernel_sum: 1.0 / kappa_w,
            pressure_factor: lattice_gradient_moment(&kernel, settings.spacing) / kappa_w,
            volume: settings.spacing.powi(D as i32),
            xsph_rate,
            offsets: vec![0],
            stencil: Vec::new(),
            stencil_volume: Vec::new(),
            schedule: Schedule::default(),
            is_fluid: Vec::new(),
            chunks: Vec::new(),
            dv: Vec::new(),
            omega: Vec::new(),
            fault: None,
            confinement_work: 0.0,
            last_substep: None,
        };
        s.is_fluid = vec![false; particles.len()];
        for &m in &s.members {
            s.is_fluid[m as usize] = true;
        }
        s.rebuild(particles);
        Ok(s)
    }

    /// With solid neighbours: particles `boundary` (of another body: sand, cloth, a sampled
    /// wall) of volumes `volumes` (m^d, > 0) enter every fluid particle's density sum, so the
    /// fluid rests on them; dynamic ones are pushed back (two-way coupling).
    pub fn with_boundary(
        mut self,
        particles: &Particles<D>,
        boundary: Vec<u32>,
        volumes: Vec<f64>,
    ) -> Result<Self, XpbiError> {
        if boundary.len() != volumes.len() {
            return Err(XpbiError::InvalidParameter {
                name: "boundary volumes (count)",
                value: volumes.len() as f64,
            });
        }
        if let Some(&v) = volumes.iter().find(|v| !(v.is_finite() && **v > 0.0)) {
            return Err(XpbiError::InvalidParameter {
                name: "boundary volume",
                value: v,
            });
        }
        if let Some(&b) = boundary
            .iter()
            .find(|&&b| b as usize >= particles.len() || self.members.contains(&b))
        {
            return Err(XpbiError::InvalidParameter {
                name: "boundary particle index (out of range or a fluid member)",
                value: b as f64,
            });
        }
        self.boundary = boundary;
        self.boundary_volume = volumes;
        self.rebuild(particles);
        Ok(self)
    }

    /// The settings.
    pub fn settings(&self) -> &FluidSettings {
        &self.settings
    }

    /// The fluid particles, in the order given at construction.
    pub fn members(&self) -> &[u32] {
        &self.members
    }

    /// The particle of each constraint row (rows are laid out cell by cell at every substep's
    /// start, from the positions alone): the order of [`PbfFluid::density_ratios`],
    /// [`PbfFluid::pressures`] and the block's multipliers.
    pub fn row_particles(&self) -> Vec<u32> {
        self.offsets[..self.offsets.len() - 1]
            .iter()
            .map(|&o| self.stencil[o as usize])
            .collect()
    }

    /// The XSPH rate κ (1/s) that the viscosity gives.
    pub fn xsph_rate(&self) -> f64 {
        self.xsph_rate
    }

    /// The solid neighbours (boundary particles), in the order given.
    pub fn boundary(&self) -> &[u32] {
        &self.boundary
    }

    /// The volume V_b (m^d) of each solid neighbour.
    pub fn boundary_volumes(&self) -> &[f64] {
        &self.boundary_volume
    }

    /// κ_W, the kernel's sum over a full rest lattice ([`lattice_kernel_sum`]): V̂ = V/κ_W.
    pub fn kernel_sum(&self) -> f64 {
        1.0 / self.inv_kernel_sum
    }

    /// μ_W/κ_W, the factor of [`PbfFluid::pressures`] ([`lattice_gradient_moment`] over
    /// [`lattice_kernel_sum`]).
    pub fn pressure_factor(&self) -> f64 {
        self.pressure_factor
    }

    /// The rest volume Δx^d of a fluid particle (m^d).
    pub fn rest_volume(&self) -> f64 {
        self.volume
    }

    /// The Wendland C2 kernel (support H).
    pub fn kernel(&self) -> &WendlandC2<D> {
        &self.kernel
    }

    /// The length h (s) of the substep that last began (`None` before the first), the h of
    /// [`PbfFluid::pressures`] for the block's current multipliers.
    pub fn last_substep(&self) -> Option<f64> {
        self.last_substep
    }

    /// ρ_i/ρ₀ of each row's particle ([`PbfFluid::row_particles`]) at positions `x`, with the
    /// neighbour lists of the last substep's start.
    pub fn density_ratios(&self, x: &[SVector<f64, D>]) -> Vec<f64> {
        (0..self.members.len())
            .map(|c| {
                let (s, e) = (self.offsets[c] as usize, self.offsets[c + 1] as usize);
                let xi = x[self.stencil[s] as usize];
                (s..e)
                    .map(|k| {
                        self.stencil_volume[k]
                            * self.kernel.value((xi - x[self.stencil[k] as usize]).norm())
                    })
                    .sum()
            })
            .collect()
    }

    /// Pressure p_i = (μ_W/κ_W) λ_i / (h² V_i) (Pa) of each row's particle
    /// ([`PbfFluid::row_particles`]) from the multipliers `lambda` of the last substep of length `h`: the pressure
    /// field whose discrete gradient force −V V̂ Σ_j (p_i + p_j) ∇W_ij is the constraint
    /// force (module docs; μ_W from [`lattice_gradient_moment`], 0.950 κ_W for H = 2Δx in 3D).
    pub fn pressures(&self, lambda: &[f64], h: f64) -> Vec<f64> {
        let s = self.pressure_factor / (h * h * self.volume);
        lambda.iter().map(|l| l * s).collect()
    }

    /// `∇W_ij V̂_j / (μ_W/κ_W)` of row `r` and its stencil entry `k` at positions `x` (3D; 2D in
    /// the plane z = 0): the weight of the lattice-normalised SPH gradient (module docs).
    fn normalised_gradient(&self, x: &[SVector<f64, D>], r: usize, k: usize) -> Vector3<f64> {
        let i = self.stencil[self.offsets[r] as usize] as usize;
        let j = self.stencil[k] as usize;
        embed(&self.kernel.gradient(&(x[i] - x[j])))
            * (self.stencil_volume[k] / self.pressure_factor)
    }

    /// ω_i = Σ_j V_j ∇W_ij × (v_j − v_i) / μ_W over the fluid neighbours of each row, at
    /// positions `x` and velocities `v`.
    fn curl_rows(&self, x: &[SVector<f64, D>], v: &[SVector<f64, D>]) -> Vec<Vector3<f64>> {
        let fluid = |j: usize| self.is_fluid.get(j).copied().unwrap_or(false);
        (0..self.members.len())
            .into_par_iter()
            .map(|r| {
                let (s, e) = (self.offsets[r] as usize, self.offsets[r + 1] as usize);
                let i = self.stencil[s] as usize;
                (s + 1..e)
                    .filter(|&k| fluid(self.stencil[k] as usize))
                    .map(|k| {
                        let j = self.stencil[k] as usize;
                        self.normalised_gradient(x, r, k)
                            .cross(&embed(&(v[j] - v[i])))
                    })
                    .sum()
            })
            .collect()
    }

    /// The vorticity ω = ∇×v (1/s) of each row's particle ([`PbfFluid::row_particles`]), from
    /// the particles' positions and velocities and the neighbour lists of the last substep's
    /// start; in 2D along z. On the rest lattice a rigid rotation Ω gives 2Ω exactly away from
    /// the free surface.
    pub fn vorticities(&self, particles: &Particles<D>) -> Vec<Vector3<f64>> {
        self.curl_rows(&particles.x, &particles.v)
    }

    /// Neighbour stencils and the cell schedule from the positions.
    fn rebuild(&mut self, particles: &Particles<D>) {
        self.offsets.clear();
        self.offsets.push(0);
        self.stencil.clear();
        self.stencil_volume.clear();
        self.schedule.order.clear();
        self.schedule.colours.clear();
        self.fault = None;
        if self.members.is_empty() {
            return;
        }
        // Grid of fluid and solid particles together; entries < members.len() are fluid.
        let all: Vec<u32> = self.members.iter().chain(&self.boundary).copied().collect();
        let x: Vec<SVector<f64, D>> = all.par_iter().map(|&i| particles.x[i as usize]).collect();
        let h = self.kernel.support();
        let grid = match UniformGrid::build(&x, h) {
            Ok(g) => g,
            Err(e) => {
                self.fault = Some(format!("fluid neighbour grid: {e}"));
                return;
            }
        };
        let colouring = match CellColouring::build(&grid, ColourScheme::ThreePerAxis, h) {
            Ok(c) => c,
            Err(e) => {
                self.fault = Some(format!("fluid cell colouring: {e}"));
                return;
            }
        };
        let n = self.members.len();
        let vol = |k: usize| {
            if k < n {
                self.volume
            } else {
                self.boundary_volume[k - n]
            }
        };
        // Rows (constraints) in colour → cell → particle order, and the tasks of each colour:
        // consecutive cells merged while a task has fewer rows than a 32nd of the colour
        // (at least 16, at most 64), so that even a small colour is cut into enough tasks for
        // the threads to share it evenly. Tasks of a colour share no particle, so how a
        // colour is cut does not change the result.
        let mut row_index: Vec<u32> = Vec::with_capacity(n);
        let mut cells: Vec<std::ops::Range<u32>> = Vec::new();
        for colour in colouring.colours() {
            cells.clear();
            for &cell in colour {
                let first = row_index.len() as u32;
                row_index.extend(
                    grid.cell_particles(cell as usize)
                        .iter()
                        .filter(|&&p| (p as usize) < n),
                );
                let end = row_index.len() as u32;
                if end > first {
                    cells.push(first..end);
                }
            }
            let rows = cells.last().map_or(0, |c| c.end) - cells.first().map_or(0, |c| c.start);
            let task = (rows / 32).clamp(16, 64);
            let mut tasks: Vec<std::ops::Range<u32>> = Vec::new();
            for c in &cells {
                match tasks.last_mut() {
                    Some(r) if r.end == c.start && r.end - r.start < task => r.end = c.end,
                    _ => tasks.push(c.clone()),
                }
            }
            if !tasks.is_empty() {
                self.schedule.colours.push(tasks);
            }
        }
        // The stencils of chunks of rows, searched in parallel in one pass and concatenated
        // in row order (the same lists for any thread count).
        let inv = self.inv_kernel_sum;
        // The chunks' buffers are kept from substep to substep: allocating tens of MB of fresh
        // pages every substep cost page faults that serialise the threads.
        let mut chunks = std::mem::take(&mut self.chunks);
        chunks.resize_with(row_index.len().div_ceil(256), Default::default);
        row_index
            .par_chunks(256)
            .zip(chunks.par_iter_mut())
            .for_each(|(rows, (counts, st, vs))| {
                counts.clear();
                st.clear();
                vs.clear();
                for &p in rows {
                    let p = p as usize;
                    let start = st.len();
                    st.push(all[p]);
                    vs.push(vol(p) * inv);
                    grid.for_each_near(&x[p], h, |b| {
                        if b != p {
                            st.push(all[b]);
                            vs.push(vol(b) * inv);
                        }
                    });
                    counts.push((st.len() - start) as u32);
                }
            });
        // Offsets by a sequential prefix sum over the counts, then each chunk copied into its
        // disjoint range in parallel (a serial copy of Σ|stencil| entries capped the speed-up).
        self.offsets.reserve(row_index.len());
        for (counts, _, _) in &chunks {
            for &c in counts {
                let end = self.offsets.last().unwrap() + c;
                self.offsets.push(end);
            }
        }
        let total = *self.offsets.last().unwrap() as usize;
        self.stencil.resize(total, 0);
        self.stencil_volume.resize(total, 0.0);
        let mut parts = Vec::with_capacity(chunks.len());
        let (mut st_rest, mut vs_rest) = (&mut self.stencil[..], &mut self.stencil_volume[..]);
        for (_, st, vs) in &chunks {
            let (st_head, st_tail) = st_rest.split_at_mut(st.len());
            let (vs_head, vs_tail) = vs_rest.split_at_mut(vs.len());
            parts.push((st_head, vs_head, st, vs));
            (st_rest, vs_rest) = (st_tail, vs_tail);
        }
        parts.into_par_iter().for_each(|(st_dst, vs_dst, st, vs)| {
            st_dst.copy_from_slice(st);
            vs_dst.copy_from_slice(vs);
        });
        self.chunks = chunks;
        let rows = row_index.len() as u32;
        self.schedule.order.extend(0..rows);
    }
}

impl<const D: usize> ConstraintKind<D> for PbfFluid<D> {
    const NAME: &'static str = "pbf-density";

    fn len(&self) -> usize {
        self.offsets.len() - 1
    }
    fn stencil(&self, c: usize) -> &[u32] {
        &self.stencil[self.offsets[c] as usize..self.offsets[c + 1] as usize]
    }
    fn compliance(&self, _c: usize) -> f64 {
        self.settings
            .bulk_modulus
            .map_or(0.0, |k| 1.0 / (k * self.volume))
    }
    fn unilateral(&self) -> bool {
        true
    }
    fn evaluate(&self, c: usize, xs: &[SVector<f64, D>], grad: &mut [SVector<f64, D>]) -> f64 {
        let vs = &self.stencil_volume[self.offsets[c] as usize..];
        let xi = xs[0];
        let mut sum = vs[0] * self.kernel.value(0.0);
        let mut gi = SVector::<f64, D>::zeros();
        for k in 1..xs.len() {
            let d = xi - xs[k];
            let g = self.kernel.gradient(&d) * vs[k];
            sum += vs[k] * self.kernel.value(d.norm());
            gi -= g;
            grad[k] = g;
        }
        grad[0] = gi;
        1.0 - sum
    }
    fn begin_substep(&mut self, particles: &Particles<D>, ctx: &SubstepContext) {
        self.last_substep = Some(ctx.h);
        self.rebuild(particles);
    }
    fn substep_fault(&self) -> Option<String> {
        self.fault.clone()
    }
    /// XSPH over fluid neighbours and vorticity confinement (module docs), Jacobi: every
    /// increment from the velocities before the pass, so the result does not depend on the
    /// order or the thread count.
    fn end_substep(&mut self, particles: &mut Particles<D>, _lambda: &[f64], ctx: &SubstepContext) {
        let eps = self.settings.vorticity_confinement;
        if ctx.substep == 0 {
            self.confinement_work = 0.0;
        }
        if (self.xsph_rate == 0.0 && eps == 0.0) || self.members.is_empty() {
            return;
        }
        let c = -(-self.xsph_rate * ctx.h).exp_m1();
        let n = self.members.len();
        let (stencil, offsets, vols) = (&self.stencil, &self.offsets, &self.stencil_volume);
        let (kernel, is_fluid) = (&self.kernel, &self.is_fluid);
        // Fluid neighbours are told apart by membership, not by their volume entry (a solid
        // neighbour may have exactly the fluid's volume).
        let fluid = |j: usize| is_fluid.get(j).copied().unwrap_or(false);
        let (x, v, w) = (&particles.x_prev, &particles.v, &particles.inv_mass);
        let row = |r: usize| (offsets[r] as usize, offsets[r + 1] as usize);
        let (mut dvs, mut omega) = (
            std::mem::take(&mut self.dv),
            std::mem::take(&mut self.omega),
        );
        dvs.resize(n, SVector::zeros());
        if c > 0.0 {
            dvs.par_iter_mut().enumerate().for_each(|(r, dv)| {
                let (s, e) = row(r);
                let i = stencil[s] as usize;
                let mut acc = SVector::<f64, D>::zeros();
                if w[i] > 0.0 {
                    for k in s + 1..e {
                        let j = stencil[k] as usize;
                        if fluid(j) {
                            acc += (v[j] - v[i]) * (vols[k] * kernel.value((x[i] - x[j]).norm()));
                        }
                    }
                }
                *dv = acc * c;
            });
        } else {
            dvs.fill(SVector::zeros());
        }
        if eps > 0.0 {
            // ∇f_i ≈ Σ_j V̂_j (f_j − f_i) ∇W_ij / (μ_W/κ_W), over fluid neighbours.
            let omega_rows = self.curl_rows(x, v);
            let grad_w = |r: usize, k: usize| self.normalised_gradient(x, r, k);
            omega.clear();
            omega.resize(particles.len(), Vector3::zeros());
            for (r, o) in omega_rows.iter().enumerate() {
                omega[stencil[offsets[r] as usize] as usize] = *o;
            }
            let omega = &omega;
            let scale = eps * self.settings.spacing * ctx.h;
            dvs.par_iter_mut().enumerate().for_each(|(r, dv)| {
                let (s, e) = row(r);
                let i = stencil[s] as usize;
                if w[i] <= 0.0 {
                    return;
                }
                let mag_i = omega[i].norm();
                let eta: Vector3<f64> = (s + 1..e)
                    .filter(|&k| fluid(stencil[k] as usize))
                    .map(|k| grad_w(r, k) * (omega[stencil[k] as usize].norm() - mag_i))
                    .sum();
                let len = eta.norm();
                if len > 0.0 && len.is_finite() {
                    let a = (eta / len).cross(&omega[i]) * (mag_i * scale);
                    *dv += SVector::<f64, D>::from_fn(|a_, _| a[a_]);
                }
            });
        }
        for (r, dv) in dvs.iter().enumerate() {
            let i = stencil[offsets[r] as usize] as usize;
            if eps > 0.0 && particles.inv_mass[i] > 0.0 {
                let v0 = particles.v[i];
                let gain = 0.5 * ((v0 + dv).norm_squared() - v0.norm_squared());
                self.confinement_work += gain.max(0.0) / particles.inv_mass[i];
            }
            particles.v[i] += *dv;
        }
        (self.dv, self.omega) = (dvs, omega);
    }
    fn dynamic_topology(&self) -> bool {
        true
    }
    fn own_schedule(&self) -> Option<&Schedule> {
        Some(&self.schedule)
    }
    /// Vorticity confinement is a forcing: the kinetic energy it added over the step (the
    /// energy audit's allowance; 0 when it is off).
    fn driven_work(&self, _particles: &Particles<D>, _lambda: &[f64], _h: f64) -> f64 {
        self.confinement_work
    }
    /// `h ≤ 0.4 Δx / max|v|` over the fluid: a particle moves at most 0.4Δx in a substep, so
    /// the neighbour lists built at its start stay those of its end (the bound XPBI uses); a
    /// travel bound, to which the simulation adds the acceleration.
    fn max_substep(&self, particles: &Particles<D>) -> Option<SubstepBound> {
        let (fastest, max_speed) = crate::continuum::fastest_member(&self.members, particles);
        Some(SubstepBound::travel(
            FLUID_CFL * self.settings.spacing,
            max_speed,
            "fluid CFL bound h (max |v| + |a| h) ≤ 0.4 · spacing",
            fastest,
        ))
    }
}

/// `v` as a 3-vector (a 2D vector in the plane z = 0).
fn embed<const D: usize>(v: &SVector<f64, D>) -> Vector3<f64> {
    Vector3::from_fn(|a, _| if a < D { v[a] } else { 0.0 })
}

/// The fluid's Courant number (the XPBI default).
pub const FLUID_CFL: f64 = 0.4;
