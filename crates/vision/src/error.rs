//! The crate's one error type.

use thiserror::Error;

/// Everything the scanner can fail with. Each variant names the file, field or photo it
/// is about, so that the message alone tells the user what to fix.
#[derive(Debug, Error)]
pub enum VisionError {
    /// A file could not be read.
    #[error("cannot read '{path}': {source}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },

    /// A TOML file (profile, roster, camera) is not valid TOML or does not have the
    /// expected structure.
    #[error("{path}: {message}")]
    Toml {
        /// The file.
        path: String,
        /// What is wrong, with the line and the field as the parser reports them.
        message: String,
    },

    /// A field of a profile, roster or camera file has a value that cannot be used.
    #[error("{path}: field `{field}`: {reason}")]
    InvalidField {
        /// The file.
        path: String,
        /// The field, as a TOML path (`fiducials.markers[2].id`).
        field: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A marker dictionary name is not one OpenCV predefines.
    #[error("unknown marker dictionary '{name}' (known: {known})")]
    UnknownDictionary {
        /// The name given.
        name: String,
        /// The names that are known, comma separated.
        known: String,
    },

    /// An image file could not be read or decoded.
    #[error("cannot read image '{path}': {reason}")]
    UnreadableImage {
        /// The file.
        path: String,
        /// Why: missing file, not an image, unsupported format.
        reason: String,
    },

    /// Fewer than four of the profile's table fiducials were found in the photo, so the
    /// camera model cannot be solved.
    #[error(
        "only {found_count} of the profile's table fiducials were found (need at least 4): found ids [{found}], missing ids [{missing}]; check lighting, focus and that every corner of the table is in the photo (`vedette fiducials PHOTO --profile P --overlay OUT.jpg` marks where each should be){diagnosis}"
    )]
    TooFewFiducials {
        /// How many were found.
        found_count: usize,
        /// The ids found, comma separated.
        found: String,
        /// The ids of the profile that were not found, comma separated.
        missing: String,
        /// Why each missing one was not found, measured from the photo (one line each,
        /// each starting with a line break; empty when not measured).
        diagnosis: String,
    },

    /// The base tags are too small in the photo to be read reliably: the scan refuses
    /// rather than read a few and guess the rest (issue 41).
    #[error(
        "tags are {median_px:.1} px across in this photo ({smallest_px:.1} px at the table's far side; {tag_mm} mm tags at {px_per_mm:.2} px per mm); at least {needed_px:.0} px are needed to read them reliably. Take the photo closer or with more megapixels (the table filling the frame), or print bigger tags (the profile's [tags] size_mm)"
    )]
    TagsTooSmall {
        /// The tags' side over the middle of the table, px (median over the table).
        median_px: f64,
        /// The smallest, px (where the table is furthest from the camera).
        smallest_px: f64,
        /// The profile's tag size, mm.
        tag_mm: f64,
        /// Photo pixels per table millimetre, over the middle of the table.
        px_per_mm: f64,
        /// The smallest tag side the scanner reads reliably, px.
        needed_px: f64,
    },

    /// The photo is too blurred for its tags: measured on the edges of the table
    /// fiducials, the blur spreads over too much of a tag's cell (issue 41).
    #[error(
        "the photo is blurred: the fiducials' edges are spread over {sigma_px:.2} px (one standard deviation), and a tag's cell is {cell_px:.1} px; beyond {limit_px:.2} px tags are misread. Hold the camera still (a timer, a stand), focus on the table, and use more light for a shorter exposure"
    )]
    Blurred {
        /// The blur measured at the fiducials' edges, px (a Gaussian's standard deviation).
        sigma_px: f64,
        /// A tag cell's side in the photo, px.
        cell_px: f64,
        /// The most blur a scan accepts, px.
        limit_px: f64,
    },

    /// A camera file calibrated at another image size than the photo's (issue 41).
    #[error(
        "the camera was calibrated at {camera_width}x{camera_height} px and this photo is {photo_width}x{photo_height} px: a camera file fits only photos of its own size (a resized or cropped photo, or another resolution of the camera, changes what its numbers mean). Scan the full-size photo, calibrate the camera at this size, or leave the camera file out (the lens is then calibrated from the tags)"
    )]
    CameraSize {
        /// The camera file's image width, px.
        camera_width: u32,
        /// The camera file's image height, px.
        camera_height: u32,
        /// The photo's width, px.
        photo_width: u32,
        /// The photo's height, px.
        photo_height: u32,
    },

    /// `vedette check`: the check sheet's tags are not in the photo (issue 39).
    #[error(
        "the check sheet is not in this photo: {found} of its {expected} tags ({dictionary} ids {ids}) were found, at least {needed} are needed. Print it with `vedette sheet PROFILE --check -o DIR`, lay it flat on the table and photograph the whole table with its fiducials"
    )]
    CheckSheetMissing {
        /// Check-sheet tags found.
        found: usize,
        /// Tags on the sheet.
        expected: usize,
        /// The fewest a check measures.
        needed: usize,
        /// The tags' dictionary.
        dictionary: String,
        /// The sheet's tag ids, as a range.
        ids: String,
    },

    /// The camera model fits the table fiducials too badly to be trusted.
    #[error(
        "table fiducial residual too large: {residual_px:.2} px RMS ({residual_mm:.2} mm on the table), limit {limit_px:.2} px / {limit_mm:.2} mm; worst fiducial id {worst_id}. Check the profile's fiducial positions and sizes, and the camera file"
    )]
    ResidualTooLarge {
        /// RMS reprojection residual of the fiducial corners, pixels.
        residual_px: f64,
        /// The same, in table millimetres.
        residual_mm: f64,
        /// The profile's limit in pixels.
        limit_px: f64,
        /// The profile's limit in millimetres.
        limit_mm: f64,
        /// The fiducial with the largest residual.
        worst_id: i32,
    },

    /// The solved camera cannot map a point of the photo onto the table: the camera file
    /// does not belong to this photo, or the fiducials were misread.
    #[error("the camera solved for this photo is impossible: {reason}")]
    CameraModel {
        /// What failed, with the pixel and the plane.
        reason: String,
    },

    /// The camera calibration photos did not yield a calibration.
    #[error("camera calibration failed: {reason}")]
    Calibration {
        /// Why (no board found, too few views, ...).
        reason: String,
    },

    /// An image could not be encoded or an output could not be produced.
    #[error("cannot encode {what}: {reason}")]
    Encode {
        /// What was being produced.
        what: String,
        /// Why.
        reason: String,
    },

    /// The photo of the empty table (`--background`, issue 37) cannot be lined up with
    /// the photo.
    #[error("the photo of the empty table cannot be used: {reason}")]
    Background {
        /// Why, and what to do.
        reason: String,
    },

    /// A terrain layer does not fit the scanned table.
    #[error("terrain layer '{path}': {reason}")]
    LayerMismatch {
        /// The layer's file.
        path: String,
        /// What does not fit.
        reason: String,
    },

    /// A terrain class was found over most of the table: its colour is the bare
    /// table's under this photo's light (issue 36).
    #[error(
        "terrain: {kind} (terrain[{index}] of the profile) was found over {share_pct:.0}% of the table in one piece: \
         its colour {colour:?} cannot be told from the mat's in this photo. Measure the class's and the mat's \
         colours on a photo of this table and declare the mat as `[colours] ground` (docs/calibration.md), \
         or leave the class out"
    )]
    TerrainCoversTable {
        /// The class's kind.
        kind: String,
        /// Its index among the profile's `[[terrain]]` entries.
        index: usize,
        /// Its declared colour, sRGB.
        colour: [u8; 3],
        /// The share of the table its largest piece covers, percent.
        share_pct: f64,
    },

    /// The profile declares no `ground`, and a terrain class's colour is the mat's as
    /// learned from the photo (issue 36).
    #[error(
        "terrain: {kind} (terrain[{index}] of the profile) {colour:?} is within {distance:.0} of the mat's colour \
         {mat:?} as learned from this photo (the profile declares no `[colours] ground`): the scan could not tell \
         the template from the mat. Measure the class's and the mat's colours on a photo of this table and declare \
         the mat as `[colours] ground` (docs/calibration.md), or leave the class out"
    )]
    TerrainLikeMat {
        /// The class's kind.
        kind: String,
        /// Its index among the profile's `[[terrain]]` entries.
        index: usize,
        /// Its declared colour, sRGB.
        colour: [u8; 3],
        /// The mat's colour learned from the photo, sRGB.
        mat: [u8; 3],
        /// How far apart they are, sRGB units.
        distance: f64,
    },

    /// `vedette init` cannot make a profile for the table asked for.
    #[error("cannot make a profile: {reason}")]
    Init {
        /// Why, and what to give instead.
        reason: String,
    },

    /// OpenCV reported an error.
    #[error("OpenCV: {source}")]
    OpenCv {
        /// OpenCV's error.
        #[from]
        source: opencv::Error,
    },
}

/// Reads a file to a string, naming it in the error.
pub(crate) fn read_text(path: &std::path::Path) -> Result<String, VisionError> {
    std::fs::read_to_string(path)
        .map_err(|source| VisionError::Io { path: path.display().to_string(), source })
}

/// The TOML parser's message for `path`, each quoted source line cut to
/// [`MAX_QUOTED_CHARS`] characters (a 200 KB line is not echoed to the terminal).
pub(crate) fn toml_error(path: &str, e: &toml::de::Error) -> VisionError {
    let message = e
        .to_string()
        .lines()
        .map(|line| vedette_geometry::clipped(line, MAX_QUOTED_CHARS))
        .collect::<Vec<_>>()
        .join("\n");
    VisionError::Toml { path: path.to_string(), message }
}

/// The longest line of a file quoted in an error message, characters.
pub const MAX_QUOTED_CHARS: usize = 160;
