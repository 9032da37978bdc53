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
    let mut out = BTreeMap::new();
    let Some(u) = table.units.get(loser) else { return Ok(out) };
    let Some(reach) = pass_through_reach_mm(u.kind, book)? else { return Ok(out) };
    let Some(lines) = FlankGeometry::of(&u.bases) else { return Ok(out) };
    let (xl, xr) = (lines.rear_left.x, lines.rear_right.x);
    for n in index.within_of_unit(loser, reach + 1.0) {
        let f = &table.units[n.base.unit];
        if index.are_enemies(loser, n.base.unit) || !f.is_combat() || !within(n.closest.distance_mm, reach) {
            continue;
        }
        let Some(b) = table.base(BaseRef::new(n.base.unit, n.base.base)) else { continue };
        let wholly_between =
            lines.frame.local_corners(b).iter().all(|p| p.x >= xl - TIE_MM && p.x <= xr + TIE_MM);
        if wholly_between && lines.reaches_rear_zone(b) {
            let e = out.entry(n.base.unit).or_insert(f64::INFINITY);
            *e = f64::min(*e, n.closest.distance_mm);
        }
    }
    Ok(out)
}
