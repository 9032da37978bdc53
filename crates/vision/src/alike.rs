//! Whether the photo shows a base of a unit where its formation puts one (issue 36,
//! [`crate::infer::infer_seen`]): a base whose tag is hidden under its figures looks
//! like the unit's bases whose tags were read (the same flock, the same figures), and
//! its outer edges stand out from what lies beyond them (the mat, terrain, another
//! unit), where an empty place shows the mat inside and out and a place in the middle
//! of another formation shows no step at its edges.
//!
//! Colours are compared in Lab (lightness counted half: [`paint_distance`]), as the
//! per-channel medians of the photo sampled on the base-top plane through the camera
//! model, bilinear, at 1 mm: the rim of the base top (its flock and the figures' feet)
//! for the likeness, bands along each open edge inside and outside it for the step.
//! The tag's paper, where the roster puts it, is left out of the rim of both bases.

use crate::error::VisionError;
use crate::photo_colour::{lab, paint_distance};
use crate::pose::CameraModel;
use crate::roster::RosterUnit;
use opencv::core::{Mat, Vec3b};
use opencv::prelude::*;
use vedette_geometry::{Base, Vec2};

/// A place looks like the unit's found base when their rims' colours are within this
/// (Lab, lightness counted half). Measured on our renders (the crowded table of
/// `tests/scan/scan_hidden_tags.rs`): the unit's own bases 2.0-8.3 from the found one,
/// empty places beside it 15-54, another unit's bases 13-46.
pub const MAX_RIM_DISTANCE: f64 = 10.0;
/// Every open edge of the place must show at least this step between the bands inside
/// and outside it (Lab, lightness counted half): an empty place beside the found base
/// shows 0.5-2.6 at its weakest edge on our renders ...
pub const MIN_EDGE_STEP: f64 = 2.0;
/// ... its open edges this much on average (empty places: at most 4.4) ...
pub const MIN_MEAN_STEP: f64 = 5.0;
/// ... and this many times the difference between the place's rim and the found
/// base's: a base's edges stand out from what surrounds it more than it differs from
/// its own unit. (At 1.5, one place on the second renderer's `tagged-303`, beside
/// `fr-3` and partly over `fr-17`, passed: likeness 7.9, steps 4.2, 18.2, 16.8.)
pub const STEP_OVER_LIKENESS: f64 = 2.0;
/// The rim of a base top compared: this far inside its edges, mm.
const RIM_MM: (f64, f64) = (1.0, 4.0);
/// The band inside an edge for its step, mm from the edge ...
const INSIDE_MM: [f64; 3] = [1.0, 2.0, 3.0];
/// ... and outside it (beyond the figures' usual overhang of 1-2 mm), mm.
const OUTSIDE_MM: [f64; 3] = [2.5, 3.5, 4.5];
/// Samples along an edge stop this short of its corners, mm.
const CORNER_MM: f64 = 3.0;
/// The tag's paper and its margin: the tag's half side grown by this, mm.
const TAG_MARGIN_MM: f64 = 4.0;
/// Fewest samples a median is taken of.
const MIN_SAMPLES: usize = 12;

/// The photo at the base tops' plane, to ask what stands at a place.
pub struct Looks<'a> {
    photo: &'a Mat,
    model: &'a CameraModel,
    top_mm: f64,
    default_tag_mm: f64,
}

impl<'a> Looks<'a> {
    /// The photo (BGR), its camera model, the height of the base tops and the profile's
    /// tag size (mm).
    #[must_use]
    pub fn new(photo: &'a Mat, model: &'a CameraModel, top_mm: f64, default_tag_mm: f64) -> Self {
        Looks { photo, model, top_mm, default_tag_mm }
    }

    /// Whether the photo shows a base of `unit` at `at` like its found base `like`, with
    /// a step at each edge marked open (front, rear, left, right of `at`). Any failure
    /// to sample (outside the photo) is a no.
    #[must_use]
    pub fn shows(&self, unit: &RosterUnit, at: &Base, like: &Base, open: [bool; 4]) -> bool {
        self.measure(unit, at, like, open).is_ok_and(|m| m.is_some_and(|m| m.shows()))
    }

