//! The whole scan of one photo: table fiducials, camera model, base tags, and the table
//! file with a report of everything that did not fit.

use crate::camera::Intrinsics;
use crate::error::VisionError;
use crate::fiducials::{DetectedMarker, DetectorSettings, detect_large_markers, detect_markers};
use crate::photo::Photo;
use crate::pose::{
    CameraFit, CameraParameters, FiducialFit, ModelKind, Overexposure, clear_margins, self_calibrate,
    solve_camera,
};
use crate::profile::Profile;
use crate::roster::{Roster, RosterUnit};
use crate::surface::SurfaceOptions;
use crate::tags::{ErrorBudget, TagPose, measure_sized_tags};
use opencv::core::{Mat, Point, Scalar, Vector};
use opencv::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Instant;
use vedette_geometry::{
    Base, BaseMeta, BaseSize, Found, MarkerColour, Pose, SCHEMA_ID, Table, TableSize, Unit, UnitKind, Vec2,
};

/// A finished scan.
#[derive(Debug, Clone)]
pub struct Scan {
    /// The table (`vedette/table/1`): every base found, with its tag and uncertainty.
    pub table: Table,
    /// How the scan went.
    pub report: ScanReport,
    /// Every tag measured (including the ones not in the table), for overlays.
    pub tags: Vec<TagPose>,
    /// The table fiducials found, px.
    pub fiducials: Vec<DetectedMarker>,
    /// The camera model.
    pub fit: CameraFit,
}

/// What a scan reports beside the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScanReport {
    /// Photo width, px.
    pub image_width: u32,
    /// Photo height, px.
    pub image_height: u32,
    /// The camera model.
    pub camera: CameraReport,
    /// The error budget the bases' uncertainties come from.
    pub budget: ErrorBudget,
    /// Tags seen in the photo (fiducials excluded).
    pub tags_seen: usize,
    /// Bases in the table.
    pub bases: usize,
    /// Everything that did not go into the table, and why.
    pub issues: Vec<ScanIssue>,
    /// Time spent, ms.
    pub timing_ms: Timing,
}

/// The camera model as reported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CameraReport {
    /// Which model was used.
    pub model: ModelKind,
    /// In words.
    pub description: String,
    /// Focal length, px (calibrated or estimated; absent for the plain homography).
    pub focal_px: Option<f64>,
    /// Camera position above the table, mm (when the model knows it).
    pub camera_mm: Option<[f64; 3]>,
    /// Angle of the optical axis from straight down, degrees (when known).
    pub tilt_deg: Option<f64>,
    /// RMS reprojection residual of the fiducial corners, px.
    pub residual_px: f64,
    /// The model itself, so pictures can be drawn over the photo later (issue 21).
    pub model_parameters: CameraParameters,
    /// The height of base tops above the table the scan used, mm (bases are drawn there).
    pub base_top_mm: f64,
    /// RMS residual of the fiducial corners on the table, mm.
    pub residual_mm: f64,
    /// Each fiducial used.
    pub fiducials: Vec<FiducialFit>,
    /// The profile's fiducials not found.
    pub missing_fiducials: Vec<u32>,
}

/// Something the scan saw but did not put in the table, or expected and did not see.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "issue", rename_all = "kebab-case")]
pub enum ScanIssue {
    /// A tag the roster does not list.
    UnknownTag {
        /// The tag id.
        id: u32,
        /// Where, table mm.
        at_mm: [f64; 2],
    },
    /// A tag id seen more than once: none of its copies is trusted.
    DuplicateTag {
        /// The tag id.
        id: u32,
        /// Where each copy is, table mm.
        at_mm: Vec<[f64; 2]>,
    },
    /// A tag whose centre lies off the table.
    OutsideTable {
        /// The tag id.
        id: u32,
        /// Where, table mm.
        at_mm: [f64; 2],
    },
    /// A roster tag not seen in the photo.
    MissingTag {
        /// The tag id.
        id: u32,
        /// Its unit.
        unit: String,
        /// Its base index in the roster.
        base: usize,
    },
    /// A tag whose measured size is far from the profile's (wrong print scale, a base
    /// of another height, or a false detection). The base is kept.
    TagSizeMismatch {
        /// The tag id.
        id: u32,
        /// Measured side, mm.
        measured_mm: f64,
        /// The profile's tag size, mm.
        expected_mm: f64,
    },
    /// A tag whose four corners are far from any square on the base-top plane (RMS
    /// off the fitted square more than [`MAX_FIT_RMS_FRACTION`] of the tag's side): a
    /// misdetection among figures, not a tag lying flat. Left out, never placed.
    MisshapenTag {
        /// The id it read as.
        id: u32,
        /// Where, table mm.
        at_mm: [f64; 2],
        /// RMS distance of its corners from the fitted square, mm.
        fit_rms_mm: f64,
    },
    /// Self-calibration: the camera that fits the fiducials and every other tag does
    /// not fit this tag's corners as a square of the profile's size on the base-top
    /// plane (a mis-sized print, a base of another height, a bent or mis-detected tag).
    /// The base is kept; its place is doubtful.
    TagDisagrees {
        /// The tag id.
        id: u32,
        /// RMS reprojection residual of its corners, px.
        residual_px: f64,
        /// The photo's limit, px.
        limit_px: f64,
    },
    /// Self-calibration: cameras of quite different focal lengths fit the photo's
    /// corners alike, so the photo cannot tell its lens (a camera straight above the
    /// table: the focal length and the camera's height trade freely). The bases' sigma
    /// holds what that can cost them; a tilted photo or a camera file removes it.
    FocalLengthUnknown {
        /// The least and most focal lengths that fit alike, px.
        focal_px: [f64; 2],
        /// The camera's tilt from straight down, degrees.
        tilt_deg: f64,
        /// How far a base moves between those cameras at most, mm.
        spread_mm: f64,
    },
    /// Self-calibration: the white paper around these fiducials is overexposed (at
    /// the sensor's ceiling), which reads their squares small by an amount that
    /// differs from one to the next (0.2-0.5 px at one stop over): the lens fitted to
    /// them absorbs it, and bases may be a millimetre or more off, more than their
    /// sigma says. A camera file, or a photo exposed for the paper, removes it.
    OverexposedPaper {
        /// The fiducials whose paper is clipped.
        fiducials: Vec<u32>,
        /// The fiducials found.
        of: usize,
        /// How many tags' papers are clipped.
        tags: usize,
        /// The tags found.
        of_tags: usize,
    },
    /// A table fiducial is not where the profile says, judged by the other fiducials
    /// (a moved or mis-measured fiducial). Positions near it are doubtful.
    FiducialDisagrees {
        /// The fiducial id.
        id: u32,
        /// RMS distance of its corners from where the other fiducials put them, mm.
        offset_mm: f64,
        /// How well the other fiducials agree among themselves, mm RMS.
        others_mm: f64,
    },
    /// A unit was found but none of the bases of the unit it belongs to (a skirmisher's
    /// or limber's parent): the table holds it without the link.
    ParentNotFound {
        /// The unit found.
        unit: String,
        /// Its parent in the roster.
        parent: String,
    },
    /// Something that is clearly a tag (a dark-bordered square of the tags' size with a
    /// code inside) but could not be read, or read as an id that cannot be there: a
    /// figure hides too much of it (issue 18). Nothing goes into the table.
    UndecodedTag {
        /// Its centre, table mm (on the plane of the base tops).
        at_mm: [f64; 2],
    },
    /// A roster tag not seen, whose base was placed where its unit's formation puts it
    /// beside the bases found (issue 18): in the table with `inferred: true`.
    InferredBase {
        /// The tag id.
        id: u32,
        /// Its unit.
        unit: String,
        /// Its base index in the roster.
        base: usize,
        /// Where the base centre was placed, table mm.
        at_mm: [f64; 2],
        /// Its standard uncertainty, mm.
        sigma_mm: f64,
    },
    /// Several photos (issue 18): one tag lands in places further apart than their
    /// joint uncertainty allows; the base is left out, not guessed.
    ConflictingTag {
        /// The tag id.
        id: u32,
        /// Where each photo put its base centre, table mm.
        at_mm: Vec<[f64; 2]>,
        /// The photos (0-based, in the order given), one per place.
        photos: Vec<usize>,
    },
    /// An untagged roster unit (`bases = N`) whose bases were not found (issue 37):
    /// nothing in the photo has its formation's straight edges. Left out, never
    /// invented.
    MissingUnit {
        /// The unit.
        unit: String,
        /// How many bases it has.
        bases: usize,
        /// Each base's width and depth, mm.
        base_mm: [f64; 2],
        /// The part of the table searched, table mm: the near-left and far-right
        /// corners of the table seen in the photo (of several photos: the box around
        /// what they saw). A unit standing outside it was never in view.
        searched_mm: [[f64; 2]; 2],
        /// What was looked at there, and why nothing fits.
        looked: String,
        /// Where it was held back from (a contested place: the photo fits it within a
        /// few percent as well as a place overlapping it): the unit as it would stand
        /// on each of the two places, best first, its facing assumed and its sigmas
        /// covering both (of several photos, each photo's). Empty when nothing of its
        /// layout was found. `vedette serve` offers to put it on one (a `place`
        /// correction).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        places: Vec<vedette_geometry::Unit>,
    },
    /// A tagged unit none of whose tags was read (its figures hide them, or they were
    /// never printed): its bases were fitted to their edges in the photo as an untagged
    /// unit's (issue 37), `"found": "fitted"`, with the tagged bases found occupying
    /// their places.
    TagsNotRead {
        /// The unit.
        unit: String,
        /// Its tags, none read.
        tags: Vec<u32>,
    },
    /// An untagged unit was given a formation that fits other units of its side, kind
    /// and layout as well (issue 37): the photo cannot tell them apart; check which is
    /// which (the viewer offers to swap it with a twin on the table: a `swap` correction).
    /// Also named: units of another layout whose place there fits as well, or whose
    /// declared coat shows there and the unit's does not (a leader's place taken by a
    /// skirmisher); the viewer offers to swap only units of one kind and layout.
    AmbiguousUnit {
        /// The unit the formation was given to.
        unit: String,
        /// The formation's centre, table mm.
        at_mm: [f64; 2],
        /// The units it may be instead.
        others: Vec<String>,
    },
    /// An untagged unit whose front the photo does not show: its facing is assumed
    /// toward the enemy's table edge, or the nearest enemy unit found for a unit
    /// standing along the table (`"facing": "assumed"`), and may be the wrong way round
    /// (issue 37).
    AssumedFacing {
        /// The unit.
        unit: String,
    },
    /// Several photos (issue 37): an untagged unit the photos put in places that are
    /// not one place, one of which went to no twin of it on the merged table (the photos
    /// contradict each other); left out, not guessed.
    ConflictingUnit {
        /// The unit.
        unit: String,
        /// Where each photo put its formation's centre, table mm (only the places no
        /// merged unit stands on, when there are any).
        at_mm: Vec<[f64; 2]>,
        /// The photos (0-based, in the order given), one per place.
        photos: Vec<usize>,
        /// The unit as each of those photos fitted it, in the same order; empty when
        /// every photo's place is another merged unit's. `vedette serve` offers to put
        /// it on one (a `place` correction), as for a unit held back from a contested
        /// place.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        places: Vec<vedette_geometry::Unit>,
    },
    /// No roster was given: tags became placeholder units of the profile's default
    /// base size.
    NoRoster {
        /// How many tags.
        tags: usize,
    },
    /// A marker cube stands about as near to two or more units: it is in the table
    /// without a unit, for a person to link (issue 19).
    MarkerAmbiguous {
        /// Its colour.
        colour: MarkerColour,
        /// Where, table mm.
        at_mm: [f64; 2],
        /// The units it could belong to, nearest first.
        units: Vec<String>,
    },
    /// A marker cube stands farther than an inch from every unit found while units of
    /// the roster were not found: it may mark one of those, and is in the table
    /// without a unit, for a person to link (issue 36).
    MarkerUnitNotFound {
        /// Its colour.
        colour: MarkerColour,
        /// Where, table mm.
        at_mm: [f64; 2],
        /// The unit found nearest it.
        nearest: String,
        /// The roster's units of which no base was found.
        units: Vec<String>,
    },
    /// A marker cube stands near no unit: it is in the table without a unit.
    MarkerUnlinked {
        /// Its colour.
        colour: MarkerColour,
        /// Where, table mm.
        at_mm: [f64; 2],
    },
    /// The photo's tags are under the size at which crowded tags are read as well as
    /// at full size (issue 39; `vedette_vision::diagnosis`): the scan goes on.
    SmallTags {
        /// The smallest tag side over the table, px.
        smallest_px: f64,
        /// The median, px.
        median_px: f64,
        /// The comfortable size, px.
        comfortable_px: f64,
    },
    /// The photo is blurred more than is comfortable for its tags (measured at the
    /// fiducials' edges): the scan goes on.
    BlurredPhoto {
        /// The edge spread, px (a Gaussian's standard deviation).
        sigma_px: f64,
        /// A tag cell's side, px.
        cell_px: f64,
        /// The comfortable most, px.
        comfortable_px: f64,
    },
    /// A patch of saturated pixels on the table (glare, overexposure): a tag under it
    /// cannot be read.
    Glare {
        /// Its centre, table mm.
        at_mm: [f64; 2],
        /// The diameter of a disc of its area, mm.
        across_mm: f64,
        /// Tags found that it touches.
        tags: Vec<u32>,
    },
    /// `--allow-partial`: the photo does not look like the roster (issue 39), and was
    /// scanned all the same.
    RosterMismatch {
        /// What does not fit, in words.
        reason: String,
    },
}

