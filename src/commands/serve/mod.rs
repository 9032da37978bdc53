//! `vedette serve --table T.json` or `--photo PHOTO --profile P`: a local web page to
//! look at a table's findings (over its photo in photo mode), measure and check sight
//! between clicked units, correct misread bases, and scan uploaded photos (issue 22);
//! with `--lan`, from a phone paired by a secret (issue 38).
//! The rule geometry runs here, behind the JSON API of [`routes`] (docs/serve.md); the
//! page only draws what the API answers.
//!
//! - [`corrections`]: move, rotate, flip, delete and add bases, reassign a base or a
//!   unit's side; the corrections file. [`corrector`] applies them in time that grows
//!   with corrections plus table ([`ranked`] lists a unit's bases), [`compaction`]
//!   folds the file.
//! - [`session`]: the table, its corrections, and the snapshot of findings readers are
//!   served; [`drawing`] draws its pictures on a thread of their own.
//! - [`photo`]: photo mode and uploads without OpenCV: where scanned files go, what a
//!   scanner gives (the scanner itself, OpenCV, is `vedette-scanner`'s); [`uploads`]
//!   keeps the uploads within their quota.
//! - [`routes`]: the HTTP routes and their access checks; [`photo_routes`] those of the
//!   photo and uploads; [`pairing`] the secret a phone pairs with; [`workers`] where
//!   rule work runs, within each request's budget; [`connections`] the connections,
//!   their timeouts and their cap.
//! - [`assets`]: the page (an HTML shell, a stylesheet, ES modules under `web/`);
//!   [`page_routes`]: its findings in sentences and a pair's verdict [`card`].

pub mod assets;
pub mod card;
pub mod compaction;
pub mod connections;
pub mod corrections;
pub mod corrector;
pub mod drawing;
pub mod page_routes;
pub mod pairing;
pub mod photo;
pub mod photo_routes;
pub mod ranked;
pub mod routes;
pub mod session;
pub mod uploads;
pub mod workers;

use crate::CliError;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Arguments of `vedette serve`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  vedette serve --table samples/brigade-attack.json\n  vedette serve --photo samples/photos/battle.jpg --profile calibration/default.toml --roster samples/photos/battle.roster.toml --camera samples/photos/camera.toml\n  then open the printed address in a browser (docs/serve.md)"
)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["table", "photo"]))]
pub struct Args {
    /// The table file (vedette/table/1 JSON). Corrections made in the page are kept
    /// beside it, in TABLE.corrections.json, and applied again on the next start.
    #[arg(long)]
    pub table: Option<PathBuf>,
    /// Photo mode: scan this photo at start (several: photos of one table, merged) and
    /// show the table drawn over it. The scanned table is written to
    /// PHOTO.table.json, its scan report to PHOTO.scan-report.json; corrections are
    /// kept in PHOTO.table.corrections.json and applied again on the next start.
    #[arg(long, num_args = 1.., requires = "profile")]
    pub photo: Vec<PathBuf>,
    /// Photo mode: a photo of the empty table taken from the same place as the photo,
    /// for untagged bases (see vedette scan --background); one per --photo, in order.
    #[arg(long, value_name = "EMPTY", num_args = 1.., requires = "photo")]
    pub background: Vec<PathBuf>,
    /// The calibration profile photos are scanned with (photo mode and uploads).
    #[arg(long)]
    pub profile: Option<PathBuf>,
    /// The roster of scanned photos (see vedette scan --roster).
    #[arg(long, requires = "profile")]
    pub roster: Option<PathBuf>,
    /// A camera file for scanned photos, overriding the profile's (see vedette scan
    /// --camera).
    #[arg(long, requires = "profile")]
    pub camera: Vec<PathBuf>,
    /// The port to listen on; 0 picks a free one (the address is printed).
    #[arg(long, default_value_t = 8722)]
    pub port: u16,
    /// The address to listen on. Only this machine can reach the default; from any
    /// other (0.0.0.0: every address of this machine), other machines need the secret
    /// printed at start, as with --lan.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Share the table with phones and other machines on this network: listen on every
    /// address of this machine and print the address to open (with a secret made anew
    /// at every start) and its QR code. Anyone with that address can see and correct
    /// the table until the server stops.
    #[arg(long, conflicts_with = "host")]
    pub lan: bool,
    /// Ask for the secret from this machine's browsers too (printed in the address).
    #[arg(long)]
    pub require_token: bool,
    /// The most time a request may take, seconds: rule work beyond it is given up (503
    /// or 504 with a message) and changes nothing.
    #[arg(long, default_value_t = workers::DEFAULT_BUDGET_S, value_name = "SECONDS")]
    pub time_budget: f64,
    /// How long a connection may stay idle or send half a request, seconds, before it
    /// is closed.
    #[arg(long, default_value_t = connections::DEFAULT_IDLE_S, value_name = "SECONDS")]
    pub idle_timeout: f64,
    /// The most connections open at once; more are answered 503.
    #[arg(long, default_value_t = connections::DEFAULT_MAX_CONNECTIONS, value_name = "N")]
    pub max_connections: usize,
    /// The most uploaded photos kept in vedette-uploads/: beyond, the oldest this
    /// server wrote go (with their scans' files).
    #[arg(long, default_value_t = uploads::DEFAULT_FILES, value_name = "N")]
    pub uploads_keep: usize,
    /// The most space the uploads this server wrote may take, MiB (photos and their
    /// scans' files): beyond, the oldest go.
    #[arg(long, default_value_t = uploads::DEFAULT_MIB, value_name = "MIB")]
    pub uploads_max_mib: u64,
}

