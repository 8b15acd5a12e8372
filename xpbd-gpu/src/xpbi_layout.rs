//! The layout the XPBI shaders (`xpbi.wgsl`) and the host share: the uniform structs, the
//! storage-buffer count, the entry points and the colour count, used by the step
//! (`crate::xpbi`) and by its device plumbing (`crate::xpbi_device`).

use bytemuck::{Pod, Zeroable};

use crate::MAX_COLLIDERS;
use crate::layout::GpuCollider;
use crate::plasticity::GpuPlastic;
use crate::xpbi_scene::MAX_GPU_MATERIALS;

/// Storage buffers bound by the XPBI kernels (`xpbi.wgsl`, group 0 bindings 1–21).
pub const XPBI_STORAGE_BUFFERS: u32 = 21;

/// `struct XpbiParams` of `xpbi.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub struct GpuXpbiParams {
    pub(crate) n: u32,
    pub(crate) n_colliders: u32,
    pub(crate) flags: u32,
    pub(crate) pad0: u32,
    pub(crate) dt: f32,
    pub(crate) inv_dt: f32,
    pub(crate) omega: f32,
    pub(crate) support: f32,
    pub(crate) kernel_scale: f32,
    pub(crate) pinv_threshold: f32,
    pub(crate) xsph: f32,
    pub(crate) min_distance: f32,
    pub(crate) spacing2: f32,
    pub(crate) damping: f32,
    pub(crate) contact_accel: f32,
    pub(crate) contact_radius: f32,
    pub(crate) gravity: [f32; 4],
    /// A plane's offset includes the contact radius.
    pub(crate) colliders: [GpuCollider; MAX_COLLIDERS],
    pub(crate) materials: [GpuPlastic; MAX_GPU_MATERIALS],
}

/// `struct ColourParams` of `xpbi.wgsl` (one per colour, at a dynamic offset).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub struct GpuColourParams {
    pub(crate) offset: [u32; 4],
    pub(crate) dims: [u32; 4],
    pub(crate) count: [u32; 4],
    pub(crate) pad: [u32; 4],
}

/// Colours of the coloured Gauss-Seidel sweep (3 per axis).
pub(crate) const COLOURS: usize = 27;

/// Names of the `xpbi.wgsl` entry points, in the order of `xpbi_device::Pipes`.
pub const XPBI_ENTRY_POINTS: [&str; 14] = [
    "stats",
    "volumes",
    "count_incidence",
    "frozen",
    "predict",
    "solve",
    "apply",
    "velocities",
    "xsph",
    "xsph_apply",
    "update_f",
    "gs_contacts",
    "gs_spacing",
    "gs_xpbi",
];

/// Bytes of a storage buffer of `len` elements of `stride` bytes (at least one element:
/// wgpu refuses empty bindings).
pub(crate) fn storage_bytes(len: usize, stride: usize) -> u64 {
    (len.max(1) * stride) as u64
}
