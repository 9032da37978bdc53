//! What the server holds: the table as read (or as scanned from a photo), the
//! corrections made to it, and the corrected table with its report, plan and photo
//! view.
//!
//! Readers are served a [`Snapshot`], computed whole when the table last changed and
//! swapped in whole, so a request never waits for a change being computed (issue 41
//! item 4). Changes go through the [`Session`], one at a time: each is computed aside
//! ([`Session::correct`], [`Session::undo`]) and then kept ([`Session::keep`]: the
//! corrections file written, then the new snapshot), so a change that fails or is
//! given up leaves everything as it was.

use super::compaction::{UNDO_KEPT, compact};
use super::corrections::{
    Correction, apply, apply_all, corrections_json, corrections_path, read_corrections,
};
use super::drawing::Drawing;
use super::photo::{PhotoView, ScanSummary, Scanned, close_calls, scan_report_path, table_path};
use crate::CliError;
use crate::commands::report::{Findings, Report, build_timed, render_text};
use crate::output::write_atomically;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use vedette_geometry::{BaseRef, Table};

/// The corrected table and everything served from it.
#[derive(Debug)]
pub struct Derived {
    /// The table with every correction applied.
    pub table: Arc<Table>,
    /// The table as `vedette/table/1` JSON (`GET /api/table`).
    pub table_json: String,
    /// `vedette report --json` of it (compact).
    pub report_json: String,
    /// `vedette report` (text) of it.
    pub report_text: String,
    /// Its findings in sentences (`report::sentences`), JSON: the page's lists.
    pub findings_json: String,
    /// Every base with its plan element id (`/api/bases`), JSON.
    pub bases_json: String,
    /// Verdicts of the report too close to call.
    pub close_calls: usize,
    /// The plan of its findings, and in photo mode the same drawing in the photo's
    /// pixels, drawn once its snapshot is shown.
    pub drawing: Drawing,
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
    /// Its facing rests on priors, not the photo (`"facing": "assumed"`, issue 37):
    /// the page marks it and offers the flip.
    facing_assumed: bool,
    /// It was fitted to the photo (`"found": "fitted"`); a base laid out by hand (the
    /// page's `place` of a unit the scan did not find) is not.
    fitted: bool,
}

impl Derived {
    /// Computes the report of a table, and makes the drawing of its plan (and over the
    /// photo of `view`), which a [`super::drawing::Drawer`] draws once it is started.
    pub fn of(table: Table, view: Option<Arc<dyn PhotoView>>) -> Result<Derived, CliError> {
        let (report, findings): (_, Findings) = build_timed(&table, &mut Default::default())?;
        let table = Arc::new(table);
        let drawing = Drawing::new(Arc::clone(&table), findings, view);
        let (report_json, report_text, close_calls, bases_json) = report_texts(&table, &report)?;
        let table_json = table.to_json_string();
        let findings_json = serde_json::to_string(&crate::commands::report::sentences::sentences(&report))
            .map_err(|e| CliError::Usage(e.to_string()))?;
        Ok(Derived {
            table,
            table_json,
            report_json,
            report_text,
            findings_json,
            bases_json,
            close_calls,
            drawing,
        })
    }
}

/// The report as JSON and as text, its close calls counted, and the table's base list
/// as JSON.
fn report_texts(table: &Table, report: &Report) -> Result<(String, String, usize, String), CliError> {
    let report_json = serde_json::to_string(report).map_err(|e| CliError::Usage(e.to_string()))?;
    let close_calls = close_calls(&report_json);
    let report_text = render_text(report);
    let mut bases = Vec::new();
    for (ui, u) in table.units.iter().enumerate() {
        for (bi, b) in u.bases.iter().enumerate() {
            let r = BaseRef::new(ui, bi);
            bases.push(BaseEntry {
                base: table.base_label(r),
                unit: u.id.clone(),
                side: u.side.clone(),
                svg_id: vedette_draw::plan::base_id(table, r),
                x: b.centre().x,
                y: b.centre().y,
                heading: b.heading_deg(),
                facing_assumed: b.meta().facing == Some(vedette_geometry::Facing::Assumed),
                fitted: b.meta().found == Some(vedette_geometry::Found::Fitted),
            });
        }
    }
    let bases_json = serde_json::to_string(&bases).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok((report_json, report_text, close_calls, bases_json))
}

