//! Load test of the streamable HTTP server: N concurrent MCP clients on loopback for a
//! bounded time, each in its own session, mixing writes (add a node, add an edge) and
//! reads (neighbors). Reports requests/s, p50/p99 latency and errors, then checks that
//! no acknowledged write was lost (the node and edge counts match what the clients
//! were told they added).
//!
//! ```text
//! cargo run --release --example http_load -- [--clients 16] [--seconds 5] [--reads 0.5]
//!                                             [--url http://127.0.0.1:8080/mcp]
//! ```
//!
//! Without `--url` it starts an in-process server on 127.0.0.1:0 (the same code the
//! binary runs with `--http`). With `--url`, the token, if any, is read from
//! `NETWORKS_MCP_AUTH_TOKEN`. Not run by CI.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use networks_mcp::NetworkRegistry;
use networks_mcp::http::{HttpOptions, HttpServer};
use networks_mcp::mcp::{NetworksServer, ServerOptions};
use serde_json::{Value, json};

const PROTOCOL: &str = "2025-06-18";
const NETWORK: &str = "load";

struct Args {
    clients: usize,
    seconds: f64,
    reads: f64,
    url: Option<String>,
}

fn args() -> Args {
    let mut args = Args {
        clients: 16,
        seconds: 5.0,
        reads: 0.5,
        url: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--clients" => args.clients = value.parse().expect("--clients N"),
            "--seconds" => args.seconds = value.parse().expect("--seconds S"),
            "--reads" => args.reads = value.parse().expect("--reads FRACTION"),
            "--url" => args.url = Some(value),
            other => panic!("unknown option {other}"),
        }
    }
    args
}

/// One MCP session over HTTP.
struct Session {
    http: reqwest::Client,
    url: String,
    token: Option<String>,
    id: String,
    next: u64,
}

impl Session {
    async fn open(url: &str, token: Option<String>) -> Result<Session, String> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| e.to_string())?;
        let mut session = Session {
            http,
            url: url.to_string(),
            token,
            id: String::new(),
            next: 0,
        };
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {},
                       "clientInfo": {"name": "http_load", "version": "1"}}});
        let response = session.send(&init).await?;
        session.id = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .ok_or("no session id")?
            .to_string();
        reply(response).await?;
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        session.send(&note).await?;
        Ok(session)
    }

    async fn send(&self, body: &Value) -> Result<reqwest::Response, String> {
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", PROTOCOL)
            .json(body);
        if !self.id.is_empty() {
            request = request.header("mcp-session-id", &self.id);
        }
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.map_err(|e| e.to_string())?;
        if !response.status().is_success() {
            return Err(format!("HTTP {}", response.status()));
        }
        Ok(response)
    }

    /// Calls a tool; `Ok` holds its structured content (which may be an error object).
    async fn tool(&mut self, name: &str, arguments: Value) -> Result<Value, String> {
        self.next += 1;
        let body = json!({"jsonrpc": "2.0", "id": self.next, "method": "tools/call",
                          "params": {"name": name, "arguments": arguments}});
        let message = reply(self.send(&body).await?).await?;
        message
            .pointer("/result/structuredContent")
            .cloned()
            .ok_or_else(|| format!("no result: {message}"))
    }
}

/// The JSON-RPC reply in a response: plain JSON or the last `data:` event with an id.
async fn reply(response: reqwest::Response) -> Result<Value, String> {
    let text = response.text().await.map_err(|e| e.to_string())?;
    if let Ok(value) = serde_json::from_str::<Value>(&text) {
        return Ok(value);
    }
    text.lines()
        .rev()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .find(|v| v.get("id").is_some())
        .ok_or_else(|| format!("no JSON-RPC reply in {text:?}"))
}

#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: usize,
    first_error: Option<String>,
    nodes_added: usize,
    edges_added: usize,
}

impl Tally {
    fn error(&mut self, e: String) {
        self.errors += 1;
        self.first_error.get_or_insert(e);
    }
}

async fn client(
    index: usize,
    url: String,
    token: Option<String>,
    until: Instant,
    reads: f64,
) -> Tally {
    let mut tally = Tally::default();
    let mut session = match Session::open(&url, token).await {
        Ok(session) => session,
        Err(e) => {
            tally.error(e);
            return tally;
        }
    };
    // A cheap deterministic generator per client for the read/write mix.
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64 ^ (index as u64 + 1);
    let mut last: Option<String> = None;
    let mut k = 0usize;
    while Instant::now() < until {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        if let Some(node) = &last
            && (seed % 1000) as f64 / 1000.0 < reads
        {
            let args = json!({"network_name": NETWORK, "node_id": node});
            timed(&mut session, &mut tally, "network_get_neighbors", args).await;
            continue;
        }
        // A write: a new node, then an edge from this client's previous node to it.
        let node = format!("c{index}-{k}");
        k += 1;
        let args = json!({"network_name": NETWORK, "node_id": node});
        if !timed(&mut session, &mut tally, "network_add_node", args).await {
            continue;
        }
        tally.nodes_added += 1;
        if let Some(previous) = last.replace(node.clone()) {
            let args = json!({"network_name": NETWORK, "source": previous, "target": node});
            if timed(&mut session, &mut tally, "network_add_edge", args).await {
                tally.edges_added += 1;
            }
        }
    }
    tally
}

