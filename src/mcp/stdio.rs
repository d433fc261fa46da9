//! Newline-delimited JSON-RPC over any reader/writer pair (stdin/stdout in the binary).
//!
//! rmcp's own stdio transport drops a line it cannot parse without answering, so a
//! client that sent, say, a weight of `1e400` (valid JSON, but no 64-bit float can
//! hold it) would wait forever. This transport answers such a line instead: a
//! `tools/call` gets our error object as a tool result, anything else a JSON-RPC
//! error, addressed to the request's id whenever the id can be read.
//!
//! One writer task owns the output, so frames are never interleaved; it writes
//! every frame that is ready, then flushes once.
//!
//! A large `tools/call` (a batch of 10,000 edges is about 700 KB) has its
//! arguments parsed once, straight into the JSON object the tool reads; see
//! `parse_frame`.

use std::io;

use rmcp::RoleServer;
use rmcp::model::{ClientRequest, JsonRpcMessage, JsonRpcRequest};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, Lines};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::error::Error;

/// A JSON-lines server transport; see the module docs.
pub struct JsonLinesTransport<R> {
    lines: Lines<BufReader<R>>,
    out: mpsc::UnboundedSender<Vec<u8>>,
}

impl<R: AsyncRead + Unpin + Send + 'static> JsonLinesTransport<R> {
    /// A transport reading frames from `reader` and writing them to `writer`. The
    /// returned handle finishes once every frame has been written and the transport
    /// is dropped; await it before exiting so no reply is lost.
    pub fn new<W: AsyncWrite + Unpin + Send + 'static>(
        reader: R,
        writer: W,
    ) -> (Self, JoinHandle<()>) {
        let (out, rx) = mpsc::unbounded_channel();
        let writer_task = tokio::spawn(write_frames(writer, rx));
        let transport = JsonLinesTransport {
            lines: BufReader::new(reader).lines(),
            out,
        };
        (transport, writer_task)
    }
}

async fn write_frames<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut rx: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    let mut buffer = Vec::with_capacity(64 * 1024);
    while let Some(frame) = rx.recv().await {
        buffer.clear();
        buffer.extend_from_slice(&frame);
        buffer.push(b'\n');
        while let Ok(more) = rx.try_recv() {
            buffer.extend_from_slice(&more);
            buffer.push(b'\n');
        }
        if writer.write_all(&buffer).await.is_err() || writer.flush().await.is_err() {
            tracing::debug!("output closed; dropping remaining frames");
            return;
        }
    }
}

