//! Later pages of a computed answer (a diff, a ranking, a partition, a search)
//! come from the answer the server kept for the first page, never from an answer
//! about another state of the networks; an evicted answer is computed again, with
//! the same pages; what is kept stays within its bounds.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions, Toolset};
use networks_mcp::network::{Network, NodeSpec};
use serde_json::{Value, json};

/// A server offering the algorithms, with networks "a" and "b": 300 nodes in
/// a ring with chords; "b" lacks some nodes, adds others and changes some
/// attributes and edges.
fn server() -> NetworksServer {
    let registry = Arc::new(NetworkRegistry::new());
    for (name, shift) in [("a", 0usize), ("b", 1)] {
        let mut net = Network::named(name);
        for i in 0..300usize {
            if shift == 1 && i % 37 == 0 {
                continue;
            }
            let group = if shift == 1 && i % 23 == 0 {
                "moved"
            } else {
                "kept"
            };
            net.add_node_with(
                NodeSpec::new(format!("n{i}"))
                    .with_attribute("group", group)
                    .with_attribute("title", format!("task number {i}")),
            )
            .unwrap();
        }
        if shift == 1 {
            for i in 300..310 {
                net.add_node(&format!("n{i}")).unwrap();
            }
        }
        for i in 0..300usize {
            for step in [1, 7 + shift * (i % 2)] {
                let (s, t) = (format!("n{i}"), format!("n{}", (i + step) % 300));
                if net.index_of(&s).is_some() && net.index_of(&t).is_some() {
                    net.add_edge(&s, &t, 1.0 + (i % 3) as f64).unwrap();
                }
            }
        }
        registry.insert(name, net).unwrap();
    }
    NetworksServer::new(
        registry,
        ServerOptions {
            toolsets: Toolset::ALL.into_iter().collect(),
            ..ServerOptions::default()
        },
    )
}

fn call(server: &NetworksServer, tool: &str, args: Value) -> Result<Value, String> {
    server
        .dispatch(Call::new(tool, args))
        .expect("offered")
        .map_err(|e| e.code().to_string())
}

/// The lists of a page, by field, and its next cursor.
fn page(server: &NetworksServer, tool: &str, args: &Value) -> (Value, Option<String>) {
    let out = call(server, tool, args.clone()).unwrap();
    let next = out["next_cursor"].as_str().map(String::from);
    (out, next)
}

/// Every page of `tool(args)` at `limit`, joined list by list, and how many
/// answers the server computed meanwhile.
fn all_pages(
    server: &NetworksServer,
    tool: &str,
    args: &Value,
    lists: &[&str],
    limit: usize,
) -> (Vec<Vec<Value>>, u64) {
    let before = server.answers_computed();
    let mut joined = vec![Vec::new(); lists.len()];
    let mut args = args.clone();
    args["limit"] = json!(limit);
    loop {
        let (out, next) = page(server, tool, &args);
        for (list, field) in joined.iter_mut().zip(lists) {
            list.extend(out[*field].as_array().unwrap().iter().cloned());
        }
        match next {
            Some(cursor) => args["cursor"] = json!(cursor),
            None => break,
        }
    }
    (joined, server.answers_computed() - before)
}

const DIFF_LISTS: &[&str] = &[
    "removed_node_ids",
    "added_node_ids",
    "changed_nodes",
    "removed_edges",
    "added_edges",
];

#[test]
fn later_pages_are_read_from_the_answer_kept_for_the_first() {
    let cases: [(&str, Value, &[&str]); 6] = [
        (
            "network_diff",
            json!({"network_name": "a", "other": "b"}),
            DIFF_LISTS,
        ),
        (
            "network_centrality",
            json!({"network_name": "a", "measure": "pagerank"}),
            &["scores"],
        ),
        (
            "network_communities",
            json!({"network_name": "a", "method": "louvain"}),
            &["groups"],
        ),
        (
            "network_communities",
            json!({"network_name": "b", "method": "weak", "min_size": 1}),
            &["groups"],
        ),
        (
            "network_search",
            json!({"network_name": "b", "query": "task numbr", "mode": "fuzzy"}),
            &["matches"],
        ),
        (
            "network_query",
            json!({"network_name": "b", "query": "MATCH (n)-->(m) RETURN n.id, m.id"}),
            &["rows"],
        ),
    ];
    for (tool, args, lists) in cases {
        let paging = server();
        let (paged, computed) = all_pages(&paging, tool, &args, lists, 7);
        assert_eq!(computed, 1, "{tool}: one computation for every page");
        assert!(
            paged.iter().map(Vec::len).sum::<usize>() > 7,
            "{tool}: more than one page"
        );
        // A fresh server computes the whole answer in one page: the same.
        let (whole, _) = all_pages(&server(), tool, &args, lists, 10_000);
        assert_eq!(
            without_members_pages(paged),
            without_members_pages(whole),
            "{tool}: the pages join into the whole answer"
        );
    }
}

