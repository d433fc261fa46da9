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

use std::io::Write;
use std::time::Instant;

use networks_mcp::network::centrality::{BetweennessOptions, PageRankOptions};

fn median(mut runs: Vec<f64>) -> f64 {
    runs.sort_by(f64::total_cmp);
    runs[runs.len() / 2]
}

fn main() {
    let mut nodes = 100_000;
    let mut runs = 3;
    let mut edges_file: Option<String> = None;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--nodes" => nodes = value.parse().expect("--nodes N"),
            "--runs" => runs = value.parse().expect("--runs N"),
            "--edges" => edges_file = Some(value),
            other => panic!("unknown option {other}"),
        }
    }
    let w = workload::generate(nodes, workload::SEED);
    let net = workload::ours_build(&w.ids, &w.str_edges);
    if let Some(path) = edges_file {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        writeln!(out, "{}", w.n).unwrap();
        for &(a, b, weight) in &w.edges {
            writeln!(out, "{a} {b} {weight}").unwrap();
        }
    }
    let time = |f: &dyn Fn()| -> f64 {
        median(
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