impl ScanIssue {
    /// True for what is said about the photo itself rather than about a tag or a
    /// marker: tags under the comfortable size, blur, glare (issue 39).
    #[must_use]
    pub fn about_photo(&self) -> bool {
        matches!(
            self,
            ScanIssue::SmallTags { .. }
                | ScanIssue::BlurredPhoto { .. }
                | ScanIssue::Glare { .. }
                | ScanIssue::FocalLengthUnknown { .. }
                | ScanIssue::OverexposedPaper { .. }
        )
    }

    /// Why the scan held a unit back between places it offers (`missing-unit` with
    /// `places`: a contested place; `conflicting-unit` with `places`: photos that put it
    /// apart), as the page says it beside the places it numbers; `None` for any other
    /// issue. The same clause as the report's ([`ScanIssue::describe`]).
    #[must_use]
    pub fn held_reason(&self) -> Option<String> {
        match self {
            ScanIssue::MissingUnit { places, .. } if !places.is_empty() => {
                Some(crate::fitting::contested_clause(&format!("these {} places", places.len())))
            }
            ScanIssue::ConflictingUnit { photos, places, .. } if !places.is_empty() => {
                Some(crate::fitting::conflicting_clause(photos, &format!("in these {} places", places.len())))
            }
            _ => None,
        }
    }

