//! The plan of a table's findings, and in photo mode the same drawing over the photo,
//! drawn on a thread of their own: a correction is answered once its report is
//! computed, and the pictures (a few tens of milliseconds more on the 2,000-base
//! sample) are sent when they are asked for and ready.
//!
//! A [`Drawing`] is made with its table's report ([`super::session::Derived`]) and
//! started when its snapshot is shown ([`Drawer::start`]): the picture of a change
//! that was given up is never drawn. One [`Drawer`] per server draws one picture at a
//! time, the latest shown: a drawing not yet begun when a newer one is shown is dropped
//! (those waiting for it are told it was superseded and ask for the newer one), so
//! corrections made faster than their plans are drawn never pile up drawings (issue 41
//! item 4).

use super::photo::PhotoView;
use crate::CliError;
use crate::commands::report::{Findings, plan_scene};
use std::sync::{Arc, Mutex, OnceLock};
use vedette_geometry::Table;

/// The pictures of a table's findings.
#[derive(Debug)]
pub struct Drawn {
    /// The plan of the findings, SVG.
    pub plan_svg: String,
    /// The same drawing in the photo's pixels, in photo mode.
    pub photo_svg: Option<String>,
}

/// Why a [`Drawing`] holds no pictures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotDrawn {
    /// A newer drawing was asked for before this one started: ask for the newer one.
    Superseded,
    /// The drawing failed, with its message.
    Failed(String),
}

impl std::fmt::Display for NotDrawn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotDrawn::Superseded => f.write_str("a newer plan replaced this one before it was drawn"),
            NotDrawn::Failed(e) => f.write_str(e),
        }
    }
}

/// Where a drawing's pictures arrive.
#[derive(Default)]
struct Cell {
    /// What to draw, until it is drawn (or superseded).
    job: Mutex<Option<Job>>,
    /// The pictures, or why there are none.
    value: OnceLock<Result<Drawn, NotDrawn>>,
    /// Wakes those waiting asynchronously.
    ready: tokio::sync::Notify,
}

impl Cell {
    fn set(&self, value: Result<Drawn, NotDrawn>) {
        let _ = self.value.set(value);
        self.ready.notify_waiters();
    }
}

impl std::fmt::Debug for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cell").field("drawn", &self.value.get().is_some()).finish_non_exhaustive()
    }
}

/// The pictures of one table's findings, drawn or to be drawn.
#[derive(Debug, Clone)]
pub struct Drawing(Arc<Cell>);

impl Drawing {
    /// The drawing of the plan of `findings` on `table` (and over the photo of `view`),
    /// drawn once a [`Drawer`] starts it.
    #[must_use]
    pub fn new(table: Arc<Table>, findings: Findings, view: Option<Arc<dyn PhotoView>>) -> Drawing {
        let cell = Cell { job: Mutex::new(Some(Job { table, findings, view })), ..Cell::default() };
        Drawing(Arc::new(cell))
    }

    /// The pictures, waiting for them on this thread (once started).
    pub fn wait(&self) -> Result<&Drawn, NotDrawn> {
        self.0.value.wait().as_ref().map_err(NotDrawn::clone)
    }

    /// The pictures, waited for without holding a thread (a request can give up).
    pub async fn ready(&self) -> Result<&Drawn, NotDrawn> {
        loop {
            let notified = self.0.ready.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(v) = self.0.value.get() {
                return v.as_ref().map_err(NotDrawn::clone);
            }
            notified.await;
        }
    }
}

/// What a drawing needs.
struct Job {
    table: Arc<Table>,
    findings: Findings,
    view: Option<Arc<dyn PhotoView>>,
}

/// Draws pictures on one thread, the latest started first (see the module's
/// documentation). Clones share the thread.
#[derive(Clone, Default)]
pub struct Drawer(Arc<Mutex<Queue>>);

/// The drawing waiting to begin, and whether the thread runs.
#[derive(Default)]
struct Queue {
    next: Option<Arc<Cell>>,
    running: bool,
}

impl std::fmt::Debug for Drawer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Drawer")
    }
}

impl Drawer {
    /// A drawer with no thread yet (one starts at the first drawing).
    #[must_use]
    pub fn new() -> Drawer {
        Drawer::default()
    }

    /// Starts `drawing`, superseding a drawing started before that has not begun.
    pub fn start(&self, drawing: &Drawing) {
        let mut queue = super::routes::relock(&self.0);
        if let Some(old) = queue.next.replace(Arc::clone(&drawing.0))
            && !Arc::ptr_eq(&old, &drawing.0)
        {
            super::routes::relock(&old.job).take();
            old.set(Err(NotDrawn::Superseded));
        }
        if !queue.running {
            queue.running = true;
            let shared = Arc::clone(&self.0);
            std::thread::spawn(move || draw_queued(&shared));
        }
    }
}

/// The drawer's thread: draws what is queued until nothing is.
fn draw_queued(queue: &Mutex<Queue>) {
    loop {
        let cell = {
            let mut q = super::routes::relock(queue);
            match q.next.take() {
                Some(cell) => cell,
                None => {
                    q.running = false;
                    return;
                }
            }
        };
        // Taken once: a drawing started twice is drawn once.
        let Some(job) = super::routes::relock(&cell.job).take() else { continue };
        let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            draw(&job.table, &job.findings, job.view.as_deref()).map_err(|e| NotDrawn::Failed(e.to_string()))
        }))
        .unwrap_or_else(|_| {
            Err(NotDrawn::Failed("drawing the plan failed (a bug: please report it)".to_string()))
        });
        cell.set(drawn);
    }
}

/// The plan of `findings`, and its drawing over the photo of `view`.
fn draw(table: &Table, findings: &Findings, view: Option<&dyn PhotoView>) -> Result<Drawn, CliError> {
    let scene = plan_scene(table, findings)?;
    let plan_svg = vedette_draw::plan_svg(&scene)?;
    let photo_svg = view.map(|v| v.overlay_svg(&scene)).transpose()?;
    Ok(Drawn { plan_svg, photo_svg })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Arc<Table> {
        Arc::new(Table::load(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/brigade-attack.json")).unwrap())
    }

    #[test]
    fn the_latest_drawing_is_drawn_and_those_it_passed_say_so() {
        let drawer = Drawer::new();
        let t = table();
        let findings = || crate::commands::report::build_timed(&t, &mut Default::default()).unwrap().1;
        // Asked for one after another, faster than one is drawn.
        let all: Vec<Findings> = (0..5).map(|_| findings()).collect();
        let drawings: Vec<Drawing> = all.into_iter().map(|f| Drawing::new(Arc::clone(&t), f, None)).collect();
        for d in &drawings {
            drawer.start(d);
        }
        let last = drawings.last().unwrap().wait().unwrap();
        assert!(last.plan_svg.contains("base-au-art-1.0"));
        let mut superseded = 0;
        for d in &drawings {
            match d.wait() {
                Ok(drawn) => assert_eq!(drawn.plan_svg, last.plan_svg),
                Err(NotDrawn::Superseded) => superseded += 1,
                Err(e) => panic!("{e}"),
            }
        }
        // The thread takes one as it starts; of those queued while it draws, only
        // the last is drawn.
        assert!(superseded >= 3, "{superseded} of 5 superseded");
        let again = Drawing::new(Arc::clone(&t), findings(), None);
        drawer.start(&again);
        assert!(again.wait().is_ok(), "the drawer starts again after it went idle");
    }
}
