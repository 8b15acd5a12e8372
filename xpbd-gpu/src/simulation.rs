//! [`GpuSimulation`]: the XPBD step of `xpbd_core::Simulation` on the GPU, f32.
//!
//! Per substep (one compute pass per step, wgpu inserts the barriers between dispatches):
//!
//! ```text
//! predict            x_prev = x; v += h (g + w f); x += h v           (per particle)
//! reset_multipliers  λ = 0  (or λ ← (1 − d) λ with warm start)        (per constraint)
//! iterations ×       Coloured:    solve_colour, one dispatch per colour of each block
//!                    GaussSeidel: solve_sequential, one thread per block, index order
//!                    Jacobi:      jacobi_compute (all blocks) + jacobi_apply (CSR gather)
//!                    collide      (per particle, when there are colliders)
//! update_velocity    v = (x − x_prev)/h, damping, restitution, fault flags (per particle)
//! ```
//!
//! Colliders ([`KinematicCollider`]) are static or translate with a constant velocity: in
//! substep s of S a collider is at its pose at the start of the step plus (s + 1)/S of the
//! step's motion (the core's interpolated pose), friction acts on the displacement relative to
//! it, and restitution uses its velocity.
//!
//! After the pass the fault flags are read back; a non-finite or runaway particle rolls
//! the state back to the start of the step and returns a `StepError`, as on the CPU.

use std::sync::Arc;

use nalgebra::Vector3;
use xpbd_core::error::ConstraintRef;
use xpbd_core::{SolverKind, SolverSettings, StepError};

mod build;
mod state;

use build::uniforms_group;

use crate::context::GpuContext;
use crate::kinematic::validate_colliders;
use crate::layout::{BlockPlan, GpuColliders, GpuParams, pack_kinematic};
use crate::pipelines::{Layouts, Pipelines};
use crate::sdf::SdfAtlas;
use crate::{GpuError, KinematicCollider, MAX_COLLIDERS, Scene, StepBackend};

const WORKGROUP: u32 = 64;
const MAX_GROUPS_PER_DIM: u32 = 65535;

#[derive(Debug)]
struct Buffers {
    params: wgpu::Buffer,
    dispatch: wgpu::Buffer,
    colliders: wgpu::Buffer,
    x: wgpu::Buffer,
    x_prev: wgpu::Buffer,
    v: wgpu::Buffer,
    faults: wgpu::Buffer,
    backup_x: wgpu::Buffer,
    backup_v: wgpu::Buffer,
}

/// Dynamic-offset slots of the dispatch uniform.
#[derive(Debug, Default)]
struct Slots {
    /// Per substep: all particles.
    particles: Vec<u32>,
    /// All constraints.
    constraints: u32,
    /// Per block, per colour.
    colours: Vec<Vec<(u32, u32)>>,
    /// Per block: its constraint range (sequential Gauss-Seidel).
    blocks: Vec<u32>,
}

/// A scene on the GPU. Build with [`Scene::gpu`] or [`GpuSimulation::new`].
#[derive(Debug)]
pub struct GpuSimulation {
    ctx: Arc<GpuContext>,
    settings: SolverSettings<3>,
    n_particles: u32,
    n_constraints: u32,
    n_colliders: u32,
    /// The colliders at the start of the next step (a kinematic one advances by its velocity
    /// times each step taken).
    colliders: Vec<KinematicCollider>,
    /// The contact acceleration bound a of the restitution threshold `2 a h`.
    contact_acceleration: f64,
    /// The step length the collider uniform was packed for (`None`: repack).
    packed_dt: Option<f64>,
    /// Particle radius r of the contacts (`C = φ(x) − r`).
    contact_radius: f32,
    csr_offsets_base: u32,
    csr_slots_base: u32,
    blocks: Vec<BlockPlan>,
    buffers: Buffers,
    pipelines: Pipelines,
    layouts: Layouts,
    /// The colliders' signed-distance grids (their node values are in the uniforms group).
    sdf: SdfAtlas,
    bind_groups: [wgpu::BindGroup; 3],
    slot_stride: u32,
    slots: Slots,
    written_h: Option<f64>,
    time: f64,
}

fn groups(count: u32) -> (u32, u32) {
    let g = count.div_ceil(WORKGROUP).max(1);
    if g <= MAX_GROUPS_PER_DIM {
        (g, 1)
    } else {
        (MAX_GROUPS_PER_DIM, g.div_ceil(MAX_GROUPS_PER_DIM))
    }
}

impl GpuSimulation {
    /// Validates and packs the scene, checks it against the device limits, uploads it and
    /// compiles the kernels. Diagnostics (residuals, energies) are not computed on the GPU.
    pub fn new(ctx: Arc<GpuContext>, scene: &Scene) -> Result<Self, GpuError> {
        Self::with_members(ctx, scene, None)
    }

