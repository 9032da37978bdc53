//! The SVG writer: one `<g>` per layer (its id the layer's name, so a viewer toggles
//! it), one element per scene element with its id, class and, when it has one, a
//! `<title>` with the verdict in words. Coordinates are written with two decimals
//! (a hundredth of a millimetre on a plan), so the same scene always gives the same
//! bytes.

use crate::caption::BandLayout;
use crate::error::DrawError;
use crate::labels::{LabelBox, LabelLayout, PlacedLabel, text_width};
use crate::projection::Projection;
use crate::scene::{Element, LayerId, Mark, Scene, Shape};
use crate::style::stylesheet;
use std::fmt::Write;
use vedette_geometry::Vec2;

/// Where the legend goes and how large labels are drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct SvgOptions {
    /// The legend's top-left corner, output units (`None`: top left of the picture).
    pub legend_at: Option<Vec2>,
    /// Labels, marks and the legend are drawn this many times their size, line widths
    /// by its square root (1: as given).
    pub text_scale: f64,
    /// The drawing is clipped to this rectangle (left, top, right, bottom; output
    /// units), so a focused plan's legend stands clear of it.
    pub clip: Option<[f64; 4]>,
    /// The caption band written across the top of the picture (the projection leaves
    /// room for it: [`crate::PlanView::with_room_top`]).
    pub band: Option<BandLayout>,
    /// Verdicts whose label has no free place are numbered at their anchor and written
    /// out in a key under the legend (the picture grows to the right for it when it
    /// needs to); without it they are dots with their text on hover.
    pub callouts: bool,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions { legend_at: None, text_scale: 1.0, clip: None, band: None, callouts: false }
    }
}

/// The title of the key of the labels with no room on the picture.
pub const KEY_TITLE: &str = "Labels with no room on the plan:";

/// Where the key of the numbered labels goes and how it is flowed: its top-left corner,
/// its rows per column, each column's width, and its size (output units).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyLayout {
    /// Top-left corner.
    pub at: Vec2,
    /// Rows in a column.
    pub rows: usize,
    /// A column's width.
    pub column: f64,
    /// Width and height.
    pub size: (f64, f64),
}

/// The numbered labels of a layout: the verdicts with no free place (not the names: a
/// base or a terrain piece is seen, and its name is on hover), numbered from 1 in the
/// scene's order.
#[must_use]
pub fn numbered(scene: &Scene, labels: &LabelLayout) -> Vec<(usize, usize)> {
    let mut keys: Vec<(usize, usize)> = labels
        .hidden
        .keys()
        .copied()
        .filter(|(li, _)| scene.layers().get(*li).is_some_and(|l| !l.id.holds_names()))
        .collect();
    keys.sort_unstable();
    keys
}

/// The key's layout for `texts` at `at`, its rows flowed into columns that fit above
/// `bottom` (output units; `upm`: text scale times units per mm).
#[must_use]
pub fn key_layout(texts: &[&str], at: Vec2, bottom: f64, upm: f64) -> KeyLayout {
    let (size, row) = (5.0 * upm, 8.0 * upm);
    let fit = (((bottom - at.y) / row).floor() as usize).saturating_sub(2).max(8);
    let rows = texts.len().min(fit).max(1);
    let columns = texts.len().div_ceil(rows).max(1);
    let number = text_width(&format!("{}  ", texts.len()), size);
    let column = number + texts.iter().map(|t| text_width(t, size)).fold(0.0, f64::max) + 4.0 * upm;
    let width = (column * columns as f64).max(text_width(KEY_TITLE, size) + 4.0 * upm);
    KeyLayout { at, rows, column, size: (width, row * (rows as f64 + 1.5)) }
}

