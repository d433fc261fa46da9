//! Memory bounds on imports and copies: what one import may materialise
//! (`--max-import-memory`) and what all networks together may hold
//! (`--max-memory`). A refused call answers `limit_exceeded` and makes nothing.

use networks_mcp::limits::Limits;
use networks_mcp::mcp::NetworksServer;
use serde_json::{Value, json};

use crate::common::{dispatch, server_with, warnings};

/// GraphML of `nodes` nodes (`n0`, `n1`, …) and `edges` edges, whose edge key
/// `kind` has a `<default>` of `default_bytes` bytes (none when 0): with 50,000
/// nodes, 60,000 edges and a 60 KB default, the reported document of 4 MB that
/// stood for 3.6 GB once the default was copied onto each edge.
fn defaulted_graphml(nodes: usize, edges: usize, default_bytes: usize) -> String {
    let mut doc =
        String::from(r#"<graphml><key id="k" for="edge" attr.name="kind" attr.type="string">"#);
    if default_bytes > 0 {
        doc.push_str(&format!("<default>{}</default>", "x".repeat(default_bytes)));
    }
    doc.push_str("</key><graph>\n");
    for i in 0..nodes {
        doc.push_str(&format!("<node id=\"n{i}\"/>\n"));
    }
    for i in 0..edges {
        let (a, b) = (i % nodes, (i * 7 + 1) % nodes);
        doc.push_str(&format!("<edge source=\"n{a}\" target=\"n{b}\"/>\n"));
    }
    doc.push_str("</graph></graphml>");
    doc
}

/// What the import bound counts for the nodes and edges of
/// [`defaulted_graphml`] themselves (records and ids), without attributes.
fn items_bytes(nodes: usize, edges: usize) -> usize {
    use networks_mcp::network::estimate::{EDGE_BYTES, NODE_BYTES};
    let id = |i: usize| 1 + i.to_string().len();
    let nodes_bytes: usize = (0..nodes).map(|i| NODE_BYTES + id(i)).sum();
    let edges_bytes: usize = (0..edges)
        .map(|i| EDGE_BYTES + id(i % nodes) + id((i * 7 + 1) % nodes))
        .sum();
    nodes_bytes + edges_bytes
}

#[test]
fn a_graphml_edge_default_is_stored_once_and_fits_twice_the_document() {
    let (nodes, edges) = (50_000, 60_000);
    let document = defaulted_graphml(nodes, edges, 60_000);
    assert!(document.len() < 4_500_000, "{}", document.len());
    // The items themselves, and twice the document for everything else: before
    // each edge got its own copy of the default (3.6 GB) and this was refused.
    let bound = items_bytes(nodes, edges) + 2 * document.len();
    let server = server_with(Limits {
        max_import_bytes: bound,
        max_memory: bound,
        ..Limits::default()
    });
    let reply = import(&server, "defaulted", "graphml", &document).unwrap();
    assert_eq!(reply["created_edge_count"], json!(edges), "{reply}");
    // A second network from the same document fits as well: the server-wide
    // count holds each default once.
    let bound = 2 * bound;
    let server = server_with(Limits {
        max_import_bytes: bound,
        max_memory: bound,
        ..Limits::default()
    });
    import(&server, "one", "graphml", &document).unwrap();
    import(&server, "two", "graphml", &document).unwrap();
}

#[test]
fn a_graphml_default_allocates_its_size_once() {
    use networks_mcp::interchange::{self, Format};
    use networks_mcp::network::Network;
    let run = |document: &str| {
        crate::common::alloc::measure(|| {
            let graph = interchange::parse_limited(Format::Graphml, document, &Limits::default())
                .expect("within the default bound");
            let mut net = Network::new();
            interchange::apply(&mut net, graph).expect("valid");
            net
        })
    };
    let (nodes, edges) = (20_000, 30_000);
    let document = defaulted_graphml(nodes, edges, 60_000);
    let (plain, plain_peak, plain_kept) = run(&defaulted_graphml(nodes, edges, 0));
    let (net, peak, kept) = run(&document);
    assert_eq!(net.edge_count(), plain.edge_count());
    let kind = net.edge(0).and_then(|e| e.attributes.get("kind").cloned());
    assert_eq!(
        kind.as_ref().and_then(|k| k.as_str()).map(str::len),
        Some(60_000)
    );
    // Really allocated, beyond the same document without the default: before,
    // 30,000 copies of 60 KB (1.8 GB), refused by the import bound.
    let bound = 2 * document.len();
    assert!(
        kept - plain_kept <= bound,
        "kept {kept} vs {plain_kept}, bound {bound}"
    );
    assert!(
        peak - plain_peak <= bound,
        "peak {peak} vs {plain_peak}, bound {bound}"
    );
}

/// DOT of `nodes` plain nodes, after a `node [...]` default of 60 KB: the
/// reported 1.7 MB document.
fn plain_dot(nodes: usize) -> String {
    let mut doc = format!(
        "digraph g {{\n  node [comment=\"{}\"];\n",
        "x".repeat(60_000)
    );
    for i in 0..nodes {
        doc.push_str(&format!("  node{i:06} [label=\"n{i}\"];\n"));
    }
    doc.push_str("}\n");
    doc
}

#[test]
fn a_dot_import_holds_one_piece_of_the_grammar_at_a_time() {
    use networks_mcp::interchange::{self, Format};
    use networks_mcp::network::Network;
    let document = plain_dot(50_000);
    let (net, peak, kept) = crate::common::alloc::measure(|| {
        let graph = interchange::parse_limited(Format::Dot, &document, &Limits::default())
            .expect("within the default bound");
        let mut net = Network::new();
        interchange::apply(&mut net, graph).expect("valid");
        net
    });
    assert_eq!(net.node_count(), 50_000);
    assert_eq!(
        net.node("node049999")
            .and_then(|n| n.attributes.get("label").cloned()),
        Some(json!("n49999"))
    );
    // Before, the grammar's tokens for the whole document were held at once:
    // 200 times the document at the peak.
    let size = document.len();
    assert!(
        peak < PEAK_TIMES * size,
        "peak {peak} for a document of {size}"
    );
    assert!(
        kept < KEPT_TIMES * size,
        "kept {kept} for a document of {size}"
    );
}

/// Bounds on what a DOT import of plain nodes allocates, in documents: what
/// `a_dot_import_holds_one_piece_of_the_grammar_at_a_time` measured, with room.
const PEAK_TIMES: usize = 40;
const KEPT_TIMES: usize = 20;

#[test]
fn repeated_attribute_values_are_stored_once() {
    use crate::common::debian_like::debian_like;
    use networks_mcp::network::{EdgeSpec, MissingNodes, Network, NodeSpec};
    let (nodes, edges) = (6_000, 26_000);
    let shape = debian_like(nodes, edges, true);
    let ids: Vec<String> = shape.node_ids().map(str::to_string).collect();
    let ends: Vec<(String, String)> = shape
        .edges()
        .map(|e| (e.source.to_string(), e.target.to_string()))
        .collect();
    drop(shape);
    let build = |with_attributes: bool| {
        let node_specs: Vec<NodeSpec> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| {
                let spec = NodeSpec::new(id.as_str());
                if with_attributes {
                    spec.with_attribute("status", ["installed", "available", "held"][i % 3])
                        .with_attribute("type", ["library", "program", "data"][i % 3])
                } else {
                    spec
                }
            })
            .collect();
        let edge_specs: Vec<EdgeSpec> = ends
            .iter()
            .enumerate()
            .map(|(i, (a, b))| {
                let spec = EdgeSpec::new(a.as_str(), b.as_str());
                if with_attributes {
                    spec.with_attribute("relation", ["depends", "recommends", "suggests"][i % 3])
                } else {
                    spec
                }
            })
            .collect();
        crate::common::alloc::measure(move || {
            let mut net = Network::new();
            net.add_nodes(node_specs).expect("valid");
            net.add_edges(edge_specs, MissingNodes::Fail)
                .expect("valid");
            net
        })
    };
    let (plain, _, plain_kept) = build(false);
    let (net, _, kept) = build(true);
    assert_eq!(net.edge_count(), plain.edge_count());
    assert_eq!(
        net.edge(0)
            .and_then(|e| e.attributes.get("relation").cloned()),
        Some(json!("depends"))
    );
    // Three distinct maps of nodes and three of edges, whatever the count of
    // items: before, every item had its own map (about 200 bytes each).
    let items = nodes + net.edge_count();
    let extra = kept.saturating_sub(plain_kept);
    assert!(extra < 64 * 1024, "{extra} bytes more for {items} items");
    // The estimate counts each shared value once, and stays above what is held.
    assert!(
        net.estimated_bytes() >= kept,
        "{} < {kept}",
        net.estimated_bytes()
    );
    assert!(net.estimated_bytes() < plain.estimated_bytes() + 64 * 1024);
}