    /// The context this simulation runs on.
    pub fn context(&self) -> &Arc<GpuContext> {
        &self.ctx
    }

    /// Number of particles.
    pub fn len(&self) -> usize {
        self.n_particles as usize
    }

    /// Whether there are no particles.
    pub fn is_empty(&self) -> bool {
        self.n_particles == 0
    }

    /// Number of colours of each block's coloured sweep (= dispatches per block and iteration).
    pub fn colours_per_block(&self) -> Vec<usize> {
        self.blocks.iter().map(|b| b.colours.len()).collect()
    }

    /// The colliders at the start of the next step.
    pub fn colliders(&self) -> &[KinematicCollider] {
        &self.colliders
    }

    /// Replaces the colliders (at most [`MAX_COLLIDERS`]) with their contact law: static or
    /// translating, μ_s and μ_k, restitution; `acceleration` is the contact acceleration bound
    /// a of the restitution threshold `2 a h` (`xpbd_core::contact::ContactOptions`). Checked
    /// as [`crate::XpbiGpuScene::validate`] checks a continuum's; on an error nothing changes.
    pub fn set_colliders(
        &mut self,
        colliders: &[KinematicCollider],
        acceleration: f64,
    ) -> Result<(), GpuError> {
        validate_colliders(
            colliders,
            MAX_COLLIDERS,
            "the GPU's XPBD step has at most 8 colliders",
        )?;
        if !(acceleration.is_finite() && acceleration >= 0.0) {
            return Err(GpuError::Build(xpbd_core::BuildError::InvalidSetting {
                field: "contact acceleration",
                value: acceleration,
                reason: "must be finite and >= 0",
            }));
        }
        if !self.sdf.holds(colliders.iter().map(|c| &c.shape)) {
            let sdf = SdfAtlas::new(colliders.iter().map(|c| &c.shape));
            let device = self.ctx.device();
            let view = self.ctx.scoped(|| sdf.upload(device, self.ctx.queue()))??;
            let b = &self.buffers;
            self.bind_groups[0] = self.ctx.scoped(|| {
                uniforms_group(
                    device,
                    &self.layouts.uniforms,
                    [&b.params, &b.dispatch, &b.colliders],
                    &view,
                )
            })?;
            self.sdf = sdf;
        }
        self.colliders = colliders.to_vec();
        self.contact_acceleration = acceleration;
        self.n_colliders = colliders.len() as u32;
        self.packed_dt = None;
        self.written_h = None;
        Ok(())
    }

    /// Writes the collider uniform for a step of `dt` (each at its pose at the end of the step
    /// with its motion over the step).
    fn write_colliders(&mut self, dt: f64) {
        let mut packed = GpuColliders {
            items: [bytemuck::Zeroable::zeroed(); MAX_COLLIDERS],
        };
        for (k, (o, c)) in packed.items.iter_mut().zip(&self.colliders).enumerate() {
            *o = pack_kinematic(c, dt, 0.0, self.sdf.offset(k));
        }
        self.ctx
            .queue()
            .write_buffer(&self.buffers.colliders, 0, bytemuck::bytes_of(&packed));
        self.packed_dt = Some(dt);
    }

    fn write_params(&mut self, h: f64) {
        let s = &self.settings;
        let (omega, averaged) = match s.solver {
            SolverKind::Jacobi { omega, averaged } => (omega, averaged as u32),
            _ => (1.0, 0),
        };
        let max_speed2 = (s.diagnostics.max_speed * s.diagnostics.max_speed).min(f32::MAX as f64);
        let p = GpuParams {
            gravity_h: [
                s.gravity.x as f32,
                s.gravity.y as f32,
                s.gravity.z as f32,
                h as f32,
            ],
            inv_h: (1.0 / h) as f32,
            damping_factor: (-s.velocity_damping * h).exp() as f32,
            omega: omega as f32,
            averaged,
            n_particles: self.n_particles,
            n_constraints: self.n_constraints,
            max_speed2: max_speed2 as f32,
            n_colliders: self.n_colliders,
            lambda_keep: s.multiplier_warm_start.map_or(0.0, |d| (1.0 - d) as f32),
            csr_offsets_base: self.csr_offsets_base,
            csr_slots_base: self.csr_slots_base,
            contact_radius: self.contact_radius,
            substeps: s.substeps as u32,
            restitution_threshold: (2.0 * self.contact_acceleration * h) as f32,
            pad: [0; 2],
        };
        self.ctx
            .queue()
            .write_buffer(&self.buffers.params, 0, bytemuck::bytes_of(&p));
        self.written_h = Some(h);
    }

