//! The heavy algorithms on the benchmark workload (`benches/workload`: a random
//! digraph of N nodes and about 5N weighted edges, SplitMix64-seeded), through
//! the library:
//!
//! * PageRank, NetworkX's defaults (damping 0.85, tolerance 1e-6, 100
//!   iterations, weighted), and the same to tolerance 1e-12: NetworkX's rule
//!   stops once the scores moved by less than tolerance × V in total, which at
//!   these sizes takes a few iterations, far from converged;
//! * betweenness estimated from k = 256 sampled sources (seed 1), by hops;
//! * Louvain, NetworkX's defaults (resolution 1, threshold 1e-7, weighted),
//!   seed 0;
//! * weakly and strongly connected components;
//! * the k = 10 shortest simple paths by weight (Yen) between a fixed pair, as
//!   `network_paths` method `k_shortest` finds them: the first node of the
//!   largest strongly connected component to the one of its nodes nearest
//!   `n{N/2}`, so that many paths join them. Timed without a work bound; then
//!   once more under the bound `network_paths` gives one call (20M steps), to
//!   show whether a call would list all ten.
//!
//! Each figure is the median of `--runs` runs (default 3, 1 from 1M nodes).
//!
//! With `--peers`, the graph is written as an edge list (`--edges PATH`,
//! default in the temporary directory) and `benches/peers/heavy.py` runs the
//! same operations in rustworkx and igraph where they have them (rustworkx has
//! no sampled betweenness, no Louvain and no k shortest simple paths). The
//! answers are compared where they must agree: component counts, PageRank's
//! top node, betweenness from the same 256 sources (igraph is given our
//! sample), the ten path weights. The peers run on one thread each, as ours
//! (`OMP_NUM_THREADS=1`, `RAYON_NUM_THREADS=1` unless set).
//!
//! With `--mcp BIN`, the release server (`BIN`, e.g.
//! `target/release/networks-mcp`, default options but for `--toolsets`, which
//! adds `algorithms`) is started over stdio by a
//! client that declares the tasks extension; the network is loaded with
//! `network_add_nodes` / `network_add_edges` batches, `tools/list` is read for
//! the four tools' definitions, and each operation is called once offered as a
//! task: the table then says whether a handle came back, how long the call took
//! to its result and how it ended.
//!
//! ```sh
//! cargo build --release --bin networks-mcp
//! cargo run --release --example bench_heavy -- --nodes 100000 --peers --mcp target/release/networks-mcp
//! cargo run --release --example bench_heavy -- --peers --mcp target/release/networks-mcp   # 1M nodes
//! ```

#[path = "../benches/workload/mod.rs"]
mod workload;

use std::hint::black_box;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use networks_mcp::network::Weighted;
use networks_mcp::network::centrality::{BetweennessOptions, PageRankOptions};
use networks_mcp::network::communities::LouvainOptions;
use networks_mcp::network::components::Connectivity;
use serde_json::{Value, json};

/// Betweenness sources.
const K_SOURCES: usize = 256;
/// Betweenness sample seed.
const SAMPLE_SEED: u64 = 1;
/// Paths asked of k-shortest.
const K_PATHS: usize = 10;
/// The work bound of one `network_paths` call (`MAX_STEPS` in
/// `src/mcp/tools/algorithms/paths.rs`).
const PATHS_MAX_STEPS: u64 = 20_000_000;
/// What common MCP clients wait for a reply.
const CLIENT_TIMEOUT_S: f64 = 60.0;

struct Args {
    nodes: usize,
    runs: Option<usize>,
    peers: bool,
    edges: Option<String>,
    python: String,
    mcp: Option<String>,
}

