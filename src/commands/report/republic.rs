//! The `republic` section: Republic's advanced rules that measure the table (003 201
//! alert infantry, 301 bluff assaults on skirmishers, 106 sharpshooters, 102 B support
//! to the rear, 308 lost in the woods, 303 road columns); `null`
//! under other rule sets.
//! The decisions are `vedette_geometry::republic`'s; this maps and prints them.

use super::columns::{num, render};
use crate::CliError;
use crate::commands::measure::micro;
use serde::Serialize;
use vedette_draw::findings::march::road_column_words;
use vedette_geometry::republic::{RepublicAssessment, assess_republic_if_played};
use vedette_geometry::{RuleBook, SpatialIndex, Table};

/// An alert infantry unit and the enemies inside its 4" zone (003 201).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AlertReport {
    /// The alert unit.
    pub unit: String,
    /// Enemy units in its zone now, nearest first.
    pub enemies: Vec<String>,
    /// Their distances, rule inches, in the same order.
    pub distances_in: Vec<Option<f64>>,
}

/// A bluff assault that reaches an enemy skirmish marker in the open (003 301).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct BluffReport {
    /// The bluffing infantry or cavalry unit.
    pub unit: String,
    /// The skirmish marker unit.
    pub marker: String,
    /// Closest distance, rule inches (within 1" for infantry, 3" for cavalry).
    pub distance_in: Option<f64>,
}

/// An enemy skirmish marker within hors de combat reach of a leader (003 106).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct MarkerNearLeaderReport {
    /// The leader.
    pub leader: String,
    /// The skirmish marker unit.
    pub marker: String,
    /// Closest distance, rule inches.
    pub distance_in: Option<f64>,
    /// The marker is its side's sharpshooter (reach 6").
    pub sharpshooter: bool,
}

/// A unit within 1" to the rear of a friend in assault range (003 102 B).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SupportReport {
    /// The unit in assault range.
    pub unit: String,
    /// The friendly unit behind it.
    pub supporter: String,
    /// Closest distance, rule inches.
    pub distance_in: Option<f64>,
}

/// The `republic` section.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct RepublicSection {
    /// Every infantry unit an `alert` marker names, with the enemies in its zone.
    pub alert: Vec<AlertReport>,
    /// Every bluff assault that reaches.
    pub bluff: Vec<BluffReport>,
    /// Leaders with enemy skirmish markers within the hors de combat reach (003 106: 4",
    /// 6" for a sharpshooter).
    pub markers_near_leaders: Vec<MarkerNearLeaderReport>,
    /// Friendly units within 1" to the rear of a unit in assault range (003 102 B: on an
    /// inexperienced side, a die roll for both).
    pub support_behind: Vec<SupportReport>,
    /// Combat units in a wood with no other friendly combat unit within 4" (003 308:
    /// green or untrained brigades among them test to move).
    pub lost_in_woods: Vec<String>,
    /// Every road column and the road it is lined up on (003 303: its movement on the
    /// road is doubled).
    pub road_columns: Vec<RoadColumnReport>,
}

/// A road column (003 303).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RoadColumnReport {
    /// The unit.
    pub unit: String,
    /// The road every base is lined up on (its id or `terrain[K]`); `null`: none, no road
    /// movement.
    pub road: Option<String>,
    /// In words, as the text and the plan say it.
    pub words: String,
}

/// Builds the section; `None` unless the table plays Republic.
pub fn build(t: &Table, index: &SpatialIndex, book: &RuleBook) -> Result<Option<RepublicSection>, CliError> {
    Ok(assess_republic_if_played(t, index, book)?.map(|found| section_of(t, book, &found)))
}

