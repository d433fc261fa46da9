//! The traversal benchmark program of issue 4.
//!
//! ```sh
//! cargo run --release --example bench_traversal -- --nodes 1000000 [--json] [--runs 3] [--seed S] [--peers]
//! ```
//!
//! Builds the workload (see `benches/workload/mod.rs`), then times every operation
//! through the public `Network` API ("ours") and on a bare petgraph `DiGraph<(), f64>`
//! ("baseline"), reporting the median of `--runs` runs (default 3) and peak RSS.
//! All of networks-mcp's phases run before the baseline graphs are built, and the
//! peak RSS at that point (`peak_rss_ours_bytes`) is the footprint of the workload
//! plus our network; `peak_rss_bytes` is the whole process's peak.
//!
//! With `--peers`, the graphs are written as edge lists (`--edges PATH`, default
//! in the temporary directory: PATH the random digraph, PATH.dag the DAG) and
//! `benches/peers/traversal.py` times rustworkx and igraph on them (build from
//! string ids and from integers, neighbours of every node, BFS, Dijkstra,
//! topological sort); a second table puts them beside our warm and cold times.

use std::hint::black_box;
use std::process::{Command, Stdio};
use std::time::Instant;

#[path = "../benches/workload/mod.rs"]
mod workload;
use networks_mcp::network::Network;
use workload::*;

struct Args {
    nodes: usize,
    json: bool,
    runs: usize,
    seed: u64,
    peers: bool,
    edges: Option<String>,
    python: String,
}

