//! MCP over streamable HTTP (`--http ADDR`), with the operations endpoints beside it.
//!
//! | path | what | guarded |
//! |---|---|---|
//! | `/mcp` | rmcp's streamable HTTP transport; one [`NetworksServer`] clone per session, all sharing one registry | Host/Origin, token, body limit |
//! | `/metrics` | Prometheus text (`metrics.rs`) | Host/Origin, token |
//! | `/ui`, `/ui/...` | the read-only web view (`ui.rs`) | Host/Origin, token by header, `?token=` or cookie (`security::ui_guard`) |
//! | `/healthz` | liveness: `200 ok` while the process serves | no |
//! | `/readyz` | `200 ready` once the caller's readiness flag is set, `503` before and during shutdown | no |
//!
//! Connections (`conn.rs`): a request's head must arrive within `--http-header-timeout`,
//! a connection with no request is closed after `--http-idle-timeout`, and at most
//! `--max-connections` are open (at the cap the oldest without a request in flight
//! is closed; if all are busy, the newest gets 503). `/ui/events` streams are capped
//! by `--max-ui-streams`.
//!
//! Shutdown ([`HttpServer::serve`]): when the `shutdown` future resolves, the listener
//! stops accepting, `/readyz` turns 503, in-flight POSTs get until the timeout to
//! finish, then the MCP sessions (and their SSE streams) are closed and `serve`
//! returns `Ok(())`. The caller runs its own shutdown work (flushing a journal) after
//! that, and exits 0.

pub mod args;
mod conn;
mod frames;
pub(crate) mod metrics;
mod parking;
pub(crate) mod security;
pub(crate) mod ui;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures::StreamExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

pub use args::HttpArgs;
use security::AccessPolicy;

use crate::mcp::{NetworksServer, ReplyConnection};

/// The environment variable holding the bearer token.
pub const AUTH_TOKEN_ENV: &str = "NETWORKS_MCP_AUTH_TOKEN";

/// The default request body limit: 16 MiB, room for large batches.
pub const DEFAULT_MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// How the HTTP server is set up.
#[derive(Clone)]
pub struct HttpOptions {
    /// `host:port` to listen on (a name is resolved; port 0 picks a free port).
    pub addr: String,
    /// The bearer token `/mcp` and `/metrics` require, if any.
    pub auth_token: Option<String>,
    /// Allow a non-loopback address without a token.
    pub insecure_no_auth: bool,
    /// Extra allowed `Host` values (see `AccessPolicy::new`).
    pub allowed_hosts: Vec<String>,
    /// Extra allowed `Origin` values (see `AccessPolicy::new`).
    pub allowed_origins: Vec<String>,
    /// Largest accepted request body.
    pub max_body_bytes: usize,
    /// How long in-flight requests get to finish after the shutdown signal.
    pub shutdown_timeout: Duration,
    /// The web view draws at most this many nodes at once; a bigger network gets a
    /// summary and the neighbourhood of a searched node.
    pub ui_max_nodes: usize,
    /// The most MCP sessions open at once; a new one beyond it gets 503 and
    /// `Retry-After`.
    pub max_sessions: usize,
    /// A session with no request for this long is closed.
    pub session_idle_timeout: Duration,
    /// The most HTTP connections open at once (see `conn.rs`).
    pub max_connections: usize,
    /// The time a client gets to send a request's head, and the longest pause in a
    /// request body.
    pub header_timeout: Duration,
    /// A connection with no request for this long is closed.
    pub idle_timeout: Duration,
    /// The most `/ui/events` streams open at once; one more gets 503 and `Retry-After`.
    pub max_ui_streams: usize,
}

pub use conn::{DEFAULT_HEADER_TIMEOUT, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS};
/// The default cap on `/ui/events` streams: a browser tab holds one, so far more
/// than the people watching one server, and few enough that the streams fill an
/// eighth of the default connection cap.
pub const DEFAULT_MAX_UI_STREAMS: usize = 64;

