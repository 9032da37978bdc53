//! The `artillery` section of `vedette report`: one entry per battery, as the issue's
//! JSON shape asks (`battery`, `frontage`, `targets`, `main_target`, `deep`,
//! `deep_bases`, `enfilade`, `enfilade_flank`, `tandem`, `adjacent`), with further fields
//! documented in `docs/report-format.md`. Distances are rule inches (scale applied).
//!
//! Line of sight comes from the terrain-aware model ([`TerrainSight`]: units, woods,
//! buildings, spotting depth, hills); open ground for the deep and tandem rules from
//! [`TerrainOutlines`].

use crate::CliError;
use crate::commands::calls::{self, CallEntry};
use crate::commands::measure::micro;
use serde::Serialize;
use vedette_geometry::artillery::{
    ArtilleryAssessment, BatteryCalls, TargetCalls, TargetCover, assess_table_artillery,
};
use vedette_geometry::close_call::{CloseCall, PERTURBATION_MAX_MM};
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{
    ArtilleryRules, ArtilleryWeight, BaseRef, BatteryAssessment, CoverClass, DeepReason, EnfiladeVerdict,
    FlankSide, FrontageMode, FrontageSource, ManeuverSystem, SpatialIndex, StandingExposure, Table, UnitKind,
    ZoneObstacleSource,
};

/// One battery's findings.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ArtilleryEntry {
    /// The battery: its unit id, or `unit#index` for a base of a massed battery.
    pub battery: String,
    /// Its weight.
    pub weight: ArtilleryWeight,
    /// True when limbered: it may not fire (000 §4.2), so it has no targets.
    pub limbered: bool,
    /// Normal or packed frontage (000 §1.4).
    pub frontage: FrontageMode,
    /// Where the frontage mode came from.
    pub frontage_source: FrontageSourceName,
    /// Bases reaching into the half-base-width strips beside the battery.
    pub frontage_crowded_by: Vec<String>,
    /// Width of the frontage, rule inches.
    pub frontage_in: f64,
    /// Maximum range, rule inches.
    pub max_range_in: f64,
    /// The firing-zone swings that are clear, as closed `[from, to]` intervals in degrees
    /// counter-clockwise from straight ahead (positive: to the battery's left).
    pub clear_swings_deg: Vec<[f64; 2]>,
    /// The friendly bases (`unit#index`) and markers (`marker[i]`) that block some swing.
    pub zone_blocked_by: Vec<String>,
    /// The close call of "some swing is clear": every friendly base and marker grown
    /// (a clear zone) or shrunk (a blocked one) until it flips; `null` when limbered.
    pub zone_call: Option<CallEntry>,
    /// Every enemy unit with part of a base in the arc of fire within maximum range.
    pub targets: Vec<TargetEntry>,
    /// The main target's unit id, or null when no target is valid.
    pub main_target: Option<String>,
    /// The aim at the main target: the swing of the firing zone, degrees.
    pub aim_swing_deg: Option<f64>,
    /// The centre of fire along the aim, from the middle of the frontage to maximum
    /// range, as two `[x, y]` table points in mm.
    pub centre_of_fire_mm: Option<[[f64; 2]; 2]>,
    /// The main target is a deep target (000 §4.3 A-B).
    pub deep: bool,
    /// The bases that made it deep by the centre-of-fire walk (empty otherwise).
    pub deep_bases: Vec<String>,
    /// Every reason it is deep (cumulative).
    pub deep_reasons: Vec<DeepReasonName>,
    /// The counted bases the centre of fire passes into within the 4" window.
    pub deep_window_bases: Vec<String>,
    /// Enemy combat bases in the window that do not count (cover, obstacle, range).
    pub deep_excluded_bases: Vec<String>,
    /// True when point-blank range shortened the window (000 §4.3).
    pub point_blank: bool,
    /// Fire on the main target is in enfilade (000 §4.4).
    pub enfilade: bool,
    /// The flank taken in enfilade, when the geometry decides it.
    pub enfilade_flank: Option<FlankSide>,
    /// Why it is in enfilade: `flank`, `square` or `breakthrough-column`.
    pub enfilade_reason: Option<ExposureName>,
    /// Tandem secondary targets (000 §4.5).
    pub tandem: Vec<String>,
    /// Adjacent secondary targets (000 §4.5).
    pub adjacent: Vec<String>,
    /// The unlimber limit check (000 §3.6).
    pub unlimber: UnlimberEntry,
    /// The main target's cover (000 §4.3 range column modifier); `null` without a main
    /// target.
    pub target_cover: Option<TargetCoverEntry>,
}

