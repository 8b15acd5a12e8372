//! The fluid's substep set-up on the device ([`GpuFluid::prepare`]): the uniforms, the gathered
//! positions and their bounding box (read back), then the neighbour grid of cell H over fluid
//! and solid particles and the fluid particles' neighbour lists (their length read back).

use super::GpuFluid;
use crate::grid::{GridParams, ScanParams, groups};
use crate::xpbi_device::{check_binding, storage};
use crate::xpbi_layout::storage_bytes;
use crate::{GpuContext, GpuError};

impl GpuFluid {
    /// The substep of length `h` starts: the uniforms, the gathered positions and their
    /// bounding box (read back), the neighbour grid and lists (their length read back).
    /// Call before the substep's phases are encoded.
    pub(crate) fn prepare(&mut self, ctx: &GpuContext, h: f64) -> Result<(), GpuError> {
        self.write_substep_params(ctx, h)?;
        self.ensure_group(ctx)?;
        let (lo, hi) = self.gather(ctx)?;
        let (dims, cells) = crate::grid::grid_dims(lo, hi, self.support, self.n_all)?;
        self.ensure_cell_capacity(ctx, cells)?;
        self.write_grid(ctx, lo, dims, cells)?;
        self.count_neighbours(ctx, cells)?;
        let total_raw = ctx.read_buffer(&self.nb_offsets, 4 * self.n_fluid as u64, 4)?;
        let total =
            u32::from_le_bytes([total_raw[0], total_raw[1], total_raw[2], total_raw[3]]) as usize;
        self.ensure_slot_capacity(ctx, total)?;
        self.fill_neighbours(ctx)
    }

    /// The substep's constants (α̃ = α/h², the XSPH coefficient 1 − e^{−κh}, the confinement
    /// ε Δx h) into the parameter uniform, and the bounding box reset to empty.
    fn write_substep_params(&mut self, ctx: &GpuContext, h: f64) -> Result<(), GpuError> {
        self.params.alpha_tilde = (self.compliance / (h * h)) as f32;
        self.params.xsph = (-(-self.xsph_rate * h).exp_m1()) as f32;
        self.params.confinement = (self.confinement * self.spacing * h) as f32;
        let q = ctx.queue();
        let init: [u32; 8] = [u32::MAX, u32::MAX, u32::MAX, 0, 0, 0, 0, 0];
        ctx.scoped(|| {
            q.write_buffer(&self.params_buf, 0, bytemuck::bytes_of(&self.params));
            q.write_buffer(&self.bounds, 0, bytemuck::cast_slice(&init));
        })
    }

