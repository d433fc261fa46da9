//! `network_query`'s engine alone, without the server: the five queries of
//! `benches/peers/query.py` (and any given with `--query`) run on a graph read
//! from a node-link JSON file, timed in-process, so a profiler sees only the
//! query (`perf record -g target/release/examples/bench_query ...`).
//!
//! ```sh
//! tests/interop/.venv/bin/python benches/peers/query.py --write-graph /tmp/pkg68k.json
//! cargo run --release --example bench_query -- /tmp/pkg68k.json [--runs 20] [--query 'MATCH ...']
//! ```
//!
//! Prints one line per query: its median and fastest time and its first row.

use std::time::Instant;

use networks_mcp::interchange::{self, Format};
use networks_mcp::network::Network;
use networks_mcp::query;
use serde_json::{Map, Value, json};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    let mut runs = 20usize;
    let mut queries: Vec<(String, Map<String, Value>)> = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().and_then(|r| r.parse().ok()).expect("--runs N"),
            "--query" => queries.push((args.next().expect("--query TEXT"), Map::new())),
            _ => path = Some(arg),
        }
    }
    let path = path.expect("usage: bench_query GRAPH.json [--runs N] [--query TEXT]");
    let text = std::fs::read_to_string(&path).expect("read the graph");
    let started = Instant::now();
    let mut net = Network::new();
    let graph = interchange::parse(Format::NodeLinkJson, &text).expect("parse");
    let parsed = started.elapsed().as_secs_f64();
    interchange::apply(&mut net, graph).expect("load");
    drop(text);
    eprintln!(
        "loaded {} nodes, {} edges in {:.3} s (parsed in {parsed:.3} s)",
        net.node_count(),
        net.edge_count(),
        started.elapsed().as_secs_f64()
    );
    if queries.is_empty() {
        queries = standard_queries(&net);
    }
    for (text, parameters) in &queries {
        let mut times = Vec::with_capacity(runs);
        let mut first = Vec::new();
        for run in 0..=runs {
            let started = Instant::now();
            let answer =
                query::run(&net, text, parameters).unwrap_or_else(|e| panic!("{text}: {e}"));
            let elapsed = started.elapsed().as_secs_f64();
            if run == 0 {
                if !answer.is_empty() {
                    first = answer.row_json(&net, 0);
                }
                continue; // the warm-up
            }
            times.push(elapsed);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{:>9.3} ms median {:>9.3} ms best  {}  -> {}",
            times[times.len() / 2] * 1e3,
            times[0] * 1e3,
            text,
            Value::from(first)
        );
    }
}

/// The queries of `benches/peers/query.py`, their starts picked as it picks them.
fn standard_queries(net: &Network) -> Vec<(String, Map<String, Value>)> {
    let graph = net.graph();
    let depends = |e: &networks_mcp::network::Edge| {
        e.attributes.get("relation").and_then(Value::as_str) == Some("depends")
    };
    let mut out_depends: Vec<(usize, String, bool)> = Vec::new();
    let mut in_depends: Vec<(usize, String)> = Vec::new();
    for ix in graph.node_indices() {
        let node = &graph[ix];
        let labels = node
            .attributes
            .get("labels")
            .and_then(Value::as_str)
            .unwrap_or("");
        let out = graph
            .edges_directed(ix, petgraph::Direction::Outgoing)
            .filter(|e| depends(e.weight()))
            .count();
        let inn = graph
            .edges_directed(ix, petgraph::Direction::Incoming)
            .filter(|e| depends(e.weight()))
            .count();
        out_depends.push((out, node.id.to_string(), labels.ends_with("app")));
        in_depends.push((inn, node.id.to_string()));
    }
    let mut apps: Vec<&(usize, String, bool)> = out_depends.iter().filter(|a| a.2).collect();
    apps.sort();
    let app = apps[apps.len() / 2].1.clone();
    let meta = out_depends
        .iter()
        .max()
        .map(|m| m.1.clone())
        .unwrap_or_default();
    let top = in_depends
        .iter()
        .max()
        .map(|m| m.1.clone())
        .unwrap_or_default();
    let with = |pairs: Value| pairs.as_object().cloned().unwrap_or_default();
    let two_hop =
        "MATCH (a:pkg {id: $id})-[:depends*1..2]->(b) RETURN count(DISTINCT b) AS reached";
    let reverse =
        "MATCH (a:pkg {id: $id})<-[:depends*1..2]-(b) RETURN count(DISTINCT b) AS reached";
    vec![
        (two_hop.into(), with(json!({"id": app}))),
        (two_hop.into(), with(json!({"id": meta}))),
        (reverse.into(), with(json!({"id": top}))),
        (
            "MATCH (p:lib)<-[r:depends]-(q) WHERE q.section = $section AND q.priority <= $priority RETURN p.section AS section, count(*) AS n, avg(q.size) AS size".into(),
            with(json!({"section": "utils", "priority": 3})),
        ),
        (
            "MATCH (p:pkg)<-[:depends]-(q) RETURN p.id AS id, count(q) AS dependents ORDER BY dependents DESC, id LIMIT 20".into(),
            Map::new(),
        ),
    ]
}
