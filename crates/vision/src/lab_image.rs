//! Whole 8-bit images to and from 8-bit CIE L*a*b* (D65, the sRGB curve), byte for
//! byte as OpenCV 4.6's `cvtColor` with `COLOR_BGR2Lab` and `COLOR_Lab2BGR` (issue 36).
//!
//! OpenCV 4.6 builds every one of its Lab and Luv tables, in software floating point
//! (`softfloat`), at the first Lab conversion in a process: 1.34 G instructions,
//! 0.34-0.37 s, that every `vedette scan` fitting a unit paid, although the 8-bit
//! conversions read only a few small integer tables. These are those tables, built
//! with native `f32`/`f64` arithmetic in the order OpenCV's `softfloat` code does
//! (IEEE `+ - * /` and fused multiply-add give softfloat's results; its cube root is
//! ported, being its own), and OpenCV's integer arithmetic per pixel:
//! `color_lab.cpp`'s `RGB2Lab_b` (BGR -> Lab) and `Lab2RGBinteger` (Lab -> BGR, which
//! `Lab2RGB_b` uses for 8 bits since 4.0, "bit exactness"). The unit tests compare both
//! ways with the installed OpenCV on all 2^24 inputs: not one byte differs.
//!
//! A conversion from the textbook formula instead (branch `lab17-wip`) was a unit off
//! on ~16% of the pixels, and the greedy fitter is not robust to that: vedette-synth's
//! untagged bench lost 28 of its 472 right bases.

use crate::error::VisionError;
use opencv::core::{Mat, Scalar, Vec3b};
use opencv::prelude::*;
use std::sync::OnceLock;

/// OpenCV's sRGB -> XYZ matrix (0.412453, 0.357580, 0.180423 / 0.212671, 0.715160,
/// 0.072169 / 0.019334, 0.119193, 0.950227), rows X, Y, Z, columns R, G, B, as the
/// doubles `color_lab.cpp` spells by their bits (`sRGB2XYZ_D65`).
const SRGB_TO_XYZ_BITS: [u64; 9] = [
    0x3fda65a14488c60d,
    0x3fd6e297396d0918,
    0x3fc71819d2391d58,
    0x3fcb38cda6e75ff6,
    0x3fe6e297396d0918,
    0x3fb279aae6c8f755,
    0x3f93cc4ac6cdaf4b,
    0x3fbe836eb4e98138,
    0x3fee68427418d691,
];

/// OpenCV's XYZ -> sRGB matrix (3.240479, -1.53715, -0.498535 / -0.969256, 1.875991,
/// 0.041556 / 0.055648, -0.204043, 1.057311), rows R, G, B, columns X, Y, Z
/// (`XYZ2sRGB_D65`).
const XYZ_TO_SRGB_BITS: [u64; 9] = [
    0x4009ec804102ff8f,
    0xbff8982a9930be0e,
    0xbfdfe7ff583a53b9,
    0xbfef042528ae74f3,
    0x3ffe040f23897204,
    0x3fa546d3f9e7b80b,
    0x3fac7de5082cf52c,
    0xbfca1e14bdfd2631,
    0x3ff0eabef06b3786,
];

/// OpenCV's D65 white point X, Y, Z (0.950456, 1, 1.088754; `D65`).
const D65_BITS: [u64; 3] = [0x3fee6a22b3892ee8, 0x3ff0000000000000, 0x3ff16b8950763a19];

/// Fixed point of the colour matrices (`lab_shift`, `xyz_shift`): 12 bits.
const MATRIX_SHIFT: u32 = 12;
/// Extra bits of the linear light OpenCV's 8-bit gamma table gives (`gamma_shift`).
const GAMMA_SHIFT: u32 = 3;
/// Fixed point of the cube root and of L, a, b before rounding (`lab_shift2`).
const LAB_SHIFT: u32 = MATRIX_SHIFT + GAMMA_SHIFT;
/// Entries of the cube-root table: linear light up to 1.5 in steps of 1 / 2040
/// (`LAB_CBRT_TAB_SIZE_B`).
const CUBE_ROOT_ENTRIES: usize = 256 * 3 / 2 * (1 << GAMMA_SHIFT);
/// The way back works on 1 = 2^14 (`Lab2RGBinteger::base_shift`, `LAB_BASE`)...
const BASE_SHIFT: u32 = 14;
const BASE: i32 = 1 << BASE_SHIFT;
/// ... and its inverse sRGB curve is a table over linear light in steps of 2^-12
/// (`inv_gamma_shift`, `INV_GAMMA_TAB_SIZE`).
const INV_GAMMA_SHIFT: u32 = 12;
const INV_GAMMA_ENTRIES: usize = 1 << INV_GAMMA_SHIFT;
/// The smallest f(X) or f(Z) (x 2^14) the way back can meet, at L = 0, b = 255
/// (`minABvalue`); its table covers 9/4 of `BASE` from there.
const MIN_AB: i32 = -8145;
const AB_ENTRIES: usize = BASE as usize * 9 / 4;

