//! The routes of the photo view and of uploads (docs/serve.md): the photo, the table
//! drawn over it in its pixels, a pixel's table point and base; photos uploaded,
//! checked, stored and scanned with the server's profile, one upload or scan at a time
//! (another meanwhile is answered 429), within the upload quota ([`super::uploads`]).

use super::corrections::check_name;
use super::photo::{UPLOAD_LIMIT, upload_name};
use super::routes::{Refusal, Shared, body_of, error, json_body, query_value, relock};
use super::session::{Session, Snapshot};
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;
use vedette_geometry::{BaseRef, Vec2};

/// What an upload without a profile is told.
pub const NO_PROFILE: &str = "this server cannot scan photos: it was started without a calibration profile. Start it with --profile (and --roster, --camera), e.g. vedette serve --table T.json --profile calibration/default.toml --roster army.toml";

/// The most photos one scan takes.
pub const MAX_SCAN_PHOTOS: usize = 16;

/// The upload or scan under way.
#[derive(Debug, Default)]
pub struct ScanStatus {
    /// What it is doing (empty when idle).
    stage: String,
    /// When it started; `None` when idle.
    since: Option<Instant>,
}

/// The session as the page needs it: mode, files, photo size and the scan summary.
fn session_json(app: &Shared, s: &Snapshot) -> String {
    let photo = s.photo.as_ref();
    serde_json::json!({
        "mode": if photo.is_some() { "photo" } else { "table" },
        "table": s.table_file.display().to_string(),
        "corrections": s.corrections_file.display().to_string(),
        "photos": photo.map(|p| p.photos.iter().map(|x| x.display().to_string()).collect::<Vec<_>>()),
        "photo_size": photo.map(|p| p.view.size()),
        "scan_report": photo.map(|p| p.report_file.display().to_string()),
        "scan": photo.map(|p| &p.summary),
        "bases": s.current.table.base_count(),
        "close_calls": s.current.close_calls,
        "can_scan": app.scanner.is_some(),
        "upload_limit": UPLOAD_LIMIT,
        "uploads_dir": app.uploads_dir.display().to_string(),
    })
    .to_string()
}

/// `GET /api/session`.
pub async fn session(State(app): State<Shared>) -> Response {
    let text = session_json(&app, &app.snapshot());
    json_body(text).into_response()
}

fn no_photo() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "no photo: this server shows a table file (start it with --photo, or upload a photo)",
    )
}

/// `GET /api/photo`: the photo shown, JPEG.
pub async fn photo(State(app): State<Shared>) -> Response {
    match app.snapshot().photo.as_ref() {
        Some(p) => ([(header::CONTENT_TYPE, "image/jpeg")], p.view.jpeg().to_vec()).into_response(),
        None => no_photo(),
    }
}

/// `GET /api/photo.svg`: the plan's drawing in the photo's pixels.
pub async fn photo_svg(State(app): State<Shared>) -> Response {
    if app.snapshot().photo.is_none() {
        return no_photo();
    }
    super::routes::drawn(&app, |d| d.photo_svg.clone()).await
}

/// The body of `/api/photo/locate`: a photo pixel.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pixel {
    /// Pixels from the photo's left edge.
    x: f64,
    /// Pixels from the photo's top edge.
    y: f64,
}

