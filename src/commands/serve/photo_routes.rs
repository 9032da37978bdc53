//! The routes of the photo view and of uploads (docs/serve.md): the photo, the table
//! drawn over it in its pixels, a pixel's table point and base; photos uploaded,
//! checked, stored and scanned with the server's profile.

use super::photo::{UPLOAD_LIMIT, upload_name};
use super::routes::{Refusal, Shared, body_of, error, json_body, lock, relock};
use super::session::Session;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::path::PathBuf;
use std::time::Instant;
use vedette_geometry::{BaseRef, Vec2};

/// What an upload without a profile is told.
pub const NO_PROFILE: &str = "this server cannot scan photos: it was started without a calibration profile. Start it with --profile (and --roster, --camera), e.g. vedette serve --table T.json --profile calibration/default.toml --roster army.toml";

/// The scan under way.
#[derive(Debug, Default)]
pub struct ScanStatus {
    /// What it is doing (empty when idle).
    stage: String,
    /// When it started; `None` when idle.
    since: Option<Instant>,
}

/// The session as the page needs it: mode, files, photo size and the scan summary.
fn session_json(app: &Shared, s: &Session) -> String {
    let photo = s.photo.as_ref();
    serde_json::json!({
        "mode": if photo.is_some() { "photo" } else { "table" },
        "table": s.table_file().display().to_string(),
        "corrections": s.corrections_file().display().to_string(),
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
    let text = session_json(&app, &lock(&app));
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
    let view = lock(&app).photo.as_ref().map(|p| p.view.clone());
    match view {
        Some(v) => ([(header::CONTENT_TYPE, "image/jpeg")], v.jpeg().to_vec()).into_response(),
        None => no_photo(),
    }
}

/// `GET /api/photo.svg`: the plan's drawing in the photo's pixels.
pub async fn photo_svg(State(app): State<Shared>) -> Response {
    if lock(&app).photo.is_none() {
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
/// table, and on the plane of base tops) and the base whose top it falls on.
pub async fn locate(
    State(app): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let p: Pixel = match body_of(&headers, body) {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    let session = lock(&app);
    let Some(shown) = &session.photo else { return no_photo() };
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
    let table = &session.current.table;
    let mut base = None;
    'units: for (ui, u) in table.units.iter().enumerate() {
        for (bi, b) in u.bases.iter().enumerate() {
            if b.contains(on_top) {
                base = Some((table.base_label(BaseRef::new(ui, bi)), u.id.clone()));
                break 'units;
            }
        }
    }
    let text = serde_json::json!({
        "table_mm": [on_table.x, on_table.y],
        "base_top_mm": [on_top.x, on_top.y],
        "base": base.as_ref().map(|b| &b.0),
        "unit": base.as_ref().map(|b| &b.1),
    });
    json_body(text.to_string()).into_response()
}

/// The value of `key` in a URI's query, percent-decoded.
fn query_value(uri: &Uri, key: &str) -> Option<String> {
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

/// `POST /api/uploads?name=FILE` with the photo's bytes as the body
/// (`Content-Type: image/...` or `application/octet-stream`): checked and stored in the
/// uploads folder; answers `{"upload": stored name, "file", "bytes"}`.
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
        Err(r) => return Refusal(r.status(), r.body_text()).into_response(),
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
    let ext = match scanner.check_upload(&name, &body) {
        Ok(ext) => ext,
        Err(reason) => return error(StatusCode::BAD_REQUEST, reason),
    };
    let dir = app.uploads_dir.clone();
    let stored = {
        let mut uploads = relock(&app.uploads);
        if let Err(e) = std::fs::create_dir_all(&dir) {
            return error(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot make {}: {e}", dir.display()));
        }
        let file = dir.join(upload_name(&dir, &name, ext));
        if let Err(e) = crate::output::write_atomically(&file, &body) {
            return error(StatusCode::INTERNAL_SERVER_ERROR, e);
        }
        uploads.push(file.clone());
        file
    };
    let text = serde_json::json!({
        "upload": stored.file_name().map(|n| n.to_string_lossy().into_owned()),
        "file": stored.display().to_string(),
        "bytes": body.len(),
    });
    json_body(text.to_string()).into_response()
}

/// `GET /api/scan`: the scan under way, if any.
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
}

/// Marks the scan finished however it ends (a panic in the scanner included).
struct Idle(Shared);

impl Drop for Idle {
    fn drop(&mut self) {
        *relock(&self.0.status) = ScanStatus::default();
    }
}

/// `POST /api/scan {"uploads": [...]}`: scans the uploads with the server's profile
/// and, when it succeeds, makes the scanned table the session's (the old table and its
/// corrections stay on disk). Answers what `/api/session` answers; 409 while another
/// scan runs. The scan runs beside the server, which goes on answering.
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
    let paths: Result<Vec<PathBuf>, String> = {
        let uploads = relock(&app.uploads);
        request
            .uploads
            .iter()
            .map(|n| {
                uploads
                    .iter()
                    .find(|p| p.file_name().is_some_and(|f| f.to_string_lossy() == n.as_str()))
                    .cloned()
                    .ok_or_else(|| format!("no upload named {n:?} (upload the photo first)"))
            })
            .collect()
    };
    let paths = match paths {
        Ok(p) => p,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    {
        let mut status = relock(&app.status);
        if status.since.is_some() {
            return error(StatusCode::CONFLICT, format!("a scan is already running ({})", status.stage));
        }
        *status = ScanStatus { stage: "starting".to_string(), since: Some(Instant::now()) };
    }
    let shared = app.clone();
    // Whatever happens to this request, the scan finishes and the status is reset.
    let work = tokio::task::spawn_blocking(move || {
        let idle = Idle(shared);
        let stage = |s: String| relock(&idle.0.status).stage = s;
        let scanned = scanner.scan(&paths, &stage)?;
        stage("finding what the rules say".to_string());
        let session = Session::from_scan(scanned)?;
        let mut current = lock(&idle.0);
        *current = session;
        Ok::<String, crate::CliError>(session_json(&idle.0, &current))
    });
    match work.await {
        Ok(Ok(text)) => json_body(text).into_response(),
        Ok(Err(e @ crate::CliError::Write { .. })) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
        Ok(Err(e)) => error(StatusCode::BAD_REQUEST, e),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, format!("the scan failed: {e}")),
    }
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
