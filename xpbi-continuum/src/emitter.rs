//! Particle inflow through a nozzle (extrusion, pouring), 2D and 3D.
//!
//! The material that will leave the nozzle during the run exists from the start as a
//! *reservoir*: a lattice of spacing Δx filling the nozzle cross-section (a segment of width
//! `2a` in 2D, a disc of radius `a` in 3D, normal to the vertical axis) over the length `v T`
//! above the exit. Inside the nozzle the reservoir moves rigidly down at the inflow speed `v`
//! as kinematic particles (inverse mass 0, positions driven through the core's kinematic
//! targets, so their velocity is exactly `v` and their `F` stays `I`); a particle is released —
//! made dynamic with its mass and the velocity `v` — before the step in which its centre
//! reaches the exit plane, to the nearest step: when it is less than half a step's travel
//! (`v Δt / 2`) above the exit. Half a step keeps the decision away from ties: a nozzle whose
//! lattice layers arrive at the exit exactly on step boundaries (`Δx / (2 v Δt)` a whole
//! number, as scene files are written) has every decision at least `v Δt / 2` from the
//! threshold, so backends that hold positions in different precisions (f64 on the CPU, f32 on
//! the GPU) release the same particles in the same step. Released material is therefore attached to the material still in the nozzle through
//! the XPBI constraint (a toothpaste strand hangs from the nozzle, cohesionless sand detaches:
//! Drucker–Prager tension is stress free), which is what an extruder does.
//!
//! Mass balance: released mass after time `t` is `ρ A v t` up to one lattice layer, with
//! `A = n_c Δx^{d−1}` the discrete cross-section (`n_c` lattice columns inside the nozzle); the
//! physical checks in the tests measure the mass that crossed a control plane *below* the exit.

use nalgebra::SVector;
use xpbd_core::Particles;

use crate::scene::ContinuumScene;

/// A vertical nozzle whose exit (the centre of the outlet plane) is at `exit`.
#[derive(Debug, Clone, PartialEq)]
pub struct Nozzle<const D: usize> {
    /// Centre of the exit plane (m).
    pub exit: SVector<f64, D>,
    /// Half-width (2D) or radius (3D) `a` of the outlet (m).
    pub half_width: f64,
    /// Inflow speed `v` (m/s, downwards).
    pub speed: f64,
    /// Particle spacing Δx (m).
    pub spacing: f64,
    /// Every reservoir particle (global ids), lowest layer first.
    ids: Vec<usize>,
    /// Inverse mass given to a particle when it is released.
    inv_mass: f64,
    /// How many of `ids` (a prefix: the reservoir releases in order) have been released.
    released: usize,
    /// Lattice columns in the cross-section (`n_c`).
    columns: usize,
}

impl<const D: usize> Nozzle<D> {
    /// The reservoir lattice for an inflow of `duration` seconds: columns at the horizontal
    /// lattice points `(i + ½)Δx − a` inside the outlet, layers at heights
    /// `exit + (k + ½)Δx`, `k = 0 … ⌈v T / Δx⌉ − 1`; returns the positions (lowest layer first)
    /// and the number of columns `n_c`.
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use xpbi_continuum::emitter::Nozzle;
    /// let (x, columns) = Nozzle::<2>::reservoir(Vector2::new(0.0, 0.1), 0.01, 0.2, 0.5, 0.005);
    /// assert_eq!(columns, 4);
    /// assert_eq!(x.len(), 4 * 20);
    /// assert!(x.iter().all(|p| p[1] > 0.1 && p[0].abs() < 0.01));
    /// ```
    pub fn reservoir(
        exit: SVector<f64, D>,
        half_width: f64,
        speed: f64,
        duration: f64,
        spacing: f64,
    ) -> (Vec<SVector<f64, D>>, usize) {
        let per_axis = ((2.0 * half_width / spacing) + 1e-9).floor().max(1.0) as usize;
        let offset = 0.5 * (per_axis as f64 - 1.0) * spacing;
        let layers = ((speed * duration / spacing) - 1e-9).ceil().max(0.0) as usize;
        let mut section: Vec<SVector<f64, D>> = Vec::new();
        let cells = per_axis.pow(D as u32 - 1);
        for mut k in 0..cells {
            let mut p = SVector::<f64, D>::zeros();
            for a in 0..D - 1 {
                p[a] = (k % per_axis) as f64 * spacing - offset;
                k /= per_axis;
            }
            // 3D: a round outlet (the lattice points inside the disc of radius a).
            if D == 2 || p.norm() <= half_width {
                section.push(p);
            }
        }
        let columns = section.len();
        let mut x = Vec::with_capacity(columns * layers);
        for k in 0..layers {
            for s in &section {
                let mut p = exit + s;
                p[D - 1] = exit[D - 1] + (k as f64 + 0.5) * spacing;
                x.push(p);
            }
        }
        (x, columns)
    }

