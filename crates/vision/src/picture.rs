//! Pictures over the photo (issue 21): a [`vedette_draw::Scene`] projected through the
//! scan's camera model, lens distortion included, each point at the height where it
//! belongs (base tops for bases, the table for zones and lines), and painted onto the
//! photo with the same styles as the SVG plan ([`vedette_draw::style::resolve`]).

use crate::error::{VisionError, read_text};
use crate::pose::{CameraModel, CameraParameters};
use opencv::core::{Mat, MatTraitConst, Point, Scalar, Vector};
use opencv::imgproc;
use serde::Deserialize;
use std::path::Path;
use vedette_draw::labels::{PlacedLabel, place_labels};
use vedette_draw::style::resolve;
use vedette_draw::{Height, Mark, Projection, Scene, Shape};
use vedette_geometry::Vec2;

/// Table points to photo pixels through a scan's camera model.
#[derive(Debug, Clone)]
pub struct PhotoProjection {
    model: CameraModel,
    base_top_mm: f64,
    px_per_mm: f64,
}

impl PhotoProjection {
    /// The projection of `model`, bases at `base_top_mm` above the table; `reference`
    /// is a table point where the picture's scale is taken (its centre).
    #[must_use]
    pub fn new(model: CameraModel, base_top_mm: f64, reference: Vec2) -> PhotoProjection {
        let px_per_mm = 1.0 / model.mm_per_px(reference).max(1e-9);
        PhotoProjection { model, base_top_mm, px_per_mm }
    }

    /// The camera model.
    #[must_use]
    pub fn model(&self) -> &CameraModel {
        &self.model
    }

    fn height_mm(&self, h: Height) -> f64 {
        match h {
            Height::Table => 0.0,
            Height::BaseTop => self.base_top_mm,
        }
    }
}

impl Projection for PhotoProjection {
    fn project(&self, p: Vec2, height: Height) -> Option<Vec2> {
        self.project_all(&[p], height)?.into_iter().next()
    }

    fn project_all(&self, points: &[Vec2], height: Height) -> Option<Vec<Vec2>> {
        let px = self.model.project(points, self.height_mm(height)).ok()?;
        px.iter().map(|q| (q[0].is_finite() && q[1].is_finite()).then(|| Vec2::new(q[0], q[1]))).collect()
    }

    fn output_size(&self) -> (f64, f64) {
        let (w, h) = self.model.image_size();
        (f64::from(w), f64::from(h))
    }

    fn units_per_mm(&self) -> f64 {
        self.px_per_mm
    }
}

/// A scan report (`vedette/scan-report/1`: one photo) or a report of several photos
/// (`vedette/multi-scan-report/1`: one entry per photo).
#[derive(Deserialize)]
struct ReportFile {
    camera: Option<CameraBody>,
    #[serde(default)]
    photos: Vec<PhotoEntry>,
}

#[derive(Deserialize)]
struct PhotoEntry {
    photo: String,
    camera: CameraBody,
}

#[derive(Deserialize)]
struct CameraBody {
    model_parameters: CameraParameters,
    base_top_mm: f64,
}

/// The camera model and base-top height that a scan report (`vedette scan --report
/// R.json`) recorded for `photo` (for a report of several photos, the entry of the photo
/// with the same file name).
pub fn load_scan_camera(path: &Path, photo: &Path) -> Result<(CameraModel, f64), VisionError> {
    let origin = path.display().to_string();
    let bad = |field: &str, reason: String| VisionError::InvalidField {
        path: origin.clone(),
        field: field.to_string(),
        reason,
    };
    let text = read_text(path)?;
    let file: ReportFile = serde_json::from_str(&text).map_err(|e| {
        bad(
            "camera",
            format!("not a scan report with its camera model ({e}); write one with vedette scan --report"),
        )
    })?;
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    let c = match file.camera {
        Some(c) => c,
        None => {
            let names: Vec<String> = file.photos.iter().map(|p| p.photo.clone()).collect();
            file.photos
                .into_iter()
                .find(|p| name(Path::new(&p.photo)) == name(photo))
                .map(|p| p.camera)
                .ok_or_else(|| {
                    bad(
                        "photos",
                        format!(
                            "no camera model for {} (the report has {}); write one with vedette scan --report",
                            photo.display(),
                            if names.is_empty() { "none".to_string() } else { names.join(", ") }
                        ),
                    )
                })?
        }
    };
    if !c.base_top_mm.is_finite() {
        return Err(bad("camera.base_top_mm", "must be a finite number".into()));
    }
    Ok((CameraModel::from_parameters(&c.model_parameters, &origin)?, c.base_top_mm))
}