#[test]
fn a_change_between_pages_is_never_answered_from_the_old_state() {
    let server = server();
    let args = json!({"network_name": "a", "other": "b", "limit": 5});
    let (first, next) = page(&server, "network_diff", &args);
    let next = next.unwrap();
    assert_eq!(server.answers_computed(), 1);
    // "b" changes: the cursor of the old state is refused, as before (b's
    // state is part of a diff's question, so the cursor is another call's).
    call(
        &server,
        "network_add_node",
        json!({"network_name": "b", "node_id": "late"}),
    )
    .unwrap();
    let mut again = args.clone();
    again["cursor"] = json!(next);
    assert_eq!(
        call(&server, "network_diff", again).unwrap_err(),
        "invalid_value"
    );
    // The first page again is computed on the new state, which it shows.
    let (fresh, _) = page(&server, "network_diff", &args);
    assert_eq!(server.answers_computed(), 2);
    assert_eq!(
        fresh["counts"]["added_node_count"],
        json!(first["counts"]["added_node_count"].as_u64().unwrap() + 1)
    );
    // The answer about the old state was dropped when the new one was kept.
    assert_eq!(server.answers_held().1, 1);
    // A change of "a", the other side, likewise; its cursor is stale.
    let (_, next) = page(&server, "network_diff", &args);
    assert_eq!(server.answers_computed(), 2, "the kept answer");
    call(
        &server,
        "network_add_node",
        json!({"network_name": "a", "node_id": "late_too"}),
    )
    .unwrap();
    let mut again = args.clone();
    again["cursor"] = json!(next.unwrap());
    assert_eq!(
        call(&server, "network_diff", again).unwrap_err(),
        "cursor_stale"
    );
    let (after, _) = page(&server, "network_diff", &args);
    assert_eq!(server.answers_computed(), 3);
    assert_eq!(
        after["counts"]["removed_node_count"],
        json!(first["counts"]["removed_node_count"].as_u64().unwrap() + 1)
    );
}

#[test]
fn an_evicted_answer_is_computed_again_and_what_is_kept_stays_bounded() {
    let server = server();
    let question = |damping: f64| json!({"network_name": "a", "measure": "pagerank", "damping": damping, "limit": 10});
    let (first, next) = page(&server, "network_centrality", &question(0.5));
    // More questions than the cache keeps answers: the first is evicted.
    for i in 1..=40 {
        page(
            &server,
            "network_centrality",
            &question(0.5 + i as f64 / 100.0),
        );
        let (bytes, entries) = server.answers_held();
        assert!(entries <= 32, "{entries} answers kept");
        assert!(bytes <= 64 << 20, "{bytes} bytes kept");
    }
    let computed = server.answers_computed();
    assert_eq!(computed, 41);
    let mut args = question(0.5);
    args["cursor"] = json!(next.unwrap());
    let (second, _) = page(&server, "network_centrality", &args);
    assert_eq!(server.answers_computed(), computed + 1, "computed again");
    // The same scores as an unpaged answer's second ten.
    let mut whole = question(0.5);
    whole["limit"] = json!(20);
    let (whole, _) = page(&server, "network_centrality", &whole);
    let whole = whole["scores"].as_array().unwrap();
    assert_eq!(first["scores"].as_array().unwrap()[..], whole[..10]);
    assert_eq!(second["scores"].as_array().unwrap()[..], whole[10..]);
}

#[test]
fn redundant_edges_and_bridges_are_kept_too() {
    // A DAG with shortcuts (i -> i+2 is implied by i -> i+1 -> i+2) and a tail
    // of bridges.
    let with_dag = || {
        let server = server();
        let mut net = Network::named("dag");
        for i in 0..60 {
            net.add_node(&format!("d{i}")).unwrap();
        }
        for i in 0..59usize {
            let reach = if i < 40 { 3 } else { 1 };
            for j in i + 1..(i + 1 + reach).min(60) {
                net.add_edge(&format!("d{i}"), &format!("d{j}"), 1.0)
                    .unwrap();
            }
        }
        server.registry().insert("dag", net).unwrap();
        server
    };
    for method in ["redundant_edges", "bridges"] {
        let paging = with_dag();
        let args = json!({"network_name": "dag", "method": method});
        let (paged, computed) = all_pages(&paging, "network_structure", &args, &["edges"], 3);
        let (whole, _) = all_pages(&with_dag(), "network_structure", &args, &["edges"], 10_000);
        assert!(paged[0].len() > 3, "{method}: more than one page");
        assert_eq!(paged, whole, "{method}");
        assert_eq!(computed, 1, "{method}: one computation for every page");
    }
}

/// The items with each group's `members_page` left out: an opaque cursor that
/// names the page it was cut from, so its bytes differ between page sizes even
/// where the members it leads to are the same.
fn without_members_pages(lists: Vec<Vec<Value>>) -> Vec<Vec<Value>> {
    lists
        .into_iter()
        .map(|items| {
            items
                .into_iter()
                .map(|mut item| {
                    if let Some(object) = item.as_object_mut() {
                        object.remove("members_page");
                    }
                    item
                })
                .collect()
        })
        .collect()
}