impl Args {
    /// True when the server scans photos (`--photo` or `--profile`): it then runs in
    /// `vedette-scanner`, which links OpenCV.
    #[must_use]
    pub fn scans(&self) -> bool {
        self.profile.is_some() || !self.photo.is_empty()
    }
}

/// Runs `vedette serve` without scanning (in the `vedette` binary).
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    run_with(args, out, None)
}

/// Runs `vedette serve` until the process is stopped; `open_scanner` scans photos (in
/// `vedette-scanner`).
pub fn run_with(
    args: &Args,
    out: &mut dyn Write,
    open_scanner: Option<photo::OpenScanner<'_>>,
) -> Result<(), CliError> {
    let limits = limits(args)?;
    let scanner = match (args.scans(), open_scanner) {
        (false, _) => None,
        (true, Some(open)) => Some(open(args)?),
        (true, None) => {
            return Err(CliError::Usage(format!(
                "serve scans photos (--photo, --profile) in {}, which runs this command line when it is beside vedette",
                crate::cli::SCANNER_BINARY
            )));
        }
    };
    let host = if args.lan { "0.0.0.0" } else { args.host.as_str() };
    let listener = std::net::TcpListener::bind((host, args.port)).map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AddrInUse {
            " (another program uses it: choose another with --port, or --port 0 for a free one)"
        } else {
            ""
        };
        CliError::Usage(format!("cannot listen on {host}:{}: {e}{hint}", args.port))
    })?;
    let started = match (&args.table, args.photo.first(), &scanner) {
        (Some(table), _, _) => (session::Session::open(table)?, parent(table)),
        (None, Some(first), Some(s)) => {
            let scanned = crate::progress::working(format!("scanning {}", first.display()), || {
                s.scan(&args.photo, &args.background, &|_| {})
            })?;
            (session::Session::from_scan(scanned)?, parent(first))
        }
        _ => return Err(CliError::Usage("give --table T.json, or --photo PHOTO --profile P".to_string())),
    };
    let (session, home) = started;
    let io = |e: std::io::Error| CliError::Usage(format!("cannot serve: {e}"));
    listener.set_nonblocking(true).map_err(io)?;
    let address = listener.local_addr().map_err(io)?;
    let shared = shared_address(address);
    let pairing = pairing::Pairing::new(address.port(), args.require_token, shared.as_deref())?;
    let welcome = welcome(address, &pairing, std::io::stdout().is_terminal())?;
    let quota =
        uploads::Quota { files: args.uploads_keep, bytes: args.uploads_max_mib.saturating_mul(1 << 20) };
    let drawer = drawing::Drawer::new();
    let state = Arc::new(routes::App::new(
        session,
        scanner,
        home.join(photo::UPLOADS_DIR),
        uploads::Uploads::new(quota),
        workers::Workers::for_this_machine(limits.budget),
        pairing,
        drawer,
    ));
    let app = routes::router(state, routes::Guard::new(address));
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_io().enable_time().build().map_err(io)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(io)?;
        super::emit(out, &welcome)?;
        out.flush().map_err(|source| CliError::Write { path: "standard output".to_string(), source })?;
        connections::serve(listener, app, limits.connections).await.map_err(io)
    })
}

