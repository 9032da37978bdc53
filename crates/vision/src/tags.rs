//! Base tags: from a tag's four corners in the photo to the pose of the base it lies on,
//! with an honest standard uncertainty.
//!
//! The corners are back-projected through the camera model onto the plane of the base
//! tops, and a square of the tag's printed size is fitted to them (least squares over
//! position and rotation). The fit's residual measures the corner noise of this photo;
//! together with the camera model's own residual and the spread of base-top heights it
//! gives each base's `sigma_mm` and `sigma_heading_deg`.

use crate::error::VisionError;
use crate::fiducials::DetectedMarker;
use crate::pose::{CameraFit, ModelKind};
use serde::{Deserialize, Serialize};
use vedette_geometry::Vec2;

/// A tag measured on the table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TagPose {
    /// The tag id.
    pub id: u32,
    /// The tag's centre, table mm.
    pub centre: Vec2,
    /// The direction of the tag's "up" (its top edge), degrees counter-clockwise from
    /// +x: the base's heading.
    pub heading_deg: f64,
    /// The tag's measured side, mm (its printed size if all is well).
    pub side_mm: f64,
    /// Its printed side, mm, as the scan was told (a roster unit's `tag_mm`, else the
    /// profile's `[tags] size_mm`): the square fitted to its corners.
    #[serde(default)]
    pub size_mm: f64,
    /// RMS distance of the four corners from the fitted square, mm.
    pub fit_rms_mm: f64,
    /// The tag's side in the photo, px.
    pub side_px: f64,
    /// The tag's four corners in the photo, px (OpenCV order).
    pub corners_px: [[f64; 2]; 4],
    /// What a self-calibrated camera's own uncertainty adds to this tag's pose: the
    /// centre's variance per coordinate (mm²) and the heading's (rad²); `None` with a
    /// camera file or the homography models (their model term is the fiducial
    /// residual, [`ErrorBudget::model_sigma_mm`]).
    #[serde(skip)]
    pub model_var: Option<(f64, f64)>,
}

/// The error budget of one photo's tags.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ErrorBudget {
    /// Corner noise on the table, pooled over every tag of the photo, mm (one standard
    /// deviation per coordinate).
    pub corner_sigma_mm: f64,
    /// The camera model's standard uncertainty on the table, mm.
    pub model_sigma_mm: f64,
    /// Standard uncertainty from the spread of base-top heights, mm, at the middle of
    /// the photo (it grows with the distance from the camera's nadir).
    pub height_sigma_mm: f64,
}

/// Measures each tag: corners onto the base-top plane, then a square fit.
pub fn measure_tags(
    fit: &CameraFit,
    tags: &[DetectedMarker],
    tag_size_mm: f64,
    top_height_mm: f64,
) -> Result<Vec<TagPose>, VisionError> {
    measure_sized_tags(fit, tags, &|_| tag_size_mm, top_height_mm)
}

/// As [`measure_tags`], each tag of the printed side `tag_size_mm(id)` (issue 36: a
/// roster unit's `tag_mm`).
pub fn measure_sized_tags(
    fit: &CameraFit,
    tags: &[DetectedMarker],
    tag_size_mm: &dyn Fn(u32) -> f64,
    top_height_mm: f64,
) -> Result<Vec<TagPose>, VisionError> {
    let pixels: Vec<[f64; 2]> = tags.iter().flat_map(|t| t.corners).collect();
    let table = fit.model.image_to_table(&pixels, top_height_mm)?;
    Ok(tags
        .iter()
        .zip(table.chunks_exact(4))
        .map(|(t, q)| {
            let size_mm = tag_size_mm(t.id);
            let (centre, phi, rms) = fit_square(q, size_mm);
            let side = (0..4).map(|i| q[i].distance(q[(i + 1) % 4])).sum::<f64>() / 4.0;
            TagPose {
                id: t.id,
                centre,
                heading_deg: normalize_deg(90.0 + phi.to_degrees()),
                side_mm: side,
                size_mm,
                fit_rms_mm: rms,
                side_px: t.side_px(),
                corners_px: t.corners,
                model_var: None,
            }
        })
        .collect())
}