fn colour(hex: &str) -> Scalar {
    let v = |i: usize| f64::from(u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0));
    Scalar::new(v(5), v(3), v(1), 0.0)
}

/// Fractional bits of the points given to OpenCV's drawing: 1/16 px.
const SHIFT: i32 = 4;

fn points(v: &[Vec2]) -> Vector<Point> {
    let k = f64::from(1 << SHIFT);
    v.iter().map(|p| Point::new((p.x * k).round() as i32, (p.y * k).round() as i32)).collect()
}

/// The text in the characters OpenCV's Hershey fonts have (printable ASCII).
fn ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '§' => out.push('S'),
            '½' => out.push_str(" 1/2"),
            '°' => out.push_str(" deg"),
            '→' => out.push_str("->"),
            '±' => out.push_str("+/-"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

/// Splits a polyline into its dashes (pattern in pixels, on and off alternating).
fn dashes(line: &[Vec2], pattern: &[f64]) -> Vec<Vec<Vec2>> {
    if pattern.len() < 2 || pattern.iter().any(|&d| d <= 0.0) {
        return vec![line.to_vec()];
    }
    let (mut out, mut cur) = (Vec::new(), Vec::new());
    let (mut k, mut left, mut on) = (0, pattern[0], true);
    for w in line.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = a.distance(b);
        let mut t = 0.0;
        if on && cur.is_empty() {
            cur.push(a);
        }
        while len - t > left {
            t += left;
            let p = a.lerp(b, t / len);
            if on {
                cur.push(p);
                out.push(std::mem::take(&mut cur));
            } else {
                cur = vec![p];
            }
            on = !on;
            k = (k + 1) % pattern.len();
            left = pattern[k];
        }
        left -= len - t;
        if on {
            cur.push(b);
        }
    }
    if on && cur.len() > 1 {
        out.push(cur);
    }
    out
}

/// Rings of one filled element (pixels) and their colour.
type Fill<'r> = (&'r Vec<Vec<Vec2>>, Scalar);

struct Painter<'a> {
    img: Mat,
    proj: &'a dyn Projection,
    line_scale: f64,
}

