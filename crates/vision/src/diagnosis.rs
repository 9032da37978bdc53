//! What is wrong with a photo, measured from the photo itself (issue 39 item 5, issue
//! 41 item 3): how big the base tags are in pixels, how blurred the edges of the table
//! fiducials are, where the light saturates the sensor, and, for each table fiducial
//! that was not found, why.
//!
//! A scan refuses a photo whose tags are too small or too blurred to be read reliably
//! (rather than read a few and guess the rest), and warns when a photo is marginal;
//! `vedette fiducials --profile` says why each missing fiducial is missing and draws
//! where it should be. The limits were measured by scanning the bundled renders at lower
//! resolutions and with more blur (docs/getting-started.md, "How big the tags must be";
//! the figures are in the comments of the constants below).

use crate::dictionary::Dictionary;
use crate::error::VisionError;
use crate::fiducials::{DetectedMarker, GrayView};
use crate::photo::Photo;
use crate::pose::CameraModel;
use crate::profile::Profile;
use crate::scan::ScanIssue;
use crate::tags::TagPose;
use opencv::core::{Mat, MatTraitConst, Point, Point2d, Scalar, Vector};
use serde::{Deserialize, Serialize};
use vedette_geometry::Vec2;

/// The smallest tag cell (a marker's side over its bits plus its two border cells) the
/// scanner reads reliably, px: 2 px, so 12 px for a 4x4 tag.
///
/// Measured on the bundled renders (12 mm tags, 12 MP, 22.6 px tags at full size),
/// shrunk with a box filter: the battle photo reads all 153 tags down to 9.9 px
/// (44%), loses 2 and misplaces 1 at 9.5 px, and reads 123 at 9.0 px; the skirmish
/// photo reads its 17 down to 10.3 px and 14 at 9.9 px. Below about 10 px the reading
/// falls off a cliff; 12 px leaves a fifth for a real camera's blur and noise.
pub const MIN_TAG_CELL_PX: f64 = 2.0;

/// Below this cell size, px (16 px for a 4x4 tag), a scan warns that tags beside
/// figures are missed more often: the crowded render (figures against the tags) reads
/// 164 of its 173 tags at full size (20.7 px), 158 at 16.6 px, 149 at 14.5 px and 135
/// at 12.4 px.
pub const MARGINAL_TAG_CELL_PX: f64 = 16.0 / 6.0;

/// The most blur a scan accepts, in tag cells: the standard deviation of the edge
/// spread measured at the fiducials ([`edge_blur`]) over a tag cell's side in px.
///
/// Measured on the battle render (3.8 px cells, 0.9 px of blur measured as rendered,
/// 0.24 cell) blurred further with a Gaussian: 1.3 px measured (σ 1 px added, 0.34
/// cell) reads all 153 tags, 1.7 px (σ 1.5 px, 0.45 cell) 150, 2.0 px (σ 2 px, 0.53
/// cell) 87 and misplaces 6 bases, 2.4 px (σ 2.5 px, 0.64 cell) 11.
pub const MAX_BLUR_CELLS: f64 = 0.5;

/// Above this blur, in tag cells, a scan warns: tags beside figures and at the photo's
/// far side go first.
pub const MARGINAL_BLUR_CELLS: f64 = 0.35;

/// A grey level at or above which a pixel is taken as saturated (glare, overexposure).
pub const SATURATED_GREY: f64 = 250.0;

/// A missing fiducial whose place is more than this fraction saturated is overexposed.
const OVEREXPOSED_FRACTION: f64 = 0.2;

/// The fewest pixels across a marker of `dictionary` that the scanner reads reliably
/// ([`MIN_TAG_CELL_PX`] per cell).
#[must_use]
pub fn min_marker_px(dictionary: Dictionary) -> f64 {
    MIN_TAG_CELL_PX * f64::from(dictionary.bits() + 2)
}

/// The marker size under which a scan warns ([`MARGINAL_TAG_CELL_PX`] per cell).
#[must_use]
pub fn marginal_marker_px(dictionary: Dictionary) -> f64 {
    MARGINAL_TAG_CELL_PX * f64::from(dictionary.bits() + 2)
}

/// How big the profile's base tags are in a photo, over the table: the camera model's
/// scale at a 9 x 7 grid of points over the table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TagSizes {
    /// The smallest tag side, px (where the table is furthest from the camera).
    pub smallest_px: f64,
    /// The median tag side over the table, px.
    pub median_px: f64,
    /// The median photo pixels per table millimetre.
    pub px_per_mm: f64,
}

/// The tags' sizes in the photo the model describes.
#[must_use]
pub fn tag_sizes(model: &CameraModel, profile: &Profile) -> TagSizes {
    let (w, d) = (profile.table.width_mm, profile.table.depth_mm);
    let mut scales: Vec<f64> = Vec::with_capacity(63);
    for j in 0..7 {
        for i in 0..9 {
            let p = Vec2::new(w * f64::from(i) / 8.0, d * f64::from(j) / 6.0);
            let s = 1.0 / model.mm_per_px(p);
            if s.is_finite() && s > 0.0 {
                scales.push(s);
            }
        }
    }
    scales.sort_by(f64::total_cmp);
    let median = scales.get(scales.len() / 2).copied().unwrap_or(0.0);
    let smallest = scales.first().copied().unwrap_or(0.0);
    TagSizes {
        smallest_px: smallest * profile.tags.size_mm,
        median_px: median * profile.tags.size_mm,
        px_per_mm: median,
    }
}

/// Refuses tags smaller than the profile's limit ([`Profile::min_tag_px`]).
pub fn check_tag_sizes(sizes: &TagSizes, profile: &Profile) -> Result<(), VisionError> {
    let needed = profile.min_tag_px();
    if sizes.median_px < needed {
        return Err(VisionError::TagsTooSmall {
            median_px: sizes.median_px,
            smallest_px: sizes.smallest_px,
            tag_mm: profile.tags.size_mm,
            px_per_mm: sizes.px_per_mm,
            needed_px: needed,
        });
    }
    Ok(())
}

/// The blur of a marker's outer edges.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EdgeBlur {
    /// The edge spread as a Gaussian's standard deviation, px: the distance over which
    /// the grey level rises from 10% to 90% of the way from the black border to the
    /// white paper, over 2.563.
    pub sigma_px: f64,
    /// The grey levels' difference between the paper and the border, 0-255.
    pub contrast: f64,
}

