//! Many writers and readers at once, on the same and on different networks: nothing
//! is lost, and no reader sees half a batch.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions};
use serde_json::json;

#[test]
fn eight_writers_and_four_readers_lose_nothing() {
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
    for name in ["shared", "w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7"] {
        server
            .dispatch(Call::new("network_create", json!({"network_name": name})))
            .unwrap()
            .unwrap();
    }
    const ROUNDS: usize = 300;
    let done = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        for w in 0..8 {
            let server = server.clone();
            scope.spawn(move || {
                for r in 0..ROUNDS {
                    // A batch of 10 edges with 2 new nodes each time, on the shared network.
                    let edges: Vec<_> = (0..10)
                        .map(|k| json!({"source": format!("w{w}-r{r}-a"), "target": format!("w{w}-r{r}-b"), "weight": k}))
                        .collect();
                    let out = server
                        .dispatch(Call::new("network_add_edges", json!({"network_name": "shared", "edges": edges, "create_missing_nodes": true})))
                        .unwrap()
                        .unwrap();
                    assert_eq!(out["created_count"], 10);
                    // Single calls on the writer's own network.
                    server.dispatch(Call::new("network_add_node", json!({"network_name": format!("w{w}"), "node_id": format!("n{r}")}))).unwrap().unwrap();
                    if r > 0 {
                        server
                            .dispatch(Call::new("network_add_edge", json!({"network_name": format!("w{w}"), "source": format!("n{}", r - 1), "target": format!("n{r}")})))
                            .unwrap()
                            .unwrap();
                    }
                }
            });
        }
        for _ in 0..4 {
            let server = server.clone();
            let done = Arc::clone(&done);
            scope.spawn(move || {
                let mut reads = 0;
                while !done.load(Ordering::Relaxed) || reads < 50 {
                    let d = server
                        .dispatch(Call::new(
                            "network_describe",
                            json!({"network_name": "shared"}),
                        ))
                        .unwrap()
                        .unwrap();
                    // Batches are atomic: every batch brings 2 nodes and 10 edges together.
                    let (nodes, edges) = (
                        d["node_count"].as_u64().unwrap(),
                        d["edge_count"].as_u64().unwrap(),
                    );
                    assert_eq!(
                        nodes * 5,
                        edges,
                        "a reader saw half a batch: {nodes} nodes, {edges} edges"
                    );
                    reads += 1;
                }
            });
        }
        // Signal the readers once the writers are done (the scope joins writers first only at its end,
        // so poll the shared network's size).
        let server = server.clone();
        let done = Arc::clone(&done);
        scope.spawn(move || {
            loop {
                let d = server
                    .dispatch(Call::new(
                        "network_describe",
                        json!({"network_name": "shared"}),
                    ))
                    .unwrap()
                    .unwrap();
                if d["edge_count"].as_u64().unwrap() == (8 * ROUNDS * 10) as u64 {
                    break;
                }
                std::thread::yield_now();
            }
            done.store(true, Ordering::Relaxed);
        });
    });
    let registry = server.registry();
    let shared = registry.get("shared").unwrap();
    assert_eq!(shared.read().node_count(), 8 * ROUNDS * 2);
    assert_eq!(shared.read().edge_count(), 8 * ROUNDS * 10);
    for w in 0..8 {
        let net = registry.get(&format!("w{w}")).unwrap();
        assert_eq!(
            (net.read().node_count(), net.read().edge_count()),
            (ROUNDS, ROUNDS - 1)
        );
    }
}
