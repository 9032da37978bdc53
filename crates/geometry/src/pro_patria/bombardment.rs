//! The massed-battery bombardment box (004 §19.6): "A bombardment zone is formed parallel
//! to the battery frontage and extending out to either side of the target point. The
//! width of the bombardment zone is the same as the frontage of the Battery and extends
//! 150mm (90mm for 15mm gaming) away from the Battery forming a box."
//!
//! The box is as wide as the battery's face, centred across on the declared point, and
//! runs from the point 150 mm (90) further away from the battery. (GEOMETRY.md says
//! "centred on the declared point"; the seed centres it only across, "out to either side
//! of the target point", and extends it "away from the Battery": the seed is followed.)
//! "The bombardment zone does not extend over the crest of a hill": where a hill's crest
//! line ([`super::crest::hill_crests`]: drawn in the table file, each segment of a drawn
//! polyline on its own, or derived from the outline) meets the box running across the line of fire (within 45° of
//! the battery's frontage: a crest the shot would pass over, not one it runs along), the
//! box is cut along that line and the part on the far side from the battery is left
//! out ([`bombardment_zone`]); a crest between the battery and the box leaves nothing. The maximum-range
//! limit needs the gun chart, which is not in a table.

use super::crest::{CrestLine, hill_crests};
use crate::error::GeometryError;
use crate::frame::UnitFrame;
use crate::polygon::ConvexPolygon;
use crate::polygon::HalfPlane;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::{Table, Unit};
use crate::terrain::TerrainKind;
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

/// A battery's bombardment zone aimed at a point, cut at the crests of hills.
#[derive(Debug, Clone, PartialEq)]
pub struct BombardmentZone {
    /// The zone (empty when a crest lies between the battery and the point).
    pub area: ConvexPolygon,
    /// The hills (terrain indices) whose crest cut it.
    pub cut_by: Vec<usize>,
    /// Every unit with any part inside, friend or foe ("every unit within the
    /// bombardment zone regardless of target classification"), the battery excepted.
    pub units: Vec<usize>,
}

/// Refuses a unit that is no artillery where a battery must fire: `why` says what fires.
pub(crate) fn artillery_only(unit: &crate::table::Unit, why: &str) -> Result<(), GeometryError> {
    if unit.kind == crate::table::UnitKind::Artillery {
        return Ok(());
    }
    Err(GeometryError::WrongKind {
        unit: unit.id.clone(),
        kind: unit.kind.name().to_string(),
        reason: why.to_string(),
    })
}

/// The bombardment zone of battery `battery` (a unit index) aimed at `point` (004 §19.6);
/// `None` for a unit with no bases.
///
/// # Errors
/// [`GeometryError::WrongKind`] when `battery` is no artillery (issue 41 item 7: an
/// infantry battalion was taken for a battery).
///
/// ```
/// use vedette_geometry::{Table, Vec2};
/// use vedette_geometry::pro_patria::bombardment::bombardment_zone;
/// // A 600 x 80 hill whose spine, y = 600, crosses the box (y from 500 to 650).
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"pro-patria","scale":"28mm",
///   "units":[{"id":"b","side":"fr","kind":"artillery","formation":"unlimbered","bases":[
///     {"x":-20,"y":0,"heading":90,"width":40,"depth":60},{"x":20,"y":0,"heading":90,"width":40,"depth":60}]}],
///   "terrain":[{"kind":"hill","level":1,"outline":[[-300,560],[300,560],[300,640],[-300,640]]}]}"#)?;
/// let z = bombardment_zone(&t, 0, Vec2::new(0.0, 500.0), &t.rule_book()?)?.unwrap();
/// assert!((z.area.area() - 80.0 * 100.0).abs() < 1e-6);
/// assert_eq!(z.cut_by, vec![0]);
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub fn bombardment_zone(
    table: &Table,
    battery: usize,
    point: Vec2,
    book: &RuleBook,
) -> Result<Option<BombardmentZone>, GeometryError> {
    let Some(unit) = table.units.get(battery) else { return Ok(None) };
    artillery_only(unit, "the massed-battery bombardment (004 §19.6) is fired by artillery")?;
    let Some(mut area) = bombardment_box(unit, point, book)? else { return Ok(None) };
    let Some(frame) = UnitFrame::of(&unit.bases) else { return Ok(None) };
    let from = frame.origin;
    // The ground the shot crosses: from the battery's front to the far side of the box.
    let mut swept: Vec<Vec2> = area.vertices().to_vec();
    for b in &unit.bases {
        let c = b.corners();
        swept.extend([c.front_left, c.front_right]);
    }
    let swept = ConvexPolygon::hull(&swept);
    let mut cut_by = Vec::new();
    for (k, f) in table.terrain.iter().enumerate() {
        if f.kind != TerrainKind::Hill {
            continue;
        }
        for line in hill_crests(f).iter().flat_map(CrestLine::segments) {
            let across = (line.b - line.a)
                .normalized()
                .is_some_and(|d| d.dot(frame.forward).abs() < d.dot(frame.right()).abs());
            if area.is_empty() || !across || !crate::convex::segment_meets(swept.vertices(), &line) {
                continue;
            }
            // Keep the battery's side of the crest's line.
            let d = line.b - line.a;
            let side = d.cross(from - line.a);
            if side == 0.0 {
                continue;
            }
            let keep = if side > 0.0 {
                HalfPlane::left_of(line.a, line.b)
            } else {
                HalfPlane::left_of(line.b, line.a)
            };
            area = area.clipped(&keep);
            if !cut_by.contains(&k) {
                cut_by.push(k);
            }
        }
    }
    let units = if area.is_empty() {
        Vec::new()
    } else {
        units_in(table, &area).into_iter().filter(|&u| u != battery).collect()
    };
    Ok(Some(BombardmentZone { area, cut_by, units }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The doctest's battery and 600 x 80 hill (derived spine y = 600), with `crests`.
    fn table(crests: &str) -> Table {
        Table::from_json_str(&format!(
            r#"{{"schema":"vedette/table/1","rules":"pro-patria","scale":"28mm",
            "units":[{{"id":"b","side":"fr","kind":"artillery","formation":"unlimbered","bases":[
              {{"x":-20,"y":0,"heading":90,"width":40,"depth":60}},{{"x":20,"y":0,"heading":90,"width":40,"depth":60}}]}}],
            "terrain":[{{"kind":"hill","level":1,"outline":[[-300,560],[300,560],[300,640],[-300,640]],
              "crests":{crests}}}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn a_hand_drawn_crest_cuts_the_box_instead_of_the_derived_spine() {
        // Issue 16, 004 §15.1 / §19.6: the box runs y = 500 to 650, 80 wide.
        let area = |crests: &str| {
            let t = table(crests);
            let z = bombardment_zone(&t, 0, Vec2::new(0.0, 500.0), &t.rule_book().unwrap()).unwrap().unwrap();
            (z.area.area(), z.cut_by)
        };
        // No drawn crests: the derived spine cuts at y = 600.
        let (a, cut) = area("[]");
        assert!((a - 80.0 * 100.0).abs() < 1e-6 && cut == vec![0], "{a}");
        // A drawn crest at y = 620 (two segments, bent at x = 0) cuts there.
        let (a, cut) = area("[[[-300,620],[0,620],[300,620]]]");
        assert!((a - 80.0 * 120.0).abs() < 1e-6 && cut == vec![0], "{a}");
        // A drawn crest along the line of fire is not passed over: no cut.
        let (a, cut) = area("[[[0,565],[0,635]]]");
        assert!((a - 80.0 * 150.0).abs() < 1e-6 && cut.is_empty(), "{a}");
    }
}