impl Painter<'_> {
    fn stroke(&mut self, pts: &[Vec2], closed: bool, class: &str) -> Result<(), VisionError> {
        let s = resolve(class);
        let Some((c, _)) = s.stroke else { return Ok(()) };
        let upm = self.proj.units_per_mm() * self.line_scale;
        let thick = (s.width_mm * upm).round().max(1.0) as i32;
        let mut line = pts.to_vec();
        if closed && let Some(&first) = pts.first() {
            line.push(first);
        }
        let pattern: Vec<f64> = s.dash_mm.iter().map(|d| d * upm).collect();
        let pieces: Vector<Vector<Point>> = dashes(&line, &pattern).iter().map(|p| points(p)).collect();
        imgproc::polylines(&mut self.img, &pieces, false, colour(c), thick, imgproc::LINE_AA, SHIFT)?;
        Ok(())
    }

    /// The Hershey font scale and thickness that draw `text` `size` px high, narrowed
    /// when needed to the width the label placement reserved for it.
    fn font(text: &str, size: f64) -> Result<(f64, i32, i32), VisionError> {
        let thick = (size / 12.0).round().max(1.0) as i32;
        let mut base = 0;
        let at_one = imgproc::get_text_size(text, imgproc::FONT_HERSHEY_SIMPLEX, 1.0, thick, &mut base)?;
        let reserved = vedette_draw::labels::text_width(text, size);
        // Hershey simplex capitals are about 22 px high at scale 1.
        let scale = (size / 22.0).min(reserved / f64::from(at_one.width.max(1)));
        Ok((scale, thick, (f64::from(at_one.width) * scale).round() as i32))
    }

    fn text(&mut self, text: &str, l: &PlacedLabel) -> Result<(), VisionError> {
        let text = ascii(text);
        let text = text.as_str();
        let (scale, thick, width) = Self::font(text, l.size)?;
        let x = match l.anchor {
            "middle" => l.x - f64::from(width) / 2.0,
            "end" => l.x - f64::from(width),
            _ => l.x,
        };
        let at = Point::new(x.round() as i32, l.y.round() as i32);
        for (c, t) in
            [(Scalar::new(255.0, 255.0, 255.0, 0.0), thick * 3), (Scalar::new(0.0, 0.0, 0.0, 0.0), thick)]
        {
            imgproc::put_text(
                &mut self.img,
                text,
                at,
                imgproc::FONT_HERSHEY_SIMPLEX,
                scale,
                c,
                t,
                imgproc::LINE_AA,
                false,
            )?;
        }
        Ok(())
    }

    /// Fills every filled element of a layer, one blend per opacity.
    fn fills(&mut self, elements: &[(Vec<Vec<Vec2>>, &str)]) -> Result<(), VisionError> {
        let mut by_opacity: Vec<(f64, Vec<Fill<'_>>)> = Vec::new();
        for (rings, class) in elements {
            // The table's own fill would hide the photo: only its edge is drawn.
            if class.split_whitespace().any(|c| c == "table-edge") {
                continue;
            }
            let Some((c, o)) = resolve(class).fill else { continue };
            match by_opacity.iter_mut().find(|(x, _)| (x - o).abs() < 1e-9) {
                Some((_, v)) => v.push((rings, colour(c))),
                None => by_opacity.push((o, vec![(rings, colour(c))])),
            }
        }
        for (o, items) in by_opacity {
            let mut layer = self.img.try_clone()?;
            for (rings, c) in items {
                let polys: Vector<Vector<Point>> = rings.iter().map(|r| points(r)).collect();
                imgproc::fill_poly(&mut layer, &polys, c, imgproc::LINE_AA, SHIFT, Point::new(0, 0))?;
            }
            let mut out = Mat::default();
            opencv::core::add_weighted(&self.img, 1.0 - o, &layer, o, 0.0, &mut out, -1)?;
            self.img = out;
        }
        Ok(())
    }
}

/// A closed ring of `n` points around a circle.
fn circle_points(centre: Vec2, r: f64) -> Vec<Vec2> {
    let n = 96;
    (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / n as f64;
            centre + Vec2::new(a.cos(), a.sin()) * r
        })
        .collect()
}

