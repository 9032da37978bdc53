//! `vedette-scanner`: every verb of `vedette`, the photo verbs (which need OpenCV)
//! included. `vedette` hands `scan`, `fiducials`, `sheet` and `calibrate-camera` to this
//! binary (and `check`, `init`), and the table verbs asked to draw over a photo (`--png`) or to scan
//! (`serve --photo`, `--profile`), so that its other verbs start without loading
//! OpenCV: the `vedette` library never depends on it (see `vedette::cli`).
//!
//! - [`scan`], [`scan_many`]: photos to a table file.
//! - [`fiducials`], [`sheet`], [`calibrate_camera`], [`check`]: the other photo verbs.
//! - [`init`]: a profile for a table size and a roster from a unit list.
//! - [`paint`]: the painter of `--png` (a verb's picture over the photo).
//! - [`serve_scanner`]: the scanner of `vedette serve`.

mod calibrate_camera;
mod check;
mod fiducials;
mod init;
mod paint;
mod scan;
mod scan_many;
mod serve_scanner;
mod sheet;

use clap::Parser;
use std::process::ExitCode;
use vedette::CliError;
use vedette::cli::{Cli, Command};
use vedette::commands;

/// mimalloc rather than the system's malloc: the report's two threads allocate and free
/// millions of small vectors (BENCHMARKS.md, The whole command).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// This build's id, a hash of the workspace's sources (`build.rs`): `vedette` passes
/// its own, and a scanner of another build refuses to run.
const BUILD_ID: &str = include_str!(concat!(env!("OUT_DIR"), "/build_id"));

fn main() -> ExitCode {
    vedette::output::guard_process();
    if let Err(e) = vedette::cli::check_caller_build(BUILD_ID) {
        return vedette::cli::finish(Err(e));
    }
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    vedette::cli::finish(run(cli, &mut lock))
}

/// Runs a parsed command line, writing to `out`: every verb, the photo verbs included.
fn run(cli: Cli, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    match cli.command {
        Command::Scan(a) => scan::run(&a, out),
        Command::Fiducials(a) => fiducials::run(&a, out),
        Command::Sheet(a) => sheet::run(&a, out),
        Command::CalibrateCamera(a) => calibrate_camera::run(&a, out),
        Command::Init(a) => init::run(&a, out),
        Command::Check(a) => check::run(&a, out),
        Command::Measure(a) => commands::measure::run_with(&a, out, Some(&paint::paint)),
        Command::Los(a) => commands::los::run_with(&a, out, Some(&paint::paint)),
        Command::Report(a) => commands::report::run_with(&a, out, Some(&paint::paint)),
        Command::Explain(a) => commands::explain::run_with(&a, out, Some(&paint::paint)),
        Command::Serve(a) => commands::serve::run_with(&a, out, Some(&serve_scanner::open)),
        other => vedette::cli::run_table_verb(other, out),
    }
}

/// The scanner's error ([`vedette_vision::VisionError`]) as the command line's: printed
/// as it is.
fn vision(e: vedette_vision::VisionError) -> CliError {
    CliError::Scanner(Box::new(e))
}