    /// One line for people.
    #[must_use]
    pub fn describe(&self) -> String {
        let at = |p: &[f64; 2]| format!("({:.1}, {:.1}) mm", p[0], p[1]);
        match self {
            ScanIssue::UnknownTag { id, at_mm } => format!("tag {id} at {} is not in the roster", at(at_mm)),
            ScanIssue::DuplicateTag { id, at_mm } => format!(
                "tag {id} appears {} times, at {}: left out",
                at_mm.len(),
                at_mm.iter().map(at).collect::<Vec<_>>().join(", ")
            ),
            ScanIssue::OutsideTable { id, at_mm } => {
                format!("tag {id} at {} is off the table: left out", at(at_mm))
            }
            ScanIssue::MissingTag { id, unit, base } => {
                format!("tag {id} ({unit} base {base}) was not found")
            }
            ScanIssue::MisshapenTag { id, at_mm, fit_rms_mm } => format!(
                "tag {id} at {}: its corners are {fit_rms_mm:.1} mm RMS off a square, not a tag lying flat: left out",
                at(at_mm)
            ),
            ScanIssue::TagSizeMismatch { id, measured_mm, expected_mm } => {
                format!("tag {id} measures {measured_mm:.1} mm, the profile says {expected_mm:.1} mm")
            }
            ScanIssue::TagDisagrees { id, residual_px, limit_px } => format!(
                "tag {id} does not fit the self-calibrated camera: its corners are {residual_px:.2} px RMS off a {} square (limit {limit_px:.2} px); check its size and the base's height",
                "profile-sized"
            ),
            ScanIssue::FocalLengthUnknown { focal_px, tilt_deg, spread_mm } => format!(
                "{}, this photo cannot tell the lens's focal length (from {:.0} to {:.0} px fit it alike): bases may be up to {spread_mm:.1} mm off, as their sigma says; tilt the camera 10-20° or give a camera file",
                if *tilt_deg < 2.0 {
                    "taken straight down".to_string()
                } else {
                    format!("tilted only {tilt_deg:.0}°")
                },
                focal_px[0],
                focal_px[1]
            ),
            ScanIssue::OverexposedPaper { fiducials, of, tags, of_tags } => format!(
                "the white paper is overexposed around {} of the {of} fiducials{} and {tags} of the {of_tags} tags: without a camera file their corners cannot be placed truly, and bases may be a millimetre or more off; expose for the paper (no white at full brightness) or give a camera file",
                fiducials.len(),
                if fiducials.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", fiducials.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
                }
            ),
            ScanIssue::FiducialDisagrees { id, offset_mm, others_mm } => format!(
                "fiducial {id} is {offset_mm:.2} mm RMS from where the other fiducials put it (they agree within {others_mm:.2} mm): check that it has not moved"
            ),
            ScanIssue::ParentNotFound { unit, parent } => format!(
                "{unit} was found but no base of its parent {parent}: written without its parent, so checks against the parent are not made"
            ),
            ScanIssue::UndecodedTag { at_mm } => {
                format!("a tag at {} could not be read (a figure hides part of it?): left out", at(at_mm))
            }
            ScanIssue::InferredBase { id, unit, base, at_mm, sigma_mm } => format!(
                "tag {id} ({unit} base {base}) was not seen: the base is placed by its formation at {} (sigma {sigma_mm:.1} mm, inferred)",
                at(at_mm)
            ),
            ScanIssue::ConflictingTag { id, at_mm, photos } => format!(
                "tag {id} lands at {} in photos {}: further apart than their uncertainty allows, left out",
                at_mm.iter().map(at).collect::<Vec<_>>().join(", "),
                photos.iter().map(|p| (p + 1).to_string()).collect::<Vec<_>>().join(", ")
            ),
            ScanIssue::MissingUnit { unit, bases, base_mm, searched_mm, looked, .. } => format!(
                "{unit} ({bases} untagged {} of {:.0} x {:.0} mm) was not found, none invented: looked over the table from {} to {} {looked}",
                if *bases == 1 { "base" } else { "bases" },
                base_mm[0],
                base_mm[1],
                at(&searched_mm[0]),
                at(&searched_mm[1])
            ),
            ScanIssue::TagsNotRead { unit, tags } => format!(
                "{unit}: none of its {} {} ({}) was read; its bases were fitted to their edges in the photo as an untagged unit's (\"found\": \"fitted\")",
                tags.len(),
                if tags.len() == 1 { "tag" } else { "tags" },
                tags.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
            ),
            ScanIssue::AmbiguousUnit { unit, at_mm, others } => format!(
                "the formation at {} fits {unit} and {} equally (the photo cannot tell which stands there): given to {unit}, check which is which (in the viewer, tap it: \"It is ...\" swaps it with a twin of the same layout)",
                at(at_mm),
                others.join(", ")
            ),
            ScanIssue::AssumedFacing { unit } => format!(
                "{unit}: the photo does not show which edge is the front; facing assumed toward the enemy's table edge, or its nearest unit for a unit standing along the table (flip it if wrong)"
            ),
            ScanIssue::ConflictingUnit { unit, at_mm, photos, .. } => format!(
                "{unit} left out: {}",
                crate::fitting::conflicting_clause(
                    photos,
                    &format!("at {}", crate::fitting::and_list(&at_mm.iter().map(at).collect::<Vec<_>>()))
                )
            ),
            ScanIssue::NoRoster { tags } => {
                format!("no roster: {tags} tags became placeholder units \"tag-ID\" of the default base size")
            }
            ScanIssue::MarkerAmbiguous { colour, at_mm, units } => format!(
                "{} cube at {} stands as near to {} as to {}: left unlinked, set its unit by hand",
                colour_name(*colour),
                at(at_mm),
                units.first().map_or("", String::as_str),
                units[1..].join(", ")
            ),
            ScanIssue::MarkerUnitNotFound { colour, at_mm, nearest, units } => format!(
                "{} cube at {} stands over an inch from {}, the unit found nearest, and may mark a unit not found ({}): left unlinked, set its unit by hand",
                colour_name(*colour),
                at(at_mm),
                nearest,
                named_few(units)
            ),
            ScanIssue::MarkerUnlinked { colour, at_mm } => {
                format!("{} cube at {} is near no unit: left unlinked", colour_name(*colour), at(at_mm))
            }
            ScanIssue::SmallTags { smallest_px, median_px, comfortable_px } => format!(
                "tags are {median_px:.1} px across ({smallest_px:.1} px at the far side), under the {comfortable_px:.0} px at which tags beside figures are read as well as at full size: closer or with more megapixels, more bases are read"
            ),
            ScanIssue::BlurredPhoto { sigma_px, cell_px, comfortable_px } => format!(
                "the photo is blurred: edges spread over {sigma_px:.2} px at the fiducials, more than {comfortable_px:.2} px (a third of a {cell_px:.1} px tag cell): hold the camera still and focus on the table"
            ),
            ScanIssue::Glare { at_mm, across_mm, tags } => format!(
                "glare: a patch of white {across_mm:.0} mm across at {} is saturated{}; a tag under it cannot be read: move the light or shade the table",
                at(at_mm),
                if tags.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (over tag{} {})",
                        if tags.len() > 1 { "s" } else { "" },
                        tags.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
                    )
                }
            ),
            ScanIssue::RosterMismatch { reason } => format!("--allow-partial: {reason}"),
        }
    }
}

/// A unit's found bases, in roster order, as table bases: once a base before it is
/// missing, each carries its roster number (`slot`) so that labels keep the roster's
/// numbering.
pub(crate) fn number_by_roster(bases: Vec<(usize, Base)>) -> Vec<Base> {
    bases
        .into_iter()
        .enumerate()
        .map(|(i, (slot, b))| {
            if slot == i {
                b
            } else {
                let meta = b.meta();
                b.with_meta(BaseMeta { slot: Some(slot), ..meta })
            }
        })
        .collect()
}

/// A unit found without the unit it belongs to: the table cannot name a parent it does
/// not hold, so the link is dropped and said (`parent-not-found`).
pub(crate) fn drop_missing_parents(units: &mut [Unit], issues: &mut Vec<ScanIssue>) {
    let present: std::collections::BTreeSet<String> = units.iter().map(|u| u.id.clone()).collect();
    for unit in units.iter_mut() {
        if let Some(parent) = unit.parent.take_if(|p| !present.contains(p.as_str())) {
            issues.push(ScanIssue::ParentNotFound { unit: unit.id.clone(), parent });
        }
    }
}

fn colour_name(c: MarkerColour) -> &'static str {
    match c {
        MarkerColour::White => "white",
        MarkerColour::Yellow => "yellow",
        MarkerColour::Red => "red",
        MarkerColour::Black => "black",
        MarkerColour::Natural => "natural",
    }
}

/// Time spent in each stage, ms.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Timing {
    /// Finding the table fiducials and solving the camera.
    pub camera: f64,
    /// Finding and measuring the tags.
    pub tags: f64,
    /// Of which: the second search for tags among figures (issue 18).
    #[serde(default)]
    pub clutter: f64,
    /// Finding marker cubes and segmenting terrain (issue 19).
    #[serde(default)]
    pub surface: f64,
    /// Fitting the untagged units' bases (issue 37).
    #[serde(default)]
    pub fitting: f64,
    /// The whole scan (photo already in memory).
    pub total: f64,
}

/// Relative tag-size error past which a tag is reported when the lens is not modelled
/// (the homography models: distortion alone changes apparent sizes by a few percent).
const SIZE_MISMATCH: f64 = 0.15;

/// Relative tag-size error past which a tag is reported when the lens is modelled
/// (calibrated or self-calibrated: sides measure to a few hundredths of a mm, and the
/// corner detector's bias on small tags stays near 1%).
const SIZE_MISMATCH_MODELLED: f64 = 0.04;

/// A fiducial further than this from where the other fiducials put it is reported, mm
/// RMS over its corners.
const FIDUCIAL_WARN_MM: f64 = 1.0;

/// Self-calibrated focal lengths that fit a photo alike and lie further apart than
/// this ratio (most over least) make the photo's lens unknown
/// ([`ScanIssue::FocalLengthUnknown`]): on the scan bench, photos tilted 5° and more
/// span at most 1.1, the straight-down ones 2 to 4.
const FOCAL_UNKNOWN_RATIO: f64 = 1.5;

/// A tag whose corners lie further than this share of its side (RMS) from the square
/// fitted to them is not a tag lying flat (issue 18: a misdetection among figures read
/// a 12 mm tag with corners 9.6 mm RMS off a square; real tags, crowded or not, stay
/// under 1.3 mm in `benches/scan_two_photos.rs` and under 0.12 mm in the samples).
pub const MAX_FIT_RMS_FRACTION: f64 = 0.25;

/// The tag-size tolerance of a photo, mm: tighter when the lens is modelled.
fn size_tolerance(fit: &CameraFit, size_mm: f64) -> f64 {
    match fit.model.kind() {
        ModelKind::Calibrated | ModelKind::SelfCalibrated => SIZE_MISMATCH_MODELLED * size_mm,
        ModelKind::HomographyFocal | ModelKind::Homography => SIZE_MISMATCH * size_mm,
    }
}

/// Scans a photo.
///
/// `intrinsics` overrides the profile's camera (tools and tests pass a known camera);
/// `None` uses the profile's.
pub fn scan(
    photo: &Photo,
    profile: &Profile,
    roster: Option<&Roster>,
    intrinsics: Option<&Intrinsics>,
) -> Result<Scan, VisionError> {
    scan_with(photo, profile, roster, intrinsics, SurfaceOptions::default())
}

/// Scans a photo, reading markers and terrain as `surface` says ([`scan`] reads both).
pub fn scan_with(
    photo: &Photo,
    profile: &Profile,
    roster: Option<&Roster>,
    intrinsics: Option<&Intrinsics>,
    surface: SurfaceOptions,
) -> Result<Scan, VisionError> {
    scan_with_background(photo, profile, roster, intrinsics, surface, None)
}

