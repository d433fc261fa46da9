//! The agent's workload: write a little, then ask, many times over.
//!
//! ```sh
//! cargo run --release --example bench_workload -- --nodes 100000 [--rounds 200] [--peers] [--json]
//! ```
//!
//! The graph is the benchmark DAG of `benches/workload` (N nodes `n0…`, 5N edge
//! draws, each edge from the lower to the higher number, weights in [0, 1)). A
//! round is one small write, then ONE query:
//!
//! * the write: 10 new edges between random existing nodes (from the lower to
//!   the higher number, so the graph stays acyclic) and the attribute `status`
//!   set to `"done"` on 5 random nodes;
//! * the query, in turn: the ancestors of a random node (`reachable` along
//!   incoming edges, no depth bound, a page of 100 = `network_ancestors`'
//!   default, `total` counting every ancestor, so the walk covers them all);
//!   the ready nodes (not done, every successor done; done-ness read from the
//!   attribute, as `network_ready_nodes` with `done_attributes` reads it);
//!   the topological layers (`topological_sort`, Kahn layers); a weighted
//!   shortest path from a random node to a random node it reaches (most random
//!   pairs are not connected in this DAG).
//!
//! Every query follows a structural change, so each is the "cold" case of
//! BENCHMARKS.md: the compact adjacency rows were dropped by the write and the
//! query either rebuilds them or walks petgraph's lists. With `--warm` (the
//! default) each query is also run a second time right after, on the rows the
//! first built, outside the rounds' time: the difference is what the rebuild
//! costs each round.
//!
//! Three ways, on the same graph and the same rounds (a deterministic seed):
//!
//! 1. **library**: the public `Network` API, ids as strings;
//! 2. **MCP**: the release server binary over stdio, driven by a lean client
//!    (newline-delimited JSON-RPC, request lines formatted before their timer
//!    starts): the graph loaded with `network_add_nodes` and `network_add_edges`
//!    batches of 10,000, then each round's `network_add_edges` and
//!    `network_update_nodes` written back to back (pipelined: neither waits for
//!    the other) and its query sent once both are acknowledged, since the server
//!    runs calls concurrently and a query sent earlier could overtake the write
//!    it must follow (`network_ancestors`, `network_ready_nodes` with
//!    `done_attributes: {"status": "done"}`, `network_topological_sort`,
//!    `network_shortest_path`, default pages);
//! 3. with `--peers`: `benches/peers/workload.py` runs the same rounds with
//!    rustworkx, igraph and NetworkX (NetworkX only the first `--nx-rounds`:
//!    default 40, 8 past 200,000 nodes) on the edge list and rounds this program
//!    writes (`--edges PATH`, default in the temporary directory), and checks
//!    their answers against ours.
//!
//! Reports rounds per second (writes and queries, the warm repeats left out),
//! the write's latency, and each query kind's p50 and p99 (a kind runs in every
//! fourth round, so at 200 rounds its p99 is its slowest of 50), then one table
//! with the ratios to the best peer. The server binary is `--bin PATH`, or the
//! `networks-mcp` beside this program's directory, built first when run by
//! `cargo run` (cargo builds an example without the crate's binaries).

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use networks_mcp::network::{AttributeUpdate, Direction, MissingNodes, Network, Order, Weighted};
use petgraph::visit::NodeIndexable;
use serde_json::{Map, Value, json};

#[path = "../benches/workload/mod.rs"]
mod workload;
use workload::{IntEdge, Rng, Workload};

/// New edges per write.
const EDGES_PER_WRITE: usize = 10;
/// Nodes marked done per write.
const UPDATES_PER_WRITE: usize = 5;
/// The page of ancestors and of ready nodes: the MCP tools' default `limit`.
const PAGE: usize = 100;
/// Blocked examples asked for: `network_ready_nodes`' default `blocked_limit`.
const BLOCKED_EXAMPLES: usize = 5;
/// Nodes and edges per loading call (the server's batch cap).
const LOAD_BATCH: usize = 10_000;

const KINDS: [&str; 4] = ["ancestors", "ready", "layers", "path"];

struct Args {
    nodes: usize,
    rounds: usize,
    seed: u64,
    json: bool,
    peers: bool,
    mcp: bool,
    warm: bool,
    edges: Option<String>,
    bin: Option<String>,
    python: String,
    nx_rounds: Option<usize>,
}

