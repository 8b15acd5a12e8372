//! XPBI on the GPU (3D, f32): the step of `xpbi_continuum` (XPBI Algorithm 1 in candidate
//! positions) with the state resident on the device, solved by Jacobi or by coloured
//! Gauss-Seidel.
//!
//! Per step ([`GpuXpbi::step`]):
//!
//! 1. `stats` (bounding box of x, max |v|²), read back: the CFL check
//!    `Δt ≤ cfl · Δx / max|v|` (the CPU's rule, `XpbiSettings::cfl_step`) and a non-finite
//!    check run on the host *before* the step, which then changes nothing on failure (a state
//!    that became non-finite during the previous step is reported here,
//!    [`GpuError::NonFiniteState`]; the GPU path does not roll back).
//! 2. `xⁿ ← x`; the neighbour grid of `grid.wgsl` on xⁿ (cell = support H, counting sort with
//!    prefix sum, per-cell index sort, CSR lists |x_b − x_p| < H in the CPU's order); the list
//!    length is read back to size the per-neighbour buffers (which only grow).
//! 3. `shaders/xpbi.wgsl`: volumes, constraint counts and contact candidates, frozen data (L_p by
//!    SVD pseudo-inverse, q_p, Jacobi factors; q_b is recomputed from L_p where used), prediction,
//!    `iterations` × (Jacobi: solve + gather | coloured: contacts, 27 colours of position
//!    correction, 27 colours of XPBI constraints), velocities, XSPH, F update, in one submission.
//!
//! The semantics are those of `ContinuumScene` with `SolverKind::Jacobi { ω, averaged }` or
//! `SolverKind::Coloured`: the collider contacts (planes, spheres, boxes, capsules, grids,
//! core candidate test and budgeted Coulomb friction), the XPBI position correction and the XPBI constraints are the
//! CPU's three constraint blocks. Jacobi computes all of them against the same positions and
//! sums the corrections per particle by a gather; the coloured sweep runs the blocks in order,
//! the XPBI block in the CPU's cell colours and cell order (the position-correction pairs are
//! coloured on the H grid, the CPU uses a Δx grid: another order, same conflict-freedom). No
//! float atomics anywhere, so results are bit-identical run to run.

use std::sync::Arc;

use nalgebra::{Matrix3, Vector3};

use crate::KinematicCollider;
use crate::grid::{GridParams, ScanParams, groups};
use crate::layout::{GpuCollider, pack_kinematic};
use crate::plasticity::GpuPlastic;
use crate::sdf::SdfAtlas;
use crate::xpbi_device::{
    Buffers, Pipes, bind_entries, check_binding, make_buffers, make_pipes, storage,
};
use crate::xpbi_layout::{COLOURS, storage_bytes};
pub use crate::xpbi_layout::{GpuColourParams, GpuXpbiParams, XPBI_STORAGE_BUFFERS};
use crate::xpbi_scene::{MAX_GPU_MATERIALS, XpbiGpuScene};
use crate::{GpuContext, GpuError, MAX_COLLIDERS};
use bytemuck::Zeroable;
use xpbd_core::SolverKind;
use xpbi_continuum::contact::MIN_DISTANCE_OVER_RADIUS;
use xpbi_continuum::continuum::XpbiSettings;
use xpbi_continuum::kernel::WendlandC2;
use xpbi_continuum::material::Material;

const FLAG_IN_LOOP: u32 = 1;
const FLAG_SPACING: u32 = 2;
const FLAG_AVERAGED: u32 = 4;
const FLAG_KINEMATIC: u32 = 8;

/// The colliders packed for a step of `dt`: each at its pose at the end of the step with its
/// displacement over the step (`motion`), a plane's offset including the contact radius
/// `radius` (`contact_gap` in xpbi.wgsl).
fn packed_colliders(
    colliders: &[KinematicCollider],
    sdf: &SdfAtlas,
    radius: f64,
    dt: f64,
) -> [GpuCollider; MAX_COLLIDERS] {
    let mut out = [GpuCollider::zeroed(); MAX_COLLIDERS];
    for (k, (o, c)) in out.iter_mut().zip(colliders).enumerate() {
        *o = pack_kinematic(c, dt, radius, sdf.offset(k));
    }
    out
}

/// The material table packed for the shader (unused entries zero), once at upload: the step
/// Δt the return maps read is the step's (`XpbiParams::dt`).
fn packed_materials(materials: &[Material]) -> [GpuPlastic; MAX_GPU_MATERIALS] {
    let mut out = [GpuPlastic::zeroed(); MAX_GPU_MATERIALS];
    for (o, m) in out.iter_mut().zip(materials) {
        let lame = m.lame();
        *o = GpuPlastic::new(&m.plasticity, lame.mu, lame.lambda);
    }
    out
}

