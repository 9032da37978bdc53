//! What the server holds: the table as read, the corrections made to it, and the
//! corrected table with its report and plan, recomputed after every change.

use super::corrections::{
    Correction, apply, apply_all, corrections_json, corrections_path, read_corrections,
};
use crate::CliError;
use crate::commands::report::{Findings, build_timed, plan_svg, render_text};
use crate::output::write_atomically;
use serde::Serialize;
use std::path::{Path, PathBuf};
use vedette_geometry::{BaseRef, Table};

/// The corrected table and everything served from it.
#[derive(Debug)]
pub struct Derived {
    /// The table with every correction applied.
    pub table: Table,
    /// `vedette report --json` of it (compact).
    pub report_json: String,
    /// `vedette report` (text) of it.
    pub report_text: String,
    /// The plan of its findings, SVG.
    pub plan_svg: String,
    /// Every base with its plan element id (`/api/bases`), JSON.
    pub bases_json: String,
}

/// One base as `/api/bases` lists it.
#[derive(Debug, Serialize)]
struct BaseEntry {
    /// `unit#index`, as selectors and corrections name it.
    base: String,
    /// The unit's id.
    unit: String,
    /// The unit's side.
    side: String,
    /// The id of its outline in the plan SVG.
    svg_id: String,
    /// Centre, table mm.
    x: f64,
    /// Centre, table mm.
    y: f64,
    /// Degrees counter-clockwise from +x.
    heading: f64,
}

impl Derived {
    /// Computes the report and the plan of a table.
    pub fn of(table: Table) -> Result<Derived, CliError> {
        let (report, findings): (_, Findings) = build_timed(&table, &mut Default::default())?;
        let plan_svg = plan_svg(&table, &findings)?;
        let report_json = serde_json::to_string(&report).map_err(|e| CliError::Usage(e.to_string()))?;
        let report_text = render_text(&report);
        let mut bases = Vec::new();
        for (ui, u) in table.units.iter().enumerate() {
            for (bi, b) in u.bases.iter().enumerate() {
                let r = BaseRef::new(ui, bi);
                bases.push(BaseEntry {
                    base: table.base_label(r),
                    unit: u.id.clone(),
                    side: u.side.clone(),
                    svg_id: vedette_draw::plan::base_id(&table, r),
                    x: b.centre().x,
                    y: b.centre().y,
                    heading: b.heading_deg(),
                });
            }
        }
        let bases_json = serde_json::to_string(&bases).map_err(|e| CliError::Usage(e.to_string()))?;
        Ok(Derived { table, report_json, report_text, plan_svg, bases_json })
    }
}

/// The server's state.
#[derive(Debug)]
pub struct Session {
    /// The table as read from its file.
    original: Table,
    /// Where the corrections are kept.
    corrections_file: PathBuf,
    /// The corrections, oldest first.
    corrections: Vec<Correction>,
    /// The corrected table and what is served from it.
    pub current: Derived,
}

impl Session {
    /// Reads the table and applies its corrections file, if there is one.
    pub fn open(table_path: &Path) -> Result<Session, CliError> {
        let original = Table::load(table_path)?;
        let corrections_file = corrections_path(table_path);
        let corrections = read_corrections(&corrections_file)?;
        let corrected = apply_all(&original, &corrections, &corrections_file)?;
        Ok(Session { original, corrections_file, corrections, current: Derived::of(corrected)? })
    }

    /// The corrections made so far.
    #[must_use]
    pub fn corrections(&self) -> &[Correction] {
        &self.corrections
    }

    /// The corrections file's path.
    #[must_use]
    pub fn corrections_file(&self) -> &Path {
        &self.corrections_file
    }

    /// Applies a correction, writes the corrections file and recomputes the findings;
    /// nothing changes when the correction is refused or the file cannot be written.
    pub fn correct(&mut self, c: Correction) -> Result<(), CliError> {
        let table = apply(&self.current.table, &c)?;
        let derived = Derived::of(table)?;
        let mut corrections = self.corrections.clone();
        corrections.push(c);
        write_atomically(&self.corrections_file, corrections_json(&corrections)?.as_bytes())?;
        self.corrections = corrections;
        self.current = derived;
        Ok(())
    }

    /// Removes the last correction; `false` when there is none.
    pub fn undo(&mut self) -> Result<bool, CliError> {
        let Some((_, rest)) = self.corrections.split_last() else { return Ok(false) };
        let rest = rest.to_vec();
        let table = apply_all(&self.original, &rest, &self.corrections_file)?;
        let derived = Derived::of(table)?;
        write_atomically(&self.corrections_file, corrections_json(&rest)?.as_bytes())?;
        self.corrections = rest;
        self.current = derived;
        Ok(true)
    }
}
