//! Forced marches (004 §17.4.5): "Units, which must be in march column, can force march
//! distances specified in the movement tables ... Brigades making forced marches can not
//! move within 300mm (180mm for 15mm) of a *visible* formed enemy unit."
//!
//! Readings (one place each):
//! - **Formed enemy**: an enemy infantry, cavalry or artillery unit not in skirmish order
//!   (skirmish screens are "dispersed", §13.1; staff, engineers and wagons are not formed
//!   units).
//! - **Visible**: either unit sees the other by the terrain line of sight of `vedette los`
//!   (stand to stand, each with its 180° field of view, §16.3): a column marching with
//!   its back to an enemy it could see by turning is still near a visible enemy.
//! - **Within 300 mm**: closest stand to closest stand, closed (exactly 300 mm is within:
//!   no forced march).
//! - Where the unit stands is what is checked: the report asks it of every unit in march
//!   column where it stands now (may it start a forced march?), `vedette move
//!   --forced-march` where the move ended. "Unless their whole brigade makes a forced
//!   march" is the players' to check (a table names no brigades).

use crate::close_call::{CloseCall, unit_distance_call};
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::TerrainSight;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::{Formation, Table, UnitKind};
use crate::ties::within;

/// A unit's forced march checked where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct ForcedMarch {
    /// The unit's index.
    pub unit: usize,
    /// It is in march column (a forced march needs it).
    pub in_march_column: bool,
    /// The nearest visible formed enemy within twice the clearance, with its closest
    /// distance, mm.
    pub nearest: Option<(usize, f64)>,
    /// The clearance, mm (300, 180 for 15 mm figures).
    pub clearance_mm: f64,
    /// In march column and no visible formed enemy within the clearance.
    pub allowed: bool,
    /// The close call of the nearest enemy's distance against the clearance.
    pub call: Option<CloseCall>,
}

/// True for a formed unit (see the module documentation).
#[must_use]
pub fn is_formed(table: &Table, unit: usize) -> bool {
    table.units.get(unit).is_some_and(|u| {
        matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry | UnitKind::Artillery)
            && u.formation != Some(Formation::SkirmishOrder)
    })
}

/// The nearest formed enemy of `unit` that sees it or that it sees, within
/// `reach_mm`, with its closest distance.
pub fn nearest_visible_formed_enemy(
    index: &SpatialIndex,
    sight: &TerrainSight,
    unit: usize,
    reach_mm: f64,
) -> Option<(usize, f64)> {
    let table = index.table();
    let near =
        index.units_within_of_unit(unit, reach_mm, |o| index.are_enemies(unit, o) && is_formed(table, o));
    let mut by_distance: Vec<(usize, f64)> = near.into_iter().collect();
    by_distance.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    by_distance
        .into_iter()
        .find(|&(o, _)| sight.unit_verdict(unit, o).visible || sight.unit_verdict(o, unit).visible)
}

/// The forced march of `unit` checked where it stands on `index`'s table.
pub fn forced_march(
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
    unit: usize,
) -> Result<ForcedMarch, GeometryError> {
    let table = index.table();
    let clearance_mm = book.distance_mm(RuleDistance::ForcedMarchClearance)?;
    let in_march_column = table.units.get(unit).is_some_and(|u| u.formation == Some(Formation::MarchColumn));
    let nearest = nearest_visible_formed_enemy(index, sight, unit, 2.0 * clearance_mm);
    let call = nearest.and_then(|(o, _)| unit_distance_call(table, unit, o, clearance_mm).map(|(_, c)| c));
    let clear = nearest.is_none_or(|(_, d)| !within(d, clearance_mm));
    Ok(ForcedMarch { unit, in_march_column, nearest, clearance_mm, allowed: in_march_column && clear, call })
}

/// Every unit in march column on a Pro Patria table, checked where it stands.
pub fn forced_marches(
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<Vec<ForcedMarch>, GeometryError> {
    let table = index.table();
    (0..table.units.len())
        .filter(|&u| table.units[u].formation == Some(Formation::MarchColumn))
        .map(|u| forced_march(index, book, sight, u))
        .collect()
}
