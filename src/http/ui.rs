//! The read-only web view at `/ui` (HTTP mode only).
//!
//! | path | what |
//! |---|---|
//! | `/ui` | the page ([`PAGE`]: our own HTML, JS and CSS, embedded; no third-party code) |
//! | `/ui/ui.js`, `/ui/ui.css` | its script and style (separate files, so the CSP forbids inline script) |
//! | `/ui/api/networks` | the networks with their counts |
//! | `/ui/api/graph?network=N[&focus=ID&scope=neighborhood\|ancestors\|descendants&depth=D][&status_attribute=A&done_value=V&claim_attribute=C&lease_attribute=L]` | a drawing ([`crate::view::model::GraphView`]), task states read from the named attributes (the work tools' defaults: `status`, `done`, `claimed_by`, `lease_expires_ms`) |
//! | `/ui/api/node?network=N&id=ID` | one node's data, attributes and degrees |
//! | `/ui/events[?network=N]` | server-sent events from the change feed: `network` (data: the name, JSON), `list`, `lagged`; at most `--max-ui-streams` at once, then 503 with `Retry-After` |
//!
//! Everything here reads; nothing writes. Access is checked by
//! [`super::security::ui_guard`] (token by header, `?token=` or cookie). Layouts are
//! computed on a blocking thread: a 5,000-node layout must not stall the runtime.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures::{Stream, StreamExt};
use serde::Serialize;
use serde_json::json;
use tokio::sync::Semaphore;
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

use super::security::query_param;
use crate::clock::{Clock, SystemClock};
use crate::error::Error;
use crate::mcp::NetworksServer;
use crate::mcp::notify::Change;
use crate::view::model::{self, Scope, StatusSpec, ViewRequest};

/// The page.
pub const PAGE: &str = include_str!("ui/index.html");
const SCRIPT: &str = include_str!("ui/ui.js");
const STYLE: &str = include_str!("ui/ui.css");

/// Largest `depth` of a neighbourhood view.
const MAX_DEPTH: usize = 10;

/// Only our own files, no inline script, no framing, requests to ourselves only.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// What the handlers share.
#[derive(Clone)]
struct UiState {
    server: NetworksServer,
    max_nodes: usize,
    /// Cancelled at shutdown: ends the event streams so connections can close.
    closing: CancellationToken,
    /// One permit per open `/ui/events` stream: each holds a connection for as long
    /// as the page is open, so they are capped below the connection cap.
    streams: Arc<Semaphore>,
}

/// The `/ui` routes. The caller layers the access guard on top.
pub fn router(
    server: NetworksServer,
    max_nodes: usize,
    max_streams: usize,
    closing: CancellationToken,
) -> Router {
    let state = UiState {
        server,
        max_nodes: max_nodes.max(1),
        closing,
        streams: Arc::new(Semaphore::new(max_streams.min(Semaphore::MAX_PERMITS))),
    };
    Router::new()
        .route("/ui", get(page))
        .route("/ui/", get(page))
        .route("/ui/ui.js", get(script))
        .route("/ui/ui.css", get(style))
        .route("/ui/api/networks", get(networks))
        .route("/ui/api/graph", get(graph))
        .route("/ui/api/node", get(node))
        .route("/ui/events", get(events))
        .with_state(state)
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

async fn page() -> Response {
    asset("text/html; charset=utf-8", PAGE)
}

async fn script() -> Response {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE)
}

fn json_response(status: StatusCode, body: &impl Serialize) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => (
            status,
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CACHE_CONTROL, "no-store"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            bytes,
        )
            .into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

fn error_response(error: &Error) -> Response {
    let status = match error.code() {
        "network_not_found" | "node_not_found" => StatusCode::NOT_FOUND,
        "internal" => StatusCode::INTERNAL_SERVER_ERROR,
        // Not the request's fault: the same request may be sent again later.
        "server_busy" | "deadline_exceeded" | "cancelled" => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::BAD_REQUEST,
    };
    json_response(status, &model::error_body(error))
}

fn bad_request(message: String) -> Response {
    json_response(
        StatusCode::BAD_REQUEST,
        &json!({"error": message, "code": "invalid_arguments"}),
    )
}

/// Runs a read (and any layout) on the compute pool's heavy lane, under a
/// call's deadline, stopped if the browser goes away: a layout of a large view
/// is work like any tool's, and must not take threads the pool does not count.
async fn blocking<T: Serialize + Send + 'static>(
    server: &NetworksServer,
    work: impl FnOnce() -> crate::Result<T> + Send + 'static,
) -> Response {
    match server.compute("the web view", work).await {
        Ok(value) => json_response(StatusCode::OK, &value),
        Err(error) => error_response(&error),
    }
}

