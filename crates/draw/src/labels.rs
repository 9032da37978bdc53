//! Keeping labels from overlapping: a greedy placement in output space. Labels are
//! taken in priority order (verdicts before ids); each goes to the first of its
//! candidate positions around its anchor (nearest first, out to [`RINGS`] line heights,
//! joined to the anchor by a leader line when pushed out) where its box overlaps no box
//! placed before. A label with no free place is not written over the others: the SVG
//! keeps its text in a `<title>` at its anchor, shown on hover. Boxes are estimated from the text
//! length (sans-serif, about 0.55 em per character) and kept in a uniform grid, so
//! placing n labels costs about n times the few boxes near each.

use crate::projection::Projection;
use crate::scene::{Align, Placement, Scene, Shape};
use std::collections::HashMap;
use vedette_geometry::Vec2;

/// Average advance of a sans-serif character, in ems.
pub const CHAR_EM: f64 = 0.55;

/// A label's box in output units: left, top, right, bottom (y down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelBox {
    /// Left.
    pub x0: f64,
    /// Top.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Bottom.
    pub y1: f64,
}

impl LabelBox {
    /// True when the two boxes share more than a boundary.
    #[must_use]
    pub fn overlaps(&self, o: &LabelBox) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// The estimated width of `text` at font size `size`, output units.
#[must_use]
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * CHAR_EM * size
}

/// The hasher of the placer's grid cells (two integers): one multiply-rotate step per
/// word (as rustc's FxHash), far cheaper than the default SipHash on the hundreds of
/// thousands of cells a plan's labels look up. The grid is only looked up, never
/// iterated, so the order it would give does not matter.
#[derive(Debug, Default, Clone, Copy)]
struct CellHasher(u64);

impl std::hash::Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_i64(&mut self, v: i64) {
        self.write_u64(v as u64);
    }
}

/// Label boxes (indices) by grid cell.
type Grid = HashMap<(i64, i64), Vec<usize>, std::hash::BuildHasherDefault<CellHasher>>;

/// Places labels greedily (see the module docs).
#[derive(Debug, Default)]
pub struct Placer {
    cell: f64,
    grid: Grid,
    boxes: Vec<LabelBox>,
    /// Lines no label may cross, with their tier ([`Placer::avoid`]), by grid cell.
    strokes: Vec<(Vec2, Vec2, u8)>,
    stroke_grid: Grid,
    /// The highest tier of the strokes given.
    top_tier: u8,
    /// The area every label stays inside (the picture), when set.
    bounds: Option<LabelBox>,
}

/// True when segment `a`-`b` meets box `bx` (Liang-Barsky clipping).
#[must_use]
pub fn segment_meets_box(a: Vec2, b: Vec2, bx: &LabelBox) -> bool {
    let d = b - a;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-d.x, a.x - bx.x0), (d.x, bx.x1 - a.x), (-d.y, a.y - bx.y0), (d.y, bx.y1 - a.y)] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

impl Placer {
    /// A placer whose grid cells are `cell` output units wide (about a label's size).
    #[must_use]
    pub fn new(cell: f64) -> Placer {
        Placer { cell: cell.max(1e-6), ..Placer::default() }
    }

    fn cells(&self, b: &LabelBox) -> impl Iterator<Item = (i64, i64)> + use<> {
        let c = self.cell;
        let (i0, i1) = ((b.x0 / c).floor() as i64, (b.x1 / c).floor() as i64);
        let (j0, j1) = ((b.y0 / c).floor() as i64, (b.y1 / c).floor() as i64);
        (i0..=i1).flat_map(move |i| (j0..=j1).map(move |j| (i, j)))
    }

    /// Keeps every label inside `b` (the picture's drawing area).
    pub fn keep_inside(&mut self, b: LabelBox) {
        self.bounds = Some(b);
    }

    fn free(&self, b: &LabelBox) -> bool {
        self.bounds.is_none_or(|o| b.x0 >= o.x0 && b.y0 >= o.y0 && b.x1 <= o.x1 && b.y1 <= o.y1)
            && self
                .cells(b)
                .all(|k| self.grid.get(&k).is_none_or(|v| v.iter().all(|&i| !self.boxes[i].overlaps(b))))
    }

