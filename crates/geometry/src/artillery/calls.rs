//! Close calls of a battery's target verdicts (issue 17, [`crate::close_call`]): how
//! far its range is from the nearest bracket edge or the maximum range, and how far
//! its deciding base is from holding half its area in the arc, and how far the nearest
//! enemy is from the unlimber limit; the firing zone's ([`zone_calls`]) and the line of
//! sight's ([`sight_call`]).

use crate::artillery::artillery_rules::ArtilleryRules;
use crate::artillery::assessment::BatteryAssessment;
use crate::artillery::battery::Battery;
use crate::artillery::enfilade::{EnfiladeVerdict, enfilade_zone, nearest_flanks};
use crate::artillery::range::bracket_far_edge_mm;
use crate::artillery::targets::TargetAssessment;
use crate::artillery::unlimber::UnlimberCheck;
pub use crate::artillery::zone_calls::{ZoneCalls, zone_calls};
use crate::base::Base;
use crate::close_call::Party;
use crate::close_call::{CloseCall, distance_call, line_call, segment_to_base};
use crate::convex::point_distance_2;
use crate::error::GeometryError;
use crate::frame::UnitBox;
use crate::index::SpatialIndex;
use crate::los::crew::Crew;
use crate::los::local_calls::full_base_sight_call;
use crate::segment::ClosestPoints;
use crate::table::{BaseRef, Table};
use crate::vec2::Vec2;

/// The close call of a target's range: `range_mm` against the nearest of its bracket's
/// near and far edges and the battery's maximum range, with that limit, mm. The range
/// runs from the battery's frontage to the target's nearest base (the part of it in
/// the arc); the deciding points are the closest points of the frontage and that base.
#[must_use]
pub fn range_call(
    table: &Table,
    battery: &Battery,
    bracket_mm: f64,
    t: &TargetAssessment,
) -> Option<(f64, CloseCall)> {
    let near = bracket_far_edge_mm(t.bracket.saturating_sub(1), bracket_mm);
    let far = bracket_far_edge_mm(t.bracket, bracket_mm);
    let limit = [near, far, battery.max_range_mm]
        .into_iter()
        .filter(|&l| l > 0.0)
        .min_by(|a, b| (a - t.range_mm).abs().total_cmp(&(b - t.range_mm).abs()))?;
    let target = table.base(t.nearest_base)?;
    let c = segment_to_base(&battery.frontage.edge, target);
    let c = ClosestPoints { distance_mm: t.range_mm, ..c };
    Some((limit, distance_call(table, battery.base_ref, t.nearest_base, &c, limit)))
}

/// The close call of "half or more of one of its bases inside the arc". A rectangle is
/// cut in half by any line through its centre, so a base's fraction inside crosses one
/// half when its centre crosses the arc side nearest it: a base's own margin is its
/// centre's distance to that side's line. The verdict flips when every base holding
/// half has lost it (in: the holding base deepest inside decides, its margin the
/// largest) or when one base gains it (not in: the base nearest to holding half
/// decides).
///
/// The deciding base is chosen by that distance, never by its fraction inside: the
/// fractions of bases wholly inside are all one, up to rounding that depends on where
/// the table lies, and a choice among them by fraction moved margins by tens of
/// millimetres when the whole table moved by one (issue 41 item 2).
#[must_use]
pub fn arc_call(table: &Table, battery: &Battery, t: &TargetAssessment) -> Option<CloseCall> {
    let cone = battery.arc.cone();
    let sides = [(cone.frontage.a, cone.left_direction, -1.0), (cone.frontage.b, cone.right_direction, 1.0)];
    // A point's signed distance inside the side `s` (positive on the arc's side of it).
    let inside = |s: &(Vec2, Vec2, f64), p: Vec2| s.2 * s.1.cross(p - s.0) / s.1.length();
    let holding = |b: &Base| !t.half_base_in_arc || battery.arc.holds_half_of(b);
    let (r, c, side, _) = t
        .bases
        .iter()
        .filter_map(|&i| {
            let r = BaseRef::new(t.unit, i);
            table.base(r).filter(|b| holding(b)).map(|b| (r, b.centre()))
        })
        .filter_map(|(r, c)| {
            let nearest = sides.iter().min_by(|a, b| inside(a, c).total_cmp(&inside(b, c)))?;
            Some((r, c, nearest, inside(nearest, c)))
        })
        .max_by(|a, b| a.3.total_cmp(&b.3))?;
    Some(line_call(table, r, c, battery.base_ref, side.0, side.1))
}

/// How far past the unlimber limit the nearest enemy is looked for, mm: an enemy
/// farther than this beyond the limit leaves no close call.
pub const UNLIMBER_CALL_REACH_MM: f64 = 25.4;

