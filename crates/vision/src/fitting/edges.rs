//! Straight edges around a blob: the photo rectified onto the base tops around it at
//! [`FINE_PX_PER_MM`], each colour channel's gradient, and their signed sums across a
//! direction (a profile). A base edge is straight and keeps one sign of contrast along
//! its length, so it adds up to a sharp peak of the profile across it; figures' outlines
//! are short, curved and of either sign, and average out. The formation's direction is
//! the one whose two perpendicular profiles are sharpest.

use super::surface::{Blob, COARSE_PX_PER_MM};
use crate::error::VisionError;
use crate::pose::CameraModel;
use crate::rectify::Rectified;
use opencv::core::{Mat, Size, Vec3b};
use opencv::prelude::*;
use vedette_geometry::{ConvexPolygon, Vec2};

/// Resolution of the edge fit, px per mm (about twice a 12 MP photo's own on a 6'x4'
/// table, so that the photo's pixels are not lost to the resampling).
pub(crate) const FINE_PX_PER_MM: f64 = 3.0;
/// How far around a blob's bounding box the photo is rectified, mm.
const ROI_MARGIN_MM: f64 = 8.0;
/// Gradients further than this from the blob are left out (a neighbour's edges), mm.
const BLOB_REACH_MM: i32 = 4;
/// Gradients weaker than this (summed over the channels, 8-bit units per pixel) are
/// left out: flat mat and flat flock hold no edge.
const MIN_GRADIENT: f32 = 3.0;
/// Step of the coarse search over directions, degrees.
const COARSE_STEP_DEG: f64 = 2.0;
/// A direction other than the sharpest is tried when its profiles are at least this
/// share as sharp as the sharpest's ...
const OTHER_DIRECTION_SHARE: f64 = 0.3;
/// ... and it is at least this far from a sharper one, degrees (nearer, it is the
/// same edges' shoulder: a formation's own sloppiness is a few degrees).
const OTHER_DIRECTION_APART_DEG: f64 = 8.0;

/// The gradients around one blob.
pub(crate) struct EdgePoints {
    /// Where, table mm.
    pub pos: Vec<Vec2>,
    /// Per colour channel, the gradient (x, y), 8-bit units per mm.
    pub grad: Vec<[[f32; 2]; 3]>,
}

/// The gradients of the photo around blob `index` of `blobs` (the blob and
/// [`BLOB_REACH_MM`] around it; other blobs' pixels left out).
pub(crate) fn edge_points(
    photo: &Mat,
    model: &CameraModel,
    top_mm: f64,
    blob: &Blob,
) -> Result<EdgePoints, VisionError> {
    let margin = Vec2::new(ROI_MARGIN_MM, ROI_MARGIN_MM);
    let (min, max) = (blob.min - margin, blob.max + margin);
    let rect = Rectified::new(photo, model, top_mm, (min, max), FINE_PX_PER_MM)?;
    let mut blurred = Mat::default();
    opencv::imgproc::gaussian_blur_def(&rect.image, &mut blurred, Size::new(5, 5), 1.0)?;
    let (cols, rows) = rect.size()?;
    let (w, h) = (cols as usize, rows as usize);
    // The blob grown by BLOB_REACH_MM on a coarse grid over the ROI.
    let (gw, gh) = (
        ((max.x - min.x) * COARSE_PX_PER_MM).ceil() as usize + 1,
        ((max.y - min.y) * COARSE_PX_PER_MM).ceil() as usize + 1,
    );
    let mut near = vec![false; gw * gh];
    let reach = BLOB_REACH_MM as i64;
    for p in &blob.points {
        let cx = ((p.x - min.x) * COARSE_PX_PER_MM).floor() as i64;
        let cy = ((p.y - min.y) * COARSE_PX_PER_MM).floor() as i64;
        for dy in -reach..=reach {
            for dx in -reach..=reach {
                let (x, y) = (cx + dx, cy + dy);
                if dx * dx + dy * dy <= reach * reach
                    && x >= 0
                    && y >= 0
                    && (x as usize) < gw
                    && (y as usize) < gh
                {
                    near[y as usize * gw + x as usize] = true;
                }
            }
        }
    }
    let px = blurred.data_typed::<Vec3b>()?;
    let mut pos = Vec::new();
    let mut grad = Vec::new();
    let per_mm = (FINE_PX_PER_MM / 2.0) as f32;
    // A pixel's table x and its cell's column depend on its column alone, its y and
    // its cell's row on its row: each made once (the same operations as per pixel).
    let cell = |t: f64, lo: f64| ((t - lo) * COARSE_PX_PER_MM).floor() as usize;
    let columns: Vec<(f64, usize)> = (0..w)
        .map(|x| {
            let t = rect.to_table([x as f64, 0.0]).x;
            (t, cell(t, min.x))
        })
        .collect();
    for y in 1..h.saturating_sub(1) {
        let ty = rect.to_table([0.0, y as f64]).y;
        let gy_cell = cell(ty, min.y);
        for (x, &(tx, gx_cell)) in columns.iter().enumerate().take(w.saturating_sub(1)).skip(1) {
            if !near.get(gy_cell * gw + gx_cell).copied().unwrap_or(false) {
                continue;
            }
            let q = Vec2::new(tx, ty);
            let i = y * w + x;
            let mut g = [[0f32; 2]; 3];
            let mut total = 0f32;
            for (c, gc) in g.iter_mut().enumerate() {
                let gx = f32::from(px[i + 1][c]) - f32::from(px[i - 1][c]);
                let gy = f32::from(px[i + w][c]) - f32::from(px[i - w][c]);
                *gc = [gx * per_mm, gy * per_mm];
                total += gx.abs() + gy.abs();
            }
            if total >= MIN_GRADIENT {
                pos.push(q);
                grad.push(g);
            }
        }
    }
    Ok(EdgePoints { pos, grad })
}

