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
use vedette_draw::labels::{LabelBox, LabelLayout, PlacedLabel, layout_labels_around};
use vedette_draw::style::resolve;
use vedette_draw::{Height, LayerId, LegendEntry, Mark, Projection, Scene, Shape};
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

/// A scan report (`vedette scan --report R.json`) read once: the camera models and the
/// issues it recorded, for a picture over a photo it was scanned from.
#[derive(Debug, Clone)]
pub struct SavedScanReport {
    origin: String,
    text: String,
}

impl SavedScanReport {
    /// Reads the report at `path` (its contents are checked by what is asked of it).
    pub fn load(path: &Path) -> Result<Self, VisionError> {
        Ok(Self { origin: path.display().to_string(), text: read_text(path)? })
    }

    /// The camera model and base-top height the report recorded for `photo` (for a
    /// report of several photos, the entry of the photo with the same file name).
    pub fn camera(&self, photo: &Path) -> Result<(CameraModel, f64), VisionError> {
        camera_of(&self.origin, &self.text, photo)
    }

    /// The roster units the report names that have no base on `table` (issue 37), in
    /// the order the report names them: each with the places it was held back from
    /// (`missing-unit` with places; of a report of several photos, the places `photo`'s
    /// scan gave, else the first photo's that gave any), or none when the photo showed
    /// it nowhere (`missing-unit` without places, a unit none of whose `missing-tag`s
    /// was read). A unit placed by a correction since is on the table and left out.
    /// Issues of kinds this version does not know are skipped.
    pub fn unplaced(
        &self,
        photo: &Path,
        table: &vedette_geometry::Table,
    ) -> Result<Vec<vedette_draw::Unplaced>, VisionError> {
        unplaced_of(&self.origin, &self.text, photo, table)
    }
}

/// The camera model and base-top height that a scan report (`vedette scan --report
/// R.json`) recorded for `photo` ([`SavedScanReport::camera`]).
pub fn load_scan_camera(path: &Path, photo: &Path) -> Result<(CameraModel, f64), VisionError> {
    SavedScanReport::load(path)?.camera(photo)
}

