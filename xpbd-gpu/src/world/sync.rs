//! The host's mirror of the device state: reading a good step back into the scene, the
//! multipliers at frame ends, uploading the scene's state after a failure, and the energy
//! audit of what was read back.

use nalgebra::{Matrix3, Vector3};
use xpbd_core::constraint::SubstepContext;
use xpbd_core::contact::{ColliderId, Pose};
use xpbd_core::error::ConstraintRef;
use xpbd_scene::BuiltScene;
use xpbi_continuum::continuum::XpbiContinuum;

use super::GpuWorld;
use xpbd_core::StepError;

use crate::{GpuError, audit, kinematic_colliders};

impl GpuWorld {
    /// After a good step of `h`: the devices' state into the scene (a non-finite continuum
    /// particle fails the step), time, colliders.
    pub(super) fn read_back(&mut self, h: f64) -> Result<(), GpuError> {
        let mut continua = Vec::with_capacity(self.continua.len());
        for c in &self.continua {
            let x = c.gpu.positions()?;
            let v = c.gpu.velocities()?;
            let f = c.gpu.deformation_gradients()?;
            let s = c.gpu.plastic_states()?;
            let bad = (0..x.len()).find(|&k| {
                !(x[k].iter().chain(v[k].iter()).all(|c| c.is_finite())
                    && f[k].iter().all(|c| c.is_finite()))
            });
            if let Some(k) = bad {
                return Err(StepError::NonFinite {
                    particle: c.members[k],
                    substep: 0,
                    constraint: ConstraintRef::default(),
                }
                .into());
            }
            continua.push((x, v, f, s));
        }
        let xpbd = match &self.xpbd {
            Some(b) => Some((b.gpu.positions()?, b.gpu.velocities()?)),
            None => None,
        };
        self.audit_read_back(&continua, xpbd.as_ref(), h)?;
        for (c, (x, v, f, s)) in self.continua.iter().zip(&continua) {
            let p = self.scene.sim.particles_mut();
            for (k, &i) in c.members.iter().enumerate() {
                p.x[i] = x[k];
                p.v[i] = v[k];
            }
            let state = xpbi_state(f, s);
            self.scene
                .sim
                .block_mut(c.block)
                .kind
                .set_state_vector(&state)?;
        }
        if let (Some(b), Some((x, v))) = (&self.xpbd, xpbd) {
            write_members(self.scene.sim.particles_mut(), b.members.as_deref(), x, v);
        }
        let time = self.scene.sim.time() + h;
        self.scene.sim.set_time(time)?;
        self.last_substep = Some(h / self.scene.sim.settings().substeps as f64);
        advance_colliders(&mut self.scene, h)
    }

    /// The energy audit of a step of `dt` (module `audit`) over the device's state against the
    /// scene's, before the scene takes it.
    pub(super) fn audit_read_back(
        &mut self,
        continua: &[ContinuumReadBack],
        xpbd: Option<&StateReadBack>,
        dt: f64,
    ) -> Result<(), GpuError> {
        let settings = self.scene.sim.settings();
        let (eps, gravity) = (settings.diagnostics.max_energy_gain, settings.gravity);
        let h = dt / settings.substeps as f64;
        if eps == f64::INFINITY {
            return Ok(());
        }
        let driven = audit::driven_speed(&mut self.scene, dt);
        let mut audit = audit::EnergyAudit::new(self.scene.sim.particles(), gravity);
        for (c, (x, v, _, _)) in self.continua.iter().zip(continua) {
            for (k, &i) in c.members.iter().enumerate() {
                audit.add(i, &x[k], &v[k]);
            }
        }
        if let (Some(b), Some((x, v))) = (&self.xpbd, xpbd) {
            for k in 0..x.len() {
                let i = b.members.as_ref().map_or(k, |m| m[k]);
                audit.add(i, &x[k], &v[k]);
            }
        }
        Ok(audit.check(dt, h, eps, driven)?)
    }

