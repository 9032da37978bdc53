//! The massed-battery bombardment box (004 §19.6): "A bombardment zone is formed parallel
//! to the battery frontage and extending out to either side of the target point. The
//! width of the bombardment zone is the same as the frontage of the Battery and extends
//! 150mm (90mm for 15mm gaming) away from the Battery forming a box."
//!
//! The box is as wide as the battery's face, centred across on the declared point, and
//! runs from the point 150 mm (90) further away from the battery. (GEOMETRY.md says
//! "centred on the declared point"; the seed centres it only across, "out to either side
//! of the target point", and extends it "away from the Battery": the seed is followed.)
//! The crest-line and maximum-range limits need hills and the gun chart, which are not
//! here.

use crate::error::GeometryError;
use crate::frame::UnitFrame;
use crate::polygon::ConvexPolygon;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::{Table, Unit};
use crate::vec2::Vec2;

/// The bombardment box of a battery (all its stands: their face is the frontage) aimed
/// at `point`; `None` for a battery with no bases.
///
/// ```
/// use vedette_geometry::{RuleBook, RuleSet, Scale, Table, Vec2};
/// use vedette_geometry::pro_patria::bombardment::bombardment_box;
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"pro-patria","scale":"28mm",
///   "units":[{"id":"b","side":"fr","kind":"artillery","formation":"unlimbered","bases":[
///     {"x":-20,"y":0,"heading":90,"width":40,"depth":60},{"x":20,"y":0,"heading":90,"width":40,"depth":60}]}]}"#)?;
/// let b = bombardment_box(&t.units[0], Vec2::new(0.0, 500.0), &t.rule_book()?)?.unwrap();
/// assert!((b.area() - 80.0 * 150.0).abs() < 1e-6);
/// assert!(b.contains(Vec2::new(39.0, 640.0)) && !b.contains(Vec2::new(0.0, 499.0)));
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub fn bombardment_box(
    battery: &Unit,
    point: Vec2,
    book: &RuleBook,
) -> Result<Option<ConvexPolygon>, GeometryError> {
    let depth = book.distance_mm(RuleDistance::BombardmentDepth)?;
    let Some(frame) = UnitFrame::of(&battery.bases) else { return Ok(None) };
    let front = battery.front_bases();
    let (mut l, mut r) = (f64::INFINITY, f64::NEG_INFINITY);
    for &i in &front {
        let c = battery.bases[i].corners();
        for p in [c.front_left, c.front_right] {
            let x = frame.to_local(p).x;
            l = l.min(x);
            r = r.max(x);
        }
    }
    let half = (r - l) / 2.0;
    let (right, fwd) = (frame.right(), frame.forward);
    let a = point - right * half;
    let b = point + right * half;
    Ok(Some(ConvexPolygon::from_ccw_unchecked(vec![a, b, b + fwd * depth, a + fwd * depth])))
}

/// The units with any part inside a box (unit indices, sorted).
#[must_use]
pub fn units_in(table: &Table, area: &ConvexPolygon) -> Vec<usize> {
    table
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.bases.iter().any(|b| area.intersection(&b.polygon()).area() > 0.0))
        .map(|(i, _)| i)
        .collect()
}