fn camera_of(origin: &str, text: &str, photo: &Path) -> Result<(CameraModel, f64), VisionError> {
    let bad = |field: &str, reason: String| VisionError::InvalidField {
        path: origin.to_string(),
        field: field.to_string(),
        reason,
    };
    let file: ReportFile = serde_json::from_str(text).map_err(|e| {
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
    Ok((CameraModel::from_parameters(&c.model_parameters, origin)?, c.base_top_mm))
}

/// The issues of a scan report: one photo's (`vedette/scan-report/1`), or of a report of
/// several photos, each photo's in turn.
#[derive(Deserialize)]
struct ReportIssues {
    #[serde(default)]
    issues: Vec<serde_json::Value>,
    #[serde(default)]
    photos: Vec<PhotoIssues>,
}

#[derive(Deserialize)]
struct PhotoIssues {
    photo: String,
    #[serde(default)]
    issues: Vec<serde_json::Value>,
}

fn unplaced_of(
    origin: &str,
    text: &str,
    photo: &Path,
    table: &vedette_geometry::Table,
) -> Result<Vec<vedette_draw::Unplaced>, VisionError> {
    use crate::scan::ScanIssue;
    let file: ReportIssues = serde_json::from_str(text).map_err(|e| VisionError::InvalidField {
        path: origin.to_string(),
        field: "issues".to_string(),
        reason: format!("not a scan report ({e}); write one with vedette scan --report"),
    })?;
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    let mut lists: Vec<&[serde_json::Value]> = vec![&file.issues];
    // The painted photo's issues first: its places are where the picture shows them.
    let (own, others): (Vec<&PhotoIssues>, Vec<&PhotoIssues>) =
        file.photos.iter().partition(|p| name(Path::new(&p.photo)) == name(photo));
    lists.extend(own.iter().chain(&others).map(|p| p.issues.as_slice()));
    let on_table = |unit: &str| table.units.iter().any(|u| u.id == unit && !u.bases.is_empty());
    let mut out: Vec<vedette_draw::Unplaced> = Vec::new();
    for issue in lists.into_iter().flatten() {
        let Ok(issue) = serde_json::from_value::<ScanIssue>(issue.clone()) else { continue };
        let (unit, places) = match issue {
            ScanIssue::MissingUnit { unit, places, .. } => (unit, places),
            ScanIssue::MissingTag { unit, .. } => (unit, Vec::new()),
            _ => continue,
        };
        if on_table(&unit) {
            continue;
        }
        match out.iter_mut().find(|u| u.unit == unit) {
            Some(u) if u.places.is_empty() => u.places = places,
            Some(_) => {}
            None => out.push(vedette_draw::Unplaced { unit, places }),
        }
    }
    Ok(out)
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
pub(crate) fn ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '§' => out.push('S'),
            '½' => out.push_str(" 1/2"),
            '°' => out.push_str(" deg"),
            '→' => out.push_str("->"),
            '·' => out.push('|'),
            '±' => out.push('+'),
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

    /// Writes a label, black on a white halo. The Hershey font has no `±`: it is written
    /// as a `+` with a bar under it.
    fn text(&mut self, text: &str, l: &PlacedLabel) -> Result<(), VisionError> {
        let plus_minus: Vec<usize> = text
            .chars()
            .scan(0usize, |at, c| Some((c, std::mem::replace(at, *at + ascii(&c.to_string()).len()))))
            .filter(|(c, _)| *c == '±')
            .map(|(_, at)| at)
            .collect();
        let text = ascii(text);
        let text = text.as_str();
        let (scale, thick, width) = Self::font(text, l.size)?;
        let x = match l.anchor {
            "middle" => l.x - f64::from(width) / 2.0,
            "end" => l.x - f64::from(width),
            _ => l.x,
        };
        let at = Point::new(x.round() as i32, l.y.round() as i32);
        let mut bars = Vec::new();
        for &i in &plus_minus {
            let mut base = 0;
            let before =
                imgproc::get_text_size(&text[..i], imgproc::FONT_HERSHEY_SIMPLEX, 1.0, thick, &mut base)?;
            let plus = imgproc::get_text_size("+", imgproc::FONT_HERSHEY_SIMPLEX, 1.0, thick, &mut base)?;
            let (x0, w) = (x + f64::from(before.width) * scale, f64::from(plus.width) * scale);
            // Hershey's '+' stands on the baseline: the bar goes just under it.
            let y = l.y + 0.12 * l.size;
            bars.push((
                Point::new((x0 + 0.2 * w).round() as i32, y.round() as i32),
                Point::new((x0 + 0.8 * w).round() as i32, y.round() as i32),
            ));
        }
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
            for &(a, b) in &bars {
                imgproc::line(&mut self.img, a, b, c, t, imgproc::LINE_AA, 0)?;
            }
        }
        Ok(())
    }

    /// A filled dot of `size` px radius in the colour of `class`.
    fn dot(&mut self, c: Vec2, size: f64, class: &str) -> Result<(), VisionError> {
        let s = resolve(class);
        let col = s.fill.or(s.stroke).map_or(Scalar::new(0.0, 0.0, 0.0, 0.0), |(c, _)| colour(c));
        imgproc::circle(
            &mut self.img,
            Point::new(c.x.round() as i32, c.y.round() as i32),
            size.round().max(2.0) as i32,
            col,
            -1,
            imgproc::LINE_AA,
            0,
        )?;
        Ok(())
    }

    /// A leader line from a label's anchor to its box: black on a white halo, thin.
    fn leader(&mut self, from: Vec2, to: Vec2, upm: f64) -> Result<(), VisionError> {
        let t = (0.25 * upm).round().max(1.0) as i32;
        let (a, b) = (
            Point::new(from.x.round() as i32, from.y.round() as i32),
            Point::new(to.x.round() as i32, to.y.round() as i32),
        );
        imgproc::line(
            &mut self.img,
            a,
            b,
            Scalar::new(255.0, 255.0, 255.0, 0.0),
            3 * t,
            imgproc::LINE_AA,
            0,
        )?;
        imgproc::line(&mut self.img, a, b, Scalar::new(0.0, 0.0, 0.0, 0.0), t, imgproc::LINE_AA, 0)?;
        imgproc::circle(&mut self.img, a, 2 * t, Scalar::new(0.0, 0.0, 0.0, 0.0), -1, imgproc::LINE_AA, 0)?;
        Ok(())
    }

    /// A label left out, numbered at its anchor: the number on a small white disc.
    fn number(&mut self, n: usize, at: Vec2, upm: f64) -> Result<(), VisionError> {
        let size = 4.0 * upm;
        let text = n.to_string();
        let r = (0.5 * vedette_draw::labels::text_width(&text, size)).max(0.5 * size) + 0.6 * upm;
        let c = Point::new(at.x.round() as i32, at.y.round() as i32);
        imgproc::circle(
            &mut self.img,
            c,
            r.round() as i32,
            Scalar::new(255.0, 255.0, 255.0, 0.0),
            -1,
            imgproc::LINE_AA,
            0,
        )?;
        imgproc::circle(
            &mut self.img,
            c,
            r.round() as i32,
            Scalar::new(0.0, 0.0, 0.0, 0.0),
            1,
            imgproc::LINE_AA,
            0,
        )?;
        self.text(&text, &PlacedLabel { x: at.x, y: at.y + 0.35 * size, anchor: "middle", size })
    }

    /// The labels left out, numbered as at their anchors, in a white box at `origin`,
    /// flowed down `columns` equal columns.
    fn notes(
        &mut self,
        notes: &[(usize, String, Vec2)],
        columns: usize,
        origin: Vec2,
        box_size: (f64, f64),
        upm: f64,
    ) -> Result<(), VisionError> {
        let (size, row) = (5.0 * upm, 8.0 * upm);
        self.white_box(origin, box_size)?;
        let columns = columns.max(1);
        let per_column = notes.len().div_ceil(columns).max(1);
        let column_width = (box_size.0 - 2.0 * upm) / columns as f64;
        let x = |c: usize| origin.x + 2.0 * upm + column_width * c as f64;
        let line = |i: usize| origin.y + row * (i as f64 + 0.5) + row / 2.0 + 0.35 * size;
        self.text(NOTES_TITLE, &PlacedLabel { x: x(0), y: line(0), anchor: "start", size })?;
        for (i, (n, t, _)) in notes.iter().enumerate() {
            let at = PlacedLabel { x: x(i / per_column), y: line(i % per_column + 1), anchor: "start", size };
            self.text(&format!("{n}  {t}"), &at)?;
        }
        Ok(())
    }

    /// A white box at `origin` of `size` px.
    fn white_box(&mut self, origin: Vec2, size: (f64, f64)) -> Result<(), VisionError> {
        imgproc::rectangle(
            &mut self.img,
            opencv::core::Rect::new(origin.x as i32, origin.y as i32, size.0 as i32, size.1 as i32),
            Scalar::new(255.0, 255.0, 255.0, 0.0),
            -1,
            imgproc::LINE_8,
            0,
        )?;
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
///
/// Every label is written after all the geometry, so that no later layer's line crosses
/// a label; labels pushed off their anchor are joined to it by a leader line; labels
/// with no free place (they would overprint others) are numbered at their anchor and
/// written out in a notes box. The legend goes in the photo's corner that covers the
/// least of the table, and no label goes under it or under the notes.
pub fn paint_scene(
    photo: &Mat,
    scene: &Scene,
    proj: &dyn Projection,
    text_scale: f64,
) -> Result<Mat, VisionError> {
    let upm = proj.units_per_mm() * text_scale;
    let PictureLayout {
        legend: legend_box,
        notes: notes_box,
        notes_columns,
        notes_text: notes,
        labels: layout,
    } = picture_layout(scene, proj, text_scale);
    let mut p = Painter { img: photo.try_clone()?, proj, line_scale: text_scale.sqrt() };
    let mut texts: Vec<(usize, usize, &str)> = Vec::new();
    for (li, layer) in scene.layers().iter().enumerate() {
        // Fills first, then strokes and marks, layer by layer; text after every layer.
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
                    let size = 1.5 * upm;
                    match mark {
                        Mark::Dot => p.dot(c, size, &e.class)?,
                        Mark::Cross => {
                            let d = 1.5 * size;
                            p.stroke(&[c + Vec2::new(-d, -d), c + Vec2::new(d, d)], false, &e.class)?;
                            p.stroke(&[c + Vec2::new(-d, d), c + Vec2::new(d, -d)], false, &e.class)?;
                        }
                    }
                }
                Shape::Text { text, .. } => texts.push((li, ei, text.as_str())),
                Shape::Polygon { .. } | Shape::Circle { .. } => {}
            }
        }
    }
    // Numbers of the labels left out, leaders, then the labels over both.
    if notes_box.is_some() {
        for (n, _, a) in &notes {
            p.number(*n, *a, upm)?;
        }
    }
    for &(li, ei, _) in &texts {
        if let Some(&(a, near)) = layout.leaders.get(&(li, ei)) {
            p.leader(a, near, upm)?;
        }
    }
    for &(li, ei, text) in &texts {
        if let Some(l) = layout.placed.get(&(li, ei)) {
            p.text(text, l)?;
        }
    }
    if let Some(b) = notes_box {
        p.notes(&notes, notes_columns, Vec2::new(b.x0, b.y0), (b.x1 - b.x0, b.y1 - b.y0), upm)?;
    }
    if let Some(b) = legend_box {
        legend(&mut p, scene.legend_entries(), Vec2::new(b.x0, b.y0), upm)?;
    }
    Ok(p.img)
}

