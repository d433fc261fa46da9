//! Node search timings on a network of service-like nodes: ids
//! `service-<word>-<n>` and a `title` attribute of three capitalised words
//! ("Payment Cache Worker"), drawn from a fixed word list (a few words are
//! non-ASCII, as real titles sometimes are) with a SplitMix64-seeded generator.
//! Times substring and fuzzy searches over the id and every string attribute,
//! and over the id alone, best of `--runs` runs, and prints one JSON line per
//! workload. With `--nodes-file FILE` it also writes `id<TAB>title` lines for
//! `benches/peers/search.py`, which times the same workloads the way a
//! NetworkX-based server does them.
//!
//! ```text
//! cargo run --release --no-default-features --features search --example bench_search -- --nodes 1000000 --nodes-file /tmp/search1m.tsv
//! benches/peers/search.py /tmp/search1m.tsv
//! ```

#[path = "../benches/workload/mod.rs"]
mod workload;

use std::io::Write;
use std::time::Instant;

use networks_mcp::network::search::{SearchFields, SearchMode, SearchOptions};
use networks_mcp::network::{Network, NodeSpec};

/// The words ids and titles are made of.
const WORDS: &[&str] = &[
    "payment",
    "billing",
    "invoice",
    "auth",
    "login",
    "session",
    "token",
    "user",
    "account",
    "profile",
    "search",
    "index",
    "catalog",
    "inventory",
    "order",
    "cart",
    "checkout",
    "shipping",
    "delivery",
    "tracking",
    "notification",
    "email",
    "sms",
    "push",
    "gateway",
    "proxy",
    "router",
    "balancer",
    "cache",
    "queue",
    "stream",
    "event",
    "scheduler",
    "cron",
    "worker",
    "batch",
    "report",
    "analytics",
    "metrics",
    "logging",
    "audit",
    "config",
    "secret",
    "storage",
    "upload",
    "media",
    "image",
    "video",
    "thumbnail",
    "render",
    "template",
    "locale",
    "translation",
    "pricing",
    "discount",
    "coupon",
    "loyalty",
    "review",
    "rating",
    "recommendation",
    "feed",
    "graph",
    "backup",
    "café",
    "größe",
];

/// The searches timed: (label, query, mode).
const QUERIES: &[(&str, &str, SearchMode)] = &[
    ("substring common", "cache", SearchMode::Substring),
    ("substring rare", "checkout-4242", SearchMode::Substring),
    ("substring none", "zzzz", SearchMode::Substring),
    ("fuzzy typo", "paymnet-gatway", SearchMode::Fuzzy),
    ("fuzzy word", "recomendation", SearchMode::Fuzzy),
    ("fuzzy none", "qqqqqqqqq", SearchMode::Fuzzy),
];

/// A word of [`WORDS`], drawn with the benchmarks' seeded generator.
fn word(rng: &mut workload::Rng) -> &'static str {
    WORDS[rng.below(WORDS.len())]
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn main() {
    let workload::BenchArgs {
        nodes,
        runs,
        file: nodes_file,
    } = workload::bench_args(1_000_000, 5, "--nodes-file");
    let mut rng = workload::Rng::new(workload::SEED);
    let mut rows = Vec::with_capacity(nodes);
    for n in 0..nodes {
        let id = format!("service-{}-{n}", word(&mut rng));
        let title = [word(&mut rng), word(&mut rng), word(&mut rng)]
            .map(capitalised)
            .join(" ");
        rows.push((id, title));
    }
    let started = Instant::now();
    let mut net = Network::with_capacity(nodes, 0);
    for (id, title) in &rows {
        net.add_node_with(NodeSpec::new(id.as_str()).with_attribute("title", title.as_str()))
            .expect("valid node");
    }
    eprintln!(
        "built {nodes} nodes in {:.0} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
    if let Some(path) = nodes_file {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        for (id, title) in &rows {
            writeln!(out, "{id}\t{title}").unwrap();
        }
    }
    drop(rows);

    for (fields_label, fields) in [
        ("id+title", SearchFields::All),
        ("id", SearchFields::These(&[])),
    ] {
        for &(label, query, mode) in QUERIES {
            let options = SearchOptions {
                mode,
                fields,
                ..SearchOptions::new(query)
            };
            let mut best = f64::INFINITY;
            let mut matches = 0;
            for _ in 0..runs {
                let started = Instant::now();
                let found = net.search(&options).expect("valid query");
                best = best.min(started.elapsed().as_secs_f64());
                matches = found.len();
            }
            println!(
                "{{\"workload\": \"{label}\", \"fields\": \"{fields_label}\", \"query\": \"{query}\", \"nodes\": {nodes}, \"matches\": {matches}, \"ms\": {:.1}}}",
                best * 1e3
            );
        }
    }
}