/// Every table the two conversions read, built once per process ([`tables`]).
struct Tables {
    /// An sRGB byte's linear light x 2040 (`sRGBGammaTab_b`).
    gamma: [u16; 256],
    /// f(t) = t^(1/3), or its linear foot, x 2^15, at t = k / 2040 (`LabCbrtTab_b`).
    cube_root: Vec<u16>,
    /// The XYZ / white rows over B, G, R, x 2^12 (`RGB2Lab_b::coeffs`, `blueIdx` 0).
    to_xyz: [i32; 9],
    /// Per L byte: Y x 2^14 and f(Y) x 2^14 (`LabToYF_b`).
    y_and_fy: [[i32; 2]; 256],
    /// f x 2^14 from `MIN_AB` on to X or Z (relative to white) x 2^14 (`abToXZ_b`).
    ab_to_xz: Vec<i32>,
    /// The R, G, B rows over X, Y, Z times the white, x 2^12
    /// (`Lab2RGBinteger::coeffs`, `blueIdx` 0).
    to_rgb: [i32; 9],
    /// Linear light k / 4096 to its sRGB byte (`sRGBInvGammaTab_b`).
    inv_gamma: Vec<u8>,
}

/// The tables, built at the first call (well under a millisecond).
fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

/// OpenCV's `cvRound` of a `softfloat` or `softdouble`: to the nearest, ties to even.
fn round_even(v: f64) -> i32 {
    v.round_ties_even() as i32
}

/// The CIE threshold (6/29)^3, the slope and the offset of f's linear foot, as
/// `color_lab.cpp`'s `lthresh`, `lscale` and `lbias` (`softfloat` quotients).
fn lab_foot() -> (f32, f32, f32) {
    (216.0f32 / 24389.0, 841.0f32 / 108.0, 16.0f32 / 116.0)
}

/// The sRGB curve's constants as `color_lab.cpp` computes them (`softdouble`): the
/// threshold 0.04045, its inverse's 0.0031308, the slope 12.92, the power 2.4 and the
/// offset 0.055.
struct Curve {
    threshold: f64,
    inv_threshold: f64,
    low_scale: f64,
    power: f64,
    shift: f64,
}

const fn curve() -> Curve {
    Curve {
        threshold: 809.0 / 20000.0,
        inv_threshold: 7827.0 / 2500000.0,
        low_scale: 323.0 / 25.0,
        power: 12.0 / 5.0,
        shift: 11.0 / 200.0,
    }
}

/// sRGB to linear (`applyGamma`): in doubles, rounded to a float. OpenCV's `pow` is
/// softfloat's own (`exp(y log x)`, a few double ulps off); a double's ulp is 2^-29 of
/// a float's, and the tests show the tables equal.
fn to_linear(x: f32) -> f32 {
    let c = curve();
    let x = f64::from(x);
    (if x <= c.threshold { x / c.low_scale } else { ((x + c.shift) / (1.0 + c.shift)).powf(c.power) }) as f32
}

/// Linear to sRGB (`applyInvGamma`), as [`to_linear`].
fn to_srgb(x: f32) -> f32 {
    let c = curve();
    let x = f64::from(x);
    (if x <= c.inv_threshold { x * c.low_scale } else { x.powf(1.0 / c.power) * (1.0 + c.shift) - c.shift })
        as f32
}

