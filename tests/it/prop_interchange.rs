//! Property tests: random small networks with arbitrary Unicode ids and scalar
//! attributes survive export → parse → apply into an empty network.

use networks_mcp::interchange::{self, Format};
use networks_mcp::network::{EdgeSpec, Network, NodeSpec};
use proptest::prelude::*;
use serde_json::{Map, Number, Value, json};

/// Ids: printable Unicode, biased towards the characters formats must escape.
fn id() -> impl Strategy<Value = String> {
    prop_oneof![
        "[^\\p{C}]{1,10}",
        "[\"\\\\'`<>&#|;{}\\[\\] a-]{1,6}",
        Just("end".to_string()),
        Just("graph".to_string()),
    ]
    .prop_filter("ids are not blank", |s| !s.trim().is_empty())
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        any::<u64>().prop_map(|u| json!(u)),
        any::<f64>()
            .prop_filter_map("finite", Number::from_f64)
            .prop_map(Value::Number),
        "([^\\p{C}]|[\t\n\r\"\\\\]){0,12}".prop_map(Value::String),
    ]
}

fn attributes() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::vec((id(), scalar()), 0..4).prop_map(|pairs| pairs.into_iter().collect())
}

fn data() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        Just(None),
        (scalar(), "[^\\p{C}]{0,6}")
            .prop_map(|(v, s)| Some(json!({"v": v, "list": [s, 1, [true]]}))),
    ]
}

fn network() -> impl Strategy<Value = Network> {
    let nodes = prop::collection::vec((id(), data(), attributes()), 1..7);
    nodes.prop_flat_map(|nodes| {
        let n = nodes.len();
        let weight = any::<f64>().prop_filter("finite", |w| w.is_finite());
        let edges = prop::collection::vec((0..n, 0..n, weight, attributes()), 0..10);
        (Just(nodes), edges).prop_map(|(nodes, edges)| {
            let mut net = Network::named("prop");
            for (id, data, attrs) in nodes {
                net.add_node_with(NodeSpec {
                    id: id.clone(),
                    data,
                    attributes: attrs,
                })
                .unwrap();
            }
            let ids: Vec<String> = net.node_ids().map(String::from).collect();
            for (a, b, w, attrs) in edges {
                let (a, b) = (&ids[a % ids.len()], &ids[b % ids.len()]);
                net.add_edge_with(EdgeSpec {
                    source: a.into(),
                    target: b.into(),
                    weight: w,
                    attributes: attrs,
                })
                .unwrap();
            }
            net
        })
    })
}

type Snapshot = (
    Vec<(String, Option<Value>, Map<String, Value>)>,
    Vec<(String, String, f64, Map<String, Value>)>,
);

/// Node ids with data, and edges without attributes.
type Shape = (Vec<(String, Option<Value>)>, Vec<(String, String, f64)>);

fn shape(s: Snapshot) -> Shape {
    (
        s.0.into_iter().map(|(id, data, _)| (id, data)).collect(),
        s.1.into_iter().map(|(a, b, w, _)| (a, b, w)).collect(),
    )
}

fn snapshot(net: &Network, keep_nulls: bool) -> Snapshot {
    let strip = |mut m: Map<String, Value>| {
        if !keep_nulls {
            m.retain(|_, v| !v.is_null());
        }
        m
    };
    let nodes = net
        .node_ids()
        .map(|id| {
            let node = net.node(id).unwrap();
            (
                id.to_string(),
                node.data.as_deref().cloned(),
                strip(node.attributes.to_map()),
            )
        })
        .collect();
    let mut edges = net.edges_of(None);
    edges.sort_by_key(|e| e.id);
    let edges = edges
        .into_iter()
        .map(|e| {
            (
                e.source.to_string(),
                e.target.to_string(),
                e.weight,
                strip(e.attributes.to_map()),
            )
        })
        .collect();
    (nodes, edges)
}

