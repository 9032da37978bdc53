//! `vedette generate -o OUT.json [--bases N] [--seed S]`: writes a seeded sample battle
//! (the generator behind `samples/grand-battle.json`).

use crate::CliError;
use crate::generate::{BattleSpec, grand_battle};
use crate::output::{check_outputs, is_stdout, write_atomically};
use std::path::PathBuf;

/// Arguments of `vedette generate`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  vedette generate --bases 20000 --seed 7 -o big.json")]
pub struct Args {
    /// Where to write the table (`-`: standard output).
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

/// The most bases `generate` writes (a million: fifty grand battles).
pub const MAX_BASES: usize = 1_000_000;
/// The most terrain features `generate` writes: as many as a table may hold
/// ([`vedette_geometry::MAX_TERRAIN_FEATURES`]).
pub const MAX_TERRAIN: usize = vedette_geometry::MAX_TERRAIN_FEATURES;

/// Runs `vedette generate`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    if args.bases == 0 || args.bases > MAX_BASES {
        return Err(CliError::Usage(format!(
            "--bases must be between 1 and {MAX_BASES}, got {}",
            args.bases
        )));
    }
    if args.terrain.is_some_and(|t| t > MAX_TERRAIN) {
        return Err(CliError::Usage(format!(
            "--terrain must be at most {MAX_TERRAIN}, got {}",
            args.terrain.unwrap_or_default()
        )));
    }
    if !is_stdout(&args.output) {
        check_outputs(&[("-o", &args.output)], &[])?;
    }
    let mut spec = BattleSpec::with_bases(args.bases, args.seed);
    if let Some(t) = args.terrain {
        spec.terrain_features = t;
    }
    let table = grand_battle(&spec);
    // The generator's own tables must load: never write one that every other verb
    // would refuse.
    table.validate("generated table")?;
    let mut text = table.to_json_string();
    text.push('\n');
    if is_stdout(&args.output) {
        // The table is the whole output.
        return super::emit(out, &text);
    }
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
