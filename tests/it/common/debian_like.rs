//! A generated network shaped like the Debian package dependency graph (68,039
//! nodes, 299,086 edges, one hub that almost everything reaches, some cyclic
//! groups): package-like ids of 5 to 30 bytes, about 4.4 dependencies per node
//! drawn mostly from early, popular packages, and a few edges back that close
//! cycles. Deterministic: the same arguments give the same network.

use networks_mcp::network::{MissingNodes, Network};
use serde_json::{Value, json};

/// The most depended-upon node, as in Debian.
pub const HUB: &str = "libc6";

/// A network of `nodes` nodes and about `edges` edges; `cycles` adds edges from
/// popular packages back to later ones, so that some groups are cyclic.
pub fn debian_like(nodes: usize, edges: usize, cycles: bool) -> Network {
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    const PREFIXES: [&str; 9] = [
        "lib", "python3-", "golang-", "r-cran-", "node-", "ruby-", "", "", "",
    ];
    const SYLLABLES: [&str; 16] = [
        "ap", "ex", "tor", "min", "gl", "ib", "qt", "ssl", "xml", "zip", "core", "net", "dat",
        "util", "font", "perl",
    ];
    const SUFFIXES: [&str; 7] = ["-dev", "-common", "-data", "-doc", "6", "2", ""];
    let mut seen = std::collections::HashSet::new();
    let mut ids = Vec::with_capacity(nodes);
    ids.push(HUB.to_string());
    seen.insert(HUB.to_string());
    while ids.len() < nodes {
        let mut id = PREFIXES[(next() % 9) as usize].to_string();
        for _ in 0..2 + next() % 3 {
            id.push_str(SYLLABLES[(next() % 16) as usize]);
        }
        id.push_str(SUFFIXES[(next() % 7) as usize]);
        if !seen.insert(id.clone()) {
            id = format!("{id}-{}", ids.len());
            seen.insert(id.clone());
        }
        ids.push(id);
    }
    let mut list: Vec<(String, String, f64)> = Vec::with_capacity(edges);
    let per_node = edges as f64 / nodes as f64;
    for (i, id) in ids.iter().enumerate().skip(1) {
        // From 1 to twice the mean less one, so the mean holds.
        let k = 1 + (next() % ((2.0 * per_node).round() as u64 - 1).max(1)) as usize;
        for _ in 0..k {
            let u = (next() % 1_000_000) as f64 / 1_000_000.0;
            // u³ leans hard towards the first, most popular packages.
            let target = ((i as f64) * u * u * u) as usize;
            list.push((id.clone(), ids[target].clone(), 1.0));
        }
    }
    if cycles {
        for _ in 0..nodes / 200 {
            let from = (next() % 2_000) as usize % nodes;
            let to = (next() as usize) % nodes;
            list.push((ids[from].clone(), ids[to].clone(), 1.0));
        }
    }
    let mut network = Network::with_capacity(nodes, list.len());
    network
        .add_nodes(ids.iter().map(String::as_str))
        .expect("generated ids are valid");
    network
        .add_edges(list, MissingNodes::Fail)
        .expect("generated edges are valid");
    network
}

/// Every read tool with default arguments apart from what names the question:
/// the calls an agent makes first on a network it has never seen. `mid` is a
/// node half-way down the dependency order; `other` a second network of the
/// same shape, for the diff.
pub fn heavy_calls(mid: &str, other: &str) -> Vec<(&'static str, Value)> {
    let mut calls = vec![
        ("network_list", json!({})),
        ("network_describe", json!({})),
        ("network_get_node", json!({"node_id": HUB})),
        ("network_get_neighbors", json!({"node_id": HUB})),
        (
            "network_get_neighbors",
            json!({"node_id": HUB, "include_edges": true}),
        ),
        (
            "network_get_neighbors",
            json!({"node_id": mid, "include_edges": true}),
        ),
        ("network_list_nodes", json!({})),
        ("network_list_edges", json!({})),
        ("network_list_edges", json!({"node_id": HUB})),
        ("network_ancestors", json!({"node_id": HUB})),
        ("network_descendants", json!({"node_id": mid})),
        (
            "network_traverse",
            json!({"start_node_ids": [HUB], "direction": "in"}),
        ),
        ("network_traverse", json!({"start_node_ids": [mid]})),
        (
            "network_shortest_path",
            json!({"source": mid, "target": HUB}),
        ),
        ("network_find_cycles", json!({})),
        ("network_topological_sort", json!({})),
        ("network_topological_sort", json!({"reverse": true})),
        ("network_critical_path", json!({})),
        ("network_ready_nodes", json!({})),
        ("network_plan_progress", json!({})),
        ("network_search", json!({"query": "libssl"})),
        (
            "network_search",
            json!({"query": "libsld2", "mode": "fuzzy"}),
        ),
        ("network_diff", json!({"other": other})),
        (
            "network_paths",
            json!({"source": mid, "target": HUB, "method": "all_simple"}),
        ),
        (
            "network_paths",
            json!({"source": mid, "target": HUB, "method": "k_shortest"}),
        ),
    ];
    // Closeness, and exact betweenness, are refused at this size (a search
    // from every node): betweenness is asked for from a sample.
    for measure in ["degree", "in_degree", "out_degree", "pagerank"] {
        calls.push(("network_centrality", json!({"measure": measure})));
    }
    calls.push((
        "network_centrality",
        json!({"measure": "betweenness", "k": 100}),
    ));
    for method in ["louvain", "weak", "strong"] {
        calls.push(("network_communities", json!({"method": method})));
    }
    for method in ["redundant_edges", "articulation_points", "bridges"] {
        calls.push(("network_structure", json!({"method": method})));
    }
    calls.push((
        "network_structure",
        json!({"method": "dominators", "root": mid}),
    ));
    for format in [
        "mermaid",
        "dot",
        "node_link_json",
        "graphml",
        "cypher",
        "edge_list_csv",
    ] {
        calls.push(("network_export", json!({"format": format})));
        for depth in [0, 1, 2] {
            calls.push((
                "network_export",
                json!({"format": format, "node_ids": [mid], "depth": depth}),
            ));
        }
        calls.push((
            "network_export",
            json!({"format": format, "node_ids": [HUB], "depth": 1}),
        ));
    }
    calls.push(("network_visualize", json!({})));
    calls.push(("network_visualize", json!({"node_id": mid})));
    calls.push(("network_visualize", json!({"node_id": HUB})));
    calls.push((
        "network_visualize",
        json!({"node_id": mid, "scope": "descendants"}),
    ));
    calls
}
