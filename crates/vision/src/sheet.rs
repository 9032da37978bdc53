//! Print-ready sheets: the table fiducials and the base tags at exact physical size, on
//! A4 pages, as 300 dpi PNG (with its resolution recorded in the file) and as SVG in
//! millimetres. Every page carries a 100 mm ruler with millimetre ticks: measure it on
//! the print to check that the printer did not scale the page.

use crate::dictionary::Dictionary;
use crate::error::VisionError;
use crate::profile::Profile;
use opencv::core::{CV_8UC1, Mat, MatTraitConst, MatTraitConstManual, MatTraitManual, Point, Scalar};

/// Resolution of the PNG pages, dots per inch.
pub const DPI: f64 = 300.0;
/// A4 portrait, mm.
pub const PAGE_MM: (f64, f64) = (210.0, 297.0);
/// Page margin, mm.
const MARGIN_MM: f64 = 12.0;
/// Length of the printed ruler, mm.
pub const RULER_MM: f64 = 100.0;

/// Millimetres to pixels at [`DPI`].
#[must_use]
pub fn mm_to_px(mm: f64) -> f64 {
    mm * DPI / 25.4
}

/// Something drawn on a page, in mm from the page's top-left corner.
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    /// A filled black rectangle.
    Rect { x: f64, y: f64, w: f64, h: f64 },
    /// A thin grey outline (cut guide).
    Outline { x: f64, y: f64, w: f64, h: f64 },
    /// Text with its baseline at `y`.
    Text { x: f64, y: f64, size: f64, text: String },
}

/// One page of a sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// File stem, e.g. `fiducials-1`.
    pub name: String,
    shapes: Vec<Shape>,
}

/// A rendered page: PNG and SVG bytes.
#[derive(Debug, Clone)]
pub struct RenderedPage {
    /// File stem, e.g. `tags-2`.
    pub name: String,
    /// The page as PNG at [`DPI`].
    pub png: Vec<u8>,
    /// The page as SVG, in millimetres.
    pub svg: String,
}

impl Page {
    pub(crate) fn new(name: String, title: &str) -> Page {
        let mut p = Page { name, shapes: Vec::new() };
        p.text(MARGIN_MM, MARGIN_MM, 4.0, title);
        p.text(
            MARGIN_MM,
            MARGIN_MM + 5.5,
            2.8,
            "Print at 100% (actual size, no 'fit to page'). The ruler below must measure exactly 100 mm.",
        );
        p.ruler(MARGIN_MM, PAGE_MM.1 - MARGIN_MM - 10.0);
        p
    }

    pub(crate) fn text(&mut self, x: f64, y: f64, size: f64, text: &str) {
        self.shapes.push(Shape::Text { x, y, size, text: text.to_string() });
    }

    /// A 100 mm ruler: a baseline, a tick every mm, longer every 5 and 10 mm, numbered
    /// every 10 mm; its left end at (x, y).
    fn ruler(&mut self, x: f64, y: f64) {
        let line = 0.2;
        self.shapes.push(Shape::Rect { x, y: y + 6.0 - line, w: RULER_MM, h: line });
        for mm in 0..=(RULER_MM as i32) {
            let len = if mm % 10 == 0 {
                6.0
            } else if mm % 5 == 0 {
                4.0
            } else {
                2.5
            };
            // Ticks are centred on their millimetre.
            self.shapes.push(Shape::Rect {
                x: x + f64::from(mm) - line / 2.0,
                y: y + 6.0 - len,
                w: line,
                h: len,
            });
            if mm % 10 == 0 {
                self.text(x + f64::from(mm) - 1.0, y + 10.0, 2.5, &mm.to_string());
            }
        }
        self.text(x + RULER_MM + 4.0, y + 6.0, 3.0, "100 mm");
    }

