//! Notifications to clients: resource changes and log messages.
//!
//! Every applied write publishes a [`Change`] on the server-wide feed. Sessions of
//! the 2025 protocol (with `initialize`) get a forwarding task when they are
//! initialised: it sends `notifications/resources/list_changed` when networks come
//! or go, `notifications/resources/updated` for the URIs the session subscribed to
//! (`resources/subscribe`), and `notifications/message` for log events at or above
//! the level the session set (`logging/setLevel`; off until it does). Clients of
//! protocol 2026-07-28 use `subscriptions/listen` instead, served by
//! [`NetworksServer::listen_changes`].

use std::collections::BTreeSet;

use parking_lot::Mutex;
#[allow(deprecated)] // MCP logging: see the note in `super`
use rmcp::model::LoggingLevel;
use rmcp::model::{ResourceUpdatedNotificationParam, SubscriptionFilter};
use rmcp::service::{NotificationContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer};
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;
use tracing::debug;

use super::NetworksServer;
use super::resources::{ResourceRef, parse_uri};
use crate::logging::client::{self as client_log, ClientLevel};

/// How many changes a slow session may fall behind before it is told "everything changed".
const FEED_CAPACITY: usize = 1024;

/// What changed in the registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A network's content (or existence) changed.
    Network(String),
    /// Tasks of a plan became ready to claim (published with the `Network`
    /// change of the same write).
    Ready(String),
    /// Networks were added or removed.
    List,
}

/// The server-wide feed of changes.
pub struct ChangeFeed(broadcast::Sender<Change>);

impl Default for ChangeFeed {
    fn default() -> Self {
        ChangeFeed(broadcast::channel(FEED_CAPACITY).0)
    }
}

impl ChangeFeed {
    /// Publishes a change; nobody listening is fine.
    pub fn publish(&self, change: Change) {
        let _ = self.0.send(change);
    }

    /// A new receiver of every later change.
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.0.subscribe()
    }
}

/// What one 2025-protocol session asked for.
pub struct Session {
    /// Changes since the session was created, so that a write the client makes
    /// before the forwarding task starts (its first call can overtake
    /// `notifications/initialized`) is still announced. Taken by the task.
    changes: Mutex<Option<broadcast::Receiver<Change>>>,
    subscriptions: Mutex<BTreeSet<String>>,
    /// The level asked for, and the feed position when it was asked.
    log_level: Mutex<Option<(ClientLevel, u64)>>,
}

impl Session {
    /// A new session, listening to `feed` from now on.
    pub fn new(feed: &ChangeFeed) -> Self {
        Session {
            changes: Mutex::new(Some(feed.subscribe())),
            subscriptions: Mutex::default(),
            log_level: Mutex::default(),
        }
    }

    /// Whether the client asked this session for nothing that a session made
    /// again would lack: no subscription, no log level.
    pub(crate) fn holds_nothing(&self) -> bool {
        self.subscriptions.lock().is_empty() && self.log_level.lock().is_none()
    }

    /// The subscribed URIs that `change` touches.
    fn touched_by(&self, change: &Change) -> Vec<String> {
        touched(self.subscriptions.lock().iter(), change)
    }

    fn all_subscriptions(&self) -> Vec<String> {
        self.subscriptions.lock().iter().cloned().collect()
    }
}

/// The URIs among `uris` that `change` touches: a network's summary and exports
/// when its content changes, its ready resource when tasks become ready.
fn touched<'a>(uris: impl Iterator<Item = &'a String>, change: &Change) -> Vec<String> {
    let (name, ready) = match change {
        Change::Network(name) => (name, false),
        Change::Ready(name) => (name, true),
        Change::List => return Vec::new(),
    };
    uris.filter(|uri| {
        parse_uri(uri)
            .is_some_and(|r| r.network() == name && matches!(r, ResourceRef::Ready(_)) == ready)
    })
    .cloned()
    .collect()
}

