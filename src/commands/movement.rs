//! `vedette move BEFORE AFTER UNIT [--retrograde KIND] [--forced-march] [--charge TARGET]
//! [--allowance MM] [--svg OUT.svg] [--json]`: how far a unit moved between two table
//! files, measured as the rules measure it (straight from the front edge, or along the
//! outer edge of a wheel), what it cost part by part (the ground it was within, the
//! obstacles it crossed, its side's maneuver system, its formation change), and whether
//! it fits its allowance, a Hold, an Advance or a retrograde result (000 §3.1-3.7); a
//! Republic road column's road and a cavalry move's deployment shadow (003 303, 305);
//! under Pro Patria its wheels charged double, formation changes, forced march and
//! charge (004 §17.4) ([`vedette_geometry::movement`]). The sentences are
//! [`vedette_draw::findings::movement`]'s, the ones the picture shows.

use super::calls::{self, CallEntry};
use super::emit;
use super::measure::micro;
use crate::CliError;
use crate::output::write_atomically;
use serde::Serialize;
use std::path::PathBuf;
use vedette_draw::findings::movement as words;
use vedette_geometry::movement::{
    Ground, Measured, MoveAssessment, MoveDirection, MoveQuestions, Retrograde, assess_move,
};
use vedette_geometry::{ManeuverSystem, Mover, RuleBook, Table, TerrainKind};

/// Arguments of `vedette move`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  vedette move samples/move-before.json samples/move-after.json fr-2\n  vedette move before.json after.json fr-1 --retrograde withdraw\n  vedette move before.json after.json fr-bn1 --charge au-bn2   (Pro Patria)"
)]
pub struct Args {
    /// The table before the move (vedette/table/1 JSON).
    pub before: PathBuf,
    /// The table after the move.
    pub after: PathBuf,
    /// The unit that moved (its id in both tables).
    pub unit: String,
    /// Check a mandatory retrograde move: disengage, withdraw, fall-back, retreat, rout.
    #[arg(long, value_parser = parse_retrograde)]
    pub retrograde: Option<Retrograde>,
    /// Pro Patria: the move was a forced march (004 §17.4.5): march column, and no visible
    /// formed enemy within 300 mm (180) where it ends.
    #[arg(long)]
    pub forced_march: bool,
    /// Pro Patria: the move was the 1st impulse of a charge on this unit (004 §17.2.3).
    #[arg(long, value_name = "TARGET")]
    pub charge: Option<String>,
    /// Pro Patria: the unit's movement allowance from the reference sheets, mm (the
    /// rule text does not give it).
    #[arg(long, value_name = "MM", value_parser = parse_allowance)]
    pub allowance: Option<f64>,
    /// Also draw the move: where the unit stood, the path measured, part by part, and
    /// what refuses it (docs/drawing.md).
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

fn parse_retrograde(s: &str) -> Result<Retrograde, String> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).map_err(|_| {
        format!("\"{s}\" is not a retrograde move: disengage, withdraw, fall-back, retreat or rout")
    })
}

fn parse_allowance(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("\"{s}\" is not an allowance: give a positive number of millimetres")),
    }
}

/// What a part of the path is within.
#[derive(Debug, Clone, Serialize)]
pub struct GroundReport {
    /// `terrain`, `packed-battery`, `obstacle` (astride it) or `road`.
    pub what: &'static str,
    /// The terrain's id (or `terrain[K]`), or the battery's unit id.
    pub id: String,
    /// The terrain's kind (terrain and roads).
    pub kind: Option<TerrainKind>,
}

/// One part of the path and its charge.
#[derive(Debug, Clone, Serialize)]
pub struct PartReport {
    /// Where it starts along the path, mm.
    pub from_mm: f64,
    /// Where it ends, mm.
    pub to_mm: f64,
    /// Its length, mm.
    pub length_mm: f64,
    /// Its length, rule inches (`null` for Pro Patria).
    pub length_in: Option<f64>,
    /// The ground's factor (`null` for Pro Patria: the reference sheets').
    pub factor: Option<f64>,
    /// What the unit is within.
    pub within: Vec<GroundReport>,
    /// The feature that bars the assault bonus here (its id).
    pub bonus_barred_by: Option<String>,
    /// The part in words, as the text and the picture say it.
    pub words: String,
}

