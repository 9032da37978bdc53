//! Where something stands on the mat: the photo rectified onto the plane of the base
//! tops at [`COARSE_PX_PER_MM`], the mat's own colour learned from the photo (a median
//! over a window much larger than any formation, so that the bases and figures in it
//! are outvoted), and the regions that differ from it in colour or in fine contrast
//! (figures), cleaned into blobs: the candidates the formations are fitted to.

use super::shadow::Shade;
use crate::error::VisionError;
use crate::pose::CameraModel;
use crate::profile::Profile;
use crate::rectify::Rectified;
use opencv::core::{Mat, Size, Vec3b};
use opencv::prelude::*;
use vedette_geometry::Vec2;

/// Resolution of the search for candidates, px per mm.
pub(crate) const COARSE_PX_PER_MM: f64 = 1.0;
/// The window over which the mat's colour is learned, mm: several times the depth of
/// any formation, so the mat outvotes the bases in it.
const MAT_WINDOW_MM: f64 = 150.0;
/// Cell of the downsampled image the mat's colour is learned on, mm.
const MAT_CELL_MM: f64 = 10.0;
/// A pixel differs from the mat when its colour distance exceeds this many times the
/// mat's own median distance (its texture and the sensor's noise)...
const COLOUR_FACTOR: f64 = 4.0;
/// ... and at least this many Lab units.
const COLOUR_FLOOR: f64 = 7.0;
/// A pixel is figure-like when its contrast with its neighbours exceeds this many
/// times the mat's median contrast ...
const CONTRAST_FACTOR: f64 = 5.0;
/// ... and at least this many Lab lightness units.
const CONTRAST_FLOOR: f64 = 14.0;
/// Gaps between figures and along base edges closed, mm.
const CLOSE_MM: i32 = 5;
/// Against the empty table's own colour (`--background`), a pixel of the mat's hue
/// darkened to less than this share of it is a shadow, and left out of the blobs:
/// lighter than the learned mat allows ([`super::shadow`]'s 0.7), since the empty
/// table's colour is exact where the learned one is a median over 15 cm. Chosen on the
/// bench's six renders (0.85: 70.0% recall, 0.92: 72.2%, 0.96: 71.0%).
const EMPTY_SHADE_MAX: f64 = 0.92;
/// Kept clear of the table's edges, mm.
const EDGE_MARGIN_MM: f64 = 4.0;

/// One blob of non-mat pixels: the place a formation may stand.
#[derive(Debug, Clone)]
pub(crate) struct Blob {
    /// Its pixels' centres, table mm (on the base-top plane).
    pub points: Vec<Vec2>,
    /// Its bounding box, table mm.
    pub min: Vec2,
    /// Its bounding box, table mm.
    pub max: Vec2,
}

impl Blob {
    /// Area, mm².
    pub(crate) fn area_mm2(&self) -> f64 {
        self.points.len() as f64 / (COARSE_PX_PER_MM * COARSE_PX_PER_MM)
    }

    /// Its longest extent: the greatest distance between two of its pixels' centres
    /// (over its convex hull), mm.
    pub(crate) fn longest_extent_mm(&self) -> f64 {
        let hull = vedette_geometry::ConvexPolygon::hull(&self.points);
        let hull = hull.vertices();
        let mut longest: f64 = 0.0;
        for (i, a) in hull.iter().enumerate() {
            for b in &hull[i + 1..] {
                longest = longest.max(a.distance(*b));
            }
        }
        longest
    }
}

