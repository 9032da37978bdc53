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

use super::unit_pairs::{BOUND_MARGIN_MM, base_pairs, unit_pairs};
use crate::index::SpatialIndex;
use crate::table::{Table, UnitKind};
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

/// Every pair of friendly divisions within `reach_mm` of each other, sorted by name.
///
/// Each pair's closest units are the closest of all pairs of their bases within reach
/// (the lowest unit indices on a tie), the base pairs of the index's pair search
/// ([`SpatialIndex::pairs_within_where`]). They are taken unit pair by unit pair, the
/// nearest boxes first ([`super::unit_pairs`]); a unit pair whose boxes, or a base pair
/// whose separation, lie beyond the closest distance of their divisions so far (by more
/// than rounding) cannot be closer, and is not measured. (The units' boxes have their
/// own tree: `_index` is not asked.)
#[must_use]
pub fn division_gaps(table: &Table, _index: &SpatialIndex, reach_mm: f64) -> Vec<DivisionGap> {
    let keys = UnitKeys::of(table);
    let friends = |a: usize, b: usize| {
        matches!((keys.division[a], keys.division[b]), (Some(da), Some(db)) if da != db)
            && keys.side[a] == keys.side[b]
    };
    let take = |u: usize| keys.counts[u] && keys.division[u].is_some();
    let mut best: HashMap<(usize, usize), Closest> = HashMap::new();
    // Whether a pair at least `bound` apart may be the closest of its divisions.
    let may_be = |best: &HashMap<(usize, usize), Closest>, key, bound: f64| {
        best.get(&key).is_none_or(|e: &Closest| bound <= e.0 + BOUND_MARGIN_MM)
    };
    for (gap_2, ua, ub) in unit_pairs(table, reach_mm, take, friends) {
        let (Some(da), Some(db)) = (keys.division[ua], keys.division[ub]) else { continue };
        let (key, units) = if da < db { ((da, db), (ua, ub)) } else { ((db, da), (ub, ua)) };
        if !may_be(&best, key, gap_2.sqrt()) {
            continue;
        }
        for (_, a, _, b, separation) in base_pairs(table, ua, ub, reach_mm) {
            if !may_be(&best, key, separation) {
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
///
/// Found as [`division_gaps`] finds its pairs: unit pair by unit pair, nearest first, a
/// pair passed over when it cannot be the closest for either of its divisions.
#[must_use]
pub fn nearest_enemies_of_divisions(
    table: &Table,
    _index: &SpatialIndex,
    reach_mm: f64,
) -> BTreeMap<String, (f64, (usize, usize))> {
    let keys = UnitKeys::of(table);
    let enemies = |a: usize, b: usize| {
        keys.side[a] != keys.side[b] && (keys.division[a].is_some() || keys.division[b].is_some())
    };
    // Each division's closest so far (infinite: none yet).
    let mut best: Vec<Closest> = vec![(f64::INFINITY, (usize::MAX, usize::MAX)); keys.names.len()];
    // Whether a pair at least `bound` apart may be the closest of one of the divisions.
    let may_be = |best: &[Closest], divisions: [Option<usize>; 2], bound: f64| {
        divisions.iter().flatten().any(|&d| bound <= best[d].0 + BOUND_MARGIN_MM)
    };
    for (gap_2, ua, ub) in unit_pairs(table, reach_mm, |u| keys.counts[u], enemies) {
        let divisions = [keys.division[ua], keys.division[ub]];
        if !may_be(&best, divisions, gap_2.sqrt()) {
            continue;
        }
        for (_, a, _, b, separation) in base_pairs(table, ua, ub, reach_mm) {
            if !may_be(&best, divisions, separation) {
                continue;
            }
            let d = a.distance(b);
            if d <= reach_mm {
                for (division, units) in [(divisions[0], (ua, ub)), (divisions[1], (ub, ua))] {
                    let Some(k) = division else { continue };
                    let e = &mut best[k];
                    if d < e.0 || (d == e.0 && units < e.1) {
                        *e = (d, units);
                    }
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
