//! A photo of the empty table taken from the same place (issue 37, `--background`):
//! the mat's exact colour at every point of the table, instead of the colour the
//! surface learns from the photo itself (a median over 15 cm, [`super::surface`]).
//!
//! The empty table's photo is rectified with its own camera pose, solved from its own
//! fiducials (the lens of the photo's model, so both views share it), onto the same
//! plane of the base tops as the photo: a tripod nudged a few millimetres between the
//! two shots still lines them up. A camera moved farther is refused: what stands
//! above the table (terrain, the fiducials' paper edges) would no longer line up, nor
//! would the light fall the same way.

use crate::error::VisionError;
use crate::fiducials::DetectedMarker;
use crate::photo::Photo;
use crate::pose::{CameraFit, solve_camera};
use crate::profile::Profile;
use crate::tone::Tone;
use opencv::prelude::*;
use vedette_geometry::Vec2;

/// The two camera centres may stand at most this share of the camera's height above
/// the table apart (3%: 30 mm at 1 m, a tripod nudged; a photo retaken by hand is
/// farther): terrain 50 mm high then lines up within 1.5 mm.
pub const MAX_CAMERA_MOVE_SHARE: f64 = 0.03;
/// Without a camera centre (a homography model): the table's corners may move at most
/// this share of the photo's diagonal between the two photos.
pub const MAX_CORNER_SHIFT_SHARE: f64 = 0.02;

/// The empty table's photo rectified onto the photo's surface ([`super::surface`]):
/// the same table rectangle, plane and resolution, BGR, black where its photo does not
/// reach.
pub(crate) fn rectified(
    background: &Photo,
    photo: &Photo,
    profile: &Profile,
    fit: &CameraFit,
    tone: Tone,
) -> Result<Mat, VisionError> {
    let refuse = |reason: String| VisionError::Background { reason };
    let (size, own) = (photo.size()?, background.size()?);
    if own != size {
        return Err(refuse(format!(
            "it is {}x{} px and the photo {}x{} px: take both from the same place with the same camera setting",
            own.0, own.1, size.0, size.1
        )));
    }
    let mut fiducials = crate::scan::find_fiducials(background, profile)?;
    if tone == Tone::Srgb {
        refine_srgb(background, profile, &mut fiducials)?;
    }
    let own_fit = match solve_camera(profile, &fiducials, fit.model.intrinsics(), own) {
        Err(VisionError::TooFewFiducials { found_count, found, missing, .. }) => {
            return Err(refuse(format!(
                "only {found_count} of the profile's table fiducials were found in it (need at least 4): found ids [{found}], missing ids [{missing}]"
            )));
        }
        other => other.map_err(|e| refuse(format!("its camera cannot be solved: {e}")))?,
    };
    check_moved(fit, &own_fit, profile)?;
    Ok(super::surface::rectified(&background.color, &own_fit.model, profile)?.image)
}

/// The fiducials' corners placed again on an sRGB photo's edges, as the scan places
/// the photo's own (issue 36).
fn refine_srgb(
    background: &Photo,
    profile: &Profile,
    fiducials: &mut [DetectedMarker],
) -> Result<(), VisionError> {
    let view = crate::fiducials::GrayView::new(&background.gray)?.with_srgb(true);
    for f in fiducials {
        let mut c = f.corners;
        if crate::fiducials::refine_edges_view(&view, &mut c, profile.fiducials.dictionary.bits()) {
            f.corners = c;
        }
    }
    Ok(())
}

/// Refuses a camera moved more than [`MAX_CAMERA_MOVE_SHARE`] (or, without camera
/// centres, [`MAX_CORNER_SHIFT_SHARE`]) between the photo and the empty table's.
fn check_moved(photo: &CameraFit, background: &CameraFit, profile: &Profile) -> Result<(), VisionError> {
    let refuse = |reason: String| VisionError::Background { reason };
    if let (Some(a), Some(b)) = (photo.model.camera_centre(), background.model.camera_centre()) {
        return centre_moved(a, b).map_or(Ok(()), |reason| Err(refuse(reason)));
    }
    let (w, d) = (profile.table.width_mm, profile.table.depth_mm);
    let corners = [Vec2::ZERO, Vec2::new(w, 0.0), Vec2::new(w, d), Vec2::new(0.0, d)];
    let top = profile.bases.top_height_mm;
    let (p, q) = (photo.model.project(&corners, top)?, background.model.project(&corners, top)?);
    let shift = p.iter().zip(&q).map(|(a, b)| (a[0] - b[0]).hypot(a[1] - b[1])).fold(0.0, f64::max);
    let (iw, ih) = photo.model.image_size();
    let limit = MAX_CORNER_SHIFT_SHARE * f64::from(iw).hypot(f64::from(ih));
    if shift > limit {
        return Err(refuse(format!(
            "the table's corners moved {shift:.0} px between the two photos (at most {limit:.0} px, {:.0}% of the diagonal): take the empty table's photo from the same place, the camera on a stand",
            MAX_CORNER_SHIFT_SHARE * 100.0
        )));
    }
    Ok(())
}

/// Why a camera centre `b` (table mm) is too far from the photo's `a`
/// ([`MAX_CAMERA_MOVE_SHARE`] of `a`'s height above the table), or `None`.
fn centre_moved(a: [f64; 3], b: [f64; 3]) -> Option<String> {
    let moved = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
    let limit = MAX_CAMERA_MOVE_SHARE * a[2].abs();
    (moved > limit).then(|| {
        format!(
            "the camera moved {moved:.0} mm between the two photos (at most {limit:.0} mm, {:.0}% of its height above the table): take the empty table's photo from the same place, the camera on a stand",
            MAX_CAMERA_MOVE_SHARE * 100.0
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A camera 1000 mm above the table may move 30 mm, in any direction.
    #[test]
    fn a_nudge_is_accepted_and_a_move_refused() {
        let a = [900.0, 600.0, 1000.0];
        for (d, refused) in [(1.0, false), (29.5, false), (30.5, true), (300.0, true)] {
            for dir in [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.6, 0.0, 0.8]] {
                let b = [a[0] + d * dir[0], a[1] + d * dir[1], a[2] + d * dir[2]];
                let why = centre_moved(a, b);
                assert_eq!(why.is_some(), refused, "{d} mm along {dir:?}: {why:?}");
            }
        }
        let why = centre_moved(a, [a[0] + 100.0, a[1], a[2]]).unwrap_or_default();
        assert!(why.contains("moved 100 mm") && why.contains("at most 30 mm"), "{why}");
    }
}
