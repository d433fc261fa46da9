//! The liveness test: heavy calls must not stall the server for anyone else.
//! Run against the built binary over HTTP, by `scripts/test`:
//!
//! ```text
//! cargo run --release --example liveness -- --server target/release/networks-mcp
//! cargo run --release --example liveness -- --server target/release/networks-mcp --bench
//! ```
//!
//! Checked, exiting non-zero otherwise:
//! 1. While five heavy calls run at once (PageRank that cannot converge, exact
//!    closeness, negative-weight shortest paths on a graph built to make them
//!    quadratic, a `network_query` that walks every path of up to ten hops and
//!    keeps none), `/healthz`, `network_list` and a write to another network each
//!    answer within 1 s, and the heavy calls end with `deadline_exceeded` once the
//!    server's `--max-call-seconds` has passed.
//!    Meanwhile 600 slow clients, each having sent half a header, hold
//!    connections past the server's cap (`--max-connections 512`): the oldest are
//!    shed, and `/healthz` still answers within 1 s.
//! 2. A heavy call cancelled with `notifications/cancelled` stops: the server's CPU
//!    use, read from `/proc`, falls to nearly nothing within 1 s.
//! 3. On a durable server (`--data-dir`), while a sampled betweenness reads one
//!    network and eight writes to it wait, writes to another network answer
//!    (p90 within 100 ms, every one within 1 s), and the writes to the held
//!    network succeed once it is free or are refused `server_busy` past the
//!    per-network cap of waiters.
//!
//! `--bench` prints the figures of BENCHMARKS.md instead: light-call latency
//! (`network_get_neighbors`, p50 and p99 of 400 calls) while 0, 2 and 8 heavy
//! calls run.

#[path = "mcp_http/mod.rs"]
mod mcp_http;

use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::Child;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use mcp_http::{Mcp, spawn};
use serde_json::{Value, json};

/// Nodes of the network the heavy calls read.
const NODES: usize = 100_000;
/// The deadline the server is started with, in seconds.
const MAX_CALL_SECONDS: u64 = 8;
/// The longest a light call, `/healthz` or `network_list` may take.
const LIGHT_BOUND: Duration = Duration::from_secs(1);

struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(bin: &PathBuf, max_call_seconds: u64) -> Server {
        Server::start_with(bin, max_call_seconds, &[])
    }

    /// A server started with `extra` arguments too.
    fn start_with(bin: &PathBuf, max_call_seconds: u64, extra: &[&str]) -> Server {
        let args: Vec<String> = [
            "--toolsets",
            "core,edit,analysis,interchange,algorithms",
            "--log-level",
            "error",
            "--max-call-seconds",
            &max_call_seconds.to_string(),
        ]
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect();
        let (child, port) = spawn(bin, &args, 0);
        Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    fn session(&self) -> Mcp {
        let mut mcp = Mcp::new(Arc::new(RwLock::new(self.base.clone())));
        mcp.connect();
        mcp
    }

    /// CPU seconds the server process has used so far (user + system).
    fn cpu_seconds(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .expect("the server's /proc/PID/stat");
        // Fields after the command name, which is in parentheses and may hold spaces.
        let rest = &stat[stat.rfind(')').expect("a stat line") + 2..];
        let fields: Vec<&str> = rest.split(' ').collect();
        let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
        ticks / 100.0
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `big`: NODES nodes, a chain plus three random edges a node; `crafted`: a source
/// with 0-weight edges to every node and a chain of -1 edges, on which
/// queue-based Bellman-Ford goes quadratic; `other`: a small network for light calls.
fn load(mcp: &mut Mcp) {
    let mut csv = String::from("source,target,weight\n");
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in 0..NODES {
        if i + 1 < NODES {
            writeln!(csv, "n{i},n{},1", i + 1).unwrap();
        }
        for _ in 0..3 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            writeln!(csv, "n{i},n{},{}", x as usize % NODES, 1 + x % 9).unwrap();
        }
    }
    mcp.ok(
        "network_import",
        json!({"network_name": "big", "format": "edge_list_csv", "content": csv}),
    );
    let crafted_nodes = 40_000;
    let mut csv = String::from("source,target,weight\n");
    for i in 0..crafted_nodes {
        writeln!(csv, "s,c{i},0").unwrap();
        if i + 1 < crafted_nodes {
            writeln!(csv, "c{i},c{},-1", i + 1).unwrap();
        }
    }
    mcp.ok(
        "network_import",
        json!({"network_name": "crafted", "format": "edge_list_csv", "content": csv}),
    );
    mcp.ok("network_create", json!({"network_name": "other"}));
    for node in ["a", "b"] {
        mcp.ok(
            "network_add_node",
            json!({"network_name": "other", "node_id": node}),
        );
    }
    mcp.ok(
        "network_add_edge",
        json!({"network_name": "other", "source": "a", "target": "b"}),
    );
}

/// How many kinds of heavy call [`heavy_call`] makes.
const HEAVY_KINDS: usize = 5;

/// The heavy calls, in turn.
fn heavy_call(i: usize) -> (&'static str, Value) {
    match i % HEAVY_KINDS {
        0 => (
            "network_centrality",
            json!({"network_name": "big", "measure": "pagerank", "damping": 1.0,
                   "tolerance": 1e-300, "max_iterations": 100_000}),
        ),
        1 => (
            "network_centrality",
            json!({"network_name": "big", "measure": "betweenness", "k": 3_900}),
        ),
        2 => (
            "network_shortest_path",
            json!({"network_name": "crafted", "source": "s", "target": "c39999"}),
        ),
        3 => (
            "network_centrality",
            json!({"network_name": "big", "measure": "betweenness", "k": 3_900, "weighted": true}),
        ),
        // Every path of 1 to 10 hops from every node (about 4^10 from each), none of
        // which the WHERE keeps: no row is made, so only the deadline stops it. The
        // condition joins both ends, so no start can use it: a condition on one end
        // only (`b.id = 'nowhere'`) lets the planner start from that end, which
        // samples to almost no node, and answer at once.
        _ => (
            "network_query",
            json!({"network_name": "big",
                   "query": "MATCH (a)-[*1..10]->(b) WHERE b.id = a.id + '!' RETURN count(*)"}),
        ),
    }
}

/// Starts `count` heavy calls, each in its own session and thread, repeated
/// until `stop` is raised (once when `stop` is `None`); each thread answers the
/// codes its calls ended with.
fn heavy_load(
    server: &Server,
    count: usize,
    stop: Option<Arc<AtomicBool>>,
) -> Vec<std::thread::JoinHandle<Vec<String>>> {
    (0..count)
        .map(|i| {
            let mut mcp = server.session();
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut codes = Vec::new();
                loop {
                    let (tool, arguments) = heavy_call(i);
                    // In the benchmark the server is stopped under running calls.
                    let Ok(reply) = mcp.tool(tool, arguments) else {
                        return codes;
                    };
                    codes.push(reply["code"].as_str().unwrap_or("success").to_string());
                    if stop.as_ref().is_none_or(|s| s.load(Ordering::Relaxed)) {
                        return codes;
                    }
                }
            })
        })
        .collect()
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let started = Instant::now();
    let out = f();
    (out, started.elapsed())
}

/// Slow clients beyond the server's connection cap: each sends half a header.
const SLOW_CLIENTS: usize = 600;
/// The server's default `--max-connections`.
const MAX_CONNECTIONS: usize = 512;

/// Opens `count` connections that each send half a request header and then wait.
fn slow_clients(server: &Server, count: usize) -> Vec<TcpStream> {
    let addr = server.base.trim_start_matches("http://").to_string();
    (0..count)
        .filter_map(|_| {
            let mut stream = TcpStream::connect(&addr).ok()?;
            stream
                .write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .ok()?;
            Some(stream)
        })
        .collect()
}