    /// The likeness and the open edges' steps, `None` where too little of the place is
    /// in the photo.
    pub fn measure(
        &self,
        unit: &RosterUnit,
        at: &Base,
        like: &Base,
        open: [bool; 4],
    ) -> Result<Option<Measured>, VisionError> {
        let tag_half = 0.5 * unit.tag_mm.unwrap_or(self.default_tag_mm) + TAG_MARGIN_MM;
        let offset = Vec2::new(unit.tag_offset_mm[0], unit.tag_offset_mm[1]);
        let (Some(rim_at), Some(rim_like)) =
            (self.median(&rim(at, offset, tag_half))?, self.median(&rim(like, offset, tag_half))?)
        else {
            return Ok(None);
        };
        let mut steps = Vec::new();
        for (k, _) in open.iter().enumerate().filter(|(_, o)| **o) {
            let (inside, outside) = bands(at, k);
            let (Some(a), Some(b)) = (self.median(&inside)?, self.median(&outside)?) else {
                return Ok(None);
            };
            steps.push(paint_distance(a, b));
        }
        Ok(Some(Measured { likeness: paint_distance(rim_at, rim_like), steps }))
    }

    /// The per-channel median Lab of the photo at `points` (table mm on the base tops'
    /// plane), `None` with fewer than [`MIN_SAMPLES`] inside the photo.
    fn median(&self, points: &[Vec2]) -> Result<Option<[f64; 3]>, VisionError> {
        let px = self.model.project(points, self.top_mm)?;
        let (w, h) = (self.photo.cols(), self.photo.rows());
        let mut labs: Vec<[f64; 3]> = Vec::with_capacity(px.len());
        for [x, y] in px {
            if !(x >= 0.0 && y >= 0.0 && x < f64::from(w - 1) && y < f64::from(h - 1)) {
                continue;
            }
            let (x0, y0) = (x.floor(), y.floor());
            let (fx, fy) = (x - x0, y - y0);
            let (xi, yi) = (x0 as i32, y0 as i32);
            let mut bgr = [0.0; 3];
            for (dx, dy, wgt) in [
                (0, 0, (1.0 - fx) * (1.0 - fy)),
                (1, 0, fx * (1.0 - fy)),
                (0, 1, (1.0 - fx) * fy),
                (1, 1, fx * fy),
            ] {
                let p = self.photo.at_2d::<Vec3b>(yi + dy, xi + dx)?;
                for c in 0..3 {
                    bgr[c] += wgt * f64::from(p[c]);
                }
            }
            labs.push(lab([bgr[2], bgr[1], bgr[0]]));
        }
        if labs.len() < MIN_SAMPLES {
            return Ok(None);
        }
        let mut out = [0.0; 3];
        for (c, o) in out.iter_mut().enumerate() {
            let mut v: Vec<f64> = labs.iter().map(|l| l[c]).collect();
            v.sort_by(f64::total_cmp);
            *o = v[v.len() / 2];
        }
        Ok(Some(out))
    }
}

/// What the photo shows at a place.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// How far the place's rim is from the found base's (Lab, lightness half).
    pub likeness: f64,
    /// Each open edge's step between inside and outside.
    pub steps: Vec<f64>,
}

impl Measured {
    /// Whether this is a base of the unit: like the found one, standing out at every
    /// open edge.
    #[must_use]
    pub fn shows(&self) -> bool {
        let mean = self.steps.iter().sum::<f64>() / self.steps.len().max(1) as f64;
        self.likeness <= MAX_RIM_DISTANCE
            && !self.steps.is_empty()
            && self.steps.iter().all(|&s| s >= MIN_EDGE_STEP)
            && mean >= MIN_MEAN_STEP
            && mean >= STEP_OVER_LIKENESS * self.likeness
    }
}

/// The rim of `base`'s top at 1 mm: within [`RIM_MM`] of its edges, away from the tag
/// at `tag_offset` (its half side with margin `tag_half`).
fn rim(base: &Base, tag_offset: Vec2, tag_half: f64) -> Vec<Vec2> {
    let (hw, hd) = (0.5 * base.width(), 0.5 * base.depth());
    let mut out = Vec::new();
    let mut y = -hd + 0.5;
    while y < hd {
        let mut x = -hw + 0.5;
        while x < hw {
            let inset = (hw - x.abs()).min(hd - y.abs());
            let on_tag = (x - tag_offset.x).abs() < tag_half && (y - tag_offset.y).abs() < tag_half;
            if (RIM_MM.0..=RIM_MM.1).contains(&inset) && !on_tag {
                out.push(base.to_table(Vec2::new(x, y)));
            }
            x += 1.0;
        }
        y += 1.0;
    }
    out
}