/// GraphML of 50,000 bare nodes whose `data_json` key has a 60 KB
/// `<default>`: a node's data is its own, so the default is copied onto each
/// (3 GB), and refused by name.
fn amplifying_graphml() -> String {
    let mut doc = format!(
        r#"<graphml><key id="data_json" for="node" attr.name="data_json" attr.type="string"><default>"{}"</default></key><graph>"#,
        "x".repeat(60_000)
    );
    for i in 0..50_000 {
        doc.push_str(&format!("<node id=\"n{i}\"/>"));
    }
    doc.push_str("</graph></graphml>");
    doc
}

fn import(
    server: &NetworksServer,
    name: &str,
    format: &str,
    content: &str,
) -> Result<Value, Value> {
    dispatch(
        server,
        "network_import",
        json!({"network_name": name, "format": format, "content": content}),
    )
}

#[test]
fn an_import_whose_defaults_multiply_past_the_bound_is_refused_naming_the_key() {
    let server = server_with(Limits {
        max_import_bytes: 32 << 20,
        ..Limits::default()
    });
    let e = import(&server, "amplified", "graphml", &amplifying_graphml()).unwrap_err();
    assert_eq!(e["code"], "limit_exceeded", "{e}");
    let message = e["error"].as_str().unwrap_or_default();
    for needle in [
        "graphml",
        "key 'data_json'",
        "<default>",
        "--max-import-memory",
    ] {
        assert!(message.contains(needle), "{needle}: {message}");
    }
    assert_eq!(
        dispatch(&server, "network_list", json!({})).unwrap()["networks"],
        json!([]),
        "nothing was made"
    );
}

