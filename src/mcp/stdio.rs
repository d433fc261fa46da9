//! Newline-delimited JSON-RPC over any reader/writer pair (stdin/stdout in the binary).
//!
//! rmcp's own stdio transport drops a line it cannot parse without answering, so a
//! client that sent, say, a weight of `1e400` (valid JSON, but no 64-bit float can
//! hold it) would wait forever. This transport answers such a line instead: a
//! `tools/call` gets our error object as a tool result, anything else a JSON-RPC
//! error, addressed to the request's id whenever the id can be read.
//!
//! Whatever arrives, the session goes on: a line that is not UTF-8 gets a parse
//! error, a line longer than the cap (the HTTP body cap, 16 MiB by default) is
//! skipped without being held in memory and gets an "invalid request" error
//! (addressed to its id when the id is in the line's first 4 KiB, as clients
//! write it before the params, so that the client is not left waiting), a
//! request whose id is not a string or number gets "invalid request" with a null
//! id, and a known method with malformed params gets "invalid params".
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
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::error::Error;

/// The longest line read by default: the same as the HTTP body cap.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// A JSON-lines server transport; see the module docs.
pub struct JsonLinesTransport<R> {
    lines: LineReader<R>,
    out: mpsc::UnboundedSender<Vec<u8>>,
}

/// One line of input, as [`LineReader::next`] found it.
enum Line {
    /// A whole line, without its newline.
    Frame(Vec<u8>),
    /// A line longer than the cap, of this many bytes; it was skipped, not kept,
    /// but for its first [`HEAD_BYTES`] (where a request's id usually is).
    TooLong { length: usize, head: Vec<u8> },
    /// The input ended.
    End,
}

/// Splits input into lines of at most `max` bytes, holding no more than that: the
/// rest of a longer line is read and dropped.
///
/// Cancel-safe, as `receive` must be (rmcp polls it in a `select!`): the part of a
/// line read so far lives in the reader, not in the future, so a dropped call
/// loses nothing.
struct LineReader<R> {
    reader: BufReader<R>,
    max: usize,
    /// The current line so far.
    line: Vec<u8>,
    /// Bytes of the current line dropped for being past `max`.
    skipped: usize,
    /// The first bytes of a line being skipped.
    head: Vec<u8>,
}

/// How much of an over-long line is kept to find its request id in.
const HEAD_BYTES: usize = 4096;

impl<R: AsyncRead> LineReader<R> {
    fn new(reader: R, max: usize) -> Self {
        LineReader {
            reader: BufReader::new(reader),
            max,
            line: Vec::new(),
            skipped: 0,
            head: Vec::new(),
        }
    }

