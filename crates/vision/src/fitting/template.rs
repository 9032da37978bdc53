//! A formation as one rigid template (issue 37): the photo around a blob rectified
//! onto the base tops at [`FINE_PX_PER_MM`] and turned so that the blob's edge
//! directions are the image's axes; each colour channel's gradient summed along rows
//! and columns (prefix sums), so that the mean colour step across any straight edge
//! segment parallel to an axis costs four look-ups. A formation of known frontage and
//! depth is slid over every place in the blob: its score is the colour step across
//! each of its four outer edges, measured only along the edge's own length (so a
//! neighbouring unit or a cube in the same blob adds nothing), inside minus outside.
//! Figures are short and curved, of either sign, and average out along an edge; the
//! seams between touching bases join flock to flock and are weak; an outer edge joins
//! flock to mat all along its length.
//!
//! Shadows ([`super::shadow`]): where the lamp casts them a dark base's true edge is
//! dark flock on dark shadow, and the shadow's outer edge is the strongest step. An
//! edge with the mat in shadow just inside it and the lit mat just outside is a
//! shadow's edge, not a base's: it loses its strength in the score ([`SHADOW_GAIN`]).
//! A formation slid along its line onto its shadow's edge loses the edge it rested on.

use super::edges::FINE_PX_PER_MM;
use super::shadow::{Class, Shade};
use super::surface::{Blob, COARSE_PX_PER_MM};
use crate::error::VisionError;
use crate::pose::CameraModel;
use crate::rectify::Rectified;
use opencv::core::{Mat, Scalar, Size, Vec3b};
use opencv::prelude::*;
use vedette_geometry::Vec2;

/// How far around a blob's bounding box the photo is rectified, mm.
const MARGIN_MM: f64 = 10.0;
/// Step of the coarse search over places, px of the turned image (1 mm).
const COARSE_STEP: usize = 3;
/// How far a formation may reach past its blob's extent on each side (the blob stops
/// short of a base edge flocked like the mat), mm.
const REACH_PAST_BLOB_MM: f64 = 6.0;
/// Two places of one layout closer than this are one (the weaker is dropped here; in
/// `fitting::rivals`, laid as they are given, neither is the other's runner-up), mm.
pub(crate) const SAME_PLACE_MM: f64 = 6.0;
/// How far figures may overhang a base's edge on the base tops' plane, mm: a rank's
/// outer files, a horse's head and forelegs past its base's front.
pub(crate) const OVERHANG_MM: f64 = 3.0;
/// The band outside each edge that should show the mat, from this far past the edge
/// (beyond the figures overhanging it), mm ...
const CLEAR_FROM_MM: f64 = OVERHANG_MM;
/// ... to this far, mm.
const CLEAR_TO_MM: f64 = 6.0;
/// How much an edge whose outside band is all blob loses of its strength in the score:
/// an edge the camera sees (figures lean away from it) ...
const CLEAR_GAIN_NEAR: f64 = 0.75;
/// ... and one figures lean over (their tops stand past it on the base tops' plane).
const CLEAR_GAIN_FAR: f64 = 0.25;
/// The bands on either side of an edge that tell a shadow's edge (the mat in shadow
/// inside, the lit mat outside) start this far from it (the step itself is blurred
/// over a pixel or two) ...
const SHADOW_FROM_MM: f64 = 1.0;
/// ... and end this far from it, mm: inside, within the narrowest hard shadow that
/// slides a formation out of the 5 mm a base may be off; outside, within the soft
/// rim beyond a hard shadow.
const SHADOW_TO_MM: f64 = 4.0;
/// How much of its strength an edge loses whose inside band is all shadow and whose
/// outside band is all lit mat.
const SHADOW_GAIN: f64 = 0.9;

/// The photo around one blob, turned onto the blob's edge directions, with the
/// prefix sums of its gradients and of the blob's mask.
pub(crate) struct Turned {
    /// Table mm of pixel `(u, v)` is `origin + a * u / FINE + b * v / FINE`.
    origin: Vec2,
    /// Table direction of the image's `u` axis (the blob's first edge direction).
    pub a: Vec2,
    /// Table direction of the image's `v` axis (`a` turned a quarter counter-clockwise).
    pub b: Vec2,
    w: usize,
    h: usize,
    /// Per column `u`, the sum over rows `< v` of the horizontal gradient smoothed over
    /// three columns, per channel: index `u * (h + 1) + v`.
    vcum: Vec<[f32; 3]>,
    /// Per row `v`, the sum over columns `< u` of the vertical gradient smoothed over
    /// three rows, per channel: index `v * (w + 1) + u`.
    hcum: Vec<[f32; 3]>,
    /// Integral image of the blob's mask: index `v * (w + 1) + u`.
    mask_int: Vec<u32>,
    /// The blob's extent in the turned frame, px: (u_min, u_max, v_min, v_max).
    extent: (f64, f64, f64, f64),
    /// Blob pixels in the turned frame.
    mask_total: u32,
    /// Integral image of the texture (the sum over channels of the gradients' absolute
    /// values): index `v * (w + 1) + u`.
    tex_int: Vec<f64>,
    /// Integral images of the lit mat ([`Class::Lit`]) and of the mat in shadow
    /// ([`Class::Shade`]): index `v * (w + 1) + u`.
    lit_int: Vec<u32>,
    shade_int: Vec<u32>,
}