    /// [`Placer::free`], and crossing no stroke of tier `tier` or under.
    fn clear(&self, b: &LabelBox, tier: u8) -> bool {
        self.free(b)
            && (self.strokes.is_empty()
                || self.cells(b).all(|k| {
                    self.stroke_grid.get(&k).is_none_or(|v| {
                        v.iter().all(|&i| {
                            let (p, q, t) = self.strokes[i];
                            t > tier || !segment_meets_box(p, q, b)
                        })
                    })
                }))
    }

    /// Keeps labels off the line `a`-`b` (output units), of `tier` (1 or more: 1 for the
    /// lines that matter most): a label goes where it crosses no line while it has such
    /// a place, else where it crosses no line of the lower tiers, tier by tier; a label
    /// with no place clear of tier 1 goes where it overlaps no other label.
    pub fn avoid(&mut self, a: Vec2, b: Vec2, tier: u8) {
        let i = self.strokes.len();
        self.strokes.push((a, b, tier));
        self.top_tier = self.top_tier.max(tier);
        let bx = LabelBox { x0: a.x.min(b.x), y0: a.y.min(b.y), x1: a.x.max(b.x), y1: a.y.max(b.y) };
        for k in self.cells(&bx).collect::<Vec<_>>() {
            // Only the cells the segment passes through.
            let c = self.cell;
            let cell = LabelBox {
                x0: k.0 as f64 * c,
                y0: k.1 as f64 * c,
                x1: (k.0 + 1) as f64 * c,
                y1: (k.1 + 1) as f64 * c,
            };
            if segment_meets_box(a, b, &cell) {
                self.stroke_grid.entry(k).or_default().push(i);
            }
        }
    }

    /// Registers a box as taken.
    pub fn take(&mut self, b: LabelBox) {
        let i = self.boxes.len();
        self.boxes.push(b);
        for k in self.cells(&b).collect::<Vec<_>>() {
            self.grid.entry(k).or_default().push(i);
        }
    }

    /// Places a `w` x `h` label near `anchor` and returns its box (taken from now on)
    /// and whether it stands off its anchor (a leader line should join them); `None`
    /// when every candidate overlaps a label placed before (nothing is taken: the label
    /// is not written, so it never overprints another). `beside`: never centred on the
    /// anchor (a mark stays visible).
    ///
    /// Candidates, nearest first: centred (unless `beside`), then rings around the anchor
    /// ([`RINGS`] of them, each a line height further out): above and below (centred and
    /// slid half a label either way along), right, left and the four diagonals. From the
    /// second ring on, the label is joined to its anchor by a leader line.
    pub fn place(&mut self, anchor: Vec2, w: f64, h: f64, beside: bool) -> Option<(LabelBox, bool)> {
        let g = 0.3 * h;
        let at = |x: f64, y: f64| LabelBox { x0: x, y0: y, x1: x + w, y1: y + h };
        let (ax, ay) = (anchor.x, anchor.y);
        // Clear of every line first, then of the lines that matter most, then of labels
        // only.
        let tiers: Vec<u8> =
            if self.strokes.is_empty() { vec![0] } else { (0..=self.top_tier).rev().collect() };
        for tier in tiers {
            if !beside {
                let centred = at(ax - w / 2.0, ay - h / 2.0);
                if self.clear(&centred, tier) {
                    self.take(centred);
                    return Some((centred, false));
                }
            }
            for k in 0..RINGS {
                let gy = g + k as f64 * (h + g);
                let gx = g + k as f64 * (h + g);
                let ring = [
                    at(ax - w / 2.0, ay - gy - h),
                    at(ax - w / 2.0, ay + gy),
                    at(ax + gx, ay - h / 2.0),
                    at(ax - gx - w, ay - h / 2.0),
                    at(ax + gx, ay - gy - h),
                    at(ax - gx - w, ay + gy),
                    at(ax + gx, ay + gy),
                    at(ax - gx - w, ay - gy - h),
                    at(ax - w / 4.0, ay - gy - h),
                    at(ax - 3.0 * w / 4.0, ay - gy - h),
                    at(ax - w / 4.0, ay + gy),
                    at(ax - 3.0 * w / 4.0, ay + gy),
                ];
                if let Some(b) = ring.into_iter().find(|b| self.clear(b, tier)) {
                    self.take(b);
                    return Some((b, k >= 2));
                }
            }
        }
        None
    }
}

/// How many rings of candidate positions a label tries around its anchor.
pub const RINGS: usize = 5;