/// [`scan_with`], with a photo of the empty table taken from the same place
/// (`background`, issue 37): the untagged bases are found against the mat it shows
/// instead of the mat learned from the photo. It must be the photo's size and show
/// the fiducials from (nearly) the same camera ([`VisionError::Background`] else).
/// Tagged bases are found as without it.
pub fn scan_with_background(
    photo: &Photo,
    profile: &Profile,
    roster: Option<&Roster>,
    intrinsics: Option<&Intrinsics>,
    surface: SurfaceOptions,
    background: Option<&Photo>,
) -> Result<Scan, VisionError> {
    let start = Instant::now();
    if let Some(r) = roster {
        r.check_for(profile)?;
    }
    let (w, h) = photo.size()?;
    let camera = match intrinsics {
        Some(k) => Some(k.clone()),
        None => profile.intrinsics()?,
    };
    // A camera file fits photos of its own size only (issue 41): a resized photo's
    // numbers would scale, another sensor mode's would not.
    if let Some(k) = &camera
        && (k.image_width, k.image_height) != (w, h)
    {
        return Err(VisionError::CameraSize {
            camera_width: k.image_width,
            camera_height: k.image_height,
            photo_width: w,
            photo_height: h,
        });
    }

    let mut fiducials = find_fiducials(photo, profile)?;
    // The photo's encoding, from the fiducials' edges (issue 36): an sRGB photo's edges
    // are placed in light, the fiducials' again and every tag's.
    let tone = crate::tone::measure_tone(&photo.gray, &fiducials, profile.fiducials.dictionary.bits())?;
    if tone == crate::tone::Tone::Srgb {
        let view = crate::fiducials::GrayView::new(&photo.gray)?.with_srgb(true);
        for f in &mut fiducials {
            let mut c = f.corners;
            if crate::fiducials::refine_edges_view(&view, &mut c, profile.fiducials.dictionary.bits()) {
                f.corners = c;
            }
        }
    }
    let mut fit = match solve_camera(profile, &fiducials, camera.as_ref(), (w, h)) {
        Err(VisionError::TooFewFiducials { found_count, found, missing, .. }) => {
            // Why, measured from the photo (issue 39).
            let diagnosis = crate::diagnosis::missing_fiducials_text(photo, profile, &fiducials)?;
            return Err(VisionError::TooFewFiducials { found_count, found, missing, diagnosis });
        }
        other => other?,
    };
    if fit.model.kind() == ModelKind::Calibrated {
        fit.check_limits(profile)?;
    }
    // Tags too small or too blurred to read are refused before they are read (issue 41).
    let sizes = crate::diagnosis::tag_sizes(&fit.model, profile);
    let blur_px = crate::diagnosis::fiducial_blur(photo, &fiducials, profile.fiducials.dictionary.bits())?;
    if surface.tags {
        crate::diagnosis::check_tag_sizes(&sizes, profile)?;
        if let Some(sigma) = blur_px {
            crate::diagnosis::check_blur(
                sigma,
                sizes.median_px / f64::from(profile.tags.dictionary.bits() + 2),
            )?;
        }
    }
    let t_camera = start.elapsed().as_secs_f64() * 1e3;

    // Tags: sized from the camera model at the table's corners (the far side of a
    // tilted photo has the smallest tags).
    let corners = [
        Vec2::new(0.0, 0.0),
        Vec2::new(profile.table.width_mm, 0.0),
        Vec2::new(0.0, profile.table.depth_mm),
        Vec2::new(profile.table.width_mm, profile.table.depth_mm),
        Vec2::new(profile.table.width_mm / 2.0, profile.table.depth_mm / 2.0),
    ];
    // Each tag's printed side: its roster unit's `tag_mm`, else the profile's (issue 36).
    let default_mm = profile.tags.size_mm;
    let size_of = |id: u32| roster.map_or(default_mm, |r| r.tag_size_mm(id, default_mm));
    let smallest_mm = roster.map_or(default_mm, |r| r.tag_sizes_mm(default_mm)[0]);
    let min_side_px =
        corners.iter().map(|&c| smallest_mm / fit.model.mm_per_px(c)).fold(f64::INFINITY, f64::min);
    let mut settings = DetectorSettings::for_marker_side(min_side_px, profile.tags.dictionary.bits());
    settings.min_side_px = (min_side_px * 0.6).max(8.0);
    settings.srgb_edges = tone == crate::tone::Tone::Srgb;
    // The search among figures thresholds the photo over boxes its tags' size sets:
    // for each size, the contours are found beside the tag detector (and the
    // self-calibration) with the camera as it stands, and the search takes those whose
    // box the final camera still sets (issue 36).
    let boxes = crate::clutter::threshold_boxes(&fit, profile, roster);
    std::thread::scope(|s| {
        let early = s.spawn(|| {
            // An error here is met again where the search finds its contours itself.
            boxes
                .iter()
                .filter_map(|&b| crate::clutter::Contours::of(&photo.gray, b).ok())
                .collect::<Vec<_>>()
        });
        // Table fiducials are markers too: a tag dictionary of the same family reads them
        // as tags, so anything lying on a fiducial is not a tag.
        let shared = profile.tags.dictionary.shares_codes_with(profile.fiducials.dictionary);
        let seen: Vec<DetectedMarker> = detect_markers(&photo.gray, profile.tags.dictionary, &settings)?
            .into_iter()
            .filter(|m| !(shared && profile.fiducial(m.id).is_some()))
            .filter(|m| !fiducials.iter().any(|f| inside_quad(&f.corners, m.centre())))
            .collect();
        let mut tags = measure_sized_tags(&fit, &seen, &size_of, profile.bases.top_height_mm)?;
        // No camera file: the lens is calibrated from the table itself, and the tags are
        // measured again through the new model (issue 17).
        let mut tag_residual_px: Option<Vec<f64>> = None;
        let mut focal_unknown = None;
        let mut overexposed = None;
        // Fiducials and tags on clipped paper read small, each by its own amount (issue 36).
        let clipped = if fit.model.kind() == ModelKind::Calibrated {
            Overexposure::default()
        } else {
            Overexposure::measure(
                &photo.gray,
                &fiducials,
                profile.fiducials.dictionary.bits(),
                &tags,
                profile.tags.dictionary.bits(),
            )?
        };
        let clear = if fit.model.kind() == ModelKind::Calibrated {
            Vec::new()
        } else {
            clear_margins(&photo.gray, &tags, profile.tags.dictionary.bits())?
        };
        if let Some(sc) = self_calibrate(profile, &fiducials, &clipped, &fit, &tags, &clear)? {
            if !clipped.fiducials.is_empty() || 2 * clipped.tags > tags.len() {
                overexposed = Some(ScanIssue::OverexposedPaper {
                    fiducials: clipped.fiducials,
                    of: fiducials.len(),
                    tags: clipped.tags,
                    of_tags: tags.len(),
                });
            }
            let (lo, hi) = sc.focal_range_px;
            if hi > FOCAL_UNKNOWN_RATIO * lo {
                focal_unknown = Some(ScanIssue::FocalLengthUnknown {
                    focal_px: [lo.round(), hi.round()],
                    tilt_deg: sc.fit.model.pose().map_or(0.0, |p| round_to(p.tilt_deg(), 0.1)),
                    spread_mm: round_to(sc.focal_spread_mm, 0.1),
                });
            }
            fit = sc.fit;
            tags = measure_sized_tags(&fit, &seen, &size_of, profile.bases.top_height_mm)?;
            for (t, v) in tags.iter_mut().zip(&sc.tag_model_var) {
                t.model_var = Some(*v);
            }
            tag_residual_px = Some(sc.tag_residual_px);
        }
        // Tags among figures (issue 18): a second search that knows their size in the photo.
        // The camera is solved: the pixel work of the glare's patches and of the surface
        // (the table rectified and colour-corrected for the cubes and the terrain), which
        // needs nothing the search finds, is done meanwhile on the search's second thread.
        // Each result, or its error, is taken where it was computed before (issue 36), so
        // that a scan gives what it gave on one thread.
        let t_clutter = Instant::now();
        let early = early.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        let (clutter, (surface_pixels, bright)) =
            crate::clutter::search(photo, profile, roster, &fit, &seen, &fiducials, tone, &early, || {
                let bright = crate::diagnosis::bright_patches(photo, &fit.model, profile);
                (crate::surface::SurfacePixels::of(photo, profile, &fit, &fiducials, surface), bright)
            });
        let (crowded, undecoded) = clutter?;
        let t_clutter = t_clutter.elapsed().as_secs_f64() * 1e3;
        tags.extend(measure_sized_tags(&fit, &crowded, &size_of, profile.bases.top_height_mm)?);
        fit.check_limits(profile)?;
        let budget = ErrorBudget::of_photo(
            &fit,
            &tags,
            profile.bases.top_height_mm,
            profile.bases.top_height_sigma_mm,
        );

        // What makes the photo marginal comes first (issue 39).
        let glare = bright?.over(&tags);
        let mut issues = if surface.tags {
            crate::diagnosis::marginal_photo(&sizes, blur_px, glare, profile)
        } else {
            Vec::new()
        };
        issues.extend(focal_unknown);
        issues.extend(overexposed);
        issues.extend(undecoded.iter().map(|c| ScanIssue::UndecodedTag { at_mm: report_at(*c) }));
        let residual_limit = tag_residual_px.as_deref().map(crate::selfcal::residual_limit);
        for (i, t) in tags.iter().enumerate() {
            if let (Some(r), Some(limit)) = (tag_residual_px.as_ref().and_then(|v| v.get(i)), residual_limit)
                && *r > limit
            {
                issues.push(ScanIssue::TagDisagrees { id: t.id, residual_px: *r, limit_px: limit });
            }
        }
        if let Some(f) = fit.suspect.filter(|f| f.offset_mm > FIDUCIAL_WARN_MM) {
            issues.push(ScanIssue::FiducialDisagrees {
                id: f.id,
                offset_mm: f.offset_mm,
                others_mm: f.others_mm,
            });
        }
        let mut by_id: BTreeMap<u32, Vec<&TagPose>> = BTreeMap::new();
        for t in &tags {
            by_id.entry(t.id).or_default().push(t);
        }
        // Bases found, per roster unit (or per placeholder unit).
        let mut found: BTreeMap<usize, Vec<(usize, Base)>> = BTreeMap::new();
        let mut placeholders: Vec<Unit> = Vec::new();
        for (&id, copies) in &by_id {
            if copies.len() > 1 {
                issues.push(ScanIssue::DuplicateTag {
                    id,
                    at_mm: copies.iter().map(|t| [t.centre.x, t.centre.y]).collect(),
                });
                continue;
            }
            let t = copies[0];
            if !profile.on_table(t.centre, 0.0) {
                issues.push(ScanIssue::OutsideTable { id, at_mm: [t.centre.x, t.centre.y] });
                continue;
            }
            if t.fit_rms_mm > MAX_FIT_RMS_FRACTION * t.size_mm {
                issues.push(ScanIssue::MisshapenTag {
                    id,
                    at_mm: report_at(t.centre),
                    fit_rms_mm: round_to(t.fit_rms_mm, 0.01),
                });
                continue;
            }
            if (t.side_mm - t.size_mm).abs() > size_tolerance(&fit, t.size_mm) {
                issues.push(ScanIssue::TagSizeMismatch {
                    id,
                    measured_mm: t.side_mm,
                    expected_mm: t.size_mm,
                });
            }
            let (size, offset, slot) = match roster {
                Some(r) => match r.lookup(id) {
                    Some(e) => (e.size, e.offset, Some((e.unit, e.base))),
                    None => {
                        issues.push(ScanIssue::UnknownTag { id, at_mm: [t.centre.x, t.centre.y] });
                        continue;
                    }
                },
                None => {
                    let [bw, bd] = profile.bases.default_size_mm;
                    (BaseSize::new(bw, bd), Vec2::default(), None)
                }
            };
            let (sigma_mm, sigma_heading_deg) = budget.base_sigma(
                &fit,
                t,
                offset.length(),
                profile.bases.top_height_mm,
                profile.bases.top_height_sigma_mm,
            );
            let forward = Vec2::from_heading_deg(t.heading_deg);
            let right = Vec2::new(forward.y, -forward.x);
            let centre = t.centre - right * offset.x - forward * offset.y;
            let base = Base::new(size, Pose::new(centre, t.heading_deg)).with_meta(BaseMeta {
                tag: Some(id),
                sigma_mm: Some(round_to(sigma_mm, 1e-3)),
                sigma_heading_deg: Some(round_to(sigma_heading_deg, 1e-3)),
                slot: None,
                inferred: false,
                found: Some(Found::Tag),
                facing: None,
            });
            match slot {
                Some((unit, index)) => found.entry(unit).or_default().push((index, base)),
                None => placeholders.push(Unit::new(
                    format!("tag-{id}"),
                    "unassigned",
                    UnitKind::Infantry,
                    vec![base],
                )),
            }
        }
        // The empty table's photo, lined up with this one (checked even when no unit is
        // untagged, so that a wrong one is said).
        let background = match background {
            Some(b) => Some(crate::fitting::background_surface(b, photo, profile, &fit, tone)?),
            None => None,
        };
        let mut units = Vec::new();
        let mut t_fitting = 0.0;
        match roster {
            Some(r) => {
                // Bases whose tags were unseen, where their formation fixes them (issue 18).
                // Those of a unit's slots the photo shows beside its found bases (issue 36).
                let looks = crate::alike::Looks::new(
                    &photo.color,
                    &fit.model,
                    profile.bases.top_height_mm,
                    profile.tags.size_mm,
                );
                let debug = std::env::var_os("VEDETTE_SEEN_DEBUG").is_some();
                let shows = |u: &RosterUnit, at: &Base, like: &Base, open: [bool; 4]| {
                    if debug {
                        eprintln!(
                            "seen? {} tag {:?} at ({:.1},{:.1}) open {open:?}: {:?}",
                            u.id,
                            at.meta().tag,
                            at.centre().x,
                            at.centre().y,
                            looks.measure(u, at, like, open)
                        );
                    }
                    looks.shows(u, at, like, open)
                };
                let mut inferred = crate::infer::infer_bases(r, &found, Some(&shows));
                // Untagged units, and tagged units none of whose tags was read: fitted as
                // rectangles of their size (issue 37), around the tagged bases found.
                let t_fit = Instant::now();
                let wanted =
                    crate::fitting::wanted(r, |ui| found.contains_key(&ui) || inferred.contains_key(&ui));
                // Where a tagged unit none of whose tags was read is not put: the unread
                // bases of units found in part, and the bases placed beside them.
                let mut keep_off = unread_zones(Some(r), &standing(r, &found, &inferred), &[], profile);
                keep_off.extend(inferred.values().flatten().map(|(_, b)| *b));
                let mut fitted = if wanted.is_empty() {
                    crate::fitting::Fitted::default()
                } else {
                    let tagged = Table {
                        units: found
                            .iter()
                            .map(|(ui, bases)| r.units[*ui].to_unit(bases.iter().map(|(_, b)| *b).collect()))
                            .collect(),
                        ..Table::new(r.game.rules, r.game.scale, Vec::new())
                    };
                    crate::fitting::fit_units(
                        photo,
                        profile,
                        r,
                        &wanted,
                        &fit,
                        &tagged,
                        &tags,
                        &fiducials,
                        tone,
                        background.as_ref(),
                        &keep_off,
                    )?
                };
                t_fitting = t_fit.elapsed().as_secs_f64() * 1e3;
                // A tagged unit the fitter did not place stays missing by its tags
                // (`missing-tag`, below), not as an untagged unit.
                let tagged_id = |id: &str| r.units.iter().any(|u| u.id == id && u.is_tagged());
                fitted
                    .issues
                    .retain(|i| !matches!(i, ScanIssue::MissingUnit { unit, .. } if tagged_id(unit)));
                issues.append(&mut fitted.issues);
                for (ui, u) in r.units.iter().enumerate() {
                    if let Some(bases) = fitted.units.remove(&ui) {
                        if u.is_tagged() {
                            issues.push(ScanIssue::TagsNotRead { unit: u.id.clone(), tags: u.tags.clone() });
                        }
                        units.push(u.to_unit(bases));
                        continue;
                    }
                    if !u.is_tagged() {
                        continue;
                    }
                    let mut bases = found.remove(&ui).unwrap_or_default();
                    let placed = inferred.remove(&ui).unwrap_or_default();
                    for (bi, b) in &placed {
                        let (id, at_mm) = (u.tags[*bi], [b.centre().x, b.centre().y]);
                        let sigma_mm = b.meta().sigma_mm.unwrap_or(0.0);
                        issues.push(ScanIssue::InferredBase {
                            id,
                            unit: u.id.clone(),
                            base: *bi,
                            at_mm,
                            sigma_mm,
                        });
                    }
                    bases.extend(placed);
                    bases.sort_by_key(|(i, _)| *i);
                    for (bi, &tag) in u.tags.iter().enumerate() {
                        if !by_id.contains_key(&tag) && !bases.iter().any(|(i, _)| *i == bi) {
                            issues.push(ScanIssue::MissingTag { id: tag, unit: u.id.clone(), base: bi });
                        }
                    }
                    if !bases.is_empty() {
                        units.push(u.to_unit(number_by_roster(bases)));
                    }
                }
                drop_missing_parents(&mut units, &mut issues);
            }
            None => {
                if !placeholders.is_empty() {
                    issues.push(ScanIssue::NoRoster { tags: placeholders.len() });
                }
                units = placeholders;
            }
        }
        let mut table = scanned_table(profile, roster, units);
        let t_tags = start.elapsed().as_secs_f64() * 1e3;
        let unread = unread_zones(roster, &table, &undecoded, profile);
        let unfound: Vec<String> =
            roster.map(|r| r.not_on(&table).map(|u| u.id.clone()).collect()).unwrap_or_default();
        let (surface_issues, t_surface) = crate::surface::read_surface_with(
            surface_pixels?,
            profile,
            &fit,
            &mut table,
            &tags,
            &unread,
            &unfound,
        )?;
        issues.extend(surface_issues);
        let t_total = start.elapsed().as_secs_f64() * 1e3;
        let report = ScanReport {
            image_width: w,
            image_height: h,
            camera: CameraReport {
                model: fit.model.kind(),
                description: fit.model.kind().describe().to_string(),
                focal_px: fit.focal_px,
                camera_mm: fit.model.camera_centre(),
                tilt_deg: fit.model.pose().map(|p| p.tilt_deg()),
                residual_px: fit.residual_px,
                model_parameters: fit.model.parameters(),
                base_top_mm: profile.bases.top_height_mm,
                residual_mm: fit.residual_mm,
                fiducials: fit.fiducials.clone(),
                missing_fiducials: fit.missing.clone(),
            },
            budget,
            tags_seen: tags.len(),
            bases: table.base_count(),
            issues,
            timing_ms: Timing {
                camera: t_camera,
                tags: t_tags - t_camera,
                clutter: t_clutter,
                surface: t_surface,
                fitting: t_fitting,
                total: t_total,
            },
        };
        Ok(Scan { table, report, tags, fiducials, fit })
    })
}

