//! The per-step frozen data of [`XpbiContinuum`] (`begin_substep`): grid and neighbour lists
//! on xⁿ, Vⁿ, corrected weights, the sweep schedule and the rows it walks, `B_p`, `S_p` and
//! the SVD warm starts; and, with Lagrangian kernels, the push-forward of the reference weights.

use std::time::Instant;

use nalgebra::{SMatrix, SVector};
use rayon::prelude::*;
use xpbd_core::Particles;
use xpbd_core::spatial::{CellColouring, NeighbourLists, UniformGrid};

use super::{
    ConstraintForm, KernelFrame, ROWS_PER_CHUNK, SweepOrder, TASK_CONSTRAINTS, XpbiContinuum,
    XpbiTimings,
};
use crate::correction::corrected_weights;
use crate::error::XpbiError;

/// Fewest occupied slabs for which [`SweepOrder::Slabs`] is used. With 4, each colour has at
/// least two slabs, so two threads have work in both colours; below that the 3^d cell colours
/// share better. The 16k benchmark column (fewer than 16 slabs) sweeps in 2 colours instead of 27:
/// −5 % per simulated second single-threaded (6 813 against 7 168 µs per particle over 1 s
/// at Δt = 1 ms, measured back to back), 1.8× on two threads. A slab is one task, so few
/// slabs bound how many threads share a colour; the schedule depends on the scene only, never
/// on the thread count, to keep results bit-identical across thread counts.
const MIN_SLABS: usize = 4;

/// The slab colouring of [`SweepOrder::Slabs`]: for each of the two colours, its slabs, each
/// the list of its occupied cells in grid order. `None` when the grid has fewer than
/// [`MIN_SLABS`] occupied slabs.
fn slab_colours<const D: usize>(grid: &UniformGrid<D>, radius: f64) -> Option<Vec<Vec<Vec<u32>>>> {
    let dims = grid.dims();
    let axis = (0..D).max_by_key(|&a| (dims[a], a))?;
    // Smallest t with t·h ≥ 2R (round-off can only make t one larger: thicker slabs, still
    // conflict-free).
    let layers = (2.0 * radius / grid.cell_size()).ceil().max(1.0) as usize;
    let mut slabs = vec![Vec::new(); dims[axis].div_ceil(layers)];
    for cell in 0..grid.cell_count() {
        if !grid.cell_particles(cell).is_empty() {
            slabs[grid.cell_coords(cell)[axis] / layers].push(cell as u32);
        }
    }
    let mut colours = vec![Vec::new(), Vec::new()];
    let mut occupied = 0;
    for (k, slab) in slabs.into_iter().enumerate() {
        if !slab.is_empty() {
            colours[k % 2].push(slab);
            occupied += 1;
        }
    }
    (occupied >= MIN_SLABS).then_some(colours)
}

/// Smallest task of a colour of `constraints` constraints: [`TASK_CONSTRAINTS`], or a
/// 32nd of the colour when that is smaller (at least [`MIN_TASK_CONSTRAINTS`]), so that a
/// small colour is still cut into enough tasks for the threads to share it evenly
/// (`Schedule::share`). A 10k-particle column under the 27-colour cell sweep has about 360
/// constraints per colour: tasks of ≥ 128 made two or three tasks, one thread's share twice
/// the other's. Depends on the scene only, never on the thread count.
fn task_size(constraints: usize) -> u32 {
    (constraints as u32 / 32).clamp(MIN_TASK_CONSTRAINTS, TASK_CONSTRAINTS)
}

/// Lower bound of [`task_size`]: a task is at least a few grid cells.
const MIN_TASK_CONSTRAINTS: u32 = 16;

impl<const D: usize> XpbiContinuum<D> {
    /// Rebuilds the per-step frozen data from the current positions (called by `begin_substep`).
    pub(super) fn rebuild(&mut self, particles: &Particles<D>) -> Result<(), XpbiError> {
        if self.settings.kernel_frame == KernelFrame::Reference && !self.f_total.is_empty() {
            self.refresh_reference(particles);
            return Ok(());
        }
        self.rebuild_at(&particles.x)
    }

