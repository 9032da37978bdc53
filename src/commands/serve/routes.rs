//! The JSON API (docs/serve.md). Every answer comes from the functions the verbs use:
//! `report::build_timed` and `plan_svg`, `measure::measure`, `los::line_of_sight`.
//! The photo view and uploads are [`super::photo_routes`].
//! Every failure is `{"error": "..."}` with a 4xx status (5xx when the corrections
//! file cannot be written, when the server is busy or a request outlasts its budget).
//!
//! Reading routes answer from the last [`Snapshot`]; rule work runs on
//! [`Workers`], changes one at a time through the [`Session`]. Before any route, the
//! access checks: the `Host` and `Origin` headers ([`Guard`]), then the pairing
//! secret ([`Pairing`]).

use super::connections::{BodyTimeout, Connection};
use super::corrections::{Correction, check_name};
use super::drawing::{Drawn, NotDrawn};
use super::pairing::{Admission, Pairing, is_loopback};
use super::photo::{Scanner, UPLOAD_LIMIT};
use super::photo_routes;
use super::session::{Session, Snapshot};
use super::uploads::Uploads;
use super::workers::Workers;
use crate::commands::{los, measure};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// The largest request body accepted, bytes: a correction or a pair of ids is far
/// smaller.
pub const BODY_LIMIT: usize = 1 << 20;

/// What every handler shares.
pub struct App {
    /// What reading requests are answered from, swapped whole after each change.
    current: Mutex<Arc<Snapshot>>,
    /// The changing state: one change at a time (corrections, undo, a scan's result).
    pub session: Arc<tokio::sync::Mutex<Session>>,
    /// Where rule work runs, and the budget of each request.
    pub workers: Workers,
    /// What scans uploads (`None` without `--profile`).
    pub scanner: Option<Arc<dyn Scanner>>,
    /// Where uploads are stored.
    pub uploads_dir: PathBuf,
    /// The uploads stored since the start: only these can be scanned, and only these
    /// are ever removed (within the quota).
    pub uploads: Mutex<Uploads>,
    /// The upload or scan under way, if any.
    pub status: Mutex<photo_routes::ScanStatus>,
    /// Who may use the server.
    pub pairing: Pairing,
    /// Who draws the pictures of each new snapshot.
    pub drawer: super::drawing::Drawer,
}

impl App {
    /// The state of a server on `session` (whose snapshot is `snapshot`), storing
    /// uploads in `uploads_dir`.
    #[must_use]
    pub fn new(
        (session, snapshot): (Session, Snapshot),
        scanner: Option<Arc<dyn Scanner>>,
        uploads_dir: PathBuf,
        uploads: Uploads,
        workers: Workers,
        pairing: Pairing,
        drawer: super::drawing::Drawer,
    ) -> App {
        drawer.start(&snapshot.current.drawing);
        App {
            current: Mutex::new(Arc::new(snapshot)),
            session: Arc::new(tokio::sync::Mutex::new(session)),
            workers,
            scanner,
            uploads_dir,
            uploads: Mutex::new(uploads),
            status: Mutex::new(photo_routes::ScanStatus::default()),
            pairing,
            drawer,
        }
    }

    /// The session as it stood after its last change.
    #[must_use]
    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&relock(&self.current))
    }

    /// Makes `snapshot` what reading requests are answered from, and starts drawing its
    /// pictures.
    pub fn show(&self, snapshot: Snapshot) {
        // Shown first: those told the drawing they waited for was superseded find this
        // one.
        let drawing = snapshot.current.drawing.clone();
        *relock(&self.current) = Arc::new(snapshot);
        self.drawer.start(&drawing);
    }
}

/// The shared state of every handler.
pub type Shared = Arc<App>;

/// The `Host` headers a server answers: this machine's loopback names at its port, the
/// address it was bound to, and (when it listens on the network) the address each
/// request reached it on, as an IP literal. A page elsewhere that points its own name
/// at this machine (DNS rebinding) is refused.
#[derive(Debug, Clone)]
pub struct Guard {
    /// The port listened on.
    port: u16,
    /// The address bound.
    bound: SocketAddr,
}