/// An obstacle crossed.
#[derive(Debug, Clone, Serialize)]
pub struct CrossingReport {
    /// The obstacle (its id or `terrain[K]`).
    pub feature: String,
    /// Its kind.
    pub kind: TerrainKind,
    /// Where along the path it is reached, mm.
    pub at_mm: f64,
    /// The one-time loss, mm.
    pub loss_mm: Option<f64>,
    /// The loss, rule inches.
    pub loss_in: Option<f64>,
    /// It bars the assault bonus.
    pub bars_bonus: bool,
    /// In words.
    pub words: String,
}

/// Ground that refuses the move.
#[derive(Debug, Clone, Serialize)]
pub struct RefusalReport {
    /// The feature (its id or `terrain[K]`).
    pub feature: String,
    /// Its kind.
    pub kind: TerrainKind,
    /// Where along the path it is reached, mm.
    pub at_mm: f64,
    /// The rule section.
    pub section: &'static str,
    /// In words.
    pub words: String,
}

/// The cost under one maneuver system.
#[derive(Debug, Clone, Serialize)]
pub struct SystemCostReport {
    /// `french` or `prussian`.
    pub system: ManeuverSystem,
    /// The direction's factor (000 §3.2).
    pub factor: f64,
    /// The whole cost, mm.
    pub cost_mm: f64,
    /// The whole cost, rule inches.
    pub cost_in: Option<f64>,
    /// The formation change's part, rule inches.
    pub formation_change_in: Option<f64>,
    /// The formation change is allowed this far from the enemy.
    pub formation_change_allowed: bool,
}

/// A formation change (Republique family).
#[derive(Debug, Clone, Serialize)]
pub struct FormationChangeReport {
    /// Before.
    pub from: &'static str,
    /// After.
    pub to: &'static str,
    /// In rough terrain all the way: the cost doubles.
    pub in_rough: bool,
    /// In words.
    pub words: String,
}

/// A battery in a cavalry move's bonus path (003 305).
#[derive(Debug, Clone, Serialize)]
pub struct ShadowReport {
    /// The battery.
    pub battery: String,
    /// It fires forward in support: not limited.
    pub fires_forward: bool,
    /// In words.
    pub words: String,
}

/// Pro Patria's answers.
#[derive(Debug, Clone, Serialize)]
pub struct ProPatriaReport {
    /// `front-edge`, `outside-arc` (a wheel, charged double) or `command-stand`.
    pub measured: &'static str,
    /// The distance charged, mm.
    pub charged_mm: f64,
    /// The formation change, in words (`null` without one).
    pub change: Option<String>,
    /// The change in words with what refuses it (`null` without a change).
    pub change_words: Option<String>,
    /// Enemy units it ends within 25 mm (15) of, not charged: `{unit, distance_mm, call}`.
    pub too_close: Vec<TooCloseReport>,
    /// The allowance given, mm.
    pub allowance_mm: Option<f64>,
    /// The forced march checked.
    pub forced_march: Option<String>,
    /// The forced march is allowed.
    pub forced_march_allowed: Option<bool>,
    /// The charge checked, in words.
    pub charge: Option<String>,
    /// The charge's target is caught.
    pub caught: Option<bool>,
    /// The 1st impulse lies in its window.
    pub within_window: Option<bool>,
    /// What is charged, in words.
    pub words: String,
}

/// An enemy approached too close.
#[derive(Debug, Clone, Serialize)]
pub struct TooCloseReport {
    /// The enemy unit.
    pub unit: String,
    /// Closest distance, mm.
    pub distance_mm: f64,
    /// Close call against the no-approach distance.
    pub call: CallEntry,
    /// In words.
    pub words: String,
}