/// Half the 10-90% rise of a unit Gaussian edge, in standard deviations (1.2816 each
/// way).
const RISE_10_90_SIGMAS: f64 = 2.563;

/// The fewest grey levels between border and paper for an edge to be measured.
const MIN_CONTRAST: f64 = 25.0;

/// Measures the blur of a marker's outer edges (its corners `corners`, OpenCV order,
/// `bits` bits per side): along each side, grey profiles across the edge, from inside
/// the black border cell to the white quiet zone beyond it, are averaged, and the
/// 10-90% rise of the mean profile is found. The median over the sides; `None` when
/// no side shows a clear black-to-white edge (the marker is off the photo, covered or
/// saturated).
pub fn edge_blur(gray: &Mat, corners: &[[f64; 2]; 4], bits: i32) -> Result<Option<EdgeBlur>, VisionError> {
    let view = GrayView::new(gray)?;
    Ok(edge_blur_view(&view, corners, bits))
}

pub(crate) fn edge_blur_view(view: &GrayView<'_>, corners: &[[f64; 2]; 4], bits: i32) -> Option<EdgeBlur> {
    let c: Vec<Vec2> = corners.iter().map(|p| Vec2::new(p[0], p[1])).collect();
    let centre = (c[0] + c[1] + c[2] + c[3]) * 0.25;
    let side = (0..4).map(|k| (c[(k + 1) % 4] - c[k]).length()).sum::<f64>() / 4.0;
    let cell = side / f64::from(bits + 2);
    // Inside: the black border cell; outside: the quiet zone (one cell at least).
    let reach = 0.9 * cell;
    if reach < 1.5 {
        return None;
    }
    let step = 0.25;
    let n_off = (2.0 * reach / step).round() as usize + 1;
    let mut found: Vec<EdgeBlur> = Vec::new();
    for k in 0..4 {
        let (a, b) = (c[k], c[(k + 1) % 4]);
        let along = b - a;
        let len = along.length();
        if len < 4.0 {
            continue;
        }
        let t = along * (1.0 / len);
        let mut normal = Vec2::new(t.y, -t.x);
        if normal.dot((a + b) * 0.5 - centre) < 0.0 {
            normal = normal * -1.0;
        }
        let samples = (len * 0.6).clamp(4.0, 60.0) as usize;
        let mut profile = vec![0.0; n_off];
        let mut used = 0usize;
        for s in 0..samples {
            let f = 0.2 + 0.6 * (s as f64 + 0.5) / samples as f64;
            let base = a + along * f;
            let mut row = Vec::with_capacity(n_off);
            for o in 0..n_off {
                let off = -reach + o as f64 * step;
                let p = base + normal * off;
                match view.sample(p.x, p.y) {
                    Some(v) => row.push(v),
                    None => break,
                }
            }
            if row.len() == n_off {
                for (acc, v) in profile.iter_mut().zip(&row) {
                    *acc += v;
                }
                used += 1;
            }
        }
        if used < 3 {
            continue;
        }
        for v in &mut profile {
            *v /= used as f64;
        }
        if let Some(e) = rise(&profile, step) {
            found.push(e);
        }
    }
    if found.is_empty() {
        return None;
    }
    found.sort_by(|x, y| x.sigma_px.total_cmp(&y.sigma_px));
    Some(found[found.len() / 2])
}

/// The 10-90% rise of a dark-to-light profile sampled every `step` px.
fn rise(profile: &[f64], step: f64) -> Option<EdgeBlur> {
    let n = profile.len();
    let end = (n / 5).max(2);
    let dark = profile[..end].iter().sum::<f64>() / end as f64;
    let light = profile[n - end..].iter().sum::<f64>() / end as f64;
    let contrast = light - dark;
    if contrast < MIN_CONTRAST {
        return None;
    }
    // The crossings nearest the middle of the profile (the edge's expected place).
    let crossing = |level: f64| -> Option<f64> {
        let mut best: Option<f64> = None;
        for i in 0..n - 1 {
            let (p, q) = (profile[i], profile[i + 1]);
            if (p - level) * (q - level) <= 0.0 && (q - p).abs() > 1e-9 {
                let x = (i as f64 + (level - p) / (q - p)) * step;
                let mid = (n - 1) as f64 * step / 2.0;
                if best.is_none_or(|b| (x - mid).abs() < (b - mid).abs()) {
                    best = Some(x);
                }
            }
        }
        best
    };
    let lo = crossing(dark + 0.1 * contrast)?;
    let hi = crossing(dark + 0.9 * contrast)?;
    let width = (hi - lo).abs();
    Some(EdgeBlur { sigma_px: width / RISE_10_90_SIGMAS, contrast })
}

/// The photo's blur at its table fiducials (the median of [`edge_blur`] over them), px.
pub fn fiducial_blur(
    photo: &Photo,
    fiducials: &[DetectedMarker],
    bits: i32,
) -> Result<Option<f64>, VisionError> {
    let view = GrayView::new(&photo.gray)?;
    let mut sigmas: Vec<f64> = fiducials
        .iter()
        .filter_map(|f| edge_blur_view(&view, &f.corners, bits))
        .map(|e| e.sigma_px)
        .collect();
    sigmas.sort_by(f64::total_cmp);
    Ok(sigmas.get(sigmas.len() / 2).copied())
}

/// Refuses a photo whose blur (`sigma_px`, at the fiducials) spreads over more than
/// [`MAX_BLUR_CELLS`] of a tag cell of `cell_px`.
pub fn check_blur(sigma_px: f64, cell_px: f64) -> Result<(), VisionError> {
    let limit_px = MAX_BLUR_CELLS * cell_px;
    if sigma_px > limit_px {
        return Err(VisionError::Blurred { sigma_px, cell_px, limit_px });
    }
    Ok(())
}

/// A patch of saturated pixels on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GlarePatch {
    /// Its centre on the table, mm.
    pub at_mm: [f64; 2],
    /// The diameter of a disc of its area, mm.
    pub across_mm: f64,
    /// Tags found whose square it touches.
    pub tags: Vec<u32>,
}

/// The largest number of glare patches reported.
const MAX_GLARE_PATCHES: usize = 5;

/// Patches of saturated pixels ([`SATURATED_GREY`]) on the table at least half a tag's
/// area, largest first (at most five): glare from a lamp or a window, or an overexposed
/// photo. Tags under glare cannot be read.
pub fn glare_patches(
    photo: &Photo,
    model: &CameraModel,
    profile: &Profile,
    tags: &[TagPose],
) -> Result<Vec<GlarePatch>, VisionError> {
    Ok(bright_patches(photo, model, profile)?.over(tags))
}