/// How many of `streams` the server has closed (or answered, which it does only
/// to refuse them).
fn closed(streams: &[TcpStream]) -> usize {
    streams
        .iter()
        .filter(|stream| {
            let mut stream: &TcpStream = stream;
            let _ = stream.set_nonblocking(true);
            let mut byte = [0u8; 1];
            // An open connection that the server still waits on would block.
            !matches!(stream.read(&mut byte), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
        })
        .count()
}

/// Check 1: light calls answer while the heavy calls, one of each kind, run and slow clients
/// crowd the connection cap.
fn light_calls_answer(server: &Server, failures: &mut Vec<String>) {
    let heavy = heavy_load(server, HEAVY_KINDS, None);
    let slow = slow_clients(server, SLOW_CLIENTS);
    std::thread::sleep(Duration::from_millis(300));
    let mut mcp = server.session();
    let http = reqwest::blocking::Client::new();
    let (mut worst_health, mut worst_list, mut worst_write) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let until = Instant::now() + Duration::from_secs(MAX_CALL_SECONDS - 2);
    let mut n = 0;
    while Instant::now() < until {
        let (health, took) = timed(|| http.get(format!("{}/healthz", server.base)).send());
        assert!(health.is_ok_and(|r| r.status().is_success()));
        worst_health = worst_health.max(took);
        let (_, took) = timed(|| mcp.ok("network_list", json!({})));
        worst_list = worst_list.max(took);
        let (_, took) = timed(|| {
            mcp.ok(
                "network_add_node",
                json!({"network_name": "other", "node_id": format!("w{n}")}),
            )
        });
        worst_write = worst_write.max(took);
        n += 1;
        std::thread::sleep(Duration::from_millis(100));
    }
    let shed = closed(&slow);
    drop(slow);
    let codes: Vec<String> = heavy
        .into_iter()
        .flat_map(|h| h.join().expect("a heavy caller"))
        .collect();
    println!("liveness: {SLOW_CLIENTS} slow clients opened, {shed} shed by the server");
    if shed < SLOW_CLIENTS - MAX_CONNECTIONS {
        failures.push(format!(
            "only {shed} of {SLOW_CLIENTS} slow clients were shed at a cap of {MAX_CONNECTIONS}"
        ));
    }
    println!(
        "liveness: {n} rounds beside {HEAVY_KINDS} heavy calls; slowest /healthz {worst_health:?}, network_list {worst_list:?}, write to another network {worst_write:?}; heavy calls ended with {codes:?}"
    );
    for (what, worst) in [
        ("/healthz", worst_health),
        ("network_list", worst_list),
        ("a write to another network", worst_write),
    ] {
        if worst > LIGHT_BOUND {
            failures.push(format!("{what} took {worst:?} beside the heavy calls"));
        }
    }
    // The crafted shortest path may finish in time on a fast machine; the others
    // cannot, and must end at the deadline.
    let stopped = codes.iter().filter(|c| *c == "deadline_exceeded").count();
    if stopped < HEAVY_KINDS - 1
        || codes
            .iter()
            .any(|c| c != "deadline_exceeded" && c != "success")
    {
        failures.push(format!(
            "the heavy calls should have ended with deadline_exceeded, got {codes:?}"
        ));
    }
}

/// Check 2: a cancelled call stops using the CPU.
fn cancelled_call_stops(server: &Server, failures: &mut Vec<String>) {
    let mcp = server.session();
    let caller = mcp.same_session(1_000);
    let id = caller.next_request_id();
    let call = std::thread::spawn(move || {
        let (tool, arguments) = heavy_call(0);
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                          "params": {"name": tool, "arguments": arguments}});
        // A cancelled request may get no reply at all: only the CPU is checked.
        caller
            .post(&body)
            .and_then(|r| r.text())
            .unwrap_or_default()
    });
    std::thread::sleep(Duration::from_millis(1_000));
    let busy_from = server.cpu_seconds();
    std::thread::sleep(Duration::from_millis(500));
    let busy = server.cpu_seconds() - busy_from;
    assert!(
        mcp.notify(
            "notifications/cancelled",
            json!({"requestId": id, "reason": "liveness test"})
        ),
        "the server did not take the cancellation"
    );
    std::thread::sleep(Duration::from_millis(1_000));
    let idle_from = server.cpu_seconds();
    std::thread::sleep(Duration::from_millis(1_000));
    let after = server.cpu_seconds() - idle_from;
    let reply = call.join().expect("the cancelled caller");
    println!(
        "liveness: the call used {busy:.2} CPU-s in the 0.5 s before its cancellation, {after:.2} CPU-s in the second after the first second past it; {} bytes of reply",
        reply.len()
    );
    if after > 0.15 {
        failures.push(format!(
            "a cancelled call still used {after:.2} CPU-s a second after its cancellation"
        ));
    }
}

/// Writes sent at once to the network a long read holds, in check 3.
const WAITING_WRITES: usize = 8;
/// The longest most durable writes to another network may take in check 3.
const DURABLE_WRITE_BOUND: Duration = Duration::from_millis(100);