/// Where a picture's labels, legend and notes go ([`picture_layout`]).
#[derive(Debug, Clone)]
pub struct PictureLayout {
    /// The legend's box, when the scene has a legend.
    pub legend: Option<LabelBox>,
    /// The notes' box, when some labels found no free place.
    pub notes: Option<LabelBox>,
    /// How many columns the notes are flowed into.
    pub notes_columns: usize,
    /// The labels with no free place: their number, text and anchor (output units).
    pub notes_text: Vec<(usize, String, Vec2)>,
    /// Where every other label goes.
    pub labels: LabelLayout,
}

/// Lays out a picture's labels, legend and notes (see [`paint_scene`]).
#[must_use]
pub fn picture_layout(scene: &Scene, proj: &dyn Projection, text_scale: f64) -> PictureLayout {
    let upm = proj.units_per_mm() * text_scale;
    let (w, h) = proj.output_size();
    let table = Content::of(scene, proj);
    let legend_size = legend_size(scene.legend_entries(), upm);
    let legend_at = (legend_size.1 > 0.0).then(|| corners_by_cover(legend_size, (w, h), upm, &table)[0]);
    let legend = legend_at.map(|o| boxed(o, legend_size));
    let reserved: Vec<LabelBox> = legend.into_iter().collect();
    let mut labels = layout_labels_around(scene, proj, text_scale, &reserved);
    let mut notes = None;
    let mut columns = 1;
    // The notes for labels with no free place go in the next best corner clear of the
    // legend, sized for them and flowed into as many columns as cover the least of the
    // table; the labels are laid out again around both, which may leave out a few more:
    // the box grows for them (a few rounds at most).
    let mut room_for = 0;
    for _ in 0..4 {
        let left_out = noted(scene, &labels).count();
        if left_out <= room_for {
            break;
        }
        room_for = left_out + 2;
        let Some((b, cols)) = notes_place(room_for, &labels, scene, upm, (w, h), &table, legend) else {
            break;
        };
        notes = Some(b);
        columns = cols;
        let mut with_notes = reserved.clone();
        with_notes.push(b);
        labels = layout_labels_around(scene, proj, text_scale, &with_notes);
    }
    let mut hidden: Vec<(&(usize, usize), &Vec2)> = noted(scene, &labels).collect();
    hidden.sort_by_key(|(k, _)| **k);
    let notes_text: Vec<(usize, String, Vec2)> = hidden
        .into_iter()
        .enumerate()
        .filter_map(|(i, (&(li, ei), &a))| match &scene.layers()[li].elements[ei].shape {
            Shape::Text { text, .. } => Some((i + 1, text.clone(), a)),
            _ => None,
        })
        .collect();
    if notes_text.is_empty() {
        notes = None;
    }
    // A label left out in the last round may be longer than those the box was sized for:
    // the box grows away from its corner.
    if let Some(b) = &mut notes {
        let (nw, nh) = notes_size_for(notes_text.len(), columns, &labels, scene, upm);
        let (right, bottom) = (b.x0 > w / 2.0, b.y0 > h / 2.0);
        if nw > b.x1 - b.x0 {
            if right { b.x0 = b.x1 - nw } else { b.x1 = b.x0 + nw }
        }
        if nh > b.y1 - b.y0 {
            if bottom { b.y0 = b.y1 - nh } else { b.y1 = b.y0 + nh }
        }
    }
    PictureLayout { legend, notes, notes_columns: columns, notes_text, labels }
}

