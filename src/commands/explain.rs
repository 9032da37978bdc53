//! `vedette explain TABLE A B [--svg OUT.svg]`: every question the rules ask about one
//! pair, answered with the rule section and the numbers. A battery and a target when A
//! is artillery under a rule set with Republique artillery (000 §4.2-4.5); otherwise an
//! attacker and a defender (000 §5.1-5.4, 001 §4.1-4.3, 004 §17.4). The answers come
//! from the library's verdicts (`vedette_draw::explain`), the picture shows why.

use super::emit;
use super::overlay::{Painter, PhotoArgs};
use crate::CliError;
use std::path::PathBuf;
use vedette_draw::explain::{PairExplanation, explain_assault, explain_battery};
use vedette_geometry::artillery::target_cover;
use vedette_geometry::assault::assessment::assess_assaults;
use vedette_geometry::assault::contact::assault_pair_refusal;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{
    ArtilleryRules, BaseRef, Battlefield, Selection, SpatialIndex, Table, TerrainOutlines, UnitKind,
    assess_battery,
};

/// Arguments of `vedette explain`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  vedette explain samples/brigade-attack.json fr-art-1 au-3 --svg why.svg\n  vedette explain samples/brigade-attack.json fr-1-3 au-2"
)]
pub struct Args {
    /// The table file (vedette/table/1 JSON).
    pub table: PathBuf,
    /// The battery (an artillery unit, or `unit#index` for one base of a massed
    /// battery) or the attacker.
    pub a: String,
    /// The target or the defender (a unit id).
    pub b: String,
    /// Also write the picture of why (docs/drawing.md).
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<PathBuf>,
    /// Drawing over the scanned photo.
    #[command(flatten)]
    pub photo: PhotoArgs,
}

fn unit_of(table: &Table, text: &str) -> Result<usize, CliError> {
    match table.select(text)? {
        Selection::Unit(u) => Ok(u),
        Selection::Base(r) => Ok(r.unit),
    }
}

/// The explanation of a pair.
pub fn explain(table: &Table, a: &str, b: &str) -> Result<PairExplanation, CliError> {
    let sa = table.select(a)?;
    let (ua, ub) = (unit_of(table, a)?, unit_of(table, b)?);
    if ua == ub {
        return Err(CliError::Usage(format!(
            "\"{a}\" and \"{b}\" are the same unit; explain a pair of two units"
        )));
    }
    let index = SpatialIndex::new(table);
    let book = table.rule_book()?;
    let artillery = table.units[ua].kind == UnitKind::Artillery;
    if artillery && let Ok(rules) = ArtilleryRules::for_table(table) {
        let sight = TerrainSight::try_new(&index)?;
        let field = Battlefield {
            table,
            index: &index,
            rules: &rules,
            line_of_sight: &sight,
            ground: &TerrainOutlines,
        };
        // A massed battery named as a unit: the first of its bases with the pair in its arc.
        let candidates: Vec<BaseRef> = match sa {
            Selection::Base(r) => vec![r],
            Selection::Unit(u) => (0..table.units[u].bases.len()).map(|i| BaseRef::new(u, i)).collect(),
        };
        let mut chosen = None;
        for r in candidates {
            let found = assess_battery(&field, r)?;
            let holds = found.targets.iter().any(|t| t.unit == ub);
            if chosen.is_none() || holds {
                chosen = Some(found);
            }
            if holds {
                break;
            }
        }
        let Some(found) = chosen else {
            return Err(CliError::Usage(format!("\"{a}\" has no bases")));
        };
        let cover = match &found.main {
            Some(m) if m.unit == ub => Some(target_cover(table, &book, &sight, found.battery.base_ref, m)?),
            _ => None,
        };
        return Ok(explain_battery(table, &index, &rules, &found, ub, cover.as_ref()));
    }
    if let Some(why) = assault_pair_refusal(table, ua, ub) {
        return Err(CliError::Usage(format!("no assault to explain: {why}")));
    }
    let found = assess_assaults(table, &index, &book)?;
    let finding = found.findings.iter().find(|f| f.attacker == ua && f.defender == ub);
    Ok(explain_assault(table, &book, ua, ub, finding)?)
}

/// Runs `vedette explain`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    run_with(args, out, None)
}

/// Runs `vedette explain`, drawing over the photo with `painter`.
pub fn run_with(
    args: &Args,
    out: &mut dyn std::io::Write,
    painter: Option<Painter<'_>>,
) -> Result<(), CliError> {
    args.photo.check(args.svg.as_deref().map(|p| ("--svg", p)), &args.table)?;
    let table = Table::load(&args.table)?;
    let e = explain(&table, &args.a, &args.b)?;
    let text = e.render_text();
    args.photo.draw(args.svg.as_deref(), painter, || Ok(e.scene))?;
    emit(out, &text)
}
