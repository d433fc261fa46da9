//! The MCP-over-stdio benchmark program of issue 4: drives the release server
//! binary as a real client would, with newline-delimited JSON-RPC.
//!
//! ```sh
//! cargo build --release
//! cargo run --release --example bench_mcp -- [--bin PATH] [--calls 100000] [--json]
//! ```
//!
//! Phases (each on one server process started for it):
//! 1. **startup**: spawn → `initialize` reply, median of `--spawns` (default 11).
//! 2. **sequential**: `--calls` single `network_add_node` calls (nodes `v0…`), then
//!    `--calls` single `network_add_edge` calls between random existing nodes, then
//!    `--calls` `network_get_neighbors` calls on random nodes; each call awaits its
//!    reply. Reports calls/s, p50, p99, and the p50 of the first and last 1,000 calls.
//! 3. **pipelined**: the same `add_edge` and `get_neighbors` calls with
//!    `--inflight` (default 64) requests outstanding. The server answers requests
//!    concurrently, so these requests never depend on each other's order.
//! 4. **bulk**: `--bulk-edges` (default 1,000,000) random edges among
//!    `bulk-edges / 5` nodes through `network_add_edges` in batches of `--batch`
//!    (default 10,000) with `create_missing_nodes`, each batch awaiting its reply.
//!
//! Request lines are formatted before their timer starts; a latency is the time
//! from writing a request to reading its reply line. The server's stderr (its logs,
//! default level unless `--log-level` is given) goes to /dev/null.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "../benches/workload/mod.rs"]
mod workload;
use workload::Rng;

struct Args {
    bin: String,
    calls: usize,
    inflight: usize,
    bulk_edges: usize,
    batch: usize,
    spawns: usize,
    log_level: Option<String>,
    json: bool,
}

fn parse_args() -> Args {
    let mut args = Args {
        bin: concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/networks-mcp").to_string(),
        calls: 100_000,
        inflight: 64,
        bulk_edges: 1_000_000,
        batch: 10_000,
        spawns: 11,
        log_level: None,
        json: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut text = |name: &str| -> String {
            it.next()
                .unwrap_or_else(|| usage(&format!("{name} needs a value")))
        };
        let num = |s: String| -> usize {
            s.replace('_', "")
                .parse()
                .unwrap_or_else(|_| usage(&format!("not a number: {s}")))
        };
        match a.as_str() {
            "--bin" => args.bin = text("--bin"),
            "--calls" => args.calls = num(text("--calls")).max(1),
            "--inflight" => args.inflight = num(text("--inflight")).max(1),
            "--bulk-edges" => args.bulk_edges = num(text("--bulk-edges")),
            "--batch" => args.batch = num(text("--batch")).clamp(1, 10_000),
            "--spawns" => args.spawns = num(text("--spawns")).max(1),
            "--log-level" => args.log_level = Some(text("--log-level")),
            "--json" => args.json = true,
            "-h" | "--help" => usage(""),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    args
}

fn usage(msg: &str) -> ! {
    if !msg.is_empty() {
        eprintln!("bench_mcp: {msg}");
    }
    eprintln!(
        "usage: bench_mcp [--bin PATH] [--calls N] [--inflight K] [--bulk-edges E] [--batch B] [--spawns S] [--log-level L] [--json]"
    );
    std::process::exit(if msg.is_empty() { 0 } else { 2 })
}

/// One server process and its pipes.
struct Client {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: String,
    next_id: u64,
}

impl Client {
    fn spawn(args: &Args) -> Client {
        let mut cmd = Command::new(&args.bin);
        if let Some(level) = &args.log_level {
            cmd.args(["--log-level", level]);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                eprintln!(
                    "bench_mcp: cannot start {}: {e} (run `cargo build --release` first)",
                    args.bin
                );
                std::process::exit(1)
            });
        let stdin = BufWriter::with_capacity(1 << 20, child.stdin.take().expect("stdin"));
        let stdout = BufReader::with_capacity(1 << 20, child.stdout.take().expect("stdout"));
        Client {
            child,
            stdin,
            stdout,
            line: String::new(),
            next_id: 1,
        }
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).expect("write");
        self.stdin.write_all(b"\n").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Reads the next response line (skipping notifications and server requests)
    /// into `self.line`.
    fn recv(&mut self) -> &str {
        loop {
            self.line.clear();
            let n = self.stdout.read_line(&mut self.line).expect("read");
            assert!(n > 0, "server closed stdout");
            // A response has an "id" and no "method".
            if !self.line.contains("\"method\"") {
                return &self.line;
            }
        }
    }

    fn initialize(&mut self) {
        self.send(&initialize_line());
        self.recv();
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    }

    /// A `tools/call` request line with a fresh id; returns (id, line).
    fn call_line(&mut self, tool: &str, arguments: Value) -> (u64, String) {
        let id = self.next_id;
        self.next_id += 1;
        let line = json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": tool, "arguments": arguments }
        })
        .to_string();
        (id, line)
    }

    /// One call, awaited; panics on a JSON-RPC or tool error.
    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let (_, line) = self.call_line(tool, arguments);
        self.send(&line);
        let reply: Value = serde_json::from_str(self.recv()).expect("JSON reply");
        check_reply(&reply);
        reply
    }

    fn close(mut self) {
        drop(self.stdin);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn initialize_line() -> String {
    json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": { "name": "bench_mcp", "version": "1" }
        }
    })
    .to_string()
}

