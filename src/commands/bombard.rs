//! `vedette bombard TABLE BATTERY --at X,Y [--json]`: the Pro Patria massed-battery
//! bombardment zone (004 §19.6) aimed at a declared point: a box as wide as the
//! battery's frontage, 150 mm (90) deep beyond the point, cut where it would pass over
//! a hill's crest, and every unit with any part inside it
//! ([`vedette_geometry::pro_patria::bombardment`]).

use super::emit;
use super::measure::micro;
use crate::CliError;
use serde::Serialize;
use std::path::PathBuf;
use vedette_draw::findings::{square_table_inches_words, table_inches_words};
use vedette_geometry::pro_patria::bombardment::bombardment_zone;
use vedette_geometry::{RuleSet, Selection, Table, Vec2};

/// Arguments of `vedette bombard`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  vedette bombard samples/pro-patria-charge.json fr-art --at 1300,620")]
pub struct Args {
    /// The table file (vedette/table/1 JSON, Pro Patria).
    pub table: PathBuf,
    /// The massed battery (a unit id).
    pub battery: String,
    /// The declared target point, table mm: `X,Y`.
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
    pub at: Vec2,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

fn parse_point(s: &str) -> Result<Vec2, String> {
    let bad = || format!("\"{s}\": give the point as X,Y in table mm, e.g. 600,450");
    let (x, y) = s.split_once(',').ok_or_else(bad)?;
    let (x, y): (f64, f64) = (x.trim().parse().map_err(|_| bad())?, y.trim().parse().map_err(|_| bad())?);
    if !(x.is_finite() && y.is_finite() && x.abs() <= 1e6 && y.abs() <= 1e6) {
        return Err(bad());
    }
    Ok(Vec2::new(x, y))
}

/// A unit in the zone.
#[derive(Debug, Clone, Serialize)]
pub struct ZoneUnit {
    /// The unit.
    pub unit: String,
    /// Its side.
    pub side: String,
}

/// The answer, as `--json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct BombardReport {
    /// The battery.
    pub battery: String,
    /// The declared point, mm.
    pub at: [f64; 2],
    /// The zone's corners, counter-clockwise, mm (empty when a crest hides it all).
    pub zone: Vec<[f64; 2]>,
    /// Its area, mm².
    pub area_mm2: f64,
    /// The same in square inches.
    pub area_sq_in: f64,
    /// How far it extends beyond the point, mm (004 §19.6: 150 mm, 90 mm at 15 mm).
    pub depth_mm: f64,
    /// The hills whose crest cut it.
    pub cut_by: Vec<String>,
    /// Every unit with any part inside, friend or foe, the battery excepted.
    pub units: Vec<ZoneUnit>,
}

/// Runs `vedette bombard`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let table = Table::load(&args.table)?;
    if table.rules != RuleSet::ProPatria {
        return Err(CliError::Usage(format!(
            "{}: massed-battery bombardment is a Pro Patria rule (004 §19.6); this table is played with {}",
            args.table.display(),
            table.rules
        )));
    }
    let Selection::Unit(b) = table.select(&args.battery)? else {
        return Err(CliError::Usage(format!("{}: give the battery as a unit id, not a base", args.battery)));
    };
    let book = table.rule_book()?;
    let Some(z) = bombardment_zone(&table, b, args.at, &book)? else {
        return Err(CliError::Usage(format!("{} has no bases", args.battery)));
    };
    let report = BombardReport {
        battery: table.units[b].id.clone(),
        at: [micro(args.at.x), micro(args.at.y)],
        zone: z.area.vertices().iter().map(|p| [micro(p.x), micro(p.y)]).collect(),
        area_mm2: micro(z.area.area()),
        area_sq_in: micro(z.area.area() / (vedette_geometry::MM_PER_INCH * vedette_geometry::MM_PER_INCH)),
        depth_mm: micro(book.distance_mm(vedette_geometry::RuleDistance::BombardmentDepth)?),
        cut_by: z
            .cut_by
            .iter()
            .map(|&k| table.terrain[k].id.clone().unwrap_or_else(|| format!("terrain[{k}]")))
            .collect(),
        units: z
            .units
            .iter()
            .map(|&u| ZoneUnit { unit: table.units[u].id.clone(), side: table.units[u].side.clone() })
            .collect(),
    };
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| CliError::Usage(e.to_string()))?;
        return emit(out, &format!("{text}\n"));
    }
    let mut s = format!(
        "{} bombards the zone beyond ({:.1}, {:.1}) mm (004 §19.6): {}\n",
        report.battery,
        args.at.x,
        args.at.y,
        if report.zone.is_empty() {
            "nothing: a hill's crest lies between the battery and the point".to_string()
        } else {
            format!(
                "{}, {} deep, with corners {}",
                square_table_inches_words(report.area_mm2),
                table_inches_words(report.depth_mm),
                report
                    .zone
                    .iter()
                    .map(|p| format!("({:.1}, {:.1}) mm", p[0], p[1]))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        }
    );
    if !report.cut_by.is_empty() {
        s.push_str(&format!(
            "  cut at the crest of {} (the zone does not extend over it)\n",
            report.cut_by.join(", ")
        ));
    }
    if report.units.is_empty() {
        s.push_str("  no unit inside\n");
    } else {
        s.push_str("  units inside (1d6 per two guns at each, hit on a 6):\n");
        for u in &report.units {
            s.push_str(&format!("    {} ({})\n", u.unit, u.side));
        }
    }
    emit(out, &s)
}
