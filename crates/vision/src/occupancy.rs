//! What stands on the table and hides it: bases with the figures on them, loose tags
//! and the fiducials' paper, drawn as a mask on a rectified plane. The mask covers
//! everything the photo may show of them on that plane (from the table up to the
//! figures' heads, seen along the camera's rays), so colours found outside it belong
//! to the table, its terrain and its markers.

use crate::error::VisionError;
use crate::pose::CameraModel;
use crate::profile::Profile;
use crate::rectify::{Rectified, fill_hull};
use crate::tags::TagPose;
use opencv::core::Mat;
use vedette_geometry::{Table, Vec2};

/// How far above a base's top its figures may reach, mm (a mounted officer with a
/// raised sword at 28 mm scale; synthetic figures reach 22 mm).
pub const FIGURE_REACH_MM: f64 = 30.0;
/// How far past its base's edges a figure may reach, mm.
pub const FIGURE_OVERHANG_MM: f64 = 2.5;
/// Around a tag that is in no base of the table (unknown or duplicate tags), this much
/// is masked each way from its centre, mm.
const LOOSE_TAG_REACH_MM: f64 = 25.0;
/// White margin masked around each fiducial's black square, mm.
const FIDUCIAL_MARGIN_MM: f64 = 12.0;

/// The occupied mask (255 where something stands) on `rect`'s plane.
pub fn occupied(
    rect: &Rectified,
    model: &CameraModel,
    profile: &Profile,
    table: &Table,
    tags: &[TagPose],
) -> Result<Mat, VisionError> {
    occupied_up_to(rect, model, profile, table, tags, FIGURE_REACH_MM)
}

/// The occupied mask with what stands on the bases reaching `reach_mm` above their tops
/// (0: the bases' bodies alone, with the figures' overhang at their edges).
pub fn occupied_up_to(
    rect: &Rectified,
    model: &CameraModel,
    profile: &Profile,
    table: &Table,
    tags: &[TagPose],
    reach_mm: f64,
) -> Result<Mat, VisionError> {
    let (w, h) = rect.size()?;
    let mut mask = crate::palette::blank_mask(h, w)?;
    let top = profile.bases.top_height_mm;
    let mut tagged = std::collections::BTreeSet::new();
    for (_, b) in table.bases() {
        if let Some(t) = b.meta().tag {
            tagged.insert(t);
        }
        let grown = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(sx, sy)| {
            b.to_table(Vec2::new(
                sx * (b.width() / 2.0 + FIGURE_OVERHANG_MM),
                sy * (b.depth() / 2.0 + FIGURE_OVERHANG_MM),
            ))
        });
        prism(&mut mask, rect, model, &grown, 0.0, top + reach_mm)?;
    }
    for t in tags.iter().filter(|t| !tagged.contains(&t.id)) {
        let r = LOOSE_TAG_REACH_MM;
        let sq = [(-r, -r), (r, -r), (r, r), (-r, r)].map(|(x, y)| t.centre + Vec2::new(x, y));
        prism(&mut mask, rect, model, &sq, 0.0, top + FIGURE_REACH_MM)?;
    }
    for f in &profile.fiducials.markers {
        let half = profile.fiducials.size_mm / 2.0 + FIDUCIAL_MARGIN_MM;
        let c = Vec2::new(f.x_mm, f.y_mm);
        let sq =
            [(-half, -half), (half, -half), (half, half), (-half, half)].map(|(x, y)| c + Vec2::new(x, y));
        let z = profile.fiducials.height_mm;
        prism(&mut mask, rect, model, &sq, z, z)?;
    }
    Ok(mask)
}

/// Masks a vertical prism over `footprint` from `z0` to `z1` mm as the photo sees it on
/// `rect`'s plane: the hull of its footprint seen at both heights.
pub(crate) fn prism(
    mask: &mut Mat,
    rect: &Rectified,
    model: &CameraModel,
    footprint: &[Vec2],
    z0: f64,
    z1: f64,
) -> Result<(), VisionError> {
    let mut pts = rect.seen_at(model, footprint, z0)?;
    if z1 > z0 {
        pts.extend(rect.seen_at(model, footprint, z1)?);
    }
    fill_hull(mask, rect, &pts, 255.0)
}
