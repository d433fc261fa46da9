//! Invariants of the graph core, checked on random operation sequences.

use std::collections::BTreeSet;

use networks_mcp::Error;
use networks_mcp::network::{
    AddNodeOutcome, Direction, EdgeSpec, MissingNodes, Network, NodeSpec, validate,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn small_id() -> impl Strategy<Value = String> {
    (0u8..8).prop_map(|i| format!("n{i}"))
}

#[derive(Debug, Clone)]
enum Op {
    AddNode(String, i64),
    AddEdge(String, String, f64),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (small_id(), any::<i64>()).prop_map(|(id, v)| Op::AddNode(id, v)),
        (small_id(), small_id(), -5.0f64..5.0).prop_map(|(a, b, w)| Op::AddEdge(a, b, w)),
    ]
}

proptest! {
    /// `add_nodes` gives what a loop of `add_node_with` gives, item by item, for
    /// batches longer than its lookahead window, with repeats near and far apart,
    /// ids long enough to live on the heap, and ids already in the network; and a
    /// batch with one bad item (anywhere) changes nothing and names that item.
    #[test]
    fn add_nodes_is_a_loop_of_add_node(
        existing in prop::collection::vec(0u16..40, 0..20),
        batch in prop::collection::vec((0u16..40, any::<bool>(), any::<i8>()), 0..120),
        bad in prop::option::of(any::<prop::sample::Index>()),
    ) {
        let id = |k: u16| if k.is_multiple_of(3) { format!("node-{k}-{}", "x".repeat(30)) } else { format!("n{k}") };
        let mut net = Network::new();
        net.add_nodes(existing.iter().map(|&k| id(k))).unwrap();
        let specs: Vec<NodeSpec> = batch
            .iter()
            .map(|&(k, spec, v)| {
                let node = NodeSpec::new(id(k));
                if spec { node.with_data(json!(v)).with_attribute("v", v) } else { node }
            })
            .collect();
        let mut expected = net.clone();
        let outcomes: Vec<AddNodeOutcome> =
            specs.iter().map(|s| expected.add_node_with(s.clone()).unwrap()).collect();
        if let Some(at) = bad.filter(|_| !specs.is_empty()) {
            let at = at.index(specs.len());
            let mut broken = specs.clone();
            broken[at] = NodeSpec::new(id(batch[at].0)).with_attribute("nested", json!([1]));
            let before = net.to_data();
            match net.add_nodes(broken).unwrap_err() {
                Error::InvalidBatchItem { index, .. } => prop_assert_eq!(index, at),
                other => prop_assert!(false, "not a batch error: {other:?}"),
            }
            prop_assert_eq!(net.to_data(), before);
        }
        prop_assert_eq!(net.add_nodes(specs).unwrap(), outcomes);
        prop_assert_eq!(net.to_data(), expected.to_data());
        for node in expected.node_ids() {
            prop_assert!(net.contains_node(node));
        }
    }

    /// add_node is idempotent under any sequence: the first payload stays, counts match the id set.
    #[test]
    fn add_node_is_idempotent(ops in prop::collection::vec(op(), 0..60)) {
        let mut net = Network::new();
        let mut first_payload: std::collections::HashMap<String, i64> = Default::default();
        for op in &ops {
            if let Op::AddNode(id, v) = op {
                let outcome = net.add_node_with(NodeSpec { id: id.into(), data: Some(json!(v)), attributes: Map::new() }).unwrap();
                let expected = if first_payload.contains_key(id) { AddNodeOutcome::Duplicate } else { AddNodeOutcome::Added };
                prop_assert_eq!(outcome, expected);
                first_payload.entry(id.clone()).or_insert(*v);
            }
        }
        prop_assert_eq!(net.node_count(), first_payload.len());
        for (id, v) in &first_payload {
            prop_assert_eq!(net.node(id).unwrap().data.as_deref().cloned(), Some(json!(v)));
        }
    }

    /// Each successful add_edge raises the edge count by exactly one; a failed one changes nothing.
    /// Neighbors equal the in ∪ out endpoint set computed independently, in the documented order.
    #[test]
    fn edges_and_neighbors(ops in prop::collection::vec(op(), 0..80)) {
        let mut net = Network::new();
        let mut edges: Vec<(String, String, f64)> = Vec::new();
        for op in &ops {
            match op {
                Op::AddNode(id, _) => { net.add_node(id).unwrap(); }
                Op::AddEdge(a, b, w) => {
                    let before = net.edge_count();
                    match net.add_edge(a, b, *w) {
                        Ok(id) => {
                            prop_assert_eq!(net.edge_count(), before + 1);
                            let e = net.edge(id).unwrap();
                            prop_assert_eq!((e.source, e.target, e.weight), (a.as_str(), b.as_str(), *w));
                            edges.push((a.clone(), b.clone(), *w));
                        }
                        Err(Error::NodeNotFound { .. }) => {
                            prop_assert!(!net.contains_node(a) || !net.contains_node(b));
                            prop_assert_eq!(net.edge_count(), before);
                        }
                        Err(other) => prop_assert!(false, "unexpected {other:?}"),
                    }
                }
            }
        }
        let ids: Vec<String> = net.node_ids().map(str::to_string).collect();
        for id in &ids {
            // Independent oracle: walk the edge log in insertion order.
            let mut expected_out: Vec<&str> = Vec::new();
            let mut expected_in: Vec<&str> = Vec::new();
            for (a, b, _) in &edges {
                if a == id && !expected_out.contains(&b.as_str()) { expected_out.push(b); }
                if b == id && !expected_in.contains(&a.as_str()) { expected_in.push(a); }
            }
            let mut expected_both = expected_out.clone();
            for n in &expected_in { if !expected_both.contains(n) { expected_both.push(n); } }
            prop_assert_eq!(net.neighbors(id, Direction::Out).unwrap(), expected_out);
            prop_assert_eq!(net.neighbors(id, Direction::In).unwrap(), expected_in);
            let both = net.neighbors(id, Direction::Both).unwrap();
            let set: BTreeSet<&str> = both.iter().copied().collect();
            prop_assert_eq!(set.len(), both.len(), "deduplicated");
            prop_assert_eq!(both, expected_both);
        }
    }

    /// Validation accepts exactly the ids that follow the rules.
    #[test]
    fn id_validation_matches_the_rules(id in "\\PC{0,5}|[ \\t\\n\\x00-\\x1f]{1,3}|a{250,260}") {
        let should_pass = !id.is_empty()
            && !id.trim().is_empty()
            && id.len() <= validate::MAX_ID_BYTES
            && !id.chars().any(char::is_control);
        prop_assert_eq!(validate::id("node_id", &id).is_ok(), should_pass);
        let mut net = Network::new();
        prop_assert_eq!(net.add_node(&id).is_ok(), should_pass);
        prop_assert_eq!(net.node_count(), usize::from(should_pass));
    }

    /// Attributes pass exactly when every value is a scalar.
    #[test]
    fn attribute_validation_matches_the_rules(values in prop::collection::vec(prop_oneof![
        Just(json!(1)), Just(json!("s")), Just(json!(true)), Just(Value::Null), Just(json!(1.5)),
        Just(json!({"x": 1})), Just(json!([1, 2])),
    ], 0..5)) {
        let map: Map<String, Value> = values.iter().enumerate().map(|(i, v)| (format!("k{i}"), v.clone())).collect();
        let flat = values.iter().all(|v| !v.is_object() && !v.is_array());
        prop_assert_eq!(validate::attributes("attributes", &map).is_ok(), flat);
    }

    /// Weights pass exactly when finite.
    #[test]
    fn weight_validation(w in prop_oneof![any::<f64>(), Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY)]) {
        prop_assert_eq!(validate::weight(w).is_ok(), w.is_finite());
    }
}

