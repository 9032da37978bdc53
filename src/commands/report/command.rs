//! The `command` section: deployment areas, leaders, divisions, cavalry reaction and
//! pass-through zones (issue 5). What each rule set names:
//! - Republique 5.0 / Republic: everything below;
//! - classic Republique: leaders within 8 cm (emergency rally, injury) and divisions
//!   adjoining within 8 cm;
//! - Pro Patria: generals' command radius (in the `pro_patria` section).

use super::columns::{num, render};
use crate::CliError;
use crate::commands::measure::micro;
use serde::Serialize;
use std::collections::BTreeSet;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{
    LeaderRole, LeaderScope, RuleBook, RuleDistance, RuleSet, SpatialIndex, Table, UnitKind, commanded_units,
    corps_area, corps_leader_distance_mm, division_area, division_gaps, division_leader,
    nearest_enemy_of_divisions, pass_through, primary_units, rally_penalty, reaction_zone, unit_distance_mm,
    units_within_reach,
};

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

/// An asset that must stand inside a deployment area.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AssetCheck {
    /// The unit.
    pub unit: String,
    /// Every base of it is inside the area.
    pub inside: bool,
    /// The fraction of its base area inside (0 to 1).
    pub fraction_inside: f64,
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
    /// The division leader's distance to its corps leader, rule inches.
    pub corps_leader_distance_in: Option<f64>,
    /// The corps leader is more than 12" away (000 §3.3: -1 to the maneuver roll).
    pub corps_leader_beyond_12in: bool,
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
    /// Within 3" (classic: 8 cm): adjoining for panic, unless line of sight is shorter
    /// (000 §6.2, 002 §5.2: not decided here).
    pub adjoining: bool,
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

fn sorted_set<'a>(it: impl Iterator<Item = &'a str>) -> Vec<String> {
    it.map(str::to_string).collect::<BTreeSet<_>>().into_iter().collect()
}

