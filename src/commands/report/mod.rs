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
mod json;
pub mod pro_patria;
pub mod republic;
pub mod sentences;
pub mod skirmishers;

use super::emit;
use super::overlay::{Painter, PhotoArgs};
use crate::CliError;
use crate::output::write_atomically;
use artillery::{ArtilleryEntry, render_artillery};
pub use json::JsonPieces;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use vedette_draw::ReportFindings;
use vedette_draw::report::ArtilleryFindings;
use vedette_geometry::artillery::{ArtilleryAssessment, assess_table_artillery};
use vedette_geometry::assault::assessment::{AssaultAssessment, assess_assaults};
use vedette_geometry::command::assessment::{CommandAssessment, assess_command};
use vedette_geometry::los::TerrainSight;
use vedette_geometry::pro_patria::assessment::{ProPatriaAssessment, assess_pro_patria_if_played};
use vedette_geometry::republic::{RepublicAssessment, assess_republic_if_played};
use vedette_geometry::{RuleSet, Scale, SkirmisherAssessment, SpatialIndex, Table, assess_skirmishers};

/// The schema id of `vedette report --json` output.
pub const REPORT_SCHEMA_ID: &str = "vedette/report/1";

/// Arguments of `vedette report`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  vedette report samples/brigade-attack.json\n  vedette report samples/brigade-attack.json --json\n  vedette report samples/brigade-attack.json --plan plan.svg\n  vedette report battle.json --png findings.png --photo battle.jpg --scan-report battle.report.json"
)]
pub struct Args {
    /// The table file (vedette/table/1 JSON).
    pub table: PathBuf,
    /// Print JSON (see docs/report-format.md) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write a plan of the table with every finding, one toggleable SVG group per
    /// layer (docs/drawing.md).
    #[arg(long, value_name = "OUT.svg")]
    pub plan: Option<PathBuf>,
    /// What the plan and the picture over the photo show: `decisive` (the table,
    /// terrain, bases and the findings that break or decide something: main targets,
    /// deep, enfilade, contacts, flank or rear, too close, outside its area, out of
    /// command, close calls), `all` (every finding), or layer names separated by commas
    /// (`targets,zones`; docs/drawing.md).
    #[arg(long, value_name = "decisive|all|LAYERS", default_value = "decisive")]
    pub layers: vedette_draw::LayerChoice,
    /// Drawing every finding over the scanned photo.
    #[command(flatten)]
    pub photo: PhotoArgs,
}

/// The library's assessments behind a report: what the sections print and the plan
/// draws.
#[derive(Debug, Clone)]
pub struct Findings {
    /// The artillery rules, every battery's assessment, its main target's cover and its
    /// close calls (`None` without Republique artillery rules).
    pub artillery: Option<ArtilleryAssessment>,
    /// Assault contacts and groups.
    pub assaults: AssaultAssessment,
    /// Command: deployment areas, leaders, divisions.
    pub command: CommandAssessment,
    /// Every skirmish marker's check and fire options.
    pub skirmishers: SkirmisherAssessment,
    /// Pro Patria's own findings (`None` under other rule sets).
    pub pro_patria: Option<ProPatriaAssessment>,
    /// Republic's advanced rules (`None` under other rule sets).
    pub republic: Option<RepublicAssessment>,
}

impl Findings {
    /// The findings as the drawing layer takes them.
    #[must_use]
    pub fn for_drawing(&self) -> ReportFindings<'_> {
        ReportFindings {
            artillery: self.artillery.as_ref().map(|a| ArtilleryFindings {
                rules: &a.rules,
                batteries: &a.batteries,
                covers: &a.covers,
            }),
            assaults: &self.assaults,
            command: &self.command,
            skirmishers: &self.skirmishers,
            pro_patria: self.pro_patria.as_ref(),
            republic: self.republic.as_ref(),
        }
    }
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
    build_timed(table, &mut Stages::default()).map(|(r, _)| r)
}

/// Builds the report and the plan of its findings, as an SVG document.
pub fn build_with_plan(table: &Table) -> Result<(Report, String), CliError> {
    let (report, findings) = build_timed(table, &mut Stages::default())?;
    let plan = plan_svg(table, &findings)?;
    Ok((report, plan))
}

