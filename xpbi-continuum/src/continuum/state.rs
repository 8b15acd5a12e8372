//! Checkpoint state of [`XpbiContinuum`] (`ConstraintKind::save_state`/`load_state`), and the
//! memory the block holds per particle.

use nalgebra::{SMatrix, SVector};
use xpbd_core::BuildError;

use super::XpbiContinuum;
use crate::plasticity::PlasticState;

/// Checkpoint state (`ConstraintKind::save_state`/`load_state`): what an XPBI continuum carries
/// from step to step besides the particles is Fⁿ and the plastic state of every member (the
/// Updated-Lagrangian method keeps no rest shape; neighbour lists, Vⁿ = V⁰ det Fⁿ, L_p, weights
/// and the schedule are rebuilt from xⁿ and Fⁿ in `begin_substep`), plus, with
/// [`KernelFrame::Reference`](super::KernelFrame::Reference), the total deformation gradients (the reference kernels, stencils
/// and weights are those of the construction-time configuration, rebuilt with the scene).
impl<const D: usize> XpbiContinuum<D> {
    /// Values per member in [`XpbiContinuum::state_vector`]: F (column-major), hardening,
    /// volume correction.
    pub const STATE_PER_MEMBER: usize = D * D + 2;

    /// `[F₀ (column-major), q₀, v_c0, F₁, …]` over the members, then, with
    /// [`KernelFrame::Reference`](super::KernelFrame::Reference), `[F_tot,0, F_tot,1, …]` (column-major).
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use xpbd_core::{Particles, constraint::ConstraintKind};
    /// use xpbi_continuum::continuum::{KernelFrame, XpbiContinuum, XpbiSettings};
    /// use xpbi_continuum::{Material, scene::lattice_box};
    /// let mut p = Particles::<2>::new();
    /// for x in lattice_box(Vector2::new(0.0, 0.0), Vector2::new(0.05, 0.05), 0.01) {
    ///     p.push(x, 1.0);
    /// }
    /// let n = p.len();
    /// let members: Vec<u32> = (0..n as u32).collect();
    /// let settings = XpbiSettings::new(0.01);
    /// let mut c = XpbiContinuum::new(&p, members.clone(), vec![1e-4; n], Material::sand(), settings).unwrap();
    /// let mut s = c.save_state();
    /// assert_eq!(s.len(), n * 6);
    /// (s[0], s[5]) = (1.1, 0.3); // F₀₀ and the volume correction of member 0
    /// c.load_state(&s).unwrap();
    /// assert_eq!(c.deformation_gradients()[0][(0, 0)], 1.1);
    /// assert_eq!(c.plastic_states()[0].volume_correction, 0.3);
    /// assert_eq!(c.save_state(), s);
    /// s[7] = f64::NAN;
    /// assert!(c.load_state(&s).is_err() && c.load_state(&s[1..]).is_err());
    /// assert_eq!(c.deformation_gradients()[1], nalgebra::Matrix2::identity());
    /// // Lagrangian kernels: the total deformation gradients follow.
    /// let mut r = XpbiContinuum::new(&p, members, vec![1e-4; n], Material::sand(),
    ///     XpbiSettings { kernel_frame: KernelFrame::Reference, ..settings }).unwrap();
    /// let mut s = r.save_state();
    /// assert_eq!(s.len(), n * 6 + n * 4);
    /// s[n * 6 + 1] = 0.2; // F_tot of member 0, entry (1, 0)
    /// r.load_state(&s).unwrap();
    /// assert_eq!(r.save_state(), s);
    /// assert!(r.load_state(&s[..n * 6]).is_err());
    /// ```
    pub fn state_vector(&self) -> Vec<f64> {
        let mut out =
            Vec::with_capacity(self.f.len() * Self::STATE_PER_MEMBER + self.f_total.len() * D * D);
        for (f, s) in self.f.iter().zip(&self.state) {
            // Exhaustive: a new PlasticState field must be added here (compile error otherwise).
            let PlasticState {
                hardening,
                volume_correction,
            } = *s;
            out.extend(f.iter());
            out.extend([hardening, volume_correction]);
        }
        for f in &self.f_total {
            out.extend(f.iter());
        }
        out
    }

    /// Restores a [`XpbiContinuum::state_vector`]; on error (wrong length, non-finite value)
    /// nothing changes.
    pub fn set_state_vector(&mut self, state: &[f64]) -> Result<(), BuildError> {
        let k = Self::STATE_PER_MEMBER;
        let n = self.f.len();
        if state.len() != n * k + self.f_total.len() * D * D {
            return Err(BuildError::InvalidSetting {
                field: "xpbi state length",
                value: state.len() as f64,
                reason: "must be (D² + 2) × the number of continuum particles (+ D² each with \
                         Lagrangian kernels)",
            });
        }
        if let Some(i) = state.iter().position(|v| !v.is_finite()) {
            let member = if i < n * k {
                i / k
            } else {
                (i - n * k) / (D * D)
            };
            return Err(BuildError::NonFiniteState {
                particle: self.members[member] as usize,
                field: "xpbi deformation gradient or plastic state",
            });
        }
        let (per_member, totals) = state.split_at(n * k);
        for ((f, s), chunk) in self
            .f
            .iter_mut()
            .zip(&mut self.state)
            .zip(per_member.chunks_exact(k))
        {
            *f = SMatrix::from_column_slice(&chunk[..D * D]);
            s.hardening = chunk[D * D];
            s.volume_correction = chunk[D * D + 1];
        }
        for (f, chunk) in self.f_total.iter_mut().zip(totals.chunks_exact(D * D)) {
            *f = SMatrix::from_column_slice(chunk);
        }
        Ok(())
    }

    /// Bytes held per member particle by this block (capacity of every buffer).
    pub fn bytes_per_particle(&self) -> f64 {
        let v = std::mem::size_of::<SVector<f64, D>>();
        let m = std::mem::size_of::<SMatrix<f64, D, D>>();
        let bytes = self.members.capacity() * 4
            + self.member_index.capacity() * 4
            + (self.rest_volume.capacity() + self.inv_rest_volume.capacity()) * 8
            + self.f.capacity() * m
            + self.state.capacity() * std::mem::size_of::<PlasticState>()
            + self
                .backup
                .as_ref()
                .map_or(0, |(f, s)| f.capacity() * m + s.capacity() * 16)
            + self.xn.capacity() * v
            + self.rest_moment.capacity() * m
            + self.stencil_offsets.capacity() * 4
            + self.stencil.capacity() * 4
            + self.weights.capacity() * v
            + self.volume.capacity() * 8
            + self.reference_weights.capacity() * v
            + self.warm.capacity() * m
            + self.w_moment.capacity() * 8
            + self.member_material.capacity()
            + self.row_material.capacity()
            + self.row_member.capacity() * 4
            + self.row_state.capacity() * std::mem::size_of::<PlasticState>()
            + self.row_compliance.capacity() * 8
            + (self.f_total.capacity() + self.backup_total.capacity()) * m
            + (self.schedule.order.capacity() * 4
                + self
                    .schedule
                    .colours
                    .iter()
                    .map(|c| c.capacity() * 8)
                    .sum::<usize>());
        bytes as f64 / self.members.len().max(1) as f64
    }
}
