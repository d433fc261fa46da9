//! The cost of a first page and of a later page of the tools whose first page
//! computes more than it returns (`network_diff`, `network_centrality`,
//! `network_search`), through the server's `dispatch` (no transport): the first
//! page computes the answer, later pages read the answer the server kept.
//!
//! Two networks of `--nodes` nodes (default 68,000) and about 4.4 edges a node
//! (~300k), SplitMix64-seeded; the second lacks 2% of the first's nodes, adds
//! 2% new ones, changes an attribute of 2%, and drops and adds 2% of the edges.
//! Prints one JSON line per tool: the first page's time and the median of
//! `--runs` later pages, in milliseconds.
//!
//! ```text
//! cargo run --release --example bench_pages -- --nodes 68000 --runs 20
//! ```

use std::sync::Arc;
use std::time::Instant;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions, Toolset};
use networks_mcp::network::{Network, NodeSpec};
use serde_json::{Value, json};

/// SplitMix64: the benchmarks' deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The "before" and "after" networks.
fn networks(nodes: usize) -> (Network, Network) {
    let edges = nodes * 44 / 10;
    let mut rng = Rng(7);
    let pairs: Vec<(usize, usize, f64)> = (0..edges)
        .map(|_| {
            let w = 1.0 + rng.below(5) as f64;
            (rng.below(nodes), rng.below(nodes), w)
        })
        .collect();
    let build = |name: &str, after: bool| {
        let mut rng = Rng(11);
        let mut net = Network::with_capacity(nodes, edges);
        net.set_name(name);
        let mut gone = vec![false; nodes];
        for (i, gone) in gone.iter_mut().enumerate() {
            let roll = rng.below(100);
            if after && roll < 2 {
                *gone = true;
                continue;
            }
            let status = if after && (2..4).contains(&roll) {
                "done"
            } else {
                "todo"
            };
            net.add_node_with(
                NodeSpec::new(format!("n{i}"))
                    .with_attribute("status", status)
                    .with_attribute("title", format!("task {i} of the plan")),
            )
            .expect("valid node");
        }
        if after {
            for i in nodes..nodes + nodes / 50 {
                net.add_node(&format!("n{i}")).expect("valid node");
            }
        }
        for (k, &(s, t, w)) in pairs.iter().enumerate() {
            if gone[s] || gone[t] || (after && k % 50 == 0) {
                continue;
            }
            net.add_edge(&format!("n{s}"), &format!("n{t}"), w)
                .expect("valid edge");
        }
        if after {
            for k in 0..edges / 50 {
                let (s, t) = (rng.below(nodes + nodes / 50), rng.below(nodes));
                if s < nodes && gone[s] || gone[t] {
                    continue;
                }
                net.add_edge(&format!("n{s}"), &format!("n{t}"), 9.0 + k as f64)
                    .expect("valid edge");
            }
        }
        net
    };
    (build("before", false), build("after", true))
}

fn call(server: &NetworksServer, tool: &str, args: Value) -> Value {
    server
        .dispatch(Call::new(tool, args))
        .expect("offered")
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let mut nodes = 68_000usize;
    let mut runs = 20usize;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--nodes" => nodes = value.parse().expect("--nodes N"),
            "--runs" => runs = value.parse().expect("--runs N"),
            _ => panic!("unknown flag {flag}"),
        }
    }
    let (before, after) = networks(nodes);
    let (v, e) = (before.node_count(), before.edge_count());
    let (v2, e2) = (after.node_count(), after.edge_count());
    let registry = Arc::new(NetworkRegistry::new());
    registry.insert("before", before).expect("inserted");
    registry.insert("after", after).expect("inserted");
    let server = NetworksServer::new(
        registry,
        ServerOptions {
            toolsets: Toolset::ALL.into_iter().collect(),
            ..ServerOptions::default()
        },
    );
    let cases = [
        (
            "network_diff",
            json!({"network_name": "before", "other": "after", "limit": 100}),
        ),
        (
            "network_centrality",
            json!({"network_name": "before", "measure": "pagerank", "limit": 20}),
        ),
        (
            "network_search",
            json!({"network_name": "before", "query": "task 12", "limit": 20}),
        ),
    ];
    for (tool, args) in cases {
        let started = Instant::now();
        let first = call(&server, tool, args.clone());
        let first_ms = ms(started);
        let mut cursor = first["next_cursor"].clone();
        let mut later = Vec::with_capacity(runs);
        let mut items = 0;
        for _ in 0..runs {
            let mut args = args.clone();
            args["cursor"] = cursor.clone();
            let started = Instant::now();
            let page = call(&server, tool, args);
            later.push(ms(started));
            items += page
                .as_object()
                .into_iter()
                .flat_map(|o| o.values())
                .filter_map(Value::as_array)
                .map(Vec::len)
                .sum::<usize>();
            if page["next_cursor"].is_string() {
                cursor = page["next_cursor"].clone();
            }
        }
        later.sort_by(f64::total_cmp);
        let median = later.get(later.len() / 2).copied().unwrap_or(f64::NAN);
        let max = later.last().copied().unwrap_or(f64::NAN);
        println!(
            "{}",
            json!({
                "tool": tool,
                "before": {"nodes": v, "edges": e},
                "after": {"nodes": v2, "edges": e2},
                "first_page_ms": (first_ms * 100.0).round() / 100.0,
                "later_page_median_ms": (median * 100.0).round() / 100.0,
                "later_page_max_ms": (max * 100.0).round() / 100.0,
                "later_pages": runs,
                "later_items": items,
                "answers_computed": server.answers_computed(),
                "first_page_total": first.get("counts").or(first.get("total")),
            })
        );
    }
}
