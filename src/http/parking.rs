//! Idle sessions parked: what an MCP session costs while its client is away.
//!
//! rmcp's session manager keeps, for every live session, a worker, a service
//! loop and six channels whose first blocks tokio allocates whole (about
//! 116 KB a session, BENCHMARKS.md "Idle HTTP sessions"). A session that holds
//! nothing of its own (no subscription, no log level, no toolset turned on, no
//! task: [`NetworksServer::session_is_plain`]) is fully described by its
//! `initialize` parameters, so while it is idle that is all that is kept:
//!
//! - Every session's `initialize` parameters are written into the
//!   [`SessionBook`] (rmcp's [`SessionStore`]), a few hundred bytes.
//! - A session with no request in flight and no stream open is *parked*: its
//!   worker is closed, its book entry kept. At most [`HOT_IDLE`] idle sessions
//!   stay live, the most recently used; any idle for [`PARK_AFTER`] is parked.
//! - The next request for a parked session restores it: rmcp makes a new worker
//!   with the same id and replays the `initialize` handshake from the book
//!   (rmcp's `restore_session`), then the request runs as if nothing happened.
//! - A session idle for `--session-idle-timeout` is forgotten, parked or not,
//!   and `HTTP DELETE` ends it at once, as before.
//!
//! A session with a stream open (a `GET` for server notifications) or a call
//! in flight is never parked, nor one that holds state of its own.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tracing::debug;

use crate::mcp::NetworksServer;

/// Idle sessions kept live beyond those in use, the most recently used: a
/// client between two calls does not pay a restore for the next.
pub(crate) const HOT_IDLE: usize = 16;

/// A session idle this long is parked whatever the count.
pub(crate) const PARK_AFTER: Duration = Duration::from_secs(30);

/// How often the parker looks without being woken.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// One session the server knows of, live or parked.
struct Entry {
    /// The `initialize` parameters as compact JSON, once the handshake was
    /// answered. A live session holds them too (as rmcp's peer information),
    /// so a parked one never costs more than it did live.
    params: Option<Box<[u8]>>,
    /// Requests and streams of the session open now.
    open: u32,
    /// When the last of them began or ended.
    last_active: Instant,
    /// The parker is closing its worker now: a request waits for it to end.
    parking: bool,
}

impl Entry {
    fn new(now: Instant) -> Entry {
        Entry {
            params: None,
            open: 0,
            last_active: now,
            parking: false,
        }
    }
}

/// Every session the server knows of, with what restores it and whether it is
/// in use (see the [module docs](self)).
pub(crate) struct SessionBook {
    entries: Mutex<HashMap<Arc<str>, Entry>>,
    /// Wakes the parker when a session was made.
    made: Notify,
    /// The server whose sessions these are: told when one ends.
    server: NetworksServer,
}

/// A request or stream of a session, open until dropped.
pub(crate) struct InUse {
    book: Arc<SessionBook>,
    id: Arc<str>,
}

impl Drop for InUse {
    fn drop(&mut self) {
        let mut entries = self.book.entries.lock();
        if let Some(entry) = entries.get_mut(&self.id) {
            entry.open = entry.open.saturating_sub(1);
            entry.last_active = Instant::now();
        }
    }
}

impl SessionBook {
    /// An empty book of `server`'s sessions.
    pub(crate) fn new(server: NetworksServer) -> SessionBook {
        SessionBook {
            entries: Mutex::default(),
            made: Notify::new(),
            server,
        }
    }

    /// How many sessions the server knows of, live or parked.
    pub(crate) fn len(&self) -> usize {
        self.entries.lock().len()
    }