/// The most base lengths around a unit's bases read that its unread bases are taken to
/// stand in.
const UNREAD_REACH_BASES: usize = 3;

/// Where bases whose tags were not read may stand (issue 41: unread bases never become
/// terrain): around the bases read of a roster unit with bases missing, a square
/// reaching one base length (the base's larger side) further per missing base, at most
/// [`UNREAD_REACH_BASES`]; and a base of the profile's default size at each tag seen but
/// not read. A unit none of whose bases was read leaves no trace to place them by.
fn unread_zones(roster: Option<&Roster>, table: &Table, undecoded: &[Vec2], profile: &Profile) -> Vec<Base> {
    let mut zones = Vec::new();
    if let Some(r) = roster {
        for u in &table.units {
            let Some(ru) = r.units.iter().find(|ru| ru.id == u.id) else { continue };
            let missing = ru.tags.len().saturating_sub(u.bases.len()).min(UNREAD_REACH_BASES);
            if missing == 0 {
                continue;
            }
            let length = ru.base_mm[0].max(ru.base_mm[1]);
            let side = length * (1 + 2 * missing) as f64;
            zones.extend(u.bases.iter().map(|b| Base::new(BaseSize::new(side, side), b.pose())));
        }
    }
    let [w, d] = profile.bases.default_size_mm;
    let side = w.max(d);
    zones.extend(undecoded.iter().map(|&c| Base::new(BaseSize::new(side, side), Pose::new(c, 90.0))));
    zones
}