/// Finds the blobs on the table. `occupied` (255 where tagged bases, their figures and
/// the fiducials stand, on the rectified plane of [`rectified`]) is left out. Also
/// gives the pixels that differ from the mat before the blobs are closed (255 there):
/// what stands on the bases, for their paints; and each pixel classed as lit mat,
/// shaded mat or other ([`Shade`]).
///
/// `empty`: the empty table's photo on the same surface (issue 37, `--background`):
/// where it shows the table, it is the mat's colour there (what differs from it is
/// what stands on the table now, shadows included; the shadows are told apart against
/// it); elsewhere, and without it, the mat's colour is learned from the photo.
pub(crate) fn find_blobs(
    rect: &Rectified,
    occupied: &Mat,
    min_area_mm2: f64,
    empty: Option<&Mat>,
) -> Result<(Vec<Blob>, Mat, Shade), VisionError> {
    let (cols, rows) = rect.size()?;
    let lab = crate::lab_image::bgr_to_lab(&rect.image)?;
    // The mat's colour: a median over a wide window of a downsampled copy.
    let cell = (MAT_CELL_MM * COARSE_PX_PER_MM).max(1.0);
    let small_size = Size::new(
        ((f64::from(cols) / cell).round() as i32).max(1),
        ((f64::from(rows) / cell).round() as i32).max(1),
    );
    let mut small = Mat::default();
    opencv::imgproc::resize(&lab, &mut small, small_size, 0.0, 0.0, opencv::imgproc::INTER_AREA)?;
    let k = (((MAT_WINDOW_MM / MAT_CELL_MM).round() as i32) | 1).max(3);
    let mut med = Mat::default();
    opencv::imgproc::median_blur(&small, &mut med, k)?;
    let mut background = Mat::default();
    opencv::imgproc::resize(
        &med,
        &mut background,
        Size::new(cols, rows),
        0.0,
        0.0,
        opencv::imgproc::INTER_LINEAR,
    )?;
    if let Some(empty) = empty {
        background = exact_mat(&background, empty)?;
    }

    let px = lab.data_typed::<Vec3b>()?;
    let bg = background.data_typed::<Vec3b>()?;
    let occ = occupied.data_typed::<u8>()?;
    let (w, h) = (cols as usize, rows as usize);
    let mut colour = vec![0f32; w * h];
    let mut contrast = vec![0f32; w * h];
    for y in 1..h.saturating_sub(1) {
        for x in 1..w - 1 {
            let i = y * w + x;
            let (p, b) = (px[i], bg[i]);
            let dl = (f64::from(p[0]) - f64::from(b[0])) * 0.5;
            let da = f64::from(p[1]) - f64::from(b[1]);
            let db = f64::from(p[2]) - f64::from(b[2]);
            colour[i] = (dl * dl + da * da + db * db).sqrt() as f32;
            let l = |j: usize| f64::from(px[j][0]);
            let gx = l(i + 1) - l(i - 1);
            let gy = l(i + w) - l(i - w);
            contrast[i] = gx.abs().max(gy.abs()) as f32;
        }
    }
    let margin = (EDGE_MARGIN_MM * COARSE_PX_PER_MM).ceil() as usize + 1;
    let inside = |x: usize, y: usize| x >= margin && y >= margin && x + margin < w && y + margin < h;
    let sample = |v: &[f32]| {
        let mut s: Vec<f32> = (0..h)
            .step_by(3)
            .flat_map(|y| (0..w).step_by(3).map(move |x| (x, y)))
            .filter(|&(x, y)| inside(x, y) && occ[y * w + x] == 0)
            .map(|(x, y)| v[y * w + x])
            .collect();
        if s.is_empty() {
            return 0.0;
        }
        let mid = s.len() / 2;
        *s.select_nth_unstable_by(mid, f32::total_cmp).1 as f64
    };
    let colour_limit = (COLOUR_FACTOR * sample(&colour)).max(COLOUR_FLOOR) as f32;
    let contrast_limit = (CONTRAST_FACTOR * sample(&contrast)).max(CONTRAST_FLOOR) as f32;
    let mut mask = crate::palette::blank_mask(rows, cols)?;
    let to_arrays = |m: &Mat| -> Result<Vec<[u8; 3]>, VisionError> {
        Ok(m.data_typed::<Vec3b>()?.iter().map(|p| [p[0], p[1], p[2]]).collect())
    };
    let (photo_bgr, mat_bgr) = {
        let mat_bgr = crate::lab_image::lab_to_bgr(&background)?;
        (to_arrays(&rect.image)?, to_arrays(&mat_bgr)?)
    };
    let shade = {
        let differs: Vec<bool> = (0..w * h)
            .map(|i| occ[i] != 0 || colour[i] > colour_limit || contrast[i] > contrast_limit)
            .collect();
        Shade::classify(&photo_bgr, &mat_bgr, &differs, (w, h), rect.to_table([-0.5, -0.5]))
    };
    {
        let m = mask.data_typed_mut::<u8>()?;
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                // Against the empty table a shadow is told apart reliably, down to a
                // light one (the mat there darkened at its own hue, without fine
                // contrast): not a blob's (it is what a base casts, beyond its edges).
                let shadow = empty.is_some()
                    && contrast[i] <= contrast_limit
                    && super::shadow::darkened_mat(photo_bgr[i], mat_bgr[i], EMPTY_SHADE_MAX);
                if inside(x, y)
                    && occ[i] == 0
                    && !shadow
                    && (colour[i] > colour_limit || contrast[i] > contrast_limit)
                {
                    m[i] = 255;
                }
            }
        }
    }
    let k = (f64::from(CLOSE_MM) * COARSE_PX_PER_MM).round() as i32 | 1;
    let kernel =
        opencv::imgproc::get_structuring_element_def(opencv::imgproc::MORPH_ELLIPSE, Size::new(k, k))?;
    let mut closed = Mat::default();
    opencv::imgproc::morphology_ex_def(&mask, &mut closed, opencv::imgproc::MORPH_CLOSE, &kernel)?;
    let small_kernel =
        opencv::imgproc::get_structuring_element_def(opencv::imgproc::MORPH_ELLIPSE, Size::new(3, 3))?;
    let mut opened = Mat::default();
    opencv::imgproc::morphology_ex_def(&closed, &mut opened, opencv::imgproc::MORPH_OPEN, &small_kernel)?;
    // What stands on the tagged bases and fiducials stays out, even where closing reached it.
    {
        let m = opened.data_typed_mut::<u8>()?;
        for (v, o) in m.iter_mut().zip(occ) {
            if *o != 0 {
                *v = 0;
            }
        }
    }
    let mut labels = Mat::default();
    let mut stats = Mat::default();
    let mut centroids = Mat::default();
    let n = opencv::imgproc::connected_components_with_stats(
        &opened,
        &mut labels,
        &mut stats,
        &mut centroids,
        8,
        opencv::core::CV_32S,
    )?;
    let lab_px = labels.data_typed::<i32>()?;
    let mut blobs: Vec<Option<Blob>> = vec![None; n.max(1) as usize];
    let min_px = (min_area_mm2 * COARSE_PX_PER_MM * COARSE_PX_PER_MM) as i32;
    for (k, blob) in blobs.iter_mut().enumerate().skip(1) {
        let area = *stats.at_2d::<i32>(k as i32, opencv::imgproc::CC_STAT_AREA)?;
        if area < min_px {
            continue;
        }
        *blob = Some(Blob { points: Vec::with_capacity(area as usize), min: Vec2::ZERO, max: Vec2::ZERO });
    }
    for y in 0..h {
        for x in 0..w {
            let l = lab_px[y * w + x];
            if let Some(Some(b)) = blobs.get_mut(l as usize) {
                b.points.push(rect.to_table([x as f64, y as f64]));
            }
        }
    }
    // Renumber the kept blobs, largest first.
    let mut kept: Vec<(usize, Blob)> =
        blobs.into_iter().enumerate().filter_map(|(k, b)| b.map(|b| (k, b))).collect();
    kept.sort_by_key(|b| std::cmp::Reverse(b.1.points.len()));
    for (_, b) in &mut kept {
        let (mut lo, mut hi) =
            (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
        for p in &b.points {
            lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        b.min = lo;
        b.max = hi;
    }
    Ok((kept.into_iter().map(|(_, b)| b).collect(), mask, shade))
}

/// The mat's colour (Lab) at every pixel: the empty table's photo `empty` (BGR, on
/// the same surface) where it shows the table, `learned` (Lab) where it is black (its
/// photo does not reach there).
fn exact_mat(learned: &Mat, empty: &Mat) -> Result<Mat, VisionError> {
    let mut lab = crate::lab_image::bgr_to_lab(empty)?;
    {
        let (seen, fallback) = (empty.data_typed::<Vec3b>()?, learned.data_typed::<Vec3b>()?);
        let out = lab.data_typed_mut::<Vec3b>()?;
        for ((o, s), f) in out.iter_mut().zip(seen).zip(fallback) {
            if s[0] == 0 && s[1] == 0 && s[2] == 0 {
                *o = *f;
            }
        }
    }
    Ok(lab)
}

/// The photo rectified onto the base tops over the whole table, for [`find_blobs`].
pub(crate) fn rectified(
    photo: &Mat,
    model: &CameraModel,
    profile: &Profile,
) -> Result<Rectified, VisionError> {
    Rectified::new(
        photo,
        model,
        profile.bases.top_height_mm,
        (Vec2::ZERO, Vec2::new(profile.table.width_mm, profile.table.depth_mm)),
        COARSE_PX_PER_MM,
    )
}

/// The part of the table the photo shows, on the plane of the base tops: the box
/// around the points of a 10 mm grid over the table that the camera images inside the
/// frame, table mm (near-left and far-right corners). What a `missing-unit` issue
/// says was searched; an empty box (both corners at the origin) when none is.
pub(crate) fn seen_region(
    photo: &Mat,
    model: &CameraModel,
    profile: &Profile,
) -> Result<[[f64; 2]; 2], VisionError> {
    const STEP_MM: f64 = 10.0;
    let (w, d) = (profile.table.width_mm, profile.table.depth_mm);
    let (nx, ny) = ((w / STEP_MM).ceil() as usize, (d / STEP_MM).ceil() as usize);
    let grid: Vec<Vec2> = (0..=ny)
        .flat_map(|j| {
            (0..=nx).map(move |i| Vec2::new((i as f64 * STEP_MM).min(w), (j as f64 * STEP_MM).min(d)))
        })
        .collect();
    let px = model.project(&grid, profile.bases.top_height_mm)?;
    let (cols, rows) = (f64::from(photo.cols()), f64::from(photo.rows()));
    let seen = grid
        .iter()
        .zip(&px)
        .filter(|(_, q)| q[0] >= -0.5 && q[1] >= -0.5 && q[0] < cols - 0.5 && q[1] < rows - 0.5);
    Ok(seen
        .map(|(p, _)| [[p.x, p.y], [p.x, p.y]])
        .reduce(|a, b| {
            [[a[0][0].min(b[0][0]), a[0][1].min(b[0][1])], [a[1][0].max(b[1][0]), a[1][1].max(b[1][1])]]
        })
        .unwrap_or([[0.0, 0.0], [0.0, 0.0]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob(points: Vec<Vec2>) -> Blob {
        Blob { points, min: Vec2::ZERO, max: Vec2::ZERO }
    }

    /// A blob's longest extent is between its two farthest pixels, whatever its shape.
    #[test]
    fn a_blobs_longest_extent_is_its_farthest_two_pixels() {
        // A 180 x 20 mm rectangle of pixels: corner to corner.
        let rect: Vec<Vec2> =
            (0..180).flat_map(|x| (0..20).map(move |y| Vec2::new(x as f64 + 0.5, y as f64 + 0.5))).collect();
        assert!((blob(rect.clone()).longest_extent_mm() - 179.0_f64.hypot(19.0)).abs() < 1e-9);
        // An L: the rectangle with a 10 x 100 mm leg down from its far end.
        let mut l = rect;
        l.extend((170..180).flat_map(|x| (20..120).map(move |y| Vec2::new(x as f64 + 0.5, y as f64 + 0.5))));
        assert!((blob(l).longest_extent_mm() - 179.0_f64.hypot(119.0)).abs() < 1e-9);
        // One pixel, two, and a line of them.
        assert_eq!(blob(vec![Vec2::new(3.0, 4.0)]).longest_extent_mm(), 0.0);
        assert_eq!(blob(vec![Vec2::new(0.0, 0.0), Vec2::new(3.0, 4.0)]).longest_extent_mm(), 5.0);
        let line: Vec<Vec2> = (0..50).map(|x| Vec2::new(x as f64, 2.0)).collect();
        assert_eq!(blob(line).longest_extent_mm(), 49.0);
    }
}