    /// The multipliers of the last good step into the scene's blocks, which the frames export:
    /// each continuum's XPBI constraints (λ) and each fluid's density constraints (the
    /// pressure), the fluid's rows laid out again by the CPU's own code on the current
    /// positions (the CPU exports them with the rows of the last substep's start).
    pub(super) fn sync_multipliers(&mut self) -> Result<(), GpuError> {
        use xpbd_core::constraint::ConstraintSet;
        for c in &self.continua {
            let lambda = c.gpu.multipliers()?;
            self.scene.sim.block_mut(c.block).set_multipliers(&lambda)?;
        }
        let Some(h) = self.last_substep else {
            return Ok(());
        };
        let ctx = self.context().clone();
        let n = self.scene.sim.particles().len();
        for f in &self.fluids {
            let sub = SubstepContext {
                h,
                substep: 0,
                substeps: 1,
                time: self.scene.sim.time(),
                dedicated_pool: false,
            };
            self.scene.sim.begin_block_substep(f.block, &sub);
            let by_member = f.gpu.multipliers(&ctx)?;
            let mut member = vec![usize::MAX; n];
            for (k, &i) in f.gpu.members().iter().enumerate() {
                member[i] = k;
            }
            let Some(&handle) = self.scene.fluids.iter().find(|h| h.index() == f.block) else {
                continue;
            };
            let block = self.scene.sim.block_mut(handle);
            let lambda: Vec<f64> = (block.kind.row_particles().iter())
                .map(|&p| by_member.get(member[p as usize]).copied().unwrap_or(0.0))
                .collect();
            block.set_multipliers(&lambda)?;
        }
        Ok(())
    }

    /// Uploads the scene's (last good) state to every device set.
    pub(super) fn upload_scene_state(&mut self) -> Result<(), GpuError> {
        let p = self.scene.sim.particles();
        for c in &mut self.continua {
            let kind = &self.scene.sim.block(c.block).kind;
            let (x, v) = pick_state(p, &c.members);
            c.gpu
                .upload_state(&x, &v, kind.deformation_gradients(), &host_states(kind))?;
        }
        if let Some(b) = &mut self.xpbd {
            match &b.members {
                None => b.gpu.upload_state(&p.x, &p.v)?,
                Some(m) => {
                    let (x, v) = pick_state(p, m);
                    b.gpu.upload_state(&x, &v)?;
                }
            }
        }
        Ok(())
    }

    /// Reads the XPBD bodies' state back into the scene when they run alone (anything else is
    /// read back every step); [`GpuWorld::advance_frame`] does this at the end of every frame.
    pub fn sync_from_device(&mut self) -> Result<(), GpuError> {
        if self.step_name() == "xpbd"
            && let Some(b) = &self.xpbd
        {
            let time = b.gpu.time();
            let x = b.gpu.positions()?;
            let v = b.gpu.velocities()?;
            let span = time - self.scene.sim.time();
            if span > 0.0
                && let Err(e) = self.audit_span(&x, &v, span)
            {
                self.restore_last_sync()?;
                return Err(e);
            }
            let members = self.xpbd.as_ref().and_then(|b| b.members.as_deref());
            write_members(self.scene.sim.particles_mut(), members, x, v);
            self.scene.sim.set_time(time)?;
            self.synced_poses = collider_poses(&mut self.scene);
        }
        Ok(())
    }

    /// The energy audit over a span of XPBD steps read back at once.
    pub(super) fn audit_span(
        &mut self,
        x: &[Vector3<f64>],
        v: &[Vector3<f64>],
        span: f64,
    ) -> Result<(), GpuError> {
        let settings = self.scene.sim.settings();
        let (eps, gravity) = (settings.diagnostics.max_energy_gain, settings.gravity);
        let h = self.scene.scene.time.dt / settings.substeps as f64;
        let driven = audit::driven_speed(&mut self.scene, span);
        let mut audit = audit::EnergyAudit::new(self.scene.sim.particles(), gravity);
        let members = self.xpbd.as_ref().and_then(|b| b.members.as_deref());
        for k in 0..x.len() {
            audit.add(members.map_or(k, |m| m[k]), &x[k], &v[k]);
        }
        Ok(audit.check(span, h.min(span), eps, driven)?)
    }