    /// Gathers the fluid and solid particles' positions and reads back their bounding box
    /// (order-preserving keys of the f32 coordinates); a non-finite box is refused.
    fn gather(&self, ctx: &GpuContext) -> Result<([f64; 3], [f64; 3]), GpuError> {
        let mut enc = ctx.device().create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            self.run(&mut pass, 0, self.n_all);
        }
        ctx.scoped(|| ctx.queue().submit([enc.finish()]))?;
        let raw: Vec<u32> = bytemuck::pod_collect_to_vec(&ctx.read_buffer(&self.bounds, 0, 24)?);
        let unkey = |k: u32| {
            let b = if k & 0x8000_0000 != 0 {
                k & 0x7fff_ffff
            } else {
                !k
            };
            f32::from_bits(b) as f64
        };
        let lo: [f64; 3] = core::array::from_fn(|a| unkey(raw[a]));
        let hi: [f64; 3] = core::array::from_fn(|a| unkey(raw[3 + a]));
        if !lo.iter().chain(&hi).all(|c| c.is_finite()) {
            return Err(xpbd_core::StepError::NonFinite {
                particle: 0,
                substep: 0,
                constraint: xpbd_core::error::ConstraintRef::default(),
            }
            .into());
        }
        Ok((lo, hi))
    }

    /// Grows the cell buffers (counters, cell starts) to hold `cells + 1` entries, by half
    /// again, and rebinds.
    fn ensure_cell_capacity(&mut self, ctx: &GpuContext, cells: usize) -> Result<(), GpuError> {
        if cells < self.cell_capacity {
            return Ok(());
        }
        let device = ctx.device();
        let cap = 3 * (cells + 1) / 2 + 1;
        check_binding(ctx, "fluid grid cells", storage_bytes(cap, 4))?;
        let (counters, cell_start) = ctx.scoped(|| {
            (
                storage(device, "fluid counters", storage_bytes(cap, 4)),
                storage(device, "fluid cell_start", storage_bytes(cap, 4)),
            )
        })?;
        (self.counters, self.cell_start, self.cell_capacity) = (counters, cell_start, cap);
        self.group = None;
        self.ensure_group(ctx)
    }

    /// The grid's uniforms: its parameters over all particles and over the fluid's rows, the
    /// scan's length and the 3³ cell colours.
    fn write_grid(
        &mut self,
        ctx: &GpuContext,
        lo: [f64; 3],
        dims: [usize; 3],
        cells: usize,
    ) -> Result<(), GpuError> {
        let grid = |n: usize| GridParams {
            origin_cell: [
                lo[0] as f32,
                lo[1] as f32,
                lo[2] as f32,
                self.support as f32,
            ],
            dims: [dims[0] as u32, dims[1] as u32, dims[2] as u32, cells as u32],
            n_particles: n as u32,
            radius: self.support as f32,
            radius2: (self.support * self.support) as f32,
            pad: 0,
        };
        let (colours, threads) = crate::grid::cell_colours(dims, self.colour_stride as usize);
        self.colour_threads = threads;
        let q = ctx.queue();
        ctx.scoped(|| {
            q.write_buffer(&self.grid_all, 0, bytemuck::bytes_of(&grid(self.n_all)));
            q.write_buffer(&self.grid_fluid, 0, bytemuck::bytes_of(&grid(self.n_fluid)));
            q.write_buffer(
                &self.scan_cells,
                0,
                bytemuck::bytes_of(&ScanParams {
                    len: cells as u32,
                    pad: [0; 3],
                }),
            );
            q.write_buffer(&self.colour_params, 0, &colours);
        })
    }

    /// The grid's bind groups, from binning to the scan of the neighbour counts.
    fn count_groups(&self, ctx: &GpuContext) -> Result<[wgpu::BindGroup; 6], GpuError> {
        let g = &self.grid;
        let bind = |pipe: &wgpu::ComputePipeline, entries: &[(u32, &wgpu::Buffer)]| {
            crate::xpbi_device::bind_entries(ctx.device(), &pipe.get_bind_group_layout(0), entries)
        };
        ctx.scoped(|| {
            [
                bind(
                    &g.bin,
                    &[
                        (0, &self.grid_all),
                        (1, &self.pos),
                        (2, &self.cell_of),
                        (3, &self.counters),
                    ],
                ),
                bind(&g.scan, &[(0, &self.scan_cells), (1, &self.cell_start)]),
                bind(
                    &g.scatter,
                    &[
                        (0, &self.grid_all),
                        (2, &self.cell_of),
                        (3, &self.counters),
                        (5, &self.sorted),
                    ],
                ),
                bind(
                    &g.sort_cells,
                    &[
                        (0, &self.grid_all),
                        (4, &self.cell_start),
                        (5, &self.sorted),
                    ],
                ),
                bind(
                    &g.count,
                    &[
                        (0, &self.grid_fluid),
                        (1, &self.pos),
                        (4, &self.cell_start),
                        (5, &self.sorted),
                        (6, &self.nb_offsets),
                        (7, &self.nb_indices),
                    ],
                ),
                bind(&g.scan, &[(0, &self.scan_rows), (1, &self.nb_offsets)]),
            ]
        })
    }

    /// Bins the particles into the grid's `cells` cells, sorts them by cell, counts each fluid
    /// particle's neighbours and scans the counts into the lists' offsets.
    fn count_neighbours(&self, ctx: &GpuContext, cells: usize) -> Result<(), GpuError> {
        let groups_grid = self.count_groups(ctx)?;
        let [g_bin, g_scan_cells, g_scatter, g_sort, g_count, g_scan_rows] = &groups_grid;
        let g = &self.grid;
        let cells_bytes = 4 * (cells as u64 + 1);
        let (ax, ay) = groups(self.n_all as u32);
        let (fx, fy) = groups(self.n_fluid as u32);
        let mut enc = ctx.device().create_command_encoder(&Default::default());
        enc.clear_buffer(&self.counters, 0, None);
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&g.bin);
            pass.set_bind_group(0, g_bin, &[]);
            pass.dispatch_workgroups(ax, ay, 1);
        }
        enc.copy_buffer_to_buffer(&self.counters, 0, &self.cell_start, 0, Some(cells_bytes));
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&g.scan);
            pass.set_bind_group(0, g_scan_cells, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        enc.copy_buffer_to_buffer(&self.cell_start, 0, &self.counters, 0, Some(cells_bytes));
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&g.scatter);
            pass.set_bind_group(0, g_scatter, &[]);
            pass.dispatch_workgroups(ax, ay, 1);
            pass.set_pipeline(&g.sort_cells);
            pass.set_bind_group(0, g_sort, &[]);
            let (cx, cy) = groups(cells as u32);
            pass.dispatch_workgroups(cx, cy, 1);
            pass.set_pipeline(&g.count);
            pass.set_bind_group(0, g_count, &[]);
            pass.dispatch_workgroups(fx, fy, 1);
            pass.set_pipeline(&g.scan);
            pass.set_bind_group(0, g_scan_rows, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        ctx.scoped(|| ctx.queue().submit([enc.finish()]))?;
        Ok(())
    }

    /// Grows the neighbour index buffer to hold `total` entries, by a quarter again plus 16,
    /// and rebinds.
    fn ensure_slot_capacity(&mut self, ctx: &GpuContext, total: usize) -> Result<(), GpuError> {
        if total <= self.slot_capacity {
            return Ok(());
        }
        let cap = total + total / 4 + 16;
        check_binding(ctx, "fluid neighbour lists", storage_bytes(cap, 4))?;
        self.nb_indices =
            ctx.scoped(|| storage(ctx.device(), "fluid nb_indices", storage_bytes(cap, 4)))?;
        self.slot_capacity = cap;
        self.group = None;
        self.ensure_group(ctx)
    }

    /// Writes the fluid particles' neighbour lists.
    fn fill_neighbours(&self, ctx: &GpuContext) -> Result<(), GpuError> {
        let device = ctx.device();
        let g = &self.grid;
        let g_fill = ctx.scoped(|| {
            crate::xpbi_device::bind_entries(
                device,
                &g.fill.get_bind_group_layout(0),
                &[
                    (0, &self.grid_fluid),
                    (1, &self.pos),
                    (4, &self.cell_start),
                    (5, &self.sorted),
                    (6, &self.nb_offsets),
                    (7, &self.nb_indices),
                ],
            )
        })?;
        let (fx, fy) = groups(self.n_fluid as u32);
        let mut enc = device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&g.fill);
            pass.set_bind_group(0, &g_fill, &[]);
            pass.dispatch_workgroups(fx, fy, 1);
        }
        ctx.scoped(|| ctx.queue().submit([enc.finish()]))?;
        Ok(())
    }
}
