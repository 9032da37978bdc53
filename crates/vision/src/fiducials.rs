//! Finding square markers (table fiducials and base tags) in a photo, with sub-pixel
//! corners.
//!
//! OpenCV's detector is tuned for markers that fill a good part of the frame; a 12 mm
//! base tag on a 6'x4' table photographed at 12 MP is about 25 px across, so the
//! minimum marker perimeter is lowered to what the caller asks for (in pixels, not as
//! a fraction of the image) and the adaptive threshold uses windows sized for small
//! markers.

use crate::dictionary::Dictionary;
use crate::error::VisionError;
use opencv::aruco::DetectorParametersTrait;
use opencv::core::{Mat, MatTraitConst, Point2f, Size, TermCriteria, Vector};
use serde::{Deserialize, Serialize};

/// One marker found in a photo.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DetectedMarker {
    /// The marker's id in its dictionary.
    pub id: u32,
    /// Corner pixels in OpenCV's order: the printed marker's top-left, top-right,
    /// bottom-right, bottom-left. Pixel centres are at integer coordinates.
    pub corners: [[f64; 2]; 4],
}

impl DetectedMarker {
    /// The centre (mean of the corners), px.
    #[must_use]
    pub fn centre(&self) -> [f64; 2] {
        let s = self.corners.iter().fold([0.0, 0.0], |a, c| [a[0] + c[0], a[1] + c[1]]);
        [s[0] / 4.0, s[1] / 4.0]
    }

    /// The mean side length, px.
    #[must_use]
    pub fn side_px(&self) -> f64 {
        (0..4)
            .map(|i| {
                let a = self.corners[i];
                let b = self.corners[(i + 1) % 4];
                (a[0] - b[0]).hypot(a[1] - b[1])
            })
            .sum::<f64>()
            / 4.0
    }
}

/// How corners are refined to sub-pixel accuracy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refinement {
    /// Lines fitted to the four edges, intersected (see [`refine_edges`]); falls back
    /// to the detector's corners where an edge cannot be fitted.
    Edges,
    /// OpenCV's `cornerSubPix` around each corner.
    CornerSubPix,
    /// The detector's polygon corners as they are.
    None,
}

/// How to look for markers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DetectorSettings {
    /// The smallest marker side to look for, px (black border included).
    pub min_side_px: f64,
    /// How corners are refined.
    pub refinement: Refinement,
    /// Half-size of the `cornerSubPix` window, px.
    pub refine_window_px: i32,
    /// Smallest and largest adaptive threshold window, px (odd).
    pub threshold_windows_px: (i32, i32),
    /// Read candidates OpenCV rejected again with edge-refined corners (see
    /// `decode.rs`); needs [`Refinement::Edges`].
    pub second_chance: bool,
    /// The largest candidate the second chance reads: mean side, px (no limit by
    /// default; 8 times the side in [`DetectorSettings::for_marker_side`]). A rejected
    /// candidate far larger than the markers looked for is the outline of the table,
    /// the mat or a terrain piece, and refining its edges costs more than the rest of
    /// the search.
    pub max_side_px: f64,
    /// The photo's grey values are sRGB-encoded ([`crate::Tone::Srgb`]): edges are
    /// placed where the light, not the encoded value, crosses halfway (issue 36).
    pub srgb_edges: bool,
}

impl Default for DetectorSettings {
    fn default() -> Self {
        DetectorSettings {
            min_side_px: 12.0,
            refinement: Refinement::Edges,
            refine_window_px: 3,
            threshold_windows_px: (5, 15),
            second_chance: true,
            max_side_px: f64::INFINITY,
            srgb_edges: false,
        }
    }
}

/// How much larger than the side a detector is set for ([`DetectorSettings::for_marker_side`])
/// a rejected candidate may be and still be read by the second chance. A whole-table
/// photo shows its largest tag or fiducial at most about 3 times its smallest (a 12 mm
/// tag at the near edge of a 30° photo beside a 10 mm one at the far edge); the
/// outlines left out are 20-100 times that (1,500-2,800 px on the second renderer's
/// 12 MP photos, whose markers are 25-130 px), and refining one cost 1.6 billion
/// instructions, an eighth of a scan (issue 36).
const SECOND_CHANCE_MAX_RATIO: f64 = 8.0;

impl DetectorSettings {
    /// Settings for markers of about `side_px` pixels: the threshold windows span a
    /// cell to half a marker, and a `cornerSubPix` window would be half a cell.
    #[must_use]
    pub fn for_marker_side(side_px: f64, bits: i32) -> Self {
        let cell = side_px / f64::from(bits + 2);
        let window = ((cell * 0.5).round() as i32).clamp(2, 10);
        let win_min = (((cell * 1.2) as i32) | 1).clamp(3, 51);
        let win_max = (((side_px * 0.6) as i32) | 1).clamp(win_min, 101);
        DetectorSettings {
            min_side_px: (side_px * 0.5).max(8.0),
            refinement: Refinement::Edges,
            refine_window_px: window,
            threshold_windows_px: (win_min, win_max),
            second_chance: true,
            max_side_px: side_px * SECOND_CHANCE_MAX_RATIO,
            srgb_edges: false,
        }
    }
}

