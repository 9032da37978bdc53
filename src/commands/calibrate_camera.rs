//! `vedette calibrate-camera PHOTOS... -o calibration/camera.toml [--chessboard 9x6 |
//! --charuco 7x5] [--square-mm S] [--marker-mm M] [--dictionary D]`: intrinsics and
//! lens distortion from photos of a calibration board.

use std::path::PathBuf;

/// Arguments of `vedette calibrate-camera`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  vedette calibrate-camera /usr/share/doc/opencv-doc/examples/data/left0*.jpg -o camera.toml"
)]
pub struct Args {
    /// Photos of the board from different angles (at least 3, 10-20 is better).
    #[arg(required = true)]
    pub photos: Vec<PathBuf>,
    /// Where to write the camera file (`-`: standard output, the summary then on stderr).
    #[arg(short, long)]
    pub output: PathBuf,
    /// A chessboard, by inner corners COLSxROWS (OpenCV's sample board is 9x6).
    #[arg(long, conflicts_with = "charuco")]
    pub chessboard: Option<String>,
    /// A ChArUco board, by squares COLSxROWS (odd ROWS).
    #[arg(long)]
    pub charuco: Option<String>,
    /// Side of a board square, mm.
    #[arg(long, default_value_t = 25.0)]
    pub square_mm: f64,
    /// ChArUco: side of a marker, mm (default: 0.75 of the square).
    #[arg(long)]
    pub marker_mm: Option<f64>,
    /// ChArUco: the markers' dictionary.
    #[arg(long, default_value = "DICT_5X5_100")]
    pub dictionary: String,
}