fn parse_args() -> Args {
    let mut args = Args {
        nodes: 100_000,
        rounds: 200,
        seed: workload::SEED,
        json: false,
        peers: false,
        mcp: true,
        warm: true,
        edges: None,
        bin: None,
        python: "python3".to_string(),
        nx_rounds: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut text = |name: &str| -> String {
            it.next()
                .unwrap_or_else(|| usage(&format!("{name} needs a value")))
        };
        let num = |s: String| -> u64 {
            s.replace('_', "")
                .parse()
                .unwrap_or_else(|_| usage(&format!("not a number: {s}")))
        };
        match a.as_str() {
            "--nodes" | "-n" => args.nodes = num(text("--nodes")) as usize,
            "--rounds" => args.rounds = (num(text("--rounds")) as usize).max(1),
            "--seed" => args.seed = num(text("--seed")),
            "--edges" => args.edges = Some(text("--edges")),
            "--bin" => args.bin = Some(text("--bin")),
            "--python" => args.python = text("--python"),
            "--nx-rounds" => args.nx_rounds = Some(num(text("--nx-rounds")) as usize),
            "--peers" => args.peers = true,
            "--no-mcp" => args.mcp = false,
            "--no-warm" => args.warm = false,
            "--json" => args.json = true,
            "-h" | "--help" => usage(""),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    args
}

fn usage(msg: &str) -> ! {
    if !msg.is_empty() {
        eprintln!("bench_workload: {msg}");
    }
    eprintln!(
        "usage: bench_workload [--nodes N] [--rounds R] [--seed S] [--peers] [--nx-rounds K] [--edges PATH] [--bin PATH] [--python PYTHON] [--no-mcp] [--no-warm] [--json]"
    );
    std::process::exit(if msg.is_empty() { 0 } else { 2 })
}

/// One round's query.
#[derive(Debug, Clone, Copy)]
enum Query {
    Ancestors(u32),
    Ready,
    Layers,
    Path(u32, u32),
}

impl Query {
    /// Its slot in [`KINDS`].
    fn kind(self) -> usize {
        match self {
            Query::Ancestors(_) => 0,
            Query::Ready => 1,
            Query::Layers => 2,
            Query::Path(..) => 3,
        }
    }
}

struct Round {
    edges: Vec<IntEdge>,
    done: Vec<u32>,
    query: Query,
}

/// Two distinct node numbers, the lower first.
fn pair(rng: &mut Rng, n: usize) -> (u32, u32) {
    let a = rng.below(n);
    let mut b = rng.below(n - 1);
    if b >= a {
        b += 1;
    }
    (a.min(b) as u32, a.max(b) as u32)
}

/// A node `from` reaches, drawn uniformly among all it reaches, or `None`.
/// Most random pairs of this DAG are not connected (a node reaches a few
/// hundred to a few thousand others), and a query answering "no path" every
/// time would measure little: the path query goes to a node that is reached.
/// Writes only add edges, so it stays reached.
fn random_descendant(out: &[Vec<u32>], from: u32, rng: &mut Rng) -> Option<u32> {
    let mut seen = vec![false; out.len()];
    seen[from as usize] = true;
    let mut reached = vec![from];
    let mut at = 0;
    while let Some(&v) = reached.get(at) {
        at += 1;
        for &t in &out[v as usize] {
            if !seen[t as usize] {
                seen[t as usize] = true;
                reached.push(t);
            }
        }
    }
    (reached.len() > 1).then(|| reached[1 + rng.below(reached.len() - 1)])
}

/// The rounds, from their own stream of the seed (the graph's is untouched).
fn make_rounds(w: &Workload, count: usize, seed: u64) -> Vec<Round> {
    let n = w.n;
    let mut out = vec![Vec::new(); n];
    for &(u, v, _) in &w.dag_edges {
        out[u as usize].push(v);
    }
    let mut rng = Rng::new(seed ^ 0x726f_756e_6473);
    (0..count)
        .map(|i| {
            let edges = (0..EDGES_PER_WRITE)
                .map(|_| {
                    let (a, b) = pair(&mut rng, n);
                    (a, b, rng.unit())
                })
                .collect();
            let done = (0..UPDATES_PER_WRITE)
                .map(|_| rng.below(n) as u32)
                .collect();
            let query = match i % KINDS.len() {
                0 => Query::Ancestors(rng.below(n) as u32),
                1 => Query::Ready,
                2 => Query::Layers,
                _ => loop {
                    let from = rng.below(n) as u32;
                    if let Some(to) = random_descendant(&out, from, &mut rng) {
                        break Query::Path(from, to);
                    }
                },
            };
            Round { edges, done, query }
        })
        .collect()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// p50 and p99 of some latencies in seconds, in milliseconds.
fn p50_p99(xs: &[f64]) -> (f64, f64) {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    (percentile(&v, 0.5) * 1e3, percentile(&v, 0.99) * 1e3)
}

/// What one way of running the rounds measured.
struct Run {
    name: String,
    /// Building (library) or loading (MCP) the graph, in seconds.
    build_s: f64,
    /// The rounds' wall time (writes and queries; no warm repeats).
    seconds: f64,
    rounds: usize,
    write: Vec<f64>,
    queries: [Vec<f64>; 4],
    warm: [Vec<f64>; 4],
    answers: Vec<i64>,
}

impl Run {
    fn new(name: &str, build_s: f64) -> Run {
        Run {
            name: name.to_string(),
            build_s,
            seconds: 0.0,
            rounds: 0,
            write: Vec::new(),
            queries: Default::default(),
            warm: Default::default(),
            answers: Vec::new(),
        }
    }

    fn rounds_per_s(&self) -> f64 {
        self.rounds as f64 / self.seconds
    }

    fn json(&self) -> Value {
        let (w50, w99) = p50_p99(&self.write);
        let mut queries = Map::new();
        for (k, name) in KINDS.iter().enumerate() {
            let (p50, p99) = p50_p99(&self.queries[k]);
            let mut q = json!({ "count": self.queries[k].len(), "p50_ms": p50, "p99_ms": p99 });
            if !self.warm[k].is_empty() {
                let (warm50, warm99) = p50_p99(&self.warm[k]);
                q["warm_p50_ms"] = json!(warm50);
                q["warm_p99_ms"] = json!(warm99);
            }
            queries.insert(name.to_string(), q);
        }
        json!({
            "library": self.name,
            "build_s": self.build_s,
            "rounds": self.rounds,
            "seconds": self.seconds,
            "rounds_per_s": self.rounds_per_s(),
            "write_p50_ms": w50,
            "write_p99_ms": w99,
            "queries": queries,
        })
    }
}

// ---------------------------------------------------------------------------
// The library
// ---------------------------------------------------------------------------

fn done_attributes() -> Map<String, Value> {
    let mut done = Map::new();
    done.insert("status".into(), json!("done"));
    done
}

fn write_library(net: &mut Network, ids: &[String], r: &Round) {
    let id = |v: u32| ids[v as usize].as_str();
    net.add_edges(
        r.edges.iter().map(|&(u, v, w)| (id(u), id(v), w)),
        MissingNodes::Fail,
    )
    .expect("valid edges");
    for &v in &r.done {
        net.update_node(
            id(v),
            None,
            Some(done_attributes()),
            AttributeUpdate::Merge,
            &[],
        )
        .expect("a node");
    }
}

/// The query's answer as a number the peers give too: the number of ancestors,
/// of ready nodes, of layers, or the path's hops (-1: no path).
fn query_library(net: &Network, ids: &[String], q: Query) -> i64 {
    let id = |v: u32| ids[v as usize].as_str();
    match q {
        Query::Ancestors(v) => {
            net.reachable(id(v), Direction::In, None, PAGE)
                .expect("a node")
                .total as i64
        }
        Query::Ready => {
            // Done-ness lives in the attributes, as an agent records it: read it
            // as `network_ready_nodes` does with `done_attributes`.
            let done_value = json!("done");
            let g = net.graph();
            let mut done = vec![false; g.node_bound()];
            for ix in net.node_indices() {
                if g[ix].attributes.get("status") == Some(&done_value) {
                    done[ix.index()] = true;
                }
            }
            net.ready_nodes_by_index(&done, Direction::Out, PAGE, BLOCKED_EXAMPLES)
                .ready_total as i64
        }
        Query::Layers => net
            .topological_sort(Order::Forward)
            .expect("a DAG")
            .layers
            .len() as i64,
        Query::Path(a, b) => net
            .shortest_path(id(a), id(b), Weighted::Yes)
            .expect("nodes")
            .map_or(-1, |p| p.hops as i64),
    }
}

fn run_library(w: &Workload, rounds: &[Round], warm: bool) -> Run {
    let started = Instant::now();
    let mut net = workload::ours_build(&w.ids, &w.str_dag_edges);
    let mut run = Run::new("networks-mcp library", started.elapsed().as_secs_f64());
    for r in rounds {
        let t0 = Instant::now();
        write_library(&mut net, &w.ids, r);
        let t1 = Instant::now();
        let answer = query_library(&net, &w.ids, r.query);
        let t2 = Instant::now();
        run.write.push((t1 - t0).as_secs_f64());
        run.queries[r.query.kind()].push((t2 - t1).as_secs_f64());
        run.seconds += (t2 - t0).as_secs_f64();
        run.answers.push(answer);
        if warm {
            let t3 = Instant::now();
            let again = query_library(&net, &w.ids, r.query);
            run.warm[r.query.kind()].push(t3.elapsed().as_secs_f64());
            assert_eq!(again, answer, "the same query twice");
        }
    }
    run.rounds = rounds.len();
    run
}

// ---------------------------------------------------------------------------
// The server over stdio
// ---------------------------------------------------------------------------

/// The server binary: `--bin`, or `networks-mcp` in the profile directory this
/// program runs from (`…/release/examples/bench_workload`), built first when
/// `cargo run` started us, since cargo builds an example without the binaries.
fn server_binary(args: &Args) -> PathBuf {
    if let Some(bin) = &args.bin {
        return PathBuf::from(bin);
    }
    let exe = std::env::current_exe().expect("own path");
    let profile_dir = exe
        .parent()
        .and_then(|examples| examples.parent())
        .expect("an examples directory")
        .to_path_buf();
    if let Ok(cargo) = std::env::var("CARGO") {
        let mut build = Command::new(cargo);
        build
            .args(["build", "--quiet", "--bin", "networks-mcp"])
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if profile_dir.file_name().is_some_and(|p| p == "release") {
            build.arg("--release");
        }
        let ok = build.status().is_ok_and(|s| s.success());
        if !ok {
            eprintln!("bench_workload: building the server failed");
            std::process::exit(1);
        }
    }
    profile_dir.join("networks-mcp")
}

/// One server process and its pipes.
struct Server {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: String,
    next_id: u64,
}

impl Server {
    fn spawn(bin: &PathBuf) -> Server {
        let mut child = Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                eprintln!("bench_workload: cannot start {}: {e}", bin.display());
                std::process::exit(1)
            });
        let stdin = BufWriter::with_capacity(1 << 20, child.stdin.take().expect("stdin"));
        let stdout = BufReader::with_capacity(1 << 20, child.stdout.take().expect("stdout"));
        let mut server = Server {
            child,
            stdin,
            stdout,
            line: String::new(),
            next_id: 1,
        };
        server.send(
            &json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": { "name": "bench_workload", "version": "1" }
                }
            })
            .to_string(),
        );
        server.flush();
        server.recv();
        server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server.flush();
        server
    }

    /// A `tools/call` line with a fresh id; `arguments` is JSON text.
    fn call_line(&mut self, tool: &str, arguments: &str) -> String {
        let id = self.next_id;
        self.next_id += 1;
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
        )
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).expect("write");
        self.stdin.write_all(b"\n").expect("write");
    }

    fn flush(&mut self) {
        self.stdin.flush().expect("flush");
    }

    /// The next response line (notifications and server requests skipped).
    fn recv(&mut self) -> &str {
        loop {
            self.line.clear();
            let n = self.stdout.read_line(&mut self.line).expect("read");
            assert!(n > 0, "the server closed stdout");
            if !self.line.contains("\"method\"") {
                return &self.line;
            }
        }
    }

    /// Receives one reply and fails on an error, without parsing it whole.
    fn recv_ok(&mut self) {
        let line = self.recv();
        if line.contains("\"isError\":true") || line.contains("\"error\":{") {
            panic!("call failed: {line}");
        }
    }

    fn close(mut self) {
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

/// Edge items of `network_add_edges` as JSON text.
fn edges_json(ids: &[String], edges: &[IntEdge]) -> String {
    let items: Vec<String> = edges
        .iter()
        .map(|&(u, v, w)| {
            format!(
                r#"{{"source":"{}","target":"{}","weight":{w}}}"#,
                ids[u as usize], ids[v as usize]
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

const NET: &str = "workload";

/// The request line of a round's query.
fn query_line(server: &mut Server, ids: &[String], q: Query) -> String {
    let id = |v: u32| &ids[v as usize];
    match q {
        Query::Ancestors(v) => server.call_line(
            "network_ancestors",
            &json!({ "network_name": NET, "node_id": id(v) }).to_string(),
        ),
        Query::Ready => server.call_line(
            "network_ready_nodes",
            &json!({ "network_name": NET, "done_attributes": { "status": "done" } }).to_string(),
        ),
        Query::Layers => server.call_line(
            "network_topological_sort",
            &json!({ "network_name": NET }).to_string(),
        ),
        Query::Path(a, b) => server.call_line(
            "network_shortest_path",
            &json!({ "network_name": NET, "source": id(a), "target": id(b) }).to_string(),
        ),
    }
}

/// The number a query's reply gives (see [`query_library`]).
fn answer_of(reply: &str, q: Query) -> i64 {
    let reply: Value = serde_json::from_str(reply).expect("a JSON reply");
    let out = &reply["result"]["structuredContent"];
    assert_eq!(out["status"], "success", "{reply}");
    let field = match q {
        Query::Ancestors(_) => "total",
        Query::Ready => "ready_count",
        Query::Layers => "layer_count",
        Query::Path(..) => "hops",
    };
    out[field].as_i64().unwrap_or(-1)
}

fn run_mcp(bin: &PathBuf, w: &Workload, rounds: &[Round]) -> Run {
    let mut server = Server::spawn(bin);
    // Load: nodes in id order, then the edges in order, so the network is the
    // library's, index for index.
    let mut lines = vec![server.call_line(
        "network_create",
        &json!({ "network_name": NET }).to_string(),
    )];
    for chunk in w.ids.chunks(LOAD_BATCH) {
        let nodes: Vec<String> = chunk
            .iter()
            .map(|id| format!(r#"{{"node_id":"{id}"}}"#))
            .collect();
        let arguments = format!(
            r#"{{"network_name":"{NET}","nodes":[{}]}}"#,
            nodes.join(",")
        );
        lines.push(server.call_line("network_add_nodes", &arguments));
    }
    for chunk in w.dag_edges.chunks(LOAD_BATCH) {
        let arguments = format!(
            r#"{{"network_name":"{NET}","edges":{}}}"#,
            edges_json(&w.ids, chunk)
        );
        lines.push(server.call_line("network_add_edges", &arguments));
    }
    let started = Instant::now();
    for line in &lines {
        server.send(line);
        server.flush();
        server.recv_ok();
    }
    let mut run = Run::new(
        "networks-mcp over MCP (stdio)",
        started.elapsed().as_secs_f64(),
    );
    drop(lines);

    let done = r#"{"status":"done"}"#;
    let calls: Vec<[String; 3]> = rounds
        .iter()
        .map(|r| {
            let add = server.call_line(
                "network_add_edges",
                &format!(
                    r#"{{"network_name":"{NET}","edges":{}}}"#,
                    edges_json(&w.ids, &r.edges)
                ),
            );
            let updates: Vec<String> = r
                .done
                .iter()
                .map(|&v| {
                    format!(
                        r#"{{"node_id":"{}","attributes":{done}}}"#,
                        w.ids[v as usize]
                    )
                })
                .collect();
            let update = server.call_line(
                "network_update_nodes",
                &format!(
                    r#"{{"network_name":"{NET}","updates":[{}]}}"#,
                    updates.join(",")
                ),
            );
            [add, update, query_line(&mut server, &w.ids, r.query)]
        })
        .collect();
    let started = Instant::now();
    for (r, [add, update, query]) in rounds.iter().zip(&calls) {
        let t0 = Instant::now();
        server.send(add);
        server.send(update);
        server.flush();
        server.recv_ok();
        server.recv_ok();
        let t1 = Instant::now();
        server.send(query);
        server.flush();
        server.recv();
        let t2 = Instant::now();
        run.write.push((t1 - t0).as_secs_f64());
        run.queries[r.query.kind()].push((t2 - t1).as_secs_f64());
        run.answers.push(answer_of(&server.line, r.query));
    }
    run.seconds = started.elapsed().as_secs_f64();
    run.rounds = rounds.len();
    server.close();
    run
}

// ---------------------------------------------------------------------------
// The peers
// ---------------------------------------------------------------------------

/// Writes the DAG and the rounds (with our answers, which the peers check) for
/// `benches/peers/workload.py`.
fn write_peer_input(path: &str, w: &Workload, rounds: &[Round], answers: &[i64]) {
    workload::write_edge_list(path, w.n, &w.dag_edges);
    let mut out = BufWriter::new(std::fs::File::create(format!("{path}.rounds")).expect("create"));
    for (r, &expect) in rounds.iter().zip(answers) {
        let mut line = json!({
            "edges": r.edges.iter().map(|&(u, v, w)| json!([u, v, w])).collect::<Vec<_>>(),
            "done": r.done,
            "query": KINDS[r.query.kind()],
            "expect": expect,
        });
        match r.query {
            Query::Ancestors(v) => line["node"] = json!(v),
            Query::Path(a, b) => {
                line["source"] = json!(a);
                line["target"] = json!(b);
            }
            Query::Ready | Query::Layers => {}
        }
        writeln!(out, "{line}").expect("write");
    }
}

/// Runs the peer script; one JSON object per library (or `{"missing": true}`).
fn run_peers(args: &Args, path: &str, nx_rounds: usize) -> Vec<Value> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/peers/workload.py");
    let output = Command::new(&args.python)
        .args([script, path, "--nx-rounds", &nx_rounds.to_string()])
        .stderr(Stdio::inherit())
        .output();
    match output {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect(),
        Ok(out) => {
            eprintln!(
                "bench_workload: the peer script failed ({}); `python3 -m pip install --user rustworkx igraph networkx`",
                out.status
            );
            Vec::new()
        }
        Err(e) => {
            eprintln!("bench_workload: cannot run {}: {e}", args.python);
            Vec::new()
        }
    }
}

// ---------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------

/// One row of the table: rounds/s, build (s), write p50/p99 and each kind's
/// p50/p99 (ms).
struct Row {
    name: String,
    rounds: usize,
    rounds_per_s: f64,
    build_s: f64,
    write: (f64, f64),
    kinds: [(f64, f64); 4],
}

impl Row {
    fn of_run(run: &Run) -> Row {
        Row {
            name: run.name.clone(),
            rounds: run.rounds,
            rounds_per_s: run.rounds_per_s(),
            build_s: run.build_s,
            write: p50_p99(&run.write),
            kinds: std::array::from_fn(|k| p50_p99(&run.queries[k])),
        }
    }

    fn of_peer(peer: &Value) -> Option<Row> {
        let f = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
        Some(Row {
            name: peer["library"].as_str()?.to_string(),
            rounds: peer["rounds"].as_u64()? as usize,
            rounds_per_s: f(&peer["rounds_per_s"]),
            build_s: f(&peer["build_s"]),
            write: (f(&peer["write_p50_ms"]), f(&peer["write_p99_ms"])),
            kinds: KINDS.map(|k| {
                let q = &peer["queries"][k];
                (f(&q["p50_ms"]), f(&q["p99_ms"]))
            }),
        })
    }
}

fn print_table(w: &Workload, rows: &[Row], ours: usize, library: Option<&Run>) {
    println!(
        "\nThe agent's workload: {} nodes, {} edges (a DAG); a round = {EDGES_PER_WRITE} new edges + {UPDATES_PER_WRITE} attribute updates, then one query",
        w.n,
        w.dag_edges.len()
    );
    println!(
        "{:<32} {:>7} {:>10} {:>8} {:>15} {:>17} {:>17} {:>17} {:>17}",
        "",
        "rounds",
        "rounds/s",
        "build s",
        "write ms",
        "ancestors ms",
        "ready ms",
        "layers ms",
        "path ms"
    );
    let pair = |(a, b): (f64, f64)| format!("{a:.2} / {b:.2}");
    for row in rows {
        println!(
            "{:<32} {:>7} {:>10.1} {:>8.2} {:>15} {:>17} {:>17} {:>17} {:>17}",
            row.name,
            row.rounds,
            row.rounds_per_s,
            row.build_s,
            pair(row.write),
            pair(row.kinds[0]),
            pair(row.kinds[1]),
            pair(row.kinds[2]),
            pair(row.kinds[3])
        );
    }
    if let Some(run) = library.filter(|r| !r.warm[0].is_empty()) {
        let warm: [(f64, f64); 4] = std::array::from_fn(|k| p50_p99(&run.warm[k]));
        println!(
            "{:<32} {:>7} {:>10} {:>8} {:>15} {:>17} {:>17} {:>17} {:>17}",
            "library, same query again (warm)",
            "",
            "",
            "",
            "",
            pair(warm[0]),
            pair(warm[1]),
            pair(warm[2]),
            pair(warm[3])
        );
    }
    // A peer that ran only the first rounds (NetworkX, capped) answered other
    // queries than ours: shown, but not compared.
    let all_rounds = rows[0].rounds;
    let peers: Vec<&Row> = rows[ours..]
        .iter()
        .filter(|r| r.rounds == all_rounds)
        .collect();
    if peers.is_empty() {
        return;
    }
    // The best peer per column: the most rounds/s, the least p50.
    let best_rate = peers.iter().map(|r| r.rounds_per_s).fold(0.0, f64::max);
    let best = |f: &dyn Fn(&Row) -> f64| peers.iter().map(|r| f(r)).fold(f64::INFINITY, f64::min);
    let best_write = best(&|r| r.write.0);
    let best_kind: [f64; 4] = std::array::from_fn(|k| best(&|r: &Row| r.kinds[k].0));
    let best_build = best(&|r| r.build_s);
    println!(
        "ratios to the best peer that ran every round (rounds/s: ours ÷ best; times: ours ÷ best p50):"
    );
    for row in &rows[..ours] {
        println!(
            "{:<32} {:>7} {:>9.2}x {:>7.2}x {:>14.2}x {:>16.2}x {:>16.2}x {:>16.2}x {:>16.2}x",
            row.name,
            "",
            row.rounds_per_s / best_rate,
            row.build_s / best_build,
            row.write.0 / best_write,
            row.kinds[0].0 / best_kind[0],
            row.kinds[1].0 / best_kind[1],
            row.kinds[2].0 / best_kind[2],
            row.kinds[3].0 / best_kind[3]
        );
    }
}

fn main() {
    let args = parse_args();
    let log = |s: String| {
        if !args.json {
            eprintln!("{s}");
        }
    };
    let w = workload::generate(args.nodes, args.seed);
    let rounds = make_rounds(&w, args.rounds, args.seed);
    log(format!(
        "workload: {} nodes, {} DAG edges, {} rounds",
        w.n,
        w.dag_edges.len(),
        rounds.len()
    ));

    let library = run_library(&w, &rounds, args.warm);
    log(format!(
        "library: {:.1} rounds/s, built in {:.2} s",
        library.rounds_per_s(),
        library.build_s
    ));

    let mcp = args.mcp.then(|| {
        let bin = server_binary(&args);
        let run = run_mcp(&bin, &w, &rounds);
        log(format!(
            "MCP: {:.1} rounds/s, loaded in {:.2} s",
            run.rounds_per_s(),
            run.build_s
        ));
        let differ = run
            .answers
            .iter()
            .zip(&library.answers)
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(differ, 0, "the server and the library answered differently");
        run
    });

    let peers = if args.peers {
        let path = args.edges.clone().unwrap_or_else(|| {
            std::env::temp_dir()
                .join(format!("bench_workload_{}.txt", w.n))
                .display()
                .to_string()
        });
        write_peer_input(&path, &w, &rounds, &library.answers);
        let nx_rounds = args.nx_rounds.unwrap_or(if w.n > 200_000 { 8 } else { 40 });
        run_peers(&args, &path, nx_rounds)
    } else {
        if let Some(path) = &args.edges {
            write_peer_input(path, &w, &rounds, &library.answers);
        }
        Vec::new()
    };
    for p in &peers {
        if p["missing"] == json!(true) {
            log(format!("peer {} is not installed: left out", p["library"]));
        } else if p["mismatches"].as_u64() != Some(0) {
            log(format!(
                "peer {} answered differently from ours: {}",
                p["library"], p["first_mismatches"]
            ));
        }
    }

    if args.json {
        let out = json!({
            "nodes": w.n,
            "edges": w.dag_edges.len(),
            "rounds": rounds.len(),
            "edges_per_write": EDGES_PER_WRITE,
            "updates_per_write": UPDATES_PER_WRITE,
            "library": library.json(),
            "mcp": mcp.as_ref().map(Run::json),
            "peers": peers,
        });
        println!("{out}");
    } else {
        let mut rows = vec![Row::of_run(&library)];
        rows.extend(mcp.as_ref().map(Row::of_run));
        let ours = rows.len();
        rows.extend(
            peers
                .iter()
                .filter(|p| p["missing"] != json!(true))
                .filter_map(Row::of_peer),
        );
        print_table(&w, &rows, ours, Some(&library));
    }
}
