//! What the camera's optics and sensor do to the rendered light: vignetting, lens blur
//! and sensor noise, then 8-bit quantization. JPEG compression happens on writing
//! (see [`crate::Render::encode_jpeg`]).

use crate::error::SynthError;
use crate::noise;
use crate::shading::Colour;
use image::RgbImage;
use rayon::prelude::*;

/// Optics and sensor settings. Noise is in units of full scale (1.0 = 255).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SensorOptions {
    /// Standard deviation of the Gaussian lens blur, px (0 for none).
    pub blur_sigma_px: f64,
    /// Standard deviation of signal-independent read noise.
    pub read_noise: f64,
    /// Shot noise: its variance is this times the signal.
    pub shot_noise: f64,
    /// Relative darkening at the image corners (0 for none).
    pub vignetting: f64,
}

impl SensorOptions {
    /// A perfect sensor: no blur, noise or vignetting (for tests of geometry).
    pub const IDEAL: SensorOptions =
        SensorOptions { blur_sigma_px: 0.0, read_noise: 0.0, shot_noise: 0.0, vignetting: 0.0 };

    pub(crate) fn check(&self) -> Result<(), SynthError> {
        let fields = [
            ("blur_sigma_px", self.blur_sigma_px, 10.0),
            ("read_noise", self.read_noise, 0.5),
            ("shot_noise", self.shot_noise, 0.5),
            ("vignetting", self.vignetting, 0.9),
        ];
        for (option, value, max) in fields {
            if !(0.0..=max).contains(&value) {
                return Err(SynthError::InvalidOption {
                    option,
                    value,
                    reason: "out of range (see SensorOptions)",
                });
            }
        }
        Ok(())
    }
}

impl Default for SensorOptions {
    /// A good phone camera in room light: 0.7 px blur, noise of about 1% of full scale,
    /// 20% vignetting.
    fn default() -> Self {
        SensorOptions { blur_sigma_px: 0.7, read_noise: 0.006, shot_noise: 0.0002, vignetting: 0.2 }
    }
}

/// Applies the optics and the sensor to rendered pixels (row by row, `width` wide) and
/// quantizes them to 8 bits, sRGB-encoded when `srgb` (else proportional to light).
pub(crate) fn develop(
    mut pixels: Vec<Colour>,
    width: usize,
    options: &SensorOptions,
    seed: u64,
    srgb: bool,
) -> RgbImage {
    let height = pixels.len() / width.max(1);
    if options.vignetting > 0.0 {
        let (cx, cy) = ((width as f64 - 1.0) / 2.0, (height as f64 - 1.0) / 2.0);
        let norm = 1.0 / (cx * cx + cy * cy).max(1.0);
        pixels.par_chunks_mut(width).enumerate().for_each(|(y, row)| {
            let dy = y as f64 - cy;
            for (x, p) in row.iter_mut().enumerate() {
                let dx = x as f64 - cx;
                *p = p.scaled(1.0 - options.vignetting * (dx * dx + dy * dy) * norm);
            }
        });
    }
    if options.blur_sigma_px > 0.0 {
        pixels = blur(&pixels, width, height, options.blur_sigma_px);
    }
    let mut bytes = vec![0u8; width * height * 3];
    bytes.par_chunks_mut(width * 3).enumerate().for_each(|(y, row)| {
        for (x, out) in row.chunks_exact_mut(3).enumerate() {
            let p = pixels[y * width + x];
            for ((o, v), channel) in out.iter_mut().zip([p.r, p.g, p.b]).zip(0i64..) {
                let v = f64::from(v).clamp(0.0, 1.0);
                let sigma = (options.read_noise.powi(2) + options.shot_noise * v).sqrt();
                let noisy = if sigma > 0.0 {
                    v + sigma * gaussian(noise::hash2(seed ^ 0x5e75, 3 * x as i64 + channel, y as i64))
                } else {
                    v
                };
                let stored = if srgb { srgb_encode(noisy.clamp(0.0, 1.0)) } else { noisy };
                *o = (stored * 255.0).round().clamp(0.0, 255.0) as u8;
            }
        }
    });
    // The buffer has exactly width * height * 3 bytes, so this cannot fail.
    RgbImage::from_raw(width as u32, height as u32, bytes).unwrap_or_default()
}

/// The sRGB encoding of light `v` (0-1).
fn srgb_encode(v: f64) -> f64 {
    if v <= 0.003_130_8 { 12.92 * v } else { 1.055 * v.powf(1.0 / 2.4) - 0.055 }
}

