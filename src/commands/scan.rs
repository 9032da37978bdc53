//! `vedette scan PHOTO [PHOTO...] --profile PROFILE [--roster ROSTER] -o TABLE.json
//! [--overlay OUT.png] [--report REPORT.json]`: finds the table fiducials, solves the
//! camera, finds every tagged base and writes the table file. Several photos of one
//! table are scanned each on its own and merged (`scan_many.rs`, issue 18). Everything the scan saw
//! but left out (unknown, duplicate or off-table tags) and every roster tag it did not
//! see is printed, and written to the report when asked.
//!
//! Terrain layers (issue 19): `--terrain LAYER.json` puts the terrain of a table file
//! (a layer made with `--terrain-only`, or any hand-typed table) into the scan instead
//! of segmenting the photo; `--terrain-only` writes the terrain alone (a table file
//! without units or markers), from a photo of the empty table.

use std::path::PathBuf;

/// Arguments of `vedette scan`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  vedette scan samples/photos/battle.jpg --profile calibration/default.toml --roster samples/photos/battle.roster.toml --camera samples/photos/camera.toml -o battle.json --overlay overlay.jpg --report battle.report.json"
)]
pub struct Args {
    /// The photo (JPEG, PNG, ...); several photos of one table are scanned each on its
    /// own and merged.
    #[arg(required = true, num_args = 1..)]
    pub photos: Vec<PathBuf>,
    /// The calibration profile (e.g. `calibration/default.toml`).
    #[arg(long)]
    pub profile: PathBuf,
    /// The roster: which tag is on which unit's base. Without it each tag becomes a
    /// placeholder unit `tag-ID` of the profile's default base size.
    #[arg(long)]
    pub roster: Option<PathBuf>,
    /// A camera file, overriding the profile's `[camera]`: once for every photo, or once
    /// per photo in the order of the photos.
    #[arg(long)]
    pub camera: Vec<PathBuf>,
    /// Where to write the table (`vedette/table/1` JSON; `-`: standard output, the
    /// summary then on stderr).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Also write the photo with what was found drawn over it (.png or .jpg): fiducials
    /// green, bases blue, tags left out red, the places of units held back orange; with
    /// several photos, one per photo, numbered (`OUT-1.jpg`, `OUT-2.jpg`, ...).
    #[arg(long)]
    pub overlay: Option<PathBuf>,
    /// Also write the scan report (camera model, residuals, issues) as JSON.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Take the terrain from this table file (a layer written by `--terrain-only`, or
    /// any table file of the same table) instead of from the photo.
    #[arg(long, value_name = "FILE", conflicts_with = "terrain_only")]
    pub terrain: Option<PathBuf>,
    /// Write only the terrain (a table file without units or markers): a layer for
    /// later scans' `--terrain`, best made from a photo of the empty table.
    #[arg(long)]
    pub terrain_only: bool,
    /// Apply this corrections file (`vedette/corrections/1`, as `vedette serve` writes
    /// beside a table) to the scanned table, in order: a base corrected by hand stays
    /// corrected when the same photo is scanned again.
    #[arg(long, value_name = "FILE", conflicts_with = "terrain_only")]
    pub corrections: Option<PathBuf>,
    /// A photo of the empty table taken from the same place (the camera on a stand,
    /// the same light): untagged bases are then found against the mat it shows. With
    /// several photos, one per photo, in the order of the photos. It must be the
    /// photo's size and show the table's fiducials; a camera moved more than a nudge
    /// between the two is refused.
    #[arg(long, value_name = "EMPTY", conflicts_with = "terrain_only")]
    pub background: Vec<PathBuf>,
    /// Write the table even when the photo does not look like the roster (most of its
    /// tags missing, most tags read unknown to it, or most of its units' bases
    /// scattered): otherwise such a scan is refused.
    #[arg(long)]
    pub allow_partial: bool,
}