fn parse_args() -> Args {
    let mut args = Args {
        nodes: 100_000,
        json: false,
        runs: 3,
        seed: SEED,
        peers: false,
        edges: None,
        python: "python3".to_string(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| -> u64 {
            it.next()
                .and_then(|v| v.replace('_', "").parse().ok())
                .unwrap_or_else(|| usage(&format!("{name} needs a number")))
        };
        match a.as_str() {
            "--nodes" | "-n" => args.nodes = value("--nodes") as usize,
            "--runs" => args.runs = (value("--runs") as usize).max(1),
            "--seed" => args.seed = value("--seed"),
            "--json" => args.json = true,
            "--peers" => args.peers = true,
            "--edges" => args.edges = it.next(),
            "--python" => {
                args.python = it.next().unwrap_or_else(|| usage("--python needs a value"))
            }
            "-h" | "--help" => usage(""),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    args
}

fn usage(msg: &str) -> ! {
    if !msg.is_empty() {
        eprintln!("bench_traversal: {msg}");
    }
    eprintln!(
        "usage: bench_traversal [--nodes N] [--runs R] [--seed S] [--json] [--peers] [--edges PATH] [--python PYTHON]"
    );
    std::process::exit(if msg.is_empty() { 0 } else { 2 })
}

/// A line of /proc/self/status in bytes (Linux; 0 elsewhere).
/// How long one cache miss takes when the next access waits for it, in a
/// table of `bytes` read at random: the least that a call which cannot know
/// the next call's ids waits, once per call. (A single `add_edge` reads its two
/// endpoints' node records, at once, and then waits for them.)
fn dependent_miss_ns(bytes: usize) -> f64 {
    const LINE_WORDS: usize = 8;
    let lines = (bytes / (LINE_WORDS * 8)).max(2);
    // One random cycle through every line (Sattolo's shuffle): each step's
    // address is the previous step's load.
    let mut order: Vec<u64> = (0..lines as u64).collect();
    let mut rng = Rng::new(0x5eed);
    for i in (1..lines).rev() {
        order.swap(i, rng.below(i));
    }
    let mut table = vec![[0u64; LINE_WORDS]; lines];
    for (k, &line) in order.iter().enumerate() {
        table[line as usize][0] = order[(k + 1) % lines];
    }
    let steps = 2_000_000;
    let mut at = 0u64;
    let t = Instant::now();
    for _ in 0..steps {
        at = table[at as usize][0];
    }
    black_box(at);
    t.elapsed().as_secs_f64() / steps as f64 * 1e9
}

fn proc_status_bytes(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// Median wall time of `runs` calls of `f`, in seconds.
fn median<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let out = f();
            let s = t.elapsed().as_secs_f64();
            drop(black_box(out));
            s
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// An operation's slot in [`OPS`], ours and the baseline.
type OpPair<'a> = (usize, &'a dyn Fn() -> usize, &'a dyn Fn() -> usize);

/// Medians of `runs` alternating runs of `ours` and `base`, in seconds.
/// [`median`] of `op` on `state`, each run right after `setup` (not timed).
fn median_after<S, T>(
    runs: usize,
    state: &mut S,
    mut setup: impl FnMut(&mut S),
    mut op: impl FnMut(&S) -> T,
) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            setup(state);
            let t = Instant::now();
            let out = op(state);
            let s = t.elapsed().as_secs_f64();
            drop(black_box(out));
            s
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// The write before a cold query: the edges the previous write added are
/// removed again (so that every run and the agreement check below see the same
/// graph), then `count` new edges between random nodes, from the lower to the
/// higher number (the DAG stays acyclic), as an agent's write of a few
/// dependencies; `previous` gets the new edges' ids.
fn write_a_little(
    net: &mut Network,
    ids: &[String],
    state: &mut u64,
    count: usize,
    previous: &mut Vec<u64>,
) {
    for e in previous.drain(..) {
        net.remove_edge(e).expect("added before");
    }
    for _ in 0..count {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = *state >> 11;
        let (a, b) = (
            (r % ids.len() as u64) as usize,
            ((r >> 26) % ids.len() as u64) as usize,
        );
        let (a, b) = (a.min(b), a.max(b));
        if a != b {
            previous.push(net.add_edge(&ids[a], &ids[b], 1.0).expect("nodes exist"));
        }
    }
}

fn median_pair(runs: usize, ours: &dyn Fn() -> usize, base: &dyn Fn() -> usize) -> (f64, f64) {
    let time = |f: &dyn Fn() -> usize| {
        let t = Instant::now();
        black_box(f());
        t.elapsed().as_secs_f64()
    };
    let (mut o, mut b): (Vec<f64>, Vec<f64>) = (0..runs).map(|_| (time(ours), time(base))).unzip();
    o.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    (o[runs / 2], b[runs / 2])
}

/// Runs our side of operation `i` of [`OPS`] (1..=9).
fn ours_op(i: usize, net: &Network, dag: &Network, w: &Workload) -> usize {
    match i {
        1 => ours_neighbors(net),
        2 => ours_neighbors_by_id(net, &w.ids),
        3 => ours_bfs(net),
        4 => ours_traverse_bfs(net),
        5 => ours_dijkstra(net),
        6 => ours_toposort(dag),
        7 => ours_topological_sort(dag),
        8 => ours_scc(net),
        9 => ours_descendants(net),
        _ => unreachable!("no operation {i}"),
    }
}

const OPS: [&str; 10] = [
    "build",
    "neighbors",
    "neighbors_by_id",
    "bfs",
    "traverse_bfs",
    "dijkstra",
    "toposort",
    "topological_sort_layers",
    "scc",
    "descendants",
];

fn main() {
    let args = parse_args();
    let runs = args.runs;
    let log = |s: &str| {
        if !args.json {
            eprintln!("{s}");
        }
    };
    let t = Instant::now();
    let w = generate(args.nodes, args.seed);
    log(&format!(
        "workload: {} nodes, {} edges ({} in the DAG), generated in {:.2} s",
        w.n,
        w.edges.len(),
        w.dag_edges.len(),
        t.elapsed().as_secs_f64()
    ));
    let rss_before = proc_status_bytes("VmRSS:");

    // --- ours ---
    let mut ours = [0.0f64; OPS.len()];
    // Build, in bulk and with one `add_edge` call per edge, alternating run by
    // run so that both meet the same machine, each with no other network of
    // ours alive (each network is dropped outside the timed region). The last
    // bulk build is kept.
    let mut net = None;
    let (mut bulk_runs, mut single_runs) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        drop(net.take());
        let t = Instant::now();
        let one_by_one = ours_build_edge_by_edge(&w.ids, &w.str_edges);
        single_runs.push(t.elapsed().as_secs_f64());
        drop(black_box(one_by_one));
        let t = Instant::now();
        net = Some(ours_build(&w.ids, &w.str_edges));
        bulk_runs.push(t.elapsed().as_secs_f64());
    }
    ours[0] = workload::median(bulk_runs);
    let build_edge_by_edge = workload::median(single_runs);
    let mut net = net.expect("built");
    let network_rss = proc_status_bytes("VmRSS:").saturating_sub(rss_before);
    let mut dag = ours_build(&w.ids, &w.str_dag_edges);

    // The compact adjacency: its build time, and its memory once built.
    let rss_before_adjacency = proc_status_bytes("VmRSS:");
    let adjacency_build = median(runs, || {
        net.drop_adjacency();
        net.adjacency().out_neighbors(ours_n0(&net)).len()
    });
    let adjacency_rss = proc_status_bytes("VmRSS:").saturating_sub(rss_before_adjacency);

    // Unbuilt: every operation as the first query ever asked of the network (no
    // adjacency yet: it builds what it needs, or walks petgraph's lists).
    let mut unbuilt = [0.0f64; OPS.len()];
    for (i, slot) in unbuilt.iter_mut().enumerate().skip(1) {
        *slot = median(runs, || {
            net.drop_adjacency();
            dag.drop_adjacency();
            ours_op(i, &net, &dag, &w)
        });
    }
    // Cold: every operation as the first query after a write of ten edges to
    // both networks, whose adjacency an earlier query built (the agent's case).
    net.adjacency();
    dag.adjacency();
    let mut cold = [0.0f64; OPS.len()];
    let mut state = args.seed ^ 0x5eed;
    let (mut added, mut added_dag) = (Vec::new(), Vec::new());
    for (i, slot) in cold.iter_mut().enumerate().skip(1) {
        *slot = median_after(
            runs,
            &mut (&mut net, &mut dag),
            |(net, dag)| {
                write_a_little(net, &w.ids, &mut state, 10, &mut added);
                write_a_little(dag, &w.ids, &mut state, 10, &mut added_dag);
            },
            |(net, dag)| ours_op(i, net, dag, &w),
        );
    }
    write_a_little(&mut net, &w.ids, &mut state, 0, &mut added);
    write_a_little(&mut dag, &w.ids, &mut state, 0, &mut added_dag);
    // Warm (below): the same adjacency, no write since the last query.
    let peak_ours = proc_status_bytes("VmHWM:");

    // --- baseline build, then every operation with ours and baseline interleaved
    // run by run, so that load from other processes hits both alike ---
    let mut base = [0.0f64; OPS.len()];
    let mut g = None;
    base[0] = median(runs, || {
        g = None;
        g = Some(base_build(w.n, &w.edges));
    });
    let g = g.expect("built");
    let gd = base_build(w.n, &w.dag_edges);
    let pairs: [OpPair; 9] = [
        (1, &|| ours_op(1, &net, &dag, &w), &|| base_neighbors(&g)),
        (2, &|| ours_op(2, &net, &dag, &w), &|| base_neighbors(&g)),
        (3, &|| ours_op(3, &net, &dag, &w), &|| base_bfs(&g)),
        (4, &|| ours_op(4, &net, &dag, &w), &|| base_bfs(&g)),
        (5, &|| ours_op(5, &net, &dag, &w), &|| base_dijkstra(&g)),
        (6, &|| ours_op(6, &net, &dag, &w), &|| base_toposort(&gd)),
        (7, &|| ours_op(7, &net, &dag, &w), &|| base_toposort(&gd)),
        (8, &|| ours_op(8, &net, &dag, &w), &|| base_scc(&g)),
        (9, &|| ours_op(9, &net, &dag, &w), &|| base_descendants(&g)),
    ];
    for (i, ours_op, base_op) in pairs {
        let (o, b) = median_pair(runs, ours_op, base_op);
        ours[i] = o;
        base[i] = b;
    }
    check_agreement(&w, &net, &dag, &g, &gd);
    let peak = proc_status_bytes("VmHWM:");
    // What the peers must count too: edges, nodes reached by BFS and by
    // Dijkstra from n0, nodes in the topological order.
    let expected = [
        ("neighbors", ours_neighbors(&net)),
        ("bfs", ours_bfs(&net)),
        ("dijkstra", ours_dijkstra(&net)),
        ("toposort", ours_toposort(&dag)),
    ];
    // The peers run after every measurement of ours, in their own process.
    drop((net, dag, g, gd));
    let peers = if args.peers {
        run_peers(&args, &w)
    } else {
        Vec::new()
    };
    for p in &peers {
        let count = p["count"].as_u64();
        if let Some((op, ours)) = expected.iter().find(|(op, _)| p["op"] == *op)
            && count != Some(*ours as u64)
        {
            eprintln!(
                "bench_traversal: {} counted {count:?} for {op}, ours {ours}",
                p["library"]
            );
        }
    }

    // The floor under one call per edge: a dependent miss in a table the size
    // of the node records (petgraph keeps two link indices beside each node).
    // Measured last, so that its table counts in no memory figure.
    let node_records = w.n * (std::mem::size_of::<networks_mcp::network::Node>() + 8);
    let miss_ns = dependent_miss_ns(node_records);

    if args.json {
        let mut ops = serde_json::Map::new();
        for (i, name) in OPS.iter().enumerate() {
            let mut op = serde_json::json!({ "ours_s": ours[i], "baseline_s": base[i] });
            if i > 0 {
                op["ours_cold_s"] = serde_json::json!(cold[i]);
                op["ours_unbuilt_s"] = serde_json::json!(unbuilt[i]);
            }
            ops.insert(name.to_string(), op);
        }
        ops.insert(
            "build_edge_by_edge".to_string(),
            serde_json::json!({ "ours_s": build_edge_by_edge, "baseline_s": base[0] }),
        );
        ops.insert(
            "dependent_miss".to_string(),
            serde_json::json!({ "ns": miss_ns, "table_bytes": node_records }),
        );
        let out = serde_json::json!({
            "nodes": w.n,
            "edges": w.edges.len(),
            "dag_edges": w.dag_edges.len(),
            "runs": runs,
            "ops": ops,
            "adjacency_build_s": adjacency_build,
            "adjacency_rss_bytes": adjacency_rss,
            "peak_rss_bytes": peak,
            "peak_rss_ours_bytes": peak_ours,
            "network_rss_bytes": network_rss,
            "peers": peers,
        });
        println!("{out}");
    } else {
        println!(
            "{:<24} {:>12} {:>12} {:>7} {:>14} {:>16}",
            "op", "ours (s)", "petgraph (s)", "ratio", "ours cold (s)", "ours unbuilt (s)"
        );
        for (i, name) in OPS.iter().enumerate() {
            let cell = |x: &[f64]| {
                if i > 0 {
                    format!("{:.4}", x[i])
                } else {
                    "-".to_string()
                }
            };
            println!(
                "{:<24} {:>12.4} {:>12.4} {:>6.2}x {:>14} {:>16}",
                name,
                ours[i],
                base[i],
                ours[i] / base[i],
                cell(&cold),
                cell(&unbuilt)
            );
        }
        println!(
            "{:<24} {:>12.4} {:>12.4} {:>6.2}x {:>14} {:>16}",
            "build_edge_by_edge",
            build_edge_by_edge,
            base[0],
            build_edge_by_edge / base[0],
            "-",
            "-"
        );
        println!(
            "dependent miss: {miss_ns:.0} ns in a {:.0} MiB table (the node records' size); \
             one add_edge per edge waits on about one a call: {} edges x {miss_ns:.0} ns = {:.3} s, \
             measured {build_edge_by_edge:.3} s",
            node_records as f64 / (1 << 20) as f64,
            w.edges.len(),
            w.edges.len() as f64 * miss_ns * 1e-9
        );
        println!(
            "adjacency build: {:.4} s, {:.0} MiB",
            adjacency_build,
            adjacency_rss as f64 / (1 << 20) as f64
        );
        let mib = |b: u64| b as f64 / (1 << 20) as f64;
        println!(
            "peak RSS: {:.0} MiB after our phases (workload + our network), {:.0} MiB overall; our network alone ≈ {:.0} MiB",
            mib(peak_ours),
            mib(peak),
            mib(network_rss)
        );
        if !peers.is_empty() {
            print_peer_table(&ours, &cold, &unbuilt, build_edge_by_edge, &peers);
        }
    }
}

/// Writes the graphs for `benches/peers/traversal.py` and runs it: one JSON
/// object per library and operation (`{"library", "op", "seconds"}`), or
/// `{"library", "missing": true}`.
fn run_peers(args: &Args, w: &Workload) -> Vec<serde_json::Value> {
    let path = args.edges.clone().unwrap_or_else(|| {
        std::env::temp_dir()
            .join(format!("bench_traversal_{}.txt", w.n))
            .display()
            .to_string()
    });
    write_edges(&path, w);
    write_edge_list(&format!("{path}.dag"), w.n, &w.dag_edges);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/peers/traversal.py");
    let output = Command::new(&args.python)
        .args([script, &path, "--runs", &args.runs.to_string()])
        .stderr(Stdio::inherit())
        .output();
    match output {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect(),
        Ok(out) => {
            eprintln!(
                "bench_traversal: the peer script failed ({}); `python3 -m pip install --user rustworkx igraph`",
                out.status
            );
            Vec::new()
        }
        Err(e) => {
            eprintln!("bench_traversal: cannot run {}: {e}", args.python);
            Vec::new()
        }
    }
}

/// Ours (warm, cold after a write, and unbuilt) beside the peers, with the
/// ratios to the faster peer.
fn print_peer_table(
    ours: &[f64],
    cold: &[f64],
    unbuilt: &[f64],
    build_edge_by_edge: f64,
    peers: &[serde_json::Value],
) {
    let peer = |library: &str, op: &str| -> Option<f64> {
        peers
            .iter()
            .find(|p| p["library"] == library && p["op"] == op)
            .and_then(|p| p["seconds"].as_f64())
    };
    let libraries = ["rustworkx", "igraph"];
    // (row, ours warm, ours cold, ours unbuilt, the peers' op)
    type Ours = (Option<f64>, Option<f64>, Option<f64>);
    let at = |i: usize| (Some(ours[i]), Some(cold[i]), Some(unbuilt[i]));
    let rows: [(&str, Ours, &str); 6] = [
        ("build (string ids)", (Some(ours[0]), None, None), "build"),
        ("build (integer pairs)", (None, None, None), "build_int"),
        ("neighbors", at(1), "neighbors"),
        ("bfs", at(3), "bfs"),
        ("dijkstra", at(5), "dijkstra"),
        ("toposort", at(6), "toposort"),
    ];
    let cell = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.4}"));
    let ratio = |x: Option<f64>, best: Option<f64>| match (x, best) {
        (Some(x), Some(b)) => format!("{:.2}x", x / b),
        _ => "-".to_string(),
    };
    println!(
        "\n{:<22} {:>10} {:>10} {:>12} {:>10} {:>10} {:>10} {:>10} {:>12}",
        "op (seconds)",
        "ours warm",
        "ours cold",
        "ours unbuilt",
        libraries[0],
        libraries[1],
        "warm/best",
        "cold/best",
        "unbuilt/best"
    );
    for (name, (warm, cold, unbuilt), op) in rows {
        let times = libraries.map(|l| peer(l, op));
        let best = times.iter().flatten().copied().reduce(f64::min);
        println!(
            "{:<22} {:>10} {:>10} {:>12} {:>10} {:>10} {:>10} {:>10} {:>12}",
            name,
            cell(warm),
            cell(cold),
            cell(unbuilt),
            cell(times[0]),
            cell(times[1]),
            ratio(warm, best),
            ratio(cold, best),
            ratio(unbuilt, best)
        );
    }
    println!(
        "single adds: one add_edge per edge {:.4} s = {:.2}x the bulk build",
        build_edge_by_edge,
        build_edge_by_edge / ours[0]
    );
}
