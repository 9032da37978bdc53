//! The routes the phone-first page adds (issue 38): the findings in sentences, a pair's
//! verdict card and its picture. Rule work runs on a worker, within the request's budget,
//! on the table as it was when the request came ([`super::workers`]).

use super::card::{card, card_svg};
use super::corrections::check_name;
use super::routes::{Pair, Shared, body_of, error, json_body, pair_answer};
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::sync::Arc;
use std::time::Instant;

/// The routes: `GET /api/findings`, `POST /api/card`, `POST /api/card.svg`.
pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/findings", get(findings))
        .route("/api/card", post(card_route))
        .route("/api/card.svg", post(card_svg_route))
}

/// Every finding of the current table in a sentence (`report::sentences`).
async fn findings(State(s): State<Shared>) -> Response {
    json_body(s.snapshot().current.findings_json.clone()).into_response()
}

/// The verdict card of the pair of the body, as JSON.
async fn card_route(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    pair_answer(&s, &headers, body, card).await
}

/// The pair's picture, `vedette explain --svg`'s.
async fn card_svg_route(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let start = Instant::now();
    let pair: Pair = match body_of(&headers, body) {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    if let Err(e) = check_name("a", &pair.a).and_then(|()| check_name("b", &pair.b)) {
        return error(StatusCode::BAD_REQUEST, e);
    }
    let table = Arc::clone(&s.snapshot().current.table);
    let drawn = s.workers.run(s.workers.deadline(start), move |_| card_svg(&table, &pair.a, &pair.b)).await;
    match drawn {
        Ok(Ok(svg)) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        Ok(Err(e)) => error(StatusCode::BAD_REQUEST, e),
        Err(refused) => refused.into_response(),
    }
}
