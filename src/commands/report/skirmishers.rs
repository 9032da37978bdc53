//! The `skirmishers` section: every skirmish marker's legality (000 §3.6; Republic 101).
//! Classic Republique's seeds hold no skirmisher chapter and Pro Patria's skirmish
//! screens are units in skirmish order, so the section is empty under those rules.

use super::columns::{num, render};
use crate::CliError;
use crate::commands::calls::{self, CallEntry};
use crate::commands::measure::micro;
use serde::Serialize;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{
    BaseRef, RuleBook, SkirmisherAssessment, Spacing, SpatialIndex, Table, assess_skirmishers,
};

/// One skirmish marker.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct MarkerReport {
    /// The marker base (`unit#index`).
    pub marker: String,
    /// Its parent unit, if named.
    pub parent: Option<String>,
    /// Distance to the parent, rule inches.
    pub parent_distance_in: Option<f64>,
    /// Within 3" of the parent (6" for Republic cavalry skirmishers).
    pub near_parent: bool,
    /// The nearest friendly marker.
    pub nearest_friend: Option<String>,
    /// Its distance, rule inches.
    pub nearest_friend_in: Option<f64>,
    /// Skirmish order (3" or more apart), packed, or too close (under one base width).
    pub spacing: Spacing,
    /// Enemy bases between the marker and its parent.
    pub enemy_between: Vec<String>,
    /// Breaks no rule.
    pub legal: bool,
    /// The close call of `near_parent` (against the reach); see "Close calls".
    pub parent_call: Option<CallEntry>,
    /// The close call of `spacing` (the nearest friend against 3" or one base width;
    /// `null` when no friendly marker is within 3" and 1 mm).
    pub spacing_call: Option<CallEntry>,
    /// What it may fire on and whom it blocks (000 §4.1).
    pub fire: FireReport,
}

/// A marker's skirmish fire (000 §4.1), both as the attacker and as the defender.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct FireReport {
    /// Enemy combat units with a base within 3" that it sees, nearest first.
    pub targets: Vec<String>,
    /// Defending: the closest enemy marker within 3", which it blocks.
    pub blocks: Option<String>,
    /// Attacking: the enemy markers that block it.
    pub blocked_by: Vec<String>,
    /// Attacking: it has a target and no enemy marker blocks it.
    pub may_fire_attacking: bool,
    /// Defending: it has a target and no enemy marker is within 3" (defensive fire).
    pub defensive_fire: bool,
    /// The close call of each target's sight, in the order of `targets`.
    pub target_calls: Vec<CallEntry>,
    /// Enemy combat units within 3" that it does not see, too close to call (scanned
    /// tables only): `{ "unit", "call" }`.
    pub unseen: Vec<UnseenTarget>,
}

/// An enemy unit within 3" that a marker does not see, too close to call.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UnseenTarget {
    /// The unit.
    pub unit: String,
    /// The sight's close call.
    pub call: CallEntry,
}