/// The close call of the unlimber limit (000 §3.6): the nearest enemy combat base to
/// battery `r` against the side's limit, with the limit, mm. `None` without a system,
/// or when no enemy combat base is within the limit and [`UNLIMBER_CALL_REACH_MM`].
#[must_use]
pub fn unlimber_call(
    table: &Table,
    index: &SpatialIndex<'_>,
    r: BaseRef,
    check: &UnlimberCheck,
) -> Option<(f64, CloseCall)> {
    let limit = check.limit_mm?;
    let nearest = index
        .within_of_base(r, limit + UNLIMBER_CALL_REACH_MM)
        .into_iter()
        .filter(|n| index.are_enemies(r.unit, n.base.unit) && table.units[n.base.unit].is_combat())
        .min_by(|a, b| a.closest.distance_mm.total_cmp(&b.closest.distance_mm))?;
    Some((limit, distance_call(table, r, nearest.base, &nearest.closest, limit)))
}

/// How far behind a zone's frontage the zone is cut off to measure a point's distance to
/// it, mm (a table is metres across: as good as unbounded).
const ZONE_DEPTH_MM: f64 = 1e5;

/// The close call of "fire in enfilade" (000 §4.4: the battery's frontage entirely
/// within the target's enfilade zone on its flank nearest the battery), with the arc's
/// side angle `side_deg`:
/// - in enfilade: the frontage end nearest the zone's boundary, its distance to it
///   (moving that end out flips the verdict);
/// - not: the frontage end farthest from the zone, its distance to it (both ends must
///   enter; a lower bound on the battery's move).
///
/// `None` for a target enfiladed by its formation (square, breakthrough column: no
/// geometry decides it) or without bases. The parties are the battery's base (the
/// deciding end is on its frontage) and the target's base nearest the battery, each with
/// its half diagonal as the lever.
#[must_use]
pub fn enfilade_call(
    table: &Table,
    battery: &Battery,
    t: &TargetAssessment,
    side_deg: f64,
) -> Option<CloseCall> {
    if matches!(t.enfilade, EnfiladeVerdict::Standing(_)) {
        return None;
    }
    let target = table.units.get(t.unit)?;
    let frame = UnitBox::of(&target.bases)?;
    let front = battery.frontage.edge;
    let ends = [front.a, front.b];
    // Each nearest flank's zone (two when the battery is as near both): in enfilade, the
    // zone that holds the frontage; otherwise the one the frontage is nearest to entering.
    let per_flank: Vec<(bool, f64)> = nearest_flanks(&frame, &front)
        .into_iter()
        .map(|flank| {
            let zone = enfilade_zone(&frame, flank, side_deg);
            if zone.contains_segment(&front) {
                let depth = |p: Vec2| {
                    zone.half_planes().iter().map(|h| h.signed_distance(p)).fold(f64::INFINITY, f64::min)
                };
                (true, ends.into_iter().map(depth).fold(f64::INFINITY, f64::min).max(0.0))
            } else {
                let poly = zone.polygon(ZONE_DEPTH_MM);
                let outside = |p: Vec2| point_distance_2(p, poly.vertices()).sqrt();
                (false, ends.into_iter().map(outside).fold(0.0, f64::max))
            }
        })
        .collect();
    // In enfilade: every zone that holds the frontage must be left (the largest margin);
    // not: entering either zone flips it (the least).
    let holding = per_flank.iter().filter(|f| f.0).map(|f| f.1).reduce(f64::max);
    let margin = match holding {
        Some(m) => m,
        None => per_flank.iter().map(|f| f.1).reduce(f64::min)?,
    };
    let tb = target
        .bases
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.distance(&battery.base).total_cmp(&b.1.distance(&battery.base)))?;
    let parties = [
        Party::anywhere(battery.base_ref, &battery.base, None),
        Party::anywhere(BaseRef::new(t.unit, tb.0), tb.1, None),
    ];
    Some(CloseCall::new(table, margin, &parties))
}

/// The close call of a target's `line_of_sight` (000 §4.2: the battery sees a full base
/// of it from its frontage): every base grown or shrunk against the verdict on the
/// table around the battery and the target's bases in the arc
/// ([`crate::los::local_calls::full_base_sight_call`]).
///
/// # Errors
/// When the table's terrain cannot be modelled.
pub fn sight_call(
    table: &Table,
    index: &SpatialIndex<'_>,
    battery: &Battery,
    t: &TargetAssessment,
) -> Result<CloseCall, GeometryError> {
    let targets: Vec<BaseRef> = t.bases.iter().map(|&i| BaseRef::new(t.unit, i)).collect();
    full_base_sight_call(
        table,
        index,
        battery.base_ref,
        battery.eye(),
        battery.forward(),
        &targets,
        t.line_of_sight,
    )
}

/// The firing zone's close calls and each target's sight call for every battery of
/// `found` (in its order), shared among `threads` threads (0: every core; the answers
/// do not depend on the number).
///
/// # Errors
/// When the table's terrain cannot be modelled.
pub fn battery_calls(
    table: &Table,
    index: &SpatialIndex<'_>,
    rules: &ArtilleryRules,
    found: &[BatteryAssessment],
    threads: usize,
) -> Result<Vec<(ZoneCalls, Vec<CloseCall>)>, GeometryError> {
    Crew::map(threads, found.len(), |i| {
        let a = &found[i];
        let sights: Result<Vec<CloseCall>, GeometryError> =
            a.targets.iter().map(|t| sight_call(table, index, &a.battery, t)).collect();
        sights.map(|s| (zone_calls(table, index, rules, a), s))
    })
    .into_iter()
    .collect()
}
