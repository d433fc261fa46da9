//! Hostile arguments to the algorithms toolset: each is refused with an error
//! that names the parameter, or answered within a bounded amount of work, and
//! none changes anything. The rows of specs/security.md that name this file.

use networks_mcp::mcp::NetworksServer;
use serde_json::{Value, json};

use crate::common::{dispatch as call, unlimited_server};

fn server() -> NetworksServer {
    unlimited_server()
}

/// The complete directed graph on `n` nodes: (n-2)! × e simple paths between two nodes.
fn complete(server: &NetworksServer, name: &str, n: usize) {
    call(server, "network_create", json!({"network_name": name})).unwrap();
    let mut edges = Vec::new();
    for u in 0..n {
        for v in 0..n {
            if u != v {
                edges.push(json!({"source": format!("n{u}"), "target": format!("n{v}")}));
            }
        }
    }
    call(
        server,
        "network_add_edges",
        json!({"network_name": name, "edges": edges, "create_missing_nodes": true}),
    )
    .unwrap();
}

/// `(code, field)` of a refused call.
fn refused(server: &NetworksServer, tool: &str, args: Value) -> (String, String) {
    let e = call(server, tool, args).unwrap_err();
    assert!(e.to_string().len() < 4096, "a bounded error: {e}");
    (
        e["code"].as_str().unwrap_or_default().to_string(),
        e["field"].as_str().unwrap_or_default().to_string(),
    )
}

fn expect(server: &NetworksServer, tool: &str, args: Value, code: &str, field: &str) {
    assert_eq!(
        refused(server, tool, args.clone()),
        (code.to_string(), field.to_string()),
        "{tool} {args}"
    );
}

#[test]
fn a_search_cut_at_its_work_limit_advises_in_its_own_method_s_terms() {
    let server = server();
    // all_simple: the one path to t comes last, after every path of the
    // complete graph; k_shortest: long paths, each alternative a search per
    // node of the best one (a ladder a0 → … → a1500 with rungs aᵢ → bᵢ₊₁ and
    // b0 → … → b1500).
    complete(&server, "k", 12);
    call(&server, "network_create", json!({"network_name": "ladder"})).unwrap();
    let mut edges = Vec::new();
    for i in 0..1500 {
        for (s, t) in [("a", "a"), ("b", "b"), ("a", "b")] {
            edges.push(json!({"source": format!("{s}{i}"), "target": format!("{t}{}", i + 1)}));
        }
    }
    call(
        &server,
        "network_add_edges",
        json!({"network_name": "ladder", "edges": edges, "create_missing_nodes": true}),
    )
    .unwrap();
    call(
        &server,
        "network_add_node",
        json!({"network_name": "k", "node_id": "t"}),
    )
    .unwrap();
    call(
        &server,
        "network_add_edge",
        json!({"network_name": "k", "source": "n0", "target": "t"}),
    )
    .unwrap();
    for (network, target, method, says, never) in [
        ("k", "t", "all_simple", "lower max_depth", "fewer"),
        (
            "ladder",
            "b1500",
            "k_shortest",
            "ask for fewer",
            "max_depth",
        ),
    ] {
        let got = call(
            &server,
            "network_paths",
            json!({"network_name": network, "source": if network == "k" { "n0" } else { "a0" }, "target": target, "method": method, "max_depth": 11, "limit": 20}),
        )
        .unwrap();
        let note = got["more"].as_str().unwrap();
        assert!(
            note.contains("work limit") && note.contains(says),
            "{method}: {note}"
        );
        assert!(!note.contains(never), "{method}: {note}");
    }
}

