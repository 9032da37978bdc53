//! `vedette check PHOTO --profile P [--camera C] [--json]`: the distances between the
//! check sheet's tags (`vedette sheet --check`) as a photo of the table measures them,
//! against the printed ones (issue 39): the accuracy of your own camera on your own
//! table, and whether it is good enough for disputes.

use std::path::PathBuf;

/// Arguments of `vedette check`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  vedette check check-photo.jpg --profile my-table.toml")]
pub struct Args {
    /// A photo of the table with the check sheet lying on it.
    pub photo: PathBuf,
    /// The calibration profile.
    #[arg(long)]
    pub profile: PathBuf,
    /// A camera file, overriding the profile's `[camera]` (as `vedette scan --camera`).
    #[arg(long)]
    pub camera: Option<PathBuf>,
    /// Print JSON (every distance).
    #[arg(long)]
    pub json: bool,
}