/// softfloat's `f32_cbrt` (OpenCV `core/src/softfloat.cpp`, Ken Turkowski's fast cube
/// root): the mantissa scaled into [1/8, 1), a quartic rational in doubles, the
/// result's mantissa truncated to a float's. Not correctly rounded, hence ported.
/// Only for finite x >= 0, all the tables ask. Its constants are spelled as
/// softfloat.cpp spells them (each rounds to the double it uses).
#[allow(clippy::excessive_precision)]
fn softfloat_cbrt(x: f32) -> f32 {
    let bits = x.to_bits();
    if bits & 0x7fff_ffff == 0 {
        return 0.0;
    }
    let sign = bits >> 31;
    let mut ex = ((bits >> 23) & 0xff) as i32 - 127;
    let mut shx = ex % 3;
    if shx >= 0 {
        shx -= 3;
    }
    ex = (ex - shx) / 3 - 1;
    let fr = f64::from_bits((((shx + 1023) as u64) << 52) | (u64::from(bits & 0x7f_ffff) << 29));
    let a = [
        45.254_833_975_680_302_251_198_749_4,
        192.279_836_835_506_105_045_813_462_5,
        119.165_482_428_558_162_895_691_414_3,
        13.432_501_390_862_398_721_728_373_14,
        0.163_616_122_658_575_424_095_835_506_3,
        14.808_840_932_191_345_737_864_808_45,
        151.971_405_104_443_564_865_855_766_8,
        168.525_441_410_156_828_395_766_834_3,
        33.990_594_135_021_559_875_419_187_2,
        1.0,
    ];
    let fr = ((((a[0] * fr + a[1]) * fr + a[2]) * fr + a[3]) * fr + a[4])
        / ((((a[5] * fr + a[6]) * fr + a[7]) * fr + a[8]) * fr + a[9]);
    let frac = ((fr.to_bits() & 0x000f_ffff_ffff_ffff) >> 29) as u32;
    f32::from_bits((sign << 31).wrapping_add(((ex + 127) as u32) << 23).wrapping_add(frac))
}

/// CIE f(t): the cube root above (6/29)^3, the linear foot below, as OpenCV computes
/// it (`x < lthresh ? mulAdd(x, lscale, lbias) : cbrt(x)`).
fn lab_f(t: f32) -> f32 {
    let (threshold, scale, bias) = lab_foot();
    if t < threshold { t.mul_add(scale, bias) } else { softfloat_cbrt(t) }
}

fn build() -> Tables {
    let m = |bits: &[u64]| -> Vec<f64> { bits.iter().map(|&b| f64::from_bits(b)).collect() };
    let (to_xyz_m, to_rgb_m, white) = (m(&SRGB_TO_XYZ_BITS), m(&XYZ_TO_SRGB_BITS), m(&D65_BITS));
    let one_matrix = f64::from(1 << MATRIX_SHIFT);

    let linear_scale = 255.0f32 * (1 << GAMMA_SHIFT) as f32;
    let gamma =
        std::array::from_fn(|i| round_even(f64::from(linear_scale * to_linear(i as f32 / 255.0))) as u16);

    let step = 1.0f32 / linear_scale;
    let one_lab = (1 << LAB_SHIFT) as f32;
    let cube_root = (0..CUBE_ROOT_ENTRIES)
        .map(|i| round_even(f64::from(one_lab * lab_f(step * i as f32))) as u16)
        .collect();

    // RGB2Lab_b's constructor, blueIdx 0: each row's B, G, R coefficients.
    let to_xyz = std::array::from_fn(|k| {
        let (row, col) = (k / 3, 2 - k % 3);
        round_even(one_matrix * to_xyz_m[row * 3 + col] / white[row])
    });

    let lut_base = BASE as f32;
    let y_and_fy = std::array::from_fn(|i| {
        // At or below L = 8 (byte 20) Y is linear in L, above it is f(Y)^3.
        if i <= 20 {
            let y = round_even(f64::from((i as i32 * BASE * 20 * 9) as f32 / (17 * 29 * 29 * 29) as f32));
            let fy = lut_base * (16.0f32 / 116.0 + (i as i32 * 5) as f32 / (3 * 17 * 29) as f32);
            [y, round_even(f64::from(fy))]
        } else {
            let fy = (i as i32 * 100 * BASE) as f32 / (255 * 116) as f32 + (16 * BASE) as f32 / 116.0;
            [round_even(f64::from(fy * fy * fy / (BASE as f32 * BASE as f32))), round_even(f64::from(fy))]
        }
    });

    // initLUTforABXZ: integers only. The foot's threshold 6/29 x 2^14 = 3389.7.
    let ab_to_xz = (MIN_AB..MIN_AB + AB_ENTRIES as i32)
        .map(|i| {
            if i <= 3390 {
                i * 108 / 841 - BASE * 16 / 116 * 108 / 841
            } else {
                let i = i64::from(i);
                (i * i / i64::from(BASE) * i / i64::from(BASE)) as i32
            }
        })
        .collect();

    // Lab2RGBinteger's constructor, blueIdx 0: row R, G, B over X, Y, Z times white.
    let to_rgb = std::array::from_fn(|k| {
        let (row, col) = (k / 3, k % 3);
        round_even(one_matrix * to_rgb_m[row * 3 + col] * white[col])
    });

    let step = 1.0f32 / INV_GAMMA_ENTRIES as f32;
    let inv_gamma = (0..INV_GAMMA_ENTRIES)
        .map(|i| round_even(f64::from(255.0f32 * to_srgb(step * i as f32))).clamp(0, 255) as u8)
        .collect();

    Tables { gamma, cube_root, to_xyz, y_and_fy, ab_to_xz, to_rgb, inv_gamma }
}

