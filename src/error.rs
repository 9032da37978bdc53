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

    /// An output path names something other than a regular file (a directory, a named
    /// pipe, a device, a socket): outputs replace a whole file, so such a path is never
    /// written (issue 41 item 1; a rename over `/dev/full` used to delete the device).
    #[error(
        "cannot write '{path}': it is {kind}, not a regular file; vedette writes its outputs only to regular files (give a file name)"
    )]
    NotAFile {
        /// The path as given.
        path: String,
        /// What it is: "a directory", "a named pipe (FIFO)", ...
        kind: &'static str,
    },

    /// The arguments make sense to the parser but not to the command.
    #[error("{0}")]
    Usage(String),
}
