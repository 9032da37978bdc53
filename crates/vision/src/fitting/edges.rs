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
use vedette_geometry::Vec2;

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

/// The gradients around one blob.
pub(crate) struct EdgePoints {
    /// Where, table mm.
    pub pos: Vec<Vec2>,
    /// Per colour channel, the gradient (x, y), 8-bit units per mm.
    pub grad: Vec<[[f32; 2]; 3]>,
}

/// A profile across a direction: the signed gradient summed in bins along it.
struct Profile {
    /// Sum over channels and bins of the squared signed sums (the sharpness).
    energy: f64,
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
    for y in 1..h.saturating_sub(1) {
        for x in 1..w.saturating_sub(1) {
            let q = rect.to_table([x as f64, y as f64]);
            let gx_cell = ((q.x - min.x) * COARSE_PX_PER_MM).floor() as usize;
            let gy_cell = ((q.y - min.y) * COARSE_PX_PER_MM).floor() as usize;
            if !near.get(gy_cell * gw + gx_cell).copied().unwrap_or(false) {
                continue;
            }
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

/// The profile of `points` across the direction `angle_deg` (counter-clockwise from +x),
/// every `step`-th point, bins `bin_mm` wide.
fn profile_with(points: &EdgePoints, angle_deg: f64, step: usize, bin_mm: f64) -> Profile {
    let n = Vec2::from_heading_deg(angle_deg);
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in &points.pos {
        let s = p.dot(n);
        lo = lo.min(s);
        hi = hi.max(s);
    }
    if !lo.is_finite() {
        return Profile { energy: 0.0 };
    }
    let count = ((hi - lo) / bin_mm).ceil() as usize + 1;
    let mut sums = vec![[0f64; 3]; count];
    let (nx, ny) = (n.x as f32, n.y as f32);
    for (p, g) in points.pos.iter().zip(&points.grad).step_by(step.max(1)) {
        let k = ((p.dot(n) - lo) / bin_mm) as usize;
        if let Some(bin) = sums.get_mut(k) {
            for c in 0..3 {
                bin[c] += f64::from(g[c][0] * nx + g[c][1] * ny);
            }
        }
    }
    Profile { energy: sums.iter().flatten().map(|v| v * v).sum() }
}

/// The direction of the formation's edges, degrees in `[0, 90)`: the angle whose profile
/// and its perpendicular's are sharpest together; a coarse search over every direction
/// on a sample of the points, a finer one about the best on a sample, the finest on
/// every point, then a parabola through the finest three.
pub(crate) fn orientation(points: &EdgePoints) -> f64 {
    let sharp = |a: f64, stride: usize, bin: f64| {
        profile_with(points, a, stride, bin).energy + profile_with(points, a + 90.0, stride, bin).energy
    };
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
    let (coarse, _) = search(44.0, 22, 2.0, (points.pos.len() / 20_000).max(1), 1.0);
    let (near, _) = search(coarse, 6, 0.25, (points.pos.len() / 40_000).max(1), fine_bin);
    let (a, e0) = search(near, 3, 0.05, 1, fine_bin);
    let (em, ep) = (sharp(a - 0.05, 1, fine_bin), sharp(a + 0.05, 1, fine_bin));
    let curve = em - 2.0 * e0 + ep;
    let shift = if curve < 0.0 { (0.5 * (em - ep) / curve).clamp(-0.5, 0.5) * 0.05 } else { 0.0 };
    (a + shift).rem_euclid(90.0)
}
