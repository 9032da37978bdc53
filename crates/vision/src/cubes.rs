//! Status marker cubes from the photo (issue 19): 3/8" cubes found by colour and shape
//! on the photo rectified to the plane of their tops (so the camera model removes the
//! parallax of their 9.5 mm height), with bases, figures, tags and fiducials masked
//! out, and each linked to the unit it stands behind or beside.
//!
//! Morale cubes are white (unformed), yellow (rattled), red (shaken) and black
//! (demoralized) (000 §1.2); unpainted wooden cubes are square markers. The colours are
//! the profile's `[markers]` (`docs/calibration.md`).

use crate::error::VisionError;
use crate::occupancy;
use crate::palette::ColourCorrection;
use crate::photo::Photo;
use crate::pose::CameraModel;
use crate::profile::Profile;
use crate::rectify::Rectified;
use crate::tags::TagPose;
use opencv::core::{Mat, Vec3b, Vector};
use opencv::prelude::*;
use serde::{Deserialize, Serialize};
use vedette_geometry::{MARKER_CUBE_MM, Marker, MarkerColour, MarkerKind, Table, Vec2};

/// What the profile says about marker cubes (section `[markers]`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkerSpec {
    /// Look for cubes at all (default true).
    #[serde(default = "yes")]
    pub find: bool,
    /// Side of a cube, mm (default 9.525, a 3/8" cube, 000 §1.2).
    #[serde(default = "default_cube")]
    pub size_mm: f64,
    /// Unformed (white) cubes' colour, sRGB 0-255.
    #[serde(default = "default_white")]
    pub white: [u8; 3],
    /// Rattled (yellow) cubes' colour.
    #[serde(default = "default_yellow")]
    pub yellow: [u8; 3],
    /// Shaken (red) cubes' colour.
    #[serde(default = "default_red")]
    pub red: [u8; 3],
    /// Demoralized (black) cubes' colour.
    #[serde(default = "default_black")]
    pub black: [u8; 3],
    /// Unpainted wooden cubes, read as square markers.
    #[serde(default = "default_natural")]
    pub natural: [u8; 3],
    /// Largest distance of a cube top's colour from its reference, sRGB units
    /// (Euclidean, after colour correction; default 40).
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
    /// A cube farther than this from every base belongs to no unit, mm (default 76.2, 3").
    #[serde(default = "default_reach")]
    pub link_reach_mm: f64,
}

impl Default for MarkerSpec {
    fn default() -> Self {
        MarkerSpec {
            find: true,
            size_mm: default_cube(),
            white: default_white(),
            yellow: default_yellow(),
            red: default_red(),
            black: default_black(),
            natural: default_natural(),
            tolerance: default_tolerance(),
            link_reach_mm: default_reach(),
        }
    }
}

fn yes() -> bool {
    true
}
fn default_cube() -> f64 {
    MARKER_CUBE_MM
}
fn default_white() -> [u8; 3] {
    [230, 230, 222]
}
fn default_yellow() -> [u8; 3] {
    [235, 204, 38]
}
fn default_red() -> [u8; 3] {
    [184, 26, 26]
}
fn default_black() -> [u8; 3] {
    [18, 18, 18]
}
fn default_natural() -> [u8; 3] {
    [199, 158, 107]
}
fn default_tolerance() -> f64 {
    40.0
}
fn default_reach() -> f64 {
    // 3": a cube stands beside or behind its unit, not across the table.
    76.2
}

impl MarkerSpec {
    /// The cube classes: kind, colour and reference sRGB.
    #[must_use]
    pub fn classes(&self) -> [(MarkerKind, MarkerColour, [u8; 3]); 5] {
        [
            (MarkerKind::Morale, MarkerColour::White, self.white),
            (MarkerKind::Morale, MarkerColour::Yellow, self.yellow),
            (MarkerKind::Morale, MarkerColour::Red, self.red),
            (MarkerKind::Morale, MarkerColour::Black, self.black),
            (MarkerKind::Square, MarkerColour::Natural, self.natural),
        ]
    }

    /// Checks the numbers; errors name `origin` and the field.
    pub fn validate(&self, origin: &str) -> Result<(), VisionError> {
        let bad = |field: &str, reason: String| VisionError::InvalidField {
            path: origin.to_string(),
            field: format!("markers.{field}"),
            reason,
        };
        for (name, v) in
            [("size_mm", self.size_mm), ("tolerance", self.tolerance), ("link_reach_mm", self.link_reach_mm)]
        {
            if !(v.is_finite() && v > 0.0) {
                return Err(bad(name, format!("must be a positive number, got {v}")));
            }
        }
        Ok(())
    }
}

/// Pixels per mm of the plane the cubes are looked for on (a little under the photo's
/// own resolution at 12 MP over a 6'x4' table, 2.2 px/mm: a cube top is some 14 px
/// across; at 2 px/mm the cubes of the samples are found at the same places to 0.1 mm,
/// in twice the time).
const CUBE_PX_PER_MM: f64 = 1.5;

/// A cube as found, before linking.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FoundCube {
    /// What it marks.
    pub kind: MarkerKind,
    /// Its colour class.
    pub colour: MarkerColour,
    /// Centre of its top, table mm.
    pub centre: Vec2,
    /// Distance of its mean colour from the class reference, sRGB units.
    pub colour_distance: f64,
}

/// How a cube was linked to a unit.
#[derive(Debug, Clone, PartialEq)]
pub enum Link {
    /// The one unit near enough, and clearly nearer than any other.
    Unit(String),
    /// Two or more units about as near: left unlinked, for a person to decide.
    Ambiguous(Vec<String>),
    /// Farther than [`NEXT_TO_MM`] from every unit found while units of the roster
    /// were not found: it may mark one of those (the unit found nearest, then those not
    /// found), left unlinked for a person to decide.
    Unfound {
        /// The unit found nearest it (within the profile's reach).
        nearest: String,
        /// The roster's units of which no base was found.
        units: Vec<String>,
    },
    /// No base within the profile's reach.
    None,
}

/// Finds the cubes in a photo whose camera model is solved: `table` holds the bases
/// found (their figures are masked), `tags` every tag seen.
pub fn find_cubes(
    photo: &Photo,
    model: &CameraModel,
    correction: &ColourCorrection,
    profile: &Profile,
    table: &Table,
    tags: &[TagPose],
) -> Result<Vec<FoundCube>, VisionError> {
    let pixels = CubePixels::of(photo, model, correction, profile)?;
    find_cubes_in(&pixels, model, profile, table, tags)
}

/// The cubes' pixel work, which needs the photo and its camera but not what stands on
/// the table: the table seen at the cubes' resolution and colour-corrected, and each
/// pixel's colour label. A scan does it beside the search for tags among figures.
pub(crate) struct CubePixels {
    /// The table, rectified onto the cubes' tops and corrected.
    rect: Rectified,
    /// 1 + the class index of the nearest reference within tolerance (or within it once
    /// a highlight is taken off), 0 else.
    labels: Mat,
    /// The lamp as the corrected photo shows it.
    lamp: Lamp,
}

impl CubePixels {
    /// Rectifies and corrects the photo and labels its pixels by the profile's cube
    /// colours.
    pub(crate) fn of(
        photo: &Photo,
        model: &CameraModel,
        correction: &ColourCorrection,
        profile: &Profile,
    ) -> Result<CubePixels, VisionError> {
        let spec = &profile.markers;
        let bounds = (Vec2::ZERO, Vec2::new(profile.table.width_mm, profile.table.depth_mm));
        let mut rect = Rectified::new(&photo.color, model, spec.size_mm, bounds, CUBE_PX_PER_MM)?;
        correction.apply(&mut rect, model)?;
        let classes = spec.classes();
        let tol2 = spec.tolerance * spec.tolerance;
        // Label image: 1 + class index of the nearest reference within tolerance, 0 else.
        let (w, h) = rect.size()?;
        let mut labels = crate::palette::blank_mask(h, w)?;
        // Integer colours (B, G, R). A reference within tolerance is within it on each
        // channel: a table of which references each channel value allows rejects most of
        // the table at a glance.
        let refs_bgr: Vec<[i32; 3]> =
            classes.iter().map(|c| [c.2[2], c.2[1], c.2[0]].map(i32::from)).collect();
        let near_channel: [[u8; 256]; 3] = std::array::from_fn(|ch| {
            std::array::from_fn(|v| {
                refs_bgr.iter().enumerate().fold(0u8, |bits, (k, rf)| {
                    let d = f64::from((v as i32 - rf[ch]).abs());
                    bits | (u8::from(d <= spec.tolerance) << k)
                })
            })
        });
        // Tops of a coloured paint that catch the lamp's highlight (issue 36: a red
        // reading pink, a yellow pale) are within tolerance once the highlight is taken off.
        let lamp =
            Lamp { paper: profile.colours.paper, srgb: correction.is_srgb(), pool: pool_light(profile) };
        let lit = highlight_table(&classes, spec.tolerance, lamp);
        let cell = |p: &Vec3b| {
            let c = |v: u8| usize::from(v >> HIGHLIGHT_CELL_BITS);
            let bits = 8 - HIGHLIGHT_CELL_BITS;
            lit[(c(p[2]) << (2 * bits)) | (c(p[1]) << bits) | c(p[0])]
        };
        for r in 0..h {
            let img = rect.image.at_row::<Vec3b>(r)?;
            let lab = labels.at_row_mut::<u8>(r)?;
            for (p, l) in img.iter().zip(lab.iter_mut()) {
                let mut allowed = near_channel[0][usize::from(p[0])]
                    & near_channel[1][usize::from(p[1])]
                    & near_channel[2][usize::from(p[2])];
                // Pixels where something stands are labelled too: a cube against a base
                // is grown over it from the part off it (`Blobs::grown`).
                if allowed == 0 {
                    *l = cell(p);
                    continue;
                }
                // The nearest reference (first on ties) among those the channels allow:
                // if it is within tolerance it is also the nearest of all.
                let (mut best, mut best_d2) = (0u8, i32::MAX);
                while allowed != 0 {
                    let k = allowed.trailing_zeros() as usize;
                    allowed &= allowed - 1;
                    let rf = refs_bgr[k];
                    let d2 = (0..3).map(|i| (i32::from(p[i]) - rf[i]).pow(2)).sum::<i32>();
                    if d2 < best_d2 {
                        (best, best_d2) = (k as u8 + 1, d2);
                    }
                }
                *l = if f64::from(best_d2) <= tol2 { best } else { cell(p) };
            }
        }
        Ok(CubePixels { rect, labels, lamp })
    }
}

