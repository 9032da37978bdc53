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

use crate::base::Base;
use crate::index::SpatialIndex;
use crate::table::{BaseRef, Table, UnitKind};
use crate::vec2::Vec2;
use std::collections::{BTreeMap, HashMap};

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

/// How much a base pair's separation ([`crate::Base::separation`], a lower bound of its
/// distance) may exceed its measured distance, mm: rounding only. A pair whose
/// separation is beyond the closest distance so far by more is farther, and is passed
/// over unmeasured.
const SEPARATION_MARGIN_MM: f64 = 1e-6;

/// Each unit's side and division as numbers (divisions numbered in the order of their
/// names), and whether it counts as a unit here ([`counts`]): what the pair searches
/// compare instead of names.
struct UnitKeys<'t> {
    side: Vec<usize>,
    division: Vec<Option<usize>>,
    counts: Vec<bool>,
    /// The divisions' names, by number.
    names: Vec<&'t str>,
}

impl<'t> UnitKeys<'t> {
    fn of(table: &'t Table) -> Self {
        let mut names: Vec<&str> = table.units.iter().filter_map(|u| u.division.as_deref()).collect();
        names.sort_unstable();
        names.dedup();
        let mut sides: Vec<&str> = table.units.iter().map(|u| u.side.as_str()).collect();
        sides.sort_unstable();
        sides.dedup();
        UnitKeys {
            side: table.units.iter().map(|u| sides.binary_search(&u.side.as_str()).unwrap_or(0)).collect(),
            division: table
                .units
                .iter()
                .map(|u| u.division.as_deref().and_then(|d| names.binary_search(&d).ok()))
                .collect(),
            counts: table.units.iter().map(|u| counts(u.kind)).collect(),
            names,
        }
    }
}

/// Every pair of bases (the lower reference first) of units that `keep` accepts whose
/// boxes come within `reach_mm` and whose separation is not beyond it, with that
/// separation: the candidates of [`SpatialIndex::pairs_within_where`], in no order.
fn candidate_pairs<'a>(
    table: &'a Table,
    index: &'a SpatialIndex,
    reach_mm: f64,
    keep: &'a impl Fn(usize, usize) -> bool,
) -> impl Iterator<Item = (BaseRef, &'a Base, BaseRef, &'a Base, f64)> + 'a {
    let grow = Vec2::new(reach_mm, reach_mm);
    table.bases().flat_map(move |(r, b)| {
        let (lo, hi) = b.aabb();
        index.candidates_in_box(lo - grow, hi + grow).filter_map(move |o| {
            if o <= r || !keep(r.unit, o.unit) {
                return None;
            }
            let ob = table.base(o)?;
            let separation = b.separation(ob);
            if separation > reach_mm { None } else { Some((r, b, o, ob, separation)) }
        })
    })
}