/// Paints the scene over `photo` through `proj`; `text_scale` sizes labels and marks
/// (1: as in the table's millimetres).
pub fn paint_scene(
    photo: &Mat,
    scene: &Scene,
    proj: &dyn Projection,
    text_scale: f64,
) -> Result<Mat, VisionError> {
    let labels = place_labels(scene, proj, text_scale);
    let mut p = Painter { img: photo.try_clone()?, proj, line_scale: text_scale.sqrt() };
    for (li, layer) in scene.layers().iter().enumerate() {
        // Fills first, then strokes, marks and text, layer by layer.
        let mut filled: Vec<(Vec<Vec<Vec2>>, &str)> = Vec::new();
        for e in &layer.elements {
            let rings = match &e.shape {
                Shape::Polygon { exterior, holes } => {
                    let mut rings = Vec::new();
                    for r in std::iter::once(exterior).chain(holes) {
                        if let Some(px) = proj.project_all(r, e.height) {
                            rings.push(px);
                        }
                    }
                    rings
                }
                Shape::Circle { centre, radius_mm } => {
                    proj.project_all(&circle_points(*centre, *radius_mm), e.height).into_iter().collect()
                }
                _ => continue,
            };
            filled.push((rings, e.class.as_str()));
        }
        p.fills(&filled)?;
        for (rings, class) in &filled {
            for r in rings {
                p.stroke(r, true, class)?;
            }
        }
        for (ei, e) in layer.elements.iter().enumerate() {
            match &e.shape {
                Shape::Polyline(pts) => {
                    if let Some(px) = proj.project_all(pts, e.height) {
                        p.stroke(&px, false, &e.class)?;
                    }
                }
                Shape::Point { at, mark } => {
                    let Some(c) = proj.project(*at, e.height) else { continue };
                    let s = resolve(&e.class);
                    let size = 1.5 * proj.units_per_mm() * text_scale;
                    match mark {
                        Mark::Dot => {
                            let col = s
                                .fill
                                .or(s.stroke)
                                .map_or(Scalar::new(0.0, 0.0, 0.0, 0.0), |(c, _)| colour(c));
                            imgproc::circle(
                                &mut p.img,
                                Point::new(c.x.round() as i32, c.y.round() as i32),
                                size.round().max(2.0) as i32,
                                col,
                                -1,
                                imgproc::LINE_AA,
                                0,
                            )?;
                        }
                        Mark::Cross => {
                            let d = 1.5 * size;
                            p.stroke(&[c + Vec2::new(-d, -d), c + Vec2::new(d, d)], false, &e.class)?;
                            p.stroke(&[c + Vec2::new(-d, d), c + Vec2::new(d, -d)], false, &e.class)?;
                        }
                    }
                }
                Shape::Text { text, .. } => {
                    if let Some(l) = labels.get(&(li, ei)) {
                        p.text(text, l)?;
                    }
                }
                Shape::Polygon { .. } | Shape::Circle { .. } => {}
            }
        }
    }
    legend(&mut p, scene, text_scale)?;
    Ok(p.img)
}