    /// [`Self::rebuild`] in the current frame from the global positions `x` (= xⁿ).
    pub(super) fn rebuild_at(&mut self, x: &[SVector<f64, D>]) -> Result<(), XpbiError> {
        let t0 = Instant::now();
        let support = self.kernel.support();
        let positions: Vec<SVector<f64, D>> =
            self.members.par_iter().map(|&m| x[m as usize]).collect();
        let cell = self.settings.colour_scheme.min_cell_size(support);
        let err = self.settings.grid_error("support_over_spacing", cell);
        let grid = UniformGrid::build(&positions, cell).map_err(&err)?;
        let nl =
            NeighbourLists::build(&grid, &positions, self.kernel.search_radius()).map_err(&err)?;
        let t1 = Instant::now();

        self.xn.clear();
        self.xn.par_extend(x.par_iter().copied());
        self.update_volumes();
        let n = self.members.len();
        // Rows in sweep order: the schedule is built first, from the grid alone.
        let reorder =
            self.settings.reorder_by_cell && self.settings.kernel_frame == KernelFrame::Current;
        self.build_schedule(&grid, support, reorder)?;
        let row_member = &self.row_member;
        let member_at = |row: usize| {
            if reorder {
                row_member[row] as usize
            } else {
                row
            }
        };
        if reorder {
            self.row_state.clear();
            self.row_state
                .par_extend(row_member.par_iter().map(|&m| self.state[m as usize]));
            self.row_compliance.clear();
            self.row_compliance.par_extend(
                row_member
                    .par_iter()
                    .map(|&m| self.inv_rest_volume[m as usize]),
            );
            if !self.member_material.is_empty() {
                self.row_material.clear();
                self.row_material.par_extend(
                    row_member
                        .par_iter()
                        .map(|&m| self.member_material[m as usize]),
                );
            }
        } else {
            self.row_state = Vec::new();
            self.row_compliance = Vec::new();
            self.row_material = Vec::new();
        }
        let volume = &self.volume;
        self.stencil_offsets.clear();
        self.stencil_offsets.push(0);
        let mut total = 0u32;
        for row in 0..n {
            total += nl.neighbours(member_at(row)).len() as u32 + 1;
            self.stencil_offsets.push(total);
        }
        let total = total as usize;
        // Grow by 10 % at a time (not the default doubling) to keep memory per particle low.
        if self.stencil.capacity() < total {
            self.stencil
                .reserve_exact(total + total / 10 - self.stencil.len());
            self.weights
                .reserve_exact(total + total / 10 - self.weights.len());
        }
        self.stencil.resize(total, 0);
        self.weights.resize(total, SVector::zeros());
        // Split the outputs into per-chunk slices (rows of a chunk are contiguous), then fill in
        // parallel; each chunk's content depends only on its rows.
        let mut jobs = Vec::with_capacity(n.div_ceil(ROWS_PER_CHUNK));
        {
            let (mut s, mut w) = (&mut self.stencil[..], &mut self.weights[..]);
            let mut consumed = 0usize;
            for chunk in 0..n.div_ceil(ROWS_PER_CHUNK) {
                let rows = chunk * ROWS_PER_CHUNK..((chunk + 1) * ROWS_PER_CHUNK).min(n);
                let end = self.stencil_offsets[rows.end] as usize;
                let len = end - consumed;
                let (s0, s1) = s.split_at_mut(len);
                let (w0, w1) = w.split_at_mut(len);
                jobs.push((rows, s0, w0));
                (s, w) = (s1, w1);
                consumed = end;
            }
        }
        let (members, kernel, threshold, offsets) = (
            &self.members,
            &self.kernel,
            self.settings.pinv_threshold,
            &self.stencil_offsets,
        );
        jobs.into_par_iter().for_each(|(rows, s, w)| {
            let base = offsets[rows.start] as usize;
            let mut q = Vec::new();
            for row in rows {
                let o = offsets[row] as usize - base;
                let p = member_at(row);
                let nb = nl.neighbours(p);
                let xp = positions[p];
                corrected_weights(
                    kernel,
                    threshold,
                    &xp,
                    nb.iter()
                        .map(|&b| (positions[b as usize], volume[b as usize])),
                    &mut q,
                );
                s[o] = members[p];
                let mut sum = SVector::<f64, D>::zeros();
                for (k, &b) in nb.iter().enumerate() {
                    s[o + 1 + k] = members[b as usize];
                    w[o + 1 + k] = q[k];
                    sum += q[k];
                }
                w[o] = -sum;
            }
        });
        self.update_rest_moment();
        if self.settings.kernel_frame == KernelFrame::Reference {
            self.reference_weights.clone_from(&self.weights);
            self.f_total = vec![SMatrix::identity(); n];
        }
        self.timings = XpbiTimings {
            neighbour_search: (t1 - t0).as_secs_f64(),
            frozen_data: t1.elapsed().as_secs_f64(),
        };
        Ok(())
    }