/// Where a label is written: its anchor point in output units (`y` the baseline), how
/// the text is aligned on it, and its font size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedLabel {
    /// Anchor x.
    pub x: f64,
    /// Baseline y.
    pub y: f64,
    /// `start`, `middle` or `end` (SVG's `text-anchor`).
    pub anchor: &'static str,
    /// Font size, output units.
    pub size: f64,
}

/// Where every label of a picture goes ([`layout_labels`]).
#[derive(Debug, Clone, Default)]
pub struct LabelLayout {
    /// (layer index, element index) → where the label is written.
    pub placed: HashMap<(usize, usize), PlacedLabel>,
    /// Labels that stand off their anchor: (anchor, the nearest point of the label's
    /// box), output units, for a leader line.
    pub leaders: HashMap<(usize, usize), (Vec2, Vec2)>,
    /// Labels with no free place: not written over others; the SVG keeps their text
    /// in a `<title>` at their anchor (shown on hover).
    pub hidden: HashMap<(usize, usize), Vec2>,
    /// The box each written label takes (output units), as the placer kept it free.
    pub boxes: HashMap<(usize, usize), LabelBox>,
    /// The area the labels were kept inside (output units).
    pub bounds: Option<LabelBox>,
}

/// Places every label of a scene seen through `proj`, verdicts before ids (see the
/// module docs). `text_scale` multiplies the labels' sizes.
#[must_use]
pub fn layout_labels(scene: &Scene, proj: &dyn Projection, text_scale: f64) -> LabelLayout {
    layout_labels_around(scene, proj, text_scale, &[])
}

/// [`layout_labels`], keeping every label off the `reserved` boxes (output units: a
/// legend drawn over the picture, say).
#[must_use]
pub fn layout_labels_around(
    scene: &Scene,
    proj: &dyn Projection,
    text_scale: f64,
    reserved: &[LabelBox],
) -> LabelLayout {
    let (w, h) = proj.output_size();
    layout_labels_within(scene, proj, text_scale, reserved, LabelBox { x0: 0.0, y0: 0.0, x1: w, y1: h })
}

/// [`layout_labels_around`], every label inside `bounds` (output units: the part of the
/// picture the drawing is shown in).
#[must_use]
pub fn layout_labels_within(
    scene: &Scene,
    proj: &dyn Projection,
    text_scale: f64,
    reserved: &[LabelBox],
    bounds: LabelBox,
) -> LabelLayout {
    let upm = proj.units_per_mm() * text_scale;
    let mut order: Vec<(u8, usize, usize)> = Vec::new();
    for (li, l) in scene.layers().iter().enumerate() {
        for (ei, e) in l.elements.iter().enumerate() {
            if matches!(e.shape, Shape::Text { .. }) {
                order.push((l.id.label_priority(), li, ei));
            }
        }
    }
    order.sort_by_key(|&(p, li, ei)| (p, li, ei));
    let mut placer = Placer::new(12.0 * upm);
    placer.keep_inside(bounds);
    for b in reserved {
        placer.take(*b);
    }
    // A picture of one question (it has a caption): its labels keep off the lines that
    // carry the verdict, and off the zones' and arcs' edges where they can.
    if scene.caption.is_some() {
        for l in scene.layers() {
            let Some(tier) = stroke_tier(l.id) else { continue };
            for e in &l.elements {
                let (pts, closed): (&[Vec2], bool) = match &e.shape {
                    Shape::Polyline(p) => (p, false),
                    Shape::Polygon { exterior, .. } => (exterior, true),
                    Shape::Point { at, .. } => (std::slice::from_ref(at), false),
                    _ => continue,
                };
                let Some(px) = proj.project_all(pts, e.height) else { continue };
                if let [c] = px.as_slice() {
                    // A mark: its cross.
                    let d = 2.0 * upm;
                    placer.avoid(*c - Vec2::new(d, d), *c + Vec2::new(d, d), tier);
                    placer.avoid(*c + Vec2::new(-d, d), *c + Vec2::new(d, -d), tier);
                    continue;
                }
                for w in px.windows(2) {
                    placer.avoid(w[0], w[1], tier);
                }
                if closed && px.len() > 2 {
                    placer.avoid(px[px.len() - 1], px[0], tier);
                }
            }
        }
    }
    let mut out = LabelLayout { bounds: Some(bounds), ..LabelLayout::default() };
    for (_, li, ei) in order {
        let e = &scene.layers()[li].elements[ei];
        let Shape::Text { anchor, text, size_mm, placement } = &e.shape else { continue };
        let Some(a) = proj.project(*anchor, e.height) else { continue };
        let h = size_mm * upm;
        let w = text_width(text, h);
        let placed = match placement {
            Placement::Fixed(align) => {
                let (x0, name) = match align {
                    Align::Start => (a.x, "start"),
                    Align::Middle => (a.x - w / 2.0, "middle"),
                    Align::End => (a.x - w, "end"),
                };
                let b = LabelBox { x0, y0: a.y - h / 2.0, x1: x0 + w, y1: a.y + h / 2.0 };
                placer.take(b);
                out.boxes.insert((li, ei), b);
                PlacedLabel { x: a.x, y: a.y + 0.35 * h, anchor: name, size: h }
            }
            Placement::Auto | Placement::Beside => {
                match placer.place(a, w, h, *placement == Placement::Beside) {
                    Some((b, off)) => {
                        out.boxes.insert((li, ei), b);
                        if off {
                            let near = Vec2::new(a.x.clamp(b.x0, b.x1), a.y.clamp(b.y0, b.y1));
                            out.leaders.insert((li, ei), (a, near));
                        }
                        PlacedLabel { x: b.x0, y: b.y1 - 0.22 * h, anchor: "start", size: h }
                    }
                    None => {
                        out.hidden.insert((li, ei), a);
                        continue;
                    }
                }
            }
        };
        out.placed.insert((li, ei), placed);
    }
    out
}

