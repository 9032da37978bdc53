//! `vedette schema table|report|los|corrections`: prints the JSON Schema of table files,
//! of `vedette report --json` output, of `vedette los --json` output or of the
//! corrections files `vedette serve` keeps. The committed
//! copies in `docs/` are checked against this output by the test suite, so the
//! documentation cannot drift from the code.

use super::emit;
use crate::CliError;

/// Which schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Which {
    /// Table files (`vedette/table/1`).
    Table,
    /// `vedette report --json` output (`vedette/report/1`).
    Report,
    /// `vedette los --json` output (`vedette/los/1`).
    Los,
    /// The corrections file `vedette serve` keeps beside a table
    /// (`vedette/corrections/1`).
    Corrections,
}

/// Arguments of `vedette schema`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  vedette schema table")]
pub struct Args {
    /// Which schema to print.
    pub which: Which,
}

/// The schema as pretty JSON text.
#[must_use]
pub fn schema_text(which: Which) -> String {
    let schema = match which {
        Which::Table => schemars::schema_for!(vedette_geometry::Table),
        Which::Report => schemars::schema_for!(super::report::Report),
        Which::Los => schemars::schema_for!(super::los::LosReport),
        Which::Corrections => schemars::schema_for!(super::serve::corrections::CorrectionsFile),
    };
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// Runs `vedette schema`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    emit(out, &schema_text(args.which))
}
