//! `vedette serve` (issue 22): the real binary on a copy of a sample, spoken to over
//! plain HTTP/1.1 on 127.0.0.1; photo mode and uploads on the bundled sample photo.

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::server;
use server::{BIN, Server, brigade_copy, os, root, sample, scan_setup, verb_json};

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
    assert!(
        page.contains("/api/plan.svg") && page.contains(r#"src="/static/main.js""#),
        "the page is served"
    );
    // The upload field (the phone's camera) and the scan status browser tests drive.
    assert!(
        page.contains(r#"<input type="file" id="upload" accept="image/*" capture="environment" multiple"#)
            && page.contains(r#"id="scan-status""#)
    );
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
    // The plan, drawn after the correction was answered, is the corrected table's.
    let plan_path = table.with_file_name("by-hand.svg");
    let out = Command::new(BIN)
        .arg("report")
        .arg(&hand_path)
        .arg("--plan")
        .arg(&plan_path)
        .args(["--layers", "all"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (status, plan) = server.get("/api/plan.svg");
    assert_eq!(status, 200);
    // The page's plan marks what the decisive plan leaves out (the page hides them
    // until asked); otherwise it is `report --layers all`'s.
    assert!(plan.contains(" detail\""), "the page's plan marks its details");
    let unmarked = plan.replace(" detail\"", "\"").replace("class=\"detail\"", "class=\"\"");
    assert_eq!(unmarked, std::fs::read_to_string(&plan_path).unwrap(), "the plan of the corrected table");

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
    let posts =
        ["/api/measure", "/api/los", "/api/corrections", "/api/photo/locate", "/api/scan", "/api/uploads"];
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
            0 => server.request("POST", posts[i % posts.len()], Some("application/json"), &oversized),
            1 => server.get(&format!("/no/such/{r:x}")),
            2 => server.request("DELETE", "/api/report", None, b""),
            3 => server.request(
                "POST",
                posts[i % posts.len()],
                Some("text/plain"),
                br#"{"a":"au-1","b":"fr-1"}"#,
            ),
            4 | 5 => {
                let noise: Vec<u8> = (0..(r % 300)).map(|k| (r >> (k % 56)) as u8).collect();
                server.request("POST", posts[i % posts.len()], Some("application/json"), &noise)
            }
            _ => server.request(
                "POST",
                posts[i % posts.len()],
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

// --- Photo mode and uploads (issue 22) -------------------------------------------------

/// The points of the polygon with `id` in an SVG.
fn polygon(svg: &str, id: &str) -> Vec<(f64, f64)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let node = doc.descendants().find(|n| n.attribute("id") == Some(id)).unwrap_or_else(|| panic!("no {id}"));
    // A polygon's points, or a path's (`M x y L x y ... Z`, as drawn through a camera).
    let numbers: Vec<f64> = match (node.attribute("points"), node.attribute("d")) {
        (Some(points), _) => {
            points.split([' ', ',']).filter(|t| !t.is_empty()).map(|t| t.parse().unwrap()).collect()
        }
        (None, Some(d)) => d
            .split(|c: char| c.is_ascii_alphabetic() || c == ' ' || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect(),
        _ => panic!("{id} has no points"),
    };
    numbers.chunks(2).map(|p| (p[0], p[1])).collect()
}

/// Photo mode: the photo is scanned at start, its table kept beside it, the table drawn
/// in the photo's pixels; a click on a base in the photo finds that base; a correction
/// moves it in the photo view too and survives a restart.
#[test]
fn photo_mode_draws_over_the_photo_and_a_click_finds_its_base() {
    let dir = tempfile::tempdir().unwrap();
    let photo = dir.path().join("battle.jpg");
    std::fs::copy(root("samples/photos/battle.jpg"), &photo).unwrap();
    let mut args = vec!["--photo".into(), photo.clone().into_os_string()];
    args.extend(scan_setup());
    let server = Server::start_with(&os(&args));

    let session = server.get_json("/api/session");
    assert_eq!(session["mode"], "photo", "{session}");
    assert_eq!(session["photo_size"], json!([4000, 3000]));
    let table_file = dir.path().join("battle.jpg.table.json");
    assert_eq!(session["table"], table_file.display().to_string());
    assert!(table_file.is_file() && dir.path().join("battle.jpg.scan-report.json").is_file());
    assert_eq!(session["scan"]["bases"], 153, "{session}");
    let served = server.get_json("/api/table");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&table_file).unwrap()).unwrap();
    assert_eq!(served, written, "no correction yet: the table served is the one scanned");

    let (status, jpeg) = server.request_bytes("GET", "/api/photo", None, b"");
    assert_eq!(status, 200);
    assert!(jpeg.starts_with(&[0xFF, 0xD8, 0xFF]), "a JPEG");
    let (status, svg) = server.get("/api/photo.svg");
    assert_eq!(status, 200);
    assert!(svg.contains("viewBox=\"0 0 4000.00 3000.00\""), "in the photo's pixels");
    assert_eq!(server.get("/api/plan.svg").0, 200, "the plan view is still there");

    // The centre of each base's outline in the photo is on that base.
    let bases = server.get_json("/api/bases");
    let bases = bases.as_array().unwrap();
    for b in bases.iter().step_by(7) {
        let points = polygon(&svg, b["svg_id"].as_str().unwrap());
        let n = points.len() as f64;
        let (x, y) = points.iter().fold((0.0, 0.0), |(sx, sy), (x, y)| (sx + x / n, sy + y / n));
        let (status, at) = server.post("/api/photo/locate", &json!({"x": x, "y": y}));
        assert_eq!(status, 200, "{at}");
        assert_eq!(at["base"], b["base"], "pixel ({x:.1}, {y:.1}): {at}");
        let (mx, my) = (at["base_top_mm"][0].as_f64().unwrap(), at["base_top_mm"][1].as_f64().unwrap());
        let off = (mx - b["x"].as_f64().unwrap()).hypot(my - b["y"].as_f64().unwrap());
        assert!(off < 1.0, "{} is {off:.2} mm from the base's centre", b["base"]);
    }
    // Away from every base: the table point, no base.
    let (status, at) = server.post("/api/photo/locate", &json!({"x": 5.0, "y": 5.0}));
    assert_eq!(status, 200, "{at}");
    assert_eq!(at["base"], Value::Null);
    let (status, e) = server.post("/api/photo/locate", &json!({"x": -3.0, "y": 5.0}));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("not a pixel"), "{e}");

    // A correction moves the base in the photo view too, kept beside the photo.
    let first = &bases[0];
    let (id, label) = (first["svg_id"].as_str().unwrap(), first["base"].as_str().unwrap());
    let before = polygon(&svg, id);
    let moved =
        json!({"op": "move", "base": label, "x": first["x"].as_f64().unwrap() + 40.0, "y": first["y"]});
    let (status, answer) = server.post("/api/corrections", &moved);
    assert_eq!(status, 200, "{answer}");
    let corrections = dir.path().join("battle.jpg.table.corrections.json");
    assert_eq!(answer["file"], corrections.display().to_string());
    let after = polygon(&server.get("/api/photo.svg").1, id);
    let shift = after[0].0 - before[0].0;
    assert!(shift.abs() > 20.0, "40 mm is many pixels: {shift}");
    let report = server.get_json("/api/report");
    drop(server);
    let server = Server::start_with(&os(&args));
    assert_eq!(server.get_json("/api/report"), report, "the correction survives a restart");
    assert_eq!(polygon(&server.get("/api/photo.svg").1, id), after);
    let again: Value = serde_json::from_str(&std::fs::read_to_string(&table_file).unwrap()).unwrap();
    assert_eq!(again, written, "the scanned table is kept as scanned, the correction beside it");
}

/// A PNG header claiming `w` x `h` px, complete with its end chunk.
fn png_claiming(w: u32, h: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend_from_slice(&w.to_be_bytes());
    png.extend_from_slice(&h.to_be_bytes());
    png.extend_from_slice(b"\x08\x02\0\0\0\0\0\0\0\0\0\0\0IEND\xaeB`\x82");
    png
}

/// Uploads: a good photo is scanned as `vedette scan` scans it and replaces the table;
/// bad ones are refused with a readable message and the server goes on.
#[test]
fn an_uploaded_photo_is_scanned_as_the_verb_does_and_bad_uploads_are_refused() {
    let (dir, table) = brigade_copy();
    let mut args = vec!["--table".into(), table.clone().into_os_string()];
    args.extend(scan_setup());
    let server = Server::start_with(&os(&args));
    let session = server.get_json("/api/session");
    assert_eq!((&session["mode"], &session["can_scan"]), (&json!("table"), &json!(true)), "{session}");
    let report = server.get_json("/api/report");

    let photo = std::fs::read(root("samples/photos/battle.jpg")).unwrap();
    let mut tiny = Vec::new();
    image::DynamicImage::new_rgb8(64, 48)
        .write_to(&mut std::io::Cursor::new(&mut tiny), image::ImageFormat::Png)
        .unwrap();
    let oversized = vec![0u8; (64 << 20) + 1];
    let refused: [(&str, &str, &[u8], u16, &str); 5] = [
        ("notes.txt", "application/octet-stream", b"just some text, not a photo", 400, "not a JPEG, PNG"),
        ("cut.jpg", "image/jpeg", &photo[..photo.len() / 2], 400, "cut short"),
        ("huge.png", "image/png", &png_claiming(100_000, 100_000), 400, "megapixels"),
        ("big.jpg", "image/jpeg", &oversized, 413, "MiB"),
        ("form.jpg", "text/plain", &photo[..100], 415, "Content-Type"),
    ];
    for (name, kind, bytes, status, says) in refused {
        let (got, body) = server.request("POST", &format!("/api/uploads?name={name}"), Some(kind), bytes);
        assert_eq!(got, status, "{name}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{name}: {e}: {body}"));
        assert!(v["error"].as_str().unwrap().contains(says), "{name}: {v}");
        assert_eq!(server.get_json("/api/report"), report, "{name}: still serving, unchanged");
    }
    // An image that decodes but shows no table: stored, then its scan is refused
    // naming it, and the session is unchanged.
    let (status, up) = server.request("POST", "/api/uploads?name=grey.png", Some("image/png"), &tiny);
    assert_eq!(status, 200, "{up}");
    let up: Value = serde_json::from_str(&up).unwrap();
    let (status, e) = server.post("/api/scan", &json!({"uploads": [up["upload"]]}));
    assert_eq!(status, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("001-grey.png"), "{e}");
    let (status, e) = server.post("/api/scan", &json!({"uploads": ["../brigade-attack.json"]}));
    assert_eq!(status, 400, "only uploads are scanned: {e}");
    assert_eq!(server.get_json("/api/report"), report);
    assert_eq!(server.get_json("/api/session")["mode"], "table");

    // The good photo: the same table as `vedette scan` writes.
    let (status, up) = server.request("POST", "/api/uploads?name=battle.jpg", Some("image/jpeg"), &photo);
    assert_eq!(status, 200, "{up}");
    let up: Value = serde_json::from_str(&up).unwrap();
    assert_eq!(up["upload"], "002-battle.jpg");
    let (status, session) = server.post("/api/scan", &json!({"uploads": [up["upload"]]}));
    assert_eq!(status, 200, "{session}");
    assert_eq!(session["mode"], "photo");
    assert_eq!(server.get_json("/api/scan")["busy"], false);
    let verb = verb_table(dir.path(), &[root("samples/photos/battle.jpg").into_os_string()], &scan_setup());
    let verb_bases: usize =
        verb["units"].as_array().unwrap().iter().map(|u| u["bases"].as_array().unwrap().len()).sum();
    assert_eq!(session["scan"]["bases"], verb_bases, "{session}");
    assert_eq!(session["scan"]["missing_tags"], json!([]));
    assert!(session["close_calls"].as_u64().is_some(), "{session}");
    assert_eq!(server.get_json("/api/table"), verb, "the upload's table is the verb's");
    let uploads = dir.path().join("vedette-uploads");
    assert_eq!(session["table"], uploads.join("002-battle.jpg.table.json").display().to_string());
    assert!(uploads.join("002-battle.jpg.scan-report.json").is_file());
    // The table served before is untouched on disk.
    assert_eq!(std::fs::read(&table).unwrap(), std::fs::read(sample("brigade-attack.json")).unwrap());
    assert_eq!(server.get("/api/photo.svg").0, 200);

    // Issue 41: a photo the scan refuses for a measured reason (here the battle photo at
    // 35%, of another size than the server's camera file, its tags 8 px across) is
    // refused on the page with the scan's reason, and the session keeps its table.
    let small = {
        let img = image::open(root("samples/photos/battle.jpg")).unwrap().thumbnail_exact(1400, 1050);
        let mut bytes = Vec::new();
        img.to_rgb8().write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Jpeg).unwrap();
        bytes
    };
    let (status, up) = server.request("POST", "/api/uploads?name=battle-35.jpg", Some("image/jpeg"), &small);
    assert_eq!(status, 200, "{up}");
    let up: Value = serde_json::from_str(&up).unwrap();
    let (status, e) = server.post("/api/scan", &json!({"uploads": [up["upload"]]}));
    assert_eq!(status, 400, "{e}");
    let said = e["error"].as_str().unwrap();
    assert!(said.contains("003-battle-35.jpg") && said.contains("this photo is 1400x1050 px"), "{e}");
    assert_eq!(server.get_json("/api/table"), verb, "the session keeps its table");
    assert_eq!(server.get_json("/api/session")["mode"], "photo");
}

#[test]
fn uploads_without_a_profile_say_how_to_start() {
    let (_dir, table) = brigade_copy();
    let server = Server::start(&table);
    let (status, body) =
        server.request("POST", "/api/uploads?name=a.jpg", Some("image/jpeg"), &[0xFF, 0xD8, 0xFF, 0xD9]);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("--profile"), "{body}");
    let (status, e) = server.post("/api/scan", &json!({"uploads": ["a.jpg"]}));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("--profile"), "{e}");
    assert_eq!(server.get("/api/photo").0, 404);
    assert_eq!(server.get_json("/api/session")["can_scan"], false);
}

