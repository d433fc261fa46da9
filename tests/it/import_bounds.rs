//! Memory bounds on imports and copies: what one import may materialise
//! (`--max-import-memory`) and what all networks together may hold
//! (`--max-memory`). A refused call answers `limit_exceeded` and makes nothing.

use networks_mcp::limits::Limits;
use networks_mcp::mcp::NetworksServer;
use serde_json::{Value, json};

use crate::common::{dispatch, server_with};

/// The reported attack: a 1 MB GraphML document whose key has a 60 KB
/// `<default>`, given to 50,000 bare nodes (3 GB once copied onto each).
fn amplifying_graphml() -> String {
    let mut doc = format!(
        r#"<graphml><key id="k" for="node" attr.name="big" attr.type="string"><default>{}</default></key><graph>"#,
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
    for needle in ["graphml", "key 'big'", "<default>", "--max-import-memory"] {
        assert!(message.contains(needle), "{needle}: {message}");
    }
    assert_eq!(
        dispatch(&server, "network_list", json!({})).unwrap()["networks"],
        json!([]),
        "nothing was made"
    );
}

/// A node-link document of `nodes` nodes (`n0`, `n1`, …), each with a
/// 1,000-byte attribute.
fn padded_nodes(nodes: usize) -> String {
    padded_nodes_named("n", nodes)
}

fn padded_nodes_named(prefix: &str, nodes: usize) -> String {
    let pad = "p".repeat(1_000);
    let nodes: Vec<Value> = (0..nodes)
        .map(|i| json!({"id": format!("{prefix}{i}"), "pad": pad}))
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