/// Least-squares fit of a square of side `size` to four corners (OpenCV order): the
/// centre, the rotation from "up = +y" in radians, and the RMS corner residual.
fn fit_square(q: &[Vec2], size: f64) -> (Vec2, f64, f64) {
    let centre = (q[0] + q[1] + q[2] + q[3]) / 4.0;
    let h = size / 2.0;
    // Model corners for up = +y (see `square_corners`).
    let m = [Vec2::new(-h, h), Vec2::new(h, h), Vec2::new(h, -h), Vec2::new(-h, -h)];
    let (mut s, mut c) = (0.0, 0.0);
    for (mi, qi) in m.iter().zip(q) {
        let d = *qi - centre;
        s += mi.cross(d);
        c += mi.dot(d);
    }
    let phi = s.atan2(c);
    let mut ss = 0.0;
    for (mi, qi) in m.iter().zip(q) {
        let r = mi.rotated_deg(phi.to_degrees());
        ss += (*qi - centre - r).length_2();
    }
    (centre, phi, (ss / 4.0).sqrt())
}

/// Degrees into [0, 360).
#[must_use]
pub fn normalize_deg(d: f64) -> f64 {
    let r = d.rem_euclid(360.0);
    if r >= 360.0 { 0.0 } else { r }
}

impl ErrorBudget {
    /// The budget of one photo from its tag fits and camera model.
    #[must_use]
    pub fn of_photo(fit: &CameraFit, tags: &[TagPose], top_height_mm: f64, top_height_sigma_mm: f64) -> Self {
        // The median over the photo is robust to a few damaged tags; chi-square with 4
        // dof has its median at 0.84 of its mean.
        let mut v: Vec<f64> = tags.iter().map(shape_var).collect();
        v.sort_by(f64::total_cmp);
        let pooled = if v.is_empty() { 0.0 } else { v[v.len() / 2] / 0.84 };
        let (w, h) = fit.model.image_size();
        let centre_px = [f64::from(w) / 2.0, f64::from(h) / 2.0];
        let height_sigma =
            height_lever(fit, centre_px, top_height_mm).map_or(0.0, |lever| lever * top_height_sigma_mm);
        ErrorBudget {
            corner_sigma_mm: pooled.sqrt(),
            model_sigma_mm: fit.model_sigma_mm(),
            height_sigma_mm: height_sigma,
        }
    }

    /// Standard uncertainties of a base's centre (mm, per coordinate) and heading
    /// (degrees), for a tag (of its printed side `tag.size_mm`) whose centre is
    /// `offset_mm` from the base centre.
    #[must_use]
    pub fn base_sigma(
        &self,
        fit: &CameraFit,
        tag: &TagPose,
        offset_mm: f64,
        top_height_mm: f64,
        top_height_sigma_mm: f64,
    ) -> (f64, f64) {
        // This tag's own scatter counts half, the photo's pooled scatter half: one tag's
        // five degrees of freedom make a poor estimate on their own.
        let tag_size_mm = tag.size_mm;
        let own = shape_var(tag);
        let corner_var = 0.5 * own + 0.5 * self.corner_sigma_mm.powi(2);
        // Centre of four corners; rotation about it (corners at size/sqrt(2)).
        // A self-calibrated camera's uncertainty at this tag replaces the fiducial
        // residual as the model term.
        let (model_var, model_theta_var) = tag.model_var.unwrap_or((self.model_sigma_mm.powi(2), 0.0));
        let centre_var = corner_var / 4.0;
        let theta_var = corner_var / (2.0 * tag_size_mm * tag_size_mm) + model_theta_var;
        let centre_px = [
            tag.corners_px.iter().map(|c| c[0]).sum::<f64>() / 4.0,
            tag.corners_px.iter().map(|c| c[1]).sum::<f64>() / 4.0,
        ];
        let lever = height_lever(fit, centre_px, top_height_mm);
        let height_var = match (fit.model.kind(), lever) {
            (ModelKind::Homography, Some(l)) => {
                (l * top_height_mm).powi(2) / 3.0 + (l * top_height_sigma_mm).powi(2)
            }
            (ModelKind::HomographyFocal, Some(l)) => {
                (l * top_height_sigma_mm).powi(2) + (l * top_height_mm * fit.model.focal_rel_sigma()).powi(2)
            }
            (_, Some(l)) => (l * top_height_sigma_mm).powi(2),
            (_, None) => 0.0,
        };
        let pos_var = centre_var + offset_mm.powi(2) * theta_var + model_var + height_var;
        (pos_var.sqrt(), theta_var.sqrt().to_degrees())
    }
}

