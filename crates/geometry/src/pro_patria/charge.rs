//! Charge impulse helpers (004 §17.2.3, §17.4.2, §17.4.10, §13.4).
//!
//! - 1st impulse: "advance to a point that is over a quarter but up to halfway to the
//!   target unit"; a charge begun within 50 mm (infantry) or 150 mm (cavalry) of the
//!   target, without a formation change, catches it (30 / 90 for 15 mm).
//! - 2nd impulse: "up to half the remaining move of the charging unit".
//! - Opportunity charges: half the normal move.
//! - Cavalry moving over 200 mm (120) to charge is a fast target.

use crate::error::GeometryError;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::UnitKind;
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
pub fn catches(kind: UnitKind, distance_mm: f64, book: &RuleBook) -> Result<bool, GeometryError> {
    let reach = match kind {
        UnitKind::Cavalry => book.distance_mm(RuleDistance::CaughtByCavalry)?,
        _ => book.distance_mm(RuleDistance::CaughtByInfantry)?,
    };
    Ok(within(distance_mm, reach))
}

/// True when charging cavalry that moved `moved_mm` (both impulses) is a fast target:
/// "over 200mm", so exactly 200 is not.
pub fn is_fast_target(moved_mm: f64, book: &RuleBook) -> Result<bool, GeometryError> {
    Ok(!within(moved_mm, book.distance_mm(RuleDistance::FastTarget)?))
}