/// The labels with no free place that go in the notes, with their anchors: the verdicts
/// ([`LayerId::holds_names`]: a name with no free place is left off, the photo showing
/// the piece itself).
fn noted<'a>(
    scene: &'a Scene,
    labels: &'a LabelLayout,
) -> impl Iterator<Item = (&'a (usize, usize), &'a Vec2)> + 'a {
    labels
        .hidden
        .iter()
        .filter(move |((li, _), _)| scene.layers().get(*li).is_some_and(|l| !l.id.holds_names()))
}

/// The most columns the notes are flowed into.
const MAX_NOTE_COLUMNS: usize = 6;

/// Where the notes for `rows` labels go, and in how many columns: of every column count
/// up to [`MAX_NOTE_COLUMNS`] and every corner clear of the legend, the box that fits in
/// the picture, then covers the least of the table, then holds the fewest drawn points,
/// then has the fewest columns.
fn notes_place(
    rows: usize,
    labels: &LabelLayout,
    scene: &Scene,
    upm: f64,
    picture: (f64, f64),
    content: &Content,
    legend: Option<LabelBox>,
) -> Option<(LabelBox, usize)> {
    (1..=MAX_NOTE_COLUMNS.min(rows.max(1)))
        .filter_map(|cols| {
            let size = notes_size_for(rows, cols, labels, scene, upm);
            corners_by_cover(size, picture, upm, content)
                .into_iter()
                .map(|o| boxed(o, size))
                .find(|b| legend.is_none_or(|l| !b.overlaps(&l)))
                .map(|b| {
                    let (points, table) = content.under(b);
                    let outside = b.x0 < 0.0 || b.y0 < 0.0 || b.x1 > picture.0 || b.y1 > picture.1;
                    ((outside, table, points, cols), b, cols)
                })
        })
        .min_by_key(|(key, _, _)| *key)
        .map(|(_, b, cols)| (b, cols))
}

