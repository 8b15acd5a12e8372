//! A point splatter for particle renders, written as 8-bit RGB PNG (the `png` crate).

use std::path::Path;

use anyhow::{Context, Result};

/// Encodes an RGB image (`rgb.len() == 3 w h`) as PNG bytes (the `png` crate).
pub fn encode_rgb(width: u32, height: u32, rgb: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().context("PNG header")?;
    writer
        .write_image_data(rgb)
        .with_context(|| format!("encoding a {width} × {height} RGB image"))?;
    writer.finish().context("finishing the PNG")?;
    Ok(out)
}

/// Splats 2-D points (already projected) into a `w × h` image covering `[x0, x1] × [y0, y1]`
/// (y up), each a disc of `radius` pixels coloured by `colour(i)`, and writes a PNG.
pub fn splat(
    path: &Path,
    (w, h): (u32, u32),
    (x0, x1, y0, y1): (f64, f64, f64, f64),
    points: &[(f64, f64)],
    radius: i32,
    colour: impl Fn(usize) -> [u8; 3],
) -> Result<()> {
    let mut img = vec![255u8; (3 * w * h) as usize];
    // Ground line at y = 0 when visible.
    if y0 < 0.0 && y1 > 0.0 {
        let py = ((y1 - 0.0) / (y1 - y0) * h as f64) as i64;
        if (0..h as i64).contains(&py) {
            for px in 0..w as usize {
                let k = 3 * (py as usize * w as usize + px);
                img[k..k + 3].copy_from_slice(&[90, 90, 90]);
            }
        }
    }
    for (i, &(x, y)) in points.iter().enumerate() {
        let cx = ((x - x0) / (x1 - x0) * w as f64) as i32;
        let cy = ((y1 - y) / (y1 - y0) * h as f64) as i32;
        let c = colour(i);
        for dy in -radius..=radius {
            for dx in -radius..=radius {
                if dx * dx + dy * dy > radius * radius {
                    continue;
                }
                let (px, py) = (cx + dx, cy + dy);
                if px >= 0 && py >= 0 && (px as u32) < w && (py as u32) < h {
                    let k = 3 * (py as usize * w as usize + px as usize);
                    img[k..k + 3].copy_from_slice(&c);
                }
            }
        }
    }
    std::fs::write(path, encode_rgb(w, h, &img)?)
        .with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> (png::OutputInfo, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info, buf)
    }

    #[test]
    fn an_encoded_image_decodes_to_its_size_and_pixels() {
        let (w, h) = (7u32, 5u32);
        let rgb: Vec<u8> = (0..3 * w * h).map(|k| (k * 37 % 251) as u8).collect();
        let (info, pixels) = decode(&encode_rgb(w, h, &rgb).unwrap());
        assert_eq!((info.width, info.height), (w, h));
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        assert_eq!(pixels, rgb);
    }

    #[test]
    fn a_splat_draws_its_points_and_the_ground_line() {
        let dir = std::env::temp_dir().join(format!("xtask-splat-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("splat.png");
        splat(
            &path,
            (40, 20),
            (-1.0, 1.0, -0.5, 1.5),
            &[(0.0, 1.0)],
            2,
            |_| [200, 10, 20],
        )
        .unwrap();
        let (info, pixels) = decode(&std::fs::read(&path).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!((info.width, info.height), (40, 20));
        let at = |x: usize, y: usize| &pixels[3 * (y * 40 + x)..3 * (y * 40 + x) + 3];
        // The point (0, 1) is pixel (20, 5); the ground y = 0 is row 15; elsewhere white.
        assert_eq!(at(20, 5), [200, 10, 20]);
        assert_eq!(at(3, 15), [90, 90, 90]);
        assert_eq!(at(3, 3), [255, 255, 255]);
    }
}
