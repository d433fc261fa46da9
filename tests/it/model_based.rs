//! Model-based test: random sequences of every mutating tool call, valid and
//! invalid, go through the MCP dispatch chokepoint and into a plain reference model
//! (`BTreeMap` + `Vec`). After every step the observable state must agree; with
//! durable storage it must also agree after a restart.

use std::collections::BTreeMap;
use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions};
use networks_mcp::network::Direction;
use networks_mcp::storage::{Storage, StorageConfig};
use proptest::prelude::*;
use serde_json::{Value, json};

#[derive(Debug, Clone, Default, PartialEq)]
struct ModelNet {
    nodes: Vec<String>,
    edges: Vec<(u64, String, String, f64)>,
    next_edge: u64,
}

type Model = BTreeMap<String, ModelNet>;

#[derive(Debug, Clone)]
enum Op {
    Create(String),
    Delete(String, bool),
    AddNode(String, String, bool),
    AddEdge(String, String, String, Option<f64>),
    AddNodes(String, Vec<String>),
    AddEdges(String, Vec<(String, String)>, bool),
    RemoveNode(String, String, bool),
    RemoveEdge(String, u64),
}

fn net() -> impl Strategy<Value = String> {
    prop_oneof![Just("a".to_string()), Just("b".to_string())]
}
fn id() -> impl Strategy<Value = String> {
    prop_oneof![9 => (0u8..5).prop_map(|i| format!("n{i}")), 1 => Just(String::new())]
}
fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => net().prop_map(Op::Create),
        1 => (net(), any::<bool>()).prop_map(|(n, c)| Op::Delete(n, c)),
        4 => (net(), id(), prop::bool::weighted(0.1)).prop_map(|(n, i, nested)| Op::AddNode(n, i, nested)),
        4 => (net(), id(), id(), prop::option::weighted(0.9, -3.0f64..3.0)).prop_map(|(n, s, t, w)| Op::AddEdge(n, s, t, w)),
        1 => (net(), prop::collection::vec(id(), 1..4)).prop_map(|(n, ids)| Op::AddNodes(n, ids)),
        2 => (net(), prop::collection::vec((id(), id()), 1..4), any::<bool>()).prop_map(|(n, e, c)| Op::AddEdges(n, e, c)),
        1 => (net(), id(), any::<bool>()).prop_map(|(n, i, c)| Op::RemoveNode(n, i, c)),
        1 => (net(), 0u64..12).prop_map(|(n, e)| Op::RemoveEdge(n, e)),
    ]
}

/// The tool call for an op, and what the model says should happen (`Some(new model)` on success).
fn step(model: &Model, op: &Op) -> (&'static str, Value, Option<Model>) {
    let mut next = model.clone();
    let valid = |i: &str| !i.is_empty();
    match op {
        Op::Create(n) => {
            next.entry(n.clone()).or_default();
            ("network_create", json!({"network_name": n}), Some(next))
        }
        Op::Delete(n, confirm) => {
            next.remove(n);
            (
                "network_delete",
                json!({"network_name": n, "confirm": confirm}),
                confirm.then_some(next),
            )
        }
        Op::AddNode(n, i, nested) => {
            let attributes = if *nested {
                json!({"x": {"y": 1}})
            } else {
                json!({"k": 1})
            };
            let args = json!({"network_name": n, "node_id": i, "attributes": attributes});
            let ok = match next.get_mut(n) {
                Some(m) if valid(i) && !nested => {
                    if !m.nodes.contains(i) {
                        m.nodes.push(i.clone());
                    }
                    true
                }
                _ => false,
            };
            ("network_add_node", args, ok.then_some(next))
        }
        Op::AddEdge(n, s, t, w) => {
            let args = match w {
                Some(w) => json!({"network_name": n, "source": s, "target": t, "weight": w}),
                None => json!({"network_name": n, "source": s, "target": t, "weight": "heavy"}),
            };
            let ok = match (next.get_mut(n), w) {
                (Some(m), Some(w)) if m.nodes.contains(s) && m.nodes.contains(t) => {
                    m.edges.push((m.next_edge, s.clone(), t.clone(), *w));
                    m.next_edge += 1;
                    true
                }
                _ => false,
            };
            ("network_add_edge", args, ok.then_some(next))
        }
        Op::AddNodes(n, ids) => {
            let args = json!({"network_name": n, "nodes": ids.iter().map(|i| json!({"node_id": i})).collect::<Vec<_>>()});
            let ok = match next.get_mut(n) {
                Some(m) if ids.iter().all(|i| valid(i)) => {
                    for i in ids {
                        if !m.nodes.contains(i) {
                            m.nodes.push(i.clone());
                        }
                    }
                    true
                }
                _ => false,
            };
            ("network_add_nodes", args, ok.then_some(next))
        }
        Op::AddEdges(n, pairs, create) => {
            let args = json!({"network_name": n, "create_missing_nodes": create,
                "edges": pairs.iter().map(|(s, t)| json!({"source": s, "target": t})).collect::<Vec<_>>()});
            let ok = match next.get_mut(n) {
                Some(m) if pairs.iter().all(|(s, t)| valid(s) && valid(t)) => {
                    let known = |i: &String, m: &ModelNet| m.nodes.contains(i);
                    if !create && !pairs.iter().all(|(s, t)| known(s, m) && known(t, m)) {
                        false
                    } else {
                        for (s, t) in pairs {
                            for i in [s, t] {
                                if !m.nodes.contains(i) {
                                    m.nodes.push(i.clone());
                                }
                            }
                        }
                        for (s, t) in pairs {
                            m.edges.push((m.next_edge, s.clone(), t.clone(), 1.0));
                            m.next_edge += 1;
                        }
                        true
                    }
                }
                _ => false,
            };
            ("network_add_edges", args, ok.then_some(next))
        }
        Op::RemoveNode(n, i, confirm) => {
            let args = json!({"network_name": n, "node_id": i, "confirm": confirm});
            let ok = match next.get_mut(n) {
                Some(m) if *confirm && m.nodes.contains(i) => {
                    m.nodes.retain(|x| x != i);
                    m.edges.retain(|(_, s, t, _)| s != i && t != i);
                    true
                }
                _ => false,
            };
            ("network_remove_node", args, ok.then_some(next))
        }
        Op::RemoveEdge(n, e) => {
            let args = json!({"network_name": n, "edge_id": e});
            let ok = match next.get_mut(n) {
                Some(m) if m.edges.iter().any(|x| x.0 == *e) => {
                    m.edges.retain(|x| x.0 != *e);
                    true
                }
                _ => false,
            };
            ("network_remove_edge", args, ok.then_some(next))
        }
    }
}