impl Guard {
    /// The checks of a server bound to `bound`.
    #[must_use]
    pub fn new(bound: SocketAddr) -> Guard {
        Guard { port: bound.port(), bound }
    }

    /// `host` (a `Host` header) is one this server answers on `connection`.
    fn allows_host(&self, host: &str, connection: Option<&Connection>) -> bool {
        let host = host.to_ascii_lowercase();
        // Without a port (`localhost`, `[::1]`), the address is port 80's.
        let host = if host.ends_with(']') || !host.contains(':') { format!("{host}:80") } else { host };
        let port = self.port;
        let mut allowed =
            vec![format!("localhost:{port}"), format!("127.0.0.1:{port}"), format!("[::1]:{port}")];
        if !self.bound.ip().is_unspecified() {
            allowed.push(self.bound.to_string());
        }
        if let Some(c) = connection {
            allowed.push(SocketAddr::new(c.local.ip().to_canonical(), port).to_string());
        }
        allowed.contains(&host)
    }
}

/// The routes, behind the access checks (see the module's documentation).
pub fn router(state: Shared, guard: Guard) -> Router {
    let checks = Arc::new(guard);
    let app = Arc::clone(&state);
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
        .route("/api/pairing", get(pairing))
        .route("/api/pairing.svg", get(pairing_svg))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(move |request: Request, next: Next| {
            let (checks, app) = (Arc::clone(&checks), Arc::clone(&app));
            async move { admit(&checks, &app, request, next).await }
        }))
        .with_state(state)
}

/// The access checks before every route: `Host` (403), `Origin` (403), the pairing
/// secret (401); the answer of an admitted request, the cookie set when the secret came
/// in the address.
async fn admit(guard: &Guard, app: &App, request: Request, next: Next) -> Response {
    let connection = request.extensions().get::<Connection>().copied();
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if !guard.allows_host(host, connection.as_ref()) {
        return error(StatusCode::FORBIDDEN, "this server answers only to the address it printed");
    }
    // A browser names the page a request comes from: only this server's own.
    if let Some(origin) = headers.get(header::ORIGIN)
        && origin.to_str().ok() != Some(format!("http://{host}").as_str())
    {
        return error(StatusCode::FORBIDDEN, "this server answers only its own page, not other sites'");
    }
    // Without the two ends (never, behind `connections::serve`): another machine's.
    let peer = connection.map_or(std::net::Ipv4Addr::UNSPECIFIED.into(), |c| c.peer.ip());
    let admission = app.pairing.admit(peer, headers, request.uri());
    if admission == Admission::Refused {
        return unpaired(request.uri().path());
    }
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    if admission == Admission::Query
        && let Some(cookie) = app.pairing.cookie()
    {
        h.append(header::SET_COOKIE, cookie);
    }
    response
}

/// 401 without the secret: a word on how to pair, nothing of the table.
fn unpaired(path: &str) -> Response {
    const HOW: &str = "this server needs its pairing secret: open the address vedette serve printed on its terminal (it ends in ?token=...), or scan its QR code. A restarted server has a new secret: open its new address";
    if path.starts_with("/api/") {
        return error(StatusCode::UNAUTHORIZED, HOW);
    }
    let page = format!(
        "<!doctype html><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>vedette: not paired</title><p>{HOW}.</p>\n"
    );
    (StatusCode::UNAUTHORIZED, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response()
}

/// `{"error": message}` with `status` (and `Retry-After` when trying again helps).
pub(super) fn error(status: StatusCode, message: impl std::fmt::Display) -> Response {
    let mut response =
        (status, json_body(serde_json::json!({ "error": message.to_string() }).to_string())).into_response();
    if matches!(status, StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE) {
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("2"));
    }
    response
}

pub(super) fn json_body(text: String) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], text)
}

