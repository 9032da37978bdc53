//! `vedette serve` (issue 22, first slice): the real binary on a copy of a sample,
//! spoken to over plain HTTP/1.1 on 127.0.0.1.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_vedette");

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name)
}

/// A running server, stopped (by its own pid) when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(table: &Path) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--table"])
            .arg(table)
            .args(["--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_else(|| {
            let mut err = String::new();
            child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            panic!("no address printed: {line:?} {err}")
        });
        let address = url.trim_start_matches("http://").trim_end_matches('/').to_string();
        assert!(address.starts_with("127.0.0.1:"), "{address}");
        Server { child, address }
    }

    /// Sends one request; (status, body). Write and read errors after the server has
    /// answered early (a refused oversized body) are tolerated.
    fn request(&self, method: &str, path: &str, content_type: Option<&str>, body: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(&self.address).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n", self.address);
        if let Some(t) = content_type {
            head.push_str(&format!("Content-Type: {t}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        let _ = s.write_all(head.as_bytes()).and_then(|()| s.write_all(body));
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        let text = String::from_utf8_lossy(&raw).into_owned();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status for {method} {path}: {text:?}"));
        let body = text.split_once("\r\n\r\n").map_or(String::new(), |(_, b)| b.to_string());
        (status, body)
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, None, b"")
    }

    fn get_json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) =
            self.request("POST", path, Some("application/json"), body.to_string().as_bytes());
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}")))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A copy of brigade-attack.json in a fresh directory.
fn brigade_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("brigade-attack.json");
    std::fs::copy(sample("brigade-attack.json"), &table).unwrap();
    (dir, table)
}

/// What a verb prints with `--json`, parsed.
fn verb_json(args: &[&str], table: &Path) -> Value {
    let out = Command::new(BIN).arg(args[0]).arg(table).args(&args[1..]).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn unlimber(report: &Value, battery: &str) -> Value {
    report["artillery"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["battery"] == battery)
        .unwrap_or_else(|| panic!("no battery {battery}"))["unlimber"]
        .clone()
}

#[test]
fn page_and_api_answer_as_the_verbs_do() {
    let (_dir, table) = brigade_copy();
    let server = Server::start(&table);
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("/api/plan.svg") && page.contains("<script>"), "the page is served");
    // Every asset is in the page itself: nothing is fetched from another host.
    for scheme in ["http://", "https://", "src=\"//", "href=\"//"] {
        assert!(!page.contains(scheme), "the page refers to {scheme}");
    }
    let (status, plan) = server.get("/api/plan.svg");
    assert_eq!(status, 200);
    assert!(plan.contains("<g id=\"bases\" class=\"layer\">") && plan.contains("id=\"base-au-art-1.0\""));
    let outside: Vec<&str> = plan
        .match_indices("http")
        .map(|(i, _)| &plan[i..])
        .filter(|r| !r.starts_with("http://www.w3.org/"))
        .collect();
    assert!(outside.is_empty(), "the plan refers to other hosts: {:?}", outside.first().map(|s| &s[..40]));

    assert_eq!(server.get_json("/api/report"), verb_json(&["report"], &table));
    let table_json: Value = serde_json::from_str(&std::fs::read_to_string(&table).unwrap()).unwrap();
    assert_eq!(
        server.get_json("/api/table")["units"].as_array().unwrap().len(),
        table_json["units"].as_array().unwrap().len()
    );
    let bases = server.get_json("/api/bases");
    let battery = bases.as_array().unwrap().iter().find(|b| b["base"] == "au-art-1#0").unwrap();
    assert_eq!(
        (battery["svg_id"].as_str(), battery["x"].as_f64(), battery["y"].as_f64()),
        (Some("base-au-art-1.0"), Some(1000.0), Some(630.0))
    );

    for (a, b) in [("au-art-1", "fr-1-3"), ("fr-art-1", "au-4"), ("fr-1-2#3", "au-2")] {
        let (status, m) = server.post("/api/measure", &json!({"a": a, "b": b}));
        assert_eq!(status, 200, "{m}");
        assert_eq!(m, verb_json(&["measure", a, b], &table), "measure {a} {b}");
        let (status, los) = server.post("/api/los", &json!({"a": a, "b": b}));
        assert_eq!(status, 200, "{los}");
        assert_eq!(los, verb_json(&["los", a, b], &table), "los {a} {b}");
    }
    // Only to the address it printed (and localhost): no other name re-pointed at it.
    let mut s = TcpStream::connect(&server.address).unwrap();
    let port = server.address.rsplit(':').next().unwrap();
    write!(s, "GET /api/table HTTP/1.1\r\nHost: elsewhere.invalid:{port}\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    assert!(raw.starts_with("HTTP/1.1 403"), "{raw}");
    let mut s = TcpStream::connect(&server.address).unwrap();
    write!(s, "GET /api/bases HTTP/1.1\r\nHost: localhost:{port}\r\nConnection: close\r\n\r\n").unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    assert!(raw.starts_with("HTTP/1.1 200"), "{raw}");
    let (status, e) = server.post("/api/measure", &json!({"a": "au-art-1", "b": "nobody"}));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("nobody"), "{e}");
}

