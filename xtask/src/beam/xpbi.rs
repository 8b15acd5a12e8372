//! The XPBI cantilever: particles on a lattice of spacing `Δx = min(L/(2N), H/4)`
//! (N = `cells`), three extra layers behind `x = 0` pinned as the clamp (the kernel support is
//! 2Δx, so clamped particles fill every free particle's neighbourhood), Hencky-StVK elastic
//! material, one XPBI step per XPBD substep. The beam is lifted by `2L + H` so the scene's
//! ground plane is never reached. The tip displacement is the centroid displacement of the last
//! particle layer (at `x = L − Δx/2`) extrapolated linearly to `x = L` with the layer before it.
//!
//! **Lagrangian kernels.** The continuum runs with
//! `xpbi_continuum::continuum::KernelFrame::Reference` (kernels, neighbours and `L_p` frozen on
//! the unloaded beam, weights pushed forward by the total deformation gradient). With XPBI's
//! per-step Eulerian kernels the beam suffers the SPH tensile instability (Swegle et al. 1995):
//! measured at Δx = H/4, the stored strain saturates near 6–8 % in the tensile fibres at the
//! clamp and the beam tears off and falls to the ground for E ≤ 1e6 Pa (tip ≈ −1.1 m in the
//! earlier study), whatever the iterations, XSPH or damping. See `KernelFrame` for the analysis.
//!
//! **Time step.** Even with Lagrangian kernels, the discrete particle energy is not convex for
//! single-particle (non-affine) motions of stressed surface particles, and a backward-Euler step
//! much longer than the acoustic time `Δx/c` (`c = sqrt((λ+2μ)/ρ)`) then converges (residual
//! 1e-12) to a period-2 oscillation (measured: h = 1.5 Δx/c jitters at 0.2 m/s next to the clamp,
//! h = 0.7 Δx/c is quiet). [`xpbi_max_substep`] gives the bound the study respects.
//!
//! **Accuracy.** Surface particles see one-sided neighbourhoods, where the corrected gradient
//! is exact for linear fields only: the bending strain of the outer fibres is evaluated about
//! half a spacing inwards, so the beam is too soft by O(Δx/H): measured in 2D plane strain at
//! small deflection +48 % and +15 % at 4 and 8 particles through the height (order ≈ 1.7;
//! order-2 Richardson extrapolation within 4.1 % of Timoshenko; `xpbi-continuum` test
//! `cantilever`), and +48 % on the 3D study beam at E = 1e7 Pa, 5 cells (4 particles through
//! the height) against FEM Hencky order 2. The study's XPBI error is this discretisation error,
//! not a solver failure.

use anyhow::{Context, Result};
use nalgebra::Vector3;
use std::time::Instant;
use xpbd_core::Vector;
use xpbd_core::cantilever::Cantilever;
use xpbi_continuum::Material;
use xpbi_continuum::continuum::KernelFrame;
use xpbi_continuum::scene::{ContinuumScene, SceneOptions, lattice_box};

use super::{Method, RunOptions, RunResult, drive, omega1};

/// Largest XPBI step for the beam at `cells`: the smaller of the acoustic bound `0.7 Δx / c`,
/// `c = sqrt((λ + 2μ)/ρ)` (see the module docs for the measurement behind the factor), and the
/// scene's kinematic CFL bound `0.4 · 2Δx / v` at `v = 3 sqrt(g L)` (a soft beam swinging down
/// from horizontal reaches about `sqrt(2 g L)`; measured 4.8 m/s with jitter at E = 1e4 Pa).
pub fn xpbi_max_substep(beam: &Cantilever, cells: usize) -> f64 {
    let dx = xpbi_spacing(beam, cells);
    let material = Material::elastic(beam.density, beam.youngs, beam.poisson);
    let acoustic = 0.7 * dx / material.wave_speed();
    let kinematic = 0.4 * 2.0 * dx / (3.0 * (beam.gravity * beam.length).sqrt());
    acoustic.min(kinematic)
}

/// Particle spacing for `cells` cells along the length.
pub fn xpbi_spacing(beam: &Cantilever, cells: usize) -> f64 {
    (beam.length / (2.0 * cells as f64))
        .min(beam.height / 4.0)
        .min(beam.width / 4.0)
}

