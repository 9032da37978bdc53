//! The `skirmishers` section: every skirmish marker's legality (000 §3.6; Republic 101).
//! Classic Republique's seeds hold no skirmisher chapter and Pro Patria's skirmish
//! screens are units in skirmish order, so the section is empty under those rules.

use super::columns::{num, render};
use crate::CliError;
use crate::commands::measure::micro;
use serde::Serialize;
use vedette_geometry::{RuleBook, RuleSet, Spacing, SpatialIndex, Table, check_skirmishers};

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
}

/// Builds the section.
pub fn build(t: &Table, index: &SpatialIndex, book: &RuleBook) -> Result<Vec<MarkerReport>, CliError> {
    if !matches!(book.rules(), RuleSet::Republique5 | RuleSet::Republic) {
        return Ok(Vec::new());
    }
    let inch = |mm: f64| book.mm_to_rule_inches(mm).map(micro);
    Ok(check_skirmishers(t, index, book)?
        .into_iter()
        .map(|c| MarkerReport {
            marker: t.base_label(c.marker),
            parent: c.parent.map(|p| t.units[p].id.clone()),
            parent_distance_in: c.parent_distance_mm.and_then(inch),
            near_parent: c.near_parent,
            nearest_friend: c.nearest_friend.map(|(r, _)| t.base_label(r)),
            nearest_friend_in: c.nearest_friend.and_then(|(_, d)| inch(d)),
            spacing: c.spacing,
            enemy_between: c.enemy_between.iter().map(|&r| t.base_label(r)).collect(),
            legal: c.is_legal(),
        })
        .collect())
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
            ]
        })
        .collect();
    format!(
        "\nSkirmishers\n{}",
        render(
            &["marker", "parent", "to parent", "nearest friend", "spacing", "enemy between", "verdict"],
            &rows
        )
    )
}
