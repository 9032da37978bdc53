//! Pairing a phone (issue 38 item 1): `vedette serve --lan` listens on the machine's
//! network addresses, makes a secret at every start (128 bits from the operating
//! system's random source) and prints the address to open on a phone with the secret
//! in it, as text and as a QR code drawn in the terminal.
//!
//! A request from another machine (and with `--require-token` from this one too) must
//! carry the secret: in the address (`?token=...`, the first visit) or in the cookie
//! the server then sets (`HttpOnly; SameSite=Strict; Path=/`, named for the port so
//! two servers on one machine keep theirs apart). Without it: 401, and nothing of the
//! table. A restarted server has a new secret: the cookies of the last start are
//! refused. The secret is compared in constant time, and is written nowhere but the
//! terminal (and, for this machine's page only, `GET /api/pairing` and its QR code).

use crate::CliError;
use axum::http::{HeaderMap, HeaderValue, Uri, header};
use rand::TryRng;
use std::net::{IpAddr, SocketAddr};

/// Bytes of the secret: 128 bits.
const SECRET_BYTES: usize = 16;

/// The name of the query parameter that carries the secret.
pub const TOKEN_PARAMETER: &str = "token";

/// Who may use the server, and how a phone is paired.
pub struct Pairing {
    /// The secret, as hex.
    secret: String,
    /// The cookie's name (`vedette-PORT`).
    cookie: String,
    /// Whether this machine's requests need the secret too (`--require-token`).
    require_on_loopback: bool,
    /// The address to open on another machine, secret included (`--lan`, or a
    /// `--host` other than the loopback).
    shared_url: Option<String>,
}

impl std::fmt::Debug for Pairing {
    // The secret stays out of every debug print and log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pairing")
            .field("cookie", &self.cookie)
            .field("require_on_loopback", &self.require_on_loopback)
            .finish_non_exhaustive()
    }
}

/// What a request's credentials allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// From this machine, which needs no secret.
    Local,
    /// With the secret in its cookie.
    Cookie,
    /// With the secret in its address: the answer sets the cookie.
    Query,
    /// Without the secret (or with a wrong one).
    Refused,
}

impl Pairing {
    /// A new secret for a server on `port`; `shared_host` is the address other
    /// machines open (none when it listens on the loopback only).
    pub fn new(port: u16, require_on_loopback: bool, shared_host: Option<&str>) -> Result<Pairing, CliError> {
        let mut bytes = [0u8; SECRET_BYTES];
        rand::rngs::SysRng.try_fill_bytes(&mut bytes).map_err(|e| {
            CliError::Usage(format!("cannot make a pairing secret (the system's random source: {e})"))
        })?;
        let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let mut pairing =
            Pairing { secret, cookie: format!("vedette-{port}"), require_on_loopback, shared_url: None };
        pairing.shared_url = shared_host.map(|h| pairing.url(h));
        Ok(pairing)
    }

    /// `http://HOST/?token=SECRET`: the address that pairs a browser.
    #[must_use]
    pub fn url(&self, host: &str) -> String {
        format!("http://{host}/?{TOKEN_PARAMETER}={}", self.secret)
    }

    /// The address other machines open, secret included, when the server is shared.
    #[must_use]
    pub fn shared_url(&self) -> Option<&str> {
        self.shared_url.as_deref()
    }

    /// Whether this machine's own requests need the secret (`--require-token`).
    #[must_use]
    pub fn required_on_loopback(&self) -> bool {
        self.require_on_loopback
    }

    /// What a request from `peer` with these headers and address may do.
    #[must_use]
    pub fn admit(&self, peer: IpAddr, headers: &HeaderMap, uri: &Uri) -> Admission {
        if is_loopback(peer) && !self.require_on_loopback {
            return Admission::Local;
        }
        let cookie = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(name, value)| name == self.cookie && self.is_secret(value));
        if cookie {
            Admission::Cookie
        } else if super::routes::query_value(uri, TOKEN_PARAMETER).is_some_and(|t| self.is_secret(&t)) {
            Admission::Query
        } else {
            Admission::Refused
        }
    }

    /// The cookie that carries the secret on from a first visit.
    #[must_use]
    pub fn cookie(&self) -> Option<HeaderValue> {
        HeaderValue::from_str(&format!("{}={}; HttpOnly; SameSite=Strict; Path=/", self.cookie, self.secret))
            .ok()
    }

    /// `candidate` is the secret, compared in time that does not depend on where they
    /// differ.
    fn is_secret(&self, candidate: &str) -> bool {
        let (a, b) = (self.secret.as_bytes(), candidate.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
    }
}