fn check_reply(reply: &Value) {
    if reply.get("error").is_some() || reply["result"]["isError"] == json!(true) {
        panic!("call failed: {reply}");
    }
}

/// Cheap check on a raw reply line (parsing every reply would cost client time).
fn check_line(line: &str) {
    if line.contains("\"isError\":true") || line.contains("\"error\":{") {
        panic!("call failed: {line}");
    }
}

#[derive(Debug)]
struct Stats {
    calls: usize,
    seconds: f64,
    p50_ms: f64,
    p99_ms: f64,
    first_p50_ms: f64,
    last_p50_ms: f64,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn stats(latencies: &[f64], seconds: f64) -> Stats {
    let p50_of = |xs: &[f64]| {
        let mut v = xs.to_vec();
        v.sort_by(f64::total_cmp);
        percentile(&v, 0.5)
    };
    let mut all = latencies.to_vec();
    all.sort_by(f64::total_cmp);
    let k = latencies.len().min(1000);
    Stats {
        calls: latencies.len(),
        seconds,
        p50_ms: percentile(&all, 0.5) * 1e3,
        p99_ms: percentile(&all, 0.99) * 1e3,
        first_p50_ms: p50_of(&latencies[..k]) * 1e3,
        last_p50_ms: p50_of(&latencies[latencies.len() - k..]) * 1e3,
    }
}

impl Stats {
    fn json(&self) -> Value {
        json!({
            "calls": self.calls,
            "seconds": self.seconds,
            "calls_per_s": self.calls as f64 / self.seconds,
            "p50_ms": self.p50_ms,
            "p99_ms": self.p99_ms,
            "first_1000_p50_ms": self.first_p50_ms,
            "last_1000_p50_ms": self.last_p50_ms,
            "last_over_first": self.last_p50_ms / self.first_p50_ms,
        })
    }
}

/// Sends each line and awaits its reply before the next.
fn run_sequential(client: &mut Client, lines: &[String]) -> Stats {
    let mut lat = Vec::with_capacity(lines.len());
    let start = Instant::now();
    for line in lines {
        let t = Instant::now();
        client.send(line);
        let reply = client.recv();
        lat.push(t.elapsed().as_secs_f64());
        check_line(reply);
    }
    stats(&lat, start.elapsed().as_secs_f64())
}

/// Keeps `inflight` requests outstanding; `lines[i]` must have id `first_id + i`.
fn run_pipelined(client: &mut Client, lines: &[String], first_id: u64, inflight: usize) -> Stats {
    let mut sent_at = vec![Instant::now(); lines.len()];
    let mut lat = Vec::with_capacity(lines.len());
    let start = Instant::now();
    let mut next = 0;
    let send_upto =
        |client: &mut Client, next: &mut usize, upto: usize, sent_at: &mut [Instant]| {
            while *next < upto.min(lines.len()) {
                client
                    .stdin
                    .write_all(lines[*next].as_bytes())
                    .expect("write");
                client.stdin.write_all(b"\n").expect("write");
                sent_at[*next] = Instant::now();
                *next += 1;
            }
            client.stdin.flush().expect("flush");
        };
    send_upto(client, &mut next, inflight, &mut sent_at);
    let mut done = 0;
    while done < lines.len() {
        let reply = client.recv();
        check_line(reply);
        let id = reply_id(reply).expect("reply id");
        let i = (id - first_id) as usize;
        lat.push(sent_at[i].elapsed().as_secs_f64());
        done += 1;
        send_upto(client, &mut next, done + inflight, &mut sent_at);
    }
    stats(&lat, start.elapsed().as_secs_f64())
}

/// The `"id":N` of a reply line, without parsing the whole reply.
fn reply_id(line: &str) -> Option<u64> {
    let at = line.rfind("\"id\":")? + 5;
    let digits: String = line[at..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

fn calls(
    client: &mut Client,
    n: usize,
    mut args: impl FnMut(usize) -> (String, Value),
) -> (u64, Vec<String>) {
    let first = client.next_id;
    let lines = (0..n)
        .map(|i| {
            let (tool, a) = args(i);
            client.call_line(&tool, a).1
        })
        .collect();
    (first, lines)
}

fn main() {
    let args = parse_args();
    let log = |s: String| {
        if !args.json {
            eprintln!("{s}");
        }
    };
    let n = args.calls;

    // 1. Startup.
    let mut startup: Vec<f64> = (0..args.spawns)
        .map(|_| {
            let t = Instant::now();
            let mut c = Client::spawn(&args);
            c.send(&initialize_line());
            c.recv();
            let s = t.elapsed().as_secs_f64();
            c.close();
            s
        })
        .collect();
    startup.sort_by(f64::total_cmp);
    let startup_ms = percentile(&startup, 0.5) * 1e3;
    log(format!(
        "startup: median {startup_ms:.2} ms over {} spawns",
        args.spawns
    ));

    // 2. Sequential.
    let mut c = Client::spawn(&args);
    c.initialize();
    c.call("network_create", json!({ "network_name": "seq" }));
    let mut rng = Rng::new(workload::SEED);
    let (_, lines) = calls(&mut c, n, |i| {
        (
            "network_add_node".into(),
            json!({ "network_name": "seq", "node_id": format!("v{i}") }),
        )
    });
    let seq_add_node = run_sequential(&mut c, &lines);
    log(format!("sequential add_node: {seq_add_node:?}"));
    let (_, lines) = calls(&mut c, n, |_| {
        let (s, t) = (rng.below(n), rng.below(n));
        (
            "network_add_edge".into(),
            json!({ "network_name": "seq", "source": format!("v{s}"), "target": format!("v{t}"), "weight": rng.unit() }),
        )
    });
    let seq_add_edge = run_sequential(&mut c, &lines);
    log(format!("sequential add_edge: {seq_add_edge:?}"));
    let (_, lines) = calls(&mut c, n, |_| {
        (
            "network_get_neighbors".into(),
            json!({ "network_name": "seq", "node_id": format!("v{}", rng.below(n)) }),
        )
    });
    let seq_neighbors = run_sequential(&mut c, &lines);
    log(format!("sequential get_neighbors: {seq_neighbors:?}"));

    // 3. Pipelined, on the same server and network.
    let (first, lines) = calls(&mut c, n, |_| {
        let (s, t) = (rng.below(n), rng.below(n));
        (
            "network_add_edge".into(),
            json!({ "network_name": "seq", "source": format!("v{s}"), "target": format!("v{t}"), "weight": rng.unit() }),
        )
    });
    let pipe_add_edge = run_pipelined(&mut c, &lines, first, args.inflight);
    log(format!("pipelined add_edge: {pipe_add_edge:?}"));
    let (first, lines) = calls(&mut c, n, |_| {
        (
            "network_get_neighbors".into(),
            json!({ "network_name": "seq", "node_id": format!("v{}", rng.below(n)) }),
        )
    });
    let pipe_neighbors = run_pipelined(&mut c, &lines, first, args.inflight);
    log(format!("pipelined get_neighbors: {pipe_neighbors:?}"));
    c.close();

    // 4. Bulk load.
    let mut c = Client::spawn(&args);
    c.initialize();
    c.call("network_create", json!({ "network_name": "bulk" }));
    let bulk_nodes = (args.bulk_edges / 5).max(2);
    let mut edges_left = args.bulk_edges;
    let mut batches = Vec::new();
    while edges_left > 0 {
        let k = edges_left.min(args.batch);
        edges_left -= k;
        let edges: Vec<Value> = (0..k)
            .map(|_| {
                let s = rng.below(bulk_nodes);
                let mut t = rng.below(bulk_nodes - 1);
                if t >= s {
                    t += 1;
                }
                json!({ "source": format!("b{s}"), "target": format!("b{t}"), "weight": rng.unit() })
            })
            .collect();
        batches.push(
            c.call_line(
                "network_add_edges",
                json!({ "network_name": "bulk", "edges": edges, "create_missing_nodes": true }),
            )
            .1,
        );
    }
    let bulk_bytes: usize = batches.iter().map(String::len).sum();
    let bulk = run_sequential(&mut c, &batches);
    let reply = c.call("network_describe", json!({ "network_name": "bulk" }));
    let counts = &reply["result"]["structuredContent"];
    log(format!(
        "bulk: {} edges in {} batches ({:.0} MB of JSON) in {:.3} s; network now {} nodes, {} edges",
        args.bulk_edges,
        batches.len(),
        bulk_bytes as f64 / 1e6,
        bulk.seconds,
        counts["node_count"],
        counts["edge_count"]
    ));
    c.close();

    let out = json!({
        "bin": args.bin,
        "calls": n,
        "inflight": args.inflight,
        "startup_ms": startup_ms,
        "startup_all_ms": startup.iter().map(|s| s * 1e3).collect::<Vec<_>>(),
        "sequential": {
            "network_add_node": seq_add_node.json(),
            "network_add_edge": seq_add_edge.json(),
            "network_get_neighbors": seq_neighbors.json(),
        },
        "pipelined": {
            "network_add_edge": pipe_add_edge.json(),
            "network_get_neighbors": pipe_neighbors.json(),
        },
        "bulk": {
            "edges": args.bulk_edges,
            "nodes": bulk_nodes,
            "batch": args.batch,
            "batches": batches.len(),
            "request_bytes": bulk_bytes,
            "seconds": bulk.seconds,
            "edges_per_s": args.bulk_edges as f64 / bulk.seconds,
            "batch_p50_ms": bulk.p50_ms,
            "batch_p99_ms": bulk.p99_ms,
        },
    });
    if args.json {
        println!("{out}");
    } else {
        println!("{}", serde_json::to_string_pretty(&out).expect("json"));
    }
}
