//! One module per `vedette` verb. Each has an `Args` (clap) and a `run`, but for the
//! photo verbs (`scan`, `fiducials`, `sheet`, `calibrate-camera`), whose `run` is in
//! `vedette-scanner` (see [`crate::cli`]).

pub mod bombard;
pub mod bounce;
pub mod calibrate_camera;
pub mod calls;
pub mod explain;
pub mod fiducials;
pub mod generate;
pub mod length;
pub mod los;
pub mod measure;
pub mod movement;
pub mod overlay;
pub mod report;
pub mod scan;
pub mod schema;
pub mod serve;
pub mod sheet;

use crate::CliError;
use std::io::Write;

/// Writes to the command's output, turning a broken pipe or full disk into a CliError.
pub fn emit(out: &mut dyn Write, text: &str) -> Result<(), CliError> {
    out.write_all(text.as_bytes())
        .map_err(|source| CliError::Write { path: "standard output".to_string(), source })
}
