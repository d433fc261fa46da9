//! Louvain timings on the benchmark workload (`benches/workload`: a random
//! digraph of N nodes and 5N weighted edges, SplitMix64-seeded, the graph
//! `bench_centrality` times): NetworkX's defaults (resolution 1, threshold 1e-7,
//! weighted), seed 0. Prints one JSON line with the median of `--runs` runs, the
//! modularity and the number of communities; with `--edges FILE` it also writes
//! the graph as `source target weight` lines for `benches/peers/communities.py`,
//! which times igraph (and NetworkX up to 100k nodes) on the same graph.
//!
//! ```text
//! cargo run --release --example bench_communities -- --nodes 100000 --edges /tmp/g100k.txt
//! benches/peers/communities.py /tmp/g100k.txt
//! ```

#[path = "../benches/workload/mod.rs"]
mod workload;

use std::time::Instant;

use networks_mcp::network::communities::LouvainOptions;

fn main() {
    let workload::BenchArgs {
        nodes,
        runs,
        file: edges_file,
    } = workload::bench_args(100_000, 3, "--edges");
    let w = workload::generate(nodes, workload::SEED);
    let net = workload::ours_build(&w.ids, &w.str_edges);
    if let Some(path) = edges_file {
        workload::write_edges(&path, &w);
    }
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
        "{{\"measure\": \"louvain\", \"nodes\": {}, \"edges\": {}, \"seconds\": {:.4}, \"modularity\": {:.6}, \"communities\": {}}}",
        net.node_count(),
        net.edge_count(),
        workload::median(seconds),
        found.modularity,
        found.groups.len()
    );
}
