//! `vedette move BEFORE AFTER UNIT [--retrograde KIND] [--json]`: how far a unit moved
//! between two table files, measured as the rules measure it (straight from the front
//! edge, or along the outer edge of a wheel), what it cost under its side's maneuver
//! system, and whether it fits its allowance, a Hold, an Advance or a retrograde result
//! (000 §3.1-3.4; [`vedette_geometry::movement`]).

use super::calls::{self, CallEntry};
use super::emit;
use super::measure::micro;
use crate::CliError;
use serde::Serialize;
use std::path::PathBuf;
use vedette_geometry::Table;
use vedette_geometry::movement::{MoveAssessment, MoveDirection, Retrograde, assess_move};

/// Arguments of `vedette move`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  vedette move before.json after.json fr-1 --retrograde withdraw")]
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
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

fn parse_retrograde(s: &str) -> Result<Retrograde, String> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).map_err(|_| {
        format!("\"{s}\" is not a retrograde move: disengage, withdraw, fall-back, retreat or rout")
    })
}

/// The answer of `move`, as `--json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct MoveReport {
    /// The unit.
    pub unit: String,
    /// The distance moved as the rules measure it, mm and rule inches.
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
    /// The maneuver system's cost factor (`null` without a system).
    pub cost_factor: Option<f64>,
    /// The allowance used, rule inches.
    pub cost_in: Option<f64>,
    /// The normal allowance and the charge bonus, rule inches.
    pub allowance_in: Option<f64>,
    /// The assault (charge) bonus, rule inches.
    pub charge_bonus_in: Option<f64>,
    /// Some of the charge bonus was used (one morale hit).
    pub uses_charge_bonus: Option<bool>,
    /// The move fits the allowance and the bonus.
    pub within_allowance: Option<bool>,
    /// 4" or less before penalties: a Hold move (000 §3.3).
    pub hold: bool,
    /// More than half the allowance forward: an Advance (000 §3.3).
    pub advancing: bool,
    /// Close call of `hold`.
    pub hold_call: CallEntry,
    /// Close call of the allowance (the nearer of the allowance and allowance + bonus).
    pub allowance_call: Option<CallEntry>,
    /// The retrograde check, when asked.
    pub retrograde: Option<RetrogradeReport>,
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

/// Builds the answer.
pub fn assess(
    before: &Table,
    after: &Table,
    unit: &str,
    retrograde: Option<Retrograde>,
) -> Result<MoveReport, CliError> {
    let m: MoveAssessment = assess_move(before, after, unit, retrograde)?;
    let book = before.rule_book()?;
    let inch = |mm: f64| book.mm_to_rule_inches(mm).map(micro);
    Ok(MoveReport {
        unit: unit.to_string(),
        distance_mm: micro(m.distance_mm),
        distance_in: inch(m.distance_mm),
        direction: m.direction,
        direction_deg: micro(m.direction_deg),
        turned_deg: micro(m.turned_deg),
        pivot: m.pivot.map(|p| [micro(p.x), micro(p.y)]),
        cost_factor: m.cost_factor,
        cost_in: m.cost_mm.and_then(inch),
        allowance_in: inch(m.allowance_mm),
        charge_bonus_in: inch(m.charge_bonus_mm),
        uses_charge_bonus: m.uses_charge_bonus,
        within_allowance: m.within_allowance,
        hold: m.hold,
        advancing: m.advancing,
        hold_call: calls::entry(after, &m.hold_call, None),
        allowance_call: m.allowance_call.map(|c| calls::entry(after, &c, None)),
        retrograde: m.retrograde.map(|r| RetrogradeReport {
            kind: r.kind,
            required_in: inch(r.required_mm),
            away_in: inch(r.away_mm),
            facing_ok: r.facing_ok,
            done: r.done,
            call: calls::entry(after, &r.call, None),
        }),
    })
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// Runs `vedette move`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let before = Table::load(&args.before)?;
    let after = Table::load(&args.after)?;
    let r = assess(&before, &after, &args.unit, args.retrograde)?;
    if args.json {
        let text = serde_json::to_string(&r).map_err(|e| CliError::Usage(e.to_string()))?;
        return emit(out, &format!("{text}\n"));
    }
    let inches = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.2}\""));
    let mut s = format!(
        "{}: moved {:.1} mm ({}) {}{}\n",
        r.unit,
        r.distance_mm,
        inches(r.distance_in),
        serde_json::to_value(r.direction)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        if r.turned_deg.abs() > 0.0 && r.pivot.is_some() {
            format!(", wheeling {:+.1}° (measured on the outer edge)", r.turned_deg)
        } else {
            format!(" ({:+.1}° from straight ahead)", r.direction_deg)
        }
    );
    match (r.cost_factor, r.cost_in) {
        (Some(k), Some(c)) => s.push_str(&format!(
            "  cost x{k}: {c:.2}\" of {} (+{} charge bonus): {}{}{}\n",
            inches(r.allowance_in),
            inches(r.charge_bonus_in),
            if r.within_allowance == Some(true) { "within the allowance" } else { "BEYOND THE ALLOWANCE" },
            if r.uses_charge_bonus == Some(true) { ", uses the charge bonus (1M)" } else { "" },
            r.allowance_call.as_ref().map_or(String::new(), calls::mark)
        )),
        _ => s.push_str("  cost: the side has no maneuver system in the table\n"),
    }
    s.push_str(&format!(
        "  hold (4\" or less): {}{}; advance (over half the allowance forward): {}\n",
        yes_no(r.hold),
        calls::mark(&r.hold_call),
        yes_no(r.advancing)
    ));
    if let Some(g) = &r.retrograde {
        s.push_str(&format!(
            "  {}: {} back of {} required, facing {}: {}{}\n",
            serde_json::to_value(g.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            inches(g.away_in),
            inches(g.required_in),
            if g.facing_ok { "right" } else { "WRONG" },
            if g.done { "done" } else { "NOT DONE" },
            calls::mark(&g.call)
        ));
    }
    emit(out, &s)
}
