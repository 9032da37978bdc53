//! Projections: where a table point at a height lands in the output picture.
//!
//! The plan view ([`PlanView`]) is a scale and a flip: output units are millimetres,
//! x to the right, y down the picture (the table's y runs away from the near edge, so
//! the near edge is at the bottom of the plan, as a player standing there sees it). A
//! photo overlay implements [`Projection`] with the scan's camera model, so the same
//! scene is drawn over the photo.

use crate::scene::Height;
use vedette_geometry::Vec2;

/// Maps a table point (mm) at a height to an output point.
///
/// ```
/// use vedette_draw::{Height, PlanView, Projection};
/// use vedette_geometry::Vec2;
/// // A 1200 x 800 table with a 20 mm margin.
/// let plan = PlanView::new(Vec2::new(0.0, 0.0), Vec2::new(1200.0, 800.0), 20.0);
/// // The near-left corner is at the bottom left of the picture.
/// assert_eq!(plan.project(Vec2::new(0.0, 0.0), Height::Table), Some(Vec2::new(20.0, 820.0)));
/// assert_eq!(plan.output_size(), (1240.0, 840.0));
/// ```
pub trait Projection {
    /// The output point of table point `p` at `height`; `None` when it does not land in
    /// the picture's model (behind a camera).
    fn project(&self, p: Vec2, height: Height) -> Option<Vec2>;
    /// Every point of `points` at `height`; `None` when any does not land. A camera
    /// model projects a whole element in one call.
    fn project_all(&self, points: &[Vec2], height: Height) -> Option<Vec<Vec2>> {
        points.iter().map(|&p| self.project(p, height)).collect()
    }
    /// The picture's width and height, output units.
    fn output_size(&self) -> (f64, f64);
    /// Output units per table millimetre near the table (for line widths and text).
    fn units_per_mm(&self) -> f64;
    /// The output units' name for the SVG's width and height (`mm`, or `` for pixels).
    fn unit_suffix(&self) -> &'static str {
        ""
    }
    /// True when circles stay circles (a similarity): they are then written as circles.
    fn keeps_circles(&self) -> bool {
        false
    }
}

/// The plan view: table millimetres, y flipped so the near edge is at the bottom.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanView {
    lo: Vec2,
    hi: Vec2,
    margin_mm: f64,
    extra_right_mm: f64,
    extra_top_mm: f64,
}

impl PlanView {
    /// The plan of the box from `lo` to `hi` (table mm) with `margin_mm` around it.
    #[must_use]
    pub fn new(lo: Vec2, hi: Vec2, margin_mm: f64) -> PlanView {
        PlanView { lo, hi, margin_mm, extra_right_mm: 0.0, extra_top_mm: 0.0 }
    }

    /// The same with `mm` more room on the right (for the legend).
    #[must_use]
    pub fn with_room_right(self, mm: f64) -> PlanView {
        PlanView { extra_right_mm: mm, ..self }
    }

    /// The same with `mm` more room at the top (for a caption band).
    #[must_use]
    pub fn with_room_top(self, mm: f64) -> PlanView {
        PlanView { extra_top_mm: mm, ..self }
    }

    /// The room at the top, output units.
    #[must_use]
    pub fn room_top(&self) -> f64 {
        self.extra_top_mm
    }

    /// Where the drawing of the box ends on the right, output units.
    #[must_use]
    pub fn box_right(&self) -> f64 {
        self.hi.x - self.lo.x + self.margin_mm
    }

    /// The margin, output units.
    #[must_use]
    pub fn margin(&self) -> f64 {
        self.margin_mm
    }
}

impl Projection for PlanView {
    fn project(&self, p: Vec2, _height: Height) -> Option<Vec2> {
        Some(Vec2::new(
            p.x - self.lo.x + self.margin_mm,
            self.hi.y - p.y + self.margin_mm + self.extra_top_mm,
        ))
    }

    fn output_size(&self) -> (f64, f64) {
        (
            self.hi.x - self.lo.x + 2.0 * self.margin_mm + self.extra_right_mm,
            self.hi.y - self.lo.y + 2.0 * self.margin_mm + self.extra_top_mm,
        )
    }

    fn units_per_mm(&self) -> f64 {
        1.0
    }

    fn unit_suffix(&self) -> &'static str {
        "mm"
    }

    fn keeps_circles(&self) -> bool {
        true
    }
}

/// A projection seen through a frame: the part of its picture from `origin` on, `size`
/// wide and high, scaled by `scale` (a crop of a photo around a pair, shrunk to a width
/// for sharing).
///
/// ```
/// use vedette_draw::{Framed, Height, PlanView, Projection};
/// use vedette_geometry::Vec2;
/// let plan = PlanView::new(Vec2::new(0.0, 0.0), Vec2::new(1200.0, 800.0), 0.0);
/// // The plan's picture from (100, 200), 400 x 300 of it, at half size.
/// let framed = Framed::new(&plan, Vec2::new(100.0, 200.0), (400.0, 300.0), 0.5);
/// assert_eq!(framed.output_size(), (200.0, 150.0));
/// assert_eq!(framed.project(Vec2::new(100.0, 600.0), Height::Table), Some(Vec2::new(0.0, 0.0)));
/// assert_eq!(framed.units_per_mm(), 0.5);
/// ```
pub struct Framed<'a> {
    inner: &'a (dyn Projection + Sync),
    origin: Vec2,
    size: (f64, f64),
    scale: f64,
}

impl<'a> Framed<'a> {
    /// `inner`'s picture from `origin`, `size` of it (inner's output units), scaled by
    /// `scale`.
    #[must_use]
    pub fn new(inner: &'a (dyn Projection + Sync), origin: Vec2, size: (f64, f64), scale: f64) -> Framed<'a> {
        Framed { inner, origin, size, scale }
    }
}

impl Projection for Framed<'_> {
    fn project(&self, p: Vec2, height: Height) -> Option<Vec2> {
        self.inner.project(p, height).map(|q| (q - self.origin) * self.scale)
    }

    fn project_all(&self, points: &[Vec2], height: Height) -> Option<Vec<Vec2>> {
        let mut out = self.inner.project_all(points, height)?;
        for q in &mut out {
            *q = (*q - self.origin) * self.scale;
        }
        Some(out)
    }

    fn output_size(&self) -> (f64, f64) {
        (self.size.0 * self.scale, self.size.1 * self.scale)
    }

    fn units_per_mm(&self) -> f64 {
        self.inner.units_per_mm() * self.scale
    }

    fn unit_suffix(&self) -> &'static str {
        self.inner.unit_suffix()
    }

    fn keeps_circles(&self) -> bool {
        self.inner.keeps_circles()
    }
}