/// A tag's corner noise on the table, per coordinate, mm²: the scatter of its four
/// corners about the square fitted to them, with the square's size free. A tag read
/// larger or smaller than printed as a whole (the detector's edge bias, the printer's
/// scaling) moves no centre and turns no heading, so that part is not noise: its share
/// of the known-size fit, `2 (side - size)²`, comes off, and 8 coordinates less 4
/// parameters (position, rotation, size) leave 4 degrees of freedom.
fn shape_var(tag: &TagPose) -> f64 {
    let ss_known_size = 4.0 * tag.fit_rms_mm.powi(2);
    let size_error = tag.side_mm - tag.size_mm;
    (ss_known_size - 2.0 * size_error.powi(2)).max(0.0) / 4.0
}

/// How far a point at the image pixel `px` moves on the table per mm of height: the
/// distance from the camera's nadir over the camera's height. Without a pose (plain
/// homography) the camera is taken to look straight down with a focal length equal to
/// the image's longer side, which is a typical normal lens.
fn height_lever(fit: &CameraFit, px: [f64; 2], top_height_mm: f64) -> Option<f64> {
    let model = &fit.model;
    match model.camera_centre() {
        Some(c) if c[2] > top_height_mm => {
            let p = model.image_to_table(&[px], top_height_mm).ok()?;
            let p = *p.first()?;
            Some(((p.x - c[0]).hypot(p.y - c[1])) / (c[2] - top_height_mm))
        }
        Some(_) => None,
        None => {
            let (w, h) = model.image_size();
            let f = f64::from(w.max(h));
            let dx = px[0] - f64::from(w) / 2.0;
            let dy = px[1] - f64::from(h) / 2.0;
            Some(dx.hypot(dy) / f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::square_corners;

    #[test]
    fn square_fit_recovers_pose() {
        for up in [0.0, 33.0, 90.0, 181.0, 300.0] {
            let q = square_corners(Vec2::new(10.0, 20.0), 12.0, up);
            let (c, phi, rms) = fit_square(&q, 12.0);
            assert!((c - Vec2::new(10.0, 20.0)).length() < 1e-9);
            assert!((normalize_deg(90.0 + phi.to_degrees()) - normalize_deg(up)).abs() < 1e-9, "{up}");
            assert!(rms < 1e-9);
        }
    }

    fn pose_of(q: &[Vec2], size: f64) -> TagPose {
        let (centre, phi, rms) = fit_square(q, size);
        TagPose {
            id: 1,
            centre,
            heading_deg: normalize_deg(90.0 + phi.to_degrees()),
            side_mm: (0..4).map(|i| q[i].distance(q[(i + 1) % 4])).sum::<f64>() / 4.0,
            size_mm: size,
            fit_rms_mm: rms,
            side_px: 20.0,
            corners_px: [[0.0; 2]; 4],
            model_var: None,
        }
    }

    #[test]
    fn a_tag_read_larger_as_a_whole_has_no_corner_noise() {
        // 12 mm printed, read 12.3 mm: the known-size fit leaves every corner 0.21 mm
        // out along its diagonal (0.15 mm in each coordinate), none of it noise.
        let q = square_corners(Vec2::new(10.0, 20.0), 12.3, 37.0);
        let t = pose_of(&q, 12.0);
        assert!(t.fit_rms_mm > 0.2, "{}", t.fit_rms_mm);
        assert!(shape_var(&t) < 1e-12, "{}", shape_var(&t));
        // One corner pushed 0.2 mm out of square is noise: the size-free fit absorbs
        // part of it and leaves the rest (between half and all of 0.2² over 4 dof).
        let mut bent = square_corners(Vec2::new(10.0, 20.0), 12.0, 37.0);
        bent[2].x += 0.2;
        let v = shape_var(&pose_of(&bent, 12.0));
        assert!(v > 0.2 * 0.2 * 0.5 / 4.0 && v < 0.2 * 0.2 / 4.0, "{v}");
    }

    #[test]
    fn normalize_wraps() {
        assert_eq!(normalize_deg(-90.0), 270.0);
        assert_eq!(normalize_deg(360.0), 0.0);
    }
}