/// Reference particle positions (clamp layers included, not lifted) and the spacing.
pub fn xpbi_beam_positions(beam: &Cantilever, cells: usize) -> (Vec<Vector<3>>, f64) {
    let dx = xpbi_spacing(beam, cells);
    let x = lattice_box(
        Vector3::new(-3.0 * dx, 0.0, 0.0),
        Vector3::new(beam.length, beam.width, beam.height),
        dx,
    );
    (x, dx)
}

pub(super) fn run_xpbi(beam: &Cantilever, method: Method, opts: &RunOptions) -> Result<RunResult> {
    let start = Instant::now();
    let (rest, dx) = xpbi_beam_positions(beam, opts.cells);
    let lift = Vector3::new(0.0, 0.0, 2.0 * beam.length + beam.height);
    let lifted: Vec<Vector<3>> = rest.iter().map(|x| x + lift).collect();
    let h = opts.dt / opts.substeps.max(1) as f64;
    let mut o = SceneOptions::new(dx);
    o.dt = h;
    o.iterations = opts.iterations;
    o.solver = method.solver().expect("XPBI method");
    o.spacing_constraints = false;
    o.ground_friction = 0.0;
    o.threads = opts.threads;
    if opts.seconds.is_none() {
        o.velocity_damping = 2.0 * omega1(beam);
    }
    let material = Material::elastic(beam.density, beam.youngs, beam.poisson);
    let mut scene = ContinuumScene::new(&lifted, material, o)?;
    // Lagrangian kernels on the unloaded beam (tensile stability; module docs).
    scene
        .continuum_mut()
        .set_kernel_frame(KernelFrame::Reference);
    {
        let p = scene.sim.particles_mut();
        for (i, x) in rest.iter().enumerate() {
            if x.x < 0.0 {
                p.inv_mass[i] = 0.0;
            }
        }
    }
    let last: Vec<usize> = layer(&rest, beam.length - 0.5 * dx, dx);
    let prev: Vec<usize> = layer(&rest, beam.length - 1.5 * dx, dx);
    anyhow::ensure!(
        !last.is_empty() && !prev.is_empty(),
        "beam too short for two particle layers"
    );
    let tip = |scene: &ContinuumScene<3>| -> Vector<3> {
        let x = scene.positions();
        let mean = |l: &[usize]| -> Vector<3> {
            l.iter().map(|&i| x[i] - lifted[i]).sum::<Vector<3>>() / l.len() as f64
        };
        let (a, b) = (mean(&last), mean(&prev));
        a + (a - b) * 0.5
    };
    let substeps = opts.substeps.max(1);
    let out = drive(beam, opts, || {
        for _ in 0..substeps {
            scene.step().map_err(anyhow::Error::from)?;
        }
        let vmax = scene
            .sim
            .particles()
            .v
            .iter()
            .map(|v| v.norm())
            .fold(0.0, f64::max);
        Ok((tip(&scene), vmax))
    })
    .context("XPBI cantilever")?;
    let mut s = scene.sim.settings().clone();
    s.diagnostics.residuals = true;
    scene.sim.set_settings(s)?;
    scene.step()?;
    let residual_history = scene.sim.last_report().residuals.clone();
    let u = tip(&scene);
    Ok(RunResult {
        method: method.name().into(),
        material: "hencky".into(),
        order: 0,
        cells: opts.cells,
        dofs: 3 * rest.len(),
        newton_iterations: None,
        seconds: start.elapsed().as_secs_f64(),
        substeps,
        iterations: opts.iterations,
        dt: opts.dt,
        simulated_seconds: out.simulated,
        steps: out.steps,
        at_rest: out.at_rest,
        wall_per_step: out.wall_per_step,
        tip_displacement_x: u.x,
        tip_displacement_z: u.z,
        residual_history,
        trajectory: out.trajectory,
    })
}

fn layer(rest: &[Vector<3>], x: f64, dx: f64) -> Vec<usize> {
    rest.iter()
        .enumerate()
        .filter(|(_, p)| (p.x - x).abs() < 0.25 * dx)
        .map(|(i, _)| i)
        .collect()
}
