//! Pass-through zones (000 §5.5 "Lose/Lose passage of lines"): "Infantry and artillery
//! losers will affect units within 3" to their rear (as measured between closest points
//! between units) and cavalry losers affect units within 6" to their rear ... Minimum
//! overlap required for this effect is one full combat base of the unit being passed
//! through."
//!
//! Reading: the loser's rear is its rear zone (between its rear lines, behind it:
//! [`FlankGeometry`]); a friendly combat unit is passed through when one of its bases
//! lies wholly between the loser's rear lines, reaches into the rear zone, and is within
//! the reach of the loser (closest points; exactly 3" is within).

use crate::assault::flank::FlankGeometry;
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::{BaseRef, Table, UnitKind};
use crate::ties::{TIE_MM, within};
use std::collections::BTreeMap;

/// The pass-through reach of a loser: 6" for cavalry, 3" for infantry and artillery;
/// `None` for other kinds.
pub fn pass_through_reach_mm(kind: UnitKind, book: &RuleBook) -> Result<Option<f64>, GeometryError> {
    Ok(match kind {
        UnitKind::Cavalry => Some(book.distance_mm(RuleDistance::PassThroughHorse)?),
        UnitKind::Infantry | UnitKind::Artillery => Some(book.distance_mm(RuleDistance::PassThroughFoot)?),
        _ => None,
    })
}

/// The friendly combat units in `loser`'s pass-through zone (unit index → closest
/// distance, mm).
pub fn pass_through(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    loser: usize,
) -> Result<BTreeMap<usize, f64>, GeometryError> {
    let Some(u) = table.units.get(loser) else { return Ok(BTreeMap::new()) };
    let Some(reach) = pass_through_reach_mm(u.kind, book)? else { return Ok(BTreeMap::new()) };
    Ok(pass_through_within(table, index, loser, reach).into_iter().map(|(u, (d, _))| (u, d)).collect())
}

/// [`pass_through`] with the reach given, mm (the rule's reach or more, to find units
/// just outside it): each friendly combat unit with a base wholly between the loser's
/// rear lines, reaching into its rear zone, within `reach_mm`, with the distance and
/// that base.
#[must_use]
pub fn pass_through_within(
    table: &Table,
    index: &SpatialIndex,
    loser: usize,
    reach_mm: f64,
) -> BTreeMap<usize, (f64, BaseRef)> {
    let mut out: BTreeMap<usize, (f64, BaseRef)> = BTreeMap::new();
    let Some(u) = table.units.get(loser) else { return out };
    let Some(lines) = FlankGeometry::of(&u.bases) else { return out };
    let (xl, xr) = (lines.rear_left.x, lines.rear_right.x);
    for n in index.within_of_unit(loser, reach_mm + 1.0) {
        let f = &table.units[n.base.unit];
        if index.are_enemies(loser, n.base.unit) || !f.is_combat() || !within(n.closest.distance_mm, reach_mm)
        {
            continue;
        }
        let Some(b) = table.base(n.base) else { continue };
        let wholly_between =
            lines.frame.local_corners(b).iter().all(|p| p.x >= xl - TIE_MM && p.x <= xr + TIE_MM);
        if wholly_between && lines.reaches_rear_zone(b) {
            let e = out.entry(n.base.unit).or_insert((f64::INFINITY, n.base));
            if n.closest.distance_mm < e.0 {
                *e = (n.closest.distance_mm, n.base);
            }
        }
    }
    out
}