/// The table's outline in the picture: its bounds' corners projected onto the table.
fn table_quad(scene: &Scene, proj: &dyn Projection) -> Vec<Vec2> {
    let Some((lo, hi)) = scene.bounds() else { return Vec::new() };
    let corners = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
    proj.project_all(&corners, vedette_draw::Height::Table).unwrap_or_default()
}

/// A box at `origin` of `size` (output units).
fn boxed(origin: Vec2, size: (f64, f64)) -> LabelBox {
    LabelBox { x0: origin.x, y0: origin.y, x1: origin.x + size.0, y1: origin.y + size.1 }
}

/// What a picture shows, in output units: every point of every element but the table's
/// outline (vertices, marks, label anchors), and the table's outline.
struct Content {
    points: Vec<Vec2>,
    table: Vec<Vec2>,
}

impl Content {
    fn of(scene: &Scene, proj: &dyn Projection) -> Content {
        let mut points = Vec::new();
        for layer in scene.layers().iter().filter(|l| !matches!(l.id, LayerId::Table | LayerId::Legend)) {
            for e in &layer.elements {
                let pts: Vec<Vec2> = e.shape.points().collect();
                points.extend(proj.project_all(&pts, e.height).unwrap_or_default());
            }
        }
        Content { points, table: table_quad(scene, proj) }
    }

    /// How much of `b` the picture's content fills: the points in it, then how much of
    /// the table it covers.
    fn under(&self, b: LabelBox) -> (usize, usize) {
        let inside = |p: &&Vec2| p.x >= b.x0 && p.x <= b.x1 && p.y >= b.y0 && p.y <= b.y1;
        (self.points.iter().filter(inside).count(), cover(b, &self.table))
    }
}

/// The picture's four corners for a box of `size`, a margin in, those over the least of
/// the picture's content first, then over the least of the table (top-left, top-right,
/// bottom-left, bottom-right among equals).
fn corners_by_cover(size: (f64, f64), (w, h): (f64, f64), upm: f64, content: &Content) -> Vec<Vec2> {
    let m = 2.0 * upm;
    let (x1, y1) = ((w - size.0 - m).max(0.0), (h - size.1 - m).max(0.0));
    let mut c: Vec<((usize, usize), usize, Vec2)> =
        [Vec2::new(m, m), Vec2::new(x1, m), Vec2::new(m, y1), Vec2::new(x1, y1)]
            .into_iter()
            .enumerate()
            .map(|(i, o)| (content.under(boxed(o, size)), i, o))
            .collect();
    c.sort_by_key(|&(n, i, _)| (n, i));
    c.into_iter().map(|(_, _, o)| o).collect()
}

