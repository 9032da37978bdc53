//! The server's connections (issue 41 item 4): at most [`Limits::max_connections`]
//! open at once (one more is answered 503 and closed), a connection closed when its
//! request's header has not arrived [`Limits::idle`] after it opened or after its last
//! answer (idle and half-sent alike), and a request body that stops arriving for that
//! long, or takes more than [`BODY_DEADLINE`] in all, refused (408) and its connection
//! closed. Each request carries its connection's two ends ([`Connection`]) for the
//! access checks of [`super::routes`].

use axum::Router;
use axum::body::Bytes;
use axum::http::Request;
use http_body::{Body, Frame, SizeHint};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::AsyncWriteExt;

/// The longest a request body may take in all, however steadily it arrives: a 64 MiB
/// photo at about 110 kB/s.
pub const BODY_DEADLINE: Duration = Duration::from_secs(600);

/// The default time a connection may stay idle or half-sent, seconds.
pub const DEFAULT_IDLE_S: f64 = 20.0;

/// The default number of connections open at once.
pub const DEFAULT_MAX_CONNECTIONS: usize = 64;

/// How long connections may wait and how many may be open.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// A connection with no request header complete this long after it opened or after
    /// its last answer is closed; a request body that sends nothing for this long too.
    pub idle: Duration,
    /// The most connections open at once.
    pub max_connections: usize,
}

/// The two ends of the connection a request came on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Connection {
    /// The other end: who sent the request.
    pub peer: SocketAddr,
    /// This end: the address of this machine the request reached.
    pub local: SocketAddr,
}

/// Serves `app` on `listener` until the process stops.
pub async fn serve(listener: tokio::net::TcpListener, app: Router, limits: Limits) -> std::io::Result<()> {
    let open = Arc::new(AtomicUsize::new(0));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(limits.idle).keep_alive(true);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, or a connection reset before it was taken:
                // wait a moment rather than spin.
                eprintln!("vedette serve: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        if open.fetch_add(1, Ordering::SeqCst) >= limits.max_connections {
            open.fetch_sub(1, Ordering::SeqCst);
            tokio::spawn(refuse(stream, limits.max_connections));
            continue;
        }
        let Ok(local) = stream.local_addr() else {
            open.fetch_sub(1, Ordering::SeqCst);
            continue;
        };
        let connection = Connection { peer, local };
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
            request.extensions_mut().insert(connection);
            let request = request.map(|body| axum::body::Body::new(Guarded::new(body, limits.idle)));
            let mut app = app.clone();
            async move { tower_service::Service::call(&mut app, request).await }
        });
        let serving = http.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
        let open = Arc::clone(&open);
        tokio::spawn(async move {
            // A connection ends in an error when its peer goes or times out: nothing to
            // tell anyone.
            let _ = serving.await;
            open.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

/// Answers a connection beyond the cap with 503 and closes it.
async fn refuse(mut stream: tokio::net::TcpStream, max: usize) {
    let body = format!(
        "{{\"error\":\"the server has {max} connections open, its most (--max-connections): try again in a moment\"}}"
    );
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 2\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), stream.write_all(answer.as_bytes())).await;
    let _ = stream.shutdown().await;
}

/// Why a request body was given up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyTimeout {
    /// Nothing arrived for this long.
    pub idle: Option<Duration>,
}

impl std::fmt::Display for BodyTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.idle {
            Some(d) => write!(f, "the request body stopped arriving ({} s without a byte)", d.as_secs_f64()),
            None => write!(f, "the request body took more than {} s to arrive", BODY_DEADLINE.as_secs()),
        }
    }
}

impl std::error::Error for BodyTimeout {}

/// A request body that fails with [`BodyTimeout`] when nothing arrives for `idle`, or
/// when all of it has not arrived [`BODY_DEADLINE`] after it began.
pub struct Guarded<B> {
    inner: B,
    idle: Duration,
    quiet: Pin<Box<tokio::time::Sleep>>,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl<B> Guarded<B> {
    /// `inner`, guarded.
    pub fn new(inner: B, idle: Duration) -> Guarded<B> {
        Guarded {
            inner,
            idle,
            quiet: Box::pin(tokio::time::sleep(idle)),
            deadline: Box::pin(tokio::time::sleep(BODY_DEADLINE)),
        }
    }
}

impl<B> Body for Guarded<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(frame) => {
                let next = tokio::time::Instant::now() + this.idle;
                this.quiet.as_mut().reset(next);
                Poll::Ready(frame.map(|f| f.map_err(Into::into)))
            }
            Poll::Pending => {
                if this.quiet.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Some(Err(Box::new(BodyTimeout { idle: Some(this.idle) }))));
                }
                if this.deadline.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Some(Err(Box::new(BodyTimeout { idle: None }))));
                }
                Poll::Pending
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
