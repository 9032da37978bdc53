//! How a photo's grey values relate to light, read from the photo itself (issue 36).
//!
//! A phone's JPEG (and most renderers') is sRGB-encoded: the code value is light raised
//! to about 1/2.2. Sub-pixel edges are placed where the value crosses halfway between
//! the dark and the light side; a blurred edge crosses halfway in light at the true
//! edge, but halfway in code value on its dark side, so every dark square (tags,
//! fiducials) reads smaller by most of the blur's sigma. The blur grows toward a
//! photo's edges, and a self-calibration takes the tags' shrinking for lens distortion
//! (the independent renders: every base 1-2.6 mm off without a camera file).
//!
//! The encoding is told apart on the table fiducials by what the print fixes: the
//! black border of a marker is exactly one cell wide. Across it, from the paper outside
//! to a white code cell inside, the value falls and rises again; under the wrong
//! encoding both halfway crossings move into the darker side, and the border reads
//! thinner (or, for a linear photo read as sRGB, thicker) by twice that shift. The
//! encoding whose border is nearer one cell wide is the photo's. (The symmetry of an
//! edge's profile cannot tell: a renderer or a phone may blur or sharpen after
//! encoding, and the independent renders' edges are the more symmetric in code values
//! while their squares read 0.3 px small.)

use crate::error::VisionError;
use crate::fiducials::{DetectedMarker, GrayView, srgb_to_linear};
use opencv::core::Mat;
use serde::{Deserialize, Serialize};

/// How a photo's values encode light.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Tone {
    /// Values proportional to light (vedette-synth's renders).
    #[default]
    Linear,
    /// sRGB-encoded (phones, most renderers).
    Srgb,
}

/// Border measurements needed for a verdict.
const MIN_SAMPLES: usize = 12;

/// Reads how the photo's edges are best placed from the black borders of `markers`
/// (the table fiducials, of `bits` x `bits` code cells), each border measured between
/// the corners as given (the detector's, placed in code values). [`Tone::Linear`]
/// when they do not tell (too few borders beside a white code cell, or too blurred).
/// The scan's edges (fiducials', tags') follow this reading; colours follow
/// [`measure_encoding`].
pub fn measure_tone(gray: &Mat, markers: &[DetectedMarker], bits: i32) -> Result<Tone, VisionError> {
    read_borders(gray, markers, bits, false)
}

/// Reads how the photo's values encode light, for its colours (issue 36), from the
/// same borders as [`measure_tone`] but each encoding judged with the corners placed
/// under it (the given ones, a detector's, for `Linear`; refined in light for `Srgb`). A detector places corners in code values, which in an sRGB photo shrinks
/// the square by most of the blur and reads every cell (the border's yardstick) small:
/// a bias toward [`Tone::Linear`] of a third of the signal. The second renderer's
/// tagged-301 (POV-Ray `File_Gamma=sRGB`, as all its photos, blurred 0.59 px after
/// encoding) reads 0.969 of a cell under `Linear` and 1.032 under `Srgb` with the
/// detector's corners (linear, by 0.001), 0.969 and 1.019 with each encoding's own
/// (sRGB); its five other photos read sRGB either way.
///
/// Not the edges' reading: where a photo is blurred after encoding (that renderer) its
/// edges sit between the two, and placing tagged-301's in light moves its
/// self-calibrated bases from 0.080 / 0.372 mm to 0.472 / 0.606 mm (median / p95).
pub fn measure_encoding(gray: &Mat, markers: &[DetectedMarker], bits: i32) -> Result<Tone, VisionError> {
    read_borders(gray, markers, bits, true)
}

/// The encoding whose median border width ([`border_readings`]) is nearer one cell.
fn read_borders(
    gray: &Mat,
    markers: &[DetectedMarker],
    bits: i32,
    refine: bool,
) -> Result<Tone, VisionError> {
    Ok(match border_readings(gray, markers, bits, refine)? {
        Some((l, s)) if (s - 1.0).abs() < (l - 1.0).abs() => Tone::Srgb,
        _ => Tone::Linear,
    })
}

/// The median border width, cells, read as light (`Linear`) and as sRGB, the corners
/// refined in light for the sRGB reading when `refine`; `None` when fewer than
/// [`MIN_SAMPLES`] borders could be read.
fn border_readings(
    gray: &Mat,
    markers: &[DetectedMarker],
    bits: i32,
    refine: bool,
) -> Result<Option<(f64, f64)>, VisionError> {
    let mut widths = [Vec::new(), Vec::new()];
    let plain = GrayView::new(gray)?;
    for m in markers {
        for (out, tone) in widths.iter_mut().zip([Tone::Linear, Tone::Srgb]) {
            let mut c = m.corners;
            // Corners as given are the linear encoding's (a detector places them in
            // code values; refined in code values they moved by no reading's 0.001 on
            // the second renderer's photos, and cost as much again).
            if refine && tone == Tone::Srgb {
                let view = GrayView::new(gray)?.with_srgb(true);
                // Left as given where the edges do not fit.
                if !crate::fiducials::refine_edges_view(&view, &mut c, bits) {
                    c = m.corners;
                }
            }
            out.extend(border_widths(&plain, &c, bits, tone));
        }
    }
    let [mut linear, mut srgb] = widths;
    if linear.len() < MIN_SAMPLES || srgb.len() < MIN_SAMPLES {
        return Ok(None);
    }
    Ok(Some((median(&mut linear), median(&mut srgb))))
}

