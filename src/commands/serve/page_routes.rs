//! The routes the phone-first page adds (issue 38): the findings in sentences, a pair's
//! verdict card and its picture. Rule work runs on a blocking thread, on the table as
//! it was when the request came.

use super::card::{card, card_svg};
use super::routes::{Shared, body_of, error, json_body, lock};
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use std::sync::Arc;
use vedette_geometry::Table;

/// The routes: `GET /api/findings`, `POST /api/card`, `POST /api/card.svg`.
pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/findings", get(findings))
        .route("/api/card", post(card_route))
        .route("/api/card.svg", post(card_svg_route))
}

/// Every finding of the current table in a sentence (`report::sentences`).
async fn findings(State(s): State<Shared>) -> Response {
    json_body(lock(&s).current.findings_json.clone()).into_response()
}

/// The body of `/api/card` and `/api/card.svg`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pair {
    /// A unit id or `unit#index`.
    a: String,
    /// A unit id or `unit#index`.
    b: String,
}

/// `work` on the current table and the pair of the body, on a blocking thread.
async fn on_pair<T: Send + 'static>(
    s: &Shared,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
    work: fn(&Table, &str, &str) -> Result<T, crate::CliError>,
) -> Result<T, Response> {
    let pair: Pair = body_of(headers, body).map_err(IntoResponse::into_response)?;
    let table = Arc::clone(&lock(s).current.table);
    match tokio::task::spawn_blocking(move || work(&table, &pair.a, &pair.b)).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(error(StatusCode::BAD_REQUEST, e)),
        Err(e) => Err(error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
    }
}

async fn card_route(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    match on_pair(&s, &headers, body, card).await {
        Ok(c) => match serde_json::to_string(&c) {
            Ok(text) => json_body(text).into_response(),
            Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
        },
        Err(r) => r,
    }
}

async fn card_svg_route(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    match on_pair(&s, &headers, body, card_svg).await {
        Ok(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        Err(r) => r,
    }
}