/// The key: a white box, its title, and a row per numbered label, flowed into columns.
fn key(out: &mut String, k: &KeyLayout, texts: &[&str], upm: f64) {
    let (size, row) = (5.0 * upm, 8.0 * upm);
    let _ = writeln!(
        out,
        "<g id=\"label-key\" class=\"label-key\"><rect id=\"label-key-box\" class=\"legend-box\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" stroke-width=\"{}\"/>",
        num(k.at.x),
        num(k.at.y),
        num(k.size.0),
        num(k.size.1),
        num(0.3 * upm)
    );
    let _ = writeln!(
        out,
        "<text id=\"label-key-title\" x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\">{}</text>",
        num(k.at.x + 2.0 * upm),
        num(k.at.y + row - 2.0 * upm),
        num(size),
        escape(KEY_TITLE)
    );
    for (i, t) in texts.iter().enumerate() {
        let (c, r) = (i / k.rows, i % k.rows);
        let _ = writeln!(
            out,
            "<text id=\"label-key-{}\" x=\"{}\" y=\"{}\" font-size=\"{}\">{}  {}</text>",
            i + 1,
            num(k.at.x + 2.0 * upm + c as f64 * k.column),
            num(k.at.y + row * (r as f64 + 1.5) + 0.35 * size),
            num(size),
            i + 1,
            escape(t)
        );
    }
    out.push_str("</g>\n");
}

/// The close-call colour of a caption row (vermillion, as a blocked sight line).
pub const CLOSE_CALL_COLOUR: &str = "#D55E00";

/// The caption band: a white band across the top, its rows of text (the headline bold),
/// a rule under it. In group `caption` (not a layer: it is not toggled).
fn band(out: &mut String, b: &BandLayout, width: f64) {
    out.push_str("<g id=\"caption\" class=\"caption\">\n");
    let _ = writeln!(
        out,
        "<rect id=\"caption-band\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
        num(width),
        num(b.height)
    );
    for (i, r) in b.rows.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text id=\"caption-{i}\" class=\"caption-{}\" x=\"{}\" y=\"{}\" font-size=\"{}\" font-family=\"sans-serif\"{}{}>{}</text>",
            if r.bold {
                "headline"
            } else if r.close_call {
                "close-call"
            } else {
                "line"
            },
            num(b.left),
            num(r.baseline),
            num(r.size),
            if r.bold { " font-weight=\"bold\"" } else { "" },
            if r.close_call { format!(" fill=\"{CLOSE_CALL_COLOUR}\"") } else { String::new() },
            escape(&r.text)
        );
    }
    let _ = writeln!(
        out,
        "<polyline id=\"caption-rule\" points=\"0,{y} {},{y}\" stroke=\"#000000\" stroke-width=\"{}\"/>",
        num(width),
        num(b.rows.last().map_or(1.0, |r| r.size) * 0.08),
        y = num(b.height)
    );
    out.push_str("</g>\n");
}

/// A number with two decimals, never `-0.00`.
#[must_use]
pub fn num(v: f64) -> String {
    let mut s = String::with_capacity(12);
    push_num(&mut s, v);
    s
}

/// Appends [`num`] of `v` to `out`: the same text as `format!("{v:.2}")` (but never
/// `-0.00`), written from the integer of hundredths where that integer is certain (a
/// plan writes hundreds of thousands of coordinates), through `format!` where it is
/// not: at or next to a tie between two hundredths, from 1e13 up, and for non-finite
/// numbers.
pub fn push_num(out: &mut String, v: f64) {
    // `v * 100` is within half an ulp (at most `|y|·2⁻⁵³`) of the exact product, so a
    // product nearer its integer than `0.5 - |y|·2⁻⁵²` rounds as the exact decimal
    // value of `v` does; only ties and near-ties (numbers like 0.125) are left to
    // `format!`.
    let y = v * 100.0;
    let n = y.round();
    if y.abs() < 1e15 && (y - n).abs() < 0.5 - y.abs() * f64::EPSILON {
        let hundredths = n.abs() as u64;
        if hundredths == 0 {
            out.push_str("0.00");
            return;
        }
        if n < 0.0 {
            out.push('-');
        }
        let (mut whole, frac) = (hundredths / 100, hundredths % 100);
        let mut digits = [b'0'; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (whole % 10) as u8;
            whole /= 10;
            if whole == 0 {
                break;
            }
        }
        for &d in &digits[at..] {
            out.push(char::from(d));
        }
        out.push('.');
        out.push(char::from(b'0' + (frac / 10) as u8));
        out.push(char::from(b'0' + (frac % 10) as u8));
        return;
    }
    let s = format!("{v:.2}");
    out.push_str(if s == "-0.00" { "0.00" } else { &s });
}