/// The answer of `move`, as `--json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct MoveReport {
    /// The unit.
    pub unit: String,
    /// The distance moved as the rules measure it, mm.
    pub distance_mm: f64,
    /// The same in rule inches (`null` for Pro Patria).
    pub distance_in: Option<f64>,
    /// `forward`, `oblique`, `sideways` or `backward`.
    pub direction: MoveDirection,
    /// The displacement's angle from straight ahead, degrees (+ = left).
    pub direction_deg: f64,
    /// The wheel's turn, degrees (+ = counter-clockwise); 0 for a straight move.
    pub turned_deg: f64,
    /// The pivot of the wheel, table mm.
    pub pivot: Option<[f64; 2]>,
    /// `foot`, `horse` or `wheeled`.
    pub mover: Mover,
    /// The ground's charge, part by part.
    pub charge: Vec<PartReport>,
    /// Obstacles crossed.
    pub crossings: Vec<CrossingReport>,
    /// Ground that refuses the move.
    pub refused: Vec<RefusalReport>,
    /// The formation change (Republique family).
    pub formation_change: Option<FormationChangeReport>,
    /// The side's maneuver system (`null` without one).
    pub system: Option<ManeuverSystem>,
    /// The cost under the side's system, or both when it has none.
    pub costs: Vec<SystemCostReport>,
    /// The system's factor for the direction (the side's, or the same under both; for
    /// Pro Patria 2 for a wheel).
    pub cost_factor: Option<f64>,
    /// The cost, mm (`null` when it depends on a system the side lacks).
    pub cost_mm: Option<f64>,
    /// The allowance used, rule inches.
    pub cost_in: Option<f64>,
    /// The normal allowance, rule inches.
    pub allowance_in: Option<f64>,
    /// The assault (charge) bonus, rule inches.
    pub charge_bonus_in: Option<f64>,
    /// The cost where the ground bars the assault bonus, rule inches.
    pub bonus_barred_in: Option<f64>,
    /// Some of the charge bonus was used (one morale hit).
    pub uses_charge_bonus: Option<bool>,
    /// The move fits the allowance and the bonus.
    pub within_allowance: Option<bool>,
    /// Nothing refuses the move (`null` when the cost is open).
    pub allowed: Option<bool>,
    /// 4" or less before penalties: a Hold move (000 §3.3; `null` for Pro Patria).
    pub hold: Option<bool>,
    /// More than half the allowance forward: an Advance (000 §3.3).
    pub advancing: Option<bool>,
    /// Close call of `hold`.
    pub hold_call: Option<CallEntry>,
    /// Close call of the allowance (the nearer of the allowance and allowance + bonus).
    pub allowance_call: Option<CallEntry>,
    /// The retrograde check, when asked.
    pub retrograde: Option<RetrogradeReport>,
    /// Republic cavalry: where its bonus began along the path, mm, and the batteries in
    /// the bonus path (003 305).
    pub shadows: Option<ShadowsReport>,
    /// Pro Patria's answers.
    pub pro_patria: Option<ProPatriaReport>,
}

/// A Republic cavalry move's deployment shadows.
#[derive(Debug, Clone, Serialize)]
pub struct ShadowsReport {
    /// Where the bonus began along the path, mm.
    pub bonus_from_mm: f64,
    /// The batteries in the bonus path.
    pub batteries: Vec<ShadowReport>,
}

/// A retrograde result checked.
#[derive(Debug, Clone, Serialize)]
pub struct RetrogradeReport {
    /// The result.
    pub kind: Retrograde,
    /// How far it must go, rule inches.
    pub required_in: Option<f64>,
    /// How far back it went, rule inches.
    pub away_in: Option<f64>,
    /// It faces the way the result asks.
    pub facing_ok: bool,
    /// Far enough and facing right.
    pub done: bool,
    /// Close call of "far enough".
    pub call: CallEntry,
}

/// A terrain feature's id, or `terrain[K]`.
fn feature_id(t: &Table, i: usize) -> String {
    t.terrain.get(i).and_then(|f| f.id.clone()).unwrap_or_else(|| format!("terrain[{i}]"))
}

/// Builds the answer.
pub fn assess(
    before: &Table,
    after: &Table,
    unit: &str,
    questions: &MoveQuestions,
) -> Result<(MoveReport, MoveAssessment), CliError> {
    let m: MoveAssessment = assess_move(before, after, unit, questions)?;
    let book = before.rule_book()?;
    let report = report_of(before, after, &book, unit, &m);
    Ok((report, m))
}

