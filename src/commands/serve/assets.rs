//! The page's files, embedded in the binary (`include_str!`) and served with their
//! content types and a strict Content Security Policy: scripts, styles and images only
//! from this server, no inline script, no other host (docs/serve.md, "The page").
//! The page is a small HTML shell (`web/index.html`), a stylesheet and plain ES modules,
//! one job each (`web/*.js`, listed in [`ASSETS`]).

use super::routes::Shared;
use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// What the page may load and run: its own files only. Styles set from script (the
/// CSSOM, adopted style sheets) are not inline markup and stay allowed; images come
/// from this server, or from the page itself (`blob:`, `data:`: the share picture is
/// rasterised in a canvas).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The HTML shell.
const INDEX: &str = include_str!("web/index.html");

/// Every file under `/static/`: its name, content type and text.
pub const ASSETS: &[(&str, &str, &str)] = &[
    ("style.css", "text/css; charset=utf-8", include_str!("web/style.css")),
    ("main.js", JS, include_str!("web/main.js")),
    ("state.js", JS, include_str!("web/state.js")),
    ("api.js", JS, include_str!("web/api.js")),
    ("view.js", JS, include_str!("web/view.js")),
    ("gestures.js", JS, include_str!("web/gestures.js")),
    ("sheet.js", JS, include_str!("web/sheet.js")),
    ("selection.js", JS, include_str!("web/selection.js")),
    ("card.js", JS, include_str!("web/card.js")),
    ("findings.js", JS, include_str!("web/findings.js")),
    ("corrections.js", JS, include_str!("web/corrections.js")),
    ("uploads.js", JS, include_str!("web/uploads.js")),
    ("layers.js", JS, include_str!("web/layers.js")),
    ("pairing.js", JS, include_str!("web/pairing.js")),
    ("facing.js", JS, include_str!("web/facing.js")),
    ("twins.js", JS, include_str!("web/twins.js")),
    ("held.js", JS, include_str!("web/held.js")),
    ("absent.js", JS, include_str!("web/absent.js")),
];

const JS: &str = "text/javascript; charset=utf-8";

/// The routes of the page's files: `/` and `/static/NAME`.
pub fn routes() -> Router<Shared> {
    Router::new().route("/", get(index)).route("/static/{name}", get(asset))
}

/// The environment variable naming a folder to serve the page's files from instead of
/// the embedded ones (for working on the page without rebuilding: the folder is
/// `src/commands/serve/web`). Read at each request; unset, the embedded files.
pub const WEB_DIR_VAR: &str = "VEDETTE_WEB_DIR";

/// The text of page file `name` (`index.html` or one of [`ASSETS`]): from
/// [`WEB_DIR_VAR`]'s folder when set, else `embedded`.
fn text_of(name: &str, embedded: &'static str) -> std::borrow::Cow<'static, str> {
    match std::env::var_os(WEB_DIR_VAR) {
        Some(dir) => std::fs::read_to_string(std::path::Path::new(&dir).join(name))
            .map_or(std::borrow::Cow::Borrowed(embedded), std::borrow::Cow::Owned),
        None => std::borrow::Cow::Borrowed(embedded),
    }
}

/// `body` as `content_type`, under the page's policy; never cached past a restart
/// (a new binary may serve new files under the same names).
fn file(content_type: &'static str, body: std::borrow::Cow<'static, str>) -> Response {
    let mut r = ([(header::CONTENT_TYPE, content_type)], body).into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    r
}

async fn index() -> Response {
    file("text/html; charset=utf-8", text_of("index.html", INDEX))
}

async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((n, kind, body)) => file(kind, text_of(n, body)),
        None => {
            super::routes::error(StatusCode::NOT_FOUND, format!("no page file {name} (see docs/serve.md)"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_the_page_imports_is_served() {
        // Each `import ... from "./x.js"` of every module, and each file the shell names,
        // is one of ASSETS: a missing one would fail only in the browser.
        let mut wanted = Vec::new();
        for (_, _, body) in ASSETS {
            for part in body.split("from \"./").skip(1).chain(body.split("import \"./").skip(1)) {
                if let Some((name, _)) = part.split_once('"') {
                    wanted.push(name.to_string());
                }
            }
        }
        for part in INDEX.split("/static/").skip(1) {
            if let Some((name, _)) = part.split_once('"') {
                wanted.push(name.to_string());
            }
        }
        assert!(wanted.iter().any(|w| w == "main.js"), "{wanted:?}");
        for w in &wanted {
            assert!(ASSETS.iter().any(|(n, _, _)| n == w), "{w} is imported but not served");
        }
    }

    #[test]
    fn the_shell_runs_no_inline_script_or_style() {
        assert!(!INDEX.contains("<script>") && !INDEX.contains("<style") && !INDEX.contains("style=\""));
        let handler = INDEX.split_whitespace().find(|w| w.starts_with("on") && w.contains('='));
        assert_eq!(handler, None, "no inline event handler (onclick=...)");
        assert!(ASSETS.iter().all(|(_, _, body)| !body.contains("innerHTML")), "no HTML built from strings");
    }
}