/// OpenCV's `CV_DESCALE`: shifted right by `n` bits, rounded (half up).
fn descale(v: i32, n: u32) -> i32 {
    v.wrapping_add(1 << (n - 1)) >> n
}

/// One BGR pixel's 8-bit Lab (`RGB2Lab_b`).
fn lab_of(t: &Tables, bgr: [u8; 3]) -> [u8; 3] {
    let [b, g, r] = bgr.map(|v| i32::from(t.gamma[usize::from(v)]));
    let c = &t.to_xyz;
    let f = |k: usize| {
        let i = descale(b * c[k] + g * c[k + 1] + r * c[k + 2], MATRIX_SHIFT);
        i32::from(t.cube_root[i as usize])
    };
    let (fx, fy, fz) = (f(0), f(3), f(6));
    // L x 255 / 100 = 116 f(Y) - 16, and a and b offset by 128, in 2^15 fixed point.
    let l_scale = (116 * 255 + 50) / 100;
    let l_shift = -((16 * 255 * (1 << LAB_SHIFT) + 50) / 100);
    let offset = 128 * (1 << LAB_SHIFT);
    let byte = |v: i32| v.clamp(0, 255) as u8;
    [
        byte(descale(l_scale * fy + l_shift, LAB_SHIFT)),
        byte(descale(500 * (fx - fy) + offset, LAB_SHIFT)),
        byte(descale(200 * (fy - fz) + offset, LAB_SHIFT)),
    ]
}

/// One 8-bit Lab pixel's BGR (`Lab2RGBinteger::process`).
fn bgr_of(t: &Tables, lab: [u8; 3]) -> [u8; 3] {
    let [l, a, b] = lab.map(i32::from);
    let [y, fy] = t.y_and_fy[l as usize];
    // a / 500 and b / 200 in 2^14 fixed point, as OpenCV approximates them.
    let a_div = ((5 * a * 53687 + (1 << 7)) >> 13) - 128 * BASE / 500;
    let b_div = ((b * 41943 + (1 << 4)) >> 9) - 128 * BASE / 200 + 1;
    let xz = |f: i32| t.ab_to_xz[(f - MIN_AB) as usize];
    let (x, z) = (xz(fy + a_div), xz(fy - b_div));
    let c = &t.to_rgb;
    let shift = MATRIX_SHIFT + BASE_SHIFT - INV_GAMMA_SHIFT;
    let channel = |k: usize| {
        let v = descale(
            c[k].wrapping_mul(x)
                .wrapping_add(c[k + 1].wrapping_mul(y))
                .wrapping_add(c[k + 2].wrapping_mul(z)),
            shift,
        );
        t.inv_gamma[v.clamp(0, INV_GAMMA_ENTRIES as i32 - 1) as usize]
    };
    let (r, g, b) = (channel(0), channel(3), channel(6));
    [b, g, r]
}

/// Each pixel of an 8-bit 3-channel image through `pixel`, into a new image of the
/// same size: in two halves on two threads when the image is large.
fn convert(from: &Mat, pixel: fn(&Tables, [u8; 3]) -> [u8; 3]) -> Result<Mat, VisionError> {
    let t = tables();
    let owned;
    let from = if from.is_continuous() {
        from
    } else {
        owned = from.try_clone()?;
        &owned
    };
    let mut to =
        Mat::new_rows_cols_with_default(from.rows(), from.cols(), opencv::core::CV_8UC3, Scalar::all(0.0))?;
    let src = from.data_typed::<Vec3b>()?;
    let dst = to.data_typed_mut::<Vec3b>()?;
    let run = |dst: &mut [Vec3b], src: &[Vec3b]| {
        for (o, p) in dst.iter_mut().zip(src) {
            *o = Vec3b::from(pixel(t, [p[0], p[1], p[2]]));
        }
    };
    if src.len() < PARALLEL_MIN_PIXELS {
        run(dst, src);
    } else {
        let half = src.len() / 2;
        let (dst_a, dst_b) = dst.split_at_mut(half);
        let (src_a, src_b) = src.split_at(half);
        std::thread::scope(|s| {
            s.spawn(|| run(dst_b, src_b));
            run(dst_a, src_a);
        });
    }
    Ok(to)
}

