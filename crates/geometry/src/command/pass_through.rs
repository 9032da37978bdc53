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
use crate::convex::bases_box;
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::{BaseRef, Table, UnitKind};
use crate::ties::{TIE_MM, within};
use crate::vec2::Vec2;
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
///
/// A base's distance is the least from any of the loser's bases (closest points, each
/// measured when their boxes' separation allows it within `reach_mm` + 1, as
/// [`SpatialIndex::within_of_unit`] measures it). The bases near the loser are found in
/// one look at the index, and a base of an enemy or of no combat unit, or not wholly
/// between the rear lines, is passed over before it is measured.
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
    let query = reach_mm + 1.0;
    let Some((lo, hi)) = bases_box(&u.bases) else { return out };
    let grow = Vec2::new(query, query);
    let mut candidates: Vec<BaseRef> = index
        .candidates_in_box(lo - grow, hi + grow)
        .filter(|r| r.unit != loser && !index.are_enemies(loser, r.unit) && table.units[r.unit].is_combat())
        .collect();
    // In order, so that of a unit's bases as near the first is named.
    candidates.sort_unstable();
    for r in candidates {
        let Some(b) = table.base(r) else { continue };
        if !lines.frame.local_corners(b).iter().all(|p| p.x >= xl - TIE_MM && p.x <= xr + TIE_MM) {
            continue;
        }
        // The nearest of the loser's bases.
        let mut d = f64::INFINITY;
        for o in &u.bases {
            if o.separation(b) > query {
                continue;
            }
            let c = o.closest_points(b).distance_mm;
            if c <= query && c < d {
                d = c;
            }
        }
        if !within(d, reach_mm) || !lines.reaches_rear_zone(b) {
            continue;
        }
        let e = out.entry(r.unit).or_insert((f64::INFINITY, r));
        if d < e.0 {
            *e = (d, r);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain search: every base within reach of the loser's (the index's
    /// `within_of_unit`), then the tests.
    fn plain(
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
            if index.are_enemies(loser, n.base.unit)
                || !f.is_combat()
                || !within(n.closest.distance_mm, reach_mm)
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

    #[test]
    fn the_search_finds_what_the_plain_one_finds() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/grand-battle.json"))
                .expect("the grand battle sample");
        let table = Table::from_json_str(&text).expect("a table");
        let index = SpatialIndex::new(&table);
        let mut found = 0;
        for loser in 0..table.units.len() {
            for reach in [76.2, 152.4, 160.0] {
                let fast = pass_through_within(&table, &index, loser, reach);
                let bits = |m: &BTreeMap<usize, (f64, BaseRef)>| -> Vec<(usize, u64, BaseRef)> {
                    m.iter().map(|(&u, &(d, r))| (u, d.to_bits(), r)).collect()
                };
                assert_eq!(bits(&fast), bits(&plain(&table, &index, loser, reach)), "unit {loser}");
                found += fast.len();
            }
        }
        assert!(found > 100, "{found}");
    }
}
