//! Who may use `vedette serve` (issue 38 item 1): with `--require-token` (and from
//! other machines with `--lan`) a request needs the secret printed at start, in the
//! address and then in a cookie; without it, 401 and nothing of the table. The `Host`
//! and `Origin` checks hold, `--lan` prints its address and a QR code that reads as it.

use crate::server;

use serde_json::{Value, json};
use server::{Answer, Server, brigade_copy, verb_json};
use std::io::{Read, Write};
use std::net::TcpStream;

/// Every route, with a body that would be accepted.
const ROUTES: [(&str, &str, &str); 21] = [
    ("GET", "/", ""),
    ("GET", "/api/table", ""),
    ("GET", "/api/bases", ""),
    ("GET", "/api/report", ""),
    ("GET", "/api/report.txt", ""),
    ("GET", "/api/plan.svg", ""),
    ("GET", "/api/corrections", ""),
    ("GET", "/api/session", ""),
    ("GET", "/api/photo", ""),
    ("GET", "/api/photo.svg", ""),
    ("GET", "/api/scan", ""),
    ("GET", "/api/pairing", ""),
    ("GET", "/api/pairing.svg", ""),
    ("POST", "/api/measure", r#"{"a":"au-art-1","b":"fr-1-3"}"#),
    ("POST", "/api/los", r#"{"a":"au-art-1","b":"fr-1-3"}"#),
    ("POST", "/api/corrections", r#"{"op":"flip","base":"au-art-1#0"}"#),
    ("POST", "/api/undo", "{}"),
    ("POST", "/api/photo/locate", r#"{"x":1,"y":1}"#),
    ("POST", "/api/uploads?name=a.jpg", "\u{ff}\u{d8}"),
    ("POST", "/api/scan", r#"{"uploads":["001-a.jpg"]}"#),
    ("GET", "/no/such/route", ""),
];

/// Every unit id of brigade-attack: none may appear in an answer to the unpaired.
fn unit_ids() -> Vec<String> {
    let t: Value =
        serde_json::from_str(&std::fs::read_to_string(server::sample("brigade-attack.json")).unwrap())
            .unwrap();
    t["units"].as_array().unwrap().iter().map(|u| u["id"].as_str().unwrap().to_string()).collect()
}

fn send_all(server: &Server, extra: &[(&str, &str)]) -> Vec<(String, Answer)> {
    ROUTES
        .iter()
        .map(|(method, path, body)| {
            let kind = if path.starts_with("/api/uploads") { "image/jpeg" } else { "application/json" };
            let mut headers = vec![("Content-Type", kind)];
            headers.extend_from_slice(extra);
            (format!("{method} {path}"), server.send(method, path, &headers, body.as_bytes()))
        })
        .collect()
}

fn assert_unpaired(what: &str, a: &Answer, ids: &[String]) {
    assert_eq!(a.status, 401, "{what}: {}", a.text());
    let text = a.text();
    assert!(text.contains("pairing secret"), "{what} says how to pair: {text}");
    for id in ids {
        assert!(!text.contains(id.as_str()), "{what} shows {id}: {text}");
    }
    assert!(!text.contains("<svg") && !text.contains("\"units\""), "{what}: {text}");
    assert!(a.header("set-cookie").is_none(), "{what} sets no cookie");
}

/// The `name=value` of a `Set-Cookie` header.
fn cookie_of(a: &Answer) -> String {
    let set = a.header("set-cookie").unwrap_or_else(|| panic!("no cookie set: {:?}", a.headers));
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set.split(';').any(|p| p.trim() == attribute), "{attribute} in {set}");
    }
    set.split(';').next().unwrap().to_string()
}

#[test]
fn without_the_secret_every_route_is_401_and_shows_nothing_of_the_table() {
    let (_dir, table) = brigade_copy();
    let server = Server::on(&table, &["--require-token"]);
    let token = server.token.clone().expect("--require-token prints the address with its secret");
    assert_eq!(token.len(), 32, "128 bits as hex: {token}");
    let ids = unit_ids();
    for (what, a) in send_all(&server, &[]) {
        assert_unpaired(&what, &a, &ids);
    }
    // A wrong secret, in the address or in a cookie, is no better.
    let wrong = "0".repeat(32);
    for (what, a) in send_all(&server, &[("Cookie", &format!("vedette-{}={wrong}", server.port()))]) {
        assert_unpaired(&what, &a, &ids);
    }
    assert_unpaired(
        "a wrong token",
        &server.send("GET", &format!("/api/report?token={wrong}"), &[], b""),
        &ids,
    );
    // Nothing was changed by all that.
    assert!(!table.with_file_name("brigade-attack.corrections.json").exists());
    // The word 401, not the digits: the address printed has a random port and secret,
    // and the table's temporary folder a random name, where "401" may stand by chance.
    let printed = server.printed();
    let words = printed.split(|c: char| !c.is_ascii_alphanumeric()).collect::<Vec<_>>();
    assert!(
        !words.contains(&"401") && !printed.contains("Unauthorized"),
        "nothing is logged about refusals: {printed}"
    );
}

#[test]
fn with_the_secret_in_the_address_then_the_cookie_everything_answers() {
    let (_dir, table) = brigade_copy();
    let server = Server::on(&table, &["--require-token"]);
    let token = server.token.clone().unwrap();
    // The first visit, with the secret in the address: the page, and the cookie.
    let first = server.send("GET", &format!("/?token={token}"), &[], b"");
    assert_eq!(first.status, 200, "{}", first.text());
    assert!(first.text().contains("/api/plan.svg"), "the page");
    let cookie = cookie_of(&first);
    assert_eq!(cookie, format!("vedette-{}={token}", server.port()));
    assert_eq!(first.header("referrer-policy"), Some("no-referrer"));
    // Then every route answers with the cookie alone.
    let with = [("Cookie", cookie.as_str())];
    let report = server.send("GET", "/api/report", &with, b"");
    assert_eq!(report.status, 200);
    assert_eq!(serde_json::from_slice::<Value>(&report.body).unwrap(), verb_json(&["report"], &table));
    for (what, a) in send_all(&server, &with) {
        assert_ne!(a.status, 401, "{what}: {}", a.text());
        assert!(a.header("set-cookie").is_none(), "{what}: the cookie is set once, from the address");
    }
    let m = server.send(
        "POST",
        "/api/measure",
        &[("Cookie", cookie.as_str()), ("Content-Type", "application/json")],
        br#"{"a":"au-art-1","b":"fr-1-3"}"#,
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&m.body).unwrap(),
        verb_json(&["measure", "au-art-1", "fr-1-3"], &table)
    );
    // The secret in the address works on any route, and sets the cookie there too.
    let bases = server.send("GET", &format!("/api/bases?token={token}"), &[], b"");
    assert_eq!(bases.status, 200);
    assert_eq!(cookie_of(&bases), cookie);
}

#[test]
fn a_cookie_of_one_start_is_refused_after_a_restart() {
    let (_dir, table) = brigade_copy();
    let args = ["--table".as_ref(), table.as_os_str(), "--require-token".as_ref()];
    let server = Server::start_with(&args);
    let token = server.token.clone().unwrap();
    let cookie = cookie_of(&server.send("GET", &format!("/?token={token}"), &[], b""));
    assert_eq!(server.send("GET", "/api/bases", &[("Cookie", &cookie)], b"").status, 200);
    drop(server);
    let server = Server::start_with(&args);
    let again = server.token.clone().unwrap();
    assert_ne!(again, token, "a new secret at every start");
    let ids = unit_ids();
    assert_unpaired("the old cookie", &server.send("GET", "/api/bases", &[("Cookie", &cookie)], b""), &ids);
    assert_unpaired(
        "the old address",
        &server.send("GET", &format!("/api/bases?token={token}"), &[], b""),
        &ids,
    );
    assert_eq!(server.send("GET", &format!("/api/bases?token={again}"), &[], b"").status, 200);
}

#[test]
fn foreign_hosts_and_other_sites_pages_are_refused() {
    let (_dir, table) = brigade_copy();
    let server = Server::start(&table);
    let port = server.port().to_string();
    for host in [format!("elsewhere.invalid:{port}"), "127.0.0.1:1".to_string(), format!("127.0.0.2:{port}")]
    {
        let a = server.send("GET", "/api/table", &[("Host", &host)], b"");
        assert_eq!(a.status, 403, "{host}: {}", a.text());
    }
    for host in [format!("localhost:{port}"), format!("[::1]:{port}"), server.address.clone()] {
        assert_eq!(server.send("GET", "/api/bases", &[("Host", &host)], b"").status, 200, "{host}");
    }
    // A page of another site may not post (a form, or a script the browser lets send).
    let post = |origin: &str| {
        server.send(
            "POST",
            "/api/corrections",
            &[("Origin", origin), ("Content-Type", "application/json")],
            br#"{"op":"flip","base":"au-art-1#0"}"#,
        )
    };
    for origin in ["http://evil.example", "null", &format!("http://localhost:{port}")] {
        let a = post(origin);
        assert_eq!(a.status, 403, "{origin}: {}", a.text());
        assert!(a.text().contains("other sites"), "{}", a.text());
    }
    assert_eq!(server.get_json("/api/corrections")["corrections"], json!([]));
    assert_eq!(post(&format!("http://{}", server.address)).status, 200, "its own page");
}

/// The lines of block characters of a QR code drawn in the terminal, read back (by
/// rqrr, a decoder of its own) as text.
fn read_qr(printed: &str) -> Option<String> {
    let rows: Vec<Vec<char>> = printed
        .lines()
        .filter(|l| {
            !l.trim().is_empty() && l.chars().all(|c| matches!(c, ' ' | '\u{2580}' | '\u{2584}' | '\u{2588}'))
        })
        .map(|l| l.chars().collect())
        .collect();
    let width = rows.first()?.len();
    let scale = 4;
    let dark = |x: usize, y: usize| {
        let c = rows[y / 2].get(x).copied().unwrap_or(' ');
        if y.is_multiple_of(2) {
            matches!(c, '\u{2588}' | '\u{2580}')
        } else {
            matches!(c, '\u{2588}' | '\u{2584}')
        }
    };
    // The code's quiet zone is blank lines, dropped above: put it back.
    let (w, h) = ((width + 8) * scale, (rows.len() * 2 + 8) * scale);
    let mut img = rqrr::PreparedImage::prepare_from_bitmap(w, h, |x, y| {
        let (mx, my) = (x / scale, y / scale);
        mx >= 4 && my >= 4 && mx - 4 < width && my - 4 < rows.len() * 2 && dark(mx - 4, my - 4)
    });
    img.detect_grids().first().and_then(|g| g.decode().ok()).map(|(_, text)| text)
}

/// Sends a request to `address` (another of this machine's addresses: the request then
/// comes from that address, not the loopback).
fn send_to(address: &str, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut s = TcpStream::connect(address).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(120))).unwrap();
    let mut head = format!("GET {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(n, _)| *n == "Host") {
        head.push_str(&format!("Host: {address}\r\n"));
    }
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).unwrap();
    let mut raw = String::new();
    let _ = s.read_to_string(&mut raw);
    let status = raw.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, raw)
}