/// [`find_cubes`] on its pixel work done: the blobs judged where nothing stands.
pub(crate) fn find_cubes_in(
    pixels: &CubePixels,
    model: &CameraModel,
    profile: &Profile,
    table: &Table,
    tags: &[TagPose],
) -> Result<Vec<FoundCube>, VisionError> {
    let spec = &profile.markers;
    let CubePixels { rect, labels, lamp } = pixels;
    let lamp = *lamp;
    let occupied = occupancy::occupied(rect, model, profile, table, tags)?;
    // The bases' bodies alone: a cube is looked for anywhere else, within the figures'
    // reach too (a tilted camera sees a cube behind a unit inside that reach), and
    // grown into them where it stands against or on a base.
    let solid = occupancy::occupied_up_to(rect, model, profile, table, tags, 0.0)?;
    let classes = spec.classes();
    let (w, h) = rect.size()?;
    let side_px = spec.size_mm * CUBE_PX_PER_MM;
    let min_area = MIN_FREE_SHARE * side_px * side_px;
    let eye = model.camera_centre();
    let nadir = eye.map(|c| Vec2::new(c[0], c[1]));
    // The pixels of any cube colour in 8-connected groups: a blob of one colour (its
    // mask opened, then its connected parts) lies within one group, so each colour is
    // looked at only there, not over the whole table five times.
    let mut labelled = Mat::default();
    opencv::core::compare(labels, &opencv::core::Scalar::all(0.0), &mut labelled, opencv::core::CMP_GT)?;
    let mut free = Mat::default();
    opencv::core::compare(&solid, &opencv::core::Scalar::all(0.0), &mut free, opencv::core::CMP_EQ)?;
    let mut any = Mat::default();
    opencv::core::bitwise_and_def(&labelled, &free, &mut any)?;
    let (mut groups, mut stats, mut cents) = (Mat::default(), Mat::default(), Mat::default());
    let n = opencv::imgproc::connected_components_with_stats_def(&any, &mut groups, &mut stats, &mut cents)?;
    let image = Blobs { rect, labels, occupied: &occupied, solid: &solid, nadir, eye, spec, profile, lamp };
    let mut candidates = Vec::new();
    for g in 1..n {
        let stat = |s: i32| stats.at_2d::<i32>(g, s).copied();
        if f64::from(stat(opencv::imgproc::CC_STAT_AREA)?) < min_area {
            continue;
        }
        // The group's box and one pixel around it (the opening sees it), within the image.
        let x0 = (stat(opencv::imgproc::CC_STAT_LEFT)? - 1).max(0);
        let y0 = (stat(opencv::imgproc::CC_STAT_TOP)? - 1).max(0);
        let x1 = (stat(opencv::imgproc::CC_STAT_LEFT)? + stat(opencv::imgproc::CC_STAT_WIDTH)? + 1).min(w);
        let y1 = (stat(opencv::imgproc::CC_STAT_TOP)? + stat(opencv::imgproc::CC_STAT_HEIGHT)? + 1).min(h);
        let window = opencv::core::Rect::new(x0, y0, x1 - x0, y1 - y0);
        for (k, class) in classes.iter().enumerate() {
            image.look_in(window, &groups, g, k, class, &mut candidates)?;
        }
    }
    // A cube stands alone: little of its colour around it (textured terrain has
    // patches of any colour, but they come in crowds). Other cubes do not crowd it
    // (issue 36: two or three cubes of one colour stand in a row, touching, their
    // tops apart by their shaded sides): the ring is judged without the candidates'
    // own pixels.
    let mut apart = labels.try_clone()?;
    for c in &candidates {
        for &(x, y) in &c.px {
            *apart.at_2d_mut::<u8>(y, x)? = 0;
        }
    }
    let mut found = Vec::new();
    for c in candidates {
        if !crowded(&apart, &occupied, c.label, c.bbox, CUBE_PX_PER_MM)? {
            found.push(c.cube);
        }
    }
    found.sort_by(|a, b| a.centre.x.total_cmp(&b.centre.x).then(a.centre.y.total_cmp(&b.centre.y)));
    Ok(found)
}

/// A blob that looks like a cube, before the crowd around it is judged.
struct Candidate {
    cube: FoundCube,
    /// Its colour's label (1 + class index).
    label: u8,
    /// Its box in the rectified image, px (x, y, width, height).
    bbox: (i32, i32, i32, i32),
    /// Its pixels (image x, y).
    px: Vec<(i32, i32)>,
}

/// The images a blob is judged on.
struct Blobs<'a> {
    rect: &'a Rectified,
    labels: &'a Mat,
    occupied: &'a Mat,
    solid: &'a Mat,
    nadir: Option<Vec2>,
    /// The camera's centre, table mm (z up).
    eye: Option<[f64; 3]>,
    spec: &'a MarkerSpec,
    profile: &'a Profile,
    lamp: Lamp,
}