#[test]
fn an_exponential_number_of_paths_is_cut_at_the_work_limit() {
    let server = server();
    complete(&server, "k", 12);
    for method in ["all_simple", "k_shortest"] {
        // Far past any page: the search stops at its work limit and says so.
        let got = call(
            &server,
            "network_paths",
            json!({"network_name": "k", "source": "n0", "target": "n1", "method": method, "max_depth": 11, "limit": 1000}),
        )
        .unwrap();
        let paths = got["paths"].as_array().unwrap();
        assert!(paths.len() <= 1000, "{method}");
        for p in paths {
            let ids = p["node_ids"].as_array().unwrap();
            let mut unique = ids.clone();
            unique.sort_by_key(|v| v.as_str().unwrap().to_string());
            unique.dedup();
            assert_eq!(unique.len(), ids.len(), "simple");
        }
    }
    let deep = call(
        &server,
        "network_paths",
        json!({"network_name": "k", "source": "n0", "target": "n1", "method": "all_simple", "max_depth": 11, "limit": 1000}),
    )
    .unwrap();
    assert_eq!(deep["truncated"], true, "{}", deep["more"]);
    // One path, n0 -> t, added last: depth-first search first wanders through
    // every path of the complete graph that could come back to n0, and can't.
    call(
        &server,
        "network_add_node",
        json!({"network_name": "k", "node_id": "t"}),
    )
    .unwrap();
    call(
        &server,
        "network_add_edge",
        json!({"network_name": "k", "source": "n0", "target": "t"}),
    )
    .unwrap();
    let version =
        call(&server, "network_describe", json!({"network_name": "k"})).unwrap()["version"].clone();
    let rare = call(
        &server,
        "network_paths",
        json!({"network_name": "k", "source": "n0", "target": "t", "method": "all_simple", "max_depth": 11}),
    )
    .unwrap();
    // Depth first, the edge to t comes last: the limit cuts the search before it.
    assert_eq!(rare["paths"], json!([]), "{rare}");
    assert_eq!(rare["truncated"], true, "{rare}");
    assert!(rare.get("next_cursor").is_none(), "{rare}");
    assert!(
        rare["more"].as_str().unwrap().contains("work limit"),
        "{rare}"
    );
    let after =
        call(&server, "network_describe", json!({"network_name": "k"})).unwrap()["version"].clone();
    assert_eq!(after, version, "reads change nothing");
}

