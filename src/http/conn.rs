//! The accept loop: every HTTP connection is served here, under three bounds that
//! `axum::serve` does not have.
//!
//! - **Header timeout**: from the first byte of a request until its whole head has
//!   arrived. A client that trickles a header a byte at a time is dropped.
//! - **Idle timeout**: a connection with no request in flight and no byte of a new
//!   one is closed after this long (keep-alive connections, and connections that
//!   never send anything).
//! - **Body stall**: a request whose body stops arriving for a header timeout is
//!   dropped, so a half-sent body does not hold a connection either.
//! - **Connection cap**: at `max_connections`, a new connection closes the oldest
//!   one with no request in flight (idle, or still sending its head); if every
//!   connection has a request in flight, the new one is answered 503 with
//!   `Retry-After` and closed. The loop never stops accepting, so `/healthz` gets
//!   through a flood of slow clients.
//!
//! hyper's own header timer is not used: since hyper 1.4 it also runs while a
//! keep-alive connection waits for its next request, so it cannot be set apart from
//! the idle timeout. Instead each connection's state is kept in atomics (updated
//! by the socket's reads and by the request's start and end), and one reaper task
//! checks the deadlines a few times per timeout.

use std::collections::HashMap;
use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderValue, Request, Response, StatusCode, header};
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper::service::Service;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use parking_lot::Mutex;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tracing::{debug, warn};

/// The default cap on open HTTP connections: under half of the common soft limit of
/// 1,024 file descriptors, so that the journal, the snapshot, the log files and a
/// burst of connections accepted only to be refused still find descriptors.
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;
/// The default time a client gets to send a request's head (and the longest pause
/// in a request body).
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The default time a connection may wait with no request.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// The answer to a connection refused at the cap: written once, without reading
/// the request, then the socket is closed.
const REFUSED: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 71\r\nConnection: close\r\n\r\nnetworks-mcp: too many connections with requests in flight; retry soon\n";

/// How the connections are bounded.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConnLimits {
    pub max_connections: usize,
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
}

impl ConnLimits {
    /// How often the reaper looks: a quarter of the shorter timeout, so a deadline
    /// is enforced at most 25% late, between 20 ms and 1 s.
    fn tick(&self) -> Duration {
        (self.header_timeout.min(self.idle_timeout) / 4)
            .clamp(Duration::from_millis(20), Duration::from_secs(1))
    }
}

/// Accepts and serves connections until `stop` is cancelled, then asks every
/// connection to finish its request and close (`graceful_shutdown`), and returns
/// once all have closed. `force` closes every connection at once (the end of the
/// shutdown timeout).
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    stop: CancellationToken,
    force: CancellationToken,
) {
    let table = Arc::new(Table::new(limits));
    let tasks = Arc::new(Tasks::default());
    let closing = CancellationToken::new();
    let reaper = tokio::spawn(reap(table.clone(), stop.clone()));
    let mut builder = http1::Builder::new();
    // Our reaper enforces the header timeout; hyper's would also cut idle keep-alive
    // connections at the header timeout (see the module docs).
    builder.header_read_timeout(None);
    loop {
        let tcp = tokio::select! {
            _ = stop.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((tcp, _peer)) => tcp,
                Err(e) => {
                    accept_failed(&e).await;
                    continue;
                }
            },
        };
        // Replies are small writes: without TCP_NODELAY, Nagle and delayed ACKs add ~40 ms.
        if let Err(e) = tcp.set_nodelay(true) {
            debug!(error = %e, "cannot set TCP_NODELAY");
        }
        let Some((id, state, close)) = table.admit(&force) else {
            refuse(tcp);
            continue;
        };
        let connection = Connection {
            id,
            tcp,
            state,
            close,
            table: table.clone(),
            app: app.clone(),
        };
        let task = tasks.enter();
        let (builder, closing) = (builder.clone(), closing.clone());
        tokio::spawn(async move {
            connection.run(builder, closing).await;
            drop(task);
        });
    }
    drop(listener);
    closing.cancel();
    tasks.all_done().await;
    reaper.abort();
}

/// Counts the connection tasks, so that shutdown can wait for the last one.
#[derive(Default)]
struct Tasks {
    running: AtomicUsize,
    done: Notify,
}

