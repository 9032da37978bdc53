//! What keeps `vedette serve` answering (issue 41 item 4): rule work off the server's
//! thread within a budget per request, readers never behind a slow change, idle and
//! half-sent connections closed, a cap on connections, one upload or scan at a time,
//! an upload quota, bounded names; and a long corrections file folded at start.

use crate::server;

use serde_json::{Value, json};
use server::{BIN, Server, brigade_copy, os, post_raw, root, scan_setup, status_of};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use vedette::commands::serve::corrections::{Correction, apply_all, read_corrections};

/// Waits until the server closes `s` (a read ends or fails); how long that took. Panics
/// after `limit`.
fn closed_within(mut s: TcpStream, limit: Duration) -> (Duration, String) {
    let start = Instant::now();
    s.set_read_timeout(Some(limit)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                panic!("still open after {limit:?}: {}", String::from_utf8_lossy(&got))
            }
            Err(_) => break,
        }
    }
    (start.elapsed(), String::from_utf8_lossy(&got).into_owned())
}

#[test]
fn idle_and_half_sent_connections_are_closed() {
    let (_dir, table) = brigade_copy();
    let server = Server::on(&table, &["--idle-timeout", "1"]);
    let limit = Duration::from_secs(10);
    // Nothing sent at all.
    let s = TcpStream::connect(&server.address).unwrap();
    let (took, got) = closed_within(s, limit);
    assert!(took >= Duration::from_millis(900), "not before its time: {took:?}");
    assert!(got.is_empty() || got.starts_with("HTTP/1.1 408"), "{got}");
    // Half a header.
    let mut s = TcpStream::connect(&server.address).unwrap();
    write!(s, "GET /api/bases HTTP/1.1\r\nHost: {}\r\nX-Slow: ", server.address).unwrap();
    let (_, got) = closed_within(s, limit);
    assert!(!got.contains("au-art-1"), "no answer to half a request: {got}");
    // Half a body: refused with 408, and the connection closed.
    let mut s = TcpStream::connect(&server.address).unwrap();
    write!(
        s,
        "POST /api/corrections HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"op\":",
        server.address
    )
    .unwrap();
    let (_, got) = closed_within(s, limit);
    assert!(got.starts_with("HTTP/1.1 408"), "{got}");
    assert!(got.contains("stopped arriving"), "{got}");
    // A kept-alive connection, idle after its answer.
    let mut s = TcpStream::connect(&server.address).unwrap();
    write!(s, "GET /api/scan HTTP/1.1\r\nHost: {}\r\n\r\n", server.address).unwrap();
    let (took, got) = closed_within(s, limit);
    assert!(got.starts_with("HTTP/1.1 200") && took < limit, "{got}");
    assert_eq!(
        server.get_json("/api/corrections")["corrections"],
        json!([]),
        "the half body changed nothing"
    );
}

#[test]
fn connections_beyond_the_cap_are_answered_503() {
    let (_dir, table) = brigade_copy();
    let server = Server::on(&table, &["--max-connections", "3"]);
    let held: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(&server.address).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(300));
    let (_, got) = closed_within(TcpStream::connect(&server.address).unwrap(), Duration::from_secs(10));
    assert!(got.starts_with("HTTP/1.1 503") && got.contains("--max-connections"), "{got}");
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.get("/api/bases").0, 200, "room again once they close");
}

/// The threads of process `pid` (Linux).
fn threads(pid: u32) -> Option<usize> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|l| l.strip_prefix("Threads:")).and_then(|n| n.trim().parse().ok())
}

