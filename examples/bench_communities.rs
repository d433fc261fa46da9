//! Louvain timings on the benchmark workload (`benches/workload`: a random
//! digraph of N nodes and 5N weighted edges, SplitMix64-seeded, the graph
//! `bench_centrality` times): NetworkX's defaults (resolution 1, threshold 1e-7,
//! weighted), seed 0. Prints one JSON line with the median of `--runs` runs, the
//! modularity and the number of communities; with `--edges FILE` it also writes
//! the graph as `source target weight` lines for `benches/peers/communities.py`,
//! which times igraph (and NetworkX up to 100k nodes) on the same graph.
//!
//!
//! With `--chain` it times a path instead (`n0 → n1 → … → n{N-1}`, every edge
//! weighing 1), the shape on which a level's cost once grew with the square of
//! its size.
//!
//! ```text
//! cargo run --release --example bench_communities -- --nodes 100000 --edges /tmp/g100k.txt
//! benches/peers/communities.py /tmp/g100k.txt
//! cargo run --release --example bench_communities -- --chain --nodes 400000
//! ```

#[path = "../benches/workload/mod.rs"]
mod workload;

use std::time::Instant;

use networks_mcp::network::communities::LouvainOptions;
use networks_mcp::network::{MissingNodes, Network};

/// A path of `n` nodes, each edge weighing 1.
fn chain(n: usize) -> Network {
    let ids: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
    let mut net = Network::with_capacity(n, n.saturating_sub(1));
    for id in &ids {
        net.add_node(id).expect("valid node");
    }
    let edges = ids.windows(2).map(|p| (p[0].as_str(), p[1].as_str(), 1.0));
    net.add_edges(edges, MissingNodes::Fail)
        .expect("valid edges");
    net
}

/// The shared benchmarks' flags (`--nodes`, `--runs`, `--edges`), and
/// `--chain`, which takes no value and so is parsed here.
fn args() -> (workload::BenchArgs, bool) {
    let mut args = workload::BenchArgs {
        nodes: 100_000,
        runs: 3,
        file: None,
    };
    let mut is_chain = false;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--chain" {
            is_chain = true;
            continue;
        }
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--nodes" => args.nodes = value.parse().expect("--nodes N"),
            "--runs" => args.runs = value.parse().expect("--runs N"),
            "--edges" => args.file = Some(value),
            other => panic!("unknown option {other}"),
        }
    }
    (args, is_chain)
}

fn main() {
    let (
        workload::BenchArgs {
            nodes,
            runs,
            file: edges_file,
        },
        is_chain,
    ) = args();
    let net = if is_chain {
        chain(nodes)
    } else {
        let w = workload::generate(nodes, workload::SEED);
        if let Some(path) = &edges_file {
            workload::write_edges(path, &w);
        }
        workload::ours_build(&w.ids, &w.str_edges)
    };
    let options = LouvainOptions::default();
    let mut seconds = Vec::with_capacity(runs);
    let mut found = None;
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        let communities = net.louvain(&options).expect("non-negative weights");
        seconds.push(started.elapsed().as_secs_f64());
        found = Some(communities);
    }
    let found = found.expect("at least one run");
    println!(
        "{{\"measure\": \"{}\", \"nodes\": {}, \"edges\": {}, \"seconds\": {:.4}, \"modularity\": {:.6}, \"communities\": {}}}",
        if is_chain { "louvain_chain" } else { "louvain" },
        net.node_count(),
        net.edge_count(),
        workload::median(seconds),
        found.modularity,
        found.groups.len()
    );
}