/// The cover of a battery's main target (000 §4.3).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TargetCoverEntry {
    /// The class the target counts as in (`medium`, `heavy`, `reinforced`): half or more
    /// of its visible bases within or behind it; `null` in the open.
    pub class: Option<CoverClass>,
    /// Range columns to the right: 1 medium or heavy, 2 reinforced; 0 in the open or when
    /// the centre of fire is nearest an uncovered base.
    pub columns_right: u8,
    /// The target's bases the battery sees some part of (`unit#index`).
    pub visible_bases: Vec<String>,
    /// Of those, the bases within or behind medium or better cover.
    pub covered_bases: Vec<String>,
    /// The visible base nearest the centre of fire.
    pub aimed_base: Option<String>,
    /// The centre of fire is nearest an uncovered base of a covered unit: the battery
    /// fires at the uncovered portions without the modifier.
    pub fires_at_uncovered: bool,
    /// The close call of `class`: how far the deciding visible base must move for the
    /// class to change; see "Close calls".
    pub call: Option<CallEntry>,
}

/// One candidate target of a battery.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TargetEntry {
    /// The unit id.
    pub unit: String,
    /// Its kind.
    pub kind: UnitKind,
    /// Range from the frontage to its part inside the arc, rule inches.
    pub range_in: f64,
    /// The 2" range bracket: 1 for ranges up to and including 2", 2 up to 4", ...
    pub bracket: u32,
    /// Half or more of one of its bases lies inside the arc of fire.
    pub half_base_in_arc: bool,
    /// The largest fraction of one of its bases inside the arc (0 to 1).
    pub arc_fraction: f64,
    /// The battery sees at least one full base of it.
    pub line_of_sight: bool,
    /// A clear firing zone can be laid on it.
    pub zone_clear: bool,
    /// All of the above: it may be fired on.
    pub valid: bool,
    /// The base that sets its range.
    pub nearest_base: String,
    /// The first base found wholly visible.
    pub seen_base: Option<String>,
    /// The aim at it, degrees (when the zone is clear).
    pub aim_swing_deg: Option<f64>,
    /// Distance from the battery's centreline to its part inside the arc, rule inches
    /// (the main-target tie-break of 000 §4.5).
    pub centre_offset_in: f64,
    /// Fire on it would be in enfilade.
    pub enfilade: bool,
    /// The flank it would be enfiladed on.
    pub enfilade_flank: Option<FlankSide>,
    /// The range's close call against the nearest bracket edge or the maximum range
    /// (`limit_mm`); see "Close calls" in docs/report-format.md.
    pub range_call: Option<CallEntry>,
    /// The close call of `half_base_in_arc`: the deciding base's centre against the arc
    /// side nearest it.
    pub arc_call: Option<CallEntry>,
    /// The close call of `enfilade`: the battery's frontage end nearest to leaving (or
    /// farthest from entering) the target's enfilade zone; `null` for a square or a
    /// breakthrough column (enfiladed by formation).
    pub enfilade_call: Option<CallEntry>,
    /// The close call of `line_of_sight`: every base grown or shrunk against it.
    pub sight_call: CallEntry,
    /// The close call of `zone_clear`: the zone's obstacles and the target's bases
    /// grown or shrunk against it.
    pub zone_call: CallEntry,
}

