//! Seeded, position-hashed noise: the same seed and point always give the same value,
//! whatever order threads evaluate them in.

/// A 64-bit mix of a seed and two lattice coordinates (SplitMix64 finalizer).
pub(crate) fn hash2(seed: u64, x: i64, y: i64) -> u64 {
    let mut z = seed
        ^ (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A hash as a number in `[0, 1)`.
pub(crate) fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// Value noise in `[0, 1]` with lattice spacing 1, smoothly interpolated.
pub(crate) fn value(seed: u64, x: f64, y: f64) -> f64 {
    let (fx, fy) = (x.floor(), y.floor());
    let (ix, iy) = (fx as i64, fy as i64);
    let smooth = |t: f64| t * t * (3.0 - 2.0 * t);
    let (tx, ty) = (smooth(x - fx), smooth(y - fy));
    let v = |dx: i64, dy: i64| unit(hash2(seed, ix + dx, iy + dy));
    let top = v(0, 0) + (v(1, 0) - v(0, 0)) * tx;
    let bottom = v(0, 1) + (v(1, 1) - v(0, 1)) * tx;
    top + (bottom - top) * ty
}

/// Fractal value noise in `[0, 1]`: `octaves` layers, each at twice the frequency and
/// half the amplitude of the one before, the first with spacing `scale`.
pub(crate) fn fractal(seed: u64, x: f64, y: f64, scale: f64, octaves: u32) -> f64 {
    let (mut sum, mut norm, mut amp, mut freq) = (0.0, 0.0, 1.0, 1.0 / scale);
    for octave in 0..octaves {
        sum += amp * value(seed.wrapping_add(u64::from(octave)), x * freq, y * freq);
        norm += amp;
        amp *= 0.5;
        freq *= 2.0;
    }
    sum / norm
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_deterministic_bounded_and_seeded() {
        let a: Vec<f64> = (0..200).map(|i| fractal(7, i as f64 * 0.37, i as f64 * 0.11, 5.0, 4)).collect();
        let b: Vec<f64> = (0..200).map(|i| fractal(7, i as f64 * 0.37, i as f64 * 0.11, 5.0, 4)).collect();
        let c: Vec<f64> = (0..200).map(|i| fractal(8, i as f64 * 0.37, i as f64 * 0.11, 5.0, 4)).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.iter().all(|v| (0.0..=1.0).contains(v)));
        let mean = a.iter().sum::<f64>() / a.len() as f64;
        assert!((0.3..0.7).contains(&mean), "{mean}");
        // Lattice values are continuous: a small step changes little.
        assert!((value(1, 3.5, 2.5) - value(1, 3.5001, 2.5)).abs() < 1e-3);
    }
}
