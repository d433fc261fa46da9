//! Centrality timings on the benchmark workload (`benches/workload`: a random
//! digraph of N nodes and 5N weighted edges, SplitMix64-seeded): PageRank
//! (NetworkX's defaults: damping 0.85, tolerance 1e-6, weighted) and betweenness
//! estimated from k = 100 sampled sources, by hops. Prints one JSON line per
//! measure with the median of `--runs` runs; with `--edges FILE` it also writes
//! the graph as `source target weight` lines for `benches/peers/centrality.py`,
//! which times rustworkx and igraph on the same graph.
//!
//! ```text
//! cargo run --release --example bench_centrality -- --nodes 100000 --edges /tmp/g100k.txt
//! benches/peers/centrality.py /tmp/g100k.txt
//! ```

#[path = "../benches/workload/mod.rs"]
mod workload;

use std::time::Instant;

use networks_mcp::network::centrality::{BetweennessOptions, PageRankOptions};

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
    let time = |f: &dyn Fn()| -> f64 {
        workload::median(
            (0..runs)
                .map(|_| {
                    let started = Instant::now();
                    f();
                    started.elapsed().as_secs_f64()
                })
                .collect(),
        )
    };
    let pagerank = time(&|| {
        let r = net
            .pagerank(&PageRankOptions::default())
            .expect("converges");
        assert!((r.values.iter().sum::<f64>() - 1.0).abs() < 1e-6);
    });
    println!(
        "{{\"measure\": \"pagerank\", \"nodes\": {}, \"edges\": {}, \"seconds\": {pagerank:.4}}}",
        net.node_count(),
        net.edge_count()
    );
    let betweenness = time(&|| {
        net.betweenness(&BetweennessOptions {
            sample: Some((100, 1)),
            ..BetweennessOptions::default()
        })
        .unwrap();
    });
    println!(
        "{{\"measure\": \"betweenness_k100\", \"nodes\": {}, \"edges\": {}, \"seconds\": {betweenness:.4}}}",
        net.node_count(),
        net.edge_count()
    );
}