fn parse_args() -> Args {
    let mut args = Args {
        nodes: 1_000_000,
        runs: None,
        peers: false,
        edges: None,
        python: "python3".to_string(),
        mcp: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| usage(&format!("{flag} needs a value")))
        };
        match flag.as_str() {
            "--nodes" => {
                args.nodes = value()
                    .replace('_', "")
                    .parse()
                    .unwrap_or_else(|_| usage("--nodes N"))
            }
            "--runs" => args.runs = Some(value().parse().unwrap_or_else(|_| usage("--runs N"))),
            "--peers" => args.peers = true,
            "--edges" => args.edges = Some(value()),
            "--python" => args.python = value(),
            "--mcp" => args.mcp = Some(value()),
            "-h" | "--help" => usage(""),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    args
}

fn usage(msg: &str) -> ! {
    if !msg.is_empty() {
        eprintln!("bench_heavy: {msg}");
    }
    eprintln!(
        "usage: bench_heavy [--nodes N] [--runs R] [--peers] [--edges PATH] [--python PYTHON] [--mcp SERVER_BINARY]"
    );
    std::process::exit(if msg.is_empty() { 0 } else { 2 })
}

/// The operations, in table order: key, label.
const OPS: [(&str, &str); 7] = [
    ("pagerank", "PageRank"),
    ("pagerank_converged", "PageRank to tol 1e-12"),
    ("betweenness_k256", "betweenness, k = 256"),
    ("louvain", "Louvain"),
    ("weak_components", "weak components"),
    ("strong_components", "strong components"),
    ("k_shortest_10", "k shortest paths, k = 10"),
];

/// Our result of one operation: its time and what it found.
#[derive(Default)]
struct Ours {
    seconds: f64,
    /// A short description of the answer.
    answer: String,
}

/// What the peers must agree on.
#[derive(Default)]
struct Expected {
    weak: usize,
    strong: usize,
    pagerank_top: (usize, f64),
    converged_top: (usize, f64),
    betweenness_top: Vec<(usize, f64)>,
    path_weights: Vec<f64>,
}

