//! Terrain from the photo (issue 19): the profile's terrain classes (`[[terrain]]`:
//! felt or painted templates of a colour of their own) segmented on the photo
//! rectified to the table plane and colour-corrected against the fiducials, with
//! everything standing on the table masked out and filled from around it (a wood under
//! a battalion is still one wood), outlines simplified to [`OUTLINE_TOLERANCE_MM`] and
//! closed. Linear classes (walls, hedges, streams, roads) become polylines.

use crate::error::VisionError;
use crate::occupancy;
use crate::palette::ColourCorrection;
use crate::photo::Photo;
use crate::pose::CameraModel;
use crate::profile::Profile;
use crate::rectify::Rectified;
use crate::tags::TagPose;
use crate::terrain_edges::EdgeSettings;
use crate::terrain_labels::{LabelSettings, classify};
use opencv::core::{Mat, Point, Rect, Scalar, Vec4i, Vector};
use opencv::prelude::*;
use serde::{Deserialize, Serialize};
use vedette_geometry::{Polygon, Table, TerrainFeature, TerrainKind, Vec2};

/// One terrain class of the club's table (a `[[terrain]]` entry of the profile).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainClass {
    /// The kind, as in table files (`medium-forest`, `hill`, `stone-wall`, ...).
    pub kind: TerrainKind,
    /// The template's colour, sRGB 0-255, as it looks under even white light.
    pub colour: [u8; 3],
    /// For hills, the level of the top in half-level steps; for other kinds the ground
    /// level they stand on (default 0).
    #[serde(default)]
    pub level: f64,
    /// Largest distance of a (smoothed) pixel's colour from `colour`, sRGB units
    /// (Euclidean, after colour correction; default 45).
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
    /// The template's thickness, mm (default 2, felt).
    #[serde(default = "default_thickness")]
    pub thickness_mm: f64,
    /// Drawn as a line (walls, hedges, streams, roads) rather than an area; default:
    /// what the kind is in table files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linear: Option<bool>,
}

fn default_tolerance() -> f64 {
    45.0
}
fn default_thickness() -> f64 {
    2.0
}

impl TerrainClass {
    /// True when the class is segmented as a line.
    #[must_use]
    pub fn is_linear(&self) -> bool {
        self.linear.unwrap_or_else(|| self.kind.is_linear())
    }
}