/// The photo of a session in photo mode.
#[derive(Debug, Clone)]
pub struct PhotoShown {
    /// The photos scanned (the first is shown).
    pub photos: Vec<PathBuf>,
    /// The first photo and its camera model.
    pub view: Arc<dyn PhotoView>,
    /// What the scan found.
    pub summary: ScanSummary,
    /// Where its scan report was written.
    pub report_file: PathBuf,
}

/// What every reading request is answered from: the session as it stood after its last
/// change.
#[derive(Debug)]
pub struct Snapshot {
    /// The corrected table and everything served from it.
    pub current: Derived,
    /// The photo, in photo mode.
    pub photo: Option<PhotoShown>,
    /// The table's file (in photo mode, the scanned table's).
    pub table_file: PathBuf,
    /// The corrections file's path.
    pub corrections_file: PathBuf,
    /// `{"file", "corrections"}` as `GET /api/corrections` answers.
    pub corrections_json: String,
}

/// A change computed aside, kept by [`Session::keep`].
#[derive(Debug)]
pub struct Change {
    /// The corrections after it.
    corrections: Vec<Correction>,
    /// The corrected table after it, and what is served from it.
    derived: Derived,
    /// Whether `corrections` were folded.
    compacted: bool,
}

/// The changing state: one change at a time.
#[derive(Debug)]
pub struct Session {
    /// The table as read from its file, or as scanned.
    original: Table,
    /// The table's file.
    table_file: PathBuf,
    /// The photo, in photo mode.
    photo: Option<PhotoShown>,
    /// Where the corrections are kept.
    corrections_file: PathBuf,
    /// The corrections, oldest first.
    corrections: Vec<Correction>,
    /// How many corrections there were after they were last folded.
    folded_len: usize,
    /// The corrected table.
    table: Arc<Table>,
}

impl Session {
    /// Reads the table and applies its corrections file, if there is one (folded and
    /// written again when that shortens it: see [`super::compaction`]).
    pub fn open(table_path: &Path) -> Result<(Session, Snapshot), CliError> {
        let original = Table::load(table_path)?;
        let corrections_file = corrections_path(table_path);
        let corrections = read_corrections(&corrections_file)?;
        Session::start(original, table_path.to_path_buf(), None, corrections_file, corrections)
    }

    /// The session of a scan: its table written to `PHOTO.table.json` and its scan
    /// report to `PHOTO.scan-report.json` (`PHOTO` the first photo), and the corrections
    /// kept in `PHOTO.table.corrections.json` applied again.
    pub fn from_scan(scanned: Scanned) -> Result<(Session, Snapshot), CliError> {
        let Some(first) = scanned.photos.first() else {
            return Err(CliError::Usage("no photo was scanned".to_string()));
        };
        let table_file = table_path(first);
        let report_file = scan_report_path(first);
        let corrections_file = corrections_path(&table_file);
        let corrections = read_corrections(&corrections_file)?;
        let mut table_text = scanned.table.to_json_string();
        table_text.push('\n');
        let report_text = scanned.report_text;
        let table_written = table_file.clone();
        let report_written = report_file.clone();
        let photo =
            PhotoShown { photos: scanned.photos, view: scanned.view, summary: scanned.summary, report_file };
        let started = Session::start(scanned.table, table_file, Some(photo), corrections_file, corrections)?;
        crate::output::write_all_or_none(&[
            (&table_written, table_text.into_bytes()),
            (&report_written, report_text.into_bytes()),
        ])?;
        Ok(started)
    }

