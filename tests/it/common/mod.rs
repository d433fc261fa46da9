//! Shared test helpers: an in-process server (the real factory) and an rmcp client
//! over an in-memory pipe.
#![allow(dead_code)]

pub mod alloc;
pub mod debian_like;
pub mod http;
pub mod stdio;

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::stdio::JsonLinesTransport;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions, Toolset};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

pub type Client = RunningService<RoleClient, ()>;

/// A server built by the real factory, served on one end of a pipe, and a client on the other.
pub async fn connect(options: ServerOptions) -> (Client, Arc<NetworkRegistry>) {
    let registry = Arc::new(NetworkRegistry::new());
    let server = NetworksServer::new(Arc::clone(&registry), options);
    let client = ().serve(serve_in_process(server)).await.expect("client handshake");
    (client, registry)
}

/// Serves `server` on one end of an in-memory pipe (our JSON-lines transport, as on
/// stdio) and returns the other end for a client.
pub fn serve_in_process(server: NetworksServer) -> tokio::io::DuplexStream {
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (read, write) = tokio::io::split(server_end);
    let (transport, _writer) = JsonLinesTransport::new(read, write);
    tokio::spawn(async move {
        if let Ok(service) = server.serve(transport).await {
            let _ = service.waiting().await;
        }
    });
    client_end
}

/// The outcome of one tool call: whether it was an error, and its structured content.
#[derive(Debug)]
pub struct Outcome {
    pub is_error: bool,
    pub body: Value,
}

/// Calls a tool with JSON arguments.
pub async fn call(client: &Client, tool: &str, arguments: Value) -> Outcome {
    let mut params = CallToolRequestParams::new(tool.to_string());
    if let Value::Object(map) = arguments {
        params = params.with_arguments(map);
    }
    let result = client
        .call_tool(params)
        .await
        .expect("tools/call transport");
    let body = result
        .structured_content
        .clone()
        .expect("every result carries structuredContent");
    // The text content mirrors the structured content for clients without structured output.
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .expect("text content");
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), body);
    let mut body = body;
    // A document (an export) is sent once, as an embedded resource, and is not
    // in structuredContent; the tests read it back under its field name.
    if let [_, document] = result.content.as_slice() {
        assert!(body.get("content").is_none(), "the document is sent twice");
        let resource = &document
            .as_resource()
            .expect("an embedded resource")
            .resource;
        let rmcp::model::ResourceContents::TextResourceContents {
            uri,
            mime_type,
            text,
            ..
        } = resource
        else {
            panic!("a document is text: {resource:?}");
        };
        assert_eq!(body["resource_uri"], uri.as_str());
        assert_eq!(body["mime_type"].as_str(), mime_type.as_deref());
        body["content"] = Value::String(text.clone());
    }
    assert!(result.content.len() <= 2, "{:?}", result.content);
    Outcome {
        is_error: result.is_error == Some(true),
        body,
    }
}

/// Calls a tool that must succeed; returns its structured content.
pub async fn ok(client: &Client, tool: &str, arguments: Value) -> Value {
    let outcome = call(client, tool, arguments).await;
    assert!(!outcome.is_error, "{tool} failed: {}", outcome.body);
    assert_ne!(outcome.body["status"], "error");
    outcome.body
}

/// Calls a tool that must fail with `code`; returns the error object.
pub async fn err(client: &Client, tool: &str, arguments: Value, code: &str) -> Value {
    let outcome = call(client, tool, arguments).await;
    assert!(
        outcome.is_error,
        "{tool} should fail with {code}: {}",
        outcome.body
    );
    assert_eq!(outcome.body["status"], "error", "{}", outcome.body);
    assert_eq!(outcome.body["code"], code, "{}", outcome.body);
    let message = outcome.body["error"].as_str().unwrap_or_default();
    assert!(message.len() > 20, "error message too thin: {message}");
    outcome.body
}

/// Creates `network` and adds `edges` as `(source, target, weight)`, creating
/// their nodes in order of first mention.
pub async fn network_from_edges(client: &Client, network: &str, edges: &[(&str, &str, f64)]) {
    ok(
        client,
        "network_create",
        serde_json::json!({"network_name": network}),
    )
    .await;
    let edges: Vec<Value> = edges
        .iter()
        .map(|(source, target, weight)| {
            serde_json::json!({"source": source, "target": target, "weight": weight})
        })
        .collect();
    ok(
        client,
        "network_add_edges",
        serde_json::json!({"network_name": network, "create_missing_nodes": true, "edges": edges}),
    )
    .await;
}

