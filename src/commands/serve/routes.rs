//! The JSON API (docs/serve.md). Every answer comes from the functions the verbs use:
//! `report::build_timed` and `plan_svg`, `measure::measure`, `los::line_of_sight`.
//! The photo view and uploads are [`super::photo_routes`].
//! Every failure is `{"error": "..."}` with a 4xx status (5xx only when the corrections
//! file cannot be written).

use super::corrections::Correction;
use super::photo::{Scanner, UPLOAD_LIMIT};
use super::photo_routes;
use super::session::{Drawn, Session};
use crate::commands::{los, measure};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

/// The largest request body accepted, bytes: a correction or a pair of ids is far
/// smaller.
pub const BODY_LIMIT: usize = 1 << 20;

/// What every handler shares.
pub struct App {
    /// The table, its corrections and what is served from them; replaced whole by a
    /// scan of uploaded photos.
    pub session: Mutex<Session>,
    /// What scans uploads (`None` without `--profile`).
    pub scanner: Option<Arc<dyn Scanner>>,
    /// Where uploads are stored.
    pub uploads_dir: PathBuf,
    /// The uploads stored since the start, by file name: only these can be scanned.
    pub uploads: Mutex<Vec<PathBuf>>,
    /// The scan under way, if any.
    pub status: Mutex<photo_routes::ScanStatus>,
}

impl App {
    /// The state of a server on `session`, storing uploads in `uploads_dir`.
    #[must_use]
    pub fn new(session: Session, scanner: Option<Arc<dyn Scanner>>, uploads_dir: PathBuf) -> App {
        App {
            session: Mutex::new(session),
            scanner,
            uploads_dir,
            uploads: Mutex::new(Vec::new()),
            status: Mutex::new(photo_routes::ScanStatus::default()),
        }
    }
}

/// The shared state of every handler.
pub type Shared = Arc<App>;

/// The routes. With `hosts`, a request whose `Host` header is none of them is refused
/// (403): a page elsewhere that re-points its own name at 127.0.0.1 (DNS rebinding)
/// cannot read or correct the table.
pub fn router(state: Shared, hosts: Option<Vec<String>>) -> Router {
    let hosts = Arc::new(hosts);
    Router::new()
        .merge(super::assets::routes())
        .merge(super::page_routes::routes())
        .route("/api/table", get(table))
        .route("/api/bases", get(bases))
        .route("/api/report", get(report))
        .route("/api/report.txt", get(report_text))
        .route("/api/plan.svg", get(plan))
        .route("/api/measure", post(measure_route))
        .route("/api/los", post(los_route))
        .route("/api/corrections", get(corrections).post(correct))
        .route("/api/undo", post(undo))
        .route("/api/session", get(photo_routes::session))
        .route("/api/photo", get(photo_routes::photo))
        .route("/api/photo.svg", get(photo_routes::photo_svg))
        .route("/api/photo/locate", post(photo_routes::locate))
        .route("/api/uploads", post(photo_routes::upload).layer(DefaultBodyLimit::max(UPLOAD_LIMIT)))
        .route("/api/scan", get(photo_routes::scan_status).post(photo_routes::scan))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(move |request: Request, next: Next| {
            let hosts = Arc::clone(&hosts);
            async move {
                let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok());
                match hosts.as_ref() {
                    Some(allowed)
                        if !host.is_some_and(|h| allowed.iter().any(|a| a.eq_ignore_ascii_case(h))) =>
                    {
                        error(StatusCode::FORBIDDEN, "this server answers only to the address it printed")
                    }
                    _ => next.run(request).await,
                }
            }
        }))
        .with_state(state)
}

/// The `Host` headers a server bound to `address` answers: its own address and
/// `localhost` when it listens on the loopback; any (`None`) otherwise.
#[must_use]
pub fn allowed_hosts(address: std::net::SocketAddr) -> Option<Vec<String>> {
    let port = address.port();
    address.ip().is_loopback().then(|| {
        vec![
            address.to_string(),
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            format!("[::1]:{port}"),
        ]
    })
}

/// `{"error": message}` with `status`.
pub(super) fn error(status: StatusCode, message: impl std::fmt::Display) -> Response {
    (status, json_body(serde_json::json!({ "error": message.to_string() }).to_string())).into_response()
}

pub(super) fn json_body(text: String) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], text)
}

pub(super) fn lock(state: &Shared) -> MutexGuard<'_, Session> {
    relock(&state.session)
}