#[test]
fn a_correction_changes_the_verdict_survives_a_restart_and_is_undone() {
    let (_dir, table) = brigade_copy();
    let corrections = table.with_file_name("brigade-attack.corrections.json");
    let server = Server::start(&table);
    // By hand: au-art-1 (25 x 40 mm, heading 270) stands at (1000, 630), its front edge
    // at y = 610; fr-1-3#2 (heading 90, depth 20) at (980, 549.5) has its front edge at
    // y = 559.5: 50.5 mm apart, inside the 3" (76.2 mm) a Prussian-system battery may
    // not unlimber within (000 §3.6). Moved back to y = 660 the battery's front is at
    // 640: 80.5 mm, 4.3 mm beyond.
    let before = unlimber(&server.get_json("/api/report"), "au-art-1");
    assert_eq!(before["too_close"], true, "{before}");
    assert_eq!(before["nearest_enemy"], "fr-1-3#2");

    let (status, answer) =
        server.post("/api/corrections", &json!({"op": "move", "base": "au-art-1#0", "x": 1000, "y": 660}));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["corrections"].as_array().unwrap().len(), 1);
    let after = server.get_json("/api/report");
    let moved = unlimber(&after, "au-art-1");
    assert_eq!(moved["too_close"], false, "{moved}");
    assert_eq!(moved["call"]["margin_mm"], 4.3, "{moved}");
    let (_, m) = server.post("/api/measure", &json!({"a": "au-art-1", "b": "fr-1-3"}));
    assert_eq!(m["mm"], 80.5, "{m}");

    // The same as the verb on the table corrected by hand.
    let mut by_hand: Value = serde_json::from_str(&std::fs::read_to_string(&table).unwrap()).unwrap();
    for u in by_hand["units"].as_array_mut().unwrap() {
        if u["id"] == "au-art-1" {
            u["bases"][0]["y"] = json!(660);
        }
    }
    let hand_path = table.with_file_name("by-hand.json");
    std::fs::write(&hand_path, by_hand.to_string()).unwrap();
    assert_eq!(after, verb_json(&["report"], &hand_path));

    // A correction the table's validation refuses changes nothing.
    let (status, e) = server.post("/api/corrections", &json!({"op": "delete", "base": "au-art-1#0"}));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("at least one base"), "{e}");
    let (status, e) =
        server.post("/api/corrections", &json!({"op": "rotate", "base": "au-art-1", "heading": 0}));
    assert_eq!(status, 400, "a unit is not a base: {e}");
    assert_eq!(server.get_json("/api/corrections")["corrections"].as_array().unwrap().len(), 1);

    // Restarted, the server applies the corrections file again.
    drop(server);
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&corrections).unwrap()).unwrap();
    assert_eq!(written["schema"], "vedette/corrections/1");
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/corrections.schema.json"))
            .unwrap(),
    )
    .unwrap();
    assert!(jsonschema::validator_for(&schema).unwrap().is_valid(&written), "the file matches its schema");
    assert_eq!(
        written["corrections"][0],
        json!({"op": "move", "base": "au-art-1#0", "x": 1000.0, "y": 660.0})
    );
    let server = Server::start(&table);
    assert_eq!(server.get_json("/api/report"), after, "the correction survives a restart");

    let (status, _) = server.post("/api/undo", &json!({}));
    assert_eq!(status, 200);
    assert_eq!(unlimber(&server.get_json("/api/report"), "au-art-1"), before);
    assert_eq!(server.get_json("/api/report"), verb_json(&["report"], &table));
    let (status, e) = server.post("/api/undo", &json!({}));
    assert_eq!(status, 409, "nothing left to undo: {e}");
    drop(server);
    let server = Server::start(&table);
    assert_eq!(unlimber(&server.get_json("/api/report"), "au-art-1"), before, "the undo survives a restart");
}

#[test]
fn garbage_gets_4xx_and_the_server_goes_on() {
    let (_dir, table) = brigade_copy();
    let server = Server::start(&table);
    let report = server.get_json("/api/report");
    // A fixed-seed generator of garbage (xorshift).
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let oversized = vec![b'['; (1 << 20) + 1];
    let posts = ["/api/measure", "/api/los", "/api/corrections"];
    let shapes = [
        r#"{"a": 1, "b": 2}"#,
        r#"{"a": "au-art-1"}"#,
        r#"{"op": "move", "base": "au-art-1#0", "x": "far", "y": 1}"#,
        r#"{"op": "move", "base": "au-art-1#99", "x": 1, "y": 1}"#,
        r#"{"op": "move", "base": "au-art-1#0", "x": 1e308, "y": 1e308}"#,
        r#"{"op": "launch", "base": "au-art-1#0"}"#,
        r#"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["#,
        "null",
        "",
    ];
    for i in 0..1000 {
        let r = next();
        let (status, body) = match i % 10 {
            0 => server.request("POST", posts[i % 3], Some("application/json"), &oversized),
            1 => server.get(&format!("/no/such/{r:x}")),
            2 => server.request("DELETE", "/api/report", None, b""),
            3 => server.request("POST", posts[i % 3], Some("text/plain"), br#"{"a":"au-1","b":"fr-1"}"#),
            4 | 5 => {
                let noise: Vec<u8> = (0..(r % 300)).map(|k| (r >> (k % 56)) as u8).collect();
                server.request("POST", posts[i % 3], Some("application/json"), &noise)
            }
            _ => server.request(
                "POST",
                posts[i % 3],
                Some("application/json"),
                shapes[(r % 9) as usize].as_bytes(),
            ),
        };
        assert!((400..500).contains(&status), "request {i}: {status} {body}");
        if !body.is_empty() {
            let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("request {i}: {e}: {body}"));
            assert!(v["error"].as_str().is_some_and(|m| !m.is_empty()), "request {i}: {body}");
        }
    }
    // Bytes that are not HTTP at all.
    for _ in 0..20 {
        let mut s = TcpStream::connect(&server.address).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let _ = s.write_all(b"\x00\xff\x13 garbage \r\n\r\n");
        let _ = s.read_to_end(&mut Vec::new());
    }
    assert_eq!(server.get_json("/api/report"), report, "still answering, nothing changed");
    assert_eq!(server.get_json("/api/corrections")["corrections"], json!([]));
}