fn report_of(before: &Table, after: &Table, book: &RuleBook, unit: &str, m: &MoveAssessment) -> MoveReport {
    let inch = |mm: f64| book.mm_to_rule_inches(mm).map(micro);
    let d = m.distance_mm;
    let charge = m
        .ground
        .parts
        .iter()
        .map(|p| PartReport {
            from_mm: micro(p.from * d),
            to_mm: micro(p.to * d),
            length_mm: micro(p.length_mm),
            length_in: inch(p.length_mm),
            factor: p.factor,
            within: p
                .within
                .iter()
                .map(|g| match *g {
                    Ground::Terrain { feature, kind } => {
                        GroundReport { what: "terrain", id: feature_id(before, feature), kind: Some(kind) }
                    }
                    Ground::PackedBattery { unit } => GroundReport {
                        what: "packed-battery",
                        id: before.units.get(unit).map_or_else(String::new, |u| u.id.clone()),
                        kind: None,
                    },
                    Ground::Obstacle { feature, kind } => {
                        GroundReport { what: "obstacle", id: feature_id(before, feature), kind: Some(kind) }
                    }
                    Ground::Road { feature } => GroundReport {
                        what: "road",
                        id: feature_id(before, feature),
                        kind: Some(TerrainKind::Road),
                    },
                })
                .collect(),
            bonus_barred_by: p.bonus_barred_by.map(|i| feature_id(before, i)),
            words: words::part_words(before, book, m.mover, d, p),
        })
        .collect();
    let crossings = m
        .ground
        .crossings
        .iter()
        .map(|c| CrossingReport {
            feature: feature_id(before, c.feature),
            kind: c.kind,
            at_mm: micro(c.at * d),
            loss_mm: c.loss_mm.map(micro),
            loss_in: c.loss_mm.and_then(inch),
            bars_bonus: c.bars_bonus,
            words: words::crossing_words(before, book, d, c),
        })
        .collect();
    let refused = m
        .ground
        .refusals
        .iter()
        .map(|r| RefusalReport {
            feature: feature_id(before, r.feature),
            kind: r.kind,
            at_mm: micro(r.at * d),
            section: r.reason.section(),
            words: words::refusal_words(before, book, m.mover, d, r),
        })
        .collect();
    let pro_patria = m.pro_patria.as_ref().map(|p| ProPatriaReport {
        measured: match p.measured {
            Measured::FrontEdge => "front-edge",
            Measured::OutsideArc => "outside-arc",
            Measured::CommandStand => "command-stand",
        },
        charged_mm: micro(p.charged_mm),
        change: p.change.as_ref().map(words::pro_patria_change_words),
        change_words: words::pro_patria_changes_words(before, p),
        too_close: p
            .too_close
            .iter()
            .map(|(o, dist, call)| TooCloseReport {
                unit: after.units[*o].id.clone(),
                distance_mm: micro(*dist),
                call: calls::entry(after, call, Some(p.no_approach_mm)),
                words: words::too_close_words(after, m.unit_after, *o, *dist, p.no_approach_mm),
            })
            .collect(),
        allowance_mm: p.allowance.map(|(a, _)| a),
        forced_march: p.forced_march.as_ref().map(|f| words::forced_march_words(after, f)),
        forced_march_allowed: p.forced_march.as_ref().map(|f| f.allowed),
        charge: p.charge.as_ref().map(|c| words::charge_words(after, before, m.unit_after, c)),
        caught: p.charge.as_ref().map(|c| c.caught),
        within_window: p.charge.as_ref().map(|c| c.within_window),
        words: words::pro_patria_charge_words(p, m.distance_mm),
    });
    MoveReport {
        unit: unit.to_string(),
        distance_mm: micro(m.distance_mm),
        distance_in: inch(m.distance_mm),
        direction: m.direction,
        direction_deg: micro(m.direction_deg),
        turned_deg: micro(m.turned_deg),
        pivot: m.pivot.map(|p| [micro(p.x), micro(p.y)]),
        mover: m.mover,
        charge,
        crossings,
        refused,
        formation_change: m.formation_change.as_ref().map(|fc| FormationChangeReport {
            from: fc.from.name(),
            to: fc.to.name(),
            in_rough: fc.in_rough,
            words: words::formation_change_words(book, fc, &m.costs),
        }),
        system: m.system,
        costs: m
            .costs
            .iter()
            .map(|c| SystemCostReport {
                system: c.system,
                factor: c.factor,
                cost_mm: micro(c.cost_mm),
                cost_in: inch(c.cost_mm),
                formation_change_in: inch(c.formation_change_mm),
                formation_change_allowed: c.formation_change_allowed,
            })
            .collect(),
        cost_factor: m.cost_factor,
        cost_mm: m.cost_mm.map(micro),
        cost_in: m.cost_mm.and_then(inch),
        allowance_in: m.allowance_mm.and_then(inch),
        charge_bonus_in: m.allowance_mm.and_then(|_| inch(m.charge_bonus_mm)),
        bonus_barred_in: m.bonus_barred_mm.and_then(inch),
        uses_charge_bonus: m.uses_charge_bonus,
        within_allowance: m.within_allowance,
        allowed: m.allowed(),
        hold: m.hold,
        advancing: m.advancing,
        hold_call: m.hold_call.map(|c| calls::entry(after, &c, None)),
        allowance_call: m.allowance_call.map(|c| calls::entry(after, &c, None)),
        retrograde: m.retrograde.map(|r| RetrogradeReport {
            kind: r.kind,
            required_in: inch(r.required_mm),
            away_in: inch(r.away_mm),
            facing_ok: r.facing_ok,
            done: r.done,
            call: calls::entry(after, &r.call, None),
        }),
        shadows: m.shadows.as_ref().map(|(from, s)| ShadowsReport {
            bonus_from_mm: micro(from * d),
            batteries: s
                .iter()
                .map(|x| ShadowReport {
                    battery: after.units[x.battery].id.clone(),
                    fires_forward: x.fires_forward,
                    words: words::shadow_words(after, m.unit_after, x),
                })
                .collect(),
        }),
        pro_patria,
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The human rendering of a move.
#[must_use]
pub fn render_text(r: &MoveReport) -> String {
    let length = |mm: f64, inch: Option<f64>| match inch {
        Some(i) => format!("{i:.2}\""),
        None => format!("{mm:.1} mm"),
    };
    let inches = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.2}\""));
    let mut s = format!(
        "{}: moved {:.1} mm{} {}{}\n",
        r.unit,
        r.distance_mm,
        r.distance_in.map_or(String::new(), |i| format!(" ({i:.2}\")")),
        r.direction.name(),
        if r.turned_deg.abs() > 0.0 && r.pivot.is_some() {
            format!(", wheeling {:+.1}° (measured on the outer edge)", r.turned_deg)
        } else {
            format!(" ({:+.1}° from straight ahead)", r.direction_deg)
        }
    );
    for x in &r.refused {
        s.push_str(&format!("  {}\n", x.words));
    }
    // The parts are worth listing when the ground had something to say.
    let plain = |p: &PartReport| p.within.is_empty() && p.factor.is_none_or(|f| f == 1.0);
    if r.charge.len() > 1 || !r.charge.iter().all(plain) || !r.crossings.is_empty() {
        s.push_str("  charged part by part:\n");
        for p in &r.charge {
            s.push_str(&format!("    {}\n", p.words));
        }
        for c in &r.crossings {
            s.push_str(&format!("    {}\n", c.words));
        }
    }
    if let Some(fc) = &r.formation_change {
        s.push_str(&format!("  {}\n", fc.words));
    }
    if let Some(p) = &r.pro_patria {
        s.push_str(&format!("  {}\n", p.words));
        if let Some(c) = &p.change_words {
            s.push_str(&format!("  {c}\n"));
        }
        for t in &p.too_close {
            s.push_str(&format!("  {}{}\n", t.words, calls::mark(&t.call)));
        }
        if let Some(a) = p.allowance_mm {
            s.push_str(&format!(
                "  allowance {a:.1} mm (the reference sheets'): {}{}\n",
                if r.within_allowance == Some(true) { "within" } else { "BEYOND IT" },
                r.allowance_call.as_ref().map_or(String::new(), calls::mark)
            ));
        }
        if let Some(f) = &p.forced_march {
            s.push_str(&format!("  forced march: {f}\n"));
        }
        if let Some(c) = &p.charge {
            s.push_str(&format!("  {c}\n"));
        }
        return s;
    }
    match (r.cost_in, r.cost_factor) {
        (Some(c), Some(k)) => s.push_str(&format!(
            "  cost {}{}: {c:.2}\" of {} (+{} charge bonus): {}{}{}\n",
            r.system.map_or_else(
                || "under either system".to_string(),
                |x| format!("{} system", words::system_name(x))
            ),
            if k == 1.0 { String::new() } else { format!(" {}", words::factor_words(k)) },
            inches(r.allowance_in),
            inches(r.charge_bonus_in),
            if r.within_allowance == Some(true) { "within the allowance" } else { "BEYOND THE ALLOWANCE" },
            if r.uses_charge_bonus == Some(true) { ", uses the charge bonus (1M)" } else { "" },
            r.allowance_call.as_ref().map_or(String::new(), calls::mark)
        )),
        _ => {
            let each: Vec<String> = r
                .costs
                .iter()
                .map(|c| format!("{} {}", words::system_name(c.system), length(c.cost_mm, c.cost_in)))
                .collect();
            s.push_str(&format!(
                "  cost depends on the maneuver system: {} (give the side a \"system\" in the table, 000 §3.2)\n",
                each.join(", ")
            ));
        }
    }
    if let (Some(barred), Some(true)) = (r.bonus_barred_in, r.uses_charge_bonus)
        && barred > 0.0
    {
        s.push_str(&format!(
            "  {barred:.2}\" of it where the ground bars the assault bonus: it must fit the {} allowance (000 §3.6)\n",
            inches(r.allowance_in)
        ));
    }
    if let (Some(hold), Some(adv)) = (r.hold, r.advancing) {
        s.push_str(&format!(
            "  hold (4\" or less): {}{}; advance (over half the allowance forward): {}\n",
            yes_no(hold),
            r.hold_call.as_ref().map_or(String::new(), calls::mark),
            yes_no(adv)
        ));
    }
    if let Some(g) = &r.retrograde {
        s.push_str(&format!(
            "  {}: {} back of {} required, facing {}: {}{}\n",
            g.kind.name(),
            inches(g.away_in),
            inches(g.required_in),
            if g.facing_ok { "right" } else { "WRONG" },
            if g.done { "done" } else { "NOT DONE" },
            calls::mark(&g.call)
        ));
    }
    if let Some(sh) = &r.shadows {
        s.push_str(&format!(
            "  assault bonus used from {:.1} mm along the path; batteries in its path (003 305): {}\n",
            sh.bonus_from_mm,
            if sh.batteries.is_empty() { "none" } else { "" }
        ));
        for b in &sh.batteries {
            s.push_str(&format!("    {}\n", b.words));
        }
    }
    s
}

