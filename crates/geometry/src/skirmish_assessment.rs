//! The skirmisher assessment of a whole table (Republique 5.0 §3.6, §4.1; Republic
//! 101): every skirmish marker's legality ([`check_skirmishers`]) and fire options
//! ([`skirmish_fire`]). Classic Republique's seeds hold no skirmisher chapter and Pro
//! Patria's skirmish screens are units in skirmish order, so under those rules the
//! assessment is empty.

use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::TerrainSight;
use crate::rules::{RuleBook, RuleSet};
use crate::skirmish_fire::{SkirmishFire, skirmish_fire};
use crate::skirmishers::{MarkerCheck, check_skirmishers};
use crate::table::{BaseRef, Table};

/// Every skirmish marker's check and fire options.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SkirmisherAssessment {
    /// Each marker base's legality, in base order.
    pub checks: Vec<MarkerCheck>,
    /// Each marker base's fire options, in base order.
    pub fire: Vec<SkirmishFire>,
}

impl SkirmisherAssessment {
    /// The fire options of marker base `marker`, if it has any entry.
    #[must_use]
    pub fn fire_of(&self, marker: BaseRef) -> Option<&SkirmishFire> {
        self.fire.iter().find(|f| f.marker == marker)
    }
}

/// Whether `rules` has skirmish markers whose legality and fire the table measures (the
/// Republique 5.0 family).
#[must_use]
pub fn has_skirmish_markers(rules: RuleSet) -> bool {
    matches!(rules, RuleSet::Republique5 | RuleSet::Republic)
}

/// The skirmisher assessment of `table` (empty outside the Republique 5.0 family).
pub fn assess_skirmishers(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<SkirmisherAssessment, GeometryError> {
    if !has_skirmish_markers(book.rules()) {
        return Ok(SkirmisherAssessment::default());
    }
    Ok(SkirmisherAssessment {
        checks: check_skirmishers(table, index, book)?,
        fire: skirmish_fire(table, index, book, sight)?,
    })
}
