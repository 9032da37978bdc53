//! `vedette sheet PROFILE -o DIR [--roster R | --tags 10-99]`: print-ready pages of the
//! profile's table fiducials and of base tags at exact physical size (A4, PNG at 300
//! dpi and SVG in mm), each with a 100 mm ruler to check the printer's scale.

use std::path::PathBuf;

/// Arguments of `vedette sheet`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  vedette sheet calibration/default.toml -o sheets/")]
pub struct Args {
    /// The calibration profile.
    pub profile: PathBuf,
    /// The directory to write the pages into (created if missing).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Print the tags of this roster.
    #[arg(long, conflicts_with = "tags")]
    pub roster: Option<PathBuf>,
    /// Tag ids to print, e.g. `10-99` or `10,11,20-29`. Default: every id of the tag
    /// dictionary that is not a table fiducial.
    #[arg(long)]
    pub tags: Option<String>,
}