/// The section from the library's assessment.
#[must_use]
pub fn section_of(t: &Table, book: &RuleBook, found: &RepublicAssessment) -> RepublicSection {
    let inch = |mm: f64| book.mm_to_rule_inches(mm).map(micro);
    let mut s = RepublicSection::default();
    for (i, zone) in &found.alert {
        let mut zone: Vec<(usize, f64)> = zone.iter().map(|(&e, &d)| (e, d)).collect();
        zone.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        s.alert.push(AlertReport {
            unit: t.units[*i].id.clone(),
            enemies: zone.iter().map(|&(e, _)| t.units[e].id.clone()).collect(),
            distances_in: zone.iter().map(|&(_, d)| inch(d)).collect(),
        });
    }
    for r in &found.bluff {
        s.bluff.push(BluffReport {
            unit: t.units[r.unit].id.clone(),
            marker: t.units[r.marker].id.clone(),
            distance_in: inch(r.distance_mm),
        });
    }
    for m in &found.markers_near_leaders {
        s.markers_near_leaders.push(MarkerNearLeaderReport {
            leader: t.units[m.leader].id.clone(),
            marker: t.units[m.marker].id.clone(),
            distance_in: inch(m.distance_mm),
            sharpshooter: m.sharpshooter,
        });
    }
    for r in &found.support_behind {
        s.support_behind.push(SupportReport {
            unit: t.units[r.supported].id.clone(),
            supporter: t.units[r.supporter].id.clone(),
            distance_in: inch(r.distance_mm),
        });
    }
    s.lost_in_woods = found.lost_in_woods.iter().map(|&u| t.units[u].id.clone()).collect();
    for r in &found.road_columns {
        s.road_columns.push(RoadColumnReport {
            unit: t.units[r.unit].id.clone(),
            road: r.road.map(|i| t.terrain[i].id.clone().unwrap_or_else(|| format!("terrain[{i}]"))),
            words: road_column_words(t, r),
        });
    }
    s
}

/// The human rendering.
#[must_use]
pub fn render_text(s: &RepublicSection) -> String {
    let mut out = String::new();
    if !s.alert.is_empty() {
        let rows: Vec<Vec<String>> = s
            .alert
            .iter()
            .map(|a| {
                let enemies: Vec<String> = a
                    .enemies
                    .iter()
                    .zip(&a.distances_in)
                    .map(|(e, d)| format!("{e} ({}\")", num(*d, 2)))
                    .collect();
                vec![a.unit.clone(), if enemies.is_empty() { "-".into() } else { enemies.join(" ") }]
            })
            .collect();
        out.push_str(&format!(
            "\nAlert infantry (003 201: enemies in the 4\" zone)\n{}",
            render(&["unit", "enemies in zone"], &rows)
        ));
    }
    if !s.bluff.is_empty() {
        let rows: Vec<Vec<String>> = s
            .bluff
            .iter()
            .map(|b| vec![b.unit.clone(), b.marker.clone(), format!("{}\"", num(b.distance_in, 2))])
            .collect();
        out.push_str(&format!(
            "\nBluff assaults that reach (003 301: skirmishers in the open within 1\" / 3\" cavalry)\n{}",
            render(&["unit", "skirmishers", "distance"], &rows)
        ));
    }
    if !s.markers_near_leaders.is_empty() {
        let rows: Vec<Vec<String>> = s
            .markers_near_leaders
            .iter()
            .map(|m| {
                let who =
                    if m.sharpshooter { format!("{} (sharpshooter)", m.marker) } else { m.marker.clone() };
                vec![m.leader.clone(), who, format!("{}\"", num(m.distance_in, 2))]
            })
            .collect();
        out.push_str(&format!(
            "\nEnemy skirmishers near leaders (003 106: hors de combat modifier within 4\", sharpshooter 6\")\n{}",
            render(&["leader", "skirmishers", "distance"], &rows)
        ));
    }
    if !s.support_behind.is_empty() {
        let rows: Vec<Vec<String>> = s
            .support_behind
            .iter()
            .map(|r| vec![r.unit.clone(), r.supporter.clone(), format!("{}\"", num(r.distance_in, 2))])
            .collect();
        out.push_str(&format!(
            "\nSupport within 1\" to the rear of units in assault range (003 102 B, inexperienced sides)\n{}",
            render(&["unit", "supporter", "distance"], &rows)
        ));
    }
    if !s.lost_in_woods.is_empty() {
        out.push_str(&format!(
            "\nIn the woods beyond 4\" of friends (003 308: green or untrained brigades test to move): {}\n",
            s.lost_in_woods.join(" ")
        ));
    }
    if !s.road_columns.is_empty() {
        out.push_str("\nRoad columns (003 303: lined up on a road, movement on it doubled)\n");
        for r in &s.road_columns {
            out.push_str(&format!("  {}\n", r.words));
        }
    }
    out
}