/// The limits of `args`, checked.
struct Limits {
    budget: std::time::Duration,
    connections: connections::Limits,
}

fn limits(args: &Args) -> Result<Limits, CliError> {
    let seconds = |name: &str, v: f64| {
        if v.is_finite() && v > 0.0 && v <= 3600.0 {
            Ok(std::time::Duration::from_secs_f64(v))
        } else {
            Err(CliError::Usage(format!("--{name} {v}: give a number of seconds above 0, at most 3600")))
        }
    };
    let budget = seconds("time-budget", args.time_budget)?;
    let idle = seconds("idle-timeout", args.idle_timeout)?;
    for (name, v) in [
        ("max-connections", args.max_connections as u64),
        ("uploads-keep", args.uploads_keep as u64),
        ("uploads-max-mib", args.uploads_max_mib),
    ] {
        if v == 0 {
            return Err(CliError::Usage(format!("--{name} 0: give at least 1")));
        }
    }
    Ok(Limits { budget, connections: connections::Limits { idle, max_connections: args.max_connections } })
}

/// The address other machines open (`IP:PORT`) when the server listens beyond the
/// loopback: the address it is bound to, or, bound to every address, this machine's
/// address on its network.
fn shared_address(bound: std::net::SocketAddr) -> Option<String> {
    let ip = bound.ip();
    if pairing::is_loopback(ip) {
        return None;
    }
    let ip = if ip.is_unspecified() { pairing::network_address()? } else { ip };
    Some(std::net::SocketAddr::new(ip, bound.port()).to_string())
}

/// What the server prints once it listens: the address on this machine, and when it is
/// shared, the address to open on a phone (secret included) and its QR code (in colour
/// on a terminal).
fn welcome(
    bound: std::net::SocketAddr,
    pairing: &pairing::Pairing,
    terminal: bool,
) -> Result<String, CliError> {
    let local = if bound.ip().is_unspecified() {
        std::net::SocketAddr::from(([127, 0, 0, 1], bound.port()))
    } else {
        bound
    };
    let local_url = if pairing.required_on_loopback() {
        pairing.url(&local.to_string())
    } else {
        format!("http://{local}/")
    };
    let mut text = format!("vedette serve: {local_url} (Ctrl-C to stop)\n");
    if pairing::is_loopback(bound.ip()) {
        return Ok(text);
    }
    match pairing.shared_url() {
        Some(url) => {
            text.push_str(&format!(
                "On a phone or another machine on this network, open\n  {url}\nor scan this code with its camera:\n"
            ));
            text.push_str(&pairing::qr_text(url, terminal)?);
            text.push_str(
                "Anyone with this address can see and correct the table until you stop the server (Ctrl-C); a new address is made at every start.\n",
            );
        }
        None => text.push_str(
            "No network address found for this machine (is it on a network?): other machines cannot open it yet. Give its address with --host, or connect it and start again.\n",
        ),
    }
    Ok(text)
}

/// The folder of a file given on the command line.
fn parent(file: &Path) -> PathBuf {
    file.parent().map(Path::to_path_buf).unwrap_or_default()
}