/// The unlimber limit check of a battery.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UnlimberEntry {
    /// The side's maneuver system, or null when the table does not give one.
    pub system: Option<ManeuverSystem>,
    /// The limit, rule inches (1.5 French, 3 Prussian).
    pub limit_in: Option<f64>,
    /// True when an enemy combat base is closer than the limit; null without a system.
    pub too_close: Option<bool>,
    /// The nearest enemy combat base closer than the limit.
    pub nearest_enemy: Option<String>,
    /// Its distance, rule inches.
    pub distance_in: Option<f64>,
    /// The close call of `too_close`: the nearest enemy combat base against the limit
    /// (`null` without a system or with no enemy within 1" beyond the limit).
    pub call: Option<CallEntry>,
}

/// Where a frontage mode came from.
#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FrontageSourceName {
    /// The table file's `frontage` field.
    Table,
    /// The free space beside the battery.
    FreeSpace,
}

/// Why fire is in enfilade.
#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ExposureName {
    /// The battery stands in the enfilade zone of a flank.
    Flank,
    /// The target is in square.
    Square,
    /// The target is a Republic breakthrough column.
    BreakthroughColumn,
}

/// Why a target is deep.
#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DeepReasonName {
    /// Three or more bases in the centre-of-fire window.
    Bases,
    /// The target is in square.
    Square,
    /// The target is a Republic breakthrough column.
    BreakthroughColumn,
}

fn exposure_name(s: StandingExposure) -> ExposureName {
    match s {
        StandingExposure::Square => ExposureName::Square,
        StandingExposure::BreakthroughColumn => ExposureName::BreakthroughColumn,
    }
}

fn enfilade_reason(v: EnfiladeVerdict) -> Option<ExposureName> {
    match v {
        EnfiladeVerdict::Flank(_) => Some(ExposureName::Flank),
        EnfiladeVerdict::Standing(s) => Some(exposure_name(s)),
        EnfiladeVerdict::No => None,
    }
}

/// The artillery section of a table, or `None` when its rule set has no Republique
/// artillery rules.
pub fn artillery_section(
    table: &Table,
    index: &SpatialIndex,
    los: &TerrainSight,
) -> Result<Option<Vec<ArtilleryEntry>>, CliError> {
    Ok(assess_table_artillery(table, index, los)?.map(|found| section_of(table, &found)))
}

/// The artillery section from the library's assessment ([`assess_table_artillery`]).
#[must_use]
pub fn section_of(table: &Table, found: &ArtilleryAssessment) -> Vec<ArtilleryEntry> {
    found
        .batteries
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let cover = found.covers.get(i).and_then(Option::as_ref);
            entry(table, &found.rules, a, cover, found.calls.get(i))
        })
        .collect()
}

fn battery_label(table: &Table, r: BaseRef) -> String {
    if table.units[r.unit].bases.len() == 1 { table.units[r.unit].id.clone() } else { table.base_label(r) }
}