    fn dispatch(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        pipeline: &wgpu::ComputePipeline,
        slot: u32,
        threads: u32,
    ) {
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &self.bind_groups[0], &[slot * self.slot_stride]);
        let (gx, gy) = groups(threads);
        pass.dispatch_workgroups(gx, gy, 1);
    }

    /// Copies x and v to the step's backup (the state a fault rolls back to).
    fn encode_backup(&self, encoder: &mut wgpu::CommandEncoder) {
        let b = &self.buffers;
        let state_bytes = 16 * self.n_particles as u64;
        if state_bytes > 0 {
            encoder.copy_buffer_to_buffer(&b.x, 0, &b.backup_x, 0, Some(state_bytes));
            encoder.copy_buffer_to_buffer(&b.v, 0, &b.backup_v, 0, Some(state_bytes));
        }
    }

    fn begin_pass<'e>(&self, encoder: &'e mut wgpu::CommandEncoder) -> wgpu::ComputePass<'e> {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
        pass.set_bind_group(1, &self.bind_groups[1], &[]);
        pass.set_bind_group(2, &self.bind_groups[2], &[]);
        pass
    }

    /// Substep `s` starts: prediction and the multiplier reset.
    fn substep_start(&self, pass: &mut wgpu::ComputePass<'_>, s: usize) {
        let p = &self.pipelines;
        self.dispatch(pass, &p.predict, self.slots.particles[s], self.n_particles);
        if self.n_constraints > 0 {
            self.dispatch(
                pass,
                &p.reset_multipliers,
                self.slots.constraints,
                self.n_constraints,
            );
        }
    }

    /// One iteration of substep `s`: every block's sweep, then the colliders.
    fn iteration(&self, pass: &mut wgpu::ComputePass<'_>, s: usize) {
        let p = &self.pipelines;
        let (ps, n) = (self.slots.particles[s], self.n_particles);
        match self.settings.solver {
            SolverKind::Coloured => {
                for colours in &self.slots.colours {
                    for &(slot, count) in colours {
                        self.dispatch(pass, &p.solve_colour, slot, count);
                    }
                }
            }
            SolverKind::GaussSeidel => {
                for &slot in &self.slots.blocks {
                    self.dispatch(pass, &p.solve_sequential, slot, 1);
                }
            }
            SolverKind::Jacobi { .. } => {
                if self.n_constraints > 0 {
                    self.dispatch(
                        pass,
                        &p.jacobi_compute,
                        self.slots.constraints,
                        self.n_constraints,
                    );
                    self.dispatch(pass, &p.jacobi_apply, ps, n);
                }
            }
        }
        if self.n_colliders > 0 {
            self.dispatch(pass, &p.collide, ps, n);
        }
    }

    /// Substep `s` ends: velocities, restitution and the fault flags.
    fn substep_end(&self, pass: &mut wgpu::ComputePass<'_>, s: usize) {
        let p = &self.pipelines;
        self.dispatch(
            pass,
            &p.update_velocity,
            self.slots.particles[s],
            self.n_particles,
        );
    }

    fn encode_step(&self, encoder: &mut wgpu::CommandEncoder) {
        self.encode_backup(encoder);
        let mut pass = self.begin_pass(encoder);
        for s in 0..self.settings.substeps {
            self.substep_start(&mut pass, s);
            for _ in 0..self.settings.iterations {
                self.iteration(&mut pass, s);
            }
            self.substep_end(&mut pass, s);
        }
    }

    /// Advances by `dt` seconds, exactly the substep loop of `xpbd_core::Simulation::step`
    /// (see the module docs). On a non-finite or runaway particle the positions and
    /// velocities are restored to the start of the step and a [`StepError`] names the
    /// smallest offending particle of the first faulty substep (its speed is read at the end
    /// of the step; the constraint is not traced on the GPU).
    pub fn step(&mut self, dt: f64) -> Result<(), GpuError> {
        self.begin_step(dt)?;
        let mut encoder =
            self.ctx
                .device()
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("step"),
                });
        self.encode_step(&mut encoder);
        self.ctx.queue().submit([encoder.finish()]);
        self.finish_step(dt)
    }

    /// Checks `dt` and writes the uniforms and the fault flags of a step of `dt`: what
    /// [`GpuSimulation::step`] does before it encodes the substeps.
    pub(crate) fn begin_step(&mut self, dt: f64) -> Result<(), GpuError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(StepError::NonPositiveTimeStep { dt }.into());
        }
        self.ctx.check()?;
        let substeps = self.settings.substeps;
        let h = dt / substeps as f64;
        if self.written_h != Some(h) {
            self.write_params(h);
        }
        let moving = self.colliders.iter().any(KinematicCollider::is_moving);
        if self.packed_dt != Some(dt) || moving {
            // A moving collider is packed every step: its pose at the end of this one.
            self.write_colliders(dt);
        }
        let queue = self.ctx.queue();
        queue.write_buffer(&self.buffers.faults, 0, &vec![0xffu8; 8 * substeps]);
        Ok(())
    }

    /// Encodes one phase of substep `s` of the step [`GpuSimulation::begin_step`] prepared
    /// (the GPU world interleaves them with a continuum's and the body contacts'); the start
    /// of substep 0 also saves the state a fault rolls back to.
    pub(crate) fn encode_phase(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        phase: crate::world::Phase,
        s: usize,
    ) {
        use crate::world::Phase;
        if phase == Phase::Start && s == 0 {
            self.encode_backup(encoder);
        }
        let mut pass = self.begin_pass(encoder);
        match phase {
            Phase::Start => self.substep_start(&mut pass, s),
            Phase::Iteration => self.iteration(&mut pass, s),
            Phase::End => self.substep_end(&mut pass, s),
        }
    }

    /// After the substeps of a step of `dt` ran: reads the fault flags back, rolls the state
    /// back and names the particle on a fault, else advances time and kinematic colliders.
    pub(crate) fn finish_step(&mut self, dt: f64) -> Result<(), GpuError> {
        let substeps = self.settings.substeps;
        let h = dt / substeps as f64;
        let faults: Vec<u32> =
            bytemuck::pod_collect_to_vec(&self.read(&self.buffers.faults, 8 * substeps as u64)?);
        if let Some(s) = faults
            .chunks(2)
            .position(|f| f[0] != u32::MAX || f[1] != u32::MAX)
        {
            let (non_finite, too_fast) = (faults[2 * s], faults[2 * s + 1]);
            let particle = non_finite.min(too_fast) as usize;
            let v_end = self.velocities()?[particle];
            self.rollback()?;
            let speed = v_end.norm();
            return Err(if non_finite == u32::MAX && speed.is_finite() {
                StepError::Diverged {
                    particle,
                    speed,
                    substep: s,
                    constraint: ConstraintRef::default(),
                }
            } else {
                StepError::NonFinite {
                    particle,
                    substep: s,
                    constraint: ConstraintRef::default(),
                }
            }
            .into());
        }
        for _ in 0..substeps {
            self.time += h;
        }
        for c in &mut self.colliders {
            c.shape = c.shape.translated(&(c.velocity * dt));
        }
        Ok(())
    }

    /// The device buffers of positions (xyz, inverse mass in w) and of the positions at the
    /// start of the substep, for the body contacts that touch these particles.
    pub(crate) fn position_buffers(&self) -> (&wgpu::Buffer, &wgpu::Buffer) {
        (&self.buffers.x, &self.buffers.x_prev)
    }

    /// The device buffer of velocities (a fluid's XSPH and vorticity confinement change them).
    pub(crate) fn velocity_buffer(&self) -> &wgpu::Buffer {
        &self.buffers.v
    }

    /// Simulation time (s).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Sets the simulation time back (the GPU world's energy audit restores the last good
    /// state it read back).
    pub(crate) fn set_time(&mut self, time: f64) {
        self.time = time;
    }

    /// The dispatch uniform (kept alive for the bind group).
    #[doc(hidden)]
    pub fn dispatch_slots(&self) -> usize {
        (self.buffers.dispatch.size() / self.slot_stride as u64) as usize
    }
}