/// Builds the section.
pub fn build(
    t: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<Vec<MarkerReport>, CliError> {
    Ok(section_of(t, book, &assess_skirmishers(t, index, book, sight)?))
}

/// The section from the library's assessment ([`assess_skirmishers`]).
#[must_use]
pub fn section_of(t: &Table, book: &RuleBook, found: &SkirmisherAssessment) -> Vec<MarkerReport> {
    let inch = |mm: f64| book.mm_to_rule_inches(mm).map(micro);
    let labels = |v: &[BaseRef]| v.iter().map(|&r| t.base_label(r)).collect::<Vec<_>>();
    let fire_of = |m: BaseRef| {
        found.fire_of(m).map_or(
            FireReport {
                targets: Vec::new(),
                blocks: None,
                blocked_by: Vec::new(),
                may_fire_attacking: false,
                defensive_fire: false,
                target_calls: Vec::new(),
                unseen: Vec::new(),
            },
            |f| FireReport {
                targets: f.targets.iter().map(|&(u, _)| t.units[u].id.clone()).collect(),
                blocks: f.blocks.map(|(r, _)| t.base_label(r)),
                blocked_by: labels(&f.blocked_by),
                may_fire_attacking: f.may_fire_attacking(),
                defensive_fire: f.defensive_fire(),
                target_calls: f.target_calls.iter().map(|c| calls::entry(t, c, None)).collect(),
                unseen: f
                    .unseen
                    .iter()
                    .map(|(u, _, c)| UnseenTarget {
                        unit: t.units[*u].id.clone(),
                        call: calls::entry(t, c, None),
                    })
                    .collect(),
            },
        )
    };
    found
        .checks
        .iter()
        .map(|c| MarkerReport {
            fire: fire_of(c.marker),
            marker: t.base_label(c.marker),
            parent: c.parent.map(|p| t.units[p].id.clone()),
            parent_distance_in: c.parent_distance_mm.and_then(inch),
            near_parent: c.near_parent,
            nearest_friend: c.nearest_friend.map(|(r, _)| t.base_label(r)),
            nearest_friend_in: c.nearest_friend.and_then(|(_, d)| inch(d)),
            spacing: c.spacing,
            enemy_between: c.enemy_between.iter().map(|&r| t.base_label(r)).collect(),
            legal: c.is_legal(),
            parent_call: c.parent_call.map(|(limit, call)| calls::entry(t, &call, Some(limit))),
            spacing_call: c.spacing_call.map(|(limit, call)| calls::entry(t, &call, Some(limit))),
        })
        .collect()
}

/// The human rendering.
#[must_use]
pub fn render_text(s: &[MarkerReport]) -> String {
    if s.is_empty() {
        return String::new();
    }
    let rows: Vec<Vec<String>> = s
        .iter()
        .map(|m| {
            vec![
                m.marker.clone(),
                m.parent.clone().unwrap_or_else(|| "-".into()),
                format!("{}\"", num(m.parent_distance_in, 2)),
                m.nearest_friend
                    .as_ref()
                    .map_or("-".into(), |f| format!("{f} ({}\")", num(m.nearest_friend_in, 2))),
                match m.spacing {
                    Spacing::SkirmishOrder => "skirmish order".to_string(),
                    Spacing::Packed => "packed".to_string(),
                    Spacing::TooClose => "TOO CLOSE".to_string(),
                },
                if m.enemy_between.is_empty() { "-".into() } else { m.enemy_between.join(" ") },
                if m.legal { "legal".into() } else { "ILLEGAL".into() },
                fire_text(&m.fire),
            ]
        })
        .collect();
    let mut close = String::new();
    for m in s {
        for (what, call) in [("parent distance", &m.parent_call), ("spacing", &m.spacing_call)] {
            if let Some(c) = call.as_ref().filter(|c| !c.certain) {
                close.push_str(&format!("  {} {what}{}\n", m.marker, calls::mark(c)));
            }
        }
        for (unit, c) in m.fire.targets.iter().zip(&m.fire.target_calls).filter(|(_, c)| !c.certain) {
            close.push_str(&format!("  {} sees {unit} (fire){}\n", m.marker, calls::mark(c)));
        }
        for u in &m.fire.unseen {
            close.push_str(&format!(
                "  {} does not see {} (fire){}\n",
                m.marker,
                u.unit,
                calls::mark(&u.call)
            ));
        }
    }
    format!(
        "\nSkirmishers\n{}{close}",
        render(
            &[
                "marker",
                "parent",
                "to parent",
                "nearest friend",
                "spacing",
                "enemy between",
                "verdict",
                "fire (§4.1)"
            ],
            &rows
        )
    )
}

/// One line of a marker's fire options: targets, whom it blocks, who blocks it.
fn fire_text(f: &FireReport) -> String {
    let mut parts = Vec::new();
    if !f.targets.is_empty() {
        let when = match (f.may_fire_attacking, f.defensive_fire) {
            (true, true) => "",
            (true, false) => " (attacking only)",
            (false, true) => " (defensive fire only)",
            (false, false) => " (blocked)",
        };
        parts.push(format!("on {}{when}", f.targets.join(" ")));
    }
    if let Some(b) = &f.blocks {
        parts.push(format!("blocks {b}"));
    }
    if !f.blocked_by.is_empty() {
        parts.push(format!("blocked by {}", f.blocked_by.join(" ")));
    }
    if parts.is_empty() { "-".into() } else { parts.join("; ") }
}
