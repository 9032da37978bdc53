//! Unlimber limits (000 §3.6): "Artillery operating with armies on the French system of
//! maneuver may not unlimber any closer than 1½" to enemy units (outside of All Out
//! assault range), artillery operating with armies on the Prussian system of maneuver
//! may not unlimber any closer than 3" to enemy units (outside of General assault
//! range)."
//!
//! # The reading
//! - "Enemy units" are enemy **combat bases**, as 000 §3.2 says of the same limit: "Units
//!   on the French system may not change formation within 1½" of enemy combat bases,
//!   this includes unlimbering artillery batteries". Enemy leaders, skirmish markers and
//!   limbers do not count.
//! - The distance is edge to edge, from the battery base to the nearest enemy combat
//!   base.
//! - "Not any closer than": a battery exactly at the limit may unlimber; it is flagged
//!   only when strictly closer (by more than [`crate::BRACKET_TIE_MM`]).
//! - The system is the side's `system` in the table file; without one the question has
//!   no answer and the battery is not flagged.

use crate::artillery::artillery_rules::ArtilleryRules;
use crate::index::SpatialIndex;
use crate::table::{BaseRef, ManeuverSystem, Table};

/// A battery's position against its side's unlimber limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnlimberCheck {
    /// The side's maneuver system, if the table gives one.
    pub system: Option<ManeuverSystem>,
    /// The limit for that system, mm.
    pub limit_mm: Option<f64>,
    /// The nearest enemy combat base within the limit, and its distance (mm).
    pub nearest_enemy: Option<(BaseRef, f64)>,
}

impl UnlimberCheck {
    /// `Some(true)` when the battery stands closer to an enemy combat base than its
    /// system allows, `Some(false)` when it does not, `None` without a system.
    #[must_use]
    pub fn too_close(&self) -> Option<bool> {
        self.limit_mm.map(|_| self.nearest_enemy.is_some())
    }
}

/// Checks battery base `r` against its side's unlimber limit.
#[must_use]
pub fn unlimber_check(
    table: &Table,
    index: &SpatialIndex<'_>,
    rules: &ArtilleryRules,
    r: BaseRef,
) -> UnlimberCheck {
    let side = &table.units[r.unit].side;
    let system = table.sides.get(side).and_then(|s| s.system);
    let limit_mm = system.map(|s| rules.unlimber_limit_mm(s));
    let nearest_enemy = limit_mm.and_then(|limit| {
        index
            .within_of_base(r, limit)
            .into_iter()
            .filter(|n| index.are_enemies(r.unit, n.base.unit) && table.units[n.base.unit].is_combat())
            .filter(|n| n.closest.distance_mm < limit - crate::artillery::range::BRACKET_TIE_MM)
            .map(|n| (n.base, n.closest.distance_mm))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
    });
    UnlimberCheck { system, limit_mm, nearest_enemy }
}