/// The sample `Network::betweenness` draws (`sample` in
/// `src/network/algo/centrality.rs`, with its splitmix64), so that igraph can
/// be given the same sources; the comparison of the scores checks it.
fn our_sample(n: usize, k: usize, seed: u64) -> Vec<usize> {
    let next = |state: &mut u64| {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut all: Vec<usize> = (0..n).collect();
    let mut state = seed;
    for i in 0..k.min(n) {
        let j = i + (next(&mut state) % (n - i) as u64) as usize;
        all.swap(i, j);
    }
    all.truncate(k.min(n));
    all
}

fn main() {
    let args = parse_args();
    let runs = args
        .runs
        .unwrap_or(if args.nodes >= 1_000_000 { 1 } else { 3 })
        .max(1);
    let started = Instant::now();
    let w = workload::generate(args.nodes, workload::SEED);
    let net = workload::ours_build(&w.ids, &w.str_edges);
    eprintln!(
        "bench_heavy: {} nodes, {} edges, built in {:.1} s; {runs} run(s) each",
        net.node_count(),
        net.edge_count(),
        started.elapsed().as_secs_f64()
    );
    let time = |f: &mut dyn FnMut()| -> f64 {
        workload::median(
            (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    f();
                    t.elapsed().as_secs_f64()
                })
                .collect(),
        )
    };
    let position = |ix: petgraph::stable_graph::NodeIndex| -> usize {
        net.id_at(ix)[1..].parse().expect("ids are n<number>")
    };
    let mut ours: Vec<Ours> = Vec::new();
    let mut expected = Expected::default();

    // PageRank.
    let mut scores = None;
    let seconds = time(&mut || {
        scores = Some(
            net.pagerank(&PageRankOptions::default())
                .expect("converges"),
        )
    });
    let scores = scores.expect("ran");
    let top = scores.ranked()[0];
    expected.pagerank_top = (position(scores.nodes[top]), scores.values[top]);
    ours.push(Ours {
        seconds,
        answer: format!(
            "top n{} ({:.3e})",
            expected.pagerank_top.0, expected.pagerank_top.1
        ),
    });
    eprintln!("bench_heavy: pagerank {seconds:.2} s");
    // NetworkX's rule stops when the scores moved by less than tolerance × V
    // in total: how many iterations that takes here.
    let iterations = (1..=100)
        .find(|&i| {
            net.pagerank(&PageRankOptions {
                max_iterations: i,
                ..PageRankOptions::default()
            })
            .is_ok()
        })
        .expect("converges within 100 iterations");
    ours.last_mut().expect("pushed").answer += &format!(", {iterations} iterations");
    // Converged, to compare with igraph's PRPACK (a direct solve).
    let converged_options = PageRankOptions {
        tolerance: 1e-12,
        max_iterations: 1_000,
        ..PageRankOptions::default()
    };
    let mut scores = None;
    let seconds = time(&mut || scores = Some(net.pagerank(&converged_options).expect("converges")));
    let scores = scores.expect("ran");
    let top = scores.ranked()[0];
    expected.converged_top = (position(scores.nodes[top]), scores.values[top]);
    ours.push(Ours {
        seconds,
        answer: format!(
            "top n{} ({:.6e})",
            expected.converged_top.0, expected.converged_top.1
        ),
    });

    // Betweenness from 256 sources, by hops.
    let mut scores = None;
    let seconds = time(&mut || {
        scores = Some(
            net.betweenness(&BetweennessOptions {
                sample: Some((K_SOURCES, SAMPLE_SEED)),
                ..BetweennessOptions::default()
            })
            .expect("by hops"),
        )
    });
    let scores = scores.expect("ran");
    expected.betweenness_top = scores
        .ranked()
        .iter()
        .take(5)
        .map(|&i| (position(scores.nodes[i]), scores.values[i]))
        .collect();
    ours.push(Ours {
        seconds,
        answer: format!(
            "top n{} ({:.4e})",
            expected.betweenness_top[0].0, expected.betweenness_top[0].1
        ),
    });
    eprintln!("bench_heavy: betweenness k = {K_SOURCES}: {seconds:.2} s");

    // Louvain.
    let mut found = None;
    let seconds = time(&mut || {
        found = Some(
            net.louvain(&LouvainOptions::default())
                .expect("non-negative weights"),
        )
    });
    let found = found.expect("ran");
    ours.push(Ours {
        seconds,
        answer: format!(
            "{} communities, Q = {:.4}",
            found.groups.len(),
            found.modularity
        ),
    });
    eprintln!("bench_heavy: louvain {seconds:.2} s");

    // Components.
    let mut largest_strong = Vec::new();
    for (connectivity, slot) in [
        (Connectivity::Weak, &mut expected.weak),
        (Connectivity::Strong, &mut expected.strong),
    ] {
        let mut groups = Vec::new();
        let seconds = time(&mut || groups = net.components(connectivity));
        *slot = groups.len();
        let largest = groups.iter().map(Vec::len).max().unwrap_or(0);
        ours.push(Ours {
            seconds,
            answer: format!("{} (largest {largest})", groups.len()),
        });
        if connectivity == Connectivity::Strong {
            largest_strong = groups
                .into_iter()
                .max_by_key(|g| (g.len(), std::cmp::Reverse(g[0])))
                .expect("a component");
        }
        eprintln!("bench_heavy: {connectivity:?} components {seconds:.2} s");
    }

    // k shortest paths between two nodes of the largest strong component.
    let source = largest_strong[0];
    let middle = args.nodes / 2;
    let target = *largest_strong
        .iter()
        .filter(|&&v| v != source)
        .min_by_key(|&&v| position(v).abs_diff(middle))
        .expect("a component of two nodes or more");
    let (source_n, target_n) = (position(source), position(target));
    let mut found = None;
    let seconds = time(&mut || {
        found = Some(
            net.k_shortest_paths(source, target, K_PATHS, Weighted::Yes, u64::MAX)
                .expect("non-negative weights"),
        )
    });
    let found = found.expect("ran");
    assert_eq!(found.paths.len(), K_PATHS, "the pair has {K_PATHS} paths");
    expected.path_weights = found.paths.iter().map(|p| p.total_weight).collect();
    let hops: Vec<usize> = found.paths.iter().map(|p| p.hops).collect();
    ours.push(Ours {
        seconds,
        answer: format!(
            "n{source_n} -> n{target_n}: {:.4} … {:.4}, {}–{} hops",
            expected.path_weights[0],
            expected.path_weights[K_PATHS - 1],
            hops.iter().min().expect("paths"),
            hops.iter().max().expect("paths")
        ),
    });
    eprintln!("bench_heavy: k shortest {seconds:.2} s");
    // Once more within one network_paths call's work bound.
    let t = Instant::now();
    let bounded = net
        .k_shortest_paths(source, target, K_PATHS, Weighted::Yes, PATHS_MAX_STEPS)
        .expect("non-negative weights");
    let bounded_seconds = t.elapsed().as_secs_f64();
    let bounded_note = format!(
        "within network_paths' bound of {PATHS_MAX_STEPS} steps: {} of {K_PATHS} paths in {bounded_seconds:.2} s{}",
        bounded.paths.len(),
        if bounded.stopped_early {
            " (stopped early: the call answers truncated)"
        } else {
            ""
        }
    );
    black_box(bounded);

    let sample = our_sample(net.node_count(), K_SOURCES, SAMPLE_SEED);
    drop(net);

    let probe = args
        .mcp
        .as_ref()
        .map(|bin| mcp_probe(bin, &w, &format!("n{source_n}"), &format!("n{target_n}")));
    let peers = if args.peers {
        run_peers(&args, &w, runs, (source_n, target_n), &sample)
    } else {
        Vec::new()
    };
    let mismatches = check_peers(&expected, &peers);

    print_table(
        args.nodes,
        w.edges.len(),
        runs,
        &ours,
        &peers,
        probe.as_ref(),
    );
    println!("k shortest paths {bounded_note}");
    if let Some(probe) = &probe {
        println!("{}", probe.notes.join("\n"));
    }
    if mismatches.is_empty() {
        if !peers.is_empty() {
            println!("answers agree with the peers where comparable");
        }
    } else {
        for m in &mismatches {
            println!("MISMATCH: {m}");
        }
    }
}