/// A formation's rectangle in a turned frame, and its evidence.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placement {
    /// Its centre, table mm.
    pub centre: Vec2,
    /// Per edge (u-low, u-high, v-low, v-high), the strength of its colour step inside
    /// minus outside (sum over channels of its absolute values, 8-bit units).
    pub strength: [f64; 4],
    /// Share of the rectangle the blob covers.
    pub fill: f64,
    /// Share of the blob inside the rectangle.
    pub explained: f64,
    /// Share of the blob inside the rectangle grown by the halo a formation's blob may
    /// have around it ([`super::BLOB_HALO_MM`]: figures overhanging, a shadow) on every
    /// side.
    pub explained_haloed: f64,
    /// Per edge, the share of the band outside it ([`CLEAR_FROM_MM`] to
    /// [`CLEAR_TO_MM`]) that is not blob, or flat and the mat's colour (lit or in
    /// shadow): an outer edge has the mat beyond it, a line through figures, along
    /// their feet or a seam inside a larger unit has not.
    pub clear: [f64; 4],
    /// How far each pair of edges' own peaks stand from the rectangle's size, mm (RMS
    /// over the two pairs).
    pub misfit_mm: f64,
    /// Per edge, how much it looks like a shadow's edge: the share of the band inside
    /// it that is the mat in shadow times the share of the band outside it that is
    /// the lit mat ([`SHADOW_FROM_MM`] to [`SHADOW_TO_MM`]).
    pub shadow_edge: [f64; 4],
    /// Per edge, its own step outward of it ([`EdgeProfile`]).
    pub profile: [EdgeProfile; 4],
}

/// How many pixel lines an edge's profile spans ([`EdgeProfile`]): one inside the
/// place's corner line and the rest outward of it, 26 px (8.7 mm): the window a line of
/// nine bases may open ([`super::formation::MAX_OPEN_SEAM_MM`] per seam) and the lines
/// either side of its bound; a longer line's ends are looked for within this.
pub(crate) const PROFILE_PX: usize = 28;

/// An edge's colour step measured along its own length on each line parallel to it,
/// from one pixel inside the place's edge outward, projected on the step at the place
/// (so a step of the edge's own colours counts, another's less).
#[derive(Debug, Clone, Copy)]
pub(crate) struct EdgeProfile {
    /// The step (inside minus outside, per channel) on line `j - 1` px outward of the
    /// line the place's corner stands on (`j` from 0), 8-bit units.
    pub step: [[f32; 3]; PROFILE_PX],
    /// The edge's own step at the place.
    pub own: [f32; 3],
    /// Where the place's (refined) edge stands outward of that line, px.
    pub at_px: f64,
}

impl Placement {
    /// Outward normals of the four edges, table directions.
    pub(crate) fn normals(a: Vec2, b: Vec2) -> [Vec2; 4] {
        [-a, a, -b, b]
    }

    /// Per edge, the strongest step on the lines from the edge out to [`OVERHANG_MM`]
    /// past it: what shows that an edge is there. Figures standing over a base's edge
    /// (a cavalry base's front rank of horses, whose heads reach past it; a small base
    /// its figures cover) hide the base's own step under them, figure against figure,
    /// and the step from their outline to the mat stands up to the overhang outward.
    pub(crate) fn shown(&self) -> [f64; 4] {
        let reach = (OVERHANG_MM * FINE_PX_PER_MM).round() as usize + 1;
        [0, 1, 2, 3].map(|k| {
            let p = &self.profile[k];
            p.step[1..=reach.min(PROFILE_PX - 1)].iter().map(strength).fold(self.strength[k], f64::max)
        })
    }
}

