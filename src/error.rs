//! The command-line tool's one error type.

use thiserror::Error;

/// Everything a `vedette` command can fail with. Each is printed as `error: ...` and
/// exits with status 1.
#[derive(Debug, Error)]
pub enum CliError {
    /// A table could not be read or did not validate.
    #[error(transparent)]
    Geometry(#[from] vedette_geometry::GeometryError),

    /// A photo could not be scanned or drawn on, or a profile, roster or camera file is
    /// wrong: the scanner's own error (`vedette_vision::VisionError`, from
    /// `vedette-scanner`; this crate never links OpenCV, see [`crate::cli`]).
    #[error(transparent)]
    Scanner(Box<dyn std::error::Error + Send + Sync>),

    /// A picture could not be drawn.
    #[error(transparent)]
    Draw(#[from] vedette_draw::DrawError),

    /// An output file could not be written.
    #[error("cannot write '{path}': {source}")]
    Write {
        /// The file.
        path: String,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },

    /// The arguments make sense to the parser but not to the command.
    #[error("{0}")]
    Usage(String),
}