async fn networks(State(state): State<UiState>) -> Response {
    let registry = state.server.registry().clone();
    blocking(&state.server, move || {
        Ok(json!({"networks": model::networks(&registry)}))
    })
    .await
}

async fn graph(State(state): State<UiState>, uri: Uri) -> Response {
    let query = uri.query().unwrap_or("");
    let Some(name) = query_param(query, "network") else {
        return bad_request("missing the 'network' query parameter".into());
    };
    let focus = query_param(query, "focus").filter(|f| !f.is_empty());
    let scope = match query_param(query, "scope") {
        None => Scope::Neighborhood,
        Some(s) => match Scope::parse(&s) {
            Some(scope) => scope,
            None => {
                return bad_request(format!(
                    "scope '{s}' is not one of neighborhood, ancestors, descendants"
                ));
            }
        },
    };
    let depth = match query_param(query, "depth").map(|d| d.parse::<usize>()) {
        None => 2,
        Some(Ok(d)) => d.min(MAX_DEPTH),
        Some(Err(_)) => return bad_request("depth must be a whole number".into()),
    };
    let request = ViewRequest {
        focus,
        scope,
        depth,
        max_nodes: state.max_nodes,
    };
    // Where tasks keep their state; an empty parameter means the default.
    let mut status = StatusSpec::default();
    for (param, field) in [
        ("status_attribute", &mut status.attribute),
        ("done_value", &mut status.done_value),
        ("claim_attribute", &mut status.claim_attribute),
        ("lease_attribute", &mut status.lease_attribute),
    ] {
        if let Some(value) = query_param(query, param).filter(|v| !v.is_empty()) {
            *field = value;
        }
    }
    let registry = state.server.registry().clone();
    let now = SystemClock.now_ms();
    blocking(&state.server, move || {
        model::graph_with_status(&registry, &name, &request, &status, now)
    })
    .await
}

async fn node(State(state): State<UiState>, uri: Uri) -> Response {
    let query = uri.query().unwrap_or("");
    let (Some(name), Some(id)) = (query_param(query, "network"), query_param(query, "id")) else {
        return bad_request("give the 'network' and 'id' query parameters".into());
    };
    let registry = state.server.registry().clone();
    blocking(&state.server, move || model::node(&registry, &name, &id)).await
}

/// The change feed as server-sent events. A `ready` event comes first, on every
/// (re)connection, so the page refetches whatever it may have missed while
/// disconnected. `network` events are filtered to `?network=` when given; `list`
/// and `lagged` (the stream fell behind: refetch everything) always pass.
async fn events(State(state): State<UiState>, uri: Uri) -> Response {
    let Ok(permit) = state.streams.clone().try_acquire_owned() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [
                (header::RETRY_AFTER, "5"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            "too many open /ui/events streams (see --max-ui-streams); retry later\n",
        )
            .into_response();
    };
    let filter = uri
        .query()
        .and_then(|q| query_param(q, "network"))
        .filter(|n| !n.is_empty());
    // The permit lives as long as the stream: it is released when the client goes.
    let stream =
        change_events(state.server.subscribe_changes(), filter, state.closing).map(move |event| {
            let _held = &permit;
            event
        });
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn change_events(
    changes: tokio::sync::broadcast::Receiver<Change>,
    filter: Option<String>,
    closing: CancellationToken,
) -> impl Stream<Item = Result<Event, Infallible>> {
    let ready = Event::default()
        .event("ready")
        .data("{}")
        .retry(Duration::from_secs(2));
    futures::stream::unfold(
        (changes, filter, closing, Some(ready)),
        |(mut changes, filter, closing, first)| async move {
            if let Some(event) = first {
                return Some((Ok(event), (changes, filter, closing, None)));
            }
            loop {
                let change = tokio::select! {
                    _ = closing.cancelled() => return None,
                    change = changes.recv() => change,
                };
                let event = match change {
                    Ok(Change::Network(name)) => {
                        if filter.as_ref().is_some_and(|f| *f != name) {
                            continue;
                        }
                        let data = serde_json::to_string(&name).unwrap_or_default();
                        Event::default().event("network").data(data)
                    }
                    Ok(Change::List) => Event::default().event("list").data("{}"),
                    // The view follows content; a `Network` change came with it.
                    Ok(Change::Ready(_)) => continue,
                    Err(RecvError::Lagged(_)) => Event::default().event("lagged").data("{}"),
                    Err(RecvError::Closed) => return None,
                };
                return Some((Ok(event), (changes, filter, closing, None)));
            }
        },
    )
}