    /// A marker with its black square's top-left at (x, y), `side` mm, and a cut
    /// outline `quiet` mm outside it.
    pub(crate) fn marker(
        &mut self,
        dict: Dictionary,
        id: u32,
        x: f64,
        y: f64,
        side: f64,
        quiet: f64,
    ) -> Result<(), VisionError> {
        let cells = dict.cells(id)?;
        let n = cells.len() as f64;
        let cell = side / n;
        for (r, row) in cells.iter().enumerate() {
            // Merge runs of black cells in a row into one rectangle: fewer SVG elements
            // and no hairline seams between cells in viewers.
            let mut c = 0;
            while c < row.len() {
                if row[c] {
                    c += 1;
                    continue;
                }
                let start = c;
                while c < row.len() && !row[c] {
                    c += 1;
                }
                self.shapes.push(Shape::Rect {
                    x: x + start as f64 * cell,
                    y: y + r as f64 * cell,
                    w: (c - start) as f64 * cell,
                    h: cell,
                });
            }
        }
        self.shapes.push(Shape::Outline {
            x: x - quiet,
            y: y - quiet,
            w: side + 2.0 * quiet,
            h: side + 2.0 * quiet,
        });
        Ok(())
    }

    /// Renders the page.
    pub fn render(&self) -> Result<RenderedPage, VisionError> {
        Ok(RenderedPage { name: self.name.clone(), png: self.png()?, svg: self.svg() })
    }

    fn png(&self) -> Result<Vec<u8>, VisionError> {
        let w = mm_to_px(PAGE_MM.0).round() as usize;
        let h = mm_to_px(PAGE_MM.1).round() as usize;
        // Ink coverage per pixel, exact for axis-aligned rectangles: edges that fall
        // between pixels print grey in proportion, so sizes are exact at any dpi.
        let mut ink = vec![0f32; w * h];
        let mut outline = vec![0f32; w * h];
        let fill = |buf: &mut Vec<f32>, x: f64, y: f64, rw: f64, rh: f64| {
            let (x0, x1) = (mm_to_px(x), mm_to_px(x + rw));
            let (y0, y1) = (mm_to_px(y), mm_to_px(y + rh));
            let overlap = |a0: f64, a1: f64, i: usize| (a1.min(i as f64 + 1.0) - a0.max(i as f64)).max(0.0);
            let (i0, i1) = ((x0.floor().max(0.0)) as usize, (x1.ceil().min(w as f64)) as usize);
            let (j0, j1) = ((y0.floor().max(0.0)) as usize, (y1.ceil().min(h as f64)) as usize);
            for j in j0..j1 {
                let cy = overlap(y0, y1, j);
                for i in i0..i1 {
                    buf[j * w + i] += (cy * overlap(x0, x1, i)) as f32;
                }
            }
        };
        for s in &self.shapes {
            match *s {
                Shape::Rect { x, y, w: rw, h: rh } => fill(&mut ink, x, y, rw, rh),
                Shape::Outline { x, y, w: rw, h: rh } => {
                    let t = 0.15;
                    fill(&mut outline, x - t, y - t, rw + 2.0 * t, t);
                    fill(&mut outline, x - t, y + rh, rw + 2.0 * t, t);
                    fill(&mut outline, x - t, y, t, rh);
                    fill(&mut outline, x + rw, y, t, rh);
                }
                Shape::Text { .. } => {}
            }
        }
        let bytes: Vec<u8> = ink
            .iter()
            .zip(&outline)
            .map(|(&k, &o)| {
                let v = 255.0 * (1.0 - k.min(1.0)) - 90.0 * o.min(1.0);
                v.round().clamp(0.0, 255.0) as u8
            })
            .collect();
        let mut img = Mat::new_rows_cols_with_default(h as i32, w as i32, CV_8UC1, Scalar::all(255.0))?;
        img.data_bytes_mut()?.copy_from_slice(&bytes);
        for s in &self.shapes {
            if let Shape::Text { x, y, size, text } = s {
                // Hershey simplex: scale 1 is about 22 px from baseline to cap top.
                let scale = mm_to_px(*size) * 0.72 / 22.0;
                opencv::imgproc::put_text(
                    &mut img,
                    text,
                    Point::new(mm_to_px(*x).round() as i32, mm_to_px(*y).round() as i32),
                    opencv::imgproc::FONT_HERSHEY_SIMPLEX,
                    scale,
                    Scalar::all(0.0),
                    ((scale * 2.0).round() as i32).max(1),
                    opencv::imgproc::LINE_AA,
                    false,
                )?;
            }
        }
        encode_png_dpi(&img)
    }