/// Every pair of friendly divisions within `reach_mm` of each other, sorted by name.
///
/// Each pair's closest units are the closest of all pairs of their bases (the lowest
/// unit indices on a tie); a pair of bases whose separation is beyond the closest
/// distance of their divisions so far (by more than rounding) cannot be closer, and is
/// not measured.
#[must_use]
pub fn division_gaps(table: &Table, index: &SpatialIndex, reach_mm: f64) -> Vec<DivisionGap> {
    let keys = UnitKeys::of(table);
    let friends = |a: usize, b: usize| {
        matches!((keys.division[a], keys.division[b]), (Some(da), Some(db)) if da != db)
            && keys.side[a] == keys.side[b]
            && keys.counts[a]
            && keys.counts[b]
    };
    let mut best: HashMap<(usize, usize), Closest> = HashMap::new();
    for (ra, a, rb, b, separation) in candidate_pairs(table, index, reach_mm, &friends) {
        let (Some(da), Some(db)) = (keys.division[ra.unit], keys.division[rb.unit]) else { continue };
        let (key, units) =
            if da < db { ((da, db), (ra.unit, rb.unit)) } else { ((db, da), (rb.unit, ra.unit)) };
        if best.get(&key).is_some_and(|e| separation > e.0 + SEPARATION_MARGIN_MM) {
            continue;
        }
        let d = a.distance(b);
        if d <= reach_mm {
            let e = best.entry(key).or_insert((f64::INFINITY, units));
            if d < e.0 || (d == e.0 && units < e.1) {
                *e = (d, units);
            }
        }
    }
    let mut gaps: Vec<((usize, usize), Closest)> = best.into_iter().collect();
    gaps.sort_unstable_by_key(|&(key, _)| key);
    gaps.into_iter()
        .map(|((a, b), (distance_mm, units))| DivisionGap {
            a: keys.names[a].to_string(),
            b: keys.names[b].to_string(),
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
    let keys = UnitKeys::of(table);
    let enemies = |a: usize, b: usize| {
        keys.side[a] != keys.side[b]
            && keys.counts[a]
            && keys.counts[b]
            && (keys.division[a].is_some() || keys.division[b].is_some())
    };
    // Each division's closest so far (infinite: none yet).
    let mut best: Vec<Closest> = vec![(f64::INFINITY, (usize::MAX, usize::MAX)); keys.names.len()];
    for (ra, a, rb, b, separation) in candidate_pairs(table, index, reach_mm, &enemies) {
        let sides =
            [(keys.division[ra.unit], (ra.unit, rb.unit)), (keys.division[rb.unit], (rb.unit, ra.unit))];
        // Measured only when it may be the closest for one of the two divisions.
        let wanted = |(d, _): &(Option<usize>, (usize, usize))| {
            d.is_some_and(|d| separation <= best[d].0 + SEPARATION_MARGIN_MM)
        };
        if !sides.iter().any(wanted) {
            continue;
        }
        let d = a.distance(b);
        if d <= reach_mm {
            for (division, units) in sides {
                let Some(k) = division else { continue };
                let e = &mut best[k];
                if d < e.0 || (d == e.0 && units < e.1) {
                    *e = (d, units);
                }
            }
        }
    }
    keys.names
        .iter()
        .zip(best)
        .filter(|(_, (_, units))| units.0 != usize::MAX)
        .map(|(name, e)| ((*name).to_string(), e))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain searches: every pair of bases within reach (the index's
    /// `pairs_within_where`), each measured.
    fn plain_gaps(table: &Table, index: &SpatialIndex, reach_mm: f64) -> Vec<DivisionGap> {
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

    fn plain_enemies(table: &Table, index: &SpatialIndex, reach_mm: f64) -> BTreeMap<String, Closest> {
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

    #[test]
    fn the_searches_find_what_the_plain_ones_find() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples");
        let mut found = 0;
        for entry in std::fs::read_dir(dir).expect("the samples") {
            let path = entry.expect("a sample").path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let Ok(table) = Table::load(&path) else { continue };
            let index = SpatialIndex::new(&table);
            for reach in [0.0, 25.4, 76.2, 152.4, 203.2, 400.0] {
                let gaps = division_gaps(&table, &index, reach);
                let plain = plain_gaps(&table, &index, reach);
                let bits = |g: &[DivisionGap]| -> Vec<(String, String, u64, (usize, usize))> {
                    g.iter().map(|g| (g.a.clone(), g.b.clone(), g.distance_mm.to_bits(), g.units)).collect()
                };
                assert_eq!(bits(&gaps), bits(&plain), "{path:?} {reach}");
                let enemies = nearest_enemies_of_divisions(&table, &index, reach);
                let bits = |m: &BTreeMap<String, Closest>| -> Vec<(String, u64, (usize, usize))> {
                    m.iter().map(|(d, &(mm, u))| (d.clone(), mm.to_bits(), u)).collect()
                };
                assert_eq!(bits(&enemies), bits(&plain_enemies(&table, &index, reach)), "{path:?} {reach}");
                found += gaps.len() + enemies.len();
            }
        }
        assert!(found > 500, "{found}");
    }
}
