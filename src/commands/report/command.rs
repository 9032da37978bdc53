//! The `command` section: deployment areas, leaders, divisions, cavalry reaction and
//! pass-through zones (issue 5). What each rule set names:
//! - Republique 5.0 / Republic: everything below;
//! - classic Republique: leaders within 8 cm (emergency rally, injury) and divisions
//!   adjoining within 8 cm;
//! - Pro Patria: generals' command radius (in the `pro_patria` section).

use super::columns::{num, render};
use crate::CliError;
use crate::commands::calls::{self, CallEntry};
use crate::commands::measure::micro;
use serde::Serialize;
use vedette_geometry::close_call::CloseCall;
use vedette_geometry::command::assessment::{
    AssetFinding, CommandAssessment, UnitCall, ZoneFinding, assess_command,
};
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{LeaderRole, RuleBook, SpatialIndex, Table};

/// A unit and a distance.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UnitDistance {
    /// The unit.
    pub unit: String,
    /// Closest point to closest point, rule inches (`null` for Pro Patria).
    pub distance_in: Option<f64>,
    /// The same, table mm.
    pub distance_mm: f64,
}

/// A unit's distance against a reach: inside it, or just outside and too close to call.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UnitCallEntry {
    /// The unit.
    pub unit: String,
    /// Closest point to closest point, table mm (for the cavalry reaction zone, of the
    /// part ahead of the flank line).
    pub distance_mm: f64,
    /// Within the reach.
    pub inside: bool,
    /// The distance's close call against the reach; see "Close calls".
    pub call: CallEntry,
    /// Cavalry reaction zone only (enemies count when seen, 000 §3.6): seen or not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seen: Option<bool>,
    /// Cavalry reaction zone only: the close call of `seen`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sight_call: Option<CallEntry>,
}

/// An asset that must stand inside a deployment area.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AssetCheck {
    /// The unit.
    pub unit: String,
    /// Every base of it is inside the area.
    pub inside: bool,
    /// The fraction of its base area inside (0 to 1).
    pub fraction_inside: f64,
    /// The close call of `inside`; see "Close calls".
    pub call: Option<CallEntry>,
}

/// A unit's distance to its division leader and the rally penalty (000 §2.3).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RallyReach {
    /// The unit.
    pub unit: String,
    /// Distance to the division leader, rule inches.
    pub leader_distance_in: Option<f64>,
    /// Rally penalty: one per full 4" beyond 4".
    pub penalty: u32,
    /// The distance's close call against the nearest penalty step (8", 12"...).
    pub call: CallEntry,
}

/// One division.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DivisionReport {
    /// Its name.
    pub division: String,
    /// Its side.
    pub side: String,
    /// Its leader, if the table has one.
    pub leader: Option<String>,
    /// Its corps, if its units name one.
    pub corps: Option<String>,
    /// Units that draw the deployment area's boundary (and their skirmish markers).
    pub primary_units: Vec<String>,
    /// The deployment area, square rule inches.
    pub area_sq_in: Option<f64>,
    /// Attached units and artillery, which must stand inside the area.
    pub assets: Vec<AssetCheck>,
    /// The nearest enemy unit, rule inches (within the engagement range only).
    pub nearest_enemy_in: Option<f64>,
    /// Within 8" of the enemy: in engagement range (000 §3.3).
    pub engaged: bool,
    /// The nearest enemy's distance against 8" (`null` when no enemy is within it or
    /// just outside and too close to call).
    pub engagement_call: Option<CallEntry>,
    /// The division leader's distance to its corps leader, rule inches.
    pub corps_leader_distance_in: Option<f64>,
    /// The corps leader is more than 12" away (000 §3.3: -1 to the maneuver roll).
    pub corps_leader_beyond_12in: bool,
    /// The corps leader's distance against 12".
    pub corps_leader_call: Option<CallEntry>,
    /// Each unit's distance to the division leader and its rally penalty.
    pub rally: Vec<RallyReach>,
}

/// One corps' deployment area.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CorpsReport {
    /// The corps.
    pub corps: String,
    /// The area, square rule inches.
    pub area_sq_in: Option<f64>,
    /// Corps assets (attached, no division), which must stand inside.
    pub assets: Vec<AssetCheck>,
}