/// Writes the graph and runs `benches/peers/heavy.py` on it: one JSON object
/// per library and operation.
fn run_peers(
    args: &Args,
    w: &workload::Workload,
    runs: usize,
    (source, target): (usize, usize),
    sample: &[usize],
) -> Vec<Value> {
    let path = args.edges.clone().unwrap_or_else(|| {
        std::env::temp_dir()
            .join(format!("bench_heavy_{}.txt", w.n))
            .display()
            .to_string()
    });
    workload::write_edges(&path, w);
    let sources = sample
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/peers/heavy.py");
    let mut command = Command::new(&args.python);
    // One thread each, as ours: with two OpenMP threads on a busy two-core
    // machine igraph's PageRank waits at its barriers most of the time (0.5–0.9 s
    // instead of 1.4 ms on 2,000 nodes). Set them to override.
    for var in ["OMP_NUM_THREADS", "RAYON_NUM_THREADS"] {
        if std::env::var_os(var).is_none() {
            command.env(var, "1");
        }
    }
    let output = command
        .args([
            script,
            &path,
            "--runs",
            &runs.to_string(),
            "--source",
            &source.to_string(),
            "--target",
            &target.to_string(),
            "--k",
            &K_PATHS.to_string(),
            "--sources",
            &sources,
        ])
        .stderr(Stdio::inherit())
        .output();
    match output {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect(),
        Ok(out) => {
            eprintln!(
                "bench_heavy: the peer script failed ({}); `python3 -m pip install --user rustworkx igraph`",
                out.status
            );
            Vec::new()
        }
        Err(e) => {
            eprintln!("bench_heavy: cannot run {}: {e}", args.python);
            Vec::new()
        }
    }
}