/// The bands inside and outside edge `k` of `base` (0 front, 1 rear, 2 left, 3 right).
fn bands(base: &Base, k: usize) -> (Vec<Vec2>, Vec<Vec2>) {
    let (hw, hd) = (0.5 * base.width(), 0.5 * base.depth());
    // The edge's outward normal and its half length, in the base's frame.
    let (normal, half, along) = match k {
        0 => (Vec2::new(0.0, 1.0), hd, (Vec2::new(1.0, 0.0), hw)),
        1 => (Vec2::new(0.0, -1.0), hd, (Vec2::new(1.0, 0.0), hw)),
        2 => (Vec2::new(-1.0, 0.0), hw, (Vec2::new(0.0, 1.0), hd)),
        _ => (Vec2::new(1.0, 0.0), hw, (Vec2::new(0.0, 1.0), hd)),
    };
    let (dir, len) = along;
    let mut inside = Vec::new();
    let mut outside = Vec::new();
    let mut t = -len + CORNER_MM;
    while t <= len - CORNER_MM {
        for d in INSIDE_MM {
            let p = normal * (half - d) + dir * t;
            inside.push(base.to_table(p));
        }
        for d in OUTSIDE_MM {
            let p = normal * (half + d) + dir * t;
            outside.push(base.to_table(p));
        }
        t += 1.0;
    }
    (inside, outside)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(likeness: f64, steps: &[f64]) -> Measured {
        Measured { likeness, steps: steps.to_vec() }
    }

    /// Each threshold just inside and just outside: the rim's likeness, the weakest
    /// open edge, the open edges' mean, and the mean against the likeness.
    #[test]
    fn a_place_shows_a_base_only_within_every_threshold() {
        assert!(m(2.0, &[20.0, 12.0]).shows());
        assert!(m(MAX_RIM_DISTANCE - 0.1, &[25.0, 25.0]).shows());
        assert!(!m(MAX_RIM_DISTANCE + 0.1, &[25.0, 25.0]).shows());
        assert!(m(1.0, &[MIN_EDGE_STEP + 0.1, 12.0]).shows());
        assert!(!m(1.0, &[MIN_EDGE_STEP - 0.1, 12.0]).shows());
        assert!(m(1.0, &[MIN_MEAN_STEP + 0.1]).shows());
        assert!(!m(1.0, &[MIN_MEAN_STEP - 0.1]).shows());
        assert!(m(6.0, &[6.0 * STEP_OVER_LIKENESS + 0.1]).shows());
        assert!(!m(6.0, &[6.0 * STEP_OVER_LIKENESS - 0.1]).shows());
        // A place with no open edge (inside a formation) is never shown.
        assert!(!m(0.0, &[]).shows());
    }

    /// The rim leaves out the tag's paper and keeps within its band of the edges; the
    /// bands of an edge lie inside and outside it, along its length.
    #[test]
    fn rims_and_bands_lie_where_they_should() {
        let base = Base::new(
            vedette_geometry::BaseSize::new(40.0, 30.0),
            vedette_geometry::Pose::new(Vec2::new(100.0, 50.0), 90.0),
        );
        let r = rim(&base, Vec2::new(0.0, -8.0), 10.0);
        assert!(!r.is_empty());
        for p in &r {
            let Vec2 { x, y } = base.to_local(*p);
            let inset = (20.0 - x.abs()).min(15.0 - y.abs());
            assert!((RIM_MM.0..=RIM_MM.1).contains(&inset), "{p:?} inset {inset}");
            assert!(!(x.abs() < 10.0 && (y + 8.0).abs() < 10.0), "{p:?} on the tag");
        }
        let (inside, outside) = bands(&base, 0);
        for p in &inside {
            let y = base.to_local(*p).y;
            assert!((15.0 - 3.0 - 1e-9..=15.0 - 1.0 + 1e-9).contains(&y), "{y}");
        }
        for p in &outside {
            let y = base.to_local(*p).y;
            assert!((15.0 + 2.5 - 1e-9..=15.0 + 4.5 + 1e-9).contains(&y), "{y}");
        }
        assert_eq!(inside.len(), outside.len());
    }
}