/// `POST /api/photo/locate {"x": px, "y": px}`: the table point seen there (on the
/// table, and on the plane of base tops) and the base whose top it falls on (looked
/// for on a worker: every base is tried).
pub async fn locate(
    State(app): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let start = Instant::now();
    let p: Pixel = match body_of(&headers, body) {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    let snapshot = app.snapshot();
    let Some(shown) = &snapshot.photo else { return no_photo() };
    let (w, h) = shown.view.size();
    if !(p.x.is_finite()
        && p.y.is_finite()
        && (0.0..=f64::from(w)).contains(&p.x)
        && (0.0..=f64::from(h)).contains(&p.y))
    {
        return error(
            StatusCode::BAD_REQUEST,
            format!("({}, {}) is not a pixel of the {w} x {h} px photo", p.x, p.y),
        );
    }
    let px = Vec2::new(p.x, p.y);
    let (Some(on_table), Some(on_top)) =
        (shown.view.to_table(px, 0.0), shown.view.to_table(px, shown.view.base_top_mm()))
    else {
        return error(StatusCode::BAD_REQUEST, "that pixel does not look at the table");
    };
    let table = Arc::clone(&snapshot.current.table);
    let found = app
        .workers
        .run(app.workers.deadline(start), move |_| {
            table
                .bases()
                .find(|(_, b)| b.contains(on_top))
                .map(|(r, _): (BaseRef, _)| (table.base_label(r), table.units[r.unit].id.clone()))
        })
        .await;
    let base = match found {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    let text = serde_json::json!({
        "table_mm": [on_table.x, on_table.y],
        "base_top_mm": [on_top.x, on_top.y],
        "base": base.as_ref().map(|b| &b.0),
        "unit": base.as_ref().map(|b| &b.1),
    });
    json_body(text.to_string()).into_response()
}

/// The upload or scan slot, held while one runs: another is answered 429 meanwhile.
/// Released however the holder ends (a panic in the scanner included).
struct Busy(Shared);

impl Busy {
    /// The slot, for a job doing `stage`; 429 naming what runs when it is taken.
    fn take(app: &Shared, stage: String) -> Result<Busy, Refusal> {
        let mut status = relock(&app.status);
        if status.since.is_some() {
            return Err(Refusal(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "photos are handled one at a time, and one is under way ({}): try again when it is done",
                    status.stage
                ),
            ));
        }
        *status = ScanStatus { stage, since: Some(Instant::now()) };
        Ok(Busy(Arc::clone(app)))
    }

    fn stage(&self, stage: String) {
        relock(&self.0.status).stage = stage;
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        *relock(&self.0.status) = ScanStatus::default();
    }
}

/// `POST /api/uploads?name=FILE` with the photo's bytes as the body
/// (`Content-Type: image/...` or `application/octet-stream`): checked and stored in the
/// uploads folder; answers `{"upload": stored name, "file", "bytes"}`. The oldest
/// uploads beyond the quota go.
pub async fn upload(
    State(app): State<Shared>,
    uri: Uri,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let Some(scanner) = app.scanner.clone() else {
        return error(StatusCode::BAD_REQUEST, NO_PROFILE);
    };
    let body = match body {
        Ok(b) => b,
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return error(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the upload is larger than {} MiB: send a smaller photo", UPLOAD_LIMIT >> 20),
            );
        }
        Err(r) => return Refusal::of_body(r).into_response(),
    };
    // A page on another site cannot send these types without the browser asking first.
    let kind =
        headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_ascii_lowercase();
    if !(kind.starts_with("image/") || kind.starts_with("application/octet-stream")) {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "send the photo's bytes as the body, with Content-Type: image/jpeg (or another image type)",
        );
    }
    let name = query_value(&uri, "name").unwrap_or_else(|| "photo".to_string());
    if let Err(e) = check_name("name", &name) {
        return error(StatusCode::BAD_REQUEST, e);
    }
    let busy = match Busy::take(&app, format!("checking the upload {name}")) {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    let shared = Arc::clone(&app);
    let bytes = body.len();
    let stored = tokio::task::spawn_blocking(move || {
        let app = &busy.0;
        let ext =
            scanner.check_upload(&name, &body).map_err(|reason| Refusal(StatusCode::BAD_REQUEST, reason))?;
        let dir = &app.uploads_dir;
        let fail = |e: String| Refusal(StatusCode::INTERNAL_SERVER_ERROR, e);
        std::fs::create_dir_all(dir).map_err(|e| fail(format!("cannot make {}: {e}", dir.display())))?;
        let file = dir.join(upload_name(dir, &name, ext));
        crate::output::write_atomically(&file, &body).map_err(|e| fail(e.to_string()))?;
        let in_use = shared.snapshot().photo.as_ref().map(|p| p.photos.clone()).unwrap_or_default();
        let mut uploads = relock(&app.uploads);
        uploads.wrote_upload(&file);
        uploads.trim(&in_use);
        Ok::<PathBuf, Refusal>(file)
    })
    .await;
    let stored = match stored {
        Ok(Ok(file)) => file,
        Ok(Err(r)) => return r.into_response(),
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, format!("the upload failed: {e}")),
    };
    let text = serde_json::json!({
        "upload": stored.file_name().map(|n| n.to_string_lossy().into_owned()),
        "file": stored.display().to_string(),
        "bytes": bytes,
    });
    json_body(text.to_string()).into_response()
}

/// `GET /api/scan`: the upload or scan under way, if any.
pub async fn scan_status(State(app): State<Shared>) -> Response {
    let status = relock(&app.status);
    let text = serde_json::json!({
        "busy": status.since.is_some(),
        "stage": status.stage,
        "elapsed_ms": status.since.map(|t| t.elapsed().as_secs_f64() * 1e3),
    });
    json_body(text.to_string()).into_response()
}

