//! A minimal PNG writer (8-bit RGB, zlib "stored" blocks: no compression, no dependency) and a
//! point splatter for particle renders.

use std::path::Path;

use anyhow::{Context, Result};

fn crc32(data: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in data {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + x as u32) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(&body).to_be_bytes());
}

/// Encodes an RGB image (`rgb.len() == 3 w h`) as PNG bytes.
pub fn encode_rgb(width: u32, height: u32, rgb: &[u8]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(rgb.len() + height as usize);
    for row in rgb.chunks_exact(3 * width as usize) {
        raw.push(0); // filter: none
        raw.extend_from_slice(row);
    }
    let mut z = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65535).collect();
    for (k, b) in blocks.iter().enumerate() {
        z.push(u8::from(k + 1 == blocks.len()));
        z.extend_from_slice(&(b.len() as u16).to_le_bytes());
        z.extend_from_slice(&(!(b.len() as u16)).to_le_bytes());
        z.extend_from_slice(b);
    }
    z.extend_from_slice(&adler32(&raw).to_be_bytes());
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &z);
    chunk(&mut out, b"IEND", &[]);
    out
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
    std::fs::write(path, encode_rgb(w, h, &img))
        .with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn crc_and_adler_match_known_values() {
        // Standard check values ("123456789").
        assert_eq!(super::crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(super::adler32(b"Wikipedia"), 0x11e6_0398);
    }
}
