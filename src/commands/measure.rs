//! `vedette measure TABLE A B [--json]`: the closest edge-to-edge distance between two
//! units (or `unit#index` bases), in mm, inches and rule inches, with the closest points.

use super::emit;
use crate::CliError;
use serde::Serialize;
use std::path::PathBuf;
use vedette_geometry::{Table, closest_between_selections, mm_to_inches};

/// Arguments of `vedette measure`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The table file (vedette/table/1 JSON).
    pub table: PathBuf,
    /// The first unit id, or `unit#index` for one of its bases.
    pub a: String,
    /// The second unit id, or `unit#index`.
    pub b: String,
    /// Print JSON: {"mm", "in", "rule_in", "from", "to", "from_base", "to_base"}.
    #[arg(long)]
    pub json: bool,
}

/// The answer of `measure`, as `--json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measurement {
    /// Edge-to-edge distance on the table, mm.
    pub mm: f64,
    /// The same in inches.
    #[serde(rename = "in")]
    pub inches: f64,
    /// The same in rule inches (scale ratio applied); `null` for Pro Patria, whose
    /// distances are stated in millimetres per scale.
    pub rule_in: Option<f64>,
    /// Closest point on A, table mm.
    pub from: [f64; 2],
    /// Closest point on B, table mm.
    pub to: [f64; 2],
    /// The base of A that is closest (`unit#index`).
    pub from_base: String,
    /// The base of B that is closest.
    pub to_base: String,
}

/// Rounds to six decimals: a millionth of a millimetre (or inch) is far below anything
/// measurable, and it hides floating-point noise such as 38.10000000000002.
#[must_use]
pub fn micro(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

/// Measures between two selections of a table.
pub fn measure(table: &Table, a: &str, b: &str) -> Result<Measurement, CliError> {
    let sa = table.select(a)?;
    let sb = table.select(b)?;
    if sa == sb {
        return Err(CliError::Usage(format!(
            "\"{a}\" and \"{b}\" are the same thing; measure between two different units or bases"
        )));
    }
    let book = table.rule_book()?;
    let found = closest_between_selections(table, sa, sb).ok_or_else(|| {
        CliError::Usage(format!("\"{a}\" and \"{b}\" share every base; nothing to measure"))
    })?;
    let (c, ra, rb) = (found.closest, found.from, found.to);
    let mm = c.distance_mm;
    Ok(Measurement {
        mm: micro(mm),
        inches: micro(mm_to_inches(mm)),
        rule_in: book.mm_to_rule_inches(mm).map(micro),
        from: [micro(c.from.x), micro(c.from.y)],
        to: [micro(c.to.x), micro(c.to.y)],
        from_base: table.base_label(ra),
        to_base: table.base_label(rb),
    })
}

/// Runs `vedette measure`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let table = Table::load(&args.table)?;
    let m = measure(&table, &args.a, &args.b)?;
    if args.json {
        let text = serde_json::to_string(&m).map_err(|e| CliError::Usage(e.to_string()))?;
        return emit(out, &format!("{text}\n"));
    }
    let rule = match (m.rule_in, table.scale.ratio()) {
        (Some(r), Some(ratio)) => format!(
            "{r:.3} rule-inch{} ({} at {} scale, ratio {ratio})",
            if (r - 1.0).abs() < 5e-4 { "" } else { "es" },
            table.rules,
            table.scale
        ),
        _ => format!(
            "{} states distances in mm for {} figures: compare {:.1} mm directly",
            table.rules, table.scale, m.mm
        ),
    };
    emit(
        out,
        &format!(
            "{} to {}: {:.1} mm = {:.3} in edge to edge\n  rule distance: {rule}\n  closest bases: {} -> {}\n  closest points: ({:.1}, {:.1}) -> ({:.1}, {:.1})\n",
            args.a, args.b, m.mm, m.inches, m.from_base, m.to_base, m.from[0], m.from[1], m.to[0], m.to[1]
        ),
    )
}