    /// A session on `original` with `corrections` applied (folded when that shortens
    /// them, and the file written again).
    fn start(
        original: Table,
        table_file: PathBuf,
        photo: Option<PhotoShown>,
        corrections_file: PathBuf,
        corrections: Vec<Correction>,
    ) -> Result<(Session, Snapshot), CliError> {
        let corrected = apply_all(&original, &corrections, &corrections_file)?;
        let (corrections, folded) = fold(&original, &corrected, corrections, &corrections_file);
        if folded {
            write_atomically(&corrections_file, corrections_json(&corrections)?.as_bytes())?;
        }
        let view = photo.as_ref().map(|p| Arc::clone(&p.view));
        let derived = Derived::of(corrected, view)?;
        let mut session = Session {
            original,
            table_file,
            photo,
            corrections_file,
            folded_len: corrections.len(),
            corrections: Vec::new(),
            table: Arc::clone(&derived.table),
        };
        session.corrections = corrections;
        let snapshot = session.snapshot(derived)?;
        Ok((session, snapshot))
    }

    /// The snapshot of this session with `derived`.
    fn snapshot(&self, derived: Derived) -> Result<Snapshot, CliError> {
        let corrections_json = serde_json::json!({
            "file": self.corrections_file.display().to_string(),
            "corrections": self.corrections,
        })
        .to_string();
        Ok(Snapshot {
            current: derived,
            photo: self.photo.clone(),
            table_file: self.table_file.clone(),
            corrections_file: self.corrections_file.clone(),
            corrections_json,
        })
    }

    fn view(&self) -> Option<Arc<dyn PhotoView>> {
        self.photo.as_ref().map(|p| Arc::clone(&p.view))
    }

    /// The corrections made so far.
    #[must_use]
    pub fn corrections(&self) -> &[Correction] {
        &self.corrections
    }

    /// `c` applied, its findings recomputed and the corrections folded when they have
    /// grown enough: computed aside, nothing changes until [`Session::keep`]. A
    /// correction the table's rules refuse is an error.
    pub fn correct(&self, c: Correction) -> Result<Change, CliError> {
        let table = apply(&self.table, &c)?;
        let mut corrections = Vec::with_capacity(self.corrections.len() + 1);
        corrections.extend_from_slice(&self.corrections);
        corrections.push(c);
        let (corrections, compacted) = if corrections.len() >= fold_again_at(self.folded_len) {
            fold(&self.original, &table, corrections, &self.corrections_file)
        } else {
            (corrections, false)
        };
        let derived = Derived::of(table, self.view())?;
        Ok(Change { corrections, derived, compacted })
    }

    /// The last correction taken back, computed aside; `None` when there is none.
    pub fn undo(&self) -> Result<Option<Change>, CliError> {
        let Some((_, rest)) = self.corrections.split_last() else { return Ok(None) };
        let table = apply_all(&self.original, rest, &self.corrections_file)?;
        let derived = Derived::of(table, self.view())?;
        Ok(Some(Change { corrections: rest.to_vec(), derived, compacted: false }))
    }

    /// Keeps a change: writes the corrections file, then gives the new snapshot. When
    /// the file cannot be written nothing changes.
    pub fn keep(&mut self, change: Change) -> Result<Snapshot, CliError> {
        write_atomically(&self.corrections_file, corrections_json(&change.corrections)?.as_bytes())?;
        self.corrections = change.corrections;
        if change.compacted || self.corrections.len() < self.folded_len {
            self.folded_len = self.corrections.len();
        }
        self.table = Arc::clone(&change.derived.table);
        self.snapshot(change.derived)
    }
}

/// The length at which corrections folded at `folded_len` are folded again: when they
/// have doubled, and at least [`UNDO_KEPT`] later (amortized O(1) per correction).
fn fold_again_at(folded_len: usize) -> usize {
    (2 * folded_len).max(folded_len + 2 * UNDO_KEPT)
}

/// `corrections` (giving `corrected` on `original`) folded, and whether that shortened
/// them. The folded list is used only when it gives the same table, to the bit (it
/// always should: see [`super::compaction`]); otherwise the list stays as it was.
fn fold(
    original: &Table,
    corrected: &Table,
    corrections: Vec<Correction>,
    file: &Path,
) -> (Vec<Correction>, bool) {
    if corrections.len() <= UNDO_KEPT {
        return (corrections, false);
    }
    let folded = compact(&corrections, UNDO_KEPT);
    if folded.len() < corrections.len() && apply_all(original, &folded, file).is_ok_and(|t| &t == corrected) {
        (folded, true)
    } else {
        (corrections, false)
    }
}
