//! `vedette report TABLE [--json]`: every finding for a whole table, section by section.
//!
//! Each rule area contributes one section: a field of [`Report`] (serialized under its
//! own key, documented in `docs/report-format.md`) and a block of the human output. The
//! `table` section summarises what was read; then come [`artillery`], [`assaults`],
//! [`command`], [`skirmishers`] and [`pro_patria`].

pub mod artillery;
pub mod assaults;
mod columns;
pub mod command;
pub mod pro_patria;
pub mod republic;
pub mod skirmishers;

use super::emit;
use crate::CliError;
use artillery::{ArtilleryEntry, artillery_section, render_artillery};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{RuleSet, Scale, SpatialIndex, Table};

/// The schema id of `vedette report --json` output.
pub const REPORT_SCHEMA_ID: &str = "vedette/report/1";

/// Arguments of `vedette report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The table file (vedette/table/1 JSON).
    pub table: PathBuf,
    /// Print JSON (see docs/report-format.md) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The whole report.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Report {
    /// Always `"vedette/report/1"`.
    pub schema: String,
    /// What the table holds.
    pub table: TableSummary,
    /// One entry per battery (000 §4.2-4.5), in table order; `null` when the table's rule
    /// set has no Republique artillery rules (classic Republique, Pro Patria).
    pub artillery: Option<Vec<ArtilleryEntry>>,
    /// Assault contacts, aspects, base counts and cover (issue 5).
    pub assaults: assaults::AssaultsSection,
    /// Deployment areas, leaders, divisions, cavalry reaction and pass-through (issue 5).
    pub command: command::CommandSection,
    /// Skirmish marker legality (issue 5).
    pub skirmishers: Vec<skirmishers::MarkerReport>,
    /// Pro Patria's own checks; `null` for other rule sets (issue 5).
    pub pro_patria: Option<pro_patria::ProPatriaSection>,
    /// Republic's advanced rules that measure the table (003 201, 301); `null` for other
    /// rule sets.
    pub republic: Option<republic::RepublicSection>,
}

/// The `table` section: what was read.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TableSummary {
    /// The table's name, if it has one.
    pub name: Option<String>,
    /// The rule set.
    pub rules: RuleSet,
    /// The scale.
    pub scale: Scale,
    /// Units per side.
    pub sides: BTreeMap<String, SideSummary>,
    /// Status markers.
    pub markers: usize,
    /// Terrain features.
    pub terrain: usize,
}

/// Counts for one side.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct SideSummary {
    /// Units of every kind.
    pub units: usize,
    /// Bases of every kind.
    pub bases: usize,
    /// Combat bases (infantry, cavalry, artillery).
    pub combat_bases: usize,
}

/// Builds the report for a table.
pub fn build(table: &Table) -> Result<Report, CliError> {
    build_timed(table, &mut Stages::default())
}

/// Wall time of each stage of a report, ms, in order (printed to stderr when the
/// environment variable `VEDETTE_TIMING` is set: how BENCHMARKS.md splits a run).
#[derive(Debug, Default)]
pub struct Stages {
    last: Option<std::time::Instant>,
    /// (stage, ms).
    pub ms: Vec<(&'static str, f64)>,
}

impl Stages {
    fn start(&mut self) {
        self.last = Some(std::time::Instant::now());
    }
    fn done(&mut self, stage: &'static str) {
        let now = std::time::Instant::now();
        if let Some(t) = self.last {
            self.ms.push((stage, (now - t).as_secs_f64() * 1e3));
        }
        self.last = Some(now);
    }
    fn print(&self) {
        let parts: Vec<String> = self.ms.iter().map(|(s, ms)| format!("{s} {ms:.1}")).collect();
        eprintln!("timing ms: {}", parts.join(", "));
    }
}

/// [`build`], recording each stage's time.
pub fn build_timed(table: &Table, stages: &mut Stages) -> Result<Report, CliError> {
    if stages.last.is_none() {
        stages.start();
    }
    let book = table.rule_book()?;
    let index = SpatialIndex::new(table);
    stages.done("index");
    // One terrain line-of-sight model for every section that asks "is it seen?".
    let sight = TerrainSight::try_new(&index)?;
    stages.done("sight-model");
    let mut sides: BTreeMap<String, SideSummary> = BTreeMap::new();
    for u in &table.units {
        let s = sides.entry(u.side.clone()).or_default();
        s.units += 1;
        s.bases += u.bases.len();
        if u.is_combat() {
            s.combat_bases += u.bases.len();
        }
    }
    let artillery = artillery_section(table, &index, &sight)?;
    stages.done("artillery");
    let assaults = assaults::build(table, &index, &book)?;
    stages.done("assaults");
    let command = command::build(table, &index, &book, &sight)?;
    stages.done("command");
    let skirmishers = skirmishers::build(table, &index, &book, &sight)?;
    stages.done("skirmishers");
    let pro_patria = pro_patria::build(table, &index, &book, &sight)?;
    stages.done("pro-patria");
    let republic = republic::build(table, &index, &book)?;
    stages.done("republic");
    Ok(Report {
        schema: REPORT_SCHEMA_ID.to_string(),
        table: TableSummary {
            name: table.name.clone(),
            rules: table.rules,
            scale: table.scale,
            sides,
            markers: table.markers.len(),
            terrain: table.terrain.len(),
        },
        artillery,
        assaults,
        command,
        skirmishers,
        pro_patria,
        republic,
    })
}

/// The human-readable report.
#[must_use]
pub fn render_text(report: &Report) -> String {
    let t = &report.table;
    let mut s = String::new();
    if let Some(n) = &t.name {
        s.push_str(&format!("{n}\n"));
    }
    s.push_str(&format!(
        "Rules: {} at {} scale; {} markers, {} terrain features\n",
        t.rules, t.scale, t.markers, t.terrain
    ));
    for (side, c) in &t.sides {
        s.push_str(&format!("  {side}: {} units, {} bases ({} combat)\n", c.units, c.bases, c.combat_bases));
    }
    match &report.artillery {
        Some(batteries) => s.push_str(&render_artillery(batteries)),
        None => {
            s.push_str(&format!("\nArtillery: {} has no Republique artillery rules; not assessed\n", t.rules))
        }
    }
    s.push_str(&assaults::render_text(&report.assaults));
    s.push_str(&command::render_text(&report.command));
    s.push_str(&skirmishers::render_text(&report.skirmishers));
    if let Some(p) = &report.pro_patria {
        s.push_str(&pro_patria::render_text(p));
    }
    if let Some(r) = &report.republic {
        s.push_str(&republic::render_text(r));
    }
    s
}

/// Runs `vedette report`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let mut stages = Stages::default();
    stages.start();
    let table = Table::load(&args.table)?;
    stages.done("load");
    let report = build_timed(&table, &mut stages)?;
    let text = if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| CliError::Usage(e.to_string()))?;
        format!("{text}\n")
    } else {
        render_text(&report)
    };
    stages.done("format");
    let written = emit(out, &text);
    stages.done("write");
    if std::env::var_os("VEDETTE_TIMING").is_some() {
        stages.print();
    }
    written
}