/// The units `found` by their tags (by roster index: base index and base) with the
/// bases `inferred` beside them ([`crate::infer::infer_bases`]): a unit found in part
/// whose other bases its formation placed has no unread base left to stand elsewhere
/// ([`unread_zones`], issue 36: on the second renderer's tagged-304 the zone of
/// au-16, one of whose four tags was read and the other three bases placed beside it,
/// reached 105 mm from that base and covered au-3's place about 80 mm away). The bases
/// placed are themselves kept out of the fitter's reach (a two-base unit was laid on
/// au-6's three placed bases when their zone went).
fn standing(
    roster: &Roster,
    found: &BTreeMap<usize, Vec<(usize, Base)>>,
    inferred: &BTreeMap<usize, Vec<(usize, Base)>>,
) -> Table {
    let units = found
        .iter()
        .map(|(ui, bases)| {
            let more = inferred.get(ui).map_or(&[][..], Vec::as_slice);
            roster.units[*ui].to_unit(bases.iter().chain(more).map(|(_, b)| *b).collect())
        })
        .collect();
    Table { units, ..Table::new(roster.game.rules, roster.game.scale, Vec::new()) }
}

/// The most units a message names before "and N more".
const NAMED_UNITS: usize = 5;

/// `units` joined with commas, at most [`NAMED_UNITS`] of them named.
fn named_few(units: &[String]) -> String {
    let mut s = units.iter().take(NAMED_UNITS).cloned().collect::<Vec<_>>().join(", ");
    if units.len() > NAMED_UNITS {
        s.push_str(&format!(" and {} more", units.len() - NAMED_UNITS));
    }
    s
}

