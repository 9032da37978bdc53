//! What lies on the table besides the tagged bases (issue 19): the marker cubes and the
//! terrain templates, read from the photo once the camera model is solved and the bases
//! are known (they and their figures are masked out).

use crate::cubes::{self, Link};
use crate::error::VisionError;
use crate::fiducials::DetectedMarker;
use crate::palette::ColourCorrection;
use crate::photo::Photo;
use crate::pose::CameraFit;
use crate::profile::Profile;
use crate::scan::ScanIssue;
use crate::tags::TagPose;
use std::time::Instant;
use vedette_geometry::Table;

/// Which parts of the surface a scan reads from the photo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceOptions {
    /// Find the marker cubes (when the profile's `[markers] find` also says so).
    pub markers: bool,
    /// Segment the profile's terrain classes (off when a terrain layer is merged
    /// instead).
    pub terrain: bool,
    /// The photo is scanned for its base tags: one whose tags are too small or too
    /// blurred to read is refused (issue 41). Off for a terrain layer made from a photo
    /// of the empty table.
    pub tags: bool,
}

impl Default for SurfaceOptions {
    /// Everything.
    fn default() -> Self {
        SurfaceOptions { markers: true, terrain: true, tags: true }
    }
}

/// The surface's pixel work, done before the bases are known (a scan does it beside
/// the search for tags among figures): the colour corrections fitted on the
/// fiducials, and the table rectified and corrected for the cubes (with each pixel's
/// colour label) and for the terrain. `None` when the scan reads neither.
pub(crate) struct SurfacePixels {
    /// The cubes' images, when they are looked for.
    cubes: Option<cubes::CubePixels>,
    /// The terrain's image, when it is read.
    terrain: Option<crate::rectify::Rectified>,
    /// How long it took, ms.
    ms: f64,
}

impl SurfacePixels {
    /// The pixel work of [`read_surface`] with these `options`; `None` when it reads
    /// neither markers nor terrain.
    pub(crate) fn of(
        photo: &Photo,
        profile: &Profile,
        fit: &CameraFit,
        fiducials: &[DetectedMarker],
        options: SurfaceOptions,
    ) -> Result<Option<SurfacePixels>, VisionError> {
        let start = Instant::now();
        let want_markers = options.markers && profile.markers.find;
        let want_terrain = options.terrain && !profile.terrain.is_empty();
        if !(want_markers || want_terrain) {
            return Ok(None);
        }
        // The fiducials' paper and ink, read once: the terrain's correction is fitted on
        // code values, the cubes' in light.
        let readings = crate::palette::read_fiducials(&photo.color, &fit.model, profile, fiducials)?;
        let correction = ColourCorrection::fit_tone(&readings, &profile.colours, crate::tone::Tone::Linear);
        let cubes = if want_markers {
            // The cubes' colours are judged in linear light (issue 36): the photo's encoding
            // from the fiducials' borders, each encoding with its own corners.
            let tone =
                crate::tone::measure_encoding(&photo.gray, fiducials, profile.fiducials.dictionary.bits())?;
            let in_light = ColourCorrection::fit_tone(&readings, &profile.colours, tone);
            Some(cubes::CubePixels::of(photo, &fit.model, &in_light, profile)?)
        } else {
            None
        };
        let terrain = if want_terrain {
            Some(crate::terrain::terrain_image(photo, &fit.model, &correction, profile)?)
        } else {
            None
        };
        Ok(Some(SurfacePixels { cubes, terrain, ms: start.elapsed().as_secs_f64() * 1e3 }))
    }
}

/// What the scan report says of a cube's link to its unit: nothing for a cube linked to
/// one unit (several photos' merged cubes are linked and reported so too).
pub(crate) fn link_issue(cube: &cubes::FoundCube, link: &Link) -> Option<ScanIssue> {
    let at_mm = [cube.centre.x, cube.centre.y];
    match link {
        Link::Ambiguous(units) => {
            Some(ScanIssue::MarkerAmbiguous { colour: cube.colour, at_mm, units: units.clone() })
        }
        Link::Unfound { nearest, units } => Some(ScanIssue::MarkerUnitNotFound {
            colour: cube.colour,
            at_mm,
            nearest: nearest.clone(),
            units: units.clone(),
        }),
        Link::None => Some(ScanIssue::MarkerUnlinked { colour: cube.colour, at_mm }),
        Link::Unit(_) => None,
    }
}

/// Reads the markers and terrain into `table` (bases found, camera solved: the last
/// stage of [`scan`](crate::scan)); returns the issues found and the time spent, ms.
/// `unread` are where bases whose tags were not read may stand: the terrain is read
/// with them masked as bases are, so that their figures never become terrain (issue
/// 41); the marker cubes are looked for there as everywhere else. `unfound` are the
/// roster's units of which no base was found (a cube may mark one of them,
/// [`cubes::link_cubes`]).
#[allow(clippy::too_many_arguments)]
pub fn read_surface(
    photo: &Photo,
    profile: &Profile,
    fit: &CameraFit,
    fiducials: &[DetectedMarker],
    table: &mut Table,
    tags: &[TagPose],
    options: SurfaceOptions,
    unread: &[vedette_geometry::Base],
    unfound: &[String],
) -> Result<(Vec<ScanIssue>, f64), VisionError> {
    let pixels = SurfacePixels::of(photo, profile, fit, fiducials, options)?;
    read_surface_with(pixels, profile, fit, table, tags, unread, unfound)
}

/// [`read_surface`] on its pixel work done ([`SurfacePixels::of`]): the time returned
/// is the pixel work's and this stage's.
pub(crate) fn read_surface_with(
    pixels: Option<SurfacePixels>,
    profile: &Profile,
    fit: &CameraFit,
    table: &mut Table,
    tags: &[TagPose],
    unread: &[vedette_geometry::Base],
    unfound: &[String],
) -> Result<(Vec<ScanIssue>, f64), VisionError> {
    let start = Instant::now();
    let mut issues = Vec::new();
    let Some(SurfacePixels { cubes: cube_pixels, terrain: terrain_image, ms }) = pixels else {
        return Ok((issues, 0.0));
    };
    if let Some(cube_pixels) = &cube_pixels {
        let found = cubes::find_cubes_in(cube_pixels, &fit.model, profile, table, tags)?;
        let links =
            cubes::link_cubes(table, &found, profile.markers.link_reach_mm, profile.markers.size_mm, unfound);
        for (cube, link) in found.iter().zip(links) {
            issues.extend(link_issue(cube, &link));
            table.markers.push(cubes::to_marker(cube, &link, profile.markers.size_mm));
        }
    }
    // After the cubes, so that they are masked out of the terrain too.
    if let Some(rect) = terrain_image {
        table.terrain = if unread.is_empty() {
            crate::terrain::segment_image(rect, &fit.model, profile, table, tags)?
        } else {
            // The zones stand on the table as the bases of a unit of their own ('#' is
            // in no real unit's id) while the terrain is read.
            let mut masked = table.clone();
            masked.units.push(vedette_geometry::Unit::new(
                "#unread",
                "#unread",
                vedette_geometry::UnitKind::Infantry,
                unread.to_vec(),
            ));
            crate::terrain::segment_image(rect, &fit.model, profile, &masked, tags)?
        };
        crate::standing::stand_on_templates(table, &fit.model, profile)?;
    }
    Ok((issues, ms + start.elapsed().as_secs_f64() * 1e3))
}