#[test]
fn lan_prints_its_address_and_a_qr_code_of_it_and_asks_other_machines_for_the_secret() {
    let (_dir, table) = brigade_copy();
    let server = Server::on(&table, &["--lan"]);
    // This machine needs no secret (no --require-token): its first line has none.
    assert_eq!(server.token, None);
    assert_eq!(server.get("/api/bases").0, 200);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !server.printed().contains("Anyone with this address")
        && !server.printed().contains("No network address")
    {
        assert!(std::time::Instant::now() < deadline, "{}", server.printed());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let printed = server.printed();
    let Some(url) = printed.split_whitespace().find(|w| w.contains("?token=")) else {
        // A machine with no network: said so, and nothing more to test here.
        assert!(printed.contains("No network address found"), "{printed}");
        return;
    };
    let address = url.trim_start_matches("http://").split('/').next().unwrap().to_string();
    assert!(!address.starts_with("127."), "a network address: {address}");
    assert!(address.ends_with(&format!(":{}", server.port())), "{address}");
    assert_eq!(read_qr(&printed).as_deref(), Some(url), "the QR code reads as the address:\n{printed}");
    // The desktop page's panel: the same address, as JSON and as a QR code.
    assert_eq!(server.get_json("/api/pairing")["url"], url);
    let (status, svg) = server.get("/api/pairing.svg");
    assert_eq!(status, 200);
    assert!(svg.starts_with("<svg"), "{svg}");

    // From the network address (not the loopback): the secret is needed.
    let token = url.split("?token=").nth(1).unwrap();
    let (status, raw) = send_to(&address, "/api/bases", &[]);
    assert_eq!(status, 401, "{raw}");
    assert!(!raw.contains("au-art-1"));
    let (status, raw) = send_to(&address, &format!("/?token={token}"), &[]);
    assert_eq!(status, 200, "{raw}");
    let cookie = raw
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .map(|c| c.split(';').next().unwrap().to_string())
        .unwrap_or_else(|| panic!("{raw}"));
    let (status, raw) = send_to(&address, "/api/bases", &[("Cookie", &cookie)]);
    assert_eq!(status, 200, "{raw}");
    assert!(raw.contains("au-art-1"));
    // Its Host must still be the address: a name pointed at it is refused.
    let (status, _) = send_to(&address, "/api/bases", &[("Cookie", &cookie), ("Host", "evil.example:80")]);
    assert_eq!(status, 403);
    // The pairing code is shown on this machine only.
    let (status, _) = send_to(&address, "/api/pairing.svg", &[("Cookie", &cookie)]);
    assert_eq!(status, 403);
}