/// Checks that the registry shows exactly what the model holds.
fn agree(registry: &NetworkRegistry, model: &Model) -> Result<(), TestCaseError> {
    prop_assert_eq!(registry.names(), model.keys().cloned().collect::<Vec<_>>());
    for (name, m) in model {
        let shared = registry.get(name).unwrap();
        let net = shared.read();
        let mut nodes: Vec<String> = net.node_ids().map(str::to_string).collect();
        let mut expected_nodes = m.nodes.clone();
        nodes.sort();
        expected_nodes.sort();
        prop_assert_eq!(nodes, expected_nodes);
        let mut edges: Vec<(u64, String, String, f64)> = net
            .edges_of(None)
            .iter()
            .map(|e| (e.id, e.source.to_string(), e.target.to_string(), e.weight))
            .collect();
        edges.sort_by_key(|e| e.0);
        prop_assert_eq!(&edges, &m.edges);
        for node in &m.nodes {
            let mut expected: Vec<&str> = Vec::new();
            for (_, s, t, _) in &m.edges {
                if s == node && !expected.contains(&t.as_str()) {
                    expected.push(t);
                }
            }
            for (_, s, t, _) in &m.edges {
                if t == node && !expected.contains(&s.as_str()) {
                    expected.push(s);
                }
            }
            prop_assert_eq!(net.neighbors(node, Direction::Both).unwrap(), expected);
        }
    }
    Ok(())
}

fn run(ops: &[Op], durable: bool) -> Result<(), TestCaseError> {
    let dir = std::env::temp_dir().join(format!(
        "networks-mcp-model-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let open = || {
        let registry = Arc::new(NetworkRegistry::new());
        let server = NetworksServer::new(Arc::clone(&registry), ServerOptions::default());
        if !durable {
            return (registry, server);
        }
        let (storage, recovered) = Storage::open(StorageConfig {
            dir: dir.clone(),
            snapshot_every: 7,
            read_only: false,
        })
        .unwrap();
        server.recover(recovered).unwrap();
        (registry, server.with_storage(Arc::new(storage)))
    };
    let mut model = Model::new();
    let (mut registry, mut server) = open();
    for (i, op) in ops.iter().enumerate() {
        let (tool, args, expected) = step(&model, op);
        let result = server.dispatch(Call::new(tool, args.clone())).unwrap();
        prop_assert_eq!(
            result.is_ok(),
            expected.is_some(),
            "step {} {:?} {} -> {:?}",
            i,
            op,
            args,
            result
        );
        if let Some(next) = expected {
            model = next;
        }
        agree(&registry, &model)?;
        if durable && i % 5 == 4 {
            drop(server);
            drop(registry);
            (registry, server) = open();
            agree(&registry, &model)?;
        }
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn in_memory_state_matches_the_model(ops in prop::collection::vec(op(), 1..40)) {
        run(&ops, false)?;
    }

    #[test]
    fn durable_state_matches_the_model_across_restarts(ops in prop::collection::vec(op(), 1..30)) {
        run(&ops, true)?;
    }
}