fn peer<'a>(peers: &'a [Value], library: &str, op: &str) -> Option<&'a Value> {
    peers
        .iter()
        .find(|p| p["library"] == library && p["op"] == op)
}

/// Relative difference.
fn off(a: f64, b: f64) -> f64 {
    (a - b).abs() / a.abs().max(b.abs()).max(f64::MIN_POSITIVE)
}

/// Where a peer's answer differs from ours on what must agree.
fn check_peers(expected: &Expected, peers: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for p in peers {
        let library = p["library"].as_str().unwrap_or("?");
        let op = p["op"].as_str().unwrap_or("?");
        match op {
            "weak_components" | "strong_components" => {
                let ours = if op == "weak_components" {
                    expected.weak
                } else {
                    expected.strong
                };
                if p["count"].as_u64() != Some(ours as u64) {
                    out.push(format!("{library} {op}: {} against our {ours}", p["count"]));
                }
            }
            "pagerank_converged" => {
                let top = p["top"].as_u64().map(|t| t as usize);
                let score = p["top_score"].as_f64().unwrap_or(f64::NAN);
                if top != Some(expected.converged_top.0)
                    || off(score, expected.converged_top.1) > 1e-6
                {
                    out.push(format!(
                        "{library} converged pagerank top {top:?} ({score:.6e}) against our n{} ({:.6e})",
                        expected.converged_top.0, expected.converged_top.1
                    ));
                }
            }
            "betweenness_k256" => {
                let theirs: Vec<(usize, f64)> = p["top"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| Some((x[0].as_u64()? as usize, x[1].as_f64()?)))
                            .collect()
                    })
                    .unwrap_or_default();
                let agree = theirs.len() == expected.betweenness_top.len()
                    && theirs
                        .iter()
                        .zip(&expected.betweenness_top)
                        .all(|(a, b)| a.0 == b.0 && off(a.1, b.1) < 1e-9);
                if !agree {
                    out.push(format!(
                        "{library} betweenness top 5 {theirs:?} against our {:?}",
                        expected.betweenness_top
                    ));
                }
            }
            "k_shortest_10" => {
                let theirs: Vec<f64> = p["weights"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_f64).collect())
                    .unwrap_or_default();
                let agree = theirs.len() == expected.path_weights.len()
                    && theirs
                        .iter()
                        .zip(&expected.path_weights)
                        .all(|(a, b)| off(*a, *b) < 1e-9);
                if !agree {
                    out.push(format!(
                        "{library} k shortest weights {theirs:?} against our {:?}",
                        expected.path_weights
                    ));
                }
            }
            _ => {}
        }
    }
    out
}

fn print_table(
    nodes: usize,
    edges: usize,
    runs: usize,
    ours: &[Ours],
    peers: &[Value],
    probe: Option<&Probe>,
) {
    println!("\n{nodes} nodes, {edges} edges; median of {runs} run(s); seconds");
    println!(
        "{:<26} {:>9} {:>10} {:>9} {:>9} {:>6}  {:<44} our answer",
        "op", "ours", "rustworkx", "igraph", "ours/best", "≤60 s", "MCP offered as a task",
    );
    for ((op, label), o) in OPS.iter().zip(ours) {
        let times =
            ["rustworkx", "igraph"].map(|l| peer(peers, l, op).and_then(|p| p["seconds"].as_f64()));
        let cell = |x: Option<f64>| x.map_or("—".to_string(), |x| format!("{x:.3}"));
        let best = times.iter().flatten().copied().reduce(f64::min);
        let ratio = best.map_or("—".to_string(), |b| format!("{:.2}x", o.seconds / b));
        let mcp = probe
            .and_then(|p| p.calls.iter().find(|c| c.op == *op))
            .map_or("—".to_string(), |c| c.summary.clone());
        println!(
            "{:<26} {:>9.3} {:>10} {:>9} {:>9} {:>6}  {:<44} {}",
            label,
            o.seconds,
            cell(times[0]),
            cell(times[1]),
            ratio,
            if o.seconds <= CLIENT_TIMEOUT_S {
                "yes"
            } else {
                "no"
            },
            mcp,
            o.answer
        );
    }
    for p in peers.iter().filter(|p| p.get("answer").is_some()) {
        println!(
            "  {} {}: {}",
            p["library"].as_str().unwrap_or("?"),
            p["op"].as_str().unwrap_or("?"),
            p["answer"].as_str().unwrap_or("")
        );
    }
}