/// The default cap on MCP sessions, live or parked: far more than the agents of
/// one host open. A live session holds about 125 KB, most of it rmcp's; an idle
/// one is parked at about 5 KB (`parking.rs`; BENCHMARKS.md, "Idle HTTP
/// sessions").
pub const DEFAULT_MAX_SESSIONS: usize = 1_000;
/// The default idle time after which a session is closed.
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(300);

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            addr: "127.0.0.1:8080".into(),
            auth_token: None,
            insecure_no_auth: false,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            shutdown_timeout: Duration::from_secs(10),
            ui_max_nodes: crate::view::model::DEFAULT_MAX_NODES,
            max_sessions: DEFAULT_MAX_SESSIONS,
            session_idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_ui_streams: DEFAULT_MAX_UI_STREAMS,
        }
    }
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("addr", &self.addr)
            .field(
                "auth_token",
                &self.auth_token.as_ref().map(|_| "<redacted>"),
            )
            .field("insecure_no_auth", &self.insecure_no_auth)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("shutdown_timeout", &self.shutdown_timeout)
            .field("ui_max_nodes", &self.ui_max_nodes)
            .field("max_sessions", &self.max_sessions)
            .field("session_idle_timeout", &self.session_idle_timeout)
            .field("max_connections", &self.max_connections)
            .field("header_timeout", &self.header_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .field("max_ui_streams", &self.max_ui_streams)
            .finish()
    }
}

/// Why the HTTP server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// The settings are unusable (refused bind, unreadable token file...): exit 2.
    #[error("{0}")]
    Config(String),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The server failed while running.
    #[error("HTTP server failed: {0}")]
    Serve(std::io::Error),
}

/// A bound, not yet serving, HTTP server.
pub struct HttpServer {
    listener: TcpListener,
    local_addr: SocketAddr,
    options: HttpOptions,
    policy: Arc<AccessPolicy>,
}

impl HttpServer {
    /// Resolves and binds the address, applying the bind policy: a non-loopback
    /// address needs a token, or `insecure_no_auth` (then a warning is logged).
    pub async fn bind(options: HttpOptions) -> Result<Self, HttpError> {
        let addrs: Vec<SocketAddr> = tokio::net::lookup_host(options.addr.as_str())
            .await
            .map_err(|e| {
                HttpError::Config(format!(
                    "--http {}: not a host:port address ({e})",
                    options.addr
                ))
            })?
            .collect();
        if addrs.is_empty() {
            return Err(HttpError::Config(format!(
                "--http {}: resolves to no address",
                options.addr
            )));
        }
        let loopback = addrs.iter().all(|a| a.ip().is_loopback());
        if !loopback && options.auth_token.is_none() {
            if !options.insecure_no_auth {
                return Err(HttpError::Config(format!(
                    "refusing to serve {} without authentication: it is not a loopback address. Set a token ({AUTH_TOKEN_ENV} or --auth-token-file), bind 127.0.0.1, or pass --insecure-no-auth",
                    options.addr
                )));
            }
            warn!(
                addr = %options.addr,
                "serving a non-loopback address WITHOUT authentication (--insecure-no-auth): anyone who reaches this port can read and change every network"
            );
        }
        let listener = TcpListener::bind(&addrs[..])
            .await
            .map_err(|source| HttpError::Bind {
                addr: options.addr.clone(),
                source,
            })?;
        let local_addr = listener.local_addr().map_err(|source| HttpError::Bind {
            addr: options.addr.clone(),
            source,
        })?;
        let policy = AccessPolicy::new(
            local_addr,
            options.auth_token.clone(),
            &options.allowed_hosts,
            &options.allowed_origins,
        )
        .map_err(HttpError::Config)?;
        Ok(HttpServer {
            listener,
            local_addr,
            options,
            policy: Arc::new(policy),
        })
    }

    /// The address actually bound (the real port when port 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Serves until `shutdown` resolves, then drains (see the module docs) and
    /// returns. `ready` backs `/readyz`: the caller sets it once startup (loading or
    /// recovering the registry) is complete; it is cleared when shutdown starts.
    pub async fn serve<F>(
        self,
        server: NetworksServer,
        ready: Arc<AtomicBool>,
        shutdown: F,
    ) -> Result<(), HttpError>
    where
        F: Future + Send,
        F::Output: std::fmt::Display,
    {
        let HttpServer {
            listener,
            local_addr,
            options,
            policy,
        } = self;
        let sessions_cancel = CancellationToken::new();
        let in_flight = Arc::new(InFlight::default());
        let app = Routes {
            server: &server,
            options: &options,
            policy: &policy,
            ready: &ready,
            sessions_cancel: &sessions_cancel,
            in_flight: &in_flight,
        }
        .router();

        let stop_accepting = CancellationToken::new();
        let force_close = CancellationToken::new();
        let limits = conn::ConnLimits {
            max_connections: options.max_connections,
            header_timeout: options.header_timeout,
            idle_timeout: options.idle_timeout,
        };
        let mut serving = tokio::spawn(conn::serve(
            listener,
            app,
            limits,
            stop_accepting.clone(),
            force_close.clone(),
        ));
        announce(local_addr, &policy);

        tokio::select! {
            result = &mut serving => {
                // The accept loop only ends when told to, so this is a panic in it.
                sessions_cancel.cancel();
                force_close.cancel();
                return match result {
                    Ok(()) => Ok(()),
                    Err(e) => Err(HttpError::Serve(std::io::Error::other(e))),
                };
            }
            signal = shutdown => {
                info!(%signal, in_flight = in_flight.count(), "shutting down: accepting no new requests, finishing in-flight ones");
            }
        }
        ready.store(false, Ordering::Release);
        stop_accepting.cancel();
        drain(
            &options,
            &in_flight,
            &sessions_cancel,
            &force_close,
            serving,
        )
        .await;
        info!("HTTP server stopped");
        Ok(())
    }
}

