//! Paging: reading any list result page by page, with any page size, yields
//! exactly the unpaged result, each item once and in the same order; and a
//! cursor made before a change is refused with `cursor_stale`.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::limits::{Limits, REPLY_ENVELOPE_BYTES};
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions};
use proptest::prelude::*;
use serde_json::{Value, json};

fn server_with(nodes: usize, edges: &[(usize, usize, u8)]) -> NetworksServer {
    server_bounded(nodes, edges, Limits::default().max_reply_bytes)
}

/// [`server_with`], its replies bounded to `max_reply_bytes`.
fn server_bounded(
    nodes: usize,
    edges: &[(usize, usize, u8)],
    max_reply_bytes: usize,
) -> NetworksServer {
    let options = ServerOptions {
        limits: Limits {
            max_reply_bytes,
            ..Limits::default()
        },
        ..crate::common::every_toolset()
    };
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options);
    // "h": half of g's nodes, every third one's attribute flipped, no edges;
    // network_diff pages g against it.
    call(&server, "network_create", json!({"network_name": "h"})).unwrap();
    let half: Vec<Value> = (0..nodes / 2)
        .map(|i| json!({"node_id": format!("n{i}"), "attributes": {"done": i % 3 != 0}}))
        .collect();
    if !half.is_empty() {
        call(
            &server,
            "network_add_nodes",
            json!({"network_name": "h", "nodes": half}),
        )
        .unwrap();
    }
    call(&server, "network_create", json!({"network_name": "g"})).unwrap();
    // Every third node is an epic of the next two (level "epics").
    let ids: Vec<Value> = (0..nodes)
        .map(|i| {
            let mut node = json!({"node_id": format!("n{i}"), "attributes": {"done": i % 3 == 0}});
            if i % 3 != 0 {
                node["attributes"]["parent"] = json!(format!("n{}", i / 3 * 3));
            }
            node
        })
        .collect();
    call(
        &server,
        "network_add_nodes",
        json!({"network_name": "g", "nodes": ids}),
    )
    .unwrap();
    if !edges.is_empty() {
        let items: Vec<Value> = edges
            .iter()
            .map(|&(a, b, w)| json!({"source": format!("n{a}"), "target": format!("n{b}"), "weight": f64::from(w)}))
            .collect();
        call(
            &server,
            "network_add_edges",
            json!({"network_name": "g", "edges": items}),
        )
        .unwrap();
    }
    server
}

fn call(server: &NetworksServer, tool: &str, args: Value) -> Result<Value, String> {
    match server.dispatch(Call::new(tool, args)).expect("known tool") {
        Ok(value) => Ok(value),
        Err(error) => Err(error.code().to_string()),
    }
}

/// The list fields of each paged tool's result, in the order they page.
fn lists(tool: &str) -> &'static [&'static str] {
    match tool {
        "network_traverse" => &["visited"],
        "network_descendants" | "network_ancestors" | "network_list_nodes" => &["nodes"],
        "network_topological_sort" => &["node_ids", "layers"],
        "network_find_cycles" => &["groups"],
        "network_critical_path" => &["node_ids", "edge_ids"],
        "network_ready_nodes" => &["ready"],
        "network_get_neighbors" => &["neighbors", "edges"],
        "network_list_edges" => &["edges"],
        "network_centrality" => &["scores"],
        "network_communities" => &["groups"],
        "network_paths" => &["paths"],
        "network_structure" => &["edges", "node_ids", "dominators"],
        "network_search" => &["matches"],
        "network_diff" => &[
            "removed_node_ids",
            "added_node_ids",
            "changed_nodes",
            "removed_edges",
            "added_edges",
        ],
        other => panic!("{other} is not paged"),
    }
}