/// Finds every marker of `dictionary` in a grey image.
pub fn detect_markers(
    gray: &Mat,
    dictionary: Dictionary,
    settings: &DetectorSettings,
) -> Result<Vec<DetectedMarker>, VisionError> {
    let size = gray.size()?;
    let longest = f64::from(size.width.max(size.height).max(1));
    let mut params = opencv::aruco::DetectorParameters::create()?;
    params.set_min_marker_perimeter_rate(4.0 * settings.min_side_px / longest);
    let (wmin, wmax) = settings.threshold_windows_px;
    params.set_adaptive_thresh_win_size_min(wmin);
    params.set_adaptive_thresh_win_size_max(wmax.max(wmin));
    // Two windows at most: each window is a whole pass of thresholding and contours.
    params.set_adaptive_thresh_win_size_step((wmax - wmin).max(1));
    // A marker may sit close to the frame edge on a tilted photo.
    params.set_min_distance_to_border(1);
    if settings.refinement == Refinement::CornerSubPix {
        params.set_corner_refinement_method(opencv::aruco::CORNER_REFINE_SUBPIX);
        params.set_corner_refinement_win_size(settings.refine_window_px);
        params.set_corner_refinement_max_iterations(50);
        params.set_corner_refinement_min_accuracy(0.01);
    } else {
        params.set_corner_refinement_method(opencv::aruco::CORNER_REFINE_NONE);
    }
    let dict = dictionary.opencv()?;
    let mut corners = Vector::<Vector<Point2f>>::new();
    let mut ids = Vector::<i32>::new();
    let mut rejected = Vector::<Vector<Point2f>>::new();
    opencv::aruco::detect_markers(gray, &dict, &mut corners, &mut ids, &params, &mut rejected)?;
    let mut found = collect(&corners, &ids);
    if settings.refinement == Refinement::Edges {
        let view = GrayView::new(gray)?.with_srgb(settings.srgb_edges);
        for m in &mut found {
            let mut c = m.corners;
            if refine_edges_view(&view, &mut c, dictionary.bits()) {
                m.corners = c;
            }
        }
        if settings.second_chance && !rejected.is_empty() {
            let book = crate::decode::codebook(dictionary)?;
            let quads: Vec<[[f64; 2]; 4]> = rejected
                .iter()
                .filter(|q| q.len() == 4)
                .map(|q| {
                    let mut c = [[0.0; 2]; 4];
                    for (dst, p) in c.iter_mut().zip(q.iter()) {
                        *dst = [f64::from(p.x), f64::from(p.y)];
                    }
                    c
                })
                .filter(|q| crate::decode::mean_side(q) <= settings.max_side_px)
                .collect();
            let taken: std::collections::BTreeSet<u32> = found.iter().map(|m| m.id).collect();
            found.extend(crate::decode::second_chance(&view, &book, &quads, &taken));
            found.sort_by(|a, b| a.id.cmp(&b.id).then(a.corners[0][0].total_cmp(&b.corners[0][0])));
        }
    }
    Ok(found)
}

fn collect(corners: &Vector<Vector<Point2f>>, ids: &Vector<i32>) -> Vec<DetectedMarker> {
    let mut out = Vec::with_capacity(ids.len());
    for (quad, id) in corners.iter().zip(ids.iter()) {
        if quad.len() != 4 || id < 0 {
            continue;
        }
        let mut c = [[0.0; 2]; 4];
        for (dst, p) in c.iter_mut().zip(quad.iter()) {
            *dst = [f64::from(p.x), f64::from(p.y)];
        }
        out.push(DetectedMarker { id: id as u32, corners: c });
    }
    out.sort_by(|a, b| a.id.cmp(&b.id).then(a.corners[0][0].total_cmp(&b.corners[0][0])));
    out
}