/// What the HTTP application is built from.
struct Routes<'a> {
    server: &'a NetworksServer,
    options: &'a HttpOptions,
    policy: &'a Arc<AccessPolicy>,
    ready: &'a Arc<AtomicBool>,
    sessions_cancel: &'a CancellationToken,
    in_flight: &'a Arc<InFlight>,
}

impl Routes<'_> {
    /// `/mcp`, `/metrics`, `/healthz`, `/readyz` and the web view, each behind its
    /// guards. Apart from the listener, so that the whole application can be
    /// driven in-process.
    fn router(self) -> Router {
        let Routes {
            server,
            options,
            policy,
            ready,
            sessions_cancel,
            in_flight,
        } = self;
        // Host and Origin are checked by `policy` for /mcp and /metrics alike.
        let config = StreamableHttpServerConfig::default()
            .with_cancellation_token(sessions_cancel.clone())
            .disable_allowed_hosts()
            .disable_allowed_origins()
            .with_max_request_body_bytes(options.max_body_bytes);
        let session_server = server.clone();
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = Some(options.session_idle_timeout);
        let sessions = Arc::new(sessions);
        let book = Arc::new(parking::SessionBook::new(server.clone()));
        let mut config = config;
        config.session_store = Some(Arc::clone(&book) as _);
        if tokio::runtime::Handle::try_current().is_ok() {
            tokio::spawn(parking::run_parker(
                Arc::clone(&book),
                Arc::clone(&sessions),
                options.session_idle_timeout,
                sessions_cancel.clone(),
            ));
        }
        let session_cap = frames::SessionCap {
            manager: Arc::clone(&sessions),
            book,
            max_sessions: options.max_sessions,
            max_body_bytes: options.max_body_bytes,
        };
        let mcp =
            StreamableHttpService::new(move || Ok(session_server.for_session()), sessions, config);
        let prometheus = metrics::handle();
        let registry = server.registry().clone();
        let ready_probe = ready.clone();
        // The web view has its own guard (it also takes the token from a cookie), so
        // it is merged after the /mcp and /metrics guard layer, which does not wrap it.
        let web_view = ui::router(
            server.clone(),
            options.ui_max_nodes,
            options.max_ui_streams,
            sessions_cancel.clone(),
        )
        .layer(from_fn_with_state(ready.clone(), require_ready))
        .layer(from_fn_with_state(policy.clone(), security::ui_guard));

        Router::new()
            .route_service("/mcp", mcp)
            .layer(from_fn_with_state(session_cap, frames::guard))
            .layer(from_fn_with_state(ready.clone(), require_ready))
            .layer(from_fn_with_state(
                options.max_body_bytes,
                reject_large_bodies,
            ))
            .layer(from_fn_with_state(in_flight.clone(), track_in_flight))
            .route(
                "/metrics",
                get(move || {
                    let text = metrics::render(&prometheus, &registry);
                    async move {
                        (
                            [(
                                header::CONTENT_TYPE,
                                "text/plain; version=0.0.4; charset=utf-8",
                            )],
                            text,
                        )
                    }
                }),
            )
            .layer(from_fn_with_state(policy.clone(), security::guard))
            .merge(web_view)
            .route("/healthz", get(|| async { "ok\n" }))
            .route(
                "/readyz",
                get(move || {
                    let ready = ready_probe.load(Ordering::Acquire);
                    async move {
                        if ready {
                            (StatusCode::OK, "ready\n")
                        } else {
                            (StatusCode::SERVICE_UNAVAILABLE, "not ready\n")
                        }
                    }
                }),
            )
    }
}

