//! Leaders and their units (000 §2.2-2.3, §3.3, §4.7, §5.4; 001 §4.5-4.6; 004 §14.2).
//!
//! Every distance is closest point to closest point (base edge to base edge). Who
//! commands whom comes from the table: a division leader (`role: division`) commands the
//! units of its `division`, a corps leader the units of its `corps`, an army leader
//! every unit of its side.

use crate::error::GeometryError;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::{LeaderRole, Table, UnitKind};
use crate::ties::TIE_MM;

/// The index of the leader commanding a division (the first, if the table has two).
#[must_use]
pub fn division_leader(table: &Table, division: &str) -> Option<usize> {
    table.units.iter().position(|u| {
        u.kind == UnitKind::Leader
            && u.role == Some(LeaderRole::Division)
            && u.division.as_deref() == Some(division)
    })
}

/// The index of the leader commanding a corps.
#[must_use]
pub fn corps_leader(table: &Table, corps: &str) -> Option<usize> {
    table.units.iter().position(|u| {
        u.kind == UnitKind::Leader && u.role == Some(LeaderRole::Corps) && u.corps.as_deref() == Some(corps)
    })
}

/// The combat units and skirmish markers a leader commands (unit indices); empty for a
/// leader without a role.
#[must_use]
pub fn commanded_units(table: &Table, leader: usize) -> Vec<usize> {
    commanded_units_among(table, leader, 0..table.units.len())
}

/// [`commanded_units`] looking among `candidates` (ascending; every unit the leader
/// commands among them: for a division leader, its division's units).
#[must_use]
pub fn commanded_units_among(
    table: &Table,
    leader: usize,
    candidates: impl IntoIterator<Item = usize>,
) -> Vec<usize> {
    let Some(l) = table.units.get(leader) else { return Vec::new() };
    candidates
        .into_iter()
        .filter_map(|i| table.units.get(i).map(|u| (i, u)))
        .filter(|(i, u)| {
            *i != leader
                && u.side == l.side
                && (u.is_combat() || u.kind == UnitKind::Skirmisher)
                && match l.role {
                    Some(LeaderRole::Division) => l.division.is_some() && u.division == l.division,
                    Some(LeaderRole::Corps) => l.corps.is_some() && u.corps == l.corps,
                    Some(LeaderRole::Army) => true,
                    None => false,
                }
        })
        .map(|(i, _)| i)
        .collect()
}

/// The closest distance between two units, mm (`None` if either index is bad).
#[must_use]
pub fn unit_distance_mm(table: &Table, a: usize, b: usize) -> Option<f64> {
    let (ua, ub) = (table.units.get(a)?, table.units.get(b)?);
    ua.closest_to(ub).map(|c| c.closest.distance_mm)
}

/// The rally penalty for the distance to the division leader (000 §2.3): "Subtract one
/// point ... for each 4" beyond 4" distant". Counted in whole steps: at 8" (4" beyond)
/// the penalty is 1, at 7.9" it is 0, at 12" it is 2 (the project's reading: a step is
/// a full 4").
///
/// ```
/// use vedette_geometry::{RuleBook, RuleSet, Scale, rally_penalty};
/// let book = RuleBook::try_new(RuleSet::Republique5, Scale::Medium)?;
/// assert_eq!(rally_penalty(7.9 * 25.4, &book)?, 0);
/// assert_eq!(rally_penalty(8.0 * 25.4, &book)?, 1);
/// assert_eq!(rally_penalty(12.1 * 25.4, &book)?, 2);
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub fn rally_penalty(distance_mm: f64, book: &RuleBook) -> Result<u32, GeometryError> {
    let step = book.distance_mm(RuleDistance::RallyStep)?;
    let steps = ((distance_mm - step + TIE_MM) / step).floor().max(0.0);
    Ok(steps as u32)
}

/// Whose units a leader's reach counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeaderScope {
    /// Any friendly combat unit (000 §5.4: "E or P leader within 3"").
    AnyFriendly,
    /// Only the units the leader commands (000 §2.3: corps and army leaders within 4").
    OwnCommand,
}

/// The friendly combat units within `reach_mm` of a leader (closest points; exactly at
/// the reach is within), sorted by index.
///
/// ```
/// use vedette_geometry::{LeaderScope, SpatialIndex, Table, units_within_reach};
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "units":[
///     {"id":"l","side":"fr","kind":"leader","role":"division","division":"d","bases":[{"x":0,"y":0,"heading":90,"width":25,"depth":30}]},
///     {"id":"r","side":"fr","kind":"infantry","formation":"line","division":"d","bases":[{"x":0,"y":100,"heading":90,"width":30,"depth":20}]}]}"#)?;
/// // The regiment's rear edge (y = 90) is 75 mm from the leader's front (y = 15).
/// assert_eq!(units_within_reach(&t, &SpatialIndex::new(&t), 0, 76.2, LeaderScope::AnyFriendly), vec![1]);
/// assert!(units_within_reach(&t, &SpatialIndex::new(&t), 0, 74.9, LeaderScope::AnyFriendly).is_empty());
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
#[must_use]
pub fn units_within_reach(
    table: &Table,
    index: &crate::index::SpatialIndex,
    leader: usize,
    reach_mm: f64,
    scope: LeaderScope,
) -> Vec<usize> {
    let commanded =
        if scope == LeaderScope::OwnCommand { commanded_units(table, leader) } else { Vec::new() };
    let mut out: Vec<usize> = index
        .within_of_unit(leader, reach_mm + TIE_MM)
        .iter()
        .map(|n| n.base.unit)
        .filter(|&u| {
            !index.are_enemies(leader, u)
                && table.units[u].is_combat()
                && (scope == LeaderScope::AnyFriendly || commanded.contains(&u))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The distance from a division's leader to its corps leader, mm (000 §3.3: "Corps
/// commander beyond 12""); `None` when either is missing. The corps is the one the
/// division's units (or its leader) name.
#[must_use]
pub fn corps_leader_distance_mm(table: &Table, division: &str) -> Option<f64> {
    let (l, c) = division_and_corps_leaders(table, division)?;
    unit_distance_mm(table, l, c)
}

/// A division's leader and its corps leader (unit indices), as
/// [`corps_leader_distance_mm`] finds them.
#[must_use]
pub fn division_and_corps_leaders(table: &Table, division: &str) -> Option<(usize, usize)> {
    let l = division_leader(table, division)?;
    let corps = table.units[l].corps.clone().or_else(|| {
        table.units.iter().filter(|u| u.division.as_deref() == Some(division)).find_map(|u| u.corps.clone())
    })?;
    Some((l, corps_leader(table, &corps)?))
}

/// The rally penalty's nearest step boundary to `distance_mm`, mm: the penalty changes
/// at 8", 12", 16"... (000 §2.3, see [`rally_penalty`]), so a close call of the penalty
/// is the distance against the nearest of those.
pub fn rally_step_boundary_mm(distance_mm: f64, book: &RuleBook) -> Result<f64, GeometryError> {
    let step = book.distance_mm(RuleDistance::RallyStep)?;
    Ok(step * (distance_mm / step).round().max(2.0))
}