    /// The sweep schedule from the grid of the members' positions: colours → groups of cells
    /// (a slab of [`SweepOrder::Slabs`] or one cell of the 3^d (2^d) colouring; the groups of
    /// one colour touch disjoint particles) → the members of each cell. With `reorder` the
    /// rows are laid out in this order (`row_member`) and the schedule lists rows `0, 1, 2, …`;
    /// otherwise it lists member indices.
    fn build_schedule(
        &mut self,
        grid: &UniformGrid<D>,
        support: f64,
        reorder: bool,
    ) -> Result<(), XpbiError> {
        let split = self.settings.constraint_form == ConstraintForm::Split;
        let slabs = match self.settings.sweep {
            SweepOrder::Slabs => slab_colours(grid, support),
            SweepOrder::Cells => None,
        };
        let cells;
        let colours: Vec<Vec<&[u32]>> = match &slabs {
            Some(slabs) => slabs
                .iter()
                .map(|colour| colour.iter().map(Vec::as_slice).collect())
                .collect(),
            None => {
                cells = CellColouring::build(grid, self.settings.colour_scheme, support).map_err(
                    self.settings
                        .grid_error("support_over_spacing", grid.cell_size()),
                )?;
                cells
                    .colours()
                    .iter()
                    .map(|colour| colour.iter().map(std::slice::from_ref).collect())
                    .collect()
            }
        };
        self.schedule.order.clear();
        self.schedule.colours.clear();
        self.row_member.clear();
        for colour in colours {
            let mut tasks = Vec::new();
            let mut start = self.schedule.order.len() as u32;
            let task_constraints = task_size(
                colour
                    .iter()
                    .flat_map(|group| group.iter())
                    .map(|&cell| grid.cell_particles(cell as usize).len())
                    .sum::<usize>()
                    * if split { 2 } else { 1 },
            );
            for group in colour {
                for &cell in group {
                    let members = grid.cell_particles(cell as usize);
                    // The rows (constraints of the single form) of these members.
                    let first = self.row_member.len() as u32;
                    let rows = first..first + members.len() as u32;
                    if reorder {
                        self.row_member.extend_from_slice(members);
                    }
                    let order = &mut self.schedule.order;
                    match (reorder, split) {
                        // Shear then volume constraint of each particle, in the same task.
                        (true, true) => order.extend(rows.flat_map(|r| [2 * r, 2 * r + 1])),
                        (true, false) => order.extend(rows),
                        (false, true) => {
                            order.extend(members.iter().flat_map(|&c| [2 * c, 2 * c + 1]))
                        }
                        (false, false) => order.extend_from_slice(members),
                    }
                }
                // Consecutive groups of one colour are merged into tasks of at least
                // `task_size` constraints (a merged task runs sequentially, so
                // conflict-freedom is kept) to amortise the per-task synchronisation.
                let end = self.schedule.order.len() as u32;
                if end - start >= task_constraints {
                    tasks.push(start..end);
                    start = end;
                }
            }
            let end = self.schedule.order.len() as u32;
            if end > start {
                tasks.push(start..end);
            }
            self.schedule.colours.push(tasks);
        }
        debug_assert!(!reorder || self.row_member.len() == self.members.len());
        Ok(())
    }

    /// Current volumes `Vⁿ = V⁰ det Fⁿ` of the members.
    fn update_volumes(&mut self) {
        self.volume.clear();
        self.volume.par_extend(
            self.rest_volume
                .par_iter()
                .zip(self.f.par_iter())
                .map(|(v0, f)| v0 * crate::constraint::determinant(f)),
        );
    }