// ---------------------------------------------------------------------------
// Over MCP
// ---------------------------------------------------------------------------

/// One operation called over MCP.
struct McpCall {
    op: &'static str,
    summary: String,
}

/// What the MCP probe found.
struct Probe {
    calls: Vec<McpCall>,
    notes: Vec<String>,
}

struct Client {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Client {
    fn spawn(bin: &str) -> Client {
        let mut child = Command::new(bin)
            .args(["--toolsets", "core,edit,analysis,interchange,algorithms"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                eprintln!("bench_heavy: cannot start {bin}: {e} (cargo build --release --bin networks-mcp)");
                std::process::exit(1)
            });
        let stdin = BufWriter::with_capacity(1 << 20, child.stdin.take().expect("stdin"));
        let stdout = BufReader::with_capacity(1 << 20, child.stdout.take().expect("stdout"));
        Client {
            child,
            stdin,
            stdout,
            next_id: 1,
        }
    }

    fn send(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        serde_json::to_writer(&mut self.stdin, &line).expect("write");
        self.stdin.write_all(b"\n").expect("write");
        self.stdin.flush().expect("flush");
        id
    }

    /// The reply to request `id` (notifications and other lines skipped).
    fn reply(&mut self, id: u64) -> Value {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.stdout.read_line(&mut line).expect("read");
            assert!(n > 0, "the server closed stdout");
            let Ok(v) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if v.get("method").is_none() && v["id"] == id {
                return v;
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        self.reply(id)
    }

    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let reply = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let result = &reply["result"];
        assert!(
            reply.get("error").is_none() && result["isError"] != true,
            "{tool}: {reply}"
        );
        reply
    }