    /// Marks a request or stream of session `id` open until the returned guard
    /// drops; waits while the parker is closing that session's worker, so the
    /// request then finds it parked and restores it. `None` for a session the
    /// book does not know (rmcp answers it).
    pub(crate) async fn open(self: &Arc<Self>, id: &str) -> Option<InUse> {
        loop {
            {
                let mut entries = self.entries.lock();
                let (key, entry) = entries.get_key_value(id)?;
                if !entry.parking {
                    let key = Arc::clone(key);
                    if let Some(entry) = entries.get_mut(id) {
                        entry.open += 1;
                        entry.last_active = Instant::now();
                    }
                    return Some(InUse {
                        book: Arc::clone(self),
                        id: key,
                    });
                }
            }
            // Closing a worker takes microseconds.
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// Records a session just made (its `initialize` answered), open for the
    /// time of `guard`'s life like any request, and wakes the parker.
    pub(crate) fn made(self: &Arc<Self>, id: &str) -> InUse {
        let id: Arc<str> = Arc::from(id);
        let mut entries = self.entries.lock();
        let entry = entries
            .entry(Arc::clone(&id))
            .or_insert_with(|| Entry::new(Instant::now()));
        entry.open += 1;
        drop(entries);
        self.made.notify_one();
        InUse {
            book: Arc::clone(self),
            id,
        }
    }
}

#[async_trait::async_trait]
impl SessionStore for SessionBook {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let params = match self.entries.lock().get(session_id) {
            Some(Entry {
                params: Some(params),
                ..
            }) => params.clone(),
            _ => return Ok(None),
        };
        let params = serde_json::from_slice(&params)?;
        Ok(Some(SessionState::new(params)))
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let params = serde_json::to_vec(&state.initialize_params)?.into_boxed_slice();
        let mut entries = self.entries.lock();
        let entry = entries
            .entry(Arc::from(session_id))
            .or_insert_with(|| Entry::new(Instant::now()));
        entry.params = Some(params);
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        self.entries.lock().remove(session_id);
        self.server.forget_session(session_id);
        Ok(())
    }
}

/// Parks idle sessions and forgets expired ones until `stop` fires (see the
/// [module docs](self)).
pub(crate) async fn run_parker(
    book: Arc<SessionBook>,
    manager: Arc<LocalSessionManager>,
    idle_timeout: Duration,
    stop: CancellationToken,
) {
    let server = &book.server;
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = book.made.notified() => {}
            _ = tokio::time::sleep(SWEEP_EVERY) => {}
        }
        let live: Vec<Arc<str>> = manager
            .sessions
            .read()
            .await
            .keys()
            .map(Arc::clone)
            .collect();
        for id in to_park(&book, &live, server, idle_timeout) {
            // A worker that already ended is nothing to close.
            manager.close_session(&id).await.ok();
            server.forget_session(&id);
            if let Some(entry) = book.entries.lock().get_mut(&id) {
                entry.parking = false;
            }
            debug!(session = %id, "idle session parked");
        }
        let known = book.len();
        metrics::gauge!("networks_mcp_http_sessions", "state" => "live").set(live.len() as f64);
        metrics::gauge!("networks_mcp_http_sessions", "state" => "parked")
            .set(known.saturating_sub(live.len()) as f64);
    }
}

/// Forgets the sessions idle past `idle_timeout`, and picks the live sessions
/// to park now, marking them `parking`.
fn to_park(
    book: &SessionBook,
    live: &[Arc<str>],
    server: &NetworksServer,
    idle_timeout: Duration,
) -> Vec<Arc<str>> {
    let now = Instant::now();
    // A set, not the list: the sweep stays linear in the sessions known.
    let is_live: HashSet<&str> = live.iter().map(|id| id.as_ref()).collect();
    let mut entries = book.entries.lock();
    entries.retain(|id, entry| {
        let expired = entry.open == 0 && now.duration_since(entry.last_active) >= idle_timeout;
        let forget = expired && !is_live.contains(id.as_ref());
        if forget {
            server.forget_session(id);
        }
        !forget
    });
    let mut idle: Vec<(Instant, Arc<str>)> = live
        .iter()
        .filter_map(|id| {
            let entry = entries.get(id)?;
            (entry.open == 0 && entry.params.is_some() && !entry.parking)
                .then(|| (entry.last_active, Arc::clone(id)))
        })
        .collect();
    // The most recently used first: those beyond HOT_IDLE, and any idle for
    // PARK_AFTER, are parked.
    idle.sort_unstable_by_key(|entry| std::cmp::Reverse(entry.0));
    let mut park = Vec::new();
    for (rank, (last_active, id)) in idle.into_iter().enumerate() {
        let due = rank >= HOT_IDLE || now.duration_since(last_active) >= PARK_AFTER;
        if due && server.session_is_plain(&id) {
            if let Some(entry) = entries.get_mut(&id) {
                entry.parking = true;
            }
            park.push(id);
        }
    }
    park
}
