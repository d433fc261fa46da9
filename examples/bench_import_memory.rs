//! What an import and a network really allocate: live heap bytes counted by a
//! wrapper around the server's allocator (mimalloc), not estimated.
//!
//! For each document (GraphML with and without a long edge `<default>`, DOT of
//! plain nodes with and without a `node [...]` default), prints one JSON line:
//! the document's size, the peak of live bytes while it is parsed and applied,
//! the live bytes the network keeps afterwards (its growth), both as multiples
//! of the document, and whether the default import bound (512 MiB) admits it.
//! Then the Debian-like package graph (68,039 nodes, 299,086 edges) with the
//! attributes real package graphs repeat on every item (`status`, `type` on
//! nodes, `relation` on edges): live bytes and the network's own estimate.
//!
//! ```text
//! cargo run --release --example bench_import_memory -- --edges 50000 --default-bytes 60000
//! ```

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering};

use networks_mcp::interchange::{self, Format};
use networks_mcp::limits::Limits;
use networks_mcp::network::{EdgeSpec, MissingNodes, Network, NodeSpec};
use serde_json::json;

/// mimalloc, as the server uses, counting the bytes it has handed out and not
/// yet taken back, and the highest that count has been.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let live = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                - layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[path = "../tests/it/common/debian_like.rs"]
#[allow(dead_code)]
mod debian_like;

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const MIB: f64 = 1024.0 * 1024.0;

/// GraphML of `nodes` nodes and `edges` edges, its edge key `kind` with a
/// `<default>` of `default_bytes` bytes (none when 0).
fn graphml(nodes: usize, edges: usize, default_bytes: usize) -> String {
    let mut doc = String::from(
        "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n",
    );
    doc.push_str("<key id=\"d0\" for=\"edge\" attr.name=\"kind\" attr.type=\"string\">");
    if default_bytes > 0 {
        doc.push_str("<default>");
        doc.push_str(&"x".repeat(default_bytes));
        doc.push_str("</default>");
    }
    doc.push_str("</key>\n<graph edgedefault=\"directed\">\n");
    for i in 0..nodes {
        doc.push_str(&format!("<node id=\"n{i}\"/>\n"));
    }
    for i in 0..edges {
        doc.push_str(&format!(
            "<edge source=\"n{}\" target=\"n{}\"/>\n",
            i % nodes,
            (i * 7 + 1) % nodes
        ));
    }
    doc.push_str("</graph>\n</graphml>\n");
    doc
}

/// DOT of `nodes` plain nodes, after a `node [...]` default of `default_bytes`
/// bytes (none when 0).
fn dot(nodes: usize, default_bytes: usize) -> String {
    let mut doc = String::from("digraph g {\n");
    if default_bytes > 0 {
        doc.push_str(&format!(
            "  node [comment=\"{}\"];\n",
            "x".repeat(default_bytes)
        ));
    }
    for i in 0..nodes {
        doc.push_str(&format!("  node{i:06} [label=\"n{i}\"];\n"));
    }
    doc.push_str("}\n");
    doc
}

/// Parses and applies `doc` under `limits`: the outcome, the peak of live bytes
/// above the start, and the live bytes the network keeps.
fn import(format: Format, doc: &str, limits: &Limits) -> (String, usize, usize) {
    let start = LIVE.load(Ordering::Relaxed);
    PEAK.store(start, Ordering::Relaxed);
    let mut net = Network::new();
    let outcome = match interchange::parse_limited(format, doc, limits)
        .and_then(|graph| interchange::apply(&mut net, graph))
    {
        Ok(o) => format!(
            "imported {} nodes, {} edges",
            o.nodes_created, o.edges_created
        ),
        Err(e) => format!("refused: {}", e.code()),
    };
    let peak = PEAK.load(Ordering::Relaxed) - start;
    let kept = LIVE.load(Ordering::Relaxed).saturating_sub(start);
    drop(net);
    (outcome, peak, kept)
}

fn report(name: &str, format: Format, doc: &str) {
    let unbounded = Limits::unlimited();
    let (_, peak, kept) = import(format, doc, &unbounded);
    let (bounded, _, _) = import(format, doc, &Limits::default());
    let size = doc.len() as f64;
    println!(
        "{}",
        json!({
            "document": name,
            "document_mib": size / MIB,
            "peak_mib": peak as f64 / MIB,
            "peak_x": peak as f64 / size,
            "kept_mib": kept as f64 / MIB,
            "kept_x": kept as f64 / size,
            "default_bound": bounded,
        })
    );
}

/// The Debian-like graph with `status` and `type` on every node and `relation`
/// on every edge, as real package graphs have them.
fn debian_with_attributes(nodes: usize, edges: usize) -> Network {
    let shape = debian_like::debian_like(nodes, edges, true);
    const STATUS: [&str; 3] = ["installed", "available", "held"];
    const TYPE: [&str; 3] = ["library", "program", "data"];
    const RELATION: [&str; 3] = ["depends", "recommends", "suggests"];
    let node_specs: Vec<NodeSpec> = shape
        .node_ids()
        .enumerate()
        .map(|(i, id)| {
            NodeSpec::new(id)
                .with_attribute("status", STATUS[i % 3])
                .with_attribute("type", TYPE[i % 3])
        })
        .collect();
    let edge_specs: Vec<EdgeSpec> = shape
        .edges()
        .enumerate()
        .map(|(i, e)| EdgeSpec::new(e.source, e.target).with_attribute("relation", RELATION[i % 3]))
        .collect();
    drop(shape);
    // Room for every edge, cycle-closing ones included, as `debian_like` makes.
    let mut net = Network::with_capacity(nodes, edge_specs.len());
    net.add_nodes(node_specs).expect("valid nodes");
    net.add_edges(edge_specs, MissingNodes::Fail)
        .expect("valid edges");
    net
}

fn main() {
    let nodes = arg("--nodes", 50_000);
    let edges = arg("--edges", 60_000);
    let default_bytes = arg("--default-bytes", 60_000);
    report(
        "graphml, no default",
        Format::Graphml,
        &graphml(nodes, edges, 0),
    );
    report(
        "graphml, edge default",
        Format::Graphml,
        &graphml(nodes, edges, default_bytes),
    );
    report("dot, no default", Format::Dot, &dot(nodes, 0));
    report("dot, node default", Format::Dot, &dot(nodes, default_bytes));

    let start = LIVE.load(Ordering::Relaxed);
    let plain = debian_like::debian_like(68_039, 299_086, true);
    let plain_bytes = LIVE.load(Ordering::Relaxed) - start;
    let plain_estimate = plain.estimated_bytes();
    drop(plain);
    let start = LIVE.load(Ordering::Relaxed);
    let net = debian_with_attributes(68_039, 299_086);
    let bytes = LIVE.load(Ordering::Relaxed) - start;
    println!(
        "{}",
        json!({
            "network": "debian-like, 68,039 nodes, 299,086 edges",
            "plain_mib": plain_bytes as f64 / MIB,
            "plain_estimate_mib": plain_estimate as f64 / MIB,
            "with_attributes_mib": bytes as f64 / MIB,
            "with_attributes_estimate_mib": net.estimated_bytes() as f64 / MIB,
        })
    );
}
