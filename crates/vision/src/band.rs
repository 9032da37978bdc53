//! A picture of one question over the photo (issue 39): the photo cropped to the pair
//! and what decides it, shrunk to a width for sharing, and the caption band across its
//! top ([`vedette_draw::caption::band_layout`]), painted with OpenCV's Hershey font.

use crate::error::VisionError;
use crate::picture::{PhotoProjection, ascii, paint_scene};
use opencv::core::{CV_8UC3, Mat, MatTraitConst, Point, Rect, Scalar, Size, Vector};
use opencv::imgproc;
use vedette_draw::caption::{BandLayout, Caption, band_layout};
use vedette_draw::{Framed, Projection, Scene};
use vedette_geometry::Vec2;

/// `scene` painted over `photo` through `full` (the scan's camera model): a picture of
/// one question (the scene has a caption) cropped to its focus
/// ([`vedette_draw::plan::focus_frame`]) with its caption band on top, the whole photo
/// otherwise; scaled down to `max_width` px at most before painting, so that its labels
/// are drawn at the size they are seen, never under `min_label_px`.
pub fn paint_framed(
    photo: &Mat,
    full: &PhotoProjection,
    scene: &Scene,
    max_width: u32,
    min_label_px: f64,
) -> Result<Mat, VisionError> {
    let f = photo_frame(full, scene, max_width, min_label_px);
    let framed = Framed::new(full, f.origin, f.size, f.scale);
    let crop = crop_and_scale(
        photo,
        (f.origin.x as i32, f.origin.y as i32),
        (f.size.0 as i32, f.size.1 as i32),
        f.scale,
    )?;
    let scale = f.text_scale;
    let img = paint_scene(&crop, scene, &framed, scale)?;
    match &scene.caption {
        Some(c) => with_caption_band(&img, c),
        None => Ok(img),
    }
}

/// The part of a photo a picture shows and how ([`photo_frame`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhotoFrame {
    /// Its top-left corner in the photo, px.
    pub origin: Vec2,
    /// Its size in the photo, px.
    pub size: (f64, f64),
    /// How much it is scaled (at most 1).
    pub scale: f64,
    /// The text scale its labels are drawn at.
    pub text_scale: f64,
}

impl PhotoFrame {
    /// The projection of the framed picture.
    #[must_use]
    pub fn projection<'a>(&self, full: &'a PhotoProjection) -> Framed<'a> {
        Framed::new(full, self.origin, self.size, self.scale)
    }
}

/// What [`paint_framed`] shows of the photo of `full`: a picture of one question (the
/// scene has a caption) its focus ([`vedette_draw::plan::focus_frame`]) grown to
/// [`MIN_FRAME_PX`], the whole photo otherwise; scaled to `max_width` px at most; labels
/// sized for the part of the table shown, never under `min_label_px`.
#[must_use]
pub fn photo_frame(full: &PhotoProjection, scene: &Scene, max_width: u32, min_label_px: f64) -> PhotoFrame {
    let (w, h) = full.output_size();
    let (origin, size) = match scene.caption {
        Some(_) => vedette_draw::plan::focus_frame(scene, full)
            .map_or((Vec2::new(0.0, 0.0), (w, h)), |(o, s)| at_least(o, s, MIN_FRAME_PX, (w, h))),
        None => (Vec2::new(0.0, 0.0), (w, h)),
    };
    let scale = (f64::from(max_width) / size.0).min(1.0);
    let shown_mm = size.0.max(size.1) / full.units_per_mm();
    let text_scale = vedette_draw::plan::text_scale(shown_mm)
        .max(min_label_px / (vedette_draw::plan::VERDICT_TEXT_MM * full.units_per_mm() * scale));
    PhotoFrame { origin, size, scale, text_scale }
}

/// The smallest crop of a photo around one question, px (width, height): the pair and
/// what is around it, and room for a readable caption; a smaller photo is shown whole.
pub const MIN_FRAME_PX: (f64, f64) = (1200.0, 800.0);

/// The frame at `origin` of `size` grown about its centre to at least `least`, kept
/// inside a picture of `picture` size (output units).
fn at_least(origin: Vec2, size: (f64, f64), least: (f64, f64), picture: (f64, f64)) -> (Vec2, (f64, f64)) {
    let grow = |o: f64, s: f64, l: f64, p: f64| {
        let s2 = s.max(l).min(p);
        let o2 = (o + s / 2.0 - s2 / 2.0).clamp(0.0, (p - s2).max(0.0));
        (o2.floor(), s2.floor())
    };
    let (x, w) = grow(origin.x, size.0, least.0, picture.0);
    let (y, h) = grow(origin.y, size.1, least.1, picture.1);
    (Vec2::new(x, y), (w, h))
}