impl Blobs<'_> {
    /// Finds the cubes of class `k` among the pixels of group `g` (of `groups`) inside
    /// `window`: that colour's mask opened (3 x 3), each connected part judged.
    fn look_in(
        &self,
        window: opencv::core::Rect,
        groups: &Mat,
        g: i32,
        k: usize,
        class: &(MarkerKind, MarkerColour, [u8; 3]),
        found: &mut Vec<Candidate>,
    ) -> Result<(), VisionError> {
        let spec = self.spec;
        let side_px = spec.size_mm * CUBE_PX_PER_MM;
        let top_area = side_px * side_px;
        let label = (k + 1) as u8;
        let mut mask = crate::palette::blank_mask(window.height, window.width)?;
        let mut count = 0usize;
        for r in 0..window.height {
            let lab = &self.labels.at_row::<u8>(window.y + r)?[window.x as usize..][..window.width as usize];
            let grp = &groups.at_row::<i32>(window.y + r)?[window.x as usize..][..window.width as usize];
            let out = mask.at_row_mut::<u8>(r)?;
            for ((o, l), gr) in out.iter_mut().zip(lab).zip(grp) {
                if *l == label && *gr == g {
                    *o = 255;
                    count += 1;
                }
            }
        }
        if (count as f64) < MIN_FREE_SHARE * top_area {
            return Ok(());
        }
        let mut opened = Mat::default();
        let kernel = opencv::imgproc::get_structuring_element_def(
            opencv::imgproc::MORPH_RECT,
            opencv::core::Size::new(3, 3),
        )?;
        opencv::imgproc::morphology_ex_def(&mask, &mut opened, opencv::imgproc::MORPH_OPEN, &kernel)?;
        let (mut comp, mut stats, mut cents) = (Mat::default(), Mat::default(), Mat::default());
        let n =
            opencv::imgproc::connected_components_with_stats_def(&opened, &mut comp, &mut stats, &mut cents)?;
        let refs: Vec<[f64; 3]> = spec.classes().iter().map(|c| c.2.map(f64::from)).collect();
        // The colours the profile says are no cube: its terrain classes' and the bare
        // table's.
        let others: Vec<[f64; 3]> = (self.profile.terrain.iter().map(|t| t.colour))
            .chain(self.profile.colours.ground.iter().copied())
            .map(|c| c.map(f64::from))
            .collect();
        for i in 1..n {
            let area = f64::from(*stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_AREA)?);
            if !(MIN_FREE_SHARE * top_area..=2.5 * MAX_ROW as f64 * top_area).contains(&area) {
                continue;
            }
            let x0 = *stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_LEFT)?;
            let y0 = *stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_TOP)?;
            let bw = *stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_WIDTH)?;
            let bh = *stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_HEIGHT)?;
            let mut px = Vec::new();
            for y in y0..y0 + bh {
                let row = comp.at_row::<i32>(y)?;
                for x in x0..x0 + bw {
                    if row[x as usize] == i {
                        px.push((window.x + x, window.y + y));
                    }
                }
            }
            // Where the blob meets a base's body, its colour may go on over the base:
            // a cube against or half on a base.
            let hidden = self.grown(label, &px)?;
            px.extend(hidden);
            if !(0.4 * top_area..=2.5 * MAX_ROW as f64 * top_area).contains(&(px.len() as f64)) {
                continue;
            }
            let bbox = (window.x + x0, window.y + y0, bw, bh);
            let to_table = |&(x, y): &(i32, i32)| self.rect.to_table([f64::from(x), f64::from(y)]);
            let shown: Vec<Vec2> = px.iter().map(to_table).collect();
            // A cube's top is a filled square of its colour (with its sides, a little
            // longer one way); a patch of terrain is ragged. Where figures stand in
            // front of a cube (one half on a base), what shows is the square less
            // their shapes: its hull is the square, most of it showing.
            // Two or three cubes of one colour in a row, touching or a little apart
            // (issue 36), are one blob a cube wide and two or three long: each is its
            // own cube. Beside figures (a rank of black hats is such a row) each must
            // show a whole top of its colour. One cube may show more of its sides and
            // shadow than a square allows: its top, found, must show whole.
            let beside = || self.beside_figures(&px);
            let shapes = if square_enough(&shown, spec.size_mm, CUBE_PX_PER_MM)? {
                vec![shown]
            } else if let Some(parts) = self.row(&shown, label, beside()?)? {
                parts
            } else if self.one_top(&shown, label)? {
                vec![shown]
            } else if let Some(parts) = self.row_of_tops(&px, label)? {
                parts
            } else if beside()? {
                let hull = hull_pixels(&px)?;
                let square: Vec<Vec2> = hull.iter().map(to_table).collect();
                if (px.len() as f64) < MIN_SHOWN_OF_HULL * hull.len() as f64
                    || !square_enough(&square, spec.size_mm, CUBE_PX_PER_MM)?
                {
                    continue;
                }
                vec![square]
            } else {
                continue;
            };
            // Its colour is that of most of its pixels: a mean would take in its edges,
            // blended with the ground and the shaded sides by blur and the JPEG's
            // halved colour resolution (on the second renderer's photos the median
            // finds one cube more than the mean, of 158).
            // A top that catches the lamp's highlight is judged on its paint, the
            // highlight taken off.
            let seen = median_colour(&self.rect.image, &px)?;
            let mean = self.lamp.unlit(seen, refs[k]).unwrap_or(seen);
            let colour_distance = nearest(&refs, mean).map_or(f64::INFINITY, |(_, d)| d);
            // A shadow keeps the hue of the ground it falls on: the blob's hue is that
            // of its class's paint under the light (and at the saturation) that brings
            // the paint nearest it.
            // Nor is it a patch of terrain whose declared colour, under its light and at
            // its saturation, is nearer than any cube's paint (a road beside natural
            // wooden cubes).
            let terrain_distance = nearest(&others, seen).map_or(f64::INFINITY, |(_, d)| d);
            if colour_distance > spec.tolerance / 2.0
                || terrain_distance < colour_distance
                || hue_distance(mean, paint_under(mean, refs[k])) > spec.tolerance / 4.0
                || hue_angle(mean, refs[k], spec.tolerance).is_some_and(|a| a > MAX_HUE_DEG)
            {
                continue;
            }
            let centres: Option<Vec<Vec2>> =
                shapes.iter().map(|shape| cube_top(shape, self.nadir, spec.size_mm)).collect();
            let Some(centres) = centres else { continue };
            let inset = spec.size_mm / 2.0 + 1.0;
            for centre in centres {
                if !self.profile.on_table(centre, -inset) {
                    continue; // the floor beyond the table's edge
                }
                let cube = FoundCube { kind: class.0, colour: class.1, centre, colour_distance };
                found.push(Candidate { cube, label, bbox, px: px.clone() });
            }
        }
        Ok(())
    }

    /// The pixels (image x, y) on the bases' bodies (`solid`) of colour `label` joined
    /// to the blob `seeds` (image x, y), 8-connected, within a cube's side of the
    /// blob's box: the part of a cube standing against or half on a base that lies
    /// over the base.
    fn grown(&self, label: u8, seeds: &[(i32, i32)]) -> Result<Vec<(i32, i32)>, VisionError> {
        let (Some(x0), Some(y0)) = (seeds.iter().map(|p| p.0).min(), seeds.iter().map(|p| p.1).min()) else {
            return Ok(Vec::new());
        };
        let x1 = seeds.iter().map(|p| p.0).max().unwrap_or(x0);
        let y1 = seeds.iter().map(|p| p.1).max().unwrap_or(y0);
        let reach = (self.spec.size_mm * CUBE_PX_PER_MM).ceil() as i32;
        let size = self.labels.size()?;
        let (lx, ly) = ((x0 - reach).max(0), (y0 - reach).max(0));
        let (hx, hy) = ((x1 + 1 + reach).min(size.width), (y1 + 1 + reach).min(size.height));
        let ww = (hx - lx).max(0) as usize;
        let mut seen = vec![false; ww * (hy - ly).max(0) as usize];
        let mut queue = std::collections::VecDeque::new();
        for &(x, y) in seeds {
            seen[(y - ly) as usize * ww + (x - lx) as usize] = true;
            queue.push_back((x, y));
        }
        let mut out = Vec::new();
        while let Some((x, y)) = queue.pop_front() {
            for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                let (nx, ny) = (x + dx, y + dy);
                if nx < lx || ny < ly || nx >= hx || ny >= hy {
                    continue;
                }
                let k = (ny - ly) as usize * ww + (nx - lx) as usize;
                if seen[k] {
                    continue;
                }
                seen[k] = true;
                if *self.solid.at_2d::<u8>(ny, nx)? != 0 && *self.labels.at_2d::<u8>(ny, nx)? == label {
                    out.push((nx, ny));
                    queue.push_back((nx, ny));
                }
            }
        }
        Ok(out)
    }

    /// The cubes of a row (the blob's points `pts`, table mm, of colour `label`), or
    /// `None` when it is none ([`rows_of_cubes`]): of the counts its length allows,
    /// the one nearest a row of touching cubes whose every part has a cube's top
    /// ([`cube_top`]) and, `beside` figures, whose every top shows whole
    /// ([`Blobs::top_shows`]).
    fn row(&self, pts: &[Vec2], label: u8, beside: bool) -> Result<Option<Vec<Vec<Vec2>>>, VisionError> {
        let side = self.spec.size_mm;
        'counts: for parts in rows_of_cubes(pts, side, CUBE_PX_PER_MM)? {
            let mut tops: Vec<Vec2> = Vec::new();
            for part in &parts {
                match cube_top(part, self.nadir, side) {
                    // Cubes do not stand in one another: the tops of neighbours are a
                    // side apart at least (a tenth off for the error of each).
                    Some(c)
                        if tops.last().is_none_or(|p| p.distance(c) >= MIN_TOPS_APART * side)
                            && (!beside || self.top_shows(c, label)?) =>
                    {
                        tops.push(c);
                    }
                    _ => continue 'counts,
                }
            }
            return Ok(Some(parts));
        }
        Ok(None)
    }

    /// The tops of a row of cubes seen obliquely (issue 36: a pair seen across the
    /// diagonal at a tilt of 20-28°, their sides 9 mm long on the tops' plane, makes a
    /// blob 15-18 mm wide and 25-28 long that no count of touching cubes fits): the
    /// blob `px` (image x, y, of colour `label`) less its cubes' sides, each a cube's
    /// top and, when it is a row ([`rows_of_cubes`]), each part's top showing whole
    /// ([`Blobs::top_shows`]) and a side from the next. `None` when it is none, or
    /// without the camera's centre.
    ///
    /// On the tops' plane a cube's sides are its top swept toward the camera's nadir by
    /// the parallax of its height, `side x D / H` (`D` the top's distance from the
    /// nadir, `H` the camera's height): a point of a top is one whose point that far
    /// toward the nadir is of the blob too, a point of a side is not.
    fn row_of_tops(&self, px: &[(i32, i32)], label: u8) -> Result<Option<Vec<Vec<Vec2>>>, VisionError> {
        let side = self.spec.size_mm;
        let area = (side * CUBE_PX_PER_MM).powi(2);
        if (px.len() as f64) < 2.0 * MIN_TOP_SHARE * area {
            return Ok(None);
        }
        let to_table = |&(x, y): &(i32, i32)| self.rect.to_table([f64::from(x), f64::from(y)]);
        let shown: Vec<Vec2> = px.iter().map(to_table).collect();
        let centroid = shown.iter().fold(Vec2::ZERO, |a, p| a + *p) / shown.len() as f64;
        let Some(sweep) = self.sweep(centroid) else {
            return Ok(None);
        };
        let tops = unswept(&shown, sweep, CUBE_PX_PER_MM);
        if (tops.len() as f64) < 2.0 * MIN_TOP_SHARE * area {
            return Ok(None);
        }
        'counts: for parts in rows_of_cubes(&tops, side, CUBE_PX_PER_MM)? {
            let mut centres: Vec<Vec2> = Vec::new();
            for part in &parts {
                match cube_top(part, None, side) {
                    Some(c)
                        if centres.last().is_none_or(|p| p.distance(c) >= MIN_TOPS_APART * side)
                            && self.top_shows(c, label)? =>
                    {
                        centres.push(c);
                    }
                    _ => continue 'counts,
                }
            }
            return Ok(Some(parts));
        }
        Ok(None)
    }

    /// The sweep of a cube's sides standing at `at` (table mm on the tops' plane): its
    /// top swept toward the camera's nadir by the parallax of its height, `side x D /
    /// H` ([`Blobs::row_of_tops`]), pointing away from the nadir. `None` without the
    /// camera's centre, or within a side of its nadir.
    fn sweep(&self, at: Vec2) -> Option<Vec2> {
        let side = self.spec.size_mm;
        let eye = self.eye?;
        let out = at - Vec2::new(eye[0], eye[1]);
        if eye[2] <= side || out.length() < side {
            return None;
        }
        Some(out / out.length() * (side * out.length() / eye[2]))
    }

    /// True when the blob's points `pts` (table mm, of colour `label`) are one cube
    /// whose top shows whole ([`Blobs::top_shows`]) with more of its sides or shadow
    /// toward the camera than [`square_enough`] allows: one cube wide (0.7 to 1.7
    /// sides), at most [`MAX_SEEN_SIDES`] long, its top where [`cube_top`] finds it,
    /// filling 72% of its rectangle or, seen obliquely, within what the cube shows
    /// ([`Blobs::within_sides`]).
    fn one_top(&self, pts: &[Vec2], label: u8) -> Result<bool, VisionError> {
        let side = self.spec.size_mm;
        let (_, a, b, fill) = blob_rect(pts, CUBE_PX_PER_MM)?;
        let (lo, hi) = (a.min(b), a.max(b));
        if lo < 0.7 * side || lo > 1.7 * side || hi > MAX_SEEN_SIDES * side {
            return Ok(false);
        }
        match cube_top(pts, self.nadir, side) {
            Some(c) if fill >= 0.72 || self.within_sides(pts, c) => self.top_shows(c, label),
            _ => Ok(false),
        }
    }

    /// True when a cube whose top is centred at `c` (table mm on the tops' plane) is
    /// seen obliquely (its sides swept [`Blobs::sweep`] [`OBLIQUE_SIDES`] at least) and the
    /// blob's points `pts` lie within what it shows, whatever its turn: at most
    /// [`OUTSIDE_SIDES`] of them farther than the top's half diagonal (and a pixel)
    /// from the segment its centre sweeps toward the camera's nadir. A cube seen
    /// obliquely whose darker sides show only in part fills less of its rectangle than
    /// [`Blobs::one_top`] asks of a blob (issue 36: a red cube 1.17 m from the nadir of
    /// a camera 1.18 m high, its sides swept 9.4 mm across its diagonal, filled 64%).
    fn within_sides(&self, pts: &[Vec2], c: Vec2) -> bool {
        let side = self.spec.size_mm;
        let Some(sweep) = self.sweep(c).filter(|s| s.length() >= OBLIQUE_SIDES * side) else {
            return false;
        };
        let reach = side / std::f64::consts::SQRT_2 + 1.0 / CUBE_PX_PER_MM;
        let foot = c - sweep;
        let off = |p: Vec2| {
            let t = ((p - foot).dot(sweep) / sweep.dot(sweep)).clamp(0.0, 1.0);
            p.distance(foot + sweep * t)
        };
        let outside = pts.iter().filter(|p| off(**p) > reach).count();
        (outside as f64) <= OUTSIDE_SIDES * pts.len() as f64
    }

    /// True when the disc inscribed in a cube's top centred at `c` (table mm on the
    /// tops' plane), whatever the cube's turn, is at least [`TOP_SHOWN`] of colour
    /// `label`.
    fn top_shows(&self, c: Vec2, label: u8) -> Result<bool, VisionError> {
        let [cx, cy] = self.rect.to_px(c);
        let r = self.spec.size_mm / 2.0 * CUBE_PX_PER_MM - 1.0;
        let size = self.labels.size()?;
        let (mut same, mut all) = (0usize, 0usize);
        for y in (cy - r).floor() as i32..=(cy + r).ceil() as i32 {
            for x in (cx - r).floor() as i32..=(cx + r).ceil() as i32 {
                if (f64::from(x) - cx).hypot(f64::from(y) - cy) > r {
                    continue;
                }
                all += 1;
                if x >= 0
                    && y >= 0
                    && x < size.width
                    && y < size.height
                    && *self.labels.at_2d::<u8>(y, x)? == label
                {
                    same += 1;
                }
            }
        }
        Ok(all > 0 && same as f64 >= TOP_SHOWN * all as f64)
    }

    /// True when a pixel of the blob `px` (image x, y) is in or next to the occupied
    /// mask: figures may stand in front of it.
    fn beside_figures(&self, px: &[(i32, i32)]) -> Result<bool, VisionError> {
        let size = self.occupied.size()?;
        for &(x, y) in px {
            for (dx, dy) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (nx, ny) = (x + dx, y + dy);
                if nx >= 0
                    && ny >= 0
                    && nx < size.width
                    && ny < size.height
                    && *self.occupied.at_2d::<u8>(ny, nx)? != 0
                {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// The pixels (image x, y) inside the convex hull of `px`.
fn hull_pixels(px: &[(i32, i32)]) -> Result<Vec<(i32, i32)>, VisionError> {
    let (Some(x0), Some(y0)) = (px.iter().map(|p| p.0).min(), px.iter().map(|p| p.1).min()) else {
        return Ok(Vec::new());
    };
    let (x1, y1) = (px.iter().map(|p| p.0).max().unwrap_or(x0), px.iter().map(|p| p.1).max().unwrap_or(y0));
    let pts: Vector<opencv::core::Point> =
        px.iter().map(|&(x, y)| opencv::core::Point::new(x - x0, y - y0)).collect();
    let mut hull: Vector<opencv::core::Point> = Vector::new();
    opencv::imgproc::convex_hull_def(&pts, &mut hull)?;
    let mut mask = crate::palette::blank_mask(y1 - y0 + 1, x1 - x0 + 1)?;
    opencv::imgproc::fill_convex_poly_def(&mut mask, &hull, opencv::core::Scalar::all(255.0))?;
    let mut out = Vec::new();
    for r in 0..=(y1 - y0) {
        for (c, v) in mask.at_row::<u8>(r)?.iter().enumerate() {
            if *v != 0 {
                out.push((x0 + c as i32, y0 + r));
            }
        }
    }
    Ok(out)
}

/// A cube that figures stand in front of is taken when this share of its blob's
/// convex hull shows its colour.
const MIN_SHOWN_OF_HULL: f64 = 0.6;

/// A blob of a cube's colour is looked at when at least this share of a cube's top
/// shows off the bases' bodies (the rest may be grown over a base).
const MIN_FREE_SHARE: f64 = 0.2;

/// The ring around a blob's box: from this far outside it to the outer value, mm.
const RING_MM: (f64, f64) = (3.0, 8.0);
/// A blob is crowded when more than this share of its free ring has its colour.
const CROWDED: f64 = 0.1;

/// True when the free pixels of the ring around the box `(x, y, w, h)` (px) are more
/// than [`CROWDED`] of `label`.
fn crowded(
    labels: &Mat,
    occupied: &Mat,
    label: u8,
    (x, y, w, h): (i32, i32, i32, i32),
    px_per_mm: f64,
) -> Result<bool, VisionError> {
    let size = labels.size()?;
    let (m1, m2) = ((RING_MM.0 * px_per_mm).round() as i32, (RING_MM.1 * px_per_mm).round() as i32);
    let (mut same, mut all) = (0usize, 0usize);
    for r in (y - m2).max(0)..(y + h + m2).min(size.height) {
        let lab = labels.at_row::<u8>(r)?;
        let occ = occupied.at_row::<u8>(r)?;
        let inner_row = r >= y - m1 && r < y + h + m1;
        for c in (x - m2).max(0)..(x + w + m2).min(size.width) {
            if inner_row && c >= x - m1 && c < x + w + m1 {
                continue;
            }
            let c = c as usize;
            if occ[c] != 0 {
                continue;
            }
            all += 1;
            if lab[c] == label {
                same += 1;
            }
        }
    }
    Ok(all > 0 && same as f64 > CROWDED * all as f64)
}

/// True when the blob's points (table mm, `px_per_mm` apart) fill at least 72% of
/// their smallest enclosing rectangle, whose sides are 0.7 to 1.7 cube sides and within
/// 1.5 of each other. (A cube's top alone fills 90% or more; with the sides a tilted
/// camera sees, turned against the view, about 75%.)
fn square_enough(pts: &[Vec2], side: f64, px_per_mm: f64) -> Result<bool, VisionError> {
    let (_, a, b, fill) = blob_rect(pts, px_per_mm)?;
    let (lo, hi) = (a.min(b), a.max(b));
    Ok(fill >= 0.72 && lo >= 0.7 * side && hi <= 1.7 * side && hi <= 1.5 * lo)
}

/// The smallest rectangle enclosing a blob's points (table mm, `px_per_mm` apart): the
/// rectangle, its two sides (`width`, `height`) with the pixel grid's share (each point
/// stands for a pixel whose centre it is), mm, and the share of it the points fill.
fn blob_rect(
    pts: &[Vec2],
    px_per_mm: f64,
) -> Result<(opencv::core::RotatedRect, f64, f64, f64), VisionError> {
    let cv: Vector<opencv::core::Point2f> =
        pts.iter().map(|p| opencv::core::Point2f::new(p.x as f32, p.y as f32)).collect();
    let r = opencv::imgproc::min_area_rect(&cv)?;
    let (a, b) = (f64::from(r.size.width) + 1.0 / px_per_mm, f64::from(r.size.height) + 1.0 / px_per_mm);
    let fill = pts.len() as f64 / (px_per_mm * px_per_mm) / (a * b);
    Ok((r, a, b, fill))
}

/// The most cubes of one colour standing in a row that are told apart.
const MAX_ROW: usize = 3;

/// A blob (its points, table mm, `px_per_mm` apart) that may be a row of two or three
/// cubes of side `side`, touching or up to [`ROW_GAP`] sides apart: one cube wide (0.7
/// to 1.7 sides, the sides a tilted camera sees included), as long as that many cubes
/// (within a third of a side, plus the gaps, plus the half side those seen sides may
/// add), and filling at least 65% of its smallest enclosing rectangle (a single
/// cube's 72% less the seams where the cubes touch, their edges rounded and shaded: a
/// rendered pair of red cubes fills 70%). For each count its length allows, nearest a
/// row of touching cubes first (a quarter side of sides seen), its points in as many
/// equal slices along the row, each a cube; none for anything else (one cube
/// included: [`square_enough`]).
fn rows_of_cubes(pts: &[Vec2], side: f64, px_per_mm: f64) -> Result<Vec<Vec<Vec<Vec2>>>, VisionError> {
    let (r, a, b, fill) = blob_rect(pts, px_per_mm)?;
    let (lo, hi) = (a.min(b), a.max(b));
    if fill < 0.65 || lo < 0.7 * side || lo > 1.7 * side {
        return Ok(Vec::new());
    }
    let mut counts: Vec<usize> = (2..=MAX_ROW)
        .filter(|&n| {
            let n = n as f64;
            (n * side - side / 3.0..=n * side + (n - 1.0) * ROW_GAP * side + side / 2.0 + side / 3.0)
                .contains(&hi)
        })
        .collect();
    counts.sort_by(|&m, &n| {
        let off = |n: usize| (hi - (n as f64 * side + side / 4.0)).abs();
        off(m).total_cmp(&off(n))
    });
    // The long axis: the rectangle's angle is that of its `width` side.
    let t = f64::from(r.angle).to_radians();
    let mut u = Vec2::new(t.cos(), t.sin());
    if b > a {
        u = Vec2::new(-u.y, u.x);
    }
    let c = Vec2::new(f64::from(r.center.x), f64::from(r.center.y));
    Ok(counts
        .into_iter()
        .filter_map(|n| {
            let mut parts = vec![Vec::new(); n];
            for p in pts {
                let along = (*p - c).dot(u) + hi / 2.0;
                let k = ((along / hi * n as f64).floor().max(0.0) as usize).min(n - 1);
                parts[k].push(*p);
            }
            parts.iter().all(|q| !q.is_empty()).then_some(parts)
        })
        .collect())
}

/// The widest gap between cubes standing in a row, in sides: on the second renderer's
/// photos (issue 36) rows of cubes stand with centres 11-13 mm apart, gaps of up to
/// 3.5 mm (0.37 of a side) that their shaded sides and shadows fill.
const ROW_GAP: f64 = 0.4;

/// The longest blob of one cube with its sides and shadow, in sides (its top
/// included): on the second renderer's photos single black cubes whose sides and
/// shadow join their top make blobs 16.3-16.8 mm long (1.7-1.8 sides, issue 36).
const MAX_SEEN_SIDES: f64 = 2.0;

/// The points of a blob (table mm, on a grid `px_per_mm` apart) whose point `sweep`
/// away is of the blob too: the tops of cubes whose sides, seen obliquely, sweep them
/// by `-sweep` ([`Blobs::row_of_tops`]).
fn unswept(pts: &[Vec2], sweep: Vec2, px_per_mm: f64) -> Vec<Vec2> {
    let cell = |p: Vec2| ((p.x * px_per_mm).floor() as i64, (p.y * px_per_mm).floor() as i64);
    let cells: Vec<(i64, i64)> = pts.iter().map(|p| cell(*p)).collect();
    let (Some(x0), Some(y0)) = (cells.iter().map(|c| c.0).min(), cells.iter().map(|c| c.1).min()) else {
        return Vec::new();
    };
    let x1 = cells.iter().map(|c| c.0).max().unwrap_or(x0);
    let y1 = cells.iter().map(|c| c.1).max().unwrap_or(y0);
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let mut blob = vec![false; (w * h) as usize];
    for (x, y) in &cells {
        blob[((y - y0) * w + (x - x0)) as usize] = true;
    }
    let within = |(x, y): (i64, i64)| (x0..=x1).contains(&x) && (y0..=y1).contains(&y);
    pts.iter()
        .copied()
        .filter(|p| {
            let c = cell(*p - sweep);
            within(c) && blob[((c.1 - y0) * w + (c.0 - x0)) as usize]
        })
        .collect()
}

/// A row of tops seen obliquely ([`Blobs::row_of_tops`]) is looked at when its tops
/// fill at least this share of a cube's top each, two at least.
const MIN_TOP_SHARE: f64 = 0.6;

/// A cube is seen obliquely when its sides sweep it by this many sides at least
/// ([`Blobs::within_sides`]): the shape tests' fill (72%) holds for sides of up to a
/// quarter side seen ([`square_enough`]); taken from a quarter side, on our renders
/// (`tests/scan/scan_surface.rs`, `cubes_are_found_under_other_exposures_and_light` at -1
/// EV) a black blob beside a unit's rear where no cube stands, its sides swept 3.7 mm,
/// was taken for a cube.
const OBLIQUE_SIDES: f64 = 0.5;

/// The share of a blob's points that may lie outside what a cube seen obliquely shows
/// ([`Blobs::within_sides`]): the edges' blur and the JPEG's halved colour resolution
/// spread a blob by a pixel or so beyond the silhouette.
const OUTSIDE_SIDES: f64 = 0.05;

/// The least distance between the tops of neighbouring cubes in a row, in sides:
/// cubes do not stand in one another (a tenth off for the error of each). A single
/// cube with its sides and shadow is as long as two touching cubes without theirs;
/// split in two, its halves' tops are 8 mm apart.
const MIN_TOPS_APART: f64 = 0.9;

/// A cube beside figures (or showing more than a square of itself) is taken when
/// this share of the disc inscribed in its top shows its colour: on the second
/// renderer's photos the tops of such cubes show 0.98-1.00 of theirs; on our renders
/// (`tests/scan/scan_surface.rs`) the blobs beside figures that are no cube, cut into
/// cube-sized parts, 0.75-0.79 (issue 36).
const TOP_SHOWN: f64 = 0.9;

/// The largest highlight a cube's top may catch: the linear light of the lamp added to
/// its paint's (0-1: 1 is white). Measured on the second renderer's photos (issue 36),
/// their area lamp mirrored in the cubes' tops: red tops reading pink and yellow ones
/// pale carry 0.03-0.16 over their paint (under 0.92-1.1 of the paper's light), while
/// the colours a highlight could otherwise make of a paint need more: a figure's skin
/// is a red under 0.84 of the light plus 0.39, a pink cloth a red under 0.56 plus 0.31,
/// sand or a wooden house a yellow under 0.31-0.41 plus 0.14-0.23 (refused on their
/// light first).
const HIGHLIGHT: f64 = 0.25;

/// The highlight table's cells: the top bits of each channel kept (5: 8 code values
/// a cell, 32768 cells).
const HIGHLIGHT_CELL_BITS: u32 = 3;

/// A cell whose hue is farther than this from a paint's is not that paint highlighted,
/// degrees: a blob must be within [`MAX_HUE_DEG`] of it once the highlight is taken
/// off, and the highlighted red and yellow tops of the second renderer's photos are
/// within 5° of their paints' hue as seen.
const CELL_HUE_DEG: f64 = 20.0;

/// For each colour cell (R, G, B, each its code value shifted right by
/// [`HIGHLIGHT_CELL_BITS`]), the label (1 + class index) of the coloured paint it is,
/// at its centre, with a highlight taken off ([`Lamp::unlit`]) and within `tolerance`,
/// or of the black it is, its grey taken off ([`Lamp::unlit_black`]), or of the white it
/// is, lit more than the paper ([`Lamp::unlit_white`]); 0 for none. The cells are a few
/// code values wide: the label only gathers a blob's pixels,
/// the blob's own colour is then judged exactly.
fn highlight_table(classes: &[(MarkerKind, MarkerColour, [u8; 3])], tolerance: f64, lamp: Lamp) -> Vec<u8> {
    let bits = 8 - HIGHLIGHT_CELL_BITS;
    let n = 1usize << bits;
    let half = f64::from(1u32 << HIGHLIGHT_CELL_BITS) / 2.0 - 0.5;
    let mut table = vec![0u8; n * n * n];
    for (i, cell) in table.iter_mut().enumerate() {
        let at = |shift: u32| ((i >> shift) & (n - 1)) as f64 * f64::from(1u32 << HIGHLIGHT_CELL_BITS) + half;
        let rgb = [at(2 * bits), at(bits), at(0)];
        let best = classes
            .iter()
            .enumerate()
            .filter_map(|(k, c)| {
                let paint = c.2.map(f64::from);
                match hue_angle(rgb, paint, HUE_MIN_CHROMA) {
                    // A black top is a grey, its cast within half the tolerance (a cell
                    // is 8 code values wide: the blob's own colour is judged exactly).
                    // Its grey taken off, a colour is at least its channels' spread over
                    // the square root of two from the black's grey: a spread over the
                    // tolerance is out of half of it (most cells: no light to read).
                    None => {
                        let spread = rgb.iter().copied().fold(f64::MIN, f64::max)
                            - rgb.iter().copied().fold(f64::MAX, f64::min);
                        if spread > tolerance {
                            return None;
                        }
                        lamp.unlit_black(rgb, paint)
                            .or_else(|| lamp.unlit_white(rgb, paint, tolerance))
                            .map(|u| (k, distance(u, paint_under(u, paint))))
                            .filter(|(_, d)| *d <= tolerance / 2.0)
                    }
                    // A highlight of the paper's colour hardly turns a hue: cells far
                    // from the paint's are not worth the fit (a few powers each, 32768
                    // cells).
                    Some(a) if a > CELL_HUE_DEG => None,
                    Some(_) => lamp.unlit(rgb, paint).map(|u| (k, distance(u, paint_under(u, paint)))),
                }
            })
            .filter(|(_, d)| *d <= tolerance)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((k, _)) = best {
            *cell = k as u8 + 1;
        }
    }
    table
}

/// The lamp whose highlight a cube's top may catch, as the corrected photo shows it.
#[derive(Debug, Clone, Copy)]
struct Lamp {
    /// Its colour: after the colour correction, the fiducials' paper's (a white paper
    /// shows the lamp's colour; on the second renderer's photos a neutral grey taken off
    /// left red tops' hue 3-6° off their paint's, the paper's colour 0.4-1.6°).
    paper: [u8; 3],
    /// The photo's code values read as sRGB (a phone's photo: light is their decoding)
    /// from the fiducials' borders; else as light themselves (a linear photo:
    /// vedette-synth's, or the borders did not tell).
    srgb: bool,
    /// The most light a top may take over what the fiducials' plane of light gives its
    /// place, as a factor on light ([`pool_light`]).
    pool: f64,
}

impl Lamp {
    /// The colour `rgb` (corrected code values, R G B) with the lamp's highlight taken
    /// off, as a top painted `paint` would show without it: in light, `rgb` is the paint
    /// under a light within [`SHADE`] plus the lamp's own light, of at most
    /// [`HIGHLIGHT`] (least squares), which is taken off. `None` when that does not hold
    /// (no highlight, too much of one, or a light outside [`SHADE`]), and for a paint
    /// without a hue (white, black: the lamp's light added to a grey is another grey,
    /// not a highlight told apart from the paint).
    ///
    /// Light is the code values decoded as the photo's encoding was read, or failing
    /// that, the other way: the reading is not always sure (tagged-301 of the second
    /// renderer, a JPEG, reads as linear; its highlighted red tops are the paint plus
    /// the lamp in sRGB-decoded light, 3 of them found only so), and a highlight taken
    /// off must leave the paint either way.
    fn unlit(&self, rgb: [f64; 3], paint: [f64; 3]) -> Option<[f64; 3]> {
        if hue_angle(rgb, paint, HUE_MIN_CHROMA).is_none() {
            return self.unlit_black(rgb, paint);
        }
        self.unlit_as(rgb, paint, self.srgb).or_else(|| self.unlit_as(rgb, paint, !self.srgb))
    }

    /// A black top as its paint would show without the light it gives back: `rgb` with
    /// its grey brought to the paint's (its colour cast kept, for the hue test to
    /// judge), when `paint` and `rgb` are both black, at most [`BLACK_LIGHT`] of the
    /// paper's light. `None` for a paint or a colour lighter than that.
    ///
    /// A black has no hue to tell a highlight from a lighter black paint by, and black
    /// paints are not one black: a top reads anywhere from the printed ink to a
    /// tenth of the paper's light (issue 36). Light is read in the photo's encoding
    /// only: a linear photo's grey read as sRGB would be a third of the paper's light
    /// (on our renders, dark figures' shadows beside the bases, which are linear,
    /// were taken for black cubes that way).
    fn unlit_black(&self, rgb: [f64; 3], paint: [f64; 3]) -> Option<[f64; 3]> {
        let dark = |c: [f64; 3], srgb: bool| {
            let lin = |v: f64| if srgb { crate::fiducials::srgb_to_linear(v) / 255.0 } else { v / 255.0 };
            let light = |c: [f64; 3]| c.iter().map(|v| lin(*v)).sum::<f64>() / 3.0;
            light(c) <= BLACK_LIGHT * light(self.paper.map(f64::from))
        };
        if !(dark(paint, self.srgb) && dark(rgb, self.srgb)) {
            return None;
        }
        let grey = |c: [f64; 3]| c.iter().sum::<f64>() / 3.0;
        let shift = grey(rgb) - grey(paint);
        Some(rgb.map(|v| (v - shift).max(0.0)))
    }

    /// A white top lit more than the fiducials' paper, as its paint would show under the
    /// paper's light: `rgb` scaled to the paint's grey, when `paint` is a white (within
    /// `tolerance` of the paper on every channel) and `rgb` is at least as light as the
    /// paper on every channel, with the paper's hue (its (R - G, B - G) differences
    /// within a quarter of `tolerance` of the paper's at that light). `None` else.
    ///
    /// A white top stands a cube's height nearer the lamp than the paper and may catch
    /// its highlight: lit more than [`SHADE`] allows, it reads over the paper and clips
    /// (issue 36: on the second renderer's tagged-304 two white tops read (255, 255,
    /// 236-250) once corrected, out of the white's tolerance, only their rims labelled).
    /// A clipped channel tells only that the light was at least that: the paper, the
    /// photo's own white, is what such a top is judged against, not the paint's value.
    fn unlit_white(&self, rgb: [f64; 3], paint: [f64; 3], tolerance: f64) -> Option<[f64; 3]> {
        let paper = self.paper.map(f64::from);
        if (0..3).any(|i| (paint[i] - paper[i]).abs() > tolerance || rgb[i] < paper[i]) {
            return None;
        }
        let grey = |c: [f64; 3]| c.iter().sum::<f64>() / 3.0;
        let lit = paper.map(|v| v * grey(rgb) / grey(paper));
        if hue_distance(rgb, lit) > tolerance / 4.0 {
            return None;
        }
        Some(rgb.map(|v| v * grey(paint) / grey(rgb)))
    }

    /// [`Lamp::unlit`] with the code values read as sRGB (`srgb`) or as light.
    fn unlit_as(&self, rgb: [f64; 3], paint: [f64; 3], srgb: bool) -> Option<[f64; 3]> {
        let lin = |c: [f64; 3]| {
            c.map(|v| if srgb { crate::fiducials::srgb_to_linear(v) / 255.0 } else { v / 255.0 })
        };
        let (p, q) = (lin(rgb), lin(paint));
        let lamp = lin(self.paper.map(f64::from));
        let top = lamp.iter().copied().fold(0.0, f64::max);
        if top <= 0.0 {
            return None;
        }
        let lamp = lamp.map(|v| v / top);
        // Least squares of p = a q + s lamp, on the channels not clipped: a clipped one
        // (our renderer's yellow tops under a highlight of 0.12 read 255 in red) says
        // only that the light there is at least that (the fit must reach it, within 2%
        // of white); with two clipped, nothing is told.
        let clipped: [bool; 3] = std::array::from_fn(|i| rgb[i] >= CLIPPED);
        if clipped.iter().filter(|c| **c).count() > 1 {
            return None;
        }
        let dot =
            |u: [f64; 3], v: [f64; 3]| (0..3).filter(|&i| !clipped[i]).map(|i| u[i] * v[i]).sum::<f64>();
        let (qq, ql, ll, qp, lp) = (dot(q, q), dot(q, lamp), dot(lamp, lamp), dot(q, p), dot(lamp, p));
        let det = qq * ll - ql * ql;
        if det.abs() < 1e-12 {
            return None;
        }
        let a = (qp * ll - lp * ql) / det;
        let s = (lp * qq - qp * ql) / det;
        // The light as a factor on light: SHADE is on sRGB code values. Under a lamp's
        // pool a top may take more light than SHADE allows, up to the pool's; that
        // excess is taken off with the highlight, leaving the paint under SHADE's most.
        let (lo, hi) = if srgb { (SHADE.0.powf(2.2), SHADE.1.powf(2.2)) } else { SHADE };
        if !(s > 0.0 && s <= HIGHLIGHT && (lo..=hi.max(self.pool)).contains(&a))
            || (0..3).any(|i| clipped[i] && a * q[i] + s * lamp[i] < p[i] - 0.02)
        {
            return None;
        }
        let pooled = (a / hi).max(1.0);
        let unlit = |i: usize| {
            let v = if clipped[i] { a * q[i] } else { p[i] - s * lamp[i] } / pooled;
            if srgb { crate::photo_colour::linear_to_srgb(v) } else { 255.0 * v.clamp(0.0, 1.0) }
        };
        Some(std::array::from_fn(unlit))
    }
}

/// The most light a cube's top may take over what the plane of light fitted through the
/// fiducials' paper ([`crate::palette::ColourCorrection`]) gives its place, as a factor on
/// light: a lamp as low as the profile's `[colours] lamp_height_mm` allows (1.5 m by
/// default) over the middle of the fiducials, direct light alone
/// (no room light to soften its pool: the worst case). Its light on the table falls off
/// as the cube of the cosine of its angle (inverse square and the slant), so its pool
/// under it is `(1 + (r / h)^2)^1.5` of what the fiducials `r` from the middle take (a
/// plane through them gives the middle no more), and a top one cube side `s` nearer it
/// takes `(h / (h - s))^2` more again. On a 6'x4' table with fiducials 50 mm in from
/// its corners, 1.80 (a factor of 1.31 on sRGB code values); vedette-synth's nearby
/// lamp (`tests/scan/scan_surface.rs`, `cubes_under_a_nearby_lamp_are_found`) measures its
/// case. The second renderer's red tops under its lamps (issue 36) needed up to 1.25.
fn pool_light(profile: &Profile) -> f64 {
    let marks = &profile.fiducials.markers;
    let n = marks.len().max(1) as f64;
    let mid = marks.iter().fold(Vec2::ZERO, |a, m| a + Vec2::new(m.x_mm, m.y_mm)) / n;
    let r = marks.iter().map(|m| Vec2::new(m.x_mm, m.y_mm).distance(mid)).fold(0.0, f64::max);
    let h = profile.colours.lamp_height_mm;
    (1.0 + (r / h).powi(2)).powf(1.5) * (h / (h - profile.markers.size_mm).max(1.0)).powi(2)
}

/// The most light a black cube's top may give back, as a share of the fiducials'
/// paper's (light: sRGB decoded): black paints give back some 3-8% where white paper
/// gives back 80-90%, and a lamp mirrored in a black top adds a grey that no hue tells
/// from a lighter black. Measured: the second renderer's black tops read 0.005-0.075
/// of their photo's paper (issue 36: read from the photos at their true places, against
/// the fiducials' paper), ours 0.075 (vedette-synth's black paint, 0.07, under its
/// paper's 0.93); a shadow keeps the hue of the ground it falls on, which the hue test
/// then refuses.
const BLACK_LIGHT: f64 = 0.1;

/// A channel at or above this code value is clipped: it tells only that the light was
/// at least that.
const CLIPPED: f64 = 254.5;

/// A paint that may show a highlight has an (R - G, B - G) difference of at least
/// this, code values: the glossy yellow's and red's are 158-169 by default; natural
/// wood's (65: unvarnished, no highlight seen) is left out, and white's and black's
/// (under 10) are greys to which a grey adds nothing to tell apart.
const HUE_MIN_CHROMA: f64 = 100.0;

/// Distance between the hues of two colours: of their (R - G, B - G) differences.
fn hue_distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - a[1]) - (b[0] - b[1])).hypot((a[2] - a[1]) - (b[2] - b[1]))
}

