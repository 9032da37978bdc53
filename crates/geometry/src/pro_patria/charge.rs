//! Charge impulse helpers (004 §17.2.3, §17.4.2, §17.4.10, §13.4).
//!
//! - 1st impulse: "advance to a point that is over a quarter but up to halfway to the
//!   target unit"; a charge begun within 50 mm (infantry) or 150 mm (cavalry) of the
//!   target, without a formation change, catches it (30 / 90 for 15 mm).
//! - 2nd impulse: "up to half the remaining move of the charging unit".
//! - Opportunity charges: half the normal move.
//! - Cavalry moving over 200 mm (120) to charge is a fast target.
//! - Who may charge whom (§17.2.4), and every enemy a unit would catch charging now
//!   ([`catches`]).

use crate::close_call::{CloseCall, unit_distance_call};
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::TerrainSight;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::{Formation, UnitKind};
use crate::ties::within;

/// The first impulse's allowed advance: more than `over_mm`, at most `up_to_mm`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FirstImpulse {
    /// A quarter of the distance to the target (the advance must exceed it).
    pub over_mm: f64,
    /// Half the distance to the target (the advance may equal it).
    pub up_to_mm: f64,
}

impl FirstImpulse {
    /// The window for a charger `distance_mm` from its target.
    ///
    /// ```
    /// use vedette_geometry::pro_patria::charge::FirstImpulse;
    /// let w = FirstImpulse::for_distance(200.0);
    /// assert!(!w.allows(50.0) && w.allows(50.1) && w.allows(100.0) && !w.allows(100.1));
    /// ```
    #[must_use]
    pub fn for_distance(distance_mm: f64) -> Self {
        FirstImpulse { over_mm: distance_mm / 4.0, up_to_mm: distance_mm / 2.0 }
    }

    /// True when an advance of `advance_mm` is allowed.
    #[must_use]
    pub fn allows(&self, advance_mm: f64) -> bool {
        advance_mm > self.over_mm + crate::ties::TIE_MM && within(advance_mm, self.up_to_mm)
    }
}

/// The most a second impulse may move: half the charger's remaining move.
#[must_use]
pub fn second_impulse_max_mm(remaining_move_mm: f64) -> f64 {
    remaining_move_mm / 2.0
}

/// The most an opportunity charge may move: half the normal move.
#[must_use]
pub fn opportunity_charge_max_mm(normal_move_mm: f64) -> f64 {
    normal_move_mm / 2.0
}

/// True when a charger of `kind` starting `distance_mm` from its target catches it (no
/// formation change, no evading, no being-charged test).
pub fn catches_at(kind: UnitKind, distance_mm: f64, book: &RuleBook) -> Result<bool, GeometryError> {
    Ok(within(distance_mm, catch_reach_mm(kind, book)?))
}

/// True when charging cavalry that moved `moved_mm` (both impulses) is a fast target:
/// "over 200mm", so exactly 200 is not.
pub fn is_fast_target(moved_mm: f64, book: &RuleBook) -> Result<bool, GeometryError> {
    Ok(!within(moved_mm, book.distance_mm(RuleDistance::FastTarget)?))
}

/// How close a charger of `kind` must start to catch its target (004 §17.2.3: 50 mm
/// for infantry, 150 mm for cavalry; 30 and 90 for 15 mm figures).
pub fn catch_reach_mm(kind: UnitKind, book: &RuleBook) -> Result<f64, GeometryError> {
    match kind {
        UnitKind::Cavalry => book.distance_mm(RuleDistance::CaughtByCavalry),
        _ => book.distance_mm(RuleDistance::CaughtByInfantry),
    }
}

/// True when a unit of kind `charger` may charge a unit of kind `target` (004 §17.2.4:
/// "Infantry cannot charge mounted troops. Artillery cannot charge."; §12.4: skirmishers
/// do not charge formed units). Charges of skirmishers on routers, skirmishers and
/// artillery crews are not judged here.
#[must_use]
pub fn may_charge(charger: UnitKind, target: UnitKind) -> bool {
    match charger {
        UnitKind::Cavalry => matches!(target, UnitKind::Infantry | UnitKind::Cavalry | UnitKind::Artillery),
        UnitKind::Infantry => matches!(target, UnitKind::Infantry | UnitKind::Artillery),
        _ => false,
    }
}

/// An enemy a unit would catch if it charged it now (004 §17.2.3): "If a unit is
/// charging at an enemy within 50mm for infantry or within 150mm for cavalry ... and the
/// charging unit does not change formation the target unit is caught and may not change
/// formation or evade nor is it required to conduct a being charged test."
#[derive(Debug, Clone, PartialEq)]
pub struct Catch {
    /// The charger's unit index.
    pub charger: usize,
    /// The target's unit index.
    pub target: usize,
    /// Closest stand to stand, mm.
    pub distance_mm: f64,
    /// The catching distance, mm (50 / 150; 30 / 90).
    pub reach_mm: f64,
    /// The close call of the distance against the reach.
    pub call: CloseCall,
}

/// Every enemy that `charger` would catch charging now: a formed infantry or cavalry
/// charger, an enemy it may charge ([`may_charge`]) that it sees (its 180° field of
/// view, §16.3: a unit charges what is before it), within the catching distance and
/// not already touching it (units in contact are in close assault, not charging). A
/// charge that changes formation catches nothing: that is the player's to say.
pub fn catches(
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
    charger: usize,
) -> Result<Vec<Catch>, GeometryError> {
    let table = index.table();
    let Some(u) = table.units.get(charger) else { return Ok(Vec::new()) };
    if !matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry)
        || u.formation == Some(Formation::SkirmishOrder)
    {
        return Ok(Vec::new());
    }
    let reach_mm = catch_reach_mm(u.kind, book)?;
    let near = index.units_within_of_unit(charger, reach_mm + crate::ties::TIE_MM, |o| {
        index.are_enemies(charger, o)
            && table.units[o].formation != Some(Formation::SkirmishOrder)
            && may_charge(u.kind, table.units[o].kind)
    });
    let mut out = Vec::new();
    for (target, _) in near {
        let Some((distance_mm, call)) = unit_distance_call(table, charger, target, reach_mm) else {
            continue;
        };
        if crate::ties::touching(distance_mm) || !within(distance_mm, reach_mm) {
            continue;
        }
        if sight.unit_verdict(charger, target).visible {
            out.push(Catch { charger, target, distance_mm, reach_mm, call });
        }
    }
    Ok(out)
}

/// Every catch on a Pro Patria table, charger by charger.
pub fn all_catches(
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<Vec<Catch>, GeometryError> {
    let mut out = Vec::new();
    for u in 0..index.table().units.len() {
        out.extend(catches(index, book, sight, u)?);
    }
    Ok(out)
}