/// The text scale of labels drawn through `proj`: scaled with the table
/// ([`vedette_draw::plan::text_scale`]), and never smaller than `min_label_px`.
#[must_use]
pub fn label_scale(scene: &Scene, proj: &dyn Projection, min_label_px: f64) -> f64 {
    let (lo, hi) = scene.bounds().unwrap_or_default();
    vedette_draw::plan::text_scale((hi.x - lo.x).max(hi.y - lo.y))
        .max(min_label_px / (vedette_draw::plan::VERDICT_TEXT_MM * proj.units_per_mm()))
}

/// The smallest caption line over a photo, px: the band stays readable on a small crop.
pub const MIN_BAND_LINE_PX: f64 = 15.0;

/// `photo`'s part from `origin` (px), `size` of it, scaled by `scale` (area-averaged when
/// shrinking).
pub fn crop_and_scale(
    photo: &Mat,
    origin: (i32, i32),
    size: (i32, i32),
    scale: f64,
) -> Result<Mat, VisionError> {
    let roi = Mat::roi(photo, Rect::new(origin.0, origin.1, size.0, size.1))?;
    let w = ((f64::from(size.0) * scale).round() as i32).max(1);
    let h = ((f64::from(size.1) * scale).round() as i32).max(1);
    let mut out = Mat::default();
    if (scale - 1.0).abs() < 1e-9 {
        roi.copy_to(&mut out)?;
    } else {
        let interpolation = if scale < 1.0 { imgproc::INTER_AREA } else { imgproc::INTER_LINEAR };
        imgproc::resize(&roi, &mut out, Size::new(w, h), 0.0, 0.0, interpolation)?;
    }
    Ok(out)
}

/// `img` with `caption`'s band on top: a white band as wide as the picture, its headline
/// in large bold type and its lines under it, close calls in vermillion, a rule under
/// the band.
pub fn with_caption_band(img: &Mat, caption: &Caption) -> Result<Mat, VisionError> {
    let width = img.cols();
    let band = band_layout(caption, f64::from(width), MIN_BAND_LINE_PX);
    let top = paint_band(&band, width)?;
    let mut out = Mat::default();
    let parts: Vector<Mat> = vec![top, img.try_clone()?].into();
    opencv::core::vconcat(&parts, &mut out)?;
    Ok(out)
}

/// The band alone, `width` px wide.
fn paint_band(band: &BandLayout, width: i32) -> Result<Mat, VisionError> {
    let height = band.height.ceil().max(1.0) as i32;
    let mut img = Mat::new_rows_cols_with_default(height, width, CV_8UC3, Scalar::all(255.0))?;
    let room = f64::from(width) - 2.0 * band.left;
    for r in &band.rows {
        let text = ascii(&r.text);
        let thick = ((r.size / if r.bold { 8.0 } else { 14.0 }).round() as i32).max(1);
        let mut base = 0;
        let at_one = imgproc::get_text_size(&text, imgproc::FONT_HERSHEY_SIMPLEX, 1.0, thick, &mut base)?;
        // Hershey capitals are about 22 px high at scale 1, and a capital stands about
        // 0.72 of a font's size; narrowed to the row's room if need be.
        let scale = (0.72 * r.size / 22.0).min(room / f64::from(at_one.width.max(1)));
        let colour = if r.close_call { Scalar::new(0.0, 94.0, 213.0, 0.0) } else { Scalar::all(0.0) };
        imgproc::put_text(
            &mut img,
            &text,
            Point::new(band.left.round() as i32, r.baseline.round() as i32),
            imgproc::FONT_HERSHEY_SIMPLEX,
            scale,
            colour,
            thick,
            imgproc::LINE_AA,
            false,
        )?;
    }
    let rule = ((band.rows.last().map_or(15.0, |r| r.size) * 0.1).round() as i32).max(1);
    imgproc::line(
        &mut img,
        Point::new(0, height - 1),
        Point::new(width - 1, height - 1),
        Scalar::all(0.0),
        rule,
        imgproc::LINE_8,
        0,
    )?;
    Ok(img)
}