/// How much brighter or darker than the fiducials' paper the light on a cube's top may
/// be, as a factor on sRGB code values (about a gain on light to the power 1/2.2): some
/// 0.3 of a stop either way. The correction is a plane of gains fitted at the table's
/// corners; a cube's top stands 9.5 mm nearer the lamp, and a lamp's pool of light is
/// no plane (issue 36: on the second renderer's photos the cubes' tops read 5% darker
/// to 9% brighter than the paper says). No wider: a road's lighter patches are a
/// natural wooden cube's paint under 10% less light.
const SHADE: (f64, f64) = (0.92, 1.1);

/// How much more or less saturated than the profile's reference a cube's paint may be
/// (a factor on its difference from the grey of its lightness): one maker's yellow or
/// red is not another's, and an sRGB camera's colour rendering saturates or mutes
/// (issue 36: the second renderer's red and yellow cubes are 6-16% less saturated
/// than the profile's defaults). Its hue is what tells a cube from the ground.
const SATURATION: (f64, f64) = (0.8, 1.2);

/// The reference `paint` (sRGB code values) as it would look nearest `rgb` under a
/// light within [`SHADE`] and with a saturation within [`SATURATION`]: `rgb` is judged
/// against it.
fn paint_under(rgb: [f64; 3], paint: [f64; 3]) -> [f64; 3] {
    // The paint is its grey plus its chroma `d` (which sums to 0): the light scales
    // both, the saturation the chroma alone. Least squares on the two orthogonal parts.
    let grey = paint.iter().sum::<f64>() / 3.0;
    let d = paint.map(|v| v - grey);
    let shade = if grey > 0.0 { (rgb.iter().sum::<f64>() / 3.0 / grey).clamp(SHADE.0, SHADE.1) } else { 1.0 };
    let dd = d.iter().map(|v| v * v).sum::<f64>();
    let sat = if dd > 0.0 {
        ((0..3).map(|i| rgb[i] * d[i]).sum::<f64>() / dd / shade).clamp(SATURATION.0, SATURATION.1)
    } else {
        1.0
    };
    std::array::from_fn(|i| shade * (grey + sat * d[i]))
}