/// One timed tool call; true when it answered status "success".
async fn timed(session: &mut Session, tally: &mut Tally, tool: &str, arguments: Value) -> bool {
    let started = Instant::now();
    let result = session.tool(tool, arguments).await;
    tally.latencies.push(started.elapsed());
    match result {
        Ok(v) if v["status"] == "success" => true,
        Ok(v) => {
            tally.error(format!("{tool}: error object {v}"));
            false
        }
        Err(e) => {
            tally.error(format!("{tool}: {e}"));
            false
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let args = args();
    let token = std::env::var("NETWORKS_MCP_AUTH_TOKEN").ok();
    let url = match &args.url {
        Some(url) => url.clone(),
        None => {
            let registry = Arc::new(NetworkRegistry::new());
            let server = NetworksServer::new(registry, ServerOptions::default());
            let http = HttpServer::bind(HttpOptions {
                addr: "127.0.0.1:0".into(),
                auth_token: token.clone(),
                ..HttpOptions::default()
            })
            .await
            .expect("bind 127.0.0.1:0");
            let url = format!("http://{}/mcp", http.local_addr());
            let ready = Arc::new(AtomicBool::new(true));
            tokio::spawn(http.serve(server, ready, std::future::pending::<&str>()));
            url
        }
    };

    let mut setup = Session::open(&url, token.clone())
        .await
        .expect("open a session");
    let created = setup
        .tool("network_create", json!({"network_name": NETWORK}))
        .await
        .expect("create the network");
    let baseline = count(&mut setup).await;
    println!(
        "http_load: {} clients for {:.1}s, {:.0}% reads, against {url} (network '{NETWORK}' {}; {} nodes, {} edges before)",
        args.clients,
        args.seconds,
        args.reads * 100.0,
        created["status"].as_str().unwrap_or("?"),
        baseline.0,
        baseline.1
    );

    let started = Instant::now();
    let until = started + Duration::from_secs_f64(args.seconds);
    let tasks: Vec<_> = (0..args.clients)
        .map(|i| tokio::spawn(client(i, url.clone(), token.clone(), until, args.reads)))
        .collect();
    let mut total = Tally::default();
    for task in tasks {
        let tally = task.await.expect("client task");
        total.latencies.extend(tally.latencies);
        total.errors += tally.errors;
        total.nodes_added += tally.nodes_added;
        total.edges_added += tally.edges_added;
        if total.first_error.is_none() {
            total.first_error = tally.first_error;
        }
    }
    let elapsed = started.elapsed();
    total.latencies.sort_unstable();
    let requests = total.latencies.len();
    println!(
        "requests: {requests} in {:.2}s = {:.0} req/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; errors: {}",
        elapsed.as_secs_f64(),
        requests as f64 / elapsed.as_secs_f64(),
        percentile(&total.latencies, 50.0).as_secs_f64() * 1e3,
        percentile(&total.latencies, 99.0).as_secs_f64() * 1e3,
        total
            .latencies
            .last()
            .copied()
            .unwrap_or_default()
            .as_secs_f64()
            * 1e3,
        total.errors
    );
    if let Some(e) = &total.first_error {
        println!("first error: {e}");
    }

    let (nodes, edges) = count(&mut setup).await;
    let expected = (
        baseline.0 + total.nodes_added,
        baseline.1 + total.edges_added,
    );
    println!(
        "writes acknowledged: {} nodes, {} edges; in the network: {} nodes, {} edges (+{} / +{})",
        total.nodes_added,
        total.edges_added,
        nodes,
        edges,
        nodes - baseline.0,
        edges - baseline.1
    );
    if (nodes, edges) == expected && total.errors == 0 {
        println!("no write lost: ok");
    } else {
        println!("FAILED: expected {expected:?} nodes/edges and no errors");
        std::process::exit(1);
    }
}

/// (nodes, edges) of the load network, from `network_list`.
async fn count(session: &mut Session) -> (usize, usize) {
    let listed = session
        .tool("network_list", json!({}))
        .await
        .expect("network_list");
    listed["networks"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|n| n["name"] == NETWORK)
        .map(|n| {
            (
                n["node_count"].as_u64().unwrap_or(0) as usize,
                n["edge_count"].as_u64().unwrap_or(0) as usize,
            )
        })
        .unwrap_or((0, 0))
}