#[allow(deprecated)] // logging is deprecated from protocol 2026-07-28 on, but 2025 clients use it
fn client_level(level: LoggingLevel) -> ClientLevel {
    match level {
        LoggingLevel::Debug => ClientLevel::Debug,
        LoggingLevel::Info => ClientLevel::Info,
        LoggingLevel::Notice => ClientLevel::Notice,
        LoggingLevel::Warning => ClientLevel::Warning,
        LoggingLevel::Error => ClientLevel::Error,
        LoggingLevel::Critical => ClientLevel::Critical,
        LoggingLevel::Alert => ClientLevel::Alert,
        LoggingLevel::Emergency => ClientLevel::Emergency,
    }
}

#[allow(deprecated)]
fn mcp_level(level: ClientLevel) -> LoggingLevel {
    match level {
        ClientLevel::Debug => LoggingLevel::Debug,
        ClientLevel::Info => LoggingLevel::Info,
        ClientLevel::Notice => LoggingLevel::Notice,
        ClientLevel::Warning => LoggingLevel::Warning,
        ClientLevel::Error => LoggingLevel::Error,
        ClientLevel::Critical => LoggingLevel::Critical,
        ClientLevel::Alert => LoggingLevel::Alert,
        ClientLevel::Emergency => LoggingLevel::Emergency,
    }
}

/// Checks that a subscription URI is one of ours.
pub fn check_subscribable(uri: &str) -> Result<(), ErrorData> {
    if parse_uri(uri).is_none() {
        return Err(ErrorData::invalid_params(
            format!(
                "cannot subscribe to '{uri}': only network://{{name}}, network://{{name}}/ready and network://{{name}}/export/{{format}} resources exist here."
            ),
            None,
        ));
    }
    Ok(())
}

impl NetworksServer {
    /// A receiver of every later applied change (for live views such as `/ui`).
    pub fn subscribe_changes(&self) -> broadcast::Receiver<Change> {
        self.inner.changes.subscribe()
    }

    /// `resources/subscribe` (2025 protocol).
    pub fn subscribe_uri(&self, uri: &str) -> Result<(), ErrorData> {
        check_subscribable(uri)?;
        self.session.subscriptions.lock().insert(uri.to_string());
        Ok(())
    }

    /// `resources/unsubscribe` (2025 protocol). Unsubscribing twice is fine.
    pub fn unsubscribe_uri(&self, uri: &str) {
        self.session.subscriptions.lock().remove(uri);
    }

    /// `logging/setLevel` (2025 protocol).
    #[allow(deprecated)] // LoggingLevel: see the note in `super`
    pub fn set_log_level(&self, level: LoggingLevel) {
        *self.session.log_level.lock() = Some((client_level(level), client_log::latest_seq()));
    }

    /// Starts the task that forwards changes and logs to a 2025-protocol session.
    /// It ends when it finds the session's connection gone, which it sees only
    /// when it sends: whoever knows the session ended sooner (an HTTP session
    /// parked or deleted) aborts it with the handle returned.
    pub(super) fn start_forwarding(
        &self,
        context: NotificationContext<RoleServer>,
    ) -> Option<tokio::task::AbortHandle> {
        let peer = context.peer;
        let session = self.session.clone();
        // None: already forwarding for this session.
        let mut changes = session.changes.lock().take()?;
        let mut logs = client_log::feed().subscribe();
        // The task waits far longer than it sends: what it keeps between two
        // events (two receivers, the peer, the session) is all an idle session
        // pays, and each sending is boxed, so that its state is not part of the
        // task's (2,176 bytes a session before, 512 after; see
        // `examples/session_memory.rs`).
        let task = tokio::spawn(async move {
            loop {
                let event = tokio::select! {
                    change = changes.recv() => match change {
                        Err(RecvError::Closed) => break,
                        change => Forward::Change(change),
                    },
                    log = logs.recv() => match log {
                        Ok(log) => Forward::Log(log),
                        Err(RecvError::Lagged(_)) => continue,
                        Err(RecvError::Closed) => break,
                    },
                };
                let sent = Box::pin(forward(&peer, &session, event)).await;
                if sent.is_err() || peer.is_transport_closed() {
                    debug!("session gone; notification forwarding stopped");
                    break;
                }
            }
        });
        Some(task.abort_handle())
    }