impl Turned {
    /// Rectifies and turns the photo around `blob` onto the plane `top_mm`, its image
    /// axes along `angle_deg` and `angle_deg + 90`.
    pub(crate) fn new(
        photo: &Mat,
        model: &CameraModel,
        top_mm: f64,
        blob: &Blob,
        angle_deg: f64,
        shade: &Shade,
    ) -> Result<Turned, VisionError> {
        let margin = Vec2::new(MARGIN_MM, MARGIN_MM);
        let (min, max) = (blob.min - margin, blob.max + margin);
        let fine = Rectified::new(photo, model, top_mm, (min, max), FINE_PX_PER_MM)?;
        let (a, b) = (Vec2::from_heading_deg(angle_deg), Vec2::from_heading_deg(angle_deg + 90.0));
        // The turned frame spans the box's corners projected on a and b.
        let corners = [min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)];
        let span = |n: Vec2| {
            corners
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p.dot(n)), hi.max(p.dot(n))))
        };
        let ((alo, ahi), (blo, bhi)) = (span(a), span(b));
        let w = ((ahi - alo) * FINE_PX_PER_MM).ceil() as usize + 1;
        let h = ((bhi - blo) * FINE_PX_PER_MM).ceil() as usize + 1;
        let origin = a * alo + b * blo;
        // dst (u, v) -> table origin + a u/F + b v/F -> fine px (table - fine.origin) F - 0.5.
        let f = FINE_PX_PER_MM;
        let o = (origin - fine.origin_mm) * f;
        let m = Mat::from_slice_2d(&[[a.x, b.x, o.x - 0.5], [a.y, b.y, o.y - 0.5]])?;
        let mut blurred = Mat::default();
        opencv::imgproc::gaussian_blur_def(&fine.image, &mut blurred, Size::new(5, 5), 1.0)?;
        let mut turned = Mat::default();
        opencv::imgproc::warp_affine(
            &blurred,
            &mut turned,
            &m,
            Size::new(w as i32, h as i32),
            opencv::imgproc::INTER_LINEAR | opencv::imgproc::WARP_INVERSE_MAP,
            opencv::core::BORDER_REPLICATE,
            Scalar::all(0.0),
        )?;
        let px = turned.data_typed::<Vec3b>()?;
        // The blob's mask on a coarse grid over its box, looked up per turned pixel.
        let (gw, gh) = (
            ((max.x - min.x) * COARSE_PX_PER_MM).ceil() as usize + 1,
            ((max.y - min.y) * COARSE_PX_PER_MM).ceil() as usize + 1,
        );
        let mut grid = vec![false; gw * gh];
        for p in &blob.points {
            let (cx, cy) =
                (((p.x - min.x) * COARSE_PX_PER_MM) as usize, ((p.y - min.y) * COARSE_PX_PER_MM) as usize);
            if cx < gw && cy < gh {
                grid[cy * gw + cx] = true;
            }
        }
        let mut mask_int = vec![0u32; (w + 1) * (h + 1)];
        let mut lit_int = vec![0u32; (w + 1) * (h + 1)];
        let mut shade_int = vec![0u32; (w + 1) * (h + 1)];
        let (mut ulo, mut uhi, mut vlo, mut vhi) =
            (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
        // Each column's and each row's step from the origin (the same products as per
        // pixel).
        let across: Vec<Vec2> = (0..w).map(|u| a * (u as f64 / f)).collect();
        for v in 0..h {
            let mut row = 0u32;
            let (mut lit_row, mut shade_row) = (0u32, 0u32);
            let down = b * (v as f64 / f);
            for (u, &along) in across.iter().enumerate() {
                let p = origin + along + down;
                let class = shade.at(p);
                lit_row += u32::from(class == Class::Lit);
                shade_row += u32::from(class == Class::Shade);
                lit_int[(v + 1) * (w + 1) + u + 1] = lit_int[v * (w + 1) + u + 1] + lit_row;
                shade_int[(v + 1) * (w + 1) + u + 1] = shade_int[v * (w + 1) + u + 1] + shade_row;
                let (gx, gy) = ((p.x - min.x) * COARSE_PX_PER_MM, (p.y - min.y) * COARSE_PX_PER_MM);
                let inside = gx >= 0.0
                    && gy >= 0.0
                    && (gx as usize) < gw
                    && (gy as usize) < gh
                    && grid[gy as usize * gw + gx as usize];
                if inside {
                    row += 1;
                    ulo = ulo.min(u as f64);
                    uhi = uhi.max(u as f64);
                    vlo = vlo.min(v as f64);
                    vhi = vhi.max(v as f64);
                }
                mask_int[(v + 1) * (w + 1) + u + 1] = mask_int[v * (w + 1) + u + 1] + row;
            }
        }
        let mask_total = mask_int[h * (w + 1) + w];
        // Gradients, each smoothed over three pixels across it, and their prefix sums.
        let mut gx = vec![[0f32; 3]; w * h];
        let mut gy = vec![[0f32; 3]; w * h];
        for v in 1..h.saturating_sub(1) {
            let (above, here, below) = (&px[(v - 1) * w..][..w], &px[v * w..][..w], &px[(v + 1) * w..][..w]);
            let (gx_row, gy_row) = (&mut gx[v * w..][..w], &mut gy[v * w..][..w]);
            for u in 1..w.saturating_sub(1) {
                for c in 0..3 {
                    gx_row[u][c] = (f32::from(here[u + 1][c]) - f32::from(here[u - 1][c])) * 0.5;
                    gy_row[u][c] = (f32::from(below[u][c]) - f32::from(above[u][c])) * 0.5;
                }
            }
        }
        // The prefix sums row by row (and column by column), each running sum carried
        // along: the same sums in the same order as indexing each pixel.
        let mut tex_int = vec![0f64; (w + 1) * (h + 1)];
        for v in 0..h {
            let mut row = 0f64;
            let (done, rest) = tex_int.split_at_mut((v + 1) * (w + 1));
            let (above, here) = (&done[v * (w + 1)..], &mut rest[..w + 1]);
            for (u, (x, y)) in gx[v * w..][..w].iter().zip(&gy[v * w..][..w]).enumerate() {
                row += f64::from(x[0].abs() + x[1].abs() + x[2].abs() + y[0].abs() + y[1].abs() + y[2].abs());
                here[u + 1] = above[u + 1] + row;
            }
        }
        let mut vcum = vec![[0f32; 3]; w * (h + 1)];
        for (u, column) in vcum.chunks_exact_mut(h + 1).enumerate().take(w.saturating_sub(1)).skip(1) {
            let mut next = column[0];
            for v in 0..h {
                let g = &gx[v * w + u - 1..][..3];
                for c in 0..3 {
                    next[c] += g[0][c] + g[1][c] + g[2][c];
                }
                column[v + 1] = next;
            }
        }
        let mut hcum = vec![[0f32; 3]; h * (w + 1)];
        for v in 1..h.saturating_sub(1) {
            let (above, here, below) = (&gy[(v - 1) * w..][..w], &gy[v * w..][..w], &gy[(v + 1) * w..][..w]);
            let row = &mut hcum[v * (w + 1)..][..w + 1];
            let mut next = row[0];
            for (u, ((a, m), b)) in above.iter().zip(here).zip(below).enumerate() {
                for c in 0..3 {
                    next[c] += a[c] + m[c] + b[c];
                }
                row[u + 1] = next;
            }
        }
        Ok(Turned {
            origin,
            a,
            b,
            w,
            h,
            vcum,
            hcum,
            mask_int,
            extent: (ulo, uhi, vlo, vhi),
            mask_total,
            tex_int,
            lit_int,
            shade_int,
        })
    }

    /// Table mm of a (sub)pixel of the turned image.
    pub(crate) fn to_table(&self, u: f64, v: f64) -> Vec2 {
        self.origin + self.a * (u / FINE_PX_PER_MM) + self.b * (v / FINE_PX_PER_MM)
    }

    /// Mean step across the column `u` between rows `v0..v1`, per channel (+u minus -u).
    fn column_step(&self, u: usize, v0: usize, v1: usize) -> [f32; 3] {
        mean_between(&self.vcum, u, self.w, self.h, v0, v1)
    }

    /// Mean step across the row `v` between columns `u0..u1`, per channel (+v minus -v).
    fn row_step(&self, v: usize, u0: usize, u1: usize) -> [f32; 3] {
        mean_between(&self.hcum, v, self.h, self.w, u0, u1)
    }

    /// The count in `[u0, u1) x [v0, v1)` (clipped to the image) of the integral image
    /// `int` (index `v * (w + 1) + u`), and the clipped area.
    fn count_in(&self, int: &[u32], u0: usize, u1: usize, v0: usize, v1: usize) -> (u32, usize) {
        let (u1, v1) = (u1.min(self.w), v1.min(self.h));
        if u1 <= u0 || v1 <= v0 {
            return (0, 0);
        }
        let s = self.w + 1;
        (int[v1 * s + u1] + int[v0 * s + u0] - int[v0 * s + u1] - int[v1 * s + u0], (u1 - u0) * (v1 - v0))
    }

    /// Blob pixels in `[u0, u1) x [v0, v1)`.
    fn mask_in(&self, u0: usize, u1: usize, v0: usize, v1: usize) -> u32 {
        self.count_in(&self.mask_int, u0, u1, v0, v1).0
    }

    /// Per edge of the rectangle with corner `(u0, v0)` and size `(lu, lv)` px, how
    /// much it looks like a shadow's edge ([`Placement::shadow_edge`]).
    fn shadow_edge(&self, u0: usize, v0: usize, lu: usize, lv: usize) -> [f64; 4] {
        let f = FINE_PX_PER_MM;
        let share = |int: &[u32], u0: usize, u1: usize, v0: usize, v1: usize| {
            let (n, area) = self.count_in(int, u0, u1, v0, v1);
            if area == 0 { 0.0 } else { f64::from(n) / area as f64 }
        };
        let (near, far) = ((SHADOW_FROM_MM * f) as usize, (SHADOW_TO_MM * f) as usize);
        let (inside, outside) = (&self.shade_int, &self.lit_int);
        let (u1, v1) = (u0 + lu, v0 + lv);
        [
            share(inside, u0 + near, u0 + far, v0, v1)
                * share(outside, u0.saturating_sub(far), u0.saturating_sub(near), v0, v1),
            share(inside, u1.saturating_sub(far), u1.saturating_sub(near), v0, v1)
                * share(outside, u1 + near, u1 + far, v0, v1),
            share(inside, u0, u1, v0 + near, v0 + far)
                * share(outside, u0, u1, v0.saturating_sub(far), v0.saturating_sub(near)),
            share(inside, u0, u1, v1.saturating_sub(far), v1.saturating_sub(near))
                * share(outside, u0, u1, v1 + near, v1 + far),
        ]
    }

    /// Mean texture in `[u0, u1) x [v0, v1)`.
    fn texture_in(&self, u0: usize, u1: usize, v0: usize, v1: usize) -> f64 {
        let (u1, v1) = (u1.min(self.w), v1.min(self.h));
        if u1 <= u0 || v1 <= v0 {
            return 0.0;
        }
        let s = self.w + 1;
        let t = &self.tex_int;
        (t[v1 * s + u1] + t[v0 * s + u0] - t[v0 * s + u1] - t[v1 * s + u0]) / ((u1 - u0) * (v1 - v0)) as f64
    }

    /// Per edge of the rectangle with corner `(u0, v0)` and size `(lu, lv)` px, how
    /// clear the band outside it is: the larger of the share of it that is not blob and
    /// how much it looks like the mat, the lesser of two shares: the share of it that
    /// is the mat's colour, lit or in shadow ([`Class`]), and one less its texture over
    /// the rectangle's own. A shadow on the mat, taken into the blob on some photos, is
    /// both; a base's flock between its edge and its figures is flat but not the mat
    /// (flat alone counted it as clear, and formations slid a few mm, most often toward
    /// where their figures lean, to lay an edge along the figures' feet); a band of
    /// the mat's colour that is as busy as the base tops is figures or another base.
    fn clear(&self, u0: usize, v0: usize, lu: usize, lv: usize) -> [f64; 4] {
        let f = FINE_PX_PER_MM;
        let (near, far) = ((CLEAR_FROM_MM * f) as usize, (CLEAR_TO_MM * f) as usize);
        let own = self.texture_in(u0, u0 + lu, v0, v0 + lv).max(1e-6);
        let share = |u0: usize, u1: usize, v0: usize, v1: usize| {
            let (u1, v1) = (u1.min(self.w), v1.min(self.h));
            let area = (u1.saturating_sub(u0) * v1.saturating_sub(v0)) as f64;
            if area <= 0.0 {
                return 1.0;
            }
            let not_blob = 1.0 - f64::from(self.mask_in(u0, u1, v0, v1)) / area;
            let flat = 1.0 - self.texture_in(u0, u1, v0, v1) / own;
            let mat = f64::from(
                self.count_in(&self.lit_int, u0, u1, v0, v1).0
                    + self.count_in(&self.shade_int, u0, u1, v0, v1).0,
            ) / area;
            not_blob.max(flat.min(mat)).clamp(0.0, 1.0)
        };
        [
            share(u0.saturating_sub(far), u0.saturating_sub(near), v0, v0 + lv),
            share(u0 + lu + near, u0 + lu + far, v0, v0 + lv),
            share(u0, u0 + lu, v0.saturating_sub(far), v0.saturating_sub(near)),
            share(u0, u0 + lu, v0 + lv + near, v0 + lv + far),
        ]
    }

    /// The four edges' steps (inside minus outside) of the rectangle with corner
    /// `(u0, v0)` and size `(lu, lv)` px.
    fn steps(&self, u0: usize, v0: usize, lu: usize, lv: usize) -> [[f32; 3]; 4] {
        let neg = |s: [f32; 3]| [-s[0], -s[1], -s[2]];
        [
            self.column_step(u0, v0, v0 + lv),
            neg(self.column_step(u0 + lu, v0, v0 + lv)),
            self.row_step(v0, u0, u0 + lu),
            neg(self.row_step(v0 + lv, u0, u0 + lu)),
        ]
    }

    /// Every place where a rectangle `len_a` x `len_b` mm stands out in the blob: the
    /// local maxima of its score (the sum of its edges' strengths, the far edges, which
    /// `weights` may discount, counted less), refined to the pixel, then to a fraction
    /// of one by each edge's own peak, the centre placed by the stronger edges of each
    /// pair and the known size.
    pub(crate) fn places(&self, len_a: f64, len_b: f64, weights: [f64; 4]) -> Vec<Placement> {
        let f = FINE_PX_PER_MM;
        let (lu, lv) = ((len_a * f).round() as usize, (len_b * f).round() as usize);
        let (ulo, uhi, vlo, vhi) = self.extent;
        if !ulo.is_finite() || lu + 2 >= self.w || lv + 2 >= self.h {
            return Vec::new();
        }
        let reach = REACH_PAST_BLOB_MM * f;
        // The rectangle overlaps the blob's extent, reaching past it by at most `reach`.
        let range = |lo: f64, hi: f64, len: usize, size: usize| {
            let first = (lo - reach).max(1.0) as usize;
            let last = ((hi + reach - len as f64).min((size - len - 2) as f64)).max(first as f64) as usize;
            (first, last)
        };
        let (u_first, u_last) = range(ulo, uhi, lu, self.w);
        let (v_first, v_last) = range(vlo, vhi, lv, self.h);
        let score = |u0: usize, v0: usize| {
            let s = self.steps(u0, v0, lu, lv);
            let c = self.clear(u0, v0, lu, lv);
            let l = self.shadow_edge(u0, v0, lu, lv);
            (0..4).map(|k| credit(strength(&s[k]), c[k], l[k], weights[k])).sum::<f64>()
        };
        // Coarse grid, then each local maximum refined to the pixel.
        let cu: Vec<usize> = (u_first..=u_last).step_by(COARSE_STEP).collect();
        let cv: Vec<usize> = (v_first..=v_last).step_by(COARSE_STEP).collect();
        let mut grid = vec![0f64; cu.len() * cv.len()];
        for (j, &v0) in cv.iter().enumerate() {
            for (i, &u0) in cu.iter().enumerate() {
                grid[j * cu.len() + i] = score(u0, v0);
            }
        }
        let mut peaks: Vec<(f64, usize, usize)> = Vec::new();
        for j in 0..cv.len() {
            for i in 0..cu.len() {
                let s = grid[j * cu.len() + i];
                let mut is_max = s > 0.0;
                for dj in -1i64..=1 {
                    for di in -1i64..=1 {
                        let (ii, jj) = (i as i64 + di, j as i64 + dj);
                        if (di, dj) != (0, 0)
                            && ii >= 0
                            && jj >= 0
                            && (ii as usize) < cu.len()
                            && (jj as usize) < cv.len()
                            && grid[jj as usize * cu.len() + ii as usize] > s
                        {
                            is_max = false;
                        }
                    }
                }
                if is_max {
                    peaks.push((s, cu[i], cv[j]));
                }
            }
        }
        peaks.sort_by(|x, y| y.0.total_cmp(&x.0));
        let mut out: Vec<(f64, Placement)> = Vec::new();
        for &(_, u, v) in peaks.iter().take(12) {
            let mut best = (f64::NEG_INFINITY, u, v);
            let r = COARSE_STEP as i64;
            for dv in -r..=r {
                for du in -r..=r {
                    let (uu, vv) = (u as i64 + du, v as i64 + dv);
                    if uu < 1 || vv < 1 || uu as usize + lu + 2 >= self.w || vv as usize + lv + 2 >= self.h {
                        continue;
                    }
                    let s = score(uu as usize, vv as usize);
                    if s > best.0 {
                        best = (s, uu as usize, vv as usize);
                    }
                }
            }
            let (s, u0, v0) = best;
            if !s.is_finite() {
                continue;
            }
            let p = self.refine(u0, v0, lu, lv, weights);
            if out.iter().any(|(_, q)| q.centre.distance(p.centre) < SAME_PLACE_MM) {
                continue;
            }
            out.push((s, p));
        }
        out.into_iter().map(|(_, p)| p).collect()
    }

    /// A rectangle `len_a` x `len_b` mm centred nearest `centre` (table mm) in the turned
    /// image's pixels: its corner and sides; `None` when it does not fit in the image.
    fn pixels_of(&self, centre: Vec2, len_a: f64, len_b: f64) -> Option<(usize, usize, usize, usize)> {
        let f = FINE_PX_PER_MM;
        let (lu, lv) = ((len_a * f).round() as usize, (len_b * f).round() as usize);
        let d = centre - self.origin;
        let (u0, v0) = (d.dot(self.a) * f - lu as f64 / 2.0, d.dot(self.b) * f - lv as f64 / 2.0);
        let (u0, v0) = (u0.round() as i64, v0.round() as i64);
        if u0 < 1 || v0 < 1 || u0 as usize + lu + 2 >= self.w || v0 as usize + lv + 2 >= self.h {
            return None;
        }
        Some((u0 as usize, v0 as usize, lu, lv))
    }

    /// The placement of a rectangle `len_a` x `len_b` mm centred nearest `centre`
    /// (table mm), refined as [`Turned::places`] refines a peak: for measuring why a
    /// known place was not among the places (`VEDETTE_FIT_DEBUG`). `None` when it
    /// does not fit in the turned image.
    pub(crate) fn place_at(
        &self,
        centre: Vec2,
        len_a: f64,
        len_b: f64,
        weights: [f64; 4],
    ) -> Option<Placement> {
        let (u0, v0, lu, lv) = self.pixels_of(centre, len_a, len_b)?;
        Some(self.refine(u0, v0, lu, lv, weights))
    }

    /// Per edge, its strength, clear share, shadow share and credit for a rectangle
    /// `len_a` x `len_b` mm centred at `centre` (table mm), unrefined: for measuring
    /// how the score changes as a place slides (`VEDETTE_FIT_PROBE`). `None` when it
    /// does not fit in the turned image.
    pub(crate) fn terms_at(
        &self,
        centre: Vec2,
        len_a: f64,
        len_b: f64,
        weights: [f64; 4],
    ) -> Option<[[f64; 4]; 4]> {
        let (u0, v0, lu, lv) = self.pixels_of(centre, len_a, len_b)?;
        let s = self.steps(u0, v0, lu, lv).map(|s| strength(&s));
        let c = self.clear(u0, v0, lu, lv);
        let l = self.shadow_edge(u0, v0, lu, lv);
        let k = [0, 1, 2, 3].map(|k| credit(s[k], c[k], l[k], weights[k]));
        Some([s, c, l, k])
    }

    /// The four edges' colour steps (inside minus outside, per channel, 8-bit units) of a
    /// rectangle `len_a` x `len_b` mm centred at `centre` (table mm), unrefined. `None`
    /// when it does not fit in the turned image.
    pub(crate) fn steps_at(&self, centre: Vec2, len_a: f64, len_b: f64) -> Option<[[f32; 3]; 4]> {
        let (u0, v0, lu, lv) = self.pixels_of(centre, len_a, len_b)?;
        Some(self.steps(u0, v0, lu, lv))
    }

    /// Where edge `k` (u-low, u-high, v-low, v-high) of a rectangle `len_a` x `len_b` mm
    /// centred at `centre` (table mm) stands out most, slid along its own outward normal
    /// from `from_mm` to `to_mm` (outward positive) with the other edges: the slide, mm,
    /// at which the edge's credit ([`credit`]: its step, the band beyond it clear, not a
    /// shadow's edge) peaks, refined by a parabola. `None` when the peak is at either
    /// bound of the window (the edge further), which ends where the slid rectangle
    /// leaves the turned image.
    pub(crate) fn edge_peak(
        &self,
        centre: Vec2,
        (len_a, len_b): (f64, f64),
        k: usize,
        weights: [f64; 4],
        (from_mm, to_mm): (f64, f64),
    ) -> Option<f64> {
        let f = FINE_PX_PER_MM;
        let normal = Placement::normals(self.a, self.b)[k];
        // The edge's line at the centre, px, outward positive, and the corner's line.
        let d = centre - self.origin;
        let (lu, lv) = ((len_a * f).round() as i64, (len_b * f).round() as i64);
        let (u0, v0) = (d.dot(self.a) * f - lu as f64 / 2.0, d.dot(self.b) * f - lv as f64 / 2.0);
        let (at, line) = match k {
            0 => (-u0, -u0.round()),
            1 => (u0 + lu as f64, u0.round() + lu as f64),
            2 => (-v0, -v0.round()),
            _ => (v0 + lv as f64, v0.round() + lv as f64),
        };
        let (lo, hi) = ((from_mm * f).round() as i64, (to_mm * f).round() as i64);
        let credit_at = |j: i64| -> Option<f64> {
            let slid = centre + normal * ((j as f64 - (at - line)) / f);
            let [s, c, l, _] = self.terms_at(slid, len_a, len_b, weights)?;
            Some(credit(s[k], c[k], l[k], weights[k]))
        };
        // Slides whose rectangle leaves the turned image end the window there.
        let scores: Vec<Option<f64>> = (lo..=hi).map(credit_at).collect();
        let best = (0..scores.len()).filter(|&i| scores[i].is_some()).max_by(|&i, &j| {
            scores[i].unwrap_or(f64::NEG_INFINITY).total_cmp(&scores[j].unwrap_or(f64::NEG_INFINITY))
        })?;
        if best == 0 || best + 1 == scores.len() {
            return None;
        }
        let (Some(m), Some(c), Some(p)) = (scores[best - 1], scores[best], scores[best + 1]) else {
            return None;
        };
        let curve = m - 2.0 * c + p;
        let dj = if curve < 0.0 { (0.5 * (m - p) / curve).clamp(-0.5, 0.5) } else { 0.0 };
        // The edge on line `line + j` (sub-pixel: as the place's own edges are refined).
        Some(((line + (lo + best as i64) as f64 + dj) - at) / f)
    }

    /// The placement at pixel corner `(u0, v0)`: each edge's sub-pixel peak, the centre
    /// from the known size and the edges weighted by their strength.
    fn refine(&self, u0: usize, v0: usize, lu: usize, lv: usize, weights: [f64; 4]) -> Placement {
        let steps = self.steps(u0, v0, lu, lv);
        let strength4 = steps.map(|s| strength(&s));
        // An edge's strength one pixel either way, projected on its own colour step.
        let along = |s: [f32; 3], own: &[f32; 3]| f64::from(s[0] * own[0] + s[1] * own[1] + s[2] * own[2]);
        let peak = |m: f64, c: f64, p: f64| {
            let curve = m - 2.0 * c + p;
            if curve < 0.0 { (0.5 * (m - p) / curve).clamp(-0.5, 0.5) } else { 0.0 }
        };
        let neg = |s: [f32; 3]| [-s[0], -s[1], -s[2]];
        let col = |u: usize| self.column_step(u, v0, v0 + lv);
        let row = |v: usize| self.row_step(v, u0, u0 + lu);
        let shift = |f: &dyn Fn(usize) -> [f32; 3], at: usize, own: &[f32; 3], sign: bool| {
            let g = |x: usize| if sign { neg(f(x)) } else { f(x) };
            peak(along(g(at - 1), own), along(g(at), own), along(g(at + 1), own))
        };
        let du0 = shift(&col, u0, &steps[0], false);
        let du1 = shift(&col, u0 + lu, &steps[1], true);
        let dv0 = shift(&row, v0, &steps[2], false);
        let dv1 = shift(&row, v0 + lv, &steps[3], true);
        let w2 = |k: usize| (weights[k] * strength4[k]).powi(2).max(1e-9);
        let half_u = lu as f64 / 2.0;
        let half_v = lv as f64 / 2.0;
        let cu = ((u0 as f64 + du0 + half_u) * w2(0) + ((u0 + lu) as f64 + du1 - half_u) * w2(1))
            / (w2(0) + w2(1));
        let cv = ((v0 as f64 + dv0 + half_v) * w2(2) + ((v0 + lv) as f64 + dv1 - half_v) * w2(3))
            / (w2(2) + w2(3));
        // The gradient smoothed over three pixels is centred on its pixel: a step
        // between pixels u - 1 and u peaks at u - 1/2 after the parabola.
        let centre = self.to_table(cu, cv);
        let inside = self.mask_in(u0, u0 + lu, v0, v0 + lv);
        let halo = (super::BLOB_HALO_MM * FINE_PX_PER_MM).round() as usize;
        // Each edge's profile outward: line `j - 1` px outward of its corner's line.
        let line = |k: usize, j: usize| -> [f32; 3] {
            // j - 1 outward; lines off the image step nothing.
            let off = j as i64 - 1;
            let (lo, hi) = match k {
                0 => (u0 as i64 - off, 0),
                1 => ((u0 + lu) as i64 + off, 0),
                2 => (v0 as i64 - off, 1),
                _ => ((v0 + lv) as i64 + off, 1),
            };
            if lo < 1 {
                return [0.0; 3];
            }
            let at = lo as usize;
            let s = if hi == 0 { col(at) } else { row(at) };
            if k % 2 == 1 { neg(s) } else { s }
        };
        let edge_at = [
            (cu - half_u) - u0 as f64,
            (cu + half_u) - (u0 + lu) as f64,
            (cv - half_v) - v0 as f64,
            (cv + half_v) - (v0 + lv) as f64,
        ];
        let profile = [0, 1, 2, 3].map(|k| {
            EdgeProfile {
                step: std::array::from_fn(|j| line(k, j)),
                own: steps[k],
                // Outward positive: the low edges' outward is toward lower u or v.
                at_px: if k % 2 == 0 { -edge_at[k] } else { edge_at[k] },
            }
        });
        Placement {
            centre,
            strength: strength4,
            fill: f64::from(inside) / (lu * lv).max(1) as f64,
            explained: f64::from(inside) / f64::from(self.mask_total.max(1)),
            explained_haloed: f64::from(self.mask_in(
                u0.saturating_sub(halo),
                u0 + lu + halo,
                v0.saturating_sub(halo),
                v0 + lv + halo,
            )) / f64::from(self.mask_total.max(1)),
            clear: self.clear(u0, v0, lu, lv),
            misfit_mm: (((du1 - du0).powi(2) + (dv1 - dv0).powi(2)) / 2.0).sqrt() / FINE_PX_PER_MM,
            shadow_edge: self.shadow_edge(u0, v0, lu, lv),
            profile,
        }
    }
}

