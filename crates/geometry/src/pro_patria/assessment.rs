//! The Pro Patria assessment of a whole table (004): units close to the enemy (contact
//! and no-approach, §17.4), each unit's nearest visible target in its arcs with the
//! target's cover and the friends endangered (§17.3, §15.11, §17.3.8), generals' command
//! radius (§14.2) and units near hill crests (§15.1). The report prints this; a picture
//! draws it.

use super::arcs::{endangered_friends, nearest_in_arc, target_cover_class};
use super::command::{InCommand, command_radius};
use super::contact::{Proximity, proximities};
use super::crest::{CrestFinding, units_near_crests};
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::TerrainSight;
use crate::rules::RuleBook;
use crate::table::{Table, UnitKind};
use crate::terrain::CoverClass;

/// A unit's nearest visible target in its arcs.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetFinding {
    /// The firing unit's index.
    pub unit: usize,
    /// The target unit's index.
    pub target: usize,
    /// Distance, mm.
    pub distance_mm: f64,
    /// The target's cover (§15.11), `None` in the open.
    pub cover: Option<CoverClass>,
    /// Friendly units in the corridor (§17.3.8): the unit may not fire.
    pub endangered: Vec<usize>,
}

/// Everything the Pro Patria rules measure on a table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProPatriaAssessment {
    /// Pairs of enemy units within the no-approach distance or in contact.
    pub proximities: Vec<Proximity>,
    /// Each firing unit's nearest visible target.
    pub targets: Vec<TargetFinding>,
    /// Each general's units with their distance.
    pub command: Vec<InCommand>,
    /// Units near a hill's crest line.
    pub crests: Vec<CrestFinding>,
}

/// The Pro Patria assessment of `table` (infantry, artillery and skirmishers fire;
/// leaders command).
pub fn assess_pro_patria(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<ProPatriaAssessment, GeometryError> {
    let mut out = ProPatriaAssessment { proximities: proximities(table, index, book)?, ..Default::default() };
    for (i, u) in table.units.iter().enumerate() {
        if matches!(u.kind, UnitKind::Infantry | UnitKind::Artillery | UnitKind::Skirmisher)
            && let Some((target, d)) = nearest_in_arc(table, index, book, sight, i)?
        {
            out.targets.push(TargetFinding {
                unit: i,
                target,
                distance_mm: d,
                cover: target_cover_class(table, book, i, target)?,
                endangered: endangered_friends(table, index, book, sight, i, target)?,
            });
        }
        if u.kind == UnitKind::Leader {
            out.command.extend(command_radius(table, book, i)?);
        }
    }
    out.crests = units_near_crests(table, book)?;
    Ok(out)
}