/// The edge points laid out for [`Profiles::sharpness`]'s inner loop: each point's
/// position and its channels' gradient along x and along y side by side, the three
/// channels padded to four lanes (the fourth zero) so that a point's projections on a
/// direction are made several channels at a time. Every sum is the plain one's, in the
/// same order, to the bit.
struct Profiles {
    points: Vec<Laid>,
    /// The points' convex hull's vertices, where their extent along any direction is
    /// reached.
    hull: Vec<Vec2>,
    /// The sharpnesses already measured: (angle, step, bin) as bits, the sharpness.
    known: std::cell::RefCell<Vec<([u64; 3], f64)>>,
}

/// One edge point as [`Profiles`] lays it out.
struct Laid {
    pos: Vec2,
    gx: [f32; 4],
    gy: [f32; 4],
}

impl Profiles {
    fn new(points: &EdgePoints) -> Profiles {
        let lanes = |g: &[[f32; 2]; 3], axis: usize| [g[0][axis], g[1][axis], g[2][axis], 0.0];
        Profiles {
            points: points
                .pos
                .iter()
                .zip(&points.grad)
                .map(|(&pos, g)| Laid { pos, gx: lanes(g, 0), gy: lanes(g, 1) })
                .collect(),
            hull: ConvexPolygon::hull(&points.pos).vertices().to_vec(),
            known: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// The sharpness of the profiles of the points across the direction `angle_deg`
    /// (counter-clockwise from +x) and across its perpendicular, summed: every
    /// `step`-th point, bins `bin_mm` wide. Both profiles are summed in one pass over
    /// the points. A direction asked for again (the same angle, step and bin, to the
    /// bit) is not measured again.
    fn sharpness(&self, angle_deg: f64, step: usize, bin_mm: f64) -> f64 {
        let key = [angle_deg.to_bits(), step as u64, bin_mm.to_bits()];
        if let Some(&(_, e)) = self.known.borrow().iter().find(|(k, _)| *k == key) {
            return e;
        }
        let e = self.measure(angle_deg, step, bin_mm);
        self.known.borrow_mut().push((key, e));
        e
    }

    fn measure(&self, angle_deg: f64, step: usize, bin_mm: f64) -> f64 {
        let normals = [Vec2::from_heading_deg(angle_deg), Vec2::from_heading_deg(angle_deg + 90.0)];
        let mut lows = [0.0; 2];
        let mut sums: [Vec<[f64; 4]>; 2] = [Vec::new(), Vec::new()];
        for ((n, low), bins) in normals.iter().zip(&mut lows).zip(&mut sums) {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for p in &self.hull {
                let s = p.dot(*n);
                lo = lo.min(s);
                hi = hi.max(s);
            }
            if !lo.is_finite() {
                return 0.0;
            }
            *low = lo;
            *bins = vec![[0f64; 4]; ((hi - lo) / bin_mm).ceil() as usize + 2];
        }
        let (n0, n1) = (normals[0], normals[1]);
        let (x0, y0, x1, y1) = (n0.x as f32, n0.y as f32, n1.x as f32, n1.y as f32);
        let [first, second] = &mut sums;
        // A point's bin: `(t as usize)`'s, for which `t as u32` stands (both saturate,
        // NaN and below zero to 0; no list of bins holds 2^32).
        let bin_of = |t: f64| (t as u32) as usize;
        // A point shared between the two bins whose middles it lies between, by its
        // nearness to each: along a direction of the raster, the points lie on a few
        // lines whose share of each bin would otherwise jump with the angle.
        let add = |bins: &mut [[f64; 4]], t: f64, p: &Laid, x: f32, y: f32| {
            let k = bin_of(t);
            let f = (t - k as f64).clamp(0.0, 1.0);
            let v: [f32; 4] = std::array::from_fn(|c| p.gx[c] * x + p.gy[c] * y);
            for (bin, w) in [(k, 1.0 - f), (k + 1, f)] {
                if let Some(bin) = bins.get_mut(bin) {
                    for c in 0..4 {
                        bin[c] += w * f64::from(v[c]);
                    }
                }
            }
        };
        for p in self.points.iter().step_by(step.max(1)) {
            add(first, (p.pos.dot(n0) - lows[0]) / bin_mm, p, x0, y0);
            add(second, (p.pos.dot(n1) - lows[1]) / bin_mm, p, x1, y1);
        }
        let energy = |bins: &[[f64; 4]]| bins.iter().flat_map(|b| &b[..3]).map(|v| v * v).sum::<f64>();
        energy(first) + energy(second)
    }
}

/// The directions of the formations' edges in a blob, degrees in `[0, 90)`, the
/// sharpest first: each angle whose profile and its perpendicular's are sharpest
/// together, against its neighbours. A coarse search over every direction on a sample
/// of the points; its local maxima at least [`OTHER_DIRECTION_SHARE`] of the sharpest
/// and [`OTHER_DIRECTION_APART_DEG`] from a sharper one (at most `most` in all);
/// each refined by a finer search about it on a sample, the
/// finest on every point, then a parabola through the finest three; with each, its
/// coarse sharpness over the sharpest's (1 for the first). A blob holding
/// one formation has one sharp direction; one where units at other angles touch (or
/// a small base whose figures outweigh its edges) has more.
pub(crate) fn orientations(points: &EdgePoints, most: usize) -> Vec<(f64, f64)> {
    let profiles = Profiles::new(points);
    let sharp = |a: f64, stride: usize, bin: f64| profiles.sharpness(a, stride, bin);
    let search = |centre: f64, half: i32, step_deg: f64, stride: usize, bin: f64| {
        let mut best = (centre, f64::NEG_INFINITY);
        for k in -half..=half {
            let a = centre + f64::from(k) * step_deg;
            let e = sharp(a, stride, bin);
            if e > best.1 {
                best = (a, e);
            }
        }
        best
    };
    let fine_bin = 1.0 / FINE_PX_PER_MM;
    // The coarse search over [0, 90) in steps of COARSE_STEP_DEG (the profile pair
    // repeats every quarter turn), its local maxima, the sharpest first.
    let steps = (90.0 / COARSE_STEP_DEG).round() as usize;
    let coarse: Vec<f64> = (0..steps)
        .map(|k| sharp(k as f64 * COARSE_STEP_DEG, (points.pos.len() / 20_000).max(1), 1.0))
        .collect();
    let mut peaks: Vec<(f64, f64)> = (0..steps)
        .filter(|&k| {
            let (prev, next) = (coarse[(k + steps - 1) % steps], coarse[(k + 1) % steps]);
            coarse[k] >= prev && coarse[k] > next
        })
        .map(|k| (k as f64 * COARSE_STEP_DEG, coarse[k]))
        .collect();
    peaks.sort_by(|x, y| y.1.total_cmp(&x.1));
    let top = peaks.first().map_or(0.0, |p| p.1);
    let apart = |a: f64, b: f64| {
        let d = (a - b).rem_euclid(90.0);
        d.min(90.0 - d)
    };
    let mut chosen: Vec<(f64, f64)> = Vec::new();
    for (a, e) in peaks {
        if chosen.len() >= most.max(1) || (!chosen.is_empty() && e < OTHER_DIRECTION_SHARE * top) {
            break;
        }
        if chosen.iter().any(|&(c, _)| apart(c, a) < OTHER_DIRECTION_APART_DEG) {
            continue;
        }
        chosen.push((a, if top > 0.0 { e / top } else { 1.0 }));
    }
    if chosen.is_empty() {
        chosen.push((0.0, 1.0));
    }
    let refine = |coarse: f64| {
        let (near, _) = search(coarse, 6, 0.25, (points.pos.len() / 40_000).max(1), fine_bin);
        let (a, e0) = search(near, 3, 0.05, 1, fine_bin);
        let (em, ep) = (sharp(a - 0.05, 1, fine_bin), sharp(a + 0.05, 1, fine_bin));
        let curve = em - 2.0 * e0 + ep;
        let shift = if curve < 0.0 { (0.5 * (em - ep) / curve).clamp(-0.5, 0.5) * 0.05 } else { 0.0 };
        (a + shift).rem_euclid(90.0)
    };
    chosen.into_iter().map(|(a, share)| (refine(a), share)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The edge points of a `frontage` x `depth` mm rectangle about `centre`, its
    /// depth along `angle_deg`: every third of a mm along its outline, each with a
    /// colour step of `step` per channel across it (darker outside).
    fn rectangle(centre: Vec2, frontage: f64, depth: f64, angle_deg: f64, step: f32, into: &mut EdgePoints) {
        let (f, r) = (Vec2::from_heading_deg(angle_deg), Vec2::from_heading_deg(angle_deg - 90.0));
        for (normal, along, half, length) in [
            (f, r, depth / 2.0, frontage),
            (-f, r, depth / 2.0, frontage),
            (r, f, frontage / 2.0, depth),
            (-r, f, frontage / 2.0, depth),
        ] {
            let n = (length * FINE_PX_PER_MM) as usize;
            for k in 0..=n {
                let p = centre + normal * half + along * (k as f64 / FINE_PX_PER_MM - length / 2.0);
                let g = [-(normal.x as f32) * step, -(normal.y as f32) * step];
                into.pos.push(p);
                into.grad.push([g; 3]);
            }
        }
    }

    /// One profile's sharpness, summed on its own (as before the two perpendicular
    /// profiles were summed in one pass).
    fn one_profile(points: &EdgePoints, hull: &[Vec2], angle_deg: f64, step: usize, bin_mm: f64) -> f64 {
        let n = Vec2::from_heading_deg(angle_deg);
        let lo = hull.iter().map(|p| p.dot(n)).fold(f64::INFINITY, f64::min);
        let hi = hull.iter().map(|p| p.dot(n)).fold(f64::NEG_INFINITY, f64::max);
        let mut sums = vec![[0f64; 3]; ((hi - lo) / bin_mm).ceil() as usize + 2];
        let (nx, ny) = (n.x as f32, n.y as f32);
        for (p, g) in points.pos.iter().zip(&points.grad).step_by(step) {
            let t = (p.dot(n) - lo) / bin_mm;
            let k = t as usize;
            let f = (t - k as f64).clamp(0.0, 1.0);
            for (bin, w) in [(k, 1.0 - f), (k + 1, f)] {
                if let Some(bin) = sums.get_mut(bin) {
                    for c in 0..3 {
                        bin[c] += w * f64::from(g[c][0] * nx + g[c][1] * ny);
                    }
                }
            }
        }
        sums.iter().flatten().map(|v| v * v).sum()
    }

    /// The two perpendicular profiles summed in one pass, the channels four lanes at a
    /// time, give to the bit what each profile summed on its own gives (the directions
    /// found do not move, issue 36), the second time a direction is asked for too.
    #[test]
    fn both_profiles_in_one_pass_are_each_profile_on_its_own() {
        let mut points = EdgePoints { pos: Vec::new(), grad: Vec::new() };
        rectangle(Vec2::new(500.0, 400.0), 160.0, 30.0, 10.0, 20.0, &mut points);
        rectangle(Vec2::new(500.0, 470.0), 100.0, 40.0, 40.0, 13.0, &mut points);
        let profiles = Profiles::new(&points);
        let h = &profiles.hull;
        for (angle, step, bin) in [(0.0, 1, 1.0), (10.3, 1, 1.0 / 3.0), (37.0, 2, 1.0), (88.25, 3, 1.0 / 3.0)]
        {
            let two =
                one_profile(&points, h, angle, step, bin) + one_profile(&points, h, angle + 90.0, step, bin);
            for _ in 0..2 {
                assert_eq!(profiles.sharpness(angle, step, bin).to_bits(), two.to_bits(), "{angle} deg");
            }
        }
    }

    /// Numbers in [0, 1) from `seed` (xorshift64*): the tests' fixed-seed noise.
    fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// The same on scattered points with random gradients of either sign (a fixed
    /// seed), at every angle of a coarse and a fine search.
    #[test]
    fn profiles_of_random_points_are_the_plain_sums_to_the_bit() {
        let mut next = uniform(0x9e37_79b9_7f4a_7c15);
        let mut points = EdgePoints { pos: Vec::new(), grad: Vec::new() };
        for _ in 0..5_000 {
            points.pos.push(Vec2::new(300.0 + 140.0 * next(), 700.0 + 90.0 * next()));
            points
                .grad
                .push(std::array::from_fn(|_| [(next() as f32 - 0.5) * 90.0, (next() as f32 - 0.5) * 90.0]));
        }
        let profiles = Profiles::new(&points);
        let h = &profiles.hull;
        for k in 0..120 {
            let angle = f64::from(k) * 0.77;
            for (step, bin) in [(1, 1.0 / 3.0), (3, 1.0)] {
                let two = one_profile(&points, h, angle, step, bin)
                    + one_profile(&points, h, angle + 90.0, step, bin);
                assert_eq!(profiles.sharpness(angle, step, bin).to_bits(), two.to_bits(), "{angle} deg");
            }
        }
    }

    /// The hull's extent along any direction is the points' own.
    #[test]
    fn the_hull_reaches_as_far_as_the_points_every_way() {
        let points: Vec<Vec2> = (0..500)
            .map(|k| {
                let t = k as f64 * 0.37;
                Vec2::new(100.0 + 40.0 * t.cos() * (1.0 + 0.3 * (3.0 * t).sin()), 50.0 + 25.0 * t.sin())
            })
            .collect();
        let hull = ConvexPolygon::hull(&points);
        let h = hull.vertices();
        assert!(h.len() >= 3 && h.len() < points.len(), "{}", h.len());
        for k in 0..360 {
            let n = Vec2::from_heading_deg(f64::from(k));
            let most = |ps: &[Vec2]| ps.iter().map(|p| p.dot(n)).fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(most(h), most(&points), "{k} deg");
        }
    }

    /// A texture with no straight edge and no direction (noise with a fixed seed, 1.5
    /// px per mm, resampled bilinearly to [`FINE_PX_PER_MM`] and differenced as
    /// [`edge_points`] does after its blur), on the fine raster's pixel centres about
    /// `origin`, inside a disc `radius_mm` across.
    fn texture_on_the_raster(origin: Vec2, radius_mm: f64, into: &mut EdgePoints) -> Result<(), VisionError> {
        let mut next = uniform(0x2545_f491_4f6c_dd1d);
        let source_px_per_mm = 1.5;
        let n = (2.0 * radius_mm * FINE_PX_PER_MM) as usize;
        let m = (2.0 * radius_mm * source_px_per_mm) as usize + 3;
        let noise: Vec<[f64; 3]> =
            (0..m * m).map(|_| std::array::from_fn(|_| 100.0 + 40.0 * next())).collect();
        let mut image = Mat::new_rows_cols_with_default(
            n as i32,
            n as i32,
            opencv::core::CV_8UC3,
            opencv::core::Scalar::all(0.0),
        )?;
        let scale = source_px_per_mm / FINE_PX_PER_MM;
        for y in 0..n {
            for x in 0..n {
                let (sx, sy) = ((x as f64 + 0.5) * scale, (y as f64 + 0.5) * scale);
                let (ix, iy) = (sx as usize, sy as usize);
                let (fx, fy) = (sx - ix as f64, sy - iy as f64);
                let at = |i: usize, j: usize, c: usize| noise[j * m + i][c];
                let v: [u8; 3] = std::array::from_fn(|c| {
                    let top = at(ix, iy, c) * (1.0 - fx) + at(ix + 1, iy, c) * fx;
                    let bottom = at(ix, iy + 1, c) * (1.0 - fx) + at(ix + 1, iy + 1, c) * fx;
                    (top * (1.0 - fy) + bottom * fy).round() as u8
                });
                *image.at_2d_mut::<Vec3b>(y as i32, x as i32)? = Vec3b::from(v);
            }
        }
        let mut blurred = Mat::default();
        opencv::imgproc::gaussian_blur_def(&image, &mut blurred, Size::new(5, 5), 1.0)?;
        let px = blurred.data_typed::<Vec3b>()?;
        let per_mm = (FINE_PX_PER_MM / 2.0) as f32;
        let centre = origin + Vec2::new(radius_mm, radius_mm);
        for y in 1..n - 1 {
            for x in 1..n - 1 {
                let p =
                    origin + Vec2::new((x as f64 + 0.5) / FINE_PX_PER_MM, (y as f64 + 0.5) / FINE_PX_PER_MM);
                let r = p - centre;
                if r.dot(r) > radius_mm * radius_mm {
                    continue;
                }
                let i = y * n + x;
                into.pos.push(p);
                into.grad.push(std::array::from_fn(|c| {
                    let gx = f32::from(px[i + 1][c]) - f32::from(px[i - 1][c]);
                    let gy = f32::from(px[i + n][c]) - f32::from(px[i - n][c]);
                    [gx * per_mm, gy * per_mm]
                }));
            }
        }
        Ok(())
    }

    /// Issue 37: a texture's profiles on the raster the photo was rectified onto are no
    /// sharper along the raster's rows and columns than a twentieth of a degree off
    /// them (a row of pixels lying on a boundary between two bins is shared between
    /// them, not put whole in one or the other as the rounding falls), and a
    /// formation's edges 1° off a row among that texture are found at 1°, not on the
    /// row.
    #[test]
    fn the_rasters_rows_and_columns_are_no_sharper_than_any_direction() {
        let mut texture = EdgePoints { pos: Vec::new(), grad: Vec::new() };
        texture_on_the_raster(Vec2::new(1234.567, 891.234), 25.0, &mut texture).unwrap();
        let profiles = Profiles::new(&texture);
        let fine = 1.0 / FINE_PX_PER_MM;
        for (raster, off) in [(0.0, 0.05), (0.0, -0.05), (90.0, 89.95)] {
            let (on, beside) = (profiles.sharpness(raster, 1, fine), profiles.sharpness(off, 1, fine));
            assert!(on < 1.05 * beside, "{raster} deg {on}, {off} deg {beside}");
        }
        let mut both = texture;
        rectangle(Vec2::new(1259.567, 916.234), 40.0, 20.0, 1.0, 16.0, &mut both);
        let found = orientations(&both, 1);
        assert!(apart(found[0].0, 1.0) < 0.5, "{found:?}");
    }

    fn apart(a: f64, b: f64) -> f64 {
        let d = (a - b).rem_euclid(90.0);
        d.min(90.0 - d)
    }

    /// Issue 37: a blob where a 160 x 30 mm line at 10° touches a 100 x 40 mm formation at 40° has
    /// two directions of straight edges, the longer edges' first; asked for one, only
    /// that; a blob of one formation has one, however many are allowed.
    #[test]
    fn a_blob_of_two_formations_at_other_angles_has_two_directions() {
        let mut both = EdgePoints { pos: Vec::new(), grad: Vec::new() };
        rectangle(Vec2::new(500.0, 400.0), 160.0, 30.0, 10.0, 20.0, &mut both);
        rectangle(Vec2::new(500.0, 470.0), 100.0, 40.0, 40.0, 20.0, &mut both);
        let found = orientations(&both, 3);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(apart(found[0].0, 10.0) < 0.2, "{found:?}");
        assert!(apart(found[1].0, 40.0) < 0.2, "{found:?}");
        assert!(found[0].1 == 1.0 && found[1].1 >= OTHER_DIRECTION_SHARE && found[1].1 < 1.0, "{found:?}");
        let one = orientations(&both, 1);
        assert!(one.len() == 1 && apart(one[0].0, 10.0) < 0.2, "{one:?}");
        let mut alone = EdgePoints { pos: Vec::new(), grad: Vec::new() };
        rectangle(Vec2::new(300.0, 300.0), 120.0, 40.0, 63.0, 20.0, &mut alone);
        let found = orientations(&alone, 3);
        assert!(found.len() == 1 && apart(found[0].0, 63.0) < 0.2, "{found:?}");
    }
}