#[test]
fn batch_with_one_bad_item_changes_nothing() {
    let mut net = Network::new();
    net.add_node("a").unwrap();
    let mut nodes: Vec<NodeSpec> = (0..10_000)
        .map(|i| NodeSpec {
            id: format!("n{i}"),
            data: None,
            attributes: Map::new(),
        })
        .collect();
    nodes[7_777].id = String::new();
    match net.add_nodes(nodes) {
        Err(Error::InvalidBatchItem { index, .. }) => assert_eq!(index, 7_777),
        other => panic!("expected a batch error, got {other:?}"),
    }
    assert_eq!(net.node_count(), 1);

    let mut edges: Vec<EdgeSpec> = (0..10_000)
        .map(|_| EdgeSpec {
            source: "a".into(),
            target: "a".into(),
            weight: 1.0,
            attributes: Map::new(),
        })
        .collect();
    edges[9_999].weight = f64::NAN;
    assert!(matches!(
        net.add_edges(edges.clone(), MissingNodes::Create),
        Err(Error::InvalidBatchItem { index: 9_999, .. })
    ));
    edges[9_999].weight = 2.0;
    edges[5].target = "ghost".into();
    assert!(matches!(
        net.add_edges(edges.clone(), MissingNodes::Fail),
        Err(Error::InvalidBatchItem { index: 5, .. })
    ));
    assert_eq!((net.node_count(), net.edge_count()), (1, 0));

    let outcome = net.add_edges(edges, MissingNodes::Create).unwrap();
    assert_eq!(outcome.created_nodes, vec!["ghost".to_string()]);
    assert_eq!(net.edge_count(), 10_000);
}