/// Every page of `tool(args)` with pages of `limit`, joined into one result;
/// or the error code of the first call.
fn paged(server: &NetworksServer, tool: &str, args: &Value, limit: usize) -> Result<Value, String> {
    let mut args = args.clone();
    args["limit"] = json!(limit);
    let mut joined = call(server, tool, args.clone())?;
    let mut page = joined.clone();
    let mut pages = 1;
    while let Some(cursor) = page.get("next_cursor").and_then(Value::as_str) {
        assert_eq!(
            page["truncated"], true,
            "{tool}: a page with a next_cursor is truncated"
        );
        assert!(
            page["more"].as_str().is_some_and(|m| m.contains("cursor")),
            "{tool}: {page}"
        );
        args["cursor"] = json!(cursor);
        page = call(server, tool, args.clone()).expect("the next page");
        pages += 1;
        assert!(pages < 10_000, "{tool} does not end");
        for field in lists(tool) {
            let Some(items) = page[*field].as_array() else {
                continue;
            };
            if *field == "layers" {
                // A layer cut by a page boundary continues on the next page.
                let layers = joined["layers"].as_array_mut().unwrap();
                let first = page["first_layer"].as_u64().unwrap() as usize;
                for (i, layer) in items.iter().enumerate() {
                    if first + i < layers.len() {
                        let open = layers[first + i].as_array_mut().unwrap();
                        open.extend(layer.as_array().unwrap().iter().cloned());
                    } else {
                        layers.push(layer.clone());
                    }
                }
            } else {
                joined[*field]
                    .as_array_mut()
                    .unwrap()
                    .extend(items.iter().cloned());
            }
        }
    }
    assert_eq!(
        page["truncated"], false,
        "{tool}: the last page is not truncated"
    );
    // The last page says nothing of pages; it may say how to see more of an item.
    assert!(
        page.get("more")
            .and_then(Value::as_str)
            .is_none_or(|m| !m.contains("cursor")),
        "{tool}: {page}"
    );
    for key in [
        "truncated",
        "next_cursor",
        "more",
        "count",
        "visited_count",
        "first_layer",
    ] {
        if let Some(object) = joined.as_object_mut() {
            object.remove(key);
        }
    }
    Ok(joined)
}

fn calls() -> Vec<(&'static str, Value, usize)> {
    vec![
        (
            "network_traverse",
            json!({"start_node_ids": ["n0", "n1"], "direction": "both"}),
            10_000,
        ),
        (
            "network_traverse",
            json!({"start_node_ids": ["n2"], "order": "dfs"}),
            10_000,
        ),
        ("network_descendants", json!({"node_id": "n0"}), 10_000),
        (
            "network_ancestors",
            json!({"node_id": "n1", "max_depth": 2}),
            10_000,
        ),
        ("network_topological_sort", json!({"reverse": true}), 10_000),
        (
            "network_find_cycles",
            json!({"max_nodes_per_group": 3}),
            10_000,
        ),
        ("network_critical_path", json!({}), 10_000),
        (
            "network_topological_sort",
            json!({"reverse": true, "level": "epics"}),
            10_000,
        ),
        ("network_critical_path", json!({"level": "epics"}), 10_000),
        (
            "network_ready_nodes",
            json!({"done": ["n1"], "done_attributes": {"done": true}, "blocked_limit": 0}),
            10_000,
        ),
        (
            "network_get_neighbors",
            json!({"node_id": "n0", "include_edges": true}),
            10_000,
        ),
        ("network_list_nodes", json!({}), 1_000),
        ("network_list_edges", json!({"node_id": "n1"}), 1_000),
    ]
}