#[test]
fn out_of_range_and_misplaced_parameters_are_refused_by_name() {
    let server = server();
    complete(&server, "k", 4);
    let paths = |extra: Value| {
        let mut args =
            json!({"network_name": "k", "source": "n0", "target": "n1", "method": "all_simple"});
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        args
    };
    expect(
        &server,
        "network_paths",
        paths(json!({"max_depth": 0})),
        "invalid_value",
        "max_depth",
    );
    expect(
        &server,
        "network_paths",
        paths(json!({"max_depth": 1001})),
        "invalid_value",
        "max_depth",
    );
    expect(
        &server,
        "network_paths",
        paths(json!({"limit": 1001})),
        "invalid_value",
        "limit",
    );
    expect(
        &server,
        "network_paths",
        paths(json!({"source": ""})),
        "invalid_id",
        "source",
    );
    expect(
        &server,
        "network_paths",
        paths(json!({"target": "n\u{0}"})),
        "invalid_id",
        "target",
    );

    let long = "x".repeat(300);
    let huge = "y".repeat(1 << 20);
    for query in ["", long.as_str(), huge.as_str()] {
        expect(
            &server,
            "network_search",
            json!({"network_name": "k", "query": query}),
            "invalid_value",
            "query",
        );
    }
    let names: Vec<String> = (0..65).map(|i| format!("a{i}")).collect();
    expect(
        &server,
        "network_search",
        json!({"network_name": "k", "query": "n", "in_attributes": names}),
        "invalid_value",
        "in_attributes",
    );
    expect(
        &server,
        "network_search",
        json!({"network_name": "k", "query": "n", "max_distance": 2}),
        "invalid_value",
        "max_distance",
    );

    expect(
        &server,
        "network_structure",
        json!({"network_name": "k", "method": "dominators"}),
        "invalid_value",
        "root",
    );
    expect(
        &server,
        "network_structure",
        json!({"network_name": "k", "method": "bridges", "root": "n0"}),
        "invalid_value",
        "root",
    );
    expect(
        &server,
        "network_structure",
        json!({"network_name": "k", "method": "dominators", "root": "nope"}),
        "node_not_found",
        "root",
    );

    expect(
        &server,
        "network_communities",
        json!({"network_name": "k", "resolution": -0.5}),
        "invalid_value",
        "resolution",
    );
    expect(
        &server,
        "network_communities",
        json!({"network_name": "k", "min_size": 0}),
        "invalid_value",
        "min_size",
    );

    let many: Vec<String> = (0..100_001).map(|i| format!("n{i}")).collect();
    for (args, field) in [
        (
            json!({"network_name": "k", "into": "k", "method": "whole"}),
            "into",
        ),
        (
            json!({"network_name": "k", "into": "c", "method": "induced", "node_ids": []}),
            "node_ids",
        ),
        (
            json!({"network_name": "k", "into": "c", "method": "induced", "node_ids": many}),
            "node_ids",
        ),
        (
            json!({"network_name": "k", "into": "c", "method": "whole", "node_ids": ["n0"]}),
            "node_ids",
        ),
        (
            json!({"network_name": "k", "into": "c", "method": "neighborhood", "node_ids": ["n0"], "depth": 1001}),
            "depth",
        ),
    ] {
        expect(&server, "network_copy", args, "invalid_value", field);
    }
    expect(
        &server,
        "network_copy",
        json!({"network_name": "k", "into": "c", "method": "whole", "if_version": 0}),
        "version_conflict",
        "",
    );
    expect(
        &server,
        "network_copy",
        json!({"network_name": "k", "into": "c", "method": "transitive_reduction"}),
        "cycle_detected",
        "",
    );
    expect(
        &server,
        "network_diff",
        json!({"network_name": "k", "other": ""}),
        "invalid_id",
        "other",
    );
    assert_eq!(
        refused(
            &server,
            "network_diff",
            json!({"network_name": "k", "other": "nope"})
        )
        .0,
        "network_not_found"
    );
    // Nothing was made.
    let list = call(&server, "network_list", json!({})).unwrap();
    assert_eq!(list["networks"].as_array().unwrap().len(), 1, "{list}");
}

#[test]
fn a_cursor_from_another_network_or_a_changed_other_is_refused() {
    let server = server();
    complete(&server, "a", 4);
    complete(&server, "b", 4);
    let first = call(
        &server,
        "network_communities",
        json!({"network_name": "a", "method": "strong", "limit": 1, "min_size": 1}),
    )
    .unwrap();
    // K4 is one strong component: no next page. Make one with a diff instead.
    assert!(first.get("next_cursor").is_none());
    call(
        &server,
        "network_add_node",
        json!({"network_name": "b", "node_id": "x"}),
    )
    .unwrap();
    call(
        &server,
        "network_add_node",
        json!({"network_name": "b", "node_id": "y"}),
    )
    .unwrap();
    let page = call(
        &server,
        "network_diff",
        json!({"network_name": "a", "other": "b", "limit": 1}),
    )
    .unwrap();
    let cursor = page["next_cursor"].as_str().unwrap().to_string();
    // The same cursor on another pair of networks.
    expect(
        &server,
        "network_diff",
        json!({"network_name": "b", "other": "a", "limit": 1, "cursor": cursor}),
        "invalid_value",
        "cursor",
    );
    // `other` changed since the cursor was made.
    call(
        &server,
        "network_add_node",
        json!({"network_name": "b", "node_id": "z"}),
    )
    .unwrap();
    expect(
        &server,
        "network_diff",
        json!({"network_name": "a", "other": "b", "limit": 1, "cursor": cursor}),
        "invalid_value",
        "cursor",
    );
}