    /// The part of a `subscriptions/listen` filter this server honours: resource
    /// list changes and `network://` resource subscriptions.
    pub fn accepted_filter(requested: &SubscriptionFilter) -> SubscriptionFilter {
        let mut accepted = SubscriptionFilter::new();
        accepted.resources_list_changed = requested.resources_list_changed;
        accepted.resource_subscriptions = requested.resource_subscriptions.as_ref().map(|uris| {
            uris.iter()
                .filter(|uri| parse_uri(uri).is_some())
                .cloned()
                .collect()
        });
        accepted
    }

    /// Serves one `subscriptions/listen` stream (protocol 2026-07-28) until the
    /// client cancels it.
    pub async fn listen_changes(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = self.inner.changes.subscribe();
        let accepted = context.accepted().clone();
        let list_changed = accepted.resources_list_changed == Some(true);
        let uris = accepted.resource_subscriptions.unwrap_or_default();
        loop {
            let change = tokio::select! {
                _ = context.cancelled() => return Ok(()),
                change = changes.recv() => change,
            };
            let sink = context.sink();
            let sent = match change {
                Ok(Change::List) if list_changed => sink.notify_resource_list_changed().await,
                Ok(Change::List) => Ok(()),
                Ok(change @ (Change::Network(_) | Change::Ready(_))) => {
                    let mut result = Ok(());
                    for uri in touched(uris.iter(), &change) {
                        result = result.and(sink.notify_resource_updated(uri).await);
                    }
                    result
                }
                Err(RecvError::Lagged(_)) => {
                    let mut result = Ok(());
                    if list_changed {
                        result = sink.notify_resource_list_changed().await;
                    }
                    for uri in &uris {
                        result = result.and(sink.notify_resource_updated(uri.clone()).await);
                    }
                    result
                }
                Err(RecvError::Closed) => return Ok(()),
            };
            if let Err(e) = sent {
                debug!(error = %e, "listen stream could not send; closing it");
                return Ok(());
            }
        }
    }
}

/// What the forwarding task of a 2025-protocol session received.
enum Forward {
    Change(Result<Change, RecvError>),
    Log(client_log::ClientLog),
}

/// Sends one received change or log event to the session, as it asked.
async fn forward(
    peer: &rmcp::Peer<RoleServer>,
    session: &Session,
    event: Forward,
) -> Result<(), rmcp::service::ServiceError> {
    match event {
        Forward::Change(Ok(Change::List)) => peer.notify_resource_list_changed().await,
        Forward::Change(Ok(change @ (Change::Network(_) | Change::Ready(_)))) => {
            send_updates(peer, session.touched_by(&change)).await
        }
        Forward::Change(Err(_)) => {
            // Missed some: say everything may have changed.
            peer.notify_resource_list_changed().await?;
            send_updates(peer, session.all_subscriptions()).await
        }
        Forward::Log(log) => {
            let wanted = *session.log_level.lock();
            match wanted {
                Some((min, since)) if log.level >= min && log.seq > since => {
                    #[allow(deprecated)]
                    let param = rmcp::model::LoggingMessageNotificationParam::new(
                        mcp_level(log.level),
                        log.data,
                    )
                    .with_logger(log.logger);
                    #[allow(deprecated)]
                    peer.notify_logging_message(param).await
                }
                _ => Ok(()),
            }
        }
    }
}

async fn send_updates(
    peer: &rmcp::Peer<RoleServer>,
    uris: Vec<String>,
) -> Result<(), rmcp::service::ServiceError> {
    for uri in uris {
        peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
            .await?;
    }
    Ok(())
}