/// The algorithms toolset's paged calls: each page recomputes its answer up to
/// the page's end, so they get fewer cases.
fn algorithm_calls() -> Vec<(&'static str, Value, usize)> {
    vec![
        ("network_centrality", json!({"measure": "pagerank"}), 10_000),
        (
            "network_centrality",
            json!({"measure": "betweenness", "normalized": false}),
            10_000,
        ),
        (
            "network_communities",
            json!({"method": "louvain", "seed": 1}),
            10_000,
        ),
        ("network_communities", json!({"method": "strong"}), 10_000),
        (
            "network_paths",
            json!({"source": "n0", "target": "n1", "method": "all_simple", "max_depth": 3}),
            1_000,
        ),
        (
            "network_paths",
            json!({"source": "n0", "target": "n1", "method": "k_shortest"}),
            1_000,
        ),
        ("network_structure", json!({"method": "bridges"}), 10_000),
        (
            "network_structure",
            json!({"method": "articulation_points"}),
            10_000,
        ),
        (
            "network_structure",
            json!({"method": "dominators", "root": "n0"}),
            10_000,
        ),
        (
            "network_structure",
            json!({"method": "redundant_edges"}),
            10_000,
        ),
        ("network_search", json!({"query": "n1"}), 10_000),
        (
            "network_search",
            json!({"query": "n1", "mode": "fuzzy", "max_distance": 1}),
            10_000,
        ),
        ("network_diff", json!({"other": "h"}), 10_000),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_page_once_and_in_order(
        nodes in 1usize..30,
        raw_edges in prop::collection::vec((0usize..30, 0usize..30, 0u8..5), 0..90),
        acyclic in any::<bool>(),
        limit in 1usize..7,
    ) {
        let server = random_server(nodes, raw_edges, acyclic);
        every_call_pages_exactly(&server, calls(), limit)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn every_algorithm_page_once_and_in_order(
        nodes in 1usize..20,
        raw_edges in prop::collection::vec((0usize..20, 0usize..20, 0u8..5), 0..50),
        acyclic in any::<bool>(),
        limit in 2usize..7,
    ) {
        let server = random_server(nodes, raw_edges, acyclic);
        every_call_pages_exactly(&server, algorithm_calls(), limit)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// With a reply bound that holds only a few items, every page stops at the
    /// bytes, not at `limit`, and the pages still join into the unpaged answer.
    #[test]
    fn pages_cut_by_bytes_join_into_the_whole_answer(
        nodes in 3usize..20,
        raw_edges in prop::collection::vec((0usize..20, 0usize..20, 0u8..5), 0..50),
        acyclic in any::<bool>(),
        items in 1usize..6,
    ) {
        let edges: Vec<(usize, usize, u8)> = raw_edges
            .into_iter()
            .map(|(a, b, w)| (a % nodes, b % nodes, w))
            .filter(|&(a, b, _)| !acyclic || a < b)
            .collect();
        let whole = server_with(nodes, &edges);
        // Room for a few node ids ("n12", ~12 bytes on the wire) per page.
        let tiny = server_bounded(nodes, &edges, REPLY_ENVELOPE_BYTES + 60 + 40 * items);
        for (tool, extra, max) in calls().into_iter().chain(algorithm_calls()) {
            let mut args = json!({"network_name": "g"});
            args.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            let expected = paged(&whole, tool, &args, max);
            let got = paged(&tiny, tool, &args, max);
            // An item larger than the whole bound alone is cut (and marked): then,
            // and only then, the answers may differ.
            if got != expected && got.as_ref().is_ok_and(has_cut_item) {
                continue;
            }
            prop_assert_eq!(got, expected, "{} {} with a tiny reply bound", tool, args);
        }
    }
}

/// Whether a reply holds an item cut to fit the reply bound: a path marked
/// `cut`, or a group listing fewer members than its size.
fn has_cut_item(value: &Value) -> bool {
    match value {
        Value::Object(object) => {
            let listed = object
                .get("node_ids")
                .or_else(|| object.get("nodes"))
                .and_then(Value::as_array)
                .map(Vec::len);
            let short = matches!(
                (listed, object.get("size").and_then(Value::as_u64)),
                (Some(listed), Some(size)) if (listed as u64) < size
            );
            short || object.get("cut") == Some(&json!(true)) || object.values().any(has_cut_item)
        }
        Value::Array(items) => items.iter().any(has_cut_item),
        _ => false,
    }
}

/// A server whose network "g" has `nodes` nodes and the drawn edges (node
/// numbers wrapped into range); `acyclic` keeps only edges to higher numbers, so
/// that the order and the critical path can be paged too.
fn random_server(
    nodes: usize,
    raw_edges: Vec<(usize, usize, u8)>,
    acyclic: bool,
) -> NetworksServer {
    let edges: Vec<(usize, usize, u8)> = raw_edges
        .into_iter()
        .map(|(a, b, w)| (a % nodes, b % nodes, w))
        .filter(|&(a, b, _)| !acyclic || a < b)
        .collect();
    server_with(nodes.max(3), &edges)
}

/// Each of `calls` read in pages of `limit` equals it read whole.
fn every_call_pages_exactly(
    server: &NetworksServer,
    calls: Vec<(&'static str, Value, usize)>,
    limit: usize,
) -> Result<(), TestCaseError> {
    {
        for (tool, extra, max) in calls {
            let mut args = json!({"network_name": "g"});
            args.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            let whole = paged(server, tool, &args, max);
            let pages = paged(server, tool, &args, limit);
            prop_assert_eq!(pages, whole, "{} {} in pages of {}", tool, args, limit);
        }
    }
    Ok(())
}

#[test]
fn a_cursor_made_before_a_change_is_stale_and_one_for_another_call_is_refused() {
    let server = server_with(5, &[(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 4, 1)]);
    let first = call(
        &server,
        "network_descendants",
        json!({"network_name": "g", "node_id": "n0", "limit": 2}),
    )
    .unwrap();
    let cursor = first["next_cursor"].as_str().unwrap().to_string();
    assert!(
        first["more"].as_str().unwrap().contains("Items 1-2 of 4"),
        "{first}"
    );
    let other = call(
        &server,
        "network_descendants",
        json!({"network_name": "g", "node_id": "n1", "limit": 2, "cursor": cursor}),
    );
    assert_eq!(other.unwrap_err(), "invalid_value");
    let other_tool = call(
        &server,
        "network_ancestors",
        json!({"network_name": "g", "node_id": "n0", "limit": 2, "cursor": cursor}),
    );
    assert_eq!(other_tool.unwrap_err(), "invalid_value");
    // A larger page from the same cursor continues the same answer.
    let rest = call(
        &server,
        "network_descendants",
        json!({"network_name": "g", "node_id": "n0", "limit": 10, "cursor": cursor}),
    )
    .unwrap();
    assert_eq!(rest["nodes"].as_array().unwrap().len(), 2);
    call(
        &server,
        "network_update_node",
        json!({"network_name": "g", "node_id": "n4", "attributes": {"x": 1}}),
    )
    .unwrap();
    let Err(error) = server
        .dispatch(Call::new(
            "network_descendants",
            json!({"network_name": "g", "node_id": "n0", "limit": 2, "cursor": cursor}),
        ))
        .unwrap()
    else {
        panic!("a stale cursor is refused");
    };
    let object = error.to_object();
    assert_eq!(object["code"], "cursor_stale");
    assert_eq!(object["field"], "cursor");
    assert!(
        object["error"].as_str().unwrap().contains("without cursor"),
        "{object}"
    );
    for bad in ["12", "c1.zz", ""] {
        let refused = call(
            &server,
            "network_list_nodes",
            json!({"network_name": "g", "cursor": bad}),
        );
        assert_eq!(refused.unwrap_err(), "invalid_value", "{bad}");
    }
}

#[test]
fn a_group_cut_at_max_nodes_per_group_says_how_to_see_more() {
    let server = server_with(5, &[(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 4, 1), (4, 0, 1)]);
    let out = call(
        &server,
        "network_find_cycles",
        json!({"network_name": "g", "max_nodes_per_group": 2}),
    )
    .unwrap();
    let group = &out["groups"][0];
    assert_eq!(
        (&group["size"], &group["cycle_node_count"]),
        (&json!(5), &json!(5))
    );
    assert_eq!(group["node_ids"].as_array().unwrap().len(), 2);
    assert_eq!(out["truncated"], false, "one page holds the one group");
    assert!(
        out["more"]
            .as_str()
            .unwrap()
            .contains("raise max_nodes_per_group"),
        "{out}"
    );
}

/// Every paged tool, with arguments whose answer needs more than one page of 1.
fn first_pages() -> Vec<(&'static str, Value)> {
    vec![
        ("network_traverse", json!({"start_node_ids": ["n0"]})),
        ("network_descendants", json!({"node_id": "n0"})),
        ("network_ancestors", json!({"node_id": "n4"})),
        ("network_topological_sort", json!({})),
        ("network_critical_path", json!({})),
        ("network_ready_nodes", json!({})),
        ("network_get_neighbors", json!({"node_id": "n1"})),
        ("network_list_nodes", json!({})),
        ("network_list_edges", json!({})),
        ("network_centrality", json!({"measure": "pagerank"})),
        (
            "network_communities",
            json!({"method": "weak", "min_size": 1}),
        ),
        (
            "network_paths",
            json!({"source": "n0", "target": "n4", "method": "all_simple"}),
        ),
        (
            "network_structure",
            json!({"method": "dominators", "root": "n0"}),
        ),
        ("network_search", json!({"query": "n"})),
        ("network_diff", json!({"other": "h"})),
    ]
}

/// An edited cursor is refused, whichever character was changed: the cursor
/// carries a keyed tag over all of its text.
#[test]
fn a_cursor_edited_anywhere_is_invalid_value() {
    // A chain n0 -> n1 -> ... -> n4 with shortcuts, and n5 alone, so that
    // every list has 2+ items.
    let server = server_with(
        6,
        &[
            (0, 1, 1),
            (1, 2, 1),
            (2, 3, 1),
            (3, 4, 1),
            (0, 2, 1),
            (2, 4, 1),
        ],
    );
    for (tool, extra) in first_pages() {
        let mut args = json!({"network_name": "g", "limit": 1});
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let first = call(&server, tool, args.clone()).unwrap();
        let cursor = first["next_cursor"]
            .as_str()
            .unwrap_or_else(|| panic!("{tool}: a second page: {first}"))
            .to_string();
        args["cursor"] = json!(cursor);
        assert!(
            call(&server, tool, args.clone()).is_ok(),
            "{tool}: the cursor as made"
        );
        for (at, old) in cursor.char_indices() {
            // Another character of the same kind, so that the edit still parses.
            let new = match old {
                '.' => ',',
                '0'..='8' | 'a'..='e' => (old as u8 + 1) as char,
                _ => '0',
            };
            let mut edited = cursor.clone();
            edited.replace_range(at..at + 1, &new.to_string());
            args["cursor"] = json!(edited);
            assert_eq!(
                call(&server, tool, args.clone()).unwrap_err(),
                "invalid_value",
                "{tool}: {cursor} edited at {at} to {edited}"
            );
        }
    }
}