/// Logs where the server listens.
fn announce(local_addr: SocketAddr, policy: &AccessPolicy) {
    info!(
        url = %format!("http://{local_addr}/mcp"),
        auth = if policy.requires_token() { "bearer token" } else { "none" },
        "serving MCP over streamable HTTP at http://{local_addr}/mcp"
    );
    info!(
        url = %format!("http://{local_addr}/ui"),
        "read-only web view at http://{local_addr}/ui{}",
        if policy.requires_token() { "?token=<token>" } else { "" }
    );
}

/// The end of a shutdown: in-flight requests get until the timeout, then the MCP
/// sessions are closed (their open SSE streams end) and the last connections get a
/// short grace before they are dropped.
async fn drain(
    options: &HttpOptions,
    in_flight: &InFlight,
    sessions_cancel: &CancellationToken,
    force_close: &CancellationToken,
    mut serving: tokio::task::JoinHandle<()>,
) {
    let deadline = tokio::time::Instant::now() + options.shutdown_timeout;
    if tokio::time::timeout_at(deadline, in_flight.idle())
        .await
        .is_err()
    {
        warn!(
            in_flight = in_flight.count(),
            timeout_secs = options.shutdown_timeout.as_secs_f64(),
            "requests still in flight at the shutdown timeout; dropping them"
        );
    }
    // Close the MCP sessions: their open SSE streams end, so connections can close.
    sessions_cancel.cancel();
    let grace = deadline.max(tokio::time::Instant::now() + Duration::from_secs(1));
    if tokio::time::timeout_at(grace, &mut serving).await.is_err() {
        warn!("connections still open after the shutdown timeout; closing them");
        force_close.cancel();
        // Closing drops each connection at once; the bound is only a safety net.
        if tokio::time::timeout(Duration::from_secs(1), &mut serving)
            .await
            .is_err()
        {
            serving.abort();
        }
    }
}

/// Binds and serves: [`HttpServer::bind`] then [`HttpServer::serve`].
pub async fn serve<F>(
    options: HttpOptions,
    server: NetworksServer,
    ready: Arc<AtomicBool>,
    shutdown: F,
) -> Result<(), HttpError>
where
    F: Future + Send,
    F::Output: std::fmt::Display,
{
    HttpServer::bind(options)
        .await?
        .serve(server, ready, shutdown)
        .await
}

/// Answers 413 at once to a request whose `Content-Length` is over the limit, before
/// any of the body is read. Chunked bodies without a length are counted while they
/// stream, by rmcp (`max_request_body_bytes`, same limit, also 413).
async fn reject_large_bodies(State(max): State<usize>, request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > max as u64) {
        warn!(
            content_length = declared,
            max_body_bytes = max,
            "refused an oversized request body"
        );
        return (
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("Payload Too Large: request body exceeds {max} bytes (see --max-body-bytes)\n"),
        )
            .into_response();
    }
    next.run(request).await
}

/// Counts POST requests whose response has not been fully sent.
#[derive(Default)]
struct InFlight {
    count: AtomicUsize,
    idle: Notify,
}

struct InFlightGuard(Arc<InFlight>);

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl InFlight {
    fn enter(self: &Arc<Self>) -> InFlightGuard {
        self.count.fetch_add(1, Ordering::AcqRel);
        InFlightGuard(self.clone())
    }

    fn count(&self) -> usize {
        self.count.load(Ordering::Acquire)
    }

    /// Resolves when no request is in flight.
    async fn idle(&self) {
        loop {
            let notified = self.idle.notified();
            if self.count() == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// Tracks POSTs to `/mcp` until their response body (possibly an SSE stream that
/// ends with the reply) has been sent. GETs (long-lived SSE streams) are not counted.
/// The same moment ends the request's [`ReplyConnection`]: a call whose reply's
/// connection closed before the reply stops.
async fn track_in_flight(
    State(in_flight): State<Arc<InFlight>>,
    mut request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let connection = CancellationToken::new();
    request
        .extensions_mut()
        .insert(ReplyConnection(connection.clone()));
    let guard = (in_flight.enter(), connection.drop_guard());
    let response = next.run(request).await;
    let (parts, body) = response.into_parts();
    let body = body.into_data_stream().map(move |chunk| {
        let _held = &guard;
        chunk
    });
    Response::from_parts(parts, Body::from_stream(body)).into_response()
}

/// Refuses MCP requests with 503 until startup (durable recovery) has finished, so
/// no client ever sees a half-recovered registry.
async fn require_ready(
    axum::extract::State(ready): axum::extract::State<Arc<AtomicBool>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if !ready.load(Ordering::Acquire) {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "1")],
            "networks-mcp is starting (recovering durable state); retry shortly\n",
        )
            .into_response();
    }
    next.run(request).await
}