fn entry(
    table: &Table,
    rules: &ArtilleryRules,
    a: &BatteryAssessment,
    cover: Option<&TargetCover>,
    battery_calls: Option<&BatteryCalls>,
) -> ArtilleryEntry {
    let limited =
        |c: &Option<(f64, CloseCall)>| c.as_ref().map(|(limit, c)| calls::entry(table, c, Some(*limit)));
    let exact = CloseCall::exact(PERTURBATION_MAX_MM);
    let none = TargetCalls { range: None, arc: None, enfilade: None, sight: exact, zone: exact };
    let inches = |mm: f64| micro(rules.rule_inches(mm));
    let labels = |v: &[BaseRef]| v.iter().map(|&r| table.base_label(r)).collect::<Vec<_>>();
    let ids = |v: &[usize]| v.iter().map(|&u| table.units[u].id.clone()).collect::<Vec<_>>();
    let b = &a.battery;
    let targets = a
        .targets
        .iter()
        .enumerate()
        .map(|(k, t)| (t, battery_calls.and_then(|c| c.targets.get(k)).unwrap_or(&none)))
        .map(|(t, k)| TargetEntry {
            unit: table.units[t.unit].id.clone(),
            kind: table.units[t.unit].kind,
            range_in: inches(t.range_mm),
            bracket: t.bracket,
            half_base_in_arc: t.half_base_in_arc,
            arc_fraction: micro(t.arc_fraction),
            line_of_sight: t.line_of_sight,
            zone_clear: t.zone_clear,
            valid: t.is_valid(),
            nearest_base: table.base_label(t.nearest_base),
            seen_base: t.seen_base.map(|r| table.base_label(r)),
            aim_swing_deg: t.aim_swing_deg.map(micro),
            centre_offset_in: inches(t.centre_offset_mm),
            enfilade: t.enfilade.is_enfilade(),
            enfilade_flank: t.enfilade.flank(),
            range_call: limited(&k.range),
            arc_call: k.arc.as_ref().map(|c| calls::entry(table, c, None)),
            enfilade_call: k.enfilade.as_ref().map(|c| calls::entry(table, c, None)),
            sight_call: calls::entry(table, &k.sight, None),
            zone_call: calls::entry(table, &k.zone, None),
        })
        .collect();
    let main = a.main.as_ref();
    let deep = main.map(|m| &m.deep);
    let enfilade = main.map_or(EnfiladeVerdict::No, |m| m.enfilade);
    let u = &a.unlimber;
    ArtilleryEntry {
        battery: battery_label(table, b.base_ref),
        weight: b.weight,
        limbered: b.limbered,
        frontage: b.frontage.mode,
        frontage_source: match b.frontage.source {
            FrontageSource::Table => FrontageSourceName::Table,
            FrontageSource::FreeSpace => FrontageSourceName::FreeSpace,
        },
        frontage_crowded_by: labels(&b.frontage.crowded_by),
        frontage_in: inches(b.frontage.edge.length()),
        max_range_in: inches(b.max_range_mm),
        clear_swings_deg: a
            .clear_swings
            .intervals()
            .iter()
            .map(|i| [micro(i.from_deg), micro(i.to_deg)])
            .collect(),
        zone_blocked_by: a
            .zone_blockers
            .iter()
            .map(|s| match *s {
                ZoneObstacleSource::Base(r) => table.base_label(r),
                ZoneObstacleSource::Marker(i) => format!("marker[{i}]"),
            })
            .collect(),
        zone_call: battery_calls.and_then(|c| c.zone.as_ref()).map(|c| calls::entry(table, c, None)),
        targets,
        main_target: main.map(|m| table.units[m.unit].id.clone()),
        aim_swing_deg: main.map(|m| micro(m.aim_swing_deg)),
        centre_of_fire_mm: main.map(|m| {
            let c = m.centre_of_fire;
            [[micro(c.a.x), micro(c.a.y)], [micro(c.b.x), micro(c.b.y)]]
        }),
        deep: deep.is_some_and(|d| d.is_deep()),
        deep_bases: deep.map(|d| labels(&d.deep_bases)).unwrap_or_default(),
        deep_reasons: deep
            .map(|d| {
                d.reasons
                    .iter()
                    .map(|r| match r {
                        DeepReason::Bases => DeepReasonName::Bases,
                        DeepReason::Standing(StandingExposure::Square) => DeepReasonName::Square,
                        DeepReason::Standing(StandingExposure::BreakthroughColumn) => {
                            DeepReasonName::BreakthroughColumn
                        }
                    })
                    .collect()
            })
            .unwrap_or_default(),
        deep_window_bases: deep.map(|d| labels(&d.window_bases)).unwrap_or_default(),
        deep_excluded_bases: deep.map(|d| labels(&d.excluded_bases)).unwrap_or_default(),
        point_blank: deep.is_some_and(|d| d.point_blank),
        enfilade: enfilade.is_enfilade(),
        enfilade_flank: enfilade.flank(),
        enfilade_reason: enfilade_reason(enfilade),
        tandem: main.map(|m| ids(&m.secondary.tandem)).unwrap_or_default(),
        adjacent: main.map(|m| ids(&m.secondary.adjacent)).unwrap_or_default(),
        unlimber: UnlimberEntry {
            system: u.system,
            limit_in: u.limit_mm.map(inches),
            too_close: u.too_close(),
            nearest_enemy: u.nearest_enemy.map(|(r, _)| table.base_label(r)),
            distance_in: u.nearest_enemy.map(|(_, d)| inches(d)),
            call: battery_calls.and_then(|c| limited(&c.unlimber)),
        },
        target_cover: main.zip(cover).map(|(m, c)| {
            let label = |i: usize| table.base_label(BaseRef::new(m.unit, i));
            TargetCoverEntry {
                class: c.class,
                columns_right: c.columns_right(),
                visible_bases: c.visible_bases.iter().map(|&i| label(i)).collect(),
                covered_bases: c.covered_bases().into_iter().map(label).collect(),
                aimed_base: c.aimed_base.map(label),
                fires_at_uncovered: c.fires_at_uncovered,
                call: c.call.as_ref().map(|k| calls::entry(table, k, None)),
            }
        }),
    }
}

