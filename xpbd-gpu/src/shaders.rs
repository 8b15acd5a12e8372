//! The WGSL sources, embedded at compile time. Every file in `src/shaders/` is listed in
//! `ALL` and parsed + validated by naga in this module's tests, so a shader error fails
//! `cargo test` even on a machine without any adapter.

/// `colliders.wgsl` (static colliders: the packed collider and its signed distance, a function
/// library for a module that declares `sdf_nodes`) with the one binding it reads, as validated
/// on its own.
#[cfg(test)]
const COLLIDERS_CHECK: &str = concat!(
    include_str!("shaders/colliders.wgsl"),
    "@group(0) @binding(0) var sdf_nodes: texture_2d<f32>;\n"
);

/// XPBD kernels: predict, multiplier reset, coloured / sequential Gauss-Seidel, Jacobi
/// compute + gather, colliders, velocity update with friction and fault detection;
/// `colliders.wgsl` + `xpbd.wgsl` as one module.
pub const XPBD_WGSL: &str = concat!(
    include_str!("shaders/colliders.wgsl"),
    include_str!("shaders/xpbd.wgsl")
);

/// Neighbour grid (XPBI): bin, scatter, per-cell sort, neighbour count and fill.
pub const GRID_WGSL: &str = include_str!("shaders/grid.wgsl");

/// Single-workgroup exclusive prefix sum.
pub const SCAN_WGSL: &str = include_str!("shaders/scan.wgsl");

#[cfg(test)]
/// Rotation-variant 3×3 SVD (function library, no bindings; prepend to a module).
pub const SVD3_WGSL: &str = include_str!("shaders/svd3.wgsl");

/// `svd3.wgsl` + its batch driver (`svd3_batch.wgsl`), as one module.
pub const SVD3_BATCH_MODULE: &str = concat!(
    include_str!("shaders/svd3.wgsl"),
    include_str!("shaders/svd3_batch.wgsl")
);

#[cfg(test)]
/// Return mappings (von Mises, Drucker–Prager) on Hencky strain; needs `svd3.wgsl` first.
pub const PLASTICITY_MODULE: &str = concat!(
    include_str!("shaders/svd3.wgsl"),
    include_str!("shaders/plasticity.wgsl")
);

/// `svd3.wgsl` + `plasticity.wgsl` + the batch driver, as one module.
pub const PLASTICITY_BATCH_MODULE: &str = concat!(
    include_str!("shaders/svd3.wgsl"),
    include_str!("shaders/plasticity.wgsl"),
    include_str!("shaders/plasticity_batch.wgsl")
);

/// The XPBI step kernels; `svd3.wgsl` + `plasticity.wgsl` + `colliders.wgsl` + `xpbi.wgsl`
/// as one module.
pub const XPBI_MODULE: &str = concat!(
    include_str!("shaders/svd3.wgsl"),
    include_str!("shaders/plasticity.wgsl"),
    include_str!("shaders/colliders.wgsl"),
    include_str!("shaders/xpbi.wgsl")
);

/// Contacts between bodies (particle pairs, points against triangles) with Coulomb friction,
/// over the XPBD bodies' and the continuum's particles.
pub const BODIES_WGSL: &str = include_str!("shaders/bodies.wgsl");

/// Position-based fluids: gathered positions and their bounding box, the density constraints
/// in cell colours, vorticity, XSPH.
pub const FLUID_WGSL: &str = include_str!("shaders/fluid.wgsl");