/// The patches of saturated pixels on the table, before the tags under them are known
/// (a scan finds them beside the search for tags among figures).
pub(crate) struct BrightPatches {
    /// Each patch's area, mm², the patch (no tags yet) and its box in the photo, px
    /// (left, top, width, height).
    patches: Vec<(f64, GlarePatch, [i32; 4])>,
}

impl BrightPatches {
    /// The patches with the tags whose squares they touch, largest first (at most
    /// [`MAX_GLARE_PATCHES`]): [`glare_patches`].
    pub(crate) fn over(self, tags: &[TagPose]) -> Vec<GlarePatch> {
        let mut patches: Vec<(f64, GlarePatch)> = self
            .patches
            .into_iter()
            .map(|(area_mm2, mut patch, [left, top, bw, bh])| {
                let boxed = |p: &[f64; 2]| {
                    p[0] >= f64::from(left) - 1.0
                        && p[1] >= f64::from(top) - 1.0
                        && p[0] <= f64::from(left + bw) + 1.0
                        && p[1] <= f64::from(top + bh) + 1.0
                };
                let mut under: Vec<u32> =
                    tags.iter().filter(|t| t.corners_px.iter().any(boxed)).map(|t| t.id).collect();
                under.sort_unstable();
                under.dedup();
                patch.tags = under;
                (area_mm2, patch)
            })
            .collect();
        patches.sort_by(|a, b| b.0.total_cmp(&a.0));
        patches.into_iter().take(MAX_GLARE_PATCHES).map(|(_, p)| p).collect()
    }
}

/// The pixel work of [`glare_patches`]: the photo and its camera alone.
pub(crate) fn bright_patches(
    photo: &Photo,
    model: &CameraModel,
    profile: &Profile,
) -> Result<BrightPatches, VisionError> {
    let (w, d) = (profile.table.width_mm, profile.table.depth_mm);
    let outline =
        model.project(&[Vec2::new(0.0, 0.0), Vec2::new(w, 0.0), Vec2::new(w, d), Vec2::new(0.0, d)], 0.0)?;
    let size = photo.gray.size()?;
    let mut table =
        Mat::new_rows_cols_with_default(size.height, size.width, opencv::core::CV_8UC1, Scalar::all(0.0))?;
    let pts: Vector<Point> =
        outline.iter().map(|p| Point::new(p[0].round() as i32, p[1].round() as i32)).collect();
    let polys: Vector<Vector<Point>> = vec![pts].into();
    opencv::imgproc::fill_poly_def(&mut table, &polys, Scalar::all(255.0))?;
    let mut bright = Mat::default();
    opencv::imgproc::threshold(
        &photo.gray,
        &mut bright,
        SATURATED_GREY - 0.5,
        255.0,
        opencv::imgproc::THRESH_BINARY,
    )?;
    let mut mask = Mat::default();
    opencv::core::bitwise_and_def(&bright, &table, &mut mask)?;
    let mut labels = Mat::default();
    let mut stats = Mat::default();
    let mut centroids = Mat::default();
    let n = opencv::imgproc::connected_components_with_stats(
        &mask,
        &mut labels,
        &mut stats,
        &mut centroids,
        8,
        opencv::core::CV_32S,
    )?;
    let min_mm2 = profile.tags.size_mm * profile.tags.size_mm / 2.0;
    let mut patches = Vec::new();
    for i in 1..n {
        let area_px = f64::from(*stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_AREA)?);
        let cx = *centroids.at_2d::<f64>(i, 0)?;
        let cy = *centroids.at_2d::<f64>(i, 1)?;
        let Some(at) = model.image_to_table(&[[cx, cy]], 0.0)?.into_iter().next() else { continue };
        let mm_per_px = model.mm_per_px(at);
        let area_mm2 = area_px * mm_per_px * mm_per_px;
        // Not a number (a degenerate model) is no patch either.
        if area_mm2.is_nan() || area_mm2 < min_mm2 {
            continue;
        }
        let (left, top) = (
            *stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_LEFT)?,
            *stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_TOP)?,
        );
        let (bw, bh) = (
            *stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_WIDTH)?,
            *stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_HEIGHT)?,
        );
        patches.push((
            area_mm2,
            GlarePatch {
                at_mm: [round1(at.x), round1(at.y)],
                across_mm: round1(2.0 * (area_mm2 / std::f64::consts::PI).sqrt()),
                tags: Vec::new(),
            },
            [left, top, bw, bh],
        ));
    }
    Ok(BrightPatches { patches })
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// What a scan warns about a photo it reads (issue 39): tags under the comfortable size,
/// blur above the comfortable spread, glare on the table.
pub(crate) fn marginal_photo(
    sizes: &TagSizes,
    blur_px: Option<f64>,
    glare: Vec<GlarePatch>,
    profile: &Profile,
) -> Vec<ScanIssue> {
    let mut issues = Vec::new();
    let comfortable = marginal_marker_px(profile.tags.dictionary);
    if sizes.smallest_px < comfortable {
        issues.push(ScanIssue::SmallTags {
            smallest_px: round1(sizes.smallest_px),
            median_px: round1(sizes.median_px),
            comfortable_px: round1(comfortable),
        });
    }
    let cell_px = sizes.median_px / f64::from(profile.tags.dictionary.bits() + 2);
    if let Some(sigma) = blur_px
        && sigma > MARGINAL_BLUR_CELLS * cell_px
    {
        issues.push(ScanIssue::BlurredPhoto {
            sigma_px: (sigma * 100.0).round() / 100.0,
            cell_px: round1(cell_px),
            comfortable_px: (MARGINAL_BLUR_CELLS * cell_px * 100.0).round() / 100.0,
        });
    }
    for g in glare {
        issues.push(ScanIssue::Glare { at_mm: g.at_mm, across_mm: g.across_mm, tags: g.tags });
    }
    issues
}

/// Grey-level statistics of a region of the photo.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Region {
    /// Pixels inside the photo.
    count: usize,
    /// Their mean grey level.
    mean: f64,
    /// The fraction at or above [`SATURATED_GREY`].
    saturated: f64,
}

