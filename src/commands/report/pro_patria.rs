//! The `pro_patria` section (Pro Patria tables only): units too close to the enemy,
//! each unit's nearest target in its firing arcs with any friends it would endanger,
//! every general's command radius, units near crest lines, units in march column and
//! whether they may force march, and the enemies a charge would catch.

use super::columns::render;
use crate::CliError;
use crate::commands::calls::{self, CallEntry};
use crate::commands::measure::micro;
use serde::Serialize;
use vedette_draw::findings::march::catch_words;
use vedette_draw::findings::movement::forced_march_words;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::pro_patria::assessment::{ProPatriaAssessment, assess_pro_patria_if_played};
use vedette_geometry::pro_patria::crest::{Crest, crest_name};
use vedette_geometry::{CoverClass, RuleBook, SpatialIndex, Table};

/// Two enemy units within 25 mm (15) of each other.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ProximityReport {
    /// One unit.
    pub a: String,
    /// The other.
    pub b: String,
    /// Closest distance, mm.
    pub distance_mm: f64,
    /// Edge contact, mm.
    pub contact_mm: f64,
    /// At least 30 mm (20) of edge contact.
    pub in_contact: bool,
    /// Within 25 mm (15) without being in contact: only a charger may be this close.
    pub too_close: bool,
    /// The close call of `in_contact`: the edge contact against 30 mm (20); see "Close
    /// calls".
    pub contact_call: CallEntry,
    /// The close call of the distance against the no-approach distance (25 mm, 15).
    pub approach_call: Option<CallEntry>,
}

/// A unit's nearest target in its arcs.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TargetReport {
    /// The firing unit.
    pub unit: String,
    /// The nearest visible enemy in its arcs, within visibility (§17.3).
    pub target: String,
    /// Distance, mm.
    pub distance_mm: f64,
    /// The target's cover against this fire (§15.11: `light` or `heavy`), `null` in the
    /// open.
    pub cover: Option<CoverClass>,
    /// Friendly units in the corridor to the target: the unit may not fire (§17.3.8).
    pub endangered: Vec<String>,
}

/// A unit of a general's command.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CommandReport {
    /// The general.
    pub general: String,
    /// The unit.
    pub unit: String,
    /// Distance, mm.
    pub distance_mm: f64,
    /// Within the command radius (400 mm, 250 for 15 mm figures).
    pub in_command: bool,
    /// The distance's close call against the radius.
    pub call: CallEntry,
}

/// A unit within 25 mm (15) of a hill's crest line: its player must say whether it is
/// behind the crest (not visible) or over it (visible) (§15.1).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CrestReport {
    /// The unit.
    pub unit: String,
    /// The hill (its id, or `terrain[K]`).
    pub hill: String,
    /// The nearer crest line: `spine` (along the hill through its centre) or `across`
    /// (across its widest point), as docs/report-format.md draws them, or `drawn` (the
    /// hill's crest lines given in the table file).
    pub crest: Crest,
    /// For a `drawn` crest, its index in the hill's `crests`; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawn: Option<usize>,
    /// The unit's base nearest the crest.
    pub base: String,
    /// Its closest distance to the crest line, mm.
    pub distance_mm: f64,
    /// How close a call "within 25 mm" is.
    pub call: CallEntry,
}

/// A unit in march column: may it force march where it stands (§17.4.5)?
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ForcedMarchReport {
    /// The unit.
    pub unit: String,
    /// The nearest visible formed enemy within twice the clearance (`null`: none).
    pub nearest: Option<String>,
    /// Its closest distance, mm.
    pub distance_mm: Option<f64>,
    /// No visible formed enemy within 300 mm (180): it may force march.
    pub allowed: bool,
    /// The distance's close call against the clearance (300 mm, 180).
    pub call: Option<CallEntry>,
    /// The verdict in words, as the text and the plan say it.
    pub words: String,
}