/// The table `vedette scan ARGS SETUP` writes (into `dir`), parsed.
fn verb_table(dir: &Path, args: &[std::ffi::OsString], setup: &[std::ffi::OsString]) -> Value {
    let out_file = dir.join("by-verb.json");
    let out = Command::new(BIN).arg("scan").args(args).args(setup).arg("-o").arg(&out_file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap()
}

/// A server on a copy of the brigade sample that scans with the default profile,
/// `samples/photos/ROSTER` and the camera file, with `photos` of `samples/photos`
/// uploaded: its folder, the scan setup, the server and the uploads' stored names.
fn uploaded(
    roster: &str,
    photos: &[&str],
) -> (tempfile::TempDir, Vec<std::ffi::OsString>, Server, Vec<String>) {
    let (dir, table) = brigade_copy();
    let roster = format!("samples/photos/{roster}");
    let setup: Vec<std::ffi::OsString> = [
        ("--profile", "calibration/default.toml"),
        ("--roster", roster.as_str()),
        ("--camera", "samples/photos/camera.toml"),
    ]
    .iter()
    .flat_map(|(flag, path)| [std::ffi::OsString::from(flag), root(path).into_os_string()])
    .collect();
    let mut args = vec!["--table".into(), table.into_os_string()];
    args.extend(setup.iter().cloned());
    let server = Server::start_with(&os(&args));
    let mut names = Vec::new();
    for photo in photos {
        let bytes = std::fs::read(root("samples/photos").join(photo)).unwrap();
        let (status, up) =
            server.request("POST", &format!("/api/uploads?name={photo}"), Some("image/jpeg"), &bytes);
        assert_eq!(status, 200, "{up}");
        names.push(serde_json::from_str::<Value>(&up).unwrap()["upload"].as_str().unwrap().to_string());
    }
    (dir, setup, server, names)
}

/// Several photos uploaded at once are photos of one table: merged as `vedette scan A B`
/// merges them (issue 18), the first shown.
#[test]
fn several_uploaded_photos_are_merged_as_the_verb_merges_them() {
    let (dir, setup, server, names) = uploaded("crowd.roster.toml", &["crowd-near.jpg", "crowd-far.jpg"]);
    let (status, session) = server.post("/api/scan", &json!({ "uploads": names }));
    assert_eq!(status, 200, "{session}");
    assert_eq!(session["photos"].as_array().unwrap().len(), 2, "{session}");
    let photos = ["crowd-near.jpg", "crowd-far.jpg"].map(|p| root("samples/photos").join(p).into_os_string());
    let verb = verb_table(dir.path(), &photos, &setup);
    assert_eq!(server.get_json("/api/table"), verb, "the merged table is the verb's");
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("vedette-uploads/001-crowd-near.jpg.scan-report.json"))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(report["schema"], "vedette/multi-scan-report/1");
}