/// Finds large markers quickly: detects on a copy shrunk so that the smallest expected
/// marker is about 40 px across, then refines the corners on the full image.
pub fn detect_large_markers(
    gray: &Mat,
    dictionary: Dictionary,
    expected_side_px: f64,
) -> Result<Vec<DetectedMarker>, VisionError> {
    let scale = (40.0 / expected_side_px).min(1.0);
    if scale > 0.7 {
        return detect_markers(
            gray,
            dictionary,
            &DetectorSettings::for_marker_side(expected_side_px, dictionary.bits()),
        );
    }
    let size = gray.size()?;
    let small_size = Size::new(
        ((f64::from(size.width) * scale).round() as i32).max(1),
        ((f64::from(size.height) * scale).round() as i32).max(1),
    );
    let mut small = Mat::default();
    opencv::imgproc::resize(gray, &mut small, small_size, 0.0, 0.0, opencv::imgproc::INTER_AREA)?;
    let sx = f64::from(size.width) / f64::from(small_size.width);
    let sy = f64::from(size.height) / f64::from(small_size.height);
    let mut found =
        detect_markers(&small, dictionary, &DetectorSettings::for_marker_side(40.0, dictionary.bits()))?;
    for m in &mut found {
        for c in &mut m.corners {
            // Pixel centres: x_full + 0.5 = (x_small + 0.5) * s.
            *c = [(c[0] + 0.5) * sx - 0.5, (c[1] + 0.5) * sy - 0.5];
        }
        let mut c = m.corners;
        if refine_edges(gray, &mut c, dictionary.bits())? {
            m.corners = c;
        } else {
            let cell = m.side_px() / f64::from(dictionary.bits() + 2);
            refine_corners(gray, &mut m.corners, ((cell * 0.4).round() as i32).clamp(2, 15))?;
        }
    }
    Ok(found)
}

/// Refines marker corners to sub-pixel accuracy with OpenCV's `cornerSubPix`.
pub fn refine_corners(
    gray: &Mat,
    corners: &mut [[f64; 2]; 4],
    half_window_px: i32,
) -> Result<(), VisionError> {
    let mut pts: Vector<Point2f> = corners.iter().map(|c| Point2f::new(c[0] as f32, c[1] as f32)).collect();
    let criteria =
        TermCriteria::new(opencv::core::TermCriteria_COUNT + opencv::core::TermCriteria_EPS, 50, 0.005)?;
    opencv::imgproc::corner_sub_pix(
        gray,
        &mut pts,
        Size::new(half_window_px, half_window_px),
        Size::new(-1, -1),
        criteria,
    )?;
    for (c, p) in corners.iter_mut().zip(pts.iter()) {
        *c = [f64::from(p.x), f64::from(p.y)];
    }
    Ok(())
}

/// A grey image's pixels, for sampling between pixel centres.
pub(crate) struct GrayView<'a> {
    data: &'a [u8],
    step: usize,
    width: usize,
    height: usize,
    /// The values are sRGB-encoded: edge crossings are found in linear light.
    srgb: bool,
}

impl<'a> GrayView<'a> {
    /// A view of an 8-bit single-channel image.
    pub(crate) fn new(gray: &'a Mat) -> Result<GrayView<'a>, VisionError> {
        use opencv::core::MatTraitConstManual;
        let size = gray.size()?;
        let step = gray.step1(0)?;
        Ok(GrayView {
            data: gray.data_bytes()?,
            step,
            width: size.width.max(0) as usize,
            height: size.height.max(0) as usize,
            srgb: false,
        })
    }

    /// The same view, its values taken as sRGB-encoded when `srgb` (edges found in
    /// linear light, [`fit_edge`]).
    pub(crate) fn with_srgb(mut self, srgb: bool) -> GrayView<'a> {
        self.srgb = srgb;
        self
    }

    /// Width and height, px.
    pub(crate) fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// The grey level of pixel (x, y), which must be on the image.
    pub(crate) fn at(&self, x: usize, y: usize) -> f64 {
        f64::from(self.byte(x, y))
    }

    /// The byte of pixel (x, y), which must be on the image.
    pub(crate) fn byte(&self, x: usize, y: usize) -> u8 {
        self.data[y * self.step + x]
    }

    /// Bilinear sample at (x, y) with pixel centres at integers; `None` off the image.
    pub(crate) fn sample(&self, x: f64, y: f64) -> Option<f64> {
        if !(x >= 0.0 && y >= 0.0 && x < (self.width - 1) as f64 && y < (self.height - 1) as f64) {
            return None;
        }
        // Both are at least 0: truncation is their floor, without a call to `floor`.
        let (x0, y0) = (x as usize, y as usize);
        let (fx, fy) = (x - x0 as f64, y - y0 as f64);
        let at = |xx: usize, yy: usize| f64::from(self.data[yy * self.step + xx]);
        let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1, y0) * fx;
        let bottom = at(x0, y0 + 1) * (1.0 - fx) + at(x0 + 1, y0 + 1) * fx;
        Some(top * (1.0 - fy) + bottom * fy)
    }
}

/// Refines a marker's corners from its four edges: along each side, the sub-pixel
/// position where the intensity crosses halfway between the black border and the white
/// paper outside it is found at many points, a line is fitted through them, and the
/// corners are the intersections of adjacent lines.
///
/// Corner-window refinement (OpenCV's `cornerSubPix`) sees a few pixels around each
/// corner; a 25 px tag's edges offer about 80 edge points, and the halfway crossing is
/// unbiased under a symmetric blur, where a thresholded contour sits inside the square.
pub fn refine_edges(gray: &Mat, corners: &mut [[f64; 2]; 4], bits: i32) -> Result<bool, VisionError> {
    let view = GrayView::new(gray)?;
    Ok(refine_edges_view(&view, corners, bits))
}