#[test]
fn a_port_in_use_is_a_readable_error() {
    let (_dir, table) = brigade_copy();
    let server = Server::start(&table);
    let port = server.address.rsplit(':').next().unwrap();
    let out =
        Command::new(BIN).args(["serve", "--table"]).arg(&table).args(["--port", port]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot listen on 127.0.0.1") && err.contains("--port 0"), "{err}");
}

#[test]
fn a_corrections_file_that_no_longer_applies_is_named() {
    let (_dir, table) = brigade_copy();
    std::fs::write(
        table.with_file_name("brigade-attack.corrections.json"),
        r#"{"schema":"vedette/corrections/1","corrections":[{"op":"delete","base":"nobody#0"}]}"#,
    )
    .unwrap();
    let out =
        Command::new(BIN).args(["serve", "--table"]).arg(&table).args(["--port", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("brigade-attack.corrections.json") && err.contains("correction 1"), "{err}");
}

/// Issue 22 item 3: flip, add, reassign and side through the server, each seen in the
/// table it serves, kept in the corrections file (valid against its schema) and undone
/// one at a time.
#[test]
fn flip_add_reassign_and_side_are_corrections_too() {
    let (_dir, table) = brigade_copy();
    let server = Server::start(&table);
    let unit = |t: &Value, id: &str| t["units"].as_array().unwrap().iter().find(|u| u["id"] == id).cloned();
    let steps = [
        json!({"op": "flip", "base": "au-art-1#0"}),
        json!({"op": "add", "unit": "au-5", "x": 1120, "y": 640, "heading": 180}),
        json!({"op": "reassign", "base": "fr-1-3#8", "to": "fr-1-2"}),
        json!({"op": "side", "unit": "fr-cav-1", "side": "austria"}),
    ];
    for s in &steps {
        let (status, answer) = server.post("/api/corrections", s);
        assert_eq!(status, 200, "{s}: {answer}");
    }
    let t = server.get_json("/api/table");
    assert_eq!(unit(&t, "au-art-1").unwrap()["bases"][0]["heading"], 90.0);
    let au5 = unit(&t, "au-5").unwrap();
    assert_eq!(au5["bases"].as_array().unwrap().len(), 4);
    assert_eq!(
        (&au5["bases"][3]["x"], &au5["bases"][3]["width"]),
        (&json!(1120.0), &au5["bases"][0]["width"])
    );
    assert_eq!(unit(&t, "fr-1-3").unwrap()["bases"].as_array().unwrap().len(), 8);
    assert_eq!(unit(&t, "fr-1-2").unwrap()["bases"].as_array().unwrap().len(), 5);
    assert_eq!(unit(&t, "fr-cav-1").unwrap()["side"], "austria");
    // The file holds the four, valid against the published schema.
    let written: Value = serde_json::from_str(
        &std::fs::read_to_string(table.with_file_name("brigade-attack.corrections.json")).unwrap(),
    )
    .unwrap();
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/corrections.schema.json"))
            .unwrap(),
    )
    .unwrap();
    assert!(jsonschema::validator_for(&schema).unwrap().is_valid(&written), "{written}");
    assert_eq!(written["corrections"].as_array().unwrap().len(), 4);
    // A base of a unit given to a unit it is already in is refused, naming it.
    let (status, e) =
        server.post("/api/corrections", &json!({"op": "reassign", "base": "au-5#0", "to": "au-5"}));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("already in au-5"), "{e}");
    // Undone one by one, back to the table as it was.
    for _ in &steps {
        assert_eq!(server.post("/api/undo", &json!({})).0, 200);
    }
    let original: Value = serde_json::from_str(&std::fs::read_to_string(&table).unwrap()).unwrap();
    assert_eq!(
        unit(&server.get_json("/api/table"), "fr-cav-1").unwrap()["side"],
        original["units"][8]["side"]
    );
    assert_eq!(server.get_json("/api/corrections")["corrections"], json!([]));
}
