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
        "only {found_count} of the profile's table fiducials were found (need at least 4): found ids [{found}], missing ids [{missing}]; check lighting, focus and that every corner of the table is in the photo (`vedette fiducials PHOTO` lists every marker seen)"
    )]
    TooFewFiducials {
        /// How many were found.
        found_count: usize,
        /// The ids found, comma separated.
        found: String,
        /// The ids of the profile that were not found, comma separated.
        missing: String,
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

    /// A terrain layer does not fit the scanned table.
    #[error("terrain layer '{path}': {reason}")]
    LayerMismatch {
        /// The layer's file.
        path: String,
        /// What does not fit.
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
