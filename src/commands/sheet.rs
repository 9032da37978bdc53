//! `vedette sheet PROFILE -o DIR [--roster R | --tags 10-99 | --check]`: print-ready
//! pages of the profile's table fiducials and of base tags at exact physical size (A4,
//! PNG at 300 dpi and SVG in mm), each with a 100 mm ruler to check the printer's
//! scale; with a roster, each tag labelled with the base it goes on (`fr-1#0`); with
//! `--check`, the check sheet of `vedette check` (issue 39).

use std::path::PathBuf;

/// Arguments of `vedette sheet`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  vedette sheet calibration/default.toml -o sheets/ --roster samples/photos/skirmish.roster.toml"
)]
pub struct Args {
    /// The calibration profile.
    pub profile: PathBuf,
    /// The directory to write the pages into (created if missing).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Print the tags of this roster, each labelled with its base (`fr-1#0`: base 0
    /// of unit fr-1), unit by unit.
    #[arg(long, conflicts_with = "tags")]
    pub roster: Option<PathBuf>,
    /// Print only the check sheet: tags at known spacings for `vedette check`.
    #[arg(long, conflicts_with_all = ["roster", "tags"])]
    pub check: bool,
    /// Tag ids to print, e.g. `10-99` or `10,11,20-29`. Default: every id of the tag
    /// dictionary that is not a table fiducial.
    #[arg(long)]
    pub tags: Option<String>,
}