/// Escapes text for XML content and attribute values.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn check_finite(e: &Element) -> Result<(), DrawError> {
    match e.shape.points().find(|p| !p.is_finite()) {
        Some(p) => Err(DrawError::NotFinite { id: e.id.clone(), x: p.x, y: p.y }),
        None => Ok(()),
    }
}

fn path_of(rings: &[Vec<Vec2>], closed: bool) -> String {
    let mut d = String::new();
    for ring in rings {
        for (i, p) in ring.iter().enumerate() {
            d.push(if i == 0 { 'M' } else { 'L' });
            push_num(&mut d, p.x);
            d.push(' ');
            push_num(&mut d, p.y);
            d.push(' ');
        }
        if closed && !ring.is_empty() {
            d.push_str("Z ");
        }
    }
    d.trim_end().to_string()
}

fn title_of(e: &Element) -> String {
    e.title.as_ref().map(|t| format!("<title>{}</title>", escape(t))).unwrap_or_default()
}

/// ` data-finding="KEY KEY"` when the element draws findings (`Scene::set_findings`),
/// else nothing.
fn findings_attr(e: &Element) -> String {
    if e.findings.is_empty() {
        String::new()
    } else {
        format!(" data-finding=\"{}\"", escape(&e.findings.join(" ")))
    }
}

fn open(out: &mut String, tag: &str, e: &Element, attrs: &str) {
    let _ = write!(
        out,
        "<{tag} id=\"{}\" class=\"{}\"{} {attrs}",
        escape(&e.id),
        escape(&e.class),
        findings_attr(e)
    );
    match &e.title {
        Some(_) => {
            let _ = writeln!(out, ">{}</{tag}>", title_of(e));
        }
        None => out.push_str("/>\n"),
    }
}

/// How one label is written: where, its leader line, or (no free place) only its
/// anchor.
#[derive(Clone, Copy)]
struct LabelAt<'a> {
    placed: Option<&'a PlacedLabel>,
    leader: Option<&'a (Vec2, Vec2)>,
    hidden: Option<&'a Vec2>,
    /// Its number in the key, for a verdict with no free place ([`SvgOptions::callouts`]).
    number: Option<usize>,
}

/// Pictures with fewer points than this are written on one thread: a second costs more
/// to start (tens of microseconds) than it saves.
const TWO_THREADS_FROM_POINTS: usize = 20_000;

/// What the drawing group holds, in order: each layer's group around its elements.
enum Item<'a> {
    /// A layer's group opens.
    Open(LayerId),
    /// An element: its layer's index in the scene, its index in the layer.
    Element(usize, usize, &'a Element),
    /// The group closes.
    Close,
}

impl Item<'_> {
    /// About how much writing it takes: its points, and a few for the tag.
    fn cost(&self) -> usize {
        match self {
            Item::Element(_, _, e) => 8 + e.shape.points().count(),
            _ => 1,
        }
    }
}