#[test]
fn remove_node_takes_its_edges_and_edge_ids_are_never_reused() {
    let mut net = Network::new();
    for id in ["a", "b", "c"] {
        net.add_node(id).unwrap();
    }
    let e1 = net.add_edge("a", "b", 1.0).unwrap();
    let e2 = net.add_edge("b", "c", 1.0).unwrap();
    net.add_edge("b", "b", 1.0).unwrap();
    assert_eq!(net.remove_node("b").unwrap(), 3);
    assert!(net.edge(e1).is_none() && net.edge(e2).is_none());
    assert_eq!(net.edge_count(), 0);
    net.add_node("b").unwrap();
    let e4 = net.add_edge("a", "b", 1.0).unwrap();
    assert!(e4 > e2);
    assert_eq!(net.neighbors("a", Direction::Both).unwrap(), ["b"]);
}

/// `add_edge`, `add_edge_with` and `add_edges` report the first fault in one
/// fixed order (each id's form, the weight, the attributes, then each id's
/// node; a batch checks an item's nodes before its attributes), whatever else
/// is wrong, and a refused edge changes nothing: every combination of an
/// endpoint that is a node, is not, or is no valid id, with a good or bad
/// weight and good or bad attributes.
#[test]
fn edge_errors_come_in_one_order_whatever_else_is_wrong() {
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum End {
        Node,
        Unknown,
        Invalid,
    }
    let spell = |end: End, node: &str| match end {
        End::Node => node.to_string(),
        End::Unknown => format!("{node}-missing"),
        End::Invalid => format!("{node}\u{7}"),
    };
    let ends = [End::Node, End::Unknown, End::Invalid];
    let mut net = Network::new();
    net.add_node("compile").unwrap();
    net.add_node("link").unwrap();
    let mut edges = 0;
    for source in ends {
        for target in ends {
            for weight in [1.5, f64::NAN] {
                for nested in [false, true] {
                    let attributes: Map<String, Value> = if nested {
                        [("owner".to_string(), json!({"team": "ci"}))]
                            .into_iter()
                            .collect()
                    } else {
                        [("owner".to_string(), json!("ci"))].into_iter().collect()
                    };
                    // `add_edge` takes no attributes: it skips their check.
                    let first_fault = |attributes_checked: bool| {
                        if source == End::Invalid {
                            Some(("invalid_id", "source"))
                        } else if target == End::Invalid {
                            Some(("invalid_id", "target"))
                        } else if weight.is_nan() {
                            Some(("invalid_weight", "weight"))
                        } else if nested && attributes_checked {
                            Some(("invalid_attributes", "attributes"))
                        } else if source == End::Unknown {
                            Some(("node_not_found", "source"))
                        } else if target == End::Unknown {
                            Some(("node_not_found", "target"))
                        } else {
                            None
                        }
                    };
                    // A batch checks an item's nodes before its attributes.
                    let first_fault_in_batch = || match first_fault(false) {
                        None if nested => Some(("invalid_attributes", "attributes")),
                        fault => fault,
                    };
                    let (a, b) = (spell(source, "link"), spell(target, "compile"));
                    let case = format!("{source:?} → {target:?}, weight {weight}, nested {nested}");
                    let spec = EdgeSpec::new(a.clone(), b.clone())
                        .with_weight(weight)
                        .with_attributes(attributes);
                    let with = net.add_edge_with(spec.clone()).map(|_| 1);
                    let plain = net.add_edge(&a, &b, weight).map(|_| 1);
                    // In a batch, after a good item: the error names item 1.
                    let good = EdgeSpec::new("link", "compile");
                    let batch = match net.add_edges([good, spec], MissingNodes::Fail) {
                        Ok(outcome) => Ok(outcome.edge_ids.len()),
                        Err(Error::InvalidBatchItem { index, inner, .. }) => {
                            assert_eq!(index, 1, "{case}");
                            Err(*inner)
                        }
                        Err(e) => panic!("{case}: {e}"),
                    };
                    let results = [
                        (with, first_fault(true)),
                        (plain, first_fault(false)),
                        (batch, first_fault_in_batch()),
                    ];
                    for (result, expected) in results {
                        match (result, expected) {
                            (Ok(added), None) => edges += added,
                            (Err(e), Some((code, field))) => {
                                assert_eq!(e.code(), code, "{case}: {e}");
                                assert!(e.to_string().contains(field), "{case}: {e}");
                            }
                            (result, expected) => {
                                panic!("{case}: {result:?}, expected {expected:?}")
                            }
                        }
                    }
                    assert_eq!(net.edge_count(), edges, "{case}");
                    assert_eq!(net.node_count(), 2, "{case}");
                }
            }
        }
    }
    // The good edge by each call (and the batch's good item), and by
    // `add_edge` beside the bad attributes.
    assert_eq!(edges, 5);
}