#[cfg(test)]
/// `(file name, module it is validated as)` for every file in `src/shaders/` (a file that
/// uses a library is validated composed with it).
pub const ALL: &[(&str, &str)] = &[
    ("colliders.wgsl", COLLIDERS_CHECK),
    ("xpbd.wgsl", XPBD_WGSL),
    ("grid.wgsl", GRID_WGSL),
    ("scan.wgsl", SCAN_WGSL),
    ("svd3.wgsl", SVD3_WGSL),
    ("svd3_batch.wgsl", SVD3_BATCH_MODULE),
    ("plasticity.wgsl", PLASTICITY_MODULE),
    ("plasticity_batch.wgsl", PLASTICITY_BATCH_MODULE),
    ("xpbi.wgsl", XPBI_MODULE),
    ("bodies.wgsl", BODIES_WGSL),
    ("fluid.wgsl", FLUID_WGSL),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{GpuCollider, GpuColliders, GpuConstraint, GpuDispatch, GpuParams};
    use crate::plasticity::GpuPlastic;

    fn validated(name: &str, src: &str) -> (naga::Module, naga::valid::ModuleInfo) {
        let module = naga::front::wgsl::parse_str(src)
            .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(src)));
        let info = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::empty(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(src)));
        (module, info)
    }

    #[test]
    fn every_shader_file_is_listed() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/shaders");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".wgsl"))
            .collect();
        on_disk.sort();
        let mut listed: Vec<String> = ALL.iter().map(|(n, _)| n.to_string()).collect();
        listed.sort();
        assert_eq!(on_disk, listed);
    }

    /// Parse + validate with naga (no capabilities: the shaders must run on any WebGPU
    /// adapter, hence no f64, no float atomics, no i64).
    #[test]
    fn every_shader_parses_and_validates_without_capabilities() {
        for (name, src) in ALL {
            validated(name, src);
        }
    }

    #[test]
    fn xpbd_module_has_every_entry_point_the_pipelines_use() {
        let (module, _) = validated("xpbd.wgsl", XPBD_WGSL);
        let mut names: Vec<&str> = module
            .entry_points
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "collide",
                "jacobi_apply",
                "jacobi_compute",
                "predict",
                "reset_multipliers",
                "solve_colour",
                "solve_sequential",
                "update_velocity"
            ]
        );
    }

    /// The Rust Pod mirrors have the byte sizes naga computes for the WGSL structs (a
    /// mismatch would silently shift every field on the device).
    #[test]
    fn pod_structs_match_the_wgsl_struct_sizes() {
        let (module, _) = validated("xpbd.wgsl", XPBD_WGSL);
        let mut layouter = naga::proc::Layouter::default();
        layouter.update(module.to_ctx()).unwrap();
        let size_of = |name: &str| {
            let (handle, _) = module
                .types
                .iter()
                .find(|(_, t)| t.name.as_deref() == Some(name))
                .unwrap_or_else(|| panic!("struct {name} not in the shader"));
            layouter[handle].size as usize
        };
        assert_eq!(size_of("Params"), std::mem::size_of::<GpuParams>());
        assert_eq!(size_of("Dispatch"), std::mem::size_of::<GpuDispatch>());
        assert_eq!(size_of("Constraint"), std::mem::size_of::<GpuConstraint>());
        assert_eq!(size_of("Collider"), std::mem::size_of::<GpuCollider>());
        assert_eq!(size_of("Colliders"), std::mem::size_of::<GpuColliders>());
        let (plastic, _) = validated("plasticity.wgsl", PLASTICITY_MODULE);
        let (handle, _) = plastic
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some("Plastic"))
            .unwrap();
        let mut layouter = naga::proc::Layouter::default();
        layouter.update(plastic.to_ctx()).unwrap();
        assert_eq!(
            layouter[handle].size as usize,
            std::mem::size_of::<GpuPlastic>()
        );
    }

    /// The XPBI module has every entry point the host dispatches, and its uniform struct has
    /// the size of the Rust mirror.
    #[test]
    fn xpbi_module_entry_points_and_params_size() {
        let (module, _) = validated("xpbi.wgsl", XPBI_MODULE);
        let mut names: Vec<&str> = module
            .entry_points
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        names.sort();
        let mut want = crate::xpbi_layout::XPBI_ENTRY_POINTS.to_vec();
        want.sort();
        assert_eq!(names, want);
        let mut layouter = naga::proc::Layouter::default();
        layouter.update(module.to_ctx()).unwrap();
        let size_of = |name: &str| {
            let (handle, _) = module
                .types
                .iter()
                .find(|(_, t)| t.name.as_deref() == Some(name))
                .unwrap_or_else(|| panic!("struct {name} not in the shader"));
            layouter[handle].size as usize
        };
        assert_eq!(
            size_of("XpbiParams"),
            std::mem::size_of::<crate::xpbi::GpuXpbiParams>()
        );
        assert_eq!(size_of("Plastic"), std::mem::size_of::<GpuPlastic>());
        assert_eq!(
            size_of("ColourParams"),
            std::mem::size_of::<crate::xpbi::GpuColourParams>()
        );
        // Group 0: the uniform at 0, storage bindings 1..=21 and the signed-distance atlas
        // (22), as the host's bind group layout; group 1: the colour uniform.
        let mut bindings: Vec<(u32, u32)> = module
            .global_variables
            .iter()
            .filter_map(|(_, g)| g.binding.as_ref().map(|b| (b.group, b.binding)))
            .collect();
        bindings.sort();
        let mut want: Vec<(u32, u32)> = (0..=crate::xpbi::XPBI_STORAGE_BUFFERS)
            .map(|b| (0, b))
            .collect();
        want.push((0, crate::xpbi::XPBI_STORAGE_BUFFERS + 1));
        want.sort();
        want.push((1, 0));
        assert_eq!(bindings, want);
    }

    /// A broken shader is caught by the same check (the test above could not fail if the
    /// validator accepted everything).
    #[test]
    fn naga_rejects_a_type_error() {
        let bad = "@compute @workgroup_size(1) fn main() { let a: f32 = 1u; }";
        assert!(naga::front::wgsl::parse_str(bad).is_err());
    }
}