/// A release plan in a depends-on graph (`a -> b`: a needs b), weights in days:
/// `ship` needs `tests` and `docs`, `tests` need `api` and `ui`, `docs` need
/// `api`, and `api` and `ui` need `schema`.
pub const RELEASE_PLAN: &[(&str, &str, f64)] = &[
    ("api", "schema", 3.0),
    ("ui", "schema", 2.0),
    ("tests", "api", 2.0),
    ("tests", "ui", 1.0),
    ("ship", "tests", 1.0),
    ("docs", "api", 1.0),
    ("ship", "docs", 1.0),
];

/// Spawns the binary (with `--http 127.0.0.1:0` unless `args` has `--http`); the receiver gets `http://127.0.0.1:PORT` once it listens.
pub fn spawn_http(
    args: &[&str],
    envs: &[(&str, &str)],
) -> (
    std::process::Child,
    std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    std::sync::mpsc::Receiver<String>,
) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_networks-mcp"));
    for (key, _) in std::env::vars() {
        if key.starts_with("NETWORKS_MCP") {
            command.env_remove(key);
        }
    }
    if !args.contains(&"--http") {
        command.args(["--http", "127.0.0.1:0"]);
    }
    let mut child = command
        .args(["--log-level", "info"])
        .args(args)
        .envs(envs.iter().copied())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn networks-mcp");
    let stderr = child.stderr.take().unwrap();
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let (tx, rx) = std::sync::mpsc::channel();
    let sink = lines.clone();
    std::thread::spawn(move || {
        let marker = "serving MCP over streamable HTTP at http://";
        for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)).map_while(Result::ok) {
            if let Some(at) = line.find(marker) {
                let rest = &line[at + marker.len() - "http://".len()..];
                let end = rest.find("/mcp").unwrap_or(rest.len());
                let _ = tx.send(rest[..end].to_string());
            }
            sink.lock().unwrap().push(line);
        }
    });
    (child, lines, rx)
}

/// A tool call straight through the server's dispatch chokepoint (no client):
/// the reply, or the error object.
pub fn dispatch(server: &NetworksServer, tool: &str, args: Value) -> Result<Value, Value> {
    match server
        .dispatch(Call::new(tool, args))
        .expect("a listed tool")
    {
        Ok(value) => Ok(value),
        Err(error) => Err(error.to_object()),
    }
}

/// [`dispatch`] of a call that must succeed: its reply.
pub fn dispatch_ok(server: &NetworksServer, tool: &str, args: Value) -> Value {
    dispatch(server, tool, args.clone()).unwrap_or_else(|e| panic!("{tool} {args}: {e}"))
}

/// [`dispatch`] of a call that must fail with `code`: its error object.
pub fn dispatch_err(server: &NetworksServer, tool: &str, args: Value, code: &str) -> Value {
    let e = dispatch(server, tool, args.clone()).expect_err(tool);
    assert_eq!(e["code"], code, "{tool} {args}: {e}");
    e
}

/// Server options with every toolset, the opt-in ones too.
pub fn every_toolset() -> ServerOptions {
    ServerOptions {
        toolsets: Toolset::ALL.into_iter().collect(),
        ..ServerOptions::default()
    }
}

/// A server with every toolset and `limits`, on an empty registry.
pub fn server_with(limits: networks_mcp::limits::Limits) -> NetworksServer {
    NetworksServer::new(
        Arc::new(NetworkRegistry::new()),
        ServerOptions {
            limits,
            ..every_toolset()
        },
    )
}

/// A server with every toolset and no limits, on an empty registry.
pub fn unlimited_server() -> NetworksServer {
    server_with(networks_mcp::limits::Limits::unlimited())
}

/// The codes and messages of a reply's warnings (none: an empty list).
pub fn warnings(reply: &Value) -> Vec<(String, String)> {
    reply["warnings"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|w| {
                    (
                        w["code"].as_str().unwrap_or_default().to_string(),
                        w["message"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}