    /// Drives the reservoir particles `ids` (positions from [`Nozzle::reservoir`], in the same
    /// order) of `scene`: pins them and gives them the inflow velocity. `columns` is the
    /// second value returned by [`Nozzle::reservoir`].
    pub fn attach(
        scene: &mut ContinuumScene<D>,
        ids: Vec<usize>,
        exit: SVector<f64, D>,
        half_width: f64,
        speed: f64,
        columns: usize,
    ) -> Self {
        let spacing = scene.options.spacing;
        let p = scene.sim.particles_mut();
        let inv_mass = ids.first().map_or(0.0, |&i| p.inv_mass[i]);
        for &i in &ids {
            p.pin(i);
            p.v[i][D - 1] = -speed;
        }
        Self::new(ids, exit, half_width, speed, spacing, columns, inv_mass)
    }

    /// A nozzle over reservoir particles `ids` (lowest layer first) that the caller has made
    /// kinematic (inverse mass 0) with the inflow velocity; `inv_mass` is given to each on
    /// release. This is how a nozzle drives particles of a shared simulation (a scene file's).
    pub fn new(
        ids: Vec<usize>,
        exit: SVector<f64, D>,
        half_width: f64,
        speed: f64,
        spacing: f64,
        columns: usize,
        inv_mass: f64,
    ) -> Self {
        Self {
            exit,
            half_width,
            speed,
            spacing,
            ids,
            inv_mass,
            released: 0,
            columns,
        }
    }

    /// Call before every step of `dt`: releases the particles whose centre is less than
    /// `v dt / 2` above the exit plane (module docs) and moves the others' kinematic targets
    /// down by `v dt`.
    pub fn before_step(&mut self, scene: &mut ContinuumScene<D>, dt: f64) {
        self.drive(scene.sim.particles_mut(), dt);
    }

    /// [`Nozzle::before_step`] on the particles themselves.
    pub fn drive(&mut self, p: &mut Particles<D>, dt: f64) {
        let threshold = self.exit[D - 1] + 0.5 * self.speed * dt;
        while self.released < self.ids.len() && p.x[self.ids[self.released]][D - 1] < threshold {
            let i = self.ids[self.released];
            p.inv_mass[i] = self.inv_mass;
            p.kinematic_target[i] = None;
            p.v[i] = SVector::zeros();
            p.v[i][D - 1] = -self.speed;
            self.released += 1;
        }
        for &i in &self.ids[self.released..] {
            let mut t = p.x[i];
            t[D - 1] -= self.speed * dt;
            p.kinematic_target[i] = Some(t);
        }
    }

    /// Re-derives the released count from restored particles (released ones have a mass, and
    /// they form a prefix): after a checkpoint is loaded.
    pub fn resync(&mut self, p: &Particles<D>) {
        self.released = self
            .ids
            .iter()
            .take_while(|&&i| p.inv_mass[i] > 0.0)
            .count();
    }

    /// Lattice columns in the cross-section (`n_c`).
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Particles released so far.
    pub fn released(&self) -> usize {
        self.released
    }

    /// Particles still in the nozzle.
    pub fn pending(&self) -> usize {
        self.ids.len() - self.released
    }

    /// Discrete outlet cross-section `A = n_c Δx^{d−1}` (m^{d−1}).
    pub fn area(&self) -> f64 {
        self.columns as f64 * self.spacing.powi(D as i32 - 1)
    }

    /// Volume flux `A v` (m^d/s).
    pub fn volume_rate(&self) -> f64 {
        self.area() * self.speed
    }
}
