//! The crate's one error type.

use crate::dictionary::ArucoDictionary;

/// Everything that can stop a scene from being built, rendered or written.
#[derive(Debug, thiserror::Error)]
pub enum SynthError {
    /// A camera parameter is outside the range the renderer supports.
    #[error("camera parameter {parameter} = {value} is invalid: {reason}")]
    InvalidCamera {
        /// The parameter's name, e.g. `tilt_deg`.
        parameter: &'static str,
        /// The value given.
        value: f64,
        /// What the parameter must be.
        reason: &'static str,
    },
    /// The image size is zero or too large to render.
    #[error("resolution {width_px}x{height_px} px is invalid: each side must be 1..=20000 px")]
    InvalidResolution {
        /// Width in pixels.
        width_px: u32,
        /// Height in pixels.
        height_px: u32,
    },
    /// A marker id is not in its dictionary.
    #[error("marker id {id} is not in {dictionary} (ids 0..{count})")]
    UnknownMarkerId {
        /// The dictionary asked.
        dictionary: ArucoDictionary,
        /// The id asked for.
        id: u32,
        /// How many markers the dictionary has.
        count: u32,
    },
    /// A dictionary name is not one the crate knows.
    #[error("unknown ArUco dictionary \"{name}\" (known: {known})")]
    UnknownDictionary {
        /// The name given.
        name: String,
        /// The names the crate knows, comma-separated.
        known: String,
    },
    /// The embedded dictionary data is malformed: a build defect, never a user error.
    #[error("embedded ArUco data, line {line}: {reason}")]
    DictionaryData {
        /// 1-based line of `data/aruco.txt`.
        line: usize,
        /// What is wrong there.
        reason: String,
    },
    /// The scene cannot be rendered as described.
    #[error("invalid scene: {reason}")]
    InvalidScene {
        /// What is wrong, naming the fiducial, tag or base.
        reason: String,
    },
    /// A render option is out of range.
    #[error("render option {option} = {value} is invalid: {reason}")]
    InvalidOption {
        /// The option's name, e.g. `jpeg_quality`.
        option: &'static str,
        /// The value given.
        value: f64,
        /// What the option must be.
        reason: &'static str,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Encoding the image failed.
    #[error("encoding {what}: {source}")]
    Encode {
        /// What was being encoded, e.g. `JPEG`.
        what: &'static str,
        /// The underlying error.
        source: image::ImageError,
    },
    /// A layout or truth file is not valid JSON of the expected shape.
    #[error("{origin}: {source}")]
    Json {
        /// The file or text parsed.
        origin: String,
        /// The underlying error.
        source: serde_json::Error,
    },
    /// The table file could not be loaded.
    #[error(transparent)]
    Table(#[from] vedette_geometry::GeometryError),
}