/// The plan of a table's findings, as an SVG document.
pub fn plan_svg(table: &Table, findings: &Findings) -> Result<String, CliError> {
    Ok(vedette_draw::plan_svg(&plan_scene(table, findings)?)?)
}

/// The scene of a table's findings.
pub fn plan_scene(table: &Table, findings: &Findings) -> Result<vedette_draw::Scene, CliError> {
    let book = table.rule_book()?;
    let index = SpatialIndex::new(table);
    Ok(vedette_draw::report_scene(table, &index, &book, &findings.for_drawing())?)
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

/// The sections run beside the artillery and the command section, with their
/// assessments.
struct Others {
    /// The JSON pieces of assaults, skirmishers, Pro Patria and Republic, when asked.
    json: [Option<Vec<u8>>; 4],
    found_assaults: AssaultAssessment,
    assaults: assaults::AssaultsSection,
    found_skirmishers: SkirmisherAssessment,
    skirmishers: Vec<skirmishers::MarkerReport>,
    found_pro_patria: Option<ProPatriaAssessment>,
    pro_patria: Option<pro_patria::ProPatriaSection>,
    found_republic: Option<RepublicAssessment>,
    republic: Option<republic::RepublicSection>,
}

/// [`build`], recording each stage's time; with the assessments behind it.
pub fn build_timed(table: &Table, stages: &mut Stages) -> Result<(Report, Findings), CliError> {
    build_sections(table, stages, false).map(|(r, f, _)| (r, f))
}

/// [`build_timed`], and when `json` is set, the report's pretty JSON in pieces, each
/// written beside the sections still being computed.
pub fn build_sections(
    table: &Table,
    stages: &mut Stages,
    json: bool,
) -> Result<(Report, Findings, Option<JsonPieces>), CliError> {
    // A section's piece of the JSON, when asked for.
    fn piece<T: Serialize>(json: bool, value: &T) -> Result<Option<Vec<u8>>, CliError> {
        json.then(|| JsonPieces::of(value)).transpose()
    }
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
    // Three runs of sections side by side, so that both cores stay busy to the end:
    // the artillery here, the command section beside it, and the others (assaults,
    // skirmishers, the rule set's own) beside both; the artillery's close calls and
    // the command's deployment areas each share both cores when they can, and each has
    // parts that cannot. The artillery's time is recorded as "artillery", the others'
    // own times under their names, and the wait for them once the artillery is done as
    // "wait".
    std::thread::scope(|scope| {
        let command_thread = scope.spawn(|| {
            let mut own = Stages::default();
            own.start();
            let found = assess_command(table, &index, &book, &sight).map_err(CliError::from).and_then(|f| {
                let section = command::section_of(table, &book, &f);
                let json = piece(json, &section)?;
                Ok((f, section, json))
            });
            own.done("command");
            (found, own)
        });
        let others_thread = scope.spawn(|| {
            let mut own = Stages::default();
            own.start();
            let others = (|| {
                let found_assaults = assess_assaults(table, &index, &book)?;
                let assaults = assaults::section_of(table, &book, &found_assaults);
                own.done("assaults");
                let found_skirmishers = assess_skirmishers(table, &index, &book, &sight)?;
                let skirmishers = skirmishers::section_of(table, &book, &found_skirmishers);
                own.done("skirmishers");
                let found_pro_patria = assess_pro_patria_if_played(table, &index, &book, &sight)?;
                let pro_patria = found_pro_patria.as_ref().map(|f| pro_patria::section_of(table, f));
                own.done("pro-patria");
                let found_republic = assess_republic_if_played(table, &index, &book)?;
                let republic = found_republic.as_ref().map(|f| republic::section_of(table, &book, f));
                own.done("republic");
                let json = [
                    piece(json, &assaults)?,
                    piece(json, &skirmishers)?,
                    piece(json, &pro_patria)?,
                    piece(json, &republic)?,
                ];
                Ok::<_, CliError>(Others {
                    json,
                    found_assaults,
                    assaults,
                    found_skirmishers,
                    skirmishers,
                    found_pro_patria,
                    pro_patria,
                    found_republic,
                    republic,
                })
            })();
            (others, own)
        });
        let artillery =
            assess_table_artillery(table, &index, &sight).map_err(CliError::from).and_then(|found| {
                let section = found.as_ref().map(|a| artillery::section_of(table, a));
                let json = piece(json, &section)?;
                Ok((found, section, json))
            });
        stages.done("artillery");
        let (others, others_ms) = others_thread.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        let (found_command, command_ms) =
            command_thread.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        stages.done("wait");
        stages.ms.extend(others_ms.ms);
        stages.ms.extend(command_ms.ms);
        let (found_artillery, artillery, artillery_json) = artillery?;
        let Others {
            json: [assaults_json, skirmishers_json, pro_patria_json, republic_json],
            found_assaults,
            assaults,
            found_skirmishers,
            skirmishers,
            found_pro_patria,
            pro_patria,
            found_republic,
            republic,
        } = others?;
        let (found_command, command, command_json) = found_command?;
        let report = Report {
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
        };
        let findings = Findings {
            artillery: found_artillery,
            assaults: found_assaults,
            command: found_command,
            skirmishers: found_skirmishers,
            pro_patria: found_pro_patria,
            republic: found_republic,
        };
        // The pieces in the order of the report's fields.
        let pieces = if json {
            let all = [
                ("schema", piece(json, &report.schema)?),
                ("table", piece(json, &report.table)?),
                ("artillery", artillery_json),
                ("assaults", assaults_json),
                ("command", command_json),
                ("skirmishers", skirmishers_json),
                ("pro_patria", pro_patria_json),
                ("republic", republic_json),
            ];
            Some(JsonPieces(all.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))).collect()))
        } else {
            None
        };
        Ok((report, findings, pieces))
    })
}