/// A batch with two bad items names the first, whatever the two faults and
/// wherever they sit in a batch longer than its window of lookups.
#[test]
fn a_batch_names_its_first_bad_item() {
    /// A fault's error code, and how it spoils a good item.
    type Fault = (&'static str, fn(EdgeSpec) -> EdgeSpec);
    let faults: [Fault; 4] = [
        ("node_not_found", |e| EdgeSpec::new("nowhere", e.target)),
        ("invalid_id", |e| EdgeSpec::new(e.source, "\u{7}")),
        ("invalid_weight", |e| e.with_weight(f64::NAN)),
        ("invalid_attributes", |e| {
            e.with_attribute("owner", json!(["nested"]))
        }),
    ];
    let mut net = Network::new();
    for i in 0..10 {
        net.add_node(&format!("n{i}")).unwrap();
    }
    let positions = [0, 1, 15, 24, 25, 26, 40, 59];
    for (k, &i) in positions.iter().enumerate() {
        for &j in &positions[k + 1..] {
            for (first_code, first) in faults {
                for (_, second) in faults {
                    let mut batch: Vec<EdgeSpec> = (0..60)
                        .map(|e| {
                            EdgeSpec::new(format!("n{}", e % 10), format!("n{}", (e + 3) % 10))
                        })
                        .collect();
                    batch[i] = first(batch[i].clone());
                    batch[j] = second(batch[j].clone());
                    match net.add_edges(batch, MissingNodes::Fail) {
                        Err(Error::InvalidBatchItem { index, inner, .. }) => {
                            assert_eq!((index, inner.code()), (i, first_code), "items {i} and {j}");
                        }
                        other => panic!("items {i} and {j}: {other:?}"),
                    }
                    assert_eq!(net.edge_count(), 0);
                }
            }
        }
    }
}

/// A batch with `MissingNodes::Create` equals its items added one at a time,
/// each missing endpoint made as it is first named: the same nodes in the same
/// order, the same edges, the new ids in order of first appearance; and with
/// `MissingNodes::Fail` the first item that names a missing node is the error,
/// ahead of a later invalid item.
#[test]
fn a_batch_that_creates_endpoints_equals_its_items_one_at_a_time() {
    let mut state = 11u64;
    let mut next = move |n: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    let mut base = Network::new();
    for i in (0..300).step_by(2) {
        base.add_node(&format!("n{i}")).unwrap();
    }
    let items: Vec<(String, String, f64)> = (0..2_000)
        .map(|_| {
            (
                format!("n{}", next(300)),
                format!("n{}", next(300)),
                next(9) as f64,
            )
        })
        .collect();
    let mut batch = base.clone();
    let outcome = batch
        .add_edges(items.clone(), MissingNodes::Create)
        .unwrap();
    let mut one_by_one = base.clone();
    let mut created = Vec::new();
    for (s, t, w) in &items {
        for id in [s, t] {
            if one_by_one.index_of(id).is_none() {
                one_by_one.add_node(id).unwrap();
                created.push(id.clone());
            }
        }
        one_by_one.add_edge(s, t, *w).unwrap();
    }
    assert_eq!(outcome.created_nodes, created);
    let ids = |net: &Network| -> Vec<String> {
        net.graph()
            .node_weights()
            .map(|n| n.id.to_string())
            .collect()
    };
    assert_eq!(ids(&batch), ids(&one_by_one));
    let edges = |net: &Network| -> Vec<(String, String, f64)> {
        net.graph()
            .edge_indices()
            .map(|e| {
                let (a, b) = net.graph().edge_endpoints(e).unwrap();
                (
                    net.graph()[a].id.to_string(),
                    net.graph()[b].id.to_string(),
                    net.graph()[e].weight,
                )
            })
            .collect()
    };
    assert_eq!(edges(&batch), edges(&one_by_one));

    // Fail: item 2 names a missing node; item 3 is invalid; item 2 is the error.
    let mut net = base.clone();
    let specs = vec![
        EdgeSpec::new("n0", "n2"),
        EdgeSpec::new("n2", "n4").with_attribute("k", "v"),
        EdgeSpec::new("n4", "n1").with_attribute("k", "v"),
        EdgeSpec::new("n0", "n2").with_weight(f64::NAN),
    ];
    match net.add_edges(specs.clone(), MissingNodes::Fail) {
        Err(Error::InvalidBatchItem { index, inner, .. }) => {
            assert_eq!(index, 2);
            assert_eq!(inner.code(), "node_not_found");
            assert!(inner.to_string().contains("'n1'"), "{inner}");
        }
        other => panic!("expected item 2's missing node, got {other:?}"),
    }
    // Create: the invalid item 3 fails the batch, and nothing changes.
    match net.add_edges(specs, MissingNodes::Create) {
        Err(Error::InvalidBatchItem { index, .. }) => assert_eq!(index, 3),
        other => panic!("expected item 3's weight, got {other:?}"),
    }
    assert_eq!((net.node_count(), net.edge_count()), (base.node_count(), 0));
}