/// The black border's width in cells, read under `tone`, across each side of the
/// marker with corners `c` (clockwise from top-left) beside each code cell that is
/// white.
fn border_widths(view: &GrayView<'_>, c: &[[f64; 2]; 4], bits: i32, tone: Tone) -> Vec<f64> {
    let cells = f64::from(bits + 2);
    let mut out = Vec::new();
    // The marker's own frame: (u, v) in 0-1 from its top-left corner, bilinear
    // between the corners (a marker is small enough for its perspective to be).
    let at = |u: f64, v: f64| {
        let w = [(1.0 - u) * (1.0 - v), u * (1.0 - v), u * v, (1.0 - u) * v];
        [0, 1].map(|k| (0..4).map(|i| w[i] * c[i][k]).sum::<f64>())
    };
    for side in 0..4 {
        // `t` along the side, `s` inward from it.
        let frame = |t: f64, s: f64| match side {
            0 => at(t, s),
            1 => at(1.0 - s, t),
            2 => at(1.0 - t, 1.0 - s),
            _ => at(s, 1.0 - t),
        };
        for j in 1..(bits + 1) {
            let t = (f64::from(j) + 0.5) / cells;
            let (outer, inner) = (frame(t, 0.0), frame(t, 1.0 / cells));
            let cell_px = (inner[0] - outer[0]).hypot(inner[1] - outer[1]);
            if cell_px < 6.0 {
                continue;
            }
            let (from, to) = (frame(t, -0.5 / cells), frame(t, 1.5 / cells));
            let len = (to[0] - from[0]).hypot(to[1] - from[1]);
            let count = (len / 0.25).round() as usize + 1;
            let profile: Option<Vec<f64>> = (0..count)
                .map(|i| {
                    let f = i as f64 / (count - 1) as f64;
                    view.sample(from[0] + f * (to[0] - from[0]), from[1] + f * (to[1] - from[1]))
                })
                .collect();
            let Some(profile) = profile else { continue };
            let step = len / (count - 1) as f64;
            if let Some(w) = border_width(&profile, tone) {
                out.push(w * step / cell_px);
            }
        }
    }
    out
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The width of the dark run of a profile light, dark, light (samples), between its
/// two halfway crossings, read under `tone`; `None` unless the paper outside and the
/// code cell inside are both clearly lighter than the border.
fn border_width(profile: &[f64], tone: Tone) -> Option<f64> {
    let v: Vec<f64> = match tone {
        Tone::Linear => profile.to_vec(),
        Tone::Srgb => profile.iter().map(|&x| srgb_to_linear(x)).collect(),
    };
    let n = v.len();
    let edge = (n / 8).max(2);
    let outer = v[..edge].iter().sum::<f64>() / edge as f64;
    let inner = v[n - edge..].iter().sum::<f64>() / edge as f64;
    let (k, dark) =
        v.iter().enumerate().fold((0, f64::INFINITY), |b, (i, &x)| if x < b.1 { (i, x) } else { b });
    let raw = |x: f64| match tone {
        Tone::Linear => x,
        Tone::Srgb => 255.0 * (x / 255.0).powf(1.0 / 2.4),
    };
    if raw(outer) - raw(dark) < 60.0 || raw(inner) - raw(dark) < 60.0 {
        return None;
    }
    let (m1, m2) = ((outer + dark) / 2.0, (inner + dark) / 2.0);
    // Falling through m1 before the darkest sample, rising through m2 after it.
    let fall = (1..=k).rev().find(|&i| v[i - 1] >= m1 && v[i] < m1)?;
    let rise = (k..n - 1).find(|&i| v[i] <= m2 && v[i + 1] > m2)?;
    let a = (fall - 1) as f64 + (v[fall - 1] - m1) / (v[fall - 1] - v[fall]);
    let b = rise as f64 + (m2 - v[rise]) / (v[rise + 1] - v[rise]);
    Some(b - a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{CV_8UC1, CV_64FC1, Scalar};
    use opencv::prelude::*;

    /// A 60 px marker (six cells of 10 px: a black border round white cells) on white
    /// paper, blurred (Gaussian, sigma 1 px) in light, then stored linearly or
    /// sRGB-encoded, with its corners.
    fn square(tone: Tone) -> (Mat, DetectedMarker) {
        square_blurred(tone, 1.0, 0.0)
    }

    /// [`square`] blurred `light_sigma` px in light and `code_sigma` px more after
    /// encoding (as the second renderer blurs), its corners where a detector puts them:
    /// refined in code values.
    fn square_blurred(tone: Tone, light_sigma: f64, code_sigma: f64) -> (Mat, DetectedMarker) {
        let size = 160;
        let mut img = Mat::new_rows_cols_with_default(size, size, CV_64FC1, Scalar::all(0.0)).unwrap();
        let (lo, hi) = (50.0, 110.0);
        let phi = |x: f64| 0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2));
        for y in 0..size {
            for x in 0..size {
                // Light: 0.05 on a 10 px black border, 0.9 on the paper around it and
                // on the code cells inside (all white here), the edges blurred.
                let inside = |c: f64, a: f64, b: f64| phi((c - a) / light_sigma) * phi((b - c) / light_sigma);
                let (fx, fy) = (f64::from(x), f64::from(y));
                let dark = inside(fx, lo, hi) * inside(fy, lo, hi)
                    - inside(fx, lo + 10.0, hi - 10.0) * inside(fy, lo + 10.0, hi - 10.0);
                let light = 0.9 - 0.85 * dark;
                let v = match tone {
                    Tone::Linear => light,
                    Tone::Srgb => {
                        if light <= 0.003_130_8 {
                            12.92 * light
                        } else {
                            1.055 * light.powf(1.0 / 2.4) - 0.055
                        }
                    }
                };
                *img.at_2d_mut::<f64>(y, x).unwrap() = v * 255.0;
            }
        }
        if code_sigma > 0.0 {
            let mut out = Mat::default();
            opencv::imgproc::gaussian_blur_def(&img, &mut out, opencv::core::Size::new(0, 0), code_sigma)
                .unwrap();
            img = out;
        }
        let mut bytes = Mat::default();
        img.convert_to_def(&mut bytes, CV_8UC1).unwrap();
        let img = bytes;
        // OpenCV's order: top-left, top-right, bottom-right, bottom-left (clockwise).
        let m = DetectedMarker { id: 0, corners: [[lo, lo], [hi, lo], [hi, hi], [lo, hi]] };
        (img, m)
    }

    fn erf(x: f64) -> f64 {
        // Abramowitz and Stegun 7.1.26 (1.5e-7).
        let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
        let y = 1.0
            - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
                + 0.254_829_592)
                * t
                * (-x * x).exp();
        if x < 0.0 { -y } else { y }
    }

    /// The verdicts of [`measure_tone`] and [`measure_encoding`] on [`square_blurred`].
    fn verdicts(tone: Tone, light_sigma: f64, code_sigma: f64) -> (Tone, Tone) {
        let (img, m) = square_blurred(tone, light_sigma, code_sigma);
        let mut c = m.corners;
        assert!(crate::fiducials::refine_edges_view(&GrayView::new(&img).unwrap(), &mut c, 4));
        let d = DetectedMarker { id: 0, corners: c };
        (measure_tone(&img, &[d, d, d], 4).unwrap(), measure_encoding(&img, &[d, d, d], 4).unwrap())
    }

    #[test]
    fn an_srgb_photo_blurred_after_encoding_is_read_srgb_for_its_colours() {
        // Blurred 0.7 px in light and 1.0 px after encoding: with the detector's
        // corners the border reads 0.945 of a cell as light, 1.062 as sRGB (linear, by
        // 0.007: the cells read small); with each encoding's corners 0.945 and 1.042.
        assert_eq!(verdicts(Tone::Srgb, 0.7, 1.0), (Tone::Linear, Tone::Srgb));
        // Blurred in light only, both read it sRGB (0.943 / 1.016, and 1.000).
        assert_eq!(verdicts(Tone::Srgb, 0.7, 0.0), (Tone::Srgb, Tone::Srgb));
        // Nearly all of the blur after encoding: its edges are a linear photo's, and
        // neither tells it from one (0.966 / 1.105, and 1.081).
        assert_eq!(verdicts(Tone::Srgb, 0.3, 1.5), (Tone::Linear, Tone::Linear));
        // A linear photo is linear either way, however it is blurred.
        for (light, code) in [(0.7, 1.0), (0.7, 0.0), (0.3, 1.5), (1.0, 0.0)] {
            assert_eq!(verdicts(Tone::Linear, light, code), (Tone::Linear, Tone::Linear), "{light} {code}");
        }
    }

    #[test]
    fn the_encoding_is_read_from_the_edges() {
        for tone in [Tone::Linear, Tone::Srgb] {
            let (img, m) = square(tone);
            assert_eq!(measure_tone(&img, &[m, m, m], 4).unwrap(), tone);
        }
    }

    #[test]
    fn srgb_edges_are_placed_on_the_true_square() {
        let (img, m) = square(Tone::Srgb);
        for (srgb, off) in [(false, true), (true, false)] {
            let view = GrayView::new(&img).unwrap().with_srgb(srgb);
            let mut c = m.corners;
            let start = c;
            assert!(crate::fiducials::refine_edges_view(&view, &mut c, 4));
            let moved =
                c.iter().zip(&start).map(|(a, b)| (a[0] - b[0]).hypot(a[1] - b[1])).fold(0.0, f64::max);
            // Read as code values the square shrinks by most of the blur (about 0.8 px
            // per edge: 1.1 px along the diagonal); read in light it stays.
            assert_eq!(moved > 0.5, off, "srgb edges {srgb}: corners moved {moved:.3} px");
            if !off {
                assert!(moved < 0.1, "{moved}");
            }
        }
    }
}
