//! Argument parsing and dispatch. Exit status: 0 on success, 1 when the command fails
//! (bad input, unreadable file, ...), 2 for a command line the parser rejects.
//!
//! # Two binaries
//! The photo verbs (`scan`, `fiducials`, `sheet`, `calibrate-camera`, `check`; and
//! `init`, which checks what it writes with the scanner's profile) need OpenCV, whose
//! shared libraries (and theirs: over a hundred on Debian) take about 0.2 s to load;
//! even OpenCV's core library alone, with the libraries it brings (BLAS, LAPACK, X11,
//! ...), adds about 4 ms to the start of every process. So this library does not depend
//! on OpenCV at all: the photo verbs' `run`, the painter of `--png` and the server's
//! scanner live in the `vedette-scanner` binary (`src/bin/vedette-scanner/`), which
//! runs every verb, and the `vedette` binary hands those command lines to it (built and
//! installed beside it). So `report`, `measure`, `los` and `move` start in about a
//! millisecond. A table verb asked to draw over the photo (`--png`) is handed to
//! `vedette-scanner` too, and so is `serve` when it scans photos (`--photo`,
//! `--profile`).

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
    /// Every question the rules ask about one pair (battery and target, attacker and
    /// defender), answered with its rule section and numbers, and a picture of why.
    Explain(commands::explain::Args),
    /// The Pro Patria massed-battery bombardment zone aimed at a point, and who is in it.
    Bombard(commands::bombard::Args),
    /// Pro Patria artillery bounce-through: the units behind a target the ball reaches.
    Bounce(commands::bounce::Args),
    /// Write a seeded sample battle (the grand-battle generator).
    Generate(commands::generate::Args),
    /// A local web page to look at a table's findings (over its photo), measure, check
    /// sight, correct misread bases and scan uploaded photos (docs/serve.md).
    Serve(commands::serve::Args),
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
    /// Write a calibration profile for your table's size (and a roster from a unit
    /// list): the first step of docs/getting-started.md.
    Init(commands::init::Args),
    /// Measure the check sheet (`sheet --check`) in a photo of the table: how accurate
    /// your camera is on your table, and whether it is good enough for disputes.
    Check(commands::check::Args),
}

/// Runs the verbs that need no photo; `None` for a photo verb, and for a table verb
/// asked to draw over a photo (`--png`).
pub fn table_verb(command: Command, out: &mut dyn std::io::Write) -> Option<Result<(), crate::CliError>> {
    let over_photo = match &command {
        Command::Measure(a) => a.photo.wanted(),
        Command::Los(a) => a.photo.wanted(),
        Command::Report(a) => a.photo.wanted(),
        Command::Explain(a) => a.photo.wanted(),
        Command::Serve(a) => a.scans(),
        _ => false,
    };
    if over_photo {
        return None;
    }
    Some(match command {
        Command::Measure(a) => commands::measure::run(&a, out),
        Command::Los(a) => commands::los::run(&a, out),
        Command::Move(a) => commands::movement::run(&a, out),
        Command::Report(a) => commands::report::run(&a, out),
        Command::Explain(a) => commands::explain::run(&a, out),
        Command::Bombard(a) => commands::bombard::run(&a, out),
        Command::Bounce(a) => commands::bounce::run(&a, out),
        Command::Generate(a) => commands::generate::run(&a, out),
        Command::Schema(a) => commands::schema::run(&a, out),
        Command::Serve(a) => commands::serve::run(&a, out),
        Command::Scan(_)
        | Command::Fiducials(_)
        | Command::Sheet(_)
        | Command::CalibrateCamera(_)
        | Command::Init(_)
        | Command::Check(_) => {
            return None;
        }
    })
}

/// Runs a table verb ([`table_verb`]); a usage error for a verb that needs a photo.
pub fn run_table_verb(command: Command, out: &mut dyn std::io::Write) -> Result<(), crate::CliError> {
    table_verb(command, out).unwrap_or_else(|| Err(crate::CliError::Usage("not a table verb".to_string())))
}

/// The name of the binary that runs the photo verbs.
pub const SCANNER_BINARY: &str = "vedette-scanner";

/// The variable through which `vedette` tells `vedette-scanner` its build's id (a hash
/// of the workspace's sources, `build.rs`).
pub const BUILD_ID_ENV: &str = "VEDETTE_CALLER_BUILD_ID";

/// For `vedette-scanner` of build `ours`: refuses to run for a `vedette` built from
/// other sources (its [`BUILD_ID_ENV`] differs), which would leave scans to an old
/// scanner. Run directly (no variable), the scanner runs.
pub fn check_caller_build(ours: &str) -> Result<(), crate::CliError> {
    match std::env::var(BUILD_ID_ENV) {
        Ok(id) if id != ours => Err(crate::CliError::Usage(format!(
            "{SCANNER_BINARY} was built from other sources than the vedette that called it (build {ours}, vedette's {id}): rebuild both (cargo build --release --bin vedette --bin {SCANNER_BINARY}, or cargo install --path .)"
        ))),
        _ => Ok(()),
    }
}

/// Replaces this process with `vedette-scanner` (beside this binary) running the same
/// command line, told this build's id; returns only when that fails.
fn exec_scanner(build_id: &str) -> crate::CliError {
    let beside = std::env::current_exe().map(|p| p.with_file_name(SCANNER_BINARY));
    let path = match beside {
        Ok(p) if p.exists() => p,
        Ok(p) => {
            return crate::CliError::Usage(format!(
                "the photo verbs run in {SCANNER_BINARY}, which is not beside this binary (expected {}): build or install both binaries (cargo build --release)",
                p.display()
            ));
        }
        Err(e) => return crate::CliError::Usage(format!("cannot find this binary's directory: {e}")),
    };
    let mut cmd = std::process::Command::new(&path);
    cmd.args(std::env::args_os().skip(1)).env(BUILD_ID_ENV, build_id);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let e = cmd.exec();
        crate::CliError::Usage(format!("cannot run {}: {e}", path.display()))
    }
    #[cfg(not(unix))]
    {
        match cmd.status() {
            Ok(s) => std::process::exit(s.code().unwrap_or(1)),
            Err(e) => crate::CliError::Usage(format!("cannot run {}: {e}", path.display())),
        }
    }
}

/// The exit-code policy: 0 on success; the error printed as `error: ...` and 1 on
/// failure.
pub fn finish(result: Result<(), crate::CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// The `vedette` binary's entry point: table verbs here, photo verbs handed to
/// `vedette-scanner`, told `build_id` (the binary's build, `build.rs`).
pub fn main(build_id: &str) -> ExitCode {
    crate::output::guard_process();
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    match table_verb(cli.command, &mut lock) {
        Some(result) => finish(result),
        None => finish(Err(exec_scanner(build_id))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn every_verb_has_an_example_in_its_help() {
        for verb in Cli::command().get_subcommands() {
            let help = verb.get_after_help().map(|h| h.to_string()).unwrap_or_default();
            assert!(help.starts_with("Example"), "vedette {} --help has no example", verb.get_name());
            assert!(help.contains(&format!("vedette {}", verb.get_name())), "{}: {help}", verb.get_name());
        }
    }
}
