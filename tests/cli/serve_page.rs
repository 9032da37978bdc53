//! The phone-first page of `vedette serve` (issue 38) over HTTP: its files with their
//! content types and Content Security Policy, the findings in sentences and the verdict
//! card, each against what the library and the verbs say. The page in a browser is
//! tests/browser/.

use serde_json::{Value, json};

use crate::server;
use server::{Server, brigade_copy};

/// The policy every file of the page is sent with (serve/assets.rs).
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

#[test]
fn the_page_and_its_modules_are_served_with_their_types_and_policy() {
    let (_dir, table) = brigade_copy();
    let server = Server::start(&table);
    let page = server.send("GET", "/", &[], b"");
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(page.header("content-security-policy"), Some(POLICY));
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    // Every module the shell names, and every module they import, is served as script.
    let mut wanted: Vec<String> = page
        .text()
        .split("/static/")
        .skip(1)
        .filter_map(|p| p.split_once('"').map(|(n, _)| n.to_string()))
        .collect();
    let mut seen = Vec::new();
    while let Some(name) = wanted.pop() {
        if seen.contains(&name) {
            continue;
        }
        let a = server.send("GET", &format!("/static/{name}"), &[], b"");
        assert_eq!(a.status, 200, "{name}");
        assert_eq!(a.header("content-security-policy"), Some(POLICY), "{name}");
        let kind = a.header("content-type").unwrap_or_default().to_string();
        if name.ends_with(".js") {
            assert_eq!(kind, "text/javascript; charset=utf-8", "{name}");
            let text = a.text();
            for p in text.split("from \"./").skip(1).chain(text.split("import \"./").skip(1)) {
                if let Some((n, _)) = p.split_once('"') {
                    wanted.push(n.to_string());
                }
            }
        } else {
            assert_eq!(kind, "text/css; charset=utf-8", "{name}");
        }
        seen.push(name);
    }
    assert!(seen.len() >= 13, "{seen:?}");
    let missing = server.send("GET", "/static/nope.js", &[], b"");
    assert_eq!(missing.status, 404);
    assert!(missing.text().contains("nope.js"));
}

#[test]
fn the_findings_come_as_sentences_and_the_card_as_the_pictures_caption() {
    let (_dir, table) = brigade_copy();
    let server = Server::start(&table);
    let findings = server.get_json("/api/findings");
    let all = findings.as_array().unwrap();
    // brigade-attack: 3 batteries, 8 assaults, 4 divisions, 2 pairs, 2 leaders, 1
    // pass-through, 2 skirmishers (as the highlight browser test counts them).
    assert_eq!(all.len(), 22);
    let battery = all.iter().find(|f| f["key"] == "artillery/au-art-1").unwrap();
    // vedette report: au-art-1 ... TOO CLOSE: fr-1-3#2 at 1.99" < 3.0"
    assert!(battery["text"].as_str().unwrap().ends_with("TOO CLOSE to unlimber: fr-1-3#2 at 1.99\""));
    assert_eq!(battery["by"], json!(["au-art-1"]));
    assert_eq!(battery["group"], "Artillery");

    let (status, card) = server.post("/api/card", &json!({"a": "fr-art-1", "b": "au-3"}));
    assert_eq!(status, 200, "{card}");
    let loaded = vedette_geometry::Table::load(&table).unwrap();
    let caption = vedette_draw::pair_verdict(&loaded, "fr-art-1", "au-3").unwrap();
    assert_eq!(card["headline"], caption.headline.as_str());
    assert_eq!(card["lines"].as_array().unwrap().len(), caption.lines.len());
    assert!(card["measure"]["mm"].as_f64().is_some() && card["los"]["visible"] == Value::Bool(true));

    let picture = server.send(
        "POST",
        "/api/card.svg",
        &[("Content-Type", "application/json")],
        br#"{"a":"fr-art-1","b":"au-3"}"#,
    );
    assert_eq!(picture.status, 200);
    assert_eq!(picture.header("content-type"), Some("image/svg+xml"));
    assert!(picture.text().contains("id=\"caption\""), "the share picture has the caption band");

    let (status, refused) = server.post("/api/card", &json!({"a": "au-3", "b": "nobody"}));
    assert_eq!(status, 400);
    assert!(refused["error"].as_str().unwrap().contains("nobody"), "{refused}");
}
