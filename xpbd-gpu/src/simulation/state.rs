//! Reading and writing a [`GpuSimulation`]'s particle state: positions and velocities read
//! back (widened to f64), raw state bytes, uploads, and the rollback to the step's backup.

use nalgebra::Vector3;

use super::GpuSimulation;
use crate::GpuError;

impl GpuSimulation {
    /// Restores x, x_prev and v from the step's backup (a fault's rollback) and waits.
    pub(super) fn rollback(&self) -> Result<(), GpuError> {
        let b = &self.buffers;
        let bytes = 16 * self.n_particles as u64;
        let mut encoder =
            self.ctx
                .device()
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("rollback"),
                });
        encoder.copy_buffer_to_buffer(&b.backup_x, 0, &b.x, 0, Some(bytes));
        encoder.copy_buffer_to_buffer(&b.backup_x, 0, &b.x_prev, 0, Some(bytes));
        encoder.copy_buffer_to_buffer(&b.backup_v, 0, &b.v, 0, Some(bytes));
        self.ctx.queue().submit([encoder.finish()]);
        self.ctx.wait()
    }

    /// Copies `bytes` bytes of `src` to a mappable buffer and returns them.
    pub(super) fn read(&self, src: &wgpu::Buffer, bytes: u64) -> Result<Vec<u8>, GpuError> {
        self.ctx.read_buffer(src, 0, bytes)
    }

    /// The xyz of every particle of `src` (f32 on the device, widened).
    fn read_vec3(&self, src: &wgpu::Buffer) -> Result<Vec<Vector3<f64>>, GpuError> {
        let raw: Vec<[f32; 4]> =
            bytemuck::pod_collect_to_vec(&self.read(src, 16 * self.n_particles as u64)?);
        Ok(raw
            .iter()
            .map(|a| Vector3::new(a[0] as f64, a[1] as f64, a[2] as f64))
            .collect())
    }

    /// Positions (f32 on the device, widened).
    pub fn positions(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        self.read_vec3(&self.buffers.x)
    }

    /// Velocities.
    pub fn velocities(&self) -> Result<Vec<Vector3<f64>>, GpuError> {
        self.read_vec3(&self.buffers.v)
    }

    /// The raw device bytes of positions (with inverse masses) then velocities, for
    /// bit-for-bit comparisons.
    pub fn state_bytes(&self) -> Result<Vec<u8>, GpuError> {
        let bytes = 16 * self.n_particles as u64;
        let mut out = self.read(&self.buffers.x, bytes)?;
        out.extend(self.read(&self.buffers.v, bytes)?);
        Ok(out)
    }

    /// Replaces positions and velocities (inverse masses unchanged). Lengths must equal the
    /// particle count and values be finite.
    pub fn upload_state(&mut self, x: &[Vector3<f64>], v: &[Vector3<f64>]) -> Result<(), GpuError> {
        let n = self.n_particles as usize;
        if x.len() != n || v.len() != n {
            return Err(GpuError::Build(xpbd_core::BuildError::InvalidGeometry(
                format!(
                    "upload_state: {} positions and {} velocities for {n} particles",
                    x.len(),
                    v.len()
                ),
            )));
        }
        for i in 0..n {
            for (field, val) in [("position", x[i]), ("velocity", v[i])] {
                if !val.iter().all(|c| c.is_finite()) {
                    return Err(xpbd_core::BuildError::NonFiniteState { particle: i, field }.into());
                }
            }
        }
        let old: Vec<[f32; 4]> =
            bytemuck::pod_collect_to_vec(&self.read(&self.buffers.x, 16 * n as u64)?);
        let xs: Vec<[f32; 4]> = (0..n)
            .map(|i| [x[i].x as f32, x[i].y as f32, x[i].z as f32, old[i][3]])
            .collect();
        let vs: Vec<[f32; 4]> = v
            .iter()
            .map(|v| [v.x as f32, v.y as f32, v.z as f32, 0.0])
            .collect();
        let q = self.ctx.queue();
        q.write_buffer(&self.buffers.x, 0, bytemuck::cast_slice(&xs));
        q.write_buffer(&self.buffers.x_prev, 0, bytemuck::cast_slice(&xs));
        q.write_buffer(&self.buffers.v, 0, bytemuck::cast_slice(&vs));
        self.ctx.wait()
    }
}