/// The picture of a move: the table after it, with the move drawn.
pub fn move_scene(
    before: &Table,
    after: &Table,
    m: &MoveAssessment,
) -> Result<vedette_draw::Scene, CliError> {
    let book = before.rule_book()?;
    let unit = &before.units[m.unit].id;
    let mut scene = vedette_draw::table_scene(after, &format!("{unit}: the move"));
    vedette_draw::findings::movement::draw_move(&mut scene, before, after, &book, m);
    scene.focus_on(&[vedette_draw::LayerId::Measurements, vedette_draw::LayerId::Targets]);
    Ok(scene)
}

/// Runs `vedette move`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let before = Table::load(&args.before)?;
    let after = Table::load(&args.after)?;
    let questions = MoveQuestions {
        retrograde: args.retrograde,
        forced_march: args.forced_march,
        charge: args.charge.clone(),
        allowance_mm: args.allowance,
    };
    let (r, m) = assess(&before, &after, &args.unit, &questions)?;
    if let Some(path) = &args.svg {
        let scene = move_scene(&before, &after, &m)?;
        write_atomically(path, vedette_draw::plan_svg(&scene)?.as_bytes())?;
    }
    if args.json {
        let text = serde_json::to_string(&r).map_err(|e| CliError::Usage(e.to_string()))?;
        return emit(out, &format!("{text}\n"));
    }
    emit(out, &render_text(&r))
}