/// The body of `POST /api/scan`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScanRequest {
    /// Stored names of uploads (`/api/uploads` answers them): several photos of one
    /// table are merged.
    uploads: Vec<String>,
    /// Stored names of uploaded photos of the empty table taken from the same places
    /// (issue 37, `vedette scan --background`): none, or one per photo in order.
    #[serde(default)]
    backgrounds: Vec<String>,
}

/// `POST /api/scan {"uploads": [...], "backgrounds": [...]}`: scans the uploads (against
/// the photos of the empty table, when given) with the server's profile
/// and, when it succeeds, makes the scanned table the session's (the old table and its
/// corrections stay on disk). Answers what `/api/session` answers; 429 while another
/// upload or scan runs. The scan runs beside the server, which goes on answering; it
/// takes as long as the scan takes (no request budget), and a scan that fails leaves
/// the session as it was.
pub async fn scan(
    State(app): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let request: ScanRequest = match body_of(&headers, body) {
        Ok(r) => r,
        Err(r) => return r.into_response(),
    };
    let Some(scanner) = app.scanner.clone() else { return error(StatusCode::BAD_REQUEST, NO_PROFILE) };
    if request.uploads.is_empty() {
        return error(StatusCode::BAD_REQUEST, "no photo to scan: upload one first");
    }
    if request.uploads.len() > MAX_SCAN_PHOTOS {
        return error(
            StatusCode::BAD_REQUEST,
            format!("{} photos: one scan takes at most {MAX_SCAN_PHOTOS}", request.uploads.len()),
        );
    }
    if !(request.backgrounds.is_empty() || request.backgrounds.len() == request.uploads.len()) {
        return error(
            StatusCode::BAD_REQUEST,
            format!(
                "{} photos of the empty table for {} photo(s): give one per photo, in the order of the photos, or none",
                request.backgrounds.len(),
                request.uploads.len()
            ),
        );
    }
    let found = |field: &str, names: &[String]| -> Result<Vec<PathBuf>, String> {
        let uploads = relock(&app.uploads);
        names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                check_name(&format!("{field}[{i}]"), n)?;
                uploads.find(n).ok_or_else(|| format!("no upload named {n:?} (upload the photo first)"))
            })
            .collect()
    };
    let (paths, backgrounds) =
        match (found("uploads", &request.uploads), found("backgrounds", &request.backgrounds)) {
            (Ok(p), Ok(b)) => (p, b),
            (Err(e), _) | (_, Err(e)) => return error(StatusCode::BAD_REQUEST, e),
        };
    let busy = match Busy::take(&app, "starting".to_string()) {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    // Whatever happens to this request, the scan finishes and the slot is released.
    let work = tokio::task::spawn_blocking(move || {
        let scanned = scanner.scan(&paths, &backgrounds, &|s| busy.stage(s))?;
        busy.stage("finding what the rules say".to_string());
        let app = Arc::clone(&busy.0);
        let started = Session::from_scan(scanned)?;
        if let Some(first) = paths.first() {
            let beside = [super::photo::table_path(first), super::photo::scan_report_path(first)];
            relock(&app.uploads).wrote_beside(first, &beside);
        }
        Ok::<_, crate::CliError>((started, busy))
    });
    let (started, busy) = match work.await {
        Ok(Ok(done)) => done,
        Ok(Err(e @ crate::CliError::Write { .. })) => return error(StatusCode::INTERNAL_SERVER_ERROR, e),
        Ok(Err(e)) => return error(StatusCode::BAD_REQUEST, e),
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, format!("the scan failed: {e}")),
    };
    // The scanned session replaces the one shown, once no change is being computed.
    let mut session = Arc::clone(&app.session).lock_owned().await;
    let (new_session, snapshot) = started;
    *session = new_session;
    app.show(snapshot);
    drop(session);
    drop(busy);
    json_body(session_json(&app, &app.snapshot())).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_decoded() {
        let uri: Uri = "/api/uploads?x=1&name=mon%20%C3%A9t%C3%A9.jpg".parse().unwrap();
        assert_eq!(query_value(&uri, "name").as_deref(), Some("mon été.jpg"));
        let uri: Uri = "/api/uploads?name=a%2".parse().unwrap();
        assert_eq!(query_value(&uri, "name").as_deref(), Some("a%2"));
        assert_eq!(query_value(&"/api/uploads".parse().unwrap(), "name"), None);
    }
}