/// True when `p` is inside the convex quadrilateral `q`.
fn inside_quad(q: &[[f64; 2]; 4], p: [f64; 2]) -> bool {
    let side = |a: [f64; 2], b: [f64; 2]| (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    let s: Vec<f64> = (0..4).map(|i| side(q[i], q[(i + 1) % 4])).collect();
    s.iter().all(|&v| v >= 0.0) || s.iter().all(|&v| v <= 0.0)
}

/// `v` rounded to a multiple of `step`.
pub(crate) fn round_to(v: f64, step: f64) -> f64 {
    (v / step).round() * step
}

/// A place as the scan report gives it: table mm to a tenth.
pub(crate) fn report_at(p: Vec2) -> [f64; 2] {
    [round_to(p.x, 0.1), round_to(p.y, 0.1)]
}

/// Finds the table fiducials: first on a shrunk copy sized from the table's expected
/// scale (fast), then, if fewer than four of the profile's were found, at full size.
pub fn find_fiducials(photo: &Photo, profile: &Profile) -> Result<Vec<DetectedMarker>, VisionError> {
    let (w, h) = photo.size()?;
    // If the table filled the photo's long side; a tilted or zoomed-out photo shows it
    // smaller, so aim below that.
    let px_per_mm = f64::from(w.max(h)) / profile.table.width_mm.max(profile.table.depth_mm);
    let expected = profile.fiducials.size_mm * px_per_mm * 0.5;
    let dict = profile.fiducials.dictionary;
    let count = |found: &[DetectedMarker]| found.iter().filter(|m| profile.fiducial(m.id).is_some()).count();
    let mut found = detect_large_markers(&photo.gray, dict, expected)?;
    if count(&found) < profile.fiducials.markers.len() {
        let settings = DetectorSettings::for_marker_side(expected.min(40.0), dict.bits());
        let full = detect_markers(&photo.gray, dict, &settings)?;
        if count(&full) > count(&found) {
            found = full;
        }
    }
    found.retain(|m| profile.fiducial(m.id).is_some());
    Ok(found)
}

/// Draws what the scan found over the photo: fiducials (green), bases (blue outline,
/// heading tick), tags left out (red), and each place an untagged unit was held back
/// from (orange outlines, labelled `UNIT ?1`, `UNIT ?2` at their first base).
pub fn draw_overlay(photo: &Photo, scan: &Scan, profile: &Profile) -> Result<Mat, VisionError> {
    let mut img = photo.color.try_clone()?;
    let (w, _) = photo.size()?;
    let thick = ((f64::from(w) / 1500.0).round() as i32).max(1);
    let font = f64::from(w) / 2500.0;
    let green = Scalar::new(0.0, 200.0, 0.0, 0.0);
    let blue = Scalar::new(255.0, 80.0, 0.0, 0.0);
    let red = Scalar::new(0.0, 0.0, 255.0, 0.0);
    let poly = |img: &mut Mat, pts: &[[f64; 2]], colour: Scalar| -> Result<(), VisionError> {
        let v: Vector<Point> =
            pts.iter().map(|p| Point::new(p[0].round() as i32, p[1].round() as i32)).collect();
        let vv: Vector<Vector<Point>> = vec![v].into();
        opencv::imgproc::polylines(img, &vv, true, colour, thick, opencv::imgproc::LINE_AA, 0)?;
        Ok(())
    };
    let label = |img: &mut Mat, text: &str, at: [f64; 2], colour: Scalar| -> Result<(), VisionError> {
        opencv::imgproc::put_text(
            img,
            text,
            Point::new(at[0] as i32, at[1] as i32),
            opencv::imgproc::FONT_HERSHEY_SIMPLEX,
            font,
            colour,
            thick,
            opencv::imgproc::LINE_AA,
            false,
        )?;
        Ok(())
    };
    for f in &scan.fiducials {
        poly(&mut img, &f.corners, green)?;
        label(&mut img, &format!("F{}", f.id), f.corners[0], green)?;
    }
    let top = profile.bases.top_height_mm;
    let mut in_table = std::collections::BTreeSet::new();
    for (_, b) in scan.table.bases() {
        if let Some(tag) = b.meta().tag {
            in_table.insert(tag);
        }
        let c = b.corners();
        let px = scan.fit.model.project(&[c.front_left, c.front_right, c.rear_right, c.rear_left], top)?;
        poly(&mut img, &px, blue)?;
        let tip = b.centre() + Vec2::from_heading_deg(b.heading_deg()) * (b.depth() / 2.0 + 5.0);
        let seg = scan.fit.model.project(&[b.centre(), tip], top)?;
        opencv::imgproc::line(
            &mut img,
            Point::new(seg[0][0] as i32, seg[0][1] as i32),
            Point::new(seg[1][0] as i32, seg[1][1] as i32),
            blue,
            thick,
            opencv::imgproc::LINE_AA,
            0,
        )?;
    }
    for t in &scan.tags {
        if !in_table.contains(&t.id) {
            poly(&mut img, &t.corners_px, red)?;
            label(&mut img, &format!("?{}", t.id), t.corners_px[0], red)?;
        }
    }
    let orange = Scalar::new(0.0, 140.0, 255.0, 0.0);
    for issue in &scan.report.issues {
        let ScanIssue::MissingUnit { unit, places, .. } = issue else { continue };
        for (k, place) in places.iter().enumerate() {
            let (mut low, mut high) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for b in &place.bases {
                let c = b.corners();
                let px =
                    scan.fit.model.project(&[c.front_left, c.front_right, c.rear_right, c.rear_left], top)?;
                poly(&mut img, &px, orange)?;
                for p in &px {
                    low = [low[0].min(p[0]), low[1].min(p[1])];
                    high = [high[0].max(p[0]), high[1].max(p[1])];
                }
            }
            // Places overlap: the first's label above its outline, the second's below.
            if low[0].is_finite() {
                let y = if k % 2 == 0 { low[1] - 8.0 * font } else { high[1] + 30.0 * font };
                label(&mut img, &format!("{unit} ?{}", k + 1), [low[0], y], orange)?;
            }
        }
    }
    Ok(img)
}

/// The table a scan of `profile`'s table writes, holding `units`: the roster's game
/// (rules, scale, name, else the profile's name) and the profile's size; markers and
/// terrain are added after. One photo's scan and the merge of several make it alike.
pub(crate) fn scanned_table(profile: &Profile, roster: Option<&Roster>, units: Vec<Unit>) -> Table {
    let game = roster.map(|r| r.game.clone()).unwrap_or_default();
    Table {
        schema: SCHEMA_ID.to_string(),
        rules: game.rules,
        scale: game.scale,
        name: game.name.or_else(|| profile.name.clone()),
        size: Some(TableSize { width: profile.table.width_mm, depth: profile.table.depth_mm }),
        sides: BTreeMap::new(),
        artillery: Default::default(),
        units,
        markers: Vec::new(),
        terrain: Vec::new(),
    }
}

#[cfg(test)]
pub(crate) mod test_scene {
    //! A flat test scene drawn with OpenCV: markers pasted on an orthographic image of
    //! the table, then seen through a pinhole camera (no distortion) by warping with
    //! the camera's plane homography. Everything lies on the table plane.
    use super::*;
    use crate::camera::mat3;
    use crate::dictionary::Dictionary;
    use crate::profile::square_corners;
    use opencv::core::{CV_8UC1, Point2f, Size};

    pub const PX_PER_MM: f64 = 4.0;
    /// The orthographic image reaches this far past the table's edges, mm.
    const MARGIN_MM: f64 = 30.0;

    pub fn profile() -> Profile {
        Profile::from_toml_str(
            r#"
[table]
width_mm = 600
depth_mm = 400
[fiducials]
dictionary = "DICT_4X4_50"
size_mm = 40
markers = [
  { id = 0, x_mm = 30, y_mm = 30 }, { id = 1, x_mm = 570, y_mm = 30 },
  { id = 2, x_mm = 570, y_mm = 370 }, { id = 3, x_mm = 30, y_mm = 370, rotation_deg = 90 },
]
[bases]
top_height_mm = 0
"#,
            "test.toml",
        )
        .unwrap()
    }

    /// Pastes marker `id` with its OpenCV corners at `corners` (table mm).
    fn paste(ortho: &mut Mat, table_depth: f64, dict: Dictionary, id: u32, corners: [Vec2; 4]) {
        let side = 120;
        let mut m = Mat::default();
        opencv::aruco::draw_marker(&dict.opencv().unwrap(), id as i32, side, &mut m, 1).unwrap();
        let s = side as f32;
        let src: Vector<Point2f> = vec![
            Point2f::new(-0.5, -0.5),
            Point2f::new(s - 0.5, -0.5),
            Point2f::new(s - 0.5, s - 0.5),
            Point2f::new(-0.5, s - 0.5),
        ]
        .into();
        let depth = table_depth + MARGIN_MM;
        let dst: Vector<Point2f> = corners
            .iter()
            .map(|c| {
                Point2f::new(
                    ((c.x + MARGIN_MM) * PX_PER_MM - 0.5) as f32,
                    ((depth - c.y) * PX_PER_MM - 0.5) as f32,
                )
            })
            .collect();
        let h = opencv::imgproc::get_perspective_transform(&src, &dst, opencv::core::DECOMP_LU).unwrap();
        // White 1-cell margin around the marker, like a print.
        let mut warped = Mat::default();
        let mut mask_src = Mat::new_rows_cols_with_default(side, side, CV_8UC1, Scalar::all(255.0)).unwrap();
        let sz = ortho.size().unwrap();
        opencv::imgproc::warp_perspective(
            &m,
            &mut warped,
            &h,
            sz,
            opencv::imgproc::INTER_AREA,
            opencv::core::BORDER_CONSTANT,
            Scalar::all(0.0),
        )
        .unwrap();
        let mut mask = Mat::default();
        opencv::imgproc::warp_perspective(
            &mask_src,
            &mut mask,
            &h,
            sz,
            opencv::imgproc::INTER_NEAREST,
            opencv::core::BORDER_CONSTANT,
            Scalar::all(0.0),
        )
        .unwrap();
        let mut white = Mat::default();
        let big = 1.4_f32;
        let cx = (dst.get(0).unwrap().x + dst.get(2).unwrap().x) / 2.0;
        let cy = (dst.get(0).unwrap().y + dst.get(2).unwrap().y) / 2.0;
        let margin: Vector<Point> = dst
            .iter()
            .map(|p| Point::new((cx + (p.x - cx) * big) as i32, (cy + (p.y - cy) * big) as i32))
            .collect();
        let polys: Vector<Vector<Point>> = vec![margin].into();
        opencv::imgproc::fill_poly_def(ortho, &polys, Scalar::all(235.0)).unwrap();
        warped.copy_to_masked(&mut white, &mask).ok();
        warped.copy_to_masked(ortho, &mask).unwrap();
        mask_src.set_to_def(&Scalar::all(0.0)).unwrap();
    }

    /// The scene: fiducials plus tags at `(id, centre, up_deg)`; returns the photo seen
    /// by camera `k` at pose (`r`, `t`).
    pub fn render(
        p: &Profile,
        tags: &[(u32, Vec2, f64)],
        k: &Intrinsics,
        r: [[f64; 3]; 3],
        t: [f64; 3],
    ) -> Photo {
        let (w, d) = (p.table.width_mm, p.table.depth_mm);
        let mut ortho = Mat::new_rows_cols_with_default(
            ((d + 2.0 * MARGIN_MM) * PX_PER_MM) as i32,
            ((w + 2.0 * MARGIN_MM) * PX_PER_MM) as i32,
            CV_8UC1,
            Scalar::all(110.0),
        )
        .unwrap();
        for f in &p.fiducials.markers {
            paste(&mut ortho, d, p.fiducials.dictionary, f.id, f.corners(p.fiducials.size_mm));
        }
        for &(id, c, up) in tags {
            paste(&mut ortho, d, p.tags.dictionary, id, square_corners(c, p.tags.size_mm, up));
        }
        // ortho pixel (u, v) -> table (x, y, 0): x = (u + 0.5) / s - m, y = d + m - (v + 0.5) / s.
        let s = PX_PER_MM;
        let m = MARGIN_MM;
        let ortho_to_table = [[1.0 / s, 0.0, 0.5 / s - m], [0.0, -1.0 / s, d + m - 0.5 / s], [0.0, 0.0, 1.0]];
        // table plane -> image: K [r1 r2 t]
        let m = [[r[0][0], r[0][1], t[0]], [r[1][0], r[1][1], t[1]], [r[2][0], r[2][1], t[2]]];
        let kk = [[k.fx, 0.0, k.cx], [0.0, k.fy, k.cy], [0.0, 0.0, 1.0]];
        let mul = |a: [[f64; 3]; 3], b: [[f64; 3]; 3]| {
            let mut o = [[0.0; 3]; 3];
            for i in 0..3 {
                for j in 0..3 {
                    o[i][j] = (0..3).map(|q| a[i][q] * b[q][j]).sum();
                }
            }
            o
        };
        let h = mul(mul(kk, m), ortho_to_table);
        let mut out = Mat::default();
        opencv::imgproc::warp_perspective(
            &ortho,
            &mut out,
            &mat3(h).unwrap(),
            Size::new(k.image_width as i32, k.image_height as i32),
            opencv::imgproc::INTER_LINEAR,
            opencv::core::BORDER_CONSTANT,
            Scalar::all(60.0),
        )
        .unwrap();
        let mut color = Mat::default();
        opencv::imgproc::cvt_color_def(&out, &mut color, opencv::imgproc::COLOR_GRAY2BGR).unwrap();
        Photo::from_color(color).unwrap()
    }

    /// A camera 900 mm above the table centre, tilted `tilt_deg` about the table's x
    /// axis (looking toward the far edge).
    pub fn camera(tilt_deg: f64) -> (Intrinsics, [[f64; 3]; 3], [f64; 3]) {
        let k = Intrinsics {
            image_width: 2400,
            image_height: 1800,
            fx: 2600.0,
            fy: 2600.0,
            cx: 1199.5,
            cy: 899.5,
            distortion: Vec::new(),
        };
        let a = tilt_deg.to_radians();
        // Looking straight down: camera x = table x, camera y = -table y, z = -table z.
        // Then tilt about the camera x axis.
        let down = [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]];
        let rx = [[1.0, 0.0, 0.0], [0.0, a.cos(), a.sin()], [0.0, -a.sin(), a.cos()]];
        let mut r = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                r[i][j] = (0..3).map(|q| rx[i][q] * down[q][j]).sum();
            }
        }
        // Camera centre above the table centre, pulled back toward the near edge so the
        // tilted view still sees the table.
        let c = [300.0, 200.0 - 900.0 * a.tan(), 900.0];
        let t = [
            -(r[0][0] * c[0] + r[0][1] * c[1] + r[0][2] * c[2]),
            -(r[1][0] * c[0] + r[1][1] * c[1] + r[1][2] * c[2]),
            -(r[2][0] * c[0] + r[2][1] * c[1] + r[2][2] * c[2]),
        ];
        (k, r, t)
    }
}