    /// The line just ended, and a fresh start for the next one.
    fn finish(&mut self) -> Line {
        let line = std::mem::take(&mut self.line);
        match std::mem::take(&mut self.skipped) {
            0 => Line::Frame(line),
            length => Line::TooLong {
                length,
                head: std::mem::take(&mut self.head),
            },
        }
    }
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    async fn next(&mut self) -> io::Result<Line> {
        loop {
            let buffer = self.reader.fill_buf().await?;
            if buffer.is_empty() {
                if self.skipped == 0 && self.line.is_empty() {
                    return Ok(Line::End);
                }
                return Ok(self.finish());
            }
            let newline = buffer.iter().position(|&b| b == b'\n');
            let chunk = &buffer[..newline.unwrap_or(buffer.len())];
            if self.skipped == 0 && self.line.len() + chunk.len() <= self.max {
                self.line.extend_from_slice(chunk);
            } else {
                if self.skipped == 0 {
                    let kept = self.line.len().min(HEAD_BYTES);
                    self.head = std::mem::take(&mut self.line);
                    self.head.truncate(kept);
                }
                let room = HEAD_BYTES - self.head.len();
                self.head.extend_from_slice(&chunk[..room.min(chunk.len())]);
                self.skipped += self.line.len() + chunk.len();
                self.line = Vec::new();
            }
            let consumed = newline.map_or(buffer.len(), |at| at + 1);
            self.reader.consume(consumed);
            if newline.is_some() {
                return Ok(self.finish());
            }
        }
    }
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
            lines: LineReader::new(reader, DEFAULT_MAX_LINE_BYTES),
            out,
        };
        (transport, writer_task)
    }

    /// Sets the longest line accepted (default [`DEFAULT_MAX_LINE_BYTES`]).
    pub fn with_max_line_bytes(mut self, max: usize) -> Self {
        self.lines.max = max.max(1);
        self
    }

    /// Queues a reply frame.
    fn reply(&self, frame: &Value) {
        if let Ok(bytes) = serde_json::to_vec(frame) {
            let _ = self.out.send(bytes);
        }
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
            let bytes = match self.lines.next().await {
                Ok(Line::Frame(bytes)) => bytes,
                Ok(Line::End) => return None,
                Ok(Line::TooLong { length, head }) => {
                    tracing::warn!(
                        length,
                        max = self.lines.max,
                        "over-long input line skipped and answered with an error"
                    );
                    self.reply(&error_frame(
                        id_in_head(&head),
                        -32600,
                        format!(
                            "Invalid request: a line of {length} bytes is longer than the limit of {} bytes; it was skipped. Send smaller requests (split a batch), or raise the limit with --max-body-bytes.",
                            self.lines.max
                        ),
                    ));
                    continue;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read input; closing");
                    return None;
                }
            };
            let line = match std::str::from_utf8(&bytes) {
                Ok(line) => line,
                Err(e) => {
                    tracing::warn!(error = %e, "input line is not UTF-8; answered with a parse error");
                    let lossy = String::from_utf8_lossy(&bytes);
                    let id = probe(&lossy)
                        .and_then(|p| p.id)
                        .filter(|id| id.is_string() || id.is_number())
                        .unwrap_or(Value::Null);
                    self.reply(&error_frame(
                        id,
                        -32700,
                        format!("Parse error: the line is not valid UTF-8 ({e}). Send UTF-8 JSON."),
                    ));
                    continue;
                }
            };
            let trimmed = line.trim();
            if trimmed.is_empty() {
                continue;
            }
            match parse_frame(trimmed) {
                Ok(JsonRpcMessage::Notification(_))
                    if probe(trimmed).is_some_and(|p| p.id.is_some()) =>
                {
                    // rmcp reads `"id": null` as a notification; JSON-RPC says a
                    // request's id is a string or a number, so answer it.
                    self.reply(&invalid_id_reply());
                }
                Ok(JsonRpcMessage::Request(JsonRpcRequest {
                    id,
                    request: ClientRequest::CustomRequest(custom),
                    ..
                })) if STANDARD_METHODS.contains(&custom.method.as_str()) => {
                    // rmcp falls back to a custom request when a standard method's
                    // params do not decode, and would answer "method not found".
                    self.reply(&error_frame(
                        serde_json::to_value(&id).unwrap_or(Value::Null),
                        -32602,
                        invalid_params_message(&custom.method),
                    ));
                }
                Ok(message) => return Some(message),
                Err(e) => {
                    tracing::warn!(error = %e, "unreadable JSON-RPC frame answered with an error");
                    if let Some(reply) = reply_to_unreadable(trimmed, &e) {
                        self.reply(&reply);
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

/// The id of the request whose line begins with `head`, when the id comes
/// before anything the head cuts off (clients write `jsonrpc`, `id` and `method`
/// before `params`), so that a client waiting for its answer gets it; else null.
/// Reads the head's top-level object member by member and stops at `id`, so the
/// cut never matters before it.
fn id_in_head(head: &[u8]) -> Value {
    /// Notes the `id` member and stops there: serde_json then reports the map
    /// unfinished, which is expected, since the rest was not read.
    struct IdVisitor<'a>(&'a mut Option<Value>);
    impl<'de> serde::de::Visitor<'de> for IdVisitor<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON-RPC request object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                if key == "id" {
                    *self.0 = Some(map.next_value()?);
                    return Ok(());
                }
                map.next_value::<serde::de::IgnoredAny>()?;
            }
            Ok(())
        }
    }
    let mut id = None;
    let mut de = serde_json::Deserializer::from_slice(head);
    let _unfinished = serde::Deserializer::deserialize_map(&mut de, IdVisitor(&mut id));
    id.filter(|id| id.is_string() || id.is_number())
        .unwrap_or(Value::Null)
}