/// Locks `m` even when a handler panicked holding it: none can have left the state
/// half-changed, every change is computed aside and swapped in whole.
pub(super) fn relock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The request body as `T`: 413 when too large, 415 unless sent as JSON (a page on
/// another site cannot send that without the browser asking first), 400 when not `T`.
pub(super) fn body_of<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, Refusal> {
    let body = body.map_err(|r| Refusal(r.status(), r.body_text()))?;
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("application/json"));
    if !json {
        return Err(Refusal(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "send the body as Content-Type: application/json".to_string(),
        ));
    }
    serde_json::from_slice(&body)
        .map_err(|e| Refusal(StatusCode::BAD_REQUEST, format!("bad request body: {e}")))
}

/// A request refused before any work: its status and message.
#[derive(Debug)]
pub(super) struct Refusal(pub(super) StatusCode, pub(super) String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        error(self.0, self.1)
    }
}

async fn table(State(s): State<Shared>) -> Response {
    json_body(lock(&s).current.table.to_json_string()).into_response()
}

async fn bases(State(s): State<Shared>) -> Response {
    json_body(lock(&s).current.bases_json.clone()).into_response()
}

async fn report(State(s): State<Shared>) -> Response {
    json_body(lock(&s).current.report_json.clone()).into_response()
}

async fn report_text(State(s): State<Shared>) -> Response {
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], lock(&s).current.report_text.clone())
        .into_response()
}

async fn plan(State(s): State<Shared>) -> Response {
    drawn(&s, |d| Some(d.plan_svg.clone())).await
}

/// A picture of the current findings (`pick` of its [`Drawn`]) as SVG, waited for on a
/// blocking thread while it is drawn; `None` from `pick`: there is no photo.
pub(super) async fn drawn(s: &Shared, pick: fn(&Drawn) -> Option<String>) -> Response {
    let drawing = lock(s).current.drawing.clone();
    let picked = tokio::task::spawn_blocking(move || drawing.wait().map(pick)).await;
    match picked {
        Ok(Ok(Some(svg))) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        Ok(Ok(None)) => error(StatusCode::NOT_FOUND, "this session has no photo to draw over"),
        Ok(Err(e)) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// The body of `/api/measure` and `/api/los`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pair {
    /// A unit id or `unit#index`.
    a: String,
    /// A unit id or `unit#index`.
    b: String,
}

async fn measure_route(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    pair_answer(&s, &headers, body, measure::measure)
}

async fn los_route(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    pair_answer(&s, &headers, body, los::line_of_sight)
}

/// The answer of a verb about a pair (`{"a", "b"}` in the body) on the current table.
fn pair_answer<T: serde::Serialize>(
    s: &Shared,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
    verb: impl Fn(&vedette_geometry::Table, &str, &str) -> Result<T, crate::CliError>,
) -> Response {
    let pair: Pair = match body_of(headers, body) {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    answer_json(verb(&lock(s).current.table, &pair.a, &pair.b))
}

fn answer_json<T: serde::Serialize>(answer: Result<T, crate::CliError>) -> Response {
    match answer.and_then(|a| serde_json::to_string(&a).map_err(|e| crate::CliError::Usage(e.to_string()))) {
        Ok(text) => json_body(text).into_response(),
        Err(e) => error(StatusCode::BAD_REQUEST, e),
    }
}

fn corrections_answer(session: &Session) -> Response {
    let text = serde_json::json!({
        "file": session.corrections_file().display().to_string(),
        "corrections": session.corrections(),
    });
    json_body(text.to_string()).into_response()
}

async fn corrections(State(s): State<Shared>) -> Response {
    corrections_answer(&lock(&s))
}

async fn correct(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let c: Correction = match body_of(&headers, body) {
        Ok(c) => c,
        Err(r) => return r.into_response(),
    };
    let mut session = lock(&s);
    match session.correct(c) {
        Ok(()) => corrections_answer(&session),
        Err(e @ crate::CliError::Write { .. }) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
        Err(e) => error(StatusCode::BAD_REQUEST, e),
    }
}

async fn undo(State(s): State<Shared>) -> Response {
    let mut session = lock(&s);
    match session.undo() {
        Ok(true) => corrections_answer(&session),
        Ok(false) => error(StatusCode::CONFLICT, "no correction to undo"),
        Err(e @ crate::CliError::Write { .. }) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
        Err(e) => error(StatusCode::BAD_REQUEST, e),
    }
}

async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "no such page or API route (see docs/serve.md)")
}

async fn method_not_allowed() -> Response {
    error(StatusCode::METHOD_NOT_ALLOWED, "this route does not take that method (see docs/serve.md)")
}