    /// `S_p` (see `w_moment`) from the current stencils and weights and the inverse masses `w`.
    pub(super) fn update_w_moment(&mut self, w: &[f64]) {
        let per = crate::projection::packed_len(D);
        let n = self.members.len();
        self.w_moment.resize(n * per, 0.0);
        let (stencil, weights, offsets) = (&self.stencil, &self.weights, &self.stencil_offsets);
        self.w_moment
            .par_chunks_mut(per * ROWS_PER_CHUNK)
            .enumerate()
            .for_each(|(chunk, rows)| {
                for (i, out) in rows.chunks_exact_mut(per).enumerate() {
                    let c = chunk * ROWS_PER_CHUNK + i;
                    let r = offsets[c] as usize..offsets[c + 1] as usize;
                    crate::projection::w_moment(&stencil[r.clone()], &weights[r], w, out);
                }
            });
        self.w_source = (w.as_ptr() as usize, w.len());
        self.w_all_positive = self
            .stencil
            .par_iter()
            .all(|&p| w.get(p as usize).is_some_and(|&v| v > 0.0));
    }

    /// `B_p = Σ_b (x_bⁿ − x_pⁿ) q_bᵀ` from the current weights and xⁿ, and the run kernel's
    /// SVD starting points `M_p = Fⁿ` (`V₀ = I`, see [`crate::projection::warm`]).
    fn update_rest_moment(&mut self) {
        let n = self.members.len();
        let (f, row_member) = (&self.f, &self.row_member);
        let f_of_row = |row: usize| match row_member.get(row) {
            Some(&m) => &f[m as usize],
            None => &f[row],
        };
        self.warm
            .reset((0..n).into_par_iter().map(|row| *f_of_row(row)));
        let (stencil, weights, xn, offsets) = (
            &self.stencil,
            &self.weights,
            &self.xn,
            &self.stencil_offsets,
        );
        let n = self.members.len();
        self.rest_moment.clear();
        self.rest_moment.par_extend((0..n).into_par_iter().map(|c| {
            let r = offsets[c] as usize..offsets[c + 1] as usize;
            let idx = &stencil[r.clone()];
            let q = &weights[r];
            let x0 = xn[idx[0] as usize];
            let mut b = SMatrix::<f64, D, D>::zeros();
            for k in 1..idx.len() {
                b += (xn[idx[k] as usize] - x0) * q[k].transpose();
            }
            b
        }));
    }

    /// [`KernelFrame::Reference`]: per-step data from the frozen reference stencils, weights
    /// pushed forward by the total deformation gradient, `q_k = F_tot,pⁿ⁻ᵀ q⁰_k` (an inverted
    /// or singular `F_tot` keeps `q⁰`; the state check reports the particle).
    fn refresh_reference(&mut self, particles: &Particles<D>) {
        let t0 = Instant::now();
        self.xn.clear();
        self.xn.extend_from_slice(&particles.x);
        self.update_volumes();
        let offsets = &self.stencil_offsets;
        let (f_total, reference) = (&self.f_total, &self.reference_weights);
        // Rows are contiguous: split the weights by particle, then fill in parallel.
        let n = self.members.len();
        let mut rows: Vec<&mut [SVector<f64, D>]> = Vec::with_capacity(n);
        {
            let mut w = &mut self.weights[..];
            for c in 0..n {
                let len = (offsets[c + 1] - offsets[c]) as usize;
                let (a, b) = w.split_at_mut(len);
                rows.push(a);
                w = b;
            }
        }
        rows.into_par_iter()
            .enumerate()
            .with_min_len(ROWS_PER_CHUNK)
            .for_each(|(c, row)| {
                let push = f_total[c]
                    .try_inverse()
                    .filter(|m| m.iter().all(|v| v.is_finite()))
                    .map(|m| m.transpose())
                    .unwrap_or_else(SMatrix::identity);
                let r0 = &reference[offsets[c] as usize..offsets[c + 1] as usize];
                for (q, q0) in row.iter_mut().zip(r0) {
                    *q = push * q0;
                }
            });
        self.update_rest_moment();
        self.timings = XpbiTimings {
            neighbour_search: 0.0,
            frozen_data: t0.elapsed().as_secs_f64(),
        };
    }
}