/// A node-link document of `nodes` nodes (`n0`, `n1`, …), each with a
/// 1,000-byte attribute of its own.
fn padded_nodes(nodes: usize) -> String {
    padded_nodes_named("n", nodes)
}

fn padded_nodes_named(prefix: &str, nodes: usize) -> String {
    // Each pad its own (a network stores an equal value once).
    let nodes: Vec<Value> = (0..nodes)
        .map(|i| json!({"id": format!("{prefix}{i}"), "pad": format!("{prefix}{i:06}{}", "p".repeat(993))}))
        .collect();
    let edge = json!({"source": format!("{prefix}0"), "target": format!("{prefix}1")});
    json!({"nodes": nodes, "edges": [edge]}).to_string()
}

#[test]
fn copies_and_imports_past_the_server_wide_bound_are_refused_and_make_nothing() {
    // About 1.2 MB a network of 1,000 padded nodes: two fit in 3 MB, three do not.
    let server = server_with(Limits {
        max_memory: 3 << 20,
        ..Limits::default()
    });
    let document = padded_nodes(1_000);
    import(&server, "first", "node_link_json", &document).unwrap();
    dispatch(
        &server,
        "network_copy",
        json!({"network_name": "first", "into": "second", "method": "whole"}),
    )
    .unwrap();
    for (tool, args) in [
        (
            "network_copy",
            json!({"network_name": "first", "into": "third", "method": "whole"}),
        ),
        (
            "network_import",
            json!({"network_name": "third", "format": "node_link_json", "content": document}),
        ),
        (
            "network_import",
            json!({"network_name": "first", "format": "node_link_json", "mode": "merge",
                   "content": padded_nodes_named("m", 1_000)}),
        ),
    ] {
        let e = dispatch(&server, tool, args).unwrap_err();
        assert_eq!(e["code"], "limit_exceeded", "{tool}: {e}");
        let message = e["error"].as_str().unwrap_or_default();
        assert!(message.contains("--max-memory"), "{message}");
        assert!(message.contains("network_delete"), "{message}");
    }
    let names: Vec<Value> = dispatch(&server, "network_list", json!({})).unwrap()["networks"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(names.len(), 2, "{names:?}");
    let first = dispatch(
        &server,
        "network_describe",
        json!({"network_name": "first"}),
    )
    .unwrap();
    assert_eq!(
        first["node_count"], 1_000,
        "the refused merge added nothing"
    );
    // A small part still fits, and room comes back when a network goes.
    dispatch(
        &server,
        "network_copy",
        json!({"network_name": "first", "into": "part", "method": "induced", "node_ids": ["n0", "n1"]}),
    )
    .unwrap();
    dispatch(
        &server,
        "network_delete",
        json!({"network_name": "second", "confirm": true}),
    )
    .unwrap();
    dispatch(
        &server,
        "network_copy",
        json!({"network_name": "first", "into": "third", "method": "whole"}),
    )
    .unwrap();
}

#[test]
fn the_default_bounds_admit_ordinary_imports_and_copies() {
    let server = server_with(Limits::default());
    let document = padded_nodes(5_000);
    import(&server, "a", "node_link_json", &document).unwrap();
    for i in 0..3 {
        dispatch(
            &server,
            "network_copy",
            json!({"network_name": "a", "into": format!("copy{i}"), "method": "whole"}),
        )
        .unwrap();
    }
}

#[test]
fn copies_at_once_never_pass_the_server_wide_bound_together() {
    // One network of about 1.2 MB; 3 MB admits one more copy of it, not two.
    let server = std::sync::Arc::new(server_with(Limits {
        max_memory: 3 << 20,
        ..Limits::default()
    }));
    import(&server, "first", "node_link_json", &padded_nodes(1_000)).unwrap();
    for round in 0..5 {
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
        let copies: Vec<_> = (0..8)
            .map(|i| {
                let (server, barrier) = (std::sync::Arc::clone(&server), std::sync::Arc::clone(&barrier));
                std::thread::spawn(move || {
                    barrier.wait();
                    dispatch(
                        &server,
                        "network_copy",
                        json!({"network_name": "first", "into": format!("copy{round}-{i}"), "method": "whole"}),
                    )
                    .is_ok()
                })
            })
            .collect();
        let made = copies
            .into_iter()
            .filter_map(|c| c.join().unwrap().then_some(()))
            .count();
        assert_eq!(
            made, 1,
            "round {round}: {made} copies passed a bound that admits one"
        );
        let list = dispatch(&server, "network_list", json!({})).unwrap();
        for network in list["networks"].as_array().unwrap() {
            let name = network["name"].as_str().unwrap();
            if name != "first" {
                dispatch(
                    &server,
                    "network_delete",
                    json!({"network_name": name, "confirm": true}),
                )
                .unwrap();
            }
        }
    }
}

#[test]
fn counting_what_all_networks_hold_never_waits_for_a_held_network() {
    let server = server_with(Limits {
        max_memory: 64 << 20,
        ..Limits::default()
    });
    import(&server, "first", "node_link_json", &padded_nodes(100)).unwrap();
    import(
        &server,
        "busy",
        "node_link_json",
        &padded_nodes_named("b", 100),
    )
    .unwrap();
    // Counted once while free, then held as a long write would hold it.
    dispatch(
        &server,
        "network_copy",
        json!({"network_name": "first", "into": "warm", "method": "whole"}),
    )
    .unwrap();
    let busy = server.registry().get("busy").unwrap();
    let held = busy.write();
    let budget =
        networks_mcp::budget::Budget::unlimited().with_timeout(std::time::Duration::from_secs(20));
    let copied = server
        .dispatch(
            networks_mcp::mcp::Call::new(
                "network_copy",
                json!({"network_name": "first", "into": "second", "method": "whole"}),
            )
            .with_budget(&budget),
        )
        .expect("a listed tool");
    assert!(copied.is_ok(), "{:?}", copied.map_err(|e| e.to_object()));
    drop(held);
}

/// A new network is built as its node-link document is read, a few thousand
/// items at a time. A fault or a cap met after the first items were added
/// still refuses the whole import and leaves no network behind.
#[test]
fn a_network_built_as_read_is_dropped_on_a_late_fault() {
    let server = server_with(Limits {
        max_nodes: 20_000,
        ..Limits::default()
    });
    let nodes = |count: usize, bad_at: Option<usize>| -> Vec<Value> {
        (0..count)
            .map(|i| match bad_at {
                Some(at) if at == i => json!({"id": format!("n{i}"), "tags": ["x"]}),
                _ => json!({"id": format!("n{i}")}),
            })
            .collect()
    };
    let cases = [
        // Bad attribute on the 9,000th node: two chunks already added.
        (
            json!({"nodes": nodes(10_000, Some(9_000)), "edges": []}),
            "invalid_import",
        ),
        // Past --max-nodes only through the endpoints the edges create.
        (
            json!({"nodes": nodes(15_000, None), "edges": (0..6_000)
                .map(|i| json!({"source": format!("n{i}"), "target": format!("new{i}")}))
                .collect::<Vec<_>>()}),
            "limit_exceeded",
        ),
        // A syntax error at the very end.
        (
            Value::String(format!(
                "{{\"nodes\": {}, \"edges\": [",
                json!(nodes(10_000, None))
            )),
            "invalid_import",
        ),
    ];
    for (document, code) in cases {
        let content = match document {
            Value::String(text) => text,
            other => other.to_string(),
        };
        let e = dispatch(
            &server,
            "network_import",
            json!({"network_name": "late", "format": "node_link_json", "content": content}),
        )
        .unwrap_err();
        assert_eq!(e["code"], code, "{e}");
        let listed = dispatch(&server, "network_list", json!({})).unwrap();
        assert_eq!(listed["networks"], json!([]), "{listed}");
    }
    // And the same documents without the fault import.
    let fine = json!({"nodes": nodes(10_000, None), "edges": []}).to_string();
    let out = dispatch(
        &server,
        "network_import",
        json!({"network_name": "late", "format": "node_link_json", "content": fine}),
    )
    .unwrap();
    assert_eq!(out["node_count"], 10_000, "{out}");
}

/// A merge of node-link JSON is checked whole before the network changes: a
/// fault past the first chunks leaves the network as it was (its version
/// too). With the node cap too near for every name the document holds to be
/// new, the new nodes are counted exactly: a document that adds few nodes
/// still merges, one that adds too many is refused.
#[test]
fn a_merge_read_twice_changes_nothing_on_a_late_fault() {
    let server = server_with(Limits {
        max_nodes: 12_000,
        ..Limits::default()
    });
    let nodes: Vec<Value> = (0..10_000)
        .map(|i| json!({"id": format!("n{i}")}))
        .collect();
    let base = json!({"nodes": nodes, "edges": []}).to_string();
    let out = dispatch(
        &server,
        "network_import",
        json!({"network_name": "m", "format": "node_link_json", "content": base}),
    )
    .unwrap();
    let version =
        dispatch(&server, "network_describe", json!({"network_name": "m"})).unwrap()["version"]
            .clone();
    assert_eq!(out["node_count"], 10_000, "{out}");
    let edges = |count: usize, bad_at: Option<usize>| -> Vec<Value> {
        (0..count)
            .map(|i| match bad_at {
                Some(at) if at == i => json!({"source": format!("n{i}"), "target": ""}),
                _ => json!({"source": format!("n{i}"), "target": format!("n{}", i + 1)}),
            })
            .collect()
    };
    let faults = [
        (
            json!({"nodes": [{"id": "extra"}], "edges": edges(9_000, Some(8_999))}).to_string(),
            "invalid_batch_item",
        ),
        (
            format!("{{\"nodes\": [], \"edges\": {}", json!(edges(9_000, None))),
            "invalid_import",
        ),
        // 1,000 edges to new ends, 2,000 nodes more than the cap has room for.
        (
            json!({"nodes": [], "edges": (0..3_000)
                .map(|i| json!({"source": format!("n{i}"), "target": format!("new{i}")}))
                .collect::<Vec<_>>()})
            .to_string(),
            "limit_exceeded",
        ),
    ];
    for (content, code) in faults {
        let e = dispatch(
            &server,
            "network_import",
            json!({"network_name": "m", "format": "node_link_json", "mode": "merge", "content": content}),
        )
        .unwrap_err();
        assert_eq!(e["code"], code, "{e}");
        let info = dispatch(&server, "network_describe", json!({"network_name": "m"})).unwrap();
        assert_eq!(
            (info["node_count"].clone(), info["edge_count"].clone()),
            (json!(10_000), json!(0)),
            "{info}"
        );
        assert_eq!(info["version"], version, "{info}");
    }
    // 9,000 edges among existing nodes: 18,000 names, past the cap if all were
    // new, but only one is.
    let content = json!({"nodes": [{"id": "n0"}], "edges": edges(9_000, None)}).to_string();
    let out = dispatch(
        &server,
        "network_import",
        json!({"network_name": "m", "format": "node_link_json", "mode": "merge", "content": content}),
    )
    .unwrap();
    assert_eq!(
        (
            out["created_node_count"].clone(),
            out["existing_node_count"].clone(),
            out["created_edge_count"].clone()
        ),
        (json!(0), json!(1), json!(9_000)),
        "{out}"
    );
    // Room for every name: read twice, the same counts.
    let content =
        json!({"nodes": [{"id": "n1"}, {"id": "fresh"}], "edges": edges(500, None)}).to_string();
    let out = dispatch(
        &server,
        "network_import",
        json!({"network_name": "m", "format": "node_link_json", "mode": "merge", "content": content, "description": "new"}),
    )
    .unwrap();
    assert_eq!(
        (
            out["created_node_count"].clone(),
            out["existing_node_count"].clone(),
            out["node_count"].clone(),
            out["edge_count"].clone()
        ),
        (json!(1), json!(1), json!(10_001), json!(9_500)),
        "{out}"
    );
    // A description is read with mode "create" only, and the reply says so.
    assert_eq!(out["warnings"][0]["code"], "ignored", "{out}");
    let described = dispatch(&server, "network_describe", json!({"network_name": "m"})).unwrap();
    assert_eq!(described["description"], Value::Null, "{described}");
}

/// A merge keeps existing nodes as they are: when the document gives one of
/// them other values (an attribute it lacks or holds otherwise, or other
/// data), the reply says which were not applied, for node-link JSON (read
/// twice) and for a format parsed whole (GraphML, its defaults counted as the
/// node's). Equal values, 1 against 1.0 included, and nodes listed bare say
/// nothing.
#[test]
fn a_merge_says_which_listed_nodes_it_kept_as_they_were() {
    let server = server_with(Limits::default());
    let base = json!({"nodes": [
        {"id": "serde", "status": "todo", "rank": 1},
        {"id": "tokio", "status": "todo"},
        {"id": "axum", "status": "done"},
    ], "edges": []})
    .to_string();
    dispatch(
        &server,
        "network_import",
        json!({"network_name": "k", "format": "node_link_json", "content": base}),
    )
    .unwrap();
    let merge = |format: &str, content: String| {
        dispatch(
            &server,
            "network_import",
            json!({"network_name": "k", "format": format, "mode": "merge", "content": content}),
        )
        .unwrap()
    };
    let kept = |out: &Value| -> Vec<String> {
        warnings(out)
            .into_iter()
            .filter(|(code, message)| code == "ignored" && message.contains("already existed"))
            .map(|(_, message)| message)
            .collect()
    };
    let out = merge(
        "node_link_json",
        json!({"nodes": [
            {"id": "serde", "status": "done", "rank": 1.0},
            {"id": "tokio"},
            {"id": "axum", "status": "done"},
            {"id": "new", "status": "todo"},
        ]})
        .to_string(),
    );
    let said = kept(&out);
    assert_eq!(said.len(), 1, "{out}");
    assert!(said[0].starts_with("1 node of the document"), "{}", said[0]);
    assert!(said[0].contains("'serde' (status)"), "{}", said[0]);
    assert!(said[0].contains("network_update_nodes"), "{}", said[0]);
    let serde = dispatch(
        &server,
        "network_get_node",
        json!({"network_name": "k", "node_id": "serde"}),
    )
    .unwrap();
    assert_eq!(serde["attributes"]["status"], "todo", "{serde}");
    // Equal values and bare nodes: nothing to say.
    let out = merge(
        "node_link_json",
        json!({"nodes": [{"id": "serde", "status": "todo"}, {"id": "tokio"}]}).to_string(),
    );
    assert!(kept(&out).is_empty(), "{out}");
    // GraphML: a key's default is the node's value when it gives none.
    let graphml = r#"<?xml version="1.0"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="s" for="node" attr.name="status" attr.type="string"><default>blocked</default></key>
  <graph edgedefault="directed">
    <node id="tokio"/>
    <node id="axum"><data key="s">done</data></node>
  </graph>
</graphml>"#;
    let out = merge("graphml", graphml.to_string());
    let said = kept(&out);
    assert_eq!(said.len(), 1, "{out}");
    assert!(
        said[0].contains("'tokio' (status)") && !said[0].contains("axum"),
        "{}",
        said[0]
    );
}