/// The legend in the photo's top-left corner, on a white box.
fn legend(p: &mut Painter<'_>, scene: &Scene, text_scale: f64) -> Result<(), VisionError> {
    let entries = scene.legend_entries();
    if entries.is_empty() {
        return Ok(());
    }
    let upm = p.proj.units_per_mm() * text_scale;
    let (size, row, sw) = (5.0 * upm, 8.0 * upm, 10.0 * upm);
    let width = entries.iter().map(|e| vedette_draw::labels::text_width(&e.text, size)).fold(0.0, f64::max)
        + sw
        + 6.0 * upm;
    let height = row * (entries.len() as f64 + 0.5);
    let (x0, y0) = (2.0 * upm, 2.0 * upm);
    imgproc::rectangle(
        &mut p.img,
        opencv::core::Rect::new(x0 as i32, y0 as i32, width as i32, height as i32),
        Scalar::new(255.0, 255.0, 255.0, 0.0),
        -1,
        imgproc::LINE_8,
        0,
    )?;
    for (i, e) in entries.iter().enumerate() {
        let y = y0 + row * (i as f64 + 0.5);
        let x = x0 + 2.0 * upm;
        if e.line {
            p.stroke(&[Vec2::new(x, y + row / 2.0), Vec2::new(x + sw, y + row / 2.0)], false, &e.class)?;
        } else {
            let r = [
                Vec2::new(x, y + 1.5 * upm),
                Vec2::new(x + sw, y + 1.5 * upm),
                Vec2::new(x + sw, y + row - 1.5 * upm),
                Vec2::new(x, y + row - 1.5 * upm),
            ];
            p.fills(&[(vec![r.to_vec()], e.class.as_str())])?;
            p.stroke(&r, true, &e.class)?;
        }
        let l = PlacedLabel { x: x + sw + 2.0 * upm, y: y + row / 2.0 + 0.35 * size, anchor: "start", size };
        p.text(&e.text, &l)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::Intrinsics;
    use crate::pose::ModelKind;
    use opencv::core::{CV_8UC3, Vec3b};
    use vedette_draw::LayerId;
    use vedette_geometry::{AssaultZone, Base, BaseSize, Pose};

    const K: [f64; 4] = [-0.3, 0.1, 0.002, -0.001];

    /// A calibrated camera 1500 mm above (900, 600) looking straight down, 1 px per mm
    /// at the table, with strong barrel distortion.
    fn camera() -> CameraModel {
        let p = CameraParameters {
            kind: ModelKind::Calibrated,
            image_size: [800, 600],
            intrinsics: Some(Intrinsics {
                image_width: 800,
                image_height: 600,
                fx: 1500.0,
                fy: 1500.0,
                cx: 400.0,
                cy: 300.0,
                distortion: K.to_vec(),
            }),
            rotation: Some([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]]),
            translation_mm: Some([-900.0, 600.0, 1500.0]),
            homography: [[1.0, 0.0, -500.0], [0.0, -1.0, 900.0], [0.0, 0.0, 1.0]],
            homography_inv: [[1.0, 0.0, 500.0], [0.0, -1.0, 900.0], [0.0, 0.0, 1.0]],
            plane_height_mm: 0.0,
            focal_rel_sigma: 0.0,
        };
        CameraModel::from_parameters(&p, "test").unwrap()
    }

    /// The pinhole camera with OpenCV's distortion (k1 k2 p1 p2), by hand.
    fn by_hand(p: Vec2, z: f64) -> Vec2 {
        let (x, y) = ((p.x - 900.0) / (1500.0 - z), -(p.y - 600.0) / (1500.0 - z));
        let r2 = x * x + y * y;
        let radial = 1.0 + K[0] * r2 + K[1] * r2 * r2;
        let xd = x * radial + 2.0 * K[2] * x * y + K[3] * (r2 + 2.0 * x * x);
        let yd = y * radial + K[2] * (r2 + 2.0 * y * y) + 2.0 * K[3] * x * y;
        Vec2::new(1500.0 * xd + 400.0, 1500.0 * yd + 300.0)
    }

    #[test]
    fn a_painted_zone_corner_lands_within_a_pixel_of_the_camera_model() {
        // An assault zone off the optical axis, where the distortion moves it by pixels.
        let base = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(1150.0, 760.0), 90.0));
        let zone = AssaultZone::ahead_of(&base, 76.2, 5.0).polygon().into_vertices();
        let corner = zone[2];
        let model = camera();
        let expected = by_hand(corner, 0.0);
        let undistorted = Vec2::new(corner.x - 500.0, 900.0 - corner.y);
        assert!((expected - undistorted).length() > 3.0, "the distortion matters here: {expected:?}");
        let px = model.project(&[corner], 0.0).unwrap()[0];
        assert!((Vec2::new(px[0], px[1]) - expected).length() < 1e-6, "{px:?} {expected:?}");
        // Painted alone (fill only) on a black photo.
        let mut scene = Scene::new("zone");
        scene.add(LayerId::Zones, "zone", "deep-base", Shape::polygon(zone.clone()), Height::Table, None);
        let proj = PhotoProjection::new(model, 3.0, corner);
        let photo = Mat::new_rows_cols_with_default(600, 800, CV_8UC3, Scalar::all(0.0)).unwrap();
        let img = paint_scene(&photo, &scene, &proj, 1.0).unwrap();
        // The painted pixel farthest out towards the corner (at least half covered).
        let centre = zone.iter().fold(Vec2::new(0.0, 0.0), |a, &p| a + p) / zone.len() as f64;
        let out = (expected - by_hand(centre, 0.0)).normalized().unwrap();
        let mut best: Option<(f64, Vec2)> = None;
        for v in 0..600 {
            for u in 0..800 {
                let red = img.at_2d::<Vec3b>(v, u).unwrap()[2];
                if f64::from(red) > 0.35 * 213.0 / 2.0 {
                    let p = Vec2::new(f64::from(u), f64::from(v));
                    if best.is_none_or(|(d, _)| p.dot(out) > d) {
                        best = Some((p.dot(out), p));
                    }
                }
            }
        }
        let (_, found) = best.expect("the zone is painted");
        assert!((found - expected).length() <= 1.0, "painted corner {found:?}, camera model {expected:?}");
    }

    #[test]
    fn dashes_alternate_on_and_off() {
        let line = [Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0)];
        let d = dashes(&line, &[2.0, 3.0]);
        let spans: Vec<(f64, f64)> = d.iter().map(|p| (p[0].x, p[p.len() - 1].x)).collect();
        assert_eq!(spans, vec![(0.0, 2.0), (5.0, 7.0)]);
        assert_eq!(dashes(&line, &[]).len(), 1);
    }
}