/// The pixels of the photo inside the convex quadrilateral `q`.
fn region(view: &GrayView<'_>, q: &[[f64; 2]; 4]) -> Region {
    let (w, h) = view.size();
    let xs = q.iter().map(|p| p[0]);
    let ys = q.iter().map(|p| p[1]);
    let x0 = xs.clone().fold(f64::INFINITY, f64::min).floor().max(0.0) as usize;
    let x1 = (xs.fold(f64::NEG_INFINITY, f64::max).ceil().max(0.0) as usize).min(w.saturating_sub(1));
    let y0 = ys.clone().fold(f64::INFINITY, f64::min).floor().max(0.0) as usize;
    let y1 = (ys.fold(f64::NEG_INFINITY, f64::max).ceil().max(0.0) as usize).min(h.saturating_sub(1));
    let (mut count, mut sum, mut sat) = (0usize, 0.0, 0usize);
    if x0 <= x1 && y0 <= y1 {
        // A coarse grid for big regions: a few thousand pixels tell the statistics.
        let stride = (((x1 - x0 + 1) * (y1 - y0 + 1)) as f64 / 4000.0).sqrt().floor().max(1.0) as usize;
        for y in (y0..=y1).step_by(stride) {
            for x in (x0..=x1).step_by(stride) {
                if !inside(q, [x as f64, y as f64]) {
                    continue;
                }
                let v = view.at(x, y);
                count += 1;
                sum += v;
                if v >= SATURATED_GREY {
                    sat += 1;
                }
            }
        }
    }
    Region {
        count,
        mean: if count > 0 { sum / count as f64 } else { 0.0 },
        saturated: if count > 0 { sat as f64 / count as f64 } else { 0.0 },
    }
}