/// Lays out rows as a text table with a header, columns padded to their widest cell.
fn text_table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: Vec<String>| {
        let mut s = String::from("  ");
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            if i + 1 == cells.len() {
                s.push_str(c);
            } else {
                s.push_str(&format!("{c:<w$}  "));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(header.iter().map(|h| h.to_string()).collect());
    for r in rows {
        out.push_str(&line(r.clone()));
    }
    out
}

fn list(v: &[String]) -> String {
    if v.is_empty() { "-".to_string() } else { v.join(" ") }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The human-readable artillery section: one line per battery, then each battery's
/// candidate targets.
#[must_use]
pub fn render_artillery(batteries: &[ArtilleryEntry]) -> String {
    let mut s =
        String::from("\nArtillery (ranges in rule inches, 2\" brackets; swings in degrees, + = left)\n");
    if batteries.is_empty() {
        s.push_str("  no batteries\n");
        return s;
    }
    let rows: Vec<Vec<String>> = batteries
        .iter()
        .map(|b| {
            let main = b.main_target.as_ref().and_then(|id| b.targets.iter().find(|t| &t.unit == id));
            let frontage = match b.frontage {
                FrontageMode::Normal => "normal",
                FrontageMode::Packed => "packed",
            };
            let deep = if b.deep {
                let n = b.deep_bases.len();
                let mut why: Vec<String> = Vec::new();
                if n > 0 {
                    why.push(format!("{n} bases"));
                }
                for r in &b.deep_reasons {
                    match r {
                        DeepReasonName::Square => why.push("square".to_string()),
                        DeepReasonName::BreakthroughColumn => why.push("breakthrough column".to_string()),
                        DeepReasonName::Bases => {}
                    }
                }
                format!("yes ({})", why.join(", "))
            } else if main.is_some() {
                format!("no ({} in window)", b.deep_window_bases.len())
            } else {
                "-".to_string()
            };
            let enfilade = match (b.enfilade, b.enfilade_flank, b.enfilade_reason) {
                (true, Some(FlankSide::Left), _) => "yes, left flank".to_string(),
                (true, Some(FlankSide::Right), _) => "yes, right flank".to_string(),
                (true, None, Some(ExposureName::Square)) => "yes (square)".to_string(),
                (true, None, _) => "yes (breakthrough column)".to_string(),
                (false, ..) if main.is_some() => "no".to_string(),
                _ => "-".to_string(),
            };
            let unlimber = match (b.unlimber.too_close, &b.unlimber.nearest_enemy, b.unlimber.distance_in) {
                (Some(true), Some(e), Some(d)) => {
                    format!("TOO CLOSE: {e} at {d:.2}\" < {:.1}\"", b.unlimber.limit_in.unwrap_or(0.0))
                }
                (Some(_), ..) => format!("ok (limit {:.1}\")", b.unlimber.limit_in.unwrap_or(0.0)),
                (None, ..) => "no system".to_string(),
            };
            let cover = match &b.target_cover {
                Some(c) if c.fires_at_uncovered => "no (aims at uncovered)".to_string(),
                Some(TargetCoverEntry { class: Some(k), columns_right, .. }) => {
                    format!(
                        "{} (+{columns_right} col)",
                        serde_json::to_value(k)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_default()
                    )
                }
                Some(_) => "no".to_string(),
                None => "-".to_string(),
            };
            vec![
                b.battery.clone(),
                b.weight.name().to_string(),
                if b.limbered { format!("{frontage} (limbered)") } else { frontage.to_string() },
                b.main_target.clone().unwrap_or_else(|| "-".to_string()),
                main.map_or("-".to_string(), |t| format!("{:.2}", t.range_in)),
                main.map_or("-".to_string(), |t| t.bracket.to_string()),
                b.aim_swing_deg.map_or("-".to_string(), |a| format!("{a:+.1}")),
                deep,
                enfilade,
                cover,
                list(&b.tandem),
                list(&b.adjacent),
                unlimber,
            ]
        })
        .collect();
    s.push_str(&text_table(
        &[
            "battery", "weight", "frontage", "main", "range", "br", "aim", "deep", "enfilade", "cover",
            "tandem", "adjacent", "unlimber",
        ],
        &rows,
    ));
    for b in batteries {
        if let Some(c) = b.target_cover.as_ref().and_then(|t| t.call.as_ref()).filter(|c| !c.certain) {
            s.push_str(&format!("\n  {} main target's cover{}\n", b.battery, calls::mark(c)));
        }
        if let Some(c) = b.unlimber.call.as_ref().filter(|c| !c.certain) {
            s.push_str(&format!("\n  {} unlimber limit{}\n", b.battery, calls::mark(c)));
        }
        if let Some(c) = b.zone_call.as_ref().filter(|c| !c.certain) {
            let what = if b.clear_swings_deg.is_empty() { "every swing blocked" } else { "some swing clear" };
            s.push_str(&format!("\n  {} firing zone: {what}{}\n", b.battery, calls::mark(c)));
        }
        if b.targets.is_empty() {
            continue;
        }
        s.push_str(&format!("\n  {} targets:\n", b.battery));
        let rows: Vec<Vec<String>> = b
            .targets
            .iter()
            .map(|t| {
                vec![
                    t.unit.clone(),
                    t.kind.name().to_string(),
                    format!("{:.2}", t.range_in),
                    t.bracket.to_string(),
                    format!("{} ({:.0}%)", yes_no(t.half_base_in_arc), t.arc_fraction * 100.0),
                    yes_no(t.line_of_sight).to_string(),
                    yes_no(t.zone_clear).to_string(),
                    if t.valid { "VALID".to_string() } else { "-".to_string() },
                ]
            })
            .collect();
        let table =
            text_table(&["unit", "kind", "range", "br", "half in arc", "sight", "zone", "valid"], &rows);
        for line in table.lines() {
            s.push_str(&format!("  {line}\n"));
        }
        for t in &b.targets {
            if let Some(c) = t.range_call.as_ref().filter(|c| !c.certain) {
                s.push_str(&format!(
                    "    {}: range against the {:.1} mm limit{}\n",
                    t.unit,
                    c.limit_mm.unwrap_or(0.0),
                    calls::mark(c)
                ));
            }
            if let Some(c) = t.arc_call.as_ref().filter(|c| !c.certain) {
                s.push_str(&format!("    {}: half a base in the arc{}\n", t.unit, calls::mark(c)));
            }
            if let Some(c) = t.enfilade_call.as_ref().filter(|c| !c.certain) {
                s.push_str(&format!("    {}: frontage in the enfilade zone{}\n", t.unit, calls::mark(c)));
            }
            if !t.sight_call.certain {
                let what = if t.line_of_sight { "a full base seen" } else { "no full base seen" };
                s.push_str(&format!("    {}: {what}{}\n", t.unit, calls::mark(&t.sight_call)));
            }
            if !t.zone_call.certain {
                let what = if t.zone_clear { "a clear zone on it" } else { "no clear zone on it" };
                s.push_str(&format!("    {}: {what}{}\n", t.unit, calls::mark(&t.zone_call)));
            }
        }
    }
    s
}