/// The tier of a layer's lines for the labels of a picture of one question
/// ([`Placer::avoid`]): 1 for the lines that carry the verdict (targets and ranges,
/// contacts, sight lines and cuts, the measured pair, flank lines, close calls), 2 for
/// zones, arcs and cover; `None` for the table, terrain and bases.
#[must_use]
pub fn stroke_tier(layer: crate::scene::LayerId) -> Option<u8> {
    use crate::scene::LayerId as L;
    match layer {
        L::Targets | L::Contacts | L::Sight | L::Measurements | L::FlankLines | L::CloseCalls => Some(1),
        L::Zones | L::Arcs | L::BlindZones | L::SpottingDepth | L::Skirmishers | L::Command => Some(2),
        L::Table | L::Terrain | L::Bases | L::Legend => None,
    }
}

/// The labels that are written ([`layout_labels`]'s `placed`): (layer index, element
/// index) → where each goes.
#[must_use]
pub fn place_labels(
    scene: &Scene,
    proj: &dyn Projection,
    text_scale: f64,
) -> HashMap<(usize, usize), PlacedLabel> {
    layout_labels(scene, proj, text_scale).placed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_label_on_the_same_anchor_moves_off_the_first() {
        let mut p = Placer::new(10.0);
        let a = p.place(Vec2::new(50.0, 50.0), 20.0, 5.0, false).unwrap().0;
        let b = p.place(Vec2::new(50.0, 50.0), 20.0, 5.0, false).unwrap().0;
        let c = p.place(Vec2::new(50.0, 50.0), 20.0, 5.0, false).unwrap().0;
        assert!(!a.overlaps(&b) && !a.overlaps(&c) && !b.overlaps(&c), "{a:?} {b:?} {c:?}");
        // The first goes centred on its anchor.
        assert_eq!(a, LabelBox { x0: 40.0, y0: 47.5, x1: 60.0, y1: 52.5 });
    }

    #[test]
    fn a_crowded_anchor_pushes_labels_out_along_leaders_then_keeps_them_off() {
        let mut p = Placer::new(10.0);
        let mut boxes = Vec::new();
        let mut leaders = 0;
        // Twenty labels on one anchor: none overlaps another; the far ones get leaders.
        for _ in 0..20 {
            let (b, off) = p.place(Vec2::new(0.0, 0.0), 10.0, 4.0, true).unwrap();
            assert!(boxes.iter().all(|o: &LabelBox| !o.overlaps(&b)), "{b:?}");
            leaders += usize::from(off);
            boxes.push(b);
        }
        assert!(leaders > 0);
        // With every candidate taken, nothing is placed (and nothing taken).
        p.take(LabelBox { x0: -1000.0, y0: -1000.0, x1: 1000.0, y1: 1000.0 });
        assert_eq!(p.place(Vec2::new(0.0, 0.0), 10.0, 4.0, false), None);
        assert_eq!(p.place(Vec2::new(0.0, 0.0), 10.0, 4.0, true), None);
    }
}