/// An enemy a unit would catch charging now (§17.2.3).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CatchReport {
    /// The charger.
    pub unit: String,
    /// The enemy it would catch.
    pub target: String,
    /// Closest distance, mm.
    pub distance_mm: f64,
    /// The catching distance, mm (50 infantry, 150 cavalry; 30, 90).
    pub reach_mm: f64,
    /// The distance's close call against the reach.
    pub call: CallEntry,
    /// The verdict in words.
    pub words: String,
}

/// The `pro_patria` section.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct ProPatriaSection {
    /// Enemy units within the no-approach distance.
    pub proximity: Vec<ProximityReport>,
    /// Nearest targets in arc.
    pub targets: Vec<TargetReport>,
    /// Command radius.
    pub command: Vec<CommandReport>,
    /// Units near a crest line, who must declare behind or over (§15.1).
    pub crests: Vec<CrestReport>,
    /// Every unit in march column: may it force march where it stands (§17.4.5)?
    pub forced_march: Vec<ForcedMarchReport>,
    /// Every enemy a unit would catch charging now, without a formation change
    /// (§17.2.3).
    pub charges: Vec<CatchReport>,
}

/// Builds the section; `None` unless the table is played with Pro Patria.
pub fn build(
    t: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<Option<ProPatriaSection>, CliError> {
    Ok(assess_pro_patria_if_played(t, index, book, sight)?.map(|found| section_of(t, &found)))
}

/// The section from the library's assessment.
#[must_use]
pub fn section_of(t: &Table, found: &ProPatriaAssessment) -> ProPatriaSection {
    let id = |u: usize| t.units[u].id.clone();
    let mut s = ProPatriaSection::default();
    for f in &found.proximities {
        let p = &f.proximity;
        let (needed, contact_call) = &f.contact_call;
        s.proximity.push(ProximityReport {
            a: id(p.a),
            b: id(p.b),
            distance_mm: micro(p.distance_mm),
            contact_mm: micro(p.contact_mm),
            in_contact: p.in_contact,
            too_close: f.too_close,
            contact_call: calls::entry(t, contact_call, Some(*needed)),
            approach_call: f.approach_call.as_ref().map(|(limit, c)| calls::entry(t, c, Some(*limit))),
        });
    }
    for f in &found.targets {
        s.targets.push(TargetReport {
            unit: id(f.unit),
            target: id(f.target),
            distance_mm: micro(f.distance_mm),
            cover: f.cover,
            endangered: f.endangered.iter().map(|&e| id(e)).collect(),
        });
    }
    for c in &found.command {
        s.command.push(CommandReport {
            general: id(c.general),
            unit: id(c.unit),
            distance_mm: micro(c.distance_mm),
            in_command: c.in_command,
            call: calls::entry(t, &c.call, Some(c.radius_mm)),
        });
    }
    for c in &found.crests {
        let hill = t.terrain[c.hill].id.clone().unwrap_or_else(|| format!("terrain[{}]", c.hill));
        s.crests.push(CrestReport {
            unit: id(c.unit),
            hill,
            crest: c.crest,
            drawn: c.drawn,
            base: t.base_label(c.base),
            distance_mm: micro(c.distance_mm),
            call: calls::entry(t, &c.call, Some(c.reach_mm)),
        });
    }
    for f in &found.forced_marches {
        s.forced_march.push(ForcedMarchReport {
            unit: id(f.unit),
            nearest: f.nearest.map(|(e, _)| id(e)),
            distance_mm: f.nearest.map(|(_, d)| micro(d)),
            allowed: f.allowed,
            call: f.call.as_ref().map(|c| calls::entry(t, c, Some(f.clearance_mm))),
            words: forced_march_words(t, f),
        });
    }
    for c in &found.catches {
        s.charges.push(CatchReport {
            unit: id(c.charger),
            target: id(c.target),
            distance_mm: micro(c.distance_mm),
            reach_mm: c.reach_mm,
            call: calls::entry(t, &c.call, Some(c.reach_mm)),
            words: catch_words(t, c),
        });
    }
    s
}

/// The human rendering.
#[must_use]
pub fn render_text(s: &ProPatriaSection) -> String {
    let mut out = String::new();
    if !s.proximity.is_empty() {
        out.push_str("\nPro Patria: units within 25 mm of an enemy\n");
        let rows: Vec<Vec<String>> = s
            .proximity
            .iter()
            .map(|p| {
                vec![
                    p.a.clone(),
                    p.b.clone(),
                    format!("{:.1} mm", p.distance_mm),
                    format!("{:.1} mm", p.contact_mm),
                    if p.in_contact {
                        "in contact".into()
                    } else if p.too_close {
                        "too close unless charging".into()
                    } else {
                        "-".into()
                    },
                    close(
                        [Some(&p.contact_call), p.approach_call.as_ref().filter(|_| !p.in_contact)]
                            .into_iter()
                            .flatten(),
                    ),
                ]
            })
            .collect();
        out.push_str(&render(&["unit", "unit", "gap", "edge contact", "verdict", "call"], &rows));
    }
    if !s.targets.is_empty() {
        out.push_str("\nPro Patria: nearest visible target in arc\n");
        let rows: Vec<Vec<String>> = s
            .targets
            .iter()
            .map(|x| {
                vec![
                    x.unit.clone(),
                    x.target.clone(),
                    format!("{:.1} mm", x.distance_mm),
                    x.cover
                        .and_then(|c| serde_json::to_value(c).ok())
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_else(|| "-".into()),
                    if x.endangered.is_empty() {
                        "-".into()
                    } else {
                        format!("may not fire: endangers {}", x.endangered.join(" "))
                    },
                ]
            })
            .collect();
        out.push_str(&render(&["unit", "target", "distance", "cover", "friends"], &rows));
    }
    if !s.command.is_empty() {
        out.push_str("\nPro Patria: command radius\n");
        let rows: Vec<Vec<String>> = s
            .command
            .iter()
            .map(|c| {
                vec![
                    c.general.clone(),
                    c.unit.clone(),
                    format!("{:.1} mm", c.distance_mm),
                    if c.in_command { "in command".into() } else { "OUT of command".into() },
                    close([&c.call]),
                ]
            })
            .collect();
        out.push_str(&render(&["general", "unit", "distance", "verdict", "call"], &rows));
    }
    if !s.crests.is_empty() {
        out.push_str("\nPro Patria: within 25 mm of a crest line: declare behind (not visible) or over (visible) (§15.1)\n");
        let rows: Vec<Vec<String>> = s
            .crests
            .iter()
            .map(|c| {
                let crest = crest_name(c.crest, c.drawn);
                vec![
                    c.unit.clone(),
                    format!("{} {crest}", c.hill),
                    format!("{:.1} mm", c.distance_mm),
                    close([&c.call]),
                ]
            })
            .collect();
        out.push_str(&render(&["unit", "crest", "distance", "call"], &rows));
    }
    if !s.forced_march.is_empty() {
        out.push_str("\nPro Patria: units in march column (§17.4.5: no forced march within 300 mm of a visible formed enemy)\n");
        for f in &s.forced_march {
            out.push_str(&format!("  {}{}\n", f.words, f.call.as_ref().map_or(String::new(), calls::mark)));
        }
    }
    if !s.charges.is_empty() {
        out.push_str(
            "\nPro Patria: enemies a charge would catch (§17.2.3: within 50 mm infantry, 150 mm cavalry)\n",
        );
        for c in &s.charges {
            out.push_str(&format!("  {}{}\n", c.words, calls::mark(&c.call)));
        }
    }
    out
}

/// The call column: "TOO CLOSE TO CALL" when any of the calls is, else "-".
fn close<'a>(c: impl IntoIterator<Item = &'a CallEntry>) -> String {
    if calls::any_close(c) { "TOO CLOSE TO CALL".into() } else { "-".into() }
}