/// Two friendly divisions close together.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DivisionPair {
    /// One division.
    pub a: String,
    /// The other.
    pub b: String,
    /// Closest units, rule inches.
    pub distance_in: Option<f64>,
    /// Within 6": they may act together (000 §3.3). `false` under classic rules.
    pub together: bool,
    /// Within 3" (classic: 8 cm) and their closest units in sight of each other:
    /// adjoining for panic (000 §6.2, 002 §5.2, "or within line of sight, whichever is
    /// less").
    pub adjoining: bool,
    /// The distance against 6" (`null` under classic rules).
    pub together_call: Option<CallEntry>,
    /// The distance against 3" (classic: 8 cm).
    pub adjoining_call: Option<CallEntry>,
}

/// The units within one of a leader's rule distances.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct LeaderReach {
    /// What the distance is for, with its section.
    pub rule: String,
    /// The distance, rule inches.
    pub reach_in: Option<f64>,
    /// The friendly units within it.
    pub units: Vec<String>,
    /// Each unit within it, and each just outside that is too close to call, with its
    /// close call.
    pub calls: Vec<UnitCallEntry>,
}

/// One leader.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct LeaderReport {
    /// The leader.
    pub leader: String,
    /// Division, corps or army.
    pub role: Option<LeaderRole>,
    /// Units within each rule distance.
    pub reaches: Vec<LeaderReach>,
}

/// A unit and the units in one of its zones.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ZoneReport {
    /// The unit whose zone it is.
    pub unit: String,
    /// The zone's reach, rule inches.
    pub reach_in: Option<f64>,
    /// The units in it, nearest first.
    pub units: Vec<UnitDistance>,
    /// Each unit in it, and each just outside its reach that is too close to call, with
    /// its close call (the distance only: the lines that bound the zone are not carried).
    pub calls: Vec<UnitCallEntry>,
}

/// The `command` section.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct CommandSection {
    /// Every division (Republique 5.0 / Republic).
    pub divisions: Vec<DivisionReport>,
    /// Every corps (Republique 5.0 / Republic).
    pub corps: Vec<CorpsReport>,
    /// Friendly divisions within 6" (classic: 8 cm) of each other.
    pub division_pairs: Vec<DivisionPair>,
    /// Leaders and the units within their rule distances.
    pub leaders: Vec<LeaderReport>,
    /// Cavalry and the enemies within 6" of its front (000 §3.6).
    pub cavalry_reaction: Vec<ZoneReport>,
    /// Units and the friends within 3" (6" behind cavalry) to their rear (000 §5.5).
    pub pass_through: Vec<ZoneReport>,
}