/// Distance between two colours, sRGB code values.
fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

/// The per-channel median colour (sRGB R G B) of the pixels `px` (image x, y) of the
/// BGR image `img`.
fn median_colour(img: &Mat, px: &[(i32, i32)]) -> Result<[f64; 3], VisionError> {
    let mut hist = [[0usize; 256]; 3];
    for &(x, y) in px {
        let p = img.at_2d::<Vec3b>(y, x)?;
        for k in 0..3 {
            hist[k][usize::from(p[2 - k])] += 1;
        }
    }
    Ok(hist.map(|h| {
        let mut left = px.len() / 2;
        for (v, n) in h.iter().enumerate() {
            if *n > left {
                return v as f64;
            }
            left -= n;
        }
        255.0
    }))
}

/// Largest angle between the hues of a cube and its paint, degrees ([`hue_angle`]): a
/// paint's saturation may differ ([`SATURATION`]), its hue not (issue 36: the second
/// renderer's red and yellow cubes are within 3° of the profile's paints, a
/// wood-coloured house beside them 11° from the natural cubes').
const MAX_HUE_DEG: f64 = 6.0;

/// Angle between the hues of `rgb` and `paint` (of their (R - G, B - G) differences),
/// degrees; `None` when the paint has too little colour for a hue (white, black: its
/// difference under `tolerance`).
fn hue_angle(rgb: [f64; 3], paint: [f64; 3], tolerance: f64) -> Option<f64> {
    let hue = |c: [f64; 3]| (c[0] - c[1], c[2] - c[1]);
    let ((a, b), (p, q)) = (hue(rgb), hue(paint));
    if p.hypot(q) < tolerance {
        return None;
    }
    Some((a * q - b * p).atan2(a * p + b * q).abs().to_degrees())
}