    /// Puts the device back to the state the scene holds (XPBD bodies alone): particles, time
    /// and the kinematic colliders' poses of the last read-back.
    pub(super) fn restore_last_sync(&mut self) -> Result<(), GpuError> {
        let time = self.scene.sim.time();
        if let Some(contacts) = self.scene.collider_contacts_mut() {
            for (k, pose) in self.synced_poses.iter().enumerate() {
                contacts.set_pose(ColliderId(k), *pose)?;
            }
            let all = kinematic_colliders(contacts)?;
            let acceleration = contacts.options().acceleration;
            if let Some(b) = &mut self.xpbd {
                b.gpu.set_colliders(&all, acceleration)?;
            }
        }
        if let Some(b) = &mut self.xpbd {
            b.gpu.set_time(time);
        }
        self.upload_scene_state()
    }
}

/// The poses of the scene's kinematic colliders.
pub(super) fn collider_poses(scene: &mut BuiltScene) -> Vec<Pose<3>> {
    scene
        .collider_contacts_mut()
        .map_or_else(Vec::new, |c| c.colliders().iter().map(|c| c.pose).collect())
}

/// A particle set's read-back: positions and velocities.
type StateReadBack = (Vec<Vector3<f64>>, Vec<Vector3<f64>>);

/// A continuum's read-back: positions, velocities, deformation gradients, plastic states.
type ContinuumReadBack = (
    Vec<Vector3<f64>>,
    Vec<Vector3<f64>>,
    Vec<Matrix3<f64>>,
    Vec<[f64; 2]>,
);

/// Device positions and velocities of a particle set into the store (all particles when
/// `members` is `None`, else `members[k]` takes entry `k`).
pub(super) fn write_members(
    p: &mut xpbd_core::Particles<3>,
    members: Option<&[usize]>,
    x: Vec<Vector3<f64>>,
    v: Vec<Vector3<f64>>,
) {
    match members {
        None => {
            p.x = x;
            p.v = v;
        }
        Some(m) => {
            for (k, &i) in m.iter().enumerate() {
                p.x[i] = x[k];
                p.v[i] = v[k];
            }
        }
    }
}

/// Positions and velocities of the particles `members`, in that order.
pub(super) fn pick_state(
    p: &xpbd_core::Particles<3>,
    members: &[usize],
) -> (Vec<Vector3<f64>>, Vec<Vector3<f64>>) {
    (
        members.iter().map(|&i| p.x[i]).collect(),
        members.iter().map(|&i| p.v[i]).collect(),
    )
}

/// Moves the scene's kinematic colliders by their velocity times `h`, after a good device step
/// of `h` (the device's own copies moved in it): where the core's contacts put them after a
/// step.
pub(super) fn advance_colliders(scene: &mut BuiltScene, h: f64) -> Result<(), GpuError> {
    if let Some(contacts) = scene.collider_contacts_mut() {
        for k in 0..contacts.colliders().len() {
            let c = &contacts.colliders()[k];
            if c.velocity.norm() != 0.0 {
                let mut pose = c.pose;
                pose.translation += c.velocity * h;
                contacts.set_pose(ColliderId(k), pose)?;
            }
        }
    }
    Ok(())
}

/// The plastic states `[hardening, volume correction]` of a continuum, as the device holds them.
pub(super) fn host_states(c: &XpbiContinuum<3>) -> Vec<[f64; 2]> {
    (c.plastic_states().iter())
        .map(|s| [s.hardening, s.volume_correction])
        .collect()
}

/// An XPBI block's state vector ([`XpbiContinuum::state_vector`]: F column by column, then
/// hardening and volume correction, per member) from the device's read-backs.
pub(super) fn xpbi_state(f: &[Matrix3<f64>], s: &[[f64; 2]]) -> Vec<f64> {
    let mut out = Vec::with_capacity(11 * f.len());
    for (f, s) in f.iter().zip(s) {
        out.extend(f.iter());
        out.extend(s);
    }
    out
}