/// Locks `m` even when a handler panicked holding it: none can have left the state
/// half-changed, every change is computed aside and swapped in whole.
pub(super) fn relock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The value of `key` in a URI's query, percent-decoded.
pub(super) fn query_value(uri: &Uri, key: &str) -> Option<String> {
    let query = uri.query()?;
    let raw = query.split('&').find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))?;
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// The request body as `T`: 413 when too large, 408 when it stopped arriving, 415
/// unless sent as JSON (a page on another site cannot send that without the browser
/// asking first), 400 when not `T`.
pub(super) fn body_of<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, Refusal> {
    let body = body.map_err(Refusal::of_body)?;
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

/// A request refused: its status and message.
#[derive(Debug)]
pub struct Refusal(pub StatusCode, pub String);

impl Refusal {
    /// A body that could not be read: too large (413), stopped arriving (408, and the
    /// connection closed), or cut.
    pub(super) fn of_body(r: BytesRejection) -> Refusal {
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&r);
        while let Some(e) = source {
            if let Some(t) = e.downcast_ref::<BodyTimeout>() {
                return Refusal(StatusCode::REQUEST_TIMEOUT, format!("{t}: send it again"));
            }
            source = e.source();
        }
        Refusal(r.status(), r.body_text())
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let mut response = error(self.0, self.1);
        if self.0 == StatusCode::REQUEST_TIMEOUT {
            // The rest of the body may still come: the connection goes.
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

async fn table(State(s): State<Shared>) -> Response {
    json_body(s.snapshot().current.table_json.clone()).into_response()
}

async fn bases(State(s): State<Shared>) -> Response {
    json_body(s.snapshot().current.bases_json.clone()).into_response()
}

async fn report(State(s): State<Shared>) -> Response {
    json_body(s.snapshot().current.report_json.clone()).into_response()
}

async fn report_text(State(s): State<Shared>) -> Response {
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], s.snapshot().current.report_text.clone())
        .into_response()
}

async fn plan(State(s): State<Shared>) -> Response {
    drawn(&s, |d| Some(d.plan_svg.clone())).await
}

/// A picture of the current findings (`pick` of its [`Drawn`]) as SVG, waited for
/// within the request's budget while it is drawn; `None` from `pick`: there is no
/// photo.
pub(super) async fn drawn(s: &Shared, pick: fn(&Drawn) -> Option<String>) -> Response {
    let deadline = s.workers.deadline(Instant::now());
    loop {
        let snapshot = s.snapshot();
        let picked = tokio::time::timeout_at(deadline, snapshot.current.drawing.ready()).await;
        return match picked {
            Ok(Ok(d)) => match pick(d) {
                Some(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
                None => error(StatusCode::NOT_FOUND, "this session has no photo to draw over"),
            },
            // A newer table's drawing replaced it: that one is the one to send.
            Ok(Err(NotDrawn::Superseded)) => continue,
            Ok(Err(e)) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
            Err(_) => Refusal(
                StatusCode::GATEWAY_TIMEOUT,
                format!(
                    "the plan is still being drawn after the server's {} s budget per request: ask again in a moment",
                    s.workers.budget().as_secs_f64()
                ),
            )
            .into_response(),
        };
    }
}

/// The body of `/api/measure`, `/api/los` and the card's routes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Pair {
    /// A unit id or `unit#index`.
    pub(super) a: String,
    /// A unit id or `unit#index`.
    pub(super) b: String,
}

async fn measure_route(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    pair_answer(&s, &headers, body, measure::measure).await
}

async fn los_route(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    pair_answer(&s, &headers, body, los::line_of_sight).await
}

/// The answer of a verb about a pair (`{"a", "b"}` in the body) on the current table,
/// computed on a worker.
pub(super) async fn pair_answer<T: serde::Serialize + 'static>(
    s: &Shared,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
    verb: fn(&vedette_geometry::Table, &str, &str) -> Result<T, crate::CliError>,
) -> Response {
    let start = Instant::now();
    let pair: Pair = match body_of(headers, body) {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    if let Err(e) = check_name("a", &pair.a).and_then(|()| check_name("b", &pair.b)) {
        return error(StatusCode::BAD_REQUEST, e);
    }
    let table = Arc::clone(&s.snapshot().current.table);
    let answer =
        s.workers.run(s.workers.deadline(start), move |_| answer_json(verb(&table, &pair.a, &pair.b))).await;
    answer.unwrap_or_else(IntoResponse::into_response)
}

fn answer_json<T: serde::Serialize>(answer: Result<T, crate::CliError>) -> Response {
    match answer.and_then(|a| serde_json::to_string(&a).map_err(|e| crate::CliError::Usage(e.to_string()))) {
        Ok(text) => json_body(text).into_response(),
        Err(e) => error(StatusCode::BAD_REQUEST, e),
    }
}

async fn corrections(State(s): State<Shared>) -> Response {
    json_body(s.snapshot().corrections_json.clone()).into_response()
}

/// A change of the session (a correction or an undo, computed by `change` on a
/// worker): kept, the corrections file written and the new snapshot shown, only if the
/// request still waits for it; answers the corrections after it.
async fn change_session(
    s: &Shared,
    start: Instant,
    change: impl FnOnce(&Session) -> Result<Option<super::session::Change>, crate::CliError> + Send + 'static,
) -> Response {
    let deadline = s.workers.deadline(start);
    let Ok(mut session) = tokio::time::timeout_at(deadline, Arc::clone(&s.session).lock_owned()).await else {
        return s.workers.busy("another change is still being computed").into_response();
    };
    let app = Arc::clone(s);
    let done = s
        .workers
        .run(deadline, move |ticket| {
            let session = &mut *session;
            let Some(computed) = change(session)? else { return Ok(None) };
            match ticket.keep(|| session.keep(computed).map(|snapshot| app.show(snapshot))) {
                Some(kept) => kept.map(Some),
                // Given up: the request was answered; nothing is kept.
                None => Ok(None),
            }
        })
        .await;
    match done {
        Ok(Ok(Some(()))) => json_body(s.snapshot().corrections_json.clone()).into_response(),
        Ok(Ok(None)) => error(StatusCode::CONFLICT, "no correction to undo"),
        Ok(Err(e @ crate::CliError::Write { .. })) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
        Ok(Err(e)) => error(StatusCode::BAD_REQUEST, e),
        Err(refusal) => refusal.into_response(),
    }
}

async fn correct(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let start = Instant::now();
    let c: Correction = match body_of(&headers, body) {
        Ok(c) => c,
        Err(r) => return r.into_response(),
    };
    if let Err(e) = c.check_lengths() {
        return error(StatusCode::BAD_REQUEST, e);
    }
    change_session(&s, start, move |session| session.correct(c).map(Some)).await
}

async fn undo(State(s): State<Shared>) -> Response {
    change_session(&s, Instant::now(), Session::undo).await
}

/// `GET /api/pairing`: `{"url"}`, the address that pairs a phone (`null` when the
/// server listens on the loopback only). This machine only: the desktop page's "open on
/// your phone".
async fn pairing(State(s): State<Shared>, request: Request) -> Response {
    if let Some(refused) = this_machine_only(&request) {
        return refused;
    }
    let text = serde_json::json!({ "url": s.pairing.shared_url() }).to_string();
    no_store(json_body(text).into_response())
}

/// `GET /api/pairing.svg`: that address as a QR code (404 when not shared). This
/// machine only.
async fn pairing_svg(State(s): State<Shared>, request: Request) -> Response {
    if let Some(refused) = this_machine_only(&request) {
        return refused;
    }
    let Some(url) = s.pairing.shared_url() else {
        return error(
            StatusCode::NOT_FOUND,
            "this server is not shared with other machines: start it with --lan to pair a phone",
        );
    };
    match super::pairing::qr_svg(url) {
        Ok(svg) => no_store(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response()),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// 403 unless the request comes from this machine.
fn this_machine_only(request: &Request) -> Option<Response> {
    let local = request.extensions().get::<Connection>().is_some_and(|c| is_loopback(c.peer.ip()));
    (!local).then(|| {
        error(StatusCode::FORBIDDEN, "the pairing code is shown only on the machine the server runs on")
    })
}

/// `response`, never kept by a cache (it holds the secret).
fn no_store(mut response: Response) -> Response {
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "no such page or API route (see docs/serve.md)")
}

async fn method_not_allowed() -> Response {
    error(StatusCode::METHOD_NOT_ALLOWED, "this route does not take that method (see docs/serve.md)")
}
