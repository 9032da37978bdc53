//! # vedette-vision
//!
//! From one overhead photo of a wargames table to table geometry: every tagged base's
//! pose in table millimetres, with an honest uncertainty, as a `vedette/table/1`
//! [`Table`](vedette_geometry::Table). Built on OpenCV 4.6 (the `opencv` crate, modules
//! imgproc, imgcodecs, calib3d and aruco).
//!
//! ## What it offers
//! - Calibration profiles: [`Profile`] (table size, table fiducials, base tags, base-top
//!   height, camera, limits), loaded from `calibration/*.toml` with errors naming file
//!   and field (`docs/calibration.md`).
//! - Rosters: [`Roster`] maps tag ids to units, sides, kinds, base sizes and tag
//!   offsets (`docs/roster.md`).
//! - Marker dictionaries: [`Dictionary`] (OpenCV's predefined ArUco and AprilTag sets).
//! - Marker detection: [`detect_markers`] with a lowered minimum size for small tags,
//!   sub-pixel corners by [`refine_edges`] (lines fitted to the four edges), second-chance
//!   decoding of small markers OpenCV rejects, and [`detect_large_markers`] for the
//!   table fiducials on a shrunk copy.
//! - The camera: [`Intrinsics`] and camera files ([`CameraFile`]); [`solve_camera`]
//!   fits a [`CameraModel`] to the fiducials ([`ModelKind::Calibrated`] by solvePnP
//!   IPPE, or the homography fallbacks) and reports its residual in px and mm
//!   ([`CameraFit`]); [`CameraModel::image_to_table`] back-projects onto any height.
//! - Camera calibration: [`calibrate`] from chessboard or ChArUco photos ([`Pattern`]).
//! - Tags among figures (issue 18): once the camera is solved, [`scan`] searches again
//!   for tags whose border or quiet zone merges with figures, by fitting squares of the
//!   tags' known size on the base-top plane to dark outlines; a square that is clearly
//!   a tag but cannot be read is reported ([`ScanIssue::UndecodedTag`]).
//! - Tags to bases: [`measure_tags`] and the per-photo [`ErrorBudget`].
//! - Bases without tags (issue 37): roster units with `bases = N` are found by fitting
//!   formations of rectangles of their size to the base edges in the photo rectified
//!   onto the base tops, with an honest uncertainty ([`FITTED_SIGMA_FLOOR_MM`]) and
//!   their facing marked seen or assumed ([`Facing`](vedette_geometry::Facing)).
//! - Bases inferred from their unit (issue 18): [`infer_unit`] and [`infer_bases`]
//!   place a base whose tag was unseen where its formation fixes it beside found ones.
//! - The whole scan: [`scan`] gives a [`Scan`] (table, [`ScanReport`] with every
//!   [`ScanIssue`]); [`draw_overlay`] draws it over the photo.
//! - Several photos of one table (issue 18): [`merge_scans`] merges the scans of each
//!   photo in the table frame, weighted by uncertainty, reporting conflicts and which
//!   photos saw each base ([`MergeReport`]).
//! - Print sheets: [`sheets`] gives A4 [`Page`]s of fiducials and tags at exact size, as
//!   300 dpi PNG and SVG with a 100 mm ruler.
//! - What lies on the table (issue 19): [`find_cubes`] finds marker cubes by colour and
//!   shape on the photo [`Rectified`] to their tops' plane and [`link`]s each to its
//!   unit; [`segment`] finds the profile's [`TerrainClass`]es, colour-corrected by a
//!   [`ColourCorrection`] from the fiducials, with what stands on the table
//!   ([`occupied`]) masked out: areas as outlines, linear classes (walls, hedges,
//!   streams, roads) as the centre lines of their strips, thinned to a skeleton and
//!   joined across the bases standing on them. [`scan_with`] chooses which ([`SurfaceOptions`]);
//!   [`read_surface`] is that stage alone.
//!   Bases and cubes on a template are measured on its top ([`stand_on_templates`]).
//! - Terrain layers: [`terrain_layer`] keeps a table's terrain alone, [`merge_terrain`]
//!   puts a layer's terrain into a scanned table.
//! - What is wrong with a photo (issue 39, 41): [`tag_sizes`] and [`fiducial_blur`]
//!   refuse tags too small or too blurred to read ([`check_tag_sizes`], [`check_blur`],
//!   limits measured on the renders: [`MIN_TAG_CELL_PX`], [`MAX_BLUR_CELLS`]),
//!   [`glare_patches`] finds saturated light on the table, [`diagnose_fiducials`] says
//!   why each missing table fiducial is missing and [`draw_diagnosis`] draws it.
//! - Is this the roster of this photo? [`RosterFit`]; are these photos of one table?
//!   [`photos_disagree`].
//! - Trust on your own camera: [`check_sheet`] prints tags at known spacings and
//!   [`check_photo`] measures them in a photo of the table ([`CheckReport`]).
//! - A first evening: [`starter_profile`] writes a profile for a table size,
//!   [`roster_from_units`] a roster from a plain unit list.
//! - Errors: [`VisionError`].
//!
//! ## Example
//! ```no_run
//! use vedette_vision::{Photo, Profile, Roster, scan};
//! let profile = Profile::load("calibration/default.toml")?;
//! let roster = Roster::load("samples/photos/skirmish.roster.toml")?;
//! let photo = Photo::load("samples/photos/skirmish.jpg")?;
//! let result = scan(&photo, &profile, Some(&roster), None)?;
//! println!("{} bases, residual {:.2} px", result.table.base_count(), result.report.camera.residual_px);
//! for issue in &result.report.issues {
//!     println!("{}", issue.describe());
//! }
//! # Ok::<(), vedette_vision::VisionError>(())
//! ```