/// The parts of a frame that can be read even when some number in it cannot:
/// serde skips unread values without converting their numbers.
#[derive(Deserialize)]
struct Probe {
    /// `Some` whenever the frame has an `id` member, even `null`.
    #[serde(default, deserialize_with = "present")]
    id: Option<Value>,
    #[serde(default)]
    method: Option<String>,
}

fn present<'de, D: serde::Deserializer<'de>>(value: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(value).map(Some)
}

fn probe(line: &str) -> Option<Probe> {
    serde_json::from_str(line).ok()
}

/// The MCP methods a client may call on this server; a request naming one of them
/// whose params do not decode is "invalid params", not "method not found".
const STANDARD_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "logging/setLevel",
    "completion/complete",
];

fn invalid_params_message(method: &str) -> String {
    let hint = match method {
        "tools/call" => {
            " `params` must be an object with `name` (a string) and `arguments` (an object of the tool's parameters)."
        }
        _ => " See the MCP specification for this method's params.",
    };
    format!("Invalid params for {method}: they do not have the shape this method takes.{hint}")
}

fn error_frame(id: Value, code: i64, message: String) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message }
    })
}

fn invalid_id_reply() -> Value {
    error_frame(
        Value::Null,
        -32600,
        "Invalid request: the id must be a string or a number (omit it only for a notification)."
            .into(),
    )
}