/// Held by a connection task until it ends (also if it panics).
struct TaskGuard(Arc<Tasks>);

impl Drop for TaskGuard {
    fn drop(&mut self) {
        if self.0.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.done.notify_waiters();
        }
    }
}

impl Tasks {
    fn enter(self: &Arc<Self>) -> TaskGuard {
        self.running.fetch_add(1, Ordering::AcqRel);
        TaskGuard(self.clone())
    }

    async fn all_done(&self) {
        loop {
            let notified = self.done.notified();
            if self.running.load(Ordering::Acquire) == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// An accept error is about one connection (reset before it was accepted) or about
/// this process (out of file descriptors): the loop goes on, after a pause in the
/// second case so it does not spin while descriptors are short.
async fn accept_failed(error: &io::Error) {
    use io::ErrorKind::*;
    if matches!(
        error.kind(),
        ConnectionAborted | ConnectionReset | ConnectionRefused | Interrupted | WouldBlock
    ) {
        return;
    }
    warn!(error = %error, "cannot accept a connection; retrying in 50 ms");
    tokio::time::sleep(Duration::from_millis(50)).await;
}

/// Refused connections that may linger at once (see [`refuse`]); past it a
/// refused connection is closed at once.
const MAX_LINGERING: usize = 256;
/// How long a refused connection lingers, reading what its client sends.
const LINGER: Duration = Duration::from_secs(2);
/// The most a lingering connection reads before it is closed anyway.
const LINGER_BYTES: usize = 64 * 1024;
static LINGERING: AtomicUsize = AtomicUsize::new(0);

/// Closes a connection at the cap with a 503 written straight to the fresh socket
/// (whose send buffer is empty, so the write does not block), then lingers: the
/// write side is shut and what the client sends is read and dropped for a
/// moment. A socket closed with unread bytes (a request sent right after
/// connecting) is reset, and a reset can discard the 503 before the client
/// reads it; lingering lets every refused client read its 503 and `Retry-After`.
fn refuse(tcp: TcpStream) {
    let _ = tcp.try_write(REFUSED);
    Table::note(&REFUSED_COUNT);
    if LINGERING.fetch_add(1, Ordering::AcqRel) >= MAX_LINGERING {
        LINGERING.fetch_sub(1, Ordering::AcqRel);
        return;
    }
    tokio::spawn(async move {
        linger(tcp).await;
        LINGERING.fetch_sub(1, Ordering::AcqRel);
    });
}

/// Shuts `tcp`'s write side and drops what arrives until the client closes,
/// [`LINGER`] passes or [`LINGER_BYTES`] came.
async fn linger(mut tcp: TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let _ = tcp.shutdown().await;
    let until = tokio::time::Instant::now() + LINGER;
    let mut buffer = [0u8; 4096];
    let mut read = 0;
    while read < LINGER_BYTES {
        match tokio::time::timeout_at(until, tcp.read(&mut buffer)).await {
            Ok(Ok(n)) if n > 0 => read += n,
            _ => return,
        }
    }
}

/// One connection's state, shared by its socket (reads), its requests (start and
/// end) and the reaper. Times are milliseconds since the table's epoch.
struct ConnState {
    epoch: Instant,
    /// Requests whose response has not been fully sent (hyper's HTTP/1 serves one
    /// at a time; a count keeps this right whatever the order of drops).
    in_flight: AtomicUsize,
    /// A byte of a new request arrived while no request was in flight.
    head_started: AtomicBool,
    /// A request body has not been read to its end yet.
    body_pending: AtomicBool,
    /// When the connection was accepted or last finished a request: the order in
    /// which connections are shed, and the start of the idle timeout.
    free_since: AtomicU64,
    /// When the first byte of the current request head arrived: the start of the
    /// header timeout.
    head_since: AtomicU64,
    /// When a byte last arrived.
    last_read: AtomicU64,
}

impl ConnState {
    fn new(epoch: Instant) -> Self {
        let now = elapsed_ms(epoch);
        ConnState {
            epoch,
            in_flight: AtomicUsize::new(0),
            head_started: AtomicBool::new(false),
            body_pending: AtomicBool::new(false),
            free_since: AtomicU64::new(now),
            head_since: AtomicU64::new(now),
            last_read: AtomicU64::new(now),
        }
    }

    fn now(&self) -> u64 {
        elapsed_ms(self.epoch)
    }

    fn read_some(&self) {
        let now = self.now();
        self.last_read.store(now, Ordering::Relaxed);
        if self.in_flight.load(Ordering::Acquire) == 0
            && !self.head_started.swap(true, Ordering::AcqRel)
        {
            self.head_since.store(now, Ordering::Relaxed);
        }
    }

    fn begin(self: &Arc<Self>) -> RequestGuard {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.head_started.store(false, Ordering::Release);
        RequestGuard(self.clone())
    }

    /// Whether the connection can be closed without cutting a request short.
    fn sheddable(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0
    }

    /// Why the connection is past a deadline, if it is.
    fn expired(&self, limits: &ConnLimits, now: u64) -> Option<&'static str> {
        let past = |from: &AtomicU64, limit: Duration| {
            now.saturating_sub(from.load(Ordering::Relaxed)) > limit.as_millis() as u64
        };
        if !self.sheddable() {
            (self.body_pending.load(Ordering::Acquire)
                && past(&self.last_read, limits.header_timeout))
            .then_some("request body stalled")
        } else if self.head_started.load(Ordering::Acquire) {
            past(&self.head_since, limits.header_timeout).then_some("request head too slow")
        } else {
            past(&self.free_since, limits.idle_timeout).then_some("idle")
        }
    }
}

fn elapsed_ms(epoch: Instant) -> u64 {
    u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Held from a request's start until its response body has been sent (or dropped).
struct RequestGuard(Arc<ConnState>);

impl Drop for RequestGuard {
    fn drop(&mut self) {
        let state = &self.0;
        state.body_pending.store(false, Ordering::Release);
        state.free_since.store(state.now(), Ordering::Relaxed);
        state.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The open connections.
struct Table {
    limits: ConnLimits,
    epoch: Instant,
    inner: Mutex<TableInner>,
}

#[derive(Default)]
struct TableInner {
    next_id: u64,
    open: HashMap<u64, (Arc<ConnState>, CancellationToken)>,
}

/// Connections closed since the last summary line, by cause.
static SHED_COUNT: AtomicU64 = AtomicU64::new(0);
static REFUSED_COUNT: AtomicU64 = AtomicU64::new(0);
static TIMED_OUT_COUNT: AtomicU64 = AtomicU64::new(0);

impl Table {
    fn new(limits: ConnLimits) -> Self {
        Table {
            limits,
            epoch: Instant::now(),
            inner: Mutex::new(TableInner::default()),
        }
    }

    fn note(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Registers a new connection, first closing the oldest one without a request in
    /// flight when the table is full. `None`: full, and every connection is busy.
    fn admit(&self, force: &CancellationToken) -> Option<(u64, Arc<ConnState>, CancellationToken)> {
        let mut inner = self.inner.lock();
        if inner.open.len() >= self.limits.max_connections {
            let oldest = inner
                .open
                .iter()
                .filter(|(_, (state, _))| state.sheddable())
                .min_by_key(|(id, (state, _))| (state.free_since.load(Ordering::Relaxed), **id))
                .map(|(id, _)| *id)?;
            if let Some((_, close)) = inner.open.remove(&oldest) {
                close.cancel();
                Self::note(&SHED_COUNT);
            }
        }
        let id = inner.next_id;
        inner.next_id += 1;
        let state = Arc::new(ConnState::new(self.epoch));
        let close = force.child_token();
        inner.open.insert(id, (state.clone(), close.clone()));
        Some((id, state, close))
    }

    fn remove(&self, id: u64) {
        self.inner.lock().open.remove(&id);
    }

    /// Closes the connections past a deadline.
    fn expire(&self) {
        let now = elapsed_ms(self.epoch);
        let mut inner = self.inner.lock();
        inner.open.retain(
            |id, (state, close)| match state.expired(&self.limits, now) {
                Some(why) => {
                    debug!(connection = id, why, "closing an HTTP connection");
                    close.cancel();
                    Self::note(&TIMED_OUT_COUNT);
                    false
                }
                None => true,
            },
        );
    }
}

/// Enforces the deadlines, and logs what was closed at most every 10 s (a flood of
/// slow clients must not become a flood of log lines).
async fn reap(table: Arc<Table>, stop: CancellationToken) {
    let mut ticks = tokio::time::interval(table.limits.tick());
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_summary = Instant::now();
    loop {
        ticks.tick().await;
        table.expire();
        if last_summary.elapsed() >= Duration::from_secs(10) || stop.is_cancelled() {
            last_summary = Instant::now();
            let shed = SHED_COUNT.swap(0, Ordering::Relaxed);
            let refused = REFUSED_COUNT.swap(0, Ordering::Relaxed);
            let timed_out = TIMED_OUT_COUNT.swap(0, Ordering::Relaxed);
            if shed + refused > 0 {
                warn!(
                    shed,
                    refused,
                    timed_out,
                    max_connections = table.limits.max_connections,
                    "HTTP connection cap reached: closed the oldest idle connections (shed) and refused new ones with 503 while all were busy (see --max-connections)"
                );
            } else if timed_out > 0 {
                debug!(timed_out, "closed HTTP connections past their timeouts");
            }
        }
    }
}

/// One accepted connection.
struct Connection {
    id: u64,
    tcp: TcpStream,
    state: Arc<ConnState>,
    close: CancellationToken,
    table: Arc<Table>,
    app: Router,
}

impl Connection {
    /// Serves the connection until it ends, is closed by the reaper or the cap
    /// (`close`), or, once `closing` (shutdown) is cancelled, has finished its request.
    async fn run(self, builder: http1::Builder, closing: CancellationToken) {
        let Connection {
            id,
            tcp,
            state,
            close,
            table,
            app,
        } = self;
        let service = Tracked {
            inner: TowerToHyperService::new(app),
            state: state.clone(),
        };
        let io = TokioIo::new(Watched { inner: tcp, state });
        let connection = builder.serve_connection(io, service);
        tokio::pin!(connection);
        let mut draining = false;
        loop {
            tokio::select! {
                ended = connection.as_mut() => {
                    if let Err(e) = ended {
                        debug!(connection = id, error = %e, "HTTP connection ended with an error");
                    }
                    break;
                }
                // Dropping the connection closes the socket.
                _ = close.cancelled() => break,
                _ = closing.cancelled(), if !draining => {
                    draining = true;
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
        table.remove(id);
    }
}

/// The socket, noting every read in the connection's state.
struct Watched {
    inner: TcpStream,
    state: Arc<ConnState>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.state.read_some();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The application, with each request marked in flight from its start until its
/// response body has been sent.
struct Tracked {
    inner: TowerToHyperService<Router>,
    state: Arc<ConnState>,
}

impl Service<Request<Incoming>> for Tracked {
    type Response = Response<TrackedBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        let guard = self.state.begin();
        let pending = !hyper::body::Body::is_end_stream(request.body());
        self.state.body_pending.store(pending, Ordering::Release);
        let request = request.map(|body| RequestBody {
            inner: body,
            state: self.state.clone(),
        });
        let responding = self.inner.call(request);
        Box::pin(async move {
            let mut response = responding.await?;
            // A client without the token gets nothing more from this connection:
            // it is not kept alive for another try.
            if response.status() == StatusCode::UNAUTHORIZED {
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            Ok(response.map(|body| TrackedBody {
                inner: body,
                _guard: guard,
            }))
        })
    }
}

/// A request body that notes its end: until then the connection is subject to the
/// body-stall timeout.
struct RequestBody {
    inner: Incoming,
    state: Arc<ConnState>,
}

impl hyper::body::Body for RequestBody {
    type Data = <Incoming as hyper::body::Body>::Data;
    type Error = <Incoming as hyper::body::Body>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if matches!(polled, Poll::Ready(None) | Poll::Ready(Some(Err(_))))
            || self.inner.is_end_stream()
        {
            self.state.body_pending.store(false, Ordering::Release);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for RequestBody {
    fn drop(&mut self) {
        self.state.body_pending.store(false, Ordering::Release);
    }
}

/// A response body that keeps its request in flight until it is sent or dropped.
pub(crate) struct TrackedBody {
    inner: Body,
    _guard: RequestGuard,
}

impl hyper::body::Body for TrackedBody {
    type Data = <Body as hyper::body::Body>::Data;
    type Error = <Body as hyper::body::Body>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
