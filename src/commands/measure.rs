//! `vedette measure TABLE A B [--json]`: the closest edge-to-edge distance between two
//! units (or `unit#index` bases), in mm, inches and rule inches, with the closest points.

use super::calls::{self, CallEntry};
use super::emit;
use super::overlay::{Painter, PhotoArgs};
use crate::CliError;
use serde::Serialize;
use std::path::PathBuf;
use vedette_draw::findings::measure::distance_name;
use vedette_geometry::{RuleBook, Table, measure_between, mm_to_inches};

/// Arguments of `vedette measure`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  vedette measure samples/skirmish.json fr-1 au-1\n  vedette measure samples/skirmish.json fr-1 au-1 --svg m.svg"
)]
pub struct Args {
    /// The table file (vedette/table/1 JSON).
    pub table: PathBuf,
    /// The first unit id, or `unit#index` for one of its bases.
    pub a: String,
    /// The second unit id, or `unit#index`.
    pub b: String,
    /// Print JSON: {"mm", "in", "rule_in", "from", "to", "from_base", "to_base",
    /// "sigma_mm", "thresholds"}.
    #[arg(long)]
    pub json: bool,
    /// Also write a picture of the measurement: the closest points joined, the value in
    /// rule inches and mm, both units' bases highlighted (docs/drawing.md).
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<PathBuf>,
    /// Drawing over the scanned photo.
    #[command(flatten)]
    pub photo: PhotoArgs,
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
    /// Standard uncertainty of the distance, mm, from the two closest bases' `sigma_mm`
    /// and `sigma_heading_deg`; `null` on a table without uncertainties.
    pub sigma_mm: Option<f64>,
    /// The rule set's distances nearest the measurement: the largest one it exceeds and
    /// the smallest one it is within, each with its close call.
    pub thresholds: Vec<Threshold>,
}

/// A rule distance the measurement is compared with.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Threshold {
    /// The rule distances of this length, with their sections (`general-assault (000
    /// §5.1)`).
    pub names: Vec<String>,
    /// Its length, mm.
    pub limit_mm: f64,
    /// Its length in rule inches (`null` for Pro Patria).
    pub rule_in: Option<f64>,
    /// The measurement is within it (distance ≤ limit).
    pub within: bool,
    /// How close a call that is.
    pub call: CallEntry,
}

/// A library threshold as `--json` prints it.
fn threshold_entry(table: &Table, book: &RuleBook, t: &vedette_geometry::Threshold) -> Threshold {
    Threshold {
        names: t.distances.iter().map(|e| format!("{} ({})", distance_name(e.name), e.section)).collect(),
        limit_mm: micro(t.limit_mm),
        rule_in: book.mm_to_rule_inches(t.limit_mm).map(micro),
        within: t.within,
        call: calls::entry(table, &t.call, Some(t.limit_mm)),
    }
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
    let found = measure_between(table, &book, sa, sb).ok_or_else(|| {
        CliError::Usage(format!("\"{a}\" and \"{b}\" share every base; nothing to measure"))
    })?;
    let (c, ra, rb) = (found.found.closest, found.found.from, found.found.to);
    let mm = c.distance_mm;
    let sigma_mm = found.sigma_mm.map(micro);
    let thresholds = found.thresholds.iter().map(|t| threshold_entry(table, &book, t)).collect();
    Ok(Measurement {
        mm: micro(mm),
        inches: micro(mm_to_inches(mm)),
        rule_in: book.mm_to_rule_inches(mm).map(micro),
        from: [micro(c.from.x), micro(c.from.y)],
        to: [micro(c.to.x), micro(c.to.y)],
        from_base: table.base_label(ra),
        to_base: table.base_label(rb),
        sigma_mm,
        thresholds,
    })
}

/// The picture of a measurement between two selections, with its caption.
pub fn measure_scene(table: &Table, a: &str, b: &str) -> Result<vedette_draw::Scene, CliError> {
    let (sa, sb) = (table.select(a)?, table.select(b)?);
    let book = table.rule_book()?;
    let found = measure_between(table, &book, sa, sb).ok_or_else(|| {
        CliError::Usage(format!("\"{a}\" and \"{b}\" share every base; nothing to measure"))
    })?;
    let caption = vedette_draw::caption::measure_caption(table, &book, a, b, &found);
    let mut scene = vedette_draw::table_scene(table, &caption.headline);
    vedette_draw::findings::measure::draw_measurement(
        &mut scene,
        table,
        &book,
        (sa, sb),
        &found.found.closest,
        found.sigma_mm,
    );
    scene.focus_on(&[vedette_draw::LayerId::Measurements]);
    scene.caption = Some(caption);
    Ok(scene)
}

/// Runs `vedette measure`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    run_with(args, out, None)
}

/// Runs `vedette measure`, drawing over the photo with `painter`.
pub fn run_with(
    args: &Args,
    out: &mut dyn std::io::Write,
    painter: Option<Painter<'_>>,
) -> Result<(), CliError> {
    args.photo.check(args.svg.as_deref().map(|p| ("--svg", p)), &args.table)?;
    let table = Table::load(&args.table)?;
    let m = measure(&table, &args.a, &args.b)?;
    args.photo.draw(args.svg.as_deref(), painter, &table, || measure_scene(&table, &args.a, &args.b))?;
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
    let sigma = m.sigma_mm.map_or(String::new(), |s| format!(" (sigma {s:.2} mm)"));
    let mut text = format!(
        "{} to {}: {:.1} mm{sigma} = {:.3} in edge to edge\n  rule distance: {rule}\n  closest bases: {} -> {}\n  closest points: ({:.1}, {:.1}) -> ({:.1}, {:.1})\n",
        args.a, args.b, m.mm, m.inches, m.from_base, m.to_base, m.from[0], m.from[1], m.to[0], m.to[1]
    );
    for t in &m.thresholds {
        let length =
            t.rule_in.map_or(format!("{:.1} mm", t.limit_mm), |r| format!("{r:.3}\" ({:.1} mm)", t.limit_mm));
        text.push_str(&format!(
            "  {} {length} by {:.2} mm: {}{}\n",
            if t.within { "within" } else { "beyond" },
            t.call.margin_mm,
            t.names.join(", "),
            calls::mark(&t.call)
        ));
    }
    emit(out, &text)
}