/// Issue 37: an uploaded photo of the empty table is what `vedette scan --background`
/// takes. The untagged sample scanned against its empty table is the verb's table, the
/// summary names it; one per photo or none; a name that is no upload, and a photo of
/// the empty table taken from elsewhere, are refused naming it, the session unchanged.
#[test]
fn an_uploaded_empty_table_is_the_scans_background() {
    let (dir, setup, server, names) =
        uploaded("untagged.roster.toml", &["untagged.jpg", "untagged-empty.jpg", "skirmish.jpg"]);
    let [photo, empty, elsewhere] = [&names[0], &names[1], &names[2]];
    let plan = server.get_json("/api/table");
    let refused = |body: Value, says: &[&str]| {
        let (status, e) = server.post("/api/scan", &body);
        assert_eq!(status, 400, "{e}");
        let said = e["error"].as_str().unwrap();
        for piece in says {
            assert!(said.contains(piece), "no `{piece}` in: {said}");
        }
        assert_eq!(server.get_json("/api/table"), plan, "the session keeps its table");
    };
    refused(
        json!({"uploads": [photo], "backgrounds": [empty, empty]}),
        &["2 photos of the empty table for 1 photo"],
    );
    refused(
        json!({"uploads": [photo], "backgrounds": ["004-none.jpg"]}),
        &["no upload named \"004-none.jpg\""],
    );
    refused(
        json!({"uploads": [photo], "backgrounds": [elsewhere]}),
        &["001-untagged.jpg", "the photo of the empty table", "003-skirmish.jpg"],
    );
    let (status, session) = server.post("/api/scan", &json!({"uploads": [photo], "backgrounds": [empty]}));
    assert_eq!(status, 200, "{session}");
    let uploads = dir.path().join("vedette-uploads");
    assert_eq!(
        session["scan"]["backgrounds"],
        json!([uploads.join(empty).display().to_string()]),
        "{session}"
    );
    let photo_and_empty = [
        root("samples/photos/untagged.jpg").into_os_string(),
        "--background".into(),
        root("samples/photos/untagged-empty.jpg").into_os_string(),
    ];
    let verb = verb_table(dir.path(), &photo_and_empty, &setup);
    assert_eq!(
        server.get_json("/api/table"),
        verb,
        "the table scanned against the empty table is the verb's"
    );
    // Without it the same photo scans to another table (the background is used).
    let (status, _) = server.post("/api/scan", &json!({"uploads": [photo]}));
    assert_eq!(status, 200);
    assert_ne!(server.get_json("/api/table"), verb, "the empty table changed nothing");
}
