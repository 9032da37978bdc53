//! Close calls of a battery's target verdicts (issue 17, [`crate::close_call`]): how
//! far its range is from the nearest bracket edge or the maximum range, and how far
//! its deciding base is from holding half its area in the arc, and how far the nearest
//! enemy is from the unlimber limit.

use crate::artillery::battery::Battery;
use crate::artillery::range::bracket_far_edge_mm;
use crate::artillery::targets::TargetAssessment;
use crate::artillery::unlimber::UnlimberCheck;
use crate::close_call::{CloseCall, distance_call, line_call, segment_to_base};
use crate::index::SpatialIndex;
use crate::segment::ClosestPoints;
use crate::table::{BaseRef, Table};

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

/// The close call of "half or more of one of its bases inside the arc": the base with
/// the largest fraction inside decides; a rectangle is cut in half by any line through
/// its centre, so the fraction crosses one half when the centre crosses the arc side
/// nearest it, and the margin is the centre's distance to that side's line. (When
/// another of its bases also holds half, this margin is a lower bound.)
#[must_use]
pub fn arc_call(table: &Table, battery: &Battery, t: &TargetAssessment) -> Option<CloseCall> {
    let (r, base) = t
        .bases
        .iter()
        .filter_map(|&i| {
            let r = BaseRef::new(t.unit, i);
            table.base(r).map(|b| (r, b))
        })
        .max_by(|a, b| {
            battery.arc.fraction_of_base_inside(a.1).total_cmp(&battery.arc.fraction_of_base_inside(b.1))
        })?;
    let cone = battery.arc.cone();
    let c = base.centre();
    let sides = [(cone.frontage.a, cone.left_direction), (cone.frontage.b, cone.right_direction)];
    let (origin, dir) =
        sides.into_iter().min_by(|a, b| a.1.cross(c - a.0).abs().total_cmp(&b.1.cross(c - b.0).abs()))?;
    Some(line_call(table, r, c, battery.base_ref, origin, dir))
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