/// The answer to a frame that did not parse, or `None` for a frame that must not be
/// answered (a notification).
fn reply_to_unreadable(line: &str, error: &serde_json::Error) -> Option<Value> {
    let (id, method) = match probe(line) {
        Some(Probe { id, method }) => (id, method),
        None => (None, None),
    };
    let id = match id {
        Some(id @ (Value::String(_) | Value::Number(_))) => id,
        Some(_) => return Some(invalid_id_reply()),
        // A readable frame without an id is a notification: never answered.
        None if method.is_some() => return None,
        None => Value::Null,
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
    let error_text = crate::error::clip(&error.to_string(), 300).into_owned();
    let (code, message) = if error.is_syntax() || error.is_eof() || number_problem {
        (-32700, format!("Parse error: {error_text}"))
    } else if method.is_some() && !error_text.contains("jsonrpc") {
        // Well-formed JSON naming a method: what failed is that method's params
        // (e.g. `arguments` that is an array or a string instead of an object).
        (
            -32602,
            format!(
                "Invalid params for {}: {error_text}",
                crate::error::clip(method.as_deref().unwrap_or_default(), 64)
            ),
        )
    } else {
        (-32600, format!("Invalid request: {error_text}"))
    };
    Some(error_frame(id, code, message))
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

    /// Feeds `input` to a transport with a small line cap and returns the replies
    /// it wrote by itself and the number of messages it passed on to the server.
    async fn drive(input: &[u8], max: usize) -> (Vec<Value>, usize) {
        let (out_write, mut out_read) = tokio::io::duplex(1 << 20);
        let (transport, writer) =
            JsonLinesTransport::new(input.to_vec().as_slice().to_owned_reader(), out_write);
        let mut transport = transport.with_max_line_bytes(max);
        let mut passed = 0;
        while Transport::<RoleServer>::receive(&mut transport)
            .await
            .is_some()
        {
            passed += 1;
        }
        drop(transport);
        writer.await.unwrap();
        let mut text = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut out_read, &mut text)
            .await
            .unwrap();
        let replies = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (replies, passed)
    }

    trait OwnedReader {
        fn to_owned_reader(&self) -> std::io::Cursor<Vec<u8>>;
    }
    impl OwnedReader for &[u8] {
        fn to_owned_reader(&self) -> std::io::Cursor<Vec<u8>> {
            std::io::Cursor::new(self.to_vec())
        }
    }

    const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

    #[tokio::test]
    async fn a_line_that_is_not_utf8_gets_a_parse_error_and_the_session_goes_on() {
        let mut input =
            br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x"#.to_vec();
        input.extend_from_slice(b"\xff\"}}\n\xff\xfe\n");
        input.extend_from_slice(PING.as_bytes());
        input.push(b'\n');
        let (replies, passed) = drive(&input, 1 << 20).await;
        assert_eq!(
            passed, 1,
            "the ping after the bad lines still reaches the server"
        );
        assert_eq!(replies.len(), 2);
        assert_eq!(replies[0]["error"]["code"], -32700);
        assert_eq!(replies[0]["id"], 4, "the id is read from what is readable");
        assert_eq!(replies[1]["error"]["code"], -32700);
        assert_eq!(replies[1]["id"], Value::Null);
    }

    #[tokio::test]
    async fn an_over_long_line_is_skipped_with_an_error_and_never_held_whole() {
        let long = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{{\"pad\":\"{}\"}}}}",
            "x".repeat(5000)
        );
        let input = format!("{long}\n{PING}\n{long}");
        let (replies, passed) = drive(input.as_bytes(), 1000).await;
        assert_eq!(passed, 1);
        assert_eq!(replies.len(), 2, "{replies:?}");
        // The id comes before the cut, so the client's request gets its answer.
        assert_eq!(replies[0]["id"], 2);
        assert_eq!(replies[1]["id"], 2);
        for reply in &replies {
            assert_eq!(reply["error"]["code"], -32600);
            assert!(
                reply["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("limit of 1000 bytes")
            );
        }
        // An id past the kept head, or none at all: a null id, as before.
        let late = format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{{\"pad\":\"{}\"}},\"id\":9}}\n",
            "x".repeat(HEAD_BYTES)
        );
        let (replies, _) = drive(late.as_bytes(), 1000).await;
        assert_eq!(replies[0]["id"], Value::Null);
        let (replies, _) = drive(format!("[{}]\n", "1,".repeat(900)).as_bytes(), 1000).await;
        assert_eq!(replies[0]["id"], Value::Null);
        // A line exactly at the cap is read.
        let (replies, passed) = drive(format!("{PING}\n").as_bytes(), PING.len()).await;
        assert_eq!((replies.len(), passed), (0, 1));
    }

    #[test]
    fn an_object_or_null_id_gets_invalid_request() {
        let r = reply(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#).unwrap();
        assert_eq!(r["error"]["code"], -32600);
        assert_eq!(r["id"], Value::Null);
    }

    #[tokio::test]
    async fn a_null_id_is_answered_not_taken_for_a_notification() {
        let input = format!(
            "{}\n{PING}\n",
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#
        );
        let (replies, passed) = drive(input.as_bytes(), 1 << 20).await;
        assert_eq!(passed, 1);
        assert_eq!(replies.len(), 1);
        assert_eq!(replies[0]["error"]["code"], -32600);
    }

    #[tokio::test]
    async fn arguments_that_are_not_an_object_are_invalid_params() {
        for arguments in [r#"["g"]"#, r#""g""#, "7"] {
            let line = format!(
                "{}\n",
                format_args!(
                    r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"network_list","arguments":{arguments}}}}}"#
                )
            );
            let (replies, passed) = drive(line.as_bytes(), 1 << 20).await;
            assert_eq!((replies.len(), passed), (1, 0), "{arguments}");
            assert_eq!(
                replies[0]["error"]["code"], -32602,
                "{arguments}: {replies:?}"
            );
            assert_eq!(replies[0]["id"], 3);
        }
    }

    /// rmcp polls `receive` in a `select!`, dropping it when something else is
    /// ready first: a line split across reads must survive the drop.
    #[tokio::test]
    async fn a_line_read_in_parts_survives_a_cancelled_read() {
        let (mut client, server) = tokio::io::duplex(64);
        let mut lines = LineReader::new(server, 1 << 20);
        tokio::io::AsyncWriteExt::write_all(&mut client, b"{\"jsonrpc\":")
            .await
            .unwrap();
        let cancelled =
            tokio::time::timeout(std::time::Duration::from_millis(50), lines.next()).await;
        assert!(cancelled.is_err(), "no whole line yet");
        tokio::io::AsyncWriteExt::write_all(&mut client, b"\"2.0\"}\n")
            .await
            .unwrap();
        match lines.next().await.unwrap() {
            Line::Frame(bytes) => assert_eq!(bytes, b"{\"jsonrpc\":\"2.0\"}"),
            _ => panic!("the line was lost"),
        }
    }
}