    fn svg(&self) -> String {
        let mut s = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}mm\" height=\"{h}mm\" viewBox=\"0 0 {w} {h}\">\n<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n",
            w = PAGE_MM.0,
            h = PAGE_MM.1
        );
        for shape in &self.shapes {
            match shape {
                Shape::Rect { x, y, w, h } => s.push_str(&format!(
                    "<rect x=\"{x:.4}\" y=\"{y:.4}\" width=\"{w:.4}\" height=\"{h:.4}\" fill=\"black\" shape-rendering=\"crispEdges\"/>\n"
                )),
                Shape::Outline { x, y, w, h } => s.push_str(&format!(
                    "<rect x=\"{x:.4}\" y=\"{y:.4}\" width=\"{w:.4}\" height=\"{h:.4}\" fill=\"none\" stroke=\"#999\" stroke-width=\"0.15\"/>\n"
                )),
                Shape::Text { x, y, size, text } => s.push_str(&format!(
                    "<text x=\"{x:.3}\" y=\"{y:.3}\" font-family=\"sans-serif\" font-size=\"{size}\">{}</text>\n",
                    xml_escape(text)
                )),
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

fn xml_escape(t: &str) -> String {
    t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Encodes a grey image as PNG with its physical resolution (pHYs) set to [`DPI`].
fn encode_png_dpi(img: &Mat) -> Result<Vec<u8>, VisionError> {
    let size = img.size()?;
    let err = |e: png::EncodingError| VisionError::Encode { what: "sheet PNG".into(), reason: e.to_string() };
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, size.width.max(0) as u32, size.height.max(0) as u32);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let ppm = (DPI / 0.0254).round() as u32;
        enc.set_pixel_dims(Some(png::PixelDimensions { xppu: ppm, yppu: ppm, unit: png::Unit::Meter }));
        let mut writer = enc.write_header().map_err(err)?;
        writer.write_image_data(img.data_bytes()?).map_err(err)?;
        writer.finish().map_err(err)?;
    }
    Ok(out)
}

/// The pages for a profile: its table fiducials (with their quiet zone and id), then
/// the base tags `tag_ids` in a grid, at the profile's tag size, each with its id.
pub fn sheets(profile: &Profile, tag_ids: &[u32]) -> Result<Vec<Page>, VisionError> {
    sheets_sized(profile, &tag_ids.iter().map(|&id| (id, profile.tags.size_mm)).collect::<Vec<_>>())
}

/// As [`sheets`], each tag `(id, side mm)` at its own size (a roster's `tag_mm`): one
/// run of pages per size, smallest first, each page titled with its size.
pub fn sheets_sized(profile: &Profile, tags: &[(u32, f64)]) -> Result<Vec<Page>, VisionError> {
    sheets_sized_with_labels(profile, &tags.iter().map(|&(id, size)| (id, size, None)).collect::<Vec<_>>())
}

/// The width of `text` at `size` mm, about (a sans-serif's mean advance).
fn text_width_mm(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * 0.62 * size
}

/// As [`sheets_sized`], each tag `(id, side mm, label)` labelled under its id with what
/// it goes on where a label is given (`fr-1-2#0`: base 0 of unit fr-1-2, as tables name
/// bases; issue 39).
pub fn sheets_sized_with_labels(
    profile: &Profile,
    tags: &[(u32, f64, Option<String>)],
) -> Result<Vec<Page>, VisionError> {
    let mut pages = Vec::new();
    let usable_w = PAGE_MM.0 - 2.0 * MARGIN_MM;
    let top = MARGIN_MM + 12.0;
    let bottom = PAGE_MM.1 - MARGIN_MM - 16.0;
    let usable_h = bottom - top;

    // Fiducials: quiet zone of a sixth of the side (at least 10 mm), label below.
    let f = &profile.fiducials;
    let quiet = (f.size_mm / 6.0).max(10.0);
    let cell_w = f.size_mm + 2.0 * quiet + 4.0;
    let cell_h = cell_w + 10.0;
    let cols = (usable_w / cell_w).floor() as usize;
    let rows = (usable_h / cell_h).floor() as usize;
    if cols == 0 || rows == 0 {
        return Err(VisionError::InvalidField {
            path: profile.origin.clone(),
            field: "fiducials.size_mm".to_string(),
            reason: format!(
                "a {} mm fiducial with its quiet zone does not fit an A4 page; print it from the SVG at poster size",
                f.size_mm
            ),
        });
    }
    for (k, chunk) in f.markers.chunks(cols * rows).enumerate() {
        let mut page = Page::new(
            format!("fiducials-{}", k + 1),
            &format!(
                "vedette table fiducials: {} {} mm{}",
                f.dictionary,
                f.size_mm,
                profile.name.as_ref().map(|n| format!(" - {n}")).unwrap_or_default()
            ),
        );
        for (i, m) in chunk.iter().enumerate() {
            let x = MARGIN_MM + (i % cols) as f64 * cell_w + quiet;
            let y = top + (i / cols) as f64 * cell_h + quiet;
            page.marker(f.dictionary, m.id, x, y, f.size_mm, quiet)?;
            page.text(
                x - quiet,
                y + f.size_mm + quiet + 4.0,
                3.0,
                &format!("id {} at ({}, {}) mm", m.id, m.x_mm, m.y_mm),
            );
            page.text(
                x - quiet,
                y + f.size_mm + quiet + 7.5,
                2.5,
                &format!("top edge turned {} deg from the far side", m.rotation_deg),
            );
        }
        pages.push(page);
    }

    let mut sizes: Vec<f64> = tags.iter().map(|t| t.1).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    for size in sizes {
        let these: Vec<(u32, Option<String>)> =
            tags.iter().filter(|t| t.1 == size).map(|t| (t.0, t.2.clone())).collect();
        tag_pages(profile, &these, size, &mut pages)?;
    }
    Ok(pages)
}

/// The pages of base tags `(id, label)` of side `size_mm`: one marker cell of quiet
/// zone, a 2 mm gutter for cutting, id (and label) underneath. Pages are numbered on
/// from those already in `pages`.
fn tag_pages(
    profile: &Profile,
    tags: &[(u32, Option<String>)],
    size_mm: f64,
    pages: &mut Vec<Page>,
) -> Result<(), VisionError> {
    let usable_w = PAGE_MM.0 - 2.0 * MARGIN_MM;
    let top = MARGIN_MM + 12.0;
    let bottom = PAGE_MM.1 - MARGIN_MM - 16.0;
    let usable_h = bottom - top;
    let t = &profile.tags;
    if let Some(&(bad, _)) = tags.iter().find(|(id, _)| *id >= t.dictionary.len()) {
        return Err(VisionError::InvalidField {
            path: profile.origin.clone(),
            field: "tags.dictionary".to_string(),
            reason: format!("tag id {bad} is not in {} (ids 0..{})", t.dictionary, t.dictionary.len() - 1),
        });
    }
    let first = pages.iter().filter(|p| p.name.starts_with("tags-")).count();
    let quiet = size_mm / f64::from(t.dictionary.bits() + 2);
    const LABEL_MM: f64 = 1.8;
    let widest =
        tags.iter().filter_map(|(_, l)| l.as_deref()).map(|l| text_width_mm(l, LABEL_MM)).fold(0.0, f64::max);
    let labelled = widest > 0.0;
    let pitch_w = (size_mm + 2.0 * quiet + 2.0).max(widest + 1.5);
    let pitch_h = size_mm + 2.0 * quiet + 2.0 + if labelled { 5.5 } else { 3.0 };
    let cols = (usable_w / pitch_w).floor().max(1.0) as usize;
    let rows = (usable_h / pitch_h).floor().max(1.0) as usize;
    for (k, chunk) in tags.chunks(cols * rows).enumerate() {
        let mut page = Page::new(
            format!("tags-{}", first + k + 1),
            &format!("vedette base tags: {} {} mm (top edge toward the base's front)", t.dictionary, size_mm),
        );
        for (i, (id, label)) in chunk.iter().enumerate() {
            // The tag centred in its cell, whose width the widest label may set.
            let x = MARGIN_MM + (i % cols) as f64 * pitch_w + (pitch_w - size_mm) / 2.0;
            let y = top + (i / cols) as f64 * pitch_h + quiet + 1.0;
            page.marker(t.dictionary, *id, x, y, size_mm, quiet)?;
            let left = MARGIN_MM + (i % cols) as f64 * pitch_w + 0.75;
            match label {
                Some(label) => {
                    page.text(left, y + size_mm + quiet + 2.2, LABEL_MM, label);
                    page.text(left, y + size_mm + quiet + 4.4, 1.5, &format!("tag {id}"));
                }
                None => page.text(x, y + size_mm + quiet + 2.2, 1.8, &id.to_string()),
            }
        }
        pages.push(page);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fiducials::{DetectorSettings, detect_markers};

    fn profile_named(name: &str) -> Profile {
        let path = format!("{}/../../calibration/{name}", env!("CARGO_MANIFEST_DIR"));
        Profile::from_toml_str(&std::fs::read_to_string(path).unwrap(), name).unwrap()
    }

    fn profile() -> Profile {
        profile_named("default.toml")
    }

    #[test]
    fn every_fiducial_of_a_six_fiducial_profile_is_printed_and_read() {
        // calibration/six-fiducials.toml: the corners and the middles of the long edges.
        let p = profile_named("six-fiducials.toml");
        let pages = sheets(&p, &[]).unwrap();
        let mut got: Vec<u32> = Vec::new();
        for page in pages.iter().filter(|pg| pg.name.starts_with("fiducials")) {
            let (img, _) = decode(&page.render().unwrap().png);
            let dict = p.fiducials.dictionary;
            let found = detect_markers(
                &img,
                dict,
                &DetectorSettings::for_marker_side(mm_to_px(p.fiducials.size_mm), dict.bits()),
            )
            .unwrap();
            got.extend(found.iter().map(|m| m.id));
        }
        got.sort_unstable();
        assert_eq!(got, (0..6).collect::<Vec<u32>>());
    }

    fn decode(png_bytes: &[u8]) -> (Mat, Option<png::PixelDimensions>) {
        let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes.to_vec()));
        let reader = decoder.read_info().unwrap();
        let dims = reader.info().pixel_dims;
        let buf = opencv::core::Vector::<u8>::from_slice(png_bytes);
        (opencv::imgcodecs::imdecode(&buf, opencv::imgcodecs::IMREAD_GRAYSCALE).unwrap(), dims)
    }

    #[test]
    fn png_pages_are_a4_at_300_dpi_and_markers_have_their_physical_size() {
        let p = profile();
        let pages = sheets(&p, &(10..40).collect::<Vec<_>>()).unwrap();
        assert_eq!(pages.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["fiducials-1", "tags-1"]);
        for (page, dict, side_mm, ids) in [
            (&pages[0], p.fiducials.dictionary, p.fiducials.size_mm, (0..4).collect::<Vec<u32>>()),
            (&pages[1], p.tags.dictionary, p.tags.size_mm, (10..40).collect()),
        ] {
            let r = page.render().unwrap();
            let (img, dims) = decode(&r.png);
            // A4 at 300 dpi.
            assert_eq!((img.cols(), img.rows()), (2480, 3508));
            let d = dims.unwrap();
            assert_eq!((d.xppu, d.yppu, d.unit), (11811, 11811, png::Unit::Meter));
            assert_reads_at_size(&img, dict, side_mm, &ids);
            assert!(r.svg.contains("width=\"210mm\"") && r.svg.contains("viewBox=\"0 0 210 297\""));
        }
    }

    #[test]
    fn tags_print_at_their_own_sizes() {
        let p = profile();
        let tags: Vec<(u32, f64)> = (10..14).map(|id| (id, if id % 2 == 0 { 10.0 } else { 12.0 })).collect();
        let pages = sheets_sized(&p, &tags).unwrap();
        let names: Vec<&str> = pages.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["fiducials-1", "tags-1", "tags-2"]);
        for (page, side_mm, ids) in [(&pages[1], 10.0, vec![10, 12]), (&pages[2], 12.0, vec![11, 13])] {
            let (img, _) = decode(&page.render().unwrap().png);
            assert_reads_at_size(&img, p.tags.dictionary, side_mm, &ids);
        }
    }

    /// OpenCV reads exactly the markers `ids` on a page, each at its physical size.
    fn assert_reads_at_size(img: &Mat, dict: crate::Dictionary, side_mm: f64, ids: &[u32]) {
        let found =
            detect_markers(img, dict, &DetectorSettings::for_marker_side(mm_to_px(side_mm), dict.bits()))
                .unwrap();
        let mut got: Vec<u32> = found.iter().map(|m| m.id).collect();
        got.sort_unstable();
        assert_eq!(got, ids);
        for m in &found {
            let want = mm_to_px(side_mm);
            assert!((m.side_px() - want).abs() < 0.5, "id {} side {} px, want {want}", m.id, m.side_px());
        }
    }

    #[test]
    fn the_ruler_is_100_mm_long() {
        let page = &sheets(&profile(), &[10]).unwrap()[0];
        let (img, _) = decode(&page.render().unwrap().png);
        // A row through the long ticks only (1 mm above the baseline, below the short
        // ticks' tops): the centres of dark runs are the 0, 10, ... 100 mm ticks.
        let y = mm_to_px(PAGE_MM.1 - MARGIN_MM - 10.0 + 6.0 - 5.0).round() as i32;
        let row: Vec<f64> = (0..img.cols()).map(|x| f64::from(*img.at_2d::<u8>(y, x).unwrap())).collect();
        let mut centres = Vec::new();
        let mut x = 0;
        while x < row.len() {
            if row[x] < 200.0 {
                let (mut m, mut s) = (0.0, 0.0);
                while x < row.len() && row[x] < 250.0 {
                    let w = 255.0 - row[x];
                    m += w * x as f64;
                    s += w;
                    x += 1;
                }
                centres.push(m / s);
            }
            x += 1;
        }
        assert_eq!(centres.len(), 11, "{centres:?}");
        let length = centres[10] - centres[0];
        assert!((length - mm_to_px(100.0)).abs() < 0.5, "{length} px");
    }

    #[test]
    fn roster_tags_are_labelled_with_their_base_and_still_read_at_size() {
        let p = profile();
        let size = p.tags.size_mm;
        let tags =
            vec![(10, size, Some("fr-0-1-art0#0".to_string())), (11, size, Some("fr-1#1".to_string()))];
        let pages = sheets_sized_with_labels(&p, &tags).unwrap();
        let r = pages[1].render().unwrap();
        for text in [">fr-0-1-art0#0</text>", ">tag 10</text>", ">fr-1#1</text>", ">tag 11</text>"] {
            assert!(r.svg.contains(text), "{text}");
        }
        let (img, _) = decode(&r.png);
        let d = p.tags.dictionary;
        let found =
            detect_markers(&img, d, &DetectorSettings::for_marker_side(mm_to_px(p.tags.size_mm), d.bits()))
                .unwrap();
        assert_eq!(found.iter().map(|m| m.id).collect::<Vec<_>>(), [10, 11]);
        for m in &found {
            assert!((m.side_px() - mm_to_px(p.tags.size_mm)).abs() < 0.5);
        }
        // The cells are as wide as the widest label: the labels do not run into each other.
        let x: Vec<f64> = found.iter().map(|m| m.centre()[0]).collect();
        assert!(mm_to_px(text_width_mm("fr-0-1-art0#0", 1.8)) < (x[1] - x[0]).abs(), "{x:?}");
    }

    #[test]
    fn oversized_fiducials_are_refused() {
        let mut p = profile();
        p.fiducials.size_mm = 300.0;
        let e = sheets(&p, &[]).unwrap_err().to_string();
        assert!(e.contains("fiducials.size_mm"), "{e}");
    }
}
