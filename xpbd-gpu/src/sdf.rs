//! Signed-distance grids on the device. The node values of every distinct grid among a step's
//! colliders ([`SceneCollider::Sdf`]) lie back to back, in f32, in one `R32Float` 2D texture
//! read with `textureLoad` (node `L` of the atlas at texel `(L mod W, L div W)`, `W` the
//! texture's width): a texture, not a storage buffer, so a step that has colliders needs no
//! storage binding beyond its particle and constraint buffers. A packed collider carries the
//! first node of its grid (`colliders.wgsl`, `sdf_distance`).

use std::sync::Arc;

use xpbd_core::contact::SdfGrid;

use crate::{GpuError, SceneCollider};

/// Width of the atlas texture (texels per row); rows as needed, at most the device's
/// `max_texture_dimension_2d`.
const ATLAS_WIDTH: u32 = 2048;

/// The node values of a collider list's grids and where each collider's grid starts.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct SdfAtlas {
    values: Vec<f32>,
    /// Per collider, the first node of its grid (0 for the other shapes).
    offsets: Vec<u32>,
    /// Per collider, its grid (`None` for the other shapes).
    grids: Vec<Option<Arc<SdfGrid<3>>>>,
}

/// The grid of a collider, if it is one.
fn grid_of(c: &SceneCollider) -> Option<&Arc<SdfGrid<3>>> {
    match c {
        SceneCollider::Sdf { grid, .. } => Some(grid),
        _ => None,
    }
}

impl SdfAtlas {
    /// The atlas of `colliders` (a grid shared by several colliders is stored once).
    pub(crate) fn new<'a>(colliders: impl IntoIterator<Item = &'a SceneCollider>) -> Self {
        let mut atlas = Self::default();
        let mut seen: Vec<(*const SdfGrid<3>, u32)> = Vec::new();
        for c in colliders {
            atlas.grids.push(grid_of(c).cloned());
            let offset = match c {
                SceneCollider::Sdf { grid, .. } => {
                    let key = Arc::as_ptr(grid);
                    match seen.iter().find(|(k, _)| *k == key) {
                        Some(&(_, at)) => at,
                        None => {
                            let at = atlas.values.len() as u32;
                            atlas.values.extend(grid.values().iter().map(|&v| v as f32));
                            seen.push((key, at));
                            at
                        }
                    }
                }
                _ => 0,
            };
            atlas.offsets.push(offset);
        }
        atlas
    }

    /// Whether `colliders` have the grids this atlas was built from, collider by collider (the
    /// same shared grids: a collider list that only moved needs no new texture). Compares
    /// pointers, never node values, so a step that moves its colliders costs nothing here.
    pub(crate) fn holds<'a>(&self, colliders: impl IntoIterator<Item = &'a SceneCollider>) -> bool {
        let mut k = 0;
        for c in colliders {
            let same = match (self.grids.get(k), grid_of(c)) {
                (Some(Some(a)), Some(b)) => Arc::ptr_eq(a, b),
                (Some(None), None) => true,
                _ => false,
            };
            if !same {
                return false;
            }
            k += 1;
        }
        k == self.grids.len()
    }

    /// The first node of collider `k`'s grid.
    pub(crate) fn offset(&self, k: usize) -> u32 {
        self.offsets.get(k).copied().unwrap_or(0)
    }

    /// The texture holding the values (one texel when there is no grid: a binding must
    /// exist), or [`GpuError::BufferTooLarge`] when the grids need more rows than the device
    /// allows.
    pub(crate) fn upload(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<wgpu::TextureView, GpuError> {
        let max = device.limits().max_texture_dimension_2d;
        let width = ATLAS_WIDTH.min(max);
        let n = self.values.len().max(1) as u64;
        let rows = n.div_ceil(width as u64);
        if rows > max as u64 {
            return Err(GpuError::BufferTooLarge {
                buffer: "signed-distance grid nodes",
                bytes: 4 * n,
                limit: 4 * width as u64 * max as u64,
                limit_name: "max_texture_dimension_2d",
            });
        }
        let (w, h) = if rows == 1 {
            (n as u32, 1)
        } else {
            (width, rows as u32)
        };
        let mut data = self.values.clone();
        data.resize((w * h) as usize, 0.0);
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("sdf nodes"),
            size: wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::R32Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            bytemuck::cast_slice(&data),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * w),
                rows_per_image: Some(h),
            },
            wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
        );
        Ok(texture.create_view(&wgpu::TextureViewDescriptor::default()))
    }
}

/// The bind-group layout entry of the atlas (a non-filterable float 2D texture).
pub(crate) fn layout_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix3, Vector3};
    use xpbd_core::builders::TriangleSurface;

    fn grid() -> Arc<SdfGrid<3>> {
        Arc::new(SdfGrid::from_mesh(&TriangleSurface::unit_cube(), 0.25, 0.25).unwrap())
    }

    fn sdf_at(grid: &Arc<SdfGrid<3>>, x: f64) -> SceneCollider {
        SceneCollider::Sdf {
            centre: Vector3::new(x, 0.0, 0.0),
            rotation: Matrix3::identity(),
            grid: grid.clone(),
            friction: 0.0,
        }
    }

    /// A shared grid is stored once; moving its colliders keeps the atlas, another grid or
    /// another collider count does not.
    #[test]
    fn the_atlas_is_kept_while_only_poses_change() {
        let (a, b) = (grid(), grid());
        let ball = SceneCollider::Sphere {
            centre: Vector3::zeros(),
            radius: 0.1,
            friction: 0.0,
        };
        let list = [ball.clone(), sdf_at(&a, 0.0), sdf_at(&a, 1.0)];
        let atlas = SdfAtlas::new(&list);
        assert_eq!(atlas.values.len(), a.values().len());
        assert_eq!((atlas.offset(1), atlas.offset(2)), (0, 0));
        assert!(atlas.holds(&[ball.clone(), sdf_at(&a, 5.0), sdf_at(&a, -1.0)]));
        assert!(!atlas.holds(&[ball.clone(), sdf_at(&a, 0.0), sdf_at(&b, 1.0)]));
        assert!(!atlas.holds(&[ball.clone(), sdf_at(&a, 0.0)]));
        assert!(!atlas.holds(&[sdf_at(&a, 0.0), ball, sdf_at(&a, 1.0)]));
        let two = SdfAtlas::new(&[sdf_at(&a, 0.0), sdf_at(&b, 0.0)]);
        assert_eq!(two.offset(1) as usize, a.values().len());
    }
}