/// An XPBI continuum on the device (see the module docs).
#[derive(Debug)]
pub struct GpuXpbi {
    ctx: Arc<GpuContext>,
    n: usize,
    iterations: usize,
    /// The XPBI settings (XSPH, the CFL rule [`XpbiSettings::cfl_step`]).
    settings: XpbiSettings,
    support: f64,
    params: GpuXpbiParams,
    /// Material id per particle (empty: all 0), kept for uploads of the plastic state.
    material_ids: Vec<u8>,
    /// The colliders at the start of the next step (kinematic ones advance after each step).
    colliders: Vec<KinematicCollider>,
    /// Their signed-distance grids and the texture holding the node values.
    sdf: SdfAtlas,
    sdf_view: wgpu::TextureView,
    particle_radius: f64,
    velocity_damping: f64,
    pipes: Pipes,
    bufs: Buffers,
    group: Option<wgpu::BindGroup>,
    colour_group: wgpu::BindGroup,
    coloured: bool,
    colour_threads: [u32; COLOURS],
    neighbours: usize,
    steps: u64,
    time: f64,
    /// Per particle, the displacement of a kinematic (w = 0) particle over each step (w = 1
    /// marks one); empty when none moves.
    kinematic: Vec<[f32; 4]>,
    /// Which particles have inverse mass 0: the ones that may be kinematic.
    immovable: Vec<bool>,
    /// Per particle `[w, V⁰, 0, 0]` as uploaded (`pinfo`), for [`GpuXpbi::set_inverse_masses`].
    pinfo: Vec<[f32; 4]>,
}

fn mat_cols(m: &Matrix3<f64>) -> [[f32; 4]; 3] {
    core::array::from_fn(|j| [m[(0, j)] as f32, m[(1, j)] as f32, m[(2, j)] as f32, 0.0])
}

/// Inverse of `order_key` in `xpbi.wgsl`.
fn from_order_key(k: u32) -> f32 {
    let b = if k & 0x8000_0000 != 0 {
        k & 0x7fff_ffff
    } else {
        !k
    };
    f32::from_bits(b)
}