/// Check 3, on a durable server: while a sampled betweenness reads `big` and
/// [`WAITING_WRITES`] writes to `big` wait for it, writes to `other` answer at
/// once (no write waits for a network while holding the journal), and the
/// writes past the per-network cap of waiters are refused `server_busy` rather
/// than taking every light thread.
fn durable_writes_never_wait_for_another_network(bin: &PathBuf, failures: &mut Vec<String>) {
    let dir = std::env::temp_dir().join(format!("networks-mcp-liveness-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.display().to_string();
    let server = Server::start_with(bin, MAX_CALL_SECONDS, &["--data-dir", &dir_arg]);
    let mut mcp = server.session();
    load(&mut mcp);
    let mut reader = server.session();
    let read = std::thread::spawn(move || {
        reader.tool(
            "network_centrality",
            json!({"network_name": "big", "measure": "betweenness", "k": 3_900}),
        )
    });
    std::thread::sleep(Duration::from_millis(300));
    let waiting: Vec<_> = (0..WAITING_WRITES)
        .map(|i| {
            let mut writer = server.session();
            std::thread::spawn(move || {
                writer
                    .tool(
                        "network_add_node",
                        json!({"network_name": "big", "node_id": format!("waiting{i}")}),
                    )
                    .map(|reply| reply["code"].as_str().unwrap_or("success").to_string())
                    .unwrap_or_else(|_| "lost".into())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut took: Vec<Duration> = (0..30)
        .map(|n| {
            let (_, took) = timed(|| {
                mcp.ok(
                    "network_add_node",
                    json!({"network_name": "other", "node_id": format!("durable{n}")}),
                )
            });
            std::thread::sleep(Duration::from_millis(50));
            took
        })
        .collect();
    let codes: Vec<String> = waiting
        .into_iter()
        .map(|w| w.join().expect("a waiting writer"))
        .collect();
    let _ = read.join();
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    took.sort();
    let p90 = took[took.len() * 9 / 10];
    let worst = took[took.len() - 1];
    let busy = codes.iter().filter(|c| *c == "server_busy").count();
    println!(
        "liveness: durable writes to another network beside a long read and {WAITING_WRITES} writes waiting for it: median {:?}, p90 {p90:?}, slowest {worst:?}; the waiting writes ended with {codes:?}",
        took[took.len() / 2]
    );
    if p90 > DURABLE_WRITE_BOUND || worst > LIGHT_BOUND {
        failures.push(format!(
            "durable writes to another network took p90 {p90:?}, slowest {worst:?} (bounds {DURABLE_WRITE_BOUND:?}, {LIGHT_BOUND:?}) while a long read held a network"
        ));
    }
    if codes.iter().any(|c| c != "success" && c != "server_busy") {
        failures.push(format!(
            "writes waiting for a held network should succeed or be refused server_busy, got {codes:?}"
        ));
    }
    println!(
        "liveness: {busy} of {WAITING_WRITES} writes to the held network were refused server_busy"
    );
}

/// Light-call latency beside 0, 2 and 8 heavy calls.
fn bench(bin: &PathBuf) {
    println!("| heavy calls running | light calls | p50 | p99 | max |");
    println!("|---:|---:|---:|---:|---:|");
    for heavy in [0, 2, 8] {
        // A server of its own for each row, so no call of the row before runs on.
        let server = Server::start(bin, 120);
        let mut mcp = server.session();
        load(&mut mcp);
        let stop = Arc::new(AtomicBool::new(false));
        let _threads = heavy_load(&server, heavy, Some(Arc::clone(&stop)));
        std::thread::sleep(Duration::from_millis(500));
        let mut took: Vec<Duration> = (0..400)
            .map(|i| {
                timed(|| {
                    mcp.ok(
                        "network_get_neighbors",
                        json!({"network_name": "other", "node_id": if i % 2 == 0 { "a" } else { "b" }}),
                    )
                })
                .1
            })
            .collect();
        stop.store(true, Ordering::Relaxed);
        took.sort();
        let at = |q: f64| took[((took.len() - 1) as f64 * q) as usize];
        println!(
            "| {heavy} | {} | {:.2} ms | {:.2} ms | {:.2} ms |",
            took.len(),
            at(0.5).as_secs_f64() * 1e3,
            at(0.99).as_secs_f64() * 1e3,
            at(1.0).as_secs_f64() * 1e3,
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut server_bin = None;
    let mut bench_mode = false;
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--server" => server_bin = args.next().map(PathBuf::from),
            "--bench" => bench_mode = true,
            other => panic!("unknown option {other}; see the example's docs"),
        }
    }
    let bin = server_bin.expect("--server PATH: the networks-mcp binary");
    if bench_mode {
        bench(&bin);
        return;
    }
    let server = Server::start(&bin, MAX_CALL_SECONDS);
    let mut mcp = server.session();
    let (_, took) = timed(|| load(&mut mcp));
    println!("liveness: loaded {NODES} nodes in {took:?}");
    let mut failures = Vec::new();
    light_calls_answer(&server, &mut failures);
    cancelled_call_stops(&server, &mut failures);
    drop(server);
    durable_writes_never_wait_for_another_network(&bin, &mut failures);
    if failures.is_empty() {
        println!("liveness: every check held");
    } else {
        for failure in &failures {
            eprintln!("liveness: FAILED: {failure}");
        }
        std::process::exit(1);
    }
}
