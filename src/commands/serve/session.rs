//! What the server holds: the table as read (or as scanned from a photo), the
//! corrections made to it, and the corrected table with its report, plan and photo
//! view, recomputed after every change (the pictures on a thread of their own).

use super::corrections::{
    Correction, apply, apply_all, corrections_json, corrections_path, read_corrections,
};
use super::photo::{PhotoView, ScanSummary, Scanned, close_calls, scan_report_path, table_path};
use crate::CliError;
use crate::commands::report::{Findings, Report, build_timed, plan_scene, render_text};
use crate::output::write_atomically;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use vedette_geometry::{BaseRef, Table};

/// The corrected table and everything served from it.
#[derive(Debug)]
pub struct Derived {
    /// The table with every correction applied.
    pub table: Arc<Table>,
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
    /// pixels: drawn on a thread of its own once the report is ready.
    pub drawing: Drawing,
}

/// The plan of a table's findings and its drawing over the photo, drawn on a thread of
/// its own: a correction is answered once its report is computed, and the pictures
/// (a few tens of milliseconds more on the 2,000-base sample) are sent when they are
/// asked for and ready ([`Drawing::wait`]).
#[derive(Debug, Clone)]
pub struct Drawing(Arc<OnceLock<Result<Drawn, String>>>);

/// The pictures of a [`Drawing`].
#[derive(Debug)]
pub struct Drawn {
    /// The plan of the findings, SVG.
    pub plan_svg: String,
    /// The same drawing in the photo's pixels, in photo mode.
    pub photo_svg: Option<String>,
}

impl Drawing {
    /// Starts drawing the plan of `findings` on `table` (and over the photo of `view`).
    fn start(table: Arc<Table>, findings: Findings, view: Option<Arc<dyn PhotoView>>) -> Drawing {
        let cell = Arc::new(OnceLock::new());
        let out = Arc::clone(&cell);
        std::thread::spawn(move || {
            let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                draw(&table, &findings, view.as_deref()).map_err(|e| e.to_string())
            }))
            .unwrap_or_else(|_| Err("drawing the plan failed (a bug: please report it)".to_string()));
            let _ = out.set(drawn);
        });
        Drawing(cell)
    }

    /// The pictures, once drawn (waits for them); the drawing's error if it failed.
    pub fn wait(&self) -> Result<&Drawn, String> {
        self.0.wait().as_ref().map_err(String::clone)
    }
}

/// The plan of `findings`, and its drawing over the photo of `view`.
fn draw(table: &Table, findings: &Findings, view: Option<&dyn PhotoView>) -> Result<Drawn, CliError> {
    let scene = plan_scene(table, findings)?;
    let plan_svg = vedette_draw::plan_svg(&scene)?;
    let photo_svg = view.map(|v| v.overlay_svg(&scene)).transpose()?;
    Ok(Drawn { plan_svg, photo_svg })
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
    /// Computes the report of a table, and starts drawing its plan and its drawing over
    /// the photo of `view` ([`Drawing`]).
    pub fn of(table: Table, view: Option<Arc<dyn PhotoView>>) -> Result<Derived, CliError> {
        let (report, findings): (_, Findings) = build_timed(&table, &mut Default::default())?;
        let table = Arc::new(table);
        // The pictures are drawn beside the report's texts, and after them.
        let drawing = Drawing::start(Arc::clone(&table), findings, view);
        let (report_json, report_text, close_calls, bases_json) = report_texts(&table, &report)?;
        let findings_json = serde_json::to_string(&crate::commands::report::sentences::sentences(&report))
            .map_err(|e| CliError::Usage(e.to_string()))?;
        Ok(Derived { table, report_json, report_text, findings_json, bases_json, close_calls, drawing })
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

/// The server's state.
#[derive(Debug)]
pub struct Session {
    /// The table as read from its file, or as scanned.
    original: Table,
    /// The table's file.
    table_file: PathBuf,
    /// The photo, in photo mode.
    pub photo: Option<PhotoShown>,
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
        Ok(Session {
            original,
            table_file: table_path.to_path_buf(),
            photo: None,
            corrections_file,
            corrections,
            current: Derived::of(corrected, None)?,
        })
    }

    /// The session of a scan: its table written to `PHOTO.table.json` and its scan
    /// report to `PHOTO.scan-report.json` (`PHOTO` the first photo), and the corrections
    /// kept in `PHOTO.table.corrections.json` applied again.
    pub fn from_scan(scanned: Scanned) -> Result<Session, CliError> {
        let Some(first) = scanned.photos.first() else {
            return Err(CliError::Usage("no photo was scanned".to_string()));
        };
        let table_file = table_path(first);
        let report_file = scan_report_path(first);
        let corrections_file = corrections_path(&table_file);
        let corrections = read_corrections(&corrections_file)?;
        let corrected = apply_all(&scanned.table, &corrections, &corrections_file)?;
        let current = Derived::of(corrected, Some(Arc::clone(&scanned.view)))?;
        let mut table_text = scanned.table.to_json_string();
        table_text.push('\n');
        crate::output::write_all_or_none(&[
            (&table_file, table_text.into_bytes()),
            (&report_file, scanned.report_text.into_bytes()),
        ])?;
        Ok(Session {
            original: scanned.table,
            table_file,
            photo: Some(PhotoShown {
                photos: scanned.photos,
                view: scanned.view,
                summary: scanned.summary,
                report_file,
            }),
            corrections_file,
            corrections,
            current,
        })
    }

    /// The table's file (in photo mode, the scanned table's).
    #[must_use]
    pub fn table_file(&self) -> &Path {
        &self.table_file
    }

    fn view(&self) -> Option<Arc<dyn PhotoView>> {
        self.photo.as_ref().map(|p| Arc::clone(&p.view))
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
        let derived = Derived::of(table, self.view())?;
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
        let derived = Derived::of(table, self.view())?;
        write_atomically(&self.corrections_file, corrections_json(&rest)?.as_bytes())?;
        self.corrections = rest;
        self.current = derived;
        Ok(true)
    }
}