#![deny(missing_docs)]

mod alike;
mod band;
mod calibration;
mod camera;
mod check;
mod check_sheet;
mod clutter;
mod cubes;
mod decode;
mod diagnosis;
mod dictionary;
mod error;
mod fiducials;
mod fitting;
mod image_header;
mod infer;
mod init;
mod lab_image;
mod layer;
mod merge;
mod occupancy;
mod palette;
mod photo;
mod photo_colour;
mod picture;
mod pose;
mod profile;
mod rectify;
mod roster;
mod roster_match;
mod scan;
mod selfcal;
mod sheet;
mod standing;
mod surface;
mod tags;
mod terrain;
mod terrain_edges;
mod terrain_labels;
mod terrain_light;
mod terrain_lines;
mod thinning;
mod tone;
pub use band::{
    MIN_BAND_LINE_PX, MIN_FRAME_PX, PhotoFrame, crop_and_scale, label_scale, paint_framed, photo_frame,
    with_caption_band,
};
pub use calibration::{CHESSBOARD_SEARCH_PX, Calibration, Pattern, calibrate, opencv_sample_photos};
pub use camera::{CalibrationRecord, CameraFile, Intrinsics};
pub use check::{
    CHECK_FLOOR_MM, CHECK_SIGMAS, CheckPair, CheckReport, DISPUTE_MM, MIN_CHECK_TAGS, check_photo,
};
pub use check_sheet::{CHECK_TAGS, CheckTag, check_sheet, check_tags};
pub use cubes::{FoundCube, LINK_MARGIN_MM, Link, MarkerSpec, find_cubes, link, link_cubes, to_marker};
pub use diagnosis::{
    EdgeBlur, FiducialDiagnosis, FoundFiducial, GlarePatch, MARGINAL_BLUR_CELLS, MARGINAL_TAG_CELL_PX,
    MAX_BLUR_CELLS, MIN_TAG_CELL_PX, MissingFiducial, SATURATED_GREY, TagSizes, Why, check_blur,
    check_tag_sizes, diagnose_fiducials, draw_diagnosis, edge_blur, fiducial_blur, glare_patches,
    marginal_marker_px, min_marker_px, other_markers, tag_sizes,
};
pub use dictionary::Dictionary;
pub use error::VisionError;
pub use fiducials::{
    DetectedMarker, DetectorSettings, Refinement, detect_large_markers, detect_markers, refine_corners,
    refine_edges,
};
pub use fitting::{FITTED_SIGMA_FLOOR_DEG, FITTED_SIGMA_FLOOR_MM};
pub use fitting::{faces_far, laid_out};
pub use image_header::{ImageFormat, ImageHeader, MAX_PIXELS, check_image};
pub use infer::{MAX_HEADING_SPREAD_DEG, MAX_SLOT_RESIDUAL_MM, PLACEMENT_SIGMA_MM, infer_bases, infer_unit};
pub use init::{
    FIRST_TAG_ID, MIN_TABLE_MM, PhotoPlan, TABLE_FILL, TablePlan, WIDEST_PHOTO_PX, photo_plan,
    roster_from_units, starter_profile,
};
pub use layer::{LAYER_SIZE_TOLERANCE_MM, merge_terrain, terrain_layer};
pub use merge::{
    CONFLICT_FLOOR_DEG, CONFLICT_FLOOR_MM, CONFLICT_SIGMAS, MIN_SHARED_TAGS, MergeReport, MergedScan,
    PhotoAgreement, SeenBy, merge_scans, photos_disagree,
};
pub use occupancy::{FIGURE_OVERHANG_MM, FIGURE_REACH_MM, occupied};
pub use palette::{ColourCorrection, ColourSpec};
pub use photo::{JPEG_QUALITY, Photo, encode_image};
pub use photo_colour::{PhotoColour, lab, paint_distance, parse_hex, to_hex};
pub use picture::{
    PhotoProjection, PictureLayout, SavedScanReport, load_scan_camera, paint_scene, picture_layout,
};
pub use pose::{
    CameraFit, CameraModel, CameraParameters, CameraPose, FiducialFit, MIN_SELF_CALIBRATION_TAGS, ModelKind,
    Overexposure, SelfCalibration, Suspect, clear_margins, self_calibrate, solve_camera,
};
pub use profile::{
    BaseSpec, CameraSpec, FiducialPlacement, FiducialSpec, Limits, MAX_FIDUCIALS, Profile, TableSpec,
    TagSpec, square_corners,
};
pub use rectify::Rectified;
pub use roster::{Game, MAX_UNTAGGED_BASES, Roster, RosterUnit, TagEntry};
pub use roster_match::{APART_BASE_LENGTHS, RosterFit};
pub use scan::{
    CameraReport, MAX_FIT_RMS_FRACTION, Scan, ScanIssue, ScanReport, Timing, draw_overlay, find_fiducials,
    scan, scan_with, scan_with_background,
};
pub use sheet::{
    DPI, PAGE_MM, Page, RULER_MM, RenderedPage, mm_to_px, sheets, sheets_sized, sheets_sized_with_labels,
};
pub use standing::{stand_on_templates, template_thickness_at};
pub use surface::{SurfaceOptions, read_surface};
pub use tags::{ErrorBudget, TagPose, measure_sized_tags, measure_tags, normalize_deg};
pub use terrain::{MIN_PIECE_MM2, OUTLINE_TOLERANCE_MM, TerrainClass, segment, validate_classes};
pub use tone::{Tone, measure_encoding, measure_tone};