#[test]
fn work_over_budget_is_refused_changes_nothing_and_cannot_pile_up() {
    let (_dir, table) = brigade_copy();
    let server = Server::on(&table, &["--time-budget", "0.001"]);
    let report = server.get_json("/api/report");
    let (status, e) = server.post("/api/corrections", &json!({"op": "flip", "base": "au-art-1#0"}));
    assert!(status == 503 || status == 504, "{status} {e}");
    assert!(e["error"].as_str().unwrap().contains("0.001 s budget"), "{e}");
    // Fifty sight questions at once, each given up: the work they started runs on, but
    // on the server's few workers, not a thread each.
    let workers: Vec<_> = (0..50)
        .map(|_| {
            let address = server.address.clone();
            std::thread::spawn(move || {
                status_of(&post_raw(&address, "/api/los", r#"{"a":"fr-art-1","b":"au-4"}"#))
            })
        })
        .collect();
    let mut most = 0;
    let statuses: Vec<Option<u16>> = workers
        .into_iter()
        .map(|w| {
            most = most.max(threads(server.pid()).unwrap_or(0));
            w.join().unwrap()
        })
        .collect();
    most = most.max(threads(server.pid()).unwrap_or(0));
    // A sight question may finish within the millisecond (the first, before the workers
    // are busy): answered. The others are given up or refused, none is left unanswered.
    assert!(statuses.iter().all(|s| matches!(s, Some(200 | 503 | 504))), "{statuses:?}");
    assert!(statuses.iter().filter(|s| matches!(s, Some(503 | 504))).count() >= 45, "{statuses:?}");
    // The main thread, at most 8 workers, the drawer and a few the runtime keeps.
    assert!(most <= 16, "{most} threads for 50 abandoned requests");
    // Readers are answered from the last findings, and nothing was changed.
    assert_eq!(server.get_json("/api/report"), report);
    assert!(!table.with_file_name("brigade-attack.corrections.json").exists());
}

#[test]
fn slow_changes_do_not_hold_up_readers() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("big.json");
    let out = Command::new(BIN)
        .args(["generate", "--bases", "5000", "--seed", "7", "-o"])
        .arg(&table)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let server = Server::on(&table, &["--time-budget", "600"]);
    let bases = server.get_json("/api/bases");
    let labels: Vec<String> =
        bases.as_array().unwrap().iter().take(3).map(|b| b["base"].as_str().unwrap().to_string()).collect();
    // Three corrections at once: each recomputes the whole 5,000-base report, one
    // after another.
    let started = Instant::now();
    let changes: Vec<_> = labels
        .into_iter()
        .map(|base| {
            let address = server.address.clone();
            std::thread::spawn(move || {
                let raw =
                    post_raw(&address, "/api/corrections", &json!({"op": "flip", "base": base}).to_string());
                (status_of(&raw), started.elapsed())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut reads = Vec::new();
    for path in ["/api/bases", "/api/report", "/api/session", "/api/corrections"] {
        let t = Instant::now();
        assert_eq!(server.get(path).0, 200);
        reads.push((path, t.elapsed(), started.elapsed()));
    }
    let answered: Vec<_> = changes.into_iter().map(|c| c.join().unwrap()).collect();
    assert!(answered.iter().all(|(s, _)| *s == Some(200)), "{answered:?}");
    let last_change = answered.iter().map(|(_, t)| *t).max().unwrap();
    for (path, took, at) in reads {
        // Each read answered at once from the last findings, not after the changes
        // (each of which takes seconds on this table in a debug build).
        assert!(took < Duration::from_secs(3), "{path} took {took:?} (the changes {answered:?})");
        assert!(at < last_change, "{path} answered at {at:?}, after the last change at {last_change:?}");
    }
    assert_eq!(server.get_json("/api/corrections")["corrections"].as_array().unwrap().len(), 3);
}

/// A PNG of `w` x `h` px of seeded noise (it does not compress).
fn noise_png(w: u32, h: u32, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    let img = image::RgbImage::from_fn(w, h, |_, _| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        image::Rgb([x as u8, (x >> 8) as u8, (x >> 16) as u8])
    });
    let mut png = Vec::new();
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    png
}

fn upload(server: &Server, name: &str, bytes: &[u8]) -> (u16, Value) {
    let (status, text) =
        server.request("POST", &format!("/api/uploads?name={name}"), Some("image/png"), bytes);
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
}

#[test]
fn uploads_beyond_the_quota_remove_the_oldest_this_server_wrote() {
    let (dir, table) = brigade_copy();
    let uploads = dir.path().join("vedette-uploads");
    std::fs::create_dir(&uploads).unwrap();
    // A player's own file in the folder: never this server's to remove.
    let mine = uploads.join("001-mine.png");
    std::fs::write(&mine, noise_png(8, 8, 1)).unwrap();
    let mut args = vec!["--table".into(), table.clone().into_os_string()];
    args.extend(scan_setup());
    for a in ["--uploads-keep", "2", "--uploads-max-mib", "1"] {
        args.push(a.into());
    }
    let server = Server::start_with(&os(&args));
    let small = noise_png(16, 16, 2);
    let names: Vec<String> = ["a", "b", "c"]
        .iter()
        .map(|n| {
            let (status, up) = upload(&server, &format!("{n}.png"), &small);
            assert_eq!(status, 200, "{up}");
            up["upload"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(names, ["002-a.png", "003-b.png", "004-c.png"]);
    // Two kept: the oldest this server wrote went; the player's file stays.
    let left = |dir: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(left(&uploads), ["001-mine.png", "003-b.png", "004-c.png"]);
    let (status, e) = server.post("/api/scan", &json!({"uploads": ["002-a.png"]}));
    assert_eq!(status, 400, "a removed upload cannot be scanned: {e}");
    // By bytes: two photos of about 600 KB are more than 1 MiB; the older goes.
    let big = noise_png(450, 450, 3);
    assert!(big.len() > 600_000, "{}", big.len());
    for n in ["d", "e"] {
        assert_eq!(upload(&server, &format!("{n}.png"), &big).0, 200);
    }
    assert_eq!(left(&uploads), ["001-mine.png", "006-e.png"]);
}

#[test]
fn a_second_upload_or_scan_while_one_runs_is_answered_429() {
    let (_dir, table) = brigade_copy();
    let mut args = vec!["--table".into(), table.into_os_string()];
    args.extend(scan_setup());
    let server = Server::start_with(&os(&args));
    let photo = std::fs::read(root("samples/photos/battle.jpg")).unwrap();
    let (status, up) = server.request("POST", "/api/uploads?name=battle.jpg", Some("image/jpeg"), &photo);
    assert_eq!(status, 200, "{up}");
    let name = serde_json::from_str::<Value>(&up).unwrap()["upload"].clone();
    let address = server.address.clone();
    let body = json!({"uploads": [name]}).to_string();
    let first = std::thread::spawn(move || post_raw(&address, "/api/scan", &body));
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.get_json("/api/scan")["busy"] != true {
        assert!(Instant::now() < deadline, "the scan never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (status, e) = server.post("/api/scan", &json!({"uploads": [name]}));
    assert_eq!(status, 429, "{e}");
    assert!(e["error"].as_str().unwrap().contains("one at a time"), "{e}");
    let (status, e) = server.request("POST", "/api/uploads?name=again.jpg", Some("image/jpeg"), &photo);
    assert_eq!(status, 429, "{e}");
    // Readers go on meanwhile.
    assert_eq!(server.get("/api/bases").0, 200);
    let done = first.join().unwrap();
    assert!(done.starts_with("HTTP/1.1 200"), "{}", &done[..done.len().min(400)]);
    assert_eq!(server.get_json("/api/session")["mode"], "photo");
}

#[test]
fn names_longer_than_their_limit_are_refused_naming_the_field() {
    let (_dir, table) = brigade_copy();
    let server = Server::start(&table);
    let long = "x".repeat(100 * 1024);
    let (status, e) = server.post("/api/corrections", &json!({"op": "side", "unit": "au-5", "side": long}));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("side is 102400 characters long; at most 200"), "{e}");
    assert!(!table.with_file_name("brigade-attack.corrections.json").exists(), "nothing stored");
    let (status, e) =
        server.post("/api/corrections", &json!({"op": "reassign", "base": "au-5#0", "to": long}));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().starts_with("to is 102400"), "{e}");
    let (status, e) = server.post("/api/los", &json!({"a": long, "b": "au-5"}));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().starts_with("a is 102400 characters long"), "{e}");
    // A side of 200 characters is a side.
    let (status, e) =
        server.post("/api/corrections", &json!({"op": "side", "unit": "au-5", "side": "y".repeat(200)}));
    assert_eq!(status, 200, "{e}");
    // A file holding a longer one (written by an older vedette) is refused at start,
    // naming it.
    drop(server);
    let file = table.with_file_name("brigade-attack.corrections.json");
    std::fs::write(
        &file,
        json!({"schema": "vedette/corrections/1", "corrections": [{"op": "side", "unit": "au-5", "side": long}]})
            .to_string(),
    )
    .unwrap();
    let out = Command::new(BIN).args(["serve", "--port", "0", "--table"]).arg(&table).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("correction 1: side is 102400 characters long; at most 200"),
        "{}",
        &err[..err.len().min(500)]
    );
}

#[test]
fn a_long_corrections_file_is_folded_at_start_and_gives_the_same_table() {
    let (_dir, table) = brigade_copy();
    let file = table.with_file_name("brigade-attack.corrections.json");
    // A long session: au-art-1 moved back and forth, fr-1-2#1 turned and flipped, a
    // unit given to sides in turn, then a delete and a few more moves.
    let mut corrections = Vec::new();
    for k in 0..3000 {
        corrections
            .push(json!({"op": "move", "base": "au-art-1#0", "x": 1000.0, "y": 630.0 + f64::from(k % 40)}));
        corrections.push(json!({"op": "rotate", "base": "fr-1-2#1", "heading": 80.0 + f64::from(k % 10)}));
        corrections.push(json!({"op": "flip", "base": "fr-1-2#1"}));
        corrections.push(
            json!({"op": "side", "unit": "fr-cav-1", "side": if k % 2 == 0 { "austria" } else { "france" }}),
        );
    }
    corrections.push(json!({"op": "delete", "base": "au-5#2"}));
    for k in 0..300 {
        corrections.push(json!({"op": "move", "base": "au-5#0", "x": 820.0 + f64::from(k % 7), "y": 640.0}));
    }
    let n = corrections.len();
    std::fs::write(&file, json!({"schema": "vedette/corrections/1", "corrections": corrections}).to_string())
        .unwrap();
    let original = vedette_geometry::Table::load(&table).unwrap();
    let whole = apply_all(&original, &read_corrections(&file).unwrap(), &file).unwrap();

    let server = Server::start(&table);
    let served = server.get_json("/api/table");
    assert_eq!(served, serde_json::from_str::<Value>(&whole.to_json_string()).unwrap());
    let folded: Vec<Correction> = read_corrections(&file).unwrap();
    // au-art-1's moves, fr-1-2#1's turns and flips and fr-cav-1's sides folded, the
    // last 200 (the page's undo) kept as made.
    assert!(folded.len() < 300, "{n} corrections folded to {}", folded.len());
    assert_eq!(apply_all(&original, &folded, &file).unwrap(), whole, "the same table, to the bit");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(root("docs/corrections.schema.json")).unwrap())
            .unwrap();
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(jsonschema::validator_for(&schema).unwrap().is_valid(&written));
    // Undo steps back through the last corrections one at a time, as made.
    let (status, _) = server.post("/api/undo", &json!({}));
    assert_eq!(status, 200);
    let mut back = corrections_json_of(&folded);
    back.pop();
    assert_eq!(server.get_json("/api/corrections")["corrections"], Value::Array(back));
    drop(server);
    let server = Server::start(&table);
    assert_eq!(
        server.get_json("/api/corrections")["corrections"].as_array().unwrap().len(),
        folded.len() - 1
    );
}

fn corrections_json_of(cs: &[Correction]) -> Vec<Value> {
    cs.iter().map(|c| serde_json::to_value(c).unwrap()).collect()
}