/// Builds the section: the library's assessment ([`assess_command`]) with ids and rule
/// inches.
pub fn build(
    t: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<CommandSection, CliError> {
    Ok(section_of(t, book, &assess_command(t, index, book, sight)?))
}

/// The section from the library's assessment.
#[must_use]
pub fn section_of(t: &Table, book: &RuleBook, found: &CommandAssessment) -> CommandSection {
    let limited = |c: &Option<(f64, CloseCall)>| c.as_ref().map(|(l, c)| calls::entry(t, c, Some(*l)));
    let id = |u: usize| t.units[u].id.clone();
    let inch = |mm: f64| book.mm_to_rule_inches(mm).map(micro);
    let sq_in = |mm2: f64| book.rule_inches_to_mm(1.0).map(|one| micro(mm2 / (one * one)));
    let assets = |v: &[AssetFinding]| -> Vec<AssetCheck> {
        v.iter()
            .map(|a| AssetCheck {
                unit: id(a.unit),
                inside: a.inside,
                fraction_inside: micro(a.fraction_inside),
                call: a.call.as_ref().map(|c| calls::entry(t, c, None)),
            })
            .collect()
    };
    let unit_calls = |v: &[UnitCall], reach_mm: f64| -> Vec<UnitCallEntry> {
        v.iter()
            .map(|c| UnitCallEntry {
                unit: id(c.unit),
                distance_mm: micro(c.distance_mm),
                inside: c.inside,
                call: calls::entry(t, &c.call, Some(reach_mm)),
                seen: c.sight.map(|v| v.seen),
                sight_call: c.sight.map(|v| calls::entry(t, &v.call, None)),
            })
            .collect()
    };
    let zone = |z: &ZoneFinding| ZoneReport {
        calls: unit_calls(&z.calls, z.reach_mm),
        unit: id(z.unit),
        reach_in: inch(z.reach_mm),
        units: nearest_first(
            z.units
                .iter()
                .map(|(&u, &mm)| UnitDistance { unit: id(u), distance_in: inch(mm), distance_mm: micro(mm) })
                .collect(),
        ),
    };
    CommandSection {
        divisions: found
            .divisions
            .iter()
            .map(|d| DivisionReport {
                division: d.name.clone(),
                side: d.side.clone(),
                leader: d.leader.map(id),
                corps: d.corps.clone(),
                primary_units: d.primary_units.iter().map(|&i| id(i)).collect(),
                area_sq_in: d.area_mm2.and_then(sq_in),
                assets: assets(&d.assets),
                nearest_enemy_in: d.nearest_enemy_mm.and_then(inch),
                engaged: d.engaged(),
                engagement_call: limited(&d.engagement_call),
                corps_leader_distance_in: d.corps_leader_distance_mm.and_then(inch),
                corps_leader_beyond_12in: d.corps_leader_beyond,
                corps_leader_call: limited(&d.corps_leader_call),
                rally: d
                    .rally
                    .iter()
                    .map(|r| RallyReach {
                        unit: id(r.unit),
                        leader_distance_in: inch(r.leader_distance_mm),
                        penalty: r.penalty,
                        call: calls::entry(t, &r.call, Some(r.boundary_mm)),
                    })
                    .collect(),
            })
            .collect(),
        corps: found
            .corps
            .iter()
            .map(|c| CorpsReport {
                corps: c.name.clone(),
                area_sq_in: c.area_mm2.and_then(sq_in),
                assets: assets(&c.assets),
            })
            .collect(),
        division_pairs: found
            .division_pairs
            .iter()
            .map(|p| DivisionPair {
                a: p.a.clone(),
                b: p.b.clone(),
                distance_in: inch(p.distance_mm),
                together: p.together,
                adjoining: p.adjoining,
                together_call: limited(&p.together_call),
                adjoining_call: limited(&p.adjoining_call),
            })
            .collect(),
        leaders: found
            .leaders
            .iter()
            .map(|l| LeaderReport {
                leader: id(l.leader),
                role: t.units[l.leader].role,
                reaches: l
                    .reaches
                    .iter()
                    .map(|r| LeaderReach {
                        rule: r.rule.to_string(),
                        reach_in: inch(r.reach_mm),
                        units: r.units.iter().map(|&u| id(u)).collect(),
                        calls: unit_calls(&r.calls, r.reach_mm),
                    })
                    .collect(),
            })
            .collect(),
        cavalry_reaction: found.cavalry_reaction.iter().map(zone).collect(),
        pass_through: found.pass_through.iter().map(zone).collect(),
    }
}

fn nearest_first(mut v: Vec<UnitDistance>) -> Vec<UnitDistance> {
    v.sort_by(|a, b| a.distance_mm.total_cmp(&b.distance_mm).then(a.unit.cmp(&b.unit)));
    v
}

/// The human rendering.
#[must_use]
pub fn render_text(s: &CommandSection) -> String {
    let mut out = String::new();
    if !s.divisions.is_empty() {
        out.push_str("\nDivisions\n");
        let rows: Vec<Vec<String>> = s
            .divisions
            .iter()
            .map(|d| {
                let outside: Vec<&str> =
                    d.assets.iter().filter(|a| !a.inside).map(|a| a.unit.as_str()).collect();
                let far: Vec<String> = d
                    .rally
                    .iter()
                    .filter(|r| r.penalty > 0)
                    .map(|r| format!("{} -{}", r.unit, r.penalty))
                    .collect();
                vec![
                    d.division.clone(),
                    d.leader.clone().unwrap_or_else(|| "-".into()),
                    num(d.area_sq_in, 0),
                    format!("{}/{}", d.assets.len() - outside.len(), d.assets.len()),
                    if outside.is_empty() { "-".into() } else { outside.join(" ") },
                    if d.engaged {
                        format!("engaged ({}\")", num(d.nearest_enemy_in, 2))
                    } else {
                        "-".into()
                    },
                    if d.corps_leader_beyond_12in { "corps leader > 12\"".into() } else { "-".into() },
                    if far.is_empty() { "-".into() } else { far.join(" ") },
                ]
            })
            .collect();
        out.push_str(&render(
            &[
                "division",
                "leader",
                "area sq in",
                "assets in",
                "outside area",
                "engagement",
                "corps",
                "rally penalties",
            ],
            &rows,
        ));
    }
    for c in &s.corps {
        let outside: Vec<&str> = c.assets.iter().filter(|a| !a.inside).map(|a| a.unit.as_str()).collect();
        out.push_str(&format!(
            "  corps {}: area {} sq in, {} asset(s){}\n",
            c.corps,
            num(c.area_sq_in, 0),
            c.assets.len(),
            if outside.is_empty() { String::new() } else { format!(", outside: {}", outside.join(" ")) }
        ));
    }
    if !s.division_pairs.is_empty() {
        out.push_str("\nDivisions close together\n");
        let rows: Vec<Vec<String>> = s
            .division_pairs
            .iter()
            .map(|p| {
                vec![
                    p.a.clone(),
                    p.b.clone(),
                    num(p.distance_in, 2),
                    if p.together { "together".into() } else { "-".into() },
                    if p.adjoining { "adjoining".into() } else { "-".into() },
                ]
            })
            .collect();
        out.push_str(&render(&["division", "division", "inches", "6\"", "adjoining"], &rows));
    }
    let leaders: Vec<&LeaderReport> =
        s.leaders.iter().filter(|l| l.reaches.iter().any(|r| !r.units.is_empty())).collect();
    if !leaders.is_empty() {
        out.push_str("\nLeaders\n");
        let rows: Vec<Vec<String>> = leaders
            .iter()
            .flat_map(|l| {
                l.reaches.iter().filter(|r| !r.units.is_empty()).map(move |r| {
                    vec![
                        l.leader.clone(),
                        format!("{}\"", num(r.reach_in, 1)),
                        r.rule.clone(),
                        r.units.join(" "),
                    ]
                })
            })
            .collect();
        out.push_str(&render(&["leader", "within", "for", "units"], &rows));
    }
    for (title, zones) in [
        ("Cavalry reaction (6\" to the front)", &s.cavalry_reaction),
        ("Pass-through zones (to the rear)", &s.pass_through),
    ] {
        if zones.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{title}\n"));
        let rows: Vec<Vec<String>> = zones
            .iter()
            .map(|z| {
                vec![
                    z.unit.clone(),
                    format!("{}\"", num(z.reach_in, 0)),
                    z.units
                        .iter()
                        .map(|u| format!("{} ({}\")", u.unit, num(u.distance_in, 2)))
                        .collect::<Vec<_>>()
                        .join(" "),
                ]
            })
            .collect();
        out.push_str(&render(&["unit", "reach", "units"], &rows));
    }
    out.push_str(&render_close_calls(s));
    out
}

/// Every command verdict that is too close to call, one per line ("" when none).
fn render_close_calls(s: &CommandSection) -> String {
    let mut lines = Vec::new();
    let mut add = |what: String, c: &Option<CallEntry>| {
        if let Some(c) = c.as_ref().filter(|c| !c.certain) {
            lines.push(format!("  {what}{}\n", calls::mark(c)));
        }
    };
    for d in &s.divisions {
        add(format!("{} engagement range (8\")", d.division), &d.engagement_call);
        add(format!("{} corps leader within 12\"", d.division), &d.corps_leader_call);
        for a in &d.assets {
            let side = if a.inside { "inside" } else { "outside" };
            add(format!("{} {side} the deployment area of {}", a.unit, d.division), &a.call);
        }
        for r in &d.rally {
            add(format!("{} rally penalty of {}", d.division, r.unit), &Some(r.call.clone()));
        }
    }
    for c in &s.corps {
        for a in &c.assets {
            let side = if a.inside { "inside" } else { "outside" };
            add(format!("{} {side} the deployment area of corps {}", a.unit, c.corps), &a.call);
        }
    }
    for p in &s.division_pairs {
        add(format!("{} and {} together (6\")", p.a, p.b), &p.together_call);
        add(format!("{} and {} adjoining", p.a, p.b), &p.adjoining_call);
    }
    for l in &s.leaders {
        for r in &l.reaches {
            for c in &r.calls {
                let side = if c.inside { "within" } else { "outside" };
                add(
                    format!("{} {side} {}\" of {}", c.unit, num(r.reach_in, 1), l.leader),
                    &Some(c.call.clone()),
                );
            }
        }
    }
    for (what, zones) in [("reaction zone", &s.cavalry_reaction), ("pass-through zone", &s.pass_through)] {
        for z in zones {
            for c in &z.calls {
                let side = if c.inside { "in" } else { "outside" };
                add(format!("{} {side} the {what} of {}", c.unit, z.unit), &Some(c.call.clone()));
                let seen = if c.seen == Some(true) { "seen" } else { "not seen" };
                add(format!("{} {seen} by {} ({what})", c.unit, z.unit), &c.sight_call);
            }
        }
    }
    if lines.is_empty() { String::new() } else { format!("\nCommand close calls\n{}", lines.concat()) }
}
