//! `vedette generate -o OUT.json [--bases N] [--seed S]`: writes a seeded sample battle
//! (the generator behind `samples/grand-battle.json`).

use crate::CliError;
use crate::generate::{BattleSpec, grand_battle};
use crate::output::write_atomically;
use std::path::PathBuf;

/// Arguments of `vedette generate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the table.
    #[arg(short, long)]
    pub output: PathBuf,
    /// How many bases (at least).
    #[arg(long, default_value_t = BattleSpec::GRAND_BATTLE.bases)]
    pub bases: usize,
    /// RNG seed.
    #[arg(long, default_value_t = BattleSpec::GRAND_BATTLE.seed)]
    pub seed: u64,
    /// Terrain features (default: one per 50 bases).
    #[arg(long)]
    pub terrain: Option<usize>,
}

/// Runs `vedette generate`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let mut spec = BattleSpec::with_bases(args.bases, args.seed);
    if let Some(t) = args.terrain {
        spec.terrain_features = t;
    }
    let table = grand_battle(&spec);
    let mut text = table.to_json_string();
    text.push('\n');
    write_atomically(&args.output, text.as_bytes())?;
    super::emit(
        out,
        &format!(
            "wrote {} ({} units, {} bases)\n",
            args.output.display(),
            table.units.len(),
            table.base_count()
        ),
    )
}