/// Builds the section.
pub fn build(
    t: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<CommandSection, CliError> {
    let mut s = CommandSection::default();
    let inch = |mm: f64| book.mm_to_rule_inches(mm).map(micro);
    let sq_in = |mm2: f64| book.rule_inches_to_mm(1.0).map(|one| micro(mm2 / (one * one)));
    let unit_dist = |u: usize, mm: f64| UnitDistance {
        unit: t.units[u].id.clone(),
        distance_in: inch(mm),
        distance_mm: micro(mm),
    };
    match book.rules() {
        RuleSet::Republique5 | RuleSet::Republic => {
            let engage = book.distance_mm(RuleDistance::EngagementRange)?;
            let corps_reach = book.distance_mm(RuleDistance::CorpsCommander)?;
            let enemies = nearest_enemy_of_divisions(t, index, engage);
            let divisions = sorted_set(t.units.iter().filter_map(|u| u.division.as_deref()));
            for d in &divisions {
                let members: Vec<usize> = (0..t.units.len())
                    .filter(|&i| t.units[i].division.as_deref() == Some(d.as_str()))
                    .collect();
                let side = t.units[members[0]].side.clone();
                let leader = division_leader(t, d);
                let corps = members.iter().find_map(|&i| t.units[i].corps.clone());
                let primary = primary_units(t, d);
                let area = division_area(t, d, book)?;
                let assets = members
                    .iter()
                    .filter(|&&i| {
                        let u = &t.units[i];
                        (u.attached || u.kind == UnitKind::Artillery) && u.kind != UnitKind::Leader
                    })
                    .map(|&i| {
                        let u = &t.units[i];
                        let frac = area.as_ref().map_or(0.0, |a| {
                            u.bases.iter().map(|b| a.fraction_of_base(b) * b.area()).sum::<f64>()
                                / u.bases.iter().map(|b| b.area()).sum::<f64>()
                        });
                        AssetCheck {
                            unit: u.id.clone(),
                            inside: area.as_ref().is_some_and(|a| a.contains_unit(u)),
                            fraction_inside: micro(frac),
                        }
                    })
                    .collect();
                let corps_leader_mm = corps_leader_distance_mm(t, d);
                let mut rally = Vec::new();
                if let Some(l) = leader {
                    for u in commanded_units(t, l) {
                        if !t.units[u].is_combat() {
                            continue;
                        }
                        if let Some(dmm) = unit_distance_mm(t, l, u) {
                            rally.push(RallyReach {
                                unit: t.units[u].id.clone(),
                                leader_distance_in: inch(dmm),
                                penalty: rally_penalty(dmm, book)?,
                            });
                        }
                    }
                }
                s.divisions.push(DivisionReport {
                    division: d.clone(),
                    side,
                    leader: leader.map(|l| t.units[l].id.clone()),
                    corps,
                    primary_units: primary.iter().map(|&i| t.units[i].id.clone()).collect(),
                    area_sq_in: area.as_ref().and_then(|a| sq_in(a.area_mm2())),
                    assets,
                    nearest_enemy_in: enemies.get(d).and_then(|&mm| inch(mm)),
                    engaged: enemies.contains_key(d),
                    corps_leader_distance_in: corps_leader_mm.and_then(inch),
                    corps_leader_beyond_12in: corps_leader_mm
                        .is_some_and(|mm| !vedette_geometry::ties::within(mm, corps_reach)),
                    rally,
                });
            }
            for c in sorted_set(t.units.iter().filter_map(|u| u.corps.as_deref())) {
                let area = corps_area(t, &c, book)?;
                let assets = t
                    .units
                    .iter()
                    .filter(|u| u.corps.as_deref() == Some(c.as_str()) && u.division.is_none() && u.attached)
                    .map(|u| AssetCheck {
                        unit: u.id.clone(),
                        inside: area.as_ref().is_some_and(|a| a.contains_unit(u)),
                        fraction_inside: micro(area.as_ref().map_or(0.0, |a| {
                            u.bases.iter().map(|b| a.fraction_of_base(b) * b.area()).sum::<f64>()
                                / u.bases.iter().map(|b| b.area()).sum::<f64>()
                        })),
                    })
                    .collect();
                s.corps.push(CorpsReport {
                    corps: c.clone(),
                    area_sq_in: area.as_ref().and_then(|a| sq_in(a.area_mm2())),
                    assets,
                });
            }
            let together = book.distance_mm(RuleDistance::DivisionsTogether)?;
            let adjoining = book.distance_mm(RuleDistance::AdjoiningDivisions)?;
            for g in division_gaps(t, index, together) {
                s.division_pairs.push(DivisionPair {
                    a: g.a,
                    b: g.b,
                    distance_in: inch(g.distance_mm),
                    together: true,
                    adjoining: vedette_geometry::ties::within(g.distance_mm, adjoining),
                });
            }
            let bonus = book.distance_mm(RuleDistance::LeaderAssaultBonus)?;
            let rally_reach = book.distance_mm(RuleDistance::RallyStep)?;
            s.leaders = leader_reports(
                t,
                index,
                &[
                    ("E/P assault bonus and hors de combat (000 §4.7, §5.4)", bonus, false),
                    ("corps or army leader adds to rally (000 §2.3)", rally_reach, true),
                ],
                book,
            );
            for (i, u) in t.units.iter().enumerate() {
                if u.kind == UnitKind::Cavalry {
                    let zone = reaction_zone(t, index, book, sight, i)?;
                    if !zone.is_empty() {
                        s.cavalry_reaction.push(ZoneReport {
                            unit: u.id.clone(),
                            reach_in: inch(book.distance_mm(RuleDistance::CavalryReaction)?),
                            units: nearest_first(zone.into_iter().map(|(k, v)| unit_dist(k, v)).collect()),
                        });
                    }
                }
                if let Some(reach) = vedette_geometry::pass_through_reach_mm(u.kind, book)? {
                    let zone = pass_through(t, index, book, i)?;
                    if !zone.is_empty() {
                        s.pass_through.push(ZoneReport {
                            unit: u.id.clone(),
                            reach_in: inch(reach),
                            units: nearest_first(zone.into_iter().map(|(k, v)| unit_dist(k, v)).collect()),
                        });
                    }
                }
            }
        }
        RuleSet::RepubliqueClassic => {
            let panic = book.distance_mm(RuleDistance::AdjoiningPanic)?;
            for g in division_gaps(t, index, panic) {
                s.division_pairs.push(DivisionPair {
                    a: g.a,
                    b: g.b,
                    distance_in: inch(g.distance_mm),
                    together: false,
                    adjoining: true,
                });
            }
            let rally = book.distance_mm(RuleDistance::EmergencyRally)?;
            s.leaders = leader_reports(
                t,
                index,
                &[("emergency rally and leader injury (001 §4.5, §4.6)", rally, false)],
                book,
            );
        }
        RuleSet::ProPatria => {}
    }
    Ok(s)
}

fn nearest_first(mut v: Vec<UnitDistance>) -> Vec<UnitDistance> {
    v.sort_by(|a, b| a.distance_mm.total_cmp(&b.distance_mm).then(a.unit.cmp(&b.unit)));
    v
}

/// For each leader, the friendly combat units within each reach (`own_command_only`:
/// only units the leader commands; corps and army leaders only).
fn leader_reports(
    t: &Table,
    index: &SpatialIndex,
    reaches: &[(&str, f64, bool)],
    book: &RuleBook,
) -> Vec<LeaderReport> {
    let mut out = Vec::new();
    for (li, l) in t.units.iter().enumerate() {
        if l.kind != UnitKind::Leader {
            continue;
        }
        let mut rs = Vec::new();
        for &(rule, reach, own) in reaches {
            if own && !matches!(l.role, Some(LeaderRole::Corps | LeaderRole::Army)) {
                continue;
            }
            let scope = if own { LeaderScope::OwnCommand } else { LeaderScope::AnyFriendly };
            let units: Vec<String> = units_within_reach(t, index, li, reach, scope)
                .into_iter()
                .map(|u| t.units[u].id.clone())
                .collect();
            rs.push(LeaderReach {
                rule: rule.to_string(),
                reach_in: book.mm_to_rule_inches(reach).map(micro),
                units,
            });
        }
        out.push(LeaderReport { leader: l.id.clone(), role: l.role, reaches: rs });
    }
    out
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
    out
}
