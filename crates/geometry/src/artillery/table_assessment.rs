//! The artillery assessment of a whole table, as a report or a viewer takes it: the
//! table's artillery rules, every battery's [`BatteryAssessment`], its main target's
//! cover (000 §4.3) and the close calls of its verdicts (issue 17). `None` under a rule
//! set without Republique artillery rules (classic Republique, Pro Patria).

use crate::artillery::artillery_rules::ArtilleryRules;
use crate::artillery::assessment::{BatteryAssessment, assess_artillery};
use crate::artillery::battery::Battlefield;
use crate::artillery::calls::{arc_call, battery_calls, enfilade_call, range_call, unlimber_call};
use crate::artillery::open_ground::TerrainOutlines;
use crate::artillery::target_cover::{TargetCover, target_cover};
use crate::close_call::{CloseCall, PERTURBATION_MAX_MM};
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::TerrainSight;
use crate::table::Table;

/// The close calls of one candidate target's verdicts.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetCalls {
    /// The range against the nearest bracket edge or the maximum range, with that
    /// limit, mm ([`range_call`]).
    pub range: Option<(f64, CloseCall)>,
    /// "Half a base in the arc" ([`arc_call`]).
    pub arc: Option<CloseCall>,
    /// "In enfilade" ([`enfilade_call`]); `None` for a target enfiladed by formation.
    pub enfilade: Option<CloseCall>,
    /// "A full base seen" ([`crate::artillery::calls::sight_call`]).
    pub sight: CloseCall,
    /// "A clear zone on it" ([`crate::artillery::calls::zone_calls`]).
    pub zone: CloseCall,
}

/// The close calls of one battery's verdicts.
#[derive(Debug, Clone, PartialEq)]
pub struct BatteryCalls {
    /// The unlimber limit, with the limit, mm ([`unlimber_call`]).
    pub unlimber: Option<(f64, CloseCall)>,
    /// "Some swing of the firing zone is clear" ([`crate::artillery::calls::zone_calls`]); `None` when limbered.
    pub zone: Option<CloseCall>,
    /// One per candidate target, in [`BatteryAssessment::targets`] order.
    pub targets: Vec<TargetCalls>,
}

/// Every battery of a table, assessed.
#[derive(Debug, Clone, PartialEq)]
pub struct ArtilleryAssessment {
    /// The table's artillery rules.
    pub rules: ArtilleryRules,
    /// Every battery, in table order.
    pub batteries: Vec<BatteryAssessment>,
    /// Each battery's main target's cover, `None` without a main target; in the
    /// batteries' order.
    pub covers: Vec<Option<TargetCover>>,
    /// Each battery's close calls, in the batteries' order.
    pub calls: Vec<BatteryCalls>,
}

/// The artillery assessment of `table` (terrain-aware sight from `sight`, open ground
/// from the terrain outlines), or `None` when its rule set has no Republique artillery
/// rules.
pub fn assess_table_artillery(
    table: &Table,
    index: &SpatialIndex,
    sight: &TerrainSight,
) -> Result<Option<ArtilleryAssessment>, GeometryError> {
    let rules = match ArtilleryRules::for_table(table) {
        Ok(r) => r,
        Err(GeometryError::NotInRuleSet { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let field = Battlefield { table, index, rules: &rules, line_of_sight: sight, ground: &TerrainOutlines };
    let batteries = assess_artillery(&field)?;
    let book = table.rule_book()?;
    let mut covers = Vec::with_capacity(batteries.len());
    let mut calls = Vec::with_capacity(batteries.len());
    // battery_calls answers every target; a missing answer would be a verdict nothing
    // could move, an exact one.
    let exact = CloseCall::exact(PERTURBATION_MAX_MM);
    let zone_and_sight = battery_calls(table, index, &rules, &batteries, 0)?;
    for (a, (zone, sights)) in batteries.iter().zip(zone_and_sight) {
        let b = &a.battery;
        covers.push(a.main.as_ref().map(|m| target_cover(table, &book, sight, b.base_ref, m)).transpose()?);
        calls.push(BatteryCalls {
            unlimber: unlimber_call(table, index, b.base_ref, &a.unlimber),
            zone: zone.clear,
            targets: a
                .targets
                .iter()
                .enumerate()
                .map(|(i, t)| TargetCalls {
                    range: range_call(table, b, rules.bracket_mm, t),
                    arc: arc_call(table, b, t),
                    enfilade: enfilade_call(table, b, t, rules.arc_side_deg),
                    sight: sights.get(i).copied().unwrap_or(exact),
                    zone: zone.targets.get(i).copied().unwrap_or(exact),
                })
                .collect(),
        });
    }
    Ok(Some(ArtilleryAssessment { rules, batteries, covers, calls }))
}
