//! What `/mcp` checks before rmcp reads a POST body, so that a malformed request
//! gets a JSON-RPC error, as over stdio, and a new session beyond the cap gets 503.
//!
//! rmcp answers a body it cannot decode with `415 Unsupported Media Type`, a
//! request whose id is an object or `null` with nothing useful, and `tools/call`
//! with array `arguments` with "method not found". Here: an unparsable body is
//! `400` with a parse error (-32700), a request with an id that is not a string or
//! number is `400` with "invalid request" (-32600), and a standard method whose
//! params have the wrong shape is `400` with "invalid params" (-32602).

use std::sync::Arc;
use std::time::Duration;

use axum::body::HttpBody;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use super::parking::{InUse, SessionBook};
use serde_json::{Value, json};
use tracing::warn;

/// The session header of the streamable HTTP transport.
const SESSION_HEADER: &str = "mcp-session-id";

/// The live-session cap and the session manager it counts, the book of every
/// session (live or parked), and the body cap.
#[derive(Clone)]
pub(crate) struct SessionCap {
    pub(crate) manager: Arc<LocalSessionManager>,
    pub(crate) book: Arc<SessionBook>,
    pub(crate) max_sessions: usize,
    pub(crate) max_body_bytes: usize,
}

/// How long a client refused for the session cap is asked to wait.
const RETRY_AFTER: Duration = Duration::from_secs(5);

fn json_rpc_error(status: StatusCode, id: Value, code: i64, message: String) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// The JSON-RPC error for a POST body that rmcp would not answer well, if any.
pub(crate) fn check_body(body: &[u8]) -> Option<(Value, i64, String)> {
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(e) => {
            return Some((
                Value::Null,
                -32700,
                format!("Parse error: the body is not valid UTF-8 ({e}). Send UTF-8 JSON."),
            ));
        }
    };
    let frame: Value = match serde_json::from_str(text) {
        Ok(frame) => frame,
        Err(e) => {
            let error = crate::error::clip(&e.to_string(), 300).into_owned();
            return Some((Value::Null, -32700, format!("Parse error: {error}")));
        }
    };
    let Value::Object(frame) = frame else {
        // Batches and other shapes are rmcp's to answer.
        return None;
    };
    let id = match frame.get("id") {
        None => None,
        Some(id @ (Value::String(_) | Value::Number(_))) => Some(id.clone()),
        Some(_) => {
            return Some((
                Value::Null,
                -32600,
                "Invalid request: the id must be a string or a number (omit it only for a notification).".into(),
            ));
        }
    };
    let method = frame.get("method").and_then(Value::as_str)?;
    let params = frame.get("params");
    let bad_shape = match (method, params) {
        (_, Some(params)) if !params.is_object() => true,
        ("tools/call", Some(params)) => {
            !params.get("name").is_some_and(Value::is_string)
                || params.get("arguments").is_some_and(|a| !a.is_object())
        }
        _ => false,
    };
    if bad_shape && let Some(id) = id {
        return Some((
            id,
            -32602,
            format!(
                "Invalid params for {}: `params` must be an object{}.",
                crate::error::clip(method, 64),
                if method == "tools/call" {
                    " with `name` (a string) and `arguments` (an object of the tool's parameters)"
                } else {
                    ""
                }
            ),
        ));
    }
    None
}

/// Middleware for `/mcp`: the session cap, then [`check_body`] on POST bodies;
/// and for every request of a session, a mark in the session book that it is
/// in use until its reply (or stream) ends, so that it is not parked meanwhile.
pub(crate) async fn guard(State(cap): State<SessionCap>, request: Request, next: Next) -> Response {
    let session = request
        .headers()
        .get(SESSION_HEADER)
        .and_then(|id| id.to_str().ok());
    let mut in_use = match session {
        Some(id) => cap.book.open(id).await,
        None => None,
    };
    let new_session = session.is_none() && request.method() == Method::POST;
    let response = if request.method() == Method::POST {
        checked_post(&cap, request, next).await
    } else {
        next.run(request).await
    };
    if new_session
        && let Some(id) = response
            .headers()
            .get(SESSION_HEADER)
            .and_then(|id| id.to_str().ok())
    {
        in_use = Some(cap.book.made(id));
    }
    match in_use {
        Some(in_use) => open_while_streaming(response, in_use),
        None => response,
    }
}

/// Keeps `in_use` until `response`'s body ends, when it streams (an SSE
/// reply, a `GET` stream); a body already whole ends the use at once.
fn open_while_streaming(response: Response, in_use: InUse) -> Response {
    if response.body().size_hint().exact().is_some() {
        return response;
    }
    let (parts, body) = response.into_parts();
    let body = body.into_data_stream().map(move |chunk| {
        let _held_until_the_stream_ends = &in_use;
        chunk
    });
    Response::from_parts(parts, Body::from_stream(body))
}

/// A POST to `/mcp`: the session cap for a new session, then [`check_body`].
async fn checked_post(cap: &SessionCap, request: Request, next: Next) -> Response {
    let new_session = !request.headers().contains_key(SESSION_HEADER);
    if new_session {
        // Parked sessions count: each can come back at its next request.
        let live = cap.manager.sessions.read().await.len().max(cap.book.len());
        if live >= cap.max_sessions {
            warn!(
                live,
                max_sessions = cap.max_sessions,
                "refused a new session: the cap is reached"
            );
            let mut response = json_rpc_error(
                StatusCode::SERVICE_UNAVAILABLE,
                Value::Null,
                -32000,
                format!(
                    "Server busy: {live} sessions are open, the most this server allows (--max-sessions). Retry after {} seconds, or close unused sessions (HTTP DELETE /mcp).",
                    RETRY_AFTER.as_secs()
                ),
            );
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(RETRY_AFTER.as_secs()),
            );
            return response;
        }
    }
    let (parts, body) = request.into_parts();
    // A declared length was checked by `reject_large_bodies`; a chunked body is
    // counted here as it streams in, and never held past the cap.
    let bytes: Bytes = match axum::body::to_bytes(body, cap.max_body_bytes).await {
        Ok(bytes) => bytes,
        Err(e) => {
            warn!(error = %e, max_body_bytes = cap.max_body_bytes, "refused a request body");
            return (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "Payload Too Large: request body exceeds {} bytes (see --max-body-bytes)\n",
                    cap.max_body_bytes
                ),
            )
                .into_response();
        }
    };
    if let Some((id, code, message)) = check_body(&bytes) {
        return json_rpc_error(StatusCode::BAD_REQUEST, id, code, message);
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_bodies_get_json_rpc_errors() {
        let code = |body: &[u8]| check_body(body).map(|(id, code, _)| (id, code));
        assert_eq!(code(b"{not json"), Some((Value::Null, -32700)));
        assert_eq!(code(b"\xff\xfe"), Some((Value::Null, -32700)));
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#),
            Some((Value::Null, -32600))
        );
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#),
            Some((Value::Null, -32600))
        );
        for arguments in [r#"["g"]"#, r#""g""#, "7"] {
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"network_list","arguments":{arguments}}}}}"#
            );
            assert_eq!(
                code(body.as_bytes()),
                Some((json!(4), -32602)),
                "{arguments}"
            );
        }
        assert_eq!(code(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), None);
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"network_list","arguments":{}}}"#),
            None
        );
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            None
        );
    }
}