fn element(out: &mut String, e: &Element, proj: &dyn Projection, label: LabelAt<'_>, text_scale: f64) {
    let upm = proj.units_per_mm();
    let size = upm * text_scale;
    let p = |v: Vec2| proj.project(v, e.height);
    let ring = |pts: &[Vec2]| proj.project_all(pts, e.height);
    match &e.shape {
        Shape::Polygon { exterior, holes } => {
            let mut rings = Vec::with_capacity(1 + holes.len());
            let Some(r) = ring(exterior) else { return };
            rings.push(r);
            for h in holes {
                let Some(r) = ring(h) else { return };
                rings.push(r);
            }
            let rule = if holes.is_empty() { "" } else { " fill-rule=\"evenodd\"" };
            open(out, "path", e, &format!("d=\"{}\"{rule}", path_of(&rings, true)));
        }
        Shape::Polyline(pts) => {
            let Some(r) = ring(pts) else { return };
            let mut points = String::with_capacity(16 * r.len());
            for (i, v) in r.iter().enumerate() {
                if i > 0 {
                    points.push(' ');
                }
                push_num(&mut points, v.x);
                points.push(',');
                push_num(&mut points, v.y);
            }
            open(out, "polyline", e, &format!("points=\"{points}\""));
        }
        Shape::Circle { centre, radius_mm } => {
            if proj.keeps_circles() {
                let Some(c) = p(*centre) else { return };
                open(
                    out,
                    "circle",
                    e,
                    &format!("cx=\"{}\" cy=\"{}\" r=\"{}\"", num(c.x), num(c.y), num(radius_mm * upm)),
                );
            } else {
                let n = 96;
                let pts: Vec<Vec2> = (0..n)
                    .map(|i| {
                        let a = std::f64::consts::TAU * i as f64 / n as f64;
                        *centre + Vec2::new(a.cos(), a.sin()) * *radius_mm
                    })
                    .collect();
                let Some(r) = ring(&pts) else { return };
                open(out, "path", e, &format!("d=\"{}\"", path_of(&[r], true)));
            }
        }
        Shape::Point { at, mark: look } => {
            let Some(c) = p(*at) else { return };
            match look {
                Mark::Dot => open(
                    out,
                    "circle",
                    e,
                    &format!("cx=\"{}\" cy=\"{}\" r=\"{}\"", num(c.x), num(c.y), num(1.2 * size)),
                ),
                Mark::Cross => {
                    let s = 2.2 * size;
                    let d = format!(
                        "M{} {} L{} {} M{} {} L{} {}",
                        num(c.x - s),
                        num(c.y - s),
                        num(c.x + s),
                        num(c.y + s),
                        num(c.x - s),
                        num(c.y + s),
                        num(c.x + s),
                        num(c.y - s)
                    );
                    open(out, "path", e, &format!("d=\"{d}\""));
                }
            }
        }
        Shape::Text { text, size_mm, .. } => {
            if let (Some(a), Some(n)) = (label.hidden, label.number) {
                // No free place: its number at the anchor, its text in the key.
                let r = 1.6 * size;
                let _ = writeln!(
                    out,
                    "<g id=\"{}\" class=\"callout\"{}><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#ffffff\" stroke=\"#000000\" stroke-width=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\">{n}</text><title>{}</title></g>",
                    escape(&e.id),
                    findings_attr(e),
                    num(a.x),
                    num(a.y),
                    num(r),
                    num(0.15 * size),
                    num(a.x),
                    num(a.y + 0.35 * 1.8 * size),
                    num(1.8 * size),
                    escape(text)
                );
                return;
            }
            if let Some(a) = label.hidden {
                // No free place: the text stays readable on hover, over a small mark.
                let title = match &e.title {
                    Some(t) => format!("{text}: {t}"),
                    None => text.clone(),
                };
                let _ = writeln!(
                    out,
                    "<circle id=\"{}\" class=\"label-hidden\"{} cx=\"{}\" cy=\"{}\" r=\"{}\"><title>{}</title></circle>",
                    escape(&e.id),
                    findings_attr(e),
                    num(a.x),
                    num(a.y),
                    num(0.8 * size),
                    escape(&title)
                );
                return;
            }
            let Some(&PlacedLabel { x, y, anchor, .. }) = label.placed else { return };
            if let Some((from, to)) = label.leader {
                let _ = writeln!(
                    out,
                    "<polyline id=\"{}-leader\" class=\"leader\"{} points=\"{},{} {},{}\"/>",
                    escape(&e.id),
                    findings_attr(e),
                    num(from.x),
                    num(from.y),
                    num(to.x),
                    num(to.y)
                );
            }
            let _ = writeln!(
                out,
                "<text id=\"{}\" class=\"{}\"{} x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\">{}{}</text>",
                escape(&e.id),
                escape(&e.class),
                findings_attr(e),
                num(x),
                num(y),
                num(size_mm * size),
                escape(text),
                title_of(e)
            );
        }
    }
}