/// How much of `b` lies over the table: of a 16 x 16 grid of points in it, how many fall
/// inside the table's outline.
fn cover(b: LabelBox, table: &[Vec2]) -> usize {
    if table.len() < 3 {
        return 0;
    }
    let n = 16;
    (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter(|&(i, j)| {
            let q = Vec2::new(
                b.x0 + (b.x1 - b.x0) * (i as f64 + 0.5) / n as f64,
                b.y0 + (b.y1 - b.y0) * (j as f64 + 0.5) / n as f64,
            );
            vedette_geometry::ring_contains(table, q)
        })
        .count()
}

/// The legend's size: a row per entry, a swatch and its text.
fn legend_size(entries: &[LegendEntry], upm: f64) -> (f64, f64) {
    if entries.is_empty() {
        return (0.0, 0.0);
    }
    let (size, row, sw) = (5.0 * upm, 8.0 * upm, 10.0 * upm);
    let width = entries.iter().map(|e| vedette_draw::labels::text_width(&e.text, size)).fold(0.0, f64::max)
        + sw
        + 6.0 * upm;
    (width, row * (entries.len() as f64 + 0.5))
}

/// The notes' size for `rows` labels left out (a row each, its number and its text) in
/// `columns` columns, each as wide as the longest text of any label that may be left
/// out (`labels`' hidden ones, or any of the scene's when some are placed that a smaller
/// box might not leave).
fn notes_size_for(rows: usize, columns: usize, labels: &LabelLayout, scene: &Scene, upm: f64) -> (f64, f64) {
    let (size, row) = (5.0 * upm, 8.0 * upm);
    let number = vedette_draw::labels::text_width(&format!("{rows}  "), size);
    let longest = noted(scene, labels)
        .filter_map(|(&(li, ei), _)| match &scene.layers()[li].elements[ei].shape {
            Shape::Text { text, .. } => Some(vedette_draw::labels::text_width(text, size)),
            _ => None,
        })
        .fold(0.0, f64::max);
    let columns = columns.max(1);
    let column = number + longest + 4.0 * upm;
    let width =
        (column * columns as f64).max(vedette_draw::labels::text_width(NOTES_TITLE, size) + 4.0 * upm);
    (width, row * (rows.div_ceil(columns) as f64 + 1.5))
}

/// The title of the notes box.
const NOTES_TITLE: &str = "Labels with no room on the picture:";

/// The legend at `origin`, on a white box.
fn legend(p: &mut Painter<'_>, entries: &[LegendEntry], origin: Vec2, upm: f64) -> Result<(), VisionError> {
    if entries.is_empty() {
        return Ok(());
    }
    let (width, height) = legend_size(entries, upm);
    let (size, row, sw) = (5.0 * upm, 8.0 * upm, 10.0 * upm);
    p.white_box(origin, (width, height))?;
    for (i, e) in entries.iter().enumerate() {
        let y = origin.y + row * (i as f64 + 0.5);
        let x = origin.x + 2.0 * upm;
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

    /// A scene of the table 600..1200 x 400..800 mm, with a legend entry.
    fn crowd_table() -> Scene {
        let mut scene = Scene::new("crowd");
        let table = vec![
            Vec2::new(600.0, 400.0),
            Vec2::new(1200.0, 400.0),
            Vec2::new(1200.0, 800.0),
            Vec2::new(600.0, 800.0),
        ];
        scene.add(LayerId::Table, "table", "table-edge", Shape::polygon(table), Height::Table, None);
        scene.legend("side-fr", "side: france", false);
        scene
    }

    #[test]
    fn crowded_labels_go_to_numbered_notes_clear_of_the_legend() {
        // The camera sees table x 500..1300, y 300..900 at 1 px per mm; the table
        // (600..1200 x 400..800) leaves every corner of the photo free: the legend goes
        // top-left, the notes top-right (the first corners in order). Seventy labels on
        // one anchor: the placer has at most 61 places there (centred, then 5 rings of 12), so
        // some are left out, numbered in the notes, and none of the written ones lies
        // under the legend or the notes.
        let mut scene = crowd_table();
        for i in 0..70 {
            let label = Shape::label(Vec2::new(900.0, 600.0), format!("label {i:02} ± 0.1 mm"), 5.0);
            scene.add(LayerId::Contacts, &format!("l{i}"), "verdict", label, Height::Table, None);
        }
        let proj = PhotoProjection::new(camera(), 3.0, Vec2::new(900.0, 600.0));
        let layout = picture_layout(&scene, &proj, 1.0);
        let (legend, notes) = (layout.legend.unwrap(), layout.notes.unwrap());
        assert!(legend.x0 < 10.0 && legend.y0 < 10.0, "{legend:?}");
        assert!(notes.x1 > 790.0 && notes.y0 < 10.0, "{notes:?}");
        assert!(!legend.overlaps(&notes));
        let left_out = layout.labels.hidden.len();
        assert!(left_out >= 9, "{left_out}");
        assert_eq!(layout.labels.placed.len() + left_out, 70);
        let numbers: Vec<usize> = layout.notes_text.iter().map(|(n, _, _)| *n).collect();
        assert_eq!(numbers, (1..=left_out).collect::<Vec<_>>());
        for ((li, ei), l) in &layout.labels.placed {
            let Shape::Text { text, .. } = &scene.layers()[*li].elements[*ei].shape else { panic!() };
            let w = vedette_draw::labels::text_width(text, l.size);
            let b = LabelBox { x0: l.x, y0: l.y - 0.78 * l.size, x1: l.x + w, y1: l.y + 0.22 * l.size };
            assert!(!b.overlaps(&legend) && !b.overlaps(&notes), "{text} at {b:?}");
        }
        // Painted on a black photo: the notes box is white where no text is.
        let photo = Mat::new_rows_cols_with_default(600, 800, CV_8UC3, Scalar::all(0.0)).unwrap();
        let img = paint_scene(&photo, &scene, &proj, 1.0).unwrap();
        let px = img.at_2d::<Vec3b>((notes.y1 - 2.0) as i32, (notes.x1 - 2.0) as i32).unwrap();
        assert_eq!(*px, Vec3b::from([255, 255, 255]));
    }

    #[test]
    fn names_with_no_room_are_left_off_and_many_notes_flow_into_columns_off_the_table() {
        // The same photo and table as above (the table covers 100..700 x 100..500 px of
        // the 800 x 600 photo). 150 verdicts on one anchor: one column of notes would be
        // over 600 px tall and run off the photo; the notes flow into columns that fit in
        // it and cover none of the table. 20 unit ids on the same anchor (placed last) find no room: they are
        // neither numbered nor listed.
        let mut scene = crowd_table();
        for i in 0..150 {
            let label = Shape::label(Vec2::new(900.0, 600.0), format!("v{i:03}"), 5.0);
            scene.add(LayerId::Contacts, &format!("v{i}"), "verdict", label, Height::Table, None);
        }
        for i in 0..20 {
            let label = Shape::label(Vec2::new(900.0, 600.0), format!("unit-{i:02}"), 5.0);
            scene.add(LayerId::Bases, &format!("u{i}"), "unit-label", label, Height::Table, None);
        }
        let proj = PhotoProjection::new(camera(), 3.0, Vec2::new(900.0, 600.0));
        let layout = picture_layout(&scene, &proj, 1.0);
        let notes = layout.notes.unwrap();
        assert!(layout.notes_text.iter().all(|(_, t, _)| t.starts_with('v')), "names are not noted");
        let noted = layout.notes_text.len();
        assert!(noted >= 80, "{noted}");
        assert!(layout.notes_columns > 1, "{layout:?}");
        let quad = table_quad(&scene, &proj);
        let one_column = notes_size_for(noted, 1, &layout.labels, &scene, proj.units_per_mm());
        assert!(one_column.1 > 600.0, "one column would not fit: {one_column:?}");
        assert!(notes.x0 >= 0.0 && notes.y0 >= 0.0 && notes.x1 <= 800.0 && notes.y1 <= 600.0, "{notes:?}");
        assert_eq!(cover(notes, &quad), 0, "{notes:?}");
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
