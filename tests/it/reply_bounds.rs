//! `--max-reply-bytes`: every reply fits the bound, as sent. A page stops at the
//! bound and its cursor continues there; an item larger than the bound alone (one
//! long path) is cut and marked; a read that still would not fit is refused with
//! `limit_exceeded`.

use networks_mcp::limits::{Limits, MIN_REPLY_BYTES};
use networks_mcp::mcp::ServerOptions;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

use crate::common::{self, Client};

/// The smallest bound the flag accepts: the examples below are far past it.
const BOUND: usize = MIN_REPLY_BYTES;

async fn bounded(max_reply_bytes: usize) -> Client {
    let options = ServerOptions {
        limits: Limits {
            max_reply_bytes,
            ..Limits::default()
        },
        ..common::every_toolset()
    };
    common::connect(options).await.0
}

/// A 250-byte node id.
fn long_id(name: &str) -> String {
    format!("{name}-{}", "x".repeat(250 - name.len() - 1))
}

/// Calls `tool` and checks that the reply, as the client received it, fits the
/// bound (the JSON-RPC envelope around `result` is well under 100 bytes).
async fn call_within(client: &Client, tool: &str, args: Value, bound: usize) -> Value {
    let Value::Object(map) = args else {
        panic!("arguments are an object")
    };
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
        .await
        .expect("tools/call");
    let bytes = serde_json::to_string(&result).unwrap().len() + 100;
    assert!(
        bytes <= bound,
        "{tool}: a reply of {bytes} bytes, bound {bound}"
    );
    assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
    result.structured_content.expect("structuredContent")
}

async fn add_edges(client: &Client, network: &str, edges: Vec<(String, String)>) {
    common::ok(client, "network_create", json!({"network_name": network})).await;
    let edges: Vec<Value> = edges
        .into_iter()
        .map(|(source, target)| json!({"source": source, "target": target}))
        .collect();
    common::ok(
        client,
        "network_add_edges",
        json!({"network_name": network, "create_missing_nodes": true, "edges": edges}),
    )
    .await;
}

/// Every path of `args`, page after page, each page within `bound`.
async fn all_pages(client: &Client, args: Value, bound: usize) -> (Vec<Value>, usize) {
    let mut args = args;
    let mut paths = Vec::new();
    let mut pages = 0;
    loop {
        let page = call_within(client, "network_paths", args.clone(), bound).await;
        pages += 1;
        paths.extend(page["paths"].as_array().unwrap().iter().cloned());
        match page.get("next_cursor").and_then(Value::as_str) {
            Some(cursor) => args["cursor"] = json!(cursor),
            None => return (paths, pages),
        }
        assert!(pages < 1_000, "paging does not end");
    }
}

#[tokio::test]
async fn all_simple_paths_with_long_ids_page_within_the_bound_and_join_whole() {
    // s, six layers of three nodes each joined completely, t: 3^6 = 729 paths
    // of 8 nodes of 250 bytes, about 3 MB as one page of limit 1000.
    let mut edges = Vec::new();
    let layer = |k: usize| (0..3).map(move |i| long_id(&format!("l{k}n{i}")));
    edges.extend(layer(1).map(|n| (long_id("s"), n)));
    for k in 1..6 {
        for a in layer(k) {
            edges.extend(layer(k + 1).map(|b| (a.clone(), b)));
        }
    }
    edges.extend(layer(6).map(|n| (n, long_id("t"))));
    let args = json!({
        "network_name": "g", "source": long_id("s"), "target": long_id("t"),
        "method": "all_simple", "max_depth": 10, "limit": 1000,
    });
    let tight = bounded(BOUND).await;
    add_edges(&tight, "g", edges.clone()).await;
    let first = call_within(&tight, "network_paths", args.clone(), BOUND).await;
    assert!(
        first["more"]
            .as_str()
            .unwrap()
            .contains("--max-reply-bytes"),
        "the page says it stopped at the bound: {}",
        first["more"]
    );
    let (paths, pages) = all_pages(&tight, args.clone(), BOUND).await;
    assert_eq!(paths.len(), 729);
    assert!(pages > 10, "{pages} pages");
    let roomy = bounded(Limits::default().max_reply_bytes).await;
    add_edges(&roomy, "g", edges).await;
    let (whole, pages) = all_pages(&roomy, args, Limits::default().max_reply_bytes).await;
    assert_eq!(pages, 1);
    assert_eq!(paths, whole, "the pages join into the unpaged answer");
}

#[tokio::test]
async fn a_path_longer_than_the_bound_is_cut_and_marked() {
    // A chain of 1,000 nodes of 250 bytes (about 500 KB a path on the wire),
    // with a shortcut, so that there are two paths.
    let ids: Vec<String> = (0..1000).map(|i| long_id(&format!("c{i}"))).collect();
    let mut edges: Vec<(String, String)> = ids
        .windows(2)
        .map(|w| (w[0].clone(), w[1].clone()))
        .collect();
    edges.push((ids[0].clone(), ids[2].clone()));
    let client = bounded(BOUND).await;
    add_edges(&client, "chain", edges).await;
    let args = json!({
        "network_name": "chain", "source": ids[0], "target": ids[999],
        "method": "k_shortest", "weighted": false, "limit": 5,
    });
    let first = call_within(&client, "network_paths", args.clone(), BOUND).await;
    let path = &first["paths"][0];
    assert_eq!(path["cut"], true, "{path}");
    assert_eq!(path["hops"], 998, "hops counts the whole path");
    let listed = path["node_ids"].as_array().unwrap();
    assert!(!listed.is_empty() && listed.len() < 999);
    assert_eq!(listed[0], json!(ids[0]), "the front of the path is kept");
    assert!(first["more"].as_str().unwrap().contains("cut"), "{first}");
    // The cursor continues with the second path, cut too.
    let mut next = args.clone();
    next["cursor"] = first["next_cursor"].clone();
    let second = call_within(&client, "network_paths", next, BOUND).await;
    assert_eq!(second["paths"][0]["hops"], 999);
    assert_eq!(second["paths"][0]["cut"], true);
    assert_eq!(second["truncated"], false);
    // The single shortest path is cut the same way.
    let shortest = call_within(
        &client,
        "network_shortest_path",
        json!({"network_name": "chain", "source": ids[0], "target": ids[999]}),
        BOUND,
    )
    .await;
    assert_eq!(shortest["cut"], true);
    assert_eq!(shortest["hops"], 998);
    let listed = shortest["node_ids"].as_array().unwrap().len();
    assert!(listed < 999, "{listed}");
    assert_eq!(shortest["edge_ids"].as_array().unwrap().len(), listed);
}

#[tokio::test]
async fn a_read_still_over_the_bound_is_refused_with_what_to_do() {
    let ids: Vec<String> = (0..400).map(|i| long_id(&format!("e{i}"))).collect();
    let edges: Vec<(String, String)> = ids
        .windows(2)
        .map(|w| (w[0].clone(), w[1].clone()))
        .collect();
    let client = bounded(BOUND).await;
    add_edges(&client, "big", edges).await;
    let error = common::err(
        &client,
        "network_export",
        json!({"network_name": "big", "format": "node_link_json", "limit": 400}),
        "limit_exceeded",
    )
    .await;
    let message = error["error"].as_str().unwrap();
    assert!(message.contains("--max-reply-bytes"), "{message}");
    assert!(message.contains("network_copy"), "{message}");
}