impl StepBackend for GpuSimulation {
    fn backend_name(&self) -> String {
        format!("gpu f32 on {}", self.ctx.describe())
    }

    fn step(&mut self, dt: f64) -> Result<(), GpuError> {
        GpuSimulation::step(self, dt)
    }

    fn positions(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        GpuSimulation::positions(self)
    }

    fn velocities(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        GpuSimulation::velocities(self)
    }

    fn time(&self) -> f64 {
        self.time
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 2-D dispatch covers every thread and respects the 65 535-groups-per-dimension
    /// limit (the shader's `gid.x + gid.y · nwg.x · 64` enumerates all of them).
    #[test]
    fn dispatch_grid_covers_every_thread_within_the_limit() {
        for count in [0u32, 1, 64, 65, 65535 * 64, 65535 * 64 + 1, 40_000_000] {
            let (gx, gy) = groups(count);
            assert!((1..=MAX_GROUPS_PER_DIM).contains(&gx) && gy <= MAX_GROUPS_PER_DIM);
            let threads = gx as u64 * gy as u64 * WORKGROUP as u64;
            assert!(threads >= count as u64, "{count}: {threads}");
            // No more than one extra row of workgroups.
            assert!(threads < count as u64 + (gx as u64 + 1) * WORKGROUP as u64);
        }
    }
}
