//! The cost of `network_changes` after 10,000 writes, and of recording them.
//!
//! A plan of `--tasks` tasks (default 2,000) in a chain, then `--writes` writes
//! (default 10,000, the default window) through the server's `dispatch` (no
//! transport): a third add a node and an edge, two thirds set a task's
//! `status` and `owner` (a change of attributes, recorded with its values
//! before and after). Then reads every change since the start, page by page at
//! `limit` 100 and 1000, through the tool and through the library's
//! `Network::changes_since`. Prints one JSON line per measurement, medians of
//! `--runs` runs in milliseconds, and the cost of recording: the same writes
//! through the library with the window on and off.
//!
//! ```text
//! cargo run --release --example bench_changes -- --writes 10000 --runs 20
//! ```

use std::sync::Arc;
use std::time::Instant;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions, Toolset};
use networks_mcp::network::{AttributeUpdate, ChangeWindow, MissingNodes, Network};
use serde_json::{Map, Value, json};

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn call(server: &NetworksServer, tool: &str, args: Value) -> Value {
    server
        .dispatch(Call::new(tool, args))
        .expect("a listed tool")
        .unwrap_or_else(|e| panic!("{tool}: {}", e.to_object()))
}

/// The library's writes: the same mix as through the tools.
fn library_writes(tasks: usize, writes: usize, window: ChangeWindow) -> (Network, f64) {
    let mut net = Network::new();
    net.set_change_window(window);
    let ids: Vec<String> = (0..tasks).map(|i| format!("t{i}")).collect();
    net.add_nodes(ids.iter().map(String::as_str)).unwrap();
    let start = Instant::now();
    for w in 0..writes {
        if w % 3 == 0 {
            let id = format!("n{w}");
            net.add_node(&id).unwrap();
            net.add_edge(&id, &ids[w % tasks], 1.0).unwrap();
        } else {
            let mut map = Map::new();
            map.insert("status".into(), json!(format!("s{w}")));
            map.insert("owner".into(), json!(format!("w{}", w % 16)));
            net.update_node(
                &ids[w % tasks],
                None,
                Some(map),
                AttributeUpdate::Merge,
                &[],
            )
            .unwrap();
        }
    }
    (net, start.elapsed().as_secs_f64() * 1e3)
}

fn main() {
    let tasks = arg("--tasks", 2_000);
    let writes = arg("--writes", 10_000);
    let runs = arg("--runs", 20);

    let server = NetworksServer::new(
        Arc::new(NetworkRegistry::new()),
        ServerOptions {
            toolsets: Toolset::ALL.into_iter().collect(),
            ..ServerOptions::default()
        },
    );
    call(&server, "network_create", json!({"network_name": "plan"}));
    let nodes: Vec<Value> = (0..tasks)
        .map(|i| json!({"node_id": format!("t{i}")}))
        .collect();
    call(
        &server,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": nodes}),
    );
    let edges: Vec<Value> = (1..tasks)
        .map(|i| json!({"source": format!("t{i}"), "target": format!("t{}", i - 1)}))
        .collect();
    let at = call(
        &server,
        "network_add_edges",
        json!({"network_name": "plan", "edges": edges}),
    )["version"]
        .as_u64()
        .unwrap();
    let start = Instant::now();
    let mut writes_done = 0;
    let mut w = 0;
    while writes_done < writes {
        if w % 3 == 0 {
            call(
                &server,
                "network_add_edges",
                json!({"network_name": "plan", "create_missing_nodes": true, "edges": [{"source": format!("n{w}"), "target": format!("t{}", w % tasks)}]}),
            );
            writes_done += 2;
        } else {
            call(
                &server,
                "network_update_node",
                json!({"network_name": "plan", "node_id": format!("t{}", w % tasks), "attributes": {"status": format!("s{w}"), "owner": format!("w{}", w % 16)}}),
            );
            writes_done += 1;
        }
        w += 1;
    }
    let write_ms = start.elapsed().as_secs_f64() * 1e3;
    let now = call(&server, "network_list", json!({}))["networks"][0]["version"]
        .as_u64()
        .unwrap();
    println!(
        "{}",
        json!({"measure": "writes through dispatch", "tool_calls": w, "versions": now - at, "ms": write_ms})
    );

    for limit in [100, 1000] {
        let mut pages = 0;
        let mut changes = 0;
        let times: Vec<f64> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                let mut args = json!({"network_name": "plan", "since_version": at, "limit": limit});
                (pages, changes) = (0, 0);
                loop {
                    let page = call(&server, "network_changes", args.clone());
                    pages += 1;
                    changes += page["changes"].as_array().unwrap().len();
                    match page.get("next_cursor") {
                        Some(cursor) => args["cursor"] = cursor.clone(),
                        None => break,
                    }
                }
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        let first: Vec<f64> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                call(
                    &server,
                    "network_changes",
                    json!({"network_name": "plan", "since_version": at, "limit": limit}),
                );
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        println!(
            "{}",
            json!({"measure": "network_changes, every page", "limit": limit, "pages": pages, "changes": changes, "ms": median(times), "first_page_ms": median(first)})
        );
    }

    let (net, on_ms) = library_writes(tasks, writes, ChangeWindow::DEFAULT);
    let since = tasks as u64;
    let times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let n = net.changes_since(since).iter().count();
            assert!(n > 0);
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    println!(
        "{}",
        json!({"measure": "Network::changes_since, every change", "changes": net.changes_since(since).len(), "ms": median(times)})
    );
    let (_, off_ms) = library_writes(tasks, writes, ChangeWindow::OFF);
    println!(
        "{}",
        json!({"measure": "library writes", "writes": writes, "window_on_ms": on_ms, "window_off_ms": off_ms})
    );

    // A bulk load: every node and edge is recorded, and all but the last
    // 10,000 leave the window at once.
    let bulk = |window: ChangeWindow| {
        let nodes = 100_000;
        let ids: Vec<String> = (0..nodes).map(|i| format!("n{i}")).collect();
        let edges: Vec<(&str, &str, f64)> = (0..1_000_000usize)
            .map(|i| {
                (
                    ids[i % nodes].as_str(),
                    ids[(i * 7 + 1) % nodes].as_str(),
                    1.0,
                )
            })
            .collect();
        let start = Instant::now();
        let mut net = Network::new();
        net.set_change_window(window);
        net.add_nodes(ids.iter().map(String::as_str)).unwrap();
        net.add_edges(edges, MissingNodes::Fail).unwrap();
        start.elapsed().as_secs_f64() * 1e3
    };
    let on: Vec<f64> = (0..5).map(|_| bulk(ChangeWindow::DEFAULT)).collect();
    let off: Vec<f64> = (0..5).map(|_| bulk(ChangeWindow::OFF)).collect();
    println!(
        "{}",
        json!({"measure": "bulk load, 100k nodes and 1M edges", "window_on_ms": median(on), "window_off_ms": median(off)})
    );
}