/// Below this many pixels a conversion stays on the calling thread: a thread's start
/// (tens of microseconds) against some 80 instructions a pixel (callgrind, tagged-304's
/// surface), so only whole surfaces (2.2 M pixels) are split. Not tuned.
const PARALLEL_MIN_PIXELS: usize = 1 << 16;

/// An 8-bit BGR image (`CV_8UC3`) in 8-bit Lab, as OpenCV's `COLOR_BGR2Lab`.
pub(crate) fn bgr_to_lab(bgr: &Mat) -> Result<Mat, VisionError> {
    convert(bgr, lab_of)
}

/// An 8-bit Lab image (`CV_8UC3`) in 8-bit BGR, as OpenCV's `COLOR_Lab2BGR`.
pub(crate) fn lab_to_bgr(lab: &Mat) -> Result<Mat, VisionError> {
    convert(lab, bgr_of)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All 2^24 byte triples, one per pixel of a 4096 x 4096 image.
    fn every_triple() -> Mat {
        let mut m =
            Mat::new_rows_cols_with_default(4096, 4096, opencv::core::CV_8UC3, Scalar::all(0.0)).unwrap();
        for (k, o) in m.data_typed_mut::<Vec3b>().unwrap().iter_mut().enumerate() {
            *o = Vec3b::from([(k >> 16) as u8, (k >> 8) as u8, k as u8]);
        }
        m
    }

    /// The pixels where two images differ, with the first few of them.
    fn differing(input: &Mat, ours: &Mat, opencv: &Mat) -> (usize, Vec<String>) {
        let (i, o, c) = (
            input.data_typed::<Vec3b>().unwrap(),
            ours.data_typed::<Vec3b>().unwrap(),
            opencv.data_typed::<Vec3b>().unwrap(),
        );
        let mut n = 0;
        let mut first = Vec::new();
        for k in 0..i.len() {
            if o[k] != c[k] {
                n += 1;
                if first.len() < 8 {
                    first.push(format!("{:?}: ours {:?}, OpenCV {:?}", i[k].0, o[k].0, c[k].0));
                }
            }
        }
        (n, first)
    }

    /// Every BGR colour's 8-bit Lab is OpenCV's, byte for byte.
    #[test]
    fn bgr_to_lab_is_opencv_on_every_colour() {
        let bgr = every_triple();
        let mut cv = Mat::default();
        opencv::imgproc::cvt_color_def(&bgr, &mut cv, opencv::imgproc::COLOR_BGR2Lab).unwrap();
        let (n, first) = differing(&bgr, &bgr_to_lab(&bgr).unwrap(), &cv);
        assert_eq!(n, 0, "{n} colours differ: {first:?}");
    }

    /// Every 8-bit Lab triple's BGR is OpenCV's, byte for byte.
    #[test]
    fn lab_to_bgr_is_opencv_on_every_triple() {
        let lab = every_triple();
        let mut cv = Mat::default();
        opencv::imgproc::cvt_color_def(&lab, &mut cv, opencv::imgproc::COLOR_Lab2BGR).unwrap();
        let (n, first) = differing(&lab, &lab_to_bgr(&lab).unwrap(), &cv);
        assert_eq!(n, 0, "{n} triples differ: {first:?}");
    }

    /// A small image (converted on one thread) converts as the same pixels in a large
    /// one (two threads) do.
    #[test]
    fn small_images_convert_alike() {
        let all = every_triple();
        let whole = bgr_to_lab(&all).unwrap();
        let roi = opencv::core::Rect::new(100, 200, 300, 50);
        let part = bgr_to_lab(&Mat::roi(&all, roi).unwrap().try_clone().unwrap()).unwrap();
        let expected = Mat::roi(&whole, roi).unwrap().try_clone().unwrap();
        assert!(part.total() < PARALLEL_MIN_PIXELS);
        assert_eq!(part.data_typed::<Vec3b>().unwrap(), expected.data_typed::<Vec3b>().unwrap());
    }

    /// softfloat's cube root is within a float's ulp or two of the true one (it
    /// truncates its mantissa).
    #[test]
    fn softfloat_cube_root_is_a_cube_root() {
        for k in 1..=3000 {
            let x = k as f32 / 2040.0;
            let (ours, exact) = (softfloat_cbrt(x), f64::from(x).cbrt());
            assert!((f64::from(ours) - exact).abs() <= 2.0 * exact * f64::from(f32::EPSILON), "{x}: {ours}");
        }
        assert_eq!(softfloat_cbrt(0.0), 0.0);
    }
}
