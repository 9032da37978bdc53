//! Distances between divisions and to the enemy (000 §3.3, §6.2; 002 §5.2).
//!
//! - "one or more other friendly divisions within 6" (as measured between nearest points
//!   between closest units)" act together (§3.3);
//! - "Divisions are considered adjoining if the closest points of their closest units are
//!   within 3" of each other, or within line of sight, whichever is less" (§6.2; classic
//!   8 cm, 002 §5.2). Each gap names its closest units ([`DivisionGap::units`]) so that
//!   the line-of-sight clause can be decided on them
//!   ([`crate::command::assessment::assess_command`]: adjoining when within the distance
//!   and the closest units see each other);
//! - "Once any units of a division move to within eight inches (8") of enemy units" the
//!   division is in engagement range (§3.3).
//!
//! A division's units are its combat units and skirmish markers (leaders and limbers are
//! not "units" for these tests: the project's reading); enemies likewise.

use crate::index::SpatialIndex;
use crate::table::{Table, UnitKind};
use std::collections::BTreeMap;

/// Two divisions of one side and the closest distance between their units.
#[derive(Debug, Clone, PartialEq)]
pub struct DivisionGap {
    /// The first division (alphabetically).
    pub a: String,
    /// The second.
    pub b: String,
    /// Closest point to closest point, mm.
    pub distance_mm: f64,
    /// The closest units: one of division `a`, one of division `b` (unit indices; the
    /// lowest indices on a tie).
    pub units: (usize, usize),
}

/// The closest pair found so far: distance, mm, and the two units.
type Closest = (f64, (usize, usize));

fn counts(kind: UnitKind) -> bool {
    kind.is_combat() || kind == UnitKind::Skirmisher
}

/// Every pair of friendly divisions within `reach_mm` of each other, sorted by name.
#[must_use]
pub fn division_gaps(table: &Table, index: &SpatialIndex, reach_mm: f64) -> Vec<DivisionGap> {
    let mut best: BTreeMap<(&str, &str), Closest> = BTreeMap::new();
    let friends = |a: usize, b: usize| {
        let (ua, ub) = (&table.units[a], &table.units[b]);
        matches!((&ua.division, &ub.division), (Some(da), Some(db)) if da != db)
            && ua.side == ub.side
            && counts(ua.kind)
            && counts(ub.kind)
    };
    for p in index.pairs_within_where(reach_mm, friends) {
        let (ua, ub) = (&table.units[p.a.unit], &table.units[p.b.unit]);
        let (Some(da), Some(db)) = (ua.division.as_deref(), ub.division.as_deref()) else { continue };
        let (key, units) =
            if da < db { ((da, db), (p.a.unit, p.b.unit)) } else { ((db, da), (p.b.unit, p.a.unit)) };
        let e = best.entry(key).or_insert((f64::INFINITY, units));
        if p.distance_mm < e.0 || (p.distance_mm == e.0 && units < e.1) {
            *e = (p.distance_mm, units);
        }
    }
    best.into_iter()
        .map(|((a, b), (distance_mm, units))| DivisionGap {
            a: a.to_string(),
            b: b.to_string(),
            distance_mm,
            units,
        })
        .collect()
}

/// The closest enemy to each division within `reach_mm` (division name → distance, mm);
/// divisions with no enemy that close are absent.
#[must_use]
pub fn nearest_enemy_of_divisions(
    table: &Table,
    index: &SpatialIndex,
    reach_mm: f64,
) -> BTreeMap<String, f64> {
    nearest_enemies_of_divisions(table, index, reach_mm).into_iter().map(|(d, (mm, _))| (d, mm)).collect()
}

/// [`nearest_enemy_of_divisions`] with the closest units: division name → (distance,
/// mm; (the division's unit, the enemy unit)), the lowest indices on a tie.
#[must_use]
pub fn nearest_enemies_of_divisions(
    table: &Table,
    index: &SpatialIndex,
    reach_mm: f64,
) -> BTreeMap<String, (f64, (usize, usize))> {
    let mut out: BTreeMap<&str, Closest> = BTreeMap::new();
    let enemies = |a: usize, b: usize| {
        let (ua, ub) = (&table.units[a], &table.units[b]);
        ua.side != ub.side
            && counts(ua.kind)
            && counts(ub.kind)
            && (ua.division.is_some() || ub.division.is_some())
    };
    for p in index.pairs_within_where(reach_mm, enemies) {
        let (ua, ub) = (&table.units[p.a.unit], &table.units[p.b.unit]);
        for (d, units) in [(&ua.division, (p.a.unit, p.b.unit)), (&ub.division, (p.b.unit, p.a.unit))] {
            let Some(d) = d else { continue };
            let e = out.entry(d.as_str()).or_insert((f64::INFINITY, units));
            if p.distance_mm < e.0 || (p.distance_mm == e.0 && units < e.1) {
                *e = (p.distance_mm, units);
            }
        }
    }
    out.into_iter().map(|(d, e)| (d.to_string(), e)).collect()
}
