//! Shared helpers for the integration tests: a seeded RNG and jittered lattices.
#![allow(dead_code)]

use nalgebra::{SMatrix, SVector};

/// SplitMix64, deterministic and dependency free.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in [a, b).
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.next_f64()
    }
    pub fn vector<const D: usize>(&mut self, a: f64, b: f64) -> SVector<f64, D> {
        SVector::from_fn(|_, _| self.uniform(a, b))
    }
    pub fn matrix<const D: usize>(&mut self, a: f64, b: f64) -> SMatrix<f64, D, D> {
        SMatrix::from_fn(|_, _| self.uniform(a, b))
    }
}

/// Points of a lattice of spacing `dx` within `radius` of the origin (origin excluded), jittered
/// by up to `jitter · dx` per axis, optionally only the half-space `x_{D-1} ≥ 0` (free surface).
pub fn lattice_neighbourhood<const D: usize>(
    dx: f64,
    radius: f64,
    jitter: f64,
    half_space: bool,
    rng: &mut Rng,
) -> Vec<SVector<f64, D>> {
    let n = (radius / dx).ceil() as i64 + 1;
    let mut out = Vec::new();
    let total = (2 * n + 1).pow(D as u32);
    for k in 0..total {
        let mut idx = [0i64; 3];
        let mut r = k;
        for a in 0..D {
            idx[a] = r % (2 * n + 1) - n;
            r /= 2 * n + 1;
        }
        if idx[..D].iter().all(|&i| i == 0) {
            continue;
        }
        if half_space && idx[D - 1] < 0 {
            continue;
        }
        let x = SVector::<f64, D>::from_fn(|a, _| {
            idx[a] as f64 * dx + jitter * dx * rng.uniform(-1.0, 1.0)
        });
        if x.norm() < radius * 0.999 && (!half_space || x[D - 1] >= 0.0) {
            out.push(x);
        }
    }
    out
}

/// Random rotation from a random matrix (polar factor via the shared SVD).
pub fn random_rotation<const D: usize>(rng: &mut Rng) -> SMatrix<f64, D, D> {
    let a: SMatrix<f64, D, D> = rng.matrix(-1.0, 1.0);
    let (u, _, v) = xpbd_core::energy::svd::rotation_variant_svd(&a);
    u * v.transpose()
}

/// `R₁ diag(σ) R₂` with σ uniform in [lo, hi].
pub fn random_f<const D: usize>(rng: &mut Rng, lo: f64, hi: f64) -> SMatrix<f64, D, D> {
    let s = SVector::<f64, D>::from_fn(|_, _| rng.uniform(lo, hi));
    random_rotation::<D>(rng) * SMatrix::from_diagonal(&s) * random_rotation::<D>(rng)
}