/// The legend's width and height, output units (`upm`: output units per mm).
#[must_use]
pub fn legend_size(scene: &Scene, upm: f64, text_scale: f64) -> (f64, f64) {
    let entries = scene.legend_entries();
    let upm = upm * text_scale;
    let (size, row, sw) = (5.0 * upm, 8.0 * upm, 10.0 * upm);
    let width = entries.iter().map(|e| text_width(&e.text, size)).fold(0.0, f64::max) + sw + 6.0 * upm;
    (width, row * (entries.len() as f64 + 1.0) + 2.0 * upm)
}

fn legend(out: &mut String, scene: &Scene, proj: &dyn Projection, at: Vec2, text_scale: f64) {
    let entries = scene.legend_entries();
    if entries.is_empty() {
        return;
    }
    let (width, height) = legend_size(scene, proj.units_per_mm(), text_scale);
    let upm = proj.units_per_mm() * text_scale;
    let (size, row, sw) = (5.0 * upm, 8.0 * upm, 10.0 * upm);
    let _ = writeln!(
        out,
        "<rect id=\"legend-box\" class=\"legend-box\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" stroke-width=\"{}\"/>",
        num(at.x),
        num(at.y),
        num(width),
        num(height),
        num(0.3 * upm)
    );
    let _ = writeln!(
        out,
        "<text id=\"legend-title\" x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\">Legend</text>",
        num(at.x + 2.0 * upm),
        num(at.y + row - 2.0 * upm),
        num(size)
    );
    for (i, e) in entries.iter().enumerate() {
        let y = at.y + row * (i as f64 + 1.0) + 2.0 * upm;
        let x = at.x + 2.0 * upm;
        if e.line {
            let _ = writeln!(
                out,
                "<polyline id=\"legend-{i}\" class=\"{}\" points=\"{},{} {},{}\"/>",
                escape(&e.class),
                num(x),
                num(y + row / 2.0),
                num(x + sw),
                num(y + row / 2.0)
            );
        } else {
            let _ = writeln!(
                out,
                "<rect id=\"legend-{i}\" class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                escape(&e.class),
                num(x),
                num(y + 1.5 * upm),
                num(sw),
                num(row - 3.0 * upm)
            );
        }
        let _ = writeln!(
            out,
            "<text id=\"legend-{i}-text\" x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>",
            num(x + sw + 2.0 * upm),
            num(y + row / 2.0 + 0.35 * size),
            num(size),
            escape(&e.text)
        );
    }
}

/// Where the labels of `scene` go when it is written through `proj` with `options`
/// ([`write_svg`] writes them so): inside the clip (or the picture), verdicts first.
#[must_use]
pub fn label_layout(scene: &Scene, proj: &dyn Projection, options: &SvgOptions) -> LabelLayout {
    let ts =
        if options.text_scale.is_finite() && options.text_scale > 0.0 { options.text_scale } else { 1.0 };
    let (w, h) = proj.output_size();
    let area = options.clip.unwrap_or([0.0, 0.0, w, h]);
    crate::labels::layout_labels_within(
        scene,
        proj,
        ts,
        &[],
        LabelBox { x0: area[0], y0: area[1], x1: area[2], y1: area[3] },
    )
}

/// Writes the scene as an SVG document through a projection.
///
/// ```
/// use vedette_draw::{Height, LayerId, PlanView, Scene, Shape, SvgOptions, write_svg};
/// use vedette_geometry::Vec2;
/// let mut s = Scene::new("one line");
/// s.add(LayerId::Measurements, "m", "measure", Shape::line(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0)),
///       Height::Table, Some("10 mm".into()));
/// let svg = write_svg(&s, &PlanView::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0), 5.0),
///                     SvgOptions::default())?;
/// assert!(svg.contains(r#"<g id="measurements" class="layer">"#));
/// assert!(svg.contains(r#"points="5.00,15.00 15.00,15.00""#));
/// # Ok::<(), vedette_draw::DrawError>(())
/// ```
pub fn write_svg(
    scene: &Scene,
    proj: &(dyn Projection + Sync),
    options: SvgOptions,
) -> Result<String, DrawError> {
    write_svg_split(scene, proj, options, TWO_THREADS_FROM_POINTS)
}

