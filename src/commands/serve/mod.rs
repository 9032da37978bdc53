//! `vedette serve --table T.json`: a local web page to look at a table's findings,
//! measure and check sight between clicked units, and correct misread bases (issue 22,
//! first slice). The rule geometry runs here, behind the JSON API of [`routes`]
//! (docs/serve.md); the page only draws what the API answers.
//!
//! - [`corrections`]: move, rotate, flip, delete and add bases, reassign a base or a
//!   unit's side; the corrections file.
//! - [`session`]: the table, its corrections, and the findings recomputed from them.
//! - [`routes`]: the HTTP routes.

pub mod corrections;
pub mod routes;
pub mod session;

use crate::CliError;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Arguments of `vedette serve`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  vedette serve --table samples/brigade-attack.json\n  then open the printed address in a browser (docs/serve.md)"
)]
pub struct Args {
    /// The table file (vedette/table/1 JSON). Corrections made in the page are kept
    /// beside it, in TABLE.corrections.json, and applied again on the next start.
    #[arg(long)]
    pub table: PathBuf,
    /// The port to listen on; 0 picks a free one (the address is printed).
    #[arg(long, default_value_t = 8722)]
    pub port: u16,
    /// The address to listen on. Only this machine can reach the default; another
    /// (0.0.0.0) lets anyone on the network read and correct the table.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
}

/// Runs `vedette serve` until the process is stopped.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let session = session::Session::open(&args.table)?;
    let listener = std::net::TcpListener::bind((args.host.as_str(), args.port)).map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AddrInUse {
            " (another program uses it: choose another with --port, or --port 0 for a free one)"
        } else {
            ""
        };
        CliError::Usage(format!("cannot listen on {}:{}: {e}{hint}", args.host, args.port))
    })?;
    let io = |e: std::io::Error| CliError::Usage(format!("cannot serve: {e}"));
    listener.set_nonblocking(true).map_err(io)?;
    let address = listener.local_addr().map_err(io)?;
    let state = Arc::new(Mutex::new(session));
    let app = routes::router(state, routes::allowed_hosts(address));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_io().build().map_err(io)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(io)?;
        super::emit(out, &format!("vedette serve: http://{address}/ (Ctrl-C to stop)\n"))?;
        out.flush().map_err(|source| CliError::Write { path: "standard output".to_string(), source })?;
        axum::serve(listener, app).await.map_err(io)
    })
}