impl GpuXpbi {
    /// Uploads a continuum. Fails with a typed error on invalid input, on a device that binds
    /// fewer than [`XPBI_STORAGE_BUFFERS`] storage buffers, or when a buffer exceeds the
    /// device's binding size.
    pub fn new(ctx: Arc<GpuContext>, scene: &XpbiGpuScene) -> Result<Self, GpuError> {
        scene.validate()?;
        let limits = ctx.limits();
        if limits.max_storage_buffers_per_shader_stage < XPBI_STORAGE_BUFFERS {
            return Err(GpuError::LimitTooLow {
                limit: "max_storage_buffers_per_shader_stage",
                available: limits.max_storage_buffers_per_shader_stage as u64,
                required: XPBI_STORAGE_BUFFERS as u64,
            });
        }
        let n = scene.positions.len();
        if n == 0 || n >= u32::MAX as usize / 2 {
            return Err(GpuError::Build(xpbd_core::BuildError::InvalidSetting {
                field: "particle count",
                value: n as f64,
                reason: "must be in 1..2^31",
            }));
        }
        check_binding(&ctx, "fmat", storage_bytes(n, 48))?;
        let s = &scene.settings;
        let support = s.support();
        let sdf = SdfAtlas::new(scene.colliders.iter().map(|c| &c.shape));
        let sdf_view = ctx.scoped(|| sdf.upload(ctx.device(), ctx.queue()))??;
        let colliders = packed_colliders(&scene.colliders, &sdf, scene.particle_radius, 0.0);
        let flags = if s.plasticity_in_loop {
            FLAG_IN_LOOP
        } else {
            0
        } | if scene.spacing_constraints {
            FLAG_SPACING
        } else {
            0
        } | if matches!(scene.solver, SolverKind::Jacobi { averaged: true, .. }) {
            FLAG_AVERAGED
        } else {
            0
        };
        let (omega, coloured) = match scene.solver {
            SolverKind::Jacobi { omega, .. } => (omega, false),
            _ => (1.0, true),
        };
        let params = GpuXpbiParams {
            n: n as u32,
            n_colliders: scene.colliders.len() as u32,
            flags,
            pad0: 0,
            dt: 0.0,
            inv_dt: 0.0,
            omega: omega as f32,
            support: support as f32,
            kernel_scale: WendlandC2::<3>::new(support)?.scale() as f32,
            pinv_threshold: s.pinv_threshold as f32,
            xsph: s.xsph.coefficient(1e-4) as f32,
            min_distance: (MIN_DISTANCE_OVER_RADIUS * (scene.correction_radius * s.spacing)) as f32,
            spacing2: (scene.correction_radius.max(1.0) * s.spacing).powi(2) as f32,
            damping: 1.0,
            contact_accel: scene.contact_acceleration as f32,
            contact_radius: scene.particle_radius as f32,
            gravity: [
                scene.gravity.x as f32,
                scene.gravity.y as f32,
                scene.gravity.z as f32,
                0.0,
            ],
            colliders,
            materials: packed_materials(&scene.materials),
        };
        let pipes = ctx.scoped(|| make_pipes(ctx.device()))?;
        let bufs = ctx.scoped(|| make_buffers(ctx.device(), n))?;
        let colour_group = ctx.scoped(|| {
            ctx.device().create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("xpbi colours"),
                layout: &pipes.colour_layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &bufs.colour_params,
                        offset: 0,
                        size: wgpu::BufferSize::new(std::mem::size_of::<GpuColourParams>() as u64),
                    }),
                }],
            })
        })?;
        let mut sim = Self {
            ctx,
            n,
            iterations: scene.iterations,
            settings: *s,
            support,
            params,
            material_ids: scene.material_ids.clone(),
            colliders: scene.colliders.clone(),
            sdf,
            sdf_view,
            particle_radius: scene.particle_radius,
            velocity_damping: scene.velocity_damping,
            pipes,
            bufs,
            group: None,
            colour_group,
            coloured,
            colour_threads: [0; COLOURS],
            neighbours: 0,
            steps: 0,
            time: 0.0,
            kinematic: Vec::new(),
            immovable: scene.inv_mass.iter().map(|&w| w == 0.0).collect(),
            pinfo: Vec::new(),
        };
        sim.upload(scene)?;
        Ok(sim)
    }

    fn upload(&mut self, scene: &XpbiGpuScene) -> Result<(), GpuError> {
        let q = self.ctx.queue();
        self.pinfo = (0..self.n)
            .map(|i| {
                [
                    scene.inv_mass[i] as f32,
                    scene.rest_volume[i] as f32,
                    0.0,
                    0.0,
                ]
            })
            .collect();
        let pinfo = &self.pinfo;
        let sp = ScanParams {
            len: self.n as u32,
            pad: [0; 3],
        };
        self.ctx.scoped(|| {
            q.write_buffer(&self.bufs.scan_parts, 0, bytemuck::bytes_of(&sp));
            q.write_buffer(&self.bufs.pinfo, 0, bytemuck::cast_slice(pinfo));
        })?;
        self.write_state(
            &scene.positions,
            &scene.velocities,
            &scene.deformation_gradients,
            &scene.plastic_states,
        )
    }

    /// Replaces the dynamic state (positions, velocities, deformation gradients, plastic states
    /// `[hardening, volume correction]`), e.g. from a checkpoint made of the downloads; the model
    /// and the time are kept. f32 values downloaded as f64 upload back exactly, so a download /
    /// upload round trip continues bit-identically. Checked like the scene: lengths, finite,
    /// within the f32 range; on an error nothing is written.
    pub fn upload_state(
        &mut self,
        positions: &[Vector3<f64>],
        velocities: &[Vector3<f64>],
        deformation_gradients: &[Matrix3<f64>],
        plastic_states: &[[f64; 2]],
    ) -> Result<(), GpuError> {
        let n = self.n;
        for (field, len) in [
            ("positions length", positions.len()),
            ("velocities length", velocities.len()),
            ("deformation_gradients length", deformation_gradients.len()),
            ("plastic_states length", plastic_states.len()),
        ] {
            if len != n {
                return Err(GpuError::Build(xpbd_core::BuildError::InvalidSetting {
                    field,
                    value: len as f64,
                    reason: "must equal the particle count",
                }));
            }
        }
        let ok = |c: f64| c.is_finite() && c.abs() <= f32::MAX as f64;
        for i in 0..n {
            if !(positions[i].iter().all(|&c| ok(c))
                && velocities[i].iter().all(|&c| ok(c))
                && deformation_gradients[i].iter().all(|&c| ok(c))
                && plastic_states[i].iter().all(|&c| ok(c)))
            {
                return Err(xpbd_core::BuildError::NonFiniteState {
                    particle: i,
                    field: "position, velocity, F or plastic state (non-finite or beyond f32)",
                }
                .into());
            }
        }
        self.write_state(positions, velocities, deformation_gradients, plastic_states)
    }

    fn write_state(
        &self,
        positions: &[Vector3<f64>],
        velocities: &[Vector3<f64>],
        deformation_gradients: &[Matrix3<f64>],
        plastic_states: &[[f64; 2]],
    ) -> Result<(), GpuError> {
        let q = self.ctx.queue();
        let vec4 = |v: &[Vector3<f64>]| -> Vec<[f32; 4]> {
            v.iter()
                .map(|a| [a.x as f32, a.y as f32, a.z as f32, 0.0])
                .collect()
        };
        let f: Vec<[[f32; 4]; 3]> = deformation_gradients.iter().map(mat_cols).collect();
        let st: Vec<[f32; 4]> = plastic_states
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let id = self.material_ids.get(i).map_or(0.0, |&m| f32::from(m));
                [s[0] as f32, s[1] as f32, id, 0.0]
            })
            .collect();
        self.ctx.scoped(|| {
            q.write_buffer(&self.bufs.x, 0, bytemuck::cast_slice(&vec4(positions)));
            q.write_buffer(&self.bufs.v, 0, bytemuck::cast_slice(&vec4(velocities)));
            q.write_buffer(&self.bufs.fmat, 0, bytemuck::cast_slice(&f));
            q.write_buffer(&self.bufs.pstate, 0, bytemuck::cast_slice(&st));
        })
    }

    /// Number of particles.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no particles (never: construction requires at least one).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Simulated time (s).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Σ_p |N(p)| of the last neighbour search.
    pub fn total_neighbours(&self) -> usize {
        self.neighbours
    }

    /// The context.
    pub fn context(&self) -> &Arc<GpuContext> {
        &self.ctx
    }

    /// Moves kinematic particles in every following step: particle `i` of `moves` (it must have
    /// inverse mass 0) is displaced by `u` over each step, as the CPU moves a particle towards
    /// its `kinematic_target` (`u = target − x`); its velocity is `u/Δt`. An empty list stops
    /// them. Checked: indices in range, zero inverse mass, finite displacements.
    pub fn set_kinematic_displacements(
        &mut self,
        moves: &[(usize, Vector3<f64>)],
    ) -> Result<(), GpuError> {
        let mut dense = vec![[0.0f32; 4]; self.n];
        for &(i, u) in moves {
            if !self.immovable.get(i).copied().unwrap_or(false) || !u.iter().all(|c| c.is_finite())
            {
                return Err(GpuError::Unsupported {
                    what: format!("kinematic displacement of particle {i}"),
                    reason: "a kinematic particle must exist, have inverse mass 0 and move a finite \
                             distance",
                });
            }
            dense[i] = [u.x as f32, u.y as f32, u.z as f32, 1.0];
        }
        self.kinematic = if moves.is_empty() { Vec::new() } else { dense };
        if self.kinematic.is_empty() {
            self.params.flags &= !FLAG_KINEMATIC;
        } else {
            self.params.flags |= FLAG_KINEMATIC;
        }
        Ok(())
    }

    /// Replaces the inverse masses (a nozzle releases a reservoir particle by giving it its
    /// mass; a particle given inverse mass 0 is pinned, or kinematic with
    /// [`GpuXpbi::set_kinematic_displacements`]). A particle that gets a mass stops being
    /// kinematic. Checked: one finite value ≥ 0 within the f32 range per particle; on an
    /// error nothing is written.
    pub fn set_inverse_masses(&mut self, inv_mass: &[f64]) -> Result<(), GpuError> {
        if inv_mass.len() != self.n {
            return Err(GpuError::Build(xpbd_core::BuildError::InvalidSetting {
                field: "inverse masses length",
                value: inv_mass.len() as f64,
                reason: "must equal the particle count",
            }));
        }
        if let Some(i) = inv_mass
            .iter()
            .position(|&w| !(w.is_finite() && w >= 0.0 && w <= f32::MAX as f64))
        {
            return Err(xpbd_core::BuildError::NonFiniteState {
                particle: i,
                field: "inverse mass (negative, non-finite or beyond f32)",
            }
            .into());
        }
        for (i, &w) in inv_mass.iter().enumerate() {
            self.pinfo[i][0] = w as f32;
            self.immovable[i] = w == 0.0;
            if w != 0.0
                && let Some(k) = self.kinematic.get_mut(i)
            {
                *k = [0.0; 4];
            }
        }
        let q = self.ctx.queue();
        self.ctx.scoped(|| {
            q.write_buffer(&self.bufs.pinfo, 0, bytemuck::cast_slice(&self.pinfo));
        })
    }

    /// One XPBI step of `dt` (see the module docs). On an error nothing has changed.
    pub fn step(&mut self, dt: f64) -> Result<(), GpuError> {
        use crate::world::Phase;
        self.prepare_step(dt)?;
        let mut enc = self
            .ctx
            .device()
            .create_command_encoder(&Default::default());
        {
            let mut pass = self.begin_pass(&mut enc)?;
            self.phase(&mut pass, Phase::Start);
            for _ in 0..self.iterations {
                self.phase(&mut pass, Phase::Iteration);
            }
            self.phase(&mut pass, Phase::End);
        }
        self.ctx.scoped(|| {
            self.ctx.queue().submit([enc.finish()]);
        })?;
        self.commit_step(dt);
        Ok(())
    }

    /// Everything of a step of `dt` before its main pass: the uniforms for `dt` with the CFL
    /// and finiteness checks, the kinematic displacements, xⁿ ← x and the frozen data (grid,
    /// neighbours, L_p, corrected weights). On an error nothing has changed.
    pub(crate) fn prepare_step(&mut self, dt: f64) -> Result<(), GpuError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(xpbd_core::StepError::NonPositiveTimeStep { dt }.into());
        }
        self.set_dt(dt)?;
        if !self.kinematic.is_empty() {
            // dx_local is free until the solve: predict reads the kinematic displacements there.
            let q = self.ctx.queue();
            q.write_buffer(
                &self.bufs.dx_local,
                0,
                bytemuck::cast_slice(&self.kinematic),
            );
        }
        self.rebuild()
    }

    fn begin_pass<'e>(
        &self,
        enc: &'e mut wgpu::CommandEncoder,
    ) -> Result<wgpu::ComputePass<'e>, GpuError> {
        let group = self
            .group
            .as_ref()
            .ok_or_else(|| GpuError::Wgpu("no bind group".into()))?;
        let mut pass = enc.begin_compute_pass(&Default::default());
        pass.set_bind_group(0, group, &[]);
        pass.set_bind_group(1, &self.colour_group, &[0]);
        Ok(pass)
    }

    /// Encodes one phase of the step [`GpuXpbi::prepare_step`] prepared, in its own pass (the
    /// GPU world interleaves them with the XPBD bodies' and the body contacts').
    pub(crate) fn encode_phase(
        &self,
        enc: &mut wgpu::CommandEncoder,
        phase: crate::world::Phase,
    ) -> Result<(), GpuError> {
        let mut pass = self.begin_pass(enc)?;
        self.phase(&mut pass, phase);
        Ok(())
    }

    /// Predict (start), one iteration, or velocities, XSPH and the F update (end).
    fn phase(&self, pass: &mut wgpu::ComputePass<'_>, phase: crate::world::Phase) {
        use crate::world::Phase;
        let (gx, gy) = groups(self.n as u32);
        let pipes = &self.pipes.xpbi;
        let run = |pass: &mut wgpu::ComputePass, i: usize| {
            pass.set_pipeline(&pipes[i]);
            pass.dispatch_workgroups(gx, gy, 1);
        };
        match phase {
            Phase::Start => run(pass, 4), // predict
            Phase::Iteration => {
                if self.coloured {
                    run(pass, 11); // gs_contacts
                    for entry in [12, 13] {
                        // gs_spacing, gs_xpbi: one dispatch per colour
                        pass.set_pipeline(&pipes[entry]);
                        for (c, &threads) in self.colour_threads.iter().enumerate() {
                            if threads == 0 {
                                continue;
                            }
                            let offset = (c as u64 * self.bufs.colour_stride) as u32;
                            pass.set_bind_group(1, &self.colour_group, &[offset]);
                            let (cx, cy) = groups(threads);
                            pass.dispatch_workgroups(cx, cy, 1);
                        }
                    }
                    pass.set_bind_group(1, &self.colour_group, &[0]);
                } else {
                    run(pass, 5); // solve
                    run(pass, 6); // apply
                }
            }
            Phase::End => {
                run(pass, 7); // velocities
                if !self.settings.xsph.is_off() {
                    run(pass, 8);
                    run(pass, 9);
                }
                run(pass, 10); // update_f
            }
        }
    }

    /// After the main pass of a step of `dt` was submitted: time and kinematic colliders
    /// advance.
    pub(crate) fn commit_step(&mut self, dt: f64) {
        self.steps += 1;
        self.time += dt;
        for c in &mut self.colliders {
            c.shape = c.shape.translated(&(c.velocity * dt));
        }
    }

    /// The device buffers the body contacts read and correct: xⁿ, the step's displacement u
    /// and `[inverse mass, V⁰, Vⁿ, factor]` per particle.
    pub(crate) fn contact_buffers(&self) -> (&wgpu::Buffer, &wgpu::Buffer, &wgpu::Buffer) {
        (&self.bufs.xn, &self.bufs.dsp, &self.bufs.pinfo)
    }

    /// The colliders at the start of the next step (a kinematic collider has moved by its
    /// velocity times each step taken).
    pub fn colliders(&self) -> &[KinematicCollider] {
        &self.colliders
    }

    /// Replaces the colliders (the same number, e.g. the poses a host kept through a rollback);
    /// checked as [`XpbiGpuScene::validate`] checks them.
    pub fn set_colliders(&mut self, colliders: &[KinematicCollider]) -> Result<(), GpuError> {
        if colliders.len() != self.colliders.len() {
            return Err(GpuError::Build(xpbd_core::BuildError::InvalidSetting {
                field: "collider count",
                value: colliders.len() as f64,
                reason: "must equal the uploaded scene's",
            }));
        }
        crate::kinematic::validate_colliders(
            colliders,
            MAX_COLLIDERS,
            "the GPU XPBI step has at most 8 colliders",
        )?;
        if !self.sdf.holds(colliders.iter().map(|c| &c.shape)) {
            let sdf = SdfAtlas::new(colliders.iter().map(|c| &c.shape));
            let ctx = &self.ctx;
            self.sdf_view = ctx.scoped(|| sdf.upload(ctx.device(), ctx.queue()))??;
            self.sdf = sdf;
            self.group = None;
        }
        self.colliders = colliders.to_vec();
        Ok(())
    }

    fn set_dt(&mut self, dt: f64) -> Result<(), GpuError> {
        self.params.dt = dt as f32;
        self.params.inv_dt = (1.0 / dt) as f32;
        self.params.damping = (-self.velocity_damping * dt).exp() as f32;
        // XSPH's per-step coefficient for this step (a rate by default: xpbi_continuum::xsph).
        self.params.xsph = self.settings.xsph.coefficient(dt) as f32;
        self.params.colliders =
            packed_colliders(&self.colliders, &self.sdf, self.particle_radius, dt);
        // Statistics of the current state: CFL and finiteness, before anything changes.
        let (lo, hi, vmax) = self.stats()?;
        if !(lo.iter().chain(&hi).all(|c| c.is_finite())) {
            return Err(GpuError::NonFiniteState {
                what: "position",
                steps: self.steps,
            });
        }
        if !vmax.is_finite() {
            return Err(GpuError::NonFiniteState {
                what: "velocity",
                steps: self.steps,
            });
        }
        let bound = self.settings.cfl_step(vmax);
        // max|v| is reduced in f32 on the device: a step chosen on the host below the same
        // bound in f64 (an adaptive step of the GPU world) may exceed this estimate by a few
        // f32 roundings, which are not a CFL violation.
        if dt > bound * (1.0 + 1e-6) {
            return Err(xpbi_continuum::XpbiError::TimeStepOverCfl {
                dt,
                bound,
                max_speed: vmax,
            }
            .into());
        }
        let q = self.ctx.queue();
        q.write_buffer(&self.bufs.params, 0, bytemuck::bytes_of(&self.params));
        self.grid_setup(lo, hi)
    }

    /// Bounding box of x and max |v| on the device.
    fn stats(&mut self) -> Result<([f64; 3], [f64; 3], f64), GpuError> {
        self.ensure_group()?;
        let q = self.ctx.queue();
        let init: [u32; 8] = [u32::MAX, u32::MAX, u32::MAX, 0, 0, 0, 0, 0];
        q.write_buffer(&self.bufs.stats, 0, bytemuck::cast_slice(&init));
        // The params uniform must hold n (it always does after construction).
        q.write_buffer(&self.bufs.params, 0, bytemuck::bytes_of(&self.params));
        let mut enc = self
            .ctx
            .device()
            .create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_bind_group(0, self.group.as_ref(), &[]);
            pass.set_bind_group(1, &self.colour_group, &[0]);
            pass.set_pipeline(&self.pipes.xpbi[0]);
            let (gx, gy) = groups(self.n as u32);
            pass.dispatch_workgroups(gx, gy, 1);
        }
        self.ctx.scoped(|| q.submit([enc.finish()]))?;
        let raw: Vec<u32> =
            bytemuck::pod_collect_to_vec(&self.ctx.read_buffer(&self.bufs.stats, 0, 32)?);
        let lo = core::array::from_fn(|a| from_order_key(raw[a]) as f64);
        let hi = core::array::from_fn(|a| from_order_key(raw[3 + a]) as f64);
        let v2 = f32::from_bits(raw[6]) as f64;
        Ok((lo, hi, v2.sqrt()))
    }

    /// Grid dimensions from the bounding box (cell = H, origin at the minimum, as
    /// `UniformGrid::build`), cell buffers grown if needed.
    fn grid_setup(&mut self, lo: [f64; 3], hi: [f64; 3]) -> Result<(), GpuError> {
        let cell = self.support;
        let search = cell * (1.0 - xpbi_continuum::kernel::NEIGHBOUR_TIE_MARGIN);
        let (dims, cells) = crate::grid::grid_dims(lo, hi, cell, self.n)?;
        if cells + 1 > self.bufs.cell_capacity {
            let cap = 3 * (cells + 1) / 2 + 1;
            check_binding(&self.ctx, "grid cells", storage_bytes(cap, 4))?;
            let device = self.ctx.device();
            let (counters, cell_start) = self.ctx.scoped(|| {
                (
                    storage(device, "counters", storage_bytes(cap, 4)),
                    storage(device, "cell_start", storage_bytes(cap, 4)),
                )
            })?;
            self.bufs.counters = counters;
            self.bufs.cell_start = cell_start;
            self.group = None;
            self.bufs.cell_capacity = cap;
        }
        let gp = GridParams {
            origin_cell: [lo[0] as f32, lo[1] as f32, lo[2] as f32, cell as f32],
            dims: [dims[0] as u32, dims[1] as u32, dims[2] as u32, cells as u32],
            n_particles: self.n as u32,
            // WendlandC2::search_radius: the CPU's neighbour set, free of lattice ties at H.
            radius: search as f32,
            radius2: (search * search) as f32,
            pad: 0,
        };
        let q = self.ctx.queue();
        q.write_buffer(&self.bufs.grid_params, 0, bytemuck::bytes_of(&gp));
        let sp = ScanParams {
            len: cells as u32,
            pad: [0; 3],
        };
        q.write_buffer(&self.bufs.scan_cells, 0, bytemuck::bytes_of(&sp));
        let (bytes, threads) = crate::grid::cell_colours(dims, self.bufs.colour_stride as usize);
        self.colour_threads = threads;
        q.write_buffer(&self.bufs.colour_params, 0, &bytes);
        Ok(())
    }

    /// xⁿ ← x, neighbour grid and lists on xⁿ, then the frozen per-step data (volumes,
    /// counts, L_p, corrected weights). Called by [`Self::step`] after [`Self::set_dt`].
    fn rebuild(&mut self) -> Result<(), GpuError> {
        let ctx = self.ctx.clone();
        let device = ctx.device();
        let q = ctx.queue();
        let n = self.n as u32;
        let b = &self.bufs;
        let (gx, gy) = groups(n);
        let cells_bytes = 4 * self.bufs.cell_capacity as u64;
        let bind = |pipe: &wgpu::ComputePipeline, entries: &[(u32, &wgpu::Buffer)]| {
            let entries: Vec<wgpu::BindGroupEntry> = entries
                .iter()
                .map(|(i, buf)| wgpu::BindGroupEntry {
                    binding: *i,
                    resource: buf.as_entire_binding(),
                })
                .collect();
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &pipe.get_bind_group_layout(0),
                entries: &entries,
            })
        };
        let p = &self.pipes;
        let groups_grid = self.ctx.scoped(|| {
            [
                bind(
                    &p.bin,
                    &[
                        (0, &b.grid_params),
                        (1, &b.xn),
                        (2, &b.cell_of),
                        (3, &b.counters),
                    ],
                ),
                bind(&p.scan, &[(0, &b.scan_cells), (1, &b.cell_start)]),
                bind(
                    &p.scatter,
                    &[
                        (0, &b.grid_params),
                        (2, &b.cell_of),
                        (3, &b.counters),
                        (5, &b.sorted),
                    ],
                ),
                bind(
                    &p.sort_cells,
                    &[(0, &b.grid_params), (4, &b.cell_start), (5, &b.sorted)],
                ),
                bind(
                    &p.count_nb,
                    &[
                        (0, &b.grid_params),
                        (1, &b.xn),
                        (4, &b.cell_start),
                        (5, &b.sorted),
                        (6, &b.nb_offsets),
                        (7, &b.nb_indices),
                    ],
                ),
                bind(&p.scan, &[(0, &b.scan_parts), (1, &b.nb_offsets)]),
            ]
        })?;
        let [
            g_bin,
            g_scan_cells,
            g_scatter,
            g_sort,
            g_count,
            g_scan_parts,
        ] = &groups_grid;
        let max_cells = (self.bufs.cell_capacity - 1) as u32;
        let mut enc = device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(&b.x, 0, &b.xn, 0, None);
        enc.clear_buffer(&b.counters, 0, None);
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&p.bin);
            pass.set_bind_group(0, g_bin, &[]);
            pass.dispatch_workgroups(gx, gy, 1);
        }
        enc.copy_buffer_to_buffer(&b.counters, 0, &b.cell_start, 0, Some(cells_bytes));
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&p.scan);
            pass.set_bind_group(0, g_scan_cells, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        enc.copy_buffer_to_buffer(&b.cell_start, 0, &b.counters, 0, Some(cells_bytes));
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&p.scatter);
            pass.set_bind_group(0, g_scatter, &[]);
            pass.dispatch_workgroups(gx, gy, 1);
            pass.set_pipeline(&p.sort_cells);
            pass.set_bind_group(0, g_sort, &[]);
            let (cx, cy) = groups(max_cells);
            pass.dispatch_workgroups(cx, cy, 1);
            pass.set_pipeline(&p.count_nb);
            pass.set_bind_group(0, g_count, &[]);
            pass.dispatch_workgroups(gx, gy, 1);
            pass.set_pipeline(&p.scan);
            pass.set_bind_group(0, g_scan_parts, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        self.ctx.scoped(|| q.submit([enc.finish()]))?;
        let total_raw = self
            .ctx
            .read_buffer(&self.bufs.nb_offsets, 4 * self.n as u64, 4)?;
        let total =
            u32::from_le_bytes([total_raw[0], total_raw[1], total_raw[2], total_raw[3]]) as usize;
        self.neighbours = total;
        if total > self.bufs.slot_capacity {
            let cap = total + total / 4 + 16;
            check_binding(&self.ctx, "neighbour lists", storage_bytes(cap, 4))?;
            let device = self.ctx.device();
            let (nb_indices, lam_sp) = self.ctx.scoped(|| {
                (
                    storage(device, "nb_indices", storage_bytes(cap, 4)),
                    storage(device, "lam_sp", storage_bytes(cap, 4)),
                )
            })?;
            self.bufs.nb_indices = nb_indices;
            self.bufs.lam_sp = lam_sp;
            self.bufs.slot_capacity = cap;
            self.group = None;
        }
        self.ensure_group()?;
        let b = &self.bufs;
        let p = &self.pipes;
        let g_fill = self.ctx.scoped(|| {
            bind_entries(
                device,
                &p.fill_nb.get_bind_group_layout(0),
                &[
                    (0, &b.grid_params),
                    (1, &b.xn),
                    (4, &b.cell_start),
                    (5, &b.sorted),
                    (6, &b.nb_offsets),
                    (7, &b.nb_indices),
                ],
            )
        })?;
        let mut enc = device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&p.fill_nb);
            pass.set_bind_group(0, &g_fill, &[]);
            pass.dispatch_workgroups(gx, gy, 1);
            pass.set_bind_group(0, self.group.as_ref(), &[]);
            pass.set_bind_group(1, &self.colour_group, &[0]);
            for i in 1..=3 {
                pass.set_pipeline(&p.xpbi[i]); // volumes, count_incidence, frozen
                pass.dispatch_workgroups(gx, gy, 1);
            }
        }
        self.ctx.scoped(|| {
            q.submit([enc.finish()]);
        })
    }

    fn ensure_group(&mut self) -> Result<(), GpuError> {
        if self.group.is_some() {
            return Ok(());
        }
        let b = &self.bufs;
        let list: [&wgpu::Buffer; 22] = [
            &b.params,
            &b.x,
            &b.xn,
            &b.v,
            &b.dsp,
            &b.pinfo,
            &b.counts,
            &b.fmat,
            &b.pstate,
            &b.lam,
            &b.lam_colliders,
            &b.dmat,
            &b.qself,
            &b.dx_local,
            &b.nb_offsets,
            &b.nb_indices,
            &b.lmat,
            &b.lam_sp,
            &b.stats,
            &b.tau_colliders,
            &b.cell_start,
            &b.sorted,
        ];
        let mut entries: Vec<wgpu::BindGroupEntry> = list
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        entries.push(wgpu::BindGroupEntry {
            binding: XPBI_STORAGE_BUFFERS + 1,
            resource: wgpu::BindingResource::TextureView(&self.sdf_view),
        });
        let group = self.ctx.scoped(|| {
            self.ctx
                .device()
                .create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("xpbi"),
                    layout: &self.pipes.layout,
                    entries: &entries,
                })
        })?;
        self.group = Some(group);
        Ok(())
    }

    /// Runs only the per-step rebuild at the current positions (xⁿ ← x, grid, L_p, corrected
    /// weights) with time step `dt`, for inspection by [`Self::frozen_data`]; the state is
    /// unchanged.
    pub fn rebuild_frozen_data(&mut self, dt: f64) -> Result<(), GpuError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(xpbd_core::StepError::NonPositiveTimeStep { dt }.into());
        }
        self.set_dt(dt)?;
        self.rebuild()
    }

    /// The frozen data of the last rebuild: CSR offsets, neighbour indices, `L_p` and
    /// `q_p = −Σ_b q_b` per particle (the kernels recompute `q_b = V_b L_p ∇W_b(x_p)` from `L_p`
    /// where they need it, so nothing is stored per neighbour but its index and the position
    /// correction's multiplier: 8 bytes).
    #[allow(clippy::type_complexity)]
    pub fn frozen_data(
        &self,
    ) -> Result<(Vec<u32>, Vec<u32>, Vec<Matrix3<f64>>, Vec<Vector3<f64>>), GpuError> {
        let total = self.neighbours;
        let offsets: Vec<u32> = bytemuck::pod_collect_to_vec(&self.ctx.read_buffer(
            &self.bufs.nb_offsets,
            0,
            4 * (self.n as u64 + 1),
        )?);
        let indices: Vec<u32> = if total == 0 {
            Vec::new()
        } else {
            bytemuck::pod_collect_to_vec(&self.ctx.read_buffer(
                &self.bufs.nb_indices,
                0,
                4 * total as u64,
            )?)
        };
        let l = self.read_mat3(&self.bufs.lmat)?;
        let qs = self.read_vec4(&self.bufs.qself, self.n)?;
        Ok((offsets, indices, l, qs))
    }

    fn read_vec4(&self, buf: &wgpu::Buffer, len: usize) -> Result<Vec<Vector3<f64>>, GpuError> {
        let raw: Vec<[f32; 4]> =
            bytemuck::pod_collect_to_vec(&self.ctx.read_buffer(buf, 0, 16 * len as u64)?);
        Ok(raw
            .iter()
            .map(|a| Vector3::new(a[0] as f64, a[1] as f64, a[2] as f64))
            .collect())
    }

    /// Positions (downloaded).
    pub fn positions(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        self.read_vec4(&self.bufs.x, self.n)
    }

    /// Velocities (downloaded).
    pub fn velocities(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        self.read_vec4(&self.bufs.v, self.n)
    }

    /// Elastic deformation gradients Fⁿ (downloaded).
    pub fn deformation_gradients(&self) -> Result<Vec<Matrix3<f64>>, GpuError> {
        self.read_mat3(&self.bufs.fmat)
    }

    fn read_mat3(&self, buf: &wgpu::Buffer) -> Result<Vec<Matrix3<f64>>, GpuError> {
        let raw: Vec<[[f32; 4]; 3]> =
            bytemuck::pod_collect_to_vec(&self.ctx.read_buffer(buf, 0, 48 * self.n as u64)?);
        Ok(raw
            .iter()
            .map(|c| Matrix3::from_fn(|i, j| c[j][i] as f64))
            .collect())
    }

    /// The multiplier λ of each particle's XPBI constraint in the last step (downloaded).
    pub fn multipliers(&self) -> Result<Vec<f64>, GpuError> {
        let raw: Vec<f32> = bytemuck::pod_collect_to_vec(&self.ctx.read_buffer(
            &self.bufs.lam,
            0,
            4 * self.n as u64,
        )?);
        Ok(raw.iter().map(|&l| l as f64).collect())
    }

    /// Plastic states `[hardening, volume correction]` (downloaded).
    pub fn plastic_states(&self) -> Result<Vec<[f64; 2]>, GpuError> {
        let raw: Vec<[f32; 4]> = bytemuck::pod_collect_to_vec(&self.ctx.read_buffer(
            &self.bufs.pstate,
            0,
            16 * self.n as u64,
        )?);
        Ok(raw.iter().map(|a| [a[0] as f64, a[1] as f64]).collect())
    }

    /// All device state as bytes (x, v, F, plastic state), for bit-identity checks.
    pub fn state_bytes(&self) -> Result<Vec<u8>, GpuError> {
        let n = self.n as u64;
        let mut out = self.ctx.read_buffer(&self.bufs.x, 0, 16 * n)?;
        out.extend(self.ctx.read_buffer(&self.bufs.v, 0, 16 * n)?);
        out.extend(self.ctx.read_buffer(&self.bufs.fmat, 0, 48 * n)?);
        out.extend(self.ctx.read_buffer(&self.bufs.pstate, 0, 16 * n)?);
        Ok(out)
    }

    /// Waits until the submitted steps have run (for timing).
    pub fn finish(&self) -> Result<(), GpuError> {
        self.ctx.wait()
    }
}