fn round_trip(net: &Network, format: Format) -> Network {
    let text = interchange::export(net, format, None);
    let graph = interchange::parse(format, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut copy = Network::new();
    interchange::apply(&mut copy, graph).unwrap();
    copy
}

/// A network whose edges carry `relation` strings, biased towards the texts
/// that look like the Mermaid export's other edge-label forms.
fn network_with_relations() -> impl Strategy<Value = Network> {
    let relation = prop_oneof![
        Just(None),
        "[^\\p{C}]{0,8}".prop_map(Some),
        "[0-9.e+ -]{1,5}".prop_map(Some),
        "[a-z]{0,3} ?\\([0-9.]{1,3}\\)".prop_map(Some),
        "[\"#&<>`|ﬂ¶ß°;()]{1,4}".prop_map(Some),
    ];
    let weight = prop_oneof![
        Just(1.0),
        any::<f64>().prop_filter("finite", |w| w.is_finite())
    ];
    (
        prop::collection::vec(id(), 1..7),
        prop::collection::vec((0..7usize, 0..7usize, weight, relation), 0..10),
    )
        .prop_map(|(ids, edges)| {
            let mut net = Network::named("prop");
            for id in &ids {
                net.add_node(id).unwrap();
            }
            let ids: Vec<String> = net.node_ids().map(String::from).collect();
            for (a, b, weight, relation) in edges {
                let mut edge =
                    EdgeSpec::new(&ids[a % ids.len()], &ids[b % ids.len()]).with_weight(weight);
                if let Some(relation) = relation {
                    edge = edge.with_attribute("relation", relation);
                }
                net.add_edge_with(edge).unwrap();
            }
            net
        })
}

/// Node ids, and edges as (source, target, weight, relation).
type MermaidView = (Vec<String>, Vec<(String, String, f64, Option<Value>)>);

/// What the Mermaid export writes of an edge: endpoints, weight, and its
/// `relation` when that is a non-empty string.
fn mermaid_view(net: &Network) -> MermaidView {
    let (nodes, edges) = snapshot(net, true);
    (
        nodes.into_iter().map(|(id, _, _)| id).collect(),
        edges
            .into_iter()
            .map(|(a, b, w, mut attrs)| {
                let relation = attrs
                    .remove("relation")
                    .filter(|r| r.as_str().is_some_and(|r| !r.is_empty()));
                (a, b, w, relation)
            })
            .collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Our Mermaid export reads back exactly: ids, order, edges, weights, relations.
    #[test]
    fn mermaid_round_trips_what_it_writes(net in network_with_relations()) {
        let copy = round_trip(&net, Format::Mermaid);
        prop_assert_eq!(mermaid_view(&copy), mermaid_view(&net));
    }

    /// Any network's export (arbitrary ids and attributes) reads back too.
    #[test]
    fn mermaid_round_trips_any_network(net in network()) {
        let copy = round_trip(&net, Format::Mermaid);
        prop_assert_eq!(mermaid_view(&copy), mermaid_view(&net));
    }

    /// Arbitrary text made of Mermaid pieces is read or refused, never a panic,
    /// and every error is `invalid_import` or a bound.
    #[test]
    fn mermaid_import_never_panics(
        body in prop::collection::vec(
            "flowchart|graph|subgraph|end|LR|TD|-->|---|-.->|==>|--o|--x|<-->|~~~|--|==|-\\.|\\||\\[|\\]|\\(|\\)|\\{|\\}|\\[\\(|\\(\\(|>|/|\\\\|&|:::|@\\{|\\}|:|,|;|%%|#|[a-zé0-9_]{1,3}|\"[^\"]{0,3}\"?|`|style|class|click|direction TB|\n| ",
            0..40,
        ),
        header in any::<bool>(),
    ) {
        let body = body.concat();
        let text = if header { format!("flowchart LR\n{body}") } else { body };
        if let Err(e) = interchange::parse(Format::Mermaid, &text) {
            prop_assert!(matches!(e.code(), "invalid_import" | "limit_exceeded"), "{}", e);
        }
    }

    /// The JSON readers of other tools' plans never panic on JSON of any shape.
    #[test]
    fn plan_imports_never_panic(
        lines in prop::collection::vec(
            prop_oneof![
                Just("{\"type\":\"entity\",\"name\":\"a\",\"observations\":[1]}".to_string()),
                Just("{\"type\":\"relation\",\"from\":\"a\",\"to\":2}".to_string()),
                Just("{\"id\":\"b\",\"dependencies\":[{\"depends_on_id\":\"a\",\"type\":\"parent-child\"}],\"labels\":[\"x\"]}".to_string()),
                Just("{\"tasks\":[{\"id\":1,\"subtasks\":[{\"id\":1,\"dependencies\":[2,\"1.1\"]}]}]}".to_string()),
                Just("{\"master\":{\"tasks\":[{\"id\":\"x\",\"priority\":\"high\",\"tags\":[]}]}}".to_string()),
                "[\\[\\]{}:,\"a-z0-9 ]{0,16}",
            ],
            0..6,
        ),
    ) {
        let text = lines.join("\n");
        for format in [Format::MemoryJsonl, Format::BeadsJsonl, Format::TaskmasterJson] {
            if let Err(e) = interchange::parse(format, &text) {
                prop_assert_eq!(e.code(), "invalid_import", "{}", e);
            }
        }
    }

    /// The readers of package managers' output never panic on text of any
    /// shape built from their own pieces.
    #[test]
    fn dependency_imports_never_panic(
        pieces in prop::collection::vec(
            prop_oneof![
                Just("{\"version\":1,\"packages\":[{\"id\":\"x\",\"name\":\"a\",\"version\":\"1\"}],\"workspace_members\":[\"x\"],\"resolve\":{\"nodes\":[{\"id\":\"x\",\"deps\":[{\"pkg\":\"x\",\"dep_kinds\":[{\"kind\":\"dev\",\"target\":null}]}]}]}}".to_string()),
                Just("{\"lockfileVersion\":3,\"packages\":{\"\":{\"dependencies\":{\"a\":\"1\"},\"workspaces\":[\"p/*\"]},\"node_modules/a\":{\"link\":true,\"resolved\":\"p/a\"},\"p/a\":{\"version\":\"1\",\"peerDependencies\":{\"b\":\"*\"}}}}".to_string()),
                Just("[{\"package\":{\"key\":\"a\",\"installed_version\":\"?\"},\"dependencies\":[{\"key\":\"b\"}]}]".to_string()),
                Just("[{\"key\":\"a\",\"dependencies\":[{\"key\":\"b\",\"dependencies\":[]}]}]".to_string()),
                Just("m a@v1\na@v1 go@1.22.0\n".to_string()),
                "[\\[\\]{}:,@/\" a-z0-9_]{0,16}",
            ],
            0..6,
        ),
    ) {
        let text = pieces.join("\n");
        for format in [
            Format::CargoMetadata,
            Format::PackageLockJson,
            Format::GoModGraph,
            Format::PipdeptreeJson,
        ] {
            if let Err(e) = interchange::parse(format, &text) {
                prop_assert_eq!(e.code(), "invalid_import", "{}", e);
            }
        }
    }

    #[test]
    fn node_link_json_round_trips_exactly(net in network()) {
        let copy = round_trip(&net, Format::NodeLinkJson);
        prop_assert_eq!(snapshot(&copy, true), snapshot(&net, true));
    }

    #[test]
    fn graphml_round_trips_all_but_nulls(net in network()) {
        let copy = round_trip(&net, Format::Graphml);
        prop_assert_eq!(snapshot(&copy, false), snapshot(&net, false));
    }

    /// DOT types attribute values by their text, so check ids, order, weights and data.
    #[test]
    fn dot_round_trips_ids_weights_and_data(net in network()) {
        let copy = round_trip(&net, Format::Dot);
        prop_assert_eq!(shape(snapshot(&copy, false)), shape(snapshot(&net, false)));
    }

    /// Arbitrary text made of DOT pieces is read or rejected, never a panic.
    #[test]
    fn dot_import_never_panics(
        body in prop::collection::vec(
            "digraph|Graph|subgraph|node|\\{|\\}|\\[|\\]|->|--|[a-zé0-9._-]{1,3}|\"[^\"]{0,3}\"?|<|>|=|;|,|:|\\+|/\\*|\\*/|#|\\\\|\n| ",
            0..40,
        ),
        wrap in any::<bool>(),
    ) {
        let body = body.concat();
        let text = if wrap { format!("digraph {{ {body} }}") } else { body };
        let _ = interchange::parse(Format::Dot, &text);
    }

    /// The induced subgraph of any node subset round-trips as well.
    #[test]
    fn subset_export_is_the_induced_subgraph(net in network(), mask in any::<u64>()) {
        let ixs: Vec<_> = net.node_indices().collect();
        let only: std::collections::HashSet<_> = ixs
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << (i % 64)) != 0)
            .map(|(_, ix)| *ix)
            .collect();
        let text = interchange::export(&net, Format::NodeLinkJson, Some(&only));
        let graph = interchange::parse(Format::NodeLinkJson, &text).unwrap();
        let kept: Vec<String> = ixs.iter().filter(|ix| only.contains(ix)).map(|ix| net.id_at(*ix).to_string()).collect();
        prop_assert_eq!(graph.nodes.iter().map(|n| n.id.clone()).collect::<Vec<_>>(), kept.clone());
        let expected = net.edges_of(None).into_iter().filter(|e| kept.iter().any(|k| k == e.source) && kept.iter().any(|k| k == e.target)).count();
        prop_assert_eq!(graph.edges.len(), expected);
    }
}
