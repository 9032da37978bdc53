//! `vedette fiducials PHOTO [--profile P [--overlay OUT.jpg]] [--dictionary D]...
//! [--verbose] [--json]`: the markers found in a photo; with a profile, which table
//! fiducials were found and, for each missing one, where it should be and why it was
//! not found, measured from the photo (issue 39): the diagnostic for "why did
//! calibration fail?". Exits with status 1 when a table fiducial is missing.

use std::path::PathBuf;

/// Arguments of `vedette fiducials`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  vedette fiducials samples/photos/battle.jpg --profile calibration/default.toml --overlay found.jpg"
)]
pub struct Args {
    /// The photo.
    pub photo: PathBuf,
    /// A dictionary to look for (repeatable), e.g. `DICT_4X4_250`. Default: the
    /// profile's fiducial and tag dictionaries, or `DICT_4X4_250` without a profile.
    #[arg(long = "dictionary")]
    pub dictionaries: Vec<String>,
    /// A profile: its fiducials are marked as such, and each missing one is placed
    /// from the ones found and said why it is missing (the exit status is then 1).
    #[arg(long)]
    pub profile: Option<PathBuf>,
    /// Write the photo with every marker found marked with its id, and each missing
    /// table fiducial where it should be, with why (.jpg or .png).
    #[arg(long, requires = "profile")]
    pub overlay: Option<PathBuf>,
    /// List every marker with its corners.
    #[arg(short, long)]
    pub verbose: bool,
    /// Smallest marker side to look for, px.
    #[arg(long, default_value_t = 10.0)]
    pub min_side_px: f64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}