pub(crate) fn refine_edges_view(view: &GrayView<'_>, corners: &mut [[f64; 2]; 4], bits: i32) -> bool {
    for _ in 0..2 {
        let mut lines = [([0.0f64; 2], [0.0f64; 2]); 4];
        for (k, line) in lines.iter_mut().enumerate() {
            match fit_edge(view, corners[k], corners[(k + 1) % 4], bits) {
                Some(l) => *line = l,
                None => return false,
            }
        }
        let mut refined = *corners;
        for (k, corner) in refined.iter_mut().enumerate() {
            // Corner k joins edge k-1 (into it) and edge k (out of it).
            match intersect(lines[(k + 3) % 4], lines[k]) {
                Some(p) if (p[0] - corners[k][0]).hypot(p[1] - corners[k][1]) < 3.0 => *corner = p,
                _ => return false,
            }
        }
        *corners = refined;
    }
    true
}

/// An sRGB-encoded value (0-255) as linear light on the same scale.
pub(crate) fn srgb_to_linear(v: f64) -> f64 {
    let c = (v / 255.0).clamp(0.0, 1.0);
    255.0 * if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// Fits the edge from `a` to `b` (clockwise in the image, so the outside is to the
/// left of travel): returns a point on the line and its unit direction.
pub(crate) fn fit_edge(
    view: &GrayView<'_>,
    a: [f64; 2],
    b: [f64; 2],
    bits: i32,
) -> Option<([f64; 2], [f64; 2])> {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len = d[0].hypot(d[1]);
    if len < 4.0 {
        return None;
    }
    let u = [d[0] / len, d[1] / len];
    let n = [u[1], -u[0]]; // outward
    let cell = len / f64::from(bits + 2);
    let reach = (0.8 * cell).max(1.5);
    let step = 0.25;
    let samples = ((len * 0.7) / 1.0).round().max(4.0) as usize;
    let mut pts: Vec<[f64; 2]> = Vec::with_capacity(samples);
    let mut weights: Vec<f64> = Vec::with_capacity(samples);
    for i in 0..samples {
        // Stay away from the corners, where the other edge bends the profile.
        let t = 0.15 + 0.7 * (i as f64 + 0.5) / samples as f64;
        let p = [a[0] + d[0] * t, a[1] + d[1] * t];
        let count = (2.0 * reach / step).round() as usize + 1;
        let mut profile = Vec::with_capacity(count);
        for j in 0..count {
            let s = -reach + j as f64 * step;
            match view.sample(p[0] + n[0] * s, p[1] + n[1] * s) {
                Some(v) => profile.push((s, v)),
                None => break,
            }
        }
        if profile.len() != count {
            continue;
        }
        // Dark and light levels: the extremes of each half of the profile.
        let half = count / 2;
        let dark = profile[..half].iter().map(|q| q.1).fold(f64::INFINITY, f64::min);
        let light = profile[half..].iter().map(|q| q.1).fold(f64::NEG_INFINITY, f64::max);
        let contrast = light - dark;
        if contrast < 20.0 {
            continue;
        }
        // An sRGB photo's halfway code value lies on the dark side of the edge (a
        // blurred black square reads smaller by most of the blur's sigma): halfway in
        // light, as the scene's light fell (issue 36).
        let (dark, light) = if view.srgb {
            for q in &mut profile {
                q.1 = srgb_to_linear(q.1);
            }
            (srgb_to_linear(dark), srgb_to_linear(light))
        } else {
            (dark, light)
        };
        let mid = (dark + light) / 2.0;
        // The crossing nearest the current edge estimate (s = 0).
        let mut best: Option<f64> = None;
        for w in profile.windows(2) {
            let ((s0, v0), (s1, v1)) = (w[0], w[1]);
            if (v0 - mid) * (v1 - mid) <= 0.0 && v1 > v0 {
                let s = s0 + (mid - v0) / (v1 - v0) * (s1 - s0);
                if best.is_none_or(|bs| s.abs() < bs.abs()) {
                    best = Some(s);
                }
            }
        }
        if let Some(s) = best {
            pts.push([p[0] + n[0] * s, p[1] + n[1] * s]);
            weights.push(contrast);
        }
    }
    if pts.len() < 4 {
        return None;
    }
    let mut line = fit_line(&pts, &weights)?;
    // One pass of outlier rejection (a figure's edge, a scratch on the print).
    let resid: Vec<f64> = pts.iter().map(|p| distance_to_line(line, *p)).collect();
    let mut sorted = resid.clone();
    sorted.sort_by(f64::total_cmp);
    let limit = (3.0 * sorted[sorted.len() / 2] * 1.4826).max(0.1);
    let keep: Vec<usize> = (0..pts.len()).filter(|&i| resid[i] <= limit).collect();
    if keep.len() >= 4 && keep.len() < pts.len() {
        let p2: Vec<[f64; 2]> = keep.iter().map(|&i| pts[i]).collect();
        let w2: Vec<f64> = keep.iter().map(|&i| weights[i]).collect();
        line = fit_line(&p2, &w2)?;
    }
    Some(line)
}

/// Code values at or above this are the sensor's ceiling (255 less the noise of a
/// clipped pixel): a bound on the light there, not its level.
pub(crate) const CLIPPED_CODE: f64 = 250.0;

/// True when the paper around a marker is overexposed: most points half a cell
/// outside its edges, along the middle of each side, are at the sensor's ceiling.
///
/// The edge fit places each edge halfway between the ink and the paper's level; a
/// clipped paper's level is the ceiling, below its true level, so the edges are read
/// inward, by more as the paper is brighter (a 60 px square under a 0.7 px blur at one
/// stop over: 0.19 px for paper at 60% of full scale, 0.43 px at 80%, 0.54 px at 95%;
/// `tests::clipped_paper_reads_the_square_small`). Where half of the step itself is
/// over the ceiling no fit of the pixels below it places the edge without assuming
/// the lens's blur, so the bias is reported, not corrected (issue 36).
pub(crate) fn paper_clipped(view: &GrayView<'_>, corners: &[[f64; 2]; 4], bits: i32) -> bool {
    let (mut clipped, mut seen) = (0usize, 0usize);
    for p in beside_edges(corners, bits, 9, (0.2, 0.6), 0.5) {
        if let Some(v) = view.sample(p[0], p[1]) {
            seen += 1;
            clipped += usize::from(v >= CLIPPED_CODE);
        }
    }
    seen > 0 && 2 * clipped > seen
}

/// Points beside a marker's edges (clockwise in the image, the outside to the left of
/// travel): on each side at least 4 px long, `count` points spread evenly over the
/// stretch `(first, span)` of its length (shares from its start), each `cells` cells
/// outside the side (inside when negative; a cell is the side over `bits + 2`). A
/// shorter side gives none.
fn beside_edges(
    corners: &[[f64; 2]; 4],
    bits: i32,
    count: u32,
    (first, span): (f64, f64),
    cells: f64,
) -> Vec<[f64; 2]> {
    let mut points = Vec::with_capacity(4 * count as usize);
    for k in 0..4 {
        let (a, b) = (corners[k], corners[(k + 1) % 4]);
        let d = [b[0] - a[0], b[1] - a[1]];
        let len = d[0].hypot(d[1]);
        if len < 4.0 {
            continue;
        }
        let out = [d[1] / len, -d[0] / len];
        let gap = cells * len / f64::from(bits + 2);
        for i in 0..count {
            let t = first + span * f64::from(i) / f64::from(count.saturating_sub(1).max(1));
            points.push([a[0] + d[0] * t + out[0] * gap, a[1] + d[1] * t + out[1] * gap]);
        }
    }
    points
}

/// Whether a marker's paper margin is clear: of the points half a cell and 0.8 of a cell
/// outside its edges (twelve along the middle 70% of each side, where [`fit_edge`]
/// reads its profiles), at most [`MARGIN_DARK_SHARE`] are darker than the margin's
/// paper (its 90th percentile) by a fifth of the paper-to-ink contrast (the ink read
/// half a cell inside). A figure standing at a tag's margin, its shadow or its lean
/// over the margin in a tilted view darkens the light side of the edges' profiles and
/// moves the edges by a few hundredths of a pixel, alike on the tags around it: too
/// little to see in one tag's residual, enough over a table's tags to bend a
/// self-calibrated lens (issue 36: on a render 5° from straight down, k1 0.031 for
/// 0.020, the bases 0.6 mm off; from the 28 tags of 191 with a clear margin alone,
/// 0.0205).
pub(crate) fn margin_clear(view: &GrayView<'_>, corners: &[[f64; 2]; 4], bits: i32) -> bool {
    // Twelve points a side, each side read whole and every point on the photo.
    let read = |cells: f64| -> Option<Vec<f64>> {
        let points = beside_edges(corners, bits, 12, (0.15, 0.7), cells);
        if points.len() != 48 {
            return None;
        }
        points.iter().map(|p| view.sample(p[0], p[1])).collect()
    };
    let (Some(mut paper), Some(further), Some(mut ink)) = (read(0.5), read(0.8), read(-0.5)) else {
        return false;
    };
    paper.extend(further);
    let mut sorted = paper.clone();
    sorted.sort_by(f64::total_cmp);
    ink.sort_by(f64::total_cmp);
    let (light, dark) = (sorted[(sorted.len() * 9) / 10], ink[ink.len() / 2]);
    let floor = light - 0.2 * (light - dark);
    let darkened = paper.iter().filter(|&&v| v < floor).count();
    (darkened as f64) <= MARGIN_DARK_SHARE * paper.len() as f64
}

/// The share of a clear margin's points that may read dark ([`margin_clear`]): noise
/// and the print's own specks, about one point in 32.
const MARGIN_DARK_SHARE: f64 = 0.03;

/// Weighted total-least-squares line: centroid and principal direction.
fn fit_line(pts: &[[f64; 2]], w: &[f64]) -> Option<([f64; 2], [f64; 2])> {
    let sw: f64 = w.iter().sum();
    if sw <= 0.0 {
        return None;
    }
    let cx = pts.iter().zip(w).map(|(p, w)| p[0] * w).sum::<f64>() / sw;
    let cy = pts.iter().zip(w).map(|(p, w)| p[1] * w).sum::<f64>() / sw;
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for (p, w) in pts.iter().zip(w) {
        let (dx, dy) = (p[0] - cx, p[1] - cy);
        sxx += w * dx * dx;
        sxy += w * dx * dy;
        syy += w * dy * dy;
    }
    let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    Some(([cx, cy], [angle.cos(), angle.sin()]))
}

fn distance_to_line(line: ([f64; 2], [f64; 2]), p: [f64; 2]) -> f64 {
    let (c, u) = line;
    ((p[0] - c[0]) * u[1] - (p[1] - c[1]) * u[0]).abs()
}

pub(crate) fn intersect(l1: ([f64; 2], [f64; 2]), l2: ([f64; 2], [f64; 2])) -> Option<[f64; 2]> {
    let (p, r) = l1;
    let (q, s) = l2;
    let denom = r[0] * s[1] - r[1] * s[0];
    if denom.abs() < 1e-6 {
        return None;
    }
    let t = ((q[0] - p[0]) * s[1] - (q[1] - p[1]) * s[0]) / denom;
    Some([p[0] + t * r[0], p[1] + t * r[1]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{CV_8UC1, Rect, Scalar};
    use opencv::prelude::MatTrait;

    /// A grey page with markers drawn by OpenCV itself at known places.
    fn page(dict: Dictionary, ids: &[u32], side: i32) -> (Mat, Vec<(u32, i32, i32)>) {
        let mut img = Mat::new_rows_cols_with_default(600, 800, CV_8UC1, Scalar::all(200.0)).unwrap();
        let cv = dict.opencv().unwrap();
        let mut placed = Vec::new();
        for (k, &id) in ids.iter().enumerate() {
            let mut m = Mat::default();
            opencv::aruco::draw_marker(&cv, id as i32, side, &mut m, 1).unwrap();
            let x = 40 + (k as i32 % 5) * (side + 60);
            let y = 40 + (k as i32 / 5) * (side + 60);
            let mut roi = Mat::roi_mut(&mut img, Rect::new(x, y, side, side)).unwrap();
            m.copy_to(&mut roi).unwrap();
            placed.push((id, x, y));
        }
        (img, placed)
    }

    #[test]
    fn finds_opencv_markers_with_exact_corners() {
        let dict = Dictionary::DEFAULT_TAGS;
        let (img, placed) = page(dict, &[3, 17, 42, 199, 249], 60);
        let found = detect_markers(&img, dict, &DetectorSettings::for_marker_side(60.0, 4)).unwrap();
        assert_eq!(found.iter().map(|m| m.id).collect::<Vec<_>>(), vec![3, 17, 42, 199, 249]);
        for m in &found {
            let &(_, x, y) = placed.iter().find(|p| p.0 == m.id).unwrap();
            // The black square spans pixels x..x+side-1; its outer corner lies half a
            // pixel outside the first and last pixel centres.
            let tl = [f64::from(x) - 0.5, f64::from(y) - 0.5];
            assert!((m.corners[0][0] - tl[0]).abs() < 0.3 && (m.corners[0][1] - tl[1]).abs() < 0.3, "{m:?}");
            assert!((m.side_px() - 60.0).abs() < 0.5);
        }
    }

    #[test]
    fn small_markers_need_the_lowered_perimeter() {
        let dict = Dictionary::DEFAULT_TAGS;
        let (img, _) = page(dict, &[5, 6, 7], 18);
        let found = detect_markers(&img, dict, &DetectorSettings::for_marker_side(18.0, 4)).unwrap();
        assert_eq!(found.len(), 3);
        // OpenCV's defaults (minimum perimeter 3% of 800 px = 24 px: 6 px sides) would
        // also find these at 800 px, but not at 12 MP; the rate scales with the image.
        let found_default = {
            let cv = dict.opencv().unwrap();
            let mut corners = Vector::<Vector<Point2f>>::new();
            let mut ids = Vector::<i32>::new();
            opencv::aruco::detect_markers_def(&img, &cv, &mut corners, &mut ids).unwrap();
            ids.len()
        };
        assert!(found_default <= 3);
    }

    #[test]
    fn large_markers_found_on_a_shrunk_copy_keep_full_resolution_corners() {
        let dict: Dictionary = "DICT_4X4_50".parse().unwrap();
        let (img, placed) = page(dict, &[0, 1], 120);
        let found = detect_large_markers(&img, dict, 120.0).unwrap();
        assert_eq!(found.len(), 2);
        for m in &found {
            let &(_, x, y) = placed.iter().find(|p| p.0 == m.id).unwrap();
            let br = [f64::from(x + 120) - 0.5, f64::from(y + 120) - 0.5];
            assert!((m.corners[2][0] - br[0]).abs() < 0.3 && (m.corners[2][1] - br[1]).abs() < 0.3, "{m:?}");
        }
    }

    /// A black square on white paper as a camera records it (the synth's order): area
    /// coverage on a 4x4 grid per pixel, a Gaussian lens blur of `sigma` px, the light
    /// scaled by `2^ev`, then clipped at the sensor's ceiling and quantized. The paper
    /// reflects `paper` of full scale, the ink 0.05. Returns the image and the true
    /// corners (clockwise in the image, top-left first).
    fn exposed_square(side: f64, angle_deg: f64, paper: f64, ev: f64, sigma: f64) -> (Mat, [[f64; 2]; 4]) {
        let n = (side * 1.6).ceil() as usize + 20;
        let c = (n as f64 - 1.0) / 2.0 + 0.37;
        let (sn, cs) = angle_deg.to_radians().sin_cos();
        let h = side / 2.0;
        let corners =
            [[-h, -h], [h, -h], [h, h], [-h, h]].map(|[x, y]| [c + x * cs - y * sn, c + x * sn + y * cs]);
        let ss = 4;
        let mut light = vec![0.0f64; n * n];
        for y in 0..n {
            for x in 0..n {
                let mut inside = 0;
                for j in 0..ss {
                    for i in 0..ss {
                        let px = x as f64 - 0.5 + (f64::from(i) + 0.5) / f64::from(ss) - c;
                        let py = y as f64 - 0.5 + (f64::from(j) + 0.5) / f64::from(ss) - c;
                        let (u, v) = (px * cs + py * sn, -px * sn + py * cs);
                        if u.abs() < h && v.abs() < h {
                            inside += 1;
                        }
                    }
                }
                let f = f64::from(inside) / f64::from(ss * ss);
                light[y * n + x] = paper * (1.0 - f) + 0.05 * f;
            }
        }
        let r = (3.0 * sigma).ceil() as isize;
        let kernel: Vec<f64> = (-r..=r).map(|i| (-((i * i) as f64) / (2.0 * sigma * sigma)).exp()).collect();
        let total: f64 = kernel.iter().sum();
        let at = |i: isize| i.clamp(0, n as isize - 1) as usize;
        let mut across = vec![0.0; n * n];
        for y in 0..n {
            for x in 0..n {
                across[y * n + x] = (-r..=r)
                    .map(|k| light[y * n + at(x as isize + k)] * kernel[(k + r) as usize])
                    .sum::<f64>()
                    / total;
            }
        }
        let mut img = Mat::new_rows_cols_with_default(n as i32, n as i32, CV_8UC1, Scalar::all(0.0)).unwrap();
        let gain = 2f64.powf(ev);
        for y in 0..n {
            for x in 0..n {
                let v = (-r..=r)
                    .map(|k| across[at(y as isize + k) * n + x] * kernel[(k + r) as usize])
                    .sum::<f64>()
                    / total;
                *img.at_2d_mut::<u8>(y as i32, x as i32).unwrap() =
                    ((v * gain).min(1.0) * 255.0).round() as u8;
            }
        }
        (img, corners)
    }

    /// Each edge's outward offset from the true edge, px, after refining the corners
    /// from a start 0.6 px off (positive: the square reads large).
    fn edge_offsets(img: &Mat, truth: [[f64; 2]; 4]) -> Option<[f64; 4]> {
        let view = GrayView::new(img).unwrap();
        let mut c = truth.map(|p| [p[0] + 0.6, p[1] - 0.4]);
        if !refine_edges_view(&view, &mut c, 4) {
            return None;
        }
        let mut out = [0.0; 4];
        for (k, o) in out.iter_mut().enumerate() {
            let (a, b) = (truth[k], truth[(k + 1) % 4]);
            let len = (b[0] - a[0]).hypot(b[1] - a[1]);
            let n = [(b[1] - a[1]) / len, -(b[0] - a[0]) / len];
            let mid = [(c[k][0] + c[(k + 1) % 4][0]) / 2.0, (c[k][1] + c[(k + 1) % 4][1]) / 2.0];
            *o = (mid[0] - a[0]) * n[0] + (mid[1] - a[1]) * n[1];
        }
        Some(out)
    }

    /// The controlled case of issue 36's one stop over: a 60 px square on paper that
    /// reflects 60-95% of full scale, blurred by 0.7 px, turned 7-31° (an edge along
    /// the pixel rows has a bias of its own, from the bilinear profile), at 0 and +1 EV.
    /// Exposed right the edges are true within 0.01 px; one stop over, all four read
    /// inward alike, by more as the paper is brighter, and the paper is seen clipped.
    /// A 24 px tag (a cell of 4 px) on clear paper has a clear margin, turned or not;
    /// a figure's dark patch, 3 px by 6, at one edge's margin makes it unclear, as
    /// does its shadow (the paper there a third darker), and the photo's edge.
    #[test]
    fn a_figure_at_a_tags_margin_makes_it_unclear() {
        for angle in [0.0, 13.0, 38.0] {
            let (img, corners) = exposed_square(24.0, angle, 0.8, 0.0, 0.8);
            let view = GrayView::new(&img).unwrap();
            assert!(margin_clear(&view, &corners, 4), "clear paper at {angle}°");
            // The middle of the top edge, 2-5 px outside it.
            let (a, b) = (corners[0], corners[1]);
            let len = (b[0] - a[0]).hypot(b[1] - a[1]);
            let (u, out) =
                ([(b[0] - a[0]) / len, (b[1] - a[1]) / len], [(b[1] - a[1]) / len, -(b[0] - a[0]) / len]);
            let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
            for (level, what) in [(40.0, "a figure"), (0.66, "a shadow")] {
                let mut patched = img.clone();
                for s in -6..=6 {
                    for o in 4..=10 {
                        let (s, o) = (f64::from(s) * 0.5, f64::from(o) * 0.5);
                        let x = (mid[0] + u[0] * s + out[0] * o).round() as i32;
                        let y = (mid[1] + u[1] * s + out[1] * o).round() as i32;
                        let px = patched.at_2d_mut::<u8>(y, x).unwrap();
                        *px = if level < 1.0 { (f64::from(*px) * level) as u8 } else { level as u8 };
                    }
                }
                let view = GrayView::new(&patched).unwrap();
                assert!(!margin_clear(&view, &corners, 4), "{what} at {angle}°");
            }
            let off = corners.map(|[x, y]| [x - corners[0][0] + 1.0, y]);
            assert!(!margin_clear(&view, &off, 4), "off the photo");
        }
    }

    /// At the bound of [`MARGIN_DARK_SHARE`]: a 96 px tag (cells of 16 px, its margin's
    /// 96 points 5-7 px apart) with dark specks on some of the points 0.8 of a cell out,
    /// each on one point alone. Two specks (2 of 96, 2.1%) leave the margin clear, as the
    /// print's own specks must; a third (3.1%) makes it unclear, turned or not.
    #[test]
    fn a_margin_is_clear_up_to_its_share_of_dark_points() {
        for angle in [0.0, 21.0] {
            let (img, corners) = exposed_square(96.0, angle, 0.8, 0.0, 0.8);
            let further = beside_edges(&corners, 4, 12, (0.15, 0.7), 0.8);
            assert_eq!(further.len(), 48);
            // Points on three sides, none beside another.
            let specks = [further[5], further[12 + 7], further[24 + 2]];
            for (n, clear) in [(0, true), (2, true), (3, false)] {
                let mut specked = img.clone();
                for p in &specks[..n] {
                    for dy in -1..=1 {
                        for dx in -1..=1 {
                            let (x, y) = (p[0].floor() as i32 + dx, p[1].floor() as i32 + dy);
                            *specked.at_2d_mut::<u8>(y, x).unwrap() = 20;
                        }
                    }
                }
                let view = GrayView::new(&specked).unwrap();
                assert_eq!(margin_clear(&view, &corners, 4), clear, "{n} specks at {angle}°");
            }
        }
    }

    #[test]
    fn clipped_paper_reads_the_square_small() {
        for (paper, least, most) in [(0.6, 0.15, 0.25), (0.8, 0.35, 0.5), (0.95, 0.45, 0.65)] {
            for angle in [7.0, 17.0, 31.0] {
                let (img, truth) = exposed_square(60.0, angle, paper, 0.0, 0.7);
                let view = GrayView::new(&img).unwrap();
                let off = edge_offsets(&img, truth).unwrap();
                assert!(
                    off.iter().all(|o| o.abs() < 0.01),
                    "paper {paper} at {angle}°, exposed right: {off:.3?}"
                );
                assert!(!paper_clipped(&view, &truth, 4));

                let (img, truth) = exposed_square(60.0, angle, paper, 1.0, 0.7);
                let view = GrayView::new(&img).unwrap();
                let off = edge_offsets(&img, truth).unwrap();
                let mean = off.iter().sum::<f64>() / 4.0;
                assert!(
                    -mean > least && -mean < most && off.iter().all(|o| (o - mean).abs() < 0.02),
                    "paper {paper} at {angle}°, +1 EV: {off:.3?}"
                );
                assert!(paper_clipped(&view, &truth, 4));
            }
        }
    }
}