    fn close(mut self) {
        drop(self.stdin);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a tool result ended: "success" (with what the table needs), or the
/// error object's code.
fn outcome(op: &str, result: &Value) -> String {
    let content = &result["structuredContent"];
    if result["isError"] == true {
        return content["code"]
            .as_str()
            .map_or_else(|| "error".to_string(), str::to_string);
    }
    match op {
        "k_shortest_10" => {
            let paths = content["paths"].as_array().map_or(0, Vec::len);
            if content["truncated"] == true {
                format!("{paths} paths, truncated")
            } else {
                format!("{paths} paths")
            }
        }
        _ => content["status"].as_str().unwrap_or("?").to_string(),
    }
}

/// Starts `bin`, loads the workload, reads `tools/list`, and calls every
/// operation offered as a task.
fn mcp_probe(bin: &str, w: &workload::Workload, source: &str, target: &str) -> Probe {
    let mut notes = Vec::new();
    let mut c = Client::spawn(bin);
    c.request(
        "initialize",
        json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
            "clientInfo": {"name": "bench_heavy", "version": "1"}
        }),
    );
    serde_json::to_writer(
        &mut c.stdin,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .expect("write");
    c.stdin.write_all(b"\n").expect("write");
    c.stdin.flush().expect("flush");

    // The tool definitions: does any say whether it runs as a task?
    let list = c.request("tools/list", json!({}));
    let tools = list["result"]["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for name in ["network_centrality", "network_communities", "network_paths"] {
        let def = tools.iter().find(|t| t["name"] == name);
        let text = def.map(Value::to_string).unwrap_or_default();
        let says = ["execution", "taskSupport", "\"task"]
            .iter()
            .filter(|k| text.contains(*k))
            .copied()
            .collect::<Vec<_>>();
        notes.push(format!(
            "tools/list {name}: {}{}",
            if def.is_some() {
                "listed"
            } else {
                "NOT LISTED"
            },
            if says.is_empty() {
                ", no task field in its definition (the server decides per call)".to_string()
            } else {
                format!(", mentions {says:?}")
            }
        ));
    }

    // The network, in batches as a client sends them.
    let t = Instant::now();
    c.call("network_create", json!({"network_name": "heavy"}));
    for chunk in w.ids.chunks(10_000) {
        let nodes: Vec<Value> = chunk.iter().map(|id| json!({"node_id": id})).collect();
        c.call(
            "network_add_nodes",
            json!({"network_name": "heavy", "nodes": nodes}),
        );
    }
    let edges: Vec<(&str, &str, f64)> = w.str_edges.iter().collect();
    for chunk in edges.chunks(10_000) {
        let edges: Vec<Value> = chunk
            .iter()
            .map(|(s, t, weight)| json!({"source": s, "target": t, "weight": weight}))
            .collect();
        c.call(
            "network_add_edges",
            json!({"network_name": "heavy", "edges": edges}),
        );
    }
    notes.push(format!(
        "MCP: loaded {} nodes and {} edges in {:.1} s (batches of 10,000)",
        w.n,
        edges.len(),
        t.elapsed().as_secs_f64()
    ));

    let calls: [(&str, &str, Value); 6] = [
        (
            "pagerank",
            "network_centrality",
            json!({"measure": "pagerank", "limit": 1}),
        ),
        (
            "betweenness_k256",
            "network_centrality",
            json!({"measure": "betweenness", "k": K_SOURCES, "seed": SAMPLE_SEED, "limit": 1}),
        ),
        (
            "louvain",
            "network_communities",
            json!({"method": "louvain", "limit": 1, "max_nodes_per_group": 1}),
        ),
        (
            "weak_components",
            "network_communities",
            json!({"method": "weak", "limit": 1, "max_nodes_per_group": 1}),
        ),
        (
            "strong_components",
            "network_communities",
            json!({"method": "strong", "limit": 1, "max_nodes_per_group": 1}),
        ),
        (
            "k_shortest_10",
            "network_paths",
            json!({"source": source, "target": target, "method": "k_shortest", "weighted": true, "limit": K_PATHS}),
        ),
    ];
    let mut out = Vec::new();
    for (op, tool, mut arguments) in calls {
        arguments["network_name"] = json!("heavy");
        let t = Instant::now();
        let reply = c.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let first = t.elapsed().as_secs_f64();
        let result = &reply["result"];
        let (handle, result) = if result["resultType"] == "task" {
            let id = result["taskId"].as_str().expect("taskId").to_string();
            loop {
                std::thread::sleep(Duration::from_millis(200));
                let got = c.request("tasks/get", json!({"taskId": id}));
                let status = got["result"]["status"].as_str().unwrap_or("?").to_string();
                if status != "working" {
                    let result = got["result"]["result"].clone();
                    if status != "completed" {
                        notes.push(format!("MCP {op}: task {status}: {got}"));
                    }
                    break (true, result);
                }
            }
        } else if reply.get("error").is_some() {
            notes.push(format!("MCP {op}: {reply}"));
            (false, Value::Null)
        } else {
            (false, result.clone())
        };
        let seconds = t.elapsed().as_secs_f64();
        let ended = outcome(op, &result);
        let summary = if handle {
            format!("task (handle {first:.1} s), {seconds:.1} s, {ended}")
        } else {
            format!("direct, {seconds:.1} s, {ended}")
        };
        eprintln!("bench_heavy: MCP {op}: {summary}");
        out.push(McpCall { op, summary });
    }
    c.close();
    Probe { calls: out, notes }
}
