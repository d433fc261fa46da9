//! The algorithms toolset's other tools through the MCP layer: Louvain
//! communities, paths, structure, search, diff and copies; their paging, their
//! errors and that a refused call changes nothing. Agreement with NetworkX is
//! tests/interop (test_communities, test_paths, test_topology, test_copy_diff).

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::limits::Limits;
use networks_mcp::mcp::{NetworksServer, ServerOptions};
use serde_json::{Value, json};

use crate::common::{dispatch as call, every_toolset, server_with};

fn server() -> NetworksServer {
    server_with(Limits::unlimited())
}

/// A network named `name` with `edges` (source, target, weight), nodes made as needed.
fn build(server: &NetworksServer, name: &str, edges: &[(&str, &str, f64)]) {
    call(server, "network_create", json!({"network_name": name})).unwrap();
    let edges: Vec<Value> = edges
        .iter()
        .map(|(s, t, w)| json!({"source": s, "target": t, "weight": w}))
        .collect();
    call(
        server,
        "network_add_edges",
        json!({"network_name": name, "edges": edges, "create_missing_nodes": true}),
    )
    .unwrap();
}

fn strings(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// Every page of `tool(args)`, following next_cursor, with `key`'s items joined.
fn all_pages(server: &NetworksServer, tool: &str, mut args: Value, key: &str) -> Vec<Value> {
    let mut items = Vec::new();
    loop {
        let page = call(server, tool, args.clone()).unwrap();
        items.extend(page[key].as_array().unwrap().iter().cloned());
        match page.get("next_cursor") {
            Some(cursor) => args["cursor"] = cursor.clone(),
            None => return items,
        }
    }
}

#[test]
fn louvain_finds_two_cliques_joined_by_one_edge() {
    let server = server();
    let mut edges = Vec::new();
    let left = ["a1", "a2", "a3", "a4"];
    let right = ["b1", "b2", "b3", "b4"];
    for side in [left, right] {
        for u in side {
            for v in side {
                if u != v {
                    edges.push((u, v, 1.0));
                }
            }
        }
    }
    edges.push(("a1", "b1", 1.0));
    build(&server, "two", &edges);
    let args = json!({"network_name": "two", "method": "louvain", "seed": 3});
    let got = call(&server, "network_communities", args.clone()).unwrap();
    assert_eq!(got["total"], 2, "{got}");
    let groups: Vec<Vec<String>> = got["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| strings(&g["node_ids"]))
        .collect();
    assert_eq!(groups, [left.map(String::from), right.map(String::from)]);
    let modularity = got["modularity"].as_f64().unwrap();
    assert!(modularity > 0.4 && modularity < 0.5, "{modularity}");
    // The same seed, the same answer.
    assert_eq!(call(&server, "network_communities", args).unwrap(), got);
    // Components carry no modularity.
    let weak = call(
        &server,
        "network_communities",
        json!({"network_name": "two", "method": "weak"}),
    )
    .unwrap();
    assert!(weak.get("modularity").is_none(), "{weak}");
    let e = call(
        &server,
        "network_communities",
        json!({"network_name": "two", "resolution": -1.0}),
    )
    .unwrap_err();
    assert_eq!(
        (&e["code"], &e["field"]),
        (&json!("invalid_value"), &json!("resolution")),
        "{e}"
    );
}

/// a -> b -> d, a -> c -> d, a -> d, b -> c: four simple paths from a to d.
fn diamond(server: &NetworksServer) {
    build(
        server,
        "d",
        &[
            ("a", "b", 1.0),
            ("b", "d", 1.0),
            ("a", "c", 2.0),
            ("c", "d", 2.0),
            ("a", "d", 5.0),
            ("b", "c", 1.0),
        ],
    );
}

#[test]
fn all_simple_paths_page_through_every_path_once() {
    let server = server();
    diamond(&server);
    let args = json!({"network_name": "d", "source": "a", "target": "d", "method": "all_simple", "limit": 1});
    let paths = all_pages(&server, "network_paths", args, "paths");
    let mut seen: Vec<Vec<String>> = paths.iter().map(|p| strings(&p["node_ids"])).collect();
    assert_eq!(seen.len(), 4, "{paths:?}");
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 4, "each path once");
    for p in &paths {
        assert_eq!(
            p["hops"].as_u64().unwrap() as usize + 1,
            p["node_ids"].as_array().unwrap().len()
        );
        assert_eq!(
            p["edge_ids"].as_array().unwrap().len(),
            p["hops"].as_u64().unwrap() as usize
        );
    }
    let short = call(
        &server,
        "network_paths",
        json!({"network_name": "d", "source": "a", "target": "d", "method": "all_simple", "max_depth": 1}),
    )
    .unwrap();
    assert_eq!(short["paths"].as_array().unwrap().len(), 1, "{short}");
    assert_eq!(short["truncated"], false);
}

#[test]
fn k_shortest_paths_come_shortest_first() {
    let server = server();
    diamond(&server);
    let got = call(
        &server,
        "network_paths",
        json!({"network_name": "d", "source": "a", "target": "d", "method": "k_shortest", "limit": 10}),
    )
    .unwrap();
    let costs: Vec<f64> = got["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["total_weight"].as_f64().unwrap())
        .collect();
    assert_eq!(costs, [2.0, 4.0, 4.0, 5.0], "{got}");
    assert_eq!(strings(&got["paths"][0]["node_ids"]), ["a", "b", "d"]);
    let hops = call(
        &server,
        "network_paths",
        json!({"network_name": "d", "source": "a", "target": "d", "method": "k_shortest", "weighted": false, "limit": 1}),
    )
    .unwrap();
    assert_eq!(strings(&hops["paths"][0]["node_ids"]), ["a", "d"]);
    let e = call(
        &server,
        "network_paths",
        json!({"network_name": "d", "source": "a", "target": "nope", "method": "k_shortest"}),
    )
    .unwrap_err();
    assert_eq!(
        (&e["code"], &e["field"]),
        (&json!("node_not_found"), &json!("target")),
        "{e}"
    );
}

#[test]
fn structure_finds_redundant_edges_dominators_and_single_points_of_failure() {
    let server = server();
    // app -> api -> db, app -> db (implied), app -> web -> api: api dominates db.
    build(
        &server,
        "s",
        &[
            ("app", "api", 1.0),
            ("api", "db", 1.0),
            ("app", "db", 1.0),
            ("app", "web", 1.0),
            ("web", "api", 1.0),
            ("db", "disk", 1.0),
        ],
    );
    let redundant = call(
        &server,
        "network_structure",
        json!({"network_name": "s", "method": "redundant_edges"}),
    )
    .unwrap();
    let pairs: Vec<(&str, &str)> = redundant["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["source"].as_str().unwrap(), e["target"].as_str().unwrap()))
        .collect();
    assert_eq!(
        pairs,
        [("app", "api"), ("app", "db")],
        "by edge ID: {redundant}"
    );
    assert_eq!(redundant["total"], 2, "{redundant}");
    let chain = call(
        &server,
        "network_structure",
        json!({"network_name": "s", "method": "dominators", "root": "app", "target": "disk"}),
    )
    .unwrap();
    assert_eq!(strings(&chain["node_ids"]), ["db", "app"], "{chain}");
    assert_eq!(chain["reachable"], true);
    let points = call(
        &server,
        "network_structure",
        json!({"network_name": "s", "method": "articulation_points"}),
    )
    .unwrap();
    assert_eq!(strings(&points["node_ids"]), ["db"], "{points}");
    let bridges = call(
        &server,
        "network_structure",
        json!({"network_name": "s", "method": "bridges"}),
    )
    .unwrap();
    assert_eq!(bridges["edges"][0]["source"], "db", "{bridges}");
    assert_eq!(bridges["total"], 1);
    let e = call(
        &server,
        "network_structure",
        json!({"network_name": "s", "method": "dominators"}),
    )
    .unwrap_err();
    assert_eq!(
        (&e["code"], &e["field"]),
        (&json!("invalid_value"), &json!("root")),
        "{e}"
    );
    // A cycle: no transitive reduction.
    call(
        &server,
        "network_add_edge",
        json!({"network_name": "s", "source": "disk", "target": "app"}),
    )
    .unwrap();
    let e = call(
        &server,
        "network_structure",
        json!({"network_name": "s", "method": "redundant_edges"}),
    )
    .unwrap_err();
    assert_eq!(e["code"], "cycle_detected", "{e}");
}

#[test]
fn search_finds_substrings_and_typos_best_first() {
    let server = server();
    call(&server, "network_create", json!({"network_name": "p"})).unwrap();
    call(
        &server,
        "network_add_nodes",
        json!({"network_name": "p", "nodes": [
            {"node_id": "deploy-database", "attributes": {"status": "todo", "title": "Migrate the Café schema"}},
            {"node_id": "deploy-web", "attributes": {"status": "done"}},
            {"node_id": "write-tests", "attributes": {"status": "todo"}},
        ]}),
    )
    .unwrap();
    let found = call(
        &server,
        "network_search",
        json!({"network_name": "p", "query": "DEPLOY"}),
    )
    .unwrap();
    let ids: Vec<&str> = found["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["node_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["deploy-database", "deploy-web"], "{found}");
    // Composed and decomposed accents are one text.
    let accent = call(
        &server,
        "network_search",
        json!({"network_name": "p", "query": "cafe\u{301}"}),
    )
    .unwrap();
    assert_eq!(
        accent["matches"][0]["field"], "attributes.title",
        "{accent}"
    );
    let fuzzy = call(
        &server,
        "network_search",
        json!({"network_name": "p", "query": "deploy databse", "mode": "fuzzy", "max_distance": 2}),
    )
    .unwrap();
    assert_eq!(fuzzy["matches"][0]["node_id"], "deploy-database", "{fuzzy}");
    assert!(fuzzy["matches"][0]["edit_distance"].as_u64().unwrap() <= 2);
    // A swap of two adjacent letters is one edit: within the default bound of
    // a 5-character query.
    let swapped = call(
        &server,
        "network_search",
        json!({"network_name": "p", "query": "wirte", "mode": "fuzzy"}),
    )
    .unwrap();
    assert_eq!(swapped["matches"][0]["node_id"], "write-tests", "{swapped}");
    assert_eq!(swapped["matches"][0]["edit_distance"], 1, "{swapped}");
    // Two changed letters are past that bound, and the answer says how to look further.
    let far = call(
        &server,
        "network_search",
        json!({"network_name": "p", "query": "wxitx", "mode": "fuzzy"}),
    )
    .unwrap();
    assert_eq!(far["total"], 0, "{far}");
    assert!(
        far["note"].as_str().unwrap().contains("max_distance"),
        "{far}"
    );
    let wider = call(
        &server,
        "network_search",
        json!({"network_name": "p", "query": "wxitx", "mode": "fuzzy", "max_distance": 2}),
    )
    .unwrap();
    assert!(wider["total"].as_u64().unwrap() > 0, "{wider}");
    assert!(wider.get("note").is_none());
    let filtered = call(
        &server,
        "network_search",
        json!({"network_name": "p", "query": "deploy", "attributes": {"status": "done"}}),
    )
    .unwrap();
    assert_eq!(filtered["total"], 1, "{filtered}");
    let e = call(
        &server,
        "network_search",
        json!({"network_name": "p", "query": ""}),
    )
    .unwrap_err();
    assert_eq!(
        (&e["code"], &e["field"]),
        (&json!("invalid_value"), &json!("query")),
        "{e}"
    );
}

#[test]
fn a_copy_is_atomic_and_a_diff_pages_through_every_change_once() {
    let server = server();
    diamond(&server);
    let whole = call(
        &server,
        "network_copy",
        json!({"network_name": "d", "into": "d2", "method": "whole"}),
    )
    .unwrap();
    assert_eq!(
        (&whole["node_count"], &whole["edge_count"]),
        (&json!(4), &json!(6))
    );
    let same = call(
        &server,
        "network_diff",
        json!({"network_name": "d", "other": "d2"}),
    )
    .unwrap();
    assert_eq!(same["identical"], true, "{same}");
    // A copy into an existing name is refused and changes nothing.
    let e = call(
        &server,
        "network_copy",
        json!({"network_name": "d", "into": "d2", "method": "induced", "node_ids": ["a"]}),
    )
    .unwrap_err();
    assert_eq!(
        (&e["code"], &e["field"]),
        (&json!("invalid_value"), &json!("into")),
        "{e}"
    );
    // What if: change the copy, then compare.
    call(
        &server,
        "network_remove_node",
        json!({"network_name": "d2", "node_id": "c", "confirm": true}),
    )
    .unwrap();
    call(
        &server,
        "network_add_node",
        json!({"network_name": "d2", "node_id": "e", "attributes": {"new": true}}),
    )
    .unwrap();
    call(
        &server,
        "network_add_edge",
        json!({"network_name": "d2", "source": "a", "target": "e"}),
    )
    .unwrap();
    call(
        &server,
        "network_update_node",
        json!({"network_name": "d2", "node_id": "a", "attributes": {"status": "done"}}),
    )
    .unwrap();
    let counts = call(
        &server,
        "network_diff",
        json!({"network_name": "d", "other": "d2"}),
    )
    .unwrap()["counts"]
        .clone();
    let mut args_page = json!({"network_name": "d", "other": "d2", "limit": 1});
    let mut changes = 0;
    loop {
        let page = call(&server, "network_diff", args_page.clone()).unwrap();
        let on_page: usize = [
            "removed_node_ids",
            "added_node_ids",
            "changed_nodes",
            "removed_edges",
            "added_edges",
        ]
        .iter()
        .map(|k| page[k].as_array().unwrap().len())
        .sum();
        assert!(on_page <= 1, "{page}");
        changes += on_page;
        match page.get("next_cursor") {
            Some(c) => args_page["cursor"] = c.clone(),
            None => break,
        }
    }
    // c removed with its 3 edges; e added with 1 edge; a changed.
    assert_eq!(
        counts,
        json!({"removed_node_count": 1, "added_node_count": 1, "changed_node_count": 1, "removed_edge_count": 3, "added_edge_count": 1})
    );
    assert_eq!(
        changes,
        1 + 1 + 1 + 3 + 1,
        "each change once across the pages"
    );
    let neighborhood = call(
        &server,
        "network_copy",
        json!({"network_name": "d", "into": "near_b", "method": "neighborhood", "node_ids": ["b"], "depth": 1, "direction": "out"}),
    )
    .unwrap();
    assert_eq!(
        (&neighborhood["node_count"], &neighborhood["edge_count"]),
        (&json!(3), &json!(3)),
        "{neighborhood}"
    );
    let reduced = call(
        &server,
        "network_copy",
        json!({"network_name": "d", "into": "d_reduced", "method": "transitive_reduction"}),
    )
    .unwrap();
    assert_eq!(
        reduced["edge_count"], 3,
        "a -> b -> c -> d is all that is needed: {reduced}"
    );
    let e = call(
        &server,
        "network_copy",
        json!({"network_name": "d", "into": "x", "method": "induced"}),
    )
    .unwrap_err();
    assert_eq!(
        (&e["code"], &e["field"]),
        (&json!("invalid_value"), &json!("node_ids")),
        "{e}"
    );
    assert!(
        call(&server, "network_describe", json!({"network_name": "x"})).is_err(),
        "nothing made"
    );
}

#[test]
fn a_copy_past_the_network_limit_is_refused() {
    let server = server_with(Limits {
        max_networks: 1,
        ..Limits::default()
    });
    build(&server, "only", &[("a", "b", 1.0)]);
    let e = call(
        &server,
        "network_copy",
        json!({"network_name": "only", "into": "second", "method": "whole"}),
    )
    .unwrap_err();
    assert_eq!(e["code"], "limit_exceeded", "{e}");
    assert!(
        call(
            &server,
            "network_describe",
            json!({"network_name": "second"})
        )
        .is_err()
    );
}

#[test]
fn condensation_orders_a_cyclic_network() {
    let server = server();
    build(
        &server,
        "c",
        &[
            ("a", "b", 1.0),
            ("b", "a", 1.0),
            ("b", "c", 1.0),
            ("c", "d", 1.0),
            ("d", "c", 1.0),
        ],
    );
    let got = call(
        &server,
        "network_copy",
        json!({"network_name": "c", "into": "cc", "method": "condensation"}),
    )
    .unwrap();
    assert_eq!(
        (&got["node_count"], &got["edge_count"]),
        (&json!(2), &json!(1)),
        "{got}"
    );
    let node = call(
        &server,
        "network_get_node",
        json!({"network_name": "cc", "node_id": "a"}),
    )
    .unwrap();
    assert_eq!(node["data"]["members"], json!(["a", "b"]), "{node}");
    let order = call(
        &server,
        "network_topological_sort",
        json!({"network_name": "cc"}),
    )
    .unwrap();
    assert!(order["status"] == "success", "{order}");
}

#[test]
fn a_dry_run_copy_sees_taken_names_and_changes_nothing() {
    let registry = Arc::new(NetworkRegistry::new());
    let live = NetworksServer::new(registry.clone(), every_toolset());
    build(&live, "a", &[("x", "y", 1.0)]);
    build(&live, "b", &[("y", "z", 1.0)]);
    let dry = NetworksServer::new(
        registry.clone(),
        ServerOptions {
            dry_run: true,
            ..every_toolset()
        },
    );
    let e = call(
        &dry,
        "network_copy",
        json!({"network_name": "a", "into": "b", "method": "whole"}),
    )
    .unwrap_err();
    assert_eq!(
        (&e["code"], &e["field"]),
        (&json!("invalid_value"), &json!("into")),
        "{e}"
    );
    let ok = call(
        &dry,
        "network_copy",
        json!({"network_name": "a", "into": "c", "method": "whole"}),
    )
    .unwrap();
    assert_eq!(ok["dry_run"], true, "{ok}");
    assert_eq!(registry.names(), ["a", "b"], "nothing was made");
}
