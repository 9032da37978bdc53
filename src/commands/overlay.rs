//! Pictures over the photo (issue 21): `--png OUT.png --photo PHOTO --scan-report R.json`
//! on `measure`, `los`, `report` and `explain` draws the verb's picture over the photo
//! the table was scanned from, every table point projected through the scan's camera
//! model (lens distortion included; bases at base-top height, zones on the table).
//!
//! Drawing on a photo needs OpenCV, so the `vedette` binary hands a command line with
//! `--png` to `vedette-scanner` (see [`crate::cli`]); [`paint`] is only reached from
//! there.

use crate::CliError;
use crate::output::{check_outputs, write_atomically};
use std::path::{Path, PathBuf};
use vedette_draw::{Projection, Scene};

/// The smallest verdict label drawn over a photo, px.
pub const MIN_LABEL_PX: f64 = 12.0;

/// The photo-overlay arguments shared by the verbs that draw.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PhotoArgs {
    /// Also draw the picture over the scanned photo, as PNG (with --photo and
    /// --scan-report).
    #[arg(long, value_name = "OUT.png", requires_all = ["photo", "scan_report"])]
    pub png: Option<PathBuf>,
    /// The photo the table was scanned from (for --png).
    #[arg(long, value_name = "PHOTO", requires = "png")]
    pub photo: Option<PathBuf>,
    /// The scan report `vedette scan --report R.json` wrote for that photo: its camera
    /// model (for --png).
    #[arg(long, value_name = "R.json", requires = "png")]
    pub scan_report: Option<PathBuf>,
}

/// What draws a scene over a photo: [`paint`] in `vedette-scanner`, nothing in `vedette`.
pub type Painter<'a> = &'a dyn Fn(&Scene, &PhotoArgs) -> Result<(), CliError>;

impl PhotoArgs {
    /// True when a photo overlay is asked for.
    #[must_use]
    pub fn wanted(&self) -> bool {
        self.png.is_some()
    }

    /// Refuses outputs (`--svg`/`--plan` given as `picture`, and `--png`) that name an
    /// input (the table, the photo, the scan report) or each other.
    pub fn check(&self, picture: Option<(&str, &Path)>, table: &Path) -> Result<(), CliError> {
        let mut outputs: Vec<(&str, &Path)> = picture.into_iter().collect();
        outputs.extend(self.png.as_deref().map(|p| ("--png", p)));
        let mut inputs: Vec<(&str, &Path)> = vec![("table", table)];
        inputs.extend(self.photo.as_deref().map(|p| ("photo", p)));
        inputs.extend(self.scan_report.as_deref().map(|p| ("scan report", p)));
        check_outputs(&outputs, &inputs)
    }

    /// The pictures a verb was asked for: `scene` (built only when one is wanted) as SVG
    /// to `svg`, and over the photo with `painter`.
    pub fn draw(
        &self,
        svg: Option<&Path>,
        painter: Option<Painter<'_>>,
        scene: impl FnOnce() -> Result<Scene, CliError>,
    ) -> Result<(), CliError> {
        if svg.is_none() && !self.wanted() {
            return Ok(());
        }
        let scene = scene()?;
        if let Some(p) = svg {
            write_atomically(p, vedette_draw::plan_svg(&scene)?.as_bytes())?;
        }
        self.paint(&scene, painter)
    }

    /// Draws `scene` over the photo when asked, with `painter`.
    pub fn paint(&self, scene: &Scene, painter: Option<Painter<'_>>) -> Result<(), CliError> {
        if !self.wanted() {
            return Ok(());
        }
        match painter {
            Some(p) => p(scene, self),
            None => Err(CliError::Usage(format!(
                "--png draws over the photo in {}, which runs this command line when it is beside vedette",
                crate::cli::SCANNER_BINARY
            ))),
        }
    }
}

/// Draws `scene` over `args.photo` through the camera model of `args.scan_report` and
/// writes `args.png`.
pub fn paint(scene: &Scene, args: &PhotoArgs) -> Result<(), CliError> {
    let (Some(png), Some(photo_path), Some(report)) = (&args.png, &args.photo, &args.scan_report) else {
        return Err(CliError::Usage("--png needs --photo and --scan-report".to_string()));
    };
    let (model, base_top_mm) = vedette_vision::load_scan_camera(report, photo_path)?;
    let photo = vedette_vision::Photo::load(photo_path)?;
    let (w, h) = photo.size()?;
    let (mw, mh) = model.image_size();
    if (w, h) != (mw, mh) {
        return Err(CliError::Usage(format!(
            "{} is {w} x {h} px but the camera model in {} is for a {mw} x {mh} px photo: give the photo that was scanned",
            photo_path.display(),
            report.display()
        )));
    }
    let (projection, scale) = photo_projection(model, base_top_mm, scene);
    let img = vedette_vision::paint_scene(&photo.color, scene, &projection, scale)?;
    write_atomically(png, &vedette_vision::encode_image(&img, png)?)
}

/// The projection of `scene` onto the photo of `model` (bases at `base_top_mm`), with
/// the text scale its labels are drawn at (`vedette serve` draws its photo view so too).
#[must_use]
pub fn photo_projection(
    model: vedette_vision::CameraModel,
    base_top_mm: f64,
    scene: &Scene,
) -> (vedette_vision::PhotoProjection, f64) {
    let (lo, hi) = scene.bounds().unwrap_or_default();
    let centre = lo.lerp(hi, 0.5);
    let projection = vedette_vision::PhotoProjection::new(model, base_top_mm, centre);
    // Labels readable at any photo size: scaled with the table, and never smaller than
    // MIN_LABEL_PX.
    let scale = vedette_draw::plan::text_scale((hi.x - lo.x).max(hi.y - lo.y))
        .max(MIN_LABEL_PX / (vedette_draw::plan::VERDICT_TEXT_MM * projection.units_per_mm()));
    (projection, scale)
}
