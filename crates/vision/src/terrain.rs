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
use opencv::core::{Mat, Point, Scalar, Vec4i, Vector};
use opencv::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
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
            if d < 10.0 {
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

/// Outlines are simplified to within this distance of the segmented boundary, mm.
pub const OUTLINE_TOLERANCE_MM: f64 = 1.5;
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
const SHADOW_REACH_MM: f64 = 20.0;
/// An area piece smaller than [`SHADOW_MAX_MM2`] with more than this share of its
/// pixels in that ring is dropped.
const SHADOW_SHARE: f64 = 0.6;
/// Pieces at least this large are kept wherever they lie, mm² (50 cm²: the shadow
/// of a battalion's line is some 15 x 150 mm).
const SHADOW_MAX_MM2: f64 = 5000.0;
/// Linear pieces: the line is sampled every this many mm along its length.
const LINE_STEP_MM: f64 = 20.0;

fn colour_distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt()
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
    let bounds = (Vec2::ZERO, Vec2::new(profile.table.width_mm, profile.table.depth_mm));
    let mut rect = Rectified::new(&photo.color, model, 0.0, bounds, TERRAIN_PX_PER_MM)?;
    correction.apply(&mut rect, model)?;
    let mut occupied = occupancy::occupied(&rect, model, profile, table, tags)?;
    for m in &table.markers {
        let half = m.size.unwrap_or(profile.markers.size_mm) / 2.0 + 2.0;
        let c = Vec2::new(m.x, m.y);
        let sq =
            [(-half, -half), (half, -half), (half, half), (-half, half)].map(|(x, y)| c + Vec2::new(x, y));
        occupancy::prism(&mut occupied, &rect, model, &sq, 0.0, 2.0 * half)?;
    }
    let labels = classify(&rect, &occupied, &profile.terrain, &profile.colours.ground)?;
    // Beside what stands on the table: its shadows and the figures' overhang.
    let mut beside = Mat::default();
    let reach = (2.0 * SHADOW_REACH_MM * rect.px_per_mm).round() as i32 + 1;
    let disc = opencv::imgproc::get_structuring_element_def(
        opencv::imgproc::MORPH_ELLIPSE,
        opencv::core::Size::new(reach, reach),
    )?;
    opencv::imgproc::dilate_def(&occupied, &mut beside, &disc)?;
    let mut out = Vec::new();
    for (k, class) in profile.terrain.iter().enumerate() {
        let mut mask = Mat::default();
        opencv::core::compare(&labels, &Scalar::all((k + 1) as f64), &mut mask, opencv::core::CMP_EQ)?;
        // Specks go; lines are thinner than areas' specks, so a smaller brush.
        let brush = if class.is_linear() { 3 } else { 5 };
        let kernel = opencv::imgproc::get_structuring_element_def(
            opencv::imgproc::MORPH_ELLIPSE,
            opencv::core::Size::new(brush, brush),
        )?;
        let mut clean = Mat::default();
        opencv::imgproc::morphology_ex_def(&mask, &mut clean, opencv::imgproc::MORPH_OPEN, &kernel)?;
        if !class.is_linear() {
            drop_shadows(&mut clean, &beside, rect.px_per_mm)?;
        }
        let pieces = if class.is_linear() {
            lines(&clean, &rect)?
        } else {
            areas(&clean, &rect, class.kind == TerrainKind::Hill)?
        };
        for (outline, holes, path) in pieces {
            out.push(TerrainFeature {
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

/// Removes from an area class's mask the pieces lying mostly beside what stands on the
/// table: the shadows of a line of figures on the mat look like a dark wood, and a
/// column standing in a wood lightens the wood around it. A template is larger than
/// the ring around the bases on it, or (a wood with a battalion in it) larger than
/// [`SHADOW_MAX_MM2`].
fn drop_shadows(mask: &mut Mat, beside: &Mat, px_per_mm: f64) -> Result<(), VisionError> {
    let (mut comp, mut stats, mut cents) = (Mat::default(), Mat::default(), Mat::default());
    let n = opencv::imgproc::connected_components_with_stats_def(mask, &mut comp, &mut stats, &mut cents)?;
    if n <= 1 {
        return Ok(());
    }
    let mut near = vec![0usize; n as usize];
    let size = mask.size()?;
    for r in 0..size.height {
        let cr = comp.at_row::<i32>(r)?;
        let br = beside.at_row::<u8>(r)?;
        for (c, b) in cr.iter().zip(br) {
            if *c > 0 && *b != 0 {
                near[*c as usize] += 1;
            }
        }
    }
    let drop: Vec<bool> = (0..n)
        .map(|i| {
            let area = stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_AREA).map_or(0, |a| *a);
            i > 0
                && f64::from(area) < SHADOW_MAX_MM2 * px_per_mm * px_per_mm
                && near[i as usize] as f64 > SHADOW_SHARE * f64::from(area.max(1))
        })
        .collect();
    if !drop.iter().any(|d| *d) {
        return Ok(());
    }
    for r in 0..size.height {
        let cr = comp.at_row::<i32>(r)?.to_vec();
        let mr = mask.at_row_mut::<u8>(r)?;
        for (m, c) in mr.iter_mut().zip(cr) {
            if drop[c as usize] {
                *m = 0;
            }
        }
    }
    Ok(())
}

/// Label image: 1 + the index of the class nearest each smoothed pixel within its
/// tolerance, 0 for the bare table; occupied pixels take the label of the nearest free
/// pixel.
fn classify(
    rect: &Rectified,
    occupied: &Mat,
    classes: &[TerrainClass],
    ground: &[[u8; 3]],
) -> Result<Mat, VisionError> {
    let (w, h) = rect.size()?;
    // Normalized convolution: smooth the free pixels only, so bases and figures do not
    // bleed into the terrain's colour.
    let mut free = Mat::default();
    opencv::core::compare(occupied, &Scalar::all(0.0), &mut free, opencv::core::CMP_EQ)?;
    let mut free_f = Mat::default();
    free.convert_to(&mut free_f, opencv::core::CV_32F, 1.0 / 255.0, 0.0)?;
    let mut img_f = Mat::default();
    rect.image.convert_to(&mut img_f, opencv::core::CV_32FC3, 1.0, 0.0)?;
    let mut free3 = Mat::default();
    let v: Vector<Mat> = vec![free_f.clone(), free_f.clone(), free_f.clone()].into();
    opencv::core::merge(&v, &mut free3)?;
    let mut weighted = Mat::default();
    opencv::core::multiply_def(&img_f, &free3, &mut weighted)?;
    let sigma = SMOOTH_MM * rect.px_per_mm;
    let ksize = opencv::core::Size::new(0, 0);
    let (mut num, mut den) = (Mat::default(), Mat::default());
    opencv::imgproc::gaussian_blur_def(&weighted, &mut num, ksize, sigma)?;
    opencv::imgproc::gaussian_blur_def(&free_f, &mut den, ksize, sigma)?;
    // Lines are narrow: they are looked for on a lightly smoothed copy.
    let any_linear = classes.iter().any(TerrainClass::is_linear);
    let fine_sigma = LINE_SMOOTH_MM * rect.px_per_mm;
    let (mut fine_num, mut fine_den) = (Mat::default(), Mat::default());
    if any_linear {
        opencv::imgproc::gaussian_blur_def(&weighted, &mut fine_num, ksize, fine_sigma)?;
        opencv::imgproc::gaussian_blur_def(&free_f, &mut fine_den, ksize, fine_sigma)?;
    }
    // The classes, then the bare table's colours (label 0, any distance).
    let refs: Vec<[f64; 3]> = classes
        .iter()
        .map(|c| c.colour.map(f64::from))
        .chain(ground.iter().map(|g| g.map(f64::from)))
        .collect();
    let tol2: Vec<f64> = classes
        .iter()
        .map(|c| c.tolerance * c.tolerance)
        .chain(ground.iter().map(|_| f64::INFINITY))
        .collect();
    let n_classes = classes.len();
    let nearest = |rgb: [f64; 3]| {
        refs.iter()
            .enumerate()
            .map(|(k, rf)| (k, (0..3).map(|i| (rgb[i] - rf[i]).powi(2)).sum::<f64>()))
            .filter(|(k, d2)| *d2 <= tol2[*k])
            .min_by(|a, b| a.1.total_cmp(&b.1))
    };
    let mut labels = crate::palette::blank_mask(h, w)?;
    let n = (w * h) as usize;
    let mut assigned = vec![false; n];
    let mut queue = VecDeque::new();
    for r in 0..h {
        let nr = num.at_row::<opencv::core::Vec3f>(r)?;
        let dr = den.at_row::<f32>(r)?;
        let fr = free.at_row::<u8>(r)?;
        let (fnr, fdr) = if any_linear {
            (Some(fine_num.at_row::<opencv::core::Vec3f>(r)?), Some(fine_den.at_row::<f32>(r)?))
        } else {
            (None, None)
        };
        let lab = labels.at_row_mut::<u8>(r)?;
        for c in 0..w as usize {
            if fr[c] == 0 || dr[c] < 0.05 {
                continue;
            }
            let colour = |n: &opencv::core::Vec3f, d: f32| {
                let d = f64::from(d);
                [f64::from(n[2]) / d, f64::from(n[1]) / d, f64::from(n[0]) / d]
            };
            // A line wins where the lightly smoothed colour is nearer a linear class
            // than the smoothed colour is to an area class (blotches of a grey town
            // must not become walls; a wall's colour smoothed with the mat beside it
            // may come near an area class's).
            let coarse = nearest(colour(&nr[c], dr[c]));
            let area_here = coarse.filter(|&(k, _)| k < n_classes && !classes[k].is_linear());
            let line = match (fnr, fdr) {
                (Some(n), Some(d)) if d[c] >= 0.05 => nearest(colour(&n[c], d[c])).filter(|&(k, d2)| {
                    k < n_classes && classes[k].is_linear() && area_here.is_none_or(|(_, a2)| d2 < a2)
                }),
                _ => None,
            };
            let best = line.or(area_here).map(|(k, _)| k);
            if let Some(k) = best {
                lab[c] = k as u8 + 1;
            }
            let i = r as usize * w as usize + c;
            assigned[i] = true;
            queue.push_back(i);
        }
    }
    // Fill what stands on the table from its surroundings (breadth first: each
    // occupied pixel takes the label of a nearest free one).
    let data = labels.data_bytes_mut()?;
    let wu = w as usize;
    while let Some(i) = queue.pop_front() {
        let (r, c) = (i / wu, i % wu);
        let mut visit = |j: usize| {
            if !assigned[j] {
                assigned[j] = true;
                data[j] = data[i];
                queue.push_back(j);
            }
        };
        if c > 0 {
            visit(i - 1);
        }
        if c + 1 < wu {
            visit(i + 1);
        }
        if r > 0 {
            visit(i - wu);
        }
        if i + wu < n {
            visit(i + wu);
        }
    }
    Ok(labels)
}

type Piece = (Vec<Vec2>, Vec<Vec<Vec2>>, Vec<Vec2>);

/// Area pieces of a class mask: outer contours with their holes, simplified.
fn areas(mask: &Mat, rect: &Rectified, drop_holes: bool) -> Result<Vec<Piece>, VisionError> {
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
        Point::new(0, 0),
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

fn round_point(p: Vec2) -> Vec2 {
    Vec2::new((p.x * 10.0).round() / 10.0, (p.y * 10.0).round() / 10.0)
}

/// Linear pieces of a class mask: each long component becomes the polyline of its
/// centre line, sampled along its principal axis and simplified.
fn lines(mask: &Mat, rect: &Rectified) -> Result<Vec<Piece>, VisionError> {
    let (mut comp, mut stats, mut cents) = (Mat::default(), Mat::default(), Mat::default());
    let n = opencv::imgproc::connected_components_with_stats_def(mask, &mut comp, &mut stats, &mut cents)?;
    let mut pts: Vec<Vec<Vec2>> = vec![Vec::new(); n.max(0) as usize];
    let (w, h) = rect.size()?;
    for r in 0..h {
        let row = comp.at_row::<i32>(r)?;
        for c in 0..w as usize {
            if row[c] > 0 {
                pts[row[c] as usize].push(rect.to_table([c as f64, f64::from(r)]));
            }
        }
    }
    let mut out = Vec::new();
    for p in pts.iter().skip(1) {
        // A line must be long: at least 5 cm, and five times as long as it is wide.
        if (p.len() as f64) < 200.0 * rect.px_per_mm * rect.px_per_mm {
            continue;
        }
        let m = p.len() as f64;
        let c = p.iter().fold(Vec2::ZERO, |a, q| a + *q) / m;
        let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
        for q in p {
            let d = *q - c;
            sxx += d.x * d.x;
            sxy += d.x * d.y;
            syy += d.y * d.y;
        }
        let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
        let u = Vec2::new(angle.cos(), angle.sin());
        let v = u.perp_left();
        let (lo, hi) = p.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
            let t = (*q - c).dot(u);
            (a.min(t), b.max(t))
        });
        if hi - lo < 50.0 {
            continue;
        }
        let bins = ((hi - lo) / LINE_STEP_MM).ceil().max(1.0) as usize;
        let mut acc = vec![(0.0, 0.0, 0usize); bins];
        for q in p {
            let d = *q - c;
            let b =
                (((d.dot(u) - lo) / (hi - lo)) * bins as f64).floor().clamp(0.0, (bins - 1) as f64) as usize;
            acc[b].0 += d.dot(u);
            acc[b].1 += d.dot(v);
            acc[b].2 += 1;
        }
        let mut path: Vec<Vec2> = acc
            .iter()
            .filter(|a| a.2 > 0)
            .map(|a| c + u * (a.0 / a.2 as f64) + v * (a.1 / a.2 as f64))
            .collect();
        // The ends reach the component's extremes.
        if let (Some(first), Some(last)) = (path.first().copied(), path.last().copied()) {
            let s = first - c;
            path[0] = c + u * lo + v * s.dot(v);
            let e = last - c;
            let k = path.len() - 1;
            path[k] = c + u * hi + v * e.dot(v);
        }
        let path: Vec<Vec2> =
            douglas_peucker(&path, OUTLINE_TOLERANCE_MM * 2.0).into_iter().map(round_point).collect();
        if path.len() >= 2 {
            out.push((Vec::new(), Vec::new(), path));
        }
    }
    Ok(out)
}

fn douglas_peucker(pts: &[Vec2], eps: f64) -> Vec<Vec2> {
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

    fn load(terrain: &str) -> Result<Profile, VisionError> {
        Profile::from_toml_str(&format!("{BASE}{terrain}"), "club.toml")
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
}