/// What `report` says on stderr once it wrote a picture: `plan written to plan.svg
/// (the decisive findings; --layers all for every finding)`.
#[must_use]
pub fn written_words(what: &str, path: &std::path::Path, layers: &vedette_draw::LayerChoice) -> String {
    let shown = match layers {
        vedette_draw::LayerChoice::Decisive => {
            "the decisive findings; --layers all for every finding".to_string()
        }
        vedette_draw::LayerChoice::All => "every finding".to_string(),
        vedette_draw::LayerChoice::Named(l) => {
            format!("layers {}", l.iter().map(|l| l.name()).collect::<Vec<_>>().join(", "))
        }
    };
    format!("{what} written to {} ({shown})", path.display())
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
    run_with(args, out, None)
}

/// Runs `vedette report`, drawing over the photo with `painter`.
pub fn run_with(
    args: &Args,
    out: &mut dyn std::io::Write,
    painter: Option<Painter<'_>>,
) -> Result<(), CliError> {
    args.photo.check(args.plan.as_deref().map(|p| ("--plan", p)), &args.table)?;
    let mut stages = Stages::default();
    stages.start();
    let table = Table::load(&args.table)?;
    stages.done("load");
    let (report, findings, pieces) =
        crate::progress::working("reporting", || build_sections(&table, &mut stages, args.json))?;
    if args.plan.is_some() || args.photo.wanted() {
        let mut scene = plan_scene(&table, &findings)?;
        vedette_draw::choose_layers(&mut scene, &table, &findings.for_drawing(), &args.layers);
        if let Some(path) = &args.plan {
            write_atomically(path, vedette_draw::plan_svg(&scene)?.as_bytes())?;
            eprintln!("{}", written_words("plan", path, &args.layers));
        }
        args.photo.paint(&scene, &table, painter)?;
        if let Some(path) = &args.photo.png {
            eprintln!("{}", written_words("picture over the photo", path, &args.layers));
        }
        stages.done("plan");
    }
    let written = if let Some(pieces) = pieces {
        // Formatted beside the sections (see `build_sections`): only joined here.
        let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut *out);
        let joined = pieces
            .write(&mut w)
            .and_then(|()| std::io::Write::flush(&mut w))
            .map_err(|source| CliError::Write { path: "standard output".to_string(), source });
        stages.done("format");
        joined
    } else {
        let text = render_text(&report);
        stages.done("format");
        emit(out, &text)
    };
    stages.done("write");
    if std::env::var_os("VEDETTE_TIMING").is_some() {
        stages.print();
    }
    written
}