/// [`write_svg`], its elements written on two threads when they hold `two_threads_from`
/// points or more.
fn write_svg_split(
    scene: &Scene,
    proj: &(dyn Projection + Sync),
    options: SvgOptions,
    two_threads_from: usize,
) -> Result<String, DrawError> {
    for e in scene.layers().iter().flat_map(|l| &l.elements) {
        check_finite(e)?;
    }
    let ts =
        if options.text_scale.is_finite() && options.text_scale > 0.0 { options.text_scale } else { 1.0 };
    let (w, h) = proj.output_size();
    let labels = label_layout(scene, proj, &options);
    // Verdicts with no free place: numbered, and a key under the legend (the picture
    // widens for it when it must).
    let numbers: std::collections::HashMap<(usize, usize), usize> = if options.callouts {
        numbered(scene, &labels).into_iter().enumerate().map(|(i, k)| (k, i + 1)).collect()
    } else {
        std::collections::HashMap::new()
    };
    let mut key_texts: Vec<(usize, &str)> = numbers
        .iter()
        .filter_map(|(&(li, ei), &n)| match &scene.layers()[li].elements[ei].shape {
            Shape::Text { text, .. } => Some((n, text.as_str())),
            _ => None,
        })
        .collect();
    key_texts.sort_unstable();
    let key_texts: Vec<&str> = key_texts.into_iter().map(|(_, t)| t).collect();
    let legend_at = options.legend_at.unwrap_or(Vec2::new(2.0, 2.0));
    let upm = proj.units_per_mm() * ts;
    let key_at = if scene.legend_entries().is_empty() {
        legend_at
    } else {
        legend_at + Vec2::new(0.0, legend_size(scene, proj.units_per_mm(), ts).1 + 6.0 * upm)
    };
    let key_box = (!key_texts.is_empty()).then(|| key_layout(&key_texts, key_at, h - 4.0 * upm, upm));
    let w = key_box.as_ref().map_or(w, |k| w.max(k.at.x + k.size.0 + 4.0 * upm));
    let h = key_box.as_ref().map_or(h, |k| h.max(k.at.y + k.size.1 + 4.0 * upm));
    let unit = proj.unit_suffix();
    let mut out =
        String::with_capacity(256 + 160 * scene.layers().iter().map(|l| l.elements.len()).sum::<usize>());
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}{unit}\" height=\"{}{unit}\" viewBox=\"0 0 {} {}\">",
        num(w),
        num(h),
        num(w),
        num(h)
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&scene.title));
    let _ = writeln!(
        out,
        "<rect id=\"background\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
        num(w),
        num(h)
    );
    let _ = writeln!(out, "<style>\n{}</style>", stylesheet(proj.units_per_mm() * ts.sqrt()));
    if let Some([x0, y0, x1, y1]) = options.clip {
        let _ = writeln!(
            out,
            "<clipPath id=\"drawing-clip\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>",
            num(x0),
            num(y0),
            num(x1 - x0),
            num(y1 - y0)
        );
        out.push_str("<g id=\"drawing\" clip-path=\"url(#drawing-clip)\">\n");
    } else {
        out.push_str("<g id=\"drawing\">\n");
    }
    // Every layer's group is written, empty or not, so a viewer's toggles are the same
    // for every picture.
    let mut items: Vec<Item<'_>> = Vec::new();
    for id in LayerId::ALL.into_iter().filter(|&id| id != LayerId::Legend) {
        items.push(Item::Open(id));
        if let Some((li, layer)) = scene.layers().iter().enumerate().find(|(_, l)| l.id == id) {
            items.extend(layer.elements.iter().enumerate().map(|(ei, e)| Item::Element(li, ei, e)));
        }
        items.push(Item::Close);
    }
    // A picture of one question writes its labels after all the geometry, so that no
    // zone or line is drawn over a unit's name or a verdict.
    let on_top = scene.caption.is_some();
    let write = |items: &[Item<'_>], out: &mut String| {
        for item in items {
            match *item {
                Item::Open(id) => {
                    let _ = writeln!(out, "<g id=\"{}\" class=\"layer\">", id.name());
                }
                Item::Close => out.push_str("</g>\n"),
                Item::Element(_, _, e) if on_top && matches!(e.shape, Shape::Text { .. }) => {}
                Item::Element(li, ei, e) => {
                    let at = LabelAt {
                        placed: labels.placed.get(&(li, ei)),
                        leader: labels.leaders.get(&(li, ei)),
                        hidden: labels.hidden.get(&(li, ei)),
                        number: numbers.get(&(li, ei)).copied(),
                    };
                    element(out, e, proj, at, ts);
                }
            }
        }
    };
    // The elements are independent once their labels are placed: a large picture is
    // written on two threads, each a run of about half the points, and joined in order.
    let cost: Vec<usize> = items.iter().map(Item::cost).collect();
    let total: usize = cost.iter().sum();
    if total < two_threads_from {
        write(&items, &mut out);
    } else {
        let mut sum = 0;
        let half = cost.iter().position(|&c| {
            sum += c;
            2 * sum >= total
        });
        let (first, second) = items.split_at(half.map_or(items.len(), |k| k + 1));
        let room = out.capacity() / 2;
        let rest = std::thread::scope(|s| {
            let rest = s.spawn(|| {
                let mut rest = String::with_capacity(room);
                write(second, &mut rest);
                rest
            });
            write(first, &mut out);
            rest.join()
        });
        match rest {
            Ok(rest) => out.push_str(&rest),
            Err(e) => std::panic::resume_unwind(e),
        }
    }
    if on_top {
        out.push_str("<g id=\"labels\" class=\"labels\">\n");
        for (li, layer) in scene.layers().iter().enumerate() {
            for (ei, e) in layer.elements.iter().enumerate() {
                if matches!(e.shape, Shape::Text { .. }) {
                    let at = LabelAt {
                        placed: labels.placed.get(&(li, ei)),
                        leader: labels.leaders.get(&(li, ei)),
                        hidden: labels.hidden.get(&(li, ei)),
                        number: numbers.get(&(li, ei)).copied(),
                    };
                    element(&mut out, e, proj, at, ts);
                }
            }
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
    if let Some(b) = &options.band {
        band(&mut out, b, w);
    }
    let _ = writeln!(out, "<g id=\"{}\" class=\"layer\">", LayerId::Legend.name());
    legend(&mut out, scene, proj, legend_at, ts);
    if let Some(k) = &key_box {
        key(&mut out, k, &key_texts, upm);
    }
    out.push_str("</g>\n</svg>\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::projection::PlanView;
    use crate::scene::{Align, Height, Placement};

    #[test]
    fn two_threads_write_what_one_writes() {
        // Elements in several layers, with labels placed, hidden and led: split anywhere,
        // the document is the same.
        let mut s = Scene::new("split");
        for i in 0..60u32 {
            let x = f64::from(i) * 7.0;
            let layer = [LayerId::Bases, LayerId::Arcs, LayerId::Terrain][(i % 3) as usize];
            let ring: Vec<Vec2> = (0..12)
                .map(|k| {
                    let a = f64::from(k) * std::f64::consts::TAU / 12.0;
                    Vec2::new(x + 3.0 * a.cos(), 20.0 + 3.0 * a.sin())
                })
                .collect();
            s.add(
                layer,
                &format!("e{i}"),
                "poly",
                Shape::polygon(ring),
                Height::Table,
                Some(format!("label {i}")),
            );
            s.add(
                LayerId::Measurements,
                &format!("m{i}"),
                "measure",
                Shape::line(Vec2::new(x, 0.0), Vec2::new(x + 5.0, 40.0)),
                Height::Table,
                Some("10 mm".into()),
            );
        }
        let view = PlanView::new(Vec2::new(-5.0, -5.0), Vec2::new(430.0, 50.0), 4.0);
        let one = write_svg_split(&s, &view, SvgOptions::default(), usize::MAX).unwrap();
        for from in [0, 1, 100, 500] {
            assert_eq!(write_svg_split(&s, &view, SvgOptions::default(), from).unwrap(), one, "from {from}");
        }
        assert!(one.contains("label 59"));
    }

    #[test]
    fn text_is_escaped_and_numbers_have_two_decimals() {
        let mut s = Scene::new("a < b & \"c\"");
        s.add(
            LayerId::Bases,
            "x",
            "label",
            Shape::Text {
                anchor: Vec2::new(1.0 / 3.0, 0.0),
                text: "<fr&au>".into(),
                size_mm: 4.0,
                placement: Placement::Fixed(Align::Start),
            },
            Height::Table,
            None,
        );
        let svg = write_svg(
            &s,
            &PlanView::new(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0), 0.0),
            SvgOptions::default(),
        )
        .unwrap();
        assert!(svg.contains("<title>a &lt; b &amp; &quot;c&quot;</title>"), "{svg}");
        assert!(svg.contains(">&lt;fr&amp;au&gt;</text>"), "{svg}");
        assert!(svg.contains("x=\"0.33\""), "{svg}");
        assert_eq!(num(-0.001), "0.00");
    }

    #[test]
    fn numbers_are_written_as_format_writes_them() {
        let format = |v: f64| {
            let s = format!("{v:.2}");
            if s == "-0.00" { "0.00".to_string() } else { s }
        };
        // Ties and near-ties of hundredths (k/200 and its neighbours), exact binary
        // ties (0.125, 2.675 is not one), signs, zero, large and non-finite values,
        // and a seeded spread of table coordinates.
        let mut values: Vec<f64> = vec![
            0.0,
            -0.0,
            0.125,
            -0.125,
            0.375,
            2.675,
            1.005,
            -1.005,
            0.004999,
            -0.005,
            0.005,
            1e12,
            -1e12,
            1e13,
            1e14,
            1e15,
            1e300,
            -1e300,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            5e-324,
        ];
        for k in -4000..4000 {
            let t = f64::from(k) / 200.0;
            values.extend([
                t,
                f64::from_bits(t.to_bits() + 1),
                f64::from_bits(t.to_bits().saturating_sub(1)),
            ]);
        }
        let mut rng = 0x853c_49e6_748f_ea9bu64;
        for _ in 0..200_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let u = (rng >> 11) as f64 / (1u64 << 53) as f64;
            values.push((u - 0.5) * 4000.0);
        }
        for v in values {
            assert_eq!(num(v), format(v), "{v:e}");
        }
    }

    #[test]
    fn elements_of_a_finding_carry_its_keys_and_others_none() {
        let mut s = Scene::new("t");
        let line = Shape::line(Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0));
        s.add(LayerId::Bases, "base", "base", line.clone(), Height::Table, None);
        s.set_findings(vec![crate::scene::finding_key("assault", &["a\"b", "c"])]);
        s.add(LayerId::Contacts, "contact", "contact", line.clone(), Height::Table, Some("t".into()));
        s.add(
            LayerId::Contacts,
            "label",
            "verdict",
            Shape::verdict(Vec2::new(0.5, 0.5), "x"),
            Height::Table,
            None,
        );
        s.set_findings(vec!["k1".into(), "k2".into()]);
        s.add(LayerId::Arcs, "both", "arc", line, Height::Table, None);
        let svg = write_svg(
            &s,
            &PlanView::new(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0), 0.0),
            SvgOptions::default(),
        )
        .unwrap();
        let line_of = |id: &str| {
            svg.lines().find(|l| l.contains(&format!("id=\"{id}\""))).unwrap_or_default().to_string()
        };
        assert!(!line_of("base").contains("data-finding"), "{svg}");
        assert!(line_of("contact").contains(r#"data-finding="assault/a_b/c""#), "{svg}");
        assert!(line_of("label").contains(r#"data-finding="assault/a_b/c""#), "{svg}");
        assert!(line_of("both").contains(r#"data-finding="k1 k2""#), "{svg}");
    }

    #[test]
    fn a_point_that_is_not_finite_is_refused() {
        let mut s = Scene::new("t");
        s.add(
            LayerId::Sight,
            "bad",
            "cut",
            Shape::line(Vec2::new(0.0, 0.0), Vec2::new(f64::NAN, 1.0)),
            Height::Table,
            None,
        );
        let e = write_svg(
            &s,
            &PlanView::new(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0), 0.0),
            SvgOptions::default(),
        );
        assert!(matches!(e, Err(DrawError::NotFinite { ref id, .. }) if id == "bad"), "{e:?}");
    }
}
