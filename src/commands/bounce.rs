//! `vedette bounce TABLE FIRER TARGET --distance MM [--gun-range MM] [--json]`: Pro
//! Patria artillery bounce-through (004 §17.3.9): which units behind the target the
//! ball reaches, from the target's front edge along the line of fire, and where terrain,
//! the gun's range or elevation stops it
//! ([`vedette_geometry::pro_patria::bounce`]). The Artillery Chart's bounce-through
//! distance and the calibre's range are not in the rule text: give them.

use super::emit;
use super::length::parse_length;
use super::measure::micro;
use crate::CliError;
use serde::Serialize;
use std::path::PathBuf;
use vedette_draw::findings::table_inches_words;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::pro_patria::bounce::{NoBounce, bounce_through};
use vedette_geometry::{RuleSet, Selection, SpatialIndex, Table};

/// Arguments of `vedette bounce`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  vedette bounce samples/pro-patria-charge.json fr-art au-bn1 --distance 150 --gun-range 900\n  vedette bounce samples/pro-patria-charge.json fr-art au-bn1 --distance 6in --gun-range 36in"
)]
pub struct Args {
    /// The table file (vedette/table/1 JSON, Pro Patria).
    pub table: PathBuf,
    /// The firing battery (a unit id).
    pub firer: String,
    /// The unit it hit (a unit id).
    pub target: String,
    /// The bounce-through distance from the Artillery Chart: table mm (`150`), or with
    /// its unit (`150mm`, `15cm`, `6in`).
    #[arg(long, value_parser = parse_length, allow_hyphen_values = true)]
    pub distance: f64,
    /// The range of the gun's calibre (mm, or with its unit): the line of fire plus the
    /// bounce never exceeds it.
    #[arg(long, value_parser = parse_length, allow_hyphen_values = true)]
    pub gun_range: Option<f64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// A unit the ball reaches.
#[derive(Debug, Clone, Serialize)]
pub struct HitEntry {
    /// The unit.
    pub unit: String,
    /// Its first stand on the line.
    pub base: String,
    /// How far beyond the target's front edge, mm.
    pub at_mm: f64,
    /// On the firer's side (friendly fire, 004 §17.3.6).
    pub friendly: bool,
}

/// The answer, as `--json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct BounceReport {
    /// The firing stand.
    pub firer: String,
    /// The target.
    pub target: String,
    /// The line of fire's length, mm.
    pub range_mm: f64,
    /// The same in inches.
    pub range_in: f64,
    /// Where the bounce starts (the target's point nearest the gun), mm.
    pub start: [f64; 2],
    /// Where it ends, mm.
    pub end: [f64; 2],
    /// How far it runs, mm.
    pub reach_mm: f64,
    /// The same in inches.
    pub reach_in: f64,
    /// Cut by the gun's range.
    pub range_limited: bool,
    /// The terrain that stopped it early (id or `terrain[i]`), with its kind.
    pub stopped_by: Option<String>,
    /// Why there is no bounce: `uphill`, `high-hill-to-table-top` or `out-of-range`.
    pub no_bounce: Option<String>,
    /// The units it reaches, nearest first.
    pub hits: Vec<HitEntry>,
}

/// Runs `vedette bounce`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let table = Table::load(&args.table)?;
    if table.rules != RuleSet::ProPatria {
        return Err(CliError::Usage(format!(
            "{}: artillery bounce-through is a Pro Patria rule (004 §17.3.9); this table is played with {}",
            args.table.display(),
            table.rules
        )));
    }
    let unit = |id: &str, what: &str| match table.select(id)? {
        Selection::Unit(u) => Ok(u),
        _ => Err(CliError::Usage(format!("{id}: give the {what} as a unit id, not a base"))),
    };
    let (f, t) = (unit(&args.firer, "firer")?, unit(&args.target, "target")?);
    if f == t {
        return Err(CliError::Usage(format!("{}: the firer cannot be its own target", args.firer)));
    }
    let index = SpatialIndex::new(&table);
    let sight = TerrainSight::try_new(&index)?;
    let Some(b) = bounce_through(&table, &sight, f, t, args.distance, args.gun_range)? else {
        return Err(CliError::Usage(format!("{} or {} has no stands", args.firer, args.target)));
    };
    let end = b.start + b.direction * b.reach_mm;
    let report = BounceReport {
        firer: table.base_label(b.firer_base),
        target: table.units[t].id.clone(),
        range_mm: micro(b.range_mm),
        range_in: micro(vedette_geometry::mm_to_inches(b.range_mm)),
        start: [micro(b.start.x), micro(b.start.y)],
        end: [micro(end.x), micro(end.y)],
        reach_mm: micro(b.reach_mm),
        reach_in: micro(vedette_geometry::mm_to_inches(b.reach_mm)),
        range_limited: b.range_limited,
        stopped_by: b.stop.map(|s| {
            let id = table.terrain[s.terrain].id.clone().unwrap_or_else(|| format!("terrain[{}]", s.terrain));
            format!("{} {id}", s.kind)
        }),
        no_bounce: b.none.map(|n| {
            match n {
                NoBounce::Uphill => "uphill",
                NoBounce::HighHillToTableTop => "high-hill-to-table-top",
                NoBounce::OutOfRange => "out-of-range",
            }
            .to_string()
        }),
        hits: b
            .hits
            .iter()
            .map(|h| HitEntry {
                unit: table.units[h.unit].id.clone(),
                base: table.base_label(h.base),
                at_mm: micro(h.at_mm),
                friendly: h.friendly,
            })
            .collect(),
    };
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| CliError::Usage(e.to_string()))?;
        return emit(out, &format!("{text}\n"));
    }
    let mut s = format!(
        "{} fires at {} over {}; bounce-through (004 §17.3.9) from ({:.1}, {:.1}) mm:\n",
        report.firer,
        report.target,
        table_inches_words(report.range_mm),
        report.start[0],
        report.start[1]
    );
    match b.none {
        Some(NoBounce::Uphill) => s.push_str("  none: the gun stands lower than its target\n"),
        Some(NoBounce::HighHillToTableTop) => {
            s.push_str("  none: the gun fires from a high hill at a target on the table top\n");
        }
        Some(NoBounce::OutOfRange) => s.push_str("  none: the target is at or beyond the gun's range\n"),
        None => {
            s.push_str(&format!("  runs {}", table_inches_words(report.reach_mm)));
            if let Some(by) = &report.stopped_by {
                s.push_str(&format!(", stopped by {by}"));
            } else if report.range_limited {
                s.push_str(", cut by the gun's range");
            }
            s.push('\n');
            if report.hits.is_empty() {
                s.push_str("  reaches no unit\n");
            }
            for h in &report.hits {
                let friend = if h.friendly { " (friendly fire, §17.3.6)" } else { "" };
                s.push_str(&format!(
                    "  {} at {} ({}){friend}\n",
                    h.unit,
                    table_inches_words(h.at_mm),
                    h.base
                ));
            }
        }
    }
    emit(out, &s)
}