impl<R: AsyncRead + Unpin + Send + 'static> Transport<RoleServer> for JsonLinesTransport<R> {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let result = serde_json::to_vec(&item)
            .map_err(io::Error::other)
            .and_then(|bytes| {
                self.out
                    .send(bytes)
                    .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "output closed"))
            });
        std::future::ready(result)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let line = match self.lines.next_line().await {
                Ok(Some(line)) => line,
                Ok(None) => return None,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read input; closing");
                    return None;
                }
            };
            let trimmed = line.trim();
            if trimmed.is_empty() {
                continue;
            }
            match parse_frame(trimmed) {
                Ok(message) => return Some(message),
                Err(e) => {
                    tracing::warn!(error = %e, "unreadable JSON-RPC frame answered with an error");
                    if let Some(reply) = reply_to_unreadable(trimmed, &e)
                        && let Ok(bytes) = serde_json::to_vec(&reply)
                    {
                        let _ = self.out.send(bytes);
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Frames at least this long take the two-step path in [`parse_frame`].
const LARGE_FRAME: usize = 16 * 1024;

/// Parses one frame into an rmcp message.
///
/// rmcp decodes a frame by buffering all of it in serde's generic content tree
/// before it knows the frame's type, then building the arguments' JSON object
/// from that tree: for a large tool call that is most of the server's work. So a
/// large `tools/call` is parsed into a JSON value once, its `arguments` object is
/// lifted out, rmcp decodes the small rest, and the object is put back. The
/// message is the same either way; small frames go straight to rmcp.
fn parse_frame(line: &str) -> Result<RxJsonRpcMessage<RoleServer>, serde_json::Error> {
    if line.len() < LARGE_FRAME || !line.contains("\"tools/call\"") {
        return serde_json::from_str(line);
    }
    let mut frame: Value = serde_json::from_str(line)?;
    let arguments = take_call_arguments(&mut frame);
    let mut message: RxJsonRpcMessage<RoleServer> = serde_json::from_value(frame)?;
    if let Some(arguments) = arguments
        && let JsonRpcMessage::Request(JsonRpcRequest {
            request: ClientRequest::CallToolRequest(call),
            ..
        }) = &mut message
    {
        call.params.arguments = Some(arguments);
    }
    Ok(message)
}

/// The `params.arguments` object of a `tools/call` request frame, replaced in
/// the frame by an empty object; `None` (frame untouched) for any other frame.
fn take_call_arguments(frame: &mut Value) -> Option<Map<String, Value>> {
    if frame.get("method").and_then(Value::as_str) != Some("tools/call") {
        return None;
    }
    match frame.get_mut("params")?.get_mut("arguments")? {
        Value::Object(arguments) => Some(std::mem::take(arguments)),
        _ => None,
    }
}

/// The parts of a frame that can be read even when some number in it cannot:
/// serde skips unread values without converting their numbers.
#[derive(Deserialize)]
struct Probe {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<String>,
}

/// The answer to a frame that did not parse, or `None` for a frame that must not be
/// answered (a notification).
fn reply_to_unreadable(line: &str, error: &serde_json::Error) -> Option<Value> {
    let probe: Option<Probe> = serde_json::from_str(line).ok();
    let (id, method) = match probe {
        Some(Probe { id, method }) => (id, method),
        None => (None, None),
    };
    let id = match id {
        Some(id @ (Value::String(_) | Value::Number(_))) => id,
        // A readable frame without an id is a notification: never answered.
        _ if method.is_some() => return None,
        _ => Value::Null,
    };
    let number_problem = error.to_string().contains("number out of range");
    if method.as_deref() == Some("tools/call") && number_problem {
        let object = Error::InvalidArguments {
            message: format!(
                "invalid arguments: a number in them cannot be represented as a 64-bit float ({error}). Weights and other numbers must be finite and within ±1.7e308; give a number such as 1.0."
            ),
            field: None,
        }
        .to_object();
        return Some(json!({
            "jsonrpc": "2.0",
            "id": id,
            "result": {
                "content": [{ "type": "text", "text": object.to_string() }],
                "structuredContent": object,
                "isError": true,
            }
        }));
    }
    let (code, message) = if error.is_syntax() || error.is_eof() || number_problem {
        (-32700, format!("Parse error: {error}"))
    } else {
        (-32600, format!("Invalid request: {error}"))
    };
    Some(json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &str) -> Option<Value> {
        let error = serde_json::from_str::<RxJsonRpcMessage<RoleServer>>(line)
            .expect_err("line must not parse");
        reply_to_unreadable(line, &error)
    }

    #[test]
    fn overflowing_weight_in_a_tool_call_gets_an_error_object() {
        let r = reply(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"network_add_edge","arguments":{"weight":1e400}}}"#).unwrap();
        assert_eq!(r["id"], 5);
        assert_eq!(r["result"]["isError"], true);
        assert_eq!(
            r["result"]["structuredContent"]["code"],
            "invalid_arguments"
        );
    }

    #[test]
    fn a_large_tool_call_decodes_to_the_same_message_as_rmcp_decodes_it() {
        let edges: Vec<Value> = (0..2000)
            .map(|i| json!({"source": format!("n{i}"), "target": "hub", "weight": 0.5}))
            .collect();
        let line = json!({
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {
                "name": "network_add_edges",
                "arguments": {"network_name": "g", "edges": edges},
                "_meta": {"progressToken": "p1"}
            }
        })
        .to_string();
        assert!(line.len() >= LARGE_FRAME);
        let ours = parse_frame(&line).expect("parses");
        let theirs: RxJsonRpcMessage<RoleServer> = serde_json::from_str(&line).expect("parses");
        assert_eq!(
            serde_json::to_value(&ours).unwrap(),
            serde_json::to_value(&theirs).unwrap()
        );
        let JsonRpcMessage::Request(JsonRpcRequest {
            request: ClientRequest::CallToolRequest(call),
            ..
        }) = ours
        else {
            panic!("not a tool call");
        };
        assert_eq!(
            call.params.arguments.unwrap()["edges"][1999]["source"],
            "n1999"
        );
    }

    #[test]
    fn a_large_frame_that_is_not_a_tool_call_is_decoded_as_usual() {
        let padding = "x".repeat(LARGE_FRAME);
        let line = json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta": {"pad": padding}}}).to_string();
        assert_eq!(
            serde_json::to_value(parse_frame(&line).expect("parses")).unwrap(),
            serde_json::to_value(
                serde_json::from_str::<RxJsonRpcMessage<RoleServer>>(&line).unwrap()
            )
            .unwrap()
        );
    }

    #[test]
    fn garbage_gets_a_parse_error_with_null_id() {
        let r = reply("{not json").unwrap();
        assert_eq!(r["id"], Value::Null);
        assert_eq!(r["error"]["code"], -32700);
    }

    #[test]
    fn unreadable_notification_is_not_answered() {
        assert!(
            reply(r#"{"jsonrpc":"2.0","method":"notifications/x","params":{"w":1e400}}"#).is_none()
        );
    }
}
