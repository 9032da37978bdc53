//! `vedette serve --table T.json` or `--photo PHOTO --profile P`: a local web page to
//! look at a table's findings (over its photo in photo mode), measure and check sight
//! between clicked units, correct misread bases, and scan uploaded photos (issue 22).
//! The rule geometry runs here, behind the JSON API of [`routes`] (docs/serve.md); the
//! page only draws what the API answers.
//!
//! - [`corrections`]: move, rotate, flip, delete and add bases, reassign a base or a
//!   unit's side; the corrections file.
//! - [`session`]: the table, its corrections, and the findings recomputed from them.
//! - [`photo`]: photo mode and uploads without OpenCV: where scanned files go, what a
//!   scanner gives (the scanner itself, OpenCV, is `vedette-scanner`'s).
//! - [`routes`]: the HTTP routes; [`photo_routes`] those of the photo and uploads.

pub mod compaction;
pub mod corrections;
pub mod corrector;
pub mod photo;
pub mod photo_routes;
pub mod ranked;
pub mod routes;
pub mod session;

use crate::CliError;
use std::io::Write;
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
    /// The address to listen on. Only this machine can reach the default; another
    /// (0.0.0.0) lets anyone on the network read and correct the table.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
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
    let listener = std::net::TcpListener::bind((args.host.as_str(), args.port)).map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AddrInUse {
            " (another program uses it: choose another with --port, or --port 0 for a free one)"
        } else {
            ""
        };
        CliError::Usage(format!("cannot listen on {}:{}: {e}{hint}", args.host, args.port))
    })?;
    let (session, home) = match (&args.table, args.photo.first(), &scanner) {
        (Some(table), _, _) => (session::Session::open(table)?, parent(table)),
        (None, Some(first), Some(s)) => {
            let scanned = crate::progress::working(format!("scanning {}", first.display()), || {
                s.scan(&args.photo, &|_| {})
            })?;
            (session::Session::from_scan(scanned)?, parent(first))
        }
        _ => return Err(CliError::Usage("give --table T.json, or --photo PHOTO --profile P".to_string())),
    };
    let io = |e: std::io::Error| CliError::Usage(format!("cannot serve: {e}"));
    listener.set_nonblocking(true).map_err(io)?;
    let address = listener.local_addr().map_err(io)?;
    let state = Arc::new(routes::App::new(session, scanner, home.join(photo::UPLOADS_DIR)));
    let app = routes::router(state, routes::allowed_hosts(address));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_io().build().map_err(io)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(io)?;
        super::emit(out, &format!("vedette serve: http://{address}/ (Ctrl-C to stop)\n"))?;
        out.flush().map_err(|source| CliError::Write { path: "standard output".to_string(), source })?;
        axum::serve(listener, app).await.map_err(io)
    })
}

/// The folder of a file given on the command line.
fn parent(file: &Path) -> PathBuf {
    file.parent().map(Path::to_path_buf).unwrap_or_default()
}