/// Index and distance of the reference (a paint or a terrain colour) nearest `rgb`, each
/// as it would look nearest it ([`paint_under`]).
fn nearest(refs: &[[f64; 3]], rgb: [f64; 3]) -> Option<(usize, f64)> {
    refs.iter()
        .enumerate()
        .map(|(k, r)| (k, distance(rgb, paint_under(rgb, *r))))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// The centre of a cube's top from the points of its blob (table mm on the top's
/// plane), or `None` when the blob is not cube-shaped. A tilted camera also sees the
/// sides, which appear on the camera's side of the top: the top is the part of the
/// blob farthest from the camera's nadir.
fn cube_top(pts: &[Vec2], nadir: Option<Vec2>, side: f64) -> Option<Vec2> {
    let n = pts.len() as f64;
    if pts.is_empty() {
        return None;
    }
    let centroid = pts.iter().fold(Vec2::ZERO, |a, p| a + *p) / n;
    let top: Vec<Vec2> = match nadir {
        Some(o) if (centroid - o).length() > 1.0 => {
            let u = (centroid - o) / (centroid - o).length();
            let far = pts.iter().map(|p| (*p - o).dot(u)).fold(f64::NEG_INFINITY, f64::max);
            pts.iter().copied().filter(|p| (*p - o).dot(u) >= far - side).collect()
        }
        _ => pts.to_vec(),
    };
    let m = top.len() as f64;
    let c = top.iter().fold(Vec2::ZERO, |a, p| a + *p) / m;
    // Second moments: a square of side s has variance s²/12 along every axis.
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for p in &top {
        let d = *p - c;
        sxx += d.x * d.x;
        sxy += d.x * d.y;
        syy += d.y * d.y;
    }
    let (sxx, sxy, syy) = (sxx / m, sxy / m, syy / m);
    let mid = (sxx + syy) / 2.0;
    let dev = (((sxx - syy) / 2.0).powi(2) + sxy * sxy).sqrt();
    let (big, small) = (mid + dev, mid - dev);
    let want = side * side / 12.0;
    (big <= 1.8 * want && small >= 0.25 * want).then_some(c)
}

/// How much nearer than every other unit a cube's unit must be, mm: a second unit
/// within this margin of the nearest leaves the link ambiguous. Three times the p95
/// error of a found cube's centre (measured on the second renderer's photos, issue 36:
/// 0.25 mm median, 0.9 mm p95, 4.1 mm at most of 220 found), so that scan noise does
/// not pick between two units a cube stands about half-way between, while one clearly
/// nearer is linked to it: players set cubes 5-15 mm behind or beside their unit, a
/// neighbouring unit often only 4-10 mm farther (on those photos the rule before, a
/// second unit within 1.5 times the distance plus 5 mm, left 36 of their 206 cubes
/// unlinked, each taken at its true place among the true bases).
pub const LINK_MARGIN_MM: f64 = 3.0;

/// The farthest a cube's centre stands from its unit's nearest base when other units
/// may be about, mm: one inch. The rules set status cubes "next to" their unit (000
/// §1.2: "placement next to units"; square markers "in close proximity to a
/// formation"), and the rules measure in inches. Players set them
/// a few millimetres off (the cube's half side, 4.8 mm, plus a gap: our renders' cubes
/// stand 15-18 mm off, the second renderer's 10-20 mm, issue 36). A cube farther than
/// this from every unit found, while units of the roster were not found, more likely
/// marks one of those (on the second renderer's photos, 4 cubes of units not found were
/// linked to the next unit found 40-55 mm away) than the unit found: it is left
/// unlinked ([`Link::Unfound`]). With every unit found, the profile's reach alone holds.
pub const NEXT_TO_MM: f64 = 25.4;

/// Cubes of one colour whose centres are nearer than this many sides stand touching
/// (in a row, issue 36) and mark one unit together.
const TOUCHING_SIDES: f64 = 1.5;

/// Links a cube standing alone at `at` to the unit it stands behind or beside
/// ([`link_cubes`] with one cube).
#[must_use]
pub fn link(table: &Table, at: Vec2, reach_mm: f64) -> Link {
    link_group(table, &[at], reach_mm, &[])
}

/// Links each cube to the unit it stands behind or beside: the unit whose nearest base
/// is nearest, within `reach_mm`; when a second unit is within [`LINK_MARGIN_MM`] of
/// it, the link is ambiguous. Cubes of one colour standing touching (centres within 1.5
/// sides of `size_mm`, chained) mark one unit together: a row is linked as one, by the
/// mean of its cubes' distances (a row behind one unit may end nearer its neighbour's
/// corner). `unfound` are the roster's units of which no base was found: a cube farther
/// than [`NEXT_TO_MM`] from every unit found may mark one of those ([`Link::Unfound`]).
/// Returns one link per cube, in order.
#[must_use]
pub fn link_cubes(
    table: &Table,
    cubes: &[FoundCube],
    reach_mm: f64,
    size_mm: f64,
    unfound: &[String],
) -> Vec<Link> {
    // Union-find over the touching pairs of one colour.
    let mut root: Vec<usize> = (0..cubes.len()).collect();
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    for i in 0..cubes.len() {
        for j in 0..i {
            if cubes[i].colour == cubes[j].colour
                && cubes[i].centre.distance(cubes[j].centre) < TOUCHING_SIDES * size_mm
            {
                let (a, b) = (find(&mut root, i), find(&mut root, j));
                root[a] = b;
            }
        }
    }
    let groups: Vec<usize> = (0..cubes.len()).map(|i| find(&mut root, i)).collect();
    let mut links: Vec<Option<Link>> = vec![None; cubes.len()];
    for i in 0..cubes.len() {
        if links[i].is_some() {
            continue;
        }
        let members: Vec<usize> = (0..cubes.len()).filter(|&j| groups[j] == groups[i]).collect();
        let at: Vec<Vec2> = members.iter().map(|&j| cubes[j].centre).collect();
        let l = link_group(table, &at, reach_mm, unfound);
        for j in members {
            links[j] = Some(l.clone());
        }
    }
    links.into_iter().map(|l| l.unwrap_or(Link::None)).collect()
}

/// Links cubes standing together: each unit's distance is the mean over `at` of the
/// distance to its nearest base; `unfound` as [`link_cubes`] says.
fn link_group(table: &Table, at: &[Vec2], reach_mm: f64, unfound: &[String]) -> Link {
    let mut near: Vec<(f64, &str)> = table
        .units
        .iter()
        .filter(|u| !u.bases.is_empty())
        .map(|u| {
            let sum: f64 = at
                .iter()
                .map(|&p| u.bases.iter().map(|b| b.distance_to_point(p)).fold(f64::INFINITY, f64::min))
                .sum();
            (sum / at.len().max(1) as f64, u.id.as_str())
        })
        .filter(|(d, _)| *d <= reach_mm)
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    match near.as_slice() {
        [] => Link::None,
        [(d1, id), ..] if *d1 > NEXT_TO_MM && !unfound.is_empty() => {
            Link::Unfound { nearest: (*id).to_string(), units: unfound.to_vec() }
        }
        [(d1, id), rest @ ..] => {
            let close: Vec<String> = rest
                .iter()
                .filter(|(d, _)| *d <= d1 + LINK_MARGIN_MM)
                .map(|(_, id)| (*id).to_string())
                .collect();
            if close.is_empty() {
                Link::Unit((*id).to_string())
            } else {
                Link::Ambiguous(std::iter::once((*id).to_string()).chain(close).collect())
            }
        }
    }
}

/// The table marker for a found cube and its link.
#[must_use]
pub fn to_marker(cube: &FoundCube, link: &Link, size_mm: f64) -> Marker {
    Marker {
        kind: cube.kind,
        colour: Some(cube.colour),
        x: round(cube.centre.x),
        y: round(cube.centre.y),
        unit: match link {
            Link::Unit(id) => Some(id.clone()),
            _ => None,
        },
        size: Some(size_mm),
        sigma_mm: None,
    }
}

fn round(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 20 x 20 px square with two figures' columns (4 px wide) standing across it:
    /// 288 of its 400 pixels show, the hull of what shows is the whole square again.
    #[test]
    fn the_hull_of_a_cube_behind_figures_is_its_square() {
        let shown: Vec<(i32, i32)> = (0..20)
            .flat_map(|y| (0..20).map(move |x| (x, y)))
            .filter(|&(x, y)| !((5..9).contains(&x) && y >= 6 || (12..16).contains(&x) && y < 14))
            .collect();
        assert_eq!(shown.len(), 400 - 56 - 56);
        let hull = hull_pixels(&shown).unwrap();
        assert_eq!(hull.len(), 400);
        assert!(hull.iter().all(|&(x, y)| (0..20).contains(&x) && (0..20).contains(&y)));
        assert!(hull_pixels(&[]).unwrap().is_empty());
    }

    #[test]
    fn a_square_blob_is_a_cube_a_long_one_is_not() {
        let grid = |w: f64, h: f64| -> Vec<Vec2> {
            let mut v = Vec::new();
            let mut x = 0.0;
            while x < w {
                let mut y = 0.0;
                while y < h {
                    v.push(Vec2::new(100.0 + x, 50.0 + y));
                    y += 0.5;
                }
                x += 0.5;
            }
            v
        };
        let c = cube_top(&grid(9.5, 9.5), None, 9.525).unwrap();
        assert!((c - Vec2::new(104.5, 54.5)).length() < 0.1, "{c:?}");
        assert!(cube_top(&grid(30.0, 9.5), None, 9.525).is_none());
        // Top plus a 5 mm side strip toward a nadir at -y: the top is found.
        let c = cube_top(&grid(9.5, 14.5), Some(Vec2::new(104.75, -500.0)), 9.525).unwrap();
        assert!((c - Vec2::new(104.5, 59.25)).length() < 0.1, "{c:?}");
    }

    /// Rows of cubes are cut into their cubes, touching or up to [`ROW_GAP`] apart, the
    /// count nearest a row of touching cubes first; a square is no row.
    #[test]
    fn rows_touching_or_apart_are_cut_into_their_cubes() {
        let s = 9.525;
        // Cubes of side `s` along x, `pitch` apart, each top's points 0.5 mm apart.
        let row = |n: usize, pitch: f64| -> Vec<Vec2> {
            let mut v = Vec::new();
            for k in 0..n {
                for i in 0..19 {
                    for j in 0..19 {
                        v.push(Vec2::new(
                            100.0 + k as f64 * pitch + 0.5 * f64::from(i),
                            50.0 + 0.5 * f64::from(j),
                        ));
                    }
                }
            }
            v
        };
        let centres = |parts: &[Vec<Vec2>]| -> Vec<f64> {
            let mut c: Vec<f64> =
                parts.iter().map(|p| p.iter().map(|q| q.x).sum::<f64>() / p.len() as f64).collect();
            c.sort_by(f64::total_cmp);
            c
        };
        // Three touching, three 3 mm apart (gaps not of the colour: the rectangle's
        // fill is 0.76), two 3.5 mm apart.
        for (n, pitch) in [(3, 9.5), (3, 12.5), (2, 13.0)] {
            let options = rows_of_cubes(&row(n, pitch), s, 2.0).unwrap();
            let first = options.first().unwrap_or_else(|| panic!("{n} at {pitch}: no row"));
            assert_eq!(first.len(), n, "{n} at {pitch}");
            for (k, c) in centres(first).iter().enumerate() {
                assert!((c - (104.5 + k as f64 * pitch)).abs() < 0.3, "{n} at {pitch}: {c}");
            }
        }
        // Three 8.5 mm apart, longer than a row with its gaps and sides: no row.
        assert!(rows_of_cubes(&row(3, 18.0), s, 2.0).unwrap().iter().all(|p| p.len() != 3));
        assert!(rows_of_cubes(&row(1, 0.0), s, 2.0).unwrap().is_empty());
    }

    /// A paint is judged under the light and at the saturation that bring it nearest:
    /// the second renderer's yellow cube ([229, 195, 46]: 3% darker, 10% less saturated
    /// than the profile's [235, 204, 38]) is within 10 of it and 2.5° from its hue; a
    /// wood-coloured house ([173, 150, 107]) is near the natural cubes' paint once
    /// muted, but 11° from its hue; a grey is no yellow; white and black have no hue.
    #[test]
    fn paints_are_judged_under_their_light_and_saturation() {
        let spec = MarkerSpec::default();
        let (yellow, natural) = (spec.yellow.map(f64::from), spec.natural.map(f64::from));
        let seen = [229.0, 195.0, 46.0];
        assert!(distance(seen, paint_under(seen, yellow)) < 10.0);
        assert!(hue_angle(seen, yellow, spec.tolerance).is_some_and(|a| a < 3.0));
        // The same yellow under 8% less light: the shade follows it.
        let darker = yellow.map(|v| 0.92 * v);
        assert!(distance(darker, paint_under(darker, yellow)) < 1e-9);
        // Beyond half a stop of light or a fifth of saturation, the rest counts.
        let dim = yellow.map(|v| 0.7 * v);
        assert!(distance(dim, paint_under(dim, yellow)) > 20.0);
        let house = [173.0, 150.0, 107.0];
        assert!(distance(house, paint_under(house, natural)) < 10.0);
        assert!(hue_angle(house, natural, spec.tolerance).is_some_and(|a| a > MAX_HUE_DEG));
        let grey = [200.0, 200.0, 200.0];
        assert!(distance(grey, paint_under(grey, yellow)) > spec.tolerance);
        for achromatic in [spec.white, spec.black] {
            assert_eq!(hue_angle(grey, achromatic.map(f64::from), spec.tolerance), None);
        }
    }

    /// Two units of one base each, 30 x 20 mm, facing +y before the turn: `a` at (100,
    /// 100), `b` at (160, 100) (their flanks at x = 115 and 145); the table turned by
    /// `turn_deg` about the origin and moved by `shift`. Returns the table and the map
    /// from the unturned frame.
    fn two_units(turn_deg: f64, shift: Vec2) -> (Table, impl Fn(f64, f64) -> Vec2) {
        let (sin, cos) = turn_deg.to_radians().sin_cos();
        let map = move |x: f64, y: f64| Vec2::new(x * cos - y * sin, x * sin + y * cos) + shift;
        let base = |x: f64, y: f64| {
            let c = map(x, y);
            format!(
                r#"{{"x":{},"y":{},"heading":{},"width":30,"depth":20}}"#,
                c.x,
                c.y,
                (90.0 + turn_deg).rem_euclid(360.0)
            )
        };
        let table = Table::from_json_str(&format!(
            r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
            {{"id":"a","side":"fr","kind":"infantry","formation":"line","bases":[{}]}},
            {{"id":"b","side":"fr","kind":"infantry","formation":"line","bases":[{}]}}]}}"#,
            base(100.0, 100.0),
            base(160.0, 100.0)
        ))
        .unwrap();
        (table, map)
    }

    fn cube_at(colour: MarkerColour, centre: Vec2) -> FoundCube {
        FoundCube { kind: MarkerKind::Morale, colour, centre, colour_distance: 0.0 }
    }

    /// Issue 36: a black top is any grey up to a tenth of the paper's light, read in
    /// the photo's encoding; its grey is taken off and its cast judged.
    #[test]
    fn a_black_top_is_any_grey_up_to_a_tenth_of_the_papers_light() {
        let spec = MarkerSpec::default();
        let black = spec.black.map(f64::from);
        let judged = |lamp: Lamp, seen: [f64; 3]| {
            lamp.unlit(seen, black).map(|u| {
                distance(u, paint_under(u, black)) <= spec.tolerance / 2.0
                    && hue_distance(u, paint_under(u, black)) <= spec.tolerance / 4.0
            })
        };
        // sRGB: the paper (237, 237, 230) gives back 0.828 in light, a tenth of it is a
        // grey of 80.6.
        let lamp = Lamp { paper: [237, 237, 230], srgb: true, pool: 1.0 };
        assert_eq!(judged(lamp, [80.0, 80.0, 80.0]), Some(true));
        assert_eq!(judged(lamp, [82.0, 82.0, 82.0]), None);
        // The second renderer's black tops (issue 36), as corrected.
        for seen in [[31.0, 31.0, 30.0], [53.0, 52.0, 50.0], [71.0, 70.0, 66.0]] {
            assert_eq!(judged(lamp, seen), Some(true), "{seen:?}");
        }
        // The grey is taken off, the cast kept: a shadow on a green mat is dark
        // enough, but its hue is the mat's.
        let u = lamp.unlit([71.0, 70.0, 66.0], black).unwrap_or_default();
        assert!(distance(u, [20.0, 19.0, 15.0]) < 1e-9, "{u:?}");
        assert_eq!(judged(lamp, [40.0, 60.0, 25.0]), Some(false));
        // A linear photo: its code values are light, a tenth of the paper's is 23.5.
        let linear = Lamp { srgb: false, ..lamp };
        assert_eq!(judged(linear, [23.0, 23.0, 23.0]), Some(true));
        assert_eq!(judged(linear, [24.0, 24.0, 24.0]), None);
        // White and natural wood are no black, whatever the grey.
        for paint in [spec.white, spec.natural] {
            assert_eq!(lamp.unlit([20.0, 20.0, 20.0], paint.map(f64::from)), None);
        }
    }

    /// Issue 36: a white top lit over the paper, clipped, is the white once brought to
    /// the paint's light (the second renderer's tagged-304 tops, as corrected); a top
    /// under the paper's light, a cream, sand and a grey are not, nor is any colour
    /// over the paper a black, a natural wood or (a paint far from the paper) a white.
    #[test]
    fn a_white_top_over_the_paper_is_judged_against_it() {
        let spec = MarkerSpec::default();
        let white = spec.white.map(f64::from);
        let lamp = Lamp { paper: [237, 237, 230], srgb: true, pool: 1.0 };
        for seen in
            [[255.0, 255.0, 249.0], [255.0, 255.0, 240.0], [255.0, 255.0, 255.0], [243.0, 241.0, 236.0]]
        {
            let u = lamp.unlit_white(seen, white, spec.tolerance).unwrap_or_else(|| panic!("{seen:?}"));
            assert!(distance(u, paint_under(u, white)) < spec.tolerance / 2.0, "{seen:?} -> {u:?}");
        }
        for seen in
            [[230.0, 230.0, 222.0], [255.0, 245.0, 215.0], [255.0, 240.0, 200.0], [236.0, 236.0, 236.0]]
        {
            assert_eq!(lamp.unlit_white(seen, white, spec.tolerance), None, "{seen:?}");
        }
        for paint in [spec.black, spec.natural, spec.yellow] {
            assert_eq!(lamp.unlit_white([255.0, 255.0, 250.0], paint.map(f64::from), spec.tolerance), None);
        }
    }

    /// Tops that catch the lamp (issue 36): red tops of the second renderer's photos
    /// reading pink, a yellow one pale, are their paint once the lamp's light (the
    /// paper's colour) is taken off; a figure's skin, sand, a wooden house, a pink
    /// cloth, a light grey and the paint itself are not a highlighted paint, nor is
    /// anything a highlighted white or black.
    #[test]
    fn a_highlight_is_taken_off_a_coloured_top() {
        let spec = MarkerSpec::default();
        let (red, yellow) = (spec.red.map(f64::from), spec.yellow.map(f64::from));
        let lamp = Lamp { paper: [237, 237, 230], srgb: true, pool: 1.0 };
        for (seen, paint) in [
            ([206.0, 101.0, 97.0], red),
            ([214.0, 112.0, 109.0], red),
            ([211.0, 79.0, 76.0], red),
            ([255.0, 227.0, 112.0], yellow),
        ] {
            assert!(
                distance(seen, paint_under(seen, paint)) > spec.tolerance,
                "{seen:?} is out of tolerance as seen"
            );
            let u = lamp.unlit(seen, paint).unwrap_or_else(|| panic!("{seen:?}: no highlight"));
            assert!(distance(u, paint_under(u, paint)) < spec.tolerance / 2.0, "{seen:?} -> {u:?}");
            assert!(
                hue_angle(u, paint, spec.tolerance).is_some_and(|a| a < MAX_HUE_DEG),
                "{seen:?} -> {u:?}"
            );
        }
        // Skin (red under 0.88 plus 0.37), pink cloth (red under 0.6), sand and a
        // wooden house (yellow under 0.3-0.45), a light grey.
        for (seen, paint) in [
            ([230.0, 180.0, 150.0], red),
            ([200.0, 150.0, 150.0], red),
            ([200.0, 180.0, 130.0], yellow),
            ([173.0, 150.0, 107.0], yellow),
            ([200.0, 200.0, 200.0], red),
            ([200.0, 200.0, 200.0], yellow),
        ] {
            assert_eq!(lamp.unlit(seen, paint), None, "{seen:?}");
        }
        // No highlight to take off the paint itself (or only a trace).
        assert!(lamp.unlit(red, red).is_none_or(|u| distance(u, red) < 2.0));
        // A grey is no highlight on white or wood, and too light for a black.
        for paint in [spec.white, spec.black, spec.natural] {
            assert_eq!(lamp.unlit([120.0, 120.0, 120.0], paint.map(f64::from)), None);
        }
        // A yellow whose red the highlight clipped is judged on its green and blue.
        let u = lamp
            .unlit([255.0, 226.0, 80.0], yellow)
            .unwrap_or_else(|| panic!("clipped yellow: no highlight"));
        assert!(distance(u, paint_under(u, yellow)) < spec.tolerance / 2.0, "{u:?}");
        assert_eq!(lamp.unlit([255.0, 255.0, 80.0], yellow), None, "two channels clipped");
        // A linear photo (vedette-synth's): its code values are light. A red under the
        // paper's light plus 0.12 of the lamp's is the red again.
        let linear = Lamp { srgb: false, ..lamp };
        let seen = [184.0 + 0.12 * 255.0, 26.0 + 0.12 * 255.0, 26.0 + 0.12 * 255.0 * 230.0 / 237.0];
        let u = linear.unlit(seen, red).unwrap_or_else(|| panic!("{seen:?}: no highlight"));
        assert!(distance(u, red) < 2.0, "{u:?}");
    }

    /// The pool of a lamp 1.5 m over a 6'x4' table (fiducials 50 mm in from its
    /// corners, 1030 mm from their middle): 1.78 of the fiducials' light under it, a
    /// 9.525 mm top 1.3% more. A red top under a light just inside the pool's bound
    /// (plus a highlight) is the red; just outside, or outside SHADE without a pool, it
    /// is not.
    #[test]
    fn a_top_under_a_lamps_pool_is_its_paint() {
        let mut profile =
            Profile::load(format!("{}/../../calibration/default.toml", env!("CARGO_MANIFEST_DIR"))).unwrap();
        for (m, (x, y)) in profile.fiducials.markers.iter_mut().zip([
            (50.0, 50.0),
            (1780.0, 50.0),
            (1780.0, 1170.0),
            (50.0, 1170.0),
        ]) {
            (m.x_mm, m.y_mm) = (x, y);
        }
        let pool = pool_light(&profile);
        let r = 865.0f64.hypot(560.0);
        let s = profile.markers.size_mm;
        let want = (1.0 + (r / 1500.0).powi(2)).powf(1.5) * (1500.0 / (1500.0 - s)).powi(2);
        assert!((pool - want).abs() < 1e-9 && (1.79..1.81).contains(&pool), "{pool}");
        let spec = MarkerSpec::default();
        let red = spec.red.map(f64::from);
        let lamp = Lamp { paper: [237, 237, 230], srgb: true, pool: 1.5 };
        // In light: the red under `a` of the paper's light plus 0.05 of the lamp's.
        let lit = |a: f64| {
            let paper = [237.0, 237.0, 230.0].map(|v| crate::fiducials::srgb_to_linear(v) / 255.0);
            let top = paper[0];
            std::array::from_fn(|i| {
                let v = a * crate::fiducials::srgb_to_linear(red[i]) / 255.0 + 0.05 * paper[i] / top;
                crate::photo_colour::linear_to_srgb(v)
            })
        };
        for a in [1.3, 1.49] {
            let u = lamp.unlit(lit(a), red).unwrap_or_else(|| panic!("{a}: {:?} not taken", lit(a)));
            assert!(distance(u, paint_under(u, red)) < spec.tolerance / 2.0, "{a}: {u:?}");
        }
        // Just outside it in sRGB-decoded light; the other reading (code values as
        // light, [`Lamp::unlit`]) holds the same bound on its own light, which it
        // passes, and refuses far beyond.
        assert_eq!(lamp.unlit_as(lit(1.52), red, true), None, "just outside the pool");
        assert!(lamp.unlit_as(lit(1.52), red, false).is_some());
        assert_eq!(lamp.unlit(lit(2.4), red), None, "outside both readings");
        let no_pool = Lamp { pool: 1.0, ..lamp };
        assert_eq!(no_pool.unlit_as(lit(1.3), red, true), None, "no pool: SHADE's 1.23");
        assert!(no_pool.unlit_as(lit(1.2), red, true).is_some());
    }

    /// A square top swept toward the nadir by its sides (a tilted camera's parallax)
    /// is the top again once unswept; a pair of tops swept along their row is the pair.
    #[test]
    fn a_tops_sides_are_unswept() {
        let ppm = CUBE_PX_PER_MM;
        let grid = |f: &dyn Fn(Vec2) -> bool| -> Vec<Vec2> {
            let mut v = Vec::new();
            for i in 0..120 {
                for j in 0..120 {
                    let p = Vec2::new((f64::from(i) + 0.5) / ppm, (f64::from(j) + 0.5) / ppm);
                    if f(p) {
                        v.push(p);
                    }
                }
            }
            v
        };
        let in_square = |p: Vec2, c: Vec2| (p.x - c.x).abs() <= 4.75 && (p.y - c.y).abs() <= 4.75;
        // Swept by 9 mm toward -y (the nadir below), every point of the sweep kept.
        let swept = |tops: &[Vec2]| {
            grid(&|p| {
                tops.iter().any(|c| (0..=36).any(|k| in_square(p + Vec2::new(0.0, 0.25 * f64::from(k)), *c)))
            })
        };
        let sweep = Vec2::new(0.0, 9.0);
        for tops in [vec![Vec2::new(30.0, 40.0)], vec![Vec2::new(30.0, 40.0), Vec2::new(30.0, 50.0)]] {
            let blob = swept(&tops);
            let got = unswept(&blob, sweep, ppm);
            let want = grid(&|p| {
                tops.iter().any(|c| in_square(p, *c))
                    || (tops.len() == 2 && (p.x - 30.0).abs() <= 4.75 && (40.0..=50.0).contains(&p.y))
            });
            let extra = got.iter().filter(|p| !want.contains(p)).count();
            let lost = want.iter().filter(|p| !got.contains(p)).count();
            assert!(
                extra <= 20 && lost <= 20,
                "{} tops: {} kept of {}, {extra} extra, {lost} lost",
                tops.len(),
                got.len(),
                blob.len()
            );
        }
    }

    #[test]
    fn links_are_nearest_and_ambiguity_is_said() {
        let a = || Link::Unit("a".into());
        let b = || Link::Unit("b".into());
        let both = || Link::Ambiguous(vec!["a".into(), "b".into()]);
        for (turn, shift) in
            [(0.0, Vec2::ZERO), (37.0, Vec2::new(400.0, 150.0)), (-120.0, Vec2::new(900.0, 700.0))]
        {
            let (table, at) = two_units(turn, shift);
            let l = |x: f64, y: f64| link(&table, at(x, y), 60.0);
            // Behind a, 10 mm.
            assert_eq!(l(100.0, 80.0), a());
            // Half-way between the flanks (15 mm from each): ambiguous, whichever is
            // listed first.
            let mid = l(130.0, 100.0);
            assert!(matches!(&mid, Link::Ambiguous(u) if u.len() == 2), "{mid:?}");
            // The margin, 3 mm: at x = 131.5 b is 13.5 mm away, a 16.5. Just inside it
            // (2.8 mm nearer b) ambiguous; just outside (3.4 mm) b's; away from the
            // threshold, with scan noise (0.1 mm), a's.
            assert_eq!(l(131.4, 100.0), Link::Ambiguous(vec!["b".into(), "a".into()]));
            assert_eq!(l(131.7, 100.0), b());
            assert_eq!(l(125.0 - 0.1, 100.0 + 0.1), a());
            assert_eq!(l(128.6, 100.0), both(), "2.8 mm nearer a: within the margin");
            // Farther than the reach from both.
            assert_eq!(l(100.0, 400.0), Link::None);
            assert_eq!(link(&table, at(100.0, 80.0), 9.9), Link::None);
        }
    }

    /// A row of three touching red cubes 6 mm behind `a`'s rear edge (y = 84), from x =
    /// 115 to 135: its far end is nearer `b`'s corner (11.7 mm) than `a`'s (20.9), but
    /// the row is `a`'s (12.9 mm on the mean against 21.1). A yellow cube touching the
    /// row's end is not of the row, and alone at x = 145, it is `b`'s.
    #[test]
    fn a_row_of_cubes_is_linked_as_one() {
        for (turn, shift) in [(0.0, Vec2::ZERO), (200.0, Vec2::new(700.0, 600.0))] {
            let (table, at) = two_units(turn, shift);
            let row: Vec<FoundCube> =
                [115.0, 125.0, 135.0].iter().map(|&x| cube_at(MarkerColour::Red, at(x, 84.0))).collect();
            assert_eq!(link(&table, row[2].centre, 76.2), Link::Unit("b".into()), "alone, the end is b's");
            let links = link_cubes(&table, &row, 76.2, 9.525, &[]);
            assert_eq!(links, vec![Link::Unit("a".into()); 3]);
            let mut with_yellow = row.clone();
            with_yellow.push(cube_at(MarkerColour::Yellow, at(145.0, 84.0)));
            let links = link_cubes(&table, &with_yellow, 76.2, 9.525, &[]);
            assert_eq!(links[..3], vec![Link::Unit("a".into()); 3]);
            assert_eq!(links[3], Link::Unit("b".into()));
            // Apart by more than 1.5 sides (14.3 mm), each cube is its own.
            let apart =
                [cube_at(MarkerColour::Red, at(115.0, 84.0)), cube_at(MarkerColour::Red, at(137.0, 84.0))];
            let links = link_cubes(&table, &apart, 76.2, 9.525, &[]);
            assert_eq!(links, vec![Link::Unit("a".into()), Link::Unit("b".into())]);
            assert!(link_cubes(&table, &[], 76.2, 9.525, &[]).is_empty());
        }
    }

    /// Issue 36: a cube farther than an inch from every unit found, while a unit of the
    /// roster was not found, may mark that unit: it is left unlinked, naming both (on
    /// the second renderer's photos such cubes were linked to a unit found 40-55 mm
    /// away). Within an inch, or with every unit found, the nearest unit is linked as
    /// before; a row is judged on its mean.
    #[test]
    fn a_cube_away_from_every_unit_found_may_mark_one_not_found() {
        for (turn, shift) in [(0.0, Vec2::ZERO), (37.0, Vec2::new(400.0, 150.0))] {
            let (table, at) = two_units(turn, shift);
            let lost = vec!["c".to_string()];
            let links = |pts: &[(f64, f64)], unfound: &[String]| {
                let cubes: Vec<FoundCube> =
                    pts.iter().map(|&(x, y)| cube_at(MarkerColour::Red, at(x, y))).collect();
                link_cubes(&table, &cubes, 76.2, 9.525, unfound)
            };
            let unfound = || Link::Unfound { nearest: "a".into(), units: vec!["c".into()] };
            // 45 mm behind a (its rear edge at y = 90): a's when every unit is found,
            // unlinked when c was not found.
            assert_eq!(links(&[(100.0, 45.0)], &[]), vec![Link::Unit("a".into())]);
            assert_eq!(links(&[(100.0, 45.0)], &lost), vec![unfound()]);
            // 15 mm behind a (and 24 mm): a's all the same.
            assert_eq!(links(&[(100.0, 75.0)], &lost), vec![Link::Unit("a".into())]);
            assert_eq!(links(&[(100.0, 66.0)], &lost), vec![Link::Unit("a".into())]);
            // A pair touching, 20 and 30 mm off a's side: 25 mm on the mean, a's; a
            // pair 25 and 35 mm off: c may be theirs.
            assert_eq!(
                links(&[(85.0 - 20.0, 100.0), (85.0 - 29.6, 100.0)], &lost),
                vec![Link::Unit("a".into()); 2]
            );
            assert_eq!(links(&[(85.0 - 25.0, 100.0), (85.0 - 34.6, 100.0)], &lost), vec![unfound(); 2]);
            // Beyond the reach from every unit: no unit, as before.
            assert_eq!(links(&[(100.0, -200.0)], &lost), vec![Link::None]);
        }
    }
}
