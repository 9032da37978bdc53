//! `vedette fiducials PHOTO [--dictionary D]... [--profile P] [--json]`: every square
//! marker found in a photo, with its id and corners: the diagnostic for "why did
//! calibration fail?".

use std::path::PathBuf;

/// Arguments of `vedette fiducials`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  vedette fiducials samples/photos/battle.jpg --profile calibration/default.toml"
)]
pub struct Args {
    /// The photo.
    pub photo: PathBuf,
    /// A dictionary to look for (repeatable), e.g. `DICT_4X4_250`. Default: the
    /// profile's fiducial and tag dictionaries, or `DICT_4X4_250` without a profile.
    #[arg(long = "dictionary")]
    pub dictionaries: Vec<String>,
    /// A profile: its fiducials are marked as such and missing ones listed.
    #[arg(long)]
    pub profile: Option<PathBuf>,
    /// Smallest marker side to look for, px.
    #[arg(long, default_value_t = 10.0)]
    pub min_side_px: f64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}
