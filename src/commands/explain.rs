//! `vedette explain TABLE A B [--svg OUT.svg]`: every question the rules ask about one
//! pair, answered with the rule section and the numbers. A battery and a target when A
//! is artillery under a rule set with Republique artillery (000 §4.2-4.5); otherwise an
//! attacker and a defender (000 §5.1-5.4, 001 §4.1-4.3, 004 §17.4). The answers come
//! from the library's verdicts (`vedette_draw::explain`), the picture shows why.

use super::emit;
use super::overlay::{Painter, PhotoArgs};
use crate::CliError;
use std::path::PathBuf;
use vedette_draw::explain::{PairExplanation, explain_pair};
use vedette_geometry::Table;

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

/// The explanation of a pair (`vedette_draw::explain::explain_pair`).
pub fn explain(table: &Table, a: &str, b: &str) -> Result<PairExplanation, CliError> {
    Ok(explain_pair(table, a, b)?)
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
    args.photo.draw(args.svg.as_deref(), painter, &table, || Ok(e.scene))?;
    emit(out, &text)
}
