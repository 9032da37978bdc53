//! The painter of `--png` (issue 21): a verb's picture drawn over the photo the table
//! was scanned from, every table point projected through the scan's camera model (lens
//! distortion included; bases at base-top height, zones on the table). The verbs reach
//! it through [`vedette::commands::overlay::Painter`].

use vedette::CliError;
use vedette::commands::overlay::{MIN_LABEL_PX, PhotoArgs};
use vedette::output::write_atomically;
use vedette_draw::Scene;
use vedette_geometry::Table;

/// Draws `scene` of `table` over `args.photo` through the camera model of
/// `args.scan_report` and writes `args.png`. A picture of the whole table (no caption)
/// also outlines the places of the units the scan held back and names in its legend
/// those it found nowhere (`vedette_draw::unplaced`); every picture says on stderr that
/// no verdict covers them.
pub fn paint(scene: &Scene, table: &Table, args: &PhotoArgs) -> Result<(), CliError> {
    let (Some(png), Some(photo_path), Some(report)) = (&args.png, &args.photo, &args.scan_report) else {
        return Err(CliError::Usage("--png needs --photo and --scan-report".to_string()));
    };
    // Read once: the camera and the units not placed come from one version of it.
    let saved = vedette_vision::SavedScanReport::load(report).map_err(crate::vision)?;
    let (model, base_top_mm) = saved.camera(photo_path).map_err(crate::vision)?;
    let photo = vedette_vision::Photo::load(photo_path).map_err(crate::vision)?;
    let (w, h) = photo.size().map_err(crate::vision)?;
    let (mw, mh) = model.image_size();
    if (w, h) != (mw, mh) {
        return Err(CliError::Usage(format!(
            "{} is {w} x {h} px but the camera model in {} is for a {mw} x {mh} px photo: give the photo that was scanned",
            photo_path.display(),
            report.display()
        )));
    }
    // Units the scan did not place: no verdict covers them, which stderr says for
    // every picture (a unit held back may stand on a sight line); a picture of the whole
    // table draws them too, one of a question (cropped to its pair) does not.
    let unplaced = saved.unplaced(photo_path, table).map_err(crate::vision)?;
    if let Some(note) = vedette_draw::unplaced_note(&unplaced) {
        eprintln!("note: {note}");
    }
    let mut whole;
    let scene = if scene.caption.is_none() && !unplaced.is_empty() {
        whole = scene.clone();
        vedette_draw::add_unplaced(&mut whole, &unplaced);
        &whole
    } else {
        scene
    };
    let (projection, _) = photo_projection(model, base_top_mm, scene);
    let img = vedette_vision::paint_framed(
        &photo.color,
        &projection,
        scene,
        args.max_width_px(scene),
        MIN_LABEL_PX,
    )
    .map_err(crate::vision)?;
    let bytes = vedette_vision::encode_image(&img, png).map_err(crate::vision)?;
    write_atomically(png, &bytes)?;
    let limit = shareable_bytes(scene);
    let is_png = png.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if is_png && bytes.len() > limit {
        eprintln!(
            "note: {} is {:.1} MB, over the {:.1} MB a chat or forum takes well: a photo is several times smaller as JPEG (name it .jpg), or give a smaller --max-width",
            png.display(),
            bytes.len() as f64 / 1e6,
            limit as f64 / 1e6
        );
    }
    Ok(())
}

/// The most a picture should weigh to share it in a chat or a forum: 600 KB for a
/// picture of one question, 1.5 MB for the whole table (issue 39).
#[must_use]
pub fn shareable_bytes(scene: &Scene) -> usize {
    if scene.caption.is_some() { 600_000 } else { 1_500_000 }
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
    let scale = vedette_vision::label_scale(scene, &projection, MIN_LABEL_PX);
    (projection, scale)
}