#[cfg(test)]
mod tests {
    use super::test_scene::*;
    use super::*;
    use vedette_geometry::{BaseRef, Selection};

    fn tags() -> Vec<(u32, Vec2, f64)> {
        vec![
            (10, Vec2::new(150.0, 120.0), 90.0),
            (11, Vec2::new(300.0, 200.0), 30.0),
            (12, Vec2::new(450.0, 280.0), 200.0),
            (13, Vec2::new(200.0, 300.0), 300.0),
        ]
    }

    fn check(scan: &Scan, truth: &[(u32, Vec2, f64)], tol_mm: f64, tol_deg: f64) {
        assert_eq!(scan.table.base_count(), truth.len(), "{:?}", scan.report.issues);
        for (_, b) in scan.table.bases() {
            let tag = b.meta().tag.unwrap();
            let &(_, c, up) = truth.iter().find(|t| t.0 == tag).unwrap();
            let dh = (b.heading_deg() - up + 540.0).rem_euclid(360.0) - 180.0;
            assert!(b.centre().distance(c) < tol_mm, "tag {tag}: {:?} vs {c:?}", b.centre());
            assert!(dh.abs() < tol_deg, "tag {tag}: heading {} vs {up}", b.heading_deg());
            let s = b.meta().sigma_mm.unwrap();
            assert!(s > 0.0 && s < 2.0, "sigma {s}");
        }
    }

    #[test]
    fn calibrated_camera_recovers_tag_poses() {
        let p = profile();
        let (k, r, t) = camera(20.0);
        let photo = render(&p, &tags(), &k, r, t);
        let s = scan(&photo, &p, None, Some(&k)).unwrap();
        assert_eq!(s.report.camera.model, ModelKind::Calibrated);
        assert!(s.report.camera.residual_px < 0.5, "{:?}", s.report.camera);
        let tilt = s.report.camera.tilt_deg.unwrap();
        assert!((tilt - 20.0).abs() < 0.5, "{tilt}");
        check(&s, &tags(), 0.5, 1.0);
    }

    #[test]
    fn tilted_photo_without_intrinsics_estimates_focal_length() {
        let p = profile();
        let (k, r, t) = camera(25.0);
        let photo = render(&p, &tags(), &k, r, t);
        let s = scan(&photo, &p, None, None).unwrap();
        assert_eq!(s.report.camera.model, ModelKind::HomographyFocal, "{:?}", s.report.camera);
        let f = s.report.camera.focal_px.unwrap();
        assert!((f - 2600.0).abs() < 260.0, "focal {f}");
        check(&s, &tags(), 0.5, 1.0);
    }

    #[test]
    fn straight_down_photo_falls_back_to_the_plain_homography() {
        let p = profile();
        let (k, r, t) = camera(0.0);
        let photo = render(&p, &tags(), &k, r, t);
        let s = scan(&photo, &p, None, None).unwrap();
        assert_eq!(s.report.camera.model, ModelKind::Homography, "{:?}", s.report.camera);
        check(&s, &tags(), 0.5, 1.0);
    }

    #[test]
    fn tag_offsets_place_the_base_centre() {
        let p = profile();
        let (k, r, t) = camera(15.0);
        // A gun whose tag sits 10 mm behind its centre and 4 mm to its right, facing 30 deg.
        let heading: f64 = 30.0;
        let base_centre = Vec2::new(300.0, 200.0);
        let fwd = Vec2::from_heading_deg(heading);
        let right = Vec2::new(fwd.y, -fwd.x);
        let tag_centre = base_centre + right * 4.0 - fwd * 10.0;
        let photo = render(&p, &[(40, tag_centre, heading)], &k, r, t);
        let roster = Roster::from_toml_str(
            r#"
[[unit]]
id = "gun"
side = "x"
kind = "artillery"
formation = "unlimbered"
base_mm = [25, 40]
tag_offset_mm = [4, -10]
tags = [40]
"#,
            "r.toml",
        )
        .unwrap();
        let s = scan(&photo, &p, Some(&roster), Some(&k)).unwrap();
        let b = s.table.units[0].bases[0];
        assert!(b.centre().distance(base_centre) < 0.3, "{:?}", b.centre());
        assert!((b.heading_deg() - heading).abs() < 0.5);
        assert_eq!((b.width(), b.depth()), (25.0, 40.0));
    }

    #[test]
    fn tags_off_the_table_are_reported() {
        let p = profile();
        let (k, r, t) = camera(10.0);
        // The tag lies on the table's edge strip, its centre 1 mm past the far edge.
        let photo =
            render(&p, &[(10, Vec2::new(300.0, 150.0), 90.0), (12, Vec2::new(300.0, 401.0), 90.0)], &k, r, t);
        let s = scan(&photo, &p, None, Some(&k)).unwrap();
        let issues = &s.report.issues;
        assert!(issues.iter().any(|i| matches!(i, ScanIssue::OutsideTable { id: 12, .. })), "{issues:?}");
        assert_eq!(s.table.base_count(), 1);
    }

    #[test]
    fn issues_are_reported_not_dropped() {
        let p = profile();
        let (k, r, t) = camera(10.0);
        let mut scene = tags();
        scene.push((11, Vec2::new(420.0, 120.0), 0.0)); // duplicate id
        scene.push((99, Vec2::new(100.0, 200.0), 0.0)); // not in the roster
        let photo = render(&p, &scene, &k, r, t);
        let roster = Roster::from_toml_str(
            r#"
[[unit]]
id = "a"
side = "x"
kind = "infantry"
base_mm = [30, 20]
tags = [10, 11, 12, 13, 14]
"#,
            "r.toml",
        )
        .unwrap();
        let s = scan(&photo, &p, Some(&roster), Some(&k)).unwrap();
        let issues = &s.report.issues;
        assert!(
            issues.iter().any(|i| matches!(i, ScanIssue::DuplicateTag { id: 11, at_mm } if at_mm.len() == 2)),
            "{issues:?}"
        );
        assert!(issues.iter().any(|i| matches!(i, ScanIssue::UnknownTag { id: 99, .. })), "{issues:?}");
        assert!(issues.iter().any(|i| matches!(i, ScanIssue::MissingTag { id: 14, .. })), "{issues:?}");
        assert_eq!(s.table.base_count(), 3);
    }

    #[test]
    fn a_missing_base_does_not_renumber_the_others_and_an_orphan_loses_only_its_link() {
        let p = profile();
        let (k, r, t) = camera(10.0);
        // Tag 11 (base 1 of "a") is not in the photo; tag 13 is a skirmisher whose
        // parent "b" (tag 14) is not in the photo either.
        let scene: Vec<_> = tags().into_iter().filter(|(id, ..)| *id != 11).collect();
        let photo = render(&p, &scene, &k, r, t);
        let roster = Roster::from_toml_str(
            r#"
[[unit]]
id = "a"
side = "x"
kind = "infantry"
base_mm = [30, 20]
tags = [10, 11, 12]

[[unit]]
id = "b"
side = "x"
kind = "infantry"
base_mm = [30, 20]
tags = [14]

[[unit]]
id = "sk"
side = "x"
kind = "skirmisher"
parent = "b"
base_mm = [20, 20]
tags = [13]
"#,
            "r.toml",
        )
        .unwrap();
        let s = scan(&photo, &p, Some(&roster), Some(&k)).unwrap();
        let table = Table::from_json_str(&s.table.to_json_string()).unwrap();
        // Base 2 of "a" is still "a#2", where tag 12 stands; "a#1" names nothing.
        let Ok(Selection::Base(r2)) = table.select("a#2") else { panic!("a#2 not found") };
        assert_eq!(table.base_label(r2), "a#2");
        let b2 = table.base(r2).unwrap();
        assert_eq!(b2.meta().tag, Some(12));
        assert!(b2.centre().distance(Vec2::new(450.0, 280.0)) < 5.0, "{:?}", b2.centre());
        assert!(table.select("a#1").is_err());
        assert_eq!(table.select("a#0").ok(), Some(Selection::Base(BaseRef::new(0, 0))));
        // The skirmisher is kept without a parent the table does not hold, and said.
        let sk = table.unit("sk").unwrap();
        assert_eq!(sk.parent, None);
        assert!(
            s.report.issues.iter().any(
                |i| matches!(i, ScanIssue::ParentNotFound { unit, parent } if unit == "sk" && parent == "b")
            ),
            "{:?}",
            s.report.issues
        );
    }
}