/// True when `p` is inside the convex quadrilateral `q` (either winding).
fn inside(q: &[[f64; 2]; 4], p: [f64; 2]) -> bool {
    let side = |a: [f64; 2], b: [f64; 2]| (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    let s: Vec<f64> = (0..4).map(|i| side(q[i], q[(i + 1) % 4])).collect();
    s.iter().all(|&v| v >= 0.0) || s.iter().all(|&v| v <= 0.0)
}

/// `q` grown (`f` > 1) or shrunk about its centre.
fn scaled(q: &[[f64; 2]; 4], f: f64) -> [[f64; 2]; 4] {
    let c = [(q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4.0, (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4.0];
    q.map(|p| [c[0] + (p[0] - c[0]) * f, c[1] + (p[1] - c[1]) * f])
}

fn quad_centre(q: &[[f64; 2]; 4]) -> [f64; 2] {
    [(q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4.0, (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4.0]
}

fn quad_side(q: &[[f64; 2]; 4]) -> f64 {
    (0..4).map(|i| (q[(i + 1) % 4][0] - q[i][0]).hypot(q[(i + 1) % 4][1] - q[i][1])).sum::<f64>() / 4.0
}

/// A table fiducial found in the photo.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FoundFiducial {
    /// Its id.
    pub id: u32,
    /// Its corners, px (OpenCV order).
    pub corners: [[f64; 2]; 4],
    /// Its mean side, px.
    pub side_px: f64,
    /// The blur of its edges ([`edge_blur`]), px.
    pub blur_px: Option<f64>,
}

/// A table fiducial of the profile that was not found, with where it should be and why
/// it was not found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MissingFiducial {
    /// Its id.
    pub id: u32,
    /// Where its corners should be, px (OpenCV order), placed from the fiducials
    /// found; `None` when none was found.
    pub expected_px: Option<[[f64; 2]; 4]>,
    /// Why it was not found, measured there.
    pub reasons: Vec<Why>,
}

/// Why a table fiducial was not found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum Why {
    /// No fiducial was found to place it from.
    NoReference,
    /// Its place lies outside the photo.
    OutsidePhoto {
        /// How far past the photo's edge its centre is, px.
        beyond_px: f64,
        /// Which edge: `left`, `right`, `top` or `bottom`.
        edge: String,
    },
    /// Part of it lies outside the photo.
    CutOff {
        /// Which edge cuts it.
        edge: String,
    },
    /// It would be smaller than the scanner reads.
    TooSmall {
        /// Its side there, px.
        side_px: f64,
        /// The fewest px that are read reliably.
        needed_px: f64,
    },
    /// Another marker lies where it should be.
    OtherMarker {
        /// The id read there.
        id: u32,
        /// Its dictionary.
        dictionary: String,
    },
    /// Its id was read more than once: a scan cannot tell which is the fiducial.
    SeenTwice {
        /// How many times.
        count: usize,
    },
    /// Most of its place is saturated.
    Overexposed {
        /// The fraction of saturated pixels there.
        fraction: f64,
    },
    /// Its place is too dark to show a marker.
    TooDark {
        /// The mean grey level there, 0-255.
        grey: f64,
    },
    /// Its edges are too blurred to read its cells.
    Blurred {
        /// The edge spread there, px.
        sigma_px: f64,
        /// Its cell's side, px.
        cell_px: f64,
    },
    /// A dark square is there, but no code could be read.
    Unread,
    /// Nothing like a marker is there.
    NothingThere,
}

impl Why {
    /// In words, for `dictionary` (the fiducials').
    #[must_use]
    pub fn describe(&self, dictionary: Dictionary) -> String {
        match self {
            Why::NoReference => {
                "no table fiducial was found to place it from: is the table in the photo, and are the fiducials printed from this profile?".to_string()
            }
            Why::OutsidePhoto { beyond_px, edge } => format!(
                "outside the photo ({beyond_px:.0} px past its {edge} edge): step back or turn the camera so the whole table is in the photo"
            ),
            Why::CutOff { edge } => {
                format!("cut off by the photo's {edge} edge: step back or turn the camera so the whole table is in the photo")
            }
            Why::TooSmall { side_px, needed_px } => format!(
                "too small in pixels: {side_px:.1} px across, at least {needed_px:.0} are needed (take the photo closer, or with more megapixels)"
            ),
            Why::OtherMarker { id, dictionary: d } => format!(
                "a marker is there, but it reads as {d} id {id}: print this fiducial again from the profile (`vedette sheet`), or correct its id in the profile"
            ),
            Why::SeenTwice { count } => format!(
                "its id was read {count} times in the photo: remove the stray copy (a second print of it lies on the table or in view)"
            ),
            Why::Overexposed { fraction } => format!(
                "overexposed: {:.0}% of its pixels are white (glare from a lamp or window, or too much light): move the light or tilt the fiducial's sheet",
                fraction * 100.0
            ),
            Why::TooDark { grey } => format!("too dark: its paper is at grey {grey:.0} of 255; light the table evenly"),
            Why::Blurred { sigma_px, cell_px } => format!(
                "blurred: its edges are spread over {sigma_px:.1} px and its cells are {cell_px:.1} px: focus on the table and hold the camera still"
            ),
            Why::Unread => format!(
                "a dark square is there, but no code could be read: a damaged, folded or shiny print, part of it covered, or a marker of another dictionary than {dictionary}"
            ),
            Why::NothingThere => {
                "nothing like a marker is there: it is covered, not laid on the table, or laid elsewhere than the profile says".to_string()
            }
        }
    }
}

/// Why a photo's table fiducials were or were not found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FiducialDiagnosis {
    /// Photo width, px.
    pub image_width: u32,
    /// Photo height, px.
    pub image_height: u32,
    /// The fiducials' dictionary.
    pub dictionary: String,
    /// The fiducials found (each once).
    pub found: Vec<FoundFiducial>,
    /// The profile's fiducials not found (or found more than once).
    pub missing: Vec<MissingFiducial>,
    /// How the missing ones were placed: `homography` (two fiducials or more found),
    /// `affine` (one: rough) or `none`.
    pub placed_by: String,
    /// The blur at the fiducials found, px (median).
    pub blur_px: Option<f64>,
    /// Markers seen that are not table fiducials (tags, stray prints).
    pub other_markers: usize,
}

/// The reference points of the fiducials found exactly once: table mm to px.
fn references(profile: &Profile, found: &[DetectedMarker]) -> Vec<(Vec2, [f64; 2])> {
    let mut refs = Vec::new();
    for f in &profile.fiducials.markers {
        let hits: Vec<&DetectedMarker> = found.iter().filter(|m| m.id == f.id).collect();
        if let [hit] = hits.as_slice() {
            for (t, p) in f.corners(profile.fiducials.size_mm).iter().zip(hit.corners) {
                refs.push((*t, p));
            }
        }
    }
    refs
}

/// Table mm to photo px, fitted to reference points.
enum Placement {
    Homography([[f64; 3]; 3]),
    Affine([[f64; 3]; 2]),
}

impl Placement {
    fn fit(refs: &[(Vec2, [f64; 2])]) -> Result<Option<Placement>, VisionError> {
        // Two markers' eight corners fix the plane's perspective well (the battle
        // render: fiducials 1 and 2 placed within 4 px from 0 and 3 with 0.1 px of
        // corner noise); one marker's four fix only its scale and turn.
        if refs.len() >= 8 {
            let src: Vector<Point2d> = refs.iter().map(|(t, _)| Point2d::new(t.x, t.y)).collect();
            let dst: Vector<Point2d> = refs.iter().map(|(_, p)| Point2d::new(p[0], p[1])).collect();
            let mut mask = Mat::default();
            let h = opencv::calib3d::find_homography(&src, &dst, &mut mask, 0, 3.0)?;
            if h.rows() == 3 && h.cols() == 3 {
                let mut m = [[0.0; 3]; 3];
                for (r, row) in m.iter_mut().enumerate() {
                    for (c, v) in row.iter_mut().enumerate() {
                        *v = *h.at_2d::<f64>(r as i32, c as i32)?;
                    }
                }
                return Ok(Some(Placement::Homography(m)));
            }
        }
        if refs.len() < 3 {
            return Ok(None);
        }
        // Least squares: u = a x + b y + c, v = d x + e y + f, about the points' mean.
        let n = refs.len() as f64;
        let mx = refs.iter().map(|(t, _)| t.x).sum::<f64>() / n;
        let my = refs.iter().map(|(t, _)| t.y).sum::<f64>() / n;
        let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
        let mut rhs = [[0.0; 2]; 2];
        let mut mean_px = [0.0; 2];
        for (t, p) in refs {
            mean_px[0] += p[0] / n;
            mean_px[1] += p[1] / n;
            let (x, y) = (t.x - mx, t.y - my);
            sxx += x * x;
            sxy += x * y;
            syy += y * y;
        }
        for (t, p) in refs {
            let (x, y) = (t.x - mx, t.y - my);
            for k in 0..2 {
                rhs[k][0] += x * (p[k] - mean_px[k]);
                rhs[k][1] += y * (p[k] - mean_px[k]);
            }
        }
        let det = sxx * syy - sxy * sxy;
        if det.abs() < 1e-9 {
            return Ok(None);
        }
        let mut m = [[0.0; 3]; 2];
        for k in 0..2 {
            let a = (rhs[k][0] * syy - rhs[k][1] * sxy) / det;
            let b = (rhs[k][1] * sxx - rhs[k][0] * sxy) / det;
            m[k] = [a, b, mean_px[k] - a * mx - b * my];
        }
        Ok(Some(Placement::Affine(m)))
    }

    fn apply(&self, p: Vec2) -> [f64; 2] {
        match self {
            Placement::Homography(h) => {
                let w = h[2][0] * p.x + h[2][1] * p.y + h[2][2];
                [(h[0][0] * p.x + h[0][1] * p.y + h[0][2]) / w, (h[1][0] * p.x + h[1][1] * p.y + h[1][2]) / w]
            }
            Placement::Affine(m) => {
                [m[0][0] * p.x + m[0][1] * p.y + m[0][2], m[1][0] * p.x + m[1][1] * p.y + m[1][2]]
            }
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Placement::Homography(_) => "homography",
            Placement::Affine(_) => "affine",
        }
    }
}

/// Says why each of the profile's table fiducials was or was not found in `photo`:
/// `found` are the markers of the fiducials' dictionary with the profile's ids that a
/// scan found (each id as often as it was seen), `others` every other marker seen
/// (any dictionary), for a marker lying where a fiducial should be.
pub fn diagnose_fiducials(
    photo: &Photo,
    profile: &Profile,
    found: &[DetectedMarker],
    others: &[(Dictionary, DetectedMarker)],
) -> Result<FiducialDiagnosis, VisionError> {
    let (w, h) = photo.size()?;
    let view = GrayView::new(&photo.gray)?;
    let dict = profile.fiducials.dictionary;
    let bits = dict.bits();
    let refs = references(profile, found);
    let placement = Placement::fit(&refs)?;
    // Three markers place the others to a pixel or two: close enough to measure blur.
    let precise = refs.len() >= 12;
    let mut found_once = Vec::new();
    let mut missing = Vec::new();
    for f in &profile.fiducials.markers {
        let hits: Vec<&DetectedMarker> = found.iter().filter(|m| m.id == f.id).collect();
        if let [hit] = hits.as_slice() {
            found_once.push(FoundFiducial {
                id: f.id,
                corners: hit.corners,
                side_px: hit.side_px(),
                blur_px: edge_blur_view(&view, &hit.corners, bits).map(|e| e.sigma_px),
            });
            continue;
        }
        let expected = placement.as_ref().map(|p| {
            let c = f.corners(profile.fiducials.size_mm);
            [p.apply(c[0]), p.apply(c[1]), p.apply(c[2]), p.apply(c[3])]
        });
        let reasons = if hits.len() > 1 {
            vec![Why::SeenTwice { count: hits.len() }]
        } else {
            match &expected {
                None => vec![Why::NoReference],
                Some(q) => why_missing(&view, (w, h), q, dict, others, precise),
            }
        };
        missing.push(MissingFiducial { id: f.id, expected_px: expected, reasons });
    }
    let mut blurs: Vec<f64> = found_once.iter().filter_map(|f| f.blur_px).collect();
    blurs.sort_by(f64::total_cmp);
    Ok(FiducialDiagnosis {
        image_width: w,
        image_height: h,
        dictionary: dict.to_string(),
        placed_by: placement.as_ref().map_or("none", Placement::name).to_string(),
        blur_px: blurs.get(blurs.len() / 2).copied(),
        found: found_once,
        missing,
        other_markers: others.len(),
    })
}

/// Every marker in the photo that is not one of `fiducials` (the table fiducials
/// found): markers of the fiducials' dictionary with other ids, and the base tags (of
/// their own dictionary when it is another).
pub fn other_markers(
    photo: &Photo,
    profile: &Profile,
    fiducials: &[DetectedMarker],
) -> Result<Vec<(Dictionary, DetectedMarker)>, VisionError> {
    let mut dicts = vec![profile.fiducials.dictionary];
    if !profile.tags.dictionary.shares_codes_with(profile.fiducials.dictionary) {
        dicts.push(profile.tags.dictionary);
    }
    let mut out = Vec::new();
    for d in dicts {
        for m in
            crate::fiducials::detect_markers(&photo.gray, d, &crate::fiducials::DetectorSettings::default())?
        {
            let is_fiducial = fiducials.iter().any(|f| {
                f.id == m.id
                    && (f.centre()[0] - m.centre()[0]).hypot(f.centre()[1] - m.centre()[1]) < f.side_px()
            });
            if !is_fiducial {
                out.push((d, m));
            }
        }
    }
    Ok(out)
}

/// The diagnosis of the missing fiducials as the lines a refused scan prints, each
/// starting with a line break (`VisionError::TooFewFiducials`).
pub(crate) fn missing_fiducials_text(
    photo: &Photo,
    profile: &Profile,
    fiducials: &[DetectedMarker],
) -> Result<String, VisionError> {
    let others = other_markers(photo, profile, fiducials)?;
    let d = diagnose_fiducials(photo, profile, fiducials, &others)?;
    Ok(d.lines(profile.fiducials.dictionary).iter().map(|l| format!("\n  - {l}")).collect())
}

/// Why a fiducial expected at `q` (px) was not found there.
fn why_missing(
    view: &GrayView<'_>,
    (w, h): (u32, u32),
    q: &[[f64; 2]; 4],
    dict: Dictionary,
    others: &[(Dictionary, DetectedMarker)],
    precise: bool,
) -> Vec<Why> {
    let (wf, hf) = (f64::from(w) - 1.0, f64::from(h) - 1.0);
    let edge_of = |p: [f64; 2]| -> (f64, &'static str) {
        [(-p[0], "left"), (p[0] - wf, "right"), (-p[1], "top"), (p[1] - hf, "bottom")]
            .into_iter()
            .fold((f64::NEG_INFINITY, "left"), |best, (d, e)| if d > best.0 { (d, e) } else { best })
    };
    let centre = quad_centre(q);
    let (beyond, edge) = edge_of(centre);
    if beyond > 0.0 {
        return vec![Why::OutsidePhoto { beyond_px: beyond, edge: edge.to_string() }];
    }
    let mut reasons = Vec::new();
    if let Some((_, e)) =
        q.iter().map(|&p| edge_of(p)).filter(|(d, _)| *d > 0.0).max_by(|a, b| a.0.total_cmp(&b.0))
    {
        reasons.push(Why::CutOff { edge: e.to_string() });
    }
    let side = quad_side(q);
    let needed = min_marker_px(dict);
    if side < needed {
        reasons.push(Why::TooSmall { side_px: side, needed_px: needed });
    }
    let near = scaled(q, 1.6);
    if let Some((d, m)) = others.iter().find(|(_, m)| inside(&near, m.centre())) {
        reasons.push(Why::OtherMarker { id: m.id, dictionary: d.to_string() });
        return reasons;
    }
    let cell = side / f64::from(dict.bits() + 2);
    let whole = region(view, &scaled(q, 1.0 + 2.0 * 0.9 / f64::from(dict.bits() + 2)));
    if whole.count > 0 && whole.saturated > OVEREXPOSED_FRACTION {
        reasons.push(Why::Overexposed { fraction: whole.saturated });
    }
    // The border cell just inside the edge and the quiet zone just outside it.
    let ring_in =
        ring(view, q, 1.0 - 1.6 / f64::from(dict.bits() + 2), 1.0 - 0.4 / f64::from(dict.bits() + 2));
    let ring_out =
        ring(view, q, 1.0 + 0.4 / f64::from(dict.bits() + 2), 1.0 + 1.6 / f64::from(dict.bits() + 2));
    let dark_square = match (ring_in, ring_out) {
        (Some(a), Some(b)) => b - a >= 40.0,
        _ => false,
    };
    if whole.count > 0 && whole.mean < 40.0 && !dark_square {
        reasons.push(Why::TooDark { grey: whole.mean });
    }
    if dark_square
        && precise
        && let Some(e) = edge_blur_view(view, q, dict.bits())
        && e.sigma_px > MAX_BLUR_CELLS * cell
    {
        reasons.push(Why::Blurred { sigma_px: e.sigma_px, cell_px: cell });
    }
    if reasons.is_empty() {
        reasons.push(if dark_square { Why::Unread } else { Why::NothingThere });
    }
    reasons
}

/// The mean grey level between the quadrilaterals `q` scaled by `from` and by `to`.
fn ring(view: &GrayView<'_>, q: &[[f64; 2]; 4], from: f64, to: f64) -> Option<f64> {
    let outer = region(view, &scaled(q, to));
    let inner = region(view, &scaled(q, from));
    let n = outer.count.checked_sub(inner.count).filter(|n| *n > 0)?;
    Some((outer.mean * outer.count as f64 - inner.mean * inner.count as f64) / n as f64)
}

impl FiducialDiagnosis {
    /// True when every table fiducial was found exactly once.
    #[must_use]
    pub fn complete(&self) -> bool {
        self.missing.is_empty()
    }

    /// The diagnosis in words, one line each (without indentation): what was found,
    /// then each missing fiducial with where it should be and why.
    #[must_use]
    pub fn lines(&self, dictionary: Dictionary) -> Vec<String> {
        let mut out = Vec::new();
        let total = self.found.len() + self.missing.len();
        let ids = |v: &mut dyn Iterator<Item = u32>| v.map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
        if self.found.is_empty() {
            out.push(format!(
                "none of the profile's {total} table fiducials ({}) was found",
                self.dictionary
            ));
        } else {
            let sizes: Vec<String> =
                self.found.iter().map(|f| format!("{} ({:.0} px)", f.id, f.side_px)).collect();
            out.push(format!(
                "found {} of {total} table fiducials: {}{}",
                self.found.len(),
                sizes.join(", "),
                self.blur_px.map(|b| format!("; edge blur {b:.1} px")).unwrap_or_default()
            ));
        }
        if !self.missing.is_empty() {
            out.push(format!(
                "NOT found: {}{}",
                ids(&mut self.missing.iter().map(|m| m.id)),
                match self.placed_by.as_str() {
                    "affine" => " (placed roughly from the one fiducial found)",
                    _ => "",
                }
            ));
        }
        for m in &self.missing {
            let at = m
                .expected_px
                .map(|q| {
                    let c = quad_centre(&q);
                    format!(" should be near ({:.0}, {:.0}) px", c[0], c[1])
                })
                .unwrap_or_default();
            let why: Vec<String> = m.reasons.iter().map(|r| r.describe(dictionary)).collect();
            out.push(format!("fiducial {}{at}: {}", m.id, why.join("; ")));
        }
        out
    }
}

/// Draws the diagnosis over the photo: the table fiducials found (green, with their
/// id), every other marker (blue, its id), and each missing fiducial where it should be
/// (red, dashed, with its id and first reason; an arrow at the photo's edge toward one
/// outside it), with a line of summary at the top.
pub fn draw_diagnosis(
    photo: &Photo,
    diagnosis: &FiducialDiagnosis,
    others: &[(Dictionary, DetectedMarker)],
    dictionary: Dictionary,
) -> Result<Mat, VisionError> {
    let mut img = photo.color.try_clone()?;
    let (w, h) = photo.size()?;
    let thick = ((f64::from(w.max(h)) / 1500.0).round() as i32).max(1);
    let font = (f64::from(w.max(h)) / 2500.0).max(0.4);
    let green = Scalar::new(0.0, 200.0, 0.0, 0.0);
    let blue = Scalar::new(255.0, 120.0, 0.0, 0.0);
    let red = Scalar::new(0.0, 0.0, 255.0, 0.0);
    let pt = |p: [f64; 2]| Point::new(p[0].round() as i32, p[1].round() as i32);
    let poly = |img: &mut Mat, q: &[[f64; 2]; 4], colour: Scalar, t: i32| -> Result<(), VisionError> {
        let v: Vector<Point> = q.iter().map(|&p| pt(p)).collect();
        let vv: Vector<Vector<Point>> = vec![v].into();
        opencv::imgproc::polylines(img, &vv, true, colour, t, opencv::imgproc::LINE_AA, 0)?;
        Ok(())
    };
    for (_, m) in others {
        poly(&mut img, &m.corners, blue, thick)?;
        text(&mut img, &m.id.to_string(), m.corners[0], font * 0.6, blue, thick)?;
    }
    for f in &diagnosis.found {
        poly(&mut img, &f.corners, green, thick * 2)?;
        text(&mut img, &format!("F{}", f.id), f.corners[0], font * 1.5, green, thick * 2)?;
    }
    for m in &diagnosis.missing {
        let Some(q) = m.expected_px else { continue };
        let reason = m.reasons.first().map(short).unwrap_or_default();
        let label = format!("F{} missing: {reason}", m.id);
        let c = quad_centre(&q);
        let inside_photo = c[0] >= 0.0 && c[1] >= 0.0 && c[0] < f64::from(w) && c[1] < f64::from(h);
        if inside_photo {
            dashed(&mut img, &q, red, thick * 2)?;
        } else {
            // An arrow from inside the photo toward where it should be.
            let m = 0.06 * f64::from(w.min(h));
            let tip =
                [c[0].clamp(m * 0.3, f64::from(w) - m * 0.3), c[1].clamp(m * 0.3, f64::from(h) - m * 0.3)];
            let mid = [f64::from(w) / 2.0, f64::from(h) / 2.0];
            let d = ((tip[0] - mid[0]).powi(2) + (tip[1] - mid[1]).powi(2)).sqrt().max(1.0);
            let tail = [tip[0] - (tip[0] - mid[0]) / d * m * 2.0, tip[1] - (tip[1] - mid[1]) / d * m * 2.0];
            opencv::imgproc::arrowed_line(
                &mut img,
                pt(tail),
                pt(tip),
                red,
                thick * 3,
                opencv::imgproc::LINE_AA,
                0,
                0.3,
            )?;
        }
        let at = [c[0].clamp(10.0, f64::from(w) * 0.55), c[1].clamp(40.0 * font, f64::from(h) - 20.0 * font)];
        text(&mut img, &label, at, font * 1.2, red, thick * 2)?;
    }
    let mut banner = format!(
        "{} of {} table fiducials found",
        diagnosis.found.len(),
        diagnosis.found.len() + diagnosis.missing.len()
    );
    if diagnosis.found.is_empty() && diagnosis.missing.iter().all(|m| m.expected_px.is_none()) {
        banner.push_str(&format!(": none of {dictionary} in this photo"));
    }
    text(
        &mut img,
        &banner,
        [20.0, 50.0 * font],
        font * 1.5,
        if diagnosis.complete() { green } else { red },
        thick * 2,
    )?;
    Ok(img)
}

fn short(why: &Why) -> String {
    match why {
        Why::NoReference => "no reference".into(),
        Why::OutsidePhoto { edge, .. } => format!("outside the photo ({edge})"),
        Why::CutOff { edge } => format!("cut off ({edge} edge)"),
        Why::TooSmall { side_px, .. } => format!("too small ({side_px:.0} px)"),
        Why::OtherMarker { id, .. } => format!("another marker (id {id})"),
        Why::SeenTwice { count } => format!("seen {count} times"),
        Why::Overexposed { .. } => "overexposed".into(),
        Why::TooDark { .. } => "too dark".into(),
        Why::Blurred { sigma_px, .. } => format!("blurred ({sigma_px:.1} px)"),
        Why::Unread => "unreadable".into(),
        Why::NothingThere => "nothing there".into(),
    }
}

/// Text with a dark outline, readable on any background.
fn text(
    img: &mut Mat,
    s: &str,
    at: [f64; 2],
    scale: f64,
    colour: Scalar,
    thick: i32,
) -> Result<(), VisionError> {
    let p = Point::new(at[0].round() as i32, at[1].round() as i32);
    let f = opencv::imgproc::FONT_HERSHEY_SIMPLEX;
    opencv::imgproc::put_text(
        img,
        s,
        p,
        f,
        scale,
        Scalar::all(0.0),
        thick * 3,
        opencv::imgproc::LINE_AA,
        false,
    )?;
    opencv::imgproc::put_text(img, s, p, f, scale, colour, thick, opencv::imgproc::LINE_AA, false)?;
    Ok(())
}

/// A dashed outline of `q`.
fn dashed(img: &mut Mat, q: &[[f64; 2]; 4], colour: Scalar, thick: i32) -> Result<(), VisionError> {
    for k in 0..4 {
        let (a, b) = (q[k], q[(k + 1) % 4]);
        let len = (b[0] - a[0]).hypot(b[1] - a[1]);
        let dashes = ((len / 12.0).ceil() as usize).max(2);
        for i in (0..dashes).step_by(2) {
            let f0 = i as f64 / dashes as f64;
            let f1 = ((i + 1) as f64 / dashes as f64).min(1.0);
            let p0 = Point::new(
                (a[0] + (b[0] - a[0]) * f0).round() as i32,
                (a[1] + (b[1] - a[1]) * f0).round() as i32,
            );
            let p1 = Point::new(
                (a[0] + (b[0] - a[0]) * f1).round() as i32,
                (a[1] + (b[1] - a[1]) * f1).round() as i32,
            );
            opencv::imgproc::line(img, p0, p1, colour, thick, opencv::imgproc::LINE_AA, 0)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{CV_8UC1, Size};

    /// A black square of `side` px on white paper, blurred by a Gaussian of `sigma` px.
    fn square(side: i32, sigma: f64) -> (Mat, [[f64; 2]; 4]) {
        let n = side * 3;
        let mut img = Mat::new_rows_cols_with_default(n, n, CV_8UC1, Scalar::all(235.0)).unwrap();
        opencv::imgproc::rectangle(
            &mut img,
            opencv::core::Rect::new(side, side, side, side),
            Scalar::all(20.0),
            opencv::imgproc::FILLED,
            opencv::imgproc::LINE_8,
            0,
        )
        .unwrap();
        let mut out = Mat::default();
        if sigma > 0.0 {
            opencv::imgproc::gaussian_blur_def(&img, &mut out, Size::new(0, 0), sigma).unwrap();
        } else {
            out = img;
        }
        // The square covers pixels side..2 side-1: its edges are at side - 0.5 and
        // 2 side - 0.5 with pixel centres at integers.
        let (a, b) = (f64::from(side) - 0.5, f64::from(2 * side) - 0.5);
        (out, [[a, a], [b, a], [b, b], [a, b]])
    }

    #[test]
    fn edge_blur_measures_a_gaussian_blur() {
        for sigma in [1.0, 2.0, 3.0] {
            let (img, q) = square(120, sigma);
            let e = edge_blur(&img, &q, 4).unwrap().unwrap();
            // Pixel sampling adds about a third of a pixel in quadrature.
            let want = (sigma * sigma + 0.3 * 0.3_f64).sqrt();
            assert!((e.sigma_px - want).abs() < 0.12 * want, "sigma {sigma}: measured {}", e.sigma_px);
            assert!((e.contrast - 215.0).abs() < 10.0, "{}", e.contrast);
        }
        // A sharp edge measures under half a pixel.
        let (img, q) = square(120, 0.0);
        assert!(edge_blur(&img, &q, 4).unwrap().unwrap().sigma_px < 0.5);
        // No edge: nothing measured.
        let flat = Mat::new_rows_cols_with_default(300, 300, CV_8UC1, Scalar::all(128.0)).unwrap();
        assert!(edge_blur(&flat, &q, 4).unwrap().is_none());
    }

    #[test]
    fn blur_is_refused_above_half_a_cell() {
        assert!(check_blur(1.9, 3.8).is_ok());
        let e = check_blur(2.0, 3.8).unwrap_err().to_string();
        assert!(
            e.contains("blurred")
                && e.contains("2.00 px")
                && e.contains("beyond 1.90 px")
                && e.contains("3.8 px"),
            "{e}"
        );
    }

    #[test]
    fn marker_sizes_follow_the_dictionary() {
        assert_eq!(min_marker_px(Dictionary::DEFAULT_TAGS), 12.0);
        assert_eq!(marginal_marker_px(Dictionary::DEFAULT_TAGS), 16.0);
        assert_eq!(min_marker_px(Dictionary::BIG_BATTLE_TAGS), 14.0);
    }

    #[test]
    fn placements_extrapolate_from_the_fiducials_found() {
        // A pure scale and shift: an affine fit from one marker's corners is exact.
        let refs: Vec<(Vec2, [f64; 2])> = [(0.0, 0.0), (60.0, 0.0), (60.0, 60.0), (0.0, 60.0)]
            .iter()
            .map(|&(x, y)| (Vec2::new(x, y), [100.0 + 2.0 * x, 50.0 + 2.0 * y]))
            .collect();
        let p = Placement::fit(&refs).unwrap().unwrap();
        assert_eq!(p.name(), "affine");
        let q = p.apply(Vec2::new(1000.0, 500.0));
        assert!((q[0] - 2100.0).abs() < 1e-6 && (q[1] - 1050.0).abs() < 1e-6, "{q:?}");
        assert!(Placement::fit(&refs[..2]).unwrap().is_none());
    }
}
