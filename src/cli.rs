//! Argument parsing and dispatch. Exit status: 0 on success, 1 when the command fails
//! (bad input, unreadable file, ...), 2 for a command line the parser rejects.

use crate::commands;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// vedette: exact rule geometry for miniature wargames tables.
#[derive(Debug, Parser)]
#[command(name = "vedette", version, about, long_about = None)]
pub struct Cli {
    /// The verb to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The verbs.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Closest edge-to-edge distance between two units or bases.
    Measure(commands::measure::Args),
    /// Line of sight from one unit (or base) to another, with its explanation.
    Los(commands::los::Args),
    /// How far a unit moved between two table files, and what the move costs.
    Move(commands::movement::Args),
    /// Every finding for a whole table.
    Report(commands::report::Args),
    /// Write a seeded sample battle (the grand-battle generator).
    Generate(commands::generate::Args),
    /// Print the JSON Schema of table files or of report output.
    Schema(commands::schema::Args),
    /// Scan a photo of the table into a table file (tagged bases).
    Scan(commands::scan::Args),
    /// List every square marker found in a photo (why did calibration fail?).
    Fiducials(commands::fiducials::Args),
    /// Write print-ready sheets of the table fiducials and base tags.
    Sheet(commands::sheet::Args),
    /// Calibrate a camera from photos of a chessboard or ChArUco board.
    CalibrateCamera(commands::calibrate_camera::Args),
}

/// Runs a parsed command line, writing to stdout.
pub fn run(cli: Cli, out: &mut dyn std::io::Write) -> Result<(), crate::CliError> {
    match cli.command {
        Command::Measure(a) => commands::measure::run(&a, out),
        Command::Los(a) => commands::los::run(&a, out),
        Command::Move(a) => commands::movement::run(&a, out),
        Command::Report(a) => commands::report::run(&a, out),
        Command::Generate(a) => commands::generate::run(&a, out),
        Command::Schema(a) => commands::schema::run(&a, out),
        Command::Scan(a) => commands::scan::run(&a, out),
        Command::Fiducials(a) => commands::fiducials::run(&a, out),
        Command::Sheet(a) => commands::sheet::run(&a, out),
        Command::CalibrateCamera(a) => commands::calibrate_camera::run(&a, out),
    }
}

/// The binary's entry point.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    match run(cli, &mut lock) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