/// Checks the profile's terrain classes; errors name `origin` and the entry
/// (`terrain[2].level`).
pub fn validate_classes(classes: &[TerrainClass], origin: &str) -> Result<(), VisionError> {
    let bad = |i: usize, field: &str, reason: String| VisionError::InvalidField {
        path: origin.to_string(),
        field: format!("terrain[{i}].{field}"),
        reason,
    };
    for (i, c) in classes.iter().enumerate() {
        if !(c.tolerance.is_finite() && c.tolerance > 0.0 && c.tolerance < 255.0) {
            return Err(bad(
                i,
                "tolerance",
                format!("must be a colour distance between 0 and 255, got {}", c.tolerance),
            ));
        }
        if !(c.thickness_mm.is_finite() && (0.0..=100.0).contains(&c.thickness_mm)) {
            return Err(bad(i, "thickness_mm", format!("must be 0 to 100 mm, got {}", c.thickness_mm)));
        }
        if !(c.level.is_finite() && c.level >= 0.0 && (c.level * 2.0).fract() == 0.0) {
            return Err(bad(
                i,
                "level",
                format!("must be 0 or more in half-level steps (0, 0.5, 1, ...), got {}", c.level),
            ));
        }
        if c.kind == TerrainKind::Hill && c.level <= 0.0 {
            return Err(bad(i, "level", "a hill needs the level of its top (0.5, 1, ...)".to_string()));
        }
        if c.linear == Some(true) && !c.kind.is_linear() {
            return Err(bad(
                i,
                "linear",
                format!("a {} is an area in table files, it cannot be linear", c.kind),
            ));
        }
        if c.linear == Some(false) && c.kind.is_linear() {
            return Err(bad(
                i,
                "linear",
                format!("a {} is a line in table files, it cannot be an area", c.kind),
            ));
        }
        for (j, o) in classes.iter().enumerate().take(i) {
            let d = colour_distance(c.colour.map(f64::from), o.colour.map(f64::from));
            if d < MIN_COLOUR_SEPARATION {
                return Err(bad(
                    i,
                    "colour",
                    format!(
                        "{:?} is within {d:.0} of terrain[{j}] ({}, {:?}): the scan could not tell them apart",
                        c.colour, o.kind, o.colour
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Two colours the scan tells apart are at least this far apart, sRGB units (two
/// terrain classes, or a class and a `ground` colour).
pub const MIN_COLOUR_SEPARATION: f64 = 10.0;

/// Checks the profile's terrain classes against its `ground` colours (the bare table):
/// a class within [`MIN_COLOUR_SEPARATION`] of one is refused, the error naming
/// `origin`, the class and the ground colour.
pub fn validate_against_ground(
    classes: &[TerrainClass],
    ground: &[[u8; 3]],
    origin: &str,
) -> Result<(), VisionError> {
    match like_the_mat(classes, ground) {
        Some((i, j, d)) => Err(VisionError::InvalidField {
            path: origin.to_string(),
            field: format!("terrain[{i}].colour"),
            reason: format!(
                "{} {:?} is within {d:.0} of the bare table's colour ground[{j}] {:?}: the scan could not tell \
                 the template from the mat; measure both again on a photo of the table (docs/calibration.md) \
                 or leave the class out",
                classes[i].kind, classes[i].colour, ground[j]
            ),
        }),
        None => Ok(()),
    }
}

/// The first terrain class (its index) within [`MIN_COLOUR_SEPARATION`] of a `ground`
/// colour (its index), and how far apart they are.
fn like_the_mat(classes: &[TerrainClass], ground: &[[u8; 3]]) -> Option<(usize, usize, f64)> {
    classes.iter().enumerate().find_map(|(i, c)| {
        ground.iter().enumerate().find_map(|(j, g)| {
            let d = colour_distance(c.colour.map(f64::from), g.map(f64::from));
            (d < MIN_COLOUR_SEPARATION).then_some((i, j, d))
        })
    })
}

/// No piece of one terrain class may cover more than this share of the table: a class
/// found so is the mat, its colour the mat's under the photo's light, and the scan is
/// refused ([`VisionError::TerrainCoversTable`]). The largest templates of a 6'x4'
/// table (a hill, a big wood) cover a tenth of it.
pub const MAX_TABLE_SHARE: f64 = 0.5;

/// Outlines are simplified to within this distance of the segmented boundary, mm.
pub const OUTLINE_TOLERANCE_MM: f64 = 1.5;
/// Holes in a template up to this size that are not the bare table are what stands on
/// it and are filled, mm² (100 cm²: four houses of 32 x 22 mm side by side with their
/// roofs' lean and their shadows; see `fill_what_stands_on_it`).
pub const MAX_COVERED_HOLE_MM2: f64 = 10_000.0;
/// Pixels per mm of the segmentation.
const TERRAIN_PX_PER_MM: f64 = 1.0;
/// Smoothing of the colours before classifying (templates are blotchy), mm: the
/// standard deviation of a Gaussian.
const SMOOTH_MM: f64 = 3.0;
/// Smoothing of the colours where linear classes are looked for, mm.
const LINE_SMOOTH_MM: f64 = 1.0;
/// Pieces (and holes) smaller than this are dropped, mm² (15 cm²: smaller than any
/// template, larger than a base's shadow).
pub const MIN_PIECE_MM2: f64 = 1500.0;
/// The ring beside what stands on the table where shadows fall, mm.
pub(crate) const SHADOW_REACH_MM: f64 = 20.0;
/// An area piece smaller than [`SHADOW_MAX_MM2`] with more than this share of its
/// pixels in that ring is dropped.
pub(crate) const SHADOW_SHARE: f64 = 0.6;
/// Pieces at least this large are kept wherever they lie, mm² (50 cm²: the shadow
/// of a battalion's line is some 15 x 150 mm).
const SHADOW_MAX_MM2: f64 = 5000.0;
/// Parts of an area class narrower than about twice this are the blend of the
/// colours either side of an edge (see `terrain_labels::thin_parts`), mm: the
/// blend spans about two standard deviations of the smoothing each side.
const RIM_MM: f64 = 3.0;
/// Pixels within this distance of a change of label are given the label of the side
/// whose local colour is nearest theirs (see `terrain_edges`), mm: two standard
/// deviations of the smoothing, beyond which an edge's blend is under 3%.
const EDGE_BAND_MM: f64 = 2.0 * SMOOTH_MM;
/// A side is one to choose from where its pixels beyond the band lie within this
/// distance, mm: across a rim of blended colour a few mm wide and the band beyond it.
const EDGE_REACH_MM: f64 = 12.0;
/// Local colours are means over a square of this half side, mm: wide enough to
/// average a mottled template's blotches, narrow enough to follow its light.
const EDGE_WINDOW_MM: f64 = 20.0;
/// Area labels are the majority over a square of this half side, mm: blotches of a
/// mottled template smaller than it and notches narrower than it go.
const VOTE_MM: f64 = 4.0;
/// An area piece's mean colour (over the pixels nothing stands on) must be within
/// this share of its class's tolerance of the class's colour: single pixels of a
/// mottled template stray far, their mean does not (the cubes are held to the same).
const MEAN_COLOUR_SHARE: f64 = 0.5;
/// An area piece narrower than this everywhere is no template, mm (less than an
/// infantry base is deep): a road, stream or hedge of a class the profile does not
/// declare, coloured near a declared one.
const MIN_TEMPLATE_WIDTH_MM: f64 = 25.0;
/// Nor is a piece whose area is more than this many times the square of its widest
/// width: a strip that long is a road or a stream, not a template (a wood 200 mm by
/// 40 mm is 5).
const MAX_ELONGATION: f64 = 10.0;
/// A linear class is not looked for on a template of a class it cannot be told from
/// by colour (their colours' tolerances overlap), nor within this rim around it, px
/// (the template's edge is smoothed with the mat into other colours).
const TEMPLATE_RIM_PX: i32 = 3;
/// Each class's mask is worked on within the box of its pixels and this many empty
/// pixels around them (more than the opening's brush reaches).
const ROI_MARGIN_PX: i32 = 4;

fn colour_distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt()
}

/// The bare table's colours: the profile's `ground`, or where it declares none the
/// mat's colour learned from the photo (issue 36; nothing when the photo shows no one
/// colour over enough of the table). A class within [`MIN_COLOUR_SEPARATION`] of the
/// learned mat refuses the scan, as it is refused at load against a declared `ground`.
fn ground_colours(rect: &Rectified, occupied: &Mat, profile: &Profile) -> Result<Vec<[u8; 3]>, VisionError> {
    if !profile.colours.ground.is_empty() {
        return Ok(profile.colours.ground.clone());
    }
    let Some(mat) = crate::terrain_light::learn_mat(rect, occupied)? else {
        return Ok(Vec::new());
    };
    match like_the_mat(&profile.terrain, &[mat]) {
        Some((index, _, distance)) => Err(VisionError::TerrainLikeMat {
            kind: profile.terrain[index].kind.to_string(),
            index,
            colour: profile.terrain[index].colour,
            mat,
            distance,
        }),
        None => Ok(vec![mat]),
    }
}

/// Segments the profile's terrain classes.
pub fn segment(
    photo: &Photo,
    model: &CameraModel,
    correction: &ColourCorrection,
    profile: &Profile,
    table: &Table,
    tags: &[TagPose],
) -> Result<Vec<TerrainFeature>, VisionError> {
    segment_image(terrain_image(photo, model, correction, profile)?, model, profile, table, tags)
}

/// The terrain's pixel work, which needs the photo and its camera but not what stands
/// on the table: the table seen at the terrain's resolution, colour-corrected. A scan
/// does it beside the search for tags among figures.
pub(crate) fn terrain_image(
    photo: &Photo,
    model: &CameraModel,
    correction: &ColourCorrection,
    profile: &Profile,
) -> Result<Rectified, VisionError> {
    let bounds = (Vec2::ZERO, Vec2::new(profile.table.width_mm, profile.table.depth_mm));
    let mut rect = Rectified::new(&photo.color, model, 0.0, bounds, TERRAIN_PX_PER_MM)?;
    correction.apply(&mut rect, model)?;
    Ok(rect)
}

/// [`segment`] on the table's image ([`terrain_image`]).
pub(crate) fn segment_image(
    mut rect: Rectified,
    model: &CameraModel,
    profile: &Profile,
    table: &Table,
    tags: &[TagPose],
) -> Result<Vec<TerrainFeature>, VisionError> {
    let mut occupied = occupancy::occupied(&rect, model, profile, table, tags)?;
    for m in &table.markers {
        let half = m.size.unwrap_or(profile.markers.size_mm) / 2.0 + 2.0;
        let c = Vec2::new(m.x, m.y);
        let sq =
            [(-half, -half), (half, -half), (half, half), (-half, half)].map(|(x, y)| c + Vec2::new(x, y));
        occupancy::prism(&mut occupied, &rect, model, &sq, 0.0, 2.0 * half)?;
    }
    // The lamp's fall-off the fiducials cannot see, learned from the mat.
    // Linear classes are labelled on the colours as corrected: a wall's strip a few
    // pixels wide is labelled at the margin of its colour's blend with the mat's (on
    // the skirmish sample 466 px of wall, 391 once flattened, which leave no line).
    let line_image = if profile.terrain.iter().any(TerrainClass::is_linear) {
        rect.image.try_clone()?
    } else {
        Mat::default()
    };
    let ground = ground_colours(&rect, &occupied, profile)?;
    // The lamp's fall-off the fiducials cannot see, learned from the mat.
    crate::terrain_light::flatten(&mut rect, &occupied, &profile.terrain, &ground)?;
    let settings = LabelSettings {
        area_px: SMOOTH_MM * rect.px_per_mm,
        line_px: LINE_SMOOTH_MM * rect.px_per_mm,
        vote_px: (VOTE_MM * rect.px_per_mm).round() as i32,
        shadow_reach_px: (SHADOW_REACH_MM * rect.px_per_mm).round() as i32,
        shadow_max_px2: SHADOW_MAX_MM2 * rect.px_per_mm * rect.px_per_mm,
        shadow_share: SHADOW_SHARE,
        rim_px: (RIM_MM * rect.px_per_mm).round() as i32,
        edges: Some(EdgeSettings {
            band_px: (EDGE_BAND_MM * rect.px_per_mm) as f32,
            reach_px: (EDGE_REACH_MM * rect.px_per_mm).round() as i32,
            window_px: (EDGE_WINDOW_MM * rect.px_per_mm).round() as i32,
        }),
    };
    let labels = classify(&rect, &line_image, &occupied, &profile.terrain, &ground, settings)?;
    let (w, h) = rect.size()?;
    let mut out = Vec::new();
    // The templates found (255) of each area class, over the whole image: a linear
    // class is not looked for on the templates of a class it cannot be told from.
    let mut templates: Vec<Option<Mat>> = vec![None; profile.terrain.len()];
    // Areas first, then lines.
    let to_occupied = if profile.terrain.iter().any(|c| c.is_linear() || c.kind == TerrainKind::Hill) {
        crate::terrain_lines::distance_to_occupied(&occupied)?
    } else {
        Mat::default()
    };
    let mut order: Vec<usize> = (0..profile.terrain.len()).collect();
    order.sort_by_key(|&k| profile.terrain[k].is_linear());
    for k in order {
        let class = &profile.terrain[k];
        let image = if class.is_linear() { &labels.line } else { &labels.area };
        let mut whole = Mat::default();
        opencv::core::compare(image, &Scalar::all((k + 1) as f64), &mut whole, opencv::core::CMP_EQ)?;
        // The class's pixels and a margin of empty ones: what the opening and the
        // contours see of the whole mask.
        let found = opencv::imgproc::bounding_rect(&whole)?;
        if found.width == 0 || found.height == 0 {
            continue;
        }
        let (x0, y0) = ((found.x - ROI_MARGIN_PX).max(0), (found.y - ROI_MARGIN_PX).max(0));
        let x1 = (found.x + found.width + ROI_MARGIN_PX).min(w);
        let y1 = (found.y + found.height + ROI_MARGIN_PX).min(h);
        let roi = Rect::new(x0, y0, x1 - x0, y1 - y0);
        let mut mask = whole.roi(roi)?.try_clone()?;
        let seen = Seen { rect: &rect, occupied: &occupied, roi };
        let pieces: Vec<Piece> = if class.is_linear() {
            for (o, t) in profile.terrain.iter().zip(&templates) {
                if let Some(t) = t
                    && colour_distance(o.colour.map(f64::from), class.colour.map(f64::from))
                        < class.tolerance + o.tolerance
                {
                    let mut near = Mat::default();
                    let kernel = opencv::imgproc::get_structuring_element_def(
                        opencv::imgproc::MORPH_ELLIPSE,
                        opencv::core::Size::new(2 * TEMPLATE_RIM_PX + 1, 2 * TEMPLATE_RIM_PX + 1),
                    )?;
                    opencv::imgproc::dilate_def(&t.roi(roi)?, &mut near, &kernel)?;
                    mask.set_to(&Scalar::all(0.0), &near)?;
                }
            }
            let mut pieces = Vec::new();
            for path in crate::terrain_lines::centre_lines(&mask, &seen, &to_occupied)? {
                if is_of_class(&path, &seen, k, &profile.terrain)? {
                    pieces.push((Vec::new(), Vec::new(), path));
                }
            }
            pieces
        } else {
            // Specks go.
            let kernel = opencv::imgproc::get_structuring_element_def(
                opencv::imgproc::MORPH_ELLIPSE,
                opencv::core::Size::new(5, 5),
            )?;
            let mut clean = Mat::default();
            opencv::imgproc::morphology_ex_def(&mask, &mut clean, opencv::imgproc::MORPH_OPEN, &kernel)?;
            keep_templates(&mut clean, &seen, class)?;
            fill_what_stands_on_it(&mut clean, &seen, class, &ground)?;
            if class.kind == TerrainKind::Hill {
                hill_under_shade(&mut clean, &seen, &to_occupied)?;
            }
            let mut kept = crate::palette::blank_mask(h, w)?;
            clean.copy_to(&mut kept.roi_mut(roi)?)?;
            let found = areas(&clean, &rect, roi, class.kind == TerrainKind::Hill)?;
            let table_mm2 = profile.table.width_mm * profile.table.depth_mm;
            if let Some(most) =
                found.iter().map(|(o, h, _)| Polygon::new(o.clone(), h.clone()).area()).max_by(f64::total_cmp)
                && most > MAX_TABLE_SHARE * table_mm2
            {
                return Err(VisionError::TerrainCoversTable {
                    kind: class.kind.to_string(),
                    index: k,
                    colour: class.colour,
                    share_pct: 100.0 * most / table_mm2,
                });
            }
            templates[k] = Some(kept);
            found
        };
        for (outline, holes, path) in pieces {
            out.push(TerrainFeature {
                crests: Vec::new(),
                id: Some(format!(
                    "{}-{}",
                    class.kind,
                    out.iter().filter(|f: &&TerrainFeature| f.kind == class.kind).count() + 1
                )),
                kind: class.kind,
                level: class.level,
                outline,
                holes,
                path,
            });
        }
    }
    Ok(out)
}

/// What the photo shows in the part `roi` of the rectified image.
pub(crate) struct Seen<'a> {
    /// The rectified, colour-corrected table image.
    pub rect: &'a Rectified,
    /// What stands on the table (255), over the whole image.
    pub occupied: &'a Mat,
    /// The part worked on.
    pub roi: Rect,
}

/// True when the mean colour along a line (where nothing stands on it) is nearer the
/// linear class `k` than any other linear class: where a wall runs, the blend of its
/// colour with the mat's may be a road's, the wall's own colour is not.
fn is_of_class(path: &[Vec2], seen: &Seen, k: usize, classes: &[TerrainClass]) -> Result<bool, VisionError> {
    let (w, h) = seen.rect.size()?;
    let (mut sum, mut n) = ([0.0f64; 3], 0usize);
    for s in path.windows(2) {
        let steps = s[0].distance(s[1]).ceil().max(1.0) as usize;
        for i in 0..steps {
            let [x, y] = seen.rect.to_px(s[0] + (s[1] - s[0]) * (i as f64 / steps as f64));
            let (c, r) = (x.round() as i32, y.round() as i32);
            if c < 0 || r < 0 || c >= w || r >= h || *seen.occupied.at_2d::<u8>(r, c)? != 0 {
                continue;
            }
            let p = seen.rect.image.at_2d::<opencv::core::Vec3b>(r, c)?;
            sum = [sum[0] + f64::from(p[2]), sum[1] + f64::from(p[1]), sum[2] + f64::from(p[0])];
            n += 1;
        }
    }
    if n == 0 {
        return Ok(true);
    }
    let mean = sum.map(|v| v / n as f64);
    let nearest = classes
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_linear())
        .min_by(|a, b| {
            colour_distance(mean, a.1.colour.map(f64::from))
                .total_cmp(&colour_distance(mean, b.1.colour.map(f64::from)))
        })
        .map(|(j, _)| j);
    Ok(nearest == Some(k))
}

/// Where bases stand on a hill's edge they hide it and their shadows darken it to
/// the mat's colour: a hill is a lump, so within [`SHADOW_REACH_MM`] of what stands
/// on the table it is taken to reach as far as the convex hull of what the photo
/// shows of it (`mask`, the part `seen.roi` of the image; `to_occupied` as in
/// `terrain_lines::distance_to_occupied`).
fn hill_under_shade(mask: &mut Mat, seen: &Seen, to_occupied: &Mat) -> Result<(), VisionError> {
    let mut contours: Vector<Vector<Point>> = Vector::new();
    opencv::imgproc::find_contours_def(
        mask,
        &mut contours,
        opencv::imgproc::RETR_EXTERNAL,
        opencv::imgproc::CHAIN_APPROX_SIMPLE,
    )?;
    let min_px = MIN_PIECE_MM2 * seen.rect.px_per_mm * seen.rect.px_per_mm;
    let mut hulls: Vector<Vector<Point>> = Vector::new();
    for c in &contours {
        if opencv::imgproc::contour_area_def(&c)? >= min_px {
            let mut hull: Vector<Point> = Vector::new();
            opencv::imgproc::convex_hull_def(&c, &mut hull)?;
            hulls.push(hull);
        }
    }
    if hulls.is_empty() {
        return Ok(());
    }
    let size = mask.size()?;
    let mut inside =
        Mat::new_rows_cols_with_default(size.height, size.width, opencv::core::CV_8U, Scalar::all(0.0))?;
    opencv::imgproc::fill_poly_def(&mut inside, &hulls, Scalar::all(255.0))?;
    let reach = (SHADOW_REACH_MM * seen.rect.px_per_mm) as f32;
    let near = to_occupied.roi(seen.roi)?;
    for r in 0..size.height {
        let hr = inside.at_row::<u8>(r)?.to_vec();
        let nr = near.at_row::<f32>(r)?.to_vec();
        let mr = mask.at_row_mut::<u8>(r)?;
        for ((m, h), d) in mr.iter_mut().zip(hr).zip(nr) {
            if h != 0 && d <= reach {
                *m = 255;
            }
        }
    }
    Ok(())
}

/// Removes from an area class's mask (the part `seen.roi` of the image) the pieces
/// that are not templates of the class: their mean colour is too far from the class's
/// (a pond is no marsh, a farm no hill, though single pixels of them are within the
/// tolerance), or they are strips, not templates (a road, a stream).
fn keep_templates(mask: &mut Mat, seen: &Seen, class: &TerrainClass) -> Result<(), VisionError> {
    let (mut comp, mut stats, mut cents) = (Mat::default(), Mat::default(), Mat::default());
    let n = opencv::imgproc::connected_components_with_stats_def(mask, &mut comp, &mut stats, &mut cents)?;
    if n <= 1 {
        return Ok(());
    }
    let mut inside = Mat::default();
    opencv::imgproc::distance_transform_def(mask, &mut inside, opencv::imgproc::DIST_L2, 3)?;
    let n = n as usize;
    let (mut sums, mut counts, mut widest) = (vec![[0.0f64; 3]; n], vec![0usize; n], vec![0f32; n]);
    let roi = seen.roi;
    for r in 0..roi.height {
        let cr = comp.at_row::<i32>(r)?;
        let dr = inside.at_row::<f32>(r)?;
        let img = &seen.rect.image.at_row::<opencv::core::Vec3b>(roi.y + r)?[roi.x as usize..];
        let occ = &seen.occupied.at_row::<u8>(roi.y + r)?[roi.x as usize..];
        for (c, &k) in cr.iter().enumerate() {
            let k = k as usize;
            if k == 0 {
                continue;
            }
            widest[k] = widest[k].max(dr[c]);
            if occ[c] == 0 {
                add_rgb(&mut sums[k], img[c]);
                counts[k] += 1;
            }
        }
    }
    let reference = class.colour.map(f64::from);
    let drop: Vec<bool> = (0..n)
        .map(|k| {
            let mean = sums[k].map(|s| s / counts[k].max(1) as f64);
            let off_colour =
                counts[k] > 0 && colour_distance(mean, reference) > MEAN_COLOUR_SHARE * class.tolerance;
            // The distance transform is the distance to the nearest pixel outside.
            let width_mm = 2.0 * f64::from(widest[k]) / seen.rect.px_per_mm;
            let area_px = stats.at_2d::<i32>(k as i32, opencv::imgproc::CC_STAT_AREA).map_or(0, |a| *a);
            let area_mm2 = f64::from(area_px) / (seen.rect.px_per_mm * seen.rect.px_per_mm);
            let strip = width_mm < MIN_TEMPLATE_WIDTH_MM || area_mm2 > MAX_ELONGATION * width_mm * width_mm;
            k > 0 && (off_colour || strip)
        })
        .collect();
    if !drop.iter().any(|d| *d) {
        return Ok(());
    }
    paint_components(mask, &comp, &drop, 0)
}

/// Sets the pixels of `mask` whose component in `comp` (labels of
/// `connected_components`, same size) is marked in `which` to `value`.
fn paint_components(mask: &mut Mat, comp: &Mat, which: &[bool], value: u8) -> Result<(), VisionError> {
    for r in 0..comp.rows() {
        let cr = comp.at_row::<i32>(r)?.to_vec();
        let mr = mask.at_row_mut::<u8>(r)?;
        for (m, k) in mr.iter_mut().zip(cr) {
            if which[k as usize] {
                *m = value;
            }
        }
    }
    Ok(())
}

/// Fills the holes of an area class's mask (the part `seen.roi` of the image) that
/// are what stands on its templates rather than the bare table: houses on a town,
/// with their roofs' lean and their shadows (issue 36), which the scan does not know
/// of. A hole is filled when it is smaller than [`MAX_COVERED_HOLE_MM2`] and its mean
/// colour (where nothing known stands) is not the bare table's (within
/// [`MEAN_COLOUR_SHARE`] of the class's tolerance of a `ground` colour, as a
/// template's mean is held to its class's): a clearing in a wood shows the mat and
/// stays a hole.
fn fill_what_stands_on_it(
    mask: &mut Mat,
    seen: &Seen,
    class: &TerrainClass,
    ground: &[[u8; 3]],
) -> Result<(), VisionError> {
    let mut outside = Mat::default();
    opencv::core::compare(mask, &Scalar::all(0.0), &mut outside, opencv::core::CMP_EQ)?;
    let (mut comp, mut stats, mut cents) = (Mat::default(), Mat::default(), Mat::default());
    let n = opencv::imgproc::connected_components_with_stats(
        &outside,
        &mut comp,
        &mut stats,
        &mut cents,
        4,
        opencv::core::CV_32S,
    )?;
    if n <= 1 {
        return Ok(());
    }
    let n = n as usize;
    let roi = seen.roi;
    let px2 = seen.rect.px_per_mm * seen.rect.px_per_mm;
    let stat = |k: usize, s: i32| stats.at_2d::<i32>(k as i32, s).map_or(0, |v| *v);
    // Holes: parts of the outside that do not reach the border of the part worked on
    // (it has a margin of empty pixels round the class's pixels), and small enough.
    let candidate: Vec<bool> = (0..n)
        .map(|k| {
            let (x, y) = (stat(k, opencv::imgproc::CC_STAT_LEFT), stat(k, opencv::imgproc::CC_STAT_TOP));
            let (w, h) = (stat(k, opencv::imgproc::CC_STAT_WIDTH), stat(k, opencv::imgproc::CC_STAT_HEIGHT));
            let inner = x > 0 && y > 0 && x + w < roi.width && y + h < roi.height;
            inner && f64::from(stat(k, opencv::imgproc::CC_STAT_AREA)) / px2 <= MAX_COVERED_HOLE_MM2
        })
        .collect();
    if !candidate.iter().any(|c| *c) {
        return Ok(());
    }
    let (mut sums, mut counts) = (vec![[0.0f64; 3]; n], vec![0usize; n]);
    for r in 0..roi.height {
        let cr = comp.at_row::<i32>(r)?;
        let img = &seen.rect.image.at_row::<opencv::core::Vec3b>(roi.y + r)?[roi.x as usize..];
        let occ = &seen.occupied.at_row::<u8>(roi.y + r)?[roi.x as usize..];
        for (c, &k) in cr.iter().enumerate() {
            let k = k as usize;
            if candidate[k] && occ[c] == 0 {
                add_rgb(&mut sums[k], img[c]);
                counts[k] += 1;
            }
        }
    }
    let fill: Vec<bool> = (0..n)
        .map(|k| {
            if !candidate[k] {
                return false;
            }
            if counts[k] == 0 {
                return true; // all of it under what the scan knows stands there
            }
            let mean = sums[k].map(|s| s / counts[k] as f64);
            ground
                .iter()
                .all(|g| colour_distance(mean, g.map(f64::from)) > MEAN_COLOUR_SHARE * class.tolerance)
        })
        .collect();
    paint_components(mask, &comp, &fill, 255)
}

type Piece = (Vec<Vec2>, Vec<Vec<Vec2>>, Vec<Vec2>);

/// Area pieces of a class mask (the part `roi` of the rectified image): outer
/// contours with their holes, simplified.
fn areas(mask: &Mat, rect: &Rectified, roi: Rect, drop_holes: bool) -> Result<Vec<Piece>, VisionError> {
    let mut contours: Vector<Vector<Point>> = Vector::new();
    let mut hierarchy: Vector<Vec4i> = Vector::new();
    // Contours run through the centres of the piece's edge pixels, half a pixel inside
    // its edge: traced on the mask doubled, they run a quarter pixel inside.
    let mut fine = Mat::default();
    opencv::imgproc::resize(
        mask,
        &mut fine,
        opencv::core::Size::new(0, 0),
        2.0,
        2.0,
        opencv::imgproc::INTER_NEAREST,
    )?;
    opencv::imgproc::find_contours_with_hierarchy(
        &fine,
        &mut contours,
        &mut hierarchy,
        opencv::imgproc::RETR_CCOMP,
        opencv::imgproc::CHAIN_APPROX_NONE,
        Point::new(2 * roi.x, 2 * roi.y),
    )?;
    let min_px = MIN_PIECE_MM2 * rect.px_per_mm * rect.px_per_mm * 4.0;
    let mut out = Vec::new();
    for i in 0..contours.len() {
        let hi = hierarchy.get(i)?;
        if hi[3] >= 0 {
            continue; // a hole: taken with its outer contour
        }
        let c = contours.get(i)?;
        if opencv::imgproc::contour_area_def(&c)? < min_px {
            continue;
        }
        let Some(outline) = simplify(&c, rect)? else { continue };
        let mut holes = Vec::new();
        if !drop_holes {
            let mut child = hi[2];
            while child >= 0 {
                let hc = contours.get(child as usize)?;
                if opencv::imgproc::contour_area_def(&hc)? >= min_px
                    && let Some(ring) = simplify(&hc, rect)?
                    && ring.iter().all(|p| vedette_geometry::ring_contains(&outline, *p))
                {
                    holes.push(ring);
                }
                child = hierarchy.get(child as usize)?[0];
            }
        }
        // Holes that touch each other or the outline after simplification are dropped
        // rather than giving an invalid polygon.
        let mut poly = Polygon::new(outline.clone(), holes.clone());
        while !poly.self_intersections().is_empty() && !holes.is_empty() {
            holes.pop();
            poly = Polygon::new(outline.clone(), holes.clone());
        }
        if poly.self_intersections().is_empty() && poly.area() > 0.0 {
            out.push((outline, holes, Vec::new()));
        }
    }
    Ok(out)
}

/// A contour (px) simplified to [`OUTLINE_TOLERANCE_MM`] as a simple ring in table mm;
/// the tolerance is halved until the ring is simple, `None` if it never is.
fn simplify(c: &Vector<Point>, rect: &Rectified) -> Result<Option<Vec<Vec2>>, VisionError> {
    // Contour points are on the doubled mask.
    let mut eps = OUTLINE_TOLERANCE_MM * rect.px_per_mm * 2.0;
    while eps >= 0.5 {
        let mut approx: Vector<Point> = Vector::new();
        opencv::imgproc::approx_poly_dp(c, &mut approx, eps, true)?;
        let ring: Vec<Vec2> = approx
            .iter()
            .map(|p| round_point(rect.to_table([f64::from(p.x) / 2.0 - 0.25, f64::from(p.y) / 2.0 - 0.25])))
            .collect();
        if ring.len() >= 3 {
            let poly = Polygon::new(ring.clone(), Vec::new());
            if poly.self_intersections().is_empty() && poly.area() > 0.0 {
                return Ok(Some(ring));
            }
        }
        eps /= 2.0;
    }
    Ok(None)
}

/// Adds the BGR pixel `p` to the R G B sums `sum`.
fn add_rgb(sum: &mut [f64; 3], p: opencv::core::Vec3b) {
    *sum = [sum[0] + f64::from(p[2]), sum[1] + f64::from(p[1]), sum[2] + f64::from(p[0])];
}

pub(crate) fn round_point(p: Vec2) -> Vec2 {
    Vec2::new((p.x * 10.0).round() / 10.0, (p.y * 10.0).round() / 10.0)
}

pub(crate) fn douglas_peucker(pts: &[Vec2], eps: f64) -> Vec<Vec2> {
    if pts.len() < 3 {
        return pts.to_vec();
    }
    let (a, b) = (pts[0], pts[pts.len() - 1]);
    let seg = vedette_geometry::Segment::new(a, b);
    let (mut worst, mut at) = (0.0, 0);
    for (i, p) in pts.iter().enumerate().take(pts.len() - 1).skip(1) {
        let d = seg.closest_point(*p).distance(*p);
        if d > worst {
            worst = d;
            at = i;
        }
    }
    if worst <= eps {
        return vec![a, b];
    }
    let mut left = douglas_peucker(&pts[..=at], eps);
    left.pop();
    left.extend(douglas_peucker(&pts[at..], eps));
    left
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    const BASE: &str = r#"
[table]
width_mm = 600
depth_mm = 400
[fiducials]
dictionary = "DICT_4X4_50"
size_mm = 40
markers = [
  { id = 0, x_mm = 40, y_mm = 40 }, { id = 1, x_mm = 560, y_mm = 40 },
  { id = 2, x_mm = 560, y_mm = 360 }, { id = 3, x_mm = 40, y_mm = 360 },
]
"#;

    /// Issue 19: on the skirmish sample an undeclared pond became a marsh and a road a
    /// hill. A 300 x 200 mm image at 1 px/mm: a marsh-coloured template (kept), a
    /// bluer pond whose pixels are each within the marsh's tolerance but whose mean is
    /// not (dropped), and a marsh-coloured strip 15 mm wide (dropped).
    #[test]
    fn only_templates_of_the_class_colour_and_shape_are_kept() {
        let marsh = TerrainClass {
            kind: TerrainKind::Marsh,
            colour: [77, 92, 87],
            level: 0.0,
            tolerance: 45.0,
            thickness_mm: 0.0,
            linear: None,
        };
        let mut image =
            Mat::new_rows_cols_with_default(200, 300, opencv::core::CV_8UC3, Scalar::all(0.0)).unwrap();
        let mut mask = crate::palette::blank_mask(200, 300).unwrap();
        // (x0, y0, x1, y1, B G R)
        let parts = [
            (10, 10, 90, 90, [87, 92, 77]),
            (110, 10, 190, 90, [110, 84, 56]),
            (10, 120, 290, 135, [87, 92, 77]),
        ];
        for (x0, y0, x1, y1, bgr) in parts {
            for y in y0..y1 {
                for x in x0..x1 {
                    *image.at_2d_mut::<opencv::core::Vec3b>(y, x).unwrap() = bgr.into();
                    *mask.at_2d_mut::<u8>(y, x).unwrap() = 255;
                }
            }
        }
        // Every pond pixel is within the tolerance (the mean is the pixel here).
        assert!(colour_distance([56.0, 84.0, 110.0], [77.0, 92.0, 87.0]) < 45.0);
        let rect = Rectified { image, px_per_mm: 1.0, origin_mm: Vec2::ZERO, height_mm: 0.0 };
        let occupied = crate::palette::blank_mask(200, 300).unwrap();
        let seen = Seen { rect: &rect, occupied: &occupied, roi: Rect::new(0, 0, 300, 200) };
        keep_templates(&mut mask, &seen, &marsh).unwrap();
        let at = |x: i32, y: i32| *mask.at_2d::<u8>(y, x).unwrap();
        assert_eq!((at(50, 50), at(150, 50), at(150, 127)), (255, 0, 0));
    }

    /// Issue 19: bases on the battle hill's edge hid a notch of it and their shadows
    /// darkened more. A 200 x 200 px hill (1 px/mm), a disc with two notches cut into
    /// its edge: the one a base stands in is the hill's again, the other stays a notch.
    #[test]
    fn a_hill_reaches_its_hull_where_bases_stand() {
        let mut mask = crate::palette::blank_mask(200, 200).unwrap();
        let mut occupied = crate::palette::blank_mask(200, 200).unwrap();
        for y in 0..200i32 {
            for x in 0..200i32 {
                let disc = (x - 100).pow(2) + (y - 100).pow(2) <= 70 * 70;
                let notch_right = x > 140 && (90..110).contains(&y);
                let notch_left = x < 60 && (90..110).contains(&y);
                *mask.at_2d_mut::<u8>(y, x).unwrap() =
                    if disc && !notch_right && !notch_left { 255 } else { 0 };
                // A base in the right notch.
                if (150..175).contains(&x) && (92..108).contains(&y) {
                    *occupied.at_2d_mut::<u8>(y, x).unwrap() = 255;
                }
            }
        }
        let rect = Rectified {
            image: Mat::new_rows_cols_with_default(200, 200, opencv::core::CV_8UC3, Scalar::all(0.0))
                .unwrap(),
            px_per_mm: 1.0,
            origin_mm: Vec2::ZERO,
            height_mm: 0.0,
        };
        let seen = Seen { rect: &rect, occupied: &occupied, roi: Rect::new(0, 0, 200, 200) };
        let to_occupied = crate::terrain_lines::distance_to_occupied(&occupied).unwrap();
        hill_under_shade(&mut mask, &seen, &to_occupied).unwrap();
        let at = |x: i32, y: i32| *mask.at_2d::<u8>(y, x).unwrap();
        assert_eq!((at(145, 100), at(55, 100), at(100, 100)), (255, 0, 255));
    }

    fn load(terrain: &str) -> Result<Profile, VisionError> {
        Profile::from_toml_str(&format!("{BASE}{terrain}"), "club.toml")
    }

    /// Issue 36: a class the scan cannot tell from the bare table is refused at load,
    /// naming the file, the class and the ground colour: 9 sRGB units from `ground`
    /// is refused, 10 loads.
    #[test]
    fn a_class_of_the_mats_colour_is_refused() {
        let town = "[[terrain]]\nkind = \"light-buildings\"\ncolour = [116, 92, 66]\n";
        let e = load(&format!("[colours]\nground = [[77, 107, 48], [125, 92, 66]]\n{town}"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("club.toml")
                && e.contains("terrain[0].colour")
                && e.contains("light-buildings")
                && e.contains("ground[1]")
                && e.contains("docs/calibration.md"),
            "{e}"
        );
        assert!(load(&format!("[colours]\nground = [[126, 92, 66]]\n{town}")).is_ok());
    }

    #[test]
    fn good_classes_load() {
        let p = load(
            "[[terrain]]\nkind = \"medium-forest\"\ncolour = [42, 67, 33]\n[[terrain]]\nkind = \"hill\"\ncolour = [128, 117, 71]\nlevel = 1\n[[terrain]]\nkind = \"hedge\"\ncolour = [40, 84, 30]\nthickness_mm = 0\n",
        )
        .unwrap();
        assert_eq!(p.terrain.len(), 3);
        assert!(!p.terrain[0].is_linear() && p.terrain[2].is_linear());
        assert_eq!(p.terrain[0].thickness_mm, 2.0);
    }

    #[test]
    fn bad_classes_name_the_file_and_the_entry() {
        let cases = [
            ("[[terrain]]\nkind = \"medium-forrest\"\ncolour = [42, 67, 33]\n", "medium-forrest"),
            ("[[terrain]]\nkind = \"marsh\"\ncolour = [42, 67, 300]\n", "300"),
            ("[[terrain]]\nkind = \"marsh\"\ncolour = [42, 67, 33]\nkolour = 1\n", "kolour"),
            ("[[terrain]]\nkind = \"hill\"\ncolour = [128, 117, 71]\n", "terrain[0].level"),
            ("[[terrain]]\nkind = \"marsh\"\ncolour = [1, 2, 3]\nlevel = 0.3\n", "terrain[0].level"),
            ("[[terrain]]\nkind = \"marsh\"\ncolour = [1, 2, 3]\ntolerance = -4\n", "terrain[0].tolerance"),
            ("[[terrain]]\nkind = \"marsh\"\ncolour = [1, 2, 3]\nlinear = true\n", "terrain[0].linear"),
            ("[[terrain]]\nkind = \"hedge\"\ncolour = [1, 2, 3]\nlinear = false\n", "terrain[0].linear"),
            ("[[terrain]]\nkind = \"road\"\ncolour = [1, 2, 3]\nlinear = \"yes\"\n", "linear"),
            (
                "[[terrain]]\nkind = \"marsh\"\ncolour = [80, 90, 85]\n[[terrain]]\nkind = \"light-forest\"\ncolour = [82, 91, 86]\n",
                "terrain[1].colour",
            ),
        ];
        for (text, needle) in cases {
            let e = load(text).unwrap_err().to_string();
            assert!(e.contains("club.toml") && e.contains(needle), "{needle}: {e}");
        }
    }
    /// Issue 36: where `ground` is not declared the mat's colour is learned from the
    /// photo, and a class within 10 sRGB units of it refuses the scan, naming the class,
    /// the colour learned and what to do; 10 or more apart it is used as the ground; a
    /// declared `ground` is used as declared.
    #[test]
    fn the_mat_learned_refuses_a_class_that_cannot_be_told_from_it() {
        let (w, h) = (300, 200);
        let image =
            Mat::new_rows_cols_with_default(h, w, opencv::core::CV_8UC3, Scalar::new(60.0, 110.0, 90.0, 0.0))
                .unwrap();
        let rect = Rectified { image, px_per_mm: 1.0, origin_mm: Vec2::ZERO, height_mm: 0.0 };
        let occupied = crate::palette::blank_mask(h, w).unwrap();
        let class = |rgb: [u8; 3]| {
            format!(
                "[[terrain]]\nkind = \"light-buildings\"\ncolour = [{}, {}, {}]\n",
                rgb[0], rgb[1], rgb[2]
            )
        };
        let near = load(&class([96, 106, 62])).unwrap();
        let e = ground_colours(&rect, &occupied, &near).unwrap_err().to_string();
        assert!(
            e.contains("light-buildings")
                && e.contains("terrain[0]")
                && e.contains("[90, 110, 60]")
                && e.contains("learned")
                && e.contains("`[colours] ground`"),
            "{e}"
        );
        let apart = load(&class([100, 106, 62])).unwrap();
        assert_eq!(ground_colours(&rect, &occupied, &apart).unwrap(), vec![[90, 110, 60]]);
        let declared =
            load(&format!("[colours]\nground = [[20, 30, 40]]\n{}", class([96, 106, 62]))).unwrap();
        assert_eq!(ground_colours(&rect, &occupied, &declared).unwrap(), vec![[20, 30, 40]]);
    }
}
