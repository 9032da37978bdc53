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

/// A profile across direction `normal`: bin `k` sums the signed gradient component
/// along `normal` of the points whose `p · normal` lies in `[start + k / FINE, ...)`.
pub(crate) struct Profile {
    /// The position of bin 0, mm along the normal.
    pub start: f64,
    /// Per bin: the sum over channels of the absolute signed sum.
    pub bins: Vec<f64>,
    /// Sum over channels and bins of the squared signed sums (the sharpness).
    pub energy: f64,
}

impl Profile {
    /// The profile at `s` mm along the normal (linear between bin centres).
    pub(crate) fn at(&self, s: f64) -> f64 {
        let x = (s - self.start) * FINE_PX_PER_MM - 0.5;
        if x < 0.0 || self.bins.is_empty() {
            return 0.0;
        }
        let i = x.floor() as usize;
        let t = x - i as f64;
        match (self.bins.get(i), self.bins.get(i + 1)) {
            (Some(a), Some(b)) => a + (b - a) * t,
            (Some(a), None) => *a * (1.0 - t),
            _ => 0.0,
        }
    }

    /// The median bin over `[lo, hi]` mm: the level of the profile where no edge is.
    pub(crate) fn median_over(&self, lo: f64, hi: f64) -> f64 {
        let a = (((lo - self.start) * FINE_PX_PER_MM).floor().max(0.0)) as usize;
        let b = (((hi - self.start) * FINE_PX_PER_MM).ceil().max(0.0) as usize).min(self.bins.len());
        if a >= b {
            return 0.0;
        }
        let mut v: Vec<f64> = self.bins[a..b].to_vec();
        let mid = v.len() / 2;
        *v.select_nth_unstable_by(mid, f64::total_cmp).1
    }
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
        return Profile { start: 0.0, bins: Vec::new(), energy: 0.0 };
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
    let energy = sums.iter().flatten().map(|v| v * v).sum();
    let raw: Vec<f64> = sums.iter().map(|b| b.iter().map(|v| v.abs()).sum()).collect();
    // A [1 2 1] smoothing: an edge between two bins is one peak.
    let bins = (0..raw.len())
        .map(|i| {
            let a = if i > 0 { raw[i - 1] } else { 0.0 };
            let c = raw.get(i + 1).copied().unwrap_or(0.0);
            (a + 2.0 * raw[i] + c) / 4.0
        })
        .collect();
    Profile { start: lo, bins, energy }
}

/// The profile across `angle_deg` at the fit's resolution.
pub(crate) fn profile(points: &EdgePoints, angle_deg: f64) -> Profile {
    profile_with(points, angle_deg, 1, 1.0 / FINE_PX_PER_MM)
}

/// The direction of the formation's edges, degrees in `[0, 90)`: the angle whose profile
/// and its perpendicular's are sharpest together; a coarse search over every direction,
/// then a fine one about the best, then a parabola through the finest three.
pub(crate) fn orientation(points: &EdgePoints) -> f64 {
    let sharp = |a: f64, step: usize, bin: f64| {
        profile_with(points, a, step, bin).energy + profile_with(points, a + 90.0, step, bin).energy
    };
    let coarse_step = (points.pos.len() / 20_000).max(1);
    let mut best = (0.0, f64::NEG_INFINITY);
    for k in 0..45 {
        let a = f64::from(k) * 2.0;
        let e = sharp(a, coarse_step, 1.0);
        if e > best.1 {
            best = (a, e);
        }
    }
    let mut fine = (best.0, f64::NEG_INFINITY);
    for k in -25..=25 {
        let a = best.0 + f64::from(k) * 0.1;
        let e = sharp(a, 1, 1.0 / FINE_PX_PER_MM);
        if e > fine.1 {
            fine = (a, e);
        }
    }
    let (a, e0) = fine;
    let (em, ep) = (sharp(a - 0.1, 1, 1.0 / FINE_PX_PER_MM), sharp(a + 0.1, 1, 1.0 / FINE_PX_PER_MM));
    let curve = em - 2.0 * e0 + ep;
    let shift = if curve < 0.0 { (0.5 * (em - ep) / curve).clamp(-0.5, 0.5) * 0.1 } else { 0.0 };
    (a + shift).rem_euclid(90.0)
}

/// Where a pair of parallel edges `length_mm` apart best fits the profile, searched with
/// centres in `[lo, hi]` mm: the centre and the strength of each edge.
pub(crate) fn fit_pair(profile: &Profile, length_mm: f64, lo: f64, hi: f64) -> Option<PairFit> {
    if hi < lo {
        return None;
    }
    let half = length_mm / 2.0;
    let step = 1.0 / FINE_PX_PER_MM;
    let score = |c: f64| profile.at(c - half) + profile.at(c + half);
    let n = ((hi - lo) / step).ceil() as usize + 1;
    let (mut best, mut best_score) = (lo, f64::NEG_INFINITY);
    for k in 0..n {
        let c = lo + k as f64 * step;
        let s = score(c);
        if s > best_score {
            (best, best_score) = (c, s);
        }
    }
    // Sub-bin: each edge's own peak by a parabola, the centre their mean.
    let peak = |s: f64| {
        let (a, b, c) = (profile.at(s - step), profile.at(s), profile.at(s + step));
        let curve = a - 2.0 * b + c;
        if curve < 0.0 { s + (0.5 * (a - c) / curve).clamp(-0.5, 0.5) * step } else { s }
    };
    let (near, far) = (peak(best - half), peak(best + half));
    Some(PairFit {
        centre: (near + far) / 2.0,
        near_strength: profile.at(best - half),
        far_strength: profile.at(best + half),
        length_mm: far - near,
    })
}

/// A pair of parallel edges fitted to a profile.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PairFit {
    /// Midway between the edges, mm along the normal.
    pub centre: f64,
    /// The profile at the nearer edge.
    pub near_strength: f64,
    /// The profile at the farther edge.
    pub far_strength: f64,
    /// How far apart the sub-bin peaks are, mm.
    pub length_mm: f64,
}
