//! Log messages for MCP clients (`logging/setLevel`).
//!
//! A `tracing` layer copies the crate's own log events into a broadcast feed; each
//! MCP session that asked for logs forwards the events at or above its level as
//! `notifications/message`. When no session listens the layer costs one atomic
//! load per event. Only events of this crate are forwarded (never rmcp's own, which
//! would echo every notification we send, and never the `audit` target, which
//! carries other clients' arguments).

use std::fmt::Write as _;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Map, Value};
use tokio::sync::broadcast;
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::Context;

/// How many log events a slow session may fall behind before it skips some.
const FEED_CAPACITY: usize = 256;

/// The MCP logging severities, in increasing order (RFC 5424 names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ClientLevel {
    /// Debugging detail.
    Debug,
    /// Normal operation.
    Info,
    /// Normal but significant.
    Notice,
    /// Something unexpected that was handled.
    Warning,
    /// An operation failed.
    Error,
    /// Critical conditions.
    Critical,
    /// Act immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl ClientLevel {
    fn from_tracing(level: &Level) -> Self {
        match *level {
            Level::ERROR => ClientLevel::Error,
            Level::WARN => ClientLevel::Warning,
            Level::INFO => ClientLevel::Info,
            _ => ClientLevel::Debug,
        }
    }
}

/// One log event as a client receives it.
#[derive(Debug, Clone)]
pub struct ClientLog {
    /// Its place in the feed: a session forwards only events logged after it set
    /// its level, even if it reads them later.
    pub seq: u64,
    /// Its severity.
    pub level: ClientLevel,
    /// The module that logged it (the MCP `logger` field).
    pub logger: String,
    /// `{"message": ..., <fields>...}`.
    pub data: Value,
}

static SEQ: AtomicU64 = AtomicU64::new(0);

/// The sequence number of the latest event sent to the feed.
pub fn latest_seq() -> u64 {
    SEQ.load(Ordering::Acquire)
}

/// The process-wide feed of log events for clients.
pub fn feed() -> &'static broadcast::Sender<ClientLog> {
    static FEED: OnceLock<broadcast::Sender<ClientLog>> = OnceLock::new();
    FEED.get_or_init(|| broadcast::channel(FEED_CAPACITY).0)
}

/// The layer that fills [`feed`]; [`super::setup_logging`] installs it.
pub struct ClientLogLayer;

impl<S: Subscriber> tracing_subscriber::Layer<S> for ClientLogLayer {
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        let feed = feed();
        if feed.receiver_count() == 0 {
            return;
        }
        let meta = event.metadata();
        if !meta.target().starts_with("networks_mcp") {
            return;
        }
        let mut fields = JsonFields::default();
        event.record(&mut fields);
        let mut data = Map::new();
        data.insert("message".into(), Value::from(fields.message));
        data.extend(fields.fields);
        // No receiver is not an error: sessions come and go.
        let _ = feed.send(ClientLog {
            seq: SEQ.fetch_add(1, Ordering::AcqRel) + 1,
            level: ClientLevel::from_tracing(meta.level()),
            logger: meta.target().to_string(),
            data: Value::Object(data),
        });
    }
}

/// Collects an event's fields as JSON.
#[derive(Default)]
struct JsonFields {
    message: String,
    fields: Map<String, Value>,
}

impl Visit for JsonFields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.message, "{value:?}");
        } else {
            self.fields
                .insert(field.name().into(), Value::from(format!("{value:?}")));
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message.push_str(value);
        } else {
            self.fields.insert(field.name().into(), Value::from(value));
        }
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.fields.insert(field.name().into(), Value::from(value));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.fields.insert(field.name().into(), Value::from(value));
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        self.fields.insert(field.name().into(), Value::from(value));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.fields.insert(field.name().into(), Value::from(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::layer::SubscriberExt;

    #[test]
    fn events_of_this_crate_reach_the_feed_with_level_and_fields() {
        let mut rx = feed().subscribe();
        let subscriber = tracing_subscriber::registry().with(ClientLogLayer);
        tracing::subscriber::with_default(subscriber, || {
            tracing::warn!(target: "networks_mcp::test", nodes = 3, "something odd");
            tracing::warn!(target: "rmcp::service", "not ours");
            tracing::info!(target: "audit", "not for clients");
        });
        let log = rx.try_recv().expect("one event");
        assert_eq!(log.level, ClientLevel::Warning);
        assert_eq!(log.logger, "networks_mcp::test");
        assert_eq!(log.data["message"], "something odd");
        assert_eq!(log.data["nodes"], 3);
        assert!(rx.try_recv().is_err(), "other targets are not forwarded");
    }
}