/// A deviate of zero mean and unit variance, close to normal: the scaled sum of four
/// uniform 16-bit numbers taken from a hash (Irwin-Hall), much cheaper than an exact
/// normal and as good for sensor noise.
fn gaussian(h: u64) -> f64 {
    let sum: f64 = (0..4).map(|i| ((h >> (16 * i)) & 0xffff) as f64 / 65535.0).sum();
    (sum - 2.0) * 3f64.sqrt()
}

/// Separable Gaussian blur, edges clamped.
fn blur(pixels: &[Colour], width: usize, height: usize, sigma: f64) -> Vec<Colour> {
    let radius = (3.0 * sigma).ceil() as isize;
    let mut kernel: Vec<f32> =
        (-radius..=radius).map(|i| (-(i * i) as f64 / (2.0 * sigma * sigma)).exp() as f32).collect();
    let total: f32 = kernel.iter().sum();
    kernel.iter_mut().for_each(|k| *k /= total);
    let clamp = |i: isize, n: usize| i.clamp(0, n as isize - 1) as usize;
    let mut across = vec![Colour::default(); pixels.len()];
    across.par_chunks_mut(width).enumerate().for_each(|(y, row)| {
        let src = &pixels[y * width..(y + 1) * width];
        for (x, out) in row.iter_mut().enumerate() {
            let mut acc = Colour::default();
            for (k, w) in kernel.iter().enumerate() {
                acc = acc + src[clamp(x as isize + k as isize - radius, width)] * *w;
            }
            *out = acc;
        }
    });
    let mut down = vec![Colour::default(); pixels.len()];
    down.par_chunks_mut(width).enumerate().for_each(|(y, row)| {
        for (k, w) in kernel.iter().enumerate() {
            let sy = clamp(y as isize + k as isize - radius, height);
            let src = &across[sy * width..(sy + 1) * width];
            for (out, s) in row.iter_mut().zip(src) {
                *out = *out + *s * *w;
            }
        }
    });
    down
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step_image() -> Vec<Colour> {
        (0..20 * 10).map(|i| if i % 20 < 10 { Colour::grey(0.2) } else { Colour::grey(0.8) }).collect()
    }

    #[test]
    fn an_ideal_sensor_only_quantizes() {
        let img = develop(step_image(), 20, &SensorOptions::IDEAL, 1, false);
        assert_eq!(img.get_pixel(9, 5).0, [51, 51, 51]);
        assert_eq!(img.get_pixel(10, 5).0, [204, 204, 204]);
    }

    #[test]
    fn an_srgb_photo_stores_light_encoded() {
        let img = develop(step_image(), 20, &SensorOptions::IDEAL, 1, true);
        // 0.2 and 0.8 of full light, sRGB-encoded: 123.6 and 231.1; 0.002 on the
        // encoding's linear foot, 6.6.
        assert_eq!(img.get_pixel(9, 5).0, [124, 124, 124]);
        assert_eq!(img.get_pixel(10, 5).0, [231, 231, 231]);
        assert_eq!(
            develop(vec![Colour::grey(0.002); 4], 2, &SensorOptions::IDEAL, 1, true).get_pixel(0, 0).0,
            [7; 3]
        );
    }

    #[test]
    fn blur_softens_edges_and_keeps_the_mean() {
        let options = SensorOptions { blur_sigma_px: 1.0, ..SensorOptions::IDEAL };
        let img = develop(step_image(), 20, &options, 1, false);
        let (a, b) = (img.get_pixel(9, 5).0[0], img.get_pixel(10, 5).0[0]);
        assert!(a > 60 && b < 195 && a < b, "{a} {b}");
        let row_mean: f64 = (0..20).map(|x| f64::from(img.get_pixel(x, 5).0[0])).sum::<f64>() / 20.0;
        assert!((row_mean - 127.5).abs() < 1.0, "{row_mean}");
    }

    #[test]
    fn noise_is_seeded_and_has_the_asked_spread() {
        let flat = vec![Colour::grey(0.5); 100 * 100];
        let options = SensorOptions { read_noise: 0.02, ..SensorOptions::IDEAL };
        let a = develop(flat.clone(), 100, &options, 3, false);
        let b = develop(flat.clone(), 100, &options, 3, false);
        let c = develop(flat, 100, &options, 4, false);
        assert_eq!(a, b);
        assert_ne!(a, c);
        let values: Vec<f64> = a.pixels().map(|p| f64::from(p.0[1]) / 255.0).collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64).sqrt();
        assert!((sd - 0.02).abs() < 0.003, "{sd}");
    }

    #[test]
    fn bad_options_are_refused() {
        assert!(SensorOptions { blur_sigma_px: -1.0, ..SensorOptions::IDEAL }.check().is_err());
        assert!(SensorOptions::default().check().is_ok());
    }
}
