//! A `vedette serve` run by a test: the real binary on a copy of a sample, spoken to
//! over plain HTTP/1.1 (issue 22; the access checks and limits of issues 38 and 41).
//! Used as `#[path = "common/server.rs"] mod server;`.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const BIN: &str = env!("CARGO_BIN_EXE_vedette");

pub fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

pub fn sample(name: &str) -> PathBuf {
    root("samples").join(name)
}

/// A copy of `samples/NAME` in a fresh directory.
pub fn copy_of(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join(name);
    std::fs::copy(sample(name), &table).unwrap();
    (dir, table)
}

/// A copy of brigade-attack.json in a fresh directory.
pub fn brigade_copy() -> (tempfile::TempDir, PathBuf) {
    copy_of("brigade-attack.json")
}

/// A running server, stopped (by its own pid) when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    /// The secret, when the first address printed carries it (`--require-token`).
    pub token: Option<String>,
    /// Everything printed on standard output so far.
    pub printed: Arc<Mutex<String>>,
}

/// An answer: status, headers (names lower-case), body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

impl Server {
    pub fn start(table: &Path) -> Server {
        Server::start_with(&["--table".as_ref(), table.as_os_str()])
    }

    /// `vedette serve ARGS --port 0`.
    pub fn start_with(args: &[&std::ffi::OsStr]) -> Server {
        let mut child = Command::new(BIN)
            .arg("serve")
            .args(args)
            .args(["--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_else(|| {
            let mut err = String::new();
            child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            panic!("no address printed: {line:?} {err}")
        });
        let rest = url.trim_start_matches("http://");
        let (address, query) = rest.split_once('/').unwrap();
        let token = query.strip_prefix("?token=").map(str::to_string);
        assert!(address.starts_with("127.0.0.1:"), "{address}");
        // The rest of what it prints, read as it comes (a full pipe would stop it).
        let printed = Arc::new(Mutex::new(line.clone()));
        let into = Arc::clone(&printed);
        std::thread::spawn(move || {
            let mut buf = String::new();
            while stdout.read_line(&mut buf).is_ok_and(|n| n > 0) {
                into.lock().unwrap().push_str(&buf);
                buf.clear();
            }
        });
        Server { child, address: address.to_string(), token, printed }
    }

    /// `vedette serve --table TABLE EXTRA... --port 0`.
    pub fn on(table: &Path, extra: &[&str]) -> Server {
        let mut args = vec!["--table".as_ref(), table.as_os_str()];
        args.extend(extra.iter().map(|a| std::ffi::OsStr::new(*a)));
        Server::start_with(&args)
    }

    /// The port.
    pub fn port(&self) -> &str {
        self.address.rsplit(':').next().unwrap()
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one request with `headers` (a `Host` of the printed address unless
    /// given); write and read errors after the server has answered early (a refused
    /// oversized body) are tolerated.
    pub fn send(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Answer {
        let mut s = TcpStream::connect(&self.address).unwrap();
        // A scan of an uploaded photo takes seconds (a debug build under load: a minute).
        s.set_read_timeout(Some(Duration::from_secs(300))).unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.address));
        }
        for (n, v) in headers {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        let _ = s.write_all(head.as_bytes()).and_then(|()| s.write_all(body));
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        let end = raw.windows(4).position(|w| w == b"\r\n\r\n").map_or(raw.len(), |i| i + 4);
        let head = String::from_utf8_lossy(&raw[..end]).into_owned();
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status for {method} {path}: {head:?}"));
        let headers = head
            .lines()
            .skip(1)
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        Answer { status, headers, body: raw[end..].to_vec() }
    }

    /// Sends one request; (status, body).
    pub fn request(
        &self,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: &[u8],
    ) -> (u16, String) {
        let (status, body) = self.request_bytes(method, path, content_type, body);
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    /// [`Server::request`], the body as bytes.
    pub fn request_bytes(
        &self,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: &[u8],
    ) -> (u16, Vec<u8>) {
        let headers: Vec<(&str, &str)> = content_type.map(|t| ("Content-Type", t)).into_iter().collect();
        let a = self.send(method, path, &headers, body);
        (a.status, a.body)
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, None, b"")
    }

    pub fn get_json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) =
            self.request("POST", path, Some("application/json"), body.to_string().as_bytes());
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}")))
    }

    /// Everything printed so far on standard output.
    pub fn printed(&self) -> String {
        self.printed.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Posts `body` as JSON to `path` at `address` on a connection of its own (from any
/// thread); the whole answer, head and body.
pub fn post_raw(address: &str, path: &str, body: &str) -> String {
    let mut s = TcpStream::connect(address).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(600))).unwrap();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    let _ = s.read_to_string(&mut raw);
    raw
}

/// The status of a whole answer.
pub fn status_of(raw: &str) -> Option<u16> {
    raw.split_whitespace().nth(1).and_then(|c| c.parse().ok())
}

/// What a verb prints with `--json`, parsed.
pub fn verb_json(args: &[&str], table: &Path) -> Value {
    let out = Command::new(BIN).arg(args[0]).arg(table).args(&args[1..]).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `--profile`, `--roster` and `--camera` of the bundled battle photo.
pub fn scan_setup() -> Vec<std::ffi::OsString> {
    let mut args = Vec::new();
    for (flag, path) in [
        ("--profile", "calibration/default.toml"),
        ("--roster", "samples/photos/battle.roster.toml"),
        ("--camera", "samples/photos/camera.toml"),
    ] {
        args.push(flag.into());
        args.push(root(path).into_os_string());
    }
    args
}

pub fn os(args: &[std::ffi::OsString]) -> Vec<&std::ffi::OsStr> {
    args.iter().map(std::ffi::OsString::as_os_str).collect()
}