/// An edge's strength: the sum over channels of its step's absolute values.
fn strength(s: &[f32; 3]) -> f64 {
    f64::from(s[0].abs() + s[1].abs() + s[2].abs())
}

/// What share of an edge's strength counts in the score, given the share `clear` of
/// the band outside it that is not blob and its weight (below 1: figures lean over it).
fn clear_factor(clear: f64, weight: f64) -> f64 {
    let gain = if weight >= 1.0 { CLEAR_GAIN_NEAR } else { CLEAR_GAIN_FAR };
    1.0 - gain * (1.0 - clear.clamp(0.0, 1.0))
}

/// What an edge of `strength` adds to a formation's score: weighted (`weight` below 1:
/// figures lean over it), less as the band beyond it is not `clear` of the blob, and
/// less as it looks like a shadow's edge (`shadow_edge`, [`SHADOW_GAIN`]).
pub(crate) fn credit(strength: f64, clear: f64, shadow_edge: f64, weight: f64) -> f64 {
    weight * strength * clear_factor(clear, weight) * (1.0 - SHADOW_GAIN * shadow_edge.clamp(0.0, 1.0))
}

/// The mean over `lo..hi` of line `line` (of `lines`) of prefix sums `cum`, each line
/// `len + 1` sums long, per channel.
fn mean_between(cum: &[[f32; 3]], line: usize, lines: usize, len: usize, lo: usize, hi: usize) -> [f32; 3] {
    if line >= lines || hi > len || hi <= lo {
        return [0.0; 3];
    }
    let (a, b) = (cum[line * (len + 1) + hi], cum[line * (len + 1) + lo]);
    let n = (hi - lo) as f32;
    [(a[0] - b[0]) / n, (a[1] - b[1]) / n, (a[2] - b[2]) / n]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The integral image of `f` over a `w` x `h` grid (index `v * (w + 1) + u`).
    fn integral<T: Copy + Default + std::ops::Add<Output = T> + std::ops::Sub<Output = T>>(
        w: usize,
        h: usize,
        f: impl Fn(usize, usize) -> T,
    ) -> Vec<T> {
        let mut out = vec![T::default(); (w + 1) * (h + 1)];
        for v in 0..h {
            for u in 0..w {
                out[(v + 1) * (w + 1) + u + 1] =
                    f(u, v) + out[v * (w + 1) + u + 1] + out[(v + 1) * (w + 1) + u] - out[v * (w + 1) + u];
            }
        }
        out
    }

    /// Issue 37: the band beyond an edge is clear when it is flat *and* the mat's colour
    /// (lit or in shadow), not when it is only flat. A 10 x 10 mm rectangle whose
    /// surroundings are all blob (so only the band's look decides): beyond its left edge
    /// the lit mat, flat (clear); beyond its right edge flat flock of another colour (a
    /// formation slid so that an edge lies along its figures' feet: not clear; flat alone
    /// counted it as clear); beyond its low edge the mat in shadow, flat (clear); beyond
    /// its high edge pixels of the mat's colour as busy as the base tops (figures or
    /// another base: not clear).
    #[test]
    fn a_band_beyond_an_edge_is_clear_when_flat_and_the_mat_s_colour() {
        let (w, h) = (90usize, 90usize);
        let (lo, hi) = (30usize, 60usize);
        let class = |u: usize, v: usize| {
            if u < lo {
                Class::Lit
            } else if u >= hi {
                Class::Other
            } else if v < lo {
                Class::Shade
            } else if v >= hi {
                Class::Lit
            } else {
                Class::Other
            }
        };
        let busy = |u: usize, v: usize| (lo..hi).contains(&u) && v >= lo;
        let turned = Turned {
            origin: Vec2::ZERO,
            a: Vec2::new(1.0, 0.0),
            b: Vec2::new(0.0, 1.0),
            w,
            h,
            vcum: Vec::new(),
            hcum: Vec::new(),
            mask_int: integral(w, h, |_, _| 1u32),
            extent: (0.0, w as f64, 0.0, h as f64),
            mask_total: (w * h) as u32,
            tex_int: integral(w, h, |u, v| if busy(u, v) { 10.0 } else { 1.0 }),
            lit_int: integral(w, h, |u, v| u32::from(class(u, v) == Class::Lit)),
            shade_int: integral(w, h, |u, v| u32::from(class(u, v) == Class::Shade)),
        };
        let c = turned.clear(lo, lo, hi - lo, hi - lo);
        assert!((c[0] - 0.9).abs() < 1e-9, "{c:?}");
        assert_eq!(c[1], 0.0, "{c:?}");
        assert!((c[2] - 0.9).abs() < 1e-9, "{c:?}");
        assert_eq!(c[3], 0.0, "{c:?}");
    }

    /// Issue 37: a place's share of its blob with the halo all round
    /// (`BLOB_HALO_MM`, 12 mm: 36 px) counts the blob up to the halo past
    /// each edge and none beyond. A 40 x 30 px place in a blob that reaches 30 px past
    /// its low u edge (its shadow, 10 mm) and has a patch 50 px past its high u edge
    /// (another thing, 17 mm off): its outline explains 1200 of the 2400 blob pixels,
    /// with its halo 2100 of them.
    #[test]
    fn a_place_with_its_halo_explains_its_blob_out_to_the_halo() {
        let (w, h) = (200usize, 200usize);
        let blob = |u: usize, v: usize| {
            (50..120).contains(&u) && (80..110).contains(&v)
                || (170..180).contains(&u) && (80..110).contains(&v)
        };
        let turned = Turned {
            origin: Vec2::ZERO,
            a: Vec2::new(1.0, 0.0),
            b: Vec2::new(0.0, 1.0),
            w,
            h,
            vcum: vec![[0.0; 3]; w * (h + 1)],
            hcum: vec![[0.0; 3]; h * (w + 1)],
            mask_int: integral(w, h, |u, v| u32::from(blob(u, v))),
            extent: (50.0, 179.0, 80.0, 109.0),
            mask_total: 2400,
            tex_int: integral(w, h, |_, _| 1.0),
            lit_int: integral(w, h, |_, _| 0u32),
            shade_int: integral(w, h, |_, _| 0u32),
        };
        let p = turned.refine(80, 80, 40, 30, [1.0; 4]);
        assert!((p.explained - 0.5).abs() < 1e-9, "{}", p.explained);
        assert!((p.explained_haloed - 0.875).abs() < 1e-9, "{}", p.explained_haloed);
        assert!((p.fill - 1.0).abs() < 1e-9, "{}", p.fill);
    }
}
