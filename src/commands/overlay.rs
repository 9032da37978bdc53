//! Pictures over the photo (issue 21): `--png OUT.png --photo PHOTO --scan-report R.json`
//! on `measure`, `los`, `report` and `explain` draws the verb's picture over the photo
//! the table was scanned from, every table point projected through the scan's camera
//! model (lens distortion included; bases at base-top height, zones on the table).
//!
//! Drawing on a photo needs OpenCV, so the `vedette` binary hands a command line with
//! `--png` to `vedette-scanner` (see [`crate::cli`]), whose painter draws it.

use crate::CliError;
use crate::output::{check_outputs, write_atomically};
use std::path::{Path, PathBuf};
use vedette_draw::Scene;
use vedette_geometry::Table;

/// The smallest verdict label drawn over a photo, px.
pub const MIN_LABEL_PX: f64 = 12.0;

/// The default widest picture of one question over a photo, px (`--max-width`).
pub const QUESTION_MAX_WIDTH_PX: u32 = 1600;

/// The default widest picture of the whole table over a photo, px (`--max-width`).
pub const TABLE_MAX_WIDTH_PX: u32 = 2400;

/// The photo-overlay arguments shared by the verbs that draw.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PhotoArgs {
    /// Also draw the picture over the scanned photo (with --photo and --scan-report),
    /// as PNG or JPEG by the file's extension (.png, .jpg); a picture of one question is
    /// the photo cropped to the pair, with its caption on top.
    #[arg(long, visible_alias = "image", value_name = "OUT.png|OUT.jpg", requires_all = ["photo", "scan_report"])]
    pub png: Option<PathBuf>,
    /// The widest the picture over the photo may be, px: a larger one is scaled down,
    /// its labels kept readable (default: 1600 for a picture of one question, 2400 for
    /// the whole table; shareable sizes, docs/drawing.md).
    #[arg(long, value_name = "PX", requires = "png", value_parser = clap::value_parser!(u32).range(200..=20000))]
    pub max_width: Option<u32>,
    /// The photo the table was scanned from (for --png).
    #[arg(long, value_name = "PHOTO", requires = "png")]
    pub photo: Option<PathBuf>,
    /// The scan report `vedette scan --report R.json` wrote for that photo: its camera
    /// model (for --png).
    #[arg(long, value_name = "R.json", requires = "png")]
    pub scan_report: Option<PathBuf>,
}

/// What draws a scene over a photo: the painter of `vedette-scanner`, nothing in `vedette`.
/// It is given the table the scene shows (a picture of the whole table also outlines
/// the units the scan report says it did not place).
pub type Painter<'a> = &'a dyn Fn(&Scene, &Table, &PhotoArgs) -> Result<(), CliError>;

impl PhotoArgs {
    /// The widest the picture may be, px: `--max-width`, or the default for a picture of
    /// one question (`scene` has a caption) or of the whole table.
    #[must_use]
    pub fn max_width_px(&self, scene: &Scene) -> u32 {
        self.max_width.unwrap_or(if scene.caption.is_some() {
            QUESTION_MAX_WIDTH_PX
        } else {
            TABLE_MAX_WIDTH_PX
        })
    }

    /// True when a photo overlay is asked for.
    #[must_use]
    pub fn wanted(&self) -> bool {
        self.png.is_some()
    }

    /// Refuses outputs (`--svg`/`--plan` given as `picture`, and `--png`) that name an
    /// input (the table, the photo, the scan report) or each other.
    pub fn check(&self, picture: Option<(&str, &Path)>, table: &Path) -> Result<(), CliError> {
        if let Some(p) = &self.png {
            let ext = p.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
            if !matches!(ext.as_str(), "png" | "jpg" | "jpeg") {
                return Err(CliError::Usage(format!(
                    "--png {}: the picture is written as PNG or JPEG by its extension: name it .png or .jpg",
                    p.display()
                )));
            }
        }
        let mut outputs: Vec<(&str, &Path)> = picture.into_iter().collect();
        outputs.extend(self.png.as_deref().map(|p| ("--png", p)));
        let mut inputs: Vec<(&str, &Path)> = vec![("table", table)];
        inputs.extend(self.photo.as_deref().map(|p| ("photo", p)));
        inputs.extend(self.scan_report.as_deref().map(|p| ("scan report", p)));
        check_outputs(&outputs, &inputs)
    }

    /// The pictures a verb was asked for: `scene` of `table` (built only when one is
    /// wanted) as SVG to `svg`, and over the photo with `painter`.
    pub fn draw(
        &self,
        svg: Option<&Path>,
        painter: Option<Painter<'_>>,
        table: &Table,
        scene: impl FnOnce() -> Result<Scene, CliError>,
    ) -> Result<(), CliError> {
        if svg.is_none() && !self.wanted() {
            return Ok(());
        }
        let scene = scene()?;
        if let Some(p) = svg {
            write_atomically(p, vedette_draw::plan_svg(&scene)?.as_bytes())?;
        }
        self.paint(&scene, table, painter)
    }

    /// Draws `scene` of `table` over the photo when asked, with `painter`.
    pub fn paint(&self, scene: &Scene, table: &Table, painter: Option<Painter<'_>>) -> Result<(), CliError> {
        if !self.wanted() {
            return Ok(());
        }
        match painter {
            Some(p) => p(scene, table, self),
            None => Err(CliError::Usage(format!(
                "--png draws over the photo in {}, which runs this command line when it is beside vedette",
                crate::cli::SCANNER_BINARY
            ))),
        }
    }
}