/// `ip` is this machine's loopback (an IPv4-mapped IPv6 loopback included).
#[must_use]
pub fn is_loopback(ip: IpAddr) -> bool {
    ip.to_canonical().is_loopback()
}

/// The address of this machine on its network (the one its default route leaves
/// from): what a phone on the same network opens. `None` when it has no route.
#[must_use]
pub fn network_address() -> Option<IpAddr> {
    let socket = std::net::UdpSocket::bind((std::net::Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    // Connecting a UDP socket sends nothing: it only picks the route, and so the
    // address this machine would send from (192.0.2.1 is a documentation address).
    socket.connect(SocketAddr::from(([192, 0, 2, 1], 9))).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

/// The modules of `text`'s QR code (medium error correction), row by row, `true`
/// dark.
fn modules(text: &str) -> Result<(usize, Vec<bool>), CliError> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M)
        .map_err(|e| CliError::Usage(format!("cannot draw the address as a QR code: {e}")))?;
    let width = code.width();
    let dark = code.to_colors().into_iter().map(|c| c == qrcode::Color::Dark).collect();
    Ok((width, dark))
}

/// The light margin around a QR code, modules (the standard's four).
const QUIET: usize = 4;

/// `text`'s QR code drawn with half blocks, two rows of modules a line. With `ansi`
/// the colours are set (black on white whatever the terminal's own colours, which a
/// phone's camera needs); without, dark modules are drawn and light ones left blank.
pub fn qr_text(text: &str, ansi: bool) -> Result<String, CliError> {
    let (width, dark) = modules(text)?;
    let side = width + 2 * QUIET;
    let at = |x: usize, y: usize| {
        x >= QUIET
            && y >= QUIET
            && x < QUIET + width
            && y < QUIET + width
            && dark[(y - QUIET) * width + x - QUIET]
    };
    let mut out = String::new();
    for y in (0..side).step_by(2) {
        for x in 0..side {
            let (top, bottom) = (at(x, y), y + 1 < side && at(x, y + 1));
            if ansi {
                // Upper half block: its foreground is the top module, its background the bottom.
                let fg = if top { "30" } else { "97" };
                let bg = if bottom { "40" } else { "107" };
                out.push_str(&format!("\x1b[{fg};{bg}m\u{2580}"));
            } else {
                out.push(match (top, bottom) {
                    (true, true) => '\u{2588}',
                    (true, false) => '\u{2580}',
                    (false, true) => '\u{2584}',
                    (false, false) => ' ',
                });
            }
        }
        if ansi {
            out.push_str("\x1b[0m");
        }
        out.push('\n');
    }
    Ok(out)
}

/// `text`'s QR code as SVG, one unit a module, with its light margin.
pub fn qr_svg(text: &str) -> Result<String, CliError> {
    let (width, dark) = modules(text)?;
    let side = width + 2 * QUIET;
    let mut path = String::new();
    for y in 0..width {
        let mut x = 0;
        while x < width {
            if dark[y * width + x] {
                let run = dark[y * width + x..(y + 1) * width].iter().take_while(|d| **d).count();
                path.push_str(&format!("M{},{}h{run}v1h-{run}z", x + QUIET, y + QUIET));
                x += run;
            } else {
                x += 1;
            }
        }
    }
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" shape-rendering=\"crispEdges\">\
         <rect width=\"{side}\" height=\"{side}\" fill=\"#fff\"/><path d=\"{path}\" fill=\"#000\"/></svg>\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(require: bool) -> Pairing {
        Pairing::new(8722, require, Some("192.168.1.20:8722")).unwrap()
    }

    fn headers(cookie: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, HeaderValue::from_str(cookie).unwrap());
        h
    }

    #[test]
    fn only_the_secret_admits_another_machine() {
        let p = pairing(false);
        let phone: IpAddr = "192.168.1.31".parse().unwrap();
        let root: Uri = "/".parse().unwrap();
        let url = p.shared_url().unwrap().to_string();
        assert!(url.starts_with("http://192.168.1.20:8722/?token=") && url.len() == 32 + 32);
        let with_token: Uri = url.trim_start_matches("http://192.168.1.20:8722").parse().unwrap();
        assert_eq!(p.admit(phone, &HeaderMap::new(), &root), Admission::Refused);
        assert_eq!(p.admit(phone, &HeaderMap::new(), &with_token), Admission::Query);
        let cookie = p.cookie().unwrap();
        let cookie = cookie.to_str().unwrap();
        assert!(
            cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/")
        );
        let value = cookie.split(';').next().unwrap();
        assert_eq!(p.admit(phone, &headers(&format!("a=b; {value}")), &root), Admission::Cookie);
        // Another server's secret (a restart), a near miss, another port's cookie.
        let other = pairing(false);
        let theirs = other.cookie().unwrap();
        assert_eq!(
            p.admit(phone, &headers(theirs.to_str().unwrap().split(';').next().unwrap()), &root),
            Admission::Refused
        );
        let mut near = value.to_string();
        near.pop();
        assert_eq!(p.admit(phone, &headers(&near), &root), Admission::Refused);
        let elsewhere = value.replace("vedette-8722", "vedette-8723");
        assert_eq!(p.admit(phone, &headers(&elsewhere), &root), Admission::Refused);
        // This machine needs none, unless --require-token.
        let local: IpAddr = "127.0.0.1".parse().unwrap();
        assert_eq!(p.admit(local, &HeaderMap::new(), &root), Admission::Local);
        assert_eq!(p.admit("::ffff:127.0.0.1".parse().unwrap(), &HeaderMap::new(), &root), Admission::Local);
        assert_eq!(pairing(true).admit(local, &HeaderMap::new(), &root), Admission::Refused);
        assert!(!format!("{p:?}").contains(&p.secret), "no secret in debug prints");
    }

    #[test]
    fn every_start_has_a_new_secret_of_128_bits() {
        let secrets: std::collections::HashSet<String> = (0..50).map(|_| pairing(false).secret).collect();
        assert_eq!(secrets.len(), 50);
        assert!(
            secrets.iter().all(|s| s.len() == 2 * SECRET_BYTES && s.bytes().all(|b| b.is_ascii_hexdigit()))
        );
    }

    /// The SVG code reads back, by a decoder of its own (rqrr), as the address; the
    /// terminal's two drawings hold the same modules (tests/cli/serve_access.rs reads the
    /// printed one back).
    #[test]
    fn the_qr_codes_read_as_the_address() {
        let url = pairing(false).shared_url().unwrap().to_string();
        let plain = qr_text(&url, false).unwrap();
        let ansi = qr_text(&url, true).unwrap();
        let side = plain.lines().next().unwrap().chars().count();
        assert_eq!(ansi.lines().count(), plain.lines().count());
        for (a, p) in ansi.lines().zip(plain.lines()) {
            // Each cell in colour: the top module as foreground, the bottom as background.
            let cells: Vec<(bool, bool)> = a
                .split("\x1b[")
                .filter(|c| c.ends_with('\u{2580}'))
                .map(|c| (c.starts_with("30;"), c.contains(";40m")))
                .collect();
            let blocks: Vec<(bool, bool)> = p
                .chars()
                .map(|c| (matches!(c, '\u{2588}' | '\u{2580}'), matches!(c, '\u{2588}' | '\u{2584}')))
                .collect();
            assert_eq!(cells.len(), side);
            assert_eq!(cells, blocks);
        }
        let scale = 4;
        let svg = qr_svg(&url).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let d = doc.descendants().find(|n| n.has_tag_name("path")).unwrap().attribute("d").unwrap();
        let mut cells = vec![false; side * side];
        for run in d.split('M').filter(|r| !r.is_empty()) {
            let (xy, rest) = run.split_once('h').unwrap();
            let (x, y) = xy.split_once(',').unwrap();
            let n: usize = rest.split_once('v').unwrap().0.parse().unwrap();
            let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
            for k in 0..n {
                cells[y * side + x + k] = true;
            }
        }
        let mut img = rqrr::PreparedImage::prepare_from_bitmap(side * scale, side * scale, |x, y| {
            cells[(y / scale) * side + x / scale]
        });
        let grids = img.detect_grids();
        assert_eq!(grids.len(), 1);
        assert_eq!(grids[0].decode().unwrap().1, url);
    }
}
