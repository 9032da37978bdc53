//! The Pro Patria assessment of a whole table (004): units close to the enemy (contact
//! and no-approach, §17.4), each unit's nearest visible target in its arcs with the
//! target's cover and the friends endangered (§17.3, §15.11, §17.3.8), generals' command
//! radius (§14.2), units near hill crests (§15.1), units in march column that may or may
//! not force march (§17.4.5) and the enemies a charge would catch (§17.2.3). The report
//! prints this; a picture draws it.

use super::arcs::{endangered_friends, nearest_in_arc, target_cover_class};
use super::charge::{Catch, all_catches};
use super::command::{InCommand, command_radius};
use super::contact::{Proximity, proximities};
use super::crest::{CrestFinding, units_near_crests};
use super::forced_march::{ForcedMarch, forced_marches};
use crate::close_call::CloseCall;
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::TerrainSight;
use crate::rules::{RuleBook, RuleDistance, RuleSet};
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

/// Two enemy units within the no-approach distance of each other (or in contact), with
/// the verdicts and close calls of §17.4.
#[derive(Debug, Clone, PartialEq)]
pub struct ProximityFinding {
    /// The pair, its distance and edge contact.
    pub proximity: Proximity,
    /// Within the no-approach distance without being in contact: only a charger may be
    /// this close ([`Proximity::too_close`]).
    pub too_close: bool,
    /// The close call of `in_contact` against the edge contact needed, with that length,
    /// mm (30, 20 for 15 mm figures).
    pub contact_call: (f64, CloseCall),
    /// The close call of the distance against the no-approach distance, with that
    /// distance, mm (25, 15).
    pub approach_call: Option<(f64, CloseCall)>,
}

/// Everything the Pro Patria rules measure on a table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProPatriaAssessment {
    /// Pairs of enemy units within the no-approach distance or in contact.
    pub proximities: Vec<ProximityFinding>,
    /// Each firing unit's nearest visible target.
    pub targets: Vec<TargetFinding>,
    /// Each general's units with their distance.
    pub command: Vec<InCommand>,
    /// Units near a hill's crest line.
    pub crests: Vec<CrestFinding>,
    /// Every unit in march column, with whether it may force march where it stands
    /// (§17.4.5).
    pub forced_marches: Vec<ForcedMarch>,
    /// Every enemy a unit would catch charging now (§17.2.3).
    pub catches: Vec<Catch>,
}

/// The Pro Patria assessment of `table` (infantry, artillery and skirmishers fire;
/// leaders command).
pub fn assess_pro_patria(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<ProPatriaAssessment, GeometryError> {
    let no_approach = book.distance_mm(RuleDistance::NoApproach)?;
    let needed = book.distance_mm(RuleDistance::ContactEdge)?;
    let found = proximities(table, index, book)?
        .into_iter()
        .map(|p| ProximityFinding {
            too_close: p.too_close(no_approach),
            contact_call: (needed, p.contact_call(table, needed)),
            approach_call: p.approach_call(table, no_approach).map(|c| (no_approach, c)),
            proximity: p,
        })
        .collect();
    let mut out = ProPatriaAssessment { proximities: found, ..Default::default() };
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
    out.forced_marches = forced_marches(index, book, sight)?;
    out.catches = all_catches(index, book, sight)?;
    Ok(out)
}

/// The Pro Patria assessment when `table` is played with Pro Patria; `None` under other
/// rule sets.
pub fn assess_pro_patria_if_played(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<Option<ProPatriaAssessment>, GeometryError> {
    if book.rules() != RuleSet::ProPatria {
        return Ok(None);
    }
    assess_pro_patria(table, index, book, sight).map(Some)
}
